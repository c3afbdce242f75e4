// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/mkfs/mkfs.c: format a 64 MiB in-memory device with several
 * feature sets and read the result back block by block: superblocks,
 * checkpoint packs and nat_bits, the root (and lost+found, quota) inodes and
 * their data, the NAT block, the compacted and node summaries, and which
 * areas must read as zeros when the device was not discarded.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/node.h"
#include "fixture.h"
#include "test.h"

#define DEV_BYTES  (64ull << 20)
#define FIXED_TIME FIXTURE_TIME
#define BLK	   F2FS_BLKSIZE
#define SEG	   F2FS_DEFAULT_BLKS_PER_SEG

static const uint8_t test_uuid[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
				      0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};

/* The label the next format() uses, when set. */
static const char *format_label;

static bool read_block(struct fixture *fs, uint64_t blkaddr, void *buf)
{
	bool ok = fixture_read_blk(fs, blkaddr, buf);

	CHECK(ok);
	return ok;
}

static bool all_bytes(const void *buf, size_t len, uint8_t val)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != val)
			return false;
	return true;
}

static bool blocks_are(struct fixture *fs, uint64_t blkaddr, uint64_t count, uint8_t val)
{
	uint8_t buf[BLK];
	uint64_t i;

	for (i = 0; i < count; i++) {
		if (!read_block(fs, blkaddr + i, buf))
			return false;
		if (!all_bytes(buf, BLK, val)) {
			fprintf(stderr, "block %llu is not all 0x%02x\n",
				(unsigned long long)(blkaddr + i), val);
			return false;
		}
	}
	return true;
}

static uint32_t get32(const void *buf, size_t ofs)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)buf + ofs, sizeof(v));
	return le32_get(v);
}

static uint16_t get16(const void *buf, size_t ofs)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)buf + ofs, sizeof(v));
	return le16_get(v);
}

static uint32_t node_addr(const struct fixture *fs, unsigned int ofs)
{
	return f2fs_layout_seg_blkaddr(&fs->l, fs->l.cur_seg[F2FS_CURSEG_HOT_NODE]) + ofs;
}

static uint32_t data_addr(const struct fixture *fs, unsigned int ofs)
{
	return f2fs_layout_seg_blkaddr(&fs->l, fs->l.cur_seg[F2FS_CURSEG_HOT_DATA]) + ofs;
}

/*
 * Format a fresh memory device; with @prefill every byte starts as that
 * value.  Also reads back the superblock and the first checkpoint block.
 */
static bool format(struct fixture *fs, const char *features, bool discard, int prefill)
{
	bool ok;

	fixture_init(fs, DEV_BYTES);
	CHECK_EQ_U64(fs->cfg.geometry.sector_size, 512);
	CHECK(fs->cfg.discard);
	if (!fixture_features(fs, features) || !fixture_open(fs)) {
		CHECK(0);
		return false;
	}
	if (format_label)
		fs->cfg.label = format_label;
	fs->cfg.discard = discard;
	fs->cfg.uuid_given = true;
	memcpy(fs->cfg.uuid, test_uuid, sizeof(test_uuid));

	if (prefill >= 0) {
		uint8_t *chunk = malloc(1u << 20);
		uint64_t off;

		CHECK(chunk != NULL);
		if (!chunk)
			return false;
		memset(chunk, prefill, 1u << 20);
		for (off = 0; off < DEV_BYTES; off += 1u << 20)
			CHECK_EQ_U64(f2fs_dev_write(fs->dev, chunk, off, 1u << 20), 0);
		free(chunk);
	}
	ok = fixture_mkfs(fs);
	CHECK_EQ_U64(fs->ret, 0);
	CHECK(ok);
	return ok;
}

static void unformat(struct fixture *fs)
{
	CHECK_EQ_U64(fixture_free(fs), 0);
}

/* ---- the checks shared by every feature set ---- */

