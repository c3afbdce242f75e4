// SPDX-License-Identifier: GPL-2.0
/*
 * Setting state to what a checker found, for fsck's repairs.  The checker
 * walks the tree and knows which blocks and nids are really in use; these
 * functions make the SIT, the counters, the logs, NAT entries and inodes
 * say so, inside the write path's state, so that the repair ends with an
 * ordinary f2fs_checkpoint().  A segment set here is both valid and
 * checkpointed-valid: the checkpoint being replaced was wrong, so there is
 * no older state whose blocks must be kept until the next one.  Segments
 * set here go to SIT blocks at the checkpoint, never to the journal.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/bitops.h"
#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/ssa.h"
#include "f2fs/summary.h"
#include "f2fs/volume.h"
#include "f2fs/fixup.h"
#include "write_internal.h"

int f2fs_fix_segment(struct f2fs_fs *fs, uint32_t segno, const uint8_t *map, int type)
{
	struct f2fs_seg_entry *se;
	struct f2fs_sec_entry *sec;
	struct f2fs_wr *w;
	uint16_t count = (uint16_t)f2fs_popcount_bytes(map, F2FS_SIT_VBLOCK_MAP_SIZE);
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (segno >= w->segments || type < 0 || type >= F2FS_NR_CURSEG_TYPE)
		return -EINVAL;
	se = f2fs_sit_seg_mut(fs->sit, segno);
	if (!se)
		return -ENOMEM;
	if (se->valid == count && se->ckpt_valid == count && se->type == type &&
	    !memcmp(se->map, map, F2FS_SIT_VBLOCK_MAP_SIZE))
		return 0;
	sec = &fs->sit->sec[segno / w->segs_per_sec];
	sec->valid = sec->valid - se->valid + count;
	sec->ckpt_valid = sec->ckpt_valid - se->ckpt_valid + count;
	memcpy(se->map, map, F2FS_SIT_VBLOCK_MAP_SIZE);
	se->valid = se->ckpt_valid = count;
	se->type = (uint8_t)type;
	wr_seg_dirty(w, segno);
	/*
	 * The kernel checks every entry of the SIT blocks at mount, also one a
	 * journal entry overrides: a bad entry must be rewritten in its block.
	 */
	w->sit_to_blocks = true;
	return 0;
}

/* Each section's counts := the sums over its segments (a loaded count may be off). */
static uint64_t recount_sections(struct f2fs_wr *w)
{
	struct f2fs_sit_table *sit = w->fs->sit;
	uint64_t blocks = 0;
	uint32_t secno, segno;

	for (secno = 0; secno < w->sections; secno++) {
		struct f2fs_sec_entry *sec = &sit->sec[secno];

		sec->valid = sec->ckpt_valid = 0;
		for (segno = secno * w->segs_per_sec; segno < (secno + 1) * w->segs_per_sec;
		     segno++) {
			const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);

			sec->valid += se ? se->valid : 0;
			sec->ckpt_valid += se ? se->ckpt_valid : 0;
		}
		blocks += sec->valid;
	}
	return blocks;
}

int f2fs_fix_recount(struct f2fs_fs *fs, uint64_t valid_blocks, uint32_t valid_nodes,
		     uint32_t valid_inodes)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	recount_sections(w);
	/* the SIT's blocks and the reserved (NEW_ADDR) ones, which the SIT does not hold */
	w->valid_blocks = valid_blocks;
	wr_alloc_recount(w);
	w->valid_nodes = valid_nodes;
	w->valid_inodes = valid_inodes;
	wr_mark_dirty(w);
	return 0;
}

/*
 * Would the log write over a valid block of its current segment?  The
 * write path always appends from the log's offset (it writes no SSR), so
 * any valid block at or after it is in the way, whatever alloc_type the
 * loaded checkpoint gave the log.
 */
static bool log_blocked(struct f2fs_wr *w, int type)
{
	const struct f2fs_cp_data *d = w->fs->cpd;
	const struct f2fs_seg_entry *se = f2fs_sit_seg(w->fs->sit, d->curseg_segno[type]);

	return se && f2fs_log_first_used(se->map, d->curseg_blkoff[type], false) <
			 F2FS_DEFAULT_BLKS_PER_SEG;
}

