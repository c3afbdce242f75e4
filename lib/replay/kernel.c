// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel around the write path, as the replay engine plays it.
 *
 * The write path's state is single-threaded, so every call into it holds
 * one FIFO lock (the "big lock"); what makes threads wait on each other is
 * what the kernel makes them wait for, outside it:
 *  - device I/O is asynchronous: the write path's requests queue in the
 *    I/O scheduler stacked on the device (lib/sched/iosched.c), under the
 *    calling thread's I/O class, and the thread waits for them where the
 *    kernel would -- an fsync for its data and flush, nobody for
 *    write-back;
 *  - a checkpoint holds the big lock until its I/O is complete, as the
 *    kernel's holds cp_rwsem for writing (f2fs_write_checkpoint, under
 *    block_operations), so every operation waits for it;
 *  - with checkpoint_merge, fsyncs that need a checkpoint queue a request
 *    and sleep; one checkpoint thread, in its own I/O class, takes the
 *    whole queue and serves it with one checkpoint
 *    (checkpoint.c: __checkpoint_and_complete_reqs); without it the
 *    caller writes the checkpoint itself in its own class
 *    (f2fs_issue_checkpoint);
 *  - write-back takes the writepages mutex where __should_serialize_io()
 *    says so (data.c); writers that are not serialised write a few pages
 *    per turn of the big lock, so their blocks interleave as concurrent
 *    writers' do;
 *  - the flusher writes inodes dirtied longer than dirty_expire ago, and
 *    everything above the background threshold, eldest first
 *    (fs-writeback.c, wb_writeback with the expire ordering of seed 003),
 *    and sleeps until each of its requests has a request slot, holding
 *    no lock; a writer above the dirty limit sleeps meanwhile (or, with
 *    --dirty-throttle writeback, writes its own file back);
 *  - node blocks are dirty pages too, the node inode's: it takes its
 *    turn on the flusher's list, which asks for a checkpoint once enough
 *    are dirty; nothing else writes nodes back before a checkpoint.
 * The emulated threads (thread.c) and the run (engine.c) call in here;
 * nothing here calls them.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "f2fs/bitops.h"
#include "f2fs/clock.h"
#include "f2fs/fs.h"
#include "f2fs/replay.h"
#include "f2fs/sched.h"
#include "f2fs/write.h"
#include "replay_internal.h"

#define SERIAL_CHUNK  128u  /* pages per turn for a serialised writer: one 512 KiB bio */
#define FLUSHER_PAGES 1024u /* the flusher's turn on one inode (MAX_WRITEBACK_PAGES) */
/*
 * Dirty nodes at which the node inode's write-back checkpoints
 * (f2fs_balance_fs_bg: excess_dirty_threshold, 2 x DEFAULT_DIRTY_THRESHOLD
 * segments of 512 blocks)
 */
#define BG_CP_NODES (2u * 4u * 512u)

uint32_t rp_raised_weight(const struct f2fs_replay_policy *p, uint32_t weight)
{
	uint32_t w = p->low_latency ? weight * RP_WR_COEFF : weight;

	return w > RP_SCHED_WEIGHT_MAX ? RP_SCHED_WEIGHT_MAX : w;
}

/* ---- FIFO locks: the big lock, cp_global_sem ---- */

static void fifo_init(struct rp_fifo_lock *l)
{
	pthread_mutex_init(&l->mutex, NULL);
	pthread_cond_init(&l->cond, NULL);
	l->next = l->serving = 0;
}

static void fifo_destroy(struct rp_fifo_lock *l)
{
	pthread_mutex_destroy(&l->mutex);
	pthread_cond_destroy(&l->cond);
}

static void fifo_take(struct rp_fifo_lock *l)
{
	uint64_t ticket;

	pthread_mutex_lock(&l->mutex);
	ticket = l->next++;
	while (l->serving != ticket)
		pthread_cond_wait(&l->cond, &l->mutex);
	pthread_mutex_unlock(&l->mutex);
}

static void fifo_give(struct rp_fifo_lock *l)
{
	pthread_mutex_lock(&l->mutex);
	l->serving++;
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->mutex);
}

