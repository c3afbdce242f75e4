// SPDX-License-Identifier: GPL-2.0
/*
 * Zoned block devices through the kernel: the model and limits from the
 * queue's sysfs attributes (zoned, chunk_sectors, nr_zones, max_open_zones,
 * max_active_zones), the zones from BLKREPORTZONE (with each zone's
 * capacity where the kernel reports one), and BLKRESETZONE / BLKFINISHZONE.
 * The ioctls of linux/blkzoned.h do all a tool needs, so no zone library is
 * linked.  Positions cross this file as bytes; the kernel's are 512-byte
 * sectors.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>

#ifdef HAVE_LINUX_BLKZONED_H
#include <linux/blkzoned.h>
#endif

#include "dev_internal.h"

#define SECTOR_SHIFT 9

/*
 * One queue attribute of block device @rdev as a number; a partition's
 * queue is its disk's, one level up.  -ENOENT when the kernel has none.
 */
static int queue_attr(dev_t rdev, const char *attr, char *val, size_t len)
{
	static const char *const rel[] = {"queue", "../queue"};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/%s", major(rdev), minor(rdev),
			 rel[i], attr);
		if (dev_read_first_line(path, val, len) == 0)
			return 0;
	}
	return -ENOENT;
}

static uint64_t queue_number(dev_t rdev, const char *attr)
{
	char val[32];

	if (queue_attr(rdev, attr, val, sizeof(val)) < 0)
		return 0;
	return strtoull(val, NULL, 10);
}

bool dev_blkzoned_host_managed(dev_t rdev)
{
	char model[32];

	return queue_attr(rdev, "zoned", model, sizeof(model)) == 0 &&
	       strcmp(model, "host-managed") == 0;
}

int dev_blkzoned_probe(struct f2fs_device *dev)
{
	struct f2fs_zone_info *zi = &dev->zones;
	char model[32];
	uint64_t chunk;

	memset(zi, 0, sizeof(*zi));
	if (queue_attr(dev->sys.rdev, "zoned", model, sizeof(model)) < 0 ||
	    strcmp(model, "none") == 0)
		return 0;
	if (strcmp(model, "host-managed") == 0)
		zi->model = F2FS_ZONED_HM;
	else if (strcmp(model, "host-aware") == 0)
		zi->model = F2FS_ZONED_HA;
	else
		return -EOPNOTSUPP;
#ifndef HAVE_LINUX_BLKZONED_H
	return -EOPNOTSUPP; /* built without the zone ioctls */
#else
	chunk = queue_number(dev->sys.rdev, "chunk_sectors");
	if (chunk == 0)
		return -EIO;
	zi->zone_bytes = chunk << SECTOR_SHIFT;
	zi->nr_zones = (uint32_t)((dev->info.size_bytes + zi->zone_bytes - 1) / zi->zone_bytes);
	zi->max_open = (uint32_t)queue_number(dev->sys.rdev, "max_open_zones");
	zi->max_active = (uint32_t)queue_number(dev->sys.rdev, "max_active_zones");
	return 0;
#endif
}

#ifdef HAVE_LINUX_BLKZONED_H

#define REPORT_BATCH 512u

static void from_kernel(const struct blk_zone *k, uint32_t flags, struct f2fs_zone *z)
{
	z->start = k->start << SECTOR_SHIFT;
	z->len = k->len << SECTOR_SHIFT;
#ifdef HAVE_STRUCT_BLK_ZONE_CAPACITY
	z->capacity = (flags & BLK_ZONE_REP_CAPACITY) ? k->capacity << SECTOR_SHIFT : z->len;
#else
	(void)flags;
	z->capacity = z->len;
#endif
	z->type = k->type;
	z->cond = k->cond;
	/* a conventional zone has no pointer: the kernel reports its end */
	z->wp = z->type == F2FS_ZONE_CONV ? z->start + z->len : k->wp << SECTOR_SHIFT;
}

int dev_blkzoned_report(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			unsigned int max, unsigned int *nr)
{
	unsigned int want = max < REPORT_BATCH ? max : REPORT_BATCH, i;
	struct blk_zone_report *rep;
	int ret = 0;

	rep = calloc(1, sizeof(*rep) + want * sizeof(struct blk_zone));
	if (!rep)
		return -ENOMEM;
	*nr = 0;
	while (*nr < max && off < dev->info.size_bytes) {
		rep->sector = off >> SECTOR_SHIFT;
		rep->nr_zones = max - *nr < want ? max - *nr : want;
		if (ioctl(dev->sys.fd, BLKREPORTZONE, rep) < 0) {
			ret = dev_neg_errno();
			break;
		}
		if (rep->nr_zones == 0)
			break;
		for (i = 0; i < rep->nr_zones; i++)
			from_kernel(&rep->zones[i], rep->flags, &zones[(*nr)++]);
		off = zones[*nr - 1].start + zones[*nr - 1].len;
	}
	free(rep);
	return ret;
}

int dev_blkzoned_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off, uint64_t len)
{
	struct blk_zone_range range = {
	    .sector = off >> SECTOR_SHIFT,
	    .nr_sectors = len >> SECTOR_SHIFT,
	};
	unsigned long req = op == F2FS_ZONE_OP_RESET ? BLKRESETZONE : BLKFINISHZONE;

	if (ioctl(dev->sys.fd, req, &range) < 0)
		return dev_neg_errno();
	return 0;
}

#else

int dev_blkzoned_report(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			unsigned int max, unsigned int *nr)
{
	(void)dev, (void)off, (void)zones, (void)max;
	*nr = 0;
	return -EOPNOTSUPP;
}

int dev_blkzoned_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off, uint64_t len)
{
	(void)dev, (void)op, (void)off, (void)len;
	return -EOPNOTSUPP;
}

#endif
