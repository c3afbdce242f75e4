// SPDX-License-Identifier: GPL-2.0
/* Helpers every f2fs_io subcommand family uses: errors, allocation, I/O, numbers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "f2fs_io.h"

static void __attribute__((noreturn)) vdie(const char *fmt, va_list ap, int err)
{
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	putc('\n', stderr);
	exit(1);
}

void die_errno(const char *fmt, ...)
{
	va_list ap;
	int err = errno;

	va_start(ap, fmt);
	vdie(fmt, ap, err);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(fmt, ap, 0);
}

void print_usage(const struct f2fs_io_cmd *cmd, FILE *out)
{
	fputs("\nUSAGE:\n  ", out);
	fputs(cmd->usage, out);
}

void usage_exit(const struct f2fs_io_cmd *cmd)
{
	fputs("Excess arguments\n\n", stderr);
	fputs(cmd->usage, stderr);
	exit(1);
}

void bad_value(const struct f2fs_io_cmd *cmd, const char *what, const char *arg)
{
	fprintf(stderr, "Wrong %s: %s\n\n", what, arg ? arg : "(none)");
	fputs(cmd->usage, stderr);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		die("Memory alloc failed (requested %zu bytes)", size);
	return p;
}

void *xaligned_alloc(size_t alignment, size_t size)
{
	void *p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);

	if (!p)
		die("Memory alloc failed (requested %zu bytes)", size);
	return p;
}

int xopen(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd < 0)
		die_errno("Failed to open %s", path);
	return fd;
}

ssize_t xread(int fd, void *buf, size_t count)
{
	ssize_t ret = read(fd, buf, count);

	if (ret < 0)
		die_errno("read failed");
	return ret;
}

void full_write(int fd, const void *buf, size_t count)
{
	const char *p = buf;

	while (count > 0) {
		ssize_t n = write(fd, p, count);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("write failed");
		p += n;
		count -= (size_t)n;
	}
}

uint64_t parse_u64(const struct f2fs_io_cmd *cmd, const char *what, const char *arg, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!arg || !*arg || *arg == '-')
		bad_value(cmd, what, arg);
	v = strtoull(arg, &end, 0);
	if (errno || *end || v > max)
		bad_value(cmd, what, arg);
	return v;
}

uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
