/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names as the tools show them.  A file name on disk is bytes, not text:
 * usually UTF-8, but nothing stops a name from holding control characters
 * or byte sequences that are not UTF-8.  The tools show a name so that it
 * reads as the user typed it when it is valid UTF-8, cannot move the
 * cursor or forge an output line, and can be turned back into its exact
 * bytes:
 *
 *  - a valid UTF-8 sequence of a printable character is shown as is
 *    ("café", "日本");
 *  - every other byte is shown as the four characters \xNN (two lowercase
 *    hex digits): bytes of a sequence that is not valid UTF-8 (stray
 *    continuation bytes, truncated or overlong sequences, surrogates,
 *    code points past U+10FFFF), the control characters U+0000..U+001F,
 *    U+007F and U+0080..U+009F (each byte of their encoding), and the
 *    backslash itself, so that "\x" always starts an escape.
 *
 * Decoding is therefore: replace each \xNN by the byte 0xNN.  The JSON
 * writer (json.h) shows names by the same rule inside JSON strings, where
 * the backslash is in turn written "\\" as JSON requires.
 */
#ifndef TOOLS_NAME_H
#define TOOLS_NAME_H

#include <stddef.h>
#include <stdio.h>

/*
 * The length of the well-formed UTF-8 sequence at the start of @s (@len
 * bytes left, at least 1), 1..4, or 0 when there is none (RFC 3629).
 */
size_t tool_utf8_len(const unsigned char *s, size_t len);

/*
 * The length of the character at the start of @s (@len bytes left, at
 * least 1) when it is shown as is: 1 for printable ASCII other than the
 * backslash, 2..4 for a valid UTF-8 sequence of a character from U+00A0
 * up; 0 when its first byte is to be shown as \xNN.
 */
size_t tool_name_char_len(const unsigned char *s, size_t len);

/* Write the @len bytes of @name to @f by the rule above. */
void tool_put_name(FILE *f, const void *name, size_t len);

/*
 * Write the @len bytes of @name into @out (@out_len bytes) by the rule
 * above, NUL-terminated, cut at a character boundary when it does not fit.
 * 4 * @len + 1 bytes always suffice.  Returns @out.
 */
char *tool_escape_name(char *out, size_t out_len, const void *name, size_t len);

#endif
