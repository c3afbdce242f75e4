// SPDX-License-Identifier: GPL-2.0
/* Names shown as valid UTF-8 with \xNN escapes (see name.h). */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "name.h"

static bool in(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

/* RFC 3629's table of well-formed sequences. */
size_t tool_utf8_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (in(c, 0xc2, 0xdf))
		n = 2;
	else if (in(c, 0xe0, 0xef))
		n = 3;
	else if (in(c, 0xf0, 0xf4))
		n = 4;
	else
		return 0; /* a continuation byte, an overlong lead, or past U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0; /* overlong */
	else if (c == 0xed)
		hi = 0x9f; /* surrogates */
	else if (c == 0xf0)
		lo = 0x90; /* overlong */
	else if (c == 0xf4)
		hi = 0x8f; /* past U+10FFFF */
	if (len < n || !in(s[1], lo, hi))
		return 0;
	for (i = 2; i < n; i++)
		if (!in(s[i], 0x80, 0xbf))
			return 0;
	return n;
}

size_t tool_name_char_len(const unsigned char *s, size_t len)
{
	size_t n = tool_utf8_len(s, len);

	if (n == 1)
		return s[0] >= 0x20 && s[0] < 0x7f && s[0] != '\\' ? 1 : 0;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0; /* U+0080..U+009F: the C1 controls */
	return n;
}

void tool_put_name(FILE *f, const void *name, size_t len)
{
	const unsigned char *s = name;
	size_t i = 0, n;

	while (i < len) {
		n = tool_name_char_len(s + i, len - i);
		if (n) {
			fwrite(s + i, 1, n, f);
			i += n;
		} else {
			fprintf(f, "\\x%02x", s[i]);
			i++;
		}
	}
}

char *tool_escape_name(char *out, size_t out_len, const void *name, size_t len)
{
	const unsigned char *s = name;
	size_t i = 0, o = 0, n;

	if (!out_len)
		return out;
	while (i < len) {
		n = tool_name_char_len(s + i, len - i);
		if (n) {
			if (o + n >= out_len)
				break;
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			if (o + 4 >= out_len)
				break;
			snprintf(out + o, 5, "\\x%02x", s[i]);
			o += 4;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}
