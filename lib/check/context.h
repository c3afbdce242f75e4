/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checker's context, shared by its rooms: check.c (the driver: loads
 * the tables, runs the passes) -> check_tree.c, check_space.c,
 * check_quota.c, check_zones.c, check_meta.c, check_path.c (the passes)
 * -> records.c (what the walk remembers) and report.c (how a pass
 * reports).  Not a public API.
 */
#ifndef F2FS_CHECK_CONTEXT_H
#define F2FS_CHECK_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/check.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/geometry.h"
#include "f2fs/quota.h"

/* What the walk learned about one nid. */
enum nid_kind {
	NID_UNSEEN = 0,
	NID_NODE,   /* direct, indirect or xattr node */
	NID_FILE,   /* inode of a non-directory */
	NID_DIR,    /* inode of a directory */
	NID_SYSTEM, /* quota or orphan inode: no directory entry expected */
};

/* What the walk records per nid; kept in pages since most nids are unused. */
struct nid_rec {
	uint32_t entries;   /* directory entries naming this inode */
	uint32_t i_links;   /* i_links as stored */
	uint8_t kind;	    /* enum nid_kind */
	uint8_t entry_type; /* file type of the first entry naming it */
};

/* What only a directory needs (a table of its own: directories are few). */
struct dir_rec {
	uint32_t nid;	  /* 0: a free slot */
	uint32_t parent;  /* the directory whose entry led the walk here */
	uint32_t subdirs; /* subdirectories the walk entered */
};

#define NID_PAGE 1024

/* Is a SIT segment type one of the node logs? */
static inline bool check_node_type(uint8_t type)
{
	return type >= F2FS_CURSEG_HOT_NODE && type <= F2FS_CURSEG_COLD_NODE;
}

/* Summary blocks the walk keeps read (f2fs_ssa_set_budget()): 256 KiB. */
#define CHECK_SSA_BUDGET 64u

#define SEEN_CHUNK_SEGS	 64u
#define SEG_WORDS	 (F2FS_DEFAULT_BLKS_PER_SEG / 64u) /* 64-bit words per segment */
#define SEEN_CHUNK_WORDS (SEEN_CHUNK_SEGS * SEG_WORDS)

struct pending_inode {
	uint32_t ino;
	uint32_t parent;
	uint8_t file_type;	 /* from the entry that named it */
	struct f2fs_place entry; /* the entry naming it */
	uint16_t name_len;	 /* and the length of its name */
};

struct check_ctx {
	struct f2fs_fs *fs;
	struct f2fs_device *dev;
	/* the handle's tables, loaded before the walk */
	const struct f2fs_super_block *sb;
	const struct f2fs_checkpoint *cp;
	const struct f2fs_cp_data *cpd;
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	struct f2fs_ssa *ssa;
	const struct f2fs_geometry *geo;
	const struct f2fs_check_options *o;
	struct f2fs_check_result *res;

	uint32_t features;
	uint32_t root_ino;
	uint32_t chksum_seed;
	int err; /* an operational error (-ENOMEM) that ends the check */

	/*
	 * Blocks the walk reached: a bit per main-area block, in chunks of
	 * SEEN_CHUNK_SEGS segments allocated when the walk first reaches one,
	 * so memory follows the space in use, not the device size.
	 */
	uint64_t **seen_chunks;
	uint32_t seen_chunk_count;
	uint8_t *seg_kinds;	 /* per main-area segment: F2FS_FOUND_* bits of what was reached */
	uint32_t *found_per_sec; /* blocks reached per section */
	struct nid_rec **nid_pages; /* NID_PAGE records each, NULL until written */
	uint32_t nid_page_count;
	struct dir_rec *dirs; /* open addressing by nid, dir_cap slots (a power of two) */
	size_t ndirs, dir_cap;

	bool in_leaf_walk; /* checking a file named by an entry, not from the queue */
	/* the entry naming the inode whose walk begins (F2FS_PLACE_NONE: none known) */
	struct f2fs_place entry;
	uint16_t entry_name_len;
	uint8_t *xattr_space;	  /* F2FS_XATTR_SPACE_MAX bytes: an inode's xattrs, assembled */
	uint8_t *xattr_node;	  /* the xattr node of the inode being walked */
	uint8_t *ssa_type_bad;	  /* a bit per main-area segment: PR_SSA_TYPE reported */
	unsigned int paths_named; /* paths resolved for messages (bounded: each costs reads) */
	struct pending_inode *queue;
	size_t queue_len, queue_cap, queue_head;

	/*
	 * check_zones.c: per main-area section, the blocks written from its
	 * start up to its zone's write pointer (UINT32_MAX where the section
	 * is not a sequential zone); NULL when the volume is not zoned or its
	 * zones cannot be read.
	 */
	uint32_t *sec_written;
	uint8_t *zone_open; /* per section: its zone is open */

	/* check_quota.c: per quota type the volume keeps, the usage the walk counted */
	unsigned int quota_types;
	struct f2fs_quota_set quota[F2FS_MAX_QUOTAS];
};

