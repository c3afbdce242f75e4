// SPDX-License-Identifier: GPL-2.0
/*
 * replayload: the seed experiments that `f2fs_io replay` emulates, run for
 * real on a mounted F2FS in the kernel guest of tests/kernel/007, so the
 * kernel's figures can be set beside the engine's.  A shell loop of busybox
 * commands forks per step and under TCG that costs more than the I/O being
 * measured; one C program does each step with one system call.
 *
 *   replayload ckpt-storm DIR ROUNDS FILESIZE
 *       Lay out DIR/fio/test_img (FILESIZE bytes written and fsynced, as
 *       fio lays out its file before a job), then start three processes at
 *       once, each first moving itself into its cgroup (cgroup v2 mounted
 *       on /sys/fs/cgroup, groups fg and bg made by the job):
 *         A (fg): ROUNDS x { touch DIR/test_dir1/file; fsync(DIR/test_dir1) }
 *         B (fg): buffered 128 KiB pwrites over test_img, wrapping to 0
 *         C (bg): touch DIR/test_dir2/file; fsync(DIR/test_dir2), repeated
 *       B and C stop when A is done.  Touch is open(O_CREAT) + futimens,
 *       what touch(1) does, so every round dirties the inode and every
 *       directory fsync asks for a checkpoint.
 *   replayload layout DIR FILESIZE
 *       Only the directories and the laid-out file of ckpt-storm (then
 *       sync), so the job can read the kernel's counters between the two.
 *   replayload tiotest DIR THREADS FILESIZE
 *       THREADS processes each write DIR/tio/fileN (FILESIZE bytes, 512 KiB
 *       buffered writes, no fsync); then sync(); then FIEMAP every file:
 *       extents (physically adjacent pieces merged) and the read requests a
 *       sequential read needs at 512 KiB per request; then drop the caches
 *       and read every file sequentially (512 KiB reads), counting the read
 *       I/Os /sys/block/DEV/stat saw (DEV from $REPLAYLOAD_DEV, default vda).
 *   replayload verify ROOT SEED PATH...
 *       Each PATH (as `f2fs_io replay` names it, from the volume's root,
 *       e.g. /tio/file0) under ROOT must hold, byte for byte, what the
 *       engine writes: f2fs_replay_content(SEED, PATH, offset).
 *
 * Results go to stdout as "@@M key=value" lines, one per figure, for the
 * host to collect; problems go to stderr and make the exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "f2fs/replay.h"

#define KIB	    1024ull
#define MIB	    (1024ull * 1024)
#define B_IO	    (128 * KIB) /* thread B's write size (fio bs=128k) */
#define TIO_IO	    (512 * KIB) /* tiotest's write and read size */
#define READ_REQ    (512 * KIB) /* the largest read request counted */
#define MAX_ROUNDS  100000
#define MAX_THREADS 256
#define PATH_LEN    4096

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "replayload: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "64M", "512K", "1G" or bytes */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		die("bad size \"%s\"", s);
	switch (*end) {
	case 'K':
	case 'k':
		v *= KIB, end++;
		break;
	case 'M':
	case 'm':
		v *= MIB, end++;
		break;
	case 'G':
	case 'g':
		v *= 1024 * MIB, end++;
		break;
	}
	if (*end || !v)
		die("bad size \"%s\"", s);
	return v;
}

static uint64_t parse_count(const char *s, uint64_t max)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s || *end || !v || v > max)
		die("bad count \"%s\" (1..%" PRIu64 ")", s, max);
	return v;
}

/* printf into a path buffer of PATH_LEN bytes; a path too long is an error. */
static void make_path(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_LEN, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_LEN)
		die("path too long");
}

static void mkdir_p(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
}

/* A buffer of non-zero bytes, so no layer can take the writes for holes. */
static char *pattern(size_t len)
{
	char *buf = malloc(len);
	size_t i;

	if (!buf)
		die("out of memory");
	for (i = 0; i < len; i++)
		buf[i] = (char)(0x5a ^ (i * 131 >> 7));
	return buf;
}

static void write_full(int fd, const char *buf, size_t len, off_t off, const char *what)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write %s: %s", what, n < 0 ? strerror(errno) : "short write");
		buf += n, len -= (size_t)n, off += n;
	}
}

/*
 * Move the calling process into cgroup GROUP, a directory under the
 * cgroup v2 root ($REPLAYLOAD_CGROUP_ROOT, default /sys/fs/cgroup; tried
 * on the host with a directory of plain files).
 */
