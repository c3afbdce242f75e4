// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a fresh volume.  A new F2FS holds a handful of blocks: the root
 * directory (and lost+found, and quota files when asked) as inodes at the
 * start of the hot node log and their data at the start of the hot data log,
 * the NAT block that maps them, and a checkpoint pack whose compacted
 * summary carries the NAT and SIT journals, so the SIT area stays all zero.
 * Everything else must read as zeros: after a discard that reads back as
 * zeros nothing more is written; otherwise the SIT and NAT copies the
 * checkpoint selects are zeroed (by punching holes on regular files, so an
 * image stays sparse).  The superblocks go last, after a flush.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <uuid/uuid.h>

#include "f2fs/checkpoint.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/mkfs.h"
#include "f2fs/node.h"
#include "f2fs/super.h"

#define LOST_FOUND	"lost+found"
#define WIPE_BYTES	(4u << 20) /* other file systems' signatures live here */
#define MODE_DIR_0755	0x41ed
#define MODE_DIR_0700	0x41c0
#define MODE_REG_0600	0x8180
#define FS_IMMUTABLE_FL 0x00000010
#define QUOTA_FILE_SIZE 6144 /* header, info and a four-level tree for id 0 */

/* The inodes a new volume starts with, and where they go in the hot logs. */
struct initial_tree {
	uint32_t root_ino;
	uint32_t lpf_ino; /* 0 when lost+found is not made */
	unsigned int nquota;
	unsigned int quota_type[F2FS_MAX_QUOTAS];
	uint32_t quota_ino[F2FS_MAX_QUOTAS];
	uint32_t next_free_nid;
	unsigned int node_blocks; /* used blocks of the hot node log */
	unsigned int data_blocks; /* used blocks of the hot data log */
};

struct mkfs_ctx {
	struct f2fs_device *dev;
	const struct f2fs_mkfs_config *cfg;
	const struct f2fs_layout *l;
	struct f2fs_super_block sb;
	struct initial_tree t;
	uint32_t chksum_seed;
	uint64_t now;
	uint64_t cp_ver;
	bool trimmed;	 /* discard succeeded: CP_TRIMMED_FLAG */
	bool reads_zero; /* the whole device now reads as zeros */
};

void f2fs_mkfs_config_init(struct f2fs_mkfs_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->geometry.sector_size = F2FS_MIN_SECTOR_SIZE;
	cfg->geometry.segs_per_sec = 1;
	cfg->geometry.secs_per_zone = 1;
	cfg->label = "";
	cfg->discard = true;
	cfg->fixed_time = -1;
}

unsigned int f2fs_mkfs_quota_types(uint32_t features, unsigned int types[F2FS_MAX_QUOTAS])
{
	unsigned int n = 0;

	if (features & (F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_PRJQUOTA)) {
		types[n++] = 0; /* user */
		types[n++] = 1; /* group */
	}
	if (features & F2FS_FEATURE_PRJQUOTA)
		types[n++] = 2; /* project */
	return n;
}

static uint32_t hot_node_addr(const struct mkfs_ctx *c, unsigned int ofs)
{
	return f2fs_layout_seg_blkaddr(c->l, c->l->cur_seg[F2FS_CURSEG_HOT_NODE]) + ofs;
}

static uint32_t hot_data_addr(const struct mkfs_ctx *c, unsigned int ofs)
{
	return f2fs_layout_seg_blkaddr(c->l, c->l->cur_seg[F2FS_CURSEG_HOT_DATA]) + ofs;
}

static int write_block(struct mkfs_ctx *c, uint64_t blkaddr, const void *buf)
{
	return f2fs_dev_write(c->dev, buf, blkaddr * F2FS_BLKSIZE, F2FS_BLKSIZE);
}

