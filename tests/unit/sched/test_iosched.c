// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the replay engine's I/O scheduler (lib/sched/iosched.c)
 * on an in-memory device.  Between the scheduler and the memory sits a
 * recorder layer: it logs each request it passes down, can fail writes to
 * one block, and has a gate that holds the dispatcher inside a request.
 * With the gate closed a test knows which request is in service and which
 * are queued when it submits the next one, so the ordering cases do not
 * depend on timing.  The timing cases (weights, the model's pacing) use
 * short windows and loose bounds, and print what they measured; where a
 * case compares two models it runs them on a stepped clock (clock.h), which
 * only the model moves, and asserts the model's times exactly.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "f2fs/zone.h"
#include "test.h"
#include "f2fs/clock.h"
#include "f2fs/sched.h"

#define BLK	4096u
#define KIB	1024u
#define MIB	(1024u * 1024u)
#define MAX_LOG 256
#define MS	UINT64_C(1000000)

enum rec_kind { REC_WRITE, REC_READ, REC_FLUSH };

struct rec_entry {
	enum rec_kind kind;
	uint64_t off;
	size_t len;
	uint8_t first; /* a write's first byte: which write it was */
};

struct recorder {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool gate_closed;
	bool held; /* the dispatcher waits at the gate */
	bool fail;
	uint64_t fail_blk; /* with fail: writes covering this block fail with -EIO */
	struct rec_entry log[MAX_LOG];
	unsigned int n;
	unsigned int writes, flushes; /* all of them, past the log's end too */
};

/* Wait at the gate, then log the request. */
static void rec_pass(struct recorder *r, enum rec_kind kind, uint64_t off, size_t len,
		     uint8_t first)
{
	pthread_mutex_lock(&r->lock);
	while (r->gate_closed) {
		r->held = true;
		pthread_cond_broadcast(&r->cond);
		pthread_cond_wait(&r->cond, &r->lock);
	}
	r->held = false;
	if (r->n < MAX_LOG)
		r->log[r->n++] = (struct rec_entry){kind, off, len, first};
	r->writes += kind == REC_WRITE;
	r->flushes += kind == REC_FLUSH;
	pthread_mutex_unlock(&r->lock);
}

static int rec_write(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		     size_t len, enum f2fs_dev_tag tag)
{
	struct recorder *r = priv;

	rec_pass(r, REC_WRITE, off, len, *(const uint8_t *)buf);
	if (r->fail && off < (r->fail_blk + 1) * BLK && off + len > r->fail_blk * BLK)
		return -EIO;
	return f2fs_dev_write_tagged(lower, buf, off, len, tag);
}

static int rec_read(void *priv, struct f2fs_device *lower, void *buf, uint64_t off, size_t len)
{
	rec_pass(priv, REC_READ, off, len, 0);
	return f2fs_dev_read(lower, buf, off, len);
}

static int rec_flush(void *priv, struct f2fs_device *lower)
{
	rec_pass(priv, REC_FLUSH, 0, 0, 0);
	return f2fs_dev_flush(lower);
}

static const struct f2fs_dev_layer_ops rec_ops = {
    .read = rec_read,
    .write_tagged = rec_write,
    .flush = rec_flush,
};

static void rec_open_gate(struct recorder *r)
{
	pthread_mutex_lock(&r->lock);
	r->gate_closed = false;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

/* Wait until the dispatcher is held at the gate: one request in service. */
static void rec_wait_held(struct recorder *r)
{
	pthread_mutex_lock(&r->lock);
	while (!r->held)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
}

static unsigned int rec_count(struct recorder *r)
{
	unsigned int n;

	pthread_mutex_lock(&r->lock);
	n = r->n;
	pthread_mutex_unlock(&r->lock);
	return n;
}

/* The log index of the first write of @first at block @blk, or MAX_LOG. */
static unsigned int rec_find(struct recorder *r, enum rec_kind kind, uint64_t blk, uint8_t first)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->log[i].kind == kind && r->log[i].off / BLK == blk &&
		    r->log[i].first == first)
			return i;
	return MAX_LOG;
}

/* A scheduler on a recorder on a memory device. */
struct rig {
	struct f2fs_device *mem; /* alive until rig_close: read it once drained */
	struct f2fs_device *dev;
	struct rp_sched *s;
	struct recorder rec;
};

/* The rig on @mem, which it takes. */
static void rig_open_on(struct rig *g, struct f2fs_device *mem, const struct rp_sched_config *c,
			bool gated)
{
	struct f2fs_device *rec;

	memset(g, 0, sizeof(*g));
	pthread_mutex_init(&g->rec.lock, NULL);
	pthread_cond_init(&g->rec.cond, NULL);
	g->rec.gate_closed = gated;
	g->mem = mem;
	CHECK_EQ_U64(f2fs_dev_stack(g->mem, &rec_ops, &g->rec, &rec), 0);
	CHECK_EQ_U64(rp_sched_open(rec, c, &g->s, &g->dev), 0);
}

static void rig_open(struct rig *g, uint64_t size, const struct rp_sched_config *c, bool gated)
{
	struct f2fs_device *mem = NULL;

	CHECK_EQ_U64(f2fs_dev_open_memory(size, &mem), 0);
	rig_open_on(g, mem, c, gated);
}

/* 4 MiB of host-managed zones of 1 MiB, the first conventional. */
#define ZONE_BLKS (MIB / BLK)
static void rig_open_zoned(struct rig *g, const struct rp_sched_config *c, bool gated)
{
	struct f2fs_memory_zones zp = {.size = 4 * MIB, .zone_bytes = MIB, .nr_conv = 1};
	struct f2fs_device *mem = NULL;

	CHECK_EQ_U64(f2fs_dev_open_memory_zoned(&zp, &mem), 0);
	rig_open_on(g, mem, c, gated);
}

static void rig_close(struct rig *g)
{
	CHECK_EQ_U64(f2fs_dev_close(g->dev), 0);
	pthread_cond_destroy(&g->rec.cond);
	pthread_mutex_destroy(&g->rec.lock);
}

/* @nblk blocks of @byte from block @blk, by context @ctx. */
static int put(struct rig *g, int ctx, uint64_t blk, unsigned int nblk, uint8_t byte,
	       enum f2fs_dev_tag tag)
{
	uint8_t *buf = malloc((size_t)nblk * BLK);
	int ret;

	if (!buf)
		return -ENOMEM;
	memset(buf, byte, (size_t)nblk * BLK);
	ret = rp_sched_set_current(g->s, ctx);
	if (!ret)
		ret = f2fs_dev_write_tagged(g->dev, buf, blk * BLK, (size_t)nblk * BLK, tag);
	free(buf);
	return ret;
}

/* Do @len bytes of @dev at @off all hold @byte? */
static bool holds(struct f2fs_device *dev, uint64_t off, size_t len, uint8_t byte)
{
	uint8_t buf[64 * KIB];
	size_t i;

	if (len > sizeof(buf) || f2fs_dev_read(dev, buf, off, len))
		return false;
	for (i = 0; i < len; i++)
		if (buf[i] != byte)
			return false;
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 * MS + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * (long)MS};

	nanosleep(&ts, NULL);
}

/* Open a gate after a while, from another thread: the test thread is about to block. */
struct opener {
	struct recorder *rec;
	unsigned int ms;
	pthread_t thread;
};

static void *opener_run(void *arg)
{
	struct opener *o = arg;

	sleep_ms(o->ms);
	rec_open_gate(o->rec);
	return NULL;
}

static void open_later(struct opener *o, struct recorder *rec, unsigned int ms)
{
	o->rec = rec;
	o->ms = ms;
	CHECK_EQ_U64(pthread_create(&o->thread, NULL, opener_run, o), 0);
}

static const struct rp_sched_config one_class = {.nclasses = 1, .classes = {{.weight = 100}}};

/* A best-effort class 0 of weight @w0 and a class 1 of weight @w1, realtime or not. */
static struct rp_sched_config two_classes(uint32_t w0, uint32_t w1, bool rt1)
{
	struct rp_sched_config c = {.nclasses = 2};

	c.classes[0].weight = w0;
	c.classes[1].weight = w1;
	c.classes[1].realtime = rt1;
	return c;
}

