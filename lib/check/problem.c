// SPDX-License-Identifier: GPL-2.0
/*
 * The problem table: one row per inconsistency the checker can report, with
 * a stable name (what tests and --json use), the on-disk structure it is
 * about, a one-line summary, upstream's own line for it (a template the
 * problem's particulars fill), the summary lines it fails, and its repair
 * policy: the fix that repairs it and, for a fix that sets one field of an
 * inode, which field and where the value comes from; whether preen mode
 * may run that fix, and whether the walk went on past it.  Detection code
 * only picks the code and fills in the particulars; fsck's printing and
 * policy and lib/repair/ read the rest from here.
 */
#include "config.h"

#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/check.h"
#include "f2fs/format.h"
#include "f2fs/node.h"

#define LINE(l) F2FS_LINE_BIT(F2FS_LINE_##l)
#define PREEN	F2FS_PR_PREEN_OK
#define KEEPS	F2FS_PR_KEEPS_WALK
#define GATES	F2FS_PR_GATES_WRITES
#define LATER	F2FS_PR_MESSAGE_LATER
/* a row, and what only some rows have after its flags: SAYS(), SETS() */
#define ROW(c, st, sm, ln, fx, fl, ...)                                                            \
	[c] = {.name = #c,                                                                         \
	       .structure = st,                                                                    \
	       .summary = sm,                                                                      \
	       .lines = ln,                                                                        \
	       .fix = F2FS_FIX_##fx,                                                               \
	       .flags = fl,                                                                        \
	       __VA_ARGS__}
#define ROW_WARN(c, st, sm, fx, fl, ...) ROW(c, st, sm, 0, fx, fl, .warning = true, __VA_ARGS__)
/* most problems fail the "other corrupted bugs" line */
#define ROW_OTHER(c, st, sm, fx, fl, ...) ROW(c, st, sm, LINE(OTHER), fx, fl, __VA_ARGS__)
/* upstream's line (a template of f2fs_problem_message()) */
#define SAYS(m)	     .message = m
#define ASSERT(m)    SAYS("[ASSERT] --> " m)
#define QUOTA_ASSERT ASSERT("Quota file is missing or invalid quota file content found.")
/* the inode field the fix sets (its @bits only), from @from (enum f2fs_field_from) */
#define SETS_BITS(f, bits, from)                                                                   \
	.field = {F2FS_FROM_##from, offsetof(struct f2fs_inode, f),                                \
		  sizeof(((struct f2fs_inode *)0)->f), bits}
#define SETS(f, from) SETS_BITS(f, 0, from)

/*
 * What value and expected hold, where neither the message nor the field
 * tells, is said at the row.
 */
