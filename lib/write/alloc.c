// SPDX-License-Identifier: GPL-2.0
/*
 * The block allocator: six logs (hot, warm, cold data; hot, warm, cold
 * node), each appending to its current segment.  A full segment is left
 * for the next free segment of the same section, then for a free section
 * found from the current one onwards -- LFS allocation, as the kernel's
 * get_new_segment() does it, including the rule that two logs never share
 * a zone when zones hold several sections.  The current segments and
 * their summaries are the pack contents' (cpd->curseg_*), so the fs
 * layer's SSA lookups and the checkpoint writer see them as they are.
 *
 * Every allocation and invalidation changes the segment's SIT entry
 * (valid count, bitmap, type, mtime) and its section's counts together
 * (seed 002: the per-section checkpointed count is kept in step, never
 * summed over the section's segments).  A block allocated since the last
 * checkpoint counts as checkpointed-valid, as in the kernel's
 * update_sit_entry(): its segment cannot be reused before the next
 * checkpoint.  A section whose last valid block goes is "prefree" until
 * the next checkpoint, when it becomes free (set_prefree_as_free_segments).
 *
 * A read-only volume (F2FS_FEATURE_RO) is written by tools alone, as
 * upstream's sload writes it: two logs, every data block to hot data
 * growing up from the main area's start, every node to hot node growing
 * down from its end, and no SSA (summaries stay in memory for the session;
 * the open logs' go into the checkpoint pack).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "write_internal.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG

static bool readonly(struct f2fs_wr *w)
{
	return w->fs->features & F2FS_FEATURE_RO;
}

/* The log that writes what asks for log @type: on a read-only volume, hot data or hot node. */
static int log_of(struct f2fs_wr *w, int type)
{
	if (F2FS_LOG_IN_USE(w->fs->features, type))
		return type;
	return type < F2FS_CURSEG_HOT_NODE ? F2FS_CURSEG_HOT_DATA : F2FS_CURSEG_HOT_NODE;
}

static uint32_t seg_of(struct f2fs_wr *w, uint64_t blkaddr)
{
	return f2fs_geo_segno(&w->fs->geo, blkaddr);
}

bool wr_is_cur_seg(struct f2fs_wr *w, uint32_t segno)
{
	return f2fs_cp_log_of_segment(w->fs->cpd, segno) >= 0;
}

static bool sec_has_cur(struct f2fs_wr *w, uint32_t secno)
{
	return f2fs_cp_log_of_section(w->fs->cpd, w->segs_per_sec, secno) >= 0;
}

void wr_seg_dirty(struct f2fs_wr *w, uint32_t segno)
{
	if (f2fs_test_bit_lsb(w->seg_dirty, segno))
		return;
	if (w->ndirty == w->dirty_cap) {
		uint32_t cap = w->dirty_cap ? w->dirty_cap * 2 : 256;
		uint32_t *l = realloc(w->dirty_list, (size_t)cap * sizeof(*l));

		if (!l) {
			/* without room to remember it, flush every segment at the checkpoint */
			w->failed = true;
			return;
		}
		w->dirty_list = l;
		w->dirty_cap = cap;
	}
	f2fs_set_bit_lsb(w->seg_dirty, segno);
	w->dirty_list[w->ndirty++] = segno;
	wr_mark_dirty(w);
}

static void use_section(struct f2fs_wr *w, uint32_t secno)
{
	if (!f2fs_test_bit_lsb(w->sec_used, secno)) {
		f2fs_set_bit_lsb(w->sec_used, secno);
		w->free_sections--;
	}
}

/* Free: nothing valid, no log in it, and room to write (zone capacity may leave none). */
static bool seg_free(struct f2fs_wr *w, uint32_t segno)
{
	const struct f2fs_seg_entry *se = f2fs_sit_seg(w->fs->sit, segno);

	return se && se->valid == 0 && se->ckpt_valid == 0 && !wr_is_cur_seg(w, segno) &&
	       f2fs_geo_seg_usable(&w->fs->geo, segno) > 0;
}

/* The blocks the current segment of @type can take: fewer past a zone's capacity. */
static uint32_t seg_end(struct f2fs_wr *w, int type)
{
	return f2fs_geo_seg_usable(&w->fs->geo, w->fs->cpd->curseg_segno[type]);
}

