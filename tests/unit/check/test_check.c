// SPDX-License-Identifier: GPL-2.0
/*
 * The checker on in-memory images, through the filesystem handle: a fresh
 * volume is clean for every feature set, and single corruptions are
 * reported with their codes -- of the root inode (fields, its node
 * pointers), its dentry block, the NAT and SIT journals, nat_bits, the
 * orphan list, the superblock's root and quota inodes, the checkpoint
 * counters (with the summary lines they fail), read errors (through the
 * fixture's fault layer), and rejected superblock and checkpoint copies.  Tables that cannot be
 * loaded end the check as an operational error (res.fatal), never a problem.  The problem
 * table's rows are whole, their messages expand, and the fields their fixes set lie in the inode.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/mkfs.h"
#include "f2fs/node.h"
#include "f2fs/super.h"
#include "f2fs/xattr.h"
#include "fixture.h"
#include "test.h"

#define IMG_BYTES (160ull << 20) /* -s 4 needs 144 MiB */
#define BLK	  F2FS_BLKSIZE

struct seen {
	unsigned int count[PR_NR_CODES];
	unsigned int sections;
	struct f2fs_problem lost_dir; /* the last PR_DIR_LOST report */
	struct f2fs_problem extent;   /* the last PR_INODE_EXTENT report */
};

static void on_problem(const struct f2fs_problem *p, void *arg)
{
	struct seen *s = arg;

	if (p->code < PR_NR_CODES)
		s->count[p->code]++;
	if (p->code == PR_DIR_LOST)
		s->lost_dir = *p;
	if (p->code == PR_INODE_EXTENT)
		s->extent = *p;
}

static void on_section(const struct f2fs_section_report *r, void *arg)
{
	struct seen *s = arg;

	(void)r;
	s->sections++;
}

/* Format an image into @fx; returns its device, or NULL (and nothing open) when that fails. */
static struct f2fs_device *make_image(struct fixture *fx, uint32_t features, uint32_t segs_per_sec)
{
	fixture_init(fx, IMG_BYTES);
	fx->cfg.features = features;
	fx->cfg.geometry.segs_per_sec = segs_per_sec;
	if (!fixture_open(fx) || !fixture_mkfs(fx)) {
		fixture_free(fx);
		return NULL;
	}
	return fx->dev;
}

/* Check an open handle, counting the problems by code. */
static int check_fs(struct f2fs_fs *fs, struct seen *s, struct f2fs_check_result *r)
{
	struct f2fs_check_options o = {
	    .on_problem = on_problem, .on_section = on_section, .arg = s};
	int ret;

	memset(s, 0, sizeof(*s));
	ret = f2fs_check(fs, &o, r);
	CHECK(ret ? r->fatal : !r->fatal);
	return ret;
}

/* Open @dev, check it and close it again. */
static int run_check(struct f2fs_device *dev, struct seen *s, struct f2fs_check_result *r)
{
	struct f2fs_fs *fs = NULL;
	char why[256] = "";
	int ret = f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why));

	memset(s, 0, sizeof(*s));
	memset(r, 0, sizeof(*r));
	if (ret) {
		fprintf(stderr, "f2fs_fs_open: %d: %s\n", ret, why);
		CHECK(0);
		return ret;
	}
	ret = check_fs(fs, s, r);
	f2fs_fs_close(fs);
	return ret;
}

/* Check @fx and expect @code @n times (0: at least once). */
static void expect_code(struct fixture *fx, enum f2fs_problem_code code, unsigned int n)
{
	struct f2fs_check_result r;
	struct seen s;

	CHECK_EQ_U64(run_check(fx->dev, &s, &r), 0);
	CHECK(r.problems > 0);
	if (n ? s.count[code] != n : !s.count[code]) {
		fprintf(stderr, "expected %s %u time(s) (0: any), got it %u times\n",
			f2fs_problem_info(code)->name, n, s.count[code]);
		CHECK(0);
	}
	/* the summary lines the code's row names fail */
	CHECK_EQ_U64(r.failed_lines & f2fs_problem_info(code)->lines,
		     f2fs_problem_info(code)->lines);
}

static void read_blk(struct fixture *fx, uint64_t blk, void *buf)
{
	CHECK(fixture_read_blk(fx, blk, buf));
}

static void write_blk(struct fixture *fx, uint64_t blk, const void *buf)
{
	CHECK(fixture_write_blk(fx, blk, buf));
}

static uint64_t root_inode_blk(const struct f2fs_layout *l)
{
	return f2fs_layout_seg_blkaddr(l, l->cur_seg[F2FS_CURSEG_HOT_NODE]);
}

static uint64_t root_dentry_blk(const struct f2fs_layout *l)
{
	return f2fs_layout_seg_blkaddr(l, l->cur_seg[F2FS_CURSEG_HOT_DATA]);
}

static void test_fresh_images_are_clean(void)
{
	static const uint32_t sets[] = {
	    0,
	    F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_LOST_FOUND,
	    F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM | F2FS_FEATURE_SB_CHKSUM |
		F2FS_FEATURE_FLEXIBLE_INLINE_XATTR | F2FS_FEATURE_INODE_CRTIME |
		F2FS_FEATURE_COMPRESSION | F2FS_FEATURE_LOST_FOUND,
	    F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_PRJQUOTA |
		F2FS_FEATURE_LOST_FOUND,
	};
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct fixture fx;
		struct f2fs_device *dev = make_image(&fx, sets[i], i == 1 ? 4 : 1);
		struct f2fs_check_result r;
		struct seen s;

		CHECK(dev != NULL);
		if (!dev)
			continue;
		CHECK(run_check(dev, &s, &r) == 0);
		CHECK_EQ_U64(r.problems, 0);
		CHECK_EQ_U64(r.failed_lines, 0);
		CHECK_EQ_U64(r.valid_blocks, r.cp_valid_blocks);
		CHECK_EQ_U64(r.valid_nodes, r.cp_valid_nodes);
		CHECK_EQ_U64(r.nat_valid_entries, r.cp_valid_nodes);
		CHECK_EQ_U64(r.valid_inodes, r.cp_valid_inodes);
		CHECK_EQ_U64(r.sections, fx.l.section_count);
		CHECK_EQ_U64(s.sections, fx.l.section_count);
		CHECK_EQ_U64(r.sections_bad, 0);
		fixture_free(&fx);
	}
}

