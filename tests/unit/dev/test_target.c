// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for what the device layer tells a tool about its target
 * before it opens it: f2fs_target_classify on temporary files, a directory,
 * a symlink, a FIFO, a socket, /dev/null and missing paths; the mountinfo
 * line parser it reads mounts with (escapes, read-only flags, optional
 * fields, malformed lines); and f2fs_dev_probe_content's mapping of
 * libblkid's answers (nothing, F2FS, another filesystem, a partition table,
 * a swap signature).  Mounted and held devices need root and loop devices:
 * tests/cli/safety.sh covers them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "test.h"
#include "../../../lib/dev/dev_internal.h"

#define MiB (1u << 20)

static const char *tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* A sparse temporary file of @size bytes, named in @path. */
static bool make_temp_file(char *path, size_t len, uint64_t size)
{
	int fd;

	snprintf(path, len, "%s/test_target.XXXXXX", tmp_dir());
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		unlink(path);
		return false;
	}
	close(fd);
	return true;
}

static bool write_at(const char *path, const void *buf, size_t len, off_t off)
{
	int fd = open(path, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = pwrite(fd, buf, len, off) == (ssize_t)len;
	return close(fd) == 0 && ok;
}

/* A path under the temp directory that does not exist. */
static void absent_path(char *path, size_t len, const char *what)
{
	snprintf(path, len, "%s/test_target.%s.%ld", tmp_dir(), what, (long)getpid());
	unlink(path);
}

static struct f2fs_target tg; /* large (PATH_MAX): not on the stack of each case */

static void test_regular_file(void)
{
	char path[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), 3 * MiB + 5)) {
		CHECK(!"temp file");
		return;
	}
	CHECK_EQ_U64(f2fs_target_classify(path, F2FS_TARGET_SIZE | F2FS_TARGET_USE, &tg), 0);
	CHECK_EQ_U64(tg.kind, F2FS_TARGET_REGULAR);
	CHECK_EQ_U64(tg.size_bytes, 3 * MiB + 5);
	CHECK_EQ_U64(tg.use, F2FS_USE_FREE);
	CHECK(!tg.mounted_ro && tg.mount_point[0] == '\0' && tg.via[0] == '\0');
	/* only what is asked for */
	CHECK_EQ_U64(f2fs_target_classify(path, 0, &tg), 0);
	CHECK_EQ_U64(tg.kind, F2FS_TARGET_REGULAR);
	CHECK_EQ_U64(tg.size_bytes, 0);
	CHECK_EQ_U64(tg.use, F2FS_USE_UNCHECKED);
	CHECK_EQ_U64(f2fs_target_classify(path, F2FS_TARGET_USE, &tg), 0);
	CHECK_EQ_U64(tg.size_bytes, 0);
	CHECK_EQ_U64(tg.use, F2FS_USE_FREE);
	unlink(path);
}

static void test_symlink_followed(void)
{
	char path[PATH_MAX], link[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), 8192)) {
		CHECK(!"temp file");
		return;
	}
	absent_path(link, sizeof(link), "link");
	CHECK(symlink(path, link) == 0);
	CHECK_EQ_U64(f2fs_target_classify(link, F2FS_TARGET_SIZE | F2FS_TARGET_USE, &tg), 0);
	CHECK_EQ_U64(tg.kind, F2FS_TARGET_REGULAR);
	CHECK_EQ_U64(tg.size_bytes, 8192);
	CHECK_EQ_U64(tg.use, F2FS_USE_FREE);
	unlink(link);
	unlink(path);
}

/* Neither a file nor a block device: the kind, and no size or use check. */
static void check_not_a_target(const char *path, enum f2fs_target_kind kind)
{
	CHECK_EQ_U64(f2fs_target_classify(path, F2FS_TARGET_SIZE | F2FS_TARGET_USE, &tg), 0);
	CHECK_EQ_U64(tg.kind, kind);
	CHECK_EQ_U64(tg.size_bytes, 0);
	CHECK_EQ_U64(tg.use, F2FS_USE_UNCHECKED);
}

static void test_other_kinds(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char fifo[PATH_MAX];
	int fd;

	check_not_a_target(tmp_dir(), F2FS_TARGET_DIRECTORY);
	check_not_a_target("/dev/null", F2FS_TARGET_CHARDEV);
	/* a FIFO with no writer: opening it would block, classifying must not */
	absent_path(fifo, sizeof(fifo), "fifo");
	CHECK(mkfifo(fifo, 0600) == 0);
	check_not_a_target(fifo, F2FS_TARGET_FIFO);
	unlink(fifo);
	absent_path(sa.sun_path, sizeof(sa.sun_path), "sock");
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	check_not_a_target(sa.sun_path, F2FS_TARGET_SOCKET);
	close(fd);
	unlink(sa.sun_path);
}

static void test_missing_paths(void)
{
	char path[PATH_MAX], below[PATH_MAX + 8];

	absent_path(path, sizeof(path), "absent");
	CHECK_EQ_U64(f2fs_target_classify(path, F2FS_TARGET_SIZE | F2FS_TARGET_USE, &tg), -ENOENT);
	if (!make_temp_file(path, sizeof(path), 4096)) {
		CHECK(!"temp file");
		return;
	}
	snprintf(below, sizeof(below), "%s/x", path);
	CHECK_EQ_U64(f2fs_target_classify(below, 0, &tg), -ENOTDIR);
	unlink(path);
}

