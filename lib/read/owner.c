// SPDX-License-Identifier: GPL-2.0
/*
 * What a block is and who owns it, the way dump.f2fs -b and -I ask.  The
 * segment summary says which nid a main-area block belongs to and where in
 * that node; the NAT says whether the nid still maps there and which inode
 * owns it; from the inode's geometry and the node's tree offset follows the
 * block's place in its file.  None of this is trusted: an entry that leads
 * nowhere makes the block obsolete, never an error.  The other direction
 * (every block whose footer names an inode) is a scan of the main area.
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
	struct f2fs_node *inode = malloc(sizeof(*inode));
	struct f2fs_node *node = malloc(sizeof(*node));
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
		node_ofs = f2fs_node_ofs(node);
		if (!f2fs_node_ofs_is_direct(node_ofs) ||
		    o->ofs_in_node >= f2fs_direct_addrs(&inode->i))
			goto out;
	} else if (o->ofs_in_node >= F2FS_DEF_ADDRS_PER_INODE) {
		goto out;
	}
	o->file_block =
	    f2fs_node_first_block(node_ofs, f2fs_inode_addrs(&inode->i, f2fs_fs_features(fs)),
				  f2fs_direct_addrs(&inode->i)) +
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
		struct f2fs_node *n = malloc(sizeof(*n));

		if (!n)
			return -ENOMEM;
		ret = read_block(fs, blkaddr, n);
		if (!ret)
			o->node_ofs = f2fs_node_ofs(n);
		free(n);
	}
	return ret;
}

int f2fs_find_node_copies(struct f2fs_fs *fs, uint32_t ino, f2fs_node_copy_fn fn,
			  f2fs_scan_error_fn on_error, void *arg)
{
	const size_t seg_bytes = (size_t)F2FS_DEFAULT_BLKS_PER_SEG * F2FS_BLKSIZE;
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	uint8_t *seg;
	uint32_t segno, i;
	int ret;

	ret = f2fs_fs_sit(fs, &sit);
	if (!ret)
		ret = f2fs_fs_nat(fs, &nat);
	if (ret)
		return ret;
	seg = malloc(seg_bytes);
	if (!seg)
		return -ENOMEM;
	for (segno = 0; segno < f2fs_sit_segments(sit) && !ret; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(sit, segno);
		uint64_t base = f2fs_geo_seg_start(g, segno);
		int err = f2fs_dev_read(f2fs_fs_dev(fs), seg, f2fs_blk_to_bytes(base), seg_bytes);

		if (err) {
			if (on_error)
				on_error(segno, err, arg);
			continue;
		}
		for (i = 0; i < F2FS_DEFAULT_BLKS_PER_SEG && !ret; i++) {
			const struct f2fs_node *n =
			    (const struct f2fs_node *)(seg + (size_t)i * F2FS_BLKSIZE);
			struct f2fs_node_copy c = {.blkaddr = base + i};
			const struct f2fs_nat_info *e;

			c.nid = le32_get(n->footer.nid);
			if (le32_get(n->footer.ino) != ino || c.nid == 0)
				continue;
			e = f2fs_nat_get(nat, c.nid);
			if (!e)
				continue;
			c.ofs = f2fs_node_ofs(n);
			c.cp_ver = le64_get(n->footer.cp_ver);
			c.sit_valid = f2fs_test_bit_msb(se->map, i);
			c.nat_current = e->blkaddr == c.blkaddr;
			ret = fn(&c, arg);
		}
	}
	free(seg);
	return ret;
}
