// SPDX-License-Identifier: GPL-2.0
/*
 * The cluster codecs (lib/format/compress.c): a cluster of text goes
 * through LZ4 and LZO and back unchanged, with the kernel's header in
 * front; noise, and a cluster that would not save the blocks asked for,
 * come back as 0 (store it plain); and a damaged cluster -- clen past its
 * blocks, a stream cut short or flipped, a wrong checksum -- is -EUCLEAN,
 * never a crash or a short cluster.  Algorithms are named as upstream's
 * sload -a names them.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "f2fs/compress.h"
#include "f2fs/crc.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "test.h"

#define BLK	F2FS_BLKSIZE
#define MAXCS	16 /* blocks: log_cluster_size 4 */
#define HDR	F2FS_COMPRESS_HEADER_SIZE
#define ALGO_OK (f2fs_compress_built(F2FS_COMPRESS_LZO) ? 2 : 1)

static const unsigned int algos[] = {F2FS_COMPRESS_LZ4, F2FS_COMPRESS_LZO};

static void fill_text(uint8_t *buf, size_t len)
{
	static const char words[] = "static int f2fs_compress(struct compress_ctx *cc) ";
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)words[i % (sizeof(words) - 1)];
}

static void fill_noise(uint8_t *buf, size_t len, uint32_t x)
{
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
}

static uint8_t data[MAXCS * BLK], stored[MAXCS * BLK], back[MAXCS * BLK];

static uint32_t header_clen(void)
{
	struct f2fs_compress_header h;

	memcpy(&h, stored, sizeof(h));
	return le32_get(h.clen);
}

static void test_round_trip(void)
{
	unsigned int i, cs;

	for (i = 0; i < ALGO_OK; i++) {
		for (cs = 4; cs <= MAXCS; cs *= 2) {
			int blocks;

			fill_text(data, (size_t)cs * BLK);
			blocks = f2fs_cluster_compress(algos[i], data, cs, 1, stored, F2FS_BLKSIZE);
			CHECK(blocks >= 1 && blocks < (int)cs);
			CHECK(header_clen() > 0 && header_clen() + HDR <= (uint32_t)blocks * BLK);
			/* the tail of the last block used is zeros, as the kernel leaves it */
			CHECK(stored[(size_t)blocks * BLK - 1] == 0);
			memset(back, 0xa5, sizeof(back));
			CHECK_EQ_U64(f2fs_cluster_decompress(algos[i], stored, (unsigned int)blocks,
							     false, back, cs, F2FS_BLKSIZE),
				     0);
			CHECK(!memcmp(back, data, (size_t)cs * BLK));
		}
	}
}

/* Noise saves no block; text that saves one block does not save the cluster minus one. */
static void test_not_worth_it_is_zero(void)
{
	unsigned int i;

	for (i = 0; i < ALGO_OK; i++) {
		fill_noise(data, 4 * BLK, 12345);
		CHECK_EQ_U64(f2fs_cluster_compress(algos[i], data, 4, 1, stored, F2FS_BLKSIZE), 0);
		/* three blocks of noise and one of text: at best one block saved */
		fill_noise(data, 3 * BLK, 777);
		fill_text(data + 3 * BLK, BLK);
		CHECK_EQ_U64(f2fs_cluster_compress(algos[i], data, 4, 2, stored, F2FS_BLKSIZE), 0);
		CHECK_EQ_U64(f2fs_cluster_compress(algos[i], data, 4, 4, stored, F2FS_BLKSIZE), 0);
	}
	CHECK_EQ_U64(f2fs_cluster_compress(F2FS_COMPRESS_ZSTD, data, 4, 1, stored, F2FS_BLKSIZE),
		     (uint64_t)-EOPNOTSUPP);
}

