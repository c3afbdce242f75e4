// SPDX-License-Identifier: GPL-2.0
/*
 * The zones under a volume.  A zoned volume's sections are its device's
 * zones, and a zone may hold less than its size (an NVMe ZNS zone's
 * capacity): the kernel reads the sequential zones at mount, takes
 * size - capacity as the unusable tail of every section (it supports one
 * capacity for all zones and refuses mixed ones), never allocates past it
 * and never counts a segment lying wholly past it as free.  The handle
 * takes the same reading, so the write path, the checker and the counts
 * they compare agree with the kernel.  An image file has no zones to read:
 * there every block of a section counts as usable.
 */
#include "config.h"

#include "f2fs/zone.h"
#include "fs_internal.h"

struct capacity_scan {
	struct f2fs_fs *fs;
	bool found;
};

static int note_capacity(const struct f2fs_zone *z, void *arg)
{
	struct capacity_scan *s = arg;
	uint64_t unusable = (z->len - z->capacity) >> s->fs->geo.blk.log_blksize;

	if (!f2fs_zone_is_seq(z))
		return 0;
	if (s->found && unusable != s->fs->geo.unusable_per_sec)
		s->fs->zone_capacity_mixed = true;
	if (!s->found)
		s->fs->geo.unusable_per_sec = (uint32_t)unusable;
	s->found = true;
	return 0;
}

void fs_read_zone_capacity(struct f2fs_fs *fs)
{
	struct capacity_scan s = {fs, false};

	if (!(fs->features & F2FS_FEATURE_BLKZONED) ||
	    f2fs_dev_zone_info(fs->dev)->model == F2FS_ZONED_NONE)
		return;
	/* a device that cannot report leaves every block usable, as on an image */
	(void)f2fs_dev_for_each_zone(fs->dev, note_capacity, &s);
}

bool f2fs_fs_zone_capacity_mixed(const struct f2fs_fs *fs)
{
	return fs->zone_capacity_mixed;
}