static void join_cgroup(const char *group)
{
	const char *root = getenv("REPLAYLOAD_CGROUP_ROOT");
	char path[PATH_LEN], pid[32];
	int fd, len;

	make_path(path, "%s/%s/cgroup.procs", root ? root : "/sys/fs/cgroup", group);
	len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, pid, (size_t)len) != len)
		die("joining cgroup %s (%s): %s", group, path, strerror(errno));
	close(fd);
}

/* touch(1): create if missing, set both times to now. */
static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0 || futimens(fd, NULL))
		die("touch %s: %s", path, strerror(errno));
	close(fd);
}

static void fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || fsync(fd))
		die("fsync %s: %s", path, strerror(errno));
	close(fd);
}

/* ---- ckpt-storm ---- */

/* What the three processes share: the stop flag and their results. */
struct storm {
	int a_done;
	double a_start, a_end;
	uint64_t b_bytes, b_writes, c_fsyncs;
	double c_fsync_max_ms;
	int failed;
	/*
	 * ROUNDS fsync latencies of A, then ROUNDS times of its touches: a
	 * touch does no I/O, so its time is the CPU an operation takes
	 * before it reaches f2fs (the engine's --op-cpu-us)
	 */
	double a_lat_ms[];
};

static int storm_stop(struct storm *s)
{
	return __atomic_load_n(&s->a_done, __ATOMIC_ACQUIRE);
}

static void storm_a(struct storm *s, const char *dir, uint64_t rounds)
{
	char file[PATH_LEN], sub[PATH_LEN];
	uint64_t i;

	make_path(sub, "%s/test_dir1", dir);
	make_path(file, "%s/file", sub);
	s->a_start = now_s();
	for (i = 0; i < rounds; i++) {
		double t = now_s();

		touch(file);
		s->a_lat_ms[rounds + i] = (now_s() - t) * 1000;
		t = now_s();
		fsync_dir(sub);
		s->a_lat_ms[i] = (now_s() - t) * 1000;
	}
	s->a_end = now_s();
	__atomic_store_n(&s->a_done, 1, __ATOMIC_RELEASE);
}

static void storm_b(struct storm *s, const char *img, uint64_t size)
{
	char *buf = pattern(B_IO);
	uint64_t off = 0;
	int fd = open(img, O_WRONLY);

	if (fd < 0)
		die("open %s: %s", img, strerror(errno));
	while (!storm_stop(s)) {
		size_t len = size - off < B_IO ? (size_t)(size - off) : B_IO;

		write_full(fd, buf, len, (off_t)off, img);
		s->b_bytes += len;
		s->b_writes++;
		off += len;
		if (off >= size)
			off = 0;
	}
	close(fd);
	free(buf);
}

static void storm_c(struct storm *s, const char *dir)
{
	char file[PATH_LEN], sub[PATH_LEN];

	make_path(sub, "%s/test_dir2", dir);
	make_path(file, "%s/file", sub);
	while (!storm_stop(s)) {
		double t;

		touch(file);
		t = now_s();
		fsync_dir(sub);
		t = (now_s() - t) * 1000;
		if (t > s->c_fsync_max_ms)
			s->c_fsync_max_ms = t;
		s->c_fsyncs++;
	}
}

/* fio's layout: the whole file written once and fsynced. */
static void lay_out(const char *path, uint64_t size)
{
	char *buf = pattern(MIB);
	uint64_t off;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die("create %s: %s", path, strerror(errno));
	for (off = 0; off < size; off += MIB)
		write_full(fd, buf, size - off < MIB ? (size_t)(size - off) : MIB, (off_t)off,
			   path);
	if (fsync(fd))
		die("fsync %s: %s", path, strerror(errno));
	close(fd);
	free(buf);
}

struct storm_args {
	struct storm *s;
	const char *dir, *img;
	uint64_t rounds, size;
};

static void role_a(void *p)
{
	struct storm_args *a = p;

	storm_a(a->s, a->dir, a->rounds);
}

static void role_b(void *p)
{
	struct storm_args *a = p;

	storm_b(a->s, a->img, a->size);
}

static void role_c(void *p)
{
	struct storm_args *a = p;

	storm_c(a->s, a->dir);
}

/*
 * The directories and B's file: laid out unless it is already there at
 * SIZE (the job lays it out first, to read the counters after it).
 * Returns the file's path, in PATH.
 */