/* Inode numbers: root, then quota files, then lost+found, as upstream numbers them. */
static void plan_tree(struct mkfs_ctx *c)
{
	struct initial_tree *t = &c->t;
	unsigned int i;

	t->root_ino = F2FS_FIRST_INO_RESERVED;
	t->next_free_nid = t->root_ino + 1;
	t->nquota = f2fs_mkfs_quota_types(c->cfg->features, t->quota_type);
	for (i = 0; i < t->nquota; i++)
		t->quota_ino[i] = t->next_free_nid++;
	if (c->cfg->features & F2FS_FEATURE_LOST_FOUND)
		t->lpf_ino = t->next_free_nid++;
	t->node_blocks = 1 + t->nquota + (t->lpf_ino ? 1 : 0);
	t->data_blocks = 1 + t->nquota * F2FS_QUOTA_DATA_BLOCKS + (t->lpf_ino ? 1 : 0);
}

static unsigned int lpf_node_ofs(const struct mkfs_ctx *c)
{
	return 1 + c->t.nquota;
}

static unsigned int lpf_data_ofs(const struct mkfs_ctx *c)
{
	return 1 + c->t.nquota * F2FS_QUOTA_DATA_BLOCKS;
}

static void init_inode(const struct mkfs_ctx *c, struct f2fs_node *n, uint32_t ino, uint16_t mode,
		       unsigned int node_ofs)
{
	struct f2fs_inode *ri = &n->i;
	uint32_t features = c->cfg->features;

	memset(n, 0, sizeof(*n));
	n->footer.nid = le32_put(ino);
	n->footer.ino = le32_put(ino);
	n->footer.cp_ver = le64_put(1);
	n->footer.next_blkaddr = le32_put(hot_node_addr(c, node_ofs + 1));
	ri->i_mode = le16_put(mode);
	ri->i_uid = le32_put(c->cfg->root_uid);
	ri->i_gid = le32_put(c->cfg->root_gid);
	ri->i_atime = ri->i_ctime = ri->i_mtime = le64_put(c->now);
	if (features & F2FS_FEATURE_EXTRA_ATTR) {
		ri->i_inline = F2FS_EXTRA_ATTR;
		ri->i_extra_isize = le16_put(f2fs_extra_isize_for(features));
	}
	if (features & F2FS_FEATURE_INODE_CRTIME)
		ri->i_crtime = le64_put(c->now);
}

static int write_inode(struct mkfs_ctx *c, struct f2fs_node *n, unsigned int node_ofs)
{
	f2fs_inode_seal(n, c->cfg->features, c->chksum_seed);
	return write_block(c, hot_node_addr(c, node_ofs), n);
}

static void init_dir_inode(const struct mkfs_ctx *c, struct f2fs_node *n, uint32_t ino,
			   uint16_t mode, unsigned int node_ofs, unsigned int data_ofs)
{
	struct f2fs_inode *ri = &n->i;

	init_inode(c, n, ino, mode, node_ofs);
	ri->i_links = le32_put(2);
	ri->i_size = le64_put(F2FS_BLKSIZE);
	ri->i_blocks = le64_put(2); /* the inode and one dentry block */
	ri->i_current_depth = le32_put(1);
	ri->i_addr[f2fs_inode_first_addr(ri)] = le32_put(hot_data_addr(c, data_ofs));
}

static int write_dir_block(struct mkfs_ctx *c, uint32_t self, uint32_t parent, bool with_lpf,
			   unsigned int data_ofs)
{
	struct f2fs_dentry_block blk;

	memset(&blk, 0, sizeof(blk));
	f2fs_dentry_put(&blk, 0, ".", 1, self, F2FS_FT_DIR);
	f2fs_dentry_put(&blk, 1, "..", 2, parent, F2FS_FT_DIR);
	if (with_lpf)
		f2fs_dentry_put(&blk, 2, LOST_FOUND, strlen(LOST_FOUND), c->t.lpf_ino, F2FS_FT_DIR);
	return write_block(c, hot_data_addr(c, data_ofs), &blk);
}