static const struct f2fs_problem_info problem_table[PR_NR_CODES] = {
    ROW_OTHER(PR_SB_INVALID, "superblock", "a superblock copy is invalid", SUPER, PREEN | KEEPS),
    ROW_WARN(PR_CP_INVALID, "checkpoint", "a checkpoint pack is invalid", CHECKPOINT,
	     PREEN | KEEPS),
    ROW_OTHER(PR_CP_NEWEST_INSANE, "checkpoint",
	      "the newest checkpoint pack is insane: the kernel refuses to mount", CHECKPOINT,
	      KEEPS | GATES), /* the repair rolls back to the older pack: not for preen */
    ROW_OTHER(PR_CHAIN_LOOP, "roll-forward",
	      "the fsynced node chain loops: the kernel cannot replay it and drops it", CHECKPOINT,
	      KEEPS), /* the new checkpoint drops what was fsynced: not for preen */
    ROW_OTHER(PR_SIT_VBLOCKS, "SIT", "segment valid-block count exceeds the segment size", SPACE,
	      PREEN | KEEPS),
    ROW(PR_SIT_BITMAP_COUNT, "SIT", "segment valid-block count differs from its bitmap",
	LINE(SIT_BITMAP), SPACE, PREEN | KEEPS),
    ROW_OTHER(PR_SIT_TYPE, "SIT", "segment type is out of range", SPACE, PREEN | KEEPS),
    ROW_OTHER(PR_SIT_JOURNAL, "SIT journal", "SIT journal entry is out of range", JOURNALS,
	      PREEN | KEEPS),
    ROW(PR_SIT_FREE_COUNT, "checkpoint", "free segment count differs from the SIT",
	LINE(FREE_SEGMENTS), SPACE, PREEN | KEEPS),
    ROW_OTHER(PR_SIT_TYPE_MISMATCH, "SIT", "block type differs from its segment's type", SPACE,
	      PREEN | KEEPS),
    ROW_OTHER(PR_NAT_JOURNAL, "NAT journal", "NAT journal entry is out of range", JOURNALS,
	      PREEN | KEEPS),
    ROW_OTHER(PR_NAT_ADDR_RANGE, "NAT", "node address is outside the main area", DETACH, 0),
    /* value: the entry's ino (the nid itself for an inode) */
    ROW(PR_NAT_UNREACHABLE, "NAT", "NAT entry is not reachable from the root",
	LINE(NAT_UNREACHABLE), UNREACHABLE, KEEPS | LATER,
	SAYS("NID[0x{nid:x}] is unreachable, blkaddr:0x{blkaddr:x}")),
    ROW_OTHER(PR_NAT_BITS, "nat_bits", "nat_bits disagree with the NAT", CHECKPOINT, PREEN | KEEPS),
    /* value: the NAT entry's ino; expected: the inode owning the node, which the fix sets */
    ROW_OTHER(PR_NAT_INO, "NAT", "NAT entry's ino differs from the owning inode", NAT, KEEPS),
    ROW_OTHER(PR_NODE_FOOTER_NID, "node footer", "footer nid differs from the NAT entry", DETACH,
	      0),
    /* value: the footer's ino; expected: the root's, which the fix sets with its nid */
    ROW_OTHER(PR_ROOT_FOOTER, "node footer", "the root inode's footer names another nid or ino",
	      FOOTER, 0),
    ROW_OTHER(PR_NODE_FOOTER_INO, "node footer", "footer ino differs from the owning inode", DETACH,
	      0),
    /* value: the footer's offset in the tree; expected: the node's place, which the fix sets */
    ROW_OTHER(PR_NODE_OFFSET, "node footer", "node offset in the file's tree is wrong", FOOTER,
	      KEEPS),
    ROW_OTHER(PR_NODE_REACHED_TWICE, "node", "node is referenced more than once", DETACH, 0),
    /* value: i_mode; expected: the type of the entry naming the inode (F2FS_FT_UNKNOWN: none) */
    ROW_OTHER(PR_INODE_MODE, "inode", "file type is unknown", FIELDS, 0,
	      SETS_BITS(i_mode, S_IFMT, TYPE_MODE)),
    ROW_OTHER(PR_INODE_CHECKSUM, "inode", "inode checksum does not verify", REWRITE, PREEN | KEEPS),
    ROW_OTHER(PR_INODE_EXTRA_ISIZE, "inode", "extra attribute size is out of range", FIELDS, 0,
	      SETS(i_extra_isize, EXPECTED)),
    ROW_OTHER(PR_INODE_INLINE_XATTR, "inode", "inline xattr size is out of range", FIELDS, 0,
	      SETS(i_inline_xattr_size, EXPECTED)),
    ROW_OTHER(PR_INODE_INLINE, "inode", "inline flags do not fit the file type", FIELDS, 0,
	      SETS(i_inline, EXPECTED)),
    ROW_OTHER(PR_INODE_BLOCKS, "inode", "i_blocks differs from the blocks the inode owns", BLOCKS,
	      PREEN | KEEPS, SETS(i_blocks, EXPECTED)),
    ROW_OTHER(PR_DIR_LINKS, "inode", "a directory's i_links differs from its subdirectories", LINKS,
	      PREEN | KEEPS, SETS(i_links, EXPECTED),
	      ASSERT("ino: 0x{nid:x} i_links: {value}, real links: {expected}")),
    ROW(PR_INODE_LINKS, "inode", "i_links differs from the directory entries found",
	LINE(HARD_LINKS), LINKS, PREEN | KEEPS | LATER, SETS(i_links, EXPECTED),
	SAYS("NID[0x{nid:x}] has [0x{surplus:x}] more unreachable links")),
    ROW_OTHER(PR_INODE_SIZE, "inode", "i_size is impossible for the file type", FIELDS, KEEPS,
	      SETS(i_size, EXPECTED)),
    ROW_OTHER(PR_INODE_ADVISE, "inode",
	      "i_advise marks encryption or verity the volume does not have", FIELDS, KEEPS,
	      SETS(i_advise, EXPECTED)),
    ROW_OTHER(PR_DIR_LEVEL, "inode", "a directory's i_dir_level is past the most the kernel sets",
	      FIELDS, 0, SETS(i_dir_level, EXPECTED)),
    ROW_OTHER(PR_DIR_DEPTH, "inode",
	      "a directory's i_current_depth is past the most or below a level it uses", FIELDS,
	      PREEN | KEEPS, SETS(i_current_depth, EXPECTED)),
    /* expected: the length of the name of the entry naming the inode, 0 when none does */
    ROW_OTHER(PR_INODE_NAMELEN, "inode", "i_namelen is out of range", FIELDS, KEEPS,
	      SETS(i_namelen, EXPECTED_SET)),
    ROW_OTHER(PR_INODE_XATTR_NID, "inode", "xattr node is invalid", DETACH, KEEPS),
    /* value: what the entry names; expected: the parent, which the fix writes into ".." */
    ROW_OTHER(PR_DIR_DOTS, "dentry", "\".\" or \"..\" is missing or wrong", DOTS, KEEPS),
    ROW_OTHER(PR_DIR_MULTIPLE_PARENTS, "dentry", "directory is linked from more than one entry",
	      DETACH, KEEPS),
    ROW_OTHER(PR_DENT_NAME_LEN, "dentry", "name length is zero or runs past the block", DETACH, 0),
    ROW_OTHER(PR_DENT_NAME_CHARS, "dentry", "name holds a NUL byte or a slash", DETACH, KEEPS),
    ROW_OTHER(PR_DENT_HASH, "dentry", "stored hash differs from the name's hash", DENTRY,
	      PREEN | KEEPS),
    ROW_OTHER(PR_DENT_POSITION, "dentry", "entry is in a hash bucket its hash does not select",
	      DENTRY, KEEPS),
    ROW_OTHER(PR_DENT_INO, "dentry", "entry points at an invalid inode", DETACH, KEEPS),
    ROW_OTHER(PR_DENT_FILE_TYPE, "dentry", "entry file type differs from the inode's mode", DENTRY,
	      PREEN),
    ROW_OTHER(PR_DENT_BITMAP, "dentry", "name slots are not marked in the bitmap", DENTRY, KEEPS),
    ROW_OTHER(PR_BLK_RANGE, "block address", "block address is outside the main area", DETACH,
	      KEEPS),
    ROW_OTHER(PR_BLK_REACHED_TWICE, "block address", "block is owned by more than one place", CLONE,
	      0),
    ROW(PR_BLK_NOT_IN_SIT, "SIT", "reached block is not valid in the SIT", LINE(SIT_BITMAP), SPACE,
	PREEN | KEEPS),
    ROW(PR_BLK_SIT_EXTRA, "SIT", "SIT marks a block valid that nothing owns", LINE(SIT_BITMAP),
	SPACE, PREEN | KEEPS),
    /* value: 1 for a node block; expected: the ofs_in_node its owner gives a data block */
    ROW_OTHER(PR_SSA_MISMATCH, "SSA", "summary entry disagrees with the block's owner", SSA,
	      PREEN | KEEPS),
    ROW(PR_SEC_CKPT_VALID, "section", "checkpointed valid blocks differ from those found",
	LINE(SECTIONS) | LINE(SIT_BITMAP), SPACE, PREEN | KEEPS),
    ROW(PR_COUNT_VALID_BLOCKS, "checkpoint", "valid_block_count differs from the blocks found",
	LINE(VALID_BLOCKS), SPACE, PREEN | KEEPS),
    ROW(PR_COUNT_VALID_NODES, "checkpoint", "valid_node_count differs from the nodes found",
	LINE(VALID_NODES), SPACE, PREEN | KEEPS),
    ROW(PR_COUNT_NAT_NODES, "checkpoint", "valid_node_count differs from the NAT's valid entries",
	LINE(NAT_NODES), SPACE, PREEN | KEEPS),
    ROW(PR_COUNT_VALID_INODES, "checkpoint", "valid_inode_count differs from the inodes found",
	LINE(VALID_INODES), SPACE, PREEN | KEEPS),
    ROW(PR_CURSEG_NEXT_USED, "checkpoint", "an open log's next block is already in use",
	LINE(CURSEG), SPACE, PREEN | KEEPS),
    /*
     * value: the SIT's type, expected: the log's.  The 6.1 kernel mounts
     * such a volume and keeps the stored type (build_sit_entries runs after
     * build_curseg): only a log's opening of a segment sets it (reset_curseg,
     * change_curseg), so the kernel never writes one.  Its paths trust it:
     * roll-forward picks the log by it (f2fs_do_replace_block), and GC
     * stops checkpoints when it names the other class than the segment's
     * summary ("Inconsistent segment type in SSA and SIT").  Upstream's
     * fsck flags it too ("Incorrect curseg [log]: segno [..] type(SIT)").
     * The space repair gives the segment its log's type.
     */
    ROW_OTHER(PR_CURSEG_SIT_TYPE, "SIT", "an open log's segment has another type in the SIT", SPACE,
	      PREEN | KEEPS),
    ROW_OTHER(PR_ORPHAN, "orphan", "orphan inode is invalid", ORPHANS, PREEN | KEEPS),
    ROW_OTHER(PR_IO, "device", "a block could not be read", NONE, 0),
    ROW_OTHER(PR_DEVICE_TRUNCATED, "device", "the device is shorter than the volume", NONE, 0),
    ROW_OTHER(PR_NODE_NID_FREE, "node", "a node pointer names a free nid", DETACH, KEEPS),
    ROW_OTHER(PR_ROOT_INODE, "superblock", "the root inode is missing or unreadable", RESTORE, 0),
    ROW_OTHER(PR_QUOTA_INODE, "superblock", "a quota inode has no NAT entry", RESTORE, 0),
    ROW_OTHER(
	PR_INODE_EXTENT, "inode", "i_ext does not match the file's blocks", EXTENT, PREEN | KEEPS,
	SETS(i_ext, ZERO),
	ASSERT("ino: 0x{nid:x} has wrong ext: [pgofs:{value}, blk:{blkaddr}, len:{expected}]")),
    ROW_OTHER(PR_INODE_CASEFOLD, "inode", "casefold flag on an inode that cannot carry it", FIELDS,
	      KEEPS, SETS_BITS(i_flags, F2FS_CASEFOLD_FL, ZERO),
	      ASSERT("[0x{nid:x}] unexpected casefold flag")),
    ROW_OTHER(PR_INODE_COMPRESS, "inode", "compression flag on an inode that cannot carry it",
	      FIELDS, KEEPS, SETS_BITS(i_flags, F2FS_COMPR_FL, ZERO)),
    /* value: i_size; expected: the inline capacity */
    ROW_OTHER(PR_INODE_INLINE_SIZE, "inode", "i_size exceeds the inline data capacity", FIELDS,
	      KEEPS, SETS(i_size, EXPECTED), ASSERT("[0x{nid:x}] wrong inline size:{value}")),
    /* the word's place follows i_extra_isize: its fix is FIELDS' own */
    ROW_OTHER(PR_INODE_INLINE_RESERVED, "inode", "the word reserved before inline data is used",
	      FIELDS, KEEPS, ASSERT("[0x{nid:x}] wrong inline reserve blkaddr:{value}")),
    ROW_WARN(PR_INODE_INLINE_JUNK, "inode", "inline data present without the data-exist flag",
	     FIELDS, PREEN | KEEPS, SETS(i_inline, EXPECTED)),
    /* value: the byte offset of the bad entry in the xattr space; expected: its size */
    ROW_OTHER(PR_XATTR_ENTRY, "xattr", "an xattr entry runs past the end of the xattr space", XATTR,
	      KEEPS,
	      ASSERT("[0x{nid:x}] last xattr entry (offset: {value:x}) crosses the boundary")),
    /* value: the offset of the first trailing byte in the xattr space; expected: its size */
    ROW_OTHER(PR_XATTR_TRAILING, "xattr", "non-zero bytes follow the end of the xattr list", XATTR,
	      PREEN | KEEPS, ASSERT("[0x{nid:x}] nonzero bytes in xattr space after end of list")),
    /* value: 1 for a node block; expected: the ofs_in_node its owner gives a data block */
    ROW_OTHER(PR_SSA_TYPE, "SSA", "summary block type differs from its blocks' type", SSA,
	      PREEN | KEEPS, ASSERT("Summary footer is not for {value?node|data} segment")),
    /* expected: the ofs_in_node the data block's owner gives it */
    ROW_OTHER(PR_SSA_VERSION, "SSA", "summary version differs from the node's NAT version", SSA,
	      PREEN | KEEPS, ASSERT("Invalid data seg summary")),
    ROW_OTHER(PR_DIR_PINO, "inode", "a directory's i_pino differs from its parent", PINO,
	      PREEN | KEEPS, SETS(i_pino, EXPECTED),
	      ASSERT("Bad inode number[0x{expected:x}] for '..', parent parent ino is "
		     "[0x{value:x}]")),
    /* a consequence: the problem that stops the walk there has the fix */
    ROW_WARN(PR_DIR_LOST, "dentry", "an entry names a directory that cannot be walked", NONE,
	     KEEPS),
    ROW_OTHER(PR_ZONE_CAPACITY, "zones",
	      "sequential zones differ in capacity: Linux mounts one capacity only", NONE, KEEPS),
    ROW(PR_ZONE_BLOCK_PAST_WP, "zones", "a block in use lies past its zone's write pointer",
	LINE(WRITE_POINTERS), DETACH, KEEPS),
    /* value: the zone's written blocks; expected: the log's next block */
    ROW(PR_ZONE_LOG_BEHIND, "zones", "a log's zone write pointer is behind the log",
	LINE(WRITE_POINTERS), ZONES, PREEN | KEEPS),
    /* value: the zone's written blocks; expected: the log's next block */
    ROW_WARN(PR_ZONE_LOG_AHEAD, "zones", "a log's zone write pointer is past the log", ZONES,
	     PREEN | KEEPS),
    /* value: the zone's written blocks */
    ROW_WARN(PR_ZONE_NOT_RESET, "zones", "a zone with nothing valid is not reset", ZONES,
	     PREEN | KEEPS),
    ROW_WARN(PR_ZONE_OPEN, "zones", "a zone no log writes is left open", ZONES, PREEN | KEEPS),
    /* value: the quota type */
    ROW_OTHER(PR_QUOTA_FILE, "quota", "a quota file is not in the kernel's format", QUOTA,
	      PREEN | KEEPS, QUOTA_ASSERT),
    /* value: the quota type; expected: the first id whose usage differs */
    ROW_OTHER(PR_QUOTA_USAGE, "quota", "a quota file's usage differs from the files found", QUOTA,
	      PREEN | KEEPS, QUOTA_ASSERT),
    ROW_OTHER(PR_QUOTA_NEED_FSCK, "checkpoint",
	      "the checkpoint asks for the quota files to be checked", QUOTA, PREEN | KEEPS),
    ROW_OTHER(PR_INODE_DEVICE_ALIAS, "inode",
	      "device-alias flag on a volume without the device_alias feature", FIELDS, KEEPS,
	      SETS_BITS(i_flags, F2FS_DEVICE_ALIAS_FL, ZERO)),
    /* value: the parameter the kernel refuses; expected: the most it takes, when one */
    ROW_OTHER(PR_INODE_COMPRESS_PARAMS, "inode",
	      "compression parameters the kernel refuses: it will not open the file", NONE, KEEPS),
    /* value: the header's clen; expected: the most its stored blocks hold */
    ROW_OTHER(PR_COMPRESS_CLUSTER, "data",
	      "a compressed cluster's header does not fit its blocks: the kernel cannot read it",
	      NONE, KEEPS),
    /*
     * value: the node log; expected: its segment.  No repair: only a
     * read-only volume (no SSA area) has it, and those are never written.
     */
    ROW_OTHER(PR_CP_NODE_SUMMARIES, "checkpoint",
	      "the node logs' summaries are neither in the pack nor in the SSA: the kernel "
	      "refuses to mount",
	      NONE, KEEPS),
};

