// SPDX-License-Identifier: GPL-2.0
/*
 * crashload: the workload of the crash-test campaign (scripts/crashtest) and
 * the tools around it, in one binary that runs in the guest and on the host.
 *
 *   crashload run --seed S --ops MIN-MAX --dir DIR --log DEV      (guest)
 *       From seed S, a random mix of creates, writes and pwrites (sizes from
 *       inline data to 1 MiB, sparse writes past the inode's direct
 *       pointers), truncates that shrink and grow, fsync, fdatasync, renames
 *       within and across directories (over existing files too), unlinks,
 *       hard links, setxattr, mkdir, fsync of directories and syncfs under
 *       DIR, every step logged to DEV first (crashlog.h).  At operation K
 *       (drawn from S between MIN and MAX) it writes the cut marker; in stop
 *       mode it then waits to be killed, in run mode it keeps working until
 *       the kill lands.  It never returns on its own unless something fails.
 *   crashload plan --seed S --ops MIN-MAX                          (host)
 *       Print S's cut: "cut_op=K mode=stop|run delay_ms=D".
 *   crashload watch --log FILE --pidfile F --delay-ms D --timeout T (host)
 *       Wait for the cut marker in the log file (the guest's second disk),
 *       then D ms more, and SIGKILL the qemu process F names.
 *   crashload replay --log FILE                                    (host)
 *       Replay a log: what it holds and how many names must survive.
 *   crashload verify --log DEV --dir DIR                           (guest)
 *       After the crash and the remount: check every name the rules say
 *       must hold its file's last fsynced size and data CRC32, and xattr
 *       when an fsync (not fdatasync) covered its last change.
 *   crashload expected --log FILE                                  (host)
 *       The names verify would check, one per line (for the self-test).
 *   crashload sum FILE                                             (host)
 *       CRC32 over the data extents of a sparse file (and their offsets),
 *       to show that an fsck left an image as it was.
 *
 * Everything the workload draws comes from a splitmix64 stream of the seed,
 * and every choice depends only on the model the log rebuilds, so a seed
 * always yields the same operations and the same cut operation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "crashlog.h"

#define PATTERN_LEN    (2u << 20)
#define SPARSE_BASE    (4u << 20) /* past the 923 block pointers of an inode */
#define MAX_LIVE       120	  /* files kept at most before creates turn into unlinks */
#define MAX_DIRS       12
#define MAX_DEPTH      4
#define RUN_ON_LIMIT   5000 /* run mode: operations after the cut before waiting */
#define PLAN_SALT      0x6a09e667f3bcc909ull
#define XATTR_MAX_LEN  1800
#define PIDFILE_WAIT_S 60 /* qemu writes its pid file as it starts */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

/* Where a seed cuts: after operation cut_op; run mode keeps working for
 * delay_ms after the marker (the host's wait), stop mode waits at once. */
struct plan {
	uint32_t cut_op;
	bool run_on;
	uint32_t delay_ms;
};

static void plan_from_seed(uint64_t seed, uint32_t ops_min, uint32_t ops_max, struct plan *p)
{
	struct rng r = {seed ^ PLAN_SALT};

	p->cut_op = ops_min + (uint32_t)rng_below(&r, ops_max - ops_min + 1);
	p->run_on = rng_below(&r, 3) != 0;
	p->delay_ms = p->run_on ? (uint32_t)rng_below(&r, 1500) : 0;
}

/* ---- the workload ---- */

struct work {
	struct model m;
	struct rng r;
	struct plan plan;
	int logfd, rootfd;
	struct crashlog_record *sector; /* aligned for O_DIRECT */
	uint32_t seq;			/* next record */
	uint32_t op;			/* current operation */
	uint32_t counter;		/* for new names */
	uint8_t *pattern;		/* data source, PATTERN_LEN bytes */
	uint8_t *chunk;			/* read buffer */
};

