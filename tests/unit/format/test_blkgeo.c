// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/format/blkgeo.c and the block-size-dependent parts of
 * node.c, dir.c and checkpoint.c: the sizes of 4 KiB and 16 KiB blocks.
 * The 16 KiB figures were worked out by hand from the layouts and checked
 * against what newest upstream writes and prints for a volume made with
 * mkfs.f2fs -b 16384 and filled by its sload.f2fs:
 *   - checksum_offset 16380 in dump.f2fs -d 1;
 *   - a file with inline xattrs lists i_addr[0..0xf68] (3945 = 3995 - 50)
 *     in dump.f2fs -i, and a direct node 4090 addresses;
 *   - our fsck finds that volume clean and our dump extracts its tree,
 *     which needs the summary journal, SIT/NAT entry counts and dentry
 *     geometry below (tests/cli/blk16k.sh).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/node.h"
#include "test.h"

static struct f2fs_blkgeo geo(uint32_t log)
{
	struct f2fs_blkgeo g;

	memset(&g, 0xa5, sizeof(g));
	CHECK_EQ_U64(f2fs_blkgeo_init(&g, log), 0);
	return g;
}

static void test_4k_constants(void)
{
	struct f2fs_blkgeo g = geo(12);

	CHECK_EQ_U64(g.blksize, 4096);
	CHECK_EQ_U64(g.log_blksize, 12);
	CHECK_EQ_U64(g.addrs_per_inode, 923);
	CHECK_EQ_U64(g.addrs_per_block, 1018);
	CHECK_EQ_U64(g.nids_per_block, 1018);
	CHECK_EQ_U64(g.footer_offset, 4072);
	CHECK_EQ_U64(g.inode_nid_word, 4052 / 4);
	CHECK_EQ_U64(g.nat_per_block, 455);
	CHECK_EQ_U64(g.sit_per_block, 55);
	CHECK_EQ_U64(g.orphans_per_block, 1020);
	CHECK_EQ_U64(g.dentry_slots, 214);
	CHECK_EQ_U64(g.dentry_bitmap, 27);
	CHECK_EQ_U64(g.dentry_reserved, 3);
	CHECK_EQ_U64(g.sum_entries, 512);
	CHECK_EQ_U64(g.sum_journal_offset, 3584);
	CHECK_EQ_U64(g.sum_journal_size, 507);
	CHECK_EQ_U64(g.nat_journal_entries, 38);
	CHECK_EQ_U64(g.sit_journal_entries, 6);
	CHECK_EQ_U64(g.sum_footer_offset, 4091);
	CHECK_EQ_U64(g.cp_chksum_offset, 4092);
	/* the computed geometry is the format's 4 KiB constants */
	CHECK(memcmp(&g, f2fs_blkgeo_4k(), sizeof(g)) == 0);
}

static void test_16k_constants(void)
{
	struct f2fs_blkgeo g = geo(14);

	CHECK_EQ_U64(g.blksize, 16384);
	CHECK_EQ_U64(g.log_blksize, 14);
	/* (16384 - 360 bytes before i_addr - 20 of i_nid - 24 of footer) / 4 */
	CHECK_EQ_U64(g.addrs_per_inode, 3995);
	CHECK_EQ_U64(g.addrs_per_block, 4090);
	CHECK_EQ_U64(g.nids_per_block, 4090);
	CHECK_EQ_U64(g.footer_offset, 16360);
	CHECK_EQ_U64(g.inode_nid_word, 4085);
	CHECK_EQ_U64(g.nat_per_block, 1820);
	CHECK_EQ_U64(g.sit_per_block, 221);
	CHECK_EQ_U64(g.orphans_per_block, 4092);
	/* 8 * 16384 / (19 * 8 + 1) slots, their bitmap, and what is left */
	CHECK_EQ_U64(g.dentry_slots, 856);
	CHECK_EQ_U64(g.dentry_bitmap, 107);
	CHECK_EQ_U64(g.dentry_reserved, 13);
	CHECK_EQ_U64(g.sum_entries, 2048);
	CHECK_EQ_U64(g.sum_journal_offset, 2048 * 7);
	CHECK_EQ_U64(g.sum_journal_size, 2043);
	CHECK_EQ_U64(g.nat_journal_entries, 157);
	CHECK_EQ_U64(g.sit_journal_entries, 26);
	CHECK_EQ_U64(g.sum_footer_offset, 16379);
	CHECK_EQ_U64(g.cp_chksum_offset, 16380);
	CHECK_EQ_U64(F2FS_MAX_SUM_JOURNAL_SIZE, 2043);
	/* every part of a block accounted for */
	CHECK_EQ_U64(g.dentry_bitmap + g.dentry_reserved + 19 * g.dentry_slots, g.blksize);
	CHECK_EQ_U64(g.sum_journal_offset + g.sum_journal_size + 5, g.blksize);
}

