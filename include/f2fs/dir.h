/* SPDX-License-Identifier: GPL-2.0 */
/* Directory entry blocks. */
#ifndef F2FS_DIR_H
#define F2FS_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/blkgeo.h"
#include "f2fs/format.h"

/* Slots a name of @len bytes takes. */
static inline unsigned int f2fs_name_slots(size_t len)
{
	return (unsigned int)((len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN);
}

/*
 * One area of dentry slots: a dentry block's, or an inode's inline dentry
 * area.  Slot @i has dentry[i] and the name bytes at names + i * 8; bitmap
 * bit @i (from the least significant bit) says whether it is in use.  This
 * is the one description of where those parts lie.
 */
/* A directory's inline area, where a file block number of its entries is asked for. */
#define F2FS_DENTRY_INLINE UINT64_MAX

struct f2fs_dentry_area {
	uint8_t *bitmap;
	struct f2fs_dir_entry *dentry;
	uint8_t *names;
	unsigned int nr; /* slots */
};

/* The area of a dentry block of the block size @g. */
void f2fs_dentry_block_area(const struct f2fs_blkgeo *g, struct f2fs_dentry_block *blk,
			    struct f2fs_dentry_area *a);

/*
 * The inline dentry area of inode @ri (F2FS_INLINE_DENTRY set), given the
 * volume's @features.  Returns 0, or -EUCLEAN when i_extra_isize leaves no
 * room inside i_addr[] for the area to start; an inline xattr size that
 * uses up the rest gives an empty area (nr == 0).
 */
int f2fs_inline_dentry_area(const struct f2fs_blkgeo *g, struct f2fs_inode *ri, uint32_t features,
			    struct f2fs_dentry_area *a);

/* The name of slot @slot of @a. */
static inline const uint8_t *f2fs_dentry_name(const struct f2fs_dentry_area *a, unsigned int slot)
{
	return a->names + (size_t)slot * F2FS_SLOT_LEN;
}

/*
 * The multi-level hash table of a directory, as the kernel lays it out in
 * file blocks: level L has f2fs_dir_buckets(L, i_dir_level) buckets of
 * f2fs_dir_bucket_blocks(L) blocks each, levels one after another; a name
 * of hash H lives in bucket H % buckets of some level below
 * i_current_depth.  The one description, for the writer and the checker.
 */
#define F2FS_MAX_DIR_HASH_DEPTH 63
uint64_t f2fs_dir_buckets(unsigned int level, unsigned int dir_level);
unsigned int f2fs_dir_bucket_blocks(unsigned int level);
/* First file block of bucket @bucket of level @level. */
uint64_t f2fs_dir_block_index(unsigned int level, unsigned int dir_level, uint64_t bucket);
/*
 * The bucket (and the level's bucket count, and with @level not NULL the
 * level) file block @fblk serves; false past the last level.
 */
bool f2fs_dir_block_bucket(uint64_t fblk, unsigned int dir_level, uint64_t *bucket,
			   uint64_t *nbuckets, unsigned int *level);

/* Store an entry with hash @hash at @slot of @a (-ENOSPC when it does not fit from there). */
int f2fs_dentry_area_put(struct f2fs_dentry_area *a, unsigned int slot, const char *name,
			 size_t len, uint32_t hash, uint32_t ino, uint8_t file_type);
/* The first run of @slots free slots of @a, or a->nr when there is none. */
unsigned int f2fs_dentry_area_room(const struct f2fs_dentry_area *a, unsigned int slots);
/* Clear the bitmap bits of @slots slots from @slot (the entry's bytes stay). */
void f2fs_dentry_area_clear(struct f2fs_dentry_area *a, unsigned int slot, unsigned int slots);

/*
 * Store an entry at @slot of a 4 KiB dentry block: hash, inode, type, the name
 * across its slots and the bitmap bits.  The caller picks a free slot run;
 * returns -ENOSPC when the name does not fit from @slot.
 */
int f2fs_dentry_put(struct f2fs_dentry_block *blk, unsigned int slot, const char *name, size_t len,
		    uint32_t ino, uint8_t file_type);

#endif
