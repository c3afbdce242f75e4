// SPDX-License-Identifier: GPL-2.0
/*
 * The write path's repair primitives (fixup.h, and
 * f2fs_fix_free_nid of write.h), each on its own.  Every case builds the
 * same small volume through the write path, plants one piece of damage
 * behind its back (a field of an inode, a node footer, a NAT, SIT or SSA
 * entry, a directory entry, a superblock copy...), and requires the
 * checker to name it with the problem code it is about.  Then the one
 * primitive that repairs it runs on a handle opened for writing, a
 * checkpoint follows, and the checker must find the volume clean -- and
 * the structure the primitive was to set must hold what it held before the
 * damage, byte for byte, so that the primitive changed that field and no
 * other.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/bitops.h"
#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/fixup.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"
#include "f2fs/write.h"
#include "f2fs/xattr.h"
#include "test.h"
#include "write_fixture.h"

#define BLK	   F2FS_BLKSIZE
#define FEATURES   "extra_attr,inode_checksum,flexible_inline_xattr"
#define DIR_NAMES  60  /* /dir's entries: more than its inline area holds */
#define WIDE_NAMES 160 /* /wide's: more than its first level's two blocks hold */
#define LONG_NAME  "a-name-that-takes-four-slots"
#define BIG_BLOCKS 1200 /* /big: past the inode's addresses, into a direct node */
#define FREE_NID   1000 /* a nid nothing uses */

/* What the checkpoint counts, one segment's SIT entry and the logs' segments, as read back. */
struct space {
	uint64_t valid_blocks;
	uint32_t valid_nodes, valid_inodes, free_segments;
	struct f2fs_seg_entry seg;
	uint32_t log_segno[F2FS_NR_CURSEG_TYPE];
};

/* The volume every case starts from, and what a case saved before damaging it. */
struct tree {
	uint32_t file, hole, x, dir, sub, inner, wide, big, big_dnode;
	uint32_t features;
	/* the structure a case damages, as it was */
	uint32_t nid; /* the node (or inode, or segment) */
	struct f2fs_node before;
	uint64_t blkaddr; /* the block */
	uint8_t blk[BLK];
	struct space space; /* the counts, a segment's SIT entry, the logs */
	uint32_t blk_dir;   /* the directory whose dentry block blk is, and its file block */
	uint64_t fblk;
	struct f2fs_nat_info nat;
	uint32_t slot;
	char name[64]; /* an entry a case moved, and its inode */
	uint32_t name_ino;
};

/* ---- the volume ---- */

static bool make_file(struct f2fs_fs *fs, const char *name, size_t len, uint64_t off, uint32_t *ino)
{
	uint8_t *buf = malloc(len);
	bool ok = buf && !wfx_create(fs, WFX_ROOT, name, S_IFREG | 0644, ino);

	if (ok) {
		wfx_fill(buf, len, *ino);
		ok = !f2fs_pwrite(fs, *ino, buf, len, off);
	}
	free(buf);
	return ok;
}

/* @n entries of four slots each in a new directory @name of the root. */
static bool make_names(struct f2fs_fs *fs, const char *name, unsigned int n, uint32_t *dir)
{
	char entry[64];
	uint32_t ino, i;
	bool ok = !wfx_create(fs, WFX_ROOT, name, S_IFDIR | 0755, dir);

	for (i = 0; ok && i < n; i++) {
		snprintf(entry, sizeof(entry), "entry-%03u-with-a-longer-name", i);
		ok = !wfx_create(fs, *dir, entry, S_IFREG | 0644, &ino);
	}
	return ok;
}

static bool make_dir(struct f2fs_fs *fs, struct tree *t)
{
	uint32_t ino;
	uint8_t blk[BLK];
	bool ok = make_names(fs, "dir", DIR_NAMES, &t->dir) &&
		  !wfx_create(fs, t->dir, "sub", S_IFDIR | 0755, &t->sub) &&
		  !wfx_create(fs, t->sub, "inner", S_IFREG | 0644, &t->inner) &&
		  !wfx_create(fs, t->dir, LONG_NAME, S_IFREG | 0644, &ino);

	wfx_fill(blk, sizeof(blk), t->inner);
	return ok && !f2fs_pwrite(fs, t->inner, blk, sizeof(blk), 0);
}

/*
 * / holds file (3 blocks), hole (its block 0 a hole), x (an inline xattr),
 * big (BIG_BLOCKS blocks), dir, whose entries fill dentry blocks, with
 * sub in it, a directory whose one entry, inner (a block of data), is
 * inline, and wide, whose entries reach the second level of its hash
 * table.  The root's entries are in a dentry block.  Written with an
 * unmount checkpoint.
 */
static bool build(struct fixture *fx, struct tree *t)
{
	struct f2fs_fs *fs;
	bool ok;

	memset(t, 0, sizeof(*t));
	if (!wfx_format(fx, 64ull << 20, FEATURES, 1) || !wfx_open_rw(fx, &fs))
		return false;
	f2fs_write_set_time(fs, FIXTURE_TIME);
	ok = make_file(fs, "file", 3 * BLK, 0, &t->file) &&
	     make_file(fs, "hole", BLK, BLK, &t->hole) && make_file(fs, "x", 100, 0, &t->x) &&
	     !f2fs_setxattr(fs, t->x, 1, "name", "value", 5) &&
	     make_file(fs, "big", BIG_BLOCKS * BLK, 0, &t->big) && make_dir(fs, t) &&
	     make_names(fs, "wide", WIDE_NAMES, &t->wide) && !wfx_checkpoint(fs, true);
	f2fs_fs_close(fs);
	t->features = fx->cfg.features;
	if (ok && wfx_read_inode(fx, t->big, &t->before))
		t->big_dnode = le32_get(t->before.i.i_nid[0]);
	return ok && t->big_dnode;
}

/* ---- one case ---- */

typedef bool (*plant_fn)(struct fixture *fx, struct tree *t);
typedef int (*fix_fn)(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v);
typedef bool (*fixed_fn)(struct fixture *fx, struct tree *t);

/*
 * Build, plant the damage, see the checker name it with @code; fix it with
 * @fix, checkpoint, see the volume clean and @fixed hold.
 */
static void run_case(plant_fn plant, enum f2fs_problem_code code, fix_fn fix, fixed_fn fixed)
{
	struct wfx_verdict *v = malloc(sizeof(*v));
	struct tree *t = malloc(sizeof(*t));
	struct fixture fx;
	struct f2fs_fs *fs;

	if (!v || !t || !build(&fx, t) || !plant(&fx, t)) {
		CHECK(0);
		free(v);
		free(t);
		return;
	}
	CHECK_EQ_U64(wfx_check(&fx, v), 0);
	if (!v->count[code])
		fprintf(stderr, "  expected %s\n", f2fs_problem_info(code)->name);
	CHECK(v->count[code] > 0);
	CHECK(wfx_open_rw(&fx, &fs));
	f2fs_write_set_time(fs, FIXTURE_TIME);
	CHECK_EQ_U64(fix(fs, t, v), 0);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK(fixed(&fx, t));
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(v);
	free(t);
}

