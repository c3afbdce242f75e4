// SPDX-License-Identifier: GPL-2.0
/*
 * The head of a modelled disk: where the last request left it, what moving
 * it to the next request costs, and which requests the block layer would
 * have merged.  A rotating disk (or an SMR drive, whose zones sit on the
 * same platters) pays for distance: a short seek settles in about a
 * millisecond, a full stroke takes ten or more, growing with the square
 * root of the distance as the arm accelerates and brakes, and after the
 * seek the sector comes round in half a rotation on average.  A request
 * that starts where the previous one ended costs neither; when it was
 * queued while the previous one was still waiting to go, the block layer
 * would have merged the two, so it costs no request time either.  This is
 * what makes write order and extent layout cost time, as they did on the
 * disks of the write-back seed (seed 003).
 */
#include "config.h"

#include "head.h"

bool rp_head_modelled(const struct rp_sched_model *m)
{
	return m->seek_full_us && !m->burst_ms;
}

/* The square root of @x in [0, 1], by Newton's steps: enough for a seek time, and no libm. */
static double root(double x)
{
	double y = 1.0;
	int i;

	if (x <= 0.0)
		return 0.0;
	for (i = 0; i < 24; i++)
		y = (y + x / y) / 2.0;
	return y;
}

static uint64_t seek_ns(const struct rp_sched_model *m, uint64_t distance, uint64_t span)
{
	double frac = span ? (double)distance / (double)span : 1.0;
	double us;

	if (frac > 1.0)
		frac = 1.0;
	us = m->seek_min_us + (double)(m->seek_full_us - m->seek_min_us) * root(frac);
	return (uint64_t)(us * 1000.0) + (uint64_t)m->rotation_us * 500u;
}

uint64_t rp_head_move(struct rp_head *h, const struct rp_sched_model *m, uint64_t off, uint64_t len,
		      uint64_t queued_ns, uint64_t start_ns, bool *merged)
{
	bool in_place = h->placed && off == h->pos;
	uint64_t cost = 0;

	*merged = in_place && m->merge_us &&
		  queued_ns <= h->last_start_ns + (uint64_t)m->merge_us * 1000u;
	if (!in_place) {
		cost = seek_ns(m, off > h->pos ? off - h->pos : h->pos - off, h->span);
		h->seeks++;
		h->seek_ns += cost;
	}
	if (*merged)
		h->merged++;
	else
		h->last_start_ns = start_ns;
	h->placed = true;
	h->pos = off + len;
	return cost;
}
