/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of lib/repair/ share: the queue of approved problems per
 * fix kind, and the fixes that repair.c runs in its order -- those that
 * rebuild state from the walk (space.c) and those that go to one problem's
 * place or inode (items.c).
 */
#ifndef F2FS_REPAIR_INTERNAL_H
#define F2FS_REPAIR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/check.h"
#include "f2fs/repair.h"
#include "f2fs/fixup.h"

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

/* Add @p's particulars to @q (grown as needed); -ENOMEM. */
int fix_queue_push(struct fix_queue *q, const struct f2fs_problem *p);

struct f2fs_repair {
	struct f2fs_fs *fs;
	const struct f2fs_findings *findings;
	const struct f2fs_check_result *res;
	struct fix_queue q[F2FS_NR_FIXES];
	const char *cut_by;    /* the first problem that cut the walk short */
	bool again;	       /* the tree changed under the walk: check and repair once more */
	unsigned int nat_kept; /* unreachable NAT entries not being freed */
};

/* space.c: the SIT, section and checkpoint counts and the logs, from the walk. */
int repair_space(struct f2fs_repair *r, struct f2fs_fix_report *rep);

/*
 * space.c: when the walk was cut short, mark what it reached in use (never
 * freeing) and move the logs past used blocks, before any fix allocates.
 */
int repair_protect_reached(struct f2fs_repair *r);

/*
 * zones.c: a zoned volume's logs moved to fresh zones, free sections' zones
 * reset and stray open zones finished, as the queued problems ask.
 */
int repair_zones(struct f2fs_repair *r, struct f2fs_fix_report *rep);

/* quota.c: the quota files rewritten from the walk's counts. */
int repair_quota(struct f2fs_repair *r, struct f2fs_fix_report *rep);

/* space.c: unreachable inodes into /lost+found, or, once none is left, stray NAT entries freed. */
int repair_unreachable(struct f2fs_repair *r, struct f2fs_fix_report *rep);

/*
 * items.c: the fix of @kind for each of its queued problems (kinds whose
 * fix goes to one place, inode, node or summary entry).
 */
int repair_items(struct f2fs_repair *r, enum f2fs_fix kind, struct f2fs_fix_report *rep);

#endif
