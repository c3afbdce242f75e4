// SPDX-License-Identifier: GPL-2.0
/*
 * Keeping the quota files current, as the kernel's dquot layer does: every
 * change to what an inode is charged (an inode made or freed, a block
 * gained or lost, a new owner) is added to the pending charges of its
 * ids, and each checkpoint folds the pending charges into the quota files
 * (read, decoded, updated, encoded, written) before it commits.  A quota
 * file that cannot be decoded is left alone and the checkpoint carries
 * CP_QUOTA_NEED_FSCK_FLAG, as the kernel's does when its quota sync fails;
 * a volume opened with that flag set is not accounted (the kernel does not
 * load its quota files either) until a repair rewrites them whole.  A new
 * volume is not accounted: mkfs writes its quota files knowing every inode
 * it makes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "f2fs/endian.h"
#include "write_internal.h"

void wr_quota_init(struct f2fs_wr *w, bool existing)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(w->fs);
	unsigned int t;

	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		f2fs_quota_set_init(&w->quota.pending[t]);
	w->quota.types = 0;
	if (existing && !(le32_get(cp->ckpt_flags) & CP_QUOTA_NEED_FSCK_FLAG))
		w->quota.types = f2fs_quota_types(w->sb);
}

void wr_quota_free(struct f2fs_wr *w)
{
	unsigned int t;

	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		f2fs_quota_set_free(&w->quota.pending[t]);
}

static void charge_ids(struct f2fs_wr *w, const struct f2fs_inode *ri, int64_t inodes,
		       int64_t space)
{
	uint32_t features = le32_get(w->sb->feature);
	unsigned int t;

	for (t = 0; t < F2FS_MAX_QUOTAS; t++) {
		if (!(w->quota.types & (1u << t)))
			continue;
		if (f2fs_quota_charge(&w->quota.pending[t], f2fs_inode_quota_id(ri, t, features),
				      inodes, space))
			w->quota.broken =
			    true; /* out of memory: the files can no longer be trusted */
	}
}

void wr_quota_charge(struct f2fs_wr *w, const struct wr_node *in, int64_t inodes, int64_t blocks)
{
	if (!w->quota.types || f2fs_is_quota_ino(w->sb, in->ino))
		return;
	charge_ids(w, &in->blk.i, inodes, blocks * (int64_t)wr_blksize(w));
}

void wr_quota_transfer(struct f2fs_wr *w, const struct wr_node *in, const struct f2fs_inode *before)
{
	int64_t space = (int64_t)f2fs_inode_quota_space(&in->blk.i);

	if (!w->quota.types || f2fs_is_quota_ino(w->sb, in->ino))
		return;
	charge_ids(w, before, -1, -space);
	charge_ids(w, &in->blk.i, 1, space);
}

/* Quota file @type decoded into @s (empty when the file is). */
static int read_file(struct f2fs_wr *w, struct wr_node *in, unsigned int type,
		     struct f2fs_quota_set *s)
{
	uint64_t size = le64_get(in->blk.i.i_size);
	uint8_t *buf;
	size_t done;
	char why[160];
	int ret;

	f2fs_quota_set_init(s);
	if (size > (uint64_t)F2FS_QUOTA_MAX_BLOCKS * F2FS_QUOTA_BLOCK)
		return -EUCLEAN;
	buf = malloc(size ? size : 1);
	if (!buf)
		return -ENOMEM;
	ret = wr_data_read(w, in, buf, size, 0, &done);
	if (!ret && done != size)
		ret = -EUCLEAN;
	if (!ret)
		ret = f2fs_quota_decode(buf, size, type, s, why, sizeof(why));
	free(buf);
	return ret;
}

/* Write @s as quota file @type, the file cut to its new length. */
static int write_file(struct f2fs_wr *w, struct wr_node *in, unsigned int type,
		      const struct f2fs_quota_set *s)
{
	uint8_t *buf;
	size_t len;
	int ret = f2fs_quota_encode(s, type, &buf, &len);

	if (ret)
		return ret;
	if (len < le64_get(in->blk.i.i_size))
		ret = wr_set_size(w, in, len);
	if (!ret)
		ret = wr_data_write(w, in, buf, len, 0);
	free(buf);
	if (!ret)
		ret = wr_writepages(w, in->ino, F2FS_WB_ALL);
	return ret;
}

static void add_pending(struct f2fs_quota_set *file, const struct f2fs_quota_set *pending,
			bool *nomem)
{
	size_t i;

	for (i = 0; i < pending->n; i++)
		if (f2fs_quota_charge(file, pending->q[i].id, (int64_t)pending->q[i].inodes,
				      (int64_t)pending->q[i].space))
			*nomem = true;
}

static int flush_type(struct f2fs_wr *w, unsigned int type)
{
	struct f2fs_quota_set *pending = &w->quota.pending[type], file;
	struct wr_node *in;
	bool nomem = false;
	int ret = wr_inode_get(w, le32_get(w->sb->qf_ino[type]), &in);

	if (ret)
		return ret;
	ret = read_file(w, in, type, &file);
	if (!ret) {
		add_pending(&file, pending, &nomem);
		ret = nomem ? -ENOMEM : write_file(w, in, type, &file);
	}
	f2fs_quota_set_free(&file);
	f2fs_quota_set_free(pending);
	wr_node_put(in);
	return ret;
}

int wr_quota_flush(struct f2fs_wr *w)
{
	unsigned int t;
	int ret;

	for (t = 0; t < F2FS_MAX_QUOTAS; t++) {
		if (!(w->quota.types & (1u << t)) || !w->quota.pending[t].n)
			continue;
		ret = flush_type(w, t);
		if (ret == -EIO)
			return ret;
		if (ret) {
			/* as the kernel: stop accounting, ask for fsck, keep writing */
			w->quota.broken = true;
			w->quota.types = 0;
		}
	}
	return 0;
}

int f2fs_quota_write(struct f2fs_fs *fs, unsigned int type, const struct f2fs_quota_set *usage)
{
	struct f2fs_quota_set file;
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	if (type >= F2FS_MAX_QUOTAS || !(f2fs_quota_types(w->sb) & (1u << type)))
		return -EINVAL;
	ret = wr_inode_get(w, le32_get(w->sb->qf_ino[type]), &in);
	if (ret)
		return ret;
	/* limits, deadlines and grace times survive when the old file can be read */
	if (read_file(w, in, type, &file) == -ENOMEM)
		ret = -ENOMEM;
	if (!ret)
		ret = f2fs_quota_take_usage(&file, usage);
	if (!ret)
		ret = write_file(w, in, type, &file);
	f2fs_quota_set_free(&file);
	wr_node_put(in);
	if (ret)
		return wr_fail(w, ret);
	w->quota.types |= 1u << type;
	w->quota.rewritten |= 1u << type;
	if (w->quota.rewritten == f2fs_quota_types(w->sb))
		w->quota.broken = false;
	wr_mark_dirty(w);
	return 0;
}

uint32_t wr_quota_cp_flags(const struct f2fs_wr *w, uint32_t flags)
{
	if (w->quota.broken)
		return flags | CP_QUOTA_NEED_FSCK_FLAG;
	if (w->quota.rewritten && w->quota.rewritten == f2fs_quota_types(w->sb))
		return flags & ~CP_QUOTA_NEED_FSCK_FLAG;
	return flags;
}
