// SPDX-License-Identifier: GPL-2.0
/*
 * What a block is and who owns it, the way dump.f2fs -b and -I ask.  The
 * segment summary says which nid a main-area block belongs to and where in
 * that node; the NAT says whether the nid still maps there and which inode
 * owns it; from the inode's geometry and the node's tree offset follows the
 * block's place in its file.  None of this is trusted: an entry that leads
 * nowhere makes the block obsolete, never an error.  The other direction
 * (every copy of an inode's block, stale ones included) asks the summaries
 * of the node segments which of their blocks to read.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/geometry.h"
#include "f2fs/node.h"
#include "f2fs/read.h"

enum f2fs_area f2fs_block_area(const struct f2fs_fs *fs, uint64_t b)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);

	if (b < le32_get(sb->segment0_blkaddr))
		return F2FS_AREA_RESERVED;
	if (b < le32_get(sb->sit_blkaddr))
		return F2FS_AREA_META;
	if (b < le32_get(sb->nat_blkaddr))
		return F2FS_AREA_SIT;
	if (b < le32_get(sb->ssa_blkaddr))
		return F2FS_AREA_NAT;
	if (b < g->main_blkaddr)
		return F2FS_AREA_SSA;
	return f2fs_geo_in_main(g, b) ? F2FS_AREA_MAIN : F2FS_AREA_PAST_END;
}

int f2fs_segment_summary(struct f2fs_fs *fs, uint32_t segno, struct f2fs_segment_summary *out)
{
	const struct f2fs_cp_data *cpd;
	struct f2fs_ssa *ssa;
	int ret;

	ret = f2fs_fs_cp_data(fs, &cpd);
	if (!ret)
		ret = f2fs_fs_ssa(fs, &ssa);
	if (ret)
		return ret;
	/* for an open log this is the pack's copy (see f2fs/ssa.h) */
	out->blk = f2fs_ssa_get(ssa, segno, &ret);
	if (!out->blk)
		return ret;
	out->open_log = f2fs_cp_log_of_segment(cpd, segno);
	if (out->open_log >= 0)
		out->kind = out->open_log >= F2FS_CURSEG_HOT_NODE ? F2FS_SUM_NODE : F2FS_SUM_DATA;
	else if (out->blk->footer.entry_type == F2FS_SUM_TYPE_NODE)
		out->kind = F2FS_SUM_NODE;
	else if (out->blk->footer.entry_type == F2FS_SUM_TYPE_DATA)
		out->kind = F2FS_SUM_DATA;
	else
		out->kind = F2FS_SUM_BROKEN;
	return 0;
}

static int read_block(struct f2fs_fs *fs, uint64_t blkaddr, void *buf)
{
	return f2fs_fs_read_blocks(fs, blkaddr, buf, 1);
}

/*
 * Where data block @o sits in its file.  An inode or node that does not
 * read back leaves has_file_block false: that is what the block is, not a
 * failure of the lookup.
 */
static int locate_data(struct f2fs_fs *fs, struct f2fs_block_owner *o)
{
	const struct f2fs_blkgeo *bg = &f2fs_fs_geo(fs)->blk;
	struct f2fs_node *inode = f2fs_block_alloc(fs);
	struct f2fs_node *node = f2fs_block_alloc(fs);
	uint32_t node_ofs = 0; /* the inode's own addresses */
	int ret = 0;

	if (!inode || !node) {
		ret = -ENOMEM;
		goto out;
	}
	if (f2fs_read_inode(fs, o->ino, inode))
		goto out;
	if (o->nid != o->ino) {
		if (f2fs_read_node(fs, o->nid, o->ino, node))
			goto out;
		node_ofs = f2fs_node_ofs(bg, node);
		if (!f2fs_node_ofs_is_direct(bg, node_ofs) ||
		    o->ofs_in_node >= f2fs_direct_addrs(bg, &inode->i))
			goto out;
	} else if (o->ofs_in_node >= bg->addrs_per_inode) {
		goto out;
	}
	o->file_block = f2fs_node_first_block(bg, node_ofs,
					      f2fs_inode_addrs(bg, &inode->i, f2fs_fs_features(fs)),
					      f2fs_direct_addrs(bg, &inode->i)) +
			o->ofs_in_node;
	o->has_file_block = true;
out:
	free(node);
	free(inode);
	return ret;
}