/* The tables stay loaded in the handle: a second check on it gives the same result. */
static void test_check_twice(void)
{
	struct fixture fx;
	struct f2fs_device *dev =
	    make_image(&fx, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_LOST_FOUND, 1);
	struct f2fs_check_result r1, r2;
	const struct f2fs_nat_table *nat1, *nat2;
	struct f2fs_fs *fs;
	struct seen s;

	CHECK(dev != NULL);
	if (!dev || !fixture_fs_open(&fx, &fs)) {
		fixture_free(&fx);
		return;
	}
	CHECK_EQ_U64(check_fs(fs, &s, &r1), 0);
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat1), 0);
	CHECK_EQ_U64(check_fs(fs, &s, &r2), 0);
	CHECK_EQ_U64(f2fs_fs_nat(fs, &nat2), 0);
	CHECK(nat1 == nat2);
	CHECK_EQ_U64(r1.problems, 0);
	CHECK_EQ_U64(r2.problems, 0);
	CHECK_EQ_U64(r1.valid_blocks, r2.valid_blocks);
	CHECK_EQ_U64(r1.valid_nodes, r2.valid_nodes);
	f2fs_fs_close(fs);
	fixture_free(&fx);
}

/* Corrupt the root inode with @edit, reseal its checksum when asked, expect @code. */
static void expect_root_inode_problem(void (*edit)(struct f2fs_node *), bool reseal,
				      enum f2fs_problem_code code)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM;
	struct fixture fx;
	struct f2fs_device *dev = make_image(&fx, features, 1);
	struct f2fs_node n;

	CHECK(dev != NULL);
	if (!dev)
		return;
	read_blk(&fx, root_inode_blk(&fx.l), &n);
	edit(&n);
	if (reseal)
		f2fs_inode_seal(f2fs_blkgeo_4k(), &n, features, f2fs_inode_chksum_seed(fx.sb.uuid));
	write_blk(&fx, root_inode_blk(&fx.l), &n);
	expect_code(&fx, code, 0);
	fixture_free(&fx);
}

static void bump_links(struct f2fs_node *n)
{
	n->i.i_links = le32_put(le32_get(n->i.i_links) + 1);
}

static void bump_blocks(struct f2fs_node *n)
{
	n->i.i_blocks = le64_put(le64_get(n->i.i_blocks) + 3);
}

static void bad_mode(struct f2fs_node *n)
{
	n->i.i_mode = 0;
}

static void odd_extra_isize(struct f2fs_node *n)
{
	n->i.i_extra_isize = le16_put(6);
}

static void flip_name_byte(struct f2fs_node *n)
{
	n->i.i_name[3] ^= 0x5a;
}

static void bad_footer_nid(struct f2fs_node *n)
{
	n->footer.nid = le32_put(77);
}

static void data_out_of_range(struct f2fs_node *n)
{
	n->i.i_addr[f2fs_inode_first_addr(&n->i)] = le32_put(7);
}

static void long_namelen(struct f2fs_node *n)
{
	n->i.i_namelen = le32_put(F2FS_NAME_LEN + 1);
}

/* A directory with dentry blocks has a size in whole blocks. */
static void odd_dir_size(struct f2fs_node *n)
{
	n->i.i_size = le64_put(le64_get(n->i.i_size) + 1);
}

/* i_nid[0] names the root itself: a nid reached a second time. */
static void nid_loop(struct f2fs_node *n)
{
	n->i.i_nid[0] = n->footer.nid;
}

/* i_nid[1] names a nid the NAT has no entry for. */
static void nid_free(struct f2fs_node *n)
{
	n->i.i_nid[1] = le32_put(400);
}

static void test_inode_corruptions(void)
{
	expect_root_inode_problem(bump_links, true, PR_DIR_LINKS);
	expect_root_inode_problem(bump_blocks, true, PR_INODE_BLOCKS);
	expect_root_inode_problem(bad_mode, true, PR_INODE_MODE);
	expect_root_inode_problem(odd_extra_isize, true, PR_INODE_EXTRA_ISIZE);
	expect_root_inode_problem(flip_name_byte, false, PR_INODE_CHECKSUM);
	/* the root's own footer: only the footer can be fixed, not an entry dropped */
	expect_root_inode_problem(bad_footer_nid, true, PR_ROOT_FOOTER);
	expect_root_inode_problem(data_out_of_range, true, PR_BLK_RANGE);
	expect_root_inode_problem(long_namelen, true, PR_INODE_NAMELEN);
	expect_root_inode_problem(odd_dir_size, true, PR_INODE_SIZE);
	expect_root_inode_problem(nid_loop, true, PR_NODE_REACHED_TWICE);
	expect_root_inode_problem(nid_free, true, PR_NODE_NID_FREE);
}

static void test_dentry_corruptions(void)
{
	struct fixture fx;
	struct f2fs_device *dev =
	    make_image(&fx, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_LOST_FOUND, 1);
	struct f2fs_dentry_block d, orig;
	struct f2fs_check_result r;
	struct seen s;

	CHECK(dev != NULL);
	if (!dev)
		return;
	read_blk(&fx, root_dentry_blk(&fx.l), &orig);

	d = orig;
	d.dentry[2].hash_code ^= le32_put(1);
	write_blk(&fx, root_dentry_blk(&fx.l), &d);
	CHECK(run_check(dev, &s, &r) == 0 && s.count[PR_DENT_HASH] == 1);

	d = orig;
	d.dentry[2].ino = le32_put(400);
	write_blk(&fx, root_dentry_blk(&fx.l), &d);
	CHECK(run_check(dev, &s, &r) == 0 && s.count[PR_DENT_INO] == 1);
	/* lost+found is then unreachable, and the root's link count is too high */
	CHECK(s.count[PR_NAT_UNREACHABLE] == 1 && s.count[PR_DIR_LINKS] == 1);
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_NAT_UNREACHABLE));
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_OTHER));
	CHECK(f2fs_check_line_ok(&r, F2FS_LINE_VALID_BLOCKS) ==
	      (r.valid_blocks == r.cp_valid_blocks));

	d = orig;
	d.dentry[1].ino = le32_put(4);
	write_blk(&fx, root_dentry_blk(&fx.l), &d);
	CHECK(run_check(dev, &s, &r) == 0 && s.count[PR_DIR_DOTS] == 1);

	d = orig;
	d.dentry[2].name_len = 0;
	write_blk(&fx, root_dentry_blk(&fx.l), &d);
	CHECK(run_check(dev, &s, &r) == 0 && s.count[PR_DENT_NAME_LEN] >= 1);

	d = orig;
	f2fs_clear_bit_lsb(d.dentry_bitmap, 3);
	write_blk(&fx, root_dentry_blk(&fx.l), &d);
	CHECK(run_check(dev, &s, &r) == 0 && s.count[PR_DENT_BITMAP] == 1);

	d = orig;
	d.dentry[2].file_type = F2FS_FT_REG_FILE;
	write_blk(&fx, root_dentry_blk(&fx.l), &d);
	CHECK(run_check(dev, &s, &r) == 0 && s.count[PR_DENT_FILE_TYPE] == 1);
	fixture_free(&fx);
}

