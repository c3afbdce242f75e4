// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io data path subcommands: sync, advise, allocate, erase, write (also
 * atomic), read, random and fragmented read, fiemap, copy, lseek, truncate,
 * move_range and precache_extents.  Names, arguments and stdout follow
 * upstream f2fs_io so scripts that parse it keep working.
 *
 * Every argument is checked before a file is opened (so a bad command line
 * never creates a file); a wrong count is usage_exit(), a wrong value
 * bad_value(); a failing system call reports the kernel's error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "f2fs_io.h"

#define IO_BLK		4096u	       /* upstream's F2FS_DEFAULT_BLKSIZE */
#define WRITE_MAX_CHUNK 1024u	       /* 4MB */
#define READ_MAX_CHUNK	(256u * 1024u) /* 1GB */
#define FRAG_HOLE_SIZE	(2u * 1024 * 1024 - 4096u)

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

/* ------------------------------------------------------------------ */
/* local helpers                                                       */

/* A whole signed decimal/hex number; "-" allowed. */
static int64_t parse_s64(const struct f2fs_io_cmd *cmd, const char *what, const char *arg)
{
	long long v;
	char *end;

	if (!arg || !*arg)
		bad_value(cmd, what, arg);
	errno = 0;
	v = strtoll(arg, &end, 0);
	if (errno || *end || end == arg)
		bad_value(cmd, what, arg);
	return v;
}

static unsigned int parse_uint(const struct f2fs_io_cmd *cmd, const char *what, const char *arg)
{
	return (unsigned int)parse_u64(cmd, what, arg, UINT_MAX);
}

/* "0" or "1" */
static bool parse_bool(const struct f2fs_io_cmd *cmd, const char *what, const char *arg)
{
	return parse_u64(cmd, what, arg, 1) != 0;
}

/* A chunk size in 4KB blocks, 1..limit; over the limit is upstream's message. */
static unsigned int parse_chunk(const struct f2fs_io_cmd *cmd, const char *arg, unsigned int limit,
				const char *limit_msg)
{
	uint64_t v = parse_u64(cmd, "chunk size", arg, UINT64_MAX);

	if (v == 0)
		bad_value(cmd, "chunk size", arg);
	if (v > limit)
		die("Too big chunk size - limit: %s", limit_msg);
	return (unsigned int)v;
}

static void sleep_usec(uint64_t us)
{
	struct timespec ts = {.tv_sec = (time_t)(us / 1000000u),
			      .tv_nsec = (long)(us % 1000000u) * 1000};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Parse getopt flags from @opts; each letter maps to the bit in @bits. */
static unsigned int parse_flags(int *argc, char ***argv, const struct f2fs_io_cmd *cmd,
				const char *opts, const unsigned int *bits)
{
	unsigned int mask = 0;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt(*argc, *argv, opts)) != -1) {
		const char *p = c == '?' ? NULL : strchr(opts, c);
		char bad[3] = {'-', (char)optopt, 0};

		if (!p)
			bad_value(cmd, "option", bad);
		mask |= bits[p - opts];
	}
	*argc -= optind;
	*argv += optind;
	return mask;
}

/* Size of a regular file or a block device. */
static uint64_t fd_size(int fd, struct stat *st)
{
	if (fstat(fd, st) != 0)
		die_errno("fstat failed");
	if (S_ISBLK(st->st_mode)) {
		uint64_t sz;

		if (ioctl(fd, BLKGETSIZE64, &sz) < 0)
			die_errno("BLKGETSIZE64 failed");
		return sz;
	}
	return (uint64_t)st->st_size;
}

/* Hint the first block of @fd for sequential read-ahead (the "advice" argument). */
static void advise_sequential(int fd, const char *path)
{
	int err = posix_fadvise(fd, 0, IO_BLK, POSIX_FADV_SEQUENTIAL);

	if (!err)
		err = posix_fadvise(fd, 0, IO_BLK, POSIX_FADV_WILLNEED);
	if (err) {
		errno = err;
		die_errno("fadvise failed");
	}
	printf("fadvise SEQUENTIAL|WILLNEED to a file: %s\n", path);
}

/*
 * upstream's dump: 16 bytes a line, a space after every 2, each line
 * prefixed by an address.  The addresses after the first are upstream's
 * (start + 16 * bytes-so-far), kept as is for scripts comparing output.
 */
static void hexdump(const unsigned char *p, unsigned int n, uint64_t start)
{
	unsigned int i;

	printf("%08" PRIx64 " : ", start);
	for (i = 1; i <= n; i++) {
		printf("%02x", p[i - 1]);
		if (i % 16 == 0)
			printf("\n%08" PRIx64 " : ", start + 16 * (uint64_t)i);
		else if (i % 2 == 0)
			putchar(' ');
	}
}

/* ------------------------------------------------------------------ */
/* fsync, fdatasync, fadvise, fallocate, erase                         */