static const struct f2fs_fix_info fix_table[F2FS_NR_FIXES] = {
    [F2FS_FIX_SPACE] = {"space", "Rebuild",
			"SIT, section and checkpoint counts rebuilt from the blocks reached"},
    [F2FS_FIX_UNREACHABLE] =
	{"unreachable", "Reconnect",
	 "unreachable inodes linked into /lost+found as #INO, other unreachable NAT entries freed"},
    [F2FS_FIX_LINKS] = {"links", "Fix", "i_links set to the entries found"},
    [F2FS_FIX_BLOCKS] = {"blocks", "Fix", "i_blocks set to the blocks found"},
    [F2FS_FIX_SSA] = {"ssa", "Fix", "summary entries rewritten from the blocks' owners"},
    [F2FS_FIX_PINO] = {"pino", "Fix", "i_pino set to the directory naming it"},
    [F2FS_FIX_DENTRY] = {"dentry", "Fix",
			 "entries' hashes, file types and name slots set, misplaced entries moved"},
    [F2FS_FIX_DETACH] = {"detach", "Clear",
			 "entries and pointers to what cannot be used removed (what they "
			 "named is lost, or reconnected by the next check)"},
    [F2FS_FIX_DOTS] = {"dots", "Fix", "\".\" and \"..\" written"},
    [F2FS_FIX_NAT] = {"nat", "Fix", "NAT entries' ino set to the inode owning the node"},
    [F2FS_FIX_FIELDS] = {"fields", "Fix",
			 "inode fields set from the entry naming the inode or the volume's "
			 "features, flags that do not fit cleared, sizes rounded or capped"},
    [F2FS_FIX_XATTR] = {"xattr", "Fix",
			"xattr lists ended before a damaged entry (it and those after it are "
			"lost) or trailing bytes"},
    [F2FS_FIX_CLONE] = {"clone", "Clone",
			"blocks owned twice copied, so that each owner has its own"},
    [F2FS_FIX_JOURNALS] = {"journals", "Fix",
			   "the SIT and NAT journals emptied into their blocks, entries out of "
			   "range dropped"},
    [F2FS_FIX_ORPHANS] = {"orphans", "Release",
			  "orphan inodes released as a mount releases them, entries naming no "
			  "inode dropped (the checkpoint a repair writes lists none)"},
    [F2FS_FIX_FOOTER] =
	{"footer", "Fix",
	 "node footers' offsets set to their place in the tree, the root's nid and ino "
	 "restored"},
    [F2FS_FIX_EXTENT] = {"extent", "Clear", "i_ext cleared (the kernel rebuilds its extent cache)"},
    [F2FS_FIX_SUPER] = {"superblock", "Fix",
			"rejected superblock copies rewritten from the one in use"},
    [F2FS_FIX_REWRITE] = {"rewrite", "Fix", "inodes written again with their checksums"},
    [F2FS_FIX_CHECKPOINT] = {"checkpoint", "Fix",
			     "a new checkpoint written (nat_bits, the rejected pack replaced, a "
			     "looped fsynced chain dropped)"},
    [F2FS_FIX_RESTORE] = {"restore", "Restore",
			  "a root or quota inode without a NAT entry pointed at its newest copy in "
			  "the main area (a new empty root when none is left)"},
    [F2FS_FIX_QUOTA] = {"quota", "Rebuild",
			"quota files rewritten with the usage counted (limits kept)"},
    [F2FS_FIX_ZONES] = {"zones", "Fix",
			"logs moved to fresh zones, zones with nothing valid reset, stray open "
			"zones finished"},
};

