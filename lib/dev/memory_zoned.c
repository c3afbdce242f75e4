// SPDX-License-Identifier: GPL-2.0
/*
 * An emulated host-managed zoned device in memory, so that unit tests check
 * every zone rule the write path, mkfs and fsck must honour without a
 * kernel: conventional zones first, then sequential zones whose writes must
 * land at the write pointer and stay under the zone's capacity, reads past
 * the pointer returning zeros, resets and finishes of whole zones, and the
 * open and active zone limits with the kernel's answers (an implicitly open
 * zone is closed to open another; past max_active a write fails with
 * -EOVERFLOW).  A failed write changes nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

static uint32_t zone_index(const struct f2fs_device *dev, uint64_t off)
{
	return (uint32_t)(off / dev->zones.zone_bytes);
}

static uint32_t count_cond(const struct f2fs_device *dev, bool (*pred)(const struct f2fs_zone *))
{
	uint32_t i, n = 0;

	for (i = 0; i < dev->zones.nr_zones; i++)
		n += pred(&dev->mem.zones[i]);
	return n;
}

static bool is_open(const struct f2fs_zone *z)
{
	return z->cond == F2FS_ZONE_IMP_OPEN || z->cond == F2FS_ZONE_EXP_OPEN;
}

/*
 * Zone @z is about to be written: make it (implicitly) open within the
 * device's limits, closing another implicitly open zone when needed.
 */
static int open_for_write(struct f2fs_device *dev, struct f2fs_zone *z)
{
	const struct f2fs_zone_info *zi = &dev->zones;
	uint32_t i;

	if (is_open(z))
		return 0;
	if (z->cond == F2FS_ZONE_EMPTY && zi->max_active &&
	    count_cond(dev, f2fs_zone_is_active) >= zi->max_active)
		return -EOVERFLOW;
	if (zi->max_open && count_cond(dev, is_open) >= zi->max_open) {
		for (i = 0; i < zi->nr_zones; i++)
			if (dev->mem.zones[i].cond == F2FS_ZONE_IMP_OPEN)
				break;
		if (i == zi->nr_zones)
			return -EOVERFLOW;
		dev->mem.zones[i].cond = F2FS_ZONE_CLOSED;
	}
	z->cond = F2FS_ZONE_IMP_OPEN;
	return 0;
}

/* Can [off, off+len), which lies inside sequential zone @z, be written now? */
static bool seq_write_ok(const struct f2fs_zone *z, uint64_t off, uint64_t len)
{
	if (z->cond == F2FS_ZONE_FULL || z->cond == F2FS_ZONE_READONLY ||
	    z->cond == F2FS_ZONE_OFFLINE)
		return false;
	return off == z->wp && off + len <= z->start + z->capacity;
}

/*
 * Every piece of [off, off+len) in a sequential zone starts at its pointer,
 * and the empty zones it opens fit under max_active.
 */
static int check_write(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;
	uint32_t opened = 0;

	while (off < end) {
		struct f2fs_zone *z = &dev->mem.zones[zone_index(dev, off)];
		uint64_t piece = (z->start + z->len < end ? z->start + z->len : end) - off;

		if (f2fs_zone_is_seq(z) && !seq_write_ok(z, off, piece))
			return -EIO;
		opened += f2fs_zone_is_seq(z) && z->cond == F2FS_ZONE_EMPTY;
		off += piece;
	}
	if (opened && dev->zones.max_active &&
	    count_cond(dev, f2fs_zone_is_active) + opened > dev->zones.max_active)
		return -EOVERFLOW;
	return 0;
}

static int mz_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
		    enum f2fs_dev_tag tag)
{
	uint64_t end = off + len, at = off;
	int ret;

	(void)tag;
	ret = check_write(dev, off, len);
	if (ret < 0)
		return ret;
	while (at < end) {
		struct f2fs_zone *z = &dev->mem.zones[zone_index(dev, at)];
		uint64_t piece = (z->start + z->len < end ? z->start + z->len : end) - at;

		if (f2fs_zone_is_seq(z)) {
			ret = open_for_write(dev, z);
			if (ret < 0)
				return ret;
			z->wp += piece;
			if (z->wp == z->start + z->capacity)
				z->cond = F2FS_ZONE_FULL;
		}
		memcpy(dev->mem.buf + at, (const unsigned char *)buf + (at - off), piece);
		at += piece;
	}
	return 0;
}

static int mz_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	/* never written past a pointer, and a reset zeroes the zone: zeros there */
	memcpy(buf, dev->mem.buf + off, len);
	return 0;
}

/* Does [off, off+len) touch a sequential zone? */
static bool touches_seq(const struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	uint32_t i, last = zone_index(dev, off + len - 1);

	for (i = zone_index(dev, off); i <= last; i++)
		if (f2fs_zone_is_seq(&dev->mem.zones[i]))
			return true;
	return false;
}

static int mz_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	if (touches_seq(dev, off, len))
		return -EOPNOTSUPP;
	memset(dev->mem.buf + off, 0, len);
	return 0;
}

static void reset_zone(struct f2fs_device *dev, struct f2fs_zone *z)
{
	memset(dev->mem.buf + z->start, 0, z->len);
	z->wp = z->start;
	z->cond = F2FS_ZONE_EMPTY;
}

