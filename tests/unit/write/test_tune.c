// SPDX-License-Identifier: GPL-2.0
/*
 * Tuning (lib/write/tune.c): the plan on a bare superblock -- which
 * features may be turned on, casefold's encoding, the linear-lookup flag,
 * what counts as a change -- and the plan committed on an in-memory
 * image, where a refused request must leave every byte as it was.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/write.h"
#include "fixture.h"
#include "test.h"

static struct f2fs_super_block sb_with(uint32_t features, uint16_t enc, uint16_t flags)
{
	struct f2fs_super_block sb;

	memset(&sb, 0, sizeof(sb));
	sb.feature = le32_put(features);
	sb.s_encoding = le16_put(enc);
	sb.s_encoding_flags = le16_put(flags);
	return sb;
}

static int plan(const struct f2fs_super_block *sb, const struct f2fs_tune *t,
		struct f2fs_super_block *out, unsigned int *changes)
{
	char why[200] = "";

	return f2fs_tune_plan(sb, t, out, changes, why, sizeof(why));
}

static void test_encrypt(void)
{
	struct f2fs_super_block sb = sb_with(F2FS_FEATURE_EXTRA_ATTR, 0, 0), out;
	struct f2fs_tune t = {.features = F2FS_FEATURE_ENCRYPT};
	unsigned int changes;

	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_ENCRYPT);
	CHECK_EQ_U64(le32_get(out.feature), F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_ENCRYPT);
	/* already on: no change */
	CHECK_EQ_U64(plan(&out, &t, &sb, &changes), 0);
	CHECK_EQ_U64(changes, 0);
}

static void test_casefold(void)
{
	struct f2fs_super_block sb = sb_with(0, 0, 0), out;
	struct f2fs_tune t = {.encoding_set = true,
			      .encoding = F2FS_ENC_UTF8_12_1,
			      .encoding_flags = F2FS_ENC_STRICT_MODE_FL};
	unsigned int changes;

	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_CASEFOLD);
	CHECK_EQ_U64(le32_get(out.feature), F2FS_FEATURE_CASEFOLD);
	CHECK_EQ_U64(le16_get(out.s_encoding), F2FS_ENC_UTF8_12_1);
	CHECK_EQ_U64(le16_get(out.s_encoding_flags), F2FS_ENC_STRICT_MODE_FL);
	/* -C again on a casefold volume: the encoding stays */
	t.encoding_flags = 0;
	CHECK_EQ_U64(plan(&out, &t, &sb, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_CASEFOLD_KEPT);
	CHECK_EQ_U64(le16_get(sb.s_encoding_flags), F2FS_ENC_STRICT_MODE_FL);
}

static void test_refused(void)
{
	struct f2fs_super_block sb = sb_with(0, 0, 0), out;
	struct f2fs_tune t = {.features = F2FS_FEATURE_VERITY};
	unsigned int changes;

	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), -EINVAL);
	/* casefold without an encoding */
	t.features = F2FS_FEATURE_CASEFOLD;
	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), -EINVAL);
	/* a feature already on is no change, settable later or not */
	sb = sb_with(F2FS_FEATURE_VERITY | F2FS_FEATURE_CASEFOLD, 1, 0);
	t.features = F2FS_FEATURE_VERITY | F2FS_FEATURE_CASEFOLD;
	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), 0);
	CHECK_EQ_U64(changes, 0);
	/* nothing is turned on on a read-only volume */
	sb = sb_with(F2FS_FEATURE_RO, 0, 0);
	t.features = F2FS_FEATURE_ENCRYPT;
	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), -EINVAL);
	CHECK(f2fs_feature_settable_later(F2FS_FEATURE_ENCRYPT));
	CHECK(!f2fs_feature_settable_later(F2FS_FEATURE_EXTRA_ATTR));
}