static void test_write_read_back(void)
{
	struct rig g;
	uint8_t odd[512];

	rig_open(&g, 4 * MIB, &one_class, false);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0x11, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 1, 1, 0x12, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 2, 2, 0x13, F2FS_DEV_TAG_NODE), 0);
	memset(odd, 0x77, sizeof(odd));
	CHECK_EQ_U64(f2fs_dev_write(g.dev, odd, 2 * BLK + 100, sizeof(odd)), 0);
	CHECK(holds(g.dev, 0, BLK, 0x11));
	CHECK(holds(g.dev, 2 * BLK + 100, sizeof(odd), 0x77));
	CHECK(holds(g.dev, 2 * BLK, 100, 0x13));
	CHECK(holds(g.dev, 2 * BLK + 100 + sizeof(odd), BLK, 0x13));
	/* zeroing passes through once the queue is drained */
	CHECK_EQ_U64(f2fs_dev_zero(g.dev, BLK, BLK), 0);
	CHECK(holds(g.dev, BLK, BLK, 0));
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK(holds(g.mem, 3 * BLK, BLK, 0x13));
	CHECK(holds(g.mem, 0, BLK, 0x11));
	rig_close(&g);
}

/* A read of blocks still queued waits for their writes: with a model, so they are queued. */
static void test_read_while_queued_model(void)
{
	struct rp_sched_config c = one_class;
	struct rp_sched_counters st;
	struct rig g;
	unsigned int i;

	c.model.mbps = 100; /* 64 KiB in 0.66 ms: 1 MiB in 10 ms */
	rig_open(&g, 4 * MIB, &c, false);
	for (i = 0; i < 16; i++)
		CHECK_EQ_U64(put(&g, 0, i * 16, 16, (uint8_t)(0x40 + i), F2FS_DEV_TAG_DATA), 0);
	CHECK(holds(g.dev, 15 * 64 * KIB, 64 * KIB, 0x4f));
	/* the read was queued behind the 16 writes, in its context's FIFO */
	CHECK_EQ_U64(rp_sched_context_stats(g.s, 0, &st), 0);
	CHECK_EQ_U64(st.writes[F2FS_DEV_TAG_DATA], 16);
	CHECK_EQ_U64(st.reads, 1);
	rig_close(&g);
}

/* The same, held at the gate: the written blocks are certainly queued when they are read. */
static void test_read_while_queued_gate(void)
{
	struct opener o;
	struct rig g;

	rig_open(&g, 1 * MIB, &one_class, true);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0xa0, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 0, 5, 2, 0xb5, F2FS_DEV_TAG_DATA), 0);
	open_later(&o, &g.rec, 20);
	CHECK(holds(g.dev, 5 * BLK, 2 * BLK, 0xb5)); /* two blocks: not from the cache */
	pthread_join(o.thread, NULL);
	CHECK_EQ_U64(g.rec.n, 3);
	CHECK_EQ_U64(g.rec.log[1].first, 0xb5);
	CHECK_EQ_U64(g.rec.log[2].kind, REC_READ);
	rig_close(&g);
}

/*
 * Per block, writes reach the device in submission order, even when the
 * second one is in a realtime class that would otherwise go first; also
 * for an unaligned write straddling two blocks.
 */
static void test_overlap_order(void)
{
	struct rp_sched_config c = two_classes(1, 100, true);
	uint8_t half[BLK];
	struct opener o;
	struct rig g;
	int rt;

	rig_open(&g, 1 * MIB, &c, true);
	rt = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(rt, 1);
	CHECK_EQ_U64(put(&g, 0, 100, 1, 0x01, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 0, 7, 1, 'A', F2FS_DEV_TAG_DATA), 0);
	memset(half, 'C', sizeof(half));
	CHECK_EQ_U64(f2fs_dev_write(g.dev, half, 10 * BLK + BLK / 2, sizeof(half)), 0);
	open_later(&o, &g.rec, 20);
	CHECK_EQ_U64(put(&g, rt, 7, 1, 'B', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, rt, 11, 1, 'D', F2FS_DEV_TAG_DATA), 0);
	pthread_join(o.thread, NULL);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK(holds(g.mem, 7 * BLK, BLK, 'B'));
	CHECK(holds(g.mem, 11 * BLK, BLK, 'D'));
	CHECK(holds(g.mem, 10 * BLK + BLK / 2, BLK / 2, 'C'));
	CHECK(rec_find(&g.rec, REC_WRITE, 7, 'A') < rec_find(&g.rec, REC_WRITE, 7, 'B'));
	CHECK(rec_find(&g.rec, REC_WRITE, 10, 'C') < rec_find(&g.rec, REC_WRITE, 11, 'D'));
	rig_close(&g);
}

/*
 * A deferred flush returns at once and reaches the device after its own
 * context's earlier writes, but not after another context's: the other
 * context of its class queued a backlog first, and the flush does not wait
 * for it (with one FIFO per class it would be last).
 */
