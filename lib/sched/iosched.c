// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine's I/O scheduler (iosched.h).  Per context, a FIFO of
 * requests, a virtual time within its class, request counts and the first
 * error; per class, a virtual time and the list of its backlogged contexts
 * (by id: the context array moves when it grows), so that a dispatch looks
 * at the classes and at one class's backlogged contexts, never at the idle
 * ones; and a set of the 4 KiB blocks that pending writes cover, so that
 * a request finds the writes it overlaps in O(its blocks) without walking
 * the queues.  Writes wait before they are queued until no pending write
 * shares a block with them, so each block is in the set for one write at
 * most.  Before a request reaches its context's FIFO it needs a request
 * slot; without one it waits in a second FIFO of its context, and the
 * contexts that wait are a list the slots go round.  One mutex guards all
 * of it; the dispatcher does the I/O and the model's sleep without it,
 * then broadcasts each completion to whoever waits for one (an overlap, a
 * cap, a slot, a read, a flush, a wait, a drain).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/bitops.h"
#include "f2fs/zone.h"
#include "f2fs/clock.h"
#include "f2fs/sched.h"
#include "head.h"
#include "zone_order.h"

#define NS_PER_SEC 1000000000ull
#define BLK_SHIFT  12	    /* the overlap check's granularity */
#define CTX_ROOM   8	    /* contexts before the first growth */
#define SET_BITS   10	    /* log2 of the block set's first size */
#define NO_CTX	   UINT_MAX /* the end of a class's list of backlogged contexts */
#define POOL_MAX   16	    /* write buffers kept for reuse */

enum req_kind { REQ_WRITE, REQ_READ, REQ_FLUSH };

struct req {
	struct req *next; /* in its context's FIFO */
	enum req_kind kind;
	enum f2fs_dev_tag tag;
	uint64_t off;
	size_t len;
	void *buf; /* a write's own copy, a read's caller buffer */
	unsigned int ctx;
	bool waited; /* the submitter waits for it and owns it; else freed when complete */
	bool tagged; /* holds one of the block layer's request slots */
	bool bypass; /* a flush or a flush's data: past the scheduler (config.flush_bypass) */
	uint64_t after_flushes; /* its context's flushes before it: it waits for them */
	bool done;
	int ret;
	uint64_t queued_ns, devq_ns, start_ns, end_ns;
};

/* Open addressing with linear probing; a slot holds block + 1, 0 when empty. */
struct blkset {
	uint64_t *slot;
	unsigned int bits; /* 1 << bits slots */
	size_t count;
};

/* Virtual times are in bytes * RP_SCHED_WEIGHT_MAX / weight. */
struct sched_class {
	struct rp_sched_class cfg;
	/* its backlogged contexts, in the order they became so: ties go to the earliest */
	unsigned int busy_head, busy_tail;
	uint64_t vtime;
	uint64_t vnow; /* among its contexts: start tag of the last request dispatched */
	struct rp_sched_counters st;
};

struct sched_ctx {
	unsigned int cls;
	uint32_t weight;
	struct req *head, *tail;
	unsigned int busy_next; /* in its class's list, while backlogged */
	uint64_t vtime;
	/* requests ever queued and completed: its FIFO serves them in order */
	uint64_t queued, completed;
	uint64_t dispatched; /* requests ever taken into the device's queue */
	/* submitted, waiting for a request slot, in order; the next waiting context */
	struct req *slot_head, *slot_tail;
	unsigned int slot_next;	 /* while slot_head: it is in the scheduler's list of them */
	unsigned int wake_after; /* completions before it may take a slot (late_slot_wakeup) */
	uint64_t flushes_queued, flushes_done;
	uint64_t bypass_out; /* its requests past the scheduler now in the device */
	/*
	 * BFQ's non_blocking_wait_rq: it left service with its queue empty and
	 * service left to it; back within three slice_idle of last_done_ns, it
	 * wants the device back (wants_back())
	 */
	bool left_empty;
	uint64_t last_done_ns;
	/* injection while it idles in service: the limit, its baseline, its last cut */
	unsigned int inject_limit;
	uint64_t base_serv_ns, limit_cut_ns;
	int err;
	struct rp_sched_counters st;
};

struct rp_sched {
	struct f2fs_device *lower;
	struct rp_clock *clock; /* NULL: the host's */
	struct rp_sched_model model;
	uint64_t cap;
	bool defer_flush;
	unsigned int depth; /* requests the device holds, served in order */
	unsigned int nclasses;
	struct sched_class cls[RP_SCHED_MAX_CLASSES];

	pthread_mutex_t lock;
	pthread_cond_t work; /* to the dispatcher: a request was queued, or stop */
	pthread_cond_t done; /* to submitters: a request completed, or a passthrough ended */
	pthread_t dispatcher;

	struct sched_ctx *ctx; /* indexed by id: realloc'd, so never hold a pointer across a wait */
	unsigned int nctx, ctx_room;
	unsigned int current;
	struct blkset pending;
	uint64_t queued, completed;
	struct req *devq_head, *devq_tail; /* taken from the classes, not yet served */
	struct req *bp_head, *bp_tail;	   /* past the scheduler, before the device's queue */
	bool flush_bypass;
	unsigned int devq_len;
	bool in_service;  /* the dispatcher is serving a request (it counts in the depth) */
	uint64_t vnow[2]; /* start tag of the last dispatch, weighted [0] and realtime [1] */
	bool passthrough; /* a zero or discard holds new requests back */
	bool stopping;
	int err;
	uint64_t busy_ns, open_ns;
	uint64_t
	    dev_free_ns; /* the dispatcher's: when the modelled device finished its last request */
	/* the model's buckets: ns of work in each at lvl_at (the dispatcher's) */
	uint64_t lvl_bytes, lvl_reqs, lvl_at;
	struct rp_head head; /* the dispatcher's */
	uint64_t max_write;  /* split longer writes (0: never) */
	/* request slots: in use; contexts waiting for one, FIFO */
	unsigned int slots, async_slots, slots_used;
	bool late_wakeup;
	uint64_t wake_rng;
	unsigned int slot_wait_head, slot_wait_tail;
	rp_sched_log_fn log; /* with log_arg: each completed request */
	void *log_arg;
	/* the page cache of single blocks: direct-mapped, tag block + 1 (0: empty) */
	uint64_t *cache_tag;
	uint8_t *cache_data;
	uint64_t cache_gen; /* writes seen: a read that saw none meanwhile may be cached */
	/* budgets: the context in service (NO_CTX: none), what it was served, since when */
	uint64_t budget, slice_ns;
	unsigned int svc;
	uint64_t svc_bytes, svc_start_ns;
	/* idling: how long, and until when the context in service may send its next request */
	uint64_t slice_idle_ns, idle_until_ns;
	/*
	 * injection: on, whether requests were injected since the sample
	 * began, the sample's start and the request it times (0 until
	 * dispatched: waiting for the context in service's next one)
	 */
	bool inject, injected, sampling;
	uint64_t sample_start_ns;
	const struct req *sampled;
	/*
	 * Buffers of completed max_write-long writes, kept for the next ones:
	 * a fresh one per request cost the writer a page fault per 4 KiB
	 */
	void *pool[POOL_MAX];
	unsigned int npool;
	/*
	 * A zoned device's write pointers (NULL: any order goes), and the
	 * requests the dispatcher holds aside until their zone's pointer
	 * reaches them, in the order it took them
	 */
	struct rp_zone_order *zones;
	struct req *held_head, *held_tail;
	unsigned int nheld;
	uint64_t zone_resets, zone_reset_bytes, zone_finishes, zone_mgmt_ns, zone_held_writes;
};

/* ---- the set of blocks under pending writes ---- */

static size_t blkset_mask(const struct blkset *b)
{
	return ((size_t)1 << b->bits) - 1;
}

static size_t blkset_home(const struct blkset *b, uint64_t blk)
{
	return (size_t)((blk * 0x9e3779b97f4a7c15ull) >> (64 - b->bits));
}

