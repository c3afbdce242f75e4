// SPDX-License-Identifier: GPL-2.0
/*
 * The tree walk.  Starting from the root directory (then the orphan list and
 * the quota files), every inode is read through the NAT and checked:
 * footer nid/ino/offset, mode, extra attributes, inline xattr size,
 * checksum, flags, inline data and dentries, its data blocks through the
 * inode, direct, indirect and double-indirect nodes (and i_ext against
 * them), its xattr node and xattr list, and i_blocks.
 * Directory blocks are parsed entry by entry: name length and slots, hash,
 * inode number, file type, "." and "..".  Every block reached is marked
 * once (a second owner is a problem), must be valid in the SIT and agree
 * with its SSA entry and the SSA block's type.  Collected for the later
 * passes: the bitmap of reached blocks, blocks per segment, and per inode
 * the entries naming it, the subdirectories the walk entered and its
 * stored link count.  Directories are walked breadth-first from a queue,
 * so deep trees need no recursion; each remembers the directory that led
 * to it, so that a subtree that cannot be walked is reported with the path
 * of the entry naming it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "context.h"
#include "f2fs/checkpoint.h"
#include "f2fs/compress.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/ssa.h"
#include "f2fs/xattr.h"

#define MAX_EXTRA_ISIZE (F2FS_EXTRA_ATTR_END - F2FS_EXTRA_ISIZE_OFFSET)
/* the kernel's MAX_INLINE_XATTR_SIZE: room left for the smallest inline dentry block */
#define MAX_INLINE_XATTR(bg) ((bg)->addrs_per_inode - MAX_EXTRA_ISIZE / 4 - 1 - 40 / 4)
/* the least the kernel takes with the flag (6.1 stable's MIN_INLINE_XATTR_SIZE): a header */
#define MIN_INLINE_XATTR (F2FS_XATTR_HEADER_SIZE / 4)

/*
 * i_ext against the blocks found: every file block in [fofs, fofs + len)
 * must be blk + (block - fofs), and no block outside the range may lie in
 * [blk, blk + len) (upstream's rule; the kernel refuses an inode whose
 * extent leaves the main area).
 */
struct extent_check {
	uint32_t fofs, blk, len;
	uint32_t covered; /* blocks of the range found where i_ext says */
	bool bad;
	uint64_t bad_fblk; /* the first file block that disagrees */
	uint32_t bad_addr; /* and its address */
};

/* Per inode while its tree is walked. */
struct inode_walk {
	uint32_t ino;
	uint32_t parent; /* for "..": the directory whose entry led here */
	const struct f2fs_inode *ri;
	uint64_t blocks; /* the inode itself, nodes and data blocks found */
	bool is_dir;
	bool special; /* character or block device, fifo or socket */
	bool casefold;
	bool encrypted;
	bool xnode_ok; /* its xattr node was read into c->xattr_node */
	struct extent_check ext;
	uint32_t dentry_blocks; /* dentry blocks parsed so far */
	uint64_t end_block;	/* one past the last file block with an address */
	uint64_t dent_block; /* file block of the dentry area being parsed, or F2FS_DENTRY_INLINE */
	/* hash bucket the dentry block being parsed serves; nbuckets 0 for inline */
	uint64_t bucket, nbuckets;
	uint32_t depth_needed; /* one past the highest hash level a dentry block lies in */
	/* a compressed file (as the kernel reads one): the cluster being walked */
	unsigned int cluster; /* blocks per cluster; 0 when not compressed */
	uint64_t chead;	      /* file block of its COMPRESS_ADDR; UINT64_MAX: none */
	uint32_t cfirst;      /* its first stored block */
	unsigned int cstored; /* its stored blocks, back to back after the marker */
};

static bool nid_valid(const struct check_ctx *c, uint32_t nid)
{
	const struct f2fs_nat_info *e = f2fs_nat_get(c->nat, nid);

	return nid >= F2FS_FIRST_INO_RESERVED && e && e->blkaddr != F2FS_NULL_ADDR;
}

/* ---- blocks ---- */

/* The SSA block's type must be the type of the blocks in it; reported once per segment. */
static void check_summary_type(struct check_ctx *c, const struct f2fs_summary_block *sum,
			       uint64_t blkaddr, uint32_t segno, uint32_t owner, int ofs_in_node)
{
	bool is_node = ofs_in_node < 0;
	uint8_t want = is_node ? F2FS_SUM_TYPE_NODE : F2FS_SUM_TYPE_DATA;

	if (sum->footer.entry_type == want || f2fs_test_bit_lsb(c->ssa_type_bad, segno))
		return;
	f2fs_set_bit_lsb(c->ssa_type_bad, segno);
	check_report_values(c, PR_SSA_TYPE, owner, blkaddr, is_node,
			    is_node ? 0 : (uint64_t)ofs_in_node,
			    "segment %u holds %s blocks, its summary type is %u (%s)", segno,
			    is_node ? "node" : "data", sum->footer.entry_type,
			    sum->footer.entry_type == F2FS_SUM_TYPE_NODE   ? "node"
			    : sum->footer.entry_type == F2FS_SUM_TYPE_DATA ? "data"
									   : "neither");
}

/*
 * The summary version of a data block is the NAT version of the node
 * holding its address when it was written; a node freed since has a new
 * version, so an older one marks a stale block.
 */
static void check_summary_version(struct check_ctx *c, const struct f2fs_summary *e,
				  uint64_t blkaddr, uint32_t owner, uint32_t ofs_in_node)
{
	const struct f2fs_nat_info *ni = f2fs_nat_get(c->nat, owner);

	if (ni && e->version != ni->version)
		check_report_values(c, PR_SSA_VERSION, owner, blkaddr, 0, ofs_in_node,
				    "SSA version %u, node %u has NAT version %u", e->version, owner,
				    ni->version);
}

static void check_summary(struct check_ctx *c, uint64_t blkaddr, uint32_t segno, uint32_t off,
			  uint32_t owner, int ofs_in_node)
{
	const struct f2fs_summary_block *sum;
	const struct f2fs_summary *e;
	int err;

	if (c->features & F2FS_FEATURE_RO)
		return; /* no SSA: nothing to agree with, as upstream and the kernel see it */
	sum = f2fs_ssa_get(c->ssa, segno, &err);
	if (!sum && err == -ENOMEM) {
		check_fail(c, err);
		return;
	}
	if (!sum) {
		check_report(c, PR_IO, owner, blkaddr, "SSA block of segment %u: error %d", segno,
			     err);
		return;
	}
	check_summary_type(c, sum, blkaddr, segno, owner, ofs_in_node);
	e = &sum->entries[off];
	if (le32_get(e->nid) != owner)
		check_report_values(c, PR_SSA_MISMATCH, owner, blkaddr, ofs_in_node < 0,
				    ofs_in_node < 0 ? 0 : (uint64_t)ofs_in_node,
				    "SSA nid %u, expected %u", le32_get(e->nid), owner);
	else if (ofs_in_node >= 0 && le16_get(e->ofs_in_node) != (unsigned int)ofs_in_node)
		check_report_values(c, PR_SSA_MISMATCH, owner, blkaddr, 0, (uint64_t)ofs_in_node,
				    "SSA ofs_in_node %u, expected %d", le16_get(e->ofs_in_node),
				    ofs_in_node);
	else if (ofs_in_node >= 0)
		check_summary_version(c, e, blkaddr, owner, (uint32_t)ofs_in_node);
}

/*
 * Claim a main-area block for @owner (a node nid, or the node holding a data
 * address, with @ofs_in_node >= 0 for data; @at is then where that address
 * is).  Returns false when the block cannot be used (outside the main area
 * or already owned).
 */
