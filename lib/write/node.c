// SPDX-License-Identifier: GPL-2.0
/*
 * The node cache and the file tree.  A node block is read once (its NAT
 * entry must point into the main area and its footer must name the nid and
 * owner expected, as the read path demands), changed in memory, and written
 * by a checkpoint or an fsync to a new block of its log: direct nodes and
 * inodes of directories to the hot node log, of other files to the warm
 * node log (the footer's cold bit tells them apart, as in the kernel),
 * indirect nodes to the cold node log.  Writing moves the node: the old
 * block becomes invalid and the NAT entry follows.  Every footer written
 * carries the version of the last checkpoint (with its CRC when the
 * checkpoint asks for CRC recovery) and the address the log hands out next,
 * which is what roll-forward recovery follows.
 *
 * Operations pin the nodes they hold; only clean, unpinned nodes are
 * dropped when the cache outgrows its budget.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "write_internal.h"

#define CACHE_BUDGET 4096u /* clean nodes kept: 16 MiB */
#define DIRTY_BUDGET 8192u /* dirty nodes held before an operation writes them: 32 MiB */
#define COLD_BIT     (1u << F2FS_COLD_BIT_SHIFT)
#define FSYNC_BIT    (1u << F2FS_FSYNC_BIT_SHIFT)
#define DENT_BIT     (1u << F2FS_DENT_BIT_SHIFT)

static uint32_t hash_nid(const struct wr_node_cache *c, uint32_t nid)
{
	return (nid * 2654435761u) % c->nbuckets;
}

int wr_nodes_init(struct f2fs_wr *w)
{
	struct wr_node_cache *c = &w->nodes;

	c->nbuckets = 8192;
	c->buckets = calloc(c->nbuckets, sizeof(*c->buckets));
	c->dirty.dnext = c->dirty.dprev = &c->dirty;
	c->clean_budget = CACHE_BUDGET;
	c->dirty_budget = DIRTY_BUDGET;
	return c->buckets ? 0 : -ENOMEM;
}

void f2fs_write_set_node_cache(struct f2fs_fs *fs, uint32_t clean_nodes, uint32_t dirty_nodes)
{
	struct f2fs_wr *w;

	if (wr_get(fs, &w))
		return;
	w->nodes.clean_budget = clean_nodes ? clean_nodes : CACHE_BUDGET;
	w->nodes.dirty_budget = dirty_nodes ? dirty_nodes : DIRTY_BUDGET;
}

static void unlink_dirty(struct wr_node_cache *c, struct wr_node *n)
{
	if (!n->dirty)
		return;
	n->dprev->dnext = n->dnext;
	n->dnext->dprev = n->dprev;
	n->dirty = false;
	c->ndirty--;
}

static void drop(struct wr_node_cache *c, struct wr_node *n)
{
	struct wr_node **p = &c->buckets[hash_nid(c, n->nid)];

	while (*p && *p != n)
		p = &(*p)->hnext;
	if (*p)
		*p = n->hnext;
	unlink_dirty(c, n);
	c->count--;
	free(n);
}

void wr_nodes_free(struct f2fs_wr *w)
{
	struct wr_node_cache *c = &w->nodes;
	uint32_t i;

	for (i = 0; c->buckets && i < c->nbuckets; i++) {
		while (c->buckets[i]) {
			struct wr_node *n = c->buckets[i];

			c->buckets[i] = n->hnext;
			free(n);
		}
	}
	free(c->buckets);
}

static struct wr_node *find(struct wr_node_cache *c, uint32_t nid)
{
	struct wr_node *n;

	for (n = c->buckets[hash_nid(c, nid)]; n; n = n->hnext)
		if (n->nid == nid)
			return n;
	return NULL;
}

/* A node and its block, as large as the volume's block @blksize. */
static struct wr_node *insert(struct wr_node_cache *c, uint32_t nid, uint32_t ino, uint32_t blksize)
{
	size_t bytes = offsetof(struct wr_node, blk) + blksize;
	struct wr_node *n = calloc(1, bytes > sizeof(*n) ? bytes : sizeof(*n));
	uint32_t h;

	if (!n)
		return NULL;
	n->nid = nid;
	n->ino = ino;
	h = hash_nid(c, nid);
	n->hnext = c->buckets[h];
	c->buckets[h] = n;
	c->count++;
	return n;
}

