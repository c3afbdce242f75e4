// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/fs/sit.c: format an in-memory device, build the
 * checkpoint data by hand (a zeroed SIT version bitmap, the SIT journal of
 * the compacted summary, the open logs of the checkpoint), load the SIT and
 * check the fresh image, copy selection by the version bitmap, the
 * anomalies of bad entries, per-section sums with several segments per
 * section, and the sparse storage (all-zero SIT blocks are not kept).  A
 * white-box test of the loader: it calls f2fs_sit_load() with crafted
 * checkpoint data (lib/fs/fs_internal.h) and reads the table only through
 * the accessors of f2fs/sit.h.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "../../../lib/fs/fs_internal.h"
#include "fixture.h"
#include "test.h"

#define BLK F2FS_BLKSIZE
#define SEG F2FS_DEFAULT_BLKS_PER_SEG
#define EPB F2FS_SIT_ENTRY_PER_BLOCK

struct fs {
	struct fixture fx;
	struct f2fs_cp_data cpd;
	uint8_t *bitmap;
	uint32_t main_segs;
	uint64_t half; /* blocks of one SIT copy */
};

static bool format(struct fs *fs, uint64_t bytes, uint32_t segs_per_sec)
{
	uint8_t blk[BLK];
	uint32_t i;
	bool ok;

	memset(fs, 0, sizeof(*fs));
	fixture_init(&fs->fx, bytes);
	if (segs_per_sec)
		fs->fx.cfg.geometry.segs_per_sec = segs_per_sec;
	fs->fx.cfg.discard = true;
	ok = fixture_open(&fs->fx) && fixture_mkfs(&fs->fx);
	CHECK_EQ_U64(fs->fx.ret, 0);
	CHECK(ok);
	if (!ok) {
		fixture_free(&fs->fx);
		return false;
	}
	fs->main_segs = le32_get(fs->fx.sb.segment_count_main);
	fs->half = (uint64_t)(le32_get(fs->fx.sb.segment_count_sit) / 2) * SEG;

	/* The checkpoint data, as the summary loader would give it. */
	CHECK(fixture_read_sum(&fs->fx, blk));
	memcpy(&fs->cpd.sit_journal, blk + F2FS_SUM_JOURNAL_SIZE, F2FS_SUM_JOURNAL_SIZE);
	CHECK_EQ_U64(le16_get(fs->cpd.sit_journal.n_sits), F2FS_NR_CURSEG_TYPE);
	for (i = 0; i < 3; i++) {
		fs->cpd.curseg_segno[F2FS_CURSEG_HOT_NODE + i] =
		    le32_get(fs->fx.cp.cur_node_segno[i]);
		fs->cpd.curseg_segno[F2FS_CURSEG_HOT_DATA + i] =
		    le32_get(fs->fx.cp.cur_data_segno[i]);
	}
	fs->cpd.sit_bitmap_bytes = le32_get(fs->fx.cp.sit_ver_bitmap_bytesize);
	fs->bitmap = calloc(1, fs->cpd.sit_bitmap_bytes ? fs->cpd.sit_bitmap_bytes : 1);
	fs->cpd.sit_bitmap = fs->bitmap;
	CHECK(fs->bitmap != NULL);
	return fs->bitmap != NULL;
}

static void unformat(struct fs *fs)
{
	free(fs->bitmap);
	CHECK_EQ_U64(fixture_free(&fs->fx), 0);
}

static struct f2fs_sit_table *load(struct fs *fs)
{
	struct f2fs_sit_table *t = NULL;
	char why[160] = "";
	int ret = f2fs_sit_load(fs->fx.dev, &fs->fx.sb, &fs->cpd, &t, why, sizeof(why));

	if (ret)
		fprintf(stderr, "f2fs_sit_load: %d %s\n", ret, why);
	CHECK_EQ_U64(ret, 0);
	CHECK(ret || t != NULL);
	return ret ? NULL : t;
}

