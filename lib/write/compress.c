// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed files (F2FS_COMPR_FL), as the kernel lays them out: the file
 * is cut into clusters of 2^i_log_cluster_size blocks, each addressed from
 * one direct node.  A cluster that saves at least one block holds
 * COMPRESS_ADDR in its first slot, then the blocks of {header, codec
 * output} (lib/format/compress.c), then NEW_ADDR in the slots it saved;
 * every slot counts in i_blocks and the checkpoint's valid blocks (the
 * cluster keeps its reservation), the saved ones in i_compr_blocks.  A
 * cluster that saves nothing, or a partial last one, is written as plain
 * blocks, so a compressed file never takes more blocks than a plain one.
 *
 * Writing a cluster rewrites it whole: pages of it that are not dirty are
 * read (decompressed) into the page cache first, the old slots are
 * released, and the cluster is written again.
 *
 * Releasing (the kernel's F2FS_IOC_RELEASE_COMPRESS_BLOCKS) gives the
 * reservations back: the saved slots become NULL_ADDR, i_compr_blocks
 * drops to 0 and the inode is marked F2FS_COMPRESS_RELEASED, after which
 * the file takes no new data.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/compress.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

bool wr_compressed(const struct f2fs_inode *ri)
{
	return (le32_get(ri->i_flags) & F2FS_COMPR_FL) && (ri->i_inline & F2FS_EXTRA_ATTR);
}

static unsigned int cluster_blocks(const struct f2fs_inode *ri)
{
	return 1u << ri->i_log_cluster_size;
}

/* Blocks the file has below i_size. */
static uint64_t file_blocks(const struct f2fs_wr *w, const struct f2fs_inode *ri)
{
	return (le64_get(ri->i_size) + wr_blksize(w) - 1) / wr_blksize(w);
}

int wr_compress_check(const struct f2fs_inode *ri)
{
	if (!f2fs_compress_built(ri->i_compress_algorithm) ||
	    ri->i_log_cluster_size < F2FS_MIN_LOG_CLUSTER ||
	    ri->i_log_cluster_size > F2FS_MAX_LOG_CLUSTER)
		return -EOPNOTSUPP;
	return 0;
}

bool wr_compress_released(const struct f2fs_inode *ri)
{
	return wr_compressed(ri) && (ri->i_inline & F2FS_COMPRESS_RELEASED);
}

/* Decompress the cluster whose slots @dn names into @out (cluster_blocks blocks). */
static int read_compressed(struct f2fs_wr *w, const struct wr_dnode *dn,
			   const struct f2fs_inode *ri, uint8_t *out)
{
	unsigned int cs = cluster_blocks(ri), k;
	uint8_t *in = malloc((size_t)cs * wr_blksize(w));
	int ret = 0;

	if (!in)
		return -ENOMEM;
	for (k = 1; k < cs && !ret; k++) {
		uint32_t addr = wr_dnode_addr_at(dn, k);

		if (!f2fs_geo_in_main(&w->fs->geo, addr))
			break;
		ret = wr_read_block(w, addr, in + (size_t)(k - 1) * wr_blksize(w));
	}
	if (!ret)
		ret =
		    f2fs_cluster_decompress(ri->i_compress_algorithm, in, k - 1,
					    le16_get(ri->i_compress_flag) & F2FS_COMPRESS_CHKSUM_FL,
					    out, cs, wr_blksize(w));
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
	cluster = malloc((size_t)cs * wr_blksize(w));
	ret = cluster ? read_compressed(w, &dn, &in->blk.i, cluster) : -ENOMEM;
	if (!ret) {
		memcpy(buf, cluster + (size_t)(index % cs) * wr_blksize(w), wr_blksize(w));
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
			ret = wr_write_block(w, addr, cdata + (size_t)(k - 1) * wr_blksize(w),
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
	uint64_t first = c * cs, end = file_blocks(w, &in->blk.i);
	uint8_t *data = NULL, *cdata = NULL;
	struct wr_dnode dn;
	int ret;

	ret = wr_dnode_get(w, in, first, true, &dn);
	if (ret)
		return ret;
	release_cluster(w, in, &dn, cs);
	if (first + cs <= end) {
		data = malloc((size_t)cs * wr_blksize(w));
		cdata = malloc((size_t)cs * wr_blksize(w));
		ret = data && cdata ? 0 : -ENOMEM;
		for (k = 0; k < cs && !ret; k++)
			ret = wr_page_copy(w, wi, first + k, data + (size_t)k * wr_blksize(w))
				  ? 0
				  : -EIO;
		if (!ret)
			ret = f2fs_cluster_compress(in->blk.i.i_compress_algorithm, data, cs, 1,
						    cdata, wr_blksize(w));
		if (ret > 0) {
			blocks = (unsigned int)ret;
			ret = write_compressed(w, in, &dn, cs, cdata, blocks);
		}
	}
	wr_dnode_put(&dn);
	/* a partial cluster, or one that saves no block: plain blocks */
	for (k = 0; !ret && !blocks && k < cs && first + k < end; k++)
		ret = wr_write_cached_page(w, in, wi, first + k);
	free(data);
	free(cdata);
	return ret;
}

int wr_compressed_writepages(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi)
{
	unsigned int cs = cluster_blocks(&in->blk.i), k;
	uint64_t end = file_blocks(w, &in->blk.i), c, *clusters;
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

/* Give back the reservation of the compressed cluster at @dn: the blocks released. */
static unsigned int release_saved(struct f2fs_wr *w, struct wr_dnode *dn, unsigned int cs)
{
	unsigned int k, stored = 0;

	for (k = 1; k < cs; k++) {
		uint32_t addr = wr_dnode_addr_at(dn, k);

		if (addr == F2FS_NEW_ADDR)
			wr_dnode_set_addr_at(w, dn, k, F2FS_NULL_ADDR);
		else if (addr != F2FS_NULL_ADDR)
			stored++;
	}
	return cs - stored;
}

/* Are the stored slots of the cluster at @dn blocks of the main area (the kernel checks first)? */
static bool cluster_addrs_ok(struct f2fs_wr *w, const struct wr_dnode *dn, unsigned int cs)
{
	unsigned int k;

	for (k = 1; k < cs; k++) {
		uint32_t addr = wr_dnode_addr_at(dn, k);

		if (addr != F2FS_NEW_ADDR && addr != F2FS_NULL_ADDR &&
		    !f2fs_geo_in_main(&w->fs->geo, addr))
			return false;
	}
	return true;
}

int wr_compress_release(struct f2fs_wr *w, struct wr_node *in, uint64_t *released)
{
	struct f2fs_inode *ri = &in->blk.i;
	unsigned int cs = cluster_blocks(ri);
	uint64_t end = file_blocks(w, ri), c;
	int ret;

	*released = 0;
	if (!wr_compressed(ri) || wr_compress_released(ri))
		return -EINVAL;
	ret = wr_writepages(w, in->ino, F2FS_WB_ALL);
	if (ret)
		return ret;
	ri->i_inline |= F2FS_COMPRESS_RELEASED;
	wr_inode_touch(w, in, true, false);
	for (c = 0; c * cs < end && le64_get(ri->i_compr_blocks); c++) {
		struct wr_dnode dn;
		unsigned int n;

		ret = wr_dnode_get(w, in, c * cs, false, &dn);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		if (wr_dnode_addr_at(&dn, 0) != F2FS_COMPRESS_ADDR) {
			wr_dnode_put(&dn);
			continue;
		}
		if (!cluster_addrs_ok(w, &dn, cs)) {
			wr_dnode_put(&dn);
			return -EUCLEAN;
		}
		n = release_saved(w, &dn, cs);
		wr_dnode_put(&dn);
		if (n > le64_get(ri->i_compr_blocks))
			return -EUCLEAN;
		ri->i_compr_blocks = le64_put(le64_get(ri->i_compr_blocks) - n);
		wr_inode_add_blocks(w, in, -(int64_t)n);
		w->valid_blocks -= n;
		*released += n;
	}
	wr_node_dirty(w, in);
	return 0;
}
