// SPDX-License-Identifier: GPL-2.0
/*
 * The files a run wrote, and what the volume made of them.  While the run
 * goes, writes, renames, truncates and unlinks are noted per path.  After
 * it, on a read-only handle: each file's extents (runs of consecutive
 * file blocks in consecutive device blocks) and the read requests a
 * sequential read of it needs at 512 KiB per request (seed 004's figure);
 * the read pass, when the workload has one, reads every file that way,
 * with its inode and node blocks as a cold read meets them, its writer's
 * I/O class doing the reading; and a sample of the files is
 * read back and compared with the content the seed gives.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/nat.h"
#include "f2fs/read.h"
#include "f2fs/replay.h"
#include "f2fs/write.h"
#include "replay_internal.h"
#include "f2fs/sched.h"

#define READ_REQ_BYTES	 (512u << 10) /* a read request of the read pass */
#define VERIFY_MAX_FILES 64u
#define VERIFY_MAX_BYTES (64ull << 20) /* per file */
#define VERIFY_CHUNK	 (1u << 20)

/* ---- noting what the run does (under the big lock) ---- */

static struct rp_file *file_find(struct rp_engine *e, const char *path)
{
	size_t i;

	for (i = 0; i < e->nfiles; i++)
		if (!strcmp(e->files[i].path, path))
			return &e->files[i];
	return NULL;
}

static struct rp_file *file_add(struct rp_engine *e, const char *path)
{
	struct rp_file *f;

	if (e->nfiles == e->files_cap) {
		size_t cap = e->files_cap ? e->files_cap * 2 : 64;

		f = realloc(e->files, cap * sizeof(*f));
		if (!f)
			return NULL;
		e->files = f;
		e->files_cap = cap;
	}
	f = &e->files[e->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	f->key = strdup(path);
	if (!f->path || !f->key) {
		free(f->path);
		free(f->key);
		return NULL;
	}
	e->nfiles++;
	return f;
}

int rp_file_written(struct rp_engine *e, const char *path, uint64_t off, uint64_t len, int thread)
{
	struct rp_file *f = file_find(e, path);

	if (!f && !(f = file_add(e, path)))
		return -ENOMEM;
	if (strcmp(f->key, path))
		f->mixed = true;
	if (off <= f->covered && off + len > f->covered)
		f->covered = off + len;
	f->reader = thread;
	return 0;
}

void rp_file_truncated(struct rp_engine *e, const char *path)
{
	struct rp_file *f = file_find(e, path);

	if (f)
		f->mixed = true;
}

static void file_drop(struct rp_engine *e, struct rp_file *f)
{
	free(f->path);
	free(f->key);
	*f = e->files[--e->nfiles];
}

void rp_file_unlinked(struct rp_engine *e, const char *path)
{
	struct rp_file *f = file_find(e, path);

	if (f)
		file_drop(e, f);
}

int rp_file_renamed(struct rp_engine *e, const char *from, const char *to)
{
	struct rp_file *f = file_find(e, from), *over = file_find(e, to);
	char *p;

	if (over && over != f)
		file_drop(e, over);
	f = file_find(e, from);
	if (!f)
		return 0;
	p = strdup(to);
	if (!p)
		return -ENOMEM;
	free(f->path);
	f->path = p;
	return 0;
}

void rp_files_free(struct rp_engine *e)
{
	size_t i;

	for (i = 0; i < e->nfiles; i++) {
		free(e->files[i].path);
		free(e->files[i].key);
	}
	free(e->files);
	e->files = NULL;
	e->nfiles = 0;
}

/* After the run, on the write handle: the inode of every file still there. */
int rp_files_report(struct rp_engine *e, struct f2fs_replay_report *rep)
{
	size_t i = 0;

	while (i < e->nfiles) {
		if (f2fs_path_lookup(e->fs, e->files[i].path, &e->files[i].ino))
			file_drop(e, &e->files[i]);
		else
			i++;
	}
	rep->files = e->nfiles;
	return 0;
}

/* ---- extents ---- */

struct extent {
	uint64_t file_block, addr, blocks;
};

/* A node block of the file, and the first file block a reader needs it for. */
struct node_at {
	uint64_t first;
	uint32_t addr;
};

struct extent_walk {
	uint64_t last_file, last_addr;
	uint64_t requests, run;
	uint32_t req_blocks; /* blocks in READ_REQ_BYTES */
	struct extent *list;
	size_t n, cap;
	const struct f2fs_nat_table *nat;
	struct node_at *nodes; /* the inode, then each node below it, as the walk met them */
	size_t nnodes, nodes_cap;
	int err;
};

static void extent_walk_free(struct extent_walk *w)
{
	free(w->list);
	free(w->nodes);
}

static int close_run(struct extent_walk *w)
{
	if (!w->run)
		return 0;
	w->requests += (w->run + w->req_blocks - 1) / w->req_blocks;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct extent *l = realloc(w->list, cap * sizeof(*l));

		if (!l)
			return -ENOMEM;
		w->list = l;
		w->cap = cap;
	}
	w->list[w->n].file_block = w->last_file + 1 - w->run;
	w->list[w->n].addr = w->last_addr + 1 - w->run;
	w->list[w->n++].blocks = w->run;
	w->run = 0;
	return 0;
}

