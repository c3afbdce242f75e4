// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the read layer (f2fs/read.h): the node-tree walker, the
 * dentry iterator, file contents and symlink targets, and the block owner
 * lookup, on images whose files were built by hand into a formatted volume.
 *
 * Seed images (formatted once into memory devices with f2fs_mkfs_format):
 * the root gets a directory "d1" holding a sparse file whose tree reaches a
 * direct, an indirect and a double indirect node, a file with inline data,
 * two symlinks (a data block, inline), a compressed file (second seed), an
 * inline subdirectory naming them again, and a second dentry block reached
 * through a direct node.  Their nodes sit in one free segment and their
 * data in another, with NAT entries and segment summaries to match.
 *
 * Input format: byte 0 holds flags, the rest is cut into 4 KiB chunks that
 * replace, in order, a fixed list of the built blocks (see build(): the
 * file's nodes first, then the directories, the NAT block, the other
 * inodes, the root, the summaries).  A short input replaces a prefix only.
 *
 *   flags bit 0   which seed image (0: no extra attributes, 1: extra
 *                 attributes, flexible inline xattrs, compression)
 *         bit 1   also scan the main area for the file's node copies
 *         bit 2   follow directory entries to the inodes they name
 *
 * Every input opens the volume, reads the built inodes (and a few nids
 * derived from the input), walks their blocks, entries and contents, and
 * looks up the owner of every overlaid block.  Besides memory errors, the
 * target aborts when a contract of f2fs/read.h is broken: an error other
 * than the documented ones (a damaged tree must be -EUCLEAN), blocks out
 * of file order or outside the main area, a name that is empty, too long,
 * not terminated or a dot entry, contents past i_size, an owner that
 * contradicts itself.
 *
 * Built with -DUSE_LIBFUZZER it is a libFuzzer target; otherwise main() is
 * the standalone driver of fuzz_driver.c, as for fuzz_parsers.c:
 *   fuzz_read FILE...                    replay inputs
 *   fuzz_read -n N [-s SEED] [-f FIRST] [-S SAVE] [-q]
 *   fuzz_read -C DIR                     write the seed corpus
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/read.h"

#include "fuzz_driver.h"

#define BLK	   F2FS_BLKSIZE
#define N	   F2FS_NIDS_PER_BLOCK
#define MAX_CHUNKS 32
#define NR_SEEDS   2

#define FL_SEED	  0x01
#define FL_SCAN	  0x02
#define FL_FOLLOW 0x04

/* What a chunk overlays: where a mutation is worth aiming. */
enum role { R_NODE, R_DENT, R_NAT, R_SSA, R_DATA };

/* The inodes built into a seed, walked by every input. */
enum { I_ROOT, I_FILE, I_INLINE, I_LINK, I_ILINK, I_COMPR, I_DIR, I_IDIR, NR_INOS };

struct seed {
	struct fuzz_image img;
	uint32_t feat;
	uint32_t ino[NR_INOS];
	/* while building */
	uint64_t node_next, data_next;
	uint32_t node_seg, data_seg, next_nid, main_blkaddr, ssa_blkaddr;
	uint64_t nat0_addr, root_dent, data_first;
	union {
		struct f2fs_nat_block nat0; /* one byte short of a block */
		uint8_t nat0_raw[BLK];
	};
	struct f2fs_summary_block ssa_node, ssa_data;
};

_Static_assert(MAX_CHUNKS <= FUZZ_MAX_CHUNKS, "block list longer than the driver's");

static struct seed seeds[NR_SEEDS] = {
    {.img = {.name = "plain", .features = "", .segs_per_sec = 1, .bytes = 64ull << 20}},
    {.img = {.name = "extra",
	     .features = "extra_attr,inode_checksum,flexible_inline_xattr,compression,lost_found",
	     .segs_per_sec = 1,
	     .bytes = 64ull << 20}},
};

/* ---- building the seed images ---- */

static void value(struct seed *s, uint32_t v)
{
	if (s->img.nvalues < FUZZ_MAX_VALUES)
		s->img.values[s->img.nvalues++] = v;
}

static void chunk(struct seed *s, uint64_t blk, enum role r)
{
	if (s->img.nblocks < MAX_CHUNKS) {
		s->img.blk[s->img.nblocks] = blk;
		s->img.role[s->img.nblocks++] = (uint8_t)r;
	}
}

static void init_node(struct f2fs_node *n, uint32_t nid, uint32_t ino, uint32_t ofs)
{
	memset(n, 0, sizeof(*n));
	n->footer.nid = le32_put(nid);
	n->footer.ino = le32_put(ino);
	n->footer.flag = le32_put(ofs << F2FS_OFFSET_BIT_SHIFT);
}

