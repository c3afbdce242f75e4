/* SPDX-License-Identifier: GPL-2.0 */
/* Node blocks: inode geometry that depends on features, and inode checksums. */
#ifndef F2FS_NODE_H
#define F2FS_NODE_H

#include <stdint.h>

#include "f2fs/format.h"

/* Bytes of extra attributes mkfs gives new inodes for @features (0 without extra_attr). */
uint16_t f2fs_extra_isize_for(uint32_t features);

/* Index into i_addr[] of the first data address, after the extra attributes. */
unsigned int f2fs_inode_first_addr(const struct f2fs_inode *ri);

/* The per-volume seed of inode checksums, from the superblock UUID. */
uint32_t f2fs_inode_chksum_seed(const uint8_t uuid[16]);

/* Checksum of an inode block (i_inode_checksum itself counts as zero). */
uint32_t f2fs_inode_chksum(const struct f2fs_node *node, uint32_t seed);

/* Store the checksum when @features has inode_checksum. */
void f2fs_inode_seal(struct f2fs_node *node, uint32_t features, uint32_t seed);

#endif
