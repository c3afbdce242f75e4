// SPDX-License-Identifier: GPL-2.0
/*
 * 16 KiB blocks end to end on in-memory images.  A volume is made by the
 * mkfs library call with 16 KiB blocks (with and without packed_ssa, the
 * SSA holding four 4 KiB summaries per block) and, as the reference, with
 * 4 KiB blocks; the write path then makes the kinds of file whose layout
 * the block size changes: inline data, one block, a file whose last block
 * lies past the direct addresses (so it hangs under an indirect node), a
 * directory with names for several dentry blocks, and an xattr too large
 * for the inode (an xattr node).  The first file and the directory's
 * inodes are large enough to close a data and a node segment, so that
 * their summaries are read from the SSA area, not from the checkpoint
 * pack.  After a sync checkpoint and again after an unmount one, the
 * checker must find the volume clean, lib/read must read every file back,
 * and the summary entry of every block written must name its owner (the
 * inode, the node and the block's index in the file) as lib/read resolves
 * it through the NAT.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "f2fs/xattr.h"
#include "test.h"
#include "write_fixture.h"

#define INLINE_LEN 100	  /* fits inline on any block size */
#define RUN_BLOCKS 600	  /* more than a segment: the data log moves on */
#define DIR_NAMES  600	  /* inodes for more than a node segment */
#define XATTR_LEN  2000	  /* larger than an inode's inline xattr room */
#define SEED_TAIL  0x7a11 /* the sparse block past the direct addresses */

/* What was made, for the checks after each checkpoint. */
struct made {
	uint32_t blksize;
	uint32_t inl, one, big, dir;
	uint32_t names[DIR_NAMES];
	uint64_t tail_block; /* big's last block: under its first indirect node */
};

/* Blocks whose summary entry was checked, and of them those read from the SSA area. */
struct owners {
	unsigned int checked, from_ssa_data, from_ssa_node;
};

static void dir_name(char *buf, size_t len, uint32_t i)
{
	snprintf(buf, len, "a-name-of-some-length-%04u", i);
}

/* big: RUN_BLOCKS blocks from the start, a hole, and one block past the direct addresses */
static int write_big(struct f2fs_fs *fs, struct made *m)
{
	const struct f2fs_blkgeo *g = &f2fs_fs_geo(fs)->blk;
	size_t run = (size_t)RUN_BLOCKS * m->blksize;
	uint8_t *buf = malloc(run);
	int ret = -ENOMEM;

	m->tail_block = (uint64_t)g->addrs_per_inode + 3ull * g->addrs_per_block;
	if (buf) {
		wfx_fill(buf, run, m->big);
		ret = f2fs_pwrite(fs, m->big, buf, run, 0);
		wfx_fill(buf, m->blksize, SEED_TAIL);
		if (!ret)
			ret = f2fs_pwrite(fs, m->big, buf, m->blksize, m->tail_block * m->blksize);
	}
	free(buf);
	return ret;
}

static int write_dir(struct f2fs_fs *fs, struct made *m)
{
	char name[64];
	uint32_t i;
	int ret = wfx_create(fs, WFX_ROOT, "dir", S_IFDIR | 0755, &m->dir);

	for (i = 0; !ret && i < DIR_NAMES; i++) {
		dir_name(name, sizeof(name), i);
		ret = wfx_create(fs, m->dir, name, S_IFREG | 0644, &m->names[i]);
	}
	return ret;
}

static int write_small(struct f2fs_fs *fs, struct made *m)
{
	uint8_t buf[F2FS_MAX_BLKSIZE], val[XATTR_LEN];
	int ret = wfx_create(fs, WFX_ROOT, "inline", S_IFREG | 0644, &m->inl);

	wfx_fill(buf, INLINE_LEN, m->inl);
	if (!ret)
		ret = f2fs_pwrite(fs, m->inl, buf, INLINE_LEN, 0);
	if (!ret)
		ret = wfx_create(fs, WFX_ROOT, "one", S_IFREG | 0644, &m->one);
	wfx_fill(buf, m->blksize, m->one);
	if (!ret)
		ret = f2fs_pwrite(fs, m->one, buf, m->blksize, 0);
	wfx_fill(val, sizeof(val), m->one + 1);
	if (!ret)
		ret = f2fs_setxattr(fs, m->one, F2FS_XATTR_INDEX_USER, "large", val, sizeof(val));
	if (!ret)
		ret = f2fs_setxattr(fs, m->one, F2FS_XATTR_INDEX_USER, "small", "v", 1);
	return ret;
}