int f2fs_fix_logs(struct f2fs_fs *fs, unsigned int *moved)
{
	struct f2fs_wr *w;
	int type, ret = wr_get(fs, &w);

	*moved = 0;
	for (type = 0; !ret && type < F2FS_NR_CURSEG_TYPE; type++) {
		if (!log_blocked(w, type))
			continue;
		ret = wr_log_new_segment(w, type);
		if (!ret)
			(*moved)++;
	}
	return ret;
}

int f2fs_fix_summary(struct f2fs_fs *fs, uint64_t blkaddr, uint32_t nid, uint16_t ofs_in_node,
		     bool node)
{
	const struct f2fs_nat_info *e;
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	e = wr_nat_get(w, nid);
	if (!f2fs_geo_in_main(&fs->geo, blkaddr) || !e)
		return -EINVAL;
	return wr_set_summary(w, blkaddr, nid, ofs_in_node, e->version, node);
}

int f2fs_fix_summary_block(struct f2fs_fs *fs, uint32_t segno, const struct f2fs_summary_block *sum)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (segno >= w->segments)
		return -EINVAL;
	if (f2fs_cp_log_of_segment(fs->cpd, segno) >= 0)
		return -EBUSY;
	return wr_write_summary(w, segno, sum);
}

int f2fs_fix_attach(struct f2fs_fs *fs, uint32_t dir, uint32_t ino, const char *name, size_t len)
{
	struct wr_node *d = NULL, *in = NULL;
	struct f2fs_wr *w;
	uint32_t found;
	int ret = wr_get(fs, &w);

	if (!ret)
		ret = wr_inode_get(w, dir, &d);
	if (!ret)
		ret = wr_inode_get(w, ino, &in);
	if (!ret && !wr_is_dir(d))
		ret = -ENOTDIR;
	if (!ret) {
		int looked = wr_dir_lookup(w, d, name, len, &found, NULL);

		ret = looked == 0 ? -EEXIST : looked == -ENOENT ? 0 : looked;
	}
	if (!ret)
		ret = wr_dir_add(w, d, name, len, ino,
				 f2fs_mode_file_type(le16_get(in->blk.i.i_mode)));
	if (!ret && wr_is_dir(in))
		ret = wr_dir_set(w, in, "..", 2, dir, F2FS_FT_DIR);
	if (!ret) {
		in->blk.i.i_pino = le32_put(dir);
		wr_node_dirty(w, in);
	}
	if (in)
		wr_node_put(in);
	if (d)
		wr_node_put(d);
	return ret;
}

int f2fs_fix_superblocks(struct f2fs_fs *fs, unsigned int *written)
{
	unsigned int rejected = f2fs_volume_rejected(fs->vol);
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint8_t blk[F2FS_MAX_BLKSIZE];
	struct f2fs_wr *w;
	uint64_t i;
	int ret = wr_get(fs, &w);

	*written = 0;
	for (i = 0; !ret && i < 2; i++) {
		if (!(rejected & (i ? F2FS_REJECTED_SB1 : F2FS_REJECTED_SB0)))
			continue;
		ret = wr_read_block(w, i, blk);
		if (ret)
			break;
		memcpy(blk + F2FS_SUPER_OFFSET, sb, sizeof(*sb));
		ret = wr_write_block(w, i, blk, F2FS_IO_META);
		*written += !ret;
	}
	if (!ret && *written)
		wr_mark_dirty(w);
	return ret;
}

/* The slots @slot's entry covers, or 0 when its name length is impossible there. */
static unsigned int entry_slots(const struct f2fs_dentry_area *a, uint32_t slot)
{
	size_t len = le16_get(a->dentry[slot].name_len);
	unsigned int slots = f2fs_name_slots(len);

	return len && len <= F2FS_NAME_LEN && slot + slots <= a->nr ? slots : 0;
}

static int entry_type_from_inode(struct f2fs_wr *w, struct f2fs_dir_entry *d)
{
	struct wr_node *child;
	int ret = wr_inode_get(w, le32_get(d->ino), &child);

	if (ret)
		return ret;
	d->file_type = f2fs_mode_file_type(le16_get(child->blk.i.i_mode));
	wr_node_put(child);
	return 0;
}

