/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bits of on-disk bitmaps, and counting them; and the one 64-bit mixer of
 * bits (f2fs_mix64) for seeded choices and fingerprints.  SIT valid maps
 * and the checkpoint's version bitmaps number bits from the most
 * significant bit of each byte (_msb); dentry bitmaps and nat_bits from
 * the least (_lsb).
 * __builtin_popcount compiles to a call into libgcc when the target has no
 * popcnt instruction (the default x86-64 baseline), which made bitmap scans
 * the hot spot of a check; the SWAR count below is a handful of
 * instructions on any target.
 */
#ifndef F2FS_BITOPS_H
#define F2FS_BITOPS_H

#include <stdint.h>

/*
 * splitmix64's finalizer: a 64-bit mix whose every output bit depends on
 * every input bit, for seeded choices and fingerprints.
 */
static inline uint64_t f2fs_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline unsigned int f2fs_popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned int)((v * 0x0101010101010101ull) >> 56);
}

/* Bits set in @len bytes at @p. */
static inline unsigned int f2fs_popcount_bytes(const uint8_t *p, unsigned int len)
{
	unsigned int n = 0, i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w = 0;
		unsigned int k;

		for (k = 0; k < 8; k++)
			w |= (uint64_t)p[i + k] << (8 * k);
		n += f2fs_popcount64(w);
	}
	for (; i < len; i++)
		n += f2fs_popcount64(p[i]);
	return n;
}

/* @b with its bit order reversed (SIT maps count from the most significant bit). */
static inline uint8_t f2fs_bit_reverse8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

static inline void f2fs_set_bit_msb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] |= (uint8_t)(0x80u >> (nr & 7));
}

static inline void f2fs_clear_bit_msb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] &= (uint8_t) ~(0x80u >> (nr & 7));
}

static inline int f2fs_test_bit_msb(const uint8_t *map, unsigned int nr)
{
	return (map[nr >> 3] >> (7 - (nr & 7))) & 1;
}

static inline void f2fs_set_bit_lsb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}

static inline void f2fs_clear_bit_lsb(uint8_t *map, unsigned int nr)
{
	map[nr >> 3] &= (uint8_t) ~(1u << (nr & 7));
}

static inline int f2fs_test_bit_lsb(const uint8_t *map, unsigned int nr)
{
	return (map[nr >> 3] >> (nr & 7)) & 1;
}

#endif
