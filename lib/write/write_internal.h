/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the write path: the state a writable handle carries between
 * checkpoints.  The tables themselves are the fs layer's (SIT, NAT, SSA and
 * the pack contents, which hold the six current segments and their
 * summaries): the write path changes them in place, so readers of the
 * handle see the volume as it is now.  What lives here is what only a
 * writer needs: which segments and NAT entries are dirty, the free-section
 * map, the node cache, the page cache of files, the pending device write,
 * and the counters a checkpoint records.
 *
 * Files: state.c (this state, entry checks, counters), io.c (coalesced and
 * counted device writes), alloc.c (the block allocator), nat.c (nids and
 * NAT entries), node.c (the node cache and the file tree), inode.c, dir.c,
 * data.c, namei.c, xattr.c, checkpoint.c, fsync.c and gc.c.
 */
#ifndef F2FS_WRITE_INTERNAL_H
#define F2FS_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../fs/fs_internal.h"
#include "f2fs/blkgeo.h"
#include "f2fs/write.h"
#include "f2fs/quota.h"

/* ---- io.c ---- */

/* A buffer for one block of any volume, seen as what it holds. */
union wr_block {
	uint8_t raw[F2FS_MAX_BLKSIZE];
	struct f2fs_dentry_block dentry;
	struct f2fs_node node;
};

#define WR_IO_MAX_BYTES (4u << 20) /* per device write request */

struct wr_io {
	uint8_t *buf;	     /* the I/O buffer */
	uint8_t *run;	     /* the pending run of blocks: buf, or the device's memory */
	uint32_t blksize;    /* the volume's block size */
	uint32_t max_blocks; /* blocks in WR_IO_MAX_BYTES */
	uint64_t start;	     /* its first block address */
	uint32_t count;	     /* blocks in it */
	int kind;	     /* enum f2fs_io_kind of the run */
	int err;	     /* the first write error, sticky */
};

/* ---- node.c ---- */

struct wr_node {
	uint32_t nid, ino;
	uint32_t addr; /* where the node is on disk, F2FS_NEW_ADDR before its first write */
	bool dirty;
	unsigned int pins;	       /* held by an operation in progress: not evicted */
	struct wr_node *hnext;	       /* hash chain */
	struct wr_node *dnext, *dprev; /* dirty list */
	/*
	 * The node block, as large as the volume's block (allocated past the
	 * 4 KiB struct on larger blocks): its footer and an inode's i_nid[]
	 * are reached through the geometry, never as blk.footer or i.i_nid.
	 */
	struct f2fs_node blk;
};

struct wr_node_cache {
	struct wr_node **buckets;
	uint32_t nbuckets, count;
	struct wr_node dirty; /* list head (only dnext/dprev used) */
	uint32_t ndirty;
	uint32_t clean_budget; /* clean nodes kept (f2fs_write_set_node_cache) */
	uint32_t dirty_budget; /* dirty nodes held before balancing writes them */
};

/* ---- inodes with state beyond their node block (inode.c, data.c) ---- */

struct wr_page {
	uint64_t index;
	uint8_t *data;
};

struct wr_inode {
	uint32_t ino;
	struct wr_inode *hnext;
	struct wr_page *pages; /* dirty pages, sorted by index */
	size_t npages, cap;
	uint64_t wb_index; /* where cyclic write-back goes on (mapping->writeback_index) */
	bool created;	   /* since the last checkpoint (fsync marks DENT, parent needs a cp) */
	bool lost_pino;	   /* i_pino may be wrong after a link or rename: fsync checkpoints */
	bool fsynced;	   /* its nodes are in the roll-forward chain */
};

struct wr_inode_table {
	struct wr_inode **buckets;
	uint32_t nbuckets, count;
	uint64_t dirty_pages; /* over all inodes */
	uint8_t **pool;	      /* free page buffers, for reuse */
	size_t npool, pool_cap;
	uint32_t page_bytes; /* a page: the volume's block */
};

