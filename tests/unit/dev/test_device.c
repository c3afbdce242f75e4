// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/dev/: the memory backend's I/O and bounds, the unix
 * backend on temporary regular files (size, I/O, hole punching, discard,
 * read-only handles, refused paths, write-life hints as the kernel keeps
 * them), and the pre-format checks is_busy and probe_existing.  Block-device paths need root and
 * real hardware, so they are left to the kernel tests.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "test.h"

#define MiB (1u << 20)

static const char *tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* Creates a sparse temporary file of @size bytes; its name goes to @path. */
static bool make_temp_file(char *path, size_t len, uint64_t size)
{
	int fd;

	snprintf(path, len, "%s/test_device.XXXXXX", tmp_dir());
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return false;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		perror("ftruncate");
		close(fd);
		unlink(path);
		return false;
	}
	close(fd);
	return true;
}

static bool all_bytes_are(const unsigned char *buf, size_t len, unsigned char val)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != val)
			return false;
	return true;
}

static void fill_pattern(unsigned char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 31 + seed);
}

static uint64_t allocated_blocks(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	return (uint64_t)st.st_blocks;
}

/* Can the temp filesystem punch holes?  If not, zero() falls back to writes. */
static bool fs_can_punch(void)
{
	char path[PATH_MAX];
	bool ok = false;
	int fd;

	if (!make_temp_file(path, sizeof(path), 4096))
		return false;
	fd = open(path, O_RDWR);
	if (fd >= 0) {
		ok = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096) == 0;
		close(fd);
	}
	unlink(path);
	return ok;
}

static void test_memory_roundtrip(void)
{
	unsigned char in[4096], out[4096];
	struct f2fs_device *dev;
	bool reads_zero = false;

	CHECK_EQ_U64(f2fs_dev_open_memory(64 * 1024, &dev), 0);
	if (!dev)
		return;
	CHECK_EQ_U64(f2fs_dev_get_info(dev)->size_bytes, 64 * 1024);
	CHECK_EQ_U64(f2fs_dev_get_info(dev)->sector_size, 512);
	CHECK(!f2fs_dev_get_info(dev)->is_blockdev);
	CHECK(strcmp(f2fs_dev_path(dev), "<memory>") == 0);

	CHECK_EQ_U64(f2fs_dev_read(dev, out, 0, sizeof(out)), 0);
	CHECK(all_bytes_are(out, sizeof(out), 0));

	fill_pattern(in, sizeof(in), 7);
	CHECK_EQ_U64(f2fs_dev_write(dev, in, 8192, sizeof(in)), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, out, 8192, sizeof(out)), 0);
	CHECK(memcmp(in, out, sizeof(in)) == 0);

	CHECK_EQ_U64(f2fs_dev_zero(dev, 8192, 1024), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, out, 8192, sizeof(out)), 0);
	CHECK(all_bytes_are(out, 1024, 0));
	CHECK(memcmp(in + 1024, out + 1024, sizeof(in) - 1024) == 0);

	CHECK_EQ_U64(f2fs_dev_discard(dev, 8192, sizeof(in), &reads_zero), 0);
	CHECK(reads_zero);
	CHECK_EQ_U64(f2fs_dev_read(dev, out, 8192, sizeof(out)), 0);
	CHECK(all_bytes_are(out, sizeof(out), 0));

	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
}

static void test_memory_bounds(void)
{
	unsigned char buf[512];
	struct f2fs_device *dev;
	bool reads_zero = true;

	CHECK_EQ_U64(f2fs_dev_open_memory(4096, &dev), 0);
	if (!dev)
		return;
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096 - 512, sizeof(buf)), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096 - 511, sizeof(buf)), -EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096, 1), -EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, UINT64_MAX, sizeof(buf)), -EIO);
	CHECK(f2fs_dev_write(dev, buf, 4096 - 1, sizeof(buf)) < 0);
	CHECK(f2fs_dev_write(dev, buf, UINT64_MAX - 1, sizeof(buf)) < 0);
	CHECK(f2fs_dev_zero(dev, 0, 4097) < 0);
	CHECK(f2fs_dev_discard(dev, 4000, 200, &reads_zero) < 0);
	CHECK(!reads_zero);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096, 0), 0);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
}

