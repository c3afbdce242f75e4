/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device layer: every block access of the tools goes through a struct
 * f2fs_device, a small vtable with a regular-file/block-device backend and an
 * in-memory backend for tests.  Functions return 0 or a negative errno and
 * never exit; callers explain a failure with strerror(-ret).
 */
#ifndef F2FS_DEVICE_H
#define F2FS_DEVICE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct f2fs_device;

enum f2fs_dev_open_flags {
	F2FS_DEV_RDONLY = 1 << 0,
	F2FS_DEV_EXCL = 1 << 1, /* O_EXCL on block devices: fail if mounted or held */
	/*
	 * Writes of 4 KiB-aligned buffers at 4 KiB-aligned places bypass the
	 * page cache (O_DIRECT), where the file system under an image allows
	 * it; other writes and all reads stay buffered.
	 */
	F2FS_DEV_DIRECT = 1 << 2,
	/*
	 * Tell the kernel how long each write's data will live
	 * (fcntl F_SET_RW_HINT, from the write's tag: f2fs_dev_tag_write_life),
	 * as upstream's -H asks; a device that refuses hints is written without.
	 */
	F2FS_DEV_WRITE_HINTS = 1 << 3,
};

struct f2fs_dev_info {
	uint64_t size_bytes;   /* usable bytes: file size or BLKGETSIZE64 */
	uint32_t sector_size;  /* logical sector size (512 for regular files) */
	uint64_t start_sector; /* partition start in 512-byte sectors, 0 for files */
	bool is_blockdev;
	bool is_regular;
	unsigned int nr_members; /* devices of a volume made by f2fs_dev_concat(), else 0 */
};

/* Open @path; the handle owns the descriptor. */
int f2fs_dev_open(const char *path, unsigned int flags, struct f2fs_device **out);

/* An in-memory device of @size bytes, zero-filled, for unit tests. */
int f2fs_dev_open_memory(uint64_t size, struct f2fs_device **out);

/*
 * What a write holds, as the write path tags it: for a layer that
 * schedules or counts writes by kind (the replay engine's I/O scheduler),
 * and for the write-life hint a backend gives the kernel.  The first four
 * are the kinds; the write path names the log (temperature) of a node or
 * data write too.  Plain f2fs_dev_write() writes are untagged.
 */
enum f2fs_dev_tag {
	F2FS_DEV_TAG_NONE = 0,
	F2FS_DEV_TAG_DATA, /* data of no particular log */
	F2FS_DEV_TAG_NODE, /* a node of no particular log */
	F2FS_DEV_TAG_META, /* SIT, NAT, SSA, checkpoint packs */
	F2FS_DEV_TAG_HOT_DATA,
	F2FS_DEV_TAG_WARM_DATA,
	F2FS_DEV_TAG_COLD_DATA,
	F2FS_DEV_TAG_HOT_NODE,
	F2FS_DEV_TAG_WARM_NODE,
	F2FS_DEV_TAG_COLD_NODE,
	F2FS_DEV_TAGS
};

/* The kind of @tag: NONE, DATA, NODE or META (NONE for a value out of range). */
enum f2fs_dev_tag f2fs_dev_tag_kind(enum f2fs_dev_tag tag);

/* The tag of a write to log @log (enum f2fs_curseg_type); NONE for no such log. */
enum f2fs_dev_tag f2fs_dev_log_tag(unsigned int log);

/* The kernel's write-life hints (RWH_WRITE_LIFE_*, linux/fcntl.h). */
enum f2fs_write_life {
	F2FS_WRITE_LIFE_NOT_SET = 0,
	F2FS_WRITE_LIFE_NONE,
	F2FS_WRITE_LIFE_SHORT,
	F2FS_WRITE_LIFE_MEDIUM,
	F2FS_WRITE_LIFE_LONG,
	F2FS_WRITE_LIFE_EXTREME,
};

/*
 * The hint a write tagged @tag carries with F2FS_DEV_WRITE_HINTS: newest
 * upstream f2fs-tools' per-log table (f2fs_io_type_to_rw_hint, the table
 * of the kernels before 6.0, which gave up per-log hints): hot data SHORT,
 * warm data NOT_SET, cold data EXTREME, hot node NONE, warm node MEDIUM,
 * cold node LONG, everything else (metadata, untagged) NONE.  A kind
 * without its log is taken as its warm log, the kernel's default.
 */
enum f2fs_write_life f2fs_dev_tag_write_life(enum f2fs_dev_tag tag);

