/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the fs layer: the handle's fields and the table loaders.  Only
 * lib/fs/ and the layers above it inside lib/ (which will carry the write
 * path's dirty state in the same handle) include this; tools and tests
 * reach the tables through include/f2fs/fs.h, which loads each of them
 * once, so nobody outside writes the load sequence again.
 */
#ifndef F2FS_FS_INTERNAL_H
#define F2FS_FS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/fs.h"

struct f2fs_sit_table {
	uint32_t segments; /* main-area segments */
	uint32_t segs_per_sec;
	uint32_t sections;
	/*
	 * Entries per SIT block (per_block segments), NULL for a
	 * block whose entries were all zero on disk and in the journal: memory
	 * follows the segments in use, not the device size.
	 */
	struct f2fs_seg_entry **blocks;
	uint32_t nr_blocks;
	uint32_t per_block; /* SIT entries per block: the volume's block size decides */
	uint32_t blksize;
	struct f2fs_sec_entry *sec;
	uint32_t free_segments; /* segments with no valid block that are not open logs */
	struct f2fs_sit_anomaly *anomalies;
	uint32_t anomaly_count;
};

struct f2fs_nat_table {
	uint32_t max_nid;   /* NAT blocks of one copy x entries per block */
	uint32_t per_block; /* NAT entries per block: the volume's block size decides */
	uint32_t blksize;
	/* per NAT block, NULL when every entry of that block is empty: most are */
	struct f2fs_nat_info **blocks;
	/* nat_bits, when the checkpoint has CP_NAT_BITS_FLAG and the tag matches */
	bool nat_bits_valid;
	uint8_t *full_nat_bits;	 /* one bit per NAT block: every nid in use */
	uint8_t *empty_nat_bits; /* one bit per NAT block: no nid in use */
	uint32_t nat_blocks;
	uint32_t journal_bad_nids; /* journal entries with nid >= max_nid (ignored) */
};

/* A table that failed to load remembers its error, so later calls fail alike. */
struct fs_slot {
	bool tried;
	int err;
};

struct f2fs_fs {
	struct f2fs_device *dev;
	unsigned int flags;
	struct f2fs_volume *vol;
	struct f2fs_geometry geo;
	uint32_t features;
	/* zones.c: the sequential zones' capacities differ (the kernel refuses that) */
	bool zone_capacity_mixed;

	struct f2fs_cp_data *cpd;
	struct f2fs_sit_table *sit;
	struct f2fs_nat_table *nat;
	struct f2fs_ssa *ssa;
	struct fs_slot cpd_slot, sit_slot, nat_slot, ssa_slot;
	char why[256];

	struct f2fs_fs_lock_ops lock_ops;
	f2fs_progress_fn progress_fn;
	void *progress_arg;

	/*
	 * The write path's state (lib/write), attached on first use and freed
	 * by close through @wr_free: the fs layer knows nothing of its shape.
	 */
	void *wr;
	void (*wr_free)(void *wr);
};

/*
 * On a zoned volume opened on its zoned device(s): set geo.unusable_per_sec
 * from the sequential zones' capacity, as the kernel does at mount (zones.c).
 * Without zone information (an image file) every block counts as usable.
 */
void fs_read_zone_capacity(struct f2fs_fs *fs);

/* Format a one-line reason into @why (nothing when @why is NULL or empty). */
void fs_say(char *why, size_t why_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * The loaders behind the handle.  Each returns 0, or a negative errno with
 * a one-line reason that starts with the structure's name ("SIT: ...").
 */
int f2fs_volume_open(struct f2fs_device *dev, bool allow_short, struct f2fs_volume **out, char *why,
		     size_t why_len);
void f2fs_volume_close(struct f2fs_volume *v);

int f2fs_cp_data_load(const struct f2fs_volume *v, struct f2fs_cp_data **out, char *why,
		      size_t why_len);
void f2fs_cp_data_free(struct f2fs_cp_data *d);

int f2fs_sit_load(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_cp_data *cpd, struct f2fs_sit_table **out, char *why,
		  size_t why_len);
void f2fs_sit_free(struct f2fs_sit_table *t);

int f2fs_nat_load(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_checkpoint *cp, uint32_t cp_start,
		  const struct f2fs_cp_data *cpd, struct f2fs_nat_table **out, char *why,
		  size_t why_len);
void f2fs_nat_free(struct f2fs_nat_table *t);

int f2fs_ssa_open(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_cp_data *cpd, struct f2fs_ssa **out);
void f2fs_ssa_free(struct f2fs_ssa *s);

/*
 * For the write path: a handle over a volume that exists only in memory
 * (@sb and the checkpoint block @cp, to be written by the first
 * checkpoint), with empty tables -- every segment free, every nid free.
 * The device is written only by the write path.
 */
/*
 * @sb is the volume's superblock now, both copies of it on the device
 * (the write path wrote them): the handle hands it out from here on.
 */
void f2fs_volume_set_sb(struct f2fs_volume *v, const struct f2fs_super_block *sb);

int f2fs_fs_new(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		const struct f2fs_checkpoint *cp, struct f2fs_fs **out);

int f2fs_volume_new(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		    const void *cp_block, int cp_index, struct f2fs_volume **out);
/* After a checkpoint: pack @cp_index now holds @cp_block. */
void f2fs_volume_set_cp(struct f2fs_volume *v, const void *cp_block, int cp_index);

int f2fs_cp_data_new(const struct f2fs_super_block *sb, const struct f2fs_checkpoint *cp,
		     struct f2fs_cp_data **out);
int f2fs_sit_new_empty(const struct f2fs_super_block *sb, struct f2fs_sit_table **out);
int f2fs_nat_new_empty(const struct f2fs_super_block *sb, struct f2fs_nat_table **out);

/* The entry of @segno / @nid for changing it (allocated on first use); NULL past the end or on
 * ENOMEM. */
struct f2fs_seg_entry *f2fs_sit_seg_mut(struct f2fs_sit_table *t, uint32_t segno);
struct f2fs_nat_info *f2fs_nat_entry_mut(struct f2fs_nat_table *t, uint32_t nid);

/* Replace the cached summary of @segno (after the write path wrote it to the SSA). */
int f2fs_ssa_put(struct f2fs_ssa *s, uint32_t segno, const struct f2fs_summary_block *blk);

#endif
