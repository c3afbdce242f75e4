/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The segment information table as the checkpoint left it: for every
 * main-area segment its type, valid-block count and bitmap, from the SIT
 * copy the checkpoint's bitmap selects, overlaid with the SIT journal.
 * Per-section counts are kept beside the per-segment ones and built once.
 */
#ifndef F2FS_SIT_H
#define F2FS_SIT_H

#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/summary.h"

struct f2fs_seg_entry {
	uint16_t valid;	     /* vblocks as stored (low 10 bits) */
	uint16_t ckpt_valid; /* valid blocks as of the checkpoint */
	uint8_t type;	     /* enum f2fs_curseg_type, as stored (high 6 bits) */
	uint8_t from_journal;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	uint64_t mtime;
};

struct f2fs_sec_entry {
	uint32_t valid;	     /* sum of its segments' valid */
	uint32_t ckpt_valid; /* sum of its segments' ckpt_valid */
};

/* A value the loader found but did not trust; fsck reports these. */
enum f2fs_sit_anomaly_kind {
	F2FS_SIT_BAD_VBLOCKS,	  /* vblocks > blocks per segment */
	F2FS_SIT_VBLOCKS_BITMAP,  /* vblocks != popcount(map) */
	F2FS_SIT_BAD_TYPE,	  /* type > cold node */
	F2FS_SIT_JOURNAL_SEGNO,	  /* journal entry for a segment outside the main area */
};

struct f2fs_sit_anomaly {
	enum f2fs_sit_anomaly_kind kind;
	uint32_t segno;
	uint32_t value;	   /* the stored value */
	uint32_t expected; /* what it should be, where known */
};

struct f2fs_sit_table {
	uint32_t segments; /* main-area segments */
	uint32_t segs_per_sec;
	uint32_t sections;
	struct f2fs_seg_entry *seg;
	struct f2fs_sec_entry *sec;
	uint32_t free_segments; /* segments with no valid block that are not open logs */
	struct f2fs_sit_anomaly *anomalies;
	uint32_t anomaly_count;
};

/*
 * Load the SIT.  The area is read in large sequential chunks.  Returns 0, or
 * a negative errno with a one-line reason (I/O, impossible geometry);
 * inconsistent entries are not errors but anomalies.
 */
int f2fs_sit_load(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_cp_data *cpd, struct f2fs_sit_table **out, char *why,
		  size_t why_len);

void f2fs_sit_free(struct f2fs_sit_table *t);

/* Valid blocks of a section, O(1). */
static inline uint32_t f2fs_sit_sec_valid(const struct f2fs_sit_table *t, uint32_t secno)
{
	return secno < t->sections ? t->sec[secno].valid : 0;
}

#endif
