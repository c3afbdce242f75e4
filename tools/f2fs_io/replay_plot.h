/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_io replay --plot (replay_plot.c). */
#ifndef F2FS_IO_REPLAY_PLOT_H
#define F2FS_IO_REPLAY_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "f2fs/replay.h"

/*
 * Write @n runs (@labels name them) to @f as one SVG: a legend, then per
 * run a row of fsync latency over time, checkpoints over time and elapsed
 * per thread, on axes the rows share ("none" where a run has no fsync or
 * no checkpoint).  Returns 0, or -1 when @f reports a write error.
 */
int replay_plot_svg(FILE *f, const struct f2fs_replay_report *reps, const char *const labels[],
		    size_t n);

#endif
