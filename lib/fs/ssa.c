// SPDX-License-Identifier: GPL-2.0
/*
 * Segment summary area, loaded lazily with read-ahead over consecutive
 * segments.  Blocks the write path put are kept; blocks read from disk
 * are kept too, unless a budget is set (the checker sets one for its walk):
 * then the oldest read ones are dropped, to be read again when asked for,
 * so that memory does not follow the segments in use.  A read-only volume
 * (F2FS_FEATURE_RO) has no SSA at all: only its open logs have summaries,
 * the checkpoint pack's; any other segment's is -ENODATA.  Whatever the
 * block size, a segment's summary is kept in the 4 KiB layout: the 512
 * entries of its blocks and the footer (a larger block only has a larger
 * journal, which the SSA's blocks do not use).  With packed_ssa the
 * summaries are 4 KiB on disk too, several to an SSA block: either way
 * segment n's lies n summaries past the area's start, so a run of segments
 * is one read.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/endian.h"
#include "f2fs/super.h"
#include "fs_internal.h"

#define SSA_READAHEAD 32    /* segments per read: 128 KiB of summaries */
#define SSA_CHUNK     1024u /* segments per slot array, allocated on first use */

struct f2fs_ssa {
	struct f2fs_device *dev;
	const struct f2fs_cp_data *cpd;
	uint32_t ssa_blkaddr;
	uint32_t segments;
	bool absent;	       /* a read-only volume's: no area on disk */
	struct f2fs_blkgeo bg; /* the volume's block size */
	/* per SSA_CHUNK segments, NULL until one of them is loaded; then per segment */
	struct f2fs_summary_block ***chunks;
	uint32_t nr_chunks;
	/* with a budget: the segments whose blocks were read, oldest first (a ring) */
	uint32_t budget;
	uint32_t *ring;
	uint32_t ring_n, ring_next;
};

/* The slot of @segno, or NULL when its chunk is not there and @create is false (or no memory). */
static struct f2fs_summary_block **slot(struct f2fs_ssa *s, uint32_t segno, bool create)
{
	struct f2fs_summary_block ***chunk = &s->chunks[segno / SSA_CHUNK];

	if (!*chunk && create)
		*chunk = calloc(SSA_CHUNK, sizeof(**chunk));
	return *chunk ? &(*chunk)[segno % SSA_CHUNK] : NULL;
}

static bool loaded(struct f2fs_ssa *s, uint32_t segno)
{
	struct f2fs_summary_block **p = slot(s, segno, false);

	return p && *p;
}

