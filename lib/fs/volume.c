// SPDX-License-Identifier: GPL-2.0
/*
 * The start of the read path: choose a superblock and a checkpoint pack.
 *
 * Each superblock copy is checked on its own (magic, fixed sizes, checksum,
 * the chain of area addresses and the segment counts against the block
 * count and the device size); the primary wins when valid.  Each of the two
 * checkpoint packs is then checked against that superblock (checksum of its
 * first and last block, equal versions, pack size, bitmap sizes, the open
 * logs) and the valid pack with the higher version is used.
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
#include "f2fs/crc.h"
#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "fs_internal.h"

#define BLKS_PER_SEG F2FS_DEFAULT_BLKS_PER_SEG
#define REASON_LEN   192

struct f2fs_volume {
	struct f2fs_device *dev;
	struct f2fs_super_block sb;
	uint8_t cp_raw[F2FS_MAX_BLKSIZE]; /* first block of the chosen pack */
	int sb_index;
	int cp_index;
	uint64_t cp_version;
	uint32_t cp_start;
	char warning[2 * REASON_LEN + 200];
	bool has_warning;
	unsigned int rejected; /* enum f2fs_rejected_copy bits */
	uint64_t dev_bytes;    /* what the device holds */
	uint64_t dev_blocks;   /* whole blocks of the chosen superblock's size in it */
	unsigned int members;  /* devices the opened device spans (f2fs_dev_members) */
	bool allow_short;      /* a device shorter than block_count is accepted */
	char sb_rejected[REASON_LEN + 48];
	char cp_rejected[REASON_LEN + 160];
};

/* ---- superblock ---- */

/*
 * The blocks the volume needs: block_count on one device; on several, what
 * their segments span (block_count there counts the devices' whole sizes,
 * which they need not use).
 */
static uint64_t needed_blocks(const struct f2fs_super_block *sb)
{
	if (!sb->devs[0].path[0])
		return le64_get(sb->block_count);
	return le32_get(sb->segment0_blkaddr) +
	       (uint64_t)le32_get(sb->segment_count) * BLKS_PER_SEG;
}

/* The device list of a multi-device superblock against its segments and what is open. */
static int check_devices(const struct f2fs_super_block *sb, unsigned int members, char *r,
			 size_t rl)
{
	struct f2fs_sb_device d[F2FS_MAX_DEVICES];
	unsigned int n = f2fs_super_devices(sb, d), i;
	uint64_t sum = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		sum += d[i].segments;
	if (sum != le32_get(sb->segment_count)) {
		fs_say(r, rl, "the %u devices' total_segments sum to %llu, not segment_count %u", n,
		       (unsigned long long)sum, le32_get(sb->segment_count));
		return -EINVAL;
	}
	if (members && members != n) {
		fs_say(r, rl, "the volume spans %u devices (%s ... %s); %u of them %s open", n,
		       d[0].path, d[n - 1].path, members, members == 1 ? "is" : "are");
		return -ENODEV;
	}
	return 0;
}

/*
 * Check one superblock copy; on failure put the field and value in @r
 * (no "superblock:" prefix, the caller adds which copy it was).  A
 * block_count past the @dev_bytes of the device is refused unless
 * @allow_short.
 */
