/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Segment summaries: who owns each block of a segment (nid, offset in the
 * node, version).  Open logs are summarised in the checkpoint pack, so
 * their on-disk SSA block is stale and the pack's copy is used instead.
 * Blocks are loaded on first use, in runs of consecutive segments.
 */
#ifndef F2FS_SSA_H
#define F2FS_SSA_H

#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/format.h"
#include "f2fs/summary.h"

struct f2fs_ssa;

/*
 * The summary block of main-area segment @segno, or NULL with *err set
 * (-ERANGE for a segment outside the main area, -ENODATA for a segment
 * other than an open log's of a read-only volume, which has no SSA, or
 * the read error).
 */
const struct f2fs_summary_block *f2fs_ssa_get(struct f2fs_ssa *s, uint32_t segno, int *err);

/*
 * Keep at most @blocks of the summary blocks read from disk from now on
 * (0: all of them, the default).  With a budget a block f2fs_ssa_get()
 * returned may be dropped by the next call: use it before asking again,
 * and set no budget while a writer holds blocks.  -ENOMEM.
 */
int f2fs_ssa_set_budget(struct f2fs_ssa *s, uint32_t blocks);

#endif
