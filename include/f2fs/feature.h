/* SPDX-License-Identifier: GPL-2.0 */
/* Superblock feature names, as mkfs -O and dump print them. */
#ifndef F2FS_FEATURE_H
#define F2FS_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Parse a comma-separated -O list into @features (bits are added).
 * Returns 0, or -EINVAL with "unknown feature: X", "feature X is not
 * supported yet", or "empty feature ..." (an empty list or an empty name
 * between commas) in @why.
 */
int f2fs_feature_parse(const char *list, uint32_t *features, char *why, size_t why_len);

/*
 * As f2fs_feature_parse, but any feature the table knows is taken, also
 * one this implementation cannot create (fsck -O names features to turn
 * on; whether a feature may be turned on is f2fs_feature_settable_later's).
 */
int f2fs_feature_parse_known(const char *list, uint32_t *features, char *why, size_t why_len);

/* May feature @bit be turned on after mkfs (by the superblock alone)? */
bool f2fs_feature_settable_later(uint32_t bit);

/* The name of a single feature bit, or NULL. */
const char *f2fs_feature_name(uint32_t bit);

/*
 * Parse a casefolding spec, "encoding[:flag,...]" (mkfs and fsck -C): the
 * only encoding is utf8, the only flag strict.  Returns 0 with the on-disk
 * values, or -EINVAL with "unknown casefolding encoding: 'X' (supported:
 * utf8)" or "unknown casefolding flag: 'X' (supported: strict)" in @why.
 */
int f2fs_casefold_parse(const char *spec, uint16_t *encoding, uint16_t *flags, char *why,
			size_t why_len);

/* Check the dependencies between features; -EINVAL with the reason in @why. */
int f2fs_feature_check(uint32_t features, char *why, size_t why_len);

#endif
