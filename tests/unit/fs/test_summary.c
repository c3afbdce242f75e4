// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/fs/summary.c: format a 64 MiB memory device, open it
 * and load the checkpoint pack's bitmaps, journals, orphans and open-log
 * summaries (f2fs_fs_cp_data); then rebuild the pack in other shapes
 * (payload block, normal summaries, orphan block, compacted entries
 * spilling into a second block, node summaries from the SSA) and damage it,
 * checking the reasons.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"
#include "fixture.h"
#include "test.h"

#define DEV_BYTES (64ull << 20)
#define BLK	  F2FS_BLKSIZE
#define MAX_MID	  8 /* blocks between the two cp blocks of a rebuilt pack */

struct fs {
	struct fixture fx;
	struct f2fs_fs *h;   /* the handle of the last load(), which owns its data */
	uint32_t start;	     /* pack 1 */
	uint8_t sum[4][BLK]; /* the pack's compacted block and three node blocks, as mkfs wrote */
};

static void read_blk(struct fs *fs, uint64_t blkaddr, void *buf)
{
	CHECK(fixture_read_blk(&fs->fx, blkaddr, buf));
}

static void write_blk(struct fs *fs, uint64_t blkaddr, const void *buf)
{
	CHECK(fixture_write_blk(&fs->fx, blkaddr, buf));
}

static bool format(struct fs *fs, bool large_nat)
{
	bool ok;
	int i;

	memset(fs, 0, sizeof(*fs));
	fixture_init(&fs->fx, DEV_BYTES);
	fs->fx.cfg.geometry.large_nat_bitmap = large_nat;
	fs->fx.cfg.discard = false;
	ok = fixture_open(&fs->fx) && fixture_mkfs(&fs->fx);
	CHECK_EQ_U64(fs->fx.ret, 0);
	CHECK(ok);
	if (!ok)
		return false;
	fs->start = fs->fx.l.cp_blkaddr;
	for (i = 0; i < 4; i++)
		read_blk(fs, fs->start + le32_get(fs->fx.cp.cp_pack_start_sum) + (uint32_t)i,
			 fs->sum[i]);
	return true;
}

/* Close the handle of the last load(), and with it the data it loaded. */
static void release(struct fs *fs)
{
	f2fs_fs_close(fs->h);
	fs->h = NULL;
}

static void unformat(struct fs *fs)
{
	release(fs);
	CHECK_EQ_U64(fixture_free(&fs->fx), 0);
}

/*
 * Rewrite pack 1 as: cp block, @n blocks of @mid, cp block, with @cp's
 * total and start_sum set for it, both cp blocks sealed.
 */
static void write_pack(struct fs *fs, struct f2fs_checkpoint *cp, uint8_t (*mid)[BLK], uint32_t n,
		       uint32_t start_sum)
{
	uint8_t buf[BLK];
	uint32_t i;

	read_blk(fs, fs->start, buf);
	memcpy(buf, cp, sizeof(*cp));
	((struct f2fs_checkpoint *)buf)->cp_pack_total_block_count = le32_put(n + 2);
	((struct f2fs_checkpoint *)buf)->cp_pack_start_sum = le32_put(start_sum);
	f2fs_cp_seal((struct f2fs_checkpoint *)buf, F2FS_BLKSIZE);
	write_blk(fs, fs->start, buf);
	for (i = 0; i < n; i++)
		write_blk(fs, fs->start + 1 + i, mid[i]);
	write_blk(fs, fs->start + 1 + n, buf);
}

/*
 * Open the volume and load its pack data, valid until release(); returns
 * the load result, with the handle's reason in @why.
 */
