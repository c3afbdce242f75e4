// SPDX-License-Identifier: GPL-2.0
/*
 * The one checkpoint writer (the kernel's f2fs_write_checkpoint and
 * do_checkpoint), in one order with one way out on error:
 *
 *   1. dirty pages -- dentry pages always, file pages unless the request
 *      keeps them -- then every dirty node, to their logs;
 *   2. dirty NAT entries, then dirty SIT entries: into the journals when
 *      they fit, else as whole blocks in the copy not in use, flipping
 *      the version bits of the pack being built;
 *   3. the pack, in the location not holding the current one: checkpoint
 *      block (version + 1, counts, current segments, flags, version
 *      bitmaps), cp_payload blocks, data summaries (compacted when they fit
 *      in fewer than three blocks), node summaries at unmount, and nat_bits
 *      at unmount when they fit in the pack's segment;
 *   4. a flush, then the pack's last block (the checkpoint block again),
 *      then a flush: a pack is valid only once both its ends agree;
 *   5. the volume now uses the new pack; checkpointed counts follow the
 *      current ones and the sections emptied since the last checkpoint are
 *      free.
 *
 * An error anywhere leaves the old pack the valid one, and the handle
 * refuses further writes (the device state is unknown).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "write_internal.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG

/* Summary entries in the first compacted block (after both journals) and in each next one. */
static uint32_t sums_in_first(const struct f2fs_blkgeo *g)
{
	return (g->blksize - 2 * g->sum_journal_size - F2FS_SUM_FOOTER_SIZE) / F2FS_SUMMARY_SIZE;
}

static uint32_t sums_per_block(const struct f2fs_blkgeo *g)
{
	return (g->blksize - F2FS_SUM_FOOTER_SIZE) / F2FS_SUMMARY_SIZE;
}

/* Blocks the data summaries take compacted (f2fs_npages_for_summary_flush); 3 means normal. */
static uint32_t data_sum_blocks(const struct f2fs_blkgeo *g, const struct f2fs_cp_data *d)
{
	uint32_t entries = 0;
	int type;

	for (type = F2FS_CURSEG_HOT_DATA; type <= F2FS_CURSEG_COLD_DATA; type++)
		entries += d->curseg_blkoff[type];
	if (entries <= sums_in_first(g))
		return 1;
	if (entries - sums_in_first(g) <= sums_per_block(g))
		return 2;
	return 3;
}

static void write_compacted(const struct f2fs_blkgeo *g, const struct f2fs_cp_data *d, uint8_t *out)
{
	size_t ofs = 2 * (size_t)g->sum_journal_size;
	int type;

	memcpy(out, d->nat_journal_raw, g->sum_journal_size);
	memcpy(out + g->sum_journal_size, d->sit_journal_raw, g->sum_journal_size);
	for (type = F2FS_CURSEG_HOT_DATA; type <= F2FS_CURSEG_COLD_DATA; type++) {
		uint32_t j;

		for (j = 0; j < d->curseg_blkoff[type]; j++) {
			if (ofs + F2FS_SUMMARY_SIZE > g->blksize - F2FS_SUM_FOOTER_SIZE) {
				out += g->blksize;
				ofs = 0;
			}
			memcpy(out + ofs, &d->curseg_sum[type].entries[j], F2FS_SUMMARY_SIZE);
			ofs += F2FS_SUMMARY_SIZE;
		}
	}
}

static void write_normal(const struct f2fs_blkgeo *g, const struct f2fs_cp_data *d, uint8_t *out)
{
	int type;

	for (type = F2FS_CURSEG_HOT_DATA; type <= F2FS_CURSEG_COLD_DATA; type++) {
		struct f2fs_summary_block *s =
		    (struct f2fs_summary_block *)(out + (size_t)type * g->blksize);

		f2fs_sum_store(g, s, &d->curseg_sum[type]);
		f2fs_sum_footer(g, s)->entry_type = F2FS_SUM_TYPE_DATA;
		if (type == F2FS_CURSEG_HOT_DATA)
			memcpy(f2fs_sum_journal(g, s), d->nat_journal_raw, g->sum_journal_size);
		if (type == F2FS_CURSEG_COLD_DATA)
			memcpy(f2fs_sum_journal(g, s), d->sit_journal_raw, g->sum_journal_size);
	}
}

static void write_node_sums(const struct f2fs_blkgeo *g, const struct f2fs_cp_data *d, uint8_t *out)
{
	int i;

	for (i = 0; i < 3; i++) {
		struct f2fs_summary_block *s =
		    (struct f2fs_summary_block *)(out + (size_t)i * g->blksize);

		f2fs_sum_store(g, s, &d->curseg_sum[F2FS_CURSEG_HOT_NODE + i]);
		memset(f2fs_sum_journal(g, s), 0, g->sum_journal_size);
		f2fs_sum_footer(g, s)->entry_type = F2FS_SUM_TYPE_NODE;
	}
}

struct pack {
	uint8_t *buf;
	struct f2fs_pack_layout l;
	uint32_t nat_bits_blocks; /* 0 when none are written */
	int index;		  /* which of the two locations */
	uint64_t start;
};