static void run_fsync(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	uint64_t t;
	int fd;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_WRONLY, 0);
	t = now_usec();
	if (fsync(fd) != 0)
		die_errno("fsync failed");
	printf("fsync total_time = %" PRIu64 " us\n", now_usec() - t);
	exit(0);
}

static void run_fdatasync(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int fd;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_WRONLY, 0);
	if (fdatasync(fd) != 0)
		die_errno("fdatasync failed");
	printf("fdatasync a file\n");
	exit(0);
}

/* A word argument and the number it stands for. */
struct named_value {
	const char *name;
	int value;
};

/* The value @arg names in @table, or bad_value(@cmd, @what, @arg). */
static int value_of(const struct f2fs_io_cmd *cmd, const char *what, const char *arg,
		    const struct named_value *table, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, table[i].name))
			return table[i].value;
	bad_value(cmd, what, arg);
}

static const struct named_value fadv_names[] = {
    {"willneed", POSIX_FADV_WILLNEED}, {"dontneed", POSIX_FADV_DONTNEED},
    {"noreuse", POSIX_FADV_NOREUSE},   {"sequential", POSIX_FADV_SEQUENTIAL},
    {"random", POSIX_FADV_RANDOM},
};

static void run_fadvise(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int64_t off, len;
	int fd, advice, err;

	if (argc != 5)
		usage_exit(cmd);
	advice = value_of(cmd, "advice", argv[1], fadv_names,
			  sizeof(fadv_names) / sizeof(fadv_names[0]));
	off = parse_s64(cmd, "offset", argv[2]);
	len = parse_s64(cmd, "length", argv[3]);

	fd = xopen(argv[4], O_RDONLY, 0);
	err = posix_fadvise(fd, off, len, advice);
	if (err) {
		errno = err;
		die_errno("fadvise failed");
	}
	printf("fadvice %s to a file: %s\n", argv[1], argv[4]);
	exit(0);
}

static void run_fallocate(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	static const unsigned int bits[] = {
	    FALLOC_FL_COLLAPSE_RANGE,
	    FALLOC_FL_INSERT_RANGE,
	    FALLOC_FL_PUNCH_HOLE,
	    FALLOC_FL_ZERO_RANGE,
	};
	int mode = (int)parse_flags(&argc, &argv, cmd, "cipz", bits);
	int64_t off, len;
	struct stat st;
	int fd;

	if (argc != 4)
		usage_exit(cmd);
	if (parse_bool(cmd, "keep_size", argv[0]))
		mode |= FALLOC_FL_KEEP_SIZE;
	off = parse_s64(cmd, "offset", argv[1]);
	len = parse_s64(cmd, "length", argv[2]);

	fd = xopen(argv[3], O_RDWR, 0);
	if (fallocate(fd, mode, off, len) != 0)
		die_errno("fallocate failed");
	if (fstat(fd, &st) != 0)
		die_errno("fstat failed");
	printf("fallocated a file: i_size=%" PRIu64 ", i_blocks=%" PRIu64 "\n",
	       (uint64_t)st.st_size, (uint64_t)st.st_blocks);
	exit(0);
}

static void run_erase(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct stat st;
	uint64_t range[2];
	int fd;

	if (argc != 2)
		usage_exit(cmd);
	if (stat(argv[1], &st) != 0)
		die_errno("stat error");
	if (!S_ISBLK(st.st_mode))
		die("%s is not a block device", argv[1]);

	fd = xopen(argv[1], O_WRONLY, 0);
	range[0] = 0;
	if (ioctl(fd, BLKGETSIZE64, &range[1]) < 0)
		die_errno("get size failed");
	if (ioctl(fd, BLKSECDISCARD, range) < 0 && ioctl(fd, BLKDISCARD, range) < 0)
		die_errno("Discard failed");
	exit(0);
}

/* ------------------------------------------------------------------ */
/* write, write_advice                                                 */

enum pattern { PAT_ZERO, PAT_INC, PAT_RAND };
enum atomic_mode { AT_NONE, AT_COMMIT, AT_ABORT };