static int load(struct fs *fs, const struct f2fs_cp_data **d, char *why, size_t why_len)
{
	int ret;

	*d = NULL;
	release(fs);
	ret = f2fs_fs_open(fs->fx.dev, F2FS_FS_READ, &fs->h, why, why_len);
	if (ret) {
		fprintf(stderr, "open: %s\n", why);
		CHECK(0);
		return ret;
	}
	CHECK_EQ_U64(f2fs_volume_cp_start(f2fs_fs_volume(fs->h)), fs->start);
	ret = f2fs_fs_cp_data(fs->h, d);
	snprintf(why, why_len, "%s", f2fs_fs_why(fs->h));
	return ret;
}

static uint32_t hot_node_blkaddr(const struct fs *fs)
{
	return f2fs_layout_seg_blkaddr(&fs->fx.l, fs->fx.l.cur_seg[F2FS_CURSEG_HOT_NODE]);
}

static void check_mkfs_content(const struct fs *fs, const struct f2fs_cp_data *d, uint32_t orphans)
{
	const struct f2fs_checkpoint *cp = &fs->fx.cp;
	bool seen[F2FS_NR_CURSEG_TYPE] = {false};
	int i, k;

	CHECK(d->sit_bitmap != NULL);
	CHECK(d->nat_bitmap != NULL);
	CHECK_EQ_U64(d->sit_bitmap_bytes, le32_get(cp->sit_ver_bitmap_bytesize));
	CHECK_EQ_U64(d->nat_bitmap_bytes, le32_get(cp->nat_ver_bitmap_bytesize));

	/* mkfs checkpoints at "unmount" with nat_bits: NAT entries are in the blocks */
	CHECK_EQ_U64(le16_get(d->nat_journal.n_nats), 0);

	CHECK_EQ_U64(le16_get(d->sit_journal.n_sits), 6);
	for (i = 0; i < 6; i++) {
		uint32_t segno = le32_get(d->sit_journal.sit_j.entries[i].segno);
		unsigned int type =
		    le16_get(d->sit_journal.sit_j.entries[i].se.vblocks) >> F2FS_SIT_VBLOCKS_SHIFT;

		CHECK(type < F2FS_NR_CURSEG_TYPE);
		if (type >= F2FS_NR_CURSEG_TYPE)
			continue;
		CHECK(!seen[type]);
		seen[type] = true;
		CHECK_EQ_U64(segno, fs->fx.l.cur_seg[type]);
	}

	for (k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
		CHECK_EQ_U64(d->curseg_segno[k], fs->fx.l.cur_seg[k]);
	for (k = 0; k < 3; k++) {
		CHECK_EQ_U64(d->curseg_blkoff[k], le16_get(cp->cur_data_blkoff[k]));
		CHECK_EQ_U64(d->curseg_blkoff[3 + k], le16_get(cp->cur_node_blkoff[k]));
	}
	CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_DATA].entries[0].nid), 3);
	CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_NODE].entries[0].nid), 3);
	CHECK_EQ_U64(d->curseg_sum[F2FS_CURSEG_HOT_NODE].footer.entry_type, F2FS_SUM_TYPE_NODE);
	CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_WARM_DATA].entries[0].nid), 0);
	/* journal parts of the per-log copies are zeroed */
	for (k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
		CHECK_EQ_U64(le16_get(d->curseg_sum[k].journal.n_nats), 0);
	CHECK_EQ_U64(d->orphan_count, orphans);
	CHECK(orphans ? d->orphans != NULL : d->orphans == NULL);
}

static void test_mkfs_image(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint32_t sit;

	if (!format(&fs, false))
		return;
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		sit = le32_get(fs.fx.cp.sit_ver_bitmap_bytesize);
		check_mkfs_content(&fs, d, 0);
		CHECK(d->sit_bitmap == d->head + 192);
		CHECK(d->nat_bitmap == d->head + 192 + sit);
		CHECK(memcmp(d->head, &fs.fx.cp, sizeof(fs.fx.cp)) == 0);
	}
	release(&fs);
	unformat(&fs);
}

