/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The write path: changing a volume the way the kernel changes it.  Every
 * client -- mkfs, sload, fsck's repairs, the replay engine -- goes through
 * these functions on a handle opened with F2FS_FS_WRITE (or made by
 * f2fs_fs_create), and there is one of each mechanism behind them:
 *
 *  - one block allocator: six logs, each writing a current segment block
 *    by block and moving on to the next free segment of its section, then
 *    to a free section; per-segment AND per-section valid and
 *    checkpointed-valid counts changed together on every allocation and
 *    invalidation, the SSA entry of every block, dirty SIT entries;
 *  - one nid allocator and NAT update path;
 *  - one node cache: node blocks are read once, changed in memory and
 *    written to a new place in their node log (log-structured: never in
 *    place) by a checkpoint or an fsync;
 *  - one checkpoint writer, f2fs_checkpoint(): dirty data and nodes, then
 *    NAT and SIT (journal or blocks), then the pack in the other location,
 *    a flush, and the pack's last block after it;
 *  - one cleaner, which moves the valid blocks of victim sections through
 *    the allocator when free sections run short.
 *
 * Nothing reaches the device's checkpointed state before f2fs_checkpoint():
 * closing the handle without one drops the changes, like a power cut.
 * f2fs_fsync() writes the kernel's roll-forward chain (data, then the
 * file's direct nodes marked FSYNC in the warm node log), so a kernel
 * mounting the volume after such a "power cut" recovers the fsynced file.
 *
 * Files are named by inode number; directories by inode number and a name
 * (bytes, not NUL-terminated).  Errors are negative errnos: -ENOENT,
 * -EEXIST, -ENOTDIR, -EISDIR, -ENOTEMPTY, -ENAMETOOLONG, -ENOSPC (no free
 * block or nid even after cleaning), -EOPNOTSUPP (an encrypted or
 * casefolded directory, whose names need keys or Unicode tables), -EUCLEAN
 * (on-disk structures that do not fit: the write path validates what it
 * reads as the read path does), -EROFS (the handle was opened read-only),
 * -ENOMEM, or an I/O error.  After an I/O error the handle refuses further
 * writes with -EIO: the device holds an unknown state, and only the last
 * checkpoint is trustworthy.
 *
 * Locks: every function below takes the handle's lock hooks (fs.h) as
 * noted: F2FS_LOCK_CP shared around each namespace or data operation,
 * exclusive for a checkpoint; F2FS_LOCK_WRITEPAGES around writing a
 * file's dirty pages when the kernel would serialise it; F2FS_LOCK_INODE
 * around changes of one inode.  With the default no-op hooks the handle
 * is single-threaded; the replay engine installs pthread locks.
 */
#ifndef F2FS_WRITE_H
#define F2FS_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "f2fs/dir.h"
#include "f2fs/fs.h"

/* ---- a new volume ---- */

/*
 * A handle over an empty volume with superblock @sb and first checkpoint
 * block @cp (both built by the caller -- mkfs -- and validated by it):
 * every segment and nid is free except what @cp's current segments and
 * next_free_nid say.  Nothing is read from @dev; the first f2fs_checkpoint
 * writes the pack, the SIT, NAT and SSA it needs.  The superblocks are the
 * caller's to write, last.
 */
int f2fs_fs_create(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		   const struct f2fs_checkpoint *cp, struct f2fs_fs **out);

/* ---- namespace (F2FS_LOCK_CP shared; F2FS_LOCK_INODE on the inodes changed) ---- */

/* Where new data and nodes go, as the kernel picks a temperature. */
enum f2fs_temp {
	F2FS_TEMP_AUTO = 0, /* by file kind and the superblock's extension lists */
	F2FS_TEMP_HOT,
	F2FS_TEMP_WARM,
	F2FS_TEMP_COLD,
};

