/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading files and directories of a volume, for tools that look at what a
 * volume holds (dump.f2fs) rather than check it.  Everything read from disk
 * is treated as untrusted: every nid is looked up in the NAT and must name a
 * node block inside the main area whose footer agrees (nid, owning inode,
 * offset in the tree), every data address must lie inside the main area, and
 * every directory entry must fit its block.  Anything that does not is an
 * -EUCLEAN error, never a crash or an out-of-bounds read.
 *
 * The functions take the filesystem handle: the NAT is loaded on first
 * use, the main-area bounds and the feature bits (inode geometry depends
 * on them) come from the handle.  A NAT that cannot be loaded fails the call
 * with the handle's error (f2fs_fs_why()).  Blocks are read with
 * f2fs_fs_read_blocks(), so on a volume cut short (F2FS_FS_SHORT_DEVICE) a
 * block past the device's end fails its reader with -ENXIO.
 */
#ifndef F2FS_READ_H
#define F2FS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/fs.h"

/*
 * A buffer for one block of the volume (a node, a dentry block), of its
 * block size: struct f2fs_node is only the 4 KiB layout's header.  free()
 * it; NULL when out of memory.
 */
void *f2fs_block_alloc(const struct f2fs_fs *fs);

/*
 * Read node @nid of inode @ino into @out, a block of the volume's size
 * (f2fs_block_alloc): its NAT entry must exist with a
 * block address in the main area, and the block's footer must carry @nid
 * and @ino.  Returns 0, -ENOENT when the nid is outside the NAT or free,
 * -EUCLEAN for an address or footer that does not fit, or a read error.
 */
int f2fs_read_node(struct f2fs_fs *fs, uint32_t nid, uint32_t ino, struct f2fs_node *out);

/* f2fs_read_node() of an inode: nid == ino, and footer offset 0. */
int f2fs_read_inode(struct f2fs_fs *fs, uint32_t ino, struct f2fs_node *out);

/*
 * Called once per data address, in increasing file-block order.  @blkaddr
 * is a main-area address, or F2FS_NEW_ADDR (allocated, never written: reads
 * as zeros) or F2FS_COMPRESS_ADDR (marks a compressed cluster) for the
 * caller to interpret.  A non-zero return stops the walk and is returned.
 */
typedef int (*f2fs_block_fn)(uint64_t file_block, uint32_t blkaddr, void *arg);

/*
 * Walk the data addresses of @inode (as read by f2fs_read_inode): those in
 * the inode, then through the two direct, two indirect and the double
 * indirect node.  NULL addresses and absent nodes are skipped (they are
 * holes).  Inodes with inline data or inline dentries have no blocks; the
 * walk returns 0 without calling @fn.  Returns 0, @fn's non-zero value,
 * -EUCLEAN at the first node or address that does not fit, -ENOMEM, or a
 * read error.
 */
int f2fs_file_for_each_block(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_block_fn fn,
			     void *arg);

/* Each node below the inode, before its addresses: its nid and its subtree's first file block. */
typedef int (*f2fs_file_node_fn)(uint64_t first_block, uint32_t nid, void *arg);

/*
 * f2fs_file_for_each_block() that also hands @node_fn each node below the
 * inode as the walk reaches it (an indirect node before the nodes it
 * names), as a reader following the file meets them.
 */
int f2fs_file_for_each_block_and_node(struct f2fs_fs *fs, const struct f2fs_node *inode,
				      f2fs_block_fn fn, f2fs_file_node_fn node_fn, void *arg);

/* ---- the node tree of a file (lib/read/iterate.c) ---- */

/*
 * One walk over the node tree of a file for every caller (the reader
 * above, the checker, the write path's truncation; the rebuild and the
 * roll-forward recovery take its leaf step alone), after e2fsprogs'
 * ext2fs_block_iterate3(): flags choose the order and what an error does,
 * a callback sees each data address and may change it, another each node.
 * The read layer writes nothing: nodes come from a source the caller
 * supplies, and a node whose block the walk or a callback changed goes back
 * to that source marked so (the write path's marks its cached node dirty).
 * A node's tree offset and file blocks come from its place in the tree
 * (f2fs/node.h), never from its footer: the source may check the footer
 * against them.
 */

