/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay engine's I/O scheduler: a device layer (f2fs_dev_stack) that
 * makes the write path's device writes asynchronous and serves them in
 * weighted-fair order, optionally paced by a device model.  It stands where
 * the kernel's block layer and BFQ with cgroups stand: the write path
 * submits and goes on, fsync and checkpoints wait for completion, the
 * classes (the cgroups) share the device by weight, and within a class its
 * contexts (the processes) share the class's part by their own weights.
 *
 * Submitters are contexts (an emulated thread, the checkpoint thread, the
 * flusher...), each in one class, each with a weight (default
 * RP_SCHED_DEFAULT_WEIGHT).  The engine names the context of the next
 * requests with rp_sched_set_current() before it calls into the write path;
 * every request that reaches the stacked device belongs to that context.
 *
 * One dispatcher thread serves one request at a time (queue depth 1): the
 * model is a device that works on one request after another, and the
 * order it serves them in is the scheduler's whole decision.  It is
 * start-time fair queueing on two levels.  Between classes: each class's
 * virtual time grows by cost / class weight per request of it served; the
 * backlogged class with the smallest one goes next; realtime classes go
 * before all others.  Within the class chosen, the same among its
 * backlogged contexts, by context weight (ties: the context backlogged
 * longest).  At both levels, a class or context that was idle starts at
 * the smallest virtual time of the backlogged ones of its level, or when
 * there is none, at the start of the last request served there: being
 * idle earns no credit.  Each context's requests are served in the order
 * it queued them (a FIFO per context), so a small write of one context
 * waits for a request or two of a busy context of its class, not for that
 * context's whole backlog.  A request of a context is therefore complete
 * only when every earlier request of that context is; requests of
 * different contexts, even of one class, have no order (but see the
 * per-block order of writes below).
 *
 * What each request does, through the stacked device:
 *   write  the buffer is copied and queued; returns 0 at once.  It first
 *          waits while a pending write overlaps it (4 KiB granularity:
 *          two unaligned writes sharing a block are ordered too), so per
 *          block the device sees writes in submission order, as the kernel
 *          waits on a page under writeback before writing it again; then,
 *          queued, for a request slot (config.slots) if none is free.  It never
 *          waits for its context's cap (config.ctx_cap_bytes): a caller
 *          that holds locks would keep others waiting meanwhile, so the
 *          engine calls rp_sched_throttle() where it holds none.  Its
 *          error, if any, comes back from rp_sched_wait() and
 *          rp_sched_drain().
 *   read   waits for pending writes that overlap it, is queued in its
 *          context's FIFO like a write, and returns when it is done, with
 *          its own error.  A write submitted while a read waits is not
 *          ordered after it: the engine's big lock keeps them apart.
 *   flush  a marker in the context's FIFO: when it is dispatched, every
 *          earlier request of that context is complete; the lower device
 *          is flushed then.  It covers its own context only, not the rest
 *          of its class: to make another context's writes durable,
 *          rp_sched_wait() for them first (as f2fs waits for writeback
 *          before it commits a checkpoint).  With config.defer_flush it
 *          returns 0 at once, else when it is done.
 *   zero, discard  pass through synchronously once every queued request is
 *          complete, with new requests held back meanwhile (mkfs only;
 *          not counted in the stats).
 *   zone reset, finish  the same, counted (zones, bytes, time) and, with
 *          model.zone_reset_ms, taking at least that long per zone.
 *
 * On a host-managed zoned device a write into a sequential zone must start
 * at the zone's write pointer.  The write path allocates and queues each
 * zone's blocks in order, but the weighted-fair order may serve a later
 * one first; the dispatcher then holds that write aside (it gives its
 * request slot back) and serves it as soon as the zone's pointer reaches
 * it, as mq-deadline's zone write locking keeps a zone's writes in order.
 * A flush of a context with a write held waits with it, so a flush still
 * covers every earlier write of its context.  Should every outstanding
 * request be held (a gap the write path left), the first held one is
 * served anyway and fails as the device fails it: the run ends with an
 * error instead of a hang.
 *
 * Modelled, the dispatcher does the real I/O, then sleeps until the
 * model says the request is done (struct rp_sched_model), so a request
 * takes what the model says unless the real device is slower.  The start is when the
 * modelled device was free and the request queued, not when the thread
 * woke up: a backlogged device runs back to back on the model's clock, and
 * the host's timer slack costs no throughput.  The stats use that clock.
 *
 * The scheduler's threads live only here: the rest of lib/ has none.  All
 * functions are safe to call from any thread.  Errors are negative errnos.
 */
