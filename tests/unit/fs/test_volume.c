// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/fs/volume.c, through f2fs_fs_open(): format a 64 MiB
 * memory device, open it, then damage superblocks and checkpoint packs one
 * way at a time and check which copy is chosen, or that opening fails with
 * a reason naming the field.  Ends with a loop of random byte flips that
 * must never crash.
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
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"
#include "fixture.h"
#include "test.h"

#define DEV_BYTES (64ull << 20)
#define BLK	  F2FS_BLKSIZE
#define SEG	  F2FS_DEFAULT_BLKS_PER_SEG

static bool format(struct fixture *fs, const char *features)
{
	bool ok = fixture_format(fs, DEV_BYTES, features, false);

	CHECK_EQ_U64(fs->ret, 0);
	CHECK(ok);
	return ok;
}

static void unformat(struct fixture *fs)
{
	CHECK_EQ_U64(fixture_free(fs), 0);
}

/* Open @dev through the handle: *v is its volume, NULL when opening failed. */
static int open_volume(struct f2fs_device *dev, struct f2fs_fs **h, const struct f2fs_volume **v,
		       char *why, size_t why_len)
{
	int ret = f2fs_fs_open(dev, F2FS_FS_READ, h, why, why_len);

	CHECK(ret ? *h == NULL : *h != NULL);
	*v = *h ? f2fs_fs_volume(*h) : NULL;
	return ret;
}

static void close_volume(struct f2fs_fs **h, const struct f2fs_volume **v)
{
	f2fs_fs_close(*h);
	*h = NULL;
	*v = NULL;
}

static void read_blk(struct fixture *fs, uint64_t blkaddr, void *buf)
{
	CHECK(fixture_read_blk(fs, blkaddr, buf));
}

static void write_blk(struct fixture *fs, uint64_t blkaddr, const void *buf)
{
	CHECK(fixture_write_blk(fs, blkaddr, buf));
}

/* XOR one byte of block @blkaddr at @ofs with @mask. */
static void flip(struct fixture *fs, uint64_t blkaddr, size_t ofs, uint8_t mask)
{
	uint8_t buf[BLK];

	read_blk(fs, blkaddr, buf);
	buf[ofs] ^= mask;
	write_blk(fs, blkaddr, buf);
}

/* Read superblock copy @index, let @edit change it, reseal and write it back. */
static void edit_sb(struct fixture *fs, int index, void (*edit)(struct f2fs_super_block *))
{
	uint8_t buf[BLK];
	struct f2fs_super_block sb;

	read_blk(fs, (uint64_t)index, buf);
	memcpy(&sb, buf + F2FS_SUPER_OFFSET, sizeof(sb));
	edit(&sb);
	f2fs_super_seal(&sb);
	memcpy(buf + F2FS_SUPER_OFFSET, &sb, sizeof(sb));
	write_blk(fs, (uint64_t)index, buf);
}

static void bump_sit_blkaddr(struct f2fs_super_block *sb)
{
	sb->sit_blkaddr = le32_put(le32_get(sb->sit_blkaddr) + 1);
}

static void zero_sit_segs(struct f2fs_super_block *sb)
{
	sb->segment_count_sit = 0;
}

static void huge_block_count(struct f2fs_super_block *sb)
{
	sb->block_count = le64_put(le64_get(sb->block_count) * 2);
}

static uint64_t written_version(struct fixture *fs)
{
	uint8_t buf[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;

	read_blk(fs, fs->l.cp_blkaddr, buf);
	return le64_get(cp->checkpoint_ver);
}

static uint32_t pack_blocks(struct fixture *fs)
{
	return 6 + fs->l.cp_payload;
}

static void test_clean(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[256] = "x";
	uint64_t ver;

	if (!format(&fs, NULL))
		return;
	ver = written_version(&fs);
	CHECK(ver != 0);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		CHECK_EQ_U64(f2fs_volume_sb_index(v), 0);
		CHECK_EQ_U64(f2fs_volume_cp_index(v), 0);
		CHECK_EQ_U64(f2fs_volume_cp_version(v), ver);
		CHECK_EQ_U64(le64_get(f2fs_volume_cp(v)->checkpoint_ver), ver);
		CHECK_EQ_U64(f2fs_volume_cp_start(v), fs.l.cp_blkaddr);
		CHECK_EQ_U64(le32_get(f2fs_volume_sb(v)->main_blkaddr), fs.l.main_blkaddr);
		CHECK(f2fs_volume_warning(v) == NULL);
		CHECK(f2fs_volume_device(v) == fs.dev);
		CHECK_EQ_U64(why[0], 0);
	}
	close_volume(&h, &v);
	unformat(&fs);
}