/* Unmark the entry's slots (only the first when its length is bad) and zero it. */
static void entry_clear(struct f2fs_dentry_area *a, uint32_t slot)
{
	unsigned int slots = entry_slots(a, slot), i;

	for (i = 0; i < (slots ? slots : 1); i++)
		memset(a->names + (size_t)(slot + i) * F2FS_SLOT_LEN, 0, F2FS_SLOT_LEN);
	f2fs_dentry_area_clear(a, slot, slots ? slots : 1);
	memset(&a->dentry[slot], 0, sizeof(a->dentry[slot]));
}

/* Take the entry out and add it again: the name's hash picks its bucket. */
static int entry_move(struct f2fs_wr *w, struct wr_node *dir, struct f2fs_dentry_area *a,
		      uint32_t slot)
{
	const struct f2fs_dir_entry *d = &a->dentry[slot];
	size_t len = le16_get(d->name_len);
	uint32_t ino = le32_get(d->ino);
	uint8_t type = d->file_type;
	char name[F2FS_NAME_LEN];
	int ret = wr_dir_refuse_special(dir);

	if (ret)
		return ret;
	memcpy(name, f2fs_dentry_name(a, slot), len);
	entry_clear(a, slot);
	return wr_dir_add(w, dir, name, len, ino, type);
}

/* Apply @op to the entry in @slot of @a, the area of @dir, already ready to change. */
static int fix_entry(struct f2fs_wr *w, struct wr_node *dir, struct f2fs_dentry_area *a,
		     uint32_t slot, enum f2fs_dentry_fix op)
{
	struct f2fs_dir_entry *d = &a->dentry[slot];
	unsigned int slots;
	int ret;

	if (slot >= a->nr || !f2fs_test_bit_lsb(a->bitmap, slot))
		return -EINVAL;
	if (op == F2FS_DENTRY_FIX_CLEAR) {
		entry_clear(a, slot);
		return 0;
	}
	slots = entry_slots(a, slot);
	if (!slots)
		return -EINVAL;
	switch (op) {
	case F2FS_DENTRY_FIX_HASH:
		ret = wr_dir_refuse_special(dir);
		if (!ret)
			d->hash_code = le32_put(
			    f2fs_dentry_hash(f2fs_dentry_name(a, slot), le16_get(d->name_len)));
		return ret;
	case F2FS_DENTRY_FIX_TYPE:
		return entry_type_from_inode(w, d);
	case F2FS_DENTRY_FIX_MARK:
		while (slots--)
			f2fs_set_bit_lsb(a->bitmap, slot + slots);
		return 0;
	case F2FS_DENTRY_FIX_MOVE:
		return entry_move(w, dir, a, slot);
	default:
		return -EINVAL;
	}
}

/* The write path and inode @ino, pinned (put it when done, also after an error of yours). */
static int inode_for_fix(struct f2fs_fs *fs, uint32_t ino, struct f2fs_wr **w, struct wr_node **in)
{
	int ret = wr_get(fs, w);

	return ret ? ret : wr_inode_get(*w, ino, in);
}

/*
 * inode_for_fix() for directory @dir, and the area of its file block @block
 * (F2FS_DENTRY_INLINE: the inline area) ready to change.  On an error *d is
 * already put.
 */
static int dir_area_for_fix(struct f2fs_fs *fs, uint32_t dir, uint64_t block, struct f2fs_wr **w,
			    struct wr_node **d, struct f2fs_dentry_area *a)
{
	int ret = inode_for_fix(fs, dir, w, d);

	if (ret)
		return ret;
	ret = wr_is_dir(*d) ? wr_dir_area(*w, *d, block, a) : -ENOTDIR;
	if (ret)
		wr_node_put(*d);
	return ret;
}

int f2fs_fix_dentry(struct f2fs_fs *fs, uint32_t dir, uint64_t block, uint32_t slot,
		    enum f2fs_dentry_fix op)
{
	struct f2fs_dentry_area a;
	struct wr_node *d;
	struct f2fs_wr *w;
	int ret = dir_area_for_fix(fs, dir, block, &w, &d, &a);

