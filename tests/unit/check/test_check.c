// SPDX-License-Identifier: GPL-2.0
/*
 * The checker on in-memory images: a fresh volume is clean for every
 * feature set, and single corruptions of the root inode, its dentry block,
 * the SIT journal and the checkpoint counters are reported with their codes.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/mkfs.h"
#include "f2fs/node.h"
#include "f2fs/super.h"
#include "fixture.h"
#include "test.h"

#define IMG_BYTES (128ull << 20)

struct seen {
	unsigned int count[PR_NR_CODES];
	unsigned int sections;
};

static void on_problem(const struct f2fs_problem *p, void *arg)
{
	struct seen *s = arg;

	if (p->code < PR_NR_CODES)
		s->count[p->code]++;
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

static int run_check(struct f2fs_device *dev, struct seen *s, struct f2fs_check_result *r)
{
	struct f2fs_check_options o = {
	    .on_problem = on_problem, .on_section = on_section, .arg = s};

	memset(s, 0, sizeof(*s));
	return f2fs_check(dev, &o, r);
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
		CHECK_EQ_U64(r.valid_blocks, r.cp_valid_blocks);
		CHECK_EQ_U64(r.valid_inodes, r.cp_valid_inodes);
		CHECK_EQ_U64(r.sections, fx.l.section_count);
		CHECK_EQ_U64(s.sections, fx.l.section_count);
		CHECK_EQ_U64(r.sections_bad, 0);
		fixture_free(&fx);
	}
}

/* Corrupt the root inode with @edit, reseal its checksum when asked, expect @code. */
static void expect_root_inode_problem(void (*edit)(struct f2fs_node *), bool reseal,
				      enum f2fs_problem_code code)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM;
	struct fixture fx;
	struct f2fs_device *dev = make_image(&fx, features, 1);
	struct f2fs_super_block sb;
	struct f2fs_node n;
	struct f2fs_check_result r;
	struct seen s;
	uint8_t blk[F2FS_BLKSIZE];

	CHECK(dev != NULL);
	if (!dev)
		return;
	read_blk(&fx, 0, blk);
	memcpy(&sb, blk + F2FS_SUPER_OFFSET, sizeof(sb));
	read_blk(&fx, root_inode_blk(&fx.l), &n);
	edit(&n);
	if (reseal)
		f2fs_inode_seal(&n, features, f2fs_inode_chksum_seed(sb.uuid));
	write_blk(&fx, root_inode_blk(&fx.l), &n);
	CHECK(run_check(dev, &s, &r) == 0);
	CHECK(r.problems > 0);
	CHECK(s.count[code] > 0);
	if (!s.count[code])
		fprintf(stderr, "expected %s\n", f2fs_problem_info(code)->name);
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

static void test_inode_corruptions(void)
{
	expect_root_inode_problem(bump_links, true, PR_INODE_LINKS);
	expect_root_inode_problem(bump_blocks, true, PR_INODE_BLOCKS);
	expect_root_inode_problem(bad_mode, true, PR_INODE_MODE);
	expect_root_inode_problem(odd_extra_isize, true, PR_INODE_EXTRA_ISIZE);
	expect_root_inode_problem(flip_name_byte, false, PR_INODE_CHECKSUM);
	expect_root_inode_problem(bad_footer_nid, true, PR_NODE_FOOTER_NID);
	expect_root_inode_problem(data_out_of_range, true, PR_BLK_RANGE);
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
	CHECK(s.count[PR_NAT_UNREACHABLE] == 1 && s.count[PR_INODE_LINKS] == 1);

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
	f2fs_cp_seal(cp);
	write_blk(&fx, fx.l.cp_blkaddr, blk);
	write_blk(&fx, last, blk);
	CHECK(run_check(dev, &s, &r) == 0);
	CHECK(s.count[PR_COUNT_VALID_BLOCKS] == 1);
	CHECK(s.count[PR_COUNT_VALID_INODES] == 1);
	CHECK(s.count[PR_SIT_FREE_COUNT] == 1);
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
	fixture_free(&fx);
}

static void test_unreadable(void)
{
	struct f2fs_device *dev = NULL;
	struct f2fs_check_result r;
	struct seen s;

	CHECK(f2fs_dev_open_memory(1 << 20, &dev) == 0);
	CHECK(run_check(dev, &s, &r) < 0);
	CHECK(r.fatal && strstr(r.fatal_why, "superblock") != NULL);
	f2fs_dev_close(dev);
}

static void test_problem_table(void)
{
	int code;

	for (code = 0; code < PR_NR_CODES; code++) {
		const struct f2fs_problem_info *p = f2fs_problem_info((enum f2fs_problem_code)code);

		CHECK(p && p->name && !strncmp(p->name, "PR_", 3) && p->structure && p->summary);
	}
	CHECK(f2fs_problem_info(PR_NR_CODES) == NULL);
}

int main(void)
{
	RUN(test_fresh_images_are_clean);
	RUN(test_inode_corruptions);
	RUN(test_dentry_corruptions);
	RUN(test_checkpoint_counters);
	RUN(test_section_mismatch);
	RUN(test_unreadable);
	RUN(test_problem_table);
	TEST_EXIT();
}