/*
 * Will an unmount checkpoint carry nat_bits: wanted (@reason), and fitting
 * beside a pack of @total blocks?
 */
static bool nat_bits_fit(struct f2fs_wr *w, unsigned int reason, uint32_t total)
{
	return !(reason & F2FS_CP_NO_NAT_BITS) && !w->no_nat_bits &&
	       total + f2fs_nat_bits_blocks(le32_get(w->sb->segment_count_nat), wr_blksize(w)) <=
		   BLKS_PER_SEG;
}

/* The largest pack: no orphans, three data and three node summaries. */
static uint32_t max_pack(struct f2fs_wr *w)
{
	return 2 + le32_get(w->sb->cp_payload) + 3 + 3;
}

static uint32_t update_flags(struct f2fs_wr *w, uint32_t flags, unsigned int reason, uint32_t total)
{
	/*
	 * CP_CRC_RECOVERY_FLAG stays as the volume has it: the kernel sets it
	 * at its first checkpoint, upstream's mkfs (and so ours) leaves it off,
	 * and node footers follow whichever the current checkpoint says.
	 */
	flags &= ~(CP_UMOUNT_FLAG | CP_ORPHAN_PRESENT_FLAG | CP_COMPACT_SUM_FLAG | CP_TRIMMED_FLAG |
		   CP_FASTBOOT_FLAG);
	if (reason & F2FS_CP_UMOUNT) {
		flags |= CP_UMOUNT_FLAG;
		if (nat_bits_fit(w, reason, total))
			flags |= CP_NAT_BITS_FLAG;
		else
			flags &= ~CP_NAT_BITS_FLAG;
	}
	if (reason & F2FS_CP_TRIMMED)
		flags |= CP_TRIMMED_FLAG;
	return wr_quota_cp_flags(w, flags);
}

/* Fill the checkpoint block (the head of the pack contents, bitmaps in place). */
static void fill_cp(struct f2fs_wr *w, struct f2fs_checkpoint *cp, unsigned int reason,
		    uint32_t sum_blocks)
{
	const struct f2fs_cp_data *d = w->fs->cpd;
	uint32_t payload = le32_get(w->sb->cp_payload);
	uint32_t total = 2 + payload + sum_blocks + (reason & F2FS_CP_UMOUNT ? 3 : 0);
	uint32_t flags = le32_get(cp->ckpt_flags);
	int i;

	cp->checkpoint_ver = le64_put(w->cp_ver + 1);
	cp->valid_block_count = le64_put(w->valid_blocks);
	cp->free_segment_count = le32_put(wr_free_segments(w));
	for (i = 0; i < 3; i++) {
		cp->cur_node_segno[i] = le32_put(d->curseg_segno[F2FS_CURSEG_HOT_NODE + i]);
		cp->cur_node_blkoff[i] = le16_put(d->curseg_blkoff[F2FS_CURSEG_HOT_NODE + i]);
		cp->cur_data_segno[i] = le32_put(d->curseg_segno[F2FS_CURSEG_HOT_DATA + i]);
		cp->cur_data_blkoff[i] = le16_put(d->curseg_blkoff[F2FS_CURSEG_HOT_DATA + i]);
		cp->alloc_type[F2FS_CURSEG_HOT_DATA + i] = 0;
		cp->alloc_type[F2FS_CURSEG_HOT_NODE + i] = 0;
	}
	flags = update_flags(w, flags, reason, total);
	if (sum_blocks < 3)
		flags |= CP_COMPACT_SUM_FLAG;
	cp->ckpt_flags = le32_put(flags);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(1 + payload);
	cp->valid_node_count = le32_put(w->valid_nodes);
	cp->valid_inode_count = le32_put(w->valid_inodes);
	cp->next_free_nid = le32_put(w->next_nid);
	cp->elapsed_time = le64_put(wr_elapsed(w));
	f2fs_cp_seal(cp, wr_blksize(w));
}

static int build_pack(struct f2fs_wr *w, unsigned int reason, struct pack *p)
{
	struct f2fs_cp_data *d = w->fs->cpd;
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)d->head;
	const struct f2fs_blkgeo *g = wr_bg(w);
	uint32_t bs = g->blksize;
	uint32_t payload = le32_get(w->sb->cp_payload), sum_blocks = data_sum_blocks(g, d);

	fill_cp(w, cp, reason, sum_blocks);
	f2fs_pack_layout(cp, payload, &p->l);
	p->buf = calloc(BLKS_PER_SEG, bs);
	if (!p->buf)
		return -ENOMEM;
	memcpy(p->buf, d->head, (size_t)(1 + payload) * bs);
	if (sum_blocks < 3)
		write_compacted(g, d, p->buf + (size_t)p->l.data_sum_start * bs);
	else
		write_normal(g, d, p->buf + (size_t)p->l.data_sum_start * bs);
	if (p->l.node_sums)
		write_node_sums(g, d, p->buf + (size_t)p->l.node_sum_start * bs);
	memcpy(p->buf + (size_t)p->l.last * bs, cp, bs);
	p->index = !f2fs_volume_cp_index(w->fs->vol);
	p->start = f2fs_sb_cp_pack_addr(w->sb, (unsigned int)p->index);
	return 0;
}

