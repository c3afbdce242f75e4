// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the on-disk format helpers: structure sizes at run time,
 * the bitmap bit orders, dentry blocks (dir.c), inode extra-attribute sizes
 * and checksums (node.c), checkpoint checksums and nat_bits (checkpoint.c),
 * and the feature table (feature.c), all of lib/format/.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/node.h"
#include "test.h"

static bool all_zero(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/* ---- sizes ---- */

static void test_sizes(void)
{
	CHECK_EQ_U64(sizeof(struct f2fs_super_block), 3072);
	CHECK_EQ_U64(F2FS_SUPER_OFFSET + sizeof(struct f2fs_super_block), F2FS_BLKSIZE);
	CHECK_EQ_U64(sizeof(struct f2fs_checkpoint), F2FS_CP_BITMAP_OFFSET);
	CHECK_EQ_U64(F2FS_CP_MAX_BITMAP_SIZE, 3900);
	CHECK_EQ_U64(F2FS_CP_MAX_SIT_BITMAP_SIZE, 3836);
	CHECK_EQ_U64(sizeof(struct f2fs_orphan_block), F2FS_BLKSIZE);
	CHECK_EQ_U64(sizeof(struct f2fs_nat_entry), 9);
	CHECK_EQ_U64(F2FS_NAT_ENTRY_PER_BLOCK, 455);
	CHECK_EQ_U64(sizeof(struct f2fs_sit_entry), 74);
	CHECK_EQ_U64(F2FS_SIT_ENTRY_PER_BLOCK, 55);
	CHECK(sizeof(struct f2fs_sit_block) <= F2FS_BLKSIZE);
	CHECK_EQ_U64(sizeof(struct f2fs_node), F2FS_BLKSIZE);
	CHECK_EQ_U64(sizeof(struct f2fs_inode), 4072);
	CHECK_EQ_U64(sizeof(struct f2fs_direct_node), F2FS_ADDRS_PER_BLOCK * 4);
	CHECK_EQ_U64(sizeof(struct f2fs_indirect_node), F2FS_NIDS_PER_BLOCK * 4);
	CHECK_EQ_U64(sizeof(struct f2fs_dentry_block), F2FS_BLKSIZE);
	CHECK_EQ_U64(F2FS_DENTRY_BITMAP_SIZE, 27);
	CHECK_EQ_U64(offsetof(struct f2fs_dentry_block, dentry), 30);
	CHECK_EQ_U64(offsetof(struct f2fs_dentry_block, filename), 30 + 214 * 11);
	CHECK_EQ_U64(sizeof(struct f2fs_v2r1_dqblk), 72);
	CHECK_EQ_U64((uint64_t)F2FS_MAX_SEGMENTS * F2FS_SEGMENT_BYTES, (uint64_t)16 << 40);
	CHECK_EQ_U64(F2FS_SEGMENT_BYTES, 2u << 20);
}

static void test_summary_journal_sizes(void)
{
	struct f2fs_summary_block sum;

	CHECK_EQ_U64(F2FS_SUM_ENTRY_SIZE, 3584);
	CHECK_EQ_U64(F2FS_SUM_JOURNAL_SIZE, 507);
	CHECK_EQ_U64(F2FS_SUM_JOURNAL_SIZE + F2FS_SUM_ENTRY_SIZE + F2FS_SUM_FOOTER_SIZE,
		     F2FS_BLKSIZE);
	CHECK_EQ_U64(F2FS_NAT_JOURNAL_ENTRIES, 38);
	CHECK_EQ_U64(F2FS_NAT_JOURNAL_RESERVED, 11);
	CHECK_EQ_U64(F2FS_SIT_JOURNAL_ENTRIES, 6);
	CHECK_EQ_U64(F2FS_SIT_JOURNAL_RESERVED, 37);
	CHECK_EQ_U64(sizeof(struct f2fs_nat_journal_entry), 13);
	CHECK_EQ_U64(sizeof(struct f2fs_sit_journal_entry), 78);
	CHECK_EQ_U64(sizeof(struct f2fs_journal), F2FS_SUM_JOURNAL_SIZE);
	CHECK_EQ_U64(sizeof(sum.journal.nat_j), F2FS_SUM_JOURNAL_SIZE - 2);
	CHECK_EQ_U64(sizeof(sum.journal.sit_j), F2FS_SUM_JOURNAL_SIZE - 2);
	CHECK_EQ_U64(sizeof(struct f2fs_summary_block), F2FS_BLKSIZE);
	CHECK_EQ_U64(offsetof(struct f2fs_summary_block, journal), F2FS_SUM_ENTRY_SIZE);
	CHECK_EQ_U64(offsetof(struct f2fs_summary_block, footer), F2FS_BLKSIZE - 5);
	/* n_nats and n_sits share the first two bytes; entries follow */
	CHECK_EQ_U64(offsetof(struct f2fs_journal, n_nats), 0);
	CHECK_EQ_U64(offsetof(struct f2fs_journal, n_sits), 0);
	CHECK_EQ_U64((size_t)((uint8_t *)&sum.journal.nat_j.entries[0] - (uint8_t *)&sum.journal),
		     2);
	CHECK_EQ_U64((size_t)((uint8_t *)&sum.journal.sit_j.entries[1] - (uint8_t *)&sum.journal),
		     2 + 78);
}

static void test_inode_offsets(void)
{
	CHECK_EQ_U64(offsetof(struct f2fs_inode, i_addr), 360);
	CHECK_EQ_U64(F2FS_EXTRA_ISIZE_OFFSET, 360);
	CHECK_EQ_U64(offsetof(struct f2fs_inode, i_inline_xattr_size), 362);
	CHECK_EQ_U64(offsetof(struct f2fs_inode, i_inode_checksum), 368);
	CHECK_EQ_U64(offsetof(struct f2fs_inode, i_nid), 360 + 4 * F2FS_DEF_ADDRS_PER_INODE);
	CHECK_EQ_U64(offsetof(struct f2fs_node, footer), 4072);
	CHECK_EQ_U64(offsetof(struct f2fs_node_footer, cp_ver), 12);
	CHECK_EQ_U64(F2FS_EXTRA_ATTR_END, 396);
}

/* ---- bit helpers ---- */

static void test_bits_msb(void)
{
	uint8_t map[4] = {0};

	f2fs_set_bit_msb(map, 0);
	CHECK_EQ_U64(map[0], 0x80);
	f2fs_set_bit_msb(map, 7);
	CHECK_EQ_U64(map[0], 0x81);
	f2fs_set_bit_msb(map, 8);
	CHECK_EQ_U64(map[1], 0x80);
	f2fs_set_bit_msb(map, 30);
	CHECK_EQ_U64(map[3], 0x02);
	CHECK(f2fs_test_bit_msb(map, 0));
	CHECK(f2fs_test_bit_msb(map, 7));
	CHECK(f2fs_test_bit_msb(map, 8));
	CHECK(f2fs_test_bit_msb(map, 30));
	CHECK(!f2fs_test_bit_msb(map, 1));
	CHECK(!f2fs_test_bit_msb(map, 9));
	CHECK(!f2fs_test_bit_msb(map, 31));
	CHECK_EQ_U64(f2fs_test_bit_msb(map, 0), 1); /* returns exactly 1 */
	CHECK_EQ_U64(map[2], 0);
}

static void test_bits_lsb(void)
{
	uint8_t map[4] = {0};
	unsigned int i;

	f2fs_set_bit_lsb(map, 0);
	CHECK_EQ_U64(map[0], 0x01);
	f2fs_set_bit_lsb(map, 7);
	CHECK_EQ_U64(map[0], 0x81);
	f2fs_set_bit_lsb(map, 9);
	CHECK_EQ_U64(map[1], 0x02);
	CHECK(f2fs_test_bit_lsb(map, 0));
	CHECK(f2fs_test_bit_lsb(map, 7));
	CHECK(f2fs_test_bit_lsb(map, 9));
	CHECK(!f2fs_test_bit_lsb(map, 8));
	CHECK_EQ_U64(f2fs_test_bit_lsb(map, 9), 1);
	f2fs_clear_bit_lsb(map, 7);
	CHECK_EQ_U64(map[0], 0x01);
	CHECK(!f2fs_test_bit_lsb(map, 7));
	/* set all, clear one */
	memset(map, 0xff, sizeof(map));
	f2fs_clear_bit_lsb(map, 26);
	CHECK_EQ_U64(map[3], 0xfb);
	for (i = 0; i < 32; i++)
		CHECK_EQ_U64(f2fs_test_bit_lsb(map, i), i != 26);
	/* msb and lsb disagree on the same byte */
	memset(map, 0, sizeof(map));
	f2fs_set_bit_lsb(map, 1);
	CHECK(f2fs_test_bit_msb(map, 6));
	CHECK(!f2fs_test_bit_msb(map, 1));
}

/* ---- dentry blocks ---- */

static void test_name_slots(void)
{
	CHECK_EQ_U64(f2fs_name_slots(0), 0);
	CHECK_EQ_U64(f2fs_name_slots(1), 1);
	CHECK_EQ_U64(f2fs_name_slots(7), 1);
	CHECK_EQ_U64(f2fs_name_slots(8), 1);
	CHECK_EQ_U64(f2fs_name_slots(9), 2);
	CHECK_EQ_U64(f2fs_name_slots(16), 2);
	CHECK_EQ_U64(f2fs_name_slots(17), 3);
	CHECK_EQ_U64(f2fs_name_slots(255), 32);
}

static void test_dentry_put_basic(void)
{
	struct f2fs_dentry_block blk;
	unsigned int i;

	memset(&blk, 0, sizeof(blk));
	CHECK_EQ_U64(f2fs_dentry_put(&blk, 0, ".", 1, 3, F2FS_FT_DIR), 0);
	CHECK_EQ_U64(f2fs_dentry_put(&blk, 1, "..", 2, 3, F2FS_FT_DIR), 0);
	CHECK_EQ_U64(f2fs_dentry_put(&blk, 2, "lost+found", 10, 4, F2FS_FT_DIR), 0);
	CHECK_EQ_U64(blk.dentry_bitmap[0], 0x0f);
	for (i = 1; i < F2FS_DENTRY_BITMAP_SIZE; i++)
		CHECK_EQ_U64(blk.dentry_bitmap[i], 0);
	CHECK_EQ_U64(le32_get(blk.dentry[0].hash_code), 0);
	CHECK_EQ_U64(le32_get(blk.dentry[1].hash_code), 0);
	CHECK_EQ_U64(le32_get(blk.dentry[2].hash_code),
		     f2fs_dentry_hash((const unsigned char *)"lost+found", 10));
	CHECK_EQ_U64(le32_get(blk.dentry[2].ino), 4);
	CHECK_EQ_U64(le16_get(blk.dentry[2].name_len), 10);
	CHECK_EQ_U64(blk.dentry[2].file_type, F2FS_FT_DIR);
	CHECK(!memcmp(blk.filename[0], ".", 1));
	CHECK(!memcmp(blk.filename[1], "..", 2));
	/* the name spans slots 2 and 3; the entry of slot 3 is left alone */
	CHECK(!memcmp(blk.filename[2], "lost+fou", 8));
	CHECK(!memcmp(blk.filename[3], "nd", 2));
	CHECK(all_zero(&blk.filename[3][2], 6));
	CHECK(all_zero(&blk.dentry[3], sizeof(blk.dentry[3])));
	CHECK(all_zero(blk.reserved, sizeof(blk.reserved)));
	CHECK(all_zero(&blk.dentry[4], sizeof(blk.dentry[0]) * (F2FS_NR_DENTRY_IN_BLOCK - 4)));
}

static void test_dentry_put_long_name(void)
{
	struct f2fs_dentry_block blk;
	char name[F2FS_NAME_LEN + 1];
	unsigned int i;

	memset(name, 'q', sizeof(name));
	memset(&blk, 0, sizeof(blk));
	/* 255 bytes: 32 slots from slot 100, bits 100..131 */
	CHECK_EQ_U64(f2fs_dentry_put(&blk, 100, name, F2FS_NAME_LEN, 77, F2FS_FT_REG_FILE), 0);
	for (i = 0; i < F2FS_NR_DENTRY_IN_BLOCK; i++)
		CHECK_EQ_U64(f2fs_test_bit_lsb(blk.dentry_bitmap, i), i >= 100 && i < 132);
	CHECK(!memcmp(blk.filename[100], name, F2FS_NAME_LEN));
	CHECK_EQ_U64(blk.filename[131][7], 0);
	CHECK_EQ_U64(le16_get(blk.dentry[100].name_len), F2FS_NAME_LEN);
	CHECK_EQ_U64(blk.dentry[100].file_type, F2FS_FT_REG_FILE);
	/* 256 bytes is too long */
	CHECK_EQ_U64(f2fs_dentry_put(&blk, 0, name, F2FS_NAME_LEN + 1, 78, F2FS_FT_REG_FILE),
		     (uint64_t)-ENOSPC);
}

static void test_dentry_put_end_of_block(void)
{
	struct f2fs_dentry_block blk, before;
	const unsigned int last = F2FS_NR_DENTRY_IN_BLOCK - 1;

	memset(&blk, 0, sizeof(blk));
	/* 8 bytes fit the last slot, 9 do not */
	CHECK_EQ_U64(f2fs_dentry_put(&blk, last, "12345678", 8, 9, F2FS_FT_REG_FILE), 0);
	CHECK(f2fs_test_bit_lsb(blk.dentry_bitmap, last));
	CHECK_EQ_U64(blk.dentry_bitmap[F2FS_DENTRY_BITMAP_SIZE - 1], 0x20); /* bit 213 = 26*8+5 */
	CHECK(!memcmp(blk.filename[last], "12345678", 8));
	memset(&blk, 0, sizeof(blk));
	before = blk;
	CHECK_EQ_U64(f2fs_dentry_put(&blk, last, "123456789", 9, 9, F2FS_FT_REG_FILE),
		     (uint64_t)-ENOSPC);
	CHECK_EQ_U64(f2fs_dentry_put(&blk, last - 1, "12345678901234567", 17, 9, F2FS_FT_REG_FILE),
		     (uint64_t)-ENOSPC);
	CHECK_EQ_U64(f2fs_dentry_put(&blk, F2FS_NR_DENTRY_IN_BLOCK, "a", 1, 9, F2FS_FT_REG_FILE),
		     (uint64_t)-ENOSPC);
	CHECK_EQ_U64(f2fs_dentry_put(&blk, 0, "", 0, 9, F2FS_FT_REG_FILE), (uint64_t)-ENOSPC);
	/* a refused put changes nothing */
	CHECK(!memcmp(&blk, &before, sizeof(blk)));
	/* 16 bytes fit the last two slots */
	CHECK_EQ_U64(f2fs_dentry_put(&blk, last - 1, "1234567890123456", 16, 9, F2FS_FT_REG_FILE),
		     0);
	CHECK(f2fs_test_bit_lsb(blk.dentry_bitmap, last - 1));
	CHECK(f2fs_test_bit_lsb(blk.dentry_bitmap, last));
	CHECK(!memcmp(blk.filename[last - 1], "1234567890123456", 16));
}

/* ---- inodes ---- */

static void test_extra_isize(void)
{
	const uint32_t ea = F2FS_FEATURE_EXTRA_ATTR;

	CHECK_EQ_U64(f2fs_extra_isize_for(0), 0);
	CHECK_EQ_U64(f2fs_extra_isize_for(F2FS_FEATURE_PRJQUOTA), 0);
	CHECK_EQ_U64(f2fs_extra_isize_for(F2FS_FEATURE_INODE_CHKSUM | F2FS_FEATURE_COMPRESSION), 0);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea), 4);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR), 4);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_PRJQUOTA), 8);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_INODE_CHKSUM), 12);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_INODE_CHKSUM),
		     12);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_INODE_CRTIME), 24);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_INODE_CHKSUM |
					  F2FS_FEATURE_INODE_CRTIME),
		     24);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_COMPRESSION), 36);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_INODE_CHKSUM |
					  F2FS_FEATURE_INODE_CRTIME | F2FS_FEATURE_COMPRESSION),
		     36);
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_COMPRESSION) + F2FS_EXTRA_ISIZE_OFFSET,
		     F2FS_EXTRA_ATTR_END);
	/* unrelated features do not grow it */
	CHECK_EQ_U64(f2fs_extra_isize_for(ea | F2FS_FEATURE_LOST_FOUND | F2FS_FEATURE_QUOTA_INO |
					  F2FS_FEATURE_SB_CHKSUM | F2FS_FEATURE_ENCRYPT),
		     4);
}

