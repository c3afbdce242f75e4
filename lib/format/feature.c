// SPDX-License-Identifier: GPL-2.0
/*
 * The feature table: names, bits, which of them this implementation can
 * create, and which may be turned on after mkfs.  A feature is listed as
 * creatable only once images made with it pass the kernel and both fscks;
 * as settable later only when turning it on changes nothing but the
 * superblock (no inode, no table to build), as newest upstream's fsck -O
 * allows: encrypt and casefold.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/feature.h"
#include "f2fs/format.h"

struct feature_entry {
	const char *name;
	uint32_t bit;
	bool creatable;
	bool later; /* may be turned on after mkfs */
};

static const struct feature_entry features_table[] = {
    {"encrypt", F2FS_FEATURE_ENCRYPT, true, true},
    {"extra_attr", F2FS_FEATURE_EXTRA_ATTR, true, false},
    {"project_quota", F2FS_FEATURE_PRJQUOTA, true, false},
    {"inode_checksum", F2FS_FEATURE_INODE_CHKSUM, true, false},
    {"flexible_inline_xattr", F2FS_FEATURE_FLEXIBLE_INLINE_XATTR, true, false},
    {"quota", F2FS_FEATURE_QUOTA_INO, true, false},
    {"inode_crtime", F2FS_FEATURE_INODE_CRTIME, true, false},
    {"lost_found", F2FS_FEATURE_LOST_FOUND, true, false},
    {"verity", F2FS_FEATURE_VERITY, true, false},
    {"sb_checksum", F2FS_FEATURE_SB_CHKSUM, true, false},
    {"casefold", F2FS_FEATURE_CASEFOLD, true, true},
    {"compression", F2FS_FEATURE_COMPRESSION, true, false},
    {"ro", F2FS_FEATURE_RO, true, false},
    {"packed_ssa", F2FS_FEATURE_PACKED_SSA, true, false},
    {"blkzoned", F2FS_FEATURE_BLKZONED, false, false},
    {"atomic_write", F2FS_FEATURE_ATOMIC_WRITE, false, false},
    {"device_alias", F2FS_FEATURE_DEVICE_ALIAS, false, false},
};

#define N_FEATURES (sizeof(features_table) / sizeof(features_table[0]))

static const struct feature_entry *find_by_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < N_FEATURES; i++)
		if (strlen(features_table[i].name) == len &&
		    !strncmp(features_table[i].name, name, len))
			return &features_table[i];
	return NULL;
}

const char *f2fs_feature_name(uint32_t bit)
{
	size_t i;

	for (i = 0; i < N_FEATURES; i++)
		if (features_table[i].bit == bit)
			return features_table[i].name;
	return NULL;
}

bool f2fs_feature_settable_later(uint32_t bit)
{
	size_t i;

	for (i = 0; i < N_FEATURES; i++)
		if (features_table[i].bit == bit)
			return features_table[i].later;
	return false;
}

static int parse_one(const char *tok, size_t len, bool creatable_only, uint32_t *features,
		     char *why, size_t why_len)
{
	const struct feature_entry *f = find_by_name(tok, len);

	if (!f) {
		snprintf(why, why_len, "unknown feature: %.*s", (int)len, tok);
		return -EINVAL;
	}
	if (creatable_only && !f->creatable) {
		snprintf(why, why_len, "feature %s is not supported yet", f->name);
		return -EINVAL;
	}
	*features |= f->bit;
	return 0;
}

static int parse_list(const char *list, bool creatable_only, uint32_t *features, char *why,
		      size_t why_len)
{
	const char *p = list;

	if (!*p) {
		snprintf(why, why_len, "empty feature list");
		return -EINVAL;
	}
	while (*p) {
		size_t len;
		int ret;

		while (*p == ' ')
			p++;
		len = strcspn(p, ", ");
		if (!len) {
			snprintf(why, why_len, "empty feature name in list: '%s'", list);
			return -EINVAL;
		}
		ret = parse_one(p, len, creatable_only, features, why, why_len);
		if (ret)
			return ret;
		p += len;
		while (*p == ' ')
			p++;
		if (*p == ',' && !*++p) {
			snprintf(why, why_len, "empty feature name in list: '%s'", list);
			return -EINVAL;
		}
	}
	return 0;
}

int f2fs_feature_parse(const char *list, uint32_t *features, char *why, size_t why_len)
{
	return parse_list(list, true, features, why, why_len);
}

int f2fs_feature_parse_known(const char *list, uint32_t *features, char *why, size_t why_len)
{
	return parse_list(list, false, features, why, why_len);
}

int f2fs_feature_check(uint32_t features, char *why, size_t why_len)
{
	static const uint32_t need_extra_attr[] = {
	    F2FS_FEATURE_PRJQUOTA,
	    F2FS_FEATURE_INODE_CHKSUM,
	    F2FS_FEATURE_FLEXIBLE_INLINE_XATTR,
	    F2FS_FEATURE_INODE_CRTIME,
	    F2FS_FEATURE_COMPRESSION,
	};
	size_t i;

	if (features & F2FS_FEATURE_EXTRA_ATTR)
		return 0;
	for (i = 0; i < sizeof(need_extra_attr) / sizeof(need_extra_attr[0]); i++) {
		if (features & need_extra_attr[i]) {
			snprintf(why, why_len, "%s feature requires the extra_attr feature",
				 f2fs_feature_name(need_extra_attr[i]));
			return -EINVAL;
		}
	}
	return 0;
}

int f2fs_casefold_parse(const char *spec, uint16_t *encoding, uint16_t *flags, char *why,
			size_t why_len)
{
	size_t name_len = strcspn(spec, ":");
	const char *f = spec[name_len] ? spec + name_len + 1 : NULL;

	if (name_len != 4 || strncmp(spec, "utf8", 4)) {
		snprintf(why, why_len, "unknown casefolding encoding: '%.*s' (supported: utf8)",
			 (int)name_len, spec);
		return -EINVAL;
	}
	*encoding = F2FS_ENC_UTF8_12_1;
	*flags = 0;
	while (f && *f) {
		size_t len = strcspn(f, ",");

		if (len == 6 && !strncmp(f, "strict", 6)) {
			*flags |= F2FS_ENC_STRICT_MODE_FL;
		} else {
			snprintf(why, why_len,
				 "unknown casefolding flag: '%.*s' (supported: strict)", (int)len,
				 f);
			return -EINVAL;
		}
		f += len + (f[len] == ',');
	}
	return 0;
}
