// SPDX-License-Identifier: GPL-2.0
/*
 * The fixes that go to one problem at a time: an inode's counts and fields,
 * a summary entry, a directory entry, a pointer, a NAT entry, a node
 * footer, an xattr list, a block owned twice.  Each takes the particulars
 * the check gave (value, expected, the place) and calls one write-path
 * primitive of lib/write/fixup.c.  A problem whose fix cannot apply (its
 * inode unreadable by now, say) is left for the next check to report; only
 * an I/O or memory error ends the repair.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "repair_internal.h"

/*
 * The inode fix problem @it asks for, from the value the check gave as
 * expected: counts as found, the type and name length of the entry naming
 * the inode, sizes from the volume's features, flags that do not fit
 * cleared, sizes rounded or capped.  -EINVAL when it has none to give.
 */
static int inode_fix_of(const struct fix_item *it, struct f2fs_inode_fix *fix)
{
	uint64_t e = it->expected;

	*fix = (struct f2fs_inode_fix){0};
	switch (it->code) {
	case PR_INODE_LINKS:
	case PR_DIR_LINKS:
		fix->set_links = true;
		fix->links = (uint32_t)e;
		break;
	case PR_INODE_BLOCKS:
		fix->set_blocks = true;
		fix->blocks = e;
		break;
	case PR_DIR_PINO:
		fix->set_pino = true;
		fix->pino = (uint32_t)e;
		break;
	case PR_INODE_EXTENT:
		fix->clear_extent = true;
		break;
	case PR_INODE_CHECKSUM:
		break; /* written again: the checksum is recomputed */
	case PR_INODE_MODE:
		if (!f2fs_file_type_mode((uint8_t)e))
			return -EINVAL; /* no entry says what it is */
		fix->set_type = true;
		fix->type = (uint8_t)e;
		break;
	case PR_INODE_EXTRA_ISIZE:
		fix->set_extra_isize = true;
		fix->extra_isize = (uint16_t)e;
		break;
	case PR_INODE_INLINE_XATTR:
		fix->set_inline_xattr_size = true;
		fix->inline_xattr_size = (uint16_t)e;
		break;
	case PR_INODE_ADVISE:
		fix->set_advise = true;
		fix->advise = (uint8_t)e;
		break;
	case PR_DIR_LEVEL:
		fix->set_dir_level = true;
		fix->dir_level = (uint8_t)e;
		break;
	case PR_DIR_DEPTH:
		fix->set_depth = true;
		fix->depth = (uint32_t)e;
		break;
	case PR_INODE_NAMELEN:
		if (!e)
			return -EINVAL; /* no entry names it */
		fix->set_namelen = true;
		fix->namelen = (uint32_t)e;
		break;
	case PR_INODE_INLINE:
	case PR_INODE_INLINE_JUNK:
		fix->set_inline = true;
		fix->i_inline = (uint8_t)e;
		break;
	case PR_INODE_SIZE:
	case PR_INODE_INLINE_SIZE:
		fix->set_size = true;
		fix->size = e;
		break;
	case PR_INODE_CASEFOLD:
	case PR_INODE_COMPRESS:
	case PR_INODE_DEVICE_ALIAS:
		fix->set_flags = true;
		fix->flags = (uint32_t)e;
		break;
	case PR_INODE_INLINE_RESERVED:
		fix->clear_inline_reserved = true;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* Counts, i_pino, i_ext, checksums: a failure to write one of these ends the repair. */
static int fix_inodes(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep)
{
	const struct fix_queue *q = &r->q[kind];
	struct f2fs_inode_fix fix;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < q->n; i++) {
		ret = inode_fix_of(&q->items[i], &fix);
		if (!ret)
			ret = f2fs_fix_inode(r->fs, q->items[i].nid, &fix);
		rep->changed += !ret;
	}
	return ret;
}

/*
 * Does a fix of one item that failed leave the volume as it was?  Then the
 * item is left for the re-check to report, and the others go on; an I/O
 * or memory error ends the repair.
 */
static bool item_skipped(int ret)
{
	return ret && ret != -ENOMEM && ret != -EIO;
}

/* Run @fix_one on each item of @kind; items it cannot fix are left. */
static int fix_each(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep,
		    int (*fix_one)(struct f2fs_repair *, const struct fix_item *))
{
	const struct fix_queue *q = &r->q[kind];
	size_t i;

	for (i = 0; i < q->n; i++) {
		int ret = fix_one(r, &q->items[i]);

		if (ret && !item_skipped(ret))
			return ret;
		rep->changed += !ret;
	}
	return 0;
}

/* Entries whose place the walk knew: hash, type, bitmap, bucket. */
static int fix_one_dentry(struct f2fs_repair *r, const struct fix_item *it)
{
	enum f2fs_dentry_fix op;

	if (it->at.kind != F2FS_PLACE_ENTRY)
		return -EINVAL;
	switch (it->code) {
	case PR_DENT_HASH:
		op = F2FS_DENTRY_FIX_HASH;
		break;
	case PR_DENT_FILE_TYPE:
		op = F2FS_DENTRY_FIX_TYPE;
		break;
	case PR_DENT_BITMAP:
		op = F2FS_DENTRY_FIX_MARK;
		break;
	case PR_DENT_POSITION:
		op = F2FS_DENTRY_FIX_MOVE;
		break;
	default:
		return -EINVAL;
	}
	return f2fs_fix_dentry(r->fs, it->at.node, it->at.block, it->at.index, op);
}

/* Is @ino a directory?  (A second entry is dropped only for one.) */
static bool is_dir(struct f2fs_repair *r, uint32_t ino)
{
	struct f2fs_inode_attr a;

	return !f2fs_getattr(r->fs, ino, &a) && S_ISDIR(a.mode);
}

/* Cut the link at the problem's place: remove the entry, zero the pointer. */
static int fix_one_detach(struct f2fs_repair *r, const struct fix_item *it)
{
	static const enum f2fs_pointer ptr[] = {
	    [F2FS_PLACE_ADDR] = F2FS_POINTER_ADDR,
	    [F2FS_PLACE_NID] = F2FS_POINTER_NID,
	    [F2FS_PLACE_XATTR_NID] = F2FS_POINTER_XATTR_NID,
	};
	const struct f2fs_place *at = &it->at;

	switch (at->kind) {
	case F2FS_PLACE_ENTRY:
		if (it->code == PR_DIR_MULTIPLE_PARENTS && !is_dir(r, it->nid))
			return -EINVAL; /* a hard link after all: the type fix is its repair */
		return f2fs_fix_dentry(r->fs, at->node, at->block, at->index,
				       F2FS_DENTRY_FIX_CLEAR);
	case F2FS_PLACE_ADDR:
	case F2FS_PLACE_NID:
	case F2FS_PLACE_XATTR_NID:
		return f2fs_fix_pointer(r->fs, at->ino, at->node, ptr[at->kind], at->index);
	default:
		return -EINVAL; /* nowhere known to cut */
	}
}

static int fix_one_dots(struct f2fs_repair *r, const struct fix_item *it)
{
	if (it->at.kind != F2FS_PLACE_ENTRY)
		return -EINVAL;
	return f2fs_fix_dots(r->fs, it->at.node, it->at.block, (uint32_t)it->expected);
}

static int fix_one_nat(struct f2fs_repair *r, const struct fix_item *it)
{
	return f2fs_fix_nat_ino(r->fs, it->nid, (uint32_t)it->expected);
}

/* An inode field out of range (the kinds whose items may be left for the re-check). */
static int fix_one_fields(struct f2fs_repair *r, const struct fix_item *it)
{
	struct f2fs_inode_fix fix;
	int ret = inode_fix_of(it, &fix);

	return ret ? ret : f2fs_fix_inode(r->fs, it->nid, &fix);
}

/* The xattr list ends before its damaged entry or its trailing bytes (value: their offset). */
static int fix_one_xattr(struct f2fs_repair *r, const struct fix_item *it)
{
	return f2fs_fix_xattr_cut(r->fs, it->nid, (size_t)it->value);
}

/* The second owner of a block gets its own copy (e2fsck clones such blocks too). */
static int fix_one_clone(struct f2fs_repair *r, const struct fix_item *it)
{
	if (it->at.kind != F2FS_PLACE_ADDR)
		return -EINVAL;
	return f2fs_fix_clone(r->fs, it->at.ino, it->at.node, it->at.index, it->at.block,
			      it->blkaddr);
}

/* The newest copy of an inode block: checkpoint version, then the SIT's word, then address. */
struct best_copy {
	uint64_t blkaddr, ver;
	bool sit_valid, found;
};

static int keep_newest(const struct f2fs_inode_copy *c, void *arg)
{
	struct best_copy *b = arg;
	uint64_t ver = (uint32_t)c->cp_ver;

	if (c->flag >> F2FS_OFFSET_BIT_SHIFT)
		return 0; /* not an inode block */
	if (b->found &&
	    (ver < b->ver ||
	     (ver == b->ver && (b->sit_valid > c->sit_valid ||
				(b->sit_valid == c->sit_valid && c->blkaddr < b->blkaddr)))))
		return 0;
	*b = (struct best_copy){c->blkaddr, ver, c->sit_valid, true};
	return 0;
}

static int fix_one_restore(struct f2fs_repair *r, const struct fix_item *it)
{
	struct best_copy b = {0};
	int ret = f2fs_find_inode_copies(r->fs, it->nid, keep_newest, NULL, &b);

	if (ret)
		return ret;
	if (b.found)
		return f2fs_fix_node_restore(r->fs, it->nid, b.blkaddr);
	/* no copy left: a new root; a quota file is not made again (left, -ENOENT) */
	return it->code == PR_ROOT_INODE ? f2fs_fix_new_root(r->fs) : -ENOENT;
}

static int fix_one_footer(struct f2fs_repair *r, const struct fix_item *it)
{
	if (it->code == PR_ROOT_FOOTER)
		return f2fs_fix_node_ids(r->fs, it->nid, (uint32_t)it->expected);
	return f2fs_fix_node_ofs(r->fs, it->nid, (uint32_t)it->expected);
}

static int fix_summaries(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	const struct fix_queue *q = &r->q[F2FS_FIX_SSA];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < q->n; i++) {
		const struct fix_item *it = &q->items[i];

		ret = f2fs_fix_summary(r->fs, it->blkaddr, it->nid, (uint16_t)it->expected,
				       it->value != 0);
		rep->changed += !ret;
	}
	return ret;
}

int repair_items(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep)
{
	static int (*const one[F2FS_NR_FIXES])(struct f2fs_repair *, const struct fix_item *) = {
	    [F2FS_FIX_DENTRY] = fix_one_dentry,	  [F2FS_FIX_DETACH] = fix_one_detach,
	    [F2FS_FIX_DOTS] = fix_one_dots,	  [F2FS_FIX_NAT] = fix_one_nat,
	    [F2FS_FIX_FIELDS] = fix_one_fields,	  [F2FS_FIX_FOOTER] = fix_one_footer,
	    [F2FS_FIX_XATTR] = fix_one_xattr,	  [F2FS_FIX_CLONE] = fix_one_clone,
	    [F2FS_FIX_RESTORE] = fix_one_restore,
	};

	switch (kind) {
	case F2FS_FIX_SSA:
		return fix_summaries(r, rep);
	case F2FS_FIX_LINKS:
	case F2FS_FIX_BLOCKS:
	case F2FS_FIX_PINO:
	case F2FS_FIX_EXTENT:
	case F2FS_FIX_REWRITE:
		return fix_inodes(r, kind, rep);
	default:
		return one[kind] ? fix_each(r, kind, rep, one[kind]) : 0;
	}
}