const struct f2fs_fix_info *f2fs_fix_info(enum f2fs_fix fix)
{
	if ((unsigned int)fix >= F2FS_NR_FIXES || !fix_table[fix].name)
		return NULL;
	return &fix_table[fix];
}

const struct f2fs_problem_info *f2fs_problem_info(enum f2fs_problem_code code)
{
	if ((unsigned int)code >= PR_NR_CODES || !problem_table[code].name)
		return NULL;
	return &problem_table[code];
}

/* A message being written into a buffer, cut at its end. */
struct msg_out {
	char *buf;
	size_t size, len;
};

static void put(struct msg_out *o, const char *s, size_t n)
{
	size_t room = o->size - o->len - 1;

	if (n > room)
		n = room;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* The particular of @p named by @name (@len bytes); false when it has none by that name. */
static bool particular(const struct f2fs_problem *p, const char *name, size_t len, uint64_t *v)
{
	enum { SURPLUS = 4 };
	static const char *const names[] = {"nid", "blkaddr", "value", "expected", "surplus"};
	const uint64_t values[] = {p->nid, p->blkaddr, p->value, p->expected,
				   p->value - p->expected};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) == len && !memcmp(names[i], name, len)) {
			*v = values[i];
			return i != SURPLUS || p->value > p->expected;
		}
	}
	return false;
}