/* Free sections and segments, derived from the SIT and the logs' segments. */
void wr_alloc_recount(struct f2fs_wr *w)
{
	struct f2fs_sit_table *sit = w->fs->sit;
	uint32_t secno, i;

	memset(w->sec_used, 0, (w->sections + 7) / 8 + 1);
	memset(w->sec_prefree, 0, (w->sections + 7) / 8 + 1);
	w->prefree_sections = 0;
	w->free_sections = w->sections;
	for (secno = 0; secno < w->sections; secno++) {
		const struct f2fs_sec_entry *sec = f2fs_sit_sec(sit, secno);

		if (sec->valid || sec->ckpt_valid || sec_has_cur(w, secno))
			use_section(w, secno);
	}
	sit->free_segments = 0;
	for (i = 0; i < w->segments; i++)
		sit->free_segments += seg_free(w, i);
}

int wr_alloc_init(struct f2fs_wr *w)
{
	struct f2fs_sit_table *sit = w->fs->sit;
	uint32_t i;

	w->sec_used = calloc((w->sections + 7) / 8 + 1, 1);
	w->sec_prefree = calloc((w->sections + 7) / 8 + 1, 1);
	w->seg_dirty = calloc((w->segments + 7) / 8 + 1, 1);
	w->ssa_dirty = calloc((w->segments + 7) / 8 + 1, 1);
	if (!w->sec_used || !w->sec_prefree || !w->seg_dirty || !w->ssa_dirty)
		return -ENOMEM;
	/* a new volume: its current segments are taken, and their SIT entries typed */
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		uint32_t segno = w->fs->cpd->curseg_segno[i];
		struct f2fs_seg_entry *se = f2fs_sit_seg_mut(sit, segno);

		if (!se)
			return -EUCLEAN;
		if (!F2FS_LOG_IN_USE(w->fs->features, i))
			continue;
		if (se->type != i && se->valid == 0) {
			se->type = (uint8_t)i;
			wr_seg_dirty(w, segno);
		}
	}
	wr_alloc_recount(w);
	return 0;
}

void wr_alloc_free(struct f2fs_wr *w)
{
	free(w->sec_used);
	free(w->sec_prefree);
	free(w->seg_dirty);
	free(w->ssa_dirty);
	free(w->dirty_list);
	free(w->sec_to_reset);
}

uint32_t wr_free_segments(struct f2fs_wr *w)
{
	return w->fs->sit->free_segments;
}

/* nr_pages_to_skip(META): 8 bios of BIO_MAX_VECS pages */
#define WR_SSA_BATCH 2048u

int wr_write_summary(struct f2fs_wr *w, uint32_t segno, const struct f2fs_summary_block *sum)
{
	int ret = f2fs_ssa_put(w->fs->ssa, segno, sum);

	/* a read-only volume has no SSA: its summaries live in the cache only */
	if (ret || segno >= w->segments || readonly(w))
		return ret;
	if (!f2fs_test_bit_lsb(w->ssa_dirty, segno)) {
		f2fs_set_bit_lsb(w->ssa_dirty, segno);
		w->nssa_dirty++;
	}
	return w->nssa_dirty >= WR_SSA_BATCH ? wr_ssa_flush(w) : 0;
}

/*
 * SSA block @blkno (of the area) from the summaries it holds: one, or with
 * packed_ssa several segments' in a row (past the main area: zeros).  Each
 * is marked written.
 */
static int ssa_block_build(struct f2fs_wr *w, uint32_t blkno, uint8_t *blk)
{
	const struct f2fs_blkgeo *g = wr_bg(w);
	const struct f2fs_summary_block *sum;
	uint32_t segno = blkno * g->sums_per_block, k;
	int ret = 0;

	memset(blk, 0, g->blksize);
	for (k = 0; k < g->sums_per_block && segno + k < w->segments && !ret; k++) {
		sum = f2fs_ssa_get(w->fs->ssa, segno + k, &ret);
		if (sum)
			f2fs_sum_store(g, blk + (size_t)k * g->sum_blksize, sum);
		if (!ret && f2fs_test_bit_lsb(w->ssa_dirty, segno + k)) {
			f2fs_clear_bit_lsb(w->ssa_dirty, segno + k);
			w->nssa_dirty--;
		}
	}
	return ret;
}

