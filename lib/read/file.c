// SPDX-License-Identifier: GPL-2.0
/*
 * Walking a file's node tree and a directory's entries for reading.  The
 * tree of an inode is at most three levels below it: the inode holds data
 * addresses and five nids (two direct nodes, two indirect nodes, one double
 * indirect node).  Every node carries its offset in that tree in its footer,
 * so each node read is checked against the offset its position implies;
 * with that, a corrupted nid can neither loop nor make the walk visit a
 * node twice under different file offsets.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/file.h"
#include "f2fs/node.h"

int f2fs_blkaddr_in_main(const struct f2fs_super_block *sb, uint64_t blkaddr)
{
	uint64_t start = le32_get(sb->main_blkaddr);
	uint64_t end =
	    start + (uint64_t)le32_get(sb->segment_count_main) * F2FS_DEFAULT_BLKS_PER_SEG;

	if (end > le64_get(sb->block_count))
		end = le64_get(sb->block_count);
	return blkaddr >= start && blkaddr < end;
}

int f2fs_read_node(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		   const struct f2fs_nat_table *nat, uint32_t nid, uint32_t ino,
		   struct f2fs_node *out)
{
	const struct f2fs_nat_info *e = f2fs_nat_get(nat, nid);
	int ret;

	if (!e || nid == 0 || e->blkaddr == F2FS_NULL_ADDR)
		return -ENOENT;
	if (!f2fs_blkaddr_in_main(sb, e->blkaddr))
		return -EUCLEAN;
	ret = f2fs_dev_read(dev, out, (uint64_t)e->blkaddr * F2FS_BLKSIZE, F2FS_BLKSIZE);
	if (ret)
		return ret;
	if (le32_get(out->footer.nid) != nid || le32_get(out->footer.ino) != ino)
		return -EUCLEAN;
	return 0;
}

int f2fs_read_inode(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		    const struct f2fs_nat_table *nat, uint32_t ino, struct f2fs_node *out)
{
	int ret = f2fs_read_node(dev, sb, nat, ino, ino, out);

	if (ret)
		return ret;
	if (f2fs_node_ofs(out) != 0)
		return -EUCLEAN;
	return 0;
}

/* State shared by the levels of one walk. */
struct block_walk {
	struct f2fs_device *dev;
	const struct f2fs_super_block *sb;
	const struct f2fs_nat_table *nat;
	uint32_t ino;
	unsigned int per_direct; /* data addresses per direct node */
	f2fs_block_fn fn;
	void *arg;
};

