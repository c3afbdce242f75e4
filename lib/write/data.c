// SPDX-License-Identifier: GPL-2.0
/*
 * File data: a page cache of dirty 4 KiB pages per inode, and writepages,
 * which gives them blocks.  A write lands in the cache (read-modify-write
 * for a partial page); blocks are allocated only when pages are written,
 * in the data log of the file's temperature, so a file written in one go
 * lies in one run of blocks and leaves in large requests.  An overwrite
 * goes to a new block and invalidates the old one.  Small regular files
 * and symlinks keep their data inline in the inode while it fits, and move
 * to block 0 when a write goes past the inline area (the kernel's
 * f2fs_convert_inline_inode).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

static size_t find_page(const struct wr_inode *wi, uint64_t index, bool *found)
{
	size_t lo = 0, hi = wi->npages;

	*found = false;
	if (hi && wi->pages[hi - 1].index < index)
		return hi;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (wi->pages[mid].index < index) {
			lo = mid + 1;
		} else if (wi->pages[mid].index > index) {
			hi = mid;
		} else {
			*found = true;
			return mid;
		}
	}
	return lo;
}

static uint8_t *cached_page(const struct wr_inode *wi, uint64_t index)
{
	bool found;
	size_t i;

	if (!wi)
		return NULL;
	i = find_page(wi, index, &found);
	return found ? wi->pages[i].data : NULL;
}

void wr_drop_pages(struct f2fs_wr *w, struct wr_inode *wi, uint64_t from_index)
{
	bool found;
	size_t i = find_page(wi, from_index, &found), k;

	for (k = i; k < wi->npages; k++)
		wr_page_free(&w->inodes, wi->pages[k].data);
	w->inodes.dirty_pages -= wi->npages - i;
	wi->npages = i;
}

static unsigned int inline_bytes(struct f2fs_wr *w, const struct f2fs_inode *ri)
{
	return f2fs_inline_data_bytes(wr_bg(w), ri, w->fs->features);
}

static uint8_t *inline_area(struct f2fs_inode *ri)
{
	return (uint8_t *)f2fs_inline_data(ri);
}

int wr_data_read_block(struct f2fs_wr *w, struct wr_node *in, uint64_t index, void *buf)
{
	struct f2fs_inode *ri = &in->blk.i;
	uint8_t *page = cached_page(wr_inode_find(w, in->ino, false), index);
	struct wr_dnode dn;
	uint32_t addr;
	int ret;

	memset(buf, 0, wr_blksize(w));
	if (page) {
		memcpy(buf, page, wr_blksize(w));
		return 0;
	}
	if (ri->i_inline & F2FS_INLINE_DATA) {
		if (index == 0)
			memcpy(buf, inline_area(ri), inline_bytes(w, ri));
		return 0;
	}
	if (wr_compressed(ri)) {
		bool done;

		ret = wr_compressed_read_block(w, in, index, buf, &done);
		if (ret || done)
			return ret;
	}
	ret = wr_dnode_get(w, in, index, false, &dn);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	addr = wr_dnode_addr(&dn);
	wr_dnode_put(&dn);
	if (addr == F2FS_NULL_ADDR || addr == F2FS_NEW_ADDR)
		return 0;
	if (!f2fs_geo_in_main(&w->fs->geo, addr))
		return -EUCLEAN;
	return wr_read_block(w, addr, buf);
}

/*
 * Free page buffers kept for reuse, up to 128 MiB (the replay's default
 * dirty limit): never more than were dirty at once.  A smaller pool made a
 * stream of writes allocate fresh heap pages, one page fault each.
 */
#define POOL_MAX 32768u

/* A page buffer: one freed earlier, or a new one. */
static uint8_t *page_alloc(struct wr_inode_table *t)
{
	return t->npool ? t->pool[--t->npool] : malloc(t->page_bytes);
}

void wr_page_free(struct wr_inode_table *t, uint8_t *page)
{
	if (!page)
		return;
	if (t->npool == t->pool_cap && t->pool_cap < POOL_MAX) {
		size_t cap = t->pool_cap ? t->pool_cap * 2 : 64;
		uint8_t **p = realloc(t->pool, cap * sizeof(*p));

		if (p) {
			t->pool = p;
			t->pool_cap = cap;
		}
	}
	if (t->npool < t->pool_cap)
		t->pool[t->npool++] = page;
	else
		free(page);
}

/*
 * The dirty page @index of @in.  A page not cached yet is made from what
 * the file holds there, unless @whole: the caller overwrites all of it.
 */
