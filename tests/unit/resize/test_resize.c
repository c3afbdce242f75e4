// SPDX-License-Identifier: GPL-2.0
/*
 * Resizing (lib/resize) on in-memory images.  A volume filling its memory
 * device holds files spread over its whole main area (many small ones,
 * most deleted, then a large one); it is shrunk with -s far enough that
 * blocks past the new end must move, then grown back over the whole
 * device, which grows its metadata areas and so moves the main area's
 * start.  After each step the superblock has the new size, the checker
 * finds the volume clean and every file reads back through lib/read.  A
 * resize that must be refused (too small for what is in use, shrinking
 * without -s, growing with -s) leaves every byte of the device as it was.
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
#include "test.h"
#include "write/write_fixture.h"

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

static int resize_to(struct fixture *fx, uint64_t bytes, bool safe, struct f2fs_resize_report *r)
{
	struct f2fs_resize_opts o = {.target_sectors = SECTORS(bytes), .safe = safe};
	char why[256] = "";
	int ret = f2fs_resize(fx->dev, &o, r, why, sizeof(why));

	if (ret)
		fprintf(stderr, "  resize to %llu MiB: %s\n", (unsigned long long)(bytes / MIB),
			why);
	return ret;
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
	uint32_t old_main;

	CHECK(wfx_format(&fx, 512 * MIB, NULL, 1));
	CHECK(fill(&fx, &f));
	old_main = le32_get(fx.sb.main_blkaddr);

	CHECK(resize_to(&fx, 64 * MIB, true, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 64 * MIB / F2FS_BLKSIZE);
	CHECK_EQ_U64(le32_get(r.new_sb.main_blkaddr), old_main);
	CHECK(r.moved_blocks > 0); /* the big file was written past 64 MiB */
	CHECK(wfx_problems(&fx) == 0);
	CHECK(files_read_back(&fx, &f));

	CHECK(resize_to(&fx, 512 * MIB, false, &r) == 0);
	CHECK_EQ_U64(le64_get(r.new_sb.block_count), 512 * MIB / F2FS_BLKSIZE);
	/* the safe shrink kept 512 MiB of metadata areas: they now fit the size again */
	CHECK(le32_get(r.new_sb.segment_count_main) > 200);
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

int main(void)
{
	RUN(test_shrink_then_grow);
	RUN(test_grow_moves_main_start);
	RUN(test_refusals_write_nothing);
	TEST_EXIT();
}
