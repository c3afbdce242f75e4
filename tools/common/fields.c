// SPDX-License-Identifier: GPL-2.0
/*
 * The listing of tools/common/fields.h.  A row of a field table is listed
 * by its show kind: numbers alike in every table, the other kinds by the
 * structure they belong to (the superblock's label, extension and device
 * lists, stop reasons and errors; the inode's name, extent and data
 * addresses).  Upstream's quirks are kept where scripts read them: the
 * misspelt "volum_name" and "extentsions", the checksum and version bitmaps
 * shown in the debug form by -l too.  What differs on purpose: a damaged
 * count lists no more entries than the structure holds, and the version
 * bitmaps are listed word by word (upstream repeats one word).
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <uuid/uuid.h>

#include "f2fs/bitops.h"
#include "f2fs/endian.h"
#include "f2fs/label.h"
#include "f2fs/node.h"
#include "f2fs/super.h"
#include "tools/common/fields.h"
#include "tools/common/name.h"

#define NAME_MAX_LEN 48 /* the longest listed name, "alloc_type[CURSEG_WARM_DATA]", fits */

/* ---- one line ---- */

/* The text forms show the checksum and version bitmaps as -d does, also under -l. */
static struct fields_out debug_form(const struct fields_out *o)
{
	struct fields_out d = *o;

	if (d.form == FIELDS_LAYOUT)
		d.form = FIELDS_DEBUG;
	return d;
}

static void layout_label(FILE *f, const char *name)
{
	char label[NAME_MAX_LEN + 1];

	snprintf(label, sizeof(label), "%s:", name);
	fprintf(f, "%-30s ", label);
}

static void list_number(const struct fields_out *o, const char *name, uint64_t v)
{
	if (o->form == FIELDS_JSON) {
		json_u64(o->j, name, v);
	} else if (o->form == FIELDS_LAYOUT) {
		layout_label(o->f, name);
		fprintf(o->f, "%" PRIu64 "\n", v);
	} else {
		fprintf(o->f, "%-30s\t\t[0x%8" PRIx64 " : %" PRIu64 "]\n", name, v, v);
	}
}

/* @len bytes of text; upstream's layout form gives the label its own name at times */
static void list_text(const struct fields_out *o, const char *name, const char *layout_name,
		      const char *s, size_t len)
{
	if (o->form == FIELDS_JSON) {
		json_strn(o->j, name, s, len);
	} else if (o->form == FIELDS_LAYOUT) {
		if (layout_name)
			fprintf(o->f, "%-30s ", layout_name);
		else
			layout_label(o->f, name);
		fprintf(o->f, "%.*s\n", (int)len, s);
	} else {
		fprintf(o->f, "%-30s\t\t[%.*s]\n", name, (int)len, s);
	}
}

/* Every element of @f as one JSON array. */
static void json_elements(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	json_array(o->j, f->name);
	for (unsigned int i = 0; i < f->count; i++)
		json_u64(o->j, NULL, f2fs_field_get(f, base, i));
	json_end(o->j);
}

static void list_elements(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	char name[NAME_MAX_LEN];

	if (f->count == 1) {
		list_number(o, f->name, f2fs_field_get(f, base, 0));
		return;
	}
	if (o->form == FIELDS_JSON && f->listed == f->count) {
		json_elements(o, f, base);
		return;
	}
	for (unsigned int i = 0; i < f->listed; i++) {
		snprintf(name, sizeof(name), "%s[%u]", f->name, i);
		list_number(o, name, f2fs_field_get(f, base, i));
	}
}

/* ---- the superblock's own kinds ---- */

static void list_uuid(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	char text[37];

	uuid_unparse((const uint8_t *)base + f->offset, text);
	list_text(o, f->name, NULL, text, strlen(text));
}

static void list_label(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	const struct f2fs_super_block *sb = base;
	char text[F2FS_LABEL_UTF8_SIZE];

	f2fs_super_label(sb, text, sizeof(text));
	list_text(o, f->name, "Filesystem volume name:", text, strlen(text));
}

int fields_version_len(const uint8_t *v)
{
	int n = 0;

	while (n < F2FS_VERSION_LEN - 4 && v[n] && v[n] != '\n')
		n++;
	return n;
}

static void list_version(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	const uint8_t *v = (const uint8_t *)base + f->offset;

	list_text(o, f->name, NULL, (const char *)v, (size_t)fields_version_len(v));
}

