/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsck.f2fs's repair policy and run.  The check reports problems; the plan
 * counts, per fix kind, those the mode lets it fix (-y: all; -p, -a: the
 * preen-safe ones; a terminal without either: what the user answers, one
 * question per fix kind, as e2fsck's latches ask once for a whole group;
 * -n or no terminal: none).  fix_run() then opens the device for writing
 * (with the undo journal of -z), applies the roll-forward chain as a mount
 * would (unless --drop-roll-forward), checks again on the writable handle and
 * hands the approved problems to lib/repair/ -- in up to four rounds, since
 * reconnecting inodes changes what the next check reaches.
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
struct fix_outcome {
	unsigned int problems; /* found by the check on the writable handle */
	unsigned int noted;    /* of them approved */
	bool checkpointed;     /* the repair's checkpoint was written */
};

/*
 * Apply the roll-forward chain of the volume on @dev (opened for writing),
 * as a mount would, and end it with a checkpoint (a repair's checkpoint
 * would otherwise lose the fsynced data); @on_recovery hears what was
 * applied.  Nothing happens without fsynced blocks in the chain.  Returns
 * 0 or a negative errno with @why; out->checkpointed tells whether
 * anything was written.
 */
int fix_roll_forward(struct f2fs_device *dev,
		     void (*on_recovery)(const struct f2fs_recovery *, void *), void *arg,
		     struct fix_outcome *out, char *why, size_t why_len);

/*
 * Open @t->image for writing (undo journal @undo when set) unless @dev is
 * such a device already (left open); unless @plan drops it, apply the
 * roll-forward chain as a mount would and checkpoint (@on_recovery hears
 * what was applied); then check and repair what @plan approves (@on_fix
 * hears each fix kind).  Exits @status on a target that cannot be opened;
 * returns a negative errno (with @why) when the repair could not run, 0
 * otherwise.
 */
int fix_run(struct tool *t, struct f2fs_device *dev, const char *undo, const struct fix_plan *plan,
	    void (*on_recovery)(const struct f2fs_recovery *, void *),
	    void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg,
	    struct fix_outcome *out, char *why, size_t why_len, int status);

#endif