/* Make everything through the write path and take a sync checkpoint. */
static bool make_files(struct fixture *fx, struct made *m)
{
	struct f2fs_fs *fs;
	int ret;

	memset(m, 0, sizeof(*m));
	m->blksize = fx->blksize;
	if (!wfx_open_rw(fx, &fs))
		return false;
	ret = write_small(fs, m);
	if (!ret)
		ret = wfx_create(fs, WFX_ROOT, "big", S_IFREG | 0644, &m->big);
	if (!ret)
		ret = write_big(fs, m);
	if (!ret)
		ret = write_dir(fs, m);
	if (!ret)
		ret = wfx_checkpoint(fs, false);
	f2fs_fs_close(fs);
	if (ret)
		fprintf(stderr, "  writing: %d\n", ret);
	return ret == 0;
}

/* ---- reading back ---- */

static bool big_reads_back(struct fixture *fx, const struct made *m)
{
	uint64_t len = (m->tail_block + 1) * m->blksize;
	size_t run = (size_t)RUN_BLOCKS * m->blksize;
	uint8_t *want = calloc(1, len);
	bool ok = false;

	if (want) {
		wfx_fill(want, run, m->big);
		wfx_fill(want + m->tail_block * m->blksize, m->blksize, SEED_TAIL);
		ok = wfx_reads_back(fx, m->big, want, len);
	}
	free(want);
	return ok;
}

struct xattr_seen {
	bool large, small;
	uint32_t seed;
};

static int see_xattr(const struct f2fs_xattr *x, void *arg)
{
	struct xattr_seen *s = arg;
	uint8_t val[XATTR_LEN];

	wfx_fill(val, sizeof(val), s->seed);
	if (x->index != F2FS_XATTR_INDEX_USER)
		return 0;
	if (x->name_len == 5 && !memcmp(x->name, "large", 5))
		s->large = x->value_len == sizeof(val) && !memcmp(x->value, val, sizeof(val));
	if (x->name_len == 5 && !memcmp(x->name, "small", 5))
		s->small = x->value_len == 1 && !memcmp(x->value, "v", 1);
	return 0;
}

struct names_seen {
	const struct made *m;
	unsigned int found, wrong;
};

static int see_name(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct names_seen *s = arg;
	char want[64];
	uint32_t i;

	(void)len;
	(void)type;
	for (i = 0; i < DIR_NAMES && s->m->names[i] != ino; i++)
		;
	if (i == DIR_NAMES) {
		s->wrong++;
		return 0;
	}
	dir_name(want, sizeof(want), i);
	if (strcmp(name, want))
		s->wrong++;
	else
		s->found++;
	return 0;
}

static int count_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	(void)file_block;
	(void)blkaddr;
	++*(unsigned int *)arg;
	return 0;
}

