// SPDX-License-Identifier: GPL-2.0
/*
 * Formatting zoned volumes on the emulated host-managed device: one device
 * whose first zones are conventional (an SMR drive, null_blk), and a regular
 * device for the metadata joined with a zoned one whose zone capacity is
 * below its size (NVMe ZNS).  Every write mkfs makes must obey the zone
 * rules (the emulation fails any other), the layout must put the logs in
 * zones of their own, and the checker must find the result clean.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/super.h"
#include "f2fs/write.h"
#include "f2fs/zone.h"
#include "test.h"
#include "zoned_fixture.h"

#define MIB  (1024ull * 1024)
#define ZONE (8 * MIB) /* four segments */

static void fill_and_delete(struct f2fs_device *vol, unsigned int files, size_t bytes,
			    unsigned int rounds, unsigned int keep_every);

static void show_problem(const struct f2fs_problem *p, void *arg)
{
	(void)arg;
	fprintf(stderr, "problem %s: %s\n", f2fs_problem_info(p->code)->name, p->detail);
}

/* Check the volume on @dev: no problem at all. */
static void expect_clean(struct f2fs_device *dev)
{
	struct f2fs_check_options o = {.on_problem = show_problem};
	struct f2fs_check_result r;
	struct f2fs_fs *fs = NULL;
	char why[256] = "";

	if (f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why))) {
		fprintf(stderr, "open: %s\n", why);
		CHECK(0);
		return;
	}
	CHECK(f2fs_check(fs, &o, &r) == 0);
	CHECK_EQ_U64(r.problems, 0);
	f2fs_fs_close(fs);
}

static void zoned_config(struct f2fs_mkfs_config *cfg)
{
	zoned_fixture_config(cfg, ZONE);
}

/* The zone holding byte @off of @dev. */
static struct f2fs_zone zone_at(struct f2fs_device *dev, uint64_t off)
{
	struct f2fs_zone z = {0};
	unsigned int nr = 0;

	CHECK(f2fs_dev_report_zones(dev, off, &z, 1, &nr) == 0 && nr == 1);
	return z;
}

/* 512 MiB in 8 MiB zones, the first 8 conventional: the metadata fits them. */
static void test_one_host_managed_device(void)
{
	struct f2fs_memory_zones zp = {.size = 512 * MIB, .zone_bytes = ZONE, .nr_conv = 8};
	struct f2fs_device *dev = NULL;
	struct f2fs_mkfs_config cfg;
	struct f2fs_mkfs_result res;
	struct f2fs_layout l;
	char why[160] = "";
	int i;

	CHECK(f2fs_dev_open_memory_zoned(&zp, &dev) == 0);
	zoned_config(&cfg);
	cfg.geometry.total_sectors = zp.size / 512;
	cfg.geometry.nr_devices = 1;
	cfg.geometry.devices[0] = (struct f2fs_layout_device){
	    .sectors = zp.size / 512, .zoned = true, .host_managed = true, .rnd_zones = 8};
	CHECK(f2fs_layout_compute(&cfg.geometry, &l, why, sizeof(why)) == 0);
	CHECK(l.segs_per_sec == 4 && l.secs_per_zone == 1);
	CHECK(l.segment0_blkaddr % (ZONE / F2FS_BLKSIZE) == 0);
	CHECK(l.main_blkaddr <= 8 * ZONE / F2FS_BLKSIZE); /* metadata in conventional zones */
	/* the logs take consecutive zones */
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		CHECK(l.cur_seg[i] % 4 == 0);
	CHECK(l.cur_seg[F2FS_CURSEG_WARM_NODE] == l.cur_seg[F2FS_CURSEG_HOT_NODE] + 4);
	CHECK(l.cur_seg[F2FS_CURSEG_COLD_DATA] == l.cur_seg[F2FS_CURSEG_WARM_DATA] + 4);
	CHECK(f2fs_mkfs_format(dev, &cfg, &l, &res) == 0);
	expect_clean(dev);
	f2fs_dev_close(dev);
}

/*
 * Blocks written into a log's zone behind the file system's back (what a
 * power cut after unrecorded writes leaves): the log must move to a fresh
 * zone before it writes again, or every write would miss the pointer.
 */
static void test_log_moves_past_foreign_writes(void)
{
	static unsigned char junk[4 * F2FS_BLKSIZE];
	struct f2fs_device *dev = NULL;
	struct f2fs_layout l;
	int type, moved = 0;

	CHECK(zoned_fixture_hm(4, 0, &l, &dev) == 0);
	if (!dev)
		return;
	for (type = 0; type < F2FS_NR_CURSEG_TYPE; type++) {
		struct f2fs_zone z = zone_at(
		    dev, ((uint64_t)l.main_blkaddr + (uint64_t)l.cur_seg[type] * 512) * 4096);

		if (!f2fs_zone_is_seq(&z))
			continue; /* the first section lies in the last conventional zone */
		CHECK(f2fs_dev_write(dev, junk, z.wp, sizeof(junk)) == 0);
		moved++;
	}
	CHECK(moved == F2FS_NR_CURSEG_TYPE - 1);
	fill_and_delete(dev, 10, 1 << 20, 1, 2);
	f2fs_dev_close(dev);
}

