// SPDX-License-Identifier: GPL-2.0
/*
 * Running the fixes fsck approved.  Problems arrive one by one with the
 * caller's verdict; each table row names its fix kind, and the kinds run
 * once each, in an order where every fix sees a consistent volume: the
 * space accounting first (SIT from the blocks the walk reached, NAT
 * entries nothing reaches freed, the counts, the logs moved past used
 * blocks), then the inodes (written through the node cache, so their new
 * blocks come from the rebuilt allocator), then one checkpoint.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/node.h"
#include "f2fs/geometry.h"
#include "f2fs/repair.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/write.h"

/* A problem whose fix needs its particulars (struct f2fs_problem's). */
struct fix_item {
	uint32_t nid;
	uint64_t blkaddr, value, expected;
	enum f2fs_problem_code code;
	struct f2fs_place at;
};

struct fix_queue {
	unsigned int problems;
	struct fix_item *items;
	size_t n, cap;
};

struct f2fs_repair {
	struct f2fs_fs *fs;
	const struct f2fs_findings *findings;
	const struct f2fs_check_result *res;
	struct fix_queue q[F2FS_NR_FIXES];
	const char *cut_by;    /* the first problem that cut the walk short */
	bool again;	       /* the tree changed under the walk: check and repair once more */
	unsigned int nat_kept; /* unreachable NAT entries not being freed */
};

int f2fs_repair_begin(struct f2fs_fs *fs, struct f2fs_repair **out)
{
	struct f2fs_repair *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->fs = fs;
	*out = r;
	return 0;
}

static int push(struct fix_queue *q, const struct f2fs_problem *p)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 16;
		struct fix_item *grown = realloc(q->items, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		q->items = grown;
		q->cap = cap;
	}
	q->items[q->n++] = (struct fix_item){.nid = p->nid,
					     .blkaddr = p->blkaddr,
					     .value = p->value,
					     .expected = p->expected,
					     .code = p->code,
					     .at = p->at};
	return 0;
}

int f2fs_repair_note(struct f2fs_repair *r, const struct f2fs_problem *p, bool fix)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	if (!info)
		return 0;
	if (!info->warning && !(info->flags & F2FS_PR_KEEPS_WALK) && !r->cut_by)
		r->cut_by = info->name;
	if (p->code == PR_NAT_UNREACHABLE && !fix)
		r->nat_kept++;
	if (!fix || info->fix == F2FS_FIX_NONE)
		return 0;
	r->q[info->fix].problems++;
	switch (info->fix) {
	case F2FS_FIX_UNREACHABLE:
	case F2FS_FIX_LINKS:
	case F2FS_FIX_BLOCKS:
	case F2FS_FIX_REWRITE:
	case F2FS_FIX_SSA:
	case F2FS_FIX_PINO:
	case F2FS_FIX_EXTENT:
	case F2FS_FIX_DENTRY:
	case F2FS_FIX_DETACH:
	case F2FS_FIX_DOTS:
	case F2FS_FIX_NAT:
	case F2FS_FIX_FIELDS:
	case F2FS_FIX_FOOTER:
	case F2FS_FIX_XATTR:
	case F2FS_FIX_CLONE:
		return push(&r->q[info->fix], p);
	default:
		return 0;
	}
}

/* The type a rebuilt segment gets: its log's, else the stored one if it fits what was found. */
static int segment_type(const struct f2fs_cp_data *cpd, uint32_t segno, uint8_t stored,
			unsigned int kinds)
{
	int log = f2fs_cp_log_of_segment(cpd, segno);
	bool stored_ok = stored < F2FS_NR_CURSEG_TYPE;
	bool stored_node = stored >= F2FS_CURSEG_HOT_NODE;

	if (log >= 0)
		return log;
	if (kinds == F2FS_FOUND_NODE)
		return stored_ok && stored_node ? stored : F2FS_CURSEG_WARM_NODE;
	if (kinds == F2FS_FOUND_DATA)
		return stored_ok && !stored_node ? stored : F2FS_CURSEG_WARM_DATA;
	return stored_ok ? stored : F2FS_CURSEG_HOT_DATA;
}