static void test_checkpoint_counters(void)
{
	struct fixture fx;
	struct f2fs_device *dev = make_image(&fx, 0, 1);
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	uint32_t last = fx.l.cp_blkaddr + 6 + fx.l.cp_payload - 1;
	struct f2fs_check_result r;
	struct seen s;

	CHECK(dev != NULL);
	if (!dev)
		return;
	read_blk(&fx, fx.l.cp_blkaddr, blk);
	cp->valid_block_count = le64_put(le64_get(cp->valid_block_count) + 1);
	cp->valid_inode_count = le32_put(9);
	cp->free_segment_count = le32_put(le32_get(cp->free_segment_count) - 1);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	write_blk(&fx, fx.l.cp_blkaddr, blk);
	write_blk(&fx, last, blk);
	CHECK(run_check(dev, &s, &r) == 0);
	CHECK(s.count[PR_COUNT_VALID_BLOCKS] == 1);
	CHECK(s.count[PR_COUNT_VALID_INODES] == 1);
	CHECK(s.count[PR_SIT_FREE_COUNT] == 1);
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_VALID_BLOCKS));
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_VALID_INODES));
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_FREE_SEGMENTS));
	CHECK(f2fs_check_line_ok(&r, F2FS_LINE_VALID_NODES));
	CHECK(f2fs_check_line_ok(&r, F2FS_LINE_NAT_NODES));
	fixture_free(&fx);
}

/* A block the SIT says is valid in a large section that nothing owns. */
static void test_section_mismatch(void)
{
	struct fixture fx;
	struct f2fs_device *dev = make_image(&fx, 0, 4);
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_sit_journal_entry *e;
	uint32_t sum_blk = fx.l.cp_blkaddr + 1 + fx.l.cp_payload;
	struct f2fs_check_result r;
	struct seen s;

	CHECK(dev != NULL);
	if (!dev)
		return;
	read_blk(&fx, sum_blk, blk);
	/* the SIT journal follows the NAT journal; entry 0 is the hot node log */
	e = (struct f2fs_sit_journal_entry *)(blk + F2FS_SUM_JOURNAL_SIZE + 2);
	e->se.vblocks = le16_put(le16_get(e->se.vblocks) + 1);
	f2fs_set_bit_msb(e->se.valid_map, 100);
	write_blk(&fx, sum_blk, blk);
	CHECK(run_check(dev, &s, &r) == 0);
	CHECK(s.count[PR_BLK_SIT_EXTRA] == 1);
	CHECK(s.count[PR_SEC_CKPT_VALID] == 1);
	CHECK_EQ_U64(r.sections_bad, 1);
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_SECTIONS));
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_SIT_BITMAP));
	fixture_free(&fx);
}

/* ---- checks upstream's newest fsck makes: extents, flags, inline data, xattrs ---- */

/* The block of node @nid per the NAT (0 when it has none). */
static uint64_t node_blk(struct fixture *fx, uint32_t nid)
{
	uint64_t blk = fixture_node_blk(fx, nid);

	CHECK(blk != 0);
	return blk;
}

/* Rewrite inode @nid of @fx with @edit (@arg), resealing its checksum. */
static void edit_inode(struct fixture *fx, uint32_t nid, void (*edit)(struct f2fs_node *, void *),
		       void *arg)
{
	uint64_t blk = node_blk(fx, nid);
	struct f2fs_node n;

	if (!blk)
		return;
	read_blk(fx, blk, &n);
	edit(&n, arg);
	f2fs_inode_seal(f2fs_blkgeo_4k(), &n, fx->cfg.features,
			f2fs_inode_chksum_seed(fx->sb.uuid));
	write_blk(fx, blk, &n);
}

/* Check @fx and return how often @code came (its last report in @s). */
static unsigned int count_code(struct fixture *fx, enum f2fs_problem_code code, struct seen *s)
{
	struct f2fs_check_result r;

	CHECK_EQ_U64(run_check(fx->dev, s, &r), 0);
	return s->count[code];
}

static void set_extent(struct f2fs_node *n, void *arg)
{
	const uint32_t *x = arg;

	n->i.i_ext.fofs = le32_put(x[0]);
	n->i.i_ext.blk = le32_put(x[1]);
	n->i.i_ext.len = le32_put(x[2]);
}

/*
 * The root directory has one dentry block, at file block 0: an extent
 * covering exactly that is fine; one claiming more, one at block 0 of the
 * device, one shifted by a block, one past the largest file offset are not.
 */
static void test_inode_extent(void)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM;
	struct fixture fx;
	uint32_t root, dblk, x[3];
	struct seen s;

	if (!make_image(&fx, features, 1))
		return;
	root = le32_get(fx.sb.root_ino);
	dblk = (uint32_t)root_dentry_blk(&fx.l);
	x[0] = 0, x[1] = dblk, x[2] = 1;
	edit_inode(&fx, root, set_extent, x);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_EXTENT, &s), 0);
	CHECK_EQ_U64(run_check(fx.dev, &s, &(struct f2fs_check_result){0}), 0);

	x[2] = 2; /* a second block the file does not have */
	edit_inode(&fx, root, set_extent, x);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_EXTENT, &s), 1);
	CHECK_EQ_U64(s.extent.nid, root);
	CHECK_EQ_U64(s.extent.blkaddr, dblk);
	CHECK_EQ_U64(s.extent.value, 0);
	CHECK_EQ_U64(s.extent.expected, 2);

	x[1] = 0, x[2] = 1; /* no block address */
	edit_inode(&fx, root, set_extent, x);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_EXTENT, &s), 1);

	x[0] = 1, x[1] = dblk; /* the block is at file block 0, not 1 */
	edit_inode(&fx, root, set_extent, x);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_EXTENT, &s), 1);

	x[0] = 0xffffff00u, x[2] = 0x200; /* past any file's last block */
	edit_inode(&fx, root, set_extent, x);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_EXTENT, &s), 1);
	expect_code(&fx, PR_INODE_EXTENT, 1);
	fixture_free(&fx);
}

static void or_flags(struct f2fs_node *n, void *arg)
{
	n->i.i_flags = le32_put(le32_get(n->i.i_flags) | *(uint32_t *)arg);
}

/* Casefold on a volume without the feature; compression without the feature. */
static void test_inode_flags(void)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM;
	uint32_t casefold = F2FS_CASEFOLD_FL, compr = F2FS_COMPR_FL;
	struct fixture fx;
	struct seen s;

	if (!make_image(&fx, features, 1))
		return;
	edit_inode(&fx, le32_get(fx.sb.root_ino), or_flags, &casefold);
	expect_code(&fx, PR_INODE_CASEFOLD, 1);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_COMPRESS, &s), 0);
	fixture_free(&fx);

	if (!make_image(&fx, features, 1))
		return;
	edit_inode(&fx, le32_get(fx.sb.root_ino), or_flags, &compr);
	expect_code(&fx, PR_INODE_COMPRESS, 1);
	CHECK_EQ_U64(count_code(&fx, PR_INODE_CASEFOLD, &s), 0);
	fixture_free(&fx);
}

