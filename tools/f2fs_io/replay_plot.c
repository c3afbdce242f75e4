// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io replay --plot: the runs as one SVG, for people.  A legend on top
 * names each thread's colour and each mark; then each run is a row of
 * three panels, its label above them: every fsync-like op as a dot at its
 * start time and its latency (log scale), the checkpoints issued so far
 * over time, and each thread's elapsed time as a bar.  The rows share
 * their axes, stacked so that two policies compare down the page, and a
 * panel with nothing to draw says "none" and why rather than stay empty.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "replay_plot.h"

#define MARGIN	   64.0	 /* left of each panel: its y labels */
#define LAT_W	   480.0 /* the fsync latency panel */
#define CP_W	   220.0 /* the checkpoint panel */
#define BAR_W	   200.0 /* the elapsed panel */
#define PANEL_H	   180.0
#define BAR_H	   18.0 /* one thread's bar */
#define TITLE_H	   50.0 /* the document's title and note */
#define LEGEND_ROW 18.0
#define ROW_HEAD   46.0 /* a row's label and its panels' titles */
#define ROW_FOOT   36.0 /* the time ticks and the gap to the next row */
#define NCOLOURS   8
#define MS_FLOOR   0.01 /* the latency axis starts no lower */

static const char *const colours[NCOLOURS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
					      "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/* Axes all rows share. */
struct axes {
	double t_max;	       /* s */
	double lg_min, lg_max; /* log10 of the latency range, ms */
	double cp_max;	       /* checkpoints */
	size_t threads;	       /* the most threads of a run */
};

/* A panel's plotting area. */
struct box {
	double x, y, w, h;
};

static void text_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void run_extent(const struct f2fs_replay_report *r, struct axes *a, double *lo, double *hi)
{
	size_t k, s;

	a->t_max = fmax(a->t_max, r->elapsed_s);
	a->cp_max = fmax(a->cp_max, (double)r->ncp_times);
	if (r->nthreads > a->threads)
		a->threads = r->nthreads;
	for (k = 0; k < r->nthreads; k++) {
		const struct f2fs_replay_thread_report *t = &r->threads[k];

		a->t_max = fmax(a->t_max, t->elapsed_s);
		for (s = 0; s < t->nfsync_samples; s++) {
			double ms = fmax(t->fsync_samples[s].ms, MS_FLOOR);

			*lo = fmin(*lo, ms);
			*hi = fmax(*hi, ms);
		}
	}
}

static void shared_axes(const struct f2fs_replay_report *r, size_t n, struct axes *a)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	*a = (struct axes){.t_max = 1e-3, .cp_max = 1};
	for (i = 0; i < n; i++)
		run_extent(&r[i], a, &lo, &hi);
	if (hi == 0)
		lo = hi = 1;
	a->lg_min = floor(log10(lo));
	a->lg_max = ceil(log10(hi));
	if (a->lg_max <= a->lg_min)
		a->lg_max = a->lg_min + 1;
}

static double x_at(const struct axes *a, const struct box *b, double t)
{
	return b->x + b->w * fmin(t, a->t_max) / a->t_max;
}

/* A round step (1, 2 or 5 times a power of ten) giving at most @ticks steps over @span. */
static double tick_step(double span, double ticks)
{
	double raw = span / fmax(ticks, 1), mag = pow(10, floor(log10(raw)));

	if (raw <= mag)
		return mag;
	if (raw <= 2 * mag)
		return 2 * mag;
	return raw <= 5 * mag ? 5 * mag : 10 * mag;
}

/* The time axis under a panel: round ticks about 70 points apart, in ms below a second. */
static void time_ticks(FILE *f, const struct axes *a, const struct box *b)
{
	double step = tick_step(a->t_max, floor(b->w / 70)), t;
	bool ms = a->t_max < 1;

	for (t = 0; t <= a->t_max * (1 + 1e-9); t += step)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"middle\">%g %s</text>\n",
			x_at(a, b, t), b->y + b->h + 12, ms ? round(t * 1e6) / 1e3 : t,
			ms ? "ms" : "s");
}

/* A panel's frame, title and time axis. */
static void frame(FILE *f, const struct axes *a, const struct box *b, const char *title)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\">%s</text>\n", b->x, b->y - 8,
		title);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		b->x, b->y, b->w, b->h);
	time_ticks(f, a, b);
}

