// SPDX-License-Identifier: GPL-2.0
/*
 * The fixes that trust the check's walk: the SIT rebuilt from the blocks it
 * reached (and, with the section and checkpoint counts, everything that
 * follows from them), the logs moved past used blocks, and the inodes it
 * could not reach linked into /lost+found under e2fsck's #INO names, or
 * their stray NAT entries freed.  repair.c withholds them while a problem
 * cut the walk short; then only what the walk did reach is protected.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "f2fs/bitops.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/geometry.h"
#include "f2fs/node.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/write.h"
#include "repair_internal.h"

/* The type a rebuilt segment gets: its log's, else the stored one if it fits what was found. */
static int segment_type(const struct f2fs_cp_data *cpd, uint32_t segno, uint8_t stored,
			unsigned int kinds)
{
	int log = f2fs_cp_log_of_segment(cpd, segno);
	bool stored_ok = stored < F2FS_NR_CURSEG_TYPE;
	bool stored_node = stored >= F2FS_CURSEG_HOT_NODE;

	if (log >= 0)
		return log;
	if (kinds == F2FS_FOUND_NODE)
		return stored_ok && stored_node ? stored : F2FS_CURSEG_WARM_NODE;
	if (kinds == F2FS_FOUND_DATA)
		return stored_ok && !stored_node ? stored : F2FS_CURSEG_WARM_DATA;
	return stored_ok ? stored : F2FS_CURSEG_HOT_DATA;
}

/* Every main-area segment's SIT entry := the blocks the walk reached there. */
static int rebuild_sit(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	const struct f2fs_geometry *geo = f2fs_fs_geo(r->fs);
	const struct f2fs_sit_table *sit;
	const struct f2fs_cp_data *cpd;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	unsigned int kinds;
	uint32_t segno;
	int ret = f2fs_fs_sit(r->fs, &sit);

	if (!ret)
		ret = f2fs_fs_cp_data(r->fs, &cpd);
	for (segno = 0; !ret && segno < geo->main_segs; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		int type;

		if (!se || !f2fs_findings_segment(r->findings, segno, map, &kinds))
			return -EUCLEAN;
		type = segment_type(cpd, segno, se->type, kinds);
		/* the count too: a stored vblocks above the bitmap's (up to 1023) must go */
		if (se->valid == se->ckpt_valid && se->type == type &&
		    se->valid == f2fs_popcount_bytes(map, sizeof(map)) &&
		    !memcmp(se->map, map, sizeof(map)))
			continue;
		ret = f2fs_fix_segment(r->fs, segno, map, type);
		rep->changed++;
	}
	return ret;
}

/*
 * The walk was cut short, so the SIT cannot be rebuilt from it, but what it
 * reached is in use for sure: mark those blocks valid where the SIT says
 * free, and move the logs past used blocks, before any fix allocates.
 * Nothing is freed; a later round, with a complete walk, rebuilds the rest.
 */
int repair_protect_reached(struct f2fs_repair *r)
{
	const struct f2fs_geometry *geo = f2fs_fs_geo(r->fs);
	const struct f2fs_sit_table *sit;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	unsigned int kinds, moved, i;
	uint32_t segno;
	int ret = f2fs_fs_sit(r->fs, &sit);

	for (segno = 0; !ret && segno < geo->main_segs; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		bool more = false;

		if (!se || !f2fs_findings_segment(r->findings, segno, map, &kinds))
			return -EUCLEAN;
		for (i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++) {
			more |= (map[i] & ~se->map[i]) != 0;
			map[i] |= se->map[i];
		}
		if (more)
			ret = f2fs_fix_segment(r->fs, segno, map,
					       se->type < F2FS_NR_CURSEG_TYPE
						   ? se->type
						   : (kinds & F2FS_FOUND_NODE
							  ? F2FS_CURSEG_WARM_NODE
							  : F2FS_CURSEG_WARM_DATA));
	}
	if (!ret)
		ret = f2fs_fix_logs(r->fs, &moved);
	return ret;
}

