// SPDX-License-Identifier: GPL-2.0
/*
 * How the checker's passes report: a problem goes to the caller's
 * callback as a struct f2fs_problem (its code a row of the problem table,
 * its particulars and a detail line), and progress as passes and counts.
 * The passes only detect; what a code means and how it is fixed is the
 * table's (problem.c).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "context.h"

static void report(struct check_ctx *c, struct f2fs_problem *p, const char *fmt, va_list ap)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	if (info && info->warning) {
		c->res->warnings++;
	} else {
		c->res->problems++;
		c->res->failed_lines |= info ? info->lines : F2FS_LINE_BIT(F2FS_LINE_OTHER);
		if (info && (info->lines & F2FS_LINE_BIT(F2FS_LINE_WRITE_POINTERS)))
			c->res->wp_problems++;
	}
	if (!c->o->on_problem || (c->o->max_problems && c->res->problems > c->o->max_problems))
		return;
	vsnprintf(p->detail, sizeof(p->detail), fmt, ap);
	c->o->on_problem(p, c->o->arg);
}

void check_report(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid, uint64_t blkaddr,
		  const char *fmt, ...)
{
	struct f2fs_problem p = {.code = code, .nid = nid, .blkaddr = blkaddr};
	va_list ap;

	va_start(ap, fmt);
	report(c, &p, fmt, ap);
	va_end(ap);
}

void check_report_count(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid,
			uint64_t value, uint64_t expected, const char *fmt, ...)
{
	struct f2fs_problem p = {.code = code, .nid = nid, .value = value, .expected = expected};
	va_list ap;

	va_start(ap, fmt);
	report(c, &p, fmt, ap);
	va_end(ap);
}

void check_progress(struct check_ctx *c, enum check_pass pass, uint64_t done, uint64_t total)
{
	static const char *const names[CHECK_PASSES + 1] = {
	    [CHECK_PASS_LOAD] = "loading the tables",
	    [CHECK_PASS_TREE] = "walking the tree",
	    [CHECK_PASS_SECTIONS] = "checking the sections",
	    [CHECK_PASS_COUNTS] = "checking the NAT and the counts",
	};

	f2fs_fs_progress(c->fs, pass, CHECK_PASSES, names[pass], done, total);
}

void check_report_values(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid,
			 uint64_t blkaddr, uint64_t value, uint64_t expected, const char *fmt, ...)
{
	struct f2fs_problem p = {
	    .code = code, .nid = nid, .blkaddr = blkaddr, .value = value, .expected = expected};
	va_list ap;

	va_start(ap, fmt);
	report(c, &p, fmt, ap);
	va_end(ap);
}

void check_report_problem(struct check_ctx *c, struct f2fs_problem *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(c, p, fmt, ap);
	va_end(ap);
}

void check_report_at(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid,
		     uint64_t blkaddr, const struct f2fs_place *at, const char *fmt, ...)
{
	struct f2fs_problem p = {.code = code, .nid = nid, .blkaddr = blkaddr};
	va_list ap;

	if (at)
		p.at = *at;
	va_start(ap, fmt);
	report(c, &p, fmt, ap);
	va_end(ap);
}