/* The waiting summary blocks, in block order. */
int wr_ssa_flush(struct f2fs_wr *w)
{
	uint64_t base = le32_get(w->sb->ssa_blkaddr);
	uint32_t per = wr_bg(w)->sums_per_block;
	uint8_t blk[F2FS_MAX_BLKSIZE];
	uint32_t segno;
	int ret = 0;

	for (segno = 0; segno < w->segments && w->nssa_dirty && !ret; segno++) {
		if (!f2fs_test_bit_lsb(w->ssa_dirty, segno))
			continue;
		ret = ssa_block_build(w, segno / per, blk);
		if (!ret)
			ret = wr_write_block(w, f2fs_ssa_block_of(wr_bg(w), base, segno), blk,
					     F2FS_IO_META);
	}
	return ret;
}

/* A section no block is valid in and no log writes: free after the next checkpoint. */
static void maybe_prefree(struct f2fs_wr *w, uint32_t secno)
{
	if (f2fs_sit_sec(w->fs->sit, secno)->valid == 0 && !sec_has_cur(w, secno) &&
	    f2fs_test_bit_lsb(w->sec_used, secno) && !f2fs_test_bit_lsb(w->sec_prefree, secno)) {
		f2fs_set_bit_lsb(w->sec_prefree, secno);
		w->prefree_sections++;
	}
}

bool wr_area_has(const struct wr_area *a, uint32_t secno)
{
	return secno >= a->first && secno <= a->last &&
	       (secno < a->skip_first || secno > a->skip_last);
}

/* How many sections a search looks at: all, or the area's. */
static uint32_t search_length(const struct f2fs_wr *w)
{
	return w->area ? w->area->last - w->area->first + 1 : w->sections;
}

/* The @n-th section a search looks at: from @hint on, wrapping, or the area's in its order. */
static uint32_t search_at(const struct f2fs_wr *w, uint32_t hint, uint32_t n)
{
	const struct wr_area *a = w->area;

	if (!a)
		return (uint32_t)(((uint64_t)hint + n) % w->sections);
	return a->down ? a->last - n : a->first + n;
}

/* May a log take section @secno (free, and in the area when there is one)? */
static bool section_takeable(const struct f2fs_wr *w, uint32_t secno)
{
	return !f2fs_test_bit_lsb(w->sec_used, secno) && (!w->area || wr_area_has(w->area, secno));
}

/*
 * The next free section from @hint on, wrapping (or the first free one of
 * the area, in its order); with several sections per zone, one in a zone
 * no other log writes.  UINT32_MAX when none.
 */
static uint32_t find_free_section(struct f2fs_wr *w, uint32_t hint, int type)
{
	uint32_t n, secno, len = search_length(w);

	for (n = 0; n < len; n++) {
		int i;
		bool zone_taken = false;

		secno = search_at(w, hint, n);
		if (!section_takeable(w, secno))
			continue;
		for (i = 0; w->secs_per_zone > 1 && i < F2FS_NR_CURSEG_TYPE; i++)
			zone_taken |= i != type && w->fs->cpd->curseg_segno[i] / w->segs_per_sec /
							   w->secs_per_zone ==
						       secno / w->secs_per_zone;
		if (!zone_taken)
			return secno;
	}
	/* every zone has a log: take any free section */
	for (n = 0; n < len; n++) {
		secno = search_at(w, hint, n);
		if (section_takeable(w, secno))
			return secno;
	}
	return UINT32_MAX;
}

/* Log @type leaves its segment for @segno: the old summary goes to the SSA. */
static int switch_segment(struct f2fs_wr *w, int type, uint32_t segno)
{
	struct f2fs_cp_data *d = w->fs->cpd;
	struct f2fs_sit_table *sit = w->fs->sit;
	uint32_t old = d->curseg_segno[type];
	struct f2fs_seg_entry *se;
	int ret;

	ret = wr_write_summary(w, old, &d->curseg_sum[type]);
	if (!ret && segno % w->segs_per_sec == 0)
		ret = wr_zone_ready(w, segno / w->segs_per_sec);
	if (ret)
		return ret;
	if (seg_free(w, segno))
		sit->free_segments--;
	d->curseg_segno[type] = segno;
	d->curseg_blkoff[type] = 0;
	memset(&d->curseg_sum[type], 0, sizeof(d->curseg_sum[type]));
	d->curseg_sum[type].footer.entry_type =
	    type < F2FS_CURSEG_HOT_NODE ? F2FS_SUM_TYPE_DATA : F2FS_SUM_TYPE_NODE;
	if (seg_free(w, old))
		sit->free_segments++;
	maybe_prefree(w, old / w->segs_per_sec);
	use_section(w, segno / w->segs_per_sec);
	se = f2fs_sit_seg_mut(sit, segno);
	if (!se)
		return -ENOMEM;
	se->type = (uint8_t)type;
	wr_seg_dirty(w, segno);
	return 0;
}

