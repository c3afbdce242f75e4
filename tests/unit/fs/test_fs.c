// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the filesystem handle (lib/fs/fs.c) on in-memory images:
 * opening reads the superblock and checkpoint only; each table is loaded on
 * first use, once (the fixture's fault layer shows which reads happen), with
 * the pack's contents loaded before the tables that need them; a failed
 * load names its structure in f2fs_fs_why() and fails the same way on every
 * later call, also after the device was repaired; opening for writing is
 * refused; the superblock and checkpoint copies rejected while the other was
 * used are reported per kind; readers never take the lock hooks; the SSA
 * under a budget answers as without one; a reload reads the device again.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/ssa.h"
#include "f2fs/summary.h"
#include "f2fs/volume.h"
#include "fixture.h"
#include "test.h"

#define BLK	  F2FS_BLKSIZE
#define SEG	  F2FS_DEFAULT_BLKS_PER_SEG
#define DEV_BYTES (64ull << 20)

/* A formatted image whose reads go through the fixture's fault layer. */
static bool format(struct fixture *fx)
{
	if (fixture_format(fx, DEV_BYTES, NULL, false) && fixture_fail_reads(fx))
		return true;
	CHECK(0);
	fixture_free(fx);
	return false;
}

/* Fail every read of blocks [first, first + count) from now on (count 0: none). */
static void fail_blocks(struct fixture *fx, uint64_t first, uint64_t count)
{
	fx->fault.first = first;
	fx->fault.count = count;
	fx->fault.hits = 0;
}

static void fail_everything(struct fixture *fx)
{
	fail_blocks(fx, 0, DEV_BYTES / BLK);
}

static void test_open_accessors(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_geometry *g;

	if (!format(&fx))
		return;
	if (fixture_fs_open(&fx, &fs)) {
		CHECK(f2fs_fs_dev(fs) == fx.dev);
		CHECK(memcmp(f2fs_fs_sb(fs), &fx.sb, sizeof(fx.sb)) == 0);
		CHECK(f2fs_fs_cp(fs) == f2fs_volume_cp(f2fs_fs_volume(fs)));
		CHECK(f2fs_fs_sb(fs) == f2fs_volume_sb(f2fs_fs_volume(fs)));
		CHECK_EQ_U64(le64_get(f2fs_fs_cp(fs)->checkpoint_ver),
			     le64_get(fx.cp.checkpoint_ver));
		CHECK_EQ_U64(f2fs_fs_features(fs), le32_get(fx.sb.feature));
		g = f2fs_fs_geo(fs);
		CHECK_EQ_U64(g->main_blkaddr, fx.l.main_blkaddr);
		CHECK_EQ_U64(g->main_segs, fx.l.segment_count_main);
		CHECK_EQ_U64(g->segs_per_sec, fx.l.segs_per_sec);
		CHECK_EQ_U64(g->sections, fx.l.section_count);
		CHECK_EQ_U64(g->main_end,
			     fx.l.main_blkaddr + (uint64_t)fx.l.segment_count_main * SEG);
		CHECK_EQ_U64(f2fs_fs_why(fs)[0], 0);
		f2fs_fs_close(fs);
	}
	f2fs_fs_close(NULL);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Opening reads the superblocks and the checkpoint packs, nothing of the tables. */
static void test_open_reads_no_table(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_cp_data *cpd;
	const struct f2fs_sit_table *sit;

	if (!format(&fx))
		return;
	/* everything from the SIT on is unreadable */
	fail_blocks(&fx, fx.l.sit_blkaddr, DEV_BYTES / BLK - fx.l.sit_blkaddr);
	if (fixture_fs_open(&fx, &fs)) {
		CHECK_EQ_U64(fx.fault.hits, 0);
		CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), 0);
		CHECK(cpd != NULL);
		CHECK_EQ_U64(fx.fault.hits, 0);
		CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), -EIO);
		CHECK(sit == NULL);
		CHECK(fx.fault.hits > 0);
		f2fs_fs_close(fs);
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Each table is loaded once: later calls hand out the same table without reading. */
static void test_loaded_once(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_cp_data *cpd, *cpd2;
	const struct f2fs_sit_table *sit, *sit2;
	const struct f2fs_nat_table *nat, *nat2;
	struct f2fs_ssa *ssa, *ssa2;

	if (!format(&fx))
		return;
	if (!fixture_fs_open(&fx, &fs)) {
		fixture_free(&fx);
		return;
	}
	/* the SIT first: it loads the pack's contents on the way */
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), 0);
	CHECK(sit != NULL);
	fail_everything(&fx);
	CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), 0);
	CHECK(cpd != NULL);
	CHECK_EQ_U64(fx.fault.hits, 0);
	fail_blocks(&fx, 0, 0);
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), 0);
	CHECK_EQ_U64(f2fs_fs_ssa(fs, &ssa), 0);
	CHECK(nat != NULL && ssa != NULL);

	fail_everything(&fx);
	CHECK_EQ_U64(f2fs_fs_load_all(fs), 0);
	CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd2), 0);
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit2), 0);
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat2), 0);
	CHECK_EQ_U64(f2fs_fs_ssa(fs, &ssa2), 0);
	CHECK(cpd2 == cpd && sit2 == sit && nat2 == nat && ssa2 == ssa);
	CHECK_EQ_U64(fx.fault.hits, 0);
	CHECK_EQ_U64(f2fs_fs_why(fs)[0], 0);
	/* and what was loaded does not change with the device */
	CHECK_EQ_U64(f2fs_nat_get(nat, 3)->ino, 3);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* f2fs_fs_why() is one line that starts with @name. */
