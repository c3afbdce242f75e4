// SPDX-License-Identifier: GPL-2.0
/*
 * The flusher's dirty list (lib/replay/dirty.c): which inode write-back
 * takes next, by expire time or round robin; clean inodes leaving it; the
 * index finding a listed inode among many.
 */
#include "config.h"

#include <stdlib.h>

#include "../../../lib/replay/replay_internal.h"
#include "test.h"

#define SEC 1000000000ull

/* Inodes listed in @clean have no dirty pages left. */
struct pages {
	uint32_t clean[8];
	unsigned int nclean;
};

static bool has_dirty(uint32_t ino, void *arg)
{
	const struct pages *p = arg;
	unsigned int i;

	for (i = 0; i < p->nclean; i++)
		if (p->clean[i] == ino)
			return false;
	return true;
}

static struct rp_dirty_pick at(uint64_t now, bool background, bool round_robin, struct pages *p)
{
	struct rp_dirty_pick pk = {.now = now,
				   .expire_ns = 30 * SEC,
				   .background = background,
				   .round_robin = round_robin,
				   .has_dirty = has_dirty,
				   .arg = p};

	return pk;
}

static uint32_t pick(struct rp_dirty_list *l, struct rp_dirty_pick pk)
{
	uint32_t ino = 0;
	int cls = -1;

	return rp_dirty_pick(l, &pk, &ino, &cls) ? ino : 0;
}

/* Inodes 10, 11, 12 dirtied at 0, 10 and 20 s. */
static void three(struct rp_dirty_list *l)
{
	CHECK_EQ_U64(rp_dirty_note(l, 10, 0, 0), 0);
	CHECK_EQ_U64(rp_dirty_note(l, 11, 10 * SEC, 0), 0);
	CHECK_EQ_U64(rp_dirty_note(l, 12, 20 * SEC, 1), 0);
}

static void test_expire_takes_the_eldest_until_clean(void)
{
	struct rp_dirty_list l = {0};
	struct pages p = {{0}, 0};

	three(&l);
	/* nothing expired, below the background level: nothing to do */
	CHECK_EQ_U64(pick(&l, at(29 * SEC, false, false, &p)), 0);
	/* expired: the eldest, again and again while it has pages */
	CHECK_EQ_U64(pick(&l, at(35 * SEC, false, false, &p)), 10);
	CHECK_EQ_U64(pick(&l, at(35 * SEC, false, false, &p)), 10);
	p.clean[p.nclean++] = 10;
	/* 11 dirtied at 10 s has not expired at 35 s: nothing, and 10 left the list */
	CHECK_EQ_U64(pick(&l, at(35 * SEC, false, false, &p)), 0);
	CHECK_EQ_U64(l.count, 2);
	CHECK_EQ_U64(pick(&l, at(35 * SEC, true, false, &p)), 11);
	rp_dirty_free(&l);
}

static void test_round_robin_moves_the_taken_to_the_back(void)
{
	struct rp_dirty_list l = {0};
	struct pages p = {{0}, 0};

	three(&l);
	CHECK_EQ_U64(pick(&l, at(0, true, true, &p)), 10);
	CHECK_EQ_U64(pick(&l, at(0, true, true, &p)), 11);
	CHECK_EQ_U64(pick(&l, at(0, true, true, &p)), 12);
	CHECK_EQ_U64(pick(&l, at(0, true, true, &p)), 10);
	/* not background: only expired ones, found past younger ones (11, 12 at 35 s) */
	CHECK_EQ_U64(pick(&l, at(35 * SEC, false, true, &p)), 10);
	CHECK_EQ_U64(pick(&l, at(45 * SEC, false, true, &p)), 11);
	rp_dirty_free(&l);
}

static void test_a_listed_inode_keeps_its_time(void)
{
	struct rp_dirty_list l = {0};
	struct pages p = {{0}, 0};
	uint32_t ino = 0;
	int cls = -1;
	struct rp_dirty_pick pk = at(35 * SEC, false, false, &p);

	three(&l);
	/* written again at 30 s: still dirtied at 0, now by class 1 */
	CHECK_EQ_U64(rp_dirty_note(&l, 10, 30 * SEC, 1), 0);
	CHECK(rp_dirty_pick(&l, &pk, &ino, &cls));
	CHECK_EQ_U64(ino, 10);
	CHECK_EQ_U64(cls, 1);
	/* clean, then dirtied again: a new period */
	rp_dirty_forget(&l, 10);
	CHECK_EQ_U64(rp_dirty_note(&l, 10, 34 * SEC, 0), 0);
	CHECK_EQ_U64(pick(&l, at(35 * SEC, true, false, &p)), 11);
	CHECK_EQ_U64(l.count, 3);
	rp_dirty_free(&l);
}

/* The node inode's turn that wrote nothing: to the back, its expire period anew. */
static void test_requeue_starts_a_new_period(void)
{
	struct rp_dirty_list l = {0};
	struct pages p = {{0}, 0};

	three(&l);
	rp_dirty_requeue(&l, 10, 33 * SEC);
	CHECK_EQ_U64(l.count, 3);
	/* expired at 50 s: 11 and 12 are, 10 (now at 33 s) is not */
	CHECK_EQ_U64(pick(&l, at(50 * SEC, false, false, &p)), 11);
	p.clean[p.nclean++] = 11;
	CHECK_EQ_U64(pick(&l, at(50 * SEC, false, false, &p)), 12);
	p.clean[p.nclean++] = 12;
	CHECK_EQ_U64(pick(&l, at(50 * SEC, false, false, &p)), 0);
	CHECK_EQ_U64(pick(&l, at(63 * SEC, false, false, &p)), 10);
	/* an inode not on the list stays off it */
	rp_dirty_requeue(&l, 99, 50 * SEC);
	CHECK_EQ_U64(l.count, 1);
	rp_dirty_free(&l);
}

static void test_many_inodes(void)
{
	struct rp_dirty_list l = {0};
	struct pages p = {{0}, 0};
	uint32_t i, ino = 0;

	for (i = 1; i <= 50000; i++)
		CHECK_EQ_U64(rp_dirty_note(&l, i, i, 0), 0);
	for (i = 1; i <= 50000; i++)
		CHECK_EQ_U64(rp_dirty_note(&l, i, 0, 0), 0);
	CHECK_EQ_U64(l.count, 50000);
	for (i = 1; i <= 50000; i += 2)
		rp_dirty_forget(&l, i);
	CHECK_EQ_U64(l.count, 25000);
	CHECK(rp_dirty_first(&l, has_dirty, &p, &ino));
	CHECK_EQ_U64(ino, 2);
	rp_dirty_free(&l);
	CHECK_EQ_U64(l.count, 0);
	CHECK(!rp_dirty_first(&l, has_dirty, &p, &ino));
}

int main(void)
{
	RUN(test_expire_takes_the_eldest_until_clean);
	RUN(test_round_robin_moves_the_taken_to_the_back);
	RUN(test_a_listed_inode_keeps_its_time);
	RUN(test_requeue_starts_a_new_period);
	RUN(test_many_inodes);
	TEST_EXIT();
}
