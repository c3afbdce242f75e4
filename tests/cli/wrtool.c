// SPDX-License-Identifier: GPL-2.0
/*
 * wrtool: drive the write path from a test script.
 *
 *	wrtool [--mirror DIR] IMAGE COMMAND...
 *
 * Commands run in order on IMAGE opened for writing:
 *	mkdir PATH | create PATH | write PATH OFFSET LENGTH SEED |
 *	truncate PATH SIZE | unlink PATH | rename OLD NEW | fsync PATH |
 *	setxattr PATH INDEX NAME VALUE | setflags PATH FLAGS |
 *	sync | umount | abort | nomirror
 * "sync" and "umount" write a checkpoint (umount: a clean unmount's);
 * "abort" stops at once, dropping what no checkpoint or fsync wrote, as a
 * power cut would.  Without either the handle is closed the same way.
 * With --mirror, every namespace and data command is applied to the host
 * directory DIR as well, so a test can compare the volume with DIR;
 * "nomirror" stops that (for changes a power cut is expected to drop).  The
 * bytes a write puts are a function of SEED and the offset alone.
 * setxattr stores an xattr under any name index, also those no host
 * name has (the mirror is not told); setflags sets i_flags (FS_IOC_SETFLAGS
 * bits, e.g. 0x40 nodump).
 * Prints "fsync PATH: checkpoint" or "fsync PATH: roll-forward" per fsync.
 * Exit status: 0, or 1 with a one-line reason.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs/fs.h"
#include "f2fs/write.h"

struct ctx {
	struct f2fs_fs *fs;
	const char *mirror;
	int argc, i;
	char **argv;
};

static void die(const char *fmt, const char *a, int err)
{
	fprintf(stderr, "wrtool: ");
	fprintf(stderr, fmt, a);
	fprintf(stderr, ": %s\n", strerror(err < 0 ? -err : err));
	exit(1);
}

static const char *arg(struct ctx *c)
{
	if (c->i >= c->argc) {
		fprintf(stderr, "wrtool: %s: missing argument\n", c->argv[c->i - 1]);
		exit(1);
	}
	return c->argv[c->i++];
}

static uint64_t num(struct ctx *c)
{
	const char *s = arg(c);
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end)
		die("%s: not a number", s, EINVAL);
	return v;
}

/* Split /a/b/c into the inode of /a/b and "c". */
static uint32_t parent_of(struct ctx *c, const char *path, const char **name)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	uint32_t ino;
	int ret;

	if (!slash || path[0] != '/')
		die("%s: not an absolute path", path, EINVAL);
	*name = slash + 1;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path ? slash - path : 1), path);
	ret = f2fs_path_lookup(c->fs, dir, &ino);
	if (ret)
		die("%s: parent directory", path, ret);
	return ino;
}

static uint32_t lookup(struct ctx *c, const char *path)
{
	uint32_t ino;
	int ret = f2fs_path_lookup(c->fs, path, &ino);

	if (ret)
		die("%s", path, ret);
	return ino;
}

static char *host(struct ctx *c, const char *path)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf), "%s%s", c->mirror, path);
	return buf;
}

static void pattern(uint8_t *buf, size_t len, uint64_t off, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t x = (off + i) / 8 * 0x9e3779b97f4a7c15ull ^ seed * 0xbf58476d1ce4e5b9ull;

		x ^= x >> 29;
		buf[i] = (uint8_t)(x >> (8 * ((off + i) % 8)));
	}
}

static void make(struct ctx *c, const char *path, uint16_t mode)
{
	struct f2fs_new_inode a;
	const char *name;
	uint32_t dir = parent_of(c, path, &name), ino;
	int ret;

	f2fs_new_inode_init(&a, mode, 1700000000);
	ret = f2fs_create(c->fs, dir, name, strlen(name), &a, NULL, &ino);
	if (ret)
		die("create %s", path, ret);
	if (c->mirror &&
	    (S_ISDIR(mode) ? mkdir(host(c, path), mode & 07777)
			   : close(open(host(c, path), O_CREAT | O_WRONLY, mode & 07777))))
		die("mirror %s", path, errno);
}

static void do_write(struct ctx *c)
{
	const char *path = arg(c);
	uint64_t off = num(c), len = num(c), seed = num(c);
	uint8_t *buf = malloc(len ? len : 1);
	int ret, fd;

	if (!buf)
		die("%s", path, ENOMEM);
	pattern(buf, len, off, seed);
	ret = f2fs_pwrite(c->fs, lookup(c, path), buf, len, off);
	if (ret)
		die("write %s", path, ret);
	if (c->mirror) {
		fd = open(host(c, path), O_WRONLY);
		if (fd < 0 || pwrite(fd, buf, len, (off_t)off) != (ssize_t)len || close(fd))
			die("mirror write %s", path, errno);
	}
	free(buf);
}