static void test_other_sizes_refused(void)
{
	static const uint32_t logs[] = {0, 9, 11, 13, 15, 16, 32};
	struct f2fs_blkgeo g = geo(12), before = g;

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		CHECK_EQ_U64(f2fs_blkgeo_init(&g, logs[i]), (uint64_t)-EINVAL);
		CHECK(memcmp(&g, &before, sizeof(g)) == 0);
	}
}

/* The footer, i_nid[] and tree offsets of a 16 KiB node block. */
static void test_16k_node_block(void)
{
	struct f2fs_blkgeo g = geo(14);
	uint8_t *blk = calloc(1, g.blksize);
	struct f2fs_node *n = (struct f2fs_node *)blk;
	le32 v;

	CHECK(blk != NULL);
	if (!blk)
		return;
	v = le32_put(77);
	memcpy(blk + 16360, &v, 4); /* footer nid */
	v = le32_put(66);
	memcpy(blk + 16364, &v, 4); /* footer ino */
	v = le32_put(5u << F2FS_OFFSET_BIT_SHIFT | 1);
	memcpy(blk + 16368, &v, 4); /* footer flag */
	v = le32_put(1234);
	memcpy(blk + 16380, &v, 4);			  /* next_blkaddr */
	f2fs_node_set_word(n, g.inode_nid_word + 4, 999); /* i_nid[4] */
	CHECK_EQ_U64(f2fs_footer_nid(&g, n), 77);
	CHECK_EQ_U64(f2fs_footer_ino(&g, n), 66);
	CHECK_EQ_U64(f2fs_node_ofs(&g, n), 5);
	CHECK_EQ_U64(f2fs_footer_next_blkaddr(&g, n), 1234);
	memcpy(&v, blk + 16356, 4);
	CHECK_EQ_U64(le32_get(v), 999); /* i_nid[4] ends where the footer starts */
	free(blk);

	CHECK_EQ_U64(f2fs_node_ofs_indirect2(&g), 4 + 4090);
	CHECK_EQ_U64(f2fs_node_ofs_dindirect(&g), 5 + 2 * 4090);
	CHECK_EQ_U64(f2fs_inode_nid_ofs(&g, 3), 4094);
	CHECK_EQ_U64(f2fs_node_child_ofs(&g, 8185, 2, 1), 8185 + 1 + 4091);
	CHECK(f2fs_node_ofs_is_direct(&g, 4093));
	CHECK(!f2fs_node_ofs_is_direct(&g, 4094));
	CHECK(!f2fs_node_ofs_is_direct(&g, 8186)); /* the double indirect's first child */
	CHECK(f2fs_node_ofs_is_direct(&g, 8187));
}