/* The read-only volume's node log moves down: the free segment below its current one. */
static int node_log_down(struct f2fs_wr *w)
{
	uint32_t segno = w->fs->cpd->curseg_segno[F2FS_CURSEG_HOT_NODE];

	while (segno-- > 0)
		if (seg_free(w, segno))
			return switch_segment(w, F2FS_CURSEG_HOT_NODE, segno);
	return -ENOSPC;
}

int wr_log_new_section(struct f2fs_wr *w, int type)
{
	uint32_t secno;

	type = log_of(w, type);
	if (readonly(w) && type == F2FS_CURSEG_HOT_NODE)
		return node_log_down(w);
	secno = find_free_section(w, w->fs->cpd->curseg_segno[type] / w->segs_per_sec, type);

	if (secno == UINT32_MAX)
		return -ENOSPC;
	return switch_segment(w, type, secno * w->segs_per_sec);
}

int wr_log_new_segment(struct f2fs_wr *w, int type)
{
	uint32_t cur, secno, next;

	type = log_of(w, type);
	if (readonly(w) && type == F2FS_CURSEG_HOT_NODE)
		return node_log_down(w);
	cur = w->fs->cpd->curseg_segno[type];
	secno = cur / w->segs_per_sec;
	next = cur + 1;

	if (next % w->segs_per_sec && next < w->segments && seg_free(w, next))
		return switch_segment(w, type, next);
	secno = find_free_section(w, secno, type);
	if (secno == UINT32_MAX)
		return -ENOSPC;
	return switch_segment(w, type, secno * w->segs_per_sec);
}

uint64_t wr_log_next_addr(struct f2fs_wr *w, int type)
{
	const struct f2fs_cp_data *d = w->fs->cpd;

	type = log_of(w, type);
	return f2fs_geo_blkaddr(&w->fs->geo, d->curseg_segno[type], d->curseg_blkoff[type]);
}

static void update_mtime(struct f2fs_wr *w, struct f2fs_seg_entry *se)
{
	uint64_t now = wr_elapsed(w);

	if (!se->mtime || !se->valid)
		se->mtime = now;
	else
		se->mtime = (se->mtime * se->valid + now) / (se->valid + 1u);
}

/* Mark block @off of the current segment of @type valid, with its summary entry. */
static int take_block(struct f2fs_wr *w, int type, uint32_t off, uint32_t nid, uint16_t ofs,
		      uint8_t version)
{
	struct f2fs_cp_data *d = w->fs->cpd;
	uint32_t segno = d->curseg_segno[type];
	struct f2fs_seg_entry *se = f2fs_sit_seg_mut(w->fs->sit, segno);
	struct f2fs_sec_entry *sec = &w->fs->sit->sec[segno / w->segs_per_sec];
	struct f2fs_summary *e = &d->curseg_sum[type].entries[off];

	if (!se)
		return -ENOMEM;
	e->nid = le32_put(nid);
	e->version = version;
	e->ofs_in_node = le16_put(ofs);
	update_mtime(w, se);
	f2fs_set_bit_msb(se->map, off);
	se->valid++;
	se->ckpt_valid++;
	se->type = (uint8_t)type;
	sec->valid++;
	sec->ckpt_valid++;
	w->valid_blocks++;
	wr_seg_dirty(w, segno);
	return 0;
}

int wr_alloc_block(struct f2fs_wr *w, int type, uint32_t nid, uint16_t ofs, uint8_t version,
		   uint64_t *blkaddr)
{
	struct f2fs_cp_data *d = w->fs->cpd;
	int ret;

	type = log_of(w, type);
	if (w->area && !wr_area_has(w->area, d->curseg_segno[type] / w->segs_per_sec)) {
		ret = wr_log_new_section(w, type);
		if (ret)
			return ret;
	}
	for (;;) {
		uint64_t addr;

		if (d->curseg_blkoff[type] >= seg_end(w, type)) {
			ret = wr_log_new_segment(w, type);
			if (ret)
				return ret;
		}
		addr = wr_log_next_addr(w, type);
		if (w->policy && !w->policy(addr, w->policy_arg)) {
			d->curseg_blkoff[type]++;
			continue;
		}
		ret = take_block(w, type, d->curseg_blkoff[type], nid, ofs, version);
		if (ret)
			return ret;
		d->curseg_blkoff[type]++;
		*blkaddr = addr;
		/* like the kernel, move on at once, so the next address is known */
		if (d->curseg_blkoff[type] >= seg_end(w, type))
			return wr_log_new_segment(w, type);
		return 0;
	}
}

