// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the source's regular files ahead of the load (load_internal.h).
 * Opening, seeking and reading the source took a fifth of a load, one
 * file after another on the thread that builds the volume; here a thread
 * of its own walks the tree the first pass read, in the order the load
 * creates the files, and hands each file's data extents over through a
 * ring of buffers, then the file itself, still open, for its xattrs (or
 * closed already when it has none, the common case).  The ring is
 * bounded, so the reader runs at most LD_SLOTS pieces ahead.
 * Every regular file gets exactly one END, whatever failed, so the two
 * threads never lose step: a file the reader cannot open or read ends
 * with the error, and files under a directory it cannot open end with
 * that directory's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "load_internal.h"

#define LD_SLOTS 16

struct ld_slot {
	struct ld_piece p;
	uint8_t *buf; /* LD_PIECE_BYTES */
};

struct ld_reader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	struct ld_slot slots[LD_SLOTS];
	unsigned int head, count; /* the consumer's slot, slots filled */
	bool stop;
	const struct src_dir *tree;
	int root_fd;
	uint32_t blksize;
};

/* A free slot to fill, waiting for the consumer; NULL when told to stop. */
static struct ld_slot *slot_get(struct ld_reader *r)
{
	struct ld_slot *s = NULL;

	pthread_mutex_lock(&r->lock);
	while (!r->stop && r->count == LD_SLOTS)
		pthread_cond_wait(&r->emptied, &r->lock);
	if (!r->stop)
		s = &r->slots[(r->head + r->count) % LD_SLOTS];
	pthread_mutex_unlock(&r->lock);
	return s;
}

static void slot_put(struct ld_reader *r)
{
	pthread_mutex_lock(&r->lock);
	r->count++;
	pthread_cond_signal(&r->filled);
	pthread_mutex_unlock(&r->lock);
}

/* The END of a file: @fd open (given away) and @err 0, or @fd -1 and the error. */
static bool emit_end(struct ld_reader *r, int fd, int err)
{
	struct ld_slot *s = slot_get(r);

	if (!s) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	s->p = (struct ld_piece){.kind = LD_END, .fd = fd, .err = err};
	slot_put(r);
	return true;
}

/*
 * Where the data extent at @data of open file @fd (@size bytes) ends.  A
 * file within one volume block that has data at its start is taken whole:
 * that block is written either way, with zeros where a hole was.
 */
static off_t extent_end(const struct ld_reader *r, int fd, off_t data, off_t size)
{
	off_t hole;

	if (!data && size <= (off_t)r->blksize)
		return size;
	hole = lseek(fd, data, SEEK_HOLE);
	return hole < 0 ? size : hole;
}

/* The data extents of open file @fd (@size bytes) as DATA pieces: 0, -errno, or 1 to stop. */
static int read_extents(struct ld_reader *r, int fd, off_t size)
{
	off_t pos = 0;

	while (pos < size) {
		off_t data = lseek(fd, pos, SEEK_DATA), hole;

		if (data < 0)
			return 0; /* no data past @pos (or no SEEK_DATA): the rest is a hole */
		hole = extent_end(r, fd, data, size);
		for (pos = data; pos < hole;) {
			struct ld_slot *s = slot_get(r);
			size_t want =
			    (size_t)(hole - pos < (off_t)LD_PIECE_BYTES ? hole - pos
									: (off_t)LD_PIECE_BYTES);
			ssize_t got;

			if (!s)
				return 1;
			got = pread(fd, s->buf, want, pos);
			if (got <= 0)
				return got < 0 ? -errno : -EIO; /* -EIO: the file shrank */
			s->p = (struct ld_piece){
			    .kind = LD_DATA, .off = pos, .len = (size_t)got, .data = s->buf};
			slot_put(r);
			pos += got;
		}
	}
	return 0;
}