static bool on_zone_boundaries(const struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	uint64_t zb = dev->zones.zone_bytes, end = off + len;

	return off % zb == 0 && (end % zb == 0 || end == dev->info.size_bytes);
}

static int mz_zone_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off, uint64_t len)
{
	uint32_t i, first = zone_index(dev, off), last = zone_index(dev, off + len - 1);

	if (!on_zone_boundaries(dev, off, len))
		return -EINVAL;
	for (i = first; i <= last; i++)
		if (!f2fs_zone_is_seq(&dev->mem.zones[i]))
			return -EIO;
	for (i = first; i <= last; i++) {
		struct f2fs_zone *z = &dev->mem.zones[i];

		if (op == F2FS_ZONE_OP_RESET) {
			reset_zone(dev, z);
		} else {
			z->wp = z->start + z->len;
			z->cond = F2FS_ZONE_FULL;
		}
	}
	return 0;
}

static int mz_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	*reads_zero = true;
	if (!touches_seq(dev, off, len)) {
		memset(dev->mem.buf + off, 0, len);
		return 0;
	}
	if (!on_zone_boundaries(dev, off, len))
		return -EOPNOTSUPP;
	return mz_zone_mgmt(dev, F2FS_ZONE_OP_RESET, off, len); /* -EIO with a conventional zone */
}

static int mz_report(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
		     unsigned int max, unsigned int *nr)
{
	uint32_t i = zone_index(dev, off);

	for (*nr = 0; *nr < max && i < dev->zones.nr_zones; i++)
		zones[(*nr)++] = dev->mem.zones[i];
	return 0;
}

static int mz_flush(struct f2fs_device *dev)
{
	(void)dev;
	return 0;
}

static int mz_close(struct f2fs_device *dev)
{
	free(dev->mem.buf);
	free(dev->mem.zones);
	return 0;
}

static void mz_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	(void)dev, (void)off, (void)len;
}

static const struct dev_ops mz_ops = {
    .prefetch = mz_prefetch,
    .read = mz_read,
    .write = mz_write,
    .zero = mz_zero,
    .discard = mz_discard,
    .flush = mz_flush,
    .close = mz_close,
    .report_zones = mz_report,
    .zone_mgmt = mz_zone_mgmt,
};

static bool params_ok(const struct f2fs_memory_zones *p)
{
	if (p->size == 0 || p->size > SIZE_MAX || p->zone_bytes == 0 || p->zone_bytes % 4096)
		return false;
	if (p->capacity > p->zone_bytes || p->capacity % 4096)
		return false;
	return (p->size + p->zone_bytes - 1) / p->zone_bytes <= UINT32_MAX;
}

static void lay_out_zones(struct f2fs_device *dev, const struct f2fs_memory_zones *p)
{
	uint32_t i;

	for (i = 0; i < dev->zones.nr_zones; i++) {
		struct f2fs_zone *z = &dev->mem.zones[i];

		z->start = (uint64_t)i * p->zone_bytes;
		z->len = p->size - z->start < p->zone_bytes ? p->size - z->start : p->zone_bytes;
		if (i < p->nr_conv) {
			z->type = F2FS_ZONE_CONV;
			z->cond = F2FS_ZONE_NOT_WP;
			z->capacity = z->len;
			z->wp = z->start + z->len;
		} else {
			z->type = F2FS_ZONE_SEQ_REQ;
			z->cond = F2FS_ZONE_EMPTY;
			z->capacity = p->capacity && p->capacity < z->len ? p->capacity : z->len;
			z->wp = z->start;
		}
	}
}

int f2fs_dev_open_memory_zoned(const struct f2fs_memory_zones *p, struct f2fs_device **out)
{
	struct f2fs_device *dev;

	*out = NULL;
	if (!params_ok(p))
		return -EINVAL;
	dev = dev_alloc("<memory-zoned>", &mz_ops);
	if (!dev)
		return -ENOMEM;
	dev->zones.model = F2FS_ZONED_HM;
	dev->zones.zone_bytes = p->zone_bytes;
	dev->zones.nr_zones = (uint32_t)((p->size + p->zone_bytes - 1) / p->zone_bytes);
	dev->zones.max_open = p->max_open;
	dev->zones.max_active = p->max_active;
	dev->mem.buf = calloc(1, (size_t)p->size);
	dev->mem.zones = calloc(dev->zones.nr_zones, sizeof(*dev->mem.zones));
	if (!dev->mem.buf || !dev->mem.zones) {
		free(dev->mem.buf);
		free(dev->mem.zones);
		dev_free(dev);
		return -ENOMEM;
	}
	lay_out_zones(dev, p);
	dev->info.size_bytes = p->size;
	dev->info.sector_size = 512;
	*out = dev;
	return 0;
}

int f2fs_dev_memory_zone_set(struct f2fs_device *dev, uint64_t off, enum f2fs_zone_cond cond,
			     uint64_t wp)
{
	struct f2fs_zone *z;

	if (dev->ops != &mz_ops || off >= dev->info.size_bytes)
		return -EINVAL;
	z = &dev->mem.zones[zone_index(dev, off)];
	if (!f2fs_zone_is_seq(z) || wp < z->start || wp > z->start + z->len)
		return -EINVAL;
	if (wp < z->wp)
		memset(dev->mem.buf + wp, 0, z->wp - wp);
	z->wp = wp;
	z->cond = (uint8_t)cond;
	return 0;
}