static void check_why(struct f2fs_fs *fs, const char *name)
{
	const char *why = f2fs_fs_why(fs);

	CHECK(strncmp(why, name, strlen(name)) == 0);
	CHECK(strchr(why, '\n') == NULL);
	if (strncmp(why, name, strlen(name)))
		fprintf(stderr, "reason \"%s\" does not start with \"%s\"\n", why, name);
}

/* A table that failed to load fails alike later, even once the device reads again. */
static void test_failed_load_sticks(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	struct f2fs_ssa *ssa;
	char first[256];

	if (!format(&fx))
		return;
	if (!fixture_fs_open(&fx, &fs)) {
		fixture_free(&fx);
		return;
	}
	fail_blocks(&fx, fx.l.sit_blkaddr, (uint64_t)fx.l.segment_count_sit * SEG);
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), -EIO);
	CHECK(sit == NULL);
	check_why(fs, "SIT");
	snprintf(first, sizeof(first), "%s", f2fs_fs_why(fs));
	fail_blocks(&fx, 0, 0);
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), -EIO);
	CHECK(sit == NULL);
	CHECK(strcmp(f2fs_fs_why(fs), first) == 0);
	CHECK_EQ_U64(f2fs_fs_load_all(fs), -EIO);
	/* the tables that do not need the SIT load */
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), 0);
	CHECK_EQ_U64(f2fs_fs_ssa(fs, &ssa), 0);
	f2fs_fs_close(fs);

	/* the NAT the same way, named as such */
	if (fixture_fs_open(&fx, &fs)) {
		fail_blocks(&fx, fx.l.nat_blkaddr, (uint64_t)fx.l.segment_count_nat * SEG);
		CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), -EIO);
		CHECK(nat == NULL);
		check_why(fs, "NAT");
		fail_blocks(&fx, 0, 0);
		CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), -EIO);
		CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), 0);
		f2fs_fs_close(fs);
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

static void bad_nat_count(struct f2fs_journal *j, void *arg)
{
	uint16_t *saved = arg;

	*saved = le16_get(j->n_nats);
	j->n_nats = le16_put(F2FS_NAT_JOURNAL_ENTRIES + 1);
}

static void restore_nat_count(struct f2fs_journal *j, void *arg)
{
	j->n_nats = le16_put(*(uint16_t *)arg);
}

