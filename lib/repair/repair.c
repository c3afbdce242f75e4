// SPDX-License-Identifier: GPL-2.0
/*
 * Running the fixes fsck approved.  Problems arrive one by one with the
 * caller's verdict; each table row names its fix kind, and the kinds run
 * once each, in an order where every fix sees a consistent volume: the
 * space accounting first (SIT from the blocks the walk reached, NAT
 * entries nothing reaches freed, the counts, the logs moved past used
 * blocks), then the inodes (written through the node cache, so their new
 * blocks come from the rebuilt allocator), then one checkpoint.  The fixes
 * themselves are in space.c (from the walk) and items.c (one problem at a
 * time).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "f2fs/checkpoint.h"
#include "f2fs/fs.h"
#include "f2fs/summary.h"
#include "f2fs/write.h"
#include "repair_internal.h"

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

int fix_queue_push(struct fix_queue *q, const struct f2fs_problem *p)
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

/* Does fix @kind go to each problem's place (then it keeps their particulars)? */
static bool needs_items(enum f2fs_fix kind)
{
	return kind != F2FS_FIX_SPACE && kind != F2FS_FIX_SUPER && kind != F2FS_FIX_JOURNALS &&
	       kind != F2FS_FIX_ORPHANS && kind != F2FS_FIX_CHECKPOINT && kind != F2FS_FIX_QUOTA;
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
	return needs_items(info->fix) ? fix_queue_push(&r->q[info->fix], p) : 0;
}

/*
 * Does a fix that changed something change what the walk reaches or
 * counts (links, blocks, the inodes it can read)?  Then a new check sees
 * problems this one could not.
 */
static bool changes_tree(enum f2fs_fix kind)
{
	return kind == F2FS_FIX_DETACH || kind == F2FS_FIX_DOTS || kind == F2FS_FIX_FIELDS ||
	       kind == F2FS_FIX_CLONE || kind == F2FS_FIX_RESTORE;
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

	rep.problems = r->q[F2FS_FIX_ORPHANS].problems;
	if (ret || (!cpd->orphan_count && !rep.problems))
		return ret;
	for (i = 0; !ret && i < cpd->orphan_count; i++) {
		if (f2fs_getattr(r->fs, cpd->orphans[i], &a)) {
			rep.changed++; /* an entry naming no inode: dropped with the list */
			continue;
		}
		ret = f2fs_fix_release(r->fs, cpd->orphans[i]);
		rep.changed += !ret;
	}
	rep.result = ret;
	if (on_fix)
		on_fix(&rep, arg);
	return ret;
}

/* Does @kind rebuild state from the walk (and so wait for a complete one)? */
static bool trusts_walk(enum f2fs_fix kind)
{
	return kind == F2FS_FIX_SPACE || kind == F2FS_FIX_UNREACHABLE || kind == F2FS_FIX_QUOTA;
}

/* Is a fix queued that writes (any but the two that wait for a complete walk)? */
static bool writes_something(const struct f2fs_repair *r)
{
	int k;

	for (k = 0; k < F2FS_NR_FIXES; k++)
		if (r->q[k].problems && !trusts_walk((enum f2fs_fix)k))
			return true;
	return false;
}

/* Why a fix that rebuilds from the walk must not run now, or NULL. */
static const char *withheld_because(struct f2fs_repair *r, enum f2fs_fix kind, char *buf,
				    size_t size)
{
	if (!trusts_walk(kind))
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
		return repair_space(r, rep);
	case F2FS_FIX_UNREACHABLE:
		return repair_unreachable(r, rep);
	case F2FS_FIX_SUPER:
		return f2fs_fix_superblocks(r->fs, &rep->changed);
	case F2FS_FIX_JOURNALS:
		rep->changed = rep->problems;
		return f2fs_fix_journals(r->fs);
	case F2FS_FIX_CHECKPOINT:
		rep->changed = rep->problems; /* the checkpoint below fixes each */
		return 0;
	case F2FS_FIX_ZONES:
		return repair_zones(r, rep);
	case F2FS_FIX_QUOTA:
		return repair_quota(r, rep);
	default:
		return repair_items(r, kind, rep);
	}
}

int f2fs_repair_run(struct f2fs_repair *r, const struct f2fs_findings *findings,
		    const struct f2fs_check_result *res,
		    void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg)
{
	/* the space first: inode fixes allocate their new blocks from it */
	static const enum f2fs_fix order[] = {
	    F2FS_FIX_ZONES,    F2FS_FIX_SUPER,	 F2FS_FIX_RESTORE,   F2FS_FIX_UNREACHABLE,
	    F2FS_FIX_SPACE,    F2FS_FIX_SSA,	 F2FS_FIX_NAT,	     F2FS_FIX_DETACH,
	    F2FS_FIX_DENTRY,   F2FS_FIX_DOTS,	 F2FS_FIX_FIELDS,    F2FS_FIX_FOOTER,
	    F2FS_FIX_XATTR,    F2FS_FIX_CLONE,	 F2FS_FIX_LINKS,     F2FS_FIX_BLOCKS,
	    F2FS_FIX_PINO,     F2FS_FIX_EXTENT,	 F2FS_FIX_REWRITE,   F2FS_FIX_QUOTA,
	    F2FS_FIX_JOURNALS, F2FS_FIX_ORPHANS, F2FS_FIX_CHECKPOINT};
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	size_t i;
	int ran = 0, withheld = 0, ret;

	r->findings = findings;
	r->res = res;
	if (r->cut_by && writes_something(r)) {
		ret = repair_protect_reached(r);
		if (ret)
			return ret;
	}
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		struct f2fs_fix_report rep = {.fix = order[i]};

		rep.problems = r->q[order[i]].problems;
		if (!rep.problems)
			continue;
		if (order[i] == F2FS_FIX_ORPHANS) {
			ran++; /* release_orphans() below runs and reports it */
			continue;
		}
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

void f2fs_repair_free(struct f2fs_repair *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < F2FS_NR_FIXES; i++)
		free(r->q[i].items);
	free(r);
}