/*
 * ---- cp_global_sem (under gc_lock): a writer rwsem ----
 *
 * Its release wakes the writers waiting for it, which run a wake-up
 * latency later (--ckpt-wakeup-us), while the releaser goes back to user
 * space at once: the releaser's next touch may land before the waiter's
 * checkpoint blocks operations and is then covered by it (a 6.1 guest's
 * trace of ckpt-storm without merge: a fifth of the fsyncs needed no
 * checkpoint of their own).  Until a woken waiter runs, a thread that comes
 * for it takes it (6.1's down_write spins for a free rwsem and takes it
 * past the waiters, rwsem_try_write_lock_unqueued); the waiter, or the
 * second of two woken ones, finds it taken and sets the handoff bit
 * (RWSEM_FLAG_HANDOFF): nobody takes it past the waiter then, and the next
 * release is its own at once.  So an fsync may wait for three checkpoints:
 * the one running, a stolen one, its own.
 */
static uint64_t wake_latency_us(struct rp_engine *e);

static void sem_init(struct rp_cp_sem *l)
{
	pthread_mutex_init(&l->mutex, NULL);
	pthread_cond_init(&l->cond, NULL);
	l->held = l->handoff = false;
	l->ready_ns = 0;
}

static void sem_destroy(struct rp_cp_sem *l)
{
	pthread_mutex_destroy(&l->mutex);
	pthread_cond_destroy(&l->cond);
}

/* Whether the caller must wait: the semaphore is held, or handed off to another waiter. */
static bool sem_busy(const struct rp_cp_sem *l, bool mine)
{
	return l->held || (l->handoff && !mine);
}

static void sem_take(struct rp_engine *e, struct rp_cp_sem *l)
{
	bool mine = false; /* this caller set the handoff */
	uint64_t until;

	pthread_mutex_lock(&l->mutex);
	while (sem_busy(l, mine)) {
		pthread_cond_wait(&l->cond, &l->mutex);
		if (sem_busy(l, mine))
			continue;
		/* woken by the release: running only after the wake-up latency */
		until = l->ready_ns;
		pthread_mutex_unlock(&l->mutex);
		rp_sleep(e, until);
		pthread_mutex_lock(&l->mutex);
		if (l->held && !l->handoff)
			l->handoff = mine = true;
	}
	l->held = true;
	if (mine)
		l->handoff = false;
	pthread_mutex_unlock(&l->mutex);
}

static void sem_give(struct rp_engine *e, struct rp_cp_sem *l)
{
	uint64_t us;

	pthread_mutex_lock(&e->cp_mutex);
	us = wake_latency_us(e);
	pthread_mutex_unlock(&e->cp_mutex);
	pthread_mutex_lock(&l->mutex);
	l->held = false;
	l->ready_ns = rp_time(e) + (l->handoff ? 0 : us * 1000u);
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->mutex);
}

/* ---- cp_rwsem: FIFO, as the kernel's rwsem hands over in queue order ---- */

void rp_lock_op(struct rp_engine *e)
{
	uint64_t ticket;

	pthread_mutex_lock(&e->cp_mutex_rw);
	ticket = e->cp_next++;
	while (ticket != e->cp_serving || e->cp_writer)
		pthread_cond_wait(&e->cp_cond_rw, &e->cp_mutex_rw);
	e->cp_readers++;
	e->cp_serving++;
	pthread_cond_broadcast(&e->cp_cond_rw);
	pthread_mutex_unlock(&e->cp_mutex_rw);
}

void rp_unlock_op(struct rp_engine *e)
{
	pthread_mutex_lock(&e->cp_mutex_rw);
	if (!--e->cp_readers)
		pthread_cond_broadcast(&e->cp_cond_rw);
	pthread_mutex_unlock(&e->cp_mutex_rw);
}

/* block_operations(): wait for the operations ahead, then keep every later one out. */
static void lock_all(struct rp_engine *e)
{
	uint64_t ticket;

	pthread_mutex_lock(&e->cp_mutex_rw);
	ticket = e->cp_next++;
	while (ticket != e->cp_serving || e->cp_writer || e->cp_readers)
		pthread_cond_wait(&e->cp_cond_rw, &e->cp_mutex_rw);
	e->cp_writer = true;
	e->cp_serving++;
	pthread_mutex_unlock(&e->cp_mutex_rw);
}

static void unlock_all(struct rp_engine *e)
{
	pthread_mutex_lock(&e->cp_mutex_rw);
	e->cp_writer = false;
	pthread_cond_broadcast(&e->cp_cond_rw);
	pthread_mutex_unlock(&e->cp_mutex_rw);
}