static void check_super(struct fixture *fs)
{
	uint8_t b0[BLK], b1[BLK];
	const struct f2fs_super_block *sb = &fs->sb;
	const struct f2fs_layout *l = &fs->l;

	if (!read_block(fs, 0, b0) || !read_block(fs, 1, b1))
		return;
	CHECK_EQ_U64(get32(b0, F2FS_SUPER_OFFSET), F2FS_SUPER_MAGIC);
	CHECK_EQ_U64(get32(b1, F2FS_SUPER_OFFSET), F2FS_SUPER_MAGIC);
	CHECK(!memcmp(b0, b1, BLK));
	CHECK(all_bytes(b0, F2FS_SUPER_OFFSET, 0));
	CHECK_EQ_U64(le16_get(sb->major_ver), 1);
	CHECK_EQ_U64(le32_get(sb->log_blocksize), 12);
	CHECK_EQ_U64(le64_get(sb->block_count), l->block_count);
	CHECK_EQ_U64(le64_get(sb->block_count), DEV_BYTES / BLK);
	CHECK_EQ_U64(le32_get(sb->segment_count), l->segment_count);
	CHECK_EQ_U64(le32_get(sb->segment_count_main), l->segment_count_main);
	CHECK_EQ_U64(le32_get(sb->cp_blkaddr), l->cp_blkaddr);
	CHECK_EQ_U64(le32_get(sb->main_blkaddr), l->main_blkaddr);
	CHECK_EQ_U64(le32_get(sb->root_ino), 3);
	CHECK_EQ_U64(le32_get(sb->node_ino), 1);
	CHECK_EQ_U64(le32_get(sb->meta_ino), 2);
	CHECK_EQ_U64(le32_get(sb->feature), fs->cfg.features);
	CHECK(!memcmp(sb->uuid, test_uuid, 16));
	CHECK(!memcmp(fs->res.uuid, test_uuid, 16));
	CHECK_EQ_U64(le32_get(sb->extension_count), 36);
	CHECK_EQ_U64(sb->hot_ext_count, 4);
	CHECK(!strcmp((const char *)sb->version, "unit test"));
	CHECK(!strcmp((const char *)sb->init_version, "unit test"));
	if (fs->cfg.features & F2FS_FEATURE_SB_CHKSUM) {
		CHECK_EQ_U64(le32_get(sb->checksum_offset), F2FS_SB_CHKSUM_OFFSET);
		CHECK_EQ_U64(le32_get(sb->crc), f2fs_block_crc(sb, F2FS_SB_CHKSUM_OFFSET));
	} else {
		CHECK_EQ_U64(sb->crc, 0);
	}
}

static void check_pack(struct fixture *fs, uint64_t start, uint64_t version)
{
	uint8_t first[BLK], last[BLK];
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)first;
	uint32_t ofs, blocks;

	if (!read_block(fs, start, first))
		return;
	ofs = le32_get(cp->checksum_offset);
	CHECK_EQ_U64(ofs, F2FS_CP_CHKSUM_OFFSET);
	if (ofs > BLK - 4)
		return;
	CHECK_EQ_U64(get32(first, ofs), f2fs_cp_crc(cp, F2FS_BLKSIZE));
	CHECK_EQ_U64(le64_get(cp->checkpoint_ver), version);
	blocks = le32_get(cp->cp_pack_total_block_count);
	CHECK_EQ_U64(blocks, 6 + fs->l.cp_payload);
	if (blocks < 2 || blocks > SEG)
		return;
	if (!read_block(fs, start + blocks - 1, last))
		return;
	CHECK(!memcmp(first, last, BLK));
}

static void check_checkpoint(struct fixture *fs, unsigned int nodes, unsigned int data,
			     uint32_t next_nid)
{
	const struct f2fs_checkpoint *cp = &fs->cp;
	const struct f2fs_layout *l = &fs->l;
	uint32_t flags = le32_get(cp->ckpt_flags);
	uint32_t want = CP_UMOUNT_FLAG | CP_COMPACT_SUM_FLAG | CP_NAT_BITS_FLAG;
	int i;

	if (fs->cfg.discard)
		want |= CP_TRIMMED_FLAG;
	CHECK_EQ_U64(flags & want, want);
	if (!fs->cfg.discard)
		CHECK(!(flags & CP_TRIMMED_FLAG));
	CHECK(!(flags & (CP_ERROR_FLAG | CP_FSCK_FLAG | CP_ORPHAN_PRESENT_FLAG)));
	CHECK_EQ_U64(fs->res.discarded, fs->cfg.discard);
	CHECK_EQ_U64(fs->res.cp_version, 1);
	check_pack(fs, l->cp_blkaddr, 1);
	check_pack(fs, l->cp_blkaddr + SEG, 0);

	CHECK_EQ_U64(le32_get(cp->cp_pack_start_sum), 1 + l->cp_payload);
	CHECK_EQ_U64(le64_get(cp->user_block_count), l->user_block_count);
	CHECK_EQ_U64(le32_get(cp->rsvd_segment_count), l->reserved_segments);
	CHECK_EQ_U64(le32_get(cp->overprov_segment_count), l->overprov_segments);
	CHECK_EQ_U64(le32_get(cp->free_segment_count), l->free_segments);
	CHECK_EQ_U64(le32_get(cp->cur_node_segno[0]), l->cur_seg[F2FS_CURSEG_HOT_NODE]);
	CHECK_EQ_U64(le32_get(cp->cur_node_segno[1]), l->cur_seg[F2FS_CURSEG_WARM_NODE]);
	CHECK_EQ_U64(le32_get(cp->cur_node_segno[2]), l->cur_seg[F2FS_CURSEG_COLD_NODE]);
	CHECK_EQ_U64(le32_get(cp->cur_data_segno[0]), l->cur_seg[F2FS_CURSEG_HOT_DATA]);
	CHECK_EQ_U64(le32_get(cp->cur_data_segno[1]), l->cur_seg[F2FS_CURSEG_WARM_DATA]);
	CHECK_EQ_U64(le32_get(cp->cur_data_segno[2]), l->cur_seg[F2FS_CURSEG_COLD_DATA]);
	for (i = 3; i < F2FS_MAX_ACTIVE_NODE_LOGS; i++) {
		CHECK_EQ_U64(le32_get(cp->cur_node_segno[i]), F2FS_NULL_SEGNO);
		CHECK_EQ_U64(le32_get(cp->cur_data_segno[i]), F2FS_NULL_SEGNO);
	}
	CHECK_EQ_U64(le16_get(cp->cur_node_blkoff[0]), nodes);
	CHECK_EQ_U64(le16_get(cp->cur_data_blkoff[0]), data);
	CHECK_EQ_U64(le16_get(cp->cur_node_blkoff[1]), 0);
	CHECK_EQ_U64(le16_get(cp->cur_data_blkoff[1]), 0);
	CHECK_EQ_U64(le64_get(cp->valid_block_count), nodes + data);
	CHECK_EQ_U64(le32_get(cp->valid_node_count), nodes);
	CHECK_EQ_U64(le32_get(cp->valid_inode_count), nodes);
	CHECK_EQ_U64(le32_get(cp->next_free_nid), next_nid);
	CHECK_EQ_U64(le32_get(cp->sit_ver_bitmap_bytesize), l->sit_bitmap_bytes);
	CHECK_EQ_U64(le32_get(cp->nat_ver_bitmap_bytesize), l->nat_bitmap_bytes);
}

