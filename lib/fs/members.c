// SPDX-License-Identifier: GPL-2.0
/*
 * The devices of a multi-device volume.  Its first device holds the
 * superblocks, and they list every device by the path the kernel opens it
 * by, with its segments.  A tool opens the first device; this finds the
 * others from the superblock, opens each (after the tool's own check of it:
 * busy, mounted, what it is), checks that each holds the segments the volume
 * puts on it, and joins them into one device (f2fs_dev_concat) for the rest
 * of the library.  A volume on one device is left as it is.
 *
 * Every device is joined at the share the superblock records, except under
 * F2FS_VOLUME_GROW_LAST (resize.f2fs): then the last device counts in full,
 * so that the volume can grow into it, and a device before it that holds a
 * whole zone (segments per zone) more than its share is refused, as the
 * volume could never use that space (only the last device's share can
 * grow: each device's blocks follow the one before's).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"
#include "f2fs/zone.h"
#include "fs_internal.h"

static void say(char *why, size_t len, const char *fmt, const char *a, const char *b)
{
	if (why && len)
		snprintf(why, len, fmt, a, b);
}

static void say_grown(char *why, size_t len, const char *path, uint64_t has, uint64_t share)
{
	if (why && len)
		snprintf(
		    why, len,
		    "%s holds %llu MiB, more than the %llu MiB the volume puts on it: only the "
		    "last device of a volume can grow",
		    path, (unsigned long long)(has >> 20), (unsigned long long)(share >> 20));
}

static void say_short(char *why, size_t len, const char *path, uint64_t has, uint64_t need)
{
	if (why && len)
		snprintf(
		    why, len,
		    "%s holds %llu MiB, less than the %llu MiB the volume puts on it (cut short?)",
		    path, (unsigned long long)(has >> 20), (unsigned long long)(need >> 20));
}

/* "/dev/vda /dev/vdb ...": the list a message names. */
static void list_paths(const struct f2fs_sb_device *d, unsigned int n, char *out, size_t len)
{
	size_t used = 0;
	unsigned int i;

	out[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", d[i].path);
}

/* Open member @i of the @n listed (blocks of @blksize bytes), checked first by @check. */
static int open_member(const struct f2fs_sb_device *d, unsigned int n, unsigned int i,
		       uint32_t blksize, unsigned int flags,
		       int (*check)(const char *path, void *arg), void *arg,
		       struct f2fs_device **out, char *why, size_t why_len)
{
	uint64_t need = (d[i].last_blkaddr - d[i].first_blkaddr + 1) * blksize;
	char all[F2FS_MAX_DEVICES * (F2FS_MAX_PATH_LEN + 2)];
	int ret;

	if (check) {
		ret = check(d[i].path, arg);
		if (ret < 0)
			return ret;
	}
	ret = f2fs_dev_open(d[i].path, flags, out);
	if (ret < 0) {
		list_paths(d, n, all, sizeof(all));
		if (why && why_len)
			snprintf(why, why_len,
				 "cannot open %s: %s (the volume spans %u devices: %s)", d[i].path,
				 strerror(-ret), n, all);
		return ret;
	}
	if (f2fs_dev_get_info(*out)->size_bytes < need) {
		say_short(why, why_len, d[i].path, f2fs_dev_get_info(*out)->size_bytes, need);
		f2fs_dev_close(*out);
		*out = NULL;
		return -ENOSPC;
	}
	return 0;
}

/* Bytes of one zone of the volume: what mkfs leaves unused of a device is less. */
static uint64_t zone_bytes(const struct f2fs_super_block *sb)
{
	return (uint64_t)le32_get(sb->segs_per_sec) * le32_get(sb->secs_per_zone) *
	       F2FS_DEFAULT_BLKS_PER_SEG * f2fs_sb_blksize(sb);
}

/*
 * F2FS_VOLUME_GROW_LAST: the last of the @n opened @members joins in whole
 * blocks of its full size (a zoned one keeps its share: zones are not
 * grown into this way), after every member before it is checked not to
 * have grown by a zone or more.
 */
static int grow_last(const struct f2fs_super_block *sb, struct f2fs_device *const *members,
		     unsigned int n, uint64_t *lens, char *why, size_t why_len)
{
	uint32_t blksize = f2fs_sb_blksize(sb);
	uint64_t has;
	unsigned int i;

	for (i = 0; i + 1 < n; i++) {
		has = f2fs_dev_get_info(members[i])->size_bytes;
		if (has >= lens[i] + zone_bytes(sb)) {
			say_grown(why, why_len, f2fs_dev_path(members[i]), has, lens[i]);
			return -EINVAL;
		}
	}
	has = f2fs_dev_get_info(members[n - 1])->size_bytes / blksize * blksize;
	if (f2fs_dev_zone_info(members[n - 1])->model == F2FS_ZONED_NONE && has > lens[n - 1])
		lens[n - 1] = has;
	return 0;
}

int f2fs_volume_open_members(struct f2fs_device **dev, unsigned int flags,
			     int (*check)(const char *path, void *arg), void *arg, char *why,
			     size_t why_len)
{
	struct f2fs_device *members[F2FS_MAX_DEVICES] = {*dev}, *vol;
	struct f2fs_sb_device d[F2FS_MAX_DEVICES];
	uint64_t lens[F2FS_MAX_DEVICES];
	unsigned int open_flags = flags & ~(unsigned int)F2FS_VOLUME_GROW_LAST;
	struct f2fs_super_block sb;
	unsigned int n, i;
	int ret;

	if (f2fs_dev_members(*dev) > 1 || f2fs_volume_read_super(*dev, &sb, NULL, 0) < 0)
		return 0; /* joined already, or no volume: f2fs_fs_open says what is wrong */
	n = f2fs_super_devices(&sb, d);
	if (n <= 1)
		return 0;
	for (i = 0; i < n; i++)
		lens[i] = (d[i].last_blkaddr - d[i].first_blkaddr + 1) * f2fs_sb_blksize(&sb);
	ret = f2fs_dev_get_info(*dev)->size_bytes < lens[0] ? -ENOSPC : 0;
	if (ret < 0)
		say_short(why, why_len, f2fs_dev_path(*dev), f2fs_dev_get_info(*dev)->size_bytes,
			  lens[0]);
	for (i = 1; i < n && ret == 0; i++)
		ret = open_member(d, n, i, f2fs_sb_blksize(&sb), open_flags, check, arg,
				  &members[i], why, why_len);
	if (ret == 0 && (flags & F2FS_VOLUME_GROW_LAST))
		ret = grow_last(&sb, members, n, lens, why, why_len);
	if (ret == 0) {
		ret = f2fs_dev_concat(members, lens, n, &vol);
		if (ret < 0)
			say(why, why_len, "cannot join the volume's devices: %s%s", strerror(-ret),
			    ret == -EINVAL ? " (zones of different sizes?)" : "");
	}
	if (ret < 0) {
		for (i = 1; i < n; i++)
			f2fs_dev_close(members[i]);
		return ret;
	}
	*dev = vol;
	return 0;
}
