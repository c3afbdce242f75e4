// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_rebuild() on in-memory images written by the write path: files made
 * (with several checkpoints, so stale copies of their nodes lie in the
 * log) and some deleted, then the NAT, the SIT, both checkpoint packs, or
 * all three zeroed.  After the rebuild the volume checks
 * clean, every file reads back its bytes, and what was deleted stays
 * deleted unless no table says so.  A volume with no inode left or no
 * superblock is refused with nothing written.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/check.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/repair.h"
#include "f2fs/write.h"
#include "fixture.h"
#include "test.h"

#define IMG_BYTES (64ull << 20)
#define ROOT	  3u
#define FILES	  12
#define GONE	  3 /* files 0..GONE-1 are deleted */

static void fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

static size_t file_len(int i)
{
	return (size_t)(i + 1) * 9000;
}

static void name_of(int i, char *name)
{
	snprintf(name, 16, "f%02d", i);
}

/* A 64 MiB image with /d holding FILES files, the first GONE deleted, two checkpoints. */
static bool populate(struct fixture *fx)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_new_inode a;
	struct f2fs_fs *fs;
	uint8_t *buf = malloc(file_len(FILES));
	uint32_t dir, ino;
	char name[16];
	bool ok;
	int i;

	char why[256] = "";

	if (!buf || !fixture_format(fx, IMG_BYTES, "extra_attr,inode_checksum", false) ||
	    f2fs_fs_open(fx->dev, F2FS_FS_WRITE, &fs, why, sizeof(why))) {
		fprintf(stderr, "populate: %s\n", why);
		free(buf);
		return false;
	}
	f2fs_new_inode_init(&a, S_IFDIR | 0755, FIXTURE_TIME);
	ok = !f2fs_create(fs, ROOT, "d", 1, &a, NULL, &dir);
	for (i = 0; ok && i < FILES; i++) {
		name_of(i, name);
		f2fs_new_inode_init(&a, S_IFREG | 0644, FIXTURE_TIME);
		fill(buf, file_len(i), (uint32_t)i);
		ok = !f2fs_create(fs, dir, name, strlen(name), &a, NULL, &ino) &&
		     !f2fs_pwrite(fs, ino, buf, file_len(i), 0);
		if (ok && i == FILES / 2)
			ok = !f2fs_checkpoint(fs, &req); /* nodes written again after this */
	}
	ok = ok && !f2fs_checkpoint(fs, &req);
	for (i = 0; ok && i < GONE; i++) {
		name_of(i, name);
		ok = !f2fs_unlink(fs, dir, name, strlen(name));
	}
	ok = ok && !f2fs_checkpoint(fs, &req);
	f2fs_fs_close(fs);
	free(buf);
	return ok;
}

/* Zero @segs segments from block @start. */
static bool zero(struct fixture *fx, uint32_t start, uint32_t segs)
{
	return !f2fs_dev_zero(fx->dev, (uint64_t)start * F2FS_BLKSIZE,
			      (uint64_t)segs * F2FS_DEFAULT_BLKS_PER_SEG * F2FS_BLKSIZE);
}

static unsigned int count_problems;
static void count(const struct f2fs_problem *p, void *arg)
{
	(void)p;
	(void)arg;
	count_problems++;
}

/* The volume checks clean and holds the files that were not deleted, byte for byte. */
static void check_volume(struct fixture *fx, bool deleted_back)
{
	struct f2fs_check_options co = {.on_problem = count};
	struct f2fs_check_result res;
	uint8_t *want = malloc(file_len(FILES)), *got = malloc(file_len(FILES));
	struct f2fs_fs *fs;
	uint32_t dir, ino;
	char name[16];
	size_t done;
	int i;

	count_problems = 0;
	CHECK(want && got);
	CHECK(fixture_fs_open(fx, &fs));
	if (!want || !got || !fs) {
		free(want);
		free(got);
		return;
	}
	CHECK_EQ_U64(f2fs_check(fs, &co, &res), 0);
	CHECK_EQ_U64(count_problems, deleted_back ? count_problems : 0);
	f2fs_fs_close(fs);
	/* the write path's lookup and read, on a handle that writes nothing */
	CHECK_EQ_U64(f2fs_fs_open(fx->dev, F2FS_FS_WRITE, &fs, NULL, 0), 0);
	CHECK_EQ_U64(f2fs_lookup(fs, ROOT, "d", 1, &dir), 0);
	for (i = 0; i < FILES; i++) {
		name_of(i, name);
		if (i < GONE) {
			CHECK_EQ_U64(f2fs_lookup(fs, dir, name, strlen(name), &ino), -ENOENT);
			continue;
		}
		CHECK_EQ_U64(f2fs_lookup(fs, dir, name, strlen(name), &ino), 0);
		fill(want, file_len(i), (uint32_t)i);
		memset(got, 0, file_len(i));
		CHECK_EQ_U64(f2fs_pread(fs, ino, got, file_len(i), 0, &done), 0);
		CHECK_EQ_U64(done, file_len(i));
		CHECK(!memcmp(want, got, file_len(i)));
	}
	f2fs_fs_close(fs);
	free(want);
	free(got);
}

