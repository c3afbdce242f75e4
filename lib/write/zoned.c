// SPDX-License-Identifier: GPL-2.0
/*
 * The write path on a zoned volume.  A sequential zone takes writes only at
 * its write pointer and is emptied only as a whole, so three rules keep the
 * logs' appends where the device wants them, each the kernel's own:
 *   - at open, a log whose zone's pointer is not where the log would write
 *     next (a power cut after writes the checkpoint does not record) moves
 *     to a fresh section (f2fs_fix_curseg_write_pointer), and the zone it
 *     leaves is finished, so it holds no open-zone slot;
 *   - a section a checkpoint frees has its zone reset once that checkpoint
 *     is on disk (the discard of a freed section, which a zoned device
 *     turns into a reset);
 *   - a free section a log enters has its zone reset first when an old
 *     pointer is left in it (the kernel resets such zones at mount).
 * The allocator already never writes past a zone's capacity and never in
 * place (f2fs_geo_seg_usable, LFS allocation).  On other volumes, and on
 * an image file of a zoned volume (no zones to ask), these are no-ops.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "f2fs/checkpoint.h"
#include "f2fs/zone.h"
#include "write_internal.h"

/* The zone holding the start of section @secno; false when it is not sequential. */
static int section_zone(struct f2fs_wr *w, uint32_t secno, struct f2fs_zone *z, bool *seq)
{
	uint64_t off = f2fs_blk_to_bytes(&w->fs->geo, f2fs_geo_sec_start(&w->fs->geo, secno));
	unsigned int nr = 0;
	int ret = f2fs_dev_report_zones(w->fs->dev, off, z, 1, &nr);

	*seq = ret == 0 && nr == 1 && f2fs_zone_is_seq(z) && z->start == off;
	return ret;
}

int wr_zone_ready(struct f2fs_wr *w, uint32_t secno)
{
	struct f2fs_zone z;
	bool seq;
	int ret;

	if (!w->zoned)
		return 0;
	ret = section_zone(w, secno, &z, &seq);
	if (ret < 0 || !seq || z.wp == z.start)
		return ret;
	return f2fs_dev_reset_zones(w->fs->dev, z.start, z.len);
}

void wr_zone_freed(struct f2fs_wr *w, uint32_t secno)
{
	if (!w->zoned)
		return;
	if (!w->sec_to_reset)
		w->sec_to_reset = calloc((w->sections + 7) / 8 + 1, 1);
	if (w->sec_to_reset)
		f2fs_set_bit_lsb(w->sec_to_reset, secno);
	/* without memory the zone keeps its data until a log enters it (wr_zone_ready) */
}

int wr_zones_reset_freed(struct f2fs_wr *w)
{
	uint32_t secno;
	int ret = 0;

	if (!w->zoned || !w->sec_to_reset)
		return 0;
	for (secno = 0; secno < w->sections && !ret; secno++) {
		if (!f2fs_test_bit_lsb(w->sec_to_reset, secno))
			continue;
		f2fs_clear_bit_lsb(w->sec_to_reset, secno);
		/* a log may have taken it again since: then its zone is the log's */
		if (f2fs_cp_log_of_section(w->fs->cpd, w->segs_per_sec, secno) >= 0 ||
		    w->fs->sit->sec[secno].valid)
			continue;
		ret = wr_zone_ready(w, secno);
	}
	return ret;
}

/* Where log @type writes next, as a byte offset. */
static uint64_t log_position(struct f2fs_wr *w, int type)
{
	return f2fs_blk_to_bytes(&w->fs->geo, wr_log_next_addr(w, type));
}

int wr_zones_init(struct f2fs_wr *w, bool existing)
{
	struct f2fs_zone z;
	bool seq;
	int type, ret;

	w->zoned = (w->fs->features & F2FS_FEATURE_BLKZONED) &&
		   f2fs_dev_zone_info(w->fs->dev)->model != F2FS_ZONED_NONE;
	if (!w->zoned || !existing)
		return 0;
	for (type = 0; type < F2FS_NR_CURSEG_TYPE; type++) {
		uint32_t secno = w->fs->cpd->curseg_segno[type] / w->segs_per_sec;

		ret = section_zone(w, secno, &z, &seq);
		if (ret < 0)
			return ret;
		if (seq && z.wp != log_position(w, type)) {
			ret = wr_log_new_section(w, type);
			/* nothing will write the zone left behind: give its open slot back */
			if (!ret && (z.cond == F2FS_ZONE_IMP_OPEN || z.cond == F2FS_ZONE_EXP_OPEN))
				ret = f2fs_dev_finish_zones(w->fs->dev, z.start, z.len);
			if (ret < 0)
				return ret;
			w->logs_moved++;
		}
	}
	return 0;
}

/* ---- for fsck's repairs (write.h) ---- */

int f2fs_write_zones_align_logs(struct f2fs_fs *fs, unsigned int *moved)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w); /* building the state moves the logs (wr_zones_init) */

	*moved = ret ? 0 : w->logs_moved;
	return ret;
}

int f2fs_write_zone_reset(struct f2fs_fs *fs, uint32_t secno)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (secno >= w->sections || w->fs->sit->sec[secno].valid ||
	    f2fs_cp_log_of_section(w->fs->cpd, w->segs_per_sec, secno) >= 0)
		return -EINVAL; /* only a free section's zone may go */
	return wr_zone_ready(w, secno);
}

int f2fs_write_zone_finish(struct f2fs_fs *fs, uint32_t secno)
{
	struct f2fs_wr *w;
	struct f2fs_zone z;
	bool seq;
	int ret = wr_get(fs, &w);

	if (ret || !w->zoned)
		return ret;
	if (secno >= w->sections || f2fs_cp_log_of_section(w->fs->cpd, w->segs_per_sec, secno) >= 0)
		return -EINVAL; /* a log still writes there */
	ret = section_zone(w, secno, &z, &seq);
	if (ret || !seq || (z.cond != F2FS_ZONE_IMP_OPEN && z.cond != F2FS_ZONE_EXP_OPEN))
		return ret;
	return f2fs_dev_finish_zones(w->fs->dev, z.start, z.len);
}
