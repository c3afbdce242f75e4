// SPDX-License-Identifier: GPL-2.0
/*
 * The flusher's list of dirty inodes, as the kernel's b_dirty list: each
 * inode once, with when it went from clean to dirty and the class of the
 * thread that dirtied it last.  The list is kept in the order the flusher
 * takes inodes: by the time they were dirtied for expire-ordered
 * write-back, where an inode keeps its place until it is clean, and round
 * robin for FIFO write-back, where an inode goes to the back after its
 * turn.  So the first eligible inode is the one to write, found from the
 * head without sorting; an index by inode number makes noting a write
 * constant time.  A run that dirties 35,000 files (the write-back seed's
 * tree) would otherwise spend its time scanning this list.  Callers hold
 * the engine's big lock.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "replay_internal.h"

#define DIRTY_BUCKETS 4096u

void rp_dirty_free(struct rp_dirty_list *l)
{
	struct rp_dirty *d, *next;

	for (d = l->head; d; d = next) {
		next = d->next;
		free(d);
	}
	free(l->buckets);
	l->buckets = NULL;
	l->head = l->tail = NULL;
	l->count = 0;
}

static struct rp_dirty **bucket(struct rp_dirty_list *l, uint32_t ino)
{
	return &l->buckets[(ino * 2654435761u) % DIRTY_BUCKETS];
}

static struct rp_dirty *find(struct rp_dirty_list *l, uint32_t ino)
{
	struct rp_dirty *d;

	if (!l->buckets)
		return NULL;
	for (d = *bucket(l, ino); d; d = d->hnext)
		if (d->ino == ino)
			return d;
	return NULL;
}

static void link_tail(struct rp_dirty_list *l, struct rp_dirty *d)
{
	d->next = NULL;
	d->prev = l->tail;
	if (l->tail)
		l->tail->next = d;
	else
		l->head = d;
	l->tail = d;
}

static void unlink_entry(struct rp_dirty_list *l, struct rp_dirty *d)
{
	if (d->prev)
		d->prev->next = d->next;
	else
		l->head = d->next;
	if (d->next)
		d->next->prev = d->prev;
	else
		l->tail = d->prev;
}

int rp_dirty_note(struct rp_dirty_list *l, uint32_t ino, uint64_t now, int io_class)
{
	struct rp_dirty *d = find(l, ino), **b;

	if (d) {
		d->io_class = io_class;
		return 0;
	}
	/* the index comes with the first inode: a list starts zeroed */
	if (!l->buckets)
		l->buckets = calloc(DIRTY_BUCKETS, sizeof(*l->buckets));
	d = l->buckets ? calloc(1, sizeof(*d)) : NULL;
	if (!d)
		return -ENOMEM;
	d->ino = ino;
	d->dirtied_ns = now;
	d->io_class = io_class;
	b = bucket(l, ino);
	d->hnext = *b;
	*b = d;
	link_tail(l, d);
	l->count++;
	return 0;
}

void rp_dirty_forget(struct rp_dirty_list *l, uint32_t ino)
{
	struct rp_dirty **p, *d;

	if (!l->buckets)
		return;
	for (p = bucket(l, ino); (d = *p); p = &d->hnext) {
		if (d->ino != ino)
			continue;
		*p = d->hnext;
		unlink_entry(l, d);
		l->count--;
		free(d);
		return;
	}
}

void rp_dirty_requeue(struct rp_dirty_list *l, uint32_t ino, uint64_t now)
{
	struct rp_dirty *d = find(l, ino);

	if (!d)
		return;
	d->dirtied_ns = now;
	if (d != l->tail) {
		unlink_entry(l, d);
		link_tail(l, d);
	}
}

/*
 * The first inode of the list that still has dirty pages (@has_dirty) and
 * is eligible: dirtied @expire_ns ago or more, or any when @background.
 * The clean ones found on the way leave the list.
 */
static struct rp_dirty *first_eligible(struct rp_dirty_list *l, const struct rp_dirty_pick *pk)
{
	struct rp_dirty *d = l->head, *next;

	for (; d; d = next) {
		next = d->next;
		if (!pk->has_dirty(d->ino, pk->arg)) {
			rp_dirty_forget(l, d->ino);
			continue;
		}
		if (pk->background || pk->now - d->dirtied_ns >= pk->expire_ns)
			return d;
		/* in dirtied order, no later inode has expired either */
		if (!pk->round_robin)
			return NULL;
	}
	return NULL;
}

bool rp_dirty_pick(struct rp_dirty_list *l, const struct rp_dirty_pick *pk, uint32_t *ino,
		   int *io_class)
{
	struct rp_dirty *d = first_eligible(l, pk);

	if (!d)
		return false;
	*ino = d->ino;
	*io_class = d->io_class;
	if (pk->round_robin && d != l->tail) {
		unlink_entry(l, d);
		link_tail(l, d);
	}
	return true;
}

bool rp_dirty_first(struct rp_dirty_list *l, bool (*has_dirty)(uint32_t ino, void *arg), void *arg,
		    uint32_t *ino)
{
	struct rp_dirty_pick pk = {.background = true, .has_dirty = has_dirty, .arg = arg};
	int cls;

	return rp_dirty_pick(l, &pk, ino, &cls);
}