void wr_nodes_shrink(struct f2fs_wr *w)
{
	struct wr_node_cache *c = &w->nodes;
	uint32_t i;

	if (c->count - c->ndirty <= c->clean_budget)
		return;
	for (i = 0; i < c->nbuckets && c->count - c->ndirty > c->clean_budget / 2; i++) {
		struct wr_node *n = c->buckets[i], *next;

		for (; n; n = next) {
			next = n->hnext;
			if (!n->dirty && !n->pins)
				drop(c, n);
		}
	}
}

void wr_node_dirty(struct f2fs_wr *w, struct wr_node *n)
{
	struct wr_node_cache *c = &w->nodes;

	wr_mark_dirty(w);
	if (n->dirty)
		return;
	n->dirty = true;
	n->dnext = &c->dirty;
	n->dprev = c->dirty.dprev;
	c->dirty.dprev->dnext = n;
	c->dirty.dprev = n;
	c->ndirty++;
}

/* wr_node_get(), or with @trust_footer false, the block NAT names whatever its footer says. */
static int node_load(struct f2fs_wr *w, uint32_t nid, uint32_t ino, bool trust_footer,
		     struct wr_node **out)
{
	const struct f2fs_nat_info *e;
	struct wr_node *n = find(&w->nodes, nid);
	int ret;

	*out = NULL;
	if (n) {
		if (ino && n->ino != ino)
			return -EUCLEAN;
		n->pins++;
		*out = n;
		return 0;
	}
	e = wr_nat_get(w, nid);
	if (!e || nid < F2FS_FIRST_INO_RESERVED || e->blkaddr == F2FS_NULL_ADDR)
		return -ENOENT;
	if (!f2fs_geo_in_main(&w->fs->geo, e->blkaddr) || (ino && e->ino != ino))
		return -EUCLEAN;
	n = insert(&w->nodes, nid, e->ino, wr_blksize(w));
	if (!n)
		return -ENOMEM;
	n->addr = e->blkaddr;
	ret = wr_read_block(w, e->blkaddr, &n->blk);
	if (!ret && trust_footer &&
	    (f2fs_footer_nid(wr_bg(w), &n->blk) != nid ||
	     f2fs_footer_ino(wr_bg(w), &n->blk) != e->ino))
		ret = -EUCLEAN;
	if (ret) {
		drop(&w->nodes, n);
		return ret;
	}
	n->pins++;
	*out = n;
	return 0;
}

int wr_node_get(struct f2fs_wr *w, uint32_t nid, uint32_t ino, struct wr_node **out)
{
	return node_load(w, nid, ino, true, out);
}

int wr_node_get_any_footer(struct f2fs_wr *w, uint32_t nid, struct wr_node **out)
{
	return node_load(w, nid, 0, false, out);
}

int wr_node_new(struct f2fs_wr *w, uint32_t ino, uint32_t nid, uint32_t ofs, bool is_dir,
		struct wr_node **out)
{
	struct wr_node *n = insert(&w->nodes, nid, ino, wr_blksize(w));
	struct f2fs_node_footer *footer;

	*out = NULL;
	if (!n)
		return -ENOMEM;
	n->addr = F2FS_NEW_ADDR;
	footer = f2fs_node_footer(wr_bg(w), &n->blk);
	footer->nid = le32_put(nid);
	footer->ino = le32_put(ino);
	footer->flag = le32_put(ofs << F2FS_OFFSET_BIT_SHIFT | (is_dir ? 0 : COLD_BIT));
	n->pins = 1;
	w->valid_nodes++;
	wr_node_dirty(w, n);
	*out = n;
	return 0;
}

void wr_node_put(struct wr_node *n)
{
	if (n && n->pins)
		n->pins--;
}

int wr_node_remove(struct f2fs_wr *w, struct wr_node *n)
{
	int ret;

	if (f2fs_geo_in_main(&w->fs->geo, n->addr))
		wr_invalidate(w, n->addr);
	ret = wr_nat_set(w, n->nid, n->ino, F2FS_NULL_ADDR);
	w->valid_nodes--;
	drop(&w->nodes, n);
	return ret;
}