/* f2fs_pwrite writes a file back past 16 MiB of its dirty pages, everything past 32 MiB */
#define WR_WB_INODE_PAGES 4096u
#define WR_WB_TOTAL_PAGES 8192u

/* ---- the state ---- */

/* quota.c: the pending quota charges */
struct wr_quota {
	unsigned int types;				/* bit per quota type kept current */
	struct f2fs_quota_set pending[F2FS_MAX_QUOTAS]; /* charges since the last flush */
	bool broken;		/* a flush failed: checkpoints ask for fsck */
	unsigned int rewritten; /* bit per type a repair rewrote whole */
};

/*
 * The sections the logs may write while blocks move into a chosen area
 * (defrag.c): a log outside it is moved in before it writes, and a new
 * section is the first free one of the area, searched from @first up or,
 * with @down, from @last down.  The sections [@skip_first, @skip_last]
 * (the range being emptied; none when @skip_first > @skip_last) are never
 * taken.
 */
struct wr_area {
	uint32_t first, last;
	uint32_t skip_first, skip_last;
	bool down;
};

struct f2fs_wr {
	struct f2fs_fs *fs;
	const struct f2fs_super_block *sb;
	uint32_t segs_per_sec, secs_per_zone, sections, segments;
	uint32_t reserved_sections;
	uint64_t user_block_count;

	/* allocator */
	uint8_t *sec_used; /* bit per section: in use (not free) */
	uint32_t free_sections;
	uint8_t *seg_dirty; /* bit per segment: SIT entry changed since the checkpoint */
	uint8_t *ssa_dirty; /* bit per segment: summary block not yet written (alloc.c) */
	uint32_t nssa_dirty;
	bool sit_to_blocks;   /* the next SIT flush writes blocks, not the journal (repairs) */
	bool nat_to_blocks;   /* the next NAT flush empties the journal too (repairs) */
	uint32_t *dirty_list; /* the dirty segments, in the order they became dirty */
	uint32_t ndirty, dirty_cap;
	uint8_t *sec_prefree; /* bit per section: emptied since the checkpoint, free after it */
	uint32_t prefree_sections;
	bool zoned;		 /* zoned.c: a zoned volume on its zoned device(s) */
	uint8_t *sec_to_reset;	 /* zoned: bit per section freed by the checkpoint being made */
	unsigned int logs_moved; /* zoned: logs wr_zones_init() moved off a stray pointer */
	uint64_t elapsed_base;	 /* cp elapsed_time at open */
	uint64_t open_time;
	f2fs_alloc_policy_fn policy;
	void *policy_arg;
	bool in_place; /* f2fs_set_in_place_updates: rewrites go over their block */
	f2fs_commit_wait_fn commit_wait; /* before a pack's commit (NULL: nothing to wait for) */
	void *commit_wait_arg;
	const struct wr_area *area; /* defrag.c: the sections the logs may write, NULL: any */
	struct wr_area fence;	    /* f2fs_confine(): the sections that stay, held to the end */
	bool in_gc;
	enum f2fs_section_counts section_counts; /* f2fs_write_set_section_counts() */
	uint64_t wb_inode_pages, wb_total_pages; /* f2fs_write_set_writeback(); 0: never */
	uint64_t curseg_room; /* blocks left in the logs' current sections, at the last check */
	int64_t clock;	      /* f2fs_write_set_time(), -1: now */
	bool no_nat_bits;     /* f2fs_write_set_no_nat_bits() */

	/* counts the checkpoint records */
	uint64_t valid_blocks;
	uint32_t valid_nodes, valid_inodes;

	/* nids and the NAT */
	uint32_t max_nid, next_nid;
	uint8_t *nat_dirty;	 /* bit per nid */
	uint32_t *nat_blk_dirty; /* per NAT block: dirty entries in it */
	uint32_t nat_dirty_count;

