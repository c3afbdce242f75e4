// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the read layer (lib/read/file.c) and the format knowledge
 * it rests on.  The node-tree offsets of f2fs/node.h are compared with a
 * brute-force enumeration of the whole tree; the pack layout and the dentry
 * areas with their on-disk definitions.  Then files and directories are
 * built by hand on formatted in-memory images -- inodes, direct, indirect
 * and double indirect nodes written into free main-area blocks, their nids
 * pointed at them in the NAT -- and walked: the node-tree walker must report
 * exactly the file blocks and addresses that were put there, in order, for
 * several inode geometries; the dentry iterator every entry of inline, one-
 * block and multi-block directories.  Corrupted nids, NAT entries, footers,
 * tree offsets, addresses and dentries must end a walk with -EUCLEAN (never
 * a crash), and a loop of random damage must only ever give 0 or -EUCLEAN.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "fixture.h"
#include "test.h"
#include "tree_image.h"

#define BLK F2FS_BLKSIZE
#define N   F2FS_NIDS_PER_BLOCK

/* ---- node.h: tree offsets against an enumeration of the whole tree ---- */

struct tree_enum {
	unsigned int addrs, per; /* the geometry the first blocks are computed for */
	uint32_t next_ofs;	 /* offsets are handed out depth first */
	uint64_t directs;	 /* direct nodes seen so far */
	uint64_t nodes, bad;
};

static void enum_bad(struct tree_enum *t, const char *what, uint32_t ofs, uint64_t got,
		     uint64_t want)
{
	if (!t->bad++)
		fprintf(stderr, "ofs %u: %s = %llu, expected %llu\n", ofs, what,
			(unsigned long long)got, (unsigned long long)want);
}

/* Visit the subtree of a node @depth levels above the data; returns its offset. */
static uint32_t enum_node(struct tree_enum *t, unsigned int depth)
{
	uint32_t ofs = t->next_ofs++;
	uint64_t first = t->addrs + t->directs * t->per;
	unsigned int i;

	t->nodes++;
	if (f2fs_node_first_block(f2fs_blkgeo_4k(), ofs, t->addrs, t->per) != first)
		enum_bad(t, "first block", ofs,
			 f2fs_node_first_block(f2fs_blkgeo_4k(), ofs, t->addrs, t->per), first);
	if (f2fs_node_ofs_is_direct(f2fs_blkgeo_4k(), ofs) != (depth == 0))
		enum_bad(t, "is_direct", ofs, f2fs_node_ofs_is_direct(f2fs_blkgeo_4k(), ofs),
			 depth == 0);
	if (depth == 0) {
		t->directs++;
		return ofs;
	}
	for (i = 0; i < N; i++) {
		uint32_t child = enum_node(t, depth - 1);

		if (f2fs_node_child_ofs(f2fs_blkgeo_4k(), ofs, depth, i) != child)
			enum_bad(t, "child offset", ofs,
				 f2fs_node_child_ofs(f2fs_blkgeo_4k(), ofs, depth, i), child);
	}
	return ofs;
}

static void enumerate_tree(unsigned int addrs, unsigned int per)
{
	const uint32_t named[F2FS_DEF_NIDS_PER_INODE] = {
	    F2FS_NODE_OFS_DIRECT1, F2FS_NODE_OFS_DIRECT2, F2FS_NODE_OFS_INDIRECT1,
	    f2fs_node_ofs_indirect2(f2fs_blkgeo_4k()), f2fs_node_ofs_dindirect(f2fs_blkgeo_4k())};
	static const unsigned int depth[F2FS_DEF_NIDS_PER_INODE] = {0, 0, 1, 1, 2};
	struct tree_enum t = {.addrs = addrs, .per = per, .next_ofs = 1};
	unsigned int i;

	CHECK_EQ_U64(f2fs_node_first_block(f2fs_blkgeo_4k(), 0, addrs, per), 0);
	CHECK(!f2fs_node_ofs_is_direct(f2fs_blkgeo_4k(), 0));
	for (i = 0; i < F2FS_DEF_NIDS_PER_INODE; i++) {
		uint32_t ofs = enum_node(&t, depth[i]);

		CHECK_EQ_U64(ofs, named[i]);
		CHECK_EQ_U64(f2fs_inode_nid_ofs(f2fs_blkgeo_4k(), i), ofs);
		CHECK_EQ_U64(f2fs_inode_nid_depth(i), depth[i]);
	}
	CHECK_EQ_U64(t.bad, 0);
	/* the inode, 2 direct, 2 x (1 + N), 1 + N x (1 + N) */
	CHECK_EQ_U64(t.nodes + 1, 1 + 2 + 2 * (1 + N) + 1 + (uint64_t)N * (1 + N));
	CHECK_EQ_U64(t.directs, 2 + 2 * N + (uint64_t)N * N);
}

static void test_node_offsets(void)
{
	enumerate_tree(F2FS_DEF_ADDRS_PER_INODE, F2FS_ADDRS_PER_BLOCK);
	enumerate_tree(872, F2FS_ADDRS_PER_BLOCK); /* extra attributes and inline xattrs */
	enumerate_tree(912, 1016);		   /* compressed, clusters of 4 */
	CHECK_EQ_U64(f2fs_inode_nid_ofs(f2fs_blkgeo_4k(), F2FS_DEF_NIDS_PER_INODE), 0);
}

/* ---- checkpoint.h: the pack layout ---- */

static void pack_cp(struct f2fs_checkpoint *cp, uint32_t total, uint32_t start_sum, uint32_t flags)
{
	memset(cp, 0, sizeof(*cp));
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(start_sum);
	cp->ckpt_flags = le32_put(flags);
}

