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
#include "f2fs/read.h"
#include "f2fs/node.h"

/* The NAT entry of @nid, or NULL (also when the NAT cannot be loaded: *err says why). */
static const struct f2fs_nat_info *nat_entry(struct f2fs_fs *fs, uint32_t nid, int *err)
{
	const struct f2fs_nat_table *nat;

	*err = f2fs_fs_nat(fs, &nat);
	return *err ? NULL : f2fs_nat_get(nat, nid);
}

int f2fs_read_node(struct f2fs_fs *fs, uint32_t nid, uint32_t ino, struct f2fs_node *out)
{
	const struct f2fs_nat_info *e;
	int ret;

	e = nat_entry(fs, nid, &ret);
	if (ret)
		return ret;
	if (!e || nid == 0 || e->blkaddr == F2FS_NULL_ADDR)
		return -ENOENT;
	if (!f2fs_geo_in_main(f2fs_fs_geo(fs), e->blkaddr))
		return -EUCLEAN;
	ret = f2fs_fs_read_blocks(fs, e->blkaddr, out, 1);
	if (ret)
		return ret;
	if (le32_get(out->footer.nid) != nid || le32_get(out->footer.ino) != ino)
		return -EUCLEAN;
	return 0;
}

int f2fs_read_inode(struct f2fs_fs *fs, uint32_t ino, struct f2fs_node *out)
{
	int ret = f2fs_read_node(fs, ino, ino, out);

	if (ret)
		return ret;
	if (f2fs_node_ofs(out) != 0)
		return -EUCLEAN;
	return 0;
}

/* State shared by the levels of one walk. */
struct block_walk {
	struct f2fs_fs *fs;
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
		    !f2fs_geo_in_main(f2fs_fs_geo(w->fs), a))
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
	int ret = f2fs_read_node(w->fs, nid, w->ino, buf);

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
		uint32_t child_ofs = f2fs_node_child_ofs(ofs, (unsigned int)depth, i);

		if (child)
			ret = visit_node(w, child, child_ofs, depth - 1, first + i * child_span);
	}
out:
	free(n);
	return ret;
}

int f2fs_file_for_each_block(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_block_fn fn,
			     void *arg)
{
	const struct f2fs_inode *ri = &inode->i;
	struct block_walk w = {.fs = fs, .fn = fn, .arg = arg};
	unsigned int first, addrs, i;
	int ret;

	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return 0;
	w.ino = le32_get(inode->footer.ino);
	w.per_direct = f2fs_direct_addrs(ri);
	if (!f2fs_inode_addr_range(ri, f2fs_fs_features(fs), &first, &addrs) || w.per_direct == 0)
		return -EUCLEAN;
	ret = visit_addrs(
	    &w, (const uint8_t *)ri + offsetof(struct f2fs_inode, i_addr) + (size_t)first * 4,
	    addrs, 0);
	for (i = 0; i < F2FS_DEF_NIDS_PER_INODE && !ret; i++) {
		uint32_t nid = le32_get(ri->i_nid[i]), ofs = f2fs_inode_nid_ofs(i);

		if (nid)
			ret = visit_node(&w, nid, ofs, (int)f2fs_inode_nid_depth(i),
					 f2fs_node_first_block(ofs, addrs, w.per_direct));
	}
	return ret;
}

/* ---- directories ---- */

struct dir_walk {
	struct f2fs_fs *fs;
	f2fs_dentry_fn fn;
	void *arg;
	struct f2fs_dentry_block *blk;
	int read_err; /* of the first dentry block that could not be read */
};

static bool is_dot(const uint8_t *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* The entries of one dentry area. */
static int visit_dentries(struct dir_walk *w, const struct f2fs_dentry_area *a)
{
	char name[F2FS_NAME_LEN + 1];
	unsigned int slot = 0;
	int ret;

	while (slot < a->nr) {
		const struct f2fs_dir_entry *d = &a->dentry[slot];
		size_t len;
		unsigned int slots;

		if (!f2fs_test_bit_lsb(a->bitmap, slot)) {
			slot++;
			continue;
		}
		len = le16_get(d->name_len);
		slots = f2fs_name_slots(len);
		if (len == 0 || len > F2FS_NAME_LEN || slots > a->nr - slot)
			return -EUCLEAN;
		if (!is_dot(f2fs_dentry_name(a, slot), len)) {
			memcpy(name, f2fs_dentry_name(a, slot), len);
			name[len] = '\0';
			ret = w->fn(name, len, le32_get(d->ino), d->file_type, w->arg);
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
	struct f2fs_dentry_area a;
	int ret;

	(void)file_block;
	if (blkaddr == F2FS_NEW_ADDR || blkaddr == F2FS_COMPRESS_ADDR)
		return 0; /* never written: no entries */
	ret = f2fs_fs_read_blocks(w->fs, blkaddr, w->blk, 1);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		/* the entries of the other blocks are still worth having */
		if (!w->read_err)
			w->read_err = ret;
		return 0;
	}
	f2fs_dentry_block_area(w->blk, &a);
	return visit_dentries(w, &a);
}

int f2fs_dir_for_each_entry(struct f2fs_fs *fs, const struct f2fs_node *dir, f2fs_dentry_fn fn,
			    void *arg)
{
	const struct f2fs_inode *ri = &dir->i;
	struct dir_walk w = {.fs = fs, .fn = fn, .arg = arg};
	int ret;

	if (!S_ISDIR(le16_get(ri->i_mode)))
		return -ENOTDIR;
	if (ri->i_inline & F2FS_INLINE_DENTRY) {
		struct f2fs_dentry_area a;

		/* the area is only read here; the cast serves the one area type */
		ret = f2fs_inline_dentry_area((struct f2fs_inode *)ri, f2fs_fs_features(fs), &a);
		return ret ? ret : visit_dentries(&w, &a);
	}
	w.blk = malloc(sizeof(*w.blk));
	if (!w.blk)
		return -ENOMEM;
	ret = f2fs_file_for_each_block(fs, dir, visit_dentry_block, &w);
	free(w.blk);
	return ret ? ret : w.read_err;
}