/*
 * A layer stacked on a device: it sees each request before the device
 * below and decides what reaches it (record, delay, reorder, fail...).  An
 * operation left NULL passes the request straight down.  The replay
 * engine's I/O scheduler and the repair undo journal are such layers, and
 * tests use one to inject read errors.
 */
/* What a zone management request does to its zones (f2fs/zone.h). */
enum f2fs_zone_op {
	F2FS_ZONE_OP_RESET,  /* back to empty */
	F2FS_ZONE_OP_FINISH, /* full: write pointer to the end */
};

struct f2fs_dev_layer_ops {
	int (*read)(void *priv, struct f2fs_device *lower, void *buf, uint64_t off, size_t len);
	int (*write)(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		     size_t len);
	/* when set, called instead of @write with the write's tag */
	int (*write_tagged)(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
			    size_t len, enum f2fs_dev_tag tag);
	int (*zero)(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len);
	int (*discard)(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len,
		       bool *reads_zero);
	int (*flush)(void *priv, struct f2fs_device *lower);
	/* a zone reset or finish (the range checked already); unset, it goes to @lower */
	int (*zone_mgmt)(void *priv, struct f2fs_device *lower, enum f2fs_zone_op op, uint64_t off,
			 uint64_t len);
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

/*
 * One device over @n (1..F2FS_DEV_MAX_MEMBERS) others, back to back: bytes
 * [0, lens[0]) are the first's, the next lens[1] the second's, and so on
 * (each len at most its device's size).  Requests that cross a member are
 * split; zone reports list the zoned members' zones at their offsets in the
 * whole (f2fs/zone.h).  The result owns the members and takes the first's
 * path and geometry; on failure the caller still owns them.  -EINVAL for a
 * bad member or zones of different sizes.
 */
#define F2FS_DEV_MAX_MEMBERS 8
int f2fs_dev_concat(struct f2fs_device *const *devs, const uint64_t *lens, unsigned int n,
		    struct f2fs_device **out);

/*
 * Android sparse images (android-libsparse): the image lives in memory
 * while the device is open and is written to @path as a sparse file when
 * it is closed -- blocks written become raw chunks, blocks zeroed become
 * fill chunks, blocks never touched "don't care" chunks (flashing leaves
 * them as the partition had them).  Reads of untouched blocks give zeros.
 * -EOPNOTSUPP when this build has no libsparse.
 *
 * f2fs_dev_sparse_create: a new image of @size bytes (a multiple of 4096)
 * at @path, created or replaced on close; if nothing was written by then,
 * a file this call created is removed again.
 *
 * f2fs_dev_sparse_open: the sparse image at @path, read in whole through
 * libsparse.  With F2FS_DEV_RDONLY it is never written; else it is
 * rewritten on close when something was written.  -EINVAL when @path is
 * not a sparse image or libsparse refuses it, -EFBIG when its block size
 * is not 4096.
 */
int f2fs_dev_sparse_create(const char *path, uint64_t size, struct f2fs_device **out);
int f2fs_dev_sparse_open(const char *path, unsigned int flags, struct f2fs_device **out);

/* Does this build read and write sparse images? */
bool f2fs_dev_sparse_supported(void);

/* 1 when @path begins with a sparse image header, 0 when not, or a negative errno. */
int f2fs_dev_sparse_probe(const char *path);

/* How many devices @dev spans: 1, or its members' count. */
unsigned int f2fs_dev_members(const struct f2fs_device *dev);

/* Close and free (NULL is fine); returns the first error of a final flush. */
int f2fs_dev_close(struct f2fs_device *dev);

const struct f2fs_dev_info *f2fs_dev_get_info(const struct f2fs_device *dev);

/* Whole-buffer positional I/O; short reads/writes are retried, EOF is -EIO. */
int f2fs_dev_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len);
int f2fs_dev_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len);
/* f2fs_dev_write() with a tag for the layers above the backend (untagged: F2FS_DEV_TAG_NONE). */
int f2fs_dev_write_tagged(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
			  enum f2fs_dev_tag tag);

/*
 * The device's own memory for [off, off+len), when its backend keeps the
 * whole device in one array in memory (the sparse backend), else NULL (a
 * file, a block device, a stacked or concatenated device, read-only, out
 * of range).  The memory of adjacent ranges is adjacent.  A writer may
 * build a write in place there and then write it with
 * f2fs_dev_write_tagged() from that same memory, which copies nothing: the
 * write still says what was written (a sparse image marks the blocks
 * written).  Until that write the bytes placed there already read back,
 * and a zero or discard of the range in between clears them, so only a
 * writer that owns the range (the write path's pending run) may do this.
 */
