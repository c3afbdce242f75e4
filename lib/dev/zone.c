// SPDX-License-Identifier: GPL-2.0
/*
 * The zone front end (include/f2fs/zone.h): the model and geometry a backend
 * filled at open, and the report, reset and finish requests, checked here
 * once (a zoned device, a writable one, a range inside it) so that the
 * backends -- the kernel's ioctls in blkzoned.c, the emulation in
 * memory_zoned.c, a stacked layer or a multi-device volume -- only act.
 * Zone boundaries are the backend's to check: a multi-device volume's zones
 * need not lie on multiples of the zone size.
 */
#include "config.h"

#include <errno.h>

#include "dev_internal.h"

const struct f2fs_zone_info *f2fs_dev_zone_info(const struct f2fs_device *dev)
{
	return &dev->zones;
}

static bool zoned(const struct f2fs_device *dev)
{
	return dev->zones.model != F2FS_ZONED_NONE && dev->ops->report_zones;
}

int f2fs_dev_report_zones(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			  unsigned int max, unsigned int *nr)
{
	*nr = 0;
	if (!zoned(dev))
		return -EOPNOTSUPP;
	if (off >= dev->info.size_bytes || max == 0)
		return 0;
	return dev->ops->report_zones(dev, off, zones, max, nr);
}

#define ZONE_BATCH 128u

int f2fs_dev_for_each_zone(struct f2fs_device *dev, int (*fn)(const struct f2fs_zone *z, void *arg),
			   void *arg)
{
	struct f2fs_zone z[ZONE_BATCH];
	uint64_t off = 0;
	unsigned int nr, i;
	int ret;

	while (off < dev->info.size_bytes) {
		ret = f2fs_dev_report_zones(dev, off, z, ZONE_BATCH, &nr);
		if (ret < 0)
			return ret;
		if (nr == 0)
			return 0;
		for (i = 0; i < nr; i++) {
			ret = fn(&z[i], arg);
			if (ret)
				return ret;
		}
		off = z[nr - 1].start + z[nr - 1].len;
	}
	return 0;
}

static int zone_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off, uint64_t len)
{
	if (!zoned(dev) || !dev->ops->zone_mgmt)
		return -EOPNOTSUPP;
	if (dev->readonly)
		return -EBADF;
	if (off > dev->info.size_bytes || len > dev->info.size_bytes - off || len == 0)
		return -EINVAL;
	return dev->ops->zone_mgmt(dev, op, off, len);
}

int f2fs_dev_reset_zones(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	return zone_mgmt(dev, F2FS_ZONE_OP_RESET, off, len);
}

int f2fs_dev_finish_zones(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	return zone_mgmt(dev, F2FS_ZONE_OP_FINISH, off, len);
}
