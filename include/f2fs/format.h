/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk format of F2FS: every structure the tools read or write, the
 * constants that size them, feature and flag bits.  All multi-byte fields are
 * little-endian on disk; code converts them with the helpers in endian.h and
 * never touches a raw field arithmetically.  Sizes and the offsets the kernel
 * reads are pinned with static asserts so a mistake fails the build.
 */
#ifndef F2FS_FORMAT_H
#define F2FS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

typedef uint16_t le16;
typedef uint32_t le32;
typedef uint64_t le64;

#define F2FS_PACKED __attribute__((packed))

/* Sizes */
#define F2FS_SUPER_MAGIC	  0xF2F52010u
#define F2FS_SUPER_OFFSET	  1024 /* byte offset of the superblock in blocks 0 and 1 */
#define F2FS_BLKSIZE		  4096
#define F2FS_BLKSIZE_BITS	  12
#define F2FS_MIN_SECTOR_SIZE	  512
#define F2FS_MAX_SECTOR_SIZE	  4096
#define F2FS_DEFAULT_BLKS_PER_SEG 512
#define F2FS_LOG_BLKS_PER_SEG	  9
#define F2FS_SEGMENT_BYTES	  (F2FS_BLKSIZE * F2FS_DEFAULT_BLKS_PER_SEG)
#define F2FS_CP_PACKS		  2 /* checkpoint segments */
#define F2FS_MIN_SEGMENTS	  9 /* sb + 2 cp + 2 sit + 2 nat + ssa + main, counted by mkfs */
#define F2FS_MAX_SEGMENTS	  ((16u * 1024 * 1024) / 2) /* 16 TiB of 2 MiB segments */
#define F2FS_MAX_VOLUME_NAME	  512
#define F2FS_MAX_EXTENSION	  64
#define F2FS_EXTENSION_LEN	  8
#define F2FS_VERSION_LEN	  256
#define F2FS_MAX_DEVICES	  8
#define F2FS_MAX_PATH_LEN	  64
#define F2FS_MAX_QUOTAS		  3
#define F2FS_SB_CHKSUM_OFFSET	  3068
#define F2FS_CP_CHKSUM_OFFSET	  4092
#define F2FS_NR_CURSEG_TYPE	  6
#define F2FS_NR_CURSEG_DATA_TYPE  3
#define F2FS_NR_CURSEG_NODE_TYPE  3
#define F2FS_MAX_ACTIVE_NODE_LOGS 8
#define F2FS_MAX_ACTIVE_DATA_LOGS 8
#define F2FS_MAX_ACTIVE_LOGS	  16
#define F2FS_NULL_ADDR		  0x0u
#define F2FS_NEW_ADDR		  0xFFFFFFFFu
#define F2FS_COMPRESS_ADDR	  0xFFFFFFFEu
#define F2FS_NULL_SEGNO		  0xFFFFFFFFu
#define F2FS_FIRST_INO_RESERVED	  3 /* node (1), meta (2), root (3) */

/* Current segment types, in the order of the checkpoint's arrays */
enum f2fs_curseg_type {
	F2FS_CURSEG_HOT_DATA = 0,
	F2FS_CURSEG_WARM_DATA,
	F2FS_CURSEG_COLD_DATA,
	F2FS_CURSEG_HOT_NODE,
	F2FS_CURSEG_WARM_NODE,
	F2FS_CURSEG_COLD_NODE,
};

/*
 * Does a volume with @features use log @type?  A read-only one
 * (F2FS_FEATURE_RO) has two: hot data growing from the main area's start
 * and hot node from its end; the checkpoint's other four are placeholders
 * the kernel and upstream leave unchecked.
 */
#define F2FS_LOG_IN_USE(features, type)                                                            \
	(!((features)&F2FS_FEATURE_RO) || (type) == F2FS_CURSEG_HOT_DATA ||                        \
	 (type) == F2FS_CURSEG_HOT_NODE)

