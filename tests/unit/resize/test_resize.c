// SPDX-License-Identifier: GPL-2.0
/*
 * Resizing (lib/resize) on in-memory images.  A volume filling its memory
 * device holds files spread over its whole main area (many small ones,
 * most deleted, then a large one); it is shrunk with -s far enough that
 * blocks past the new end must move (relocating its metadata areas to the
 * old main area's start, all or nothing), grown back in place (-f) over
 * the whole device, and shrunk again in place (-f -s, upstream's layout);
 * a volume made small grows by relocating its metadata areas (the
 * default), and a grow and a shrink are each cut at every write in turn.
 * After each step the superblock has the new size, the checker finds the
 * volume clean and every file reads back through lib/read.  A resize that
 * must be refused (too small for what is in use, shrinking without -s,
 * growing with -s) leaves every byte of the device as it was.  A volume of
 * two memory devices grows into its last device and shrinks within it,
 * its device table following; new metadata that would not fit its first
 * device, and a shrink into the first device, are refused.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/endian.h"
#include "f2fs/resize.h"
#include "f2fs/write.h"
#include "f2fs/zone.h"
#include "cut_device.h"
#include "test.h"
#include "write/write_fixture.h"
#include "zoned_fixture.h"

#define MIB	   (1024ull * 1024)
#define SMALL_LEN  8192
#define NR_SMALL   600
#define KEEP	   5 /* every KEEP-th small file stays */
#define BIG_LEN	   (24 * MIB)
#define SECTORS(b) ((b) / 512)

struct files {
	uint32_t small[NR_SMALL];
	uint32_t big;
	uint8_t *big_data;
};

static bool write_file(struct f2fs_fs *fs, const char *name, const uint8_t *buf, size_t len,
		       uint32_t *ino)
{
	return wfx_create(fs, WFX_ROOT, name, S_IFREG | 0644, ino) == 0 &&
	       f2fs_pwrite(fs, *ino, buf, len, 0) == 0;
}

/* Small files everywhere, most deleted so the survivors are spread out, then a big one. */
static bool fill(struct fixture *fx, struct files *f)
{
	struct f2fs_fs *fs;
	uint8_t buf[SMALL_LEN];
	char name[16];
	uint32_t i;
	bool ok;

	if (!wfx_open_rw(fx, &fs))
		return false;
	for (i = 0, ok = true; ok && i < NR_SMALL; i++) {
		snprintf(name, sizeof(name), "s%04u", i);
		wfx_fill(buf, sizeof(buf), i);
		ok = write_file(fs, name, buf, sizeof(buf), &f->small[i]);
	}
	for (i = 0; ok && i < NR_SMALL; i++) {
		if (i % KEEP == 0)
			continue;
		snprintf(name, sizeof(name), "s%04u", i);
		ok = f2fs_unlink(fs, WFX_ROOT, name, strlen(name)) == 0;
	}
	f->big_data = malloc(BIG_LEN);
	ok = ok && f->big_data;
	if (ok) {
		wfx_fill(f->big_data, BIG_LEN, 4242);
		ok = write_file(fs, "big", f->big_data, BIG_LEN, &f->big);
	}
	ok = ok && wfx_checkpoint(fs, true) == 0;
	f2fs_fs_close(fs);
	return ok;
}

static bool files_read_back(struct fixture *fx, const struct files *f)
{
	uint8_t buf[SMALL_LEN];
	uint32_t i;

	for (i = 0; i < NR_SMALL; i += KEEP) {
		wfx_fill(buf, sizeof(buf), i);
		if (!wfx_reads_back(fx, f->small[i], buf, sizeof(buf)))
			return false;
	}
	return wfx_reads_back(fx, f->big, f->big_data, BIG_LEN);
}

static uint64_t sb_blocks(struct fixture *fx)
{
	uint8_t blk[F2FS_BLKSIZE];
	const struct f2fs_super_block *sb = (const void *)(blk + F2FS_SUPER_OFFSET);

	return f2fs_dev_read(fx->dev, blk, 0, sizeof(blk)) ? 0 : le64_get(sb->block_count);
}

static int resize_opts(struct fixture *fx, const struct f2fs_resize_opts *o,
		       struct f2fs_resize_report *r)
{
	char why[256] = "";
	int ret = f2fs_resize(fx->dev, o, r, why, sizeof(why));