/* Write an entry for @segno into SIT copy @copy: @valid counted, @bits bits set. */
static void put_entry(struct fs *fs, int copy, uint32_t segno, uint32_t type, uint32_t valid,
		      uint32_t bits)
{
	uint8_t blk[BLK];
	struct f2fs_sit_block *b = (struct f2fs_sit_block *)blk;
	struct f2fs_sit_entry *e = &b->entries[segno % EPB];
	uint64_t addr = le32_get(fs->fx.sb.sit_blkaddr) + segno / EPB + (copy ? fs->half : 0);
	uint32_t i;

	CHECK(fixture_read_blk(&fs->fx, addr, blk));
	memset(e, 0, sizeof(*e));
	e->vblocks = le16_put((uint16_t)(type << F2FS_SIT_VBLOCKS_SHIFT | valid));
	for (i = 0; i < bits; i++)
		f2fs_set_bit_msb(e->valid_map, i);
	e->mtime = le64_put(1234 + segno);
	CHECK(fixture_write_blk(&fs->fx, addr, blk));
}

static bool is_open(const struct fs *fs, uint32_t segno)
{
	unsigned int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (fs->cpd.curseg_segno[i] == segno)
			return true;
	return false;
}

/* A segment in SIT block @blk that is no open log. */
static uint32_t closed_segment_in_block(const struct fs *fs, uint32_t blk)
{
	uint32_t s;

	for (s = blk * EPB; s < (blk + 1) * EPB && s < fs->main_segs; s++)
		if (!is_open(fs, s))
			return s;
	CHECK(0);
	return 0;
}

static uint32_t clamp(uint32_t v)
{
	return v > SEG ? SEG : v;
}

/* Every section's sums equal the (clamped) sums of its segments. */
static void check_sections(const struct f2fs_sit_table *t)
{
	uint32_t sec, k;

	CHECK_EQ_U64(f2fs_sit_sections(t), f2fs_sit_segments(t) / f2fs_sit_segs_per_sec(t));
	for (sec = 0; sec < f2fs_sit_sections(t); sec++) {
		uint32_t v = 0, c = 0;

		for (k = 0; k < f2fs_sit_segs_per_sec(t); k++) {
			v += clamp(f2fs_sit_seg(t, sec * f2fs_sit_segs_per_sec(t) + k)->valid);
			c += clamp(f2fs_sit_seg(t, sec * f2fs_sit_segs_per_sec(t) + k)->ckpt_valid);
		}
		CHECK_EQ_U64(f2fs_sit_sec(t, sec)->valid, v);
		CHECK_EQ_U64(f2fs_sit_sec(t, sec)->ckpt_valid, c);
		CHECK_EQ_U64(f2fs_sit_sec_valid(t, sec), v);
	}
	CHECK_EQ_U64(f2fs_sit_sec_valid(t, f2fs_sit_sections(t)), 0);
}

static const struct f2fs_sit_anomaly *find_anomaly(const struct f2fs_sit_table *t,
						   enum f2fs_sit_anomaly_kind kind, uint32_t segno)
{
	uint32_t i;

	for (i = 0; i < f2fs_sit_anomaly_count(t); i++)
		if (f2fs_sit_anomaly(t, i)->kind == kind && f2fs_sit_anomaly(t, i)->segno == segno)
			return f2fs_sit_anomaly(t, i);
	return NULL;
}