static const char *storm_prepare(const char *dir, uint64_t size, char *path)
{
	struct stat st;

	mkdir_p(dir);
	make_path(path, "%s/test_dir1", dir);
	mkdir_p(path);
	make_path(path, "%s/test_dir2", dir);
	mkdir_p(path);
	make_path(path, "%s/fio", dir);
	mkdir_p(path);
	make_path(path, "%s/fio/test_img", dir);
	if (stat(path, &st) || (uint64_t)st.st_size != size) {
		lay_out(path, size);
		sync();
	}
	return path;
}

static int cmd_layout(int argc, char **argv)
{
	char path[PATH_LEN];

	if (argc != 2)
		die("usage: replayload layout DIR FILESIZE");
	storm_prepare(argv[0], parse_size(argv[1]), path);
	return 0;
}

/*
 * Start workers together: each joins its cgroup and reports ready before
 * anyone starts, so none runs in the wrong group or ahead of the others.
 */
struct starter {
	int ready[2], go[2];
};

static void starter_open(struct starter *st)
{
	if (pipe(st->ready) || pipe(st->go))
		die("pipe: %s", strerror(errno));
}

/*
 * Fork one worker: it joins GROUP, says it is ready, waits for the go pipe
 * to close (every copy of its write end: its own is closed first), runs
 * ROLE and exits.
 */
static pid_t spawn(struct starter *st, const char *group, void (*role)(void *), void *arg)
{
	pid_t pid = fork();
	char c;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	close(st->go[1]);
	close(st->ready[0]);
	join_cgroup(group);
	if (write(st->ready[1], "r", 1) != 1)
		_exit(1);
	close(st->ready[1]);
	while (read(st->go[0], &c, 1) < 0 && errno == EINTR)
		;
	close(st->go[0]);
	role(arg);
	_exit(0);
}

/* All N workers ready: let them go. */
static void starter_release(struct starter *st, size_t n)
{
	char c;
	size_t i;

	close(st->ready[1]);
	close(st->go[0]);
	for (i = 0; i < n; i++)
		if (read(st->ready[0], &c, 1) != 1)
			die("a worker died before it started");
	close(st->go[1]);
	close(st->ready[0]);
}

/* Wait for every child; any that failed makes the run fail. */
static void reap(const pid_t *pids, size_t n)
{
	size_t i;
	int st, bad = 0;

	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &st, 0) < 0)
			die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	if (bad)
		die("%d worker(s) failed", bad);
}

static int cmd_ckpt_storm(int argc, char **argv)
{
	struct storm_args args;
	struct starter st;
	struct storm *s;
	char path[PATH_LEN];
	pid_t pids[3];
	size_t len;
	double a_s;

	if (argc != 3)
		die("usage: replayload ckpt-storm DIR ROUNDS FILESIZE");
	args.dir = argv[0];
	args.rounds = parse_count(argv[1], MAX_ROUNDS);
	args.size = parse_size(argv[2]);
	len = sizeof(*s) + 2 * args.rounds * sizeof(double);
	s = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	args.s = s;
	args.img = storm_prepare(args.dir, args.size, path);

	starter_open(&st);
	pids[0] = spawn(&st, "fg", role_a, &args);
	pids[1] = spawn(&st, "fg", role_b, &args);
	pids[2] = spawn(&st, "bg", role_c, &args);
	starter_release(&st, 3);
	reap(pids, 3);

	a_s = s->a_end - s->a_start;
	printf("@@M a_elapsed_s=%.3f\n", a_s);
	printf("@@M a_fsyncs=%" PRIu64 "\n", args.rounds);
	/* the engine's definition, so the two sides' percentiles compare */
	printf("@@M a_fsync_p50_ms=%.2f\n", f2fs_replay_quantile(s->a_lat_ms, args.rounds, 0.50));
	printf("@@M a_fsync_p99_ms=%.2f\n", f2fs_replay_quantile(s->a_lat_ms, args.rounds, 0.99));
	printf("@@M a_fsync_max_ms=%.2f\n", s->a_lat_ms[args.rounds - 1]);
	printf("@@M a_touch_p10_us=%.0f\n",
	       1000 * f2fs_replay_quantile(s->a_lat_ms + args.rounds, args.rounds, 0.10));
	printf("@@M a_touch_p90_us=%.0f\n",
	       1000 * f2fs_replay_quantile(s->a_lat_ms + args.rounds, args.rounds, 0.90));
	printf("@@M b_bytes=%" PRIu64 "\n", s->b_bytes);
	printf("@@M b_mbps=%.2f\n", a_s > 0 ? (double)s->b_bytes / 1e6 / a_s : 0);
	printf("@@M c_fsyncs=%" PRIu64 "\n", s->c_fsyncs);
	printf("@@M c_fsyncs_per_s=%.2f\n", a_s > 0 ? (double)s->c_fsyncs / a_s : 0);
	printf("@@M c_fsync_max_ms=%.2f\n", s->c_fsync_max_ms);
	munmap(s, len);
	return 0;
}