static void test_pack_layout(void)
{
	struct f2fs_checkpoint cp;
	struct f2fs_pack_layout l;
	uint32_t blk;
	size_t ofs;

	/* mkfs: compacted summary, node summaries (umount), no payload or orphans */
	pack_cp(&cp, 6, 1, CP_COMPACT_SUM_FLAG | CP_UMOUNT_FLAG);
	f2fs_pack_layout(&cp, 0, &l);
	CHECK_EQ_U64(l.total, 6);
	CHECK_EQ_U64(l.payload, 0);
	CHECK_EQ_U64(l.orphan_start, 1);
	CHECK_EQ_U64(l.data_sum_start, 1);
	CHECK_EQ_U64(l.data_sum_end, 2);
	CHECK_EQ_U64(l.node_sum_start, 2);
	CHECK_EQ_U64(l.last, 5);
	CHECK(l.compacted && l.node_sums);
	f2fs_pack_journal_location(f2fs_blkgeo_4k(), &l, false, &blk, &ofs);
	CHECK_EQ_U64(blk, 1);
	CHECK_EQ_U64(ofs, 0);
	f2fs_pack_journal_location(f2fs_blkgeo_4k(), &l, true, &blk, &ofs);
	CHECK_EQ_U64(blk, 1);
	CHECK_EQ_U64(ofs, F2FS_SUM_JOURNAL_SIZE);

	/* payload 2, one orphan block, two compacted blocks, umount: 1+2+1+2+3+1 */
	pack_cp(&cp, 10, 4, CP_COMPACT_SUM_FLAG | CP_UMOUNT_FLAG | CP_ORPHAN_PRESENT_FLAG);
	f2fs_pack_layout(&cp, 2, &l);
	CHECK_EQ_U64(l.payload, 2);
	CHECK_EQ_U64(l.orphan_start, 3);
	CHECK_EQ_U64(l.data_sum_start, 4);
	CHECK_EQ_U64(l.data_sum_end, 6);
	CHECK_EQ_U64(l.node_sum_start, 6);
	CHECK_EQ_U64(l.last, 9);

	/* normal summaries after a crash (no node summaries): 1+1+3+1 */
	pack_cp(&cp, 6, 2, CP_ORPHAN_PRESENT_FLAG);
	f2fs_pack_layout(&cp, 0, &l);
	CHECK(!l.compacted && !l.node_sums);
	CHECK_EQ_U64(l.orphan_start, 1);
	CHECK_EQ_U64(l.data_sum_start, 2);
	CHECK_EQ_U64(l.data_sum_end, 5);
	CHECK_EQ_U64(l.node_sum_start, 5);
	CHECK_EQ_U64(l.last, 5);
	f2fs_pack_journal_location(f2fs_blkgeo_4k(), &l, false, &blk, &ofs);
	CHECK_EQ_U64(blk, 2 + F2FS_CURSEG_HOT_DATA);
	CHECK_EQ_U64(ofs, offsetof(struct f2fs_summary_block, journal));
	f2fs_pack_journal_location(f2fs_blkgeo_4k(), &l, true, &blk, &ofs);
	CHECK_EQ_U64(blk, 2 + F2FS_CURSEG_COLD_DATA);
	CHECK_EQ_U64(ofs, offsetof(struct f2fs_summary_block, journal));

	/* fastboot keeps node summaries too; normal data summaries before them */
	pack_cp(&cp, 8, 1, CP_FASTBOOT_FLAG);
	f2fs_pack_layout(&cp, 0, &l);
	CHECK(l.node_sums);
	CHECK_EQ_U64(l.node_sum_start, 4);
	CHECK_EQ_U64(l.data_sum_start, 1);
	CHECK_EQ_U64(l.data_sum_end, 4);

	/* counts too small for their parts: nothing below zero */
	pack_cp(&cp, 0, 0, CP_UMOUNT_FLAG);
	f2fs_pack_layout(&cp, 0, &l);
	CHECK_EQ_U64(l.last, 0);
	CHECK_EQ_U64(l.node_sum_start, 0);
	CHECK_EQ_U64(l.data_sum_start, 0);
	pack_cp(&cp, 2, 0, CP_UMOUNT_FLAG);
	f2fs_pack_layout(&cp, 0, &l);
	CHECK_EQ_U64(l.last, 1);
	CHECK_EQ_U64(l.node_sum_start, 0);
	CHECK_EQ_U64(l.data_sum_end, 0);
}

/* The layout of a pack mkfs wrote: the journal where the summary is, the copy last. */
static void test_pack_layout_mkfs(void)
{
	struct fixture fx;
	struct f2fs_pack_layout l;
	uint8_t blk[BLK], sum[BLK];
	uint32_t jblk;
	size_t jofs;

	if (!fixture_format(&fx, 64ull << 20, NULL, false)) {
		CHECK(0);
		fixture_free(&fx);
		return;
	}
	f2fs_pack_layout(&fx.cp, fx.l.cp_payload, &l);
	CHECK_EQ_U64(l.total, le32_get(fx.cp.cp_pack_total_block_count));
	CHECK(fixture_read_blk(&fx, fx.l.cp_blkaddr + l.last, blk));
	CHECK(memcmp(blk, fx.cp_blk, BLK) == 0);
	f2fs_pack_journal_location(f2fs_blkgeo_4k(), &l, false, &jblk, &jofs);
	CHECK(fixture_read_sum(&fx, sum));
	CHECK(fixture_read_blk(&fx, fx.l.cp_blkaddr + jblk, blk));
	CHECK(memcmp(blk, sum, BLK) == 0);
	CHECK_EQ_U64(jofs, 0);
	/* the SIT journal (after the NAT one) holds the six open logs */
	f2fs_pack_journal_location(f2fs_blkgeo_4k(), &l, true, &jblk, &jofs);
	CHECK_EQ_U64(jofs, F2FS_SUM_JOURNAL_SIZE);
	CHECK_EQ_U64(le16_get(((struct f2fs_journal *)(blk + jofs))->n_sits), 6);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* ---- dir.h: the areas of a dentry block and of an inline directory ---- */

static void test_dentry_block_area(void)
{
	static struct f2fs_dentry_block b;
	struct f2fs_dentry_area a;
	uint8_t *base = (uint8_t *)&b;

	f2fs_dentry_block_area(f2fs_blkgeo_4k(), &b, &a);
	CHECK(a.bitmap == base);
	CHECK_EQ_U64((uint8_t *)a.dentry - base, F2FS_DENTRY_BITMAP_SIZE + F2FS_DENTRY_RESERVED);
	CHECK_EQ_U64(a.names - base, 30 + F2FS_NR_DENTRY_IN_BLOCK * F2FS_DIR_ENTRY_SIZE);
	CHECK_EQ_U64(a.nr, F2FS_NR_DENTRY_IN_BLOCK);
	CHECK(a.names + (size_t)a.nr * F2FS_SLOT_LEN == base + BLK);
	CHECK(f2fs_dentry_name(&a, 5) == a.names + 40);
	CHECK_EQ_U64(f2fs_name_slots(0), 0);
	CHECK_EQ_U64(f2fs_name_slots(1), 1);
	CHECK_EQ_U64(f2fs_name_slots(8), 1);
	CHECK_EQ_U64(f2fs_name_slots(9), 2);
	CHECK_EQ_U64(f2fs_name_slots(F2FS_NAME_LEN), 32);
}

/* @a is the largest area of whole slots that fits @bytes from @start, and lies inside them. */
static void check_inline_area(const struct f2fs_dentry_area *a, const uint8_t *start,
			      unsigned int bytes)
{
	unsigned int per_slot = F2FS_DIR_ENTRY_SIZE + F2FS_SLOT_LEN;

	CHECK(a->bitmap == start);
	CHECK(per_slot * a->nr + (a->nr + 7) / 8 <= bytes);
	CHECK(per_slot * (a->nr + 1) + (a->nr + 8) / 8 > bytes);
	CHECK((uint8_t *)a->dentry >= a->bitmap + (a->nr + 7) / 8);
	CHECK(a->names == (uint8_t *)a->dentry + (size_t)a->nr * F2FS_DIR_ENTRY_SIZE);
	CHECK(a->names + (size_t)a->nr * F2FS_SLOT_LEN == start + bytes);
}

static void test_inline_dentry_area(void)
{
	static struct f2fs_node n;
	struct f2fs_inode *ri = &n.i;
	struct f2fs_dentry_area a;
	uint32_t flex = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR;

	/* no extra attributes: the default inline xattr room is kept; the kernel's 182 slots */
	memset(&n, 0, sizeof(n));
	ri->i_inline = F2FS_INLINE_DENTRY;
	CHECK_EQ_U64(f2fs_inline_dentry_area(f2fs_blkgeo_4k(), ri, 0, &a), 0);
	CHECK_EQ_U64(a.nr, 182);
	CHECK_EQ_U64((uint8_t *)a.dentry - a.bitmap, 23 + 7);
	check_inline_area(&a, (const uint8_t *)&ri->i_addr[1],
			  4 * (F2FS_DEF_ADDRS_PER_INODE - F2FS_INLINE_XATTR_ADDRS - 1));

	/* 36 bytes of extra attributes and a flexible inline xattr area of 10 words */
	ri->i_inline = F2FS_INLINE_DENTRY | F2FS_EXTRA_ATTR | F2FS_INLINE_XATTR;
	ri->i_extra_isize = le16_put(36);
	ri->i_inline_xattr_size = le16_put(10);
	CHECK_EQ_U64(f2fs_inline_dentry_area(f2fs_blkgeo_4k(), ri, flex, &a), 0);
	check_inline_area(&a, (const uint8_t *)&ri->i_addr[9 + 1],
			  4 * (F2FS_DEF_ADDRS_PER_INODE - 9 - 10 - 1));
	CHECK_EQ_U64(a.nr, 188);

	/* i_extra_isize leaving no room */
	ri->i_extra_isize = le16_put(4 * (F2FS_DEF_ADDRS_PER_INODE - 1));
	CHECK_EQ_U64(f2fs_inline_dentry_area(f2fs_blkgeo_4k(), ri, flex, &a), -EUCLEAN);
	ri->i_extra_isize = le16_put(0xfffc);
	CHECK_EQ_U64(f2fs_inline_dentry_area(f2fs_blkgeo_4k(), ri, flex, &a), -EUCLEAN);
	/* an inline xattr size larger than i_addr[]: no slots (never an area past i_addr[]) */
	ri->i_extra_isize = le16_put(36);
	ri->i_inline_xattr_size = le16_put(2000);
	a.nr = 1;
	CHECK(f2fs_inline_dentry_area(f2fs_blkgeo_4k(), ri, flex, &a) == -EUCLEAN || a.nr == 0);
}

/* ---- the node-tree walker ---- */

#define MAX_SEEN 64

struct seen_blocks {
	unsigned int n, stop_at; /* stop_at: return 42 at that call (0: never) */
	uint64_t fblk[MAX_SEEN];
	uint32_t addr[MAX_SEEN];
};

static int collect_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct seen_blocks *s = arg;

	if (s->n < MAX_SEEN) {
		s->fblk[s->n] = file_block;
		s->addr[s->n] = blkaddr;
	}
	s->n++;
	return s->stop_at && s->n == s->stop_at ? 42 : 0;
}