/* @raw: @n little-endian 32-bit addresses (possibly unaligned inside a packed node) */
static int visit_addrs(struct block_walk *w, const void *raw, unsigned int n, uint64_t first)
{
	const uint8_t *p = raw;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		uint32_t a;

		memcpy(&a, p + (size_t)i * sizeof(a), sizeof(a));
		a = le32_get(a);

		if (a == F2FS_NULL_ADDR)
			continue;
		if (a != F2FS_NEW_ADDR && a != F2FS_COMPRESS_ADDR &&
		    !f2fs_blkaddr_in_main(w->sb, a))
			return -EUCLEAN;
		ret = w->fn(first + i, a, w->arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* Read node @nid expected at tree offset @ofs into @buf. */
static int read_tree_node(struct block_walk *w, uint32_t nid, uint32_t ofs, struct f2fs_node *buf)
{
	int ret = f2fs_read_node(w->dev, w->sb, w->nat, nid, w->ino, buf);

	if (ret == -ENOENT)
		return -EUCLEAN; /* a nid the tree names must exist */
	if (ret)
		return ret;
	if (f2fs_node_ofs(buf) != ofs)
		return -EUCLEAN;
	return 0;
}

/*
 * Walk the subtree of node @nid at tree offset @ofs, of @depth levels above
 * the data (0: direct node, 1: indirect, 2: double indirect), whose first
 * data address is file block @first.
 */
static int visit_node(struct block_walk *w, uint32_t nid, uint32_t ofs, int depth, uint64_t first)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	/* data blocks under one child: a direct node's, or an indirect node's */
	uint64_t child_span =
	    depth == 2 ? (uint64_t)w->per_direct * F2FS_NIDS_PER_BLOCK : w->per_direct;
	unsigned int i;
	int ret;

	if (!n)
		return -ENOMEM;
	ret = read_tree_node(w, nid, ofs, n);
	if (ret)
		goto out;
	if (depth == 0) {
		ret = visit_addrs(w, (const uint8_t *)n + offsetof(struct f2fs_direct_node, addr),
				  w->per_direct, first);
		goto out;
	}
	for (i = 0; i < F2FS_NIDS_PER_BLOCK && !ret; i++) {
		uint32_t child = le32_get(n->in.nid[i]);
		uint32_t child_ofs =
		    depth == 1 ? ofs + 1 + i : ofs + 1 + i * (F2FS_NIDS_PER_BLOCK + 1);

		if (child)
			ret = visit_node(w, child, child_ofs, depth - 1, first + i * child_span);
	}
out:
	free(n);
	return ret;
}

int f2fs_file_for_each_block(struct f2fs_device *dev, const struct f2fs_super_block *sb,
			     const struct f2fs_nat_table *nat, const struct f2fs_node *inode,
			     uint32_t features, f2fs_block_fn fn, void *arg)
{
	static const uint32_t ofs[F2FS_DEF_NIDS_PER_INODE] = {
	    F2FS_NODE_OFS_DIRECT1, F2FS_NODE_OFS_DIRECT2, F2FS_NODE_OFS_INDIRECT1,
	    F2FS_NODE_OFS_INDIRECT2, F2FS_NODE_OFS_DINDIRECT};
	static const int depth[F2FS_DEF_NIDS_PER_INODE] = {0, 0, 1, 1, 2};
	const struct f2fs_inode *ri = &inode->i;
	struct block_walk w = {.dev = dev, .sb = sb, .nat = nat, .fn = fn, .arg = arg};
	unsigned int first, addrs, i;
	uint64_t pos;
	int ret;

	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return 0;
	w.ino = le32_get(inode->footer.ino);
	w.per_direct = f2fs_direct_addrs(ri);
	first = f2fs_inode_first_addr(ri);
	addrs = f2fs_inode_addrs(ri, features);
	if (first > F2FS_DEF_ADDRS_PER_INODE || addrs > F2FS_DEF_ADDRS_PER_INODE - first ||
	    w.per_direct == 0)
		return -EUCLEAN;
	ret = visit_addrs(
	    &w, (const uint8_t *)ri + offsetof(struct f2fs_inode, i_addr) + (size_t)first * 4,
	    addrs, 0);
	pos = addrs;
	for (i = 0; i < F2FS_DEF_NIDS_PER_INODE && !ret; i++) {
		uint32_t nid = le32_get(ri->i_nid[i]);
		uint64_t span = w.per_direct;
		int d;

		for (d = 0; d < depth[i]; d++)
			span *= F2FS_NIDS_PER_BLOCK;
		if (nid)
			ret = visit_node(&w, nid, ofs[i], depth[i], pos);
		pos += span;
	}
	return ret;
}

/* ---- directories ---- */

struct dir_walk {
	struct f2fs_device *dev;
	f2fs_dentry_fn fn;
	void *arg;
	struct f2fs_dentry_block *blk;
};

static bool is_dot(const uint8_t *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* The entries of one dentry area of @nr slots. */
static int visit_dentries(struct dir_walk *w, const uint8_t *bitmap, const struct f2fs_dir_entry *d,
			  const uint8_t *names, unsigned int nr)
{
	char name[F2FS_NAME_LEN + 1];
	unsigned int slot = 0;
	int ret;

	while (slot < nr) {
		size_t len;
		unsigned int slots;

		if (!f2fs_test_bit_lsb(bitmap, slot)) {
			slot++;
			continue;
		}
		len = le16_get(d[slot].name_len);
		slots = f2fs_name_slots(len);
		if (len == 0 || len > F2FS_NAME_LEN || slots > nr - slot)
			return -EUCLEAN;
		if (!is_dot(names + (size_t)slot * F2FS_SLOT_LEN, len)) {
			memcpy(name, names + (size_t)slot * F2FS_SLOT_LEN, len);
			name[len] = '\0';
			ret = w->fn(name, len, le32_get(d[slot].ino), d[slot].file_type, w->arg);
			if (ret)
				return ret;
		}
		slot += slots;
	}
	return 0;
}

static int visit_dentry_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct dir_walk *w = arg;
	int ret;

	(void)file_block;
	if (blkaddr == F2FS_NEW_ADDR || blkaddr == F2FS_COMPRESS_ADDR)
		return 0; /* never written: no entries */
	ret = f2fs_dev_read(w->dev, w->blk, (uint64_t)blkaddr * F2FS_BLKSIZE, F2FS_BLKSIZE);
	if (ret)
		return ret;
	return visit_dentries(w, w->blk->dentry_bitmap, w->blk->dentry,
			      (const uint8_t *)w->blk->filename, F2FS_NR_DENTRY_IN_BLOCK);
}

int f2fs_dir_for_each_entry(struct f2fs_device *dev, const struct f2fs_super_block *sb,
			    const struct f2fs_nat_table *nat, const struct f2fs_node *dir,
			    uint32_t features, f2fs_dentry_fn fn, void *arg)
{
	const struct f2fs_inode *ri = &dir->i;
	struct dir_walk w = {.dev = dev, .fn = fn, .arg = arg};
	int ret;

	if (!S_ISDIR(le16_get(ri->i_mode)))
		return -ENOTDIR;
	if (ri->i_inline & F2FS_INLINE_DENTRY) {
		unsigned int bytes = f2fs_inline_data_bytes(ri, features);
		struct f2fs_inline_dentry_geo g;
		const uint8_t *area;
		size_t used;

		/* i_extra_isize must leave room for the reserved word and the area */
		if (f2fs_inode_first_addr(ri) + 1 >= F2FS_DEF_ADDRS_PER_INODE)
			return -EUCLEAN;
		area = f2fs_inline_data(ri);
		f2fs_inline_dentry_geometry(bytes, &g);
		used = g.bitmap_size + g.reserved +
		       (size_t)g.nr * (F2FS_DIR_ENTRY_SIZE + F2FS_SLOT_LEN);
		/* the area must end inside i_addr[], before i_nid[] */
		if ((size_t)(area - (const uint8_t *)ri) + used >
		    offsetof(struct f2fs_inode, i_nid))
			return -EUCLEAN;
		return visit_dentries(
		    &w, area, (const struct f2fs_dir_entry *)(area + g.bitmap_size + g.reserved),
		    area + g.bitmap_size + g.reserved + (size_t)g.nr * F2FS_DIR_ENTRY_SIZE, g.nr);
	}
	w.blk = malloc(sizeof(*w.blk));
	if (!w.blk)
		return -ENOMEM;
	ret = f2fs_file_for_each_block(dev, sb, nat, dir, features, visit_dentry_block, &w);
	free(w.blk);
	return ret;
}