	if (ret)
		fprintf(stderr, "  resize to %llu MiB: %s\n",
			(unsigned long long)(o->target_sectors * 512 / MIB), why);
	return ret;
}

/* Without -f both directions relocate the metadata areas; a shrink needs -s. */
static int resize_to(struct fixture *fx, uint64_t bytes, bool safe, struct f2fs_resize_report *r)
{
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(bytes), .safe = safe};

	return resize_opts(fx, &o, r);
}

/* -f: upstream's layout, written over the old metadata areas (kept with -s). */
static int resize_in_place(struct fixture *fx, uint64_t bytes, bool safe,
			   struct f2fs_resize_report *r)
{
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(bytes), .safe = safe, .force = true};

	return resize_opts(fx, &o, r);
}

/* A copy of the whole device, to show a refused resize wrote nothing. */
static uint8_t *snapshot(struct fixture *fx)
{
	uint8_t *copy = malloc(fx->bytes);

	if (copy && f2fs_dev_read(fx->dev, copy, 0, fx->bytes)) {
		free(copy);
		copy = NULL;
	}
	return copy;
}

static bool unchanged(struct fixture *fx, const uint8_t *before)
{
	uint8_t *now = snapshot(fx);
	bool same = now && before && !memcmp(now, before, fx->bytes);

	free(now);
	return same;
}

static void test_shrink_then_grow(void)
{
	struct fixture fx;
	struct files f = {0};
	struct f2fs_resize_report r;
	uint32_t old_main, seg0;

	CHECK(wfx_format(&fx, 512 * MIB, NULL, 1));
	CHECK(fill(&fx, &f));
	old_main = le32_get(fx.sb.main_blkaddr);

	/* all or nothing: segment 0 moves to the old main area's start */
	CHECK(resize_to(&fx, 96 * MIB, true, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 96 * MIB / F2FS_BLKSIZE);
	CHECK_EQ_U64(le32_get(r.new_sb.segment0_blkaddr), old_main);
	/* the areas are sized for 96 MiB, not larger than the 512 MiB ones */
	CHECK(le32_get(r.new_sb.segment_count_sit) <= le32_get(r.old_sb.segment_count_sit));
	CHECK(r.moved_blocks > 0); /* the files were written past 96 MiB */
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));

	CHECK(resize_in_place(&fx, 512 * MIB, false, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 512 * MIB / F2FS_BLKSIZE);
	CHECK_EQ_U64(le32_get(r.new_sb.segment0_blkaddr), old_main);
	CHECK(le32_get(r.new_sb.segment_count_main) > 200);
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));

	/* upstream's shrink: the areas stay, only the main area ends earlier */
	seg0 = le32_get(r.new_sb.segment0_blkaddr);
	old_main = le32_get(r.new_sb.main_blkaddr);
	CHECK(resize_in_place(&fx, 128 * MIB, true, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 128 * MIB / F2FS_BLKSIZE);
	CHECK_EQ_U64(le32_get(r.new_sb.segment0_blkaddr), seg0);
	CHECK_EQ_U64(le32_get(r.new_sb.main_blkaddr), old_main);
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));
	free(f.big_data);
	fixture_free(&fx);
}

/* Grown from a volume made small: the metadata areas grow, the main area starts later. */
static void test_grow_moves_main_start(void)
{
	struct fixture fx;
	struct files f = {0};
	struct f2fs_resize_report r;

	fixture_init(&fx, 2048 * MIB);
	fx.cfg.geometry.total_sectors = SECTORS(128 * MIB);
	CHECK(fixture_open(&fx) && fixture_mkfs(&fx));
	CHECK(fill(&fx, &f));
	CHECK(resize_to(&fx, 2048 * MIB, false, &r) == 0);
	CHECK(r.shift_segs > 0);
	CHECK(r.moved_blocks > 0); /* the logs and blocks where the metadata now goes */
	CHECK(le32_get(r.new_sb.main_blkaddr) > le32_get(r.old_sb.main_blkaddr));
	CHECK(le32_get(r.new_sb.segment_count_nat) > le32_get(r.old_sb.segment_count_nat));
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));
	free(f.big_data);
	fixture_free(&fx);
}

