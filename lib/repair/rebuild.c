// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding the tables from the node blocks themselves, for a volume whose
 * NAT, SIT or both checkpoint packs are unusable (btrfs check's
 * --init-extent-tree and e2fsck's backup superblock are the models).  The
 * main area is read whole; every block that reads as a node block (a footer
 * whose nid, ino, offset and next address are possible, and, for an inode,
 * a mode and checksum that hold) is a copy of its nid.  Of several copies
 * the newest is kept: first by what the damaged tables still say (the NAT
 * maps the nid there, a copy of the NAT does, the SIT marks the block
 * valid), then by the footer's checkpoint version, then by address.  Which
 * nids are alive comes from the same tables: the NAT when it still maps
 * the root, else either copy of the NAT blocks, else the SIT; with none
 * of them, every nid found.  The blocks the kept nodes and their data
 * addresses name become the SIT; the NAT gets one entry per kept node; a
 * checkpoint with the logs in free sections and a version above every
 * footer's closes it.  What the scan cannot know (links, sizes, summary
 * entries, duplicates) is left to the check and repair that follow.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/geometry.h"
#include "f2fs/layout.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/repair.h"
#include "f2fs/sit.h"
#include "f2fs/volume.h"
#include "f2fs/write.h"
#include "f2fs/fixup.h"
#include "f2fs/super.h"

#define SEG_BLOCKS F2FS_DEFAULT_BLKS_PER_SEG
#define NO_TYPE	   0xff

/* How strongly the damaged tables vouch for a copy: compared before versions. */
enum {
	VOUCH_SIT = 1,	   /* the SIT marks the block valid */
	VOUCH_RAW_NAT = 2, /* a copy of its NAT block maps the nid there */
	VOUCH_NAT = 4,	   /* the loaded NAT maps the nid there */
};

enum { SLOT_INODE = 1, SLOT_DIR = 2, SLOT_DIRECT = 4, SLOT_VERSION = 8, SLOT_SPECIAL = 16 };

/* A summary entry the stored SSA has wrong, to be written. */
struct sum_fix {
	uint32_t blk, nid;
	uint16_t ofs;
	uint8_t version;
};

/* Stored SSA blocks, direct-mapped by segment: a file's blocks mostly share a few. */
#define SSA_CACHE 64
struct ssa_cache {
	uint32_t segno[SSA_CACHE]; /* UINT32_MAX: empty */
	struct f2fs_summary_block blk[SSA_CACHE];
};

/* The best copy of one nid found so far. */
struct slot {
	uint32_t blk; /* 0: none found */
	uint32_t ver; /* footer cp_ver, low 32 bits */
	uint32_t ino;
	uint8_t vouch, flags, version;
	bool live;
};

/* One nid's entries in the two copies of its NAT block. */
struct raw_nat {
	uint32_t blk[2];
	uint32_t ver[2]; /* footer version of the node the scan found there, 0: none */
	uint8_t version[2];
};

struct rebuild {
	struct f2fs_device *dev;
	struct f2fs_super_block sb;
	struct f2fs_geometry geo;
	uint32_t features, max_nid, seed;
	struct f2fs_fs *old; /* the damaged volume, read-only, when it opens */
	const struct f2fs_nat_table *nat;
	const struct f2fs_sit_table *sit;
	struct f2fs_checkpoint *old_cp;
	struct raw_nat *raw;
	uint8_t *raw_copies; /* per NAT block: the copies to believe (bit 0, bit 1) */
	bool raw_any;
	struct slot *slot;
	uint8_t *used;	  /* one bit per main-area block */
	uint8_t *segtype; /* per segment: the type of the first block marked */
	uint32_t max_ver;
	uint64_t reserved; /* NEW_ADDR addresses of kept nodes */
	uint32_t logs[F2FS_NR_CURSEG_TYPE];
	struct ssa_cache *ssa;
	struct sum_fix *fixes;
	size_t nfix, capfix;
	int by; /* enum liveness: which table said which nids are alive */
	struct f2fs_rebuild_report *rep;
	char *why;
	size_t why_len;
};

/* Bytes of a block of the volume. */
static uint32_t bs(const struct rebuild *b)
{
	return b->geo.blk.blksize;
}

static int say(struct rebuild *b, int err, const char *what)
{
	if (b->why && b->why_len)
		snprintf(b->why, b->why_len, "%s", what);
	return err;
}

/* "@what: @detail", or "@what: the errno's text" without a detail. */
static int say_err(struct rebuild *b, int err, const char *what, const char *detail)
{
	if (b->why && b->why_len)
		snprintf(b->why, b->why_len, "%s: %s", what,
			 detail && detail[0] ? detail : strerror(-err));
	return err;
}

/* ---- what the damaged volume still says ---- */

static bool sit_valid(const struct rebuild *b, uint64_t blkaddr)
{
	const struct f2fs_seg_entry *se;

	if (!b->sit)
		return false;
	se = f2fs_sit_seg(b->sit, f2fs_geo_segno(&b->geo, blkaddr));
	return se && f2fs_test_bit_msb(se->map, f2fs_geo_blkoff(&b->geo, blkaddr));
}

static const struct f2fs_nat_info *nat_entry(const struct rebuild *b, uint32_t nid)
{
	const struct f2fs_nat_info *e = b->nat ? f2fs_nat_get(b->nat, nid) : NULL;

	return e && e->blkaddr != F2FS_NULL_ADDR ? e : NULL;
}

