// SPDX-License-Identifier: GPL-2.0
/*
 * The node tree of a file, walked once for every caller.  An inode holds
 * data addresses and five nids: two direct nodes, two indirect nodes and
 * one double indirect node, so a walk nests at most three nodes below the
 * inode, and keeps one block per level for sources that read into the
 * walk's memory.  Every node's tree offset and first file block follow
 * from the slot naming it (f2fs/node.h), so a damaged nid can make the
 * source refuse a node but never shift the file blocks of the rest.  What
 * a walk does with an error, in which order it calls back, and whether it
 * may change anything are the caller's flags; the changes themselves go
 * to the caller's node source, since this layer writes nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/read.h"

#define LEVELS 3 /* nodes below the inode on the longest path */

/* One walk: the caller's request and the tree's shape. */
struct walk {
	const struct f2fs_tree_walk *w;
	const struct f2fs_blkgeo *bg;
	struct f2fs_tree_geo g;
	uint8_t *bufs; /* one block per level below the inode */
};

/* The walk's block size: the caller's, 4 KiB when it gave none. */
static const struct f2fs_blkgeo *walk_bg(const struct f2fs_tree_walk *w)
{
	return w->bg ? w->bg : f2fs_blkgeo_4k();
}

int f2fs_tree_geometry(const struct f2fs_blkgeo *bg, const struct f2fs_node *inode,
		       uint32_t features, struct f2fs_tree_geo *g)
{
	if (inode->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return 1;
	g->per_direct = f2fs_direct_addrs(bg, &inode->i);
	if (!f2fs_node_addr_range(bg, inode, 0, features, g->per_direct, &g->inode_start,
				  &g->inode_addrs))
		return -EUCLEAN;
	return 0;
}

/* The file blocks a node @depth levels above the data maps. */
static uint64_t node_span(const struct walk *k, unsigned int depth)
{
	uint64_t span = k->g.per_direct;

	while (depth--)
		span *= k->bg->nids_per_block;
	return span;
}

/* What a callback's @bits mean for the walk: a change refused, a stop, or go on. */
static int verdict(const struct f2fs_tree_walk *w, unsigned int bits)
{
	if ((w->flags & F2FS_TREE_READ_ONLY) && (bits & (F2FS_TREE_CHANGED | F2FS_TREE_REMOVE)))
		return -EROFS;
	return bits & F2FS_TREE_ABORT ? F2FS_TREE_ABORT : 0;
}

/* The addresses in words [@start, @start + @count) of @at's block. */
static int visit_addrs(const struct f2fs_tree_walk *w, const struct f2fs_tree_pos *at,
		       unsigned int start, unsigned int count, bool *changed)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < count && w->addr && !ret; i++) {
		struct f2fs_tree_addr a = {.node = at,
					   .index = i,
					   .file_block = at->first + i,
					   .addr = f2fs_node_word(at->blk, start + i)};
		unsigned int bits;

		if (a.file_block < w->from ||
		    (a.addr == F2FS_NULL_ADDR && !(w->flags & F2FS_TREE_HOLES)))
			continue;
		bits = w->addr(&a, w->arg);
		ret = verdict(w, bits);
		if (ret >= 0 && (bits & F2FS_TREE_CHANGED)) {
			f2fs_node_set_word(at->blk, start + i, a.addr);
			*changed = true;
		}
	}
	return ret;
}

int f2fs_tree_walk_addrs(const struct f2fs_tree_walk *w, const struct f2fs_tree_pos *at,
			 unsigned int per_direct, bool *changed)
{
	unsigned int start, count;
	bool any = false;
	int ret;

	if (!f2fs_node_addr_range(walk_bg(w), at->blk, at->ofs, w->features, per_direct, &start,
				  &count))
		return -EUCLEAN;
	ret = visit_addrs(w, at, start, count, &any);
	if (changed)
		*changed = any;
	return ret;
}

/* Where child @slot of @parent lies: its tree offset, depth and first file block. */
static void place_child(const struct walk *k, const struct f2fs_tree_pos *parent, unsigned int slot,
			struct f2fs_tree_pos *c)
{
	if (parent->ofs == 0) {
		c->ofs = f2fs_inode_nid_ofs(k->bg, slot);
		c->depth = f2fs_inode_nid_depth(slot);
	} else {
		c->ofs = f2fs_node_child_ofs(k->bg, parent->ofs, parent->depth, slot);
		c->depth = parent->depth - 1;
	}
	c->first = f2fs_node_first_block(k->bg, c->ofs, k->g.inode_addrs, k->g.per_direct);
}

/* Does the subtree at @c map only file blocks before the walk's first? */
static bool before_from(const struct walk *k, const struct f2fs_tree_pos *c)
{
	uint64_t span = node_span(k, c->depth);

	return span && c->first + span <= k->w->from;
}

