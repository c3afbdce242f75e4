// SPDX-License-Identifier: GPL-2.0
/*
 * Write pointers: a zoned volume checked on its zoned device(s).  The kernel
 * reads every zone at mount and compares it with what the checkpoint says
 * (fs/f2fs/segment.c: fix_curseg_write_pointer, check_zone_write_pointer),
 * and so does this pass, with the kernel's verdicts:
 *   - a block in use past its zone's pointer is lost: the device returns
 *     zeros for it (the walk drops it, PR_ZONE_BLOCK_PAST_WP, and the owner
 *     loses the pointer as for any unusable block);
 *   - a log whose zone's pointer is behind the block it would write next
 *     lost blocks the checkpoint counts (an error); a pointer past it means
 *     writes the checkpoint does not record, which the kernel leaves by
 *     moving the log to a fresh zone at mount (a warning);
 *   - a zone with nothing valid and its pointer past its start is reset by
 *     the kernel at mount, and a zone no log writes left open only holds an
 *     open-zone slot: warnings, repaired as upstream does (reset, finish);
 *   - sequential zones of different capacities: the kernel refuses to mount.
 * An image file of a zoned volume has no zones to read: nothing is checked.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "f2fs/endian.h"
#include "f2fs/zone.h"
#include "context.h"

#define NOT_SEQ UINT32_MAX

/* Section of the main area that zone @z starts, or -1 when it starts none. */
static int64_t zone_section(const struct check_ctx *c, const struct f2fs_zone *z)
{
	uint64_t blk = z->start / c->geo->blk.blksize, sec_blocks;

	if (!f2fs_geo_in_main(c->geo, blk))
		return -1;
	sec_blocks = (uint64_t)c->geo->segs_per_sec * F2FS_DEFAULT_BLKS_PER_SEG;
	if ((blk - c->geo->main_blkaddr) % sec_blocks)
		return -1;
	return (int64_t)((blk - c->geo->main_blkaddr) / sec_blocks);
}

/* A sequential zone of the main area: its written blocks, and whether it is open. */
static int note_zone(const struct f2fs_zone *z, void *arg)
{
	struct check_ctx *c = arg;
	int64_t secno = zone_section(c, z);

	if (secno < 0 || (uint64_t)secno >= c->geo->sections || z->type != F2FS_ZONE_SEQ_REQ)
		return 0;
	c->sec_written[secno] = (uint32_t)((z->wp - z->start) / c->geo->blk.blksize);
	c->zone_open[secno] = z->cond == F2FS_ZONE_IMP_OPEN || z->cond == F2FS_ZONE_EXP_OPEN;
	return 0;
}

int check_zones_load(struct check_ctx *c)
{
	uint32_t i;
	int ret;

	if (!(c->features & F2FS_FEATURE_BLKZONED) ||
	    f2fs_dev_zone_info(c->dev)->model == F2FS_ZONED_NONE)
		return 0;
	c->sec_written = malloc((size_t)c->geo->sections * sizeof(*c->sec_written));
	c->zone_open = calloc(c->geo->sections ? c->geo->sections : 1, 1);
	if (!c->sec_written || !c->zone_open)
		return -ENOMEM;
	for (i = 0; i < c->geo->sections; i++)
		c->sec_written[i] = NOT_SEQ;
	ret = f2fs_dev_for_each_zone(c->dev, note_zone, c);
	if (ret < 0) {
		/* no pointers to judge by: say so, check the rest */
		free(c->sec_written);
		c->sec_written = NULL;
		return ret == -ENOMEM ? ret : 0;
	}
	c->res->zones_checked = true;
	if (f2fs_fs_zone_capacity_mixed(c->fs))
		check_report(
		    c, PR_ZONE_CAPACITY, 0, 0,
		    "the kernel reads one capacity for every zone and refuses this volume");
	return 0;
}

bool check_block_past_wp(const struct check_ctx *c, uint64_t blkaddr)
{
	uint32_t segno, secno, written;

	if (!c->sec_written || !f2fs_geo_in_main(c->geo, blkaddr))
		return false;
	segno = f2fs_geo_segno(c->geo, blkaddr);
	secno = f2fs_geo_secno(c->geo, segno);
	written = c->sec_written[secno];
	return written != NOT_SEQ &&
	       blkaddr - f2fs_geo_sec_start(c->geo, secno) >= (uint64_t)written;
}

/* The log writing in section @secno, or -1. */
static int log_in(const struct check_ctx *c, uint32_t secno)
{
	return f2fs_cp_log_of_section(c->cpd, c->geo->segs_per_sec, secno);
}

/* A log's next block against its zone's pointer. */
static void check_log(struct check_ctx *c, int type)
{
	uint32_t segno = c->cpd->curseg_segno[type], secno = f2fs_geo_secno(c->geo, segno);
	uint32_t written = c->sec_written[secno], next;

	if (written == NOT_SEQ)
		return;
	next = (segno - f2fs_geo_sec_first_seg(c->geo, secno)) * F2FS_DEFAULT_BLKS_PER_SEG +
	       c->cpd->curseg_blkoff[type];
	if (written < next)
		check_report_values(
		    c, PR_ZONE_LOG_BEHIND, 0, f2fs_geo_sec_start(c->geo, secno), written, next,
		    "log %d in section %u: pointer at block %u, the log's next block "
		    "is %u",
		    type, secno, written, next);
	else if (written > next)
		check_report_values(
		    c, PR_ZONE_LOG_AHEAD, 0, f2fs_geo_sec_start(c->geo, secno), written, next,
		    "log %d in section %u: pointer at block %u, the log's next block "
		    "is %u (the kernel moves the log to a fresh zone)",
		    type, secno, written, next);
}

void check_zones(struct check_ctx *c)
{
	uint32_t secno;
	int type;

	if (!c->sec_written)
		return;
	for (type = 0; type < F2FS_NR_CURSEG_TYPE; type++)
		check_log(c, type);
	for (secno = 0; secno < c->geo->sections; secno++) {
		uint32_t written = c->sec_written[secno];

		if (written == NOT_SEQ || log_in(c, secno) >= 0)
			continue;
		if (written && !f2fs_sit_sec(c->sit, secno)->valid)
			check_report_values(c, PR_ZONE_NOT_RESET, 0,
					    f2fs_geo_sec_start(c->geo, secno), written, 0,
					    "section %u holds nothing valid, its pointer is at "
					    "block %u (the kernel resets it at mount)",
					    secno, written);
		else if (c->zone_open[secno])
			check_report_values(
			    c, PR_ZONE_OPEN, 0, f2fs_geo_sec_start(c->geo, secno), written, 0,
			    "section %u: no log writes there, its zone is open", secno);
	}
}