bool wr_is_dnode(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	uint32_t ofs = f2fs_node_ofs(g, n);

	return ofs == 0 || ofs == F2FS_XATTR_NODE_OFFSET || f2fs_node_ofs_is_direct(g, ofs);
}

/* The node log a node goes to (the kernel's __get_segment_type_6 for nodes). */
static int node_log(const struct f2fs_wr *w, const struct wr_node *n)
{
	if (!wr_is_dnode(wr_bg(w), &n->blk))
		return F2FS_CURSEG_COLD_NODE;
	return f2fs_footer_flag(wr_bg(w), &n->blk) & COLD_BIT ? F2FS_CURSEG_WARM_NODE
							      : F2FS_CURSEG_HOT_NODE;
}

int wr_node_write(struct f2fs_wr *w, struct wr_node *n, uint32_t marks)
{
	const struct f2fs_nat_info *e = wr_nat_get(w, n->nid);
	struct f2fs_node_footer *footer = f2fs_node_footer(wr_bg(w), &n->blk);
	int type = node_log(w, n);
	uint32_t flag;
	uint64_t addr, old = n->addr;
	int ret;

	if (!e)
		return -EUCLEAN;
	if (!wr_has_free_blocks(w, f2fs_geo_in_main(&w->fs->geo, old) ? 0 : 1))
		return -ENOSPC;
	ret = wr_alloc_block(w, type, n->nid, 0, e->version, &addr);
	if (ret)
		return ret;
	flag = le32_get(footer->flag) & ~(FSYNC_BIT | DENT_BIT);
	footer->flag = le32_put(flag | marks);
	footer->cp_ver = le64_put(w->footer_ver);
	footer->next_blkaddr = le32_put((uint32_t)wr_log_next_addr(w, type));
	if (n->nid == n->ino && f2fs_node_ofs(wr_bg(w), &n->blk) == 0)
		f2fs_inode_seal(wr_bg(w), &n->blk, w->fs->features,
				f2fs_inode_chksum_seed(w->sb->uuid));
	ret = wr_write_block(w, addr, &n->blk, F2FS_IO_NODE);
	if (ret)
		return ret;
	if (f2fs_geo_in_main(&w->fs->geo, old))
		wr_invalidate(w, old);
	n->addr = (uint32_t)addr;
	unlink_dirty(&w->nodes, n);
	return wr_nat_set(w, n->nid, n->ino, (uint32_t)addr);
}

/* Indirect nodes, then directories' direct nodes, then files' (f2fs_sync_node_pages). */
int wr_nodes_write_all(struct f2fs_wr *w)
{
	struct wr_node_cache *c = &w->nodes;
	int pass, ret = 0;

	for (pass = 0; pass < 3 && !ret; pass++) {
		struct wr_node *n = c->dirty.dnext, *next;

		for (; n != &c->dirty && !ret; n = next) {
			int log = node_log(w, n);

			next = n->dnext;
			if ((pass == 0 && log == F2FS_CURSEG_COLD_NODE) ||
			    (pass == 1 && log == F2FS_CURSEG_HOT_NODE) ||
			    (pass == 2 && log == F2FS_CURSEG_WARM_NODE))
				ret = wr_node_write(w, n, 0);
		}
	}
	return ret;
}

/* ---- the file tree ---- */

static unsigned int inode_addrs(struct f2fs_wr *w, const struct f2fs_inode *ri)
{
	return f2fs_inode_addrs(wr_bg(w), ri, w->fs->features);
}

bool wr_node_is_inode(const struct f2fs_wr *w, const struct wr_node *n)
{
	return f2fs_node_ofs(wr_bg(w), &n->blk) == 0 && n->nid == n->ino;
}

/*
 * Address slot @ofs of a direct node or an inode, as a word of the block:
 * both arrays run on past the 4 KiB structs' on larger blocks.
 */
static le32 *addr_slot(const struct wr_dnode *dn, unsigned int ofs)
{
	le32 *words = (le32 *)&dn->node->blk;

	if (dn->in_inode)
		return words + offsetof(struct f2fs_inode, i_addr) / sizeof(le32) +
		       f2fs_inode_first_addr(&dn->node->blk.i) + ofs;
	return words + ofs;
}