/* Superblock feature bits */
#define F2FS_FEATURE_ENCRYPT 0x0001
/* i_advise bits the checker knows (the kernel's FADVISE_*_BIT) */
#define F2FS_FADVISE_ENCRYPT		   0x04
#define F2FS_FADVISE_ENC_NAME		   0x08
#define F2FS_FADVISE_VERITY		   0x40
#define F2FS_FEATURE_BLKZONED		   0x0002
#define F2FS_FEATURE_ATOMIC_WRITE	   0x0004
#define F2FS_FEATURE_EXTRA_ATTR		   0x0008
#define F2FS_FEATURE_PRJQUOTA		   0x0010
#define F2FS_FEATURE_INODE_CHKSUM	   0x0020
#define F2FS_FEATURE_FLEXIBLE_INLINE_XATTR 0x0040
#define F2FS_FEATURE_QUOTA_INO		   0x0080
#define F2FS_FEATURE_INODE_CRTIME	   0x0100
#define F2FS_FEATURE_LOST_FOUND		   0x0200
#define F2FS_FEATURE_VERITY		   0x0400
#define F2FS_FEATURE_SB_CHKSUM		   0x0800
#define F2FS_FEATURE_CASEFOLD		   0x1000
#define F2FS_FEATURE_COMPRESSION	   0x2000
#define F2FS_FEATURE_RO			   0x4000
#define F2FS_FEATURE_DEVICE_ALIAS	   0x8000 /* newest upstream; the 6.1 kernel has none */
#define F2FS_FEATURE_PACKED_SSA		   0x10000 /* newest upstream: 4 KiB summaries in larger blocks */

/* Checkpoint flags */
#define CP_UMOUNT_FLAG		 0x00000001
#define CP_ORPHAN_PRESENT_FLAG	 0x00000002
#define CP_COMPACT_SUM_FLAG	 0x00000004
#define CP_ERROR_FLAG		 0x00000008
#define CP_FSCK_FLAG		 0x00000010
#define CP_FASTBOOT_FLAG	 0x00000020
#define CP_CRC_RECOVERY_FLAG	 0x00000040
#define CP_NAT_BITS_FLAG	 0x00000080
#define CP_TRIMMED_FLAG		 0x00000100
#define CP_NOCRC_RECOVERY_FLAG	 0x00000200
#define CP_LARGE_NAT_BITMAP_FLAG 0x00000400
#define CP_QUOTA_NEED_FSCK_FLAG	 0x00000800
#define CP_DISABLED_FLAG	 0x00001000
#define CP_DISABLED_QUICK_FLAG	 0x00002000
#define CP_RESIZEFS_FLAG	 0x00004000

/* Casefolding encodings */
#define F2FS_ENC_UTF8_12_1	       1
#define F2FS_ENC_STRICT_MODE_FL	       0x0001
#define F2FS_ENC_NO_COMPAT_FALLBACK_FL 0x0002 /* casefolded lookups never fall back to linear */

struct f2fs_device_entry {
	uint8_t path[F2FS_MAX_PATH_LEN];
	le32 total_segments;
} F2FS_PACKED;

struct f2fs_super_block {
	le32 magic;
	le16 major_ver;
	le16 minor_ver;
	le32 log_sectorsize;
	le32 log_sectors_per_block;
	le32 log_blocksize;
	le32 log_blocks_per_seg;
	le32 segs_per_sec;
	le32 secs_per_zone;
	le32 checksum_offset;
	le64 block_count;   /* blocks of the whole volume */
	le32 section_count; /* sections in the main area */
	le32 segment_count;
	le32 segment_count_ckpt;
	le32 segment_count_sit;
	le32 segment_count_nat;
	le32 segment_count_ssa;
	le32 segment_count_main;
	le32 segment0_blkaddr;
	le32 cp_blkaddr;
	le32 sit_blkaddr;
	le32 nat_blkaddr;
	le32 ssa_blkaddr;
	le32 main_blkaddr;
	le32 root_ino;
	le32 node_ino;
	le32 meta_ino;
	uint8_t uuid[16];
	le16 volume_name[F2FS_MAX_VOLUME_NAME];
	le32 extension_count;
	uint8_t extension_list[F2FS_MAX_EXTENSION][F2FS_EXTENSION_LEN];
	le32 cp_payload;
	uint8_t version[F2FS_VERSION_LEN];
	uint8_t init_version[F2FS_VERSION_LEN];
	le32 feature;
	uint8_t encryption_level;
	uint8_t encrypt_pw_salt[16];
	struct f2fs_device_entry devs[F2FS_MAX_DEVICES];
	le32 qf_ino[F2FS_MAX_QUOTAS];
	uint8_t hot_ext_count;
	le16 s_encoding;
	le16 s_encoding_flags;
	uint8_t s_stop_reason[32];
	uint8_t s_errors[16];
	uint8_t reserved[258];
	le32 crc;
} F2FS_PACKED;