int f2fs_block_owner(struct f2fs_fs *fs, uint64_t blkaddr, struct f2fs_block_owner *o)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	const struct f2fs_seg_entry *se;
	const struct f2fs_nat_info *ni, *ino_ni;
	const struct f2fs_summary *e;
	bool node;
	int ret;

	memset(o, 0, sizeof(*o));
	if (!f2fs_geo_in_main(g, blkaddr))
		return -ERANGE;
	ret = f2fs_fs_sit(fs, &sit);
	if (!ret)
		ret = f2fs_fs_nat(fs, &nat);
	if (ret)
		return ret;
	o->segno = f2fs_geo_segno(g, blkaddr);
	o->offset = f2fs_geo_blkoff(g, blkaddr);
	se = f2fs_sit_seg(sit, o->segno);
	if (!se)
		return -ERANGE; /* the SIT covers the main area: cannot happen */
	o->sit_valid = f2fs_test_bit_msb(se->map, o->offset);
	o->seg_type = se->type;
	ret = f2fs_segment_summary(fs, o->segno, &o->seg);
	if (ret)
		return ret;
	e = &o->seg.blk->entries[o->offset];
	o->nid = le32_get(e->nid);
	o->version = e->version;
	o->ofs_in_node = le16_get(e->ofs_in_node);
	node = o->seg.kind == F2FS_SUM_NODE;

	ni = f2fs_nat_get(nat, o->nid);
	o->in_nat = ni != NULL;
	if (ni) {
		o->nat_ino = ni->ino;
		o->nat_blkaddr = ni->blkaddr;
	}
	ino_ni = ni ? f2fs_nat_get(nat, ni->ino) : NULL;
	o->kind = F2FS_OWNER_OBSOLETE;
	if (!ni || !ino_ni || ni->blkaddr == F2FS_NULL_ADDR || ino_ni->blkaddr == F2FS_NULL_ADDR ||
	    (node && ni->blkaddr != blkaddr))
		return 0;
	o->ino = ni->ino;
	o->ino_blkaddr = ino_ni->blkaddr;
	if (!node) {
		o->kind = F2FS_OWNER_DATA;
		return locate_data(fs, o);
	}
	if (o->nid == o->ino) {
		o->kind = F2FS_OWNER_INODE;
		return 0;
	}
	o->kind = F2FS_OWNER_NODE;
	{
		struct f2fs_node *n = f2fs_block_alloc(fs);

		if (!n)
			return -ENOMEM;
		ret = read_block(fs, blkaddr, n);
		if (!ret)
			o->node_ofs = f2fs_node_ofs(&f2fs_fs_geo(fs)->blk, n);
		free(n);
	}
	return ret;
}

/* What the search for the copies of one inode's block carries. */
struct copy_search {
	struct f2fs_fs *fs;
	uint32_t ino;
	uint64_t nat_blkaddr; /* where the NAT maps the inode, or F2FS_NULL_ADDR */
	f2fs_inode_copy_fn fn;
	f2fs_copy_error_fn on_error;
	void *arg;
	uint8_t *buf; /* one segment */
};

/* Report block @blkaddr (@n, block @off of segment @se) when its footer is the inode's own. */
static int consider(struct copy_search *s, const struct f2fs_seg_entry *se, uint64_t blkaddr,
		    uint32_t off, const struct f2fs_node *n)
{
	const struct f2fs_blkgeo *bg = &f2fs_fs_geo(s->fs)->blk;
	struct f2fs_inode_copy c = {.blkaddr = blkaddr, .node = n};

	if (f2fs_footer_ino(bg, n) != s->ino || f2fs_footer_nid(bg, n) != s->ino)
		return 0;
	c.flag = f2fs_footer_flag(bg, n);
	c.cp_ver = f2fs_footer_cp_ver(bg, n);
	c.sit_valid = f2fs_test_bit_msb(se->map, off);
	c.nat_current = blkaddr == s->nat_blkaddr;
	return s->fn(&c, s->arg);
}

static void read_failed(struct copy_search *s, uint64_t blkaddr, int err)
{
	if (s->on_error)
		s->on_error(blkaddr, err, s->arg);
}

