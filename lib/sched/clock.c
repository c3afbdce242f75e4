// SPDX-License-Identifier: GPL-2.0
/*
 * The replay layers' clocks (clock.h): the host's monotonic clock, and a
 * stepped one that only sleeps move.  A stepped clock's time is one word
 * moved forward with compare-and-swap, so that sleepers on several threads
 * never move it back.
 */
#include "config.h"

#include <errno.h>
#include <time.h>

#include "f2fs/clock.h"

#define NS_PER_SEC 1000000000ull

uint64_t rp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

int rp_cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int ret = pthread_condattr_init(&a);

	if (ret)
		return ret;
	ret = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return ret;
}

static struct timespec host_timespec(uint64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / NS_PER_SEC),
				 .tv_nsec = (long)(ns % NS_PER_SEC)};
}

void rp_sleep_until(uint64_t ns)
{
	struct timespec ts = host_timespec(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void rp_clock_init_stepped(struct rp_clock *c)
{
	c->stepped = true;
	__atomic_store_n(&c->now_ns, RP_CLOCK_STEPPED_START, __ATOMIC_SEQ_CST);
}

uint64_t rp_clock_now(struct rp_clock *c)
{
	if (!c || !c->stepped)
		return rp_now_ns();
	return __atomic_load_n(&c->now_ns, __ATOMIC_SEQ_CST);
}

void rp_clock_sleep_until(struct rp_clock *c, uint64_t ns)
{
	uint64_t now;

	if (!c || !c->stepped) {
		rp_sleep_until(ns);
		return;
	}
	now = __atomic_load_n(&c->now_ns, __ATOMIC_SEQ_CST);
	while (now < ns && !__atomic_compare_exchange_n(&c->now_ns, &now, ns, false,
							__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
}

int rp_clock_timedwait(struct rp_clock *c, pthread_cond_t *cond, pthread_mutex_t *m,
		       uint64_t deadline_ns)
{
	uint64_t now, host_deadline;
	struct timespec ts;
	int ret;

	if (!c || !c->stepped) {
		ts = host_timespec(deadline_ns);
		return pthread_cond_timedwait(cond, m, &ts);
	}
	now = rp_clock_now(c);
	if (now >= deadline_ns)
		return ETIMEDOUT;
	host_deadline = rp_now_ns() + (deadline_ns - now);
	ts = host_timespec(host_deadline);
	ret = pthread_cond_timedwait(cond, m, &ts);
	if (ret == ETIMEDOUT)
		rp_clock_sleep_until(c, deadline_ns);
	return ret;
}