void *f2fs_dev_memory(struct f2fs_device *dev, uint64_t off, size_t len);

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

/* ---- what a path is, before a tool opens it ---- */

/*
 * A tool about to open a path asks f2fs_target_classify() what it is, how
 * big it is and whether something else uses it, and turns the answer into
 * its own message and policy (a reader may warn where a writer refuses).
 * The answer is data only; the library never words it.
 */
enum f2fs_target_kind {
	F2FS_TARGET_REGULAR, /* a regular file: an image */
	F2FS_TARGET_BLOCKDEV,
	F2FS_TARGET_DIRECTORY,
	F2FS_TARGET_CHARDEV, /* /dev/null, a tty... */
	F2FS_TARGET_FIFO,
	F2FS_TARGET_SOCKET,
	F2FS_TARGET_OTHER, /* a file type stat() gave that none of the above names */
};

enum f2fs_target_use {
	F2FS_USE_UNCHECKED, /* F2FS_TARGET_USE not asked, or neither a file nor a block device */
	F2FS_USE_FREE,
	F2FS_USE_MOUNTED, /* mounted: it, one of its partitions, or a loop device over the file */
	F2FS_USE_HELD,	  /* not mounted, but opened O_EXCL by a program or a kernel driver */
	F2FS_USE_LOCKED,  /* an image file another program writes (its exclusive flock) */
};

struct f2fs_target {
	enum f2fs_target_kind kind;
	uint64_t size_bytes; /* with F2FS_TARGET_SIZE: the file's or block device's size */
	enum f2fs_target_use use;
	bool mounted_ro;	    /* MOUNTED, and no mount of it is read-write */
	char mount_point[PATH_MAX]; /* MOUNTED: where (a read-write mount first) */
	char via[64]; /* "/dev/loop3" when a file is MOUNTED or HELD through it; LOCKED: "pid 12
			 (f2fs_io)" */
};

enum f2fs_target_checks {
	F2FS_TARGET_SIZE = 1u << 0, /* size_bytes (a block device is opened read-only for it) */
	F2FS_TARGET_USE = 1u << 1,  /* use, mounted_ro, mount_point, via */
};

/*
 * Classify @path (symlinks followed): its kind always, and what @checks
 * asks.  The use check reads /proc/self/mountinfo (matching by device
 * number, the device's partitions, the loop devices backed by a file, and
 * the mount source's path), then tries an O_EXCL open of a block device (or
 * of each loop device over a file): the kernel refuses it while a mount,
 * device mapper, md, swap or another program holds the device.  Nothing is
 * written and nothing is left open.  Returns 0, or a negative errno from
 * stat() (-ENOENT...), from opening a block device for its size, or from
 * reading the mount table; *out then holds what was found before.
 */
int f2fs_target_classify(const char *path, unsigned int checks, struct f2fs_target *out);

/* What libblkid recognizes on a device or image. */
enum f2fs_content_kind {
	F2FS_CONTENT_NONE,	 /* no signature libblkid knows */
	F2FS_CONTENT_F2FS,	 /* an F2FS superblock magic (libblkid checks little else) */
	F2FS_CONTENT_FILESYSTEM, /* another filesystem; name is its type ("ext4") */
	F2FS_CONTENT_PARTITIONS, /* a partition table; name is its type ("dos", "gpt") */
	F2FS_CONTENT_OTHER,	 /* RAID member, encrypted container, swap...; name is its type */
	F2FS_CONTENT_AMBIGUOUS,	 /* signatures of several kinds that exclude each other */
};

struct f2fs_content {
	enum f2fs_content_kind kind;
	char name[32]; /* libblkid's TYPE or PTTYPE; "" for NONE and AMBIGUOUS */
};

/* Probe @path with libblkid (read-only).  Returns 0 and fills *out, or a negative errno. */
int f2fs_dev_probe_content(const char *path, struct f2fs_content *out);

/*
 * For mkfs: is @path in use (f2fs_target_classify's use check)?  Returns 1
 * and fills @where with the mount point, "in use by another program", or
 * "/dev/loopN, in use by another program" when busy; 0 when free; <0 on
 * error.
 */
int f2fs_dev_is_busy(const char *path, char *where, size_t where_len);

/*
 * For mkfs: does @path hold a filesystem or partition table
 * (f2fs_dev_probe_content)?  Returns 1 and fills @type ("ext4", "f2fs",
 * "dos"..., "ambivalent" for conflicting signatures) when one is found, 0
 * when none, <0 on error.
 */
int f2fs_dev_probe_existing(const char *path, char *type, size_t type_len);

#endif
