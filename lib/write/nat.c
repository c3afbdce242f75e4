// SPDX-License-Identifier: GPL-2.0
/*
 * Node ids and the node address table.  A nid is handed out from the
 * checkpoint's next_free_nid onwards (wrapping) when its NAT entry is free
 * and was not freed since the last checkpoint: like the kernel, which adds
 * a freed nid to its free list only once a checkpoint has recorded it as
 * free.  An allocated nid maps to F2FS_NEW_ADDR until its node is first
 * written.  Freeing a node moves its entry's version on, so a summary entry
 * naming the old version is known stale.
 *
 * At a checkpoint the dirty entries go into the NAT journal when they all
 * fit beside what it holds -- except at unmount with nat_bits, when the
 * journal is emptied into the blocks, as the kernel does (nat_bits describe
 * NAT blocks only, and upstream's fsck takes a NAT journal left at unmount
 * for an unclean shutdown); otherwise the journal is emptied into the dirty
 * set and the NAT blocks with the fewest dirty entries go to the journal
 * while they fit, the rest as whole blocks written to the copy not in use,
 * flipping their bits in the version bitmap (f2fs_flush_nat_entries).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "write_internal.h"

/* NAT entries per block, and in the journal: the volume's block size decides. */
static uint32_t per_block(const struct f2fs_wr *w)
{
	return w->fs->nat->per_block;
}

static uint32_t journal_max(const struct f2fs_wr *w)
{
	return wr_bg(w)->nat_journal_entries;
}

int wr_nat_init(struct f2fs_wr *w)
{
	const struct f2fs_nat_table *t = w->fs->nat;

	w->max_nid = f2fs_nat_max_nid(t);
	w->next_nid = le32_get(f2fs_fs_cp(w->fs)->next_free_nid);
	if (w->next_nid < F2FS_FIRST_INO_RESERVED || w->next_nid >= w->max_nid)
		w->next_nid = F2FS_FIRST_INO_RESERVED;
	w->nat_dirty = calloc(w->max_nid / 8 + 1, 1);
	w->nat_blk_dirty = calloc(f2fs_nat_blocks(t) + 1, sizeof(uint32_t));
	return w->nat_dirty && w->nat_blk_dirty ? 0 : -ENOMEM;
}

void wr_nat_free(struct f2fs_wr *w)
{
	free(w->nat_dirty);
	free(w->nat_blk_dirty);
}

const struct f2fs_nat_info *wr_nat_get(struct f2fs_wr *w, uint32_t nid)
{
	return f2fs_nat_get(w->fs->nat, nid);
}

static void mark_dirty(struct f2fs_wr *w, uint32_t nid)
{
	if (f2fs_test_bit_lsb(w->nat_dirty, nid))
		return;
	f2fs_set_bit_lsb(w->nat_dirty, nid);
	w->nat_blk_dirty[nid / per_block(w)]++;
	w->nat_dirty_count++;
	wr_mark_dirty(w);
}

int wr_nat_set(struct f2fs_wr *w, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	struct f2fs_nat_info *e = f2fs_nat_entry_mut(w->fs->nat, nid);

	if (!e)
		return nid < w->max_nid ? -ENOMEM : -EUCLEAN;
	if (blkaddr == F2FS_NULL_ADDR && e->blkaddr != F2FS_NEW_ADDR)
		e->version++;
	e->ino = ino;
	e->blkaddr = blkaddr;
	mark_dirty(w, nid);
	return 0;
}

static bool nid_takeable(struct f2fs_wr *w, uint32_t nid)
{
	const struct f2fs_nat_info *e = wr_nat_get(w, nid);

	return e && e->blkaddr == F2FS_NULL_ADDR && !f2fs_test_bit_lsb(w->nat_dirty, nid);
}

