// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated threads: one real thread per workload thread, performing its
 * ops in order, each op the way a system call reaches f2fs -- a write
 * lands in the page cache and may make its writer write back (balance
 * dirty pages); an fsync writes the file's pages and then either the
 * roll-forward chain or, when need_do_checkpoint() says so, requests a
 * checkpoint (f2fs_do_sync_file).  Looping threads repeat their ops until
 * every other thread is done.  Each thread times its ops; fsync-like ops
 * go into its latency figures.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "f2fs/bitops.h"
#include "f2fs/fs.h"
#include "f2fs/replay.h"
#include "f2fs/write.h"
#include "replay_internal.h"
#include "f2fs/sched.h"

#define IO_CHUNK (1u << 20)
/*
 * A write dirties its pages this many bytes per turn of the big lock
 * (DIRTY_POLL_THRESH): the kernel's writer dirties page by page, holding
 * no lock the flusher waits for, so the flusher may cut a file anywhere
 * in a write.
 */
#define DIRTY_PIECE (128u << 10)

/* What the threads of one run share. */
struct rp_run {
	struct rp_engine *e;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t nonloop_left;
	bool loops_stop;
	uint64_t ops_done, ops_total;
	uint64_t t0;
};

struct rp_thread {
	struct rp_run *run;
	const struct f2fs_replay_thread *spec;
	struct f2fs_replay_thread_report *rep;
	int idx, ctx;
	uint8_t *buf;
	char path[4200], path2[4200];
	struct {
		uint32_t ino;
		uint64_t pos;
	} * pos;
	size_t npos, pos_cap;
	size_t samples_cap; /* of t->rep->fsync_samples */
	uint64_t cpu_rng;   /* its ops' CPU times (--op-cpu-us) */
};

/* ---- paths ---- */

/* @src with "%n" replaced by @round. */
static int expand(const char *src, uint64_t round, char *out, size_t size)
{
	size_t o = 0;

	for (; *src; src++) {
		int n = 1;

		if (src[0] == '%' && src[1] == 'n') {
			n = snprintf(out + o, size - o, "%llu", (unsigned long long)round);
			src++;
		} else if (o + 1 < size) {
			out[o] = *src;
		}
		if (n < 0 || o + (size_t)n >= size)
			return -ENAMETOOLONG;
		o += (size_t)n;
	}
	out[o] = 0;
	return 0;
}

/* The directory holding @path and the last component's name. */
static int parent_of(struct rp_engine *e, const char *path, uint32_t *dir, const char **name,
		     size_t *len)
{
	const char *slash = strrchr(path, '/');
	char parent[4200];
	size_t plen;

	if (!slash || !slash[1])
		return -EINVAL;
	plen = (size_t)(slash - path);
	if (plen >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, path, plen);
	parent[plen] = 0;
	*name = slash + 1;
	*len = strlen(slash + 1);
	return f2fs_path_lookup(e->fs, plen ? parent : "/", dir);
}

/* utimes() on @ino: f2fs_setattr() changing times only, which takes no f2fs_lock_op. */
static int touch_times(struct rp_engine *e, uint32_t ino)
{
	struct f2fs_setattr s = {.atime = UINT64_MAX};

	s.mtime = s.ctime = (uint64_t)time(NULL);
	return f2fs_setattr(e->fs, ino, &s);
}

static int make_node(struct rp_engine *e, const char *path, uint16_t mode, bool touch_existing)
{
	struct f2fs_new_inode a;
	const char *name;
	uint32_t dir, ino;
	size_t len;
	int ret = parent_of(e, path, &dir, &name, &len);

	if (ret)
		return ret;
	ret = f2fs_lookup(e->fs, dir, name, len, &ino);
	if (ret == -ENOENT) {
		f2fs_new_inode_init(&a, mode, (uint64_t)time(NULL));
		return f2fs_create(e->fs, dir, name, len, &a, NULL, &ino);
	}
	return !ret && touch_existing ? touch_times(e, ino) : ret;
}

