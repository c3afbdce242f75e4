// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io replay --plot: the runs as one SVG, for people.  Each run is a
 * column of three panels, and all columns share their axes so that two
 * policies compare at a glance: every fsync-like op as a dot at its start
 * time and its latency (log scale), coloured by thread; each thread's
 * elapsed time as a bar; and the checkpoints issued so far over time.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "replay_plot.h"

#define COL_W	 560.0 /* one run's column */
#define LEFT	 64.0  /* room for the y labels */
#define RIGHT	 16.0
#define TOP	 60.0 /* the column's title */
#define LAT_H	 220.0
#define BAR_H	 18.0
#define CP_H	 140.0
#define GAP	 44.0 /* between panels: the next panel's title */
#define NCOLOURS 8
#define MS_FLOOR 0.01 /* the latency axis starts no lower */

static const char *const colours[NCOLOURS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
					      "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/* Axes all columns share. */
struct axes {
	double t_max;	       /* s */
	double lg_min, lg_max; /* log10 of the latency range, ms */
	double cp_max;	       /* checkpoints */
	size_t threads;	       /* the most threads of a run */
};

static double panel_w(void)
{
	return COL_W - LEFT - RIGHT;
}

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

static void shared_axes(const struct f2fs_replay_report *r, size_t n, struct axes *a)
{
	double lo = INFINITY, hi = 0;
	size_t i, k, s;

	*a = (struct axes){.t_max = 1e-3, .cp_max = 1};
	for (i = 0; i < n; i++) {
		if (r[i].elapsed_s > a->t_max)
			a->t_max = r[i].elapsed_s;
		if ((double)r[i].ncp_times > a->cp_max)
			a->cp_max = (double)r[i].ncp_times;
		if (r[i].nthreads > a->threads)
			a->threads = r[i].nthreads;
		for (k = 0; k < r[i].nthreads; k++) {
			const struct f2fs_replay_thread_report *t = &r[i].threads[k];

			if (t->elapsed_s > a->t_max)
				a->t_max = t->elapsed_s;
			for (s = 0; s < t->nfsync_samples; s++) {
				double ms = fmax(t->fsync_samples[s].ms, MS_FLOOR);

				lo = fmin(lo, ms);
				hi = fmax(hi, ms);
			}
		}
	}
	if (hi == 0)
		lo = hi = 1;
	a->lg_min = floor(log10(lo));
	a->lg_max = ceil(log10(hi));
	if (a->lg_max <= a->lg_min)
		a->lg_max = a->lg_min + 1;
}

static double x_at(const struct axes *a, double x0, double t)
{
	return x0 + LEFT + panel_w() * fmin(t, a->t_max) / a->t_max;
}

/* A panel's frame, title and time axis (ticks at fifths of t_max). */
static void frame(FILE *f, const struct axes *a, double x0, double y0, double h, const char *title)
{
	int i;

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\">%s</text>\n", x0 + LEFT, y0 - 8,
		title);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		x0 + LEFT, y0, panel_w(), h);
	for (i = 0; i <= 5; i++) {
		double t = a->t_max * i / 5;

		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"middle\">%.3g s</text>\n",
			x_at(a, x0, t), y0 + h + 12, t);
	}
}

static double y_of_ms(const struct axes *a, double y0, double ms)
{
	double lg = log10(fmax(ms, MS_FLOOR));

	return y0 + LAT_H - LAT_H * (lg - a->lg_min) / (a->lg_max - a->lg_min);
}

static void plot_fsyncs(FILE *f, const struct f2fs_replay_report *r, const struct axes *a,
			double x0, double y0)
{
	double lg;
	size_t k, s;

	frame(f, a, x0, y0, LAT_H, "fsync latency over time (ms, log scale)");
	for (lg = a->lg_min; lg <= a->lg_max; lg++)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"end\">%g</text>\n",
			x0 + LEFT - 4, y_of_ms(a, y0, pow(10, lg)) + 3, pow(10, lg));
	for (k = 0; k < r->nthreads; k++) {
		const struct f2fs_replay_thread_report *t = &r->threads[k];

		fprintf(f, "<g class=\"fsyncs\" fill=\"%s\" fill-opacity=\"0.6\">\n",
			colours[k % NCOLOURS]);
		for (s = 0; s < t->nfsync_samples; s++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\"/>\n",
				x_at(a, x0, t->fsync_samples[s].at_s),
				y_of_ms(a, y0, t->fsync_samples[s].ms));
		fputs("</g>\n", f);
	}
}

static void plot_elapsed(FILE *f, const struct f2fs_replay_report *r, const struct axes *a,
			 double x0, double y0)
{
	size_t k;

	frame(f, a, x0, y0, BAR_H * (double)a->threads, "elapsed per thread");
	for (k = 0; k < r->nthreads; k++) {
		const struct f2fs_replay_thread_report *t = &r->threads[k];
		double y = y0 + BAR_H * (double)k;

		fprintf(f,
			"<rect class=\"elapsed\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"/>\n",
			x0 + LEFT, y + 3, x_at(a, x0, t->elapsed_s) - x0 - LEFT, BAR_H - 6,
			colours[k % NCOLOURS]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">",
			x0 + LEFT - 4, y + BAR_H - 5);
		text_escaped(f, t->name);
		fprintf(f, " %.3g s</text>\n", t->elapsed_s);
	}
}

static void plot_checkpoints(FILE *f, const struct f2fs_replay_report *r, const struct axes *a,
			     double x0, double y0)
{
	size_t i;

	frame(f, a, x0, y0, CP_H, "checkpoints issued so far");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
		x0 + LEFT - 4, y0 + 10, a->cp_max);
	fprintf(f,
		"<polyline class=\"checkpoints\" fill=\"none\" stroke=\"#333\" points=\"%.1f,%.1f",
		x0 + LEFT, y0 + CP_H);
	for (i = 0; i < r->ncp_times; i++) {
		double x = x_at(a, x0, r->cp_times_s[i]);

		fprintf(f, " %.1f,%.1f %.1f,%.1f", x, y0 + CP_H - CP_H * (double)i / a->cp_max, x,
			y0 + CP_H - CP_H * (double)(i + 1) / a->cp_max);
	}
	fprintf(f, " %.1f,%.1f\"/>\n", x_at(a, x0, r->elapsed_s),
		y0 + CP_H - CP_H * (double)r->ncp_times / a->cp_max);
}

int replay_plot_svg(FILE *f, const struct f2fs_replay_report *reps, const char *const labels[],
		    size_t n)
{
	double bars, height;
	struct axes a;
	size_t i;

	shared_axes(reps, n, &a);
	bars = BAR_H * (double)(a.threads ? a.threads : 1);
	height = TOP + LAT_H + GAP + bars + GAP + CP_H + 28;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		COL_W * (double)n, height);
	for (i = 0; i < n; i++) {
		double x0 = COL_W * (double)i;

		fprintf(f, "<g class=\"run\">\n<text x=\"%.1f\" y=\"20\" font-size=\"15\">",
			x0 + LEFT);
		text_escaped(f, labels[i]);
		fputs("</text>\n", f);
		plot_fsyncs(f, &reps[i], &a, x0, TOP);
		plot_elapsed(f, &reps[i], &a, x0, TOP + LAT_H + GAP);
		plot_checkpoints(f, &reps[i], &a, x0, TOP + LAT_H + GAP + bars + GAP);
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