/* The slot holding @blk, or the empty slot where it would go. */
static size_t blkset_find(const struct blkset *b, uint64_t blk)
{
	size_t i = blkset_home(b, blk);

	while (b->slot[i] && b->slot[i] != blk + 1)
		i = (i + 1) & blkset_mask(b);
	return i;
}

static bool blkset_has(const struct blkset *b, uint64_t blk)
{
	return b->slot[blkset_find(b, blk)] != 0;
}

static void blkset_put(struct blkset *b, uint64_t blk)
{
	size_t i = blkset_find(b, blk);

	if (!b->slot[i]) {
		b->slot[i] = blk + 1;
		b->count++;
	}
}

static int blkset_init(struct blkset *b, unsigned int bits)
{
	b->slot = calloc((size_t)1 << bits, sizeof(*b->slot));
	b->bits = bits;
	b->count = 0;
	return b->slot ? 0 : -ENOMEM;
}

/* Room for @more blocks, the load staying at one half at most, so puts cannot fail. */
static int blkset_reserve(struct blkset *b, uint64_t more)
{
	unsigned int bits = b->bits;
	struct blkset n;
	size_t i;

	while (((uint64_t)1 << bits) < 2 * (b->count + more))
		bits++;
	if (bits == b->bits)
		return 0;
	if (bits >= 8 * sizeof(size_t) - 4 || blkset_init(&n, bits))
		return -ENOMEM;
	for (i = 0; i <= blkset_mask(b); i++)
		if (b->slot[i])
			blkset_put(&n, b->slot[i] - 1);
	free(b->slot);
	*b = n;
	return 0;
}

/* Linear probing without tombstones: later entries of the run move back into the hole. */
static void blkset_del(struct blkset *b, uint64_t blk)
{
	size_t mask = blkset_mask(b);
	size_t hole = blkset_find(b, blk), i = hole, home;

	if (!b->slot[hole])
		return;
	for (i = (hole + 1) & mask; b->slot[i]; i = (i + 1) & mask) {
		home = blkset_home(b, b->slot[i] - 1);
		/* it may move when the hole lies between its home and where it is */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			b->slot[hole] = b->slot[i];
			hole = i;
		}
	}
	b->slot[hole] = 0;
	b->count--;
}

static uint64_t first_blk(uint64_t off)
{
	return off >> BLK_SHIFT;
}

static uint64_t last_blk(uint64_t off, size_t len)
{
	return (off + len - 1) >> BLK_SHIFT;
}

static bool range_pending(const struct blkset *b, uint64_t off, size_t len)
{
	uint64_t blk;

	for (blk = first_blk(off); blk <= last_blk(off, len); blk++)
		if (blkset_has(b, blk))
			return true;
	return false;
}

static int range_mark(struct blkset *b, uint64_t off, size_t len)
{
	uint64_t blk;
	int ret = blkset_reserve(b, last_blk(off, len) - first_blk(off) + 1);

	if (ret)
		return ret;
	for (blk = first_blk(off); blk <= last_blk(off, len); blk++)
		blkset_put(b, blk);
	return 0;
}

static void range_unmark(struct blkset *b, uint64_t off, size_t len)
{
	uint64_t blk;

	for (blk = first_blk(off); blk <= last_blk(off, len); blk++)
		blkset_del(b, blk);
}

/* ---- queues and virtual time (the lock held) ---- */

static uint64_t req_cost(const struct req *r)
{
	return r->kind == REQ_FLUSH ? RP_SCHED_FLUSH_COST : r->len;
}

static bool goes_before(const struct sched_class *a, const struct sched_class *b)
{
	if (a->cfg.realtime != b->cfg.realtime)
		return a->cfg.realtime;
	/* at equal start the heavier finishes a turn first, as BFQ orders by finish time */
	if (a->vtime != b->vtime)
		return a->vtime < b->vtime;
	return a->cfg.weight > b->cfg.weight;
}

static bool class_busy(const struct sched_class *c)
{
	return c->busy_head != NO_CTX;
}

/* The backlogged class to serve next, or NULL when nothing is queued. */
static struct sched_class *next_class(struct rp_sched *s)
{
	struct sched_class *best = NULL;
	unsigned int i;

	for (i = 0; i < s->nclasses; i++)
		if (class_busy(&s->cls[i]) && (!best || goes_before(&s->cls[i], best)))
			best = &s->cls[i];
	return best;
}

/*
 * Where a class that was idle starts: the smallest virtual time of the
 * backlogged classes of its kind, or when there is none, the start of the
 * last request of its kind served.  An idle class earns no credit.
 */
static uint64_t idle_floor(const struct rp_sched *s, bool realtime)
{
	uint64_t v = s->vnow[realtime];
	bool any = false;
	unsigned int i;

	for (i = 0; i < s->nclasses; i++) {
		const struct sched_class *c = &s->cls[i];

		if (class_busy(c) && c->cfg.realtime == realtime && (!any || c->vtime < v)) {
			v = c->vtime;
			any = true;
		}
	}
	return v;
}

/* The same rule one level down: where an idle context of @c starts. */
static uint64_t ctx_floor(const struct rp_sched *s, const struct sched_class *c)
{
	uint64_t v = c->vnow;
	bool any = false;
	unsigned int id;

	for (id = c->busy_head; id != NO_CTX; id = s->ctx[id].busy_next)
		if (!any || s->ctx[id].vtime < v) {
			v = s->ctx[id].vtime;
			any = true;
		}
	return v;
}

static void lift(uint64_t *vtime, uint64_t floor)
{
	if (*vtime < floor)
		*vtime = floor;
}

/* Whether context @y, getting requests, takes the device from @x in service. */
static bool preempts(const struct rp_sched *s, unsigned int y, unsigned int x)
{
	const struct sched_class *cy = &s->cls[s->ctx[y].cls], *cx = &s->cls[s->ctx[x].cls];

	if (cy->cfg.realtime != cx->cfg.realtime)
		return cy->cfg.realtime;
	if (cy == cx)
		return s->ctx[y].weight > s->ctx[x].weight;
	return cy->cfg.weight > cx->cfg.weight;
}

static bool svc_has_time(const struct rp_sched *s);

/*
 * The context in service leaves it: with nothing queued and service left
 * it is marked (bfq_bfqq_expire's non_blocking_wait_rq), whatever the
 * reason, except a budget or a slice used up.
 */
static void svc_end(struct rp_sched *s)
{
	if (s->svc != NO_CTX && !s->ctx[s->svc].head && svc_has_time(s))
		s->ctx[s->svc].left_empty = true;
	s->svc = NO_CTX;
}

/*
 * BFQ's bfqq_wants_to_preempt (bfq_bfqq_update_budg_for_activation): a
 * queue that left service empty with service left, getting a request
 * within three slice_idle of its last completion, takes the device from
 * the one in service -- unless that one's class is guarded.
 */
static bool wants_back(const struct rp_sched *s, unsigned int y, unsigned int x)
{
	const struct sched_ctx *cy = &s->ctx[y];

	if (!s->budget || !cy->left_empty || s->cls[s->ctx[x].cls].cfg.guarded)
		return false;
	return rp_clock_now(s->clock) <= cy->last_done_ns + 3 * s->slice_idle_ns;
}

/* @id's queue was empty: it and, if it was idle, its class start at their floors. */
static void ctx_wake(struct rp_sched *s, unsigned int id)
{
	struct sched_ctx *x = &s->ctx[id];
	struct sched_class *c = &s->cls[x->cls];

	if (s->svc != NO_CTX && s->svc != id &&
	    (preempts(s, id, s->svc) || wants_back(s, id, s->svc)))
		svc_end(s);
	x->left_empty = false;

	/* the floors before @id joins the list: they are of the others */
	lift(&x->vtime, ctx_floor(s, c));
	if (class_busy(c)) {
		s->ctx[c->busy_tail].busy_next = id;
	} else {
		lift(&c->vtime, idle_floor(s, c->cfg.realtime));
		c->busy_head = id;
	}
	c->busy_tail = id;
	x->busy_next = NO_CTX;
}