static bool claim_block(struct check_ctx *c, uint64_t blkaddr, uint32_t owner, int ofs_in_node,
			const struct f2fs_place *at)
{
	uint32_t segno, off;
	const struct f2fs_seg_entry *se;
	bool is_node = ofs_in_node < 0;
	int seen;

	if (!in_main_area(c, blkaddr)) {
		check_report_at(c, PR_BLK_RANGE, owner, blkaddr, at, "%s block address 0x%llx",
				is_node ? "node" : "data", (unsigned long long)blkaddr);
		return false;
	}
	if (check_block_past_wp(c, blkaddr)) {
		check_report_at(c, PR_ZONE_BLOCK_PAST_WP, owner, blkaddr, at,
				"%s block 0x%llx: it reads as zeros", is_node ? "node" : "data",
				(unsigned long long)blkaddr);
		return false;
	}
	segno = f2fs_geo_segno(c->geo, blkaddr);
	off = f2fs_geo_blkoff(c->geo, blkaddr);
	seen = mark_seen(c, segno, off);
	if (seen < 0)
		return false;
	if (seen) {
		check_report_at(c, PR_BLK_REACHED_TWICE, owner, blkaddr, at, "block 0x%llx",
				(unsigned long long)blkaddr);
		return false;
	}
	c->found_per_sec[f2fs_geo_secno(c->geo, segno)]++;
	c->seg_kinds[segno] |= is_node ? F2FS_FOUND_NODE : F2FS_FOUND_DATA;
	c->res->valid_blocks++;
	se = f2fs_sit_seg(c->sit, segno);
	if (!f2fs_test_bit_msb(se->map, off))
		check_report(c, PR_BLK_NOT_IN_SIT, owner, blkaddr, "segment %u block %u", segno,
			     off);
	else if (se->type <= F2FS_CURSEG_COLD_NODE && (se->type >= F2FS_CURSEG_HOT_NODE) != is_node)
		check_report(c, PR_SIT_TYPE_MISMATCH, owner, blkaddr,
			     "%s block in segment %u of type %u", is_node ? "node" : "data", segno,
			     se->type);
	check_summary(c, blkaddr, segno, off, owner, ofs_in_node);
	return true;
}

/* Data address @ofs (not NULL_ADDR) of node @owner, of file block @fblk; counts it into @w. */
static void walk_data_addr(struct check_ctx *c, struct inode_walk *w, uint32_t owner, uint32_t addr,
			   unsigned int ofs, uint64_t fblk);

/* ---- nodes ---- */

/*
 * Read node @nid of inode @ino expected at tree offset @ofs and claim its
 * block.  Returns false (after reporting) when it cannot be walked.  @from
 * is where the walk found @nid (an entry, a pointer): a repair that cannot
 * make the node usable cuts the link there.
 */
static bool read_node(struct check_ctx *c, uint32_t nid, uint32_t ino, uint32_t ofs,
		      const struct f2fs_place *from, struct f2fs_node *n)
{
	const struct f2fs_nat_info *e = f2fs_nat_get(c->nat, nid);
	struct nid_rec *rec;
	int ret;

	if (!e || nid < F2FS_FIRST_INO_RESERVED || e->blkaddr == F2FS_NULL_ADDR) {
		check_report_at(c, PR_NODE_NID_FREE, ino, 0, from,
				"nid %u (offset %u) has no NAT entry", nid, ofs);
		return false;
	}
	if (e->ino != ino)
		check_report_values(c, PR_NAT_INO, nid, e->blkaddr, e->ino, ino,
				    "NAT ino %u, expected %u", e->ino, ino);
	if (check_kind(c, nid) != NID_UNSEEN) {
		check_report_at(c, PR_NODE_REACHED_TWICE, nid, e->blkaddr, from, "nid %u", nid);
		return false;
	}
	if (!in_main_area(c, e->blkaddr)) {
		check_report_at(c, PR_NAT_ADDR_RANGE, nid, e->blkaddr, from, "nid %u at 0x%x", nid,
				e->blkaddr);
		return false;
	}
	if (check_block_past_wp(c, e->blkaddr)) {
		check_report_at(c, PR_ZONE_BLOCK_PAST_WP, nid, e->blkaddr, from,
				"node %u at 0x%x: it reads as zeros", nid, e->blkaddr);
		return false;
	}
	ret = f2fs_fs_read_blocks(c->fs, e->blkaddr, n, 1);
	if (ret) {
		check_report(c, PR_IO, nid, e->blkaddr, "node block: %s",
			     ret == -ENXIO ? "past the end of the device" : strerror(-ret));
		return false;
	}
	/*
	 * The root's block is where its NAT entry says; only its footer is
	 * wrong, and no entry could be dropped for it: the footer is rewritten
	 */
	if (nid == c->root_ino && ino == c->root_ino &&
	    (f2fs_footer_nid(&c->geo->blk, n) != nid || f2fs_footer_ino(&c->geo->blk, n) != ino)) {
		check_report_values(
		    c, PR_ROOT_FOOTER, nid, e->blkaddr, f2fs_footer_ino(&c->geo->blk, n), ino,
		    "footer nid %u, ino %u, expected %u", f2fs_footer_nid(&c->geo->blk, n),
		    f2fs_footer_ino(&c->geo->blk, n), nid);
		return false;
	}
	if (f2fs_footer_nid(&c->geo->blk, n) != nid) {
		check_report_at(c, PR_NODE_FOOTER_NID, nid, e->blkaddr, from,
				"footer nid %u, expected %u", f2fs_footer_nid(&c->geo->blk, n),
				nid);
		return false;
	}
	if (f2fs_footer_ino(&c->geo->blk, n) != ino) {
		check_report_at(c, PR_NODE_FOOTER_INO, nid, e->blkaddr, from,
				"footer ino %u, expected %u", f2fs_footer_ino(&c->geo->blk, n),
				ino);
		return false;
	}
	if (f2fs_node_ofs(&c->geo->blk, n) != ofs)
		check_report_values(
		    c, PR_NODE_OFFSET, nid, e->blkaddr, f2fs_node_ofs(&c->geo->blk, n), ofs,
		    "footer offset %u, expected %u", f2fs_node_ofs(&c->geo->blk, n), ofs);
	rec = nid_record(c, nid);
	if (rec)
		rec->kind = NID_NODE;
	if (claim_block(c, e->blkaddr, nid, -1, NULL))
		c->res->valid_nodes++;
	return true;
}

/* Child nid @index of @holder (an inode's i_nid[] or an indirect node), for reports. */
static struct f2fs_place nid_place(const struct inode_walk *w, uint32_t holder, uint32_t index)
{
	return (struct f2fs_place){
	    .kind = F2FS_PLACE_NID, .node = holder, .ino = w->ino, .index = index};
}

/* What the tree walk's callbacks of one inode need. */
struct tree_visit {
	struct check_ctx *c;
	struct inode_walk *w;
};

/*
 * The checker's node source: read_node(), which reports what is wrong with
 * a node (where the walk found it) and claims its block.  A node it
 * refuses was reported; the walk goes on without its subtree.
 */
static int get_tree_node(void *arg, const struct f2fs_tree_pos *at, struct f2fs_node *buf,
			 struct f2fs_node **out, void **ref)
{
	struct tree_visit *v = arg;
	struct f2fs_place from = nid_place(v->w, at->parent, at->slot);

	(void)ref;
	if (!read_node(v->c, at->nid, v->w->ino, at->ofs, &from, buf))
		return -EUCLEAN;
	v->w->blocks++;
	*out = buf;
	return 0;
}

static unsigned int visit_data_addr(struct f2fs_tree_addr *a, void *arg)
{
	struct tree_visit *v = arg;

	walk_data_addr(v->c, v->w, a->node->nid, a->addr, a->index, a->file_block);
	return 0;
}

/*
 * The compressed cluster walked last, when there is one: the header in its
 * first stored block must give a clen its stored blocks hold (the kernel's
 * check before it decompresses; it refuses to read the cluster otherwise).
 */
