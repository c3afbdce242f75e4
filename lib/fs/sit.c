// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the segment information table.  The SIT area holds two copies of
 * the table, one per half; for every SIT block the checkpoint's SIT version
 * bitmap (most significant bit first) says which half holds the current
 * version.  Runs of consecutive blocks that live in the same half are read
 * with one request each, at most SIT_CHUNK_BLOCKS at a time.  The SIT
 * journal of the checkpoint is then laid over the table, and one pass
 * checks every entry and builds the per-section counts.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/bitops.h"
#include "f2fs/blkgeo.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "fs_internal.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"

#define SIT_CHUNK_BLOCKS 1024u

__attribute__((format(printf, 4, 5))) static int fail(char *why, size_t why_len, int err,
						      const char *fmt, ...)
{
	va_list ap;

	if (why && why_len) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int note(struct f2fs_sit_table *t, uint32_t *cap, enum f2fs_sit_anomaly_kind kind,
		uint32_t segno, uint32_t value, uint32_t expected)
{
	struct f2fs_sit_anomaly *a;

	if (t->anomaly_count == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 16;

		a = realloc(t->anomalies, (size_t)ncap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		t->anomalies = a;
		*cap = ncap;
	}
	a = &t->anomalies[t->anomaly_count++];
	a->kind = kind;
	a->segno = segno;
	a->value = value;
	a->expected = expected;
	return 0;
}

/* Copy one on-disk entry into the in-memory form, without judging it. */
static void take_entry(struct f2fs_seg_entry *se, const struct f2fs_sit_entry *raw,
		       uint8_t from_journal)
{
	uint16_t vblocks = le16_get(raw->vblocks);

	se->valid = (uint16_t)(vblocks & F2FS_SIT_VBLOCKS_MASK);
	se->ckpt_valid = se->valid;
	se->type = (uint8_t)(vblocks >> F2FS_SIT_VBLOCKS_SHIFT);
	se->from_journal = from_journal;
	memcpy(se->map, raw->valid_map, sizeof(se->map));
	se->mtime = le64_get(raw->mtime);
}

static const struct f2fs_seg_entry empty_entry;

/* The entries of SIT block @blk for writing, allocated on first use. */
static struct f2fs_seg_entry *block_for_write(struct f2fs_sit_table *t, uint32_t blk)
{
	if (!t->blocks[blk])
		t->blocks[blk] = calloc(t->per_block, sizeof(struct f2fs_seg_entry));
	return t->blocks[blk];
}

/* A byte compared with its neighbour over the whole range: zero iff the first is. */
static bool all_zero(const uint8_t *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

/* Open logs whose current segment lies in [first, end). */
static uint32_t open_logs_in(const struct f2fs_cp_data *cpd, uint32_t first, uint32_t end)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		n += cpd->curseg_segno[i] >= first && cpd->curseg_segno[i] < end;
	return n;
}

static int read_blocks(struct f2fs_sit_table *t, struct f2fs_device *dev, uint64_t blkaddr,
		       uint32_t first, uint32_t count, uint8_t *buf, char *why, size_t why_len)
{
	uint32_t i, k;
	int ret;

	ret = f2fs_dev_read(dev, buf, blkaddr * t->blksize, (size_t)count * t->blksize);
	if (ret)
		return fail(why, why_len, ret, "SIT: cannot read %llu blocks at block %llu",
			    (unsigned long long)count, (unsigned long long)blkaddr);
	for (i = 0; i < count; i++) {
		const struct f2fs_sit_block *b =
		    (const struct f2fs_sit_block *)(buf + (size_t)i * t->blksize);
		uint64_t seg0 = (uint64_t)(first + i) * t->per_block;
		struct f2fs_seg_entry *e;

		/* most SIT blocks of a large volume describe unused segments */
		if (all_zero((const uint8_t *)b->entries,
			     (size_t)t->per_block * sizeof(struct f2fs_sit_entry)))
			continue;
		e = block_for_write(t, first + i);
		if (!e)
			return fail(why, why_len, -ENOMEM, "SIT: out of memory");
		for (k = 0; k < t->per_block && seg0 + k < t->segments; k++)
			take_entry(&e[k], &b->entries[0] + k, 0);
	}
	return 0;
}

static int load(struct f2fs_sit_table *t, struct f2fs_device *dev,
		const struct f2fs_super_block *sb, const struct f2fs_cp_data *cpd, char *why,
		size_t why_len)
{
	uint64_t half_blocks = f2fs_sb_sit_blocks(sb);
	uint32_t sit_blocks, blk, cap = 0, n_sits, i;
	const struct f2fs_sit_journal_entry *e0 = NULL;
	uint8_t *buf;
	int ret = 0;

	sit_blocks = (uint32_t)(((uint64_t)t->segments + t->per_block - 1) / t->per_block);
	if (sit_blocks > half_blocks)
		return fail(why, why_len, -EINVAL,
			    "SIT: %llu main segments need %llu SIT blocks per copy",
			    (unsigned long long)t->segments, (unsigned long long)sit_blocks);
	if (!cpd->sit_bitmap || (uint64_t)cpd->sit_bitmap_bytes * 8 < sit_blocks)
		return fail(why, why_len, -EINVAL,
			    "SIT: version bitmap of %llu bytes cannot cover %llu SIT blocks",
			    (unsigned long long)(cpd->sit_bitmap ? cpd->sit_bitmap_bytes : 0),
			    (unsigned long long)sit_blocks);

	buf = malloc((size_t)(sit_blocks < SIT_CHUNK_BLOCKS ? sit_blocks : SIT_CHUNK_BLOCKS) *
		     t->blksize);
	if (!buf)
		return fail(why, why_len, -ENOMEM, "SIT: out of memory for %llu blocks",
			    (unsigned long long)sit_blocks);

	/* Runs of blocks whose current version is in the same copy. */
	for (blk = 0; blk < sit_blocks && !ret;) {
		int copy = f2fs_test_bit_msb(cpd->sit_bitmap, blk);
		uint32_t end = blk + 1;

		while (end < sit_blocks && end - blk < SIT_CHUNK_BLOCKS &&
		       f2fs_test_bit_msb(cpd->sit_bitmap, end) == copy)
			end++;
		ret = read_blocks(t, dev, f2fs_sb_sit_block_addr(sb, blk, copy), blk, end - blk,
				  buf, why, why_len);
		blk = end;
	}
	free(buf);
	if (ret)
		return ret;

	/* The journal holds entries newer than the SIT blocks. */
	n_sits = le16_get(cpd->sit_journal.n_sits);
	/* checked against the block size when the pack was read; this bounds the storage */
	if (n_sits > (F2FS_MAX_SUM_JOURNAL_SIZE - sizeof(le16)) / sizeof(*e0))
		n_sits = (F2FS_MAX_SUM_JOURNAL_SIZE - sizeof(le16)) / sizeof(*e0);
	for (i = 0; i < n_sits; i++) {
		const struct f2fs_sit_journal_entry *e = f2fs_sit_journal_at(&cpd->sit_journal, i);
		uint32_t segno = le32_get(e->segno);

		if (segno >= t->segments) {
			if (note(t, &cap, F2FS_SIT_JOURNAL_SEGNO, segno, segno, t->segments))
				goto nomem;
			continue;
		}
		if (!block_for_write(t, segno / t->per_block))
			goto nomem;
		take_entry(&t->blocks[segno / t->per_block][segno % t->per_block], &e->se, 1);
	}

	/* One pass: judge each entry, sum the sections, count free segments. */
	for (i = 0; i < t->segments; i++) {
		struct f2fs_seg_entry *se = t->blocks[i / t->per_block];
		struct f2fs_sec_entry *sec;
		uint32_t weight;

		if (!se) {
			/* an all-zero SIT block: free segments, unless a log is open there */
			uint32_t end = (i / t->per_block + 1) * t->per_block;

			if (end > t->segments)
				end = t->segments;
			t->free_segments += end - i - open_logs_in(cpd, i, end);
			i = end - 1;
			continue;
		}
		se += i % t->per_block;
		weight = f2fs_popcount_bytes(se->map, F2FS_SIT_VBLOCK_MAP_SIZE);
		uint32_t counted = se->valid;
		uint32_t ckpt = se->ckpt_valid;

		if (se->valid > F2FS_DEFAULT_BLKS_PER_SEG) {
			if (note(t, &cap, F2FS_SIT_BAD_VBLOCKS, i, se->valid,
				 F2FS_DEFAULT_BLKS_PER_SEG))
				goto nomem;
			counted = F2FS_DEFAULT_BLKS_PER_SEG;
		}
		if (ckpt > F2FS_DEFAULT_BLKS_PER_SEG)
			ckpt = F2FS_DEFAULT_BLKS_PER_SEG;
		if (weight != se->valid &&
		    note(t, &cap, F2FS_SIT_VBLOCKS_BITMAP, i, se->valid, weight))
			goto nomem;
		if (se->type > F2FS_CURSEG_COLD_NODE &&
		    note(t, &cap, F2FS_SIT_BAD_TYPE, i, se->type, F2FS_CURSEG_COLD_NODE))
			goto nomem;
		if (i / t->segs_per_sec < t->sections) {
			sec = &t->sec[i / t->segs_per_sec];
			sec->valid += counted;
			sec->ckpt_valid += ckpt;
		}
		if (se->valid == 0 && f2fs_cp_log_of_segment(cpd, i) < 0)
			t->free_segments++;
	}
	return 0;
nomem:
	return fail(why, why_len, -ENOMEM, "SIT: out of memory for anomalies");
}

int f2fs_sit_load(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_cp_data *cpd, struct f2fs_sit_table **out, char *why,
		  size_t why_len)
{
	struct f2fs_sit_table *t;
	uint32_t main_segs, segs_per_sec;
	int ret;

	*out = NULL;
	if (!dev || !sb || !cpd)
		return fail(why, why_len, -EINVAL, "SIT: missing device, superblock or checkpoint");
	if (le32_get(sb->log_blocks_per_seg) != 9)
		return fail(why, why_len, -EINVAL,
			    "SIT: log_blocks_per_seg %llu unsupported (need 9)",
			    (unsigned long long)le32_get(sb->log_blocks_per_seg));
	main_segs = le32_get(sb->segment_count_main);
	segs_per_sec = le32_get(sb->segs_per_sec);
	if (main_segs == 0 || segs_per_sec == 0)
		return fail(why, why_len, -EINVAL,
			    "SIT: segment_count_main %llu, segs_per_sec %llu",
			    (unsigned long long)main_segs, (unsigned long long)segs_per_sec);

	t = calloc(1, sizeof(*t));
	if (!t)
		return fail(why, why_len, -ENOMEM, "SIT: out of memory");
	t->segments = main_segs;
	t->blksize = f2fs_sb_blksize(sb);
	t->per_block = t->blksize / (uint32_t)sizeof(struct f2fs_sit_entry);
	t->segs_per_sec = segs_per_sec;
	t->sections = main_segs / segs_per_sec;
	t->nr_blocks = (main_segs + t->per_block - 1) / t->per_block;
	t->blocks = calloc(t->nr_blocks, sizeof(*t->blocks));
	t->sec = calloc(t->sections ? t->sections : 1, sizeof(*t->sec));
	if (!t->blocks || !t->sec) {
		f2fs_sit_free(t);
		return fail(why, why_len, -ENOMEM, "SIT: out of memory for %llu segments",
			    (unsigned long long)main_segs);
	}
	ret = load(t, dev, sb, cpd, why, why_len);
	if (ret) {
		f2fs_sit_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

void f2fs_sit_free(struct f2fs_sit_table *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; t->blocks && i < t->nr_blocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t->sec);
	free(t->anomalies);
	free(t);
}

uint32_t f2fs_sit_segments(const struct f2fs_sit_table *t)
{
	return t->segments;
}

uint32_t f2fs_sit_segs_per_sec(const struct f2fs_sit_table *t)
{
	return t->segs_per_sec;
}

uint32_t f2fs_sit_sections(const struct f2fs_sit_table *t)
{
	return t->sections;
}

const struct f2fs_seg_entry *f2fs_sit_seg(const struct f2fs_sit_table *t, uint32_t segno)
{
	const struct f2fs_seg_entry *blk;

	if (segno >= t->segments)
		return NULL;
	blk = t->blocks[segno / t->per_block];
	return blk ? &blk[segno % t->per_block] : &empty_entry;
}

uint32_t f2fs_sit_next_used(const struct f2fs_sit_table *t, uint32_t segno)
{
	uint32_t blk = segno / t->per_block;

	if (segno >= t->segments)
		return t->segments;
	if (t->blocks[blk])
		return segno;
	for (blk++; blk < t->nr_blocks; blk++)
		if (t->blocks[blk])
			return blk * t->per_block;
	return t->segments;
}

const struct f2fs_sec_entry *f2fs_sit_sec(const struct f2fs_sit_table *t, uint32_t secno)
{
	return secno < t->sections ? &t->sec[secno] : NULL;
}

uint32_t f2fs_sit_sec_valid(const struct f2fs_sit_table *t, uint32_t secno)
{
	return secno < t->sections ? t->sec[secno].valid : 0;
}

uint32_t f2fs_sit_free_segments(const struct f2fs_sit_table *t)
{
	return t->free_segments;
}

uint32_t f2fs_sit_anomaly_count(const struct f2fs_sit_table *t)
{
	return t->anomaly_count;
}

const struct f2fs_sit_anomaly *f2fs_sit_anomaly(const struct f2fs_sit_table *t, uint32_t i)
{
	return i < t->anomaly_count ? &t->anomalies[i] : NULL;
}

bool f2fs_sit_range_used(const struct f2fs_sit_table *t, uint32_t first, uint32_t end)
{
	uint32_t blk;

	if (end > t->segments)
		end = t->segments;
	for (blk = first / t->per_block; first < end && blk <= (end - 1) / t->per_block; blk++)
		if (t->blocks[blk])
			return true;
	return false;
}

/* ---- for the write path (fs_internal.h) ---- */

struct f2fs_seg_entry *f2fs_sit_seg_mut(struct f2fs_sit_table *t, uint32_t segno)
{
	struct f2fs_seg_entry *blk;

	if (segno >= t->segments)
		return NULL;
	blk = block_for_write(t, segno / t->per_block);
	return blk ? &blk[segno % t->per_block] : NULL;
}

int f2fs_sit_new_empty(const struct f2fs_super_block *sb, struct f2fs_sit_table **out)
{
	struct f2fs_sit_table *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->segments = le32_get(sb->segment_count_main);
	t->blksize = f2fs_sb_blksize(sb);
	t->per_block = t->blksize / (uint32_t)sizeof(struct f2fs_sit_entry);
	t->segs_per_sec = le32_get(sb->segs_per_sec);
	t->sections = t->segments / t->segs_per_sec;
	t->nr_blocks = (t->segments + t->per_block - 1) / t->per_block;
	t->blocks = calloc(t->nr_blocks ? t->nr_blocks : 1, sizeof(*t->blocks));
	t->sec = calloc(t->sections ? t->sections : 1, sizeof(*t->sec));
	if (!t->blocks || !t->sec) {
		f2fs_sit_free(t);
		return -ENOMEM;
	}
	t->free_segments = t->segments;
	*out = t;
	return 0;
}

void f2fs_sit_exclude_unusable(struct f2fs_sit_table *t, const struct f2fs_geometry *g,
			       const struct f2fs_cp_data *cpd)
{
	uint32_t i;

	if (!g->unusable_per_sec)
		return;
	for (i = 0; i < t->segments; i++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(t, i);

		if (f2fs_geo_seg_usable(g, i) == 0 && (!se || se->valid == 0) &&
		    (!cpd || f2fs_cp_log_of_segment(cpd, i) < 0) && t->free_segments)
			t->free_segments--;
	}
}