static int write_root(struct mkfs_ctx *c)
{
	struct f2fs_node n;
	int ret;

	init_dir_inode(c, &n, c->t.root_ino, MODE_DIR_0755, 0, 0);
	if (c->t.lpf_ino)
		n.i.i_links = le32_put(3);
	ret = write_inode(c, &n, 0);
	if (!ret)
		ret = write_dir_block(c, c->t.root_ino, c->t.root_ino, c->t.lpf_ino != 0, 0);
	return ret;
}

static int write_lost_found(struct mkfs_ctx *c)
{
	struct f2fs_node n;
	int ret;

	if (!c->t.lpf_ino)
		return 0;
	init_dir_inode(c, &n, c->t.lpf_ino, MODE_DIR_0700, lpf_node_ofs(c), lpf_data_ofs(c));
	n.i.i_pino = le32_put(c->t.root_ino);
	n.i.i_namelen = le32_put(strlen(LOST_FOUND));
	memcpy(n.i.i_name, LOST_FOUND, strlen(LOST_FOUND));
	ret = write_inode(c, &n, lpf_node_ofs(c));
	if (!ret)
		ret = write_dir_block(c, c->t.lpf_ino, c->t.root_ino, false, lpf_data_ofs(c));
	return ret;
}

static const uint32_t quota_magic[F2FS_MAX_QUOTAS] = {
    F2FS_QUOTA_USR_MAGIC,
    F2FS_QUOTA_GRP_MAGIC,
    F2FS_QUOTA_PRJ_MAGIC,
};

/*
 * A quota file in the kernel's v2 tree format with one record, for id 0
 * (root owns the root directory and lost+found): 1 KiB tree blocks 1..4 each
 * point at the next, block 5 holds the record.
 */
static void build_quota_file(const struct mkfs_ctx *c, unsigned int type, uint32_t id,
			     uint8_t file[2 * F2FS_BLKSIZE])
{
	struct f2fs_v2_dqheader hdr = {le32_put(quota_magic[type]), le32_put(1)};
	struct f2fs_v2_dqinfo info = {0};
	struct f2fs_v2r1_dqblk rec = {0};
	uint32_t ref, level;
	uint16_t entries = le16_put(1);
	unsigned int inodes = c->t.lpf_ino ? 2 : 1;

	memset(file, 0, 2 * F2FS_BLKSIZE);
	memcpy(file, &hdr, sizeof(hdr));
	info.dqi_bgrace = le32_put(F2FS_MAX_DQ_TIME);
	info.dqi_igrace = le32_put(F2FS_MAX_IQ_TIME);
	info.dqi_blocks = le32_put(F2FS_QT_TREEOFF + 5);
	info.dqi_free_entry = le32_put(5);
	memcpy(file + F2FS_V2_DQINFOOFF, &info, sizeof(info));
	for (level = 1; level <= 4; level++) {
		ref = le32_put(level + 1);
		memcpy(file + level * 1024, &ref, sizeof(ref));
	}
	memcpy(file + 5 * 1024 + 8, &entries, sizeof(entries));
	rec.dqb_id = le32_put(id);
	rec.dqb_curinodes = le64_put(inodes);
	rec.dqb_curspace = le64_put((uint64_t)inodes * F2FS_BLKSIZE);
	memcpy(file + 5 * 1024 + 16, &rec, sizeof(rec));
}

static int write_quota(struct mkfs_ctx *c, unsigned int k)
{
	unsigned int type = c->t.quota_type[k], data_ofs = 1 + k * F2FS_QUOTA_DATA_BLOCKS, i;
	uint32_t id = type == 0 ? c->cfg->root_uid : type == 1 ? c->cfg->root_gid : 0;
	uint8_t file[2 * F2FS_BLKSIZE];
	struct f2fs_node n;
	int ret;

	init_inode(c, &n, c->t.quota_ino[k], MODE_REG_0600, 1 + k);
	n.i.i_links = le32_put(1);
	n.i.i_size = le64_put(QUOTA_FILE_SIZE);
	n.i.i_blocks = le64_put(1 + F2FS_QUOTA_DATA_BLOCKS);
	n.i.i_flags = le32_put(FS_IMMUTABLE_FL);
	for (i = 0; i < F2FS_QUOTA_DATA_BLOCKS; i++)
		n.i.i_addr[f2fs_inode_first_addr(&n.i) + i] =
		    le32_put(hot_data_addr(c, data_ofs + i));
	ret = write_inode(c, &n, 1 + k);
	if (ret)
		return ret;
	build_quota_file(c, type, id, file);
	ret = write_block(c, hot_data_addr(c, data_ofs), file);
	if (!ret)
		ret = write_block(c, hot_data_addr(c, data_ofs + 1), file + F2FS_BLKSIZE);
	return ret;
}