int rp_mkdir_p(struct rp_engine *e, int ctx, const char *path)
{
	char part[4200];
	size_t i;
	int ret = 0;

	if (strlen(path) >= sizeof(part))
		return -ENAMETOOLONG;
	for (i = 1; path[i - 1] && !ret; i++) {
		if (path[i] != '/' && path[i])
			continue;
		memcpy(part, path, i);
		part[i] = 0;
		rp_lock_op(e);
		rp_enter(e, ctx);
		ret = make_node(e, part, S_IFDIR | 0755, false);
		ret = rp_leave(e, ret == -EEXIST ? 0 : ret);
		rp_unlock_op(e);
	}
	return ret;
}

int rp_create_file(struct rp_engine *e, int ctx, const char *path, uint32_t *ino)
{
	int ret;

	rp_lock_op(e);
	rp_enter(e, ctx);
	ret = make_node(e, path, S_IFREG | 0644, false);
	if (ret == -EEXIST || !ret)
		ret = f2fs_path_lookup(e->fs, path, ino);
	ret = rp_leave(e, ret);
	rp_unlock_op(e);
	return ret;
}

/* ---- per-thread state ---- */

static uint64_t *file_pos(struct rp_thread *t, uint32_t ino)
{
	size_t i;

	for (i = 0; i < t->npos; i++)
		if (t->pos[i].ino == ino)
			return &t->pos[i].pos;
	if (t->npos == t->pos_cap) {
		size_t cap = t->pos_cap ? t->pos_cap * 2 : 16;
		void *n = realloc(t->pos, cap * sizeof(*t->pos));

		if (!n)
			return NULL;
		t->pos = n;
		t->pos_cap = cap;
	}
	t->pos[t->npos].ino = ino;
	t->pos[t->npos].pos = 0;
	return &t->pos[t->npos++].pos;
}

