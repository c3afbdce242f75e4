// SPDX-License-Identifier: GPL-2.0
/*
 * What a replay writes: bytes derived from the run's seed, the file's path
 * and the byte's offset, so that a rerun with the same seed writes the same
 * volume and any reader (the engine's own check, the kernel guest) can tell
 * whether a file holds what the workload wrote without keeping a copy.
 * Each aligned 8-byte word is one splitmix64 output (f2fs_mix64).
 */
#include "config.h"

#include <endian.h>
#include <string.h>

#include "f2fs/bitops.h"
#include "f2fs/replay.h"
#include "replay_internal.h"

/* FNV-1a of the path: the file's part of the key. */
static uint64_t path_key(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *path; path++)
		h = (h ^ (uint8_t)*path) * 0x100000001b3ull;
	return h;
}

/* One little-endian word: a single store, as this fills every byte a replay writes. */
static void put_word(uint8_t *dst, uint64_t v)
{
	v = htole64(v);
	memcpy(dst, &v, sizeof(v));
}

void f2fs_replay_content(uint64_t seed, const char *path, uint64_t off, void *buf, size_t len)
{
	uint64_t key = f2fs_mix64(seed) ^ path_key(path), word = off / 8;
	uint8_t *out = buf, tmp[8];
	size_t skip = off % 8;

	if (skip) {
		size_t n = 8 - skip < len ? 8 - skip : len;

		put_word(tmp, f2fs_mix64(key ^ word++));
		memcpy(out, tmp + skip, n);
		out += n;
		len -= n;
	}
	for (; len >= 8; len -= 8, out += 8)
		put_word(out, f2fs_mix64(key ^ word++));
	if (len) {
		put_word(tmp, f2fs_mix64(key ^ word));
		memcpy(out, tmp, len);
	}
}
