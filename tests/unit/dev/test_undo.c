// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the undo journal (lib/dev/undo.c).  The device is a 1 MiB
 * file in a temporary directory, so that it outlives the stacked device's
 * close; block 0 carries an F2FS superblock magic and UUID, so the journal
 * records which file system the run found and left.  A run writes through
 * the layer (aligned and unaligned writes, rewrites, a zeroed range);
 * applying the journal must give back the original bytes, a journal cut
 * short must restore what its complete records hold, and a damaged journal
 * must be refused before anything is written.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/undo.h"
#include "test.h"

#define DEV_BYTES (1u << 20)
#define BLK	  4096u

struct paths {
	char dir[64], dev[96], journal[96], copy[96];
};

static void paths_make(struct paths *p)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(p->dir, sizeof(p->dir), "%s/undo.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	CHECK(mkdtemp(p->dir) != NULL);
	snprintf(p->dev, sizeof(p->dev), "%s/dev.img", p->dir);
	snprintf(p->journal, sizeof(p->journal), "%s/run.undo", p->dir);
	snprintf(p->copy, sizeof(p->copy), "%s/copy.undo", p->dir);
}

static void paths_remove(const struct paths *p)
{
	unlink(p->dev);
	unlink(p->journal);
	unlink(p->copy);
	rmdir(p->dir);
}

static void put_sb(uint8_t *img, uint8_t uuid_byte)
{
	struct f2fs_super_block *sb = (void *)(img + F2FS_SUPER_OFFSET);

	sb->magic = le32_put(F2FS_SUPER_MAGIC);
	memset(sb->uuid, uuid_byte, sizeof(sb->uuid));
}

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0);
	CHECK_EQ_U64(write(fd, buf, len), len);
	close(fd);
}

static void read_file(const char *path, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0);
	CHECK_EQ_U64(read(fd, buf, len), len);
	close(fd);
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

static void copy_file(const char *from, const char *to, uint64_t len)
{
	uint8_t *buf = malloc(len ? len : 1);

	CHECK(buf != NULL);
	read_file(from, buf, len);
	write_file(to, buf, len);
	free(buf);
}

/* The original image: a superblock with UUID 0xaa, random blocks, zero blocks. */
static uint8_t *make_original(const struct paths *p)
{
	uint8_t *img = calloc(1, DEV_BYTES);
	size_t i;

	CHECK(img != NULL);
	srand(7);
	for (i = 16 * BLK; i < 128 * BLK; i++)
		img[i] = (uint8_t)rand();
	put_sb(img, 0xaa);
	write_file(p->dev, img, DEV_BYTES);
	return img;
}

/*
 * The run: a new superblock (UUID 0xbb), an unaligned write across two
 * blocks, a 64 KiB write over random and zero blocks, a rewrite of a block
 * already changed, two zeroed ranges.  @keep_copy: copy the journal to
 * p->copy before the close marks it finished.
 */
static void run(const struct paths *p, bool keep_copy)
{
	struct f2fs_device *lower, *dev;
	uint8_t blk[BLK], big[64 * 1024];

	CHECK_EQ_U64(f2fs_dev_open(p->dev, 0, &lower), 0);
	CHECK_EQ_U64(f2fs_undo_stack(lower, p->journal, &dev), 0);
	memset(blk, 0, sizeof(blk));
	CHECK_EQ_U64(f2fs_dev_read(dev, blk, 0, BLK), 0);
	put_sb(blk, 0xbb);
	CHECK_EQ_U64(f2fs_dev_write(dev, blk, 0, BLK), 0);
	memset(big, 0x5c, sizeof(big));
	CHECK_EQ_U64(f2fs_dev_write(dev, big, 20 * BLK - 50, 100), 0);
	CHECK_EQ_U64(f2fs_dev_write(dev, big, 120 * BLK, sizeof(big)), 0);
	memset(big, 0x3d, BLK);
	CHECK_EQ_U64(f2fs_dev_write(dev, big, 121 * BLK, BLK), 0);
	CHECK_EQ_U64(f2fs_dev_zero(dev, 40 * BLK, 8 * BLK), 0);
	CHECK_EQ_U64(f2fs_dev_zero(dev, 200 * BLK, 8 * BLK), 0);
	if (keep_copy)
		copy_file(p->journal, p->copy, file_size(p->journal));
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
}

static bool device_is(const struct paths *p, const uint8_t *want)
{
	uint8_t *now = malloc(DEV_BYTES);
	bool same;

	CHECK(now != NULL);
	read_file(p->dev, now, DEV_BYTES);
	same = !memcmp(now, want, DEV_BYTES);
	free(now);
	return same;
}

