/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Consistency checking (fsck's check mode).  The checker reads a volume,
 * walks the tree from the root and the orphan list, and cross-checks what it
 * reached against the NAT, SIT, SSA and checkpoint counters, section by
 * section.  It never writes.  Each inconsistency is reported once through a
 * callback as a struct f2fs_problem whose code is a row of the problem table
 * (lib/check/problem.c): a stable name, the structure involved, a summary,
 * upstream's message for it (a template its particulars fill), its fix
 * and, for a fix that sets one inode field, which field and from what.
 * The tool decides how to print; tests assert on codes.
 */
#ifndef F2FS_CHECK_H
#define F2FS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/dir.h"
#include "f2fs/fs.h"

enum f2fs_problem_code {
	PR_SB_INVALID,		 /* a superblock copy is unusable */
	PR_CP_INVALID,		 /* a checkpoint pack is unusable (a warning: see below) */
	PR_CP_NEWEST_INSANE,	 /* the newest pack's checksums hold, its fields do not */
	PR_CHAIN_LOOP,		 /* the fsynced chain loops: the kernel cannot replay it */
	PR_SIT_VBLOCKS,		 /* vblocks larger than a segment */
	PR_SIT_BITMAP_COUNT,	 /* vblocks differs from the bitmap's popcount */
	PR_SIT_TYPE,		 /* segment type out of range */
	PR_SIT_JOURNAL,		 /* SIT journal entry out of range */
	PR_SIT_FREE_COUNT,	 /* free segments differ from the checkpoint */
	PR_SIT_TYPE_MISMATCH,	 /* node block in a data segment or the reverse */
	PR_NAT_JOURNAL,		 /* NAT journal entry out of range */
	PR_NAT_ADDR_RANGE,	 /* NAT block address outside the main area */
	PR_NAT_UNREACHABLE,	 /* NAT entry not reached from the root */
	PR_NAT_BITS,		 /* nat_bits disagree with the NAT */
	PR_NAT_INO,		 /* NAT entry's ino differs from the owning inode */
	PR_NODE_FOOTER_NID,	 /* footer nid differs from the NAT's */
	PR_NODE_FOOTER_INO,	 /* footer ino differs from the owner */
	PR_NODE_OFFSET,		 /* footer offset in the node tree is wrong */
	PR_NODE_REACHED_TWICE,	 /* one nid reached from two places */
	PR_INODE_MODE,		 /* file type unknown */
	PR_INODE_CHECKSUM,	 /* inode checksum does not verify */
	PR_INODE_EXTRA_ISIZE,	 /* extra attribute size out of range */
	PR_INODE_INLINE_XATTR,	 /* inline xattr size out of range */
	PR_INODE_INLINE,	 /* inline flags inconsistent with the file type */
	PR_INODE_BLOCKS,	 /* i_blocks differs from what the tree holds */
	PR_INODE_LINKS,		 /* a file's i_links differs from the entries found */
	PR_DIR_LINKS,		 /* a directory's i_links differs from 2 + its subdirectories */
	PR_INODE_SIZE,		 /* i_size impossible for the file type */
	PR_INODE_NAMELEN,	 /* i_namelen out of range */
	PR_INODE_XATTR_NID,	 /* xattr node invalid */
	PR_DIR_DOTS,		 /* "." or ".." missing or wrong */
	PR_DIR_MULTIPLE_PARENTS, /* a directory reached from two entries */
	PR_DENT_NAME_LEN,	 /* name length zero or past the block */
	PR_DENT_HASH,		 /* stored hash differs from the name's */
	PR_DENT_POSITION,	 /* entry in a hash bucket its hash does not select */
	PR_DENT_INO,		 /* entry points outside the NAT or at a free nid */
	PR_DENT_FILE_TYPE,	 /* entry type differs from the inode's mode */
	PR_DENT_BITMAP,		 /* name slots not marked in the bitmap */
	PR_BLK_RANGE,		 /* block address outside the main area */
	PR_BLK_REACHED_TWICE,	 /* one block owned by two places */
	PR_BLK_NOT_IN_SIT,	 /* reached block not valid in the SIT */
	PR_BLK_SIT_EXTRA,	 /* SIT-valid block nothing reaches */
	PR_SSA_MISMATCH,	 /* summary entry disagrees with the owner */
	PR_SEC_CKPT_VALID,	 /* per-section checkpointed count differs */
	PR_COUNT_VALID_BLOCKS,	 /* valid_block_count differs */
	PR_COUNT_VALID_NODES,	 /* valid_node_count differs from the nodes the tree reached */
	PR_COUNT_NAT_NODES,	 /* valid_node_count differs from the NAT's valid entries */
	PR_COUNT_VALID_INODES,	 /* valid_inode_count differs */
	PR_CURSEG_NEXT_USED,	 /* an open log's next block is already valid */
	PR_ORPHAN,		 /* an orphan inode is invalid */
	PR_IO,			 /* a block could not be read */
	PR_DEVICE_TRUNCATED,	 /* the device ends before block_count: blocks past it unreadable */
	PR_NODE_NID_FREE,	 /* a node pointer (i_nid[], an indirect node) names a free nid */
	PR_ROOT_INODE,		 /* the root inode is missing from the NAT */
	PR_QUOTA_INODE,		 /* a quota inode is missing from the NAT */
	PR_INODE_EXTENT,	 /* i_ext does not describe blocks the file has there */
	PR_ZONE_CAPACITY,	 /* zoned: the sequential zones' capacities differ */
	PR_ZONE_BLOCK_PAST_WP,	 /* zoned: a block in use lies past its zone's write pointer */
	PR_ZONE_LOG_BEHIND,	 /* zoned: a log's zone pointer is behind the log's next block */
	PR_ZONE_LOG_AHEAD,	 /* zoned: a log's zone pointer is past the log's next block */
	PR_ZONE_NOT_RESET,	 /* zoned: a zone with nothing valid has a pointer past its start */
	PR_ZONE_OPEN,		 /* zoned: a zone no log writes is left open */
	PR_INODE_CASEFOLD,	 /* casefold flag on a non-directory or without the feature */
	PR_INODE_COMPRESS,	 /* compression flag without the feature or with inline data */
	PR_INODE_INLINE_SIZE,	 /* an inline-data file's i_size exceeds the inline capacity */
	PR_INODE_INLINE_RESERVED, /* the word before inline data or dentries is not zero */
	PR_INODE_INLINE_JUNK,	  /* inline data without the data-exist flag (a warning) */
	PR_XATTR_ENTRY,		  /* an xattr entry runs past the end of the xattr space */
	PR_XATTR_TRAILING,	  /* non-zero bytes after the end of the xattr list */
	PR_SSA_TYPE,		  /* SSA footer says node for a data block, or the reverse */
	PR_SSA_VERSION,	    /* a data block's summary version differs from its node's NAT entry */
	PR_DIR_PINO,	    /* a directory's i_pino differs from the directory naming it */
	PR_DIR_LOST,	    /* a directory an entry names cannot be walked: its subtree is lost */
	PR_DIR_DEPTH,	    /* i_current_depth past the kernel's most, or below a level in use */
	PR_INODE_ADVISE,    /* i_advise marks encryption or verity the volume does not have */
	PR_DENT_NAME_CHARS, /* a name holds a NUL byte or a slash: no lookup can reach it */
	PR_DIR_LEVEL,	    /* i_dir_level past what the kernel's dir_level option allows */
	PR_ROOT_FOOTER,	    /* the root inode's footer names another nid or ino */
	PR_QUOTA_FILE,	    /* a quota file cannot be decoded */
	PR_QUOTA_USAGE,	    /* a quota file's usage differs from what the walk counted */
	PR_QUOTA_NEED_FSCK, /* the checkpoint says the kernel gave up on the quota files */
	PR_INODE_DEVICE_ALIAS,	  /* the device-alias flag without the device_alias feature */
	PR_INODE_COMPRESS_PARAMS, /* compression algorithm, cluster size or saved blocks the kernel
				     refuses */
	PR_COMPRESS_CLUSTER,
	PR_CP_NODE_SUMMARIES,
	/* no node summaries in the pack, and no SSA block holds them */ /* a compressed cluster's
									    header: clen past its
									    stored blocks */
	PR_CURSEG_SIT_TYPE, /* an open log's segment has another log's type in the SIT */
	PR_NR_CODES
};

/*
 * Where a problem sits, when the walk knew it well enough for a repair to
 * go straight there: one directory entry, or one pointer the walk
 * followed.  @node holds it, in the tree of inode @ino.
 */
enum f2fs_place_kind {
	F2FS_PLACE_NONE,
	F2FS_PLACE_ENTRY, /* slot @index of file block @block (F2FS_DENTRY_INLINE: the
			     inline area) of directory @node */
	F2FS_PLACE_ADDR,  /* data address @index of inode @node (counted from its first
			     address) or of direct node @node; @block: the file block */
	F2FS_PLACE_NID,	  /* child nid @index of inode @node (i_nid[]) or of indirect node @node */
	F2FS_PLACE_XATTR_NID, /* i_xattr_nid of inode @node */
};

struct f2fs_place {
	enum f2fs_place_kind kind;
	uint32_t node, ino, index;
	uint64_t block;
};

struct f2fs_problem {
	enum f2fs_problem_code code;
	uint32_t nid;	  /* node or inode involved, 0 when none */
	uint64_t blkaddr; /* block involved, 0 when none */
	/*
	 * For counts (links, blocks): the stored value and the one found;
	 * for a field a fix sets, the stored value and the one to set.  What
	 * they hold for each code is told by its row of the problem table
	 * (lib/check/problem.c): its message and its field, or a comment
	 * there.  0 when the code has no use for them.
	 */
	uint64_t value, expected;
	struct f2fs_place at; /* where to fix it, when the walk knew */
	char detail[256];     /* "field: found X, expected Y" and the like */
};

/*
 * The [FSCK] summary lines fsck prints after a check, upstream's: a problem
 * fails the lines its table row names.
 */
enum f2fs_check_line {
	F2FS_LINE_NAT_UNREACHABLE, /* Unreachable nat entries */
	F2FS_LINE_SIT_BITMAP,	   /* SIT valid block bitmap checking */
	F2FS_LINE_HARD_LINKS,	   /* Hard link checking for regular file */
	F2FS_LINE_VALID_BLOCKS,	   /* valid_block_count matching with CP */
	F2FS_LINE_VALID_NODES,	   /* valid_node_count matching with CP (de lookup) */
	F2FS_LINE_NAT_NODES,	   /* valid_node_count matching with CP (nat lookup) */
	F2FS_LINE_VALID_INODES,	   /* valid_inode_count matched with CP */
	F2FS_LINE_FREE_SEGMENTS,   /* free segment_count matched with CP */
	F2FS_LINE_CURSEG,	   /* next block offset is free */
	F2FS_LINE_SECTIONS,	   /* section ckpt_valid_blocks matched with SIT (ours) */
	F2FS_LINE_OTHER,	   /* other corrupted bugs */
	F2FS_LINE_WRITE_POINTERS,  /* Write pointers consistency (zoned volumes only) */
	F2FS_NR_LINES
};

#define F2FS_LINE_BIT(l) (1u << (l))

/*
 * How a problem is repaired (lib/repair/ runs it): each kind runs once
 * however many problems ask for it.
 */
enum f2fs_fix {
	F2FS_FIX_NONE = 0,    /* no repair for this problem yet */
	F2FS_FIX_SPACE,	      /* SIT, section counts, checkpoint counts and logs from the walk */
	F2FS_FIX_UNREACHABLE, /* reconnect an inode nothing reaches, or free the NAT entry */
	F2FS_FIX_LINKS,	      /* set i_links to the entries (subdirectories) found */
	F2FS_FIX_BLOCKS,      /* set i_blocks to the blocks found */
	F2FS_FIX_SSA,	      /* rewrite a block's summary entry from its owner */
	F2FS_FIX_PINO,	      /* set a directory's i_pino to the directory naming it */
	F2FS_FIX_EXTENT,      /* clear an i_ext that does not match the file's blocks */
	F2FS_FIX_SUPER,	      /* rewrite a rejected superblock copy from the valid one */
	F2FS_FIX_DENTRY,      /* an entry's hash from its name, its type from the inode */
	F2FS_FIX_DETACH,      /* cut the link to what cannot be used: remove the entry, zero the
				 pointer (the problem's place) */
	F2FS_FIX_DOTS,	      /* write "." and ".." */
	F2FS_FIX_NAT,	      /* set a NAT entry's ino to the inode owning the node */
	F2FS_FIX_FIELDS,      /* an inode field out of range from what names it or the features */
	F2FS_FIX_FOOTER,      /* a node footer's tree offset from where the node is reached */
	F2FS_FIX_XATTR,	      /* end an xattr list before a damaged entry or trailing bytes */
	F2FS_FIX_CLONE,	      /* a block owned twice: its second owner gets a copy */
	F2FS_FIX_JOURNALS,    /* journal entries out of range dropped (the SIT journal emptied) */
	F2FS_FIX_ORPHANS,     /* orphan inodes released: before every checkpoint a repair writes */
	F2FS_FIX_REWRITE,     /* write the inode again: its checksum is recomputed */
	F2FS_FIX_CHECKPOINT,  /* a new checkpoint: fresh nat_bits, both packs valid again */
	F2FS_FIX_RESTORE,     /* a root or quota inode without a NAT entry: its newest copy, or a
				 new root */
	F2FS_FIX_ZONES,	      /* zoned: logs moved to fresh zones, stray zones reset or finished */
	F2FS_FIX_QUOTA,	      /* the quota files rewritten from the usage the walk counted */
	F2FS_NR_FIXES
};

/* A fix kind's prompt (e2fsck's "Fix", "Clear", ...) and what it does. */
struct f2fs_fix_info {
	const char *name;   /* stable: "space", "unreachable", ... (--json) */
	const char *prompt; /* the question's verb */
	const char *action; /* what it does, for the line saying it was done */
};
const struct f2fs_fix_info *f2fs_fix_info(enum f2fs_fix fix);

/* Row flags. */
#define F2FS_PR_PREEN_OK   (1u << 0) /* fixed in preen mode (-p, -a): expected after a crash */
#define F2FS_PR_KEEPS_WALK (1u << 1) /* the walk went on past it: what it reached is complete */
/*
 * any repair's write would act on it (the volume was read from the older
 * checkpoint pack: writing anything rolls back to it), so while its own
 * fix is not approved nothing may be written
 */
#define F2FS_PR_GATES_WRITES (1u << 2)

/* upstream lists the row's message after the walk, before the summary lines */
#define F2FS_PR_MESSAGE_LATER (1u << 3)

/* Where the value a field-setting fix writes comes from. */
enum f2fs_field_from {
	F2FS_FROM_NONE = 0,	/* the fix sets no one field: its fix kind's own function */
	F2FS_FROM_EXPECTED,	/* the problem's expected */
	F2FS_FROM_EXPECTED_SET, /* expected, when not 0 (0: nothing says what it should be) */
	F2FS_FROM_ZERO,		/* zero: the field (or its bits of the mask) cleared */
	F2FS_FROM_TYPE_MODE,	/* the i_mode type bits of file type expected (F2FS_FT_*) */
};

/*
 * The field a fix sets in the inode the problem names (its nid): @width
 * bytes at byte @offset of struct f2fs_inode, only the bits of @mask (0:
 * all of them), to the value @from gives.  A field past 8 bytes can only
 * be cleared.  When @from has no value (F2FS_FROM_EXPECTED_SET with
 * expected 0, an unknown file type), the problem is left for the next
 * check.
 */
struct f2fs_field_fix {
	enum f2fs_field_from from;
	uint16_t offset, width;
	uint32_t mask;
};

/*
 * The table row of a code: stable name (e.g. "PR_INODE_LINKS"), structure,
 * summary, and the summary lines it fails (F2FS_LINE_BIT mask); its fix,
 * the field that fix sets when it sets one, and F2FS_PR_* flags.  Fixes
 * that rebuild from the walk (F2FS_FIX_SPACE, F2FS_FIX_UNREACHABLE) run
 * only when every problem found keeps the walk complete: otherwise blocks
 * past a problem would be freed.  A warning is reported like a problem but
 * is not one: it fails no line and is not counted in
 * f2fs_check_result.problems.  A rejected checkpoint pack is one: a power
 * cut mid-checkpoint leaves the pack being written torn, the kernel mounts
 * the other one, and so does the checker.
 */
struct f2fs_problem_info {
	const char *name;
	const char *structure;
	const char *summary;
	/* upstream's line for it, a template f2fs_problem_message() fills; NULL: none */
	const char *message;
	unsigned int lines;
	bool warning;
	enum f2fs_fix fix;
	struct f2fs_field_fix field; /* .from F2FS_FROM_NONE: the fix sets no one field */
	unsigned int flags;
};
const struct f2fs_problem_info *f2fs_problem_info(enum f2fs_problem_code code);

/*
 * The message of @p's row with @p's particulars filled in, into @buf (cut
 * to @size bytes with its NUL).  In the template, "{name}" stands for a
 * particular in decimal, "{name:x}" in hexadecimal, and "{name?yes|no}" for
 * "yes" when it is not 0, else "no"; the particulars are nid, blkaddr,
 * value, expected and surplus (value less expected).  false, and @buf
 * empty, when the row has no message or it does not apply: a surplus the
 * problem does not have (value at most expected), or a name that is none
 * of these.
 */
bool f2fs_problem_message(const struct f2fs_problem *p, char *buf, size_t size);

/* One line per section of a large-section volume, for -d and dump. */
struct f2fs_section_report {
	uint32_t secno;
	int type;      /* stored type of its first used segment, -1 when free (an invalid
			  stored type is also reported as PR_SIT_TYPE) */
	int owner_log; /* enum f2fs_curseg_type owning it, -1 for none */
	uint32_t sit_valid;
	uint32_t sit_ckpt_valid;
	uint32_t found;	       /* blocks the walk reached in it */
	uint32_t bad_segments; /* segments whose SIT count differs from what was found */
	uint32_t first_bad_segno;
};

struct f2fs_check_result {
	/* what the walk found */
	uint64_t valid_blocks, valid_nodes, valid_inodes, nat_valid_entries;
	uint32_t unreachable_nat, hard_link_files, free_segments;
	uint32_t fsynced_nodes; /* recoverable by roll-forward */
	uint32_t sections, sections_bad;
	/* what the checkpoint says */
	uint64_t cp_valid_blocks, cp_valid_nodes, cp_valid_inodes;
	uint32_t cp_free_segments;
	uint64_t user_block_count;
	/*
	 * Upstream's estimate of the space in use and free, from the
	 * checkpoint's node and block counts rounded up to whole sections
	 * (what its "Max image size" and "Free space" lines print), in blocks.
	 */
	uint64_t image_blocks, free_blocks;
	unsigned int failed_lines; /* F2FS_LINE_BIT mask: the lines some problem fails */
	/*
	 * A zoned volume checked on its zoned device(s): the write pointers
	 * were compared (upstream's "Write pointers consistency" line), and
	 * wp_problems of its problems were about them.
	 */
	bool zones_checked;
	unsigned int wp_problems;
	unsigned int problems;
	unsigned int warnings; /* reports whose table row is a warning */
	bool fatal;	       /* the volume could not be read far enough to check it */
	char fatal_why[240];
};

typedef void (*f2fs_problem_fn)(const struct f2fs_problem *p, void *arg);
typedef void (*f2fs_section_fn)(const struct f2fs_section_report *s, void *arg);

struct f2fs_findings;

struct f2fs_check_options {
	f2fs_problem_fn on_problem;
	f2fs_section_fn on_section; /* called for every section when set */
	void *arg;
	unsigned int max_problems; /* stop reporting (not checking) after this many; 0 = all */
	/* when set, a check that ran hands what it found here (for repairs); else NULL */
	struct f2fs_findings **findings;
};

/*
 * What a check found, for fsck's repairs: the blocks the walk reached, and
 * the nids.  Kind bits of a segment: what the reached blocks were.
 */
#define F2FS_FOUND_DATA 1u
#define F2FS_FOUND_NODE 2u

/*
 * The blocks of main-area segment @segno the walk reached, as a SIT bitmap
 * (F2FS_SIT_VBLOCK_MAP_SIZE bytes, most significant bit of byte 0 first)
 * into @map, and F2FS_FOUND_* bits into *kinds.  false for a segment out of
 * range.
 */
bool f2fs_findings_segment(const struct f2fs_findings *f, uint32_t segno, uint8_t *map,
			   unsigned int *kinds);

/* The usage the walk counted for quota type @type, NULL when the volume keeps no such file. */
struct f2fs_quota_set;
const struct f2fs_quota_set *f2fs_findings_quota(const struct f2fs_findings *f, unsigned int type);

/* Did the walk reach @nid (as an inode or a node of one)? */
bool f2fs_findings_nid_reached(const struct f2fs_findings *f, uint32_t nid);

void f2fs_findings_free(struct f2fs_findings *f);

/* Does the summary line @line pass? */
static inline bool f2fs_check_line_ok(const struct f2fs_check_result *r, enum f2fs_check_line line)
{
	return !(r->failed_lines & F2FS_LINE_BIT(line));
}

/*
 * Check the volume @fs (its tables are loaded through the handle, and stay
 * loaded for the caller).  Returns 0 when the check ran (problems, if any,
 * are counted in @res), or a negative errno with res->fatal set when it
 * could not: a table that cannot be loaded, a read error on the way to it,
 * or -ENOMEM (an operational error, never a problem of the volume).
 */
int f2fs_check(struct f2fs_fs *fs, const struct f2fs_check_options *o,
	       struct f2fs_check_result *res);

/*
 * The metadata check of a boot-time run (upstream's `-p 1`): the SIT, the
 * NAT and the checkpoint agree with one another, without a walk of the
 * tree (lib/check/check_meta.c has the list).  Returns 0 when they do, 1
 * with the first disagreement in @why, or a negative errno (@why set)
 * when the tables cannot be loaded.
 */
int f2fs_check_meta(struct f2fs_fs *fs, char *why, size_t why_len);

#endif
