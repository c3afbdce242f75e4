// SPDX-License-Identifier: GPL-2.0
/*
 * Repairing a zoned volume's write pointers, first of all the fixes: every
 * later one writes, and on a zoned volume a write lands only at a zone's
 * pointer.  A log whose zone's pointer is not where it would write next
 * moves to a fresh zone (opening the write state does that, as a mount
 * does); a free section's zone with a stray pointer is reset and a zone no
 * log writes left open is finished, as upstream's fsck does.  Blocks lost
 * past a pointer are not this fix's: their owners lose them through the
 * detach fix, and the space rebuild forgets them.
 */
#include "config.h"

#include <errno.h>

#include "f2fs/write.h"
#include "repair_internal.h"

static uint32_t section_of(struct f2fs_repair *r, uint64_t blkaddr)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(r->fs);

	return f2fs_geo_secno(g, f2fs_geo_segno(g, blkaddr));
}

int repair_zones(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	struct fix_queue *q = &r->q[F2FS_FIX_ZONES];
	unsigned int moved = 0;
	bool aligned = false;
	size_t i;
	int ret = 0;

	for (i = 0; i < q->n && !ret; i++) {
		const struct fix_item *it = &q->items[i];

		switch (it->code) {
		case PR_ZONE_LOG_BEHIND:
		case PR_ZONE_LOG_AHEAD:
			if (!aligned)
				ret = f2fs_write_zones_align_logs(r->fs, &moved);
			aligned = true;
			continue;
		case PR_ZONE_NOT_RESET:
			ret = f2fs_write_zone_reset(r->fs, section_of(r, it->blkaddr));
			break;
		case PR_ZONE_OPEN:
			ret = f2fs_write_zone_finish(r->fs, section_of(r, it->blkaddr));
			break;
		default:
			continue;
		}
		if (ret == -EINVAL)
			ret = 0; /* the section changed since the check: the next one says */
		else if (!ret)
			rep->changed++;
	}
	rep->changed += moved;
	return ret;
}
