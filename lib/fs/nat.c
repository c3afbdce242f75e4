// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the node address table.  The NAT area is a run of segment pairs;
 * each pair holds two copies of 512 NAT blocks, and one bit per NAT block in
 * the checkpoint's NAT version bitmap (most significant bit first) says
 * which copy is current.  The loader reads, pair by pair, maximal runs of
 * blocks that come from the same copy, so a clean volume costs one read per
 * segment pair.  The NAT journal of the checkpoint then overrides the
 * entries it names, and the nat_bits trailer at the end of the checkpoint
 * segment is picked up when its tag ties it to this checkpoint.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/super.h"
#include "fs_internal.h"

#define SEG_BLOCKS F2FS_DEFAULT_BLKS_PER_SEG

uint32_t f2fs_nat_block_addr(const struct f2fs_super_block *sb, uint32_t idx, int copy)
{
	uint32_t pair = idx / SEG_BLOCKS;
	uint32_t addr = le32_get(sb->nat_blkaddr) + pair * 2 * SEG_BLOCKS + idx % SEG_BLOCKS;

	return copy ? addr + SEG_BLOCKS : addr;
}

const struct f2fs_nat_info f2fs_nat_empty_entry;

/* The entries of NAT block @idx, allocated on first need. */
static struct f2fs_nat_info *block_for_write(struct f2fs_nat_table *t, uint32_t idx)
{
	if (!t->blocks[idx])
		t->blocks[idx] = calloc(t->per_block, sizeof(struct f2fs_nat_info));
	return t->blocks[idx];
}

static bool nat_block_empty(const uint8_t *blk, uint32_t entries)
{
	size_t i, len = (size_t)entries * sizeof(struct f2fs_nat_entry);

	for (i = 0; i < len; i++)
		if (blk[i])
			return false;
	return true;
}

/* Decode @count NAT blocks from @buf into the entries starting at block @idx. */
static int take_blocks(struct f2fs_nat_table *t, const uint8_t *buf, uint32_t idx, uint32_t count)
{
	uint32_t b, i;

	for (b = 0; b < count; b++) {
		const struct f2fs_nat_block *blk =
		    (const struct f2fs_nat_block *)(buf + (size_t)b * t->blksize);
		struct f2fs_nat_info *dst;

		if (nat_block_empty((const uint8_t *)blk, t->per_block))
			continue;
		dst = block_for_write(t, idx + b);
		if (!dst)
			return -ENOMEM;
		for (i = 0; i < t->per_block; i++) {
			const struct f2fs_nat_entry *ne = &blk->entries[0] + i;

			dst[i].version = ne->version;
			dst[i].ino = le32_get(ne->ino);
			dst[i].blkaddr = le32_get(ne->block_addr);
			dst[i].from_journal = 0;
		}
	}
	return 0;
}

static int read_nat_area(struct f2fs_device *dev, const struct f2fs_super_block *sb,
			 const struct f2fs_cp_data *cpd, struct f2fs_nat_table *t, char *why,
			 size_t why_len)
{
	uint32_t pairs = t->nat_blocks / SEG_BLOCKS;
	uint8_t *buf = malloc((size_t)SEG_BLOCKS * t->blksize);
	uint32_t pair;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (pair = 0; pair < pairs && !ret; pair++) {
		uint32_t first = pair * SEG_BLOCKS, off = 0;

		while (off < SEG_BLOCKS) {
			int copy = f2fs_test_bit_msb(cpd->nat_bitmap, first + off);
			uint32_t run = 1;
			uint64_t addr;

			while (off + run < SEG_BLOCKS &&
			       f2fs_test_bit_msb(cpd->nat_bitmap, first + off + run) == copy)
				run++;
			addr = f2fs_nat_block_addr(sb, first + off, copy);
			ret = f2fs_dev_read(dev, buf, addr * t->blksize, (size_t)run * t->blksize);
			if (ret) {
				fs_say(why, why_len,
				       "NAT: reading blocks %u..%u (copy %d at %llu): %s",
				       first + off, first + off + run - 1, copy,
				       (unsigned long long)addr, strerror(-ret));
				break;
			}
			ret = take_blocks(t, buf, first + off, run);
			if (ret) {
				fs_say(why, why_len, "NAT: out of memory");
				break;
			}
			off += run;
		}
	}
	free(buf);
	return ret;
}

