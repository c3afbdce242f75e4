// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated host-managed device (f2fs_dev_open_memory_zoned) and the zone
 * front end: every rule a zoned device enforces, so that the layers above can
 * be tested against it without a kernel.
 */
#include <errno.h>
#include <string.h>

#include "../test.h"
#include "f2fs/zone.h"

#define MIB  (1024u * 1024u)
#define ZONE (4 * MIB)

/* 8 zones of 4 MiB: 2 conventional, 6 sequential with 3 MiB capacity. */
static struct f2fs_device *open_dev(uint32_t max_open, uint32_t max_active)
{
	struct f2fs_memory_zones p = {
	    .size = 8 * ZONE,
	    .zone_bytes = ZONE,
	    .capacity = 3 * MIB,
	    .nr_conv = 2,
	    .max_open = max_open,
	    .max_active = max_active,
	};
	struct f2fs_device *dev = NULL;

	CHECK(f2fs_dev_open_memory_zoned(&p, &dev) == 0);
	return dev;
}

static struct f2fs_zone zone_at(struct f2fs_device *dev, uint64_t off)
{
	struct f2fs_zone z = {0};
	unsigned int nr = 0;

	CHECK(f2fs_dev_report_zones(dev, off, &z, 1, &nr) == 0);
	CHECK(nr == 1);
	return z;
}

static void test_geometry(void)
{
	struct f2fs_device *dev = open_dev(0, 0);
	const struct f2fs_zone_info *zi = f2fs_dev_zone_info(dev);
	struct f2fs_zone z[16];
	unsigned int nr = 0;

	CHECK(zi->model == F2FS_ZONED_HM);
	CHECK_EQ_U64(zi->zone_bytes, ZONE);
	CHECK_EQ_U64(zi->nr_zones, 8);
	CHECK(f2fs_dev_report_zones(dev, 0, z, 16, &nr) == 0);
	CHECK_EQ_U64(nr, 8);
	CHECK(z[1].type == F2FS_ZONE_CONV && z[1].cond == F2FS_ZONE_NOT_WP);
	CHECK(z[2].type == F2FS_ZONE_SEQ_REQ && z[2].cond == F2FS_ZONE_EMPTY);
	CHECK_EQ_U64(z[2].wp, 2 * ZONE);
	CHECK_EQ_U64(z[2].capacity, 3 * MIB);
	/* from the middle of zone 6: zones 6 and 7 */
	CHECK(f2fs_dev_report_zones(dev, 6 * ZONE + 4096, z, 16, &nr) == 0);
	CHECK_EQ_U64(nr, 2);
	CHECK_EQ_U64(z[0].start, 6 * ZONE);
	f2fs_dev_close(dev);
}

static void test_sequential_writes(void)
{
	struct f2fs_device *dev = open_dev(0, 0);
	unsigned char buf[8192], back[8192];
	uint64_t z2 = 2 * ZONE;

	memset(buf, 0xab, sizeof(buf));
	/* conventional zones take writes anywhere */
	CHECK(f2fs_dev_write(dev, buf, ZONE + 12288, 4096) == 0);
	/* a sequential zone only at its pointer */
	CHECK(f2fs_dev_write(dev, buf, z2 + 4096, 4096) == -EIO);
	CHECK(f2fs_dev_write(dev, buf, z2, 8192) == 0);
	CHECK(zone_at(dev, z2).cond == F2FS_ZONE_IMP_OPEN);
	CHECK_EQ_U64(zone_at(dev, z2).wp, z2 + 8192);
	CHECK(f2fs_dev_write(dev, buf, z2, 4096) == -EIO); /* no overwrite */
	/* reads past the pointer are zeros */
	memset(back, 1, sizeof(back));
	CHECK(f2fs_dev_read(dev, back, z2 + 8192, 4096) == 0);
	CHECK(back[0] == 0 && back[4095] == 0);
	CHECK(f2fs_dev_read(dev, back, z2, 8192) == 0);
	CHECK(memcmp(back, buf, 8192) == 0);
	/* zeroing or a partial discard of a sequential zone is refused */
	CHECK(f2fs_dev_zero(dev, z2, 4096) == -EOPNOTSUPP);
	CHECK(f2fs_dev_discard(dev, z2, 4096, NULL) == -EOPNOTSUPP);
	f2fs_dev_close(dev);
}

static void test_capacity(void)
{
	struct f2fs_device *dev = open_dev(0, 0);
	uint64_t z3 = 3 * ZONE, at;
	static unsigned char mib[MIB];

	for (at = z3; at < z3 + 3 * MIB; at += MIB)
		CHECK(f2fs_dev_write(dev, mib, at, MIB) == 0);
	CHECK(zone_at(dev, z3).cond == F2FS_ZONE_FULL);
	/* the bytes between capacity and size are never writable */
	CHECK(f2fs_dev_write(dev, mib, z3 + 3 * MIB, 4096) == -EIO);
	/* nor is a write that crosses the capacity */
	CHECK(f2fs_dev_write(dev, mib, 4 * ZONE + 3 * MIB - 4096, 8192) == -EIO);
	CHECK_EQ_U64(zone_at(dev, 4 * ZONE).wp, 4 * ZONE);
	f2fs_dev_close(dev);
}

