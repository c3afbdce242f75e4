/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block size of a volume and everything the on-disk format sizes by it.
 *
 * F2FS blocks are 4 KiB or (newer Android devices, 16 KiB pages) 16 KiB:
 * the superblock's log_blocksize is 12 or 14.  Most structures keep their
 * fixed headers and grow only at the end: a node block keeps the inode's
 * fields up to i_addr[] where they are, but i_addr[] gets longer, and the
 * footer and the inode's i_nid[] move to the end of the block; a NAT, SIT
 * or orphan block holds more entries; a dentry block more slots; a summary
 * block more entries and a larger journal.  The superblock stays at byte
 * 1024 of blocks 0 and 1, segments stay 512 blocks (so a 16 KiB segment is
 * 8 MiB) and the SIT's valid map stays 64 bytes.
 *
 * So the block size is a property of the opened volume, not a constant: a
 * struct f2fs_blkgeo is computed ONCE from log_blocksize (f2fs_blkgeo_init)
 * and kept in the handle's geometry (f2fs_fs_geo(fs)->blk).  Code that
 * reads a block of the volume sizes its buffer, counts its entries and
 * finds its trailing fields (node footer, i_nid[], summary journal and
 * footer, checkpoint checksum) through it.  The structs in format.h describe
 * the 4 KiB layout; on any volume only their fixed leading fields (those
 * before i_addr[], the entries of a NAT, SIT or summary block) may be used
 * directly, everything after goes through the accessors below.
 *
 * F2FS_BLKSIZE (format.h) stays 4096: the smallest block, and the unit of
 * things that are not volume blocks (the undo journal's header, a host
 * page).  F2FS_MAX_BLKSIZE sizes a buffer that must hold any volume's block.
 *
 * With packed_ssa (newest upstream, 16 KiB blocks only) every summary, the
 * SSA's and the checkpoint pack's, keeps the 4 KiB layout, and the SSA
 * holds blksize / 4096 of them per block: f2fs_blkgeo_init_features()
 * folds that into the summary fields (sum_blksize, sums_per_block, the
 * journal sizes), and f2fs_ssa_block_of()/f2fs_ssa_byte_of() say where a
 * segment's summary lies either way.
 *
 * Where the block size is the handle's, and where it is not:
 *   - read side (lib/fs, lib/read, lib/check, dump, fsck's checks and
 *     output), write side (lib/write, so sload, fsck's repairs, defrag
 *     and f2fs_io replay; lib/mkfs and lib/format/layout.c's sizing for
 *     mkfs -b 16384, lib/resize and f2fs_layout_resize for resize.f2fs),
 *     inject.f2fs and fsck's --rebuild: the volume's, through
 *     f2fs_fs_geo(fs)->blk, or for a layout being made, its log_blksize
 *     and features; packed_ssa is read and made;
 *   - not the volume's block at all, so they stay: struct sizes and static
 *     asserts of the 4 KiB layout (format.h), the smallest device that can
 *     hold both superblock copies (tools/common/target.c), the undo
 *     journal's header room and block granularity (lib/dev/undo.c, whose
 *     fingerprint of a volume reads only volumes our 4 KiB writers made).
 */
#ifndef F2FS_BLKGEO_H
#define F2FS_BLKGEO_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/format.h"

#define F2FS_MIN_BLKSIZE_BITS 12
#define F2FS_MAX_BLKSIZE_BITS 14
#define F2FS_MAX_BLKSIZE      (1u << F2FS_MAX_BLKSIZE_BITS)