static void test_flush_deferred(void)
{
	struct rp_sched_config c = one_class;
	unsigned int flush, i;
	struct rig g;
	int other;

	c.defer_flush = true;
	rig_open(&g, 1 * MIB, &c, true);
	other = rp_sched_context_new(g.s, 0);
	CHECK_EQ_U64(put(&g, other, 100, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 1; i < 8; i++)
		CHECK_EQ_U64(put(&g, other, 100 + i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 1, 1, 0x01, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 2, 1, 0x02, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	CHECK_EQ_U64(rec_count(&g.rec), 0); /* nothing got past the gate: it did not wait */
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, other), 0);
	CHECK_EQ_U64(g.rec.n, 11);
	flush = rec_find(&g.rec, REC_FLUSH, 0, 0);
	CHECK(rec_find(&g.rec, REC_WRITE, 1, 0x01) < flush);
	CHECK(rec_find(&g.rec, REC_WRITE, 2, 0x02) < flush);
	CHECK(flush < rec_find(&g.rec, REC_WRITE, 107, 0x10));
	rig_close(&g);
}

/* Without deferral a flush returns when it is done, after the writes queued before it. */
static void test_flush_waits(void)
{
	struct rig g;

	rig_open(&g, 1 * MIB, &one_class, false);
	CHECK_EQ_U64(put(&g, 0, 1, 1, 0x01, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 2, 1, 0x02, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	CHECK_EQ_U64(rec_count(&g.rec), 3);
	CHECK_EQ_U64(g.rec.log[0].first, 0x01);
	CHECK_EQ_U64(g.rec.log[1].first, 0x02);
	CHECK_EQ_U64(g.rec.log[2].kind, REC_FLUSH);
	rig_close(&g);
}

/* A realtime class goes before a backlogged best-effort one, whatever the weights. */
static void test_realtime(void)
{
	struct rp_sched_config c = two_classes(RP_SCHED_WEIGHT_MAX, 1, true);
	struct rig g;
	unsigned int i;
	int rt;

	rig_open(&g, 1 * MIB, &c, true);
	rt = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 1; i < 6; i++)
		CHECK_EQ_U64(put(&g, 0, i, 1, (uint8_t)(0x10 + i), F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, rt, 10, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, rt, 11, 1, 0x21, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 8);
	CHECK_EQ_U64(g.rec.log[0].first, 0x10);
	CHECK_EQ_U64(g.rec.log[1].first, 0x20);
	CHECK_EQ_U64(g.rec.log[2].first, 0x21);
	for (i = 1; i < 6; i++)
		CHECK_EQ_U64(g.rec.log[i + 2].first, 0x10 + i);
	rig_close(&g);
}

/*
 * Budgets: a heavy class's context in service keeps the device for its
 * budget (1 MiB: four 256 KiB writes) while a light class's small write
 * waits, where without budgets it goes next; a heavier class's write
 * preempts the turn and goes next; the async charge makes a class's
 * requests count three times.
 */
static unsigned int budget_case(uint64_t budget, bool preemptor)
{
	struct rp_sched_config c = {.nclasses = 3, .budget_bytes = budget, .slice_ns = UINT64_MAX};
	unsigned int i, at;
	struct rig g;
	int heavy, light, pre;

	c.classes[0].weight = 100;
	c.classes[1].weight = 20;
	c.classes[2].weight = 200;
	rig_open(&g, 8 * MIB, &c, true);
	heavy = rp_sched_context_new(g.s, 0);
	light = rp_sched_context_new(g.s, 1);
	pre = rp_sched_context_new(g.s, 2);
	CHECK_EQ_U64(put(&g, heavy, 0, 64, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 1; i < 8; i++)
		CHECK_EQ_U64(put(&g, heavy, i * 64, 64, 0x10, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, preemptor ? pre : light, 1000, 1, 0xcc, F2FS_DEV_TAG_META), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 9);
	at = rec_find(&g.rec, REC_WRITE, 1000, 0xcc);
	rig_close(&g);
	return at;
}

static void test_budget(void)
{
	unsigned int none = budget_case(0, false), light = budget_case(MIB, false),
		     pre = budget_case(MIB, true);

	printf("behind a 100-weight context's 256 KiB writes, a 20-weight class's small write "
	       "is request %u without budgets, %u with 1 MiB budgets; a 200-weight class's %u\n",
	       none + 1, light + 1, pre + 1);
	CHECK(none <= 2);
	CHECK_EQ_U64(light, 4);
	CHECK_EQ_U64(pre, 1);
}

/*
 * Idling: a sync context in service whose queue emptied keeps the device
 * for slice_idle, so its next request, sent at once, goes before the
 * write-back queued meanwhile; sent after the idle time, or with idling
 * off, it comes after.  Returns where the sync context's second write went.
 */
static unsigned int idle_case(uint64_t slice_idle, unsigned int think_ms)
{
	struct rp_sched_config c = {.nclasses = 2, .budget_bytes = 8 * MIB, .slice_ns = UINT64_MAX};
	unsigned int i, at;
	struct rig g;
	int sync, wb;

	/* write-back lighter than the sync class: a heavier one would preempt it */
	c.classes[0].weight = 100;
	c.classes[1].weight = 40;
	c.classes[1].async = true;
	c.slice_idle_ns = slice_idle;
	rig_open(&g, 1 * MIB, &c, true);
	sync = rp_sched_context_new(g.s, 0);
	wb = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, sync, 0, 1, 0x10, F2FS_DEV_TAG_NODE), 0);
	rec_wait_held(&g.rec);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(put(&g, wb, 10 + i, 1, (uint8_t)(0x20 + i), F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_wait(g.s, sync), 0);
	sleep_ms(think_ms);
	CHECK_EQ_U64(put(&g, sync, 1, 1, 0x11, F2FS_DEV_TAG_META), 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 6);
	at = rec_find(&g.rec, REC_WRITE, 1, 0x11);
	rig_close(&g);
	return at;
}

static void test_slice_idle(void)
{
	uint64_t t0 = now_ns(), idled_ns;
	unsigned int idling = idle_case(300 * MS, 0), off, late;

	idled_ns = now_ns() - t0;
	off = idle_case(0, 0);
	late = idle_case(20 * MS, 200);

	printf("a sync context's next write, sent at once after its first: request %u with "
	       "idling, %u without; sent 200 ms later with a 20 ms idle: %u (the idle run took "
	       "%llu ms)\n",
	       idling + 1, off + 1, late + 1, (unsigned long long)(idled_ns / MS));
	CHECK_EQ_U64(idling, 1);
	CHECK(off > 1 && off < MAX_LOG);
	CHECK(late > 1 && late < MAX_LOG);
	/* the write-back waited out the idle time after the second write */
	CHECK(idled_ns >= 300 * MS);
}

/*
 * Injection: a sync context idles in service after its second write (the
 * first one after a reset is not timed; the second, alone in the device,
 * gives the baseline and an inject limit of 1).  Write-back queued then
 * goes to the device one request at a time while it idles; without
 * injection it waits out the idle time.  Returns how long the write-back
 * took, in ms.
 */
static uint64_t inject_case(bool inject)
{
	struct rp_sched_config c = {.nclasses = 2, .budget_bytes = 8 * MIB, .slice_ns = UINT64_MAX};
	unsigned int i;
	uint64_t t0;
	struct rig g;
	int sync, wb;

	c.classes[0].weight = 100;
	c.classes[1].weight = 40;
	c.classes[1].async = true;
	c.slice_idle_ns = 400 * MS;
	c.inject = inject;
	rig_open(&g, 1 * MIB, &c, false);
	sync = rp_sched_context_new(g.s, 0);
	wb = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, sync, 0, 1, 0x10, F2FS_DEV_TAG_NODE), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, sync), 0);
	sleep_ms(20);
	CHECK_EQ_U64(put(&g, sync, 1, 1, 0x11, F2FS_DEV_TAG_NODE), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, sync), 0);
	t0 = now_ns();
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(put(&g, wb, 10 + i, 1, (uint8_t)(0x20 + i), F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, wb), 0);
	t0 = now_ns() - t0;
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 6);
	rig_close(&g);
	return t0 / MS;
}

/*
 * BFQ's wish to preempt: write-back that left service with nothing queued
 * and comes back soon takes the device from a sync context idling in
 * service, unless that context's class is guarded.  Returns how long the
 * returning write-back request took, in ms.
 */
static uint64_t wants_back_case(bool guarded)
{
	struct rp_sched_config c = {.nclasses = 2, .budget_bytes = 8 * MIB, .slice_ns = UINT64_MAX};
	uint64_t t0;
	struct rig g;
	int sync, wb;

	c.classes[0].weight = 100;
	c.classes[0].guarded = guarded;
	c.classes[1].weight = 40;
	c.classes[1].async = true;
	c.slice_idle_ns = 300 * MS;
	rig_open(&g, 1 * MIB, &c, false);
	sync = rp_sched_context_new(g.s, 0);
	wb = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, wb, 10, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, wb), 0);
	CHECK_EQ_U64(put(&g, sync, 0, 1, 0x10, F2FS_DEV_TAG_NODE), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, sync), 0);
	t0 = now_ns();
	CHECK_EQ_U64(put(&g, wb, 11, 1, 0x21, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, wb), 0);
	t0 = now_ns() - t0;
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	rig_close(&g);
	return t0 / MS;
}

static void test_wants_back(void)
{
	uint64_t back = wants_back_case(false), guarded = wants_back_case(true);

	printf("write-back back within 3 x slice_idle while a sync context idles (300 ms): "
	       "%llu ms, %llu ms when the sync context is guarded\n",
	       (unsigned long long)back, (unsigned long long)guarded);
	CHECK(back < 150);
	CHECK(guarded >= 250);
}

static void test_inject(void)
{
	uint64_t on = inject_case(true), off = inject_case(false);

	printf("write-back queued while a sync context idles (400 ms): done in %llu ms with "
	       "injection, %llu ms without\n",
	       (unsigned long long)on, (unsigned long long)off);
	CHECK(on < 200);
	CHECK(off >= 300);
}