static void test_reset_finish(void)
{
	struct f2fs_device *dev = open_dev(0, 0);
	unsigned char buf[4096], back[4096];
	uint64_t z4 = 4 * ZONE;

	memset(buf, 7, sizeof(buf));
	CHECK(f2fs_dev_write(dev, buf, z4, 4096) == 0);
	CHECK(f2fs_dev_reset_zones(dev, z4 + 4096, ZONE) == -EINVAL); /* not on a boundary */
	CHECK(f2fs_dev_reset_zones(dev, 0, ZONE) == -EIO);	      /* conventional */
	CHECK(f2fs_dev_reset_zones(dev, z4, ZONE) == 0);
	CHECK(zone_at(dev, z4).cond == F2FS_ZONE_EMPTY);
	CHECK(f2fs_dev_read(dev, back, z4, 4096) == 0);
	CHECK(back[0] == 0);
	CHECK(f2fs_dev_write(dev, buf, z4, 4096) == 0);
	CHECK(f2fs_dev_finish_zones(dev, z4, ZONE) == 0);
	CHECK(zone_at(dev, z4).cond == F2FS_ZONE_FULL);
	CHECK_EQ_U64(zone_at(dev, z4).wp, z4 + ZONE);
	CHECK(f2fs_dev_write(dev, buf, z4 + 4096, 4096) == -EIO);
	/* a whole-zone discard resets */
	CHECK(f2fs_dev_discard(dev, z4, ZONE, NULL) == 0);
	CHECK(zone_at(dev, z4).cond == F2FS_ZONE_EMPTY);
	f2fs_dev_close(dev);
}

static void test_limits(void)
{
	struct f2fs_device *dev = open_dev(2, 3);
	unsigned char buf[4096] = {0};

	CHECK(f2fs_dev_write(dev, buf, 2 * ZONE, 4096) == 0);
	CHECK(f2fs_dev_write(dev, buf, 3 * ZONE, 4096) == 0);
	/* a third open zone closes an implicitly open one */
	CHECK(f2fs_dev_write(dev, buf, 4 * ZONE, 4096) == 0);
	CHECK(zone_at(dev, 2 * ZONE).cond == F2FS_ZONE_CLOSED);
	/* a fourth active zone is refused, and nothing changes */
	CHECK(f2fs_dev_write(dev, buf, 5 * ZONE, 4096) == -EOVERFLOW);
	CHECK(zone_at(dev, 5 * ZONE).cond == F2FS_ZONE_EMPTY);
	/* a closed zone opens again at its pointer; a reset frees a slot */
	CHECK(f2fs_dev_write(dev, buf, 2 * ZONE + 4096, 4096) == 0);
	CHECK(f2fs_dev_reset_zones(dev, 3 * ZONE, ZONE) == 0);
	CHECK(f2fs_dev_write(dev, buf, 5 * ZONE, 4096) == 0);
	f2fs_dev_close(dev);
}

static void test_regular_device(void)
{
	struct f2fs_device *dev = NULL;
	struct f2fs_zone z;
	unsigned int nr = 1;

	CHECK(f2fs_dev_open_memory(ZONE, &dev) == 0);
	CHECK(f2fs_dev_zone_info(dev)->model == F2FS_ZONED_NONE);
	CHECK(f2fs_dev_report_zones(dev, 0, &z, 1, &nr) == -EOPNOTSUPP);
	CHECK(nr == 0);
	CHECK(f2fs_dev_reset_zones(dev, 0, ZONE) == -EOPNOTSUPP);
	f2fs_dev_close(dev);
}

static void test_bad_params(void)
{
	struct f2fs_memory_zones p = {.size = 8 * ZONE, .zone_bytes = ZONE, .capacity = 2 * ZONE};
	struct f2fs_device *dev = NULL;

	CHECK(f2fs_dev_open_memory_zoned(&p, &dev) == -EINVAL); /* capacity > size */
	p.capacity = 0;
	p.zone_bytes = 1000;
	CHECK(f2fs_dev_open_memory_zoned(&p, &dev) == -EINVAL);
	CHECK(dev == NULL);
}

int main(void)
{
	RUN(test_geometry);
	RUN(test_sequential_writes);
	RUN(test_capacity);
	RUN(test_reset_finish);
	RUN(test_limits);
	RUN(test_regular_device);
	RUN(test_bad_params);
	TEST_EXIT();
}
