// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the undo journal reader (lib/dev/undo.c): a damaged or
 * hostile journal must be read without a memory error, and the reader's
 * answers must hold together: a journal it calls sound applies to a
 * device of its size without error and writes inside it; one it refuses
 * is refused by f2fs_undo_apply too, with the device untouched.
 *
 * The seed is a journal made at start by the layer itself: a run of
 * writes, rewrites and zeroed ranges over a 4 MiB memory device with an
 * F2FS superblock.  Each input is that journal with a few random edits
 * (flipped bytes, cut ranges, duplicated ranges, a cut tail).  Standalone
 * only: fuzz_undo -n N [-s SEED] [-S SAVE] [-q] runs N inputs, each saved
 * to SAVE before it runs, or fuzz_undo FILE... runs given journals.  A
 * broken contract abort()s with a message.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/undo.h"

#define DEV_BYTES   (4u << 20)
#define MAX_JOURNAL (1u << 20)

static void broken(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_undo: %s: %s\n", what, detail);
	abort();
}

static void put_file(const char *path, const uint8_t *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		broken(path, strerror(errno));
	close(fd);
}

static size_t get_file(const char *path, uint8_t *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		broken(path, strerror(errno));
	n = read(fd, buf, cap);
	close(fd);
	if (n < 0)
		broken(path, strerror(errno));
	return (size_t)n;
}

/* The seed journal: the layer's own record of a run over a memory device. */
static size_t make_seed(const char *path, uint8_t *out)
{
	struct f2fs_device *mem, *dev;
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_super_block *sb = (void *)(blk + F2FS_SUPER_OFFSET);
	unsigned int i;

	if (f2fs_dev_open_memory(DEV_BYTES, &mem))
		broken("seed", "memory device");
	memset(blk, 0, sizeof(blk));
	sb->magic = le32_put(F2FS_SUPER_MAGIC);
	memset(sb->uuid, 0x11, sizeof(sb->uuid));
	for (i = 1; i < 40; i += 3) {
		memset(blk + 2048, (int)i, 512);
		if (f2fs_dev_write(mem, blk, (uint64_t)i * 7 * F2FS_BLKSIZE, sizeof(blk)))
			broken("seed", "write before");
	}
	if (f2fs_dev_write(mem, blk, 0, sizeof(blk)) || f2fs_undo_stack(mem, path, &dev))
		broken("seed", "stack");
	memset(sb->uuid, 0x22, sizeof(sb->uuid));
	for (i = 0; i < 60; i += 2) {
		memset(blk + 3000, (int)(i + 100), 700);
		if (f2fs_dev_write(dev, blk, (uint64_t)i * 5 * F2FS_BLKSIZE + (i % 3) * 100,
				   sizeof(blk)))
			broken("seed", "write");
	}
	if (f2fs_dev_zero(dev, 100 * F2FS_BLKSIZE, 20 * F2FS_BLKSIZE) || f2fs_dev_close(dev))
		broken("seed", "zero or close");
	return get_file(path, out, MAX_JOURNAL);
}

