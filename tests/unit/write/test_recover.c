// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_roll_forward() on in-memory images: a file grown and a new file
 * made and fsynced after a checkpoint, then the handle dropped without one
 * (a power cut).  Applying the chain gives both files their fsynced bytes
 * and names, a write after the last fsync stays lost, and the volume checks
 * clean after the checkpoint that follows; the chain is then gone.  A
 * handle without F2FS_FS_ROLL_FORWARD, or one written through first, is
 * refused.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/check.h"
#include "f2fs/fs.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "fixture.h"
#include "test.h"

#define ROOT 3u

static void fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

static int create(struct f2fs_fs *fs, const char *name, uint32_t *ino)
{
	struct f2fs_new_inode a;

	f2fs_new_inode_init(&a, S_IFREG | 0644, FIXTURE_TIME);
	return f2fs_create(fs, ROOT, name, strlen(name), &a, NULL, ino);
}

/* /old: 40000 bytes checkpointed, then grown to 90000 and fsynced; /new: 70000 bytes fsynced. */
static bool cut_after_fsyncs(struct fixture *fx, uint8_t *old, uint8_t *fresh)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	uint8_t late[4096];
	struct f2fs_fs *fs;
	uint32_t a, b;
	bool cp1 = true, cp2 = true, ok;

	fill(old, 90000, 1);
	fill(fresh, 70000, 2);
	fill(late, sizeof(late), 3);
	if (!fixture_format(fx, 64ull << 20, "extra_attr,inode_checksum", false) ||
	    f2fs_fs_open(fx->dev, F2FS_FS_WRITE, &fs, NULL, 0))
		return false;
	ok = !create(fs, "old", &a) && !f2fs_pwrite(fs, a, old, 40000, 0) &&
	     !f2fs_checkpoint(fs, &req) && !f2fs_pwrite(fs, a, old + 40000, 50000, 40000) &&
	     !create(fs, "new", &b) && !f2fs_pwrite(fs, b, fresh, 70000, 0) &&
	     !f2fs_fsync(fs, b, false, &cp1) && !f2fs_fsync(fs, a, false, &cp2) &&
	     !f2fs_pwrite(fs, a, late, sizeof(late), 0);
	/* the last write, never fsynced, is lost with the cut */
	f2fs_fs_close(fs);
	return ok && !cp1 && !cp2;
}

static void check_file(struct f2fs_fs *fs, const char *name, const uint8_t *want, size_t len)
{
	uint8_t *got = calloc(1, len + 1);
	size_t done = 0;
	uint32_t ino;

	CHECK(got != NULL);
	if (!got)
		return;
	CHECK_EQ_U64(f2fs_lookup(fs, ROOT, name, strlen(name), &ino), 0);
	CHECK_EQ_U64(f2fs_pread(fs, ino, got, len + 1, 0, &done), 0);
	CHECK_EQ_U64(done, len);
	CHECK(!memcmp(got, want, len));
	free(got);
}

static unsigned int problems;
static void count(const struct f2fs_problem *p, void *arg)
{
	(void)arg;
	fprintf(stderr, "problem: %s nid %u blk %llu: %s\n", f2fs_problem_info(p->code)->name,
		p->nid, (unsigned long long)p->blkaddr, p->detail);
	problems++;
}

static void test_applied(void)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_check_options co = {.on_problem = count};
	uint8_t *old = malloc(90000), *fresh = malloc(70000);
	struct f2fs_check_result res;
	struct f2fs_recovery rec;
	uint32_t fsynced = 0, length = 0;
	struct fixture fx;
	struct f2fs_fs *fs;

	CHECK(old && fresh);
	if (!old || !fresh || !cut_after_fsyncs(&fx, old, fresh)) {
		CHECK(!"cut_after_fsyncs");
		goto out;
	}
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE | F2FS_FS_ROLL_FORWARD, &fs, NULL, 0), 0);
	CHECK_EQ_U64(f2fs_roll_forward(fs, &rec), 0);
	CHECK_EQ_U64(rec.recovered_inodes, 2);
	CHECK_EQ_U64(rec.created, 1);
	CHECK_EQ_U64(rec.dentries, 1);
	CHECK(rec.blocks >= (50000 + 70000) / 4096);
	CHECK_EQ_U64(f2fs_checkpoint(fs, &req), 0);
	f2fs_fs_close(fs);

	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_READ, &fs, NULL, 0), 0);
	CHECK_EQ_U64(f2fs_roll_forward_chain(fs, &fsynced, &length), 0);
	CHECK_EQ_U64(fsynced, 0);
	problems = 0;
	CHECK_EQ_U64(f2fs_check(fs, &co, &res), 0);
	CHECK_EQ_U64(problems, 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE, &fs, NULL, 0), 0);
	check_file(fs, "old", old, 90000);
	check_file(fs, "new", fresh, 70000);
	f2fs_fs_close(fs);
out:
	fixture_free(&fx);
	free(old);
	free(fresh);
}

static void test_refused(void)
{
	uint8_t *old = malloc(90000), *fresh = malloc(70000);
	struct f2fs_recovery rec;
	struct fixture fx;
	struct f2fs_fs *fs;
	uint32_t ino;

	CHECK(old && fresh);
	if (!old || !fresh || !cut_after_fsyncs(&fx, old, fresh)) {
		CHECK(!"cut_after_fsyncs");
		goto out;
	}
	/* without the flag the write path refuses the volume outright */
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE, &fs, NULL, 0), 0);
	CHECK_EQ_U64(f2fs_roll_forward(fs, &rec), -EINVAL);
	CHECK_EQ_U64(create(fs, "x", &ino), -EUCLEAN);
	f2fs_fs_close(fs);
	/* with it, but after a change */
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE | F2FS_FS_ROLL_FORWARD, &fs, NULL, 0), 0);
	CHECK_EQ_U64(create(fs, "x", &ino), 0);
	CHECK_EQ_U64(f2fs_roll_forward(fs, &rec), -EBUSY);
	f2fs_fs_close(fs);
out:
	fixture_free(&fx);
	free(old);
	free(fresh);
}

int main(void)
{
	RUN(test_applied);
	RUN(test_refused);
	TEST_EXIT();
}