static void test_refusals_write_nothing(void)
{
	struct fixture fx;
	struct files f = {0};
	struct f2fs_resize_report r;
	uint8_t *before;

	CHECK(wfx_format(&fx, 128 * MIB, NULL, 1));
	CHECK(fill(&fx, &f));
	before = snapshot(&fx);
	CHECK(before != NULL);
	/* 24 MiB of the big file cannot fit 32 MiB less its reserve */
	CHECK(resize_to(&fx, 32 * MIB, true, &r) == -ENOSPC);
	CHECK(unchanged(&fx, before));
	CHECK(resize_to(&fx, 96 * MIB, false, &r) == -EINVAL);
	CHECK(unchanged(&fx, before));
	CHECK(resize_to(&fx, 128 * MIB, true, &r) == 0);
	CHECK(r.result == F2FS_RESIZE_SAME_SIZE);
	CHECK(unchanged(&fx, before));
	free(before);
	free(f.big_data);
	fixture_free(&fx);
}

/* A few files, most of them in the first segments that the relocated metadata takes. */
static bool fill_few(struct fixture *fx, uint32_t *ino, uint32_t n)
{
	struct f2fs_fs *fs;
	uint8_t buf[SMALL_LEN];
	char name[16];
	uint32_t i;
	bool ok;

	if (!wfx_open_rw(fx, &fs))
		return false;
	for (i = 0, ok = true; ok && i < n; i++) {
		snprintf(name, sizeof(name), "f%02u", i);
		wfx_fill(buf, sizeof(buf), i);
		ok = write_file(fs, name, buf, sizeof(buf), &ino[i]);
	}
	ok = ok && wfx_checkpoint(fs, true) == 0;
	f2fs_fs_close(fs);
	return ok;
}

/*
 * A resize from @from to @to bytes (-s when shrinking) cut at its first
 * write, its second, ... until one runs through: after every cut the
 * volume is the old one or the new one, clean, with its files, and a cut
 * before the last write leaves the old one.
 */
static void cut_at_every_write(uint64_t from, uint64_t to)
{
	enum { N = 24 };
	struct fixture fx;
	struct cut_device c = {0, UINT64_MAX};
	struct f2fs_device *stacked;
	struct f2fs_resize_report r;
	uint32_t ino[N], i;
	uint64_t old_blocks = from / F2FS_BLKSIZE, new_blocks = to / F2FS_BLKSIZE;
	uint64_t n, olds = 0, news = 0;
	uint8_t *base, buf[SMALL_LEN];
	int ret = -1;

	fixture_init(&fx, from > to ? from : to);
	fx.cfg.geometry.total_sectors = SECTORS(from);
	CHECK(fixture_open(&fx) && fixture_mkfs(&fx));
	CHECK(fill_few(&fx, ino, N));
	CHECK(cut_device_stack(fx.dev, &c, &stacked) == 0);
	fx.dev = stacked;
	base = snapshot(&fx);
	CHECK(base != NULL);
	for (n = 0; base && ret != 0 && n < 100000; n++) {
		bool ok = true;
		uint64_t now;

		c.limit = UINT64_MAX;
		CHECK(f2fs_dev_write(fx.dev, base, 0, fx.bytes) == 0);
		c.seen = 0;
		c.limit = n;
		ret = resize_to(&fx, to, to < from, &r);
		c.limit = UINT64_MAX;
		now = sb_blocks(&fx);
		if (now == old_blocks)
			olds++;
		else if (now == new_blocks)
			news++;
		else
			ok = false;
		ok = ok && (ret == 0) == (now == new_blocks);
		ok = ok && wfx_problems(&fx) == 0;
		for (i = 0; ok && i < N; i++) {
			wfx_fill(buf, sizeof(buf), i);
			ok = wfx_reads_back(&fx, ino[i], buf, sizeof(buf));
		}
		if (!ok)
			fprintf(stderr, "  cut at write %llu: %llu blocks, resize %d\n",
				(unsigned long long)n, (unsigned long long)now, ret);
		CHECK(ok);
	}
	CHECK(ret == 0);
	CHECK(olds > 0 && news == 1); /* only the run that was not cut is the new volume */
	CHECK(to > from || r.moved_blocks > 0); /* the shrink moved blocks from past its end */
	fprintf(stderr, "  %llu cuts, each left the old volume\n", (unsigned long long)olds);
	free(base);
	fixture_free(&fx);
}

static void test_grow_cut_at_every_write(void)
{
	cut_at_every_write(64 * MIB, 128 * MIB);
}

static void test_shrink_cut_at_every_write(void)
{
	cut_at_every_write(128 * MIB, 64 * MIB);
}

