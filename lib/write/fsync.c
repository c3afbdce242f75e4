// SPDX-License-Identifier: GPL-2.0
/*
 * fsync without a checkpoint, as the kernel's f2fs_do_sync_file() does it:
 * when need_do_checkpoint() finds no reason for one, the file's dirty
 * pages are written, then its dirty direct nodes (the inode among them) go
 * to the warm node log in nid order, the last one marked FSYNC and the
 * inode marked DENT when the file was created since the last checkpoint;
 * then a flush.  Those nodes carry the last checkpoint's version and chain
 * through next_blkaddr, so a kernel mounting after a power cut finds and
 * replays them (roll-forward recovery).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

#define FSYNC_MARK (1u << F2FS_FSYNC_BIT_SHIFT)
#define DENT_MARK  (1u << F2FS_DENT_BIT_SHIFT)

/* Was node @nid changed since the last checkpoint (the kernel's !is_checkpointed_node)? */
static bool changed_since_cp(struct f2fs_wr *w, uint32_t nid)
{
	struct wr_inode *wi = wr_inode_find(w, nid, false);
	const struct f2fs_nat_info *e = wr_nat_get(w, nid);

	if (wi && wi->created)
		return true;
	return e && (f2fs_test_bit_lsb(w->nat_dirty, nid) || e->blkaddr == F2FS_NEW_ADDR);
}

/*
 * The kernel's need_do_checkpoint(), for the reasons that apply offline.
 * The parent directory counts as checkpointed while its node block is the
 * one the last checkpoint recorded (is_checkpointed_node): a new entry
 * only dirties it in memory, and the DENT mark recovers the entry.
 */
static bool need_checkpoint(struct f2fs_wr *w, struct wr_node *in)
{
	const struct f2fs_inode *ri = &in->blk.i;
	struct wr_inode *wi = wr_inode_find(w, in->ino, false);

	if (!S_ISREG(le16_get(ri->i_mode)) || le32_get(ri->i_flags) & F2FS_COMPR_FL ||
	    le32_get(ri->i_links) != 1 || (wi && wi->lost_pino))
		return true;
	return changed_since_cp(w, le32_get(ri->i_pino)) ||
	       !wr_has_free_blocks(w, w->nodes.ndirty + 1);
}

/* need_checkpoint() for inode @ino: *need. */
static int inode_needs_checkpoint(struct f2fs_wr *w, uint32_t ino, bool *need)
{
	struct wr_node *in;
	int ret = wr_inode_get(w, ino, &in);

	if (!ret) {
		*need = need_checkpoint(w, in);
		wr_node_put(in);
	}
	return ret;
}

static int by_nid(const void *a, const void *b)
{
	const struct wr_node *x = *(struct wr_node *const *)a, *y = *(struct wr_node *const *)b;

	return x->nid < y->nid ? -1 : x->nid > y->nid;
}

/* Write the dirty direct nodes of @ino, the last with FSYNC, the inode with DENT if new. */
static int write_chain(struct f2fs_wr *w, uint32_t ino, bool dent)
{
	struct wr_node **list, *n;
	size_t count = 0, i;
	int ret = 0;

	list = malloc(sizeof(*list) * (w->nodes.ndirty + 1));
	if (!list)
		return -ENOMEM;
	for (n = w->nodes.dirty.dnext; n != &w->nodes.dirty; n = n->dnext)
		if (n->ino == ino && wr_is_dnode(wr_bg(w), &n->blk))
			list[count++] = n;
	qsort(list, count, sizeof(*list), by_nid);
	for (i = 0; i < count && !ret; i++) {
		uint32_t marks = i + 1 == count ? FSYNC_MARK : 0;

		if (dent && list[i]->nid == ino)
			marks |= DENT_MARK;
		ret = wr_node_write(w, list[i], marks);
	}
	free(list);
	return ret;
}

static int fsync_locked(struct f2fs_wr *w, uint32_t ino, bool *did_cp)
{
	struct wr_inode *wi;
	bool need_cp = false;
	int ret = inode_needs_checkpoint(w, ino, &need_cp);

	if (ret)
		return ret;
	*did_cp = need_cp;
	if (need_cp) {
		struct f2fs_cp_request req = {.reason = F2FS_CP_SYNC, .keep_data = true};

		ret = wr_writepages(w, ino, F2FS_WB_ALL);
		return ret ? ret : wr_checkpoint(w, &req);
	}
	wi = wr_inode_find(w, ino, true);
	if (!wi)
		return -ENOMEM;
	ret = wr_writepages(w, ino, F2FS_WB_ALL);
	if (!ret)
		ret = write_chain(w, ino, wi->created);
	if (!ret)
		ret = wr_flush(w);
	if (!ret)
		wi->fsynced = true;
	return ret;
}

int f2fs_fsync_needs_checkpoint(struct f2fs_fs *fs, uint32_t ino, bool *need)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	wr_lock(w, F2FS_LOCK_CP, 0, false);
	ret = inode_needs_checkpoint(w, ino, need);
	wr_unlock(w, F2FS_LOCK_CP, 0, false);
	return ret;
}

int f2fs_fsync(struct f2fs_fs *fs, uint32_t ino, bool datasync, bool *did_checkpoint)
{
	struct f2fs_wr *w;
	bool cp = false;
	int ret = wr_get(fs, &w);

	(void)datasync;
	if (ret)
		return ret;
	/* a checkpoint needs the lock exclusive: decide with it held that way */
	wr_lock(w, F2FS_LOCK_CP, 0, true);
	ret = fsync_locked(w, ino, &cp);
	wr_unlock(w, F2FS_LOCK_CP, 0, true);
	if (did_checkpoint)
		*did_checkpoint = cp;
	return ret;
}
