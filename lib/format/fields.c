// SPDX-License-Identifier: GPL-2.0
/*
 * The field tables of f2fs/fields.h: one per structure, its rows in
 * upstream's listing order, each row's place read off format.h's
 * structures.  A row is listed, written, or both:
 *
 *   NUMBER   a scalar, listed and written;
 *   NUMBERS  an array, written by index, its first elements listed as
 *            name[i];
 *   PIECE    one element listed under upstream's own name for it;
 *   WRITTEN  written only (the pieces of something listed as one);
 *   SHOWN    listed in a way of its own (enum f2fs_field_show), maybe written;
 *   BITS     a bit field of a scalar, listed and written.
 */
#include "config.h"

#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/fields.h"
#include "f2fs/format.h"
#include "f2fs/xattr.h"

#define WRITABLE      F2FS_FIELD_WRITABLE
#define SIZE_OF(s, m) sizeof(((struct s *)0)->m)
/* member @m of struct @s as @n elements */
#define AT(s, m, n) .offset = offsetof(struct s, m), .width = SIZE_OF(s, m) / (n), .count = (n)
/* member @m of struct @s byte by byte */
#define BYTES(s, m) AT(s, m, SIZE_OF(s, m))

#define NUMBER(s, m)                                                                               \
	{                                                                                          \
		.name = #m, AT(s, m, 1), .listed = 1, .flags = WRITABLE                            \
	}
#define NUMBERS(s, m, n, shown)                                                                    \
	{                                                                                          \
		.name = #m, AT(s, m, n), .listed = (shown), .flags = WRITABLE                      \
	}
#define PIECE(nm, s, m)                                                                            \
	{                                                                                          \
		.name = nm, AT(s, m, 1), .listed = 1                                               \
	}
#define WRITTEN(nm, s, m)                                                                          \
	{                                                                                          \
		.name = nm, AT(s, m, 1), .flags = WRITABLE                                         \
	}
/* an inode field upstream lists only when the volume has features @feat */
#define EXTRA(m, feat, fl)                                                                         \
	{                                                                                          \
		.name = #m, AT(f2fs_inode, m, 1), .listed = 1, .flags = (fl),                      \
		.features = F2FS_FEATURE_EXTRA_ATTR | (feat)                                       \
	}

/* a field at @where (AT, BYTES) listed once in its own way; written too when WRITABLE */
#define SHOWN(nm, where, how, fl)                                                                  \
	{                                                                                          \
		.name = nm, where, .listed = 1, .show = (how), .flags = (fl)                       \
	}
/* a bit field of a scalar, listed and written */
#define BITS(nm, s, m, low, n)                                                                     \
	{                                                                                          \
		.name = nm, AT(s, m, 1), .shift = (low), .bits = (n), .listed = 1,                 \
		.show = F2FS_SHOW_DEC, .flags = WRITABLE                                           \
	}

#define SB(m)	 NUMBER(f2fs_super_block, m)
#define CP(m)	 NUMBER(f2fs_checkpoint, m)
#define INODE(m) NUMBER(f2fs_inode, m)

static const struct f2fs_field super_rows[] = {
    SB(magic),
    SB(major_ver),
    SB(minor_ver),
    SB(log_sectorsize),
    SB(log_sectors_per_block),
    SB(log_blocksize),
    SB(log_blocks_per_seg),
    SB(segs_per_sec),
    SB(secs_per_zone),
    SB(checksum_offset),
    SB(block_count),
    SB(section_count),
    SB(segment_count),
    SB(segment_count_ckpt),
    SB(segment_count_sit),
    SB(segment_count_nat),
    SB(segment_count_ssa),
    SB(segment_count_main),
    SB(segment0_blkaddr),
    SB(cp_blkaddr),
    SB(sit_blkaddr),
    SB(nat_blkaddr),
    SB(ssa_blkaddr),
    SB(main_blkaddr),
    SB(root_ino),
    SB(node_ino),
    SB(meta_ino),
    SHOWN("uuid", BYTES(f2fs_super_block, uuid), F2FS_SHOW_UUID, 0),
    SHOWN("volum_name", AT(f2fs_super_block, volume_name, F2FS_MAX_VOLUME_NAME), F2FS_SHOW_LABEL,
	  0),
    SHOWN("extension_count", AT(f2fs_super_block, extension_count, 1), F2FS_SHOW_COLD_EXTS,
	  WRITABLE),
    SHOWN("hot_ext_count", AT(f2fs_super_block, hot_ext_count, 1), F2FS_SHOW_HOT_EXTS, WRITABLE),
    SB(cp_payload),
    SHOWN("version", BYTES(f2fs_super_block, version), F2FS_SHOW_TEXT, 0),
    SHOWN("init_version", BYTES(f2fs_super_block, init_version), F2FS_SHOW_TEXT, 0),
    SB(feature),
    SB(encryption_level),
    SHOWN("encrypt_pw_salt", BYTES(f2fs_super_block, encrypt_pw_salt), F2FS_SHOW_UUID, 0),
    SHOWN("devs", BYTES(f2fs_super_block, devs), F2FS_SHOW_DEVICES, 0),
    PIECE("qf_ino[USRQUOTA]", f2fs_super_block, qf_ino[0]),
    PIECE("qf_ino[GRPQUOTA]", f2fs_super_block, qf_ino[1]),
    PIECE("qf_ino[PRJQUOTA]", f2fs_super_block, qf_ino[2]),
    NUMBERS(f2fs_super_block, qf_ino, F2FS_MAX_QUOTAS, 0),
    SB(s_encoding),
    SB(s_encoding_flags),
    SB(crc),
    SHOWN("s_stop_reason", BYTES(f2fs_super_block, s_stop_reason), F2FS_SHOW_STOP_REASONS,
	  WRITABLE),
    SHOWN("s_errors", BYTES(f2fs_super_block, s_errors), F2FS_SHOW_ERRORS, WRITABLE),
};

