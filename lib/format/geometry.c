// SPDX-License-Identifier: GPL-2.0
/*
 * The main-area geometry of a superblock (see f2fs/geometry.h): computed
 * once, then every segno/blkaddr/section conversion is an inline helper.
 */
#include "config.h"

#include "f2fs/endian.h"
#include "f2fs/geometry.h"

void f2fs_geometry_init(struct f2fs_geometry *g, const struct f2fs_super_block *sb)
{
	uint64_t block_count = le64_get(sb->block_count);

	if (f2fs_blkgeo_init_features(&g->blk, le32_get(sb->log_blocksize), le32_get(sb->feature)))
		g->blk = *f2fs_blkgeo_4k();
	g->main_blkaddr = le32_get(sb->main_blkaddr);
	g->main_segs = le32_get(sb->segment_count_main);
	g->segs_per_sec = le32_get(sb->segs_per_sec);
	if (!g->segs_per_sec)
		g->segs_per_sec = 1;
	g->sections = g->main_segs / g->segs_per_sec;
	g->main_end =
	    (uint64_t)g->main_blkaddr + (uint64_t)g->main_segs * F2FS_DEFAULT_BLKS_PER_SEG;
	if (g->main_end > block_count)
		g->main_end = block_count > g->main_blkaddr ? block_count : g->main_blkaddr;
	g->main_blocks = g->main_end - g->main_blkaddr;
	g->unusable_per_sec = 0;
}