static void test_close_null(void)
{
	CHECK_EQ_U64(f2fs_dev_close(NULL), 0);
}

static void test_file_open_and_io(void)
{
	unsigned char in[8192], out[8192];
	const struct f2fs_dev_info *info;
	struct f2fs_device *dev;
	char path[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), 4 * MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_dev_open(path, 0, &dev), 0);
	if (dev) {
		info = f2fs_dev_get_info(dev);
		CHECK_EQ_U64(info->size_bytes, 4 * MiB);
		CHECK_EQ_U64(info->sector_size, 512);
		CHECK_EQ_U64(info->start_sector, 0);
		CHECK(info->is_regular);
		CHECK(!info->is_blockdev);
		CHECK(strcmp(f2fs_dev_path(dev), path) == 0);

		fill_pattern(in, sizeof(in), 3);
		CHECK_EQ_U64(f2fs_dev_write(dev, in, 4 * MiB - sizeof(in), sizeof(in)), 0);
		CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
		CHECK_EQ_U64(f2fs_dev_read(dev, out, 4 * MiB - sizeof(out), sizeof(out)), 0);
		CHECK(memcmp(in, out, sizeof(in)) == 0);
		CHECK_EQ_U64(f2fs_dev_read(dev, out, 4 * MiB - 100, sizeof(out)), -EIO);
		CHECK(f2fs_dev_write(dev, in, 4 * MiB - 100, sizeof(in)) < 0);
		CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	}
	unlink(path);
}

/* Upstream f2fs-tools' table (lib/libf2fs_io.c), written out here independently of whint.c. */
static const struct {
	enum f2fs_dev_tag tag;
	enum f2fs_dev_tag kind;
	uint64_t life; /* RWH_WRITE_LIFE_* */
} hint_table[] = {
    {F2FS_DEV_TAG_NONE, F2FS_DEV_TAG_NONE, 1},	    {F2FS_DEV_TAG_META, F2FS_DEV_TAG_META, 1},
    {F2FS_DEV_TAG_HOT_DATA, F2FS_DEV_TAG_DATA, 2},  {F2FS_DEV_TAG_WARM_DATA, F2FS_DEV_TAG_DATA, 0},
    {F2FS_DEV_TAG_COLD_DATA, F2FS_DEV_TAG_DATA, 5}, {F2FS_DEV_TAG_HOT_NODE, F2FS_DEV_TAG_NODE, 1},
    {F2FS_DEV_TAG_WARM_NODE, F2FS_DEV_TAG_NODE, 3}, {F2FS_DEV_TAG_COLD_NODE, F2FS_DEV_TAG_NODE, 4},
    {F2FS_DEV_TAG_DATA, F2FS_DEV_TAG_DATA, 0},	    {F2FS_DEV_TAG_NODE, F2FS_DEV_TAG_NODE, 3},
};

static void test_hint_mapping(void)
{
	static const enum f2fs_dev_tag logs[] = {
	    F2FS_DEV_TAG_HOT_DATA, F2FS_DEV_TAG_WARM_DATA, F2FS_DEV_TAG_COLD_DATA,
	    F2FS_DEV_TAG_HOT_NODE, F2FS_DEV_TAG_WARM_NODE, F2FS_DEV_TAG_COLD_NODE,
	};
	unsigned int i;

	for (i = 0; i < sizeof(hint_table) / sizeof(hint_table[0]); i++) {
		CHECK_EQ_U64(f2fs_dev_tag_write_life(hint_table[i].tag), hint_table[i].life);
		CHECK_EQ_U64(f2fs_dev_tag_kind(hint_table[i].tag), hint_table[i].kind);
	}
	/* enum f2fs_curseg_type: hot, warm, cold data, then hot, warm, cold node */
	for (i = 0; i < 6; i++)
		CHECK_EQ_U64(f2fs_dev_log_tag(i), logs[i]);
	CHECK_EQ_U64(f2fs_dev_log_tag(6), F2FS_DEV_TAG_NONE);
	CHECK_EQ_U64(f2fs_dev_tag_kind(F2FS_DEV_TAGS), F2FS_DEV_TAG_NONE);
}

