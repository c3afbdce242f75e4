// SPDX-License-Identifier: GPL-2.0
/*
 * The cleaner (lib/write/gc.c) on in-memory images.  A volume is filled
 * with many small files and most of them deleted, so that closed
 * segments of data and of nodes hold a few valid blocks each.  Before the
 * cleaner runs, every valid block of every section it may pick is listed
 * with its owner as the SSA and the NAT tell (lib/read); afterwards each
 * such section must be free, and each listed block must have a new
 * address that its owner -- the NAT for a node, the file's node tree for a
 * data block -- points at and whose summary names that owner again.  The
 * files read back through lib/read, and the checker finds the volume
 * clean.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/bitops.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/write.h"
#include "test.h"
#include "write_fixture.h"

#define KEEP	  8    /* every KEEP-th file stays */
#define FILE_LEN  8192 /* two blocks: never inline */
#define MAX_MOVED 4096

/* A valid block of a section the cleaner may pick, and who owned it then. */
struct moved {
	uint64_t old;
	enum f2fs_owner_kind kind;
	uint32_t nid, ino;
	uint64_t fblk; /* data: its block in the file */
};

struct before {
	uint32_t victims[256]; /* the sections the cleaner may pick */
	uint32_t nvictims;
	struct moved blocks[MAX_MOVED];
	uint32_t nblocks;
	uint32_t nodes, data; /* of them */
};

static bool write_files(struct f2fs_fs *fs, uint32_t files)
{
	uint8_t buf[FILE_LEN];
	char name[16];
	uint32_t ino, i;

	for (i = 0; i < files; i++) {
		snprintf(name, sizeof(name), "f%04u", i);
		wfx_fill(buf, sizeof(buf), i);
		if (wfx_create(fs, WFX_ROOT, name, S_IFREG | 0644, &ino) ||
		    f2fs_pwrite(fs, ino, buf, sizeof(buf), 0))
			return false;
	}
	return wfx_checkpoint(fs, false) == 0;
}

static bool delete_most(struct f2fs_fs *fs, uint32_t files)
{
	char name[16];
	uint32_t i;

	for (i = 0; i < files; i++) {
		snprintf(name, sizeof(name), "f%04u", i);
		if (i % KEEP && f2fs_unlink(fs, WFX_ROOT, name, strlen(name)))
			return false;
	}
	return wfx_checkpoint(fs, false) == 0;
}

/* A volume whose closed segments hold a few valid blocks each: @files made, most deleted. */
static bool fragmented(struct fixture *fx, uint64_t bytes, uint32_t segs_per_sec, uint32_t files)
{
	struct f2fs_fs *fs;
	bool ok;

	if (!wfx_format(fx, bytes, "extra_attr,inode_checksum", segs_per_sec) ||
	    !wfx_open_rw(fx, &fs))
		return false;
	ok = write_files(fs, files) && delete_most(fs, files);
	f2fs_fs_close(fs);
	return ok;
}

/* Note the owner of block @blkaddr; false when it has none (the cleaner would leave it). */
static bool note_block(struct f2fs_fs *fs, uint64_t blkaddr, struct before *b)
{
	struct f2fs_block_owner o;
	struct moved *m = &b->blocks[b->nblocks];

	if (b->nblocks == MAX_MOVED || f2fs_block_owner(fs, blkaddr, &o) ||
	    o.kind == F2FS_OWNER_OBSOLETE || (o.kind == F2FS_OWNER_DATA && !o.has_file_block))
		return false;
	*m = (struct moved){.old = blkaddr, .kind = o.kind, .nid = o.nid, .ino = o.ino};
	m->fblk = o.file_block;
	b->nblocks++;
	if (o.kind == F2FS_OWNER_DATA)
		b->data++;
	else
		b->nodes++;
	return true;
}

/* Note every valid block of section @secno. */
static bool note_section(struct f2fs_fs *fs, const struct f2fs_sit_table *sit, uint32_t secno,
			 struct before *b)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);
	uint32_t spc = f2fs_sit_segs_per_sec(sit), segno, off;

	for (segno = secno * spc; segno < (secno + 1) * spc; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);

		for (off = 0; off < F2FS_DEFAULT_BLKS_PER_SEG; off++)
			if (f2fs_test_bit_msb(se->map, off) &&
			    !note_block(fs, f2fs_geo_blkaddr(g, segno, off), b))
				return false;
	}
	return true;
}

