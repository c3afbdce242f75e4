// SPDX-License-Identifier: GPL-2.0
/*
 * The write-pointer checks and their repairs, on the emulated host-managed
 * device: a volume made by mkfs -m's library path, then each kind of damage
 * a zoned device can carry planted behind the file system's back -- a log's
 * zone written past the log, a log's zone reset under it, a free zone left
 * written, a zone left open -- checked (the problem code, and the "Write
 * pointers consistency" line), repaired as fsck -y repairs (check, note
 * every problem, run the fixes) and checked again: clean.
 *
 * REPAIRED: PR_ZONE_LOG_AHEAD PR_ZONE_LOG_BEHIND PR_ZONE_BLOCK_PAST_WP
 * REPAIRED: PR_ZONE_NOT_RESET PR_ZONE_OPEN
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/feature.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/repair.h"
#include "f2fs/write.h"
#include "f2fs/zone.h"
#include "test.h"

#define MIB  (1024ull * 1024)
#define ZONE (8 * MIB) /* four segments */

struct seen {
	unsigned int count[PR_NR_CODES];
};

static void count_problem(const struct f2fs_problem *p, void *arg)
{
	struct seen *s = arg;

	if (getenv("SHOW")) /* SHOW=1: each problem on stderr, for whoever debugs a case */
		fprintf(stderr, "  %s: %s\n", f2fs_problem_info(p->code)->name, p->detail);
	if (p->code < PR_NR_CODES)
		s->count[p->code]++;
}

/* Check the volume; the codes seen into @s, the result into @r. */
static void check(struct f2fs_device *dev, struct seen *s, struct f2fs_check_result *r)
{
	struct f2fs_check_options o = {.on_problem = count_problem, .arg = s};
	struct f2fs_fs *fs = NULL;
	char why[256] = "";

	memset(s, 0, sizeof(*s));
	memset(r, 0, sizeof(*r));
	CHECK(f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why)) == 0);
	if (fs)
		CHECK(f2fs_check(fs, &o, r) == 0);
	f2fs_fs_close(fs);
}

struct note {
	struct f2fs_repair *repair;
};

static void note_all(const struct f2fs_problem *p, void *arg)
{
	struct note *n = arg;

	CHECK(f2fs_repair_note(n->repair, p, true) == 0);
}

/* One round of fsck -y: check, note every problem, run the fixes; 1 when another round is due. */
static int repair_round(struct f2fs_device *dev)
{
	struct f2fs_findings *findings = NULL;
	struct f2fs_check_options o = {.on_problem = note_all};
	struct f2fs_check_result r;
	struct f2fs_fs *fs = NULL;
	struct note n = {0};
	char why[256] = "";

	int again;

	CHECK(f2fs_fs_open(dev, F2FS_FS_WRITE, &fs, why, sizeof(why)) == 0);
	if (!fs)
		return 0;
	CHECK(f2fs_repair_begin(fs, &n.repair) == 0);
	o.arg = &n;
	o.findings = &findings;
	CHECK(f2fs_check(fs, &o, &r) == 0);
	again = r.problems + r.warnings > 0;
	if (again)
		CHECK(f2fs_repair_run(n.repair, findings, &r, NULL, NULL) > 0);
	f2fs_findings_free(findings);
	f2fs_repair_free(n.repair);
	f2fs_fs_close(fs);
	return again;
}

/* fsck -y: rounds until a check finds nothing (at most four, as fsck). */
static void repair(struct f2fs_device *dev)
{
	int round;

	for (round = 0; round < 4 && repair_round(dev); round++)
		;
}

/* A 512 MiB volume, 3 conventional zones (the metadata's), 10 MiB of files (over a zone). */
static struct f2fs_device *make_volume(struct f2fs_layout *l)
{
	struct f2fs_memory_zones zp = {.size = 512 * MIB, .zone_bytes = ZONE, .nr_conv = 3};
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	static unsigned char buf[MIB];
	struct f2fs_device *dev = NULL;
	struct f2fs_mkfs_config cfg;
	struct f2fs_mkfs_result res;
	struct f2fs_new_inode a;
	struct f2fs_fs *fs = NULL;
	char why[256] = "", name[16];
	uint32_t ino;
	int i;