/* ---- inodes: f2fs_fix_inode_field, f2fs_fix_inline_reserved ---- */

/* Save inode @ino in t->before, then change it in place with @edit. */
static bool damage_inode(struct fixture *fx, struct tree *t, uint32_t ino,
			 void (*edit)(struct f2fs_node *, void *))
{
	t->nid = ino;
	return wfx_read_inode(fx, ino, &t->before) && wfx_edit_inode(fx, ino, edit, t);
}

/*
 * Do inodes @a and @b hold the same bytes?  Their footers aside (a node
 * moves when written), and so the checksum, which covers the footer.
 */
static bool same_inode(const struct f2fs_node *a, const struct f2fs_node *b)
{
	const uint8_t *x = (const uint8_t *)&a->i, *y = (const uint8_t *)&b->i;
	size_t sum = offsetof(struct f2fs_inode, i_inode_checksum), i;

	for (i = 0; i < sizeof(a->i); i++) {
		if (i >= sum && i < sum + sizeof(a->i.i_inode_checksum))
			continue;
		if (x[i] != y[i]) {
			fprintf(stderr, "  inode %u: byte %zu is 0x%02x, 0x%02x before\n",
				le32_get(a->footer.ino), i, x[i], y[i]);
			return false;
		}
	}
	return true;
}

/* The damaged inode is again what it was, to the byte. */
static bool inode_as_before(struct fixture *fx, struct tree *t)
{
	struct f2fs_node now;

	return wfx_read_inode(fx, t->nid, &now) && same_inode(&now, &t->before);
}

/* Inode field @f of the damaged inode := @value; the bits outside @mask kept (0: none kept). */
#define FIX_FIELD(fs, t, f, mask, value)                                                           \
	f2fs_fix_inode_field(fs, (t)->nid, offsetof(struct f2fs_inode, f),                         \
			     sizeof(((struct f2fs_inode *)0)->f), mask, value)

static void five_links(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_links = le32_put(5);
}

static bool plant_links(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, five_links);
}

static int fix_links(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_links, 0, 1);
}

static void test_fix_inode_sets_links(void)
{
	run_case(plant_links, PR_INODE_LINKS, fix_links, inode_as_before);
}

static void more_blocks(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_blocks = le64_put(le64_get(n->i.i_blocks) + 7);
}

static bool plant_blocks(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, more_blocks);
}

static int fix_blocks(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	return FIX_FIELD(fs, t, i_blocks, 0, v->last[PR_INODE_BLOCKS].expected);
}

static void test_fix_inode_sets_blocks(void)
{
	run_case(plant_blocks, PR_INODE_BLOCKS, fix_blocks, inode_as_before);
}

static void pino_root(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_pino = le32_put(WFX_ROOT);
}

static bool plant_pino(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->sub, pino_root);
}

static int fix_pino(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_pino, 0, t->dir);
}

static void test_fix_inode_sets_pino(void)
{
	run_case(plant_pino, PR_DIR_PINO, fix_pino, inode_as_before);
}

static void stale_extent(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_ext.fofs = le32_put(0);
	n->i.i_ext.blk = le32_put(le32_get(n->i.i_addr[f2fs_inode_first_addr(&n->i)]) + 100);
	n->i.i_ext.len = le32_put(3);
}

static bool plant_extent(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, stale_extent);
}

static int fix_extent(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_ext, 0, 0);
}

static void test_fix_inode_clears_extent(void)
{
	run_case(plant_extent, PR_INODE_EXTENT, fix_extent, inode_as_before);
}

static void long_namelen(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_namelen = le32_put(300);
}

static bool plant_namelen(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, long_namelen);
}

static int fix_namelen(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_namelen, 0, 4); /* "file" */
}

static void test_fix_inode_sets_namelen(void)
{
	run_case(plant_namelen, PR_INODE_NAMELEN, fix_namelen, inode_as_before);
}

static void deep(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_current_depth = le32_put(70);
}

static bool plant_depth(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->dir, deep);
}

static int fix_depth(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_current_depth, 0, le32_get(t->before.i.i_current_depth));
}

static void test_fix_inode_sets_depth(void)
{
	run_case(plant_depth, PR_DIR_DEPTH, fix_depth, inode_as_before);
}

static void encrypted_advise(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_advise |= F2FS_FADVISE_ENCRYPT;
}

static bool plant_advise(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, encrypted_advise);
}

static int fix_advise(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_advise, 0, t->before.i.i_advise);
}

static void test_fix_inode_sets_advise(void)
{
	run_case(plant_advise, PR_INODE_ADVISE, fix_advise, inode_as_before);
}

static void high_dir_level(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_dir_level = 70; /* past the kernel's most, 63 */
}

static bool plant_dir_level(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->dir, high_dir_level);
}

static int fix_dir_level(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_dir_level, 0, 0);
}

static void test_fix_inode_sets_dir_level(void)
{
	run_case(plant_dir_level, PR_DIR_LEVEL, fix_dir_level, inode_as_before);
}

static void compress_flag(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_flags = le32_put(le32_get(n->i.i_flags) | F2FS_COMPR_FL);
}

static bool plant_flags(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, compress_flag);
}

static int fix_flags(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	/* only the compression bit: the others kept */
	return FIX_FIELD(fs, t, i_flags, F2FS_COMPR_FL, 0);
}

static void test_fix_inode_sets_flags(void)
{
	run_case(plant_flags, PR_INODE_COMPRESS, fix_flags, inode_as_before);
}

static void no_type(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_mode = le16_put(le16_get(n->i.i_mode) & ~S_IFMT);
}

static bool plant_type(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, no_type);
}

static int fix_type(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return FIX_FIELD(fs, t, i_mode, S_IFMT, S_IFREG);
}

static void test_fix_inode_sets_type(void)
{
	run_case(plant_type, PR_INODE_MODE, fix_type, inode_as_before);
}

static void reserved_word(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_addr[f2fs_inode_first_addr(&n->i)] = le32_put(0x5a5a);
}

static bool plant_inline_reserved(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->sub, reserved_word);
}

static int fix_inline_reserved(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_inline_reserved(fs, t->nid);
}

static void test_fix_inode_clears_inline_reserved(void)
{
	run_case(plant_inline_reserved, PR_INODE_INLINE_RESERVED, fix_inline_reserved,
		 inode_as_before);
}