static int get_page(struct f2fs_wr *w, struct wr_node *in, uint64_t index, bool whole,
		    uint8_t **out)
{
	struct wr_inode *wi = wr_inode_find(w, in->ino, true);
	struct wr_page *pages;
	uint8_t *data;
	bool found;
	size_t i;
	int ret;

	*out = NULL;
	if (!wi)
		return -ENOMEM;
	i = find_page(wi, index, &found);
	if (found) {
		*out = wi->pages[i].data;
		return 0;
	}
	data = page_alloc(&w->inodes);
	if (!data)
		return -ENOMEM;
	ret = whole ? 0 : wr_data_read_block(w, in, index, data);
	if (ret) {
		wr_page_free(&w->inodes, data);
		return ret;
	}
	if (wi->npages == wi->cap) {
		size_t cap = wi->cap ? wi->cap * 2 : 16;

		pages = realloc(wi->pages, cap * sizeof(*pages));
		if (!pages) {
			wr_page_free(&w->inodes, data);
			return -ENOMEM;
		}
		wi->pages = pages;
		wi->cap = cap;
	}
	memmove(&wi->pages[i + 1], &wi->pages[i], (wi->npages - i) * sizeof(*wi->pages));
	wi->pages[i] = (struct wr_page){index, data};
	wi->npages++;
	w->inodes.dirty_pages++;
	/* a dentry page counts for the checkpoint (F2FS_DIRTY_DENTS), a file's data does not */
	if (S_ISDIR(le16_get(in->blk.i.i_mode)))
		wr_mark_dirty(w);
	else
		w->dirty = true;
	*out = data;
	return 0;
}

int wr_page_for_write(struct f2fs_wr *w, struct wr_node *in, uint64_t index, uint8_t **out)
{
	return get_page(w, in, index, false, out);
}

/* Move inline data to page 0 and make the inode a block-mapped one. */
static int convert_inline(struct f2fs_wr *w, struct wr_node *in)
{
	struct f2fs_inode *ri = &in->blk.i;
	unsigned int bytes = inline_bytes(w, ri);
	bool had_data = ri->i_inline & F2FS_DATA_EXIST;
	uint8_t *page;
	int ret = 0;

	if (had_data && le64_get(ri->i_size))
		ret = wr_page_for_write(w, in, 0, &page);
	if (ret)
		return ret;
	memset(inline_area(ri), 0, bytes);
	ri->i_inline &= (uint8_t) ~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
	wr_node_dirty(w, in);
	return 0;
}

static int write_inline(struct f2fs_wr *w, struct wr_node *in, const void *buf, size_t len,
			uint64_t off)
{
	struct f2fs_inode *ri = &in->blk.i;

	memcpy(inline_area(ri) + off, buf, len);
	if (len)
		ri->i_inline |= F2FS_DATA_EXIST;
	wr_node_dirty(w, in);
	return 0;
}

int wr_data_write(struct f2fs_wr *w, struct wr_node *in, const void *buf, size_t len, uint64_t off)
{
	struct f2fs_inode *ri = &in->blk.i;
	const uint8_t *src = buf;
	uint64_t end = off + len;
	struct wr_inode *wi;
	int ret = 0;

	if (end < off)
		return -EFBIG;
	if (wr_compress_released(ri))
		return -EPERM; /* the kernel's f2fs_file_write_iter() */
	if (ri->i_inline & F2FS_INLINE_DATA) {
		if (end <= inline_bytes(w, ri))
			ret = write_inline(w, in, buf, len, off);
		else
			ret = convert_inline(w, in);
		if (ret || end <= inline_bytes(w, ri))
			goto size;
	}
	while (len) {
		uint64_t index = off / wr_blksize(w);
		size_t in_page = off % wr_blksize(w), n = wr_blksize(w) - in_page;
		uint8_t *page;

		if (n > len)
			n = len;
		ret = get_page(w, in, index, n == wr_blksize(w), &page);
		if (ret)
			return ret;
		memcpy(page + in_page, src, n);
		src += n;
		off += n;
		len -= n;
	}
size:
	if (ret)
		return ret;
	if (end > le64_get(ri->i_size)) {
		ri->i_size = le64_put(end);
		wr_inode_touch(w, in, true, true);
	} else {
		wr_inode_touch_lazy(w, in);
	}
	wi = wr_inode_find(w, in->ino, false);
	if (wi && w->wb_inode_pages && wi->npages >= w->wb_inode_pages)
		ret = wr_writepages(w, in->ino, F2FS_WB_NONE);
	if (!ret && w->wb_total_pages && w->inodes.dirty_pages >= w->wb_total_pages)
		ret = wr_write_all_data(w, false);
	return ret;
}