static int apply_journal(struct f2fs_nat_table *t, const struct f2fs_journal *j,
			 uint32_t max_entries)
{
	uint32_t n = le16_get(j->n_nats), i;

	if (n > max_entries)
		n = max_entries;
	for (i = 0; i < n; i++) {
		const struct f2fs_nat_journal_entry *je = f2fs_nat_journal_at(j, i);
		uint32_t nid = le32_get(je->nid);
		struct f2fs_nat_info *e;

		if (nid >= t->max_nid) {
			t->journal_bad_nids++;
			continue;
		}
		e = block_for_write(t, nid / t->per_block);
		if (!e)
			return -ENOMEM;
		e += nid % t->per_block;
		e->version = je->ne.version;
		e->ino = le32_get(je->ne.ino);
		e->blkaddr = le32_get(je->ne.block_addr);
		e->from_journal = 1;
	}
	return 0;
}

/* nat_bits: tag, full bits, empty bits, in the last blocks of the pack's segment. */
static int read_nat_bits(struct f2fs_device *dev, const struct f2fs_super_block *sb,
			 const struct f2fs_checkpoint *cp, uint32_t cp_start,
			 struct f2fs_nat_table *t, char *why, size_t why_len)
{
	uint32_t segs = le32_get(sb->segment_count_nat);
	uint32_t blocks = f2fs_nat_bits_blocks(segs, t->blksize);
	uint32_t bytes = f2fs_nat_bits_bytes(segs);
	uint64_t start, tag;
	uint8_t *buf;
	int ret;

	if (!(le32_get(cp->ckpt_flags) & CP_NAT_BITS_FLAG))
		return 0;
	/* A trailer that would not leave room for the pack itself is ignored. */
	if (blocks >= SEG_BLOCKS || (uint64_t)bytes * 8 < t->nat_blocks)
		return 0;
	start = (uint64_t)cp_start + SEG_BLOCKS - blocks;
	buf = malloc((size_t)blocks * t->blksize);
	if (!buf)
		return -ENOMEM;
	ret = f2fs_dev_read(dev, buf, start * t->blksize, (size_t)blocks * t->blksize);
	if (ret) {
		fs_say(why, why_len, "NAT: nat_bits: reading %u blocks at %llu: %s", blocks,
		       (unsigned long long)start, strerror(-ret));
		free(buf);
		return ret;
	}
	memcpy(&tag, buf, sizeof(tag));
	if (le64_get(tag) == f2fs_nat_bits_tag(cp)) {
		t->full_nat_bits = malloc(bytes);
		t->empty_nat_bits = malloc(bytes);
		if (!t->full_nat_bits || !t->empty_nat_bits) {
			free(buf);
			return -ENOMEM;
		}
		memcpy(t->full_nat_bits, buf + 8, bytes);
		memcpy(t->empty_nat_bits, buf + 8 + bytes, bytes);
		t->nat_bits_valid = true;
	}
	free(buf);
	return 0;
}

int f2fs_nat_load(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_checkpoint *cp, uint32_t cp_start,
		  const struct f2fs_cp_data *cpd, struct f2fs_nat_table **out, char *why,
		  size_t why_len)
{
	uint32_t segs = le32_get(sb->segment_count_nat);
	struct f2fs_nat_table *t;
	uint64_t blocks, max_nid;
	int ret;

	*out = NULL;
	if (segs < 2 || segs % 2) {
		fs_say(why, why_len, "NAT: segment_count_nat %u is not a positive even number",
		       segs);
		return -EINVAL;
	}
	blocks = f2fs_sb_nat_blocks(sb);
	max_nid = f2fs_sb_max_nid(sb);
	if (max_nid > UINT32_MAX) {
		fs_say(why, why_len, "NAT: segment_count_nat %u gives more than 2^32 nids", segs);
		return -EINVAL;
	}
	if (!cpd->nat_bitmap || (uint64_t)cpd->nat_bitmap_bytes * 8 < blocks) {
		fs_say(
		    why, why_len,
		    "checkpoint: nat_ver_bitmap_bytesize %u covers fewer than the %llu NAT blocks",
		    cpd->nat_bitmap_bytes, (unsigned long long)blocks);
		return -EINVAL;
	}

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->max_nid = (uint32_t)max_nid;
	t->blksize = f2fs_sb_blksize(sb);
	t->per_block = t->blksize / (uint32_t)sizeof(struct f2fs_nat_entry);
	t->nat_blocks = (uint32_t)blocks;
	t->blocks = calloc(t->nat_blocks ? t->nat_blocks : 1, sizeof(*t->blocks));
	if (!t->blocks) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = read_nat_area(dev, sb, cpd, t, why, why_len);
	if (ret)
		goto fail;
	/* n_nats was checked against the block size when the pack was read */
	ret = apply_journal(t, &cpd->nat_journal,
			    (uint32_t)(F2FS_MAX_SUM_JOURNAL_SIZE - sizeof(le16)) /
				(uint32_t)sizeof(struct f2fs_nat_journal_entry));
	if (ret) {
		fs_say(why, why_len, "NAT: out of memory");
		goto fail;
	}
	ret = read_nat_bits(dev, sb, cp, cp_start, t, why, why_len);
	if (ret)
		goto fail;
	*out = t;
	return 0;
fail:
	if (ret == -ENOMEM)
		fs_say(why, why_len, "NAT: out of memory");
	f2fs_nat_free(t);
	return ret;
}