/* A checksum that does not verify: the inode is written again, nothing set. */
static bool plant_checksum(struct fixture *fx, struct tree *t)
{
	uint64_t blk = fixture_node_blk(fx, t->file);
	struct f2fs_node n;

	t->nid = t->file;
	if (!blk || !wfx_read_inode(fx, t->file, &t->before) || !fixture_read_blk(fx, blk, &n))
		return false;
	n.i.i_inode_checksum = le32_put(le32_get(n.i.i_inode_checksum) ^ 1);
	return fixture_write_blk(fx, blk, &n);
}

static int fix_rewrite(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_inode_field(fs, t->nid, 0, 0, 0, 0);
}

static void test_fix_inode_rewrite_reseals_checksum(void)
{
	run_case(plant_checksum, PR_INODE_CHECKSUM, fix_rewrite, inode_as_before);
}

/* ---- pointers in nodes: f2fs_fix_pointer, f2fs_fix_clone, f2fs_fix_xattr_cut ---- */

#define FAR_ADDR 0x7ffffff0u /* far past the main area */

static void addr_out_of_range(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_addr[f2fs_inode_first_addr(&n->i) + 5] = le32_put(FAR_ADDR);
}

static bool plant_far_addr(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, addr_out_of_range);
}

static int fix_far_addr(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_pointer(fs, t->file, t->file, F2FS_POINTER_ADDR, 5);
}

static void test_fix_pointer_zeroes_address(void)
{
	run_case(plant_far_addr, PR_BLK_RANGE, fix_far_addr, inode_as_before);
}

static void nid_free(struct f2fs_node *n, void *arg)
{
	(void)arg;
	n->i.i_nid[1] = le32_put(FREE_NID);
}

static bool plant_free_nid_pointer(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->file, nid_free);
}

static int fix_free_nid_pointer(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_pointer(fs, t->file, t->file, F2FS_POINTER_NID, 1);
}

static void test_fix_pointer_zeroes_nid(void)
{
	run_case(plant_free_nid_pointer, PR_NODE_NID_FREE, fix_free_nid_pointer, inode_as_before);
}

/* A byte after the end of the xattr list, at the end of the inline xattr area. */
static void xattr_junk(struct f2fs_node *n, void *arg)
{
	const struct tree *t = arg;
	size_t at =
	    (size_t)(f2fs_inline_xattr(f2fs_blkgeo_4k(), &n->i, t->features) - (const uint8_t *)n);

	((uint8_t *)n)[at + f2fs_inline_xattr_bytes(f2fs_blkgeo_4k(), &n->i, t->features) - 1] =
	    0x5a;
}

static bool plant_xattr_junk(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->x, xattr_junk);
}

static int fix_xattr_junk(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	return f2fs_fix_xattr_cut(fs, t->x, (size_t)v->last[PR_XATTR_TRAILING].value);
}

static void test_fix_xattr_cut_zeroes_trailing_bytes(void)
{
	run_case(plant_xattr_junk, PR_XATTR_TRAILING, fix_xattr_junk, inode_as_before);
}

/* hole's first block (a hole) becomes file's first block: one block, two owners. */
static void share_block(struct f2fs_node *n, void *arg)
{
	const struct tree *t = arg;

	n->i.i_addr[f2fs_inode_first_addr(&n->i)] = le32_put((uint32_t)t->blkaddr);
}

static bool plant_shared_block(struct fixture *fx, struct tree *t)
{
	struct f2fs_node file;

	if (!wfx_read_inode(fx, t->file, &file))
		return false;
	t->blkaddr = le32_get(file.i.i_addr[f2fs_inode_first_addr(&file.i)]);
	return damage_inode(fx, t, t->hole, share_block);
}

static int fix_shared_block(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_clone(fs, t->hole, t->hole, 0, 0, t->blkaddr);
}

/* hole has a block of its own holding file's first block's bytes; file is as it was. */
static bool own_copy(struct fixture *fx, struct tree *t)
{
	uint8_t file[3 * BLK], hole[2 * BLK];
	struct f2fs_fs *fs;
	uint32_t now;

	wfx_fill(file, sizeof(file), t->file);
	memcpy(hole, file, BLK);
	wfx_fill(hole + BLK, BLK, t->hole);
	if (!fixture_fs_open(fx, &fs))
		return false;
	now = wfx_file_block_addr(fs, t->hole, 0);
	f2fs_fs_close(fs);
	return now && now != t->blkaddr && wfx_reads_back(fx, t->hole, hole, sizeof(hole)) &&
	       wfx_reads_back(fx, t->file, file, sizeof(file));
}

static void test_fix_clone_gives_second_owner_a_copy(void)
{
	run_case(plant_shared_block, PR_BLK_REACHED_TWICE, fix_shared_block, own_copy);
}

/* ---- the NAT and node footers ---- */

/* Save @nid's NAT entry, then make it say @ino at @blkaddr. */
static bool damage_nat(struct fixture *fx, struct tree *t, uint32_t nid, uint32_t ino,
		       uint32_t blkaddr)
{
	t->nid = nid;
	return fixture_nat_entry(fx, nid, &t->nat) && fixture_nat_set(fx, nid, ino, blkaddr);
}

static bool nat_as_before(struct fixture *fx, struct tree *t)
{
	struct f2fs_nat_info now;

	if (!fixture_nat_entry(fx, t->nid, &now))
		return false;
	if (now.blkaddr != t->nat.blkaddr || now.ino != t->nat.ino ||
	    now.version != t->nat.version) {
		fprintf(stderr, "  nid %u: ino %u at 0x%x, was ino %u at 0x%x\n", t->nid, now.ino,
			now.blkaddr, t->nat.ino, t->nat.blkaddr);
		return false;
	}
	return true;
}

/* big's direct node said to belong to file. */
static bool plant_nat_ino(struct fixture *fx, struct tree *t)
{
	uint64_t blk = fixture_node_blk(fx, t->big_dnode);

	return blk && damage_nat(fx, t, t->big_dnode, t->file, (uint32_t)blk);
}

static int fix_nat_ino(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_nat_ino(fs, t->big_dnode, t->big);
}

static void test_fix_nat_ino_sets_owner(void)
{
	run_case(plant_nat_ino, PR_NAT_INO, fix_nat_ino, nat_as_before);
}

/* file's inode loses its NAT entry: its name points at a free nid. */
static bool plant_nat_lost(struct fixture *fx, struct tree *t)
{
	return damage_nat(fx, t, t->file, 0, 0);
}

static int fix_nat_set(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_nat_set(fs, t->file, t->file, t->nat.blkaddr, t->nat.version);
}

static void test_fix_nat_set_restores_entry(void)
{
	run_case(plant_nat_lost, PR_DENT_INO, fix_nat_set, nat_as_before);
}

static int fix_node_restore(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_node_restore(fs, t->file, t->nat.blkaddr);
}

static void test_fix_node_restore_points_nat_at_inode(void)
{
	run_case(plant_nat_lost, PR_DENT_INO, fix_node_restore, nat_as_before);
}

