// SPDX-License-Identifier: GPL-2.0
/*
 * The device layer behind include/f2fs/device.h.  A struct f2fs_device is a
 * path, a geometry and a const vtable; the "unix" backend drives a regular
 * file or a block device through a descriptor, the memory backend a calloc'd
 * buffer for unit tests.  The front-end functions check ranges and the
 * read-only flag once so the backends only do the I/O.  The file also holds
 * the safety checks run before formatting: is the target mounted or held (by
 * device number, by mount source, or through a loop device backed by an image
 * file), and does it already carry a filesystem (libblkid).
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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/hdreg.h>

#include <blkid/blkid.h>

#include "f2fs/device.h"

#define ZERO_CHUNK (1u << 20)

struct dev_ops {
	int (*read)(struct f2fs_device *dev, void *buf, uint64_t off, size_t len);
	int (*write)(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len);
	int (*zero)(struct f2fs_device *dev, uint64_t off, uint64_t len);
	int (*discard)(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero);
	int (*flush)(struct f2fs_device *dev);
	int (*close)(struct f2fs_device *dev);
	void (*prefetch)(struct f2fs_device *dev, uint64_t off, uint64_t len);
};

struct f2fs_device {
	const struct dev_ops *ops;
	struct f2fs_dev_info info;
	char *path;
	bool readonly;
	union {
		struct {
			int fd;
			dev_t rdev;
		} sys;
		struct {
			unsigned char *buf;
		} mem;
	};
};

static int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

static void copy_str(char *dst, size_t dst_len, const char *src)
{
	if (dst && dst_len > 0)
		snprintf(dst, dst_len, "%s", src);
}

static struct f2fs_device *dev_alloc(const char *path, const struct dev_ops *ops)
{
	struct f2fs_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->path = strdup(path);
	if (!dev->path) {
		free(dev);
		return NULL;
	}
	dev->ops = ops;
	return dev;
}

static void dev_free(struct f2fs_device *dev)
{
	free(dev->path);
	free(dev);
}

/* Writes zeros through the backend; the fallback when no cheaper way works. */
static int write_zeros(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	size_t chunk = len < ZERO_CHUNK ? (size_t)len : ZERO_CHUNK;
	void *zeros = calloc(1, chunk);
	int ret = 0;

	if (!zeros)
		return -ENOMEM;
	while (len > 0 && ret == 0) {
		size_t n = len < chunk ? (size_t)len : chunk;

		ret = dev->ops->write(dev, zeros, off, n);
		off += n;
		len -= n;
	}
	free(zeros);
	return ret;
}

/* ---- memory backend ---- */

static int mem_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	memcpy(buf, dev->mem.buf + off, len);
	return 0;
}

static int mem_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len)
{
	memcpy(dev->mem.buf + off, buf, len);
	return 0;
}

static int mem_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	memset(dev->mem.buf + off, 0, len);
	return 0;
}

static int mem_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	memset(dev->mem.buf + off, 0, len);
	*reads_zero = true;
	return 0;
}

static int mem_flush(struct f2fs_device *dev)
{
	(void)dev;
	return 0;
}

static int mem_close(struct f2fs_device *dev)
{
	free(dev->mem.buf);
	return 0;
}

static void mem_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	(void)dev, (void)off, (void)len; /* already in memory */
}

static const struct dev_ops mem_ops = {
    .prefetch = mem_prefetch,
    .read = mem_read,
    .write = mem_write,
    .zero = mem_zero,
    .discard = mem_discard,
    .flush = mem_flush,
    .close = mem_close,
};

int f2fs_dev_open_memory(uint64_t size, struct f2fs_device **out)
{
	struct f2fs_device *dev;

	*out = NULL;
	if (size > SIZE_MAX)
		return -ENOMEM;
	dev = dev_alloc("<memory>", &mem_ops);
	if (!dev)
		return -ENOMEM;
	/* calloc(0) may return NULL; keep one byte so a 0-byte device works. */
	dev->mem.buf = calloc(1, size ? (size_t)size : 1);
	if (!dev->mem.buf) {
		dev_free(dev);
		return -ENOMEM;
	}
	dev->info.size_bytes = size;
	dev->info.sector_size = 512;
	*out = dev;
	return 0;
}