/* A node the source could not give: the end of the walk, or reported and passed over. */
static int node_failed(const struct f2fs_tree_walk *w, struct f2fs_tree_pos *at, int err)
{
	if (!(w->flags & F2FS_TREE_KEEP_GOING))
		return err;
	at->blk = NULL;
	at->err = err;
	return w->node ? verdict(w, w->node(at, w->arg)) : 0;
}

static int visit_node(struct walk *k, struct f2fs_tree_pos *at, unsigned int level, bool *removed);

/* The nodes named by words [@start, @start + @count) of @parent's block. */
static int visit_children(struct walk *k, const struct f2fs_tree_pos *parent, unsigned int start,
			  unsigned int count, unsigned int level, bool *changed)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < count && !ret; i++) {
		struct f2fs_tree_pos c = {.ino = parent->ino,
					  .nid = f2fs_node_word(parent->blk, start + i),
					  .parent = parent->nid,
					  .slot = i};
		bool removed = false;

		if (!c.nid)
			continue;
		place_child(k, parent, i, &c);
		if (before_from(k, &c))
			continue;
		ret = visit_node(k, &c, level, &removed);
		if (removed) {
			f2fs_node_set_word(parent->blk, start + i, 0);
			*changed = true;
		}
	}
	return ret;
}

/* What a node holds: addresses (a direct node) or more nodes. */
static int visit_below(struct walk *k, const struct f2fs_tree_pos *at, unsigned int level,
		       bool *changed)
{
	bool any = false;
	int ret;

	if (at->depth == 0)
		ret = f2fs_tree_walk_addrs(k->w, at, k->g.per_direct, &any);
	else
		ret = visit_children(k, at, 0, k->bg->nids_per_block, level + 1, &any);
	*changed = *changed || any;
	return ret;
}

/* The node callback, where the flags put it: before (@post false) or after the subtree. */
static unsigned int call_node(const struct f2fs_tree_walk *w, const struct f2fs_tree_pos *at,
			      bool post)
{
	if (!w->node || post != ((w->flags & F2FS_TREE_POST_ORDER) != 0))
		return 0;
	return w->node(at, w->arg);
}

/* Give node @at back to the source, changed or removed as the walk made it. */
static int give_back(const struct f2fs_tree_walk *w, void *ref, unsigned int bits, bool changed,
		     bool *removed)
{
	unsigned int how = 0;
	int ret;

	if (verdict(w, bits) == -EROFS)
		bits = 0;
	if (bits & F2FS_TREE_REMOVE)
		how = F2FS_TREE_REMOVE;
	else if (changed || (bits & F2FS_TREE_CHANGED))
		how = F2FS_TREE_CHANGED;
	ret = w->src->put ? w->src->put(w->src_arg, ref, how) : 0;
	*removed = how == F2FS_TREE_REMOVE && !ret;
	return ret;
}

/*
 * Node @at (its place set), at nesting @level below the inode: got from the
 * source, called back before or after its subtree, given back.  *@removed
 * says whether it is gone, for its parent to forget it.
 */
static int visit_node(struct walk *k, struct f2fs_tree_pos *at, unsigned int level, bool *removed)
{
	const struct f2fs_tree_walk *w = k->w;
	bool changed = false;
	unsigned int bits;
	void *ref = NULL;
	int ret, put_ret;

	ret = w->src->get(w->src_arg, at,
			  (struct f2fs_node *)(k->bufs + (size_t)level * k->bg->blksize), &at->blk,
			  &ref);
	if (ret)
		return node_failed(w, at, ret);
	bits = call_node(w, at, false);
	ret = verdict(w, bits);
	if (!ret)
		ret = visit_below(k, at, level, &changed);
	if (!ret) {
		bits |= call_node(w, at, true);
		ret = verdict(w, bits);
	}
	put_ret = give_back(w, ref, bits, changed, removed);
	return ret ? ret : put_ret;
}

int f2fs_tree_walk(const struct f2fs_tree_walk *w, struct f2fs_node *inode, bool *inode_changed)
{
	const struct f2fs_blkgeo *bg = walk_bg(w);
	uint32_t ino = f2fs_footer_ino(bg, inode);
	struct f2fs_tree_pos at = {.ino = ino, .nid = ino, .blk = inode};
	struct walk k = {.w = w, .bg = bg};
	bool changed = false;
	int ret = f2fs_tree_geometry(bg, inode, w->features, &k.g);

	if (inode_changed)
		*inode_changed = false;
	if (ret)
		return ret < 0 ? ret : 0;
	k.bufs = malloc((size_t)LEVELS * bg->blksize);
	if (!k.bufs)
		return -ENOMEM;
	ret = visit_addrs(w, &at, k.g.inode_start, k.g.inode_addrs, &changed);
	if (!ret)
		ret = visit_children(&k, &at, bg->inode_nid_word, F2FS_DEF_NIDS_PER_INODE, 0,
				     &changed);
	free(k.bufs);
	if (inode_changed)
		*inode_changed = changed;
	return ret;
}