static int apply(const char *journal, const char *devpath, struct f2fs_undo_summary *s)
{
	struct f2fs_device *dev;
	int ret;

	CHECK_EQ_U64(f2fs_dev_open(devpath, 0, &dev), 0);
	ret = f2fs_undo_apply(journal, dev, s);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	return ret;
}

static enum f2fs_undo_problem device_check(const struct paths *p, const struct f2fs_undo_summary *s)
{
	enum f2fs_undo_problem why = F2FS_UNDO_NOT_JOURNAL;
	struct f2fs_device *dev;

	CHECK_EQ_U64(f2fs_dev_open(p->dev, F2FS_DEV_RDONLY, &dev), 0);
	CHECK_EQ_U64(f2fs_undo_check_device(s, dev, &why), 0);
	f2fs_dev_close(dev);
	return why;
}

static void test_round_trip(void)
{
	struct f2fs_undo_summary s;
	struct paths p;
	uint8_t *orig;

	paths_make(&p);
	orig = make_original(&p);
	run(&p, false);
	CHECK(!device_is(&p, orig));
	CHECK_EQ_U64(f2fs_undo_inspect(p.journal, &s), 0);
	CHECK_EQ_U64(s.problem, F2FS_UNDO_OK);
	CHECK(s.finished && !s.torn_tail && s.f2fs_before && s.f2fs_after);
	CHECK(s.uuid_before[0] == 0xaa && s.uuid_after[0] == 0xbb);
	/* 1 + 2 + 16 + 8 + 8 blocks changed (121 was saved by the 64 KiB write) */
	CHECK_EQ_U64(s.blocks, 35);
	/* blocks 128..135 and 200..207 held zeros: saved without data */
	CHECK_EQ_U64(s.zero_blocks, 16);
	CHECK_EQ_U64(device_check(&p, &s), F2FS_UNDO_OK);
	CHECK_EQ_U64(apply(p.journal, p.dev, NULL), 0);
	CHECK(device_is(&p, orig));
	/* undone, the device holds the F2FS from before: the journal no longer fits it */
	CHECK_EQ_U64(device_check(&p, &s), F2FS_UNDO_WRONG_FS);
	free(orig);
	paths_remove(&p);
}

/*
 * A journal cut at any point restores what its complete records hold: a
 * block they cover is back to the original, any other keeps the run's
 * contents.  Cuts land in the header's room, on record boundaries and
 * inside records.
 */
static void test_cut_short(void)
{
	uint8_t *orig, *after, *now;
	uint64_t len, cut;
	struct paths p;
	unsigned int cuts = 0, torn = 0;

	paths_make(&p);
	orig = make_original(&p);
	run(&p, false);
	after = malloc(DEV_BYTES);
	now = malloc(DEV_BYTES);
	CHECK(after && now);
	read_file(p.dev, after, DEV_BYTES);
	len = file_size(p.journal);
	for (cut = BLK; cut <= len; cut += 1531) {
		struct f2fs_undo_summary s;
		size_t i, restored = 0;

		copy_file(p.journal, p.copy, cut);
		write_file(p.dev, after, DEV_BYTES);
		CHECK_EQ_U64(apply(p.copy, p.dev, &s), 0);
		read_file(p.dev, now, DEV_BYTES);
		for (i = 0; i < DEV_BYTES; i += BLK) {
			bool back = !memcmp(now + i, orig + i, BLK);

			CHECK(back || !memcmp(now + i, after + i, BLK));
			restored += back && memcmp(orig + i, after + i, BLK);
		}
		CHECK(restored <= s.blocks);
		cuts++;
		torn += s.torn_tail;
	}
	printf("%u cuts of a %llu-byte journal, %u inside a record\n", cuts,
	       (unsigned long long)len, torn);
	CHECK(torn > 0 && torn < cuts);
	free(orig);
	free(after);
	free(now);
	paths_remove(&p);
}

