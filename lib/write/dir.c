// SPDX-License-Identifier: GPL-2.0
/*
 * Directory entries, as the kernel stores them: inline in the inode while
 * they fit (a new directory starts inline), else in dentry blocks placed by
 * the multi-level hash table (lib/format/dir.c): a name goes into the first
 * block of its hash's bucket with room, trying level 0 first and opening a
 * new level (i_current_depth) when every bucket on the way is full.  An
 * inline directory that fills up moves its entries into blocks by the same
 * rule.  A dentry block left empty by a removal is freed, as the kernel
 * punches it.  Names are bytes; casefolded and encrypted directories are
 * refused (their names need Unicode tables or keys).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

struct dent_pos {
	uint64_t block; /* file block, F2FS_DENTRY_INLINE for the inline area */
	unsigned int slot, slots;
	uint32_t ino;
	uint8_t type;
};

int wr_dir_refuse_special(const struct wr_node *dir)
{
	uint32_t flags = le32_get(dir->blk.i.i_flags);

	if (!wr_is_dir(dir))
		return -ENOTDIR;
	if (dir->blk.i.i_advise & F2FS_FADVISE_ENCRYPT)
		return -EOPNOTSUPP; /* the kernel marks encryption in i_advise */
	return flags & (F2FS_CASEFOLD_FL | F2FS_ENCRYPT_FL) ? -EOPNOTSUPP : 0;
}

static bool is_inline(const struct wr_node *dir)
{
	return dir->blk.i.i_inline & F2FS_INLINE_DENTRY;
}

/* Find @name (of @hash) in @a; the slot, or a->nr.  Damaged slots are skipped. */
static unsigned int find_in_area(const struct f2fs_dentry_area *a, uint32_t hash, const char *name,
				 size_t len)
{
	unsigned int i = 0;

	while (i < a->nr) {
		const struct f2fs_dir_entry *d = &a->dentry[i];
		unsigned int nlen, slots;

		if (!f2fs_test_bit_lsb(a->bitmap, i)) {
			i++;
			continue;
		}
		nlen = le16_get(d->name_len);
		slots = f2fs_name_slots(nlen);
		if (!nlen || i + slots > a->nr) {
			i++;
			continue;
		}
		if (le32_get(d->hash_code) == hash && nlen == len &&
		    !memcmp(f2fs_dentry_name(a, i), name, len))
			return i;
		i += slots;
	}
	return a->nr;
}

static int inline_area(struct f2fs_wr *w, struct wr_node *dir, struct f2fs_dentry_area *a)
{
	return f2fs_inline_dentry_area(wr_bg(w), &dir->blk.i, w->fs->features, a);
}

static uint32_t depth_of(const struct wr_node *dir)
{
	uint32_t d = le32_get(dir->blk.i.i_current_depth);

	return d > F2FS_MAX_DIR_HASH_DEPTH ? F2FS_MAX_DIR_HASH_DEPTH : d;
}

static uint64_t dir_blocks(const struct f2fs_wr *w, const struct wr_node *dir)
{
	return (le64_get(dir->blk.i.i_size) + wr_blksize(w) - 1) / wr_blksize(w);
}

static void take_pos(struct dent_pos *pos, const struct f2fs_dentry_area *a, uint64_t block,
		     unsigned int slot)
{
	pos->block = block;
	pos->slot = slot;
	pos->slots = f2fs_name_slots(le16_get(a->dentry[slot].name_len));
	pos->ino = le32_get(a->dentry[slot].ino);
	pos->type = a->dentry[slot].file_type;
}

static int find_entry(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len,
		      struct dent_pos *pos)
{
	uint32_t hash = f2fs_dentry_hash((const unsigned char *)name, len), level;
	unsigned int dir_level = dir->blk.i.i_dir_level;
	union wr_block blk;
	struct f2fs_dentry_area a;
	unsigned int slot;
	int ret;