static void check_fresh(struct fs *fs)
{
	struct f2fs_sit_table *t = load(fs);
	uint32_t hn = fs->cpd.curseg_segno[F2FS_CURSEG_HOT_NODE];
	uint32_t hd = fs->cpd.curseg_segno[F2FS_CURSEG_HOT_DATA];
	uint32_t s;
	unsigned int i;

	if (!t)
		return;
	CHECK_EQ_U64(f2fs_sit_segments(t), fs->main_segs);
	CHECK_EQ_U64(f2fs_sit_segs_per_sec(t), le32_get(fs->fx.sb.segs_per_sec));
	CHECK_EQ_U64(f2fs_sit_anomaly_count(t), 0);
	CHECK(hn < f2fs_sit_segments(t) && hd < f2fs_sit_segments(t));
	if (hn >= f2fs_sit_segments(t) || hd >= f2fs_sit_segments(t))
		goto out;
	CHECK_EQ_U64(f2fs_sit_seg(t, hn)->valid, 1);
	CHECK_EQ_U64(f2fs_sit_seg(t, hn)->ckpt_valid, 1);
	CHECK_EQ_U64(f2fs_sit_seg(t, hn)->type, F2FS_CURSEG_HOT_NODE);
	CHECK(f2fs_test_bit_msb(f2fs_sit_seg(t, hn)->map, 0));
	CHECK(f2fs_sit_seg(t, hn)->from_journal);
	CHECK_EQ_U64(f2fs_sit_seg(t, hd)->valid, 1);
	CHECK_EQ_U64(f2fs_sit_seg(t, hd)->type, F2FS_CURSEG_HOT_DATA);
	CHECK(f2fs_test_bit_msb(f2fs_sit_seg(t, hd)->map, 0));
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		s = fs->cpd.curseg_segno[i];
		CHECK(s < f2fs_sit_segments(t));
		if (s < f2fs_sit_segments(t)) {
			CHECK_EQ_U64(f2fs_sit_seg(t, s)->type, i);
			CHECK(f2fs_sit_seg(t, s)->from_journal);
		}
	}
	for (s = 0; s < f2fs_sit_segments(t); s++) {
		if (s == hn || s == hd)
			continue;
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->valid, 0);
		if (!is_open(fs, s))
			CHECK(!f2fs_sit_seg(t, s)->from_journal);
	}
	check_sections(t);
	CHECK_EQ_U64(f2fs_sit_free_segments(t), f2fs_sit_segments(t) - F2FS_NR_CURSEG_TYPE);
out:
	f2fs_sit_free(t);
}

static void test_fresh_64m(void)
{
	struct fs fs;

	if (!format(&fs, 64ull << 20, 0))
		return;
	check_fresh(&fs);
	unformat(&fs);
}

static void test_fresh_sections(void)
{
	struct fs fs;

	if (!format(&fs, 160ull << 20, 4)) /* -s 4 needs 144 MiB */
		return;
	CHECK_EQ_U64(le32_get(fs.fx.sb.segs_per_sec), 4);
	check_fresh(&fs);
	unformat(&fs);
}

static void test_copy_selection(void)
{
	struct fs fs;
	struct f2fs_sit_table *t;
	uint32_t s, s1 = 0;

	if (!format(&fs, 64ull << 20, 0))
		return;
	s = closed_segment_in_block(&fs, 0);
	/* copy 0 says 5 valid blocks, copy 1 says 3 */
	put_entry(&fs, 0, s, F2FS_CURSEG_WARM_DATA, 5, 5);
	put_entry(&fs, 1, s, F2FS_CURSEG_COLD_DATA, 3, 3);
	if (fs.main_segs > EPB) {
		/* SIT block 1 stays in copy 0 */
		s1 = closed_segment_in_block(&fs, 1);
		put_entry(&fs, 0, s1, F2FS_CURSEG_WARM_NODE, 7, 7);
		put_entry(&fs, 1, s1, F2FS_CURSEG_WARM_NODE, 9, 9);
	}

	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->valid, 5);
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->type, F2FS_CURSEG_WARM_DATA);
		if (s1)
			CHECK_EQ_U64(f2fs_sit_seg(t, s1)->valid, 7);
		CHECK_EQ_U64(f2fs_sit_anomaly_count(t), 0);
		f2fs_sit_free(t);
	}

	f2fs_set_bit_msb(fs.bitmap, 0);
	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->valid, 3);
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->ckpt_valid, 3);
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->type, F2FS_CURSEG_COLD_DATA);
		CHECK_EQ_U64(f2fs_sit_seg(t, s)->mtime, 1234 + s);
		CHECK(!f2fs_sit_seg(t, s)->from_journal);
		CHECK(f2fs_test_bit_msb(f2fs_sit_seg(t, s)->map, 2));
		CHECK(!f2fs_test_bit_msb(f2fs_sit_seg(t, s)->map, 3));
		if (s1)
			CHECK_EQ_U64(f2fs_sit_seg(t, s1)->valid, 7);
		CHECK_EQ_U64(f2fs_sit_anomaly_count(t), 0);
		CHECK_EQ_U64(f2fs_sit_free_segments(t),
			     f2fs_sit_segments(t) - F2FS_NR_CURSEG_TYPE - 1 - (s1 ? 1 : 0));
		check_sections(t);
		f2fs_sit_free(t);
	}
	unformat(&fs);
}

