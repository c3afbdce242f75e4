/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Node blocks: inode geometry that depends on features and on the block
 * size (struct f2fs_blkgeo, f2fs/blkgeo.h, which also has the footer's
 * accessors), and inode checksums.
 */
#ifndef F2FS_NODE_H
#define F2FS_NODE_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"

/* Bytes of extra attributes mkfs gives new inodes for @features (0 without extra_attr). */
uint16_t f2fs_extra_isize_for(uint32_t features);

/* Index into i_addr[] of the first data address, after the extra attributes. */
unsigned int f2fs_inode_first_addr(const struct f2fs_inode *ri);

/* The per-volume seed of inode checksums, from the superblock UUID. */
uint32_t f2fs_inode_chksum_seed(const uint8_t uuid[16]);

/* Checksum of an inode block (i_inode_checksum itself counts as zero). */
uint32_t f2fs_inode_chksum(const struct f2fs_blkgeo *g, const struct f2fs_node *node,
			   uint32_t seed);

/* Store the checksum when @features has inode_checksum. */
void f2fs_inode_seal(const struct f2fs_blkgeo *g, struct f2fs_node *node, uint32_t features,
		     uint32_t seed);

/*
 * Does extra attribute @field lie inside inode @ri's extra area?  (Past it
 * the same bytes are data addresses: the kernel's F2FS_FITS_IN_INODE.)
 */
#define F2FS_INODE_FITS(ri, field)                                                                 \
	(((ri)->i_inline & F2FS_EXTRA_ATTR) &&                                                     \
	 offsetof(struct f2fs_inode, field) + sizeof((ri)->field) <=                               \
	     F2FS_EXTRA_ISIZE_OFFSET + le16_get((ri)->i_extra_isize))

#define F2FS_COMPR_FL	       0x00000004  /* i_flags: compressed file */
#define F2FS_CASEFOLD_FL       0x40000000  /* i_flags: casefolded directory */
#define F2FS_ENCRYPT_FL	       0x00000800  /* i_flags: encrypted file */
#define F2FS_NODUMP_FL	       0x00000040  /* i_flags: not to be dumped (chattr +d) */
#define F2FS_DEVICE_ALIAS_FL   0x80000000  /* i_flags: a file aliasing a device (device_alias) */
#define F2FS_XATTR_NODE_OFFSET 0x1FFFFFFFu /* node offset of an xattr node */

/* Words of i_addr[] kept for inline xattrs (0 when none). */
unsigned int f2fs_inode_inline_xattr_addrs(const struct f2fs_inode *ri, uint32_t features);

/* Data addresses in the inode itself (after extra attributes and inline xattrs). */
unsigned int f2fs_inode_addrs(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
			      uint32_t features);

/*
 * Where the inode's own data addresses lie: *@count of them from
 * i_addr[*@first].  False when a damaged i_extra_isize would put them past
 * i_addr[]: none may be read then.
 */
bool f2fs_inode_addr_range(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
			   uint32_t features, unsigned int *first, unsigned int *count);

/* Data addresses in one direct node of this inode's file. */
unsigned int f2fs_direct_addrs(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri);

/*
 * A node block read as little-endian 32-bit words: its data addresses and
 * the nids it names are words of it.  An inode's i_addr[] starts at word
 * F2FS_INODE_ADDR_WORD, its i_nid[] at the block geometry's inode_nid_word
 * (it moves with the block size); a direct node's addresses and an
 * indirect node's nids at word 0.
 */
#define F2FS_INODE_ADDR_WORD (offsetof(struct f2fs_inode, i_addr) / sizeof(uint32_t))

/* Word @i of node block @n (@i < blksize / 4), in host order. */
static inline uint32_t f2fs_node_word(const struct f2fs_node *n, unsigned int i)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)n + (size_t)i * sizeof(v), sizeof(v));
	return le32_get(v);
}

static inline void f2fs_node_set_word(struct f2fs_node *n, unsigned int i, uint32_t v)
{
	v = le32_put(v);
	memcpy((uint8_t *)n + (size_t)i * sizeof(v), &v, sizeof(v));
}

/*
 * The data addresses node block @n holds, as its place in the file's tree
 * (tree offset @ofs) makes it: *@count words from word *@start.  An inode
 * (@ofs 0) holds its own, after the extra attributes and inline xattrs, and
 * none with inline data or an inline dentry area; a direct node holds
 * @per_direct (f2fs_direct_addrs() of its inode); any other node none.
 * False (and *@count 0) for an inode whose damaged i_extra_isize would put
 * them past i_addr[]: none may be read then.
 */
