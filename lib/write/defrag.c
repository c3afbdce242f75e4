// SPDX-License-Identifier: GPL-2.0
/*
 * Defragmentation, as newest upstream's defrag.f2fs does it: the valid
 * blocks of a block range move to a target area -- from the target block
 * up to the end of the main area, or (shrink) from it down to the main
 * area's start -- and a checkpoint makes the range free.  The blocks move
 * through the cleaner's mechanism (wr_move_blocks: a node to its node log
 * with its NAT entry, data to the log of its segment's type with its
 * direct node, SSA and SIT updated), while the allocator's logs are held
 * to the target area (struct wr_area): a log outside it moves to the
 * area's first free section before it writes, and the direct nodes the
 * moves dirty are written there by the checkpoint too.
 *
 * The area is whole free sections (logs write sections from their start,
 * as the kernel's LFS allocation does), so with a target in the middle of
 * a section the area starts at the next section (shrink: ends at the one
 * before).  Whether it has room is counted before anything moves, so a
 * refused request writes nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/bitops.h"
#include "f2fs/endian.h"
#include "write_internal.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG

/* Upstream's defaults and clamps, then the checks of the range and the target. */
int f2fs_defrag_resolve(const struct f2fs_fs *fs, struct f2fs_defrag_request *req, char *why,
			size_t why_len)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);

	if (req->start >= g->main_end) {
		snprintf(why, why_len,
			 "start 0x%llx is past the main area (it ends before block 0x%llx)",
			 (unsigned long long)req->start, (unsigned long long)g->main_end);
		return -EINVAL;
	}
	if (req->start < g->main_blkaddr)
		req->start = g->main_blkaddr;
	if (!req->len)
		req->len = BLKS_PER_SEG;
	if (req->len > g->main_end - req->start)
		req->len = g->main_end - req->start;
	if (!req->target)
		req->target = req->shrink ? req->start - 1 : req->start + req->len;
	if (req->target < g->main_blkaddr || req->target >= g->main_end) {
		snprintf(why, why_len, "target 0x%llx is outside the main area [0x%x, 0x%llx)",
			 (unsigned long long)req->target, g->main_blkaddr,
			 (unsigned long long)g->main_end);
		return -EINVAL;
	}
	if (req->target >= req->start && req->target < req->start + req->len) {
		snprintf(why, why_len, "target 0x%llx lies in the range [0x%llx, 0x%llx]",
			 (unsigned long long)req->target, (unsigned long long)req->start,
			 (unsigned long long)(req->start + req->len - 1));
		return -EINVAL;
	}
	return 0;
}

/* The sections the logs may write: whole sections from the target on, or down to it. */
static bool target_area(const struct f2fs_geometry *g, const struct f2fs_defrag_request *req,
			struct wr_area *a)
{
	uint64_t sec_blocks = (uint64_t)g->segs_per_sec * BLKS_PER_SEG;
	uint64_t t = req->target - g->main_blkaddr;

	a->skip_first = (uint32_t)((req->start - g->main_blkaddr) / sec_blocks);
	a->skip_last = (uint32_t)((req->start + req->len - 1 - g->main_blkaddr) / sec_blocks);
	a->down = req->shrink;
	if (req->shrink) {
		if (t + 1 < sec_blocks)
			return false;
		a->first = 0;
		a->last = (uint32_t)((t + 1) / sec_blocks - 1);
	} else {
		a->first = (uint32_t)((t + sec_blocks - 1) / sec_blocks);
		a->last = g->sections - 1;
		if (a->first >= g->sections)
			return false;
	}
	return true;
}

/* The range's blocks within segment @segno: [*first, *end). */
static void range_in_segment(struct f2fs_wr *w, const struct f2fs_defrag_request *req,
			     uint32_t segno, uint32_t *first, uint32_t *end)
{
	uint64_t seg_start = f2fs_geo_blkaddr(&w->fs->geo, segno, 0);

	*first = req->start > seg_start ? (uint32_t)(req->start - seg_start) : 0;
	*end = req->start + req->len < seg_start + BLKS_PER_SEG
		   ? (uint32_t)(req->start + req->len - seg_start)
		   : BLKS_PER_SEG;
}

/* Valid blocks of the range, by the log type of their segment. */
static uint64_t count_valid(struct f2fs_wr *w, const struct f2fs_defrag_request *req,
			    uint64_t by_type[F2FS_NR_CURSEG_TYPE])
{
	uint32_t segno = f2fs_geo_segno(&w->fs->geo, req->start);
	uint32_t last = f2fs_geo_segno(&w->fs->geo, req->start + req->len - 1);
	uint64_t total = 0;

	memset(by_type, 0, F2FS_NR_CURSEG_TYPE * sizeof(*by_type));
	for (; segno <= last; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(w->fs->sit, segno);
		uint32_t off, first, end, n = 0;

		if (!se || !se->valid)
			continue;
		range_in_segment(w, req, segno, &first, &end);
		for (off = first; off < end; off++)
			n += f2fs_test_bit_msb(se->map, off) ? 1 : 0;
		by_type[se->type < F2FS_NR_CURSEG_TYPE ? se->type : F2FS_CURSEG_COLD_DATA] += n;
		total += n;
	}
	return total;
}