	if (ret)
		return ret;
	ret = fix_entry(w, d, &a, slot, op);
	wr_node_put(d);
	return ret;
}

/* Unmark whatever entry covers slot @slot (it may begin before it). */
static void clear_covering(struct f2fs_dentry_area *a, uint32_t slot)
{
	uint32_t s;

	for (s = 0; s <= slot; s++) {
		unsigned int n = entry_slots(a, s);

		if (!f2fs_test_bit_lsb(a->bitmap, s))
			continue;
		if (s == slot || (n && s + n > slot))
			entry_clear(a, s);
	}
}

int f2fs_fix_dots(struct f2fs_fs *fs, uint32_t dir, uint64_t block, uint32_t parent)
{
	struct f2fs_dentry_area a;
	struct wr_node *d;
	struct f2fs_wr *w;
	int ret = dir_area_for_fix(fs, dir, block, &w, &d, &a);

	if (ret)
		return ret;
	/* names that ran over slots 0 and 1 are lost with them */
	clear_covering(&a, 1);
	clear_covering(&a, 0);
	ret = f2fs_dentry_area_put(&a, 0, ".", 1, 0, dir, F2FS_FT_DIR);
	if (!ret)
		ret = f2fs_dentry_area_put(&a, 1, "..", 2, 0, parent, F2FS_FT_DIR);
	if (!ret && block != F2FS_DENTRY_INLINE) {
		if (le64_get(d->blk.i.i_size) < wr_blksize(w))
			d->blk.i.i_size = le64_put(wr_blksize(w));
		if (!le32_get(d->blk.i.i_current_depth))
			d->blk.i.i_current_depth = le32_put(1);
	}
	wr_node_put(d);
	return ret;
}

int f2fs_fix_journals(struct f2fs_fs *fs)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	/* the flushes then drop entries out of range: they name no segment or nid to mark */
	w->sit_to_blocks = true;
	w->nat_to_blocks = true;
	wr_mark_dirty(w);
	return 0;
}

int f2fs_fix_free_nid(struct f2fs_fs *fs, uint32_t nid)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (nid < F2FS_FIRST_INO_RESERVED || nid >= w->max_nid)
		return -EINVAL;
	return wr_nat_set(w, nid, 0, F2FS_NULL_ADDR);
}

int f2fs_fix_nat_set(struct f2fs_fs *fs, uint32_t nid, uint32_t ino, uint32_t blkaddr,
		     uint8_t version)
{
	struct f2fs_nat_info *e;
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (nid < F2FS_FIRST_INO_RESERVED || ino < F2FS_FIRST_INO_RESERVED || ino >= w->max_nid ||
	    !f2fs_geo_in_main(&fs->geo, blkaddr))
		return -EINVAL;
	ret = wr_nat_set(w, nid, ino, blkaddr);
	e = ret ? NULL : f2fs_nat_entry_mut(fs->nat, nid);
	if (e)
		e->version = version;
	return ret;
}

int f2fs_fix_node_restore(struct f2fs_fs *fs, uint32_t ino, uint64_t blkaddr)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (ino < F2FS_FIRST_INO_RESERVED || ino >= w->max_nid ||
	    !f2fs_geo_in_main(&fs->geo, blkaddr))
		return -EINVAL;
	ret = wr_nat_set(w, ino, ino, (uint32_t)blkaddr);
	/* the counts are the checkpoint's, which counted it: the next check recounts anyway */
	if (!ret && !wr_block_valid(w, blkaddr))
		ret = wr_claim_node_block(w, blkaddr, ino, F2FS_CURSEG_HOT_NODE);
	return ret;
}

