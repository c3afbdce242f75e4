// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the node-tree walk (lib/read/iterate.c) and the format
 * knowledge it rests on (which words of a node block are data addresses).
 * A file whose tree reaches every kind of node is built on an in-memory
 * image (tree_image.h) and walked through a node source that reads the
 * image and logs what it gives and takes back: the walk must visit the
 * nodes pre-order or post-order as asked, with the places (offset, depth,
 * first file block, parent slot) their slots imply; a changed address must
 * reach the source as a changed node, and be refused under read-only; a
 * removed node must leave a zero slot in its parent; a node that cannot be
 * read must end the walk, or with keep-going be reported and passed over;
 * a callback must be able to stop the walk; nodes wholly before the first
 * block asked for must not be read.  Every node got must be given back.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "fixture.h"
#include "test.h"
#include "tree_image.h"

#define N	   F2FS_NIDS_PER_BLOCK
#define MAX_EVENTS 64

/* ---- node.h: where a node block keeps its data addresses ---- */

static void test_addr_range(void)
{
	static struct f2fs_node n;
	uint32_t flex = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR;
	unsigned int start, count;

	memset(&n, 0, sizeof(n));
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, 0, 0, 1018, &start, &count));
	CHECK_EQ_U64(start, F2FS_INODE_ADDR_WORD);
	CHECK_EQ_U64(count, F2FS_DEF_ADDRS_PER_INODE);
	/* the words are the fields */
	f2fs_node_set_word(&n, start + 7, 0x1234);
	CHECK_EQ_U64(le32_get(n.i.i_addr[7]), 0x1234);
	f2fs_node_set_word(&n, f2fs_blkgeo_4k()->inode_nid_word + 4, 77);
	CHECK_EQ_U64(le32_get(n.i.i_nid[4]), 77);
	CHECK_EQ_U64(f2fs_node_word(&n, f2fs_blkgeo_4k()->inode_nid_word + 4), 77);
	memset(&n, 0, sizeof(n));

	/* 36 bytes of extra attributes, 10 words of inline xattrs */
	n.i.i_inline = F2FS_EXTRA_ATTR | F2FS_INLINE_XATTR;
	n.i.i_extra_isize = le16_put(36);
	n.i.i_inline_xattr_size = le16_put(10);
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, 0, flex, 1018, &start, &count));
	CHECK_EQ_U64(start, F2FS_INODE_ADDR_WORD + 9);
	CHECK_EQ_U64(count, F2FS_DEF_ADDRS_PER_INODE - 9 - 10);

	/* inline data and dentries: no addresses */
	n.i.i_inline |= F2FS_INLINE_DATA;
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, 0, flex, 1018, &start, &count));
	CHECK_EQ_U64(count, 0);
	n.i.i_inline ^= F2FS_INLINE_DATA | F2FS_INLINE_DENTRY;
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, 0, flex, 1018, &start, &count));
	CHECK_EQ_U64(count, 0);

	/* extra attributes past i_addr[] */
	n.i.i_inline = F2FS_EXTRA_ATTR;
	n.i.i_extra_isize = le16_put(4000);
	CHECK(!f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, 0, flex, 1018, &start, &count));
	CHECK_EQ_U64(count, 0);

	/* a direct node holds what its inode says; an indirect or xattr node none */
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, F2FS_NODE_OFS_DIRECT2, 0, 1016, &start,
				   &count));
	CHECK_EQ_U64(start, 0);
	CHECK_EQ_U64(count, 1016);
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, F2FS_NODE_OFS_INDIRECT1, 0, 1016, &start,
				   &count));
	CHECK_EQ_U64(count, 0);
	CHECK(f2fs_node_addr_range(f2fs_blkgeo_4k(), &n, F2FS_XATTR_NODE_OFFSET, 0, 1016, &start,
				   &count));
	CHECK_EQ_U64(count, 0);
}