/* No conventional zone may hold the metadata: refused, nothing written. */
static void test_too_few_random_zones(void)
{
	struct f2fs_mkfs_config cfg;
	struct f2fs_layout l;
	char why[160] = "";

	zoned_config(&cfg);
	cfg.geometry.total_sectors = 512 * MIB / 512;
	cfg.geometry.nr_devices = 1;
	cfg.geometry.devices[0] = (struct f2fs_layout_device){
	    .sectors = 512 * MIB / 512, .zoned = true, .host_managed = true, .rnd_zones = 1};
	CHECK(f2fs_layout_compute(&cfg.geometry, &l, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "randomly writable") != NULL);
}

/*
 * A 64 MiB regular device for the metadata and a 512 MiB zoned one with 6
 * MiB of each 8 MiB zone usable (the sections' last segment is unusable),
 * formatted: the volume over both, its layout in @l.
 */
static struct f2fs_device *make_zns_volume(struct f2fs_layout *l)
{
	struct f2fs_device *vol = NULL;

	CHECK(zoned_fixture_zns(0, l, &vol) == 0);
	return vol;
}

/* The layout of that pair, and the format's first writes, where the zones want them. */
static void test_regular_plus_zns(void)
{
	struct f2fs_layout l;
	struct f2fs_device *vol = make_zns_volume(&l);
	uint64_t dev1 = ((uint64_t)l.segment0_blkaddr + (uint64_t)l.dev_segments[0] * 512) * 4096;
	struct f2fs_zone z;

	CHECK_EQ_U64(l.nr_devices, 2);
	CHECK_EQ_U64(l.dev_segments[1], 256);
	/* the logs start on the zoned device, and users get 3 of 4 segments */
	CHECK((uint64_t)l.main_blkaddr + (uint64_t)l.cur_seg[F2FS_CURSEG_HOT_NODE] * 512 ==
	      dev1 / 4096);
	CHECK(l.usable_segments < l.segment_count_main);
	/* the hot node log's zone was written from its start */
	z = zone_at(vol, dev1);
	CHECK(z.cond == F2FS_ZONE_IMP_OPEN || z.cond == F2FS_ZONE_CLOSED);
	CHECK(z.wp > z.start);
	expect_clean(vol);
	f2fs_dev_close(vol);
}

/*
 * Write @files files of @bytes through the write path (the emulation
 * refuses any write not at a zone's pointer or past its capacity), delete
 * all but every @keep_every-th (0: all) and checkpoint, @rounds times;
 * the checker must find the volume clean after each.  Once the rounds
 * have written more than the volume holds, sections freed earlier are
 * written again: only a zone reset makes that possible.
 */
static void fill_and_delete(struct f2fs_device *vol, unsigned int files, size_t bytes,
			    unsigned int rounds, unsigned int keep_every)
{
	static unsigned char buf[1 << 20];
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_new_inode a;
	struct f2fs_fs *fs = NULL;
	char name[32], why[256] = "";
	unsigned int i, round;
	static unsigned int call;
	uint32_t ino;

	call++;
	memset(buf, 0x5a, sizeof(buf));
	for (round = 0; round < rounds; round++) {
		CHECK(f2fs_fs_open(vol, F2FS_FS_WRITE, &fs, why, sizeof(why)) == 0);
		if (!fs) {
			fprintf(stderr, "open for writing: %s\n", why);
			return;
		}
		for (i = 0; i < files; i++) {
			snprintf(name, sizeof(name), "c%u-r%u-f%u", call, round, i);
			f2fs_new_inode_init(&a, 0x81a4, 1700000000);
			CHECK(f2fs_create(fs, 3, name, strlen(name), &a, NULL, &ino) == 0);
			CHECK(f2fs_pwrite(fs, ino, buf, bytes, 0) == 0);
		}
		/* the data reaches the device before the files go */
		CHECK(f2fs_checkpoint(fs, &req) == 0);
		for (i = 0; i < files; i++) {
			if (keep_every && i % keep_every == 0)
				continue;
			snprintf(name, sizeof(name), "c%u-r%u-f%u", call, round, i);
			CHECK(f2fs_unlink(fs, 3, name, strlen(name)) == 0);
		}
		CHECK(f2fs_checkpoint(fs, &req) == 0);
		f2fs_fs_close(fs);
		fs = NULL;
		expect_clean(vol);
	}
}