	struct wr_node_cache nodes;
	struct wr_inode_table inodes;
	struct wr_io io;
	struct f2fs_write_stats stats;
	uint64_t cp_ver;     /* of the last checkpoint written or loaded */
	uint64_t footer_ver; /* what new node footers carry: version, with the CRC above */
	bool failed;	     /* an I/O error left the device in an unknown state */
	bool dirty;	     /* anything changed since the last checkpoint */
	/*
	 * What the kernel's SBI_IS_DIRTY tracks: changes a checkpoint must
	 * write.  A regular file's dirty data and (lazytime, f2fs's default)
	 * a data write's new timestamps are not among them.
	 */
	bool meta_dirty;
	bool fresh; /* a new volume before its first checkpoint: no copy is in use yet */
	struct wr_quota quota;
};

/*
 * The volume's block geometry (f2fs/blkgeo.h): every block the write path
 * builds, reads or writes is this size and laid out by it.
 */
static inline const struct f2fs_blkgeo *wr_bg(const struct f2fs_wr *w)
{
	return &w->fs->geo.blk;
}

static inline uint32_t wr_blksize(const struct f2fs_wr *w)
{
	return w->fs->geo.blk.blksize;
}

/* Something a checkpoint writes changed. */
static inline void wr_mark_dirty(struct f2fs_wr *w)
{
	w->dirty = true;
	w->meta_dirty = true;
}

/* quota.c */
void wr_quota_init(struct f2fs_wr *w, bool existing);
void wr_quota_free(struct f2fs_wr *w);
/* Charge @in's ids with @inodes inodes and @blocks blocks (either may be negative). */
void wr_quota_charge(struct f2fs_wr *w, const struct wr_node *in, int64_t inodes, int64_t blocks);
/* @in's owner changed from what @before says: its usage moves to the new ids. */
void wr_quota_transfer(struct f2fs_wr *w, const struct wr_node *in,
		       const struct f2fs_inode *before);
/* Fold the pending charges into the quota files (a checkpoint's first step after data). */
int wr_quota_flush(struct f2fs_wr *w);
/* @flags with CP_QUOTA_NEED_FSCK_FLAG set or cleared as the quota files stand. */
uint32_t wr_quota_cp_flags(const struct f2fs_wr *w, uint32_t flags);

/* state.c */
int wr_get(struct f2fs_fs *fs, struct f2fs_wr **out);
void wr_lock(struct f2fs_wr *w, enum f2fs_fs_lock which, uint32_t ino, bool excl);
void wr_unlock(struct f2fs_wr *w, enum f2fs_fs_lock which, uint32_t ino, bool excl);
uint64_t wr_now(void);
/* The time operations stamp on inodes. */
uint64_t wr_clock(struct f2fs_wr *w);
/* The checkpoint's elapsed_time now (fixed while the clock is). */
uint64_t wr_elapsed(struct f2fs_wr *w);
/*
 * Mark the state broken (a device error, or a checkpoint that failed half
 * way): later calls fail with -EIO.  Returns @err.
 */
int wr_fail(struct f2fs_wr *w, int err);

/* io.c */
int wr_io_init(struct wr_io *io, uint32_t blksize);
void wr_io_free(struct wr_io *io);
/* Queue one block at @blkaddr; consecutive blocks of one kind go out as one request. */
int wr_write_block(struct f2fs_wr *w, uint64_t blkaddr, const void *buf, int kind);
/* Write @count blocks at once (already contiguous in @buf). */
int wr_write_blocks(struct f2fs_wr *w, uint64_t blkaddr, const void *buf, uint32_t count, int kind);
int wr_io_submit(struct f2fs_wr *w);
int wr_flush(struct f2fs_wr *w);
/* Read a block, seeing writes still pending. */
int wr_read_block(struct f2fs_wr *w, uint64_t blkaddr, void *buf);

/* alloc.c */
int wr_alloc_init(struct f2fs_wr *w);
void wr_alloc_free(struct f2fs_wr *w);
/*
 * Take the next block of log @type for the summary (@nid, @ofs, @version)
 * and mark it valid; *blkaddr is its address.  Cleans first when the log
 * needs a new section and free sections are down to the reserve.
 */