struct f2fs_blkgeo {
	uint32_t blksize;	     /* bytes per block */
	uint32_t log_blksize;	     /* 12 or 14 */
	uint32_t addrs_per_inode;    /* words of an inode's i_addr[] (DEF_ADDRS_PER_INODE) */
	uint32_t addrs_per_block;    /* data addresses in a direct node */
	uint32_t nids_per_block;     /* nids in an indirect node */
	uint32_t footer_offset;	     /* byte offset of a node block's footer */
	uint32_t inode_nid_word;     /* word index of an inode's i_nid[0] */
	uint32_t nat_per_block;	     /* NAT entries per NAT block */
	uint32_t sit_per_block;	     /* SIT entries per SIT block */
	uint32_t orphans_per_block;  /* inode numbers per orphan block */
	uint32_t dentry_slots;	     /* dentry slots per dentry block */
	uint32_t dentry_bitmap;	     /* bytes of a dentry block's bitmap */
	uint32_t dentry_reserved;    /* bytes between the bitmap and the entries */
	uint32_t sum_blksize;	     /* bytes of a summary: blksize, 4096 with packed_ssa */
	uint32_t sums_per_block;     /* summaries per SSA block: 1, or blksize / 4096 packed */
	uint32_t sum_entries;	     /* entries of a summary block (only 512 are used) */
	uint32_t sum_journal_offset; /* byte offset of a summary block's journal */
	uint32_t sum_journal_size;   /* its bytes, the 2-byte count included */
	uint32_t nat_journal_entries;
	uint32_t sit_journal_entries;
	uint32_t sum_footer_offset; /* byte offset of a summary block's footer */
	uint32_t cp_chksum_offset;  /* the largest checksum_offset of a checkpoint */
};

/*
 * Fill @g for blocks of 1 << @log_blksize bytes.  Returns 0, or -EINVAL for
 * a size other than 4 KiB or 16 KiB (@g untouched).
 */
int f2fs_blkgeo_init(struct f2fs_blkgeo *g, uint32_t log_blksize);

/*
 * As f2fs_blkgeo_init() for a volume with feature bits @features: with
 * F2FS_FEATURE_PACKED_SSA every summary (the SSA's and the checkpoint
 * pack's) has the 4 KiB layout, entries, journal and footer, and the SSA
 * holds blksize / 4096 of them per block.  On 4 KiB blocks the bit changes
 * nothing.
 */
int f2fs_blkgeo_init_features(struct f2fs_blkgeo *g, uint32_t log_blksize, uint32_t features);

/* The SSA block (@ssa_blkaddr: the area's first) holding main segment @segno's summary. */
static inline uint64_t f2fs_ssa_block_of(const struct f2fs_blkgeo *g, uint32_t ssa_blkaddr,
					 uint32_t segno)
{
	return (uint64_t)ssa_blkaddr + segno / g->sums_per_block;
}

/* The byte of the volume where segment @segno's summary starts (g->sum_blksize bytes). */
static inline uint64_t f2fs_ssa_byte_of(const struct f2fs_blkgeo *g, uint32_t ssa_blkaddr,
					uint32_t segno)
{
	return (uint64_t)ssa_blkaddr * g->blksize + (uint64_t)segno * g->sum_blksize;
}

/*
 * Whether @sit_segs SIT segments (both copies together) hold an entry for
 * each of @segs segments.
 */
static inline bool f2fs_sit_covers(const struct f2fs_blkgeo *g, uint32_t sit_segs, uint32_t segs)
{
	return (uint64_t)(sit_segs / 2) * F2FS_DEFAULT_BLKS_PER_SEG * g->sit_per_block >= segs;
}

/* Whether @ssa_segs SSA segments hold a summary for each of @main_segs main segments. */
static inline bool f2fs_ssa_covers(const struct f2fs_blkgeo *g, uint32_t ssa_segs,
				   uint32_t main_segs)
{
	return (uint64_t)ssa_segs * F2FS_DEFAULT_BLKS_PER_SEG * g->sums_per_block >= main_segs;
}

/* The geometry of 4 KiB blocks (what mkfs writes by default). */
const struct f2fs_blkgeo *f2fs_blkgeo_4k(void);

/* The footer of node block @n (the last bytes of the block). */
static inline struct f2fs_node_footer *f2fs_node_footer(const struct f2fs_blkgeo *g,
							const struct f2fs_node *n)
{
	return (struct f2fs_node_footer *)((uint8_t *)n + g->footer_offset);
}

/* Footer fields of node block @n, in host order. */
static inline uint32_t f2fs_footer_nid(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	return le32_get(f2fs_node_footer(g, n)->nid);
}

static inline uint32_t f2fs_footer_ino(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	return le32_get(f2fs_node_footer(g, n)->ino);
}

static inline uint32_t f2fs_footer_flag(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	return le32_get(f2fs_node_footer(g, n)->flag);
}

static inline uint64_t f2fs_footer_cp_ver(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	return le64_get(f2fs_node_footer(g, n)->cp_ver);
}