/* Flags of a walk. */
enum {
	/* nothing may change: a callback returning CHANGED or REMOVE fails the walk with -EROFS */
	F2FS_TREE_READ_ONLY = 1u << 0,
	/* a node's callback comes after its subtree (before it otherwise) */
	F2FS_TREE_POST_ORDER = 1u << 1,
	/*
	 * a node the source cannot give goes to the node callback (blk NULL,
	 * err set) and the walk goes on with its siblings; otherwise the
	 * source's error ends the walk
	 */
	F2FS_TREE_KEEP_GOING = 1u << 2,
	/* NULL_ADDR slots go to the address callback too (they are skipped otherwise) */
	F2FS_TREE_HOLES = 1u << 3,
};

/* What a callback returns: none, or some of these. */
enum {
	/* it changed the address (or the node's block): the block is stored back */
	F2FS_TREE_CHANGED = 1u << 0,
	/* node callback: the node goes; the source removes it, its parent's slot becomes 0 */
	F2FS_TREE_REMOVE = 1u << 1,
	/* stop the walk */
	F2FS_TREE_ABORT = 1u << 2,
};

/* A node of the tree where the walk is (for an address: the node holding it). */
struct f2fs_tree_pos {
	uint32_t ino;
	uint32_t nid;	    /* the node; ino for the inode */
	uint32_t ofs;	    /* its tree offset, by its place (0: the inode) */
	unsigned int depth; /* levels above the data: 0 the inode and direct nodes, 1, 2 */
	uint64_t first;	    /* file block of its first address (its subtree's first) */
	uint32_t parent;    /* the node whose slot names it (0 for the inode) */
	unsigned int slot;  /* that slot: i_nid[] index in the inode, nid[] in an indirect node */
	struct f2fs_node *blk; /* its block, NULL when the source could not give it */
	int err;	       /* and then why */
};

/* A data address the walk hands its callback. */
struct f2fs_tree_addr {
	const struct f2fs_tree_pos *node; /* the node holding it */
	unsigned int index;		  /* among the node's addresses, from 0 */
	uint64_t file_block;		  /* the file block it maps */
	/* host order; a callback that changes it returns F2FS_TREE_CHANGED */
	uint32_t addr;
};

/* Each data address, in file order. */
typedef unsigned int (*f2fs_tree_addr_fn)(struct f2fs_tree_addr *a, void *arg);

/* Each node below the inode, with F2FS_TREE_KEEP_GOING also one that could not be had. */
typedef unsigned int (*f2fs_tree_node_fn)(const struct f2fs_tree_pos *at, void *arg);

/*
 * Where the nodes below the inode come from.  get() gives node @at (its
 * nid, expected offset, parent and slot are set): read into @buf, a block
 * the walk keeps for the node's level, or the source's own copy; *@out
 * points at it and *@ref holds what put() needs.  It returns 0 or a
 * negative errno.  put() (NULL for a source that keeps nothing) takes the
 * node back when its subtree is done, with @how 0, F2FS_TREE_CHANGED or
 * F2FS_TREE_REMOVE; an error it returns ends the walk.
 */
struct f2fs_node_source {
	int (*get)(void *arg, const struct f2fs_tree_pos *at, struct f2fs_node *buf,
		   struct f2fs_node **out, void **ref);
	int (*put)(void *arg, void *ref, unsigned int how);
};

struct f2fs_tree_walk {
	unsigned int flags; /* F2FS_TREE_* */
	uint32_t features;  /* the volume's: an inode's geometry depends on them */
	/*
	 * The volume's block size (f2fs_fs_geo(fs)->blk): the tree's shape and
	 * the size of the blocks get() fills depend on it.  NULL: 4 KiB.
	 */
	const struct f2fs_blkgeo *bg;
	/* file blocks before it are passed over, and nodes mapping only such are not read */
	uint64_t from;
	const struct f2fs_node_source *src;
	void *src_arg;
	f2fs_tree_addr_fn addr; /* may be NULL */
	f2fs_tree_node_fn node; /* may be NULL */
	void *arg;		/* for addr and node */
};

/* The shape of an inode's tree. */
struct f2fs_tree_geo {
	unsigned int inode_start; /* word of the inode block holding its first address */
	unsigned int inode_addrs; /* addresses in the inode */
	unsigned int per_direct;  /* addresses in each direct node */
};

/*
 * The tree shape of @inode.  Returns 0; 1 for an inode with inline data or
 * an inline dentry area, which has no tree; -EUCLEAN when a damaged
 * i_extra_isize puts its addresses past i_addr[].
 */
