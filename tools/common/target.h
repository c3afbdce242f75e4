/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target rules fsck.f2fs, dump.f2fs and inject.f2fs share: what a tool
 * checks before it opens its device or image, and the one line it prints
 * when the target is wrong.  A target must be a regular file or a block
 * device (never a directory, character device, FIFO or socket), large
 * enough to hold both superblock copies, and, for a run that may write,
 * neither mounted nor held open exclusively by anyone else:
 *
 *	access        free   mounted rw / held     mounted read-only
 *	TOOL_READS    run    warning, run          warning, run
 *	TOOL_REPAIRS  run    refused               warning, check only
 *	TOOL_WRITES   run    refused               refused
 *
 * The device layer (f2fs_target_classify, f2fs_dev_probe_content) finds the
 * facts; the wording is here, once.  Lines follow common.h's form:
 *
 *	inject.f2fs: /dev/loop3: mounted at /mnt: refusing to write to it
 *	dump.f2fs: warning: /dev/loop3: in use by the system (held open
 *	exclusively): the result may be stale
 *	fsck.f2fs: ext4.img: holds an ext4 filesystem, not F2FS
 */
#ifndef TOOLS_COMMON_TARGET_H
#define TOOLS_COMMON_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "f2fs/device.h"
#include "tools/common/common.h"

enum tool_access {
	TOOL_READS,   /* never writes the target */
	TOOL_REPAIRS, /* may write to repair it; on a read-only mount it only checks */
	TOOL_WRITES,  /* writes the target */
};

/*
 * Check t->image (the path given) for a run with @access, before it is
 * opened: on a bad target print one line and exit(@status); on a busy one
 * that the run may still read, print one warning line (tool_warn).
 * Returns true when the run may write (always for TOOL_WRITES, never for
 * TOOL_READS, and for TOOL_REPAIRS unless the target is mounted read-only).
 */
bool tool_check_target(struct tool *t, enum tool_access access, int status);

/*
 * Open t->image for writing, after tool_check_target(): O_EXCL on a block
 * device, so nothing can mount it while the handle is open.  With
 * t->sparse the image is an Android sparse image, read into memory and
 * rewritten when the device is closed (f2fs_dev_sparse_open); one that is
 * not one, or a build without libsparse, is refused in one line.  A device that
 * was mounted or claimed since the check is refused with the same line;
 * any other failure is "cannot open for writing: REASON".  Exits @status.
 * @flags adds f2fs_dev_open() flags (F2FS_DEV_DIRECT).  The other devices
 * of a multi-device volume are opened and joined (tool_join_members; with
 * F2FS_VOLUME_GROW_LAST in @flags, the last at its full size).
 */
struct f2fs_device *tool_open_for_writing(struct tool *t, int status, unsigned int flags);

/*
 * Open t->image read-only (with t->sparse: as an Android sparse image),
 * then its other devices when it is the first of a multi-device volume
 * (tool_join_members with TOOL_READS).  Exits
 * @status with one line when it cannot.
 */
struct f2fs_device *tool_open_for_reading(struct tool *t, int status);

/*
 * When @dev (t->image, just opened with @flags) is the first device of a
 * multi-device volume, open the others its superblock lists, each checked
 * for @access as t->image was (tool_check_target), and return their join
 * (f2fs_volume_open_members); else @dev.  On failure @dev is closed and the
 * tool exits @status with "IMAGE: REASON" naming the device at fault.
 */
struct f2fs_device *tool_join_members(struct tool *t, struct f2fs_device *dev,
				      enum tool_access access, unsigned int flags, int status);

/*
 * With @journal set (the tool's --undo or -z), stack an undo journal on
 * @dev before anything is written (f2fs_undo_stack), so that f2fs_undo can
 * take the run back; returns the device to write through.  On failure
 * @dev is closed and the tool exits @status with "--undo FILE: REASON".
 */
struct f2fs_device *tool_undo_stack(const struct tool *t, struct f2fs_device *dev,
				    const char *journal, int status);

/* Refuse -S in a build without libsparse, before anything is opened: one line, exit @status. */
void tool_check_sparse_support(const struct tool *t, int status);

/*
 * Why t->image did not open as an F2FS volume (f2fs_fs_open returned @err
 * with the reason @why), in one phrase for tool_fail_image(): what libblkid
 * finds there instead ("holds an ext4 filesystem, not F2FS", "holds a gpt
 * partition table, ..."), else @why (or strerror when @why is empty).
 * Running out of memory is said as such, never blamed on the target.
 * Written to @out (@len bytes).
 */
void tool_not_f2fs_reason(const struct tool *t, int err, const char *why, char *out, size_t len);

#endif
