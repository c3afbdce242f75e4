// SPDX-License-Identifier: GPL-2.0
/*
 * The dirty throttle (lib/replay/throttle.c): no pause below the free-run
 * ceiling, the longest at the limit, a writer that dirtied faster than its
 * rate sleeping the difference, and writers sharing a device settling at
 * its bandwidth between them.
 */
#include "config.h"

#include "../../../lib/replay/replay_internal.h"
#include "test.h"

#define MIB (1024ull * 1024)
#define MS  1000000ull

/* A 16 MiB limit, 4 MiB background: free-run to 10 MiB, setpoint at 13 MiB. */
static struct rp_throttle_in at(uint64_t now, uint64_t dirty, uint64_t written, uint64_t dirtied)
{
	return (struct rp_throttle_in){.now = now,
				       .dirty = dirty,
				       .background = 4 * MIB,
				       .limit = 16 * MIB,
				       .written = written,
				       .dirtied = dirtied};
}

static void test_free_run_and_limit(void)
{
	struct rp_throttle t;
	struct rp_pace pace = {0};
	struct rp_throttle_out out;
	struct rp_throttle_in in = at(1000 * MS, 9 * MIB, 0, 512 * 1024);

	rp_throttle_init(&t);
	rp_throttle_pause(&t, &pace, &in, &out);
	CHECK_EQ_U64(out.pause_ns, 0);
	CHECK(!out.again);
	in = at(1010 * MS, 16 * MIB, 0, 512 * 1024);
	rp_throttle_pause(&t, &pace, &in, &out);
	CHECK(out.again);
	/* an eighth of 16 MiB at the 100 MiB/s guess, and a tick */
	CHECK_EQ_U64(out.pause_ns, 20000000ull + 4 * MS);
	rp_throttle_destroy(&t);
}

/* At the setpoint a writer may dirty the rate limit: twice that in a pause's time owes one more. */
static void test_owed_time(void)
{
	struct rp_throttle t;
	struct rp_pace pace = {0};
	struct rp_throttle_out out;
	struct rp_throttle_in in = at(1000 * MS, 9 * MIB, 0, 0);

	rp_throttle_init(&t);
	t.write_bw = t.ratelimit = 20.0 * MIB;
	t.measured = true;
	rp_throttle_pause(&t, &pace, &in, &out); /* free run: settled at 1 s */
	/* 2 MiB at 20 MiB/s is 100 ms' worth; 50 ms passed: 50 ms owed */
	in = at(1050 * MS, 13 * MIB, 0, 2 * MIB);
	t.stamp_ns = in.now; /* no rate update in this step */
	rp_throttle_pause(&t, &pace, &in, &out);
	CHECK(out.pause_ns > 49 * MS && out.pause_ns < 51 * MS);
	CHECK(!out.again);
	rp_throttle_destroy(&t);
}

/*
 * Eight writers of 512 KiB each on a 20 MiB/s device that keeps ~13 MiB
 * dirty: the rate limit settles near a writer's share, 2.5 MiB/s.
 */
static void test_writers_share_the_bandwidth(void)
{
	struct rp_throttle t;
	struct rp_pace pace[8] = {{0}};
	struct rp_throttle_out out;
	uint64_t now = 1000 * MS, wake[8] = {0}, written = 0, dirty = 13 * MIB, last = now;
	bool owing[8] = {false};
	int i, step;

	rp_throttle_init(&t);
	for (step = 0; step < 20000; step++) {
		uint64_t soonest = UINT64_MAX;
		int w = 0;

		for (i = 0; i < 8; i++)
			if (wake[i] < soonest)
				soonest = wake[i], w = i;
		now = soonest > now ? soonest : now + 1 * MS;
		written += (uint64_t)(20.0 * MIB * (double)(now - last) / 1e9);
		last = now;
		/* a writer owing time looks again without writing, as rp_balance_dirty does */
		struct rp_throttle_in in = at(now, dirty, written, owing[w] ? 0 : 512 * 1024);

		rp_throttle_pause(&t, &pace[w], &in, &out);
		wake[w] = now + out.pause_ns;
		owing[w] = out.again;
		if (now > 60000 * MS)
			break;
	}
	CHECK(t.write_bw > 19.0 * MIB && t.write_bw < 21.0 * MIB);
	CHECK(t.ratelimit > 2.0 * MIB && t.ratelimit < 3.2 * MIB);
	rp_throttle_destroy(&t);
}

int main(void)
{
	RUN(test_free_run_and_limit);
	RUN(test_owed_time);
	RUN(test_writers_share_the_bandwidth);
	TEST_EXIT();
}
