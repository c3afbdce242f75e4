// SPDX-License-Identifier: GPL-2.0
/*
 * The sizes the on-disk format derives from the block size (see
 * f2fs/blkgeo.h): each computed here once, from the fixed parts of the
 * structures in format.h, the way the kernel's and upstream's macros size
 * them by F2FS_BLKSIZE.
 */
#include "config.h"

#include <errno.h>

#include "f2fs/blkgeo.h"

#define BITS_PER_BYTE 8u

/* Dentry slots: each costs an entry, a name slot and a bitmap bit. */
static void dentry_geometry(struct f2fs_blkgeo *g)
{
	uint32_t slot_bits = (F2FS_DIR_ENTRY_SIZE + F2FS_SLOT_LEN) * BITS_PER_BYTE + 1;

	g->dentry_slots = BITS_PER_BYTE * g->blksize / slot_bits;
	g->dentry_bitmap = (g->dentry_slots + BITS_PER_BYTE - 1) / BITS_PER_BYTE;
	g->dentry_reserved = g->blksize - ((F2FS_DIR_ENTRY_SIZE + F2FS_SLOT_LEN) * g->dentry_slots +
					   g->dentry_bitmap);
}

/*
 * A summary of @size bytes: 8 bytes of entry room per summary block
 * (so 7-byte entries leave room), the journal, then the footer.
 */
static void summary_geometry(struct f2fs_blkgeo *g, uint32_t size)
{
	uint32_t body;

	g->sum_blksize = size;
	g->sums_per_block = g->blksize / size;
	g->sum_entries = size / 8;
	g->sum_journal_offset = g->sum_entries * (uint32_t)sizeof(struct f2fs_summary);
	g->sum_footer_offset = size - (uint32_t)sizeof(struct f2fs_summary_footer);
	g->sum_journal_size = g->sum_footer_offset - g->sum_journal_offset;
	body = g->sum_journal_size - (uint32_t)sizeof(le16);
	g->nat_journal_entries = body / (uint32_t)sizeof(struct f2fs_nat_journal_entry);
	g->sit_journal_entries = body / (uint32_t)sizeof(struct f2fs_sit_journal_entry);
}

int f2fs_blkgeo_init(struct f2fs_blkgeo *g, uint32_t log_blksize)
{
	uint32_t footer = (uint32_t)sizeof(struct f2fs_node_footer);
	uint32_t nids = F2FS_DEF_NIDS_PER_INODE * (uint32_t)sizeof(le32);

	if (log_blksize != F2FS_MIN_BLKSIZE_BITS && log_blksize != F2FS_MAX_BLKSIZE_BITS)
		return -EINVAL;
	g->log_blksize = log_blksize;
	g->blksize = 1u << log_blksize;
	g->footer_offset = g->blksize - footer;
	g->inode_nid_word = (g->footer_offset - nids) / (uint32_t)sizeof(le32);
	g->addrs_per_inode =
	    g->inode_nid_word - (uint32_t)(offsetof(struct f2fs_inode, i_addr) / sizeof(le32));
	g->addrs_per_block = g->footer_offset / (uint32_t)sizeof(le32);
	g->nids_per_block = g->addrs_per_block;
	g->nat_per_block = g->blksize / (uint32_t)sizeof(struct f2fs_nat_entry);
	g->sit_per_block = g->blksize / (uint32_t)sizeof(struct f2fs_sit_entry);
	/* an orphan block ends with four words: reserved, blk_addr/count, entry_count, checksum */
	g->orphans_per_block = (g->blksize - 4 * (uint32_t)sizeof(le32)) / (uint32_t)sizeof(le32);
	g->cp_chksum_offset = g->blksize - (uint32_t)sizeof(le32);
	dentry_geometry(g);
	summary_geometry(g, g->blksize);
	return 0;
}

int f2fs_blkgeo_init_features(struct f2fs_blkgeo *g, uint32_t log_blksize, uint32_t features)
{
	int ret = f2fs_blkgeo_init(g, log_blksize);

	if (!ret && (features & F2FS_FEATURE_PACKED_SSA))
		summary_geometry(g, 1u << F2FS_MIN_BLKSIZE_BITS);
	return ret;
}

const struct f2fs_blkgeo *f2fs_blkgeo_4k(void)
{
	/* the format's constants for 4 KiB blocks, which f2fs_blkgeo_init(12) computes */
	static const struct f2fs_blkgeo g4k = {
	    .blksize = F2FS_BLKSIZE,
	    .log_blksize = F2FS_BLKSIZE_BITS,
	    .addrs_per_inode = F2FS_DEF_ADDRS_PER_INODE,
	    .addrs_per_block = F2FS_ADDRS_PER_BLOCK,
	    .nids_per_block = F2FS_NIDS_PER_BLOCK,
	    .footer_offset = offsetof(struct f2fs_node, footer),
	    .inode_nid_word = offsetof(struct f2fs_inode, i_nid) / sizeof(le32),
	    .nat_per_block = F2FS_NAT_ENTRY_PER_BLOCK,
	    .sit_per_block = F2FS_SIT_ENTRY_PER_BLOCK,
	    .orphans_per_block = F2FS_ORPHANS_PER_BLOCK,
	    .dentry_slots = F2FS_NR_DENTRY_IN_BLOCK,
	    .dentry_bitmap = F2FS_DENTRY_BITMAP_SIZE,
	    .dentry_reserved = F2FS_DENTRY_RESERVED,
	    .sum_blksize = F2FS_BLKSIZE,
	    .sums_per_block = 1,
	    .sum_entries = F2FS_ENTRIES_IN_SUM,
	    .sum_journal_offset = offsetof(struct f2fs_summary_block, journal),
	    .sum_journal_size = F2FS_SUM_JOURNAL_SIZE,
	    .nat_journal_entries = F2FS_NAT_JOURNAL_ENTRIES,
	    .sit_journal_entries = F2FS_SIT_JOURNAL_ENTRIES,
	    .sum_footer_offset = offsetof(struct f2fs_summary_block, footer),
	    .cp_chksum_offset = F2FS_CP_CHKSUM_OFFSET,
	};

	return &g4k;
}