/* Keep what loads of the damaged volume: its checkpoint, NAT and SIT. */
static void open_old(struct rebuild *b)
{
	uint32_t root = le32_get(b->sb.root_ino), segno;
	const struct f2fs_nat_info *e;
	char why[256];

	if (f2fs_fs_open(b->dev, F2FS_FS_READ | F2FS_FS_SHORT_DEVICE, &b->old, why, sizeof(why)))
		return;
	b->old_cp = malloc(bs(b));
	if (b->old_cp)
		memcpy(b->old_cp, f2fs_fs_cp(b->old), bs(b));
	if (f2fs_fs_nat(b->old, &b->nat))
		b->nat = NULL;
	e = nat_entry(b, root);
	if (!e || !f2fs_geo_in_main(&b->geo, e->blkaddr))
		b->nat = NULL; /* a NAT that lost the root lost everything */
	if (f2fs_fs_sit(b->old, &b->sit))
		b->sit = NULL;
	for (segno = 0; b->sit && segno < b->geo.main_segs; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(b->sit, segno);

		if (se && se->valid)
			break;
	}
	if (b->sit && segno == b->geo.main_segs)
		b->sit = NULL; /* all free: zeroed */
	b->rep->used_checkpoint = b->old_cp != NULL;
	b->rep->used_nat = b->nat != NULL;
	b->rep->used_sit = b->sit != NULL;
}

static void close_old(struct rebuild *b)
{
	if (b->old)
		f2fs_fs_close(b->old);
	b->old = NULL;
	b->nat = NULL;
	b->sit = NULL;
}

/* Both copies of every NAT block, as stored (no checkpoint needed to read them). */
static int read_raw_nat(struct rebuild *b)
{
	/* a whole block: 9-byte entries do not fill one exactly */
	uint8_t buf[F2FS_MAX_BLKSIZE];
	const struct f2fs_nat_entry *blk = (const struct f2fs_nat_entry *)buf;
	uint32_t per = b->geo.blk.nat_per_block, nat_blocks = b->max_nid / per, idx, i, nid;
	int copy;

	b->raw = calloc(b->max_nid, sizeof(*b->raw));
	if (!b->raw)
		return say(b, -ENOMEM, "out of memory");
	for (idx = 0; idx < nat_blocks; idx++) {
		for (copy = 0; copy < 2; copy++) {
			uint64_t addr = f2fs_nat_block_addr(&b->sb, idx, copy);

			if (f2fs_dev_read(b->dev, buf, addr * bs(b), bs(b)))
				continue;
			for (i = 0; i < per; i++) {
				nid = idx * per + i;
				b->raw[nid].blk[copy] = le32_get(blk[i].block_addr);
				b->raw[nid].version[copy] = blk[i].version;
				if (nid >= F2FS_FIRST_INO_RESERVED &&
				    f2fs_geo_in_main(&b->geo, b->raw[nid].blk[copy]))
					b->raw_any = true;
			}
		}
	}
	b->rep->used_raw_nat = b->raw_any && !b->nat;
	return 0;
}

/* ---- the scan ---- */

static bool possible_inode(const struct rebuild *b, const struct f2fs_node *n)
{
	const struct f2fs_inode *ri = &n->i;
	uint16_t isize = le16_get(ri->i_extra_isize);

	if (f2fs_mode_file_type(le16_get(ri->i_mode)) == F2FS_FT_UNKNOWN)
		return false;
	if (!(ri->i_inline & F2FS_EXTRA_ATTR) || !(b->features & F2FS_FEATURE_INODE_CHKSUM))
		return true;
	if (isize < offsetof(struct f2fs_inode, i_crtime) - F2FS_EXTRA_ISIZE_OFFSET)
		return true; /* too short to hold a checksum */
	return f2fs_inode_chksum(&b->geo.blk, n, b->seed) == le32_get(ri->i_inode_checksum);
}

/* Is @n a node block of this volume that could be @blkaddr's current content? */
static bool possible_node(const struct rebuild *b, const struct f2fs_node *n)
{
	const struct f2fs_blkgeo *g = &b->geo.blk;
	uint32_t nid = f2fs_footer_nid(g, n), ino = f2fs_footer_ino(g, n);
	uint32_t next = f2fs_footer_next_blkaddr(g, n), ofs = f2fs_node_ofs(g, n);
	uint32_t ver = (uint32_t)f2fs_footer_cp_ver(g, n);

	if (nid < F2FS_FIRST_INO_RESERVED || nid >= b->max_nid || ino < F2FS_FIRST_INO_RESERVED ||
	    ino >= b->max_nid)
		return false;
	if (next != F2FS_NULL_ADDR && (next < b->geo.main_blkaddr || next > b->geo.main_end))
		return false;
	if (b->old_cp && ver > (uint32_t)le64_get(b->old_cp->checkpoint_ver))
		return false;
	if (ofs == 0)
		return nid == ino && possible_inode(b, n);
	return nid != ino;
}

