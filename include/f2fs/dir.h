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
 * Store an entry at @slot of a dentry block: hash, inode, type, the name
 * across its slots and the bitmap bits.  The caller picks a free slot run;
 * returns -ENOSPC when the name does not fit from @slot.
 */
int f2fs_dentry_put(struct f2fs_dentry_block *blk, unsigned int slot, const char *name, size_t len,
		    uint32_t ino, uint8_t file_type);

#endif
