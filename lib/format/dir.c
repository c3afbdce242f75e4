// SPDX-License-Identifier: GPL-2.0
/* Directory entry blocks: a bitmap of used slots, entries, and 8-byte name slots. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"

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

void f2fs_dentry_block_area(struct f2fs_dentry_block *blk, struct f2fs_dentry_area *a)
{
	a->bitmap = blk->dentry_bitmap;
	a->dentry = blk->dentry;
	a->names = (uint8_t *)blk->filename;
	a->nr = F2FS_NR_DENTRY_IN_BLOCK;
}

int f2fs_inline_dentry_area(struct f2fs_inode *ri, uint32_t features, struct f2fs_dentry_area *a)
{
	struct f2fs_inline_dentry_geo g;
	uint8_t *area;

	/* i_extra_isize must leave room for the reserved word and the area */
	if (f2fs_inode_first_addr(ri) + 1 >= F2FS_DEF_ADDRS_PER_INODE)
		return -EUCLEAN;
	/* f2fs_inline_data_bytes() ends the area before i_nid[] and any inline xattrs */
	f2fs_inline_dentry_geometry(f2fs_inline_data_bytes(ri, features), &g);
	area = (uint8_t *)f2fs_inline_data(ri);
	a->bitmap = area;
	a->dentry = (struct f2fs_dir_entry *)(area + g.bitmap_size + g.reserved);
	a->names = (uint8_t *)a->dentry + (size_t)g.nr * F2FS_DIR_ENTRY_SIZE;
	a->nr = g.nr;
	return 0;
}