/* A host-managed device of 512 MiB (8 MiB zones, 4 conventional) with a 256 MiB volume. */
static bool zoned_half(struct fixture *fx)
{
	struct f2fs_memory_zones zp = {
	    .size = 512 * MIB, .zone_bytes = ZF_ZONE, .nr_conv = 4, .max_active = 14};
	struct f2fs_mkfs_result res;
	char why[160] = "";

	fixture_init(fx, zp.size);
	zoned_fixture_config(&fx->cfg, ZF_ZONE);
	fx->cfg.geometry.total_sectors = SECTORS(256 * MIB);
	fx->cfg.geometry.nr_devices = 1;
	fx->cfg.geometry.devices[0] = (struct f2fs_layout_device){.sectors = SECTORS(256 * MIB),
								  .zoned = true,
								  .host_managed = true,
								  .rnd_zones = zp.nr_conv};
	if (f2fs_layout_compute(&fx->cfg.geometry, &fx->l, why, sizeof(why)) ||
	    f2fs_dev_open_memory_zoned(&zp, &fx->dev) ||
	    f2fs_mkfs_format(fx->dev, &fx->cfg, &fx->l, &res)) {
		fprintf(stderr, "  zoned volume: %s\n", why);
		return false;
	}
	return true;
}

/* @mib MiB in one file, 1 MiB at a time. */
static bool write_mib(struct fixture *fx, const char *name, uint32_t mib, uint32_t *ino)
{
	struct f2fs_fs *fs;
	uint8_t *buf = malloc(MIB);
	uint32_t i;
	bool ok = buf && wfx_open_rw(fx, &fs);

	if (!ok) {
		free(buf);
		return false;
	}
	ok = wfx_create(fs, WFX_ROOT, name, S_IFREG | 0644, ino) == 0;
	for (i = 0; ok && i < mib; i++) {
		wfx_fill(buf, MIB, i);
		ok = f2fs_pwrite(fs, *ino, buf, MIB, (uint64_t)i * MIB) == 0;
	}
	ok = ok && wfx_checkpoint(fs, true) == 0;
	f2fs_fs_close(fs);
	free(buf);
	return ok;
}

static bool mib_reads_back(struct fixture *fx, uint32_t ino, uint32_t mib)
{
	uint8_t *want = malloc((size_t)mib * MIB);
	uint32_t i;
	bool ok = want != NULL;

	for (i = 0; ok && i < mib; i++)
		wfx_fill(want + (size_t)i * MIB, MIB, i);
	ok = ok && wfx_reads_back(fx, ino, want, (size_t)mib * MIB);
	free(want);
	return ok;
}

static bool zone_empty(struct fixture *fx, uint64_t off)
{
	struct f2fs_zone zn;
	unsigned int nr = 0;

	return f2fs_dev_report_zones(fx->dev, off, &zn, 1, &nr) == 0 && nr == 1 &&
	       zn.wp == zn.start;
}

/*
 * A zoned volume grows by whole zones with -f (its areas stay in their
 * conventional zones), after the stale data in a zone it grows into is
 * reset; the grown volume is clean, its file reads back, and a file larger
 * than the old volume then fits.  Without -f it is refused.
 */
static void test_zoned_grow_by_zones(void)
{
	static uint8_t junk[4 * F2FS_BLKSIZE];
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(512 * MIB)};
	struct f2fs_resize_report r;
	struct fixture fx;
	uint32_t first, second;
	uint64_t stale = 304 * MIB; /* a zone past the old end */

	CHECK(zoned_half(&fx));
	CHECK(write_mib(&fx, "first", 100, &first));
	CHECK(f2fs_dev_write(fx.dev, junk, stale, sizeof(junk)) == 0);
	CHECK(resize_opts(&fx, &o, &r) == -EINVAL); /* in place: needs -f */
	o.force = true;
	CHECK(resize_opts(&fx, &o, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 512 * MIB / F2FS_BLKSIZE);
	CHECK_EQ_U64(le32_get(r.new_sb.main_blkaddr), le32_get(r.old_sb.main_blkaddr));
	CHECK_EQ_U64(le32_get(r.new_sb.section_count) - le32_get(r.old_sb.section_count),
		     256 * MIB / ZF_ZONE);
	CHECK(zone_empty(&fx, stale));
	CHECK(wfx_problems(&fx) == 0);
	CHECK(mib_reads_back(&fx, first, 100));
	CHECK(write_mib(&fx, "second", 200, &second));
	CHECK(wfx_problems(&fx) == 0);
	CHECK(mib_reads_back(&fx, second, 200));
	CHECK(mib_reads_back(&fx, first, 100));
	fixture_free(&fx);
}