static int check_sb(const struct f2fs_super_block *sb, uint64_t dev_bytes, unsigned int members,
		    bool allow_short, char *r, size_t rl)
{
	uint32_t v, log_blk, log_sec, log_spb, segs_per_sec, secs_per_zone;
	uint64_t dev_blocks;
	uint32_t seg_count, ckpt, sit, nat, ssa, main_segs, sections;
	uint64_t block_count, seg0, expect, sum, end;
	struct f2fs_blkgeo g;

	v = le32_get(sb->magic);
	if (v != F2FS_SUPER_MAGIC) {
		fs_say(r, rl, "magic 0x%08x is not 0x%08x", v, F2FS_SUPER_MAGIC);
		return -EINVAL;
	}
	v = le32_get(sb->log_blocksize);
	if (v != F2FS_MIN_BLKSIZE_BITS && v != F2FS_MAX_BLKSIZE_BITS) {
		fs_say(r, rl, "log_blocksize %u is not %u or %u", v, F2FS_MIN_BLKSIZE_BITS,
		       F2FS_MAX_BLKSIZE_BITS);
		return -EINVAL;
	}
	log_blk = v;
	dev_blocks = dev_bytes >> log_blk;
	log_sec = le32_get(sb->log_sectorsize);
	if (log_sec < 9 || log_sec > 12) {
		fs_say(r, rl, "log_sectorsize %u is out of range (9..12)", log_sec);
		return -EINVAL;
	}
	log_spb = le32_get(sb->log_sectors_per_block);
	if (log_spb != log_blk - log_sec) {
		fs_say(r, rl, "log_sectors_per_block %u does not match log_sectorsize %u", log_spb,
		       log_sec);
		return -EINVAL;
	}
	v = le32_get(sb->log_blocks_per_seg);
	if (v != F2FS_LOG_BLKS_PER_SEG) {
		fs_say(r, rl, "log_blocks_per_seg %u is not %u", v, F2FS_LOG_BLKS_PER_SEG);
		return -EINVAL;
	}
	if (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		uint32_t stored, crc;

		v = le32_get(sb->checksum_offset);
		if (v != F2FS_SB_CHKSUM_OFFSET) {
			fs_say(r, rl, "checksum_offset %u is not %u", v, F2FS_SB_CHKSUM_OFFSET);
			return -EINVAL;
		}
		stored = le32_get(sb->crc);
		crc = f2fs_block_crc(sb, F2FS_SB_CHKSUM_OFFSET);
		if (stored != crc) {
			fs_say(r, rl, "crc 0x%08x does not match the contents (0x%08x)", stored,
			       crc);
			return -EINVAL;
		}
	}

	seg_count = le32_get(sb->segment_count);
	if (seg_count < F2FS_MIN_SEGMENTS || seg_count > F2FS_MAX_SEGMENTS) {
		fs_say(r, rl, "segment_count %u is out of range (%u..%u)", seg_count,
		       F2FS_MIN_SEGMENTS, F2FS_MAX_SEGMENTS);
		return -EINVAL;
	}
	segs_per_sec = le32_get(sb->segs_per_sec);
	if (segs_per_sec < 1 || segs_per_sec > seg_count) {
		fs_say(r, rl, "segs_per_sec %u is out of range (1..%u)", segs_per_sec, seg_count);
		return -EINVAL;
	}
	secs_per_zone = le32_get(sb->secs_per_zone);
	if (secs_per_zone < 1 || (uint64_t)secs_per_zone * segs_per_sec > seg_count) {
		fs_say(r, rl, "secs_per_zone %u is out of range (1..%u)", secs_per_zone,
		       seg_count / segs_per_sec);
		return -EINVAL;
	}

	block_count = le64_get(sb->block_count);
	if (needed_blocks(sb) > dev_blocks && !allow_short) {
		fs_say(r, rl, "%s %llu exceeds the device%s (%llu blocks)",
		       sb->devs[0].path[0] ? "the devices' segments end at block" : "block_count",
		       (unsigned long long)needed_blocks(sb), sb->devs[0].path[0] ? "s" : "",
		       (unsigned long long)dev_blocks);
		return -EINVAL;
	}
	seg0 = le32_get(sb->segment0_blkaddr);
	if (seg0 < 2) {
		fs_say(r, rl, "segment0_blkaddr %llu overlaps the superblocks",
		       (unsigned long long)seg0);
		return -EINVAL;
	}
	end = seg0 + (uint64_t)seg_count * BLKS_PER_SEG;
	if (end > block_count) {
		fs_say(r, rl, "segment_count %u ends at block %llu, past block_count %llu",
		       seg_count, (unsigned long long)end, (unsigned long long)block_count);
		return -EINVAL;
	}

	ckpt = le32_get(sb->segment_count_ckpt);
	if (ckpt != F2FS_CP_PACKS) {
		fs_say(r, rl, "segment_count_ckpt %u is not %u", ckpt, F2FS_CP_PACKS);
		return -EINVAL;
	}
	sit = le32_get(sb->segment_count_sit);
	if (sit < 2 || sit % 2 || sit > seg_count) {
		fs_say(r, rl, "segment_count_sit %u is out of range", sit);
		return -EINVAL;
	}
	nat = le32_get(sb->segment_count_nat);
	if (nat < 2 || nat % 2 || nat > seg_count) {
		fs_say(r, rl, "segment_count_nat %u is out of range", nat);
		return -EINVAL;
	}
	/* a read-only volume has no SSA: nothing is ever cleaned, so nothing asks whose a block is
	 */
	ssa = le32_get(sb->segment_count_ssa);
	if ((ssa < 1 && !(le32_get(sb->feature) & F2FS_FEATURE_RO)) || ssa > seg_count) {
		fs_say(r, rl, "segment_count_ssa %u is out of range", ssa);
		return -EINVAL;
	}
	main_segs = le32_get(sb->segment_count_main);
	if (main_segs < 1 || main_segs > seg_count) {
		fs_say(r, rl, "segment_count_main %u is out of range", main_segs);
		return -EINVAL;
	}
	sum = (uint64_t)ckpt + sit + nat + ssa + main_segs;
	if (sum > seg_count) {
		fs_say(r, rl, "segment_count %u is less than the areas' segments (%llu)", seg_count,
		       (unsigned long long)sum);
		return -EINVAL;
	}
	if (f2fs_blkgeo_init_features(&g, log_blk, le32_get(sb->feature)))
		return -EINVAL; /* log_blk was checked above */
	if (!f2fs_sit_covers(&g, sit, seg_count)) {
		fs_say(r, rl, "segment_count_sit %u is too small for %u segments", sit, seg_count);
		return -EINVAL;
	}
	if (!f2fs_ssa_covers(&g, ssa, main_segs) && !(le32_get(sb->feature) & F2FS_FEATURE_RO)) {
		fs_say(r, rl, "segment_count_ssa %u is too small for %u main segments", ssa,
		       main_segs);
		return -EINVAL;
	}
	sections = le32_get(sb->section_count);
	if ((uint64_t)sections * segs_per_sec != main_segs) {
		fs_say(r, rl, "section_count %u times segs_per_sec %u is not segment_count_main %u",
		       sections, segs_per_sec, main_segs);
		return -EINVAL;
	}
	if (secs_per_zone > sections) {
		fs_say(r, rl, "secs_per_zone %u exceeds section_count %u", secs_per_zone, sections);
		return -EINVAL;
	}

	/* the areas follow each other: cp, sit, nat, ssa, main */
	v = le32_get(sb->cp_blkaddr);
	if (v != seg0) {
		fs_say(r, rl, "cp_blkaddr %u is not segment0_blkaddr %llu", v,
		       (unsigned long long)seg0);
		return -EINVAL;
	}
	const struct {
		const char *name, *after;
		uint32_t addr, segs_before;
	} areas[] = {
	    {"sit_blkaddr", "cp_blkaddr", le32_get(sb->sit_blkaddr), ckpt},
	    {"nat_blkaddr", "sit_blkaddr", le32_get(sb->nat_blkaddr), sit},
	    {"ssa_blkaddr", "nat_blkaddr", le32_get(sb->ssa_blkaddr), nat},
	    {"main_blkaddr", "ssa_blkaddr", le32_get(sb->main_blkaddr), ssa},
	};
	size_t i;

	expect = seg0;
	for (i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
		expect += (uint64_t)areas[i].segs_before * BLKS_PER_SEG;
		if (areas[i].addr != expect) {
			fs_say(r, rl, "%s %u is not %s + %u segments (%llu)", areas[i].name,
			       areas[i].addr, areas[i].after, areas[i].segs_before,
			       (unsigned long long)expect);
			return -EINVAL;
		}
	}
	if (expect + (uint64_t)main_segs * BLKS_PER_SEG > end) {
		fs_say(r, rl, "segment_count_main %u runs past the last segment", main_segs);
		return -EINVAL;
	}

	if (check_devices(sb, members, r, rl) < 0)
		return -EINVAL;

	v = le32_get(sb->root_ino);
	if (v != 3) {
		fs_say(r, rl, "root_ino %u is not 3", v);
		return -EINVAL;
	}
	v = le32_get(sb->node_ino);
	if (v != 1) {
		fs_say(r, rl, "node_ino %u is not 1", v);
		return -EINVAL;
	}
	v = le32_get(sb->meta_ino);
	if (v != 2) {
		fs_say(r, rl, "meta_ino %u is not 2", v);
		return -EINVAL;
	}
	/* a pack is its cp block, the payload, 6 summary blocks at most, and the cp copy */
	v = le32_get(sb->cp_payload);
	if (v > BLKS_PER_SEG - 8) {
		fs_say(r, rl, "cp_payload %u is out of range (0..%u)", v, BLKS_PER_SEG - 8);
		return -EINVAL;
	}
	v = le32_get(sb->extension_count);
	if (v > F2FS_MAX_EXTENSION) {
		fs_say(r, rl, "extension_count %u is out of range (0..%u)", v, F2FS_MAX_EXTENSION);
		return -EINVAL;
	}
	if (sb->hot_ext_count > v) {
		fs_say(r, rl, "hot_ext_count %u exceeds extension_count %u", sb->hot_ext_count, v);
		return -EINVAL;
	}
	return 0;
}

