// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/fs/nat.c: load the NAT of freshly formatted 64 MiB
 * memory devices (with and without lost+found), with the checkpoint data
 * built by hand from the pack; then steer the copy selection through the
 * NAT version bitmap, break the nat_bits tag, feed a journal entry with an
 * impossible nid, and load a hand-made four-segment NAT whose two pairs mix
 * copies.  A white-box test of the loader: it calls f2fs_nat_load() with
 * crafted checkpoint data (lib/fs/fs_internal.h), and reads the table only
 * through the accessors of f2fs/nat.h.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/nat.h"
#include "f2fs/summary.h"
#include "../../../lib/fs/fs_internal.h"
#include "fixture.h"
#include "test.h"

#define DEV_BYTES (64ull << 20)
#define BLK	  F2FS_BLKSIZE
#define SEG	  F2FS_DEFAULT_BLKS_PER_SEG

struct fs {
	struct fixture fx;
	struct f2fs_cp_data cpd;
	uint8_t *bitmap;
};

static bool format(struct fs *fs, const char *features)
{
	uint8_t blk[BLK];
	bool ok;

	memset(fs, 0, sizeof(*fs));
	ok = fixture_format(&fs->fx, DEV_BYTES, features, false);
	CHECK_EQ_U64(fs->fx.ret, 0);
	CHECK(ok);
	if (!ok) {
		fixture_free(&fs->fx);
		return false;
	}

	/* The checkpoint data, by hand: the compacted journal and the pack's NAT bitmap. */
	CHECK(fixture_read_sum(&fs->fx, blk));
	memcpy(&fs->cpd.nat_journal, blk, F2FS_SUM_JOURNAL_SIZE);
	fs->cpd.nat_bitmap_bytes = le32_get(fs->fx.cp.nat_ver_bitmap_bytesize);
	fs->bitmap = calloc(1, fs->cpd.nat_bitmap_bytes);
	fs->cpd.nat_bitmap = fs->bitmap;
	CHECK(fs->bitmap != NULL);
	if (fs->bitmap)
		memcpy(fs->bitmap,
		       fs->fx.cp_blk + F2FS_CP_BITMAP_OFFSET +
			   le32_get(fs->fx.cp.sit_ver_bitmap_bytesize),
		       fs->cpd.nat_bitmap_bytes);
	return fs->bitmap != NULL;
}

static void unformat(struct fs *fs)
{
	free(fs->bitmap);
	CHECK_EQ_U64(fixture_free(&fs->fx), 0);
}

static struct f2fs_nat_table *load(struct fs *fs)
{
	struct f2fs_nat_table *t = NULL;
	char why[160] = "";
	int ret;

	ret = f2fs_nat_load(fs->fx.dev, &fs->fx.sb, &fs->fx.cp, le32_get(fs->fx.sb.cp_blkaddr),
			    &fs->cpd, &t, why, sizeof(why));
	if (ret)
		fprintf(stderr, "nat load: %d: %s\n", ret, why);
	CHECK_EQ_U64(ret, 0);
	CHECK(t != NULL);
	return t;
}

static uint32_t hot_node(const struct fs *fs, uint32_t ofs)
{
	return le32_get(fs->fx.sb.main_blkaddr) + le32_get(fs->fx.cp.cur_node_segno[0]) * SEG + ofs;
}

