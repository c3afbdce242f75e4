// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in workloads, each the experiment of one seed thread, written
 * out as ordinary workload threads so the engine runs them exactly as it
 * runs a trace:
 *
 *  - ckpt-storm (checkpoint_merge's verification): thread A touches a file
 *    and fsyncs its directory N times; thread B streams buffered 128 KiB
 *    writes over a file, wrapping to its start; thread C, in the
 *    background class, touches and fsyncs another directory without end.
 *    B and C loop until A is done.
 *  - tiotest (the serialised writepages thread): T threads write one file
 *    each in 512 KiB writes, then every file is read sequentially.
 *  - seqwrite (the per-section counts thread): 512 KiB sequential writes
 *    of 1536 MiB and an fsync at the end, as fio --end_fsync=1 does.
 *  - writeback (the expire-ordered write-back thread): a dd-like stream of
 *    1 MiB writes beside a tar-like tree of small files.
 *  - dd and untar: that thread's two experiments at its size, each alone
 *    as it ran them: dd of 1000 MiB in 1 MiB writes, and the extraction
 *    of a tree shaped like a kernel source tree (35,000 files, 15 to a
 *    directory two levels deep, sizes spread evenly on a log scale from
 *    256 bytes to 64 KiB: a median of 4 KiB, about 400 MiB in all),
 *    written as tar writes them, in 10 KiB records.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/trace.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

const char *const f2fs_replay_generators[] = {"ckpt-storm", "tiotest", "seqwrite", "writeback",
					      "dd",	    "untar",   NULL};

static uint64_t or_default(uint64_t v, uint64_t def)
{
	return v ? v : def;
}

static int add(struct f2fs_replay_thread *t, enum f2fs_replay_opcode op, const char *path,
	       uint64_t offset, uint64_t length)
{
	struct f2fs_replay_op o = {
	    .time_ns = F2FS_RP_ASAP,
	    .op = op,
	    .path = (char *)path,
	    .offset = offset,
	    .length = length,
	};

	return f2fs_replay_thread_add(t, &o);
}

static struct f2fs_replay_thread *thread(struct f2fs_replay_workload *wl, const char *name,
					 enum f2fs_replay_class cls, bool loop)
{
	struct f2fs_replay_thread *t = f2fs_replay_thread_get(wl, name);

	if (t) {
		t->io_class = cls;
		t->loop = loop;
	}
	return t;
}

/* @count writes of @io bytes from offset 0, as pwrite ops (@positional) or writes. */
static int add_stream(struct f2fs_replay_thread *t, const char *path, uint64_t size, uint64_t io,
		      bool positional)
{
	uint64_t off;
	int ret = 0;

	for (off = 0; off < size && !ret; off += io) {
		uint64_t len = size - off < io ? size - off : io;

		ret = positional ? add(t, F2FS_RP_PWRITE, path, off, len)
				 : add(t, F2FS_RP_WRITE, path, 0, len);
	}
	return ret;
}

static int gen_ckpt_storm(const struct f2fs_replay_gen_params *p, struct f2fs_replay_workload *wl)
{
	uint64_t size = or_default(p->file_size, 1024 * MIB),
		 io = or_default(p->io_size, 128 * KIB);
	uint32_t i, n = (uint32_t)or_default(p->count, 1000);
	struct f2fs_replay_thread *a, *b, *c;
	int ret;

	ret = f2fs_replay_add_setup_dir(wl, "/test_dir1");
	ret = ret ? ret : f2fs_replay_add_setup_dir(wl, "/test_dir2");
	ret = ret ? ret : f2fs_replay_add_setup_dir(wl, "/fio");
	a = thread(wl, "A", F2FS_RP_CLASS_FG, false);
	b = thread(wl, "B", F2FS_RP_CLASS_FG, true);
	c = thread(wl, "C", F2FS_RP_CLASS_BG, true);
	if (ret || !a || !b || !c)
		return ret ? ret : -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		ret = add(a, F2FS_RP_CREATE, "/test_dir1/file", 0, 0);
		ret = ret ? ret : add(a, F2FS_RP_FSYNC, "/test_dir1", 0, 0);
	}
	/* fio lays the file out before a time-based job starts: B only overwrites */
	ret = ret ? ret : f2fs_replay_add_setup_file(wl, "/fio/test_img", size);
	ret = ret ? ret : add_stream(b, "/fio/test_img", size, io, true);
	ret = ret ? ret : add(c, F2FS_RP_CREATE, "/test_dir2/file", 0, 0);
	return ret ? ret : add(c, F2FS_RP_FSYNC, "/test_dir2", 0, 0);
}

