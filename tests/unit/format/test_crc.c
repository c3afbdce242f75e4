// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/format/crc.c and hash.c: the raw CRC-32 register F2FS
 * stores (checked against the standard CRC-32 check value), chaining, the
 * magic-seeded block checksum, and the directory-entry name hash against
 * values read from images made by the upstream tools.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/crc.h"
#include "f2fs/format.h"
#include "test.h"

static uint32_t hash_str(const char *s)
{
	return f2fs_dentry_hash((const unsigned char *)s, strlen(s));
}

/*
 * The CRC-32 check value of "123456789" is 0xCBF43926 with an all-ones
 * initial register and a final inversion; f2fs_crc32 returns the register
 * without the inversion.
 */
static void test_crc32_check_value(void)
{
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, "123456789", 9), (uint32_t)~0xCBF43926u);
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, "123456789", 9), 0x340BC6D9u);
}

/* Further standard vectors (CRC-32/ISO-HDLC), inverted back to the raw register. */
static void test_crc32_more_vectors(void)
{
	static const unsigned char zeros[32];
	static const unsigned char ones[32] = {
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	const char *fox = "The quick brown fox jumps over the lazy dog";

	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, "a", 1), (uint32_t)~0xE8B7BE43u);
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, fox, strlen(fox)), (uint32_t)~0x414FA339u);
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, zeros, sizeof(zeros)), (uint32_t)~0x190A55ADu);
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, ones, sizeof(ones)), (uint32_t)~0xFF6CAB0Bu);
}

static void test_crc32_empty_returns_seed(void)
{
	CHECK_EQ_U64(f2fs_crc32(0, "", 0), 0);
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, "", 0), 0xffffffffu);
	CHECK_EQ_U64(f2fs_crc32(0x12345678u, "x", 0), 0x12345678u);
	CHECK_EQ_U64(f2fs_block_crc("x", 0), F2FS_SUPER_MAGIC);
}

/* crc(a + b) == crc(crc(a), b) at every split point and for several seeds. */
static void test_crc32_chaining(void)
{
	static const uint32_t seeds[] = {0, 0xffffffffu, F2FS_SUPER_MAGIC, 0xdeadbeefu};
	unsigned char buf[300];
	size_t i, split;
	bool ok = true;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		uint32_t whole = f2fs_crc32(seeds[i], buf, sizeof(buf));

		for (split = 0; split <= sizeof(buf); split++) {
			uint32_t first = f2fs_crc32(seeds[i], buf, split);

			if (f2fs_crc32(first, buf + split, sizeof(buf) - split) != whole)
				ok = false;
		}
	}
	CHECK(ok);
	/* three pieces */
	CHECK_EQ_U64(f2fs_crc32(f2fs_crc32(f2fs_crc32(0xffffffffu, "123", 3), "456", 3), "789", 3),
		     f2fs_crc32(0xffffffffu, "123456789", 9));
}

static void test_crc32_seed_and_data_matter(void)
{
	unsigned char a[64], b[64];

	memset(a, 0x5a, sizeof(a));
	memcpy(b, a, sizeof(b));
	b[63] ^= 1;
	CHECK(f2fs_crc32(0, a, sizeof(a)) != f2fs_crc32(0, b, sizeof(b)));
	CHECK(f2fs_crc32(0, a, sizeof(a)) != f2fs_crc32(1, a, sizeof(a)));
	b[63] ^= 1;
	b[0] ^= 0x80;
	CHECK(f2fs_crc32(0, a, sizeof(a)) != f2fs_crc32(0, b, sizeof(b)));
}

/* A buffer larger than one internal chunk of the implementation is still one CRC. */
static void test_crc32_large_buffer(void)
{
	size_t len = 3u << 20, half = len / 2 + 13, i;
	unsigned char *buf = malloc(len);

	CHECK(buf != NULL);
	if (!buf)
		return;
	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(i ^ (i >> 9));
	CHECK_EQ_U64(f2fs_crc32(0xffffffffu, buf, len),
		     f2fs_crc32(f2fs_crc32(0xffffffffu, buf, half), buf + half, len - half));
	free(buf);
}

