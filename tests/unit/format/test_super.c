// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/format/super.c: the UTF-8 to UTF-16LE volume label, the cold
 * and hot extension lists, the superblock checksum, and copying a layout
 * into the superblock.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "f2fs/crc.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/layout.h"
#include "f2fs/super.h"
#include "test.h"

#define DEFAULT_COLD 36
#define DEFAULT_HOT  4

/* ---- labels ---- */

static uint16_t unit_at(const uint8_t *out, size_t idx)
{
	uint16_t v;

	memcpy(&v, out + idx * 2, sizeof(v));
	return le16_get(v);
}

static bool zero_from(const uint8_t *out, size_t idx, size_t max)
{
	size_t i;

	for (i = idx; i < max; i++)
		if (unit_at(out, i))
			return false;
	return true;
}

static void test_label_ascii(void)
{
	uint8_t out[F2FS_MAX_VOLUME_NAME * 2];

	memset(out, 0xff, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("abc", out, F2FS_MAX_VOLUME_NAME), 3);
	CHECK_EQ_U64(unit_at(out, 0), 'a');
	CHECK_EQ_U64(unit_at(out, 1), 'b');
	CHECK_EQ_U64(unit_at(out, 2), 'c');
	/* little-endian bytes */
	CHECK_EQ_U64(out[0], 'a');
	CHECK_EQ_U64(out[1], 0);
	CHECK(zero_from(out, 3, F2FS_MAX_VOLUME_NAME));

	memset(out, 0xff, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("", out, F2FS_MAX_VOLUME_NAME), 0);
	CHECK(zero_from(out, 0, F2FS_MAX_VOLUME_NAME));
}

static void test_label_multibyte(void)
{
	uint8_t out[F2FS_MAX_VOLUME_NAME * 2];

	/* U+00E9 (2 bytes), U+20AC (3 bytes), U+1F600 (4 bytes: a surrogate pair) */
	memset(out, 0xff, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("\xc3\xa9", out, F2FS_MAX_VOLUME_NAME), 1);
	CHECK_EQ_U64(unit_at(out, 0), 0x00e9);
	CHECK(zero_from(out, 1, F2FS_MAX_VOLUME_NAME));

	CHECK_EQ_U64(f2fs_label_to_utf16("\xe2\x82\xac", out, F2FS_MAX_VOLUME_NAME), 1);
	CHECK_EQ_U64(unit_at(out, 0), 0x20ac);

	memset(out, 0xff, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("\xf0\x9f\x98\x80", out, F2FS_MAX_VOLUME_NAME), 2);
	CHECK_EQ_U64(unit_at(out, 0), 0xd83d);
	CHECK_EQ_U64(unit_at(out, 1), 0xde00);
	CHECK(zero_from(out, 2, F2FS_MAX_VOLUME_NAME));

	/* the largest code point, U+10FFFF */
	CHECK_EQ_U64(f2fs_label_to_utf16("\xf4\x8f\xbf\xbf", out, F2FS_MAX_VOLUME_NAME), 2);
	CHECK_EQ_U64(unit_at(out, 0), 0xdbff);
	CHECK_EQ_U64(unit_at(out, 1), 0xdfff);

	/* a mix: "A" U+00DF U+4E2D U+10348 "z" */
	memset(out, 0xff, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("A\xc3\x9f\xe4\xb8\xad\xf0\x90\x8d\x88z", out,
					 F2FS_MAX_VOLUME_NAME),
		     6);
	CHECK_EQ_U64(unit_at(out, 0), 'A');
	CHECK_EQ_U64(unit_at(out, 1), 0x00df);
	CHECK_EQ_U64(unit_at(out, 2), 0x4e2d);
	CHECK_EQ_U64(unit_at(out, 3), 0xd800);
	CHECK_EQ_U64(unit_at(out, 4), 0xdf48);
	CHECK_EQ_U64(unit_at(out, 5), 'z');
	CHECK(zero_from(out, 6, F2FS_MAX_VOLUME_NAME));
}

