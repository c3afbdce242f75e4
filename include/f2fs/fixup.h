/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The write path's repair primitives: they set on-disk state to values a
 * checker found by walking the volume, where the operations of write.h
 * derive it from what they change.  Only lib/repair (and lib/write, which
 * implements them) may include this header: scripts/check-layers.sh says so.
 */
#ifndef F2FS_FIXUP_H
#define F2FS_FIXUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/write.h"

/*
 * These set on-disk state to values found by walking the volume, where the
 * operations above derive it from what they change.  They go through the
 * same state, so the next f2fs_checkpoint() writes the result the way it
 * writes any change.  Single-threaded: they take no lock hooks.
 */

/*
 * Segment @segno holds exactly the blocks of @map (SIT order: the most
 * significant bit of byte 0 is block 0; F2FS_SIT_VBLOCK_MAP_SIZE bytes),
 * with type @type (enum f2fs_curseg_type).  Valid and checkpointed-valid
 * counts of the segment and its section follow.  -EINVAL for a segment or
 * type out of range.  Call f2fs_fix_recount() after the last one.
 */
int f2fs_fix_segment(struct f2fs_fs *fs, uint32_t segno, const uint8_t *map, int type);

/*
 * Derive the section counts and the free segments and sections from the
 * segments' SIT entries again, and set the valid block, node and inode
 * counts the next checkpoint records (the blocks: those the SIT marks and
 * the reserved, NEW_ADDR, ones the kernel counts too).
 */
int f2fs_fix_recount(struct f2fs_fs *fs, uint64_t valid_blocks, uint32_t valid_nodes,
		     uint32_t valid_inodes);

/*
 * Move every log whose current segment has a valid block at or after its
 * next offset to a free segment (the kernel would write over that block).
 * *moved: how many moved.
 */
int f2fs_fix_logs(struct f2fs_fs *fs, unsigned int *moved);

/*
 * The summary entry of main-area block @blkaddr := owner @nid, with
 * @ofs_in_node for a data block, the owner's NAT version, and the segment
 * summary's type node or data (@node).  In an open log's summary in the
 * pack, or the SSA block written at once.
 */
int f2fs_fix_summary(struct f2fs_fs *fs, uint64_t blkaddr, uint32_t nid, uint16_t ofs_in_node,
		     bool node);

/*
 * The whole summary block of segment @segno := @sum (a rebuild's, for a
 * segment no log is open in: -EBUSY for an open log's).
 */
int f2fs_fix_summary_block(struct f2fs_fs *fs, uint32_t segno,
			   const struct f2fs_summary_block *sum);

/*
 * Give inode @ino, which no entry names, the entry @name in directory @dir
 * (its file type from the inode's mode): i_pino becomes @dir, and a
 * directory's ".." names @dir.  Link counts are left to the caller (a new
 * check counts them).  -EEXIST when @dir has @name; -EUCLEAN when @ino does
 * not read as an inode.
 */
int f2fs_fix_attach(struct f2fs_fs *fs, uint32_t dir, uint32_t ino, const char *name, size_t len);

/*
 * Write the superblock in use over the copies the volume rejected (in
 * blocks 0 and 1, after their first 1024 bytes, which are left as they
 * are).  *written: how many copies.
 */
int f2fs_fix_superblocks(struct f2fs_fs *fs, unsigned int *written);

/* What f2fs_fix_dentry() does to one entry. */
enum f2fs_dentry_fix {
	F2FS_DENTRY_FIX_HASH,  /* its hash recomputed from its name */
	F2FS_DENTRY_FIX_TYPE,  /* its file type taken from the mode of the inode it names */
	F2FS_DENTRY_FIX_MARK,  /* every slot of its name marked in the bitmap */
	F2FS_DENTRY_FIX_CLEAR, /* removed: its slots unmarked (only the first when its name
				  length is impossible) and zeroed */
	F2FS_DENTRY_FIX_MOVE,  /* removed and added again where its name's hash puts it */
};

/*
 * Apply @op to the entry in @slot of file block @block (or the inline
 * area) of directory @dir.  Link counts are left to the caller.  -EINVAL
 * when the slot holds no entry (or, but for CLEAR, one whose name length
 * is impossible there); -EOPNOTSUPP for HASH and MOVE in a casefolded or
 * encrypted directory.
 */
int f2fs_fix_dentry(struct f2fs_fs *fs, uint32_t dir, uint64_t block, uint32_t slot,
		    enum f2fs_dentry_fix op);

/*
 * Write "." (naming @dir) and ".." (naming @parent) into slots 0 and 1 of
 * file block @block (F2FS_DENTRY_INLINE: the inline area) of @dir,
 * made when missing; entries covering those slots are removed.
 */
