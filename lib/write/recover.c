// SPDX-License-Identifier: GPL-2.0
/*
 * Roll-forward recovery, as the kernel runs it at mount (fs/f2fs/recovery.c
 * is the reference for the rules): after a power cut, the warm node log
 * holds, past the checkpoint, the direct nodes and inodes fsync wrote.  A
 * first pass finds the inodes with an fsync-marked block in that chain
 * (making the inode when it was created after the checkpoint and its block
 * carries the dentry mark, find_fsync_dnodes); a second pass applies each
 * chain block of those inodes up to the last fsynced one: the inode's
 * attributes, its name in its parent for a new file, inline xattrs, an
 * xattr node, inline data, and every data address that differs from the
 * checkpointed tree (recover_data, do_recover_data).  A data block the
 * chain names is taken where it lies (wr_claim_block), after whoever held
 * it at the checkpoint lets go of it (check_index_in_prev_nodes).  The
 * caller writes a checkpoint afterwards; until then the recovered state
 * lives in the write path's caches.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/bitops.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/ssa.h"
#include "f2fs/xattr.h"
#include "f2fs/fixup.h"
#include "write_internal.h"

#define FADVISE_KEEP_SIZE_BIT 0x10
#define PIN_AND_DATA_EXIST    (0x40 | F2FS_DATA_EXIST) /* F2FS_PIN_FILE, F2FS_DATA_EXIST */

/* An inode with fsynced blocks in the chain. */
struct fsync_entry {
	uint32_t ino;
	uint64_t last_blk;    /* its last fsync-marked block: recovery ends there */
	uint64_t last_dentry; /* its last inode block with the dentry mark, 0: none */
	bool done;
};

struct recovery {
	struct f2fs_wr *w;
	struct fsync_entry *v;
	size_t n, cap;
	struct f2fs_recovery *rep;
};

static bool is_inode_block(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	return f2fs_node_ofs(g, n) == 0 && f2fs_footer_nid(g, n) == f2fs_footer_ino(g, n);
}

static struct fsync_entry *find_entry(struct recovery *r, uint32_t ino)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].ino == ino)
			return &r->v[i];
	return NULL;
}

static struct fsync_entry *add_entry(struct recovery *r, uint32_t ino)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct fsync_entry *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n] = (struct fsync_entry){.ino = ino};
	return &r->v[r->n++];
}

/* ---- pass 1: which inodes ---- */

/*
 * An inode made after the checkpoint, from its fsynced block (the kernel's
 * f2fs_recover_inode_page): its identity and extra attributes, no blocks,
 * one link; the second pass sets the rest.
 */
static int make_inode(struct f2fs_wr *w, const struct f2fs_node *src)
{
	uint32_t ino = f2fs_footer_ino(wr_bg(w), src);
	const struct f2fs_nat_info *e = wr_nat_get(w, ino);
	struct wr_node *n;
	struct wr_inode *wi;
	int ret;

	if (!e || e->blkaddr != F2FS_NULL_ADDR)
		return -EUCLEAN;
	ret = wr_nat_set(w, ino, ino, F2FS_NEW_ADDR);
	if (!ret)
		ret = wr_node_new(w, ino, ino, 0, S_ISDIR(le16_get(src->i.i_mode)), &n);
	if (ret)
		return ret;
	memcpy(&n->blk.i, &src->i, offsetof(struct f2fs_inode, i_ext));
	n->blk.i.i_size = 0;
	n->blk.i.i_blocks = le64_put(1);
	n->blk.i.i_links = le32_put(1);
	n->blk.i.i_xattr_nid = 0;
	n->blk.i.i_inline = src->i.i_inline & (F2FS_INLINE_XATTR | F2FS_EXTRA_ATTR);
	if (src->i.i_inline & F2FS_EXTRA_ATTR) {
		n->blk.i.i_extra_isize = src->i.i_extra_isize;
		if (F2FS_INODE_FITS(&src->i, i_inline_xattr_size))
			n->blk.i.i_inline_xattr_size = src->i.i_inline_xattr_size;
		if (F2FS_INODE_FITS(&src->i, i_projid))
			n->blk.i.i_projid = src->i.i_projid;
		if (F2FS_INODE_FITS(&src->i, i_crtime_nsec)) {
			n->blk.i.i_crtime = src->i.i_crtime;
			n->blk.i.i_crtime_nsec = src->i.i_crtime_nsec;
		}
	}
	w->valid_inodes++;
	wr_quota_charge(w, n, 1, 0);
	wi = wr_inode_find(w, ino, true);
	if (wi)
		wi->created = true;
	wr_node_put(n);
	return wi ? 0 : -ENOMEM;
}

