// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.f2fs's repair policy (fix.h), e2fsck's: -y
 * fixes everything that has a fix, -p and -a only what the problem table
 * marks preen-safe, -n nothing, and without any of them the user is asked
 * -- on a terminal only: a run without one (at boot, in CI) never reads
 * standard input and repairs nothing.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "fix.h"

bool fix_plan_may(const struct fix_plan *plan, const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	if (!info || info->fix == F2FS_FIX_NONE || plan->mode == FIX_NO)
		return false;
	return plan->mode != FIX_PREEN || (info->flags & F2FS_PR_PREEN_OK);
}

void fix_plan_count(struct fix_plan *plan, const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	if (fix_plan_may(plan, p))
		plan->fixable[info->fix]++;
	else if (info && !info->warning)
		plan->unfixable++;
	if (info && (info->flags & F2FS_PR_GATES_WRITES)) {
		if (fix_plan_may(plan, p))
			plan->gate[info->fix] = true;
		else
			plan->writes_gated = true;
	}
}

/* One question on a terminal: true for an answer starting with y. */
static bool ask(FILE *in, FILE *out, const struct f2fs_fix_info *fi, unsigned int problems)
{
	char line[64];

	fprintf(out, "%s: %s, for %u problem(s)? [y/n] ", fi->prompt, fi->action, problems);
	fflush(out);
	if (!fgets(line, sizeof(line), in))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

bool fix_plan_decide(struct fix_plan *plan, FILE *in, FILE *out)
{
	bool any = false;
	int k;

	for (k = 0; k < F2FS_NR_FIXES; k++) {
		if (!plan->fixable[k] || plan->writes_gated)
			continue;
		plan->approve[k] =
		    plan->mode == FIX_ASK
			? ask(in, out, f2fs_fix_info((enum f2fs_fix)k), plan->fixable[k])
			: true;
		any |= plan->approve[k];
	}
	for (k = 0; k < F2FS_NR_FIXES; k++)
		if (plan->gate[k] && !plan->approve[k])
			plan->writes_gated = true;
	if (plan->writes_gated) {
		memset(plan->approve, 0, sizeof(plan->approve));
		any = false;
	}
	return any;
}

bool fix_plan_approves(const struct fix_plan *plan, const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	/* -y and -p approve every kind they may fix, also those only a later round finds */
	return !plan->writes_gated && fix_plan_may(plan, p) &&
	       (plan->mode != FIX_ASK || plan->approve[info->fix]);
}
