/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extended attributes.  An inode's xattr space is its inline xattr area
 * (the last words of i_addr[] before i_nid[], when F2FS_INLINE_XATTR is
 * set) followed by the first F2FS_XATTR_NODE_BYTES bytes of its xattr node
 * (i_xattr_nid), read as one run of bytes.  The space opens with a 24-byte
 * header (magic, reference count, reserved words); entries follow, each a
 * 4-byte head (name index, name length, value size), the name and the
 * value, padded to 4 bytes; a zero word ends the list.  What lies after
 * the end must be zero.  Nothing here reads a device: callers hand in the
 * bytes.
 */
#ifndef F2FS_XATTR_H
#define F2FS_XATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/blkgeo.h"
#include "f2fs/format.h"

#define F2FS_XATTR_MAGIC       0xF2F52011u
#define F2FS_XATTR_HEADER_SIZE 24u /* h_magic, h_refcount, four reserved words */
#define F2FS_XATTR_ENTRY_HEAD  4u  /* e_name_index, e_name_len, e_value_size (le16) */
/*
 * Bytes of an xattr node that belong to the space: all but the node footer
 * (f2fs_xattr_node_bytes() of the volume; the macro is 4 KiB blocks')
 */
#define F2FS_XATTR_NODE_BYTES (F2FS_BLKSIZE - sizeof(struct f2fs_node_footer))
/* the largest space of any block size: less than a whole i_addr[] and a node */
#define F2FS_XATTR_SPACE_MAX (2u * F2FS_MAX_BLKSIZE)

static inline uint32_t f2fs_xattr_node_bytes(const struct f2fs_blkgeo *g)
{
	return g->footer_offset;
}

/* The kernel's name indexes (e_name_index) of the name spaces kept as names. */
#define F2FS_XATTR_INDEX_USER		   1u
#define F2FS_XATTR_INDEX_POSIX_ACL_ACCESS  2u
#define F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT 3u
#define F2FS_XATTR_INDEX_TRUSTED	   4u
#define F2FS_XATTR_INDEX_SECURITY	   6u

/* Offsets of the head fields inside an entry. */
#define F2FS_XATTR_E_NAME_INDEX 0u
#define F2FS_XATTR_E_NAME_LEN	1u
#define F2FS_XATTR_E_VALUE_SIZE 2u

/*
 * Bytes of the inline xattr area of @ri (0 when F2FS_INLINE_XATTR is not
 * set or the area would not fit in i_addr[]), and the area itself.
 */
unsigned int f2fs_inline_xattr_bytes(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
				     uint32_t features);
const uint8_t *f2fs_inline_xattr(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
				 uint32_t features);

/* Bytes an entry whose head is at @e takes, padding included (@e has 4 readable bytes). */
size_t f2fs_xattr_entry_size(const uint8_t *e);

/* The shape of an xattr list, as f2fs_xattr_scan() finds it. */
struct f2fs_xattr_list {
	uint32_t entries;   /* entries before the end (or before the one that overruns) */
	size_t end;	    /* offset of the terminating zero word, or of the overrunning entry */
	bool overrun;	    /* the entry at @end runs past the space */
	bool trailing;	    /* a non-zero byte lies after the end of the list */
	size_t trailing_at; /* the first such byte's offset */
};

/*
 * Walk the entries of the xattr space @space of @len bytes.  A space
 * shorter than its header holds no list (entries 0, end @len).  The end of
 * the space counts as a zero word: a list that fills it exactly ends there.
 */
void f2fs_xattr_scan(const uint8_t *space, size_t len, struct f2fs_xattr_list *out);

/*
 * Offset of entry @idx of the list in @space (@idx equal to the number of
 * entries: the terminating word), or -1 when the list ends or breaks
 * before it, or the entry's head does not fit in the space.
 */
long f2fs_xattr_entry_offset(const uint8_t *space, size_t len, uint32_t idx);

/*
 * File capabilities: the value of "security.capability" (name index 6,
 * name "capability"), the kernel's struct vfs_cap_data in its revision 2
 * form -- a le32 magic_etc (revision in the top byte, bit 0 "effective"),
 * then for each of the two 32-bit halves of the capability set a le32
 * permitted and a le32 inheritable word.
 */
#define F2FS_VFS_CAP_NAME	    "capability"
#define F2FS_VFS_CAP_REVISION_2	    0x02000000u
#define F2FS_VFS_CAP_FLAG_EFFECTIVE 0x000001u
#define F2FS_VFS_CAP_BYTES	    20u

/*
 * The value that grants @permitted (bit N: capability N), effective at
 * exec and none inheritable -- what Android's fs_config "capabilities="
 * means.
 */
void f2fs_vfs_cap_build(uint64_t permitted, uint8_t out[F2FS_VFS_CAP_BYTES]);

/*
 * The host's name prefix ("user.", "trusted.", "security.") of the name
 * space @index stores, or NULL for the others: the POSIX ACLs, kept in
 * the kernel's own binary form rather than the host's, and the indexes
 * the kernel keeps for itself (encryption context, verity, ...).  These
 * three are the ones dump restores, as upstream's dump does, and the ones
 * sload copies from the host.
 */
const char *f2fs_xattr_prefix(uint8_t index);

/*
 * The name index of host xattr name @name and, in *@suffix, the name
 * stored on disk (after the prefix); 0 when f2fs_xattr_prefix() knows no
 * prefix of it or nothing follows the prefix.
 */
uint8_t f2fs_xattr_index_of(const char *name, const char **suffix);

#endif