/* What to do to the inline file make_inline_file() builds. */
struct inline_edit {
	uint64_t size;	   /* i_size */
	uint32_t reserved; /* the word before the inline data */
	bool data_exist;   /* F2FS_DATA_EXIST */
	uint32_t casefold; /* i_flags bits to add */
};

/*
 * Turn lost+found into a regular file keeping "hello" inline, as @e says.
 * Its old dentry block then belongs to nothing and the root has one
 * subdirectory less: those problems come too, and are not counted here.
 */
static void make_inline_file(struct f2fs_node *n, void *arg)
{
	const struct inline_edit *e = arg;
	unsigned int first = f2fs_inode_first_addr(&n->i);

	n->i.i_mode = le16_put(S_IFREG | 0644);
	n->i.i_links = le32_put(1);
	n->i.i_blocks = le64_put(1);
	n->i.i_size = le64_put(e->size);
	n->i.i_inline = (uint8_t)((n->i.i_inline & F2FS_EXTRA_ATTR) | F2FS_INLINE_DATA |
				  (e->data_exist ? F2FS_DATA_EXIST : 0));
	n->i.i_flags = le32_put(e->casefold);
	memset(&n->i.i_addr[first], 0, (F2FS_DEF_ADDRS_PER_INODE - first) * 4u);
	n->i.i_addr[first] = le32_put(e->reserved);
	memcpy((uint8_t *)f2fs_inline_data(&n->i), "hello", 5);
}

/* Check lost+found made an inline file by @e; @s gets the counts. */
static void check_inline_file(const struct inline_edit *e, struct seen *s,
			      struct f2fs_check_result *r)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM |
			    F2FS_FEATURE_LOST_FOUND | F2FS_FEATURE_CASEFOLD;
	struct fixture fx;

	memset(s, 0, sizeof(*s));
	if (!make_image(&fx, features, 1))
		return;
	edit_inode(&fx, fx.res.lost_found_ino, make_inline_file, (void *)e);
	CHECK_EQ_U64(run_check(fx.dev, s, r), 0);
	fixture_free(&fx);
}

static void test_inline_data(void)
{
	struct inline_edit e = {.size = 5, .data_exist = true};
	struct f2fs_check_result r;
	struct seen s;

	check_inline_file(&e, &s, &r); /* a good inline file */
	CHECK_EQ_U64(s.count[PR_INODE_INLINE_SIZE] + s.count[PR_INODE_INLINE_RESERVED] +
			 s.count[PR_INODE_INLINE_JUNK] + s.count[PR_INODE_CASEFOLD],
		     0);
	e.size = 4000; /* more than an inode holds */
	check_inline_file(&e, &s, &r);
	CHECK_EQ_U64(s.count[PR_INODE_INLINE_SIZE], 1);
	e.size = 5, e.reserved = 0x1234;
	check_inline_file(&e, &s, &r);
	CHECK_EQ_U64(s.count[PR_INODE_INLINE_RESERVED], 1);
	/* data without the flag: the kernel sets the flag itself, a warning */
	e.reserved = 0, e.data_exist = false;
	check_inline_file(&e, &s, &r);
	CHECK_EQ_U64(s.count[PR_INODE_INLINE_JUNK], 1);
	CHECK(r.warnings >= 1);
	CHECK(f2fs_problem_info(PR_INODE_INLINE_JUNK)->warning);
	/* casefold is for directories, even on a casefold volume */
	e.data_exist = true, e.casefold = F2FS_CASEFOLD_FL;
	check_inline_file(&e, &s, &r);
	CHECK_EQ_U64(s.count[PR_INODE_CASEFOLD], 1);
}

/* An inline xattr area on the root: header, then entries of @len bytes. */
static void put_xattrs(struct f2fs_node *n, void *arg)
{
	const uint8_t *list = arg;
	uint8_t *area;

	n->i.i_inline |= F2FS_INLINE_XATTR;
	n->i.i_inline_xattr_size = le16_put(F2FS_INLINE_XATTR_ADDRS);
	area = (uint8_t *)f2fs_inline_xattr(
	    f2fs_blkgeo_4k(), &n->i, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR);
	memset(area, 0, F2FS_INLINE_XATTR_ADDRS * 4u);
	memcpy(area, list, 64);
}

static void test_xattrs(void)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM |
			    F2FS_FEATURE_FLEXIBLE_INLINE_XATTR;
	/* magic, refcount 1, then user.tag = "abcd": 4 + 3 + 4 bytes, padded to 12 */
	uint8_t list[64] = {0x11, 0x20, 0xf5, 0xf2, 1, 0, 0, 0};
	static const uint8_t entry[] = {1, 3, 4, 0, 't', 'a', 'g', 'a', 'b', 'c', 'd', 0};
	struct fixture fx;
	struct seen s;

	memcpy(list + F2FS_XATTR_HEADER_SIZE, entry, sizeof(entry));
	if (!make_image(&fx, features, 1))
		return;
	edit_inode(&fx, le32_get(fx.sb.root_ino), put_xattrs, list);
	CHECK_EQ_U64(count_code(&fx, PR_XATTR_ENTRY, &s) + s.count[PR_XATTR_TRAILING], 0);

	list[F2FS_XATTR_HEADER_SIZE + 2] = 0xf4, list[F2FS_XATTR_HEADER_SIZE + 3] = 1; /* 500 */
	edit_inode(&fx, le32_get(fx.sb.root_ino), put_xattrs, list);
	expect_code(&fx, PR_XATTR_ENTRY, 1);

	list[F2FS_XATTR_HEADER_SIZE + 2] = 4, list[F2FS_XATTR_HEADER_SIZE + 3] = 0;
	list[F2FS_XATTR_HEADER_SIZE + 20] = 0x77; /* after the terminating word */
	edit_inode(&fx, le32_get(fx.sb.root_ino), put_xattrs, list);
	expect_code(&fx, PR_XATTR_TRAILING, 1);
	CHECK_EQ_U64(count_code(&fx, PR_XATTR_ENTRY, &s), 0);
	fixture_free(&fx);
}

/*
 * The hot data log moves to another segment, so the root's dentry block
 * lies in a closed segment whose summary is the SSA block on disk: written
 * right it is clean; with a node type, or a version the root's NAT entry
 * does not have, it is not.
 */