int f2fs_tree_geometry(const struct f2fs_blkgeo *bg, const struct f2fs_node *inode,
		       uint32_t features, struct f2fs_tree_geo *g);

/*
 * Walk the tree of @inode: its own data addresses, then the nodes i_nid[]
 * names, depth first.  An inode without a tree (f2fs_tree_geometry())
 * gives nothing.  A changed address is stored in its node's block, a
 * removed node's slot in its parent's set to 0; changed nodes below the
 * inode go back through put(), and *@inode_changed (when not NULL) says
 * whether the inode's block changed, for the caller to keep.  Returns 0,
 * F2FS_TREE_ABORT when a callback stopped the walk, or a negative errno:
 * f2fs_tree_geometry()'s, -ENOMEM, -EROFS, the source's.
 */
int f2fs_tree_walk(const struct f2fs_tree_walk *w, struct f2fs_node *inode, bool *inode_changed);

/*
 * The walk's leaf step alone, for a node block met outside a walk (a scan
 * of the main area, the roll-forward chain): the data addresses of
 * @at->blk as f2fs_node_addr_range() finds them at offset @at->ofs (an
 * inode's own, a direct node's @per_direct, none in other nodes), the
 * first being file block @at->first.  @w's flags, from and addr apply.
 * Returns as f2fs_tree_walk(), -EUCLEAN for an inode whose i_extra_isize
 * puts its addresses past i_addr[]; *@changed (when not NULL) says whether
 * the block changed.
 */
int f2fs_tree_walk_addrs(const struct f2fs_tree_walk *w, const struct f2fs_tree_pos *at,
			 unsigned int per_direct, bool *changed);

/*
 * Called once per directory entry other than "." and "..".  @name is
 * NUL-terminated (a copy; @len bytes, which may contain other bytes than
 * printable ones), @type an enum f2fs_file_type.  A non-zero return stops
 * the walk and is returned.
 */
typedef int (*f2fs_dentry_fn)(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg);

/*
 * Walk the entries of directory @dir: its inline dentry area, or every
 * dentry block in file order.  A slot with a zero or oversized name length,
 * or a name running past the area, is -EUCLEAN.  A dentry block that cannot
 * be read (on a cut image: -ENXIO) is skipped, the walk goes on with the
 * next one, and the first such error is returned at the end.  Returns as
 * f2fs_file_for_each_block(); -ENOTDIR when @dir is not a directory.
 */
int f2fs_dir_for_each_entry(struct f2fs_fs *fs, const struct f2fs_node *dir, f2fs_dentry_fn fn,
			    void *arg);

/* ---- what a block is and who owns it (lib/read/owner.c) ---- */

/* The areas of a volume, in on-disk order. */
enum f2fs_area {
	F2FS_AREA_RESERVED, /* before segment0_blkaddr */
	F2FS_AREA_META,	    /* superblocks and checkpoint packs: segment 0 up to the SIT */
	F2FS_AREA_SIT,
	F2FS_AREA_NAT,
	F2FS_AREA_SSA,
	F2FS_AREA_MAIN,
	F2FS_AREA_PAST_END, /* past the main area */
};

/* The area block @blkaddr lies in. */
enum f2fs_area f2fs_block_area(const struct f2fs_fs *fs, uint64_t blkaddr);

/* What a segment's summary says its blocks are. */
enum f2fs_sum_kind {
	F2FS_SUM_BROKEN, /* the footer's entry_type is neither data nor node */
	F2FS_SUM_DATA,
	F2FS_SUM_NODE,
};

struct f2fs_segment_summary {
	const struct f2fs_summary_block *blk; /* kept by the handle until close */
	/*
	 * The open log (enum f2fs_curseg_type, per f2fs_cp_log_of_segment())
	 * writing the segment, or -1.  An open log's summary is the checkpoint
	 * pack's copy, and its kind is its log's, whatever the footer says.
	 */
	int open_log;
	enum f2fs_sum_kind kind;
};

/*
 * The summary of main-area segment @segno.  Returns 0, -ERANGE for a
 * segment past the main area, or the error of loading the tables or
 * reading the summary block (the reason of a load is f2fs_fs_why()).
 */
int f2fs_segment_summary(struct f2fs_fs *fs, uint32_t segno, struct f2fs_segment_summary *out);