int wr_set_summary(struct f2fs_wr *w, uint64_t blkaddr, uint32_t nid, uint16_t ofs, uint8_t version,
		   bool node)
{
	uint32_t segno = seg_of(w, blkaddr), off = f2fs_geo_blkoff(&w->fs->geo, blkaddr);
	int log = f2fs_cp_log_of_segment(w->fs->cpd, segno), ret = 0;
	const struct f2fs_summary_block *cur;
	struct f2fs_summary_block sum, *s = &sum;

	if (log >= 0) {
		s = &w->fs->cpd->curseg_sum[log];
	} else {
		cur = f2fs_ssa_get(w->fs->ssa, segno, &ret);
		if (!cur)
			return ret;
		sum = *cur;
	}
	s->entries[off].nid = le32_put(nid);
	s->entries[off].ofs_in_node = le16_put(node ? 0 : ofs);
	s->entries[off].version = version;
	s->footer.entry_type = node ? F2FS_SUM_TYPE_NODE : F2FS_SUM_TYPE_DATA;
	if (log >= 0) {
		wr_mark_dirty(w); /* the pack carries it */
		return 0;
	}
	return wr_write_summary(w, segno, &sum);
}

/* Mark @blkaddr valid where it is; an empty segment no log is open in becomes @type_if_empty. */
static int claim(struct f2fs_wr *w, uint64_t blkaddr, int type_if_empty, uint32_t nid, uint16_t ofs,
		 uint8_t version, bool node)
{
	uint32_t segno, off;
	struct f2fs_seg_entry *se;
	struct f2fs_sec_entry *sec;
	int ret;

	if (!f2fs_geo_in_main(&w->fs->geo, blkaddr) || wr_block_valid(w, blkaddr))
		return -EINVAL;
	segno = seg_of(w, blkaddr);
	off = f2fs_geo_blkoff(&w->fs->geo, blkaddr);
	se = f2fs_sit_seg_mut(w->fs->sit, segno);
	if (!se)
		return -ENOMEM;
	ret = wr_set_summary(w, blkaddr, nid, ofs, node ? 0 : version, node);
	if (ret)
		return ret;
	if (wr_is_cur_seg(w, segno))
		se->type = (uint8_t)f2fs_cp_log_of_segment(w->fs->cpd, segno);
	else if (se->valid == 0)
		se->type = (uint8_t)type_if_empty;
	sec = &w->fs->sit->sec[segno / w->segs_per_sec];
	update_mtime(w, se);
	f2fs_set_bit_msb(se->map, off);
	se->valid++;
	sec->valid++;
	w->valid_blocks++;
	use_section(w, segno / w->segs_per_sec);
	wr_seg_dirty(w, segno);
	return 0;
}

int wr_claim_block(struct f2fs_wr *w, uint64_t blkaddr, bool was_hole, uint32_t nid, uint16_t ofs,
		   uint8_t version)
{
	/* the kernel's __f2fs_replace_block in its recovery flow */
	return claim(w, blkaddr, was_hole ? F2FS_CURSEG_COLD_DATA : F2FS_CURSEG_WARM_DATA, nid, ofs,
		     version, false);
}

int wr_claim_node_block(struct f2fs_wr *w, uint64_t blkaddr, uint32_t nid, int type)
{
	return claim(w, blkaddr, type, nid, 0, 0, true);
}

bool wr_block_valid(struct f2fs_wr *w, uint64_t blkaddr)
{
	const struct f2fs_seg_entry *se;

	if (!f2fs_geo_in_main(&w->fs->geo, blkaddr))
		return false;
	se = f2fs_sit_seg(w->fs->sit, seg_of(w, blkaddr));
	return se && f2fs_test_bit_msb(se->map, f2fs_geo_blkoff(&w->fs->geo, blkaddr));
}