static inline uint32_t f2fs_footer_next_blkaddr(const struct f2fs_blkgeo *g,
						const struct f2fs_node *n)
{
	return le32_get(f2fs_node_footer(g, n)->next_blkaddr);
}

/* Offset of node block @n in its file's tree, from the footer. */
static inline uint32_t f2fs_node_ofs(const struct f2fs_blkgeo *g, const struct f2fs_node *n)
{
	return f2fs_footer_flag(g, n) >> F2FS_OFFSET_BIT_SHIFT;
}

/* The words after an orphan block's inode numbers, which end the block. */
struct f2fs_orphan_tail {
	le32 reserved;
	le16 blk_addr;
	le16 blk_count;
	le32 entry_count;
	le32 check_sum;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_orphan_tail) ==
		   sizeof(struct f2fs_orphan_block) - offsetof(struct f2fs_orphan_block, reserved),
	       "orphan tail");

static inline struct f2fs_orphan_tail *f2fs_orphan_tail(const struct f2fs_blkgeo *g, void *blk)
{
	return (struct f2fs_orphan_tail *)((uint8_t *)blk +
					   (size_t)g->orphans_per_block * sizeof(le32));
}

/* The largest summary journal (16 KiB blocks), its 2-byte count included. */
#define F2FS_MAX_SUM_JOURNAL_SIZE                                                                  \
	(F2FS_MAX_BLKSIZE - F2FS_SUM_FOOTER_SIZE - F2FS_SUMMARY_SIZE * (F2FS_MAX_BLKSIZE / 8))

/*
 * Entry @i of a NAT or SIT journal, which may hold more entries than the
 * 4 KiB struct f2fs_journal declares (@i < the geometry's *_journal_entries).
 */
static inline struct f2fs_nat_journal_entry *f2fs_nat_journal_at(const struct f2fs_journal *j,
								 uint32_t i)
{
	return (struct f2fs_nat_journal_entry *)((uint8_t *)j + sizeof(le16) +
						 (size_t)i * sizeof(struct f2fs_nat_journal_entry));
}

static inline struct f2fs_sit_journal_entry *f2fs_sit_journal_at(const struct f2fs_journal *j,
								 uint32_t i)
{
	return (struct f2fs_sit_journal_entry *)((uint8_t *)j + sizeof(le16) +
						 (size_t)i * sizeof(struct f2fs_sit_journal_entry));
}

/* The journal and the footer of summary block @s. */
static inline uint8_t *f2fs_sum_journal(const struct f2fs_blkgeo *g,
					const struct f2fs_summary_block *s)
{
	return (uint8_t *)s + g->sum_journal_offset;
}

static inline struct f2fs_summary_footer *f2fs_sum_footer(const struct f2fs_blkgeo *g,
							  const struct f2fs_summary_block *s)
{
	return (struct f2fs_summary_footer *)((uint8_t *)s + g->sum_footer_offset);
}

/*
 * Keep the volume's summary @raw (g->sum_blksize bytes) as @dst in the
 * 4 KiB layout: its first 512 entries and its footer (a 4 KiB summary as
 * it is).  The inverse of f2fs_sum_store().
 */
static inline void f2fs_sum_load(const struct f2fs_blkgeo *g, struct f2fs_summary_block *dst,
				 const void *raw)
{
	if (g->sum_blksize == sizeof(*dst)) {
		memcpy(dst, raw, sizeof(*dst));
		return;
	}
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->entries, raw, sizeof(dst->entries));
	dst->footer = *f2fs_sum_footer(g, (const struct f2fs_summary_block *)raw);
}

/*
 * Lay a summary kept in the 4 KiB layout (@sum: a segment's entries and the
 * footer) out as a summary of the volume at @blk (g->sum_blksize bytes),
 * journal room zeroed.  A 4 KiB summary is @sum as it is.
 */
static inline void f2fs_sum_store(const struct f2fs_blkgeo *g, void *blk,
				  const struct f2fs_summary_block *sum)
{
	if (g->sum_blksize == sizeof(*sum)) {
		memcpy(blk, sum, sizeof(*sum));
		return;
	}
	memset(blk, 0, g->sum_blksize);
	memcpy(blk, sum->entries, sizeof(sum->entries));
	memcpy(f2fs_sum_footer(g, blk), &sum->footer, sizeof(sum->footer));
}

#endif