_Static_assert(sizeof(struct f2fs_device_entry) == 68, "device entry");
_Static_assert(sizeof(struct f2fs_super_block) == 3072, "superblock size");
_Static_assert(offsetof(struct f2fs_super_block, block_count) == 36, "sb block_count");
_Static_assert(offsetof(struct f2fs_super_block, segment0_blkaddr) == 72, "sb segment0");
_Static_assert(offsetof(struct f2fs_super_block, main_blkaddr) == 92, "sb main_blkaddr");
_Static_assert(offsetof(struct f2fs_super_block, uuid) == 108, "sb uuid");
_Static_assert(offsetof(struct f2fs_super_block, volume_name) == 124, "sb volume_name");
_Static_assert(offsetof(struct f2fs_super_block, extension_count) == 1148, "sb ext count");
_Static_assert(offsetof(struct f2fs_super_block, cp_payload) == 1664, "sb cp_payload");
_Static_assert(offsetof(struct f2fs_super_block, feature) == 2180, "sb feature");
_Static_assert(offsetof(struct f2fs_super_block, devs) == 2201, "sb devs");
_Static_assert(offsetof(struct f2fs_super_block, qf_ino) == 2745, "sb qf_ino");
_Static_assert(offsetof(struct f2fs_super_block, s_encoding) == 2758, "sb s_encoding");
_Static_assert(offsetof(struct f2fs_super_block, crc) == F2FS_SB_CHKSUM_OFFSET, "sb crc");

struct f2fs_checkpoint {
	le64 checkpoint_ver;
	le64 user_block_count;
	le64 valid_block_count;
	le32 rsvd_segment_count;
	le32 overprov_segment_count;
	le32 free_segment_count;
	le32 cur_node_segno[F2FS_MAX_ACTIVE_NODE_LOGS];
	le16 cur_node_blkoff[F2FS_MAX_ACTIVE_NODE_LOGS];
	le32 cur_data_segno[F2FS_MAX_ACTIVE_DATA_LOGS];
	le16 cur_data_blkoff[F2FS_MAX_ACTIVE_DATA_LOGS];
	le32 ckpt_flags;
	le32 cp_pack_total_block_count;
	le32 cp_pack_start_sum;
	le32 valid_node_count;
	le32 valid_inode_count;
	le32 next_free_nid;
	le32 sit_ver_bitmap_bytesize;
	le32 nat_ver_bitmap_bytesize;
	le32 checksum_offset;
	le64 elapsed_time;
	uint8_t alloc_type[F2FS_MAX_ACTIVE_LOGS];
	uint8_t sit_nat_version_bitmap[]; /* SIT bitmap, then NAT bitmap */
} F2FS_PACKED;

#define F2FS_CP_BITMAP_OFFSET	    192
#define F2FS_CP_MIN_NAT_BITMAP_SIZE 64
#define F2FS_CP_MAX_BITMAP_SIZE	    (F2FS_CP_CHKSUM_OFFSET - F2FS_CP_BITMAP_OFFSET)
#define F2FS_CP_MAX_SIT_BITMAP_SIZE (F2FS_CP_MAX_BITMAP_SIZE - F2FS_CP_MIN_NAT_BITMAP_SIZE)
_Static_assert(sizeof(struct f2fs_checkpoint) == F2FS_CP_BITMAP_OFFSET, "checkpoint header");
_Static_assert(offsetof(struct f2fs_checkpoint, cur_node_segno) == 36, "cp cur_node_segno");
_Static_assert(offsetof(struct f2fs_checkpoint, cur_data_blkoff) == 116, "cp cur_data_blkoff");
_Static_assert(offsetof(struct f2fs_checkpoint, ckpt_flags) == 132, "cp flags");
_Static_assert(offsetof(struct f2fs_checkpoint, checksum_offset) == 164, "cp checksum_offset");
_Static_assert(offsetof(struct f2fs_checkpoint, elapsed_time) == 168, "cp elapsed_time");

/* Orphan inode block */
#define F2FS_ORPHANS_PER_BLOCK 1020
struct f2fs_orphan_block {
	le32 ino[F2FS_ORPHANS_PER_BLOCK];
	le32 reserved;
	le16 blk_addr;
	le16 blk_count;
	le32 entry_count;
	le32 check_sum;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_orphan_block) == F2FS_BLKSIZE, "orphan block");