/* A nid nothing names, in use in the NAT, at a block nothing uses. */
static bool plant_stray_nid(struct fixture *fx, struct tree *t)
{
	t->nid = FREE_NID;
	return fixture_nat_entry(fx, FREE_NID, &t->nat) &&
	       fixture_nat_set(fx, FREE_NID, FREE_NID, (uint32_t)fixture_free_blk(fx));
}

static int fix_stray_nid(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_free_nid(fs, t->nid);
}

/* The stray nid is free again: no ino, no block (its version moves on, as when a node goes). */
static bool nat_free(struct fixture *fx, struct tree *t)
{
	struct f2fs_nat_info now;

	return fixture_nat_entry(fx, t->nid, &now) && !now.blkaddr && !now.ino;
}

static void test_fix_free_nid_frees_entry(void)
{
	run_case(plant_stray_nid, PR_NAT_UNREACHABLE, fix_stray_nid, nat_free);
}

/* Save node @nid's block in t->before, then change it in place (not an inode: no checksum). */
static bool damage_node(struct fixture *fx, struct tree *t, uint32_t nid,
			void (*edit)(struct f2fs_node *, const struct tree *))
{
	uint64_t blk = fixture_node_blk(fx, nid);
	struct f2fs_node n;

	t->nid = nid;
	if (!blk || !fixture_read_blk(fx, blk, &t->before))
		return false;
	n = t->before;
	edit(&n, t);
	return fixture_write_blk(fx, blk, &n);
}

/* The damaged node holds what it held, and its footer names it as before. */
static bool node_as_before(struct fixture *fx, struct tree *t)
{
	uint64_t blk = fixture_node_blk(fx, t->nid);
	const struct f2fs_node_footer *was = &t->before.footer;
	struct f2fs_node now;

	if (!blk || !fixture_read_blk(fx, blk, &now))
		return false;
	if (memcmp(&now.dn, &t->before.dn, sizeof(now.dn)) || now.footer.nid != was->nid ||
	    now.footer.ino != was->ino || now.footer.flag != was->flag) {
		fprintf(stderr, "  node %u: footer nid %u ino %u flag 0x%x\n", t->nid,
			le32_get(now.footer.nid), le32_get(now.footer.ino),
			le32_get(now.footer.flag));
		return false;
	}
	return true;
}

static void foreign_ino(struct f2fs_node *n, const struct tree *t)
{
	n->footer.ino = le32_put(t->file);
}

static bool plant_footer_ino(struct fixture *fx, struct tree *t)
{
	return damage_node(fx, t, t->big_dnode, foreign_ino);
}

static int fix_footer_ids(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_node_ids(fs, t->big_dnode, t->big);
}

static void test_fix_node_ids_names_owner(void)
{
	run_case(plant_footer_ino, PR_NODE_FOOTER_INO, fix_footer_ids, node_as_before);
}

static void wrong_offset(struct f2fs_node *n, const struct tree *t)
{
	uint32_t flag = le32_get(n->footer.flag);

	(void)t;
	n->footer.flag =
	    le32_put(7u << F2FS_OFFSET_BIT_SHIFT | (flag & ((1u << F2FS_OFFSET_BIT_SHIFT) - 1)));
}

static bool plant_footer_ofs(struct fixture *fx, struct tree *t)
{
	return damage_node(fx, t, t->big_dnode, wrong_offset);
}

static int fix_footer_ofs(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_node_ofs(fs, t->big_dnode, f2fs_node_ofs(f2fs_blkgeo_4k(), &t->before));
}

static void test_fix_node_ofs_sets_tree_offset(void)
{
	run_case(plant_footer_ofs, PR_NODE_OFFSET, fix_footer_ofs, node_as_before);
}

/* ---- directory entries: f2fs_fix_dentry, f2fs_fix_dots, f2fs_fix_attach ---- */

/* The slot of the entry @name in @a, or a->nr. */
static uint32_t slot_of(const struct f2fs_dentry_area *a, const char *name)
{
	size_t len = strlen(name);
	uint32_t i;

	for (i = 0; i < a->nr; i++)
		if (f2fs_test_bit_lsb(a->bitmap, i) && le16_get(a->dentry[i].name_len) == len &&
		    !memcmp(f2fs_dentry_name(a, i), name, len))
			return i;
	return a->nr;
}

/* The entry of "inner" in sub's inline area: t->slot, or false when it is not there. */
static bool inner_entry(struct f2fs_node *n, struct tree *t, struct f2fs_dentry_area *a)
{
	if (!(n->i.i_inline & F2FS_INLINE_DENTRY) ||
	    f2fs_inline_dentry_area(f2fs_blkgeo_4k(), &n->i, t->features, a))
		return false;
	t->slot = slot_of(a, "inner");
	return t->slot < a->nr;
}

static void flip_hash(struct f2fs_node *n, void *arg)
{
	struct f2fs_dentry_area a;

	if (inner_entry(n, arg, &a))
		a.dentry[((struct tree *)arg)->slot].hash_code ^= le32_put(1);
}

static bool plant_hash(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->sub, flip_hash);
}

static int fix_hash(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_dentry(fs, t->sub, F2FS_DENTRY_INLINE, t->slot, F2FS_DENTRY_FIX_HASH);
}

static void test_fix_dentry_recomputes_hash(void)
{
	run_case(plant_hash, PR_DENT_HASH, fix_hash, inode_as_before);
}

static void dir_type(struct f2fs_node *n, void *arg)
{
	struct f2fs_dentry_area a;

	if (inner_entry(n, arg, &a))
		a.dentry[((struct tree *)arg)->slot].file_type = F2FS_FT_DIR;
}

static bool plant_type_of_entry(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->sub, dir_type);
}

static int fix_type_of_entry(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_dentry(fs, t->sub, F2FS_DENTRY_INLINE, t->slot, F2FS_DENTRY_FIX_TYPE);
}

static void test_fix_dentry_takes_type_from_inode(void)
{
	run_case(plant_type_of_entry, PR_DENT_FILE_TYPE, fix_type_of_entry, inode_as_before);
}

/*
 * Save the dentry block of directory @dir holding @name in t->blk (its
 * file block t->fblk, address t->blkaddr) and @name's slot in t->slot.
 */
static bool dentry_block_of(struct fixture *fx, struct tree *t, uint32_t dir, const char *name)
{
	struct f2fs_dentry_area a;
	struct f2fs_fs *fs;

	if (!fixture_fs_open(fx, &fs))
		return false;
	t->blk_dir = dir;
	for (t->fblk = 0; t->fblk < 4; t->fblk++) {
		t->blkaddr = wfx_file_block_addr(fs, dir, t->fblk);
		if (!t->blkaddr || !fixture_read_blk(fx, t->blkaddr, t->blk))
			continue;
		f2fs_dentry_block_area(f2fs_blkgeo_4k(), (struct f2fs_dentry_block *)t->blk, &a);
		t->slot = slot_of(&a, name);
		if (t->slot < a.nr)
			break;
	}
	f2fs_fs_close(fs);
	return t->fblk < 4;
}