bool f2fs_node_addr_range(const struct f2fs_blkgeo *g, const struct f2fs_node *n, uint32_t ofs,
			  uint32_t features, unsigned int per_direct, unsigned int *start,
			  unsigned int *count);

/* Bytes of inline data (or inline dentry area) the inode can hold. */
unsigned int f2fs_inline_data_bytes(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
				    uint32_t features);

/*
 * First byte of inline data inside the inode (one reserved word after the
 * extra area).  Only for an inode whose i_extra_isize was validated (<= 36).
 */
const uint8_t *f2fs_inline_data(const struct f2fs_inode *ri);

/* The dentry file type (F2FS_FT_*) of an inode's i_mode; F2FS_FT_UNKNOWN for none. */
uint8_t f2fs_mode_file_type(uint16_t mode);

/* The S_IFMT bits of a dentry file type; 0 for F2FS_FT_UNKNOWN and out of range. */
uint16_t f2fs_file_type_mode(uint8_t type);

/*
 * The node tree of an inode: i_nid[0..4] name two direct nodes, two
 * indirect nodes and one double indirect node.  Every node's footer carries
 * its offset in the tree, numbered depth first: the inode is 0, the direct
 * nodes 1 and 2, the first indirect node 3 followed by its N children, the
 * second at 4 + N, the double indirect node at 5 + 2N, each of its indirect
 * children followed by their own children (N = the geometry's
 * nids_per_block, so the numbering depends on the block size).  These
 * functions are the one description of that numbering.
 */
#define F2FS_NODE_OFS_DIRECT1	0x1u
#define F2FS_NODE_OFS_DIRECT2	0x2u
#define F2FS_NODE_OFS_INDIRECT1 0x3u

/* Tree offsets of the second indirect node (4 + N) and the double indirect one (5 + 2N). */
uint32_t f2fs_node_ofs_indirect2(const struct f2fs_blkgeo *g);
uint32_t f2fs_node_ofs_dindirect(const struct f2fs_blkgeo *g);

/* Tree offset of the node i_nid[@i] names (@i < F2FS_DEF_NIDS_PER_INODE). */
uint32_t f2fs_inode_nid_ofs(const struct f2fs_blkgeo *g, unsigned int i);

/* Levels between node i_nid[@i] and the data: 0 direct, 1 indirect, 2 double indirect. */
unsigned int f2fs_inode_nid_depth(unsigned int i);

/* Tree offset of child @i of the node at @ofs, which is @depth (1 or 2) levels above data. */
uint32_t f2fs_node_child_ofs(const struct f2fs_blkgeo *g, uint32_t ofs, unsigned int depth,
			     unsigned int i);

/*
 * The first file block mapped by the node at tree offset @ofs (0 for the
 * inode), for an inode with @inode_addrs data addresses of its own and
 * @per_direct per direct node.  For an indirect node it is the first block
 * of its first child.
 */
uint64_t f2fs_node_first_block(const struct f2fs_blkgeo *g, uint32_t ofs, unsigned int inode_addrs,
			       unsigned int per_direct);

/*
 * The way from an inode to the address of file block @index: @depth nodes
 * below the inode (0: the address is in the inode itself), the i_nid[]
 * slot taken, the child index in each indirect node on the way, the tree
 * offset of every node on the path (node_ofs[0] is the inode's, 0) and the
 * address index in the last node.  Returns 0, or -EFBIG past the largest
 * file the tree maps.
 */
struct f2fs_node_path {
	unsigned int depth;
	unsigned int nid_slot;
	unsigned int idx[2];
	uint32_t node_ofs[4];
	unsigned int ofs_in_node;
};
int f2fs_node_path(const struct f2fs_blkgeo *g, uint64_t index, unsigned int inode_addrs,
		   unsigned int per_direct, struct f2fs_node_path *p);

/* Is the node at tree offset @ofs a direct node (one that holds data addresses)? */
bool f2fs_node_ofs_is_direct(const struct f2fs_blkgeo *g, uint32_t ofs);

/* Geometry of an inline dentry area of @bytes bytes. */
struct f2fs_inline_dentry_geo {
	unsigned int nr;	  /* slots */
	unsigned int bitmap_size; /* bytes */
	unsigned int reserved;	  /* bytes between bitmap and entries */
};
void f2fs_inline_dentry_geometry(unsigned int bytes, struct f2fs_inline_dentry_geo *g);

#endif
