// SPDX-License-Identifier: GPL-2.0
/*
 * The field tables (f2fs/fields.h): every row lies inside its structure,
 * names are unique, lookups find what the tools ask for at the places
 * format.h puts it, and values written through a row read back the same
 * without touching their neighbours.
 */
#include "config.h"

#include <stdbool.h>

#include "f2fs/endian.h"
#include "f2fs/fields.h"
#include "f2fs/format.h"
#include "test.h"

static bool width_ok(unsigned int w)
{
	return w == 1 || w == 2 || w == 4 || w == 8;
}

static void test_rows_inside_their_structure(void)
{
	for (int of = 0; of < F2FS_FIELDS_COUNT; of++) {
		const struct f2fs_field_table *t = f2fs_fields((enum f2fs_fields_of)of);

		CHECK(t && t->n > 0 && t->size > 0);
		for (unsigned int i = 0; t && i < t->n; i++) {
			const struct f2fs_field *f = &t->rows[i];

			CHECK(f->name && f->name[0]);
			CHECK(width_ok(f->width));
			CHECK(f->count >= 1);
			CHECK(f->listed <= f->count);
			CHECK((size_t)f->offset + (size_t)f->width * f->count <= t->size);
			CHECK(f->bits == 0 || f->shift + f->bits <= 8u * f->width);
			/* a row nobody lists nor writes would be dead */
			CHECK(f->listed || (f->flags & F2FS_FIELD_WRITABLE));
		}
	}
	CHECK(f2fs_fields(F2FS_FIELDS_COUNT) == NULL);
}

static void test_names_unique(void)
{
	for (int of = 0; of < F2FS_FIELDS_COUNT; of++) {
		const struct f2fs_field_table *t = f2fs_fields((enum f2fs_fields_of)of);

		for (unsigned int i = 0; i < t->n; i++) {
			for (unsigned int k = i + 1; k < t->n; k++)
				CHECK(strcmp(t->rows[i].name, t->rows[k].name) != 0);
			CHECK(f2fs_field_find(t, t->rows[i].name) == &t->rows[i]);
		}
	}
}

static const struct f2fs_field *row(enum f2fs_fields_of of, const char *name)
{
	return f2fs_field_find(f2fs_fields(of), name);
}

static void test_find_by_name(void)
{
	const struct f2fs_field *f;

	f = row(F2FS_FIELDS_SUPER, "block_count");
	CHECK(f && f->offset == offsetof(struct f2fs_super_block, block_count) && f->width == 8);
	f = row(F2FS_FIELDS_SUPER, "qf_ino[PRJQUOTA]");
	CHECK(f && f->offset == offsetof(struct f2fs_super_block, qf_ino) + 8 && f->width == 4);
	CHECK(f && !(f->flags & F2FS_FIELD_WRITABLE));
	f = row(F2FS_FIELDS_CHECKPOINT, "cur_data_blkoff");
	CHECK(f && f->count == F2FS_MAX_ACTIVE_DATA_LOGS && f->width == 2 &&
	      f->listed == F2FS_NR_CURSEG_DATA_TYPE);
	f = row(F2FS_FIELDS_CHECKPOINT, "alloc_type[CURSEG_COLD_NODE]");
	CHECK(f && f->offset == offsetof(struct f2fs_checkpoint, alloc_type) + 5 && f->listed);
	f = row(F2FS_FIELDS_INODE, "i_ext.blk_addr");
	CHECK(f && f->offset == offsetof(struct f2fs_inode, i_ext) + 4 && !f->listed);
	f = row(F2FS_FIELDS_INODE, "i_compress_algorithm");
	CHECK(f && f->width == 1 && (f->features & F2FS_FEATURE_COMPRESSION));
	f = row(F2FS_FIELDS_INODE, "i_nid");
	CHECK(f && f->offset == 4052 && f->count == F2FS_DEF_NIDS_PER_INODE);
	f = row(F2FS_FIELDS_DENTRY, "d_name_len");
	CHECK(f && f->offset == offsetof(struct f2fs_dir_entry, name_len) && f->width == 2);
	f = row(F2FS_FIELDS_SUM_FOOTER, "check_sum");
	CHECK(f && f->offset == 1 && f->width == 4);
	CHECK(row(F2FS_FIELDS_SUPER, "no_such_field") == NULL);
	CHECK(row(F2FS_FIELDS_SUPER, "magi") == NULL);
}