static const struct f2fs_field checkpoint_rows[] = {
    CP(checkpoint_ver),
    CP(user_block_count),
    CP(valid_block_count),
    CP(rsvd_segment_count),
    CP(overprov_segment_count),
    CP(free_segment_count),
    PIECE("alloc_type[CURSEG_HOT_NODE]", f2fs_checkpoint, alloc_type[F2FS_CURSEG_HOT_NODE]),
    PIECE("alloc_type[CURSEG_WARM_NODE]", f2fs_checkpoint, alloc_type[F2FS_CURSEG_WARM_NODE]),
    PIECE("alloc_type[CURSEG_COLD_NODE]", f2fs_checkpoint, alloc_type[F2FS_CURSEG_COLD_NODE]),
    NUMBERS(f2fs_checkpoint, cur_node_segno, F2FS_MAX_ACTIVE_NODE_LOGS, F2FS_NR_CURSEG_NODE_TYPE),
    NUMBERS(f2fs_checkpoint, cur_node_blkoff, F2FS_MAX_ACTIVE_NODE_LOGS, F2FS_NR_CURSEG_NODE_TYPE),
    PIECE("alloc_type[CURSEG_HOT_DATA]", f2fs_checkpoint, alloc_type[F2FS_CURSEG_HOT_DATA]),
    PIECE("alloc_type[CURSEG_WARM_DATA]", f2fs_checkpoint, alloc_type[F2FS_CURSEG_WARM_DATA]),
    PIECE("alloc_type[CURSEG_COLD_DATA]", f2fs_checkpoint, alloc_type[F2FS_CURSEG_COLD_DATA]),
    NUMBERS(f2fs_checkpoint, cur_data_segno, F2FS_MAX_ACTIVE_DATA_LOGS, F2FS_NR_CURSEG_DATA_TYPE),
    NUMBERS(f2fs_checkpoint, cur_data_blkoff, F2FS_MAX_ACTIVE_DATA_LOGS, F2FS_NR_CURSEG_DATA_TYPE),
    CP(ckpt_flags),
    CP(cp_pack_total_block_count),
    CP(cp_pack_start_sum),
    CP(valid_node_count),
    CP(valid_inode_count),
    CP(next_free_nid),
    CP(sit_ver_bitmap_bytesize),
    CP(nat_ver_bitmap_bytesize),
    CP(checksum_offset),
    CP(elapsed_time),
    NUMBERS(f2fs_checkpoint, alloc_type, F2FS_MAX_ACTIVE_LOGS, 0),
};