/* The nid slot @i of @parent (the inode's i_nid[] or an indirect node's nid[]). */
static le32 *nid_slot(const struct f2fs_wr *w, struct wr_node *parent, bool is_inode,
		      unsigned int i)
{
	le32 *words = (le32 *)&parent->blk;

	return words + (is_inode ? wr_bg(w)->inode_nid_word : 0) + i;
}

/* The child of @parent at @slot: read, or made when @create. */
static int child(struct f2fs_wr *w, struct wr_node *inode, struct wr_node *parent, bool is_inode,
		 unsigned int slot, uint32_t ofs, bool create, struct wr_node **out)
{
	uint32_t nid = le32_get(*nid_slot(w, parent, is_inode, slot));
	int ret;

	if (nid)
		return wr_node_get(w, nid, inode->ino, out);
	if (!create)
		return -ENOENT;
	ret = wr_nid_alloc(w, inode->ino, &nid);
	if (ret)
		return ret;
	ret = wr_node_new(w, inode->ino, nid, ofs, wr_is_dir(inode), out);
	if (ret)
		return ret;
	*nid_slot(w, parent, is_inode, slot) = le32_put(nid);
	wr_node_dirty(w, parent);
	wr_inode_add_blocks(w, inode, 1);
	wr_node_dirty(w, inode);
	return 0;
}

int wr_dnode_get(struct f2fs_wr *w, struct wr_node *inode, uint64_t index, bool create,
		 struct wr_dnode *dn)
{
	const struct f2fs_inode *ri = &inode->blk.i;
	struct f2fs_node_path path;
	struct wr_node *cur = inode, *next;
	unsigned int level;
	int ret;

	memset(dn, 0, sizeof(*dn));
	if (f2fs_inode_first_addr(ri) >= wr_bg(w)->addrs_per_inode)
		return -EUCLEAN;
	ret = f2fs_node_path(wr_bg(w), index, inode_addrs(w, ri), f2fs_direct_addrs(wr_bg(w), ri),
			     &path);
	if (ret)
		return ret;
	inode->pins++;
	for (level = 1; level <= path.depth; level++) {
		unsigned int slot = level == 1 ? path.nid_slot : path.idx[level - 2];

		ret = child(w, inode, cur, level == 1, slot, path.node_ofs[level], create, &next);
		wr_node_put(cur);
		if (ret)
			return ret;
		if (f2fs_node_ofs(wr_bg(w), &next->blk) != path.node_ofs[level]) {
			wr_node_put(next);
			return -EUCLEAN;
		}
		cur = next;
	}
	dn->node = cur;
	dn->in_inode = wr_node_is_inode(w, cur);
	dn->inode = inode;
	dn->index = index;
	dn->nid = cur->nid;
	dn->ofs = path.ofs_in_node;
	return 0;
}

void wr_drop_extent(struct f2fs_wr *w, struct wr_node *inode, uint64_t from, uint64_t len)
{
	struct f2fs_extent *e;
	uint64_t fofs, elen;

	if (!inode)
		return; /* a dnode reached without its inode (GC): the caller drops it */
	e = &inode->blk.i.i_ext;
	fofs = le32_get(e->fofs);
	elen = le32_get(e->len);
	if (!elen || from >= fofs + elen || from + len <= fofs)
		return;
	memset(e, 0, sizeof(*e));
	wr_node_dirty(w, inode);
}

uint32_t wr_dnode_addr(const struct wr_dnode *dn)
{
	return le32_get(*addr_slot(dn, dn->ofs));
}

void wr_dnode_set_addr(struct f2fs_wr *w, struct wr_dnode *dn, uint32_t addr)
{
	*addr_slot(dn, dn->ofs) = le32_put(addr);
	wr_node_dirty(w, dn->node);
	wr_drop_extent(w, dn->inode, dn->index, 1);
}

uint32_t wr_dnode_addr_at(const struct wr_dnode *dn, unsigned int k)
{
	return le32_get(*addr_slot(dn, dn->ofs + k));
}

void wr_dnode_set_addr_at(struct f2fs_wr *w, struct wr_dnode *dn, unsigned int k, uint32_t addr)
{
	*addr_slot(dn, dn->ofs + k) = le32_put(addr);
	wr_node_dirty(w, dn->node);
	wr_drop_extent(w, dn->inode, dn->index + k, 1);
}

void wr_dnode_put(struct wr_dnode *dn)
{
	wr_node_put(dn->node);
	dn->node = NULL;
}