#ifndef F2FS_SCHED_H
#define F2FS_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/clock.h"
#include "f2fs/device.h"

#define RP_SCHED_MAX_CLASSES	8
#define RP_SCHED_WEIGHT_MAX	1000
#define RP_SCHED_DEFAULT_WEIGHT 100	      /* a new context's */
#define RP_SCHED_DEFAULT_CAP	(16ull << 20) /* queued bytes per context */
#define RP_SCHED_FLUSH_COST	(64u << 10)   /* a flush's share of service, in bytes */
#define RP_SCHED_MAX_DEPTH	1024	      /* the longest device queue */
#define RP_SCHED_TAGS		(F2FS_DEV_TAG_META + 1)

struct rp_sched;

struct rp_sched_class {
	uint32_t weight; /* 1..RP_SCHED_WEIGHT_MAX; among realtime classes too */
	bool realtime;	 /* served before every class that is not */
	uint32_t charge; /* its service counts this many times (BFQ's async I/O: 3); 0 as 1 */
	bool async;	 /* background write-back: takes from config.async_slots */
	/*
	 * A queue that wants the device back (it left service empty and
	 * returns soon, BFQ's non_blocking_wait_rq) does not take it from a
	 * context of this class: weight-raised queues (BFQ's wr_coeff), and
	 * the checkpoint thread in the regime the kernel falls into most often
	 */
	bool guarded;
};

/*
 * A device model: each field 0 means "not modelled".  Bytes and requests
 * are two separate budgets, each worked off at its own rate (a byte
 * bucket at mbps, a request bucket at iops): a request goes when both
 * hold at most burst_ms of work, and is then charged to both.
 *   burst_ms 0   a device working on one request after another: a request
 *                takes max(bytes / mbps, 1 / iops) from its start.
 *   burst_ms > 0 a throttle in front of a fast device, as qemu's drive
 *                throttling (its buckets hold 100 ms of work unless told
 *                otherwise, throttle_fix_bucket): a request is done when
 *                it goes, and small requests behind big ones cost only
 *                the request budget that the big ones left unused.
 */
struct rp_sched_model {
	uint32_t mbps;		/* throughput, 10^6 bytes per second */
	uint32_t iops;		/* requests per second (data requests) */
	uint32_t flush_ms;	/* time of a cache flush (never throttled) */
	uint32_t burst_ms;	/* work either bucket may hold before a request waits */
	uint32_t zone_reset_ms; /* a zone reset or finish, per zone (else the device's own time) */
	/*
	 * A head that moves, as on a rotating disk or an SMR drive (only for
	 * burst_ms 0; seek_full_us 0: none).  A request that does not start
	 * where the previous one ended first seeks, seek_min_us + (seek_full_us
	 * - seek_min_us) * sqrt(distance / the device's size), then waits half
	 * a rotation (rotation_us / 2).  A request that starts where the
	 * previous one ended and was queued within merge_us of that one's
	 * start joins it, as the block layer merges adjacent requests: it
	 * costs its bytes only (no seek, no request time).
	 */
	uint32_t seek_min_us, seek_full_us, rotation_us, merge_us;
};

/*
 * One request as the scheduler served it, for a log of the run: times on
 * the scheduler's clock (ns), from its queueing through its entry into the
 * device's queue to the modelled device's start and end.
 */
enum rp_sched_record_kind { RP_REC_WRITE, RP_REC_READ, RP_REC_FLUSH };

struct rp_sched_record {
	unsigned int ctx, cls;
	enum rp_sched_record_kind kind;
	enum f2fs_dev_tag tag;
	uint64_t off, len; /* bytes; 0 for a flush */
	uint64_t queued_ns, devq_ns, start_ns, end_ns;
};

/* Called under the scheduler's lock as each request completes: keep it short, never call back in.
 */
