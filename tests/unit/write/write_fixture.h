/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the write path's unit tests (the cleaner, compression, the repair
 * primitives) share on top of fixture.h: a volume opened for writing, a
 * checkpoint, the checker's verdict counted by problem code, seeded file
 * contents, and a file read back through the read layer (lib/read) of a
 * read-only handle, so that what the write path wrote is judged by code
 * that did not write it.
 *
 * Like fixture.h's, these functions record no failure themselves: they
 * return false or an error, say why on stderr, and the caller CHECKs.
 */
#ifndef NG_WRITE_FIXTURE_H
#define NG_WRITE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/check.h"
#include "f2fs/fs.h"
#include "fixture.h"

#define WFX_ROOT 3u

/* The checker's verdict on a volume. */
struct wfx_verdict {
	unsigned int count[PR_NR_CODES]; /* reports per problem code (warnings too) */
	struct f2fs_problem last[PR_NR_CODES];
	struct f2fs_check_result r;
};

/* fixture_init with @features (NULL: the defaults) and -s @segs_per_sec, opened and formatted. */
bool wfx_format(struct fixture *fx, uint64_t bytes, const char *features, uint32_t segs_per_sec);

/* wfx_format with blocks of 1 << @log_blksize bytes (-b; 0: mkfs's default, 4 KiB). */
bool wfx_format_blk(struct fixture *fx, uint64_t bytes, const char *features, uint32_t segs_per_sec,
		    uint32_t log_blksize);

/* Open the volume on fx->dev for writing. */
bool wfx_open_rw(struct fixture *fx, struct f2fs_fs **fs);

/* A sync checkpoint, or an unmount one when @umount. */
int wfx_checkpoint(struct f2fs_fs *fs, bool umount);

/*
 * Check the volume through a new read-only handle: 0 with @v filled, or -1
 * when it could not be opened or the check could not run.  Problems are
 * printed on stderr, so that a failing case shows what the checker saw.
 */
int wfx_check(struct fixture *fx, struct wfx_verdict *v);

/* The number of problems the checker finds (warnings not counted), -1 when it cannot run. */
int wfx_problems(struct fixture *fx);

/* @len bytes that depend on @seed only. */
void wfx_fill(uint8_t *buf, size_t len, uint32_t seed);

/* A new inode @name in @dir, with the fixture's time. */
int wfx_create(struct f2fs_fs *fs, uint32_t dir, const char *name, uint16_t mode, uint32_t *ino);

/*
 * Does file @ino hold exactly @len bytes, @want, read through lib/read on a
 * read-only handle?  (Compressed files are the write path's to read.)
 */
bool wfx_reads_back(struct fixture *fx, uint32_t ino, const uint8_t *want, size_t len);

/* Inode @ino as lib/read reads it on a read-only handle, into a block of the volume's size. */
bool wfx_read_inode(struct fixture *fx, uint32_t ino, struct f2fs_node *out);

/*
 * Change inode @ino in place on the device, behind the write path's back:
 * @edit(node, @arg), then its checksum sealed again (4 KiB volumes only).
 */
bool wfx_edit_inode(struct fixture *fx, uint32_t ino, void (*edit)(struct f2fs_node *, void *),
		    void *arg);

/* The address of file block @fblk of @ino, walked by lib/read (0: a hole or none). */
uint32_t wfx_file_block_addr(struct f2fs_fs *fs, uint32_t ino, uint64_t fblk);

#endif
