// SPDX-License-Identifier: GPL-2.0
/*
 * Space accounting, after the walk.  Tests: every SIT entry's own sanity
 * (from the loader's anomalies); blocks the SIT marks valid that nothing
 * owns; per segment, the blocks found against vblocks; per section, the
 * checkpointed valid count against the blocks found in it, with the
 * segments that disagree (the point of this project for large sections);
 * free segments against the checkpoint; each open log's next block free;
 * NAT entries nothing reached; the checkpoint's valid block, node and inode
 * counts; and the fsynced node chain a roll-forward would recover.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "f2fs/bitops.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/read.h"

static void report_sit_anomalies(struct check_ctx *c)
{
	static const enum f2fs_problem_code code[] = {
	    [F2FS_SIT_BAD_VBLOCKS] = PR_SIT_VBLOCKS,
	    [F2FS_SIT_VBLOCKS_BITMAP] = PR_SIT_BITMAP_COUNT,
	    [F2FS_SIT_BAD_TYPE] = PR_SIT_TYPE,
	    [F2FS_SIT_JOURNAL_SEGNO] = PR_SIT_JOURNAL,
	};
	uint32_t i;

	for (i = 0; i < f2fs_sit_anomaly_count(c->sit); i++) {
		const struct f2fs_sit_anomaly *a = f2fs_sit_anomaly(c->sit, i);

		check_report(c, code[a->kind], 0, 0, "segment %u: value %u, expected %u", a->segno,
			     a->value, a->expected);
	}
}

/* The SIT bitmap of a segment as 64-bit words in the walk's bit order (bit b = block b). */
static void sit_map_words(const struct f2fs_seg_entry *se, uint64_t w[SEG_WORDS])
{
	unsigned int i, k;

	/* SIT maps number blocks from the most significant bit of each byte */
	for (i = 0; i < SEG_WORDS; i++) {
		uint64_t v = 0;

		for (k = 0; k < 8; k++)
			v |= (uint64_t)f2fs_bit_reverse8(se->map[i * 8 + k]) << (8 * k);
		w[i] = v;
	}
}

/*
 * Compare one segment's SIT bitmap with the blocks the walk reached there:
 * returns the SIT-valid blocks nothing reached (the first in *first), and
 * the reached count in *found.
 */
static uint32_t unowned_blocks(const struct check_ctx *c, uint32_t segno,
			       const struct f2fs_seg_entry *se, uint32_t *first, uint32_t *found)
{
	const uint64_t *seen = seg_seen_words(c, segno);
	uint64_t map[SEG_WORDS];
	uint32_t i, n = 0;

	*found = 0;
	sit_map_words(se, map);
	for (i = 0; i < SEG_WORDS; i++) {
		uint64_t s = seen ? seen[i] : 0, extra = map[i] & ~s;

		*found += f2fs_popcount64(s);
		if (extra && !n)
			*first = i * 64 + (uint32_t)__builtin_ctzll(extra);
		n += f2fs_popcount64(extra);
	}
	return n;
}

static void check_segment(struct check_ctx *c, uint32_t s, struct f2fs_section_report *r)
{
	const struct f2fs_seg_entry *se = f2fs_sit_seg(c->sit, s);
	uint32_t first = 0, found, extra = unowned_blocks(c, s, se, &first, &found);

	if (se->valid && r->type < 0)
		r->type = se->type;
	if (extra)
		check_report(c, PR_BLK_SIT_EXTRA, 0, f2fs_geo_blkaddr(c->geo, s, first),
			     "segment %u: %u valid blocks in the SIT are not owned", s, extra);
	if (extra || found != se->ckpt_valid) {
		if (!r->bad_segments)
			r->first_bad_segno = s;
		r->bad_segments++;
	}
}