/* ---- CPU slots (--threads-cpu) ---- */

static void cpu_take(struct rp_engine *e)
{
	if (!e->pol->threads_cpu)
		return;
	pthread_mutex_lock(&e->cpu_mutex);
	while (e->cpu_busy >= e->pol->threads_cpu)
		pthread_cond_wait(&e->cpu_cond, &e->cpu_mutex);
	e->cpu_busy++;
	pthread_mutex_unlock(&e->cpu_mutex);
}

static void cpu_give(struct rp_engine *e)
{
	if (!e->pol->threads_cpu)
		return;
	pthread_mutex_lock(&e->cpu_mutex);
	e->cpu_busy--;
	pthread_cond_signal(&e->cpu_cond);
	pthread_mutex_unlock(&e->cpu_mutex);
}

/* A latency drawn from @rng between @min and @max microseconds. */
static uint64_t draw_us(uint64_t *rng, uint32_t min, uint32_t max)
{
	if (max <= min)
		return min;
	*rng = f2fs_mix64(*rng);
	return min + *rng % (max - min + 1u);
}

void rp_spend_cpu(struct rp_engine *e, uint64_t *rng)
{
	uint64_t us = draw_us(rng, e->pol->op_cpu_us, e->pol->op_cpu_max_us);

	if (!us)
		return;
	cpu_take(e);
	rp_sleep(e, rp_time(e) + us * 1000u);
	cpu_give(e);
}

/*
 * Enter the write path as context @ctx; leave sends what the call queued.
 * The checkpoint thread takes no CPU slot: it is running once it has
 * woken (its wake-up latency stands for the wait for a CPU).
 */
void rp_enter(struct rp_engine *e, int ctx)
{
	bool cpu = ctx != e->ckpt_ctx;

	/* a thread whose queue is full waits here, not holding the lock */
	rp_sched_throttle(e->sched, ctx);
	if (cpu)
		cpu_take(e);
	fifo_take(&e->big);
	e->big_holds_cpu = cpu;
	rp_sched_set_current(e->sched, ctx);
}

int rp_leave(struct rp_engine *e, int ret)
{
	int sret = f2fs_write_submit(e->fs);
	bool cpu = e->big_holds_cpu;

	fifo_give(&e->big);
	if (cpu)
		cpu_give(e);
	return ret ? ret : sret;
}

void rp_abort(struct rp_engine *e, int ret, const char *what)
{
	pthread_mutex_lock(&e->state_mutex);
	if (!e->fatal) {
		e->fatal = ret;
		snprintf(e->why, sizeof(e->why), "%s: %s", what,
			 ret == -ENOSPC ? "the volume is full" : strerror(-ret));
	}
	e->stopping = true;
	pthread_mutex_unlock(&e->state_mutex);
}

bool rp_stopping(struct rp_engine *e)
{
	bool s;

	pthread_mutex_lock(&e->state_mutex);
	s = e->stopping;
	pthread_mutex_unlock(&e->state_mutex);
	return s;
}

/* ---- dirty inodes, for the flusher (under the big lock) ---- */

static bool has_dirty(uint32_t ino, void *arg)
{
	struct rp_engine *e = arg;

	if (ino == e->node_ino)
		return f2fs_dirty_nodes(e->fs) != 0;
	return f2fs_dirty_pages(e->fs, ino) != 0;
}

/* The page cache's dirty bytes (NR_FILE_DIRTY): file pages and node pages. */
static uint64_t dirty_bytes_locked(struct rp_engine *e)
{
	return (f2fs_dirty_pages(e->fs, 0) + f2fs_dirty_nodes(e->fs)) * e->blksize;
}

/*
 * The node inode's turn of write-back (f2fs_write_node_pages): from the
 * flusher, f2fs_balance_fs_bg first, which asks for a checkpoint once
 * BG_CP_NODES nodes are dirty; below that (nr_pages_to_skip, the same
 * count) it writes nothing and the inode goes to the back of the list
 * (redirty_tail), *@skipped.  Not modelled: above the dirty limit
 * (dirty_exceeded) nr_pages_to_skip is 0 and the kernel writes the nodes
 * there without a checkpoint.  For sync's write-back it leaves the nodes
 * to the checkpoint that follows.  So an operation never writes nodes
 * itself (the library's own bound is lifted for the engine, open_volume).
 */