/*
 * A zoned volume shrinks by whole zones with -f -s (its areas stay in their
 * conventional zones): a file written past the new end moves inside, the
 * shrunk volume is clean, its files read back and it takes writes; without
 * -f, or to a size its files do not fit, it is refused and nothing is
 * written.
 */
static void test_zoned_shrink_by_zones(void)
{
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(160 * MIB), .safe = true};
	struct f2fs_resize_report r;
	struct fixture fx;
	struct f2fs_fs *fs;
	uint32_t first, second, third;
	uint8_t *before;

	CHECK(zoned_half(&fx));
	CHECK(write_mib(&fx, "first", 70, &first));
	CHECK(write_mib(&fx, "second", 30, &second));
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK(f2fs_unlink(fs, WFX_ROOT, "first", 5) == 0);
	CHECK(wfx_checkpoint(fs, true) == 0);
	f2fs_fs_close(fs);
	CHECK(wfx_problems(&fx) == 0);
	before = snapshot(&fx);
	CHECK(before != NULL);
	CHECK(resize_opts(&fx, &o, &r) == -EINVAL); /* in place: needs -f */
	CHECK(unchanged(&fx, before));
	o.force = true;
	o.target_sectors = SECTORS(72 * MIB); /* too small for the metadata and reserve */
	CHECK(resize_opts(&fx, &o, &r) == -ENOSPC);
	CHECK(unchanged(&fx, before));
	o.target_sectors = SECTORS(160 * MIB);
	CHECK(resize_opts(&fx, &o, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 160 * MIB / F2FS_BLKSIZE);
	CHECK_EQ_U64(le32_get(r.new_sb.main_blkaddr), le32_get(r.old_sb.main_blkaddr));
	CHECK_EQ_U64(le32_get(r.old_sb.section_count) - le32_get(r.new_sb.section_count),
		     96 * MIB / ZF_ZONE);
	CHECK(r.moved_blocks > 0); /* "second" lay past 160 MiB */
	CHECK(wfx_problems(&fx) == 0);
	CHECK(mib_reads_back(&fx, second, 30));
	CHECK(write_mib(&fx, "third", 20, &third));
	CHECK(wfx_problems(&fx) == 0);
	CHECK(mib_reads_back(&fx, third, 20));
	CHECK(mib_reads_back(&fx, second, 30));
	free(before);
	fixture_free(&fx);
}

/*
 * A volume of two memory devices: @dev0 bytes, then a second device of
 * @full bytes of which the volume was made on the first @share, joined as
 * resize.f2fs joins it (F2FS_VOLUME_GROW_LAST: the last device in full).
 */
static bool two_devices(struct fixture *fx, uint64_t dev0, uint64_t share, uint64_t full)
{
	struct f2fs_device *devs[2] = {NULL, NULL};
	uint64_t lens[2];
	char why[160] = "";
	int ret;

	fixture_init(fx, dev0 + full);
	fx->cfg.geometry.total_sectors = SECTORS(dev0 + share);
	fx->cfg.geometry.nr_devices = 2;
	fx->cfg.geometry.devices[0] = (struct f2fs_layout_device){.sectors = SECTORS(dev0)};
	fx->cfg.geometry.devices[1] = (struct f2fs_layout_device){.sectors = SECTORS(share)};
	fx->cfg.paths[0] = "/dev/vda";
	fx->cfg.paths[1] = "/dev/vdb";
	ret = f2fs_layout_compute(&fx->cfg.geometry, &fx->l, why, sizeof(why));
	if (!ret)
		ret = f2fs_dev_open_memory(dev0, &devs[0]);
	if (!ret)
		ret = f2fs_dev_open_memory(full, &devs[1]);
	lens[0] = dev0;
	lens[1] = full;
	if (!ret)
		ret = f2fs_dev_concat(devs, lens, 2, &fx->dev);
	if (ret) {
		fprintf(stderr, "  two devices: %s %s\n", strerror(-ret), why);
		f2fs_dev_close(devs[0]);
		f2fs_dev_close(devs[1]);
		return false;
	}
	return fixture_mkfs(fx);
}