/* Every block of segment @segno, read at once. */
static int search_segment(struct copy_search *s, uint32_t segno, const struct f2fs_seg_entry *se)
{
	uint64_t base = f2fs_geo_seg_start(f2fs_fs_geo(s->fs), segno);
	uint32_t i;
	int ret;

	ret = f2fs_fs_read_blocks(s->fs, base, s->buf, F2FS_DEFAULT_BLKS_PER_SEG);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		read_failed(s, base, ret);
		return 0;
	}
	for (i = 0; i < F2FS_DEFAULT_BLKS_PER_SEG && !ret; i++)
		ret = consider(
		    s, se, base + i, i,
		    (const struct f2fs_node *)(s->buf +
					       (size_t)i * f2fs_fs_geo(s->fs)->blk.blksize));
	return ret;
}

/* The blocks of segment @segno whose summary entry names the inode, and the NAT's block. */
static int search_by_summary(struct copy_search *s, uint32_t segno, const struct f2fs_seg_entry *se,
			     const struct f2fs_summary_block *sum)
{
	uint64_t base = f2fs_geo_seg_start(f2fs_fs_geo(s->fs), segno);
	uint32_t i;
	int ret = 0;

	for (i = 0; i < F2FS_DEFAULT_BLKS_PER_SEG && !ret; i++) {
		if (le32_get(sum->entries[i].nid) != s->ino && base + i != s->nat_blkaddr)
			continue;
		ret = f2fs_fs_read_blocks(s->fs, base + i, s->buf, 1);
		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			read_failed(s, base + i, ret);
			ret = 0;
			continue;
		}
		ret = consider(s, se, base + i, i, (const struct f2fs_node *)s->buf);
	}
	return ret;
}

/* Is @segno a node segment: an open node log, or a node type in the SIT (as upstream asks)? */
static bool node_segment(const struct f2fs_cp_data *cpd, uint32_t segno,
			 const struct f2fs_seg_entry *se, bool *open_log)
{
	*open_log = f2fs_cp_log_of_segment(cpd, segno) >= F2FS_CURSEG_HOT_NODE;
	return *open_log || se->type >= F2FS_CURSEG_HOT_NODE;
}

int f2fs_find_inode_copies(struct f2fs_fs *fs, uint32_t ino, f2fs_inode_copy_fn fn,
			   f2fs_copy_error_fn on_error, void *arg)
{
	struct copy_search s = {.fs = fs, .ino = ino, .fn = fn, .on_error = on_error, .arg = arg};
	const struct f2fs_cp_data *cpd;
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	const struct f2fs_nat_info *e;
	uint32_t segno;
	int ret;

	ret = f2fs_fs_cp_data(fs, &cpd);
	if (!ret)
		ret = f2fs_fs_sit(fs, &sit);
	if (!ret)
		ret = f2fs_fs_nat(fs, &nat);
	if (ret)
		return ret;
	e = f2fs_nat_get(nat, ino);
	s.nat_blkaddr = e ? e->blkaddr : F2FS_NULL_ADDR;
	s.buf = malloc((size_t)F2FS_DEFAULT_BLKS_PER_SEG * f2fs_fs_geo(fs)->blk.blksize);
	if (!s.buf)
		return -ENOMEM;
	for (segno = 0; segno < f2fs_sit_segments(sit) && !ret; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		struct f2fs_segment_summary ss;
		bool open_log;

		f2fs_fs_progress(fs, 1, 1, "scanning the main area", segno, f2fs_sit_segments(sit));
		if (!node_segment(cpd, segno, se, &open_log))
			continue;
		/* an open log's blocks past the checkpoint are not in its summary yet */
		if (open_log) {
			ret = search_segment(&s, segno, se);
			continue;
		}
		ret = f2fs_segment_summary(fs, segno, &ss);
		if (ret == -ENOMEM)
			break;
		if (!ret && ss.kind == F2FS_SUM_NODE)
			ret = search_by_summary(&s, segno, se, ss.blk);
		else
			ret = search_segment(&s, segno, se);
	}
	if (!ret)
		f2fs_fs_progress(fs, 1, 1, "scanning the main area", segno, segno);
	free(s.buf);
	return ret;
}