static void test_clean_features(void)
{
	static const char *const sets[] = {"sb_checksum", "extra_attr,inode_checksum,sb_checksum",
					   "extra_attr,quota,lost_found"};
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct fixture fs;
		struct f2fs_fs *h = NULL;
		const struct f2fs_volume *v = NULL;
		char why[256] = "";

		if (!format(&fs, sets[i]))
			continue;
		CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
		if (!v)
			fprintf(stderr, "%s: %s\n", sets[i], why);
		else
			CHECK(f2fs_volume_warning(v) == NULL);
		close_volume(&h, &v);
		unformat(&fs);
	}
}

static void test_sb_magic(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[512] = "";

	if (!format(&fs, NULL))
		return;
	flip(&fs, 0, F2FS_SUPER_OFFSET, 0xff);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		const char *w = f2fs_volume_warning(v);

		CHECK_EQ_U64(f2fs_volume_sb_index(v), 1);
		CHECK_EQ_U64(f2fs_volume_cp_index(v), 0);
		CHECK(w != NULL);
		CHECK(w && strstr(w, "magic"));
		CHECK(w && strstr(w, "#0"));
		CHECK(w && !strchr(w, '\n'));
	}
	close_volume(&h, &v);

	flip(&fs, 1, F2FS_SUPER_OFFSET + 1, 0x10);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(v == NULL);
	CHECK(strstr(why, "superblock") != NULL);
	CHECK(strstr(why, "magic") != NULL);
	CHECK(!strchr(why, '\n'));
	close_volume(&h, &v);
	unformat(&fs);
}

static void test_sb_secondary_bad(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[256] = "";

	if (!format(&fs, NULL))
		return;
	flip(&fs, 1, F2FS_SUPER_OFFSET + 2, 0x01);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		const char *w = f2fs_volume_warning(v);

		CHECK_EQ_U64(f2fs_volume_sb_index(v), 0);
		CHECK(w && strstr(w, "#1") && strstr(w, "magic"));
	}
	close_volume(&h, &v);
	unformat(&fs);
}

static void test_sb_crc(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[512] = "";

	if (!format(&fs, "sb_checksum"))
		return;
	/* a byte in the volume name: only the checksum notices */
	flip(&fs, 0, F2FS_SUPER_OFFSET + 200, 0x40);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		const char *w = f2fs_volume_warning(v);

		CHECK_EQ_U64(f2fs_volume_sb_index(v), 1);
		CHECK(w && strstr(w, "crc"));
	}
	close_volume(&h, &v);
	flip(&fs, 1, F2FS_SUPER_OFFSET + offsetof(struct f2fs_super_block, checksum_offset), 1);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "checksum_offset") != NULL);
	unformat(&fs);
}

static void test_sb_field(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[512] = "";

	if (!format(&fs, NULL))
		return;
	edit_sb(&fs, 0, bump_sit_blkaddr);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		const char *w = f2fs_volume_warning(v);

		CHECK_EQ_U64(f2fs_volume_sb_index(v), 1);
		CHECK(w && strstr(w, "sit_blkaddr"));
	}
	close_volume(&h, &v);
	edit_sb(&fs, 1, bump_sit_blkaddr);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "sit_blkaddr") != NULL);
	unformat(&fs);

	if (!format(&fs, NULL))
		return;
	edit_sb(&fs, 0, zero_sit_segs);
	edit_sb(&fs, 1, zero_sit_segs);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "segment_count_sit 0 is out of range") != NULL);
	unformat(&fs);

	if (!format(&fs, NULL))
		return;
	edit_sb(&fs, 0, huge_block_count);
	edit_sb(&fs, 1, huge_block_count);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "block_count") != NULL);
	unformat(&fs);
}

static void test_cp_fallback(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[512] = "";
	uint64_t cp1;

	if (!format(&fs, NULL))
		return;
	cp1 = fs.l.cp_blkaddr;
	/* a byte of the first block, covered by the CRC */
	flip(&fs, cp1, 8, 0x01);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		const char *w = f2fs_volume_warning(v);

		CHECK_EQ_U64(f2fs_volume_cp_index(v), 1);
		CHECK_EQ_U64(f2fs_volume_cp_version(v), 0);
		CHECK_EQ_U64(f2fs_volume_cp_start(v), cp1 + SEG);
		CHECK(w && strstr(w, "pack 1") && strstr(w, "crc"));
	}
	close_volume(&h, &v);
	/* pack 2's last block too: nothing left */
	flip(&fs, cp1 + SEG + pack_blocks(&fs) - 1, 100, 0x80);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(v == NULL);
	CHECK(strstr(why, "checkpoint") && strstr(why, "pack 2") && strstr(why, "last block"));
	unformat(&fs);
}

