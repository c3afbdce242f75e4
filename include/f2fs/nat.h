/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The node address table as the checkpoint left it: for every nid its inode
 * number, block address and version, from the NAT copy the checkpoint's
 * bitmap selects for each NAT block, overlaid with the NAT journal.
 */
#ifndef F2FS_NAT_H
#define F2FS_NAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/summary.h"

struct f2fs_nat_info {
	uint32_t ino;
	uint32_t blkaddr;
	uint8_t version;
	uint8_t from_journal;
};

struct f2fs_nat_table {
	uint32_t max_nid; /* NAT blocks of one copy x entries per block */
	/* per NAT block, NULL when every entry of that block is empty: most are */
	struct f2fs_nat_info **blocks;
	/* nat_bits, when the checkpoint has CP_NAT_BITS_FLAG and the tag matches */
	bool nat_bits_valid;
	uint8_t *full_nat_bits;	 /* one bit per NAT block: every nid in use */
	uint8_t *empty_nat_bits; /* one bit per NAT block: no nid in use */
	uint32_t nat_blocks;
	uint32_t journal_bad_nids; /* journal entries with nid >= max_nid (ignored) */
};

/*
 * Load the NAT, reading the area in large sequential chunks.  @cp_start is
 * the block address of @cp's pack (f2fs_volume_cp_start()): nat_bits end at
 * the end of that segment.
 */
int f2fs_nat_load(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		  const struct f2fs_checkpoint *cp, uint32_t cp_start,
		  const struct f2fs_cp_data *cpd, struct f2fs_nat_table **out, char *why,
		  size_t why_len);

void f2fs_nat_free(struct f2fs_nat_table *t);

/* The entry every nid of an empty NAT block has. */
extern const struct f2fs_nat_info f2fs_nat_empty_entry;

/* The entry of @nid, or NULL when it is outside the table. */
static inline const struct f2fs_nat_info *f2fs_nat_get(const struct f2fs_nat_table *t, uint32_t nid)
{
	const struct f2fs_nat_info *blk;

	if (nid >= t->max_nid)
		return NULL;
	blk = t->blocks[nid / F2FS_NAT_ENTRY_PER_BLOCK];
	return blk ? &blk[nid % F2FS_NAT_ENTRY_PER_BLOCK] : &f2fs_nat_empty_entry;
}

/* Block address of NAT block @idx in copy 0 or 1 (copies alternate per segment). */
uint32_t f2fs_nat_block_addr(const struct f2fs_super_block *sb, uint32_t idx, int copy);

#endif