static void test_tree_geometry(void)
{
	static struct f2fs_node n;
	struct f2fs_tree_geo g;

	memset(&n, 0, sizeof(n));
	CHECK_EQ_U64(f2fs_tree_geometry(f2fs_blkgeo_4k(), &n, 0, &g), 0);
	CHECK_EQ_U64(g.inode_start, F2FS_INODE_ADDR_WORD);
	CHECK_EQ_U64(g.inode_addrs, F2FS_DEF_ADDRS_PER_INODE);
	CHECK_EQ_U64(g.per_direct, F2FS_ADDRS_PER_BLOCK);
	n.i.i_inline = F2FS_INLINE_DATA;
	CHECK_EQ_U64(f2fs_tree_geometry(f2fs_blkgeo_4k(), &n, 0, &g), 1);
	n.i.i_inline = F2FS_EXTRA_ATTR;
	n.i.i_extra_isize = le16_put(4000);
	CHECK_EQ_U64(f2fs_tree_geometry(f2fs_blkgeo_4k(), &n, F2FS_FEATURE_EXTRA_ATTR, &g),
		     -EUCLEAN);
}

/* ---- a node source that reads the image and logs what the walk does ---- */

/* What happened during a walk, in order. */
enum event_kind { EV_ADDR, EV_NODE, EV_FAILED };

struct event {
	enum event_kind kind;
	struct f2fs_tree_pos at; /* blk cleared: it is gone after the walk */
	unsigned int index;	 /* EV_ADDR: among the node's addresses */
	uint64_t fblk;
	uint32_t addr; /* EV_FAILED: the error */
};

struct tree_log {
	struct f2fs_fs *fs;
	uint32_t fail_nid; /* get() of this nid fails with -EIO (0: none) */
	unsigned int gets, puts;
	uint32_t got[MAX_EVENTS];
	unsigned int ngot;
	/* put(): the nid, how, and the block as it came back */
	uint32_t put_nid[MAX_EVENTS];
	unsigned int put_how[MAX_EVENTS];
	struct f2fs_node *put_blk; /* MAX_EVENTS blocks */
	unsigned int nput;
	struct event ev[MAX_EVENTS];
	unsigned int nev;
	/* what the callbacks do */
	unsigned int abort_at;	  /* the address callback stops the walk at this call (1-based) */
	uint64_t change_fblk;	  /* ... changes the address of this file block */
	uint32_t change_to;	  /* ... to this */
	uint32_t remove_nid;	  /* the node callback removes this node */
	uint32_t abort_nid;	  /* the node callback stops the walk at this node */
	unsigned int naddr_calls; /* address callbacks so far */
};

static void log_event(struct tree_log *l, enum event_kind kind, const struct f2fs_tree_pos *at,
		      const struct f2fs_tree_addr *a, uint32_t err)
{
	if (l->nev < MAX_EVENTS) {
		l->ev[l->nev] = (struct event){.kind = kind, .at = *at, .addr = err};
		if (a) {
			l->ev[l->nev].index = a->index;
			l->ev[l->nev].fblk = a->file_block;
			l->ev[l->nev].addr = a->addr;
		}
		l->ev[l->nev].at.blk = NULL;
	}
	l->nev++;
}

/* Each node through the NAT, its footer as its place demands (the reader's rules). */
static int log_get(void *arg, const struct f2fs_tree_pos *at, struct f2fs_node *buf,
		   struct f2fs_node **out, void **ref)
{
	struct tree_log *l = arg;
	int ret;

	if (at->nid == l->fail_nid)
		return -EIO;
	ret = f2fs_read_node(l->fs, at->nid, at->ino, buf);
	if (!ret && f2fs_node_ofs(f2fs_blkgeo_4k(), buf) != at->ofs)
		ret = -EUCLEAN;
	if (ret)
		return ret;
	l->gets++;
	if (l->ngot < MAX_EVENTS)
		l->got[l->ngot++] = at->nid;
	*out = buf;
	*ref = buf;
	return 0;
}

