// SPDX-License-Identifier: GPL-2.0
/*
 * The Android sparse image backend.  Android flashes partitions from
 * sparse files: a header, then chunks that each cover a run of blocks and
 * are raw (the blocks' bytes follow), fill (a 32-bit pattern repeated) or
 * "don't care" (nothing is written there).  A sparse image cannot be
 * written in place, so this backend keeps the whole image in memory while
 * the device is open -- an anonymous mapping, of which only the blocks
 * written take memory -- with two bitmaps saying what each block is: data
 * (a raw chunk), zeroed (a zero fill chunk: metadata areas the kernel reads
 * must read as zeros on the flashed partition too), or neither (never
 * touched: "don't care").  Closing a device written to hands the runs to
 * android-libsparse, which writes the file; its raw chunks point into the
 * mapping, so nothing is copied, and the mapping's pages are freed as
 * they are written out.  The write path builds its runs of blocks right in
 * the mapping (f2fs_dev_memory), so a block is copied into it only once.
 * Opening an existing image reads its chunks through libsparse into the
 * same form.  Without libsparse the calls say -EOPNOTSUPP.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev_internal.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"

#ifdef HAVE_LIBSPARSE
#include <sparse/sparse.h>
#endif

/* The first word of a sparse image (its file header's magic, little-endian). */
#define SPARSE_HEADER_MAGIC 0xed26ff3au

int f2fs_dev_sparse_probe(const char *path)
{
	le32 magic;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return dev_neg_errno();
	n = pread(fd, &magic, sizeof(magic), 0);
	close(fd);
	if (n < 0)
		return dev_neg_errno();
	return n == (ssize_t)sizeof(magic) && le32_get(magic) == SPARSE_HEADER_MAGIC;
}

#ifndef HAVE_LIBSPARSE

bool f2fs_dev_sparse_supported(void)
{
	return false;
}

int f2fs_dev_sparse_create(const char *path, uint64_t size, struct f2fs_device **out)
{
	(void)path, (void)size;
	*out = NULL;
	return -EOPNOTSUPP;
}

int f2fs_dev_sparse_open(const char *path, unsigned int flags, struct f2fs_device **out)
{
	(void)path, (void)flags;
	*out = NULL;
	return -EOPNOTSUPP;
}

#else

/*
 * A chunk covers at most this much: the chunk header's byte count is 32
 * bits, and flashing tools read a raw chunk in one piece (upstream mkfs
 * caps raw chunks at the same 1 GiB).
 */
#define CHUNK_BLOCKS  ((1u << 30) / F2FS_BLKSIZE)

/*
 * The mapping is made present a region at a time on the first write into
 * it: one call instead of a page fault per block, which cost a tenth of a
 * load's time.  Regions are small enough that a metadata area written in
 * a few blocks (superblock, checkpoint, NAT, SIT, SSA) does not take much
 * more: with 2 MiB ones a load of /usr/include made 20 MiB present for
 * 150 blocks, an eighth of the image.
 */
#define REGION_BYTES  (256u << 10)

struct sparse_image {
	int fd;
	unsigned char *buf; /* the image: nblocks blocks, untouched ones read as zeros */
	uint64_t nblocks;
	uint64_t *data;	     /* bit per block: holds data, a raw chunk */
	uint64_t *zero;	     /* bit per block: reads as zeros, a fill chunk (never with data) */
	uint64_t *populated; /* bit per REGION_BYTES of the mapping: its pages are in place */
	bool dirty;	     /* written since it was opened */
	bool created;	     /* the file did not exist before: removed when nothing is written */
};

bool f2fs_dev_sparse_supported(void)
{
	return true;
}

/* ---- block states ---- */

static bool bit_test(const uint64_t *map, uint64_t i)
{
	return map[i / 64] >> (i % 64) & 1;
}