static void set_nat(struct f2fs_nat_entry *e, uint32_t ino, uint32_t blkaddr)
{
	e->version = 0;
	e->ino = le32_put(ino);
	e->block_addr = le32_put(blkaddr);
}

/* NAT block 0 of the first copy: node and meta inodes point at block 1 by convention. */
static int write_nat(struct mkfs_ctx *c)
{
	struct f2fs_nat_block *nat = calloc(1, F2FS_BLKSIZE);
	unsigned int k;
	int ret;

	if (!nat)
		return -ENOMEM;
	set_nat(&nat->entries[1], 1, 1);
	set_nat(&nat->entries[2], 2, 1);
	set_nat(&nat->entries[c->t.root_ino], c->t.root_ino, hot_node_addr(c, 0));
	for (k = 0; k < c->t.nquota; k++)
		set_nat(&nat->entries[c->t.quota_ino[k]], c->t.quota_ino[k],
			hot_node_addr(c, 1 + k));
	if (c->t.lpf_ino)
		set_nat(&nat->entries[c->t.lpf_ino], c->t.lpf_ino,
			hot_node_addr(c, lpf_node_ofs(c)));
	ret = write_block(c, c->l->nat_blkaddr, nat);
	free(nat);
	return ret;
}

static int write_tree(struct mkfs_ctx *c)
{
	unsigned int k;
	int ret = write_root(c);

	for (k = 0; !ret && k < c->t.nquota; k++)
		ret = write_quota(c, k);
	if (!ret)
		ret = write_lost_found(c);
	if (!ret)
		ret = write_nat(c);
	return ret;
}

/* ---- checkpoint pack ---- */

static uint32_t cp_flags(const struct mkfs_ctx *c, uint32_t pack_blocks)
{
	uint32_t flags = CP_UMOUNT_FLAG | CP_COMPACT_SUM_FLAG;

	if (pack_blocks <=
	    F2FS_DEFAULT_BLKS_PER_SEG - f2fs_nat_bits_blocks(c->l->segment_count_nat))
		flags |= CP_NAT_BITS_FLAG;
	if (c->trimmed)
		flags |= CP_TRIMMED_FLAG;
	if (c->l->large_nat_bitmap)
		flags |= CP_LARGE_NAT_BITMAP_FLAG;
	return flags;
}

