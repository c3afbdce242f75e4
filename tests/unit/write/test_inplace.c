// SPDX-License-Identifier: GPL-2.0
/*
 * In-place updates and the wait before a checkpoint's commit
 * (f2fs_set_in_place_updates, f2fs_set_commit_wait) on in-memory images.
 * With in-place updates on, a rewritten page of a regular file goes back
 * to the block it had, as the kernel writes it on small volumes
 * (IPU_FORCE), and nothing else on the volume changes: the node tree, the
 * SIT and the SSA stay as the last checkpoint left them.  A page without a
 * block still gets a new one, and f2fs_writeback_in_place() tells the two
 * apart.  The commit wait runs once per checkpoint, after the pack's body
 * and before its commit; a wait that fails leaves the old checkpoint the
 * volume's.  Each volume is judged by the checker and read back through
 * lib/read.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/fs.h"
#include "f2fs/volume.h"
#include "f2fs/write.h"
#include "test.h"
#include "write_fixture.h"

#define BLK   4096u
#define PAGES 8u

struct setup {
	struct fixture fx;
	struct f2fs_fs *fs;
	uint32_t ino;
	uint8_t want[PAGES * BLK];
};

/* A file of PAGES blocks, checkpointed, on a fresh 64 MiB volume left open. */
static bool make_file(struct setup *s)
{
	int ret;

	if (!wfx_format(&s->fx, 64ULL << 20, NULL, 1) || !wfx_open_rw(&s->fx, &s->fs))
		return false;
	wfx_fill(s->want, sizeof(s->want), 3);
	ret = wfx_create(s->fs, WFX_ROOT, "f", S_IFREG | 0644, &s->ino);
	if (!ret)
		ret = f2fs_pwrite(s->fs, s->ino, s->want, sizeof(s->want), 0);
	if (!ret)
		ret = wfx_checkpoint(s->fs, false);
	return ret == 0;
}

/* Rewrite page 2 with new bytes and write the file back. */
static int rewrite_page(struct setup *s)
{
	int ret;

	wfx_fill(s->want + 2 * BLK, BLK, 11);
	ret = f2fs_pwrite(s->fs, s->ino, s->want + 2 * BLK, BLK, 2 * BLK);
	return ret ? ret : f2fs_writepages(s->fs, s->ino, F2FS_WB_ALL, 0);
}

static void test_kernel_forces_ipu_on_small_volumes(void)
{
	struct setup *s = calloc(1, sizeof(*s));

	CHECK(s && make_file(s));
	/* 64 MiB: far below F2FS_SMALL_VOLUME_SEGMENTS main segments */
	CHECK(f2fs_kernel_forces_ipu(s->fs));
	f2fs_fs_close(s->fs);
	CHECK_EQ_U64(fixture_free(&s->fx), 0);
	free(s);
}

static void test_rewrite_goes_over_its_block(void)
{
	struct setup *s = calloc(1, sizeof(*s));
	uint32_t before, after;

	CHECK(s && make_file(s));
	before = wfx_file_block_addr(s->fs, s->ino, 2);
	f2fs_set_in_place_updates(s->fs, true);
	CHECK(!f2fs_writeback_in_place(s->fs, s->ino, UINT64_MAX, false)); /* nothing dirty yet */
	wfx_fill(s->want + 2 * BLK, BLK, 11);
	CHECK_EQ_U64(f2fs_pwrite(s->fs, s->ino, s->want + 2 * BLK, BLK, 2 * BLK), 0);
	CHECK(f2fs_writeback_in_place(s->fs, s->ino, UINT64_MAX, false));
	CHECK_EQ_U64(f2fs_writepages(s->fs, s->ino, F2FS_WB_ALL, 0), 0);
	/* no checkpoint needed for it: the last one still describes the volume */
	CHECK(!f2fs_write_dirty(s->fs));
	CHECK_EQ_U64(wfx_checkpoint(s->fs, true), 0);
	after = wfx_file_block_addr(s->fs, s->ino, 2);
	CHECK(before != 0);
	CHECK_EQ_U64(after, before);
	f2fs_fs_close(s->fs);
	CHECK_EQ_U64(wfx_problems(&s->fx), 0);
	CHECK(wfx_reads_back(&s->fx, s->ino, s->want, sizeof(s->want)));
	CHECK_EQ_U64(fixture_free(&s->fx), 0);
	free(s);
}