static void write_common(int argc, char **argv, const struct f2fs_io_cmd *cmd, bool with_advice)
{
	/* argv: name chunk offset count pattern IO [advise] file [delay] */
	const char *path = argv[with_advice ? 7 : 6];
	const char *delay_arg = argc == (with_advice ? 9 : 8) ? argv[argc - 1] : NULL;
	enum atomic_mode atomic = AT_NONE;
	bool replace = false, random_off = false;
	unsigned char advise = 0;
	uint64_t buf_size, off, written = 0, wait_us = 0;
	uint64_t t_start, max_lat = 0;
	unsigned int bs, count, i, inc = 0;
	enum pattern pat;
	int64_t soff;
	int flags = 0, fd;
	char *buf;

	bs = parse_chunk(cmd, argv[1], WRITE_MAX_CHUNK, "4MB");
	buf_size = (uint64_t)bs * IO_BLK;

	soff = parse_s64(cmd, "offset", argv[2]);
	if (soff < 0) {
		/* random chunk in [0, -offset) */
		random_off = true;
		off = (uint64_t)-soff;
	} else {
		off = (uint64_t)soff;
	}
	count = parse_uint(cmd, "count", argv[3]);
	/* every chunk must start at an offset pwrite() can take */
	if (off > (uint64_t)INT64_MAX / buf_size - count)
		bad_value(cmd, "offset", argv[2]);

	if (!strcmp(argv[4], "zero"))
		pat = PAT_ZERO;
	else if (!strcmp(argv[4], "inc_num"))
		pat = PAT_INC;
	else if (!strcmp(argv[4], "rand"))
		pat = PAT_RAND;
	else
		bad_value(cmd, "pattern type", argv[4]);

	if (!strcmp(argv[5], "dio"))
		flags = O_DIRECT;
	else if (!strcmp(argv[5], "dsync"))
		flags = O_DIRECT | O_DSYNC;
	else if (!strcmp(argv[5], "osync"))
		flags = O_SYNC;
	else if (!strcmp(argv[5], "atomic_commit"))
		atomic = AT_COMMIT;
	else if (!strcmp(argv[5], "atomic_abort"))
		atomic = AT_ABORT;
	else if (!strcmp(argv[5], "atomic_rcommit"))
		atomic = AT_COMMIT, replace = true;
	else if (!strcmp(argv[5], "atomic_rabort"))
		atomic = AT_ABORT, replace = true;
	else if (strcmp(argv[5], "buffered"))
		bad_value(cmd, "IO type", argv[5]);

	if (with_advice) {
		if (!strcmp(argv[6], "hot"))
			advise = F2FS_IO_ADVISE_HOT;
		else if (!strcmp(argv[6], "cold"))
			advise = F2FS_IO_ADVISE_COLD;
		else
			bad_value(cmd, "Advise type", argv[6]);
	}

	/* the delay (ms) is spread over the count + 2 steps of an atomic write */
	if (delay_arg) {
		uint64_t ms = parse_u64(cmd, "delay", delay_arg, UINT32_MAX);

		if (atomic != AT_NONE)
			wait_us = ms * 1000 / ((uint64_t)count + 2);
	}

	buf = xaligned_alloc(IO_BLK, buf_size);
	memset(buf, 0, buf_size);
	srand((unsigned int)time(NULL));

	fd = xopen(path, O_CREAT | O_WRONLY | flags, 0755);
	if (with_advice && fsetxattr(fd, "system.advise", &advise, 1, XATTR_CREATE) != 0)
		die_errno("fsetxattr advice failed");

	t_start = now_usec();
	if (atomic != AT_NONE) {
		int ret;

		if (wait_us)
			sleep_usec(wait_us);
		ret = ioctl(fd,
			    replace ? F2FS_IOC_START_ATOMIC_REPLACE : F2FS_IOC_START_ATOMIC_WRITE);
		if (wait_us)
			sleep_usec(wait_us);
		if (ret < 0)
			die_errno("setting atomic file mode failed");
	}

	for (i = 0; i < count; i++) {
		uint64_t pos, t;
		ssize_t n;
		int v;

		if (pat == PAT_INC) {
			v = (int)inc++;
			memcpy(buf, &v, sizeof(v));
		} else if (pat == PAT_RAND) {
			v = rand();
			memcpy(buf, &v, sizeof(v));
		}
		pos = (random_off ? (uint64_t)rand() % off : off + i) * buf_size;

		t = now_usec();
		n = pwrite(fd, buf, buf_size, (off_t)pos);
		t = now_usec() - t;
		if (t > max_lat)
			max_lat = t;
		/* as upstream: a short or failed write ends the loop (e.g. ENOSPC) */
		if (n < 0 || (uint64_t)n != buf_size)
			break;
		written += (uint64_t)n;
		if (wait_us)
			sleep_usec(wait_us);
	}

	if (atomic == AT_COMMIT && ioctl(fd, F2FS_IOC_COMMIT_ATOMIC_WRITE) < 0)
		die_errno("committing atomic write failed");
	if (atomic == AT_ABORT && ioctl(fd, F2FS_IOC_ABORT_ATOMIC_WRITE) < 0)
		die_errno("aborting atomic write failed");

	printf("Written %" PRIu64 " bytes with pattern = %s, total_time = %" PRIu64
	       " us, max_latency = %" PRIu64 " us\n",
	       written, argv[4], now_usec() - t_start, max_lat);
	exit(0);
}

static void run_write(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	if (argc < 7 || argc > 8)
		usage_exit(cmd);
	write_common(argc, argv, cmd, false);
}

static void run_write_advice(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	if (argc < 8 || argc > 9)
		usage_exit(cmd);
	write_common(argc, argv, cmd, true);
}

/* ------------------------------------------------------------------ */
/* read, fragread, randread                                            */