static void __attribute__((noreturn, format(printf, 2, 3)))
fatal(const struct work *w, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "crashload: op %u: ", w->op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void log_sector(struct work *w, off_t sector, const char *magic, uint32_t seq,
		       const char *text)
{
	crashlog_seal(w->sector, magic, seq, text);
	if (pwrite(w->logfd, w->sector, CRASHLOG_SECTOR, sector * CRASHLOG_SECTOR) !=
	    CRASHLOG_SECTOR)
		fatal(w, "writing log sector %lld: %s", (long long)sector, strerror(errno));
}

/* Write the next record ("<op> " + FMT) and apply it to the model. */
static void __attribute__((format(printf, 2, 3))) record(struct work *w, const char *fmt, ...)
{
	char text[CRASHLOG_TEXT];
	va_list ap;
	int n = snprintf(text, sizeof(text), "%u ", w->op);

	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
	va_end(ap);
	log_sector(w, CRASHLOG_FIRST_RECORD + (off_t)w->seq, "CRLOGREC", w->seq, text);
	if (model_apply(&w->m, w->seq, text))
		fatal(w, "the model refused its own record: %s", w->m.error);
	w->seq++;
}

static size_t pick_len(struct rng *r)
{
	uint64_t k = rng_below(r, 100);

	if (k < 30)
		return 1 + rng_below(r, 3400); /* fits in inline data */
	if (k < 60)
		return 3401 + rng_below(r, 16384 - 3401);
	if (k < 92)
		return 16384 + rng_below(r, 240 * 1024);
	return 256 * 1024 + rng_below(r, 768 * 1024);
}

static size_t count_names(const struct model *m, bool dirs)
{
	size_t i, n = 0;

	for (i = 0; i < m->nnames; i++)
		if (dirs ? m->names[i].is_dir : m->names[i].id >= 0)
			n++;
	return n;
}

/* The K-th name that is a directory (dirs) or names a file. */
static const struct model_name *nth_name(const struct model *m, bool dirs, size_t k)
{
	size_t i;

	for (i = 0; i < m->nnames; i++)
		if ((dirs ? m->names[i].is_dir : m->names[i].id >= 0) && k-- == 0)
			return &m->names[i];
	return NULL;
}

/* A random directory as a prefix for new names: "" (the root) or "d3/d7/". */
static void pick_dir(struct work *w, char *prefix, size_t len)
{
	size_t k = rng_below(&w->r, count_names(&w->m, true) + 1);

	if (k == 0)
		prefix[0] = '\0';
	else if (snprintf(prefix, len, "%s/", nth_name(&w->m, true, k - 1)->path) >= (int)len)
		fatal(w, "directory path too long");
}

static const struct model_name *pick_file(struct work *w)
{
	size_t n = count_names(&w->m, false);

	return n ? nth_name(&w->m, false, rng_below(&w->r, n)) : NULL;
}

static void new_name(struct work *w, char *path, size_t len, char kind)
{
	char dir[CRASHLOG_PATH];

	pick_dir(w, dir, sizeof(dir));
	if (snprintf(path, len, "%s%c%u", dir, kind, w->counter++) >= (int)len)
		fatal(w, "path too long");
}

static void write_all(struct work *w, int fd, const uint8_t *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n <= 0)
			fatal(w, "pwrite: %s", n < 0 ? strerror(errno) : "wrote nothing");
		buf += n;
		len -= (size_t)n;
		off += n;
	}
}

static void write_pattern(struct work *w, int fd, size_t len, off_t off)
{
	size_t from = (size_t)rng_below(&w->r, PATTERN_LEN - len);

	write_all(w, fd, w->pattern + from, len, off);
}

static int open_file(struct work *w, const char *path)
{
	int fd = openat(w->rootfd, path, O_RDWR);

	if (fd < 0)
		fatal(w, "open %s: %s", path, strerror(errno));
	return fd;
}

/* Announce a change of the data (or the xattr) of the file behind NAME,
 * once per fsync. */
static int begin_change(struct work *w, const struct model_name *name, bool xattr)
{
	int id = name->id;

	if (xattr && w->m.files[id].xsynced)
		record(w, "D %d x", id);
	else if (!xattr && w->m.files[id].synced)
		record(w, "D %d", id);
	return open_file(w, name->path);
}