/* A pack whose contents do not load: every table behind it fails with its error. */
static void test_failed_pack(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_cp_data *cpd;
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	struct f2fs_ssa *ssa;
	uint16_t n_nats = 0;

	if (!format(&fx))
		return;
	CHECK(fixture_edit_journal(&fx, false, bad_nat_count, &n_nats));
	if (!fixture_fs_open(&fx, &fs)) {
		fixture_free(&fx);
		return;
	}
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), -EINVAL);
	check_why(fs, "checkpoint pack");
	CHECK(strstr(f2fs_fs_why(fs), "NAT journal") != NULL);
	CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), -EINVAL);
	CHECK(cpd == NULL);
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), -EINVAL);
	CHECK_EQ_U64(f2fs_fs_ssa(fs, &ssa), -EINVAL);
	CHECK(sit == NULL && nat == NULL && ssa == NULL);
	CHECK_EQ_U64(f2fs_fs_load_all(fs), -EINVAL);
	/* repaired on disk: this handle keeps its answer, a new one loads */
	CHECK(fixture_edit_journal(&fx, false, restore_nat_count, &n_nats));
	CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), -EINVAL);
	check_why(fs, "checkpoint pack");
	f2fs_fs_close(fs);
	if (fixture_fs_open(&fx, &fs)) {
		CHECK_EQ_U64(f2fs_fs_load_all(fs), 0);
		f2fs_fs_close(fs);
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

static void test_write_open(void)
{
	struct fixture fx;
	struct f2fs_fs *fs = NULL;
	const struct f2fs_sit_table *sit;
	struct f2fs_checkpoint *cp;
	uint8_t blk[BLK];
	char why[256] = "";

	if (!format(&fx))
		return;
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE, &fs, why, sizeof(why)), 0);
	CHECK(fs != NULL);
	if (fs) {
		/* every table was loaded at open */
		CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), 0);
		f2fs_fs_close(fs);
	}
	/* a checkpoint with the error flag is refused for writing, not for reading */
	CHECK(fixture_read_blk(&fx, fx.l.cp_blkaddr, blk));
	cp = (struct f2fs_checkpoint *)blk;
	cp->ckpt_flags = le32_put(le32_get(cp->ckpt_flags) | CP_ERROR_FLAG);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	CHECK(fixture_write_blk(&fx, fx.l.cp_blkaddr, blk));
	CHECK(fixture_write_blk(&fx, fx.l.cp_blkaddr + le32_get(cp->cp_pack_total_block_count) - 1,
				blk));
	fs = NULL;
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE, &fs, why, sizeof(why)), -EUCLEAN);
	CHECK(fs == NULL);
	CHECK(strstr(why, "error flag") != NULL);
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_READ, &fs, why, sizeof(why)), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* XOR a byte of block @blk. */
static void flip(struct fixture *fx, uint64_t blk, size_t ofs)
{
	uint8_t b[BLK];

	CHECK(fixture_read_blk(fx, blk, b));
	b[ofs] ^= 0x10;
	CHECK(fixture_write_blk(fx, blk, b));
}

/* Open, and compare the rejected copies with @mask and the reasons with @sb_word/@cp_word. */
static void expect_rejected(struct fixture *fx, unsigned int mask, const char *sb_word,
			    const char *cp_word)
{
	struct f2fs_fs *fs;
	const struct f2fs_volume *v;
	const char *sb, *cp;

	if (!fixture_fs_open(fx, &fs))
		return;
	v = f2fs_fs_volume(fs);
	CHECK_EQ_U64(f2fs_volume_rejected(v), mask);
	sb = f2fs_volume_rejected_why(v, F2FS_REJECTED_SB);
	cp = f2fs_volume_rejected_why(v, F2FS_REJECTED_CP);
	CHECK(sb_word ? sb && strstr(sb, sb_word) && !strchr(sb, '\n') : sb == NULL);
	CHECK(cp_word ? cp && strstr(cp, cp_word) && !strchr(cp, '\n') : cp == NULL);
	CHECK(mask ? f2fs_volume_warning(v) != NULL : f2fs_volume_warning(v) == NULL);
	f2fs_fs_close(fs);
}

