// SPDX-License-Identifier: GPL-2.0
/*
 * Write-life hints.  A write's tag says what it holds (metadata, or a node
 * or data block of one of the six logs); with F2FS_DEV_WRITE_HINTS the unix
 * backend passes the matching hint to the kernel (fcntl F_SET_RW_HINT on
 * the inode) before a write whose hint differs from the last one set, so a
 * device that sorts writes by expected lifetime (an SSD's streams, a UFS
 * device's write booster on Android) keeps hot and cold apart.  The table
 * is newest upstream f2fs-tools' (-H); Linux 6.1 sets no per-log hints of
 * its own any more, it only turns a file's hint into a data log.
 */
#include "config.h"

#include "f2fs/format.h"

#include "dev_internal.h"

enum f2fs_dev_tag f2fs_dev_tag_kind(enum f2fs_dev_tag tag)
{
	switch (tag) {
	case F2FS_DEV_TAG_DATA:
	case F2FS_DEV_TAG_HOT_DATA:
	case F2FS_DEV_TAG_WARM_DATA:
	case F2FS_DEV_TAG_COLD_DATA:
		return F2FS_DEV_TAG_DATA;
	case F2FS_DEV_TAG_NODE:
	case F2FS_DEV_TAG_HOT_NODE:
	case F2FS_DEV_TAG_WARM_NODE:
	case F2FS_DEV_TAG_COLD_NODE:
		return F2FS_DEV_TAG_NODE;
	case F2FS_DEV_TAG_META:
		return F2FS_DEV_TAG_META;
	default:
		return F2FS_DEV_TAG_NONE;
	}
}

enum f2fs_dev_tag f2fs_dev_log_tag(unsigned int log)
{
	static const enum f2fs_dev_tag tags[F2FS_NR_CURSEG_TYPE] = {
	    [F2FS_CURSEG_HOT_DATA] = F2FS_DEV_TAG_HOT_DATA,
	    [F2FS_CURSEG_WARM_DATA] = F2FS_DEV_TAG_WARM_DATA,
	    [F2FS_CURSEG_COLD_DATA] = F2FS_DEV_TAG_COLD_DATA,
	    [F2FS_CURSEG_HOT_NODE] = F2FS_DEV_TAG_HOT_NODE,
	    [F2FS_CURSEG_WARM_NODE] = F2FS_DEV_TAG_WARM_NODE,
	    [F2FS_CURSEG_COLD_NODE] = F2FS_DEV_TAG_COLD_NODE,
	};

	return log < F2FS_NR_CURSEG_TYPE ? tags[log] : F2FS_DEV_TAG_NONE;
}

enum f2fs_write_life f2fs_dev_tag_write_life(enum f2fs_dev_tag tag)
{
	switch (tag) {
	case F2FS_DEV_TAG_HOT_DATA:
		return F2FS_WRITE_LIFE_SHORT;
	case F2FS_DEV_TAG_DATA:
	case F2FS_DEV_TAG_WARM_DATA:
		return F2FS_WRITE_LIFE_NOT_SET;
	case F2FS_DEV_TAG_COLD_DATA:
		return F2FS_WRITE_LIFE_EXTREME;
	case F2FS_DEV_TAG_NODE:
	case F2FS_DEV_TAG_WARM_NODE:
		return F2FS_WRITE_LIFE_MEDIUM;
	case F2FS_DEV_TAG_COLD_NODE:
		return F2FS_WRITE_LIFE_LONG;
	default: /* hot node, metadata, untagged */
		return F2FS_WRITE_LIFE_NONE;
	}
}