int wr_nid_alloc(struct f2fs_wr *w, uint32_t ino, uint32_t *nid)
{
	uint32_t n, cand = w->next_nid;

	for (n = 0; n < w->max_nid; n++, cand++) {
		if (cand >= w->max_nid)
			cand = F2FS_FIRST_INO_RESERVED;
		if (cand < F2FS_FIRST_INO_RESERVED || !nid_takeable(w, cand))
			continue;
		w->next_nid = cand + 1;
		*nid = cand;
		return wr_nat_set(w, cand, ino ? ino : cand, F2FS_NEW_ADDR);
	}
	return -ENOSPC;
}

/* ---- at a checkpoint ---- */

static void raw_entry(const struct f2fs_nat_info *e, struct f2fs_nat_entry *raw)
{
	raw->version = e->version;
	raw->ino = le32_put(e->ino);
	raw->block_addr = le32_put(e->blkaddr);
}

/* The journal slot of @nid, or n_nats when it is not there. */
static uint32_t journal_find(const struct f2fs_journal *j, uint32_t nid)
{
	uint32_t i, n = le16_get(j->n_nats);

	for (i = 0; i < n; i++)
		if (le32_get(f2fs_nat_journal_at(j, i)->nid) == nid)
			return i;
	return n;
}

static void journal_put(struct f2fs_wr *w, struct f2fs_journal *j, uint32_t nid)
{
	struct f2fs_nat_info *e = f2fs_nat_entry_mut(w->fs->nat, nid);
	uint32_t i = journal_find(j, nid);
	struct f2fs_nat_journal_entry *je = f2fs_nat_journal_at(j, i);

	if (i == le16_get(j->n_nats))
		j->n_nats = le16_put((uint16_t)(i + 1));
	je->nid = le32_put(nid);
	raw_entry(e, &je->ne);
	e->from_journal = 1;
}

/* Move every journal entry to the dirty set (values are in the table already). */
static void empty_journal(struct f2fs_wr *w, struct f2fs_journal *j)
{
	uint32_t i, n = le16_get(j->n_nats);

	for (i = 0; i < n; i++) {
		uint32_t nid = le32_get(f2fs_nat_journal_at(j, i)->nid);

		if (nid < w->max_nid)
			mark_dirty(w, nid);
	}
	j->n_nats = 0;
}

static int write_nat_block(struct f2fs_wr *w, uint32_t blk)
{
	struct f2fs_nat_table *t = w->fs->nat;
	uint8_t *bitmap = (uint8_t *)w->fs->cpd->nat_bitmap;
	/* the copy no checkpoint refers to (on a new volume, neither: stay in copy 0) */
	int copy = f2fs_test_bit_msb(bitmap, blk) ^ !w->fresh;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_nat_block *nb = (struct f2fs_nat_block *)buf;
	uint32_t i;

	memset(buf, 0, wr_blksize(w));
	for (i = 0; t->blocks[blk] && i < t->per_block; i++) {
		raw_entry(&t->blocks[blk][i], &nb->entries[i]);
		t->blocks[blk][i].from_journal = 0;
	}
	if (copy)
		f2fs_set_bit_msb(bitmap, blk);
	else
		f2fs_clear_bit_msb(bitmap, blk);
	return wr_write_block(w, f2fs_nat_block_addr(w->sb, blk, copy), buf, F2FS_IO_META);
}

struct dirty_block {
	uint32_t blk, count;
};

static int by_count(const void *a, const void *b)
{
	const struct dirty_block *x = a, *y = b;

	return x->count != y->count ? (x->count < y->count ? -1 : 1)
				    : (x->blk < y->blk ? -1 : x->blk > y->blk);
}

static void put_block_in_journal(struct f2fs_wr *w, struct f2fs_journal *j, uint32_t blk)
{
	uint32_t i;

	for (i = 0; i < per_block(w); i++) {
		uint32_t nid = blk * per_block(w) + i;

		if (nid < w->max_nid && f2fs_test_bit_lsb(w->nat_dirty, nid))
			journal_put(w, j, nid);
	}
}