static void put_root_entry(struct f2fs_journal *j, void *arg)
{
	j->n_nats = le16_put(1);
	j->nat_j.entries[0].nid = le32_put(3);
	j->nat_j.entries[0].ne.ino = le32_put(3);
	j->nat_j.entries[0].ne.block_addr = le32_put(*(const uint32_t *)arg);
}

/* A NAT journal in the compacted summary is loaded as stored. */
static void test_nat_journal(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint32_t addr;

	if (!format(&fs, false))
		return;
	addr = hot_node_blkaddr(&fs);
	CHECK(fixture_edit_journal(&fs.fx, false, put_root_entry, &addr));
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		CHECK_EQ_U64(le16_get(d->nat_journal.n_nats), 1);
		CHECK_EQ_U64(le32_get(d->nat_journal.nat_j.entries[0].nid), 3);
		CHECK_EQ_U64(le32_get(d->nat_journal.nat_j.entries[0].ne.ino), 3);
		CHECK_EQ_U64(le32_get(d->nat_journal.nat_j.entries[0].ne.block_addr), addr);
	}
	release(&fs);
	unformat(&fs);
}

static void test_large_nat_bitmap(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";

	if (!format(&fs, true))
		return;
	CHECK(le32_get(fs.fx.cp.ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG);
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		check_mkfs_content(&fs, d, 0);
		CHECK(d->nat_bitmap == d->head + 196);
		CHECK(d->sit_bitmap == d->head + 196 + le32_get(fs.fx.cp.nat_ver_bitmap_bytesize));
	}
	release(&fs);
	unformat(&fs);
}

/* Give both superblocks cp_payload 1 and put a payload block with a marked SIT bitmap. */
static void test_payload_bitmaps(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint8_t buf[BLK], mid[5][BLK];
	struct f2fs_super_block sb;
	struct f2fs_checkpoint cp;
	int i;

	if (!format(&fs, false))
		return;
	for (i = 0; i < 2; i++) {
		read_blk(&fs, (uint64_t)i, buf);
		memcpy(&sb, buf + F2FS_SUPER_OFFSET, sizeof(sb));
		sb.cp_payload = le32_put(1);
		f2fs_super_seal(&sb);
		memcpy(buf + F2FS_SUPER_OFFSET, &sb, sizeof(sb));
		write_blk(&fs, (uint64_t)i, buf);
	}
	memset(mid[0], 0, BLK);
	mid[0][0] = 0xa5;
	mid[0][le32_get(fs.fx.cp.sit_ver_bitmap_bytesize) - 1] = 0x5a;
	for (i = 0; i < 4; i++)
		memcpy(mid[1 + i], fs.sum[i], BLK);
	cp = fs.fx.cp;
	write_pack(&fs, &cp, mid, 5, 2);

	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		check_mkfs_content(&fs, d, 0);
		CHECK(d->nat_bitmap == d->head + 192);
		CHECK(d->sit_bitmap == d->head + BLK);
		CHECK_EQ_U64(d->sit_bitmap[0], 0xa5);
		CHECK_EQ_U64(d->sit_bitmap[d->sit_bitmap_bytes - 1], 0x5a);
	} else {
		fprintf(stderr, "load: %s\n", why);
	}
	release(&fs);
	unformat(&fs);
}

/* The mkfs pack rewritten with three normal data summary blocks. */
static void build_normal(struct fs *fs, uint8_t (*mid)[BLK])
{
	struct f2fs_summary_block *hot = (void *)mid[0], *cold = (void *)mid[2];
	uint32_t n = le16_get(fs->fx.cp.cur_data_blkoff[0]);
	int i;

	for (i = 0; i < 3; i++)
		memset(mid[i], 0, BLK);
	memcpy(&hot->journal, fs->sum[0], F2FS_SUM_JOURNAL_SIZE);
	memcpy(&cold->journal, fs->sum[0] + F2FS_SUM_JOURNAL_SIZE, F2FS_SUM_JOURNAL_SIZE);
	memcpy(hot->entries, fs->sum[0] + 2 * F2FS_SUM_JOURNAL_SIZE, n * F2FS_SUMMARY_SIZE);
	for (i = 0; i < 3; i++)
		memcpy(mid[3 + i], fs->sum[1 + i], BLK);
}

