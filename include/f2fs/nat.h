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

/* Packed: the table holds one per nid in use (a quarter of a check's memory on a large volume). */
struct f2fs_nat_info {
	uint32_t ino;
	uint32_t blkaddr;
	uint8_t version;
	uint8_t from_journal;
} __attribute__((packed));

struct f2fs_nat_table; /* opaque: reach it through f2fs_fs_nat() */

/* The entry every nid of an empty NAT block has. */
extern const struct f2fs_nat_info f2fs_nat_empty_entry;

/* Nids the table covers: NAT blocks of one copy x entries per block. */
uint32_t f2fs_nat_max_nid(const struct f2fs_nat_table *t);

/* NAT entries per NAT block (455 with 4 KiB blocks, 1820 with 16 KiB). */
uint32_t f2fs_nat_per_block(const struct f2fs_nat_table *t);

/* The entry of @nid, or NULL when it is outside the table. */
const struct f2fs_nat_info *f2fs_nat_get(const struct f2fs_nat_table *t, uint32_t nid);

/* NAT blocks of one copy; does block @blk hold any entry (walks skip the rest)? */
uint32_t f2fs_nat_blocks(const struct f2fs_nat_table *t);
bool f2fs_nat_block_used(const struct f2fs_nat_table *t, uint32_t blk);

/*
 * nat_bits, when the checkpoint has CP_NAT_BITS_FLAG and their tag matches:
 * per NAT block, "every nid in use" and "no nid in use".
 */
bool f2fs_nat_bits_valid(const struct f2fs_nat_table *t);
bool f2fs_nat_bits_full(const struct f2fs_nat_table *t, uint32_t blk);
bool f2fs_nat_bits_empty(const struct f2fs_nat_table *t, uint32_t blk);

/*
 * Do the nat_bits describe the NAT exactly: tag valid, and for every NAT
 * block the full bit set iff all its nids are in use, the empty bit iff
 * none is (nid 0 counts as in use)?  Upstream's fsck reports this as
 * "Checked valid nat_bits"; the kernel uses nat_bits only then.
 */
bool f2fs_nat_bits_exact(const struct f2fs_nat_table *t);

/* NAT journal entries with a nid past the table (ignored by the loader). */
uint32_t f2fs_nat_journal_bad_nids(const struct f2fs_nat_table *t);

/* Block address of NAT block @idx in copy 0 or 1 (copies alternate per segment). */
uint32_t f2fs_nat_block_addr(const struct f2fs_super_block *sb, uint32_t idx, int copy);

#endif