/* NAT */
struct f2fs_nat_entry {
	uint8_t version;
	le32 ino;
	le32 block_addr;
} F2FS_PACKED;
#define F2FS_NAT_ENTRY_PER_BLOCK (F2FS_BLKSIZE / sizeof(struct f2fs_nat_entry))
struct f2fs_nat_block {
	struct f2fs_nat_entry entries[F2FS_NAT_ENTRY_PER_BLOCK];
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_nat_entry) == 9, "nat entry");
_Static_assert(F2FS_NAT_ENTRY_PER_BLOCK == 455, "nat entries per block");
_Static_assert(sizeof(struct f2fs_nat_block) == 4095, "nat block");

/* SIT */
#define F2FS_SIT_VBLOCKS_SHIFT	 10
#define F2FS_SIT_VBLOCKS_MASK	 ((1u << F2FS_SIT_VBLOCKS_SHIFT) - 1)
#define F2FS_SIT_VBLOCK_MAP_SIZE 64
struct f2fs_sit_entry {
	le16 vblocks; /* type << 10 | valid blocks */
	uint8_t valid_map[F2FS_SIT_VBLOCK_MAP_SIZE];
	le64 mtime;
} F2FS_PACKED;
#define F2FS_SIT_ENTRY_PER_BLOCK (F2FS_BLKSIZE / sizeof(struct f2fs_sit_entry))
struct f2fs_sit_block {
	struct f2fs_sit_entry entries[F2FS_SIT_ENTRY_PER_BLOCK];
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_sit_entry) == 74, "sit entry");
_Static_assert(F2FS_SIT_ENTRY_PER_BLOCK == 55, "sit entries per block");

/* Segment summary area */
#define F2FS_ENTRIES_IN_SUM	  512
#define F2FS_SUMMARY_SIZE	  7
#define F2FS_SUM_FOOTER_SIZE	  5
#define F2FS_SUM_ENTRY_SIZE	  (F2FS_SUMMARY_SIZE * F2FS_ENTRIES_IN_SUM)
#define F2FS_SUM_JOURNAL_SIZE	  (F2FS_BLKSIZE - F2FS_SUM_FOOTER_SIZE - F2FS_SUM_ENTRY_SIZE)
#define F2FS_NAT_JOURNAL_ENTRIES  ((F2FS_SUM_JOURNAL_SIZE - 2) / 13)
#define F2FS_NAT_JOURNAL_RESERVED ((F2FS_SUM_JOURNAL_SIZE - 2) % 13)
#define F2FS_SIT_JOURNAL_ENTRIES  ((F2FS_SUM_JOURNAL_SIZE - 2) / 78)
#define F2FS_SIT_JOURNAL_RESERVED ((F2FS_SUM_JOURNAL_SIZE - 2) % 78)
#define F2FS_SUM_TYPE_NODE	  1
#define F2FS_SUM_TYPE_DATA	  0

struct f2fs_summary {
	le32 nid;
	uint8_t version;
	le16 ofs_in_node;
} F2FS_PACKED;

struct f2fs_summary_footer {
	uint8_t entry_type;
	le32 check_sum;
} F2FS_PACKED;

struct f2fs_nat_journal_entry {
	le32 nid;
	struct f2fs_nat_entry ne;
} F2FS_PACKED;

struct f2fs_sit_journal_entry {
	le32 segno;
	struct f2fs_sit_entry se;
} F2FS_PACKED;

struct f2fs_journal {
	union {
		le16 n_nats;
		le16 n_sits;
	};
	union {
		struct {
			struct f2fs_nat_journal_entry entries[F2FS_NAT_JOURNAL_ENTRIES];
			uint8_t reserved[F2FS_NAT_JOURNAL_RESERVED];
		} F2FS_PACKED nat_j;
		struct {
			struct f2fs_sit_journal_entry entries[F2FS_SIT_JOURNAL_ENTRIES];
			uint8_t reserved[F2FS_SIT_JOURNAL_RESERVED];
		} F2FS_PACKED sit_j;
		uint8_t info[F2FS_SUM_JOURNAL_SIZE - 2];
	};
} F2FS_PACKED;

struct f2fs_summary_block {
	struct f2fs_summary entries[F2FS_ENTRIES_IN_SUM];
	struct f2fs_journal journal;
	struct f2fs_summary_footer footer;
} F2FS_PACKED;