/* Where file blocks live in the tree of 16 KiB blocks. */
static void test_16k_node_path(void)
{
	struct f2fs_blkgeo g = geo(14);
	const uint64_t a = 3995, d = 4090;
	struct f2fs_node_path p;

	CHECK_EQ_U64(f2fs_node_path(&g, a - 1, a, d, &p), 0);
	CHECK_EQ_U64(p.depth, 0);
	CHECK_EQ_U64(f2fs_node_path(&g, a + d, a, d, &p), 0);
	CHECK_EQ_U64(p.depth, 1);
	CHECK_EQ_U64(p.nid_slot, 1);
	CHECK_EQ_U64(f2fs_node_path(&g, a + 2 * d + d * d, a, d, &p), 0);
	CHECK_EQ_U64(p.depth, 2);
	CHECK_EQ_U64(p.nid_slot, 3);
	CHECK_EQ_U64(p.node_ofs[1], 4094);
	CHECK_EQ_U64(f2fs_node_path(&g, a + 2 * d + 2 * d * d, a, d, &p), 0);
	CHECK_EQ_U64(p.depth, 3);
	CHECK_EQ_U64(p.node_ofs[1], 8185);
	CHECK_EQ_U64(f2fs_node_first_block(&g, p.node_ofs[3], a, d), a + 2 * d + 2 * d * d);
	CHECK_EQ_U64(f2fs_node_path(&g, a + 2 * d + 2 * d * d + d * d * d, a, d, &p),
		     (uint64_t)-EFBIG);
}

/* An inode's own addresses, inline data and inline xattrs on 16 KiB blocks. */
static void test_16k_inode_room(void)
{
	struct f2fs_blkgeo g = geo(14);
	struct f2fs_inode ri;
	unsigned int first, count;

	memset(&ri, 0, sizeof(ri));
	ri.i_inline = F2FS_INLINE_XATTR;
	CHECK_EQ_U64(f2fs_inode_addrs(&g, &ri, 0), 3995 - 50);
	CHECK(f2fs_inode_addr_range(&g, &ri, 0, &first, &count));
	CHECK_EQ_U64(first, 0);
	CHECK_EQ_U64(count, 3945);
	CHECK_EQ_U64(f2fs_direct_addrs(&g, &ri), 4090);
	/* the kernel's MAX_INLINE_DATA: all of i_addr[] but the xattrs and a reserved word */
	CHECK_EQ_U64(f2fs_inline_data_bytes(&g, &ri, 0), 4 * (3995 - 50 - 1));
}

/* A 16 KiB dentry block: bitmap, reserved bytes, entries, then names to the end. */
static void test_16k_dentry_block(void)
{
	struct f2fs_blkgeo g = geo(14);
	uint8_t *blk = calloc(1, g.blksize);
	struct f2fs_dentry_area a;

	CHECK(blk != NULL);
	if (!blk)
		return;
	f2fs_dentry_block_area(&g, (struct f2fs_dentry_block *)blk, &a);
	CHECK_EQ_U64(a.nr, 856);
	CHECK(a.bitmap == blk);
	CHECK_EQ_U64((uint8_t *)a.dentry - blk, 107 + 13);
	CHECK_EQ_U64(a.names - blk, 120 + 856 * 11);
	CHECK_EQ_U64(a.names + 856 * 8 - blk, 16384);
	free(blk);
}

/* A checkpoint block's checksum sits in the last word of whichever block size. */
static void test_16k_cp_checksum(void)
{
	uint8_t *blk = calloc(1, 16384);
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	uint32_t crc;
	le32 v;

	CHECK(blk != NULL);
	if (!blk)
		return;
	cp->checksum_offset = le32_put(16380);
	blk[10000] = 0x5a;
	crc = f2fs_cp_crc(cp, 16384);
	CHECK_EQ_U64(crc, f2fs_block_crc(blk, 16380));
	f2fs_cp_seal(cp, 16384);
	memcpy(&v, blk + 16380, 4);
	CHECK_EQ_U64(le32_get(v), crc);
	CHECK_EQ_U64(f2fs_nat_bits_blocks(2, 16384), 1);
	CHECK_EQ_U64(f2fs_nat_bits_blocks(512, 16384), 3); /* 8 + 2 * 8192 bytes */
	free(blk);
}