typedef void (*rp_sched_log_fn)(void *arg, const struct rp_sched_record *rec);

struct rp_sched_config {
	unsigned int nclasses; /* 1..RP_SCHED_MAX_CLASSES */
	struct rp_sched_class classes[RP_SCHED_MAX_CLASSES];
	/*
	 * Modelled, a request takes max(bytes / mbps, 1 / iops) (a flush:
	 * flush_ms) from its start, or the real I/O time when that is longer.
	 */
	struct rp_sched_model model;
	/*
	 * What the model, the stats and the timed waits read the time from,
	 * kept alive by the caller until the scheduler is closed (NULL: the
	 * host's clock; a stepped clock makes a model's times exact, clock.h)
	 */
	struct rp_clock *clock;
	uint64_t ctx_cap_bytes; /* 0: RP_SCHED_DEFAULT_CAP */
	/* the largest write request (max_sectors_kb); longer writes are split (0: never) */
	uint64_t max_write_bytes;
	/*
	 * Request slots (the block layer's tags, nr_requests; 0: no limit).
	 * Every request holds one from submission to completion; a request
	 * of an async class takes one only while fewer than async_slots
	 * (0: slots) are in use, and waits for it otherwise, after the
	 * requests of its context before it.  Free slots go round the
	 * waiting contexts in the order they began to wait, one request
	 * each, as a submitter sleeps for the tag of its next request only.
	 * Other requests always find one: BFQ keeps async I/O to part of the
	 * tags (bfq_limit_depth), and in the kernel the sync requests of a
	 * checkpoint got theirs at once beside a write-back that kept the
	 * queue full.  Independently, a request queued after a flush of its
	 * context waits until the flush is done, as the kernel's submitter
	 * waits for a flush before it writes the next block.
	 */
	unsigned int slots, async_slots;
	/*
	 * A context of an async class that sleeps for a slot wakes only
	 * after some completions, drawn each time it begins to wait from
	 * what a 6.1 guest showed (RP_SCHED_LATE_WAKEUPS in iosched.c: the
	 * write-back worker slept through 1 to 8 completions in
	 * blk_mq_get_tag, 2 in the median), or at once when nothing is in
	 * the device; off, it takes the first free slot.  @seed draws them.
	 */
	bool late_slot_wakeup;
	uint64_t seed;
	bool defer_flush; /* a flush returns once queued */
	/*
	 * Flushes, and writes a context issues behind its own unfinished
	 * flush (a preflush's data), go past the scheduler into the device's
	 * queue ahead of its picks, as the block layer's flush machinery
	 * takes them (blk_insert_flush): they neither keep their context in
	 * service nor count for its idling.  Behind a throttle (burst_ms) a
	 * flush goes before the writes the throttle still holds.
	 */
	bool flush_bypass;
	/*
	 * Requests the device holds (its queue depth; 0 or 1: one at a time).
	 * The scheduler's order decides only when a request enters the
	 * device's queue; the device serves its queue in order.
	 */
	unsigned int queue_depth;
	/*
	 * BFQ's service budgets (0: off, the next request is always picked by
	 * virtual time). On, the context picked keeps the device until it has
	 * been served budget_bytes or slice_ns, or its queue empties, or a
	 * context that may preempt it gets requests (bfq_bfqq_expire(),
	 * bfq_bfqq_higher_class_or_weight()): a realtime one, a heavier one of
	 * its class, one of a heavier class.  Virtual times are charged per
	 * request as without budgets, so shares hold over time; what budgets
	 * change is how long a light context's few requests wait.
	 */
	uint64_t budget_bytes;
	uint64_t slice_ns;
	/*
	 * With budgets, BFQ's slice_idle (0: off): a context in service that
	 * is not async keeps the device while its requests are in it and for
	 * slice_idle_ns after the last completes, waiting for its next one;
	 * nothing else enters the device meanwhile.  A context that may
	 * preempt it ends the wait, as does the budget or slice running out.
	 */
	uint64_t slice_idle_ns;
	/*
	 * While it idles, let other contexts' requests in up to its inject
	 * limit (requests in the device), which adapts to what they cost it,
	 * as BFQ injects (bfq_choose_bfqq_for_injection(),
	 * bfq_update_inject_limit()).
	 */
	bool inject;
	/* every request as it completes (NULL: none), with @log_arg */
	rp_sched_log_fn log;
	void *log_arg;
};