_Static_assert(sizeof(struct f2fs_summary) == F2FS_SUMMARY_SIZE, "summary entry");
_Static_assert(sizeof(struct f2fs_summary_footer) == F2FS_SUM_FOOTER_SIZE, "summary footer");
_Static_assert(F2FS_SUM_JOURNAL_SIZE == 507, "journal size");
_Static_assert(F2FS_NAT_JOURNAL_ENTRIES == 38, "nat journal entries");
_Static_assert(F2FS_SIT_JOURNAL_ENTRIES == 6, "sit journal entries");
_Static_assert(sizeof(struct f2fs_journal) == F2FS_SUM_JOURNAL_SIZE, "journal");
_Static_assert(sizeof(struct f2fs_summary_block) == F2FS_BLKSIZE, "summary block");

/* Nodes */
#define F2FS_DEF_ADDRS_PER_INODE 923
#define F2FS_DEF_NIDS_PER_INODE	 5
#define F2FS_ADDRS_PER_BLOCK	 1018
#define F2FS_NIDS_PER_BLOCK	 1018
#define F2FS_NODE_DIR1_BLOCK	 (F2FS_DEF_ADDRS_PER_INODE + 1)
#define F2FS_NAME_LEN		 255
#define F2FS_INLINE_XATTR_ADDRS	 50 /* default inline xattr size, in 4-byte words */

/* i_inline flags */
#define F2FS_INLINE_XATTR      0x01
#define F2FS_INLINE_DATA       0x02
#define F2FS_INLINE_DENTRY     0x04
#define F2FS_DATA_EXIST	       0x08
#define F2FS_INLINE_DOTS       0x10
#define F2FS_EXTRA_ATTR	       0x20
#define F2FS_PIN_FILE	       0x40
#define F2FS_COMPRESS_RELEASED 0x80

/* node footer flag bits */
#define F2FS_COLD_BIT_SHIFT   0
#define F2FS_FSYNC_BIT_SHIFT  1
#define F2FS_DENT_BIT_SHIFT   2
#define F2FS_OFFSET_BIT_SHIFT 3

struct f2fs_extent {
	le32 fofs;
	le32 blk;
	le32 len;
} F2FS_PACKED;

struct f2fs_inode {
	le16 i_mode;
	uint8_t i_advise;
	uint8_t i_inline;
	le32 i_uid;
	le32 i_gid;
	le32 i_links;
	le64 i_size;
	le64 i_blocks; /* in blocks, counting the inode block itself */
	le64 i_atime;
	le64 i_ctime;
	le64 i_mtime;
	le32 i_atime_nsec;
	le32 i_ctime_nsec;
	le32 i_mtime_nsec;
	le32 i_generation;
	union {
		le32 i_current_depth;
		le16 i_gc_failures;
	};
	le32 i_xattr_nid;
	le32 i_flags;
	le32 i_pino;
	le32 i_namelen;
	uint8_t i_name[F2FS_NAME_LEN];
	uint8_t i_dir_level;
	struct f2fs_extent i_ext;
	union {
		struct {
			le16 i_extra_isize;
			le16 i_inline_xattr_size;
			le32 i_projid;
			le32 i_inode_checksum;
			le64 i_crtime;
			le32 i_crtime_nsec;
			le64 i_compr_blocks;
			uint8_t i_compress_algorithm;
			uint8_t i_log_cluster_size;
			le16 i_compress_flag;
			/* i_extra_end: end of the extra attributes known here */
		} F2FS_PACKED;
		le32 i_addr[F2FS_DEF_ADDRS_PER_INODE];
	};
	le32 i_nid[F2FS_DEF_NIDS_PER_INODE];
} F2FS_PACKED;

#define F2FS_EXTRA_ISIZE_OFFSET offsetof(struct f2fs_inode, i_extra_isize)
#define F2FS_EXTRA_ATTR_END	(offsetof(struct f2fs_inode, i_compress_flag) + 2)
_Static_assert(sizeof(struct f2fs_inode) == 4072, "inode");
_Static_assert(offsetof(struct f2fs_inode, i_name) == 92, "inode i_name");
_Static_assert(offsetof(struct f2fs_inode, i_ext) == 348, "inode i_ext");
_Static_assert(offsetof(struct f2fs_inode, i_addr) == 360, "inode i_addr");
_Static_assert(offsetof(struct f2fs_inode, i_projid) == 364, "inode i_projid");
_Static_assert(offsetof(struct f2fs_inode, i_inode_checksum) == 368, "inode checksum");
_Static_assert(offsetof(struct f2fs_inode, i_crtime) == 372, "inode crtime");
_Static_assert(offsetof(struct f2fs_inode, i_compr_blocks) == 384, "inode compr_blocks");
_Static_assert(F2FS_EXTRA_ATTR_END == 396, "inode extra end");
_Static_assert(offsetof(struct f2fs_inode, i_nid) == 4052, "inode i_nid");

