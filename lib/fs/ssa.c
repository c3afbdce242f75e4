// SPDX-License-Identifier: GPL-2.0
/* Segment summary area, loaded lazily with read-ahead over consecutive segments. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/ssa.h"

#define SSA_READAHEAD 32 /* segments per read: 128 KiB of summaries */

struct f2fs_ssa {
	struct f2fs_device *dev;
	const struct f2fs_cp_data *cpd;
	uint32_t ssa_blkaddr;
	uint32_t segments;
	struct f2fs_summary_block **blk; /* per segment, NULL until loaded */
};

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
	s->segments = le32_get(sb->segment_count_main);
	if ((uint64_t)le32_get(sb->segment_count_ssa) * F2FS_DEFAULT_BLKS_PER_SEG < s->segments) {
		free(s);
		return -EINVAL;
	}
	s->blk = calloc(s->segments ? s->segments : 1, sizeof(*s->blk));
	if (!s->blk) {
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
	for (i = 0; i < s->segments; i++)
		free(s->blk[i]);
	free(s->blk);
	free(s);
}

static const struct f2fs_summary_block *open_log_summary(const struct f2fs_ssa *s, uint32_t segno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (s->cpd->curseg_segno[i] == segno)
			return &s->cpd->curseg_sum[i];
	return NULL;
}

/* Read @segno and the following not-yet-loaded segments in one request. */
static int load_run(struct f2fs_ssa *s, uint32_t segno)
{
	uint32_t n = 0, i;
	uint8_t *buf;
	int ret;

	while (n < SSA_READAHEAD && segno + n < s->segments && !s->blk[segno + n])
		n++;
	buf = malloc((size_t)n * F2FS_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	ret = f2fs_dev_read(s->dev, buf, ((uint64_t)s->ssa_blkaddr + segno) * F2FS_BLKSIZE,
			    (size_t)n * F2FS_BLKSIZE);
	for (i = 0; !ret && i < n; i++) {
		s->blk[segno + i] = malloc(F2FS_BLKSIZE);
		if (!s->blk[segno + i])
			ret = -ENOMEM;
		else
			memcpy(s->blk[segno + i], buf + (size_t)i * F2FS_BLKSIZE, F2FS_BLKSIZE);
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
	if (!s->blk[segno]) {
		*err = load_run(s, segno);
		if (*err)
			return NULL;
	}
	return s->blk[segno];
}