static void test_inode_first_addr(void)
{
	struct f2fs_node n;

	memset(&n, 0, sizeof(n));
	CHECK_EQ_U64(f2fs_inode_first_addr(&n.i), 0);
	n.i.i_extra_isize = le16_put(36);
	CHECK_EQ_U64(f2fs_inode_first_addr(&n.i), 0); /* no F2FS_EXTRA_ATTR flag */
	n.i.i_inline = F2FS_EXTRA_ATTR;
	CHECK_EQ_U64(f2fs_inode_first_addr(&n.i), 9);
	n.i.i_extra_isize = le16_put(f2fs_extra_isize_for(F2FS_FEATURE_EXTRA_ATTR));
	CHECK_EQ_U64(f2fs_inode_first_addr(&n.i), 1);
}

static void fill_node(struct f2fs_node *n)
{
	uint8_t *raw = (uint8_t *)n;
	size_t i;

	for (i = 0; i < sizeof(*n); i++)
		raw[i] = (uint8_t)(i * 29 + 1);
	n->footer.ino = le32_put(3);
	n->footer.nid = le32_put(3);
	n->i.i_generation = le32_put(0x1234);
}

static void test_inode_chksum(void)
{
	static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	uint32_t seed = f2fs_inode_chksum_seed(uuid), base;
	struct f2fs_node n, m;
	size_t ofs;
	bool all_change = true;

	CHECK_EQ_U64(seed, f2fs_crc32(0xffffffffu, uuid, 16));
	fill_node(&n);
	base = f2fs_inode_chksum(f2fs_blkgeo_4k(), &n, seed);
	CHECK_EQ_U64(f2fs_inode_chksum(f2fs_blkgeo_4k(), &n, seed), base);
	CHECK(f2fs_inode_chksum(f2fs_blkgeo_4k(), &n, seed + 1) != base);

	/* the checksum field itself does not count */
	m = n;
	m.i.i_inode_checksum = le32_put(0xdeadbeef);
	CHECK_EQ_U64(f2fs_inode_chksum(f2fs_blkgeo_4k(), &m, seed), base);
	m.i.i_inode_checksum = 0;
	CHECK_EQ_U64(f2fs_inode_chksum(f2fs_blkgeo_4k(), &m, seed), base);

	/* any other byte does, all the way to the footer */
	for (ofs = 0; ofs < F2FS_BLKSIZE; ofs += 7) {
		if (ofs >= offsetof(struct f2fs_inode, i_inode_checksum) &&
		    ofs < offsetof(struct f2fs_inode, i_inode_checksum) + 4)
			continue;
		m = n;
		((uint8_t *)&m)[ofs] ^= 0x40;
		if (f2fs_inode_chksum(f2fs_blkgeo_4k(), &m, seed) == base) {
			fprintf(stderr, "flipping byte %zu left the inode checksum unchanged\n",
				ofs);
			all_change = false;
		}
	}
	CHECK(all_change);
	m = n;
	((uint8_t *)&m)[F2FS_BLKSIZE - 1] ^= 1;
	CHECK(f2fs_inode_chksum(f2fs_blkgeo_4k(), &m, seed) != base);

	/*
	 * The kernel's definition: crc over ino, generation, then the whole
	 * block with the checksum field taken as zero.
	 */
	{
		uint32_t ino = n.footer.ino, gen = n.i.i_generation, crc;

		m = n;
		m.i.i_inode_checksum = 0;
		crc = f2fs_crc32(seed, &ino, 4);
		crc = f2fs_crc32(crc, &gen, 4);
		crc = f2fs_crc32(crc, &m, F2FS_BLKSIZE);
		CHECK_EQ_U64(base, crc);
	}
}