struct f2fs_direct_node {
	le32 addr[F2FS_ADDRS_PER_BLOCK];
} F2FS_PACKED;

struct f2fs_indirect_node {
	le32 nid[F2FS_NIDS_PER_BLOCK];
} F2FS_PACKED;

struct f2fs_node_footer {
	le32 nid;
	le32 ino;
	le32 flag; /* cold, fsync, dentry marks and offset in the node tree */
	le64 cp_ver;
	le32 next_blkaddr;
} F2FS_PACKED;

struct f2fs_node {
	union {
		struct f2fs_inode i;
		struct f2fs_direct_node dn;
		struct f2fs_indirect_node in;
	};
	struct f2fs_node_footer footer;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_node_footer) == 24, "node footer");
_Static_assert(sizeof(struct f2fs_node) == F2FS_BLKSIZE, "node block");
_Static_assert(offsetof(struct f2fs_node, footer) == 4072, "node footer offset");

/* Directory entries */
#define F2FS_SLOT_LEN		8
#define F2FS_SLOT_LEN_BITS	3
#define F2FS_NR_DENTRY_IN_BLOCK 214
#define F2FS_DENTRY_BITMAP_SIZE ((F2FS_NR_DENTRY_IN_BLOCK + 7) / 8)
#define F2FS_DENTRY_RESERVED	3
#define F2FS_DIR_ENTRY_SIZE	11

enum f2fs_file_type {
	F2FS_FT_UNKNOWN = 0,
	F2FS_FT_REG_FILE,
	F2FS_FT_DIR,
	F2FS_FT_CHRDEV,
	F2FS_FT_BLKDEV,
	F2FS_FT_FIFO,
	F2FS_FT_SOCK,
	F2FS_FT_SYMLINK,
	F2FS_FT_MAX
};

struct f2fs_dir_entry {
	le32 hash_code;
	le32 ino;
	le16 name_len;
	uint8_t file_type;
} F2FS_PACKED;

struct f2fs_dentry_block {
	uint8_t dentry_bitmap[F2FS_DENTRY_BITMAP_SIZE];
	uint8_t reserved[F2FS_DENTRY_RESERVED];
	struct f2fs_dir_entry dentry[F2FS_NR_DENTRY_IN_BLOCK];
	uint8_t filename[F2FS_NR_DENTRY_IN_BLOCK][F2FS_SLOT_LEN];
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_dir_entry) == F2FS_DIR_ENTRY_SIZE, "dir entry");
_Static_assert(sizeof(struct f2fs_dentry_block) == F2FS_BLKSIZE, "dentry block");

/* Quota file format (QFMT_VFS_V1), as the kernel's quota tree reads it */
#define F2FS_QUOTA_DATA_BLOCKS 2
#define F2FS_QT_TREEOFF	       1
#define F2FS_V2_DQINFOOFF      8
#define F2FS_QUOTA_USR_MAGIC   0xd9c01f11u
#define F2FS_QUOTA_GRP_MAGIC   0xd9c01927u
#define F2FS_QUOTA_PRJ_MAGIC   0xd9c03f14u
#define F2FS_MAX_DQ_TIME       604800
#define F2FS_MAX_IQ_TIME       604800

struct f2fs_v2_dqheader {
	le32 dqh_magic;
	le32 dqh_version;
} F2FS_PACKED;

struct f2fs_v2_dqinfo {
	le32 dqi_bgrace;
	le32 dqi_igrace;
	le32 dqi_flags;
	le32 dqi_blocks;
	le32 dqi_free_blk;
	le32 dqi_free_entry;
} F2FS_PACKED;

struct f2fs_v2r1_dqblk {
	le32 dqb_id;
	le32 dqb_pad;
	le64 dqb_ihardlimit;
	le64 dqb_isoftlimit;
	le64 dqb_curinodes;
	le64 dqb_bhardlimit;
	le64 dqb_bsoftlimit;
	le64 dqb_curspace;
	le64 dqb_btime;
	le64 dqb_itime;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_v2r1_dqblk) == 72, "quota dqblk");

#endif /* F2FS_FORMAT_H */
