// SPDX-License-Identifier: GPL-2.0
/*
 * The checker's driver: open the volume (superblock and checkpoint pack
 * choice), load the pack's contents, the SIT, the NAT and the SSA, then run
 * the tree walk (check_tree.c) and the space accounting (check_space.c).
 * Nothing here writes to the device.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "f2fs/ssa.h"
#include "f2fs/bitops.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/xattr.h"

static int fatal(struct f2fs_check_result *res, int err, const char *why)
{
	res->fatal = true;
	snprintf(res->fatal_why, sizeof(res->fatal_why), "%s", why);
	return err;
}

static int load_tables(struct check_ctx *c)
{
	int ret = f2fs_fs_load_all(c->fs);

	if (ret)
		return fatal(c->res, ret, f2fs_fs_why(c->fs));
	/* each is loaded now: these only hand out the handle's pointers */
	f2fs_fs_cp_data(c->fs, &c->cpd);
	f2fs_fs_sit(c->fs, &c->sit);
	f2fs_fs_nat(c->fs, &c->nat);
	f2fs_fs_ssa(c->fs, &c->ssa);
	/* the walk visits segments in tree order, near one another: a window of them will do */
	if (f2fs_ssa_set_budget(c->ssa, CHECK_SSA_BUDGET))
		return fatal(c->res, -ENOMEM, "memory: cannot hold the check's tables");
	return 0;
}

static int alloc_state(struct check_ctx *c)
{
	size_t nids = f2fs_nat_max_nid(c->nat);

	c->seen_chunk_count =
	    (uint32_t)((c->geo->main_segs + SEEN_CHUNK_SEGS - 1) / SEEN_CHUNK_SEGS);
	c->seen_chunks = calloc(c->seen_chunk_count + 1, sizeof(*c->seen_chunks));
	c->found_per_sec = calloc(c->geo->sections + 1, sizeof(uint32_t));
	c->seg_kinds = calloc(c->geo->main_segs + 1, 1);
	c->nid_page_count = (uint32_t)((nids + NID_PAGE - 1) / NID_PAGE);
	c->nid_pages = calloc(c->nid_page_count + 1, sizeof(*c->nid_pages));
	c->xattr_space = malloc(F2FS_XATTR_SPACE_MAX);
	c->xattr_node = malloc(f2fs_xattr_node_bytes(&c->geo->blk));
	c->ssa_type_bad = calloc(c->geo->main_segs / 8 + 1, 1);
	if (!c->seen_chunks || !c->found_per_sec || !c->seg_kinds || !c->nid_pages ||
	    !c->xattr_space || !c->xattr_node || !c->ssa_type_bad)
		return fatal(c->res, -ENOMEM, "memory: cannot hold the check's tables");
	return 0;
}

static bool is_node_segment(const struct f2fs_seg_entry *se)
{
	return se->valid && check_node_type(se->type);
}

/*
 * The walk reads node blocks in directory order, scattered over the node
 * segments; asking for those segments up front turns that into read-ahead.
 */
static void prefetch_node_segments(struct check_ctx *c)
{
	uint32_t s = 0, run;

	while (s < c->geo->main_segs) {
		if (!is_node_segment(f2fs_sit_seg(c->sit, s))) {
			s = f2fs_sit_next_used(c->sit, s + 1);
			continue;
		}
		for (run = 1; s + run < c->geo->main_segs; run++)
			if (!is_node_segment(f2fs_sit_seg(c->sit, s + run)))
				break;
		f2fs_dev_prefetch(
		    c->dev, f2fs_blk_to_bytes(c->geo, f2fs_geo_seg_start(c->geo, s)),
		    f2fs_blk_to_bytes(c->geo, (uint64_t)run * F2FS_DEFAULT_BLKS_PER_SEG));
		s += run;
	}
}

/* ---- findings kept for repairs ---- */

struct f2fs_findings {
	uint64_t **seen_chunks;
	uint32_t seen_chunk_count, main_segs;
	uint8_t *seg_kinds;
	struct nid_rec **nid_pages;
	uint32_t nid_page_count;
	unsigned int quota_types;
	struct f2fs_quota_set quota[F2FS_MAX_QUOTAS];
};

/* Hand the walk's tables to the caller's findings (the context no longer owns them). */
static int keep_findings(struct check_ctx *c)
{
	struct f2fs_findings *f = calloc(1, sizeof(*f));

	if (!f)
		return fatal(c->res, -ENOMEM, "memory: cannot keep the check's findings");
	f->seen_chunks = c->seen_chunks;
	f->seen_chunk_count = c->seen_chunk_count;
	f->main_segs = c->geo->main_segs;
	f->seg_kinds = c->seg_kinds;
	f->nid_pages = c->nid_pages;
	f->nid_page_count = c->nid_page_count;
	f->quota_types = c->quota_types;
	memcpy(f->quota, c->quota, sizeof(f->quota));
	memset(c->quota, 0, sizeof(c->quota));
	c->seen_chunks = NULL;
	c->seg_kinds = NULL;
	c->nid_pages = NULL;
	*c->o->findings = f;
	return 0;
}

const struct f2fs_quota_set *f2fs_findings_quota(const struct f2fs_findings *f, unsigned int type)
{
	return type < F2FS_MAX_QUOTAS && f->quota_types & (1u << type) ? &f->quota[type] : NULL;
}