static void check_fresh(const char *features, bool lpf)
{
	struct fs fs;
	struct f2fs_nat_table *t;
	const struct f2fs_nat_info *e;
	uint32_t blocks, nid, bytes, i, last_used = lpf ? 4 : 3;
	bool others_zero = true, full_zero = true, empty_ok = true;

	if (!format(&fs, features))
		return;
	CHECK_EQ_U64(fs.fx.res.lost_found_ino, lpf ? 4 : 0);
	t = load(&fs);
	if (!t) {
		unformat(&fs);
		return;
	}
	blocks = le32_get(fs.fx.sb.segment_count_nat) / 2 * SEG;
	CHECK_EQ_U64(f2fs_nat_blocks(t), blocks);
	CHECK_EQ_U64(f2fs_nat_max_nid(t), blocks * F2FS_NAT_ENTRY_PER_BLOCK);
	CHECK_EQ_U64(f2fs_nat_journal_bad_nids(t), 0);
	/* only NAT block 0 holds entries: the others are not kept */
	CHECK(f2fs_nat_block_used(t, 0));
	CHECK(!f2fs_nat_block_used(t, 1));
	CHECK(!f2fs_nat_block_used(t, blocks - 1));
	CHECK(!f2fs_nat_block_used(t, blocks));

	for (nid = 1; nid <= 2; nid++) {
		e = f2fs_nat_get(t, nid);
		CHECK(e != NULL);
		if (e) {
			CHECK_EQ_U64(e->ino, nid);
			CHECK_EQ_U64(e->blkaddr, 1);
			CHECK_EQ_U64(e->from_journal, 0);
		}
	}
	/* mkfs checkpoints at "unmount" with nat_bits: the journal is empty, NAT block 0 holds all
	 */
	CHECK_EQ_U64(le16_get(fs.cpd.nat_journal.n_nats), 0);
	e = f2fs_nat_get(t, 3);
	CHECK(e != NULL);
	if (e) {
		CHECK_EQ_U64(e->ino, 3);
		CHECK_EQ_U64(e->blkaddr, hot_node(&fs, 0));
		CHECK_EQ_U64(e->from_journal, 0);
	}
	if (lpf) {
		e = f2fs_nat_get(t, 4);
		CHECK(e != NULL);
		if (e) {
			CHECK_EQ_U64(e->ino, 4);
			CHECK_EQ_U64(e->blkaddr, hot_node(&fs, 1));
			CHECK_EQ_U64(e->from_journal, 0);
		}
	}
	for (nid = 0; nid < f2fs_nat_max_nid(t); nid++) {
		if (nid >= 1 && nid <= last_used)
			continue;
		if (f2fs_nat_get(t, nid)->blkaddr || f2fs_nat_get(t, nid)->ino ||
		    f2fs_nat_get(t, nid)->from_journal) {
			if (others_zero)
				fprintf(stderr, "nid %u is not free\n", nid);
			others_zero = false;
		}
	}
	CHECK(others_zero);
	CHECK(f2fs_nat_get(t, f2fs_nat_max_nid(t)) == NULL);
	CHECK(f2fs_nat_get(t, UINT32_MAX) == NULL);
	CHECK(f2fs_nat_get(t, f2fs_nat_max_nid(t) - 1) != NULL);
	/* an entry of an empty block is the shared empty one */
	CHECK(f2fs_nat_get(t, F2FS_NAT_ENTRY_PER_BLOCK) == &f2fs_nat_empty_entry);

	CHECK(le32_get(fs.fx.cp.ckpt_flags) & CP_NAT_BITS_FLAG);
	CHECK(f2fs_nat_bits_valid(t));
	bytes = f2fs_nat_bits_bytes(le32_get(fs.fx.sb.segment_count_nat));
	CHECK_EQ_U64((uint64_t)bytes * 8, blocks);
	for (i = 0; i < blocks; i++) {
		if (f2fs_nat_bits_full(t, i))
			full_zero = false;
		if (f2fs_nat_bits_empty(t, i) != (i != 0))
			empty_ok = false;
	}
	CHECK(full_zero);
	CHECK(empty_ok);
	/* past the table: neither */
	CHECK(!f2fs_nat_bits_full(t, blocks));
	CHECK(!f2fs_nat_bits_empty(t, blocks));
	f2fs_nat_free(t);
	unformat(&fs);
}

static void test_fresh_default(void)
{
	check_fresh(NULL, false);
}

static void test_fresh_lost_found(void)
{
	check_fresh("extra_attr,lost_found", true);
}

static void test_block_addr(void)
{
	struct f2fs_super_block sb;

	memset(&sb, 0, sizeof(sb));
	sb.nat_blkaddr = le32_put(1536);
	sb.segment_count_nat = le32_put(6);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 0, 0), 1536);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 0, 1), 1536 + 512);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 511, 0), 1536 + 511);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 511, 1), 1536 + 1023);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 512, 0), 1536 + 1024);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 513, 1), 1536 + 1024 + 512 + 1);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 1535, 0), 1536 + 2048 + 511);
	CHECK_EQ_U64(f2fs_nat_block_addr(&sb, 1535, 1), 1536 + 2560 + 511);
}