static void test_bitmap_too_small(void)
{
	struct fs fs;
	struct f2fs_sit_table *t = (struct f2fs_sit_table *)&fs;
	char why[160] = "";

	if (!format(&fs, 64ull << 20, 0))
		return;
	fs.cpd.sit_bitmap_bytes = 0;
	CHECK_EQ_U64(f2fs_sit_load(fs.fx.dev, &fs.fx.sb, &fs.cpd, &t, why, sizeof(why)), -EINVAL);
	CHECK(t == NULL);
	CHECK(strstr(why, "bitmap") != NULL);
	f2fs_sit_free(NULL);
	unformat(&fs);
}

/* Runs of blocks from different copies: block 0 from copy 0, block 1 from copy 1. */
static void test_mixed_copies(void)
{
	struct fs fs;
	struct f2fs_sit_table *t;
	uint32_t s0, s1;

	if (!format(&fs, 256ull << 20, 0))
		return;
	CHECK(fs.main_segs > EPB);
	s0 = closed_segment_in_block(&fs, 0);
	s1 = closed_segment_in_block(&fs, 1);
	put_entry(&fs, 0, s0, F2FS_CURSEG_WARM_DATA, 5, 5);
	put_entry(&fs, 1, s0, F2FS_CURSEG_WARM_DATA, 6, 6);
	put_entry(&fs, 0, s1, F2FS_CURSEG_COLD_DATA, 7, 7);
	put_entry(&fs, 1, s1, F2FS_CURSEG_COLD_DATA, 8, 8);
	f2fs_set_bit_msb(fs.bitmap, 1);
	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_sit_seg(t, s0)->valid, 5);
		CHECK_EQ_U64(f2fs_sit_seg(t, s1)->valid, 8);
		CHECK_EQ_U64(f2fs_sit_anomaly_count(t), 0);
		check_sections(t);
		f2fs_sit_free(t);
	}
	unformat(&fs);
}

/* More main segments than one SIT copy can describe. */
static void test_sit_too_small(void)
{
	struct fs fs;
	struct f2fs_super_block sb;
	struct f2fs_sit_table *t = NULL;
	char why[160] = "";

	if (!format(&fs, 64ull << 20, 0))
		return;
	sb = fs.fx.sb;
	sb.segment_count_main = le32_put((uint32_t)(fs.half * EPB + 1));
	CHECK_EQ_U64(f2fs_sit_load(fs.fx.dev, &sb, &fs.cpd, &t, why, sizeof(why)), -EINVAL);
	CHECK(t == NULL);
	CHECK(strstr(why, "SIT blocks") != NULL);
	unformat(&fs);
}