/* Attributes of a new inode. */
struct f2fs_new_inode {
	uint16_t
	    mode; /* S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO or S_IFSOCK | perms */
	uint32_t uid, gid;
	uint32_t rdev_major, rdev_minor;      /* character and block devices */
	uint64_t atime, mtime, ctime, crtime; /* seconds */
	uint32_t atime_nsec, mtime_nsec, ctime_nsec;
	uint32_t flags; /* i_flags (FS_*_FL bits), e.g. immutable */
	uint32_t projid;
	bool inline_ok;		    /* may keep data or dentries inline (kernel default: yes) */
	bool inline_xattr;	    /* reserve inline xattr space (kernel default: yes) */
	enum f2fs_temp temp;	    /* F2FS_TEMP_AUTO unless the caller knows better (mkfs) */
	bool compress;		    /* a compressed regular file (needs the compression feature) */
	uint8_t compress_algorithm; /* F2FS_COMPRESS_LZ4 or _LZO (f2fs/compress.h) */
	uint8_t log_cluster_size;   /* blocks per cluster, log2: 2 (the kernel default) when 0 */
};

/*
 * Defaults: @mode, owner 0:0, times @now, inline data and xattrs, automatic
 * temperature, LZ4 should it be compressed.
 */
void f2fs_new_inode_init(struct f2fs_new_inode *a, uint16_t mode, uint64_t now);

/*
 * The bytes of data a new inode made with @a keeps inline (0 when
 * @a->inline_ok is false): a file no larger needs no data block.
 */
int f2fs_new_inode_inline_bytes(struct f2fs_fs *fs, const struct f2fs_new_inode *a,
				unsigned int *bytes);

/*
 * For mkfs: the root directory, made as the first inode of a new volume
 * (its ino must be the superblock's root_ino), its own parent.
 */
int f2fs_make_root(struct f2fs_fs *fs, const struct f2fs_new_inode *attr, uint32_t *ino);

/* An inode no directory names: quota files, which the superblock refers to. */
int f2fs_create_hidden(struct f2fs_fs *fs, const struct f2fs_new_inode *attr, uint32_t *ino);

/* The inode of @name in directory @dir; -ENOENT when there is none. */
int f2fs_lookup(struct f2fs_fs *fs, uint32_t dir, const char *name, size_t len, uint32_t *ino);

/*
 * Resolve an absolute path ("/a/b", "/" for the root) to an inode,
 * following no symlinks.  -ENOENT, -ENOTDIR as the kernel would.
 */
int f2fs_path_lookup(struct f2fs_fs *fs, const char *path, uint32_t *ino);

/*
 * Create @name in @dir: a regular file, directory, symlink (@target, for
 * S_IFLNK), device, fifo or socket node.  A directory gets "." and "..";
 * the parent's link count grows.  Returns the new inode in *ino.
 */
int f2fs_create(struct f2fs_fs *fs, uint32_t dir, const char *name, size_t len,
		const struct f2fs_new_inode *attr, const char *target, uint32_t *ino);

/* A hard link @name in @dir to @ino (not a directory). */
int f2fs_link(struct f2fs_fs *fs, uint32_t ino, uint32_t dir, const char *name, size_t len);

/*
 * Remove @name from @dir (an empty directory, or anything else).  The
 * inode's last link frees it: its blocks, nodes and nid.
 */
int f2fs_unlink(struct f2fs_fs *fs, uint32_t dir, const char *name, size_t len);

/* Rename, replacing an existing target as rename(2) does (RENAME_NOREPLACE when @noreplace). */
int f2fs_rename(struct f2fs_fs *fs, uint32_t odir, const char *oname, size_t olen, uint32_t ndir,
		const char *nname, size_t nlen, bool noreplace);

/* ---- attributes ---- */

struct f2fs_inode_attr {
	uint16_t mode;
	uint32_t uid, gid, links, flags, projid;
	uint32_t pino;	       /* the directory that last named it (i_pino) */
	uint64_t size, blocks; /* i_blocks, in 4 KiB blocks with the inode itself */
	uint64_t atime, mtime, ctime;
	bool inline_data, inline_dentry;
};

int f2fs_getattr(struct f2fs_fs *fs, uint32_t ino, struct f2fs_inode_attr *a);

/* Set owner, mode bits (not the type), times (UINT64_MAX: leave) and i_flags. */
struct f2fs_setattr {
	bool set_mode, set_owner, set_flags;
	uint16_t mode;
	uint32_t uid, gid, flags;
	uint64_t atime, mtime, ctime;
	uint32_t atime_nsec, mtime_nsec, ctime_nsec; /* with the times they go with */
};
int f2fs_setattr(struct f2fs_fs *fs, uint32_t ino, const struct f2fs_setattr *s);

/*
 * Extended attributes, stored as the kernel stores them: inline in the
 * inode when it has room, else in the inode's xattr node.  @index is the
 * kernel's name index (1 user, 4 trusted, 6 security, ...), @name without
 * its prefix.  -ERANGE when the value does not fit in inline plus one
 * block.
 */