static void end_cluster(struct check_ctx *c, struct inode_walk *w)
{
	uint64_t head = w->chead;
	uint32_t clen = 0, room;
	uint8_t *blk;
	int ret;

	if (head == UINT64_MAX)
		return;
	w->chead = UINT64_MAX;
	room = w->cstored ? w->cstored * c->geo->blk.blksize - F2FS_COMPRESS_HEADER_SIZE : 0;
	blk = malloc(c->geo->blk.blksize);
	if (!blk) {
		check_fail(c, -ENOMEM);
		return;
	}
	ret = w->cstored ? f2fs_fs_read_blocks(c->fs, w->cfirst, blk, 1) : 0;
	if (ret)
		check_report(c, PR_IO, w->ino, w->cfirst, "compressed cluster: %s", strerror(-ret));
	else if (!w->cstored || f2fs_cluster_clen(blk, w->cstored, c->geo->blk.blksize, &clen))
		check_report_values(
		    c, PR_COMPRESS_CLUSTER, w->ino, w->cfirst, clen, room,
		    "cluster at file block %llu: clen %u, its %u stored blocks hold %u",
		    (unsigned long long)head, clen, w->cstored, room);
	free(blk);
}

/* Note @addr at file block @fblk for the cluster being walked (a block claimed, or the marker). */
static void note_cluster_addr(struct check_ctx *c, struct inode_walk *w, uint32_t addr,
			      uint64_t fblk)
{
	if (!w->cluster)
		return;
	if (w->chead != UINT64_MAX && fblk >= w->chead + w->cluster)
		end_cluster(c, w);
	if (addr == F2FS_COMPRESS_ADDR) {
		if (fblk % w->cluster)
			return;
		end_cluster(c, w);
		w->chead = fblk;
		w->cstored = 0;
	} else if (w->chead != UINT64_MAX && fblk == w->chead + 1 + w->cstored) {
		if (!w->cstored)
			w->cfirst = addr;
		w->cstored++;
	}
}

/* The data addresses of inode @n and of the nodes below it. */
static void walk_file_tree(struct check_ctx *c, struct inode_walk *w, struct f2fs_node *n)
{
	static const struct f2fs_node_source src = {.get = get_tree_node};
	struct tree_visit v = {.c = c, .w = w};
	struct f2fs_tree_walk walk = {.flags = F2FS_TREE_READ_ONLY | F2FS_TREE_KEEP_GOING,
				      .features = c->features,
				      .bg = &c->geo->blk,
				      .src = &src,
				      .src_arg = &v,
				      .addr = visit_data_addr,
				      .arg = &v};
	const struct f2fs_inode *ri = w->ri;
	int ret;

	w->chead = UINT64_MAX;
	w->cluster = 0;
	if ((le32_get(ri->i_flags) & F2FS_COMPR_FL) && (c->features & F2FS_FEATURE_COMPRESSION) &&
	    F2FS_INODE_FITS(ri, i_log_cluster_size) &&
	    ri->i_log_cluster_size >= F2FS_MIN_LOG_CLUSTER &&
	    ri->i_log_cluster_size <= F2FS_MAX_LOG_CLUSTER)
		w->cluster = 1u << ri->i_log_cluster_size;
	ret = f2fs_tree_walk(&walk, n, NULL);
	if (ret < 0)
		check_fail(c, ret);
	end_cluster(c, w);
}

static void walk_xattr_node(struct check_ctx *c, struct inode_walk *w, uint32_t nid)
{
	struct f2fs_node *n = f2fs_block_alloc(c->fs);
	struct f2fs_place at = {.kind = F2FS_PLACE_XATTR_NID, .node = w->ino, .ino = w->ino};

	if (!n) {
		check_fail(c, -ENOMEM);
		return;
	}
	if (!nid_valid(c, nid)) {
		check_report_at(c, PR_INODE_XATTR_NID, w->ino, 0, &at,
				"i_xattr_nid %u has no NAT entry", nid);
	} else if (read_node(c, nid, w->ino, F2FS_XATTR_NODE_OFFSET, &at, n)) {
		w->blocks++;
		memcpy(c->xattr_node, n, f2fs_xattr_node_bytes(&c->geo->blk));
		w->xnode_ok = true;
	}
	free(n);
}

/* ---- directories ---- */

/* Slot @slot of the dentry area of @w being parsed. */
static struct f2fs_place entry_place(const struct inode_walk *w, uint32_t slot)
{
	return (struct f2fs_place){.kind = F2FS_PLACE_ENTRY,
				   .node = w->ino,
				   .ino = w->ino,
				   .index = slot,
				   .block = w->dent_block};
}

static void queue_inode(struct check_ctx *c, uint32_t ino, const struct inode_walk *dir,
			uint8_t type, uint32_t slot, size_t name_len)
{
	if (c->queue_head > 0 && c->queue_len == c->queue_cap) {
		/* drop the entries already walked before growing */
		memmove(c->queue, c->queue + c->queue_head,
			(c->queue_len - c->queue_head) * sizeof(*c->queue));
		c->queue_len -= c->queue_head;
		c->queue_head = 0;
	}
	if (c->queue_len == c->queue_cap) {
		size_t cap = c->queue_cap ? c->queue_cap * 2 : 1024;
		struct pending_inode *q = realloc(c->queue, cap * sizeof(*q));

		if (!q) {
			check_fail(c, -ENOMEM);
			return;
		}
		c->queue = q;
		c->queue_cap = cap;
	}
	c->queue[c->queue_len++] = (struct pending_inode){.ino = ino,
							  .parent = dir->ino,
							  .file_type = type,
							  .entry = entry_place(dir, slot),
							  .name_len = (uint16_t)name_len};
}

static void walk_inode(struct check_ctx *c, uint32_t ino, uint32_t parent, uint8_t type,
		       bool system);

static void check_dots(struct check_ctx *c, struct inode_walk *w, uint32_t parent,
		       const struct f2fs_dir_entry *d, const uint8_t *names, const uint8_t *bitmap)
{
	static const char *const dot[2] = {".", ".."};
	uint32_t want[2] = {w->ino, parent};
	int i;

	for (i = 0; i < 2; i++) {
		size_t len = strlen(dot[i]);
		/* expected: the directory's parent, which the repair writes into ".." */
		struct f2fs_problem p = {.code = PR_DIR_DOTS,
					 .nid = w->ino,
					 .value = le32_get(d[i].ino),
					 .expected = parent,
					 .at = entry_place(w, (uint32_t)i)};

		if (!f2fs_test_bit_lsb(bitmap, (unsigned int)i) || le16_get(d[i].name_len) != len ||
		    memcmp(names + i * F2FS_SLOT_LEN, dot[i], len))
			check_report_problem(c, &p, "\"%s\" missing in slot %d", dot[i], i);
		else if (le32_get(d[i].ino) != want[i])
			check_report_problem(c, &p, "\"%s\" points at %u, expected %u", dot[i],
					     le32_get(d[i].ino), want[i]);
	}
}

/*
 * Directory @ino, named by entry @name (NULL: look it up) of directory
 * @parent, cannot be walked: say where the subtree hangs, since what it
 * holds comes out as unreachable nids only.
 */
static void report_lost_dir(struct check_ctx *c, uint32_t parent, uint32_t ino, const uint8_t *name,
			    size_t len)
{
	char path[96], ename[64];

	check_dir_path(c, parent, path, sizeof(path));
	if (name)
		check_escape_name(ename, sizeof(ename), 0, (const char *)name, len);
	else
		check_entry_name(c, parent, ino, ename, sizeof(ename));
	check_report(c, PR_DIR_LOST, ino, 0,
		     "entry \"%s\" in %s (inode %u) names directory %u, which cannot be walked: "
		     "its subtree is unreachable",
		     ename, path, parent, ino);
}

/*
 * The hash that places an entry: its name's, where the checker can compute
 * it (a wrong stored hash is its own problem); the stored one in casefolded
 * and encrypted directories.
 */