/* An fsync-like op that started at @start and took @ns, for the report. */
static int note_latency(struct rp_thread *t, uint64_t start, uint64_t ns)
{
	struct f2fs_replay_thread_report *r = t->rep;

	if (r->nfsync_samples == t->samples_cap) {
		size_t cap = t->samples_cap ? t->samples_cap * 2 : 256;
		struct f2fs_replay_sample *s = realloc(r->fsync_samples, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		r->fsync_samples = s;
		t->samples_cap = cap;
	}
	r->fsync_samples[r->nfsync_samples++] =
	    (struct f2fs_replay_sample){(double)(start - t->run->t0) / 1e9, (double)ns / 1e6};
	return 0;
}

/* ---- ops ---- */

static int op_write(struct rp_thread *t, const struct f2fs_replay_op *op)
{
	struct rp_engine *e = t->run->e;
	uint64_t off = op->offset, left = op->length, *pos = NULL;
	struct f2fs_inode_attr a;
	uint32_t ino = 0;
	int ret = 0;

	while (left && !ret) {
		size_t n = left < DIRTY_PIECE ? (size_t)left : DIRTY_PIECE;
		bool append;

		rp_enter(e, t->ctx);
		ret = f2fs_path_lookup(e->fs, t->path, &ino);
		if (!ret && op->op == F2FS_RP_WRITE && !pos) {
			pos = file_pos(t, ino);
			ret = pos ? 0 : -ENOMEM;
			off = pos ? *pos : 0;
		}
		ret = ret ? ret : f2fs_getattr(e->fs, ino, &a);
		rp_leave(e, 0);
		if (ret)
			break;
		f2fs_replay_content(e->pol->seed, t->path, off, t->buf, n);
		/* past i_size the write reserves blocks under f2fs_lock_op; an overwrite does not
		 */
		append = off + n > a.size;
		if (append)
			rp_lock_op(e);
		rp_enter(e, t->ctx);
		ret = f2fs_pwrite(e->fs, ino, t->buf, n, off);
		ret = ret ? ret : rp_file_written(e, t->path, off, n, t->idx);
		ret = rp_leave(e, ret);
		if (append)
			rp_unlock_op(e);
		off += n;
		left -= n;
		if (pos)
			*pos = off;
	}
	return ret ? ret : rp_balance_dirty(e, t->ctx, ino, t->spec->io_class);
}

static int op_read(struct rp_thread *t, const struct f2fs_replay_op *op)
{
	struct rp_engine *e = t->run->e;
	uint64_t off = op->offset, left = op->length;
	int ret = 0;

	while (left && !ret) {
		size_t n = left < IO_CHUNK ? (size_t)left : IO_CHUNK, done = 0;
		uint32_t ino;

		rp_enter(e, t->ctx);
		ret = f2fs_path_lookup(e->fs, t->path, &ino);
		ret = ret ? ret : f2fs_pread(e->fs, ino, t->buf, n, off, &done);
		ret = rp_leave(e, ret);
		if (done < n)
			break;
		off += n;
		left -= n;
	}
	return ret;
}

/*
 * What an fsync waits for: its own requests, and the pages of its class
 * the flusher has under write-back (filemap_fdatawait waits for the
 * file's pages whoever submitted them; the flusher's context stands in).
 */
static int wait_file_writeback(struct rp_thread *t, bool dir)
{
	struct rp_engine *e = t->run->e;
	/* the flusher writes regular files' pages; a directory's its fsync writes itself */
	int ret = dir ? 0 : rp_sched_wait(e->sched, e->flush_ctx[t->spec->io_class]);

	return ret ? ret : rp_sched_wait(e->sched, t->ctx);
}

/* f2fs_do_sync_file(): the pages, then the roll-forward chain or a checkpoint. */
static int op_fsync(struct rp_thread *t, bool datasync)
{
	struct rp_engine *e = t->run->e;
	bool need = false, did = false;
	struct f2fs_inode_attr a;
	uint32_t ino;
	int ret;

	rp_enter(e, t->ctx);
	ret = f2fs_path_lookup(e->fs, t->path, &ino);
	ret = ret ? ret : f2fs_getattr(e->fs, ino, &a);
	ret = ret ? ret : f2fs_fsync_needs_checkpoint(e->fs, ino, &need);
	ret = rp_leave(e, ret);
	ret = ret ? ret : rp_writeback(e, t->ctx, ino, F2FS_WB_ALL, UINT64_MAX);
	if (ret)
		return ret;
	if (need) {
		ret = wait_file_writeback(t, S_ISDIR(a.mode));
		return ret ? ret : rp_request_checkpoint(e, t->ctx);
	}
	rp_enter(e, t->ctx);
	ret = rp_leave(e, f2fs_fsync(e->fs, ino, datasync, &did));
	return ret ? ret : wait_file_writeback(t, S_ISDIR(a.mode));
}

/* sync(2): every dirty file written back, then a checkpoint (sync_filesystem). */
static int op_sync(struct rp_thread *t)
{
	struct rp_engine *e = t->run->e;
	int ret = rp_writeback_all(e, t->ctx);

	ret = ret ? ret : rp_sched_wait(e->sched, t->ctx);
	return ret ? ret : rp_request_checkpoint(e, t->ctx);
}

static int op_namespace(struct rp_thread *t, const struct f2fs_replay_op *op)
{
	struct rp_engine *e = t->run->e;
	const char *name, *name2;
	uint32_t dir, dir2, ino;
	size_t len, len2;
	int ret;

	if (op->op == F2FS_RP_CREATE) {
		/* open(O_CREAT) of an existing file and the touch's utimes: no f2fs_lock_op */
		rp_enter(e, t->ctx);
		ret = f2fs_path_lookup(e->fs, t->path, &ino);
		ret = rp_leave(e, ret ? ret : touch_times(e, ino));
		if (ret != -ENOENT)
			return ret;
	}
	rp_lock_op(e);
	rp_enter(e, t->ctx);
	switch (op->op) {
	case F2FS_RP_CREATE:
		ret = make_node(e, t->path, S_IFREG | 0644, true);
		break;
	case F2FS_RP_MKDIR:
		ret = make_node(e, t->path, S_IFDIR | 0755, false);
		break;
	case F2FS_RP_UNLINK:
		ret = parent_of(e, t->path, &dir, &name, &len);
		ret = ret ? ret : f2fs_unlink(e->fs, dir, name, len);
		if (!ret)
			rp_file_unlinked(e, t->path);
		break;
	case F2FS_RP_RENAME:
		ret = parent_of(e, t->path, &dir, &name, &len);
		ret = ret ? ret : parent_of(e, t->path2, &dir2, &name2, &len2);
		ret = ret ? ret : f2fs_rename(e->fs, dir, name, len, dir2, name2, len2, false);
		ret = ret ? ret : rp_file_renamed(e, t->path, t->path2);
		break;
	case F2FS_RP_TRUNCATE:
		ret = f2fs_path_lookup(e->fs, t->path, &ino);
		ret = ret ? ret : f2fs_truncate(e->fs, ino, op->length);
		if (!ret)
			rp_file_truncated(e, t->path);
		break;
	default:
		ret = -EINVAL;
	}
	ret = rp_leave(e, ret);
	rp_unlock_op(e);
	return ret;
}

static int op_sleep(const struct rp_engine *e, uint64_t ns)
{
	rp_sleep(e, rp_time(e) + ns);
	return 0;
}

static bool is_fsync_like(enum f2fs_replay_opcode op)
{
	return op == F2FS_RP_FSYNC || op == F2FS_RP_FDATASYNC || op == F2FS_RP_SYNC;
}

static int do_op(struct rp_thread *t, const struct f2fs_replay_op *op)
{
	int ret;

	/* the guest measures a touch's time; an fsync's own is part of its latency */
	if (op->op != F2FS_RP_SLEEP && !is_fsync_like(op->op))
		rp_spend_cpu(t->run->e, &t->cpu_rng);
	switch (op->op) {
	case F2FS_RP_WRITE:
	case F2FS_RP_PWRITE:
		ret = op_write(t, op);
		if (!ret && op->flags & F2FS_RP_F_SYNC)
			ret = op_fsync(t, false);
		return ret;
	case F2FS_RP_READ:
		return op_read(t, op);
	case F2FS_RP_FSYNC:
	case F2FS_RP_FDATASYNC:
		return op_fsync(t, op->op == F2FS_RP_FDATASYNC);
	case F2FS_RP_SYNC:
		return op_sync(t);
	case F2FS_RP_SLEEP:
		return op_sleep(t->run->e, op->length);
	default:
		return op_namespace(t, op);
	}
}

/* Wait for the op's start time, when it has one. */
static void wait_start(struct rp_thread *t, const struct f2fs_replay_op *op)
{
	if (op->time_ns != F2FS_RP_ASAP)
		rp_sleep(t->run->e, t->run->t0 + op->time_ns);
}

static bool is_fatal(int ret)
{
	return ret == -EIO || ret == -ENOMEM || ret == -EUCLEAN || ret == -ENOSPC || ret == -EROFS;
}

/* A failed op (@err, started @at_s into the run) into the thread's figures. */
static void count_error(struct f2fs_replay_thread_report *r, int err,
			const struct f2fs_replay_op *op, double at_s)
{
	size_t k;

	if (!r->errors++) {
		r->first_error = err;
		r->first_error_line = op->line;
		r->first_error_at_s = at_s;
	}
	for (k = 0; k < r->nerror_kinds && r->error_kinds[k].error != err; k++)
		;
	if (k == F2FS_RP_ERROR_KINDS)
		return;
	r->error_kinds[k].error = err;
	r->error_kinds[k].count++;
	if (k == r->nerror_kinds)
		r->nerror_kinds++;
}

/* Run one op; false when the run must end. */
static bool run_op(struct rp_thread *t, const struct f2fs_replay_op *op, uint64_t round)
{
	uint64_t start;
	int ret;

	if ((op->path && expand(op->path, round, t->path, sizeof(t->path))) ||
	    (op->path2 && expand(op->path2, round, t->path2, sizeof(t->path2))))
		ret = -ENAMETOOLONG;
	else
		ret = 0;
	wait_start(t, op);
	start = rp_time(t->run->e);
	if (!ret)
		ret = do_op(t, op);
	if (!ret && is_fsync_like(op->op)) {
		t->rep->fsyncs++;
		ret = note_latency(t, start, rp_time(t->run->e) - start);
	}
	t->rep->ops++;
	__atomic_add_fetch(&t->run->ops_done, 1, __ATOMIC_RELAXED);
	if (!ret)
		return true;
	if (is_fatal(ret)) {
		char what[64];

		snprintf(what, sizeof(what), "thread %s, %s", t->spec->name,
			 f2fs_replay_opcode_name(op->op));
		rp_abort(t->run->e, ret, what);
		return false;
	}
	count_error(t->rep, ret, op, (double)(start - t->run->t0) / 1e9);
	return true;
}

static bool loops_stopped(struct rp_run *run)
{
	bool s;

	pthread_mutex_lock(&run->mutex);
	s = run->loops_stop;
	pthread_mutex_unlock(&run->mutex);
	return s;
}

static void *thread_main(void *arg)
{
	struct rp_thread *t = arg;
	uint64_t start = rp_time(t->run->e), round = 0;
	bool go = true;

	do {
		size_t i;

		for (i = 0; i < t->spec->nops && go; i++) {
			go = !rp_stopping(t->run->e) && run_op(t, &t->spec->ops[i], round);
			if (t->spec->loop && loops_stopped(t->run))
				go = false;
		}
		round++;
	} while (go && t->spec->loop && t->spec->nops);
	t->rep->rounds = round;
	t->rep->elapsed_s = (double)(rp_time(t->run->e) - start) / 1e9;
	if (!t->spec->loop) {
		pthread_mutex_lock(&t->run->mutex);
		t->run->nonloop_left--;
		pthread_cond_broadcast(&t->run->cond);
		pthread_mutex_unlock(&t->run->mutex);
	}
	return NULL;
}

/* ---- the figures ---- */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double f2fs_replay_quantile(double *v, size_t n, double q)
{
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_value);
	i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

/* The fsync latency quantiles, from the samples (in time order: sorted in a copy). */
static int finish_report(struct rp_thread *t)
{
	struct f2fs_replay_thread_report *r = t->rep;
	size_t n = r->nfsync_samples, i;
	double *ms;

	if (!n)
		return 0;
	ms = malloc(n * sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ms[i] = r->fsync_samples[i].ms;
	r->fsync_p50_ms = f2fs_replay_quantile(ms, n, 0.50);
	r->fsync_p99_ms = f2fs_replay_quantile(ms, n, 0.99);
	r->fsync_max_ms = ms[n - 1];
	free(ms);
	return 0;
}

/* ---- the run ---- */

/* Does the thread fsync (a queue BFQ's low_latency heuristics raise)? */
static bool syncs(const struct f2fs_replay_thread *spec)
{
	size_t i;

	for (i = 0; i < spec->nops; i++)
		if (is_fsync_like(spec->ops[i].op) || spec->ops[i].flags & F2FS_RP_F_SYNC)
			return true;
	return false;
}

static int setup_threads(struct rp_run *run, struct rp_thread *ts, struct f2fs_replay_report *rep)
{
	struct rp_engine *e = run->e;
	size_t i, nonloop = 0;

	for (i = 0; i < e->wl->nthreads; i++) {
		struct rp_thread *t = &ts[i];
		const struct f2fs_replay_thread *spec = &e->wl->threads[i];

		t->run = run;
		t->spec = spec;
		t->idx = (int)i;
		t->cpu_rng = f2fs_mix64(e->pol->seed + i + 1);
		t->rep = &rep->threads[i];
		snprintf(t->rep->name, sizeof(t->rep->name), "%s", spec->name);
		t->rep->io_class = spec->io_class;
		t->ctx = rp_sched_context_new(e->sched, (unsigned int)spec->io_class);
		e->thread_ctx[i] = t->ctx;
		if (t->ctx >= 0 && syncs(spec))
			rp_sched_context_set_weight(
			    e->sched, t->ctx, rp_raised_weight(e->pol, RP_SCHED_DEFAULT_WEIGHT));
		t->buf = malloc(IO_CHUNK);
		if (t->ctx < 0 || !t->buf)
			return t->ctx < 0 ? t->ctx : -ENOMEM;
		if (!spec->loop)
			run->ops_total += spec->nops;
		nonloop += !spec->loop;
	}
	return nonloop ? 0 : -EINVAL;
}

/* Wait for the threads that do not loop, telling @progress now and then. */
static void wait_nonloop(struct rp_run *run, f2fs_replay_progress_fn progress, void *arg)
{
	pthread_mutex_lock(&run->mutex);
	while (run->nonloop_left) {
		/* the ticks are for the user: on the host's clock, whatever the engine's */
		uint64_t wake = rp_now_ns() + 1000000000ull;
		struct timespec until = {.tv_sec = (time_t)(wake / 1000000000ull),
					 .tv_nsec = (long)(wake % 1000000000ull)};

		pthread_cond_timedwait(&run->cond, &run->mutex, &until);
		if (progress) {
			pthread_mutex_unlock(&run->mutex);
			progress(__atomic_load_n(&run->ops_done, __ATOMIC_RELAXED), run->ops_total,
				 arg);
			pthread_mutex_lock(&run->mutex);
		}
	}
	run->loops_stop = true;
	pthread_mutex_unlock(&run->mutex);
}

static void free_threads(struct rp_thread *ts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(ts[i].buf);
		free(ts[i].pos);
	}
	free(ts);
}

int rp_run_threads(struct rp_engine *e, f2fs_replay_progress_fn progress, void *arg,
		   struct f2fs_replay_report *rep)
{
	size_t n = e->wl->nthreads, started = 0, i;
	struct rp_thread *ts = calloc(n ? n : 1, sizeof(*ts));
	pthread_t *tids = calloc(n ? n : 1, sizeof(*tids));
	struct rp_run run = {.e = e};
	int ret;

	rep->threads = calloc(n ? n : 1, sizeof(*rep->threads));
	e->thread_ctx = calloc(n ? n : 1, sizeof(*e->thread_ctx));
	if (!ts || !tids || !rep->threads || !e->thread_ctx) {
		free(ts);
		free(tids);
		return -ENOMEM;
	}
	rep->nthreads = n;
	pthread_mutex_init(&run.mutex, NULL);
	rp_cond_init_monotonic(&run.cond);
	ret = setup_threads(&run, ts, rep);
	if (ret == -EINVAL)
		snprintf(e->why, sizeof(e->why), "the workload has no thread that ends (all loop)");
	run.t0 = rp_time(e);
	rp_note_run_start(e, run.t0);
	for (i = 0; i < n && !ret; i++) {
		pthread_mutex_lock(&run.mutex);
		run.nonloop_left += !ts[i].spec->loop;
		pthread_mutex_unlock(&run.mutex);
		if (pthread_create(&tids[i], NULL, thread_main, &ts[i])) {
			pthread_mutex_lock(&run.mutex);
			run.nonloop_left -= !ts[i].spec->loop;
			pthread_mutex_unlock(&run.mutex);
			ret = -EAGAIN;
			rp_abort(e, ret, "starting the threads");
		} else {
			started++;
		}
	}
	wait_nonloop(&run, progress, arg);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	if (progress && !ret)
		progress(run.ops_done, run.ops_total, arg);
	for (i = 0; i < started; i++)
		if (finish_report(&ts[i]) && !ret)
			ret = -ENOMEM;
	free_threads(ts, n);
	free(tids);
	pthread_mutex_destroy(&run.mutex);
	pthread_cond_destroy(&run.cond);
	return ret;
}