static void check_section(struct check_ctx *c, uint32_t secno)
{
	const struct f2fs_sec_entry *sec = f2fs_sit_sec(c->sit, secno);
	uint32_t s = f2fs_geo_sec_first_seg(c->geo, secno), end = s + c->geo->segs_per_sec;
	struct f2fs_section_report r = {.secno = secno, .type = -1};

	r.sit_valid = sec->valid;
	r.sit_ckpt_valid = sec->ckpt_valid;
	r.found = c->found_per_sec[secno];
	r.owner_log = f2fs_cp_log_of_section(c->cpd, c->geo->segs_per_sec, secno);
	/*
	 * A section whose SIT entries are all zero (on disk and in the journal)
	 * and where the walk reached nothing has nothing to compare: the scan
	 * skips the unused space of a large volume that way.
	 */
	if (r.found || f2fs_sit_range_used(c->sit, s, end))
		for (; s < end; s++)
			check_segment(c, s, &r);
	if (r.found != r.sit_ckpt_valid || r.bad_segments) {
		c->res->sections_bad++;
		check_report(c, PR_SEC_CKPT_VALID, 0, f2fs_geo_sec_start(c->geo, secno),
			     "section %u (type %d, log %d): ckpt_valid %u, found %u; %u segment(s) "
			     "disagree, first %u",
			     secno, r.type, r.owner_log, r.sit_ckpt_valid, r.found, r.bad_segments,
			     r.first_bad_segno);
	}
	if (c->o->on_section)
		c->o->on_section(&r, c->o->arg);
}

/*
 * An open log writes its next block, and, appending, every block after it
 * to the segment's end: those must be free (upstream's check_curseg_offset);
 * and its segment has its type in the SIT, as the kernel sets it when a log
 * opens a segment (PR_CURSEG_SIT_TYPE's row says why it matters; a type out
 * of range is PR_SIT_TYPE's already).
 */
static void check_open_logs(struct check_ctx *c)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		uint32_t segno = c->cpd->curseg_segno[i], off = c->cpd->curseg_blkoff[i];
		const struct f2fs_seg_entry *se;

		if (segno >= c->geo->main_segs || !F2FS_LOG_IN_USE(c->features, i))
			continue;
		se = f2fs_sit_seg(c->sit, segno);
		if (se->type != i && se->type < F2FS_NR_CURSEG_TYPE)
			check_report_values(
			    c, PR_CURSEG_SIT_TYPE, 0, f2fs_geo_blkaddr(c->geo, segno, 0), se->type,
			    (uint64_t)i, "log %d writes segment %u, whose SIT type is %u", i, segno,
			    se->type);
		off = f2fs_log_first_used(se->map, off, c->cp->alloc_type[i] == F2FS_ALLOC_SSR);
		if (off < F2FS_DEFAULT_BLKS_PER_SEG)
			check_report(c, PR_CURSEG_NEXT_USED, 0,
				     f2fs_geo_blkaddr(c->geo, segno, off),
				     "log %d: segment %u block %u, at or after its next block %u, "
				     "is valid",
				     i, segno, off, c->cpd->curseg_blkoff[i]);
	}
}

/*
 * A pack not written at a clean unmount holds no node summaries: the
 * kernel reads each node log's from the SSA block holding its segment's
 * summary (with packed_ssa, several segments share one) and refuses the
 * volume when that lies past the SSA area.  A read-only
 * volume has none, so it needs an unmount pack; Linux 6.1 writes a pack
 * without the flag to a read-only volume with quota files at its first
 * mount (roll-forward recovery turns quotas on and off) and then refuses
 * it, while upstream's fsck calls it clean.
 */
static void check_node_summaries(struct check_ctx *c)
{
	uint32_t ssa = le32_get(c->sb->ssa_blkaddr);
	int i;

	if (le32_get(c->cp->ckpt_flags) & CP_UMOUNT_FLAG)
		return;
	for (i = F2FS_CURSEG_HOT_NODE; i <= F2FS_CURSEG_COLD_NODE; i++) {
		uint32_t segno = c->cpd->curseg_segno[i];
		uint64_t blk = f2fs_ssa_block_of(&c->geo->blk, ssa, segno);

		if (blk >= c->geo->main_blkaddr) {
			check_report_values(
			    c, PR_CP_NODE_SUMMARIES, 0, 0, (uint64_t)i, segno,
			    "log %d (segment %u): the pack has no node summaries "
			    "(no unmount flag) and block %llu is past the SSA area%s",
			    i, segno, (unsigned long long)blk,
			    c->features & F2FS_FEATURE_RO ? " (a read-only volume has none)" : "");
			return;
		}
	}
}

