// SPDX-License-Identifier: GPL-2.0
/*
 * The target rules of the tools (see target.h): the device layer says what
 * a path is, whether it is mounted or held, and what libblkid finds on it;
 * this file turns that into a tool's decision and its one line.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/device.h"
#include "f2fs/format.h"
#include "f2fs/undo.h"
#include "f2fs/volume.h"
#include "tools/common/target.h"

/* The second superblock copy sits in block 1: a smaller target holds no F2FS. */
#define SUPERBLOCKS_END                                                                            \
	((uint64_t)F2FS_BLKSIZE + F2FS_SUPER_OFFSET + sizeof(struct f2fs_super_block))

static const char *kind_name(enum f2fs_target_kind kind)
{
	switch (kind) {
	case F2FS_TARGET_DIRECTORY:
		return "a directory";
	case F2FS_TARGET_CHARDEV:
		return "a character device";
	case F2FS_TARGET_FIFO:
		return "a FIFO";
	case F2FS_TARGET_SOCKET:
		return "a socket";
	default:
		return "of an unknown file type";
	}
}

/* "mounted at /mnt", "in use by the system through /dev/loop3 (held open exclusively)"... */
static void describe_use(const struct f2fs_target *tg, char *out, size_t len)
{
	const char *through = tg->via[0] ? " through " : "";

	if (tg->use == F2FS_USE_MOUNTED)
		snprintf(out, len, "mounted%s at %s%s%s", tg->mounted_ro ? " read-only" : "",
			 tg->mount_point, through, tg->via);
	else if (tg->use == F2FS_USE_LOCKED)
		snprintf(out, len,
			 "being written by another program%s%s (it holds the image's lock)",
			 tg->via[0] ? ", " : "", tg->via);
	else
		snprintf(out, len, "in use by the system%s%s (held open exclusively)", through,
			 tg->via);
}

static const char *refusal(enum tool_access access)
{
	if (access == TOOL_REPAIRS)
		return "refusing a run that may repair it (-n checks without writing)";
	return "refusing to write to it";
}

/* Busy: warn and go on, or refuse; returns whether the run may still write. */
static bool judge_use(struct tool *t, const struct f2fs_target *tg, enum tool_access access,
		      int status)
{
	char use[PATH_MAX + 160];

	describe_use(tg, use, sizeof(use));
	if (access == TOOL_READS) {
		tool_warn(t, "%s: %s%s", t->image, use,
			  tg->mounted_ro ? "" : ": the result may be stale");
		return false;
	}
	if (access == TOOL_REPAIRS && tg->mounted_ro) {
		tool_warn(t, "%s: %s: checking only, nothing will be repaired", t->image, use);
		return false;
	}
	tool_fail_image(t, status, "%s: %s", use, refusal(access));
}

static void check_size(const struct tool *t, const struct f2fs_target *tg, int status)
{
	if (tg->size_bytes < SUPERBLOCKS_END)
		tool_fail_image(t, status,
				"too short for an F2FS superblock (%llu bytes; its two copies "
				"need %llu)",
				(unsigned long long)tg->size_bytes,
				(unsigned long long)SUPERBLOCKS_END);
}

bool tool_check_target(struct tool *t, enum tool_access access, int status)
{
	struct f2fs_target tg;
	int ret;

	ret = f2fs_target_classify(t->image, F2FS_TARGET_SIZE, &tg);
	if (ret)
		tool_fail_image(t, status, "cannot open: %s", strerror(-ret));
	if (tg.kind != F2FS_TARGET_REGULAR && tg.kind != F2FS_TARGET_BLOCKDEV)
		tool_fail_image(t, status, "is %s, not a regular file or block device",
				kind_name(tg.kind));
	check_size(t, &tg, status);
	ret = f2fs_target_classify(t->image, F2FS_TARGET_USE, &tg);
	if (ret && access != TOOL_READS)
		tool_fail_image(t, status, "cannot tell whether it is in use: %s", strerror(-ret));
	if (ret)
		tool_warn(t, "%s: cannot tell whether it is in use: %s", t->image, strerror(-ret));
	if (ret || tg.use == F2FS_USE_FREE)
		return access != TOOL_READS;
	return judge_use(t, &tg, access, status);
}

void tool_check_sparse_support(const struct tool *t, int status)
{
	if (!f2fs_dev_sparse_supported())
		tool_fail(t, status,
			  "-S: this build cannot read or write Android sparse images "
			  "(built without android-libsparse)");
}

/* Open t->image as an Android sparse image, or say in one line why it is none. */
static struct f2fs_device *open_sparse(const struct tool *t, unsigned int flags, int status)
{
	struct f2fs_device *dev;
	int ret;