enum read_mode { RD_BUFFERED, RD_DONTCACHE, RD_DIO, RD_MMAP, RD_MLOCK, RD_MADVISE, RD_FADVISE };

static void run_read(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	static const char *const modes[] = {
	    [RD_BUFFERED] = "buffered", [RD_DONTCACHE] = "dontcache", [RD_DIO] = "dio",
	    [RD_MMAP] = "mmap",		[RD_MLOCK] = "mlock",	      [RD_MADVISE] = "madvise",
	    [RD_FADVISE] = "fadvise",
	};
	uint64_t buf_size, off, map_len, read_cnt = 0, avail;
	uint64_t io_start = 0, io_end = 0, ml_start = 0, ml_end = 0;
	unsigned int bs, count, nprint, i, mode = ~0u;
	unsigned char *pbuf;
	bool advice;
	struct stat st;
	char *buf, *data = NULL;
	int fd;

	if (argc != 8)
		usage_exit(cmd);
	bs = parse_chunk(cmd, argv[1], READ_MAX_CHUNK, "1GB");
	buf_size = (uint64_t)bs * IO_BLK;
	off = parse_u64(cmd, "offset", argv[2], UINT32_MAX) * buf_size;
	count = parse_uint(cmd, "count", argv[3]);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[4], modes[i]))
			mode = i;
	if (mode == ~0u)
		bad_value(cmd, "IO type", argv[4]);
	advice = parse_bool(cmd, "advice", argv[5]);
	nprint = parse_uint(cmd, "print_nbytes", argv[6]);
	if (nprint > buf_size)
		die("Print_nbytes should be less then chunk_size in kb");
	map_len = (uint64_t)count * buf_size;

	buf = xaligned_alloc(IO_BLK, buf_size);
	pbuf = xmalloc(nprint + 1);
	memset(pbuf, 0, nprint + 1);

	fd = xopen(argv[7], O_RDONLY | (mode == RD_DIO ? O_DIRECT : 0), 0);
	if (advice)
		advise_sequential(fd, argv[7]);

	/* bytes of the mapping backed by the file: copying past them would fault */
	avail = fd_size(fd, &st);
	avail = avail > off ? avail - off : 0;
	if (avail > nprint)
		avail = nprint;

	switch (mode) {
	case RD_MMAP:
		io_start = now_usec();
		data = mmap(NULL, map_len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, (off_t)off);
		if (data == MAP_FAILED)
			die_errno("Mmap failed");
		io_end = now_usec();
		ml_start = now_usec();
		if (mlock(data, map_len))
			die_errno("mlock failed");
		ml_end = now_usec();
		break;
	case RD_MLOCK:
		data = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (data == MAP_FAILED)
			die_errno("Mmap failed");
		io_start = ml_start = now_usec();
		if (mlock(data, map_len))
			die_errno("mlock failed");
		io_end = ml_end = now_usec();
		break;
	case RD_MADVISE:
		data = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (data == MAP_FAILED)
			die_errno("Mmap failed");
		ml_start = now_usec();
		if (mlock2(data, map_len, MLOCK_ONFAULT))
			die_errno("mlock2 failed");
		ml_end = now_usec();
		io_start = now_usec();
		if (madvise(data, map_len, MADV_POPULATE_READ) != 0)
			die_errno("madvise failed");
		io_end = now_usec();
		break;
	case RD_FADVISE: {
		int err;

		data = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (data == MAP_FAILED)
			die_errno("Mmap failed");
		io_start = now_usec();
		err = posix_fadvise(fd, (off_t)off, (off_t)map_len, POSIX_FADV_WILLNEED);
		if (err) {
			errno = err;
			die_errno("fadvise failed");
		}
		io_end = now_usec();
		ml_start = now_usec();
		if (mlock(data, map_len))
			die_errno("mlock failed");
		ml_end = now_usec();
		break;
	}
	default:
		io_start = now_usec();
		for (i = 0; i < count; i++) {
			uint64_t pos = off + buf_size * i;
			ssize_t n;

			if (mode == RD_DONTCACHE) {
				struct iovec iov = {.iov_base = buf, .iov_len = buf_size};

				n = preadv2(fd, &iov, 1, (off_t)pos, RWF_DONTCACHE);
				if (n < 0)
					die_errno("preadv2 failed");
			} else {
				n = pread(fd, buf, buf_size, (off_t)pos);
				if (n < 0)
					die_errno("pread failed");
			}
			if ((uint64_t)n != buf_size) {
				printf("pread expected: %" PRIu64 ", readed: %" PRIu64 "\n",
				       buf_size, (uint64_t)n);
				if (n > 0) {
					read_cnt += (uint64_t)n;
					memcpy(pbuf, buf, nprint);
				}
				break;
			}
			read_cnt += (uint64_t)n;
			if (i == 0)
				memcpy(pbuf, buf, nprint);
		}
		io_end = now_usec();
		break;
	}
	if (data) {
		read_cnt = map_len;
		memcpy(pbuf, data, avail);
	}

	printf("Read %" PRIu64 " bytes total_time = %" PRIu64 " us, BW = %.Lf MB/s, "
	       "IO time = %" PRIu64 " us, mlock time = %" PRIu64 " us, print %u bytes:\n",
	       read_cnt, now_usec() - io_start, (long double)read_cnt / (io_end - io_start),
	       io_end - io_start, ml_end - ml_start, nprint);
	hexdump(pbuf, nprint, off);
	if (data) {
		munlock(data, map_len);
		munmap(data, map_len);
	}
	printf("\n");
	exit(0);
}