/* ---- tiotest ---- */

/* Read-I/O count of block device DEV (the first field of its stat file). */
static uint64_t dev_reads(const char *dev)
{
	char path[PATH_LEN];
	unsigned long long reads = 0;
	FILE *f;

	make_path(path, "/sys/block/%s/stat", dev);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &reads) != 1)
		die("cannot read %s", path);
	fclose(f);
	return reads;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		die("drop_caches: %s", strerror(errno));
	close(fd);
}

/*
 * Extents of the open file FD from FIEMAP, pieces that continue one
 * another both logically and physically counted as one (how the kernel
 * splits its answer is not what we measure), and the read requests a
 * sequential read of them needs at READ_REQ bytes each.
 */
static void file_extents(int fd, const char *path, uint64_t *extents, uint64_t *requests)
{
	enum { BATCH = 256 };
	size_t len = sizeof(struct fiemap) + BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, len);
	uint64_t start = 0, run_len = 0, run_log = 0, run_phys = 0;
	int last = 0, have = 0;

	if (!fm)
		die("out of memory");
	*extents = *requests = 0;
	while (!last) {
		unsigned i;

		memset(fm, 0, len);
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			die("FIEMAP %s: %s", path, strerror(errno));
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			if (have && run_log + run_len == e->fe_logical &&
			    run_phys + run_len == e->fe_physical) {
				run_len += e->fe_length;
			} else {
				if (have) {
					(*extents)++;
					*requests += (run_len + READ_REQ - 1) / READ_REQ;
				}
				have = 1;
				run_log = e->fe_logical;
				run_phys = e->fe_physical;
				run_len = e->fe_length;
			}
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
			start = e->fe_logical + e->fe_length;
		}
	}
	if (have) {
		(*extents)++;
		*requests += (run_len + READ_REQ - 1) / READ_REQ;
	}
	free(fm);
}

struct tio_args {
	const char *dir;
	uint64_t size;
	unsigned index;
};

static void tio_write(void *p)
{
	struct tio_args *a = p;
	char path[PATH_LEN], *buf = pattern(TIO_IO);
	uint64_t off;
	int fd;

	make_path(path, "%s/tio/file%u", a->dir, a->index);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("create %s: %s", path, strerror(errno));
	for (off = 0; off < a->size; off += TIO_IO)
		write_full(fd, buf, a->size - off < TIO_IO ? (size_t)(a->size - off) : TIO_IO,
			   (off_t)off, path);
	close(fd);
	free(buf);
}