int wr_alloc_block(struct f2fs_wr *w, int type, uint32_t nid, uint16_t ofs, uint8_t version,
		   uint64_t *blkaddr);
/* Log @type leaves its segment for the next free one of its section, or a free section. */
int wr_log_new_segment(struct f2fs_wr *w, int type);
/* Move log @type to the start of a free section (its zone's pointer went elsewhere). */
int wr_log_new_section(struct f2fs_wr *w, int type);
/* Is section @secno one the logs may write under @a? */
bool wr_area_has(const struct wr_area *a, uint32_t secno);

/*
 * Zoned volumes (zoned.c): sequential zones take writes only at their write
 * pointer.  wr_zones_init() notes whether the volume is zoned and moves
 * every log whose zone's pointer is not where it would write next to a
 * fresh section (the kernel's f2fs_fix_curseg_write_pointer).  A section a
 * log is about to enter has its zone reset when an old pointer is left in
 * it (wr_zone_ready); a section a checkpoint frees is noted
 * (wr_zone_freed) and its zone reset once that checkpoint is on disk
 * (wr_zones_reset_freed), as the kernel's discard does.  No-ops elsewhere.
 */
int wr_zones_init(struct f2fs_wr *w, bool existing);
int wr_zone_ready(struct f2fs_wr *w, uint32_t secno);
void wr_zone_freed(struct f2fs_wr *w, uint32_t secno);
int wr_zones_reset_freed(struct f2fs_wr *w);
/* Remember @segno's SIT entry as changed: the next checkpoint writes it. */
void wr_seg_dirty(struct f2fs_wr *w, uint32_t segno);
/* Derive the free sections and segments again from the SIT (after fsck set entries). */
void wr_alloc_recount(struct f2fs_wr *w);
/* The block the log will hand out next (a node footer's next_blkaddr). */
uint64_t wr_log_next_addr(struct f2fs_wr *w, int type);
/* Mark a main-area block invalid (NULL and NEW addresses are ignored). */
void wr_invalidate(struct f2fs_wr *w, uint64_t blkaddr);
/*
 * Roll-forward: main-area block @blkaddr, written before a power cut and
 * now named by a recovered address, becomes valid data of (@nid, @ofs,
 * @version) where it is; its segment, when empty and not a log's, becomes
 * cold data for a block that filled a hole (@was_hole), warm otherwise.
 * Call wr_alloc_recount() after the last one.  -EINVAL when the block is
 * outside the main area or valid already.
 */
int wr_claim_block(struct f2fs_wr *w, uint64_t blkaddr, bool was_hole, uint32_t nid, uint16_t ofs,
		   uint8_t version);
/* The same for the node block of @nid at @blkaddr (an empty segment becomes @type). */
int wr_claim_node_block(struct f2fs_wr *w, uint64_t blkaddr, uint32_t nid, int type);
/* Is @blkaddr valid in the SIT now? */
bool wr_block_valid(struct f2fs_wr *w, uint64_t blkaddr);
/* At a checkpoint: checkpointed counts := current ones; emptied sections become free. */
void wr_alloc_checkpointed(struct f2fs_wr *w);
uint32_t wr_free_segments(struct f2fs_wr *w);
/* Checkpoint: dirty SIT entries into the journal or SIT blocks (version bits flipped). */
int wr_sit_flush(struct f2fs_wr *w);
/*
 * Segment @segno's summary is @sum (when a log leaves it, or a repair).  Like the kernel's meta
 * pages, summary blocks are written at the next checkpoint (wr_ssa_flush), or when WR_SSA_BATCH of
 * them wait, as the flusher writes the meta inode's pages only once that many are dirty
 * (f2fs_write_meta_pages).
 */
int wr_write_summary(struct f2fs_wr *w, uint32_t segno, const struct f2fs_summary_block *sum);
int wr_ssa_flush(struct f2fs_wr *w);
/*
 * The summary entry of main-area block @blkaddr := (@nid, @ofs, @version),
 * of a node or data (also the summary's type): in an open log's summary in
 * the pack, or the segment's SSA block (written as wr_write_summary says).
 */
