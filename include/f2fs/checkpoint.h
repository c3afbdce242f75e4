/* SPDX-License-Identifier: GPL-2.0 */
/* Checkpoint blocks: checksums, and the nat_bits trailer of a pack. */
#ifndef F2FS_CHECKPOINT_H
#define F2FS_CHECKPOINT_H

#include <stdint.h>

#include "f2fs/format.h"

/* Checksum of a checkpoint block per its checksum_offset. */
uint32_t f2fs_cp_crc(const struct f2fs_checkpoint *cp);

/* Store f2fs_cp_crc() at checksum_offset. */
void f2fs_cp_seal(struct f2fs_checkpoint *cp);

/* Bytes of one nat_bits bitmap (full or empty), and blocks of the whole trailer. */
uint32_t f2fs_nat_bits_bytes(uint32_t segment_count_nat);
uint32_t f2fs_nat_bits_blocks(uint32_t segment_count_nat);

/* The 8-byte tag that ties nat_bits to their checkpoint: version | crc << 32. */
uint64_t f2fs_nat_bits_tag(const struct f2fs_checkpoint *cp);

/*
 * Checkpoint flags by name, as upstream's "checkpoint state" line spells
 * them: f2fs_cp_flag_bit(i) is the i-th flag in the order that line lists
 * them (CP_UMOUNT_FLAG, "unmount", last), 0 past the end;
 * f2fs_cp_flag_name() is a flag's name, or NULL for a bit without one.
 */
uint32_t f2fs_cp_flag_bit(unsigned int i);
const char *f2fs_cp_flag_name(uint32_t bit);

/* Bit helpers for on-disk bitmaps: SIT maps count from the most significant bit. */
static inline void f2fs_set_bit_msb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] |= (uint8_t)(0x80u >> (nr & 7));
}

static inline int f2fs_test_bit_msb(const uint8_t *map, unsigned int nr)
{
	return (map[nr >> 3] >> (7 - (nr & 7))) & 1;
}

/* ... dentry bitmaps and nat_bits from the least significant one. */
static inline void f2fs_set_bit_lsb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}

static inline void f2fs_clear_bit_lsb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] &= (uint8_t) ~(1u << (nr & 7));
}

static inline int f2fs_test_bit_lsb(const uint8_t *map, unsigned int nr)
{
	return (map[nr >> 3] >> (nr & 7)) & 1;
}

#endif