static void close_hot_data_log(struct fixture *fx, uint8_t type, uint8_t version)
{
	uint8_t blk[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	struct f2fs_summary_block *sum = (struct f2fs_summary_block *)blk;
	uint32_t last = fx->l.cp_blkaddr + 6 + fx->l.cp_payload - 1;
	uint32_t seg = fx->l.cur_seg[F2FS_CURSEG_HOT_DATA];

	read_blk(fx, fx->l.cp_blkaddr, blk);
	if (le32_get(cp->cur_data_segno[0]) == seg) {
		/* the log's new segment counts as in use */
		cp->cur_data_segno[0] = le32_put(fx->l.cur_seg[F2FS_CURSEG_COLD_DATA] + 8);
		cp->free_segment_count = le32_put(le32_get(cp->free_segment_count) - 1);
	}
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	write_blk(fx, fx->l.cp_blkaddr, blk);
	write_blk(fx, last, blk);
	memset(blk, 0, BLK);
	sum->entries[0].nid = fx->sb.root_ino;
	sum->entries[0].version = version;
	sum->footer.entry_type = type;
	write_blk(fx, fx->l.ssa_blkaddr + seg, blk);
}

static void test_ssa_type_and_version(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;

	if (!make_image(&fx, 0, 1))
		return;
	close_hot_data_log(&fx, F2FS_SUM_TYPE_DATA, 0);
	CHECK_EQ_U64(run_check(fx.dev, &s, &r), 0);
	CHECK_EQ_U64(r.problems, 0);
	close_hot_data_log(&fx, F2FS_SUM_TYPE_NODE, 0);
	expect_code(&fx, PR_SSA_TYPE, 1);
	close_hot_data_log(&fx, F2FS_SUM_TYPE_DATA, 3);
	expect_code(&fx, PR_SSA_VERSION, 1);
	CHECK_EQ_U64(count_code(&fx, PR_SSA_TYPE, &s), 0);
	fixture_free(&fx);
}

static void set_pino(struct f2fs_node *n, void *arg)
{
	n->i.i_pino = le32_put(*(uint32_t *)arg);
}

static void test_dir_pino(void)
{
	struct fixture fx;
	uint32_t pino = 77;

	if (!make_image(&fx, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_LOST_FOUND, 1))
		return;
	edit_inode(&fx, fx.res.lost_found_ino, set_pino, &pino);
	expect_code(&fx, PR_DIR_PINO, 1);
	fixture_free(&fx);
}

/*
 * lost+found's NAT entry points at the root's block (or nowhere): the entry
 * naming it is reported with the path of its directory, and the root's
 * link count, which counted it, no longer holds.
 */
static void test_lost_dir(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;
	uint32_t lpf, root;
	int i;

	for (i = 0; i < 2; i++) {
		if (!make_image(&fx, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_LOST_FOUND, 1))
			return;
		lpf = fx.res.lost_found_ino;
		root = le32_get(fx.sb.root_ino);
		CHECK(fixture_nat_set(&fx, lpf, lpf, i ? 0 : (uint32_t)root_inode_blk(&fx.l)));
		CHECK_EQ_U64(run_check(fx.dev, &s, &r), 0);
		CHECK_EQ_U64(s.count[PR_DIR_LOST], 1);
		CHECK_EQ_U64(s.count[PR_DIR_LINKS], 1);
		CHECK_EQ_U64(s.count[i ? PR_DENT_INO : PR_NODE_FOOTER_NID], 1);
		CHECK_EQ_U64(s.lost_dir.nid, lpf);
		CHECK(strstr(s.lost_dir.detail, "entry \"lost+found\" in / (inode 3)") != NULL);
		CHECK(root == 3);
		fixture_free(&fx);
	}
}

/* ---- the journals, nat_bits and the orphan list ---- */

static void nat_append(struct f2fs_journal *j, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	unsigned int n = le16_get(j->n_nats);

	CHECK(n < F2FS_NAT_JOURNAL_ENTRIES);
	if (n >= F2FS_NAT_JOURNAL_ENTRIES)
		return;
	memset(&j->nat_j.entries[n], 0, sizeof(j->nat_j.entries[n]));
	j->nat_j.entries[n].nid = le32_put(nid);
	j->nat_j.entries[n].ne.ino = le32_put(ino);
	j->nat_j.entries[n].ne.block_addr = le32_put(blkaddr);
	j->n_nats = le16_put((uint16_t)(n + 1));
}

static void nat_past_table(struct f2fs_journal *j, void *arg)
{
	(void)arg;
	nat_append(j, 0x7fffffff, 0x7fffffff, 5);
}

/* A NAT journal entry for a nid past the NAT is ignored, and reported. */
static void test_nat_journal(void)
{
	struct fixture fx;

	if (!make_image(&fx, 0, 1))
		return;
	CHECK(fixture_edit_journal(&fx, false, nat_past_table, NULL));
	expect_code(&fx, PR_NAT_JOURNAL, 1);
	fixture_free(&fx);
}

/* The SIT journal entry of an empty open log moved to a segment far past the main area. */
static void sit_past_main(struct f2fs_journal *j, void *arg)
{
	unsigned int i, n = le16_get(j->n_sits);
	bool *done = arg;

	for (i = 0; i < n && i < F2FS_SIT_JOURNAL_ENTRIES && !*done; i++)
		if (!(le16_get(j->sit_j.entries[i].se.vblocks) & F2FS_SIT_VBLOCKS_MASK)) {
			j->sit_j.entries[i].segno = le32_put(1u << 30);
			*done = true;
		}
}

static void test_sit_journal(void)
{
	struct fixture fx;
	bool done = false;

	if (!make_image(&fx, 0, 1))
		return;
	CHECK(fixture_edit_journal(&fx, true, sit_past_main, &done));
	CHECK(done);
	expect_code(&fx, PR_SIT_JOURNAL, 1);
	fixture_free(&fx);
}

/* nat_bits say NAT block 1 (no nid in use) is full. */
static void test_nat_bits(void)
{
	struct fixture fx;
	uint8_t blk[BLK];
	uint64_t trailer;

	if (!make_image(&fx, 0, 1))
		return;
	CHECK(le32_get(fx.cp.ckpt_flags) & CP_NAT_BITS_FLAG);
	/* the trailer ends pack 1's segment: the tag, the full bits, the empty bits */
	trailer = fx.l.cp_blkaddr + F2FS_DEFAULT_BLKS_PER_SEG -
		  f2fs_nat_bits_blocks(fx.l.segment_count_nat, F2FS_BLKSIZE);
	read_blk(&fx, trailer, blk);
	CHECK(f2fs_test_bit_lsb(blk + 8 + f2fs_nat_bits_bytes(fx.l.segment_count_nat), 1));
	f2fs_set_bit_lsb(blk + 8, 1);
	write_blk(&fx, trailer, blk);
	expect_code(&fx, PR_NAT_BITS, 1);
	fixture_free(&fx);
}

/*
 * Rewrite pack 1 with an orphan block listing @ino after its payload: the
 * checkpoint block (flag, total, start_sum), payload, orphans, the mkfs
 * pack's summaries, and the closing copy.
 */
static bool add_orphan(struct fixture *fx, uint32_t ino)
{
	struct f2fs_pack_layout l;
	uint8_t *pack, cpblk[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)cpblk;
	struct f2fs_orphan_block *ob;
	uint32_t i, total;

	read_blk(fx, fx->l.cp_blkaddr, cpblk);
	f2fs_pack_layout(cp, fx->l.cp_payload, &l);
	CHECK(!(le32_get(cp->ckpt_flags) & CP_ORPHAN_PRESENT_FLAG));
	CHECK_EQ_U64(l.data_sum_start, l.orphan_start);
	total = l.total + 1;
	pack = calloc(total, BLK);
	if (!pack)
		return false;
	for (i = 0; i < l.total; i++)
		read_blk(fx, fx->l.cp_blkaddr + i,
			 pack + (size_t)(i < l.orphan_start ? i : i + 1) * BLK);
	ob = (struct f2fs_orphan_block *)(pack + (size_t)l.orphan_start * BLK);
	memset(ob, 0, BLK);
	ob->ino[0] = le32_put(ino);
	ob->entry_count = le32_put(1);
	ob->blk_addr = le16_put(1);
	ob->blk_count = le16_put(1);
	cp->ckpt_flags = le32_put(le32_get(cp->ckpt_flags) | CP_ORPHAN_PRESENT_FLAG);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(le32_get(cp->cp_pack_start_sum) + 1);
	f2fs_cp_seal(cp, F2FS_BLKSIZE);
	memcpy(pack, cpblk, BLK);
	memcpy(pack + (size_t)(total - 1) * BLK, cpblk, BLK);
	for (i = 0; i < total; i++)
		write_blk(fx, fx->l.cp_blkaddr + i, pack + (size_t)i * BLK);
	free(pack);
	return true;
}

static void test_orphan(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_cp_data *cpd;

	if (!make_image(&fx, 0, 1))
		return;
	CHECK(add_orphan(&fx, 500));
	/* the pack reads back with the orphan */
	if (fixture_fs_open(&fx, &fs)) {
		CHECK_EQ_U64(f2fs_fs_cp_data(fs, &cpd), 0);
		if (cpd) {
			CHECK_EQ_U64(cpd->orphan_count, 1);
			CHECK_EQ_U64(cpd->orphan_count ? cpd->orphans[0] : 0, 500);
		}
		f2fs_fs_close(fs);
	}
	expect_code(&fx, PR_ORPHAN, 1);
	fixture_free(&fx);
}

/* ---- inodes the superblock names, and the NAT's node count ---- */

static void test_root_inode_missing(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;

	if (!make_image(&fx, 0, 1))
		return;
	CHECK(fixture_nat_set(&fx, le32_get(fx.sb.root_ino), 0, 0));
	CHECK_EQ_U64(run_check(fx.dev, &s, &r), 0);
	CHECK_EQ_U64(s.count[PR_ROOT_INODE], 1);
	CHECK_EQ_U64(r.valid_inodes, 0);
	fixture_free(&fx);
}

static void test_quota_inode_missing(void)
{
	struct fixture fx;
	uint32_t qino;

	if (!make_image(&fx, F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_QUOTA_INO, 1))
		return;
	qino = le32_get(fx.sb.qf_ino[0]);
	CHECK(qino != 0);
	CHECK(fixture_nat_set(&fx, qino, 0, 0));
	expect_code(&fx, PR_QUOTA_INODE, 1);
	fixture_free(&fx);
}

static void nat_extra_entry(struct f2fs_journal *j, void *arg)
{
	nat_append(j, 300, 300, *(uint32_t *)arg);
}

/*
 * A NAT entry nothing reaches: the NAT's valid count disagrees with the
 * checkpoint, the tree's does not.
 */
static void test_nat_node_count(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;
	uint32_t root_blk;

	if (!make_image(&fx, 0, 1))
		return;
	root_blk = (uint32_t)root_inode_blk(&fx.l);
	CHECK(fixture_edit_journal(&fx, false, nat_extra_entry, &root_blk));
	CHECK_EQ_U64(run_check(fx.dev, &s, &r), 0);
	CHECK_EQ_U64(s.count[PR_COUNT_NAT_NODES], 1);
	CHECK_EQ_U64(s.count[PR_NAT_UNREACHABLE], 1);
	CHECK_EQ_U64(s.count[PR_COUNT_VALID_NODES], 0);
	CHECK_EQ_U64(r.nat_valid_entries, r.cp_valid_nodes + 1);
	CHECK(!f2fs_check_line_ok(&r, F2FS_LINE_NAT_NODES));
	CHECK(f2fs_check_line_ok(&r, F2FS_LINE_VALID_NODES));
	fixture_free(&fx);
}

/* ---- copies the volume rejected ---- */

static void test_rejected_copies(void)
{
	struct fixture fx;
	uint8_t blk[BLK];
	struct f2fs_check_result r;
	struct seen s;

	if (!make_image(&fx, 0, 1))
		return;
	read_blk(&fx, 1, blk);
	blk[F2FS_SUPER_OFFSET] ^= 0xff; /* superblock #1's magic */
	write_blk(&fx, 1, blk);
	read_blk(&fx, fx.l.cp_blkaddr + F2FS_DEFAULT_BLKS_PER_SEG, blk);
	blk[8] ^= 1; /* pack 2's checkpoint block, under its crc */
	write_blk(&fx, fx.l.cp_blkaddr + F2FS_DEFAULT_BLKS_PER_SEG, blk);
	CHECK_EQ_U64(run_check(fx.dev, &s, &r), 0);
	CHECK_EQ_U64(s.count[PR_SB_INVALID], 1);
	CHECK_EQ_U64(s.count[PR_CP_INVALID], 1);
	/* a torn checkpoint pack is what a power cut leaves: a warning, not a problem */
	CHECK_EQ_U64(r.problems, 1);
	CHECK_EQ_U64(r.warnings, 1);
	CHECK(f2fs_check_line_ok(&r, F2FS_LINE_VALID_BLOCKS));
	fixture_free(&fx);
}

/* ---- errors that end the check ---- */

/* Open @fx (its reads going through the fault layer), load the tables, then fail @blk and check. */
static void check_unreadable_block(struct fixture *fx, uint64_t blk, struct seen *s,
				   struct f2fs_check_result *r)
{
	struct f2fs_fs *fs;

	memset(s, 0, sizeof(*s));
	if (!fixture_fs_open(fx, &fs))
		return;
	CHECK_EQ_U64(f2fs_fs_load_all(fs), 0);
	fx->fault.first = blk;
	fx->fault.count = 1;
	fx->fault.hits = 0;
	CHECK_EQ_U64(check_fs(fs, s, r), 0);
	CHECK(fx->fault.hits > 0);
	fx->fault.count = 0;
	f2fs_fs_close(fs);
}

/*
 * Read errors during the walk: the root inode, then its dentry block.  (The
 * SSA is not read for a fresh image: every block in use lies in an open
 * log, whose summary the checkpoint pack holds.)
 */
static void test_read_errors(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;

	if (!make_image(&fx, 0, 1))
		return;
	if (!fixture_fail_reads(&fx)) {
		CHECK(0);
		fixture_free(&fx);
		return;
	}
	check_unreadable_block(&fx, root_inode_blk(&fx.l), &s, &r);
	CHECK_EQ_U64(s.count[PR_IO], 1);
	CHECK_EQ_U64(r.valid_inodes, 0);
	check_unreadable_block(&fx, root_dentry_blk(&fx.l), &s, &r);
	CHECK_EQ_U64(s.count[PR_IO], 1);
	CHECK_EQ_U64(r.valid_inodes, 1);
	fixture_free(&fx);
}

/* A read error while loading a table ends the check: fatal, with the structure named. */
static void test_table_read_error(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;
	struct f2fs_fs *fs;

	if (!make_image(&fx, 0, 1))
		return;
	if (!fixture_fail_reads(&fx) || !fixture_fs_open(&fx, &fs)) {
		CHECK(0);
		fixture_free(&fx);
		return;
	}
	fx.fault.first = fx.l.sit_blkaddr;
	fx.fault.count = (uint64_t)fx.l.segment_count_sit * F2FS_DEFAULT_BLKS_PER_SEG;
	CHECK_EQ_U64(check_fs(fs, &s, &r), -EIO);
	CHECK(r.fatal);
	CHECK(strstr(r.fatal_why, "SIT") != NULL);
	CHECK_EQ_U64(r.problems, 0);
	f2fs_fs_close(fs);
	fixture_free(&fx);
}

static void bad_nat_count(struct f2fs_journal *j, void *arg)
{
	(void)arg;
	j->n_nats = le16_put(F2FS_NAT_JOURNAL_ENTRIES + 1);
}

/* A pack whose contents cannot be loaded: fatal, with the structure named. */
static void test_tables_unloadable(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;

	if (!make_image(&fx, 0, 1))
		return;
	CHECK(fixture_edit_journal(&fx, false, bad_nat_count, NULL));
	CHECK_EQ_U64(run_check(fx.dev, &s, &r), -EINVAL);
	CHECK(r.fatal);
	CHECK(strstr(r.fatal_why, "NAT journal") != NULL);
	CHECK_EQ_U64(r.problems, 0);
	fixture_free(&fx);
}

/* Check the first @blocks blocks of @fx's image, opened as a device cut short. */
static int check_cut(struct fixture *fx, uint64_t blocks, struct seen *s,
		     struct f2fs_check_result *r)
{
	static uint8_t blk[BLK];
	struct f2fs_device *dev;
	struct f2fs_fs *fs = NULL;
	char why[256] = "";
	uint64_t b;
	int ret = -ENOMEM;

	if (f2fs_dev_open_memory(blocks * BLK, &dev))
		return ret;
	for (b = 0; b < blocks; b++) {
		read_blk(fx, b, blk);
		CHECK_EQ_U64(f2fs_dev_write(dev, blk, b * BLK, BLK), 0);
	}
	ret = f2fs_fs_open(dev, F2FS_FS_READ | F2FS_FS_SHORT_DEVICE, &fs, why, sizeof(why));
	if (!ret) {
		ret = check_fs(fs, s, r);
		f2fs_fs_close(fs);
	}
	f2fs_dev_close(dev);
	return ret;
}

/*
 * A device cut short is one PR_DEVICE_TRUNCATED, and what lies inside is
 * checked: cut past every block in use, nothing else is wrong; cut before
 * the root inode's segment, the inode is unreadable (PR_IO), not fatal.
 */
static void test_truncated_device(void)
{
	struct fixture fx;
	struct f2fs_check_result r;
	struct seen s;
	uint32_t last = 0;
	int i;

	if (!make_image(&fx, 0, 1))
		return;
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (fx.l.cur_seg[i] > last)
			last = fx.l.cur_seg[i];
	CHECK_EQ_U64(check_cut(&fx, f2fs_layout_seg_blkaddr(&fx.l, last + 1), &s, &r), 0);
	CHECK_EQ_U64(s.count[PR_DEVICE_TRUNCATED], 1);
	CHECK_EQ_U64(r.problems, 1);
	CHECK_EQ_U64(check_cut(&fx, root_inode_blk(&fx.l), &s, &r), 0);
	CHECK_EQ_U64(s.count[PR_DEVICE_TRUNCATED], 1);
	CHECK_EQ_U64(s.count[PR_IO], 1);
	CHECK(!r.fatal);
	fixture_free(&fx);
}

static void test_unreadable(void)
{
	struct f2fs_device *dev = NULL;
	struct f2fs_fs *fs = (struct f2fs_fs *)&dev;
	char why[256] = "";

	CHECK(f2fs_dev_open_memory(1 << 20, &dev) == 0);
	CHECK(f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why)) < 0);
	CHECK(fs == NULL);
	CHECK(strstr(why, "superblock") != NULL);
	f2fs_dev_close(dev);
}

