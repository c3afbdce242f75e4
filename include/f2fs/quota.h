/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Quota files and the usage they record.  A volume with the quota_ino
 * feature keeps one hidden regular file per quota type (user, group,
 * project: the superblock's qf_ino[]), in the kernel's QFMT_VFS_V1 format:
 * 1 KiB blocks; block 0 holds the magic, the version and the grace times;
 * a four-level radix tree keyed by the id's bytes starts at block 1 and
 * leads to data blocks of 14 records (usage, limits, grace deadlines).
 * The kernel charges every inode but the quota files themselves: one inode
 * and (i_blocks - 1) * 4096 bytes to its uid, gid and project id.
 *
 * A struct f2fs_quota_set is a list of records sorted by id; this file
 * decodes a quota file into one, encodes one into a file, and says what an
 * inode is charged.  Nothing here reads a device.
 */
#ifndef F2FS_QUOTA_H
#define F2FS_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"

enum f2fs_quota_type { F2FS_USRQUOTA, F2FS_GRPQUOTA, F2FS_PRJQUOTA };

#define F2FS_QUOTA_BLOCK       1024u /* the tree's block size */
#define F2FS_QUOTA_TREE_DEPTH  4u
#define F2FS_QUOTA_DATA_HEADER 16u /* next free, previous free, entries, padding */
#define F2FS_QUOTA_PER_BLOCK   ((F2FS_QUOTA_BLOCK - F2FS_QUOTA_DATA_HEADER) / 72u)
#define F2FS_QUOTA_MAX_BLOCKS  (1u << 16) /* refused past 64 MiB: about 900,000 ids */

/* One id's record: usage, limits as stored (1 KiB units for space), deadlines. */
struct f2fs_dquot {
	uint32_t id;
	uint64_t inodes, space; /* space in bytes */
	uint64_t ihard, isoft, bhard, bsoft, btime, itime;
};

struct f2fs_quota_set {
	struct f2fs_dquot *q; /* sorted by id */
	size_t n, cap;
	uint32_t bgrace, igrace, flags; /* the file's info block */
};

/* "user", "group", "project". */
const char *f2fs_quota_type_name(unsigned int type);

/* An empty set with the kernel's default grace times. */
void f2fs_quota_set_init(struct f2fs_quota_set *s);
void f2fs_quota_set_free(struct f2fs_quota_set *s);

/* The record of @id, or NULL. */
const struct f2fs_dquot *f2fs_quota_find(const struct f2fs_quota_set *s, uint32_t id);

/* The record of @id, added (zeroed) when missing; NULL when memory runs out. */
struct f2fs_dquot *f2fs_quota_get(struct f2fs_quota_set *s, uint32_t id);

/*
 * Add @inodes and @space to @id's usage (either may be negative: the sums
 * are kept modulo 2^64, so a set may hold pending changes).  -ENOMEM.
 */
int f2fs_quota_charge(struct f2fs_quota_set *s, uint32_t id, int64_t inodes, int64_t space);

/*
 * Decode quota file @buf (@len bytes) of @type into @out (initialised
 * here).  -EUCLEAN with one line in @why when the file is not a quota file
 * of that type, a pointer leaves the file, a block is reached twice, or an
 * id sits under a tree path that does not select it; @out is then empty.
 * An empty file (len 0) decodes to an empty set.
 */
int f2fs_quota_decode(const uint8_t *buf, size_t len, unsigned int type, struct f2fs_quota_set *out,
		      char *why, size_t whylen);

/*
 * Encode @s as a quota file of @type into *@buf (malloc'd, *@len bytes, a
 * multiple of F2FS_QUOTA_BLOCK).  Records with no usage and no limits are
 * left out, as the kernel deletes them.  -ENOMEM.
 */
int f2fs_quota_encode(const struct f2fs_quota_set *s, unsigned int type, uint8_t **buf,
		      size_t *len);

/*
 * Does @have record the usage @want counts?  Ids with usage in either must
 * agree; on a difference *@id is the first id that differs.
 */
bool f2fs_quota_usage_equal(const struct f2fs_quota_set *have, const struct f2fs_quota_set *want,
			    uint32_t *id);

/* Copy @from's usage into @to (limits and deadlines stay @to's); -ENOMEM. */
int f2fs_quota_take_usage(struct f2fs_quota_set *to, const struct f2fs_quota_set *from);

/* The id inode @ri is charged to for @type on a volume with @features. */
uint32_t f2fs_inode_quota_id(const struct f2fs_inode *ri, unsigned int type, uint32_t features);

/* The bytes the kernel charges for @ri: every block but the inode's own. */
uint64_t f2fs_inode_quota_space(const struct f2fs_inode *ri);

/* Is @ino one of the quota files the superblock names (not charged: the kernel's S_NOQUOTA)? */
bool f2fs_is_quota_ino(const struct f2fs_super_block *sb, uint32_t ino);

/* The quota types whose file the superblock names (bit per type). */
unsigned int f2fs_quota_types(const struct f2fs_super_block *sb);

#endif