	if (is_inline(dir)) {
		ret = inline_area(w, dir, &a);
		if (ret)
			return ret;
		slot = find_in_area(&a, hash, name, len);
		if (slot == a.nr)
			return -ENOENT;
		take_pos(pos, &a, F2FS_DENTRY_INLINE, slot);
		return 0;
	}
	for (level = 0; level < depth_of(dir); level++) {
		uint64_t nb = f2fs_dir_buckets(level, dir_level);
		uint64_t first = f2fs_dir_block_index(level, dir_level, hash % nb), b;

		for (b = first; b < first + f2fs_dir_bucket_blocks(level); b++) {
			if (b >= dir_blocks(w, dir))
				break;
			ret = wr_data_read_block(w, dir, b, blk.raw);
			if (ret)
				return ret;
			f2fs_dentry_block_area(wr_bg(w), &blk.dentry, &a);
			slot = find_in_area(&a, hash, name, len);
			if (slot < a.nr) {
				take_pos(pos, &a, b, slot);
				return 0;
			}
		}
	}
	return -ENOENT;
}

int wr_dir_lookup(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len,
		  uint32_t *ino, uint8_t *type)
{
	struct dent_pos pos;
	int ret = wr_dir_refuse_special(dir);

	if (!ret)
		ret = find_entry(w, dir, name, len, &pos);
	if (ret)
		return ret;
	*ino = pos.ino;
	if (type)
		*type = pos.type;
	return 0;
}

/* The area of file block @b of @dir as a dirty page. */
static int block_area(struct f2fs_wr *w, struct wr_node *dir, uint64_t b,
		      struct f2fs_dentry_area *a)
{
	uint8_t *page;
	int ret = wr_page_for_write(w, dir, b, &page);

	if (!ret)
		f2fs_dentry_block_area(wr_bg(w), (struct f2fs_dentry_block *)page, a);
	return ret;
}

static int add_to_blocks(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len,
			 uint32_t hash, uint32_t ino, uint8_t type)
{
	unsigned int dir_level = dir->blk.i.i_dir_level, slots = f2fs_name_slots(len);
	union wr_block blk;
	struct f2fs_dentry_area a;
	uint32_t level;
	int ret;

	for (level = 0; level < F2FS_MAX_DIR_HASH_DEPTH; level++) {
		uint64_t nb = f2fs_dir_buckets(level, dir_level);
		uint64_t first = f2fs_dir_block_index(level, dir_level, hash % nb), b;

		if (level == depth_of(dir)) {
			dir->blk.i.i_current_depth = le32_put(level + 1);
			wr_node_dirty(w, dir);
		}
		for (b = first; b < first + f2fs_dir_bucket_blocks(level); b++) {
			unsigned int slot;

			ret = wr_data_read_block(w, dir, b, blk.raw);
			if (ret)
				return ret;
			f2fs_dentry_block_area(wr_bg(w), &blk.dentry, &a);
			if (f2fs_dentry_area_room(&a, slots) == a.nr)
				continue;
			ret = block_area(w, dir, b, &a);
			if (ret)
				return ret;
			slot = f2fs_dentry_area_room(&a, slots);
			ret = f2fs_dentry_area_put(&a, slot, name, len, hash, ino, type);
			if (ret)
				return ret;
			if ((b + 1) * wr_blksize(w) > le64_get(dir->blk.i.i_size))
				dir->blk.i.i_size = le64_put((b + 1) * wr_blksize(w));
			wr_node_dirty(w, dir);
			return 0;
		}
	}
	return -ENOSPC;
}

struct saved_entry {
	char name[F2FS_NAME_LEN];
	size_t len;
	uint32_t hash, ino;
	uint8_t type;
};

