// SPDX-License-Identifier: GPL-2.0
/*
 * The dirty throttle: how long a writer sleeps after dirtying pages, as the
 * kernel's balance_dirty_pages() paces it (mm/page-writeback.c).
 *
 * Below the free-run ceiling, halfway between the background level and the
 * limit, writers dirty pages freely.  Above it each writer is held to its
 * own rate: the device's write bandwidth shared among the writers (the
 * kernel's dirty_ratelimit, found by feedback: the rate that made the
 * pages dirtied per second match the pages written), scaled by how far the
 * dirty pages are from the setpoint, halfway between the ceiling and the
 * limit (pos_ratio, a cubic: 2 when nothing is dirty, 1 at the setpoint, 0
 * at the limit).  A writer that dirtied more than its rate allows since
 * its last pause sleeps the difference, in pauses no shorter than a
 * minimum (so writers do not wake for every page) and no longer than a
 * maximum (a fraction of the time the device takes to write back what is
 * dirty, at most 200 ms); at the limit it sleeps the maximum and looks
 * again.  So concurrent writers
 * advance together, each with about its share of the dirty pages, and the
 * flusher finds each inode holding that share.  Pure arithmetic on the
 * figures its caller samples: kernel.c sleeps, nothing here does.
 */
#include "config.h"

#include "replay_internal.h"

#define NSEC	       1000000000.0
#define BW_INTERVAL_NS 200000000ull  /* BANDWIDTH_INTERVAL (HZ / 5) */
#define BW_PERIOD_NS   4096000000ull /* the write bandwidth's smoothing: 3 s rounded up in jiffies \
				      */
#define MAX_PAUSE_NS	200000000ull /* MAX_PAUSE (HZ / 5) */
#define TICK_NS		4000000ull   /* a jiffy at HZ 250 (Debian's) */
#define PAUSE_TARGET_NS 10000000ull  /* a lone writer's pause; 10 ms more per doubling of writers  \
				      */
#define INIT_BW	      (100.0 * 1024 * 1024) /* INIT_BW: 100 MiB/s until measured */
#define MIN_RATELIMIT 4096.0		    /* a page a second */

void rp_throttle_init(struct rp_throttle *t)
{
	*t = (struct rp_throttle){.write_bw = INIT_BW, .ratelimit = INIT_BW};
	pthread_mutex_init(&t->mutex, NULL);
}

void rp_throttle_destroy(struct rp_throttle *t)
{
	pthread_mutex_destroy(&t->mutex);
}

static uint64_t freerun_ceiling(const struct rp_throttle_in *in)
{
	return (in->background + in->limit) / 2;
}

/* pos_ratio: 1 + ((setpoint - dirty) / (limit - setpoint))^3, within [0, 2] */
static double position_ratio(const struct rp_throttle_in *in)
{
	uint64_t setpoint = (freerun_ceiling(in) + in->limit) / 2;
	double x, r;

	if (in->dirty >= in->limit)
		return 0;
	x = ((double)setpoint - (double)in->dirty) / ((double)(in->limit - setpoint) + 1);
	r = 1 + x * x * x;
	return r < 0 ? 0 : r > 2 ? 2 : r;
}

/*
 * Every BW_INTERVAL_NS: the device's write bandwidth, smoothed over
 * BW_PERIOD_NS, and while writers are throttled the rate limit that would
 * have balanced the pages dirtied with it, halfway towards which the
 * limit moves.
 */