static void bits_assign(uint64_t *map, uint64_t first, uint64_t end, bool on)
{
	uint64_t i = first;

	for (; i < end && i % 64; i++)
		map[i / 64] =
		    on ? map[i / 64] | 1ull << (i % 64) : map[i / 64] & ~(1ull << (i % 64));
	for (; i + 64 <= end; i += 64)
		map[i / 64] = on ? ~0ull : 0;
	for (; i < end; i++)
		map[i / 64] =
		    on ? map[i / 64] | 1ull << (i % 64) : map[i / 64] & ~(1ull << (i % 64));
}

/* The first block at or after @i (before @end) whose bit in @map is @on; @end when none. */
static uint64_t bit_find(const uint64_t *map, uint64_t i, uint64_t end, bool on)
{
	while (i < end) {
		uint64_t w = on ? map[i / 64] : ~map[i / 64];

		w &= ~0ull << (i % 64);
		if (w) {
			i = i / 64 * 64 + (uint64_t)__builtin_ctzll(w);
			return i < end ? i : end;
		}
		i = (i / 64 + 1) * 64;
	}
	return end;
}

/* Blocks [first, end) now hold data. */
static void mark_data(struct sparse_image *s, uint64_t first, uint64_t end)
{
	bits_assign(s->data, first, end, true);
	bits_assign(s->zero, first, end, false);
}

/* ---- memory ---- */

static void image_free(struct sparse_image *s)
{
	if (s->buf)
		munmap(s->buf, s->nblocks * F2FS_BLKSIZE);
	free(s->data);
	free(s->zero);
	free(s->populated);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/* An image of @nblocks untouched blocks, with no file yet. */
static struct sparse_image *image_alloc(uint64_t nblocks)
{
	struct sparse_image *s = calloc(1, sizeof(*s));
	size_t words = (size_t)((nblocks + 63) / 64);

	if (!s)
		return NULL;
	s->fd = -1;
	s->nblocks = nblocks;
	s->data = calloc(words, sizeof(uint64_t));
	s->zero = calloc(words, sizeof(uint64_t));
	s->populated =
	    calloc((size_t)((nblocks * F2FS_BLKSIZE / REGION_BYTES + 64) / 64), sizeof(uint64_t));
	/* only the pages written are ever backed: a large image costs what it holds */
	s->buf = mmap(NULL, nblocks * F2FS_BLKSIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->buf == MAP_FAILED)
		s->buf = NULL;
	if (!s->data || !s->zero || !s->populated || !s->buf) {
		image_free(s);
		return NULL;
	}
	return s;
}

/* Zero [off, off+len) of the mapping, giving whole pages back to the system. */
static void clear_bytes(struct sparse_image *s, uint64_t off, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t p = page > 0 ? (uint64_t)page : F2FS_BLKSIZE;
	uint64_t head = (off + p - 1) / p * p, tail = (off + len) / p * p;

	if (len < (1u << 20) || head >= tail ||
	    madvise(s->buf + head, tail - head, MADV_DONTNEED)) {
		memset(s->buf + off, 0, len);
		return;
	}
	memset(s->buf + off, 0, head - off);
	memset(s->buf + tail, 0, off + len - tail);
}

/* Make the pages of [off, off+len) present before they are written (see REGION_BYTES). */
static void populate(struct sparse_image *s, uint64_t off, uint64_t len)
{
	uint64_t size = s->nblocks * F2FS_BLKSIZE, r, last = (off + len - 1) / REGION_BYTES;

	if (!len)
		return;
	for (r = off / REGION_BYTES; r <= last; r++) {
		uint64_t start = r * REGION_BYTES;

		if (bit_test(s->populated, r))
			continue;
		bits_assign(s->populated, r, r + 1, true);
		/* a kernel without MADV_POPULATE_WRITE (5.14) faults the pages in as they come */
		madvise(s->buf + start, size - start < REGION_BYTES ? size - start : REGION_BYTES,
			MADV_POPULATE_WRITE);
	}
}

/* ---- the backend ---- */

static int sparse_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	memcpy(buf, dev->sparse->buf + off, len);
	return 0;
}

static int sparse_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
			enum f2fs_dev_tag tag)
{
	struct sparse_image *s = dev->sparse;