/* The nat_bits trailer at the end of the first pack's segment. */
static void check_nat_bits(struct fixture *fs)
{
	uint32_t blocks = f2fs_nat_bits_blocks(fs->l.segment_count_nat, F2FS_BLKSIZE);
	uint32_t bytes = f2fs_nat_bits_bytes(fs->l.segment_count_nat), i;
	uint8_t *buf = malloc((size_t)blocks * BLK);
	const uint8_t *full, *empty;
	uint64_t tag;

	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK_EQ_U64(f2fs_dev_read(fs->dev, buf, ((uint64_t)fs->l.cp_blkaddr + SEG - blocks) * BLK,
				   (size_t)blocks * BLK),
		     0);
	memcpy(&tag, buf, sizeof(tag));
	CHECK_EQ_U64(le64_get(tag), f2fs_nat_bits_tag(&fs->cp));
	CHECK_EQ_U64(le64_get(tag) & 0xffffffffu, 1); /* the version */
	full = buf + 8;
	empty = full + bytes;
	CHECK(all_bytes(full, bytes, 0));
	CHECK(!f2fs_test_bit_lsb(empty, 0));
	for (i = 1; i < bytes * 8; i++)
		if (!f2fs_test_bit_lsb(empty, i)) {
			fprintf(stderr, "NAT block %u not marked empty\n", i);
			CHECK(0);
			break;
		}
	free(buf);
}

static bool read_node(struct fixture *fs, unsigned int ofs, struct f2fs_node *n)
{
	return read_block(fs, node_addr(fs, ofs), n);
}

static void check_inode_common(struct fixture *fs, const struct f2fs_node *n, uint32_t ino,
			       unsigned int node_ofs)
{
	const struct f2fs_inode *ri = &n->i;
	uint32_t features = fs->cfg.features;

	CHECK_EQ_U64(le32_get(n->footer.nid), ino);
	CHECK_EQ_U64(le32_get(n->footer.ino), ino);
	/* written by the first checkpoint, with the version before it (as the kernel does) */
	CHECK_EQ_U64(le64_get(n->footer.cp_ver), le64_get(fs->cp.checkpoint_ver) - 1);
	CHECK_EQ_U64(le32_get(n->footer.next_blkaddr), node_addr(fs, node_ofs + 1));
	CHECK_EQ_U64(le64_get(ri->i_atime), FIXED_TIME);
	CHECK_EQ_U64(le64_get(ri->i_ctime), FIXED_TIME);
	CHECK_EQ_U64(le64_get(ri->i_mtime), FIXED_TIME);
	CHECK_EQ_U64(le32_get(ri->i_uid), 0);
	CHECK_EQ_U64(le32_get(ri->i_gid), 0);
	if (features & F2FS_FEATURE_EXTRA_ATTR) {
		CHECK(ri->i_inline & F2FS_EXTRA_ATTR);
		CHECK_EQ_U64(le16_get(ri->i_extra_isize), f2fs_extra_isize_for(features));
	} else {
		CHECK(!(ri->i_inline & F2FS_EXTRA_ATTR));
	}
	if (features & F2FS_FEATURE_INODE_CHKSUM) {
		uint32_t seed = f2fs_inode_chksum_seed(fs->sb.uuid);

		CHECK_EQ_U64(le32_get(ri->i_inode_checksum),
			     f2fs_inode_chksum(f2fs_blkgeo_4k(), n, seed));
		CHECK(ri->i_inode_checksum != 0);
	}
}

static void check_dir_inode(struct fixture *fs, unsigned int node_ofs, uint32_t ino, uint16_t mode,
			    uint32_t links, unsigned int data_ofs)
{
	struct f2fs_node n;
	const struct f2fs_inode *ri = &n.i;

	if (!read_node(fs, node_ofs, &n))
		return;
	check_inode_common(fs, &n, ino, node_ofs);
	CHECK_EQ_U64(le16_get(ri->i_mode), mode);
	CHECK_EQ_U64(le32_get(ri->i_links), links);
	CHECK_EQ_U64(le64_get(ri->i_size), BLK);
	CHECK_EQ_U64(le64_get(ri->i_blocks), 2);
	CHECK_EQ_U64(le32_get(ri->i_current_depth), 1);
	CHECK_EQ_U64(le32_get(ri->i_addr[f2fs_inode_first_addr(ri)]), data_addr(fs, data_ofs));
	CHECK_EQ_U64(le32_get(ri->i_addr[f2fs_inode_first_addr(ri) + 1]), 0);
}