static void clear_dirty(struct f2fs_wr *w)
{
	uint32_t blk, i, nblocks = f2fs_nat_blocks(w->fs->nat);

	for (blk = 0; blk < nblocks; blk++) {
		if (!w->nat_blk_dirty[blk])
			continue;
		for (i = 0; i < per_block(w) && blk * per_block(w) + i < w->max_nid; i++)
			f2fs_clear_bit_lsb(w->nat_dirty, blk * per_block(w) + i);
		w->nat_blk_dirty[blk] = 0;
	}
	w->nat_dirty_count = 0;
}

int wr_nat_flush(struct f2fs_wr *w, bool to_blocks)
{
	struct f2fs_journal *j = &w->fs->cpd->nat_journal;
	uint32_t blk, nblocks = f2fs_nat_blocks(w->fs->nat), ngroups = 0, g;
	struct dirty_block *groups;
	int ret = 0;

	/*
	 * Only when every dirty entry fits beside the journal's (counting those
	 * already in it twice, as the kernel does) may the journal stay: then
	 * every block's set fits too, and no journal entry can go stale behind
	 * a block written below.
	 */
	if (to_blocks || w->nat_dirty_count + le16_get(j->n_nats) > journal_max(w))
		empty_journal(w, j);
	if (!w->nat_dirty_count) {
		w->nat_to_blocks = false;
		return 0;
	}
	groups = malloc(sizeof(*groups) * (w->nat_dirty_count + 1));
	if (!groups)
		return -ENOMEM;
	for (blk = 0; blk < nblocks && ngroups <= w->nat_dirty_count; blk++)
		if (w->nat_blk_dirty[blk])
			groups[ngroups++] = (struct dirty_block){blk, w->nat_blk_dirty[blk]};
	qsort(groups, ngroups, sizeof(*groups), by_count);
	for (g = 0; g < ngroups && !ret; g++) {
		uint32_t room = journal_max(w) - le16_get(j->n_nats);

		if (!to_blocks && groups[g].count <= room)
			put_block_in_journal(w, j, groups[g].blk);
		else
			ret = write_nat_block(w, groups[g].blk);
	}
	free(groups);
	if (!ret) {
		clear_dirty(w);
		w->nat_to_blocks = false;
	}
	return ret;
}

/* nids of NAT block @blk in use (nid 0 counts as used, as the kernel counts it). */
static uint32_t nids_used(const struct f2fs_nat_table *t, uint32_t blk)
{
	uint32_t i, n = blk == 0;

	for (i = 0; t->blocks[blk] && i < t->per_block; i++)
		n += t->blocks[blk][i].blkaddr != F2FS_NULL_ADDR && !(blk == 0 && i == 0);
	return n;
}

void wr_nat_bits(struct f2fs_wr *w, uint8_t *full, uint8_t *empty)
{
	const struct f2fs_nat_table *t = w->fs->nat;
	uint32_t blk, nblocks = f2fs_nat_blocks(t);

	for (blk = 0; blk < nblocks; blk++) {
		uint32_t used = nids_used(t, blk);

		if (used == t->per_block)
			f2fs_set_bit_lsb(full, blk);
		if (used == 0)
			f2fs_set_bit_lsb(empty, blk);
	}
}

/*
 * A new volume: the node and meta inodes' NAT entries point at block 1
 * (upstream's fsck expects them there; the kernel never reads them).
 */
int wr_nat_reserve_meta_inos(struct f2fs_wr *w)
{
	uint32_t inos[2] = {le32_get(w->sb->node_ino), le32_get(w->sb->meta_ino)};
	int i;

	for (i = 0; i < 2; i++) {
		struct f2fs_nat_info *e = f2fs_nat_entry_mut(w->fs->nat, inos[i]);

		if (!e || inos[i] / per_block(w) != 0)
			return -EUCLEAN;
		e->ino = inos[i];
		e->blkaddr = 1;
		mark_dirty(w, inos[i]);
	}
	return 0;
}