int f2fs_fix_new_root(struct f2fs_fs *fs)
{
	uint32_t root = le32_get(f2fs_fs_sb(fs)->root_ino);
	const struct f2fs_nat_info *e;
	struct f2fs_new_inode a;
	struct wr_node *dir;
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	e = wr_nat_get(w, root);
	if (!e)
		return -EEXIST;
	/* a root whose block reads as nothing (its zone reset under it): that block goes */
	if (e->blkaddr != F2FS_NULL_ADDR && f2fs_geo_in_main(&fs->geo, e->blkaddr) &&
	    wr_block_valid(w, e->blkaddr))
		wr_invalidate(w, e->blkaddr);
	/* and so does the inode the checkpoint counted with its NAT entry: the new one counts */
	if (e->blkaddr != F2FS_NULL_ADDR) {
		w->valid_nodes -= w->valid_nodes > 0;
		w->valid_inodes -= w->valid_inodes > 0;
	}
	f2fs_new_inode_init(&a, S_IFDIR | 0755, wr_clock(w));
	a.inline_ok = false;
	ret = wr_nat_set(w, root, root, F2FS_NEW_ADDR);
	if (!ret)
		ret = wr_inode_make(w, root, &a, root, &dir);
	if (ret)
		return ret;
	ret = wr_dir_init(w, dir, root);
	wr_node_put(dir);
	return ret;
}

int f2fs_fix_nat_ino(struct f2fs_fs *fs, uint32_t nid, uint32_t ino)
{
	const struct f2fs_nat_info *e;
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	e = wr_nat_get(w, nid);
	if (!e || nid < F2FS_FIRST_INO_RESERVED || ino < F2FS_FIRST_INO_RESERVED ||
	    ino >= w->max_nid)
		return -EINVAL;
	return wr_nat_set(w, nid, ino, e->blkaddr);
}

/* Where in @n's block the pointer @kind, @index lies, or -1 when there is none. */
static long pointer_offset(struct f2fs_wr *w, const struct wr_node *n, bool inode,
			   enum f2fs_pointer kind, uint32_t index)
{
	const struct f2fs_inode *ri = &n->blk.i;

	switch (kind) {
	case F2FS_POINTER_ADDR:
		if (!inode)
			return index < wr_bg(w)->addrs_per_block
				   ? (long)(offsetof(struct f2fs_node, dn.addr) + 4 * index)
				   : -1;
		if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY) ||
		    index >= f2fs_inode_addrs(wr_bg(w), ri, w->fs->features))
			return -1;
		return (long)(offsetof(struct f2fs_node, i.i_addr) +
			      4 * (f2fs_inode_first_addr(ri) + index));
	case F2FS_POINTER_NID:
		if (!inode)
			return index < wr_bg(w)->nids_per_block
				   ? (long)(offsetof(struct f2fs_node, in.nid) + 4 * index)
				   : -1;
		return index < F2FS_DEF_NIDS_PER_INODE
			   ? (long)(4 * (wr_bg(w)->inode_nid_word + index))
			   : -1;
	case F2FS_POINTER_XATTR_NID:
		return inode ? (long)offsetof(struct f2fs_node, i.i_xattr_nid) : -1;
	default:
		return -1;
	}
}

int f2fs_fix_pointer(struct f2fs_fs *fs, uint32_t ino, uint32_t node, enum f2fs_pointer kind,
		     uint32_t index)
{
	struct f2fs_wr *w;
	struct wr_node *n;
	long at;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	ret = node == ino ? wr_inode_get(w, ino, &n) : wr_node_get(w, node, ino, &n);
	if (ret)
		return ret;
	at = pointer_offset(w, n, node == ino, kind, index);
	if (at >= 0) {
		memset((uint8_t *)&n->blk + at, 0, sizeof(le32));
		wr_node_dirty(w, n);
	}
	wr_node_put(n);
	/* which file block the address was is the caller's: any i_ext may cover it */
	if (at >= 0 && kind == F2FS_POINTER_ADDR && !wr_inode_get(w, ino, &n)) {
		wr_drop_extent(w, n, 0, UINT64_MAX);
		wr_node_put(n);
	}
	return at >= 0 ? 0 : -EINVAL;
}

/*
 * The @width bytes at @p := @value, little-endian, the bits outside @mask
 * kept (0: none); past 8 bytes only cleared.
 */
static int set_field(uint8_t *p, size_t width, uint64_t mask, uint64_t value)
{
	uint64_t old = 0;
	size_t i;

	if (width > sizeof(value)) {
		if (mask || value)
			return -EINVAL;
		memset(p, 0, width);
		return 0;
	}
	for (i = 0; i < width; i++)
		old |= (uint64_t)p[i] << (8 * i);
	if (!mask)
		mask = UINT64_MAX;
	value = (old & ~mask) | (value & mask);
	for (i = 0; i < width; i++)
		p[i] = (uint8_t)(value >> (8 * i));
	return 0;
}