static uint8_t vouch_for(const struct rebuild *b, uint32_t nid, uint64_t blkaddr)
{
	const struct f2fs_nat_info *e = nat_entry(b, nid);
	uint8_t v = sit_valid(b, blkaddr) ? VOUCH_SIT : 0;

	if (b->raw[nid].blk[0] == blkaddr || b->raw[nid].blk[1] == blkaddr)
		v |= VOUCH_RAW_NAT;
	if (e && e->blkaddr == blkaddr)
		v |= VOUCH_NAT;
	return v;
}

/* Does the copy at @blkaddr beat the one in @s? */
static bool better(const struct slot *s, uint8_t vouch, uint32_t ver, uint64_t blkaddr)
{
	if (!s->blk)
		return true;
	if (vouch != s->vouch)
		return vouch > s->vouch;
	if (ver != s->ver)
		return ver > s->ver;
	return blkaddr > s->blk;
}

static uint8_t inode_flags(uint16_t mode)
{
	if (S_ISDIR(mode))
		return SLOT_DIR;
	/* device, fifo and socket inodes keep rdev in i_addr: no blocks */
	if (S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) || S_ISSOCK(mode))
		return SLOT_SPECIAL;
	return 0;
}

static void consider(struct rebuild *b, const struct f2fs_node *n, uint64_t blkaddr)
{
	uint32_t nid = f2fs_footer_nid(&b->geo.blk, n), ofs = f2fs_node_ofs(&b->geo.blk, n);
	uint32_t ver = (uint32_t)f2fs_footer_cp_ver(&b->geo.blk, n);
	uint8_t vouch = vouch_for(b, nid, blkaddr);
	struct slot *s = &b->slot[nid];

	b->rep->node_blocks++;
	if (b->raw[nid].blk[0] == blkaddr)
		b->raw[nid].ver[0] = ver;
	if (b->raw[nid].blk[1] == blkaddr)
		b->raw[nid].ver[1] = ver;
	if (ver > b->max_ver)
		b->max_ver = ver;
	if (!better(s, vouch, ver, blkaddr))
		return;
	s->blk = (uint32_t)blkaddr;
	s->ver = ver;
	s->ino = f2fs_footer_ino(&b->geo.blk, n);
	s->vouch = vouch;
	s->flags = 0;
	if (ofs == 0)
		s->flags = SLOT_INODE | SLOT_DIRECT | inode_flags(le16_get(n->i.i_mode));
	else if (f2fs_node_ofs_is_direct(&b->geo.blk, ofs))
		s->flags = SLOT_DIRECT;
}

static int scan(struct rebuild *b)
{
	uint8_t *buf = malloc((size_t)SEG_BLOCKS * bs(b));
	uint32_t segno, off;

	if (!buf)
		return say(b, -ENOMEM, "out of memory");
	for (segno = 0; segno < b->geo.main_segs; segno++) {
		uint64_t start = f2fs_geo_seg_start(&b->geo, segno);

		if (f2fs_dev_read(b->dev, buf, start * bs(b), (size_t)SEG_BLOCKS * bs(b))) {
			b->rep->unreadable_segments++;
			continue;
		}
		b->rep->blocks_scanned += SEG_BLOCKS;
		for (off = 0; off < SEG_BLOCKS; off++) {
			const struct f2fs_node *n =
			    (const struct f2fs_node *)(buf + (size_t)off * bs(b));

			if (possible_node(b, n))
				consider(b, n, start + off);
		}
	}
	free(buf);
	return 0;
}

/* ---- what is kept ---- */

/*
 * Which copy of each NAT block is newer, without the checkpoint's bitmap:
 * the kernel writes a whole block to the other copy, so the copy naming
 * the newest node (by footer version) is the later one.  A tie believes
 * both: a nid one copy frees and the other still maps comes back.
 */
static int weigh_raw_copies(struct rebuild *b)
{
	uint32_t nat_blocks = b->max_nid / b->geo.blk.nat_per_block, idx, i;

	b->raw_copies = malloc(nat_blocks ? nat_blocks : 1);
	if (!b->raw_copies)
		return say(b, -ENOMEM, "out of memory");
	for (idx = 0; idx < nat_blocks; idx++) {
		uint32_t newest[2] = {0, 0};
		int copy;

		for (i = 0; i < b->geo.blk.nat_per_block; i++)
			for (copy = 0; copy < 2; copy++) {
				uint32_t v = b->raw[idx * b->geo.blk.nat_per_block + i].ver[copy];

				newest[copy] = v > newest[copy] ? v : newest[copy];
			}
		b->raw_copies[idx] = newest[0] == newest[1] ? 3 : newest[0] > newest[1] ? 1 : 2;
	}
	return 0;
}

/* Does a believed copy of @nid's NAT block map it to a main-area block? */
static bool raw_lists(const struct rebuild *b, uint32_t nid, int copy)
{
	return (b->raw_copies[nid / b->geo.blk.nat_per_block] >> copy & 1) &&
	       f2fs_geo_in_main(&b->geo, b->raw[nid].blk[copy]);
}

/* The tables that may say which nids are alive, in the order they are believed. */
enum liveness { BY_NAT, BY_RAW_NAT, BY_SIT, BY_NOTHING };

static bool listed_by(const struct rebuild *b, enum liveness by, uint32_t nid)
{
	switch (by) {
	case BY_NAT:
		return nat_entry(b, nid) != NULL;
	case BY_RAW_NAT:
		return raw_lists(b, nid, 0) || raw_lists(b, nid, 1);
	case BY_SIT:
		return b->slot[nid].vouch & VOUCH_SIT;
	default:
		return true;
	}
}