/* Read @path as a journal and hold the reader to its word. */
static void run_one(const char *path)
{
	struct f2fs_undo_summary s, again;
	enum f2fs_undo_problem why;
	struct f2fs_device *dev;
	int ret = f2fs_undo_inspect(path, &s);

	if (ret > 0)
		broken("inspect", "a positive return");
	if (ret)
		return;
	if (s.problem == F2FS_UNDO_OK &&
	    (s.zero_blocks > s.blocks || s.blocks > s.device_bytes / F2FS_BLKSIZE + 1))
		broken("inspect", "block counts beyond the device");
	if (s.device_bytes > DEV_BYTES * 4 || s.device_bytes < 2 * F2FS_BLKSIZE)
		return; /* sound or not, no device of that size here */
	if (f2fs_dev_open_memory(s.device_bytes, &dev))
		broken("apply", "memory device");
	if (f2fs_undo_check_device(&s, dev, &why))
		broken("check_device", "failed on a memory device");
	ret = f2fs_undo_apply(path, dev, &again);
	if (s.problem == F2FS_UNDO_OK && ret)
		broken("apply", "a journal inspect found sound did not apply");
	if (s.problem != F2FS_UNDO_OK && ret != -EINVAL)
		broken("apply", "a journal inspect refused was not refused");
	if (again.problem != s.problem || again.records != s.records || again.blocks != s.blocks)
		broken("apply", "read the journal differently from inspect");
	f2fs_dev_close(dev);
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void mutate(uint8_t *buf, size_t *len, uint64_t *rs)
{
	unsigned int edits = 1 + (unsigned int)(next_rand(rs) % 3), i;

	for (i = 0; i < edits; i++) {
		size_t at = *len ? (size_t)(next_rand(rs) % *len) : 0, n;

		switch (next_rand(rs) % 5) {
		case 0: /* flip a bit, mostly in the headers */
			if (next_rand(rs) % 2 && *len > 4096 + 64)
				at = 4096 + (size_t)(next_rand(rs) % 64);
			else if (next_rand(rs) % 2)
				at = (size_t)(next_rand(rs) % 96);
			if (at < *len)
				buf[at] ^= (uint8_t)(1u << (next_rand(rs) % 8));
			break;
		case 1: /* cut the tail */
			*len = at;
			break;
		case 2: /* delete a range */
			n = (size_t)(next_rand(rs) % 64);
			if (at + n > *len)
				n = *len - at;
			memmove(buf + at, buf + at + n, *len - at - n);
			*len -= n;
			break;
		case 3: /* duplicate a range */
			n = (size_t)(next_rand(rs) % 4200);
			if (at + n > *len)
				n = *len - at;
			if (*len + n <= MAX_JOURNAL) {
				memmove(buf + at + n, buf + at, *len - at);
				*len += n;
			}
			break;
		default: /* zero a range */
			n = (size_t)(next_rand(rs) % 512);
			if (at + n > *len)
				n = *len - at;
			memset(buf + at, 0, n);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	static uint8_t seed_buf[MAX_JOURNAL], buf[MAX_JOURNAL];
	char tmp[] = "/tmp/fuzz_undo.XXXXXX", path[64];
	uint64_t n = 0, seed = 1, rs, i, sound = 0;
	const char *save = NULL;
	bool quiet = false;
	size_t seed_len, len;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:S:q")) != -1) {
		if (opt == 'n')
			n = strtoull(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (opt == 'S')
			save = optarg;
		else if (opt == 'q')
			quiet = true;
		else
			return 2;
	}
	if (!n) {
		for (; optind < argc; optind++)
			run_one(argv[optind]);
		return 0;
	}
	if (!mkdtemp(tmp))
		broken("mkdtemp", strerror(errno));
	snprintf(path, sizeof(path), "%s/seed.undo", tmp);
	seed_len = make_seed(path, seed_buf);
	if (!save) {
		snprintf(path, sizeof(path), "%s/input.undo", tmp);
		save = path;
	}
	rs = seed * 0x9e3779b97f4a7c15ull | 1;
	for (i = 0; i < n; i++) {
		struct f2fs_undo_summary s;

		memcpy(buf, seed_buf, seed_len);
		len = seed_len;
		mutate(buf, &len, &rs);
		put_file(save, buf, len);
		run_one(save);
		sound += !f2fs_undo_inspect(save, &s) && s.problem == F2FS_UNDO_OK;
	}
	if (!quiet)
		printf("fuzz_undo: %llu inputs, %llu read as sound\n", (unsigned long long)n,
		       (unsigned long long)sound);
	snprintf(path, sizeof(path), "%s/seed.undo", tmp);
	unlink(path);
	snprintf(path, sizeof(path), "%s/input.undo", tmp);
	unlink(path);
	rmdir(tmp);
	return 0;
}