static int note_block(uint64_t blkaddr, const struct f2fs_node *n, void *arg)
{
	struct recovery *r = arg;
	const struct f2fs_blkgeo *g = wr_bg(r->w);
	uint32_t ino = f2fs_footer_ino(g, n), flag = f2fs_footer_flag(g, n);
	bool dent = is_inode_block(g, n) && (flag & (1u << F2FS_DENT_BIT_SHIFT));
	const struct f2fs_nat_info *e;
	struct fsync_entry *en;
	int ret;

	r->rep->chain++;
	if (!(flag & (1u << F2FS_FSYNC_BIT_SHIFT)) || !wr_is_dnode(g, n))
		return 0;
	r->rep->fsynced++;
	en = find_entry(r, ino);
	if (!en) {
		e = wr_nat_get(r->w, ino);
		if (!e || (e->blkaddr == F2FS_NULL_ADDR && !dent)) {
			/* its inode is neither checkpointed nor recoverable: dropped, as mount
			 * drops it */
			r->rep->skipped++;
			return 0;
		}
		if (e->blkaddr == F2FS_NULL_ADDR) {
			ret = make_inode(r->w, n);
			if (ret)
				return ret;
			r->rep->created++;
		}
		en = add_entry(r, ino);
		if (!en)
			return -ENOMEM;
	}
	en->last_blk = blkaddr;
	if (dent)
		en->last_dentry = blkaddr;
	return 0;
}

/* ---- pass 2: the inode ---- */

/* The attributes an fsync carries (the kernel's recover_inode). */
static void recover_attrs(struct f2fs_inode *dst, const struct f2fs_inode *src)
{
	dst->i_mode = src->i_mode;
	dst->i_uid = src->i_uid;
	dst->i_gid = src->i_gid;
	if ((src->i_inline & F2FS_EXTRA_ATTR) && F2FS_INODE_FITS(src, i_projid) &&
	    F2FS_INODE_FITS(dst, i_projid))
		dst->i_projid = src->i_projid;
	dst->i_size = src->i_size;
	dst->i_atime = src->i_atime;
	dst->i_atime_nsec = src->i_atime_nsec;
	dst->i_ctime = src->i_ctime;
	dst->i_ctime_nsec = src->i_ctime_nsec;
	dst->i_mtime = src->i_mtime;
	dst->i_mtime_nsec = src->i_mtime_nsec;
	dst->i_advise = src->i_advise;
	dst->i_flags = src->i_flags;
	dst->i_gc_failures = src->i_gc_failures;
	dst->i_inline =
	    (uint8_t)((dst->i_inline & ~PIN_AND_DATA_EXIST) | (src->i_inline & PIN_AND_DATA_EXIST));
}

/* The name of a new file, in the parent its block names (the kernel's recover_dentry). */
static int recover_dentry(struct recovery *r, struct wr_node *in, const struct f2fs_node *src)
{
	uint32_t len = le32_get(src->i.i_namelen), pino = le32_get(src->i.i_pino), found;
	const char *name = (const char *)src->i.i_name;
	uint8_t type = f2fs_mode_file_type(le16_get(in->blk.i.i_mode));
	struct wr_node *dir = NULL, *other = NULL;
	int ret;

	if (len == 0 || len > F2FS_NAME_LEN || type == F2FS_FT_UNKNOWN)
		return 0;
	ret = wr_inode_get(r->w, pino, &dir);
	if (!ret)
		ret = wr_dir_refuse_special(dir);
	if (ret) {
		/* no parent to name it in: the check finds it unreachable, for lost+found */
		r->rep->skipped++;
		wr_node_put(dir);
		return ret == -ENOMEM ? ret : 0;
	}
	ret = wr_dir_lookup(r->w, dir, name, len, &found, NULL);
	if (!ret && found != in->nid) {
		/* another inode holds the name: it loses that link, as in the kernel */
		ret = wr_dir_remove(r->w, dir, name, len);
		if (!ret && !wr_inode_get(r->w, found, &other)) {
			ret = wr_inode_unlink(r->w, &other);
			wr_node_put(other);
		}
		if (!ret)
			ret = -ENOENT;
	}
	if (ret == -ENOENT) {
		ret = wr_dir_add(r->w, dir, name, len, in->nid, type);
		r->rep->dentries += !ret;
	}
	wr_node_put(dir);
	return ret;
}