static void devq_fill(struct rp_sched *s);
static void inject_note_arrival(struct rp_sched *s, unsigned int id, uint64_t now);

/* A request with its slot joins its context's queue in the scheduler, or goes past it. */
static void enqueue(struct rp_sched *s, unsigned int id, struct req *r)
{
	struct sched_ctx *x = &s->ctx[id];

	r->next = NULL;
	if (r->bypass) {
		if (s->bp_tail)
			s->bp_tail->next = r;
		else
			s->bp_head = r;
		s->bp_tail = r;
		devq_fill(s);
		pthread_cond_signal(&s->work);
		return;
	}
	if (x->head) {
		x->tail->next = r;
	} else {
		ctx_wake(s, id);
		x->head = r;
		inject_note_arrival(s, id, rp_clock_now(s->clock));
	}
	x->tail = r;
	/* a device with free slots takes the request at once, as the block layer dispatches */
	devq_fill(s);
	pthread_cond_signal(&s->work);
}

/* ---- request slots (the block layer's tags) ---- */

static bool ctx_async(const struct rp_sched *s, unsigned int id)
{
	return s->cls[s->ctx[id].cls].cfg.async;
}

/*
 * Async write-back takes a slot while fewer than async_slots are in use;
 * the others always find one: in the kernel sync requests got their tags
 * at once beside a write-back that kept the queue full (BFQ keeps async
 * I/O to part of the tags, bfq_limit_depth).
 */
static bool slot_free(const struct rp_sched *s, unsigned int id)
{
	return !s->slots || !ctx_async(s, id) || s->slots_used < s->async_slots;
}

static void slot_take(struct rp_sched *s, struct req *r)
{
	r->tagged = true;
	s->slots_used++;
}

static void slot_give_back(struct rp_sched *s, struct req *r)
{
	if (!r->tagged)
		return;
	r->tagged = false;
	s->slots_used--;
}

/*
 * A request after a flush of its context goes only once the flush is
 * done: the kernel's submitter waits for the flush (and what it covers)
 * before it writes the next block, as a checkpoint waits for its pack
 * before the block that commits it.  A context asleep for a slot
 * (late_slot_wakeup) goes once enough completions woke it, or when the
 * device has nothing left that could.
 */
static bool may_go(const struct rp_sched *s, unsigned int id, const struct req *r)
{
	if (s->ctx[id].wake_after && s->slots_used)
		return false;
	return s->ctx[id].flushes_done >= r->after_flushes && slot_free(s, id);
}

/*
 * How many request completions a write-back worker asleep in
 * blk_mq_get_tag() slept through in a 6.1 guest (tests/kernel/007
 * XCHECK_CASES=trace, ckpt-storm without merge on BFQ with 4 tags: 472
 * sleeps), as cumulative shares in thousandths: woken by the 1st
 * completion 33%, the 2nd 32%, the 3rd 25%, later ones 10%.  The freed
 * tags meanwhile go to the checkpoint's sync requests, or stay free.
 */
static const unsigned short RP_SCHED_LATE_WAKEUPS[] = {331, 646, 892, 949, 985, 992, 998, 1000};

/* Arm @id's wake-up when it begins to sleep for a slot (async contexts, late_slot_wakeup). */
static void wake_arm(struct rp_sched *s, unsigned int id)
{
	unsigned int n = 0, v;

	if (!s->late_wakeup || !ctx_async(s, id))
		return;
	s->wake_rng = f2fs_mix64(s->wake_rng);
	v = (unsigned int)(s->wake_rng % 1000u);
	while (v >= RP_SCHED_LATE_WAKEUPS[n])
		n++;
	s->ctx[id].wake_after = n + 1;
}

/* A request completed: one completion fewer for each context asleep for a slot. */
static void wake_count(struct rp_sched *s)
{
	unsigned int id;

	for (id = s->slot_wait_head; id != NO_CTX; id = s->ctx[id].slot_next)
		if (s->ctx[id].wake_after)
			s->ctx[id].wake_after--;
}

static void slot_wait_push(struct rp_sched *s, unsigned int id)
{
	s->ctx[id].slot_next = NO_CTX;
	if (s->slot_wait_head == NO_CTX)
		s->slot_wait_head = id;
	else
		s->ctx[s->slot_wait_tail].slot_next = id;
	s->slot_wait_tail = id;
}

/*
 * Hand free slots to the waiting contexts in the order they started to
 * wait, one request each per round: a submitter sleeps for the slot of
 * its next request only, so a thread behind a long write-back waits for
 * one slot, not for all of it.  A context that may not take one (async
 * slots used up) keeps its place.
 */
static void slots_grant(struct rp_sched *s)
{
	unsigned int id = s->slot_wait_head, prev = NO_CTX, next;

	while (id != NO_CTX) {
		struct sched_ctx *x = &s->ctx[id];
		struct req *r;

		next = x->slot_next;
		if (!may_go(s, id, x->slot_head)) {
			prev = id;
			id = next;
			continue;
		}
		r = x->slot_head;
		x->slot_head = r->next;
		if (!x->slot_head)
			x->slot_tail = NULL;
		/* out of the list; back at its tail while it has more waiting */
		if (prev == NO_CTX)
			s->slot_wait_head = next;
		else
			s->ctx[prev].slot_next = next;
		if (s->slot_wait_tail == id)
			s->slot_wait_tail = prev;
		slot_take(s, r);
		enqueue(s, id, r);
		if (x->slot_head) {
			wake_arm(s, id);
			slot_wait_push(s, id);
		}
		id = next;
	}
}

/* A new request of @id: counted, then into the scheduler or to wait for a slot. */
static void submit(struct rp_sched *s, unsigned int id, struct req *r)
{
	struct sched_ctx *x = &s->ctx[id];

	r->ctx = id;
	r->next = NULL;
	r->queued_ns = rp_clock_now(s->clock);
	x->queued++;
	s->queued++;
	if (r->kind == REQ_WRITE) {
		x->st.pending_bytes += r->len;
		s->cls[x->cls].st.pending_bytes += r->len;
	}
	r->after_flushes = x->flushes_queued;
	/*
	 * The block layer's flush machinery takes a flush, and the data of a
	 * write issued behind it (REQ_PREFLUSH | REQ_FUA: a checkpoint's
	 * commit block), past the I/O scheduler to the dispatch list
	 * (blk_insert_flush): BFQ never sees them
	 */
	r->bypass = s->flush_bypass && (r->kind == REQ_FLUSH || r->after_flushes > x->flushes_done);
	if (r->kind == REQ_FLUSH)
		x->flushes_queued++;
	if (!x->slot_head && may_go(s, id, r)) {
		slot_take(s, r);
		enqueue(s, id, r);
		return;
	}
	if (x->slot_tail) {
		x->slot_tail->next = r;
	} else {
		x->slot_head = r;
		wake_arm(s, id);
		slot_wait_push(s, id); /* it had none waiting: not in the list yet */
	}
	x->slot_tail = r;
}

/* @c's backlogged context with the smallest virtual time; *@before: the one before it. */
static unsigned int next_ctx(const struct rp_sched *s, const struct sched_class *c,
			     unsigned int *before)
{
	unsigned int id, prev = NO_CTX, best = c->busy_head;

	*before = NO_CTX;
	for (id = c->busy_head; id != NO_CTX; prev = id, id = s->ctx[id].busy_next)
		if (s->ctx[id].vtime < s->ctx[best].vtime) {
			best = id;
			*before = prev;
		}
	return best;
}

static void busy_unlink(struct rp_sched *s, struct sched_class *c, unsigned int id,
			unsigned int before)
{
	unsigned int next = s->ctx[id].busy_next;

	if (before == NO_CTX)
		c->busy_head = next;
	else
		s->ctx[before].busy_next = next;
	if (c->busy_tail == id)
		c->busy_tail = before;
}