/* The hint the kernel keeps on @path's inode, or -1 when it has none to tell. */
static int64_t inode_write_hint(const char *path)
{
	uint64_t hint = 0;
	int fd = open(path, O_RDONLY);
	int ret;

	if (fd < 0)
		return -1;
	ret = fcntl(fd, F_GET_RW_HINT, &hint);
	close(fd);
	return ret < 0 ? -1 : (int64_t)hint;
}

/* Each tagged write leaves its hint on the inode; without the flag none is set. */
static void test_file_write_hints(void)
{
	unsigned char blk[4096] = {0};
	struct f2fs_device *dev;
	char path[PATH_MAX];
	unsigned int i;

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	if (inode_write_hint(path) != 0) {
		printf("SKIP: F_GET_RW_HINT unsupported here\n");
		unlink(path);
		return;
	}
	CHECK_EQ_U64(f2fs_dev_open(path, 0, &dev), 0);
	CHECK_EQ_U64(f2fs_dev_write_tagged(dev, blk, 0, sizeof(blk), F2FS_DEV_TAG_COLD_DATA), 0);
	CHECK_EQ_U64(inode_write_hint(path), 0);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);

	CHECK_EQ_U64(f2fs_dev_open(path, F2FS_DEV_WRITE_HINTS, &dev), 0);
	for (i = 0; dev && i < sizeof(hint_table) / sizeof(hint_table[0]); i++) {
		CHECK_EQ_U64(f2fs_dev_write_tagged(dev, blk, i * sizeof(blk), sizeof(blk),
						   hint_table[i].tag),
			     0);
		CHECK_EQ_U64(inode_write_hint(path), hint_table[i].life);
	}
	/* an untagged write (a superblock, zeros) is metadata: NONE */
	CHECK_EQ_U64(f2fs_dev_write_tagged(dev, blk, 0, sizeof(blk), F2FS_DEV_TAG_HOT_DATA), 0);
	CHECK_EQ_U64(f2fs_dev_write(dev, blk, 0, sizeof(blk)), 0);
	CHECK_EQ_U64(inode_write_hint(path), 1);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	unlink(path);
}

/* Fills the first @len bytes of @dev with @val and syncs. */
static void fill_device(struct f2fs_device *dev, uint64_t len, unsigned char val)
{
	static unsigned char chunk[64 * 1024];
	uint64_t off;

	memset(chunk, val, sizeof(chunk));
	for (off = 0; off < len; off += sizeof(chunk))
		CHECK_EQ_U64(f2fs_dev_write(dev, chunk, off, sizeof(chunk)), 0);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
}

static void check_range(struct f2fs_device *dev, uint64_t off, uint64_t len, unsigned char val)
{
	static unsigned char buf[64 * 1024];
	uint64_t end = off + len;

	for (; off < end; off += sizeof(buf)) {
		CHECK_EQ_U64(f2fs_dev_read(dev, buf, off, sizeof(buf)), 0);
		CHECK(all_bytes_are(buf, sizeof(buf), val));
	}
}

