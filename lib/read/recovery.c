// SPDX-License-Identifier: GPL-2.0
/*
 * The roll-forward chain a power cut leaves: node blocks written to the
 * warm node log after the last checkpoint, from the position the
 * checkpoint recorded for that log, linked through each footer's
 * next_blkaddr while the footer carries the checkpoint's version (with its
 * CRC when the checkpoint asks for CRC recovery).  The kernel replays the
 * fsync-marked direct nodes among them at mount -- after a clean unmount
 * too: the chain is whatever was written since the last checkpoint -- the
 * checker counts them as recoverable, and the write path refuses to write
 * over them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/read.h"

int f2fs_roll_forward_walk(struct f2fs_fs *fs, f2fs_chain_fn fn, void *arg)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_geometry *g = f2fs_fs_geo(fs);
	uint32_t flags = le32_get(cp->ckpt_flags);
	uint64_t ver = le64_get(cp->checkpoint_ver), blk, next, steps = 0;
	uint64_t valid = le64_get(cp->valid_block_count), room;
	uint32_t segno = le32_get(cp->cur_node_segno[1]);
	struct f2fs_node *n;
	int ret = 0;

	/* the footer version with CRC recovery is the nat_bits tag's value: version | crc << 32 */
	if (flags & CP_CRC_RECOVERY_FLAG)
		ver = f2fs_nat_bits_tag(cp);
	if (segno >= g->main_segs)
		return -EUCLEAN;
	n = f2fs_block_alloc(fs);
	if (!n)
		return -ENOMEM;
	blk = f2fs_geo_blkaddr(g, segno, le16_get(cp->cur_node_blkoff[1]));
	/*
	 * The kernel's find_fsync_dnodes() calls a chain looped, and replays
	 * none of it, when it has more blocks than the main area has free, or
	 * a block names itself next.
	 */
	room = valid < g->main_blocks ? g->main_blocks - valid : 0;
	while (!ret && f2fs_geo_in_main(g, blk)) {
		if (f2fs_dev_read(f2fs_fs_dev(fs), n, f2fs_blk_to_bytes(g, blk), g->blk.blksize) ||
		    f2fs_footer_cp_ver(&g->blk, n) != ver)
			break;
		ret = fn(blk, n, arg);
		next = f2fs_footer_next_blkaddr(&g->blk, n);
		if (!ret && (++steps >= room || next == blk))
			ret = -ELOOP;
		blk = next;
	}
	free(n);
	return ret;
}

struct chain_count {
	const struct f2fs_blkgeo *bg;
	uint32_t fsynced, length;
};

static int count_block(uint64_t blkaddr, const struct f2fs_node *n, void *arg)
{
	struct chain_count *c = arg;

	(void)blkaddr;
	c->length++;
	if (f2fs_footer_flag(c->bg, n) & (1u << F2FS_FSYNC_BIT_SHIFT))
		c->fsynced++;
	return 0;
}

int f2fs_roll_forward_chain(struct f2fs_fs *fs, uint32_t *fsynced, uint32_t *length)
{
	struct chain_count c = {&f2fs_fs_geo(fs)->blk, 0, 0};
	int ret = f2fs_roll_forward_walk(fs, count_block, &c);

	*fsynced = c.fsynced;
	*length = c.length;
	return ret;
}
