// SPDX-License-Identifier: GPL-2.0
/*
 * Tuning: features turned on after mkfs, and the casefold lookup flag
 * changed, as newest upstream's fsck does with -O, -C and
 * --nolinear-lookup.  Only features that live in the superblock alone may
 * be turned on (f2fs_feature_settable_later: encrypt, casefold); a request
 * is planned in full against the superblock first, so that a refused one
 * writes nothing, and a plan that changes something is committed through
 * the one superblock writer.  Unlike upstream, turning casefold on stores
 * the encoding and its flags as well: the kernel refuses to mount a
 * casefold volume whose superblock names no encoding it knows.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/super.h"
#include "write_internal.h"

/* Refuse a feature the request would turn on that may not be turned on later. */
static int check_settable(uint32_t turn_on, char *why, size_t why_len)
{
	uint32_t bit;

	for (bit = 1; bit; bit <<= 1) {
		const char *name = f2fs_feature_name(bit);

		if (!(turn_on & bit) || f2fs_feature_settable_later(bit))
			continue;
		if (name)
			snprintf(why, why_len,
				 "feature %s cannot be turned on after mkfs (only encrypt and "
				 "casefold can)",
				 name);
		else
			snprintf(why, why_len, "unknown feature bit 0x%x", bit);
		return -EINVAL;
	}
	return 0;
}

/* The casefold lookup flag of @sb as @t asks it, when casefold is on. */
static unsigned int tune_linear_lookup(struct f2fs_super_block *sb, const struct f2fs_tune *t)
{
	uint16_t flags = le16_get(sb->s_encoding_flags), want = flags;

	if (t->linear_lookup == F2FS_LINEAR_LOOKUP_KEEP)
		return 0;
	if (!(le32_get(sb->feature) & F2FS_FEATURE_CASEFOLD))
		return F2FS_TUNED_NO_CASEFOLD;
	if (t->linear_lookup == F2FS_LINEAR_LOOKUP_DISABLE)
		want |= F2FS_ENC_NO_COMPAT_FALLBACK_FL;
	else
		want &= (uint16_t)~F2FS_ENC_NO_COMPAT_FALLBACK_FL;
	if (want == flags)
		return 0;
	sb->s_encoding_flags = le16_put(want);
	return F2FS_TUNED_LINEAR_LOOKUP;
}

int f2fs_tune_plan(const struct f2fs_super_block *sb, const struct f2fs_tune *t,
		   struct f2fs_super_block *out, unsigned int *changes, char *why, size_t why_len)
{
	uint32_t has = le32_get(sb->feature);
	uint32_t want = t->features | (t->encoding_set ? F2FS_FEATURE_CASEFOLD : 0);
	uint32_t turn_on = want & ~has;
	int ret;

	*out = *sb;
	*changes = 0;
	if (turn_on && (has & F2FS_FEATURE_RO)) {
		snprintf(why, why_len,
			 "the volume has the ro feature: no feature can be turned on");
		return -EINVAL;
	}
	ret = check_settable(turn_on, why, why_len);
	if (ret)
		return ret;
	if ((turn_on & F2FS_FEATURE_CASEFOLD) && !t->encoding_set) {
		snprintf(why, why_len, "casefold needs an encoding: give it with -C utf8");
		return -EINVAL;
	}
	if (turn_on & F2FS_FEATURE_ENCRYPT)
		*changes |= F2FS_TUNED_ENCRYPT;
	if (turn_on & F2FS_FEATURE_CASEFOLD) {
		out->s_encoding = le16_put(t->encoding);
		out->s_encoding_flags = le16_put(t->encoding_flags);
		*changes |= F2FS_TUNED_CASEFOLD;
	} else if (t->encoding_set) {
		*changes |= F2FS_TUNED_CASEFOLD_KEPT;
	}
	out->feature = le32_put(has | turn_on);
	*changes |= tune_linear_lookup(out, t);
	return 0;
}

int f2fs_tune_super(struct f2fs_fs *fs, const struct f2fs_tune *t, unsigned int *changes, char *why,
		    size_t why_len)
{
	struct f2fs_super_block sb;
	int ret = f2fs_tune_plan(f2fs_fs_sb(fs), t, &sb, changes, why, why_len);

	if (ret)
		return ret;
	if (!(*changes & F2FS_TUNED_WRITES))
		return 0;
	ret = f2fs_write_super(fs, &sb);
	if (ret)
		snprintf(why, why_len, "cannot write the superblock: %s", strerror(-ret));
	return ret;
}