int wr_data_read(struct f2fs_wr *w, struct wr_node *in, void *buf, size_t len, uint64_t off,
		 size_t *done)
{
	uint64_t size = le64_get(in->blk.i.i_size);
	uint8_t block[wr_blksize(w)], *dst = buf;
	int ret;

	*done = 0;
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	while (len) {
		size_t in_page = off % wr_blksize(w), n = wr_blksize(w) - in_page;

		if (n > len)
			n = len;
		ret = wr_data_read_block(w, in, off / wr_blksize(w), block);
		if (ret)
			return ret;
		memcpy(dst, block + in_page, n);
		dst += n;
		off += n;
		len -= n;
		*done += n;
	}
	return 0;
}

/*
 * Whether a page of @in whose block is @old is rewritten over it: in-place
 * updates on (f2fs_set_in_place_updates), a regular file that is not a
 * quota file, and a block it already has (f2fs_should_update_outplace,
 * check_inplace_update_policy).
 */
static bool rewrite_in_place(struct f2fs_wr *w, const struct wr_node *in, uint32_t old)
{
	if (!w->in_place || !S_ISREG(le16_get(in->blk.i.i_mode)))
		return false;
	if (f2fs_is_quota_ino(w->sb, in->ino))
		return false;
	return old != F2FS_NULL_ADDR && old != F2FS_NEW_ADDR && f2fs_geo_in_main(&w->fs->geo, old);
}

/* A new block in the log of the file's temperature for page @p, the old one (if any) invalid. */
static int write_out_of_place(struct f2fs_wr *w, struct wr_node *in, const struct wr_page *p,
			      struct wr_dnode *dn, uint32_t old)
{
	const struct f2fs_nat_info *e = wr_nat_get(w, dn->nid);
	uint64_t addr;
	int ret = 0;

	if (!wr_has_free_blocks(w, f2fs_geo_in_main(&w->fs->geo, old) ? 0 : 1))
		ret = -ENOSPC;
	else if (!wr_curseg_room(w) && !w->free_sections)
		ret = -ENOSPC;
	if (!ret)
		ret = wr_alloc_block(w, wr_inode_temp(w, &in->blk.i, false), dn->nid,
				     (uint16_t)dn->ofs, e ? e->version : 0, &addr);
	if (!ret)
		ret = wr_write_block(w, addr, p->data, F2FS_IO_DATA);
	if (!ret) {
		if (old == F2FS_NULL_ADDR)
			wr_inode_add_blocks(w, in, 1);
		else
			wr_invalidate(w, old);
		wr_dnode_set_addr(w, dn, (uint32_t)addr);
		wr_node_dirty(w, in);
	}
	return ret;
}

/* Give page @p its block: its own one when rewritten in place, else a new one. */
static int write_page(struct f2fs_wr *w, struct wr_node *in, const struct wr_page *p)
{
	struct wr_dnode dn;
	uint32_t old;
	int ret;

	ret = wr_dnode_get(w, in, p->index, true, &dn);
	if (ret)
		return ret;
	old = wr_dnode_addr(&dn);
	if (rewrite_in_place(w, in, old))
		ret = wr_write_block(w, old, p->data, F2FS_IO_DATA);
	else
		ret = write_out_of_place(w, in, p, &dn, old);
	wr_dnode_put(&dn);
	return ret;
}

bool wr_page_copy(const struct f2fs_wr *w, const struct wr_inode *wi, uint64_t index, void *out)
{
	uint8_t *page = cached_page(wi, index);

	if (page)
		memcpy(out, page, wr_blksize(w));
	return page != NULL;
}

int wr_write_cached_page(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi, uint64_t index)
{
	bool found;
	size_t i = find_page(wi, index, &found);

	return found ? write_page(w, in, &wi->pages[i]) : 0;
}

void wr_drop_page_range(struct f2fs_wr *w, struct wr_inode *wi, uint64_t from, uint64_t to)
{
	bool found;
	size_t first = find_page(wi, from, &found), last = first, k;

	while (last < wi->npages && wi->pages[last].index < to)
		last++;
	for (k = first; k < last; k++)
		wr_page_free(&w->inodes, wi->pages[k].data);
	memmove(&wi->pages[first], &wi->pages[last], (wi->npages - last) * sizeof(*wi->pages));
	wi->npages -= last - first;
	w->inodes.dirty_pages -= last - first;
}