	(void)tag;
	populate(s, off, len);
	if (buf != s->buf + off) /* else built in place (f2fs_dev_memory) */
		memcpy(s->buf + off, buf, len);
	mark_data(s, off / F2FS_BLKSIZE, (off + len + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE);
	s->dirty = true;
	return 0;
}

/*
 * Whole blocks in [off, off+len) become zero fill; a block only partly
 * covered keeps its kind (data stays data, with zeros in that part).
 */
static int sparse_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	struct sparse_image *s = dev->sparse;
	uint64_t first = (off + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE, end = (off + len) / F2FS_BLKSIZE;

	clear_bytes(s, off, len);
	if (first < end) {
		bits_assign(s->data, first, end, false);
		bits_assign(s->zero, first, end, true);
	}
	s->dirty = true;
	return 0;
}

/*
 * A discard leaves whole blocks "don't care": the flashed partition keeps
 * whatever it held there, so nothing may count on zeros.
 */
static int sparse_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	struct sparse_image *s = dev->sparse;
	uint64_t first = (off + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE, end = (off + len) / F2FS_BLKSIZE;

	clear_bytes(s, off, len);
	if (first < end) {
		bits_assign(s->data, first, end, false);
		bits_assign(s->zero, first, end, false);
	}
	*reads_zero = false;
	s->dirty = true;
	return 0;
}

static int sparse_flush(struct f2fs_device *dev)
{
	(void)dev; /* the file is written on close */
	return 0;
}

/* The image's memory, made present first: the caller writes there next. */
static void *sparse_memory(struct f2fs_device *dev, uint64_t off, size_t len)
{
	populate(dev->sparse, off, len);
	return dev->sparse->buf + off;
}

static void sparse_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	(void)dev, (void)off, (void)len; /* in memory */
}

/* Hand the runs of data and zeroed blocks to libsparse as chunks of at most CHUNK_BLOCKS. */
static int add_chunks(struct sparse_image *s, struct sparse_file *sf)
{
	uint64_t b = 0, end;
	int ret = 0;

	while (!ret && b < s->nblocks) {
		bool data = bit_test(s->data, b);

		if (!data && !bit_test(s->zero, b)) {
			b = bit_find(s->data, b, bit_find(s->zero, b, s->nblocks, true), true);
			continue;
		}
		end = bit_find(data ? s->data : s->zero, b, s->nblocks, false);
		if (end - b > CHUNK_BLOCKS)
			end = b + CHUNK_BLOCKS;
		if (data)
			ret = sparse_file_add_data(sf, s->buf + b * F2FS_BLKSIZE,
						   (unsigned int)((end - b) * F2FS_BLKSIZE),
						   (unsigned int)b);
		else
			ret = sparse_file_add_fill(sf, 0, (unsigned int)((end - b) * F2FS_BLKSIZE),
						   (unsigned int)b);
		b = end;
	}
	return ret ? -ENOMEM : 0;
}

/*
 * The sparse file is written in order through a callback of libsparse:
 * chunk headers and fill values (a few bytes each) gather in a small
 * buffer, raw chunks go straight from the mapping in slices of
 * RELEASE_BYTES, and each slice's pages are given back to the system as
 * soon as they are written.  The file's page cache then takes the memory
 * the image gives up instead of coming on top of it: a load holds one
 * copy of the image at its end, not two.  Slices are 1 MiB: with 8 MiB
 * ones (large writes, for which the kernel's page cache takes large
 * folios) half of the loads of /usr/include spent twice as long, 0.55 s
 * against 0.26 s, in the writes, on a virtual machine that gives free
 * memory back to its host; with 1 MiB ones none did.
 */
#define STAGE_BYTES   (64u << 10)
#define RELEASE_BYTES (1u << 20)

struct sparse_out {
	struct sparse_image *s;
	unsigned char stage[STAGE_BYTES];
	size_t staged;
	long page;
	int err; /* the first write's error: libsparse may pass on only that one failed */
};

/* Write all of [buf, buf+len) at the file's position. */
static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return dev_neg_errno();
		if (!n)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int flush_stage(struct sparse_out *o)
{
	int ret = write_all(o->s->fd, o->stage, o->staged);

	o->staged = 0;
	return ret;
}

