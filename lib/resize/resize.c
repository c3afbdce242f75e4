// SPDX-License-Identifier: GPL-2.0
/*
 * Resizing in three steps (include/f2fs/resize.h has the contract):
 *
 *   1. plan: the new superblock from the old one and the target size, and
 *      every reason to refuse, checked while nothing is written yet;
 *   2. confine and capture: the old volume, opened for writing, keeps to
 *      the main-area segments that stay main-area segments in the new
 *      layout (f2fs_confine moves the rest inside and checkpoints), then
 *      its SIT entries, summaries, NAT entries, logs and counts are copied
 *      to memory -- the areas they live in may be overwritten next;
 *   3. commit: the new SIT and NAT copies are cleared, a write-path handle
 *      over the new superblock takes the captured state with segment
 *      numbers shifted (block addresses stay), two checkpoints write it
 *      (both packs then describe the new layout, so the kernel can never
 *      fall back to one of the old), and the superblocks go last.
 *
 * The shift: main_blkaddr moves by whole sections when the metadata areas
 * grow, shrink or move, so segment s of the old main area is segment
 * s - shift of the new one at the same block address.
 *
 * All or nothing.  The kernel picks the superblock in block 0 when it is
 * valid, and the checkpoint pack with the higher version at the address
 * that superblock names; the two choices are independent, so no order of
 * in-place writes switches both at once.  A resize therefore relocates,
 * growing and shrinking alike: segment 0 of the new layout is the old main
 * area's start, the new checkpoint, SIT, NAT and SSA (sized for the new
 * size) go into old main segments the confine step emptied -- with, for a
 * shrink, those past the new end -- and nothing the old superblock and
 * checkpoint look at is written until the superblocks, block 1 first and
 * block 0 last: that last write is the commit.  The old metadata areas are
 * left unused.  -f (upstream's layout in place; with -s upstream's shrink,
 * the areas kept) and a zoned volume (its areas must stay in conventional
 * zones) rewrite the old areas, so a cut in the middle breaks the volume:
 * the tool says so, and -z keeps an undo journal.
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
#include "f2fs/endian.h"
#include "f2fs/fixup.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/nat.h"
#include "f2fs/resize.h"
#include "f2fs/super.h"
#include "f2fs/write.h"
#include "f2fs/zone.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG
#define NO_TYPE	     0xff

struct nat_rec {
	uint32_t nid, ino, blkaddr;
	uint8_t version;
};

/* The confined volume's open logs: current segments, offsets and summaries. */
struct open_logs {
	uint32_t segno[F2FS_NR_CURSEG_TYPE];
	uint16_t blkoff[F2FS_NR_CURSEG_TYPE];
	struct f2fs_summary_block sum[F2FS_NR_CURSEG_TYPE];
};

/* The open log writing old segment @segno, or -1. */
static int log_of(const struct open_logs *l, uint32_t segno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (l->segno[i] == segno)
			return i;
	return -1;
}

/* One kept segment of the old main area, as the confined checkpoint has it. */
struct seg_rec {
	uint8_t type; /* NO_TYPE: free */
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	struct f2fs_summary_block *sum; /* NULL for an open log's (the pack's, in logs[]) */
};

struct resize {
	const struct f2fs_resize_opts *o;
	struct f2fs_resize_report *r;
	char *why;
	size_t why_len;
	struct f2fs_device *dev;
	struct f2fs_super_block old_sb, new_sb;
	struct f2fs_layout new_l;
	int32_t shift;	      /* old segno - new segno */
	uint32_t first, end;  /* old main segments kept: [first, end) */
	struct seg_rec *segs; /* end - first of them */
	struct nat_rec *nat;
	uint32_t nr_nat, nat_cap;
	struct open_logs logs;
	struct f2fs_blkgeo geo;	      /* the volume's block size (4 or 16 KiB) and what it sizes */
	uint8_t cp[F2FS_MAX_BLKSIZE]; /* the confined volume's checkpoint block */
};