int f2fs_setxattr(struct f2fs_fs *fs, uint32_t ino, uint8_t index, const char *name,
		  const void *value, size_t len);
int f2fs_getxattr(struct f2fs_fs *fs, uint32_t ino, uint8_t index, const char *name, void *buf,
		  size_t len, size_t *value_len);

/* ---- data (F2FS_LOCK_CP shared, F2FS_LOCK_INODE) ---- */

/*
 * Write @len bytes at @off into the file's page cache (i_size grows).
 * Pages are written to the device by f2fs_writepages(), an fsync, a
 * checkpoint, or when the file's dirty pages pass the write-back
 * threshold (then in large requests).
 */
int f2fs_pwrite(struct f2fs_fs *fs, uint32_t ino, const void *buf, size_t len, uint64_t off);

/* Read what the file holds now (page cache first), holes as zeros, up to i_size. */
int f2fs_pread(struct f2fs_fs *fs, uint32_t ino, void *buf, size_t len, uint64_t off, size_t *done);

/* Set i_size; blocks past it are freed (and the last partial block zeroed past it). */
int f2fs_truncate(struct f2fs_fs *fs, uint32_t ino, uint64_t size);

/*
 * The kernel's F2FS_IOC_RELEASE_COMPRESS_BLOCKS on regular file @ino: its
 * dirty pages are written, the inode is marked F2FS_COMPRESS_RELEASED (no
 * write is taken after it: -EPERM) and each compressed cluster gives back
 * the blocks it saved (its NEW_ADDR slots become NULL_ADDR; i_blocks,
 * i_compr_blocks and the valid block count drop by *@released).
 * -EOPNOTSUPP without the compression feature, -EINVAL for a file that is
 * not compressed or already released, -EUCLEAN for a cluster whose
 * addresses do not fit.
 */
int f2fs_release_compress_blocks(struct f2fs_fs *fs, uint32_t ino, uint64_t *released);

/* How f2fs_writepages was called, as the kernel's wbc->sync_mode. */
enum f2fs_wb_mode {
	F2FS_WB_NONE, /* background write-back */
	F2FS_WB_ALL,  /* data integrity: fsync, sync */
};

/*
 * Write the file's dirty pages: allocate blocks in the data log its
 * temperature picks (overwrites go to new blocks, the old ones become
 * invalid), update its direct nodes.  Takes F2FS_LOCK_WRITEPAGES when the
 * kernel's __should_serialize_io() would (f2fs_writepages_serialized()).
 */
int f2fs_writepages(struct f2fs_fs *fs, uint32_t ino, enum f2fs_wb_mode mode,
		    uint32_t min_seq_blocks);

/*
 * fsync(2) as the kernel does it: when need_do_checkpoint() would say so
 * (a directory, a file with more than one link, a new file in a directory
 * created since the last checkpoint, ...), a checkpoint; otherwise the
 * file's data, then its direct nodes (and inode) written to the warm node
 * log, the last one with the FSYNC mark (DENT too for a file created since
 * the last checkpoint), then a flush.  *did_checkpoint says which.
 */
int f2fs_fsync(struct f2fs_fs *fs, uint32_t ino, bool datasync, bool *did_checkpoint);

/* ---- checkpoint (F2FS_LOCK_CP exclusive) ---- */

enum f2fs_cp_reason {
	F2FS_CP_SYNC = 1u << 0,	   /* sync(2), fsync needing one, the cleaner */
	F2FS_CP_UMOUNT = 1u << 1,  /* clean unmount: node summaries and nat_bits in the pack */
	F2FS_CP_TRIMMED = 1u << 2, /* the free space was discarded (mkfs) */
	/* with UMOUNT: no nat_bits even where they fit (upstream's mkfs -g android) */
	F2FS_CP_NO_NAT_BITS = 1u << 3,
};

struct f2fs_cp_request {
	unsigned int reason; /* enum f2fs_cp_reason bits */
	bool keep_data;	     /* leave dirty file pages in memory (the kernel's checkpoint does) */
};

/*
 * Write a checkpoint: every dirty page (unless @keep_data) and node, NAT
 * and SIT entries (into the journals when they fit, else whole blocks in
 * the other copy, flipping the version bits), the pack in the location
 * not holding the current one, a flush, then the pack's last block.  The
 * segments freed since the last checkpoint become free after it.
 */
