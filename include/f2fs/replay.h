/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay engine: runs a workload (trace.h) against an F2FS volume
 * through the write path, with the kernel behaviour a policy describes
 * (checkpoint merge, serialised writepages, write-back order, the I/O
 * scheduler of sched.h), and reports what it did.
 */
#ifndef F2FS_REPLAY_H
#define F2FS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "f2fs/trace.h"

struct f2fs_device;
struct rp_clock;

/* ---- the engine ---- */

enum f2fs_replay_writeback {
	F2FS_RP_WB_EXPIRE, /* background write-back takes expired inodes first (seed 003) */
	F2FS_RP_WB_FIFO,   /* round robin over dirty inodes in the order they were dirtied */
};

/* What a writer above the dirty limit does (balance_dirty_pages()). */
enum f2fs_replay_throttle {
	F2FS_RP_THROTTLE_SLEEP,	    /* sleeps while the flusher writes back (kernels since 3.2) */
	F2FS_RP_THROTTLE_WRITEBACK, /* writes its own pages back: a writepages caller per writer */
};

struct rp_sched_record; /* f2fs/sched.h */

/* What the emulated kernel does; f2fs_replay_policy_default() gives the 6.x defaults. */
struct f2fs_replay_policy {
	bool checkpoint_merge;	   /* checkpoint_merge mount option */
	bool ckpt_realtime;	   /* the checkpoint thread's I/O class: RT (true) or BE */
	uint8_t ckpt_level;	   /* its I/O priority level, 0..7 (3) */
	bool serialize_writepages; /* the sbi->writepages mutex (__should_serialize_io) */
	uint32_t min_seq_blocks;   /* its threshold; 0: blocks per segment */
	uint32_t wb_chunk_pages;   /* pages written per turn by a writer not serialised (1) */
	int section_counts;	   /* enum f2fs_section_counts */
	enum f2fs_replay_writeback writeback;
	uint32_t dirty_expire_ms;    /* dirty_expire_interval (30000) */
	uint32_t dirty_writeback_ms; /* dirty_writeback_interval (5000) */
	uint64_t dirty_background;   /* bytes dirty before the flusher starts (64 MiB) */
	uint64_t dirty_limit;	     /* bytes dirty before writers are throttled (128 MiB) */
	enum f2fs_replay_throttle dirty_throttle;
	uint32_t weight[F2FS_RP_CLASSES]; /* I/O weights: fg 100, bg 20 */
	/*
	 * The flusher's weight (40). F2FS has no cgroup write-back, so
	 * write-back is the root group's async I/O whoever dirtied the pages:
	 * BFQ's best-effort level 4, its service charged three times
	 * (bfq_async_charge_factor).
	 */
	uint32_t flusher_weight;
	/*
	 * BFQ's low_latency weight raising (on by default): queues that issue
	 * small synchronous bursts -- the checkpoint thread, threads that
	 * fsync -- are served with their weight times 30 (bfq_wr_coeff).
	 */
	bool low_latency;
	double model_mbps, model_iops, model_flush_ms; /* device model; 0: the device's own speed */
	/*
	 * 0: the model is a device serving one request after another; > 0: a
	 * throttle in front of a fast device, whose byte and request budgets
	 * may each run this far ahead (qemu's drive throttling: 100)
	 */
	double model_burst_ms;
	/*
	 * A zoned device's zone reset (or finish) takes at least this long per
	 * zone (0: the device's own time): an SMR drive's takes milliseconds
	 */
	double model_zone_reset_ms;
	/*
	 * A head that moves (rp_sched_model; only with burst 0): seek times
	 * from a short seek to a full stroke (seek_full_us 0: no head), the
	 * spindle's rpm (0: no rotational wait), and the merge window of
	 * adjacent requests
	 */
	uint32_t seek_min_us, seek_full_us, rpm, merge_us;
	uint32_t device_queue; /* requests the device holds, served in order (1) */
	uint64_t max_request;  /* bytes: longer writes are split (max_sectors_kb, 512 KiB) */
	/*
	 * The block layer's request slots (nr_requests, 64): BFQ lets async
	 * write-back take half of them and sync writes three quarters
	 * (bfq_update_depths); a thread that finds none free sleeps.
	 */
	uint32_t nr_requests;
	/*
	 * BFQ's service budget: a queue picked keeps the device for this many
	 * bytes or 125 ms (bfq_timeout) unless a heavier one preempts it
	 * (8 MiB, bfq_default_max_budget; 0: request by request).
	 */
	uint64_t bfq_budget;
	/*
	 * BFQ's slice_idle (8 ms; 0: off): a queue in service that empties
	 * keeps the device for this long, waiting for its next request, as
	 * BFQ idles whenever the busy queues' weights differ.
	 */
	uint32_t slice_idle_ms;
	/*
	 * BFQ's injection (on): while a queue idles in service, other
	 * queues' requests go to the device up to a limit that grows while
	 * they do not slow the idling queue's next request by half and
	 * shrinks when they do, starting over every second.
	 */
	bool bfq_inject;
	/*
	 * The flusher asleep for a request slot wakes a few completions
	 * late, as 6.1's write-back worker did in blk_mq_get_tag (on); off,
	 * it takes the first free slot.  Meanwhile the device may run dry,
	 * and a checkpoint then finds it free.  Never on a zoned device.
	 */
	bool late_slot_wakeup;
	/*
	 * How long a task woken on another CPU takes to run, drawn each
	 * time between these (500 and 1000 us): the scheduler's wake-up
	 * latency on CPUs busy with the writers and the flusher.  The
	 * checkpoint thread woken from an empty queue waits this long
	 * (requests queued meanwhile join the batch), and so does every
	 * caller a checkpoint served but the first.
	 */
	uint32_t ckpt_wakeup_us, ckpt_wakeup_max_us;
	/*
	 * The CPU time of each operation of a workload thread other than
	 * fsync, fdatasync and sync (whose time is their latency) before
	 * it reaches the file system (system calls, path walk), drawn each
	 * time between these (default 0: none), on one of threads_cpu CPUs.
	 * An emulated guest CPU takes 0.1-0.7 ms for a touch.
	 */
	uint32_t op_cpu_us, op_cpu_max_us;
	uint64_t seed;	      /* content and choices */
	uint32_t threads_cpu; /* emulated threads running at once (0: all) */
	/*
	 * What the engine and its scheduler read the time from, sleep and time
	 * their waits on (NULL: the host's clock).  On a stepped clock
	 * (clock.h) time moves only by the model's sleeps, so that a run whose
	 * timed waits are all signalled -- one thread, no BFQ idling
	 * (bfq_budget 0) -- reports the same times each time.
	 */
	struct rp_clock *clock;
	/* each device request as it completes (NULL: none), with io_log_arg: the run's own record
	 */
	void (*io_log)(void *arg, const struct rp_sched_record *rec);
	void *io_log_arg;
};

