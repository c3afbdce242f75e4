// SPDX-License-Identifier: GPL-2.0
/* The tools' JSON writer (see json.h). */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "name.h"

/* JSON's escape of a quote, a backslash or a control character. */
static void put_escaped(FILE *f, unsigned char ch)
{
	switch (ch) {
	case '"':
		fputs("\\\"", f);
		break;
	case '\\':
		fputs("\\\\", f);
		break;
	case '\n':
		fputs("\\n", f);
		break;
	case '\t':
		fputs("\\t", f);
		break;
	case '\r':
		fputs("\\r", f);
		break;
	default:
		fprintf(f, "\\u%04x", ch);
	}
}

/* Text: valid UTF-8 as is, JSON's escapes, U+FFFD for a byte that is not UTF-8. */
static void quote_text(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	fputc('"', f);
	while (i < len) {
		if (s[i] == '"' || s[i] == '\\' || s[i] < 0x20) {
			put_escaped(f, s[i++]);
			continue;
		}
		n = tool_utf8_len(s + i, len - i);
		if (n) {
			fwrite(s + i, 1, n, f);
			i += n;
		} else {
			fputs("\\ufffd", f);
			i++;
		}
	}
	fputc('"', f);
}

/* A name: name.h's rule, whose backslashes JSON then doubles. */
static void quote_name(FILE *f, const unsigned char *s, size_t len)
{
	size_t i = 0, n;

	fputc('"', f);
	while (i < len) {
		n = tool_name_char_len(s + i, len - i);
		if (n == 1 && s[i] == '"') {
			fputs("\\\"", f);
		} else if (n) {
			fwrite(s + i, 1, n, f);
		} else {
			fprintf(f, "\\\\x%02x", s[i]);
			n = 1;
		}
		i += n;
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
		quote_text(j->f, k, strlen(k));
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

void json_double(struct json *j, const char *k, double v)
{
	key(j, k);
	/* JSON has no NaN or infinity */
	if (v != v || v > 1e300 || v < -1e300)
		fputs("null", j->f);
	else
		fprintf(j->f, "%.6g", v);
}

void json_bool(struct json *j, const char *k, bool v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void json_strn(struct json *j, const char *k, const char *s, size_t len)
{
	key(j, k);
	quote_text(j->f, s, len);
}

void json_str(struct json *j, const char *k, const char *s)
{
	json_strn(j, k, s, strlen(s));
}

void json_name(struct json *j, const char *k, const void *s, size_t len)
{
	key(j, k);
	quote_name(j->f, s, len);
}

bool json_fail(struct json *j, const char *message)
{
	if (j->depth == 0 && !j->first[0])
		return false;
	if (j->depth == 0)
		json_object(j, NULL);
	while (j->depth > 1)
		json_end(j);
	if (j->close[1] == ']')
		json_object(j, NULL);
	json_object(j, "error");
	json_str(j, "message", message);
	while (j->depth > 0)
		json_end(j);
	fputc('\n', j->f);
	return true;
}
