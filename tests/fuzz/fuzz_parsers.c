// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the read path: superblock and checkpoint choice, the
 * pack's contents, the SIT, the NAT and the SSA loaded through the
 * filesystem handle, and the whole checker on that handle.
 *
 * Input format (fuzz_driver.h): byte 0 holds flags, the rest is cut into
 * 4 KiB chunks that replace, in order, a fixed list of interesting blocks
 * of a valid image (see add_blocks(): superblocks, checkpoint packs, first
 * SIT/NAT blocks, the SSA blocks and first blocks of the six open logs,
 * where the root inode, its dentry block and the quota/lost+found inodes
 * live).  A short input replaces only a prefix; a partial last chunk only
 * its first bytes.
 *
 *   flags bits 0-1  which seed image (0: defaults, 1: many inode features
 *                   and sb_checksum, 2: 4 segments per section), 3 = 0
 *         bit 2     re-seal the superblocks (sb_checksum) after the overlay
 *         bit 3     re-seal the checkpoint blocks (head and tail of a pack)
 *         bit 4     re-seal inode checksums of overlaid main-area blocks
 *         bit 5     pass problem/section callbacks to f2fs_check
 *         bit 6     load the tables in reverse order (SSA, NAT, SIT, pack data)
 *
 * The seed images are 64 MiB memory devices (192 MiB for the large
 * sections).  Built with -DUSE_LIBFUZZER it is a libFuzzer target;
 * otherwise main() is the standalone driver of fuzz_driver.c (fuzz_parsers
 * FILE..., -n N [-s SEED] [-f FIRST] [-S SAVE] [-q], -C DIR).
 * Invariants of the API contract that are not memory errors (a reason that
 * is not one terminated line, a failed f2fs_check without fatal set...)
 * abort() with a message, so both modes report them as crashes.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"

#include "fuzz_driver.h"

#define BLK	   F2FS_BLKSIZE
#define SEG_BLKS   F2FS_DEFAULT_BLKS_PER_SEG
#define MAX_CHUNKS 64
#define NR_SEEDS   3

#define FL_SEED_MASK 0x03
#define FL_SEAL_SB   0x04
#define FL_SEAL_CP   0x08
#define FL_SEAL_NODE 0x10
#define FL_CALLBACKS 0x20
#define FL_REVERSE   0x40

enum role { R_SB, R_CP, R_MAIN, R_OTHER };

struct seed {
	struct fuzz_image img;
	uint32_t features_bits;
	uint32_t chksum_seed;
};

_Static_assert(MAX_CHUNKS <= FUZZ_MAX_CHUNKS, "block list longer than the driver's");

static struct seed seeds[NR_SEEDS] = {
    {.img = {.name = "default", .features = NULL, .segs_per_sec = 1, .bytes = 64ull << 20}},
    {.img = {.name = "features",
	     .features = "extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found,"
			 "sb_checksum,inode_crtime,project_quota",
	     .segs_per_sec = 1,
	     .bytes = 64ull << 20}},
    {.img = {.name = "large-section",
	     .features = "extra_attr,inode_checksum,lost_found",
	     .segs_per_sec = 4,
	     .bytes = 192ull << 20}},
};

/* A reason buffer must hold one NUL-terminated line. */
static void check_why(const char *what, const char *why, size_t len, int ret)
{
	size_t n = strnlen(why, len);

	if (n == len)
		fuzz_die("%s: reason is not NUL-terminated", what);
	if (memchr(why, '\n', n))
		fuzz_die("%s: reason has a newline: %s", what, why);
	if (ret && !n)
		fuzz_die("%s: failed (%d) without a reason", what, ret);
	if (ret > 0)
		fuzz_die("%s: returned positive %d", what, ret);
}