static void test_normal_summaries(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint8_t mid[6][BLK];
	struct f2fs_checkpoint cp;

	if (!format(&fs, false))
		return;
	build_normal(&fs, mid);
	cp = fs.fx.cp;
	cp.ckpt_flags =
	    le32_put(le32_get(cp.ckpt_flags) & ~(CP_COMPACT_SUM_FLAG | CP_NAT_BITS_FLAG));
	write_pack(&fs, &cp, mid, 6, 1);
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d)
		check_mkfs_content(&fs, d, 0);
	else
		fprintf(stderr, "load: %s\n", why);
	release(&fs);

	/* the same pack with one block too few for the normal summaries */
	write_pack(&fs, &cp, mid + 1, 5, 1);
	CHECK(load(&fs, &d, why, sizeof(why)) == -EINVAL);
	CHECK(d == NULL);
	CHECK(strstr(why, "summaries") != NULL);
	unformat(&fs);
}

/*
 * Without a clean unmount the open node logs' summaries are rebuilt from the
 * node footers, as the kernel does: the (stale) SSA block saying 77 is ignored.
 */
static void test_node_from_footers(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint8_t mid[4][BLK], ssa[BLK];
	struct f2fs_summary_block *s = (void *)ssa;
	struct f2fs_checkpoint cp;
	int i;

	if (!format(&fs, false))
		return;
	memset(ssa, 0, BLK);
	s->entries[0].nid = le32_put(77);
	s->footer.entry_type = F2FS_SUM_TYPE_NODE;
	write_blk(&fs, fs.fx.l.ssa_blkaddr + fs.fx.l.cur_seg[F2FS_CURSEG_HOT_NODE], ssa);
	for (i = 0; i < 4; i++)
		memcpy(mid[i], fs.sum[i], BLK);
	memset(mid[1], 0xee, BLK); /* the pack's node blocks must not be used */
	cp = fs.fx.cp;
	cp.ckpt_flags = le32_put(le32_get(cp.ckpt_flags) & ~CP_UMOUNT_FLAG);
	write_pack(&fs, &cp, mid, 4, 1);
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_NODE].entries[0].nid), 3);
		CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_NODE].entries[1].nid), 0);
		CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_DATA].entries[0].nid), 3);
		CHECK_EQ_U64(le16_get(d->sit_journal.n_sits), 6);
	} else {
		fprintf(stderr, "load: %s\n", why);
	}
	release(&fs);
	unformat(&fs);
}

static void build_orphan_pack(struct fs *fs, uint32_t count, const uint32_t *inos)
{
	uint8_t mid[5][BLK];
	struct f2fs_orphan_block *ob = (void *)mid[0];
	struct f2fs_checkpoint cp;
	uint32_t i;

	memset(mid[0], 0, BLK);
	for (i = 0; inos && i < count && i < F2FS_ORPHANS_PER_BLOCK; i++)
		ob->ino[i] = le32_put(inos[i]);
	ob->entry_count = le32_put(count);
	ob->blk_addr = le16_put(1);
	ob->blk_count = le16_put(1);
	for (i = 0; i < 4; i++)
		memcpy(mid[1 + i], fs->sum[i], BLK);
	cp = fs->fx.cp;
	cp.ckpt_flags = le32_put(le32_get(cp.ckpt_flags) | CP_ORPHAN_PRESENT_FLAG);
	write_pack(fs, &cp, mid, 5, 2);
}

