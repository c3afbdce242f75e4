/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Word-at-a-time bit counting.  __builtin_popcount compiles to a call into
 * libgcc when the target has no popcnt instruction (the default x86-64
 * baseline), which made bitmap scans the hot spot of a check; the SWAR
 * count below is a handful of instructions on any target.
 */
#ifndef F2FS_BITOPS_H
#define F2FS_BITOPS_H

#include <stdint.h>

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

#endif