static void run_fragread(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	uint64_t buf_size, off, read_cnt = 0, t;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), nholes = 0, k;
	unsigned int bs, count, i;
	void **holes;
	bool advice;
	char *buf;
	int fd;

	if (argc != 6)
		usage_exit(cmd);
	bs = parse_chunk(cmd, argv[1], READ_MAX_CHUNK, "1GB");
	buf_size = (uint64_t)bs * IO_BLK;
	off = parse_u64(cmd, "offset", argv[2], UINT32_MAX) * buf_size;
	count = parse_uint(cmd, "count", argv[3]);
	advice = parse_bool(cmd, "advice", argv[4]);

	/*
	 * Fault the buffer in a page at a time, mapping and touching a
	 * (2MB - 4KB) hole after each page, so the buffer's pages end up
	 * scattered in physical memory.
	 */
	holes = xmalloc(sizeof(void *) * (buf_size / page + 1));
	buf = mmap(NULL, buf_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		die_errno("map failed");
	for (k = 0; k < buf_size; k += page) {
		char *hole;
		size_t h;

		((volatile char *)buf)[k];
		hole = mmap(NULL, FRAG_HOLE_SIZE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (hole == MAP_FAILED)
			die_errno("map failed");
		holes[nholes++] = hole;
		for (h = 0; h < FRAG_HOLE_SIZE; h += page)
			((volatile char *)hole)[h];
	}
	printf("Touched allocated memory: count = %zu\n", nholes);
	printf(" - allocated memory: = ");
	for (k = 0; k < 5 && k < nholes; k++)
		printf(" %p", holes[k]);
	printf("\n");

	if (mlock(buf, buf_size))
		die_errno("mlock failed");

	fd = xopen(argv[5], O_RDONLY, 0);
	if (advice)
		advise_sequential(fd, argv[5]);

	t = now_usec();
	for (i = 0; i < count; i++) {
		ssize_t n = pread(fd, buf, buf_size, (off_t)(off + buf_size * i));

		if (n < 0)
			die_errno("pread failed");
		if ((uint64_t)n != buf_size) {
			printf("pread expected: %" PRIu64 ", readed: %" PRIu64 "\n", buf_size,
			       (uint64_t)n);
			read_cnt += (uint64_t)n;
			break;
		}
		read_cnt += (uint64_t)n;
	}
	t = now_usec() - t;
	printf("Fragmented_Read %" PRIu64 " bytes total_time = %" PRIu64 " us, BW = %.Lf MB/s\n",
	       read_cnt, t, (long double)read_cnt / t);
	printf("\n");
	exit(0);
}

static void run_randread(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	uint64_t buf_size, size, nidx, read_cnt = 0, t;
	unsigned int bs, count, i, j;
	bool use_mmap = false, advice;
	int flags = 0, fd;
	struct stat st;
	char *buf, *data = NULL;

	if (argc != 6)
		usage_exit(cmd);
	bs = parse_chunk(cmd, argv[1], WRITE_MAX_CHUNK, "4MB");
	buf_size = (uint64_t)bs * IO_BLK;
	count = parse_uint(cmd, "count", argv[2]);
	if (!strcmp(argv[3], "dio"))
		flags = O_DIRECT;
	else if (!strcmp(argv[3], "mmap"))
		use_mmap = true;
	else if (strcmp(argv[3], "buffered"))
		bad_value(cmd, "IO type", argv[3]);
	advice = parse_bool(cmd, "advise", argv[4]);

	buf = xaligned_alloc(IO_BLK, buf_size);
	fd = xopen(argv[5], O_RDONLY | flags, 0);
	size = fd_size(fd, &st);

	if (advice) {
		int err = posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_RANDOM);

		if (!err)
			err = posix_fadvise(fd, 0, IO_BLK, POSIX_FADV_WILLNEED);
		if (err) {
			errno = err;
			die_errno("fadvise failed");
		}
		printf("fadvise RANDOM|WILLNEED to a file: %s\n", argv[5]);
	}

	size &= ~(uint64_t)(IO_BLK - 1);
	if (size < buf_size)
		die("File is too small to random read");
	/* chunks may start at any 4KB block that leaves room for a whole chunk */
	nidx = (size - buf_size) / IO_BLK + 1;

	if (use_mmap) {
		data = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		if (data == MAP_FAILED)
			die_errno("Mmap failed");
		if (madvise(data, size, MADV_RANDOM) != 0)
			die_errno("madvise failed");
	}

	srand((unsigned int)time(NULL));
	t = now_usec();
	for (i = 0; i < count; i++) {
		uint64_t idx = (uint64_t)rand() % nidx;

		if (use_mmap) {
			for (j = 0; j < bs; j++)
				*(volatile char *)buf = data[IO_BLK * (idx + j)];
		} else {
			ssize_t n = pread(fd, buf, buf_size, (off_t)(IO_BLK * idx));

			if (n < 0)
				die_errno("pread failed");
			if ((uint64_t)n != buf_size)
				break;
		}
		read_cnt += buf_size;
	}
	t = now_usec() - t;
	printf("Read %" PRIu64 " bytes total_time = %" PRIu64
	       " us, avg. latency = %.Lf us, IOPs= %.Lf, BW = %.Lf MB/s\n",
	       read_cnt, t, (long double)t / count, (long double)count * 1000 * 1000 / t,
	       (long double)read_cnt / t);
	exit(0);
}