void f2fs_replay_policy_default(struct f2fs_replay_policy *p);

/* One fsync-like op: when it started (s after the threads started) and how long it took. */
struct f2fs_replay_sample {
	double at_s, ms;
};

/* Kinds of error a thread's report counts apart; the rest are in its errors only. */
#define F2FS_RP_ERROR_KINDS 8

/* One emulated thread's figures. */
struct f2fs_replay_thread_report {
	char name[32];
	enum f2fs_replay_class io_class;
	double elapsed_s;
	uint64_t ops, errors, rounds;
	uint64_t fsyncs;
	double fsync_p50_ms, fsync_p99_ms, fsync_max_ms;
	int first_error;	   /* negative errno of the first failed op, 0 when none */
	uint32_t first_error_line; /* its trace line, 0 for a generated op */
	double first_error_at_s;   /* when it started, s after the threads started */
	/* failed ops counted by error (negative errno), kinds in the order they first failed */
	struct f2fs_replay_error_count {
		int error;
		uint64_t count;
	} error_kinds[F2FS_RP_ERROR_KINDS];
	size_t nerror_kinds;
	struct f2fs_replay_sample *fsync_samples; /* each fsync-like op, in order */
	size_t nfsync_samples;
};

struct f2fs_replay_report {
	char workload[32];
	double elapsed_s;
	struct f2fs_replay_thread_report *threads;
	size_t nthreads;
	/* checkpoints */
	uint64_t cp_requested, cp_issued, cp_merged, cp_skipped;
	double cp_wait_avg_ms, cp_wait_peak_ms;
	double *cp_times_s; /* when each checkpoint of the threads' run was issued */
	size_t ncp_times;
	/* bytes written to the device by kind, and what the workload wrote */
	uint64_t bytes[3]; /* data, node, meta (enum f2fs_io_kind) */
	uint64_t requests[3];
	uint64_t user_bytes, flushes;
	double write_amplification, write_mbps;
	/* the cleaner */
	uint64_t gc_runs, gc_blocks_moved, gc_sections_freed;
	uint64_t space_checks;
	/* files the workload wrote (read back after the run) */
	uint64_t files, file_bytes, extents, read_requests; /* at 512 KiB per request */
	uint64_t max_extents;
	/* the read pass, when the workload has one */
	bool read_pass;
	uint64_t read_pass_requests, read_pass_bytes; /* requests with node reads; file bytes */
	uint64_t read_pass_node_requests; /* of those, node blocks (the inode's among them) */
	double read_pass_s, read_pass_mbps;
	/*
	 * per I/O class, every device request from the mount to the unmount
	 * (before the read-back): bytes and requests in all (reads, writes and
	 * flushes), each kind apart, and the average and peak queue wait
	 */
	uint64_t class_bytes[F2FS_RP_IO_CLASSES], class_requests[F2FS_RP_IO_CLASSES];
	uint64_t class_read_bytes[F2FS_RP_IO_CLASSES], class_reads[F2FS_RP_IO_CLASSES];
	uint64_t class_write_bytes[F2FS_RP_IO_CLASSES], class_writes[F2FS_RP_IO_CLASSES];
	uint64_t class_flushes[F2FS_RP_IO_CLASSES];
	double class_wait_avg_ms[F2FS_RP_IO_CLASSES], class_wait_max_ms[F2FS_RP_IO_CLASSES];
	/*
	 * a zoned device: zones reset and finished (their bytes, the time
	 * they took, the device busy meanwhile), and writes the scheduler
	 * held back until their zone's write pointer reached them
	 */
	bool zoned;
	uint64_t zone_resets, zone_reset_bytes, zone_finishes, zone_ordered_writes;
	double zone_mgmt_ms;
	/* the head model: requests that sought, the time it took, requests merged into the previous
	 */
	bool head;
	uint64_t seeks, merged_requests;
	double seek_s;
	/* the content check: files sampled and read back, and how many differed */
	uint64_t verified_files, verify_failures;
};