/* The xattrs of one, and the names and dentry blocks of dir, through lib/read. */
static void check_xattrs_and_names(struct f2fs_fs *fs, const struct made *m)
{
	struct xattr_seen xs = {.seed = m->one + 1};
	struct names_seen ns = {.m = m};
	struct f2fs_node *n = f2fs_block_alloc(fs);
	unsigned int blocks = 0;

	CHECK(n != NULL);
	if (!n)
		return;
	CHECK_EQ_U64(f2fs_read_inode(fs, m->one, n), 0);
	CHECK(le32_get(n->i.i_xattr_nid) != 0);
	CHECK_EQ_U64(f2fs_file_for_each_xattr(fs, n, see_xattr, &xs), 0);
	CHECK(xs.large && xs.small);
	CHECK_EQ_U64(f2fs_read_inode(fs, m->inl, n), 0);
	CHECK(n->i.i_inline & F2FS_INLINE_DATA);
	CHECK_EQ_U64(f2fs_read_inode(fs, m->dir, n), 0);
	CHECK_EQ_U64(f2fs_dir_for_each_entry(fs, n, see_name, &ns), 0);
	CHECK_EQ_U64(ns.found, DIR_NAMES);
	CHECK_EQ_U64(ns.wrong, 0);
	CHECK_EQ_U64(f2fs_file_for_each_block(fs, n, count_block, &blocks), 0);
	CHECK(blocks >= 3);
	free(n);
}

static void check_reads_back(struct fixture *fx, const struct made *m)
{
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_fs *fs = NULL;

	wfx_fill(buf, INLINE_LEN, m->inl);
	CHECK(wfx_reads_back(fx, m->inl, buf, INLINE_LEN));
	wfx_fill(buf, m->blksize, m->one);
	CHECK(wfx_reads_back(fx, m->one, buf, m->blksize));
	CHECK(big_reads_back(fx, m));
	CHECK(wfx_reads_back(fx, m->names[DIR_NAMES - 1], buf, 0));
	CHECK(fixture_fs_open(fx, &fs));
	if (!fs)
		return;
	check_xattrs_and_names(fs, m);
	f2fs_fs_close(fs);
}

/* ---- the summary entries of the blocks written ---- */

struct owner_walk {
	struct f2fs_fs *fs;
	uint32_t ino;
	struct owners *seen;
	bool bad;
	uint32_t tail_nid; /* the direct node holding the walk's block tail_block */
	uint64_t tail_block;
};

static void note_source(const struct f2fs_block_owner *o, struct owners *seen, bool node)
{
	seen->checked++;
	if (o->seg.open_log < 0) {
		if (node)
			seen->from_ssa_node++;
		else
			seen->from_ssa_data++;
	}
}

/* Data block @fblk of w->ino at @blkaddr: its summary names the file and the index. */
static int check_data_owner(uint64_t fblk, uint32_t blkaddr, void *arg)
{
	struct owner_walk *w = arg;
	struct f2fs_block_owner o;
	int ret = f2fs_block_owner(w->fs, blkaddr, &o);

	if (ret || o.kind != F2FS_OWNER_DATA || o.ino != w->ino || !o.has_file_block ||
	    o.file_block != fblk) {
		fprintf(stderr, "  ino %u block %llu at 0x%x: owner %d kind %d ino %u block %llu\n",
			w->ino, (unsigned long long)fblk, blkaddr, ret, o.kind, o.ino,
			(unsigned long long)o.file_block);
		w->bad = true;
		return 0;
	}
	if (fblk == w->tail_block)
		w->tail_nid = o.nid;
	note_source(&o, w->seen, false);
	return 0;
}

/* Node @nid of inode @ino: its summary names it, at tree offset @ofs (-1: any). */
static bool node_owned(struct f2fs_fs *fs, uint32_t nid, uint32_t ino, int64_t ofs,
		       struct owners *seen, uint32_t *node_ofs)
{
	const struct f2fs_nat_table *nat;
	const struct f2fs_nat_info *e = NULL;
	struct f2fs_block_owner o;
	int ret = -ENOENT;

	if (!f2fs_fs_nat(fs, &nat))
		e = f2fs_nat_get(nat, nid);
	if (e)
		ret = f2fs_block_owner(fs, e->blkaddr, &o);
	if (ret || o.nid != nid || o.ino != ino ||
	    o.kind != (nid == ino ? F2FS_OWNER_INODE : F2FS_OWNER_NODE) ||
	    (ofs >= 0 && o.node_ofs != (uint64_t)ofs)) {
		fprintf(stderr, "  node %u of inode %u: owner %d kind %d nid %u ino %u ofs %u\n",
			nid, ino, ret, ret ? -1 : (int)o.kind, o.nid, o.ino, o.node_ofs);
		return false;
	}
	if (node_ofs)
		*node_ofs = o.node_ofs;
	note_source(&o, seen, true);
	return true;
}

