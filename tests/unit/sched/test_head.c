// SPDX-License-Identifier: GPL-2.0
/*
 * The modelled disk head (lib/sched/head.c): what a move costs by
 * distance, that a request where the last one ended costs nothing, and
 * which adjacent requests the merge window joins.
 */
#include "config.h"

#include "../../../lib/sched/head.h"
#include "test.h"

#define GIB (1ull << 30)
#define MS  1000000ull

static const struct rp_sched_model disk = {
    .mbps = 100, .seek_min_us = 1000, .seek_full_us = 17000, .rotation_us = 8000, .merge_us = 500};

static struct rp_head head_at(uint64_t pos)
{
	struct rp_head h = {.span = 100 * GIB, .pos = pos, .placed = true};

	return h;
}

static void test_only_a_head_model_counts(void)
{
	struct rp_sched_model m = disk;

	CHECK(rp_head_modelled(&m));
	m.burst_ms = 100; /* a throttle has no head */
	CHECK(!rp_head_modelled(&m));
	m = disk;
	m.seek_full_us = 0;
	CHECK(!rp_head_modelled(&m));
}

static void test_cost_grows_with_the_root_of_distance(void)
{
	struct rp_head h = head_at(0);
	bool merged;

	/* a full stroke: 17 ms, and half a rotation, 4 ms */
	CHECK_EQ_U64(rp_head_move(&h, &disk, 100 * GIB, 4096, 0, 0, &merged), 21 * MS);
	CHECK(!merged);
	/* a quarter of the way back: 1 + 16 * sqrt(1/4) = 9 ms, and 4 */
	h = head_at(100 * GIB);
	CHECK_EQ_U64(rp_head_move(&h, &disk, 75 * GIB, 4096, 0, 0, &merged), 13 * MS);
	CHECK_EQ_U64(h.seeks, 1);
	CHECK_EQ_U64(h.seek_ns, 13 * MS);
	CHECK_EQ_U64(h.pos, 75 * GIB + 4096);
}

static void test_in_place_costs_nothing(void)
{
	struct rp_head h = head_at(GIB);
	bool merged;

	/* queued long after the last went: no seek, but not merged either */
	CHECK_EQ_U64(rp_head_move(&h, &disk, GIB, 8192, 10 * MS, 10 * MS, &merged), 0);
	CHECK(!merged);
	CHECK_EQ_U64(h.seeks, 0);
}

static void test_merge_window(void)
{
	struct rp_head h = head_at(GIB);
	uint64_t t = 100 * MS; /* long after the head was placed */
	bool merged;

	rp_head_move(&h, &disk, GIB, 4096, t, t + 1 * MS, &merged);
	CHECK(!merged);
	/* adjacent and queued 0.4 ms after the last one went: joined */
	CHECK_EQ_U64(
	    rp_head_move(&h, &disk, GIB + 4096, 4096, t + 1 * MS + 400000, t + 2 * MS, &merged), 0);
	CHECK(merged);
	/* adjacent but queued 0.6 ms after that one went: a request of its own */
	rp_head_move(&h, &disk, GIB + 8192, 4096, t + 1 * MS + 600000, t + 3 * MS, &merged);
	CHECK(!merged);
	/* not adjacent: never merged, whenever it was queued */
	rp_head_move(&h, &disk, 2 * GIB, 4096, t + 3 * MS, t + 3 * MS, &merged);
	CHECK(!merged);
	CHECK_EQ_U64(h.merged, 1);
	CHECK_EQ_U64(h.seeks, 1);
}

static void test_first_request_seeks(void)
{
	struct rp_head h = {.span = GIB};
	bool merged;

	CHECK(rp_head_move(&h, &disk, 0, 4096, 0, 0, &merged) > 0);
	CHECK(h.placed);
}

int main(void)
{
	RUN(test_only_a_head_model_counts);
	RUN(test_cost_grows_with_the_root_of_distance);
	RUN(test_in_place_costs_nothing);
	RUN(test_merge_window);
	RUN(test_first_request_seeks);
	TEST_EXIT();
}