static void init_inode(struct seed *s, struct f2fs_node *n, uint32_t ino, uint16_t mode,
		       uint8_t inline_flags)
{
	init_node(n, ino, ino, 0);
	n->i.i_mode = le16_put(mode);
	n->i.i_links = le32_put(1);
	n->i.i_inline = inline_flags;
	if (s->feat & F2FS_FEATURE_EXTRA_ATTR) {
		n->i.i_inline |= F2FS_EXTRA_ATTR;
		n->i.i_extra_isize = le16_put(f2fs_extra_isize_for(s->feat));
	}
	if ((s->feat & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && !(inline_flags & F2FS_INLINE_DATA)) {
		n->i.i_inline |= F2FS_INLINE_XATTR;
		n->i.i_inline_xattr_size = le16_put(10);
	}
}

static void set_addr(struct f2fs_node *n, unsigned int i, uint32_t a)
{
	n->i.i_addr[f2fs_inode_first_addr(&n->i) + i] = le32_put(a);
}

/* Write node @n into the node segment; NAT entry and summary to match. */
static uint32_t put_node(struct seed *s, struct f2fs_node *n, bool as_chunk)
{
	uint64_t blk = s->node_next++;
	uint32_t nid = le32_get(n->footer.nid);

	if (nid >= F2FS_NAT_ENTRY_PER_BLOCK)
		fuzz_die("seed %s: nid %u is not in NAT block 0", s->img.name, nid);
	fuzz_write_block(&s->img, blk, n);
	s->nat0.entries[nid].ino = n->footer.ino;
	s->nat0.entries[nid].block_addr = le32_put((uint32_t)blk);
	s->ssa_node.entries[blk % F2FS_DEFAULT_BLKS_PER_SEG].nid = le32_put(nid);
	if (as_chunk)
		chunk(s, blk, R_NODE);
	value(s, nid);
	value(s, (uint32_t)blk);
	return (uint32_t)blk;
}

/* Write a data block of node @owner (slot @ofs_in_node) into the data segment. */
static uint32_t put_data(struct seed *s, const void *buf, uint32_t owner, unsigned int ofs_in_node)
{
	uint64_t blk = s->data_next++;
	struct f2fs_summary *e = &s->ssa_data.entries[blk % F2FS_DEFAULT_BLKS_PER_SEG];

	fuzz_write_block(&s->img, blk, buf);
	e->nid = le32_put(owner);
	e->ofs_in_node = le16_put((uint16_t)ofs_in_node);
	return (uint32_t)blk;
}

static uint32_t pattern_block(struct seed *s, uint32_t owner, unsigned int ofs_in_node,
			      uint8_t byte)
{
	uint8_t b[BLK];

	memset(b, byte, sizeof(b));
	return put_data(s, b, owner, ofs_in_node);
}

/* The sparse file: inode addresses, direct node 1, indirect 1 -> child 1, double indirect. */
static void build_file(struct seed *s)
{
	uint32_t ino = s->ino[I_FILE] = s->next_nid++;
	uint32_t d1 = s->next_nid++, ind1 = s->next_nid++, d2 = s->next_nid++;
	uint32_t dind = s->next_nid++, ind2 = s->next_nid++, d3 = s->next_nid++;
	uint32_t ofs_ind2 = f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()) + 1,
		 ofs_d3 = ofs_ind2 + 1 + 3;
	struct f2fs_node n, node;
	unsigned int addrs, per;

	init_inode(s, &n, ino, S_IFREG | 0644, 0);
	addrs = f2fs_inode_addrs(f2fs_blkgeo_4k(), &n.i, s->feat);
	per = f2fs_direct_addrs(f2fs_blkgeo_4k(), &n.i);
	set_addr(&n, 0, pattern_block(s, ino, 0, 'a'));
	set_addr(&n, 1, pattern_block(s, ino, 1, 'b'));
	set_addr(&n, 2, pattern_block(s, ino, 2, 'c'));
	set_addr(&n, 10, F2FS_NEW_ADDR);
	n.i.i_nid[0] = le32_put(d1);
	n.i.i_nid[2] = le32_put(ind1);
	n.i.i_nid[4] = le32_put(dind);
	n.i.i_size =
	    le64_put((f2fs_node_first_block(f2fs_blkgeo_4k(), ofs_d3, addrs, per) + 8) * BLK - 100);
	n.i.i_blocks = le64_put(14);
	put_node(s, &n, true);

	init_node(&node, d1, ino, F2FS_NODE_OFS_DIRECT1);
	node.dn.addr[0] = le32_put(pattern_block(s, d1, 0, 'd'));
	node.dn.addr[1] = le32_put(pattern_block(s, d1, 1, 'e'));
	put_node(s, &node, true);
	init_node(&node, ind1, ino, F2FS_NODE_OFS_INDIRECT1);
	node.in.nid[1] = le32_put(d2);
	put_node(s, &node, true);
	init_node(&node, d2, ino,
		  f2fs_node_child_ofs(f2fs_blkgeo_4k(), F2FS_NODE_OFS_INDIRECT1, 1, 1));
	node.dn.addr[5] = le32_put(pattern_block(s, d2, 5, 'f'));
	put_node(s, &node, true);
	init_node(&node, dind, ino, f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()));
	node.in.nid[0] = le32_put(ind2);
	put_node(s, &node, true);
	init_node(&node, ind2, ino, ofs_ind2);
	node.in.nid[3] = le32_put(d3);
	put_node(s, &node, true);
	init_node(&node, d3, ino, ofs_d3);
	node.dn.addr[7] = le32_put(pattern_block(s, d3, 7, 'g'));
	put_node(s, &node, true);
	value(s, F2FS_NODE_OFS_DIRECT1);
	value(s, F2FS_NODE_OFS_INDIRECT1);
	value(s, f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()));
	value(s, ofs_ind2);
	value(s, ofs_d3);
}