void f2fs_nat_free(struct f2fs_nat_table *t)
{
	uint32_t i;

	if (!t)
		return;
	if (t->blocks)
		for (i = 0; i < t->nat_blocks; i++)
			free(t->blocks[i]);
	free(t->blocks);
	free(t->full_nat_bits);
	free(t->empty_nat_bits);
	free(t);
}

uint32_t f2fs_nat_per_block(const struct f2fs_nat_table *t)
{
	return t->per_block;
}

uint32_t f2fs_nat_max_nid(const struct f2fs_nat_table *t)
{
	return t->max_nid;
}

const struct f2fs_nat_info *f2fs_nat_get(const struct f2fs_nat_table *t, uint32_t nid)
{
	const struct f2fs_nat_info *blk;

	if (nid >= t->max_nid)
		return NULL;
	blk = t->blocks[nid / t->per_block];
	return blk ? &blk[nid % t->per_block] : &f2fs_nat_empty_entry;
}

uint32_t f2fs_nat_blocks(const struct f2fs_nat_table *t)
{
	return t->nat_blocks;
}

bool f2fs_nat_block_used(const struct f2fs_nat_table *t, uint32_t blk)
{
	return blk < t->nat_blocks && t->blocks[blk];
}

bool f2fs_nat_bits_valid(const struct f2fs_nat_table *t)
{
	return t->nat_bits_valid;
}

bool f2fs_nat_bits_full(const struct f2fs_nat_table *t, uint32_t blk)
{
	return t->nat_bits_valid && blk < t->nat_blocks && f2fs_test_bit_lsb(t->full_nat_bits, blk);
}

bool f2fs_nat_bits_empty(const struct f2fs_nat_table *t, uint32_t blk)
{
	return t->nat_bits_valid && blk < t->nat_blocks &&
	       f2fs_test_bit_lsb(t->empty_nat_bits, blk);
}

uint32_t f2fs_nat_journal_bad_nids(const struct f2fs_nat_table *t)
{
	return t->journal_bad_nids;
}

/* nids of NAT block @blk in use (nid 0 counts as used). */
static uint32_t block_nids_used(const struct f2fs_nat_table *t, uint32_t blk)
{
	uint32_t i, n = blk == 0;

	for (i = 0; t->blocks[blk] && i < t->per_block; i++)
		n += t->blocks[blk][i].blkaddr != F2FS_NULL_ADDR && !(blk == 0 && i == 0);
	return n;
}

bool f2fs_nat_bits_exact(const struct f2fs_nat_table *t)
{
	uint32_t blk;

	if (!t->nat_bits_valid)
		return false;
	for (blk = 0; blk < t->nat_blocks; blk++) {
		uint32_t used = block_nids_used(t, blk);
		bool full = f2fs_test_bit_lsb(t->full_nat_bits, blk);
		bool empty = f2fs_test_bit_lsb(t->empty_nat_bits, blk);

		if (full != (used == t->per_block) || empty != (used == 0))
			return false;
	}
	return true;
}

/* ---- for the write path (fs_internal.h) ---- */

struct f2fs_nat_info *f2fs_nat_entry_mut(struct f2fs_nat_table *t, uint32_t nid)
{
	struct f2fs_nat_info *blk;

	if (nid >= t->max_nid)
		return NULL;
	blk = block_for_write(t, nid / t->per_block);
	return blk ? &blk[nid % t->per_block] : NULL;
}

int f2fs_nat_new_empty(const struct f2fs_super_block *sb, struct f2fs_nat_table **out)
{
	uint32_t segs = le32_get(sb->segment_count_nat);
	struct f2fs_nat_table *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->nat_blocks = segs / 2 * SEG_BLOCKS;
	t->blksize = f2fs_sb_blksize(sb);
	t->per_block = t->blksize / (uint32_t)sizeof(struct f2fs_nat_entry);
	t->max_nid = t->nat_blocks * t->per_block;
	t->blocks = calloc(t->nat_blocks ? t->nat_blocks : 1, sizeof(*t->blocks));
	if (!t->blocks) {
		f2fs_nat_free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}