static int log_put(void *arg, void *ref, unsigned int how)
{
	struct tree_log *l = arg;
	const struct f2fs_node *n = ref;

	l->puts++;
	if (l->nput < MAX_EVENTS) {
		l->put_nid[l->nput] = le32_get(n->footer.nid);
		l->put_how[l->nput] = how;
		memcpy(&l->put_blk[l->nput], n, sizeof(*n));
		l->nput++;
	}
	return 0;
}

static const struct f2fs_node_source log_source = {.get = log_get, .put = log_put};

static unsigned int log_addr(struct f2fs_tree_addr *a, void *arg)
{
	struct tree_log *l = arg;
	unsigned int bits = 0;

	log_event(l, EV_ADDR, a->node, a, 0);
	if (++l->naddr_calls == l->abort_at)
		bits |= F2FS_TREE_ABORT;
	if (l->change_to && a->file_block == l->change_fblk) {
		a->addr = l->change_to;
		bits |= F2FS_TREE_CHANGED;
	}
	return bits;
}

static unsigned int log_node(const struct f2fs_tree_pos *at, void *arg)
{
	struct tree_log *l = arg;

	log_event(l, at->blk ? EV_NODE : EV_FAILED, at, NULL, (uint32_t)at->err);
	if (at->blk && at->nid == l->remove_nid)
		return F2FS_TREE_REMOVE;
	return at->nid == l->abort_nid ? F2FS_TREE_ABORT : 0;
}

/* A tree file on a fresh image, and the inode read back. */
struct tree_case {
	struct img m;
	struct tree_file f;
	struct f2fs_node inode;
	struct tree_log log;
	struct f2fs_tree_walk w;
};

static bool case_make(struct tree_case *t, unsigned int flags)
{
	memset(t, 0, sizeof(*t));
	if (!img_make(&t->m, 0))
		return false;
	t->log.put_blk = calloc(MAX_EVENTS, sizeof(struct f2fs_node));
	if (!t->log.put_blk || !build_tree_file(&t->m, &t->f, NULL) ||
	    f2fs_read_inode(t->m.fs, t->f.ino, &t->inode)) {
		free(t->log.put_blk);
		img_free(&t->m);
		return false;
	}
	t->log.fs = t->m.fs;
	t->w = (struct f2fs_tree_walk){.flags = flags,
				       .features = t->m.features,
				       .src = &log_source,
				       .src_arg = &t->log,
				       .addr = log_addr,
				       .node = log_node,
				       .arg = &t->log};
	return true;
}

/* Start the log again (the case's callbacks as they are set). */
static void case_reset(struct tree_case *t)
{
	struct tree_log *l = &t->log;

	l->gets = l->puts = l->ngot = l->nput = l->nev = l->naddr_calls = 0;
}

static void case_free(struct tree_case *t)
{
	free(t->log.put_blk);
	CHECK(img_free(&t->m));
}

/* The nids of the node events (EV_NODE and EV_FAILED), in order. */
static unsigned int node_order(const struct tree_log *l, uint32_t *nids)
{
	unsigned int i, n = 0;

	for (i = 0; i < l->nev && i < MAX_EVENTS; i++)
		if (l->ev[i].kind != EV_ADDR)
			nids[n++] = l->ev[i].at.nid;
	return n;
}

static void check_nids(const uint32_t *got, unsigned int n, const uint32_t *want,
		       unsigned int nwant)
{
	unsigned int i;

	CHECK_EQ_U64(n, nwant);
	for (i = 0; i < n && i < nwant; i++)
		CHECK_EQ_U64(got[i], want[i]);
}

/* The address events match the file's blocks from @from on. */
static void check_addrs(const struct tree_log *l, const struct tree_file *f, uint64_t from)
{
	unsigned int i, k = 0;

	for (i = 0; i < f->nexp; i++) {
		if (f->fblk[i] < from)
			continue;
		while (k < l->nev && l->ev[k].kind != EV_ADDR)
			k++;
		CHECK(k < l->nev);
		if (k >= l->nev)
			return;
		CHECK_EQ_U64(l->ev[k].fblk, f->fblk[i]);
		CHECK_EQ_U64(l->ev[k].addr, f->addr[i]);
		k++;
	}
	while (k < l->nev && l->ev[k].kind != EV_ADDR)
		k++;
	CHECK_EQ_U64(k, l->nev); /* no more addresses */
}