static void check_dot_entries(const struct f2fs_dentry_block *d, uint32_t self, uint32_t parent)
{
	CHECK(f2fs_test_bit_lsb(d->dentry_bitmap, 0));
	CHECK(f2fs_test_bit_lsb(d->dentry_bitmap, 1));
	CHECK_EQ_U64(le32_get(d->dentry[0].ino), self);
	CHECK_EQ_U64(le32_get(d->dentry[0].hash_code), 0);
	CHECK_EQ_U64(le16_get(d->dentry[0].name_len), 1);
	CHECK_EQ_U64(d->dentry[0].file_type, F2FS_FT_DIR);
	CHECK(!memcmp(d->filename[0], ".", 1));
	CHECK_EQ_U64(le32_get(d->dentry[1].ino), parent);
	CHECK_EQ_U64(le32_get(d->dentry[1].hash_code), 0);
	CHECK_EQ_U64(le16_get(d->dentry[1].name_len), 2);
	CHECK_EQ_U64(d->dentry[1].file_type, F2FS_FT_DIR);
	CHECK(!memcmp(d->filename[1], "..", 2));
}

static void check_root(struct fixture *fs)
{
	uint32_t lpf = fs->res.lost_found_ino;
	struct f2fs_dentry_block d;
	unsigned int i;

	check_dir_inode(fs, 0, 3, 0x41ed, lpf ? 3 : 2, 0);
	if (!read_block(fs, data_addr(fs, 0), &d))
		return;
	check_dot_entries(&d, 3, 3);
	if (lpf) {
		const char *name = "lost+found";

		CHECK_EQ_U64(d.dentry_bitmap[0], 0x0f);
		CHECK_EQ_U64(le32_get(d.dentry[2].ino), lpf);
		CHECK_EQ_U64(le16_get(d.dentry[2].name_len), 10);
		CHECK_EQ_U64(d.dentry[2].file_type, F2FS_FT_DIR);
		CHECK_EQ_U64(le32_get(d.dentry[2].hash_code),
			     f2fs_dentry_hash((const unsigned char *)name, 10));
		CHECK_EQ_U64(le32_get(d.dentry[2].hash_code), 0x2dbf9e80u); /* upstream's value */
		CHECK(!memcmp(d.filename[2], name, 10));
	} else {
		CHECK_EQ_U64(d.dentry_bitmap[0], 0x03);
	}
	for (i = 1; i < F2FS_DENTRY_BITMAP_SIZE; i++)
		CHECK_EQ_U64(d.dentry_bitmap[i], 0);
}

static void check_lost_found(struct fixture *fs, uint32_t ino, unsigned int node_ofs,
			     unsigned int data_ofs)
{
	struct f2fs_node n;
	struct f2fs_dentry_block d;

	CHECK_EQ_U64(fs->res.lost_found_ino, ino);
	check_dir_inode(fs, node_ofs, ino, 0x41c0, 2, data_ofs);
	if (!read_node(fs, node_ofs, &n))
		return;
	CHECK_EQ_U64(le32_get(n.i.i_pino), 3);
	CHECK_EQ_U64(le32_get(n.i.i_namelen), 10);
	CHECK(!memcmp(n.i.i_name, "lost+found", 10));
	if (!read_block(fs, data_addr(fs, data_ofs), &d))
		return;
	check_dot_entries(&d, ino, 3);
	CHECK_EQ_U64(d.dentry_bitmap[0], 0x03);
}

