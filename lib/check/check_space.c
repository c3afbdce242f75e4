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

#include <stdlib.h>
#include <string.h>

#include "check_internal.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"

static void report_sit_anomalies(struct check_ctx *c)
{
	static const enum f2fs_problem_code code[] = {
	    [F2FS_SIT_BAD_VBLOCKS] = PR_SIT_VBLOCKS,
	    [F2FS_SIT_VBLOCKS_BITMAP] = PR_SIT_BITMAP_COUNT,
	    [F2FS_SIT_BAD_TYPE] = PR_SIT_TYPE,
	    [F2FS_SIT_JOURNAL_SEGNO] = PR_SIT_JOURNAL,
	};
	uint32_t i;

	for (i = 0; i < c->sit->anomaly_count; i++) {
		const struct f2fs_sit_anomaly *a = &c->sit->anomalies[i];

		check_report(c, code[a->kind], 0, 0, "segment %u: value %u, expected %u", a->segno,
			     a->value, a->expected);
	}
}

/* SIT-valid blocks of @segno that the walk did not reach. */
static uint32_t unowned_blocks(const struct check_ctx *c, uint32_t segno, uint32_t *first)
{
	const struct f2fs_seg_entry *se = &c->sit->seg[segno];
	uint32_t b, n = 0, base = segno * F2FS_DEFAULT_BLKS_PER_SEG;

	for (b = 0; b < F2FS_DEFAULT_BLKS_PER_SEG; b++) {
		if (f2fs_test_bit_msb(se->map, b) && !f2fs_test_bit_lsb(c->blk_seen, base + b)) {
			if (!n)
				*first = b;
			n++;
		}
	}
	return n;
}

static int owner_log(const struct check_ctx *c, uint32_t secno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (c->cpd->curseg_segno[i] / c->sit->segs_per_sec == secno)
			return i;
	return -1;
}

static void check_section(struct check_ctx *c, uint32_t secno)
{
	uint32_t sps = c->sit->segs_per_sec, s, found = 0;
	struct f2fs_section_report r = {.secno = secno, .type = -1};

	for (s = secno * sps; s < (secno + 1) * sps; s++) {
		const struct f2fs_seg_entry *se = &c->sit->seg[s];
		uint32_t first = 0, extra = unowned_blocks(c, s, &first);

		found += c->found_per_seg[s];
		if (se->valid && r.type < 0)
			r.type = se->type;
		if (extra)
			check_report(
			    c, PR_BLK_SIT_EXTRA, 0,
			    c->main_blkaddr + (uint64_t)s * F2FS_DEFAULT_BLKS_PER_SEG + first,
			    "segment %u: %u valid blocks in the SIT are not owned", s, extra);
		if (extra || c->found_per_seg[s] != se->ckpt_valid) {
			if (!r.bad_segments)
				r.first_bad_segno = s;
			r.bad_segments++;
			c->res->sit_bitmap_ok = false;
		}
	}
	r.sit_valid = c->sit->sec[secno].valid;
	r.sit_ckpt_valid = c->sit->sec[secno].ckpt_valid;
	r.found = found;
	r.owner_log = owner_log(c, secno);
	if (found != r.sit_ckpt_valid || r.bad_segments) {
		c->res->sections_bad++;
		check_report(c, PR_SEC_CKPT_VALID, 0,
			     c->main_blkaddr + (uint64_t)secno * sps * F2FS_DEFAULT_BLKS_PER_SEG,
			     "section %u (type %d, log %d): ckpt_valid %u, found %u; %u segment(s) "
			     "disagree, first %u",
			     secno, r.type, r.owner_log, r.sit_ckpt_valid, found, r.bad_segments,
			     r.first_bad_segno);
	}
	if (c->o->on_section)
		c->o->on_section(&r, c->o->arg);
}

static void check_open_logs(struct check_ctx *c)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		uint32_t segno = c->cpd->curseg_segno[i], off = c->cpd->curseg_blkoff[i];

		if (segno >= c->main_segs || off >= F2FS_DEFAULT_BLKS_PER_SEG)
			continue;
		if (f2fs_test_bit_msb(c->sit->seg[segno].map, off)) {
			c->res->curseg_ok = false;
			check_report(c, PR_CURSEG_NEXT_USED, 0,
				     c->main_blkaddr + (uint64_t)segno * F2FS_DEFAULT_BLKS_PER_SEG +
					 off,
				     "log %d: segment %u next block %u is valid", i, segno, off);
		}
	}
}

static void check_nat_reach(struct check_ctx *c)
{
	uint32_t nid, reported = 0;

	for (nid = F2FS_FIRST_INO_RESERVED; nid < c->nat->max_nid; nid++) {
		const struct f2fs_nat_info *e;

		if (!c->nat->blocks[nid / F2FS_NAT_ENTRY_PER_BLOCK]) {
			/* an empty NAT block: go on with the first nid of the next one */
			nid = (nid / F2FS_NAT_ENTRY_PER_BLOCK + 1) * F2FS_NAT_ENTRY_PER_BLOCK - 1;
			continue;
		}
		e = f2fs_nat_get(c->nat, nid);
		if (e->blkaddr == F2FS_NULL_ADDR)
			continue;
		c->res->nat_valid_entries++;
		if (check_kind(c, nid) != NID_UNSEEN)
			continue;
		c->res->unreachable_nat++;
		if (reported++ < 64)
			check_report(c, PR_NAT_UNREACHABLE, nid, e->blkaddr,
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
			want = 2 + r->subdirs;
		} else {
			continue;
		}
		if (r->i_links != want) {
			c->res->hard_links_ok = false;
			check_report(c, PR_INODE_LINKS, nid, 0, "i_links %u, found %u", r->i_links,
				     want);
		}
	}
}

