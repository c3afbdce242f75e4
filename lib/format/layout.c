// SPDX-License-Identifier: GPL-2.0
/*
 * Volume geometry.  The metadata areas follow each other from segment 0
 * (checkpoint, SIT, NAT, SSA), the SSA is padded so the main area starts on a
 * zone boundary, and the reserved/overprovisioned space is derived from the
 * main area.  The arithmetic, including the floating-point search for the
 * best overprovision ratio, deliberately reproduces newest upstream mkfs.f2fs
 * (g-dev-test) so that the same device and options give the same layout.
 * Since 1.15, upstream reserves (100 / ratio + 7) whole sections for garbage
 * collection instead of 2 * (100 / ratio + 1) + 6 segments per section, and
 * holds back the larger of that reserve and the ratio's share of the main
 * area plus six sections, instead of their sum: with large sections users get
 * several times the space 1.15 left them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/endian.h"
#include "f2fs/layout.h"

#define BLKS_PER_SEG	F2FS_DEFAULT_BLKS_PER_SEG
#define NAT_ENTRY_RATIO 20 /* percent of NAT segments kept with -i */
#define NR_OPEN_LOGS	F2FS_NR_CURSEG_TYPE
#define NR_RO_LOGS	2 /* hot data and hot node */

static uint64_t div_round_up(uint64_t val, uint64_t size)
{
	return (val + size - 1) / size;
}

static uint32_t log2_u32(uint32_t v)
{
	uint32_t log = 0;

	while (v > 1) {
		v >>= 1;
		log++;
	}
	return log;
}

/* A bad parameter: -EINVAL. */
static int fail(char *why, size_t len, const char *msg)
{
	if (why && len)
		snprintf(why, len, "%s", msg);
	return -EINVAL;
}

/* Good parameters, but the device is too small for them: -ENOSPC. */
static int too_small(char *why, size_t len, const char *msg)
{
	fail(why, len, msg);
	return -ENOSPC;
}

/* The block geometry of layout @l (a layout from before -b: 4 KiB). */
static struct f2fs_blkgeo layout_geo(const struct f2fs_layout *l)
{
	struct f2fs_blkgeo g;

	if (f2fs_blkgeo_init(&g, l->log_blksize))
		g = *f2fs_blkgeo_4k();
	return g;
}

/* Bytes of a segment of 512 blocks of 1 << @log_blksize bytes. */
static uint64_t segment_bytes(uint32_t log_blksize)
{
	return (uint64_t)BLKS_PER_SEG << log_blksize;
}

/* The SIT bitmap of the largest volume: the most one checkpoint ever carries. */
static uint32_t max_sit_bitmap_bytes(const struct f2fs_blkgeo *g)
{
	uint64_t blocks = div_round_up(F2FS_MAX_SEGMENTS, g->sit_per_block);

	return (uint32_t)(div_round_up(blocks, BLKS_PER_SEG) * BLKS_PER_SEG / 8);
}

/*
 * Segments kept free for garbage collection, in whole sections: -Z's count
 * (raised to the minimum), else (100 / ratio + 1 + 6) sections, truncated to
 * segments and then rounded up to a section, as upstream does.  UINT32_MAX
 * when the reserve does not fit 32 bits (a ratio of almost 0).
 */
static uint32_t reserved_for_ratio(const struct f2fs_layout_params *p, double ratio,
				   uint32_t segs_per_sec)
{
	double segs;

	if (p->reserved_sections)
		segs = (double)f2fs_layout_reserved_sections(p) * segs_per_sec;
	else
		segs = (100 / ratio + 1 + NR_OPEN_LOGS) * segs_per_sec;
	if (segs > UINT32_MAX - segs_per_sec)
		return UINT32_MAX;
	return (uint32_t)div_round_up((uint32_t)segs, segs_per_sec) * segs_per_sec;
}

/* The six open sections held back beyond the reserve, so GC rarely runs dry. */
static uint32_t overprovision_buffer(uint32_t segs_per_sec)
{
	return NR_OPEN_LOGS * segs_per_sec;
}

/*
 * Try ratios in fixed steps and keep the one that leaves the most user
 * space once the larger of the reserve and the ratio's share, and the
 * buffer, are taken out.  The loop accumulates the step in a double and
 * compares strictly, as upstream does, so that ties resolve the same way.
 * @usable main segments count (zones' capacity may leave fewer than
 * @main_segs), and the reserve is in sections of their average usable size.
 */
