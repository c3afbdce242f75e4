/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The filesystem handle: one struct f2fs_fs per opened volume, the way every
 * tool, the checker and the tests reach a volume.  Opening picks the
 * superblock and checkpoint pack (f2fs_volume); the tables behind them --
 * the pack's contents, the SIT with its per-segment and per-section counts,
 * the NAT and the SSA -- are loaded on first use and kept until close, so a
 * tool that needs only the superblock reads only the superblock, and no
 * table is ever read twice.
 *
 * Errors: every function that can fail returns 0 or a negative errno.  The
 * reason is one line naming the structure first ("SIT: ..."), kept in the
 * handle (f2fs_fs_why) for loads, or written to @why for open.  A table that
 * failed to load fails the same way on every later call.  -ENOMEM is always
 * reported as such, so callers can tell an operational error from a damaged
 * volume.
 *
 * Opened with F2FS_FS_WRITE, the handle also carries the write path's state
 * (include/f2fs/write.h): every table is loaded at open, and the write
 * functions change them in memory until a checkpoint writes them out.
 * Lock hooks default to no-ops; write.h says which lock each writing
 * function takes.
 */
#ifndef F2FS_FS_H
#define F2FS_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/format.h"
#include "f2fs/geometry.h"
#include "f2fs/nat.h"
#include "f2fs/sit.h"
#include "f2fs/ssa.h"
#include "f2fs/summary.h"
#include "f2fs/volume.h"

struct f2fs_fs;

enum f2fs_fs_flags {
	F2FS_FS_READ = 0,
	F2FS_FS_WRITE = 1u << 0, /* load everything and allow the write path (write.h) */
	/*
	 * Accept a device shorter than the superblock's block_count (an image
	 * cut short): the volume opens when a superblock and a checkpoint pack
	 * can be read, f2fs_fs_truncated() says so, and blocks at or past the
	 * device's end fail to read with -ENXIO (f2fs_fs_read_blocks()).
	 * Without this flag such a device is refused (-EINVAL, "block_count
	 * ... exceeds the device"), as tools that write must.
	 */
	F2FS_FS_SHORT_DEVICE = 1u << 1,
	/*
	 * With F2FS_FS_WRITE: open a volume whose checkpoint is followed by
	 * fsynced node blocks (a roll-forward chain) anyway.  The next
	 * checkpoint discards them.  Without it such a volume is refused
	 * (-EUCLEAN): mounting it first applies them.
	 */
	F2FS_FS_DROP_ROLL_FORWARD = 1u << 2,
	/*
	 * With F2FS_FS_WRITE: the caller applies the roll-forward chain with
	 * f2fs_roll_forward() (f2fs/write.h) before anything else writes.
	 */
	F2FS_FS_ROLL_FORWARD = 1u << 3,
	/*
	 * With F2FS_FS_WRITE: open a volume whose newest checkpoint pack is
	 * insane (F2FS_REJECTED_CP_NEWEST, f2fs/volume.h) from its older pack;
	 * the next checkpoint replaces the insane one, rolling the volume back
	 * (fsck's repair).  Without it such a volume is refused (-EUCLEAN):
	 * the kernel refuses to mount it.
	 */
	F2FS_FS_ROLL_BACK = 1u << 4,
};

/*
 * Open the volume on @dev (which the handle uses but does not own: close
 * the device after f2fs_fs_close).  Reads and validates the superblocks and
 * the checkpoint; nothing else, unless @flags has F2FS_FS_WRITE: then every
 * table is loaded too, and a volume whose checkpoint carries the error flag
 * is refused with -EUCLEAN.  Returns 0 and *out, or a negative errno with
 * @why set (see f2fs_volume_open for the cases).
 */
int f2fs_fs_open(struct f2fs_device *dev, unsigned int flags, struct f2fs_fs **out, char *why,
		 size_t why_len);

/*
 * Read the volume again, as a remount would, with @flags (F2FS_FS_*): what
 * the handle loaded and the write path's state are dropped (changes since
 * the last f2fs_checkpoint() with them), and the superblocks, the newest
 * checkpoint and the tables are read from the device the handle keeps.  A
 * repair run does this after each checkpoint it writes, to check what it
 * wrote from one handle.  On failure (@why set) only f2fs_fs_close() may
 * follow.
 */
int f2fs_fs_reload(struct f2fs_fs *fs, unsigned int flags, char *why, size_t why_len);

/* The F2FS_FS_* flags the handle was opened (or last reloaded) with. */
unsigned int f2fs_fs_flags(const struct f2fs_fs *fs);

/*
 * Free the handle and every table it loaded (NULL is fine).  Nothing is
 * written: changes made through write.h since the last f2fs_checkpoint()
 * are dropped, as a power cut would drop them.
 */
void f2fs_fs_close(struct f2fs_fs *fs);

