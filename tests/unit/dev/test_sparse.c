// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/dev/sparse.c, the Android sparse image backend: what
 * a device writes, zeroes and leaves alone comes out as raw, fill and
 * "don't care" chunks, read back here through libsparse itself; an image
 * opened again reads as it was written and keeps its fill chunks; a
 * read-only one is never rewritten; a file that is not a sparse image, a
 * damaged one and one of another block size are refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "test.h"

#ifdef HAVE_LIBSPARSE
#include <sparse/sparse.h>

#define BLK	 4096u
#define NBLOCKS	 64u
#define MAX_RUNS 16

static const char *tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* A fresh name in the temporary folder, for a file that does not exist yet. */
static void temp_name(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/test_sparse.XXXXXX", tmp_dir());
	fd = mkstemp(path);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

/* One chunk as libsparse reads it back: kind 'r' (raw) or 'f' (fill). */
struct run {
	char kind;
	unsigned int block, nr;
	uint32_t fill;
	unsigned char first; /* a raw chunk's first byte */
};

struct runs {
	struct run r[MAX_RUNS];
	unsigned int n;
	int64_t len;
};

static int collect(void *priv, const void *data, size_t len, unsigned int block, unsigned int nr)
{
	struct runs *rs = priv;
	struct run *r;

	if (!nr || !data || (len != (size_t)nr * BLK && len != 4) || rs->n == MAX_RUNS)
		return 0;
	r = &rs->r[rs->n++];
	r->block = block;
	r->nr = nr;
	if (len == 4) {
		r->kind = 'f';
		memcpy(&r->fill, data, 4);
	} else {
		r->kind = 'r';
		r->first = *(const unsigned char *)data;
	}
	return 0;
}

/* The chunks of the sparse file at @path, through libsparse; false when it does not import. */
static bool read_runs(const char *path, struct runs *rs)
{
	int fd = open(path, O_RDONLY);
	struct sparse_file *sf;

	memset(rs, 0, sizeof(*rs));
	if (fd < 0)
		return false;
	sf = sparse_file_import(fd, false, false);
	if (sf) {
		rs->len = sparse_file_len(sf, false, false);
		sparse_file_foreach_chunk(sf, true, false, collect, rs);
		sparse_file_destroy(sf);
	}
	close(fd);
	return sf != NULL;
}

static bool run_is(const struct runs *rs, unsigned int i, char kind, unsigned int block,
		   unsigned int nr)
{
	return i < rs->n && rs->r[i].kind == kind && rs->r[i].block == block && rs->r[i].nr == nr;
}

static void fill_buf(unsigned char *buf, size_t len, unsigned char v)
{
	memset(buf, v, len);
}

/* Blocks 0-1 data (0xa1), bytes 1024..2047 of block 4 (0xb2), 10-19 zeroed, the rest untouched. */
static int write_pattern(struct f2fs_device *dev)
{
	unsigned char buf[2 * BLK];
	int ret;

	fill_buf(buf, sizeof(buf), 0xa1);
	ret = f2fs_dev_write(dev, buf, 0, 2 * BLK);
	fill_buf(buf, 1024, 0xb2);
	if (!ret)
		ret = f2fs_dev_write(dev, buf, 4 * BLK + 1024, 1024);
	if (!ret)
		ret = f2fs_dev_zero(dev, 10 * BLK, 10 * BLK);
	return ret;
}

static bool bytes_are(const unsigned char *b, size_t len, unsigned char v)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != v)
			return false;
	return true;
}

/* Reads through @dev give what write_pattern wrote, zeros elsewhere. */
static void check_pattern(struct f2fs_device *dev)
{
	unsigned char blk[BLK];

	CHECK(f2fs_dev_read(dev, blk, 1 * BLK, BLK) == 0 && bytes_are(blk, BLK, 0xa1));
	CHECK(f2fs_dev_read(dev, blk, 4 * BLK, BLK) == 0 && bytes_are(blk, 1024, 0) &&
	      bytes_are(blk + 1024, 1024, 0xb2) && bytes_are(blk + 2048, 2048, 0));
	CHECK(f2fs_dev_read(dev, blk, 12 * BLK, BLK) == 0 && bytes_are(blk, BLK, 0));
	CHECK(f2fs_dev_read(dev, blk, 63 * BLK, BLK) == 0 && bytes_are(blk, BLK, 0));
}

