// SPDX-License-Identifier: GPL-2.0
/*
 * The directory-entry name hash: names are folded 16 bytes at a time into a
 * 128-bit state with 16 rounds of TEA; the first word is the hash.
 */
#include <string.h>

#include "f2fs/crc.h"

#define TEA_DELTA 0x9E3779B9u

static void tea_transform(uint32_t state[4], const uint32_t in[4])
{
	uint32_t sum = 0, b0 = state[0], b1 = state[1];
	int round;

	for (round = 0; round < 16; round++) {
		sum += TEA_DELTA;
		b0 += ((b1 << 4) + in[0]) ^ (b1 + sum) ^ ((b1 >> 5) + in[1]);
		b1 += ((b0 << 4) + in[2]) ^ (b0 + sum) ^ ((b0 >> 5) + in[3]);
	}
	state[0] += b0;
	state[1] += b1;
}

/*
 * Pack up to 16 bytes of @msg big-end-first into four words; words past the
 * name are filled with a pattern made from the remaining length.
 */
static void pack_words(const unsigned char *msg, size_t len, uint32_t out[4])
{
	uint32_t pad = (uint32_t)len | ((uint32_t)len << 8);
	uint32_t val = 0;
	size_t i, take = len > 16 ? 16 : len;
	int word = 0;

	pad |= pad << 16;
	for (i = 0; i < take; i++) {
		if (i % 4 == 0)
			val = pad;
		val = msg[i] + (val << 8);
		if (i % 4 == 3)
			out[word++] = val;
	}
	if (take % 4 != 0)
		out[word++] = val;
	while (word < 4)
		out[word++] = pad;
}

static int is_dot_or_dotdot(const unsigned char *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

uint32_t f2fs_dentry_hash(const unsigned char *name, size_t len)
{
	uint32_t state[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
	uint32_t in[4];

	if (is_dot_or_dotdot(name, len))
		return 0;
	for (;;) {
		pack_words(name, len, in);
		tea_transform(state, in);
		if (len <= 16)
			break;
		name += 16;
		len -= 16;
	}
	return state[0];
}