/* The event of node @nid, or NULL. */
static const struct event *node_event(const struct tree_log *l, uint32_t nid)
{
	unsigned int i;

	for (i = 0; i < l->nev && i < MAX_EVENTS; i++)
		if (l->ev[i].kind != EV_ADDR && l->ev[i].at.nid == nid)
			return &l->ev[i];
	return NULL;
}

/* Index in the log of the first address event of node @nid (l->nev: none). */
static unsigned int first_addr_of(const struct tree_log *l, uint32_t nid)
{
	unsigned int i;

	for (i = 0; i < l->nev && i < MAX_EVENTS; i++)
		if (l->ev[i].kind == EV_ADDR && l->ev[i].at.nid == nid)
			return i;
	return l->nev;
}

static unsigned int event_index(const struct tree_log *l, const struct event *e)
{
	return e ? (unsigned int)(e - l->ev) : l->nev;
}

/* ---- the walk ---- */

static void test_walk_pre_order(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	uint32_t nids[MAX_EVENTS];
	const struct event *e;
	bool changed = true;
	unsigned int i;

	if (!case_make(&t, F2FS_TREE_READ_ONLY)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), 0);
	CHECK(!changed);
	check_nids(nids, node_order(&t.log, nids),
		   (uint32_t[]){f->d1, f->ind1, f->d2, f->ind2, f->d3, f->dind, f->ind3, f->d4,
				f->ind4, f->d5},
		   10);
	check_addrs(&t.log, f, 0);
	/* a node comes before what it holds */
	CHECK(event_index(&t.log, node_event(&t.log, f->ind1)) <
	      event_index(&t.log, node_event(&t.log, f->d2)));
	CHECK(event_index(&t.log, node_event(&t.log, f->d2)) < first_addr_of(&t.log, f->d2));
	/* places: from the slots, not the footers */
	e = node_event(&t.log, f->d4);
	CHECK(e != NULL);
	if (e) {
		CHECK_EQ_U64(e->at.ino, f->ino);
		CHECK_EQ_U64(e->at.parent, f->ind3);
		CHECK_EQ_U64(e->at.slot, 7);
		CHECK_EQ_U64(e->at.depth, 0);
		CHECK_EQ_U64(e->at.ofs,
			     f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()) + 1 + 2 * (N + 1) + 1 + 7);
		CHECK_EQ_U64(e->at.first, f->addrs + (uint64_t)f->per * (2 + 4 * N + 7));
	}
	e = node_event(&t.log, f->dind);
	CHECK(e && e->at.parent == f->ino && e->at.slot == 4 && e->at.depth == 2);
	e = node_event(&t.log, f->ind1);
	CHECK(e && e->at.slot == 2 && e->at.depth == 1 && e->at.ofs == F2FS_NODE_OFS_INDIRECT1);
	/* every node got was given back, unchanged */
	CHECK_EQ_U64(t.log.gets, 10);
	CHECK_EQ_U64(t.log.puts, 10);
	for (i = 0; i < t.log.nput; i++)
		CHECK_EQ_U64(t.log.put_how[i], 0);
	case_free(&t);
}

static void test_walk_post_order(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	uint32_t nids[MAX_EVENTS];

	if (!case_make(&t, F2FS_TREE_READ_ONLY | F2FS_TREE_POST_ORDER)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), 0);
	check_nids(nids, node_order(&t.log, nids),
		   (uint32_t[]){f->d1, f->d2, f->ind1, f->d3, f->ind2, f->d4, f->ind3, f->d5,
				f->ind4, f->dind},
		   10);
	check_addrs(&t.log, f, 0);
	/* a node comes after what it holds, the source still got it first */
	CHECK(first_addr_of(&t.log, f->d2) < event_index(&t.log, node_event(&t.log, f->d2)));
	check_nids(t.log.got, t.log.ngot,
		   (uint32_t[]){f->d1, f->ind1, f->d2, f->ind2, f->d3, f->dind, f->ind3, f->d4,
				f->ind4, f->d5},
		   10);
	CHECK_EQ_U64(t.log.puts, 10);
	case_free(&t);
}