int wr_set_summary(struct f2fs_wr *w, uint64_t blkaddr, uint32_t nid, uint16_t ofs, uint8_t version,
		   bool node);
/* Change the summary entry of a block of an open log's segment or the SSA's. */
bool wr_is_cur_seg(struct f2fs_wr *w, uint32_t segno);
bool wr_has_free_blocks(struct f2fs_wr *w, uint64_t n);
/*
 * Blocks left in the current sections of the six logs, by their
 * checkpointed valid blocks: the kernel's has_curseg_enough_space(), which
 * its balance check runs for every page written.
 */
uint64_t wr_curseg_room(struct f2fs_wr *w);

/* nat.c */
int wr_nat_init(struct f2fs_wr *w);
void wr_nat_free(struct f2fs_wr *w);
int wr_nid_alloc(struct f2fs_wr *w, uint32_t ino, uint32_t *nid);
/* Set a nid's address (a node written, F2FS_NULL_ADDR when freed: the version moves on). */
int wr_nat_set(struct f2fs_wr *w, uint32_t nid, uint32_t ino, uint32_t blkaddr);
const struct f2fs_nat_info *wr_nat_get(struct f2fs_wr *w, uint32_t nid);
/*
 * Checkpoint: dirty entries into the journal or NAT blocks (version bits
 * flipped); with @to_blocks (unmount with nat_bits) the journal is emptied.
 */
int wr_nat_flush(struct f2fs_wr *w, bool to_blocks);
/* A new volume: NAT entries of the node and meta inodes, in NAT block 0. */
int wr_nat_reserve_meta_inos(struct f2fs_wr *w);
/* nat_bits of the table as it is: full and empty bitmaps, one bit per NAT block. */
void wr_nat_bits(struct f2fs_wr *w, uint8_t *full, uint8_t *empty);

/* node.c */
/* Is @n (a block of the volume @g lays out) an inode, an xattr node or a direct node? */
bool wr_is_dnode(const struct f2fs_blkgeo *g, const struct f2fs_node *n);
/* Is @n an inode's block (offset 0, its own inode)? */
bool wr_node_is_inode(const struct f2fs_wr *w, const struct wr_node *n);
int wr_nodes_init(struct f2fs_wr *w);
void wr_nodes_free(struct f2fs_wr *w);
/* The cached node @nid of @ino, read on first use; pinned until wr_node_put(). */
int wr_node_get(struct f2fs_wr *w, uint32_t nid, uint32_t ino, struct wr_node **out);
/* wr_node_get() of the block NAT names for @nid, its footer unchecked (for fixing the footer). */
int wr_node_get_any_footer(struct f2fs_wr *w, uint32_t nid, struct wr_node **out);
/* A new node (nid allocated) of inode @ino at tree offset @ofs, zeroed, dirty, pinned. */
int wr_node_new(struct f2fs_wr *w, uint32_t ino, uint32_t nid, uint32_t ofs, bool is_dir,
		struct wr_node **out);
void wr_node_put(struct wr_node *n);
void wr_node_dirty(struct f2fs_wr *w, struct wr_node *n);
/* Free a node: its block becomes invalid, its nid free. */
int wr_node_remove(struct f2fs_wr *w, struct wr_node *n);
/* Write node @n to a new place in its log (marks for fsync given in @fsync_flags). */
int wr_node_write(struct f2fs_wr *w, struct wr_node *n, uint32_t mark_flags);
/* Write every dirty node (a checkpoint). */
int wr_nodes_write_all(struct f2fs_wr *w);
/* Drop clean nodes not pinned when the cache is over its budget. */
void wr_nodes_shrink(struct f2fs_wr *w);

