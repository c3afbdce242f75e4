/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a host directory tree into a volume (sload.f2fs), through the
 * write path: directories, regular files (their holes kept as holes),
 * symlinks, device, fifo and socket nodes, hard links (by host inode),
 * extended attributes (user., trusted. and security.), owners, modes and
 * times, and optionally SELinux labels from a file_contexts file and
 * owners, modes and file capabilities from an Android canned fs_config
 * file.
 *
 * With compression, a regular file whose data fits inline stays inline
 * (and plain, as upstream's sload keeps it); a bigger one is compressed
 * cluster by cluster.  Compression alone frees no block (the kernel keeps
 * each cluster's saved blocks reserved); releasing them (-r, the kernel's
 * F2FS_IOC_RELEASE_COMPRESS_BLOCKS) does, and leaves those files
 * read-only.
 *
 * The load is all or nothing: it first measures the source and refuses one
 * that does not fit (saying how much it needs), and on any error it stops
 * before writing a checkpoint, so the volume stays as its last checkpoint
 * left it.  Errors come back as a negative errno and a one-line reason
 * naming the host path.
 */
#ifndef F2FS_LOAD_H
#define F2FS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/fs.h"

struct f2fs_load_options {
	const char *source;	       /* host directory (-f) */
	const char *mount_point;       /* target path prefix for fs_config and labels (-t), "/" */
	int64_t timestamp;	       /* -T: every inode's times; < 0 keeps the source's */
	bool preserve_owner;	       /* -P: uid/gid from the source, else 0:0 */
	const char *file_contexts;     /* -s: SELinux labels (needs libselinux) */
	/* -C: Android canned fs_config ("path uid gid mode [capabilities=N]") */
	const char *fs_config;
	bool compress;		       /* -c: compress regular files too big to keep inline */
	uint8_t compress_algorithm;    /* -a: F2FS_COMPRESS_LZ4 (the default) or _LZO */
	bool release_compressed;       /* -r: give back the blocks compression saved */
	uint8_t log_cluster_size;      /* -L: blocks per cluster, log2 (2 when 0) */
	const char *const *extensions; /* -i or -x: NULL-terminated list, or NULL for all */
	bool extensions_exclude;       /* -x: the list names files not to compress */
};

struct f2fs_load_stats {
	uint64_t files, dirs, symlinks, specials, hard_links, xattrs;
	uint64_t bytes;	      /* file data bytes loaded */
	uint64_t need_blocks; /* what the measuring pass counted (data, dentries, nodes) */
};

void f2fs_load_options_init(struct f2fs_load_options *o);

/* Is this build able to label from a file_contexts file? */
bool f2fs_load_has_selinux(void);

/*
 * Load @o->source into the root directory of @fs (opened for writing) and
 * write a checkpoint at "unmount".  Names already in the volume are
 * refused (-EEXIST), as upstream's sload refuses them.  Progress goes
 * through the handle's hook: pass 1 measures, pass 2 loads (in files).
 */
int f2fs_load_tree(struct f2fs_fs *fs, const struct f2fs_load_options *o,
		   struct f2fs_load_stats *stats, char *why, size_t why_len);

#endif
