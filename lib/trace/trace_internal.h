/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the trace reader and the importers share: the staging of a
 * workload (a parse fills a copy of the caller's workload and only replaces
 * it when the whole input was accepted), the bounded line reader, the
 * parse errors, and the rules every path of a workload keeps so that the
 * trace writer can write it and the reader read it back.
 *
 * Files: workload.c (the model and the staging), trace.c (the text format,
 * the line reader, errors and path rules), import.c (strace and fio logs).
 */
#ifndef F2FS_REPLAY_TRACE_INTERNAL_H
#define F2FS_REPLAY_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "f2fs/trace.h"

#define RP_PATH_MAX	  4095u /* bytes of a path, as PATH_MAX less its NUL */
#define RP_NAME_MAX	  255u	/* bytes of one component */
#define RP_TRACE_LINE_MAX 8192u
#define RP_NS_PER_SEC	  1000000000ull

static inline bool rp_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The value of hex digit @c, -1 when it is not one. */
static inline int rp_hex_digit(char c)
{
	if (rp_is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ---- staging (workload.c) ---- */

/* Room for element @n in *@arr (*@cap elements of @size bytes, doubled as needed); false: ENOMEM.
 */
bool rp_grow(void **arr, size_t *cap, size_t n, size_t size);

/* A deep copy of @src into @dst (which it initialises).  0, or -ENOMEM with @dst empty. */
int rp_workload_copy(struct f2fs_replay_workload *dst, const struct f2fs_replay_workload *src);

/* Free @dst's contents and move @src's into it; @src is left empty. */
void rp_workload_move(struct f2fs_replay_workload *dst, struct f2fs_replay_workload *src);

/* ---- reading lines (trace.c) ---- */

struct rp_lines {
	FILE *in;
	size_t max;  /* the longest line accepted, its newline excluded */
	char *buf;   /* max + 1 bytes: the line, NUL-terminated */
	size_t len;  /* bytes in the line */
	uint32_t no; /* its number, 1-based */
};

int rp_lines_open(struct rp_lines *r, FILE *in, size_t max);
void rp_lines_close(struct rp_lines *r);

/*
 * The next line into r->buf (newline and a trailing CR removed).  1 for a
 * line, 0 at the end, -EIO on a read error, -EFBIG for a line longer than
 * r->max, -EILSEQ for a line holding a NUL byte (r->no is its number in
 * both cases).
 */
int rp_lines_next(struct rp_lines *r);

/* ---- errors (trace.c) ---- */

/* Fill *@err (when not NULL) with @file, @line and the formatted reason; returns -EINVAL. */
int rp_fail(struct f2fs_replay_parse_error *err, const char *file, uint32_t line, const char *fmt,
	    ...) __attribute__((format(printf, 4, 5)));
/* rp_fail() with the arguments as a va_list, for the readers' own wrappers. */
int rp_vfail(struct f2fs_replay_parse_error *err, const char *file, uint32_t line, const char *fmt,
	     va_list ap) __attribute__((format(printf, 4, 0)));

/*
 * @s (@len bytes) in double quotes for a reason: bytes that are not
 * printable as \xNN, cut with "..." past a few dozen bytes.  Returns @out.
 */
const char *rp_quote(char *out, size_t size, const char *s, size_t len);
#define RP_QUOTE_SIZE 64

/* An error of rp_lines_next as a parse error (-EINVAL with *@err filled), or -EIO. */
int rp_line_error(const struct rp_lines *r, int ret, const char *file,
		  struct f2fs_replay_parse_error *err);

/*
 * Every line of @in (at most @max bytes) to @fn with its number, until @fn
 * returns non-zero (its value is returned); a line too long or holding a
 * NUL byte is a parse error of @file.  0 at the end.
 */
typedef int (*rp_line_fn)(void *arg, uint32_t no, char *line);
int rp_lines_each(FILE *in, size_t max, rp_line_fn fn, void *arg, const char *file,
		  struct f2fs_replay_parse_error *err);

/* ---- paths (trace.c) ---- */

/*
 * Why @path (@len bytes) cannot be a path of a workload, as the end of a
 * sentence ("is not absolute"), or NULL when it can: absolute, no empty,
 * "." or ".." component, no NUL byte, at most RP_PATH_MAX bytes and
 * RP_NAME_MAX per component.  "/" itself passes (the ops that cannot take
 * the root say so themselves).
 */
const char *rp_path_problem(const char *path, size_t len);

#endif
