// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed files (F2FS_COMPR_FL), as the kernel lays them out: the file
 * is cut into clusters of 2^i_log_cluster_size blocks, each addressed from
 * one direct node.  A cluster that compresses well enough holds
 * COMPRESS_ADDR in its first slot, then the blocks of {clen, checksum,
 * reserved words, LZ4 data}, then NEW_ADDR in the slots it saved; every
 * slot counts in i_blocks and the checkpoint's valid blocks (the cluster
 * keeps its reservation), the saved ones in i_compr_blocks.  A cluster that
 * does not, or a partial last one, is written as plain blocks.
 *
 * Writing a cluster rewrites it whole: pages of it that are not dirty are
 * read (decompressed) into the page cache first, the old slots are
 * released, and the cluster is written again.
 */
#include "config.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

#define HEADER_BYTES 24 /* clen, checksum, four reserved words */
#define ALGO_LZ4     1

bool wr_compressed(const struct f2fs_inode *ri)
{
	return (le32_get(ri->i_flags) & F2FS_COMPR_FL) && (ri->i_inline & F2FS_EXTRA_ATTR);
}

static unsigned int cluster_blocks(const struct f2fs_inode *ri)
{
	return 1u << ri->i_log_cluster_size;
}

/* Blocks the file has below i_size. */
static uint64_t file_blocks(const struct f2fs_inode *ri)
{
	return (le64_get(ri->i_size) + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
}

int wr_compress_check(const struct f2fs_inode *ri)
{
	if (ri->i_compress_algorithm != ALGO_LZ4 || ri->i_log_cluster_size < 2 ||
	    ri->i_log_cluster_size > 8)
		return -EOPNOTSUPP;
	return 0;
}

/* Decompress the cluster whose slots @dn names into @out (cluster_blocks * 4 KiB). */
static int read_compressed(struct f2fs_wr *w, const struct wr_dnode *dn, unsigned int cs,
			   uint8_t *out)
{
	uint8_t *in = malloc((size_t)cs * F2FS_BLKSIZE);
	unsigned int k;
	uint32_t clen;
	int ret = 0, n;

	if (!in)
		return -ENOMEM;
	for (k = 1; k < cs && !ret; k++) {
		uint32_t addr = wr_dnode_addr_at(dn, k);

		if (!f2fs_geo_in_main(&w->fs->geo, addr))
			break;
		ret = wr_read_block(w, addr, in + (size_t)(k - 1) * F2FS_BLKSIZE);
	}
	if (!ret) {
		memcpy(&clen, in, sizeof(clen));
		clen = le32_get(clen);
		if (k < 2 || clen > (k - 1) * F2FS_BLKSIZE - HEADER_BYTES)
			ret = -EUCLEAN;
	}
	if (!ret) {
		n = LZ4_decompress_safe((const char *)in + HEADER_BYTES, (char *)out, (int)clen,
					(int)(cs * F2FS_BLKSIZE));
		if (n != (int)(cs * F2FS_BLKSIZE))
			ret = -EUCLEAN;
	}
	free(in);
	return ret;
}

int wr_compressed_read_block(struct f2fs_wr *w, struct wr_node *in, uint64_t index, void *buf,
			     bool *done)
{
	unsigned int cs = cluster_blocks(&in->blk.i);
	struct wr_dnode dn;
	uint8_t *cluster;
	int ret;

	*done = false;
	ret = wr_dnode_get(w, in, index - index % cs, false, &dn);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	if (wr_dnode_addr_at(&dn, 0) != F2FS_COMPRESS_ADDR) {
		wr_dnode_put(&dn);
		return 0;
	}
	cluster = malloc((size_t)cs * F2FS_BLKSIZE);
	ret = cluster ? read_compressed(w, &dn, cs, cluster) : -ENOMEM;
	if (!ret) {
		memcpy(buf, cluster + (size_t)(index % cs) * F2FS_BLKSIZE, F2FS_BLKSIZE);
		*done = true;
	}
	free(cluster);
	wr_dnode_put(&dn);
	return ret;
}

/* Give back the slots of a cluster: blocks invalid, reservations returned, all NULL. */
static void release_cluster(struct f2fs_wr *w, struct wr_node *in, struct wr_dnode *dn,
			    unsigned int cs)
{
	struct f2fs_inode *ri = &in->blk.i;
	unsigned int k;

	for (k = 0; k < cs; k++) {
		uint32_t addr = wr_dnode_addr_at(dn, k);

		if (addr == F2FS_NULL_ADDR)
			continue;
		if (addr == F2FS_COMPRESS_ADDR || addr == F2FS_NEW_ADDR) {
			w->valid_blocks--;
			ri->i_compr_blocks = le64_put(le64_get(ri->i_compr_blocks) - 1);
		} else {
			wr_invalidate(w, addr);
		}
		wr_inode_add_blocks(w, in, -1);
		wr_dnode_set_addr_at(w, dn, k, F2FS_NULL_ADDR);
	}
}

/* LZ4 the cluster @data into @out; the blocks it takes, or 0 when that saves nothing. */
static unsigned int compress(const uint8_t *data, unsigned int cs, uint8_t *out)
{
	int room = (int)((cs - 1) * F2FS_BLKSIZE - HEADER_BYTES);
	int clen = LZ4_compress_default((const char *)data, (char *)out + HEADER_BYTES,
					(int)(cs * F2FS_BLKSIZE), room);
	uint32_t le;
	unsigned int blocks;

	if (clen <= 0)
		return 0;
	blocks = (unsigned int)((clen + HEADER_BYTES + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE);
	if (blocks >= cs)
		return 0;
	memset(out, 0, HEADER_BYTES);
	le = le32_put((uint32_t)clen);
	memcpy(out, &le, sizeof(le));
	memset(out + HEADER_BYTES + clen, 0, (size_t)blocks * F2FS_BLKSIZE - HEADER_BYTES - clen);
	return blocks;
}

static int write_compressed(struct f2fs_wr *w, struct wr_node *in, struct wr_dnode *dn,
			    unsigned int cs, const uint8_t *cdata, unsigned int blocks)
{
	struct f2fs_inode *ri = &in->blk.i;
	const struct f2fs_nat_info *e = wr_nat_get(w, dn->nid);
	unsigned int k;
	int ret = 0;

	if (!wr_has_free_blocks(w, cs))
		return -ENOSPC;
	wr_dnode_set_addr_at(w, dn, 0, F2FS_COMPRESS_ADDR);
	for (k = 1; k <= blocks && !ret; k++) {
		uint64_t addr;

		ret = wr_alloc_block(w, wr_inode_temp(w, ri, false), dn->nid,
				     (uint16_t)(dn->ofs + k), e ? e->version : 0, &addr);
		if (!ret)
			ret = wr_write_block(w, addr, cdata + (size_t)(k - 1) * F2FS_BLKSIZE,
					     F2FS_IO_DATA);
		if (!ret)
			wr_dnode_set_addr_at(w, dn, k, (uint32_t)addr);
	}
	for (; k < cs && !ret; k++)
		wr_dnode_set_addr_at(w, dn, k, F2FS_NEW_ADDR);
	if (ret)
		return ret;
	/* the marker and the saved slots keep the cluster's reservation */
	w->valid_blocks += cs - blocks;
	ri->i_compr_blocks = le64_put(le64_get(ri->i_compr_blocks) + cs - blocks);
	wr_inode_add_blocks(w, in, cs);
	wr_node_dirty(w, in);
	return 0;
}

/* Rewrite cluster @c of @in from the page cache (pages already filled in). */
static int write_cluster(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi, uint64_t c)
{
	unsigned int cs = cluster_blocks(&in->blk.i), k, blocks = 0;
	uint64_t first = c * cs, end = file_blocks(&in->blk.i);
	uint8_t *data = NULL, *cdata = NULL;
	struct wr_dnode dn;
	int ret;

	ret = wr_dnode_get(w, in, first, true, &dn);
	if (ret)
		return ret;
	release_cluster(w, in, &dn, cs);
	if (first + cs <= end) {
		data = malloc((size_t)cs * F2FS_BLKSIZE);
		cdata = malloc((size_t)cs * F2FS_BLKSIZE);
		ret = data && cdata ? 0 : -ENOMEM;
		for (k = 0; k < cs && !ret; k++)
			ret =
			    wr_page_copy(wi, first + k, data + (size_t)k * F2FS_BLKSIZE) ? 0 : -EIO;
		if (!ret)
			blocks = compress(data, cs, cdata);
		if (!ret && blocks)
			ret = write_compressed(w, in, &dn, cs, cdata, blocks);
	}
	wr_dnode_put(&dn);
	/* a partial cluster, or one LZ4 does not shrink: plain blocks */
	for (k = 0; !ret && !blocks && k < cs && first + k < end; k++)
		ret = wr_write_cached_page(w, in, wi, first + k);
	free(data);
	free(cdata);
	return ret;
}

int wr_compressed_writepages(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi)
{
	unsigned int cs = cluster_blocks(&in->blk.i), k;
	uint64_t end = file_blocks(&in->blk.i), c, *clusters;
	size_t n = 0, i;
	int ret = wr_compress_check(&in->blk.i);

	if (ret)
		return ret;
	clusters = malloc(sizeof(*clusters) * (wi->npages + 1));
	if (!clusters)
		return -ENOMEM;
	for (i = 0; i < wi->npages; i++) {
		c = wi->pages[i].index / cs;
		if (wi->pages[i].index < end && (!n || clusters[n - 1] != c))
			clusters[n++] = c;
	}
	/* pages past i_size (a shrunk file) need no block */
	wr_drop_pages(w, wi, end);
	for (i = 0; i < n && !ret; i++) {
		uint8_t *page;

		for (k = 0; k < cs && clusters[i] * cs + k < end && !ret; k++)
			ret = wr_page_for_write(w, in, clusters[i] * cs + k, &page);
		if (!ret)
			ret = write_cluster(w, in, wi, clusters[i]);
		if (!ret)
			wr_drop_page_range(w, wi, clusters[i] * cs, (clusters[i] + 1) * cs);
	}
	free(clusters);
	return ret;
}