int wr_writepages(struct f2fs_wr *w, uint32_t ino, enum f2fs_wb_mode mode)
{
	uint64_t left;

	(void)mode;
	return wr_writepages_some(w, ino, UINT64_MAX, false, &left);
}

/* Write the dirty pages at positions [from, from + n) of @wi; *done: how many went. */
static int write_run(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi, size_t from,
		     size_t n, size_t *done)
{
	size_t i;
	int ret = 0;

	for (i = from; i < from + n; i++) {
		ret = write_page(w, in, &wi->pages[i]);
		if (ret)
			break;
		wr_page_free(&w->inodes, wi->pages[i].data);
	}
	*done = i - from;
	return ret;
}

/* Written pages leave the cache (after an error the rest stay dirty). */
static void drop_run(struct f2fs_wr *w, struct wr_inode *wi, size_t from, size_t n)
{
	memmove(wi->pages + from, wi->pages + from + n,
		(wi->npages - from - n) * sizeof(*wi->pages));
	wi->npages -= n;
	w->inodes.dirty_pages -= n;
}

/*
 * Cyclic write-back (the kernel's range_cyclic, for background write-back)
 * starts where the last one stopped, at the file's writeback_index, and
 * wraps to the start once: a writer streaming through a file has its
 * oldest pages written first, not its newest ones near the start.
 */
static int write_some(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi, uint64_t max,
		      bool cyclic)
{
	bool found;
	size_t start = cyclic ? find_page(wi, wi->wb_index, &found) : 0, n, done = 0, again = 0;
	uint64_t last = 0;
	int ret;

	if (start == wi->npages)
		start = 0;
	n = wi->npages - start < max ? wi->npages - start : (size_t)max;
	ret = write_run(w, in, wi, start, n, &done);
	if (done)
		last = wi->pages[start + done - 1].index;
	drop_run(w, wi, start, done);
	if (!ret && cyclic && start && done < max) {
		n = start < max - done ? start : (size_t)(max - done);
		ret = write_run(w, in, wi, 0, n, &again);
		if (again)
			last = wi->pages[again - 1].index;
		drop_run(w, wi, 0, again);
	}
	if (cyclic && done + again)
		wi->wb_index = last + 1;
	return ret;
}

int wr_writepages_some(struct f2fs_wr *w, uint32_t ino, uint64_t max, bool cyclic, uint64_t *left)
{
	struct wr_inode *wi = wr_inode_find(w, ino, false);
	struct wr_node *in;
	int ret;

	*left = 0;
	if (!wi || !wi->npages)
		return 0;
	ret = wr_inode_get(w, ino, &in);
	if (ret)
		return ret;
	if (wr_compressed(&in->blk.i)) {
		ret = wr_compressed_writepages(w, in, wi);
		wr_node_put(in);
		*left = wi->npages;
		return ret;
	}
	ret = write_some(w, in, wi, max, cyclic);
	*left = wi->npages;
	wr_node_put(in);
	return ret;
}