/* Where file block @index of inode @in is addressed. */
struct wr_dnode {
	struct wr_node *node;  /* the inode or a direct node (pinned) */
	bool in_inode;	       /* @node is the inode: addresses are its i_addr[] */
	struct wr_node *inode; /* its file's inode (the caller's) */
	uint64_t index;	       /* the file block of address @ofs */
	unsigned int ofs;      /* address index in it, without the inode's extra offset */
	uint32_t nid;
};
/* Find (and with @create, make) the direct node of @index. */
int wr_dnode_get(struct f2fs_wr *w, struct wr_node *inode, uint64_t index, bool create,
		 struct wr_dnode *dn);
uint32_t wr_dnode_addr(const struct wr_dnode *dn);
/* Slot @k after the dnode's own (a cluster's slots lie in one node). */
uint32_t wr_dnode_addr_at(const struct wr_dnode *dn, unsigned int k);
void wr_dnode_set_addr_at(struct f2fs_wr *w, struct wr_dnode *dn, unsigned int k, uint32_t addr);
void wr_dnode_set_addr(struct f2fs_wr *w, struct wr_dnode *dn, uint32_t addr);
void wr_dnode_put(struct wr_dnode *dn);
/*
 * File blocks [@from, @from + @len) of @inode get new addresses: an i_ext
 * (the kernel's largest read extent, trusted when it loads the inode) that
 * covers any of them is dropped, as the kernel drops its largest extent
 * when it is updated inside.
 */
void wr_drop_extent(struct f2fs_wr *w, struct wr_node *inode, uint64_t from, uint64_t len);
/* Free every data block at or past @from and the nodes that map only those. */
int wr_truncate_blocks(struct f2fs_wr *w, struct wr_node *inode, uint64_t from);

/* inode.c */
int wr_inodes_init(struct f2fs_wr *w);
void wr_inodes_free(struct f2fs_wr *w);
struct wr_inode *wr_inode_find(struct f2fs_wr *w, uint32_t ino, bool create);
void wr_inode_forget(struct f2fs_wr *w, uint32_t ino);
int wr_inode_get(struct f2fs_wr *w, uint32_t ino, struct wr_node **out);
int wr_inode_new(struct f2fs_wr *w, const struct f2fs_new_inode *a, uint32_t pino,
		 struct wr_node **out);
/* The inline data bytes a new inode made with @a would hold (0 without inline_ok). */
unsigned int wr_inode_inline_bytes_for(struct f2fs_wr *w, const struct f2fs_new_inode *a);
/* wr_inode_new() for inode number @ino, whose NAT entry the caller has set (NEW_ADDR). */
int wr_inode_make(struct f2fs_wr *w, uint32_t ino, const struct f2fs_new_inode *a, uint32_t pino,
		  struct wr_node **out);
/* i_blocks += @delta (blocks) */
void wr_inode_add_blocks(struct f2fs_wr *w, struct wr_node *in, int64_t delta);
void wr_inode_touch(struct f2fs_wr *w, struct wr_node *in, bool ctime, bool mtime);
void wr_inode_touch_lazy(struct f2fs_wr *w, struct wr_node *in);
/* Drop a link; the last one frees the inode's blocks, nodes and nid (and *in becomes NULL). */
int wr_inode_unlink(struct f2fs_wr *w, struct wr_node **in);
int wr_inode_temp(struct f2fs_wr *w, const struct f2fs_inode *ri, bool node);
/* Mark a new regular file hot or cold by the superblock's extension lists. */
void wr_inode_temp_by_name(struct f2fs_wr *w, struct wr_node *in, const char *name, size_t len);
bool wr_is_dir(const struct wr_node *in);

/* dir.c */
/* -ENOTDIR for a non-directory, -EOPNOTSUPP for a casefolded or encrypted one, else 0. */
int wr_dir_refuse_special(const struct wr_node *dir);
int wr_dir_lookup(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len,
		  uint32_t *ino, uint8_t *type);
int wr_dir_add(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len, uint32_t ino,
	       uint8_t type);
int wr_dir_remove(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len);
/* Point the entry @name at @ino (rename over an existing name, "..") */
int wr_dir_set(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len, uint32_t ino,
	       uint8_t type);
