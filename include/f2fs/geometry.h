/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where things are in the main area: segment and section numbers, block
 * addresses and offsets, and the main-area bounds.  This is the one place
 * that converts between them; everything else calls these helpers rather
 * than multiplying by blocks per segment itself.  A geometry is built once
 * from a superblock that f2fs_volume_open() (or mkfs) has validated, so the
 * products below cannot overflow their types.
 */
#ifndef F2FS_GEOMETRY_H
#define F2FS_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/blkgeo.h"
#include "f2fs/format.h"

struct f2fs_geometry {
	struct f2fs_blkgeo blk; /* the block size and what it sizes (f2fs/blkgeo.h) */
	uint32_t main_blkaddr;	/* first block of the main area */
	uint32_t main_segs;	/* segment_count_main */
	uint32_t segs_per_sec;
	uint32_t sections;    /* main_segs / segs_per_sec */
	uint64_t main_end;    /* first block past the main area (never past block_count) */
	uint64_t main_blocks; /* main_end - main_blkaddr */
	/*
	 * Blocks at the end of every section past its zone's capacity, which
	 * no one writes (a zoned volume whose zones' capacity is below their
	 * size, as the kernel reads it from the zones); 0 on other volumes.
	 */
	uint32_t unusable_per_sec;
};

/*
 * Fill @g from @sb, whose log_blocksize must be one f2fs_blkgeo_init()
 * accepts (f2fs_volume_open and mkfs validate it).
 */
void f2fs_geometry_init(struct f2fs_geometry *g, const struct f2fs_super_block *sb);

static inline bool f2fs_geo_in_main(const struct f2fs_geometry *g, uint64_t blkaddr)
{
	return blkaddr >= g->main_blkaddr && blkaddr < g->main_end;
}

/* Main-area segment of a main-area block. */
static inline uint32_t f2fs_geo_segno(const struct f2fs_geometry *g, uint64_t blkaddr)
{
	return (uint32_t)((blkaddr - g->main_blkaddr) / F2FS_DEFAULT_BLKS_PER_SEG);
}

/* Offset of a main-area block inside its segment. */
static inline uint32_t f2fs_geo_blkoff(const struct f2fs_geometry *g, uint64_t blkaddr)
{
	return (uint32_t)((blkaddr - g->main_blkaddr) % F2FS_DEFAULT_BLKS_PER_SEG);
}

/* Index of a main-area block from the start of the main area. */
static inline uint64_t f2fs_geo_main_index(const struct f2fs_geometry *g, uint64_t blkaddr)
{
	return blkaddr - g->main_blkaddr;
}

/* First block address of main-area segment @segno. */
static inline uint64_t f2fs_geo_seg_start(const struct f2fs_geometry *g, uint32_t segno)
{
	return (uint64_t)g->main_blkaddr + (uint64_t)segno * F2FS_DEFAULT_BLKS_PER_SEG;
}

/* Block @off of segment @segno. */
static inline uint64_t f2fs_geo_blkaddr(const struct f2fs_geometry *g, uint32_t segno, uint32_t off)
{
	return f2fs_geo_seg_start(g, segno) + off;
}

static inline uint32_t f2fs_geo_secno(const struct f2fs_geometry *g, uint32_t segno)
{
	return segno / g->segs_per_sec;
}

static inline uint32_t f2fs_geo_sec_first_seg(const struct f2fs_geometry *g, uint32_t secno)
{
	return secno * g->segs_per_sec;
}

/* First block address of section @secno. */
static inline uint64_t f2fs_geo_sec_start(const struct f2fs_geometry *g, uint32_t secno)
{
	return f2fs_geo_seg_start(g, f2fs_geo_sec_first_seg(g, secno));
}

/*
 * Blocks of main segment @segno that can hold data: all of them, but on a
 * volume with unusable_per_sec only those before the section's capacity
 * (so a segment may have fewer, or none), as the kernel's
 * f2fs_usable_blks_in_seg() counts them.
 */
static inline uint32_t f2fs_geo_seg_usable(const struct f2fs_geometry *g, uint32_t segno)
{
	uint32_t cap, off;

	if (!g->unusable_per_sec)
		return F2FS_DEFAULT_BLKS_PER_SEG;
	cap = g->segs_per_sec * F2FS_DEFAULT_BLKS_PER_SEG - g->unusable_per_sec;
	off = (segno % g->segs_per_sec) * F2FS_DEFAULT_BLKS_PER_SEG;
	if (off >= cap)
		return 0;
	return cap - off < F2FS_DEFAULT_BLKS_PER_SEG ? cap - off : F2FS_DEFAULT_BLKS_PER_SEG;
}

/* Blocks of a section that can hold data (see f2fs_geo_seg_usable). */
static inline uint32_t f2fs_geo_sec_usable(const struct f2fs_geometry *g)
{
	return g->segs_per_sec * F2FS_DEFAULT_BLKS_PER_SEG - g->unusable_per_sec;
}

/* Bytes from the start of the device to block @blkaddr. */
static inline uint64_t f2fs_blk_to_bytes(const struct f2fs_geometry *g, uint64_t blkaddr)
{
	return blkaddr << g->blk.log_blksize;
}

#endif