static const struct f2fs_field inode_rows[] = {
    INODE(i_mode),
    INODE(i_advise),
    INODE(i_uid),
    INODE(i_gid),
    INODE(i_links),
    INODE(i_size),
    INODE(i_blocks),
    INODE(i_atime),
    PIECE("i_atime_nsec", f2fs_inode, i_atime_nsec),
    INODE(i_ctime),
    PIECE("i_ctime_nsec", f2fs_inode, i_ctime_nsec),
    INODE(i_mtime),
    PIECE("i_mtime_nsec", f2fs_inode, i_mtime_nsec),
    INODE(i_generation),
    INODE(i_current_depth),
    INODE(i_xattr_nid),
    INODE(i_flags),
    INODE(i_inline),
    INODE(i_pino),
    INODE(i_dir_level),
    SHOWN("i_namelen", AT(f2fs_inode, i_namelen, 1), F2FS_SHOW_NAME, WRITABLE),
    SHOWN("i_ext", AT(f2fs_inode, i_ext, 3), F2FS_SHOW_EXTENT, 0),
    WRITTEN("i_ext.fofs", f2fs_inode, i_ext.fofs),
    WRITTEN("i_ext.blk_addr", f2fs_inode, i_ext.blk),
    WRITTEN("i_ext.len", f2fs_inode, i_ext.len),
    EXTRA(i_extra_isize, 0, F2FS_FIELD_WRITABLE),
    EXTRA(i_inline_xattr_size, F2FS_FEATURE_FLEXIBLE_INLINE_XATTR, F2FS_FIELD_WRITABLE),
    EXTRA(i_projid, F2FS_FEATURE_PRJQUOTA, F2FS_FIELD_WRITABLE),
    EXTRA(i_inode_checksum, F2FS_FEATURE_INODE_CHKSUM, F2FS_FIELD_WRITABLE),
    EXTRA(i_crtime, F2FS_FEATURE_INODE_CRTIME, F2FS_FIELD_WRITABLE),
    EXTRA(i_crtime_nsec, F2FS_FEATURE_INODE_CRTIME, 0),
    EXTRA(i_compr_blocks, F2FS_FEATURE_COMPRESSION, F2FS_FIELD_WRITABLE),
    EXTRA(i_compress_algorithm, F2FS_FEATURE_COMPRESSION, F2FS_FIELD_WRITABLE),
    EXTRA(i_log_cluster_size, F2FS_FEATURE_COMPRESSION, F2FS_FIELD_WRITABLE),
    EXTRA(i_compress_flag, F2FS_FEATURE_COMPRESSION, 0),
    SHOWN("i_addr", AT(f2fs_inode, i_addr, F2FS_DEF_ADDRS_PER_INODE), F2FS_SHOW_ADDRS, WRITABLE),
    NUMBERS(f2fs_inode, i_nid, F2FS_DEF_NIDS_PER_INODE, F2FS_DEF_NIDS_PER_INODE),
};

static const struct f2fs_field footer_rows[] = {
    NUMBER(f2fs_node_footer, nid),
    NUMBER(f2fs_node_footer, ino),
    NUMBER(f2fs_node_footer, flag),
    NUMBER(f2fs_node_footer, cp_ver),
    NUMBER(f2fs_node_footer, next_blkaddr),
    /* the node's offset in its inode's tree, above the cold, fsync and dentry marks */
    BITS("ofs", f2fs_node_footer, flag, F2FS_OFFSET_BIT_SHIFT, 32 - F2FS_OFFSET_BIT_SHIFT),
};

static const struct f2fs_field direct_node_rows[] = {
    NUMBERS(f2fs_direct_node, addr, F2FS_ADDRS_PER_BLOCK, F2FS_ADDRS_PER_BLOCK),
};

static const struct f2fs_field nat_entry_rows[] = {
    NUMBER(f2fs_nat_entry, version),
    NUMBER(f2fs_nat_entry, ino),
    NUMBER(f2fs_nat_entry, block_addr),
};

static const struct f2fs_field sit_entry_rows[] = {
    SHOWN("vblocks", AT(f2fs_sit_entry, vblocks, 1), F2FS_SHOW_VBLOCKS, WRITABLE),
    /* the segment's type, above its count of valid blocks */
    BITS("type", f2fs_sit_entry, vblocks, F2FS_SIT_VBLOCKS_SHIFT, 16 - F2FS_SIT_VBLOCKS_SHIFT),
    {.name = "valid_map",
     BYTES(f2fs_sit_entry, valid_map),
     .listed = F2FS_SIT_VBLOCK_MAP_SIZE,
     .show = F2FS_SHOW_HEX,
     .flags = WRITABLE},
    SHOWN("mtime", AT(f2fs_sit_entry, mtime, 1), F2FS_SHOW_DEC, WRITABLE),
};

static const struct f2fs_field summary_rows[] = {
    NUMBER(f2fs_summary, nid),
    NUMBER(f2fs_summary, version),
    NUMBER(f2fs_summary, ofs_in_node),
};

static const struct f2fs_field sum_footer_rows[] = {
    NUMBER(f2fs_summary_footer, entry_type),
    NUMBER(f2fs_summary_footer, check_sum),
};

/* upstream's names, d_ and a short form of the member's */
static const struct f2fs_field dentry_rows[] = {
    SHOWN("d_hash", AT(f2fs_dir_entry, hash_code, 1), F2FS_SHOW_HEX, WRITABLE),
    SHOWN("d_ino", AT(f2fs_dir_entry, ino, 1), F2FS_SHOW_DEC, WRITABLE),
    SHOWN("d_ftype", AT(f2fs_dir_entry, file_type, 1), F2FS_SHOW_DEC, WRITABLE),
    SHOWN("d_name_len", AT(f2fs_dir_entry, name_len, 1), F2FS_SHOW_DEC, WRITABLE),
};