/* ------------------------------------------------------------------ */
/* fiemap                                                              */

static void fiemap_call(int fd, struct fiemap *fm, uint64_t start, uint64_t len, uint32_t flags,
			uint32_t count)
{
	memset(fm, 0, sizeof(*fm) + (size_t)count * sizeof(struct fiemap_extent));
	fm->fm_start = start;
	fm->fm_length = len;
	fm->fm_flags = flags;
	fm->fm_extent_count = count;
	if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
		die_errno("FIEMAP failed");
}

static void run_fiemap(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	uint64_t start, len;
	uint32_t flags = 0, n, i;
	struct fiemap *fm;
	int fd;

	if (argc < 4 || argc > 5)
		usage_exit(cmd);
	start = parse_u64(cmd, "offset", argv[1], UINT64_MAX / IO_BLK) * IO_BLK;
	len = parse_u64(cmd, "count", argv[2], UINT64_MAX / IO_BLK) * IO_BLK;
	if (argc == 5)
		flags = (uint32_t)parse_u64(cmd, "flags", argv[4], UINT32_MAX);

	fd = xopen(argv[3], O_RDONLY, 0);
	printf("Fiemap: offset = %" PRIu64 " len = %" PRIu64 "\n", start / IO_BLK, len / IO_BLK);

	/* first ask how many extents there are, then fetch them */
	fm = xmalloc(sizeof(*fm));
	fiemap_call(fd, fm, start, len, flags, 0);
	n = fm->fm_mapped_extents;
	free(fm);
	fm = xmalloc(sizeof(*fm) + (size_t)n * sizeof(struct fiemap_extent));
	fiemap_call(fd, fm, start, len, flags, n);

	printf("\t%-17s%-17s%-17s%s\n", "logical addr.", "physical addr.", "length", "flags");
	for (i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];

		printf("%u\t%.16llx %.16llx %.16llx %.8x\n", i, (unsigned long long)e->fe_logical,
		       (unsigned long long)e->fe_physical, (unsigned long long)e->fe_length,
		       e->fe_flags);
		if (e->fe_flags & FIEMAP_EXTENT_LAST)
			break;
	}
	printf("\n");
	free(fm);
	exit(0);
}

/* ------------------------------------------------------------------ */
/* copy, lseek, ftruncate, move_range, precache_extents                */

#define COPY_DIRECT   1u
#define COPY_MMAP     2u
#define COPY_SENDFILE 4u

static void run_copy(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	static const unsigned int bits[] = {COPY_DIRECT, COPY_MMAP, COPY_SENDFILE};
	unsigned int opt = parse_flags(&argc, &argv, cmd, "dms", bits);
	int oflags = opt & COPY_DIRECT ? O_DIRECT : 0;
	int src, dst;

	if (argc != 2)
		usage_exit(cmd);
	if ((opt & COPY_MMAP) && (opt & COPY_SENDFILE))
		die("-m and -s are mutually exclusive");

	src = xopen(argv[0], O_RDONLY | oflags, 0);
	dst = xopen(argv[1], O_WRONLY | O_CREAT | O_TRUNC | oflags, 0644);

	if (opt & COPY_MMAP) {
		struct stat st;
		void *p;

		if (fstat(src, &st) != 0)
			die_errno("fstat of source file failed");
		if ((uint64_t)st.st_size > SIZE_MAX)
			die("Source file is too large");
		if (st.st_size > 0) {
			p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, src, 0);
			if (p == MAP_FAILED)
				die_errno("mmap of source file failed");
			full_write(dst, p, (size_t)st.st_size);
			munmap(p, (size_t)st.st_size);
		}
	} else if (opt & COPY_SENDFILE) {
		ssize_t n;

		while ((n = sendfile(dst, src, NULL, INT_MAX)) > 0)
			;
		if (n < 0)
			die_errno("sendfile failed");
	} else {
		char *buf = xaligned_alloc(IO_BLK, IO_BLK);
		ssize_t n;

		while ((n = xread(src, buf, IO_BLK)) > 0)
			full_write(dst, buf, (size_t)n);
		free(buf);
	}
	if (close(dst) != 0)
		die_errno("close failed");
	close(src);
	exit(0);
}