int f2fs_fix_node_ids(struct f2fs_fs *fs, uint32_t nid, uint32_t ino)
{
	struct f2fs_wr *w;
	struct wr_node *n;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	ret = wr_node_get_any_footer(w, nid, &n);
	if (ret)
		return ret;
	f2fs_node_footer(wr_bg(w), &n->blk)->nid = le32_put(nid);
	f2fs_node_footer(wr_bg(w), &n->blk)->ino = le32_put(ino);
	wr_node_dirty(w, n);
	wr_node_put(n);
	return 0;
}

int f2fs_fix_node_ofs(struct f2fs_fs *fs, uint32_t nid, uint32_t ofs)
{
	struct f2fs_wr *w;
	struct wr_node *n;
	uint32_t flag;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	ret = wr_node_get(w, nid, 0, &n);
	if (ret)
		return ret;
	flag = f2fs_footer_flag(wr_bg(w), &n->blk) & ((1u << F2FS_OFFSET_BIT_SHIFT) - 1);
	f2fs_node_footer(wr_bg(w), &n->blk)->flag = le32_put(ofs << F2FS_OFFSET_BIT_SHIFT | flag);
	wr_node_dirty(w, n);
	wr_node_put(n);
	return 0;
}

int f2fs_fix_clone(struct f2fs_fs *fs, uint32_t ino, uint32_t node, uint32_t index, uint64_t fblk,
		   uint64_t blkaddr)
{
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_wr *w;
	struct wr_node *in;
	uint64_t size, off;
	int ret = inode_for_fix(fs, ino, &w, &in);

	if (ret)
		return ret;
	off = fblk * wr_blksize(w);
	ret = wr_read_block(w, blkaddr, buf);
	if (!ret && (wr_compressed(&in->blk.i) || wr_is_dir(in)))
		ret = -EOPNOTSUPP; /* a cluster or a dentry block is not a plain copy */
	if (ret) {
		wr_node_put(in);
		return ret;
	}
	ret = f2fs_fix_pointer(fs, ino, node, F2FS_POINTER_ADDR, index);
	size = le64_get(in->blk.i.i_size);
	/* past i_size the block holds nothing a reader sees: the pointer goes */
	if (!ret && off < size)
		ret = wr_data_write(
		    w, in, buf, size - off < wr_blksize(w) ? (size_t)(size - off) : wr_blksize(w),
		    off);
	wr_node_put(in);
	return ret;
}

int f2fs_fix_release(struct f2fs_fs *fs, uint32_t ino)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = inode_for_fix(fs, ino, &w, &in);

	if (ret)
		return ret;
	in->blk.i.i_links =
	    le32_put(0); /* as the kernel's orphan recovery: evicted whatever it says */
	ret = wr_inode_unlink(w, &in);
	wr_node_put(in); /* NULL when it was freed */
	return ret;
}

int f2fs_fix_inode_field(struct f2fs_fs *fs, uint32_t ino, size_t offset, size_t width,
			 uint64_t mask, uint64_t value)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret;

	if (offset > sizeof(struct f2fs_inode) || width > sizeof(struct f2fs_inode) - offset)
		return -EINVAL;
	ret = inode_for_fix(fs, ino, &w, &in);
	if (ret)
		return ret;
	ret = set_field((uint8_t *)&in->blk.i + offset, width, mask, value);
	if (!ret)
		wr_node_dirty(w, in);
	wr_node_put(in);
	return ret;
}

int f2fs_fix_inline_reserved(struct f2fs_fs *fs, uint32_t ino)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	struct f2fs_inode *ri;
	int ret = inode_for_fix(fs, ino, &w, &in);

	if (ret)
		return ret;
	ri = &in->blk.i;
	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		ri->i_addr[f2fs_inode_first_addr(ri)] = le32_put(0);
	wr_node_dirty(w, in);
	wr_node_put(in);
	return 0;
}