/* Which copy holds NAT block 0: its bit in the checkpoint's NAT version bitmap. */
static int nat_copy0(struct fixture *fs)
{
	size_t ofs =
	    le32_get(fs->cp.ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG ? F2FS_CP_BITMAP_OFFSET + 4
	    : fs->l.cp_payload					   ? F2FS_CP_BITMAP_OFFSET
			       : F2FS_CP_BITMAP_OFFSET + le32_get(fs->cp.sit_ver_bitmap_bytesize);

	return f2fs_test_bit_msb(fs->cp_blk + ofs, 0);
}

/* NAT block 0 maps the node and meta inodes to block 1, and nothing wrongly. */
static void check_nat(struct fixture *fs, const uint32_t *inos, const unsigned int *node_ofs,
		      unsigned int n)
{
	struct f2fs_nat_block nat;
	uint8_t raw[BLK];
	unsigned int i, k;

	/* the copy of NAT block 0 the checkpoint's version bitmap selects */
	if (!read_block(fs, f2fs_nat_block_addr(&fs->sb, 0, nat_copy0(fs)), raw))
		return;
	memcpy(&nat, raw, sizeof(nat));
	CHECK_EQ_U64(le32_get(nat.entries[1].block_addr), 1);
	CHECK_EQ_U64(le32_get(nat.entries[2].block_addr), 1);
	/* the unmount checkpoint (with nat_bits) put every entry in the block */
	CHECK_EQ_U64(le32_get(nat.entries[3].ino), 3);
	CHECK_EQ_U64(le32_get(nat.entries[3].block_addr), node_addr(fs, 0));
	for (k = 0; k < n; k++) {
		const struct f2fs_nat_entry *e = &nat.entries[inos[k]];

		CHECK_EQ_U64(le32_get(e->ino), inos[k]);
		CHECK_EQ_U64(le32_get(e->block_addr), node_addr(fs, node_ofs[k]));
		CHECK_EQ_U64(e->version, 0);
	}
	/* nothing else */
	CHECK(all_bytes(&nat.entries[0], sizeof(nat.entries[0]), 0));
	for (i = 4; i < F2FS_NAT_ENTRY_PER_BLOCK; i++) {
		bool used = false;

		for (k = 0; k < n; k++)
			used |= inos[k] == i;
		if (!used && !all_bytes(&nat.entries[i], sizeof(nat.entries[i]), 0)) {
			fprintf(stderr, "NAT entry %u is set\n", i);
			CHECK(0);
		}
	}
}

/* The SIT journal entry of segment @segno in @sit (the first one when none). */
static const uint8_t *sit_entry_of(const uint8_t *sit, uint32_t segno)
{
	unsigned int i;

	for (i = 0; i < get16(sit, 0) && i < F2FS_SIT_JOURNAL_ENTRIES; i++) {
		const uint8_t *e = sit + 2 + (size_t)i * sizeof(struct f2fs_sit_journal_entry);

		if (get32(e, 0) == segno)
			return e;
	}
	return sit + 2;
}

/* The compacted data summary and the three node summary blocks. */
static void check_summaries(struct fixture *fs, const uint32_t *inos, const unsigned int *node_ofs,
			    unsigned int n, unsigned int nodes, unsigned int data)
{
	static const int sit_order[F2FS_NR_CURSEG_TYPE] = {
	    F2FS_CURSEG_HOT_NODE, F2FS_CURSEG_WARM_NODE, F2FS_CURSEG_COLD_NODE,
	    F2FS_CURSEG_HOT_DATA, F2FS_CURSEG_WARM_DATA, F2FS_CURSEG_COLD_DATA,
	};
	uint64_t sum_blk = (uint64_t)fs->l.cp_blkaddr + le32_get(fs->cp.cp_pack_start_sum);
	uint8_t blk[BLK];
	const uint8_t *sit;
	struct f2fs_summary_block node_sum;
	unsigned int i, b;

	if (!read_block(fs, fs->l.cp_blkaddr + 1 + fs->l.cp_payload, blk))
		return;
	CHECK_EQ_U64(sum_blk, fs->l.cp_blkaddr + 1 + fs->l.cp_payload);
	/* NAT journal: empty, as the kernel leaves it at unmount with nat_bits (check_nat) */
	CHECK_EQ_U64(get16(blk, 0), 0);
	/* SIT journal: six entries, one per open log, in segment order */
	sit = blk + F2FS_SUM_JOURNAL_SIZE;
	CHECK_EQ_U64(get16(sit, 0), 6);
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		const uint8_t *e = sit_entry_of(sit, fs->l.cur_seg[sit_order[i]]);
		int log = sit_order[i];
		unsigned int valid = log == F2FS_CURSEG_HOT_NODE   ? nodes
				     : log == F2FS_CURSEG_HOT_DATA ? data
								   : 0;
		uint16_t vblocks = get16(e, 4);

		CHECK_EQ_U64(get32(e, 0), fs->l.cur_seg[log]);
		CHECK_EQ_U64(vblocks >> F2FS_SIT_VBLOCKS_SHIFT, (unsigned int)log);
		CHECK_EQ_U64(vblocks & F2FS_SIT_VBLOCKS_MASK, valid);
		for (b = 0; b < SEG; b++)
			if (f2fs_test_bit_msb(e + 6, b) != (b < valid)) {
				fprintf(stderr, "log %d: valid bit %u wrong\n", log, b);
				CHECK(0);
				break;
			}
	}
	/* hot data summaries: root's dentry block first */
	CHECK_EQ_U64(get32(blk, 2 * F2FS_SUM_JOURNAL_SIZE), 3);
	CHECK_EQ_U64(get16(blk, 2 * F2FS_SUM_JOURNAL_SIZE + 5), 0);

	/* node summaries: hot, warm, cold */
	for (i = 0; i < 3; i++) {
		if (!read_block(fs, sum_blk + 1 + i, &node_sum))
			return;
		CHECK_EQ_U64(node_sum.footer.entry_type, F2FS_SUM_TYPE_NODE);
		if (i == 0) {
			CHECK_EQ_U64(le32_get(node_sum.entries[0].nid), 3);
			for (b = 0; b < n; b++)
				CHECK_EQ_U64(le32_get(node_sum.entries[node_ofs[b]].nid), inos[b]);
			CHECK(all_bytes(&node_sum.entries[nodes],
					sizeof(node_sum.entries[0]) * (SEG - nodes), 0));
		} else {
			CHECK(all_bytes(&node_sum, sizeof(node_sum.entries), 0));
		}
	}
}