/* What the progress hook saw, per pass. */
struct progress_log {
	unsigned int calls[5], last_pass, passes;
	uint64_t first_done[5], last_done[5], last_total[5];
	bool out_of_order;
};

static void on_progress(const struct f2fs_progress *p, void *arg)
{
	struct progress_log *g = arg;

	if (p->pass < g->last_pass || p->pass > 4 || !p->name || !*p->name) {
		g->out_of_order = true;
		return;
	}
	if (!g->calls[p->pass])
		g->first_done[p->pass] = p->done;
	g->calls[p->pass]++;
	g->last_done[p->pass] = p->done;
	g->last_total[p->pass] = p->total;
	g->last_pass = p->pass;
	g->passes = p->passes;
}

/*
 * The check reports its four passes in order through the handle's hook,
 * each from 0 to its total, thinned to a bounded number of calls; without a
 * hook nothing is called.
 */
static void test_progress(void)
{
	struct fixture fx;
	struct f2fs_device *dev = make_image(&fx, F2FS_FEATURE_EXTRA_ATTR, 1);
	struct progress_log g = {0};
	struct f2fs_check_result r;
	struct f2fs_fs *fs;
	struct seen s;
	char why[256];
	unsigned int pass;
	uint64_t i;

	CHECK(dev != NULL);
	if (!dev)
		return;
	CHECK_EQ_U64(f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why)), 0);
	f2fs_fs_set_progress(fs, on_progress, &g);
	CHECK_EQ_U64(check_fs(fs, &s, &r), 0);
	CHECK(!g.out_of_order);
	CHECK_EQ_U64(g.passes, 4);
	for (pass = 1; pass <= 4; pass++) {
		CHECK(g.calls[pass] >= 2);
		CHECK(g.calls[pass] <= F2FS_PROGRESS_STEPS + 2);
		CHECK_EQ_U64(g.first_done[pass], 0);
		CHECK_EQ_U64(g.last_done[pass], g.last_total[pass]);
	}
	CHECK_EQ_U64(g.last_total[2], r.valid_inodes);
	CHECK_EQ_U64(g.last_total[3], fx.l.section_count);
	/* a long pass is thinned to the steps, its first and last call kept */
	memset(&g, 0, sizeof(g));
	for (i = 0; i <= 100000; i++)
		f2fs_fs_progress(fs, 1, 1, "counting", i, 100000);
	CHECK(g.calls[1] >= F2FS_PROGRESS_STEPS / 2 && g.calls[1] <= F2FS_PROGRESS_STEPS + 2);
	CHECK_EQ_U64(g.first_done[1], 0);
	CHECK_EQ_U64(g.last_done[1], 100000);
	memset(&g, 0, sizeof(g));
	f2fs_fs_set_progress(fs, NULL, &g);
	CHECK_EQ_U64(check_fs(fs, &s, &r), 0);
	CHECK_EQ_U64(g.calls[1] + g.calls[2] + g.calls[3] + g.calls[4], 0);
	f2fs_fs_close(fs);
	fixture_free(&fx);
}