int f2fs_fix_dots(struct f2fs_fs *fs, uint32_t dir, uint64_t block, uint32_t parent);

/*
 * @nid's NAT entry := ino @ino, main-area block @blkaddr, NAT version
 * @version (a rebuild's entries, from a scan of the node blocks).
 */
int f2fs_fix_nat_set(struct f2fs_fs *fs, uint32_t nid, uint32_t ino, uint32_t blkaddr,
		     uint8_t version);

/*
 * Inode @ino, which has no NAT entry, is at @blkaddr again (its newest copy
 * found in the main area): the NAT entry points there and the block is
 * marked in use.
 */
int f2fs_fix_node_restore(struct f2fs_fs *fs, uint32_t ino, uint64_t blkaddr);

/*
 * A new, empty root directory (e2fsck's "Root inode not allocated"), for a
 * root with no NAT entry or one whose block holds nothing (a zone reset
 * under it): that block is released.  What the old root held comes back
 * through /lost+found.
 */
int f2fs_fix_new_root(struct f2fs_fs *fs);

/* Set the ino of @nid's NAT entry, its address kept. */
int f2fs_fix_nat_ino(struct f2fs_fs *fs, uint32_t nid, uint32_t ino);

/* A pointer in a node, for f2fs_fix_pointer(). */
enum f2fs_pointer {
	F2FS_POINTER_ADDR,	/* data address @index (an inode's counted from its first) */
	F2FS_POINTER_NID,	/* child nid @index: i_nid[] or an indirect node's */
	F2FS_POINTER_XATTR_NID, /* an inode's i_xattr_nid */
};

/*
 * Zero one pointer of node @node (@ino itself or a node of it): what it
 * pointed at is lost to the file; i_blocks is left to the caller.
 * -EINVAL when @node has no such pointer.
 */
int f2fs_fix_pointer(struct f2fs_fs *fs, uint32_t ino, uint32_t node, enum f2fs_pointer kind,
		     uint32_t index);

/*
 * Data address @index of node @node (of inode @ino), file block @fblk, names
 * block @blkaddr, which another owner has too: give @ino its own copy (a
 * new block with @blkaddr's contents, up to i_size; past i_size the
 * address is just cleared).  i_blocks is left to the caller.  -EOPNOTSUPP
 * for a compressed file or a directory.
 */
int f2fs_fix_clone(struct f2fs_fs *fs, uint32_t ino, uint32_t node, uint32_t index, uint64_t fblk,
		   uint64_t blkaddr);

/*
 * End @ino's xattr list at byte @from of its xattr space (the inline area,
 * then the xattr node): everything from there on is zeroed, so the list
 * ends before a damaged entry or trailing bytes.  -EINVAL for @from inside
 * the header or past the space.
 */
int f2fs_fix_xattr_cut(struct f2fs_fs *fs, uint32_t ino, size_t from);

/*
 * Release orphan inode @ino as the kernel does at mount: its blocks, nodes
 * and nid are freed.  (The write path's checkpoints carry no orphan list, so
 * whoever writes one over a volume with orphans releases them first.)
 */
int f2fs_fix_release(struct f2fs_fs *fs, uint32_t ino);

/*
 * A field of inode @ino := @value: the @width bytes at byte @offset of its
 * struct f2fs_inode, little-endian, the bits outside @mask kept (@mask 0:
 * none kept).  A field past 8 bytes can only be cleared (@mask and @value
 * 0).  The inode is written again in any case, its checksum recomputed:
 * @width 0 sets nothing but that.  -EINVAL for a field past the inode.
 */
int f2fs_fix_inode_field(struct f2fs_fs *fs, uint32_t ino, size_t offset, size_t width,
			 uint64_t mask, uint64_t value);

/*
 * Zero the word of inode @ino that comes before its inline data or
 * dentries (i_addr[] at its first data address), when it has either.
 */
int f2fs_fix_inline_reserved(struct f2fs_fs *fs, uint32_t ino);

/* Name node @nid and inode @ino in the footer of node @nid (the block NAT names for @nid). */
int f2fs_fix_node_ids(struct f2fs_fs *fs, uint32_t nid, uint32_t ino);

/* Set the tree offset in the footer of node @nid (its other footer flags kept). */
int f2fs_fix_node_ofs(struct f2fs_fs *fs, uint32_t nid, uint32_t ofs);

/*
 * Have the next checkpoint empty the SIT and NAT journals into their
 * blocks: journal entries that name no segment or nid are dropped on the
 * way.
 */
int f2fs_fix_journals(struct f2fs_fs *fs);

#endif
