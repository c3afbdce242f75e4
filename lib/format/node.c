// SPDX-License-Identifier: GPL-2.0
/*
 * Inode geometry and checksums.  Extra attributes grow in a fixed order, and
 * a feature's field is only present when the extra area reaches it, so the
 * size mkfs chooses is that of the last field any enabled feature needs.
 * How long i_addr[] is, where i_nid[] and the footer lie and how many
 * children an indirect node has depend on the block size: every function
 * here that needs them takes the volume's struct f2fs_blkgeo.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/crc.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"

uint16_t f2fs_extra_isize_for(uint32_t features)
{
	size_t end = offsetof(struct f2fs_inode, i_projid);

	if (!(features & F2FS_FEATURE_EXTRA_ATTR))
		return 0;
	if (features & F2FS_FEATURE_PRJQUOTA)
		end = offsetof(struct f2fs_inode, i_inode_checksum);
	if (features & F2FS_FEATURE_INODE_CHKSUM)
		end = offsetof(struct f2fs_inode, i_crtime);
	if (features & F2FS_FEATURE_INODE_CRTIME)
		end = offsetof(struct f2fs_inode, i_compr_blocks);
	if (features & F2FS_FEATURE_COMPRESSION)
		end = F2FS_EXTRA_ATTR_END;
	return (uint16_t)(end - F2FS_EXTRA_ISIZE_OFFSET);
}

unsigned int f2fs_inode_first_addr(const struct f2fs_inode *ri)
{
	if (!(ri->i_inline & F2FS_EXTRA_ATTR))
		return 0;
	return le16_get(ri->i_extra_isize) / sizeof(uint32_t);
}

uint32_t f2fs_inode_chksum_seed(const uint8_t uuid[16])
{
	return f2fs_crc32(0xffffffffu, uuid, 16);
}

uint32_t f2fs_inode_chksum(const struct f2fs_blkgeo *g, const struct f2fs_node *node, uint32_t seed)
{
	const uint8_t *raw = (const uint8_t *)node;
	const size_t cs_ofs = offsetof(struct f2fs_inode, i_inode_checksum);
	const uint32_t zero = 0;
	uint32_t ino = f2fs_node_footer(g, node)->ino, gen = node->i.i_generation, crc;

	crc = f2fs_crc32(seed, &ino, sizeof(ino));
	crc = f2fs_crc32(crc, &gen, sizeof(gen));
	crc = f2fs_crc32(crc, raw, cs_ofs);
	crc = f2fs_crc32(crc, &zero, sizeof(zero));
	return f2fs_crc32(crc, raw + cs_ofs + sizeof(zero), g->blksize - cs_ofs - sizeof(zero));
}

void f2fs_inode_seal(const struct f2fs_blkgeo *g, struct f2fs_node *node, uint32_t features,
		     uint32_t seed)
{
	if (features & F2FS_FEATURE_INODE_CHKSUM)
		node->i.i_inode_checksum = le32_put(f2fs_inode_chksum(g, node, seed));
}

unsigned int f2fs_inode_inline_xattr_addrs(const struct f2fs_inode *ri, uint32_t features)
{
	bool has_xattr = ri->i_inline & F2FS_INLINE_XATTR;
	bool has_dentry = ri->i_inline & F2FS_INLINE_DENTRY;

	/*
	 * With flexible sizing the inode says how much, whether or not its
	 * inline-xattr flag is set, and whatever i_extra_isize says: the
	 * kernel takes the field as it is (do_read_inode) and lays out i_addr
	 * after it; otherwise a fixed default
	 */
	if ((features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && (ri->i_inline & F2FS_EXTRA_ATTR))
		return le16_get(ri->i_inline_xattr_size);
	return has_xattr || has_dentry ? F2FS_INLINE_XATTR_ADDRS : 0;
}

static unsigned int cluster_align(const struct f2fs_inode *ri, unsigned int addrs)
{
	unsigned int cluster;

	if (!(le32_get(ri->i_flags) & F2FS_COMPR_FL) || !(ri->i_inline & F2FS_EXTRA_ATTR) ||
	    ri->i_log_cluster_size >= 16)
		return addrs;
	cluster = 1u << ri->i_log_cluster_size;
	return addrs / cluster * cluster;
}

unsigned int f2fs_inode_addrs(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
			      uint32_t features)
{
	unsigned int used = f2fs_inode_first_addr(ri) + f2fs_inode_inline_xattr_addrs(ri, features);

	if (used >= g->addrs_per_inode)
		return 0;
	return cluster_align(ri, g->addrs_per_inode - used);
}

