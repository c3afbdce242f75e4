/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for the tools' --json output: objects and
 * arrays are opened and closed in order, members are written as they come,
 * and commas are placed by the writer.  Whatever bytes it is given, the
 * document is valid JSON in valid UTF-8:
 *
 *  - json_str() is for text the tool composes (messages, type names): valid
 *    UTF-8 is written as is, quotes, backslashes and control characters get
 *    JSON's escapes, and a byte that is not part of valid UTF-8 becomes
 *    U+FFFD;
 *  - json_name() is for bytes from disk or from the command line (file
 *    names, paths): they are shown by the rule of name.h (valid UTF-8 as
 *    is, any other byte as the text \xNN), so the exact bytes can be
 *    recovered from the string; in the JSON source that backslash is
 *    written "\\", e.g. the name bytes 61 ff 0a are "a\\xff\\x0a".
 *
 * When a tool fails after the document started, json_fail() closes what is
 * open and adds an "error" member, so that even a failed run prints one
 * complete document.  The writer keeps no state outside its struct json,
 * which the caller owns.
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
	int depth;		    /* containers open; 0 at the document's level */
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
/* A number with 6 significant digits; null when it is not finite. */
void json_double(struct json *j, const char *key, double v);
void json_str(struct json *j, const char *key, const char *s);
void json_strn(struct json *j, const char *key, const char *s, size_t len);

/* A name or path of @len bytes, shown by the rule of name.h. */
void json_name(struct json *j, const char *key, const void *s, size_t len);

/*
 * End the document after a failure: close the containers open inside the
 * outermost object, add to it the member
 *
 *	"error": {"message": MESSAGE}
 *
 * and close it too, then end the line.  Nothing written yet gives the
 * document {"error": {"message": MESSAGE}}; an outermost array gets the
 * object {"error": ...} as its last element.  A document already complete
 * is left alone: returns false then, true otherwise.
 */
bool json_fail(struct json *j, const char *message);

#endif
