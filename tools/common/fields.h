/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Listing a structure field by field, from its table in f2fs/fields.h, in
 * the forms of upstream f2fs-tools (one function there prints both text
 * forms) and as JSON:
 *
 *   FIELDS_DEBUG   "name" padded to 30, two tabs, "[0x%8x : %u]": dump.f2fs
 *                  -d and -i, fsck.f2fs -d; the superblock and checkpoint
 *                  under a boxed title;
 *   FIELDS_LAYOUT  "name:" padded to 30, a space, the decimal value:
 *                  fsck.f2fs -l;
 *   FIELDS_JSON    a member per listed element under the name the text
 *                  forms give it ("cur_node_segno[0]"); an array listed
 *                  whole is one JSON array ("i_nid").  Fields listed in a
 *                  way of their own are strings, or arrays of them.
 *
 * Also the text of one value as a change report shows it (fields_value).
 */
#ifndef TOOLS_FIELDS_H
#define TOOLS_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "f2fs/fields.h"
#include "f2fs/format.h"
#include "f2fs/summary.h"
#include "tools/common/json.h"

enum fields_form { FIELDS_DEBUG, FIELDS_LAYOUT, FIELDS_JSON };

struct fields_out {
	enum fields_form form;
	FILE *f;		      /* the text forms */
	struct json *j;		      /* FIELDS_JSON */
	uint32_t features;	      /* the volume's: they decide which inode fields are listed */
	const struct f2fs_blkgeo *bg; /* the volume's block size; NULL: 4 KiB */
};

/* The superblock (in JSON, member "superblock"). */
void fields_print_super(const struct fields_out *o, const struct f2fs_super_block *sb);

/*
 * The checkpoint block @cp (a whole block: its checksum lies at
 * checksum_offset), then the NAT and SIT version bitmaps of @cpd when it
 * is not NULL (in JSON, member "checkpoint").
 */
void fields_print_checkpoint(const struct fields_out *o, const struct f2fs_checkpoint *cp,
			     const struct f2fs_cp_data *cpd);

/* The fields of inode @ri, as members of the object the caller opened in JSON. */
void fields_print_inode(const struct fields_out *o, const struct f2fs_inode *ri);

/* @v, a value of @f, as a change report shows it, into @buf; returns @buf. */
char *fields_value(char *buf, size_t len, const struct f2fs_field *f, uint64_t v);

/*
 * The bytes of a kernel version recorded in the superblock (version,
 * init_version) that upstream shows: up to a NUL or a newline, at most 252.
 */
int fields_version_len(const uint8_t *v);

#endif