/* Read and check the superblock in block @index, for blocks of 1 << @log_blk bytes. */
static int read_sb(const struct f2fs_volume *v, int index, uint32_t log_blk,
		   struct f2fs_super_block *sb, char *r, size_t rl)
{
	int ret = f2fs_dev_read(v->dev, sb, ((uint64_t)index << log_blk) + F2FS_SUPER_OFFSET,
				sizeof(*sb));

	if (ret) {
		fs_say(r, rl, "read failed: %s", strerror(-ret));
		return ret;
	}
	ret = check_sb(sb, v->dev_bytes, v->members, v->allow_short, r, rl);
	if (!ret && index && le32_get(sb->log_blocksize) != log_blk) {
		fs_say(r, rl, "log_blocksize %u, but found in a block of %u bytes",
		       le32_get(sb->log_blocksize), 1u << log_blk);
		ret = -EINVAL;
	}
	return ret;
}

/* ---- checkpoint ---- */

/* The checksum at @cp's checksum_offset, which the caller has range-checked. */
static uint32_t stored_cp_crc(const struct f2fs_checkpoint *cp)
{
	uint32_t crc;

	memcpy(&crc, (const uint8_t *)cp + le32_get(cp->checksum_offset), sizeof(crc));
	return le32_get(crc);
}

/*
 * The checksum_offset and CRC of one checkpoint block of @blksize bytes;
 * @what is "first"/"last".
 */
