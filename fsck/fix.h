/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsck.f2fs's repair policy.  The check reports problems; the plan counts,
 * per fix kind, those the mode lets it fix (-y: all; -p, -a: the
 * preen-safe ones; a terminal without either: what the user answers, one
 * question per fix kind, as e2fsck's latches ask once for a whole group;
 * -n or no terminal: none).  The repairs themselves, their rounds and
 * when they stop, are lib/repair/session.c's: fsck hands it the plan's
 * verdict on each problem.
 */
#ifndef FSCK_FIX_H
#define FSCK_FIX_H

#include <stdbool.h>
#include <stdio.h>

#include "f2fs/check.h"
#include "f2fs/repair.h"
#include "f2fs/write.h"
#include "tools/common/common.h"

enum fix_mode {
	FIX_ASK,   /* no -y, -p, -n: ask on a terminal, else check only */
	FIX_YES,   /* -y, -f (upstream's -f fixes too) */
	FIX_PREEN, /* -p, -a */
	FIX_NO,	   /* -n, -N, --dry-run */
};

struct fix_plan {
	enum fix_mode mode;
	unsigned int fixable[F2FS_NR_FIXES]; /* problems found the mode may fix, per kind */
	unsigned int unfixable;		     /* problems without a fix, or not preen-safe */
	bool approve[F2FS_NR_FIXES];
	bool drop_roll_forward; /* a fsynced chain may be lost to the repair's checkpoint */
	/* F2FS_PR_GATES_WRITES problems: their fix kinds; one left unfixed stops every write */
	bool gate[F2FS_NR_FIXES];
	bool writes_gated;
};

/* May the plan's mode fix @p (before any question)? */
bool fix_plan_may(const struct fix_plan *plan, const struct f2fs_problem *p);

/* Count a problem of the first check. */
void fix_plan_count(struct fix_plan *plan, const struct f2fs_problem *p);

/*
 * Approve fix kinds: all the mode allows, or (FIX_ASK) those the user
 * answers yes for on @in/@out.  Returns whether any is approved.
 */
bool fix_plan_decide(struct fix_plan *plan, FILE *in, FILE *out);

/* Is @p approved? */
bool fix_plan_approves(const struct fix_plan *plan, const struct f2fs_problem *p);

/* What became of the repair run. */
#endif