/* ---- cases ---- */

static void test_mkfs_default(void)
{
	struct fixture fs;

	if (!format(&fs, NULL, true, -1)) {
		if (fs.dev)
			unformat(&fs);
		return;
	}
	CHECK_EQ_U64(fs.res.lost_found_ino, 0);
	CHECK_EQ_U64(fs.res.quota_ino[0], 0);
	check_super(&fs);
	check_checkpoint(&fs, 1, 1, 4);
	check_nat_bits(&fs);
	check_root(&fs);
	check_nat(&fs, NULL, NULL, 0);
	check_summaries(&fs, NULL, NULL, 0, 1, 1);
	/* the warm node log starts empty; SIT copy 0 is all zero */
	CHECK(blocks_are(&fs, f2fs_layout_seg_blkaddr(&fs.l, fs.l.cur_seg[F2FS_CURSEG_WARM_NODE]),
			 1, 0));
	CHECK(blocks_are(&fs, fs.l.sit_blkaddr, 4, 0));
	unformat(&fs);
}

/* Upstream 1.15 with -O lost_found: 2 nodes, 2 data blocks, next free nid 5. */
static void test_mkfs_lost_found(void)
{
	static const uint32_t inos[] = {4};
	static const unsigned int node_ofs[] = {1};
	struct fixture fs;

	if (!format(&fs, "lost_found", true, -1)) {
		if (fs.dev)
			unformat(&fs);
		return;
	}
	check_super(&fs);
	check_checkpoint(&fs, 2, 2, 5);
	check_nat_bits(&fs);
	check_root(&fs);
	check_lost_found(&fs, 4, 1, 1);
	check_nat(&fs, inos, node_ofs, 1);
	check_summaries(&fs, inos, node_ofs, 1, 2, 2);
	unformat(&fs);
}

static void test_mkfs_inode_checksum(void)
{
	static const uint32_t inos[] = {4};
	static const unsigned int node_ofs[] = {1};
	struct fixture fs;
	struct f2fs_node n;

	if (!format(&fs, "extra_attr,inode_checksum,sb_checksum,lost_found", true, -1)) {
		if (fs.dev)
			unformat(&fs);
		return;
	}
	check_super(&fs);
	check_checkpoint(&fs, 2, 2, 5);
	check_root(&fs);
	check_lost_found(&fs, 4, 1, 1);
	check_nat(&fs, inos, node_ofs, 1);
	if (read_node(&fs, 0, &n)) {
		uint32_t seed = f2fs_inode_chksum_seed(fs.sb.uuid);

		CHECK_EQ_U64(le16_get(n.i.i_extra_isize), 12);
		CHECK_EQ_U64(f2fs_inode_first_addr(&n.i), 3);
		CHECK_EQ_U64(le32_get(n.i.i_inode_checksum),
			     f2fs_inode_chksum(f2fs_blkgeo_4k(), &n, seed));
		/* a flipped bit breaks it */
		n.i.i_links ^= le32_put(1);
		CHECK(le32_get(n.i.i_inode_checksum) !=
		      f2fs_inode_chksum(f2fs_blkgeo_4k(), &n, seed));
	}
	unformat(&fs);
}

/* Every non-zero 32-bit word of a quota file upstream 1.15 writes; the rest is zero. */
struct qword {
	uint32_t ofs, val;
};

static void check_quota_file(struct fixture *fs, unsigned int k, uint32_t ino, uint32_t magic,
			     unsigned int dirs)
{
	const struct qword words[] = {
	    {0, magic}, {4, 1},	      {8, 604800},	  {12, 604800}, {20, 6},
	    {28, 5},	{1024, 2},    {2048, 3},	  {3072, 4},	{4096, 5},
	    {5128, 1},	{5160, dirs}, {5184, dirs * BLK},
	};
	unsigned int data_ofs = 1 + 2 * k, i;
	struct f2fs_node n;
	uint8_t file[2 * BLK];
	const struct f2fs_inode *ri = &n.i;
	unsigned int first;

	if (!read_node(fs, 1 + k, &n))
		return;
	check_inode_common(fs, &n, ino, 1 + k);
	first = f2fs_inode_first_addr(ri);
	CHECK_EQ_U64(le16_get(ri->i_mode), 0x8180);
	CHECK_EQ_U64(le32_get(ri->i_links), 1);
	CHECK_EQ_U64(le64_get(ri->i_size), 6144);
	CHECK_EQ_U64(le64_get(ri->i_blocks), 3);
	CHECK_EQ_U64(le32_get(ri->i_flags), 0x10); /* immutable */
	CHECK_EQ_U64(le32_get(ri->i_addr[first]), data_addr(fs, data_ofs));
	CHECK_EQ_U64(le32_get(ri->i_addr[first + 1]), data_addr(fs, data_ofs + 1));
	CHECK_EQ_U64(le32_get(ri->i_addr[first + 2]), 0);
	if (!read_block(fs, data_addr(fs, data_ofs), file) ||
	    !read_block(fs, data_addr(fs, data_ofs + 1), file + BLK))
		return;
	CHECK_EQ_U64(get32(file, 0), magic);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		CHECK_EQ_U64(get32(file, words[i].ofs), words[i].val);
		memset(file + words[i].ofs, 0, 4);
	}
	CHECK(all_bytes(file, sizeof(file), 0));
}

