// SPDX-License-Identifier: GPL-2.0
/* Directory entry blocks: a bitmap of used slots, entries, and 8-byte name slots. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"

int f2fs_dentry_put(struct f2fs_dentry_block *blk, unsigned int slot, const char *name, size_t len,
		    uint32_t ino, uint8_t file_type)
{
	unsigned int i, slots = f2fs_name_slots(len);

	if (len == 0 || len > F2FS_NAME_LEN || slot + slots > F2FS_NR_DENTRY_IN_BLOCK)
		return -ENOSPC;
	blk->dentry[slot].hash_code = le32_put(f2fs_dentry_hash((const unsigned char *)name, len));
	blk->dentry[slot].ino = le32_put(ino);
	blk->dentry[slot].name_len = le16_put((uint16_t)len);
	blk->dentry[slot].file_type = file_type;
	memcpy((uint8_t *)blk->filename + (size_t)slot * F2FS_SLOT_LEN, name, len);
	for (i = 0; i < slots; i++)
		f2fs_set_bit_lsb(blk->dentry_bitmap, slot + i);
	return 0;
}