static void test_label_invalid(void)
{
	static const char *const bad[] = {
	    "\xff",		/* never valid */
	    "\x80",		/* lone continuation */
	    "ab\xc3",		/* truncated 2-byte */
	    "\xe2\x82",		/* truncated 3-byte */
	    "\xc3\x28",		/* bad continuation */
	    "\xc0\xaf",		/* overlong '/' */
	    "\xe0\x80\xaf",	/* overlong, 3 bytes */
	    "\xed\xa0\x80",	/* UTF-16 surrogate U+D800 */
	    "\xf4\x90\x80\x80", /* past U+10FFFF */
	    "\xf8\x88\x80\x80\x80",
	};
	uint8_t out[F2FS_MAX_VOLUME_NAME * 2];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = f2fs_label_to_utf16(bad[i], out, F2FS_MAX_VOLUME_NAME);

		if (ret != -EINVAL)
			fprintf(stderr, "bad label %zu: %d\n", i, ret);
		CHECK_EQ_U64(ret, (uint64_t)-EINVAL);
	}
}

static void test_label_length(void)
{
	char label[4 * F2FS_MAX_VOLUME_NAME + 8];
	uint8_t out[F2FS_MAX_VOLUME_NAME * 2];
	size_t i;

	memset(label, 'x', F2FS_MAX_VOLUME_NAME);
	label[F2FS_MAX_VOLUME_NAME] = 0;
	CHECK_EQ_U64(f2fs_label_to_utf16(label, out, F2FS_MAX_VOLUME_NAME), 512);
	CHECK_EQ_U64(unit_at(out, 511), 'x');

	memset(label, 'x', F2FS_MAX_VOLUME_NAME + 1);
	label[F2FS_MAX_VOLUME_NAME + 1] = 0;
	CHECK_EQ_U64(f2fs_label_to_utf16(label, out, F2FS_MAX_VOLUME_NAME),
		     (uint64_t)-ENAMETOOLONG);

	/* 512 three-byte characters are 512 units */
	for (i = 0; i < F2FS_MAX_VOLUME_NAME; i++)
		memcpy(label + 3 * i, "\xe2\x82\xac", 3);
	label[3 * F2FS_MAX_VOLUME_NAME] = 0;
	CHECK_EQ_U64(f2fs_label_to_utf16(label, out, F2FS_MAX_VOLUME_NAME), 512);
	CHECK_EQ_U64(unit_at(out, 511), 0x20ac);

	/* 511 units and a surrogate pair do not fit; 510 and a pair do */
	memset(label, 'x', 511);
	memcpy(label + 511, "\xf0\x9f\x98\x80", 5);
	CHECK_EQ_U64(f2fs_label_to_utf16(label, out, F2FS_MAX_VOLUME_NAME),
		     (uint64_t)-ENAMETOOLONG);
	memset(label, 'x', 510);
	memcpy(label + 510, "\xf0\x9f\x98\x80", 5);
	CHECK_EQ_U64(f2fs_label_to_utf16(label, out, F2FS_MAX_VOLUME_NAME), 512);
	CHECK_EQ_U64(unit_at(out, 510), 0xd83d);
	CHECK_EQ_U64(unit_at(out, 511), 0xde00);

	/* a small @max is honoured and nothing past it is written */
	memset(out, 0xee, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("abcd", out, 4), 4);
	CHECK_EQ_U64(out[8], 0xee);
	CHECK_EQ_U64(f2fs_label_to_utf16("abcde", out, 4), (uint64_t)-ENAMETOOLONG);
	CHECK_EQ_U64(out[8], 0xee);
	memset(out, 0xee, sizeof(out));
	CHECK_EQ_U64(f2fs_label_to_utf16("ab", out, 4), 2);
	CHECK(zero_from(out, 2, 4));
	CHECK_EQ_U64(out[8], 0xee);
}

/* ---- extensions ---- */

struct warn_log {
	unsigned int calls;
	char names[8][64];
};

static void record_warn(const char *ext, void *arg)
{
	struct warn_log *log = arg;

	if (log->calls < 8)
		snprintf(log->names[log->calls], sizeof(log->names[0]), "%s", ext);
	log->calls++;
}