static void test_mkfs_quota(void)
{
	static const uint32_t inos[] = {4, 5};
	static const unsigned int node_ofs[] = {1, 2};
	struct fixture fs;

	if (!format(&fs, "quota", true, -1)) {
		if (fs.dev)
			unformat(&fs);
		return;
	}
	CHECK_EQ_U64(fs.res.quota_ino[0], 4);
	CHECK_EQ_U64(fs.res.quota_ino[1], 5);
	CHECK_EQ_U64(fs.res.quota_ino[2], 0);
	CHECK_EQ_U64(le32_get(fs.sb.qf_ino[0]), 4);
	CHECK_EQ_U64(le32_get(fs.sb.qf_ino[1]), 5);
	CHECK_EQ_U64(le32_get(fs.sb.qf_ino[2]), 0);
	check_super(&fs);
	check_checkpoint(&fs, 3, 5, 6);
	check_root(&fs);
	check_quota_file(&fs, 0, 4, F2FS_QUOTA_USR_MAGIC, 1);
	check_quota_file(&fs, 1, 5, F2FS_QUOTA_GRP_MAGIC, 1);
	check_nat(&fs, inos, node_ofs, 2);
	check_summaries(&fs, inos, node_ofs, 2, 3, 5);
	unformat(&fs);
}

/*
 * The feature set of the upstream image the quota words were read from:
 * mkfs.f2fs -O extra_attr,project_quota,quota,lost_found on 1 GiB gave
 * inodes 4, 5, 6 (quota) and 7 (lost+found), 5 nodes, 8 data blocks,
 * next free nid 8.
 */
static void test_mkfs_project_quota(void)
{
	static const uint32_t inos[] = {4, 5, 6, 7};
	static const unsigned int node_ofs[] = {1, 2, 3, 4};
	struct fixture fs;

	if (!format(&fs, "extra_attr,project_quota,quota,lost_found", true, -1)) {
		if (fs.dev)
			unformat(&fs);
		return;
	}
	CHECK_EQ_U64(fs.res.quota_ino[0], 4);
	CHECK_EQ_U64(fs.res.quota_ino[1], 5);
	CHECK_EQ_U64(fs.res.quota_ino[2], 6);
	CHECK_EQ_U64(le32_get(fs.sb.qf_ino[2]), 6);
	check_super(&fs);
	check_checkpoint(&fs, 5, 8, 8);
	check_root(&fs);
	check_quota_file(&fs, 0, 4, F2FS_QUOTA_USR_MAGIC, 2);
	check_quota_file(&fs, 1, 5, F2FS_QUOTA_GRP_MAGIC, 2);
	check_quota_file(&fs, 2, 6, F2FS_QUOTA_PRJ_MAGIC, 2);
	check_lost_found(&fs, 7, 4, 7);
	check_nat(&fs, inos, node_ofs, 4);
	check_summaries(&fs, inos, node_ofs, 4, 5, 8);
	unformat(&fs);
}

/* Without a discard, what the kernel reads as empty is zeroed explicitly. */
static void test_mkfs_no_discard(void)
{
	struct fixture fs;
	const struct f2fs_layout *l = &fs.l;
	uint32_t seg, nat_segs;
	uint8_t blk[BLK];

	if (!format(&fs, "lost_found", false, 0xAA)) {
		if (fs.dev)
			unformat(&fs);
		return;
	}
	CHECK(!fs.res.discarded);
	check_super(&fs);
	check_checkpoint(&fs, 2, 2, 5);
	check_nat_bits(&fs);
	check_root(&fs);
	/* SIT copy 0 */
	CHECK(blocks_are(&fs, l->sit_blkaddr, (uint64_t)l->segment_count_sit / 2 * SEG, 0));
	/* NAT copy 0: its segments alternate with copy 1; block 0 holds the entries */
	nat_segs = l->segment_count_nat / 2;
	for (seg = 0; seg < nat_segs; seg++) {
		uint64_t start = l->nat_blkaddr + (uint64_t)seg * 2 * SEG;

		if (seg == 0)
			CHECK(blocks_are(&fs, start + 1, SEG - 1, 0));
		else
			CHECK(blocks_are(&fs, start, SEG, 0));
	}
	{
		static const uint32_t inos[] = {4};
		static const unsigned int node_ofs[] = {1};

		check_nat(&fs, inos, node_ofs, 1);
	}
	/* the warm node log's first block */
	CHECK(blocks_are(&fs, f2fs_layout_seg_blkaddr(l, l->cur_seg[F2FS_CURSEG_WARM_NODE]), 1, 0));
	/* block 0 around the superblock */
	if (read_block(&fs, 0, blk)) {
		CHECK(all_bytes(blk, F2FS_SUPER_OFFSET, 0));
		CHECK(all_bytes(blk + F2FS_SUPER_OFFSET + sizeof(struct f2fs_super_block),
				BLK - F2FS_SUPER_OFFSET - sizeof(struct f2fs_super_block), 0));
	}
	/* the prefill really was there: the spare copies and far main blocks keep it */
	CHECK(blocks_are(&fs, l->sit_blkaddr + (uint64_t)l->segment_count_sit / 2 * SEG, 1, 0xAA));
	CHECK(blocks_are(&fs, l->nat_blkaddr + SEG + 1, 1, 0xAA)); /* block 1 of copy 1 */
	CHECK(blocks_are(&fs, l->block_count - 1, 1, 0xAA));
	unformat(&fs);
}