static void check_nat_reach(struct check_ctx *c)
{
	uint32_t nid, max_nid = f2fs_nat_max_nid(c->nat);

	for (nid = F2FS_FIRST_INO_RESERVED; nid < max_nid; nid++) {
		const struct f2fs_nat_info *e;

		if (!f2fs_nat_block_used(c->nat, nid / f2fs_nat_per_block(c->nat))) {
			/* an empty NAT block: go on with the first nid of the next one */
			nid =
			    (nid / f2fs_nat_per_block(c->nat) + 1) * f2fs_nat_per_block(c->nat) - 1;
			continue;
		}
		e = f2fs_nat_get(c->nat, nid);
		if (e->blkaddr == F2FS_NULL_ADDR)
			continue;
		c->res->nat_valid_entries++;
		if (check_kind(c, nid) != NID_UNSEEN)
			continue;
		c->res->unreachable_nat++;
		check_report_values(c, PR_NAT_UNREACHABLE, nid, e->blkaddr, e->ino, 0,
				    "nid %u (ino %u) at 0x%x", nid, e->ino, e->blkaddr);
	}
}

static void check_links(struct check_ctx *c)
{
	uint32_t nid;

	for (nid = 0; nid < c->nid_page_count * NID_PAGE; nid++) {
		const struct nid_rec *r = nid_peek(c, nid);
		uint32_t want;

		if (!r) {
			nid = (nid / NID_PAGE + 1) * NID_PAGE - 1; /* skip the unwritten page */
			continue;
		}
		if (r->kind == NID_FILE) {
			want = r->entries;
			if (want > 1)
				c->res->hard_link_files++;
		} else if (r->kind == NID_DIR) {
			const struct dir_rec *d = dir_record(c, nid, false);

			want = 2 + (d ? d->subdirs : 0);
		} else {
			continue;
		}
		if (r->i_links != want)
			check_report_count(c, r->kind == NID_DIR ? PR_DIR_LINKS : PR_INODE_LINKS,
					   nid, r->i_links, want, "i_links %u, found %u",
					   r->i_links, want);
	}
}

/*
 * Upstream's figures for "Max image size" and "Free space": node blocks and
 * the other blocks, each rounded up to whole sections, as the checkpoint
 * counts them; the image ends after the metadata and those sections.
 */
static void estimate_space(struct check_ctx *c)
{
	struct f2fs_check_result *r = c->res;
	uint64_t per_sec = (uint64_t)c->geo->segs_per_sec * F2FS_DEFAULT_BLKS_PER_SEG;
	uint64_t nodes = r->cp_valid_nodes, data;
	uint64_t used_secs;

	data = r->cp_valid_blocks > nodes ? r->cp_valid_blocks - nodes : 0;
	used_secs = (nodes + per_sec - 1) / per_sec + (data + per_sec - 1) / per_sec;
	r->free_blocks =
	    used_secs < c->geo->sections ? (c->geo->sections - used_secs) * per_sec : 0;
	r->image_blocks = c->geo->main_blkaddr + used_secs * per_sec;
}

static void check_counters(struct check_ctx *c)
{
	struct f2fs_check_result *r = c->res;

	r->cp_valid_blocks = le64_get(c->cp->valid_block_count);
	r->cp_valid_nodes = le32_get(c->cp->valid_node_count);
	r->cp_valid_inodes = le32_get(c->cp->valid_inode_count);
	r->cp_free_segments = le32_get(c->cp->free_segment_count);
	r->user_block_count = le64_get(c->cp->user_block_count);
	r->free_segments = f2fs_sit_free_segments(c->sit);
	estimate_space(c);
	if (r->valid_blocks != r->cp_valid_blocks)
		check_report(c, PR_COUNT_VALID_BLOCKS, 0, 0, "checkpoint %llu, found %llu",
			     (unsigned long long)r->cp_valid_blocks,
			     (unsigned long long)r->valid_blocks);
	if (r->valid_nodes != r->cp_valid_nodes)
		check_report(
		    c, PR_COUNT_VALID_NODES, 0, 0, "checkpoint %llu, found %llu by the tree",
		    (unsigned long long)r->cp_valid_nodes, (unsigned long long)r->valid_nodes);
	if (r->nat_valid_entries != r->cp_valid_nodes)
		check_report(c, PR_COUNT_NAT_NODES, 0, 0, "checkpoint %llu, %llu in the NAT",
			     (unsigned long long)r->cp_valid_nodes,
			     (unsigned long long)r->nat_valid_entries);
	if (r->valid_inodes != r->cp_valid_inodes)
		check_report(c, PR_COUNT_VALID_INODES, 0, 0, "checkpoint %llu, found %llu",
			     (unsigned long long)r->cp_valid_inodes,
			     (unsigned long long)r->valid_inodes);
	if (r->free_segments != r->cp_free_segments)
		check_report(c, PR_SIT_FREE_COUNT, 0, 0, "checkpoint %u, SIT %u",
			     r->cp_free_segments, r->free_segments);
}

