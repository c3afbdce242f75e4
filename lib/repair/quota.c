// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding the quota files: each file the volume keeps is rewritten with
 * the usage the check's walk counted (an inode and its blocks to each id),
 * limits and grace times kept where the old file could be read.  Changes
 * the repair makes after the walk reach the files through the write path's
 * own accounting at the checkpoint.  Rewriting every file also clears
 * CP_QUOTA_NEED_FSCK_FLAG, so the kernel loads them again.
 */
#include "config.h"

#include "f2fs/quota.h"
#include "f2fs/write.h"
#include "repair_internal.h"

int repair_quota(struct f2fs_repair *r, struct f2fs_fix_report *rep)
{
	unsigned int t;
	int ret = 0;

	for (t = 0; t < F2FS_MAX_QUOTAS && !ret; t++) {
		const struct f2fs_quota_set *usage = f2fs_findings_quota(r->findings, t);

		if (!usage)
			continue;
		ret = f2fs_quota_write(r->fs, t, usage);
		rep->changed += !ret;
	}
	return ret;
}
