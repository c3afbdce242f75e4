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

#define ZONE_BATCH 128u

void fs_read_zone_capacity(struct f2fs_fs *fs)
{
	struct f2fs_zone z[ZONE_BATCH];
	uint64_t off = 0, size, unusable;
	bool found = false;
	unsigned int nr, i;

	if (!(fs->features & F2FS_FEATURE_BLKZONED) ||
	    f2fs_dev_zone_info(fs->dev)->model == F2FS_ZONED_NONE)
		return;
	size = f2fs_dev_get_info(fs->dev)->size_bytes;
	while (off < size && f2fs_dev_report_zones(fs->dev, off, z, ZONE_BATCH, &nr) == 0 && nr) {
		for (i = 0; i < nr; i++) {
			if (!f2fs_zone_is_seq(&z[i]))
				continue;
			unusable = (z[i].len - z[i].capacity) / F2FS_BLKSIZE;
			if (found && unusable != fs->geo.unusable_per_sec)
				fs->zone_capacity_mixed = true;
			if (!found)
				fs->geo.unusable_per_sec = (uint32_t)unusable;
			found = true;
		}
		off = z[nr - 1].start + z[nr - 1].len;
	}
}

bool f2fs_fs_zone_capacity_mixed(const struct f2fs_fs *fs)
{
	return fs->zone_capacity_mixed;
}
