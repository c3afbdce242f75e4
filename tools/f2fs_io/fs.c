// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io filesystem-wide subcommands: shutdown, gc_urgent, gc, gc_range,
 * checkpoint, defrag_file, freeze, thaw, and the two metadata benchmarks
 * test_create_perf and test_lookup_perf.
 *
 * Names, arguments and output lines follow upstream f2fs_io so that scripts
 * written against it keep working.  Numbers are parsed strictly: a value
 * that is not a number, or out of range, is refused before anything is
 * opened or created.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "f2fs_io.h"

/* Unit the whole-file form of defrag_file rounds the file size up to. */
#define DEFRAG_ROUND 4096ULL

/* Longest path the perf tests build for one test file. */
#define PERF_PATH_MAX 1024

/* ------------------------------------------------------------------ */
/* shutdown */

#define F2FS_FS_MAGIC 0xF2F52010

/*
 * ext4 and xfs answer the same shutdown ioctl number, and FIFREEZE works on
 * any file system: run against the wrong path these would stop or freeze,
 * say, the root file system.  Refuse unless @fd is on F2FS.
 */
static void require_f2fs(int fd, const char *path)
{
	struct statfs st;

	if (fstatfs(fd, &st) < 0)
		die_errno("statfs %s failed", path);
	if ((uint32_t)st.f_type != F2FS_FS_MAGIC)
		die("%s is not on an F2FS file system: refusing", path);
}

static void run_shutdown(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	uint32_t level;
	int fd;

	if (argc != 3)
		usage_exit(cmd);
	level = (uint32_t)parse_u64(cmd, "level", argv[1], F2FS_GOING_DOWN_MAX - 1);

	fd = xopen(argv[2], O_RDONLY, 0);
	require_f2fs(fd, argv[2]);
	if (ioctl(fd, F2FS_IOC_SHUTDOWN, &level) < 0)
		die_errno("F2FS_IOC_SHUTDOWN failed");
	printf("Shutdown %s with level=%u\n", argv[2], level);
	close(fd);
	exit(0);
}

/* ------------------------------------------------------------------ */
/* gc_urgent: toggles /sys/fs/f2fs/<dev>/gc_urgent */

static void gc_urgent_set(const char *dev, int on)
{
	char path[PATH_MAX];
	char val[2] = {on ? '1' : '0', '\n'};
	int fd;

	snprintf(path, sizeof(path), "/sys/fs/f2fs/%s/gc_urgent", dev);
	fd = xopen(path, O_WRONLY, 0);
	if (write(fd, val, sizeof(val)) != (ssize_t)sizeof(val))
		die_errno("Failed to write %s", path);
	if (close(fd) < 0)
		die_errno("Failed to write %s", path);
}

static void run_gc_urgent(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	const char *dev, *mode;
	unsigned int secs = 0;

	if (argc != 3 && argc != 4)
		usage_exit(cmd);
	dev = argv[1];
	mode = argv[2];

	/* A sysfs directory name: one path component, nothing else. */
	if (!*dev || strchr(dev, '/') || !strcmp(dev, ".") || !strcmp(dev, "..") ||
	    strlen(dev) > NAME_MAX)
		bad_value(cmd, "dev", dev);

	if (!strcmp(mode, "start") || !strcmp(mode, "end")) {
		if (argc != 3)
			usage_exit(cmd);
	} else if (!strcmp(mode, "run")) {
		if (argc != 4)
			usage_exit(cmd);
		secs = (unsigned int)parse_u64(cmd, "time", argv[3], UINT_MAX);
	} else {
		bad_value(cmd, "mode", mode);
	}

	if (!strcmp(mode, "start")) {
		printf("gc_urgent: start on %s\n", dev);
		fflush(stdout);
		gc_urgent_set(dev, 1);
	} else if (!strcmp(mode, "end")) {
		printf("gc_urgent: end on %s\n", dev);
		fflush(stdout);
		gc_urgent_set(dev, 0);
	} else {
		unsigned int left = secs;

		printf("gc_urgent: start on %s for %u secs\n", dev, secs);
		fflush(stdout);
		gc_urgent_set(dev, 1);
		while (left)
			left = sleep(left);
		printf("gc_urgent: end on %s for %u secs\n", dev, secs);
		fflush(stdout);
		gc_urgent_set(dev, 0);
	}
	exit(0);
}

/* ------------------------------------------------------------------ */
/* gc, gc_range, checkpoint */