static double best_overprovision(const struct f2fs_layout_params *p, uint32_t main_segs,
				 uint32_t usable, uint32_t avg_segs_per_sec, uint32_t segs_per_sec)
{
	double ratio, end, step, max_space = 0, best = 0;

	if (main_segs < 256) {
		ratio = 10;
		end = 95;
		step = 5;
	} else {
		ratio = 0.01;
		end = 10;
		step = 0.01;
	}
	for (; ratio <= end; ratio += step) {
		uint32_t reserved = reserved_for_ratio(p, ratio, avg_segs_per_sec);
		double ovp, held, space;

		if (reserved >= usable)
			continue; /* no share left to overprovision */
		ovp = (double)(usable - reserved) * ratio / 100;
		held = (double)reserved > ovp ? (double)reserved : ovp;
		space = (double)usable - held - overprovision_buffer(segs_per_sec);
		if (max_space < space) {
			max_space = space;
			best = ratio;
		}
	}
	return best;
}

static void place_metadata(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			   uint32_t *max_nat_bitmap)
{
	struct f2fs_blkgeo g = layout_geo(l);
	/* the version bitmaps share the checkpoint block up to its checksum */
	uint32_t in_cp = g.cp_chksum_offset - F2FS_CP_BITMAP_OFFSET;
	uint64_t blocks, avail;
	uint32_t sit_segs, max_sit_bitmap, sit_bitmap, max_nat_segs;

	l->segment_count_ckpt = F2FS_CP_PACKS;
	l->sit_blkaddr = l->segment0_blkaddr + l->segment_count_ckpt * BLKS_PER_SEG;
	blocks = div_round_up(l->segment_count, g.sit_per_block);
	sit_segs = (uint32_t)div_round_up(blocks, BLKS_PER_SEG);
	l->segment_count_sit = sit_segs * 2;
	l->nat_blkaddr = l->sit_blkaddr + l->segment_count_sit * BLKS_PER_SEG;

	avail = (uint64_t)(l->segment_count - (l->segment_count_ckpt + l->segment_count_sit)) *
		BLKS_PER_SEG;
	blocks = div_round_up(avail, g.nat_per_block);
	if (p->large_nat_bitmap) {
		uint32_t nat_segs =
		    (uint32_t)(div_round_up(blocks, BLKS_PER_SEG) * NAT_ENTRY_RATIO / 100);

		l->segment_count_nat = nat_segs ? nat_segs : 1;
		*max_nat_bitmap = (l->segment_count_nat * BLKS_PER_SEG) / 8;
		l->segment_count_nat *= 2;
	} else {
		l->segment_count_nat = (uint32_t)div_round_up(blocks, BLKS_PER_SEG);
		*max_nat_bitmap = 0;
	}

	/* The version bitmaps must fit the checkpoint block, or spill into cp_payload. */
	sit_bitmap = (l->segment_count_sit / 2) * BLKS_PER_SEG / 8;
	max_sit_bitmap =
	    sit_bitmap < max_sit_bitmap_bytes(&g) ? sit_bitmap : max_sit_bitmap_bytes(&g);
	if (p->large_nat_bitmap) {
		uint32_t both = max_sit_bitmap + *max_nat_bitmap;

		l->cp_payload = both > in_cp ? (uint32_t)div_round_up(both - in_cp, g.blksize) : 0;
		return;
	}
	if (max_sit_bitmap > in_cp - F2FS_CP_MIN_NAT_BITMAP_SIZE) {
		*max_nat_bitmap = in_cp;
		l->cp_payload = (uint32_t)div_round_up(max_sit_bitmap, g.blksize);
	} else {
		*max_nat_bitmap = in_cp - max_sit_bitmap;
		l->cp_payload = 0;
	}
	max_nat_segs = (*max_nat_bitmap * 8) / BLKS_PER_SEG;
	if (l->segment_count_nat > max_nat_segs)
		l->segment_count_nat = max_nat_segs;
	l->segment_count_nat *= 2;
}

/*
 * Returns the number of zones the metadata takes; pads the SSA to a zone.
 * @extra: SSA blocks counted past the main segments' (upstream's resize
 * counts one, mkfs none).
 */