/* Inline xattrs of the inode block (the kernel's f2fs_recover_inline_xattr). */
static void recover_inline_xattr(struct f2fs_wr *w, struct wr_node *in, const struct f2fs_node *src)
{
	unsigned int words = f2fs_inode_inline_xattr_addrs(&src->i, w->fs->features);
	unsigned int mine = f2fs_inode_inline_xattr_addrs(&in->blk.i, w->fs->features);
	const uint8_t *from;

	if (!(src->i.i_inline & F2FS_INLINE_XATTR)) {
		in->blk.i.i_inline &= (uint8_t)~F2FS_INLINE_XATTR;
		return;
	}
	if (!words || words != mine || words > wr_bg(w)->addrs_per_inode)
		return;
	/* the same words of both (words == mine), whatever @in's flags say yet */
	from = f2fs_inline_xattr(wr_bg(w), &src->i, w->fs->features);
	memcpy((uint8_t *)&in->blk.i + (from - (const uint8_t *)&src->i), from, (size_t)words * 4);
	in->blk.i.i_inline |= F2FS_INLINE_XATTR;
}

/* The xattr node (the kernel's f2fs_recover_xattr_data): a new one when the inode had none. */
static int recover_xattr_node(struct f2fs_wr *w, struct wr_node *in, const struct f2fs_node *src)
{
	uint32_t xnid = le32_get(in->blk.i.i_xattr_nid);
	struct wr_node *x;
	int ret;

	if (xnid)
		ret = wr_node_get(w, xnid, in->nid, &x);
	else if ((ret = wr_nid_alloc(w, in->nid, &xnid)) == 0)
		ret = wr_node_new(w, in->nid, xnid, F2FS_XATTR_NODE_OFFSET, false, &x);
	if (ret)
		return ret;
	memcpy(&x->blk, src, wr_bg(w)->footer_offset);
	wr_node_dirty(w, x);
	wr_node_put(x);
	if (!in->blk.i.i_xattr_nid) {
		in->blk.i.i_xattr_nid = le32_put(xnid);
		wr_inode_add_blocks(w, in, 1);
	}
	return 0;
}

/*
 * Inline data (the kernel's f2fs_recover_inline_data).  Returns 1 when the
 * block's data was inline (nothing more to recover), else 0.
 */
static int recover_inline_data(struct f2fs_wr *w, struct wr_node *in, const struct f2fs_node *src)
{
	struct f2fs_inode *ri = &in->blk.i;
	bool src_inline = is_inode_block(wr_bg(w), src) && (src->i.i_inline & F2FS_INLINE_DATA);
	unsigned int bytes;
	int ret;

	if (!(ri->i_inline & F2FS_INLINE_DATA) && !src_inline)
		return 0;
	if (!src_inline) {
		/* converted after the checkpoint: the inline copy goes */
		memset((uint8_t *)f2fs_inline_data(ri), 0,
		       f2fs_inline_data_bytes(wr_bg(w), ri, w->fs->features));
		ri->i_inline &= (uint8_t) ~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
		return 0;
	}
	if (!(ri->i_inline & F2FS_INLINE_DATA)) {
		ret = wr_truncate_blocks(w, in, 0);
		if (ret)
			return ret;
		ri->i_inline |= F2FS_INLINE_DATA;
	}
	bytes = f2fs_inline_data_bytes(wr_bg(w), &src->i, w->fs->features);
	if (bytes != f2fs_inline_data_bytes(wr_bg(w), ri, w->fs->features))
		return 1; /* different layouts: the check reports what is left */
	memcpy((uint8_t *)f2fs_inline_data(ri), f2fs_inline_data(&src->i), bytes);
	ri->i_inline =
	    (uint8_t)((ri->i_inline & ~F2FS_DATA_EXIST) | (src->i.i_inline & F2FS_DATA_EXIST));
	return 1;
}

/* ---- pass 2: the data addresses ---- */

/* Drop address @index of @dn (its block invalid, the inode's count one less). */
static void drop_addr(struct f2fs_wr *w, struct wr_dnode *dn, struct wr_node *in)
{
	uint32_t old = wr_dnode_addr(dn);

	if (old == F2FS_NULL_ADDR)
		return;
	if (old == F2FS_NEW_ADDR)
		w->valid_blocks--; /* a reservation counts as a valid block (free_addr) */
	wr_invalidate(w, old);
	wr_dnode_set_addr(w, dn, F2FS_NULL_ADDR);
	wr_inode_add_blocks(w, in, -1);
}