/* Inline data: a file and a symlink. */
static void build_inline(struct seed *s, uint32_t ino, uint16_t mode, const char *text)
{
	struct f2fs_node n;
	size_t len = strlen(text);

	init_inode(s, &n, ino, mode, F2FS_INLINE_DATA | F2FS_DATA_EXIST);
	memcpy((uint8_t *)f2fs_inline_data(&n.i), text, len);
	n.i.i_size = le64_put(len);
	put_node(s, &n, true);
}

static void build_link(struct seed *s)
{
	static const char target[] = "../a/symlink/target";
	uint32_t ino = s->ino[I_LINK] = s->next_nid++;
	struct f2fs_node n;
	uint8_t b[BLK] = {0};
	uint32_t blk;

	memcpy(b, target, sizeof(target) - 1);
	init_inode(s, &n, ino, S_IFLNK | 0777, 0);
	blk = put_data(s, b, ino, 0);
	set_addr(&n, 0, blk);
	n.i.i_size = le64_put(sizeof(target) - 1);
	put_node(s, &n, true);
	chunk(s, blk, R_DATA);
}

static void build_compressed(struct seed *s)
{
	uint32_t ino = s->ino[I_COMPR] = s->next_nid++;
	struct f2fs_node n;
	unsigned int i;

	init_inode(s, &n, ino, S_IFREG | 0644, 0);
	n.i.i_flags = le32_put(F2FS_COMPR_FL);
	n.i.i_log_cluster_size = 2;
	set_addr(&n, 0, F2FS_COMPRESS_ADDR);
	for (i = 1; i < 4; i++)
		set_addr(&n, i, pattern_block(s, ino, i, (uint8_t)('h' + i)));
	n.i.i_size = le64_put(4 * BLK);
	put_node(s, &n, true);
}

/* Store an entry at @slot of a dentry area. */
static void area_put(struct f2fs_dentry_area *a, unsigned int slot, const char *name, uint32_t ino,
		     uint8_t type)
{
	size_t len = strlen(name);
	unsigned int i;

	if (slot + f2fs_name_slots(len) > a->nr)
		fuzz_die("entry %s does not fit", name);
	a->dentry[slot].hash_code = le32_put(f2fs_dentry_hash((const unsigned char *)name, len));
	a->dentry[slot].ino = le32_put(ino);
	a->dentry[slot].name_len = le16_put((uint16_t)len);
	a->dentry[slot].file_type = type;
	memcpy(a->names + (size_t)slot * F2FS_SLOT_LEN, name, len);
	for (i = 0; i < f2fs_name_slots(len); i++)
		f2fs_set_bit_lsb(a->bitmap, slot + i);
}

/* Entries naming the built files from @slot on; returns the next free slot. */
static unsigned int put_files(struct seed *s, struct f2fs_dentry_area *a, unsigned int slot)
{
	static const char *const names[NR_INOS] = {[I_FILE] = "sparse-file-through-double-indirect",
						   [I_INLINE] = "inline",
						   [I_LINK] = "link",
						   [I_ILINK] = "inline-link",
						   [I_COMPR] = "compressed"};
	static const uint8_t types[NR_INOS] = {[I_FILE] = F2FS_FT_REG_FILE,
					       [I_INLINE] = F2FS_FT_REG_FILE,
					       [I_LINK] = F2FS_FT_SYMLINK,
					       [I_ILINK] = F2FS_FT_SYMLINK,
					       [I_COMPR] = F2FS_FT_REG_FILE};
	int i;

	for (i = I_FILE; i <= I_COMPR; i++) {
		if (!s->ino[i])
			continue;
		area_put(a, slot, names[i], s->ino[i], types[i]);
		slot += f2fs_name_slots(strlen(names[i])) + 1;
	}
	return slot;
}