static void test_file_zero_punches_hole(void)
{
	struct f2fs_device *dev;
	char path[PATH_MAX];
	uint64_t before;

	if (!make_temp_file(path, sizeof(path), 4 * MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_dev_open(path, 0, &dev), 0);
	if (dev) {
		fill_device(dev, 4 * MiB, 0xab);
		before = allocated_blocks(path);
		CHECK_EQ_U64(f2fs_dev_zero(dev, MiB, 2 * MiB), 0);
		CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
		if (fs_can_punch())
			CHECK(allocated_blocks(path) + 2 * MiB / 512 <= before);
		else
			printf("note: %s cannot punch holes; zero() wrote zeros\n", tmp_dir());
		check_range(dev, 0, MiB, 0xab);
		check_range(dev, MiB, 2 * MiB, 0);
		check_range(dev, 3 * MiB, MiB, 0xab);
		CHECK_EQ_U64(f2fs_dev_get_info(dev)->size_bytes, 4 * MiB);
		CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	}
	unlink(path);
}

/* Large reads over holes of a sparse file: zeros where the holes are, the data after. */
static void test_file_read_across_holes(void)
{
	struct f2fs_device *dev;
	char path[PATH_MAX];
	unsigned char *buf = malloc(6 * MiB), data[4096];

	if (!buf || !make_temp_file(path, sizeof(path), 8 * MiB)) {
		CHECK(!"temp file");
		free(buf);
		return;
	}
	CHECK_EQ_U64(f2fs_dev_open(path, 0, &dev), 0);
	if (dev) {
		memset(data, 0x5a, sizeof(data));
		CHECK_EQ_U64(f2fs_dev_write(dev, data, 3 * MiB, sizeof(data)), 0);
		CHECK_EQ_U64(f2fs_dev_write(dev, data, 8 * MiB - sizeof(data), sizeof(data)), 0);
		memset(buf, 0xee, 6 * MiB);
		/* a hole, the data, a hole */
		CHECK_EQ_U64(f2fs_dev_read(dev, buf, MiB, 4 * MiB), 0);
		CHECK(all_bytes_are(buf, 2 * MiB, 0));
		CHECK(all_bytes_are(buf + 2 * MiB, sizeof(data), 0x5a));
		CHECK(all_bytes_are(buf + 2 * MiB + sizeof(data), 2 * MiB - sizeof(data), 0));
		/* only a hole, and a hole up to the data at the very end */
		memset(buf, 0xee, 6 * MiB);
		CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4 * MiB, 2 * MiB), 0);
		CHECK(all_bytes_are(buf, 2 * MiB, 0));
		memset(buf, 0xee, 6 * MiB);
		CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4 * MiB, 4 * MiB), 0);
		CHECK(all_bytes_are(buf, 4 * MiB - sizeof(data), 0));
		CHECK(all_bytes_are(buf + 4 * MiB - sizeof(data), sizeof(data), 0x5a));
		CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	}
	unlink(path);
	free(buf);
}

static void test_file_discard(void)
{
	struct f2fs_device *dev;
	bool reads_zero = false;
	char path[PATH_MAX];
	int ret;

	if (!make_temp_file(path, sizeof(path), 2 * MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_dev_open(path, 0, &dev), 0);
	if (dev) {
		fill_device(dev, 2 * MiB, 0x5a);
		ret = f2fs_dev_discard(dev, 0, MiB, &reads_zero);
		if (ret == -EOPNOTSUPP) {
			printf("note: %s cannot punch holes; discard unsupported\n", tmp_dir());
			CHECK(!reads_zero);
		} else {
			CHECK_EQ_U64(ret, 0);
			CHECK(reads_zero);
			check_range(dev, 0, MiB, 0);
		}
		check_range(dev, MiB, MiB, 0x5a);
		CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	}
	unlink(path);
}

static void test_file_rdonly_rejects_writes(void)
{
	unsigned char buf[4096] = {1};
	struct f2fs_device *dev;
	bool reads_zero = true;
	char path[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_dev_open(path, F2FS_DEV_RDONLY | F2FS_DEV_EXCL, &dev), 0);
	if (dev) {
		CHECK(f2fs_dev_write(dev, buf, 0, sizeof(buf)) < 0);
		CHECK(f2fs_dev_zero(dev, 0, sizeof(buf)) < 0);
		CHECK(f2fs_dev_discard(dev, 0, sizeof(buf), &reads_zero) < 0);
		CHECK(!reads_zero);
		CHECK_EQ_U64(f2fs_dev_read(dev, buf, 0, sizeof(buf)), 0);
		CHECK(all_bytes_are(buf, sizeof(buf), 0));
		CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	}
	unlink(path);
}

static void test_open_refuses(void)
{
	struct f2fs_device *dev = (struct f2fs_device *)&dev;
	char path[PATH_MAX];

	CHECK_EQ_U64(f2fs_dev_open(tmp_dir(), 0, &dev), -EISDIR);
	CHECK(dev == NULL);
	snprintf(path, sizeof(path), "%s/test_device.does-not-exist.%ld", tmp_dir(),
		 (long)getpid());
	CHECK_EQ_U64(f2fs_dev_open(path, 0, &dev), -ENOENT);
	CHECK(dev == NULL);
	CHECK_EQ_U64(f2fs_dev_open("/dev/null", F2FS_DEV_RDONLY, &dev), -ENODEV);
	CHECK(dev == NULL);
}

static void test_busy_plain_file(void)
{
	char path[PATH_MAX], where[256] = "junk";

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_dev_is_busy(path, where, sizeof(where)), 0);
	CHECK(where[0] == '\0');
	CHECK_EQ_U64(f2fs_dev_is_busy(path, NULL, 0), 0);
	unlink(path);
	CHECK_EQ_U64(f2fs_dev_is_busy(path, where, sizeof(where)), -ENOENT);
}