/* The block node @nid came back as, and how (NULL when it did not come back). */
static const struct f2fs_node *put_of(const struct tree_log *l, uint32_t nid, unsigned int *how)
{
	unsigned int i;

	for (i = 0; i < l->nput; i++)
		if (l->put_nid[i] == nid) {
			*how = l->put_how[i];
			return &l->put_blk[i];
		}
	return NULL;
}

static void test_walk_change(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	const struct f2fs_node *n;
	unsigned int how = 99, i;
	bool changed = false;

	if (!case_make(&t, 0)) {
		CHECK(0);
		return;
	}
	/* d2's address (f->fblk[6]: index 3 of it) becomes 0x4242 */
	t.log.change_fblk = f->fblk[6];
	t.log.change_to = 0x4242;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), 0);
	CHECK(!changed);
	n = put_of(&t.log, f->d2, &how);
	CHECK(n != NULL);
	if (n) {
		CHECK_EQ_U64(how, F2FS_TREE_CHANGED);
		CHECK_EQ_U64(le32_get(n->dn.addr[3]), 0x4242);
	}
	/* its parent did not change */
	n = put_of(&t.log, f->ind1, &how);
	CHECK(n && how == 0);

	/* an address of the inode: the caller hears of it */
	case_reset(&t);
	t.log.change_fblk = 5;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), 0);
	CHECK(changed);
	CHECK_EQ_U64(le32_get(t.inode.i.i_addr[5]), 0x4242);
	for (i = 0; i < t.log.nput; i++)
		CHECK_EQ_U64(t.log.put_how[i], 0);

	/* read-only: refused, and nothing stored */
	case_reset(&t);
	t.w.flags = F2FS_TREE_READ_ONLY;
	t.log.change_fblk = 0;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), -EROFS);
	CHECK(!changed);
	CHECK_EQ_U64(le32_get(t.inode.i.i_addr[0]), f->addr[0]);
	case_free(&t);
}

static void test_walk_remove(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	const struct f2fs_node *n;
	unsigned int how = 99;
	bool changed = false;

	if (!case_make(&t, F2FS_TREE_POST_ORDER)) {
		CHECK(0);
		return;
	}
	/* the last child of indirect node 2 goes: its slot there becomes 0 */
	t.log.remove_nid = f->d3;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), 0);
	CHECK(!changed);
	n = put_of(&t.log, f->d3, &how);
	CHECK(n && how == F2FS_TREE_REMOVE);
	n = put_of(&t.log, f->ind2, &how);
	CHECK(n != NULL);
	if (n) {
		CHECK_EQ_U64(how, F2FS_TREE_CHANGED);
		CHECK_EQ_U64(le32_get(n->in.nid[N - 1]), 0);
	}
	/* a child of the inode: its i_nid[] slot */
	case_reset(&t);
	t.log.remove_nid = f->dind;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), 0);
	CHECK(changed);
	CHECK_EQ_U64(le32_get(t.inode.i.i_nid[4]), 0);
	/* refused under read-only */
	case_reset(&t);
	t.w.flags |= F2FS_TREE_READ_ONLY;
	t.log.remove_nid = f->d1;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, &changed), -EROFS);
	CHECK(!changed);
	CHECK_EQ_U64(le32_get(t.inode.i.i_nid[0]), f->d1);
	CHECK_EQ_U64(t.log.gets, t.log.puts);
	case_free(&t);
}