/* ---- truncation ---- */

/*
 * Free the slot holding @addr (not NULL_ADDR): a block becomes invalid; a
 * reservation (a NEW_ADDR slot, or a compressed cluster's marker while the
 * cluster holds its reservation) is given back.  Returns the blocks
 * i_blocks loses.
 */
static unsigned int free_addr(struct f2fs_wr *w, struct wr_node *inode, uint32_t addr)
{
	struct f2fs_inode *ri = &inode->blk.i;

	if (addr == F2FS_COMPRESS_ADDR && ri->i_inline & F2FS_COMPRESS_RELEASED)
		return 0;
	if (addr == F2FS_COMPRESS_ADDR || addr == F2FS_NEW_ADDR) {
		w->valid_blocks--;
		if (wr_compressed(ri) && le64_get(ri->i_compr_blocks))
			ri->i_compr_blocks = le64_put(le64_get(ri->i_compr_blocks) - 1);
		return 1;
	}
	wr_invalidate(w, addr);
	return 1;
}

struct trunc {
	struct f2fs_wr *w;
	struct wr_node *inode;
	uint64_t from;
	int64_t freed; /* blocks i_blocks loses */
	int err;       /* of a node that could not be read */
};

/*
 * The node cache as the tree walk's node source: got pinned (owned by the
 * inode as the cache knows it), given back dirty or removed.
 */
static int cache_get(void *arg, const struct f2fs_tree_pos *at, struct f2fs_node *buf,
		     struct f2fs_node **out, void **ref)
{
	struct trunc *t = arg;
	struct wr_node *n;
	int ret = wr_node_get(t->w, at->nid, t->inode->ino, &n);

	(void)buf;
	if (ret)
		return ret;
	*out = &n->blk;
	*ref = n;
	return 0;
}

static int cache_put(void *arg, void *ref, unsigned int how)
{
	struct trunc *t = arg;
	struct wr_node *n = ref;

	if (how & F2FS_TREE_REMOVE)
		return wr_node_remove(t->w, n);
	if (how & F2FS_TREE_CHANGED)
		wr_node_dirty(t->w, n);
	wr_node_put(n);
	return 0;
}

static unsigned int trunc_addr(struct f2fs_tree_addr *a, void *arg)
{
	struct trunc *t = arg;

	t->freed += free_addr(t->w, t->inode, a->addr);
	a->addr = F2FS_NULL_ADDR;
	return F2FS_TREE_CHANGED;
}

/*
 * A node, after its subtree: one whose blocks all lie from @from on goes,
 * one that keeps blocks before @from is written again.  A nid that leads
 * nowhere has nothing to free; any other node that cannot be read ends the
 * truncation.
 */
static unsigned int trunc_node(const struct f2fs_tree_pos *at, void *arg)
{
	struct trunc *t = arg;

	if (at->err == -ENOENT)
		return 0;
	if (at->err) {
		t->err = at->err;
		return F2FS_TREE_ABORT;
	}
	if (at->first < t->from)
		return F2FS_TREE_CHANGED;
	t->freed++;
	return F2FS_TREE_REMOVE;
}

int wr_truncate_blocks(struct f2fs_wr *w, struct wr_node *inode, uint64_t from)
{
	static const struct f2fs_node_source cache = {.get = cache_get, .put = cache_put};
	struct trunc t = {.w = w, .inode = inode, .from = from};
	struct f2fs_tree_walk walk = {.flags = F2FS_TREE_POST_ORDER | F2FS_TREE_KEEP_GOING,
				      .features = w->fs->features,
				      .from = from,
				      .src = &cache,
				      .src_arg = &t,
				      .addr = trunc_addr,
				      .node = trunc_node,
				      .arg = &t};
	struct f2fs_tree_geo g;
	int ret = f2fs_tree_geometry(wr_bg(w), &inode->blk, w->fs->features, &g);

	if (ret)
		return ret < 0 ? ret : 0; /* data or dentries inline: no blocks */
	wr_drop_extent(w, inode, from, UINT64_MAX - from);
	ret = f2fs_tree_walk(&walk, &inode->blk, NULL);
	wr_inode_add_blocks(w, inode, -t.freed);
	wr_node_dirty(w, inode);
	return ret < 0 ? ret : t.err;
}