/* Move an inline directory's entries into dentry blocks (f2fs_convert_inline_dir). */
static int convert_inline(struct f2fs_wr *w, struct wr_node *dir)
{
	struct f2fs_dentry_area a;
	struct saved_entry *saved;
	unsigned int i = 0, n = 0;
	int ret = inline_area(w, dir, &a);

	if (ret)
		return ret;
	saved = calloc(a.nr ? a.nr : 1, sizeof(*saved));
	if (!saved)
		return -ENOMEM;
	while (i < a.nr) {
		unsigned int nlen = le16_get(a.dentry[i].name_len);

		if (!f2fs_test_bit_lsb(a.bitmap, i) || !nlen || i + f2fs_name_slots(nlen) > a.nr) {
			i++;
			continue;
		}
		memcpy(saved[n].name, f2fs_dentry_name(&a, i), nlen);
		saved[n].len = nlen;
		saved[n].hash = le32_get(a.dentry[i].hash_code);
		saved[n].ino = le32_get(a.dentry[i].ino);
		saved[n].type = a.dentry[i].file_type;
		n++;
		i += f2fs_name_slots(nlen);
	}
	memset(a.bitmap, 0, (size_t)(a.names + (size_t)a.nr * F2FS_SLOT_LEN - a.bitmap));
	dir->blk.i.i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
	dir->blk.i.i_size = le64_put(0);
	dir->blk.i.i_current_depth = le32_put(1);
	for (i = 0, ret = 0; i < n && !ret; i++)
		ret = add_to_blocks(w, dir, saved[i].name, saved[i].len, saved[i].hash,
				    saved[i].ino, saved[i].type);
	if (!ret && le64_get(dir->blk.i.i_size) < wr_blksize(w))
		dir->blk.i.i_size = le64_put(wr_blksize(w));
	free(saved);
	wr_node_dirty(w, dir);
	return ret;
}

int wr_dir_add(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len, uint32_t ino,
	       uint8_t type)
{
	uint32_t hash = f2fs_dentry_hash((const unsigned char *)name, len);
	struct f2fs_dentry_area a;
	int ret = wr_dir_refuse_special(dir);

	if (ret)
		return ret;
	if (is_inline(dir)) {
		ret = inline_area(w, dir, &a);
		if (ret)
			return ret;
		if (f2fs_dentry_area_room(&a, f2fs_name_slots(len)) < a.nr) {
			ret = f2fs_dentry_area_put(&a,
						   f2fs_dentry_area_room(&a, f2fs_name_slots(len)),
						   name, len, hash, ino, type);
			wr_node_dirty(w, dir);
			return ret;
		}
		ret = convert_inline(w, dir);
		if (ret)
			return ret;
	}
	return add_to_blocks(w, dir, name, len, hash, ino, type);
}

/* Drop the cached page and the block of file block @b (an emptied dentry block). */
static int punch_block(struct f2fs_wr *w, struct wr_node *dir, uint64_t b)
{
	struct wr_inode *wi = wr_inode_find(w, dir->ino, false);
	struct wr_dnode dn;
	uint32_t addr;
	int ret;

	if (wi) {
		/* keep the pages after @b: drop only page @b */
		size_t i;

		for (i = 0; i < wi->npages; i++) {
			if (wi->pages[i].index != b)
				continue;
			wr_page_free(&w->inodes, wi->pages[i].data);
			memmove(&wi->pages[i], &wi->pages[i + 1],
				(wi->npages - i - 1) * sizeof(*wi->pages));
			wi->npages--;
			w->inodes.dirty_pages--;
			break;
		}
	}
	ret = wr_dnode_get(w, dir, b, false, &dn);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	addr = wr_dnode_addr(&dn);
	if (addr != F2FS_NULL_ADDR) {
		wr_invalidate(w, addr);
		wr_dnode_set_addr(w, &dn, F2FS_NULL_ADDR);
		wr_inode_add_blocks(w, dir, -1);
		wr_node_dirty(w, dir);
	}
	wr_dnode_put(&dn);
	return 0;
}

static bool area_empty(const struct f2fs_dentry_area *a)
{
	unsigned int i;

	for (i = 0; i < (a->nr + 7) / 8; i++)
		if (a->bitmap[i])
			return false;
	return true;
}