static void test_write_then_read_back(void)
{
	struct f2fs_device *dev;
	struct runs rs;
	char path[256];

	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK, &dev) == 0);
	if (!dev)
		return;
	CHECK_EQ_U64(f2fs_dev_get_info(dev)->size_bytes, NBLOCKS * BLK);
	CHECK(write_pattern(dev) == 0);
	check_pattern(dev);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(f2fs_dev_sparse_probe(path) == 1);
	CHECK(read_runs(path, &rs));
	CHECK_EQ_U64(rs.len, NBLOCKS * BLK);
	CHECK_EQ_U64(rs.n, 3);
	CHECK(run_is(&rs, 0, 'r', 0, 2) && rs.r[0].first == 0xa1);
	CHECK(run_is(&rs, 1, 'r', 4, 1) && rs.r[1].first == 0);
	CHECK(run_is(&rs, 2, 'f', 10, 10) && rs.r[2].fill == 0);
	unlink(path);
}

/* Opened again: the same contents; one more write keeps the fill chunk. */
static void test_reopen_and_rewrite(void)
{
	struct f2fs_device *dev;
	unsigned char blk[BLK];
	struct runs rs;
	char path[256];

	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK, &dev) == 0);
	if (!dev)
		return;
	CHECK(write_pattern(dev) == 0);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(f2fs_dev_sparse_open(path, 0, &dev) == 0);
	if (!dev)
		return;
	CHECK_EQ_U64(f2fs_dev_get_info(dev)->size_bytes, NBLOCKS * BLK);
	check_pattern(dev);
	fill_buf(blk, BLK, 0xc3);
	CHECK(f2fs_dev_write(dev, blk, 40 * BLK, BLK) == 0);
	CHECK(f2fs_dev_write(dev, blk, 12 * BLK, BLK) == 0); /* into the zeroed run */
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(read_runs(path, &rs));
	CHECK_EQ_U64(rs.n, 6);
	CHECK(run_is(&rs, 2, 'f', 10, 2));
	CHECK(run_is(&rs, 3, 'r', 12, 1) && rs.r[3].first == 0xc3);
	CHECK(run_is(&rs, 4, 'f', 13, 7));
	CHECK(run_is(&rs, 5, 'r', 40, 1) && rs.r[5].first == 0xc3);
	unlink(path);
}

/*
 * Blocks built in the image's own memory (f2fs_dev_memory) and then
 * written from it: they read back and become a raw chunk; adjacent ranges
 * are adjacent in memory; blocks never written stay "don't care" even
 * after their memory was lent; nothing is lent out of range or read-only.
 */
static void test_write_built_in_place(void)
{
	struct f2fs_device *dev;
	unsigned char *mem, *next, blk[BLK];
	struct runs rs;
	char path[256];

	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK, &dev) == 0);
	if (!dev)
		return;
	mem = f2fs_dev_memory(dev, 20 * BLK, BLK);
	next = f2fs_dev_memory(dev, 21 * BLK, BLK);
	CHECK(mem && next == mem + BLK);
	CHECK(f2fs_dev_memory(dev, 30 * BLK, BLK) != NULL); /* lent, never written */
	CHECK(f2fs_dev_memory(dev, (NBLOCKS - 1) * BLK, 2 * BLK) == NULL);
	CHECK(f2fs_dev_memory(dev, NBLOCKS * BLK, BLK) == NULL);
	if (mem && next) {
		fill_buf(mem, 2 * BLK, 0xd4);
		CHECK(f2fs_dev_write(dev, mem, 20 * BLK, 2 * BLK) == 0);
	}
	CHECK(f2fs_dev_read(dev, blk, 21 * BLK, BLK) == 0 && bytes_are(blk, BLK, 0xd4));
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(read_runs(path, &rs));
	CHECK_EQ_U64(rs.n, 1);
	CHECK(run_is(&rs, 0, 'r', 20, 2) && rs.r[0].first == 0xd4);
	CHECK(f2fs_dev_sparse_open(path, F2FS_DEV_RDONLY, &dev) == 0);
	if (dev) {
		CHECK(f2fs_dev_memory(dev, 20 * BLK, BLK) == NULL);
		CHECK(f2fs_dev_close(dev) == 0);
	}
	unlink(path);
}