/* How many data addresses node @n holds (0 for one that holds none). */
static unsigned int addrs_in(struct f2fs_wr *w, const struct wr_node *n)
{
	unsigned int start, count;

	f2fs_node_addr_range(wr_bg(w), &n->blk, f2fs_node_ofs(wr_bg(w), &n->blk), w->fs->features,
			     wr_bg(w)->addrs_per_block, &start, &count);
	return count;
}

/*
 * Block @dest is valid: its owner at the checkpoint lets go of it (the
 * kernel's check_index_in_prev_nodes), found through its summary entry.
 */
static int release_prev_owner(struct f2fs_wr *w, uint64_t dest)
{
	uint32_t segno = f2fs_geo_segno(&w->fs->geo, dest),
		 off = f2fs_geo_blkoff(&w->fs->geo, dest);
	int log = f2fs_cp_log_of_segment(w->fs->cpd, segno), ret = 0;
	const struct f2fs_summary_block *sum;
	struct wr_dnode dn = {0};
	struct wr_node *owner = NULL;
	uint32_t nid, ofs;

	if (!wr_block_valid(w, dest))
		return 0;
	sum = log >= 0 ? &w->fs->cpd->curseg_sum[log] : f2fs_ssa_get(w->fs->ssa, segno, &ret);
	if (!sum)
		return ret;
	nid = le32_get(sum->entries[off].nid);
	ofs = le16_get(sum->entries[off].ofs_in_node);
	if (wr_node_get(w, nid, 0, &dn.node) == 0) {
		dn.ofs = ofs;
		dn.in_inode = wr_node_is_inode(w, dn.node);
		if (ofs < addrs_in(w, dn.node) && wr_dnode_addr(&dn) == dest &&
		    wr_inode_get(w, dn.node->ino, &owner) == 0) {
			drop_addr(w, &dn, owner);
			wr_drop_extent(w, owner, 0, UINT64_MAX);
			wr_node_put(owner);
		}
		wr_dnode_put(&dn);
	}
	wr_invalidate(w, dest); /* whoever held it, it is the recovered file's now */
	return 0;
}

/* Recover address @i of the chain block @src into @dn (do_recover_data's loop body). */
static int recover_addr(struct recovery *r, struct wr_node *in, struct wr_dnode *dn, uint32_t dest,
			uint8_t version)
{
	struct f2fs_wr *w = r->w;
	uint32_t src = wr_dnode_addr(dn);
	bool was_hole = src == F2FS_NULL_ADDR;
	int ret;

	if (src == dest)
		return 0;
	if (dest == F2FS_NULL_ADDR) {
		drop_addr(w, dn, in);
		return 0;
	}
	if (!(in->blk.i.i_advise & FADVISE_KEEP_SIZE_BIT) &&
	    le64_get(in->blk.i.i_size) <= dn->index * wr_blksize(w))
		in->blk.i.i_size = le64_put((dn->index + 1) * wr_blksize(w));
	if (dest != F2FS_NEW_ADDR && !f2fs_geo_in_main(&w->fs->geo, dest))
		return dest == F2FS_COMPRESS_ADDR ? 0 : -EUCLEAN; /* a cluster head: left */
	drop_addr(w, dn, in);
	wr_inode_add_blocks(w, in, 1);
	if (dest == F2FS_NEW_ADDR) {
		wr_dnode_set_addr(w, dn, F2FS_NEW_ADDR);
		w->valid_blocks++;
		return 0;
	}
	ret = release_prev_owner(w, dest);
	if (!ret)
		ret = wr_claim_block(w, dest, was_hole, dn->nid, (uint16_t)dn->ofs, version);
	if (!ret) {
		wr_dnode_set_addr(w, dn, dest);
		r->rep->blocks++;
	}
	return ret;
}

/* The recovery of one chain block's addresses into inode @in. */
struct addr_recovery {
	struct recovery *r;
	struct wr_node *in;
	int err;
};