static bool svc_has_time(const struct rp_sched *s)
{
	return s->svc_bytes < s->budget && rp_clock_now(s->clock) - s->svc_start_ns < s->slice_ns;
}

/* The context in service may go on: it has requests and budget and time left. */
static bool svc_goes_on(const struct rp_sched *s)
{
	return s->svc != NO_CTX && s->ctx[s->svc].head && svc_has_time(s);
}

/* Its requests the scheduler sent to the device and not yet done (not those past it). */
static uint64_t in_flight(const struct sched_ctx *x)
{
	return x->dispatched - x->completed - x->bypass_out;
}

/*
 * The context in service has nothing queued, yet keeps the device: BFQ
 * plugs dispatch for a sync queue that emptied, while its requests are in
 * the device and for slice_idle after the last one completes, so that its
 * next request finds the device free (bfq_select_queue() keeping the
 * queue, bfq_arm_slice_timer()).  It does so whenever the weights of the
 * busy queues differ (bfq_asymmetric_scenario(), idling for service
 * guarantees, think time or not), which the engine's classes always do.
 * Async write-back never idles; other contexts' requests are let in
 * meanwhile only by injection (may_inject()).
 */
static bool svc_idles(const struct rp_sched *s)
{
	const struct sched_ctx *x;

	if (!s->slice_idle_ns || s->svc == NO_CTX || s->stopping || !svc_has_time(s))
		return false;
	x = &s->ctx[s->svc];
	if (x->head || ctx_async(s, s->svc))
		return false;
	return in_flight(x) || rp_clock_now(s->clock) < s->idle_until_ns;
}

/* ---- injection (BFQ's, into the idle time of the queue in service) ---- */

#define INJECT_SAMPLE_GAP_NS (10 * 1000000ull)	 /* after a cut: 10 ms */
#define INJECT_RESET_NS	     (1000 * 1000000ull) /* limits start over: 1 s */

static unsigned int in_driver(const struct rp_sched *s)
{
	return s->devq_len + s->in_service;
}

/*
 * The context idling in service lets one more request in: fewer than its
 * limit are in the device (bfq_choose_bfqq_for_injection(); the engine's
 * contexts are never weight-raised with injection on, so any may inject).
 */
static bool may_inject(const struct rp_sched *s)
{
	return s->inject && in_driver(s) < s->ctx[s->svc].inject_limit;
}

/*
 * A request of sync context @id that had none queued (bfq_add_request()):
 * every second its limit starts over at 0 (a short think time) with no
 * baseline; and when it is in service and the device is empty, or
 * injected requests are in it and a baseline exists, the time to its
 * request's completion is sampled, at most every 10 ms after a cut.
 */
static void inject_note_arrival(struct rp_sched *s, unsigned int id, uint64_t now)
{
	struct sched_ctx *x = &s->ctx[id];

	if (!s->inject || ctx_async(s, id))
		return;
	if (now >= x->limit_cut_ns + INJECT_RESET_NS) {
		x->base_serv_ns = 0;
		x->inject_limit = 0;
		x->limit_cut_ns = now;
		s->sampling = false;
		s->sampled = NULL;
	}
	if (id != s->svc || now < x->limit_cut_ns + INJECT_SAMPLE_GAP_NS)
		return;
	if (in_driver(s) && !(x->base_serv_ns && s->injected))
		return;
	s->sample_start_ns = now;
	s->sampling = true;
	s->sampled = NULL;
	if (!in_driver(s))
		s->injected = false;
}

/*
 * The sampled request completed, @busy requests in the device counting it
 * (bfq_update_inject_limit()): with injection, a time past 1.5 times the
 * baseline cuts the limit, a shorter one raises it up to the device's
 * depth; the baseline is the shortest time seen alone in the device.
 */
static void inject_update(struct rp_sched *s, struct sched_ctx *x, unsigned int busy, uint64_t now)
{
	uint64_t took = now - s->sample_start_ns;

	if (x->base_serv_ns && s->injected) {
		uint64_t threshold = x->base_serv_ns * 3 / 2;

		if (took >= threshold && x->inject_limit) {
			x->inject_limit--;
			x->limit_cut_ns = now;
		} else if (took < threshold && x->inject_limit <= s->depth) {
			x->inject_limit++;
		}
	}
	if ((!x->base_serv_ns && busy == 1) || took < x->base_serv_ns) {
		if (!x->base_serv_ns && !x->inject_limit)
			x->inject_limit = 1;
		x->base_serv_ns = took;
	} else if (!s->injected && busy == 1) {
		x->base_serv_ns = took;
	}
	s->sampling = false;
	s->sampled = NULL;
	s->injected = false;
}

/* The backlogged context of @c that comes before @id in its list, or NO_CTX. */
static unsigned int busy_before(const struct rp_sched *s, const struct sched_class *c,
				unsigned int id)
{
	unsigned int k, prev = NO_CTX;

	for (k = c->busy_head; k != NO_CTX && k != id; k = s->ctx[k].busy_next)
		prev = k;
	return prev;
}

/*
 * Take the next request: the class, then the context within it (or, with
 * budgets, the context in service while it may go on).  Each is charged at
 * its own level, cost / its own weight.
 */
static struct req *dispatch_next(struct rp_sched *s)
{
	struct sched_class *c;
	struct sched_ctx *x;
	unsigned int id, before;
	struct req *r;
	uint64_t cost;

	if (s->budget && svc_goes_on(s)) {
		id = s->svc;
		c = &s->cls[s->ctx[id].cls];
		before = busy_before(s, c, id);
	} else if (s->budget && svc_idles(s)) {
		c = may_inject(s) ? next_class(s) : NULL;
		if (!c)
			return NULL;
		id = next_ctx(s, c, &before);
		s->injected = true;
	} else {
		if (s->svc != NO_CTX)
			svc_end(s);
		c = next_class(s);
		if (!c)
			return NULL;
		id = next_ctx(s, c, &before);
		s->svc = id;
		s->svc_bytes = 0;
		s->svc_start_ns = rp_clock_now(s->clock);
		s->idle_until_ns = 0;
	}
	x = &s->ctx[id];
	r = x->head;
	x->head = r->next;
	x->dispatched++;
	if (s->sampling && !s->sampled && id == s->svc)
		s->sampled = r;
	if (!x->head) {
		x->tail = NULL;
		busy_unlink(s, c, id, before);
	}
	s->svc_bytes += req_cost(r);
	cost = req_cost(r) * RP_SCHED_WEIGHT_MAX;
	s->vnow[c->cfg.realtime] = c->vtime;
	c->vtime += cost * (c->cfg.charge ? c->cfg.charge : 1) / c->cfg.weight;
	c->vnow = x->vtime;
	x->vtime += cost / x->weight;
	return r;
}

static void account(struct rp_sched_counters *st, const struct req *r)
{
	uint64_t wait = r->start_ns - r->queued_ns;

	switch (r->kind) {
	case REQ_WRITE:
		st->writes[f2fs_dev_tag_kind(r->tag)]++;
		st->write_bytes[f2fs_dev_tag_kind(r->tag)] += r->len;
		st->pending_bytes -= r->len;
		break;
	case REQ_READ:
		st->reads++;
		st->read_bytes += r->len;
		break;
	case REQ_FLUSH:
		st->flushes++;
		break;
	}
	st->wait_ns += wait;
	if (wait > st->max_wait_ns)
		st->max_wait_ns = wait;
	st->service_ns += r->end_ns - r->start_ns;
}

/* Only buffers of the split size are pooled: most writes are split into them. */
static bool pooled_size(const struct rp_sched *s, size_t len)
{
	return s->max_write && len == s->max_write;
}