static void update_rates(struct rp_throttle *t, const struct rp_throttle_in *in, bool throttled,
			 double pos)
{
	uint64_t elapsed = in->now - t->stamp_ns;
	double written, dirtied, balanced;

	if (!t->stamp_ns || in->written < t->written_stamp) {
		t->stamp_ns = in->now;
		t->written_stamp = in->written;
		t->dirtied_stamp = t->dirtied;
		return;
	}
	if (elapsed < BW_INTERVAL_NS)
		return;
	written = (double)(in->written - t->written_stamp) * NSEC / (double)elapsed;
	if (elapsed >= BW_PERIOD_NS || !t->measured)
		t->write_bw = written;
	else
		t->write_bw =
		    (t->write_bw * (double)(BW_PERIOD_NS - elapsed) + written * (double)elapsed) /
		    (double)BW_PERIOD_NS;
	if (t->write_bw < MIN_RATELIMIT)
		t->write_bw = MIN_RATELIMIT;
	dirtied = (double)(t->dirtied - t->dirtied_stamp) * NSEC / (double)elapsed;
	if (throttled && dirtied > 0) {
		/* at the limit (pos 0) it falls: writers dirtied faster than the device wrote */
		balanced = t->ratelimit * pos * t->write_bw / dirtied;
		t->ratelimit = (t->ratelimit + balanced) / 2;
		if (t->ratelimit > t->write_bw)
			t->ratelimit = t->write_bw;
		if (t->ratelimit < MIN_RATELIMIT)
			t->ratelimit = MIN_RATELIMIT;
	}
	t->measured = true;
	t->stamp_ns = in->now;
	t->written_stamp = in->written;
	t->dirtied_stamp = t->dirtied;
}

/* wb_max_pause: about an eighth of the time to write back what is dirty, a tick more, <= 200 ms */
static uint64_t max_pause(const struct rp_throttle *t, const struct rp_throttle_in *in)
{
	uint64_t p = (uint64_t)((double)in->dirty / t->write_bw * NSEC / 8) + TICK_NS;

	return p < MAX_PAUSE_NS ? p : MAX_PAUSE_NS;
}

/*
 * wb_min_pause: half a target pause that grows by 10 ms each time the
 * writers sharing the bandwidth double (fewer, longer pauses for many
 * writers), at most about half the maximum.
 */
static uint64_t min_pause(const struct rp_throttle *t, uint64_t max)
{
	double sharers = t->write_bw / t->ratelimit;
	uint64_t target = PAUSE_TARGET_NS, cap = TICK_NS + max / 2;

	for (; sharers >= 2 && target < MAX_PAUSE_NS; sharers /= 2)
		target += PAUSE_TARGET_NS;
	if (target > cap)
		target = cap;
	return target / 2;
}

/*
 * Sleep @pause, at most @max at once: the engine's writer dirties a whole
 * write where the kernel's pauses every few pages, so what it owes beyond
 * the maximum it sleeps in further pauses (out->again), looking at the
 * dirty pages between them, rather than being let off as the kernel lets
 * off a task that overran its few pages.
 */
static void pause_for(struct rp_pace *pace, struct rp_throttle_out *out, uint64_t now,
		      uint64_t pause, uint64_t max)
{
	out->pause_ns = pause < max ? pause : max;
	out->again = pause > max;
	pace->paused_when = now + pause;
	pace->dirtied = 0;
}

void rp_throttle_pause(struct rp_throttle *t, struct rp_pace *pace, const struct rp_throttle_in *in,
		       struct rp_throttle_out *out)
{
	double pos, rate;
	uint64_t maxp, minp, period;
	int64_t pause;

	*out = (struct rp_throttle_out){0};
	pthread_mutex_lock(&t->mutex);
	t->dirtied += in->dirtied;
	pace->dirtied += in->dirtied;
	pos = position_ratio(in);
	update_rates(t, in, in->dirty > freerun_ceiling(in), pos);
	if (in->dirty <= freerun_ceiling(in)) {
		pace->paused_when = in->now;
		pace->dirtied = 0;
		goto out;
	}
	maxp = max_pause(t, in);
	if (pos == 0) {
		out->again = true;
		out->pause_ns = maxp;
		pace->paused_when = in->now + maxp;
		pace->dirtied = 0;
		goto out;
	}
	rate = t->ratelimit * pos;
	period = (uint64_t)((double)pace->dirtied * NSEC / rate);
	pause = (int64_t)period - ((int64_t)in->now - (int64_t)pace->paused_when);
	minp = min_pause(t, maxp);
	if (pause < (int64_t)minp) {
		/* too short to sleep: the pages' time is spent, or owed until the next look */
		if (pause < -(int64_t)(NSEC)) {
			pace->paused_when = in->now;
			pace->dirtied = 0;
		} else if (period) {
			pace->paused_when += period;
			pace->dirtied = 0;
		}
		goto out;
	}
	pause_for(pace, out, in->now, (uint64_t)pause, maxp);
out:
	pthread_mutex_unlock(&t->mutex);
}