static void test_cp_versions(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[512] = "";
	uint8_t buf[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	uint64_t cp2;

	if (!format(&fs, NULL))
		return;
	cp2 = fs.l.cp_blkaddr + SEG;
	/* give pack 2 a version above 2^63: the unsigned compare picks it */
	read_blk(&fs, cp2, buf);
	cp->checkpoint_ver = le64_put(0x8000000000000001ull);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	write_blk(&fs, cp2, buf);
	/* the last block still says 0, so pack 2 is rejected */
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		CHECK_EQ_U64(f2fs_volume_cp_index(v), 0);
		CHECK(f2fs_volume_warning(v) && strstr(f2fs_volume_warning(v), "checkpoint_ver"));
	}
	close_volume(&h, &v);
	write_blk(&fs, cp2 + pack_blocks(&fs) - 1, buf);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), 0);
	if (v) {
		CHECK_EQ_U64(f2fs_volume_cp_index(v), 1);
		CHECK_EQ_U64(f2fs_volume_cp_version(v), 0x8000000000000001ull);
		CHECK(f2fs_volume_warning(v) == NULL);
	}
	close_volume(&h, &v);
	unformat(&fs);
}

static void test_cp_fields(void)
{
	struct fixture fs;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;
	char why[512] = "";
	uint8_t buf[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	uint64_t cp1, cp2;

	if (!format(&fs, NULL))
		return;
	cp1 = fs.l.cp_blkaddr;
	cp2 = cp1 + SEG;
	/* both packs say their pack is 600 blocks: a resealed, bogus count */
	read_blk(&fs, cp1, buf);
	cp->cp_pack_total_block_count = le32_put(600);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	write_blk(&fs, cp1, buf);
	read_blk(&fs, cp2, buf);
	cp->cur_node_segno[1] = le32_put(fs.l.segment_count_main);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	write_blk(&fs, cp2, buf);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "cp_pack_total_block_count 600") != NULL);
	CHECK(strstr(why, "cur_node_segno[1]") != NULL);
	unformat(&fs);

	if (!format(&fs, NULL))
		return;
	read_blk(&fs, cp1, buf);
	cp->checksum_offset = le32_put(5000);
	write_blk(&fs, cp1, buf);
	read_blk(&fs, cp2, buf);
	cp->sit_ver_bitmap_bytesize = le32_put(4000);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	write_blk(&fs, cp2, buf);
	CHECK_EQ_U64(open_volume(fs.dev, &h, &v, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "checksum_offset 5000") != NULL);
	CHECK(strstr(why, "sit_ver_bitmap_bytesize 4000") != NULL);
	unformat(&fs);
}

static void test_truncated(void)
{
	static const uint64_t sizes[] = {0, 4096, 8192, 3 * 4096};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct f2fs_device *dev;
		struct f2fs_fs *h = NULL;
		const struct f2fs_volume *v = NULL;
		char why[512] = "";
		int ret;

		if (f2fs_dev_open_memory(sizes[i], &dev)) {
			CHECK(sizes[i] == 0);
			continue;
		}
		ret = open_volume(dev, &h, &v, why, sizeof(why));
		CHECK(ret < 0);
		CHECK(v == NULL);
		CHECK(why[0] != 0);
		f2fs_dev_close(dev);
	}

	/* a real image cut to 8 KiB: superblocks intact, checkpoint gone */
	{
		struct fixture fs;
		struct f2fs_device *dev;
		struct f2fs_fs *h = NULL;
		const struct f2fs_volume *v = NULL;
		uint8_t buf[2 * BLK];
		char why[512] = "";

		if (!format(&fs, NULL))
			return;
		CHECK_EQ_U64(f2fs_dev_read(fs.dev, buf, 0, sizeof(buf)), 0);
		unformat(&fs);
		if (f2fs_dev_open_memory(sizeof(buf), &dev)) {
			CHECK(0);
			return;
		}
		CHECK_EQ_U64(f2fs_dev_write(dev, buf, 0, sizeof(buf)), 0);
		CHECK_EQ_U64(open_volume(dev, &h, &v, why, sizeof(why)), -EINVAL);
		CHECK(strstr(why, "block_count") != NULL);
		CHECK(v == NULL);
		f2fs_dev_close(dev);
	}
}