/* Who owns a main-area block, as the summary and the NAT tell. */
enum f2fs_owner_kind {
	/*
	 * Nobody: the summary's nid is outside the NAT or free, its inode is,
	 * or (for a node block) the NAT maps the nid to another block.
	 */
	F2FS_OWNER_OBSOLETE,
	/* data of inode ino, addressed by node nid (the inode itself or a direct node) */
	F2FS_OWNER_DATA,
	F2FS_OWNER_INODE, /* the block of inode ino (nid == ino) */
	F2FS_OWNER_NODE,  /* direct or indirect node nid of inode ino */
};

struct f2fs_block_owner {
	uint32_t segno;	  /* main-area segment */
	uint32_t offset;  /* block inside it */
	bool sit_valid;	  /* the block's bit in the SIT */
	uint8_t seg_type; /* the segment's type in the SIT, as stored */
	struct f2fs_segment_summary seg;
	/* the block's summary entry */
	uint32_t nid;
	uint8_t version;
	uint16_t ofs_in_node;
	/* the NAT entry of nid, when nid is inside the NAT */
	bool in_nat;
	uint32_t nat_ino, nat_blkaddr;
	/* the owner: the fields below are set for all kinds but OBSOLETE */
	enum f2fs_owner_kind kind;
	uint32_t ino;	      /* nat_ino */
	uint32_t ino_blkaddr; /* the NAT's address of inode ino */
	uint32_t node_ofs;    /* NODE: the tree offset in the block's footer */
	/*
	 * DATA: the block's index in its file, known when the inode and (for
	 * a direct node) node nid read back through the NAT.  Counted from the
	 * tree offset of the node (f2fs_node_first_block()) and ofs_in_node.
	 */
	bool has_file_block;
	uint64_t file_block;
};

/*
 * What main-area block @blkaddr is and who owns it: its SIT state, the
 * summary entry of its segment (f2fs_segment_summary()) and the NAT
 * entries that entry leads to.  A segment whose summary says node makes
 * the block a node block; any other summary (data or broken) makes it a
 * data block.  Loads the SIT, NAT and SSA.  Returns 0; -ERANGE when
 * @blkaddr is outside the main area; a load error; or the error of reading
 * the summary or (for a node block) the block itself.
 */
int f2fs_block_owner(struct f2fs_fs *fs, uint64_t blkaddr, struct f2fs_block_owner *out);

/* One copy of an inode's block found in the main area. */
struct f2fs_inode_copy {
	uint64_t blkaddr;
	const struct f2fs_node *node; /* the block, valid during the call only */
	uint32_t flag;		      /* footer flag (tree offset and fsync/dentry marks) */
	uint64_t cp_ver;	      /* footer cp_ver */
	bool sit_valid;		      /* the block's bit in the SIT */
	bool nat_current;	      /* the NAT maps the inode to this block */
};

typedef int (*f2fs_inode_copy_fn)(const struct f2fs_inode_copy *c, void *arg);

/* Called for a block that could not be read (the search goes on). */
typedef void (*f2fs_copy_error_fn)(uint64_t blkaddr, int err, void *arg);

/*
 * Find the copies of inode @ino's block in the main area, as upstream's
 * dump -I does: the blocks of node segments (by their SIT type) whose
 * footer carries nid @ino and ino @ino -- the current block and the stale
 * ones the log left behind -- in increasing address order.  Only blocks
 * that may be such a copy are read: in a node segment, those whose summary
 * entry names @ino, plus the block the NAT maps @ino to.  A segment whose
 * summary cannot be read or is not a node summary, and the open node logs
 * (whose blocks written after the checkpoint are not in the summary yet),
 * are read whole.  Copies in a segment reused since (its summary entry
 * rewritten) are not found.  A block or segment that cannot be read is
 * passed to @on_error when given, and skipped.  Returns 0, @fn's non-zero
 * value, -ENOMEM or a load error (SIT, NAT, checkpoint).
 */
int f2fs_find_inode_copies(struct f2fs_fs *fs, uint32_t ino, f2fs_inode_copy_fn fn,
			   f2fs_copy_error_fn on_error, void *arg);

/* ---- file contents (lib/read/content.c) ---- */

/*
 * Called with the bytes of a file in increasing offset order: each data
 * block (the last one clipped to i_size), or the inline data at offset 0.
 * Holes are not passed (they read as zeros).  A non-zero return stops the
 * walk and is returned.
 */