static void rebuild_after(uint32_t start_field_blk, uint32_t segs, const char *liveness,
			  uint32_t kept_inodes, bool deleted_back)
{
	struct f2fs_rebuild_report rep;
	struct fixture fx;
	char why[256] = "";

	if (!populate(&fx)) {
		CHECK(!"populate");
		fixture_free(&fx);
		return;
	}
	CHECK(zero(&fx, start_field_blk, segs));
	CHECK_EQ_U64(f2fs_rebuild(fx.dev, &rep, why, sizeof(why)), 0);
	if (why[0])
		fprintf(stderr, "rebuild: %s\n", why);
	CHECK(!strcmp(rep.liveness, liveness));
	CHECK_EQ_U64(rep.inodes, kept_inodes);
	CHECK(rep.blocks_scanned > 0);
	check_volume(&fx, deleted_back);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* root, its lost+found of mkfs, /d and the files left (the quota files when enabled) */
static uint32_t inodes_left(const struct fixture *fx)
{
	return 1 + (fx->res.lost_found_ino ? 1 : 0) + 1 + (FILES - GONE);
}

static void test_nat_zeroed(void)
{
	struct fixture fx;

	fixture_init(&fx, IMG_BYTES); /* only for the layout */
	CHECK(fixture_open(&fx));
	rebuild_after(fx.l.nat_blkaddr, fx.l.segment_count_nat, "SIT", inodes_left(&fx), false);
	fixture_free(&fx);
}

static void test_sit_zeroed(void)
{
	struct fixture fx;

	fixture_init(&fx, IMG_BYTES);
	CHECK(fixture_open(&fx));
	rebuild_after(fx.l.sit_blkaddr, fx.l.segment_count_sit, "NAT", inodes_left(&fx), false);
	fixture_free(&fx);
}

static void test_checkpoints_zeroed(void)
{
	struct fixture fx;

	fixture_init(&fx, IMG_BYTES);
	CHECK(fixture_open(&fx));
	rebuild_after(fx.l.cp_blkaddr, fx.l.segment_count_ckpt, "stored NAT copies",
		      inodes_left(&fx), false);
	fixture_free(&fx);
}

/*
 * The checkpoint packs, the SIT and the NAT (with the journals the packs
 * held): no table is left, so the deleted files come back (and the check
 * reports them unreachable, for lost+found).
 */
static void test_all_tables_zeroed(void)
{
	struct fixture fx;

	fixture_init(&fx, IMG_BYTES);
	CHECK(fixture_open(&fx));
	rebuild_after(fx.l.cp_blkaddr,
		      fx.l.segment_count_ckpt + fx.l.segment_count_sit + fx.l.segment_count_nat,
		      "no table", inodes_left(&fx) + GONE, true);
	fixture_free(&fx);
}

static uint32_t checksum_device(struct fixture *fx)
{
	uint8_t blk[F2FS_BLKSIZE];
	uint32_t sum = 0;
	uint64_t b, i;

	for (b = 0; b < fx->bytes / F2FS_BLKSIZE; b++) {
		if (!fixture_read_blk(fx, b, blk))
			return 0;
		for (i = 0; i < sizeof(blk); i++)
			sum = sum * 31 + blk[i];
	}
	return sum;
}

/* No inode in the main area, or no superblock: refused, nothing written. */
static void test_refused(void)
{
	struct f2fs_rebuild_report rep;
	struct fixture fx;
	char why[256] = "";
	uint32_t before;

	if (!populate(&fx)) {
		CHECK(!"populate");
		fixture_free(&fx);
		return;
	}
	CHECK(zero(&fx, fx.l.main_blkaddr, fx.l.segment_count_main));
	before = checksum_device(&fx);
	CHECK_EQ_U64(f2fs_rebuild(fx.dev, &rep, why, sizeof(why)), -ENODATA);
	CHECK(strstr(why, "no inode") != NULL);
	CHECK_EQ_U64(checksum_device(&fx), before);
	CHECK(zero(&fx, 0, 1));
	before = checksum_device(&fx);
	CHECK(f2fs_rebuild(fx.dev, &rep, why, sizeof(why)) < 0);
	CHECK(strstr(why, "superblock") != NULL);
	CHECK_EQ_U64(checksum_device(&fx), before);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

int main(void)
{
	RUN(test_nat_zeroed);
	RUN(test_sit_zeroed);
	RUN(test_checkpoints_zeroed);
	RUN(test_all_tables_zeroed);
	RUN(test_refused);
	TEST_EXIT();
}