static void test_orphans(void)
{
	static const uint32_t inos[3] = {5, 9, 12};
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";

	if (!format(&fs, false))
		return;
	build_orphan_pack(&fs, 3, inos);
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		check_mkfs_content(&fs, d, 3);
		CHECK_EQ_U64(d->orphan_count, 3);
		if (d->orphans && d->orphan_count == 3) {
			CHECK_EQ_U64(d->orphans[0], 5);
			CHECK_EQ_U64(d->orphans[1], 9);
			CHECK_EQ_U64(d->orphans[2], 12);
		}
	} else {
		fprintf(stderr, "load: %s\n", why);
	}
	release(&fs);

	build_orphan_pack(&fs, 5000, NULL);
	CHECK(load(&fs, &d, why, sizeof(why)) == -EINVAL);
	CHECK(d == NULL);
	CHECK(strstr(why, "orphan block") != NULL);
	CHECK(strstr(why, "entry_count 5000") != NULL);

	build_orphan_pack(&fs, 1, (const uint32_t[]){0});
	CHECK(load(&fs, &d, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "ino[0]") != NULL);
	unformat(&fs);
}

static void test_bad_journals(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint8_t mid[6][BLK];
	struct f2fs_journal *j;
	struct f2fs_checkpoint cp;
	int i;

	if (!format(&fs, false))
		return;
	/* compacted: n_nats 39 */
	for (i = 0; i < 4; i++)
		memcpy(mid[i], fs.sum[i], BLK);
	j = (void *)mid[0];
	j->n_nats = le16_put(39);
	write_pack(&fs, &fs.fx.cp, mid, 4, 1);
	CHECK(load(&fs, &d, why, sizeof(why)) == -EINVAL);
	CHECK(d == NULL);
	CHECK(strstr(why, "NAT journal") != NULL);

	/* compacted: n_sits 7 */
	memcpy(mid[0], fs.sum[0], BLK);
	j = (void *)(mid[0] + F2FS_SUM_JOURNAL_SIZE);
	j->n_sits = le16_put(7);
	write_pack(&fs, &fs.fx.cp, mid, 4, 1);
	CHECK(load(&fs, &d, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "SIT journal") != NULL);

	/* normal: n_nats 0xffff in the hot data block */
	build_normal(&fs, mid);
	((struct f2fs_summary_block *)mid[0])->journal.n_nats = le16_put(0xffff);
	cp = fs.fx.cp;
	cp.ckpt_flags = le32_put(le32_get(cp.ckpt_flags) & ~CP_COMPACT_SUM_FLAG);
	write_pack(&fs, &cp, mid, 6, 1);
	CHECK(load(&fs, &d, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "NAT journal") != NULL);
	unformat(&fs);
}

/*
 * Compacted entries past the first block: 439 fit after the two journals,
 * then the next block is used from offset 0.
 */
