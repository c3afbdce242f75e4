// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the read path: superblock and checkpoint choice, the
 * pack's contents, the SIT, the NAT and the SSA loaded through the
 * filesystem handle, and the whole checker on that handle.
 *
 * Input format: byte 0 holds flags, the rest is cut into 4 KiB chunks that
 * replace, in order, a fixed list of interesting blocks of a valid image
 * (see add_blocks(): superblocks, checkpoint packs, first SIT/NAT blocks,
 * the SSA blocks and first blocks of the six open logs, where the root
 * inode, its dentry block and the quota/lost+found inodes live).  A short
 * input replaces only a prefix; a partial last chunk only its first bytes.
 *
 *   flags bits 0-1  which seed image (0: defaults, 1: many inode features
 *                   and sb_checksum, 2: 4 segments per section), 3 = 0
 *         bit 2     re-seal the superblocks (sb_checksum) after the overlay
 *         bit 3     re-seal the checkpoint blocks (head and tail of a pack)
 *         bit 4     re-seal inode checksums of overlaid main-area blocks
 *         bit 5     pass problem/section callbacks to f2fs_check
 *         bit 6     load the tables in reverse order (SSA, NAT, SIT, pack data)
 *
 * The seed images are formatted once into memory devices (64 MiB, 192 MiB
 * for the large sections); after each
 * input the overlaid blocks are put back, so an iteration costs only the
 * check itself.
 *
 * Built with -DUSE_LIBFUZZER (clang -fsanitize=fuzzer) it is a libFuzzer
 * target.  Otherwise main() is a standalone driver:
 *   fuzz_parsers FILE...          run each file as one input
 *   fuzz_parsers -n N [-s SEED] [-f FIRST] [-S SAVE] [-q]
 *                                 run iterations FIRST..FIRST+N-1 of random
 *                                 mutations of the seed images; iteration i
 *                                 depends only on SEED and i, and with -S
 *                                 each input is written to SAVE before it
 *                                 runs (so after a crash SAVE reproduces it)
 *   fuzz_parsers -C DIR           write the unmutated seed inputs to DIR
 *                                 (a starting corpus for libFuzzer)
 * Invariants of the API contract that are not memory errors (a reason that
 * is not one terminated line, a failed f2fs_check without fatal set...)
 * abort() with a message, so both modes report them as crashes.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_LSAN 1
#endif
#endif
#ifdef HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

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
	const char *name;
	const char *features;
	uint32_t segs_per_sec;
	uint64_t bytes; /* device size */
	struct f2fs_device *dev;
	uint32_t features_bits;
	uint32_t chksum_seed;
	uint32_t nblocks;
	uint64_t blk[MAX_CHUNKS];
	uint8_t role[MAX_CHUNKS];
	uint8_t *orig; /* nblocks x BLK: the blocks as formatted */
};

static struct seed seeds[NR_SEEDS] = {
    {.name = "default", .features = NULL, .segs_per_sec = 1, .bytes = 64ull << 20},
    {.name = "features",
     .features = "extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found,"
		 "sb_checksum,inode_crtime,project_quota",
     .segs_per_sec = 1,
     .bytes = 64ull << 20},
    {.name = "large-section",
     .features = "extra_attr,inode_checksum,lost_found",
     .segs_per_sec = 4,
     .bytes = 192ull << 20},
};

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz_parsers: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* A reason buffer must hold one NUL-terminated line. */
static void check_why(const char *what, const char *why, size_t len, int ret)
{
	size_t n = strnlen(why, len);

	if (n == len)
		die("%s: reason is not NUL-terminated", what);
	if (memchr(why, '\n', n))
		die("%s: reason has a newline: %s", what, why);
	if (ret && !n)
		die("%s: failed (%d) without a reason", what, ret);
	if (ret > 0)
		die("%s: returned positive %d", what, ret);
}

static void add_block(struct seed *s, uint64_t blk, enum role r)
{
	uint32_t i;

	if (blk >= s->bytes / BLK || s->nblocks >= MAX_CHUNKS)
		return;
	for (i = 0; i < s->nblocks; i++)
		if (s->blk[i] == blk)
			return;
	s->blk[s->nblocks] = blk;
	s->role[s->nblocks] = (uint8_t)r;
	s->nblocks++;
}