/*
 * The sections the cleaner may pick -- used, not full, no log's -- and
 * their valid blocks with their owners, from the checkpointed volume.
 */
static bool survey(struct fixture *fx, struct before *b)
{
	const struct f2fs_sit_table *sit;
	const struct f2fs_cp_data *cpd;
	struct f2fs_fs *fs;
	uint32_t secno, full;
	bool ok;

	memset(b, 0, sizeof(*b));
	if (!fixture_fs_open(fx, &fs))
		return false;
	ok = !f2fs_fs_sit(fs, &sit) && !f2fs_fs_cp_data(fs, &cpd);
	full = f2fs_sit_segs_per_sec(sit) * F2FS_DEFAULT_BLKS_PER_SEG;
	for (secno = 0; ok && secno < f2fs_sit_sections(sit); secno++) {
		uint32_t valid = f2fs_sit_sec_valid(sit, secno);

		if (!valid || valid >= full ||
		    f2fs_cp_log_of_section(cpd, f2fs_sit_segs_per_sec(sit), secno) >= 0)
			continue;
		ok = b->nvictims < sizeof(b->victims) / sizeof(b->victims[0]) &&
		     note_section(fs, sit, secno, b);
		if (ok)
			b->victims[b->nvictims++] = secno;
	}
	f2fs_fs_close(fs);
	return ok;
}

/* Where the owner of @m points now (0: nowhere). */
static uint64_t new_home(struct f2fs_fs *fs, const struct moved *m)
{
	const struct f2fs_nat_table *nat;
	const struct f2fs_nat_info *e;

	if (m->kind == F2FS_OWNER_DATA)
		return wfx_file_block_addr(fs, m->ino, m->fblk);
	if (f2fs_fs_nat(fs, &nat) || !(e = f2fs_nat_get(nat, m->nid)))
		return 0;
	return e->blkaddr;
}

/* Block @m moved: its owner points at a new, valid block whose summary names that owner. */
static bool moved_and_owned(struct f2fs_fs *fs, const struct moved *m)
{
	uint64_t now = new_home(fs, m);
	struct f2fs_block_owner o;

	if (!now || now == m->old || f2fs_block_owner(fs, now, &o)) {
		fprintf(stderr, "  block 0x%llx (nid %u): now at 0x%llx\n",
			(unsigned long long)m->old, m->nid, (unsigned long long)now);
		return false;
	}
	if (!o.sit_valid || o.kind != m->kind || o.nid != m->nid || o.ino != m->ino ||
	    (m->kind == F2FS_OWNER_DATA &&
	     (o.file_block != m->fblk || o.seg_type != F2FS_CURSEG_COLD_DATA))) {
		fprintf(stderr, "  block 0x%llx moved to 0x%llx: owner %d nid %u type %u\n",
			(unsigned long long)m->old, (unsigned long long)now, o.kind, o.nid,
			o.seg_type);
		return false;
	}
	return true;
}

static bool all_moved(struct fixture *fx, const struct before *b)
{
	struct f2fs_fs *fs;
	uint32_t i;
	bool ok = true;

	if (!fixture_fs_open(fx, &fs))
		return false;
	for (i = 0; i < b->nblocks; i++)
		ok &= moved_and_owned(fs, &b->blocks[i]);
	f2fs_fs_close(fs);
	return ok;
}

static bool victims_free(struct fixture *fx, const struct before *b)
{
	const struct f2fs_sit_table *sit;
	struct f2fs_fs *fs;
	uint32_t i;
	bool ok;

	if (!fixture_fs_open(fx, &fs))
		return false;
	ok = !f2fs_fs_sit(fs, &sit);
	for (i = 0; ok && i < b->nvictims; i++)
		if (f2fs_sit_sec_valid(sit, b->victims[i])) {
			fprintf(stderr, "  section %u: %u valid after cleaning\n", b->victims[i],
				f2fs_sit_sec_valid(sit, b->victims[i]));
			ok = false;
		}
	f2fs_fs_close(fs);
	return ok;
}

