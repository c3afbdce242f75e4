/* SPDX-License-Identifier: GPL-2.0 */
/* Directory entry blocks. */
#ifndef F2FS_DIR_H
#define F2FS_DIR_H

#include <stddef.h>
#include <stdint.h>

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
struct f2fs_dentry_area {
	uint8_t *bitmap;
	struct f2fs_dir_entry *dentry;
	uint8_t *names;
	unsigned int nr; /* slots */
};

/* The area of a dentry block. */
void f2fs_dentry_block_area(struct f2fs_dentry_block *blk, struct f2fs_dentry_area *a);

/*
 * The inline dentry area of inode @ri (F2FS_INLINE_DENTRY set), given the
 * volume's @features.  Returns 0, or -EUCLEAN when i_extra_isize leaves no
 * room inside i_addr[] for the area to start; an inline xattr size that
 * uses up the rest gives an empty area (nr == 0).
 */
int f2fs_inline_dentry_area(struct f2fs_inode *ri, uint32_t features, struct f2fs_dentry_area *a);

/* The name of slot @slot of @a. */
static inline const uint8_t *f2fs_dentry_name(const struct f2fs_dentry_area *a, unsigned int slot)
{
	return a->names + (size_t)slot * F2FS_SLOT_LEN;
}

/*
 * Store an entry at @slot of a dentry block: hash, inode, type, the name
 * across its slots and the bitmap bits.  The caller picks a free slot run;
 * returns -ENOSPC when the name does not fit from @slot.
 */
int f2fs_dentry_put(struct f2fs_dentry_block *blk, unsigned int slot, const char *name, size_t len,
		    uint32_t ino, uint8_t file_type);

#endif