/*
 * After a power cut the warm node log may hold fsynced direct nodes newer
 * than the checkpoint (f2fs_roll_forward_chain): roll-forward recovery
 * replays them at mount, so they are not corruption -- unless the chain
 * loops: then the kernel's first mount attempt fails ("detect looped node
 * chain", "Cannot recover all fsync data"), and its retry mounts without
 * replaying anything, dropping what was fsynced, and asks for fsck.
 */
static void count_fsynced_chain(struct check_ctx *c)
{
	uint32_t fsynced, length;
	int ret = f2fs_roll_forward_chain(c->fs, &fsynced, &length);

	if (ret == -ENOMEM)
		check_fail(c, ret);
	else if (ret == -ELOOP)
		check_report(c, PR_CHAIN_LOOP, 0, 0,
			     "it goes on past %u blocks (%u of them fsynced)", length, fsynced);
	else if (!ret)
		c->res->fsynced_nodes += fsynced;
}

/* NAT blocks whose full/empty bit disagrees with their entries. */
static void check_nat_bits(struct check_ctx *c)
{
	const struct f2fs_nat_table *t = c->nat;
	uint32_t blk, i;

	if (f2fs_nat_journal_bad_nids(t))
		check_report(c, PR_NAT_JOURNAL, 0, 0, "%u NAT journal entries have a nid past %u",
			     f2fs_nat_journal_bad_nids(t), f2fs_nat_max_nid(t));
	if (!f2fs_nat_bits_valid(t))
		return;
	for (blk = 0; blk < f2fs_nat_blocks(t); blk++) {
		uint32_t valid = blk == 0; /* nid 0 counts as used */
		bool journaled = false, full, empty;

		/* nat_bits describe NAT blocks as written; journaled entries are not in them */
		for (i = 0; f2fs_nat_block_used(t, blk) && i < f2fs_nat_per_block(t); i++) {
			const struct f2fs_nat_info *e =
			    f2fs_nat_get(t, blk * f2fs_nat_per_block(t) + i);

			journaled |= e->from_journal;
			valid += e->blkaddr != F2FS_NULL_ADDR && !(blk == 0 && i == 0);
		}
		if (journaled)
			continue;
		full = f2fs_nat_bits_full(t, blk);
		empty = f2fs_nat_bits_empty(t, blk);
		if ((empty && valid) || (full && valid != f2fs_nat_per_block(t)))
			check_report(c, PR_NAT_BITS, 0, 0,
				     "NAT block %u: %s bit set with %u nids in use", blk,
				     empty ? "empty" : "full", valid);
	}
}

void check_space(struct check_ctx *c)
{
	uint32_t secno;

	report_sit_anomalies(c);
	c->res->sections = c->geo->sections;
	for (secno = 0; secno < c->geo->sections; secno++) {
		check_progress(c, CHECK_PASS_SECTIONS, secno, c->geo->sections);
		check_section(c, secno);
	}
	check_progress(c, CHECK_PASS_SECTIONS, secno, c->geo->sections);
	check_progress(c, CHECK_PASS_COUNTS, 0, 1);
	check_open_logs(c);
	check_node_summaries(c);
	check_nat_reach(c);
	check_nat_bits(c);
	check_links(c);
	check_counters(c);
	count_fsynced_chain(c);
	check_progress(c, CHECK_PASS_COUNTS, 1, 1);
}