static void test_linear_lookup(void)
{
	struct f2fs_super_block sb = sb_with(F2FS_FEATURE_CASEFOLD, 1, 0), out;
	struct f2fs_tune t = {.linear_lookup = F2FS_LINEAR_LOOKUP_DISABLE};
	unsigned int changes;

	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_LINEAR_LOOKUP);
	CHECK_EQ_U64(le16_get(out.s_encoding_flags), F2FS_ENC_NO_COMPAT_FALLBACK_FL);
	CHECK_EQ_U64(plan(&out, &t, &sb, &changes), 0);
	CHECK_EQ_U64(changes, 0);
	t.linear_lookup = F2FS_LINEAR_LOOKUP_ENABLE;
	CHECK_EQ_U64(plan(&out, &t, &sb, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_LINEAR_LOOKUP);
	CHECK_EQ_U64(le16_get(sb.s_encoding_flags), 0);
	/* without casefold the flag means nothing: reported, not set */
	sb = sb_with(0, 0, 0);
	t.linear_lookup = F2FS_LINEAR_LOOKUP_DISABLE;
	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_NO_CASEFOLD);
	CHECK_EQ_U64(le16_get(out.s_encoding_flags), 0);
	/* casefold turned on in the same request: the flag goes with it */
	t.encoding_set = true;
	t.encoding = F2FS_ENC_UTF8_12_1;
	CHECK_EQ_U64(plan(&sb, &t, &out, &changes), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_CASEFOLD | F2FS_TUNED_LINEAR_LOOKUP);
	CHECK_EQ_U64(le16_get(out.s_encoding_flags), F2FS_ENC_NO_COMPAT_FALLBACK_FL);
}

/* The superblock copy in block @blk of the image. */
static bool read_sb(struct fixture *fx, uint64_t blk, struct f2fs_super_block *sb)
{
	uint8_t buf[F2FS_BLKSIZE];

	if (!fixture_read_blk(fx, blk, buf))
		return false;
	memcpy(sb, buf + F2FS_SUPER_OFFSET, sizeof(*sb));
	return true;
}

static void test_on_image(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	struct f2fs_super_block before, after;
	struct f2fs_tune t = {.features = F2FS_FEATURE_COMPRESSION};
	unsigned int changes;
	char why[200];
	uint64_t blk;

	CHECK(fixture_format(&fx, 64ULL << 20, "extra_attr,sb_checksum", false));
	CHECK(fixture_fs_open(&fx, &fs));
	CHECK(read_sb(&fx, 0, &before));
	CHECK_EQ_U64(f2fs_tune_super(fs, &t, &changes, why, sizeof(why)), -EINVAL);
	CHECK(read_sb(&fx, 0, &after));
	CHECK(!memcmp(&before, &after, sizeof(before)));
	t = (struct f2fs_tune){
	    .features = F2FS_FEATURE_ENCRYPT, .encoding_set = true, .encoding = F2FS_ENC_UTF8_12_1};
	CHECK_EQ_U64(f2fs_tune_super(fs, &t, &changes, why, sizeof(why)), 0);
	CHECK_EQ_U64(changes, F2FS_TUNED_ENCRYPT | F2FS_TUNED_CASEFOLD);
	CHECK(f2fs_fs_features(fs) & F2FS_FEATURE_CASEFOLD);
	f2fs_fs_close(fs);
	for (blk = 0; blk < 2; blk++) {
		CHECK(read_sb(&fx, blk, &after));
		CHECK_EQ_U64(le32_get(after.feature), le32_get(before.feature) |
							  F2FS_FEATURE_ENCRYPT |
							  F2FS_FEATURE_CASEFOLD);
		CHECK_EQ_U64(le16_get(after.s_encoding), F2FS_ENC_UTF8_12_1);
	}
	/* the volume opens again: the checksum was sealed */
	CHECK(fixture_fs_open(&fx, &fs));
	CHECK(f2fs_fs_features(fs) & F2FS_FEATURE_ENCRYPT);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

int main(void)
{
	RUN(test_encrypt);
	RUN(test_casefold);
	RUN(test_refused);
	RUN(test_linear_lookup);
	RUN(test_on_image);
	TEST_EXIT();
}