static void test_rejected_copies(void)
{
	struct fixture fx;
	uint64_t pack1, pack2;

	if (!format(&fx))
		return;
	pack1 = fx.l.cp_blkaddr;
	pack2 = pack1 + SEG;
	expect_rejected(&fx, 0, NULL, NULL);

	flip(&fx, 1, F2FS_SUPER_OFFSET); /* superblock #1's magic */
	expect_rejected(&fx, F2FS_REJECTED_SB1, "#1", NULL);
	flip(&fx, 1, F2FS_SUPER_OFFSET);

	flip(&fx, 0, F2FS_SUPER_OFFSET);
	expect_rejected(&fx, F2FS_REJECTED_SB0, "#0", NULL);
	flip(&fx, 0, F2FS_SUPER_OFFSET);

	flip(&fx, pack1, 8); /* under the checkpoint's crc */
	expect_rejected(&fx, F2FS_REJECTED_CP1, NULL, "pack 1");
	flip(&fx, pack1, 8);

	flip(&fx, pack2, 8);
	expect_rejected(&fx, F2FS_REJECTED_CP2, NULL, "pack 2");
	flip(&fx, 1, F2FS_SUPER_OFFSET);
	expect_rejected(&fx, F2FS_REJECTED_SB1 | F2FS_REJECTED_CP2, "#1", "pack 2");
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Pack @blk's first block with cur_node_segno[1] past the main area, resealed. */
static void insane_pack(struct fixture *fx, uint64_t blk)
{
	uint8_t b[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)b;

	CHECK(fixture_read_blk(fx, blk, b));
	cp->cur_node_segno[1] = le32_put(99999);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	CHECK(fixture_write_blk(fx, blk, b));
}

/*
 * The newest pack's checksums hold but its fields do not: as the kernel,
 * no fallback for a writer; a reader and fsck's repair (F2FS_FS_ROLL_BACK)
 * get the older pack with the newest marked.  Both insane: nothing opens.
 */
static void test_newest_pack_insane(void)
{
	struct fixture fx;
	struct f2fs_fs *fs = NULL;
	char why[256] = "";
	uint64_t newest, older;

	if (!format(&fx))
		return;
	if (!fixture_fs_open(&fx, &fs))
		return;
	newest = fx.l.cp_blkaddr + (f2fs_volume_cp_index(f2fs_fs_volume(fs)) ? SEG : 0);
	older = newest == fx.l.cp_blkaddr ? newest + SEG : fx.l.cp_blkaddr;
	f2fs_fs_close(fs);
	insane_pack(&fx, newest);
	expect_rejected(&fx,
			(newest == fx.l.cp_blkaddr ? F2FS_REJECTED_CP1 : F2FS_REJECTED_CP2) |
			    F2FS_REJECTED_CP_NEWEST,
			NULL, "the newest) is insane: cur_node_segno[1] 99999");
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE, &fs, why, sizeof(why)), -EUCLEAN);
	CHECK(strstr(why, "fsck.f2fs -y") != NULL);
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_WRITE | F2FS_FS_ROLL_BACK, &fs, why, sizeof(why)),
		     0);
	f2fs_fs_close(fs);
	insane_pack(&fx, older);
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, F2FS_FS_READ, &fs, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "(the newest) is insane") != NULL);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

struct lock_count {
	unsigned int locks, unlocks;
};

static void count_lock(void *arg, enum f2fs_fs_lock which, uint32_t ino, bool exclusive)
{
	(void)which;
	(void)ino;
	(void)exclusive;
	((struct lock_count *)arg)->locks++;
}

static void count_unlock(void *arg, enum f2fs_fs_lock which, uint32_t ino, bool exclusive)
{
	(void)which;
	(void)ino;
	(void)exclusive;
	((struct lock_count *)arg)->unlocks++;
}