static uint32_t entry_hash(const struct inode_walk *w, const struct f2fs_dir_entry *d,
			   const uint8_t *names, unsigned int slot)
{
	if (w->casefold || w->encrypted)
		return le32_get(d->hash_code);
	return f2fs_dentry_hash(names + (size_t)slot * F2FS_SLOT_LEN, le16_get(d->name_len));
}

/* Entry @d in @slot, its name @name of @len bytes; @hash is entry_hash()'s. */
static void check_entry(struct check_ctx *c, struct inode_walk *w, const struct f2fs_dir_entry *d,
			unsigned int slot, const uint8_t *name, size_t len, uint32_t hash)
{
	uint32_t ino = le32_get(d->ino);
	struct f2fs_place at = entry_place(w, slot);
	struct nid_rec *child;

	/* where the name's hash cannot be computed, @hash is the stored one */
	if (le32_get(d->hash_code) != hash)
		check_report_at(c, PR_DENT_HASH, w->ino, 0, &at,
				"entry \"%.*s\": hash 0x%x, expected 0x%x", (int)len, name,
				le32_get(d->hash_code), hash);
	if (d->file_type == F2FS_FT_UNKNOWN || d->file_type >= F2FS_FT_MAX)
		check_report_at(c, PR_DENT_FILE_TYPE, w->ino, 0, &at,
				"entry \"%.*s\": file type %u", (int)len, name, d->file_type);
	if (!nid_valid(c, ino)) {
		check_report_at(c, PR_DENT_INO, w->ino, 0, &at,
				"entry \"%.*s\" points at free inode %u", (int)len, name, ino);
		if (d->file_type == F2FS_FT_DIR)
			report_lost_dir(c, w->ino, ino, name, len);
		return;
	}
	child = nid_record(c, ino);
	if (!child)
		return; /* out of memory: nid_record() noted it */
	child->entries++;
	if (child->entries == 1) {
		child->entry_type = d->file_type;
		/*
		 * Only directories wait in the queue: a file is a leaf, checked now.
		 * Not from inside such a check, though (its "file" may be a
		 * directory after all), so that a crafted tree cannot nest calls.
		 */
		if (d->file_type == F2FS_FT_DIR || c->in_leaf_walk) {
			queue_inode(c, ino, w, d->file_type, slot, len);
		} else {
			c->in_leaf_walk = true;
			c->entry = at;
			c->entry_name_len = (uint16_t)len;
			walk_inode(c, ino, w->ino, d->file_type, false);
			c->entry.kind = F2FS_PLACE_NONE;
			c->in_leaf_walk = false;
		}
		return;
	}
	/* named again: the inode was (or will be) checked against the first entry */
	if (d->file_type != child->entry_type)
		check_report_at(
		    c, PR_DENT_FILE_TYPE, w->ino, 0, &at,
		    "entry \"%.*s\" says type %u, an earlier entry for inode %u says %u", (int)len,
		    name, d->file_type, ino, child->entry_type);
	if (d->file_type == F2FS_FT_DIR || child->entry_type == F2FS_FT_DIR)
		check_report_at(c, PR_DIR_MULTIPLE_PARENTS, ino, 0, &at,
				"directory %u named again by %u", ino, w->ino);
}

static void check_position(struct check_ctx *c, const struct inode_walk *w, uint32_t hash,
			   const struct f2fs_place *at)
{
	if (hash % w->nbuckets != w->bucket)
		check_report_at(c, PR_DENT_POSITION, w->ino, 0, at,
				"slot %u: hash 0x%x belongs in bucket %llu of %llu, not %llu",
				at->index, hash, (unsigned long long)(hash % w->nbuckets),
				(unsigned long long)w->nbuckets, (unsigned long long)w->bucket);
}

/* Entries of one dentry area (a block or the inline area). */
static void walk_dentries(struct check_ctx *c, struct inode_walk *w, uint32_t parent,
			  const struct f2fs_dentry_area *a, bool first)
{
	const uint8_t *bitmap = a->bitmap;
	const struct f2fs_dir_entry *d = a->dentry;
	const uint8_t *names = a->names;
	unsigned int nr = a->nr;
	unsigned int slot = 0;

	if (first)
		check_dots(c, w, parent, d, names, bitmap);
	while (slot < nr) {
		struct f2fs_place at = entry_place(w, slot);
		size_t len;
		unsigned int slots, k;
		uint32_t hash;

		if (!f2fs_test_bit_lsb(bitmap, slot)) {
			slot++;
			continue;
		}
		len = le16_get(d[slot].name_len);
		slots = f2fs_name_slots(len);
		if (len == 0 || len > F2FS_NAME_LEN || slot + slots > nr) {
			check_report_at(c, PR_DENT_NAME_LEN, w->ino, 0, &at,
					"slot %u: name_len %zu", slot, len);
			slot++;
			continue;
		}
		for (k = 1; k < slots; k++)
			if (!f2fs_test_bit_lsb(bitmap, slot + k))
				check_report_at(c, PR_DENT_BITMAP, w->ino, 0, &at,
						"slot %u of a %zu-byte name is not marked",
						slot + k, len);
		/*
		 * A name the kernel lists but no path can name (an all-NUL one
		 * makes ls loop); an encrypted directory's names are ciphertext
		 */
		if (!w->encrypted && !(first && slot < 2) &&
		    (memchr(names + (size_t)slot * F2FS_SLOT_LEN, 0, len) ||
		     memchr(names + (size_t)slot * F2FS_SLOT_LEN, '/', len))) {
			check_report_at(c, PR_DENT_NAME_CHARS, w->ino, 0, &at,
					"slot %u: a %zu-byte name with a NUL byte or a slash", slot,
					len);
			slot += slots;
			continue;
		}
		hash = entry_hash(w, &d[slot], names, slot);
		if (w->nbuckets)
			check_position(c, w, hash, &at);
		if (!(first && slot < 2))
			check_entry(c, w, &d[slot], slot, names + (size_t)slot * F2FS_SLOT_LEN, len,
				    hash);
		else if (le32_get(d[slot].hash_code) != hash)
			/* "." and ".." hash to 0, as upstream checks (f2fs_check_hash_code) */
			check_report_at(c, PR_DENT_HASH, w->ino, 0, &at,
					"entry \"%.*s\": hash 0x%x, expected 0x%x", (int)len,
					names + (size_t)slot * F2FS_SLOT_LEN,
					le32_get(d[slot].hash_code), hash);
		slot += slots;
	}
}

static void walk_dentry_block(struct check_ctx *c, struct inode_walk *w, uint32_t parent,
			      uint32_t blkaddr, uint64_t fblk)
{
	struct f2fs_dentry_block *blk = f2fs_block_alloc(c->fs);
	int ret;

	if (!blk) {
		check_fail(c, -ENOMEM);
		return;
	}
	unsigned int level;

	if (!f2fs_dir_block_bucket(fblk, w->ri->i_dir_level, &w->bucket, &w->nbuckets, &level))
		w->nbuckets = 0;
	else if (level + 1 > w->depth_needed)
		w->depth_needed = level + 1;
	ret = f2fs_fs_read_blocks(c->fs, blkaddr, blk, 1);
	if (ret) {
		check_report(c, PR_IO, w->ino, blkaddr, "dentry block: %s",
			     ret == -ENXIO ? "past the end of the device" : strerror(-ret));
	} else {
		struct f2fs_dentry_area a;

		f2fs_dentry_block_area(&c->geo->blk, blk, &a);
		w->dent_block = fblk;
		walk_dentries(c, w, parent, &a, w->dentry_blocks == 0);
	}
	w->dentry_blocks++;
	free(blk);
}

static void walk_inline_dentries(struct check_ctx *c, struct inode_walk *w, uint32_t parent)
{
	struct f2fs_dentry_area a;

	w->nbuckets = 0; /* inline entries have no bucket */
	w->dent_block = F2FS_DENTRY_INLINE;
	/* check_inode_fields() validated i_extra_isize, so the area fits */
	if (!f2fs_inline_dentry_area(&c->geo->blk, (struct f2fs_inode *)w->ri, c->features, &a))
		walk_dentries(c, w, parent, &a, true);
	w->dentry_blocks++;
}