/* Address @a of a chain block, of the inode's file block the same (do_recover_data's loop body). */
static unsigned int recover_one(struct f2fs_tree_addr *a, void *arg)
{
	struct addr_recovery *ar = arg;
	struct f2fs_wr *w = ar->r->w;
	const struct f2fs_nat_info *e;
	struct wr_dnode dn;

	ar->err = wr_dnode_get(w, ar->in, a->file_block, true, &dn);
	if (ar->err)
		return F2FS_TREE_ABORT;
	if (f2fs_node_ofs(wr_bg(w), &dn.node->blk) != a->node->ofs) {
		ar->err = -EUCLEAN; /* the kernel's "Inconsistent ofs_of_node" */
	} else {
		e = wr_nat_get(w, dn.nid);
		ar->err = recover_addr(ar->r, ar->in, &dn, a->addr, e ? e->version : 0);
	}
	wr_dnode_put(&dn);
	return ar->err ? F2FS_TREE_ABORT : 0;
}

/*
 * The data addresses of chain block @src (step 3 of do_recover_data), holes
 * too: a hole in the chain block drops the address the tree has.  Where
 * they lie in the file, the inode as it is now says.
 */
static int recover_addrs(struct recovery *r, struct wr_node *in, const struct f2fs_node *src)
{
	struct f2fs_wr *w = r->w;
	uint32_t ofs = f2fs_node_ofs(wr_bg(w), src);
	unsigned int per = f2fs_direct_addrs(wr_bg(w), &in->blk.i);
	struct addr_recovery a = {.r = r, .in = in};
	struct f2fs_tree_walk walk = {.flags = F2FS_TREE_READ_ONLY | F2FS_TREE_HOLES,
				      .features = w->fs->features,
				      .addr = recover_one,
				      .arg = &a};
	/* a read-only walk leaves the chain block as it is */
	struct f2fs_tree_pos at = {
	    .ino = in->ino,
	    .nid = f2fs_footer_nid(wr_bg(w), src),
	    .ofs = ofs,
	    .first = f2fs_node_first_block(
		wr_bg(w), ofs, f2fs_inode_addrs(wr_bg(w), &in->blk.i, w->fs->features), per),
	    .blk = (struct f2fs_node *)src};
	int ret = f2fs_tree_walk_addrs(&walk, &at, per, NULL);

	return ret < 0 ? ret : a.err;
}

static int recover_block(uint64_t blkaddr, const struct f2fs_node *n, void *arg)
{
	struct recovery *r = arg;
	const struct f2fs_blkgeo *g = wr_bg(r->w);
	struct fsync_entry *en = find_entry(r, f2fs_footer_ino(g, n));
	struct wr_node *in;
	int ret;

	if (!en || en->done || !wr_is_dnode(g, n))
		return 0;
	ret = wr_inode_get(r->w, en->ino, &in);
	if (ret)
		return ret;
	if (is_inode_block(g, n)) {
		recover_attrs(&in->blk.i, &n->i);
		r->rep->inodes++;
	}
	if (en->last_dentry == blkaddr)
		ret = recover_dentry(r, in, n);
	if (!ret && is_inode_block(g, n))
		recover_inline_xattr(r->w, in, n);
	if (!ret && f2fs_node_ofs(g, n) == F2FS_XATTR_NODE_OFFSET)
		ret = recover_xattr_node(r->w, in, n);
	else if (!ret && (ret = recover_inline_data(r->w, in, n)) == 0)
		ret = recover_addrs(r, in, n);
	if (ret == 1)
		ret = 0;
	wr_node_dirty(r->w, in);
	wr_node_put(in);
	r->rep->dnodes += !ret;
	if (en->last_blk == blkaddr)
		en->done = true;
	return ret;
}

/* ---- the whole ---- */

int f2fs_roll_forward(struct f2fs_fs *fs, struct f2fs_recovery *rep)
{
	struct recovery r = {.rep = rep};
	unsigned int moved;
	int ret;

	memset(rep, 0, sizeof(*rep));
	if (!(fs->flags & F2FS_FS_ROLL_FORWARD))
		return -EINVAL;
	ret = wr_get(fs, &r.w);
	if (ret)
		return ret;
	if (r.w->dirty)
		return -EBUSY; /* the chain must be applied before anything else changes */
	if (!ret)
		ret = f2fs_roll_forward_walk(fs, note_block, &r);
	if (!ret && r.n)
		ret = f2fs_roll_forward_walk(fs, recover_block, &r);
	if (!ret && r.n) {
		wr_alloc_recount(r.w);
		/* logs past which recovered blocks now lie move on (f2fs_allocate_new_segments) */
		ret = f2fs_fix_logs(fs, &moved);
		wr_mark_dirty(r.w);
	}
	rep->recovered_inodes = (uint32_t)r.n;
	free(r.v);
	return ret ? wr_fail(r.w, ret) : 0;
}