static void test_compacted_spill(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint8_t mid[5][BLK];
	struct f2fs_checkpoint cp;
	uint32_t hot, warm = 500, k, blk, ofs;
	struct f2fs_summary s;
	int i;

	if (!format(&fs, false))
		return;
	cp = fs.fx.cp;
	hot = le16_get(cp.cur_data_blkoff[0]);
	cp.cur_data_blkoff[1] = le16_put((uint16_t)warm);
	memcpy(mid[0], fs.sum[0], BLK);
	memset(mid[1], 0, BLK);
	for (i = 0; i < 3; i++)
		memcpy(mid[2 + i], fs.sum[1 + i], BLK);
	/* entry k (after hot's) gets nid 1000 + k */
	for (k = hot; k < hot + warm; k++) {
		blk = k < 439 ? 0 : 1;
		ofs = k < 439 ? 2 * F2FS_SUM_JOURNAL_SIZE + k * F2FS_SUMMARY_SIZE
			      : (k - 439) * F2FS_SUMMARY_SIZE;
		memset(&s, 0, sizeof(s));
		s.nid = le32_put(1000 + k);
		memcpy(mid[blk] + ofs, &s, sizeof(s));
	}
	write_pack(&fs, &cp, mid, 5, 1);
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d) {
		CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_DATA].entries[0].nid), 3);
		for (k = 0; k < warm; k++)
			if (le32_get(d->curseg_sum[F2FS_CURSEG_WARM_DATA].entries[k].nid) !=
			    1000 + hot + k) {
				CHECK_EQ_U64(
				    le32_get(d->curseg_sum[F2FS_CURSEG_WARM_DATA].entries[k].nid),
				    1000 + hot + k);
				break;
			}
		CHECK_EQ_U64(d->curseg_blkoff[F2FS_CURSEG_WARM_DATA], warm);
		CHECK_EQ_U64(le32_get(d->curseg_sum[F2FS_CURSEG_HOT_NODE].entries[0].nid), 3);
	} else {
		fprintf(stderr, "load: %s\n", why);
	}
	release(&fs);

	/*
	 * The same counts with only one compacted block in the pack: the entries
	 * past it are read from the pack's next block, as the kernel reads them
	 * (read_compacted_summaries), not refused; the check finds them wrong.
	 */
	write_pack(&fs, &cp, mid + 1, 4, 1);
	memcpy(mid[0], fs.sum[0], BLK);
	write_blk(&fs, fs.start + 1, mid[0]);
	CHECK_EQ_U64(load(&fs, &d, why, sizeof(why)), 0);
	if (d)
		CHECK(le32_get(d->curseg_sum[F2FS_CURSEG_WARM_DATA].entries[warm - 1].nid) !=
		      1000 + hot + warm - 1);
	release(&fs);
	unformat(&fs);
}

/* Random byte flips in the pack's summary and orphan blocks must never crash. */
static void test_fuzz(void)
{
	struct fs fs;
	const struct f2fs_cp_data *d;
	char why[256] = "";
	uint8_t mid[5][BLK], work[5][BLK];
	struct f2fs_checkpoint cp;
	uint32_t seed = 12345, r;
	int iter, i, flips;

	if (!format(&fs, false))
		return;
	memset(mid[0], 0, BLK);
	((struct f2fs_orphan_block *)mid[0])->entry_count = le32_put(1);
	((struct f2fs_orphan_block *)mid[0])->ino[0] = le32_put(4);
	for (i = 0; i < 4; i++)
		memcpy(mid[1 + i], fs.sum[i], BLK);
	for (iter = 0; iter < 300; iter++) {
		memcpy(work, mid, sizeof(work));
		cp = fs.fx.cp;
		seed = seed * 1103515245u + 12345u;
		r = seed >> 8;
		cp.ckpt_flags =
		    le32_put((le32_get(cp.ckpt_flags) ^ (r & 1 ? CP_COMPACT_SUM_FLAG : 0) ^
			      (r & 2 ? CP_UMOUNT_FLAG : 0)) |
			     CP_ORPHAN_PRESENT_FLAG);
		cp.cur_data_blkoff[(r >> 2) % 3] = le16_put((uint16_t)((r >> 4) % 513));
		for (flips = 0; flips < 8; flips++) {
			seed = seed * 1103515245u + 12345u;
			r = seed >> 4;
			work[r % 5][(r >> 3) % BLK] ^= (uint8_t)(1u << ((r >> 16) & 7));
		}
		write_pack(&fs, &cp, work, 5, 2);
		d = NULL;
		if (load(&fs, &d, why, sizeof(why)) == 0)
			CHECK(d != NULL);
		else
			CHECK(d == NULL && why[0]);
		release(&fs);
	}
	unformat(&fs);
}

int main(void)
{
	RUN(test_mkfs_image);
	RUN(test_nat_journal);
	RUN(test_large_nat_bitmap);
	RUN(test_payload_bitmaps);
	RUN(test_normal_summaries);
	RUN(test_node_from_footers);
	RUN(test_orphans);
	RUN(test_bad_journals);
	RUN(test_compacted_spill);
	RUN(test_fuzz);
	TEST_EXIT();
}
