// SPDX-License-Identifier: GPL-2.0
/*
 * Messages and number parsing for the tools (see common.h).  Errors go to
 * stderr after stdout is flushed, so the two interleave in the order they
 * were produced; nothing here keeps state of its own.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "common.h"

static void vsay(const struct tool *t, const char *image, const char *kind, const char *fmt,
		 va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", t->prog);
	if (image)
		fprintf(stderr, "%s: ", image);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Hand the message to t->on_fail, when set. */
static void tell_on_fail(const struct tool *t, const char *image, const char *fmt, va_list ap)
{
	char msg[1024];
	int n = 0;

	if (!t->on_fail)
		return;
	if (image)
		n = snprintf(msg, sizeof(msg), "%s: ", image);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	t->on_fail(t->on_fail_arg, msg);
}

void tool_fail(const struct tool *t, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell_on_fail(t, NULL, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vsay(t, NULL, NULL, fmt, ap);
	va_end(ap);
	exit(status);
}

void tool_fail_image(const struct tool *t, int status, const char *fmt, ...)
{
	const char *image = t->image ? t->image : "(no image)";
	va_list ap;

	va_start(ap, fmt);
	tell_on_fail(t, image, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vsay(t, image, NULL, fmt, ap);
	va_end(ap);
	exit(status);
}

void tool_warn(struct tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(t, NULL, "warning: ", fmt, ap);
	va_end(ap);
	t->warnings++;
}

/* Are all of @s digits of @base (at least one)? strtoull alone would take a sign or "0x". */
static bool all_digits(const char *s, int base)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (base == 16 ? !isxdigit(c) : (c < '0' || c >= '0' + base))
			return false;
	}
	return true;
}

bool tool_parse_u64(const char *s, unsigned int bases, uint64_t max, uint64_t *v)
{
	unsigned long long n;
	char *end;
	int base;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!(bases & TOOL_NUM_HEX))
			return false;
		s += 2;
		base = 16;
	} else if (s[0] == '0' && (bases & TOOL_NUM_OCT)) {
		base = 8;
	} else {
		if (!(bases & TOOL_NUM_DEC))
			return false;
		base = 10;
	}
	if (!all_digits(s, base))
		return false;
	errno = 0;
	n = strtoull(s, &end, base);
	if (errno || *end || n > max)
		return false;
	*v = n;
	return true;
}

void tool_kernel_version(char *out, size_t len)
{
	FILE *f = fopen("/proc/version", "re");
	struct utsname u;

	memset(out, 0, len);
	if (f) {
		if (fgets(out, (int)len, f))
			out[strcspn(out, "\n")] = '\0';
		fclose(f);
	}
	if (!out[0] && !uname(&u))
		snprintf(out, len, "%s", u.release);
}