static void check_counters(struct check_ctx *c)
{
	struct f2fs_check_result *r = c->res;

	r->cp_valid_blocks = le64_get(c->cp->valid_block_count);
	r->cp_valid_nodes = le32_get(c->cp->valid_node_count);
	r->cp_valid_inodes = le32_get(c->cp->valid_inode_count);
	r->cp_free_segments = le32_get(c->cp->free_segment_count);
	r->user_block_count = le64_get(c->cp->user_block_count);
	r->free_segments = c->sit->free_segments;
	if (r->valid_blocks != r->cp_valid_blocks)
		check_report(c, PR_COUNT_VALID_BLOCKS, 0, 0, "checkpoint %llu, found %llu",
			     (unsigned long long)r->cp_valid_blocks,
			     (unsigned long long)r->valid_blocks);
	if (r->valid_nodes != r->cp_valid_nodes || r->nat_valid_entries != r->cp_valid_nodes)
		check_report(c, PR_COUNT_VALID_NODES, 0, 0,
			     "checkpoint %llu, found %llu by the tree, %llu in the NAT",
			     (unsigned long long)r->cp_valid_nodes,
			     (unsigned long long)r->valid_nodes,
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
 * than the checkpoint: the chain starts at the log's next block and links
 * through next_blkaddr while the footer carries this checkpoint's version.
 * Roll-forward recovery replays them at mount, so they are not corruption.
 */
static void count_fsynced_chain(struct check_ctx *c)
{
	uint32_t flags = le32_get(c->cp->ckpt_flags);
	uint64_t ver = le64_get(c->cp->checkpoint_ver), blk, steps = 0;
	struct f2fs_node *n;

	if (flags & CP_UMOUNT_FLAG)
		return;
	if (flags & CP_CRC_RECOVERY_FLAG)
		ver = f2fs_nat_bits_tag(c->cp);
	n = malloc(sizeof(*n));
	if (!n)
		return;
	blk = c->main_blkaddr +
	      (uint64_t)c->cpd->curseg_segno[F2FS_CURSEG_WARM_NODE] * F2FS_DEFAULT_BLKS_PER_SEG +
	      c->cpd->curseg_blkoff[F2FS_CURSEG_WARM_NODE];
	while (in_main_area(c, blk) && steps++ < c->main_blocks) {
		if (f2fs_dev_read(c->dev, n, blk * F2FS_BLKSIZE, F2FS_BLKSIZE) ||
		    le64_get(n->footer.cp_ver) != ver)
			break;
		if (le32_get(n->footer.flag) & (1u << F2FS_FSYNC_BIT_SHIFT))
			c->res->fsynced_nodes++;
		blk = le32_get(n->footer.next_blkaddr);
	}
	free(n);
}

/* NAT blocks whose full/empty bit disagrees with their entries. */
static void check_nat_bits(struct check_ctx *c)
{
	const struct f2fs_nat_table *t = c->nat;
	uint32_t blk, i;

	if (t->journal_bad_nids)
		check_report(c, PR_NAT_JOURNAL, 0, 0, "%u NAT journal entries have a nid past %u",
			     t->journal_bad_nids, t->max_nid);
	if (!t->nat_bits_valid)
		return;
	for (blk = 0; blk < t->nat_blocks; blk++) {
		const struct f2fs_nat_info *e = t->blocks[blk];
		uint32_t valid = 0;
		bool journaled = false, full, empty;

		/* nat_bits describe NAT blocks as written; journaled entries are not in them */
		for (i = 0; e && i < F2FS_NAT_ENTRY_PER_BLOCK; i++) {
			journaled |= e[i].from_journal;
			valid += e[i].blkaddr != F2FS_NULL_ADDR || (blk == 0 && i == 0);
		}
		if (!e)
			valid = blk == 0; /* nid 0 counts as used */
		if (journaled)
			continue;
		full = f2fs_test_bit_lsb(t->full_nat_bits, blk);
		empty = f2fs_test_bit_lsb(t->empty_nat_bits, blk);
		if ((empty && valid) || (full && valid != F2FS_NAT_ENTRY_PER_BLOCK))
			check_report(c, PR_NAT_BITS, 0, 0,
				     "NAT block %u: %s bit set with %u nids in use", blk,
				     empty ? "empty" : "full", valid);
	}
}

void check_space(struct check_ctx *c)
{
	uint32_t secno;

	report_sit_anomalies(c);
	c->res->sections = c->sit->sections;
	for (secno = 0; secno < c->sit->sections; secno++)
		check_section(c, secno);
	check_open_logs(c);
	check_nat_reach(c);
	check_nat_bits(c);
	check_links(c);
	check_counters(c);
	count_fsynced_chain(c);
}