/* The ZNS-like pair with files written, deleted and written again: sections fill to capacity. */
static void test_write_path_on_zns(void)
{
	struct f2fs_layout l;
	struct f2fs_device *vol = make_zns_volume(&l);

	fill_and_delete(vol, 30, 1 << 20, 2, 2);
	/* 16 more rounds of 30 MiB, one file of five kept: freed zones are reused */
	fill_and_delete(vol, 30, 1 << 20, 16, 5);
	f2fs_dev_close(vol);
}

/* describe(devices, zoned_mode): f2fs_mkfs_describe_devices' answer, its reason in @why. */
static int describe(struct f2fs_device **devs, unsigned int n, bool zoned_mode, bool discard,
		    char *why, size_t len)
{
	struct f2fs_mkfs_config cfg;

	f2fs_mkfs_config_init(&cfg);
	cfg.discard = discard;
	why[0] = '\0';
	return f2fs_mkfs_describe_devices(&cfg, devs, n, zoned_mode, why, len);
}

/* What mkfs refuses before it writes anything, each with a line naming why. */
static void test_describe_refusals(void)
{
	struct f2fs_memory_zones smr = {.size = 256 * MIB, .zone_bytes = ZONE, .nr_conv = 4};
	struct f2fs_memory_zones zns = {.size = 256 * MIB, .zone_bytes = ZONE, .capacity = 6 * MIB};
	struct f2fs_memory_zones odd = {.size = 240 * MIB, .zone_bytes = 12 * MIB, .nr_conv = 4};
	struct f2fs_memory_zones big = {.size = 256 * MIB, .zone_bytes = 16 * MIB, .nr_conv = 4};
	struct f2fs_device *reg = NULL, *d[2] = {NULL, NULL}, *pair[2];
	char why[256];

	CHECK(f2fs_dev_open_memory(64 * MIB, &reg) == 0);
	CHECK(f2fs_dev_open_memory_zoned(&smr, &d[0]) == 0);
	CHECK(describe(&d[0], 1, false, true, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "format it with -m") != NULL);
	CHECK(describe(&reg, 1, true, true, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "not a zoned block device") != NULL);
	CHECK(describe(&d[0], 1, true, false, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "needs discard") != NULL);
	CHECK(describe(&d[0], 1, true, true, why, sizeof(why)) == 0);
	f2fs_dev_close(d[0]);

	/* a ZNS device has no conventional zone for the superblocks */
	CHECK(f2fs_dev_open_memory_zoned(&zns, &d[0]) == 0);
	CHECK(describe(&d[0], 1, true, true, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "no conventional zone") != NULL);
	pair[0] = reg;
	pair[1] = d[0];
	CHECK(describe(pair, 2, true, true, why, sizeof(why)) == 0);
	/* zones of two sizes, and capacities of two sizes */
	CHECK(f2fs_dev_open_memory_zoned(&big, &d[1]) == 0);
	pair[1] = d[1];
	pair[0] = d[0];
	CHECK(describe(pair, 2, true, true, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "different sizes") != NULL);
	f2fs_dev_close(d[1]);
	smr.nr_conv = 0;
	CHECK(f2fs_dev_open_memory_zoned(&smr, &d[1]) == 0);
	pair[0] = reg;
	pair[1] = d[0];
	{
		struct f2fs_device *three[3] = {reg, d[0], d[1]};

		CHECK(describe(three, 3, true, true, why, sizeof(why)) == -EINVAL);
		CHECK(strstr(why, "different capacities") != NULL);
	}
	f2fs_dev_close(d[1]);
	f2fs_dev_close(d[0]);
	/* fewer active zones than the six logs need */
	smr.nr_conv = 4;
	smr.max_active = 4;
	CHECK(f2fs_dev_open_memory_zoned(&smr, &d[0]) == 0);
	CHECK(describe(&d[0], 1, true, true, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "at most 4 zones active") != NULL);
	f2fs_dev_close(d[0]);
	/* 12 MiB zones: Linux 6.1 mounts only powers of two */
	CHECK(f2fs_dev_open_memory_zoned(&odd, &d[0]) == 0);
	CHECK(describe(&d[0], 1, true, true, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "power of two") != NULL);
	f2fs_dev_close(d[0]);
	f2fs_dev_close(reg);
}

int main(void)
{
	RUN(test_one_host_managed_device);
	RUN(test_too_few_random_zones);
	RUN(test_describe_refusals);
	RUN(test_log_moves_past_foreign_writes);
	RUN(test_regular_plus_zns);
	RUN(test_write_path_on_zns);
	TEST_EXIT();
}