	CHECK(f2fs_dev_open_memory_zoned(&zp, &dev) == 0);
	f2fs_mkfs_config_init(&cfg);
	cfg.features |= F2FS_FEATURE_BLKZONED;
	cfg.fixed_time = 1700000000;
	cfg.geometry.sector_size = 512;
	cfg.geometry.zoned = true;
	cfg.geometry.zone_blocks = ZONE / F2FS_BLKSIZE;
	cfg.geometry.segs_per_sec = 4;
	cfg.geometry.total_sectors = zp.size / 512;
	cfg.geometry.nr_devices = 1;
	cfg.geometry.devices[0] = (struct f2fs_layout_device){
	    .sectors = zp.size / 512, .zoned = true, .host_managed = true, .rnd_zones = 3};
	CHECK(f2fs_layout_compute(&cfg.geometry, l, why, sizeof(why)) == 0);
	CHECK(f2fs_mkfs_format(dev, &cfg, l, &res) == 0);
	CHECK(f2fs_fs_open(dev, F2FS_FS_WRITE, &fs, why, sizeof(why)) == 0);
	memset(buf, 0x33, sizeof(buf));
	for (i = 0; fs && i < 10; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		f2fs_new_inode_init(&a, 0x81a4, 1700000000);
		CHECK(f2fs_create(fs, 3, name, strlen(name), &a, NULL, &ino) == 0);
		CHECK(f2fs_pwrite(fs, ino, buf, sizeof(buf), 0) == 0);
	}
	CHECK(fs && f2fs_checkpoint(fs, &req) == 0);
	f2fs_fs_close(fs);
	return dev;
}

/* The zone of log @type (layout order) of the volume as it stands. */
static struct f2fs_zone log_zone(struct f2fs_device *dev, int type)
{
	struct f2fs_fs *fs = NULL;
	const struct f2fs_cp_data *cpd;
	struct f2fs_zone z = {0};
	unsigned int nr = 0;
	char why[200];

	CHECK(f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why)) == 0);
	if (fs && f2fs_fs_cp_data(fs, &cpd) == 0) {
		const struct f2fs_geometry *g = f2fs_fs_geo(fs);
		uint32_t secno = f2fs_geo_secno(g, cpd->curseg_segno[type]);

		CHECK(f2fs_dev_report_zones(dev, f2fs_blk_to_bytes(g, f2fs_geo_sec_start(g, secno)),
					    &z, 1, &nr) == 0);
	}
	f2fs_fs_close(fs);
	return z;
}

static void expect(struct f2fs_device *dev, enum f2fs_problem_code code, bool fails_line)
{
	struct f2fs_check_result r;
	struct seen s;

	check(dev, &s, &r);
	CHECK(r.zones_checked);
	CHECK(s.count[code] >= 1);
	CHECK(fails_line == (r.wp_problems > 0));
	repair(dev);
	check(dev, &s, &r);
	CHECK_EQ_U64(r.problems, 0);
	CHECK_EQ_U64(r.warnings, 0);
}

/* Blocks written past the warm data log, as a power cut after unrecorded writes leaves. */
static void test_log_ahead(void)
{
	struct f2fs_layout l;
	struct f2fs_device *dev = make_volume(&l);
	static unsigned char junk[4 * F2FS_BLKSIZE];
	struct f2fs_zone z = log_zone(dev, F2FS_CURSEG_WARM_DATA);

	CHECK(f2fs_zone_is_seq(&z));
	CHECK(f2fs_dev_write(dev, junk, z.wp, sizeof(junk)) == 0);
	expect(dev, PR_ZONE_LOG_AHEAD, false);
	f2fs_dev_close(dev);
}

/*
 * The warm data log's zone reset under it (blkzone reset): the files'
 * blocks there are gone, the log is behind its pointer.
 */
static void test_log_zone_reset(void)
{
	struct f2fs_layout l;
	struct f2fs_device *dev = make_volume(&l);
	struct f2fs_zone z = log_zone(dev, F2FS_CURSEG_WARM_DATA);
	struct f2fs_check_result r;
	struct seen s;

	CHECK(f2fs_dev_reset_zones(dev, z.start, z.len) == 0);
	check(dev, &s, &r);
	CHECK(s.count[PR_ZONE_LOG_BEHIND] == 1);
	CHECK(s.count[PR_ZONE_BLOCK_PAST_WP] >= 1);
	expect(dev, PR_ZONE_LOG_BEHIND, true);
	f2fs_dev_close(dev);
}

/*
 * The hot node log's zone reset under it: the root inode is gone.  A new
 * root is made and the files nothing reaches any more go to lost+found.
 */
static void test_root_zone_reset(void)
{
	struct f2fs_layout l;
	struct f2fs_device *dev = make_volume(&l);
	struct f2fs_zone z = log_zone(dev, F2FS_CURSEG_HOT_NODE);
	struct f2fs_check_result r;
	struct seen s;

	CHECK(f2fs_zone_is_seq(&z));
	CHECK(f2fs_dev_reset_zones(dev, z.start, z.len) == 0);
	check(dev, &s, &r);
	CHECK(s.count[PR_ROOT_INODE] == 1);
	expect(dev, PR_ZONE_LOG_BEHIND, true);
	f2fs_dev_close(dev);
}

/* A free section's zone written to, and another left open. */
static void test_stray_zones(void)
{
	struct f2fs_layout l;
	struct f2fs_device *dev = make_volume(&l);
	static unsigned char junk[F2FS_BLKSIZE];
	uint64_t last = 512 * MIB - ZONE, before = last - ZONE;
	struct f2fs_zone z;
	unsigned int nr;

	/* the last two zones: free sections nobody writes */
	CHECK(f2fs_dev_write(dev, junk, last, sizeof(junk)) == 0);
	CHECK(f2fs_dev_finish_zones(dev, last, ZONE) == 0); /* full: written, not open */
	expect(dev, PR_ZONE_NOT_RESET, false);
	CHECK(f2fs_dev_report_zones(dev, last, &z, 1, &nr) == 0 && z.cond == F2FS_ZONE_EMPTY);
	CHECK(f2fs_dev_write(dev, junk, before, sizeof(junk)) == 0);
	expect(dev, PR_ZONE_NOT_RESET, false);
	f2fs_dev_close(dev);
}