/* Move node @nid's footer offset on the image by one; @keep gets its block as it was. */
static bool damage_ofs(struct tree_case *t, uint32_t nid, struct f2fs_node *keep)
{
	const struct f2fs_nat_table *nat;
	struct f2fs_node n;
	uint32_t blk;

	if (f2fs_fs_nat(t->m.fs, &nat))
		return false;
	blk = f2fs_nat_get(nat, nid)->blkaddr;
	if (!fixture_read_blk(&t->m.fx, blk, keep))
		return false;
	n = *keep;
	n.footer.flag =
	    le32_put((f2fs_node_ofs(f2fs_blkgeo_4k(), &n) + 1) << F2FS_OFFSET_BIT_SHIFT);
	if (!fixture_write_blk(&t->m.fx, blk, &n) || !img_open(&t->m))
		return false;
	t->log.fs = t->m.fs; /* the handle reads the changed block */
	return true;
}

static void test_walk_keep_going(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	struct f2fs_node keep;
	const struct event *e;
	uint32_t nids[MAX_EVENTS];
	unsigned int n;

	if (!case_make(&t, F2FS_TREE_READ_ONLY) || !damage_ofs(&t, f->ind1, &keep)) {
		CHECK(0);
		return;
	}
	/* without keep-going the walk ends at the damaged node, all given back */
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), -EUCLEAN);
	CHECK_EQ_U64(t.log.gets, 1);
	CHECK_EQ_U64(t.log.puts, 1);
	CHECK(node_event(&t.log, f->ind1) == NULL);

	/* with it: reported with its error, its subtree passed over, the rest walked */
	case_reset(&t);
	t.w.flags |= F2FS_TREE_KEEP_GOING;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), 0);
	e = node_event(&t.log, f->ind1);
	CHECK(e && e->kind == EV_FAILED && e->addr == (uint32_t)-EUCLEAN);
	n = node_order(&t.log, nids);
	check_nids(
	    nids, n,
	    (uint32_t[]){f->d1, f->ind1, f->ind2, f->d3, f->dind, f->ind3, f->d4, f->ind4, f->d5},
	    9);
	CHECK_EQ_U64(first_addr_of(&t.log, f->d2), t.log.nev);
	CHECK(first_addr_of(&t.log, f->d5) < t.log.nev);
	CHECK_EQ_U64(t.log.gets, 8);
	CHECK_EQ_U64(t.log.puts, 8);

	/* a source's own error, the same way */
	case_reset(&t);
	t.log.fail_nid = f->ind3;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), 0);
	e = node_event(&t.log, f->ind3);
	CHECK(e && e->kind == EV_FAILED && e->addr == (uint32_t)-EIO);
	CHECK(first_addr_of(&t.log, f->d4) == t.log.nev &&
	      first_addr_of(&t.log, f->d5) < t.log.nev);
	case_free(&t);
}

static void test_walk_abort(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	uint32_t nids[MAX_EVENTS];

	if (!case_make(&t, F2FS_TREE_READ_ONLY)) {
		CHECK(0);
		return;
	}
	/* the seventh address is d2's: the walk stops inside indirect node 1 */
	t.log.abort_at = 7;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), F2FS_TREE_ABORT);
	CHECK_EQ_U64(t.log.naddr_calls, 7);
	CHECK_EQ_U64(t.log.gets, 3);
	CHECK_EQ_U64(t.log.puts, 3);
	/* a node callback too, before the node's subtree */
	case_reset(&t);
	t.log.abort_at = 0;
	t.log.abort_nid = f->ind2;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), F2FS_TREE_ABORT);
	check_nids(nids, node_order(&t.log, nids), (uint32_t[]){f->d1, f->ind1, f->d2, f->ind2}, 4);
	CHECK_EQ_U64(first_addr_of(&t.log, f->d3), t.log.nev);
	CHECK_EQ_U64(t.log.gets, t.log.puts);
	case_free(&t);
}