/*
 * Write placeholder @ph for @p: the @len bytes between "{" and "}", "name",
 * "name:x" or "name?yes|no".  false when it does not apply.
 */
static bool placeholder(struct msg_out *o, const struct f2fs_problem *p, const char *ph, size_t len)
{
	size_t name_len = strcspn(ph, ":?}");
	const char *rest = ph + name_len, *bar;
	char num[24];
	uint64_t v;

	if (name_len > len || !particular(p, ph, name_len, &v))
		return false;
	if (*rest == '?') {
		bar = memchr(rest, '|', len - name_len);
		if (!bar)
			return false;
		if (v)
			put(o, rest + 1, (size_t)(bar - rest - 1));
		else
			put(o, bar + 1, (size_t)(ph + len - bar - 1));
		return true;
	}
	if (rest != ph + len && strncmp(rest, ":x}", 3))
		return false;
	snprintf(num, sizeof(num), *rest == ':' ? "%llx" : "%llu", (unsigned long long)v);
	put(o, num, strlen(num));
	return true;
}

bool f2fs_problem_message(const struct f2fs_problem *p, char *buf, size_t size)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);
	const char *t = info ? info->message : NULL;
	struct msg_out o = {buf, size, 0};
	bool whole;

	if (!size)
		return false;
	buf[0] = '\0';
	while (t && *t) {
		const char *end = *t == '{' ? strchr(t, '}') : NULL;
		size_t n = strcspn(t + 1, "{") + 1;

		if (!end) {
			put(&o, t, n); /* text, or a "{" that opens nothing */
			t += n;
		} else if (placeholder(&o, p, t + 1, (size_t)(end - t - 1))) {
			t = end + 1;
		} else {
			break;
		}
	}
	whole = t && !*t;
	if (!whole)
		buf[0] = '\0';
	return whole;
}