static int on_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct extent_walk *w = arg;
	int ret = 0;

	if (blkaddr == F2FS_NULL_ADDR || blkaddr == F2FS_NEW_ADDR || blkaddr == F2FS_COMPRESS_ADDR)
		return 0;
	if (!w->run || file_block != w->last_file + 1 || blkaddr != w->last_addr + 1)
		ret = close_run(w);
	w->last_file = file_block;
	w->last_addr = blkaddr;
	w->run++;
	return ret;
}

/*
 * Node @nid, whose blocks start at file block @first: its address from the
 * NAT, which f2fs_read_node() checked in the main area when the walk (or
 * file_extents, for the inode) read the node.
 */
static int on_node(uint64_t first, uint32_t nid, void *arg)
{
	struct extent_walk *w = arg;
	const struct f2fs_nat_info *ni = f2fs_nat_get(w->nat, nid);

	if (!ni)
		return -EUCLEAN;
	if (w->nnodes == w->nodes_cap) {
		size_t cap = w->nodes_cap ? w->nodes_cap * 2 : 8;
		struct node_at *l = realloc(w->nodes, cap * sizeof(*l));

		if (!l)
			return -ENOMEM;
		w->nodes = l;
		w->nodes_cap = cap;
	}
	w->nodes[w->nnodes++] = (struct node_at){.first = first, .addr = ni->blkaddr};
	return 0;
}

/*
 * The extents of file @ino (*@n: its inode) and, with @nodes, the node
 * blocks a cold reader of it reads: only the read pass reads them.
 */
static int file_extents(struct f2fs_fs *fs, uint32_t ino, struct f2fs_node *n, bool nodes,
			struct extent_walk *w)
{
	int ret = f2fs_read_inode(fs, ino, n);

	memset(w, 0, sizeof(*w));
	w->req_blocks = READ_REQ_BYTES / f2fs_fs_geo(fs)->blk.blksize;
	if (!ret && nodes) {
		ret = f2fs_fs_nat(fs, &w->nat);
		ret = ret ? ret : on_node(0, ino, w);
	}
	ret = ret ? ret
		  : f2fs_file_for_each_block_and_node(fs, n, on_block, nodes ? on_node : NULL, w);
	return ret ? ret : close_run(w);
}

/* ---- the read pass ---- */

/*
 * Read the file's node blocks a reader needs before file block @upto (the
 * kernel's page cache was dropped: the inode at open, each node as the read
 * reaches the blocks it maps), from *@next on.
 */
static int read_nodes(struct rp_engine *e, int ctx, const struct extent_walk *w, uint64_t upto,
		      size_t *next, void *buf, struct f2fs_replay_report *rep)
{
	int ret = 0;

	for (; *next < w->nnodes && w->nodes[*next].first <= upto && !ret; (*next)++) {
		rp_sched_set_current(e->sched, ctx);
		ret = f2fs_dev_read(e->sdev, buf, (uint64_t)w->nodes[*next].addr * e->blksize,
				    e->blksize);
		rep->read_pass_requests++;
		rep->read_pass_node_requests++;
	}
	return ret;
}