bool f2fs_inode_addr_range(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
			   uint32_t features, unsigned int *first, unsigned int *count)
{
	*first = f2fs_inode_first_addr(ri);
	*count = f2fs_inode_addrs(g, ri, features);
	return *first <= g->addrs_per_inode && *count <= g->addrs_per_inode - *first;
}

unsigned int f2fs_direct_addrs(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri)
{
	return cluster_align(ri, g->addrs_per_block);
}

bool f2fs_node_addr_range(const struct f2fs_blkgeo *g, const struct f2fs_node *n, uint32_t ofs,
			  uint32_t features, unsigned int per_direct, unsigned int *start,
			  unsigned int *count)
{
	const struct f2fs_inode *ri = &n->i;
	unsigned int first;

	*start = 0;
	*count = 0;
	if (ofs != 0) {
		if (f2fs_node_ofs_is_direct(g, ofs))
			*count = per_direct;
		return true;
	}
	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return true;
	if (!f2fs_inode_addr_range(g, ri, features, &first, count)) {
		*count = 0;
		return false;
	}
	*start = (unsigned int)F2FS_INODE_ADDR_WORD + first;
	return true;
}

unsigned int f2fs_inline_data_bytes(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
				    uint32_t features)
{
	unsigned int used = f2fs_inode_first_addr(ri) +
			    f2fs_inode_inline_xattr_addrs(ri, features) +
			    1; /* the reserved word before inline data */

	if (used >= g->addrs_per_inode)
		return 0;
	return (g->addrs_per_inode - used) * sizeof(uint32_t);
}

const uint8_t *f2fs_inline_data(const struct f2fs_inode *ri)
{
	return (const uint8_t *)&ri->i_addr[f2fs_inode_first_addr(ri) + 1];
}

void f2fs_inline_dentry_geometry(unsigned int bytes, struct f2fs_inline_dentry_geo *g)
{
	/* each slot costs an entry, a name slot and one bitmap bit */
	g->nr = bytes * 8 / ((F2FS_DIR_ENTRY_SIZE + F2FS_SLOT_LEN) * 8 + 1);
	g->bitmap_size = (g->nr + 7) / 8;
	g->reserved = bytes - ((F2FS_DIR_ENTRY_SIZE + F2FS_SLOT_LEN) * g->nr + g->bitmap_size);
}

/* The file types an inode's mode and a directory entry can name, side by side. */
static const struct {
	uint16_t fmt; /* S_IFMT bits */
	uint8_t type; /* F2FS_FT_* */
} file_types[] = {
    {S_IFREG, F2FS_FT_REG_FILE}, {S_IFDIR, F2FS_FT_DIR},  {S_IFCHR, F2FS_FT_CHRDEV},
    {S_IFBLK, F2FS_FT_BLKDEV},	 {S_IFIFO, F2FS_FT_FIFO}, {S_IFSOCK, F2FS_FT_SOCK},
    {S_IFLNK, F2FS_FT_SYMLINK},
};

uint8_t f2fs_mode_file_type(uint16_t mode)
{
	size_t i;

	for (i = 0; i < sizeof(file_types) / sizeof(file_types[0]); i++)
		if (file_types[i].fmt == (mode & S_IFMT))
			return file_types[i].type;
	return F2FS_FT_UNKNOWN;
}

uint16_t f2fs_file_type_mode(uint8_t type)
{
	size_t i;

	for (i = 0; i < sizeof(file_types) / sizeof(file_types[0]); i++)
		if (file_types[i].type == type)
			return file_types[i].fmt;
	return 0;
}

uint32_t f2fs_node_ofs_indirect2(const struct f2fs_blkgeo *g)
{
	return 4u + g->nids_per_block;
}

uint32_t f2fs_node_ofs_dindirect(const struct f2fs_blkgeo *g)
{
	return 5u + 2u * g->nids_per_block;
}

uint32_t f2fs_inode_nid_ofs(const struct f2fs_blkgeo *g, unsigned int i)
{
	const uint32_t ofs[F2FS_DEF_NIDS_PER_INODE] = {
	    F2FS_NODE_OFS_DIRECT1, F2FS_NODE_OFS_DIRECT2, F2FS_NODE_OFS_INDIRECT1,
	    f2fs_node_ofs_indirect2(g), f2fs_node_ofs_dindirect(g)};

	return i < F2FS_DEF_NIDS_PER_INODE ? ofs[i] : 0;
}

unsigned int f2fs_inode_nid_depth(unsigned int i)
{
	return i < 2 ? 0 : i < 4 ? 1 : 2;
}

