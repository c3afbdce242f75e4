// SPDX-License-Identifier: GPL-2.0
/*
 * Directory entry areas (a dentry block, or an inode's inline area): a
 * bitmap of used slots, entries, and 8-byte name slots; and the
 * multi-level hash table that places dentry blocks in a directory.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"

int f2fs_dentry_area_put(struct f2fs_dentry_area *a, unsigned int slot, const char *name,
			 size_t len, uint32_t hash, uint32_t ino, uint8_t file_type)
{
	unsigned int i, slots = f2fs_name_slots(len);

	if (len == 0 || len > F2FS_NAME_LEN || slot + slots > a->nr)
		return -ENOSPC;
	a->dentry[slot].hash_code = le32_put(hash);
	a->dentry[slot].ino = le32_put(ino);
	a->dentry[slot].name_len = le16_put((uint16_t)len);
	a->dentry[slot].file_type = file_type;
	memcpy(a->names + (size_t)slot * F2FS_SLOT_LEN, name, len);
	for (i = 0; i < slots; i++)
		f2fs_set_bit_lsb(a->bitmap, slot + i);
	return 0;
}

unsigned int f2fs_dentry_area_room(const struct f2fs_dentry_area *a, unsigned int slots)
{
	unsigned int i, run = 0;

	for (i = 0; i < a->nr; i++) {
		if (f2fs_test_bit_lsb(a->bitmap, i)) {
			run = 0;
			continue;
		}
		if (++run == slots)
			return i + 1 - slots;
	}
	return a->nr;
}

void f2fs_dentry_area_clear(struct f2fs_dentry_area *a, unsigned int slot, unsigned int slots)
{
	unsigned int i;

	for (i = 0; i < slots && slot + i < a->nr; i++)
		f2fs_clear_bit_lsb(a->bitmap, slot + i);
}

int f2fs_dentry_put(struct f2fs_dentry_block *blk, unsigned int slot, const char *name, size_t len,
		    uint32_t ino, uint8_t file_type)
{
	struct f2fs_dentry_area a;

	f2fs_dentry_block_area(f2fs_blkgeo_4k(), blk, &a);
	return f2fs_dentry_area_put(&a, slot, name, len,
				    f2fs_dentry_hash((const unsigned char *)name, len), ino,
				    file_type);
}

#define MAX_DIR_BUCKETS (1ull << ((F2FS_MAX_DIR_HASH_DEPTH / 2) - 1))

uint64_t f2fs_dir_buckets(unsigned int level, unsigned int dir_level)
{
	return level + dir_level < F2FS_MAX_DIR_HASH_DEPTH / 2 ? 1ull << (level + dir_level)
							       : MAX_DIR_BUCKETS;
}

unsigned int f2fs_dir_bucket_blocks(unsigned int level)
{
	return level < F2FS_MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

uint64_t f2fs_dir_block_index(unsigned int level, unsigned int dir_level, uint64_t bucket)
{
	uint64_t start = 0;
	unsigned int i;

	for (i = 0; i < level; i++)
		start += f2fs_dir_buckets(i, dir_level) * f2fs_dir_bucket_blocks(i);
	return start + bucket * f2fs_dir_bucket_blocks(level);
}

bool f2fs_dir_block_bucket(uint64_t fblk, unsigned int dir_level, uint64_t *bucket,
			   uint64_t *nbuckets, unsigned int *level_out)
{
	uint64_t start = 0;
	unsigned int level;

	for (level = 0; level < F2FS_MAX_DIR_HASH_DEPTH; level++) {
		uint64_t nb = f2fs_dir_buckets(level, dir_level);
		uint64_t span = nb * f2fs_dir_bucket_blocks(level);

		if (fblk < start + span) {
			*bucket = (fblk - start) / f2fs_dir_bucket_blocks(level);
			*nbuckets = nb;
			if (level_out)
				*level_out = level;
			return true;
		}
		start += span;
	}
	return false;
}

void f2fs_dentry_block_area(const struct f2fs_blkgeo *g, struct f2fs_dentry_block *blk,
			    struct f2fs_dentry_area *a)
{
	a->bitmap = (uint8_t *)blk;
	a->dentry = (struct f2fs_dir_entry *)(a->bitmap + g->dentry_bitmap + g->dentry_reserved);
	a->names = (uint8_t *)(a->dentry + g->dentry_slots);
	a->nr = g->dentry_slots;
}

int f2fs_inline_dentry_area(const struct f2fs_blkgeo *bg, struct f2fs_inode *ri, uint32_t features,
			    struct f2fs_dentry_area *a)
{
	struct f2fs_inline_dentry_geo g;
	uint8_t *area;

	/* i_extra_isize must leave room for the reserved word and the area */
	if (f2fs_inode_first_addr(ri) + 1 >= bg->addrs_per_inode)
		return -EUCLEAN;
	/* f2fs_inline_data_bytes() ends the area before i_nid[] and any inline xattrs */
	f2fs_inline_dentry_geometry(f2fs_inline_data_bytes(bg, ri, features), &g);
	area = (uint8_t *)f2fs_inline_data(ri);
	a->bitmap = area;
	a->dentry = (struct f2fs_dir_entry *)(area + g.bitmap_size + g.reserved);
	a->names = (uint8_t *)a->dentry + (size_t)g.nr * F2FS_DIR_ENTRY_SIZE;
	a->nr = g.nr;
	return 0;
}