/* What was served, counted when a request completes. */
struct rp_sched_counters {
	uint64_t writes[RP_SCHED_TAGS]; /* write requests by enum f2fs_dev_tag */
	uint64_t write_bytes[RP_SCHED_TAGS];
	uint64_t reads, read_bytes;
	uint64_t flushes;
	uint64_t wait_ns;	/* sum of queue waits: queued to dispatched */
	uint64_t max_wait_ns;	/* the longest queue wait */
	uint64_t service_ns;	/* sum of service times: dispatched to complete */
	uint64_t pending_bytes; /* now: write bytes queued or in service */
};

struct rp_sched_stats {
	unsigned int nclasses, ncontexts;
	struct rp_sched_counters classes[RP_SCHED_MAX_CLASSES];
	uint64_t busy_ns;    /* the dispatcher serving requests */
	uint64_t elapsed_ns; /* since rp_sched_open */
	int error;	     /* the first write or flush error, 0 if none */
	/* zoned devices: zones reset and finished, their bytes and time; writes held for order */
	uint64_t zone_resets, zone_reset_bytes, zone_finishes, zone_mgmt_ns;
	uint64_t zone_held_writes;
	/* the head model: requests that sought, the time it took, requests merged */
	uint64_t seeks, seek_ns, merged;
};

/*
 * Stack a scheduler on @lower and start its dispatcher.  *@dev is the
 * stacked device: it owns @lower and the scheduler, and f2fs_dev_close()
 * on it serves every queued request, stops the dispatcher, frees the
 * scheduler, then closes @lower.  Closing cannot report write errors (a
 * layer's release returns nothing): call rp_sched_drain() before it.
 * Context 0 exists from the start, in class 0: requests before any
 * rp_sched_set_current() belong to it.  -EINVAL for a bad config; on
 * failure @lower is left to the caller.
 */
int rp_sched_open(struct f2fs_device *lower, const struct rp_sched_config *config,
		  struct rp_sched **sched, struct f2fs_device **dev);

/* A new context in @cls, of weight RP_SCHED_DEFAULT_WEIGHT: its id (>= 0), -EINVAL or -ENOMEM. */
int rp_sched_context_new(struct rp_sched *sched, unsigned int cls);

/*
 * @ctx's weight within its class, 1..RP_SCHED_WEIGHT_MAX: among the
 * class's backlogged contexts, each gets a part of the class's service in
 * proportion to it.  It counts from the next request dispatched; what the
 * context was charged before stays.  -EINVAL for an unknown id or a weight
 * out of range.
 */
int rp_sched_context_set_weight(struct rp_sched *sched, int ctx, uint32_t weight);

/* The context the next requests belong to.  -EINVAL for an unknown id. */
int rp_sched_set_current(struct rp_sched *sched, int ctx);

/*
 * Block until every request @ctx queued before the call is complete.
 * Returns the first error of a write or flush of @ctx, ever (errors stay:
 * later waits report them again), else 0.  -EINVAL for an unknown id.
 */
int rp_sched_wait(struct rp_sched *sched, int ctx);

/*
 * Block while @ctx has the cap or more queued.  The engine calls it before
 * taking its big lock, so that a thread over its cap does not hold the
 * lock while it waits.
 */
int rp_sched_throttle(struct rp_sched *sched, int ctx);

/*
 * Block while a request of @ctx waits for a request slot: where the
 * kernel's submitter would still be asleep in its submission.
 */
int rp_sched_wait_slots(struct rp_sched *sched, int ctx);

/*
 * Block until nothing is queued or in service.  Returns the first error of
 * any write or flush so far, else 0.
 */
int rp_sched_drain(struct rp_sched *sched);

/* A snapshot of the counters: per class, and overall. */
void rp_sched_get_stats(struct rp_sched *sched, struct rp_sched_stats *out);

/* A snapshot of @ctx's counters.  -EINVAL for an unknown id. */
int rp_sched_context_stats(struct rp_sched *sched, int ctx, struct rp_sched_counters *out);

#endif