/* The byte block @b of the large-chunk test holds at offset @i. */
static unsigned char big_byte(uint64_t b, size_t i)
{
	return (unsigned char)(b * 7 + i / 512 + 1);
}

/*
 * A raw chunk larger than the writer's slices (it writes a raw chunk a
 * MiB at a time, giving the image's pages back behind it), between a
 * small raw chunk and a fill chunk: the file reads back with every byte
 * in place and the chunks around it intact.
 */
static void test_large_chunk_round_trip(void)
{
	const uint64_t first = 3, nr = 2600, size = 4096 * BLK; /* a 10 MiB chunk in 16 MiB */
	unsigned char *buf = malloc(nr * BLK), blk[BLK];
	struct f2fs_device *dev;
	struct runs rs;
	char path[256];
	bool same = true;
	uint64_t b;
	size_t i;

	CHECK(buf != NULL);
	if (!buf)
		return;
	for (b = 0; b < nr; b++)
		for (i = 0; i < BLK; i++)
			buf[b * BLK + i] = big_byte(first + b, i);
	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, size, &dev) == 0);
	if (!dev) {
		free(buf);
		return;
	}
	fill_buf(blk, BLK, 0xd4);
	CHECK(f2fs_dev_write(dev, blk, 0, BLK) == 0);
	CHECK(f2fs_dev_write(dev, buf, first * BLK, nr * BLK) == 0);
	CHECK(f2fs_dev_zero(dev, (first + nr + 5) * BLK, 8 * BLK) == 0);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(read_runs(path, &rs));
	CHECK_EQ_U64(rs.n, 3);
	CHECK(run_is(&rs, 0, 'r', 0, 1) && rs.r[0].first == 0xd4);
	CHECK(run_is(&rs, 1, 'r', (unsigned int)first, (unsigned int)nr));
	CHECK(run_is(&rs, 2, 'f', (unsigned int)(first + nr + 5), 8));
	CHECK(f2fs_dev_sparse_open(path, F2FS_DEV_RDONLY, &dev) == 0);
	if (dev) {
		CHECK(f2fs_dev_read(dev, buf, first * BLK, nr * BLK) == 0);
		for (b = 0; b < nr && same; b++)
			for (i = 0; i < BLK && same; i++)
				same = buf[b * BLK + i] == big_byte(first + b, i);
		CHECK(same);
		CHECK(f2fs_dev_close(dev) == 0);
	}
	free(buf);
	unlink(path);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void test_read_only_is_not_rewritten(void)
{
	struct f2fs_device *dev;
	unsigned char blk[BLK] = {0};
	struct stat before, after;
	char path[256];

	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK, &dev) == 0);
	if (!dev)
		return;
	CHECK(write_pattern(dev) == 0);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(stat(path, &before) == 0);
	CHECK(f2fs_dev_sparse_open(path, F2FS_DEV_RDONLY, &dev) == 0);
	if (!dev)
		return;
	check_pattern(dev);
	CHECK(f2fs_dev_write(dev, blk, 0, BLK) < 0);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(stat(path, &after) == 0 && same_file(&before, &after));
	unlink(path);
}