int wr_dir_area(struct f2fs_wr *w, struct wr_node *dir, uint64_t block, struct f2fs_dentry_area *a)
{
	int ret =
	    block == F2FS_DENTRY_INLINE ? inline_area(w, dir, a) : block_area(w, dir, block, a);

	if (!ret)
		wr_node_dirty(w, dir);
	return ret;
}

/* The area holding @pos, ready to change. */
static int area_at(struct f2fs_wr *w, struct wr_node *dir, const struct dent_pos *pos,
		   struct f2fs_dentry_area *a)
{
	return wr_dir_area(w, dir, pos->block, a);
}

/* Find @name in @dir and the area holding it, ready to change. */
static int locate(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len,
		  struct dent_pos *pos, struct f2fs_dentry_area *a)
{
	int ret = wr_dir_refuse_special(dir);

	if (!ret)
		ret = find_entry(w, dir, name, len, pos);
	return ret ? ret : area_at(w, dir, pos, a);
}

int wr_dir_remove(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len)
{
	struct f2fs_dentry_area a;
	struct dent_pos pos;
	int ret = locate(w, dir, name, len, &pos, &a);

	if (ret)
		return ret;
	f2fs_dentry_area_clear(&a, pos.slot, pos.slots);
	if (pos.block != F2FS_DENTRY_INLINE && area_empty(&a))
		return punch_block(w, dir, pos.block);
	return 0;
}

int wr_dir_set(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len, uint32_t ino,
	       uint8_t type)
{
	struct f2fs_dentry_area a;
	struct dent_pos pos;
	int ret = locate(w, dir, name, len, &pos, &a);

	if (ret)
		return ret;
	a.dentry[pos.slot].ino = le32_put(ino);
	a.dentry[pos.slot].file_type = type;
	return 0;
}

int wr_dir_init(struct f2fs_wr *w, struct wr_node *dir, uint32_t parent)
{
	struct f2fs_dentry_area a;
	int ret;

	if (is_inline(dir)) {
		ret = inline_area(w, dir, &a);
		if (ret)
			return ret;
		dir->blk.i.i_size =
		    le64_put(f2fs_inline_data_bytes(wr_bg(w), &dir->blk.i, w->fs->features));
	} else {
		ret = block_area(w, dir, 0, &a);
		if (ret)
			return ret;
		dir->blk.i.i_size = le64_put(wr_blksize(w));
	}
	ret = f2fs_dentry_area_put(&a, 0, ".", 1, 0, dir->ino, F2FS_FT_DIR);
	if (!ret)
		ret = f2fs_dentry_area_put(&a, 1, "..", 2, 0, parent, F2FS_FT_DIR);
	wr_node_dirty(w, dir);
	return ret;
}

static bool only_dots(const struct f2fs_dentry_area *a)
{
	unsigned int i = 0;

	while (i < a->nr) {
		unsigned int nlen = le16_get(a->dentry[i].name_len);
		const uint8_t *nm = f2fs_dentry_name(a, i);

		if (!f2fs_test_bit_lsb(a->bitmap, i) || !nlen) {
			i++;
			continue;
		}
		if (!(nlen == 1 && nm[0] == '.') && !(nlen == 2 && nm[0] == '.' && nm[1] == '.'))
			return false;
		i += f2fs_name_slots(nlen);
	}
	return true;
}

int wr_dir_is_empty(struct f2fs_wr *w, struct wr_node *dir)
{
	union wr_block blk;
	struct f2fs_dentry_area a;
	uint64_t b;
	int ret;

	if (is_inline(dir)) {
		ret = inline_area(w, dir, &a);
		return ret ? ret : only_dots(&a);
	}
	for (b = 0; b < dir_blocks(w, dir); b++) {
		ret = wr_data_read_block(w, dir, b, blk.raw);
		if (ret)
			return ret;
		f2fs_dentry_block_area(wr_bg(w), &blk.dentry, &a);
		if (!only_dots(&a))
			return 0;
	}
	return 1;
}