static void test_readers_take_no_locks(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	struct lock_count n = {0};
	const struct f2fs_fs_lock_ops ops = {.lock = count_lock, .unlock = count_unlock, .arg = &n};

	if (!format(&fx))
		return;
	if (fixture_fs_open(&fx, &fs)) {
		f2fs_fs_set_lock_ops(fs, &ops);
		CHECK_EQ_U64(f2fs_fs_load_all(fs), 0);
		f2fs_fs_set_lock_ops(fs, NULL);
		CHECK_EQ_U64(n.locks, 0);
		CHECK_EQ_U64(n.unlocks, 0);
		f2fs_fs_close(fs);
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* SSA block @segno of the device stamped with @segno + 1000 as its first entry's nid. */
static void stamp_ssa(struct fixture *fx, uint32_t segno)
{
	struct f2fs_summary_block b;

	memset(&b, 0, sizeof(b));
	b.entries[0].nid = le32_put(segno + 1000);
	CHECK(fixture_write_blk(fx, fx->l.ssa_blkaddr + segno, &b));
}

/*
 * With a budget the SSA keeps only that many blocks read from disk: the
 * oldest are dropped and read again when asked for, every answer still
 * the device's; back to no budget, what is loaded stays.
 */
static void test_ssa_budget(void)
{
	const struct f2fs_summary_block *b;
	const struct f2fs_cp_data *cpd;
	struct f2fs_fs *fs;
	struct f2fs_ssa *ssa;
	struct fixture fx;
	uint32_t segno, round, first = 0, last;
	int err;

	if (!fixture_format(&fx, DEV_BYTES, NULL, false))
		return;
	last = fx.l.segment_count_main; /* some twenty segments: five budgets' worth */
	for (segno = first; segno < last; segno++)
		stamp_ssa(&fx, segno);
	if (!fixture_fs_open(&fx, &fs)) {
		fixture_free(&fx);
		return;
	}
	CHECK_EQ_U64(f2fs_fs_ssa(fs, &ssa), 0);
	CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), 0);
	CHECK_EQ_U64(f2fs_ssa_set_budget(ssa, 4), 0);
	for (round = 0; round < 2; round++)
		for (segno = first; segno < last; segno++) {
			b = f2fs_ssa_get(ssa, segno, &err);
			if (f2fs_cp_log_of_segment(cpd, segno) >= 0)
				continue; /* an open log: the pack's summary */
			CHECK(b != NULL && le32_get(b->entries[0].nid) == segno + 1000);
		}
	CHECK_EQ_U64(f2fs_ssa_set_budget(ssa, 0), 0);
	b = f2fs_ssa_get(ssa, last - 1, &err);
	CHECK(b != NULL && le32_get(b->entries[0].nid) == last - 1 + 1000);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* A reload reads what the device holds now, and the handle's tables with it. */
static void test_reload(void)
{
	const struct f2fs_nat_table *nat;
	struct f2fs_fs *fs;
	struct fixture fx;
	char why[128];

	if (!format(&fx))
		return;
	if (!fixture_fs_open(&fx, &fs)) {
		fixture_free(&fx);
		return;
	}
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), 0);
	CHECK_EQ_U64(f2fs_fs_flags(fs), F2FS_FS_READ);
	CHECK_EQ_U64(f2fs_fs_reload(fs, F2FS_FS_READ | F2FS_FS_SHORT_DEVICE, why, sizeof(why)), 0);
	CHECK_EQ_U64(f2fs_fs_flags(fs), F2FS_FS_READ | F2FS_FS_SHORT_DEVICE);
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat), 0);
	CHECK_EQ_U64(f2fs_nat_get(nat, 3)->ino, 3);
	/* a superblock and checkpoint gone: the reload fails, only close may follow */
	fail_everything(&fx);
	CHECK(f2fs_fs_reload(fs, F2FS_FS_READ, why, sizeof(why)) < 0 && why[0]);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

int main(void)
{
	RUN(test_open_accessors);
	RUN(test_open_reads_no_table);
	RUN(test_loaded_once);
	RUN(test_failed_load_sticks);
	RUN(test_failed_pack);
	RUN(test_write_open);
	RUN(test_rejected_copies);
	RUN(test_newest_pack_insane);
	RUN(test_readers_take_no_locks);
	RUN(test_ssa_budget);
	RUN(test_reload);
	TEST_EXIT();
}
