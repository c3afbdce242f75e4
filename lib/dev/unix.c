// SPDX-License-Identifier: GPL-2.0
/*
 * The unix backend: a regular file or a block device through a descriptor.
 * Block devices get their size, sector size and partition start from
 * ioctls, are opened O_EXCL on request, and zero or discard with
 * BLKZEROOUT/BLKDISCARD; files punch holes instead, so images stay sparse.
 * With F2FS_DEV_WRITE_HINTS each write carries its tag's write-life hint.
 * A host-managed zoned block device is read and written with direct I/O
 * only (unaligned requests through a bounce buffer): the page cache writes
 * back in its own order, and a direct write over cached pages it cannot
 * drop falls back to the page cache, both of which put writes off a zone's
 * pointer (f2fs_io replay failed so on a loaded machine).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/hdreg.h>

#include "dev_internal.h"

#ifndef F_SET_RW_HINT /* glibc before 2.27 */
#define F_SET_RW_HINT (1024 + 12)
#endif

/* ---- unix backend: regular files and block devices ---- */

/* The whole of [off, off+len) or an error: short transfers and EINTR are retried. */
static int full_io(int fd, char *p, uint64_t off, size_t len, bool write)
{
	while (len > 0) {
		ssize_t n = write ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return dev_neg_errno();
		if (n == 0)
			return -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

#define DIRECT_ALIGN 4096u

static bool direct_aligned(const void *buf, uint64_t off, size_t len)
{
	return !((uintptr_t)buf % DIRECT_ALIGN) && !(off % DIRECT_ALIGN) && !(len % DIRECT_ALIGN);
}

/*
 * [@off, @off + @len) through the direct descriptor, by way of an aligned
 * buffer covering the whole blocks it touches when the caller's is not; a
 * write of part of a block reads the block first.
 */
static int direct_io(struct f2fs_device *dev, char *buf, uint64_t off, size_t len, bool write)
{
	uint64_t start = off - off % DIRECT_ALIGN;
	uint64_t end = (off + len + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN;
	size_t span = (size_t)(end - start), skip = (size_t)(off - start);
	bool partial = start != off || end != off + len;
	void *bounce;
	int ret = 0;

	if (direct_aligned(buf, off, len))
		return full_io(dev->sys.dfd, buf, off, len, write);
	if (posix_memalign(&bounce, DIRECT_ALIGN, span))
		return -ENOMEM;
	if (!write || partial)
		ret = full_io(dev->sys.dfd, bounce, start, span, false);
	if (!ret && write) {
		memcpy((char *)bounce + skip, buf, len);
		ret = full_io(dev->sys.dfd, bounce, start, span, true);
	} else if (!ret) {
		memcpy(buf, (char *)bounce + skip, len);
	}
	free(bounce);
	return ret;
}

/* Below this a read is not worth a hole lookup first. */
#define HOLE_CHECK_MIN (1u << 20)

/*
 * Large reads of a sparse image file (the SIT and NAT areas of a big empty
 * volume are mostly holes) skip the leading hole: its bytes are zeros, so
 * they are cleared here instead of copied from the page cache.
 */
static int unix_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	off_t data;

	if (dev->sys.all_direct)
		return direct_io(dev, buf, off, len, false);
	if (dev->info.is_regular && len >= HOLE_CHECK_MIN) {
		data = lseek(dev->sys.fd, (off_t)off, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			data = (off_t)(off + len); /* no data after @off at all */
		if (data > (off_t)off) {
			size_t hole =
			    (uint64_t)data - off < len ? (size_t)((uint64_t)data - off) : len;

			memset(buf, 0, hole);
			buf = (char *)buf + hole;
			off += hole;
			len -= hole;
			if (!len)
				return 0;
		}
	}
	return full_io(dev->sys.fd, buf, off, len, false);
}

/*
 * The hint goes to the inode, so it holds for both descriptors.  Like
 * upstream, a write follows a hint that failed without it; a refusal
 * (EINVAL from a kernel before 4.13) turns hints off for good.
 */
static void set_write_life(struct f2fs_device *dev, enum f2fs_write_life life)
{
	uint64_t hint = life;

	if (life == dev->sys.life)
		return;
	if (fcntl(dev->sys.fd, F_SET_RW_HINT, &hint) == 0)
		dev->sys.life = life;
	else
		dev->sys.hints = false;
}

static int unix_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
		      enum f2fs_dev_tag tag)
{
	int fd = dev->sys.fd;

	if (dev->sys.hints)
		set_write_life(dev, f2fs_dev_tag_write_life(tag));
	/* pwrite never writes through the pointer; the casts only let both share a loop */
	if (dev->sys.all_direct)
		return direct_io(dev, (char *)(uintptr_t)buf, off, len, true);
	if (dev->sys.dfd >= 0 && direct_aligned(buf, off, len))
		fd = dev->sys.dfd;
	return full_io(fd, (char *)(uintptr_t)buf, off, len, true);
}

static int punch_hole(int fd, uint64_t off, uint64_t len)
{
	int mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;

	if (fallocate(fd, mode, (off_t)off, (off_t)len) < 0)
		return dev_neg_errno();
	return 0;
}

static int blkdev_range_ioctl(int fd, unsigned long req, uint64_t off, uint64_t len)
{
	uint64_t range[2] = {off, len};

	if (ioctl(fd, req, range) < 0)
		return dev_neg_errno();
	return 0;
}

static int unix_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	int ret;

	if (dev->info.is_blockdev) {
		ret = blkdev_range_ioctl(dev->sys.fd, BLKZEROOUT, off, len);
		if (ret == -EOPNOTSUPP || ret == -ENOTTY || ret == -EINVAL)
			return dev_write_zeros(dev, off, len);
		return ret;
	}
	ret = punch_hole(dev->sys.fd, off, len);
	if (ret == -EOPNOTSUPP || ret == -ENOSYS)
		return dev_write_zeros(dev, off, len);
	return ret;
}

/*
 * A partition has no queue directory of its own; its queue is the parent
 * disk's, one level up from the partition's sysfs directory.
 */
static bool blkdev_discard_zeroes(dev_t rdev)
{
	static const char *const rel[] = {"queue", "../queue"};
	char path[PATH_MAX], val[16];
	size_t i;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/discard_zeroes_data",
			 major(rdev), minor(rdev), rel[i]);
		if (dev_read_first_line(path, val, sizeof(val)) == 0)
			return strcmp(val, "1") == 0;
	}
	return false;
}

