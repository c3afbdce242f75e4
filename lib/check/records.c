// SPDX-License-Identifier: GPL-2.0
/*
 * What the walk remembers as it goes: a record per nid (what it is, the
 * entries naming it), a record per directory (its parent, its
 * subdirectories), and a bit per main-area block it has seen owned, each
 * made on first use, so that a volume's unused nids and segments cost
 * nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "context.h"

static size_t dir_slot(const struct dir_rec *t, size_t cap, uint32_t nid)
{
	size_t i = ((size_t)nid * 2654435761u) & (cap - 1);

	while (t[i].nid && t[i].nid != nid)
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow_dirs(struct check_ctx *c)
{
	size_t cap = c->dir_cap ? c->dir_cap * 2 : 1024, i;
	struct dir_rec *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->dir_cap; i++)
		if (c->dirs[i].nid)
			t[dir_slot(t, cap, c->dirs[i].nid)] = c->dirs[i];
	free(c->dirs);
	c->dirs = t;
	c->dir_cap = cap;
	return 0;
}

struct dir_rec *dir_record(struct check_ctx *c, uint32_t nid, bool create)
{
	size_t i;

	if (!nid)
		return NULL;
	if (c->dir_cap) {
		i = dir_slot(c->dirs, c->dir_cap, nid);
		if (c->dirs[i].nid)
			return &c->dirs[i];
	}
	if (!create)
		return NULL;
	if ((c->ndirs + 1) * 4 > c->dir_cap * 3 && grow_dirs(c)) {
		check_fail(c, -ENOMEM);
		return NULL;
	}
	i = dir_slot(c->dirs, c->dir_cap, nid);
	c->dirs[i].nid = nid;
	c->ndirs++;
	return &c->dirs[i];
}

struct nid_rec *nid_record(struct check_ctx *c, uint32_t nid)
{
	struct nid_rec **page;

	if (nid / NID_PAGE >= c->nid_page_count)
		return NULL;
	page = &c->nid_pages[nid / NID_PAGE];
	if (!*page)
		*page = calloc(NID_PAGE, sizeof(**page));
	if (!*page)
		check_fail(c, -ENOMEM);
	return *page ? &(*page)[nid % NID_PAGE] : NULL;
}

int mark_seen(struct check_ctx *c, uint32_t segno, uint32_t off)
{
	uint64_t **chunk = &c->seen_chunks[segno / SEEN_CHUNK_SEGS];
	uint64_t *word, bit = 1ull << (off % 64);

	if (!*chunk) {
		*chunk = calloc(SEEN_CHUNK_WORDS, sizeof(**chunk));
		if (!*chunk) {
			check_fail(c, -ENOMEM);
			return -ENOMEM;
		}
	}
	word = *chunk + (size_t)(segno % SEEN_CHUNK_SEGS) * SEG_WORDS + off / 64;
	if (*word & bit)
		return 1;
	*word |= bit;
	return 0;
}