/* ---- unix backend: regular files and block devices ---- */

/* The whole of [off, off+len) or an error: short transfers and EINTR are retried. */
static int full_io(int fd, char *p, uint64_t off, size_t len, bool write)
{
	while (len > 0) {
		ssize_t n = write ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0)
			return -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int unix_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	return full_io(dev->sys.fd, buf, off, len, false);
}

static int unix_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len)
{
	/* pwrite never writes through the pointer; the cast only lets both share a loop */
	return full_io(dev->sys.fd, (char *)(uintptr_t)buf, off, len, true);
}

static int punch_hole(int fd, uint64_t off, uint64_t len)
{
	int mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;

	if (fallocate(fd, mode, (off_t)off, (off_t)len) < 0)
		return neg_errno();
	return 0;
}

static int blkdev_range_ioctl(int fd, unsigned long req, uint64_t off, uint64_t len)
{
	uint64_t range[2] = {off, len};

	if (ioctl(fd, req, range) < 0)
		return neg_errno();
	return 0;
}

static int unix_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	int ret;

	if (dev->info.is_blockdev) {
		ret = blkdev_range_ioctl(dev->sys.fd, BLKZEROOUT, off, len);
		if (ret == -EOPNOTSUPP || ret == -ENOTTY || ret == -EINVAL)
			return write_zeros(dev, off, len);
		return ret;
	}
	ret = punch_hole(dev->sys.fd, off, len);
	if (ret == -EOPNOTSUPP || ret == -ENOSYS)
		return write_zeros(dev, off, len);
	return ret;
}

static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return neg_errno();
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
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
		if (read_first_line(path, val, sizeof(val)) == 0)
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
	if (fsync(dev->sys.fd) < 0)
		return neg_errno();
	return 0;
}

/* Only a writable handle can lose data, so only it reports close errors. */
static int unix_close(struct f2fs_device *dev)
{
	int ret = 0;

	if (!dev->readonly)
		ret = unix_flush(dev);
	if (close(dev->sys.fd) < 0 && ret == 0 && !dev->readonly)
		ret = neg_errno();
	return ret;
}

static void unix_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	/* only a hint: the kernel reads ahead while the caller works */
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
		return neg_errno();
	if (ioctl(fd, BLKSSZGET, &ssz) < 0)
		return neg_errno();
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
		dev->sys.rdev = st->st_rdev;
		return blkdev_geometry(dev->sys.fd, info);
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
	do {
		fd = open(path, oflags);
	} while (fd < 0 && errno == EINTR);
	return fd < 0 ? neg_errno() : fd;
}

int f2fs_dev_open(const char *path, unsigned int flags, struct f2fs_device **out)
{
	struct f2fs_device *dev;
	struct stat st;
	int ret, fd;

	*out = NULL;
	/* stat before open: opening a FIFO or a tty could block or do harm. */
	if (stat(path, &st) < 0)
		return neg_errno();
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
	dev->readonly = flags & F2FS_DEV_RDONLY;
	/* Re-check on the descriptor in case the path was swapped meanwhile. */
	if (fstat(fd, &st) < 0)
		ret = neg_errno();
	else
		ret = classify(&st);
	if (ret == 0)
		ret = fill_info(dev, &st);
	if (ret < 0) {
		close(fd);
		dev_free(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

/* ---- front end ---- */

int f2fs_dev_close(struct f2fs_device *dev)
{
	int ret;

	if (!dev)
		return 0;
	ret = dev->ops->close(dev);
	dev_free(dev);
	return ret;
}

const struct f2fs_dev_info *f2fs_dev_get_info(const struct f2fs_device *dev)
{
	return &dev->info;
}

const char *f2fs_dev_path(const struct f2fs_device *dev)
{
	return dev->path;
}

static bool range_fits(const struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	return off <= dev->info.size_bytes && len <= dev->info.size_bytes - off;
}

int f2fs_dev_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	if (!range_fits(dev, off, len))
		return -EIO;
	if (len == 0)
		return 0;
	return dev->ops->read(dev, buf, off, len);
}

int f2fs_dev_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len)
{
	if (dev->readonly)
		return -EBADF;
	if (!range_fits(dev, off, len))
		return -ENOSPC;
	if (len == 0)
		return 0;
	return dev->ops->write(dev, buf, off, len);
}

int f2fs_dev_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	if (dev->readonly)
		return -EBADF;
	if (!range_fits(dev, off, len))
		return -EINVAL;
	if (len == 0)
		return 0;
	return dev->ops->zero(dev, off, len);
}