static void build_dirs(struct seed *s)
{
	uint32_t dir = s->ino[I_DIR], idir = s->ino[I_IDIR], dd1 = s->next_nid++;
	struct f2fs_dentry_block b;
	struct f2fs_dentry_area a;
	struct f2fs_node n, node;
	uint32_t blk_a, blk_b;
	unsigned int i, slot;
	char name[32];

	/* the directory: block 0 with the files, block 1 a hole, one more through a direct node */
	memset(&b, 0, sizeof(b));
	f2fs_dentry_block_area(f2fs_blkgeo_4k(), &b, &a);
	area_put(&a, 0, ".", dir, F2FS_FT_DIR);
	area_put(&a, 1, "..", 3, F2FS_FT_DIR);
	slot = put_files(s, &a, 2);
	area_put(&a, slot, "sub", idir, F2FS_FT_DIR);
	blk_a = put_data(s, &b, dir, 0);
	memset(&b, 0, sizeof(b));
	for (i = 0, slot = 0; i < 30; i++) {
		snprintf(name, sizeof(name), "entry-in-block-two-%02u", i);
		area_put(&a, slot, name, s->ino[i % 2 ? I_INLINE : I_FILE], F2FS_FT_REG_FILE);
		slot += f2fs_name_slots(strlen(name)) + (i % 3 == 0);
	}
	blk_b = put_data(s, &b, dd1, 3);
	init_inode(s, &n, dir, S_IFDIR | 0755, 0);
	set_addr(&n, 0, blk_a);
	n.i.i_nid[0] = le32_put(dd1);
	n.i.i_size =
	    le64_put((uint64_t)(f2fs_inode_addrs(f2fs_blkgeo_4k(), &n.i, s->feat) + 4) * BLK);
	n.i.i_links = le32_put(3);
	put_node(s, &n, true);
	chunk(s, blk_a, R_DENT);
	init_node(&node, dd1, dir, F2FS_NODE_OFS_DIRECT1);
	node.dn.addr[3] = le32_put(blk_b);
	put_node(s, &node, true);
	chunk(s, blk_b, R_DENT);

	/* the inline subdirectory names the files again, and its parent */
	init_inode(s, &n, idir, S_IFDIR | 0755, F2FS_INLINE_DENTRY);
	if (f2fs_inline_dentry_area(f2fs_blkgeo_4k(), &n.i, s->feat, &a))
		fuzz_die("seed %s: no inline dentry area", s->img.name);
	area_put(&a, 0, ".", idir, F2FS_FT_DIR);
	area_put(&a, 1, "..", dir, F2FS_FT_DIR);
	slot = put_files(s, &a, 2);
	area_put(&a, slot, "up", dir, F2FS_FT_DIR);
	put_node(s, &n, true);
}

/* "d1" in the root's dentry block, in the first free slot after the dots. */
static void link_into_root(struct seed *s)
{
	struct f2fs_dentry_block b;
	struct f2fs_dentry_area a;
	unsigned int slot = 2;

	fuzz_read_block(&s->img, s->root_dent, &b);
	f2fs_dentry_block_area(f2fs_blkgeo_4k(), &b, &a);
	while (slot < a.nr && f2fs_test_bit_lsb(a.bitmap, slot))
		slot++;
	area_put(&a, slot, "d1", s->ino[I_DIR], F2FS_FT_DIR);
	fuzz_write_block(&s->img, s->root_dent, &b);
}

static bool is_open_log(const struct f2fs_checkpoint *cp, uint32_t segno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_NODE_TYPE; i++)
		if (le32_get(cp->cur_node_segno[i]) == segno ||
		    le32_get(cp->cur_data_segno[i]) == segno)
			return true;
	return false;
}