static void build_cp(const struct mkfs_ctx *c, struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = c->l;
	static const int node_logs[3] = {F2FS_CURSEG_HOT_NODE, F2FS_CURSEG_WARM_NODE,
					 F2FS_CURSEG_COLD_NODE};
	static const int data_logs[3] = {F2FS_CURSEG_HOT_DATA, F2FS_CURSEG_WARM_DATA,
					 F2FS_CURSEG_COLD_DATA};
	uint32_t pack_blocks = 6 + l->cp_payload;
	int i;

	memset(cp, 0, F2FS_BLKSIZE);
	cp->checkpoint_ver = le64_put(c->cp_ver);
	for (i = 0; i < F2FS_MAX_ACTIVE_NODE_LOGS; i++) {
		cp->cur_node_segno[i] =
		    le32_put(i < 3 ? l->cur_seg[node_logs[i]] : F2FS_NULL_SEGNO);
		cp->cur_data_segno[i] =
		    le32_put(i < 3 ? l->cur_seg[data_logs[i]] : F2FS_NULL_SEGNO);
	}
	cp->cur_node_blkoff[0] = le16_put((uint16_t)c->t.node_blocks);
	cp->cur_data_blkoff[0] = le16_put((uint16_t)c->t.data_blocks);
	cp->valid_block_count = le64_put(c->t.node_blocks + c->t.data_blocks);
	cp->rsvd_segment_count = le32_put(l->reserved_segments);
	cp->overprov_segment_count = le32_put(l->overprov_segments);
	cp->free_segment_count = le32_put(l->free_segments);
	cp->user_block_count = le64_put(l->user_block_count);
	cp->cp_pack_total_block_count = le32_put(pack_blocks);
	cp->ckpt_flags = le32_put(cp_flags(c, pack_blocks));
	cp->cp_pack_start_sum = le32_put(1 + l->cp_payload);
	cp->valid_node_count = le32_put(c->t.node_blocks);
	cp->valid_inode_count = le32_put(c->t.node_blocks);
	cp->next_free_nid = le32_put(c->t.next_free_nid);
	cp->sit_ver_bitmap_bytesize = le32_put(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(l->nat_bitmap_bytes);
	cp->checksum_offset =
	    le32_put(l->large_nat_bitmap ? F2FS_CP_BITMAP_OFFSET : F2FS_CP_CHKSUM_OFFSET);
	f2fs_cp_seal(cp);
}

static void journal_sit(struct f2fs_sit_journal_entry *e, uint32_t segno, unsigned int type,
			unsigned int valid)
{
	unsigned int b;

	memset(e, 0, sizeof(*e));
	e->segno = le32_put(segno);
	e->se.vblocks = le16_put((uint16_t)(type << F2FS_SIT_VBLOCKS_SHIFT | valid));
	for (b = 0; b < valid; b++)
		f2fs_set_bit_msb(e->se.valid_map, b);
}

static void journal_nat(struct f2fs_nat_journal_entry *e, uint32_t nid, uint32_t blkaddr)
{
	e->nid = le32_put(nid);
	set_nat(&e->ne, nid, blkaddr);
}

static void put_summary(struct f2fs_summary *s, uint32_t nid, uint16_t ofs)
{
	s->nid = le32_put(nid);
	s->version = 0;
	s->ofs_in_node = le16_put(ofs);
}

/*
 * The compacted data summary: NAT journal, SIT journal, then the summary
 * entries of the hot data log (warm and cold are empty).
 */
static void build_compact_summary(const struct mkfs_ctx *c, uint8_t *blk)
{
	struct f2fs_journal nat_j, sit_j;
	struct f2fs_summary sums[F2FS_ENTRIES_IN_SUM];
	static const int order[F2FS_NR_CURSEG_TYPE] = {
	    F2FS_CURSEG_HOT_NODE, F2FS_CURSEG_WARM_NODE, F2FS_CURSEG_COLD_NODE,
	    F2FS_CURSEG_HOT_DATA, F2FS_CURSEG_WARM_DATA, F2FS_CURSEG_COLD_DATA,
	};
	unsigned int k, n = 0, i;

	memset(&nat_j, 0, sizeof(nat_j));
	journal_nat(&nat_j.nat_j.entries[n++], c->t.root_ino, hot_node_addr(c, 0));
	for (k = 0; k < c->t.nquota; k++)
		journal_nat(&nat_j.nat_j.entries[n++], c->t.quota_ino[k], hot_node_addr(c, 1 + k));
	if (c->t.lpf_ino)
		journal_nat(&nat_j.nat_j.entries[n++], c->t.lpf_ino,
			    hot_node_addr(c, lpf_node_ofs(c)));
	nat_j.n_nats = le16_put((uint16_t)n);

	memset(&sit_j, 0, sizeof(sit_j));
	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		int log = order[i];
		unsigned int valid = log == F2FS_CURSEG_HOT_NODE   ? c->t.node_blocks
				     : log == F2FS_CURSEG_HOT_DATA ? c->t.data_blocks
								   : 0;

		journal_sit(&sit_j.sit_j.entries[i], c->l->cur_seg[log], (unsigned int)log, valid);
	}
	sit_j.n_sits = le16_put(F2FS_NR_CURSEG_TYPE);

	memset(sums, 0, sizeof(sums));
	n = 0;
	put_summary(&sums[n++], c->t.root_ino, 0);
	for (k = 0; k < c->t.nquota; k++)
		for (i = 0; i < F2FS_QUOTA_DATA_BLOCKS; i++)
			put_summary(&sums[n++], c->t.quota_ino[k], (uint16_t)i);
	if (c->t.lpf_ino)
		put_summary(&sums[n++], c->t.lpf_ino, 0);

	memset(blk, 0, F2FS_BLKSIZE);
	memcpy(blk, &nat_j, F2FS_SUM_JOURNAL_SIZE);
	memcpy(blk + F2FS_SUM_JOURNAL_SIZE, &sit_j, F2FS_SUM_JOURNAL_SIZE);
	memcpy(blk + 2 * F2FS_SUM_JOURNAL_SIZE, sums, n * sizeof(sums[0]));
}