int f2fs_checkpoint(struct f2fs_fs *fs, const struct f2fs_cp_request *req);

/* ---- the cleaner ---- */

/*
 * Move the valid blocks of the section with the fewest (greedy) until
 * @want_free sections are free or no victim is left, then checkpoint to
 * release them.  The write path calls it itself when a log needs a
 * section and free sections are down to the reserve.
 */
int f2fs_gc(struct f2fs_fs *fs, uint32_t want_free);

/*
 * Keep the volume inside main segments [@first_seg, @end_seg) (whole
 * sections), for a resize: the allocator takes no section outside from now
 * on, every log whose current section lies outside starts a free one
 * inside, every valid block outside moves inside the way the cleaner moves
 * it (nodes to their logs, data to the cold data log), and a checkpoint
 * records the result -- a volume of the same size, everything inside.
 * -EINVAL for a range not of whole sections; -ENOSPC when what lies
 * outside does not fit inside (the device then still holds the last
 * checkpoint, or one the cleaner wrote on the way, with nothing lost).
 */
int f2fs_confine(struct f2fs_fs *fs, uint32_t first_seg, uint32_t end_seg);

/* ---- allocation policy, clock and accounting ---- */

/* The time write operations stamp (mtime of a changed directory...): @t, or now when < 0. */
void f2fs_write_set_time(struct f2fs_fs *fs, int64_t t);

/* Every checkpoint from now on is written as with F2FS_CP_NO_NAT_BITS (fsck -g android). */
void f2fs_write_set_no_nat_bits(struct f2fs_fs *fs);

/*
 * A block the allocator is about to hand out, for a policy (repair: never
 * reuse a block the check found in use) to veto: return false to skip it.
 */
typedef bool (*f2fs_alloc_policy_fn)(uint64_t blkaddr, void *arg);
void f2fs_set_alloc_policy(struct f2fs_fs *fs, f2fs_alloc_policy_fn fn, void *arg);

/*
 * In-place updates: with @on, write-back of a regular file's page that
 * already has a block writes it over that block (f2fs_inplace_write_data)
 * and changes nothing in the node tree, the SIT or the SSA.  The kernel
 * forces this (ipu_policy IPU_FORCE, f2fs_tuning_parameters) on volumes
 * of at most F2FS_SMALL_VOLUME_SEGMENTS main segments that are not in LFS
 * mode (zoned volumes always are); f2fs_kernel_forces_ipu() says whether
 * it would for this volume.  Off by default: the offline tools write out
 * of place, as upstream's do.
 */
#define F2FS_SMALL_VOLUME_SEGMENTS 8192u
void f2fs_set_in_place_updates(struct f2fs_fs *fs, bool on);
bool f2fs_kernel_forces_ipu(struct f2fs_fs *fs);

/*
 * Whether the next @max dirty pages of @ino that f2fs_writepages_some()
 * would write (from the file's write-back index when @cyclic, as
 * background write-back goes, else from its start) all go in place, so
 * that, as in the kernel, writing them needs no f2fs_lock_op and may run
 * while a checkpoint holds operations back.
 */
bool f2fs_writeback_in_place(struct f2fs_fs *fs, uint32_t ino, uint64_t max, bool cyclic);

/*
 * The checkpoint writer calls @fn (with @arg) after it queued a pack's
 * body and before it flushes and commits it: the kernel waits there for
 * the body's writes to complete (f2fs_wait_on_all_pages, F2FS_WB_CP_DATA).
 * A device that writes synchronously needs none (the default, NULL); the
 * replay engine's queued device waits for them, and lets write-back that
 * needs no lock run meanwhile.  A non-zero return fails the checkpoint.
 */
typedef int (*f2fs_commit_wait_fn)(void *arg);
void f2fs_set_commit_wait(struct f2fs_fs *fs, f2fs_commit_wait_fn fn, void *arg);

enum f2fs_io_kind {
	F2FS_IO_DATA,
	F2FS_IO_NODE,
	F2FS_IO_META, /* SIT, NAT, SSA, checkpoint packs */
	F2FS_IO_KINDS
};

