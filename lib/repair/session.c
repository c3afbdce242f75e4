// SPDX-License-Identifier: GPL-2.0
/*
 * A repair session: fsck's whole run on one handle.  The handle is opened
 * once, for writing when the caller may repair (read-only otherwise, or
 * when the volume cannot be opened for writing: the check still runs).
 * First, when asked, the fsynced chain past the checkpoint is applied as a
 * mount applies it.  Then the check the caller prints; its problems and
 * findings are kept, so the first round of repairs needs no second walk.
 * The caller decides (its policy: -y, -p, a prompt), then the rounds run:
 * the approved fixes, one checkpoint, the volume read again from the same
 * handle (f2fs_fs_reload(): what a remount reads), a check; another round
 * while that check finds something the caller would fix that differs from
 * what the round before set out to fix, up to SESSION_ROUNDS.  What the
 * last check found is what is left.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/read.h"
#include "f2fs/write.h"
#include "repair_internal.h"

/* Rounds of repairs at most: each one a check that found something fixable. */
#define SESSION_ROUNDS 6

struct f2fs_session {
	struct f2fs_fs *fs;
	bool writable;
	bool chain_pending;  /* fsynced blocks past the checkpoint, not applied */
	bool recovered;	     /* the chain was applied and checkpointed */
	bool fatal;	     /* the roll-forward failed: nothing else may run */
	char write_why[256]; /* why the handle could not be opened for writing */
	unsigned int flags;  /* F2FS_SESSION_* */
	struct f2fs_session_hooks h;
	/* the last check: its findings, result and problems (what a repair needs of them) */
	struct f2fs_findings *findings;
	struct f2fs_check_result res;
	struct fix_queue found; /* its problems, each once */
	int err;		/* -ENOMEM while keeping problems */
	unsigned int heard;	/* problems the caller heard in this check */
	/* the caller's options for the check it prints */
	const struct f2fs_check_options *caller;
	bool approved_any;
	char *why;
	size_t why_len;
};

static unsigned int handle_flags(unsigned int session_flags, bool roll_forward)
{
	unsigned int f = F2FS_FS_WRITE | F2FS_FS_ROLL_BACK;

	if (session_flags & F2FS_SESSION_DROP_ROLL_FORWARD)
		f |= F2FS_FS_DROP_ROLL_FORWARD;
	else if (roll_forward)
		f |= F2FS_FS_ROLL_FORWARD;
	return f;
}

static int say(struct f2fs_session *s, int err, const char *what)
{
	const char *fs_why = s->fs ? f2fs_fs_why(s->fs) : "";

	if (s->why_len && (!s->why[0] || what))
		snprintf(s->why, s->why_len, "%s%s%s", what ? what : "", what ? ": " : "",
			 fs_why[0] ? fs_why : strerror(-err));
	return err;
}

/* Apply the chain, as a mount would, then checkpoint and read the volume again. */
static int roll_forward(struct f2fs_session *s)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_recovery rec;
	int ret = f2fs_roll_forward(s->fs, &rec);

	if (ret) {
		s->fatal = true;
		return say(s, ret,
			   "roll-forward recovery (--drop-roll-forward discards the fsynced data "
			   "instead)");
	}
	s->chain_pending = false;
	if (s->h.on_recovery)
		s->h.on_recovery(&rec, s->h.arg);
	if (!rec.recovered_inodes)
		return 0; /* nothing to keep: the next checkpoint moves past the chain */
	ret = f2fs_checkpoint(s->fs, &req);
	if (!ret)
		ret = f2fs_fs_reload(s->fs, handle_flags(s->flags, false), s->why, s->why_len);
	if (ret) {
		s->fatal = true;
		return say(s, ret, "roll-forward recovery");
	}
	s->recovered = true;
	return 0;
}

static int open_writable(struct f2fs_session *s, struct f2fs_device *dev)
{
	uint32_t fsynced = 0, length;
	int ret = f2fs_fs_open(dev, handle_flags(s->flags, true), &s->fs, s->write_why,
			       sizeof(s->write_why));

	if (ret)
		return ret;
	s->writable = true;
	if (s->flags & F2FS_SESSION_DROP_ROLL_FORWARD)
		return 0;
	ret = f2fs_roll_forward_chain(s->fs, &fsynced, &length);
	if (ret == -ELOOP)
		return 0; /* nothing a mount could apply: PR_CHAIN_LOOP, and the next checkpoint
			     drops it */
	if (ret) {
		s->fatal = true;
		return say(s, ret, "roll-forward chain");
	}
	s->chain_pending = fsynced > 0;
	return s->chain_pending && (s->flags & F2FS_SESSION_ROLL_FORWARD) ? roll_forward(s) : 0;
}

int f2fs_session_open(struct f2fs_device *dev, unsigned int flags,
		      const struct f2fs_session_hooks *h, struct f2fs_session **out, char *why,
		      size_t why_len, enum f2fs_session_failure *failure)
{
	struct f2fs_session *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	*failure = F2FS_SESSION_NOT_OPENED;
	if (!s)
		return -ENOMEM;
	s->flags = flags;
	s->h = *h;
	s->why = why;
	s->why_len = why_len;
	if (why_len)
		why[0] = '\0';
	if (flags & F2FS_SESSION_WRITE) {
		ret = open_writable(s, dev);
		if (ret && s->fatal) {
			f2fs_session_close(s);
			*failure = F2FS_SESSION_NOT_RECOVERED;
			return ret;
		}
		if (ret) { /* checked read-only below; a repair says why it cannot run */
			f2fs_fs_close(s->fs);
			s->fs = NULL;
			s->writable = false;
		}
	}
	if (!s->fs) {
		/* read-only: the check still runs on what can be read (a short device too) */
		ret = f2fs_fs_open(dev, F2FS_FS_READ | F2FS_FS_SHORT_DEVICE, &s->fs, why, why_len);
		if (ret) {
			free(s);
			return ret;
		}
	}
	*out = s;
	return 0;
}