/* Node summaries of the hot, warm and cold node logs: three full blocks. */
static void build_node_summaries(const struct mkfs_ctx *c, struct f2fs_summary_block *hot,
				 struct f2fs_summary_block *warm, struct f2fs_summary_block *cold)
{
	unsigned int k, n = 0;

	memset(hot, 0, sizeof(*hot));
	memset(warm, 0, sizeof(*warm));
	memset(cold, 0, sizeof(*cold));
	hot->footer.entry_type = warm->footer.entry_type = cold->footer.entry_type =
	    F2FS_SUM_TYPE_NODE;
	put_summary(&hot->entries[n++], c->t.root_ino, 0);
	for (k = 0; k < c->t.nquota; k++)
		put_summary(&hot->entries[n++], c->t.quota_ino[k], 0);
	if (c->t.lpf_ino)
		put_summary(&hot->entries[n++], c->t.lpf_ino, 0);
}

/* NAT bits: no NAT block is full; every one but block 0 is empty. */
static void build_nat_bits(const struct mkfs_ctx *c, const struct f2fs_checkpoint *cp, uint8_t *buf,
			   size_t len)
{
	uint32_t bytes = f2fs_nat_bits_bytes(c->l->segment_count_nat);
	uint64_t tag = le64_put(f2fs_nat_bits_tag(cp));
	uint8_t *empty = buf + 8 + bytes;

	memset(buf, 0, len);
	memcpy(buf, &tag, sizeof(tag));
	memset(empty, 0xff, bytes);
	f2fs_clear_bit_lsb(empty, 0);
}

/* Lay out a whole pack in memory so it goes to the device in one write. */
static int write_cp_pack(struct mkfs_ctx *c, uint64_t start, const struct f2fs_checkpoint *cp,
			 bool with_payload)
{
	struct f2fs_pack_layout l;
	uint32_t pack;
	uint8_t *buf, *node;
	int ret;

	f2fs_pack_layout(cp, c->l->cp_payload, &l);
	pack = l.total;
	buf = calloc(pack, F2FS_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, cp, F2FS_BLKSIZE);
	if (with_payload) {
		/* no orphans: one compacted data summary, then the node summaries */
		build_compact_summary(c, buf + (size_t)l.data_sum_start * F2FS_BLKSIZE);
		node = buf + (size_t)l.node_sum_start * F2FS_BLKSIZE;
		build_node_summaries(c, (void *)node, (void *)(node + F2FS_BLKSIZE),
				     (void *)(node + 2 * F2FS_BLKSIZE));
	}
	memcpy(buf + (size_t)l.last * F2FS_BLKSIZE, cp, F2FS_BLKSIZE);
	if (with_payload) {
		ret =
		    f2fs_dev_write(c->dev, buf, start * F2FS_BLKSIZE, (size_t)pack * F2FS_BLKSIZE);
	} else {
		/* The spare pack: only its first and last blocks, like upstream. */
		ret = f2fs_dev_write(c->dev, buf, start * F2FS_BLKSIZE,
				     (size_t)l.orphan_start * F2FS_BLKSIZE);
		if (!ret)
			ret = write_block(c, start + l.last, cp);
	}
	free(buf);
	return ret;
}

