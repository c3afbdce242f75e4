// SPDX-License-Identifier: GPL-2.0
/*
 * The write path's state on a handle: built the first time a write
 * function is called on a handle opened with F2FS_FS_WRITE (or made by
 * f2fs_fs_create), freed with the handle.  Building it derives what the
 * checkpoint and the tables imply -- free sections, the counts the next
 * checkpoint records, the cleaner's reserve -- once, so no operation ever
 * loops over the volume to find them again.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/read.h"
#include "write_internal.h"

uint64_t wr_now(void)
{
	return (uint64_t)time(NULL);
}

uint64_t wr_clock(struct f2fs_wr *w)
{
	return w->clock >= 0 ? (uint64_t)w->clock : wr_now();
}

/*
 * The checkpoint's elapsed time (seconds the volume has been mounted, which
 * the segments' mtimes count in): stood still under a fixed clock, so that
 * -T makes the same image twice, as newest upstream's sload does.
 */
uint64_t wr_elapsed(struct f2fs_wr *w)
{
	return w->elapsed_base + (w->clock >= 0 ? 0 : wr_now() - w->open_time);
}

void f2fs_write_set_time(struct f2fs_fs *fs, int64_t t)
{
	struct f2fs_wr *w;

	if (!wr_get(fs, &w))
		w->clock = t;
}

void f2fs_write_set_no_nat_bits(struct f2fs_fs *fs)
{
	struct f2fs_wr *w;

	if (!wr_get(fs, &w))
		w->no_nat_bits = true;
}

void wr_lock(struct f2fs_wr *w, enum f2fs_fs_lock which, uint32_t ino, bool excl)
{
	w->fs->lock_ops.lock(w->fs->lock_ops.arg, which, ino, excl);
}

void wr_unlock(struct f2fs_wr *w, enum f2fs_fs_lock which, uint32_t ino, bool excl)
{
	w->fs->lock_ops.unlock(w->fs->lock_ops.arg, which, ino, excl);
}

int wr_fail(struct f2fs_wr *w, int err)
{
	if (err)
		w->failed = true;
	return err;
}

static void wr_destroy(void *p)
{
	struct f2fs_wr *w = p;

	if (!w)
		return;
	wr_quota_free(w);
	wr_inodes_free(w);
	wr_nodes_free(w);
	wr_nat_free(w);
	wr_alloc_free(w);
	wr_io_free(&w->io);
	free(w);
}

static void take_counts(struct f2fs_wr *w, const struct f2fs_checkpoint *cp)
{
	uint32_t rsvd_segs = le32_get(cp->rsvd_segment_count);

	w->valid_blocks = le64_get(cp->valid_block_count);
	w->valid_nodes = le32_get(cp->valid_node_count);
	w->valid_inodes = le32_get(cp->valid_inode_count);
	w->user_block_count = le64_get(cp->user_block_count);
	w->reserved_sections = (rsvd_segs + w->segs_per_sec - 1) / w->segs_per_sec;
	w->cp_ver = le64_get(cp->checkpoint_ver);
	w->footer_ver = w->cp_ver;
	if (le32_get(cp->ckpt_flags) & CP_CRC_RECOVERY_FLAG)
		w->footer_ver |= (uint64_t)f2fs_cp_crc(cp, wr_blksize(w)) << 32;
	w->elapsed_base = le64_get(cp->elapsed_time);
	w->open_time = wr_now();
}

/*
 * Writing over a roll-forward chain would lose what was fsynced before a
 * power cut (the next checkpoint moves the log on): the kernel replays the
 * chain at mount first, and so must whoever writes the volume.
 */
static int refuse_pending_recovery(struct f2fs_fs *fs)
{
	uint32_t fsynced, length;
	int ret = f2fs_roll_forward_chain(fs, &fsynced, &length);

	if (ret == -ELOOP)
		fs_say(
		    fs->why, sizeof(fs->why),
		    "the fsynced node chain loops (the kernel cannot replay it): run fsck.f2fs -y "
		    "before writing to the volume");
	if (ret)
		return ret;
	if (!fsynced)
		return 0;
	fs_say(fs->why, sizeof(fs->why),
	       "%u fsynced node blocks await roll-forward recovery: mount the volume once or run "
	       "fsck.f2fs -y (either applies them) before writing to it",
	       fsynced);
	return -EUCLEAN;
}

