// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes of files and symlinks: inline data from the inode, or the data
 * blocks the node tree addresses, read through f2fs_file_for_each_block()
 * so that every address was checked against the main area and every node
 * against its footer.  i_size bounds what is returned; holes and blocks
 * allocated but never written read as zeros.
 *
 * A compressed file (what the kernel takes for one: F2FS_COMPR_FL, the
 * compression feature, extra attributes that reach i_log_cluster_size) is
 * read a cluster at a time: a cluster whose first slot is COMPRESS_ADDR is
 * decompressed from the blocks after it (lib/format/compress.c checks its
 * header and the codec's output); any other is plain blocks.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/compress.h"
#include "f2fs/endian.h"
#include "f2fs/geometry.h"
#include "f2fs/node.h"
#include "f2fs/read.h"

struct data_walk {
	struct f2fs_fs *fs;
	uint32_t bs;   /* the volume's block size */
	uint64_t size; /* i_size */
	f2fs_data_fn fn;
	void *arg;
	uint8_t *blk;
	/* a compressed file: the cluster being gathered */
	const struct f2fs_inode *ri;
	unsigned int cs;  /* blocks per cluster */
	uint64_t cluster; /* its number, UINT64_MAX before the first */
	uint32_t *addrs;  /* its slots (NULL_ADDR where the walk passed none) */
	uint8_t *stored;  /* its compressed blocks */
	uint8_t *plain;	  /* and what they decompress to */
};

/* Pass block @file_block (@data) to the caller, clipped to i_size. */
static int emit(struct data_walk *w, uint64_t file_block, const uint8_t *data)
{
	uint64_t off = file_block * w->bs;
	size_t len = w->bs;

	if (off >= w->size)
		return 0;
	if (w->size - off < len)
		len = (size_t)(w->size - off);
	return w->fn(off, data, len, w->arg);
}

static int visit_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct data_walk *w = arg;
	int ret;

	if (file_block * w->bs >= w->size || blkaddr == F2FS_NEW_ADDR ||
	    blkaddr == F2FS_COMPRESS_ADDR)
		return 0; /* past the end, or a hole */
	ret = f2fs_fs_read_blocks(w->fs, blkaddr, w->blk, 1);
	return ret ? ret : emit(w, file_block, w->blk);
}

/* Does the kernel read @ri as a compressed file (its f2fs_compressed_file())? */
static bool read_compressed(struct f2fs_fs *fs, const struct f2fs_inode *ri)
{
	return (le32_get(ri->i_flags) & F2FS_COMPR_FL) &&
	       (f2fs_fs_features(fs) & F2FS_FEATURE_COMPRESSION) &&
	       F2FS_INODE_FITS(ri, i_log_cluster_size);
}

/* The compressed cluster gathered: its stored blocks (slots 1.. up to the first that is not one).
 */
static int emit_compressed(struct data_walk *w, uint64_t first)
{
	unsigned int n, k;
	int ret = 0;

	for (n = 0; n + 1 < w->cs && f2fs_geo_in_main(f2fs_fs_geo(w->fs), w->addrs[n + 1]); n++) {
		ret = f2fs_fs_read_blocks(w->fs, w->addrs[n + 1], w->stored + (size_t)n * w->bs, 1);
		if (ret)
			return ret;
	}
	ret = f2fs_cluster_decompress(w->ri->i_compress_algorithm, w->stored, n,
				      le16_get(w->ri->i_compress_flag) & F2FS_COMPRESS_CHKSUM_FL,
				      w->plain, w->cs, w->bs);
	for (k = 0; !ret && k < w->cs; k++)
		ret = emit(w, first + k, w->plain + (size_t)k * w->bs);
	return ret;
}

/* The cluster gathered, compressed or plain; then none is. */
static int emit_cluster(struct data_walk *w)
{
	uint64_t first = w->cluster * w->cs;
	unsigned int k;
	int ret = 0;

	if (w->cluster == UINT64_MAX)
		return 0;
	if (w->addrs[0] == F2FS_COMPRESS_ADDR) {
		ret = emit_compressed(w, first);
	} else {
		for (k = 0; !ret && k < w->cs; k++) {
			if (w->addrs[k] == F2FS_COMPRESS_ADDR)
				ret = -EUCLEAN; /* a marker inside a cluster */
			else if (w->addrs[k] != F2FS_NULL_ADDR)
				ret = visit_block(first + k, w->addrs[k], w);
		}
	}
	for (k = 0; k < w->cs; k++)
		w->addrs[k] = F2FS_NULL_ADDR;
	w->cluster = UINT64_MAX;
	return ret;
}

static int gather_cluster(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct data_walk *w = arg;
	int ret = 0;

	if (file_block / w->cs != w->cluster) {
		ret = emit_cluster(w);
		w->cluster = file_block / w->cs;
	}
	w->addrs[file_block % w->cs] = blkaddr;
	return ret;
}

static int for_each_cluster(struct data_walk *w, const struct f2fs_node *inode)
{
	unsigned int k;
	int ret;

	if (w->ri->i_log_cluster_size < F2FS_MIN_LOG_CLUSTER ||
	    w->ri->i_log_cluster_size > F2FS_MAX_LOG_CLUSTER)
		return -EUCLEAN;
	w->cs = 1u << w->ri->i_log_cluster_size;
	w->cluster = UINT64_MAX;
	w->addrs = malloc(sizeof(*w->addrs) * w->cs);
	w->stored = malloc((size_t)w->cs * w->bs);
	w->plain = malloc((size_t)w->cs * w->bs);
	ret = w->addrs && w->stored && w->plain ? 0 : -ENOMEM;
	for (k = 0; !ret && k < w->cs; k++)
		w->addrs[k] = F2FS_NULL_ADDR;
	if (!ret)
		ret = f2fs_file_for_each_block(w->fs, inode, gather_cluster, w);
	if (!ret)
		ret = emit_cluster(w);
	free(w->addrs);
	free(w->stored);
	free(w->plain);
	return ret;
}

int f2fs_file_for_each_data(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_data_fn fn,
			    void *arg)
{
	const struct f2fs_inode *ri = &inode->i;
	const struct f2fs_blkgeo *bg = &f2fs_fs_geo(fs)->blk;
	struct data_walk w = {.fs = fs,
			      .bs = bg->blksize,
			      .size = le64_get(ri->i_size),
			      .fn = fn,
			      .arg = arg,
			      .ri = ri};
	int ret;

	if (f2fs_inode_first_addr(ri) + 1 >= bg->addrs_per_inode)
		return -EUCLEAN; /* i_extra_isize past i_addr[] */
	if (ri->i_inline & F2FS_INLINE_DATA) {
		size_t cap = f2fs_inline_data_bytes(bg, ri, f2fs_fs_features(fs));
		size_t len = w.size < cap ? (size_t)w.size : cap;

		return len ? fn(0, f2fs_inline_data(ri), len, arg) : 0;
	}
	w.blk = malloc(w.bs);
	if (!w.blk)
		return -ENOMEM;
	if (read_compressed(fs, ri))
		ret = for_each_cluster(&w, inode);
	else
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

	if (size == 0 || size >= len || size > f2fs_fs_geo(fs)->blk.blksize)
		return -EUCLEAN;
	if ((ri->i_inline & F2FS_INLINE_DATA) &&
	    size > f2fs_inline_data_bytes(&f2fs_fs_geo(fs)->blk, ri, f2fs_fs_features(fs)))
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