static int read_extents(struct rp_engine *e, int ctx, const struct extent_walk *w, void *buf,
			struct f2fs_replay_report *rep)
{
	size_t i, node = 0;
	int ret = read_nodes(e, ctx, w, 0, &node, buf, rep);

	for (i = 0; i < w->n && !ret; i++) {
		uint64_t done;

		for (done = 0; done < w->list[i].blocks && !ret; done += w->req_blocks) {
			uint64_t n = w->list[i].blocks - done;

			if (n > w->req_blocks)
				n = w->req_blocks;
			ret = read_nodes(e, ctx, w, w->list[i].file_block + done + n - 1, &node,
					 buf, rep);
			if (ret)
				break;
			rp_sched_set_current(e->sched, ctx);
			ret = f2fs_dev_read(e->sdev, buf, (w->list[i].addr + done) * e->blksize,
					    n * e->blksize);
			rep->read_pass_requests++;
			rep->read_pass_bytes += n * e->blksize;
		}
	}
	return ret;
}

/* ---- the content check ---- */

/* Small files (inline ones among them) through the read path: 0 same, 1 different. */
static int verify_small(struct rp_engine *e, struct f2fs_fs *fs, const struct rp_file *f,
			const struct f2fs_node *n, uint64_t size, uint8_t *got, uint8_t *want)
{
	size_t done = 0;
	int ret = f2fs_file_pread(fs, n, got, (size_t)size, 0, &done);

	if (ret)
		return ret;
	f2fs_replay_content(e->pol->seed, f->key, 0, want, (size_t)size);
	return done == size && !memcmp(got, want, (size_t)size) ? 0 : 1;
}

/* One request of an extent, compared up to the file's size. */
static int verify_request(struct rp_engine *e, const struct rp_file *f, uint64_t file_block,
			  uint64_t addr, uint64_t blocks, uint64_t size, uint8_t *got,
			  uint8_t *want)
{
	uint64_t off = file_block * e->blksize, len = blocks * e->blksize;
	int ret = f2fs_dev_read(e->sdev, got, addr * e->blksize, (size_t)len);

	if (ret)
		return ret;
	if (off >= size)
		return 1;
	if (len > size - off)
		len = size - off;
	f2fs_replay_content(e->pol->seed, f->key, off, want, (size_t)len);
	return memcmp(got, want, (size_t)len) ? 1 : 0;
}

/* Compare the file's extents with the seed's content, at most VERIFY_MAX_BYTES spread over it. */
static int verify_file(struct rp_engine *e, struct f2fs_fs *fs, const struct rp_file *f,
		       const struct f2fs_node *n, const struct extent_walk *w, uint8_t *got,
		       uint8_t *want)
{
	uint64_t size = le64_get(n->i.i_size), every, seen = 0, mapped = 0;
	size_t i;
	int ret = 0;

	if (size <= VERIFY_CHUNK)
		return verify_small(e, fs, f, n, size, got, want);
	for (i = 0; i < w->n; i++)
		mapped += w->list[i].blocks;
	if (mapped * e->blksize < size)
		return 1; /* a hole where the workload wrote */
	every = size / VERIFY_MAX_BYTES + 1;
	for (i = 0; i < w->n && !ret; i++) {
		uint64_t k;

		for (k = 0; k < w->list[i].blocks && !ret; k += w->req_blocks, seen++) {
			uint64_t cnt = w->list[i].blocks - k;

			if (seen % every)
				continue;
			ret = verify_request(e, f, w->list[i].file_block + k, w->list[i].addr + k,
					     cnt < w->req_blocks ? cnt : w->req_blocks, size, got,
					     want);
		}
	}
	return ret;
}

static bool checkable(const struct rp_file *f)
{
	return !f->mixed && f->covered;
}