/* The saved dentry block, changed by @edit, written over it (t->blk is kept as it was). */
static bool damage_dentry_block(struct fixture *fx, struct tree *t,
				void (*edit)(struct f2fs_dentry_area *, struct tree *))
{
	uint8_t blk[BLK];
	struct f2fs_dentry_area a;

	memcpy(blk, t->blk, BLK);
	f2fs_dentry_block_area(f2fs_blkgeo_4k(), (struct f2fs_dentry_block *)blk, &a);
	edit(&a, t);
	return fixture_write_blk(fx, t->blkaddr, blk);
}

/* The damaged dentry block is again what it was (wherever it was written since). */
static bool dentry_block_as_before(struct fixture *fx, struct tree *t)
{
	uint8_t blk[BLK];
	struct f2fs_fs *fs;
	uint64_t addr;

	if (!fixture_fs_open(fx, &fs))
		return false;
	addr = wfx_file_block_addr(fs, t->blk_dir, t->fblk);
	f2fs_fs_close(fs);
	return addr && fixture_read_blk(fx, addr, blk) && !memcmp(blk, t->blk, BLK);
}

/* An entry "ghost", naming a nid nothing uses, in the first free slot of the root's block. */
static void ghost_entry(struct f2fs_dentry_area *a, struct tree *t)
{
	t->slot = f2fs_dentry_area_room(a, 1);
	if (t->slot < a->nr)
		f2fs_dentry_area_put(a, t->slot, "ghost", 5,
				     f2fs_dentry_hash((const unsigned char *)"ghost", 5), FREE_NID,
				     F2FS_FT_REG_FILE);
}

static bool plant_ghost(struct fixture *fx, struct tree *t)
{
	return dentry_block_of(fx, t, WFX_ROOT, "file") && damage_dentry_block(fx, t, ghost_entry);
}

static int fix_ghost(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_dentry(fs, WFX_ROOT, t->fblk, t->slot, F2FS_DENTRY_FIX_CLEAR);
}

static void test_fix_dentry_clears_entry(void)
{
	run_case(plant_ghost, PR_DENT_INO, fix_ghost, dentry_block_as_before);
}

static void unmark_second_slot(struct f2fs_dentry_area *a, struct tree *t)
{
	f2fs_dentry_area_clear(a, t->slot + 1, 1);
}

static bool plant_unmarked(struct fixture *fx, struct tree *t)
{
	return dentry_block_of(fx, t, t->dir, LONG_NAME) &&
	       damage_dentry_block(fx, t, unmark_second_slot);
}

static int fix_unmarked(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_dentry(fs, t->dir, t->fblk, t->slot, F2FS_DENTRY_FIX_MARK);
}

static void test_fix_dentry_marks_name_slots(void)
{
	run_case(plant_unmarked, PR_DENT_BITMAP, fix_unmarked, dentry_block_as_before);
}

static void dotdot_names_self(struct f2fs_dentry_area *a, struct tree *t)
{
	a->dentry[t->slot].ino = a->dentry[0].ino;
}

static bool plant_dotdot(struct fixture *fx, struct tree *t)
{
	return dentry_block_of(fx, t, t->dir, "..") && t->fblk == 0 && t->slot == 1 &&
	       damage_dentry_block(fx, t, dotdot_names_self);
}

static int fix_dotdot(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_dots(fs, t->dir, 0, WFX_ROOT);
}

static void test_fix_dots_rewrites_dotdot(void)
{
	run_case(plant_dotdot, PR_DIR_DOTS, fix_dotdot, dentry_block_as_before);
}

/*
 * The first block of each of the two buckets of wide's second level (one
 * bucket of two blocks at level 0, then two): an entry's hash picks one.
 */
#define LEVEL1_BUCKET0 2
#define LEVEL1_BUCKET1 4

/* The first entry of @a other than the dots: its slot, or a->nr. */
static uint32_t first_name(const struct f2fs_dentry_area *a)
{
	uint32_t i;

	for (i = 2; i < a->nr; i++)
		if (f2fs_test_bit_lsb(a->bitmap, i) && le16_get(a->dentry[i].name_len))
			return i;
	return a->nr;
}

/* Move the first entry of @from into a free run of @to, the other bucket's block. */
static bool move_entry(struct tree *t, struct f2fs_dentry_area *from, struct f2fs_dentry_area *to)
{
	uint32_t slot = first_name(from);
	const struct f2fs_dir_entry *d;
	unsigned int slots;
	size_t len;

	if (slot == from->nr)
		return false;
	d = &from->dentry[slot];
	len = le16_get(d->name_len);
	slots = f2fs_name_slots(len);
	memcpy(t->name, f2fs_dentry_name(from, slot), len);
	t->name[len] = 0;
	t->name_ino = le32_get(d->ino);
	t->slot = f2fs_dentry_area_room(to, slots);
	if (t->slot == to->nr ||
	    f2fs_dentry_area_put(to, t->slot, t->name, len, le32_get(d->hash_code), t->name_ino,
				 d->file_type))
		return false;
	f2fs_dentry_area_clear(from, slot, slots);
	return true;
}

/* An entry of wide's level-1 bucket 0 moved to bucket 1, which its hash does not pick. */
static bool plant_misplaced(struct fixture *fx, struct tree *t)
{
	uint8_t a_blk[BLK], b_blk[BLK];
	struct f2fs_dentry_area a, b;
	struct f2fs_fs *fs;
	uint64_t a_addr, b_addr;

	if (!fixture_fs_open(fx, &fs))
		return false;
	a_addr = wfx_file_block_addr(fs, t->wide, LEVEL1_BUCKET0);
	b_addr = wfx_file_block_addr(fs, t->wide, LEVEL1_BUCKET1);
	f2fs_fs_close(fs);
	if (!a_addr || !b_addr || !fixture_read_blk(fx, a_addr, a_blk) ||
	    !fixture_read_blk(fx, b_addr, b_blk))
		return false;
	f2fs_dentry_block_area(f2fs_blkgeo_4k(), (struct f2fs_dentry_block *)a_blk, &a);
	f2fs_dentry_block_area(f2fs_blkgeo_4k(), (struct f2fs_dentry_block *)b_blk, &b);
	t->fblk = LEVEL1_BUCKET1;
	return move_entry(t, &a, &b) && fixture_write_blk(fx, a_addr, a_blk) &&
	       fixture_write_blk(fx, b_addr, b_blk);
}

static int fix_misplaced(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_dentry(fs, t->wide, t->fblk, t->slot, F2FS_DENTRY_FIX_MOVE);
}