void wr_invalidate(struct f2fs_wr *w, uint64_t blkaddr)
{
	uint32_t segno, off;
	struct f2fs_seg_entry *se;
	struct f2fs_sec_entry *sec;

	if (!wr_block_valid(w, blkaddr))
		return;
	segno = seg_of(w, blkaddr);
	off = f2fs_geo_blkoff(&w->fs->geo, blkaddr);
	se = f2fs_sit_seg_mut(w->fs->sit, segno);
	sec = &w->fs->sit->sec[segno / w->segs_per_sec];
	f2fs_clear_bit_msb(se->map, off);
	se->valid--;
	sec->valid--;
	w->valid_blocks--;
	wr_seg_dirty(w, segno);
	maybe_prefree(w, segno / w->segs_per_sec);
}

/* A section's checkpointed valid blocks, read as f2fs_write_set_section_counts() chose. */
static uint32_t section_ckpt_valid(struct f2fs_wr *w, uint32_t secno)
{
	uint32_t segno, end = (secno + 1) * w->segs_per_sec, sum = 0;

	if (w->section_counts == F2FS_SECTION_COUNTS_CACHED)
		return w->fs->sit->sec[secno].ckpt_valid;
	for (segno = secno * w->segs_per_sec; segno < end; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(w->fs->sit, segno);

		sum += se ? se->ckpt_valid : 0;
	}
	return sum;
}

uint64_t wr_curseg_room(struct f2fs_wr *w)
{
	uint64_t per_sec = f2fs_geo_sec_usable(&w->fs->geo), room = 0;
	int type;

	for (type = 0; type < F2FS_NR_CURSEG_TYPE; type++) {
		uint32_t segno = w->fs->cpd->curseg_segno[type];
		uint32_t used = section_ckpt_valid(w, segno / w->segs_per_sec);

		if (!F2FS_LOG_IN_USE(w->fs->features, type))
			continue;
		room += used < per_sec ? per_sec - used : 0;
	}
	w->stats.space_checks++;
	w->curseg_room = room;
	return room;
}

void f2fs_write_set_section_counts(struct f2fs_fs *fs, enum f2fs_section_counts how)
{
	struct f2fs_wr *w;

	if (!wr_get(fs, &w))
		w->section_counts = how;
}

bool wr_has_free_blocks(struct f2fs_wr *w, uint64_t n)
{
	return w->valid_blocks + n <= w->user_block_count;
}

void wr_alloc_checkpointed(struct f2fs_wr *w)
{
	struct f2fs_sit_table *sit = w->fs->sit;
	uint32_t i;

	for (i = 0; i < w->ndirty; i++) {
		uint32_t segno = w->dirty_list[i];
		struct f2fs_seg_entry *se = f2fs_sit_seg_mut(sit, segno);
		bool was_free = seg_free(w, segno);

		sit->sec[segno / w->segs_per_sec].ckpt_valid -= se->ckpt_valid - se->valid;
		se->ckpt_valid = se->valid;
		if (!was_free && seg_free(w, segno))
			sit->free_segments++;
		f2fs_clear_bit_lsb(w->seg_dirty, segno);
	}
	w->ndirty = 0;
	for (i = 0; w->prefree_sections && i < w->sections; i++) {
		if (!f2fs_test_bit_lsb(w->sec_prefree, i))
			continue;
		f2fs_clear_bit_lsb(w->sec_prefree, i);
		w->prefree_sections--;
		if (sit->sec[i].valid == 0 && sit->sec[i].ckpt_valid == 0 && !sec_has_cur(w, i)) {
			f2fs_clear_bit_lsb(w->sec_used, i);
			w->free_sections++;
			wr_zone_freed(w, i);
		}
	}
}

/* ---- the SIT at a checkpoint (f2fs_flush_sit_entries) ---- */

static void raw_sit(const struct f2fs_seg_entry *se, struct f2fs_sit_entry *raw)
{
	raw->vblocks =
	    le16_put((uint16_t)((unsigned int)se->type << F2FS_SIT_VBLOCKS_SHIFT | se->valid));
	memcpy(raw->valid_map, se->map, sizeof(raw->valid_map));
	raw->mtime = le64_put(se->mtime);
}

static uint32_t sit_journal_find(const struct f2fs_journal *j, uint32_t segno)
{
	uint32_t i, n = le16_get(j->n_sits);

	for (i = 0; i < n; i++)
		if (le32_get(f2fs_sit_journal_at(j, i)->segno) == segno)
			return i;
	return n;
}