struct f2fs_write_stats {
	uint64_t bytes[F2FS_IO_KINDS];	  /* written to the device, by kind */
	uint64_t requests[F2FS_IO_KINDS]; /* device write requests, by kind */
	uint64_t flushes;
	uint64_t checkpoints;
	uint64_t gc_runs, gc_blocks_moved, gc_sections_freed;
	uint64_t user_bytes;   /* bytes passed to f2fs_pwrite */
	uint64_t space_checks; /* per-page checks of the current sections' room */
};

const struct f2fs_write_stats *f2fs_write_stats(struct f2fs_fs *fs);

/* Free sections and the reserve the cleaner keeps (in sections), and valid/user blocks. */
struct f2fs_space {
	uint32_t free_sections, reserved_sections, sections;
	uint64_t valid_blocks, user_blocks;
	uint32_t valid_nodes, valid_inodes;
	uint64_t
	    curseg_room; /* blocks left in the logs' current sections at the last page written */
};
int f2fs_space(struct f2fs_fs *fs, struct f2fs_space *s);

/* ---- for a caller that schedules write-back itself (the replay engine) ---- */

/*
 * Send the blocks queued in the write path's I/O run now.  They otherwise
 * leave with the next write that does not continue the run -- perhaps a
 * later operation's, which a layer stacked on the device would then
 * attribute to the wrong caller.
 */
int f2fs_write_submit(struct f2fs_fs *fs);

/*
 * The dirty-page counts at which f2fs_pwrite writes back by itself: a
 * file's own pages, and all files' pages together; 0 turns that off (the
 * caller writes back).  Defaults: 4096 and 8192 pages.
 */
void f2fs_write_set_writeback(struct f2fs_fs *fs, uint64_t inode_pages, uint64_t total_pages);

/*
 * Write @sb over both superblock copies (block 1's first, as the kernel
 * commits one), with its checksum set when the volume has sb_checksum, and
 * make it the handle's (f2fs_fs_features included).  Needs no table: a handle opened F2FS_FS_READ
 * on a writable device will do.  Negative errno on an I/O error (a copy may then be the old one:
 * the volume keeps a valid superblock either way).
 */
int f2fs_write_super(struct f2fs_fs *fs, const struct f2fs_super_block *sb);

/*
 * The volume's label := @label (UTF-8): -EINVAL when it is not valid
 * UTF-8, -ENAMETOOLONG past F2FS_MAX_VOLUME_NAME UTF-16 units (nothing
 * written then), else f2fs_write_super's result.
 */
int f2fs_set_label(struct f2fs_fs *fs, const char *label);

/* --nolinear-lookup: casefolded lookups may fall back to a linear search, or not. */
enum f2fs_linear_lookup {
	F2FS_LINEAR_LOOKUP_KEEP = 0, /* not asked: the flag stays */
	F2FS_LINEAR_LOOKUP_ENABLE,   /* =0: clear F2FS_ENC_NO_COMPAT_FALLBACK_FL */
	F2FS_LINEAR_LOOKUP_DISABLE,  /* =1: set it */
};

/* What fsck -O, -C and --nolinear-lookup ask of the superblock. */
struct f2fs_tune {
	uint32_t features;	 /* F2FS_FEATURE_* to turn on (-O) */
	bool encoding_set;	 /* -C given: turn casefold on with this encoding */
	uint16_t encoding;	 /* F2FS_ENC_UTF8_12_1 */
	uint16_t encoding_flags; /* F2FS_ENC_STRICT_MODE_FL */
	enum f2fs_linear_lookup linear_lookup;
};

/* What a tune plan changes (bits of *changes), for the tool to report. */
enum f2fs_tuned {
	F2FS_TUNED_ENCRYPT = 1 << 0,	   /* encrypt turned on */
	F2FS_TUNED_CASEFOLD = 1 << 1,	   /* casefold turned on, with the encoding */
	F2FS_TUNED_LINEAR_LOOKUP = 1 << 2, /* the lookup flag set or cleared */
	F2FS_TUNED_CASEFOLD_KEPT = 1 << 3, /* -C on a casefold volume: its encoding stays */
	F2FS_TUNED_NO_CASEFOLD = 1 << 4,   /* the lookup flag asked of a volume without casefold */
};
#define F2FS_TUNED_WRITES (F2FS_TUNED_ENCRYPT | F2FS_TUNED_CASEFOLD | F2FS_TUNED_LINEAR_LOOKUP)