/* Walk inode @ino; returns the walk's result, the blocks in @s. */
static int walk(struct img *m, uint32_t ino, struct seen_blocks *s, unsigned int stop_at)
{
	struct f2fs_node n;
	int ret;

	memset(s, 0, sizeof(*s));
	s->stop_at = stop_at;
	ret = f2fs_read_inode(m->fs, ino, &n);
	CHECK_EQ_U64(ret, 0);
	if (ret)
		return ret;
	return f2fs_file_for_each_block(m->fs, &n, collect_block, s);
}

static void check_blocks(const struct tree_file *f, const struct seen_blocks *s, unsigned int n)
{
	unsigned int i;

	CHECK_EQ_U64(s->n, n);
	for (i = 0; i < n && i < s->n; i++) {
		CHECK_EQ_U64(s->fblk[i], f->fblk[i]);
		CHECK_EQ_U64(s->addr[i], f->addr[i]);
	}
}

static void walk_tree_file(uint32_t features, void (*ri_edit)(struct f2fs_inode *ri),
			   unsigned int addrs, unsigned int per)
{
	struct img m;
	struct tree_file f;
	struct seen_blocks s;

	if (!img_make(&m, features)) {
		CHECK(0);
		return;
	}
	if (!build_tree_file(&m, &f, ri_edit)) {
		CHECK(0);
		CHECK(img_free(&m));
		return;
	}
	CHECK_EQ_U64(f.addrs, addrs);
	CHECK_EQ_U64(f.per, per);
	CHECK_EQ_U64(walk(&m, f.ino, &s, 0), 0);
	check_blocks(&f, &s, f.nexp);
	/* a non-zero return stops the walk and is passed back */
	CHECK_EQ_U64(walk(&m, f.ino, &s, 6), 42);
	CHECK_EQ_U64(s.n, 6);
	CHECK(img_free(&m));
}

struct seen_nodes {
	unsigned int n, stop_at;
	uint64_t first[16];
	uint32_t nid[16];
};

static int collect_node(uint64_t first, uint32_t nid, void *arg)
{
	struct seen_nodes *s = arg;

	if (s->n < 16) {
		s->first[s->n] = first;
		s->nid[s->n] = nid;
	}
	s->n++;
	return s->stop_at && s->n == s->stop_at ? 43 : 0;
}

static int ignore_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	(void)file_block;
	(void)blkaddr;
	(void)arg;
	return 0;
}

/* Each node below the inode, pre-order, with the first file block of its subtree. */
static void test_walk_nodes(void)
{
	struct img m;
	struct tree_file f;
	struct seen_nodes s = {0};
	struct f2fs_node n;
	uint64_t a, p, ind1, ind2, dind, ind3, ind4;
	unsigned int i;

	if (!img_make(&m, 0) || !build_tree_file(&m, &f, NULL) ||
	    f2fs_read_inode(m.fs, f.ino, &n)) {
		CHECK(0);
		return;
	}
	a = f.addrs;
	p = f.per;
	ind1 = a + 2 * p;
	ind2 = ind1 + p * p;
	dind = ind2 + p * p;
	ind3 = dind + 2 * p * p;
	ind4 = dind + (p - 1) * p * p;
	{
		const uint32_t nid[] = {f.d1,	f.ind1, f.d2, f.ind2, f.d3,
					f.dind, f.ind3, f.d4, f.ind4, f.d5};
		const uint64_t first[] = {a,	ind1, ind1 + 5 * p, ind2, ind2 + (p - 1) * p,
					  dind, ind3, ind3 + 7 * p, ind4, ind4 + (p - 1) * p};

		CHECK_EQ_U64(
		    f2fs_file_for_each_block_and_node(m.fs, &n, ignore_block, collect_node, &s), 0);
		CHECK_EQ_U64(s.n, 10);
		for (i = 0; i < 10 && i < s.n; i++) {
			CHECK_EQ_U64(s.nid[i], nid[i]);
			CHECK_EQ_U64(s.first[i], first[i]);
		}
	}
	/* a non-zero return stops the walk and is passed back */
	memset(&s, 0, sizeof(s));
	s.stop_at = 3;
	CHECK_EQ_U64(f2fs_file_for_each_block_and_node(m.fs, &n, ignore_block, collect_node, &s),
		     43);
	CHECK_EQ_U64(s.n, 3);
	CHECK(img_free(&m));
}

static void flexible_xattr(struct f2fs_inode *ri)
{
	ri->i_inline |= F2FS_INLINE_XATTR;
	ri->i_inline_xattr_size = le16_put(50);
}

static void compressed(struct f2fs_inode *ri)
{
	ri->i_flags = le32_put(F2FS_COMPR_FL);
	ri->i_log_cluster_size = 2;
}

static void test_walk_plain(void)
{
	walk_tree_file(0, NULL, F2FS_DEF_ADDRS_PER_INODE, F2FS_ADDRS_PER_BLOCK);
}

static void test_walk_extra_attr_xattr(void)
{
	uint32_t f = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR;

	/* 4 bytes of extra attributes (one word), 50 words of inline xattrs */
	CHECK_EQ_U64(f2fs_extra_isize_for(f), 4);
	walk_tree_file(f, flexible_xattr, F2FS_DEF_ADDRS_PER_INODE - 1 - 50, F2FS_ADDRS_PER_BLOCK);
}

static void test_walk_compressed(void)
{
	uint32_t f = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_COMPRESSION;

	/* 9 words of extra attributes; both counts cut to whole clusters of 4 */
	CHECK_EQ_U64(f2fs_extra_isize_for(f), 36);
	walk_tree_file(f, compressed, (F2FS_DEF_ADDRS_PER_INODE - 9) / 4 * 4,
		       F2FS_ADDRS_PER_BLOCK / 4 * 4);
}

/* Read node @nid's block (through the NAT), let @edit change it, write it back. */
static void edit_node(struct img *m, uint32_t nid, void (*edit)(struct f2fs_node *n, uint32_t v),
		      uint32_t v)
{
	const struct f2fs_nat_table *nat;
	struct f2fs_node n;
	uint32_t blk;

	CHECK(img_open(m));
	CHECK_EQ_U64(f2fs_fs_nat(m->fs, &nat), 0);
	blk = f2fs_nat_get(nat, nid)->blkaddr;
	CHECK(fixture_read_blk(&m->fx, blk, &n));
	edit(&n, v);
	CHECK(fixture_write_blk(&m->fx, blk, &n));
	CHECK(img_open(m));
}