static void test_async_charge(void)
{
	struct rp_sched_config c = two_classes(100, 100, false);
	unsigned int i, first_b = 0, served_a = 0;
	struct rig g;

	c.classes[1].charge = 3;
	rig_open(&g, 8 * MIB, &c, true);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 1; i < 40; i++)
		CHECK_EQ_U64(put(&g, 0, i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	for (i = 0; i < 40; i++)
		CHECK_EQ_U64(
		    put(&g, rp_sched_context_new(g.s, 1), 100 + i, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	/* of the first 40 served, equal weights give class 0 three in four */
	for (i = 0; i < 40 && i < g.rec.n; i++) {
		served_a += g.rec.log[i].first == 0x10;
		first_b += g.rec.log[i].first == 0x20;
	}
	printf("equal weights, class 1 charged 3x: %u and %u of the first 40\n", served_a, first_b);
	CHECK(served_a >= 28 && served_a <= 32);
	rig_close(&g);
}

/*
 * A device queue of 4: the requests that entered it while the first was
 * served go before a realtime request that came later; the scheduler's
 * order applies to what waits outside it.
 */
static void test_device_queue(void)
{
	struct rp_sched_config c = two_classes(RP_SCHED_WEIGHT_MAX, 1, true);
	static const uint8_t want[] = {0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x14, 0x15};
	struct rig g;
	unsigned int i;
	int rt;

	c.queue_depth = 4;
	rig_open(&g, 1 * MIB, &c, true);
	rt = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 1; i < 6; i++)
		CHECK_EQ_U64(put(&g, 0, i, 1, (uint8_t)(0x10 + i), F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, rt, 10, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, rt, 11, 1, 0x21, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ_U64(g.rec.log[i].first, want[i]);
	rig_close(&g);
}

/*
 * A class idle while another was served earns no credit: when both are
 * backlogged again with equal weights, they alternate, the idle one does
 * not get the device until it has caught up.
 */
static void test_no_credit_hoarding(void)
{
	struct rp_sched_config c = two_classes(100, 100, false);
	unsigned int i, from_idle = 0;
	struct rig g;
	int idle;

	rig_open(&g, 1 * MIB, &c, false);
	idle = rp_sched_context_new(g.s, 1);
	for (i = 0; i < 8; i++)
		CHECK_EQ_U64(put(&g, 0, i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	pthread_mutex_lock(&g.rec.lock);
	g.rec.gate_closed = true;
	g.rec.n = 0;
	pthread_mutex_unlock(&g.rec.lock);
	CHECK_EQ_U64(put(&g, 0, 8, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(put(&g, idle, 20 + i, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(put(&g, 0, 10 + i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 9);
	for (i = 1; i < 5; i++)
		from_idle += g.rec.log[i].first == 0x20;
	CHECK_EQ_U64(from_idle, 2);
	rig_close(&g);
}

/*
 * Two contexts of one class: one has 4 MiB of 256 KiB writes queued, then
 * the other writes a block and flushes, as a thread commits a checkpoint
 * behind another's streaming writes.  Each context has its own queue, so
 * the small write and its flush are served after a request or two of the
 * backlog, not after all of it.
 */
static void test_small_write_not_behind_backlog(void)
{
	struct rp_sched_config c = one_class;
	unsigned int i, small, flush;
	struct rig g;
	int ckpt;

	c.defer_flush = true;
	rig_open(&g, 8 * MIB, &c, true);
	ckpt = rp_sched_context_new(g.s, 0);
	CHECK_EQ_U64(put(&g, 0, 0, 64, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 1; i < 16; i++)
		CHECK_EQ_U64(put(&g, 0, i * 64, 64, 0x10, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, ckpt, 2000, 1, 0xcc, F2FS_DEV_TAG_META), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_wait(g.s, ckpt), 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 18);
	small = rec_find(&g.rec, REC_WRITE, 2000, 0xcc);
	flush = rec_find(&g.rec, REC_FLUSH, 0, 0);
	printf("behind 16 x 256 KiB of another context: the small write was request %u of 18, "
	       "its flush %u\n",
	       small + 1, flush + 1);
	CHECK(small <= 2);
	CHECK(flush == small + 1);
	rig_close(&g);
}

/*
 * Inside a class, backlogged contexts of weights 100 and 50 with equal
 * requests are served two to one.
 */
static void test_context_weights_order(void)
{
	unsigned int i, from_light = 0;
	struct rig g;
	int light;

	rig_open(&g, 1 * MIB, &one_class, true);
	light = rp_sched_context_new(g.s, 0);
	CHECK_EQ_U64(rp_sched_context_set_weight(g.s, light, 50), 0);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	/* submitted in turns: one FIFO for both would serve them in turns too */
	for (i = 0; i < 6; i++) {
		CHECK_EQ_U64(put(&g, 0, 1 + i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
		CHECK_EQ_U64(put(&g, light, 20 + i, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	}
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 13);
	/* while both were backlogged: the 9 after the one held at the gate */
	for (i = 1; i < 10; i++)
		from_light += g.rec.log[i].first == 0x20;
	CHECK_EQ_U64(from_light, 3);
	rig_close(&g);
}

/*
 * A context idle while another of its class was served earns no credit:
 * once both are backlogged, with equal weights, neither gets more than one
 * request ahead of the other.
 */
static void test_context_no_credit_hoarding(void)
{
	unsigned int i;
	int lead = 0;
	struct rig g;
	int idle;

	rig_open(&g, 1 * MIB, &one_class, false);
	idle = rp_sched_context_new(g.s, 0);
	for (i = 0; i < 8; i++)
		CHECK_EQ_U64(put(&g, 0, i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	pthread_mutex_lock(&g.rec.lock);
	g.rec.gate_closed = true;
	g.rec.n = 0;
	pthread_mutex_unlock(&g.rec.lock);
	CHECK_EQ_U64(put(&g, 0, 8, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(put(&g, idle, 20 + i, 1, 0x20, F2FS_DEV_TAG_DATA), 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(put(&g, 0, 10 + i, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 9);
	for (i = 0; i < g.rec.n; i++) {
		lead += g.rec.log[i].first == 0x20 ? 1 : -1;
		CHECK(lead <= 1 && lead >= -1);
	}
	rig_close(&g);
}

/* An emulated thread keeping its context's queue full, under the engine's big lock. */
struct writer {
	struct rig *g;
	pthread_mutex_t *big;
	int ctx;
	uint64_t base; /* its 4 MiB region */
	atomic_bool *stop;
	int ret;
	pthread_t thread;
};

static void *writer_run(void *arg)
{
	struct writer *w = arg;
	uint8_t *buf = malloc(64 * KIB);
	unsigned int i;

	if (!buf) {
		w->ret = -ENOMEM;
		return NULL;
	}
	memset(buf, w->ctx, 64 * KIB);
	for (i = 0; !w->ret && !atomic_load(w->stop); i++) {
		/* as the engine does: wait for room before taking the lock */
		w->ret = rp_sched_throttle(w->g->s, w->ctx);
		pthread_mutex_lock(w->big);
		if (!w->ret)
			w->ret = rp_sched_set_current(w->g->s, w->ctx);
		if (!w->ret)
			w->ret =
			    f2fs_dev_write(w->g->dev, buf, w->base + (i % 64) * 64 * KIB, 64 * KIB);
		pthread_mutex_unlock(w->big);
	}
	free(buf);
	return NULL;
}

static uint64_t ctx_written(struct rp_sched *s, int ctx)
{
	struct rp_sched_counters st;
	uint64_t sum = 0;
	unsigned int t;

	rp_sched_context_stats(s, ctx, &st);
	for (t = 0; t < RP_SCHED_TAGS; t++)
		sum += st.write_bytes[t];
	return sum;
}

#define WINDOW_MBPS 200 /* the model of the weight tests */
#define MAX_WRITERS 3

/*
 * Run a writer on each context of @ctx (4 MiB of @g each) with the queues
 * full, and count the bytes each context is served in a window of 250 ms,
 * after 30 ms to fill the queues.  Returns the rate served, in MB/s.
 */
static double serve_window(struct rig *g, const int *ctx, unsigned int n, uint64_t *bytes)
{
	pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
	atomic_bool stop = false;
	struct writer w[MAX_WRITERS];
	uint64_t t0, t, sum = 0;
	unsigned int i;

	CHECK(n <= MAX_WRITERS);
	if (n > MAX_WRITERS)
		return 0;
	for (i = 0; i < n; i++) {
		w[i] = (struct writer){
		    .g = g, .big = &big, .stop = &stop, .ctx = ctx[i], .base = i * 4ull * MIB};
		CHECK_EQ_U64(pthread_create(&w[i].thread, NULL, writer_run, &w[i]), 0);
	}
	sleep_ms(30);
	for (i = 0; i < n; i++)
		bytes[i] = ctx_written(g->s, ctx[i]);
	t0 = now_ns();
	sleep_ms(250);
	for (i = 0; i < n; i++)
		bytes[i] = ctx_written(g->s, ctx[i]) - bytes[i];
	t = now_ns() - t0;
	atomic_store(&stop, true);
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		CHECK_EQ_U64(w[i].ret, 0);
		sum += bytes[i];
	}
	CHECK_EQ_U64(rp_sched_drain(g->s), 0);
	pthread_mutex_destroy(&big);
	/* the model caps the rate; a window read between two completions may gain one request */
	CHECK(sum * 1e3 / t <= WINDOW_MBPS * 1.05);
	return sum * 1e3 / t;
}

/*
 * Far below the model, the host could not keep the queues full (an
 * instrumented build, a busy machine): fair queueing then rightly serves
 * whoever is backlogged, and a ratio says nothing.
 */
static bool rate_enough(const char *what, double rate)
{
	if (rate >= WINDOW_MBPS * 0.7)
		return true;
	printf("%s: the host was too slow to keep the queues full: ratio not checked\n", what);
	return false;
}

static bool near(double ratio, double want)
{
	return ratio >= want * 0.7 && ratio <= want * 1.3;
}

static double ratio_of(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* Two classes keep the queue full: bytes served in a window go by the weights, 100:20. */
static void test_weights(void)
{
	struct rp_sched_config c = two_classes(100, 20, false);
	uint64_t bytes[2];
	struct rig g;
	double rate;
	int ctx[2];

	c.model.mbps = WINDOW_MBPS;
	c.ctx_cap_bytes = 1 * MIB;
	rig_open(&g, 8 * MIB, &c, false);
	ctx[0] = 0;
	ctx[1] = rp_sched_context_new(g.s, 1);
	rate = serve_window(&g, ctx, 2, bytes);
	printf("weights 100:20: %.1f MB and %.1f MB served (%.0f MB/s), ratio %.2f\n",
	       bytes[0] / 1e6, bytes[1] / 1e6, rate, ratio_of(bytes[0], bytes[1]));
	if (rate_enough("weights", rate))
		CHECK(near(ratio_of(bytes[0], bytes[1]), 5));
	rig_close(&g);
}

/* Inside one class, contexts of weights 100 and 50 share its service 2:1. */
static void test_context_weights(void)
{
	struct rp_sched_config c = one_class;
	uint64_t bytes[2];
	struct rig g;
	double rate;
	int ctx[2];

	c.model.mbps = WINDOW_MBPS;
	c.ctx_cap_bytes = 1 * MIB;
	rig_open(&g, 8 * MIB, &c, false);
	ctx[0] = 0;
	ctx[1] = rp_sched_context_new(g.s, 0);
	CHECK_EQ_U64(rp_sched_context_set_weight(g.s, ctx[1], 50), 0);
	rate = serve_window(&g, ctx, 2, bytes);
	printf("context weights 100:50 in one class: %.1f MB and %.1f MB served (%.0f MB/s), "
	       "ratio %.2f\n",
	       bytes[0] / 1e6, bytes[1] / 1e6, rate, ratio_of(bytes[0], bytes[1]));
	if (rate_enough("context weights", rate))
		CHECK(near(ratio_of(bytes[0], bytes[1]), 2));
	rig_close(&g);
}

/*
 * Classes of weights 100 and 100, the first with two backlogged contexts,
 * the second with one: the classes still split the device by their
 * weights, half each, and the first class's half goes half to each of its
 * contexts.
 */
static void test_class_split_two_contexts(void)
{
	struct rp_sched_config c = two_classes(100, 100, false);
	uint64_t bytes[3];
	struct rig g;
	double rate;
	int ctx[3];

	c.model.mbps = WINDOW_MBPS;
	c.ctx_cap_bytes = 1 * MIB;
	rig_open(&g, 12 * MIB, &c, false);
	ctx[0] = 0;
	ctx[1] = rp_sched_context_new(g.s, 0);
	ctx[2] = rp_sched_context_new(g.s, 1);
	rate = serve_window(&g, ctx, 3, bytes);
	printf("classes 100:100, two contexts against one: %.1f + %.1f MB against %.1f MB "
	       "(%.0f MB/s), classes %.2f, contexts %.2f\n",
	       bytes[0] / 1e6, bytes[1] / 1e6, bytes[2] / 1e6, rate,
	       ratio_of(bytes[0] + bytes[1], bytes[2]), ratio_of(bytes[0], bytes[1]));
	if (rate_enough("class split", rate)) {
		CHECK(near(ratio_of(bytes[0] + bytes[1], bytes[2]), 1));
		CHECK(near(ratio_of(bytes[0], bytes[1]), 1));
	}
	rig_close(&g);
}

static uint64_t ms_since(uint64_t t0)
{
	return (now_ns() - t0) / MS;
}

/* The model paces: throughput, IOPS and flush time, each the floor of what a request takes. */
static void test_model_pacing(void)
{
	struct rp_sched_config c = one_class;
	struct rp_sched_stats st;
	uint64_t t0, bw, iops, flush;
	struct rig g;
	unsigned int i;

	c.model = (struct rp_sched_model){.mbps = 100, .iops = 1000, .flush_ms = 5};
	rig_open(&g, 8 * MIB, &c, false);
	t0 = now_ns();
	for (i = 0; i < 16; i++) /* 256 KiB at 100 MB/s: 2.6 ms, more than 1 ms of IOPS */
		CHECK_EQ_U64(put(&g, 0, i * 64, 64, 0x5a, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	bw = ms_since(t0);
	t0 = now_ns();
	for (i = 0; i < 20; i++) /* 4 KiB at 1000 IOPS: 1 ms each */
		CHECK_EQ_U64(put(&g, 0, 1024 + i, 1, 0x5b, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	iops = ms_since(t0);
	t0 = now_ns();
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	flush = ms_since(t0);
	rp_sched_get_stats(g.s, &st);
	printf("model: 4 MiB at 100 MB/s in %" PRIu64 " ms, 20 x 4 KiB at 1000 IOPS in %" PRIu64
	       " ms, 2 flushes of 5 ms in %" PRIu64 " ms; busy %" PRIu64 " ms of %" PRIu64 "\n",
	       bw, iops, flush, st.busy_ns / MS, st.elapsed_ns / MS);
	CHECK(bw >= 41); /* 4 MiB is 41.9 MB */
	CHECK(iops >= 20);
	CHECK(flush >= 10);
	CHECK(st.busy_ns >= 71 * MS);
	rig_close(&g);
}

/*
 * Time to write 16 x 256 KiB and 16 x 4 KiB, interleaved, under model @m,
 * on a stepped clock: only the model's sleeps move it, so the time is the
 * model's to the nanosecond however busy the host is.
 */
static uint64_t mixed_ns(const struct rp_sched_model *m)
{
	struct rp_sched_config c = one_class;
	struct rp_clock clock;
	uint64_t t0;
	struct rig g;
	unsigned int i;

	rp_clock_init_stepped(&clock);
	c.model = *m;
	c.clock = &clock;
	rig_open(&g, 8 * MIB, &c, false);
	t0 = rp_clock_now(&clock);
	for (i = 0; i < 16; i++) {
		CHECK_EQ_U64(put(&g, 0, i * 64, 64, 0x5a, F2FS_DEV_TAG_DATA), 0);
		CHECK_EQ_U64(put(&g, 0, 1024 + i, 1, 0x5b, F2FS_DEV_TAG_META), 0);
	}
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	t0 = rp_clock_now(&clock) - t0;
	rig_close(&g);
	return t0;
}

/*
 * A throttle (burst_ms > 0) keeps bytes and requests in separate budgets:
 * small requests between big ones ride on the request budget the big
 * ones leave, where a serial device adds 1 / iops for each.  At 100 MB/s
 * 256 KiB take 2621440 ns and 4 KiB 40960 ns; at 1000 IOPS a request
 * takes 1 ms.  Serial: each 256 KiB its bytes' time, each 4 KiB 1 ms.
 * Throttled: the last request goes (and is done) when the byte bucket,
 * holding the work of all 31 before it, is down to the 1 ms burst.
 */
static void test_model_throttle(void)
{
	struct rp_sched_model serial = {.mbps = 100, .iops = 1000};
	struct rp_sched_model throttle = {.mbps = 100, .iops = 1000, .burst_ms = 1};
	uint64_t ser = mixed_ns(&serial), thr = mixed_ns(&throttle);

	printf("model: 16 x 256 KiB + 16 x 4 KiB at 100 MB/s, 1000 IOPS: serial %" PRIu64
	       " ns, throttle %" PRIu64 " ns\n",
	       ser, thr);
	CHECK_EQ_U64(ser, 16 * 2621440ull + 16 * MS);
	CHECK_EQ_U64(thr, 16 * 2621440ull + 15 * 40960ull - MS);
}

/* Twice the same, step for step: a stepped clock leaves nothing to the host's timing. */
static void test_model_throttle_repeats(void)
{
	struct rp_sched_model throttle = {.mbps = 100, .iops = 1000, .burst_ms = 1};
	uint64_t first = mixed_ns(&throttle);

	CHECK_EQ_U64(mixed_ns(&throttle), first);
}

/* A stepped clock stands still until a sleep moves it, and never moves back. */
static void test_stepped_clock(void)
{
	struct rp_clock c;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cond;

	rp_clock_init_stepped(&c);
	CHECK_EQ_U64(rp_clock_now(&c), RP_CLOCK_STEPPED_START);
	CHECK_EQ_U64(rp_clock_now(&c), RP_CLOCK_STEPPED_START);
	rp_clock_sleep_until(&c, RP_CLOCK_STEPPED_START + 5 * MS);
	CHECK_EQ_U64(rp_clock_now(&c), RP_CLOCK_STEPPED_START + 5 * MS);
	rp_clock_sleep_until(&c, RP_CLOCK_STEPPED_START + MS);
	CHECK_EQ_U64(rp_clock_now(&c), RP_CLOCK_STEPPED_START + 5 * MS);
	/* a timed wait nobody signals runs out, and its time has then passed */
	CHECK_EQ_U64(rp_cond_init_monotonic(&cond), 0);
	pthread_mutex_lock(&m);
	CHECK_EQ_U64(rp_clock_timedwait(&c, &cond, &m, RP_CLOCK_STEPPED_START + 6 * MS), ETIMEDOUT);
	pthread_mutex_unlock(&m);
	CHECK_EQ_U64(rp_clock_now(&c), RP_CLOCK_STEPPED_START + 6 * MS);
	pthread_cond_destroy(&cond);
}

/* Writes longer than max_write_bytes reach the device as several requests. */
static void test_split_writes(void)
{
	struct rp_sched_config c = one_class;
	struct rp_sched_counters st;
	struct rig g;

	c.max_write_bytes = 128 * KIB;
	rig_open(&g, 4 * MIB, &c, false);
	CHECK_EQ_U64(put(&g, 0, 0, 128, 0x11, F2FS_DEV_TAG_DATA), 0);  /* 512 KiB: 4 */
	CHECK_EQ_U64(put(&g, 0, 256, 33, 0x22, F2FS_DEV_TAG_DATA), 0); /* 132 KiB: 2 */
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	CHECK_EQ_U64(rp_sched_context_stats(g.s, 0, &st), 0);
	CHECK_EQ_U64(st.writes[F2FS_DEV_TAG_DATA], 6);
	CHECK_EQ_U64(st.write_bytes[F2FS_DEV_TAG_DATA], 644 * KIB);
	CHECK(holds(g.mem, 0, 64 * KIB, 0x11) && holds(g.mem, 448 * KIB, 64 * KIB, 0x11));
	CHECK(holds(g.mem, 256 * BLK, 64 * KIB, 0x22) &&
	      holds(g.mem, 256 * BLK + 68 * KIB, 64 * KIB, 0x22));
	rig_close(&g);
}

/*
 * A context over its cap: its writes still queue (a caller may hold locks),
 * and rp_sched_throttle() blocks until a request of it completes.
 */
struct waiter {
	struct rp_sched *s;
	int ctx;
	int (*wait)(struct rp_sched *, int);
	atomic_bool returned;
	int ret;
};

static void *waiter_run(void *arg)
{
	struct waiter *w = arg;

	w->ret = w->wait(w->s, w->ctx);
	atomic_store(&w->returned, true);
	return NULL;
}

/* Start @wait(@ctx) in a thread; after 20 ms it must still be blocked. */
static void start_blocked(struct waiter *w, pthread_t *t, struct rp_sched *s, int ctx,
			  int (*wait)(struct rp_sched *, int))
{
	*w = (struct waiter){.s = s, .ctx = ctx, .wait = wait};
	CHECK_EQ_U64(pthread_create(t, NULL, waiter_run, w), 0);
	sleep_ms(20);
	CHECK(!atomic_load(&w->returned));
}

static void test_context_cap(void)
{
	struct rp_sched_config c = one_class;
	struct rp_sched_counters st;
	struct waiter w;
	pthread_t t;
	struct rig g;

	c.ctx_cap_bytes = 64 * KIB;
	rig_open(&g, 1 * MIB, &c, true);
	CHECK_EQ_U64(put(&g, 0, 0, 16, 0x01, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 0, 16, 16, 0x02, F2FS_DEV_TAG_DATA), 0); /* past the cap, at once */
	CHECK_EQ_U64(rp_sched_context_stats(g.s, 0, &st), 0);
	CHECK_EQ_U64(st.pending_bytes, 128 * KIB);
	start_blocked(&w, &t, g.s, 0, rp_sched_throttle);
	rec_open_gate(&g.rec);
	pthread_join(t, NULL);
	CHECK_EQ_U64(w.ret, 0);
	CHECK(ctx_written(g.s, 0) >= 64 * KIB);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), 0);
	CHECK(holds(g.mem, 16 * BLK, 64 * KIB, 0x02));
	rig_close(&g);
}

/* Async writes beyond async_slots wait for a slot; others never do. */
static void test_slots_async(void)
{
	struct rp_sched_config c = two_classes(100, 100, false);
	struct waiter w;
	pthread_t t;
	struct rig g;
	unsigned int i;

	c.classes[1].async = true;
	c.slots = 4;
	c.async_slots = 1;
	rig_open(&g, 1 * MIB, &c, true);
	CHECK_EQ_U64(rp_sched_context_new(g.s, 1), 1);
	for (i = 0; i < 3; i++)
		CHECK_EQ_U64(put(&g, 1, i, 1, (uint8_t)(0x10 + i), F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	for (i = 0; i < 6; i++) /* more than the slots: sync requests take one anyway */
		CHECK_EQ_U64(put(&g, 0, 16 + i, 1, (uint8_t)(0x20 + i), F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait_slots(g.s, 0), 0);
	start_blocked(&w, &t, g.s, 1, rp_sched_wait_slots);
	rec_open_gate(&g.rec);
	pthread_join(t, NULL);
	CHECK_EQ_U64(w.ret, 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK(holds(g.mem, 2 * BLK, BLK, 0x12));
	CHECK_EQ_U64(rp_sched_wait_slots(g.s, 77), -EINVAL);
	rig_close(&g);
}

/*
 * Position among the device's writes of the third write of an async
 * context with two slots, which sleeps for one while a sync write comes:
 * with late_slot_wakeup (seed 4 draws five completions) it wakes only
 * when the device has nothing left, after the sync write; without it, at
 * the completion that frees a slot, and goes before the sync write (its
 * class real-time).
 */
static unsigned int late_wakeup_position(bool late)
{
	struct rp_sched_config c = two_classes(100, 100, true);
	struct rig g;
	unsigned int pos;

	c.classes[1].async = true;
	c.slots = 2;
	c.async_slots = 2;
	c.late_slot_wakeup = late;
	c.seed = 4;
	rig_open(&g, 1 * MIB, &c, true);
	CHECK_EQ_U64(rp_sched_context_new(g.s, 1), 1);
	CHECK_EQ_U64(put(&g, 1, 0, 1, 0xa1, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 1, 1, 1, 0xa2, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 1, 2, 1, 0xa3, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 16, 1, 0xb0, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 4);
	pos = rec_find(&g.rec, REC_WRITE, 2, 0xa3);
	CHECK(holds(g.mem, 2 * BLK, BLK, 0xa3));
	rig_close(&g);
	return pos;
}

/* An async context asleep for a slot wakes some completions late (late_slot_wakeup). */
static void test_slots_late_wakeup(void)
{
	CHECK_EQ_U64(late_wakeup_position(true), 3);
	CHECK_EQ_U64(late_wakeup_position(false), 2);
}

/* Free slots go round the waiting contexts, one request each, in the order they began to wait. */
static void test_slots_round_robin(void)
{
	struct rp_sched_config c = one_class;
	static const uint8_t want[] = {0xa1, 0xa2, 0xb1, 0xa3, 0xb2};
	struct rig g;
	unsigned int i;

	c.classes[0].async = true;
	c.slots = 1;
	rig_open(&g, 1 * MIB, &c, true);
	CHECK_EQ_U64(rp_sched_context_new(g.s, 0), 1);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0xa1, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 0, 1, 1, 0xa2, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 2, 1, 0xa3, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 1, 8, 1, 0xb1, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 1, 9, 1, 0xb2, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK_EQ_U64(g.rec.n, 5);
	for (i = 0; i < 5 && i < g.rec.n; i++)
		CHECK_EQ_U64(g.rec.log[i].first, want[i]);
	rig_close(&g);
}

/* The device saw a write, a flush, then writes whose first bytes are @first[2] and @first[3]. */
static void check_flush_order(const struct rig *g, const uint8_t first[4])
{
	static const enum rec_kind kind[] = {REC_WRITE, REC_FLUSH, REC_WRITE, REC_WRITE};
	unsigned int i;

	CHECK_EQ_U64(g->rec.n, 4);
	for (i = 0; i < 4 && i < g->rec.n; i++) {
		CHECK_EQ_U64(g->rec.log[i].kind, kind[i]);
		if (kind[i] == REC_WRITE)
			CHECK_EQ_U64(g->rec.log[i].first, first[i]);
	}
}

/*
 * A write after a flush of its context waits until the flush is done, so
 * a request of another context goes between them even when the first
 * context's class would go first.
 */
static void test_flush_barrier(void)
{
	struct rp_sched_config c = two_classes(1000, 1, false);
	static const uint8_t first[] = {0xc1, 0, 0xd1, 0xc2};
	struct rig g;

	c.queue_depth = 2;
	c.defer_flush = true;
	rig_open(&g, 1 * MIB, &c, true);
	CHECK_EQ_U64(rp_sched_context_new(g.s, 1), 1);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0xc1, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(rp_sched_set_current(g.s, 0), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	CHECK_EQ_U64(put(&g, 0, 1, 1, 0xc2, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 1, 8, 1, 0xd1, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	check_flush_order(&g, first);
	rig_close(&g);
}

/*
 * With flush_bypass a flush and the write issued behind it (a commit
 * block) go past the scheduler: once the flush is done the write enters
 * the device before another context's write the scheduler holds.
 */
static void test_flush_bypass(void)
{
	struct rp_sched_config c = two_classes(1000, 1, false);
	static const uint8_t first[] = {0xc1, 0, 0xc2, 0xd1};
	struct rig g;

	c.queue_depth = 1;
	c.defer_flush = true;
	c.flush_bypass = true;
	rig_open(&g, 1 * MIB, &c, true);
	CHECK_EQ_U64(rp_sched_context_new(g.s, 1), 1);
	CHECK_EQ_U64(put(&g, 0, 0, 1, 0xc1, F2FS_DEV_TAG_DATA), 0);
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 1, 8, 1, 0xd1, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_set_current(g.s, 0), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	CHECK_EQ_U64(put(&g, 0, 1, 1, 0xc2, F2FS_DEV_TAG_DATA), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	check_flush_order(&g, first);
	rig_close(&g);
}

/* A single-block read of a block written or read before comes from the cache, with no I/O. */
static void test_block_cache(void)
{
	struct rp_sched_counters st;
	struct rig g;

	rig_open(&g, 1 * MIB, &one_class, true);
	CHECK_EQ_U64(put(&g, 0, 3, 1, 0xe3, F2FS_DEV_TAG_META), 0);
	rec_wait_held(&g.rec);
	CHECK(holds(g.dev, 3 * BLK, BLK, 0xe3)); /* the write is still held at the gate */
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(put(&g, 0, 2, 3, 0xe4, F2FS_DEV_TAG_DATA), 0); /* drops block 3 */
	CHECK(holds(g.dev, 3 * BLK, BLK, 0xe4));
	CHECK(holds(g.dev, 3 * BLK, BLK, 0xe4)); /* read once, then cached */
	CHECK_EQ_U64(rp_sched_context_stats(g.s, 0, &st), 0);
	CHECK_EQ_U64(st.reads, 1);
	rig_close(&g);
}

/* An I/O error below comes back from the waits of its context, and stays. */
static void test_io_error(void)
{
	struct rp_sched_config c = two_classes(100, 100, false);
	struct rp_sched_stats st;
	struct rig g;
	int other;

	rig_open(&g, 1 * MIB, &c, false);
	g.rec.fail = true;
	g.rec.fail_blk = 3;
	other = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, 0, 2, 1, 0x02, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 3, 1, 0x03, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 4, 1, 0x04, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, other, 10, 1, 0x10, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), -EIO);
	CHECK_EQ_U64(rp_sched_wait(g.s, 0), -EIO);
	CHECK_EQ_U64(rp_sched_wait(g.s, other), 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), -EIO);
	rp_sched_get_stats(g.s, &st);
	CHECK_EQ_U64(st.error, -EIO);
	CHECK(holds(g.mem, 2 * BLK, BLK, 0x02));
	CHECK(holds(g.mem, 3 * BLK, BLK, 0));
	CHECK(holds(g.mem, 4 * BLK, BLK, 0x04));
	rig_close(&g);
}

/* Closing serves everything still queued before the device below is closed. */
static void test_close_drains(void)
{
	struct rp_sched_config c = one_class;
	struct recorder *rec;
	struct rig g;
	unsigned int i;

	c.model.mbps = 200;
	c.defer_flush = true;
	rig_open(&g, 2 * MIB, &c, false);
	for (i = 0; i < 16; i++)
		CHECK_EQ_U64(put(&g, 0, i * 16, 16, 0x33, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	rec = &g.rec;
	rig_close(&g);
	CHECK_EQ_U64(rec->writes, 16);
	CHECK_EQ_U64(rec->flushes, 1);
	CHECK_EQ_U64(rec->log[16].kind, REC_FLUSH);
}

static uint64_t tag_sum(const uint64_t *by_tag)
{
	uint64_t sum = 0;
	unsigned int t;

	for (t = 0; t < RP_SCHED_TAGS; t++)
		sum += by_tag[t];
	return sum;
}

static void check_class_is_sum(const struct rp_sched_counters *cls,
			       const struct rp_sched_counters *a, const struct rp_sched_counters *b)
{
	unsigned int t;

	for (t = 0; t < RP_SCHED_TAGS; t++) {
		CHECK_EQ_U64(cls->writes[t], a->writes[t] + b->writes[t]);
		CHECK_EQ_U64(cls->write_bytes[t], a->write_bytes[t] + b->write_bytes[t]);
	}
	CHECK_EQ_U64(cls->reads, a->reads + b->reads);
	CHECK_EQ_U64(cls->read_bytes, a->read_bytes + b->read_bytes);
	CHECK_EQ_U64(cls->flushes, a->flushes + b->flushes);
	CHECK_EQ_U64(cls->wait_ns, a->wait_ns + b->wait_ns);
	CHECK_EQ_U64(cls->service_ns, a->service_ns + b->service_ns);
}

/* The counters add up: per tag to the bytes written, per class to its contexts. */
static void test_stats(void)
{
	struct rp_sched_config c = two_classes(100, 50, false);
	struct rp_sched_counters x0, x1, x2, none;
	struct rp_sched_stats st;
	uint8_t buf[2 * BLK];
	struct rig g;
	int c1, c2;

	rig_open(&g, 1 * MIB, &c, false);
	c1 = rp_sched_context_new(g.s, 1);
	c2 = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(put(&g, 0, 0, 2, 1, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 2, 2, 1, F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 4, 1, 1, F2FS_DEV_TAG_NODE), 0);
	CHECK_EQ_U64(put(&g, c1, 5, 1, 1, F2FS_DEV_TAG_META), 0);
	CHECK_EQ_U64(put(&g, c1, 6, 1, 1, F2FS_DEV_TAG_META), 0);
	CHECK_EQ_U64(put(&g, c1, 7, 3, 1, F2FS_DEV_TAG_NONE), 0);
	CHECK_EQ_U64(rp_sched_set_current(g.s, c2), 0);
	CHECK_EQ_U64(f2fs_dev_read(g.dev, buf, 0, sizeof(buf)), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	rp_sched_get_stats(g.s, &st);
	CHECK_EQ_U64(rp_sched_context_stats(g.s, 0, &x0), 0);
	CHECK_EQ_U64(rp_sched_context_stats(g.s, c1, &x1), 0);
	CHECK_EQ_U64(rp_sched_context_stats(g.s, c2, &x2), 0);
	CHECK_EQ_U64(rp_sched_context_stats(g.s, 3, &none), -EINVAL);
	CHECK_EQ_U64(st.ncontexts, 3);
	CHECK_EQ_U64(tag_sum(st.classes[0].write_bytes) + tag_sum(st.classes[1].write_bytes),
		     10 * BLK);
	CHECK_EQ_U64(x0.writes[F2FS_DEV_TAG_DATA], 2);
	CHECK_EQ_U64(x0.write_bytes[F2FS_DEV_TAG_DATA], 4 * BLK);
	CHECK_EQ_U64(x0.write_bytes[F2FS_DEV_TAG_NODE], BLK);
	CHECK_EQ_U64(x1.writes[F2FS_DEV_TAG_META], 2);
	CHECK_EQ_U64(x1.write_bytes[F2FS_DEV_TAG_NONE], 3 * BLK);
	CHECK_EQ_U64(x2.reads, 1);
	CHECK_EQ_U64(x2.read_bytes, 2 * BLK);
	CHECK_EQ_U64(x2.flushes, 1);
	CHECK_EQ_U64(tag_sum(x2.writes), 0);
	check_class_is_sum(&st.classes[1], &x1, &x2);
	CHECK_EQ_U64(st.busy_ns, st.classes[0].service_ns + st.classes[1].service_ns);
	CHECK(st.classes[0].max_wait_ns <= st.classes[0].wait_ns);
	CHECK_EQ_U64(st.classes[0].pending_bytes + st.classes[1].pending_bytes, 0);
	CHECK(st.elapsed_ns >= st.busy_ns);
	rig_close(&g);
}

static void test_bad_arguments(void)
{
	struct rp_sched_config c = two_classes(100, 0, false);
	struct f2fs_device *mem, *dev;
	struct rp_sched *s;

	CHECK_EQ_U64(f2fs_dev_open_memory(1 * MIB, &mem), 0);
	CHECK_EQ_U64(rp_sched_open(mem, &c, &s, &dev), -EINVAL);
	c.classes[1].weight = RP_SCHED_WEIGHT_MAX + 1;
	CHECK_EQ_U64(rp_sched_open(mem, &c, &s, &dev), -EINVAL);
	c.nclasses = 0;
	CHECK_EQ_U64(rp_sched_open(mem, &c, &s, &dev), -EINVAL);
	CHECK(s == NULL && dev == NULL);
	c = two_classes(100, 20, false);
	CHECK_EQ_U64(rp_sched_open(mem, &c, &s, &dev), 0);
	CHECK_EQ_U64(rp_sched_context_new(s, 2), -EINVAL);
	CHECK_EQ_U64(rp_sched_set_current(s, 1), -EINVAL);
	CHECK_EQ_U64(rp_sched_wait(s, -1), -EINVAL);
	CHECK_EQ_U64(rp_sched_throttle(s, 7), -EINVAL);
	CHECK_EQ_U64(rp_sched_context_set_weight(s, 1, 100), -EINVAL);
	CHECK_EQ_U64(rp_sched_context_new(s, 1), 1);
	CHECK_EQ_U64(rp_sched_set_current(s, 1), 0);
	CHECK_EQ_U64(rp_sched_context_set_weight(s, 1, 0), -EINVAL);
	CHECK_EQ_U64(rp_sched_context_set_weight(s, 1, RP_SCHED_WEIGHT_MAX + 1), -EINVAL);
	CHECK_EQ_U64(rp_sched_context_set_weight(s, 1, RP_SCHED_WEIGHT_MAX), 0);
	CHECK_EQ_U64(rp_sched_context_set_weight(s, 0, 1), 0);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
}

/*
 * Two writes into one sequential zone, the second from a realtime context
 * that the scheduler serves first, and a flush of that context after it:
 * the emulated zone would fail the second write before the first, so the
 * dispatcher holds it (and the flush behind it) until the first is done.
 */
static void test_zone_order(void)
{
	struct rp_sched_config c = two_classes(100, 100, true);
	struct rp_sched_stats st;
	unsigned int first, second, flush;
	struct rig g;
	int rt;

	c.defer_flush = true;
	rig_open_zoned(&g, &c, true);
	rt = rp_sched_context_new(g.s, 1);
	CHECK_EQ_U64(rt, 1);
	CHECK_EQ_U64(put(&g, 0, 3, 1, 0x01, F2FS_DEV_TAG_DATA),
		     0); /* conventional: held at the gate */
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, 0, ZONE_BLKS, 2, 'A', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, rt, ZONE_BLKS + 2, 1, 'B', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_set_current(g.s, rt), 0);
	CHECK_EQ_U64(f2fs_dev_flush(g.dev), 0);
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK(holds(g.mem, MIB, 2 * BLK, 'A'));
	CHECK(holds(g.mem, MIB + 2 * BLK, BLK, 'B'));
	first = rec_find(&g.rec, REC_WRITE, ZONE_BLKS, 'A');
	second = rec_find(&g.rec, REC_WRITE, ZONE_BLKS + 2, 'B');
	flush = rec_find(&g.rec, REC_FLUSH, 0, 0);
	CHECK(first < second && second < flush && flush < MAX_LOG);
	rp_sched_get_stats(g.s, &st);
	CHECK_EQ_U64(st.zone_held_writes, 1);
	CHECK_EQ_U64(st.error, 0);
	rig_close(&g);
}

/*
 * With budgets and a long slice_idle, the context in service sends a write
 * that must wait for another context's earlier write to its zone: the held
 * write is not in the device, so the context does not keep the device
 * idling for it and the other context's write goes at once (before, each
 * held write cost a whole idle window).
 */
static void test_zone_hold_no_idle(void)
{
	struct rp_sched_config c = {.nclasses = 1,
				    .classes = {{.weight = 100}},
				    .budget_bytes = 8 * MIB,
				    .slice_ns = UINT64_MAX,
				    .slice_idle_ns = 2000 * MS};
	uint64_t t0, ns;
	struct rig g;
	int a, b;

	c.defer_flush = true;
	rig_open_zoned(&g, &c, true);
	a = rp_sched_context_new(g.s, 0);
	b = rp_sched_context_new(g.s, 0);
	CHECK(a > 0 && b > 0);
	CHECK_EQ_U64(put(&g, a, 3, 1, 0x01, F2FS_DEV_TAG_DATA), 0); /* a is in service */
	rec_wait_held(&g.rec);
	CHECK_EQ_U64(put(&g, a, ZONE_BLKS + 1, 1, 'A', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, b, ZONE_BLKS, 1, 'B', F2FS_DEV_TAG_DATA), 0);
	t0 = now_ns();
	rec_open_gate(&g.rec);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	ns = now_ns() - t0;
	printf("  a held write of the context in service, its zone's earlier write from another: "
	       "%.1f ms (idle window 2000 ms)\n",
	       (double)ns / 1e6);
	CHECK(ns < 1000 * MS);
	CHECK(holds(g.mem, MIB, BLK, 'B') && holds(g.mem, MIB + BLK, BLK, 'A'));
	rig_close(&g);
}

/* A write past a gap in its zone never becomes ready: served anyway, it fails; no hang. */
static void test_zone_gap_fails(void)
{
	struct rig g;

	rig_open_zoned(&g, &one_class, false);
	CHECK_EQ_U64(put(&g, 0, 2 * ZONE_BLKS + 5, 1, 'G', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), -EIO);
	CHECK(holds(g.mem, 2 * MIB + 5 * BLK, BLK, 0));
	rig_close(&g);
}

/*
 * A zone reset through the scheduler waits for the writes queued before it,
 * takes the model's time per zone, is counted, and the zone's order starts
 * over from its beginning.
 */
static void test_zone_reset_counted(void)
{
	struct rp_sched_config c = one_class;
	struct rp_sched_stats st;
	uint64_t t0, ns;
	struct rig g;

	c.model.zone_reset_ms = 10;
	rig_open_zoned(&g, &c, false);
	CHECK_EQ_U64(put(&g, 0, ZONE_BLKS, 4, 'A', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(put(&g, 0, 2 * ZONE_BLKS, 4, 'B', F2FS_DEV_TAG_DATA), 0);
	t0 = now_ns();
	CHECK_EQ_U64(f2fs_dev_reset_zones(g.dev, MIB, 2 * MIB), 0);
	ns = now_ns() - t0;
	CHECK(ns >= 20 * MS);
	CHECK(holds(g.mem, MIB, 4 * BLK, 0));
	CHECK_EQ_U64(f2fs_dev_finish_zones(g.dev, 3 * MIB, MIB), 0);
	/* written again from the start: in order, so nothing is held */
	CHECK_EQ_U64(put(&g, 0, ZONE_BLKS, 1, 'C', F2FS_DEV_TAG_DATA), 0);
	CHECK_EQ_U64(rp_sched_drain(g.s), 0);
	CHECK(holds(g.mem, MIB, BLK, 'C'));
	rp_sched_get_stats(g.s, &st);
	CHECK_EQ_U64(st.zone_resets, 2);
	CHECK_EQ_U64(st.zone_reset_bytes, 2 * MIB);
	CHECK_EQ_U64(st.zone_finishes, 1);
	CHECK(st.zone_mgmt_ns >= 30 * MS);
	CHECK_EQ_U64(st.zone_held_writes, 0);
	printf("  a reset of 2 zones took %.1f ms (model: 10 ms a zone)\n", (double)ns / 1e6);
	rig_close(&g);
}

int main(void)
{
	/* a scheduler that hangs fails the program instead of the whole run */
	alarm(120);
	RUN(test_write_read_back);
	RUN(test_read_while_queued_model);
	RUN(test_read_while_queued_gate);
	RUN(test_overlap_order);
	RUN(test_flush_deferred);
	RUN(test_flush_waits);
	RUN(test_realtime);
	RUN(test_device_queue);
	RUN(test_budget);
	RUN(test_slice_idle);
	RUN(test_inject);
	RUN(test_wants_back);
	RUN(test_async_charge);
	RUN(test_no_credit_hoarding);
	RUN(test_small_write_not_behind_backlog);
	RUN(test_context_weights_order);
	RUN(test_context_no_credit_hoarding);
	RUN(test_weights);
	RUN(test_context_weights);
	RUN(test_class_split_two_contexts);
	RUN(test_model_pacing);
	RUN(test_model_throttle);
	RUN(test_model_throttle_repeats);
	RUN(test_stepped_clock);
	RUN(test_split_writes);
	RUN(test_context_cap);
	RUN(test_slots_async);
	RUN(test_slots_round_robin);
	RUN(test_slots_late_wakeup);
	RUN(test_flush_barrier);
	RUN(test_flush_bypass);
	RUN(test_block_cache);
	RUN(test_io_error);
	RUN(test_close_drains);
	RUN(test_stats);
	RUN(test_zone_order);
	RUN(test_zone_hold_no_idle);
	RUN(test_zone_gap_fails);
	RUN(test_zone_reset_counted);
	RUN(test_bad_arguments);
	TEST_EXIT();
}
