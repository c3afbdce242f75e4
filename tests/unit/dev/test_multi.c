// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_dev_concat: a volume over several devices -- requests split where
 * they cross a member, the zoned member's zones at their volume offsets,
 * zone resets sent to the member that holds them.
 */
#include <errno.h>
#include <string.h>

#include "../test.h"
#include "f2fs/zone.h"

#define MIB (1024u * 1024u)

/* a 3 MiB regular device (2.5 MiB used) and an 8 MiB zoned one (4 x 2 MiB, 1 conventional) */
static struct f2fs_device *open_volume(void)
{
	struct f2fs_memory_zones zp = {.size = 8 * MIB, .zone_bytes = 2 * MIB, .nr_conv = 1};
	struct f2fs_device *devs[2] = {NULL, NULL}, *vol = NULL;
	uint64_t lens[2] = {5 * MIB / 2, 8 * MIB};

	CHECK(f2fs_dev_open_memory(3 * MIB, &devs[0]) == 0);
	CHECK(f2fs_dev_open_memory_zoned(&zp, &devs[1]) == 0);
	CHECK(f2fs_dev_concat(devs, lens, 2, &vol) == 0);
	return vol;
}

static void test_split_io(void)
{
	struct f2fs_device *vol = open_volume();
	static unsigned char buf[MIB], back[MIB];
	uint64_t at = 2 * MIB; /* 512 KiB on member 0, 512 KiB on member 1's conventional zone */
	size_t i;

	CHECK_EQ_U64(f2fs_dev_get_info(vol)->size_bytes, 21 * MIB / 2);
	CHECK_EQ_U64(f2fs_dev_members(vol), 2);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7);
	CHECK(f2fs_dev_write(vol, buf, at, MIB) == 0);
	CHECK(f2fs_dev_read(vol, back, at, MIB) == 0);
	CHECK(memcmp(buf, back, MIB) == 0);
	f2fs_dev_close(vol);
}

static void test_zones_at_volume_offsets(void)
{
	struct f2fs_device *vol = open_volume();
	const struct f2fs_zone_info *zi = f2fs_dev_zone_info(vol);
	uint64_t z1 = 5 * MIB / 2 + 2 * MIB; /* member 1's first sequential zone */
	struct f2fs_zone z[8];
	unsigned int nr = 0;
	unsigned char b[4096] = {1};

	CHECK(zi->model == F2FS_ZONED_HM);
	CHECK_EQ_U64(zi->zone_bytes, 2 * MIB);
	CHECK_EQ_U64(zi->nr_zones, 4);
	CHECK(f2fs_dev_report_zones(vol, 0, z, 8, &nr) == 0);
	CHECK_EQ_U64(nr, 4);
	CHECK_EQ_U64(z[0].start, 5 * MIB / 2);
	CHECK(z[0].type == F2FS_ZONE_CONV);
	CHECK_EQ_U64(z[1].start, z1);
	CHECK_EQ_U64(z[1].wp, z1);
	/* the sequential rule holds through the volume */
	CHECK(f2fs_dev_write(vol, b, z1 + 4096, 4096) == -EIO);
	CHECK(f2fs_dev_write(vol, b, z1, 4096) == 0);
	CHECK(f2fs_dev_report_zones(vol, z1, z, 1, &nr) == 0 && nr == 1);
	CHECK_EQ_U64(z[0].wp, z1 + 4096);
	CHECK(f2fs_dev_reset_zones(vol, z1, 2 * MIB) == 0);
	CHECK(f2fs_dev_report_zones(vol, z1, z, 1, &nr) == 0 && nr == 1);
	CHECK(z[0].cond == F2FS_ZONE_EMPTY);
	f2fs_dev_close(vol);
}

static void test_bad_members(void)
{
	struct f2fs_device *devs[2] = {NULL, NULL}, *vol = NULL;
	uint64_t lens[2] = {2 * MIB, 4 * MIB};

	CHECK(f2fs_dev_open_memory(2 * MIB, &devs[0]) == 0);
	CHECK(f2fs_dev_open_memory(2 * MIB, &devs[1]) == 0);
	/* a member shorter than its share */
	CHECK(f2fs_dev_concat(devs, lens, 2, &vol) == -EINVAL);
	CHECK(vol == NULL);
	CHECK(f2fs_dev_concat(devs, lens, 0, &vol) == -EINVAL);
	f2fs_dev_close(devs[0]);
	f2fs_dev_close(devs[1]);
}

int main(void)
{
	RUN(test_split_io);
	RUN(test_zones_at_volume_offsets);
	RUN(test_bad_members);
	TEST_EXIT();
}