/* Where things are, from the volume as a reader finds it. */
static void locate(struct seed *s)
{
	const struct f2fs_cp_data *cpd;
	const struct f2fs_nat_table *nat;
	struct f2fs_fs *fs;
	struct f2fs_node root;
	char why[256] = "";
	uint32_t segs;

	if (f2fs_fs_open(s->img.dev, F2FS_FS_READ, &fs, why, sizeof(why)) ||
	    f2fs_fs_cp_data(fs, &cpd) || f2fs_fs_nat(fs, &nat))
		fuzz_die("seed %s: cannot open the fresh image: %s %s", s->img.name, why,
			 fs ? f2fs_fs_why(fs) : "");
	s->main_blkaddr = f2fs_fs_geo(fs)->main_blkaddr;
	s->ssa_blkaddr = le32_get(f2fs_fs_sb(fs)->ssa_blkaddr);
	segs = f2fs_fs_geo(fs)->main_segs;
	s->node_seg = segs - 2;
	while (is_open_log(f2fs_fs_cp(fs), s->node_seg))
		s->node_seg--;
	s->data_seg = s->node_seg - 1;
	while (is_open_log(f2fs_fs_cp(fs), s->data_seg))
		s->data_seg--;
	s->node_next = f2fs_geo_seg_start(f2fs_fs_geo(fs), s->node_seg);
	s->data_next = f2fs_geo_seg_start(f2fs_fs_geo(fs), s->data_seg);
	s->data_first = s->data_next;
	s->nat0_addr =
	    f2fs_nat_block_addr(f2fs_fs_sb(fs), 0, f2fs_test_bit_msb(cpd->nat_bitmap, 0));
	s->ino[I_ROOT] = le32_get(f2fs_fs_sb(fs)->root_ino);
	if (f2fs_read_inode(fs, s->ino[I_ROOT], &root))
		fuzz_die("seed %s: cannot read the root", s->img.name);
	s->root_dent = le32_get(root.i.i_addr[f2fs_inode_first_addr(&root.i)]);
	chunk(s, f2fs_nat_get(nat, s->ino[I_ROOT])->blkaddr, R_NODE);
	f2fs_fs_close(fs);
}

static void build(struct seed *s)
{
	locate(s);
	fuzz_read_block(&s->img, s->nat0_addr, s->nat0_raw);
	s->ssa_node.footer.entry_type = F2FS_SUM_TYPE_NODE;
	s->ssa_data.footer.entry_type = F2FS_SUM_TYPE_DATA;
	s->next_nid = 100;
	build_file(s);
	s->ino[I_DIR] = s->next_nid++;
	s->ino[I_IDIR] = s->next_nid++;
	s->ino[I_INLINE] = s->next_nid++;
	s->ino[I_ILINK] = s->next_nid++;
	build_inline(s, s->ino[I_INLINE], S_IFREG | 0644, "inline data of a small file");
	build_inline(s, s->ino[I_ILINK], S_IFLNK | 0777, "inline/target");
	build_link(s);
	if (s->feat & F2FS_FEATURE_COMPRESSION)
		build_compressed(s);
	build_dirs(s);
	link_into_root(s);
	fuzz_write_block(&s->img, s->nat0_addr, s->nat0_raw);
	chunk(s, s->nat0_addr, R_NAT);
	chunk(s, s->root_dent, R_DENT);
	fuzz_write_block(&s->img, s->ssa_blkaddr + s->node_seg, &s->ssa_node);
	chunk(s, s->ssa_blkaddr + s->node_seg, R_SSA);
	fuzz_write_block(&s->img, s->ssa_blkaddr + s->data_seg, &s->ssa_data);
	chunk(s, s->ssa_blkaddr + s->data_seg, R_SSA);
	chunk(s, s->data_first, R_DATA); /* the file's first data block */
	value(s, 0);
	value(s, 3);
	value(s, s->main_blkaddr);
	value(s, F2FS_NEW_ADDR);
	value(s, F2FS_COMPRESS_ADDR);
	value(s, F2FS_XATTR_NODE_OFFSET);
}

/* After mkfs: build the files, list the blocks. */
static void build_seed(unsigned int k, uint32_t features, const struct f2fs_layout *l)
{
	(void)l;
	seeds[k].feat = features;
	build(&seeds[k]);
}

/* ---- one input: walk everything, check the contracts ---- */

static struct {
	unsigned long long inputs, opened, inodes, walked, unclean, entries, owners;
} stats;

struct blocks_check {
	const struct f2fs_geometry *g;
	uint64_t last;
	bool any;
};

/* The largest file block a tree can address, plus one. */
#define MAX_FILE_BLOCKS                                                                            \
	(F2FS_DEF_ADDRS_PER_INODE + (uint64_t)F2FS_ADDRS_PER_BLOCK * (2 + 2 * N + (uint64_t)N * N))

static int on_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct blocks_check *b = arg;

	if (b->any && file_block <= b->last)
		fuzz_die("walk: file block %llu after %llu", (unsigned long long)file_block,
			 (unsigned long long)b->last);
	if (file_block >= MAX_FILE_BLOCKS)
		fuzz_die("walk: file block %llu past any tree", (unsigned long long)file_block);
	if (blkaddr != F2FS_NEW_ADDR && blkaddr != F2FS_COMPRESS_ADDR &&
	    !f2fs_geo_in_main(b->g, blkaddr))
		fuzz_die("walk: address 0x%x outside the main area", blkaddr);
	b->any = true;
	b->last = file_block;
	return 0;
}