static void test_inode_seal(void)
{
	static const uint8_t uuid[16] = {0xaa};
	uint32_t seed = f2fs_inode_chksum_seed(uuid);
	struct f2fs_node n;

	fill_node(&n);
	n.i.i_inode_checksum = le32_put(0x11111111);
	f2fs_inode_seal(f2fs_blkgeo_4k(), &n, F2FS_FEATURE_EXTRA_ATTR, seed);
	CHECK_EQ_U64(le32_get(n.i.i_inode_checksum), 0x11111111); /* untouched */
	f2fs_inode_seal(f2fs_blkgeo_4k(), &n, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM,
			seed);
	CHECK_EQ_U64(le32_get(n.i.i_inode_checksum), f2fs_inode_chksum(f2fs_blkgeo_4k(), &n, seed));
	CHECK(le32_get(n.i.i_inode_checksum) != 0x11111111);
}

/* ---- checkpoint ---- */

static void fill_cp(struct f2fs_checkpoint *cp, uint32_t checksum_offset)
{
	uint8_t *raw = (uint8_t *)cp;
	size_t i;

	for (i = 0; i < F2FS_BLKSIZE; i++)
		raw[i] = (uint8_t)(i * 11 + 5);
	cp->checksum_offset = le32_put(checksum_offset);
	cp->checkpoint_ver = le64_put(0x1234567);
}