int repair_space(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	unsigned int moved = 0;
	int ret = rebuild_sit(r, rep);

	if (!ret)
		ret = f2fs_fix_recount(r->fs, r->res->valid_blocks, (uint32_t)r->res->valid_nodes,
				       (uint32_t)r->res->valid_inodes);
	if (!ret)
		ret = f2fs_fix_logs(r->fs, &moved);
	rep->changed += moved;
	return ret;
}

/* An unreachable inode, and the directory that last named it. */
struct lost {
	uint32_t ino, pino;
};

/* Is @ino among the @n inodes of @v (sorted by ino)? */
static bool is_lost(const struct lost *v, size_t n, uint32_t ino)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].ino == ino)
			return true;
		if (v[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int by_ino(const void *a, const void *b)
{
	uint32_t x = ((const struct lost *)a)->ino, y = ((const struct lost *)b)->ino;

	return x < y ? -1 : x > y;
}

/* The unreachable entries that are inodes the write path can read, sorted. */
static size_t lost_inodes(struct f2fs_repair *r, struct lost *out)
{
	const struct fix_queue *q = &r->q[F2FS_FIX_UNREACHABLE];
	struct f2fs_inode_attr a;
	size_t i, n = 0;

	for (i = 0; i < q->n; i++)
		if (q->items[i].value == q->items[i].nid &&
		    !f2fs_getattr(r->fs, q->items[i].nid, &a) && f2fs_mode_file_type(a.mode))
			out[n++] = (struct lost){.ino = q->items[i].nid, .pino = a.pino};
	qsort(out, n, sizeof(*out), by_ino);
	return n;
}

/* /lost+found, made when missing; the root when the name is taken by a non-directory. */
static int lost_found(struct f2fs_repair *r, uint32_t *dir)
{
	uint32_t root = le32_get(f2fs_fs_sb(r->fs)->root_ino), ino;
	struct f2fs_new_inode attr;
	struct f2fs_inode_attr a;
	int ret = f2fs_lookup(r->fs, root, "lost+found", 10, &ino);

	if (ret == -ENOENT) {
		f2fs_new_inode_init(&attr, S_IFDIR | 0700, (uint64_t)time(NULL));
		ret = f2fs_create(r->fs, root, "lost+found", 10, &attr, NULL, &ino);
	}
	if (ret)
		return ret;
	ret = f2fs_getattr(r->fs, ino, &a);
	*dir = !ret && S_ISDIR(a.mode) ? ino : root;
	return ret;
}

/*
 * Link the lost inodes at the top of their lost subtrees (those whose i_pino
 * is not itself lost) into /lost+found as "#INO", e2fsck's names; the next
 * check walks them and what lies below them.
 */
static int reconnect(struct f2fs_repair *r, const struct lost *lost, size_t n,
		     struct f2fs_fix_report *rep)
{
	char name[16];
	uint32_t dir;
	size_t i;
	int ret = lost_found(r, &dir);

	for (i = 0; !ret && i < n; i++) {
		if (is_lost(lost, n, lost[i].pino))
			continue;
		snprintf(name, sizeof(name), "#%u", lost[i].ino);
		ret = f2fs_fix_attach(r->fs, dir, lost[i].ino, name, strlen(name));
		if (ret == -EEXIST) /* left by an earlier run: the inode is named there already */
			ret = 0;
		else
			rep->changed += !ret;
	}
	r->again = true; /* what hangs below them is walked by the next check */
	return ret;
}

/*
 * Unreachable inodes go to /lost+found; once none is left, the NAT entries
 * still unreachable (nodes of no inode) are freed.
 */
int repair_unreachable(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	const struct fix_queue *q = &r->q[F2FS_FIX_UNREACHABLE];
	struct lost *lost = malloc((q->n + 1) * sizeof(*lost));
	size_t i, n;
	int ret = 0;

	if (!lost)
		return -ENOMEM;
	n = lost_inodes(r, lost);
	if (n)
		ret = reconnect(r, lost, n, rep);
	for (i = 0; !n && !ret && i < q->n; i++) {
		ret = f2fs_fix_free_nid(r->fs, q->items[i].nid);
		rep->changed += !ret;
	}
	if (!n && !ret)
		ret = f2fs_fix_recount(r->fs, r->res->valid_blocks, (uint32_t)r->res->valid_nodes,
				       (uint32_t)r->res->valid_inodes);
	free(lost);
	return ret;
}