#define MAX_FOLLOW 24

struct entries_check {
	uint32_t found[MAX_FOLLOW];
	unsigned int nfound;
};

static int on_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct entries_check *e = arg;

	(void)type;
	if (len == 0 || len > F2FS_NAME_LEN)
		fuzz_die("dentry: name length %zu", len);
	if (name[len] != '\0' || strlen(name) > len)
		fuzz_die("dentry: name of %zu bytes not terminated", len);
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		fuzz_die("dentry: dot entry passed");
	if (e->nfound < MAX_FOLLOW)
		e->found[e->nfound++] = ino;
	stats.entries++;
	return 0;
}

struct data_check {
	uint64_t size, next;
};

static int on_data(uint64_t off, const void *data, size_t len, void *arg)
{
	struct data_check *d = arg;
	volatile uint8_t sink = 0;
	size_t i;

	if (off < d->next || len == 0 || len > BLK || off + len > d->size)
		fuzz_die("contents: %zu bytes at %llu (i_size %llu, after %llu)", len,
			 (unsigned long long)off, (unsigned long long)d->size,
			 (unsigned long long)d->next);
	for (i = 0; i < len; i += 512)
		sink ^= ((const uint8_t *)data)[i]; /* the bytes must be readable */
	(void)sink;
	d->next = off + len;
	return 0;
}

static void expect_ret(const char *what, uint32_t ino, int ret, int ok1, int ok2)
{
	if (ret != 0 && ret != -EUCLEAN && ret != ok1 && ret != ok2)
		fuzz_die("%s of inode %u: %d", what, ino, ret);
	stats.unclean += ret == -EUCLEAN;
}

static void read_contents(struct f2fs_fs *fs, uint32_t ino, const struct f2fs_node *n)
{
	struct data_check d = {.size = le64_get(n->i.i_size)};
	uint8_t buf[2 * BLK + 1];
	char target[BLK + 1];
	size_t done = 0;
	uint16_t mode = le16_get(n->i.i_mode);
	int ret;

	ret = f2fs_file_for_each_data(fs, n, on_data, &d);
	expect_ret("contents", ino, ret, -EOPNOTSUPP, 0);
	ret = f2fs_file_pread(fs, n, buf, sizeof(buf), BLK - 7, &done);
	expect_ret("pread", ino, ret, -EOPNOTSUPP, 0);
	if (done > sizeof(buf) || (d.size <= BLK - 7 && done) ||
	    (d.size > BLK - 7 && !ret &&
	     done != (d.size - (BLK - 7) < sizeof(buf) ? d.size - (BLK - 7) : sizeof(buf))))
		fuzz_die("pread of inode %u: %zu bytes of %llu", ino, done,
			 (unsigned long long)d.size);
	if (S_ISLNK(mode)) {
		ret = f2fs_symlink_target(fs, n, target, sizeof(target));
		expect_ret("symlink", ino, ret, -EOPNOTSUPP, 0);
		if (!ret && strlen(target) != d.size)
			fuzz_die("symlink %u: target of %zu bytes, i_size %llu", ino,
				 strlen(target), (unsigned long long)d.size);
	}
}

/* Read inode @ino and walk what it has; follow its entries @depth more levels. */
static void exercise(struct f2fs_fs *fs, uint32_t ino, int depth, unsigned int flags,
		     uint32_t *visited, unsigned int *nvisited)
{
	struct blocks_check b = {.g = f2fs_fs_geo(fs)};
	struct entries_check e = {.nfound = 0};
	struct f2fs_node *n;
	unsigned int i;
	int ret;

	for (i = 0; i < *nvisited; i++)
		if (visited[i] == ino)
			return;
	if (*nvisited >= 64)
		return;
	visited[(*nvisited)++] = ino;
	n = malloc(sizeof(*n));
	if (!n)
		fuzz_die("out of memory");
	ret = f2fs_read_inode(fs, ino, n);
	expect_ret("f2fs_read_inode", ino, ret, -ENOENT, 0);
	if (ret)
		goto out;
	stats.inodes++;
	ret = f2fs_file_for_each_block(fs, n, on_block, &b);
	expect_ret("f2fs_file_for_each_block", ino, ret, 0, 0);
	stats.walked += !ret;
	ret = f2fs_dir_for_each_entry(fs, n, on_entry, &e);
	expect_ret("f2fs_dir_for_each_entry", ino, ret, -ENOTDIR, 0);
	if (S_ISDIR(le16_get(n->i.i_mode)) != (ret != -ENOTDIR))
		fuzz_die("dir walk of inode %u (mode 0%o): %d", ino, le16_get(n->i.i_mode), ret);
	if (!S_ISDIR(le16_get(n->i.i_mode)))
		read_contents(fs, ino, n);
	if (depth > 0 && (flags & FL_FOLLOW))
		for (i = 0; i < e.nfound; i++)
			exercise(fs, e.found[i], depth - 1, flags, visited, nvisited);
out:
	free(n);
}