/*
 * A table may decide only when it lists most of the nodes: one zeroed but
 * for the few entries its journal in the checkpoint holds would drop every
 * other file.  "Most" is 90% of the checkpoint's valid_node_count, when a
 * checkpoint loaded; else any entry will do.
 */
static bool complete(const struct rebuild *b, enum liveness by)
{
	uint64_t count = 0, expected = b->old_cp ? le32_get(b->old_cp->valid_node_count) : 0;
	uint32_t nid;

	if ((by == BY_NAT && !b->nat) || (by == BY_RAW_NAT && !b->raw_any) ||
	    (by == BY_SIT && !b->sit))
		return false;
	for (nid = F2FS_FIRST_INO_RESERVED; nid < b->max_nid; nid++)
		count += b->slot[nid].blk && listed_by(b, by, nid);
	return count && count * 10 >= expected * 9;
}

static enum liveness pick_liveness(const struct rebuild *b)
{
	enum liveness by;

	for (by = BY_NAT; by < BY_NOTHING; by++)
		if (complete(b, by))
			break;
	return by;
}

/* The NAT version a kept copy had, when a NAT (loaded or a stored copy) maps the nid there. */
static void known_version(struct rebuild *b, uint32_t nid)
{
	struct slot *s = &b->slot[nid];
	const struct f2fs_nat_info *e = nat_entry(b, nid);
	int copy;

	if (e && e->blkaddr == s->blk) {
		s->version = e->version;
		s->flags |= SLOT_VERSION;
		return;
	}
	for (copy = 0; copy < 2; copy++) {
		if (b->raw[nid].blk[copy] == s->blk) {
			s->version = b->raw[nid].version[copy];
			s->flags |= SLOT_VERSION;
			return;
		}
	}
}

static void choose(struct rebuild *b)
{
	enum liveness by = pick_liveness(b);
	uint32_t nid;

	b->by = by;
	b->rep->liveness = by == BY_NAT	      ? "NAT"
			   : by == BY_RAW_NAT ? "stored NAT copies"
			   : by == BY_SIT     ? "SIT"
					      : "no table";
	for (nid = F2FS_FIRST_INO_RESERVED; nid < b->max_nid; nid++) {
		struct slot *s = &b->slot[nid];

		if (!s->blk)
			continue;
		s->live = listed_by(b, by, nid);
		if (!s->live) {
			b->rep->dropped++;
			continue;
		}
		known_version(b, nid);
		b->rep->nodes++;
		b->rep->inodes += (s->flags & SLOT_INODE) != 0;
	}
}

/* ---- the blocks in use ---- */

static bool is_used(const struct rebuild *b, uint64_t blkaddr)
{
	return f2fs_test_bit_lsb(b->used, (unsigned int)f2fs_geo_main_index(&b->geo, blkaddr));
}

static void mark(struct rebuild *b, uint64_t blkaddr, int type)
{
	uint32_t segno = f2fs_geo_segno(&b->geo, blkaddr);

	f2fs_set_bit_lsb(b->used, (unsigned int)f2fs_geo_main_index(&b->geo, blkaddr));
	if (b->segtype[segno] == NO_TYPE)
		b->segtype[segno] = (uint8_t)type;
}

static int node_type(const struct rebuild *b, const struct slot *s)
{
	bool dir = (b->slot[s->ino].flags & SLOT_DIR) != 0;

	if (!(s->flags & SLOT_DIRECT))
		return F2FS_CURSEG_COLD_NODE;
	return dir ? F2FS_CURSEG_HOT_NODE : F2FS_CURSEG_WARM_NODE;
}

/* The stored summary of @segno (in the 4 KiB layout), or NULL when it cannot be read. */
static const struct f2fs_summary_block *stored_summary(struct rebuild *b, uint32_t segno)
{
	unsigned int k = segno % SSA_CACHE;
	uint8_t raw[F2FS_MAX_BLKSIZE];

	if (b->ssa->segno[k] == segno)
		return &b->ssa->blk[k];
	b->ssa->segno[k] = UINT32_MAX;
	if (f2fs_dev_read(b->dev, raw,
			  f2fs_ssa_byte_of(&b->geo.blk, le32_get(b->sb.ssa_blkaddr), segno),
			  b->geo.blk.sum_blksize))
		return NULL;
	f2fs_sum_load(&b->geo.blk, &b->ssa->blk[k], raw);
	b->ssa->segno[k] = segno;
	return &b->ssa->blk[k];
}

/* The NAT version the summary entry of data block @blkaddr of @nid records, when it names @nid. */
static void version_from_summary(struct rebuild *b, struct slot *s, uint32_t nid, uint64_t blkaddr)
{
	const struct f2fs_summary_block *sum = stored_summary(b, f2fs_geo_segno(&b->geo, blkaddr));
	const struct f2fs_summary *e;

	if (!sum)
		return;
	e = &sum->entries[f2fs_geo_blkoff(&b->geo, blkaddr)];
	if (sum->footer.entry_type == F2FS_SUM_TYPE_DATA && le32_get(e->nid) == nid) {
		s->version = e->version;
		s->flags |= SLOT_VERSION;
	}
}