static void op_create(struct work *w)
{
	char path[CRASHLOG_PATH];
	int fd;

	new_name(w, path, sizeof(path), 'f');
	record(w, "C %zu %s", w->m.nfiles, path);
	fd = openat(w->rootfd, path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0)
		fatal(w, "create %s: %s", path, strerror(errno));
	if (rng_below(&w->r, 10) < 8)
		write_pattern(w, fd, pick_len(&w->r), 0);
	close(fd);
}

static off_t file_size(struct work *w, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		fatal(w, "fstat: %s", strerror(errno));
	return st.st_size;
}

static void op_write(struct work *w, const struct model_name *name)
{
	int fd = begin_change(w, name, false);
	off_t size = file_size(w, fd), off;
	uint64_t k = rng_below(&w->r, 100);

	if (k < 55)
		off = (off_t)rng_below(&w->r, (uint64_t)size + 1);
	else if (k < 88)
		off = size; /* append */
	else
		off = SPARSE_BASE + (off_t)rng_below(&w->r, 2u << 20);
	write_pattern(w, fd, pick_len(&w->r), off);
	close(fd);
}

static void op_truncate(struct work *w, const struct model_name *name)
{
	int fd = begin_change(w, name, false);
	off_t size = file_size(w, fd), to;

	if (size > 0 && rng_below(&w->r, 2))
		to = (off_t)rng_below(&w->r, (uint64_t)size);
	else
		to = size + (off_t)pick_len(&w->r);
	if (ftruncate(fd, to))
		fatal(w, "truncate %s to %lld: %s", name->path, (long long)to, strerror(errno));
	close(fd);
}

static void op_xattr(struct work *w, const struct model_name *name)
{
	int fd = begin_change(w, name, true);
	size_t len = rng_below(&w->r, 10) < 7 ? 1 + rng_below(&w->r, 100)
					      : 300 + rng_below(&w->r, XATTR_MAX_LEN - 300);
	size_t from = (size_t)rng_below(&w->r, PATTERN_LEN - len);

	if (fsetxattr(fd, CRASHLOG_XATTR, w->pattern + from, len, 0))
		fatal(w, "setxattr %s: %s", name->path, strerror(errno));
	close(fd);
}

/* CRC32 and length of FD's data and of its xattr. */
static void file_sums(struct work *w, int fd, uint32_t *crc, uint32_t *xlen, uint32_t *xcrc)
{
	char value[XATTR_MAX_LEN + 1];
	off_t off = 0;
	ssize_t n;

	*crc = (uint32_t)crc32(0, NULL, 0);
	while ((n = pread(fd, w->chunk, 1u << 20, off)) > 0) {
		*crc = (uint32_t)crc32(*crc, w->chunk, (uInt)n);
		off += n;
	}
	if (n < 0)
		fatal(w, "read back: %s", strerror(errno));
	n = fgetxattr(fd, CRASHLOG_XATTR, value, sizeof(value));
	if (n < 0 && errno != ENODATA)
		fatal(w, "getxattr: %s", strerror(errno));
	*xlen = n < 0 ? 0 : (uint32_t)n;
	*xcrc = n < 0 ? 0 : (uint32_t)crc32(0, (const Bytef *)value, (uInt)n);
}

static void op_fsync(struct work *w, const struct model_name *name, bool datasync)
{
	int id = name->id, fd = open_file(w, name->path);
	uint32_t crc, xlen, xcrc;
	struct stat st;

	if (datasync ? fdatasync(fd) : fsync(fd))
		fatal(w, "%s %s: %s", datasync ? "fdatasync" : "fsync", name->path,
		      strerror(errno));
	if (fstat(fd, &st))
		fatal(w, "fstat: %s", strerror(errno));
	file_sums(w, fd, &crc, &xlen, &xcrc);
	close(fd);
	record(w, "S %d %lld %08" PRIx32 " %" PRIu32 " %08" PRIx32 " %lu %c", id,
	       (long long)st.st_size, crc, xlen, xcrc, (unsigned long)st.st_nlink,
	       datasync ? 'd' : 'f');
}