static int cmd_tiotest(int argc, char **argv)
{
	const char *dev = getenv("REPLAYLOAD_DEV") ? getenv("REPLAYLOAD_DEV") : "vda";
	uint64_t threads, size, ext_total = 0, req_total = 0, reads0, bytes = 0;
	struct tio_args args[MAX_THREADS];
	pid_t pids[MAX_THREADS] = {0};
	struct starter st;
	char path[PATH_LEN], *buf;
	double t0, t_write, t_sync, t_read;
	unsigned i;

	if (argc != 3)
		die("usage: replayload tiotest DIR THREADS FILESIZE");
	threads = parse_count(argv[1], MAX_THREADS);
	size = parse_size(argv[2]);
	mkdir_p(argv[0]);
	make_path(path, "%s/tio", argv[0]);
	mkdir_p(path);

	starter_open(&st);
	for (i = 0; i < threads; i++) {
		args[i] = (struct tio_args){.dir = argv[0], .size = size, .index = i};
		pids[i] = spawn(&st, "fg", tio_write, &args[i]);
	}
	t0 = now_s();
	starter_release(&st, threads);
	reap(pids, threads);
	t_write = now_s() - t0;
	sync();
	t_sync = now_s() - t0 - t_write;

	for (i = 0; i < threads; i++) {
		uint64_t ext, req;
		int fd;

		make_path(path, "%s/tio/file%u", argv[0], i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open %s: %s", path, strerror(errno));
		file_extents(fd, path, &ext, &req);
		close(fd);
		printf("@@M file%u_extents=%" PRIu64 "\n", i, ext);
		ext_total += ext;
		req_total += req;
	}

	drop_caches();
	buf = malloc(TIO_IO);
	if (!buf)
		die("out of memory");
	reads0 = dev_reads(dev);
	t0 = now_s();
	for (i = 0; i < threads; i++) {
		ssize_t n;
		int fd;

		make_path(path, "%s/tio/file%u", argv[0], i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open %s: %s", path, strerror(errno));
		while ((n = read(fd, buf, TIO_IO)) > 0)
			bytes += (uint64_t)n;
		if (n < 0)
			die("read %s: %s", path, strerror(errno));
		close(fd);
	}
	t_read = now_s() - t0;
	free(buf);
	if (bytes != threads * size)
		die("read %" PRIu64 " bytes back, wrote %" PRIu64, bytes, threads * size);

	printf("@@M write_s=%.3f\n", t_write);
	printf("@@M sync_s=%.3f\n", t_sync);
	printf("@@M write_mbps=%.2f\n", (double)(threads * size) / 1e6 / (t_write + t_sync));
	printf("@@M files=%" PRIu64 "\n", threads);
	printf("@@M extents=%" PRIu64 "\n", ext_total);
	printf("@@M extents_per_file=%.3f\n", (double)ext_total / (double)threads);
	printf("@@M read_requests_512k=%" PRIu64 "\n", req_total);
	printf("@@M read_ios=%" PRIu64 "\n", dev_reads(dev) - reads0);
	printf("@@M read_s=%.3f\n", t_read);
	printf("@@M read_mbps=%.2f\n", t_read > 0 ? (double)bytes / 1e6 / t_read : 0);
	return 0;
}

/* ---- verify ---- */

static int verify_file(const char *root, uint64_t seed, const char *name, uint64_t *size)
{
	char path[PATH_LEN], *got = malloc(MIB), *want = malloc(MIB);
	uint64_t off = 0;
	ssize_t n;
	int fd, bad = 0;

	if (!got || !want)
		die("out of memory");
	make_path(path, "%s%s", root, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	while (!bad && (n = read(fd, got, MIB)) > 0) {
		f2fs_replay_content(seed, name, off, want, (size_t)n);
		if (memcmp(got, want, (size_t)n)) {
			ssize_t i = 0;

			while (got[i] == want[i])
				i++;
			fprintf(stderr, "replayload: %s differs at byte %" PRIu64 "\n", name,
				off + (uint64_t)i);
			bad = 1;
		}
		off += (uint64_t)n;
	}
	if (n < 0)
		die("read %s: %s", path, strerror(errno));
	close(fd);
	free(got);
	free(want);
	*size = off;
	return bad;
}

static int cmd_verify(int argc, char **argv)
{
	uint64_t seed, bytes = 0, size;
	int i, bad = 0;

	if (argc < 3)
		die("usage: replayload verify ROOT SEED PATH...");
	seed = strtoull(argv[1], NULL, 0);
	for (i = 2; i < argc; i++) {
		if (argv[i][0] != '/')
			die("%s: paths start at the volume's root (/...)", argv[i]);
		bad += verify_file(argv[0], seed, argv[i], &size);
		if (!size)
			fprintf(stderr, "replayload: note: %s is empty\n", argv[i]);
		bytes += size;
	}
	printf("@@M verify_files=%d\n", argc - 2);
	printf("@@M verify_bytes=%" PRIu64 "\n", bytes);
	printf("@@M verify_bad=%d\n", bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "ckpt-storm"))
		return cmd_ckpt_storm(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "layout"))
		return cmd_layout(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "tiotest"))
		return cmd_tiotest(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "verify"))
		return cmd_verify(argc - 2, argv + 2);
	fprintf(stderr, "usage: replayload layout DIR FILESIZE\n"
			"       replayload ckpt-storm DIR ROUNDS FILESIZE\n"
			"       replayload tiotest DIR THREADS FILESIZE\n"
			"       replayload verify ROOT SEED PATH...\n");
	return 2;
}
