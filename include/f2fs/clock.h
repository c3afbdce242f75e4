/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay layers' clock: CLOCK_MONOTONIC in nanoseconds, and condition
 * variables whose timed waits take deadlines on it.  The scheduler and the
 * engine both time waits against it, so they share these.
 */
#ifndef F2FS_CLOCK_H
#define F2FS_CLOCK_H

#include <pthread.h>
#include <stdint.h>

uint64_t rp_now_ns(void);

/* Sleep until rp_now_ns() reaches @ns (at once when it has). */
void rp_sleep_until(uint64_t ns);

/* pthread_cond_init with CLOCK_MONOTONIC: 0 or pthread's error number. */
int rp_cond_init_monotonic(pthread_cond_t *c);

#endif