/* The lock held: a write's buffer goes back to the pool when it fits and there is room. */
static void req_free(struct rp_sched *s, struct req *r)
{
	if (r->kind == REQ_WRITE) {
		if (pooled_size(s, r->len) && s->npool < POOL_MAX)
			s->pool[s->npool++] = r->buf;
		else
			free(r->buf);
	}
	free(r);
}

static void log_request(const struct rp_sched *s, const struct req *r)
{
	static const enum rp_sched_record_kind kinds[] = {
	    [REQ_WRITE] = RP_REC_WRITE, [REQ_READ] = RP_REC_READ, [REQ_FLUSH] = RP_REC_FLUSH};
	struct rp_sched_record rec = {
	    .ctx = r->ctx,
	    .cls = s->ctx[r->ctx].cls,
	    .kind = kinds[r->kind],
	    .tag = r->tag,
	    .off = r->kind == REQ_FLUSH ? 0 : r->off,
	    .len = r->kind == REQ_FLUSH ? 0 : r->len,
	    .queued_ns = r->queued_ns - s->open_ns,
	    .devq_ns = (r->devq_ns ? r->devq_ns : r->start_ns) - s->open_ns,
	    .start_ns = r->start_ns - s->open_ns,
	    .end_ns = r->end_ns - s->open_ns,
	};

	s->log(s->log_arg, &rec);
}

static void complete(struct rp_sched *s, struct req *r)
{
	struct sched_ctx *x = &s->ctx[r->ctx];

	if (s->log)
		log_request(s, r);

	if (r == s->sampled)
		inject_update(s, x, in_driver(s) + 1, rp_clock_now(s->clock));

	account(&x->st, r);
	account(&s->cls[x->cls].st, r);
	s->busy_ns += r->end_ns - r->start_ns;
	if (r->kind == REQ_WRITE)
		range_unmark(&s->pending, r->off, r->len);
	/* a read's error goes to its waiting caller; writes and flushes have nobody */
	if (r->ret && r->kind != REQ_READ) {
		if (!x->err)
			x->err = r->ret;
		if (!s->err)
			s->err = r->ret;
	}
	x->completed++;
	s->completed++;
	if (r->bypass) {
		x->bypass_out--;
	} else {
		x->last_done_ns = rp_clock_now(s->clock);
		if (r->ctx == s->svc && !x->head && !in_flight(x))
			s->idle_until_ns = x->last_done_ns + s->slice_idle_ns;
	}
	if (r->kind == REQ_FLUSH)
		x->flushes_done++;
	slot_give_back(s, r);
	wake_count(s);
	slots_grant(s);
	if (r->waited)
		r->done = true;
	else
		req_free(s, r);
	pthread_cond_broadcast(&s->done);
}

/* ---- the dispatcher ---- */

/* Work a request puts in the byte and the request bucket, in ns. */
static void model_cost(const struct rp_sched_model *m, const struct req *r, uint64_t *bytes_ns,
		       uint64_t *req_ns)
{
	*bytes_ns = m->mbps ? (uint64_t)r->len * 1000u / m->mbps : 0; /* len / (mbps * 10^6) s */
	*req_ns = m->iops ? NS_PER_SEC / m->iops : 0;
}

static uint64_t leak(uint64_t level, uint64_t elapsed)
{
	return level > elapsed ? level - elapsed : 0;
}

/* The head's move to @r (0 without a head model); a merged request's request time is dropped. */
static uint64_t head_cost(struct rp_sched *s, const struct req *r, uint64_t start, uint64_t *req_ns)
{
	uint64_t ns;
	bool merged;

	if (!rp_head_modelled(&s->model))
		return 0;
	ns = rp_head_move(&s->head, &s->model, r->off, r->len, r->queued_ns, start, &merged);
	if (merged)
		*req_ns = 0;
	return ns;
}

/*
 * When the modelled device is done with @r, which reached the head of
 * its queue at @at (struct rp_sched_model); *@start: when it went.
 */
static uint64_t model_done(struct rp_sched *s, const struct req *r, uint64_t at, uint64_t *start)
{
	const struct rp_sched_model *m = &s->model;
	uint64_t burst = (uint64_t)m->burst_ms * 1000000u, lb, lr, cb, cr, over;

	if (at < s->lvl_at)
		at = s->lvl_at;
	lb = leak(s->lvl_bytes, at - s->lvl_at);
	lr = leak(s->lvl_reqs, at - s->lvl_at);
	if (r->kind == REQ_FLUSH) {
		/* a serial device finishes what it holds first; a throttle lets flushes by */
		*start = burst ? at : at + (lb > lr ? lb : lr);
		return *start + (uint64_t)m->flush_ms * 1000000u;
	}
	over = lb > lr ? lb : lr;
	*start = at + (over > burst ? over - burst : 0);
	model_cost(m, r, &cb, &cr);
	s->lvl_bytes = leak(lb, *start - at) + cb;
	s->lvl_reqs = leak(lr, *start - at) + cr;
	s->lvl_at = *start;
	if (burst)
		return *start;
	return *start + head_cost(s, r, *start, &cr) + (cb > cr ? cb : cr);
}

static bool modelled(const struct rp_sched_model *m)
{
	return m->mbps || m->iops || m->flush_ms || m->seek_full_us;
}

static int do_io(struct rp_sched *s, struct req *r)
{
	switch (r->kind) {
	case REQ_WRITE:
		return f2fs_dev_write_tagged(s->lower, r->buf, r->off, r->len, r->tag);
	case REQ_READ:
		return f2fs_dev_read(s->lower, r->buf, r->off, r->len);
	case REQ_FLUSH:
		break;
	}
	return f2fs_dev_flush(s->lower);
}

/*
 * Without the lock: the request is the dispatcher's until complete() runs.
 * Modelled, a request starts when the modelled device is free and the
 * request queued, not when the dispatcher woke up: a backlogged device
 * works back to back on the model's clock, and the host's late wake-ups
 * cost no throughput (the dispatcher catches up by not sleeping).
 */
static void serve(struct rp_sched *s, struct req *r)
{
	uint64_t io_start = rp_clock_now(s->clock), done;

	r->ret = do_io(s, r);
	r->end_ns = rp_clock_now(s->clock);
	r->start_ns = io_start;
	if (modelled(&s->model)) {
		done =
		    model_done(s, r, s->dev_free_ns > r->queued_ns ? s->dev_free_ns : r->queued_ns,
			       &r->start_ns);
		if (done > r->end_ns) {
			r->end_ns = done;
			rp_clock_sleep_until(s->clock, done);
		}
	}
	s->dev_free_ns = r->end_ns;
}

/* Serve until stopped with nothing left queued: closing drains. */
/*
 * The device's own queue: the scheduler decides the order requests enter
 * it, and the device serves what it holds in that order, so a request
 * that arrives behind a full queue waits for all of it.
 */
static void devq_push(struct rp_sched *s, struct req *r)
{
	r->next = NULL;
	r->devq_ns = rp_clock_now(s->clock);
	if (s->devq_tail)
		s->devq_tail->next = r;
	else
		s->devq_head = r;
	s->devq_tail = r;
	s->devq_len++;
}

/*
 * A throttle in front of a fast device (qemu's) holds the writes it has
 * not let through yet, but passes a flush at once: the flush goes before
 * the writes waiting in the device's queue.
 */
static void devq_push_front(struct rp_sched *s, struct req *r)
{
	r->devq_ns = rp_clock_now(s->clock);
	r->next = s->devq_head;
	s->devq_head = r;
	if (!s->devq_tail)
		s->devq_tail = r;
	s->devq_len++;
}

/* Past-the-scheduler requests first (the dispatch list), then the scheduler's picks. */
static void devq_fill(struct rp_sched *s)
{
	struct req *r;

	while (s->devq_len + s->in_service < s->depth && (r = s->bp_head)) {
		s->bp_head = r->next;
		if (!s->bp_head)
			s->bp_tail = NULL;
		s->ctx[r->ctx].dispatched++;
		s->ctx[r->ctx].bypass_out++;
		if (r->kind == REQ_FLUSH && s->model.burst_ms)
			devq_push_front(s, r);
		else
			devq_push(s, r);
	}
	while (s->devq_len + s->in_service < s->depth && (r = dispatch_next(s)))
		devq_push(s, r);
}