/* A memory device holding the first @blocks blocks of @fs's device; NULL on failure. */
static struct f2fs_device *cut_copy(struct fixture *fs, uint64_t blocks)
{
	static uint8_t chunk[64 * BLK];
	struct f2fs_device *dev;
	uint64_t b, n;

	if (f2fs_dev_open_memory(blocks * BLK, &dev)) {
		CHECK(0);
		return NULL;
	}
	for (b = 0; b < blocks; b += n) {
		n = blocks - b < 64 ? blocks - b : 64;
		CHECK_EQ_U64(f2fs_dev_read(fs->dev, chunk, b * BLK, n * BLK), 0);
		CHECK_EQ_U64(f2fs_dev_write(dev, chunk, b * BLK, n * BLK), 0);
	}
	return dev;
}

/*
 * F2FS_FS_SHORT_DEVICE: an image cut inside its main area opens, says it is
 * cut and where, loads its tables, and reads past the end fail with -ENXIO
 * without reaching the device; without the flag it is refused.  A cut
 * through the checkpoint still fails, and a whole image is not "truncated".
 */
static void test_short_device(void)
{
	struct fixture fs;
	struct f2fs_device *dev;
	struct f2fs_fs *h = NULL;
	uint8_t buf[2 * BLK];
	uint64_t blocks, keep;
	char why[512] = "";

	if (!format(&fs, NULL))
		return;
	blocks = le64_get(fs.sb.block_count);
	keep = fs.l.main_blkaddr + 3 * SEG;

	CHECK_EQ_U64(f2fs_fs_open(fs.dev, F2FS_FS_SHORT_DEVICE, &h, why, sizeof(why)), 0);
	if (h) {
		CHECK(!f2fs_fs_truncated(h));
		CHECK_EQ_U64(f2fs_fs_device_blocks(h), blocks);
		CHECK_EQ_U64(f2fs_fs_read_blocks(h, blocks - 1, buf, 1), 0);
		CHECK_EQ_U64(f2fs_fs_read_blocks(h, blocks, buf, 1), -ENXIO);
		f2fs_fs_close(h);
	}

	dev = cut_copy(&fs, keep);
	if (dev) {
		h = NULL;
		CHECK_EQ_U64(f2fs_fs_open(dev, F2FS_FS_READ, &h, why, sizeof(why)), -EINVAL);
		CHECK(h == NULL);
		CHECK(strstr(why, "block_count") && strstr(why, "exceeds the device"));
		CHECK_EQ_U64(
		    f2fs_fs_open(dev, F2FS_FS_READ | F2FS_FS_SHORT_DEVICE, &h, why, sizeof(why)),
		    0);
	}
	if (h) {
		CHECK(f2fs_fs_truncated(h));
		CHECK(f2fs_volume_truncated(f2fs_fs_volume(h)));
		CHECK_EQ_U64(f2fs_fs_device_blocks(h), keep);
		CHECK_EQ_U64(le64_get(f2fs_fs_sb(h)->block_count), blocks);
		CHECK_EQ_U64(f2fs_fs_load_all(h), 0);
		CHECK_EQ_U64(f2fs_fs_read_blocks(h, keep - 2, buf, 2), 0);
		CHECK_EQ_U64(f2fs_fs_read_blocks(h, keep - 1, buf, 2), -ENXIO);
		CHECK_EQ_U64(f2fs_fs_read_blocks(h, keep, buf, 1), -ENXIO);
		CHECK_EQ_U64(f2fs_fs_read_blocks(h, UINT64_MAX, buf, 2), -ENXIO);
		f2fs_fs_close(h);
	}
	f2fs_dev_close(dev);

	/* cut inside the first checkpoint pack: nothing to open even when asked */
	dev = cut_copy(&fs, fs.l.cp_blkaddr + 1);
	if (dev) {
		h = NULL;
		CHECK(f2fs_fs_open(dev, F2FS_FS_SHORT_DEVICE, &h, why, sizeof(why)) < 0);
		CHECK(h == NULL);
		CHECK(strstr(why, "checkpoint") != NULL);
		f2fs_dev_close(dev);
	}
	unformat(&fs);
}