/* A damaged journal is refused and the device is left as it is. */
static void test_damaged(void)
{
	struct f2fs_undo_summary s;
	uint8_t *orig, *after, *j;
	struct paths p;
	uint64_t len;

	paths_make(&p);
	orig = make_original(&p);
	run(&p, false);
	after = malloc(DEV_BYTES);
	read_file(p.dev, after, DEV_BYTES);
	len = file_size(p.journal);
	j = malloc(len);
	CHECK(after && j);
	read_file(p.journal, j, len);

	j[20] ^= 1; /* the header's device size */
	write_file(p.copy, j, len);
	CHECK_EQ_U64(f2fs_undo_inspect(p.copy, &s), 0);
	CHECK_EQ_U64(s.problem, F2FS_UNDO_HEADER_CRC);
	CHECK_EQ_U64(apply(p.copy, p.dev, NULL), -EINVAL);
	CHECK(device_is(&p, after));
	j[20] ^= 1;

	j[BLK + 32 + 100] ^= 1; /* the first record's data, with records after it */
	write_file(p.copy, j, len);
	CHECK_EQ_U64(f2fs_undo_inspect(p.copy, &s), 0);
	CHECK_EQ_U64(s.problem, F2FS_UNDO_RECORD_CORRUPT);
	CHECK_EQ_U64(s.problem_at, BLK);
	CHECK_EQ_U64(apply(p.copy, p.dev, NULL), -EINVAL);
	CHECK(device_is(&p, after));

	write_file(p.copy, "not a journal", 13);
	CHECK_EQ_U64(f2fs_undo_inspect(p.copy, &s), 0);
	CHECK_EQ_U64(s.problem, F2FS_UNDO_NOT_JOURNAL);
	CHECK_EQ_U64(f2fs_undo_inspect("/nonexistent/undo", &s), -ENOENT);
	free(orig);
	free(after);
	free(j);
	paths_remove(&p);
}

/* A journal copied before the close is unfinished: it fits the device's F2FS from before. */
static void test_unfinished(void)
{
	struct f2fs_undo_summary s;
	struct paths p;
	uint8_t *orig;

	paths_make(&p);
	orig = make_original(&p);
	run(&p, true);
	CHECK_EQ_U64(f2fs_undo_inspect(p.copy, &s), 0);
	CHECK_EQ_U64(s.problem, F2FS_UNDO_OK);
	CHECK(!s.finished && !s.f2fs_after);
	/* the run changed the UUID: a crash after that leaves a device the journal cannot name */
	CHECK_EQ_U64(device_check(&p, &s), F2FS_UNDO_UNFINISHED_FS);
	CHECK_EQ_U64(apply(p.copy, p.dev, NULL), 0);
	CHECK(device_is(&p, orig));
	CHECK_EQ_U64(device_check(&p, &s), F2FS_UNDO_OK);
	free(orig);
	paths_remove(&p);
}

static void test_wrong_size_and_self(void)
{
	struct f2fs_undo_summary s;
	struct f2fs_device *dev;
	enum f2fs_undo_problem why;
	struct paths p;
	uint8_t *orig;

	paths_make(&p);
	orig = make_original(&p);
	run(&p, false);
	CHECK_EQ_U64(f2fs_undo_inspect(p.journal, &s), 0);
	CHECK_EQ_U64(f2fs_dev_open_memory(2 * DEV_BYTES, &dev), 0);
	CHECK_EQ_U64(f2fs_undo_check_device(&s, dev, &why), 0);
	CHECK_EQ_U64(why, F2FS_UNDO_DEVICE_SIZE);
	f2fs_dev_close(dev);
	/* the journal cannot be the device */
	CHECK_EQ_U64(f2fs_dev_open(p.dev, 0, &dev), 0);
	CHECK_EQ_U64(f2fs_undo_stack(dev, p.dev, &dev), -EEXIST);
	f2fs_dev_close(dev);
	CHECK(!device_is(&p, orig)); /* still the run's: nothing was written */
	free(orig);
	paths_remove(&p);
}

/* A device whose last block is partial: its bytes there are saved and restored. */
static void test_partial_last_block(void)
{
	const size_t size = DEV_BYTES + 1000;
	struct f2fs_device *lower, *dev;
	uint8_t *orig = malloc(size), *now = malloc(size), junk[700];
	struct f2fs_undo_summary s;
	struct paths p;
	size_t i;

	CHECK(orig && now);
	paths_make(&p);
	for (i = 0; i < size; i++)
		orig[i] = (uint8_t)(i * 7 + 1);
	write_file(p.dev, orig, size);
	memset(junk, 0xee, sizeof(junk));
	CHECK_EQ_U64(f2fs_dev_open(p.dev, 0, &lower), 0);
	CHECK_EQ_U64(f2fs_undo_stack(lower, p.journal, &dev), 0);
	CHECK_EQ_U64(f2fs_dev_write(dev, junk, size - sizeof(junk), sizeof(junk)), 0);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	CHECK_EQ_U64(file_size(p.dev), size);
	CHECK_EQ_U64(apply(p.journal, p.dev, &s), 0);
	CHECK_EQ_U64(s.blocks, 1); /* the partial last block: 1000 bytes on the device */
	CHECK_EQ_U64(file_size(p.dev), size);
	read_file(p.dev, now, size);
	CHECK(!memcmp(now, orig, size));
	free(orig);
	free(now);
	paths_remove(&p);
}

int main(void)
{
	RUN(test_round_trip);
	RUN(test_cut_short);
	RUN(test_damaged);
	RUN(test_unfinished);
	RUN(test_wrong_size_and_self);
	RUN(test_partial_last_block);
	TEST_EXIT();
}
