// SPDX-License-Identifier: GPL-2.0
/*
 * Is a target in use, and what does it hold?  In use means mounted (found in
 * /proc/self/mountinfo by device number -- the device's own, a partition's,
 * or that of a loop device backed by the image file -- or by the mount
 * source's path) or held: opened O_EXCL by someone else, which the kernel
 * shows by refusing our own O_EXCL open.  What it holds is libblkid's
 * answer.  f2fs_target_classify (target.c) asks for the first; tools ask
 * for the second when a volume does not open, to say what is there instead.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "dev_internal.h"

/* Copy @src into @dst, cut to fit. */
static void copy_str(char *dst, size_t dst_len, const char *src)
{
	size_t n;

	if (!dst || dst_len == 0)
		return;
	n = strnlen(src, dst_len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- is the target in use? ---- */

/* A device number that stands for the target, and the loop device it came through ("" if none). */
struct dev_entry {
	dev_t dev;
	char via[64];
};

struct dev_list {
	struct dev_entry *v;
	size_t n, cap;
};

static int dev_list_add(struct dev_list *l, dev_t d, const char *via)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct dev_entry *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].dev = d;
	copy_str(l->v[l->n].via, sizeof(l->v[l->n].via), via);
	l->n++;
	return 0;
}

static const struct dev_entry *dev_list_find(const struct dev_list *l, dev_t d)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].dev == d)
			return &l->v[i];
	return NULL;
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
static int add_partitions(struct dev_list *l, const char *dir, const char *via)
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
			ret = dev_list_add(l, part, via);
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
	char dir[PATH_MAX], node[PATH_MAX];
	dev_t d;
	int ret;

	snprintf(dir, sizeof(dir), "/sys/block/%s", loop);
	if (sysfs_devnum(dir, &d) < 0)
		return 0;
	snprintf(node, sizeof(node), "/dev/%s", loop);
	ret = dev_list_add(l, d, node);
	return ret ? ret : add_partitions(l, dir, node);
}

static int collect_devs(const char *real, const struct stat *st, struct dev_list *l)
{
	char dir[PATH_MAX];
	int ret;

	if (S_ISREG(st->st_mode))
		return for_each_backing_loop(real, st, add_loop_devs, l);
	if (!S_ISBLK(st->st_mode))
		return 0;
	ret = dev_list_add(l, st->st_rdev, "");
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	return add_partitions(l, dir, "");
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

/* Is "ro" one of the comma-separated @opts? */
static bool has_ro(const char *opts)
{
	size_t n;

	while (*opts) {
		n = strcspn(opts, ",");
		if (n == 2 && strncmp(opts, "ro", 2) == 0)
			return true;
		opts += n + (opts[n] == ',');
	}
	return false;
}

/*
 * "id parent maj:min root target options [optional...] - fstype source
 * superopts": six fixed fields, optional ones up to "-", then three more.
 */
bool dev_parse_mountinfo_line(char *line, struct dev_mount *m)
{
	char *field[6], *tok, *source, *super, *save = NULL;
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
	source = strtok_r(NULL, " ", &save);
	if (!source)
		return false;
	super = strtok_r(NULL, " ", &save);
	unescape_octal(field[4]);
	unescape_octal(source);
	m->dev = makedev(ma, mi);
	m->target = field[4];
	m->source = source;
	m->ro = has_ro(field[5]) || (super && has_ro(super));
	return true;
}

/* Record mount @m of the target: the first one, unless a read-write one comes later. */
static void note_mount(struct f2fs_target *t, const struct dev_mount *m, const char *via)
{
	bool first = t->use != F2FS_USE_MOUNTED;

	if (first || (t->mounted_ro && !m->ro)) {
		copy_str(t->mount_point, sizeof(t->mount_point), m->target);
		copy_str(t->via, sizeof(t->via), via);
	}
	t->mounted_ro = (first || t->mounted_ro) && m->ro;
	t->use = F2FS_USE_MOUNTED;
}

static int find_mounts(const char *real, const struct dev_list *l, struct f2fs_target *t)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	const struct dev_entry *e;
	struct dev_mount m;
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return dev_neg_errno();
	while (getline(&line, &cap, f) >= 0) {
		if (!dev_parse_mountinfo_line(line, &m))
			continue;
		e = dev_list_find(l, m.dev);
		if (e)
			note_mount(t, &m, e->via);
		else if (strcmp(m.source, real) == 0)
			note_mount(t, &m, "");
	}
	free(line);
	fclose(f);
	return 0;
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

static int loop_claimed(const char *loop, void *ctx)
{
	struct f2fs_target *t = ctx;
	char node[PATH_MAX];

	snprintf(node, sizeof(node), "/dev/%s", loop);
	if (!blkdev_claimed(node))
		return 0;
	copy_str(t->via, sizeof(t->via), node);
	return 1;
}

/* The pid of the flock on the file of @st that /proc/locks lists first, or 0. */
static long lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	long pid = 0;

	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long ino;
		long p;

		if (sscanf(line, "%*s FLOCK %*s %*s %ld %x:%x:%lu", &p, &maj, &min, &ino) == 4 &&
		    maj == major(st->st_dev) && min == minor(st->st_dev) && ino == st->st_ino)
			pid = p;
	}
	fclose(f);
	return pid;
}