static void test_null_why(void)
{
	struct f2fs_device *dev;
	struct f2fs_fs *h = NULL;
	const struct f2fs_volume *v = NULL;

	if (f2fs_dev_open_memory(1 << 20, &dev)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_U64(open_volume(dev, &h, &v, NULL, 0), -EINVAL);
	f2fs_dev_close(dev);
	f2fs_fs_close(NULL);
}

/* xorshift64*, so the loop is reproducible */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void test_fuzz(void)
{
	struct fixture fs;
	uint8_t *pristine;
	uint64_t span, cp1;
	unsigned int iter, opened = 0, failed = 0;

	if (!format(&fs, "sb_checksum"))
		return;
	cp1 = fs.l.cp_blkaddr;
	/* everything up to the end of the second pack's segment */
	span = (cp1 + 2 * SEG) * BLK;
	pristine = malloc(span);
	CHECK(pristine != NULL);
	if (!pristine) {
		unformat(&fs);
		return;
	}
	CHECK_EQ_U64(f2fs_dev_read(fs.dev, pristine, 0, span), 0);

	for (iter = 0; iter < 2000; iter++) {
		struct f2fs_fs *h = NULL;
		const struct f2fs_volume *v = NULL;
		char why[512] = "";
		unsigned int n = 1 + (unsigned int)(rnd() % 8), k;
		int ret;

		/* odd iterations with sb_checksum off, so field checks are reached */
		if (iter & 1) {
			uint8_t b[BLK];
			struct f2fs_super_block sb;
			int c;

			for (c = 0; c < 2; c++) {
				read_blk(&fs, (uint64_t)c, b);
				memcpy(&sb, b + F2FS_SUPER_OFFSET, sizeof(sb));
				sb.feature =
				    le32_put(le32_get(sb.feature) & ~F2FS_FEATURE_SB_CHKSUM);
				f2fs_super_seal(&sb);
				memcpy(b + F2FS_SUPER_OFFSET, &sb, sizeof(sb));
				write_blk(&fs, (uint64_t)c, b);
			}
		}
		for (k = 0; k < n; k++) {
			uint64_t r = rnd(), blk;
			unsigned int pack = (unsigned int)(r >> 60) & 1;

			switch ((r >> 56) & 3) {
			case 0:
			case 1:
				blk = (r >> 40) % 3; /* blocks 0..2 */
				break;
			case 2:
				blk = cp1 + pack * SEG; /* a pack's first block */
				break;
			default:
				blk = cp1 + pack * SEG + (r >> 40) % pack_blocks(&fs);
				break;
			}
			/* a random byte, or a small integer field rewritten */
			if (r & 1)
				flip(&fs, blk, (size_t)((r >> 8) % BLK),
				     (uint8_t)(1 + (r >> 24) % 255));
			else {
				uint8_t b[BLK];
				size_t ofs = (size_t)((r >> 8) % (BLK / 4)) * 4;
				uint32_t val = (uint32_t)(r >> 20) & 0xfff;

				read_blk(&fs, blk, b);
				memcpy(b + ofs, &val, 4);
				write_blk(&fs, blk, b);
			}
		}
		ret = open_volume(fs.dev, &h, &v, why, sizeof(why));
		if (ret == 0) {
			CHECK(v != NULL);
			opened++;
			if (v) {
				CHECK(f2fs_volume_sb_index(v) == 0 || f2fs_volume_sb_index(v) == 1);
				CHECK(f2fs_volume_cp_index(v) == 0 || f2fs_volume_cp_index(v) == 1);
				CHECK(le32_get(f2fs_volume_sb(v)->magic) == F2FS_SUPER_MAGIC);
			}
		} else {
			failed++;
			CHECK(v == NULL);
			CHECK(why[0] != 0);
			CHECK(!strchr(why, '\n'));
		}
		close_volume(&h, &v);
		CHECK_EQ_U64(f2fs_dev_write(fs.dev, pristine, 0, span), 0);
	}
	printf("fuzz: %u opened, %u rejected\n", opened, failed);
	CHECK(opened > 0);
	CHECK(failed > 0);
	free(pristine);
	unformat(&fs);
}

int main(void)
{
	RUN(test_clean);
	RUN(test_clean_features);
	RUN(test_sb_magic);
	RUN(test_sb_secondary_bad);
	RUN(test_sb_crc);
	RUN(test_sb_field);
	RUN(test_cp_fallback);
	RUN(test_cp_versions);
	RUN(test_cp_fields);
	RUN(test_truncated);
	RUN(test_short_device);
	RUN(test_null_why);
	RUN(test_fuzz);
	TEST_EXIT();
}
