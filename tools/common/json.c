// SPDX-License-Identifier: GPL-2.0
/* The tools' JSON writer (see json.h). */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "json.h"

static void quote(FILE *f, const char *s, size_t len)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* The separator and key of the next member. */
static void key(struct json *j, const char *k)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (k) {
		quote(j->f, k, strlen(k));
		fputc(':', j->f);
	}
}

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

static void begin(struct json *j, const char *k, char open_bracket, char close_bracket)
{
	key(j, k);
	fputc(open_bracket, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
	j->close[j->depth] = close_bracket;
}

void json_object(struct json *j, const char *k)
{
	begin(j, k, '{', '}');
}

void json_array(struct json *j, const char *k)
{
	begin(j, k, '[', ']');
}

void json_end(struct json *j)
{
	fputc(j->close[j->depth] ? j->close[j->depth] : '}', j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_u64(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "%" PRIu64, v);
}

void json_bool(struct json *j, const char *k, bool v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void json_strn(struct json *j, const char *k, const char *s, size_t len)
{
	key(j, k);
	quote(j->f, s, len);
}

void json_str(struct json *j, const char *k, const char *s)
{
	json_strn(j, k, s, strlen(s));
}