/* Rename NAME over another file (half the time) or to a new name. */
static void op_rename(struct work *w, const struct model_name *name)
{
	char from[CRASHLOG_PATH], to[CRASHLOG_PATH];
	const struct model_name *other = pick_file(w);

	snprintf(from, sizeof(from), "%s", name->path);
	if (other && other->id != name->id && rng_below(&w->r, 2))
		snprintf(to, sizeof(to), "%s", other->path);
	else
		new_name(w, to, sizeof(to), 'r');
	record(w, "R %s %s", from, to);
	if (renameat(w->rootfd, from, w->rootfd, to))
		fatal(w, "rename %s %s: %s", from, to, strerror(errno));
}

static void op_link(struct work *w, const struct model_name *name)
{
	char from[CRASHLOG_PATH], to[CRASHLOG_PATH];

	snprintf(from, sizeof(from), "%s", name->path);
	new_name(w, to, sizeof(to), 'l');
	record(w, "L %s %s", from, to);
	if (linkat(w->rootfd, from, w->rootfd, to, 0))
		fatal(w, "link %s %s: %s", from, to, strerror(errno));
}

static void op_unlink(struct work *w, const struct model_name *name)
{
	char path[CRASHLOG_PATH];

	snprintf(path, sizeof(path), "%s", name->path);
	record(w, "U %s", path);
	if (unlinkat(w->rootfd, path, 0))
		fatal(w, "unlink %s: %s", path, strerror(errno));
}

static void op_mkdir(struct work *w)
{
	char path[CRASHLOG_PATH];
	const char *p;
	int depth = 0;

	new_name(w, path, sizeof(path), 'd');
	for (p = path; *p; p++)
		depth += *p == '/';
	if (depth >= MAX_DEPTH || count_names(&w->m, true) >= MAX_DIRS)
		return;
	record(w, "M %s", path);
	if (mkdirat(w->rootfd, path, 0755))
		fatal(w, "mkdir %s: %s", path, strerror(errno));
}

static void op_dirsync(struct work *w)
{
	char dir[CRASHLOG_PATH];
	const char *path;
	int fd;

	pick_dir(w, dir, sizeof(dir));
	if (dir[0])
		dir[strlen(dir) - 1] = '\0'; /* the trailing slash */
	path = dir[0] ? dir : ".";
	fd = openat(w->rootfd, path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd))
		fatal(w, "fsync of directory %s: %s", path, strerror(errno));
	close(fd);
	record(w, "F %s", path);
}

static void op_syncfs(struct work *w)
{
	if (syncfs(w->rootfd))
		fatal(w, "syncfs: %s", strerror(errno));
	record(w, "Y");
}

enum op_kind {
	OP_CREATE,
	OP_WRITE,
	OP_TRUNCATE,
	OP_XATTR,
	OP_FSYNC,
	OP_FDATASYNC,
	OP_RENAME,
	OP_UNLINK,
	OP_LINK,
	OP_MKDIR,
	OP_DIRSYNC,
	OP_SYNCFS,
	NR_OP_KINDS
};

/* Relative weights of the operations. */
static const unsigned int op_weight[NR_OP_KINDS] = {
    [OP_CREATE] = 14, [OP_WRITE] = 22,	   [OP_TRUNCATE] = 7, [OP_XATTR] = 6,
    [OP_FSYNC] = 16,  [OP_FDATASYNC] = 10, [OP_RENAME] = 7,   [OP_UNLINK] = 5,
    [OP_LINK] = 4,    [OP_MKDIR] = 3,	   [OP_DIRSYNC] = 5,  [OP_SYNCFS] = 1,
};

static enum op_kind pick_op(struct work *w)
{
	unsigned int total = 0, k;
	int i;

	for (i = 0; i < NR_OP_KINDS; i++)
		total += op_weight[i];
	k = (unsigned int)rng_below(&w->r, total);
	for (i = 0; k >= op_weight[i]; i++)
		k -= op_weight[i];
	return (enum op_kind)i;
}