static void test_block_crc_seed(void)
{
	unsigned char blk[F2FS_BLKSIZE];
	size_t i;

	for (i = 0; i < sizeof(blk); i++)
		blk[i] = (unsigned char)(i * 13);
	CHECK_EQ_U64(f2fs_block_crc(blk, sizeof(blk)),
		     f2fs_crc32(F2FS_SUPER_MAGIC, blk, sizeof(blk)));
	CHECK_EQ_U64(f2fs_block_crc(blk, F2FS_SB_CHKSUM_OFFSET),
		     f2fs_crc32(0xF2F52010u, blk, F2FS_SB_CHKSUM_OFFSET));
	CHECK(f2fs_block_crc(blk, sizeof(blk)) != f2fs_crc32(0xffffffffu, blk, sizeof(blk)));
	/* the seed is the first state: block crc of "123456789" from the magic */
	CHECK_EQ_U64(f2fs_block_crc("123456789", 9), f2fs_crc32(0xF2F52010u, "123456789", 9));
}

static void test_hash_dots(void)
{
	CHECK_EQ_U64(hash_str("."), 0);
	CHECK_EQ_U64(hash_str(".."), 0);
	CHECK(hash_str("...") != 0);
	CHECK(hash_str(".a") != 0);
	CHECK(hash_str("a.") != 0);
	/* only the length decides: "." with a trailing byte not counted is still "." */
	CHECK_EQ_U64(f2fs_dentry_hash((const unsigned char *)".x", 1), 0);
	CHECK_EQ_U64(f2fs_dentry_hash((const unsigned char *)"..x", 2), 0);
}

/*
 * lost+found's hash as upstream mkfs.f2fs 1.15 stores it.  Obtained with:
 *   truncate -s 1G lf.img && mkfs.f2fs -q -f -O lost_found lf.img
 *   dump.f2fs -d 1 lf.img   -> main_blkaddr 5120, cur_data_segno[0] 3
 * so the root dentry block is 5120 + 3 * 512 = 6656; dentry slot 2 starts at
 * byte 27 (bitmap) + 3 (reserved) + 2 * 11 = 52 of that block, and its
 * little-endian hash_code read with a short python script is 0x2dbf9e80
 * (ino 4, name_len 10, file_type 2, name "lost+found").
 */
static void test_hash_lost_found_golden(void)
{
	CHECK_EQ_U64(hash_str("lost+found"), 0x2dbf9e80u);
}

/*
 * More golden values from upstream's own hash: an empty 1 GiB image made by
 * mkfs.f2fs 1.15, then `sload.f2fs -f src img` with src holding empty files
 * of these names; the hash codes were read from the root dentry block
 * (i_addr[0] of inode 3, found with `dump.f2fs -i 3`) the same way as above.
 * Prefixes of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN" of every length
 * 1..40, then a few other names.
 */
