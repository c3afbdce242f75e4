/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader's files share: the source tree as the first pass read
 * it, and the reader that reads its regular files ahead of the second
 * pass on a thread of its own (reader.c), so opening and reading the
 * source overlaps with building the volume.
 */
#ifndef F2FS_LOAD_INTERNAL_H
#define F2FS_LOAD_INTERNAL_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A host directory as the first pass read it: its entries, sorted by name. */
struct src_dir {
	struct src_entry *e;
	int n;
};

struct src_entry {
	struct dirent *d;   /* the name */
	struct stat sb;	    /* its lstat */
	struct src_dir sub; /* a directory's entries */
};

/*
 * One piece of a regular file, in load order: the data extents of a file
 * (DATA, at most LD_PIECE_BYTES each, in file order), then its END.
 */
enum ld_piece_kind { LD_DATA, LD_END };

struct ld_piece {
	enum ld_piece_kind kind;
	off_t off;	     /* DATA: where its bytes go in the file */
	size_t len;	     /* DATA: bytes at data */
	const uint8_t *data; /* DATA */
	int fd;	 /* END: the file, still open, for its xattrs (the caller closes it); -1 when
		    it has none, or on an error */
	int err; /* END: 0, or the negative errno of what failed */
};

#define LD_PIECE_BYTES (256u << 10)

struct ld_reader;

/*
 * Start reading, on a thread, every regular file of @tree (host directory
 * @root_fd, not closed by the reader), depth first and in entry order as
 * the load creates them: data extents only (SEEK_DATA/SEEK_HOLE), a file
 * within one @blksize block that has data at its start whole, each file's
 * size taken from its lstat in @tree.  Returns 0 or -ENOMEM / -EAGAIN.
 */
int ld_reader_start(const struct src_dir *tree, int root_fd, uint32_t blksize,
		    struct ld_reader **out);

/* The next piece (waiting for the reader); valid until ld_reader_done(). */
const struct ld_piece *ld_reader_next(struct ld_reader *r);
void ld_reader_done(struct ld_reader *r);

/* Stop the reader, close what it left open and free it (NULL is fine). */
void ld_reader_stop(struct ld_reader *r);

#endif
