// SPDX-License-Identifier: GPL-2.0
/*
 * Quota against the tree.  The walk charges every inode it reads, the
 * quota files excepted, with one inode and the blocks it found under it
 * (the count i_blocks will hold once repaired), to its uid, gid and project
 * id; afterwards each quota file the superblock names is read and decoded,
 * and its usage compared with the counts, as the kernel would charge them.
 * A file that cannot be decoded, usage that differs, and a checkpoint
 * saying the kernel gave up on quota (CP_QUOTA_NEED_FSCK_FLAG: it will not
 * load the files until fsck rewrites them) are problems whose fix rewrites
 * the files from the counts; like every fix built from the walk's counts,
 * it waits for a walk that reached everything.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "context.h"
#include "f2fs/endian.h"
#include "f2fs/read.h"

int check_quota_start(struct check_ctx *c)
{
	unsigned int t;

	c->quota_types = f2fs_quota_types(c->sb);
	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		f2fs_quota_set_init(&c->quota[t]);
	return 0;
}

void check_quota_charge(struct check_ctx *c, uint32_t ino, const struct f2fs_inode *ri,
			uint64_t blocks)
{
	int64_t space = blocks ? (int64_t)((blocks - 1) * c->geo->blk.blksize) : 0;
	unsigned int t;

	if (!c->quota_types || f2fs_is_quota_ino(c->sb, ino))
		return;
	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (c->quota_types & (1u << t) &&
		    f2fs_quota_charge(&c->quota[t], f2fs_inode_quota_id(ri, t, c->features), 1,
				      space))
			check_fail(c, -ENOMEM);
}

/* Quota file @type decoded into @have; false (reported) when it cannot be. */
static bool read_quota_file(struct check_ctx *c, unsigned int type, struct f2fs_quota_set *have)
{
	uint32_t ino = le32_get(c->sb->qf_ino[type]);
	struct f2fs_node *n = f2fs_block_alloc(c->fs);
	uint64_t size = 0;
	uint8_t *buf = NULL;
	char why[160] = "";
	size_t done = 0;
	int ret = n ? f2fs_read_inode(c->fs, ino, n) : -ENOMEM;

	f2fs_quota_set_init(have);
	if (!ret) {
		size = le64_get(n->i.i_size);
		if (size > (uint64_t)F2FS_QUOTA_MAX_BLOCKS * F2FS_QUOTA_BLOCK)
			ret = -EFBIG;
	}
	if (!ret) {
		buf = malloc(size ? size : 1);
		ret = buf ? f2fs_file_pread(c->fs, n, buf, size, 0, &done) : -ENOMEM;
	}
	if (!ret && done != size)
		ret = -EUCLEAN;
	if (!ret)
		ret = f2fs_quota_decode(buf, size, type, have, why, sizeof(why));
	free(buf);
	free(n);
	if (ret == -ENOMEM) {
		check_fail(c, ret);
		return false;
	}
	if (ret)
		check_report_values(c, PR_QUOTA_FILE, ino, 0, type, 0,
				    "%s quota file (inode %u): %s", f2fs_quota_type_name(type), ino,
				    why[0]	    ? why
				    : ret == -EFBIG ? "i_size past the largest quota file"
						    : "its blocks cannot be read");
	return !ret;
}

static void compare_usage(struct check_ctx *c, unsigned int type, const struct f2fs_quota_set *have)
{
	const struct f2fs_quota_set *want = &c->quota[type];
	const struct f2fs_dquot *h, *w;
	uint32_t id;

	if (f2fs_quota_usage_equal(have, want, &id))
		return;
	h = f2fs_quota_find(have, id);
	w = f2fs_quota_find(want, id);
	check_report_values(c, PR_QUOTA_USAGE, le32_get(c->sb->qf_ino[type]), 0, type, id,
			    "%s quota: id %u uses %llu inodes and %llu bytes, the quota file says "
			    "%llu and %llu",
			    f2fs_quota_type_name(type), id, (unsigned long long)(w ? w->inodes : 0),
			    (unsigned long long)(w ? w->space : 0),
			    (unsigned long long)(h ? h->inodes : 0),
			    (unsigned long long)(h ? h->space : 0));
}

void check_quota(struct check_ctx *c)
{
	struct f2fs_quota_set have;
	unsigned int t;

	if (!c->quota_types)
		return;
	if (le32_get(c->cp->ckpt_flags) & CP_QUOTA_NEED_FSCK_FLAG)
		check_report(c, PR_QUOTA_NEED_FSCK, 0, 0,
			     "the checkpoint says the quota files need fsck "
			     "(CP_QUOTA_NEED_FSCK_FLAG): the kernel does not load them");
	for (t = 0; t < F2FS_MAX_QUOTAS && !c->err; t++) {
		if (!(c->quota_types & (1u << t)) ||
		    check_kind(c, le32_get(c->sb->qf_ino[t])) == NID_UNSEEN)
			continue; /* no quota inode to read: PR_QUOTA_INODE says so */
		if (!read_quota_file(c, t, &have))
			continue;
		compare_usage(c, t, &have);
		f2fs_quota_set_free(&have);
	}
}

void check_quota_release(struct check_ctx *c)
{
	unsigned int t;

	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		f2fs_quota_set_free(&c->quota[t]);
}