static void do_command(struct ctx *c, const char *cmd)
{
	struct f2fs_cp_request req = {0};
	const char *path, *name, *to;
	bool cp;
	int ret = 0;

	if (!strcmp(cmd, "mkdir")) {
		make(c, arg(c), S_IFDIR | 0755);
	} else if (!strcmp(cmd, "create")) {
		make(c, arg(c), S_IFREG | 0644);
	} else if (!strcmp(cmd, "write")) {
		do_write(c);
	} else if (!strcmp(cmd, "truncate")) {
		path = arg(c);
		uint64_t size = num(c);

		ret = f2fs_truncate(c->fs, lookup(c, path), size);
		if (!ret && c->mirror && truncate(host(c, path), (off_t)size))
			die("mirror truncate %s", path, errno);
	} else if (!strcmp(cmd, "unlink")) {
		path = arg(c);
		uint32_t dir = parent_of(c, path, &name);

		ret = f2fs_unlink(c->fs, dir, name, strlen(name));
		if (!ret && c->mirror && remove(host(c, path)))
			die("mirror unlink %s", path, errno);
	} else if (!strcmp(cmd, "rename")) {
		const char *nname;
		char hold[8192];

		path = arg(c);
		to = arg(c);
		uint32_t od = parent_of(c, path, &name), nd = parent_of(c, to, &nname);

		ret = f2fs_rename(c->fs, od, name, strlen(name), nd, nname, strlen(nname), false);
		snprintf(hold, sizeof(hold), "%s", host(c, path));
		if (!ret && c->mirror && rename(hold, host(c, to)))
			die("mirror rename %s", path, errno);
	} else if (!strcmp(cmd, "setxattr")) {
		path = arg(c);
		uint64_t index = num(c);

		name = arg(c);
		to = arg(c);
		ret = f2fs_setxattr(c->fs, lookup(c, path), (uint8_t)index, name, to, strlen(to));
	} else if (!strcmp(cmd, "setflags")) {
		struct f2fs_setattr s = {.set_flags = true,
					 .atime = UINT64_MAX,
					 .mtime = UINT64_MAX,
					 .ctime = UINT64_MAX};

		path = arg(c);
		s.flags = (uint32_t)num(c);
		ret = f2fs_setattr(c->fs, lookup(c, path), &s);
	} else if (!strcmp(cmd, "fsync")) {
		path = arg(c);
		ret = f2fs_fsync(c->fs, lookup(c, path), false, &cp);
		if (!ret)
			printf("fsync %s: %s\n", path, cp ? "checkpoint" : "roll-forward");
	} else if (!strcmp(cmd, "sync") || !strcmp(cmd, "umount")) {
		req.reason = !strcmp(cmd, "sync") ? F2FS_CP_SYNC : F2FS_CP_UMOUNT;
		ret = f2fs_checkpoint(c->fs, &req);
	} else if (!strcmp(cmd, "nomirror")) {
		c->mirror = NULL;
	} else if (!strcmp(cmd, "abort")) {
		f2fs_fs_close(c->fs);
		exit(0);
	} else {
		die("%s: unknown command", cmd, EINVAL);
	}
	if (ret)
		die("%s", cmd, ret);
}

int main(int argc, char **argv)
{
	struct ctx c = {.argc = argc, .argv = argv, .i = 1};
	struct f2fs_device *dev;
	char why[256];
	int ret;

	if (argc > 2 && !strcmp(argv[1], "--mirror")) {
		c.mirror = argv[2];
		c.i = 3;
	}
	if (c.i >= argc) {
		fprintf(stderr, "usage: wrtool [--mirror DIR] IMAGE COMMAND...\n");
		return 1;
	}
	ret = f2fs_dev_open(argv[c.i], 0, &dev);
	if (ret)
		die("%s", argv[c.i], ret);
	ret = f2fs_fs_open(dev, F2FS_FS_WRITE, &c.fs, why, sizeof(why));
	if (ret)
		die(why, "", ret);
	for (c.i++; c.i < argc;)
		do_command(&c, argv[c.i++]);
	f2fs_fs_close(c.fs);
	return f2fs_dev_close(dev) ? 1 : 0;
}