static void run_gc(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	uint32_t sync;
	int fd, ret;

	if (argc != 3)
		usage_exit(cmd);
	sync = (uint32_t)parse_u64(cmd, "sync_mode", argv[1], 1);

	fd = xopen(argv[2], O_RDONLY, 0);
	ret = ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync);
	if (ret < 0)
		die_errno("F2FS_IOC_GARBAGE_COLLECT failed");
	printf("trigger %s gc ret=%d\n", sync ? "synchronous" : "asynchronous", ret);
	close(fd);
	exit(0);
}

static void run_gc_range(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct f2fs_gc_range range;
	int fd, ret;

	if (argc != 5)
		usage_exit(cmd);
	memset(&range, 0, sizeof(range));
	range.sync = (uint32_t)parse_u64(cmd, "sync_mode", argv[1], 1);
	range.start = parse_u64(cmd, "start", argv[2], UINT64_MAX);
	range.len = parse_u64(cmd, "length", argv[3], UINT64_MAX);

	fd = xopen(argv[4], O_RDWR, 0);
	ret = ioctl(fd, F2FS_IOC_GARBAGE_COLLECT_RANGE, &range);
	if (ret < 0)
		die_errno("F2FS_IOC_GARBAGE_COLLECT_RANGE failed");
	printf("trigger %s gc_range [%" PRIu64 ", %" PRIu64 "] ret=%d\n",
	       range.sync ? "synchronous" : "asynchronous", (uint64_t)range.start,
	       (uint64_t)range.len, ret);
	close(fd);
	exit(0);
}

static void run_checkpoint(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int fd, ret;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_WRONLY, 0);
	ret = ioctl(fd, F2FS_IOC_WRITE_CHECKPOINT);
	if (ret < 0)
		die_errno("F2FS_IOC_WRITE_CHECKPOINT failed");
	printf("trigger filesystem checkpoint ret=%d\n", ret);
	close(fd);
	exit(0);
}

/* ------------------------------------------------------------------ */
/* defrag_file */

static void run_defrag_file(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct f2fs_defragment df;
	const char *path;
	uint64_t start, len;
	int fd;

	if (argc != 2 && argc != 4)
		usage_exit(cmd);

	if (argc == 4) {
		start = parse_u64(cmd, "start", argv[1], UINT64_MAX);
		len = parse_u64(cmd, "length", argv[2], UINT64_MAX);
		path = argv[3];
		fd = xopen(path, O_RDWR, 0);
	} else {
		struct stat st;

		path = argv[1];
		fd = xopen(path, O_RDWR, 0);
		if (fstat(fd, &st) < 0)
			die_errno("fstat failed");
		start = 0;
		len = ((uint64_t)st.st_size + DEFRAG_ROUND - 1) & ~(DEFRAG_ROUND - 1);
	}

	df.start = start;
	df.len = len;
	if (ioctl(fd, F2FS_IOC_DEFRAGMENT, &df) < 0)
		die_errno("F2FS_IOC_DEFRAGMENT failed");
	/* The kernel rewrites df.len with what it moved; report the request. */
	printf("defrag %s in region[%" PRIu64 ", %" PRIu64 "]\n", path, (uint64_t)df.start,
	       (uint64_t)df.start + len);
	close(fd);
	exit(0);
}

/* ------------------------------------------------------------------ */
/* freeze, thaw */

static void fs_freeze_thaw(int argc, char **argv, const struct f2fs_io_cmd *cmd, unsigned long req,
			   const char *reqname, const char *what)
{
	int fd, ret;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_RDONLY | O_DIRECTORY, 0);
	require_f2fs(fd, argv[1]);
	ret = ioctl(fd, req, 0);
	if (ret < 0)
		die_errno("%s failed", reqname);
	printf("%s filesystem ret=%d\n", what, ret);
	close(fd);
	exit(0);
}

static void run_freeze(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	fs_freeze_thaw(argc, argv, cmd, FIFREEZE, "FIFREEZE", "freeze");
}

static void run_thaw(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	fs_freeze_thaw(argc, argv, cmd, FITHAW, "FITHAW", "thaw");
}

/* ------------------------------------------------------------------ */
/* test_create_perf, test_lookup_perf */

/* Parse <num_files>: a positive int, as upstream requires. */
static int perf_num_files(const struct f2fs_io_cmd *cmd, const char *arg)
{
	int n = (int)parse_u64(cmd, "num_files", arg, INT_MAX);

	if (n == 0) {
		fputs("Error: Number of files must be positive.\n", stderr);
		exit(1);
	}
	return n;
}

/*
 * Refuse a directory that is not one, or whose longest test file name
 * would not fit, before the first file is created.
 */