struct f2fs_fs *f2fs_session_fs(const struct f2fs_session *s)
{
	return s->fs;
}

bool f2fs_session_recovered(const struct f2fs_session *s)
{
	return s->recovered;
}

/* ---- checking, keeping what a repair needs ---- */

static void keep_problem(const struct f2fs_problem *p, void *arg)
{
	struct f2fs_session *s = arg;

	/* the caller's cap is on what it hears: a repair needs every problem */
	if (s->caller && s->caller->on_problem &&
	    (!s->caller->max_problems || ++s->heard <= s->caller->max_problems))
		s->caller->on_problem(p, s->caller->arg);
	if (fix_queue_push(&s->found, p))
		s->err = -ENOMEM;
}

static void forward_section(const struct f2fs_section_report *sec, void *arg)
{
	struct f2fs_session *s = arg;

	s->caller->on_section(sec, s->caller->arg);
}

/* A check of the handle as it is now; @caller (may be NULL) hears its problems. */
static int check_now(struct f2fs_session *s, const struct f2fs_check_options *caller)
{
	struct f2fs_check_options co = {.on_problem = keep_problem, .arg = s};
	int ret;

	if (caller)
		co.on_section = caller->on_section ? forward_section : NULL;
	s->heard = 0;
	s->caller = caller;
	f2fs_findings_free(s->findings);
	s->findings = NULL;
	s->found.n = 0;
	s->err = 0;
	co.findings = &s->findings;
	ret = f2fs_check(s->fs, &co, &s->res);
	if (ret)
		snprintf(s->why, s->why_len, "%s", s->res.fatal_why);
	else if (s->err)
		ret = s->err;
	return ret;
}

int f2fs_session_check(struct f2fs_session *s, const struct f2fs_check_options *o,
		       struct f2fs_check_result *res)
{
	int ret = check_now(s, o);

	*res = s->res;
	return ret;
}

/* ---- the rounds ---- */

static bool approves(const struct f2fs_session *s, enum f2fs_problem_code code)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(code);

	return info && info->fix != F2FS_FIX_NONE && s->h.approve && s->h.approve(code, s->h.arg);
}

/*
 * What the last check found that the caller would fix, as one number (0:
 * nothing): a round that leaves the same problems made no progress, and
 * another would only write the same checkpoint again.
 */
static uint64_t fixable_print(const struct f2fs_session *s)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < s->found.n; i++) {
		const struct fix_item *it = &s->found.items[i];

		if (!approves(s, it->code))
			continue;
		h = (h ^ ((uint64_t)it->code << 32 | it->nid)) * 0x100000001b3ull;
		h = (h ^ it->blkaddr ^ it->value << 7 ^ it->expected << 13) * 0x100000001b3ull;
		h |= 1; /* never 0 once something is fixable */
	}
	return h;
}

/* One round: the last check's approved problems fixed; > 0 when a checkpoint was written. */
static int one_round(struct f2fs_session *s)
{
	struct f2fs_repair *r;
	size_t i;
	int ret = f2fs_repair_begin(s->fs, &r);

	if (ret)
		return say(s, ret, "out of memory");
	for (i = 0; i < s->found.n && !ret; i++) {
		const struct fix_item *it = &s->found.items[i];
		struct f2fs_problem p = {.code = it->code,
					 .nid = it->nid,
					 .blkaddr = it->blkaddr,
					 .value = it->value,
					 .expected = it->expected,
					 .at = it->at};

		ret = f2fs_repair_note(r, &p, approves(s, it->code));
	}
	if (!ret)
		ret = f2fs_repair_run(r, s->findings, &s->res, s->h.on_fix, s->h.arg);
	f2fs_repair_free(r);
	return ret < 0 ? say(s, ret, NULL) : ret;
}

int f2fs_session_repair(struct f2fs_session *s, struct f2fs_session_outcome *out)
{
	uint64_t print, last = 0;
	unsigned int round;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!s->writable) {
		snprintf(s->why, s->why_len, "it cannot be opened for writing: %s", s->write_why);
		return -EROFS;
	}
	/* a chain not applied yet (the caller asked first): applied, then checked again */
	if (s->chain_pending && !(s->flags & F2FS_SESSION_DROP_ROLL_FORWARD)) {
		ret = roll_forward(s);
		if (!ret)
			ret = check_now(s, NULL);
		if (ret)
			return ret;
		out->checkpointed = s->recovered;
	}
	for (round = 0; round < SESSION_ROUNDS && (print = fixable_print(s)) && print != last;
	     round++) {
		last = print;
		ret = one_round(s);
		if (ret <= 0)
			break; /* an error, or nothing written: the last check stands */
		out->checkpointed = true;
		out->rounds++;
		ret = f2fs_fs_reload(s->fs, handle_flags(s->flags, false), s->why, s->why_len);
		if (!ret)
			ret = check_now(s, NULL);
		if (ret)
			break;
	}
	if (ret < 0)
		return ret;
	out->left = s->res.problems;
	return 0;
}

void f2fs_session_close(struct f2fs_session *s)
{
	if (!s)
		return;
	f2fs_findings_free(s->findings);
	free(s->found.items);
	f2fs_fs_close(s->fs);
	free(s);
}
