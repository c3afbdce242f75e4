// SPDX-License-Identifier: GPL-2.0
/*
 * The rest of the chosen checkpoint pack: version bitmaps, orphan inodes,
 * the NAT and SIT journals and the summaries of the six open logs.
 *
 * Pack layout, counted in blocks from the pack's first block:
 *   0                      checkpoint block
 *   1 .. payload           cp_payload blocks (SIT bitmap when not large NAT)
 *   1 + payload ..         orphan blocks, up to cp_pack_start_sum
 *   cp_pack_start_sum ..   data summaries (compacted: 1..3 blocks; else 3)
 *   total - 4 .. total - 2 hot, warm, cold node summaries after a clean
 *                          unmount (else they come from the SSA)
 *   total - 1              checkpoint block again
 * Normal data summaries sit at total - 7 + type with node summaries in the
 * pack, and at total - 4 + type without them.
 *
 * Every block is of the volume's size; the journals and the summaries are
 * taken into struct f2fs_cp_data whose summaries keep the 4 KiB layout.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "fs_internal.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG
#define ALLOC_SSR    1 /* alloc_type[] value of a log written by slack space reuse */

struct loader {
	const struct f2fs_super_block *sb;
	struct f2fs_blkgeo bg; /* the volume's block size */
	const struct f2fs_checkpoint *cp;
	struct f2fs_device *dev;
	uint32_t start;			/* first block of the pack */
	struct f2fs_pack_layout layout; /* where its parts lie */
	uint32_t payload;		/* cp_payload blocks */
	uint32_t total;			/* cp_pack_total_block_count */
	uint32_t start_sum;		/* orphans end here; compacted summaries start */
	uint32_t flags;
	bool node_in_pack; /* node summaries in the pack (clean unmount or fastboot) */
	char *why;
	size_t why_len;
};

static int read_blocks(struct loader *ld, uint64_t blkaddr, uint32_t count, void *buf,
		       const char *what)
{
	int ret =
	    f2fs_dev_read(ld->dev, buf, blkaddr * ld->bg.blksize, (size_t)count * ld->bg.blksize);

	if (ret)
		fs_say(ld->why, ld->why_len, "%s: read of block %llu (%u blocks) failed: %s", what,
		       (unsigned long long)blkaddr, count, strerror(-ret));
	return ret;
}

/* ---- version bitmaps ---- */

/*
 * Where the SIT and NAT version bitmaps lie in a head of @head_len bytes
 * (checkpoint block then payload blocks), as byte offsets.
 */
static int locate_bitmaps(struct loader *ld, size_t head_len, size_t *sit_ofs, size_t *nat_ofs)
{
	uint64_t sit = le32_get(ld->cp->sit_ver_bitmap_bytesize);
	uint64_t nat = le32_get(ld->cp->nat_ver_bitmap_bytesize);
	uint32_t bs = ld->bg.blksize, chksum = ld->bg.cp_chksum_offset;

	if (ld->flags & CP_LARGE_NAT_BITMAP_FLAG) {
		/* crc at 192, then the NAT bitmap, then the SIT bitmap */
		*nat_ofs = F2FS_CP_BITMAP_OFFSET + sizeof(uint32_t);
		*sit_ofs = *nat_ofs + nat;
		if (*nat_ofs + nat + sit > head_len)
			goto too_big;
	} else if (ld->payload) {
		*nat_ofs = F2FS_CP_BITMAP_OFFSET;
		*sit_ofs = bs;
		if (F2FS_CP_BITMAP_OFFSET + nat > chksum || bs + sit > head_len)
			goto too_big;
	} else {
		*sit_ofs = F2FS_CP_BITMAP_OFFSET;
		*nat_ofs = F2FS_CP_BITMAP_OFFSET + sit;
		if (F2FS_CP_BITMAP_OFFSET + sit + nat > chksum)
			goto too_big;
	}
	return 0;
too_big:
	fs_say(ld->why, ld->why_len,
	       "checkpoint: version bitmaps (sit_ver_bitmap_bytesize %llu, nat_ver_bitmap_bytesize "
	       "%llu) do not fit in the checkpoint block and %u payload blocks",
	       (unsigned long long)sit, (unsigned long long)nat, ld->payload);
	return -EINVAL;
}