static void check_owner(struct f2fs_fs *fs, uint64_t blkaddr)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);
	struct f2fs_block_owner o;
	int ret = f2fs_block_owner(fs, blkaddr, &o);

	if (!f2fs_geo_in_main(g, blkaddr)) {
		if (ret != -ERANGE)
			fuzz_die("owner of 0x%llx outside the main area: %d",
				 (unsigned long long)blkaddr, ret);
		return;
	}
	if (ret == -ERANGE || ret > 0 || ret == -ENOMEM)
		fuzz_die("owner of 0x%llx: %d", (unsigned long long)blkaddr, ret);
	if (ret)
		return;
	stats.owners++;
	if (o.segno != f2fs_geo_segno(g, blkaddr) || o.offset != f2fs_geo_blkoff(g, blkaddr))
		fuzz_die("owner of 0x%llx: segment %u offset %u", (unsigned long long)blkaddr,
			 o.segno, o.offset);
	if (!o.seg.blk || o.seg.open_log < -1 || o.seg.open_log >= F2FS_NR_CURSEG_TYPE ||
	    o.seg.kind > F2FS_SUM_NODE || o.kind > F2FS_OWNER_NODE)
		fuzz_die("owner of 0x%llx: summary %p, log %d, kinds %d/%d",
			 (unsigned long long)blkaddr, (const void *)o.seg.blk, o.seg.open_log,
			 o.seg.kind, o.kind);
	if (o.kind != F2FS_OWNER_OBSOLETE && (!o.in_nat || o.ino != o.nat_ino))
		fuzz_die("owner of 0x%llx: kind %d without its NAT entry",
			 (unsigned long long)blkaddr, o.kind);
	if (o.has_file_block && (o.kind != F2FS_OWNER_DATA || o.file_block >= MAX_FILE_BLOCKS))
		fuzz_die("owner of 0x%llx: file block %llu for kind %d",
			 (unsigned long long)blkaddr, (unsigned long long)o.file_block, o.kind);
	if (o.kind == F2FS_OWNER_INODE && o.nid != o.ino)
		fuzz_die("owner of 0x%llx: inode block of nid %u, ino %u",
			 (unsigned long long)blkaddr, o.nid, o.ino);
}

struct scan_check {
	uint32_t ino;
	unsigned int copies;
};

static int on_copy(const struct f2fs_inode_copy *c, void *arg)
{
	struct scan_check *s = arg;

	if (le32_get(c->node->footer.nid) != s->ino || le32_get(c->node->footer.ino) != s->ino)
		fuzz_die("scan: a copy whose footer is not inode %u's", s->ino);
	s->copies++;
	return 0;
}

static void run_fs(struct seed *s, struct f2fs_device *dev, unsigned int flags, uint32_t extra)
{
	const struct f2fs_nat_table *nat;
	struct f2fs_fs *fs = NULL;
	uint32_t visited[64];
	unsigned int nvisited = 0, i;
	char why[200] = "";
	int ret;

	ret = f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why));
	if (ret)
		return; /* no overlay touches the superblocks or packs */
	stats.opened++;
	ret = f2fs_fs_nat(fs, &nat);
	if (ret) {
		/* every reader fails with the NAT's error */
		struct f2fs_node n;

		if (f2fs_read_inode(fs, 3, &n) != ret)
			fuzz_die("f2fs_read_inode with an unloadable NAT (%d)", ret);
		f2fs_fs_close(fs);
		return;
	}
	for (i = 0; i < NR_INOS; i++)
		if (s->ino[i])
			exercise(fs, s->ino[i], 2, flags, visited, &nvisited);
	exercise(fs, extra % (f2fs_nat_max_nid(nat) + 8), 1, flags, visited, &nvisited);
	for (i = 0; i < s->img.nblocks; i++)
		check_owner(fs, s->img.blk[i]);
	check_owner(fs, f2fs_fs_geo(fs)->main_blkaddr);
	check_owner(fs, f2fs_fs_geo(fs)->main_end - 1);
	check_owner(fs, f2fs_fs_geo(fs)->main_end);
	check_owner(fs, 0);
	check_owner(fs, f2fs_fs_geo(fs)->main_blkaddr + extra % f2fs_fs_geo(fs)->main_blocks);
	if (flags & FL_SCAN) {
		struct scan_check sc = {.ino = s->ino[I_FILE]};

		ret = f2fs_find_inode_copies(fs, sc.ino, on_copy, NULL, &sc);
		if (ret)
			fuzz_die("scan for inode %u: %d", sc.ino, ret);
	}
	f2fs_fs_close(fs);
}