static int node_writeback(struct rp_engine *e, int ctx, enum f2fs_wb_mode mode, bool *skipped)
{
	bool cp;

	rp_enter(e, ctx);
	cp = mode == F2FS_WB_NONE && f2fs_dirty_nodes(e->fs) >= BG_CP_NODES;
	*skipped = mode == F2FS_WB_NONE && !cp;
	if (*skipped)
		rp_dirty_requeue(&e->dirty, e->node_ino, rp_time(e));
	else
		rp_dirty_forget(&e->dirty, e->node_ino);
	rp_leave(e, 0);
	return cp ? rp_request_checkpoint(e, ctx) : 0;
}

/* ---- write-back ---- */

/*
 * Write back up to @budget pages of @ino (UINT64_MAX: all) as context
 * @ctx: under the writepages mutex in turns of one bio when the kernel
 * would serialise it (background write-back: its whole budget in one
 * turn), else @wb_chunk_pages per turn of the big lock.
 *
 * Each turn takes cp_rwsem shared, in the lock's FIFO order.  The
 * kernel's background write-back instead tries the lock per page and
 * leaves the page dirty when a checkpoint holds or waits for it.  Taken
 * literally here, that starved write-back with and without checkpoint
 * merge alike, since the engine's threads hand the lock over in
 * microseconds.  The engine gets a merged run's fast checkpoints from
 * BFQ idling instead: the checkpoint thread's queue keeps the device
 * between its back-to-back checkpoints (the scheduler's slice_idle).
 */
int rp_writeback(struct rp_engine *e, int ctx, uint32_t ino, enum f2fs_wb_mode mode,
		 uint64_t budget)
{
	uint64_t left = 1, done = 0, turn;
	struct f2fs_inode_attr a;
	bool serial, dentries, gone, locked;
	int ret;

	if (ino == e->node_ino) {
		bool skipped; /* the flusher's turns on it are its own (flusher_main) */

		return node_writeback(e, ctx, mode, &skipped);
	}
	rp_enter(e, ctx);
	serial = e->pol->serialize_writepages &&
		 f2fs_writepages_serialized(e->fs, ino, mode, e->pol->min_seq_blocks);
	ret = f2fs_getattr(e->fs, ino, &a);
	/*
	 * picked before another thread unlinked it: its pages went with it
	 * (the kernel truncates them at eviction), nothing to write back
	 */
	gone = ret == -ENOENT && !f2fs_dirty_pages(e->fs, ino);
	ret = rp_leave(e, gone ? 0 : ret);
	if (ret || gone)
		return ret;
	/*
	 * f2fs_write_single_data_page(): a directory's pages are written
	 * without f2fs_lock_op (LOCK_DONE, the checkpoint orders them), so a
	 * directory fsync is not held up by a running checkpoint
	 */
	dentries = S_ISDIR(a.mode);
	turn = serial ? SERIAL_CHUNK : (e->pol->wb_chunk_pages ? e->pol->wb_chunk_pages : 1);
	/*
	 * Background write-back gives its whole turn blocks in one gap
	 * between checkpoints (its per-page locking takes microseconds) and
	 * submits the bio after the pages
	 */
	if (serial && mode == F2FS_WB_NONE && budget != UINT64_MAX)
		turn = budget;
	if (serial)
		pthread_mutex_lock(&e->wp_mutex);
	for (ret = 0; !ret && left && done < budget;) {
		uint64_t n = budget - done < turn ? budget - done : turn;

		/*
		 * f2fs_do_write_data_page: write-back waits out a checkpoint
		 * (f2fs_lock_op); the requests queue for their slots without
		 * the lock (traced in 6.1, ckpt-storm: the write-back's tag
		 * sleeps come after f2fs_unlock_op, and block_operations took
		 * 1.8 ms in the median with a sleep under way or without).
		 * Pages rewritten in place need no f2fs_lock_op
		 * (its IPU path): decided and written in one turn of the big
		 * lock, so no page can go out of place during a checkpoint.
		 */
		locked = !dentries && !e->in_place;
		if (locked)
			rp_lock_op(e);
		rp_enter(e, ctx);
		if (!dentries && e->in_place &&
		    !f2fs_writeback_in_place(e->fs, ino, n, mode == F2FS_WB_NONE)) {
			rp_leave(e, 0);
			rp_lock_op(e);
			locked = true;
			rp_enter(e, ctx);
		}
		ret = f2fs_writepages_some(e->fs, ino, mode, n, &left);
		/* clean now: dirtied again, it starts a new expire period */
		if (!ret && !left)
			rp_dirty_forget(&e->dirty, ino);
		ret = rp_leave(e, ret);
		if (locked)
			rp_unlock_op(e);
		done += n;
	}
	if (serial)
		pthread_mutex_unlock(&e->wp_mutex);
	return ret;
}