static uint32_t stored_u32(const void *blk, size_t ofs)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)blk + ofs, sizeof(v));
	return le32_get(v);
}

static void test_cp_crc_default(void)
{
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	uint32_t crc;

	fill_cp(cp, F2FS_CP_CHKSUM_OFFSET);
	crc = f2fs_cp_crc(cp, F2FS_BLKSIZE);
	CHECK_EQ_U64(crc, f2fs_block_crc(buf, F2FS_CP_CHKSUM_OFFSET));
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	CHECK_EQ_U64(stored_u32(buf, F2FS_CP_CHKSUM_OFFSET), crc);
	/* the stored crc does not feed the crc */
	CHECK_EQ_U64(f2fs_cp_crc(cp, F2FS_BLKSIZE), crc);
	buf[100] ^= 1;
	CHECK(f2fs_cp_crc(cp, F2FS_BLKSIZE) != crc);
	buf[100] ^= 1;
	buf[F2FS_CP_CHKSUM_OFFSET - 1] ^= 1;
	CHECK(f2fs_cp_crc(cp, F2FS_BLKSIZE) != crc);
}

/* With the large NAT bitmap the crc sits at 192 and also covers what follows it. */
static void test_cp_crc_large_nat_bitmap(void)
{
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	uint32_t crc, expect;

	fill_cp(cp, F2FS_CP_BITMAP_OFFSET);
	expect = f2fs_block_crc(buf, F2FS_CP_BITMAP_OFFSET);
	expect = f2fs_crc32(expect, buf + F2FS_CP_BITMAP_OFFSET + 4,
			    F2FS_BLKSIZE - F2FS_CP_BITMAP_OFFSET - 4);
	crc = f2fs_cp_crc(cp, F2FS_BLKSIZE);
	CHECK_EQ_U64(crc, expect);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	CHECK_EQ_U64(stored_u32(buf, F2FS_CP_BITMAP_OFFSET), crc);
	CHECK_EQ_U64(f2fs_cp_crc(cp, F2FS_BLKSIZE), crc);
	buf[4000] ^= 1;
	CHECK(f2fs_cp_crc(cp, F2FS_BLKSIZE) != crc);
	buf[4000] ^= 1;
	buf[F2FS_BLKSIZE - 1] ^= 1;
	CHECK(f2fs_cp_crc(cp, F2FS_BLKSIZE) != crc);
}