static void set_footer_nid(struct f2fs_node *n, uint32_t v)
{
	n->footer.nid = le32_put(v);
}

static void set_footer_ino(struct f2fs_node *n, uint32_t v)
{
	n->footer.ino = le32_put(v);
}

static void set_footer_ofs(struct f2fs_node *n, uint32_t v)
{
	n->footer.flag = le32_put(v << F2FS_OFFSET_BIT_SHIFT);
}

static void set_child5(struct f2fs_node *n, uint32_t v)
{
	n->in.nid[5] = le32_put(v);
}

static void set_addr1(struct f2fs_node *n, uint32_t v)
{
	n->dn.addr[1] = le32_put(v);
}

static void set_inid0(struct f2fs_node *n, uint32_t v)
{
	n->i.i_nid[0] = le32_put(v);
}

static void set_inid1(struct f2fs_node *n, uint32_t v)
{
	n->i.i_nid[1] = le32_put(v);
}

static void set_extra_isize(struct f2fs_node *n, uint32_t v)
{
	n->i.i_inline |= F2FS_EXTRA_ATTR;
	n->i.i_extra_isize = le16_put((uint16_t)v);
}

/* Damage one thing of the tree file, expect -EUCLEAN after @before blocks, undo it. */
static void expect_unclean(struct img *m, const struct tree_file *f, uint32_t nid,
			   void (*edit)(struct f2fs_node *n, uint32_t v), uint32_t bad,
			   uint32_t good, unsigned int before)
{
	struct seen_blocks s;

	edit_node(m, nid, edit, bad);
	CHECK_EQ_U64(walk(m, f->ino, &s, 0), -EUCLEAN);
	check_blocks(f, &s, before);
	edit_node(m, nid, edit, good);
	CHECK_EQ_U64(walk(m, f->ino, &s, 0), 0);
	CHECK_EQ_U64(s.n, f->nexp);
}

/* Blocks reported before direct node 2 (the inode's four and direct node 1's two). */
#define BEFORE_D2 6

static void test_walk_corrupted(void)
{
	struct img m;
	struct tree_file f;
	struct seen_blocks s;
	uint32_t d2_blk;
	const struct f2fs_nat_table *nat;

	if (!img_make(&m, 0)) {
		CHECK(0);
		return;
	}
	if (!build_tree_file(&m, &f, NULL)) {
		CHECK(0);
		CHECK(img_free(&m));
		return;
	}
	/* footers that do not fit the place in the tree */
	expect_unclean(&m, &f, f.d2, set_footer_nid, f.d3, f.d2, BEFORE_D2);
	expect_unclean(&m, &f, f.d2, set_footer_ino, 3, f.ino, BEFORE_D2);
	expect_unclean(&m, &f, f.d2, set_footer_ofs, F2FS_NODE_OFS_INDIRECT1 + 1 + 6,
		       F2FS_NODE_OFS_INDIRECT1 + 1 + 5, BEFORE_D2);
	/* an indirect node naming itself: its child's offset cannot match */
	expect_unclean(&m, &f, f.ind1, set_child5, f.ind1, f.d2, BEFORE_D2);
	/* an indirect node where a direct one belongs */
	expect_unclean(&m, &f, f.ino, set_inid0, f.ind1, f.d1, 4);
	/* a nid with no NAT entry, and one past the NAT */
	expect_unclean(&m, &f, f.ino, set_inid1, 450, 0, 6);
	expect_unclean(&m, &f, f.ino, set_inid1, 0xfffffff0u, 0, 6);
	/* a data address outside the main area: the blocks before it were passed */
	expect_unclean(&m, &f, f.d1, set_addr1, 7, 0, 5);
	expect_unclean(&m, &f, f.d1, set_addr1,
		       (uint32_t)m.fx.l.main_blkaddr + m.fx.l.segment_count_main * 512, 0, 5);

	/* the NAT entry of direct node 2: free, then outside the main area */
	CHECK_EQ_U64(f2fs_fs_nat(m.fs, &nat), 0);
	d2_blk = f2fs_nat_get(nat, f.d2)->blkaddr;
	CHECK(fixture_nat_set(&m.fx, f.d2, f.ino, 0));
	CHECK(img_open(&m));
	CHECK_EQ_U64(walk(&m, f.ino, &s, 0), -EUCLEAN);
	check_blocks(&f, &s, BEFORE_D2);
	CHECK(fixture_nat_set(&m.fx, f.d2, f.ino, 5));
	CHECK(img_open(&m));
	CHECK_EQ_U64(walk(&m, f.ino, &s, 0), -EUCLEAN);
	check_blocks(&f, &s, BEFORE_D2);
	CHECK(fixture_nat_set(&m.fx, f.d2, f.ino, d2_blk));
	CHECK(img_open(&m));
	CHECK_EQ_U64(walk(&m, f.ino, &s, 0), 0);

	/* extra attributes past i_addr[] */
	edit_node(&m, f.ino, set_extra_isize, 4000);
	CHECK_EQ_U64(walk(&m, f.ino, &s, 0), -EUCLEAN);
	CHECK_EQ_U64(s.n, 0);
	CHECK(img_free(&m));
}

static void test_read_node(void)
{
	struct img m;
	struct tree_file f;
	struct f2fs_node n;
	uint32_t blk;

	if (!img_make(&m, 0)) {
		CHECK(0);
		return;
	}
	if (!build_tree_file(&m, &f, NULL)) {
		CHECK(0);
		CHECK(img_free(&m));
		return;
	}
	CHECK_EQ_U64(f2fs_read_node(m.fs, f.d1, f.ino, &n), 0);
	CHECK_EQ_U64(f2fs_node_ofs(f2fs_blkgeo_4k(), &n), F2FS_NODE_OFS_DIRECT1);
	CHECK_EQ_U64(f2fs_read_node(m.fs, f.d1, f.ino + 1, &n), -EUCLEAN);
	CHECK_EQ_U64(f2fs_read_node(m.fs, 0, 0, &n), -ENOENT);
	CHECK_EQ_U64(f2fs_read_node(m.fs, 450, 450, &n), -ENOENT);
	CHECK_EQ_U64(f2fs_read_node(m.fs, UINT32_MAX, UINT32_MAX, &n), -ENOENT);
	CHECK_EQ_U64(f2fs_read_inode(m.fs, 3, &n), 0);
	CHECK(S_ISDIR(le16_get(n.i.i_mode)));
	CHECK_EQ_U64(f2fs_read_inode(m.fs, f.ino, &n), 0);
	/* a direct node is no inode: nid and ino differ */
	CHECK_EQ_U64(f2fs_read_inode(m.fs, f.d1, &n), -EUCLEAN);
	/* a block with nid == ino but a tree offset past 0 */
	img_init_node(&n, 300, 300, F2FS_NODE_OFS_DIRECT1);
	blk = img_put_node(&m, &n);
	CHECK(img_open(&m));
	CHECK_EQ_U64(f2fs_read_node(m.fs, 300, 300, &n), 0);
	CHECK_EQ_U64(f2fs_read_inode(m.fs, 300, &n), -EUCLEAN);
	/* a NAT entry outside the main area */
	CHECK(fixture_nat_set(&m.fx, 300, 300, 2));
	CHECK(img_open(&m));
	CHECK_EQ_U64(f2fs_read_node(m.fs, 300, 300, &n), -EUCLEAN);
	(void)blk;
	CHECK(img_free(&m));
}