static void test_mountinfo_line(void)
{
	char l1[] = "36 35 7:3 / /mnt/with\\040space rw,relatime shared:1 master:2 - ext4 "
		    "/dev/loop3 rw\n";
	char l2[] = "40 35 8:1 / /boot ro,nosuid - vfat /dev/sda1 rw,fmask=0022";
	char l3[] = "41 35 8:2 /sub /data rw - xfs /dev/sda2 ro,attr2";
	char l4[] = "42 35 0:5 / /proc rw - proc proc rw";
	char bad1[] = "43 35 8:3 / /x rw ext4 /dev/sda3 rw"; /* no "-" */
	char bad2[] = "44 35 8:3 / /x";			     /* too short */
	char bad3[] = "45 35 eight:3 / /x rw - ext4 /dev/sda3 rw";
	struct dev_mount m;

	CHECK(dev_parse_mountinfo_line(l1, &m));
	CHECK(m.dev == makedev(7, 3));
	CHECK(strcmp(m.target, "/mnt/with space") == 0);
	CHECK(strcmp(m.source, "/dev/loop3") == 0);
	CHECK(!m.ro);
	CHECK(dev_parse_mountinfo_line(l2, &m));
	CHECK(m.ro); /* the mount is read-only */
	CHECK(dev_parse_mountinfo_line(l3, &m));
	CHECK(m.ro); /* the filesystem is */
	CHECK(strcmp(m.target, "/data") == 0 && strcmp(m.source, "/dev/sda2") == 0);
	CHECK(dev_parse_mountinfo_line(l4, &m));
	CHECK(!m.ro && strcmp(m.source, "proc") == 0);
	CHECK(!dev_parse_mountinfo_line(bad1, &m));
	CHECK(!dev_parse_mountinfo_line(bad2, &m));
	CHECK(!dev_parse_mountinfo_line(bad3, &m));
}

static void check_content(const char *path, enum f2fs_content_kind kind, const char *name)
{
	struct f2fs_content c;

	CHECK_EQ_U64(f2fs_dev_probe_content(path, &c), 0);
	CHECK_EQ_U64(c.kind, kind);
	if (strcmp(c.name, name) != 0) {
		fprintf(stderr, "content name \"%s\", expected \"%s\"\n", c.name, name);
		CHECK(!"content name");
	}
}

static void test_content_none_and_missing(void)
{
	char path[PATH_MAX];
	struct f2fs_content c;

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	check_content(path, F2FS_CONTENT_NONE, "");
	unlink(path);
	CHECK(f2fs_dev_probe_content(path, &c) < 0);
}

/* libblkid knows F2FS by the magic at byte 1024 and a version past 1.0. */
static void test_content_f2fs(void)
{
	struct f2fs_super_block sb = {0};
	char path[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	sb.magic = le32_put(F2FS_SUPER_MAGIC);
	sb.major_ver = le16_put(1);
	sb.minor_ver = le16_put(16);
	sb.log_blocksize = le32_put(F2FS_BLKSIZE_BITS);
	CHECK(write_at(path, &sb, sizeof(sb), F2FS_SUPER_OFFSET));
	check_content(path, F2FS_CONTENT_F2FS, "f2fs");
	unlink(path);
}

/* An MBR with one Linux partition: libblkid calls the table "dos". */
static void test_content_partition_table(void)
{
	unsigned char mbr[512] = {0};
	char path[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), 4 * MiB)) {
		CHECK(!"temp file");
		return;
	}
	mbr[446 + 4] = 0x83;	     /* partition 1: type Linux */
	mbr[446 + 8] = 2048 & 0xff;  /* first LBA 2048 */
	mbr[446 + 9] = 2048 >> 8;    /* */
	mbr[446 + 12] = 4096 & 0xff; /* 4096 sectors */
	mbr[446 + 13] = 4096 >> 8;   /* */
	mbr[510] = 0x55;	     /* boot signature */
	mbr[511] = 0xaa;
	CHECK(write_at(path, mbr, sizeof(mbr), 0));
	check_content(path, F2FS_CONTENT_PARTITIONS, "dos");
	unlink(path);
}

/* A swap signature is libblkid's USAGE "other": neither a filesystem nor a table. */
static void test_content_swap(void)
{
	static const char magic[] = "SWAPSPACE2";
	unsigned char hdr[1024] = {0};
	char path[PATH_MAX];

	if (!make_temp_file(path, sizeof(path), MiB)) {
		CHECK(!"temp file");
		return;
	}
	hdr[0] = 1;			  /* version 1 */
	hdr[4] = (MiB / 4096 - 1) & 0xff; /* last page */
	CHECK(write_at(path, hdr, sizeof(hdr), 1024));
	CHECK(write_at(path, magic, sizeof(magic) - 1, 4096 - 10));
	check_content(path, F2FS_CONTENT_OTHER, "swap");
	unlink(path);
}

int main(void)
{
	RUN(test_regular_file);
	RUN(test_symlink_followed);
	RUN(test_other_kinds);
	RUN(test_missing_paths);
	RUN(test_mountinfo_line);
	RUN(test_content_none_and_missing);
	RUN(test_content_f2fs);
	RUN(test_content_partition_table);
	RUN(test_content_swap);
	TEST_EXIT();
}