static void perf_check_dir(const char *dir, int num_files)
{
	char path[PERF_PATH_MAX];
	int fd, n;

	n = snprintf(path, sizeof(path), "%s/test_file_%d", dir, num_files - 1);
	if (n < 0 || (size_t)n >= sizeof(path))
		die("Directory path too long: %s", dir);
	fd = xopen(dir, O_RDONLY | O_DIRECTORY, 0);
	close(fd);
}

static void perf_path(char *buf, const char *dir, int i)
{
	snprintf(buf, PERF_PATH_MAX, "%s/test_file_%d", dir, i);
}

static double usec_to_sec(uint64_t us)
{
	return (double)us / 1000000.0;
}

static double per_sec(int n, double secs)
{
	return secs > 0 ? (double)n / secs : 0;
}

static void run_test_create_perf(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	bool do_fsync = false, do_sync = false;
	const char *dir;
	char path[PERF_PATH_MAX];
	char *buf = NULL;
	size_t bytes;
	int num_files, size_kb, opt, i;
	uint64_t t0, t1, t2, t3;
	double create_s, delete_s;

	while ((opt = getopt(argc, argv, "sS")) != -1) {
		switch (opt) {
		case 's':
			do_fsync = true;
			break;
		case 'S':
			do_sync = true;
			break;
		default:
			fputs(cmd->usage, stderr);
			exit(1);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 3)
		usage_exit(cmd);

	dir = argv[0];
	num_files = perf_num_files(cmd, argv[1]);
	size_kb = (int)parse_u64(cmd, "size_kb", argv[2], INT_MAX / 1024);
	perf_check_dir(dir, num_files);

	bytes = (size_t)size_kb * 1024;
	if (bytes) {
		buf = xmalloc(bytes);
		memset(buf, 'a', bytes);
	}

	printf("Starting test: Creating %d files of %dKB each in %s (fsync: %s)\n", num_files,
	       size_kb, dir, do_fsync ? "Enabled" : "Disabled");
	fflush(stdout);

	t0 = now_usec();
	for (i = 0; i < num_files; i++) {
		size_t done = 0;
		int fd;

		perf_path(path, dir, i);
		fd = open(path, O_WRONLY | O_CREAT, 0644);
		if (fd < 0) {
			perror("Error opening file");
			continue;
		}
		while (done < bytes) {
			ssize_t w = write(fd, buf + done, bytes - done);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				perror("Error writing to file");
				break;
			}
			done += (size_t)w;
		}
		if (do_fsync)
			fsync(fd);
		close(fd);
	}
	t1 = now_usec();

	printf("Deleting %d created files (sync: %s)\n", num_files,
	       do_sync ? "Enabled" : "Disabled");
	fflush(stdout);

	t2 = now_usec();
	for (i = 0; i < num_files; i++) {
		perf_path(path, dir, i);
		if (unlink(path) != 0)
			perror("Error unlinking file");
	}
	if (do_sync)
		sync();
	t3 = now_usec();

	create_s = usec_to_sec(t1 - t0);
	delete_s = usec_to_sec(t3 - t2);
	printf("Operation,total_files,file_size_kb,total_time_s,throughput_files_per_sec\n");
	printf("CREATE,%d,%d,%.4f,%.2f\n", num_files, size_kb, create_s,
	       per_sec(num_files, create_s));
	printf("DELETE,%d,%d,%.4f,%.2f\n", num_files, size_kb, delete_s,
	       per_sec(num_files, delete_s));
	free(buf);
	exit(0);
}

static const char *dtype_name(unsigned char t)
{
	switch (t) {
	case DT_REG:
		return "regular";
	case DT_DIR:
		return "directory";
	case DT_FIFO:
		return "FIFO";
	case DT_SOCK:
		return "socket";
	case DT_LNK:
		return "symlink";
	case DT_BLK:
		return "block dev";
	case DT_CHR:
		return "char dev";
	default:
		return "unknown";
	}
}