/* Inline data and inline dentries hold no blocks, whatever i_addr[] says. */
static void test_walk_inline(void)
{
	struct img m;
	struct f2fs_node n;
	struct seen_blocks s;
	uint32_t ino;

	if (!img_make(&m, 0)) {
		CHECK(0);
		return;
	}
	ino = m.next_nid++;
	img_init_inode(&m, &n, ino, S_IFREG | 0644);
	n.i.i_inline |= F2FS_INLINE_DATA;
	memset(n.i.i_addr, 0xab, sizeof(n.i.i_addr));
	n.i.i_nid[0] = le32_put(12345);
	CHECK(img_put_node(&m, &n));
	if (img_open(&m)) {
		CHECK_EQ_U64(walk(&m, ino, &s, 0), 0);
		CHECK_EQ_U64(s.n, 0);
	}
	CHECK(img_free(&m));
}

/* ---- the dentry iterator ---- */

struct entry {
	char name[F2FS_NAME_LEN + 1];
	size_t len;
	uint32_t ino;
	uint8_t type;
};

#define MAX_ENTRIES 600

struct seen_entries {
	unsigned int n, stop_at;
	bool bad_nul;
	struct entry e[MAX_ENTRIES];
};

static int collect_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct seen_entries *s = arg;

	if (name[len] != '\0')
		s->bad_nul = true;
	if (s->n < MAX_ENTRIES) {
		memcpy(s->e[s->n].name, name, len + 1);
		s->e[s->n].len = len;
		s->e[s->n].ino = ino;
		s->e[s->n].type = type;
	}
	s->n++;
	return s->stop_at && s->n == s->stop_at ? 43 : 0;
}

/* Store an entry into a dentry area at @slot (the inline area has no helper of its own). */
static void area_put(struct f2fs_dentry_area *a, unsigned int slot, const char *name, size_t len,
		     uint32_t ino, uint8_t type)
{
	unsigned int i;

	a->dentry[slot].hash_code = le32_put(f2fs_dentry_hash((const unsigned char *)name, len));
	a->dentry[slot].ino = le32_put(ino);
	a->dentry[slot].name_len = le16_put((uint16_t)len);
	a->dentry[slot].file_type = type;
	memcpy(a->names + (size_t)slot * F2FS_SLOT_LEN, name, len);
	for (i = 0; i < f2fs_name_slots(len); i++)
		f2fs_set_bit_lsb(a->bitmap, slot + i);
}

/* What a directory must list, in order. */
struct dir_expect {
	unsigned int n;
	struct entry e[MAX_ENTRIES];
};

static void want(struct dir_expect *x, const char *name, size_t len, uint32_t ino, uint8_t type)
{
	struct entry *e = &x->e[x->n++];

	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->len = len;
	e->ino = ino;
	e->type = type;
}

/* Iterate directory @ino; returns the result, entries in @s. */
static int list_dir(struct img *m, uint32_t ino, struct seen_entries *s, unsigned int stop_at)
{
	struct f2fs_node n;
	int ret;

	memset(s, 0, sizeof(*s));
	s->stop_at = stop_at;
	ret = f2fs_read_inode(m->fs, ino, &n);
	CHECK_EQ_U64(ret, 0);
	if (ret)
		return ret;
	return f2fs_dir_for_each_entry(m->fs, &n, collect_entry, s);
}

static void check_entries(const struct dir_expect *x, const struct seen_entries *s, unsigned int n)
{
	unsigned int i, bad = 0;

	CHECK_EQ_U64(s->n, n);
	CHECK(!s->bad_nul);
	for (i = 0; i < n && i < s->n && i < MAX_ENTRIES; i++) {
		const struct entry *a = &s->e[i], *b = &x->e[i];

		if (a->len != b->len || memcmp(a->name, b->name, a->len) || a->ino != b->ino ||
		    a->type != b->type) {
			if (!bad++)
				fprintf(stderr,
					"entry %u: \"%s\" (%zu) ino %u type %u, expected "
					"\"%s\" (%zu) ino %u type %u\n",
					i, a->name, a->len, a->ino, a->type, b->name, b->len,
					b->ino, b->type);
		}
	}
	CHECK_EQ_U64(bad, 0);
}

/* An inline directory with entries of one and of several slots, a hole and the last slot. */
static void inline_dir(uint32_t features)
{
	static const char odd[] = "\xff\x01"
				  "b";
	static const char twenty[] = "twenty-byte-filename";
	struct img m;
	struct f2fs_node n;
	struct f2fs_dentry_area a;
	struct seen_entries *s = calloc(1, sizeof(*s));
	struct dir_expect *x = calloc(1, sizeof(*x));
	uint32_t ino;

	if (!s || !x || !img_make(&m, features)) {
		CHECK(0);
		free(s);
		free(x);
		return;
	}
	ino = m.next_nid++;
	img_init_inode(&m, &n, ino, S_IFDIR | 0755);
	n.i.i_inline |= F2FS_INLINE_DENTRY;
	if (features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) {
		n.i.i_inline |= F2FS_INLINE_XATTR;
		n.i.i_inline_xattr_size = le16_put(20);
	}
	CHECK_EQ_U64(f2fs_inline_dentry_area(f2fs_blkgeo_4k(), &n.i, features, &a), 0);
	area_put(&a, 0, ".", 1, ino, F2FS_FT_DIR);
	area_put(&a, 1, "..", 2, 3, F2FS_FT_DIR);
	area_put(&a, 2, "a", 1, 10, F2FS_FT_REG_FILE);
	want(x, "a", 1, 10, F2FS_FT_REG_FILE);
	area_put(&a, 3, twenty, 20, 11, F2FS_FT_DIR);
	want(x, twenty, 20, 11, F2FS_FT_DIR);
	area_put(&a, 7, odd, 3, 12, F2FS_FT_SYMLINK);
	want(x, odd, 3, 12, F2FS_FT_SYMLINK);
	area_put(&a, a.nr - 1, "z", 1, 13, F2FS_FT_REG_FILE);
	want(x, "z", 1, 13, F2FS_FT_REG_FILE);
	CHECK(img_put_node(&m, &n));
	if (img_open(&m)) {
		CHECK_EQ_U64(list_dir(&m, ino, s, 0), 0);
		check_entries(x, s, x->n);
		CHECK_EQ_U64(list_dir(&m, ino, s, 2), 43);
		CHECK_EQ_U64(s->n, 2);
	}

	/* a name running past the area's last slot */
	area_put(&a, a.nr - 1, "zz-zz-zz-z", 10, 13, F2FS_FT_REG_FILE);
	CHECK(img_put_node(&m, &n));
	if (img_open(&m)) {
		CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
		check_entries(x, s, 3);
	}
	/* extra attributes leaving no room for the area */
	if (features & F2FS_FEATURE_EXTRA_ATTR) {
		n.i.i_extra_isize = le16_put(4 * (F2FS_DEF_ADDRS_PER_INODE - 1));
		CHECK(img_put_node(&m, &n));
		if (img_open(&m))
			CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
	}
	CHECK(img_free(&m));
	free(s);
	free(x);
}

static void test_dir_inline(void)
{
	inline_dir(0);
	inline_dir(F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR |
		   F2FS_FEATURE_INODE_CHKSUM);
}