/* Every main-area segment's SIT entry := the blocks the walk reached there. */
static int rebuild_sit(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	const struct f2fs_geometry *geo = f2fs_fs_geo(r->fs);
	const struct f2fs_sit_table *sit;
	const struct f2fs_cp_data *cpd;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	unsigned int kinds;
	uint32_t segno;
	int ret = f2fs_fs_sit(r->fs, &sit);

	if (!ret)
		ret = f2fs_fs_cp_data(r->fs, &cpd);
	for (segno = 0; !ret && segno < geo->main_segs; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		int type;

		if (!se || !f2fs_findings_segment(r->findings, segno, map, &kinds))
			return -EUCLEAN;
		type = segment_type(cpd, segno, se->type, kinds);
		if (se->valid == se->ckpt_valid && se->type == type &&
		    !memcmp(se->map, map, sizeof(map)))
			continue;
		ret = f2fs_fix_segment(r->fs, segno, map, type);
		rep->changed++;
	}
	return ret;
}

/*
 * The walk was cut short, so the SIT cannot be rebuilt from it, but what it
 * reached is in use for sure: mark those blocks valid where the SIT says
 * free, and move the logs past used blocks, before any fix allocates.
 * Nothing is freed; a later round, with a complete walk, rebuilds the rest.
 */
static int protect_reached(struct f2fs_repair *r)
{
	const struct f2fs_geometry *geo = f2fs_fs_geo(r->fs);
	const struct f2fs_sit_table *sit;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	unsigned int kinds, moved, i;
	uint32_t segno;
	int ret = f2fs_fs_sit(r->fs, &sit);

	for (segno = 0; !ret && segno < geo->main_segs; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		bool more = false;

		if (!se || !f2fs_findings_segment(r->findings, segno, map, &kinds))
			return -EUCLEAN;
		for (i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++) {
			more |= (map[i] & ~se->map[i]) != 0;
			map[i] |= se->map[i];
		}
		if (more)
			ret = f2fs_fix_segment(r->fs, segno, map,
					       se->type < F2FS_NR_CURSEG_TYPE
						   ? se->type
						   : (kinds & F2FS_FOUND_NODE
							  ? F2FS_CURSEG_WARM_NODE
							  : F2FS_CURSEG_WARM_DATA));
	}
	if (!ret)
		ret = f2fs_fix_logs(r->fs, &moved);
	return ret;
}

static int fix_space(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	unsigned int moved = 0;
	int ret = rebuild_sit(r, rep);

	if (!ret)
		ret = f2fs_fix_recount(r->fs, (uint32_t)r->res->valid_nodes,
				       (uint32_t)r->res->valid_inodes);
	if (!ret)
		ret = f2fs_fix_logs(r->fs, &moved);
	rep->changed += moved;
	return ret;
}

/* An unreachable inode, and the directory that last named it. */
struct lost {
	uint32_t ino, pino;
};