static void add_block(struct seed *s, uint64_t blk, enum role r)
{
	uint32_t i;

	if (blk >= s->img.bytes / BLK || s->img.nblocks >= MAX_CHUNKS)
		return;
	for (i = 0; i < s->img.nblocks; i++)
		if (s->img.blk[i] == blk)
			return;
	s->img.blk[s->img.nblocks] = blk;
	s->img.role[s->img.nblocks] = (uint8_t)r;
	s->img.nblocks++;
}

/* The blocks an input overlays, most interesting first. */
static void add_blocks(struct seed *s, const struct f2fs_layout *l)
{
	struct f2fs_checkpoint *cp = malloc(BLK);
	uint32_t pack, total, i, b, sit_copy, nat_copy;

	if (!cp)
		fuzz_die("out of memory");
	add_block(s, 0, R_SB);
	add_block(s, 1, R_SB);
	for (pack = 0; pack < 2; pack++) {
		uint64_t start = l->cp_blkaddr + (uint64_t)pack * SEG_BLKS;

		fuzz_read_block(&s->img, start, cp);
		total = le32_get(cp->cp_pack_total_block_count);
		if (total < 2 || total > SEG_BLKS)
			total = 2;
		add_block(s, start, R_CP);
		add_block(s, start + total - 1, R_CP);
		for (i = 1; i + 1 < total && i < (pack ? 3u : 8u); i++)
			add_block(s, start + i, R_OTHER);
	}
	nat_copy = l->segment_count_nat / 2 * SEG_BLKS;
	sit_copy = l->segment_count_sit / 2 * SEG_BLKS;
	add_block(s, l->nat_blkaddr, R_OTHER);
	add_block(s, l->nat_blkaddr + nat_copy, R_OTHER);
	add_block(s, l->sit_blkaddr, R_OTHER);
	add_block(s, l->sit_blkaddr + 1, R_OTHER);
	add_block(s, l->sit_blkaddr + sit_copy, R_OTHER);
	/* hot node (root inode), hot data (root dentries), then the other logs */
	for (b = 0; b < 4; b++)
		for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
			uint32_t log = (i + 3) % F2FS_NR_CURSEG_TYPE; /* node logs first */

			add_block(s, f2fs_layout_seg_blkaddr(l, l->cur_seg[log]) + b, R_MAIN);
		}
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		add_block(s, l->ssa_blkaddr + l->cur_seg[i], R_OTHER);
	free(cp);
}

/* After mkfs: the block list, and what re-sealing needs from the superblock. */
static void build(unsigned int k, uint32_t features, const struct f2fs_layout *l)
{
	struct seed *s = &seeds[k];
	const struct f2fs_super_block *sb;
	uint8_t b[BLK];

	(void)features;
	add_blocks(s, l);
	fuzz_read_block(&s->img, 0, b);
	sb = (const struct f2fs_super_block *)(b + F2FS_SUPER_OFFSET);
	s->features_bits = le32_get(sb->feature);
	s->chksum_seed = f2fs_inode_chksum_seed(sb->uuid);
}

static void seal_block(const struct seed *s, uint8_t *b, enum role r, unsigned int flags)
{
	if (r == R_SB && (flags & FL_SEAL_SB)) {
		struct f2fs_super_block *sb = (struct f2fs_super_block *)(b + F2FS_SUPER_OFFSET);

		/* seal by the seed's features: a fuzzed feature word still gets a crc */
		if (s->features_bits & F2FS_FEATURE_SB_CHKSUM) {
			sb->checksum_offset = le32_put(F2FS_SB_CHKSUM_OFFSET);
			sb->crc = le32_put(f2fs_block_crc(sb, F2FS_SB_CHKSUM_OFFSET));
		}
	} else if (r == R_CP && (flags & FL_SEAL_CP)) {
		struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)b;
		uint32_t ofs = le32_get(cp->checksum_offset);

		/* f2fs_cp_seal() stores at checksum_offset as is: keep it in the block */
		if (ofs <= F2FS_CP_CHKSUM_OFFSET)
			f2fs_cp_seal(cp, F2FS_BLKSIZE);
	} else if (r == R_MAIN && (flags & FL_SEAL_NODE)) {
		struct f2fs_node *n = (struct f2fs_node *)b;

		if (n->footer.nid == n->footer.ino && n->footer.ino)
			f2fs_inode_seal(f2fs_blkgeo_4k(), n, s->features_bits, s->chksum_seed);
	}
}