int f2fs_dev_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	bool zeroed = false;
	int ret;

	if (dev->readonly)
		ret = -EBADF;
	else if (!range_fits(dev, off, len))
		ret = -EINVAL;
	else if (len == 0)
		ret = 0;
	else
		ret = dev->ops->discard(dev, off, len, &zeroed);
	if (reads_zero)
		*reads_zero = ret == 0 && zeroed;
	return ret;
}

void f2fs_dev_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	if (range_fits(dev, off, len) && len)
		dev->ops->prefetch(dev, off, len);
}

int f2fs_dev_flush(struct f2fs_device *dev)
{
	return dev->ops->flush(dev);
}

/* ---- is the target in use? ---- */

struct dev_list {
	dev_t *v;
	size_t n, cap;
};

static int dev_list_add(struct dev_list *l, dev_t d)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		dev_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = d;
	return 0;
}

static bool dev_list_has(const struct dev_list *l, dev_t d)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == d)
			return true;
	return false;
}

static bool join_path(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < len;
}

static int sysfs_devnum(const char *dir, dev_t *out)
{
	char path[PATH_MAX], buf[32];
	unsigned int ma, mi;

	if (!join_path(path, sizeof(path), dir, "dev") ||
	    read_first_line(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -ENOENT;
	*out = makedev(ma, mi);
	return 0;
}

/* Adds the device numbers of the partitions under sysfs directory @dir. */
static int add_partitions(struct dev_list *l, const char *dir)
{
	char sub[PATH_MAX], probe[PATH_MAX];
	struct dirent *de;
	int ret = 0;
	DIR *d = opendir(dir);
	dev_t part;

	if (!d)
		return 0;
	while (ret == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!join_path(sub, sizeof(sub), dir, de->d_name) ||
		    !join_path(probe, sizeof(probe), sub, "partition"))
			continue;
		if (access(probe, F_OK) == 0 && sysfs_devnum(sub, &part) == 0)
			ret = dev_list_add(l, part);
	}
	closedir(d);
	return ret;
}

static bool backing_file_matches(const char *loop, const char *real, const struct stat *st)
{
	char path[PATH_MAX], backing[PATH_MAX];
	struct stat bst;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", loop);
	if (read_first_line(path, backing, sizeof(backing)) < 0)
		return false;
	if (strcmp(backing, real) == 0)
		return true;
	/* The same file may be reachable under another name (bind mounts). */
	return stat(backing, &bst) == 0 && bst.st_dev == st->st_dev && bst.st_ino == st->st_ino;
}

typedef int (*loop_fn)(const char *loop, void *ctx);

/* Calls @fn for each loop device backed by @real; stops at nonzero. */
static int for_each_backing_loop(const char *real, const struct stat *st, loop_fn fn, void *ctx)
{
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	int ret = 0;

	if (!d)
		return 0;
	while (ret == 0 && (de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) == 0 &&
		    backing_file_matches(de->d_name, real, st))
			ret = fn(de->d_name, ctx);
	}
	closedir(d);
	return ret;
}

static int add_loop_devs(const char *loop, void *ctx)
{
	struct dev_list *l = ctx;
	char dir[PATH_MAX];
	dev_t d;
	int ret;

	snprintf(dir, sizeof(dir), "/sys/block/%s", loop);
	if (sysfs_devnum(dir, &d) < 0)
		return 0;
	ret = dev_list_add(l, d);
	return ret ? ret : add_partitions(l, dir);
}