bool f2fs_findings_segment(const struct f2fs_findings *f, uint32_t segno, uint8_t *map,
			   unsigned int *kinds)
{
	const uint64_t *chunk, *words;
	unsigned int i, k;

	if (segno >= f->main_segs)
		return false;
	*kinds = f->seg_kinds[segno];
	memset(map, 0, F2FS_SIT_VBLOCK_MAP_SIZE);
	chunk = f->seen_chunks[segno / SEEN_CHUNK_SEGS];
	if (!chunk)
		return true;
	words = chunk + (size_t)(segno % SEEN_CHUNK_SEGS) * SEG_WORDS;
	/* the walk numbers blocks from bit 0 of each word, the SIT from bit 7 of each byte */
	for (i = 0; i < SEG_WORDS; i++)
		for (k = 0; k < 8; k++)
			map[i * 8 + k] = f2fs_bit_reverse8((uint8_t)(words[i] >> (8 * k)));
	return true;
}

bool f2fs_findings_nid_reached(const struct f2fs_findings *f, uint32_t nid)
{
	const struct nid_rec *page;

	if (nid / NID_PAGE >= f->nid_page_count)
		return false;
	page = f->nid_pages[nid / NID_PAGE];
	return page && page[nid % NID_PAGE].kind != NID_UNSEEN;
}

static void free_tables(uint64_t **chunks, uint32_t nchunks, struct nid_rec **pages,
			uint32_t npages)
{
	uint32_t i;

	for (i = 0; chunks && i < nchunks; i++)
		free(chunks[i]);
	free(chunks);
	for (i = 0; pages && i < npages; i++)
		free(pages[i]);
	free(pages);
}

void f2fs_findings_free(struct f2fs_findings *f)
{
	if (!f)
		return;
	free_tables(f->seen_chunks, f->seen_chunk_count, f->nid_pages, f->nid_page_count);
	free(f->seg_kinds);
	for (unsigned int t = 0; t < F2FS_MAX_QUOTAS; t++)
		f2fs_quota_set_free(&f->quota[t]);
	free(f);
}

static void release(struct check_ctx *c)
{
	if (c->ssa)
		f2fs_ssa_set_budget(c->ssa, 0);
	free_tables(c->seen_chunks, c->seen_chunk_count, c->nid_pages, c->nid_page_count);
	free(c->found_per_sec);
	free(c->seg_kinds);
	free(c->queue);
	free(c->xattr_space);
	free(c->xattr_node);
	free(c->ssa_type_bad);
	free(c->sec_written);
	free(c->zone_open);
	free(c->dirs);
	check_quota_release(c);
}

/* A device cut short (opened with F2FS_FS_SHORT_DEVICE): what lies inside is still checked. */
static void report_truncated(struct check_ctx *c)
{
	uint64_t have = f2fs_fs_device_blocks(c->fs), want = le64_get(c->sb->block_count);

	if (f2fs_fs_truncated(c->fs))
		check_report(c, PR_DEVICE_TRUNCATED, 0, have,
			     "the device holds %llu blocks, block_count is %llu: the last %llu "
			     "cannot be read",
			     (unsigned long long)have, (unsigned long long)want,
			     (unsigned long long)(want - have));
}

/* A superblock or checkpoint copy the volume rejected is a problem, not a fatal one. */
static void report_rejected_copies(struct check_ctx *c)
{
	const struct f2fs_volume *v = f2fs_fs_volume(c->fs);
	const char *sb = f2fs_volume_rejected_why(v, F2FS_REJECTED_SB);
	const char *cp = f2fs_volume_rejected_why(v, F2FS_REJECTED_CP);

	if (sb)
		check_report(c, PR_SB_INVALID, 0, 0, "%s", sb);
	if (cp)
		check_report(c,
			     f2fs_volume_rejected(v) & F2FS_REJECTED_CP_NEWEST ? PR_CP_NEWEST_INSANE
									       : PR_CP_INVALID,
			     0, 0, "%s", cp);
}

int f2fs_check(struct f2fs_fs *fs, const struct f2fs_check_options *o,
	       struct f2fs_check_result *res)
{
	struct check_ctx c = {.fs = fs, .dev = f2fs_fs_dev(fs), .o = o, .res = res};
	int ret;

	memset(res, 0, sizeof(*res));
	c.sb = f2fs_fs_sb(fs);
	c.cp = f2fs_fs_cp(fs);
	c.geo = f2fs_fs_geo(fs);
	c.features = f2fs_fs_features(fs);
	c.root_ino = le32_get(c.sb->root_ino);
	c.chksum_seed = f2fs_inode_chksum_seed(c.sb->uuid);
	report_truncated(&c);
	check_progress(&c, CHECK_PASS_LOAD, 0, 1);
	ret = load_tables(&c);
	if (!ret)
		ret = alloc_state(&c);
	if (!ret)
		ret = check_quota_start(&c);
	if (!ret) {
		check_progress(&c, CHECK_PASS_LOAD, 1, 1);
		report_rejected_copies(&c);
		ret = check_zones_load(&c);
	}
	if (!ret) {
		/* first: what is lost past a pointer explains much of what the walk finds */
		check_zones(&c);
		prefetch_node_segments(&c);
		check_tree(&c);
	}
	if (!ret && !c.err)
		check_space(&c);
	if (!ret && !c.err)
		check_quota(&c);
	if (!ret && c.err)
		ret = fatal(res, c.err,
			    c.err == -ENOMEM ? "memory: out of memory during the check"
					     : "device: the check could not go on");
	if (o->findings)
		*o->findings = NULL;
	if (!ret && o->findings)
		ret = keep_findings(&c);
	release(&c);
	return ret;
}