static void run_lseek(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	static const struct named_value names[] = {
	    {"set", SEEK_SET},	 {"cur", SEEK_CUR},   {"end", SEEK_END},
	    {"data", SEEK_DATA}, {"hole", SEEK_HOLE},
	};
	int whence, fd;
	int64_t off;
	off_t ret;

	if (argc != 4)
		usage_exit(cmd);
	whence = value_of(cmd, "whence type", argv[1], names, sizeof(names) / sizeof(names[0]));
	off = parse_s64(cmd, "offset", argv[2]);

	fd = xopen(argv[3], O_RDONLY, 0);
	ret = lseek(fd, (off_t)off, whence);
	if (ret < 0)
		die_errno("lseek failed");
	printf("returned offset=%lld\n", (long long)ret);
	exit(0);
}

static void run_ftruncate(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int64_t len;
	int fd;

	if (argc != 3)
		usage_exit(cmd);
	len = parse_s64(cmd, "length", argv[1]);
	if (len < 0)
		bad_value(cmd, "length", argv[1]);
	fd = xopen(argv[2], O_WRONLY, 0);
	if (ftruncate(fd, (off_t)len) < 0)
		die_errno("ftruncate failed");
	exit(0);
}

static void run_move_range(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct f2fs_move_range r;
	uint64_t in, out, len;
	int fd, ret;

	if (argc != 6)
		usage_exit(cmd);
	in = parse_u64(cmd, "src_start", argv[3], INT64_MAX);
	out = parse_u64(cmd, "dst_start", argv[4], INT64_MAX);
	len = parse_u64(cmd, "length", argv[5], INT64_MAX);

	fd = xopen(argv[1], O_RDWR, 0);
	memset(&r, 0, sizeof(r));
	r.dst_fd = (__u32)xopen(argv[2], O_RDWR | O_CREAT, 0644);
	r.pos_in = in;
	r.pos_out = out;
	r.len = len;
	ret = ioctl(fd, F2FS_IOC_MOVE_RANGE, &r);
	if (ret < 0)
		die_errno("F2FS_IOC_MOVE_RANGE failed");
	printf("move range ret=%d\n", ret);
	exit(0);
}

static void run_precache_extents(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int fd, ret;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_WRONLY, 0);
	ret = ioctl(fd, F2FS_IOC_PRECACHE_EXTENTS);
	if (ret < 0)
		die_errno("F2FS_IOC_PRECACHE_EXTENTS failed");
	printf("trigger precache extents ret=%d\n", ret);
	exit(0);
}

/* ------------------------------------------------------------------ */
/* the table                                                           */

#define WRITE_IO_HELP                                                                              \
	"IO can be\n"                                                                              \
	"  buffered      : buffered IO\n"                                                          \
	"  dio           : O_DIRECT\n"                                                             \
	"  dsync         : O_DIRECT | O_DSYNC\n"                                                   \
	"  osync         : O_SYNC\n"                                                               \
	"  atomic_commit : atomic write & commit\n"                                                \
	"  atomic_abort  : atomic write & abort\n"                                                 \
	"  atomic_rcommit: atomic replace & commit\n"                                              \
	"  atomic_rabort : atomic replace & abort\n"

#define WRITE_PATTERN_HELP                                                                         \
	"pattern can be\n"                                                                         \
	"  zero          : zeros\n"                                                                \
	"  inc_num       : incrementing numbers\n"                                                 \
	"  rand          : random numbers\n"