/* The checker's passes, as reported to the handle's progress hook. */
enum check_pass {
	CHECK_PASS_LOAD = 1, /* loading the SIT, NAT and SSA (0 or 1 of 1) */
	CHECK_PASS_TREE,     /* the tree walk (inodes, of the checkpoint's count) */
	CHECK_PASS_SECTIONS, /* the per-section accounting (sections) */
	CHECK_PASS_COUNTS,   /* NAT reach, links and counters (0 or 1 of 1) */
	CHECK_PASSES = CHECK_PASS_COUNTS
};

/* Report @done of @total units of @pass (thinned by f2fs_fs_progress). */
void check_progress(struct check_ctx *c, enum check_pass pass, uint64_t done, uint64_t total);

/* Report a problem (formats the detail line). */
void check_report(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid, uint64_t blkaddr,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Report a count that differs: @value as stored, @expected as found. */
void check_report_count(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid,
			uint64_t value, uint64_t expected, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Report @p, its fields filled in but detail. */
void check_report_problem(struct check_ctx *c, struct f2fs_problem *p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Report a problem the repair finds @at (an entry, a pointer; NULL: nowhere known). */
void check_report_at(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid,
		     uint64_t blkaddr, const struct f2fs_place *at, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Report a problem whose value and expected fields matter (see struct f2fs_problem). */
void check_report_values(struct check_ctx *c, enum f2fs_problem_code code, uint32_t nid,
			 uint64_t blkaddr, uint64_t value, uint64_t expected, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/*
 * For messages about lost subtrees (check_path.c).  The path of directory
 * @dir, which the walk entered ("/" for the root), into @buf; and the name
 * of the entry of directory @dir that names @ino.  Names come out with
 * control bytes and backslashes as \xNN.  Best effort: a component that
 * cannot be found reads "?", and after a bounded number of lookups (each
 * reads a directory) the path is given as "(inode N)".
 */
void check_dir_path(struct check_ctx *c, uint32_t dir, char *buf, size_t size);
void check_entry_name(struct check_ctx *c, uint32_t dir, uint32_t ino, char *buf, size_t size);

/* Append @len bytes of @name to @buf (holding @used bytes), escaped as above; the new length. */
size_t check_escape_name(char *buf, size_t size, size_t used, const char *name, size_t len);

/*
 * Zoned volumes (check_zones.c): read the zones' write pointers and judge
 * each zone against the logs and the SIT, before the walk; tell whether a
 * block lies past its zone's pointer (the walk drops such a block as lost:
 * a read there returns zeros).
 */
int check_zones_load(struct check_ctx *c);
bool check_block_past_wp(const struct check_ctx *c, uint64_t blkaddr);
void check_zones(struct check_ctx *c);

/* Walk the tree from the root, then orphans and quota files (check_tree.c). */
int check_tree(struct check_ctx *c);

/*
 * Quota (check_quota.c): start counting, charge a walked inode with the
 * blocks the walk found under it (@blocks, its own included), then compare
 * the counts with the quota files and hand them to the findings.
 */
int check_quota_start(struct check_ctx *c);
void check_quota_charge(struct check_ctx *c, uint32_t ino, const struct f2fs_inode *ri,
			uint64_t blocks);
void check_quota(struct check_ctx *c);
void check_quota_release(struct check_ctx *c);

/* Cross-check SIT, sections, NAT and the checkpoint counters (check_space.c). */
void check_space(struct check_ctx *c);

/* The record of @nid for reading, or NULL when nothing was recorded near it. */
static inline const struct nid_rec *nid_peek(const struct check_ctx *c, uint32_t nid)
{
	const struct nid_rec *page;

	if (nid / NID_PAGE >= c->nid_page_count)
		return NULL;
	page = c->nid_pages[nid / NID_PAGE];
	return page ? &page[nid % NID_PAGE] : NULL;
}

static inline uint8_t check_kind(const struct check_ctx *c, uint32_t nid)
{
	const struct nid_rec *r = nid_peek(c, nid);

	return r ? r->kind : NID_UNSEEN;
}

/* The reached-block words of segment @segno (SEG_WORDS of them), or NULL when none was reached. */
static inline const uint64_t *seg_seen_words(const struct check_ctx *c, uint32_t segno)
{
	const uint64_t *chunk = c->seen_chunks[segno / SEEN_CHUNK_SEGS];

	return chunk ? chunk + (size_t)(segno % SEEN_CHUNK_SEGS) * SEG_WORDS : NULL;
}

/*
 * Mark block @off of segment @segno reached.  Returns 1 when it was already
 * marked, 0 when newly marked, -ENOMEM (also noted with check_fail).
 */
int mark_seen(struct check_ctx *c, uint32_t segno, uint32_t off);

/*
 * The directory record of @nid; with @create one is added when missing
 * (NULL when out of memory, noted with check_fail), else NULL when none.
 */
struct dir_rec *dir_record(struct check_ctx *c, uint32_t nid, bool create);

/* The record of @nid for writing (allocating its page); NULL when out of memory. */
struct nid_rec *nid_record(struct check_ctx *c, uint32_t nid);

static inline bool in_main_area(const struct check_ctx *c, uint64_t blkaddr)
{
	return f2fs_geo_in_main(c->geo, blkaddr);
}

/*
 * Note an operational error (out of memory, a table read failing halfway):
 * the check stops at the next opportunity and f2fs_check() returns it.
 */
static inline void check_fail(struct check_ctx *c, int err)
{
	if (!c->err)
		c->err = err;
}

#endif