/* A new image closed with nothing written leaves no file behind. */
static void test_unwritten_new_image_is_removed(void)
{
	struct f2fs_device *dev;
	char path[256];

	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK, &dev) == 0);
	CHECK(access(path, F_OK) == 0);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(access(path, F_OK) < 0 && errno == ENOENT);
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK + 512, &dev) == -EINVAL);
	CHECK(f2fs_dev_sparse_create(path, 0, &dev) == -EINVAL);
	CHECK(access(path, F_OK) < 0);
}

static bool write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	bool ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok;
}

static void test_not_sparse_is_refused(void)
{
	unsigned char junk[3 * BLK];
	struct f2fs_device *dev = NULL;
	char path[256];

	temp_name(path, sizeof(path));
	fill_buf(junk, sizeof(junk), 0x5a);
	CHECK(write_file(path, junk, sizeof(junk)));
	CHECK(f2fs_dev_sparse_probe(path) == 0);
	CHECK(f2fs_dev_sparse_open(path, 0, &dev) == -EINVAL && !dev);
	CHECK(write_file(path, junk, 0));
	CHECK(f2fs_dev_sparse_open(path, F2FS_DEV_RDONLY, &dev) == -EINVAL && !dev);
	unlink(path);
	CHECK(f2fs_dev_sparse_open(path, 0, &dev) == -ENOENT);
}

/* The header says raw data follows, but the file ends first. */
static void test_truncated_is_refused(void)
{
	struct f2fs_device *dev = NULL;
	struct stat st;
	char path[256];

	temp_name(path, sizeof(path));
	CHECK(f2fs_dev_sparse_create(path, NBLOCKS * BLK, &dev) == 0);
	if (!dev)
		return;
	CHECK(write_pattern(dev) == 0);
	CHECK(f2fs_dev_close(dev) == 0);
	CHECK(stat(path, &st) == 0 && truncate(path, st.st_size / 2) == 0);
	dev = NULL;
	CHECK(f2fs_dev_sparse_open(path, 0, &dev) < 0 && !dev);
	unlink(path);
}

static void test_other_block_size_is_refused(void)
{
	struct sparse_file *sf = sparse_file_new(1024, 64 * 1024);
	struct f2fs_device *dev = NULL;
	char path[256];
	int fd;

	temp_name(path, sizeof(path));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(sf && fd >= 0 && sparse_file_add_fill(sf, 0, 1024, 3) == 0 &&
	      sparse_file_write(sf, fd, false, true, false) == 0);
	if (fd >= 0)
		close(fd);
	if (sf)
		sparse_file_destroy(sf);
	CHECK(f2fs_dev_sparse_probe(path) == 1);
	CHECK(f2fs_dev_sparse_open(path, 0, &dev) == -EFBIG && !dev);
	unlink(path);
}

int main(void)
{
	CHECK(f2fs_dev_sparse_supported());
	RUN(test_write_then_read_back);
	RUN(test_reopen_and_rewrite);
	RUN(test_write_built_in_place);
	RUN(test_large_chunk_round_trip);
	RUN(test_read_only_is_not_rewritten);
	RUN(test_unwritten_new_image_is_removed);
	RUN(test_not_sparse_is_refused);
	RUN(test_truncated_is_refused);
	RUN(test_other_block_size_is_refused);
	TEST_EXIT();
}

#else

/* Built without libsparse: every call says so, and the probe still reads the magic. */
static void test_unsupported(void)
{
	struct f2fs_device *dev = NULL;

	CHECK(!f2fs_dev_sparse_supported());
	CHECK(f2fs_dev_sparse_create("/nonexistent/x", 1 << 20, &dev) == -EOPNOTSUPP && !dev);
	CHECK(f2fs_dev_sparse_open("/nonexistent/x", 0, &dev) == -EOPNOTSUPP && !dev);
	CHECK(f2fs_dev_sparse_probe("/nonexistent/x") == -ENOENT);
}

int main(void)
{
	RUN(test_unsupported);
	TEST_EXIT();
}

#endif