/*
 * The superblock @sb with @t applied, into @out, and what changed in
 * *@changes.  A feature already on is no change.  -EINVAL, with the reason
 * in @why, when a feature to turn on may not be turned on after mkfs, the
 * volume has the ro feature, or casefold is asked without an encoding.
 */
int f2fs_tune_plan(const struct f2fs_super_block *sb, const struct f2fs_tune *t,
		   struct f2fs_super_block *out, unsigned int *changes, char *why, size_t why_len);

/*
 * f2fs_tune_plan on the handle's superblock, written with f2fs_write_super
 * when it changes something (*@changes & F2FS_TUNED_WRITES).  Nothing is
 * written when the plan is refused.  A handle opened F2FS_FS_READ on a
 * writable device will do.
 */
int f2fs_tune_super(struct f2fs_fs *fs, const struct f2fs_tune *t, unsigned int *changes, char *why,
		    size_t why_len);

/* ---- defragmentation (defrag.f2fs) ---- */

/* What defrag.f2fs -s, -l, -t and -i ask: block addresses and a length in blocks. */
struct f2fs_defrag_request {
	uint64_t start;	 /* first block of the range; below the main area: its start */
	uint64_t len;	 /* 0: one segment; cut at the main area's end */
	uint64_t target; /* 0: just past the range (shrink: just before it) */
	bool shrink;	 /* the target area runs down from the target, not up */
};

struct f2fs_defrag_report {
	uint64_t valid; /* valid blocks in the range before */
	uint64_t moved; /* of them, moved */
	uint64_t left;	/* valid blocks in the range after (dead ones the SIT still counts) */
};

/*
 * Apply upstream's defaults and clamps to @req (on the handle's geometry)
 * and check it: -EINVAL with the reason in @why when the start is past
 * the main area, the target outside it or inside the range.
 */
int f2fs_defrag_resolve(const struct f2fs_fs *fs, struct f2fs_defrag_request *req, char *why,
			size_t why_len);

/*
 * Move the valid blocks of the resolved range [start, start + len) into
 * the free sections of the target area (from the target's section up to
 * the end of the main area, or with shrink down to its start), updating
 * every owner, then write an unmount checkpoint.  Nothing is written when
 * it is refused: -ENOSPC when the area lacks the sections needed, -EINVAL
 * for a volume that was not unmounted cleanly, is zoned, read-only (ro
 * feature) or device-aliased.  Needs a handle opened F2FS_FS_WRITE.
 */
int f2fs_defrag(struct f2fs_fs *fs, const struct f2fs_defrag_request *req,
		struct f2fs_defrag_report *rep, char *why, size_t why_len);

/*
 * Clean node blocks kept in memory after they are written or read (0: the
 * default, 4096: 16 MiB), and dirty ones held before an operation writes
 * them all back itself, without a checkpoint (0: the default, 8192: 32
 * MiB).  The replay engine keeps as many as the kernel's page cache would,
 * so that writing a file back does not read its inode again from the
 * device, and leaves dirty nodes to its own checkpoints, as the kernel
 * leaves them to the node inode's write-back.
 */
void f2fs_write_set_node_cache(struct f2fs_fs *fs, uint32_t clean_nodes, uint32_t dirty_nodes);

/* Dirty pages of file @ino in the page cache; of all files when @ino is 0. */
uint64_t f2fs_dirty_pages(struct f2fs_fs *fs, uint32_t ino);

/* Dirty node blocks (the kernel's F2FS_DIRTY_NODES: the node inode's dirty pages). */
uint64_t f2fs_dirty_nodes(struct f2fs_fs *fs);

/*
 * Would the kernel serialise this write-back under the writepages mutex
 * (data.c's __should_serialize_io())?  A compressed file, background
 * write-back (F2FS_WB_NONE), or at least @min_seq_blocks dirty pages (0:
 * blocks per segment).
 */
bool f2fs_writepages_serialized(struct f2fs_fs *fs, uint32_t ino, enum f2fs_wb_mode mode,
				uint32_t min_seq_blocks);

/*
 * Write at most @max_pages of the file's dirty pages, lowest index first
 * for F2FS_WB_ALL; for background write-back (F2FS_WB_NONE) from where the
 * file's last background write-back stopped, wrapping to the start once, as
 * the kernel's range_cyclic write-back does (a compressed file: all of
 * them, cluster by cluster), without taking
 * F2FS_LOCK_WRITEPAGES: for a caller that serialises write-back itself and
 * lets concurrent writers' pages interleave as the kernel's do.  *left:
 * the file's pages still dirty.
 */