/* Queue the entry of @blkaddr for writing unless the stored one says the same. */
static int expect_summary(struct rebuild *b, uint64_t blkaddr, uint32_t nid, int ofs,
			  uint8_t version)
{
	const struct f2fs_summary_block *sum = stored_summary(b, f2fs_geo_segno(&b->geo, blkaddr));
	const struct f2fs_summary *e =
	    sum ? &sum->entries[f2fs_geo_blkoff(&b->geo, blkaddr)] : NULL;
	struct sum_fix *grown;

	if (e && le32_get(e->nid) == nid &&
	    (ofs < 0 || (le16_get(e->ofs_in_node) == ofs && e->version == version)))
		return 0;
	if (b->nfix == b->capfix) {
		size_t cap = b->capfix ? b->capfix * 2 : 256;

		grown = realloc(b->fixes, cap * sizeof(*grown));
		if (!grown)
			return say(b, -ENOMEM, "out of memory");
		b->fixes = grown;
		b->capfix = cap;
	}
	b->fixes[b->nfix++] = (struct sum_fix){.blk = (uint32_t)blkaddr,
					       .nid = nid,
					       .ofs = (uint16_t)(ofs < 0 ? 0 : ofs),
					       .version = ofs < 0 ? 0 : version};
	return 0;
}

/* A kept inode or direct node whose data addresses are looked at. */
struct data_visit {
	struct rebuild *b;
	struct slot *s;
	uint32_t nid;
	int type;   /* of the data log its blocks count for */
	bool taken; /* one of them is in use already */
	int err;
};

/*
 * Pass the data addresses of @v's node @n to @fn.  The scan knows no inode
 * of a direct node: it holds all the block's addresses.
 */
static int visit_data(struct data_visit *v, struct f2fs_node *n, f2fs_tree_addr_fn fn)
{
	struct f2fs_tree_walk walk = {.flags = F2FS_TREE_READ_ONLY,
				      .features = v->b->features,
				      .bg = &v->b->geo.blk,
				      .addr = fn,
				      .arg = v};
	struct f2fs_tree_pos at = {
	    .ino = v->s->ino, .nid = v->nid, .ofs = f2fs_node_ofs(&v->b->geo.blk, n), .blk = n};
	int ret;

	if (v->s->flags & SLOT_SPECIAL)
		return 0; /* device, fifo and socket inodes keep rdev in i_addr */
	ret = f2fs_tree_walk_addrs(&walk, &at, v->b->geo.blk.addrs_per_block, NULL);
	return ret == -EUCLEAN ? 0 : ret; /* a damaged i_extra_isize: the check reports it */
}

/* The NAT version of the node, from the summary of the first of its blocks that tells it. */
static unsigned int find_version(struct f2fs_tree_addr *a, void *arg)
{
	struct data_visit *v = arg;

	if (v->s->flags & SLOT_VERSION)
		return F2FS_TREE_ABORT;
	if (f2fs_geo_in_main(&v->b->geo, a->addr))
		version_from_summary(v->b, v->s, v->nid, a->addr);
	return 0;
}

/* One data address, marked in use unless something has it already. */
static unsigned int mark_addr(struct f2fs_tree_addr *a, void *arg)
{
	struct data_visit *v = arg;
	struct rebuild *b = v->b;

	b->reserved += a->addr == F2FS_NEW_ADDR; /* counted by the kernel, not in the SIT */
	if (!f2fs_geo_in_main(&b->geo, a->addr) || is_used(b, a->addr))
		return 0;
	mark(b, a->addr, v->type);
	b->rep->data_blocks++;
	v->err = expect_summary(b, a->addr, v->nid, (int)a->index, v->s->version);
	return v->err ? F2FS_TREE_ABORT : 0;
}

/* The data addresses of a kept inode or direct node, each marked in use once. */
static int mark_data(struct rebuild *b, uint32_t nid, struct f2fs_node *n)
{
	struct slot *s = &b->slot[nid];
	struct data_visit v = {.b = b,
			       .s = s,
			       .nid = nid,
			       .type = (b->slot[s->ino].flags & SLOT_DIR) ? F2FS_CURSEG_HOT_DATA
									  : F2FS_CURSEG_WARM_DATA};
	int ret = visit_data(&v, n, find_version);

	if (ret >= 0)
		ret = visit_data(&v, n, mark_addr);
	return ret < 0 ? ret : v.err;
}

static unsigned int find_taken(struct f2fs_tree_addr *a, void *arg)
{
	struct data_visit *v = arg;

	v->taken = f2fs_geo_in_main(&v->b->geo, a->addr) && is_used(v->b, a->addr);
	return v->taken ? F2FS_TREE_ABORT : 0;
}

/*
 * Without a table that knows which nids are alive, a deleted file's node
 * comes back with the rest; the kernel may have given its blocks to a
 * newer file since.  A node one of whose data addresses a newer node (or a
 * node block) holds already is such a leftover: it is dropped whole.
 */
static bool taken_by_newer(struct rebuild *b, uint32_t nid, struct f2fs_node *n)
{
	struct data_visit v = {.b = b, .s = &b->slot[nid], .nid = nid};

	if (b->by == BY_NAT || b->by == BY_SIT)
		return false;
	return visit_data(&v, n, find_taken) >= 0 && v.taken;
}