static void test_problem_table(void)
{
	int code;

	for (code = 0; code < PR_NR_CODES; code++) {
		const struct f2fs_problem_info *p = f2fs_problem_info((enum f2fs_problem_code)code);

		CHECK(p && p->name && !strncmp(p->name, "PR_", 3) && p->structure && p->summary);
		/* a problem fails some line, a warning none */
		CHECK(p && (p->warning ? !p->lines : p->lines != 0));
		CHECK(p && !(p->lines & ~((1u << F2FS_NR_LINES) - 1)));
	}
	CHECK(f2fs_problem_info(PR_CP_INVALID)->warning);
	CHECK(!f2fs_problem_info(PR_SB_INVALID)->warning);
	CHECK(f2fs_problem_info(PR_NR_CODES) == NULL);
	CHECK(f2fs_problem_info((enum f2fs_problem_code) - 1) == NULL);
}

/* The message of a problem with @code and these particulars, as f2fs_problem_message() gives it. */
static bool message_of(enum f2fs_problem_code code, uint64_t value, uint64_t expected, char *buf,
		       size_t size)
{
	struct f2fs_problem p = {
	    .code = code, .nid = 0x2a, .blkaddr = 0x1005, .value = value, .expected = expected};

	return f2fs_problem_message(&p, buf, size);
}