static void test_nat_bits_helpers(void)
{
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;

	/* one bit per NAT block of one copy */
	CHECK_EQ_U64(f2fs_nat_bits_bytes(2), 1 * 512 / 8);
	CHECK_EQ_U64(f2fs_nat_bits_bytes(4), 2 * 512 / 8);
	CHECK_EQ_U64(f2fs_nat_bits_bytes(82), 41 * 512 / 8);
	/* tag + two bitmaps, rounded up to blocks */
	CHECK_EQ_U64(f2fs_nat_bits_blocks(2, F2FS_BLKSIZE), 1);
	CHECK_EQ_U64(f2fs_nat_bits_blocks(4, F2FS_BLKSIZE), 1);
	CHECK_EQ_U64(f2fs_nat_bits_blocks(62, F2FS_BLKSIZE), 1);  /* 8 + 2 * 1984 = 3976 */
	CHECK_EQ_U64(f2fs_nat_bits_blocks(64, F2FS_BLKSIZE), 2);  /* 8 + 2 * 2048 = 4104 */
	CHECK_EQ_U64(f2fs_nat_bits_blocks(126, F2FS_BLKSIZE), 2); /* 8 + 2 * 4032 = 8072 */
	CHECK_EQ_U64(f2fs_nat_bits_blocks(128, F2FS_BLKSIZE), 3); /* 8 + 2 * 4096 = 8200 */

	fill_cp(cp, F2FS_CP_CHKSUM_OFFSET);
	cp->checkpoint_ver = le64_put(0x168aee29);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_nat_bits_tag(cp),
		     0x168aee29ull | ((uint64_t)stored_u32(buf, F2FS_CP_CHKSUM_OFFSET) << 32));
	fill_cp(cp, F2FS_CP_BITMAP_OFFSET);
	cp->checkpoint_ver = le64_put(7);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_nat_bits_tag(cp),
		     7ull | ((uint64_t)stored_u32(buf, F2FS_CP_BITMAP_OFFSET) << 32));
}