/* Two formats with the same fixed inputs write the same bytes. */
static void test_mkfs_reproducible(void)
{
	struct fixture a, b;
	uint8_t *ba, *bb;
	bool same = true;
	uint64_t off;

	if (!format(&a, "extra_attr,inode_checksum,lost_found,quota", true, -1)) {
		if (a.dev)
			unformat(&a);
		return;
	}
	if (!format(&b, "extra_attr,inode_checksum,lost_found,quota", true, -1)) {
		unformat(&a);
		if (b.dev)
			unformat(&b);
		return;
	}
	ba = malloc(1u << 20);
	bb = malloc(1u << 20);
	CHECK(ba && bb);
	for (off = 0; ba && bb && off < DEV_BYTES && same; off += 1u << 20) {
		CHECK_EQ_U64(f2fs_dev_read(a.dev, ba, off, 1u << 20), 0);
		CHECK_EQ_U64(f2fs_dev_read(b.dev, bb, off, 1u << 20), 0);
		if (memcmp(ba, bb, 1u << 20)) {
			fprintf(stderr, "images differ in MiB %llu\n",
				(unsigned long long)(off >> 20));
			same = false;
		}
	}
	CHECK(same);
	free(ba);
	free(bb);
	unformat(&a);
	unformat(&b);
}

/* A bad label is refused before anything is written. */
static void test_mkfs_bad_label(void)
{
	struct f2fs_mkfs_config cfg;
	struct f2fs_mkfs_result res;
	struct f2fs_layout l;
	struct f2fs_device *dev = NULL;
	uint8_t blk[BLK];

	f2fs_mkfs_config_init(&cfg);
	cfg.geometry.total_sectors = DEV_BYTES / 512;
	CHECK_EQ_U64(f2fs_layout_compute(&cfg.geometry, &l, NULL, 0), 0);
	cfg.label = "\xff\xfe";
	cfg.fixed_cp_version = true;
	cfg.fixed_time = FIXED_TIME;
	CHECK_EQ_U64(f2fs_dev_open_memory(DEV_BYTES, &dev), 0);
	if (!dev)
		return;
	CHECK_EQ_U64(f2fs_mkfs_format(dev, &cfg, &l, &res), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_read(dev, blk, 0, BLK), 0);
	CHECK(all_bytes(blk, BLK, 0));
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
}

/* The label goes into the superblock as UTF-16LE. */
static void test_mkfs_label(void)
{
	struct fixture fs;
	static const uint16_t want[] = {'n', 'g', ' ', 0x00e9, 0xd83d, 0xde00};
	unsigned int i;

	format_label = "ng \xc3\xa9\xf0\x9f\x98\x80";
	if (!format(&fs, NULL, true, -1)) {
		format_label = NULL;
		if (fs.dev)
			unformat(&fs);
		return;
	}
	format_label = NULL;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_EQ_U64(le16_get(fs.sb.volume_name[i]), want[i]);
	for (; i < F2FS_MAX_VOLUME_NAME; i++)
		CHECK_EQ_U64(fs.sb.volume_name[i], 0);
	check_super(&fs);
	unformat(&fs);
}

static void test_quota_types(void)
{
	unsigned int t[F2FS_MAX_QUOTAS];

	CHECK_EQ_U64(f2fs_mkfs_quota_types(0, t), 0);
	CHECK_EQ_U64(f2fs_mkfs_quota_types(F2FS_FEATURE_LOST_FOUND, t), 0);
	CHECK_EQ_U64(f2fs_mkfs_quota_types(F2FS_FEATURE_QUOTA_INO, t), 2);
	CHECK_EQ_U64(t[0], 0);
	CHECK_EQ_U64(t[1], 1);
	CHECK_EQ_U64(f2fs_mkfs_quota_types(F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_PRJQUOTA, t), 3);
	CHECK_EQ_U64(t[2], 2);
}

int main(void)
{
	RUN(test_quota_types);
	RUN(test_mkfs_default);
	RUN(test_mkfs_lost_found);
	RUN(test_mkfs_inode_checksum);
	RUN(test_mkfs_quota);
	RUN(test_mkfs_project_quota);
	RUN(test_mkfs_no_discard);
	RUN(test_mkfs_reproducible);
	RUN(test_mkfs_bad_label);
	RUN(test_mkfs_label);
	TEST_EXIT();
}