/* Upstream pads the last row of four extensions, and does so under -l as well. */
static void pad_extensions(FILE *f, unsigned int from, unsigned int n)
{
	for (unsigned int i = from; i < (n + 3) / 4 * 4; i++) {
		fprintf(f, "%-8.8s", "");
		if (i % 4 == 3)
			fputs("]\n", f);
	}
}

static void list_extension_names(const struct fields_out *o, bool cold, const uint8_t (*ext)[8],
				 unsigned int n)
{
	unsigned int i;

	if (o->form == FIELDS_JSON) {
		json_array(o->j, cold ? "cold_extensions" : "hot_extensions");
		for (i = 0; i < n; i++)
			json_name(o->j, NULL, ext[i], strnlen((const char *)ext[i], 8));
		json_end(o->j);
		return;
	}
	fprintf(o->f, "%s file extentsions\n", cold ? "cold" : "hot");
	for (i = 0; i < n; i++) {
		if (o->form == FIELDS_LAYOUT) {
			fprintf(o->f, "%-30s %-8.8s\n", "extension_list", (const char *)ext[i]);
			continue;
		}
		if (i % 4 == 0)
			fprintf(o->f, "%-30s\t\t[", "");
		fprintf(o->f, "%-8.8s", (const char *)ext[i]);
		if (i % 4 == 3)
			fputs("]\n", o->f);
	}
	pad_extensions(o->f, i, n);
}

/* The count (@f: extension_count or hot_ext_count), then the extensions it counts. */
static void list_extensions(const struct fields_out *o, const struct f2fs_field *f,
			    const void *base)
{
	const struct f2fs_super_block *sb = base;
	bool cold = f->show == F2FS_SHOW_COLD_EXTS;
	uint64_t n = f2fs_field_get(f, sb, 0);
	uint64_t start = cold ? 0 : le32_get(sb->extension_count);
	uint64_t room = start < F2FS_MAX_EXTENSION ? F2FS_MAX_EXTENSION - start : 0;

	list_number(o, f->name, n);
	list_extension_names(o, cold, &sb->extension_list[room ? start : 0],
			     (unsigned int)(n < room ? n : room));
}

/* The devices with where each begins and ends, as "devices" (absent for one device). */
static void json_devices(const struct fields_out *o, const struct f2fs_sb_device *devs,
			 unsigned int n)
{
	if (!n)
		return;
	json_array(o->j, "devices");
	for (unsigned int i = 0; i < n; i++) {
		json_object(o->j, NULL);
		json_str(o->j, "path", devs[i].path);
		json_u64(o->j, "total_segments", devs[i].segments);
		json_u64(o->j, "first_blkaddr", devs[i].first_blkaddr);
		json_u64(o->j, "last_blkaddr", devs[i].last_blkaddr);
		json_end(o->j);
	}
	json_end(o->j);
}

static void list_devices(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	struct f2fs_sb_device devs[F2FS_MAX_DEVICES];
	unsigned int n = f2fs_super_devices(base, devs), i;
	char path[NAME_MAX_LEN], segments[NAME_MAX_LEN];

	if (o->form == FIELDS_JSON) {
		json_devices(o, devs, n);
		return;
	}
	/* upstream's names: the index is not filled in */
	snprintf(path, sizeof(path), "%s[i].path", f->name);
	snprintf(segments, sizeof(segments), "%s[i].total_segments", f->name);
	for (i = 0; i < n; i++) {
		list_text(o, path, NULL, devs[i].path, strlen(devs[i].path));
		list_number(o, segments, devs[i].segments);
	}
}

/* s_stop_reason: the count of each reason that stopped a checkpoint. */
static void list_stop_reasons(const struct fields_out *o, const struct f2fs_field *f,
			      const void *base)
{
	if (o->form == FIELDS_JSON) {
		json_elements(o, f, base);
		return;
	}
	for (unsigned int i = 0; i < f->count; i++) {
		uint64_t n = f2fs_field_get(f, base, i);

		if (!n)
			continue;
		if (o->form == FIELDS_LAYOUT)
			fprintf(o->f, "%-30s stop_reason(%u, %" PRIu64 ")\n", "", i, n);
		else
			fprintf(o->f, "%-30s\t\t[%-20u : %" PRIu64 "]\n", "", i, n);
	}
}