/* The moved name still leads to its inode (the checker saw it where its hash puts it). */
static bool name_found(struct fixture *fx, struct tree *t)
{
	struct f2fs_fs *fs;
	uint32_t ino = 0;

	if (!wfx_open_rw(fx, &fs))
		return false;
	f2fs_lookup(fs, t->wide, t->name, strlen(t->name), &ino);
	f2fs_fs_close(fs);
	return ino == t->name_ino;
}

static void test_fix_dentry_moves_entry_to_its_bucket(void)
{
	run_case(plant_misplaced, PR_DENT_POSITION, fix_misplaced, name_found);
}

/* "inner" leaves sub: its inode is named nowhere. */
static void unname_inner(struct f2fs_node *n, void *arg)
{
	struct f2fs_dentry_area a;

	if (inner_entry(n, arg, &a))
		f2fs_dentry_area_clear(&a, ((struct tree *)arg)->slot, 1);
}

static bool plant_unnamed(struct fixture *fx, struct tree *t)
{
	return damage_inode(fx, t, t->sub, unname_inner);
}

static int fix_attach(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_attach(fs, t->sub, t->inner, "inner", 5);
}

/* sub names inner again, in the slot it had: sub is what it was. */
static void test_fix_attach_names_inode_again(void)
{
	run_case(plant_unnamed, PR_NAT_UNREACHABLE, fix_attach, inode_as_before);
}

static int fix_release(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_release(fs, t->inner);
}

/* inner is gone: its nid free, its data block (t->blkaddr) no longer in use. */
static bool inner_released(struct fixture *fx, struct tree *t)
{
	const struct f2fs_nat_table *nat;
	const struct f2fs_nat_info *e;
	struct f2fs_block_owner o;
	struct f2fs_fs *fs;
	bool ok;

	if (!fixture_fs_open(fx, &fs))
		return false;
	ok = !f2fs_fs_nat(fs, &nat) && (e = f2fs_nat_get(nat, t->inner)) && !e->blkaddr &&
	     !f2fs_block_owner(fs, t->blkaddr, &o) && !o.sit_valid;
	f2fs_fs_close(fs);
	return ok;
}

static bool plant_orphan(struct fixture *fx, struct tree *t)
{
	struct f2fs_fs *fs;

	if (!fixture_fs_open(fx, &fs))
		return false;
	t->blkaddr = wfx_file_block_addr(fs, t->inner, 0);
	f2fs_fs_close(fs);
	return t->blkaddr && plant_unnamed(fx, t);
}

static void test_fix_release_frees_orphan(void)
{
	run_case(plant_orphan, PR_NAT_UNREACHABLE, fix_release, inner_released);
}

/* ---- superblocks ---- */

static bool plant_bad_super(struct fixture *fx, struct tree *t)
{
	uint8_t blk[BLK];

	if (!fixture_read_blk(fx, 1, t->blk))
		return false;
	memcpy(blk, t->blk, BLK);
	blk[F2FS_SUPER_OFFSET] ^= 0xff; /* the magic */
	return fixture_write_blk(fx, 1, blk);
}

static int fix_bad_super(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	unsigned int written = 0;
	int ret = f2fs_fix_superblocks(fs, &written);

	(void)t;
	(void)v;
	return ret ? ret : written == 1 ? 0 : -EPROTO;
}

static bool super_as_before(struct fixture *fx, struct tree *t)
{
	uint8_t blk[BLK];

	return fixture_read_blk(fx, 1, blk) && !memcmp(blk, t->blk, BLK);
}

static void test_fix_superblocks_rewrites_rejected_copy(void)
{
	run_case(plant_bad_super, PR_SB_INVALID, fix_bad_super, super_as_before);
}

/* ---- the SIT, the logs, the SSA, the journals ---- */

static bool space_of(struct fixture *fx, uint32_t segno, struct space *sp)
{
	const struct f2fs_sit_table *sit;
	const struct f2fs_cp_data *cpd;
	const struct f2fs_checkpoint *cp;
	struct f2fs_fs *fs;
	bool ok;

	if (!fixture_fs_open(fx, &fs))
		return false;
	cp = f2fs_fs_cp(fs);
	ok = !f2fs_fs_sit(fs, &sit) && !f2fs_fs_cp_data(fs, &cpd) && f2fs_sit_seg(sit, segno);
	if (ok) {
		sp->valid_blocks = le64_get(cp->valid_block_count);
		sp->valid_nodes = le32_get(cp->valid_node_count);
		sp->valid_inodes = le32_get(cp->valid_inode_count);
		sp->free_segments = le32_get(cp->free_segment_count);
		sp->seg = *f2fs_sit_seg(sit, segno);
		memcpy(sp->log_segno, cpd->curseg_segno, sizeof(sp->log_segno));
	}
	f2fs_fs_close(fs);
	return ok;
}

static bool same_space(const struct space *a, const struct space *b)
{
	return a->valid_blocks == b->valid_blocks && a->valid_nodes == b->valid_nodes &&
	       a->valid_inodes == b->valid_inodes && a->free_segments == b->free_segments &&
	       a->seg.valid == b->seg.valid && a->seg.ckpt_valid == b->seg.ckpt_valid &&
	       a->seg.type == b->seg.type && !memcmp(a->seg.map, b->seg.map, sizeof(a->seg.map));
}

/* Where segment @segno's SIT entry lies on the device: block, and entry index in it. */
static bool sit_entry_place(struct fixture *fx, uint32_t segno, uint64_t *blk)
{
	const struct f2fs_cp_data *cpd;
	struct f2fs_fs *fs;
	uint32_t idx = segno / F2FS_SIT_ENTRY_PER_BLOCK;
	bool ok;

	if (!fixture_fs_open(fx, &fs))
		return false;
	ok = !f2fs_fs_cp_data(fs, &cpd);
	if (ok)
		*blk = f2fs_sb_sit_block_addr(f2fs_fs_sb(fs), idx,
					      f2fs_test_bit_msb(cpd->sit_bitmap, idx));
	f2fs_fs_close(fs);
	return ok;
}

/* The SIT block says the first block of the volume's last (free) segment is in use. */
static bool plant_stray_sit_bit(struct fixture *fx, struct tree *t)
{
	union {
		struct f2fs_sit_block b;
		uint8_t raw[BLK];
	} blk;
	struct f2fs_sit_entry *e;
	struct space *sp = &t->space;
	uint64_t addr;

	t->nid =
	    (uint32_t)((fixture_free_blk(fx) - fx->l.main_blkaddr) / F2FS_DEFAULT_BLKS_PER_SEG);
	if (!space_of(fx, t->nid, sp) || sp->seg.valid || !sit_entry_place(fx, t->nid, &addr) ||
	    !fixture_read_blk(fx, addr, blk.raw))
		return false;
	e = &blk.b.entries[t->nid % F2FS_SIT_ENTRY_PER_BLOCK];
	e->vblocks = le16_put((uint16_t)(F2FS_CURSEG_COLD_DATA << F2FS_SIT_VBLOCKS_SHIFT | 1));
	f2fs_set_bit_msb(e->valid_map, 0);
	return fixture_write_blk(fx, addr, blk.raw);
}