/* A shrink in place (-f -s) to @bytes is refused with a reason containing @reason. */
static bool refused_with(struct fixture *fx, uint64_t bytes, const char *reason)
{
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(bytes), .safe = true, .force = true};
	struct f2fs_resize_report r;
	char why[256] = "";
	int ret = f2fs_resize(fx->dev, &o, &r, why, sizeof(why));

	if (ret == 0 || !strstr(why, reason))
		fprintf(stderr, "  resize to %llu MiB: %d, %s\n", (unsigned long long)(bytes / MIB),
			ret, why);
	return ret != 0 && strstr(why, reason) != NULL;
}

static uint32_t dev_segs(const struct f2fs_super_block *sb, int i)
{
	return le32_get(sb->devs[i].total_segments);
}

/*
 * A volume of two devices grows into its last one, relocating its metadata
 * (segment 0 moves on, within the first device, whose share shrinks by as
 * many segments; the last device takes the rest), then shrinks within the
 * last device; both are clean and keep their files.  A shrink that would
 * reach into the first device is refused and writes nothing.
 */
static void test_two_devices_grow_and_shrink(void)
{
	struct fixture fx;
	struct files f = {0};
	struct f2fs_resize_report r;
	uint32_t moved;
	uint8_t *before;

	CHECK(two_devices(&fx, 64 * MIB, 64 * MIB, 256 * MIB));
	CHECK(fill(&fx, &f));
	before = snapshot(&fx);
	CHECK(before != NULL);
	CHECK(refused_with(&fx, 62 * MIB, "ends before the last device"));
	CHECK(unchanged(&fx, before));
	free(before);
	CHECK(resize_to(&fx, 320 * MIB, false, &r) == 0);
	moved = (le32_get(r.new_sb.segment0_blkaddr) - le32_get(r.old_sb.segment0_blkaddr)) / 512;
	CHECK(moved > 0);
	CHECK_EQ_U64(dev_segs(&r.new_sb, 0), dev_segs(&r.old_sb, 0) - moved);
	CHECK_EQ_U64(dev_segs(&r.new_sb, 1), 256 * MIB / F2FS_SEGMENT_BYTES);
	CHECK_EQ_U64(dev_segs(&r.new_sb, 0) + dev_segs(&r.new_sb, 1),
		     le32_get(r.new_sb.segment_count));
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));

	CHECK(resize_to(&fx, 160 * MIB, true, &r) == 0);
	CHECK_EQ_U64(dev_segs(&r.new_sb, 0) + dev_segs(&r.new_sb, 1),
		     le32_get(r.new_sb.segment_count));
	CHECK(dev_segs(&r.new_sb, 1) <= 96 * MIB / F2FS_SEGMENT_BYTES);
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));

	free(f.big_data);
	fixture_free(&fx);
}

/*
 * On a first device with little room past the metadata, a relocating grow
 * (segment 0 moving past the old areas) leaves too few of its segments for
 * the new areas: refused, nothing written.  Growing in place (-f) keeps
 * segment 0 and fits.
 */
static void test_two_devices_metadata_on_first(void)
{
	struct fixture fx;
	struct f2fs_resize_report r;
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(20 * MIB + 512 * MIB)};
	uint32_t ino[4];
	uint8_t *before;

	CHECK(two_devices(&fx, 20 * MIB, 64 * MIB, 512 * MIB));
	CHECK(fill_few(&fx, ino, 4));
	before = snapshot(&fx);
	CHECK(before != NULL);
	CHECK(resize_opts(&fx, &o, &r) == -ENOSPC);
	CHECK(unchanged(&fx, before));
	o.force = true;
	CHECK(resize_opts(&fx, &o, &r) == 0);
	CHECK_EQ_U64(dev_segs(&r.new_sb, 0), dev_segs(&r.old_sb, 0));
	CHECK_EQ_U64(dev_segs(&r.new_sb, 0) + dev_segs(&r.new_sb, 1),
		     le32_get(r.new_sb.segment_count));
	CHECK(wfx_problems(&fx) == 0);
	free(before);
	fixture_free(&fx);
}

int main(void)
{
	RUN(test_shrink_then_grow);
	RUN(test_grow_moves_main_start);
	RUN(test_refusals_write_nothing);
	RUN(test_grow_cut_at_every_write);
	RUN(test_shrink_cut_at_every_write);
	RUN(test_zoned_grow_by_zones);
	RUN(test_zoned_shrink_by_zones);
	RUN(test_two_devices_grow_and_shrink);
	RUN(test_two_devices_metadata_on_first);
	TEST_EXIT();
}
