/* SPDX-License-Identifier: GPL-2.0 */
/* Building and checking superblocks. */
#ifndef F2FS_SUPER_H
#define F2FS_SUPER_H

#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/layout.h"

/* Store @l's geometry into @sb (other fields untouched). */
void f2fs_super_set_layout(struct f2fs_super_block *sb, const struct f2fs_layout *l);

/*
 * One device of a multi-device volume as its superblock lists it: the path
 * the kernel opens it by, its segments, and the volume blocks it holds (the
 * first device holds the superblocks and metadata before segment 0 too).
 */
struct f2fs_sb_device {
	char path[F2FS_MAX_PATH_LEN + 1];
	uint32_t segments;
	uint64_t first_blkaddr, last_blkaddr;
};

/*
 * The devices @sb lists, into @out (room for F2FS_MAX_DEVICES): their
 * number, or 0 for a volume on one device (an empty first path, as the
 * kernel reads it).  The list ends at the first empty path after the first.
 */
unsigned int f2fs_super_devices(const struct f2fs_super_block *sb, struct f2fs_sb_device *out);

/* Set checksum_offset and crc when the sb_checksum feature is on. */
void f2fs_super_seal(struct f2fs_super_block *sb);

/*
 * Encode a UTF-8 label as UTF-16LE into @out (zero-padded to @max 2-byte units).
 * Returns the number of units, or -EINVAL (bad UTF-8) / -ENAMETOOLONG.
 */
int f2fs_label_to_utf16(const char *label, void *out, size_t max);

/*
 * Fill the cold and hot extension lists: the defaults, then the user's
 * comma-separated additions (names of 8 bytes or more are skipped with a
 * warning through @warn, when given).
 */
void f2fs_super_set_extensions(struct f2fs_super_block *sb, const char *cold, const char *hot,
			       void (*warn)(const char *ext, void *arg), void *arg);

/*
 * Where the metadata areas' blocks are, from the superblock alone: the
 * first block of checkpoint pack @pack (0 or 1); the blocks of one NAT or
 * SIT copy (each area holds two copies); the nids a NAT copy can map; the
 * address of SIT block @idx in copy @copy (SIT copies are the two halves
 * of the area; NAT copies alternate segment by segment: f2fs_nat_block_addr()).
 */
uint64_t f2fs_sb_cp_pack_addr(const struct f2fs_super_block *sb, unsigned int pack);

/*
 * Bytes per block of @sb: 1 << log_blocksize when that is a block size
 * f2fs_blkgeo_init() accepts (f2fs_volume_open refuses others), else 4096.
 */
uint32_t f2fs_sb_blksize(const struct f2fs_super_block *sb);
uint64_t f2fs_sb_nat_blocks(const struct f2fs_super_block *sb);
uint64_t f2fs_sb_max_nid(const struct f2fs_super_block *sb);
uint64_t f2fs_sb_sit_blocks(const struct f2fs_super_block *sb);
uint64_t f2fs_sb_sit_block_addr(const struct f2fs_super_block *sb, uint32_t idx, int copy);

#endif
