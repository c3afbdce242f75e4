// SPDX-License-Identifier: GPL-2.0
/* The tools' progress display (see progress.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common.h"
#include "progress.h"

#define REDRAW_SECS 0.1 /* the bar is redrawn at most this often, except on a new pass */
#define BAR_MAX	    40	/* columns of the bar itself, at most */
#define LINE_BYTES  512

bool progress_parse(const char *arg, struct progress_request *r)
{
	uint64_t fd;

	if (!arg) {
		r->mode = PROGRESS_ON;
		return true;
	}
	if (!tool_parse_u64(arg, TOOL_NUM_DEC, INT32_MAX, &fd))
		return false;
	/* e2fsck's -C 0 is its bar: here the bar, but on standard error */
	r->mode = fd == 0 ? PROGRESS_ON : PROGRESS_FD;
	r->fd = (int)fd;
	return true;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* The automatic bar's delay: PROGRESS_DELAY, or the environment's when it is a number. */
static double auto_delay(void)
{
	const char *s = getenv(PROGRESS_DELAY_ENV);
	char *end;
	double v;

	if (!s || !*s)
		return PROGRESS_DELAY;
	v = strtod(s, &end);
	return *end || v < 0 || v != v ? PROGRESS_DELAY : v;
}

static bool fd_writable(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags >= 0 && (flags & O_ACCMODE) != O_RDONLY;
}

bool progress_start(struct progress *p, const struct progress_request *r, const char *device,
		    char *why, size_t why_len)
{
	memset(p, 0, sizeof(*p));
	p->device = device;
	p->fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	switch (r->mode) {
	case PROGRESS_OFF:
		break;
	case PROGRESS_AUTO:
		if (isatty(STDERR_FILENO)) {
			p->fd = STDERR_FILENO;
			p->bar = true;
			p->delay = auto_delay();
		}
		break;
	case PROGRESS_ON:
		p->fd = STDERR_FILENO;
		p->bar = isatty(STDERR_FILENO);
		break;
	case PROGRESS_FD:
		if (!fd_writable(r->fd)) {
			snprintf(why, why_len, "file descriptor %d is not open for writing", r->fd);
			return false;
		}
		p->fd = r->fd;
		break;
	}
	return true;
}

/* Write all of @buf; on a failure (a closed pipe, a full disk) stop showing progress. */
static void put(struct progress *p, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(p->fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			p->fd = -1;
			p->drawn_len = 0;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

static unsigned int terminal_columns(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* "\rDEVICE: 2/4 walking the tree |=====     |  45.0%", padded over the last one. */
static void draw_bar(struct progress *p, const struct f2fs_progress *r)
{
	char line[LINE_BYTES], bar[BAR_MAX + 1];
	unsigned int cols = terminal_columns(p->fd) - 1, width, fill;
	double frac = r->total ? (double)r->done / (double)r->total : 0;
	int head, n;

	if (frac > 1)
		frac = 1;
	head =
	    snprintf(line, sizeof(line), "\r%s: %u/%u %s ", p->device, r->pass, r->passes, r->name);
	if (head < 0 || (size_t)head >= sizeof(line))
		head = (int)sizeof(line) - 1;
	/* the bar takes what is left of the line, between 10 and BAR_MAX columns */
	width = cols > (unsigned int)head + 10 ? cols - (unsigned int)head - 10 : 10;
	if (width > BAR_MAX)
		width = BAR_MAX;
	fill = (unsigned int)(frac * width);
	memset(bar, '=', fill);
	memset(bar + fill, ' ', width - fill);
	bar[width] = '\0';
	n = snprintf(line + head, sizeof(line) - (size_t)head, "|%s| %5.1f%%", bar, frac * 100);
	n = n < 0 ? head : head + n;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	if ((unsigned int)n > cols + 1) /* +1: the \r takes no column */
		n = (int)cols + 1;
	/* cover what is left of a longer previous bar */
	while ((size_t)n - 1 < p->drawn_len && (size_t)n < sizeof(line) - 1)
		line[n++] = ' ';
	put(p, line, (size_t)n);
	if (p->fd >= 0)
		p->drawn_len = (size_t)n - 1;
}

void progress_report(const struct f2fs_progress *r, void *arg)
{
	struct progress *p = arg;
	char line[LINE_BYTES];
	double now;
	int n;

	if (!p || p->fd < 0)
		return;
	if (!p->bar) {
		n = snprintf(line, sizeof(line), "%u %" PRIu64 " %" PRIu64 " %s\n", r->pass,
			     r->done, r->total, p->device);
		if (n > 0 && (size_t)n < sizeof(line))
			put(p, line, (size_t)n);
		return;
	}
	now = seconds_since(&p->start);
	if (now < p->delay)
		return;
	if (p->drawn_len && r->pass == p->drawn_pass && now - p->drawn_at < REDRAW_SECS)
		return;
	draw_bar(p, r);
	p->drawn_at = now;
	p->drawn_pass = r->pass;
}

void progress_clear(struct progress *p)
{
	char blank[LINE_BYTES + 2];
	size_t n;

	if (!p || p->fd < 0 || !p->drawn_len)
		return;
	n = p->drawn_len < LINE_BYTES ? p->drawn_len : LINE_BYTES;
	blank[0] = '\r';
	memset(blank + 1, ' ', n);
	blank[n + 1] = '\r';
	put(p, blank, n + 2);
	p->drawn_len = 0;
}

void progress_finish(struct progress *p)
{
	if (!p)
		return;
	progress_clear(p);
	p->fd = -1;
}
