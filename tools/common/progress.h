/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools' progress display, after e2fsck's -C: the library reports a
 * long operation's passes through the handle's hook (f2fs_fs_set_progress),
 * and this shows them, never on standard output unless asked to:
 *
 *  - a bar on standard error when it is a terminal, redrawn in place at
 *    most ten times a second, and erased before the tool prints anything
 *    else (progress_clear) and at the end (progress_finish);
 *  - or machine-readable lines on a file descriptor the user names, one per
 *    report, in e2fsck's form "PASS DONE TOTAL DEVICE".
 *
 * Without an option the bar appears by itself, but only when standard
 * error is a terminal and only once the run has taken PROGRESS_DELAY
 * seconds (F2FS_PROGRESS_DELAY in the environment overrides it), so that
 * quick runs and scripts see nothing new.  All state lives in the caller's
 * struct progress.
 */
#ifndef TOOLS_PROGRESS_H
#define TOOLS_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "f2fs/fs.h"

#define PROGRESS_DELAY	   2.0 /* seconds before the automatic bar shows */
#define PROGRESS_DELAY_ENV "F2FS_PROGRESS_DELAY"

enum progress_mode {
	PROGRESS_AUTO, /* no option: the bar on a terminal after the delay, else nothing */
	PROGRESS_OFF,  /* --no-progress (or a tool's quiet mode) */
	PROGRESS_ON,   /* --progress or --progress=0: the bar on standard error at once,
			  e2fsck's lines there when it is not a terminal */
	PROGRESS_FD,   /* --progress=FD: e2fsck's lines on FD */
};

/* What the command line asked for. */
struct progress_request {
	enum progress_mode mode;
	int fd; /* PROGRESS_FD only */
};

struct progress {
	const char *device; /* the last word of each line, the bar's label */
	int fd;		    /* -1: nothing is shown */
	bool bar;	    /* a bar rather than lines */
	double delay;	    /* seconds after progress_start before the bar may show */
	struct timespec start;
	double drawn_at;  /* when the bar was last drawn, in seconds after start */
	size_t drawn_len; /* columns of the bar now on the terminal, 0 when none */
	unsigned int drawn_pass;
};

/*
 * Parse the value of --progress (@arg NULL when it has none) into @r.
 * Returns false when @arg is not a file descriptor number.
 */
bool progress_parse(const char *arg, struct progress_request *r);

/*
 * Set up @p as @r asks, for a run on @device (kept by pointer).  Returns
 * false, with @why set, when the descriptor @r names is not open for
 * writing; @p is then off.
 */
bool progress_start(struct progress *p, const struct progress_request *r, const char *device,
		    char *why, size_t why_len);

/* Show one report; an f2fs_progress_fn, with @arg a struct progress. */
void progress_report(const struct f2fs_progress *r, void *arg);

/* Erase the bar if one is shown (NULL is fine); the next report redraws it. */
void progress_clear(struct progress *p);

/* Erase the bar for good: nothing is shown after this. */
void progress_finish(struct progress *p);

#endif
