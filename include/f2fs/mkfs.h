/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Formatting a volume: the choices mkfs.f2fs parses from its command line,
 * and the one call that writes a fresh file system onto a device.
 */
#ifndef F2FS_MKFS_H
#define F2FS_MKFS_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/layout.h"

struct f2fs_mkfs_config {
	struct f2fs_layout_params geometry;
	uint32_t features;
	const char *label; /* UTF-8, at most 512 UTF-16 units */
	uint8_t uuid[16];  /* used when uuid_given */
	bool uuid_given;
	const char *cold_extensions; /* -e: comma list added to the defaults */
	const char *hot_extensions;  /* -E */
	uint32_t root_uid, root_gid;
	bool discard;			       /* -t 1: discard the whole device first */
	bool fixed_cp_version;		       /* -r: reproducible checkpoint version */
	bool no_nat_bits;		       /* the checkpoint without nat_bits (-g android) */
	int64_t fixed_time;		       /* -T: timestamp for every inode, -1 for now */
	uint16_t s_encoding, s_encoding_flags; /* -C */
	char kernel_version[F2FS_VERSION_LEN]; /* recorded in the superblock */
	/*
	 * A volume on several devices: the path the kernel opens each by,
	 * recorded in the superblock (at most F2FS_MAX_PATH_LEN bytes).
	 */
	const char *paths[F2FS_LAYOUT_MAX_DEVICES];
};

/* What the writer did, for the tool to report. */
struct f2fs_mkfs_result {
	bool discarded; /* the device was discarded (CP_TRIMMED_FLAG set) */
	uint64_t cp_version;
	uint32_t lost_found_ino; /* 0 when not created */
	uint32_t quota_ino[F2FS_MAX_QUOTAS];
	uint8_t uuid[16];
};

void f2fs_mkfs_config_init(struct f2fs_mkfs_config *cfg);

/*
 * Describe the devices a volume is to be made on (the first holds the
 * metadata; @n 1..8, already open) in cfg->geometry: their sizes (their sum
 * as total_sectors, all in the first's sector size), and with @zoned_mode
 * (-m) the zone geometry -- sections are the zones, whose size must be a
 * power of two holding whole segments and the same on every zoned device --
 * and each zoned device's randomly writable zones and usable segments.  A
 * zoned device without -m, -m without one, -m without discard, and a
 * host-managed first device without conventional zones are refused:
 * -EINVAL with @why naming the device.  One regular device without -m
 * leaves the geometry as it was.
 */
int f2fs_mkfs_describe_devices(struct f2fs_mkfs_config *cfg, struct f2fs_device *const *devs,
			       unsigned int n, bool zoned_mode, char *why, size_t len);

/* Number of quota inodes the features ask for (user+group, plus project). */
unsigned int f2fs_mkfs_quota_types(uint32_t features, unsigned int types[F2FS_MAX_QUOTAS]);

/*
 * Write a new file system with layout @l onto @dev (the devices of a
 * multi-device volume joined by f2fs_dev_concat).  The superblocks are
 * written last, after a flush, so an interrupted format leaves no valid one.
 * On a zoned volume (geometry.zoned) the sequential zones are reset instead
 * of discarded, and only the randomly writable space before the first one
 * is discarded or zeroed.
 */
int f2fs_mkfs_format(struct f2fs_device *dev, const struct f2fs_mkfs_config *cfg,
		     const struct f2fs_layout *l, struct f2fs_mkfs_result *res);

#endif