/* The whole pages of [p, p+len), inside the mapping, back to the system: the image is closing. */
static void release_written(struct sparse_out *o, const unsigned char *p, size_t len)
{
	uintptr_t first =
	    ((uintptr_t)p + (uintptr_t)o->page - 1) / (uintptr_t)o->page * (uintptr_t)o->page;
	uintptr_t end = ((uintptr_t)p + len) / (uintptr_t)o->page * (uintptr_t)o->page;
	const unsigned char *buf = o->s->buf;

	if (p < buf || p + len > buf + o->s->nblocks * F2FS_BLKSIZE || first >= end)
		return;
	madvise((void *)first, end - first, MADV_DONTNEED);
}

static int emit(void *priv, const void *data, size_t len)
{
	struct sparse_out *o = priv;
	const unsigned char *p = data;
	int ret = 0;

	if (!data)
		return o->err = -EINVAL; /* a skip: only a non-sparse file has them */
	if (len <= STAGE_BYTES - o->staged) {
		memcpy(o->stage + o->staged, data, len);
		o->staged += len;
		return 0;
	}
	ret = flush_stage(o);
	while (!ret && len) {
		size_t n = len < RELEASE_BYTES ? len : RELEASE_BYTES;

		ret = write_all(o->s->fd, p, n);
		release_written(o, p, n);
		p += n;
		len -= n;
	}
	if (ret && !o->err)
		o->err = ret;
	return ret;
}

/* Replace the file's contents with the image in sparse form; the image is not read after. */
static int write_image(struct sparse_image *s)
{
	struct sparse_file *sf =
	    sparse_file_new(F2FS_BLKSIZE, (int64_t)(s->nblocks * F2FS_BLKSIZE));
	struct sparse_out *o = malloc(sizeof(*o));
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	if (!sf || !o) {
		if (sf)
			sparse_file_destroy(sf);
		free(o);
		return -ENOMEM;
	}
	o->s = s;
	o->staged = 0;
	o->err = 0;
	o->page = page > 0 ? page : F2FS_BLKSIZE;
	ret = add_chunks(s, sf);
	if (!ret && (ftruncate(s->fd, 0) || lseek(s->fd, 0, SEEK_SET) < 0))
		ret = dev_neg_errno();
	/*
	 * No fsync, as upstream: the file is a build artifact written whole
	 * at the end, not a volume whose writes must reach the disk in
	 * order; one cut short by a crash fails libsparse's chunk count check
	 * rather than reading as a wrong image.  The fsync was a fifth of a
	 * load's time.
	 */
	if (!ret)
		ret = sparse_file_callback(sf, true, false, emit, o);
	if (!ret)
		ret = flush_stage(o);
	else
		ret = o->err ? o->err : ret < 0 ? ret : -EIO;
	sparse_file_destroy(sf);
	free(o);
	return ret;
}

static int sparse_close(struct f2fs_device *dev)
{
	struct sparse_image *s = dev->sparse;
	int ret = 0;

	if (s->dirty && !dev->readonly)
		ret = write_image(s);
	else if (s->created)
		unlink(dev->path);
	image_free(s);
	return ret;
}

static const struct dev_ops sparse_ops = {
    .read = sparse_read,
    .write = sparse_write,
    .zero = sparse_zero,
    .discard = sparse_discard,
    .flush = sparse_flush,
    .close = sparse_close,
    .prefetch = sparse_prefetch,
    .memory = sparse_memory,
};

/* A writer holds the image's flock, as unix.c's writers of image files do. */
static int lock_writer(int fd)
{
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		return -EBUSY;
	return 0;
}

static int device_over(const char *path, struct sparse_image *s, bool readonly,
		       struct f2fs_device **out)
{
	struct f2fs_device *dev = dev_alloc(path, &sparse_ops);

	if (!dev) {
		image_free(s);
		return -ENOMEM;
	}
	dev->sparse = s;
	dev->readonly = readonly;
	dev->info.size_bytes = s->nblocks * F2FS_BLKSIZE;
	dev->info.sector_size = 512;
	dev->info.is_regular = true;
	*out = dev;
	return 0;
}