static void sit_journal_put(struct f2fs_wr *w, struct f2fs_journal *j, uint32_t segno)
{
	struct f2fs_seg_entry *se = f2fs_sit_seg_mut(w->fs->sit, segno);
	uint32_t i = sit_journal_find(j, segno);
	struct f2fs_sit_journal_entry *e = f2fs_sit_journal_at(j, i);

	if (i == le16_get(j->n_sits))
		j->n_sits = le16_put((uint16_t)(i + 1));
	e->segno = le32_put(segno);
	raw_sit(se, &e->se);
	se->from_journal = 1;
}

static int write_sit_block(struct f2fs_wr *w, uint32_t blk)
{
	struct f2fs_sit_table *t = w->fs->sit;
	uint8_t *bitmap = (uint8_t *)w->fs->cpd->sit_bitmap;
	/* the copy no checkpoint refers to (on a new volume, neither: stay in copy 0) */
	int copy = f2fs_test_bit_msb(bitmap, blk) ^ !w->fresh;
	uint64_t addr = f2fs_sb_sit_block_addr(w->sb, blk, copy);
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_sit_block *sb = (struct f2fs_sit_block *)buf;
	uint32_t i;

	memset(buf, 0, wr_blksize(w));
	for (i = 0; t->blocks[blk] && i < t->per_block; i++) {
		if (blk * t->per_block + i >= t->segments)
			break;
		raw_sit(&t->blocks[blk][i], &sb->entries[i]);
		t->blocks[blk][i].from_journal = 0;
	}
	if (copy)
		f2fs_set_bit_msb(bitmap, blk);
	else
		f2fs_clear_bit_msb(bitmap, blk);
	return wr_write_block(w, addr, buf, F2FS_IO_META);
}

struct sit_group {
	uint32_t blk, count;
};

static int group_cmp(const void *a, const void *b)
{
	const struct sit_group *x = a, *y = b;

	return x->count != y->count ? (x->count < y->count ? -1 : 1)
				    : (x->blk < y->blk ? -1 : x->blk > y->blk);
}

static int seg_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Group the (sorted) dirty segments by SIT block. */
static uint32_t group_dirty(struct f2fs_wr *w, struct sit_group *g)
{
	uint32_t i, n = 0;

	for (i = 0; i < w->ndirty; i++) {
		uint32_t blk = w->dirty_list[i] / w->fs->sit->per_block;

		if (n && g[n - 1].blk == blk)
			g[n - 1].count++;
		else
			g[n++] = (struct sit_group){blk, 1};
	}
	return n;
}

static void put_group_in_journal(struct f2fs_wr *w, struct f2fs_journal *j, uint32_t blk)
{
	uint32_t i;

	for (i = 0; i < w->ndirty; i++)
		if (w->dirty_list[i] / w->fs->sit->per_block == blk)
			sit_journal_put(w, j, w->dirty_list[i]);
}

int wr_sit_flush(struct f2fs_wr *w)
{
	struct f2fs_journal *j = &w->fs->cpd->sit_journal;
	uint32_t room = wr_bg(w)->sit_journal_entries;
	struct sit_group *groups;
	uint32_t n, g, i;
	int ret = 0;

	if (w->sit_to_blocks || w->ndirty + le16_get(j->n_sits) > room) {
		/* not all fit beside the journal: empty it into the dirty set */
		uint32_t nj = le16_get(j->n_sits);

		for (i = 0; i < nj; i++) {
			uint32_t segno = le32_get(f2fs_sit_journal_at(j, i)->segno);

			if (segno < w->segments)
				wr_seg_dirty(w, segno);
		}
		j->n_sits = 0;
	}
	if (!w->ndirty)
		return 0;
	qsort(w->dirty_list, w->ndirty, sizeof(*w->dirty_list), seg_cmp);
	groups = malloc(sizeof(*groups) * (w->ndirty + 1));
	if (!groups)
		return -ENOMEM;
	n = group_dirty(w, groups);
	qsort(groups, n, sizeof(*groups), group_cmp);
	for (g = 0; g < n && !ret; g++) {
		if (!w->sit_to_blocks && groups[g].count + le16_get(j->n_sits) <= room)
			put_group_in_journal(w, j, groups[g].blk);
		else
			ret = write_sit_block(w, groups[g].blk);
	}
	free(groups);
	if (!ret)
		w->sit_to_blocks = false;
	return ret;
}
