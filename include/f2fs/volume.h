/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an existing volume for reading: pick a valid superblock (the
 * primary in block 0, else the secondary in block 1) and the newer valid
 * checkpoint pack.  Every on-disk field the later read path uses as an
 * address or index is range-checked here, so a corrupted image fails with a
 * one-line reason instead of reading out of bounds.
 */
#ifndef F2FS_VOLUME_H
#define F2FS_VOLUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/format.h"

struct f2fs_volume;

/*
 * Only the superblock: the first copy that passes the checks of
 * f2fs_volume_open(), else the second, whatever the checkpoint packs hold
 * (a rebuild makes a checkpoint of its own).  A device shorter than the
 * volume is accepted.
 */
int f2fs_volume_read_super(struct f2fs_device *dev, struct f2fs_super_block *sb, char *why,
			   size_t why_len);

/*
 * Make *@dev, the first device of a volume, the whole volume: when its
 * superblock lists several devices, open the others by their recorded
 * paths with @flags (f2fs_dev_open), each after @check (when given: a
 * tool's test of a path; a negative return stops the open with it), check
 * that each holds its segments, and replace *@dev with their join
 * (f2fs_dev_concat), which owns them all.  A volume on one device, a device
 * already joined, or one without a readable superblock is left as it is
 * (f2fs_fs_open then says what is wrong).  On failure *@dev is unchanged and
 * @why says which device and why.
 */
/*
 * A flag f2fs_volume_open_members() takes beside the f2fs_dev_open() ones
 * (it passes them on without it): join the last device at its full size,
 * not at its recorded share, so that resize.f2fs can grow the volume into
 * it; a device before it that has grown by a zone or more is refused
 * (-EINVAL), its space out of the volume's reach.
 */
#define F2FS_VOLUME_GROW_LAST (1u << 24)

int f2fs_volume_open_members(struct f2fs_device **dev, unsigned int flags,
			     int (*check)(const char *path, void *arg), void *arg, char *why,
			     size_t why_len);

/* The chosen superblock and the first block of the chosen checkpoint pack. */
const struct f2fs_super_block *f2fs_volume_sb(const struct f2fs_volume *v);
const struct f2fs_checkpoint *f2fs_volume_cp(const struct f2fs_volume *v);

/* Which copy was chosen: superblock 0 (block 0) or 1; checkpoint pack 0 or 1. */
int f2fs_volume_sb_index(const struct f2fs_volume *v);
int f2fs_volume_cp_index(const struct f2fs_volume *v);

/* The chosen checkpoint's version, and the block address its pack starts at. */
uint64_t f2fs_volume_cp_version(const struct f2fs_volume *v);
uint32_t f2fs_volume_cp_start(const struct f2fs_volume *v);

/* The device the volume was opened on. */
struct f2fs_device *f2fs_volume_device(const struct f2fs_volume *v);

/*
 * The whole blocks the device holds, and whether that is fewer than the
 * superblock's block_count: a cut image, accepted only when the volume
 * was opened with F2FS_FS_SHORT_DEVICE (f2fs/fs.h).
 */
uint64_t f2fs_volume_device_blocks(const struct f2fs_volume *v);
bool f2fs_volume_truncated(const struct f2fs_volume *v);

/*
 * One line about a copy that was rejected (superblock and/or checkpoint
 * pack) while the other one was used, or NULL when both copies were fine.
 */
const char *f2fs_volume_warning(const struct f2fs_volume *v);

/* Copies rejected while the other copy was used: a mask of these bits. */
enum f2fs_rejected_copy {
	F2FS_REJECTED_SB0 = 1u << 0, /* superblock in block 0 */
	F2FS_REJECTED_SB1 = 1u << 1, /* superblock in block 1 */
	F2FS_REJECTED_CP1 = 1u << 2, /* checkpoint pack 1 */
	F2FS_REJECTED_CP2 = 1u << 3, /* checkpoint pack 2 */
	/*
	 * with CP1 or CP2: the rejected pack is the newest whose checksums
	 * hold; its fields are insane, so the kernel refuses to mount
	 */
	F2FS_REJECTED_CP_NEWEST = 1u << 4,
};
#define F2FS_REJECTED_SB (F2FS_REJECTED_SB0 | F2FS_REJECTED_SB1)
#define F2FS_REJECTED_CP (F2FS_REJECTED_CP1 | F2FS_REJECTED_CP2 | F2FS_REJECTED_CP_NEWEST)

unsigned int f2fs_volume_rejected(const struct f2fs_volume *v);

/*
 * The line about one kind of rejected copy (@which: F2FS_REJECTED_SB or
 * F2FS_REJECTED_CP), e.g. "superblock #1 rejected (magic ...); using #0",
 * or NULL when no copy of that kind was rejected.
 */
const char *f2fs_volume_rejected_why(const struct f2fs_volume *v, unsigned int which);

#endif