static void test_problem_messages(void)
{
	char buf[256];
	int code;

	/* every row's template expands whole: its names are particulars */
	for (code = 0; code < PR_NR_CODES; code++) {
		const struct f2fs_problem_info *p = f2fs_problem_info((enum f2fs_problem_code)code);

		CHECK_EQ_U64(message_of((enum f2fs_problem_code)code, 9, 3, buf, sizeof(buf)),
			     p->message != NULL);
		CHECK(!strchr(buf, '{'));
	}
	CHECK(message_of(PR_DIR_PINO, 7, 0x10, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "[ASSERT] --> Bad inode number[0x10] for '..', parent parent ino is "
			   "[0x7]"));
	CHECK(message_of(PR_INODE_EXTENT, 12, 3, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "[ASSERT] --> ino: 0x2a has wrong ext: [pgofs:12, blk:4101, len:3]"));
	CHECK(message_of(PR_SSA_TYPE, 1, 0, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "[ASSERT] --> Summary footer is not for node segment"));
	CHECK(message_of(PR_SSA_TYPE, 0, 5, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "[ASSERT] --> Summary footer is not for data segment"));
	CHECK(message_of(PR_NAT_UNREACHABLE, 0x2a, 0, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "NID[0x2a] is unreachable, blkaddr:0x1005"));
	/* links: upstream lists a surplus only */
	CHECK(message_of(PR_INODE_LINKS, 0x1c, 2, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "NID[0x2a] has [0x1a] more unreachable links"));
	CHECK(!message_of(PR_INODE_LINKS, 1, 2, buf, sizeof(buf)) && !buf[0]);
	CHECK(!message_of(PR_SB_INVALID, 1, 2, buf, sizeof(buf)) && !buf[0]);
	/* cut to the buffer, NUL included */
	CHECK(message_of(PR_DIR_PINO, 7, 0x10, buf, 11));
	CHECK(!strcmp(buf, "[ASSERT] -"));
}

/* The fields rows name lie in the inode; kinds with no function of their own always name one. */
static void test_field_rows(void)
{
	int code;

	for (code = 0; code < PR_NR_CODES; code++) {
		const struct f2fs_problem_info *p = f2fs_problem_info((enum f2fs_problem_code)code);
		const struct f2fs_field_fix *f = &p->field;
		bool own = p->fix != F2FS_FIX_LINKS && p->fix != F2FS_FIX_BLOCKS &&
			   p->fix != F2FS_FIX_PINO && p->fix != F2FS_FIX_EXTENT;

		if (f->from == F2FS_FROM_NONE) {
			CHECK(own);
			continue;
		}
		CHECK(f->width && f->offset + f->width <= sizeof(struct f2fs_inode));
		/* past 8 bytes a field can only be cleared, whole */
		CHECK(f->width <= 8 || (f->from == F2FS_FROM_ZERO && !f->mask));
		CHECK(f->width >= 4 || f->mask >> (8 * f->width) == 0);
		CHECK(p->fix != F2FS_FIX_NONE);
	}
	CHECK_EQ_U64(f2fs_problem_info(PR_INODE_LINKS)->field.offset,
		     offsetof(struct f2fs_inode, i_links));
	CHECK_EQ_U64(f2fs_problem_info(PR_INODE_BLOCKS)->field.width, 8);
	CHECK_EQ_U64(f2fs_problem_info(PR_INODE_CASEFOLD)->field.mask, F2FS_CASEFOLD_FL);
}

int main(void)
{
	RUN(test_fresh_images_are_clean);
	RUN(test_check_twice);
	RUN(test_inode_corruptions);
	RUN(test_dentry_corruptions);
	RUN(test_checkpoint_counters);
	RUN(test_section_mismatch);
	RUN(test_nat_journal);
	RUN(test_sit_journal);
	RUN(test_nat_bits);
	RUN(test_orphan);
	RUN(test_root_inode_missing);
	RUN(test_quota_inode_missing);
	RUN(test_nat_node_count);
	RUN(test_rejected_copies);
	RUN(test_read_errors);
	RUN(test_table_read_error);
	RUN(test_tables_unloadable);
	RUN(test_unreadable);
	RUN(test_progress);
	RUN(test_truncated_device);
	RUN(test_problem_table);
	RUN(test_problem_messages);
	RUN(test_field_rows);
	RUN(test_inode_extent);
	RUN(test_inode_flags);
	RUN(test_inline_data);
	RUN(test_xattrs);
	RUN(test_ssa_type_and_version);
	RUN(test_dir_pino);
	RUN(test_lost_dir);
	TEST_EXIT();
}