static int unix_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	int ret;

	if (dev->info.is_blockdev) {
		ret = blkdev_range_ioctl(dev->sys.fd, BLKDISCARD, off, len);
		if (ret == -ENOTTY)
			ret = -EOPNOTSUPP;
		if (ret == 0)
			*reads_zero = blkdev_discard_zeroes(dev->sys.rdev);
		return ret;
	}
	ret = punch_hole(dev->sys.fd, off, len);
	if (ret == -ENOSYS)
		ret = -EOPNOTSUPP;
	if (ret == 0)
		*reads_zero = true;
	return ret;
}

static int unix_flush(struct f2fs_device *dev)
{
	if (fsync(dev->sys.fd) < 0 || (dev->sys.dfd >= 0 && fsync(dev->sys.dfd) < 0))
		return dev_neg_errno();
	return 0;
}

/* Only a writable handle can lose data, so only it reports close errors. */
static int unix_close(struct f2fs_device *dev)
{
	int ret = 0;

	if (!dev->readonly)
		ret = unix_flush(dev);
	if (dev->sys.dfd >= 0)
		close(dev->sys.dfd);
	if (close(dev->sys.fd) < 0 && ret == 0 && !dev->readonly)
		ret = dev_neg_errno();
	return ret;
}

static void unix_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	/* only a hint: the kernel reads ahead while the caller works (into the page cache) */
	if (!dev->sys.all_direct)
		(void)posix_fadvise(dev->sys.fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
}

static const struct dev_ops unix_ops = {
    .prefetch = unix_prefetch,
    .read = unix_read,
    .write = unix_write,
    .zero = unix_zero,
    .discard = unix_discard,
    .flush = unix_flush,
    .close = unix_close,
    .report_zones = dev_blkzoned_report,
    .zone_mgmt = dev_blkzoned_mgmt,
};

static int classify(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode))
		return -ENODEV;
	return 0;
}

static int blkdev_geometry(int fd, struct f2fs_dev_info *info)
{
	struct hd_geometry geo;
	uint64_t size;
	int ssz;

	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return dev_neg_errno();
	if (ioctl(fd, BLKSSZGET, &ssz) < 0)
		return dev_neg_errno();
	info->size_bytes = size;
	info->sector_size = (uint32_t)ssz;
	/* Whole disks and loop devices have no geometry: start at 0. */
	if (ioctl(fd, HDIO_GETGEO, &geo) == 0)
		info->start_sector = geo.start;
	return 0;
}