/* Extents of every file and, with a read pass, the timed sequential read of each. */
static int measure_files(struct rp_engine *e, struct f2fs_fs *fs, struct f2fs_node *n,
			 struct f2fs_replay_report *rep, void *buf)
{
	uint64_t t0 = rp_time(e);
	size_t i;
	int ret = 0;

	for (i = 0; i < e->nfiles && !ret; i++) {
		struct extent_walk w;

		ret = file_extents(fs, e->files[i].ino, n, e->wl->read_pass, &w);
		if (!ret) {
			rep->extents += w.n; /* one list entry per extent */
			rep->read_requests += w.requests;
			rep->file_bytes += le64_get(n->i.i_size);
			if (w.n > rep->max_extents)
				rep->max_extents = w.n;
		}
		if (!ret && e->wl->read_pass)
			ret = read_extents(e, e->thread_ctx[e->files[i].reader], &w, buf, rep);
		extent_walk_free(&w);
	}
	if (e->wl->read_pass) {
		rep->read_pass = true;
		rep->read_pass_s = (double)(rp_time(e) - t0) / 1e9;
		if (rep->read_pass_s > 0)
			rep->read_pass_mbps = (double)rep->read_pass_bytes / 1e6 / rep->read_pass_s;
	}
	return ret;
}

/* Read a sample of the files back and compare them with what the seed gives. */
static int check_files(struct rp_engine *e, struct f2fs_fs *fs, struct f2fs_node *n,
		       struct f2fs_replay_report *rep)
{
	uint8_t *got = NULL, *want = malloc(VERIFY_CHUNK);
	size_t i, candidates = 0, every, seen = 0;
	int ret = posix_memalign((void **)&got, e->blksize, VERIFY_CHUNK);

	if (ret || !want) {
		free(got);
		free(want);
		return -ENOMEM;
	}
	for (i = 0; i < e->nfiles; i++)
		candidates += checkable(&e->files[i]);
	every = candidates / VERIFY_MAX_FILES + 1;
	for (i = 0; i < e->nfiles && ret >= 0; i++) {
		struct extent_walk w;

		if (!checkable(&e->files[i]) || seen++ % every)
			continue;
		ret = file_extents(fs, e->files[i].ino, n, false, &w);
		if (!ret && e->files[i].covered >= le64_get(n->i.i_size)) {
			ret = verify_file(e, fs, &e->files[i], n, &w, got, want);
			rep->verified_files += ret >= 0;
			rep->verify_failures += ret == 1;
		}
		extent_walk_free(&w);
		ret = ret > 0 ? 0 : ret;
	}
	free(got);
	free(want);
	return ret;
}

int rp_read_pass_and_verify(struct rp_engine *e, struct f2fs_replay_report *rep)
{
	struct f2fs_node *n = NULL;
	void *buf = NULL;
	struct f2fs_fs *fs = NULL;
	char why[200] = "";
	int ret = f2fs_fs_open(e->sdev, 0, &fs, why, sizeof(why));

	if (ret)
		snprintf(e->why, sizeof(e->why), "reopening the volume: %s", why);
	if (!ret) {
		e->blksize = f2fs_fs_geo(fs)->blk.blksize;
		n = f2fs_block_alloc(fs);
		if (!n || posix_memalign(&buf, e->blksize, READ_REQ_BYTES))
			ret = -ENOMEM;
	}
	ret = ret ? ret : measure_files(e, fs, n, rep, buf);
	ret = ret ? ret : check_files(e, fs, n, rep);
	if (ret && !e->why[0])
		snprintf(e->why, sizeof(e->why), "reading the files back: %s", strerror(-ret));
	f2fs_fs_close(fs);
	free(buf);
	free(n);
	return ret;
}

void f2fs_replay_report_free(struct f2fs_replay_report *r)
{
	size_t i;

	for (i = 0; r->threads && i < r->nthreads; i++)
		free(r->threads[i].fsync_samples);
	free(r->cp_times_s);
	r->cp_times_s = NULL;
	r->ncp_times = 0;
	free(r->threads);
	r->threads = NULL;
	r->nthreads = 0;
}