static void drop(struct rebuild *b, struct slot *s)
{
	s->live = false;
	f2fs_clear_bit_lsb(b->used, (unsigned int)f2fs_geo_main_index(&b->geo, s->blk));
	b->rep->nodes--;
	b->rep->inodes -= (s->flags & SLOT_INODE) != 0;
	b->rep->dropped++;
	b->rep->leftovers++;
}

/* Newest first: of two nodes naming one block, the newer keeps it. */
static int newest_first(const void *x, const void *y, void *arg)
{
	const struct slot *slot = arg;
	const struct slot *a = &slot[*(const uint32_t *)x], *c = &slot[*(const uint32_t *)y];

	if (a->ver != c->ver)
		return a->ver > c->ver ? -1 : 1;
	return a->blk > c->blk ? -1 : a->blk < c->blk;
}

/* The live inodes and direct nodes, newest first. */
static uint32_t *nodes_with_data(struct rebuild *b, uint32_t *n)
{
	uint32_t *v = malloc((size_t)(b->rep->nodes + 1) * sizeof(*v)), nid;

	*n = 0;
	if (!v)
		return NULL;
	for (nid = F2FS_FIRST_INO_RESERVED; nid < b->max_nid; nid++)
		if (b->slot[nid].live && (b->slot[nid].flags & SLOT_DIRECT))
			v[(*n)++] = nid;
	qsort_r(v, *n, sizeof(*v), newest_first, b->slot);
	return v;
}

static int mark_used(struct rebuild *b)
{
	struct f2fs_node *n = malloc(bs(b));
	uint32_t nid, *order = NULL, count = 0, k;
	int ret = 0;

	b->ssa = malloc(sizeof(*b->ssa));
	if (b->ssa && n)
		order = nodes_with_data(b, &count);
	if (!b->ssa || !n || !order) {
		free(n);
		return say(b, -ENOMEM, "out of memory");
	}
	memset(b->ssa->segno, 0xff, sizeof(b->ssa->segno));
	/* every kept node first, so that no data address takes a node's block */
	for (nid = F2FS_FIRST_INO_RESERVED; !ret && nid < b->max_nid; nid++) {
		if (!b->slot[nid].live)
			continue;
		mark(b, b->slot[nid].blk, node_type(b, &b->slot[nid]));
		ret = expect_summary(b, b->slot[nid].blk, nid, -1, 0);
	}
	for (k = 0; !ret && k < count; k++) {
		struct slot *s = &b->slot[order[k]];

		if (f2fs_dev_read(b->dev, n, (uint64_t)s->blk * bs(b), bs(b)))
			continue;
		if (taken_by_newer(b, order[k], n))
			drop(b, s);
		else
			ret = mark_data(b, order[k], n);
	}
	free(order);
	free(n);
	return ret;
}

/* ---- the new checkpoint ---- */

static bool section_free(const struct rebuild *b, uint32_t secno)
{
	uint32_t first = f2fs_geo_sec_first_seg(&b->geo, secno), segno;

	for (segno = first; segno < first + b->geo.segs_per_sec; segno++)
		if (b->segtype[segno] != NO_TYPE)
			return false;
	return true;
}

/* Each log opens the first segment of a free section of its own. */
static int pick_logs(struct rebuild *b)
{
	uint32_t secno = 0;
	int type;

	for (type = 0; type < F2FS_NR_CURSEG_TYPE; type++) {
		while (secno < b->geo.sections && !section_free(b, secno))
			secno++;
		if (secno == b->geo.sections)
			return say(b, -ENOSPC, "no free section left for the logs");
		b->logs[type] = f2fs_geo_sec_first_seg(&b->geo, secno++);
	}
	return 0;
}

/* Space fields: the old checkpoint's when it loaded, else what mkfs would choose. */
static int space_fields(struct rebuild *b, struct f2fs_checkpoint *cp)
{
	struct f2fs_layout l;

	if (b->old_cp) {
		cp->rsvd_segment_count = b->old_cp->rsvd_segment_count;
		cp->overprov_segment_count = b->old_cp->overprov_segment_count;
		cp->user_block_count = b->old_cp->user_block_count;
		return 0;
	}
	if (f2fs_layout_space(b->geo.main_segs, b->geo.segs_per_sec, &l))
		return say(b, -ENOSPC, "the main area is too small for a checkpoint");
	cp->rsvd_segment_count = le32_put(l.reserved_segments);
	cp->overprov_segment_count = le32_put(l.overprov_segments);
	cp->user_block_count = le64_put(l.user_block_count);
	return 0;
}