/* Is @ino among the @n inodes of @v (sorted by ino)? */
static bool is_lost(const struct lost *v, size_t n, uint32_t ino)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].ino == ino)
			return true;
		if (v[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int by_ino(const void *a, const void *b)
{
	uint32_t x = ((const struct lost *)a)->ino, y = ((const struct lost *)b)->ino;

	return x < y ? -1 : x > y;
}

/* The unreachable entries that are inodes the write path can read, sorted. */
static size_t lost_inodes(struct f2fs_repair *r, struct lost *out)
{
	const struct fix_queue *q = &r->q[F2FS_FIX_UNREACHABLE];
	struct f2fs_inode_attr a;
	size_t i, n = 0;

	for (i = 0; i < q->n; i++)
		if (q->items[i].value == q->items[i].nid &&
		    !f2fs_getattr(r->fs, q->items[i].nid, &a) && f2fs_mode_file_type(a.mode))
			out[n++] = (struct lost){.ino = q->items[i].nid, .pino = a.pino};
	qsort(out, n, sizeof(*out), by_ino);
	return n;
}

/* /lost+found, made when missing; the root when the name is taken by a non-directory. */
static int lost_found(struct f2fs_repair *r, uint32_t *dir)
{
	uint32_t root = le32_get(f2fs_fs_sb(r->fs)->root_ino), ino;
	struct f2fs_new_inode attr;
	struct f2fs_inode_attr a;
	int ret = f2fs_lookup(r->fs, root, "lost+found", 10, &ino);

	if (ret == -ENOENT) {
		f2fs_new_inode_init(&attr, S_IFDIR | 0700, (uint64_t)time(NULL));
		ret = f2fs_create(r->fs, root, "lost+found", 10, &attr, NULL, &ino);
	}
	if (ret)
		return ret;
	ret = f2fs_getattr(r->fs, ino, &a);
	*dir = !ret && S_ISDIR(a.mode) ? ino : root;
	return ret;
}

/*
 * Link the lost inodes at the top of their lost subtrees (those whose i_pino
 * is not itself lost) into /lost+found as "#INO", e2fsck's names; the next
 * check walks them and what lies below them.
 */
static int reconnect(struct f2fs_repair *r, const struct lost *lost, size_t n,
		     struct f2fs_fix_report *rep)
{
	char name[16];
	uint32_t dir;
	size_t i;
	int ret = lost_found(r, &dir);

	for (i = 0; !ret && i < n; i++) {
		if (is_lost(lost, n, lost[i].pino))
			continue;
		snprintf(name, sizeof(name), "#%u", lost[i].ino);
		ret = f2fs_fix_attach(r->fs, dir, lost[i].ino, name, strlen(name));
		if (ret == -EEXIST) /* left by an earlier run: the inode is named there already */
			ret = 0;
		else
			rep->changed += !ret;
	}
	r->again = true; /* what hangs below them is walked by the next check */
	return ret;
}

/*
 * Unreachable inodes go to /lost+found; once none is left, the NAT entries
 * still unreachable (nodes of no inode) are freed.
 */
static int fix_unreachable(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	const struct fix_queue *q = &r->q[F2FS_FIX_UNREACHABLE];
	struct lost *lost = malloc((q->n + 1) * sizeof(*lost));
	size_t i, n;
	int ret = 0;

	if (!lost)
		return -ENOMEM;
	n = lost_inodes(r, lost);
	if (n)
		ret = reconnect(r, lost, n, rep);
	for (i = 0; !n && !ret && i < q->n; i++) {
		ret = f2fs_fix_free_nid(r->fs, q->items[i].nid);
		rep->changed += !ret;
	}
	if (!n && !ret)
		ret = f2fs_fix_recount(r->fs, (uint32_t)r->res->valid_nodes,
				       (uint32_t)r->res->valid_inodes);
	free(lost);
	return ret;
}

static int fix_inodes(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep)
{
	const struct fix_queue *q = &r->q[kind];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < q->n; i++) {
		struct f2fs_inode_fix fix = {0};

		if (kind == F2FS_FIX_LINKS) {
			fix.set_links = true;
			fix.links = (uint32_t)q->items[i].expected;
		} else if (kind == F2FS_FIX_BLOCKS) {
			fix.set_blocks = true;
			fix.blocks = q->items[i].expected;
		} else if (kind == F2FS_FIX_PINO) {
			fix.set_pino = true;
			fix.pino = (uint32_t)q->items[i].expected;
		} else if (kind == F2FS_FIX_EXTENT) {
			fix.clear_extent = true;
		}
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

/*
 * An inode field out of range, set to the value the check gave as expected:
 * what the entry naming the inode says (its type, its name's length), what
 * the volume's features give a new inode, the flag that does not fit
 * cleared, the size rounded or capped.
 */
static int fix_one_fields(struct f2fs_repair *r, const struct fix_item *it)
{
	struct f2fs_inode_fix fix = {0};
	uint64_t e = it->expected;

	switch (it->code) {
	case PR_INODE_MODE:
		if (!f2fs_file_type_mode((uint8_t)e))
			return -EINVAL; /* no entry says what it is */
		fix.set_type = true;
		fix.type = (uint8_t)e;
		break;
	case PR_INODE_EXTRA_ISIZE:
		fix.set_extra_isize = true;
		fix.extra_isize = (uint16_t)e;
		break;
	case PR_INODE_INLINE_XATTR:
		fix.set_inline_xattr_size = true;
		fix.inline_xattr_size = (uint16_t)e;
		break;
	case PR_INODE_NAMELEN:
		if (!e)
			return -EINVAL; /* no entry names it */
		fix.set_namelen = true;
		fix.namelen = (uint32_t)e;
		break;
	case PR_INODE_INLINE:
		fix.set_inline = true;
		fix.i_inline = (uint8_t)e;
		break;
	case PR_INODE_SIZE:
	case PR_INODE_INLINE_SIZE:
		fix.set_size = true;
		fix.size = e;
		break;
	case PR_INODE_CASEFOLD:
	case PR_INODE_COMPRESS:
		fix.set_flags = true;
		fix.flags = (uint32_t)e;
		break;
	case PR_INODE_INLINE_RESERVED:
		fix.clear_inline_reserved = true;
		break;
	default:
		return -EINVAL;
	}
	return f2fs_fix_inode(r->fs, it->nid, &fix);
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

static int fix_one_footer(struct f2fs_repair *r, const struct fix_item *it)
{
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

/*
 * Does a fix that changed something change what the walk reaches or
 * counts (links, blocks, the inodes it can read)?  Then a new check sees
 * problems this one could not.
 */
static bool changes_tree(enum f2fs_fix kind)
{
	return kind == F2FS_FIX_DETACH || kind == F2FS_FIX_DOTS || kind == F2FS_FIX_FIELDS ||
	       kind == F2FS_FIX_CLONE;
}

/*
 * The checkpoint a repair writes has no orphan list, so the orphan inodes
 * are released now, as the kernel releases them when it mounts (what the
 * walk reached of them is freed through the write path); entries naming
 * no inode (PR_ORPHAN) just go with the list.
 */
static int release_orphans(struct f2fs_repair *r,
			   void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg)
{
	struct f2fs_fix_report rep = {.fix = F2FS_FIX_ORPHANS};
	const struct f2fs_cp_data *cpd;
	struct f2fs_inode_attr a;
	uint32_t i;
	int ret = f2fs_fs_cp_data(r->fs, &cpd);

	if (ret || !cpd->orphan_count)
		return ret;
	for (i = 0; !ret && i < cpd->orphan_count; i++) {
		if (f2fs_getattr(r->fs, cpd->orphans[i], &a))
			continue; /* an invalid entry: dropped with the list */
		ret = f2fs_fix_release(r->fs, cpd->orphans[i]);
		rep.changed += !ret;
	}
	rep.result = ret;
	if (on_fix)
		on_fix(&rep, arg);
	return ret;
}

/* Is a fix queued that writes (any but the two that wait for a complete walk)? */
static bool writes_something(const struct f2fs_repair *r)
{
	int k;

	for (k = 0; k < F2FS_NR_FIXES; k++)
		if (r->q[k].problems && k != F2FS_FIX_SPACE && k != F2FS_FIX_UNREACHABLE)
			return true;
	return false;
}

/* Why a fix that rebuilds from the walk must not run now, or NULL. */
static const char *withheld_because(struct f2fs_repair *r, enum f2fs_fix kind, char *buf,
				    size_t size)
{
	if (kind != F2FS_FIX_SPACE && kind != F2FS_FIX_UNREACHABLE)
		return NULL;
	if (r->cut_by) {
		snprintf(buf, size,
			 "the walk stopped at a problem (%s): it did not reach everything",
			 r->cut_by);
		return buf;
	}
	if (kind == F2FS_FIX_SPACE && r->again) {
		snprintf(buf, size, "inodes were reconnected: the next check rebuilds it");
		return buf;
	}
	if (kind == F2FS_FIX_SPACE && r->nat_kept) {
		snprintf(buf, size, "%u NAT entries nothing reaches are kept: their blocks stay",
			 r->nat_kept);
		return buf;
	}
	return NULL;
}

static int run_one(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep)
{
	switch (kind) {
	case F2FS_FIX_SPACE:
		return fix_space(r, rep);
	case F2FS_FIX_UNREACHABLE:
		return fix_unreachable(r, rep);
	case F2FS_FIX_SSA:
		return fix_summaries(r, rep);
	case F2FS_FIX_LINKS:
	case F2FS_FIX_BLOCKS:
	case F2FS_FIX_PINO:
	case F2FS_FIX_EXTENT:
	case F2FS_FIX_REWRITE:
		return fix_inodes(r, kind, rep);
	case F2FS_FIX_SUPER:
		return f2fs_fix_superblocks(r->fs, &rep->changed);
	case F2FS_FIX_DENTRY:
		return fix_each(r, kind, rep, fix_one_dentry);
	case F2FS_FIX_DETACH:
		return fix_each(r, kind, rep, fix_one_detach);
	case F2FS_FIX_DOTS:
		return fix_each(r, kind, rep, fix_one_dots);
	case F2FS_FIX_NAT:
		return fix_each(r, kind, rep, fix_one_nat);
	case F2FS_FIX_FIELDS:
		return fix_each(r, kind, rep, fix_one_fields);
	case F2FS_FIX_FOOTER:
		return fix_each(r, kind, rep, fix_one_footer);
	case F2FS_FIX_XATTR:
		return fix_each(r, kind, rep, fix_one_xattr);
	case F2FS_FIX_CLONE:
		return fix_each(r, kind, rep, fix_one_clone);
	default:
		return 0; /* F2FS_FIX_CHECKPOINT: the checkpoint below */
	}
}

int f2fs_repair_run(struct f2fs_repair *r, const struct f2fs_findings *findings,
		    const struct f2fs_check_result *res,
		    void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg)
{
	/* the space first: inode fixes allocate their new blocks from it */
	static const enum f2fs_fix order[] = {
	    F2FS_FIX_SUPER,   F2FS_FIX_UNREACHABLE, F2FS_FIX_SPACE,  F2FS_FIX_SSA,
	    F2FS_FIX_NAT,     F2FS_FIX_DETACH,	    F2FS_FIX_DENTRY, F2FS_FIX_DOTS,
	    F2FS_FIX_FIELDS,  F2FS_FIX_FOOTER,	    F2FS_FIX_XATTR,  F2FS_FIX_CLONE,
	    F2FS_FIX_LINKS,   F2FS_FIX_BLOCKS,	    F2FS_FIX_PINO,   F2FS_FIX_EXTENT,
	    F2FS_FIX_REWRITE, F2FS_FIX_CHECKPOINT};
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	size_t i;
	int ran = 0, withheld = 0, ret;

	r->findings = findings;
	r->res = res;
	if (r->cut_by && writes_something(r)) {
		ret = protect_reached(r);
		if (ret)
			return ret;
	}
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		struct f2fs_fix_report rep = {.fix = order[i]};

		rep.problems = r->q[order[i]].problems;
		if (!rep.problems)
			continue;
		if (withheld_because(r, order[i], rep.why, sizeof(rep.why))) {
			rep.withheld = true;
			withheld++;
		} else {
			rep.result = run_one(r, order[i], &rep);
			if (rep.result)
				return rep
				    .result; /* the handle's state is unknown: write nothing */
			ran++;
			if (rep.changed && changes_tree(order[i]))
				r->again = true;
		}
		if (on_fix)
			on_fix(&rep, arg);
	}
	if (!ran)
		return 0;
	/* the checkpoint below lists no orphans: release them first, as a mount would */
	ret = release_orphans(r, on_fix, arg);
	if (ret)
		return ret;
	/* what waited for a complete walk gets one on the next check */
	if (withheld && r->cut_by)
		r->again = true;
	ret = f2fs_checkpoint(r->fs, &req);
	return ret ? ret : ran;
}

bool f2fs_repair_again(const struct f2fs_repair *r)
{
	return r->again;
}

void f2fs_repair_free(struct f2fs_repair *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < F2FS_NR_FIXES; i++)
		free(r->q[i].items);
	free(r);
}