int wr_dir_init(struct f2fs_wr *w, struct wr_node *dir, uint32_t parent);
struct f2fs_dentry_area;
/* The dentry area of file block @block of @dir (UINT64_MAX: inline), ready to change. */
int wr_dir_area(struct f2fs_wr *w, struct wr_node *dir, uint64_t block, struct f2fs_dentry_area *a);
int wr_dir_is_empty(struct f2fs_wr *w, struct wr_node *dir);

/* data.c */
int wr_data_write(struct f2fs_wr *w, struct wr_node *in, const void *buf, size_t len, uint64_t off);
int wr_data_read(struct f2fs_wr *w, struct wr_node *in, void *buf, size_t len, uint64_t off,
		 size_t *done);
/* Read file block @index (page cache, inline, or disk) into @buf; zeros for a hole. */
int wr_data_read_block(struct f2fs_wr *w, struct wr_node *in, uint64_t index, void *buf);
int wr_writepages(struct f2fs_wr *w, uint32_t ino, enum f2fs_wb_mode mode);
/* At most @max pages of @ino's, lowest index first; *left: pages still dirty. */
int wr_writepages_some(struct f2fs_wr *w, uint32_t ino, uint64_t max, bool cyclic, uint64_t *left);
/* The dirty page @index of @in (read from the file when not cached yet). */
int wr_page_for_write(struct f2fs_wr *w, struct wr_node *in, uint64_t index, uint8_t **out);
/* Write back every dirty page (only directories' with @dirs_only), in inode order. */
int wr_write_all_data(struct f2fs_wr *w, bool dirs_only);
void wr_drop_pages(struct f2fs_wr *w, struct wr_inode *wi, uint64_t from_index);
/* Give a page buffer back (kept for reuse up to a bound). */
void wr_page_free(struct wr_inode_table *t, uint8_t *page);
int wr_set_size(struct f2fs_wr *w, struct wr_node *in, uint64_t size);

/* data.c, for compress.c: copy page @index out (false when not cached), write one page */
bool wr_page_copy(const struct f2fs_wr *w, const struct wr_inode *wi, uint64_t index, void *out);
int wr_write_cached_page(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi,
			 uint64_t index);
void wr_drop_page_range(struct f2fs_wr *w, struct wr_inode *wi, uint64_t from, uint64_t to);

/* compress.c */
bool wr_compressed(const struct f2fs_inode *ri);
/* -EOPNOTSUPP for an algorithm or cluster size this build does not write */
int wr_compress_check(const struct f2fs_inode *ri);
/* Block @index of a compressed cluster (decompressed); *done false when not compressed. */
int wr_compressed_read_block(struct f2fs_wr *w, struct wr_node *in, uint64_t index, void *buf,
			     bool *done);
int wr_compressed_writepages(struct f2fs_wr *w, struct wr_node *in, struct wr_inode *wi);
/* Is @ri a compressed file whose saved blocks were released (it takes no new data)? */
bool wr_compress_released(const struct f2fs_inode *ri);
/* F2FS_IOC_RELEASE_COMPRESS_BLOCKS on @in: *released, the blocks given back. */
int wr_compress_release(struct f2fs_wr *w, struct wr_node *in, uint64_t *released);

/* xattr.c */
int wr_xattr_free(struct f2fs_wr *w, struct wr_node *in);

/* checkpoint.c */
int wr_checkpoint(struct f2fs_wr *w, const struct f2fs_cp_request *req);

/* gc.c */
int wr_gc(struct f2fs_wr *w, uint32_t want_free);
/*
 * Move the valid blocks [@first, @end) of segment @segno through the
 * allocator: a node to its node log, data to log @data_log, every owner
 * (NAT, direct node, SSA, SIT) updated.  Blocks whose summary names an
 * owner that no longer points at them are dead and stay.  *@moved counts
 * the valid blocks gone through (dead ones included).
 */
int wr_move_blocks(struct f2fs_wr *w, uint32_t segno, uint32_t first, uint32_t end, int data_log,
		   uint64_t *moved);

#endif