static int check_cp_block(const struct f2fs_checkpoint *cp, uint32_t blksize, const char *what,
			  char *r, size_t rl)
{
	uint32_t ofs = le32_get(cp->checksum_offset), want, got;
	bool large = le32_get(cp->ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG;

	want = large ? F2FS_CP_BITMAP_OFFSET : blksize - (uint32_t)sizeof(uint32_t);
	if (ofs != want) {
		fs_say(r, rl, "%s block: checksum_offset %u is not %u", what, ofs, want);
		return -EINVAL;
	}
	got = stored_cp_crc(cp);
	want = f2fs_cp_crc(cp, blksize);
	if (got != want) {
		fs_say(r, rl, "%s block: crc 0x%08x does not match the contents (0x%08x)", what,
		       got, want);
		return -EINVAL;
	}
	return 0;
}

/*
 * The six logs, as the kernel checks them at mount (f2fs_sanity_check_ckpt):
 * each inside the main area, its offset inside its segment, and no two on
 * one segment.  -1 with the reason in @r.
 */
static int check_cp_logs(const struct f2fs_checkpoint *cp, uint32_t main_segs, bool ro, char *r,
			 size_t rl)
{
	uint32_t seg[6];
	int i, j;

	for (i = 0; i < 6; i++) {
		bool node = i < 3;
		const char *kind = node ? "node" : "data";
		uint32_t off =
		    node ? le16_get(cp->cur_node_blkoff[i]) : le16_get(cp->cur_data_blkoff[i - 3]);

		seg[i] =
		    node ? le32_get(cp->cur_node_segno[i]) : le32_get(cp->cur_data_segno[i - 3]);
		if (seg[i] >= main_segs) {
			fs_say(r, rl, "cur_%s_segno[%d] %u is out of range (0..%u)", kind, i % 3,
			       seg[i], main_segs - 1);
			return -1;
		}
		if (off >= BLKS_PER_SEG) {
			fs_say(r, rl, "cur_%s_blkoff[%d] %u is out of range (0..%u)", kind, i % 3,
			       off, BLKS_PER_SEG - 1);
			return -1;
		}
	}
	/* a read-only volume's logs may share its one segment */
	for (i = 0; i < 6 && !ro; i++)
		for (j = i + 1; j < 6; j++)
			if (seg[i] == seg[j]) {
				fs_say(r, rl, "cur_%s_segno[%d] and cur_%s_segno[%d] are both %u",
				       i < 3 ? "node" : "data", i % 3, j < 3 ? "node" : "data",
				       j % 3, seg[i]);
				return -1;
			}
	return 0;
}

/*
 * The kernel's other layout checks of a checkpoint: the metadata areas and
 * the reserved segments inside the volume, over- and reserved provisioning
 * present, the node count under the NAT's capacity, the SIT version bitmap
 * covering every SIT block, nat_bits fitting the pack.  -1 with a reason.
 */
static int check_cp_space(const struct f2fs_super_block *sb, const struct f2fs_checkpoint *cp,
			  char *r, size_t rl)
{
	uint64_t fsmeta = (uint64_t)le32_get(sb->segment_count_ckpt) +
			  le32_get(sb->segment_count_sit) + le32_get(sb->segment_count_nat) +
			  le32_get(cp->rsvd_segment_count) + le32_get(sb->segment_count_ssa);
	uint32_t nat_segs = le32_get(sb->segment_count_nat), payload = le32_get(sb->cp_payload);
	uint32_t blksize = f2fs_sb_blksize(sb);
	uint32_t sit_per_block = blksize / (uint32_t)sizeof(struct f2fs_sit_entry);
	uint64_t nodes = f2fs_sb_max_nid(sb);
	uint32_t sit_blocks =
	    (le32_get(sb->segment_count_main) + sit_per_block - 1) / sit_per_block;
	uint32_t nat_bits_blocks = f2fs_nat_bits_blocks(nat_segs, blksize);
	bool ro = le32_get(sb->feature) & F2FS_FEATURE_RO;

	if (fsmeta >= le32_get(sb->segment_count)) {
		fs_say(r, rl, "the metadata and reserved segments (%llu) fill the volume (%u)",
		       (unsigned long long)fsmeta, le32_get(sb->segment_count));
		return -1;
	}
	if (!ro && (fsmeta < 8 || !le32_get(cp->overprov_segment_count) ||
		    !le32_get(cp->rsvd_segment_count))) {
		fs_say(r, rl, "wrong layout: %llu metadata segments, overprov %u, reserved %u",
		       (unsigned long long)fsmeta, le32_get(cp->overprov_segment_count),
		       le32_get(cp->rsvd_segment_count));
		return -1;
	}
	if (le32_get(cp->valid_node_count) > nodes - 3) {
		fs_say(r, rl, "valid_node_count %u exceeds the NAT's %llu",
		       le32_get(cp->valid_node_count), (unsigned long long)(nodes - 3));
		return -1;
	}
	if ((uint64_t)le32_get(cp->sit_ver_bitmap_bytesize) * 8 < sit_blocks) {
		fs_say(r, rl, "the SIT version bitmap (%u bytes) covers fewer than %u SIT blocks",
		       le32_get(cp->sit_ver_bitmap_bytesize), sit_blocks);
		return -1;
	}
	if ((le32_get(cp->ckpt_flags) & CP_NAT_BITS_FLAG) &&
	    payload + 2 + 6 + nat_bits_blocks >= BLKS_PER_SEG) {
		fs_say(r, rl, "nat_bits (%u blocks) do not fit the pack beside cp_payload %u",
		       nat_bits_blocks, payload);
		return -1;
	}
	return 0;
}

/* Fields of a checksummed checkpoint checked against the superblock. */
static int check_cp_fields(const struct f2fs_super_block *sb, const struct f2fs_checkpoint *cp,
			   char *r, size_t rl)
{
	uint32_t payload = le32_get(sb->cp_payload);
	uint32_t main_segs = le32_get(sb->segment_count_main);
	uint32_t total = le32_get(cp->cp_pack_total_block_count);
	uint32_t start_sum = le32_get(cp->cp_pack_start_sum);
	uint32_t sit_bytes = le32_get(cp->sit_ver_bitmap_bytesize);
	uint32_t nat_bytes = le32_get(cp->nat_ver_bitmap_bytesize);
	uint64_t want_sit = f2fs_sb_sit_blocks(sb) / 8;
	uint64_t want_nat = f2fs_sb_nat_blocks(sb) / 8;
	bool large = le32_get(cp->ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG;
	bool ro = le32_get(sb->feature) & F2FS_FEATURE_RO;
	uint32_t blksize = f2fs_sb_blksize(sb);
	uint32_t max_bitmap = blksize - (uint32_t)sizeof(uint32_t) - F2FS_CP_BITMAP_OFFSET;
	uint64_t room, user, valid;
	uint32_t v;

	if (total < payload + 3 || total > BLKS_PER_SEG) {
		fs_say(r, rl, "cp_pack_total_block_count %u is out of range (%u..%u)", total,
		       payload + 3, BLKS_PER_SEG);
		return -EINVAL;
	}
	if (start_sum < 1 + payload || start_sum >= total - 1) {
		fs_say(r, rl, "cp_pack_start_sum %u is out of range (%u..%u)", start_sum,
		       1 + payload, total - 2);
		return -EINVAL;
	}
	if (sit_bytes != want_sit) {
		fs_say(r, rl, "sit_ver_bitmap_bytesize %u is not %llu", sit_bytes,
		       (unsigned long long)want_sit);
		return -EINVAL;
	}
	if (nat_bytes != want_nat) {
		fs_say(r, rl, "nat_ver_bitmap_bytesize %u is not %llu", nat_bytes,
		       (unsigned long long)want_nat);
		return -EINVAL;
	}
	/* the version bitmaps must lie inside the cp block and its payload */
	if (large) {
		room = max_bitmap + (uint64_t)payload * blksize;
		if ((uint64_t)sit_bytes + nat_bytes > room) {
			fs_say(r, rl,
			       "version bitmaps (%u + %u bytes) exceed the checkpoint (%llu)",
			       sit_bytes, nat_bytes, (unsigned long long)room);
			return -EINVAL;
		}
	} else if (payload) {
		if ((uint64_t)sit_bytes > (uint64_t)payload * blksize || nat_bytes > max_bitmap) {
			fs_say(r, rl, "version bitmaps (%u + %u bytes) exceed the checkpoint",
			       sit_bytes, nat_bytes);
			return -EINVAL;
		}
	} else if ((uint64_t)sit_bytes + nat_bytes > max_bitmap) {
		fs_say(r, rl, "version bitmaps (%u + %u bytes) exceed the checkpoint (%u)",
		       sit_bytes, nat_bytes, max_bitmap);
		return -EINVAL;
	}

	if (check_cp_logs(cp, main_segs, ro, r, rl) || check_cp_space(sb, cp, r, rl))
		return -EINVAL;

	user = le64_get(cp->user_block_count);
	if (user == 0 || user >= (uint64_t)(main_segs + ro) * BLKS_PER_SEG) {
		fs_say(r, rl, "user_block_count %llu is out of range (1..%llu)",
		       (unsigned long long)user,
		       (unsigned long long)(main_segs + ro) * BLKS_PER_SEG - 1);
		return -EINVAL;
	}
	valid = le64_get(cp->valid_block_count);
	if (valid > user) {
		fs_say(r, rl, "valid_block_count %llu exceeds user_block_count %llu",
		       (unsigned long long)valid, (unsigned long long)user);
		return -EINVAL;
	}
	v = le32_get(cp->free_segment_count);
	if (v > main_segs) {
		fs_say(r, rl, "free_segment_count %u exceeds segment_count_main %u", v, main_segs);
		return -EINVAL;
	}
	v = le32_get(cp->rsvd_segment_count);
	if (v >= main_segs) {
		fs_say(r, rl, "rsvd_segment_count %u is out of range (0..%u)", v, main_segs - 1);
		return -EINVAL;
	}
	v = le32_get(cp->overprov_segment_count);
	if (v >= main_segs) {
		fs_say(r, rl, "overprov_segment_count %u is out of range (0..%u)", v,
		       main_segs - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * Read the pack starting at block @start (first block into @first) and
 * check what the kernel checks to choose a pack (validate_checkpoint()):
 * both blocks' checksums, a total that fits the segment, equal versions.
 * A read error is returned as is; a pack failing those gives -EINVAL and a
 * reason.  Its fields are not checked here: the kernel takes the newest
 * pack that passes, and only then sanity-checks it (check_cp_fields()).
 */
static int read_cp_pack(struct f2fs_device *dev, const struct f2fs_super_block *sb, uint64_t start,
			uint8_t *first, char *r, size_t rl)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)first;
	uint8_t *last_raw;
	const struct f2fs_checkpoint *last;
	uint32_t total, blksize = f2fs_sb_blksize(sb);
	int ret;

	ret = f2fs_dev_read(dev, first, start * blksize, blksize);
	if (ret) {
		fs_say(r, rl, "read of block %llu failed: %s", (unsigned long long)start,
		       strerror(-ret));
		return ret;
	}
	ret = check_cp_block(cp, blksize, "first", r, rl);
	if (ret)
		return ret;
	total = le32_get(cp->cp_pack_total_block_count);
	if (total < le32_get(sb->cp_payload) + 3 || total > BLKS_PER_SEG) {
		fs_say(r, rl, "cp_pack_total_block_count %u is out of range (%u..%u)", total,
		       le32_get(sb->cp_payload) + 3, BLKS_PER_SEG);
		return -EINVAL;
	}
	last_raw = malloc(blksize);
	if (!last_raw) {
		fs_say(r, rl, "out of memory");
		return -ENOMEM;
	}
	last = (const struct f2fs_checkpoint *)last_raw;
	ret = f2fs_dev_read(dev, last_raw, (start + total - 1) * blksize, blksize);
	if (ret) {
		fs_say(r, rl, "read of last block %llu failed: %s",
		       (unsigned long long)(start + total - 1), strerror(-ret));
		goto out;
	}
	ret = check_cp_block(last, blksize, "last", r, rl);
	if (ret)
		goto out;
	if (le64_get(last->checkpoint_ver) != le64_get(cp->checkpoint_ver)) {
		fs_say(r, rl, "last block: checkpoint_ver %llu is not the first block's %llu",
		       (unsigned long long)le64_get(last->checkpoint_ver),
		       (unsigned long long)le64_get(cp->checkpoint_ver));
		ret = -EINVAL;
	}
out:
	free(last_raw);
	return ret;
}

/* ---- opening ---- */

static void add_warning(struct f2fs_volume *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add_warning(struct f2fs_volume *v, const char *fmt, ...)
{
	size_t used = v->has_warning ? strlen(v->warning) : 0;
	va_list ap;

	if (v->has_warning && used + 2 < sizeof(v->warning)) {
		memcpy(v->warning + used, "; ", 3);
		used += 2;
	}
	if (used + 1 >= sizeof(v->warning))
		return;
	va_start(ap, fmt);
	vsnprintf(v->warning + used, sizeof(v->warning) - used, fmt, ap);
	va_end(ap);
	v->has_warning = true;
}

static void reject(struct f2fs_volume *v, unsigned int bit, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record a rejected copy: its bit, its own line, and the combined warning. */
static void reject(struct f2fs_volume *v, unsigned int bit, const char *fmt, ...)
{
	char *line = bit & F2FS_REJECTED_SB ? v->sb_rejected : v->cp_rejected;
	size_t len = bit & F2FS_REJECTED_SB ? sizeof(v->sb_rejected) : sizeof(v->cp_rejected);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, len, fmt, ap);
	va_end(ap);
	v->rejected |= bit;
	add_warning(v, "%s", line);
}

/* Prefer a device error over -EINVAL when neither copy could be used. */
static int worse(int a, int b)
{
	if (a == -ENOMEM || b == -ENOMEM)
		return -ENOMEM;
	if (a != -EINVAL)
		return a;
	return b;
}

/*
 * The secondary superblock when the primary is unusable: block 1 is at 4
 * KiB or at 16 KiB, as the volume's own block size puts it.  The reason
 * kept is the one of the copy that at least has the magic.
 */
static int read_secondary(const struct f2fs_volume *v, struct f2fs_super_block *sb, char *r,
			  size_t rl)
{
	char r16[REASON_LEN] = "";
	int ret = read_sb(v, 1, F2FS_MIN_BLKSIZE_BITS, sb, r, rl), ret16;
	bool magic = le32_get(sb->magic) == F2FS_SUPER_MAGIC;

	if (!ret)
		return 0;
	ret16 = read_sb(v, 1, F2FS_MAX_BLKSIZE_BITS, sb, r16, sizeof(r16));
	if (!ret16 || (!magic && le32_get(sb->magic) == F2FS_SUPER_MAGIC)) {
		fs_say(r, rl, "%s", r16);
		return ret16;
	}
	return ret;
}

static int pick_sb(struct f2fs_volume *v, char *why, size_t why_len)
{
	struct f2fs_super_block *other = malloc(sizeof(*other));
	char r0[REASON_LEN] = "", r1[REASON_LEN] = "";
	int ret0, ret1;

	if (!other) {
		fs_say(why, why_len, "superblock: out of memory");
		return -ENOMEM;
	}
	ret0 = read_sb(v, 0, F2FS_MIN_BLKSIZE_BITS, &v->sb, r0, sizeof(r0));
	if (!ret0) {
		v->sb_index = 0;
		/* look at the secondary only to report it */
		if (read_sb(v, 1, le32_get(v->sb.log_blocksize), other, r1, sizeof(r1)))
			reject(v, F2FS_REJECTED_SB1, "superblock #1 rejected (%s); using #0", r1);
		free(other);
		return 0;
	}
	ret1 = read_secondary(v, other, r1, sizeof(r1));
	if (!ret1) {
		v->sb = *other;
		v->sb_index = 1;
		reject(v, F2FS_REJECTED_SB0, "superblock #0 rejected (%s); using #1", r0);
		free(other);
		return 0;
	}
	free(other);
	fs_say(why, why_len, "superblock: both copies invalid: #0: %s; #1: %s", r0, r1);
	return worse(ret0, ret1);
}

/* Which pack to use: the newer of those read, as the kernel picks; -1 when none was. */
static int newest_pack(const int ret[2], const uint64_t ver[2])
{
	if (ret[0] && ret[1])
		return -1;
	if (ret[0])
		return 1;
	if (ret[1])
		return 0;
	return ver[1] > ver[0] ? 1 : 0;
}

/*
 * The pack to read the volume from, and what was wrong with the other.
 * The kernel takes the newest pack whose checksums and versions hold and
 * refuses to mount when its fields are insane; it never falls back to the
 * older pack.  So when the newest is insane and the older is whole, the
 * older is used to read the volume (a repair writes a checkpoint from it,
 * which replaces the newest), and the newest is recorded as rejected with
 * F2FS_REJECTED_CP_NEWEST: an error, not the warning an older bad pack is.
 */
static int choose_pack(struct f2fs_volume *v, uint8_t *pack[2], int ret[2], uint64_t ver[2],
		       char r[2][REASON_LEN], char *why, size_t why_len)
{
	int best = newest_pack(ret, ver), i;

	if (best < 0) {
		fs_say(why, why_len, "checkpoint: both packs invalid: pack 1: %s; pack 2: %s", r[0],
		       r[1]);
		return worse(ret[0], ret[1]);
	}
	for (i = 0; i < 2; i++)
		if (!ret[i] &&
		    check_cp_fields(&v->sb, (struct f2fs_checkpoint *)pack[i], r[i], sizeof(r[i])))
			ret[i] = -EUCLEAN;
	if (ret[best] == -EUCLEAN) {
		if (ret[!best]) {
			fs_say(why, why_len,
			       "checkpoint: pack %d (the newest) is insane: %s; pack %d: %s",
			       best + 1, r[best], !best + 1, r[!best]);
			return -EINVAL;
		}
		reject(v, (best ? F2FS_REJECTED_CP2 : F2FS_REJECTED_CP1) | F2FS_REJECTED_CP_NEWEST,
		       "checkpoint pack %d (version %llu, the newest) is insane: %s; the kernel "
		       "refuses to mount it; read from pack %d (version %llu)",
		       best + 1, (unsigned long long)ver[best], r[best], !best + 1,
		       (unsigned long long)ver[!best]);
		return !best;
	}
	if (ret[!best])
		reject(v, best ? F2FS_REJECTED_CP1 : F2FS_REJECTED_CP2,
		       "checkpoint pack %d rejected (%s); using pack %d", !best + 1, r[!best],
		       best + 1);
	return best;
}

static int pick_cp(struct f2fs_volume *v, char *why, size_t why_len)
{
	uint8_t *pack[2];
	char r[2][REASON_LEN] = {"", ""};
	int ret[2], i, best;
	uint64_t start[2], ver[2];

	pack[0] = calloc(1, sizeof(v->cp_raw));
	pack[1] = calloc(1, sizeof(v->cp_raw));
	if (!pack[0] || !pack[1]) {
		free(pack[0]);
		free(pack[1]);
		fs_say(why, why_len, "checkpoint: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < 2; i++) {
		start[i] = f2fs_sb_cp_pack_addr(&v->sb, (unsigned int)i);
		ret[i] = read_cp_pack(v->dev, &v->sb, start[i], pack[i], r[i], sizeof(r[i]));
		ver[i] = ret[i] ? 0 : le64_get(((struct f2fs_checkpoint *)pack[i])->checkpoint_ver);
	}
	best = choose_pack(v, pack, ret, ver, r, why, why_len);
	if (best >= 0) {
		memcpy(v->cp_raw, pack[best], sizeof(v->cp_raw));
		v->cp_index = best;
		v->cp_version = ver[best];
		v->cp_start = (uint32_t)start[best];
	}
	free(pack[0]);
	free(pack[1]);
	return best < 0 ? best : 0;
}

/* Add to @why that the device ends before the volume: why its packs could not be read. */
static void say_cut_short(const struct f2fs_volume *v, char *why, size_t why_len)
{
	size_t used = why ? strnlen(why, why_len) : 0;

	if (why && used + 1 < why_len)
		fs_say(why + used, why_len - used,
		       "; the device ends at block %llu, before block_count %llu",
		       (unsigned long long)v->dev_blocks,
		       (unsigned long long)le64_get(v->sb.block_count));
}

/*
 * A volume on @dev with its superblock picked, or NULL (with @why).  With
 * @members_open, a multi-device superblock must find all its devices open.
 */
static struct f2fs_volume *volume_with_sb(struct f2fs_device *dev, bool allow_short,
					  bool members_open, int *ret, char *why, size_t why_len)
{
	struct f2fs_volume *v = calloc(1, sizeof(*v));

	fs_say(why, why_len, "%s", "");
	if (!v) {
		fs_say(why, why_len, "out of memory");
		*ret = -ENOMEM;
		return NULL;
	}
	v->dev = dev;
	v->dev_bytes = f2fs_dev_get_info(dev)->size_bytes;
	v->members = members_open ? f2fs_dev_members(dev) : 0;
	v->allow_short = allow_short;
	*ret = pick_sb(v, why, why_len);
	if (*ret) {
		free(v);
		return NULL;
	}
	v->dev_blocks = v->dev_bytes / f2fs_sb_blksize(&v->sb);
	return v;
}

int f2fs_volume_open(struct f2fs_device *dev, bool allow_short, struct f2fs_volume **out, char *why,
		     size_t why_len)
{
	int ret;
	struct f2fs_volume *v = volume_with_sb(dev, allow_short, true, &ret, why, why_len);

	*out = NULL;
	if (!v)
		return ret;
	ret = pick_cp(v, why, why_len);
	if (ret) {
		if (f2fs_volume_truncated(v))
			say_cut_short(v, why, why_len);
		free(v);
		return ret;
	}
	*out = v;
	return 0;
}

int f2fs_volume_read_super(struct f2fs_device *dev, struct f2fs_super_block *sb, char *why,
			   size_t why_len)
{
	int ret;
	struct f2fs_volume *v = volume_with_sb(dev, true, false, &ret, why, why_len);

	if (v)
		*sb = v->sb;
	free(v);
	return ret;
}

void f2fs_volume_close(struct f2fs_volume *v)
{
	free(v);
}

const struct f2fs_super_block *f2fs_volume_sb(const struct f2fs_volume *v)
{
	return &v->sb;
}

void f2fs_volume_set_sb(struct f2fs_volume *v, const struct f2fs_super_block *sb)
{
	v->sb = *sb;
	v->rejected &= ~(unsigned int)F2FS_REJECTED_SB;
	v->sb_rejected[0] = '\0';
}

const struct f2fs_checkpoint *f2fs_volume_cp(const struct f2fs_volume *v)
{
	return (const struct f2fs_checkpoint *)v->cp_raw;
}

int f2fs_volume_sb_index(const struct f2fs_volume *v)
{
	return v->sb_index;
}

int f2fs_volume_cp_index(const struct f2fs_volume *v)
{
	return v->cp_index;
}

uint64_t f2fs_volume_cp_version(const struct f2fs_volume *v)
{
	return v->cp_version;
}

uint32_t f2fs_volume_cp_start(const struct f2fs_volume *v)
{
	return v->cp_start;
}

struct f2fs_device *f2fs_volume_device(const struct f2fs_volume *v)
{
	return v->dev;
}

const char *f2fs_volume_warning(const struct f2fs_volume *v)
{
	return v->has_warning ? v->warning : NULL;
}

unsigned int f2fs_volume_rejected(const struct f2fs_volume *v)
{
	return v->rejected;
}

const char *f2fs_volume_rejected_why(const struct f2fs_volume *v, unsigned int which)
{
	if (!(v->rejected & which))
		return NULL;
	return which & F2FS_REJECTED_SB ? v->sb_rejected : v->cp_rejected;
}

uint64_t f2fs_volume_device_blocks(const struct f2fs_volume *v)
{
	return v->dev_blocks;
}

bool f2fs_volume_truncated(const struct f2fs_volume *v)
{
	return needed_blocks(&v->sb) > v->dev_blocks;
}

/* ---- for the write path (fs_internal.h) ---- */

static void take_cp(struct f2fs_volume *v, const void *cp_block, int cp_index)
{
	const struct f2fs_checkpoint *cp = cp_block;

	memcpy(v->cp_raw, cp_block, f2fs_sb_blksize(&v->sb));
	v->cp_index = cp_index;
	v->cp_version = le64_get(cp->checkpoint_ver);
	v->cp_start = f2fs_sb_cp_pack_addr(&v->sb, (unsigned int)cp_index);
}

int f2fs_volume_new(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		    const void *cp_block, int cp_index, struct f2fs_volume **out)
{
	struct f2fs_volume *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return -ENOMEM;
	v->dev = dev;
	v->sb = *sb;
	v->dev_bytes = f2fs_dev_get_info(dev)->size_bytes;
	v->dev_blocks = v->dev_bytes / f2fs_sb_blksize(sb);
	v->members = f2fs_dev_members(dev);
	take_cp(v, cp_block, cp_index);
	*out = v;
	return 0;
}

void f2fs_volume_set_cp(struct f2fs_volume *v, const void *cp_block, int cp_index)
{
	take_cp(v, cp_block, cp_index);
}