static bool ext_is(const struct f2fs_super_block *sb, unsigned int idx, const char *name)
{
	size_t len = strlen(name);

	if (len > F2FS_EXTENSION_LEN)
		return false;
	if (memcmp(sb->extension_list[idx], name, len))
		return false;
	while (len < F2FS_EXTENSION_LEN)
		if (sb->extension_list[idx][len++])
			return false;
	return true;
}

static bool slots_empty_from(const struct f2fs_super_block *sb, unsigned int idx)
{
	unsigned int i, j;

	for (i = idx; i < F2FS_MAX_EXTENSION; i++)
		for (j = 0; j < F2FS_EXTENSION_LEN; j++)
			if (sb->extension_list[i][j])
				return false;
	return true;
}

static struct f2fs_super_block *new_sb(void)
{
	struct f2fs_super_block *sb = malloc(sizeof(*sb));

	if (sb)
		memset(sb, 0x5c, sizeof(*sb)); /* garbage the call must clear */
	return sb;
}

static void test_extensions_defaults(void)
{
	struct f2fs_super_block *sb = new_sb();
	struct warn_log log = {0};

	CHECK(sb != NULL);
	if (!sb)
		return;
	f2fs_super_set_extensions(sb, NULL, NULL, record_warn, &log);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD);
	CHECK_EQ_U64(sb->hot_ext_count, DEFAULT_HOT);
	CHECK(ext_is(sb, 0, "mp"));
	CHECK(ext_is(sb, 4, "avi"));
	CHECK(ext_is(sb, DEFAULT_COLD - 1, "so"));
	CHECK(ext_is(sb, DEFAULT_COLD, "db"));
	CHECK(ext_is(sb, DEFAULT_COLD + 3, "qcow2"));
	CHECK(slots_empty_from(sb, DEFAULT_COLD + DEFAULT_HOT));
	CHECK_EQ_U64(log.calls, 0);

	/* empty lists are the same as none */
	f2fs_super_set_extensions(sb, "", ",, ", NULL, NULL);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD);
	CHECK_EQ_U64(sb->hot_ext_count, DEFAULT_HOT);
	free(sb);
}

static void test_extensions_user(void)
{
	struct f2fs_super_block *sb = new_sb();
	struct warn_log log = {0};

	CHECK(sb != NULL);
	if (!sb)
		return;
	f2fs_super_set_extensions(sb, "abc,defg hij", "sqlite,kv", record_warn, &log);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD + 3);
	CHECK_EQ_U64(sb->hot_ext_count, DEFAULT_HOT + 2);
	CHECK(ext_is(sb, DEFAULT_COLD - 1, "so"));
	CHECK(ext_is(sb, DEFAULT_COLD, "abc"));
	CHECK(ext_is(sb, DEFAULT_COLD + 1, "defg"));
	CHECK(ext_is(sb, DEFAULT_COLD + 2, "hij"));
	CHECK(ext_is(sb, DEFAULT_COLD + 3, "db"));
	CHECK(ext_is(sb, DEFAULT_COLD + 3 + 3, "qcow2"));
	CHECK(ext_is(sb, DEFAULT_COLD + 3 + DEFAULT_HOT, "sqlite"));
	CHECK(ext_is(sb, DEFAULT_COLD + 3 + DEFAULT_HOT + 1, "kv"));
	CHECK(slots_empty_from(sb, DEFAULT_COLD + 3 + DEFAULT_HOT + 2));
	CHECK_EQ_U64(log.calls, 0);
	free(sb);
}

static void test_extensions_duplicates(void)
{
	struct f2fs_super_block *sb = new_sb();

	CHECK(sb != NULL);
	if (!sb)
		return;
	/* "mp" and "so" are defaults; "abc" is repeated */
	f2fs_super_set_extensions(sb, "mp,abc,so,abc", "db,xyz,xyz", NULL, NULL);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD + 1);
	CHECK_EQ_U64(sb->hot_ext_count, DEFAULT_HOT + 1);
	CHECK(ext_is(sb, DEFAULT_COLD, "abc"));
	CHECK(ext_is(sb, DEFAULT_COLD + 1, "db"));
	CHECK(ext_is(sb, DEFAULT_COLD + 1 + DEFAULT_HOT, "xyz"));
	CHECK(slots_empty_from(sb, DEFAULT_COLD + 1 + DEFAULT_HOT + 1));
	/* a prefix of a default is a different extension */
	f2fs_super_set_extensions(sb, "m,s", NULL, NULL, NULL);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD + 2);
	CHECK(ext_is(sb, DEFAULT_COLD, "m"));
	CHECK(ext_is(sb, DEFAULT_COLD + 1, "s"));
	free(sb);
}