int f2fs_writepages_some(struct f2fs_fs *fs, uint32_t ino, enum f2fs_wb_mode mode,
			 uint64_t max_pages, uint64_t *left);

/*
 * What f2fs_fsync(@ino) would do: *need is true when the kernel's
 * need_do_checkpoint() asks for a checkpoint rather than a roll-forward
 * chain.  A caller that issues checkpoints itself (merged by a checkpoint
 * thread) writes the file's pages and then its checkpoint.
 */
int f2fs_fsync_needs_checkpoint(struct f2fs_fs *fs, uint32_t ino, bool *need);

/*
 * Has anything a checkpoint writes changed since the last one?  The
 * kernel's SBI_IS_DIRTY: nodes, dentry pages, NAT, SIT; not a regular
 * file's dirty data, nor a data write's new times (lazytime).  The kernel
 * skips a sync checkpoint when nothing has.
 */
bool f2fs_write_dirty(struct f2fs_fs *fs);

/*
 * How the allocator's per-page check of the current sections' room reads
 * a section's checkpointed valid blocks: the per-section count kept in
 * step with the segments' (the kernel since 2025, seed 002), or the sum
 * over the section's segments the kernel computed before (to show what
 * that cost with large sections).
 */
enum f2fs_section_counts {
	F2FS_SECTION_COUNTS_CACHED,
	F2FS_SECTION_COUNTS_LOOP,
};
void f2fs_write_set_section_counts(struct f2fs_fs *fs, enum f2fs_section_counts how);

/* What f2fs_roll_forward() found and applied. */
struct f2fs_recovery {
	uint32_t chain;		   /* node blocks of the chain */
	uint32_t fsynced;	   /* of them fsync-marked inodes, direct and xattr nodes */
	uint32_t recovered_inodes; /* inodes recovered */
	uint32_t created;	   /* of them made after the checkpoint */
	uint32_t inodes, dnodes;   /* chain blocks applied: inode blocks, all */
	uint32_t dentries;	   /* names of new files added to their parents */
	uint32_t blocks;	   /* data blocks taken where the chain names them */
	uint32_t skipped; /* fsynced blocks of no recoverable inode, names without parent */
};

/*
 * Apply the roll-forward chain as the kernel does at mount: the fsynced
 * files' attributes, new files' names, xattrs, inline data and data
 * addresses.  @fs must be opened with F2FS_FS_WRITE | F2FS_FS_ROLL_FORWARD
 * and nothing written through it yet (-EINVAL, -EBUSY); write a checkpoint
 * afterwards (f2fs_checkpoint), which ends the chain.  -EUCLEAN for a chain
 * block the kernel would refuse to recover (a node offset that does not
 * match the file's tree, a data address outside the main area).
 */
int f2fs_roll_forward(struct f2fs_fs *fs, struct f2fs_recovery *rep);

/*
 * Rewrite quota file @type whole with the usage @usage counts (a check's
 * walk), keeping the limits, deadlines and grace times the old file holds
 * when it can be decoded.  Charges made since (and pending ones: @usage
 * was counted before this handle's changes) are added at the next
 * checkpoint.  Once every quota file was rewritten that checkpoint clears
 * CP_QUOTA_NEED_FSCK_FLAG and the files are accounted from then on.
 */
struct f2fs_quota_set;
int f2fs_quota_write(struct f2fs_fs *fs, unsigned int type, const struct f2fs_quota_set *usage);

int f2fs_fix_free_nid(struct f2fs_fs *fs, uint32_t nid);

/*
 * Zoned volumes, for fsck's repairs: open the write state (which moves every
 * log whose zone's pointer is not where it would write next to a fresh
 * zone, as the kernel does at mount) and say how many moved; reset the zone
 * of free section @secno; finish the open zone of section @secno, which no
 * log writes.  -EINVAL for a section that does not qualify; no-ops on
 * volumes that are not zoned.
 */
int f2fs_write_zones_align_logs(struct f2fs_fs *fs, unsigned int *moved);
int f2fs_write_zone_reset(struct f2fs_fs *fs, uint32_t secno);
int f2fs_write_zone_finish(struct f2fs_fs *fs, uint32_t secno);

#endif