static int gen_tiotest(const struct f2fs_replay_gen_params *p, struct f2fs_replay_workload *wl)
{
	uint64_t size = or_default(p->file_size, 32 * MIB), io = or_default(p->io_size, 512 * KIB);
	uint32_t i, n = (uint32_t)or_default(p->threads, 32);
	int ret = f2fs_replay_add_setup_dir(wl, "/tio");

	for (i = 0; i < n && !ret; i++) {
		char name[32], path[64];
		struct f2fs_replay_thread *t;

		snprintf(name, sizeof(name), "t%u", i);
		snprintf(path, sizeof(path), "/tio/file%u", i);
		t = thread(wl, name, F2FS_RP_CLASS_FG, false);
		if (!t)
			return -ENOMEM;
		ret = add(t, F2FS_RP_CREATE, path, 0, 0);
		ret = ret ? ret : add_stream(t, path, size, io, false);
	}
	wl->read_pass = true;
	return ret;
}

/* Thread @name creates @path (in @dir, made at setup) and writes @size in @io writes; *@t for more.
 */
static int one_stream(struct f2fs_replay_workload *wl, const char *name, const char *dir,
		      const char *path, uint64_t size, uint64_t io, struct f2fs_replay_thread **t)
{
	int ret = f2fs_replay_add_setup_dir(wl, dir);

	*t = ret ? NULL : thread(wl, name, F2FS_RP_CLASS_FG, false);
	if (!*t)
		return ret ? ret : -ENOMEM;
	ret = add(*t, F2FS_RP_CREATE, path, 0, 0);
	return ret ? ret : add_stream(*t, path, size, io, false);
}

static int gen_seqwrite(const struct f2fs_replay_gen_params *p, struct f2fs_replay_workload *wl)
{
	struct f2fs_replay_thread *t;
	int ret =
	    one_stream(wl, "fio", "/seq", "/seq/seq_write", or_default(p->file_size, 1536 * MIB),
		       or_default(p->io_size, 512 * KIB), &t);

	return ret ? ret : add(t, F2FS_RP_FSYNC, "/seq/seq_write", 0, 0);
}

static int gen_writeback(const struct f2fs_replay_gen_params *p, struct f2fs_replay_workload *wl)
{
	uint64_t size = or_default(p->file_size, 1000 * MIB), io = or_default(p->io_size, MIB);
	uint64_t small = or_default(p->small_size, 16 * KIB);
	uint32_t i, n = (uint32_t)or_default(p->count, 2000), dirs = (n + 99) / 100;
	struct f2fs_replay_thread *dd, *tar;
	int ret = f2fs_replay_add_setup_dir(wl, "/wb");

	for (i = 0; i < dirs && !ret; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/wb/tree/d%02u", i);
		ret = f2fs_replay_add_setup_dir(wl, path);
	}
	dd = ret ? NULL : thread(wl, "dd", F2FS_RP_CLASS_FG, false);
	tar = ret ? NULL : thread(wl, "tar", F2FS_RP_CLASS_FG, false);
	if (!dd || !tar)
		return ret ? ret : -ENOMEM;
	ret = add(dd, F2FS_RP_CREATE, "/wb/stream", 0, 0);
	ret = ret ? ret : add_stream(dd, "/wb/stream", size, io, false);
	for (i = 0; i < n && !ret; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/wb/tree/d%02u/f%04u", i / 100, i);
		ret = add(tar, F2FS_RP_CREATE, path, 0, 0);
		ret = ret ? ret : add(tar, F2FS_RP_WRITE, path, 0, small);
	}
	return ret;
}

static int gen_dd(const struct f2fs_replay_gen_params *p, struct f2fs_replay_workload *wl)
{
	struct f2fs_replay_thread *t;

	return one_stream(wl, "dd", "/dd", "/dd/zero", or_default(p->file_size, 1000 * MIB),
			  or_default(p->io_size, MIB), &t);
}

#define UNTAR_PER_DIR  15u
#define UNTAR_FANOUT   40u
#define UNTAR_RECORD   (10 * KIB) /* tar's default record: 20 blocks of 512 bytes */
#define UNTAR_MIN_LOG2 8u	  /* 256 bytes */
#define UNTAR_MAX_LOG2 16u	  /* 64 KiB */