static void test_out_of_place_by_default(void)
{
	struct setup *s = calloc(1, sizeof(*s));
	uint32_t before;

	CHECK(s && make_file(s));
	before = wfx_file_block_addr(s->fs, s->ino, 2);
	CHECK_EQ_U64(rewrite_page(s), 0);
	CHECK(f2fs_write_dirty(s->fs));
	CHECK_EQ_U64(wfx_checkpoint(s->fs, true), 0);
	CHECK(wfx_file_block_addr(s->fs, s->ino, 2) != before);
	f2fs_fs_close(s->fs);
	CHECK_EQ_U64(wfx_problems(&s->fx), 0);
	CHECK(wfx_reads_back(&s->fx, s->ino, s->want, sizeof(s->want)));
	CHECK_EQ_U64(fixture_free(&s->fx), 0);
	free(s);
}

static void test_new_page_gets_a_block(void)
{
	struct setup *s = calloc(1, sizeof(*s));
	uint8_t more[BLK];

	CHECK(s && make_file(s));
	f2fs_set_in_place_updates(s->fs, true);
	wfx_fill(more, sizeof(more), 5);
	/* a page past the end has no block: the whole write-back is not in place */
	CHECK_EQ_U64(f2fs_pwrite(s->fs, s->ino, more, BLK, PAGES * BLK), 0);
	CHECK(!f2fs_writeback_in_place(s->fs, s->ino, UINT64_MAX, false));
	CHECK_EQ_U64(f2fs_writepages(s->fs, s->ino, F2FS_WB_ALL, 0), 0);
	CHECK(f2fs_write_dirty(s->fs));
	CHECK_EQ_U64(wfx_checkpoint(s->fs, true), 0);
	CHECK(wfx_file_block_addr(s->fs, s->ino, PAGES) != 0);
	f2fs_fs_close(s->fs);
	CHECK_EQ_U64(wfx_problems(&s->fx), 0);
	CHECK_EQ_U64(fixture_free(&s->fx), 0);
	free(s);
}

struct waits {
	unsigned int calls;
	int ret;
};

static int count_wait(void *arg)
{
	struct waits *w = arg;

	w->calls++;
	return w->ret;
}

static void test_commit_wait_once_per_checkpoint(void)
{
	struct setup *s = calloc(1, sizeof(*s));
	struct waits w = {0, 0};

	CHECK(s && make_file(s));
	f2fs_set_commit_wait(s->fs, count_wait, &w);
	CHECK_EQ_U64(rewrite_page(s), 0);
	CHECK_EQ_U64(wfx_checkpoint(s->fs, false), 0);
	CHECK_EQ_U64(w.calls, 1);
	CHECK_EQ_U64(wfx_checkpoint(s->fs, true), 0);
	CHECK_EQ_U64(w.calls, 2);
	f2fs_fs_close(s->fs);
	CHECK_EQ_U64(wfx_problems(&s->fx), 0);
	CHECK(wfx_reads_back(&s->fx, s->ino, s->want, sizeof(s->want)));
	CHECK_EQ_U64(fixture_free(&s->fx), 0);
	free(s);
}

static void test_failed_wait_keeps_old_checkpoint(void)
{
	struct setup *s = calloc(1, sizeof(*s));
	struct waits w = {0, -EIO};
	uint8_t old[PAGES * BLK];
	uint64_t ver;

	CHECK(s && make_file(s));
	memcpy(old, s->want, sizeof(old));
	ver = f2fs_volume_cp_version(f2fs_fs_volume(s->fs));
	f2fs_set_commit_wait(s->fs, count_wait, &w);
	CHECK_EQ_U64(rewrite_page(s), 0);
	CHECK_EQ_U64(wfx_checkpoint(s->fs, false), -EIO);
	/* the handle refuses writes after a failed commit */
	CHECK(wfx_checkpoint(s->fs, false) != 0);
	f2fs_fs_close(s->fs);
	CHECK_EQ_U64(wfx_problems(&s->fx), 0);
	{
		struct f2fs_fs *ro;

		CHECK(fixture_fs_open(&s->fx, &ro));
		if (ro) {
			CHECK_EQ_U64(f2fs_volume_cp_version(f2fs_fs_volume(ro)), ver);
			f2fs_fs_close(ro);
		}
	}
	CHECK_EQ_U64(fixture_free(&s->fx), 0);
	free(s);
}

int main(void)
{
	RUN(test_kernel_forces_ipu_on_small_volumes);
	RUN(test_rewrite_goes_over_its_block);
	RUN(test_out_of_place_by_default);
	RUN(test_new_page_gets_a_block);
	RUN(test_commit_wait_once_per_checkpoint);
	RUN(test_failed_wait_keeps_old_checkpoint);
	TEST_EXIT();
}