/*
 * Does the area hold the sections the moves need: each log's blocks in
 * whole sections, and a section for each node log the moved data's
 * direct nodes and inodes go to?
 */
static int check_room(struct f2fs_wr *w, const struct wr_area *a,
		      const uint64_t by_type[F2FS_NR_CURSEG_TYPE], char *why, size_t why_len)
{
	uint64_t sec_blocks = f2fs_geo_sec_usable(&w->fs->geo), need = 0, have = 0;
	uint64_t data = 0;
	uint32_t secno;
	int t;

	for (t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		need += (by_type[t] + sec_blocks - 1) / sec_blocks;
		if (t < F2FS_CURSEG_HOT_NODE)
			data += by_type[t];
	}
	if (data)
		need += 2; /* the hot and warm node logs, for the direct nodes */
	for (secno = a->first; secno <= a->last; secno++)
		have += wr_area_has(a, secno) && !f2fs_test_bit_lsb(w->sec_used, secno);
	if (have >= need)
		return 0;
	snprintf(why, why_len,
		 "not enough room in the target area: %llu free section(s), %llu needed",
		 (unsigned long long)have, (unsigned long long)need);
	return -ENOSPC;
}

static int move_range(struct f2fs_wr *w, const struct f2fs_defrag_request *req, uint64_t *moved)
{
	uint32_t segno = f2fs_geo_segno(&w->fs->geo, req->start);
	uint32_t last = f2fs_geo_segno(&w->fs->geo, req->start + req->len - 1);
	int ret = 0;

	for (; segno <= last && !ret; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(w->fs->sit, segno);
		uint32_t first, end;

		if (!se || !se->valid)
			continue;
		range_in_segment(w, req, segno, &first, &end);
		ret = wr_move_blocks(
		    w, segno, first, end,
		    se->type < F2FS_CURSEG_HOT_NODE ? se->type : F2FS_CURSEG_COLD_DATA, moved);
	}
	return ret;
}

static int refuse_volume(struct f2fs_wr *w, char *why, size_t why_len)
{
	uint32_t features = w->fs->features;

	if (features & F2FS_FEATURE_RO)
		snprintf(why, why_len, "the volume has the ro feature: it is not changed");
	else if (features & F2FS_FEATURE_DEVICE_ALIAS)
		snprintf(why, why_len, "volumes with device aliasing are not supported");
	else if (w->zoned || (features & F2FS_FEATURE_BLKZONED))
		snprintf(why, why_len, "zoned volumes are not supported");
	else if (!(le32_get(f2fs_fs_cp(w->fs)->ckpt_flags) & CP_UMOUNT_FLAG))
		snprintf(why, why_len,
			 "the volume was not unmounted cleanly: mount it to replay the log first");
	else
		return 0;
	return -EINVAL;
}

int f2fs_defrag(struct f2fs_fs *fs, const struct f2fs_defrag_request *req,
		struct f2fs_defrag_report *rep, char *why, size_t why_len)
{
	struct f2fs_cp_request cp = {.reason = F2FS_CP_UMOUNT};
	uint64_t by_type[F2FS_NR_CURSEG_TYPE];
	struct f2fs_wr *w;
	struct wr_area a;
	int ret = wr_get(fs, &w);

	memset(rep, 0, sizeof(*rep));
	if (ret) {
		snprintf(why, why_len, "cannot open the volume for writing: %s", strerror(-ret));
		return ret;
	}
	ret = refuse_volume(w, why, why_len);
	if (ret)
		return ret;
	if (!target_area(&fs->geo, req, &a)) {
		snprintf(why, why_len, "no whole section lies %s target 0x%llx",
			 req->shrink ? "below" : "from", (unsigned long long)req->target);
		return -ENOSPC;
	}
	rep->valid = count_valid(w, req, by_type);
	ret = check_room(w, &a, by_type, why, why_len);
	if (ret || !rep->valid)
		return ret;
	wr_lock(w, F2FS_LOCK_CP, 0, true);
	w->in_gc = true; /* the cleaner would move blocks out of the area */
	w->area = &a;
	ret = move_range(w, req, &rep->moved);
	if (!ret)
		ret = wr_checkpoint(w, &cp);
	w->area = NULL;
	w->in_gc = false;
	wr_unlock(w, F2FS_LOCK_CP, 0, true);
	if (ret) {
		snprintf(why, why_len, "moving the blocks failed: %s", strerror(-ret));
		return ret;
	}
	rep->left = count_valid(w, req, by_type);
	return 0;
}
