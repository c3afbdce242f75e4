// SPDX-License-Identifier: GPL-2.0
/*
 * The superblock written in place: both copies, as the kernel commits a
 * changed superblock (f2fs_commit_super: the copy in block 1 first, then
 * the one in block 0), each block's first 1024 bytes kept (a boot sector
 * may live there), the checksum set when the volume has sb_checksum, and a
 * flush after each so that a power cut leaves one whole copy.  Nothing
 * else of the volume changes, so no checkpoint follows and no table needs
 * loading: a label changes this way on a volume of any size at once, and
 * of any block size (block 1 is where the volume's block size puts it).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "write_internal.h"

static int write_copy(struct f2fs_device *dev, uint64_t blk, uint32_t blksize, uint8_t *buf,
		      const struct f2fs_super_block *sb)
{
	int ret = f2fs_dev_read(dev, buf, blk * blksize, blksize);

	if (ret)
		return ret;
	memcpy(buf + F2FS_SUPER_OFFSET, sb, sizeof(*sb));
	ret = f2fs_dev_write(dev, buf, blk * blksize, blksize);
	return ret ? ret : f2fs_dev_flush(dev);
}

int f2fs_write_super(struct f2fs_fs *fs, const struct f2fs_super_block *sb)
{
	struct f2fs_super_block copy = *sb;
	uint32_t blksize = fs->geo.blk.blksize;
	void *buf;
	int ret;

	f2fs_super_seal(&copy);
	/* block-aligned, for a device opened for direct I/O */
	if (posix_memalign(&buf, F2FS_BLKSIZE, blksize))
		return -ENOMEM;
	ret = write_copy(f2fs_fs_dev(fs), 1, blksize, buf, &copy);
	if (!ret)
		ret = write_copy(f2fs_fs_dev(fs), 0, blksize, buf, &copy);
	free(buf);
	if (ret)
		return ret;
	f2fs_volume_set_sb(fs->vol, &copy);
	fs->features = le32_get(copy.feature);
	return 0;
}

int f2fs_set_label(struct f2fs_fs *fs, const char *label)
{
	struct f2fs_super_block sb = *f2fs_fs_sb(fs);
	int ret = f2fs_label_to_utf16(label, sb.volume_name, F2FS_MAX_VOLUME_NAME);

	return ret < 0 ? ret : f2fs_write_super(fs, &sb);
}