/* ---- inodes ---- */

/* File block @fblk has address @addr (not NULL): does that fit i_ext? */
static void note_extent(struct extent_check *x, uint64_t fblk, uint32_t addr)
{
	uint64_t end = (uint64_t)x->fofs + x->len, blk_end = (uint64_t)x->blk + x->len;
	bool fits;

	if (!x->len || x->bad)
		return;
	if (fblk >= x->fofs && fblk < end)
		fits = addr != F2FS_NEW_ADDR && addr == x->blk + (fblk - x->fofs);
	else
		fits = addr == F2FS_NEW_ADDR || addr < x->blk || addr >= blk_end;
	if (!fits) {
		x->bad = true;
		x->bad_fblk = fblk;
		x->bad_addr = addr;
	} else if (fblk >= x->fofs && fblk < end) {
		x->covered++;
	}
}

static void check_extent(struct check_ctx *c, const struct inode_walk *w)
{
	const struct extent_check *x = &w->ext;
	char why[80];

	if (!x->len)
		return;
	/*
	 * The kernel keeps no extent for a device, fifo or socket and drops
	 * one it finds, but checks it first: blocks no longer in use (a mode
	 * changed under a file's extent) make it refuse the inode.
	 */
	if (w->special)
		snprintf(why, sizeof(why), "a device, fifo or socket has no extent");
	else if (w->ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		snprintf(why, sizeof(why), "the inode keeps its data inline");
	else if (x->bad)
		snprintf(why, sizeof(why), "file block %llu is at 0x%x",
			 (unsigned long long)x->bad_fblk, x->bad_addr);
	else if (x->covered != x->len)
		snprintf(why, sizeof(why), "only %u of its blocks are there", x->covered);
	else
		return;
	check_report_values(c, PR_INODE_EXTENT, w->ino, x->blk, x->fofs, x->len,
			    "i_ext [fofs %u, blk 0x%x, len %u]: %s", x->fofs, x->blk, x->len, why);
}

/* The inline xattr area and the xattr node, read as one list. */
static void check_xattrs(struct check_ctx *c, const struct inode_walk *w)
{
	unsigned int inline_bytes = f2fs_inline_xattr_bytes(&c->geo->blk, w->ri, c->features);
	const uint8_t *space = f2fs_inline_xattr(&c->geo->blk, w->ri, c->features);
	size_t len = inline_bytes;
	struct f2fs_xattr_list l;

	if (le32_get(w->ri->i_xattr_nid)) {
		if (!w->xnode_ok)
			return; /* the node's own problem was reported */
		memcpy(c->xattr_space, space, inline_bytes);
		memcpy(c->xattr_space + inline_bytes, c->xattr_node,
		       f2fs_xattr_node_bytes(&c->geo->blk));
		space = c->xattr_space;
		len += f2fs_xattr_node_bytes(&c->geo->blk);
	}
	if (!len)
		return;
	f2fs_xattr_scan(space, len, &l);
	if (l.overrun)
		check_report_values(c, PR_XATTR_ENTRY, w->ino, 0, l.end, len,
				    "entry %u at byte %zu runs past the %zu-byte xattr space",
				    l.entries, l.end, len);
	else if (l.trailing)
		check_report_values(c, PR_XATTR_TRAILING, w->ino, 0, l.trailing_at, len,
				    "byte %zu is not zero; the list of %u entries ends at %zu",
				    l.trailing_at, l.entries, l.end);
}

static void walk_data_addr(struct check_ctx *c, struct inode_walk *w, uint32_t owner, uint32_t addr,
			   unsigned int ofs, uint64_t fblk)
{
	if (fblk + 1 > w->end_block)
		w->end_block = fblk + 1;
	note_extent(&w->ext, fblk, addr);
	if (addr == F2FS_COMPRESS_ADDR)
		note_cluster_addr(c, w, addr, fblk);
	if (addr == F2FS_COMPRESS_ADDR) {
		/* a cluster's marker holds its reservation until the blocks are released */
		if (!(w->ri->i_inline & F2FS_COMPRESS_RELEASED)) {
			w->blocks++;
			c->res->valid_blocks++;
		}
		return;
	}
	if (addr == F2FS_NEW_ADDR) {
		/* reserved by fallocate or a compressed cluster: counted, not on disk */
		w->blocks++;
		c->res->valid_blocks++;
		return;
	}
	/* block: the file block, for a repair that gives this owner its own copy */
	struct f2fs_place at = {
	    .kind = F2FS_PLACE_ADDR, .node = owner, .ino = w->ino, .index = ofs, .block = fblk};

	if (!claim_block(c, addr, owner, (int)ofs, &at))
		return;
	note_cluster_addr(c, w, addr, fblk);
	w->blocks++;
	if (w->is_dir)
		walk_dentry_block(c, w, w->parent, addr, fblk);
}

/*
 * A compressed inode's parameters, where the kernel's inode check reads
 * them (the extra attributes reach them, the volume compresses): an
 * algorithm it does not know, a cluster of other than 4 to 256 blocks, or
 * more saved blocks than the file holds make it refuse the inode.  Which
 * algorithm or cluster size wrote the clusters cannot be told from the
 * inode, so there is no fix: the report keeps fsck from calling clean a
 * file the kernel will not open.
 */
static void check_compress_params(struct check_ctx *c, const struct inode_walk *w)
{
	const struct f2fs_inode *ri = w->ri;
	uint64_t blocks = le64_get(ri->i_blocks), saved = le64_get(ri->i_compr_blocks);

	if (!(le32_get(ri->i_flags) & F2FS_COMPR_FL) || !(c->features & F2FS_FEATURE_COMPRESSION) ||
	    !F2FS_INODE_FITS(ri, i_log_cluster_size))
		return;
	if (ri->i_compress_algorithm >= F2FS_COMPRESS_MAX)
		check_report_values(c, PR_INODE_COMPRESS_PARAMS, w->ino, 0,
				    ri->i_compress_algorithm, 0,
				    "i_compress_algorithm %u: the kernel knows 0 to %u",
				    ri->i_compress_algorithm, F2FS_COMPRESS_MAX - 1);
	else if (ri->i_log_cluster_size < F2FS_MIN_LOG_CLUSTER ||
		 ri->i_log_cluster_size > F2FS_MAX_LOG_CLUSTER)
		check_report_values(c, PR_INODE_COMPRESS_PARAMS, w->ino, 0, ri->i_log_cluster_size,
				    0, "i_log_cluster_size %u: the kernel takes %u to %u",
				    ri->i_log_cluster_size, F2FS_MIN_LOG_CLUSTER,
				    F2FS_MAX_LOG_CLUSTER);
	else if (blocks && saved > blocks - 1)
		check_report_values(c, PR_INODE_COMPRESS_PARAMS, w->ino, 0, saved, blocks - 1,
				    "i_compr_blocks %llu, more than the %llu blocks the file holds",
				    (unsigned long long)saved, (unsigned long long)(blocks - 1));
}

/* i_flags bits only some inodes may carry (upstream's and the kernel's rules). */
static void check_inode_flags(struct check_ctx *c, const struct inode_walk *w, uint8_t type)
{
	uint32_t flags = le32_get(w->ri->i_flags);

	if ((flags & F2FS_CASEFOLD_FL) &&
	    (type != F2FS_FT_DIR || !(c->features & F2FS_FEATURE_CASEFOLD)))
		check_report_values(c, PR_INODE_CASEFOLD, w->ino, 0, flags,
				    flags & ~F2FS_CASEFOLD_FL, "casefold flag on %s",
				    type != F2FS_FT_DIR ? "a non-directory"
							: "a volume without the casefold feature");
	if ((flags & F2FS_COMPR_FL) &&
	    (!(c->features & F2FS_FEATURE_COMPRESSION) || (w->ri->i_inline & F2FS_INLINE_DATA)))
		check_report_values(c, PR_INODE_COMPRESS, w->ino, 0, flags, flags & ~F2FS_COMPR_FL,
				    "compression flag on %s",
				    (w->ri->i_inline & F2FS_INLINE_DATA)
					? "an inode with inline data"
					: "a volume without the compression feature");
	/*
	 * Newest upstream's fsck counts such a file's blocks from i_ext alone
	 * and newer kernels refuse the flag without the feature; the 6.1 kernel
	 * ignores it.  Cleared, every reader sees an ordinary file.
	 */
	if ((flags & F2FS_DEVICE_ALIAS_FL) && !(c->features & F2FS_FEATURE_DEVICE_ALIAS))
		check_report_values(
		    c, PR_INODE_DEVICE_ALIAS, w->ino, 0, flags, flags & ~F2FS_DEVICE_ALIAS_FL,
		    "i_flags 0x%x: device-alias flag without the device_alias feature", flags);
	check_compress_params(c, w);
}

/* The inline area of an inode with inline data or dentries (i_extra_isize validated). */
static void check_inline_area(struct check_ctx *c, const struct inode_walk *w)
{
	const struct f2fs_inode *ri = w->ri;
	uint32_t reserved = le32_get(ri->i_addr[f2fs_inode_first_addr(ri)]);
	unsigned int cap = f2fs_inline_data_bytes(&c->geo->blk, ri, c->features), i;
	const uint8_t *data = f2fs_inline_data(ri);

	if (reserved)
		check_report_values(c, PR_INODE_INLINE_RESERVED, w->ino, 0, reserved, 0,
				    "i_addr[%u] before the inline area is 0x%x",
				    f2fs_inode_first_addr(ri), reserved);
	if (!(ri->i_inline & F2FS_INLINE_DATA))
		return;
	if (le64_get(ri->i_size) > cap)
		check_report_values(c, PR_INODE_INLINE_SIZE, w->ino, 0, le64_get(ri->i_size), cap,
				    "i_size %llu, the inode holds %u bytes inline",
				    (unsigned long long)le64_get(ri->i_size), cap);
	if (ri->i_inline & F2FS_DATA_EXIST)
		return;
	for (i = 0; i < cap && !data[i]; i++)
		;
	/* the kernel sets the flag itself when it reads such an inode (__recover_inline_status) */
	if (i < cap)
		check_report_values(
		    c, PR_INODE_INLINE_JUNK, w->ino, 0, ri->i_inline,
		    ri->i_inline | F2FS_DATA_EXIST,
		    "byte %u of the inline data is not zero but F2FS_DATA_EXIST is clear", i);
}

/*
 * @i_inline without the inline-data and inline-dentry flags a file of
 * @type cannot carry.  A file with the inline-dentry flag and the
 * data-exist flag (which only an inline file sets) keeps its data inline:
 * the inline kind flipped, and its i_addr[] holds bytes, not addresses.
 */
static uint8_t inline_flags_that_fit(uint8_t i_inline, uint8_t type)
{
	bool inline_file = type == F2FS_FT_REG_FILE || type == F2FS_FT_SYMLINK;

	if (type != F2FS_FT_DIR && (i_inline & F2FS_INLINE_DENTRY)) {
		i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
		if (inline_file && (i_inline & F2FS_DATA_EXIST))
			i_inline |= F2FS_INLINE_DATA;
	}
	if (type != F2FS_FT_REG_FILE && type != F2FS_FT_SYMLINK)
		i_inline &= (uint8_t)~F2FS_INLINE_DATA;
	return i_inline;
}

/*
 * Did a small file lose its inline-data flag?  The data-exist flag is an
 * inline file's alone (the kernel clears it when it moves the data to a
 * block), and a file that small with real blocks has its first block's
 * summary naming it; without one, i_addr[] holds the file's bytes, and
 * reading them as addresses would cut or claim blocks that are not its.
 */
static bool lost_inline_data(struct check_ctx *c, const struct inode_walk *w, uint8_t type)
{
	const struct f2fs_inode *ri = w->ri;
	uint32_t addr = le32_get(ri->i_addr[f2fs_inode_first_addr(ri)]);
	const struct f2fs_summary_block *sum;
	int err;

	if ((type != F2FS_FT_REG_FILE && type != F2FS_FT_SYMLINK) ||
	    !(ri->i_inline & F2FS_DATA_EXIST) ||
	    (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) ||
	    le64_get(ri->i_size) > f2fs_inline_data_bytes(&c->geo->blk, ri, c->features))
		return false;
	if (!f2fs_geo_in_main(c->geo, addr))
		return true;
	sum = f2fs_ssa_get(c->ssa, f2fs_geo_segno(c->geo, addr), &err);
	return sum && le32_get(sum->entries[f2fs_geo_blkoff(c->geo, addr)].nid) != w->ino;
}

/* The i_advise bits of @ri that name a feature the volume lacks. */
static uint8_t advise_unsupported(const struct f2fs_inode *ri, uint32_t features)
{
	uint8_t bad = 0;

	if (!(features & F2FS_FEATURE_ENCRYPT))
		bad |= ri->i_advise & (F2FS_FADVISE_ENCRYPT | F2FS_FADVISE_ENC_NAME);
	if (!(features & F2FS_FEATURE_VERITY))
		bad |= ri->i_advise & F2FS_FADVISE_VERITY;
	return bad;
}

/* A data address the kernel takes: none, one to come, or a block of the main area. */
static bool plausible_addr(const struct check_ctx *c, uint32_t a)
{
	return a == F2FS_NULL_ADDR || a == F2FS_NEW_ADDR || f2fs_geo_in_main(c->geo, a);
}

/*
 * The i_extra_isize an inode with extra attributes most likely had when its
 * i_extra_isize reads 0 although the word it shares with i_inline_xattr_size
 * is in use: the kernel's size (it writes every inode so) or the volume's
 * (mkfs's), whichever leaves the inode's first word after it what it
 * should be -- zero before inline data, a valid address (or none) before
 * data addresses.
 */
static uint16_t likely_extra_isize(const struct check_ctx *c, const struct f2fs_inode *ri)
{
	uint16_t mine = f2fs_extra_isize_for(c->features);
	uint32_t at_kernels = le32_get(ri->i_addr[MAX_EXTRA_ISIZE / 4]);
	uint32_t at_mine = le32_get(ri->i_addr[mine / 4]);

	if (mine == MAX_EXTRA_ISIZE)
		return mine;
	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return !at_kernels || at_mine ? MAX_EXTRA_ISIZE : mine;
	return plausible_addr(c, at_kernels) || !plausible_addr(c, at_mine) ? MAX_EXTRA_ISIZE
									    : mine;
}

static bool check_inode_fields(struct check_ctx *c, struct inode_walk *w, const struct f2fs_node *n,
			       uint8_t expected_type)
{
	const struct f2fs_inode *ri = &n->i;
	uint16_t mode = le16_get(ri->i_mode);
	uint8_t type = f2fs_mode_file_type(mode);
	uint8_t bad_advise = advise_unsupported(ri, c->features);

	if (type == F2FS_FT_UNKNOWN) {
		/* expected: the type of the entry naming it, from which the repair takes it */
		check_report_values(c, PR_INODE_MODE, w->ino, 0, mode, expected_type, "i_mode 0%o",
				    mode);
		return false;
	}
	/*
	 * The kernel's dir_level mount option stops at MAX_DIR_HASH_DEPTH; past
	 * it every bucket lies past any block a directory can have, so no
	 * lookup finds a name.  Expected: 0, the default every directory the
	 * kernel makes has (the next round checks the entries' places).
	 */
	if (type == F2FS_FT_DIR && ri->i_dir_level > F2FS_MAX_DIR_HASH_DEPTH) {
		check_report_values(c, PR_DIR_LEVEL, w->ino, 0, ri->i_dir_level, 0,
				    "i_dir_level %u (the most is %u)", ri->i_dir_level,
				    F2FS_MAX_DIR_HASH_DEPTH);
		return false;
	}
	/* no entry names the root: it is a directory whatever its mode says */
	if (w->ino == c->root_ino && type != F2FS_FT_DIR) {
		check_report_values(c, PR_INODE_MODE, w->ino, 0, mode, F2FS_FT_DIR,
				    "the root's i_mode 0%o is not a directory's", mode);
		return false;
	}
	if (expected_type != F2FS_FT_UNKNOWN && expected_type != type &&
	    c->entry.kind != F2FS_PLACE_NONE)
		check_report_at(c, PR_DENT_FILE_TYPE, c->entry.node, 0, &c->entry,
				"the entry of inode %u says type %u, its mode 0%o is type %u",
				w->ino, expected_type, mode, type);
	else if (expected_type != F2FS_FT_UNKNOWN && expected_type != type)
		check_report(c, PR_DENT_FILE_TYPE, w->ino, 0,
			     "entry says type %u, inode mode 0%o is type %u", expected_type, mode,
			     type);
	/*
	 * sanity_check_inode(): on a flexible_inline_xattr volume every inode
	 * has extra attributes; without the flag its fields would be read
	 * from the wrong place.  Expected: the flag back.
	 */
	if ((c->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) &&
	    !(ri->i_inline & F2FS_EXTRA_ATTR)) {
		check_report_values(c, PR_INODE_INLINE, w->ino, 0, ri->i_inline,
				    ri->i_inline | F2FS_EXTRA_ATTR,
				    "i_inline 0x%x lacks the extra-attribute flag the volume's "
				    "flexible_inline_xattr requires",
				    ri->i_inline);
		return false;
	}
	if (ri->i_inline & F2FS_EXTRA_ATTR) {
		uint16_t isize = le16_get(ri->i_extra_isize);

		if (!(c->features & F2FS_FEATURE_EXTRA_ATTR) || isize > MAX_EXTRA_ISIZE ||
		    isize % 4) {
			check_report_values(c, PR_INODE_EXTRA_ISIZE, w->ino, 0, isize,
					    f2fs_extra_isize_for(c->features), "i_extra_isize %u",
					    isize);
			return false;
		}
		/*
		 * The kernel takes 0, but then the word that holds i_extra_isize and
		 * i_inline_xattr_size is also the first data address or the word
		 * reserved before inline data: fixing that word as an address or a
		 * reserved word would take the inline xattr size with it, which the
		 * kernel refuses.  What is wrong is the size.
		 */
		if (isize == 0 && ri->i_addr[0]) {
			check_report_values(c, PR_INODE_EXTRA_ISIZE, w->ino, 0, 0,
					    likely_extra_isize(c, ri),
					    "i_extra_isize 0 puts the first address over the extra "
					    "attributes (0x%x)",
					    le32_get(ri->i_addr[0]));
			return false;
		}
		if ((c->features & F2FS_FEATURE_INODE_CHKSUM) &&
		    isize >= offsetof(struct f2fs_inode, i_crtime) - F2FS_EXTRA_ISIZE_OFFSET &&
		    f2fs_inode_chksum(&c->geo->blk, n, c->chksum_seed) !=
			le32_get(ri->i_inode_checksum))
			check_report(c, PR_INODE_CHECKSUM, w->ino, 0, "i_inode_checksum 0x%x",
				     le32_get(ri->i_inode_checksum));
	}
	/*
	 * Encryption or verity the volume lacks: the file cannot be read (no
	 * key applies), and a regular file with inline data and either is
	 * refused outright ("should not have inline_data").  Expected: the bits
	 * cleared.
	 */
	if (bad_advise)
		check_report_values(c, PR_INODE_ADVISE, w->ino, 0, ri->i_advise,
				    ri->i_advise & ~bad_advise,
				    "i_advise 0x%x marks %s the volume does not have", ri->i_advise,
				    bad_advise & F2FS_FADVISE_VERITY ? "verity" : "encryption");
	/* sanity_check_inode(): at most MAX_INLINE_XATTR, at least a header with the flag */
	if ((c->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) &&
	    (f2fs_inode_inline_xattr_addrs(ri, c->features) > MAX_INLINE_XATTR(&c->geo->blk) ||
	     ((ri->i_inline & F2FS_INLINE_XATTR) &&
	      f2fs_inode_inline_xattr_addrs(ri, c->features) < MIN_INLINE_XATTR))) {
		check_report_values(c, PR_INODE_INLINE_XATTR, w->ino, 0,
				    f2fs_inode_inline_xattr_addrs(ri, c->features),
				    ri->i_inline & F2FS_INLINE_XATTR ? F2FS_INLINE_XATTR_ADDRS : 0,
				    "i_inline_xattr_size %u",
				    f2fs_inode_inline_xattr_addrs(ri, c->features));
		return false;
	}
	if (le32_get(ri->i_namelen) > F2FS_NAME_LEN)
		/* expected: the length of the entry's name, 0 when no entry names it */
		check_report_values(c, PR_INODE_NAMELEN, w->ino, 0, le32_get(ri->i_namelen),
				    c->entry.kind == F2FS_PLACE_NONE ? 0 : c->entry_name_len,
				    "i_namelen %u", le32_get(ri->i_namelen));
	if (((ri->i_inline & F2FS_INLINE_DENTRY) && type != F2FS_FT_DIR) ||
	    ((ri->i_inline & F2FS_INLINE_DATA) && type != F2FS_FT_REG_FILE &&
	     type != F2FS_FT_SYMLINK)) {
		check_report_values(c, PR_INODE_INLINE, w->ino, 0, ri->i_inline,
				    inline_flags_that_fit(ri->i_inline, type),
				    "i_inline 0x%x for mode 0%o", ri->i_inline, mode);
		return false;
	}
	if (lost_inline_data(c, w, type)) {
		check_report_values(
		    c, PR_INODE_INLINE, w->ino, 0, ri->i_inline, ri->i_inline | F2FS_INLINE_DATA,
		    "i_inline 0x%x: data-exist without inline data, and i_addr[] holds "
		    "no block of this file",
		    ri->i_inline);
		return false;
	}
	check_inode_flags(c, w, type);
	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		check_inline_area(c, w);
	return true;
}

static void walk_inode_tree(struct check_ctx *c, struct inode_walk *w, struct f2fs_node *n)
{
	const struct f2fs_inode *ri = w->ri;

	if (ri->i_inline & F2FS_INLINE_DENTRY) {
		walk_inline_dentries(c, w, w->parent);
	} else if (w->special) {
		/* device, fifo and socket inodes keep rdev in i_addr: no blocks */
	} else if (!(ri->i_inline & F2FS_INLINE_DATA)) {
		walk_file_tree(c, w, n);
	}
	if (le32_get(ri->i_xattr_nid))
		walk_xattr_node(c, w, le32_get(ri->i_xattr_nid));
	if (w->is_dir && w->dentry_blocks == 0) {
		/* the repair writes the dots where the first entries belong */
		struct f2fs_problem p = {
		    .code = PR_DIR_DOTS,
		    .nid = w->ino,
		    .expected = w->parent,
		    .at = {.kind = F2FS_PLACE_ENTRY,
			   .node = w->ino,
			   .ino = w->ino,
			   .block = (ri->i_inline & F2FS_INLINE_DENTRY) ? F2FS_DENTRY_INLINE : 0}};

		check_report_problem(c, &p, "directory has no dentry block");
	}
}

/*
 * A directory's i_size is whole blocks, and covers every block it has: the
 * kernel reads no entry past it.  Expected: rounded up to cover both.
 */
static void check_dir_size(struct check_ctx *c, const struct inode_walk *w)
{
	uint64_t size = le64_get(w->ri->i_size);
	uint64_t need = (size + c->geo->blk.blksize - 1) / c->geo->blk.blksize;

	if (need < w->end_block)
		need = w->end_block;
	if (size != need * c->geo->blk.blksize)
		check_report_values(c, PR_INODE_SIZE, w->ino, 0, size, need * c->geo->blk.blksize,
				    "directory i_size %llu, its blocks need %llu",
				    (unsigned long long)size,
				    (unsigned long long)(need * c->geo->blk.blksize));
}

/*
 * A lookup scans the hash levels below i_current_depth: a block of a level
 * at or past it holds names no lookup finds, and past MAX_DIR_HASH_DEPTH
 * the kernel calls the directory corrupted (and clamps it).  Expected: the
 * levels the blocks use, at least one.
 */
static void check_dir_depth(struct check_ctx *c, const struct inode_walk *w)
{
	uint32_t depth = le32_get(w->ri->i_current_depth);
	uint32_t need = w->depth_needed ? w->depth_needed : 1;

	if (depth > F2FS_MAX_DIR_HASH_DEPTH || depth < need)
		check_report_values(c, PR_DIR_DEPTH, w->ino, 0, depth, need,
				    "i_current_depth %u, its blocks need %u (the most is %u)",
				    depth, need, F2FS_MAX_DIR_HASH_DEPTH);
}

/*
 * Directory @w, named by a directory-typed entry of @w->parent, was read:
 * it counts as a subdirectory of the parent (only now, as upstream counts
 * it: an entry whose directory cannot be read adds no link), remembers its
 * parent for paths, and its i_pino must name that parent (upstream reads
 * it as what ".." should be).
 */
static void enter_dir(struct check_ctx *c, const struct inode_walk *w)
{
	struct dir_rec *parent, *self;

	/* creating a record may grow the table: look both up only once both exist */
	dir_record(c, w->parent, true);
	dir_record(c, w->ino, true);
	parent = dir_record(c, w->parent, false);
	self = dir_record(c, w->ino, false);
	if (parent)
		parent->subdirs++;
	if (self)
		self->parent = w->parent;
	if (le32_get(w->ri->i_pino) != w->parent)
		check_report_count(c, PR_DIR_PINO, w->ino, le32_get(w->ri->i_pino), w->parent,
				   "i_pino %u, but directory %u names it", le32_get(w->ri->i_pino),
				   w->parent);
}

/* Check one inode and everything it owns; queue the inodes its entries name. */
static void walk_inode(struct check_ctx *c, uint32_t ino, uint32_t parent, uint8_t type,
		       bool system)
{
	struct f2fs_node *n = f2fs_block_alloc(c->fs);
	struct inode_walk w = {.ino = ino, .parent = parent, .blocks = 1};
	/* reached through a directory-typed entry, not as the root or a system inode */
	bool named_dir = !system && ino != c->root_ino && type == F2FS_FT_DIR;
	bool unseen = check_kind(c, ino) == NID_UNSEEN;
	struct nid_rec *rec;
	uint16_t mode;

	if (!n) {
		check_fail(c, -ENOMEM);
		return;
	}
	if (!read_node(c, ino, ino, 0, &c->entry, n)) {
		/* reached before as some other node: a bad entry, no subtree behind it */
		if (named_dir && unseen)
			report_lost_dir(c, parent, ino, NULL, 0);
		goto out;
	}
	/* the last inode is reported by check_tree(), which knows when the walk ends */
	if (++c->res->valid_inodes < le32_get(c->cp->valid_inode_count))
		check_progress(c, CHECK_PASS_TREE, c->res->valid_inodes,
			       le32_get(c->cp->valid_inode_count));
	w.ri = &n->i;
	mode = le16_get(n->i.i_mode);
	w.is_dir = S_ISDIR(mode);
	w.special = S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) || S_ISSOCK(mode);
	w.casefold = le32_get(n->i.i_flags) & F2FS_CASEFOLD_FL;
	/* the kernel keeps "encrypted" in i_advise (FADVISE_ENCRYPT_BIT), not in i_flags */
	w.encrypted = n->i.i_advise & F2FS_FADVISE_ENCRYPT;
	w.ext = (struct extent_check){.fofs = le32_get(n->i.i_ext.fofs),
				      .blk = le32_get(n->i.i_ext.blk),
				      .len = le32_get(n->i.i_ext.len)};
	rec = nid_record(c, ino);
	if (rec) {
		rec->kind = system ? NID_SYSTEM : w.is_dir ? NID_DIR : NID_FILE;
		rec->i_links = le32_get(n->i.i_links);
	}
	if (named_dir && w.is_dir)
		enter_dir(c, &w);
	if (!check_inode_fields(c, &w, n, type)) {
		if (named_dir)
			report_lost_dir(c, parent, ino, NULL, 0);
		goto out;
	}
	walk_inode_tree(c, &w, n);
	if (w.is_dir && !(n->i.i_inline & F2FS_INLINE_DENTRY)) {
		check_dir_size(c, &w);
		check_dir_depth(c, &w);
	}
	check_extent(c, &w);
	check_xattrs(c, &w);
	if (le64_get(n->i.i_blocks) != w.blocks)
		check_report_count(c, PR_INODE_BLOCKS, ino, le64_get(n->i.i_blocks), w.blocks,
				   "i_blocks %llu, found %llu",
				   (unsigned long long)le64_get(n->i.i_blocks),
				   (unsigned long long)w.blocks);
	check_quota_charge(c, ino, &n->i, w.blocks);
out:
	free(n);
}