int f2fs_dev_sparse_create(const char *path, uint64_t size, struct f2fs_device **out)
{
	struct sparse_image *s;
	bool created;
	int fd, ret;

	*out = NULL;
	if (!size || size % F2FS_BLKSIZE || size / F2FS_BLKSIZE > UINT32_MAX)
		return -EINVAL;
	fd = open(path, O_RDWR | O_CLOEXEC | O_CREAT | O_EXCL, 0644);
	created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return dev_neg_errno();
	ret = lock_writer(fd);
	s = ret ? NULL : image_alloc(size / F2FS_BLKSIZE);
	if (!s) {
		close(fd);
		if (created)
			unlink(path);
		return ret ? ret : -ENOMEM;
	}
	s->fd = fd;
	s->created = created;
	return device_over(path, s, false, out);
}

/* ---- reading an image ---- */

/*
 * libsparse's walk over the chunks hands out, per chunk, its header and
 * then its payload: a raw chunk's blocks (len == nr * block size) or a
 * fill chunk's 4-byte pattern.  Headers (the file's has nr == 0; a chunk's
 * is 12 bytes) are skipped.  Don't-care chunks are not walked at all.
 */
static int import_chunk(void *priv, const void *data, size_t len, unsigned int block,
			unsigned int nr)
{
	struct sparse_image *s = priv;
	uint64_t b, end = (uint64_t)block + nr;
	uint32_t fill;

	if (!nr || !data || (len != (size_t)nr * F2FS_BLKSIZE && len != sizeof(fill)))
		return 0;
	if (end > s->nblocks)
		return -EINVAL;
	if (len == sizeof(fill)) {
		memcpy(&fill, data, sizeof(fill));
		if (!fill) {
			bits_assign(s->zero, block, end, true);
			return 0;
		}
		for (b = (uint64_t)block * F2FS_BLKSIZE; b < end * F2FS_BLKSIZE; b += sizeof(fill))
			memcpy(s->buf + b, &fill, sizeof(fill));
	} else {
		populate(s, (uint64_t)block * F2FS_BLKSIZE, len);
		memcpy(s->buf + (uint64_t)block * F2FS_BLKSIZE, data, len);
	}
	mark_data(s, block, end);
	return 0;
}

static int import_image(int fd, struct sparse_image **out)
{
	struct sparse_file *sf = sparse_file_import(fd, false, false);
	struct sparse_image *s;
	int64_t len;
	int ret;

	*out = NULL;
	if (!sf)
		return -EINVAL;
	len = sparse_file_len(sf, false, false);
	if (sparse_file_block_size(sf) != F2FS_BLKSIZE) {
		sparse_file_destroy(sf);
		return -EFBIG;
	}
	if (len < F2FS_BLKSIZE || (uint64_t)len / F2FS_BLKSIZE > UINT32_MAX) {
		sparse_file_destroy(sf);
		return -EINVAL;
	}
	s = image_alloc((uint64_t)len / F2FS_BLKSIZE);
	if (!s) {
		sparse_file_destroy(sf);
		return -ENOMEM;
	}
	ret = sparse_file_foreach_chunk(sf, true, false, import_chunk, s);
	sparse_file_destroy(sf);
	if (ret) {
		image_free(s);
		return ret == -EINVAL ? ret : -EIO;
	}
	s->fd = fd;
	*out = s;
	return 0;
}

int f2fs_dev_sparse_open(const char *path, unsigned int flags, struct f2fs_device **out)
{
	bool ro = flags & F2FS_DEV_RDONLY;
	struct sparse_image *s;
	int fd, ret;

	*out = NULL;
	fd = open(path, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (fd < 0)
		return dev_neg_errno();
	ret = f2fs_dev_sparse_probe(path);
	if (ret == 0)
		ret = -EINVAL;
	else if (ret > 0)
		ret = ro ? 0 : lock_writer(fd);
	if (!ret)
		ret = import_image(fd, &s);
	if (ret) {
		close(fd);
		return ret;
	}
	return device_over(path, s, ro, out);
}

#endif