static void seal(unsigned int k, uint8_t *b, unsigned int role, unsigned int flags)
{
	seal_block(&seeds[k], b, (enum role)role, flags);
}

/* How far inputs got, for the standalone driver's summary. */
static struct {
	unsigned long long inputs, opened, cp_loaded, sit_loaded, nat_loaded, checked,
	    with_problems;
} stats;

struct cb_state {
	unsigned int problems, warnings, sections;
};

static void on_problem(const struct f2fs_problem *p, void *arg)
{
	struct cb_state *st = arg;
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	if (!info || !info->name || !info->structure || !info->summary)
		fuzz_die("problem code %d has no table row", (int)p->code);
	check_why(info->name, p->detail, sizeof(p->detail), 0);
	if (info->warning)
		st->warnings++;
	else
		st->problems++;
}

static void on_section(const struct f2fs_section_report *s, void *arg)
{
	struct cb_state *st = arg;

	/* type is the SIT's 6-bit field as stored: a bad one is a PR_SIT_TYPE problem */
	if (s->type < -1 || s->type > 63 || s->owner_log < -1 ||
	    s->owner_log >= F2FS_NR_CURSEG_TYPE)
		fuzz_die("section %u: type %d, log %d out of range", s->secno, s->type,
			 s->owner_log);
	st->sections++;
}

/* A table getter's result, checked against the handle's contract. */
static void check_load(struct f2fs_fs *fs, const char *what, int ret, const void *table, int again,
		       const void *table_again)
{
	const char *why = f2fs_fs_why(fs);

	check_why(what, why, strlen(why) + 1, ret);
	if (ret ? table != NULL : table == NULL)
		fuzz_die("%s: returned %d with table %p", what, ret, table);
	if (again != ret || table_again != table)
		fuzz_die("%s: second call gave %d (%p), first %d (%p)", what, again, table_again,
			 ret, table);
}

/* The handle's loads one by one (pack data, SIT, NAT, SSA, or the reverse). */
static void load_tables(struct f2fs_fs *fs, bool reverse)
{
	const struct f2fs_cp_data *cpd, *cpd2;
	const struct f2fs_sit_table *sit, *sit2;
	const struct f2fs_nat_table *nat, *nat2;
	struct f2fs_ssa *ssa, *ssa2;
	int r, r2, k;

	for (k = 0; k < 4; k++) {
		switch (reverse ? 3 - k : k) {
		case 0:
			r = f2fs_fs_cp_data(fs, &cpd);
			r2 = f2fs_fs_cp_data(fs, &cpd2);
			check_load(fs, "f2fs_fs_cp_data", r, cpd, r2, cpd2);
			stats.cp_loaded += !r;
			break;
		case 1:
			r = f2fs_fs_sit(fs, &sit);
			r2 = f2fs_fs_sit(fs, &sit2);
			check_load(fs, "f2fs_fs_sit", r, sit, r2, sit2);
			stats.sit_loaded += !r;
			break;
		case 2:
			r = f2fs_fs_nat(fs, &nat);
			r2 = f2fs_fs_nat(fs, &nat2);
			check_load(fs, "f2fs_fs_nat", r, nat, r2, nat2);
			stats.nat_loaded += !r;
			if (!r && f2fs_nat_max_nid(nat) &&
			    !f2fs_nat_get(nat, f2fs_nat_max_nid(nat) - 1))
				fuzz_die("nat: last nid %u not in the table",
					 f2fs_nat_max_nid(nat) - 1);
			break;
		default:
			r = f2fs_fs_ssa(fs, &ssa);
			r2 = f2fs_fs_ssa(fs, &ssa2);
			check_load(fs, "f2fs_fs_ssa", r, ssa, r2, ssa2);
			break;
		}
	}
}