static uint32_t place_ssa(struct f2fs_layout *l, bool readonly, uint32_t extra)
{
	uint32_t meta, rem;
	uint64_t avail;

	l->ssa_blkaddr = l->nat_blkaddr + l->segment_count_nat * BLKS_PER_SEG;
	avail = (uint64_t)(l->segment_count -
			   (l->segment_count_ckpt + l->segment_count_sit + l->segment_count_nat)) *
		BLKS_PER_SEG;
	l->segment_count_ssa =
	    readonly ? 0 : (uint32_t)div_round_up(avail / BLKS_PER_SEG + extra, BLKS_PER_SEG);
	meta = l->segment_count_ckpt + l->segment_count_sit + l->segment_count_nat +
	       l->segment_count_ssa;
	rem = meta % l->segs_per_zone;
	if (rem)
		l->segment_count_ssa += l->segs_per_zone - rem;
	return (uint32_t)div_round_up(meta, l->segs_per_zone);
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static bool volume_host_managed(const struct f2fs_layout_params *p)
{
	uint32_t i;

	for (i = 0; i < (p->nr_devices ? p->nr_devices : 1); i++)
		if (p->devices[i].host_managed)
			return true;
	return false;
}

/* Two logs on one segment (tiny volumes): lay them out one zone apart in type order. */
static void spread_logs(struct f2fs_layout *l)
{
	int i, j;

	for (i = 0; i < NR_OPEN_LOGS; i++)
		for (j = i + 1; j < NR_OPEN_LOGS; j++)
			if (l->cur_seg[i] == l->cur_seg[j])
				goto spread;
	return;
spread:
	for (i = 0; i < NR_OPEN_LOGS; i++)
		l->cur_seg[i] = (uint32_t)i * l->segs_per_zone;
}

/*
 * First segment of each log, zone-separated, as upstream places them: the
 * node logs and hot data from the start, cold data a quarter and warm data
 * half way into the main area.
 */
static void place_logs(struct f2fs_layout *l, uint32_t total_zones)
{
	uint32_t *cur = l->cur_seg, spz = l->segs_per_zone;

	cur[F2FS_CURSEG_HOT_NODE] = 0;
	cur[F2FS_CURSEG_WARM_NODE] = spz;
	cur[F2FS_CURSEG_COLD_NODE] = 2 * spz;
	cur[F2FS_CURSEG_HOT_DATA] = 3 * spz;
	cur[F2FS_CURSEG_COLD_DATA] =
	    max_u32(((total_zones >> 2) - 1) * spz, cur[F2FS_CURSEG_HOT_DATA] + spz);
	cur[F2FS_CURSEG_WARM_DATA] =
	    max_u32(((total_zones >> 1) - 1) * spz, cur[F2FS_CURSEG_COLD_DATA] + spz);
	spread_logs(l);
}

/* Hot node in the last section of the last zone, every other log on the first segment. */
static void place_readonly_logs(struct f2fs_layout *l, uint32_t total_zones)
{
	memset(l->cur_seg, 0, sizeof(l->cur_seg));
	l->cur_seg[F2FS_CURSEG_HOT_NODE] =
	    (total_zones - 1) * l->segs_per_zone + (l->secs_per_zone - 1) * l->segs_per_sec;
}

/*
 * On a zoned volume the logs take consecutive zones, in the order hot,
 * warm, cold node, hot, warm, cold data; on a host-managed volume whose
 * zoned devices hold at least six zones they start on the first of them
 * (the second device), leaving the first device's main area to the
 * cleaner.
 */
static void place_zoned_logs(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			     uint32_t total_zones, uint32_t meta_zones)
{
	static const int order[NR_OPEN_LOGS] = {
	    F2FS_CURSEG_HOT_NODE, F2FS_CURSEG_WARM_NODE, F2FS_CURSEG_COLD_NODE,
	    F2FS_CURSEG_HOT_DATA, F2FS_CURSEG_WARM_DATA, F2FS_CURSEG_COLD_DATA,
	};
	uint32_t first = 0, conv_zones, i;

	if (volume_host_managed(p) && p->nr_devices > 1) {
		conv_zones = l->dev_segments[0] / l->segs_per_zone - meta_zones;
		if (total_zones - conv_zones >= NR_OPEN_LOGS)
			first = (uint32_t)((l->segment0_blkaddr +
					    (uint64_t)l->dev_segments[0] * BLKS_PER_SEG -
					    l->main_blkaddr) /
					   BLKS_PER_SEG);
	}
	for (i = 0; i < NR_OPEN_LOGS; i++)
		l->cur_seg[order[i]] = first + i * l->segs_per_zone;
	spread_logs(l);
}

/* log2 of the block size @p asks for (4 KiB when it names none). */
static uint32_t layout_log_blksize(const struct f2fs_layout_params *p)
{
	return p->log_blksize ? p->log_blksize : F2FS_BLKSIZE_BITS;
}

static int check_params(const struct f2fs_layout_params *p, char *why, size_t len)
{
	if (p->log_blksize && p->log_blksize != F2FS_MIN_BLKSIZE_BITS &&
	    p->log_blksize != F2FS_MAX_BLKSIZE_BITS)
		return fail(why, len, "the block size must be 4096 or 16384");
	if (p->sector_size > (1u << layout_log_blksize(p)))
		return fail(why, len, "sectors larger than the block");
	if (p->sector_size < F2FS_MIN_SECTOR_SIZE || p->sector_size > F2FS_MAX_SECTOR_SIZE ||
	    (p->sector_size & (p->sector_size - 1)))
		return fail(why, len, "sector size must be a power of two from 512 to 4096");
	if (p->segs_per_sec == 0 || p->secs_per_zone == 0)
		return fail(why, len, "segments per section and sections per zone must be >= 1");
	if ((uint64_t)p->segs_per_sec * p->secs_per_zone > F2FS_MAX_SEGMENTS)
		return fail(why, len, "zone larger than the largest volume");
	if (p->overprovision < 0 || p->overprovision > 100)
		return fail(why, len, "overprovision ratio must be within 0..100");
	if (p->total_sectors * p->sector_size > F2FS_MAX_VOLUME_BYTES)
		return fail(why, len, "F2FS can support 16TB at most");
	if (p->nr_devices > F2FS_LAYOUT_MAX_DEVICES)
		return fail(why, len, "a volume spans at most 8 devices");
	if (p->zoned && p->secs_per_zone != 1)
		return fail(why, len, "a zoned volume has one section per zone");
	if (p->readonly && (p->zoned || p->nr_devices > 1))
		return fail(why, len, "a read-only volume lies on one regular device");
	return 0;
}

uint32_t f2fs_layout_reserved_sections(const struct f2fs_layout_params *p)
{
	if (p->reserved_sections && p->reserved_sections < F2FS_MIN_RESERVED_SECTIONS)
		return F2FS_MIN_RESERVED_SECTIONS;
	return p->reserved_sections;
}

double f2fs_layout_overprovision_given(const struct f2fs_layout_params *p)
{
	if (p->overprovision == 0 && p->reserved_sections)
		return F2FS_RESERVED_DEFAULT_OVERPROVISION;
	return p->overprovision;
}

/*
 * A read-only volume is never cleaned: no reserve, no overprovision ratio,
 * only the six-section buffer held back, and two open logs.
 */
static int readonly_space(struct f2fs_layout *l, char *why, size_t len)
{
	l->overprovision = 0;
	l->reserved_segments = 0;
	l->overprov_segments = overprovision_buffer(l->segs_per_sec);
	if (l->usable_segments <= l->overprov_segments)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	l->free_segments = l->usable_segments - NR_RO_LOGS;
	l->user_block_count = (uint64_t)(l->usable_segments - l->overprov_segments) * BLKS_PER_SEG;
	return 0;
}

/*
 * The reserve, the overprovision count (which includes it) and the user
 * space.  With -Z the ratio's share must hold the six-section buffer and
 * the reserve comes on top of it; otherwise the larger of reserve and share,
 * plus the buffer, is held back.  Counts are of the usable main segments.
 */
static int compute_overprovision(const struct f2fs_layout_params *p, struct f2fs_layout *l,
				 char *why, size_t len)
{
	uint32_t main_segs = l->segment_count_main, usable = l->usable_segments;
	uint32_t buffer = overprovision_buffer(l->segs_per_sec), share, avg;

	avg = l->section_count ? (uint32_t)div_round_up(usable, l->section_count) : l->segs_per_sec;
	if (p->readonly)
		return readonly_space(l, why, len);
	l->overprovision = f2fs_layout_overprovision_given(p);
	if (l->overprovision == 0)
		l->overprovision = best_overprovision(p, main_segs, usable, avg, l->segs_per_sec);
	if (l->overprovision == 0)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	l->reserved_segments = reserved_for_ratio(p, l->overprovision, avg);
	if (main_segs < NR_OPEN_LOGS || main_segs - NR_OPEN_LOGS < l->reserved_segments ||
	    usable < l->reserved_segments)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	share = (uint32_t)((double)(usable - l->reserved_segments) * l->overprovision / 100);
	if (p->reserved_sections) {
		if (share < buffer)
			return too_small(
			    why, len,
			    "not enough overprovision segments for the reserved sections");
		l->overprov_segments = share + l->reserved_segments;
	} else {
		l->overprov_segments = max_u32(l->reserved_segments, share) + buffer;
	}
	if (usable <= l->overprov_segments)
		return too_small(why, len, "not enough segments to create F2FS volume");
	l->free_segments = usable - NR_OPEN_LOGS;
	l->user_block_count = (uint64_t)(usable - l->overprov_segments) * BLKS_PER_SEG;
	return 0;
}

int f2fs_layout_space(uint32_t main_segs, uint32_t segs_per_sec, struct f2fs_layout *l)
{
	struct f2fs_layout_params p = {.segs_per_sec = segs_per_sec};

	memset(l, 0, sizeof(*l));
	l->segment_count_main = main_segs;
	l->usable_segments = main_segs;
	l->segs_per_sec = segs_per_sec ? segs_per_sec : 1;
	l->section_count = main_segs / l->segs_per_sec;
	return compute_overprovision(&p, l, NULL, 0);
}

/* The volume's devices: one of total_sectors, or those of -c / -m. */
static uint32_t nr_devices(const struct f2fs_layout_params *p)
{
	return p->nr_devices ? p->nr_devices : 1;
}

static uint64_t device_bytes(const struct f2fs_layout_params *p, uint32_t i)
{
	if (p->nr_devices == 0)
		return p->total_sectors * p->sector_size;
	return p->devices[i].sectors * p->sector_size;
}

/*
 * Where segment 0 starts on the first device: the first zone boundary past
 * the two superblocks (counted from the disk's start, for a partition).  A
 * zoned volume on several devices aligns to a segment, then moves segment
 * 0 on so that the first device ends on a zone boundary of the volume,
 * where the zoned devices' zones begin.
 */
static int segment0_offset(const struct f2fs_layout_params *p, uint64_t zone_bytes, uint64_t *out,
			   char *why, size_t len)
{
	bool zoned_multi = p->zoned && nr_devices(p) > 1;
	uint64_t bs = 1u << layout_log_blksize(p);
	uint64_t align = zoned_multi ? segment_bytes(layout_log_blksize(p)) : zone_bytes;
	uint64_t start = p->start_sector * F2FS_MIN_SECTOR_SIZE, dev0 = device_bytes(p, 0);
	uint64_t off = div_round_up(start + 2 * bs, align) * align - start;

	if (p->readonly)
		off = 2 * bs; /* nothing aligned: the kernel never writes it */
	if (p->zoned && p->start_sector % (bs / F2FS_MIN_SECTOR_SIZE))
		return fail(why, len, "a zoned volume must start on a block boundary");
	if (dev0 < off)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	if (zoned_multi)
		off += (dev0 - off) % zone_bytes;
	*out = off;
	return 0;
}

/* Each device's segments (whole zones), in l->dev_segments, and their sum. */
static int place_devices(const struct f2fs_layout_params *p, struct f2fs_layout *l, uint64_t off,
			 char *why, size_t len)
{
	uint64_t total = 0, bytes;
	uint32_t i, n = nr_devices(p);

	for (i = 0; i < n; i++) {
		bytes = device_bytes(p, i) - (i == 0 ? off : 0);
		l->dev_segments[i] = (uint32_t)(bytes / segment_bytes(l->log_blksize) /
						l->segs_per_zone * l->segs_per_zone);
		total += l->dev_segments[i];
	}
	if (total > F2FS_MAX_SEGMENTS)
		return fail(why, len, "F2FS can support 16TB at most");
	l->nr_devices = p->nr_devices > 1 ? p->nr_devices : 0;
	l->segment_count = (uint32_t)total;
	return 0;
}

/* First block of device @i (i >= 1) of a multi-device layout. */
static uint64_t device_start(const struct f2fs_layout *l, uint32_t i)
{
	uint64_t blk = l->segment0_blkaddr;
	uint32_t k;

	for (k = 0; k < i; k++)
		blk += (uint64_t)l->dev_segments[k] * BLKS_PER_SEG;
	return blk;
}

/* The zone rules upstream checks before it lays the areas out. */
static int check_zone_alignment(const struct f2fs_layout_params *p, const struct f2fs_layout *l,
				char *why, size_t len)
{
	uint64_t first;

	if (!p->zoned)
		return 0;
	if (p->zone_blocks == 0 || p->zone_blocks % BLKS_PER_SEG)
		return fail(why, len, "the zone size must be a multiple of the 2 MiB segment");
	first = nr_devices(p) == 1 ? l->segment0_blkaddr +
					 (p->start_sector * F2FS_MIN_SECTOR_SIZE >> l->log_blksize)
				   : device_start(l, 1) - l->segment0_blkaddr;
	if (first % p->zone_blocks)
		return fail(why, len, "segment 0 or the zoned device does not start on a zone");
	return 0;
}

/*
 * A host-managed first device must hold the metadata in its randomly
 * writable zones, and no zoned device may lie under the metadata.
 */
static int check_metadata_zones(const struct f2fs_layout_params *p, const struct f2fs_layout *l,
				char *why, size_t len)
{
	uint32_t i;

	if (!p->zoned)
		return 0;
	if (p->devices[0].host_managed &&
	    p->devices[0].rnd_zones < l->main_blkaddr / p->zone_blocks)
		return fail(why, len,
			    "the device has too few randomly writable zones for the metadata");
	for (i = 1; i < nr_devices(p); i++)
		if (p->devices[i].zoned && device_start(l, i) < l->main_blkaddr)
			return too_small(why, len,
					 "the first device is too small for the metadata of a "
					 "zoned volume");
	return 0;
}

/*
 * Main segments users can write: every one, but on a volume of several
 * devices a host-managed one contributes what its zones' capacities leave.
 */
static uint32_t usable_segments(const struct f2fs_layout_params *p, const struct f2fs_layout *l)
{
	uint64_t usable = 0;
	uint32_t i;

	if (nr_devices(p) == 1)
		return l->segment_count_main;
	for (i = 0; i < nr_devices(p); i++) {
		const struct f2fs_layout_device *d = &p->devices[i];

		usable +=
		    d->host_managed && d->usable_segments ? d->usable_segments : l->dev_segments[i];
	}
	return (uint32_t)(usable - (l->main_blkaddr - l->segment0_blkaddr) / BLKS_PER_SEG);
}

int f2fs_layout_compute(const struct f2fs_layout_params *p, struct f2fs_layout *l, char *why,
			size_t len)
{
	uint64_t zone_bytes, offset;
	uint32_t meta_zones, all_zones, total_zones, max_nat_bitmap;
	int ret;

	memset(l, 0, sizeof(*l));
	ret = check_params(p, why, len);
	if (ret)
		return ret;
	l->log_blksize = layout_log_blksize(p);
	l->log_sectorsize = log2_u32(p->sector_size);
	l->log_sectors_per_block = l->log_blksize - l->log_sectorsize;
	l->segs_per_sec = p->segs_per_sec;
	l->secs_per_zone = p->secs_per_zone;
	l->segs_per_zone = p->segs_per_sec * p->secs_per_zone;
	l->large_nat_bitmap = p->large_nat_bitmap;
	l->block_count = p->total_sectors >> l->log_sectors_per_block;

	zone_bytes = segment_bytes(l->log_blksize) * l->segs_per_zone;
	ret = segment0_offset(p, zone_bytes, &offset, why, len);
	if (ret)
		return ret;
	l->segment0_blkaddr = (uint32_t)(offset >> l->log_blksize);
	l->cp_blkaddr = l->segment0_blkaddr;
	ret = place_devices(p, l, offset, why, len);
	if (!ret)
		ret = check_zone_alignment(p, l, why, len);
	if (ret)
		return ret;
	if (l->segment_count < F2FS_MIN_SEGMENTS)
		return too_small(why, len, "device size is not sufficient for F2FS volume");

	place_metadata(p, l, &max_nat_bitmap);
	l->sit_bitmap_bytes = (l->segment_count_sit / 2) * BLKS_PER_SEG / 8;
	l->nat_bitmap_bytes = (l->segment_count_nat / 2) * BLKS_PER_SEG / 8;
	if (l->segment_count <= l->segment_count_ckpt + l->segment_count_sit + l->segment_count_nat)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	meta_zones = place_ssa(l, p->readonly, 0);
	l->main_blkaddr = l->segment0_blkaddr + meta_zones * l->segs_per_zone * BLKS_PER_SEG;
	ret = check_metadata_zones(p, l, why, len);
	if (ret)
		return ret;

	all_zones = l->segment_count / l->segs_per_zone;
	if (all_zones <= meta_zones)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	total_zones = all_zones - meta_zones;
	l->section_count = total_zones * l->secs_per_zone;
	l->segment_count_main = l->section_count * l->segs_per_sec;
	l->usable_segments = usable_segments(p, l);

	ret = compute_overprovision(p, l, why, len);
	if (ret)
		return ret;
	if (total_zones <= (p->readonly ? NR_RO_LOGS : NR_OPEN_LOGS))
		return too_small(why, len, "too few zones for the logs: shrink the zone size");
	if (p->readonly)
		place_readonly_logs(l, total_zones);
	else if (p->zoned)
		place_zoned_logs(p, l, total_zones, meta_zones);
	else
		place_logs(l, total_zones);
	return 0;
}

static int layout_fits(const struct f2fs_layout_params *p, uint64_t bytes)
{
	struct f2fs_layout l;
	struct f2fs_layout_params q = *p;

	q.total_sectors = bytes / p->sector_size;
	return f2fs_layout_compute(&q, &l, NULL, 0) == 0;
}

uint64_t f2fs_layout_min_bytes(const struct f2fs_layout_params *p)
{
	uint64_t step = segment_bytes(layout_log_blksize(p)) * p->segs_per_sec * p->secs_per_zone;
	uint64_t lo = 0, hi = step;

	if (step == 0)
		return 0;
	/* Grow until the options fit, then bisect in zone-sized steps. */
	while (!layout_fits(p, hi)) {
		lo = hi;
		hi *= 2;
		if (hi > F2FS_MAX_VOLUME_BYTES) {
			if (!layout_fits(p, F2FS_MAX_VOLUME_BYTES))
				return 0;
			hi = F2FS_MAX_VOLUME_BYTES;
			break;
		}
	}
	while (hi - lo > step) {
		uint64_t mid = lo + (hi - lo) / 2 / step * step;

		if (mid <= lo)
			mid = lo + step;
		if (layout_fits(p, mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

void f2fs_layout_of_super(const struct f2fs_super_block *sb, struct f2fs_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->log_blksize = le32_get(sb->log_blocksize);
	l->log_sectorsize = le32_get(sb->log_sectorsize);
	l->log_sectors_per_block = le32_get(sb->log_sectors_per_block);
	l->segs_per_sec = le32_get(sb->segs_per_sec);
	l->secs_per_zone = le32_get(sb->secs_per_zone);
	l->segs_per_zone = l->segs_per_sec * l->secs_per_zone;
	l->block_count = le64_get(sb->block_count);
	l->segment_count = le32_get(sb->segment_count);
	l->segment_count_ckpt = le32_get(sb->segment_count_ckpt);
	l->segment_count_sit = le32_get(sb->segment_count_sit);
	l->segment_count_nat = le32_get(sb->segment_count_nat);
	l->segment_count_ssa = le32_get(sb->segment_count_ssa);
	l->segment_count_main = le32_get(sb->segment_count_main);
	l->section_count = le32_get(sb->section_count);
	l->segment0_blkaddr = le32_get(sb->segment0_blkaddr);
	l->cp_blkaddr = le32_get(sb->cp_blkaddr);
	l->sit_blkaddr = le32_get(sb->sit_blkaddr);
	l->nat_blkaddr = le32_get(sb->nat_blkaddr);
	l->ssa_blkaddr = le32_get(sb->ssa_blkaddr);
	l->main_blkaddr = le32_get(sb->main_blkaddr);
	l->cp_payload = le32_get(sb->cp_payload);
	l->sit_bitmap_bytes = (l->segment_count_sit / 2) * BLKS_PER_SEG / 8;
	l->nat_bitmap_bytes = (l->segment_count_nat / 2) * BLKS_PER_SEG / 8;
}

/* The reserve and overprovision of a resized volume (upstream's resize formulas). */
static int resized_space(const struct f2fs_layout_resize_params *p, struct f2fs_layout *l,
			 char *why, size_t len)
{
	struct f2fs_layout_params none = {.segs_per_sec = l->segs_per_sec};
	uint32_t main_segs = l->segment_count_main, sps = l->segs_per_sec, share;
	double rsvd;

	l->usable_segments = main_segs;
	l->overprovision = p->overprovision;
	if (l->overprovision == 0)
		l->overprovision = best_overprovision(&none, main_segs, main_segs, sps, sps);
	if (l->overprovision == 0)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	rsvd = (100 / l->overprovision + 1 + NR_OPEN_LOGS) * sps;
	if (rsvd >= UINT32_MAX)
		return too_small(why, len, "overprovision ratio too small");
	l->reserved_segments = (uint32_t)rsvd;
	if (main_segs < 2 || main_segs - 2 < l->reserved_segments ||
	    (uint64_t)main_segs * BLKS_PER_SEG > l->block_count)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	share = (uint32_t)((double)(main_segs - l->reserved_segments) * l->overprovision / 100);
	l->overprov_segments = max_u32(share, l->reserved_segments) + 2 * sps;
	if (l->overprov_segments >= main_segs)
		return too_small(why, len, "not enough segments for the overprovision area");
	l->user_block_count = (uint64_t)(main_segs - l->overprov_segments) * BLKS_PER_SEG;
	l->free_segments = main_segs - NR_OPEN_LOGS;
	return 0;
}

/* A SIT entry for every segment and an SSA block for every main segment. */
static bool kept_areas_address(const struct f2fs_layout *l)
{
	struct f2fs_blkgeo g = layout_geo(l);

	return f2fs_sit_covers(&g, l->segment_count_sit, l->segment_count) &&
	       f2fs_ssa_covers(&g, l->segment_count_ssa, l->segment_count_main);
}

int f2fs_layout_resize(const struct f2fs_layout *old, const struct f2fs_layout_resize_params *p,
		       struct f2fs_layout *l, char *why, size_t len)
{
	uint64_t offset, bytes;
	uint32_t max_nat_bitmap;

	*l = *old;
	if (p->segs_per_sec == 0 || p->secs_per_zone == 0 || p->sector_size == 0)
		return fail(why, len, "segments per section and sections per zone must be >= 1");
	/* sized in the volume's blocks (4 or 16 KiB), so in bytes by its segments */
	bytes = p->block_count << l->log_blksize;
	if (bytes / segment_bytes(l->log_blksize) > F2FS_MAX_SEGMENTS)
		return fail(why, len, "F2FS can support 16TB at most");
	l->block_count = p->block_count;
	/*
	 * Segment 0 stays where the volume has it (mkfs put it at the first zone
	 * boundary past the superblocks; an earlier relocating resize moved it).
	 */
	offset = (uint64_t)old->segment0_blkaddr << l->log_blksize;
	if (p->relocate && !p->safe) {
		l->segment0_blkaddr = old->main_blkaddr;
		l->cp_blkaddr = old->main_blkaddr;
		offset = (uint64_t)old->main_blkaddr << l->log_blksize;
	}
	if (bytes <= offset)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	l->segment_count = (uint32_t)((bytes - offset) / segment_bytes(l->log_blksize) /
				      l->segs_per_sec * l->segs_per_sec);
	if (!p->safe) {
		struct f2fs_layout_params q = {.large_nat_bitmap = p->large_nat_bitmap};

		l->large_nat_bitmap = p->large_nat_bitmap;
		place_metadata(&q, l, &max_nat_bitmap);
		if (l->segment_count <=
		    l->segment_count_ckpt + l->segment_count_sit + l->segment_count_nat)
			return too_small(why, len, "device size is not sufficient for F2FS volume");
		place_ssa(l, false,
			  1); /* upstream's resize: one SSA block past the main segments */
		l->main_blkaddr = l->ssa_blkaddr + l->segment_count_ssa * BLKS_PER_SEG;
		l->sit_bitmap_bytes = (l->segment_count_sit / 2) * BLKS_PER_SEG / 8;
		l->nat_bitmap_bytes = (l->segment_count_nat / 2) * BLKS_PER_SEG / 8;
	}
	if (l->segment_count <= (l->main_blkaddr - l->segment0_blkaddr) / BLKS_PER_SEG)
		return too_small(why, len, "device size is not sufficient for F2FS volume");
	l->segment_count_main = l->segment_count - (l->segment_count_ckpt + l->segment_count_sit +
						    l->segment_count_nat + l->segment_count_ssa);
	l->section_count = l->segment_count_main / l->segs_per_sec;
	l->segment_count_main = l->section_count * l->segs_per_sec;
	if (p->safe && !kept_areas_address(l))
		return fail(why, len,
			    "the metadata areas kept address fewer segments than the new size has");
	return resized_space(p, l, why, len);
}