uint32_t f2fs_node_child_ofs(const struct f2fs_blkgeo *g, uint32_t ofs, unsigned int depth,
			     unsigned int i)
{
	/* an indirect node's children follow it; a double indirect node's
	 * children are indirect nodes, each followed by its own N children */
	if (depth == 1)
		return ofs + 1 + i;
	return ofs + 1 + i * (g->nids_per_block + 1);
}

bool f2fs_node_ofs_is_direct(const struct f2fs_blkgeo *g, uint32_t ofs)
{
	const uint32_t n = g->nids_per_block, dind = f2fs_node_ofs_dindirect(g);

	if (ofs == 0 || ofs == F2FS_NODE_OFS_INDIRECT1 || ofs == f2fs_node_ofs_indirect2(g) ||
	    ofs == dind)
		return false;
	if (ofs > dind + n * (n + 1))
		return false; /* past the tree: the xattr node's 0x1FFFFFFF too */
	if (ofs > dind)
		return (ofs - dind - 1) % (n + 1) != 0;
	return true;
}

uint64_t f2fs_node_first_block(const struct f2fs_blkgeo *g, uint32_t ofs, unsigned int inode_addrs,
			       unsigned int per_direct)
{
	const uint64_t n = g->nids_per_block;
	const uint32_t dind = f2fs_node_ofs_dindirect(g);
	uint64_t direct_before; /* direct nodes that precede this node in file order */

	if (ofs == 0)
		return 0;
	if (ofs <= F2FS_NODE_OFS_DIRECT2) {
		direct_before = ofs - 1;
	} else if (ofs < dind) {
		/* 3 is the first indirect node, 4 + n the second; skip both */
		uint64_t rel = ofs - F2FS_NODE_OFS_INDIRECT1;

		direct_before = 2 + rel - rel / (n + 1) - (f2fs_node_ofs_is_direct(g, ofs) ? 1 : 0);
	} else {
		/* past the double indirect node, each indirect child is followed by n */
		uint64_t rel = ofs - dind;

		if (rel == 0)
			return inode_addrs + (2 + 2 * n) * (uint64_t)per_direct;
		rel--;
		direct_before =
		    2 + 2 * n + rel - rel / (n + 1) - (f2fs_node_ofs_is_direct(g, ofs) ? 1 : 0);
	}
	return inode_addrs + direct_before * per_direct;
}

int f2fs_node_path(const struct f2fs_blkgeo *g, uint64_t index, unsigned int inode_addrs,
		   unsigned int per_direct, struct f2fs_node_path *p)
{
	const uint64_t n = g->nids_per_block;
	uint64_t rest = index;
	unsigned int slot;

	memset(p, 0, sizeof(*p));
	if (rest < inode_addrs) {
		p->ofs_in_node = (unsigned int)rest;
		return 0;
	}
	rest -= inode_addrs;
	/* i_nid[0..1]: direct nodes */
	for (slot = 0; slot < 2; slot++) {
		if (rest < per_direct) {
			p->depth = 1;
			p->nid_slot = slot;
			p->node_ofs[1] = f2fs_inode_nid_ofs(g, slot);
			p->ofs_in_node = (unsigned int)rest;
			return 0;
		}
		rest -= per_direct;
	}
	/* i_nid[2..3]: indirect nodes of n direct nodes each */
	for (slot = 2; slot < 4; slot++) {
		if (rest < n * per_direct) {
			p->depth = 2;
			p->nid_slot = slot;
			p->idx[0] = (unsigned int)(rest / per_direct);
			p->node_ofs[1] = f2fs_inode_nid_ofs(g, slot);
			p->node_ofs[2] = f2fs_node_child_ofs(g, p->node_ofs[1], 1, p->idx[0]);
			p->ofs_in_node = (unsigned int)(rest % per_direct);
			return 0;
		}
		rest -= n * per_direct;
	}
	/* i_nid[4]: the double indirect node */
	if (rest < n * n * per_direct) {
		p->depth = 3;
		p->nid_slot = 4;
		p->idx[0] = (unsigned int)(rest / (n * per_direct));
		p->idx[1] = (unsigned int)(rest / per_direct % n);
		p->node_ofs[1] = f2fs_node_ofs_dindirect(g);
		p->node_ofs[2] = f2fs_node_child_ofs(g, p->node_ofs[1], 2, p->idx[0]);
		p->node_ofs[3] = f2fs_node_child_ofs(g, p->node_ofs[2], 1, p->idx[1]);
		p->ofs_in_node = (unsigned int)(rest % per_direct);
		return 0;
	}
	return -EFBIG;
}