/* Write back every dirty file (sync(2)'s first half), oldest first, as @ctx. */
int rp_writeback_all(struct rp_engine *e, int ctx)
{
	int ret = 0;

	for (;;) {
		uint32_t ino = 0;

		rp_enter(e, ctx);
		if (!rp_dirty_first(&e->dirty, has_dirty, e, &ino))
			ino = 0;
		rp_leave(e, 0);
		if (!ino || ret)
			return ret;
		ret = rp_writeback(e, ctx, ino, F2FS_WB_ALL, UINT64_MAX);
	}
}

/* The next inode the flusher writes: expired first, then (above the background level) any. */
static bool flusher_pick(struct rp_engine *e, uint64_t now, uint32_t *ino, int *cls)
{
	struct rp_dirty_pick pk = {
	    .now = now,
	    .expire_ns = (uint64_t)e->pol->dirty_expire_ms * 1000000ull,
	    .background = dirty_bytes_locked(e) > e->pol->dirty_background,
	    .round_robin = e->pol->writeback == F2FS_RP_WB_FIFO,
	    .has_dirty = has_dirty,
	    .arg = e,
	};

	return rp_dirty_pick(&e->dirty, &pk, ino, cls);
}

static void *flusher_main(void *arg)
{
	struct rp_engine *e = arg;

	pthread_mutex_lock(&e->wb_mutex);
	while (!e->wb_stop) {
		uint32_t ino = 0;
		int cls = 0, ret;
		bool skipped = false;
		uint64_t wake = rp_time(e) + (uint64_t)e->pol->dirty_writeback_ms * 1000000ull;

		if (!e->wb_kick)
			rp_clock_timedwait(e->pol->clock, &e->wb_cond, &e->wb_mutex, wake);
		e->wb_kick = false;
		pthread_mutex_unlock(&e->wb_mutex);
		for (;;) {
			rp_enter(e, e->flush_ctx[0]);
			ino = 0;
			if (!flusher_pick(e, rp_time(e), &ino, &cls))
				ino = 0;
			rp_leave(e, 0);
			/* the node inode again, nothing written since: the pass ends */
			if (!ino || rp_stopping(e) || (ino == e->node_ino && skipped))
				break;
			if (ino == e->node_ino) {
				ret = node_writeback(e, e->flush_ctx[cls], F2FS_WB_NONE, &skipped);
			} else {
				ret = rp_writeback(e, e->flush_ctx[cls], ino, F2FS_WB_NONE,
						   FLUSHER_PAGES);
				skipped = false;
			}
			/*
			 * the kernel's flusher submits its bio after the pages,
			 * holding no lock, and sleeps until each request of it
			 * has a slot
			 */
			if (!ret)
				ret = rp_sched_wait_slots(e->sched, e->flush_ctx[cls]);
			pthread_mutex_lock(&e->wb_mutex);
			pthread_cond_broadcast(&e->wb_progress);
			pthread_mutex_unlock(&e->wb_mutex);
			if (ret) {
				rp_abort(e, ret, "write-back");
				break;
			}
		}
		pthread_mutex_lock(&e->wb_mutex);
	}
	pthread_mutex_unlock(&e->wb_mutex);
	return NULL;
}

static void kick_flusher(struct rp_engine *e)
{
	pthread_mutex_lock(&e->wb_mutex);
	e->wb_kick = true;
	pthread_cond_signal(&e->wb_cond);
	pthread_mutex_unlock(&e->wb_mutex);
}

static uint64_t dirty_bytes(struct rp_engine *e, int ctx)
{
	uint64_t dirty;

	rp_enter(e, ctx);
	dirty = dirty_bytes_locked(e);
	rp_leave(e, 0);
	return dirty;
}

/* Wait for the flusher's next turn, or 10 ms. */
static void wait_flusher_turn(struct rp_engine *e)
{
	uint64_t until = rp_time(e) + 10000000ull;

	pthread_mutex_lock(&e->wb_mutex);
	rp_clock_timedwait(e->pol->clock, &e->wb_progress, &e->wb_mutex, until);
	pthread_mutex_unlock(&e->wb_mutex);
}

