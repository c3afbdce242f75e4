// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for what the tools share to show names and write JSON
 * (tools/common/name.c, json.c): names by the escaping rule of name.h --
 * UTF-8 as is, every byte of an invalid sequence, control characters and
 * the backslash as \xNN -- over the edge cases of RFC 3629's table; the
 * JSON writer's strings (text and names) byte for byte; and json_fail(),
 * which must leave one complete document whatever was open.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tools/common/json.h"
#include "tools/common/name.h"

/* @in (of @len bytes) escaped must be @want, by both the buffer and the stream form. */
static void expect_name(const char *in, size_t len, const char *want)
{
	char out[256], *mem = NULL;
	size_t mlen = 0;
	FILE *f = open_memstream(&mem, &mlen);

	tool_escape_name(out, sizeof(out), in, len);
	if (strcmp(out, want)) {
		fprintf(stderr, "escaped \"%s\", expected \"%s\"\n", out, want);
		CHECK(0);
	}
	CHECK(f != NULL);
	if (!f)
		return;
	tool_put_name(f, in, len);
	fclose(f);
	CHECK(mem && !strcmp(mem, want));
	free(mem);
}

#define NAME(lit, want) expect_name(lit, sizeof(lit) - 1, want)

static void test_names(void)
{
	NAME("plain.txt", "plain.txt");
	NAME("caf\xc3\xa9", "caf\xc3\xa9");
	NAME("\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac");
	NAME("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"); /* U+1F600 */
	NAME("nbsp\xc2\xa0", "nbsp\xc2\xa0");	      /* U+00A0: printable */
	NAME("bad\xff\xfex", "bad\\xff\\xfex");
	NAME("ctl\x01\x1b[31m\x7f", "ctl\\x01\\x1b[31m\\x7f");
	NAME("a\nb\tc", "a\\x0ab\\x09c");
	NAME("back\\slash", "back\\x5cslash");
	NAME("nel\xc2\x85", "nel\\xc2\\x85");		  /* U+0085: a C1 control */
	NAME("\xc0\xaf", "\\xc0\\xaf");			  /* overlong '/' */
	NAME("\xe0\x80\xaf", "\\xe0\\x80\\xaf");	  /* overlong, 3 bytes */
	NAME("\xed\xa0\x80", "\\xed\\xa0\\x80");	  /* a surrogate */
	NAME("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	NAME("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");	  /* U+10FFFF */
	NAME("cut\xe6\x97", "cut\\xe6\\x97");		  /* a truncated sequence */
	NAME("\x80x", "\\x80x");			  /* a stray continuation */
	NAME("\xe6\x97"
	     "a\xe6\x97\xa5",
	     "\\xe6\\x97a\xe6\x97\xa5"); /* recovers at once */
	expect_name("a\0b", 3, "a\\x00b");
	expect_name("", 0, "");
}

/* The buffer form stops at a whole character when it is short. */
static void test_name_buffer(void)
{
	char out[8];

	CHECK(!strcmp(tool_escape_name(out, sizeof(out), "abcdefghij", 10), "abcdefg"));
	CHECK(!strcmp(tool_escape_name(out, sizeof(out), "abcde\xff", 6), "abcde"));
	CHECK(!strcmp(tool_escape_name(out, sizeof(out), "ab\xff\xfe", 4), "ab\\xff"));
	CHECK(!strcmp(tool_escape_name(out, sizeof(out), "abcdef\xc3\xa9", 8), "abcdef"));
	CHECK(!strcmp(tool_escape_name(out, 1, "abc", 3), ""));
}

/* A writer on a memory stream; json_take() ends it and returns the text (free it). */
struct mem {
	FILE *f;
	char *buf;
	size_t len;
	struct json j;
};

static bool mem_open(struct mem *m)
{
	memset(m, 0, sizeof(*m));
	m->f = open_memstream(&m->buf, &m->len);
	CHECK(m->f != NULL);
	if (m->f)
		json_init(&m->j, m->f);
	return m->f != NULL;
}

static void mem_expect(struct mem *m, const char *want)
{
	fclose(m->f);
	if (!m->buf || strcmp(m->buf, want)) {
		fprintf(stderr, "wrote   %s\nexpected %s\n", m->buf ? m->buf : "(null)", want);
		CHECK(0);
	}
	free(m->buf);
}

static void test_json_strings(void)
{
	struct mem m;

	if (!mem_open(&m))
		return;
	json_object(&m.j, NULL);
	json_name(&m.j, "name", "a\xff\"b\\c\xc3\xa9\n", 9);
	json_str(&m.j, "text", "q\"b\\s\n\t\x01\xff\xc3\xa9");
	json_strn(&m.j, "n", "ab\0c", 4);
	json_array(&m.j, "list");
	json_u64(&m.j, NULL, 1);
	json_bool(&m.j, NULL, false);
	json_end(&m.j);
	json_end(&m.j);
	mem_expect(&m, "{\"name\":\"a\\\\xff\\\"b\\\\x5cc\xc3\xa9\\\\x0a\","
		       "\"text\":\"q\\\"b\\\\s\\n\\t\\u0001\\ufffd\xc3\xa9\","
		       "\"n\":\"ab\\u0000c\",\"list\":[1,false]}");
}

static void test_json_fail(void)
{
	struct mem m;

	/* nothing written yet */
	if (!mem_open(&m))
		return;
	CHECK(json_fail(&m.j, "cannot open: \"x\""));
	mem_expect(&m, "{\"error\":{\"message\":\"cannot open: \\\"x\\\"\"}}\n");

	/* inside an array inside an object inside the document */
	if (!mem_open(&m))
		return;
	json_object(&m.j, NULL);
	json_u64(&m.j, "a", 1);
	json_object(&m.j, "inode");
	json_array(&m.j, "extents");
	json_object(&m.j, NULL);
	json_u64(&m.j, "fofs", 0);
	CHECK(json_fail(&m.j, "walk stopped"));
	mem_expect(&m, "{\"a\":1,\"inode\":{\"extents\":[{\"fofs\":0}]},"
		       "\"error\":{\"message\":\"walk stopped\"}}\n");

	/* an object just opened, nothing in it */
	if (!mem_open(&m))
		return;
	json_object(&m.j, NULL);
	CHECK(json_fail(&m.j, "m"));
	mem_expect(&m, "{\"error\":{\"message\":\"m\"}}\n");

	/* an outer array gets the error as its last element */
	if (!mem_open(&m))
		return;
	json_array(&m.j, NULL);
	json_u64(&m.j, NULL, 7);
	CHECK(json_fail(&m.j, "m"));
	mem_expect(&m, "[7,{\"error\":{\"message\":\"m\"}}]\n");

	/* a complete document is left alone */
	if (!mem_open(&m))
		return;
	json_object(&m.j, NULL);
	json_end(&m.j);
	CHECK(!json_fail(&m.j, "late"));
	mem_expect(&m, "{}");
}

int main(void)
{
	RUN(test_names);
	RUN(test_name_buffer);
	RUN(test_json_strings);
	RUN(test_json_fail);
	TEST_EXIT();
}