static void one_op(struct work *w)
{
	enum op_kind kind = pick_op(w);
	size_t live = count_names(&w->m, false);
	const struct model_name *name;

	if (kind == OP_CREATE && live >= MAX_LIVE)
		kind = OP_UNLINK;
	if (kind == OP_MKDIR || kind == OP_DIRSYNC || kind == OP_SYNCFS || kind == OP_CREATE ||
	    live < 3) {
		if (kind == OP_MKDIR)
			op_mkdir(w);
		else if (kind == OP_DIRSYNC)
			op_dirsync(w);
		else if (kind == OP_SYNCFS)
			op_syncfs(w);
		else
			op_create(w);
		return;
	}
	name = pick_file(w);
	switch (kind) {
	case OP_WRITE:
		op_write(w, name);
		break;
	case OP_TRUNCATE:
		op_truncate(w, name);
		break;
	case OP_XATTR:
		op_xattr(w, name);
		break;
	case OP_FSYNC:
	case OP_FDATASYNC:
		op_fsync(w, name, kind == OP_FDATASYNC);
		break;
	case OP_RENAME:
		op_rename(w, name);
		break;
	case OP_UNLINK:
		op_unlink(w, name);
		break;
	default:
		op_link(w, name);
		break;
	}
}

/* ---- command line ---- */

struct args {
	uint64_t seed;
	uint32_t ops_min, ops_max;
	const char *dir, *log, *pidfile;
	uint32_t delay_ms, timeout_s;
	bool have_seed;
};

static int usage(void)
{
	fputs("usage: crashload run --seed S --ops MIN-MAX --dir DIR --log DEV\n"
	      "       crashload plan --seed S --ops MIN-MAX\n"
	      "       crashload watch --log FILE --pidfile F --delay-ms D --timeout T\n"
	      "       crashload replay --log FILE\n"
	      "       crashload verify --log DEV --dir DIR\n"
	      "       crashload expected --log FILE\n"
	      "       crashload sum FILE\n",
	      stderr);
	return 2;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && s[0] != '-';
}