/* s_errors: a bit per kind of error the kernel met. */
static void list_errors(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	const uint8_t *bits = (const uint8_t *)base + f->offset;

	if (o->form == FIELDS_JSON) {
		json_elements(o, f, base);
		return;
	}
	for (unsigned int i = 0; i < 8u * f->count; i++) {
		if (!f2fs_test_bit_lsb(bits, i))
			continue;
		if (o->form == FIELDS_LAYOUT)
			fprintf(o->f, "%-30s errors(%u)\n", "", i);
		else
			fprintf(o->f, "%-30s\t\t[%-20u]\n", "", i);
	}
}

/* ---- the inode's own kinds ---- */

/* i_namelen, the name and its bytes in hex (ending with the NUL upstream prints). */
static void list_name(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	const struct f2fs_inode *ri = base;
	uint64_t len = f2fs_field_get(f, ri, 0);

	if (len > F2FS_NAME_LEN)
		len = 0;
	if (o->form == FIELDS_JSON) {
		json_u64(o->j, f->name, len);
		json_name(o->j, "i_name", ri->i_name, (size_t)len);
		return;
	}
	if (!len)
		return;
	list_number(o, f->name, len);
	fprintf(o->f, "%-30s\t\t[", "i_name");
	tool_put_name(o->f, ri->i_name, (size_t)len);
	fprintf(o->f, "]\n%-30s\t\t[", "i_name(hex)");
	for (unsigned int i = 0; i < len && ri->i_name[i]; i++)
		fprintf(o->f, "0x%x ", ri->i_name[i]);
	fputs("0x0]\n", o->f);
}

static void list_extent(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	if (o->form == FIELDS_JSON) {
		json_object(o->j, f->name);
		json_u64(o->j, "fofs", f2fs_field_get(f, base, 0));
		json_u64(o->j, "blk_addr", f2fs_field_get(f, base, 1));
		json_u64(o->j, "len", f2fs_field_get(f, base, 2));
		json_end(o->j);
		return;
	}
	fprintf(o->f, "%s: fofs:%" PRIx64 " blkaddr:%" PRIx64 " len:%" PRIx64 "\n", f->name,
		f2fs_field_get(f, base, 0), f2fs_field_get(f, base, 1), f2fs_field_get(f, base, 2));
}

