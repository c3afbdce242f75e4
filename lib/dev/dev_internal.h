/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the device layer: the vtable every backend fills, the device
 * struct, and the helpers the backends share.  A backend provides the I/O
 * only; the front end (device.c) checks ranges and the read-only flag once.
 * Backends: unix.c (regular files and block devices), memory.c (unit
 * tests), sparse.c (Android sparse images, held in memory), and stacked
 * layers (device.c: f2fs_dev_stack) that wrap another device -- the replay
 * engine's I/O scheduler and the repair undo journal are such layers.
 */
#ifndef F2FS_DEV_INTERNAL_H
#define F2FS_DEV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "f2fs/device.h"
#include "f2fs/zone.h"

#define ZERO_CHUNK (1u << 20)

struct dev_ops {
	int (*read)(struct f2fs_device *dev, void *buf, uint64_t off, size_t len);
	int (*write)(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
		     enum f2fs_dev_tag tag);
	int (*zero)(struct f2fs_device *dev, uint64_t off, uint64_t len);
	int (*discard)(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero);
	int (*flush)(struct f2fs_device *dev);
	int (*close)(struct f2fs_device *dev);
	void (*prefetch)(struct f2fs_device *dev, uint64_t off, uint64_t len);
	/* a backend holding the device in one array in memory: [off, off+len) in it
	 * (f2fs_dev_memory)
	 */
	void *(*memory)(struct f2fs_device *dev, uint64_t off, size_t len);
	/* zoned devices only (NULL otherwise); ranges are checked by zone.c */
	int (*report_zones)(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			    unsigned int max, unsigned int *nr);
	int (*zone_mgmt)(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off, uint64_t len);
};

struct f2fs_device {
	const struct dev_ops *ops;
	struct f2fs_dev_info info;
	struct f2fs_zone_info zones; /* model NONE unless the backend is zoned */
	char *path;
	bool readonly;
	union {
		struct {
			int fd;
			int dfd;	 /* opened O_DIRECT for aligned writes, or -1 */
			bool all_direct; /* every read and write through dfd (unix.c) */
			dev_t rdev;
			bool hints; /* F2FS_DEV_WRITE_HINTS, until the kernel refuses one */
			enum f2fs_write_life life; /* the hint set last (whint.c) */
		} sys;
		struct {
			unsigned char *buf;
			struct f2fs_zone *zones; /* an emulated zoned device, or NULL */
		} mem;
		struct multi *multi;	     /* multi.c: a volume over several devices */
		struct sparse_image *sparse; /* sparse.c: an Android sparse image */
		struct {
			struct f2fs_device *lower; /* owned: closed with this device */
			const struct f2fs_dev_layer_ops *ops;
			void *priv;
		} stack;
	};
};

/* -errno of the last failed call, -EIO when errno is unset. */
int dev_neg_errno(void);

/* A device of @path on @ops, or NULL without memory. */
struct f2fs_device *dev_alloc(const char *path, const struct dev_ops *ops);
void dev_free(struct f2fs_device *dev);

/* The first line of a (sysfs) file, without its newline. */
int dev_read_first_line(const char *path, char *buf, size_t len);

/* Zeros written through the backend: the fallback when no cheaper way works. */
int dev_write_zeros(struct f2fs_device *dev, uint64_t off, uint64_t len);

/* One line of /proc/self/mountinfo (busy.c), pointing into the line. */
struct dev_mount {
	dev_t dev;	    /* the mounted device's number */
	const char *target; /* the mount point */
	const char *source; /* the mount source, e.g. "/dev/sda1" */
	bool ro;	    /* read-only, by the mount's options or the filesystem's */
};

/*
 * Split @line in place into *@m, undoing mountinfo's octal escapes
 * ("\040" for a space).  False when the line is malformed.
 */
bool dev_parse_mountinfo_line(char *line, struct dev_mount *m);

/*
 * The use check of f2fs_target_classify for the file or block device
 * @real (a canonical path) with stat @st: fills t->use, t->mounted_ro,
 * t->mount_point and t->via.  Returns 0 or a negative errno.
 */
int dev_find_use(const char *real, const struct stat *st, struct f2fs_target *t);

/*
 * Zoned block devices (blkzoned.c): fill dev->zones from the queue's sysfs
 * attributes (model NONE for a regular device; -EOPNOTSUPP for a zoned one
 * this build cannot drive), and the report and reset/finish ioctls.
 */
int dev_blkzoned_probe(struct f2fs_device *dev);
/* Is block device @rdev host-managed (writes must reach it in order)? */
bool dev_blkzoned_host_managed(dev_t rdev);
int dev_blkzoned_report(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			unsigned int max, unsigned int *nr);
int dev_blkzoned_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off, uint64_t len);

#endif