static void test_copy_selection(void)
{
	struct fs fs;
	struct f2fs_nat_table *t;
	struct f2fs_nat_block *nat = calloc(1, BLK);
	const struct f2fs_nat_info *e;
	uint32_t addr;
	int cur;

	CHECK(nat != NULL);
	if (!nat || !format(&fs, NULL)) {
		free(nat);
		return;
	}
	/* plant a NAT block 0 in the copy the checkpoint does not select */
	cur = f2fs_test_bit_msb(fs.bitmap, 0);
	nat->entries[10].version = 7;
	nat->entries[10].ino = le32_put(10);
	nat->entries[10].block_addr = le32_put(0x1234);
	addr = f2fs_nat_block_addr(&fs.fx.sb, 0, !cur);
	CHECK_EQ_U64(addr, le32_get(fs.fx.sb.nat_blkaddr) + (cur ? 0 : SEG));
	CHECK(fixture_write_blk(&fs.fx, addr, nat));

	/* The checkpoint's bit: the copy mkfs wrote, nid 10 free. */
	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_nat_get(t, 10)->blkaddr, 0);
		CHECK_EQ_U64(f2fs_nat_get(t, 1)->blkaddr, 1);
		CHECK_EQ_U64(f2fs_nat_get(t, 3)->blkaddr, hot_node(&fs, 0));
		f2fs_nat_free(t);
	}

	/* Bit 0 flipped, most significant bit first: the planted copy of NAT block 0. */
	fs.bitmap[0] ^= 0x80;
	t = load(&fs);
	if (t) {
		e = f2fs_nat_get(t, 10);
		CHECK(e != NULL);
		if (e) {
			CHECK_EQ_U64(e->ino, 10);
			CHECK_EQ_U64(e->blkaddr, 0x1234);
			CHECK_EQ_U64(e->version, 7);
			CHECK_EQ_U64(e->from_journal, 0);
		}
		CHECK_EQ_U64(f2fs_nat_get(t, 1)->blkaddr,
			     0); /* the planted copy has no meta entries */
		CHECK_EQ_U64(f2fs_nat_get(t, 3)->blkaddr, 0);
		f2fs_nat_free(t);
	}

	/* The least significant bit is block 7, not block 0. */
	fs.bitmap[0] ^= 0x80 | 0x01;
	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_nat_get(t, 10)->blkaddr, 0);
		CHECK_EQ_U64(f2fs_nat_get(t, 1)->blkaddr, 1);
		f2fs_nat_free(t);
	}
	free(nat);
	unformat(&fs);
}

static void test_nat_bits_tag(void)
{
	struct fs fs;
	struct f2fs_nat_table *t;
	uint32_t blocks;
	uint64_t off;
	uint8_t blk[BLK];

	if (!format(&fs, NULL))
		return;
	blocks = f2fs_nat_bits_blocks(le32_get(fs.fx.sb.segment_count_nat), F2FS_BLKSIZE);
	off = ((uint64_t)le32_get(fs.fx.sb.cp_blkaddr) + SEG - blocks) * BLK;
	CHECK_EQ_U64(f2fs_dev_read(fs.fx.dev, blk, off, BLK), 0);
	blk[3] ^= 0x40;
	CHECK_EQ_U64(f2fs_dev_write(fs.fx.dev, blk, off, BLK), 0);
	t = load(&fs);
	if (t) {
		CHECK(!f2fs_nat_bits_valid(t));
		CHECK(!f2fs_nat_bits_empty(t, 1));
		CHECK(!f2fs_nat_bits_full(t, 1));
		CHECK_EQ_U64(f2fs_nat_get(t, 3)->ino, 3);
		f2fs_nat_free(t);
	}

	/* Without CP_NAT_BITS_FLAG the trailer is not looked at. */
	blk[3] ^= 0x40;
	CHECK_EQ_U64(f2fs_dev_write(fs.fx.dev, blk, off, BLK), 0);
	fs.fx.cp.ckpt_flags = le32_put(le32_get(fs.fx.cp.ckpt_flags) & ~CP_NAT_BITS_FLAG);
	t = load(&fs);
	if (t) {
		CHECK(!f2fs_nat_bits_valid(t));
		f2fs_nat_free(t);
	}
	unformat(&fs);
}

static void test_journal_bad_nid(void)
{
	struct fs fs;
	struct f2fs_nat_table *t;
	uint16_t n;
	struct f2fs_nat_journal_entry *je;

	if (!format(&fs, NULL))
		return;
	n = le16_get(fs.cpd.nat_journal.n_nats);
	CHECK(n + 1 < F2FS_NAT_JOURNAL_ENTRIES);
	/* a good entry (the root's) beside the bad one still applies */
	je = &fs.cpd.nat_journal.nat_j.entries[n++];
	je->nid = le32_put(3);
	je->ne.ino = le32_put(3);
	je->ne.block_addr = le32_put(hot_node(&fs, 0));
	je = &fs.cpd.nat_journal.nat_j.entries[n];
	je->nid = le32_put(0x7fffffff);
	je->ne.ino = le32_put(0x7fffffff);
	je->ne.block_addr = le32_put(5);
	fs.cpd.nat_journal.n_nats = le16_put((uint16_t)(n + 1));
	t = load(&fs);
	if (t) {
		CHECK_EQ_U64(f2fs_nat_journal_bad_nids(t), 1);
		CHECK(f2fs_nat_get(t, 0x7fffffff) == NULL);
		CHECK_EQ_U64(f2fs_nat_get(t, 3)->from_journal, 1);
		f2fs_nat_free(t);
	}
	unformat(&fs);
}

