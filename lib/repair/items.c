// SPDX-License-Identifier: GPL-2.0
/*
 * The fixes that go to one problem at a time.  A problem whose table row
 * names an inode field gets it set, the same way for every such code, from
 * the value the row says (the check's expected, zero, the mode of a file
 * type).  The others -- a summary entry, a directory entry, a pointer, a
 * NAT entry, a node footer, an xattr list, a block owned twice, a lost
 * root -- have a function per fix kind, which takes the particulars the
 * check gave (value, expected, the place) to one write-path primitive of
 * lib/write/fixup.c.  A problem whose fix cannot apply (its inode
 * unreadable by now, say) is left for the next check to report; only an
 * I/O or memory error ends the repair.
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
 * Does a fix of one item that failed leave the volume as it was?  Then the
 * item is left for the re-check to report, and the others go on; an I/O
 * or memory error ends the repair.
 */
static bool item_skipped(int ret)
{
	return ret && ret != -ENOMEM && ret != -EIO;
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

/* A block's summary entry from its owner (value: 1 for a node block; expected: ofs_in_node). */
static int fix_one_summary(struct f2fs_repair *r, const struct fix_item *it)
{
	return f2fs_fix_summary(r->fs, it->blkaddr, it->nid, (uint16_t)it->expected,
				it->value != 0);
}

/* An inode written again: its checksum is recomputed. */
static int fix_one_rewrite(struct f2fs_repair *r, const struct fix_item *it)
{
	return f2fs_fix_inode_field(r->fs, it->nid, 0, 0, 0, 0);
}

/* The word before the inline area: where it lies follows i_extra_isize. */
static int fix_one_inline_reserved(struct f2fs_repair *r, const struct fix_item *it)
{
	return it->code == PR_INODE_INLINE_RESERVED ? f2fs_fix_inline_reserved(r->fs, it->nid)
						    : -EINVAL;
}

/* The value the field fix @f writes for @it into *v; false when there is none. */
static bool field_value(const struct f2fs_field_fix *f, const struct fix_item *it, uint64_t *v)
{
	switch (f->from) {
	case F2FS_FROM_EXPECTED:
		*v = it->expected;
		return true;
	case F2FS_FROM_EXPECTED_SET:
		*v = it->expected;
		return *v != 0;
	case F2FS_FROM_ZERO:
		*v = 0;
		return true;
	case F2FS_FROM_TYPE_MODE:
		*v = it->expected < 256 ? f2fs_file_type_mode((uint8_t)it->expected) : 0;
		return *v != 0;
	default:
		return false;
	}
}

/* The inode field @it's row names, set (-EINVAL: no value to set it to). */
static int fix_one_field(struct f2fs_repair *r, const struct fix_item *it,
			 const struct f2fs_field_fix *f)
{
	uint64_t v;

	if (!field_value(f, it, &v))
		return -EINVAL;
	return f2fs_fix_inode_field(r->fs, it->nid, f->offset, f->width, f->mask, v);
}

/* One problem's fix: the field its row names, else its fix kind's own. */
static int fix_one(struct f2fs_repair *r, const struct fix_item *it)
{
	static int (*const own[F2FS_NR_FIXES])(struct f2fs_repair *, const struct fix_item *) = {
	    [F2FS_FIX_SSA] = fix_one_summary,
	    [F2FS_FIX_REWRITE] = fix_one_rewrite,
	    [F2FS_FIX_FIELDS] = fix_one_inline_reserved,
	    [F2FS_FIX_DENTRY] = fix_one_dentry,
	    [F2FS_FIX_DETACH] = fix_one_detach,
	    [F2FS_FIX_DOTS] = fix_one_dots,
	    [F2FS_FIX_NAT] = fix_one_nat,
	    [F2FS_FIX_FOOTER] = fix_one_footer,
	    [F2FS_FIX_XATTR] = fix_one_xattr,
	    [F2FS_FIX_CLONE] = fix_one_clone,
	    [F2FS_FIX_RESTORE] = fix_one_restore,
	};
	const struct f2fs_problem_info *info = f2fs_problem_info(it->code);

	if (!info)
		return -EINVAL;
	if (info->field.from != F2FS_FROM_NONE)
		return fix_one_field(r, it, &info->field);
	return own[info->fix] ? own[info->fix](r, it) : -EINVAL;
}

int repair_items(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep)
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