static bool parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (!parse_u64(s, &x) || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool parse_ops(const char *s, struct args *a)
{
	char lo[24];
	const char *dash = strchr(s, '-');

	if (!dash || (size_t)(dash - s) >= sizeof(lo))
		return false;
	memcpy(lo, s, (size_t)(dash - s));
	lo[dash - s] = '\0';
	return parse_u32(lo, &a->ops_min) && parse_u32(dash + 1, &a->ops_max) && a->ops_min >= 1 &&
	       a->ops_min <= a->ops_max;
}

/* Parse "--name value" pairs; false (with a message) on anything else. */
static bool parse_args(int argc, char **argv, struct args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->ops_min = 60;
	a->ops_max = 400;
	a->timeout_s = 300;
	for (i = 0; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = v != NULL;

		if (ok && !strcmp(k, "--seed"))
			ok = a->have_seed = parse_u64(v, &a->seed);
		else if (ok && !strcmp(k, "--ops"))
			ok = parse_ops(v, a);
		else if (ok && !strcmp(k, "--dir"))
			a->dir = v;
		else if (ok && !strcmp(k, "--log"))
			a->log = v;
		else if (ok && !strcmp(k, "--pidfile"))
			a->pidfile = v;
		else if (ok && !strcmp(k, "--delay-ms"))
			ok = parse_u32(v, &a->delay_ms);
		else if (ok && !strcmp(k, "--timeout"))
			ok = parse_u32(v, &a->timeout_s);
		else
			ok = false;
		if (!ok) {
			fprintf(stderr, "crashload: bad argument %s%s%s\n", k, v ? " " : "",
				v ? v : "");
			return false;
		}
	}
	return true;
}

static void work_open(struct work *w, const struct args *a)
{
	void *buf;
	size_t i;

	memset(w, 0, sizeof(*w));
	model_init(&w->m);
	w->r.s = a->seed;
	plan_from_seed(a->seed, a->ops_min, a->ops_max, &w->plan);
	w->logfd = open(a->log, O_WRONLY | O_DIRECT | O_SYNC);
	if (w->logfd < 0 && errno == EINVAL) {
		/* tmpfs before 6.6 refuses O_DIRECT (a host-side self-test);
		 * the guest's block device always takes it */
		printf("crashload: %s refuses O_DIRECT; writing it with O_SYNC only\n", a->log);
		w->logfd = open(a->log, O_WRONLY | O_SYNC);
	}
	if (w->logfd < 0)
		fatal(w, "open %s: %s", a->log, strerror(errno));
	w->rootfd = open(a->dir, O_RDONLY | O_DIRECTORY);
	if (w->rootfd < 0)
		fatal(w, "open %s: %s", a->dir, strerror(errno));
	if (posix_memalign(&buf, 4096, CRASHLOG_SECTOR))
		fatal(w, "out of memory");
	w->sector = buf;
	w->pattern = malloc(PATTERN_LEN);
	w->chunk = malloc(1u << 20);
	if (!w->pattern || !w->chunk)
		fatal(w, "out of memory");
	for (i = 0; i < PATTERN_LEN; i += 8) {
		uint64_t x = rng_next(&w->r);

		memcpy(w->pattern + i, &x, 8);
	}
}

static void announce_cut(struct work *w)
{
	record(w, "X");
	log_sector(w, CRASHLOG_CUT_SECTOR, "CRLOGCUT", 0, "cut");
	printf("crashload: cut marker after op %u (%s)\n", w->op,
	       w->plan.run_on ? "running on until the kill" : "waiting for the kill");
	fflush(stdout);
}

static int cmd_run(const struct args *a)
{
	struct work w;
	char header[CRASHLOG_TEXT];

	if (!a->have_seed || !a->dir || !a->log)
		return usage();
	work_open(&w, a);
	snprintf(header, sizeof(header), "seed=%" PRIu64 " ops=%u-%u cut_op=%u mode=%s delay_ms=%u",
		 a->seed, a->ops_min, a->ops_max, w.plan.cut_op, w.plan.run_on ? "run" : "stop",
		 w.plan.delay_ms);
	log_sector(&w, 0, "CRLOGHDR", 0, header);
	printf("crashload: %s\n", header);
	fflush(stdout);
	for (w.op = 1;; w.op++) {
		one_op(&w);
		if (w.op == w.plan.cut_op)
			announce_cut(&w);
		if (w.op >= w.plan.cut_op &&
		    (!w.plan.run_on || w.op >= w.plan.cut_op + RUN_ON_LIMIT))
			break;
	}
	for (;;)
		pause();
}

static int cmd_plan(const struct args *a)
{
	struct plan p;

	if (!a->have_seed)
		return usage();
	plan_from_seed(a->seed, a->ops_min, a->ops_max, &p);
	printf("cut_op=%u mode=%s delay_ms=%u\n", p.cut_op, p.run_on ? "run" : "stop", p.delay_ms);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool log_has(int fd, off_t sector, const char *magic)
{
	struct crashlog_record rec;

	return pread(fd, &rec, sizeof(rec), sector * CRASHLOG_SECTOR) == (ssize_t)sizeof(rec) &&
	       crashlog_valid(&rec, magic, 0);
}

static pid_t read_pid(const char *pidfile)
{
	FILE *f = fopen(pidfile, "r");
	long pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return (pid_t)pid;
}

/*
 * The host side of the cut.  Exit 0 after killing qemu at the cut, 2 when
 * qemu ended first (or never started), 3 on the timeout (qemu killed too).  The times are from
 * the moment the workload wrote its log header.
 */
static int cmd_watch(const struct args *a)
{
	double start = now_s(), t0 = 0, t_cut;
	pid_t pid = 0;
	int fd;

	if (!a->log || !a->pidfile)
		return usage();
	fd = open(a->log, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "crashload: watch: %s: %s\n", a->log, strerror(errno));
		return 2;
	}
	for (;; sleep_ms(5)) {
		if (!pid)
			pid = read_pid(a->pidfile);
		if (!pid && now_s() - start > PIDFILE_WAIT_S) {
			printf("crashload: watch: no pid in %s after %d s\n", a->pidfile,
			       PIDFILE_WAIT_S);
			return 2;
		}
		if (pid && kill(pid, 0) && errno == ESRCH) {
			printf("crashload: watch: qemu ended before the cut marker\n");
			return 2;
		}
		if (!t0 && log_has(fd, 0, "CRLOGHDR"))
			t0 = now_s();
		if (log_has(fd, CRASHLOG_CUT_SECTOR, "CRLOGCUT"))
			break;
		if (now_s() - start > a->timeout_s) {
			if (pid)
				kill(pid, SIGKILL);
			printf("crashload: watch: no cut marker in %u s; qemu killed\n",
			       a->timeout_s);
			return 3;
		}
	}
	t_cut = now_s();
	sleep_ms(a->delay_ms);
	if (!pid || kill(pid, SIGKILL)) {
		printf("crashload: watch: cannot kill qemu (pid %ld)\n", (long)pid);
		return 2;
	}
	printf("crashload: watch: killed t_cut=%.2f t_kill=%.2f\n", t0 ? t_cut - t0 : 0,
	       (t0 ? now_s() - t0 : 0));
	return 0;
}

static int cmd_replay(const struct args *a)
{
	struct model m;
	struct model_tally t;
	char header[CRASHLOG_TEXT];
	int rc;

	if (!a->log)
		return usage();
	model_init(&m);
	rc = crashlog_read(a->log, &m, header, sizeof(header));
	if (rc) {
		fprintf(stderr, "crashload: replay: %s\n", m.error);
		model_free(&m);
		return 1;
	}
	model_tally(&m, &t);
	printf("crashload: log %s\n", header);
	printf("records=%u ops=%u cut=%s cut_op=%u fsyncs=%u checkpoints=%u files=%zu "
	       "expected=%u not_durable=%u not_synced=%u dirs=%u\n",
	       m.records, m.last_op, m.cut ? "yes" : "no", m.cut_op, m.syncs, m.checkpoints,
	       m.nfiles, t.expected, t.not_durable, t.not_synced, t.directories);
	model_free(&m);
	return 0;
}

/* The names verify would check, one per line. */
static int cmd_expected(const struct args *a)
{
	struct model m;
	size_t i;

	if (!a->log)
		return usage();
	model_init(&m);
	if (crashlog_read(a->log, &m, NULL, 0)) {
		fprintf(stderr, "crashload: expected: %s\n", m.error);
		return 1;
	}
	for (i = 0; i < m.nnames; i++)
		if (model_name_expected(&m, i))
			printf("%s\n", m.names[i].path);
	model_free(&m);
	return 0;
}

/* Check name I against its file's last S record; print why not, return ok. */
static bool verify_name(int rootfd, const struct model *m, size_t i, uint8_t *chunk)
{
	const struct model_name *n = &m->names[i];
	const struct model_file *f = &m->files[n->id];
	char value[XATTR_MAX_LEN + 1];
	uint32_t crc = (uint32_t)crc32(0, NULL, 0), xlen = 0, xcrc = 0;
	struct stat st;
	off_t off = 0;
	ssize_t r;
	int fd = openat(rootfd, n->path, O_RDONLY | O_NOFOLLOW);

	if (fd < 0 || fstat(fd, &st)) {
		printf("crashload: verify: FAIL %s: %s (file %d)\n", n->path, strerror(errno),
		       n->id);
		if (fd >= 0)
			close(fd);
		return false;
	}
	while ((r = pread(fd, chunk, 1u << 20, off)) > 0) {
		crc = (uint32_t)crc32(crc, chunk, (uInt)r);
		off += r;
	}
	r = fgetxattr(fd, CRASHLOG_XATTR, value, sizeof(value));
	if (r >= 0) {
		xlen = (uint32_t)r;
		xcrc = (uint32_t)crc32(0, (const Bytef *)value, (uInt)r);
	}
	close(fd);
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != f->size || off != st.st_size ||
	    crc != f->crc) {
		printf("crashload: verify: FAIL %s (file %d): size %lld crc %08" PRIx32
		       ", fsynced size %" PRIu64 " crc %08" PRIx32 "\n",
		       n->path, n->id, (long long)st.st_size, crc, f->size, f->crc);
		return false;
	}
	if (f->xsynced && (xlen != f->xlen || xcrc != f->xcrc)) {
		printf("crashload: verify: FAIL %s (file %d): xattr %" PRIu32
		       " bytes crc %08" PRIx32 ", fsynced %" PRIu32 " bytes crc %08" PRIx32 "\n",
		       n->path, n->id, xlen, xcrc, f->xlen, f->xcrc);
		return false;
	}
	return true;
}