/* The next size of the tree, log-uniform: the same tree every run (xorshift, fixed seed). */
static uint64_t untar_size(uint64_t *state)
{
	uint64_t x = *state, span = UNTAR_MAX_LOG2 - UNTAR_MIN_LOG2;
	double log2v, v = 1.0;
	unsigned int i;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	log2v = UNTAR_MIN_LOG2 + (double)(x % 1000000u) / 1e6 * (double)span;
	for (i = 0; i < (unsigned int)log2v; i++)
		v *= 2.0;
	/* 2^frac by its first terms: close enough for a size */
	log2v -= (unsigned int)log2v;
	v *= 1.0 + log2v * (0.6931 + log2v * (0.2402 + log2v * 0.0555));
	return (uint64_t)v;
}

static int untar_dir(struct f2fs_replay_thread *t, uint32_t i, char *dir, size_t len)
{
	uint32_t d = i / UNTAR_PER_DIR;
	int ret = 0;

	snprintf(dir, len, "/src/a%03u", d / UNTAR_FANOUT);
	if (i % (UNTAR_PER_DIR * UNTAR_FANOUT) == 0)
		ret = add(t, F2FS_RP_MKDIR, dir, 0, 0);
	snprintf(dir, len, "/src/a%03u/b%02u", d / UNTAR_FANOUT, d % UNTAR_FANOUT);
	if (!ret && i % UNTAR_PER_DIR == 0)
		ret = add(t, F2FS_RP_MKDIR, dir, 0, 0);
	return ret;
}

static int gen_untar(const struct f2fs_replay_gen_params *p, struct f2fs_replay_workload *wl)
{
	uint32_t i, n = (uint32_t)or_default(p->count, 35000);
	uint64_t state = 0x9e3779b97f4a7c15ull;
	struct f2fs_replay_thread *t;
	int ret = f2fs_replay_add_setup_dir(wl, "/src");

	t = ret ? NULL : thread(wl, "tar", F2FS_RP_CLASS_FG, false);
	if (!t)
		return ret ? ret : -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		uint64_t size = p->small_size ? p->small_size : untar_size(&state);
		char dir[64], path[96];

		ret = untar_dir(t, i, dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/f%02u", dir, i % UNTAR_PER_DIR);
		ret = ret ? ret : add(t, F2FS_RP_CREATE, path, 0, 0);
		ret = ret ? ret : add_stream(t, path, size, UNTAR_RECORD, false);
	}
	return ret;
}

static int check_params(const struct f2fs_replay_gen_params *p, char *why, size_t why_len)
{
	if (p->io_size && (p->io_size % 4096 || p->io_size > 64 * MIB)) {
		snprintf(why, why_len, "io size must be a multiple of 4 KiB up to 64 MiB");
		return -EINVAL;
	}
	if (p->threads > 1024 || p->count > 10000000) {
		snprintf(why, why_len, "at most 1024 threads and 10000000 rounds");
		return -EINVAL;
	}
	if (p->file_size > (1ull << 42)) {
		snprintf(why, why_len, "file size above 4 TiB");
		return -EINVAL;
	}
	return 0;
}

int f2fs_replay_generate(const char *name, const struct f2fs_replay_gen_params *p,
			 struct f2fs_replay_workload *wl, char *why, size_t why_len)
{
	static const struct {
		const char *name;
		int (*fn)(const struct f2fs_replay_gen_params *, struct f2fs_replay_workload *);
	} gens[] = {
	    {"ckpt-storm", gen_ckpt_storm}, {"tiotest", gen_tiotest}, {"seqwrite", gen_seqwrite},
	    {"writeback", gen_writeback},   {"dd", gen_dd},	      {"untar", gen_untar},
	};
	size_t i;
	int ret = check_params(p, why, why_len);

	if (ret)
		return ret;
	for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		if (strcmp(name, gens[i].name))
			continue;
		snprintf(wl->name, sizeof(wl->name), "%s", name);
		ret = gens[i].fn(p, wl);
		if (ret == -ENOMEM)
			snprintf(why, why_len, "out of memory");
		return ret;
	}
	snprintf(why, why_len, "unknown workload \"%s\"", name);
	return -ENOENT;
}