/* nat_bits at the end of the pack's segment: tag, full bits, empty bits. */
static int write_nat_bits(struct f2fs_wr *w, struct pack *p)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)p->buf;
	uint32_t segs = le32_get(w->sb->segment_count_nat);
	uint32_t blocks = f2fs_nat_bits_blocks(segs, wr_blksize(w)),
		 bytes = f2fs_nat_bits_bytes(segs);
	uint8_t *nb = p->buf + (size_t)(BLKS_PER_SEG - blocks) * wr_blksize(w);
	uint64_t tag = le64_put(f2fs_nat_bits_tag(cp));

	if (!(le32_get(cp->ckpt_flags) & CP_UMOUNT_FLAG) ||
	    !(le32_get(cp->ckpt_flags) & CP_NAT_BITS_FLAG))
		return 0;
	memcpy(nb, &tag, sizeof(tag));
	wr_nat_bits(w, nb + 8, nb + 8 + bytes);
	return wr_write_blocks(w, p->start + BLKS_PER_SEG - blocks, nb, blocks, F2FS_IO_META);
}

/* The pack's body, and every node and meta block before it, on the device before the commit. */
static int wait_body(struct f2fs_wr *w)
{
	int ret = wr_io_submit(w);

	/* what changes while the body is written (write-back in place) is the next checkpoint's */
	w->dirty = w->meta_dirty = false;
	if (ret || !w->commit_wait)
		return ret;
	ret = w->commit_wait(w->commit_wait_arg);
	return ret ? wr_fail(w, ret) : 0;
}

static int commit_pack(struct f2fs_wr *w, struct pack *p)
{
	int ret = wr_write_blocks(w, p->start, p->buf, p->l.last, F2FS_IO_META);

	if (!ret)
		ret = write_nat_bits(w, p);
	if (!ret)
		ret = wait_body(w);
	if (!ret)
		ret = wr_flush(w);
	if (!ret)
		ret = wr_write_blocks(w, p->start + p->l.last,
				      p->buf + (size_t)p->l.last * wr_blksize(w), 1, F2FS_IO_META);
	if (!ret)
		ret = wr_flush(w);
	return ret;
}

static void after_commit(struct f2fs_wr *w, const struct pack *p)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)p->buf;
	uint32_t i;

	f2fs_volume_set_cp(w->fs->vol, p->buf, p->index);
	w->cp_ver = le64_get(cp->checkpoint_ver);
	w->footer_ver = w->cp_ver;
	if (le32_get(cp->ckpt_flags) & CP_CRC_RECOVERY_FLAG)
		w->footer_ver |= (uint64_t)f2fs_cp_crc(cp, wr_blksize(w)) << 32;
	w->fresh = false;
	for (i = 0; i < w->inodes.nbuckets; i++) {
		struct wr_inode *wi;

		for (wi = w->inodes.buckets[i]; wi; wi = wi->hnext)
			wi->created = wi->fsynced = wi->lost_pino = false;
	}
	w->stats.checkpoints++;
}

int wr_checkpoint(struct f2fs_wr *w, const struct f2fs_cp_request *req)
{
	struct pack p = {0};
	int ret;

	/* a pack the kernel would reject (sanity_check_ckpt) must never be written */
	if (w->valid_blocks > w->user_block_count)
		return wr_fail(w, -EUCLEAN);
	/* dentry pages always go with a checkpoint; file pages unless asked to keep them */
	ret = wr_write_all_data(w, req->keep_data);
	/* after the data: writing it back is what charges its blocks */
	if (!ret)
		ret = wr_quota_flush(w);
	if (!ret)
		ret = wr_nodes_write_all(w);
	if (!ret)
		ret = wr_ssa_flush(w);
	if (!ret)
		ret = wr_io_submit(w);
	if (!ret)
		ret = wr_nat_flush(w, (req->reason & F2FS_CP_UMOUNT &&
				       nat_bits_fit(w, req->reason, max_pack(w))) ||
					  w->nat_to_blocks);
	if (!ret)
		ret = wr_sit_flush(w);
	if (!ret) {
		/* the SIT written above is what this checkpoint records */
		wr_alloc_checkpointed(w);
		ret = build_pack(w, req->reason, &p);
	}
	if (!ret)
		ret = commit_pack(w, &p);
	if (!ret)
		after_commit(w, &p);
	/* only now may the freed sections' old data go: the previous pack no longer counts */
	if (!ret)
		ret = wr_zones_reset_freed(w);
	free(p.buf);
	return wr_fail(w, ret);
}

int f2fs_checkpoint(struct f2fs_fs *fs, const struct f2fs_cp_request *req)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	wr_lock(w, F2FS_LOCK_CP, 0, true);
	ret = wr_checkpoint(w, req);
	wr_unlock(w, F2FS_LOCK_CP, 0, true);
	return ret;
}