static bool kept_files_read_back(struct fixture *fx, uint32_t files)
{
	uint8_t buf[FILE_LEN];
	struct f2fs_fs *fs;
	char name[16];
	uint32_t i, ino;
	bool ok = wfx_open_rw(fx, &fs);

	for (i = 0; ok && i < files; i += KEEP) {
		snprintf(name, sizeof(name), "f%04u", i);
		wfx_fill(buf, sizeof(buf), i);
		ok = !f2fs_lookup(fs, WFX_ROOT, name, strlen(name), &ino) &&
		     wfx_reads_back(fx, ino, buf, sizeof(buf));
	}
	if (fs)
		f2fs_fs_close(fs);
	return ok;
}

/*
 * Clean every section the survey found: want that many more free sections
 * than there are.  The cleaner ends with its own checkpoint, so the handle
 * is closed without one.
 */
static void clean_and_verify(uint64_t bytes, uint32_t segs_per_sec, uint32_t files)
{
	struct fixture fx;
	struct before *b = malloc(sizeof(*b));
	struct f2fs_write_stats st;
	struct f2fs_space sp, after;
	struct f2fs_fs *fs;

	if (!b || !fragmented(&fx, bytes, segs_per_sec, files) || !survey(&fx, b)) {
		CHECK(0);
		free(b);
		return;
	}
	/* both kinds of block are there to move */
	CHECK(b->nvictims >= 2 && b->nodes > 0 && b->data > 0);
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_space(fs, &sp), 0);
	CHECK_EQ_U64(f2fs_gc(fs, sp.free_sections + b->nvictims), 0);
	st = *f2fs_write_stats(fs);
	CHECK_EQ_U64(f2fs_space(fs, &after), 0);
	f2fs_fs_close(fs);
	CHECK(after.free_sections > sp.free_sections);
	CHECK_EQ_U64(st.gc_runs, 1);
	CHECK_EQ_U64(st.gc_blocks_moved, b->nblocks);
	CHECK_EQ_U64(st.checkpoints, 1);
	CHECK(st.gc_sections_freed > 0);
	printf("  -s %u: %u sections cleaned, %u node and %u data blocks moved\n", segs_per_sec,
	       b->nvictims, b->nodes, b->data);
	CHECK(victims_free(&fx, b));
	CHECK(all_moved(&fx, b));
	CHECK(kept_files_read_back(&fx, files));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(b);
}

static void test_victims_emptied_owners_follow(void)
{
	clean_and_verify(64ull << 20, 1, 600);
}

struct extent {
	uint32_t fofs, blk, len;
};

static void set_extent(struct f2fs_node *n, void *arg)
{
	const struct extent *e = arg;

	n->i.i_ext.fofs = le32_put(e->fofs);
	n->i.i_ext.blk = le32_put(e->blk);
	n->i.i_ext.len = le32_put(e->len);
}

/* File 0's two blocks as its i_ext, as the kernel would have cached them. */
static bool give_file0_extent(struct fixture *fx, uint32_t *ino)
{
	struct extent e = {0, 0, 2};
	struct f2fs_fs *fs;
	bool ok;

	if (!wfx_open_rw(fx, &fs))
		return false;
	ok = !f2fs_lookup(fs, WFX_ROOT, "f0000", 5, ino);
	f2fs_fs_close(fs);
	if (!ok || !fixture_fs_open(fx, &fs))
		return false;
	e.blk = wfx_file_block_addr(fs, *ino, 0);
	ok = e.blk && wfx_file_block_addr(fs, *ino, 1) == e.blk + 1;
	f2fs_fs_close(fs);
	return ok && wfx_edit_inode(fx, *ino, set_extent, &e);
}

/*
 * An i_ext naming blocks the cleaner moves would send reads to the old
 * ones: the cleaner drops it, and the checker, which compares i_ext with
 * the file's blocks, agrees.
 */