/*
 * Every block of file @ino: the inode, its xattr node, its data blocks;
 * w->tail_nid is the node holding file block @tail.
 */
static bool file_owned(struct f2fs_fs *fs, uint32_t ino, uint64_t tail, struct owners *seen,
		       struct owner_walk *w)
{
	struct f2fs_node *n = f2fs_block_alloc(fs);
	bool ok = n && !f2fs_read_inode(fs, ino, n) && node_owned(fs, ino, ino, 0, seen, NULL);

	*w = (struct owner_walk){.fs = fs, .ino = ino, .seen = seen, .tail_block = tail};
	if (ok && le32_get(n->i.i_xattr_nid))
		ok = node_owned(fs, le32_get(n->i.i_xattr_nid), ino, -1, seen, NULL);
	ok = ok && !f2fs_file_for_each_block(fs, n, check_data_owner, w) && !w->bad;
	free(n);
	return ok;
}

/* big's last block hangs under a direct node below its first indirect node (tree offset 3) */
static void check_big_tree(struct f2fs_fs *fs, const struct made *m, struct owners *seen)
{
	const struct f2fs_blkgeo *g = &f2fs_fs_geo(fs)->blk;
	struct f2fs_node *n = f2fs_block_alloc(fs);
	struct owner_walk w;
	uint32_t ofs = 0;

	CHECK(n != NULL);
	if (!n)
		return;
	CHECK(file_owned(fs, m->big, m->tail_block, seen, &w));
	CHECK(w.tail_nid != 0 && w.tail_nid != m->big);
	CHECK(node_owned(fs, w.tail_nid, m->big, -1, seen, &ofs));
	CHECK(ofs > 3);
	CHECK_EQ_U64(f2fs_read_inode(fs, m->big, n), 0);
	CHECK(node_owned(fs, le32_get(((const le32 *)n)[g->inode_nid_word + 2]), m->big, 3, seen,
			 NULL));
	free(n);
}

static void check_owners(struct fixture *fx, const struct made *m)
{
	struct owners seen = {0};
	struct owner_walk w;
	struct f2fs_fs *fs = NULL;
	uint32_t i;

	CHECK(fixture_fs_open(fx, &fs));
	if (!fs)
		return;
	CHECK(file_owned(fs, m->inl, UINT64_MAX, &seen, &w));
	CHECK(file_owned(fs, m->one, UINT64_MAX, &seen, &w));
	CHECK(file_owned(fs, m->dir, UINT64_MAX, &seen, &w));
	for (i = 0; i < DIR_NAMES; i++)
		CHECK(file_owned(fs, m->names[i], UINT64_MAX, &seen, &w));
	check_big_tree(fs, m, &seen);
	f2fs_fs_close(fs);
	/* closed segments of each kind: entries that came from the SSA area */
	CHECK(seen.from_ssa_data > 0);
	CHECK(seen.from_ssa_node > 0);
	CHECK(seen.checked > 2 * RUN_BLOCKS);
}

/* ---- the checkpoint pack's journals ---- */

/*
 * f2fs_pack_journal_location() finds the NAT and SIT journals where the
 * loader read them, for the volume's block size.  With @fresh the pack is
 * mkfs's: compacted summaries, and the SIT journal holds the open logs'
 * entries, so that the comparison is not of two empty journals.  (Our
 * writer's 16 KiB packs are always compacted: one block holds the three
 * data logs' entries.)
 */