static void test_probe_zero_file(void)
{
	char path[PATH_MAX], type[32] = "junk";

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_dev_probe_existing(path, type, sizeof(type)), 0);
	CHECK(type[0] == '\0');
	unlink(path);
	CHECK(f2fs_dev_probe_existing(path, type, sizeof(type)) < 0);
}

static void put_le16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

/*
 * A revision-1 ext2 superblock at byte 1024 describing a 1 MiB filesystem of
 * 1 KiB blocks; libblkid keys on the magic at 1024 + 56.
 */
static bool write_ext2_superblock(const char *path)
{
	unsigned char sb[1024] = {0};
	bool ok;
	int fd;

	put_le32(sb + 0, 128);	   /* s_inodes_count */
	put_le32(sb + 4, 1024);	   /* s_blocks_count */
	put_le32(sb + 20, 1);	   /* s_first_data_block */
	put_le32(sb + 32, 8192);   /* s_blocks_per_group */
	put_le32(sb + 40, 128);	   /* s_inodes_per_group */
	put_le16(sb + 56, 0xef53); /* s_magic */
	put_le16(sb + 58, 1);	   /* s_state: clean */
	put_le32(sb + 76, 1);	   /* s_rev_level */
	put_le32(sb + 84, 11);	   /* s_first_ino */
	put_le16(sb + 88, 128);	   /* s_inode_size */
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return false;
	ok = pwrite(fd, sb, sizeof(sb), 1024) == (ssize_t)sizeof(sb);
	return close(fd) == 0 && ok;
}

static bool run_mkfs_ext4(const char *path)
{
	char cmd[PATH_MAX + 64];

	if (access("/sbin/mkfs.ext4", X_OK) != 0)
		return false;
	snprintf(cmd, sizeof(cmd), "/sbin/mkfs.ext4 -q -F '%s' >/dev/null 2>&1", path);
	return system(cmd) == 0;
}

static void test_probe_ext_superblock(void)
{
	struct f2fs_content content;
	char path[PATH_MAX], type[32] = "";
	int ret;

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	CHECK(write_ext2_superblock(path));
	ret = f2fs_dev_probe_existing(path, type, sizeof(type));
	if (ret == 0) {
		printf("note: libblkid ignores the hand-made superblock, trying mkfs.ext4\n");
		if (!run_mkfs_ext4(path)) {
			printf("SKIP: test_probe_ext_superblock: no usable /sbin/mkfs.ext4\n");
			unlink(path);
			return;
		}
		ret = f2fs_dev_probe_existing(path, type, sizeof(type));
	}
	CHECK_EQ_U64(ret, 1);
	CHECK(strcmp(type, "ext2") == 0 || strcmp(type, "ext4") == 0);
	/* the same answer as data: a filesystem, not F2FS */
	CHECK_EQ_U64(f2fs_dev_probe_content(path, &content), 0);
	CHECK_EQ_U64(content.kind, F2FS_CONTENT_FILESYSTEM);
	CHECK(strcmp(content.name, type) == 0);
	unlink(path);
}

int main(void)
{
	RUN(test_memory_roundtrip);
	RUN(test_memory_bounds);
	RUN(test_close_null);
	RUN(test_file_open_and_io);
	RUN(test_hint_mapping);
	RUN(test_file_write_hints);
	RUN(test_file_zero_punches_hole);
	RUN(test_file_read_across_holes);
	RUN(test_file_discard);
	RUN(test_file_rdonly_rejects_writes);
	RUN(test_open_refuses);
	RUN(test_busy_plain_file);
	RUN(test_probe_zero_file);
	RUN(test_probe_ext_superblock);
	TEST_EXIT();
}