static int fill_info(struct f2fs_device *dev, const struct stat *st)
{
	struct f2fs_dev_info *info = &dev->info;

	info->is_blockdev = S_ISBLK(st->st_mode);
	info->is_regular = S_ISREG(st->st_mode);
	if (info->is_blockdev) {
		int ret;

		dev->sys.rdev = st->st_rdev;
		ret = blkdev_geometry(dev->sys.fd, info);
		return ret < 0 ? ret : dev_blkzoned_probe(dev);
	}
	info->size_bytes = (uint64_t)st->st_size;
	info->sector_size = 512;
	return 0;
}

static int open_fd(const char *path, unsigned int flags, const struct stat *st)
{
	int oflags = O_CLOEXEC | ((flags & F2FS_DEV_RDONLY) ? O_RDONLY : O_RDWR);
	int fd;

	if (S_ISBLK(st->st_mode) && (flags & F2FS_DEV_EXCL))
		oflags |= O_EXCL;
	/*
	 * A host-managed device fails a write that does not land at a zone's
	 * pointer, and the page cache would write back in its own order: each
	 * write completes before the next is issued, as upstream opens it.
	 */
	if (S_ISBLK(st->st_mode) && !(flags & F2FS_DEV_RDONLY) &&
	    dev_blkzoned_host_managed(st->st_rdev))
		oflags |= O_DSYNC;
	do {
		fd = open(path, oflags);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return dev_neg_errno();
	/*
	 * O_EXCL means nothing for a regular file: a writer of an image file
	 * holds an exclusive flock instead, which another writer finds taken
	 */
	/* (a file system without flocks, NFS without a lock manager, goes unlocked) */
	if (S_ISREG(st->st_mode) && (flags & F2FS_DEV_EXCL) && !(flags & F2FS_DEV_RDONLY) &&
	    flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		close(fd);
		return -EBUSY;
	}
	return fd;
}

/*
 * The second, direct descriptor: for aligned writes on request
 * (F2FS_DEV_DIRECT), and for all I/O of a host-managed zoned block device.
 * Where O_DIRECT is refused, I/O stays buffered.
 */
static void open_direct(struct f2fs_device *dev, const char *path, unsigned int flags)
{
	bool zoned = dev->info.is_blockdev && dev->zones.model == F2FS_ZONED_HM;
	int oflags = O_DIRECT | O_CLOEXEC | (dev->readonly ? O_RDONLY : O_RDWR);

	if (!zoned && (!(flags & F2FS_DEV_DIRECT) || dev->readonly))
		return;
	do {
		dev->sys.dfd = open(path, oflags);
	} while (dev->sys.dfd < 0 && errno == EINTR);
	dev->sys.all_direct = zoned && dev->sys.dfd >= 0;
}

int f2fs_dev_open(const char *path, unsigned int flags, struct f2fs_device **out)
{
	struct f2fs_device *dev;
	struct stat st;
	int ret, fd;

	*out = NULL;
	/* stat before open: opening a FIFO or a tty could block or do harm. */
	if (stat(path, &st) < 0)
		return dev_neg_errno();
	ret = classify(&st);
	if (ret < 0)
		return ret;
	fd = open_fd(path, flags, &st);
	if (fd < 0)
		return fd;
	dev = dev_alloc(path, &unix_ops);
	if (!dev) {
		close(fd);
		return -ENOMEM;
	}
	dev->sys.fd = fd;
	dev->sys.dfd = -1;
	dev->readonly = flags & F2FS_DEV_RDONLY;
	dev->sys.hints = (flags & F2FS_DEV_WRITE_HINTS) && !dev->readonly;
	dev->sys.life = F2FS_WRITE_LIFE_NOT_SET;
	/* Re-check on the descriptor in case the path was swapped meanwhile. */
	if (fstat(fd, &st) < 0)
		ret = dev_neg_errno();
	else
		ret = classify(&st);
	if (ret == 0)
		ret = fill_info(dev, &st);
	if (ret == 0)
		open_direct(dev, path, flags);
	if (ret < 0) {
		close(fd);
		dev_free(dev);
		return ret;
	}
	*out = dev;
	return 0;
}