/* Whether another program writes the image file (it holds the exclusive flock); who, in @t. */
static bool file_locked(const char *real, const struct stat *st, struct f2fs_target *t)
{
	int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	char comm[32] = "", path[64];
	bool locked;
	long pid;

	if (fd < 0)
		return false;
	locked = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	if (!locked)
		return false;
	pid = lock_holder(st);
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (pid && dev_read_first_line(path, comm, sizeof(comm)) == 0)
		snprintf(t->via, sizeof(t->via), "pid %ld (%s)", pid, comm);
	else if (pid)
		snprintf(t->via, sizeof(t->via), "pid %ld", pid);
	return true;
}

static void find_holder(const char *real, const struct stat *st, struct f2fs_target *t)
{
	bool held;

	if (S_ISREG(st->st_mode))
		held = for_each_backing_loop(real, st, loop_claimed, t) > 0;
	else
		held = blkdev_claimed(real);
	if (held)
		t->use = F2FS_USE_HELD;
	else if (S_ISREG(st->st_mode) && file_locked(real, st, t))
		t->use = F2FS_USE_LOCKED;
}

int dev_find_use(const char *real, const struct stat *st, struct f2fs_target *t)
{
	struct dev_list devs = {0};
	int ret;

	t->use = F2FS_USE_FREE;
	t->mounted_ro = false;
	t->mount_point[0] = '\0';
	t->via[0] = '\0';
	ret = collect_devs(real, st, &devs);
	if (ret == 0)
		ret = find_mounts(real, &devs, t);
	if (ret == 0 && t->use == F2FS_USE_FREE)
		find_holder(real, st, t);
	free(devs.v);
	return ret;
}

int f2fs_dev_is_busy(const char *path, char *where, size_t where_len)
{
	struct f2fs_target *t = malloc(sizeof(*t));
	int ret;

	copy_str(where, where_len, "");
	if (!t)
		return -ENOMEM;
	ret = f2fs_target_classify(path, F2FS_TARGET_USE, t);
	if (ret == 0 && t->use == F2FS_USE_MOUNTED) {
		copy_str(where, where_len, t->mount_point);
		ret = 1;
	} else if (ret == 0 && t->use == F2FS_USE_LOCKED) {
		if (where && where_len > 0)
			snprintf(where, where_len, "written by another program%s%s",
				 t->via[0] ? ", " : "", t->via);
		ret = 1;
	} else if (ret == 0 && t->use == F2FS_USE_HELD) {
		if (where && where_len > 0)
			snprintf(where, where_len, "%s%sin use by another program", t->via,
				 t->via[0] ? ", " : "");
		ret = 1;
	}
	free(t);
	return ret;
}

/* ---- existing content ---- */

static const char *probe_value(blkid_probe pr, const char *name)
{
	const char *val = NULL;

	if (blkid_probe_lookup_value(pr, name, &val, NULL) < 0)
		return NULL;
	return val;
}

static void fill_content(blkid_probe pr, struct f2fs_content *out)
{
	const char *type = probe_value(pr, "TYPE"), *usage = probe_value(pr, "USAGE");
	const char *pttype = probe_value(pr, "PTTYPE");

	if (type && strcmp(type, "f2fs") == 0)
		out->kind = F2FS_CONTENT_F2FS;
	else if (type && usage && strcmp(usage, "filesystem") == 0)
		out->kind = F2FS_CONTENT_FILESYSTEM;
	else if (type)
		out->kind = F2FS_CONTENT_OTHER;
	else if (pttype)
		out->kind = F2FS_CONTENT_PARTITIONS;
	else
		return; /* a result without a type: nothing we can name */
	copy_str(out->name, sizeof(out->name), type ? type : pttype);
}

int f2fs_dev_probe_content(const char *path, struct f2fs_content *out)
{
	blkid_probe pr;
	int ret;

	memset(out, 0, sizeof(*out));
	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return dev_neg_errno();
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	ret = blkid_do_safeprobe(pr);
	if (ret == 0)
		fill_content(pr, out);
	else if (ret == -2)
		out->kind = F2FS_CONTENT_AMBIGUOUS;
	blkid_free_probe(pr);
	return ret == -1 ? -EIO : 0;
}

int f2fs_dev_probe_existing(const char *path, char *type, size_t type_len)
{
	struct f2fs_content c;
	int ret;

	copy_str(type, type_len, "");
	ret = f2fs_dev_probe_content(path, &c);
	if (ret < 0 || c.kind == F2FS_CONTENT_NONE)
		return ret;
	copy_str(type, type_len, c.kind == F2FS_CONTENT_AMBIGUOUS ? "ambivalent" : c.name);
	return 1;
}