/*
 * After a write (balance_dirty_pages()): above the background level wake
 * the flusher; above the limit the writer sleeps while the flusher writes
 * back (since 3.2 writers never write back themselves, so their pages go
 * out as the flusher's I/O), or with --dirty-throttle writeback writes its
 * own file back, one writepages caller per writer.
 */
int rp_balance_dirty(struct rp_engine *e, int ctx, uint32_t ino, enum f2fs_replay_class cls)
{
	uint64_t dirty;
	int ret;

	rp_enter(e, ctx);
	ret = rp_dirty_note(&e->dirty, ino, rp_time(e), cls);
	/* its nodes went dirty with it: the node inode is on the list too */
	if (!ret && f2fs_dirty_nodes(e->fs))
		ret = rp_dirty_note(&e->dirty, e->node_ino, rp_time(e), cls);
	dirty = dirty_bytes_locked(e);
	rp_leave(e, 0);
	if (ret)
		return ret;
	if (dirty > e->pol->dirty_background)
		kick_flusher(e);
	if (dirty > e->pol->dirty_limit && e->pol->dirty_throttle == F2FS_RP_THROTTLE_WRITEBACK)
		return rp_writeback(e, ctx, ino, F2FS_WB_NONE, UINT64_MAX);
	while (dirty > e->pol->dirty_limit && !rp_stopping(e)) {
		kick_flusher(e);
		wait_flusher_turn(e);
		dirty = dirty_bytes(e, ctx);
	}
	return 0;
}

/* ---- checkpoints ---- */

/*
 * f2fs_wait_on_all_pages() before the commit (f2fs_set_commit_wait): the
 * checkpoint's caller sleeps until its pack's body is written, holding
 * cp_rwsem (lock_all) but not the big lock, so that write-back needing no
 * f2fs_lock_op -- rewrites in place -- goes on meanwhile, as the kernel's
 * flusher's does, and queues ahead of the commit block.
 */
static int commit_wait(void *arg)
{
	struct rp_engine *e = arg;
	int ctx = e->cp_ctx, ret;

	if (ctx < 0) /* not one of rp_write_checkpoint's: the caller holds what it holds */
		return 0;
	rp_leave(e, 0);
	ret = rp_sched_wait(e->sched, ctx);
	rp_enter(e, ctx);
	return ret;
}

void rp_checkpoint_setup(struct rp_engine *e)
{
	e->in_place = f2fs_kernel_forces_ipu(e->fs);
	f2fs_set_in_place_updates(e->fs, e->in_place);
	f2fs_set_commit_wait(e->fs, commit_wait, e);
}

/*
 * Write a checkpoint as @ctx: operations are blocked (cp_rwsem held for
 * writing) from before it starts until its I/O is complete, as in
 * f2fs_write_checkpoint (block_operations .. unblock_operations); the big
 * lock only while the write path builds and queues it.
 */
int rp_write_checkpoint(struct rp_engine *e, int ctx, unsigned int reason, bool *issued)
{
	struct f2fs_cp_request req = {.reason = reason, .keep_data = true};
	int ret = 0;

	/*
	 * f2fs_write_checkpoint: cp_global_sem first, so the next checkpoint
	 * waits there, not on cp_rwsem, and operations queued on cp_rwsem go
	 * in between two checkpoints; a waiter runs a wake-up latency after
	 * the release (above)
	 */
	sem_take(e, &e->cp_global);
	lock_all(e);
	rp_enter(e, ctx);
	e->cp_ctx = ctx;
	*issued = f2fs_write_dirty(e->fs) || (reason & F2FS_CP_UMOUNT);
	if (*issued)
		ret = f2fs_checkpoint(e->fs, &req);
	e->cp_ctx = -1;
	ret = rp_leave(e, ret);
	if (*issued && !ret)
		ret = rp_sched_wait(e->sched, ctx);
	unlock_all(e);
	sem_give(e, &e->cp_global);
	return ret;
}

static void cp_note_wait(struct rp_engine *e, uint64_t waited_ns)
{
	double ms = (double)waited_ns / 1e6;

	pthread_mutex_lock(&e->state_mutex);
	e->cp_wait_total_ms += ms;
	if (ms > e->cp_wait_peak_ms)
		e->cp_wait_peak_ms = ms;
	pthread_mutex_unlock(&e->state_mutex);
}