static int build(struct f2fs_fs *fs, bool existing, struct f2fs_wr **out)
{
	struct f2fs_wr *w = calloc(1, sizeof(*w));
	int ret;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	ret = existing && !(fs->flags & (F2FS_FS_DROP_ROLL_FORWARD | F2FS_FS_ROLL_FORWARD))
		  ? refuse_pending_recovery(fs)
		  : 0;
	if (ret) {
		free(w);
		return ret;
	}
	w->fs = fs;
	w->clock = -1;
	w->wb_inode_pages = WR_WB_INODE_PAGES;
	w->wb_total_pages = WR_WB_TOTAL_PAGES;
	w->sb = f2fs_fs_sb(fs);
	w->segs_per_sec = le32_get(w->sb->segs_per_sec);
	w->secs_per_zone = le32_get(w->sb->secs_per_zone);
	w->segments = fs->geo.main_segs;
	w->sections = fs->geo.sections;
	take_counts(w, f2fs_fs_cp(fs));
	wr_quota_init(w, existing);
	ret = wr_io_init(&w->io, fs->geo.blk.blksize);
	if (!ret)
		ret = wr_alloc_init(w);
	if (!ret)
		ret = wr_nat_init(w);
	if (!ret)
		ret = wr_nodes_init(w);
	if (!ret)
		ret = wr_inodes_init(w);
	if (!ret)
		ret = wr_zones_init(w, existing);
	if (ret) {
		wr_destroy(w);
		return ret;
	}
	*out = w;
	return 0;
}

/* The state of @fs, built on first use (@existing: a volume read from the device). */
static int get_state(struct f2fs_fs *fs, bool existing, struct f2fs_wr **out)
{
	struct f2fs_wr *w = fs->wr;
	int ret;

	*out = NULL;
	if (!(fs->flags & F2FS_FS_WRITE))
		return -EROFS;
	if (!w) {
		ret = build(fs, existing, &w);
		if (ret)
			return ret;
		fs->wr = w;
		fs->wr_free = wr_destroy;
	}
	if (w->failed)
		return -EIO;
	wr_nodes_shrink(w);
	*out = w;
	return 0;
}

int wr_get(struct f2fs_fs *fs, struct f2fs_wr **out)
{
	return get_state(fs, true, out);
}

int f2fs_fs_create(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		   const struct f2fs_checkpoint *cp, struct f2fs_fs **out)
{
	struct f2fs_fs *fs;
	struct f2fs_wr *w;
	int ret;

	*out = NULL;
	ret = f2fs_fs_new(dev, sb, cp, &fs);
	if (ret)
		return ret;
	ret = get_state(fs, false, &w);
	if (!ret) {
		w->fresh = true;
		ret = wr_nat_reserve_meta_inos(w);
	}
	if (ret) {
		f2fs_fs_close(fs);
		return ret;
	}
	*out = fs;
	return 0;
}

void f2fs_set_alloc_policy(struct f2fs_fs *fs, f2fs_alloc_policy_fn fn, void *arg)
{
	struct f2fs_wr *w;

	if (wr_get(fs, &w))
		return;
	w->policy = fn;
	w->policy_arg = arg;
}

void f2fs_set_in_place_updates(struct f2fs_fs *fs, bool on)
{
	struct f2fs_wr *w;

	if (!wr_get(fs, &w))
		w->in_place = on;
}

bool f2fs_kernel_forces_ipu(struct f2fs_fs *fs)
{
	struct f2fs_wr *w;

	if (wr_get(fs, &w) || w->zoned)
		return false;
	return le32_get(w->sb->segment_count_main) <= F2FS_SMALL_VOLUME_SEGMENTS;
}

void f2fs_set_commit_wait(struct f2fs_fs *fs, f2fs_commit_wait_fn fn, void *arg)
{
	struct f2fs_wr *w;

	if (wr_get(fs, &w))
		return;
	w->commit_wait = fn;
	w->commit_wait_arg = arg;
}

const struct f2fs_write_stats *f2fs_write_stats(struct f2fs_fs *fs)
{
	static const struct f2fs_write_stats none;
	struct f2fs_wr *w = fs->wr;

	return w ? &w->stats : &none;
}

int f2fs_space(struct f2fs_fs *fs, struct f2fs_space *s)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	s->free_sections = w->free_sections;
	s->reserved_sections = w->reserved_sections;
	s->sections = w->sections;
	s->valid_blocks = w->valid_blocks;
	s->user_blocks = w->user_block_count;
	s->valid_nodes = w->valid_nodes;
	s->valid_inodes = w->valid_inodes;
	s->curseg_room = w->curseg_room;
	return 0;
}

void f2fs_write_set_writeback(struct f2fs_fs *fs, uint64_t inode_pages, uint64_t total_pages)
{
	struct f2fs_wr *w;

	if (wr_get(fs, &w))
		return;
	w->wb_inode_pages = inode_pages;
	w->wb_total_pages = total_pages;
}

uint64_t f2fs_dirty_pages(struct f2fs_fs *fs, uint32_t ino)
{
	struct f2fs_wr *w;
	struct wr_inode *wi;

	if (wr_get(fs, &w))
		return 0;
	if (!ino)
		return w->inodes.dirty_pages;
	wi = wr_inode_find(w, ino, false);
	return wi ? wi->npages : 0;
}

uint64_t f2fs_dirty_nodes(struct f2fs_fs *fs)
{
	struct f2fs_wr *w;

	return wr_get(fs, &w) ? 0 : w->nodes.ndirty;
}

bool f2fs_write_dirty(struct f2fs_fs *fs)
{
	struct f2fs_wr *w;

	return !wr_get(fs, &w) && w->meta_dirty;
}