static bool large_nat_bitmap(const struct rebuild *b, uint32_t sit_bytes, uint32_t nat_bytes)
{
	size_t room =
	    b->geo.blk.cp_chksum_offset - offsetof(struct f2fs_checkpoint, sit_nat_version_bitmap);

	if (b->old_cp)
		return le32_get(b->old_cp->ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG;
	return nat_bytes + (le32_get(b->sb.cp_payload) ? 0 : sit_bytes) > room;
}

static int build_cp(struct rebuild *b, struct f2fs_checkpoint *cp)
{
	static const int node_logs[3] = {F2FS_CURSEG_HOT_NODE, F2FS_CURSEG_WARM_NODE,
					 F2FS_CURSEG_COLD_NODE};
	uint32_t sit_bytes = (uint32_t)(f2fs_sb_sit_blocks(&b->sb) / 8);
	uint32_t nat_bytes = (uint32_t)(f2fs_sb_nat_blocks(&b->sb) / 8);
	uint64_t ver = b->max_ver;
	bool large;
	int i;

	memset(cp, 0, bs(b));
	if (b->old_cp && (uint32_t)le64_get(b->old_cp->checkpoint_ver) > ver)
		ver = (uint32_t)le64_get(b->old_cp->checkpoint_ver);
	/* the write path's checkpoint goes one above: no footer has that version */
	cp->checkpoint_ver = le64_put(ver + 1);
	for (i = 0; i < F2FS_MAX_ACTIVE_NODE_LOGS; i++) {
		cp->cur_node_segno[i] = le32_put(i < 3 ? b->logs[node_logs[i]] : F2FS_NULL_SEGNO);
		cp->cur_data_segno[i] = le32_put(i < 3 ? b->logs[i] : F2FS_NULL_SEGNO);
	}
	if (space_fields(b, cp))
		return -ENOSPC;
	large = large_nat_bitmap(b, sit_bytes, nat_bytes);
	cp->free_segment_count = le32_put(b->geo.main_segs - F2FS_NR_CURSEG_TYPE);
	cp->ckpt_flags = le32_put(CP_NAT_BITS_FLAG | (large ? CP_LARGE_NAT_BITMAP_FLAG : 0));
	cp->next_free_nid = b->sb.root_ino;
	cp->sit_ver_bitmap_bytesize = le32_put(sit_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(nat_bytes);
	cp->checksum_offset = le32_put(large ? F2FS_CP_BITMAP_OFFSET : b->geo.blk.cp_chksum_offset);
	b->rep->cp_version = ver + 3; /* after the two checkpoints write_all() writes */
	return 0;
}

/* ---- writing ---- */

static uint64_t used_blocks(const struct rebuild *b)
{
	uint64_t used = 0, i, bytes = b->geo.main_blocks / 8 + 1;

	for (i = 0; i < bytes; i++)
		used += (uint64_t)__builtin_popcount(b->used[i]);
	return used;
}

/*
 * More blocks in use than users may fill: deleted files came back (no
 * table said which nids are alive) and the kernel would refuse the
 * checkpoint.  Stop before anything is written.
 */
static int fits(struct rebuild *b, const struct f2fs_checkpoint *cp)
{
	uint64_t used = used_blocks(b) + b->reserved;
	char msg[200];

	if (used <= le64_get(cp->user_block_count))
		return 0;
	snprintf(msg, sizeof(msg),
		 "the nodes found name %llu blocks, more than the %llu the volume holds for "
		 "files: deleted files are among them and no table (NAT, SIT) says which",
		 (unsigned long long)used, (unsigned long long)le64_get(cp->user_block_count));
	return say(b, -ENOSPC, msg);
}

/* Copy 0 of the NAT and of the SIT, which the new checkpoint selects, made to read as zeros. */
static int clear_tables(struct rebuild *b)
{
	uint32_t nat_pairs = le32_get(b->sb.segment_count_nat) / 2, p;
	uint64_t sit_half = f2fs_sb_sit_blocks(&b->sb);
	uint64_t seg_bytes = (uint64_t)SEG_BLOCKS * bs(b);
	int ret =
	    f2fs_dev_zero(b->dev, (uint64_t)le32_get(b->sb.sit_blkaddr) * bs(b), sit_half * bs(b));

	for (p = 0; !ret && p < nat_pairs; p++)
		ret = f2fs_dev_zero(
		    b->dev, (uint64_t)f2fs_nat_block_addr(&b->sb, p * SEG_BLOCKS, 0) * bs(b),
		    seg_bytes);
	return ret ? say(b, ret, "clearing the NAT and SIT") : 0;
}

static int write_nat(struct rebuild *b, struct f2fs_fs *fs)
{
	uint32_t nid;
	int ret = 0;

	for (nid = F2FS_FIRST_INO_RESERVED; !ret && nid < b->max_nid; nid++) {
		const struct slot *s = &b->slot[nid];

		if (s->live)
			ret = f2fs_fix_nat_set(fs, nid, s->ino, s->blk, s->version);
	}
	return ret;
}

static int write_sit(struct rebuild *b, struct f2fs_fs *fs)
{
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];
	uint32_t segno, off;
	int ret = 0;

	for (segno = 0; !ret && segno < b->geo.main_segs; segno++) {
		uint64_t start = f2fs_geo_seg_start(&b->geo, segno);

		if (b->segtype[segno] == NO_TYPE)
			continue;
		memset(map, 0, sizeof(map));
		for (off = 0; off < SEG_BLOCKS; off++)
			if (is_used(b, start + off))
				f2fs_set_bit_msb(map, off);
		ret = f2fs_fix_segment(fs, segno, map, b->segtype[segno]);
	}
	if (!ret)
		ret = f2fs_fix_recount(fs, used_blocks(b) + b->reserved, b->rep->nodes,
				       b->rep->inodes);
	return ret;
}

static int by_blk(const void *x, const void *y)
{
	uint32_t a = ((const struct sum_fix *)x)->blk, c = ((const struct sum_fix *)y)->blk;

	return a < c ? -1 : a > c;
}

/*
 * Every segment in use gets a summary block naming the owners found, its
 * type node or data; only the blocks that differ from the stored ones are
 * written.
 */
static int write_summaries(struct rebuild *b, struct f2fs_fs *fs)
{
	struct f2fs_summary_block sum;
	const struct f2fs_summary_block *stored;
	size_t k = 0;
	uint32_t segno;
	int ret = 0;

	if (b->nfix)
		qsort(b->fixes, b->nfix, sizeof(*b->fixes), by_blk);
	for (segno = 0; !ret && segno < b->geo.main_segs; segno++) {
		uint8_t kind;
		bool changed;

		if (b->segtype[segno] == NO_TYPE)
			continue;
		kind = b->segtype[segno] >= F2FS_CURSEG_HOT_NODE ? F2FS_SUM_TYPE_NODE
								 : F2FS_SUM_TYPE_DATA;
		stored = stored_summary(b, segno);
		if (stored)
			sum = *stored;
		else
			memset(&sum, 0, sizeof(sum));
		changed = !stored || sum.footer.entry_type != kind;
		sum.footer.entry_type = kind;
		for (; k < b->nfix && f2fs_geo_segno(&b->geo, b->fixes[k].blk) == segno; k++) {
			struct f2fs_summary *e =
			    &sum.entries[f2fs_geo_blkoff(&b->geo, b->fixes[k].blk)];

			e->nid = le32_put(b->fixes[k].nid);
			e->ofs_in_node = le16_put(b->fixes[k].ofs);
			e->version = b->fixes[k].version;
			changed = true;
		}
		if (changed) {
			ret = f2fs_fix_summary_block(fs, segno, &sum);
			b->rep->summaries++;
		}
	}
	return ret;
}

static int write_all(struct rebuild *b)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_checkpoint *cp = calloc(1, bs(b));
	struct f2fs_fs *fs = NULL;
	int ret = cp ? 0 : say(b, -ENOMEM, "out of memory"), i;

	if (!ret)
		ret = pick_logs(b);
	if (!ret)
		ret = build_cp(b, cp);
	if (!ret)
		ret = fits(b, cp);
	if (!ret)
		ret = clear_tables(b);
	if (!ret && (ret = f2fs_fs_create(b->dev, &b->sb, cp, &fs)) != 0)
		say_err(b, ret, "setting up the write path", "");
	if (!ret && (ret = write_nat(b, fs)) != 0)
		say_err(b, ret, "writing the NAT", f2fs_fs_why(fs));
	if (!ret && (ret = write_sit(b, fs)) != 0)
		say_err(b, ret, "writing the SIT", f2fs_fs_why(fs));
	if (!ret && (ret = write_summaries(b, fs)) != 0)
		say_err(b, ret, "writing the SSA", f2fs_fs_why(fs));
	/* twice: both packs valid, the older one a fallback as after any two checkpoints */
	for (i = 0; !ret && i < 2; i++)
		if ((ret = f2fs_checkpoint(fs, &req)) != 0)
			say_err(b, ret, "writing the checkpoint", f2fs_fs_why(fs));
	if (fs)
		f2fs_fs_close(fs);
	free(cp);
	return ret;
}

