// SPDX-License-Identifier: GPL-2.0
/*
 * The foreground cleaner (the kernel's f2fs_gc with FG_GC): pick the used
 * section with the fewest valid blocks (greedy), not one a log writes, and
 * move every valid block of it through the allocator: a node block is
 * rewritten to its node log, a data block is copied to the cold data log
 * (where the kernel sends data moved by GC) and its direct node updated.
 * A block whose summary names an owner that no longer points at it is
 * already dead and left.  The emptied sections become free at the
 * checkpoint written at the end.  Defragmentation (defrag.c) moves blocks
 * with the same wr_move_blocks, into the logs it places; a resize confines
 * the volume the same way (f2fs_confine): with the allocator held to the
 * area of the sections that stay, every valid block outside them moves as
 * a victim's would.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG

static uint32_t pick_victim(struct f2fs_wr *w)
{
	uint32_t secno, best = UINT32_MAX, best_valid = UINT32_MAX;
	uint32_t full = f2fs_geo_sec_usable(&w->fs->geo);

	for (secno = 0; secno < w->sections; secno++) {
		uint32_t valid = w->fs->sit->sec[secno].valid;

		if (!f2fs_test_bit_lsb(w->sec_used, secno) ||
		    f2fs_test_bit_lsb(w->sec_prefree, secno) || valid >= full ||
		    f2fs_cp_log_of_section(w->fs->cpd, w->segs_per_sec, secno) >= 0)
			continue;
		if (valid < best_valid) {
			best = secno;
			best_valid = valid;
		}
	}
	return best;
}

static int move_node(struct f2fs_wr *w, uint64_t blkaddr, uint32_t nid)
{
	const struct f2fs_nat_info *e = wr_nat_get(w, nid);
	struct wr_node *n;
	int ret;

	if (!e || e->blkaddr != blkaddr)
		return 0; /* a stale copy */
	ret = wr_node_get(w, nid, 0, &n);
	if (ret)
		return ret;
	ret = wr_node_write(w, n, 0);
	wr_node_put(n);
	return ret;
}

/* The block moved away from @blkaddr was in the inode's i_ext: drop it (wr_drop_extent). */
static int drop_extent_of_block(struct f2fs_wr *w, uint32_t ino, uint64_t blkaddr)
{
	struct wr_node *in;
	uint64_t start, len;
	int ret = wr_inode_get(w, ino, &in);

	if (ret)
		return ret == -ENOENT ? 0 : ret;
	start = le32_get(in->blk.i.i_ext.blk);
	len = le32_get(in->blk.i.i_ext.len);
	if (blkaddr >= start && blkaddr < start + len)
		wr_drop_extent(w, in, 0, UINT64_MAX);
	wr_node_put(in);
	return 0;
}

static int move_data(struct f2fs_wr *w, uint64_t blkaddr, const struct f2fs_summary *s,
		     int data_log)
{
	uint32_t nid = le32_get(s->nid);
	unsigned int ofs = le16_get(s->ofs_in_node);
	const struct f2fs_nat_info *e = wr_nat_get(w, nid);
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct wr_dnode dn;
	uint64_t addr;
	int ret;

	if (!e || !f2fs_geo_in_main(&w->fs->geo, e->blkaddr) || ofs >= wr_bg(w)->addrs_per_block)
		return 0;
	memset(&dn, 0, sizeof(dn));
	ret = wr_node_get(w, nid, 0, &dn.node);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	dn.nid = nid;
	dn.ofs = ofs;
	dn.in_inode = wr_node_is_inode(w, dn.node);
	if ((f2fs_node_ofs(wr_bg(w), &dn.node->blk) == 0 &&
	     f2fs_inode_first_addr(&dn.node->blk.i) + ofs >= wr_bg(w)->addrs_per_inode) ||
	    wr_dnode_addr(&dn) != blkaddr) {
		wr_dnode_put(&dn);
		return 0;
	}
	ret = wr_read_block(w, blkaddr, buf);
	if (!ret)
		ret = wr_alloc_block(w, data_log, nid, (uint16_t)ofs, e->version, &addr);
	if (!ret)
		ret = wr_write_block(w, addr, buf, F2FS_IO_DATA);
	if (!ret) {
		wr_invalidate(w, blkaddr);
		wr_dnode_set_addr(w, &dn, (uint32_t)addr);
		ret = drop_extent_of_block(w, f2fs_footer_ino(wr_bg(w), &dn.node->blk), blkaddr);
	}
	wr_dnode_put(&dn);
	return ret;
}

