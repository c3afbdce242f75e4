/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading files and directories of a volume, for tools that look at what a
 * volume holds (dump.f2fs) rather than check it.  Everything read from disk
 * is treated as untrusted: every nid is looked up in the NAT and must name a
 * node block inside the main area whose footer agrees (nid, owning inode,
 * offset in the tree), every data address must lie inside the main area, and
 * every directory entry must fit its block.  Anything that does not is an
 * -EUCLEAN error, never a crash or an out-of-bounds read.
 *
 * The functions take the superblock for the main-area bounds, and the
 * feature bits separately (normally le32 sb->feature) because the inode
 * geometry depends on them.
 */
#ifndef F2FS_FILE_H
#define F2FS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/format.h"
#include "f2fs/nat.h"

/* Offsets of the inode's five node pointers in the node tree (footer offsets). */
#define F2FS_NODE_OFS_DIRECT1	0x1u
#define F2FS_NODE_OFS_DIRECT2	0x2u
#define F2FS_NODE_OFS_INDIRECT1 0x3u
#define F2FS_NODE_OFS_INDIRECT2 (4u + F2FS_NIDS_PER_BLOCK)
#define F2FS_NODE_OFS_DINDIRECT (5u + 2u * F2FS_NIDS_PER_BLOCK)

/*
 * Read node @nid of inode @ino into @out: its NAT entry must exist with a
 * block address in the main area, and the block's footer must carry @nid
 * and @ino.  Returns 0, -ENOENT when the nid is outside the NAT or free,
 * -EUCLEAN for an address or footer that does not fit, or a read error.
 */
int f2fs_read_node(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		   const struct f2fs_nat_table *nat, uint32_t nid, uint32_t ino,
		   struct f2fs_node *out);

/* f2fs_read_node() of an inode: nid == ino, and footer offset 0. */
int f2fs_read_inode(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		    const struct f2fs_nat_table *nat, uint32_t ino, struct f2fs_node *out);

/*
 * Called once per data address, in increasing file-block order.  @blkaddr
 * is a main-area address, or F2FS_NEW_ADDR (allocated, never written: reads
 * as zeros) or F2FS_COMPRESS_ADDR (marks a compressed cluster) for the
 * caller to interpret.  A non-zero return stops the walk and is returned.
 */
typedef int (*f2fs_block_fn)(uint64_t file_block, uint32_t blkaddr, void *arg);

/*
 * Walk the data addresses of @inode (as read by f2fs_read_inode): those in
 * the inode, then through the two direct, two indirect and the double
 * indirect node.  NULL addresses and absent nodes are skipped (they are
 * holes).  Inodes with inline data or inline dentries have no blocks; the
 * walk returns 0 without calling @fn.  Returns 0, @fn's non-zero value,
 * -EUCLEAN at the first node or address that does not fit, -ENOMEM, or a
 * read error.
 */
int f2fs_file_for_each_block(struct f2fs_device *dev, const struct f2fs_super_block *sb,
			     const struct f2fs_nat_table *nat, const struct f2fs_node *inode,
			     uint32_t features, f2fs_block_fn fn, void *arg);

/*
 * Called once per directory entry other than "." and "..".  @name is
 * NUL-terminated (a copy; @len bytes, which may contain other bytes than
 * printable ones), @type an enum f2fs_file_type.  A non-zero return stops
 * the walk and is returned.
 */
typedef int (*f2fs_dentry_fn)(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg);

/*
 * Walk the entries of directory @dir: its inline dentry area, or every
 * dentry block in file order.  A slot with a zero or oversized name length,
 * or a name running past the area, is -EUCLEAN.  Returns as
 * f2fs_file_for_each_block(); -ENOTDIR when @dir is not a directory.
 */
int f2fs_dir_for_each_entry(struct f2fs_device *dev, const struct f2fs_super_block *sb,
			    const struct f2fs_nat_table *nat, const struct f2fs_node *dir,
			    uint32_t features, f2fs_dentry_fn fn, void *arg);

/* Is @blkaddr inside the main area of @sb? */
int f2fs_blkaddr_in_main(const struct f2fs_super_block *sb, uint64_t blkaddr);

#endif