/* ---- features ---- */

static void test_feature_names(void)
{
	CHECK(!strcmp(f2fs_feature_name(F2FS_FEATURE_EXTRA_ATTR), "extra_attr"));
	CHECK(!strcmp(f2fs_feature_name(F2FS_FEATURE_LOST_FOUND), "lost_found"));
	CHECK(!strcmp(f2fs_feature_name(F2FS_FEATURE_PRJQUOTA), "project_quota"));
	CHECK(!strcmp(f2fs_feature_name(F2FS_FEATURE_INODE_CHKSUM), "inode_checksum"));
	CHECK(!strcmp(f2fs_feature_name(F2FS_FEATURE_QUOTA_INO), "quota"));
	CHECK(!strcmp(f2fs_feature_name(F2FS_FEATURE_SB_CHKSUM), "sb_checksum"));
	CHECK(f2fs_feature_name(0) == NULL);
	CHECK(f2fs_feature_name(0x80000000u) == NULL);
}

static void test_feature_parse_ok(void)
{
	char why[128] = "";
	uint32_t f = 0;

	CHECK_EQ_U64(f2fs_feature_parse("extra_attr", &f, why, sizeof(why)), 0);
	CHECK_EQ_U64(f, F2FS_FEATURE_EXTRA_ATTR);
	f = 0;
	CHECK_EQ_U64(
	    f2fs_feature_parse("extra_attr,inode_checksum,sb_checksum", &f, why, sizeof(why)), 0);
	CHECK_EQ_U64(f,
		     F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM | F2FS_FEATURE_SB_CHKSUM);
	/* bits are added to what is there */
	f = F2FS_FEATURE_LOST_FOUND;
	CHECK_EQ_U64(f2fs_feature_parse("quota", &f, why, sizeof(why)), 0);
	CHECK_EQ_U64(f, F2FS_FEATURE_LOST_FOUND | F2FS_FEATURE_QUOTA_INO);
	/* spaces around names and commas */
	f = 0;
	CHECK_EQ_U64(
	    f2fs_feature_parse(" extra_attr , project_quota,  lost_found ", &f, why, sizeof(why)),
	    0);
	CHECK_EQ_U64(f, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_LOST_FOUND);
	f = 0;
	CHECK_EQ_U64(f2fs_feature_parse("encrypt verity", &f, why, sizeof(why)), 0);
	CHECK_EQ_U64(f, F2FS_FEATURE_ENCRYPT | F2FS_FEATURE_VERITY);
	f = 0;
	/* repeated names */
	CHECK_EQ_U64(f2fs_feature_parse("casefold,casefold", &f, why, sizeof(why)), 0);
	CHECK_EQ_U64(f, F2FS_FEATURE_CASEFOLD);
}