void rp_note_run_start(struct rp_engine *e, uint64_t t0)
{
	pthread_mutex_lock(&e->state_mutex);
	e->run_t0 = t0;
	pthread_mutex_unlock(&e->state_mutex);
}

/* Under the state mutex: an issued checkpoint's time, for the plot (dropped without memory). */
static void cp_note_time(struct rp_engine *e)
{
	if (!e->run_t0)
		return;
	if (e->ncp_times == e->cp_times_cap) {
		size_t cap = e->cp_times_cap ? e->cp_times_cap * 2 : 256;
		double *n = realloc(e->cp_times_s, cap * sizeof(*n));

		if (!n)
			return;
		e->cp_times_s = n;
		e->cp_times_cap = cap;
	}
	e->cp_times_s[e->ncp_times++] = (double)(rp_time(e) - e->run_t0) / 1e9;
}

/* One checkpoint (or none, on a clean volume) served @n requests. */
static void cp_note_batch(struct rp_engine *e, bool issued, uint64_t n)
{
	pthread_mutex_lock(&e->state_mutex);
	if (issued) {
		cp_note_time(e);
		e->cp_issued++;
	} else {
		e->cp_skipped++;
	}
	e->cp_served += n;
	pthread_mutex_unlock(&e->state_mutex);
}

/* A task woken on another CPU runs this much later (--ckpt-wakeup-us); under cp_mutex. */
static uint64_t wake_latency_us(struct rp_engine *e)
{
	return draw_us(&e->wake_rng, e->pol->ckpt_wakeup_us, e->pol->ckpt_wakeup_max_us);
}

/*
 * issue_checkpoint_thread() sleeps in wait_event_interruptible() when its
 * list is empty and f2fs_issue_checkpoint() wakes it; on busy CPUs it runs
 * some time later, and llist_del_all() in __checkpoint_and_complete_reqs()
 * then takes every request queued meanwhile.  Called with cp_mutex held.
 * This is how the kernel's merges come about with two callers: both leave
 * one checkpoint together and both queue again before the next batch is
 * taken (seen in a 6.1 guest's trace, 0.5-1 ms after the wake-up).  The
 * latency is drawn between --ckpt-wakeup-us MIN and MAX each time.
 */
static void wake_late(struct rp_engine *e)
{
	uint64_t us = wake_latency_us(e), until;

	if (!us)
		return;
	until = rp_time(e) + us * 1000u;
	pthread_mutex_unlock(&e->cp_mutex);
	rp_sleep(e, until);
	pthread_mutex_lock(&e->cp_mutex);
}

static void *ckpt_main(void *arg)
{
	struct rp_engine *e = arg;
	/*
	 * The kernel's thread starts asleep on its empty list: a request that
	 * comes before this one first gets the lock wakes it like any other
	 */
	bool slept = true;

	pthread_mutex_lock(&e->cp_mutex);
	for (;;) {
		struct rp_cp_req *batch, *r;
		uint64_t n = 0, now;
		bool issued = false;
		int ret;

		while (!e->cp_queue && !e->cp_stop) {
			pthread_cond_wait(&e->cp_cond, &e->cp_mutex);
			slept = true;
		}
		if (!e->cp_queue)
			break;
		if (slept)
			wake_late(e);
		slept = false;
		batch = e->cp_queue;
		e->cp_queue = NULL;
		pthread_mutex_unlock(&e->cp_mutex);
		ret = rp_write_checkpoint(e, e->ckpt_ctx, F2FS_CP_SYNC, &issued);
		now = rp_time(e);
		pthread_mutex_lock(&e->cp_mutex);
		for (r = batch; r; r = r->next, n++)
			cp_note_wait(e, now - r->queued_ns);
		cp_note_batch(e, issued, n);
		/*
		 * __checkpoint_and_complete_reqs() completes the requests in
		 * the order they came.  The first caller runs at once on the
		 * CPU the checkpoint thread gives up; each other one is woken
		 * on another CPU, a wake-up latency later.  This is what parts
		 * two callers one checkpoint served (a 6.1 guest merges few of
		 * their requests): the late one misses the next batch.  The
		 * batch is newest first: the last request in it came first.
		 */
		for (r = batch; r; r = r->next) {
			r->ret = ret;
			r->resume_ns = now + (r->next ? wake_latency_us(e) * 1000u : 0);
			r->done = true;
		}
		pthread_cond_broadcast(&e->cp_done);
	}
	pthread_mutex_unlock(&e->cp_mutex);
	return NULL;
}