static void walk_system_inodes(struct check_ctx *c)
{
	uint32_t i;

	for (i = 0; i < F2FS_MAX_QUOTAS; i++) {
		uint32_t ino = le32_get(c->sb->qf_ino[i]);

		if (!ino)
			continue;
		if (!nid_valid(c, ino))
			check_report(c, PR_QUOTA_INODE, ino, 0, "quota inode %u has no NAT entry",
				     ino);
		else if (check_kind(c, ino) == NID_UNSEEN)
			walk_inode(c, ino, 0, F2FS_FT_REG_FILE, true);
	}
	for (i = 0; i < c->cpd->orphan_count; i++) {
		uint32_t ino = c->cpd->orphans[i];

		if (!nid_valid(c, ino))
			check_report(c, PR_ORPHAN, ino, 0, "orphan inode %u has no NAT entry", ino);
		else if (check_kind(c, ino) == NID_UNSEEN)
			walk_inode(c, ino, 0, F2FS_FT_UNKNOWN, true);
	}
}

int check_tree(struct check_ctx *c)
{
	uint64_t expected = le32_get(c->cp->valid_inode_count), walked;

	check_progress(c, CHECK_PASS_TREE, 0, expected);
	if (!nid_valid(c, c->root_ino)) {
		check_report(c, PR_ROOT_INODE, c->root_ino, 0, "root inode %u has no NAT entry",
			     c->root_ino);
		return 0;
	}
	/* a zone reset under the root leaves no root to walk from: restored like a lost one */
	if (check_block_past_wp(c, f2fs_nat_get(c->nat, c->root_ino)->blkaddr)) {
		check_report(c, PR_ROOT_INODE, c->root_ino,
			     f2fs_nat_get(c->nat, c->root_ino)->blkaddr,
			     "root inode %u lies past its zone's write pointer: it reads as zeros",
			     c->root_ino);
		return 0;
	}
	walk_inode(c, c->root_ino, c->root_ino, F2FS_FT_DIR, false);
	while (c->queue_head < c->queue_len && !c->err) {
		struct pending_inode p = c->queue[c->queue_head++];

		c->entry = p.entry;
		c->entry_name_len = p.name_len;
		walk_inode(c, p.ino, p.parent, p.file_type, false);
	}
	c->entry.kind = F2FS_PLACE_NONE; /* system inodes have no entry */
	walk_system_inodes(c);
	/* the checkpoint's count was the estimate; a damaged volume may hold more */
	walked = c->res->valid_inodes > expected ? c->res->valid_inodes : expected;
	check_progress(c, CHECK_PASS_TREE, walked, walked);
	return 0;
}