/*
 * packed_ssa: every summary has the 4 KiB layout (upstream's dump reads the
 * checkpoint's node summaries with the footer at byte 4091 of the block),
 * four to a 16 KiB SSA block; on 4 KiB blocks the bit changes nothing.
 */
static void test_packed_ssa(void)
{
	struct f2fs_blkgeo p, plain = geo(14), four = geo(12);
	struct f2fs_summary_block sum, back;
	uint8_t blk[F2FS_MAX_BLKSIZE];

	CHECK_EQ_U64(f2fs_blkgeo_init_features(&p, 14, F2FS_FEATURE_PACKED_SSA), 0);
	CHECK_EQ_U64(p.blksize, 16384);
	CHECK_EQ_U64(p.sum_blksize, 4096);
	CHECK_EQ_U64(p.sums_per_block, 4);
	CHECK_EQ_U64(p.sum_entries, 512);
	CHECK_EQ_U64(p.sum_journal_size, 507);
	CHECK_EQ_U64(p.sum_footer_offset, 4091);
	CHECK_EQ_U64(p.nat_journal_entries, 38);
	CHECK_EQ_U64(p.sit_journal_entries, 6);
	CHECK_EQ_U64(p.addrs_per_block, plain.addrs_per_block); /* only summaries change */
	CHECK_EQ_U64(plain.sums_per_block, 1);
	CHECK_EQ_U64(plain.sum_blksize, 16384);
	/* segment 6: block 1 of the area, its third quarter */
	CHECK_EQ_U64(f2fs_ssa_block_of(&p, 100, 6), 101);
	CHECK_EQ_U64(f2fs_ssa_byte_of(&p, 100, 6), 100 * 16384 + 6 * 4096);
	CHECK_EQ_U64(f2fs_ssa_block_of(&plain, 100, 6), 106);
	CHECK_EQ_U64(f2fs_ssa_byte_of(&plain, 100, 6), 106 * 16384);
	CHECK_EQ_U64(f2fs_blkgeo_init_features(&p, 12, F2FS_FEATURE_PACKED_SSA), 0);
	CHECK(!memcmp(&p, &four, sizeof(p)));
	/* a summary stored and loaded back, in both 16 KiB layouts */
	memset(&sum, 0, sizeof(sum));
	sum.entries[511].nid = le32_put(77);
	sum.footer.entry_type = F2FS_SUM_TYPE_NODE;
	f2fs_sum_store(&plain, blk, &sum);
	CHECK_EQ_U64(blk[16379], F2FS_SUM_TYPE_NODE);
	f2fs_sum_load(&plain, &back, blk);
	CHECK(!memcmp(&back, &sum, sizeof(sum)));
	CHECK_EQ_U64(f2fs_blkgeo_init_features(&p, 14, F2FS_FEATURE_PACKED_SSA), 0);
	memset(blk, 0xee, sizeof(blk));
	f2fs_sum_store(&p, blk, &sum);
	CHECK_EQ_U64(blk[4091], F2FS_SUM_TYPE_NODE);
	CHECK_EQ_U64(blk[4096], 0xee); /* the next segment's quarter is left alone */
	f2fs_sum_load(&p, &back, blk);
	CHECK(!memcmp(&back, &sum, sizeof(sum)));
}

int main(void)
{
	RUN(test_4k_constants);
	RUN(test_16k_constants);
	RUN(test_other_sizes_refused);
	RUN(test_16k_node_block);
	RUN(test_16k_node_path);
	RUN(test_16k_inode_room);
	RUN(test_16k_dentry_block);
	RUN(test_16k_cp_checksum);
	RUN(test_packed_ssa);
	TEST_EXIT();
}