/*
 * A section full of valid data that no log writes any more, whose zone the
 * device still reports open (as the kernel leaves one it moves a log from):
 * the zone is finished.
 */
static void test_open_zone(void)
{
	struct f2fs_layout l;
	struct f2fs_device *dev = make_volume(&l);
	uint64_t main_bytes = (uint64_t)l.main_blkaddr * F2FS_BLKSIZE;
	struct f2fs_zone z[64];
	unsigned int nr = 0, i;
	int found = -1;

	/* the files filled the warm data log's first zone: it is full, no log's */
	CHECK(f2fs_dev_report_zones(dev, main_bytes, z, 64, &nr) == 0);
	for (i = 0; i < nr && found < 0; i++)
		if (z[i].cond == F2FS_ZONE_FULL)
			found = (int)i;
	CHECK(found >= 0);
	if (found < 0)
		return;
	CHECK(f2fs_dev_memory_zone_set(dev, z[found].start, F2FS_ZONE_IMP_OPEN, z[found].wp) == 0);
	expect(dev, PR_ZONE_OPEN, false);
	CHECK(f2fs_dev_report_zones(dev, z[found].start, z, 1, &nr) == 0);
	CHECK(z[0].cond == F2FS_ZONE_FULL);
	f2fs_dev_close(dev);
}

/*
 * Two zoned devices whose zones hold different capacities (mkfs refuses to
 * make this; the library's format does not ask): the kernel refuses such a
 * volume, and so must the checker.
 */
static void test_mixed_capacity(void)
{
	struct f2fs_memory_zones a = {.size = 256 * MIB, .zone_bytes = ZONE, .capacity = 6 * MIB};
	struct f2fs_memory_zones b = {.size = 256 * MIB, .zone_bytes = ZONE};
	struct f2fs_device *devs[3] = {NULL, NULL, NULL}, *vol = NULL;
	struct f2fs_mkfs_config cfg;
	struct f2fs_mkfs_result res;
	struct f2fs_check_result r;
	struct f2fs_layout l;
	uint64_t lens[3];
	char why[160] = "";
	struct seen s;

	CHECK(f2fs_dev_open_memory(64 * MIB, &devs[0]) == 0);
	CHECK(f2fs_dev_open_memory_zoned(&a, &devs[1]) == 0);
	CHECK(f2fs_dev_open_memory_zoned(&b, &devs[2]) == 0);
	f2fs_mkfs_config_init(&cfg);
	cfg.features |= F2FS_FEATURE_BLKZONED;
	cfg.geometry.sector_size = 512;
	cfg.geometry.zoned = true;
	cfg.geometry.zone_blocks = ZONE / F2FS_BLKSIZE;
	cfg.geometry.segs_per_sec = 4;
	cfg.geometry.total_sectors = (64 + 512) * MIB / 512;
	cfg.geometry.nr_devices = 3;
	cfg.geometry.devices[0] = (struct f2fs_layout_device){.sectors = 64 * MIB / 512};
	cfg.geometry.devices[1] = (struct f2fs_layout_device){
	    .sectors = a.size / 512, .zoned = true, .host_managed = true, .usable_segments = 96};
	cfg.geometry.devices[2] = (struct f2fs_layout_device){
	    .sectors = b.size / 512, .zoned = true, .host_managed = true};
	cfg.paths[0] = "/dev/vda";
	cfg.paths[1] = "/dev/vdb";
	cfg.paths[2] = "/dev/vdc";
	CHECK(f2fs_layout_compute(&cfg.geometry, &l, why, sizeof(why)) == 0);
	lens[0] = ((uint64_t)l.segment0_blkaddr + (uint64_t)l.dev_segments[0] * 512) * 4096;
	lens[1] = (uint64_t)l.dev_segments[1] * F2FS_SEGMENT_BYTES;
	lens[2] = (uint64_t)l.dev_segments[2] * F2FS_SEGMENT_BYTES;
	CHECK(f2fs_dev_concat(devs, lens, 3, &vol) == 0);
	CHECK(f2fs_mkfs_format(vol, &cfg, &l, &res) == 0);
	check(vol, &s, &r);
	CHECK(s.count[PR_ZONE_CAPACITY] == 1);
	f2fs_dev_close(vol);
}

int main(void)
{
	RUN(test_log_ahead);
	RUN(test_log_zone_reset);
	RUN(test_root_zone_reset);
	RUN(test_stray_zones);
	RUN(test_open_zone);
	RUN(test_mixed_capacity);
	TEST_EXIT();
}