static int write_nat_bits(struct mkfs_ctx *c, const struct f2fs_checkpoint *cp)
{
	uint32_t blocks = f2fs_nat_bits_blocks(c->l->segment_count_nat);
	uint8_t *buf;
	int ret;

	if (!(le32_get(cp->ckpt_flags) & CP_NAT_BITS_FLAG))
		return 0;
	buf = malloc((size_t)blocks * F2FS_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	build_nat_bits(c, cp, buf, (size_t)blocks * F2FS_BLKSIZE);
	ret = f2fs_dev_write(c->dev, buf,
			     ((uint64_t)c->l->cp_blkaddr + F2FS_DEFAULT_BLKS_PER_SEG - blocks) *
				 F2FS_BLKSIZE,
			     (size_t)blocks * F2FS_BLKSIZE);
	free(buf);
	return ret;
}

static int write_checkpoints(struct mkfs_ctx *c)
{
	struct f2fs_checkpoint *cp = calloc(1, F2FS_BLKSIZE);
	int ret;

	if (!cp)
		return -ENOMEM;
	build_cp(c, cp);
	ret = write_cp_pack(c, c->l->cp_blkaddr, cp, true);
	if (!ret)
		ret = write_nat_bits(c, cp);
	if (!ret) {
		/* The second pack is valid but older (version 0): mount takes the first. */
		cp->checkpoint_ver = 0;
		f2fs_cp_seal(cp);
		ret = write_cp_pack(c, (uint64_t)c->l->cp_blkaddr + F2FS_DEFAULT_BLKS_PER_SEG, cp,
				    false);
	}
	free(cp);
	return ret;
}

/* ---- superblock ---- */

static int build_super(struct mkfs_ctx *c, struct f2fs_mkfs_result *res)
{
	struct f2fs_super_block *sb = &c->sb;
	const struct f2fs_mkfs_config *cfg = c->cfg;
	unsigned int k;
	int ret;

	memset(sb, 0, sizeof(*sb));
	sb->magic = le32_put(F2FS_SUPER_MAGIC);
	sb->major_ver = le16_put(1);
	sb->minor_ver = le16_put(16);
	f2fs_super_set_layout(sb, c->l);
	sb->root_ino = le32_put(c->t.root_ino);
	sb->node_ino = le32_put(1);
	sb->meta_ino = le32_put(2);
	if (cfg->uuid_given)
		memcpy(sb->uuid, cfg->uuid, sizeof(sb->uuid));
	else
		uuid_generate(sb->uuid);
	memcpy(res->uuid, sb->uuid, sizeof(sb->uuid));
	ret = f2fs_label_to_utf16(cfg->label ? cfg->label : "", sb->volume_name,
				  F2FS_MAX_VOLUME_NAME);
	if (ret < 0)
		return ret;
	f2fs_super_set_extensions(sb, cfg->cold_extensions, cfg->hot_extensions, NULL, NULL);
	memcpy(sb->version, cfg->kernel_version, F2FS_VERSION_LEN - 1);
	memcpy(sb->init_version, cfg->kernel_version, F2FS_VERSION_LEN - 1);
	sb->feature = le32_put(cfg->features);
	for (k = 0; k < c->t.nquota; k++)
		sb->qf_ino[c->t.quota_type[k]] = le32_put(c->t.quota_ino[k]);
	if (cfg->features & F2FS_FEATURE_CASEFOLD) {
		sb->s_encoding = le16_put(cfg->s_encoding);
		sb->s_encoding_flags = le16_put(cfg->s_encoding_flags);
	}
	f2fs_super_seal(sb);
	c->chksum_seed = f2fs_inode_chksum_seed(sb->uuid);
	return 0;
}

static int write_supers(struct mkfs_ctx *c)
{
	uint8_t blk[F2FS_BLKSIZE];
	int ret, i;

	memset(blk, 0, sizeof(blk));
	memcpy(blk + F2FS_SUPER_OFFSET, &c->sb, sizeof(c->sb));
	for (i = 0, ret = 0; !ret && i < 2; i++)
		ret = write_block(c, (uint64_t)i, blk);
	return ret;
}

/* ---- clearing the device ---- */

static int zero_range(struct mkfs_ctx *c, uint64_t blkaddr, uint64_t blocks)
{
	return f2fs_dev_zero(c->dev, blkaddr * F2FS_BLKSIZE, blocks * F2FS_BLKSIZE);
}

/*
 * Make everything the kernel will read as "empty" read as zeros: the first
 * 4 MiB (old signatures), the selected SIT and NAT copies, and the first
 * block of the warm node log, where roll-forward recovery would otherwise
 * find a stale chain from an earlier file system.
 */
static int clear_device(struct mkfs_ctx *c)
{
	const struct f2fs_layout *l = c->l;
	uint64_t size = f2fs_dev_get_info(c->dev)->size_bytes;
	uint32_t seg;
	int ret;

	if (c->cfg->discard) {
		ret = f2fs_dev_discard(c->dev, 0, size, &c->reads_zero);
		c->trimmed = ret == 0;
		if (ret && ret != -EOPNOTSUPP)
			return ret;
	}
	if (c->reads_zero)
		return 0;
	ret = zero_range(c, 0, (size < WIPE_BYTES ? size : WIPE_BYTES) / F2FS_BLKSIZE);
	if (!ret)
		ret = zero_range(c, l->sit_blkaddr,
				 (uint64_t)l->segment_count_sit / 2 * F2FS_DEFAULT_BLKS_PER_SEG);
	for (seg = 0; !ret && seg < l->segment_count_nat / 2; seg++)
		ret = zero_range(c, l->nat_blkaddr + (uint64_t)seg * 2 * F2FS_DEFAULT_BLKS_PER_SEG,
				 F2FS_DEFAULT_BLKS_PER_SEG);
	if (!ret)
		ret =
		    zero_range(c, f2fs_layout_seg_blkaddr(l, l->cur_seg[F2FS_CURSEG_WARM_NODE]), 1);
	return ret;
}

static uint64_t pick_cp_version(const struct f2fs_mkfs_config *cfg)
{
	uint32_t r = 0;

	if (cfg->fixed_cp_version)
		return 1;
	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)time(NULL);
	return (r & 0x7fffffffu) | 1;
}

int f2fs_mkfs_format(struct f2fs_device *dev, const struct f2fs_mkfs_config *cfg,
		     const struct f2fs_layout *l, struct f2fs_mkfs_result *res)
{
	struct mkfs_ctx c = {.dev = dev, .cfg = cfg, .l = l};
	unsigned int k;
	int ret;

	memset(res, 0, sizeof(*res));
	c.now = cfg->fixed_time >= 0 ? (uint64_t)cfg->fixed_time : (uint64_t)time(NULL);
	c.cp_ver = pick_cp_version(cfg);
	plan_tree(&c);
	ret = build_super(&c, res);
	if (!ret)
		ret = clear_device(&c);
	if (!ret)
		ret = write_tree(&c);
	if (!ret)
		ret = write_checkpoints(&c);
	if (!ret)
		ret = f2fs_dev_flush(dev);
	if (!ret)
		ret = write_supers(&c);
	if (!ret)
		ret = f2fs_dev_flush(dev);
	res->discarded = c.trimmed;
	res->cp_version = c.cp_ver;
	res->lost_found_ino = c.t.lpf_ino;
	for (k = 0; k < c.t.nquota; k++)
		res->quota_ino[c.t.quota_type[k]] = c.t.quota_ino[k];
	return ret;
}
