// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes of files and symlinks: inline data from the inode, or the data
 * blocks the node tree addresses, read through f2fs_file_for_each_block()
 * so that every address was checked against the main area and every node
 * against its footer.  i_size bounds what is returned; holes and blocks
 * allocated but never written read as zeros.  Compressed clusters are not
 * decoded: a compressed file is refused rather than returned as garbage.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/geometry.h"
#include "f2fs/node.h"
#include "f2fs/read.h"

struct data_walk {
	struct f2fs_fs *fs;
	uint64_t size; /* i_size */
	f2fs_data_fn fn;
	void *arg;
	uint8_t *blk;
};

static int visit_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct data_walk *w = arg;
	uint64_t off = file_block * F2FS_BLKSIZE;
	size_t len = F2FS_BLKSIZE;
	int ret;

	if (off >= w->size || blkaddr == F2FS_NEW_ADDR || blkaddr == F2FS_COMPRESS_ADDR)
		return 0; /* past the end, or a hole */
	if (w->size - off < len)
		len = (size_t)(w->size - off);
	ret = f2fs_fs_read_blocks(w->fs, blkaddr, w->blk, 1);
	if (ret)
		return ret;
	return w->fn(off, w->blk, len, w->arg);
}

int f2fs_file_for_each_data(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_data_fn fn,
			    void *arg)
{
	const struct f2fs_inode *ri = &inode->i;
	struct data_walk w = {.fs = fs, .size = le64_get(ri->i_size), .fn = fn, .arg = arg};
	int ret;

	if (le32_get(ri->i_flags) & F2FS_COMPR_FL)
		return -EOPNOTSUPP;
	if (f2fs_inode_first_addr(ri) + 1 >= F2FS_DEF_ADDRS_PER_INODE)
		return -EUCLEAN; /* i_extra_isize past i_addr[] */
	if (ri->i_inline & F2FS_INLINE_DATA) {
		size_t cap = f2fs_inline_data_bytes(ri, f2fs_fs_features(fs));
		size_t len = w.size < cap ? (size_t)w.size : cap;

		return len ? fn(0, f2fs_inline_data(ri), len, arg) : 0;
	}
	w.blk = malloc(F2FS_BLKSIZE);
	if (!w.blk)
		return -ENOMEM;
	ret = f2fs_file_for_each_block(fs, inode, visit_block, &w);
	free(w.blk);
	return ret;
}

struct pread_ctx {
	uint8_t *buf;
	uint64_t start, end; /* the file bytes wanted */
};

#define PREAD_DONE 1 /* past the range: stop the walk (errors are negative) */

static int copy_range(uint64_t off, const void *data, size_t len, void *arg)
{
	struct pread_ctx *p = arg;
	uint64_t from, to;

	if (off >= p->end)
		return PREAD_DONE;
	from = off > p->start ? off : p->start;
	to = off + len < p->end ? off + len : p->end;
	if (from < to)
		memcpy(p->buf + (from - p->start), (const uint8_t *)data + (from - off),
		       (size_t)(to - from));
	return 0;
}

int f2fs_file_pread(struct f2fs_fs *fs, const struct f2fs_node *inode, void *buf, size_t len,
		    uint64_t off, size_t *done)
{
	uint64_t size = le64_get(inode->i.i_size);
	struct pread_ctx p = {.buf = buf, .start = off};
	int ret;

	*done = 0;
	if (off >= size || len == 0)
		return 0;
	p.end = size - off < len ? size : off + len;
	memset(buf, 0, (size_t)(p.end - off)); /* holes */
	ret = f2fs_file_for_each_data(fs, inode, copy_range, &p);
	if (ret < 0)
		return ret;
	*done = (size_t)(p.end - off);
	return 0;
}

int f2fs_symlink_target(struct f2fs_fs *fs, const struct f2fs_node *inode, char *buf, size_t len)
{
	const struct f2fs_inode *ri = &inode->i;
	uint64_t size = le64_get(ri->i_size);
	size_t got;
	int ret;

	if (size == 0 || size >= len || size > F2FS_BLKSIZE)
		return -EUCLEAN;
	if ((ri->i_inline & F2FS_INLINE_DATA) &&
	    size > f2fs_inline_data_bytes(ri, f2fs_fs_features(fs)))
		return -EUCLEAN;
	ret = f2fs_file_pread(fs, inode, buf, (size_t)size, 0, &got);
	if (ret)
		return ret;
	buf[size] = '\0';
	if (got != size || strlen(buf) != size)
		return -EUCLEAN;
	return 0;
}

void f2fs_inode_devnum(const struct f2fs_inode *ri, uint32_t *major, uint32_t *minor)
{
	unsigned int first = f2fs_inode_first_addr(ri);
	uint32_t raw = first < F2FS_DEF_ADDRS_PER_INODE ? le32_get(ri->i_addr[first]) : 0;

	if (raw & 0xffff0000u || !(raw & 0xffffu)) {
		/* the kernel's new_encode_dev(): minor split around a 12-bit major */
		*major = (raw & 0xfff00) >> 8;
		*minor = (raw & 0xff) | ((raw >> 12) & 0xfff00);
	} else {
		*major = (raw >> 8) & 0xff;
		*minor = raw & 0xff;
	}
}