/* f2fs_sync_fs() from an fsync or sync: merged, or written in the caller's context. */
int rp_request_checkpoint(struct rp_engine *e, int ctx)
{
	uint64_t t0 = rp_time(e);
	struct rp_cp_req req = {.queued_ns = t0};
	bool issued = false;
	int ret;

	pthread_mutex_lock(&e->state_mutex);
	e->cp_requested++;
	pthread_mutex_unlock(&e->state_mutex);
	if (!e->pol->checkpoint_merge) {
		ret = rp_write_checkpoint(e, ctx, F2FS_CP_SYNC, &issued);
		cp_note_wait(e, rp_time(e) - t0);
		cp_note_batch(e, issued, 1);
		return ret;
	}
	pthread_mutex_lock(&e->cp_mutex);
	req.next = e->cp_queue;
	e->cp_queue = &req;
	pthread_cond_signal(&e->cp_cond);
	while (!req.done)
		pthread_cond_wait(&e->cp_done, &e->cp_mutex);
	pthread_mutex_unlock(&e->cp_mutex);
	rp_sleep(e, req.resume_ns);
	return req.ret;
}

/* ---- the kernel's state, and its threads: the flusher, and the checkpoint thread ---- */

void rp_kernel_init(struct rp_engine *e)
{
	fifo_init(&e->big);
	pthread_mutex_init(&e->wp_mutex, NULL);
	sem_init(&e->cp_global);
	pthread_mutex_init(&e->cp_mutex_rw, NULL);
	pthread_cond_init(&e->cp_cond_rw, NULL);
	pthread_mutex_init(&e->state_mutex, NULL);
	pthread_mutex_init(&e->cpu_mutex, NULL);
	pthread_cond_init(&e->cpu_cond, NULL);
	pthread_mutex_init(&e->cp_mutex, NULL);
	pthread_cond_init(&e->cp_cond, NULL);
	pthread_cond_init(&e->cp_done, NULL);
	e->wake_rng = e->pol->seed;
	pthread_mutex_init(&e->wb_mutex, NULL);
	rp_cond_init_monotonic(&e->wb_cond);
	rp_cond_init_monotonic(&e->wb_progress);
}

void rp_kernel_destroy(struct rp_engine *e)
{
	fifo_destroy(&e->big);
	pthread_mutex_destroy(&e->wp_mutex);
	sem_destroy(&e->cp_global);
	pthread_mutex_destroy(&e->cp_mutex_rw);
	pthread_cond_destroy(&e->cp_cond_rw);
	pthread_mutex_destroy(&e->state_mutex);
	pthread_mutex_destroy(&e->cpu_mutex);
	pthread_cond_destroy(&e->cpu_cond);
	pthread_mutex_destroy(&e->cp_mutex);
	pthread_cond_destroy(&e->cp_cond);
	pthread_cond_destroy(&e->cp_done);
	pthread_mutex_destroy(&e->wb_mutex);
	pthread_cond_destroy(&e->wb_cond);
	pthread_cond_destroy(&e->wb_progress);
}

int rp_kernel_start(struct rp_engine *e)
{
	if (pthread_create(&e->flusher, NULL, flusher_main, e))
		return -EAGAIN;
	e->flusher_started = true;
	if (e->pol->checkpoint_merge) {
		if (pthread_create(&e->ckpt_thread, NULL, ckpt_main, e))
			return -EAGAIN;
		e->ckpt_started = true;
	}
	return 0;
}

void rp_kernel_stop(struct rp_engine *e)
{
	if (e->ckpt_started) {
		pthread_mutex_lock(&e->cp_mutex);
		e->cp_stop = true;
		pthread_cond_signal(&e->cp_cond);
		pthread_mutex_unlock(&e->cp_mutex);
		pthread_join(e->ckpt_thread, NULL);
		e->ckpt_started = false;
	}
	if (e->flusher_started) {
		pthread_mutex_lock(&e->wb_mutex);
		e->wb_stop = true;
		pthread_cond_signal(&e->wb_cond);
		pthread_mutex_unlock(&e->wb_mutex);
		pthread_join(e->flusher, NULL);
		e->flusher_started = false;
	}
}
