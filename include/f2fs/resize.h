/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resizing a volume (resize.f2fs): growing it into a larger device, or
 * shrinking it when what it holds fits the smaller size.  The new layout
 * is newest upstream resize.f2fs's (f2fs_layout_resize); the moving is the
 * write path's: f2fs_confine() first empties, through the cleaner, the
 * segments the new layout no longer has in its main area (the ones the
 * grown metadata areas take at its start, or the ones past a smaller end),
 * and checkpoints the old volume so.  Every block then keeps its address,
 * and only the main-area segment numbers shift: the SIT, NAT and SSA of
 * that checkpoint are written into the new areas through a write-path
 * handle over the new superblock, two checkpoints follow, and the
 * superblocks go last.
 *
 * Everything that can refuse the resize (a size too small for the blocks
 * in use, nids past a smaller NAT, orphans, a zoned volume without -f, a
 * volume of several devices whose metadata would not fit its first device
 * or that would shrink past its last device's start) is checked before
 * anything is written.  A volume of several devices grows and shrinks
 * within its last device, which the caller joins at its full size
 * (F2FS_VOLUME_GROW_LAST, f2fs/volume.h); the device table changes with
 * it.  A resize is all or
 * nothing: its new areas start at the old main area's start (segment 0
 * moves there), so nothing the old superblock and checkpoint use is
 * written before the superblock in block 0, the last write and the
 * commit; a failure or a power cut before it leaves the old volume whole
 * (the confine step's own checkpoints are the old volume's, with blocks
 * moved).  A resize with -f (upstream's layout; a shrink with -f -s keeps
 * the areas, as upstream's) and a zoned resize (by whole zones, its areas
 * kept in their conventional zones; stale zones grown into are reset
 * first) rewrite the areas in place: a failure there needs the undo
 * journal (f2fs_undo).
 */
#ifndef F2FS_RESIZE_H
#define F2FS_RESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/format.h"

struct f2fs_resize_opts {
	uint64_t target_sectors; /* the new size, in 512-byte sectors (resize.f2fs -t) */
	double overprovision;	 /* -o percent; 0: the best for the new size */
	/*
	 * -s: required to shrink (upstream's command line); with -f the
	 * metadata areas stay as they are, without it they relocate, sized for
	 * the new size.
	 */
	bool safe;
	bool large_nat_bitmap; /* -i: the NAT sized as mkfs -i sizes it */
	/*
	 * -f: resize in place with upstream's layout (not all or nothing;
	 * without it a resize relocates the metadata areas), and lay the
	 * volume out again even at the same size.
	 */
	bool force;
};

enum f2fs_resize_result {
	F2FS_RESIZE_DONE = 0,
	F2FS_RESIZE_SAME_SIZE, /* nothing to do: the volume already has that size */
};

struct f2fs_resize_report {
	enum f2fs_resize_result result;
	struct f2fs_super_block old_sb, new_sb;
	uint64_t moved_blocks; /* valid blocks the confinement moved */
	int32_t shift_segs;    /* main-area segment numbers moved down by this much */
};

/*
 * Resize the volume on @dev (opened for writing, of at least the target
 * size).  Returns 0 with @r filled; or a negative errno with @why one line:
 * -EINVAL (a bad option for this resize: shrinking without -s,
 * growing with -s, a zoned resize without -f or of several devices), -ENOSPC
 * (the size is too small for the volume's metadata or for what it holds, or
 * reaches past what the first or last of several devices can take), -E2BIG (nids in use past the
 * smaller NAT), -EUCLEAN (the volume needs fsck or a mount first), an I/O error.
 */
int f2fs_resize(struct f2fs_device *dev, const struct f2fs_resize_opts *o,
		struct f2fs_resize_report *r, char *why, size_t why_len);

#endif