void f2fs_replay_report_free(struct f2fs_replay_report *r);

/* Called about once a second while a run goes: ops done so far, and the total of the non-looping
 * threads. */
typedef void (*f2fs_replay_progress_fn)(uint64_t done, uint64_t total, void *arg);

/*
 * Run @wl on the F2FS volume on @dev (unmounted; the caller checked it),
 * through the write path, with the kernel behaviour @pol describes, and
 * fill @rep.  The volume ends with an unmount checkpoint.  The run takes
 * @dev and closes it before it returns.  Returns 0, or a negative errno with @why
 * saying what failed (an op that fails is counted in its thread's report
 * instead; -EIO, -ENOMEM and -EUCLEAN end the run).
 */
int f2fs_replay_run(struct f2fs_device *dev, const struct f2fs_replay_workload *wl,
		    const struct f2fs_replay_policy *pol, f2fs_replay_progress_fn progress,
		    void *progress_arg, struct f2fs_replay_report *rep, char *why, size_t why_len);

/*
 * The content a run writes at byte @off of file @path with seed @seed
 * (the same for the same three), so that anyone can check a file.
 */
void f2fs_replay_content(uint64_t seed, const char *path, uint64_t off, void *buf, size_t len);

/*
 * Sort @n latencies in place and return the @q quantile (0..1) of them,
 * as the report's fsync p50 and p99 are taken, so that a run measured
 * elsewhere (the kernel cross-check) is summed up the same way.
 */
double f2fs_replay_quantile(double *v, size_t n, double q);

#endif