static int by_ino(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool is_dir_ino(struct f2fs_wr *w, uint32_t ino)
{
	struct wr_node *in;
	bool dir;

	if (wr_inode_get(w, ino, &in))
		return false;
	dir = wr_is_dir(in);
	wr_node_put(in);
	return dir;
}

/* Every file with dirty pages, in inode order (the same run gives the same image). */
int wr_write_all_data(struct f2fs_wr *w, bool dirs_only)
{
	uint32_t *inos, n = 0, i;
	int ret = 0;

	inos = malloc(sizeof(*inos) * (w->inodes.count + 1));
	if (!inos)
		return -ENOMEM;
	for (i = 0; i < w->inodes.nbuckets; i++) {
		struct wr_inode *wi;

		for (wi = w->inodes.buckets[i]; wi; wi = wi->hnext)
			if (wi->npages)
				inos[n++] = wi->ino;
	}
	qsort(inos, n, sizeof(*inos), by_ino);
	for (i = 0; i < n && !ret; i++)
		if (!dirs_only || is_dir_ino(w, inos[i]))
			ret = wr_writepages(w, inos[i], F2FS_WB_ALL);
	free(inos);
	return ret;
}

/*
 * Truncating a compressed file inside a cluster: the cluster's blocks below
 * the cut are read into the page cache and the whole cluster is freed; the
 * pages are written again (as a partial cluster) by the next writepages.
 */
static int keep_cluster_head(struct f2fs_wr *w, struct wr_node *in, uint64_t *keep)
{
	unsigned int cs = 1u << in->blk.i.i_log_cluster_size;
	uint64_t start = *keep - *keep % cs, i;
	uint8_t *page;
	int ret = 0;

	for (i = start; i < *keep && !ret; i++)
		ret = wr_page_for_write(w, in, i, &page);
	*keep = start;
	return ret;
}

/* Is file block @index mapped to a block or cached? */
static bool block_exists(struct f2fs_wr *w, struct wr_node *in, uint64_t index)
{
	struct wr_dnode dn;
	uint32_t addr;

	if (cached_page(wr_inode_find(w, in->ino, false), index))
		return true;
	if (wr_dnode_get(w, in, index, false, &dn))
		return false;
	addr = wr_dnode_addr(&dn);
	wr_dnode_put(&dn);
	return addr != F2FS_NULL_ADDR;
}

/* Does dirty page @i of @wi go over its own block? */
static bool page_in_place(struct f2fs_wr *w, struct wr_node *in, const struct wr_inode *wi,
			  size_t i)
{
	struct wr_dnode dn;
	bool yes;

	if (wr_dnode_get(w, in, wi->pages[i].index, false, &dn))
		return false;
	yes = rewrite_in_place(w, in, wr_dnode_addr(&dn));
	wr_dnode_put(&dn);
	return yes;
}

/* The next @max dirty pages of @ino, in the order write_some() takes them, all go in place. */
bool f2fs_writeback_in_place(struct f2fs_fs *fs, uint32_t ino, uint64_t max, bool cyclic)
{
	struct f2fs_wr *w;
	struct wr_inode *wi;
	struct wr_node *in;
	bool all = true, found;
	size_t start, i, n;

	if (wr_get(fs, &w) || !w->in_place || !(wi = wr_inode_find(w, ino, false)) || !wi->npages)
		return false;
	if (wr_inode_get(w, ino, &in))
		return false;
	start = cyclic ? find_page(wi, wi->wb_index, &found) : 0;
	if (start == wi->npages)
		start = 0;
	n = wi->npages < max ? wi->npages : (size_t)max;
	all = !wr_compressed(&in->blk.i);
	for (i = 0; i < n && all; i++)
		all = page_in_place(w, in, wi, (start + i) % wi->npages);
	wr_node_put(in);
	return all;
}

/* The rest of the block holding byte @size must read as zeros if the file grows again. */
static int zero_tail(struct f2fs_wr *w, struct wr_node *in, uint64_t size)
{
	uint8_t *page;
	int ret;

	if (!block_exists(w, in, size / wr_blksize(w)))
		return 0;
	ret = wr_page_for_write(w, in, size / wr_blksize(w), &page);
	if (!ret)
		memset(page + size % wr_blksize(w), 0, wr_blksize(w) - size % wr_blksize(w));
	return ret;
}

int wr_set_size(struct f2fs_wr *w, struct wr_node *in, uint64_t size)
{
	struct f2fs_inode *ri = &in->blk.i;
	uint64_t old = le64_get(ri->i_size), keep = (size + wr_blksize(w) - 1) / wr_blksize(w);
	struct wr_inode *wi = wr_inode_find(w, in->ino, false);
	int ret;

	/* an inline file grown past its inline area moves to blocks (f2fs_convert_inline_inode) */
	if (ri->i_inline & F2FS_INLINE_DATA && size > inline_bytes(w, ri)) {
		ret = convert_inline(w, in);
		if (ret)
			return ret;
	}
	if (ri->i_inline & F2FS_INLINE_DATA) {
		if (size < old && size < inline_bytes(w, ri))
			memset(inline_area(ri) + size, 0, inline_bytes(w, ri) - size);
	} else if (size < old) {
		uint64_t from = keep;

		if (wi)
			wr_drop_pages(w, wi, keep);
		if (wr_compressed(ri)) {
			ret = keep_cluster_head(w, in, &from);
			if (ret)
				return ret;
		}
		ret = wr_truncate_blocks(w, in, from);
		if (ret)
			return ret;
		if (size % wr_blksize(w)) {
			ret = zero_tail(w, in, size);
			if (ret)
				return ret;
		}
	}
	ri->i_size = le64_put(size);
	wr_inode_touch(w, in, true, true);
	return 0;
}
