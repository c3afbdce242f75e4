// SPDX-License-Identifier: GPL-2.0
/*
 * Inode geometry and checksums.  Extra attributes grow in a fixed order, and
 * a feature's field is only present when the extra area reaches it, so the
 * size mkfs chooses is that of the last field any enabled feature needs.
 */
#include "config.h"

#include <stddef.h>

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

uint32_t f2fs_inode_chksum(const struct f2fs_node *node, uint32_t seed)
{
	const uint8_t *raw = (const uint8_t *)node;
	const size_t cs_ofs = offsetof(struct f2fs_inode, i_inode_checksum);
	const uint32_t zero = 0;
	uint32_t ino = node->footer.ino, gen = node->i.i_generation, crc;

	crc = f2fs_crc32(seed, &ino, sizeof(ino));
	crc = f2fs_crc32(crc, &gen, sizeof(gen));
	crc = f2fs_crc32(crc, raw, cs_ofs);
	crc = f2fs_crc32(crc, &zero, sizeof(zero));
	return f2fs_crc32(crc, raw + cs_ofs + sizeof(zero), F2FS_BLKSIZE - cs_ofs - sizeof(zero));
}

void f2fs_inode_seal(struct f2fs_node *node, uint32_t features, uint32_t seed)
{
	if (features & F2FS_FEATURE_INODE_CHKSUM)
		node->i.i_inode_checksum = le32_put(f2fs_inode_chksum(node, seed));
}