/* Regular file @e of directory @dfd: its pieces and END; false when told to stop. */
static bool read_file(struct ld_reader *r, int dfd, const struct src_entry *e)
{
	int fd = openat(dfd, e->d->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0)
		return emit_end(r, -1, -errno);
	ssize_t names;

	ret = read_extents(r, fd, e->sb.st_size);
	if (ret) {
		close(fd);
		return ret < 0 && emit_end(r, -1, ret);
	}
	names = flistxattr(fd, NULL, 0);
	if (!names || (names < 0 && errno == ENOTSUP)) {
		close(fd); /* no xattrs to copy */
		fd = -1;
	}
	return emit_end(r, fd, 0);
}

/* Every regular file under @d ends with @err (its directory could not be opened). */
static bool fail_tree(struct ld_reader *r, const struct src_dir *d, int err)
{
	int i;

	for (i = 0; i < d->n; i++) {
		const struct src_entry *e = &d->e[i];

		if (S_ISREG(e->sb.st_mode) && !emit_end(r, -1, err))
			return false;
		if (S_ISDIR(e->sb.st_mode) && !fail_tree(r, &e->sub, err))
			return false;
	}
	return true;
}

/* The regular files of directory @d (open as @dfd), depth first; false when told to stop. */
static bool walk(struct ld_reader *r, int dfd, const struct src_dir *d)
{
	int i;

	for (i = 0; i < d->n; i++) {
		const struct src_entry *e = &d->e[i];
		bool go = true;
		int fd;

		if (S_ISREG(e->sb.st_mode)) {
			go = read_file(r, dfd, e);
		} else if (S_ISDIR(e->sb.st_mode)) {
			fd = openat(dfd, e->d->d_name,
				    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_DIRECTORY);
			go = fd < 0 ? fail_tree(r, &e->sub, -errno) : walk(r, fd, &e->sub);
			if (fd >= 0)
				close(fd);
		}
		if (!go)
			return false;
	}
	return true;
}

static void *reader_run(void *arg)
{
	struct ld_reader *r = arg;

	walk(r, r->root_fd, r->tree);
	return NULL;
}

static void reader_free(struct ld_reader *r)
{
	unsigned int i;

	for (i = 0; i < LD_SLOTS; i++)
		free(r->slots[i].buf);
	free(r);
}

int ld_reader_start(const struct src_dir *tree, int root_fd, uint32_t blksize,
		    struct ld_reader **out)
{
	struct ld_reader *r = calloc(1, sizeof(*r));
	unsigned int i;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	for (i = 0; i < LD_SLOTS; i++) {
		r->slots[i].buf = malloc(LD_PIECE_BYTES);
		if (!r->slots[i].buf) {
			reader_free(r);
			return -ENOMEM;
		}
	}
	r->tree = tree;
	r->root_fd = root_fd;
	r->blksize = blksize;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->filled, NULL);
	pthread_cond_init(&r->emptied, NULL);
	if (pthread_create(&r->thread, NULL, reader_run, r)) {
		reader_free(r);
		return -EAGAIN;
	}
	*out = r;
	return 0;
}

const struct ld_piece *ld_reader_next(struct ld_reader *r)
{
	const struct ld_piece *p;

	pthread_mutex_lock(&r->lock);
	while (!r->count)
		pthread_cond_wait(&r->filled, &r->lock);
	p = &r->slots[r->head].p;
	pthread_mutex_unlock(&r->lock);
	return p;
}

void ld_reader_done(struct ld_reader *r)
{
	pthread_mutex_lock(&r->lock);
	r->head = (r->head + 1) % LD_SLOTS;
	r->count--;
	pthread_cond_signal(&r->emptied);
	pthread_mutex_unlock(&r->lock);
}

void ld_reader_stop(struct ld_reader *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_signal(&r->emptied);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	for (; r->count; r->count--, r->head = (r->head + 1) % LD_SLOTS)
		if (r->slots[r->head].p.kind == LD_END && r->slots[r->head].p.fd >= 0)
			close(r->slots[r->head].p.fd);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->filled);
	pthread_cond_destroy(&r->emptied);
	reader_free(r);
}