static struct req *devq_pop(struct rp_sched *s)
{
	struct req *r = s->devq_head;

	if (r) {
		s->devq_head = r->next;
		if (!s->devq_head)
			s->devq_tail = NULL;
		s->devq_len--;
	}
	return r;
}

/* Nothing to dispatch: sleep until work comes, or until an idling context's time is up. */
static void wait_for_work(struct rp_sched *s)
{
	if (!s->budget || !svc_idles(s)) {
		pthread_cond_wait(&s->work, &s->lock);
		return;
	}
	rp_clock_timedwait(s->clock, &s->work, &s->lock, s->idle_until_ns);
}

/* ---- zone order (zoned devices) ---- */

static bool held_write_of(const struct rp_sched *s, unsigned int ctx, const struct req *upto)
{
	const struct req *h;

	for (h = s->held_head; h && h != upto; h = h->next)
		if (h->kind == REQ_WRITE && h->ctx == ctx)
			return true;
	return false;
}

/* @r may go to the device now: a write at its zone's pointer, a flush with no write of its held. */
static bool zone_ready(const struct rp_sched *s, const struct req *r, const struct req *upto)
{
	if (r->kind == REQ_WRITE)
		return rp_zone_order_ready(s->zones, r->off, r->len);
	if (r->kind == REQ_FLUSH)
		return !held_write_of(s, r->ctx, upto);
	return true;
}

static void held_push(struct rp_sched *s, struct req *r)
{
	r->next = NULL;
	if (s->held_tail)
		s->held_tail->next = r;
	else
		s->held_head = r;
	s->held_tail = r;
	s->nheld++;
	if (r->kind == REQ_WRITE)
		s->zone_held_writes++;
	/*
	 * Nor is it in flight: a context in service that idles for its
	 * requests in the device (svc_idles) must not keep the device for one
	 * that waits for another context's write to its zone
	 */
	s->ctx[r->ctx].dispatched--;
	if (r->bypass)
		s->ctx[r->ctx].bypass_out--;
	/* held, it is not in the device: its slot may serve a request that is */
	slot_give_back(s, r);
	slots_grant(s);
}

static struct req *held_take(struct rp_sched *s, struct req *prev, struct req *r)
{
	if (prev)
		prev->next = r->next;
	else
		s->held_head = r->next;
	if (s->held_tail == r)
		s->held_tail = prev;
	s->nheld--;
	s->ctx[r->ctx].dispatched++;
	if (r->bypass)
		s->ctx[r->ctx].bypass_out++;
	r->next = NULL;
	return r;
}

/* The first held request that may go now, or NULL. */
static struct req *held_ready(struct rp_sched *s)
{
	struct req *r, *prev = NULL;

	for (r = s->held_head; r; prev = r, r = r->next)
		if (zone_ready(s, r, r))
			return held_take(s, prev, r);
	return NULL;
}

/*
 * When every outstanding request is held (nothing queued, nothing in the
 * device), the first held one regardless, which the device then fails:
 * an error, not a hang.
 */
static struct req *held_stuck(struct rp_sched *s)
{
	if (s->held_head && s->queued - s->completed == s->nheld && !s->devq_len)
		return held_take(s, NULL, s->held_head);
	return NULL;
}

/* Whether the dispatcher put @r aside for its zone's order. */
static bool zone_hold(struct rp_sched *s, struct req *r)
{
	if (!s->zones || zone_ready(s, r, NULL))
		return false;
	held_push(s, r);
	return true;
}

static void zone_note_done(struct rp_sched *s, const struct req *r)
{
	if (s->zones && r->kind == REQ_WRITE && !r->ret)
		rp_zone_order_wrote(s->zones, r->off, r->len);
}

static struct req *next_to_serve(struct rp_sched *s)
{
	struct req *r = s->nheld ? held_ready(s) : NULL;

	while (!r) {
		devq_fill(s);
		r = devq_pop(s);
		if (!r)
			return s->nheld ? held_stuck(s) : NULL;
		if (zone_hold(s, r))
			r = NULL;
	}
	return r;
}