static int cmd_verify(const struct args *a)
{
	struct model m;
	struct model_tally t;
	uint32_t ok = 0, bad = 0;
	uint8_t *chunk = malloc(1u << 20);
	size_t i;
	int rootfd;

	if (!a->log || !a->dir || !chunk)
		return usage();
	model_init(&m);
	if (crashlog_read(a->log, &m, NULL, 0)) {
		printf("crashload: verify: FAIL reading the log: %s\n", m.error);
		return 1;
	}
	rootfd = open(a->dir, O_RDONLY | O_DIRECTORY);
	if (rootfd < 0) {
		printf("crashload: verify: FAIL %s: %s\n", a->dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < m.nnames; i++) {
		if (!model_name_expected(&m, i))
			continue;
		if (verify_name(rootfd, &m, i, chunk))
			ok++;
		else
			bad++;
	}
	model_tally(&m, &t);
	printf("crashload: verify: checked=%u ok=%u failed=%u not_durable=%u not_synced=%u "
	       "records=%u ops=%u\n",
	       ok + bad, ok, bad, t.not_durable, t.not_synced, m.records, m.last_op);
	close(rootfd);
	free(chunk);
	model_free(&m);
	return bad ? 1 : 0;
}

/* CRC32 over each data extent's offset and bytes. */
static int cmd_sum(const char *path)
{
	uint8_t *buf = malloc(1u << 20);
	uint32_t crc = (uint32_t)crc32(0, NULL, 0);
	uint64_t bytes = 0;
	off_t data, hole, end;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf) {
		fprintf(stderr, "crashload: sum: %s: %s\n", path, strerror(errno));
		return 1;
	}
	end = lseek(fd, 0, SEEK_END);
	for (data = lseek(fd, 0, SEEK_DATA); data >= 0 && data < end;
	     data = lseek(fd, hole, SEEK_DATA)) {
		hole = lseek(fd, data, SEEK_HOLE);
		crc = (uint32_t)crc32(crc, (const Bytef *)&data, sizeof(data));
		while (data < hole) {
			size_t want = (size_t)(hole - data < (1 << 20) ? hole - data : (1 << 20));
			ssize_t n = pread(fd, buf, want, data);

			if (n <= 0) {
				fprintf(stderr, "crashload: sum: %s: read failed\n", path);
				return 1;
			}
			crc = (uint32_t)crc32(crc, buf, (uInt)n);
			data += n;
			bytes += (uint64_t)n;
		}
	}
	printf("%08" PRIx32 " %" PRIu64 "\n", crc, bytes);
	close(fd);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "sum"))
		return argc == 3 ? cmd_sum(argv[2]) : usage();
	if (!parse_args(argc - 2, argv + 2, &a))
		return usage();
	if (!strcmp(argv[1], "run"))
		return cmd_run(&a);
	if (!strcmp(argv[1], "plan"))
		return cmd_plan(&a);
	if (!strcmp(argv[1], "watch"))
		return cmd_watch(&a);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(&a);
	if (!strcmp(argv[1], "verify"))
		return cmd_verify(&a);
	if (!strcmp(argv[1], "expected"))
		return cmd_expected(&a);
	return usage();
}