typedef int (*f2fs_data_fn)(uint64_t off, const void *data, size_t len, void *arg);

/*
 * Pass the contents of regular file or symlink @inode to @fn, through
 * f2fs_file_for_each_block() (or its inline data).  Compressed clusters
 * are passed decompressed (LZ4, LZO: f2fs/compress.h).  Encrypted contents
 * are passed as stored.  Returns 0, @fn's value, -EOPNOTSUPP for a
 * compressed cluster of an algorithm this build does not read, -EUCLEAN
 * for an inode whose i_extra_isize leaves no room for data, a tree that
 * does not fit, or a compressed cluster that does not decompress (bad
 * cluster size, header, stream or checksum), -ENOMEM, or a read error.
 */
int f2fs_file_for_each_data(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_data_fn fn,
			    void *arg);

/*
 * Read up to @len bytes of @inode from byte @off into @buf, holes as zeros,
 * stopping at i_size; *@done is the byte count (0 at or past i_size).
 * Returns 0 or an error of f2fs_file_for_each_data().
 */
int f2fs_file_pread(struct f2fs_fs *fs, const struct f2fs_node *inode, void *buf, size_t len,
		    uint64_t off, size_t *done);

/*
 * The target of symlink @inode into @buf (@len bytes), NUL-terminated.
 * Returns 0, -EUCLEAN when i_size is 0, is not below @len, exceeds a block,
 * is more than the inode holds, or the target contains a NUL byte, or an
 * error of f2fs_file_pread().
 */
int f2fs_symlink_target(struct f2fs_fs *fs, const struct f2fs_node *inode, char *buf, size_t len);

/*
 * The device number of a character or block device inode, kept in its
 * first data address in the new (Linux huge) or the old 16-bit encoding;
 * 0:0 when i_extra_isize leaves no data address.
 */
void f2fs_inode_devnum(const struct f2fs_inode *ri, uint32_t *major, uint32_t *minor);

/* ---- extended attributes (lib/read/xattr.c) ---- */

/* One entry of a file's xattr list; the name and value point into the walk's copy. */
struct f2fs_xattr {
	uint8_t index;	  /* the name space (F2FS_XATTR_INDEX_*, f2fs/xattr.h) */
	const char *name; /* @name_len bytes after the name space's prefix, not NUL-terminated */
	size_t name_len;
	const void *value;
	size_t value_len;
};

/* Called once per entry, in list order; valid during the call only.  Non-zero stops the walk. */
typedef int (*f2fs_xattr_fn)(const struct f2fs_xattr *x, void *arg);

/*
 * Pass each extended attribute of @inode to @fn: those of its inline
 * xattr area, then those of its xattr node (i_xattr_nid, read as
 * f2fs_read_node() reads a node of the inode).  Returns 0, @fn's value,
 * -EUCLEAN when an entry runs past the space (those before it were
 * passed), -ENOMEM, or the error of reading the xattr node (then nothing
 * was passed).
 */
int f2fs_file_for_each_xattr(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_xattr_fn fn,
			     void *arg);

/* ---- roll-forward (lib/read/recovery.c) ---- */

/* Called with each block of the roll-forward chain in order; non-zero stops the walk. */
typedef int (*f2fs_chain_fn)(uint64_t blkaddr, const struct f2fs_node *n, void *arg);

/*
 * Walk the warm node log from where the checkpoint left it, as the
 * kernel's recovery does, while each footer carries this checkpoint's
 * version (with its CRC when the checkpoint asks for CRC recovery),
 * following next_blkaddr.  Returns 0, @fn's value, -EUCLEAN for a
 * checkpoint whose warm node segment is outside the main area, -ELOOP
 * for a chain the kernel calls looped (more blocks than the main area has
 * free, or a block that names itself next: it then mounts without
 * replaying anything and asks for fsck), or -ENOMEM.
 */
int f2fs_roll_forward_walk(struct f2fs_fs *fs, f2fs_chain_fn fn, void *arg);

/*
 * Walk the warm node log from where the checkpoint left it, as the
 * kernel's recovery does: *length node blocks carry this checkpoint's
 * version, *fsynced of them the FSYNC mark (what mount would replay).
 * Returns 0, or f2fs_roll_forward_walk()'s errors.
 */
int f2fs_roll_forward_chain(struct f2fs_fs *fs, uint32_t *fsynced, uint32_t *length);

#endif