struct f2fs_device *f2fs_fs_dev(const struct f2fs_fs *fs);

/*
 * A zoned volume opened on its zoned device(s) whose sequential zones do
 * not all have the same capacity (the kernel refuses to mount it).
 */
bool f2fs_fs_zone_capacity_mixed(const struct f2fs_fs *fs);
const struct f2fs_volume *f2fs_fs_volume(const struct f2fs_fs *fs);
const struct f2fs_super_block *f2fs_fs_sb(const struct f2fs_fs *fs);
const struct f2fs_checkpoint *f2fs_fs_cp(const struct f2fs_fs *fs);
const struct f2fs_geometry *f2fs_fs_geo(const struct f2fs_fs *fs);
uint32_t f2fs_fs_features(const struct f2fs_fs *fs);

/*
 * The whole blocks the device holds, and whether the volume's block_count
 * runs past them (possible only with F2FS_FS_SHORT_DEVICE).
 */
uint64_t f2fs_fs_device_blocks(const struct f2fs_fs *fs);
bool f2fs_fs_truncated(const struct f2fs_fs *fs);

/*
 * Read @count blocks from block address @blkaddr into @buf.  Returns 0,
 * -ENXIO (reading nothing) when any of them lies at or past the end of
 * the device, or the device's error.  The reads of file and directory
 * contents (f2fs/read.h) go through here, so that on a cut image a block
 * past the end is an error of that block, told apart from a failing device.
 */
int f2fs_fs_read_blocks(struct f2fs_fs *fs, uint64_t blkaddr, void *buf, uint32_t count);

/*
 * The tables, loaded on first call.  Each returns 0 and *out, or a negative
 * errno; the reason is then f2fs_fs_why().  The SIT, NAT and SSA load the
 * pack's contents first, since their journals and open-log summaries live
 * there.
 */
int f2fs_fs_cp_data(struct f2fs_fs *fs, const struct f2fs_cp_data **out);
int f2fs_fs_sit(struct f2fs_fs *fs, const struct f2fs_sit_table **out);
int f2fs_fs_nat(struct f2fs_fs *fs, const struct f2fs_nat_table **out);
int f2fs_fs_ssa(struct f2fs_fs *fs, struct f2fs_ssa **out);

/* Load every table at once (what a full check or a dump of all tables needs). */
int f2fs_fs_load_all(struct f2fs_fs *fs);

/* The reason of the last failed load, "" when none failed. */
const char *f2fs_fs_why(const struct f2fs_fs *fs);

/*
 * Lock hooks, for the write path and the replay engine (which installs
 * pthread locks).  Readers never take them.  Which lock each writing
 * function takes will be documented in write.h.
 */
enum f2fs_fs_lock {
	F2FS_LOCK_CP,	      /* cp_rwsem: shared for operations, exclusive for a checkpoint */
	F2FS_LOCK_WRITEPAGES, /* the per-filesystem writepages mutex */
	F2FS_LOCK_INODE,      /* one inode (argument: its ino) */
};

struct f2fs_fs_lock_ops {
	void (*lock)(void *arg, enum f2fs_fs_lock which, uint32_t ino, bool exclusive);
	void (*unlock)(void *arg, enum f2fs_fs_lock which, uint32_t ino, bool exclusive);
	void *arg;
};

/* Install @ops (NULL restores the no-ops). */
void f2fs_fs_set_lock_ops(struct f2fs_fs *fs, const struct f2fs_fs_lock_ops *ops);

/*
 * Progress of the library's long operations on a handle (the checker's
 * passes, the main-area scan), for a tool that shows it.  A hook installed
 * on the handle is called at the start of each pass (done 0), at its end
 * (done == total) and at most F2FS_PROGRESS_STEPS times between, whatever
 * the volume's size, so it may print or take the time without slowing the
 * work.  It must not call back into the handle.  The library never prints:
 * without a hook nothing is reported.
 */
#define F2FS_PROGRESS_STEPS 100

struct f2fs_progress {
	unsigned int pass;    /* 1, 2, ... within the operation */
	unsigned int passes;  /* passes of the whole operation */
	const char *name;     /* what the pass does, e.g. "walking the tree" */
	uint64_t done, total; /* units of this pass (inodes, sections, segments) */
};

typedef void (*f2fs_progress_fn)(const struct f2fs_progress *p, void *arg);

/* Install @fn with @arg as the handle's progress hook (NULL: none). */
void f2fs_fs_set_progress(struct f2fs_fs *fs, f2fs_progress_fn fn, void *arg);

/*
 * Report @done of @total units of pass @pass of @passes to the handle's
 * hook, thinned as described above (a call that falls between two steps
 * returns at once).  A tool may report its own long loops through it too.
 */
void f2fs_fs_progress(struct f2fs_fs *fs, unsigned int pass, unsigned int passes, const char *name,
		      uint64_t done, uint64_t total);

#endif