/* "none" in the middle of an empty panel, and why below it. */
static void none(FILE *f, const struct box *b, const char *why)
{
	fprintf(f,
		"<text class=\"none\" x=\"%.1f\" y=\"%.1f\" font-size=\"15\" fill=\"#666\" "
		"text-anchor=\"middle\">none</text>\n",
		b->x + b->w / 2, b->y + b->h / 2);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#666\" "
		"text-anchor=\"middle\">%s</text>\n",
		b->x + b->w / 2, b->y + b->h / 2 + 16, why);
}

static double y_of_ms(const struct axes *a, const struct box *b, double ms)
{
	double lg = log10(fmax(ms, MS_FLOOR));

	return b->y + b->h - b->h * (lg - a->lg_min) / (a->lg_max - a->lg_min);
}

static size_t fsync_count(const struct f2fs_replay_report *r)
{
	size_t k, n = 0;

	for (k = 0; k < r->nthreads; k++)
		n += r->threads[k].nfsync_samples;
	return n;
}

static void plot_fsyncs(FILE *f, const struct f2fs_replay_report *r, const struct axes *a,
			const struct box *b)
{
	double lg;
	size_t k, s;

	frame(f, a, b, "fsync latency over time (ms, log scale)");
	if (!fsync_count(r)) {
		none(f, b, "the workload made no fsync, fdatasync or sync");
		return;
	}
	for (lg = a->lg_min; lg <= a->lg_max; lg++)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"end\">%g</text>\n",
			b->x - 4, y_of_ms(a, b, pow(10, lg)) + 3, pow(10, lg));
	for (k = 0; k < r->nthreads; k++) {
		const struct f2fs_replay_thread_report *t = &r->threads[k];

		fprintf(f, "<g class=\"fsyncs\" fill=\"%s\" fill-opacity=\"0.6\">\n",
			colours[k % NCOLOURS]);
		for (s = 0; s < t->nfsync_samples; s++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\"/>\n",
				x_at(a, b, t->fsync_samples[s].at_s),
				y_of_ms(a, b, t->fsync_samples[s].ms));
		fputs("</g>\n", f);
	}
}

static void plot_checkpoints(FILE *f, const struct f2fs_replay_report *r, const struct axes *a,
			     const struct box *b)
{
	double bottom = b->y + b->h;
	size_t i;

	frame(f, a, b, "checkpoints issued so far");
	if (!r->ncp_times) {
		none(f, b, "no checkpoint while the threads ran");
		return;
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
		b->x - 4, b->y + 10, a->cp_max);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">0</text>\n",
		b->x - 4, bottom);
	fprintf(f,
		"<polyline class=\"checkpoints\" fill=\"none\" stroke=\"#333\" points=\"%.1f,%.1f",
		b->x, bottom);
	for (i = 0; i < r->ncp_times; i++) {
		double x = x_at(a, b, r->cp_times_s[i]);

		fprintf(f, " %.1f,%.1f %.1f,%.1f", x, bottom - b->h * (double)i / a->cp_max, x,
			bottom - b->h * (double)(i + 1) / a->cp_max);
	}
	fprintf(f, " %.1f,%.1f\"/>\n", x_at(a, b, r->elapsed_s),
		bottom - b->h * (double)r->ncp_times / a->cp_max);
}

static void plot_elapsed(FILE *f, const struct f2fs_replay_report *r, const struct axes *a,
			 const struct box *b)
{
	size_t k;

	frame(f, a, b, "elapsed per thread");
	for (k = 0; k < r->nthreads; k++) {
		const struct f2fs_replay_thread_report *t = &r->threads[k];
		double y = b->y + BAR_H * (double)k;

		fprintf(f,
			"<rect class=\"elapsed\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"/>\n",
			b->x, y + 3, x_at(a, b, t->elapsed_s) - b->x, BAR_H - 6,
			colours[k % NCOLOURS]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">",
			b->x - 4, y + BAR_H - 5);
		text_escaped(f, t->name);
		fprintf(f, " %.3g s</text>\n", t->elapsed_s);
	}
}

/* The panels' height: the latency panel's, or taller for many threads' bars. */
static double panel_h(const struct axes *a)
{
	return fmax(PANEL_H, BAR_H * (double)a->threads);
}

