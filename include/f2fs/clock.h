/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay layers' clocks.  The scheduler and the engine read the time,
 * sleep and time their waits through a struct rp_clock their caller hands
 * them (NULL: the host's), so that a test can run them on a clock of its
 * own:
 *  - the host's: CLOCK_MONOTONIC in nanoseconds; a sleep takes that long;
 *  - a stepped clock: time stands still until something sleeps on it, and
 *    a sleep moves it to the sleep's end at once.  A device model's requests
 *    then take exactly what the model says however loaded the host is, for
 *    the clock moves by sleeps and by nothing else.  Sleepers at the same
 *    moment take it to the latest end any of them asked for, so a run on it
 *    is reproducible where one thread at a time moves time (a model's
 *    dispatcher; one emulated thread and the checkpoint thread it waits
 *    for).
 * Timed waits on condition variables take deadlines on the clock.  On a
 * stepped clock such a wait lasts on the host as long as the clock has left
 * to the deadline, and when it runs out the clock moves to the deadline as
 * a sleep's end would: a run stays reproducible only while its timed waits
 * are signalled before they run out.
 */
#ifndef F2FS_CLOCK_H
#define F2FS_CLOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* The host's clock, and a sleep on it until it reaches @ns (at once when it has). */
uint64_t rp_now_ns(void);
void rp_sleep_until(uint64_t ns);

/* pthread_cond_init with CLOCK_MONOTONIC: 0 or pthread's error number. */
int rp_cond_init_monotonic(pthread_cond_t *c);

/* Where a stepped clock starts: 1 s, since the engine takes a time of 0 for "not yet". */
#define RP_CLOCK_STEPPED_START 1000000000ull

struct rp_clock {
	bool stepped;	 /* false: the host's clock */
	uint64_t now_ns; /* a stepped clock's time (read and moved atomically) */
};

/* A stepped clock at RP_CLOCK_STEPPED_START; its owner keeps it alive while it is in use. */
void rp_clock_init_stepped(struct rp_clock *c);

/* The time on @c (NULL: the host's). */
uint64_t rp_clock_now(struct rp_clock *c);

/* Sleep until @c reaches @ns: on a stepped clock, move it there and return. */
void rp_clock_sleep_until(struct rp_clock *c, uint64_t ns);

/*
 * pthread_cond_timedwait() on @cond (made by rp_cond_init_monotonic) and
 * @m (held) until @c reaches @deadline_ns: 0 when signalled (or woken
 * spuriously), ETIMEDOUT when the deadline came.
 */
int rp_clock_timedwait(struct rp_clock *c, pthread_cond_t *cond, pthread_mutex_t *m,
		       uint64_t deadline_ns);

#endif