static void test_get_put_round_trip(void)
{
	struct f2fs_checkpoint cp;
	const struct f2fs_field *f = row(F2FS_FIELDS_CHECKPOINT, "cur_node_segno");

	memset(&cp, 0xa5, sizeof(cp));
	f2fs_field_put(f, &cp, 2, 0x12345678);
	CHECK_EQ_U64(le32_get(cp.cur_node_segno[2]), 0x12345678);
	CHECK_EQ_U64(f2fs_field_get(f, &cp, 2), 0x12345678);
	CHECK_EQ_U64(le32_get(cp.cur_node_segno[1]), 0xa5a5a5a5);
	CHECK_EQ_U64(le32_get(cp.cur_node_segno[3]), 0xa5a5a5a5);
	f = row(F2FS_FIELDS_CHECKPOINT, "checkpoint_ver");
	f2fs_field_put(f, &cp, 0, 0x0102030405060708ull);
	CHECK_EQ_U64(le64_get(cp.checkpoint_ver), 0x0102030405060708ull);
	CHECK_EQ_U64(f2fs_field_max(f), UINT64_MAX);
	/* a piece reads what the whole array holds */
	f2fs_field_put(row(F2FS_FIELDS_CHECKPOINT, "alloc_type"), &cp, F2FS_CURSEG_WARM_DATA, 7);
	CHECK_EQ_U64(
	    f2fs_field_get(row(F2FS_FIELDS_CHECKPOINT, "alloc_type[CURSEG_WARM_DATA]"), &cp, 0), 7);
}

static void test_bit_fields(void)
{
	struct f2fs_sit_entry se;
	struct f2fs_node_footer ft;
	const struct f2fs_field *type = row(F2FS_FIELDS_SIT_ENTRY, "type");
	const struct f2fs_field *ofs = row(F2FS_FIELDS_FOOTER, "ofs");

	se.vblocks = le16_put(3u << F2FS_SIT_VBLOCKS_SHIFT | 100);
	CHECK_EQ_U64(f2fs_field_get(type, &se, 0), 3);
	CHECK_EQ_U64(f2fs_field_max(type), 63);
	f2fs_field_put(type, &se, 0, 5);
	CHECK_EQ_U64(le16_get(se.vblocks), 5u << F2FS_SIT_VBLOCKS_SHIFT | 100);
	f2fs_field_put(row(F2FS_FIELDS_SIT_ENTRY, "vblocks"), &se, 0, 0xffff);
	CHECK_EQ_U64(f2fs_field_get(type, &se, 0), 63);

	ft.flag = le32_put(7u << F2FS_OFFSET_BIT_SHIFT | 0x5);
	CHECK_EQ_U64(f2fs_field_get(ofs, &ft, 0), 7);
	f2fs_field_put(ofs, &ft, 0, F2FS_NODE_DIR1_BLOCK);
	CHECK_EQ_U64(le32_get(ft.flag),
		     (uint32_t)F2FS_NODE_DIR1_BLOCK << F2FS_OFFSET_BIT_SHIFT | 0x5);
	CHECK_EQ_U64(f2fs_field_max(ofs), UINT32_MAX >> F2FS_OFFSET_BIT_SHIFT);
}

/* Printing walks the rows in order: upstream lists these in this order. */
static void test_listing_order(void)
{
	const struct f2fs_field_table *t = f2fs_fields(F2FS_FIELDS_CHECKPOINT);
	static const char *const want[] = {"free_segment_count", "alloc_type[CURSEG_HOT_NODE]",
					   "alloc_type[CURSEG_WARM_NODE]",
					   "alloc_type[CURSEG_COLD_NODE]", "cur_node_segno"};
	const struct f2fs_field *f = f2fs_field_find(t, want[0]);

	for (unsigned int i = 1; f && i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(!strcmp(f[i].name, want[i]));
}

int main(void)
{
	RUN(test_rows_inside_their_structure);
	RUN(test_names_unique);
	RUN(test_find_by_name);
	RUN(test_get_put_round_trip);
	RUN(test_bit_fields);
	RUN(test_listing_order);
	TEST_EXIT();
}
