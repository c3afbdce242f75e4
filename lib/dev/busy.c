// SPDX-License-Identifier: GPL-2.0
/*
 * The safety checks run before a tool writes: is the target mounted or held
 * (by device number, by mount source, or through a loop device backed by an
 * image file), and does it already carry a filesystem (libblkid).
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

#include "dev_internal.h"

static void copy_str(char *dst, size_t dst_len, const char *src)
{
	if (dst && dst_len > 0)
		snprintf(dst, dst_len, "%s", src);
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
	    dev_read_first_line(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
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
	if (dev_read_first_line(path, backing, sizeof(backing)) < 0)
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
		return dev_neg_errno();
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
		return dev_neg_errno();
	if (stat(real, &st) < 0) {
		ret = dev_neg_errno();
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
		return dev_neg_errno();
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
