// SPDX-License-Identifier: GPL-2.0
/*
 * The checker's driver: open the volume (superblock and checkpoint pack
 * choice), load the pack's contents, the SIT, the NAT and the SSA, then run
 * the tree walk (check_tree.c) and the space accounting (check_space.c).
 * Nothing here writes to the device.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_internal.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"

void check_report(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid, uint64_t blkaddr,
		  const char *fmt, ...)
{
	struct f2fs_problem p = {.code = code, .nid = nid, .blkaddr = blkaddr};
	va_list ap;

	c->res->problems++;
	switch (code) {
	case PR_NAT_UNREACHABLE:
	case PR_COUNT_VALID_BLOCKS:
	case PR_COUNT_VALID_NODES:
	case PR_COUNT_VALID_INODES:
	case PR_SIT_FREE_COUNT:
	case PR_SEC_CKPT_VALID:
		break; /* each has its own summary line */
	case PR_BLK_NOT_IN_SIT:
	case PR_BLK_SIT_EXTRA:
	case PR_SIT_BITMAP_COUNT:
		c->res->sit_bitmap_ok = false;
		break;
	case PR_INODE_LINKS:
		c->res->hard_links_ok = false;
		break;
	case PR_CURSEG_NEXT_USED:
		c->res->curseg_ok = false;
		break;
	default:
		c->res->other_ok = false;
	}
	if (!c->o->on_problem || (c->o->max_problems && c->res->problems > c->o->max_problems))
		return;
	va_start(ap, fmt);
	vsnprintf(p.detail, sizeof(p.detail), fmt, ap);
	va_end(ap);
	c->o->on_problem(&p, c->o->arg);
}

static int fatal(struct f2fs_check_result *res, int err, const char *what, const char *why)
{
	res->fatal = true;
	snprintf(res->fatal_why, sizeof(res->fatal_why), "%s: %.200s", what, why);
	return err;
}

static int load_tables(struct check_ctx *c)
{
	char why[200] = "";
	int ret;

	ret = f2fs_cp_data_load(c->v, &c->cpd, why, sizeof(why));
	if (ret)
		return fatal(c->res, ret, "checkpoint pack", why);
	ret = f2fs_sit_load(c->dev, c->sb, c->cpd, &c->sit, why, sizeof(why));
	if (ret)
		return fatal(c->res, ret, "SIT", why);
	ret = f2fs_nat_load(c->dev, c->sb, c->cp, f2fs_volume_cp_start(c->v), c->cpd, &c->nat, why,
			    sizeof(why));
	if (ret)
		return fatal(c->res, ret, "NAT", why);
	ret = f2fs_ssa_open(c->dev, c->sb, c->cpd, &c->ssa);
	if (ret)
		return fatal(c->res, ret, "SSA", "segment_count_ssa too small for the main area");
	return 0;
}

struct nid_rec *nid_record(struct check_ctx *c, uint32_t nid)
{
	struct nid_rec **page;

	if (nid / NID_PAGE >= c->nid_page_count)
		return NULL;
	page = &c->nid_pages[nid / NID_PAGE];
	if (!*page)
		*page = calloc(NID_PAGE, sizeof(**page));
	return *page ? &(*page)[nid % NID_PAGE] : NULL;
}

static int alloc_state(struct check_ctx *c)
{
	size_t nids = c->nat->max_nid;

	c->main_blkaddr = le32_get(c->sb->main_blkaddr);
	c->main_segs = le32_get(c->sb->segment_count_main);
	c->main_blocks = (uint64_t)c->main_segs * F2FS_DEFAULT_BLKS_PER_SEG;
	c->blk_seen = calloc(c->main_blocks / 8 + 1, 1);
	c->found_per_seg = calloc(c->main_segs + 1, sizeof(uint32_t));
	c->nid_page_count = (uint32_t)((nids + NID_PAGE - 1) / NID_PAGE);
	c->nid_pages = calloc(c->nid_page_count + 1, sizeof(*c->nid_pages));
	if (!c->blk_seen || !c->found_per_seg || !c->nid_pages)
		return fatal(c->res, -ENOMEM, "memory", "cannot hold the check's bitmaps");
	return 0;
}

/*
 * The walk reads node blocks in directory order, scattered over the node
 * segments; asking for those segments up front turns that into read-ahead.
 */
static void prefetch_node_segments(struct check_ctx *c)
{
	uint32_t s = 0, run;

	while (s < c->main_segs) {
		const struct f2fs_seg_entry *se = &c->sit->seg[s];

		if (!se->valid || se->type < F2FS_CURSEG_HOT_NODE ||
		    se->type > F2FS_CURSEG_COLD_NODE) {
			s++;
			continue;
		}
		for (run = 1; s + run < c->main_segs; run++) {
			se = &c->sit->seg[s + run];
			if (!se->valid || se->type < F2FS_CURSEG_HOT_NODE ||
			    se->type > F2FS_CURSEG_COLD_NODE)
				break;
		}
		f2fs_dev_prefetch(
		    c->dev,
		    ((uint64_t)c->main_blkaddr + (uint64_t)s * F2FS_DEFAULT_BLKS_PER_SEG) *
			F2FS_BLKSIZE,
		    (uint64_t)run * F2FS_DEFAULT_BLKS_PER_SEG * F2FS_BLKSIZE);
		s += run;
	}
}

static void release(struct check_ctx *c)
{
	uint32_t i;

	free(c->blk_seen);
	free(c->found_per_seg);
	for (i = 0; c->nid_pages && i < c->nid_page_count; i++)
		free(c->nid_pages[i]);
	free(c->nid_pages);
	free(c->queue);
	f2fs_ssa_free(c->ssa);
	f2fs_nat_free(c->nat);
	f2fs_sit_free(c->sit);
	f2fs_cp_data_free(c->cpd);
	f2fs_volume_close(c->v);
}

/* A superblock or checkpoint copy the volume rejected is a problem, not a fatal one. */
static void report_rejected_copies(struct check_ctx *c)
{
	const char *warn = f2fs_volume_warning(c->v);

	if (!warn)
		return;
	if (strstr(warn, "superblock"))
		check_report(c, PR_SB_INVALID, 0, 0, "%s", warn);
	if (strstr(warn, "checkpoint") || strstr(warn, "pack"))
		check_report(c, PR_CP_INVALID, 0, 0, "%s", warn);
}

int f2fs_check(struct f2fs_device *dev, const struct f2fs_check_options *o,
	       struct f2fs_check_result *res)
{
	struct check_ctx c = {.dev = dev, .o = o, .res = res};
	char why[240] = "";
	int ret;

	memset(res, 0, sizeof(*res));
	res->sit_bitmap_ok = res->hard_links_ok = res->curseg_ok = res->other_ok = true;
	ret = f2fs_volume_open(dev, &c.v, why, sizeof(why));
	if (ret)
		return fatal(res, ret, "volume", why);
	c.sb = f2fs_volume_sb(c.v);
	c.cp = f2fs_volume_cp(c.v);
	c.features = le32_get(c.sb->feature);
	c.root_ino = le32_get(c.sb->root_ino);
	c.chksum_seed = f2fs_inode_chksum_seed(c.sb->uuid);
	ret = load_tables(&c);
	if (!ret)
		ret = alloc_state(&c);
	if (!ret) {
		report_rejected_copies(&c);
		prefetch_node_segments(&c);
		ret = check_tree(&c);
	}
	if (!ret)
		check_space(&c);
	release(&c);
	return ret;
}