static void test_extensions_too_long(void)
{
	struct f2fs_super_block *sb = new_sb();
	struct warn_log log = {0};

	CHECK(sb != NULL);
	if (!sb)
		return;
	f2fs_super_set_extensions(sb, "1234567,12345678,abc", "muchtoolong", record_warn, &log);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD + 2);
	CHECK_EQ_U64(sb->hot_ext_count, DEFAULT_HOT);
	CHECK(ext_is(sb, DEFAULT_COLD, "1234567"));
	CHECK(ext_is(sb, DEFAULT_COLD + 1, "abc"));
	CHECK_EQ_U64(log.calls, 2);
	CHECK(!strcmp(log.names[0], "12345678"));
	CHECK(!strcmp(log.names[1], "muchtoolong"));
	/* no callback: skipped all the same */
	f2fs_super_set_extensions(sb, "12345678", NULL, NULL, NULL);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD);
	free(sb);
}

static void test_extensions_limit(void)
{
	struct f2fs_super_block *sb = new_sb();
	char list[64 * 8];
	size_t pos = 0;
	unsigned int i;

	CHECK(sb != NULL);
	if (!sb)
		return;
	/* 30 more hot names: 36 + 4 + 24 = 64, the rest dropped */
	for (i = 0; i < 30; i++)
		pos += (size_t)snprintf(list + pos, sizeof(list) - pos, "h%u,", i);
	f2fs_super_set_extensions(sb, NULL, list, NULL, NULL);
	CHECK_EQ_U64(le32_get(sb->extension_count), DEFAULT_COLD);
	CHECK_EQ_U64(sb->hot_ext_count, F2FS_MAX_EXTENSION - DEFAULT_COLD);
	CHECK(ext_is(sb, DEFAULT_COLD + DEFAULT_HOT, "h0"));
	CHECK(ext_is(sb, F2FS_MAX_EXTENSION - 1, "h23"));

	/* 40 more cold names fill the table: at most 64 in all */
	pos = 0;
	for (i = 0; i < 40; i++)
		pos += (size_t)snprintf(list + pos, sizeof(list) - pos, "c%u,", i);
	f2fs_super_set_extensions(sb, list, "hot1", NULL, NULL);
	CHECK(le32_get(sb->extension_count) + sb->hot_ext_count <= F2FS_MAX_EXTENSION);
	CHECK_EQ_U64(le32_get(sb->extension_count), F2FS_MAX_EXTENSION);
	CHECK(ext_is(sb, DEFAULT_COLD, "c0"));
	CHECK(ext_is(sb, F2FS_MAX_EXTENSION - 1, "c27"));
	for (i = 0; i < F2FS_MAX_EXTENSION; i++)
		CHECK(sb->extension_list[i][0] != 0);
	free(sb);
}

/* ---- checksum ---- */