static void test_anomalies(void)
{
	struct fs fs;
	struct f2fs_sit_table *t;
	const struct f2fs_sit_anomaly *a;
	uint32_t sa, sb_, sc, last, victim;

	if (!format(&fs, 64ull << 20, 0))
		return;
	sa = closed_segment_in_block(&fs, 0);
	for (sb_ = sa + 1; is_open(&fs, sb_); sb_++)
		;
	for (sc = sb_ + 1; is_open(&fs, sc); sc++)
		;
	put_entry(&fs, 0, sa, F2FS_CURSEG_WARM_DATA, 600, SEG);
	put_entry(&fs, 0, sb_, F2FS_CURSEG_HOT_NODE, 4, 3);
	put_entry(&fs, 0, sc, 7, 0, 0);
	/* the last segment sits at the end of the last SIT block */
	last = fs.main_segs - 1;
	if (!is_open(&fs, last))
		put_entry(&fs, 0, last, F2FS_CURSEG_COLD_DATA, 2, 2);
	/* a journal entry for a segment far outside the main area */
	victim = le32_get(fs.cpd.sit_journal.sit_j.entries[5].segno);
	fs.cpd.sit_journal.sit_j.entries[5].segno = le32_put(1u << 30);

	t = load(&fs);
	if (!t) {
		unformat(&fs);
		return;
	}
	a = find_anomaly(t, F2FS_SIT_BAD_VBLOCKS, sa);
	CHECK(a != NULL);
	if (a) {
		CHECK_EQ_U64(a->value, 600);
		CHECK_EQ_U64(a->expected, SEG);
	}
	a = find_anomaly(t, F2FS_SIT_VBLOCKS_BITMAP, sa);
	CHECK(a != NULL);
	if (a) {
		CHECK_EQ_U64(a->value, 600);
		CHECK_EQ_U64(a->expected, SEG);
	}
	CHECK_EQ_U64(f2fs_sit_seg(t, sa)->valid, 600);
	a = find_anomaly(t, F2FS_SIT_VBLOCKS_BITMAP, sb_);
	CHECK(a != NULL);
	if (a) {
		CHECK_EQ_U64(a->value, 4);
		CHECK_EQ_U64(a->expected, 3);
	}
	a = find_anomaly(t, F2FS_SIT_BAD_TYPE, sc);
	CHECK(a != NULL);
	if (a)
		CHECK_EQ_U64(a->value, 7);
	a = find_anomaly(t, F2FS_SIT_JOURNAL_SEGNO, 1u << 30);
	CHECK(a != NULL);
	if (a)
		CHECK_EQ_U64(a->value, 1u << 30);
	CHECK_EQ_U64(f2fs_sit_anomaly_count(t), 5);
	if (!is_open(&fs, last))
		CHECK_EQ_U64(f2fs_sit_seg(t, last)->valid, 2);
	/* the skipped journal entry's segment keeps its SIT-area entry */
	if (victim < f2fs_sit_segments(t))
		CHECK(!f2fs_sit_seg(t, victim)->from_journal);
	/* sums count the bad segment as full */
	CHECK_EQ_U64(f2fs_sit_sec(t, sa / f2fs_sit_segs_per_sec(t))->valid, SEG);
	check_sections(t);
	f2fs_sit_free(t);
	unformat(&fs);
}

/* @straddle: pick a section whose segments lie in two SIT blocks. */
static void section_sums(uint64_t bytes, bool straddle)
{
	struct fs fs;
	struct f2fs_sit_table *t;
	uint32_t sec = 0, k, base = 0, want = 0, before = 0;
	bool found = false;

	if (!format(&fs, bytes, 4))
		return;
	/* a section without open logs (whose segments straddle two SIT blocks) */
	for (sec = 0; (sec + 1) * 4 <= fs.main_segs && !found; sec++) {
		base = sec * 4;
		if (straddle && base / EPB == (base + 3) / EPB)
			continue;
		found = true;
		for (k = 0; k < 4; k++)
			if (is_open(&fs, base + k))
				found = false;
	}
	CHECK(found);
	if (!found) {
		unformat(&fs);
		return;
	}
	sec--;
	t = load(&fs);
	if (t) {
		before = f2fs_sit_free_segments(t);
		f2fs_sit_free(t);
	}
	for (k = 0; k < 4; k++) {
		put_entry(&fs, 0, base + k, F2FS_CURSEG_WARM_DATA, 10 * (k + 1), 10 * (k + 1));
		want += 10 * (k + 1);
	}
	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_sit_segs_per_sec(t), 4);
		CHECK_EQ_U64(f2fs_sit_anomaly_count(t), 0);
		CHECK_EQ_U64(f2fs_sit_sec(t, sec)->valid, want);
		CHECK_EQ_U64(f2fs_sit_sec(t, sec)->ckpt_valid, want);
		CHECK_EQ_U64(f2fs_sit_sec_valid(t, sec), 100);
		CHECK_EQ_U64(f2fs_sit_free_segments(t), before - 4);
		check_sections(t);
		f2fs_sit_free(t);
	}
	unformat(&fs);
}

static void test_section_sums(void)
{
	section_sums(160ull << 20, false); /* -s 4 needs 144 MiB */
}

static void test_section_sums_straddle(void)
{
	section_sums(256ull << 20, true);
}