int wr_move_blocks(struct f2fs_wr *w, uint32_t segno, uint32_t first, uint32_t end, int data_log,
		   uint64_t *moved)
{
	const struct f2fs_seg_entry *se = f2fs_sit_seg(w->fs->sit, segno);
	struct f2fs_summary_block sum;
	const struct f2fs_summary_block *s;
	uint32_t off;
	int ret = 0;

	if (!se || !se->valid)
		return 0;
	s = f2fs_ssa_get(w->fs->ssa, segno, &ret);
	if (!s)
		return ret;
	sum = *s; /* moving nodes may replace the cached summary */
	for (off = first; off < end && off < BLKS_PER_SEG && !ret; off++) {
		uint64_t blkaddr = f2fs_geo_blkaddr(&w->fs->geo, segno, off);

		if (!f2fs_test_bit_msb(f2fs_sit_seg(w->fs->sit, segno)->map, off))
			continue;
		if (sum.footer.entry_type == F2FS_SUM_TYPE_NODE)
			ret = move_node(w, blkaddr, le32_get(sum.entries[off].nid));
		else
			ret = move_data(w, blkaddr, &sum.entries[off], data_log);
		if (!ret)
			(*moved)++;
	}
	return ret;
}

int wr_gc(struct f2fs_wr *w, uint32_t want_free)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_SYNC, .keep_data = true};
	uint32_t moved = 0, before = w->free_sections;
	int ret = 0;

	if (w->in_gc)
		return 0;
	w->in_gc = true;
	w->stats.gc_runs++;
	while (!ret && w->free_sections + w->prefree_sections < want_free) {
		uint32_t victim = pick_victim(w), i;

		if (victim == UINT32_MAX)
			break;
		for (i = 0; i < w->segs_per_sec && !ret; i++)
			ret = wr_move_blocks(w, victim * w->segs_per_sec + i, 0, BLKS_PER_SEG,
					     F2FS_CURSEG_COLD_DATA, &w->stats.gc_blocks_moved);
		moved++;
		if (!ret && !f2fs_test_bit_lsb(w->sec_prefree, victim))
			break; /* could not empty it: stop rather than spin */
	}
	if (!ret && (moved || w->prefree_sections))
		ret = wr_checkpoint(w, &req);
	if (w->free_sections > before)
		w->stats.gc_sections_freed += w->free_sections - before;
	w->in_gc = false;
	return ret;
}

int f2fs_gc(struct f2fs_fs *fs, uint32_t want_free)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	wr_lock(w, F2FS_LOCK_CP, 0, true);
	ret = wr_gc(w, want_free);
	wr_unlock(w, F2FS_LOCK_CP, 0, true);
	return ret;
}

/* Every log whose current section lies outside the area starts a section inside. */
static int move_logs_inside(struct f2fs_wr *w)
{
	int type, ret = 0;

	for (type = 0; !ret && type < F2FS_NR_CURSEG_TYPE; type++) {
		uint32_t secno = w->fs->cpd->curseg_segno[type] / w->segs_per_sec;

		if (!wr_area_has(w->area, secno))
			ret = wr_log_new_section(w, type);
	}
	return ret;
}

static int confine(struct f2fs_wr *w, uint32_t first_sec, uint32_t end_sec)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_SYNC};
	uint32_t segno;
	int ret;

	/* no hole in it: the skip range lies past every section */
	w->fence = (struct wr_area){.first = first_sec,
				    .last = end_sec - 1,
				    .skip_first = UINT32_MAX,
				    .skip_last = UINT32_MAX};
	w->area = &w->fence;
	ret = move_logs_inside(w);
	for (segno = 0; !ret && segno < w->segments; segno++) {
		uint32_t secno = segno / w->segs_per_sec;

		if (secno >= first_sec && secno < end_sec) {
			segno = end_sec * w->segs_per_sec - 1;
			continue;
		}
		ret = wr_move_blocks(w, segno, 0, BLKS_PER_SEG, F2FS_CURSEG_COLD_DATA,
				     &w->stats.gc_blocks_moved);
	}
	if (!ret)
		ret = wr_checkpoint(w, &req);
	return ret;
}

int f2fs_confine(struct f2fs_fs *fs, uint32_t first_seg, uint32_t end_seg)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (first_seg % w->segs_per_sec || end_seg % w->segs_per_sec || first_seg >= end_seg ||
	    end_seg > w->segments)
		return -EINVAL;
	wr_lock(w, F2FS_LOCK_CP, 0, true);
	ret = confine(w, first_seg / w->segs_per_sec, end_seg / w->segs_per_sec);
	wr_unlock(w, F2FS_LOCK_CP, 0, true);
	return wr_fail(w, ret);
}