/* A dentry block holding @count names "<prefix>-<i>" from slot 2 (after the dots when @dots). */
static uint32_t put_dentry_block(struct img *m, struct dir_expect *x, const char *prefix,
				 unsigned int count, bool dots, uint32_t dir_ino,
				 uint32_t first_ino)
{
	static struct f2fs_dentry_block b;
	unsigned int i, slot = 2;
	uint32_t blk = img_main_blk(m);
	char name[64];

	memset(&b, 0, sizeof(b));
	if (dots) {
		CHECK_EQ_U64(f2fs_dentry_put(&b, 0, ".", 1, dir_ino, F2FS_FT_DIR), 0);
		CHECK_EQ_U64(f2fs_dentry_put(&b, 1, "..", 2, 3, F2FS_FT_DIR), 0);
	}
	for (i = 0; i < count; i++) {
		int len = snprintf(name, sizeof(name), "%s-%u", prefix, i);
		uint8_t type = i % 3 ? F2FS_FT_REG_FILE : F2FS_FT_DIR;

		CHECK_EQ_U64(f2fs_dentry_put(&b, slot, name, (size_t)len, first_ino + i, type), 0);
		want(x, name, (size_t)len, first_ino + i, type);
		slot += f2fs_name_slots((size_t)len) + (i % 4 == 1); /* some free slots */
	}
	CHECK(fixture_write_blk(&m->fx, blk, &b));
	return blk;
}

/* One dentry block, filled to its last slot. */
static void test_dir_one_block(void)
{
	static struct f2fs_dentry_block b;
	struct img m;
	struct f2fs_node n;
	struct seen_entries *s = calloc(1, sizeof(*s));
	struct dir_expect *x = calloc(1, sizeof(*x));
	uint32_t ino, blk;

	if (!s || !x || !img_make(&m, F2FS_FEATURE_EXTRA_ATTR)) {
		CHECK(0);
		free(s);
		free(x);
		return;
	}
	ino = m.next_nid++;
	img_init_inode(&m, &n, ino, S_IFDIR | 0755);
	n.i.i_size = le64_put(BLK);
	blk = put_dentry_block(&m, x, "entry", 20, true, ino, 1000);
	/* a 9-byte name in the last two slots */
	CHECK(fixture_read_blk(&m.fx, blk, &b));
	CHECK_EQ_U64(f2fs_dentry_put(&b, F2FS_NR_DENTRY_IN_BLOCK - 2, "last-slot", 9, 2000,
				     F2FS_FT_REG_FILE),
		     0);
	want(x, "last-slot", 9, 2000, F2FS_FT_REG_FILE);
	CHECK(fixture_write_blk(&m.fx, blk, &b));
	img_set_iaddr(&n, 0, blk);
	CHECK(img_put_node(&m, &n));
	if (img_open(&m)) {
		CHECK_EQ_U64(list_dir(&m, ino, s, 0), 0);
		check_entries(x, s, x->n);
	}

	/* damaged entries: zero and oversized name lengths, a name past the last slot */
	b.dentry[F2FS_NR_DENTRY_IN_BLOCK - 2].name_len = le16_put(17);
	CHECK(fixture_write_blk(&m.fx, blk, &b));
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
	check_entries(x, s, x->n - 1);
	b.dentry[F2FS_NR_DENTRY_IN_BLOCK - 2].name_len = le16_put(0);
	CHECK(fixture_write_blk(&m.fx, blk, &b));
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
	b.dentry[F2FS_NR_DENTRY_IN_BLOCK - 2].name_len = le16_put(F2FS_NAME_LEN + 1);
	CHECK(fixture_write_blk(&m.fx, blk, &b));
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
	b.dentry[F2FS_NR_DENTRY_IN_BLOCK - 2].name_len = le16_put(0xffff);
	CHECK(fixture_write_blk(&m.fx, blk, &b));
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);

	/* a dentry block outside the main area, after the (repaired) first one */
	b.dentry[F2FS_NR_DENTRY_IN_BLOCK - 2].name_len = le16_put(9);
	CHECK(fixture_write_blk(&m.fx, blk, &b));
	img_set_iaddr(&n, 1, 9);
	CHECK(img_put_node(&m, &n));
	CHECK(img_open(&m));
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
	check_entries(x, s, x->n);

	/* not a directory */
	n.i.i_mode = le16_put(S_IFREG | 0644);
	CHECK(img_put_node(&m, &n));
	if (img_open(&m))
		CHECK_EQ_U64(list_dir(&m, ino, s, 0), -ENOTDIR);
	CHECK(img_free(&m));
	free(s);
	free(x);
}

/*
 * A directory spanning several hash levels: blocks 0-1 (level 0, one bucket
 * of two blocks), 2-5 (level 1, two buckets), 6 and 7 (level 2), with a
 * hole at block 3 and block 5 at NEW_ADDR (allocated, no entries), and one
 * more block reached through direct node 1.  The iterator lists entries in
 * file-block order and does not judge buckets (the checker does).
 */
static void test_dir_levels(void)
{
	struct img m;
	struct f2fs_node n, d;
	struct seen_entries *s = calloc(1, sizeof(*s));
	struct dir_expect *x = calloc(1, sizeof(*x));
	unsigned int addrs, i;
	uint32_t ino, dnid, blk;
	char prefix[16];

	if (!s || !x || !img_make(&m, 0)) {
		CHECK(0);
		free(s);
		free(x);
		return;
	}
	ino = m.next_nid++;
	dnid = m.next_nid++;
	img_init_inode(&m, &n, ino, S_IFDIR | 0755);
	addrs = f2fs_inode_addrs(f2fs_blkgeo_4k(), &n.i, m.features);
	for (i = 0; i < 8; i++) {
		if (i == 3)
			continue; /* a hole */
		if (i == 5) {
			img_set_iaddr(&n, i, F2FS_NEW_ADDR);
			continue;
		}
		snprintf(prefix, sizeof(prefix), "level-blk%u", i);
		blk = put_dentry_block(&m, x, prefix, 10 + 5 * i, i == 0, ino, 100 * (i + 1));
		img_set_iaddr(&n, i, blk);
	}
	n.i.i_nid[0] = le32_put(dnid);
	n.i.i_size = le64_put((uint64_t)(addrs + 3) * BLK);
	img_init_node(&d, dnid, ino, F2FS_NODE_OFS_DIRECT1);
	blk = put_dentry_block(&m, x, "via-direct-node", 40, false, ino, 5000);
	d.dn.addr[2] = le32_put(blk);
	CHECK(img_put_node(&m, &d));
	img_put_node(&m, &n);
	if (img_open(&m)) {
		CHECK_EQ_U64(list_dir(&m, ino, s, 0), 0);
		check_entries(x, s, x->n);
		CHECK_EQ_U64(list_dir(&m, ino, s, 17), 43);
		CHECK_EQ_U64(s->n, 17);
	}
	/* the direct node's footer damaged: the entries before it were passed */
	edit_node(&m, dnid, set_footer_ofs, F2FS_NODE_OFS_DIRECT2);
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EUCLEAN);
	check_entries(x, s, x->n - 40);
	CHECK(img_free(&m));
	free(s);
	free(x);
}

/* ---- directories and copies on a device cut short, read errors ---- */

/* A device holding the first @blocks blocks of @m's, opened as cut short into *fs. */
static struct f2fs_device *cut_open(struct img *m, uint64_t blocks, struct f2fs_fs **fs)
{
	static uint8_t blk[BLK];
	struct f2fs_device *dev;
	char why[256] = "";
	uint64_t b;

	*fs = NULL;
	if (f2fs_dev_open_memory(blocks * BLK, &dev)) {
		CHECK(0);
		return NULL;
	}
	for (b = 0; b < blocks; b++) {
		CHECK(fixture_read_blk(&m->fx, b, blk));
		CHECK_EQ_U64(f2fs_dev_write(dev, blk, b * BLK, BLK), 0);
	}
	if (f2fs_fs_open(dev, F2FS_FS_SHORT_DEVICE, fs, why, sizeof(why))) {
		fprintf(stderr, "f2fs_fs_open: %s\n", why);
		CHECK(0);
	}
	return dev;
}