static void check_journals(struct fixture *fx, bool fresh)
{
	uint8_t blk[F2FS_MAX_BLKSIZE];
	const struct f2fs_cp_data *cpd;
	struct f2fs_pack_layout l;
	struct f2fs_fs *fs = NULL;
	int sit;

	CHECK(fixture_fs_open(fx, &fs));
	if (!fs || f2fs_fs_cp_data(fs, &cpd)) {
		CHECK(0);
		f2fs_fs_close(fs);
		return;
	}
	f2fs_pack_layout(f2fs_fs_cp(fs), le32_get(f2fs_fs_sb(fs)->cp_payload), &l);
	CHECK(l.compacted || !fresh);
	for (sit = 0; sit < 2; sit++) {
		const struct f2fs_blkgeo *g = &f2fs_fs_geo(fs)->blk;
		const uint8_t *want = sit ? cpd->sit_journal_raw : cpd->nat_journal_raw;
		uint32_t rel;
		size_t ofs;

		f2fs_pack_journal_location(g, &l, sit, &rel, &ofs);
		CHECK(ofs + g->sum_journal_size <= g->blksize);
		CHECK(fixture_read_blk(fx, f2fs_volume_cp_start(f2fs_fs_volume(fs)) + rel, blk));
		CHECK(memcmp(blk + ofs, want, g->sum_journal_size) == 0);
		if (sit && fresh)
			CHECK(le16_get(((const struct f2fs_journal *)want)->n_sits) > 0);
	}
	f2fs_fs_close(fs);
}

/* ---- the cases ---- */

static void check_volume(struct fixture *fx, const struct made *m)
{
	CHECK_EQ_U64(wfx_problems(fx), 0);
	check_reads_back(fx, m);
	check_owners(fx, m);
}

/* Format, write, check after a sync checkpoint and after an unmount one. */
static void write_and_check(uint64_t bytes, const char *features, uint32_t log_blksize)
{
	struct made *m = malloc(sizeof(*m));
	struct fixture fx;
	struct f2fs_fs *fs;

	CHECK(m != NULL);
	if (!m || !wfx_format_blk(&fx, bytes, features, 1, log_blksize)) {
		CHECK(0);
		fixture_free(&fx);
		free(m);
		return;
	}
	CHECK_EQ_U64(le32_get(fx.sb.log_blocksize), log_blksize);
	CHECK_EQ_U64(fx.blksize, 1u << log_blksize);
	check_journals(&fx, true);
	if (make_files(&fx, m)) {
		check_journals(&fx, false);
		check_volume(&fx, m);
		CHECK(wfx_open_rw(&fx, &fs));
		CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
		f2fs_fs_close(fs);
		check_volume(&fx, m);
	} else {
		CHECK(0);
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(m);
}

static void test_4k_reference(void)
{
	write_and_check(128ull << 20, "extra_attr,inode_checksum", 12);
}

static void test_16k(void)
{
	write_and_check(512ull << 20, "extra_attr,inode_checksum", 14);
}

static void test_16k_packed_ssa(void)
{
	write_and_check(512ull << 20, "extra_attr,inode_checksum,packed_ssa", 14);
}

/* The geometry the two 16 KiB volumes were read with: packed_ssa's four summaries a block. */
static void test_16k_geometry(void)
{
	static const struct {
		const char *features;
		uint32_t sums_per_block, sum_blksize;
	} cases[] = {{"extra_attr", 1, 16384}, {"extra_attr,packed_ssa", 4, 4096}};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture fx;
		struct f2fs_fs *fs = NULL;

		CHECK(wfx_format_blk(&fx, 256ull << 20, cases[i].features, 1, 14));
		CHECK(fixture_fs_open(&fx, &fs));
		if (fs) {
			CHECK_EQ_U64(f2fs_fs_geo(fs)->blk.blksize, 16384);
			CHECK_EQ_U64(f2fs_fs_geo(fs)->blk.sums_per_block, cases[i].sums_per_block);
			CHECK_EQ_U64(f2fs_fs_geo(fs)->blk.sum_blksize, cases[i].sum_blksize);
			f2fs_fs_close(fs);
		}
		CHECK_EQ_U64(fixture_free(&fx), 0);
	}
}

int main(void)
{
	RUN(test_16k_geometry);
	RUN(test_4k_reference);
	RUN(test_16k);
	RUN(test_16k_packed_ssa);
	TEST_EXIT();
}
