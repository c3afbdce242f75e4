// SPDX-License-Identifier: GPL-2.0
/* The replay layer's monotonic clock (clock.h). */
#include "config.h"

#include <errno.h>
#include <time.h>

#include "f2fs/clock.h"

uint64_t rp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

void rp_sleep_until(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
			      .tv_nsec = (long)(ns % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}