/* The data addresses an inode without inline data holds; JSON lists the file's extents instead. */
static void list_addrs(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	const struct f2fs_inode *ri = base;
	unsigned int first = f2fs_inode_first_addr(ri), addrs, i;

	if (o->form == FIELDS_JSON || (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		return;
	addrs = f2fs_inode_addrs(o->bg ? o->bg : f2fs_blkgeo_4k(), ri, o->features);
	for (i = 0; i < addrs && first + i < f->count; i++) {
		uint32_t a = (uint32_t)f2fs_field_get(f, ri, first + i);
		const char *flag = a == F2FS_COMPRESS_ADDR ? "cluster flag"
				   : a == F2FS_NEW_ADDR	   ? "reserved flag"
							   : "";

		if (a)
			fprintf(o->f, "%s[0x%x] %-16s\t\t[0x%8x : %u]\n", f->name, first + i, flag,
				a, a);
	}
}

/* ---- rows and tables ---- */

typedef void list_fn(const struct fields_out *o, const struct f2fs_field *f, const void *base);

/* How each show kind is listed; numbers, the kinds left out, by list_elements. */
static list_fn *const listers[] = {
    [F2FS_SHOW_UUID] = list_uuid,
    [F2FS_SHOW_LABEL] = list_label,
    [F2FS_SHOW_TEXT] = list_version,
    [F2FS_SHOW_COLD_EXTS] = list_extensions,
    [F2FS_SHOW_HOT_EXTS] = list_extensions,
    [F2FS_SHOW_DEVICES] = list_devices,
    [F2FS_SHOW_STOP_REASONS] = list_stop_reasons,
    [F2FS_SHOW_ERRORS] = list_errors,
    [F2FS_SHOW_NAME] = list_name,
    [F2FS_SHOW_EXTENT] = list_extent,
    [F2FS_SHOW_ADDRS] = list_addrs,
};

static void list_row(const struct fields_out *o, const struct f2fs_field *f, const void *base)
{
	list_fn *fn = f->show < sizeof(listers) / sizeof(listers[0]) ? listers[f->show] : NULL;

	(fn ? fn : list_elements)(o, f, base);
}

static void list_rows(const struct fields_out *o, enum f2fs_fields_of of, const void *base)
{
	const struct f2fs_field_table *t = f2fs_fields(of);

	for (unsigned int i = 0; i < t->n; i++) {
		struct f2fs_field f =
		    f2fs_field_in_block(of, &t->rows[i], o->bg ? o->bg : f2fs_blkgeo_4k());

		if (f.listed && (f.features & o->features) == f.features)
			list_row(o, &f, base);
	}
}

/* The box upstream's debug form puts over the superblock and the checkpoint. */
static void begin(const struct fields_out *o, const char *title, const char *json_key)
{
	if (o->form == FIELDS_JSON) {
		json_object(o->j, json_key);
	} else if (o->form == FIELDS_DEBUG) {
		fprintf(o->f, "\n+--------------------------------------------------------+\n");
		fprintf(o->f, "| %-55s|\n", title);
		fprintf(o->f, "+--------------------------------------------------------+\n");
	}
}

static void end(const struct fields_out *o, const char *text_tail)
{
	if (o->form == FIELDS_JSON)
		json_end(o->j);
	else
		fputs(text_tail, o->f);
}

void fields_print_super(const struct fields_out *o, const struct f2fs_super_block *sb)
{
	begin(o, "Super block", "superblock");
	list_rows(o, F2FS_FIELDS_SUPER, sb);
	end(o, "\n");
}

/* A version bitmap as 32-bit little-endian words, the last one zero-padded. */
static void list_bitmap(const struct fields_out *o, const char *name, const uint8_t *map,
			uint32_t bytes)
{
	char label[NAME_MAX_LEN];
	uint32_t i, w;

	if (o->form == FIELDS_JSON)
		json_array(o->j, name);
	for (i = 0; i < (bytes + 3) / 4; i++) {
		w = 0;
		memcpy(&w, map + i * 4, bytes - i * 4 < 4 ? bytes - i * 4 : 4);
		w = le32_get(w);
		snprintf(label, sizeof(label), "%s[%u]", name, i);
		list_number(o, o->form == FIELDS_JSON ? NULL : label, w);
	}
	if (o->form == FIELDS_JSON)
		json_end(o->j);
}

void fields_print_checkpoint(const struct fields_out *o, const struct f2fs_checkpoint *cp,
			     const struct f2fs_cp_data *cpd)
{
	struct fields_out d = debug_form(o);
	uint32_t at = le32_get(cp->checksum_offset);
	/* the checksum lies where checksum_offset says, within the block */
	struct f2fs_field crc = {
	    .name = "checksum", .offset = (uint16_t)at, .width = 4, .count = 1};

	begin(o, "Checkpoint", "checkpoint");
	list_rows(o, F2FS_FIELDS_CHECKPOINT, cp);
	if (at <= (o->bg ? o->bg : f2fs_blkgeo_4k())->cp_chksum_offset)
		list_number(&d, crc.name, f2fs_field_get(&crc, cp, 0));
	if (cpd) {
		list_bitmap(&d, "nat_version_bitmap", cpd->nat_bitmap, cpd->nat_bitmap_bytes);
		list_bitmap(&d, "sit_version_bitmap", cpd->sit_bitmap, cpd->sit_bitmap_bytes);
	}
	end(o, "\n\n");
}

void fields_print_inode(const struct fields_out *o, const struct f2fs_inode *ri)
{
	list_rows(o, F2FS_FIELDS_INODE, ri);
	if (o->form != FIELDS_JSON)
		fputc('\n', o->f);
}

char *fields_value(char *buf, size_t len, const struct f2fs_field *f, uint64_t v)
{
	int digits = 2 * f->width;

	switch (f->show) {
	case F2FS_SHOW_DEC:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	case F2FS_SHOW_HEX:
		snprintf(buf, len, "0x%0*" PRIx64, digits, v);
		break;
	case F2FS_SHOW_VBLOCKS:
		snprintf(buf, len, "%" PRIu64 " (0x%0*" PRIx64 ")", v, digits, v);
		break;
	default:
		snprintf(buf, len, "%" PRIu64 " (0x%" PRIx64 ")", v, v);
	}
	return buf;
}