static void test_super_seal(void)
{
	struct f2fs_super_block *sb = new_sb();
	uint32_t crc;

	CHECK(sb != NULL);
	if (!sb)
		return;
	sb->magic = le32_put(F2FS_SUPER_MAGIC);
	sb->feature = le32_put(F2FS_FEATURE_SB_CHKSUM | F2FS_FEATURE_EXTRA_ATTR);
	f2fs_super_seal(sb);
	CHECK_EQ_U64(le32_get(sb->checksum_offset), F2FS_SB_CHKSUM_OFFSET);
	crc = le32_get(sb->crc);
	CHECK_EQ_U64(crc, f2fs_block_crc(sb, F2FS_SB_CHKSUM_OFFSET));
	/* the crc field at byte 3068 */
	{
		uint32_t raw;

		memcpy(&raw, (uint8_t *)sb + F2FS_SB_CHKSUM_OFFSET, sizeof(raw));
		CHECK_EQ_U64(le32_get(raw), crc);
	}
	/* resealing is stable; a changed byte changes it */
	f2fs_super_seal(sb);
	CHECK_EQ_U64(le32_get(sb->crc), crc);
	sb->volume_name[3] ^= 1;
	f2fs_super_seal(sb);
	CHECK(le32_get(sb->crc) != crc);
	CHECK_EQ_U64(le32_get(sb->crc), f2fs_block_crc(sb, F2FS_SB_CHKSUM_OFFSET));

	/* without the feature: no checksum at all */
	sb->feature = le32_put(F2FS_FEATURE_EXTRA_ATTR);
	sb->crc = le32_put(0x12345678);
	sb->checksum_offset = le32_put(99);
	f2fs_super_seal(sb);
	CHECK_EQ_U64(sb->crc, 0);
	CHECK_EQ_U64(sb->checksum_offset, 0);
	free(sb);
}

static void test_super_set_layout(void)
{
	struct f2fs_super_block *sb = new_sb();
	struct f2fs_layout_params p = {
	    .total_sectors = (1ull << 30) / 512,
	    .sector_size = 512,
	    .segs_per_sec = 1,
	    .secs_per_zone = 1,
	};
	struct f2fs_layout l;
	char why[128];

	CHECK(sb != NULL);
	if (!sb)
		return;
	CHECK_EQ_U64(f2fs_layout_compute(&p, &l, why, sizeof(why)), 0);
	f2fs_super_set_layout(sb, &l);
	CHECK_EQ_U64(le32_get(sb->log_sectorsize), 9);
	CHECK_EQ_U64(le32_get(sb->log_sectors_per_block), 3);
	CHECK_EQ_U64(le32_get(sb->log_blocksize), 12);
	CHECK_EQ_U64(le32_get(sb->log_blocks_per_seg), 9);
	CHECK_EQ_U64(le32_get(sb->segs_per_sec), 1);
	CHECK_EQ_U64(le32_get(sb->secs_per_zone), 1);
	CHECK_EQ_U64(le64_get(sb->block_count), 262144);
	CHECK_EQ_U64(le32_get(sb->section_count), l.section_count);
	CHECK_EQ_U64(le32_get(sb->segment_count), l.segment_count);
	CHECK_EQ_U64(le32_get(sb->segment_count_ckpt), 2);
	CHECK_EQ_U64(le32_get(sb->segment_count_sit), l.segment_count_sit);
	CHECK_EQ_U64(le32_get(sb->segment_count_nat), l.segment_count_nat);
	CHECK_EQ_U64(le32_get(sb->segment_count_ssa), l.segment_count_ssa);
	CHECK_EQ_U64(le32_get(sb->segment_count_main), l.segment_count_main);
	CHECK_EQ_U64(le32_get(sb->segment0_blkaddr), l.segment0_blkaddr);
	CHECK_EQ_U64(le32_get(sb->cp_blkaddr), l.cp_blkaddr);
	CHECK_EQ_U64(le32_get(sb->sit_blkaddr), l.sit_blkaddr);
	CHECK_EQ_U64(le32_get(sb->nat_blkaddr), l.nat_blkaddr);
	CHECK_EQ_U64(le32_get(sb->ssa_blkaddr), l.ssa_blkaddr);
	CHECK_EQ_U64(le32_get(sb->main_blkaddr), l.main_blkaddr);
	CHECK_EQ_U64(le32_get(sb->cp_payload), l.cp_payload);
	/* other fields untouched */
	CHECK_EQ_U64(sb->magic, 0x5c5c5c5cu);
	CHECK_EQ_U64(sb->uuid[0], 0x5c);
	free(sb);
}

int main(void)
{
	RUN(test_label_ascii);
	RUN(test_label_multibyte);
	RUN(test_label_invalid);
	RUN(test_label_length);
	RUN(test_extensions_defaults);
	RUN(test_extensions_user);
	RUN(test_extensions_duplicates);
	RUN(test_extensions_too_long);
	RUN(test_extensions_limit);
	RUN(test_super_seal);
	RUN(test_super_set_layout);
	TEST_EXIT();
}