/*
 * A dentry block that cannot be read does not hide the others: the walk
 * lists the entries of the readable blocks and returns the read error at
 * the end -- a failing device (-EIO) or a block past the end of a device
 * cut short (-ENXIO).  A file's data past the end fails its reader alike.
 */
static void test_dir_unreadable_block(void)
{
	struct img m;
	struct f2fs_node n, f;
	struct seen_entries *s = calloc(1, sizeof(*s));
	struct dir_expect *x = calloc(1, sizeof(*x));
	struct f2fs_device *cut;
	struct f2fs_fs *fs;
	uint32_t ino, fino, blk[3];
	uint8_t buf[BLK];
	size_t done;
	int i;

	if (!s || !x || !img_make(&m, 0)) {
		CHECK(0);
		free(s);
		free(x);
		return;
	}
	ino = m.next_nid++;
	fino = m.next_nid++;
	img_init_inode(&m, &n, ino, S_IFDIR | 0755);
	for (i = 0; i < 3; i++) {
		char prefix[16];

		snprintf(prefix, sizeof(prefix), "b%d", i);
		blk[i] = put_dentry_block(&m, x, prefix, 5, i == 0, ino, 100 + 10 * i);
		img_set_iaddr(&n, (unsigned int)i, blk[i]);
	}
	n.i.i_size = le64_put(3 * BLK);
	CHECK(img_put_node(&m, &n));
	/* a file whose one data block is the directory's first dentry block (the last of the
	 * device) */
	img_init_inode(&m, &f, fino, S_IFREG | 0644);
	f.i.i_size = le64_put(100);
	img_set_iaddr(&f, 0, blk[0]);
	CHECK(img_put_node(&m, &f));
	if (!fixture_fail_reads(&m.fx) || !img_open(&m)) {
		CHECK(0);
		CHECK(img_free(&m));
		free(s);
		free(x);
		return;
	}
	m.fx.fault.first = blk[1];
	m.fx.fault.count = 1;
	CHECK_EQ_U64(list_dir(&m, ino, s, 0), -EIO);
	CHECK_EQ_U64(s->n, 10);
	CHECK(s->n == 10 && !strcmp(s->e[0].name, "b0-0") && !strcmp(s->e[5].name, "b2-0"));
	m.fx.fault.count = 0;

	/* cut just before blk[0], the device's last block in use */
	CHECK(blk[0] > blk[1] && blk[1] > blk[2]);
	cut = cut_open(&m, blk[0], &fs);
	if (fs) {
		CHECK_EQ_U64(f2fs_read_inode(fs, ino, &n), 0);
		memset(s, 0, sizeof(*s));
		CHECK_EQ_U64(f2fs_dir_for_each_entry(fs, &n, collect_entry, s), -ENXIO);
		CHECK_EQ_U64(s->n, 10);
		CHECK(s->n == 10 && !strcmp(s->e[0].name, "b1-0"));
		CHECK_EQ_U64(f2fs_read_inode(fs, fino, &f), 0);
		CHECK_EQ_U64(f2fs_file_pread(fs, &f, buf, sizeof(buf), 0, &done), -ENXIO);
	}
	f2fs_fs_close(fs);
	f2fs_dev_close(cut);
	CHECK(img_free(&m));
	free(s);
	free(x);
}

/* ---- copies of an inode's block (dump -I) ---- */

#define MAX_COPIES 8

struct copies {
	unsigned int n, errors;
	struct f2fs_inode_copy c[MAX_COPIES];
	uint64_t error_blk;
};

static int collect_copy(const struct f2fs_inode_copy *c, void *arg)
{
	struct copies *s = arg;

	if (s->n < MAX_COPIES)
		s->c[s->n] = *c;
	s->n++;
	return 0;
}

static void copy_error(uint64_t blkaddr, int err, void *arg)
{
	struct copies *s = arg;

	CHECK(err < 0);
	s->errors++;
	s->error_blk = blkaddr;
}

/* Give main-area segment @segno SIT type @type and valid bits at @offs (current copy 0). */
static void sit_set(struct img *m, uint32_t segno, unsigned int type, const uint32_t *offs,
		    unsigned int n)
{
	union {
		struct f2fs_sit_block b; /* 26 bytes short of a block */
		uint8_t raw[BLK];
	} blk;
	uint64_t addr = m->fx.l.sit_blkaddr + segno / F2FS_SIT_ENTRY_PER_BLOCK;
	struct f2fs_sit_entry *e = &blk.b.entries[segno % F2FS_SIT_ENTRY_PER_BLOCK];
	unsigned int i;

	CHECK(fixture_read_blk(&m->fx, addr, blk.raw));
	memset(e, 0, sizeof(*e));
	for (i = 0; i < n; i++)
		e->valid_map[offs[i] / 8] |= (uint8_t)(0x80 >> (offs[i] % 8));
	e->vblocks = le16_put((uint16_t)(type << F2FS_SIT_VBLOCKS_SHIFT | n));
	CHECK(fixture_write_blk(&m->fx, addr, blk.raw));
}

/*
 * A node segment (by its SIT type) holding the inode's current block, a
 * stale copy, a direct node of the inode and a block whose footer only
 * looks like the inode's; and a data segment with such a block too.  The
 * search reports exactly the two copies, in address order, through the
 * segment's summary; and the same when the summary is unusable (the whole
 * segment is read).  A copy that cannot be read is passed to on_error.
 */