static int say(struct resize *z, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int say(struct resize *z, int err, const char *fmt, ...)
{
	va_list ap;

	if (z->why && z->why_len) {
		va_start(ap, fmt);
		vsnprintf(z->why, z->why_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* ---- 1. plan ---- */

static bool zoned(const struct resize *z)
{
	return le32_get(z->old_sb.feature) & F2FS_FEATURE_BLKZONED;
}

static bool shrinking(const struct resize *z)
{
	return le64_get(z->new_sb.block_count) < le64_get(z->old_sb.block_count);
}

/* -f and zoned volumes rewrite the metadata areas where they are. */
static bool in_place(const struct resize *z)
{
	return z->o->force || zoned(z);
}

static bool nat_bitmap_large(const struct f2fs_checkpoint *cp)
{
	return le32_get(cp->ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG;
}

static int refuse_volume(struct resize *z, struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	if (le32_get(cp->ckpt_flags) & CP_ORPHAN_PRESENT_FLAG)
		return say(z, -EUCLEAN,
			   "the volume has orphan inodes: mount it once or run fsck.f2fs first");
	if (le32_get(cp->ckpt_flags) & CP_ERROR_FLAG)
		return say(z, -EUCLEAN, "the checkpoint has the error flag: run fsck.f2fs first");
	return 0;
}

static int plan_layout(struct resize *z, uint64_t blocks, bool large)
{
	const struct f2fs_dev_info *info = f2fs_dev_get_info(z->dev);
	struct f2fs_layout old;
	struct f2fs_layout_resize_params p = {
	    .block_count = blocks,
	    .sector_size = info->sector_size ? info->sector_size : F2FS_MIN_SECTOR_SIZE,
	    .start_sector = info->start_sector,
	    .segs_per_sec = le32_get(z->old_sb.segs_per_sec),
	    .secs_per_zone = le32_get(z->old_sb.secs_per_zone),
	    .segment0_blkaddr = le32_get(z->old_sb.segment0_blkaddr),
	    .overprovision = z->o->overprovision,
	    .large_nat_bitmap = large,
	    /*
	     * A zoned volume's areas fill whole conventional zones: they stay.
	     * -f -s is upstream's shrink, the areas kept where they are.
	     */
	    .safe = zoned(z) || (z->o->safe && in_place(z)),
	    .relocate = blocks != le64_get(z->old_sb.block_count) && !in_place(z),
	};
	char msg[200];
	int ret;

	f2fs_layout_of_super(&z->old_sb, &old);
	ret = f2fs_layout_resize(&old, &p, &z->new_l, msg, sizeof(msg));
	if (ret)
		return say(z, ret, "%s", msg);
	z->new_sb = z->old_sb;
	f2fs_super_set_layout(&z->new_sb, &z->new_l);
	return 0;
}

/*
 * A volume of several devices: each device's blocks follow the one
 * before's, and the kernel wants their segments to sum to segment_count.
 * Segment 0 moving on by k segments takes k from the first device's share
 * (its end stays where it is), and the last device's share takes the rest
 * of the new segment count: the device joined in full
 * (F2FS_VOLUME_GROW_LAST) holds it, as the new size is the join's.  The
 * metadata areas must lie on the first device, and a shrink may not reach
 * into the devices before the last.
 */
static int plan_devices(struct resize *z)
{
	struct f2fs_sb_device d[F2FS_MAX_DEVICES];
	unsigned int n = f2fs_super_devices(&z->old_sb, d), i;
	uint32_t moved =
	    (z->new_l.segment0_blkaddr - le32_get(z->old_sb.segment0_blkaddr)) / BLKS_PER_SEG;
	uint32_t meta = (z->new_l.main_blkaddr - z->new_l.segment0_blkaddr) / BLKS_PER_SEG;
	uint32_t first = d[0].segments > moved ? d[0].segments - moved : 0;
	uint64_t before_last = 0;

	if (n == 0)
		return 0;
	if (zoned(z))
		return say(z, -EINVAL,
			   "resizing a zoned volume of several devices is not supported");
	if (first < meta)
		return say(z, -ENOSPC,
			   "the new metadata areas take %u segments, more than the %u the first "
			   "device (%s) has from the new segment 0",
			   meta, first, d[0].path);
	z->new_sb.devs[0].total_segments = le32_put(first);
	for (i = 0; i + 1 < n; i++)
		before_last += le32_get(z->new_sb.devs[i].total_segments);
	if (z->new_l.segment_count <= before_last)
		return say(z, -ENOSPC,
			   "the new size ends before the last device (%s): a volume of several "
			   "devices shrinks only within its last",
			   d[n - 1].path);
	z->new_sb.devs[n - 1].total_segments =
	    le32_put((uint32_t)(z->new_l.segment_count - before_last));
	return 0;
}

/* Shrinking needs -s, growing refuses it, as upstream's resize.f2fs. */
static int check_direction(struct resize *z, uint64_t blocks)
{
	uint64_t now = le64_get(z->old_sb.block_count);

	if (blocks < now && !z->o->safe)
		return say(z, -EINVAL, "shrinking needs -s (as upstream's resize.f2fs asks)");
	if (blocks > now && z->o->safe)
		return say(z, -EINVAL, "growing does not support -s (safe resize)");
	return 0;
}

/* Byte offsets of the volume's end before and after the resize. */
static uint64_t end_of(const struct f2fs_super_block *sb)
{
	return ((uint64_t)le32_get(sb->segment0_blkaddr) +
		(uint64_t)le32_get(sb->segment_count) * BLKS_PER_SEG) *
	       f2fs_sb_blksize(sb);
}

struct new_zones {
	struct f2fs_device *reset; /* set: reset the sequential zones not empty */
	uint64_t from, to;	   /* the bytes the grown volume adds */
	uint32_t dirty;		   /* sequential zones there not empty */
	const struct f2fs_zone *bad;
	struct f2fs_zone bad_zone;
};

static int look_at_zone(const struct f2fs_zone *zn, void *arg)
{
	struct new_zones *n = arg;

	if (zn->start + zn->len <= n->from || zn->start >= n->to)
		return 0;
	if (zn->cond == F2FS_ZONE_OFFLINE || zn->cond == F2FS_ZONE_READONLY ||
	    (f2fs_zone_is_seq(zn) && zn->capacity != zn->len)) {
		n->bad_zone = *zn;
		n->bad = &n->bad_zone;
		return 1;
	}
	if (!f2fs_zone_is_seq(zn) || zn->wp == zn->start)
		return 0;
	n->dirty++;
	return n->reset ? f2fs_dev_reset_zones(n->reset, zn->start, zn->len) : 0;
}

/*
 * The zones a zoned volume grows into must be writable whole; with @reset,
 * those holding stale data (which would stand in the logs' way) are reset.
 */
static int survey_new_zones(struct resize *z, bool reset)
{
	struct new_zones n = {
	    .reset = reset ? z->dev : NULL, .from = end_of(&z->old_sb), .to = end_of(&z->new_sb)};
	int ret = f2fs_dev_for_each_zone(z->dev, look_at_zone, &n);

	if (ret < 0)
		return say(z, ret, "%s the zones: %s", reset ? "resetting" : "reporting",
			   strerror(-ret));
	if (n.bad)
		return say(z, -EINVAL,
			   "the zone at byte %llu is %s: a volume grows only into whole "
			   "writable zones",
			   (unsigned long long)n.bad->start,
			   n.bad->capacity != n.bad->len ? "smaller in capacity than in size"
							 : "offline or read-only");
	return 0;
}

typedef int (*nat_fn)(struct resize *z, uint32_t nid, const struct f2fs_nat_info *e);

/* @fn for every nid in use (the reserved ones aside), until it returns non-zero. */
static int each_nid_in_use(struct resize *z, struct f2fs_fs *fs, nat_fn fn)
{
	const struct f2fs_nat_table *nat;
	uint32_t blk, nid, per;
	int ret = f2fs_fs_nat(fs, &nat);

	if (ret)
		return say(z, ret, "%s", f2fs_fs_why(fs));
	per = f2fs_nat_per_block(nat);
	for (blk = 0; !ret && blk < f2fs_nat_blocks(nat); blk++) {
		if (!f2fs_nat_block_used(nat, blk))
			continue;
		for (nid = blk * per; !ret && nid < (blk + 1) * per; nid++) {
			const struct f2fs_nat_info *e = f2fs_nat_get(nat, nid);

			if (nid >= F2FS_FIRST_INO_RESERVED && e && e->blkaddr)
				ret = fn(z, nid, e);
		}
	}
	return ret;
}

static int nid_fits(struct resize *z, uint32_t nid, const struct f2fs_nat_info *e)
{
	uint64_t new_max = f2fs_sb_max_nid(&z->new_sb);

	(void)e;
	if (nid < new_max)
		return 0;
	return say(z, -E2BIG, "nid %u is in use, past the %llu nids of the new NAT", nid,
		   (unsigned long long)new_max);
}

static int plan(struct resize *z, struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint64_t blocks = z->o->target_sectors * F2FS_MIN_SECTOR_SIZE / z->geo.blksize;
	uint64_t valid = le64_get(cp->valid_block_count);
	uint32_t old_main = le32_get(z->old_sb.main_blkaddr);
	uint32_t old_segs = le32_get(z->old_sb.segment_count_main);
	int64_t lo, hi;
	int ret = refuse_volume(z, fs);

	if (!ret)
		ret = check_direction(z, blocks);
	if (!ret)
		ret = plan_layout(z, blocks, z->o->large_nat_bitmap || nat_bitmap_large(cp));
	if (!ret)
		ret = plan_devices(z);
	if (ret)
		return ret;
	if (valid > z->new_l.user_block_count)
		return say(
		    z, -ENOSPC,
		    "%llu blocks are in use, more than the %llu the new size leaves for files",
		    (unsigned long long)valid, (unsigned long long)z->new_l.user_block_count);
	z->shift = (int32_t)(((int64_t)z->new_l.main_blkaddr - old_main) / BLKS_PER_SEG);
	lo = z->shift > 0 ? z->shift : 0;
	hi = (int64_t)z->new_l.segment_count_main + z->shift;
	if (hi > old_segs)
		hi = old_segs;
	if (hi <= lo)
		return say(z, -ENOSPC, "the new main area does not overlap the old one");
	z->first = (uint32_t)lo;
	z->end = (uint32_t)hi;
	/* the cleaner moves blocks, never nids: this holds after the confinement too */
	ret = each_nid_in_use(z, fs, nid_fits);
	if (ret)
		return ret;
	if (zoned(z) && !z->o->force)
		return say(z, -EINVAL,
			   "resizing a zoned volume rewrites its metadata in place (it cannot move "
			   "into sequential zones), which a power cut during the resize leaves "
			   "broken: back the volume up and add -f");
	return zoned(z) && !shrinking(z) ? survey_new_zones(z, false) : 0;
}

/* ---- 2. capture ---- */

static int capture_segments(struct resize *z, struct f2fs_fs *fs)
{
	const struct f2fs_sit_table *sit;
	struct f2fs_ssa *ssa;
	const struct f2fs_cp_data *cpd;
	uint32_t segno;
	int i, ret = f2fs_fs_sit(fs, &sit);

	if (!ret)
		ret = f2fs_fs_ssa(fs, &ssa);
	if (!ret)
		ret = f2fs_fs_cp_data(fs, &cpd);
	if (ret)
		return say(z, ret, "%s", f2fs_fs_why(fs));
	memcpy(z->logs.segno, cpd->curseg_segno, sizeof(z->logs.segno));
	memcpy(z->logs.blkoff, cpd->curseg_blkoff, sizeof(z->logs.blkoff));
	memcpy(z->logs.sum, cpd->curseg_sum, sizeof(z->logs.sum));
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (z->logs.segno[i] < z->first || z->logs.segno[i] >= z->end)
			return say(z, -EUCLEAN,
				   "open log %d at segment %u, outside the kept %u..%u", i,
				   z->logs.segno[i], z->first, z->end - 1);
	z->segs = calloc(z->end - z->first, sizeof(*z->segs));
	if (!z->segs)
		return say(z, -ENOMEM, "out of memory");
	for (segno = z->first; segno < z->end; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		struct seg_rec *s = &z->segs[segno - z->first];
		const struct f2fs_summary_block *sum;

		s->type = NO_TYPE;
		if (!se || (!se->valid && f2fs_cp_log_of_segment(cpd, segno) < 0))
			continue;
		s->type = se->type;
		memcpy(s->map, se->map, sizeof(s->map));
		if (f2fs_cp_log_of_segment(cpd, segno) >= 0)
			continue;
		sum = f2fs_ssa_get(ssa, segno, &ret);
		if (!sum)
			return say(z, ret, "SSA of segment %u: %s", segno, f2fs_fs_why(fs));
		s->sum = malloc(sizeof(*s->sum));
		if (!s->sum)
			return say(z, -ENOMEM, "out of memory");
		*s->sum = *sum;
	}
	return 0;
}

static int keep_nat(struct resize *z, uint32_t nid, const struct f2fs_nat_info *e)
{
	if (z->nr_nat == z->nat_cap) {
		uint32_t cap = z->nat_cap ? z->nat_cap * 2 : 4096;
		struct nat_rec *n = realloc(z->nat, cap * sizeof(*n));

		if (!n)
			return say(z, -ENOMEM, "out of memory");
		z->nat = n;
		z->nat_cap = cap;
	}
	z->nat[z->nr_nat++] = (struct nat_rec){nid, e->ino, e->blkaddr, e->version};
	return 0;
}

/* The reason a confinement returning @ret failed, or 0. */
static int confine_failed(struct resize *z, struct f2fs_fs *fs, int ret)
{
	bool moves = z->new_l.segment0_blkaddr != le32_get(z->old_sb.segment0_blkaddr);

	if (ret == -ENOSPC && moves && shrinking(z))
		return say(z, ret,
			   "not enough free space to clear room for the new metadata areas and to "
			   "move the blocks past the new end; -f -s shrinks in place instead (a "
			   "power cut during it breaks the volume)");
	if (ret == -ENOSPC && moves)
		return say(z, ret,
			   "not enough free space to clear room for the new metadata areas; -f "
			   "grows in place instead (a power cut during it breaks the volume)");
	if (ret == -ENOSPC)
		return say(z, ret,
			   "not enough free space to move the blocks outside the new main area "
			   "into it");
	if (ret)
		return say(z, ret, "moving blocks: %s",
			   *f2fs_fs_why(fs) ? f2fs_fs_why(fs) : strerror(-ret));
	return 0;
}

/* Open, plan, confine, capture; the old volume is closed again at the end. */
static int prepare(struct resize *z)
{
	struct f2fs_fs *fs;
	char msg[256];
	int ret = f2fs_fs_open(z->dev, F2FS_FS_WRITE, &fs, msg, sizeof(msg));

	if (ret)
		return say(z, ret, "%s", msg);
	z->geo = f2fs_fs_geo(fs)->blk;
	z->old_sb = *f2fs_fs_sb(fs);
	ret = plan(z, fs);
	if (!ret && !z->o->force &&
	    le64_get(z->new_sb.block_count) == le64_get(z->old_sb.block_count)) {
		z->r->result = F2FS_RESIZE_SAME_SIZE;
		f2fs_fs_close(fs);
		return 0;
	}
	/* with nothing outside the kept segments, nothing moves */
	if (!ret && (z->first || z->end < le32_get(z->old_sb.segment_count_main))) {
		uint64_t before = f2fs_write_stats(fs)->gc_blocks_moved;

		ret = confine_failed(z, fs, f2fs_confine(fs, z->first, z->end));
		z->r->moved_blocks = f2fs_write_stats(fs)->gc_blocks_moved - before;
	}
	if (!ret)
		ret = capture_segments(z, fs);
	if (!ret)
		ret = each_nid_in_use(z, fs, keep_nat);
	if (!ret)
		memcpy(z->cp, f2fs_fs_cp(fs), z->geo.blksize);
	f2fs_fs_close(fs);
	return ret;
}

/* ---- 3. commit ---- */

static uint32_t new_segno(const struct resize *z, uint32_t old)
{
	return (uint32_t)((int64_t)old - z->shift);
}

/* The first checkpoint block of the new layout: the old one's with the new geometry. */
static void build_cp(struct resize *z, struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = &z->new_l;
	uint32_t flags = le32_get(((const struct f2fs_checkpoint *)z->cp)->ckpt_flags);
	int i;

	memcpy(cp, z->cp, z->geo.blksize);
	memset((uint8_t *)cp + F2FS_CP_BITMAP_OFFSET, 0, z->geo.blksize - F2FS_CP_BITMAP_OFFSET);
	for (i = 0; i < 3; i++) {
		cp->cur_data_segno[i] =
		    le32_put(new_segno(z, z->logs.segno[F2FS_CURSEG_HOT_DATA + i]));
		cp->cur_data_blkoff[i] = le16_put(z->logs.blkoff[F2FS_CURSEG_HOT_DATA + i]);
		cp->cur_node_segno[i] =
		    le32_put(new_segno(z, z->logs.segno[F2FS_CURSEG_HOT_NODE + i]));
		cp->cur_node_blkoff[i] = le16_put(z->logs.blkoff[F2FS_CURSEG_HOT_NODE + i]);
	}
	cp->rsvd_segment_count = le32_put(l->reserved_segments);
	cp->overprov_segment_count = le32_put(l->overprov_segments);
	cp->user_block_count = le64_put(l->user_block_count);
	cp->free_segment_count = le32_put(l->free_segments);
	cp->sit_ver_bitmap_bytesize = le32_put(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(l->nat_bitmap_bytes);
	flags &= ~(CP_ORPHAN_PRESENT_FLAG | CP_COMPACT_SUM_FLAG | CP_LARGE_NAT_BITMAP_FLAG |
		   CP_NAT_BITS_FLAG | CP_UMOUNT_FLAG);
	if (l->large_nat_bitmap)
		flags |= CP_LARGE_NAT_BITMAP_FLAG;
	cp->ckpt_flags = le32_put(flags);
	cp->checksum_offset =
	    le32_put(l->large_nat_bitmap ? F2FS_CP_BITMAP_OFFSET : z->geo.cp_chksum_offset);
}

/* Copy 0 of the new SIT and NAT (which the new checkpoint selects) and the new SSA, zeroed. */
static int clear_tables(struct resize *z)
{
	const struct f2fs_super_block *sb = &z->new_sb;
	uint64_t bs = z->geo.blksize, seg_bytes = BLKS_PER_SEG * bs;
	uint32_t pairs = le32_get(sb->segment_count_nat) / 2, p;
	int ret =
	    f2fs_dev_zero(z->dev, le32_get(sb->sit_blkaddr) * bs, f2fs_sb_sit_blocks(sb) * bs);

	for (p = 0; !ret && p < pairs; p++)
		ret = f2fs_dev_zero(z->dev, f2fs_nat_block_addr(sb, p * BLKS_PER_SEG, 0) * bs,
				    seg_bytes);
	if (!ret)
		ret = f2fs_dev_zero(z->dev, le32_get(sb->ssa_blkaddr) * bs,
				    (uint64_t)le32_get(sb->segment_count_ssa) * seg_bytes);
	return ret ? say(z, ret, "clearing the new SIT, NAT and SSA: %s", strerror(-ret)) : 0;
}

/* An open log's summary entries go into the pack, one valid block at a time. */
static int put_log_summary(struct f2fs_fs *fs, const struct resize *z, uint32_t old)
{
	int log = log_of(&z->logs, old);
	const struct f2fs_summary_block *sum = &z->logs.sum[log < 0 ? 0 : log];
	const struct seg_rec *s = &z->segs[old - z->first];
	uint64_t start =
	    (uint64_t)le32_get(z->new_sb.main_blkaddr) + (uint64_t)new_segno(z, old) * BLKS_PER_SEG;
	uint32_t off;
	int ret = 0;

	if (log < 0)
		return -EINVAL;
	for (off = 0; !ret && off < BLKS_PER_SEG; off++)
		if (f2fs_test_bit_msb(s->map, off))
			ret = f2fs_fix_summary(fs, start + off, le32_get(sum->entries[off].nid),
					       le16_get(sum->entries[off].ofs_in_node),
					       log >= F2FS_CURSEG_HOT_NODE);
	return ret;
}

static int fill(struct resize *z, struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)z->cp;
	uint32_t i, old;
	int ret = 0;

	for (i = 0; !ret && i < z->nr_nat; i++)
		ret = f2fs_fix_nat_set(fs, z->nat[i].nid, z->nat[i].ino, z->nat[i].blkaddr,
				       z->nat[i].version);
	for (old = z->first; !ret && old < z->end; old++) {
		const struct seg_rec *s = &z->segs[old - z->first];

		if (s->type == NO_TYPE)
			continue;
		ret = f2fs_fix_segment(fs, new_segno(z, old), s->map, s->type);
		if (!ret)
			ret = s->sum ? f2fs_fix_summary_block(fs, new_segno(z, old), s->sum)
				     : put_log_summary(fs, z, old);
	}
	if (!ret)
		ret = f2fs_fix_recount(fs, le64_get(cp->valid_block_count),
				       le32_get(cp->valid_node_count),
				       le32_get(cp->valid_inode_count));
	return ret;
}

static int commit(struct resize *z)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_checkpoint *cp = calloc(1, z->geo.blksize);
	struct f2fs_fs *fs = NULL;
	int ret = cp ? 0 : say(z, -ENOMEM, "out of memory"), i;

	if (!ret && zoned(z) && !shrinking(z))
		ret = survey_new_zones(z, true);
	if (!ret) {
		build_cp(z, cp);
		ret = clear_tables(z);
	}
	if (!ret && (ret = f2fs_fs_create(z->dev, &z->new_sb, cp, &fs)) != 0)
		say(z, ret, "setting up the write path: %s", strerror(-ret));
	if (!ret && (ret = fill(z, fs)) != 0)
		say(z, ret, "writing the new tables: %s", f2fs_fs_why(fs));
	for (i = 0; !ret && i < 2; i++)
		if ((ret = f2fs_checkpoint(fs, &req)) != 0)
			say(z, ret, "writing the checkpoint: %s", strerror(-ret));
	if (!ret && (ret = f2fs_write_super(fs, &z->new_sb)) != 0)
		say(z, ret, "writing the superblocks: %s", strerror(-ret));
	if (!ret)
		z->new_sb = *f2fs_fs_sb(fs);
	f2fs_fs_close(fs);
	free(cp);
	return ret;
}

static void release(struct resize *z)
{
	uint32_t i;

	for (i = 0; z->segs && i < z->end - z->first; i++)
		free(z->segs[i].sum);
	free(z->segs);
	free(z->nat);
}

int f2fs_resize(struct f2fs_device *dev, const struct f2fs_resize_opts *o,
		struct f2fs_resize_report *r, char *why, size_t why_len)
{
	struct resize *z = calloc(1, sizeof(*z));
	int ret;

	memset(r, 0, sizeof(*r));
	if (!z)
		return -ENOMEM;
	z->o = o;
	z->r = r;
	z->why = why;
	z->why_len = why_len;
	z->dev = dev;
	ret = prepare(z);
	r->old_sb = z->old_sb;
	r->shift_segs = z->shift;
	if (!ret && r->result != F2FS_RESIZE_SAME_SIZE)
		ret = commit(z);
	r->new_sb = z->new_sb;
	release(z);
	free(z);
	return ret;
}