/* The segment as it was, then the counts the walk found. */
static int fix_stray_sit_bit(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	const struct space *sp = &t->space;
	int ret = f2fs_fix_segment(fs, t->nid, sp->seg.map, sp->seg.type);

	return ret ? ret
		   : f2fs_fix_recount(fs, v->r.valid_blocks, (uint32_t)v->r.valid_nodes,
				      (uint32_t)v->r.valid_inodes);
}

static bool space_as_before(struct fixture *fx, struct tree *t)
{
	struct space now;

	return space_of(fx, t->nid, &now) && same_space(&now, &t->space);
}

static void test_fix_segment_and_recount_restore_sit(void)
{
	run_case(plant_stray_sit_bit, PR_BLK_SIT_EXTRA, fix_stray_sit_bit, space_as_before);
}

/* The current pack's checkpoint block, changed by @edit, sealed and written as both its copies. */
static bool edit_cp(struct fixture *fx, void (*edit)(struct f2fs_checkpoint *, struct tree *),
		    struct tree *t)
{
	union {
		struct f2fs_checkpoint cp;
		uint8_t raw[BLK];
	} blk;
	struct f2fs_fs *fs;
	uint64_t start;

	if (!fixture_fs_open(fx, &fs))
		return false;
	start = f2fs_volume_cp_start(f2fs_fs_volume(fs));
	f2fs_fs_close(fs);
	if (!fixture_read_blk(fx, start, blk.raw))
		return false;
	edit(&blk.cp, t);
	f2fs_cp_seal(&blk.cp, F2FS_BLKSIZE);
	return fixture_write_blk(fx, start, blk.raw) &&
	       fixture_write_blk(fx, start + le32_get(blk.cp.cp_pack_total_block_count) - 1,
				 blk.raw);
}

/* The warm node log one block back: its next block is an inode in use. */
static void rewind_warm_node(struct f2fs_checkpoint *cp, struct tree *t)
{
	unsigned int i = F2FS_CURSEG_WARM_NODE - F2FS_CURSEG_HOT_NODE;

	t->slot = le16_get(cp->cur_node_blkoff[i]);
	if (t->slot)
		cp->cur_node_blkoff[i] = le16_put((uint16_t)(t->slot - 1));
}

static bool plant_log_over_block(struct fixture *fx, struct tree *t)
{
	struct space *sp = &t->space;

	return space_of(fx, 0, sp) && edit_cp(fx, rewind_warm_node, t) && t->slot;
}

static int fix_log_over_block(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	unsigned int moved = 0;
	int ret = f2fs_fix_logs(fs, &moved);

	(void)t;
	(void)v;
	return ret ? ret : moved == 1 ? 0 : -EPROTO;
}

/* The warm node log is on another segment now; every other log where it was. */
static bool only_warm_node_moved(struct fixture *fx, struct tree *t)
{
	const struct space *was = &t->space;
	struct space now;
	int i;

	if (!space_of(fx, 0, &now))
		return false;
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if ((now.log_segno[i] == was->log_segno[i]) == (i == F2FS_CURSEG_WARM_NODE))
			return false;
	return true;
}

static void test_fix_logs_moves_blocked_log(void)
{
	run_case(plant_log_over_block, PR_CURSEG_NEXT_USED, fix_log_over_block,
		 only_warm_node_moved);
}

/* Save the SSA block of file's first data block (closed by the blocks after it) in t->blk. */
static bool save_ssa_of_file(struct fixture *fx, struct tree *t)
{
	struct f2fs_block_owner o;
	struct f2fs_fs *fs;
	bool ok;

	if (!fixture_fs_open(fx, &fs))
		return false;
	t->blkaddr = wfx_file_block_addr(fs, t->file, 0);
	ok = t->blkaddr && !f2fs_block_owner(fs, t->blkaddr, &o) && o.seg.open_log < 0;
	f2fs_fs_close(fs);
	t->nid = o.segno;
	t->slot = o.ofs_in_node;
	return ok && fixture_read_blk(fx, le32_get(fx->sb.ssa_blkaddr) + t->nid, t->blk);
}

static bool damage_ssa(struct fixture *fx, struct tree *t,
		       void (*edit)(struct f2fs_summary_block *, const struct tree *))
{
	union {
		struct f2fs_summary_block sum;
		uint8_t raw[BLK];
	} blk;

	if (!save_ssa_of_file(fx, t))
		return false;
	memcpy(blk.raw, t->blk, BLK);
	edit(&blk.sum, t);
	return fixture_write_blk(fx, le32_get(fx->sb.ssa_blkaddr) + t->nid, blk.raw);
}

static bool ssa_as_before(struct fixture *fx, struct tree *t)
{
	uint8_t blk[BLK];

	return fixture_read_blk(fx, le32_get(fx->sb.ssa_blkaddr) + t->nid, blk) &&
	       !memcmp(blk, t->blk, BLK);
}

static void foreign_owner(struct f2fs_summary_block *sum, const struct tree *t)
{
	sum->entries[t->blkaddr % F2FS_DEFAULT_BLKS_PER_SEG].nid = le32_put(t->hole);
}

static bool plant_foreign_owner(struct fixture *fx, struct tree *t)
{
	return damage_ssa(fx, t, foreign_owner);
}

static int fix_foreign_owner(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_summary(fs, t->blkaddr, t->file, (uint16_t)t->slot, false);
}

static void test_fix_summary_names_owner(void)
{
	run_case(plant_foreign_owner, PR_SSA_MISMATCH, fix_foreign_owner, ssa_as_before);
}

static void zero_summary(struct f2fs_summary_block *sum, const struct tree *t)
{
	(void)t;
	memset(sum, 0, sizeof(*sum));
	sum->footer.entry_type = F2FS_SUM_TYPE_NODE;
}

static bool plant_lost_summary(struct fixture *fx, struct tree *t)
{
	return damage_ssa(fx, t, zero_summary);
}

static int fix_lost_summary(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)v;
	return f2fs_fix_summary_block(fs, t->nid, (const struct f2fs_summary_block *)t->blk);
}

static void test_fix_summary_block_rewrites_segment_summary(void)
{
	run_case(plant_lost_summary, PR_SSA_TYPE, fix_lost_summary, ssa_as_before);
}

/* A SIT journal entry for a segment far past the main area. */
static void sit_entry_past_main(struct f2fs_journal *j, void *arg)
{
	unsigned int n = le16_get(j->n_sits);
	struct tree *t = arg;

	if (n >= F2FS_SIT_JOURNAL_ENTRIES)
		return;
	memset(&j->sit_j.entries[n], 0, sizeof(j->sit_j.entries[n]));
	j->sit_j.entries[n].segno = le32_put(1u << 30);
	j->n_sits = le16_put((uint16_t)(n + 1));
	t->slot = 1;
}