static int collect_devs(const char *real, const struct stat *st, struct dev_list *l)
{
	char dir[PATH_MAX];
	int ret;

	if (S_ISREG(st->st_mode))
		return for_each_backing_loop(real, st, add_loop_devs, l);
	if (!S_ISBLK(st->st_mode))
		return 0;
	ret = dev_list_add(l, st->st_rdev);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	return add_partitions(l, dir);
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* mountinfo writes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && is_octal(s[1]) && is_octal(s[2]) && is_octal(s[3])) {
			*w++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

struct mount_entry {
	dev_t dev;
	char *target;
	char *source;
};

/*
 * "id parent maj:min root target options [optional...] - fstype source
 * superopts": six fixed fields, optional ones up to "-", then two more.
 */
static bool parse_mountinfo_line(char *line, struct mount_entry *m)
{
	char *field[6], *tok, *save = NULL;
	unsigned int ma, mi;
	int i;

	line[strcspn(line, "\n")] = '\0';
	for (i = 0; i < 6; i++) {
		field[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!field[i])
			return false;
	}
	if (sscanf(field[2], "%u:%u", &ma, &mi) != 2)
		return false;
	do
		tok = strtok_r(NULL, " ", &save);
	while (tok && strcmp(tok, "-") != 0);
	if (!tok || !strtok_r(NULL, " ", &save))
		return false;
	m->source = strtok_r(NULL, " ", &save);
	if (!m->source)
		return false;
	m->dev = makedev(ma, mi);
	m->target = field[4];
	unescape_octal(m->target);
	unescape_octal(m->source);
	return true;
}

static int find_mount(const char *real, const struct dev_list *l, char *where, size_t where_len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct mount_entry m;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f)
		return neg_errno();
	while (ret == 0 && getline(&line, &cap, f) >= 0) {
		if (!parse_mountinfo_line(line, &m))
			continue;
		if (dev_list_has(l, m.dev) || strcmp(m.source, real) == 0) {
			copy_str(where, where_len, m.target);
			ret = 1;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* The kernel refuses an O_EXCL open of a block device someone has claimed. */
static bool blkdev_claimed(const char *path)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == EBUSY;
}

struct where_buf {
	char *s;
	size_t len;
};

static int loop_claimed(const char *loop, void *ctx)
{
	struct where_buf *w = ctx;
	char node[PATH_MAX];

	snprintf(node, sizeof(node), "/dev/%s", loop);
	if (!blkdev_claimed(node))
		return 0;
	if (w->s && w->len > 0)
		snprintf(w->s, w->len, "%s, in use by another program", node);
	return 1;
}

static int check_claimed(const char *real, const struct stat *st, char *where, size_t where_len)
{
	struct where_buf w = {where, where_len};

	if (S_ISREG(st->st_mode))
		return for_each_backing_loop(real, st, loop_claimed, &w);
	if (S_ISBLK(st->st_mode) && blkdev_claimed(real)) {
		copy_str(where, where_len, "in use by another program");
		return 1;
	}
	return 0;
}

int f2fs_dev_is_busy(const char *path, char *where, size_t where_len)
{
	struct dev_list devs = {0};
	struct stat st;
	char *real;
	int ret;

	copy_str(where, where_len, "");
	real = realpath(path, NULL);
	if (!real)
		return neg_errno();
	if (stat(real, &st) < 0) {
		ret = neg_errno();
		goto out;
	}
	ret = collect_devs(real, &st, &devs);
	if (ret == 0)
		ret = find_mount(real, &devs, where, where_len);
	if (ret == 0)
		ret = check_claimed(real, &st, where, where_len);
out:
	free(devs.v);
	free(real);
	return ret;
}

/* ---- existing content ---- */

static void copy_probe_type(blkid_probe pr, char *type, size_t type_len)
{
	const char *val = NULL;

	if (blkid_probe_lookup_value(pr, "TYPE", &val, NULL) < 0 &&
	    blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL) < 0)
		val = "unknown";
	copy_str(type, type_len, val);
}

int f2fs_dev_probe_existing(const char *path, char *type, size_t type_len)
{
	blkid_probe pr;
	int ret;

	copy_str(type, type_len, "");
	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return neg_errno();
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_enable_partitions(pr, 1);
	ret = blkid_do_fullprobe(pr);
	if (ret == 0) {
		copy_probe_type(pr, type, type_len);
		ret = 1;
	} else if (ret == 1) {
		ret = 0;
	} else {
		ret = -EIO;
	}
	blkid_free_probe(pr);
	return ret;
}