int f2fs_ssa_open(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_cp_data *cpd, struct f2fs_ssa **out)
{
	struct f2fs_ssa *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->dev = dev;
	s->cpd = cpd;
	s->ssa_blkaddr = le32_get(sb->ssa_blkaddr);
	if (f2fs_blkgeo_init_features(&s->bg, le32_get(sb->log_blocksize), le32_get(sb->feature))) {
		free(s);
		return -EINVAL;
	}
	s->segments = le32_get(sb->segment_count_main);
	s->absent = (le32_get(sb->feature) & F2FS_FEATURE_RO) && !le32_get(sb->segment_count_ssa);
	if ((uint64_t)le32_get(sb->segment_count_ssa) * F2FS_DEFAULT_BLKS_PER_SEG *
		    s->bg.sums_per_block <
		s->segments &&
	    !s->absent) {
		free(s);
		return -EINVAL;
	}
	s->nr_chunks = (s->segments + SSA_CHUNK - 1) / SSA_CHUNK;
	s->chunks = calloc(s->nr_chunks ? s->nr_chunks : 1, sizeof(*s->chunks));
	if (!s->chunks) {
		free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

void f2fs_ssa_free(struct f2fs_ssa *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_chunks * SSA_CHUNK; i++) {
		if (!s->chunks[i / SSA_CHUNK]) {
			i += SSA_CHUNK - 1;
			continue;
		}
		free(s->chunks[i / SSA_CHUNK][i % SSA_CHUNK]);
		if (i % SSA_CHUNK == SSA_CHUNK - 1)
			free(s->chunks[i / SSA_CHUNK]);
	}
	free(s->chunks);
	free(s->ring);
	free(s);
}

/* Keep @segno's newly read block within the budget: the oldest read one goes. */
static void remember_read(struct f2fs_ssa *s, uint32_t segno)
{
	struct f2fs_summary_block **old;

	if (!s->budget)
		return;
	if (s->ring_n < s->budget) {
		s->ring[s->ring_n++] = segno;
		return;
	}
	old = slot(s, s->ring[s->ring_next], false);
	if (old) {
		free(*old);
		*old = NULL;
	}
	s->ring[s->ring_next] = segno;
	s->ring_next = (s->ring_next + 1) % s->budget;
}

int f2fs_ssa_set_budget(struct f2fs_ssa *s, uint32_t blocks)
{
	uint32_t *ring = NULL;

	if (blocks) {
		ring = malloc(sizeof(*ring) * blocks);
		if (!ring)
			return -ENOMEM;
	}
	/* what was read under the old budget stays (until the handle goes) */
	free(s->ring);
	s->ring = ring;
	s->budget = blocks;
	s->ring_n = s->ring_next = 0;
	return 0;
}

static const struct f2fs_summary_block *open_log_summary(const struct f2fs_ssa *s, uint32_t segno)
{
	int log = f2fs_cp_log_of_segment(s->cpd, segno);

	/* the read-only volume's unused logs all name its first segment: only two are real */
	if (s->absent) {
		if (s->cpd->curseg_segno[F2FS_CURSEG_HOT_DATA] == segno)
			log = F2FS_CURSEG_HOT_DATA;
		else if (s->cpd->curseg_segno[F2FS_CURSEG_HOT_NODE] == segno)
			log = F2FS_CURSEG_HOT_NODE;
		else
			log = -1;
	}
	return log < 0 ? NULL : &s->cpd->curseg_sum[log];
}

/* Read @segno and the following not-yet-loaded segments in one request. */
static int load_run(struct f2fs_ssa *s, uint32_t segno)
{
	uint32_t n = 0, i,
		 most = s->budget && s->budget < SSA_READAHEAD ? s->budget : SSA_READAHEAD;
	uint8_t *buf;
	int ret;

	while (n < most && segno + n < s->segments && !loaded(s, segno + n))
		n++;
	buf = malloc((size_t)n * s->bg.sum_blksize);
	if (!buf)
		return -ENOMEM;
	ret = f2fs_dev_read(s->dev, buf, f2fs_ssa_byte_of(&s->bg, s->ssa_blkaddr, segno),
			    (size_t)n * s->bg.sum_blksize);
	for (i = 0; !ret && i < n; i++) {
		struct f2fs_summary_block **p = slot(s, segno + i, true);
		const struct f2fs_summary_block *raw =
		    (const struct f2fs_summary_block *)(buf + (size_t)i * s->bg.sum_blksize);

		if (p)
			*p = calloc(1, sizeof(**p));
		if (!p || !*p) {
			ret = -ENOMEM;
		} else {
			f2fs_sum_load(&s->bg, *p, raw);
			remember_read(s, segno + i);
		}
	}
	free(buf);
	return ret;
}

const struct f2fs_summary_block *f2fs_ssa_get(struct f2fs_ssa *s, uint32_t segno, int *err)
{
	const struct f2fs_summary_block *open;

	*err = 0;
	if (segno >= s->segments) {
		*err = -ERANGE;
		return NULL;
	}
	open = open_log_summary(s, segno);
	if (open)
		return open;
	if (!loaded(s, segno)) {
		*err = s->absent ? -ENODATA : load_run(s, segno);
		if (*err)
			return NULL;
	}
	return *slot(s, segno, false);
}

int f2fs_ssa_put(struct f2fs_ssa *s, uint32_t segno, const struct f2fs_summary_block *blk)
{
	struct f2fs_summary_block **p;

	if (segno >= s->segments)
		return -ERANGE;
	p = slot(s, segno, true);
	if (!p)
		return -ENOMEM;
	if (!*p)
		*p = malloc(F2FS_BLKSIZE);
	if (!*p)
		return -ENOMEM;
	memcpy(*p, blk, F2FS_BLKSIZE);
	return 0;
}
