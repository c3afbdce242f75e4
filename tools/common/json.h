/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for the tools' --json output: objects and
 * arrays are opened and closed in order, members are written as they come,
 * and commas are placed by the writer.  Strings from disk are arbitrary
 * bytes: quotes, backslashes and control bytes are escaped, and bytes from
 * 0x7f up are written as \u00XX (read as Latin-1), so that the document is
 * always valid UTF-8 whatever a name holds.  The writer keeps no state
 * outside its struct json, which the caller owns.
 */
#ifndef TOOLS_JSON_H
#define TOOLS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16 /* deeper nesting is written, but its commas are not tracked */

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no member written yet at this depth */
	char close[JSON_MAX_DEPTH]; /* the bracket that closes this depth */
};

/* Start a document on @f. */
void json_init(struct json *j, FILE *f);

/*
 * Open an object or an array as member @key of the enclosing object, or as
 * an element of the enclosing array (or the document itself) when @key is
 * NULL.  json_end() closes the innermost one.
 */
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key);
void json_end(struct json *j);

/* Members (@key NULL: array elements). */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_str(struct json *j, const char *key, const char *s);
void json_strn(struct json *j, const char *key, const char *s, size_t len);

#endif