/* ---- the whole ---- */

static int setup(struct rebuild *b)
{
	char why[256];
	int ret = f2fs_volume_read_super(b->dev, &b->sb, why, sizeof(why));

	if (ret)
		return say(b, ret, why);
	f2fs_geometry_init(&b->geo, &b->sb);
	b->features = le32_get(b->sb.feature);
	b->seed = f2fs_inode_chksum_seed(b->sb.uuid);
	if (f2fs_sb_max_nid(&b->sb) > UINT32_MAX)
		return say(b, -EINVAL, "segment_count_nat gives more than 2^32 nids");
	b->max_nid = (uint32_t)f2fs_sb_max_nid(&b->sb);
	b->slot = calloc(b->max_nid, sizeof(*b->slot));
	b->used = calloc(b->geo.main_blocks / 8 + 1, 1);
	b->segtype = malloc(b->geo.main_segs);
	if (!b->slot || !b->used || !b->segtype)
		return say(b, -ENOMEM, "out of memory");
	memset(b->segtype, NO_TYPE, b->geo.main_segs);
	return 0;
}

int f2fs_rebuild(struct f2fs_device *dev, struct f2fs_rebuild_report *rep, char *why,
		 size_t why_len)
{
	struct rebuild b = {.dev = dev, .rep = rep, .why = why, .why_len = why_len};
	int ret;

	memset(rep, 0, sizeof(*rep));
	ret = setup(&b);
	/* its tables are laid out for two logs and no SSA: nothing here knows how to remake them */
	if (!ret && (le32_get(b.sb.feature) & F2FS_FEATURE_RO))
		ret = say(&b, -EROFS, "the volume is read-only (feature ro): it is not rebuilt");
	if (!ret) {
		open_old(&b);
		ret = read_raw_nat(&b);
	}
	if (!ret)
		ret = scan(&b);
	if (!ret)
		ret = weigh_raw_copies(&b);
	if (!ret) {
		choose(&b);
		ret = mark_used(&b);
	}
	close_old(&b);
	if (!ret && !rep->inodes)
		ret = say(&b, -ENODATA, "the scan found no inode");
	if (!ret)
		ret = write_all(&b);
	free(b.old_cp);
	free(b.raw);
	free(b.raw_copies);
	free(b.ssa);
	free(b.fixes);
	free(b.slot);
	free(b.used);
	free(b.segtype);
	return ret;
}
