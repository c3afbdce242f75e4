/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Volume geometry: from the device size and the mkfs options, where every
 * metadata area starts, how many segments each takes, how much of the main
 * area is reserved and overprovisioned, and where the six logs begin.  This
 * is pure arithmetic (no I/O), so it is unit-tested over a matrix of sizes.
 * The results equal those of newest upstream mkfs.f2fs (g-dev-test) for the
 * same inputs; 1.15 reserved and overprovisioned more.
 */
#ifndef F2FS_LAYOUT_H
#define F2FS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"

#define F2FS_LAYOUT_MAX_DEVICES 8

/*
 * One device of a multi-device volume (-c), or the zoned device of a zoned
 * volume (-m): what the layout needs to know of it.
 */
struct f2fs_layout_device {
	uint64_t sectors;   /* its size, in sectors of sector_size */
	bool zoned;	    /* host-managed or host-aware */
	bool host_managed;  /* sequential writes required */
	uint32_t rnd_zones; /* randomly writable zones at its start (host-managed) */
	/*
	 * A host-managed device of a volume on several: the segments its
	 * zones' capacities leave usable (a zone's partly usable last segment
	 * counts); 0 when every segment is usable.
	 */
	uint64_t usable_segments;
};

struct f2fs_layout_params {
	uint32_t log_blksize;	    /* -b: 12 (4 KiB, also for 0) or 14 (16 KiB) */
	uint64_t total_sectors;	    /* volume size in sectors of sector_size */
	uint32_t sector_size;	    /* 512 .. 4096, a power of two */
	uint64_t start_sector;	    /* partition start, in 512-byte sectors */
	uint32_t segs_per_sec;	    /* -s */
	uint32_t secs_per_zone;	    /* -z */
	double overprovision;	    /* -o percent; 0 picks the ratio that leaves most user space */
	bool large_nat_bitmap;	    /* -i */
	uint32_t reserved_sections; /* -Z: GC reserve in sections, 0 for the formula */
	/*
	 * -m: sections are the device's zones (segs_per_sec = zone blocks /
	 * 512, secs_per_zone = 1, set by the caller); the metadata must lie in
	 * randomly writable space and the logs start in zones of their own.
	 */
	bool zoned;
	uint64_t zone_blocks; /* with zoned: the zoned devices' zone size in blocks */
	/*
	 * -c: the volume's devices, the first holding the metadata; nr_devices
	 * 0 means one device of total_sectors.  total_sectors is then their sum.
	 * A zoned volume on one device lists it here as well.
	 */
	uint32_t nr_devices;
	struct f2fs_layout_device devices[F2FS_LAYOUT_MAX_DEVICES];
	/*
	 * -O ro: a read-only volume, as upstream lays it out: segment 0 right
	 * after the superblocks, no SSA, nothing reserved or overprovisioned
	 * but the six-section buffer, and two logs -- hot data from the main
	 * area's first segment up, hot node from its last down (the other
	 * four sit on segment 0, unused).
	 */
	bool readonly;
};

/* -Z below this many sections (the six logs, a GC buffer and a node section) is raised to it. */
#define F2FS_MIN_RESERVED_SECTIONS 8u
/* The overprovision percentage -Z uses when -o is not given. */
#define F2FS_RESERVED_DEFAULT_OVERPROVISION 3.0

struct f2fs_layout {
	uint32_t log_blksize; /* 12 or 14: segments are 512 blocks of this size */
	uint32_t log_sectorsize;
	uint32_t log_sectors_per_block;
	uint32_t segs_per_sec;
	uint32_t secs_per_zone;
	uint32_t segs_per_zone;
	uint64_t block_count; /* blocks of the volume */
	uint32_t segment_count;
	uint32_t segment_count_ckpt;
	uint32_t segment_count_sit; /* both copies */
	uint32_t segment_count_nat; /* both copies */
	uint32_t segment_count_ssa;
	uint32_t segment_count_main;
	uint32_t section_count;
	uint32_t segment0_blkaddr;
	uint32_t cp_blkaddr;
	uint32_t sit_blkaddr;
	uint32_t nat_blkaddr;
	uint32_t ssa_blkaddr;
	uint32_t main_blkaddr;
	uint32_t cp_payload; /* extra checkpoint blocks for a large SIT bitmap */
	uint32_t sit_bitmap_bytes;
	uint32_t nat_bitmap_bytes;
	bool large_nat_bitmap;
	double overprovision;	    /* percent, as chosen */
	uint32_t reserved_segments; /* whole sections */
	uint32_t overprov_segments; /* held back from users: includes the reserved ones */
	uint32_t free_segments;	    /* main segments less the open logs (two when read-only) */
	uint64_t user_block_count;
	uint32_t cur_seg[F2FS_NR_CURSEG_TYPE]; /* first segment of each log, main-relative */
	/* main segments users can write: fewer than main when zones' capacity is short */
	uint32_t usable_segments;
	/* a multi-device volume: each device's segments, as its superblock lists them */
	uint32_t nr_devices;
	uint32_t dev_segments[F2FS_LAYOUT_MAX_DEVICES];
};

