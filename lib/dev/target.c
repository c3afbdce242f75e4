// SPDX-License-Identifier: GPL-2.0
/*
 * What a path is, before a tool opens it (f2fs_target_classify): its kind
 * from stat(), its size, and whether it is in use (busy.c).  Tools decide on
 * the answer before they open anything, so a character device is never
 * opened (a tty or a FIFO could block or change state), and a writer can
 * refuse a mounted device without having held it open for writing.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>

#include "dev_internal.h"

static enum f2fs_target_kind kind_of(mode_t mode)
{
	if (S_ISREG(mode))
		return F2FS_TARGET_REGULAR;
	if (S_ISBLK(mode))
		return F2FS_TARGET_BLOCKDEV;
	if (S_ISDIR(mode))
		return F2FS_TARGET_DIRECTORY;
	if (S_ISCHR(mode))
		return F2FS_TARGET_CHARDEV;
	if (S_ISFIFO(mode))
		return F2FS_TARGET_FIFO;
	if (S_ISSOCK(mode))
		return F2FS_TARGET_SOCKET;
	return F2FS_TARGET_OTHER;
}

static int blkdev_size(const char *path, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return dev_neg_errno();
	if (ioctl(fd, BLKGETSIZE64, size) < 0)
		ret = dev_neg_errno();
	close(fd);
	return ret;
}

int f2fs_target_classify(const char *path, unsigned int checks, struct f2fs_target *out)
{
	struct stat st;
	char *real;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st) < 0)
		return dev_neg_errno();
	out->kind = kind_of(st.st_mode);
	if (out->kind != F2FS_TARGET_REGULAR && out->kind != F2FS_TARGET_BLOCKDEV)
		return 0;
	if (checks & F2FS_TARGET_SIZE) {
		if (out->kind == F2FS_TARGET_REGULAR)
			out->size_bytes = (uint64_t)st.st_size;
		else
			ret = blkdev_size(path, &out->size_bytes);
	}
	if (ret || !(checks & F2FS_TARGET_USE))
		return ret;
	/* mountinfo and the loop devices' backing_file name canonical paths */
	real = realpath(path, NULL);
	if (!real)
		return dev_neg_errno();
	ret = dev_find_use(real, &st, out);
	free(real);
	return ret;
}