static void test_extent_of_moved_blocks_dropped(void)
{
	struct fixture fx;
	struct f2fs_node n;
	struct f2fs_space sp;
	struct f2fs_fs *fs;
	uint32_t ino = 0;

	CHECK(fragmented(&fx, 64ull << 20, 1, 600));
	CHECK(give_file0_extent(&fx, &ino));
	CHECK_EQ_U64(wfx_problems(&fx), 0); /* the extent is right before the move */
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_space(fs, &sp), 0);
	CHECK_EQ_U64(f2fs_gc(fs, sp.free_sections + 3), 0);
	f2fs_fs_close(fs);
	CHECK(wfx_read_inode(&fx, ino, &n));
	CHECK_EQ_U64(le32_get(n.i.i_ext.len), 0);
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

static void test_large_section_victims_emptied(void)
{
	clean_and_verify(256ull << 20, 4, 2400);
}

/* Nothing to clean: the cleaner runs, moves nothing and writes no checkpoint. */
static void test_nothing_to_clean(void)
{
	struct fixture fx;
	struct f2fs_space sp;
	struct f2fs_fs *fs;

	CHECK(wfx_format(&fx, 64ull << 20, NULL, 1));
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_space(fs, &sp), 0);
	CHECK_EQ_U64(f2fs_gc(fs, sp.sections), 0);
	CHECK_EQ_U64(f2fs_write_stats(fs)->gc_runs, 1);
	CHECK_EQ_U64(f2fs_write_stats(fs)->gc_blocks_moved, 0);
	CHECK_EQ_U64(f2fs_write_stats(fs)->checkpoints, 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * f2fs_confine: with the volume fenced into its middle sections, no valid
 * block and no open log is left outside, the files read back, the
 * checker finds it clean; later writes stay inside; a range not of whole
 * sections is refused.
 */
static void test_confine_keeps_everything_inside(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_sit_table *sit;
	const struct f2fs_cp_data *cpd;
	uint8_t buf[FILE_LEN];
	uint32_t segs, first, end, segno, ino, i;
	int t;

	CHECK(fragmented(&fx, 128ull << 20, 2, 2000));
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), 0);
	segs = f2fs_sit_segments(sit);
	first = segs / 4 / 2 * 2;
	end = segs - first;
	CHECK_EQ_U64(f2fs_confine(fs, first + 1, end), -EINVAL);
	f2fs_fs_close(fs);
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_confine(fs, first, end), 0);
	CHECK(f2fs_write_stats(fs)->gc_blocks_moved > 0);
	wfx_fill(buf, sizeof(buf), 77);
	CHECK_EQ_U64(wfx_create(fs, WFX_ROOT, "after", S_IFREG | 0644, &ino), 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, ino, buf, sizeof(buf), 0), 0);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK(fixture_fs_open(&fx, &fs));
	CHECK_EQ_U64(f2fs_fs_sit(fs, &sit), 0);
	CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), 0);
	for (segno = 0; segno < segs; segno++)
		if (segno < first || segno >= end)
			CHECK_EQ_U64(f2fs_sit_seg(sit, segno) ? f2fs_sit_seg(sit, segno)->valid : 0,
				     0);
	for (t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		CHECK(cpd->curseg_segno[t] >= first && cpd->curseg_segno[t] < end);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	for (i = 0; i < 2000; i += KEEP) {
		wfx_fill(buf, sizeof(buf), i);
		CHECK(wfx_reads_back(&fx, WFX_ROOT + 1 + i, buf, sizeof(buf)));
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* A read-only handle has no cleaner. */
static void test_read_only_refused(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;

	CHECK(wfx_format(&fx, 64ull << 20, NULL, 1));
	CHECK(fixture_fs_open(&fx, &fs));
	CHECK_EQ_U64(f2fs_gc(fs, 1), -EROFS);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

int main(void)
{
	RUN(test_victims_emptied_owners_follow);
	RUN(test_large_section_victims_emptied);
	RUN(test_extent_of_moved_blocks_dropped);
	RUN(test_nothing_to_clean);
	RUN(test_confine_keeps_everything_inside);
	RUN(test_read_only_refused);
	TEST_EXIT();
}