	tool_check_sparse_support(t, status);
	ret = f2fs_dev_sparse_open(t->image, flags, &dev);
	if (ret == -EINVAL && f2fs_dev_sparse_probe(t->image) == 0)
		tool_fail_image(t, status, "not an Android sparse image (-S expects one)");
	if (ret == -EINVAL)
		tool_fail_image(t, status,
				"a damaged Android sparse image: libsparse cannot read its chunks");
	if (ret == -EFBIG)
		tool_fail_image(t, status, "an Android sparse image whose block size is not %u",
				F2FS_BLKSIZE);
	if (ret == -EBUSY)
		tool_fail_image(t, status,
				"being written by another program (it holds the "
				"image's lock): refusing to write to it");
	if (ret)
		tool_fail_image(t, status, "cannot open: %s", strerror(-ret));
	return dev;
}

struct f2fs_device *tool_open_for_writing(struct tool *t, int status, unsigned int flags)
{
	struct f2fs_target held = {.use = F2FS_USE_HELD};
	struct f2fs_device *dev;
	int ret;

	if (t->sparse)
		return open_sparse(t, 0, status);
	ret = f2fs_dev_open(t->image, F2FS_DEV_EXCL | (flags & ~F2FS_VOLUME_GROW_LAST), &dev);

	if (ret == -EBUSY) {
		/* someone claimed it since the check: say who if it can be told */
		tool_check_target(t, TOOL_WRITES, status);
		judge_use(t, &held, TOOL_WRITES, status);
	}
	if (ret)
		tool_fail_image(t, status, "cannot open for writing: %s", strerror(-ret));
	return tool_join_members(t, dev, TOOL_WRITES, F2FS_DEV_EXCL | flags, status);
}

struct f2fs_device *tool_open_for_reading(struct tool *t, int status)
{
	struct f2fs_device *dev;
	int ret;

	if (t->sparse)
		return open_sparse(t, F2FS_DEV_RDONLY, status);
	ret = f2fs_dev_open(t->image, F2FS_DEV_RDONLY, &dev);

	if (ret)
		tool_fail_image(t, status, "cannot open: %s", strerror(-ret));
	return tool_join_members(t, dev, TOOL_READS, F2FS_DEV_RDONLY, status);
}

struct member_check {
	struct tool *t;
	enum tool_access access;
	int status;
};

/* A member of the volume passes the checks its first device passed. */
static int check_member(const char *path, void *arg)
{
	struct member_check *c = arg;
	const char *image = c->t->image;
	struct stat st;

	if (stat(path, &st) < 0)
		tool_fail_image(c->t, c->status, "cannot open %s, a device of this volume: %s",
				path, strerror(errno));
	c->t->image = path;
	tool_check_target(c->t, c->access, c->status);
	c->t->image = image;
	return 0;
}

struct f2fs_device *tool_join_members(struct tool *t, struct f2fs_device *dev,
				      enum tool_access access, unsigned int flags, int status)
{
	struct member_check c = {t, access, status};
	char why[512];
	int ret;

	ret = f2fs_volume_open_members(&dev, flags, check_member, &c, why, sizeof(why));
	if (ret) {
		f2fs_dev_close(dev);
		tool_fail_image(t, status, "%s", why);
	}
	return dev;
}

struct f2fs_device *tool_undo_stack(const struct tool *t, struct f2fs_device *dev,
				    const char *journal, int status)
{
	struct f2fs_device *top;
	int ret;

	if (!journal)
		return dev;
	ret = f2fs_undo_stack(dev, journal, &top);
	if (!ret)
		return top;
	f2fs_dev_close(dev);
	tool_fail(t, status, "--undo %s: %s", journal,
		  ret == -EEXIST ? "that is the device itself" : strerror(-ret));
}

/* "an ext4", "a btrfs": the article by the name's first letter, as it is spelled. */
static const char *article(const char *name)
{
	return name[0] && strchr("aeiouAEIOU", name[0]) ? "an" : "a";
}

void tool_not_f2fs_reason(const struct tool *t, int err, const char *why, char *out, size_t len)
{
	struct f2fs_content c;

	if (!why || !why[0])
		why = strerror(-err);
	if (err == -ENOMEM || f2fs_dev_probe_content(t->image, &c) < 0)
		c.kind = F2FS_CONTENT_NONE;
	switch (c.kind) {
	case F2FS_CONTENT_FILESYSTEM:
		snprintf(out, len, "holds %s %s filesystem, not F2FS", article(c.name), c.name);
		break;
	case F2FS_CONTENT_PARTITIONS:
		snprintf(out, len,
			 "holds %s %s partition table, not a filesystem: give one of its "
			 "partitions",
			 article(c.name), c.name);
		break;
	case F2FS_CONTENT_OTHER:
		snprintf(out, len, "holds %s %s signature, not F2FS", article(c.name), c.name);
		break;
	case F2FS_CONTENT_AMBIGUOUS:
		snprintf(out, len, "%s; libblkid finds conflicting signatures of other formats",
			 why);
		break;
	default: /* nothing known, or a damaged F2FS: the loader's reason says more */
		if (!t->sparse && f2fs_dev_sparse_probe(t->image) == 1)
			snprintf(out, len, "holds an Android sparse image: give -S to read it");
		else
			snprintf(out, len, "%s", why);
	}
}