static void test_walk_from(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	uint64_t from;

	if (!case_make(&t, F2FS_TREE_READ_ONLY)) {
		CHECK(0);
		return;
	}
	/* from the first block of the last child of indirect node 2 */
	from = f->addrs + (uint64_t)f->per * (2 + N + N - 1);
	t.w.from = from;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), 0);
	check_addrs(&t.log, f, from);
	/* the nodes wholly before it are not even read */
	check_nids(t.log.got, t.log.ngot,
		   (uint32_t[]){f->ind2, f->d3, f->dind, f->ind3, f->d4, f->ind4, f->d5}, 7);
	/* from inside the inode's own: its later ones and all the nodes */
	case_reset(&t);
	t.w.from = 6;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), 0);
	check_addrs(&t.log, f, 6);
	CHECK_EQ_U64(t.log.ngot, 10);
	case_free(&t);
}

/* ---- the leaf step alone ---- */

static void test_walk_addrs(void)
{
	struct tree_case t;
	const struct tree_file *f = &t.f;
	struct f2fs_node d4;
	uint32_t ofs_d4 = f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()) + 1 + 2 * (N + 1) + 1 + 7;
	struct f2fs_tree_pos at = {.ofs = ofs_d4, .first = 1000, .blk = &d4};

	if (!case_make(&t, F2FS_TREE_READ_ONLY)) {
		CHECK(0);
		return;
	}
	at.ino = f->ino;
	at.nid = f->d4;
	CHECK_EQ_U64(f2fs_read_node(t.m.fs, f->d4, f->ino, &d4), 0);
	/* a direct node: its one address, index 9, file block first + 9 */
	CHECK_EQ_U64(f2fs_tree_walk_addrs(&t.w, &at, f->per, NULL), 0);
	CHECK_EQ_U64(t.log.nev, 1);
	CHECK(t.log.ev[0].kind == EV_ADDR && t.log.ev[0].index == 9 && t.log.ev[0].fblk == 1009 &&
	      t.log.ev[0].addr == f->addr[8]);
	/* with the holes: every slot */
	case_reset(&t);
	t.w.flags |= F2FS_TREE_HOLES;
	CHECK_EQ_U64(f2fs_tree_walk_addrs(&t.w, &at, f->per, NULL), 0);
	CHECK_EQ_U64(t.log.nev, f->per);
	/* the inode's own */
	case_reset(&t);
	t.w.flags = F2FS_TREE_READ_ONLY;
	at = (struct f2fs_tree_pos){.ino = f->ino, .nid = f->ino, .blk = &t.inode};
	CHECK_EQ_U64(f2fs_tree_walk_addrs(&t.w, &at, f->per, NULL), 0);
	CHECK_EQ_U64(t.log.nev, 4);
	/* an indirect node holds none */
	case_reset(&t);
	at.ofs = F2FS_NODE_OFS_INDIRECT1;
	CHECK_EQ_U64(f2fs_tree_walk_addrs(&t.w, &at, f->per, NULL), 0);
	CHECK_EQ_U64(t.log.nev, 0);
	/* an inode whose extra attributes run past i_addr[] */
	at.ofs = 0;
	t.inode.i.i_inline |= F2FS_EXTRA_ATTR;
	t.inode.i.i_extra_isize = le16_put(4000);
	CHECK_EQ_U64(f2fs_tree_walk_addrs(&t.w, &at, f->per, NULL), -EUCLEAN);
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), -EUCLEAN);
	CHECK_EQ_U64(t.log.nev, 0);
	/* inline data: no tree at all, whatever i_nid[] says */
	t.inode.i.i_inline = F2FS_INLINE_DATA;
	CHECK_EQ_U64(f2fs_tree_walk(&t.w, &t.inode, NULL), 0);
	CHECK_EQ_U64(t.log.nev + t.log.gets, 0);
	case_free(&t);
}

int main(void)
{
	RUN(test_addr_range);
	RUN(test_tree_geometry);
	RUN(test_walk_pre_order);
	RUN(test_walk_post_order);
	RUN(test_walk_change);
	RUN(test_walk_remove);
	RUN(test_walk_keep_going);
	RUN(test_walk_abort);
	RUN(test_walk_from);
	RUN(test_walk_addrs);
	TEST_EXIT();
}
