// SPDX-License-Identifier: GPL-2.0
/* The write path's unit-test helpers; see write_fixture.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "write_fixture.h"

bool wfx_format(struct fixture *fx, uint64_t bytes, const char *features, uint32_t segs_per_sec)
{
	return wfx_format_blk(fx, bytes, features, segs_per_sec, 0);
}

bool wfx_format_blk(struct fixture *fx, uint64_t bytes, const char *features, uint32_t segs_per_sec,
		    uint32_t log_blksize)
{
	fixture_init(fx, bytes);
	if (features && !fixture_features(fx, features))
		return false;
	fx->cfg.geometry.segs_per_sec = segs_per_sec;
	fx->cfg.geometry.log_blksize = log_blksize;
	return fixture_open(fx) && fixture_mkfs(fx);
}

bool wfx_open_rw(struct fixture *fx, struct f2fs_fs **fs)
{
	char why[256] = "";
	int ret = f2fs_fs_open(fx->dev, F2FS_FS_WRITE, fs, why, sizeof(why));

	if (ret)
		fprintf(stderr, "  open for writing: %s\n", why);
	return ret == 0;
}

int wfx_checkpoint(struct f2fs_fs *fs, bool umount)
{
	struct f2fs_cp_request req = {.reason = umount ? F2FS_CP_UMOUNT : F2FS_CP_SYNC};

	return f2fs_checkpoint(fs, &req);
}

static void count_problem(const struct f2fs_problem *p, void *arg)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);
	struct wfx_verdict *v = arg;

	if (p->code < PR_NR_CODES) {
		v->count[p->code]++;
		v->last[p->code] = *p;
	}
	fprintf(stderr, "  checker: %s nid %u blk 0x%llx: %s\n", info ? info->name : "?", p->nid,
		(unsigned long long)p->blkaddr, p->detail);
}

int wfx_check(struct fixture *fx, struct wfx_verdict *v)
{
	struct f2fs_check_options o = {.on_problem = count_problem, .arg = v};
	struct f2fs_fs *fs;
	int ret;

	memset(v, 0, sizeof(*v));
	if (!fixture_fs_open(fx, &fs))
		return -1;
	ret = f2fs_check(fs, &o, &v->r);
	f2fs_fs_close(fs);
	if (ret) {
		fprintf(stderr, "  check failed: %s\n", v->r.fatal_why);
		return -1;
	}
	return 0;
}

int wfx_problems(struct fixture *fx)
{
	struct wfx_verdict *v = malloc(sizeof(*v));
	int n = -1;

	if (v && !wfx_check(fx, v))
		n = (int)v->r.problems;
	free(v);
	return n;
}

void wfx_fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

int wfx_create(struct f2fs_fs *fs, uint32_t dir, const char *name, uint16_t mode, uint32_t *ino)
{
	struct f2fs_new_inode a;

	f2fs_new_inode_init(&a, mode, FIXTURE_TIME);
	return f2fs_create(fs, dir, name, strlen(name), &a, NULL, ino);
}

bool wfx_reads_back(struct fixture *fx, uint32_t ino, const uint8_t *want, size_t len)
{
	uint8_t *got = malloc(len + 1);
	struct f2fs_node *n = NULL;
	struct f2fs_fs *fs = NULL;
	size_t done = 0;
	bool ok = false;
	int ret = -ENOMEM;

	if (got && fixture_fs_open(fx, &fs)) {
		n = f2fs_block_alloc(fs);
		if (n)
			ret = f2fs_read_inode(fs, ino, n);
		if (!ret)
			ret = f2fs_file_pread(fs, n, got, len + 1, 0, &done);
		ok = !ret && done == len && !memcmp(got, want, len);
		f2fs_fs_close(fs);
	}
	if (!ok)
		fprintf(stderr, "  inode %u: read %zu bytes (%d), expected %zu\n", ino, done, ret,
			len);
	free(n);
	free(got);
	return ok;
}

bool wfx_read_inode(struct fixture *fx, uint32_t ino, struct f2fs_node *out)
{
	struct f2fs_fs *fs;
	int ret;

	if (!fixture_fs_open(fx, &fs))
		return false;
	ret = f2fs_read_inode(fs, ino, out);
	f2fs_fs_close(fs);
	if (ret)
		fprintf(stderr, "  inode %u: %d\n", ino, ret);
	return ret == 0;
}

bool wfx_edit_inode(struct fixture *fx, uint32_t ino, void (*edit)(struct f2fs_node *, void *),
		    void *arg)
{
	uint64_t blk = fixture_node_blk(fx, ino);
	struct f2fs_node n;

	if (!blk || !fixture_read_blk(fx, blk, &n))
		return false;
	edit(&n, arg);
	f2fs_inode_seal(f2fs_blkgeo_4k(), &n, fx->cfg.features,
			f2fs_inode_chksum_seed(fx->sb.uuid));
	return fixture_write_blk(fx, blk, &n);
}

struct find_block {
	uint64_t fblk;
	uint32_t addr;
};

static int match_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct find_block *f = arg;

	if (file_block != f->fblk)
		return 0;
	f->addr = blkaddr;
	return 1;
}

uint32_t wfx_file_block_addr(struct f2fs_fs *fs, uint32_t ino, uint64_t fblk)
{
	struct f2fs_node *n = f2fs_block_alloc(fs);
	struct find_block f = {.fblk = fblk};

	if (n && !f2fs_read_inode(fs, ino, n))
		f2fs_file_for_each_block(fs, n, match_block, &f);
	free(n);
	return f.addr;
}
