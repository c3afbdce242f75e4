/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay engine's state, shared by its parts, which call each other
 * downwards only: engine.c (the run: setup, report) -> thread.c (emulated
 * threads and their ops) -> kernel.c (the kernel around the write path:
 * locks, write-back and the flusher, checkpoints and the checkpoint
 * thread) -> dirty.c (the flusher's list of dirty inodes); files.c and
 * content.c (the files a run wrote: extents, the read pass, the content
 * check) serve all of them.
 */
#ifndef F2FS_REPLAY_INTERNAL_H
#define F2FS_REPLAY_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "f2fs/replay.h"
#include "f2fs/write.h"
#include "f2fs/clock.h"

/* A lock handed over in arrival order (a ticket lock): waiting threads take turns. */
struct rp_fifo_lock {
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint64_t next, serving;
};

/* cp_global_sem: a waiter runs a wake-up latency after the release (kernel.c). */
struct rp_cp_sem {
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	bool held, handoff;
	uint64_t ready_ns; /* when the waiters woken by the last release run */
};

/* The scheduler's classes of the checkpoint thread and the flusher, after the workload's. */
#define RP_CLASS_CKPT  F2FS_RP_CLASSES
#define RP_CLASS_FLUSH (F2FS_RP_CLASSES + 1)

struct rp_sched;

/* An inode with dirty pages, for the flusher (dirty.c). */
struct rp_dirty {
	struct rp_dirty *next, *prev; /* in the order the flusher takes them */
	struct rp_dirty *hnext;	      /* in its index bucket */
	uint32_t ino;
	uint64_t dirtied_ns; /* when it went from clean to dirty */
	int io_class;	     /* of the thread that dirtied it last: whose fsyncs wait for it */
};

struct rp_dirty_list {
	struct rp_dirty *head, *tail;
	struct rp_dirty **buckets;
	size_t count;
};

/* What the flusher may take now (rp_dirty_pick). */
struct rp_dirty_pick {
	uint64_t now, expire_ns;
	bool background;  /* above the background level: any inode */
	bool round_robin; /* FIFO write-back: a taken inode goes to the back */
	bool (*has_dirty)(uint32_t ino, void *arg); /* an inode that has none leaves the list */
	void *arg;
};

/* A zeroed list is empty; rp_dirty_free empties it again. */
void rp_dirty_free(struct rp_dirty_list *l);
/* @ino got dirty pages at @now from a thread of @io_class (a listed inode keeps its time). */
int rp_dirty_note(struct rp_dirty_list *l, uint32_t ino, uint64_t now, int io_class);
/* @ino is clean: off the list. */
void rp_dirty_forget(struct rp_dirty_list *l, uint32_t ino);
/* @ino to the back of the list, as dirtied @now (redirty_tail); noted already. */
void rp_dirty_requeue(struct rp_dirty_list *l, uint32_t ino, uint64_t now);
/* The inode the flusher writes next, if any is eligible. */
bool rp_dirty_pick(struct rp_dirty_list *l, const struct rp_dirty_pick *pk, uint32_t *ino,
		   int *io_class);
/* The first listed inode that has dirty pages (sync(2)'s order). */
bool rp_dirty_first(struct rp_dirty_list *l, bool (*has_dirty)(uint32_t ino, void *arg), void *arg,
		    uint32_t *ino);

/* A checkpoint request waiting for the checkpoint thread. */
struct rp_cp_req {
	struct rp_cp_req *next;
	uint64_t queued_ns;
	uint64_t resume_ns; /* when its caller runs again */
	bool done;
	int ret;
};

/* A file the run wrote, for the report and the content check. */
struct rp_file {
	char *path;	  /* its path now (renames followed) */
	char *key;	  /* the path its content was written under */
	uint32_t ino;	  /* after the run */
	uint64_t covered; /* [0, covered) was written in one piece of writes */
	bool mixed;	  /* truncated, or renamed over: content not checkable */
	int reader;	  /* the workload thread that wrote it last */
};

struct rp_engine {
	const struct f2fs_replay_workload *wl;
	const struct f2fs_replay_policy *pol;
	struct rp_sched *sched;
	struct f2fs_device *sdev; /* the scheduler stacked on the caller's device */
	struct f2fs_fs *fs;
	uint32_t blksize;  /* the volume's: a dirty page's bytes, a block read back */
	uint32_t node_ino; /* the node inode: its dirty pages are the dirty node blocks */
	bool in_place;	   /* the kernel would rewrite file blocks in place on this volume */
	struct f2fs_write_stats base_stats;

	struct rp_fifo_lock big; /* the big lock */

	pthread_mutex_t wp_mutex;   /* sbi->writepages */
	struct rp_cp_sem cp_global; /* sbi->cp_global_sem: one checkpoint at a time */
	/* cp_rwsem: f2fs_lock_op (shared) against a checkpoint (exclusive), FIFO */
	pthread_mutex_t cp_mutex_rw;
	pthread_cond_t cp_cond_rw;
	uint64_t cp_next, cp_serving;
	uint32_t cp_readers;
	bool cp_writer;

	pthread_mutex_t cpu_mutex; /* --threads-cpu slots */
	pthread_cond_t cpu_cond;
	uint32_t cpu_busy;

	/* run state and counters */
	pthread_mutex_t state_mutex;
	bool stopping;
	int fatal;
	char why[256];
	uint64_t cp_requested, cp_issued, cp_skipped, cp_served;
	uint64_t run_t0;    /* when the threads started (0: not yet) */
	double *cp_times_s; /* when each checkpoint after that was issued */
	size_t ncp_times, cp_times_cap;
	double cp_wait_total_ms, cp_wait_peak_ms;

	/* checkpoint merge */
	pthread_mutex_t cp_mutex;
	pthread_cond_t cp_cond, cp_done;
	struct rp_cp_req *cp_queue;
	bool cp_stop, ckpt_started;
	pthread_t ckpt_thread;
	int ckpt_ctx;
	int cp_ctx;	    /* the context writing a checkpoint in rp_write_checkpoint, else -1 */
	bool big_holds_cpu; /* the big lock's holder took a CPU slot */
	uint64_t wake_rng;  /* wake-up latencies, of the thread and its callers (under cp_mutex) */

	/* write-back (dirty list under the big lock) */
	struct rp_dirty_list dirty;
	pthread_mutex_t wb_mutex;
	pthread_cond_t wb_cond;
	pthread_cond_t wb_progress; /* the flusher wrote a turn: throttled writers look again */
	bool wb_kick, wb_stop, flusher_started;
	pthread_t flusher;
	int flush_ctx[F2FS_RP_CLASSES]; /* all in RP_CLASS_FLUSH; one per dirtier's class for
					   fsync's wait */

	/* files written (under the big lock) */
	struct rp_file *files;
	size_t nfiles, files_cap;
	int *thread_ctx; /* scheduler context of each workload thread */
};

/*
 * The engine's time: the policy's clock, or the host's (clock.h).  Waits
 * and sleeps that the emulated kernel times go through it; the progress
 * ticks, which are for the user, do not.
 */
static inline uint64_t rp_time(const struct rp_engine *e)
{
	return rp_clock_now(e->pol->clock);
}

static inline void rp_sleep(const struct rp_engine *e, uint64_t until_ns)
{
	rp_clock_sleep_until(e->pol->clock, until_ns);
}

/* ---- kernel.c: the kernel around the write path ---- */

/* BFQ's weight-raising factor (bfq_wr_coeff) */
#define RP_WR_COEFF 30u

/* @weight as BFQ serves a queue it raises (low_latency), within the scheduler's range. */
uint32_t rp_raised_weight(const struct f2fs_replay_policy *p, uint32_t weight);

/*
 * f2fs_lock_op()/f2fs_unlock_op(): operations that allocate blocks or
 * change the namespace hold it shared; a checkpoint holds it exclusive
 * until its I/O is complete.  Always taken before the big lock.
 */
void rp_lock_op(struct rp_engine *e);
void rp_unlock_op(struct rp_engine *e);
/* The threads start now: checkpoints from here on are timed for the report. */
void rp_note_run_start(struct rp_engine *e, uint64_t t0);
void rp_enter(struct rp_engine *e, int ctx);
/* An operation's own CPU time (--op-cpu-us), drawn from the thread's @rng, on a CPU slot. */
void rp_spend_cpu(struct rp_engine *e, uint64_t *rng);
int rp_leave(struct rp_engine *e, int ret);
void rp_abort(struct rp_engine *e, int ret, const char *what);
bool rp_stopping(struct rp_engine *e);
int rp_writeback(struct rp_engine *e, int ctx, uint32_t ino, enum f2fs_wb_mode mode,
		 uint64_t budget);
int rp_writeback_all(struct rp_engine *e, int ctx);
int rp_balance_dirty(struct rp_engine *e, int ctx, uint32_t ino, enum f2fs_replay_class cls);
int rp_request_checkpoint(struct rp_engine *e, int ctx);
/* A checkpoint for @reason (F2FS_CP_*) by context @ctx; *issued: one was written. */
int rp_write_checkpoint(struct rp_engine *e, int ctx, unsigned int reason, bool *issued);
/* The kernel's ways on the volume: in-place updates as it would mount it, the wait before a commit.
 */
void rp_checkpoint_setup(struct rp_engine *e);
/* The model's locks and conditions (after e->pol is set), and after the run their end. */
void rp_kernel_init(struct rp_engine *e);
void rp_kernel_destroy(struct rp_engine *e);
/* The flusher, and the checkpoint thread with checkpoint_merge: started, then stopped. */
int rp_kernel_start(struct rp_engine *e);
void rp_kernel_stop(struct rp_engine *e);

/* thread.c */
int rp_run_threads(struct rp_engine *e, f2fs_replay_progress_fn progress, void *arg,
		   struct f2fs_replay_report *rep);
int rp_mkdir_p(struct rp_engine *e, int ctx, const char *path);
/* Create the regular file @path (its directory exists), or find it: *ino. */
int rp_create_file(struct rp_engine *e, int ctx, const char *path, uint32_t *ino);

/* files.c (rp_file_* under the big lock) */
int rp_file_written(struct rp_engine *e, const char *path, uint64_t off, uint64_t len, int thread);
void rp_file_truncated(struct rp_engine *e, const char *path);
int rp_file_renamed(struct rp_engine *e, const char *from, const char *to);
void rp_file_unlinked(struct rp_engine *e, const char *path);
int rp_files_report(struct rp_engine *e, struct f2fs_replay_report *rep);
int rp_read_pass_and_verify(struct rp_engine *e, struct f2fs_replay_report *rep);
void rp_files_free(struct rp_engine *e);

#endif