static void test_inode_copies(void)
{
	static struct f2fs_summary_block sum;
	struct img m;
	struct f2fs_node n;
	struct copies s;
	uint32_t ino, dnid, nseg, dseg, offs[2];
	uint64_t nbase, dbase, cur, stale, dnode, fake, datafake;
	int i;

	if (!img_make(&m, 0)) {
		CHECK(0);
		return;
	}
	nseg = m.fx.l.segment_count_main - 1;
	dseg = m.fx.l.segment_count_main - 2;
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		CHECK(m.fx.l.cur_seg[i] != nseg && m.fx.l.cur_seg[i] != dseg);
	nbase = f2fs_layout_seg_blkaddr(&m.fx.l, nseg);
	dbase = f2fs_layout_seg_blkaddr(&m.fx.l, dseg);
	stale = nbase + 7;
	cur = nbase + 40;
	dnode = nbase + 41;
	fake = nbase + 42;
	datafake = dbase + 3;
	ino = m.next_nid++;
	dnid = m.next_nid++;

	img_init_inode(&m, &n, ino, S_IFREG | 0644);
	n.footer.cp_ver = le64_put(5);
	CHECK(fixture_write_blk(&m.fx, stale, &n));
	n.footer.cp_ver = le64_put(6);
	n.i.i_size = le64_put(1);
	CHECK(fixture_write_blk(&m.fx, cur, &n));
	CHECK(fixture_write_blk(&m.fx, fake, &n));
	CHECK(fixture_write_blk(&m.fx, datafake, &n));
	CHECK(fixture_nat_set(&m.fx, ino, ino, (uint32_t)cur));
	img_init_node(&n, dnid, ino, F2FS_NODE_OFS_DIRECT1);
	CHECK(fixture_write_blk(&m.fx, dnode, &n));
	CHECK(fixture_nat_set(&m.fx, dnid, ino, (uint32_t)dnode));

	memset(&sum, 0, sizeof(sum));
	sum.footer.entry_type = F2FS_SUM_TYPE_NODE;
	sum.entries[stale - nbase].nid = le32_put(ino);
	sum.entries[cur - nbase].nid = le32_put(ino);
	sum.entries[dnode - nbase].nid = le32_put(dnid);
	sum.entries[fake - nbase].nid = le32_put(dnid + 1);
	CHECK(fixture_write_blk(&m.fx, m.fx.l.ssa_blkaddr + nseg, &sum));
	offs[0] = (uint32_t)(cur - nbase);
	offs[1] = (uint32_t)(dnode - nbase);
	sit_set(&m, nseg, F2FS_CURSEG_WARM_NODE, offs, 2);

	if (!fixture_fail_reads(&m.fx) || !img_open(&m)) {
		CHECK(0);
		CHECK(img_free(&m));
		return;
	}
	memset(&s, 0, sizeof(s));
	CHECK_EQ_U64(f2fs_find_inode_copies(m.fs, ino, collect_copy, copy_error, &s), 0);
	CHECK_EQ_U64(s.n, 2);
	CHECK_EQ_U64(s.errors, 0);
	if (s.n == 2) {
		CHECK_EQ_U64(s.c[0].blkaddr, stale);
		CHECK_EQ_U64(s.c[0].cp_ver, 5);
		CHECK(!s.c[0].sit_valid && !s.c[0].nat_current);
		CHECK_EQ_U64(s.c[1].blkaddr, cur);
		CHECK_EQ_U64(s.c[1].cp_ver, 6);
		CHECK(s.c[1].sit_valid && s.c[1].nat_current);
	}
	/* the search reads the two summarised copies only: the fake block never */
	m.fx.fault.first = fake;
	m.fx.fault.count = 1;
	memset(&s, 0, sizeof(s));
	CHECK_EQ_U64(f2fs_find_inode_copies(m.fs, ino, collect_copy, copy_error, &s), 0);
	CHECK_EQ_U64(s.n, 2);
	CHECK_EQ_U64(m.fx.fault.hits, 0);
	/* a copy that cannot be read */
	m.fx.fault.first = stale;
	memset(&s, 0, sizeof(s));
	CHECK_EQ_U64(f2fs_find_inode_copies(m.fs, ino, collect_copy, copy_error, &s), 0);
	CHECK_EQ_U64(s.n, 1);
	CHECK_EQ_U64(s.errors, 1);
	CHECK_EQ_U64(s.error_blk, stale);
	m.fx.fault.count = 0;
	/* a direct node's nid is not an inode: nothing */
	memset(&s, 0, sizeof(s));
	CHECK_EQ_U64(f2fs_find_inode_copies(m.fs, dnid, collect_copy, copy_error, &s), 0);
	CHECK_EQ_U64(s.n, 0);

	/* a summary that is not a node summary: the whole segment is read, fake included */
	sum.footer.entry_type = F2FS_SUM_TYPE_DATA;
	CHECK(fixture_write_blk(&m.fx, m.fx.l.ssa_blkaddr + nseg, &sum));
	if (img_open(&m)) {
		memset(&s, 0, sizeof(s));
		CHECK_EQ_U64(f2fs_find_inode_copies(m.fs, ino, collect_copy, NULL, &s), 0);
		CHECK_EQ_U64(s.n, 3);
		CHECK(s.n == 3 && s.c[0].blkaddr == stale && s.c[1].blkaddr == cur &&
		      s.c[2].blkaddr == fake);
	}
	CHECK(img_free(&m));
}

/* ---- random damage never crashes the walks ---- */

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct order_check {
	const struct f2fs_geometry *geo;
	uint64_t last;
	bool first, bad;
};

static int check_order(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct order_check *o = arg;

	if ((!o->first && file_block <= o->last) ||
	    (blkaddr != F2FS_NEW_ADDR && blkaddr != F2FS_COMPRESS_ADDR &&
	     !f2fs_geo_in_main(o->geo, blkaddr)))
		o->bad = true;
	o->first = false;
	o->last = file_block;
	return 0;
}

static int count_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	(void)ino;
	(void)type;
	if (len == 0 || len > F2FS_NAME_LEN || strlen(name) > len)
		*(bool *)arg = true;
	return 0;
}

static void test_random_damage(void)
{
	struct img m;
	struct tree_file f;
	const struct f2fs_nat_table *nat;
	uint32_t nids[11], blks[11];
	uint8_t orig[11][BLK];
	unsigned int iter, k, bad_ret = 0, unclean = 0;

	if (!img_make(&m, 0)) {
		CHECK(0);
		return;
	}
	if (!build_tree_file(&m, &f, NULL) || f2fs_fs_nat(m.fs, &nat)) {
		CHECK(0);
		CHECK(img_free(&m));
		return;
	}
	memcpy(nids,
	       (uint32_t[]){f.ino, f.d1, f.ind1, f.d2, f.ind2, f.d3, f.dind, f.ind3, f.d4, f.ind4,
			    f.d5},
	       sizeof(nids));
	for (k = 0; k < 11; k++) {
		blks[k] = f2fs_nat_get(nat, nids[k])->blkaddr;
		CHECK(fixture_read_blk(&m.fx, blks[k], orig[k]));
	}
	for (iter = 0; iter < 400; iter++) {
		struct order_check o = {.geo = f2fs_fs_geo(m.fs), .first = true};
		uint8_t b[BLK];
		struct f2fs_node n;
		bool bad_name = false;
		unsigned int flips = 1 + (unsigned int)(rnd() % 4), j;
		int ret;

		k = (unsigned int)(rnd() % 11);
		memcpy(b, orig[k], BLK);
		for (j = 0; j < flips; j++) {
			uint64_t r = rnd();
			/* mostly the footer and the first words, where nids and addresses are */
			size_t ofs = r & 1 ? BLK - 24 + (r >> 8) % 24 : (r >> 8) % BLK;

			if (r & 2)
				b[ofs] ^= (uint8_t)(1u << ((r >> 20) & 7));
			else
				b[ofs] = (uint8_t)(r >> 24);
		}
		CHECK(fixture_write_blk(&m.fx, blks[k], b));
		/* the device changed under the handle: the NAT it loaded still holds */
		ret = f2fs_read_inode(m.fs, f.ino, &n);
		if (!ret)
			ret = f2fs_file_for_each_block(m.fs, &n, check_order, &o);
		if (ret != 0 && ret != -EUCLEAN && !bad_ret++)
			fprintf(stderr, "iteration %u: walk returned %d\n", iter, ret);
		unclean += ret == -EUCLEAN;
		CHECK(!o.bad);
		/* the same damaged tree read as a directory */
		if (!f2fs_read_inode(m.fs, f.ino, &n)) {
			n.i.i_mode = le16_put(S_IFDIR | 0755);
			ret = f2fs_dir_for_each_entry(m.fs, &n, count_entry, &bad_name);
			if (ret != 0 && ret != -EUCLEAN && !bad_ret++)
				fprintf(stderr, "iteration %u: dir walk returned %d\n", iter, ret);
			CHECK(!bad_name);
		}
		CHECK(fixture_write_blk(&m.fx, blks[k], orig[k]));
	}
	CHECK_EQ_U64(bad_ret, 0);
	CHECK(unclean > 0);
	CHECK(img_free(&m));
}

int main(void)
{
	RUN(test_node_offsets);
	RUN(test_pack_layout);
	RUN(test_pack_layout_mkfs);
	RUN(test_dentry_block_area);
	RUN(test_inline_dentry_area);
	RUN(test_walk_plain);
	RUN(test_walk_extra_attr_xattr);
	RUN(test_walk_compressed);
	RUN(test_walk_nodes);
	RUN(test_walk_corrupted);
	RUN(test_read_node);
	RUN(test_walk_inline);
	RUN(test_dir_inline);
	RUN(test_dir_one_block);
	RUN(test_dir_levels);
	RUN(test_dir_unreadable_block);
	RUN(test_inode_copies);
	RUN(test_random_damage);
	TEST_EXIT();
}