/*
 * Compute the layout.  Returns 0; -ENOSPC when the device is too small for
 * these options (f2fs_layout_min_bytes() then says what would fit); or
 * -EINVAL for parameters no size can satisfy.  @why holds a one-line reason.
 */
int f2fs_layout_compute(const struct f2fs_layout_params *p, struct f2fs_layout *l, char *why,
			size_t why_len);

/*
 * The space fields of @l (overprovision, reserved_segments,
 * overprov_segments, free_segments, user_block_count) for @main_segs main
 * segments, as mkfs computes them without -o and -Z: what a checkpoint
 * rebuilt without its predecessor records.  -ENOSPC when the main area is
 * too small.
 */
int f2fs_layout_space(uint32_t main_segs, uint32_t segs_per_sec, struct f2fs_layout *l);

/* The reserve -Z asks for once raised to the minimum; 0 without -Z. */
uint32_t f2fs_layout_reserved_sections(const struct f2fs_layout_params *p);

/* The overprovision percentage the options fix (-o, or -Z's default); 0 to search for it. */
double f2fs_layout_overprovision_given(const struct f2fs_layout_params *p);

/*
 * The smallest volume, in bytes, for which f2fs_layout_compute() succeeds
 * with these options (total_sectors is ignored); 0 when none up to 16 TiB.
 */
uint64_t f2fs_layout_min_bytes(const struct f2fs_layout_params *p);

/*
 * What resize.f2fs keeps of a volume and what it asks for: the new size,
 * the ratio (-o, 0 for the best), -s (keep the metadata areas, change only
 * the size of the main area) and the NAT layout (-i, or the volume's).
 */
struct f2fs_layout_resize_params {
	uint64_t block_count;	   /* the new size in blocks */
	uint32_t sector_size;	   /* bytes of the device's sectors */
	uint64_t start_sector;	   /* partition start, in 512-byte sectors */
	uint32_t segs_per_sec;	   /* kept from the volume */
	uint32_t secs_per_zone;	   /* kept from the volume */
	uint32_t segment0_blkaddr; /* kept */
	double overprovision;	   /* -o percent; 0 picks the best */
	bool large_nat_bitmap;
	bool safe; /* -s: the metadata areas stay as @old has them */
	/*
	 * The new metadata areas start where @old's main area starts (segment 0
	 * moves there), so that none of them overlaps @old's: written there,
	 * they leave the old volume whole until the superblock switches.
	 */
	bool relocate;
};

/*
 * The layout of a resized volume, as newest upstream resize.f2fs computes
 * it: whole sections of the new size (not zones), the SIT and NAT sized as
 * mkfs sizes them, one SSA block more than mkfs gives (upstream's resize
 * counts one extra), the reserve (100 / ratio + 7) sections truncated to
 * segments and not rounded, and two sections, not six, held back beyond
 * the larger of reserve and share.  With @p->safe the metadata areas of
 * @old stay (only the main area's size follows the new size, -EINVAL when
 * the kept SIT or SSA cannot address it); with
 * @p->relocate they are laid out afresh from @old's main area start.  @old is the
 * volume's layout (f2fs_layout_of_super).  Returns 0, -ENOSPC when the new
 * size is too small, -EINVAL for a size F2FS cannot address; @why says it.
 */
int f2fs_layout_resize(const struct f2fs_layout *old, const struct f2fs_layout_resize_params *p,
		       struct f2fs_layout *l, char *why, size_t why_len);

/* The layout fields a superblock records (the space fields are left 0). */
void f2fs_layout_of_super(const struct f2fs_super_block *sb, struct f2fs_layout *l);

/* The largest volume F2FS addresses: 16 TiB. */
#define F2FS_MAX_VOLUME_BYTES ((uint64_t)F2FS_MAX_SEGMENTS * F2FS_SEGMENT_BYTES)

/* Block address helpers over a computed layout. */
static inline uint32_t f2fs_layout_seg_blkaddr(const struct f2fs_layout *l, uint32_t main_segno)
{
	return l->main_blkaddr + main_segno * F2FS_DEFAULT_BLKS_PER_SEG;
}

#endif
