/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the command-line tools share besides libf2fs: their messages and
 * their number parsing.  Every message starts with the program's name; an
 * error about the image also names the image, then the structure, then the
 * field and its value:
 *
 *	dump.f2fs: disk.img: SIT: segment 12: vblocks 600 is past 512
 *
 * Usage errors name the option instead ("dump.f2fs: -i 0: bad inode
 * number").  Nothing here keeps state between calls: the program's name and
 * the image live in a struct tool the caller owns, which also counts the
 * warnings given, for tools that report the count.
 */
#ifndef TOOLS_COMMON_H
#define TOOLS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress;

struct tool {
	const char *prog;	   /* "dump.f2fs": the first word of every message */
	const char *image;	   /* the image, once known (NULL before): for tool_fail_image */
	unsigned int warnings;	   /* tool_warn() calls so far */
	bool quiet;		   /* tool_warn() counts but prints nothing */
	struct progress *progress; /* a progress bar to erase before a message, or NULL */
	bool sparse;		   /* -S: the image is an Android sparse image */
	/* called by tool_fail*() before the message and exit (e.g. to end a JSON document) */
	void (*on_fail)(void *arg, int status, const char *msg);
	void *on_fail_arg;
};

/*
 * "prog: MESSAGE" on stderr, then exit(@status).  Standard output is
 * flushed first, so that what the tool printed before comes out before the
 * error when both go to one terminal or file.
 */
void tool_fail(const struct tool *t, int status, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* "prog: IMAGE: MESSAGE" on stderr, then exit(@status); @fmt starts with the structure. */
void tool_fail_image(const struct tool *t, int status, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* "prog: warning: MESSAGE" on stderr (unless t->quiet); counts it in t->warnings. */
void tool_warn(struct tool *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Spellings tool_parse_u64() accepts; combine them. */
enum tool_num_base {
	TOOL_NUM_DEC = 1u << 0, /* 123 (a leading 0 stays decimal without TOOL_NUM_OCT) */
	TOOL_NUM_HEX = 1u << 1, /* 0x7b or 0X7B */
	TOOL_NUM_OCT = 1u << 2, /* 0173, as strtoul with base 0 reads it */
};
#define TOOL_NUM_C (TOOL_NUM_DEC | TOOL_NUM_HEX | TOOL_NUM_OCT) /* what C accepts */

/*
 * Parse all of @s as an unsigned number in one of the @bases spellings, no
 * larger than @max, into *@v.  Returns false (and leaves *@v undefined) for
 * an empty string, a sign, leading blanks, a spelling not in @bases,
 * trailing bytes, or a value past @max or 2^64 - 1.
 */
bool tool_parse_u64(const char *s, unsigned int bases, uint64_t max, uint64_t *v);

/*
 * The running kernel's version as upstream records it in the superblock:
 * the first line of /proc/version, else uname's release; "" when neither.
 */
void tool_kernel_version(char *out, size_t len);

#endif
