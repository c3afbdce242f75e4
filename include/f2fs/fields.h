/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Field tables: for each on-disk structure a tool lists or changes one
 * field at a time (superblock, checkpoint, inode, node footer, direct
 * node, NAT and SIT entries, summary entry and summary footer, dentry,
 * xattr entry head) a table of its fields under the names upstream
 * f2fs-tools gives them: where each lies, how a tool shows it, and whether
 * a tool may write it.  inject.f2fs finds --mb NAME here; dump.f2fs and
 * fsck.f2fs list the superblock, checkpoint and inode from here
 * (tools/common/fields.h prints).
 *
 * A table's rows are in the order upstream lists them.  Where upstream
 * lists an array piecemeal (the checkpoint's alloc_type, the superblock's
 * qf_ino, under symbolic indexes and out of order) each listed piece is a
 * row of its own that is listed only, and the whole array a row that is
 * written only.  Every offset and width is taken from the structures of
 * format.h (offsetof, sizeof), so a table cannot disagree with them.
 */
#ifndef F2FS_FIELDS_H
#define F2FS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum f2fs_fields_of {
	F2FS_FIELDS_SUPER,	 /* struct f2fs_super_block */
	F2FS_FIELDS_CHECKPOINT,	 /* struct f2fs_checkpoint (the head, without its bitmaps) */
	F2FS_FIELDS_INODE,	 /* struct f2fs_inode, the start of its node block */
	F2FS_FIELDS_FOOTER,	 /* struct f2fs_node_footer */
	F2FS_FIELDS_DIRECT_NODE, /* struct f2fs_direct_node */
	F2FS_FIELDS_NAT_ENTRY,	 /* struct f2fs_nat_entry */
	F2FS_FIELDS_SIT_ENTRY,	 /* struct f2fs_sit_entry */
	F2FS_FIELDS_SUMMARY,	 /* struct f2fs_summary: one entry of an SSA block */
	F2FS_FIELDS_SUM_FOOTER,	 /* struct f2fs_summary_footer */
	F2FS_FIELDS_DENTRY,	 /* struct f2fs_dir_entry */
	F2FS_FIELDS_XATTR_ENTRY, /* the head of an xattr entry (xattr.h) */
	F2FS_FIELDS_COUNT
};

/*
 * How a field is shown.  NUM, DEC, HEX and VBLOCKS are numbers, listed
 * alike (upstream's "[0x.. : ..]" and "name: .."); a value shown alone (a
 * change inject reports) reads "N (0xN)", "N", "0x" and two digits a byte,
 * and for a SIT entry's vblocks "N (0xNNNN)".  The others are listed in a
 * way of their own and never written as numbers.
 */
enum f2fs_field_show {
	F2FS_SHOW_NUM = 0,
	F2FS_SHOW_DEC,
	F2FS_SHOW_HEX,
	F2FS_SHOW_VBLOCKS,
	F2FS_SHOW_UUID,		/* 16 bytes as a UUID */
	F2FS_SHOW_LABEL,	/* the UTF-16LE volume name */
	F2FS_SHOW_TEXT,		/* a NUL-padded string: a kernel version */
	F2FS_SHOW_COLD_EXTS,	/* extension_count, then the cold extension list */
	F2FS_SHOW_HOT_EXTS,	/* hot_ext_count, then the hot list that follows the cold */
	F2FS_SHOW_DEVICES,	/* the devices of a volume on several */
	F2FS_SHOW_STOP_REASONS, /* the non-zero counts of s_stop_reason */
	F2FS_SHOW_ERRORS,	/* the bits set in s_errors */
	F2FS_SHOW_NAME,		/* i_namelen, then the name it measures, when there is one */
	F2FS_SHOW_EXTENT,	/* the three words of i_ext on one line */
	F2FS_SHOW_ADDRS,	/* the inode's data addresses that are not 0 */
};

#define F2FS_FIELD_WRITABLE 0x1u /* a tool may write it (inject --mb) */

struct f2fs_field {
	const char *name;
	uint16_t offset;   /* of the first element, from the structure's start */
	uint8_t width;	   /* bytes of one element: 1, 2, 4 or 8, little-endian */
	uint8_t shift;	   /* a bit field: its lowest bit in the element... */
	uint8_t bits;	   /* ...and its size; 0 for the whole element */
	uint16_t count;	   /* elements: 1 for a scalar */
	uint16_t listed;   /* elements listed, from the first: 0 for a row only written */
	uint8_t show;	   /* enum f2fs_field_show */
	uint8_t flags;	   /* F2FS_FIELD_* */
	uint32_t features; /* superblock features that must all be on for it to be listed */
};

struct f2fs_field_table {
	size_t size; /* bytes of the structure */
	const struct f2fs_field *rows;
	unsigned int n;
};

/* The table of structure @of (NULL past F2FS_FIELDS_COUNT). */
const struct f2fs_field_table *f2fs_fields(enum f2fs_fields_of of);

struct f2fs_blkgeo;

/*
 * Row @f of table @of as it lies in a block of the geometry @g: an inode's
 * i_addr[] has g->addrs_per_inode elements and its i_nid[] lies before the
 * footer at the block's end, a direct node's addr[] has g->addrs_per_block;
 * every other row is the table's own.
 */
struct f2fs_field f2fs_field_in_block(enum f2fs_fields_of of, const struct f2fs_field *f,
				      const struct f2fs_blkgeo *g);

/* The row named @name (names are unique in a table), or NULL. */
const struct f2fs_field *f2fs_field_find(const struct f2fs_field_table *t, const char *name);

/*
 * Element @idx (< count) of field @f of the structure at @base: the whole
 * element, or its bit field.  The caller provides a structure of the
 * table's size.
 */
uint64_t f2fs_field_get(const struct f2fs_field *f, const void *base, unsigned int idx);

/*
 * Store @v into element @idx of @f, leaving the other bits of a bit
 * field's element as they are.  @v must be at most f2fs_field_max(@f).
 */
void f2fs_field_put(const struct f2fs_field *f, void *base, unsigned int idx, uint64_t v);

/* The largest value an element (or bit field) of @f holds. */
uint64_t f2fs_field_max(const struct f2fs_field *f);

#endif