static void test_damaged_cluster_is_refused(void)
{
	struct f2fs_compress_header h;
	unsigned int i;
	int blocks;

	for (i = 0; i < ALGO_OK; i++) {
		fill_text(data, 8 * BLK);
		fill_noise(data + 2 * BLK, BLK, 99); /* a stream of some length */
		blocks = f2fs_cluster_compress(algos[i], data, 8, 1, stored, F2FS_BLKSIZE);
		CHECK(blocks >= 1);
		if (blocks < 1)
			continue;
		memcpy(&h, stored, sizeof(h));
		/* clen past the blocks read */
		h.clen = le32_put((uint32_t)blocks * BLK - HDR + 1);
		memcpy(stored, &h, sizeof(h));
		CHECK_EQ_U64(f2fs_cluster_decompress(algos[i], stored, (unsigned int)blocks, false,
						     back, 8, F2FS_BLKSIZE),
			     (uint64_t)-EUCLEAN);
		h.clen = le32_put(0);
		memcpy(stored, &h, sizeof(h));
		CHECK_EQ_U64(f2fs_cluster_decompress(algos[i], stored, (unsigned int)blocks, false,
						     back, 8, F2FS_BLKSIZE),
			     (uint64_t)-EUCLEAN);
		/* cut short: the codec cannot give a whole cluster */
		h.clen = le32_put(40);
		memcpy(stored, &h, sizeof(h));
		CHECK_EQ_U64(f2fs_cluster_decompress(algos[i], stored, (unsigned int)blocks, false,
						     back, 8, F2FS_BLKSIZE),
			     (uint64_t)-EUCLEAN);
		/* a cluster size other than the one written */
		blocks = f2fs_cluster_compress(algos[i], data, 8, 1, stored, F2FS_BLKSIZE);
		CHECK_EQ_U64(f2fs_cluster_decompress(algos[i], stored, (unsigned int)blocks, false,
						     back, 4, F2FS_BLKSIZE),
			     (uint64_t)-EUCLEAN);
		/* no stored block at all */
		CHECK_EQ_U64(
		    f2fs_cluster_decompress(algos[i], stored, 0, false, back, 8, F2FS_BLKSIZE),
		    (uint64_t)-EUCLEAN);
	}
	CHECK_EQ_U64(
	    f2fs_cluster_decompress(F2FS_COMPRESS_ZSTD, stored, 1, false, back, 4, F2FS_BLKSIZE),
	    (uint64_t)-EOPNOTSUPP);
	CHECK_EQ_U64(
	    f2fs_cluster_decompress(F2FS_COMPRESS_LZORLE, stored, 1, false, back, 4, F2FS_BLKSIZE),
	    (uint64_t)-EOPNOTSUPP);
}

/* With the inode's checksum flag the header's crc32 must match the stream. */
static void test_checksum(void)
{
	struct f2fs_compress_header h;
	int blocks;

	fill_text(data, 4 * BLK);
	blocks = f2fs_cluster_compress(F2FS_COMPRESS_LZ4, data, 4, 1, stored, F2FS_BLKSIZE);
	CHECK(blocks == 1);
	memcpy(&h, stored, sizeof(h));
	CHECK_EQ_U64(
	    f2fs_cluster_decompress(F2FS_COMPRESS_LZ4, stored, 1, true, back, 4, F2FS_BLKSIZE),
	    (uint64_t)-EUCLEAN);
	h.chksum = le32_put(f2fs_crc32(F2FS_SUPER_MAGIC, stored + HDR, le32_get(h.clen)));
	memcpy(stored, &h, sizeof(h));
	CHECK_EQ_U64(
	    f2fs_cluster_decompress(F2FS_COMPRESS_LZ4, stored, 1, true, back, 4, F2FS_BLKSIZE), 0);
	CHECK(!memcmp(back, data, 4 * BLK));
	stored[HDR + 3] ^= 0x40;
	CHECK_EQ_U64(
	    f2fs_cluster_decompress(F2FS_COMPRESS_LZ4, stored, 1, true, back, 4, F2FS_BLKSIZE),
	    (uint64_t)-EUCLEAN);
}

static void test_names(void)
{
	CHECK_EQ_U64(f2fs_compress_by_name("lz4"), F2FS_COMPRESS_LZ4);
	CHECK_EQ_U64(f2fs_compress_by_name("lzo"), F2FS_COMPRESS_LZO);
	CHECK(f2fs_compress_by_name("LZ4") < 0); /* upstream compares exactly */
	CHECK(f2fs_compress_by_name("zstd") < 0);
	CHECK(!strcmp(f2fs_compress_name(F2FS_COMPRESS_LZORLE), "lzo-rle"));
	CHECK(!strcmp(f2fs_compress_name(9), "unknown"));
	CHECK(f2fs_compress_built(F2FS_COMPRESS_LZ4));
	CHECK(!f2fs_compress_built(F2FS_COMPRESS_ZSTD));
#ifdef HAVE_LZO2
	CHECK(f2fs_compress_built(F2FS_COMPRESS_LZO));
#endif
}

int main(void)
{
	RUN(test_round_trip);
	RUN(test_not_worth_it_is_zero);
	RUN(test_damaged_cluster_is_refused);
	RUN(test_checksum);
	RUN(test_names);
	TEST_EXIT();
}