static void test_hash_sload_golden(void)
{
	static const char alpha[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
	static const uint32_t prefix_hash[40] = {
	    0x6d0ea4c1, 0xd27d8659, 0xb1435ec5, 0x5a24112e, 0x6937ed69, 0x34397649, 0x54977167,
	    0x75c7d754, 0x10120ef5, 0xb8675231, 0xb0bc8d12, 0xe75e9587, 0xe3270b06, 0xaae489f4,
	    0x9e7b4277, 0xf4ac8cb5, 0x972a82e7, 0xc786e5e1, 0x9452abe6, 0x9a194557, 0x8ad1e020,
	    0x4c76c748, 0xafe091f2, 0xf7be0aec, 0x717bd0f6, 0x85ac98ad, 0x5f2352fc, 0xae4a6d52,
	    0xe39b5478, 0x3ab13676, 0xb3caa6ee, 0x97775b09, 0x6d5f0ef5, 0x522ca6f0, 0x9fd0ab2e,
	    0xc50090ed, 0xebcf2d33, 0x84ab1f3e, 0x0448b3a8, 0xe0fefaae,
	};
	static const struct {
		const char *name;
		uint32_t hash;
	} named[] = {
	    {"0123456789abcdef", 0x5a0788b2},
	    {"0123456789abcdefg", 0xfb1a23ec},
	    {"README", 0x44dcfc83},
	    {"hello.txt", 0x5107c3f3},
	    {"lost+found2", 0xc5d57e9f},
	    {"f2fs-tools-ng_is_a_clean_room_reimplementation", 0x19685562},
	};
	unsigned char a255[255];
	size_t n;

	for (n = 1; n <= 40; n++) {
		uint32_t h = f2fs_dentry_hash((const unsigned char *)alpha, n);

		if (h != prefix_hash[n - 1])
			fprintf(stderr, "hash of prefix length %zu: 0x%08x, expected 0x%08x\n", n,
				h, prefix_hash[n - 1]);
		CHECK_EQ_U64(h, prefix_hash[n - 1]);
	}
	for (n = 0; n < sizeof(named) / sizeof(named[0]); n++)
		CHECK_EQ_U64(hash_str(named[n].name), named[n].hash);
	/* the longest name: 255 'a' */
	memset(a255, 'a', sizeof(a255));
	CHECK_EQ_U64(f2fs_dentry_hash(a255, sizeof(a255)), 0xb6b383e4u);
}

/* Same input, same hash; distinct names of lengths 1..40 all hash apart. */
static void test_hash_deterministic_and_distinct(void)
{
	unsigned char names[40][40];
	uint32_t h[40];
	size_t n, m, i;
	bool distinct = true, stable = true;

	for (n = 0; n < 40; n++) {
		for (i = 0; i <= n; i++)
			names[n][i] = (unsigned char)('A' + (i * 5 + n) % 58);
		h[n] = f2fs_dentry_hash(names[n], n + 1);
	}
	for (n = 0; n < 40; n++) {
		unsigned char copy[40];

		memcpy(copy, names[n], n + 1);
		if (f2fs_dentry_hash(copy, n + 1) != h[n])
			stable = false;
		for (m = n + 1; m < 40; m++)
			if (h[n] == h[m])
				distinct = false;
	}
	CHECK(stable);
	CHECK(distinct);
	/* one changed byte at any position changes the hash */
	for (n = 0; n < 40; n++) {
		unsigned char copy[40];

		memcpy(copy, names[39], 40);
		copy[n] ^= 0x20;
		CHECK(f2fs_dentry_hash(copy, 40) != h[39]);
	}
}

/* Names past 16 bytes go through more than one TEA round. */
static void test_hash_multi_round(void)
{
	const unsigned char *s = (const unsigned char *)"0123456789abcdefghijklmnopqrstuvwxyz0123";
	unsigned char a[33], b[33];

	CHECK(f2fs_dentry_hash(s, 17) != f2fs_dentry_hash(s, 16));
	CHECK(f2fs_dentry_hash(s, 32) != f2fs_dentry_hash(s, 16));
	CHECK(f2fs_dentry_hash(s, 33) != f2fs_dentry_hash(s, 32));
	/* the 17th byte is hashed: two names differing only there hash apart */
	memcpy(a, s, 33);
	memcpy(b, s, 33);
	b[16] = 'X';
	CHECK(f2fs_dentry_hash(a, 17) != f2fs_dentry_hash(b, 17));
	/* ... and the 33rd */
	b[16] = a[16];
	b[32] = 'X';
	CHECK(f2fs_dentry_hash(a, 33) != f2fs_dentry_hash(b, 33));
	/* bytes past the length are not read */
	a[20] = '!';
	b[20] = '?';
	CHECK_EQ_U64(f2fs_dentry_hash(a, 20), f2fs_dentry_hash(b, 20));
}

int main(void)
{
	RUN(test_crc32_check_value);
	RUN(test_crc32_more_vectors);
	RUN(test_crc32_empty_returns_seed);
	RUN(test_crc32_chaining);
	RUN(test_crc32_seed_and_data_matter);
	RUN(test_crc32_large_buffer);
	RUN(test_block_crc_seed);
	RUN(test_hash_dots);
	RUN(test_hash_lost_found_golden);
	RUN(test_hash_sload_golden);
	RUN(test_hash_deterministic_and_distinct);
	RUN(test_hash_multi_round);
	TEST_EXIT();
}