/* The run whose threads name the legend's colours: the one with the most. */
static const struct f2fs_replay_report *most_threads(const struct f2fs_replay_report *r, size_t n)
{
	const struct f2fs_replay_report *best = &r[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (r[i].nthreads > best->nthreads)
			best = &r[i];
	return best;
}

#define LEGEND_ITEM 130.0 /* one thread's swatch and name */

/* The legend's rows of threads in @width. */
static size_t legend_rows(size_t threads, double width)
{
	size_t per_row = (size_t)((width - MARGIN) / LEGEND_ITEM);

	return threads ? (threads + per_row - 1) / per_row : 1;
}

static double legend_h(size_t threads, double width)
{
	return LEGEND_ROW * (double)(legend_rows(threads, width) + 1) + 10;
}

static void legend_thread(FILE *f, size_t k, const char *name, double x, double y)
{
	fprintf(f,
		"<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
		"fill=\"%s\"/>\n",
		x, y - 9, colours[k % NCOLOURS]);
	fprintf(f, "<text class=\"thread\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", x + 14, y);
	text_escaped(f, name);
	fputs("</text>\n", f);
}

/* What a dot, the line and a bar stand for, each beside a sample of it. */
static void legend_marks(FILE *f, double y)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#555\"/>\n", MARGIN + 5, y - 4);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">one fsync, fdatasync or sync: "
		"when it started, how long it took</text>\n",
		MARGIN + 14, y);
	fprintf(f,
		"<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
		"stroke=\"#333\"/>\n",
		MARGIN + 400, y, MARGIN + 406, y, MARGIN + 406, y - 8);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">checkpoints issued so far</text>\n",
		MARGIN + 414, y);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"8\" fill=\"#555\"/>\n",
		MARGIN + 600, y - 8);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">a thread's elapsed time</text>\n",
		MARGIN + 618, y);
}

/*
 * The legend at @y: each thread's colour (threads past the palette share
 * colours; their bars' labels tell them apart), then the marks.
 */
static void legend(FILE *f, const struct f2fs_replay_report *r, size_t n, double width, double y)
{
	const struct f2fs_replay_report *t = most_threads(r, n);
	double x = MARGIN, row = y + LEGEND_ROW;
	size_t k;

	fprintf(f, "<g class=\"legend\">\n");
	fprintf(f, "<text x=\"8\" y=\"%.1f\" font-size=\"11\">threads</text>\n", row);
	for (k = 0; k < t->nthreads; k++) {
		if (x + LEGEND_ITEM > width) {
			x = MARGIN;
			row += LEGEND_ROW;
		}
		legend_thread(f, k, t->threads[k].name, x, row);
		x += LEGEND_ITEM;
	}
	legend_marks(f, row + LEGEND_ROW);
	fputs("</g>\n", f);
}

/* A run's row at @y: its label, then its three panels side by side. */
static void plot_row(FILE *f, const struct f2fs_replay_report *r, const char *label,
		     const struct axes *a, double y)
{
	double top = y + ROW_HEAD;
	struct box lat = {MARGIN, top, LAT_W, PANEL_H};
	struct box cp = {lat.x + LAT_W + MARGIN, top, CP_W, PANEL_H};
	struct box bars = {cp.x + CP_W + MARGIN + 40, top, BAR_W, BAR_H * (double)a->threads};

	fprintf(f, "<g class=\"run\">\n<text class=\"label\" x=\"8\" y=\"%.1f\" font-size=\"15\">",
		y + 18);
	text_escaped(f, label);
	fputs("</text>\n", f);
	plot_fsyncs(f, r, a, &lat);
	plot_checkpoints(f, r, a, &cp);
	plot_elapsed(f, r, a, &bars);
	fputs("</g>\n", f);
}

int replay_plot_svg(FILE *f, const struct f2fs_replay_report *reps, const char *const labels[],
		    size_t n)
{
	double width = MARGIN + LAT_W + MARGIN + CP_W + MARGIN + 40 + BAR_W + 16;
	double row_h, y, lh;
	struct axes a;
	size_t i;

	shared_axes(reps, n, &a);
	row_h = ROW_HEAD + panel_h(&a) + ROW_FOOT;
	lh = legend_h(most_threads(reps, n)->nthreads, width);
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		width, TITLE_H + lh + row_h * (double)n);
	fprintf(f, "<text x=\"8\" y=\"22\" font-size=\"17\">f2fs_io replay: ");
	text_escaped(f, reps[0].workload);
	fprintf(f, "</text>\n<text x=\"8\" y=\"40\" font-size=\"11\" fill=\"#444\">one row per "
		   "run; the rows share their axes (time, latency, checkpoints)</text>\n");
	legend(f, reps, n, width, TITLE_H);
	y = TITLE_H + lh;
	for (i = 0; i < n; i++, y += row_h)
		plot_row(f, &reps[i], labels[i], &a, y);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