static void run_test_lookup_perf(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	bool init_only = false, verbose = false;
	const char *dir;
	char path[PERF_PATH_MAX];
	int num_files, opt, i;
	uint64_t t0, t1, t2, t3;
	double readdir_s, stat_s;
	struct dirent *de;
	DIR *d;

	while ((opt = getopt(argc, argv, "iv")) != -1) {
		switch (opt) {
		case 'i':
			init_only = true;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fputs(cmd->usage, stderr);
			exit(1);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage_exit(cmd);

	dir = argv[0];
	num_files = perf_num_files(cmd, argv[1]);
	perf_check_dir(dir, num_files);

	if (init_only) {
		printf("Starting test: Creating %d files in %s\n", num_files, dir);
		fflush(stdout);
		for (i = 0; i < num_files; i++) {
			perf_path(path, dir, i);
			close(xopen(path, O_WRONLY | O_CREAT, 0644));
		}
		exit(0);
	}

	printf("Measure readdir performance\n");
	t0 = now_usec();
	d = opendir(dir);
	if (!d) {
		perror("opendir failed");
		exit(1);
	}
	if (verbose)
		printf("inode    file type  d_reclen  d_off    d_name\n");
	while ((de = readdir(d)) != NULL) {
		if (verbose)
			printf("%-8llu %-10s %-9d %-8jd %s\n", (unsigned long long)de->d_ino,
			       dtype_name(de->d_type), (int)de->d_reclen, (intmax_t)de->d_off,
			       de->d_name);
	}
	closedir(d);
	t1 = now_usec();

	printf("Measure stat performance\n");
	t2 = now_usec();
	for (i = 0; i < num_files; i++) {
		struct stat st;

		perf_path(path, dir, i);
		if (stat(path, &st) != 0)
			die_errno("stat failed");
	}
	t3 = now_usec();

	readdir_s = usec_to_sec(t1 - t0);
	stat_s = usec_to_sec(t3 - t2);
	printf("Operation: total_files, total_time_s, throughput_files_per_sec\n");
	printf("readdir: %d, %.4f, %.2f\n", num_files, readdir_s, per_sec(num_files, readdir_s));
	printf("stat: %d, %.4f, %.2f\n", num_files, stat_s, per_sec(num_files, stat_s));
	exit(0);
}

/* ------------------------------------------------------------------ */

const struct f2fs_io_cmd f2fs_io_fs_cmds[] = {
    {"shutdown", "shutdown filesystem",
     "f2fs_io shutdown [level] [dir]\n\n"
     "Freeze and stop all IOs given mount point\n"
     "level can be\n"
     "  0 : going down with full sync\n"
     "  1 : going down with checkpoint only\n"
     "  2 : going down with no sync\n"
     "  3 : going down with metadata flush\n"
     "  4 : going down with fsck mark\n",
     run_shutdown},
    {"gc_urgent", "start/end/run gc_urgent for given time period",
     "f2fs_io gc_urgent $dev [start/end/run] [time in sec]\n\n"
     " - f2fs_io gc_urgent sda21 start\n"
     " - f2fs_io gc_urgent sda21 end\n"
     " - f2fs_io gc_urgent sda21 run 10\n",
     run_gc_urgent},
    {"defrag_file", "do defragment on file",
     "f2fs_io defrag_file [file_path] - defrag whole file automatically\n"
     "f2fs_io defrag_file [start] [length] [file_path]\n\n"
     "  start     : start offset of defragment region, unit: bytes\n"
     "  length    : bytes number of defragment region\n",
     run_defrag_file},
    {"gc", "trigger filesystem GC", "f2fs_io gc sync_mode [file_path]\n\n", run_gc},
    {"checkpoint", "trigger filesystem checkpoint", "f2fs_io checkpoint [file_path]\n\n",
     run_checkpoint},
    {"gc_range", "trigger filesystem gc_range",
     "f2fs_io gc_range [sync_mode] [start] [length] [file_path]\n\n"
     "  sync_mode : 0: asynchronous, 1: synchronous\n"
     "  start     : start offset of defragment region, unit: 4kb\n"
     "  length    : bytes number of defragment region, unit: 4kb\n",
     run_gc_range},
    {"test_create_perf", "measure file creation speed",
     "f2fs_io test_create_perf [-s] [-S] <dir> <num_files> <size_kb>\n\n"
     "Measures file creation and deletion performance.\n"
     "  <dir>          The target directory where files will be created.\n"
     "  <num_files>    The total number of files to create and delete.\n"
     "  <size_kb>      The size of each file in kb.\n"
     "  [-s]           Call fsync() after each file creation.\n"
     "  [-S]           Call sync() after deleting all files.\n",
     run_test_create_perf},
    {"test_lookup_perf", "measure readdir/stat speed",
     "f2fs_io test_lookup_perf [-i] [-v] <dir> <num_files>\n\n"
     "Measures readdir/stat performance.\n"
     "  <dir>          The target directory in where it will test on.\n"
     "  <num_files>    The total number of files the test will initialize or test.\n"
     "  [-i]           Initialized to create files only.\n"
     "  [-v]           Verbose mode.\n",
     run_test_lookup_perf},
    {"freeze", "freeze filesystem", "f2fs_io freeze [directory_path]\n\n", run_freeze},
    {"thaw", "thaw filesystem", "f2fs_io thaw [directory_path]\n\n", run_thaw},
    {NULL, NULL, NULL, NULL},
};