static void test_feature_parse_errors(void)
{
	char why[128];
	uint32_t f = 0;

	why[0] = 0;
	CHECK_EQ_U64(f2fs_feature_parse("bogus", &f, why, sizeof(why)), (uint64_t)-EINVAL);
	CHECK(strstr(why, "unknown feature") != NULL);
	CHECK(strstr(why, "bogus") != NULL);
	why[0] = 0;
	CHECK_EQ_U64(f2fs_feature_parse("extra_attr,nope", &f, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK(strstr(why, "unknown feature") != NULL);
	CHECK(strstr(why, "nope") != NULL);
	/* a prefix or extension of a name is not that name */
	why[0] = 0;
	CHECK_EQ_U64(f2fs_feature_parse("extra", &f, why, sizeof(why)), (uint64_t)-EINVAL);
	CHECK(strstr(why, "unknown feature") != NULL);
	CHECK_EQ_U64(f2fs_feature_parse("quotas", &f, why, sizeof(why)), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_feature_parse("EXTRA_ATTR", &f, why, sizeof(why)), (uint64_t)-EINVAL);
	why[0] = 0;
	CHECK_EQ_U64(f2fs_feature_parse("atomic_write", &f, why, sizeof(why)), (uint64_t)-EINVAL);
	CHECK(strstr(why, "not supported yet") != NULL);
	CHECK(strstr(why, "atomic_write") != NULL);
	why[0] = 0;
	CHECK_EQ_U64(f2fs_feature_parse("lost_found,atomic_write", &f, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK(strstr(why, "not supported yet") != NULL);
	/* read-only volumes are made (-O ro) */
	f = 0;
	CHECK_EQ_U64(f2fs_feature_parse("ro", &f, why, sizeof(why)), 0);
	CHECK_EQ_U64(f, F2FS_FEATURE_RO);
	/* empty lists and empty names between, before or after commas */
	{
		static const char *const empty[] = {"",	      "quota,,verity",	",quota",
						    "quota,", "quota, ,verity", " , ,"};
		size_t i;

		for (i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
			why[0] = 0;
			CHECK_EQ_U64(f2fs_feature_parse(empty[i], &f, why, sizeof(why)),
				     (uint64_t)-EINVAL);
			if (!strstr(why, "empty")) {
				fprintf(stderr, "\"%s\": reason \"%s\"\n", empty[i], why);
				CHECK(0);
			}
		}
	}
	/* a tiny reason buffer is truncated, not overrun */
	{
		char tiny[8];

		memset(tiny, 'x', sizeof(tiny));
		CHECK_EQ_U64(f2fs_feature_parse("bogus", &f, tiny, sizeof(tiny)),
			     (uint64_t)-EINVAL);
		CHECK_EQ_U64(strnlen(tiny, sizeof(tiny)), sizeof(tiny) - 1);
	}
}

static void test_feature_check(void)
{
	char why[128];
	const uint32_t ea = F2FS_FEATURE_EXTRA_ATTR;

	why[0] = 0;
	CHECK_EQ_U64(f2fs_feature_check(F2FS_FEATURE_INODE_CHKSUM, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK(strstr(why, "inode_checksum") != NULL);
	CHECK(strstr(why, "extra_attr") != NULL);
	CHECK_EQ_U64(f2fs_feature_check(F2FS_FEATURE_PRJQUOTA, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_feature_check(F2FS_FEATURE_INODE_CRTIME, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_feature_check(F2FS_FEATURE_FLEXIBLE_INLINE_XATTR, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_feature_check(F2FS_FEATURE_COMPRESSION, why, sizeof(why)),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_feature_check(ea | F2FS_FEATURE_INODE_CHKSUM, why, sizeof(why)), 0);
	CHECK_EQ_U64(f2fs_feature_check(ea | F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_INODE_CRTIME |
					    F2FS_FEATURE_COMPRESSION |
					    F2FS_FEATURE_FLEXIBLE_INLINE_XATTR,
					why, sizeof(why)),
		     0);
	CHECK_EQ_U64(f2fs_feature_check(0, why, sizeof(why)), 0);
	CHECK_EQ_U64(f2fs_feature_check(F2FS_FEATURE_LOST_FOUND | F2FS_FEATURE_QUOTA_INO |
					    F2FS_FEATURE_SB_CHKSUM,
					why, sizeof(why)),
		     0);
}

int main(void)
{
	RUN(test_sizes);
	RUN(test_summary_journal_sizes);
	RUN(test_inode_offsets);
	RUN(test_bits_msb);
	RUN(test_bits_lsb);
	RUN(test_name_slots);
	RUN(test_dentry_put_basic);
	RUN(test_dentry_put_long_name);
	RUN(test_dentry_put_end_of_block);
	RUN(test_extra_isize);
	RUN(test_inode_first_addr);
	RUN(test_inode_chksum);
	RUN(test_inode_seal);
	RUN(test_cp_crc_default);
	RUN(test_cp_crc_large_nat_bitmap);
	RUN(test_nat_bits_helpers);
	RUN(test_feature_names);
	RUN(test_feature_parse_ok);
	RUN(test_feature_parse_errors);
	RUN(test_feature_check);
	TEST_EXIT();
}