/* What opening chose, and the copies it rejected. */
static void check_volume(const struct f2fs_volume *v)
{
	unsigned int rej = f2fs_volume_rejected(v);
	const char *sb = f2fs_volume_rejected_why(v, F2FS_REJECTED_SB);
	const char *cp = f2fs_volume_rejected_why(v, F2FS_REJECTED_CP);

	if (f2fs_volume_sb_index(v) < 0 || f2fs_volume_sb_index(v) > 1 ||
	    f2fs_volume_cp_index(v) < 0 || f2fs_volume_cp_index(v) > 1)
		fuzz_die("volume: superblock/checkpoint index out of range");
	if (rej & ~(unsigned int)(F2FS_REJECTED_SB | F2FS_REJECTED_CP))
		fuzz_die("volume: rejected mask 0x%x has unknown bits", rej);
	if (!(rej & F2FS_REJECTED_SB) != !sb || !(rej & F2FS_REJECTED_CP) != !cp)
		fuzz_die("volume: rejected mask 0x%x, reasons %s/%s", rej, sb ? "sb" : "-",
			 cp ? "cp" : "-");
	if (!rej != !f2fs_volume_warning(v))
		fuzz_die("volume: rejected mask 0x%x but warning %s", rej,
			 f2fs_volume_warning(v) ? "set" : "unset");
	if (sb)
		check_why("superblock rejected", sb, strlen(sb) + 1, 0);
	if (cp)
		check_why("checkpoint rejected", cp, strlen(cp) + 1, 0);
	if (f2fs_volume_warning(v))
		check_why("f2fs_volume_warning", f2fs_volume_warning(v), 4096, 0);
}

static void run_check(struct f2fs_fs *fs, unsigned int flags)
{
	struct f2fs_check_options o = {0};
	struct f2fs_check_result res;
	struct cb_state st = {0};
	int ret, load;

	if (flags & FL_CALLBACKS) {
		o.on_problem = on_problem;
		o.on_section = on_section;
		o.arg = &st;
	}
	load = f2fs_fs_load_all(fs);
	ret = f2fs_check(fs, &o, &res);
	check_why("f2fs_check", res.fatal_why, sizeof(res.fatal_why), ret);
	if (ret && !res.fatal)
		fuzz_die("f2fs_check failed (%d) without fatal", ret);
	if (!ret && res.fatal)
		fuzz_die("f2fs_check succeeded with fatal set: %s", res.fatal_why);
	if (load && ret != load)
		fuzz_die("f2fs_check returned %d on a handle whose tables failed with %d", ret,
			 load);
	if (!ret) {
		stats.checked++;
		if (res.problems)
			stats.with_problems++;
	}
	if ((flags & FL_CALLBACKS) && st.problems > res.problems)
		fuzz_die("%u problems reported, %u counted", st.problems, res.problems);
	if ((flags & FL_CALLBACKS) && st.warnings != res.warnings)
		fuzz_die("%u warnings reported, %u counted", st.warnings, res.warnings);
	if (res.failed_lines & ~((1u << F2FS_NR_LINES) - 1))
		fuzz_die("failed_lines 0x%x has unknown bits", res.failed_lines);
	if (!ret && !res.problems != !res.failed_lines)
		fuzz_die("%u problems but failed_lines 0x%x", res.problems, res.failed_lines);
}