static void *dispatcher(void *arg)
{
	struct rp_sched *s = arg;
	struct req *r;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		r = next_to_serve(s);
		if (!r) {
			if (s->stopping && !s->nheld)
				break;
			wait_for_work(s);
			continue;
		}
		s->in_service = true;
		pthread_mutex_unlock(&s->lock);
		serve(s, r);
		pthread_mutex_lock(&s->lock);
		s->in_service = false;
		zone_note_done(s, r);
		complete(s, r);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* ---- the page cache of single blocks ---- */

/*
 * The kernel serves a lookup's dentry block, a node or a NAT block from
 * its page cache; the write path keeps only dirty pages, so it reads them
 * again from the device, and each of those reads would wait behind the
 * device's queue.  Single-block reads and writes therefore pass through a
 * small cache here: a read it holds costs no I/O.  Every write updates or
 * drops the blocks it covers, so the cache never holds stale data.
 */
#define CACHE_SLOTS 4096u /* 16 MiB */

static size_t cache_slot(uint64_t blk)
{
	return (size_t)((blk * 0x9e3779b97f4a7c15ull) >> 52) % CACHE_SLOTS;
}

static bool cache_on(struct rp_sched *s)
{
	if (!s->cache_tag) {
		s->cache_tag = calloc(CACHE_SLOTS, sizeof(*s->cache_tag));
		s->cache_data = malloc((size_t)CACHE_SLOTS << BLK_SHIFT);
		if (!s->cache_tag || !s->cache_data) {
			free(s->cache_tag);
			free(s->cache_data);
			s->cache_tag = NULL;
			s->cache_data = NULL;
		}
	}
	return s->cache_tag != NULL;
}

static bool single_block(uint64_t off, size_t len)
{
	return len == 1u << BLK_SHIFT && !(off & ((1u << BLK_SHIFT) - 1));
}

static void cache_put(struct rp_sched *s, uint64_t blk, const void *data)
{
	size_t i = cache_slot(blk);

	if (!cache_on(s))
		return;
	s->cache_tag[i] = blk + 1;
	memcpy(s->cache_data + (i << BLK_SHIFT), data, 1u << BLK_SHIFT);
}

static bool cache_get(struct rp_sched *s, uint64_t off, size_t len, void *buf)
{
	size_t i = cache_slot(off >> BLK_SHIFT);

	if (!single_block(off, len) || !s->cache_tag || s->cache_tag[i] != (off >> BLK_SHIFT) + 1)
		return false;
	memcpy(buf, s->cache_data + (i << BLK_SHIFT), len);
	return true;
}

/* A write of @len bytes at @off: a single block is cached, longer ones drop what they cover. */
static void cache_write(struct rp_sched *s, uint64_t off, size_t len, const void *data)
{
	uint64_t b;

	s->cache_gen++;
	if (single_block(off, len)) {
		cache_put(s, off >> BLK_SHIFT, data);
		return;
	}
	if (!s->cache_tag)
		return;
	for (b = first_blk(off); b <= last_blk(off, len); b++)
		if (s->cache_tag[cache_slot(b)] == b + 1)
			s->cache_tag[cache_slot(b)] = 0;
}

/* ---- the layer's operations ---- */

static void wait_done(struct rp_sched *s)
{
	pthread_cond_wait(&s->done, &s->lock);
}

/* @id has the cap or more queued. */
static bool over_cap(const struct rp_sched *s, unsigned int id)
{
	return s->ctx[id].st.pending_bytes >= s->cap;
}

static bool write_may_queue(const struct rp_sched *s, uint64_t off, size_t len)
{
	return !s->passthrough && !range_pending(&s->pending, off, len);
}

static struct req *write_req_new(struct rp_sched *s, const void *buf, uint64_t off, size_t len,
				 enum f2fs_dev_tag tag)
{
	struct req *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (pooled_size(s, len)) {
		pthread_mutex_lock(&s->lock);
		if (s->npool)
			r->buf = s->pool[--s->npool];
		pthread_mutex_unlock(&s->lock);
	}
	/* block-aligned, so a lower device opened for direct I/O can take it as it is */
	if (!r->buf && posix_memalign(&r->buf, 1u << BLK_SHIFT, len)) {
		free(r);
		return NULL;
	}
	memcpy(r->buf, buf, len);
	r->kind = REQ_WRITE;
	r->tag = (unsigned int)tag < F2FS_DEV_TAGS ? tag : F2FS_DEV_TAG_NONE;
	r->off = off;
	r->len = len;
	return r;
}

static int queue_write(struct rp_sched *s, const void *buf, uint64_t off, size_t len,
		       enum f2fs_dev_tag tag)
{
	struct req *r = write_req_new(s, buf, off, len, tag);
	unsigned int id;
	int ret;

	if (!r)
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	id = s->current;
	while (!write_may_queue(s, off, len))
		wait_done(s);
	ret = range_mark(&s->pending, off, len);
	if (!ret) {
		cache_write(s, off, len, r->buf);
		submit(s, id, r);
	} else {
		req_free(s, r);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* A write longer than the device takes goes as several requests, as the block layer splits a bio.
 */
static int sched_write(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		       size_t len, enum f2fs_dev_tag tag)
{
	struct rp_sched *s = priv;
	const char *p = buf;
	int ret = 0;

	(void)lower;
	while (!ret && len) {
		size_t n = s->max_write && len > s->max_write ? (size_t)s->max_write : len;

		ret = queue_write(s, p, off, n, tag);
		p += n;
		off += n;
		len -= n;
	}
	return ret;
}

static int sched_read(void *priv, struct f2fs_device *lower, void *buf, uint64_t off, size_t len)
{
	struct rp_sched *s = priv;
	struct req r = {.kind = REQ_READ, .buf = buf, .off = off, .len = len, .waited = true};
	uint64_t gen;

	(void)lower;
	pthread_mutex_lock(&s->lock);
	while (s->passthrough)
		wait_done(s);
	if (cache_get(s, off, len, buf)) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	while (range_pending(&s->pending, off, len))
		wait_done(s);
	gen = s->cache_gen;
	submit(s, s->current, &r);
	while (!r.done)
		wait_done(s);
	/* a write queued meanwhile may be newer than what was read */
	if (!r.ret && single_block(off, len) && s->cache_gen == gen)
		cache_put(s, off >> BLK_SHIFT, buf);
	pthread_mutex_unlock(&s->lock);
	return r.ret;
}

static int sched_flush(void *priv, struct f2fs_device *lower)
{
	struct rp_sched *s = priv;
	struct req marker = {.kind = REQ_FLUSH, .waited = true};
	struct req *r = &marker;
	int ret = 0;

	(void)lower;
	if (s->defer_flush) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return -ENOMEM;
		r->kind = REQ_FLUSH;
	}
	pthread_mutex_lock(&s->lock);
	while (s->passthrough)
		wait_done(s);
	submit(s, s->current, r);
	if (r == &marker) {
		while (!marker.done)
			wait_done(s);
		ret = marker.ret;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Hold new requests back and wait for the queued ones: the lower device is the caller's. */
static void passthrough_begin(struct rp_sched *s)
{
	pthread_mutex_lock(&s->lock);
	while (s->passthrough)
		wait_done(s);
	s->passthrough = true;
	while (s->completed < s->queued)
		wait_done(s);
	if (s->cache_tag) /* zeroing or discarding changes blocks under it */
		memset(s->cache_tag, 0, CACHE_SLOTS * sizeof(*s->cache_tag));
	pthread_mutex_unlock(&s->lock);
}

static void passthrough_end(struct rp_sched *s)
{
	pthread_mutex_lock(&s->lock);
	s->passthrough = false;
	pthread_cond_broadcast(&s->done);
	pthread_mutex_unlock(&s->lock);
}

/* A request that went around the queue may have moved write pointers (a discard resets zones). */
static int zones_reload(struct rp_sched *s, struct f2fs_device *lower)
{
	return s->zones ? rp_zone_order_reload(s->zones, lower) : 0;
}

static int sched_zero(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len)
{
	int ret;

	passthrough_begin(priv);
	ret = f2fs_dev_zero(lower, off, len);
	if (!ret)
		ret = zones_reload(priv, lower);
	passthrough_end(priv);
	return ret;
}

static int sched_discard(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len,
			 bool *reads_zero)
{
	int ret;

	passthrough_begin(priv);
	ret = f2fs_dev_discard(lower, off, len, reads_zero);
	if (!ret)
		ret = zones_reload(priv, lower);
	passthrough_end(priv);
	return ret;
}

/* Count a reset or finish of [off, off + len) that took @ns. */
static void zone_mgmt_count(struct rp_sched *s, enum f2fs_zone_op op, uint64_t n, uint64_t bytes,
			    uint64_t ns)
{
	if (op == F2FS_ZONE_OP_RESET) {
		s->zone_resets += n;
		s->zone_reset_bytes += bytes;
	} else {
		s->zone_finishes += n;
	}
	s->zone_mgmt_ns += ns;
}

/*
 * A zone reset or finish, once every queued write is on the device (a
 * reset must not overtake a write into its zone): it takes the device's
 * own time or the model's zone_reset_ms per zone, whichever is longer, and
 * the modelled device is busy meanwhile.
 */
static int sched_zone_mgmt(void *priv, struct f2fs_device *lower, enum f2fs_zone_op op,
			   uint64_t off, uint64_t len)
{
	struct rp_sched *s = priv;
	uint64_t t0, end, n = 0, bytes = len;
	int ret;

	passthrough_begin(s);
	t0 = rp_clock_now(s->clock);
	if (s->dev_free_ns > t0)
		t0 = s->dev_free_ns;
	if (s->zones)
		n = rp_zone_order_count(s->zones, off, len, &bytes);
	ret = op == F2FS_ZONE_OP_RESET ? f2fs_dev_reset_zones(lower, off, len)
				       : f2fs_dev_finish_zones(lower, off, len);
	end = t0 + n * s->model.zone_reset_ms * 1000000ull;
	if (end > rp_clock_now(s->clock))
		rp_clock_sleep_until(s->clock, end);
	else
		end = rp_clock_now(s->clock);
	if (!ret)
		ret = zones_reload(s, lower);
	pthread_mutex_lock(&s->lock);
	s->dev_free_ns = end;
	if (!ret)
		zone_mgmt_count(s, op, n, bytes, end - t0);
	pthread_mutex_unlock(&s->lock);
	passthrough_end(s);
	return ret;
}

static void stop_dispatcher(struct rp_sched *s)
{
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_signal(&s->work);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->dispatcher, NULL);
}

static void sched_free(struct rp_sched *s)
{
	while (s->npool)
		free(s->pool[--s->npool]);
	rp_zone_order_free(s->zones);
	free(s->cache_tag);
	free(s->cache_data);
	pthread_cond_destroy(&s->done);
	pthread_cond_destroy(&s->work);
	pthread_mutex_destroy(&s->lock);
	free(s->pending.slot);
	free(s->ctx);
	free(s);
}

static void sched_release(void *priv)
{
	stop_dispatcher(priv);
	sched_free(priv);
}

static const struct f2fs_dev_layer_ops sched_ops = {
    .read = sched_read,
    .write_tagged = sched_write,
    .zero = sched_zero,
    .discard = sched_discard,
    .flush = sched_flush,
    .zone_mgmt = sched_zone_mgmt,
    .release = sched_release,
};

/* ---- opening ---- */

static int check_config(const struct rp_sched_config *c)
{
	unsigned int i;

	if (!c->nclasses || c->nclasses > RP_SCHED_MAX_CLASSES ||
	    c->queue_depth > RP_SCHED_MAX_DEPTH || c->model.seek_min_us > c->model.seek_full_us)
		return -EINVAL;
	for (i = 0; i < c->nclasses; i++)
		if (!c->classes[i].weight || c->classes[i].weight > RP_SCHED_WEIGHT_MAX)
			return -EINVAL;
	return 0;
}

static int sync_init(struct rp_sched *s)
{
	int ret = pthread_mutex_init(&s->lock, NULL);

	if (ret)
		return -ret;
	ret = rp_cond_init_monotonic(&s->work);
	if (!ret) {
		ret = pthread_cond_init(&s->done, NULL);
		if (ret)
			pthread_cond_destroy(&s->work);
	}
	if (ret)
		pthread_mutex_destroy(&s->lock);
	return -ret;
}

static void sched_setup(struct rp_sched *s, struct f2fs_device *lower,
			const struct rp_sched_config *c)
{
	unsigned int i;

	s->lower = lower;
	s->clock = c->clock;
	s->model = c->model;
	s->head.span = f2fs_dev_get_info(lower)->size_bytes;
	s->cap = c->ctx_cap_bytes ? c->ctx_cap_bytes : RP_SCHED_DEFAULT_CAP;
	s->defer_flush = c->defer_flush;
	s->flush_bypass = c->flush_bypass;
	s->depth = c->queue_depth > 1 ? c->queue_depth : 1;
	s->max_write = c->max_write_bytes;
	s->slots = c->slots;
	s->async_slots = c->async_slots && c->async_slots < c->slots ? c->async_slots : c->slots;
	s->late_wakeup = c->late_slot_wakeup && c->slots;
	s->wake_rng = c->seed;
	s->slot_wait_head = NO_CTX;
	s->slot_wait_tail = NO_CTX;
	s->budget = c->budget_bytes;
	s->slice_ns = c->slice_ns ? c->slice_ns : UINT64_MAX;
	s->slice_idle_ns = c->slice_idle_ns;
	s->inject = c->inject;
	s->log = c->log;
	s->log_arg = c->log_arg;
	s->svc = NO_CTX;
	s->nclasses = c->nclasses;
	for (i = 0; i < c->nclasses; i++) {
		s->cls[i].cfg = c->classes[i];
		s->cls[i].busy_head = NO_CTX;
		s->cls[i].busy_tail = NO_CTX;
	}
	s->ctx_room = CTX_ROOM;
	s->nctx = 1; /* context 0, class 0: calloc'd */
	s->ctx[0].weight = RP_SCHED_DEFAULT_WEIGHT;
	s->open_ns = rp_clock_now(s->clock);
}

/* A scheduler with its memory and locks, its dispatcher not started. */
static int sched_new(struct f2fs_device *lower, const struct rp_sched_config *c,
		     struct rp_sched **out)
{
	struct rp_sched *s = calloc(1, sizeof(*s));
	int ret = -ENOMEM;

	if (!s)
		return -ENOMEM;
	s->ctx = calloc(CTX_ROOM, sizeof(*s->ctx));
	if (s->ctx && !blkset_init(&s->pending, SET_BITS))
		ret = rp_zone_order_open(lower, &s->zones);
	if (!ret)
		ret = sync_init(s);
	if (ret) {
		rp_zone_order_free(s->zones);
		free(s->pending.slot);
		free(s->ctx);
		free(s);
		return ret;
	}
	sched_setup(s, lower, c);
	*out = s;
	return 0;
}

int rp_sched_open(struct f2fs_device *lower, const struct rp_sched_config *config,
		  struct rp_sched **sched, struct f2fs_device **dev)
{
	struct rp_sched *s;
	int ret;

	*sched = NULL;
	*dev = NULL;
	if (!lower || !config)
		return -EINVAL;
	ret = check_config(config);
	if (!ret)
		ret = sched_new(lower, config, &s);
	if (ret)
		return ret;
	ret = -pthread_create(&s->dispatcher, NULL, dispatcher, s);
	if (ret) {
		sched_free(s);
		return ret;
	}
	ret = f2fs_dev_stack(lower, &sched_ops, s, dev);
	if (ret) {
		stop_dispatcher(s);
		sched_free(s);
		return ret;
	}
	*sched = s;
	return 0;
}

/* ---- contexts, waits, stats ---- */

static int ctx_add(struct rp_sched *s, unsigned int cls)
{
	struct sched_ctx *grown;

	if (s->nctx == s->ctx_room) {
		if (s->ctx_room > (1u << 20))
			return -ENOMEM;
		grown = realloc(s->ctx, 2 * s->ctx_room * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		s->ctx = grown;
		s->ctx_room *= 2;
	}
	memset(&s->ctx[s->nctx], 0, sizeof(*s->ctx));
	s->ctx[s->nctx].cls = cls;
	s->ctx[s->nctx].weight = RP_SCHED_DEFAULT_WEIGHT;
	return (int)s->nctx++;
}

int rp_sched_context_new(struct rp_sched *s, unsigned int cls)
{
	int ret;

	if (cls >= s->nclasses)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	ret = ctx_add(s, cls);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static bool ctx_valid(const struct rp_sched *s, int ctx)
{
	return ctx >= 0 && (unsigned int)ctx < s->nctx;
}

int rp_sched_set_current(struct rp_sched *s, int ctx)
{
	int ret = -EINVAL;

	pthread_mutex_lock(&s->lock);
	if (ctx_valid(s, ctx)) {
		s->current = (unsigned int)ctx;
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int rp_sched_context_set_weight(struct rp_sched *s, int ctx, uint32_t weight)
{
	int ret = -EINVAL;

	if (!weight || weight > RP_SCHED_WEIGHT_MAX)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	if (ctx_valid(s, ctx)) {
		s->ctx[ctx].weight = weight;
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int rp_sched_wait(struct rp_sched *s, int ctx)
{
	uint64_t target;
	int ret = -EINVAL;

	pthread_mutex_lock(&s->lock);
	if (ctx_valid(s, ctx)) {
		target = s->ctx[ctx].queued;
		while (s->ctx[ctx].completed < target)
			wait_done(s);
		ret = s->ctx[ctx].err;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int rp_sched_wait_slots(struct rp_sched *s, int ctx)
{
	int ret = -EINVAL;

	pthread_mutex_lock(&s->lock);
	if (ctx_valid(s, ctx)) {
		while (s->ctx[ctx].slot_head)
			wait_done(s);
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int rp_sched_throttle(struct rp_sched *s, int ctx)
{
	int ret = -EINVAL;

	pthread_mutex_lock(&s->lock);
	if (ctx_valid(s, ctx)) {
		while (over_cap(s, ctx))
			wait_done(s);
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int rp_sched_drain(struct rp_sched *s)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	while (s->completed < s->queued)
		wait_done(s);
	ret = s->err;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void rp_sched_get_stats(struct rp_sched *s, struct rp_sched_stats *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	out->nclasses = s->nclasses;
	out->ncontexts = s->nctx;
	for (i = 0; i < s->nclasses; i++)
		out->classes[i] = s->cls[i].st;
	out->busy_ns = s->busy_ns;
	out->elapsed_ns = rp_clock_now(s->clock) - s->open_ns;
	out->error = s->err;
	out->zone_resets = s->zone_resets;
	out->zone_reset_bytes = s->zone_reset_bytes;
	out->zone_finishes = s->zone_finishes;
	out->zone_mgmt_ns = s->zone_mgmt_ns;
	out->zone_held_writes = s->zone_held_writes;
	out->seeks = s->head.seeks;
	out->seek_ns = s->head.seek_ns;
	out->merged = s->head.merged;
	pthread_mutex_unlock(&s->lock);
}

int rp_sched_context_stats(struct rp_sched *s, int ctx, struct rp_sched_counters *out)
{
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	if (ctx_valid(s, ctx)) {
		*out = s->ctx[ctx].st;
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}
