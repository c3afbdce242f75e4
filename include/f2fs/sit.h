/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The segment information table as the checkpoint left it: for every
 * main-area segment its type, valid-block count and bitmap, from the SIT
 * copy the checkpoint's bitmap selects, overlaid with the SIT journal.
 * Per-section counts are kept beside the per-segment ones and built once.
 */
#ifndef F2FS_SIT_H
#define F2FS_SIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/geometry.h"
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
	F2FS_SIT_BAD_VBLOCKS,	 /* vblocks > blocks per segment */
	F2FS_SIT_VBLOCKS_BITMAP, /* vblocks != popcount(map) */
	F2FS_SIT_BAD_TYPE,	 /* type > cold node */
	F2FS_SIT_JOURNAL_SEGNO,	 /* journal entry for a segment outside the main area */
};

struct f2fs_sit_anomaly {
	enum f2fs_sit_anomaly_kind kind;
	uint32_t segno;
	uint32_t value;	   /* the stored value */
	uint32_t expected; /* what it should be, where known */
};

struct f2fs_sit_table; /* opaque: reach it through f2fs_fs_sit() */

/* Main-area segments, segments per section, sections. */
uint32_t f2fs_sit_segments(const struct f2fs_sit_table *t);
uint32_t f2fs_sit_segs_per_sec(const struct f2fs_sit_table *t);
uint32_t f2fs_sit_sections(const struct f2fs_sit_table *t);

/* The entry of main-area segment @segno, or NULL past the main area. */
const struct f2fs_seg_entry *f2fs_sit_seg(const struct f2fs_sit_table *t, uint32_t segno);

/*
 * The first segment at or after @segno whose SIT block holds a non-empty
 * entry (f2fs_sit_segments() when none): scans skip the unused space with it.
 */
uint32_t f2fs_sit_next_used(const struct f2fs_sit_table *t, uint32_t segno);

/* Does any SIT block covering segments [@first, @end) hold a non-empty entry? */
bool f2fs_sit_range_used(const struct f2fs_sit_table *t, uint32_t first, uint32_t end);

/* The counts of section @secno (O(1): kept beside the segments'), or NULL past the end. */
const struct f2fs_sec_entry *f2fs_sit_sec(const struct f2fs_sit_table *t, uint32_t secno);

/* Valid blocks of a section, 0 past the end. */
uint32_t f2fs_sit_sec_valid(const struct f2fs_sit_table *t, uint32_t secno);

/* Segments with no valid block that are not open logs. */
uint32_t f2fs_sit_free_segments(const struct f2fs_sit_table *t);

/*
 * A segment no one can write (past its section's zone capacity: @g's
 * f2fs_geo_seg_usable() is 0) is never free, as the kernel counts: take
 * such segments out of the free count.
 */
void f2fs_sit_exclude_unusable(struct f2fs_sit_table *t, const struct f2fs_geometry *g,
			       const struct f2fs_cp_data *cpd);

/* What the loader found but did not trust, in segment order. */
uint32_t f2fs_sit_anomaly_count(const struct f2fs_sit_table *t);
const struct f2fs_sit_anomaly *f2fs_sit_anomaly(const struct f2fs_sit_table *t, uint32_t i);

#endif