static void test_short_bitmap(void)
{
	struct fs fs;
	struct f2fs_nat_table *t = (struct f2fs_nat_table *)&fs;
	char why[160] = "";

	if (!format(&fs, NULL))
		return;
	fs.cpd.nat_bitmap_bytes = le32_get(fs.fx.sb.segment_count_nat) / 2 * SEG / 8 - 1;
	CHECK_EQ_U64(f2fs_nat_load(fs.fx.dev, &fs.fx.sb, &fs.fx.cp, le32_get(fs.fx.sb.cp_blkaddr),
				   &fs.cpd, &t, why, sizeof(why)),
		     -EINVAL);
	CHECK(t == NULL);
	CHECK(strstr(why, "nat_ver_bitmap_bytesize") != NULL);
	f2fs_nat_free(NULL);
	unformat(&fs);
}

/*
 * A hand-made NAT of two segment pairs on a bare device: every block of both
 * copies names itself in entry 1, and the bitmap mixes copies within pair 1.
 */
static void test_two_pairs(void)
{
	enum { NAT_START = 512, NSEGS = 4, NBLOCKS = NSEGS / 2 * SEG };
	struct f2fs_super_block sb;
	struct f2fs_checkpoint cp;
	struct f2fs_cp_data cpd;
	struct f2fs_device *dev;
	struct f2fs_nat_table *t = NULL;
	uint8_t bitmap[NBLOCKS / 8];
	uint8_t *area = calloc((size_t)NSEGS * SEG, BLK);
	char why[160] = "";
	uint32_t idx, bad = 0;
	int copy;

	CHECK(area != NULL);
	if (!area)
		return;
	memset(&sb, 0, sizeof(sb));
	memset(&cp, 0, sizeof(cp));
	memset(&cpd, 0, sizeof(cpd));
	sb.nat_blkaddr = le32_put(NAT_START);
	sb.segment_count_nat = le32_put(NSEGS);
	memset(bitmap, 0, sizeof(bitmap));
	for (idx = SEG; idx < NBLOCKS; idx++)
		if ((idx / 37) % 2 || idx == NBLOCKS - 1)
			f2fs_set_bit_msb(bitmap, idx);
	cpd.nat_bitmap = bitmap;
	cpd.nat_bitmap_bytes = sizeof(bitmap);

	CHECK_EQ_U64(f2fs_dev_open_memory((uint64_t)(NAT_START + NSEGS * SEG) * BLK, &dev), 0);
	for (idx = 0; idx < NBLOCKS; idx++)
		for (copy = 0; copy < 2; copy++) {
			uint32_t addr = f2fs_nat_block_addr(&sb, idx, copy);
			struct f2fs_nat_block *b =
			    (struct f2fs_nat_block *)(area + (size_t)(addr - NAT_START) * BLK);

			b->entries[1].ino = le32_put(idx);
			b->entries[1].block_addr = le32_put((uint32_t)copy + 100);
		}
	CHECK_EQ_U64(
	    f2fs_dev_write(dev, area, (uint64_t)NAT_START * BLK, (size_t)NSEGS * SEG * BLK), 0);
	CHECK_EQ_U64(f2fs_nat_load(dev, &sb, &cp, 0, &cpd, &t, why, sizeof(why)), 0);
	if (t) {
		CHECK_EQ_U64(f2fs_nat_max_nid(t), NBLOCKS * F2FS_NAT_ENTRY_PER_BLOCK);
		CHECK(!f2fs_nat_bits_valid(t));
		for (idx = 0; idx < NBLOCKS; idx++) {
			const struct f2fs_nat_info *e =
			    f2fs_nat_get(t, idx * F2FS_NAT_ENTRY_PER_BLOCK + 1);
			uint32_t want = 100 + (uint32_t)f2fs_test_bit_msb(bitmap, idx);

			if (e->ino != idx || e->blkaddr != want) {
				if (!bad)
					fprintf(stderr, "block %u: ino %u blkaddr %u, want %u\n",
						idx, e->ino, e->blkaddr, want);
				bad++;
			}
		}
		CHECK_EQ_U64(bad, 0);
		f2fs_nat_free(t);
	}
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	free(area);
}

int main(void)
{
	RUN(test_block_addr);
	RUN(test_fresh_default);
	RUN(test_fresh_lost_found);
	RUN(test_copy_selection);
	RUN(test_nat_bits_tag);
	RUN(test_journal_bad_nid);
	RUN(test_short_bitmap);
	RUN(test_two_pairs);
	TEST_EXIT();
}