/* ---- orphans ---- */

/* Word @i of block @blk (orphan blocks are words: inode numbers, then a footer). */
static uint32_t block_word(const uint8_t *blk, uint32_t i)
{
	le32 v;

	memcpy(&v, blk + (size_t)i * sizeof(v), sizeof(v));
	return le32_get(v);
}

static int load_orphans(struct loader *ld, struct f2fs_cp_data *d)
{
	uint32_t first = ld->layout.orphan_start, nblocks = ld->start_sum - first, b, i, n;
	uint32_t per_block = ld->bg.orphans_per_block;
	/* entry_count is the footer's third word: after reserved and blk_addr/blk_count */
	uint32_t count_word = per_block + 2;
	uint64_t max_nid = f2fs_sb_max_nid(ld->sb);
	uint8_t *ob;
	uint32_t *list;
	int ret = 0;

	if (!(ld->flags & CP_ORPHAN_PRESENT_FLAG) || nblocks == 0)
		return 0;
	ob = malloc(ld->bg.blksize);
	list = malloc((size_t)nblocks * per_block * sizeof(*list));
	if (!ob || !list) {
		fs_say(ld->why, ld->why_len, "orphan blocks: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (b = 0; b < nblocks; b++) {
		uint64_t addr = (uint64_t)ld->start + first + b;

		ret = read_blocks(ld, addr, 1, ob, "orphan block");
		if (ret)
			goto out;
		n = block_word(ob, count_word);
		if (n > per_block) {
			fs_say(ld->why, ld->why_len,
			       "orphan block %u (block %llu): entry_count %u exceeds %u", b,
			       (unsigned long long)addr, n, per_block);
			ret = -EINVAL;
			goto out;
		}
		for (i = 0; i < n; i++) {
			uint32_t ino = block_word(ob, i);

			if (ino < F2FS_FIRST_INO_RESERVED || ino >= max_nid) {
				fs_say(ld->why, ld->why_len,
				       "orphan block %u (block %llu): ino[%u] %u is out of range "
				       "(%u..%llu)",
				       b, (unsigned long long)addr, i, ino, F2FS_FIRST_INO_RESERVED,
				       (unsigned long long)max_nid - 1);
				ret = -EINVAL;
				goto out;
			}
			list[d->orphan_count++] = ino;
		}
	}
	d->orphans = list;
	list = NULL;
out:
	free(ob);
	free(list);
	if (ret)
		d->orphan_count = 0;
	return ret;
}

/* ---- data summaries ---- */

/* Blocks the compacted summaries may use: from start_sum up to the node summaries. */
static uint32_t data_sum_limit(const struct loader *ld)
{
	return ld->layout.data_sum_end;
}

static int load_compacted(struct loader *ld, struct f2fs_cp_data *d)
{
	uint32_t bs = ld->bg.blksize, jsize = ld->bg.sum_journal_size;
	uint8_t *blk = malloc(bs);
	uint32_t rel = ld->start_sum, limit = data_sum_limit(ld);
	size_t ofs;
	int ret, type;

	if (!blk) {
		fs_say(ld->why, ld->why_len, "compacted summary: out of memory");
		return -ENOMEM;
	}
	if (rel >= limit) {
		fs_say(ld->why, ld->why_len,
		       "compacted summary: cp_pack_start_sum %u leaves no room before block %u",
		       rel, limit);
		ret = -EINVAL;
		goto out;
	}
	ret = read_blocks(ld, (uint64_t)ld->start + rel, 1, blk, "compacted summary");
	if (ret)
		goto out;
	/* NAT journal (hot data's), then SIT journal (cold data's), then entries */
	memcpy(d->nat_journal_raw, blk, jsize);
	memcpy(d->sit_journal_raw, blk + jsize, jsize);
	ofs = 2 * (size_t)jsize;

	for (type = F2FS_CURSEG_HOT_DATA; type <= F2FS_CURSEG_COLD_DATA; type++) {
		uint32_t n = le16_get(ld->cp->cur_data_blkoff[type]), j;

		if (ld->cp->alloc_type[type] == ALLOC_SSR)
			n = BLKS_PER_SEG;
		if (n > BLKS_PER_SEG) {
			fs_say(ld->why, ld->why_len,
			       "compacted summary: cur_data_blkoff[%d] %u exceeds %u", type, n,
			       BLKS_PER_SEG);
			ret = -EINVAL;
			goto out;
		}
		for (j = 0; j < n; j++) {
			if (ofs + F2FS_SUMMARY_SIZE > bs - F2FS_SUM_FOOTER_SIZE) {
				/*
				 * The next entry would reach the footer: on to the next
				 * block.  An SSR log's full segment of entries may run
				 * past the data summaries: the kernel reads on into the
				 * pack's next blocks (read_compacted_summaries), and so
				 * does this, up to the pack's end; the check then finds
				 * the entries that do not match.
				 */
				if (++rel >= ld->total) {
					memset(blk, 0, bs);
				} else {
					ret = read_blocks(ld, (uint64_t)ld->start + rel, 1, blk,
							  "compacted summary");
					if (ret)
						goto out;
				}
				ofs = 0;
			}
			memcpy(&d->curseg_sum[type].entries[j], blk + ofs, F2FS_SUMMARY_SIZE);
			ofs += F2FS_SUMMARY_SIZE;
		}
		d->curseg_sum[type].footer.entry_type = F2FS_SUM_TYPE_DATA;
	}
out:
	free(blk);
	return ret;
}

/*
 * Read the three summary blocks of the pack's block @rel on into
 * @sum[0..2], in the 4 KiB layout: the entries a segment uses and the
 * footer's type.  With @nat_sit, the journals of the first (NAT) and the
 * third (SIT) block go to @d.
 */
static int read_three_sums(struct loader *ld, uint32_t rel, struct f2fs_summary_block *sum,
			   struct f2fs_cp_data *d, const char *what)
{
	uint32_t bs = ld->bg.blksize, i;
	uint8_t *buf = malloc((size_t)3 * bs);
	int ret;

	if (!buf) {
		fs_say(ld->why, ld->why_len, "%s: out of memory", what);
		return -ENOMEM;
	}
	ret = read_blocks(ld, (uint64_t)ld->start + rel, 3, buf, what);
	for (i = 0; !ret && i < 3; i++) {
		const struct f2fs_summary_block *raw =
		    (const struct f2fs_summary_block *)(buf + (size_t)i * bs);

		memset(&sum[i], 0, sizeof(sum[i]));
		memcpy(sum[i].entries, raw->entries, sizeof(sum[i].entries));
		sum[i].footer = *f2fs_sum_footer(&ld->bg, raw);
		if (d && i == 0)
			memcpy(d->nat_journal_raw, f2fs_sum_journal(&ld->bg, raw),
			       ld->bg.sum_journal_size);
		if (d && i == 2)
			memcpy(d->sit_journal_raw, f2fs_sum_journal(&ld->bg, raw),
			       ld->bg.sum_journal_size);
	}
	free(buf);
	return ret;
}

static int load_normal_data(struct loader *ld, struct f2fs_cp_data *d)
{
	uint32_t base = ld->node_in_pack ? 7 : 4, rel;
	int ret, type;

	if (ld->total < base + ld->start_sum) {
		fs_say(ld->why, ld->why_len,
		       "data summaries: cp_pack_total_block_count %u leaves no room for %u summary "
		       "blocks after cp_pack_start_sum %u",
		       ld->total, base - 1, ld->start_sum);
		return -EINVAL;
	}
	rel = ld->layout.data_sum_start;
	ret = read_three_sums(ld, rel, &d->curseg_sum[F2FS_CURSEG_HOT_DATA], d, "data summaries");
	if (ret)
		return ret;
	for (type = F2FS_CURSEG_HOT_DATA; type <= F2FS_CURSEG_COLD_DATA; type++) {
		uint32_t n = le16_get(ld->cp->cur_data_blkoff[type]);

		if (n > BLKS_PER_SEG) {
			fs_say(ld->why, ld->why_len,
			       "data summaries: cur_data_blkoff[%d] %u exceeds %u", type, n,
			       BLKS_PER_SEG);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- node summaries ---- */

/*
 * Without a clean unmount the pack holds no node summaries and the SSA
 * block of an open node log is stale, so (as the kernel does at mount) the
 * summary is rebuilt from the footers of the segment's blocks.
 */
static int restore_node_summary(struct loader *ld, uint32_t segno, struct f2fs_summary_block *sum)
{
	struct f2fs_geometry g;
	uint64_t start;
	uint8_t *seg = malloc((size_t)BLKS_PER_SEG * ld->bg.blksize);
	uint32_t i;
	int ret;

	f2fs_geometry_init(&g, ld->sb);
	start = f2fs_geo_seg_start(&g, segno);
	if (!seg)
		return -ENOMEM;
	ret = read_blocks(ld, start, BLKS_PER_SEG, seg, "open node log");
	if (!ret) {
		memset(sum, 0, sizeof(*sum));
		sum->footer.entry_type = F2FS_SUM_TYPE_NODE;
		for (i = 0; i < BLKS_PER_SEG; i++) {
			const struct f2fs_node *n =
			    (const struct f2fs_node *)(seg + (size_t)i * ld->bg.blksize);

			sum->entries[i].nid = f2fs_node_footer(&ld->bg, n)->nid;
		}
	}
	free(seg);
	return ret;
}

static int load_node(struct loader *ld, struct f2fs_cp_data *d)
{
	int ret, type;

	if (ld->node_in_pack) {
		/* at least one data summary block must come before them */
		if (ld->total < 4 + ld->start_sum + 1) {
			fs_say(ld->why, ld->why_len,
			       "node summaries: cp_pack_total_block_count %u leaves no room after "
			       "cp_pack_start_sum %u",
			       ld->total, ld->start_sum);
			return -EINVAL;
		}
		return read_three_sums(ld, ld->layout.node_sum_start,
				       &d->curseg_sum[F2FS_CURSEG_HOT_NODE], NULL,
				       "node summaries");
	}
	for (type = F2FS_CURSEG_HOT_NODE; type <= F2FS_CURSEG_COLD_NODE; type++) {
		uint32_t segno = le32_get(ld->cp->cur_node_segno[type - F2FS_CURSEG_HOT_NODE]);

		if (segno >= le32_get(ld->sb->segment_count_main)) {
			fs_say(ld->why, ld->why_len,
			       "node summaries: cur_node_segno[%d] %u is out of range",
			       type - F2FS_CURSEG_HOT_NODE, segno);
			return -EINVAL;
		}
		ret = restore_node_summary(ld, segno, &d->curseg_sum[type]);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the whole ---- */

static int check_logs(struct loader *ld, struct f2fs_cp_data *d)
{
	uint32_t main_segs = le32_get(ld->sb->segment_count_main);
	int i;

	for (i = 0; i < 3; i++) {
		uint32_t dseg = le32_get(ld->cp->cur_data_segno[i]);
		uint32_t nseg = le32_get(ld->cp->cur_node_segno[i]);
		uint16_t doff = le16_get(ld->cp->cur_data_blkoff[i]);
		uint16_t noff = le16_get(ld->cp->cur_node_blkoff[i]);

		if (dseg >= main_segs || nseg >= main_segs) {
			fs_say(ld->why, ld->why_len,
			       "checkpoint: cur_%s_segno[%d] %u is out of range (0..%u)",
			       dseg >= main_segs ? "data" : "node", i,
			       dseg >= main_segs ? dseg : nseg, main_segs - 1);
			return -EINVAL;
		}
		if (doff > BLKS_PER_SEG || noff > BLKS_PER_SEG) {
			fs_say(ld->why, ld->why_len,
			       "checkpoint: cur_%s_blkoff[%d] %u is out of range (0..%u)",
			       doff > BLKS_PER_SEG ? "data" : "node", i,
			       doff > BLKS_PER_SEG ? doff : noff, BLKS_PER_SEG);
			return -EINVAL;
		}
		d->curseg_segno[F2FS_CURSEG_HOT_DATA + i] = dseg;
		d->curseg_blkoff[F2FS_CURSEG_HOT_DATA + i] = doff;
		d->curseg_segno[F2FS_CURSEG_HOT_NODE + i] = nseg;
		d->curseg_blkoff[F2FS_CURSEG_HOT_NODE + i] = noff;
	}
	return 0;
}

static int check_journals(struct loader *ld, struct f2fs_cp_data *d)
{
	uint32_t nats = le16_get(d->nat_journal.n_nats);
	uint32_t sits = le16_get(d->sit_journal.n_sits);

	if (nats > ld->bg.nat_journal_entries) {
		fs_say(ld->why, ld->why_len, "NAT journal: n_nats %u exceeds %u", nats,
		       ld->bg.nat_journal_entries);
		return -EINVAL;
	}
	if (sits > ld->bg.sit_journal_entries) {
		fs_say(ld->why, ld->why_len, "SIT journal: n_sits %u exceeds %u", sits,
		       ld->bg.sit_journal_entries);
		return -EINVAL;
	}
	return 0;
}

static int load(struct loader *ld, struct f2fs_cp_data *d)
{
	size_t head_len, sit_ofs, nat_ofs;
	int ret, i;

	/* volume.c checked these; the reader must not trust that alone */
	if (ld->payload > BLKS_PER_SEG - 8 || ld->total < ld->payload + 3 ||
	    ld->total > BLKS_PER_SEG || ld->start_sum < 1 + ld->payload ||
	    ld->start_sum >= ld->total - 1) {
		fs_say(ld->why, ld->why_len,
		       "checkpoint: pack geometry out of range (cp_payload %u, "
		       "cp_pack_total_block_count %u, cp_pack_start_sum %u)",
		       ld->payload, ld->total, ld->start_sum);
		return -EINVAL;
	}

	head_len = (size_t)(1 + ld->payload) * ld->bg.blksize;
	d->head = malloc(head_len);
	if (!d->head) {
		fs_say(ld->why, ld->why_len, "out of memory");
		return -ENOMEM;
	}
	ret = read_blocks(ld, ld->start, 1 + ld->payload, d->head, "checkpoint");
	if (ret)
		return ret;
	if (memcmp(d->head, ld->cp, ld->bg.blksize) != 0) {
		fs_say(ld->why, ld->why_len,
		       "checkpoint: block %u changed since the volume was opened", ld->start);
		return -EINVAL;
	}
	ret = locate_bitmaps(ld, head_len, &sit_ofs, &nat_ofs);
	if (ret)
		return ret;
	d->sit_bitmap = d->head + sit_ofs;
	d->sit_bitmap_bytes = le32_get(ld->cp->sit_ver_bitmap_bytesize);
	d->nat_bitmap = d->head + nat_ofs;
	d->nat_bitmap_bytes = le32_get(ld->cp->nat_ver_bitmap_bytesize);

	ret = check_logs(ld, d);
	if (ret)
		return ret;
	ret = load_orphans(ld, d);
	if (ret)
		return ret;
	if (ld->flags & CP_COMPACT_SUM_FLAG)
		ret = load_compacted(ld, d);
	else
		ret = load_normal_data(ld, d);
	if (ret)
		return ret;
	ret = load_node(ld, d);
	if (ret)
		return ret;
	ret = check_journals(ld, d);
	if (ret)
		return ret;
	/* the journals live in their own fields */
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		memset(&d->curseg_sum[i].journal, 0, sizeof(d->curseg_sum[i].journal));
	return 0;
}

int f2fs_cp_data_load(const struct f2fs_volume *v, struct f2fs_cp_data **out, char *why,
		      size_t why_len)
{
	struct loader ld;
	struct f2fs_cp_data *d;
	int ret;

	*out = NULL;
	fs_say(why, why_len, "%s", "");
	memset(&ld, 0, sizeof(ld));
	ld.sb = f2fs_volume_sb(v);
	f2fs_blkgeo_init_features(&ld.bg, le32_get(ld.sb->log_blocksize), le32_get(ld.sb->feature));
	ld.cp = f2fs_volume_cp(v);
	ld.dev = f2fs_volume_device(v);
	ld.start = f2fs_volume_cp_start(v);
	f2fs_pack_layout(ld.cp, le32_get(ld.sb->cp_payload), &ld.layout);
	ld.payload = ld.layout.payload;
	ld.total = ld.layout.total;
	ld.start_sum = le32_get(ld.cp->cp_pack_start_sum);
	ld.flags = le32_get(ld.cp->ckpt_flags);
	ld.node_in_pack = ld.layout.node_sums;
	ld.why = why;
	ld.why_len = why_len;

	d = calloc(1, sizeof(*d));
	ret = d ? load(&ld, d) : -ENOMEM;
	if (ret) {
		char detail[256];

		snprintf(detail, sizeof(detail), "%s", d ? why : "out of memory");
		fs_say(why, why_len, "checkpoint pack: %s", detail);
		f2fs_cp_data_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

int f2fs_cp_log_of_segment(const struct f2fs_cp_data *d, uint32_t segno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (d->curseg_segno[i] == segno)
			return i;
	return -1;
}

int f2fs_cp_log_of_section(const struct f2fs_cp_data *d, uint32_t segs_per_sec, uint32_t secno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (d->curseg_segno[i] / segs_per_sec == secno)
			return i;
	return -1;
}

void f2fs_cp_data_free(struct f2fs_cp_data *d)
{
	if (!d)
		return;
	free(d->orphans);
	free(d->head);
	free(d);
}

/* ---- for the write path (fs_internal.h) ---- */

int f2fs_cp_data_new(const struct f2fs_super_block *sb, const struct f2fs_checkpoint *cp,
		     struct f2fs_cp_data **out)
{
	struct loader ld;
	struct f2fs_cp_data *d;
	size_t head_len, sit_ofs, nat_ofs;
	int i;

	*out = NULL;
	memset(&ld, 0, sizeof(ld));
	ld.sb = sb;
	if (f2fs_blkgeo_init_features(&ld.bg, le32_get(sb->log_blocksize), le32_get(sb->feature)))
		return -EINVAL;
	ld.cp = cp;
	ld.flags = le32_get(cp->ckpt_flags);
	ld.payload = le32_get(sb->cp_payload);
	head_len = (size_t)(1 + ld.payload) * ld.bg.blksize;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->head = calloc(1, head_len);
	if (!d->head) {
		free(d);
		return -ENOMEM;
	}
	memcpy(d->head, cp, ld.bg.blksize);
	if (locate_bitmaps(&ld, head_len, &sit_ofs, &nat_ofs)) {
		f2fs_cp_data_free(d);
		return -EINVAL;
	}
	d->sit_bitmap = d->head + sit_ofs;
	d->sit_bitmap_bytes = le32_get(cp->sit_ver_bitmap_bytesize);
	d->nat_bitmap = d->head + nat_ofs;
	d->nat_bitmap_bytes = le32_get(cp->nat_ver_bitmap_bytesize);
	for (i = 0; i < 3; i++) {
		d->curseg_segno[F2FS_CURSEG_HOT_DATA + i] = le32_get(cp->cur_data_segno[i]);
		d->curseg_blkoff[F2FS_CURSEG_HOT_DATA + i] = le16_get(cp->cur_data_blkoff[i]);
		d->curseg_segno[F2FS_CURSEG_HOT_NODE + i] = le32_get(cp->cur_node_segno[i]);
		d->curseg_blkoff[F2FS_CURSEG_HOT_NODE + i] = le16_get(cp->cur_node_blkoff[i]);
	}
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		d->curseg_sum[i].footer.entry_type =
		    i < F2FS_CURSEG_HOT_NODE ? F2FS_SUM_TYPE_DATA : F2FS_SUM_TYPE_NODE;
	*out = d;
	return 0;
}
