// SPDX-License-Identifier: GPL-2.0
/*
 * Checkpoint checksums and the nat_bits trailer.  A checkpoint block's CRC
 * covers the bytes before checksum_offset; with the large NAT bitmap layout
 * the CRC sits earlier and the bytes after it are covered too.
 */
#include "config.h"

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/endian.h"

uint32_t f2fs_cp_crc(const struct f2fs_checkpoint *cp, uint32_t blksize)
{
	uint32_t ofs = le32_get(cp->checksum_offset), last = blksize - sizeof(uint32_t);
	uint32_t crc;

	if (ofs > last)
		ofs = last;
	crc = f2fs_block_crc(cp, ofs);
	if (ofs < last) {
		ofs += sizeof(uint32_t);
		crc = f2fs_crc32(crc, (const uint8_t *)cp + ofs, blksize - ofs);
	}
	return crc;
}

void f2fs_cp_seal(struct f2fs_checkpoint *cp, uint32_t blksize)
{
	uint32_t ofs = le32_get(cp->checksum_offset), last = blksize - sizeof(uint32_t);
	uint32_t crc = le32_put(f2fs_cp_crc(cp, blksize));

	if (ofs > last)
		ofs = last; /* where f2fs_cp_crc() stopped */

	__builtin_memcpy((uint8_t *)cp + ofs, &crc, sizeof(crc));
}

uint32_t f2fs_nat_bits_bytes(uint32_t segment_count_nat)
{
	/* one bit per NAT block of one copy: (segments / 2) * 512 / 8 */
	return segment_count_nat << 5;
}

uint32_t f2fs_nat_bits_blocks(uint32_t segment_count_nat, uint32_t blksize)
{
	uint32_t bytes = 8 + 2 * f2fs_nat_bits_bytes(segment_count_nat);

	return (bytes + blksize - 1) / blksize;
}

uint64_t f2fs_nat_bits_tag(const struct f2fs_checkpoint *cp)
{
	uint32_t ofs = le32_get(cp->checksum_offset);
	uint32_t crc;

	__builtin_memcpy(&crc, (const uint8_t *)cp + ofs, sizeof(crc));
	return le64_get(cp->checkpoint_ver) | ((uint64_t)le32_get(crc) << 32);
}

static const struct {
	uint32_t bit;
	const char *name;
} cp_flags[] = {
    {CP_QUOTA_NEED_FSCK_FLAG, "quota_need_fsck"},
    {CP_LARGE_NAT_BITMAP_FLAG, "large_nat_bitmap"},
    {CP_NOCRC_RECOVERY_FLAG, "allow_nocrc"},
    {CP_TRIMMED_FLAG, "trimmed"},
    {CP_NAT_BITS_FLAG, "nat_bits"},
    {CP_CRC_RECOVERY_FLAG, "crc"},
    {CP_FASTBOOT_FLAG, "fastboot"},
    {CP_FSCK_FLAG, "fsck"},
    {CP_ERROR_FLAG, "error"},
    {CP_COMPACT_SUM_FLAG, "compacted_summary"},
    {CP_ORPHAN_PRESENT_FLAG, "orphan_inodes"},
    {CP_DISABLED_FLAG, "disabled"},
    {CP_RESIZEFS_FLAG, "resizefs"},
    {CP_UMOUNT_FLAG, "unmount"},
};

#define N_CP_FLAGS (sizeof(cp_flags) / sizeof(cp_flags[0]))

uint32_t f2fs_cp_flag_bit(unsigned int i)
{
	return i < N_CP_FLAGS ? cp_flags[i].bit : 0;
}

const char *f2fs_cp_flag_name(uint32_t bit)
{
	size_t i;

	for (i = 0; i < N_CP_FLAGS; i++)
		if (cp_flags[i].bit == bit)
			return cp_flags[i].name;
	return NULL;
}

void f2fs_pack_layout(const struct f2fs_checkpoint *cp, uint32_t cp_payload,
		      struct f2fs_pack_layout *l)
{
	uint32_t flags = le32_get(cp->ckpt_flags);
	/* the node summaries and the closing copy of block 0 follow the data summaries */
	uint32_t tail;

	l->total = le32_get(cp->cp_pack_total_block_count);
	l->payload = cp_payload;
	l->orphan_start = 1 + cp_payload;
	l->compacted = flags & CP_COMPACT_SUM_FLAG;
	l->node_sums = flags & (CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG);
	tail = 1 + (l->node_sums ? F2FS_NR_CURSEG_NODE_TYPE : 0);
	l->last = l->total ? l->total - 1 : 0;
	l->node_sum_start = l->total >= tail ? l->total - tail : 0;
	l->data_sum_end = l->node_sum_start;
	if (l->compacted)
		l->data_sum_start = le32_get(cp->cp_pack_start_sum);
	else
		l->data_sum_start = l->data_sum_end >= F2FS_NR_CURSEG_DATA_TYPE
					? l->data_sum_end - F2FS_NR_CURSEG_DATA_TYPE
					: 0;
}

void f2fs_pack_journal_location(const struct f2fs_blkgeo *g, const struct f2fs_pack_layout *l,
				bool sit, uint32_t *blk, size_t *offset)
{
	if (l->compacted) {
		/* the first compacted block opens with the NAT journal, then the SIT's */
		*blk = l->data_sum_start;
		*offset = sit ? g->sum_journal_size : 0;
	} else {
		/* hot data's summary block carries the NAT journal, cold data's the SIT's */
		*blk = l->data_sum_start + (sit ? F2FS_CURSEG_COLD_DATA : F2FS_CURSEG_HOT_DATA);
		*offset = g->sum_journal_offset;
	}
}

uint32_t f2fs_log_first_used(const uint8_t *map, uint32_t off, bool ssr)
{
	uint32_t end = ssr ? off + 1 : F2FS_DEFAULT_BLKS_PER_SEG;

	for (; off < end && off < F2FS_DEFAULT_BLKS_PER_SEG; off++)
		if (f2fs_test_bit_msb(map, off))
			return off;
	return F2FS_DEFAULT_BLKS_PER_SEG;
}
