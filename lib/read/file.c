// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a file's blocks and a directory's entries.  The blocks come from
 * the node-tree walk (iterate.c) with the reader's node source: every node
 * through the NAT, its footer checked against the nid, inode and tree
 * offset its place implies, so a corrupted nid can neither loop nor make
 * the walk visit a node twice under different file offsets.  The first
 * node or address that does not fit ends the walk.
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

void *f2fs_block_alloc(const struct f2fs_fs *fs)
{
	return malloc(f2fs_fs_geo(fs)->blk.blksize);
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
	if (f2fs_footer_nid(&f2fs_fs_geo(fs)->blk, out) != nid ||
	    f2fs_footer_ino(&f2fs_fs_geo(fs)->blk, out) != ino)
		return -EUCLEAN;
	return 0;
}

int f2fs_read_inode(struct f2fs_fs *fs, uint32_t ino, struct f2fs_node *out)
{
	int ret = f2fs_read_node(fs, ino, ino, out);

	if (ret)
		return ret;
	if (f2fs_node_ofs(&f2fs_fs_geo(fs)->blk, out) != 0)
		return -EUCLEAN;
	return 0;
}

/* A walk of the blocks of a file (f2fs_file_for_each_block()). */
struct block_walk {
	struct f2fs_fs *fs;
	f2fs_block_fn fn;
	f2fs_file_node_fn node_fn; /* may be NULL */
	void *arg;
	int ret; /* what ended the walk: @fn's value or -EUCLEAN */
};

/* The node source of the reader: through the NAT, each footer as its place demands. */
static int read_tree_node(void *arg, const struct f2fs_tree_pos *at, struct f2fs_node *buf,
			  struct f2fs_node **out, void **ref)
{
	struct block_walk *b = arg;
	int ret = f2fs_read_node(b->fs, at->nid, at->ino, buf);

	(void)ref;
	if (ret == -ENOENT)
		return -EUCLEAN; /* a nid the tree names must exist */
	if (ret)
		return ret;
	if (f2fs_node_ofs(&f2fs_fs_geo(b->fs)->blk, buf) != at->ofs)
		return -EUCLEAN;
	*out = buf;
	return 0;
}

static unsigned int visit_block(struct f2fs_tree_addr *a, void *arg)
{
	struct block_walk *b = arg;

	if (a->addr != F2FS_NEW_ADDR && a->addr != F2FS_COMPRESS_ADDR &&
	    !f2fs_geo_in_main(f2fs_fs_geo(b->fs), a->addr))
		b->ret = -EUCLEAN;
	else
		b->ret = b->fn(a->file_block, a->addr, b->arg);
	return b->ret ? F2FS_TREE_ABORT : 0;
}

static unsigned int visit_node(const struct f2fs_tree_pos *at, void *arg)
{
	struct block_walk *b = arg;

	b->ret = b->node_fn(at->first, at->nid, b->arg);
	return b->ret ? F2FS_TREE_ABORT : 0;
}

int f2fs_file_for_each_block(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_block_fn fn,
			     void *arg)
{
	return f2fs_file_for_each_block_and_node(fs, inode, fn, NULL, arg);
}

int f2fs_file_for_each_block_and_node(struct f2fs_fs *fs, const struct f2fs_node *inode,
				      f2fs_block_fn fn, f2fs_file_node_fn node_fn, void *arg)
{
	static const struct f2fs_node_source src = {.get = read_tree_node};
	struct block_walk b = {.fs = fs, .fn = fn, .node_fn = node_fn, .arg = arg};
	struct f2fs_tree_walk w = {.flags = F2FS_TREE_READ_ONLY,
				   .features = f2fs_fs_features(fs),
				   .bg = &f2fs_fs_geo(fs)->blk,
				   .src = &src,
				   .src_arg = &b,
				   .addr = visit_block,
				   .node = node_fn ? visit_node : NULL,
				   .arg = &b};
	struct f2fs_tree_geo g;
	int ret = f2fs_tree_geometry(w.bg, inode, w.features, &g);

	if (ret)
		return ret < 0 ? ret : 0;
	if (g.per_direct == 0)
		return -EUCLEAN;
	/* a read-only walk leaves the inode as it is */
	ret = f2fs_tree_walk(&w, (struct f2fs_node *)inode, NULL);
	return ret < 0 ? ret : b.ret;
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
	f2fs_dentry_block_area(&f2fs_fs_geo(w->fs)->blk, w->blk, &a);
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
		ret = f2fs_inline_dentry_area(&f2fs_fs_geo(fs)->blk, (struct f2fs_inode *)ri,
					      f2fs_fs_features(fs), &a);
		return ret ? ret : visit_dentries(&w, &a);
	}
	w.blk = malloc(f2fs_fs_geo(fs)->blk.blksize);
	if (!w.blk)
		return -ENOMEM;
	ret = f2fs_file_for_each_block(fs, dir, visit_dentry_block, &w);
	free(w.blk);
	return ret ? ret : w.read_err;
}
