/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a checkpoint pack carries besides the checkpoint block itself: the
 * SIT and NAT version bitmaps (in the block, or in cp_payload blocks), the
 * orphan inode list, the NAT and SIT journals and the summary blocks of the
 * six open logs (compacted or normal data summaries; node summaries from
 * the pack after a clean unmount, else from the SSA).
 */
#ifndef F2FS_SUMMARY_H
#define F2FS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "f2fs/blkgeo.h"
#include "f2fs/format.h"
#include "f2fs/volume.h"

struct f2fs_cp_data {
	const uint8_t *sit_bitmap; /* into the copy of the pack's head, below */
	uint32_t sit_bitmap_bytes;
	const uint8_t *nat_bitmap;
	uint32_t nat_bitmap_bytes;
	/*
	 * The journals, as large as the volume's block size makes them (read
	 * entries with f2fs_nat_journal_at/f2fs_sit_journal_at); n_nats and
	 * n_sits validated against the geometry's nat/sit_journal_entries.
	 */
	union {
		struct f2fs_journal nat_journal;
		uint8_t nat_journal_raw[F2FS_MAX_SUM_JOURNAL_SIZE];
	};
	union {
		struct f2fs_journal sit_journal;
		uint8_t sit_journal_raw[F2FS_MAX_SUM_JOURNAL_SIZE];
	};
	/*
	 * Per open log, indexed by enum f2fs_curseg_type, in the 4 KiB layout
	 * whatever the block size (a segment's 512 entries and the footer's
	 * entry type; journal parts zeroed).
	 */
	struct f2fs_summary_block curseg_sum[F2FS_NR_CURSEG_TYPE];
	uint32_t curseg_segno[F2FS_NR_CURSEG_TYPE];
	uint16_t curseg_blkoff[F2FS_NR_CURSEG_TYPE];
	uint32_t *orphans; /* inode numbers from the orphan blocks */
	uint32_t orphan_count;
	uint8_t *head; /* checkpoint block + cp_payload blocks, as read */
};

/* The open log (enum f2fs_curseg_type) writing main-area segment @segno, or -1. */
int f2fs_cp_log_of_segment(const struct f2fs_cp_data *d, uint32_t segno);

/* The open log whose current segment lies in section @secno, or -1. */
int f2fs_cp_log_of_section(const struct f2fs_cp_data *d, uint32_t segs_per_sec, uint32_t secno);

#endif