/* Open the volume, load its tables through the handle and check it. */
static void run_fs(struct f2fs_device *dev, unsigned int flags)
{
	struct f2fs_fs *fs = NULL;
	char why[200];
	int ret;

	memset(why, 0, sizeof(why));
	ret = f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why));
	check_why("f2fs_fs_open", why, sizeof(why), ret);
	if (ret ? fs != NULL : fs == NULL)
		fuzz_die("f2fs_fs_open returned %d with handle %p", ret, (void *)fs);
	if (ret)
		return;
	stats.opened++;
	check_volume(f2fs_fs_volume(fs));
	load_tables(fs, flags & FL_REVERSE);
	run_check(fs, flags);
	f2fs_fs_close(fs);
}

static void run(unsigned int k, unsigned int flags, const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	stats.inputs++;
	run_fs(seeds[k].img.dev, flags);
}

/* Standalone: a random input's flags, mostly re-sealing to get past the checksums. */
static uint8_t random_flags(void)
{
	uint8_t flags = (uint8_t)fuzz_rnd_below(NR_SEEDS);

	if (fuzz_rnd_below(4))
		flags |= FL_SEAL_SB;
	if (fuzz_rnd_below(4))
		flags |= FL_SEAL_CP;
	if (fuzz_rnd_below(4))
		flags |= FL_SEAL_NODE;
	if (fuzz_rnd_below(2))
		flags |= FL_CALLBACKS;
	if (fuzz_rnd_below(4) == 0)
		flags |= FL_REVERSE;
	return flags;
}

/* Standalone: where a mutation goes, biased towards the superblock, checkpoint and first chunks. */
static size_t aim(unsigned int k)
{
	const struct fuzz_image *s = &seeds[k].img;
	uint32_t chunk;
	size_t ofs;

	chunk = fuzz_rnd_below(3) ? fuzz_rnd_below(s->nblocks < 12 ? s->nblocks : 12)
				  : fuzz_rnd_below(s->nblocks);
	if (fuzz_rnd_below(2))
		ofs = fuzz_rnd_below(s->role[chunk] == R_SB ? 1024 + 256 : 256);
	else
		ofs = fuzz_rnd_below(BLK);
	if (s->role[chunk] == R_MAIN && fuzz_rnd_below(4) == 0)
		ofs = BLK - 24 + fuzz_rnd_below(24); /* node footer */
	return 1 + (size_t)chunk * BLK + ofs;
}

static const enum fuzz_op ops[] = {FUZZ_FLIP,  FUZZ_BYTE,  FUZZ_MAGIC16, FUZZ_MAGIC32,
				   FUZZ_SMALL, FUZZ_NUDGE, FUZZ_FILL};

static const uint64_t magic[] = {0,	     1,		 2,	     3,		 0x7f,	  0x80,
				 0xff,	     0x100,	 0x1ff,	     0x200,	 0x201,	  0x3ff,
				 0xfff,	     0x1000,	 0x7fff,     0xffff,	 0x10000, 0x3fffff,
				 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 16384,	  16383};

static void report(void)
{
	printf("fuzz_parsers: volume opened %llu, pack loaded %llu, SIT %llu, NAT %llu, "
	       "checked %llu (%llu with problems)\n",
	       stats.opened, stats.cp_loaded, stats.sit_loaded, stats.nat_loaded, stats.checked,
	       stats.with_problems);
}

const struct fuzz_target fuzz_target = {
    .name = "fuzz_parsers",
    .images = {&seeds[0].img, &seeds[1].img, &seeds[2].img},
    .nr_images = NR_SEEDS,
    .image_mask = FL_SEED_MASK,
    .max_chunks = MAX_CHUNKS,
    .corpus_flags = FL_SEAL_SB | FL_SEAL_CP | FL_SEAL_NODE,
    .build = build,
    .seal = seal,
    .run = run,
    .random_flags = random_flags,
    .aim = aim,
    .mutate = {.few = 4,
	       .many = 32,
	       .ops = ops,
	       .nr_ops = sizeof(ops) / sizeof(ops[0]),
	       .magic = magic,
	       .nr_magic = sizeof(magic) / sizeof(magic[0]),
	       .nudge = 8,
	       .fill = 64},
    .report = report,
};
