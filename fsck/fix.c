// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.f2fs's repair policy and run (fix.h).  The policy is e2fsck's: -y
 * fixes everything that has a fix, -p and -a only what the problem table
 * marks preen-safe, -n nothing, and without any of them the user is asked
 * -- on a terminal only: a run without one (at boot, in CI) never reads
 * standard input and repairs nothing.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "f2fs/device.h"
#include "f2fs/fs.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "fix.h"
#include "tools/common/target.h"

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

struct note_ctx {
	const struct fix_plan *plan;
	struct f2fs_repair *repair;
	struct fix_outcome *out;
	int err;
};

static void note_problem(const struct f2fs_problem *p, void *arg)
{
	struct note_ctx *n = arg;
	bool fix = fix_plan_approves(n->plan, p);
	int ret = f2fs_repair_note(n->repair, p, fix);

	n->out->problems++;
	n->out->noted += fix;
	if (ret && !n->err)
		n->err = ret;
}

/* Check the writable handle @fs again and run the approved fixes. */
static int check_and_repair(struct f2fs_fs *fs, struct note_ctx *n,
			    void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg,
			    char *why, size_t why_len)
{
	struct f2fs_findings *findings = NULL;
	struct f2fs_check_options co = {.on_problem = note_problem, .arg = n};
	struct f2fs_check_result res;
	int ret;

	co.findings = &findings;
	ret = f2fs_check(fs, &co, &res);
	if (ret) {
		snprintf(why, why_len, "%s", res.fatal_why);
		return ret;
	}
	ret = n->err;
	if (!ret)
		ret = f2fs_repair_run(n->repair, findings, &res, on_fix, arg);
	if (ret < 0)
		snprintf(why, why_len, "%s", f2fs_fs_why(fs)[0] ? f2fs_fs_why(fs) : strerror(-ret));
	else
		n->out->checkpointed |= ret > 0;
	f2fs_findings_free(findings);
	return ret < 0 ? ret : 0;
}

int fix_roll_forward(struct f2fs_device *dev,
		     void (*on_recovery)(const struct f2fs_recovery *, void *), void *arg,
		     struct fix_outcome *out, char *why, size_t why_len)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_recovery rec;
	uint32_t fsynced, length;
	struct f2fs_fs *fs;
	int ret = f2fs_fs_open(dev, F2FS_FS_WRITE | F2FS_FS_ROLL_FORWARD | F2FS_FS_ROLL_BACK, &fs,
			       why, why_len);

	if (ret)
		return ret;
	ret = f2fs_roll_forward_chain(fs, &fsynced, &length);
	if (!ret && fsynced)
		ret = f2fs_roll_forward(fs, &rec);
	if (!ret && fsynced && rec.recovered_inodes)
		ret = f2fs_checkpoint(fs, &req);
	if (ret)
		snprintf(why, why_len,
			 "roll-forward recovery: %s (--drop-roll-forward discards the fsynced data "
			 "instead)",
			 f2fs_fs_why(fs)[0] ? f2fs_fs_why(fs) : strerror(-ret));
	else if (fsynced && on_recovery)
		on_recovery(&rec, arg);
	out->checkpointed |= !ret && fsynced && rec.recovered_inodes;
	f2fs_fs_close(fs);
	return ret;
}

/* Rounds of check and repair: reconnected inodes need a new check (f2fs_repair_again). */
#define FIX_ROUNDS 4

int fix_run(struct tool *t, struct f2fs_device *dev, const char *undo, const struct fix_plan *plan,
	    void (*on_recovery)(const struct f2fs_recovery *, void *),
	    void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg,
	    struct fix_outcome *out, char *why, size_t why_len, int status)
{
	struct note_ctx n = {.plan = plan, .out = out};
	struct f2fs_device *given = dev;
	struct f2fs_fs *fs;
	bool again = true;
	int ret = 0, closed = 0, round;

	memset(out, 0, sizeof(*out));
	if (!dev) {
		dev = tool_open_for_writing(t, status, 0);
		dev = tool_undo_stack(t, dev, undo, status);
	}
	if (!plan->drop_roll_forward)
		ret = fix_roll_forward(dev, on_recovery, arg, out, why, why_len);
	for (round = 0; !ret && again && round < FIX_ROUNDS; round++) {
		ret = f2fs_fs_open(dev,
				   F2FS_FS_WRITE | F2FS_FS_ROLL_BACK |
				       (plan->drop_roll_forward ? F2FS_FS_DROP_ROLL_FORWARD : 0),
				   &fs, why, why_len);
		if (ret)
			break;
		n.repair = NULL;
		ret = f2fs_repair_begin(fs, &n.repair);
		if (!ret)
			ret = check_and_repair(fs, &n, on_fix, arg, why, why_len);
		else
			snprintf(why, why_len, "out of memory");
		again = !ret && f2fs_repair_again(n.repair);
		f2fs_repair_free(n.repair);
		f2fs_fs_close(fs);
	}
	if (dev != given)
		closed = f2fs_dev_close(dev);
	if (!ret && closed) {
		snprintf(why, why_len, "closing the device: %s", strerror(-closed));
		ret = closed;
	}
	return ret;
}
