// SPDX-License-Identifier: GPL-2.0
/*
 * The metadata check of a boot-time `fsck -p 1`, as upstream's: the tables
 * agree with one another and with the checkpoint, without walking the
 * tree.  Segments free and in use add up to the usable segments; the free
 * count is the checkpoint's; the NAT's valid entries are the checkpoint's
 * node count and the valid blocks of the node segments; every NAT entry
 * points into the main area at a block the SIT marks valid and names an
 * inode that has an entry; the orphan and quota inodes have entries.  A
 * volume read from a rejected superblock copy or the older checkpoint
 * pack fails it too.  The first disagreement is the answer: the caller
 * then runs the full check.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "context.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/nat.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/volume.h"

struct meta {
	struct f2fs_fs *fs;
	const struct f2fs_geometry *geo;
	const struct f2fs_checkpoint *cp;
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	const struct f2fs_cp_data *cpd;
	char *why;
	size_t why_len;
};

static int __attribute__((format(printf, 2, 3))) differs(struct meta *m, const char *fmt, ...)
{
	va_list ap;

	if (m->why_len) {
		va_start(ap, fmt);
		vsnprintf(m->why, m->why_len, fmt, ap);
		va_end(ap);
	}
	return 1;
}

/* SIT against the checkpoint: segments free and in use, and the node blocks; 0 when they agree. */
static int sit_counts(struct meta *m, uint64_t *node_blocks)
{
	uint32_t segno, used = 0, usable = 0, free = f2fs_sit_free_segments(m->sit);

	*node_blocks = 0;
	for (segno = 0; segno < m->geo->main_segs; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(m->sit, segno);

		if (!f2fs_geo_seg_usable(m->geo, segno))
			continue;
		usable++;
		if (se->valid || f2fs_cp_log_of_segment(m->cpd, segno) >= 0)
			used++;
		if (check_node_type(se->type))
			*node_blocks += se->valid;
	}
	if (free + used != usable)
		return differs(m, "SIT usage: %u free and %u used segments of %u", free, used,
			       usable);
	if (free != le32_get(m->cp->free_segment_count))
		return differs(m, "free segments: SIT %u, checkpoint %u", free,
			       le32_get(m->cp->free_segment_count));
	return 0;
}

static bool nid_in_use(const struct meta *m, uint32_t nid)
{
	const struct f2fs_nat_info *e =
	    nid < f2fs_nat_max_nid(m->nat) ? f2fs_nat_get(m->nat, nid) : NULL;

	return e && f2fs_geo_in_main(m->geo, e->blkaddr);
}

/* One NAT entry in use: its block, and the inode it names. */
static int nat_entry(struct meta *m, uint32_t nid, const struct f2fs_nat_info *e)
{
	const struct f2fs_seg_entry *se;

	if (!f2fs_geo_in_main(m->geo, e->blkaddr))
		return differs(m, "NAT entry %u: block %u is outside the main area", nid,
			       e->blkaddr);
	se = f2fs_sit_seg(m->sit, f2fs_geo_segno(m->geo, e->blkaddr));
	if (!se || !f2fs_test_bit_msb(se->map, f2fs_geo_blkoff(m->geo, e->blkaddr)))
		return differs(m, "NAT entry %u: block %u is not valid in the SIT", nid,
			       e->blkaddr);
	if (!nid_in_use(m, e->ino))
		return differs(m, "NAT entry %u: inode %u has no entry", nid, e->ino);
	return 0;
}

static int nat_entries(struct meta *m, uint64_t node_blocks)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(m->fs);
	uint32_t nid, max = f2fs_nat_max_nid(m->nat);
	uint64_t valid = 0;
	int ret;

	for (nid = 0; nid < max; nid++) {
		const struct f2fs_nat_info *e = f2fs_nat_get(m->nat, nid);

		/* the node and meta inodes' entries say 1: nothing to check */
		if (!e || e->blkaddr == F2FS_NULL_ADDR || nid == le32_get(sb->node_ino) ||
		    nid == le32_get(sb->meta_ino))
			continue;
		valid++;
		ret = nat_entry(m, nid, e);
		if (ret)
			return ret;
	}
	if (valid != le32_get(m->cp->valid_node_count))
		return differs(m, "valid nodes: NAT %llu, checkpoint %u", (unsigned long long)valid,
			       le32_get(m->cp->valid_node_count));
	if (valid != node_blocks)
		return differs(m, "valid nodes: NAT %llu, SIT's node segments %llu",
			       (unsigned long long)valid, (unsigned long long)node_blocks);
	return 0;
}

/* The inodes the checkpoint and superblock name: orphans and quota files. */
static int named_inodes(struct meta *m)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(m->fs);
	uint32_t i;

	for (i = 0; i < m->cpd->orphan_count; i++)
		if (!nid_in_use(m, m->cpd->orphans[i]))
			return differs(m, "orphan inode %u has no entry", m->cpd->orphans[i]);
	for (i = 0; i < F2FS_MAX_QUOTAS; i++)
		if (le32_get(sb->qf_ino[i]) && !nid_in_use(m, le32_get(sb->qf_ino[i])))
			return differs(m, "quota inode %u has no entry", le32_get(sb->qf_ino[i]));
	return 0;
}

int f2fs_check_meta(struct f2fs_fs *fs, char *why, size_t why_len)
{
	struct meta m = {
	    .fs = fs, .geo = f2fs_fs_geo(fs), .cp = f2fs_fs_cp(fs), .why = why, .why_len = why_len};
	uint64_t node_blocks;
	int ret = f2fs_fs_load_all(fs);

	if (ret) {
		snprintf(why, why_len, "%s", f2fs_fs_why(fs));
		return ret;
	}
	f2fs_fs_sit(fs, &m.sit);
	f2fs_fs_nat(fs, &m.nat);
	f2fs_fs_cp_data(fs, &m.cpd);
	if (f2fs_volume_rejected(f2fs_fs_volume(fs)) & (F2FS_REJECTED_SB | F2FS_REJECTED_CP_NEWEST))
		return differs(&m, "a superblock copy or the newest checkpoint pack was rejected");
	ret = sit_counts(&m, &node_blocks);
	if (!ret)
		ret = nat_entries(&m, node_blocks);
	if (!ret)
		ret = named_inodes(&m);
	return ret;
}