static void run(unsigned int k, unsigned int flags, const uint8_t *data, size_t size)
{
	uint32_t extra = 0;
	size_t i;

	stats.inputs++;
	for (i = 0; i < size && i < 64; i++)
		extra = extra * 31 + data[size - 1 - i];
	run_fs(&seeds[k], seeds[k].img.dev, flags, extra);
}

/* A byte offset worth hitting in a block of role @r. */
static size_t hot_offset(enum role r)
{
	static const uint16_t inode_spots[] = {0,   3,	  16,	24,   360,  362, 364,
					       368, 4052, 4056, 4060, 4064, 4068};

	switch (r) {
	case R_NODE:
		switch (fuzz_rnd_below(4)) {
		case 0:
			return BLK - 24 + fuzz_rnd_below(24); /* footer */
		case 1:
			return inode_spots[fuzz_rnd_below(sizeof(inode_spots) /
							  sizeof(inode_spots[0]))];
		case 2:
			return 4 * fuzz_rnd_below(16); /* first addresses or nids */
		default:
			return 360 + 4 * fuzz_rnd_below(16); /* the inode's first addresses */
		}
	case R_DENT:
		return fuzz_rnd_below(2) ? fuzz_rnd_below(F2FS_DENTRY_BITMAP_SIZE)
					 : 30 + fuzz_rnd_below(16 * F2FS_DIR_ENTRY_SIZE);
	case R_NAT:
		/* the built nids' entries: version, ino, block address */
		return (100 + fuzz_rnd_below(40)) * sizeof(struct f2fs_nat_entry) +
		       fuzz_rnd_below(9);
	case R_SSA:
		return fuzz_rnd_below(4) ? fuzz_rnd_below(40) * F2FS_SUMMARY_SIZE
					 : BLK - 5 + fuzz_rnd_below(5);
	default:
		return fuzz_rnd_below(64);
	}
}

/* Standalone: a random input's flags. */
static uint8_t random_flags(void)
{
	uint8_t flags = (uint8_t)fuzz_rnd_below(NR_SEEDS);

	if (fuzz_rnd_below(8) == 0)
		flags |= FL_SCAN;
	if (fuzz_rnd_below(2))
		flags |= FL_FOLLOW;
	return flags;
}

/* Standalone: where a mutation goes, mostly a field the walks use. */
static size_t aim(unsigned int k)
{
	const struct fuzz_image *s = &seeds[k].img;
	uint32_t c = fuzz_rnd_below(s->nblocks);
	size_t ofs = fuzz_rnd_below(3) ? hot_offset((enum role)s->role[c]) : fuzz_rnd_below(BLK);

	return 1 + (size_t)c * BLK + ofs;
}

/* FUZZ_VALUE: a nid, an address or a tree offset of this image: loops, sharing */
static const enum fuzz_op ops[] = {FUZZ_FLIP,  FUZZ_BYTE,  FUZZ_VALUE,
				   FUZZ_MAGIC, FUZZ_NUDGE, FUZZ_FILL};

static const uint64_t magic[] = {0,	 1,	     2,		 3,	     0x7f,
				 0xff,	 0x100,	     0x3ff,	 0xfff,	     0x1000,
				 0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};

static void report(void)
{
	printf("fuzz_read: opened %llu, inodes read %llu, trees walked %llu, -EUCLEAN "
	       "%llu, entries %llu, owners %llu\n",
	       stats.opened, stats.inodes, stats.walked, stats.unclean, stats.entries,
	       stats.owners);
}

const struct fuzz_target fuzz_target = {
    .name = "fuzz_read",
    .images = {&seeds[0].img, &seeds[1].img},
    .nr_images = NR_SEEDS,
    .image_mask = FL_SEED,
    .max_chunks = MAX_CHUNKS,
    .corpus_flags = FL_FOLLOW,
    .build = build_seed,
    .run = run,
    .random_flags = random_flags,
    .aim = aim,
    .mutate = {.few = 3,
	       .many = 16,
	       .ops = ops,
	       .nr_ops = sizeof(ops) / sizeof(ops[0]),
	       .magic = magic,
	       .nr_magic = sizeof(magic) / sizeof(magic[0]),
	       .nudge = 2,
	       .fill = 32},
    .report = report,
};