/* The first segment at or after @s whose SIT block holds an open log or @extra. */
static uint32_t expected_next_used(const struct fs *fs, uint32_t s, uint32_t extra)
{
	uint32_t blk, k;

	for (blk = s / EPB; blk * EPB < fs->main_segs; blk++) {
		bool used = extra / EPB == blk;

		for (k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
			used |= fs->cpd.curseg_segno[k] / EPB == blk;
		if (used)
			return blk * EPB > s ? blk * EPB : s;
	}
	return fs->main_segs;
}

/* Segments of all-zero SIT blocks read as zero entries; next_used skips them. */
static void check_sparse(struct fs *fs, const struct f2fs_sit_table *t, uint32_t extra)
{
	static const struct f2fs_seg_entry zero;
	uint32_t s, bad_next = 0, bad_zero = 0;

	for (s = 0; s < fs->main_segs; s++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(t, s);
		uint32_t want = expected_next_used(fs, s, extra);

		CHECK(se != NULL);
		if (!se)
			return;
		/* the one segment [s, s + 1) is in a kept block iff next_used says s */
		if (f2fs_sit_range_used(t, s, s + 1) != (want == s) && !bad_next++)
			fprintf(stderr, "range_used(%u, %u) disagrees with next_used\n", s, s + 1);
		if (f2fs_sit_next_used(t, s) != want && !bad_next++)
			fprintf(stderr, "next_used(%u) = %u, expected %u\n", s,
				f2fs_sit_next_used(t, s), want);
		/* a segment before the next used one lies in a block that was not kept */
		if (want > s && memcmp(se, &zero, sizeof(zero)) && !bad_zero++)
			fprintf(stderr, "segment %u of an empty SIT block is not zero\n", s);
	}
	CHECK_EQ_U64(bad_next, 0);
	CHECK_EQ_U64(bad_zero, 0);
	CHECK(f2fs_sit_seg(t, fs->main_segs) == NULL);
	CHECK(f2fs_sit_seg(t, UINT32_MAX) == NULL);
	CHECK_EQ_U64(f2fs_sit_next_used(t, fs->main_segs), fs->main_segs);
	CHECK_EQ_U64(f2fs_sit_next_used(t, UINT32_MAX), fs->main_segs);
	CHECK(f2fs_sit_range_used(t, 0, fs->main_segs) ==
	      (expected_next_used(fs, 0, extra) < fs->main_segs));
	CHECK(!f2fs_sit_range_used(t, fs->main_segs, fs->main_segs + 10));
	CHECK(!f2fs_sit_range_used(t, 5, 5));
}

static void test_sparse(void)
{
	struct fs fs;
	struct f2fs_sit_table *t;
	uint32_t blk, k, s = 0;
	bool found = false;

	if (!format(&fs, 512ull << 20, 0))
		return;
	CHECK(fs.main_segs > 4 * EPB);
	t = load(&fs);
	if (t) {
		check_sparse(&fs, t, UINT32_MAX);
		f2fs_sit_free(t);
	}
	/* a SIT block without open logs gets one used segment */
	for (blk = fs.main_segs / EPB; blk > 0 && !found; blk--) {
		found = (blk - 1) * EPB + EPB <= fs.main_segs;
		for (k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
			found &= fs.cpd.curseg_segno[k] / EPB != blk - 1;
		s = (blk - 1) * EPB + 3;
	}
	CHECK(found);
	if (found) {
		put_entry(&fs, 0, s, F2FS_CURSEG_COLD_DATA, 2, 2);
		t = load(&fs);
		if (t) {
			CHECK_EQ_U64(f2fs_sit_seg(t, s)->valid, 2);
			check_sparse(&fs, t, s);
			CHECK_EQ_U64(f2fs_sit_free_segments(t),
				     fs.main_segs - F2FS_NR_CURSEG_TYPE - 1);
			f2fs_sit_free(t);
		}
	}
	unformat(&fs);
}

int main(void)
{
	RUN(test_fresh_64m);
	RUN(test_fresh_sections);
	RUN(test_copy_selection);
	RUN(test_bitmap_too_small);
	RUN(test_mixed_copies);
	RUN(test_sit_too_small);
	RUN(test_anomalies);
	RUN(test_section_sums);
	RUN(test_section_sums_straddle);
	RUN(test_sparse);
	TEST_EXIT();
}