static bool plant_journal_entry(struct fixture *fx, struct tree *t)
{
	t->slot = 0;
	return fixture_edit_journal(fx, true, sit_entry_past_main, t) && t->slot;
}

static int fix_journal_entry(struct f2fs_fs *fs, struct tree *t, const struct wfx_verdict *v)
{
	(void)t;
	(void)v;
	return f2fs_fix_journals(fs);
}

/* Both journals of the new pack are empty: their entries went to the SIT and NAT blocks. */
static bool journals_empty(struct fixture *fx, struct tree *t)
{
	const struct f2fs_cp_data *cpd;
	struct f2fs_fs *fs;
	bool ok;

	(void)t;
	if (!fixture_fs_open(fx, &fs))
		return false;
	ok = !f2fs_fs_cp_data(fs, &cpd) && !le16_get(cpd->sit_journal.n_sits) &&
	     !le16_get(cpd->nat_journal.n_nats);
	f2fs_fs_close(fs);
	return ok;
}

static void test_fix_journals_empties_them(void)
{
	run_case(plant_journal_entry, PR_SIT_JOURNAL, fix_journal_entry, journals_empty);
}

/* ---- a new root ---- */

/* Segment @segno's SIT entry without block @blkaddr's bit, then the counts the walk found. */
static int release_block(struct f2fs_fs *fs, uint64_t blkaddr, const struct wfx_verdict *v)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);
	const struct f2fs_sit_table *sit;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	const struct f2fs_seg_entry *se;
	uint32_t segno = f2fs_geo_segno(g, blkaddr);
	int ret = f2fs_fs_sit(fs, &sit);

	if (ret || !(se = f2fs_sit_seg(sit, segno)))
		return ret ? ret : -ERANGE;
	memcpy(map, se->map, sizeof(map));
	f2fs_clear_bit_msb(map, f2fs_geo_blkoff(g, blkaddr));
	ret = f2fs_fix_segment(fs, segno, map, se->type);
	return ret ? ret
		   : f2fs_fix_recount(fs, v->r.valid_blocks, (uint32_t)v->r.valid_nodes,
				      (uint32_t)v->r.valid_inodes);
}

/*
 * An empty volume whose root block reads as zeros (its zone reset under
 * it): a new, empty root directory, its old block released.  What the old
 * root held (its dentry block) is for the rest of a repair to reconnect;
 * here the space fix lets it go, after which the volume is clean.
 */
static void test_fix_new_root_replaces_lost_root(void)
{
	struct wfx_verdict *v = malloc(sizeof(*v));
	uint8_t zero[BLK] = {0};
	struct f2fs_block_owner o;
	struct fixture fx;
	struct f2fs_node root;
	struct f2fs_fs *fs;
	uint64_t node, dentries = 0;

	CHECK(v && wfx_format(&fx, 64ull << 20, FEATURES, 1) && fixture_fs_open(&fx, &fs));
	dentries = wfx_file_block_addr(fs, WFX_ROOT, 0);
	f2fs_fs_close(fs);
	node = fixture_node_blk(&fx, WFX_ROOT);
	CHECK(node && dentries && fixture_write_blk(&fx, node, zero));
	CHECK_EQ_U64(wfx_check(&fx, v), 0);
	CHECK(v->count[PR_ROOT_FOOTER] > 0);
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_fix_new_root(fs), 0);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	/* the new root is an empty directory elsewhere; the old block is free */
	CHECK(wfx_read_inode(&fx, WFX_ROOT, &root));
	CHECK(S_ISDIR(le16_get(root.i.i_mode)) && le32_get(root.i.i_links) == 2);
	CHECK(fixture_node_blk(&fx, WFX_ROOT) != node);
	CHECK(fixture_fs_open(&fx, &fs));
	CHECK(!f2fs_block_owner(fs, node, &o) && !o.sit_valid);
	f2fs_fs_close(fs);
	/* only the old dentry block is left over: the old inode is no longer counted */
	CHECK_EQ_U64(wfx_check(&fx, v), 0);
	CHECK_EQ_U64(v->count[PR_BLK_SIT_EXTRA], 1);
	CHECK_EQ_U64(v->last[PR_BLK_SIT_EXTRA].blkaddr, dentries);
	CHECK_EQ_U64(v->count[PR_COUNT_VALID_NODES] + v->count[PR_COUNT_NAT_NODES], 0);
	CHECK_EQ_U64(v->count[PR_COUNT_VALID_INODES], 0);
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(release_block(fs, dentries, v), 0);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(v);
}

int main(void)
{
	RUN(test_fix_inode_sets_links);
	RUN(test_fix_inode_sets_blocks);
	RUN(test_fix_inode_sets_pino);
	RUN(test_fix_inode_clears_extent);
	RUN(test_fix_inode_sets_namelen);
	RUN(test_fix_inode_sets_depth);
	RUN(test_fix_inode_sets_advise);
	RUN(test_fix_inode_sets_dir_level);
	RUN(test_fix_inode_sets_flags);
	RUN(test_fix_inode_sets_type);
	RUN(test_fix_inode_clears_inline_reserved);
	RUN(test_fix_inode_rewrite_reseals_checksum);
	RUN(test_fix_pointer_zeroes_address);
	RUN(test_fix_pointer_zeroes_nid);
	RUN(test_fix_xattr_cut_zeroes_trailing_bytes);
	RUN(test_fix_clone_gives_second_owner_a_copy);
	RUN(test_fix_nat_ino_sets_owner);
	RUN(test_fix_nat_set_restores_entry);
	RUN(test_fix_node_restore_points_nat_at_inode);
	RUN(test_fix_free_nid_frees_entry);
	RUN(test_fix_node_ids_names_owner);
	RUN(test_fix_node_ofs_sets_tree_offset);
	RUN(test_fix_dentry_recomputes_hash);
	RUN(test_fix_dentry_takes_type_from_inode);
	RUN(test_fix_dentry_clears_entry);
	RUN(test_fix_dentry_marks_name_slots);
	RUN(test_fix_dentry_moves_entry_to_its_bucket);
	RUN(test_fix_dots_rewrites_dotdot);
	RUN(test_fix_attach_names_inode_again);
	RUN(test_fix_release_frees_orphan);
	RUN(test_fix_superblocks_rewrites_rejected_copy);
	RUN(test_fix_segment_and_recount_restore_sit);
	RUN(test_fix_logs_moves_blocked_log);
	RUN(test_fix_summary_names_owner);
	RUN(test_fix_summary_block_rewrites_segment_summary);
	RUN(test_fix_journals_empties_them);
	RUN(test_fix_new_root_replaces_lost_root);
	TEST_EXIT();
}
