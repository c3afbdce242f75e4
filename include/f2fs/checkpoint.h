/* SPDX-License-Identifier: GPL-2.0 */
/* Checkpoint blocks: checksums, and the nat_bits trailer of a pack. */
#ifndef F2FS_CHECKPOINT_H
#define F2FS_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/bitops.h"
#include "f2fs/blkgeo.h"
#include "f2fs/format.h"

/*
 * Checksum of a checkpoint block of @blksize bytes per its checksum_offset
 * (the last word of the block, or right after the header with a large NAT
 * bitmap, when the checksum skips its own word).
 */
uint32_t f2fs_cp_crc(const struct f2fs_checkpoint *cp, uint32_t blksize);

/* Store f2fs_cp_crc() at checksum_offset. */
void f2fs_cp_seal(struct f2fs_checkpoint *cp, uint32_t blksize);

/*
 * Where the parts of a checkpoint pack lie, in blocks from its first block:
 * the checkpoint block, cp_payload blocks (large SIT/NAT bitmaps), orphan
 * blocks, the data summaries (one to three compacted blocks, or three
 * normal ones), the three node summaries when the pack was written at
 * umount or fastboot, and a copy of the checkpoint block last.  Fields are
 * computed from the checkpoint as stored, unvalidated: readers check them
 * against the pack.  The one description of the
 * layout, for the reader, inject's locator and the writer.
 */
struct f2fs_pack_layout {
	uint32_t total;		 /* cp_pack_total_block_count */
	uint32_t payload;	 /* cp_payload blocks from block 1 */
	uint32_t orphan_start;	 /* first orphan block (1 + payload) */
	uint32_t data_sum_start; /* first data summary block */
	uint32_t data_sum_end;	 /* first block past the room for data summaries */
	uint32_t node_sum_start; /* first of the 3 node summaries, when node_sums */
	uint32_t last;		 /* the copy of the checkpoint block */
	bool compacted;		 /* CP_COMPACT_SUM_FLAG */
	bool node_sums;		 /* CP_UMOUNT_FLAG or CP_FASTBOOT_FLAG */
};

void f2fs_pack_layout(const struct f2fs_checkpoint *cp, uint32_t cp_payload,
		      struct f2fs_pack_layout *l);

/*
 * The block (from the pack's start) and byte offset of the NAT or SIT
 * journal, for a volume of geometry @g: the summaries' journal size and
 * offset follow its block size (and packed_ssa).
 */
void f2fs_pack_journal_location(const struct f2fs_blkgeo *g, const struct f2fs_pack_layout *l,
				bool sit, uint32_t *blk, size_t *offset);

/* Bytes of one nat_bits bitmap (full or empty), and blocks of the whole trailer. */
uint32_t f2fs_nat_bits_bytes(uint32_t segment_count_nat);
uint32_t f2fs_nat_bits_blocks(uint32_t segment_count_nat, uint32_t blksize);

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

/* alloc_type[] of a log: appending to a clean segment, or filling a dirty one's holes */
#define F2FS_ALLOC_LFS 0
#define F2FS_ALLOC_SSR 1

/*
 * The first valid block of a log's current segment (SIT bitmap @map) that
 * the log would write over from its next offset @off: @off itself, or,
 * appending (not @ssr), any block after it.  F2FS_DEFAULT_BLKS_PER_SEG
 * when there is none.
 */
uint32_t f2fs_log_first_used(const uint8_t *map, uint32_t off, bool ssr);

#endif