/* The blocks an input overlays, most interesting first. */
static void add_blocks(struct seed *s, const struct f2fs_layout *l)
{
	struct f2fs_checkpoint *cp = malloc(BLK);
	uint32_t pack, total, i, b, sit_copy, nat_copy;

	if (!cp)
		die("out of memory");
	add_block(s, 0, R_SB);
	add_block(s, 1, R_SB);
	for (pack = 0; pack < 2; pack++) {
		uint64_t start = l->cp_blkaddr + (uint64_t)pack * SEG_BLKS;

		if (f2fs_dev_read(s->dev, cp, start * BLK, BLK))
			die("cannot read the seed checkpoint");
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

static void format_seed(struct seed *s)
{
	struct f2fs_mkfs_config cfg;
	struct f2fs_layout_params p;
	struct f2fs_layout l;
	struct f2fs_mkfs_result res;
	struct f2fs_super_block *sb;
	uint8_t *buf;
	char why[200] = "";
	uint32_t i;

	f2fs_mkfs_config_init(&cfg);
	p = cfg.geometry;
	p.total_sectors = s->bytes / 512;
	p.segs_per_sec = s->segs_per_sec;
	if (f2fs_layout_compute(&p, &l, why, sizeof(why)))
		die("seed %s: layout: %s", s->name, why);
	cfg.geometry = p;
	if (s->features && f2fs_feature_parse(s->features, &cfg.features, why, sizeof(why)))
		die("seed %s: features: %s", s->name, why);
	cfg.fixed_time = 1700000000;
	cfg.fixed_cp_version = true;
	cfg.discard = false;
	snprintf(cfg.kernel_version, sizeof(cfg.kernel_version), "fuzz seed");
	if (f2fs_dev_open_memory(s->bytes, &s->dev))
		die("seed %s: no memory for the device", s->name);
	if (f2fs_mkfs_format(s->dev, &cfg, &l, &res))
		die("seed %s: mkfs failed", s->name);
	add_blocks(s, &l);
	s->orig = malloc((size_t)s->nblocks * BLK);
	if (!s->orig)
		die("out of memory");
	for (i = 0; i < s->nblocks; i++)
		if (f2fs_dev_read(s->dev, s->orig + (size_t)i * BLK, s->blk[i] * BLK, BLK))
			die("seed %s: read failed", s->name);
	buf = s->orig;
	sb = (struct f2fs_super_block *)(buf + F2FS_SUPER_OFFSET);
	s->features_bits = le32_get(sb->feature);
	s->chksum_seed = f2fs_inode_chksum_seed(sb->uuid);
}

static void init_seeds(void)
{
	static bool done;
	int i;

	if (done)
		return;
	for (i = 0; i < NR_SEEDS; i++)
		format_seed(&seeds[i]);
	done = true;
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
			f2fs_cp_seal(cp);
	} else if (r == R_MAIN && (flags & FL_SEAL_NODE)) {
		struct f2fs_node *n = (struct f2fs_node *)b;

		if (n->footer.nid == n->footer.ino && n->footer.ino)
			f2fs_inode_seal(n, s->features_bits, s->chksum_seed);
	}
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
		die("problem code %d has no table row", (int)p->code);
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
		die("section %u: type %d, log %d out of range", s->secno, s->type, s->owner_log);
	st->sections++;
}

/* A table getter's result, checked against the handle's contract. */
static void check_load(struct f2fs_fs *fs, const char *what, int ret, const void *table, int again,
		       const void *table_again)
{
	const char *why = f2fs_fs_why(fs);

	check_why(what, why, strlen(why) + 1, ret);
	if (ret ? table != NULL : table == NULL)
		die("%s: returned %d with table %p", what, ret, table);
	if (again != ret || table_again != table)
		die("%s: second call gave %d (%p), first %d (%p)", what, again, table_again, ret,
		    table);
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
				die("nat: last nid %u not in the table", f2fs_nat_max_nid(nat) - 1);
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
		die("volume: superblock/checkpoint index out of range");
	if (rej & ~(unsigned int)(F2FS_REJECTED_SB | F2FS_REJECTED_CP))
		die("volume: rejected mask 0x%x has unknown bits", rej);
	if (!(rej & F2FS_REJECTED_SB) != !sb || !(rej & F2FS_REJECTED_CP) != !cp)
		die("volume: rejected mask 0x%x, reasons %s/%s", rej, sb ? "sb" : "-",
		    cp ? "cp" : "-");
	if (!rej != !f2fs_volume_warning(v))
		die("volume: rejected mask 0x%x but warning %s", rej,
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
		die("f2fs_check failed (%d) without fatal", ret);
	if (!ret && res.fatal)
		die("f2fs_check succeeded with fatal set: %s", res.fatal_why);
	if (load && ret != load)
		die("f2fs_check returned %d on a handle whose tables failed with %d", ret, load);
	if (!ret) {
		stats.checked++;
		if (res.problems)
			stats.with_problems++;
	}
	if ((flags & FL_CALLBACKS) && st.problems > res.problems)
		die("%u problems reported, %u counted", st.problems, res.problems);
	if ((flags & FL_CALLBACKS) && st.warnings != res.warnings)
		die("%u warnings reported, %u counted", st.warnings, res.warnings);
	if (res.failed_lines & ~((1u << F2FS_NR_LINES) - 1))
		die("failed_lines 0x%x has unknown bits", res.failed_lines);
	if (!ret && !res.problems != !res.failed_lines)
		die("%u problems but failed_lines 0x%x", res.problems, res.failed_lines);
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
		die("f2fs_fs_open returned %d with handle %p", ret, (void *)fs);
	if (ret)
		return;
	stats.opened++;
	check_volume(f2fs_fs_volume(fs));
	load_tables(fs, flags & FL_REVERSE);
	run_check(fs, flags);
	f2fs_fs_close(fs);
}

static void run_input(const uint8_t *data, size_t size)
{
	unsigned int flags;
	struct seed *s;
	uint8_t blk[BLK];
	size_t i, n, len;

	init_seeds();
	if (size < 1)
		return;
	flags = data[0];
	stats.inputs++;
	s = &seeds[(flags & FL_SEED_MASK) % NR_SEEDS];
	data++;
	size--;
	n = (size + BLK - 1) / BLK;
	if (n > s->nblocks)
		n = s->nblocks;
	for (i = 0; i < n; i++) {
		len = size - i * BLK < BLK ? size - i * BLK : BLK;
		memcpy(blk, s->orig + i * BLK, BLK);
		memcpy(blk, data + i * BLK, len);
		seal_block(s, blk, (enum role)s->role[i], flags);
		if (f2fs_dev_write(s->dev, blk, s->blk[i] * BLK, BLK))
			die("overlay write failed");
	}
	run_fs(s->dev, flags);
	for (i = 0; i < n; i++)
		if (f2fs_dev_write(s->dev, s->orig + i * BLK, s->blk[i] * BLK, BLK))
			die("restore write failed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_input(data, size);
	return 0;
}

#ifndef USE_LIBFUZZER
/* ---- standalone driver ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static void put_le(uint8_t *p, size_t room, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes && i < room; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Build input @iter of the run with @seed into @buf; returns its size. */
static size_t make_input(uint64_t seed, uint64_t iter, uint8_t *buf)
{
	static const uint64_t magic[] = {
	    0,	     1,	       2,	   3,	       0x7f,	   0x80,       0xff,   0x100,
	    0x1ff,   0x200,    0x201,	   0x3ff,      0xfff,	   0x1000,     0x7fff, 0xffff,
	    0x10000, 0x3fffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 16384,  16383};
	const struct seed *s;
	size_t size, ofs;
	uint32_t nmut, m, chunk;

	rng_state = seed * 0x100000001b3ull ^ (iter + 1) * 0xcbf29ce484222325ull;
	rnd();
	buf[0] = (uint8_t)rnd_below(NR_SEEDS);
	/* mostly re-seal, so the mutation gets past the checksums */
	if (rnd_below(4))
		buf[0] |= FL_SEAL_SB;
	if (rnd_below(4))
		buf[0] |= FL_SEAL_CP;
	if (rnd_below(4))
		buf[0] |= FL_SEAL_NODE;
	if (rnd_below(2))
		buf[0] |= FL_CALLBACKS;
	if (rnd_below(4) == 0)
		buf[0] |= FL_REVERSE;
	s = &seeds[buf[0] & FL_SEED_MASK];
	memcpy(buf + 1, s->orig, (size_t)s->nblocks * BLK);
	size = 1 + (size_t)s->nblocks * BLK;
	nmut = 1 + rnd_below(rnd_below(4) ? 4 : 32);
	for (m = 0; m < nmut; m++) {
		/* bias towards the superblock, checkpoint and first chunks */
		chunk = rnd_below(3) ? rnd_below(s->nblocks < 12 ? s->nblocks : 12)
				     : rnd_below(s->nblocks);
		if (rnd_below(2))
			ofs = rnd_below(s->role[chunk] == R_SB ? 1024 + 256 : 256);
		else
			ofs = rnd_below(BLK);
		if (s->role[chunk] == R_MAIN && rnd_below(4) == 0)
			ofs = BLK - 24 + rnd_below(24); /* node footer */
		ofs += 1 + (size_t)chunk * BLK;
		switch (rnd_below(7)) {
		case 0:
			buf[ofs] ^= (uint8_t)(1u << rnd_below(8));
			break;
		case 1:
			buf[ofs] = (uint8_t)rnd();
			break;
		case 2:
			put_le(buf + ofs, size - ofs, magic[rnd_below(sizeof(magic) / 8)], 2);
			break;
		case 3:
			put_le(buf + ofs, size - ofs, magic[rnd_below(sizeof(magic) / 8)], 4);
			break;
		case 4:
			put_le(buf + ofs, size - ofs, rnd_below(4096), 4);
			break;
		case 5: {
			/* add or subtract a little from a 32-bit field */
			uint32_t v = 0;
			unsigned int i;

			for (i = 0; i < 4 && ofs + i < size; i++)
				v |= (uint32_t)buf[ofs + i] << (8 * i);
			v += (uint32_t)rnd_below(17) - 8;
			put_le(buf + ofs, size - ofs, v, 4);
			break;
		}
		default: {
			size_t len = 1 + rnd_below(64);

			if (len > size - ofs)
				len = size - ofs;
			memset(buf + ofs, rnd_below(2) ? 0 : 0xff, len);
		}
		}
	}
	if (rnd_below(16) == 0)
		size = 1 + rnd_below((uint32_t)size); /* a prefix only */
	return size;
}

static int write_file(const char *path, const uint8_t *buf, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -errno;
	if (fwrite(buf, 1, size, f) != size) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t cap = 1 + MAX_CHUNKS * BLK, size;

	if (!f) {
		perror(path);
		return 1;
	}
	buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return 1;
	}
	size = fread(buf, 1, cap, f);
	fclose(f);
	run_input(buf, size);
	free(buf);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: fuzz_parsers FILE...\n"
			"       fuzz_parsers -n N [-s SEED] [-f FIRST] [-S SAVE] [-q]\n"
			"       fuzz_parsers -C DIR\n");
	exit(2);
}

static void free_seeds(void)
{
	int i;

	for (i = 0; i < NR_SEEDS; i++) {
		f2fs_dev_close(seeds[i].dev);
		free(seeds[i].orig);
		seeds[i].dev = NULL;
		seeds[i].orig = NULL;
	}
}

int main(int argc, char **argv)
{
	uint64_t n = 0, seed = 1, first = 0, i;
	const char *save = NULL, *corpus = NULL;
	bool quiet = false, random_mode = false;
	uint8_t *buf;
	int a, rc = 0;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-q")) {
			quiet = true;
			continue;
		}
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "-n")) {
			n = strtoull(argv[++a], NULL, 0);
			random_mode = true;
		} else if (!strcmp(argv[a], "-s")) {
			seed = strtoull(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "-f")) {
			first = strtoull(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "-S")) {
			save = argv[++a];
		} else if (!strcmp(argv[a], "-C")) {
			corpus = argv[++a];
		} else {
			usage();
		}
	}
	init_seeds();
	if (corpus) {
		char path[4096];
		int k;

		buf = malloc(1 + MAX_CHUNKS * BLK);
		if (!buf)
			return 1;
		for (k = 0; k < NR_SEEDS; k++) {
			buf[0] = (uint8_t)(k | FL_SEAL_SB | FL_SEAL_CP | FL_SEAL_NODE);
			memcpy(buf + 1, seeds[k].orig, (size_t)seeds[k].nblocks * BLK);
			snprintf(path, sizeof(path), "%s/seed-%s", corpus, seeds[k].name);
			if (write_file(path, buf, 1 + (size_t)seeds[k].nblocks * BLK)) {
				perror(path);
				rc = 1;
			}
		}
		free(buf);
		free_seeds();
		return rc;
	}
	if (!random_mode) {
		if (a >= argc)
			usage();
		for (; a < argc; a++) {
			if (!quiet)
				printf("running %s\n", argv[a]);
			rc |= run_file(argv[a]);
		}
		free_seeds();
		return rc;
	}
	if (a != argc)
		usage();
	buf = malloc(1 + MAX_CHUNKS * BLK);
	if (!buf)
		return 1;
	for (i = first; i < first + n; i++) {
		size_t size = make_input(seed, i, buf);

		if (save && write_file(save, buf, size)) {
			perror(save);
			return 1;
		}
		run_input(buf, size);
#ifdef HAVE_LSAN
		/* leaks show up per window, not only at exit */
		if ((i + 1 - first) % 500 == 0 && __lsan_do_recoverable_leak_check())
			die("leak within iterations %llu..%llu (seed %llu)",
			    (unsigned long long)(i >= first + 499 ? i - 499 : first),
			    (unsigned long long)i, (unsigned long long)seed);
#endif
		if (!quiet && (i + 1 - first) % 1000 == 0)
			printf("%llu iterations\n", (unsigned long long)(i + 1 - first));
	}
	free(buf);
	free_seeds();
	printf("fuzz_parsers: %llu iterations from %llu, seed %llu: ok\n", (unsigned long long)n,
	       (unsigned long long)first, (unsigned long long)seed);
	printf("fuzz_parsers: volume opened %llu, pack loaded %llu, SIT %llu, NAT %llu, "
	       "checked %llu (%llu with problems)\n",
	       stats.opened, stats.cp_loaded, stats.sit_loaded, stats.nat_loaded, stats.checked,
	       stats.with_problems);
	return 0;
}
#endif
