/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device layer: every block access of the tools goes through a struct
 * f2fs_device, a small vtable with a regular-file/block-device backend and an
 * in-memory backend for tests.  Functions return 0 or a negative errno and
 * never exit; callers explain a failure with strerror(-ret).
 */
#ifndef F2FS_DEVICE_H
#define F2FS_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct f2fs_device;

enum f2fs_dev_open_flags {
	F2FS_DEV_RDONLY = 1 << 0,
	F2FS_DEV_EXCL = 1 << 1, /* O_EXCL on block devices: fail if mounted or held */
};

struct f2fs_dev_info {
	uint64_t size_bytes;   /* usable bytes: file size or BLKGETSIZE64 */
	uint32_t sector_size;  /* logical sector size (512 for regular files) */
	uint64_t start_sector; /* partition start in 512-byte sectors, 0 for files */
	bool is_blockdev;
	bool is_regular;
};

/* Open @path; the handle owns the descriptor. */
int f2fs_dev_open(const char *path, unsigned int flags, struct f2fs_device **out);

/* An in-memory device of @size bytes, zero-filled, for unit tests. */
int f2fs_dev_open_memory(uint64_t size, struct f2fs_device **out);

/*
 * A layer stacked on a device: it sees each request before the device
 * below and decides what reaches it (record, delay, reorder, fail...).  An
 * operation left NULL passes the request straight down.  The replay
 * engine's I/O scheduler and the repair undo journal are such layers, and
 * tests use one to inject read errors.
 */
struct f2fs_dev_layer_ops {
	int (*read)(void *priv, struct f2fs_device *lower, void *buf, uint64_t off, size_t len);
	int (*write)(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		     size_t len);
	int (*zero)(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len);
	int (*discard)(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len,
		       bool *reads_zero);
	int (*flush)(void *priv, struct f2fs_device *lower);
	void (*release)(void *priv); /* when the stacked device is closed */
};

/*
 * A device that sends every request through @ops (with @priv) to @lower.
 * It has @lower's path, geometry and read-only flag, and owns @lower:
 * closing it closes @lower after @ops->release.  On failure @lower is left
 * as it was (still owned by the caller).
 */
int f2fs_dev_stack(struct f2fs_device *lower, const struct f2fs_dev_layer_ops *ops, void *priv,
		   struct f2fs_device **out);

/* Close and free (NULL is fine); returns the first error of a final flush. */
int f2fs_dev_close(struct f2fs_device *dev);

const struct f2fs_dev_info *f2fs_dev_get_info(const struct f2fs_device *dev);

/* Whole-buffer positional I/O; short reads/writes are retried, EOF is -EIO. */
int f2fs_dev_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len);
int f2fs_dev_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len);

/*
 * Make [off, off+len) read as zeros.  On files this punches a hole (sparse,
 * no data written); on block devices BLKZEROOUT, falling back to writes.
 */
int f2fs_dev_zero(struct f2fs_device *dev, uint64_t off, uint64_t len);

/*
 * Discard [off, off+len): BLKDISCARD on block devices, a punched hole on
 * files.  *reads_zero tells whether the range now reads back as zeros
 * (always for files; for block devices only when the queue says so).
 * -EOPNOTSUPP when the device cannot discard.
 */
int f2fs_dev_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero);

/*
 * Hint that [off, off+len) will be read soon (posix_fadvise WILLNEED), so a
 * walk that reads scattered blocks of it finds them in the page cache.
 */
void f2fs_dev_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len);

/* fsync (or a cache flush ioctl on block devices). */
int f2fs_dev_flush(struct f2fs_device *dev);

/* The path the device was opened with ("<memory>" for the test backend). */
const char *f2fs_dev_path(const struct f2fs_device *dev);

/*
 * Is @path (or the device behind it) mounted, or a block device held
 * exclusively by someone else?  Checks /proc/self/mountinfo by device number
 * and by path, and for block devices tries an O_EXCL open.  Returns 1 and
 * fills @where (e.g. the mount point) when busy, 0 when free, <0 on error.
 */
int f2fs_dev_is_busy(const char *path, char *where, size_t where_len);

/*
 * Probe @path with libblkid for an existing filesystem or partition table.
 * Returns 1 and fills @type ("ext4", "f2fs", "dos"...) when one is found,
 * 0 when none, <0 on error.
 */
int f2fs_dev_probe_existing(const char *path, char *type, size_t type_len);

#endif