/* xattr.h gives the head's layout as offsets: it has no structure */
#define HEAD(nm, off, w)                                                                           \
	{                                                                                          \
		.name = nm, .offset = (off), .width = (w), .count = 1, .listed = 1,                \
		.flags = WRITABLE                                                                  \
	}
static const struct f2fs_field xattr_entry_rows[] = {
    HEAD("xattr.e_name_index", F2FS_XATTR_E_NAME_INDEX, 1),
    HEAD("xattr.e_name_len", F2FS_XATTR_E_NAME_LEN, 1),
    HEAD("xattr.e_value_size", F2FS_XATTR_E_VALUE_SIZE, 2),
};

#define TABLE(s, rows)                                                                             \
	{                                                                                          \
		sizeof(struct s), rows, sizeof(rows) / sizeof(rows[0])                             \
	}

static const struct f2fs_field_table tables[F2FS_FIELDS_COUNT] = {
    [F2FS_FIELDS_SUPER] = TABLE(f2fs_super_block, super_rows),
    [F2FS_FIELDS_CHECKPOINT] = TABLE(f2fs_checkpoint, checkpoint_rows),
    [F2FS_FIELDS_INODE] = TABLE(f2fs_inode, inode_rows),
    [F2FS_FIELDS_FOOTER] = TABLE(f2fs_node_footer, footer_rows),
    [F2FS_FIELDS_DIRECT_NODE] = TABLE(f2fs_direct_node, direct_node_rows),
    [F2FS_FIELDS_NAT_ENTRY] = TABLE(f2fs_nat_entry, nat_entry_rows),
    [F2FS_FIELDS_SIT_ENTRY] = TABLE(f2fs_sit_entry, sit_entry_rows),
    [F2FS_FIELDS_SUMMARY] = TABLE(f2fs_summary, summary_rows),
    [F2FS_FIELDS_SUM_FOOTER] = TABLE(f2fs_summary_footer, sum_footer_rows),
    [F2FS_FIELDS_DENTRY] = TABLE(f2fs_dir_entry, dentry_rows),
    [F2FS_FIELDS_XATTR_ENTRY] = {F2FS_XATTR_ENTRY_HEAD, xattr_entry_rows,
				 sizeof(xattr_entry_rows) / sizeof(xattr_entry_rows[0])},
};

const struct f2fs_field_table *f2fs_fields(enum f2fs_fields_of of)
{
	return (unsigned int)of < F2FS_FIELDS_COUNT ? &tables[of] : NULL;
}

struct f2fs_field f2fs_field_in_block(enum f2fs_fields_of of, const struct f2fs_field *f,
				      const struct f2fs_blkgeo *g)
{
	struct f2fs_field r = *f;

	if (of == F2FS_FIELDS_DIRECT_NODE && f->count == F2FS_ADDRS_PER_BLOCK) {
		r.count = (uint16_t)g->addrs_per_block;
		if (r.listed)
			r.listed = r.count;
		return r;
	}
	if (of != F2FS_FIELDS_INODE)
		return r;
	if (f->offset == offsetof(struct f2fs_inode, i_addr) &&
	    f->count == F2FS_DEF_ADDRS_PER_INODE) {
		r.count = (uint16_t)g->addrs_per_inode;
		if (r.listed)
			r.listed = r.count;
	} else if (f->offset == offsetof(struct f2fs_inode, i_nid)) {
		r.offset = (uint16_t)(g->inode_nid_word * sizeof(le32));
	}
	return r;
}

const struct f2fs_field *f2fs_field_find(const struct f2fs_field_table *t, const char *name)
{
	for (unsigned int i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

static uint64_t element_get(const uint8_t *p, unsigned int width)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void element_put(uint8_t *p, unsigned int width, uint64_t v)
{
	for (unsigned int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t ones(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

uint64_t f2fs_field_max(const struct f2fs_field *f)
{
	return ones(f->bits ? f->bits : 8u * f->width);
}

static const uint8_t *element(const struct f2fs_field *f, const void *base, unsigned int idx)
{
	return (const uint8_t *)base + f->offset + (size_t)idx * f->width;
}

uint64_t f2fs_field_get(const struct f2fs_field *f, const void *base, unsigned int idx)
{
	uint64_t v = element_get(element(f, base, idx), f->width);

	return f->bits ? (v >> f->shift) & ones(f->bits) : v;
}

void f2fs_field_put(const struct f2fs_field *f, void *base, unsigned int idx, uint64_t v)
{
	uint8_t *p = (uint8_t *)element(f, base, idx);

	if (f->bits) {
		uint64_t mask = ones(f->bits) << f->shift;

		v = (element_get(p, f->width) & ~mask) | ((v << f->shift) & mask);
	}
	element_put(p, f->width, v);
}