const struct f2fs_io_cmd f2fs_io_io_cmds[] = {
    {"fsync", "fsync",
     "f2fs_io fsync [file]\n\n"
     "fsync given the file\n",
     run_fsync},
    {"fdatasync", "fdatasync",
     "f2fs_io fdatasync [file]\n\n"
     "fdatasync given the file\n",
     run_fdatasync},
    {"fadvise", "fadvise",
     "f2fs_io fadvise [advice] [offset] [length] [file]\n\n"
     "fadvise given the file\n"
     "advice can be\n"
     " willneed\n"
     " dontneed\n"
     " noreuse\n"
     " sequential\n"
     " random\n",
     run_fadvise},
    {"fallocate", "fallocate",
     "f2fs_io fallocate [-c] [-i] [-p] [-z] [keep_size] [offset] [length] [file]\n\n"
     "fallocate given the file\n"
     " [keep_size] : 1 or 0\n"
     " -c : collapse range\n"
     " -i : insert range\n"
     " -p : punch hole\n"
     " -z : zero range\n",
     run_fallocate},
    {"erase", "erase a block device",
     "f2fs_io erase [block_device_path]\n\n"
     "Send DISCARD | BLKSECDISCARD command to block device in block_device_path\n",
     run_erase},
    {"write", "write data into file",
     "f2fs_io write [chunk_size in 4kb] [offset in chunk_size] [count] [pattern] [IO] [file_path] "
     "{delay}\n\n"
     "Write given pattern data in file_path\n"
     "Offset can be a negative number which\n"
     "  indicates random write range for atomic operations.\n" WRITE_PATTERN_HELP WRITE_IO_HELP
     "{delay} is in ms unit and optional only for atomic operations\n",
     run_write},
    {"write_advice", "write data into file with a hint",
     "f2fs_io write_advice [chunk_size in 4kb] [offset in chunk_size] [count] [pattern] [IO] "
     "[advise] [file_path] {delay}\n\n"
     "Write given pattern data in file_path\n" WRITE_PATTERN_HELP WRITE_IO_HELP "advise can be\n"
     "  cold : indicate a cold file\n"
     "  hot  : indicate a hot file\n"
     "{delay} is in ms unit and optional only for atomic operations\n",
     run_write_advice},
    {"read", "read data from file",
     "f2fs_io read [chunk_size in 4kb] [offset in chunk_size] [count] [IO] [advice] [print_nbytes] "
     "[file_path]\n\n"
     "Read data in file_path and print nbytes\n"
     "IO can be\n"
     "  buffered : buffered IO\n"
     "  dontcache: buffered IO + dontcache\n"
     "  dio      : direct IO\n"
     "  mmap     : mmap(MAP_POPULATE) + mlock()\n"
     "  mlock    : mmap() + mlock()\n"
     "  madvise  : mmap() + mlock2(MLOCK_ONFAULT) + madvise(MADV_POPULATE_READ)\n"
     "  fadvise  : mmap() + fadvise(POSIX_FADV_WILLNEED) + mlock()\n"
     "advice can be\n"
     " 1 : set sequential|willneed\n"
     " 0 : none\n",
     run_read},
    {"randread", "random read data from file",
     "f2fs_io randread [chunk_size in 4kb] [count] [IO] [advise] [file_path]\n\n"
     "Do random read data in file_path\n"
     "IO can be\n"
     "  buffered : buffered IO\n"
     "  dio      : direct IO\n"
     "  mmap     : mmap IO\n"
     "advice can be\n"
     " 1 : set random|willneed\n"
     " 0 : none\n",
     run_randread},
    {"fragread", "read data with a fragmented buffer from file",
     "f2fs_io fragread [chunk_size in 4kb] [offset in chunk_size] [count] [advice] [file_path]\n\n"
     "Read data in file_path and print nbytes\n"
     "advice can be\n"
     " 1 : set sequential|willneed\n"
     " 0 : none\n",
     run_fragread},
    {"fiemap", "get block address in file",
     "f2fs_io fiemap [offset in 4kb] [count in 4kb] [file_path] {flags}\n\n"
     "flags: bitmask with optional combinations of:\n"
     "0: no extra actions, by default\n"
     "1: sync file data before map\n"
     "2: map extended attribute tree\n"
     "4: request caching of the extents\n",
     run_fiemap},
    {"copy", "copy a file",
     "f2fs_io copy [-d] [-m] [-s] src_path dst_path\n\n"
     "  src_path  : path to source file\n"
     "  dst_path  : path to destination file\n"
     "  -d        : use direct I/O\n"
     "  -m        : mmap the source file\n"
     "  -s        : use sendfile\n",
     run_copy},
    {"precache_extents", "trigger precache extents", "f2fs_io precache_extents [file_path]\n\n",
     run_precache_extents},
    {"move_range", "moving a range of data blocks from source file to destination file",
     "f2fs_io move_range [src_path] [dst_path] [src_start] [dst_start] [length]\n\n"
     "  src_path  : path to source file\n"
     "  dst_path  : path to destination file\n"
     "  src_start : start offset of src file move region, unit: bytes\n"
     "  dst_start : start offset of dst file move region, unit: bytes\n"
     "  length    : size to move\n",
     run_move_range},
    {"lseek", "do lseek for a file",
     "f2fs_io lseek [whence] [offset] [file_path]\n\n"
     "Do lseek file data in file_path and return the adjusted file offset\n"
     "whence can be\n"
     "  set  : SEEK_SET, The file offset is set to offset bytes\n"
     "  cur  : SEEK_CUR, The file offset is set to its current location plus offset bytes\n"
     "  end  : SEEK_END, The file offset is set to the size of the file plus offset bytes\n"
     "  data : SEEK_DATA, set the file offset to the next data location from offset\n"
     "  hole : SEEK_HOLE, set the file offset to the next hole from offset\n",
     run_lseek},
    {"ftruncate", "ftruncate a file",
     "f2fs_io ftruncate [length] [file_path]\n\n"
     "Do ftruncate a file in file_path with the length\n",
     run_ftruncate},
    {NULL, NULL, NULL, NULL},
};
