// SPDX-License-Identifier: GPL-2.0
/*
 * inject.f2fs: change one field of one on-disk structure, to build corrupt
 * images for testing fsck.  The command line follows upstream f2fs-tools:
 * pick a structure (--sb, --cp, --nat, --sit, --ssa, --node, --dent), a
 * member (--mb), where (--nid, --blk, --idx, --dots) and the new value
 * (--val or --str).  A member is a field of one of the tables of
 * f2fs/fields.h, which say where it lies and how its values read; the few
 * that are no plain field (a bit of a bitmap, a name, a journal's key, the
 * orphan list, the checkpoint's checksum) have code of their own.
 * Structures are found through libf2fs's read path, so the copy written is
 * the one the checkpoint makes current (or the journal entry that
 * overrides it).  Checksums are recomputed for the superblock (when
 * sb_checksum is on), the checkpoint and inodes, unless the member written
 * is the checksum itself.  Every input is validated before anything is
 * written; --dry-run reports the change and writes nothing.
 *
 * The volume is read through the filesystem handle, but blocks are written
 * straight to the device: the handle has no write path yet, and what
 * inject writes is by design not what a writer would.  Blocks are the
 * volume's (4 or 16 KiB, f2fs/blkgeo.h), and so are the bounds of --idx:
 * an inode's i_addr[], a node's addr[], an SSA block's entries (512 with
 * packed_ssa, whose summary is one 4 KiB slice of the block), the dentry
 * slots of a block, the orphan and journal entries a block holds.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/blkgeo.h"
#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/device.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/fields.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/geometry.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"
#include "f2fs/xattr.h"
#include "tools/common/common.h"
#include "tools/common/fields.h"
#include "tools/common/target.h"

#define SEG_BLKS F2FS_DEFAULT_BLKS_PER_SEG

enum target { T_NONE, T_SB, T_CP, T_NAT, T_SIT, T_SSA, T_NODE, T_DENT };

struct opts {
	enum target target;
	int pack; /* --sb/--cp/--nat/--sit: 0 auto, 1 first, 2 second */
	const char *mb;
	const char *str;
	uint64_t val;
	bool have_val, have_idx, have_nid, have_blk;
	uint32_t idx, nid, blk;
	int dots; /* 0, 1 ".", 2 ".." */
	bool dry_run;
	const char *undo; /* --undo / -z: the journal that makes the change undoable */
	bool force;	  /* --sb: write even when the volume does not open */
	int debug;
	const char *device;
};

/* One run: the options, the messages, and the volume once opened. */
struct inject {
	struct tool tool;
	struct opts o;
	struct f2fs_device *dev;	/* read-only: every read, and the checks */
	struct f2fs_device *wdev;	/* opened once the checks passed; NULL in a dry run */
	struct f2fs_fs *fs;		/* NULL for --sb, which reads the superblock itself */
	const struct f2fs_cp_data *cpd; /* the current pack's contents (journals, open logs) */
	struct f2fs_blkgeo bg;		/* the volume's block size (4 KiB until it is known) */
};

static void __attribute__((format(printf, 1, 2))) info(const char *fmt, ...)
{
	va_list ap;

	fputs("Info: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static void __attribute__((format(printf, 3, 4)))
dbg(const struct inject *in, int level, const char *fmt, ...)
{
	va_list ap;

	if (in->o.debug < level)
		return;
	fputs("Debug: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static void usage(FILE *out)
{
	fputs("\nUsage: inject.f2fs [options] device\n"
	      "[options]:\n"
	      "  -d debug level [default:0]\n"
	      "  -V print the version number and exit\n"
	      "  -h print this help (after a structure option: its members)\n"
	      "  --mb <name>   member to change\n"
	      "  --val <n>     new value\n"
	      "  --str <s>     new string (devs.path, filename)\n"
	      "  --idx <n>     array index (or dentry slot with --dent)\n"
	      "  --nid <n>     node id (--nat, --node, --dent)\n"
	      "  --blk <n>     block address (--sit, --ssa)\n"
	      "  --sb <0|1|2>  superblock: 0 and 1 the first copy, 2 the second\n"
	      "  --cp <0|1|2>  checkpoint: 0 the current pack, 1 the first, 2 the second\n"
	      "  --nat <0|1|2> NAT entry of --nid: 0 the current copy, 1 the first, 2 the second\n"
	      "  --sit <0|1|2> SIT entry of --blk's segment: 0 current, 1 first, 2 second copy\n"
	      "  --ssa         summary entry of --blk\n"
	      "  --node        node block of --nid\n"
	      "  --dent        dentry of --nid (in its parent), or --dots 1|2 of directory\n"
	      "                --nid, or slot --idx of directory --nid\n"
	      "  --dots <1|2>  with --dent: \".\" or \"..\" of directory --nid\n"
	      "  --dry-run     report the change, write nothing\n"
	      "  -z, --undo <file>  save what the change overwrites to an undo journal\n"
	      "                (f2fs_undo <file> device takes it back)\n"
	      "  --force       with --sb: write even when the volume does not open as F2FS\n",
	      out);
}

/* ---- members: the field tables of f2fs/fields.h ---- */

/*
 * Members that are no field of a table, each structure's list: NULL-ended
 * names, one a member takes --idx for ending in '['.
 */
static const char *const sb_extra[] = {"devs.path[", NULL};
static const char *const cp_extra[] = {"crc", "orphan", "next_blkaddr[", NULL};
static const char *const nat_extra[] = {"j_nid", NULL};
static const char *const sit_extra[] = {"valid_bit", "j_segno", NULL};
static const char *const dent_extra[] = {"d_bitmap", "filename", NULL};
static const char *const none[] = {NULL};

/* The field of table @of that --mb @name may write, or NULL. */
static const struct f2fs_field *find_member(enum f2fs_fields_of of, const char *name)
{
	const struct f2fs_field *f = f2fs_field_find(f2fs_fields(of), name);

	return f && (f->flags & F2FS_FIELD_WRITABLE) ? f : NULL;
}

/* Whether @name is one of @extra (whose '[' marks are not part of the names). */
static bool is_extra(const char *const *extra, const char *name)
{
	for (; *extra; extra++)
		if (!strncmp(*extra, name, strcspn(*extra, "[")) && !name[strcspn(*extra, "[")])
			return true;
	return false;
}

/*
 * Each structure option: the command line its -h shows, the tables of its
 * members, then its members that are no field of a table.
 */
struct target_def {
	const char *usage;
	struct target_part {
		enum f2fs_fields_of of;
		const char *what; /* NULL ends the parts */
		bool by_idx;
	} parts[5];
	const char *const *extra;
};

static const struct target_def targets[] = {
    [T_SB] = {"inject.f2fs --sb <0|1|2> --mb <name> [--idx <index>] --val/str <value/string>",
	      {{F2FS_FIELDS_SUPER, "super block", false}},
	      sb_extra},
    [T_CP] = {"inject.f2fs --cp <0|1|2> --mb <name> [--idx <index>] --val <value>",
	      {{F2FS_FIELDS_CHECKPOINT, "checkpoint", false}},
	      cp_extra},
    [T_NAT] = {"inject.f2fs --nat <0|1|2> --mb <name> --nid <nid> --val <value>",
	       {{F2FS_FIELDS_NAT_ENTRY, "nat entry", false}},
	       nat_extra},
    [T_SIT] = {"inject.f2fs --sit <0|1|2> --mb <name> --blk <blk> [--idx <index>] --val <value>",
	       {{F2FS_FIELDS_SIT_ENTRY, "sit entry", false}},
	       sit_extra},
    [T_SSA] = {"inject.f2fs --ssa --mb <name> --blk <blk> [--idx <index>] --val <value>",
	       {{F2FS_FIELDS_SUM_FOOTER, "summary", false}, {F2FS_FIELDS_SUMMARY, "summary", true}},
	       none},
    [T_NODE] = {"inject.f2fs --node --mb <name> --nid <nid> [--idx <index>] --val <value>",
		{{F2FS_FIELDS_FOOTER, "node footer", false},
		 {F2FS_FIELDS_INODE, "inode", false},
		 {F2FS_FIELDS_XATTR_ENTRY, "inode xattr entry", false},
		 {F2FS_FIELDS_DIRECT_NODE, "{in}direct node", false}},
		none},
    [T_DENT] = {"inject.f2fs --dent --mb <name> --nid <nid> [--dots <1|2>] --val/str "
		"<value/string>",
		{{F2FS_FIELDS_DENTRY, "dentry", false}},
		dent_extra},
};

/* Whether --mb is a member of the structure: a field of one of its tables, or another. */
static bool is_member(const struct inject *in)
{
	const struct target_def *h = &targets[in->o.target];

	for (const struct target_part *p = h->parts; p->what; p++)
		if (find_member(p->of, in->o.mb))
			return true;
	return is_extra(h->extra, in->o.mb);
}

/* --mb names no member of a structure whose members are few enough to list in the message. */
static void __attribute__((noreturn)) fail_unknown(const struct inject *in, const char *structure)
{
	const struct target_def *h = &targets[in->o.target];
	const char *const *x;
	char names[256] = "";
	size_t n = 0;

	for (const struct target_part *p = h->parts; p->what; p++) {
		const struct f2fs_field_table *t = f2fs_fields(p->of);

		for (unsigned int i = 0; i < t->n && n < sizeof(names); i++)
			if (t->rows[i].flags & F2FS_FIELD_WRITABLE)
				n += (size_t)snprintf(names + n, sizeof(names) - n, ", %s",
						      t->rows[i].name);
	}
	for (x = h->extra; *x && n < sizeof(names); x++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, ", %.*s", (int)strcspn(*x, "["),
				      *x);
	tool_fail(&in->tool, 1, "unknown or unsupported %s member \"%s\" (%s)", structure, in->o.mb,
		  names + 2);
}

/*
 * The help of one structure, in upstream's form (fstests looks for a
 * member's "NAME:" line to decide whether a test can run): the command
 * line, then under "[mb]:" a line a member.
 */
static void help_head(const char *usage_line)
{
	printf("%s\n[mb]:\n", usage_line);
}

static void help_member(const char *name, const char *what, bool indexed)
{
	printf("  %s: inject %s %s%s\n", name, what, name,
	       indexed ? " array selected by --idx <index>" : "");
}

/* The writable fields of @of; @by_idx: --idx picks the structure itself (an SSA entry). */
static void help_members(enum f2fs_fields_of of, const char *what, bool by_idx)
{
	const struct f2fs_field_table *t = f2fs_fields(of);

	for (unsigned int i = 0; i < t->n; i++)
		if (t->rows[i].flags & F2FS_FIELD_WRITABLE)
			help_member(t->rows[i].name, what, by_idx || t->rows[i].count > 1);
}

static void help_names(const char *const *names, const char *what)
{
	for (; *names; names++) {
		size_t len = strcspn(*names, "[");
		char name[32];

		snprintf(name, sizeof(name), "%.*s", (int)len, *names);
		help_member(name, what, (*names)[len] == '[');
	}
}

static void need_val(const struct inject *in)
{
	if (!in->o.have_val)
		tool_fail(&in->tool, 1, "--mb %s needs --val", in->o.mb);
}

/* --val must fit @f; @label names the element in the message. */
static void check_fits(const struct inject *in, const struct f2fs_field *f, const char *label)
{
	uint64_t v = in->o.val;

	if (v <= f2fs_field_max(f))
		return;
	if (f->bits)
		tool_fail(&in->tool, 1, "--val %" PRIu64 " does not fit %s (%u bits)", v, label,
			  f->bits);
	tool_fail(&in->tool, 1, "--val %" PRIu64 " does not fit %s (%u byte%s)", v, label, f->width,
		  f->width > 1 ? "s" : "");
}

/*
 * Element @idx of field @f of the structure at @base becomes --val, which
 * fits; the report names it @label, the structure @what, and ends with
 * @tail.
 */
static void put_member(const struct inject *in, void *base, const struct f2fs_field *f,
		       unsigned int idx, const char *label, const char *what, const char *tail)
{
	uint64_t old = f2fs_field_get(f, base, idx);
	char was[48], now[48];

	f2fs_field_put(f, base, idx, in->o.val);
	info("inject %s of %s: %s -> %s%s", label, what, fields_value(was, sizeof(was), f, old),
	     fields_value(now, sizeof(now), f, in->o.val), tail);
}

/* The element of @f --idx picks: required for an array, refused for a scalar. */
static unsigned int member_index(const struct inject *in, const struct f2fs_field *f)
{
	const struct opts *o = &in->o;

	if (f->count == 1) {
		if (o->have_idx)
			tool_fail(&in->tool, 1, "--mb %s is not an array: --idx does not apply",
				  f->name);
		return 0;
	}
	if (!o->have_idx)
		tool_fail(&in->tool, 1, "--mb %s is an array: give --idx (0..%u)", f->name,
			  f->count - 1);
	if (o->idx >= f->count)
		tool_fail(&in->tool, 1, "--idx %u is out of range for %s[] (0..%u)", o->idx,
			  f->name, f->count - 1);
	return o->idx;
}

static void member_label(char *label, size_t len, const struct f2fs_field *f, unsigned int idx)
{
	if (f->count > 1)
		snprintf(label, len, "%s[%u]", f->name, idx);
	else
		snprintf(label, len, "%s", f->name);
}

/*
 * Set member @f (element --idx of an array) of the structure at @base;
 * @what names the structure in the message.
 */
static void set_member(const struct inject *in, void *base, const struct f2fs_field *f,
		       const char *what)
{
	unsigned int idx;
	char label[80];

	need_val(in);
	idx = member_index(in, f);
	member_label(label, sizeof(label), f, idx);
	check_fits(in, f, label);
	put_member(in, base, f, idx, label, what, "");
}

/* The checkpoint's checksum: a field wherever checksum_offset @off puts it (validated by the
 * caller). */
static struct f2fs_field cp_crc_field(uint32_t off)
{
	struct f2fs_field f = {.name = "crc", .offset = (uint16_t)off, .width = 4, .count = 1};

	return f;
}

/* ---- device access ---- */

static void rd(const struct inject *in, void *buf, uint64_t blk)
{
	int ret = f2fs_dev_read(in->dev, buf, blk * in->bg.blksize, in->bg.blksize);

	if (ret)
		tool_fail_image(&in->tool, 1, "block %" PRIu64 ": cannot read: %s", blk,
				strerror(-ret));
}

static void wr(const struct inject *in, const void *buf, uint64_t blk, const char *what)
{
	int ret;

	if (in->o.dry_run) {
		info("dry run: block 0x%" PRIx64 " (%s) not written", blk, what);
		return;
	}
	ret = f2fs_dev_write(in->wdev, buf, blk * in->bg.blksize, in->bg.blksize);
	if (ret)
		tool_fail_image(&in->tool, 1, "block %" PRIu64 " (%s): cannot write: %s", blk, what,
				strerror(-ret));
	dbg(in, 1, "wrote block 0x%" PRIx64 " (%s)", blk, what);
}

/*
 * The block size of a volume that did not open (--sb --force): its first
 * superblock's, when that is one a volume can have, else 4 KiB.
 */
static void guess_block_size(struct inject *in)
{
	uint8_t buf[F2FS_MAX_BLKSIZE];
	const struct f2fs_super_block *sb =
	    (const struct f2fs_super_block *)(buf + F2FS_SUPER_OFFSET);

	if (f2fs_dev_read(in->dev, buf, 0, sizeof(buf)) ||
	    f2fs_blkgeo_init(&in->bg, le32_get(sb->log_blocksize)))
		in->bg = *f2fs_blkgeo_4k();
}

/* Open the volume and load the current checkpoint pack (everything but --sb needs it). */
static void open_volume(struct inject *in)
{
	char why[400], not_f2fs[480];
	int ret;

	ret = f2fs_fs_open(in->dev, F2FS_FS_READ, &in->fs, why, sizeof(why));
	if (ret) {
		tool_not_f2fs_reason(&in->tool, ret, why, not_f2fs, sizeof(not_f2fs));
		tool_fail_image(&in->tool, 1, "%s%s", not_f2fs,
				in->o.force ? " (--force applies to --sb only)" : "");
	}
	in->bg = f2fs_fs_geo(in->fs)->blk;
	if (f2fs_volume_warning(f2fs_fs_volume(in->fs)))
		info("%s", f2fs_volume_warning(f2fs_fs_volume(in->fs)));
	ret = f2fs_fs_cp_data(in->fs, &in->cpd);
	if (ret)
		tool_fail_image(&in->tool, 1, "%s", f2fs_fs_why(in->fs));
}

static const struct f2fs_nat_table *load_nat(const struct inject *in)
{
	const struct f2fs_nat_table *nat;

	if (f2fs_fs_nat(in->fs, &nat))
		tool_fail_image(&in->tool, 1, "%s", f2fs_fs_why(in->fs));
	return nat;
}

/* ---- superblock ---- */

/*
 * --sb reads and writes the superblock block itself, but only on a target
 * that opens as an F2FS volume, unless --force: that is how a damaged
 * image is mended or damaged further.
 */
static void check_sb_target(struct inject *in)
{
	char why[400], not_f2fs[480];
	struct f2fs_fs *fs;
	int ret;

	ret = f2fs_fs_open(in->dev, F2FS_FS_READ, &fs, why, sizeof(why));
	if (!ret) {
		in->bg = f2fs_fs_geo(fs)->blk;
		f2fs_fs_close(fs);
		return;
	}
	tool_not_f2fs_reason(&in->tool, ret, why, not_f2fs, sizeof(not_f2fs));
	if (!in->o.force || ret == -ENOMEM)
		tool_fail_image(&in->tool, 1, "refusing without --force: %s", not_f2fs);
	info("--force: %s: %s; writing anyway", in->o.device, not_f2fs);
	guess_block_size(in);
}

static void inject_sb(const struct inject *in)
{
	const struct opts *o = &in->o;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_super_block *sb = (struct f2fs_super_block *)(buf + F2FS_SUPER_OFFSET);
	int copy = o->pack == 2 ? 1 : 0;
	const struct f2fs_field *m;
	char what[16];
	bool is_crc;

	snprintf(what, sizeof(what), "sb %d", copy + 1);
	m = find_member(F2FS_FIELDS_SUPER, o->mb);
	is_crc = m && !strcmp(m->name, "crc");
	if (!strcmp(o->mb, "devs.path")) {
		if (!o->str)
			tool_fail(&in->tool, 1, "--mb devs.path needs --str");
		if (!o->have_idx || o->idx >= F2FS_MAX_DEVICES)
			tool_fail(&in->tool, 1, "--mb devs.path needs --idx 0..%d",
				  F2FS_MAX_DEVICES - 1);
		if (strlen(o->str) >= F2FS_MAX_PATH_LEN)
			tool_fail(&in->tool, 1, "--str is longer than %d bytes",
				  F2FS_MAX_PATH_LEN - 1);
	} else if (!m) {
		tool_fail(&in->tool, 1,
			  "unknown or unsupported superblock member \"%s\" (-h after --sb lists "
			  "them)",
			  o->mb);
	}
	rd(in, buf, (uint64_t)copy);
	if (m) {
		set_member(in, sb, m, what);
	} else {
		info("inject devs[%u].path of %s: \"%.*s\" -> \"%s\"", o->idx, what,
		     F2FS_MAX_PATH_LEN, (const char *)sb->devs[o->idx].path, o->str);
		memset(sb->devs[o->idx].path, 0, F2FS_MAX_PATH_LEN);
		memcpy(sb->devs[o->idx].path, o->str, strlen(o->str));
	}
	if (!is_crc && (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM)) {
		uint32_t old = le32_get(sb->crc);

		f2fs_super_seal(sb);
		info("%s crc updated: 0x%08x -> 0x%08x", what, old, le32_get(sb->crc));
	}
	wr(in, buf, (uint64_t)copy, what);
}

/* ---- checkpoint ---- */

/* Append --val to the last orphan block of the pack at @start (@cp: its first block). */
static void orphan_append(const struct inject *in, uint64_t start, const struct f2fs_pack_layout *l,
			  const char *what)
{
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_orphan_block *ob = (struct f2fs_orphan_block *)buf;
	struct f2fs_orphan_tail *tail = f2fs_orphan_tail(&in->bg, buf);
	uint64_t blk = start + l->data_sum_start - 1;
	uint32_t n;

	rd(in, buf, blk);
	n = le32_get(tail->entry_count);
	if (n >= in->bg.orphans_per_block)
		tool_fail_image(&in->tool, 1, "%s: its last orphan block is full", what);
	ob->ino[n] = le32_put((uint32_t)in->o.val);
	tail->entry_count = le32_put(n + 1);
	info("inject orphan of %s: inode %" PRIu64 " is entry %u of its last orphan block", what,
	     in->o.val, n);
	wr(in, buf, blk, "orphan block");
}

/*
 * Rewrite the pack at @start (its checkpoint block in @cpblk) with one
 * orphan block listing --val after its payload: the summaries move one
 * block on, and the pack's size, its first summary and its flags follow.
 */
static void orphan_insert(const struct inject *in, uint64_t start, uint8_t *cpblk,
			  const struct f2fs_pack_layout *l, const char *what)
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)cpblk;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_orphan_block *ob = (struct f2fs_orphan_block *)buf;
	struct f2fs_orphan_tail *tail = f2fs_orphan_tail(&in->bg, buf);
	uint32_t i, total = l->total + 1;

	if (total > SEG_BLKS)
		tool_fail_image(&in->tool, 1, "%s: no room for an orphan block", what);
	/* from the end: each block moves one on before its place is taken */
	for (i = l->total - 1; i >= l->orphan_start && i > 0; i--) {
		rd(in, buf, start + i);
		wr(in, buf, start + i + 1, "checkpoint pack");
	}
	memset(buf, 0, sizeof(buf));
	ob->ino[0] = le32_put((uint32_t)in->o.val);
	tail->entry_count = le32_put(1);
	tail->blk_addr = le16_put(1);
	tail->blk_count = le16_put(1);
	wr(in, buf, start + l->orphan_start, "orphan block");
	cp->ckpt_flags = le32_put(le32_get(cp->ckpt_flags) | CP_ORPHAN_PRESENT_FLAG);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(le32_get(cp->cp_pack_start_sum) + 1);
	f2fs_cp_seal(cp, in->bg.blksize);
	info("inject orphan of %s: an orphan block listing inode %" PRIu64 " (the pack grows to %u "
	     "blocks)",
	     what, in->o.val, total);
	wr(in, cpblk, start, what);
	wr(in, cpblk, start + total - 1, "checkpoint tail copy");
}

/* --mb orphan: inode --val joins the pack's orphan list. */
static void inject_orphan(const struct inject *in, uint64_t start, uint8_t *cpblk,
			  const struct f2fs_pack_layout *l, const char *what)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)cpblk;

	need_val(in);
	if (in->o.val > UINT32_MAX)
		tool_fail(&in->tool, 1, "--val %" PRIu64 " is not an inode number", in->o.val);
	if (le32_get(cp->ckpt_flags) & CP_ORPHAN_PRESENT_FLAG)
		orphan_append(in, start, l, what);
	else
		orphan_insert(in, start, cpblk, l, what);
}

/* ---- the fsynced chain (--cp --mb next_blkaddr) ---- */

static void write_inode_block(const struct inject *in, struct f2fs_node *n, uint32_t addr,
			      bool reseal, const char *what);

/* Inodes with fsynced dnodes in the chain, in the order the chain first names them. */
struct fsync_list {
	struct fsynced {
		uint32_t ino;
		uint64_t addr; /* the inode's last fsynced dnode in the chain */
	} * e;
	uint32_t n, cap;
	const struct f2fs_blkgeo *bg;
};

static int collect_fsynced(uint64_t blkaddr, const struct f2fs_node *n, void *arg)
{
	struct fsync_list *l = arg;
	uint32_t ino = f2fs_footer_ino(l->bg, n), i;

	if (!(f2fs_footer_flag(l->bg, n) & (1u << F2FS_FSYNC_BIT_SHIFT)))
		return 0;
	for (i = 0; i < l->n && l->e[i].ino != ino; i++)
		;
	if (i == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 16;
		struct fsynced *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	if (i == l->n)
		l->e[l->n++].ino = ino;
	l->e[i].addr = blkaddr;
	return 0;
}

/*
 * Set next_blkaddr in the footer of the last fsynced dnode of the --idx-th
 * inode the roll-forward chain names (what upstream's inject lists first,
 * "[   i] blkaddr:0x..", so that scripts can pick a target: --dry-run
 * lists without writing).  Upstream refuses --idx 0; we take it.
 */
static void inject_chain_next(const struct inject *in, const char *what)
{
	struct fsync_list l = {.bg = &in->bg};
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_node *n = (struct f2fs_node *)buf;
	struct f2fs_node_footer *foot = f2fs_node_footer(&in->bg, n);
	uint32_t i, old;
	int ret;

	need_val(in);
	/* (upstream refuses after a clean unmount; the kernel replays a chain written since) */
	ret = f2fs_roll_forward_walk(in->fs, collect_fsynced, &l);
	if (ret)
		tool_fail_image(&in->tool, 1, "%s: cannot walk the fsynced chain: %s", what,
				strerror(-ret));
	for (i = 0; i < l.n; i++)
		info("[%4u] blkaddr:0x%" PRIx64, i, l.e[i].addr);
	if (!l.n)
		tool_fail(&in->tool, 1, "%s: no fsynced dnodes in the roll-forward chain", what);
	if (!in->o.have_idx || in->o.idx >= l.n)
		tool_fail(&in->tool, 1, "invalid index %u of fsync dnodes range [0, %u)", in->o.idx,
			  l.n);
	if (in->o.val > UINT32_MAX)
		tool_fail(&in->tool, 1, "--val %" PRIu64 " does not fit next_blkaddr (4 bytes)",
			  in->o.val);
	rd(in, buf, l.e[in->o.idx].addr);
	old = le32_get(foot->next_blkaddr);
	foot->next_blkaddr = le32_put((uint32_t)in->o.val);
	info("inject next_blkaddr[%u] of %s (block 0x%" PRIx64 ", ino %u): 0x%x -> 0x%x", in->o.idx,
	     what, l.e[in->o.idx].addr, l.e[in->o.idx].ino, old, (uint32_t)in->o.val);
	if (f2fs_node_ofs(&in->bg, n) == 0 && foot->nid == foot->ino)
		write_inode_block(in, n, (uint32_t)l.e[in->o.idx].addr, true, "fsynced inode");
	else
		wr(in, buf, l.e[in->o.idx].addr, "fsynced dnode");
	free(l.e);
}

static bool cp_crc_in_range(const struct inject *in, uint32_t csum_off)
{
	return csum_off >= F2FS_CP_BITMAP_OFFSET && csum_off <= in->bg.cp_chksum_offset;
}

/* The checksum of the pack's first block @buf follows a change, where checksum_offset says. */
static void reseal_cp(const struct inject *in, uint8_t *buf, uint32_t csum_off, const char *what)
{
	struct f2fs_field crc = cp_crc_field(csum_off);
	uint64_t old;

	if (!cp_crc_in_range(in, csum_off)) {
		info("%s: checksum_offset %u is out of range: crc left alone", what, csum_off);
		return;
	}
	old = f2fs_field_get(&crc, buf, 0);
	f2fs_cp_seal((struct f2fs_checkpoint *)buf, in->bg.blksize);
	info("%s crc updated: 0x%08" PRIx64 " -> 0x%08" PRIx64, what, old,
	     f2fs_field_get(&crc, buf, 0));
}

/* --mb crc: the checksum itself, where checksum_offset says. */
static void inject_cp_crc(const struct inject *in, uint8_t *buf, uint32_t csum_off,
			  const char *what)
{
	struct f2fs_field crc = cp_crc_field(csum_off);
	uint64_t old;

	need_val(in);
	if (!cp_crc_in_range(in, csum_off))
		tool_fail_image(&in->tool, 1, "%s: checksum_offset %u is out of range", what,
				csum_off);
	check_fits(in, &crc, crc.name);
	old = f2fs_field_get(&crc, buf, 0);
	f2fs_field_put(&crc, buf, 0, in->o.val);
	info("inject crc of %s: 0x%08" PRIx64 " -> 0x%08" PRIx64, what, old, in->o.val);
}

static void inject_cp(const struct inject *in)
{
	const struct opts *o = &in->o;
	const struct f2fs_super_block *sb = f2fs_fs_sb(in->fs);
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	const struct f2fs_field *m = find_member(F2FS_FIELDS_CHECKPOINT, o->mb);
	int pack = o->pack ? o->pack - 1 : f2fs_volume_cp_index(f2fs_fs_volume(in->fs));
	uint64_t start = f2fs_sb_cp_pack_addr(sb, (unsigned int)pack);
	struct f2fs_pack_layout layout;
	uint32_t csum_off;
	char what[16];

	snprintf(what, sizeof(what), "cp %d", pack + 1);
	if (!strcmp(o->mb, "next_blkaddr")) {
		inject_chain_next(in, what);
		return;
	}
	if (!m && strcmp(o->mb, "crc") && strcmp(o->mb, "orphan"))
		tool_fail(&in->tool, 1,
			  "unknown or unsupported checkpoint member \"%s\" (-h after --cp lists "
			  "them)",
			  o->mb);
	rd(in, buf, start);
	/* where the pack ends, as stored before the change */
	f2fs_pack_layout(cp, le32_get(sb->cp_payload), &layout);
	csum_off = le32_get(cp->checksum_offset);
	if (layout.total < 2 || layout.total > SEG_BLKS)
		tool_fail_image(&in->tool, 1,
				"%s: cp_pack_total_block_count %u is unusable: cannot find the "
				"pack's last block",
				what, layout.total);
	if (!strcmp(o->mb, "orphan")) {
		inject_orphan(in, start, buf, &layout, what);
		return;
	}
	if (!m) {
		inject_cp_crc(in, buf, csum_off, what);
	} else {
		set_member(in, buf, m, what);
		/* a moved checksum_offset takes the checksum along: keep the old one where it was
		 */
		if (strcmp(m->name, "checksum_offset"))
			reseal_cp(in, buf, csum_off, what);
	}
	wr(in, buf, start, what);
	wr(in, buf, start + layout.last, "checkpoint tail copy");
}

/* ---- journals in the checkpoint pack ---- */

/*
 * The block and byte offset of the NAT (@sit false) or SIT journal of the
 * current pack: where the pack layout puts them, as the loader read them.
 */
static uint64_t journal_location(const struct inject *in, bool sit, size_t *off)
{
	struct f2fs_pack_layout layout;
	uint32_t rel;

	f2fs_pack_layout(f2fs_fs_cp(in->fs), le32_get(f2fs_fs_sb(in->fs)->cp_payload), &layout);
	f2fs_pack_journal_location(&in->bg, &layout, sit, &rel, off);
	return (uint64_t)f2fs_volume_cp_start(f2fs_fs_volume(in->fs)) + rel;
}

/* ---- NAT ---- */

/* --mb of the NAT entry @ne of --nid in @where (--idx does not apply and is not looked at). */
static void set_nat_field(const struct inject *in, struct f2fs_nat_entry *ne, const char *where)
{
	const struct f2fs_field *f = find_member(F2FS_FIELDS_NAT_ENTRY, in->o.mb);
	char what[64];

	snprintf(what, sizeof(what), "nid %u in %s", in->o.nid, where);
	check_fits(in, f, f->name);
	put_member(in, ne, f, 0, f->name, what, "");
}

static void check_nat_member(const struct inject *in)
{
	const char *mb = in->o.mb;

	if (!is_member(in))
		fail_unknown(in, "NAT");
	need_val(in);
	if (!strcmp(mb, "j_nid") && in->o.val > UINT32_MAX)
		tool_fail(&in->tool, 1, "--val %" PRIu64 " does not fit a nid", in->o.val);
}

/*
 * j_nid for a nid the NAT journal does not hold: a journal entry with the
 * nid's entry @ne (from its NAT block) keyed to --val is appended, as a
 * checkpoint that journaled it would have.
 */
static void journal_add_nat(const struct inject *in, const struct f2fs_nat_entry *ne)
{
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_journal *j;
	uint64_t jblk;
	size_t joff;
	uint16_t n;

	jblk = journal_location(in, false, &joff);
	rd(in, buf, jblk);
	j = (struct f2fs_journal *)(buf + joff);
	n = le16_get(j->n_nats);
	if (n >= in->bg.nat_journal_entries)
		tool_fail_image(&in->tool, 1, "the NAT journal is full (%u entries)", n);
	f2fs_nat_journal_at(j, n)->nid = le32_put((uint32_t)in->o.val);
	f2fs_nat_journal_at(j, n)->ne = *ne;
	j->n_nats = le16_put((uint16_t)(n + 1));
	info("inject j_nid: NAT journal entry %u added for nid %u, keyed %" PRIu64, n, in->o.nid,
	     in->o.val);
	wr(in, buf, jblk, "NAT journal");
}

static void inject_nat(const struct inject *in)
{
	const struct opts *o = &in->o;
	const struct f2fs_super_block *sb = f2fs_fs_sb(in->fs);
	const struct f2fs_journal *jl = &in->cpd->nat_journal;
	uint32_t n = le16_get(jl->n_nats), i, bidx;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	char where[48];
	uint64_t addr;
	int copy;

	if (!o->have_nid)
		tool_fail(&in->tool, 1, "--nat needs --nid");
	if (o->nid >= f2fs_sb_max_nid(sb))
		tool_fail(&in->tool, 1, "--nid %u is out of range (0..%" PRIu64 ")", o->nid,
			  f2fs_sb_max_nid(sb) - 1);
	check_nat_member(in);
	for (i = 0; i < n; i++) {
		struct f2fs_journal *j;
		uint64_t jblk;
		size_t joff;

		if (le32_get(f2fs_nat_journal_at(jl, i)->nid) != o->nid)
			continue;
		jblk = journal_location(in, false, &joff);
		rd(in, buf, jblk);
		j = (struct f2fs_journal *)(buf + joff);
		if (le32_get(f2fs_nat_journal_at(j, i)->nid) != o->nid)
			tool_fail_image(&in->tool, 1,
					"NAT journal: entry %u on disk differs from the one loaded",
					i);
		if (!strcmp(o->mb, "j_nid")) {
			f2fs_nat_journal_at(j, i)->nid = le32_put((uint32_t)o->val);
			info("inject j_nid of NAT journal entry %u: %u -> %" PRIu64, i, o->nid,
			     o->val);
		} else {
			set_nat_field(in, &f2fs_nat_journal_at(j, i)->ne, "the NAT journal");
		}
		wr(in, buf, jblk, "NAT journal");
		return;
	}
	bidx = o->nid / in->bg.nat_per_block;
	if (o->pack)
		copy = o->pack - 1;
	else
		copy = f2fs_test_bit_msb(in->cpd->nat_bitmap, bidx);
	addr = f2fs_nat_block_addr(sb, bidx, copy);
	rd(in, buf, addr);
	if (!strcmp(o->mb, "j_nid")) {
		journal_add_nat(
		    in, &((struct f2fs_nat_block *)buf)->entries[o->nid % in->bg.nat_per_block]);
		return;
	}
	snprintf(where, sizeof(where), "NAT copy %d (block 0x%" PRIx64 ")", copy + 1, addr);
	set_nat_field(in, &((struct f2fs_nat_block *)buf)->entries[o->nid % in->bg.nat_per_block],
		      where);
	wr(in, buf, addr, "NAT block");
}

/* ---- SIT ---- */

/* The main-area segment of --blk. */
static uint32_t blk_segno(const struct inject *in)
{
	const struct f2fs_geometry *g = f2fs_fs_geo(in->fs);

	if (!in->o.have_blk)
		tool_fail(&in->tool, 1, "this structure needs --blk");
	if (!f2fs_geo_in_main(g, in->o.blk))
		tool_fail(&in->tool, 1, "--blk 0x%x is outside the main area [0x%x, 0x%" PRIx64 ")",
			  in->o.blk, g->main_blkaddr, g->main_end);
	return f2fs_geo_segno(g, in->o.blk);
}

/* valid_bit: the bit of --blk (offset @off in its segment) in the entry's valid_map. */
static void set_valid_bit(const struct inject *in, struct f2fs_sit_entry *se, uint32_t off,
			  const char *what)
{
	int old = f2fs_test_bit_msb(se->valid_map, off);

	if (in->o.val > 1)
		tool_fail(&in->tool, 1, "--val for valid_bit is 0 or 1");
	if (in->o.val)
		f2fs_set_bit_msb(se->valid_map, off);
	else
		f2fs_clear_bit_msb(se->valid_map, off);
	info("inject valid_bit of block %u of %s: %d -> %d", off, what, old, (int)in->o.val);
}

/* What a vblocks word means, before and after: the segment's type and its valid blocks. */
static void vblocks_meaning(char *buf, size_t len, uint64_t old, uint64_t now)
{
	snprintf(buf, len, " [type %u, %u blocks -> type %u, %u blocks]",
		 (unsigned int)(old >> F2FS_SIT_VBLOCKS_SHIFT),
		 (unsigned int)(old & F2FS_SIT_VBLOCKS_MASK),
		 (unsigned int)(now >> F2FS_SIT_VBLOCKS_SHIFT),
		 (unsigned int)(now & F2FS_SIT_VBLOCKS_MASK));
}

/* --mb of the SIT entry @se of segment @segno, in @where; valid_map's byte defaults to --blk's. */
static void set_sit_field(const struct inject *in, struct f2fs_sit_entry *se, uint32_t segno,
			  const char *where)
{
	const struct opts *o = &in->o;
	const struct f2fs_field *f = find_member(F2FS_FIELDS_SIT_ENTRY, o->mb);
	uint32_t off = f2fs_geo_blkoff(f2fs_fs_geo(in->fs), o->blk);
	char what[96], label[80], tail[80] = "";
	unsigned int idx = 0;

	snprintf(what, sizeof(what), "segment %u (blk 0x%x) in %s", segno, o->blk, where);
	need_val(in);
	if (!f) {
		set_valid_bit(in, se, off, what);
		return;
	}
	if (f->count > 1) {
		idx = o->have_idx ? o->idx : off / 8;
		if (idx >= f->count)
			tool_fail(&in->tool, 1, "--idx %u is out of range for %s[] (0..%u)", idx,
				  f->name, f->count - 1);
	}
	member_label(label, sizeof(label), f, idx);
	check_fits(in, f, label);
	if (f->show == F2FS_SHOW_VBLOCKS)
		vblocks_meaning(tail, sizeof(tail), f2fs_field_get(f, se, 0), o->val);
	put_member(in, se, f, idx, label, what, tail);
}

static void check_sit_member(const struct inject *in)
{
	if (!is_member(in))
		fail_unknown(in, "SIT");
	need_val(in);
}

static void inject_sit(const struct inject *in)
{
	const struct opts *o = &in->o;
	const struct f2fs_super_block *sb = f2fs_fs_sb(in->fs);
	const struct f2fs_journal *jl = &in->cpd->sit_journal;
	uint32_t segno = blk_segno(in);
	uint32_t n = le16_get(jl->n_sits), i, bidx;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	char where[48];
	uint64_t addr;
	int copy;

	check_sit_member(in);
	if (o->have_idx && strcmp(o->mb, "valid_map"))
		tool_fail(&in->tool, 1, "--idx applies only to valid_map");
	for (i = 0; i < n; i++) {
		struct f2fs_journal *j;
		uint64_t jblk;
		size_t joff;

		if (le32_get(f2fs_sit_journal_at(jl, i)->segno) != segno)
			continue;
		jblk = journal_location(in, true, &joff);
		rd(in, buf, jblk);
		j = (struct f2fs_journal *)(buf + joff);
		if (le32_get(f2fs_sit_journal_at(j, i)->segno) != segno)
			tool_fail_image(&in->tool, 1,
					"SIT journal: entry %u on disk differs from the one loaded",
					i);
		if (!strcmp(o->mb, "j_segno")) {
			if (o->val > UINT32_MAX)
				tool_fail(&in->tool, 1, "--val %" PRIu64 " does not fit a segno",
					  o->val);
			f2fs_sit_journal_at(j, i)->segno = le32_put((uint32_t)o->val);
			info("inject j_segno of SIT journal entry %u: %u -> %" PRIu64, i, segno,
			     o->val);
		} else {
			set_sit_field(in, &f2fs_sit_journal_at(j, i)->se, segno, "the SIT journal");
		}
		wr(in, buf, jblk, "SIT journal");
		return;
	}
	if (!strcmp(o->mb, "j_segno"))
		tool_fail(&in->tool, 1,
			  "segment %u has no SIT journal entry: j_segno does not apply", segno);
	bidx = segno / in->bg.sit_per_block;
	if (o->pack)
		copy = o->pack - 1;
	else
		copy = f2fs_test_bit_msb(in->cpd->sit_bitmap, bidx);
	addr = f2fs_sb_sit_block_addr(sb, bidx, copy);
	rd(in, buf, addr);
	snprintf(where, sizeof(where), "SIT copy %d (block 0x%" PRIx64 ")", copy + 1, addr);
	set_sit_field(in, &((struct f2fs_sit_block *)buf)->entries[segno % in->bg.sit_per_block],
		      segno, where);
	wr(in, buf, addr, "SIT block");
}

/* ---- SSA ---- */

/*
 * --mb of a segment's summary: of entry --idx (by default --blk's), or of
 * its footer.  --idx goes as far as the summary has room for entries, as
 * upstream's does.
 */
static void inject_ssa(const struct inject *in)
{
	const struct opts *o = &in->o;
	const struct f2fs_super_block *sb = f2fs_fs_sb(in->fs);
	uint32_t segno = blk_segno(in);
	uint32_t off = f2fs_geo_blkoff(f2fs_fs_geo(in->fs), o->blk), idx;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	uint64_t addr = f2fs_ssa_block_of(&in->bg, le32_get(sb->ssa_blkaddr), segno);
	/* this segment's summary: the block, or with packed_ssa its 4 KiB slice */
	uint8_t *sum = buf + (size_t)(segno % in->bg.sums_per_block) * in->bg.sum_blksize;
	int log = f2fs_cp_log_of_segment(in->cpd, segno);
	const struct f2fs_field *f = find_member(F2FS_FIELDS_SUMMARY, o->mb);
	void *base = f2fs_sum_footer(&in->bg, (struct f2fs_summary_block *)sum);
	char what[64];

	if (log >= 0)
		tool_fail(&in->tool, 1,
			  "segment %u is open log %d: its summary lives in the checkpoint pack; "
			  "pick a block of a closed segment",
			  segno, log);
	need_val(in);
	idx = o->have_idx ? o->idx : off;
	if (idx >= in->bg.sum_entries)
		tool_fail(&in->tool, 1, "--idx %u is out of range for entries[] (0..%u)", idx,
			  in->bg.sum_entries - 1);
	if (f) {
		base = sum + (size_t)idx * sizeof(struct f2fs_summary);
		snprintf(what, sizeof(what), "summary entry %u of segment %u", idx, segno);
	} else if ((f = find_member(F2FS_FIELDS_SUM_FOOTER, o->mb))) {
		snprintf(what, sizeof(what), "the summary of segment %u", segno);
	} else {
		fail_unknown(in, "SSA");
	}
	check_fits(in, f, f->name);
	rd(in, buf, addr);
	put_member(in, base, f, 0, f->name, what, "");
	wr(in, buf, addr, "SSA block");
}

/* ---- nodes ---- */

/* The block of node @nid per the NAT, which must map it inside the main area. */
static uint32_t node_addr(const struct inject *in, const struct f2fs_nat_table *nat, uint32_t nid)
{
	const struct f2fs_nat_info *ni = f2fs_nat_get(nat, nid);

	if (!ni)
		tool_fail(&in->tool, 1, "nid %u is outside the NAT (0..%u)", nid,
			  f2fs_nat_max_nid(nat) - 1);
	if (ni->blkaddr == F2FS_NULL_ADDR)
		tool_fail(&in->tool, 1, "nid %u is not in use (NAT block address 0)", nid);
	if (!f2fs_geo_in_main(f2fs_fs_geo(in->fs), ni->blkaddr))
		tool_fail_image(&in->tool, 1,
				"NAT: nid %u: block_addr 0x%x is outside the main area", nid,
				ni->blkaddr);
	return ni->blkaddr;
}

/* Write an inode block back, recomputing its checksum unless told not to. */
static void write_inode_block(const struct inject *in, struct f2fs_node *n, uint32_t addr,
			      bool reseal, const char *what)
{
	uint32_t features = f2fs_fs_features(in->fs);

	if (reseal && (features & F2FS_FEATURE_INODE_CHKSUM)) {
		uint32_t old = le32_get(n->i.i_inode_checksum);

		f2fs_inode_seal(&in->bg, n, features,
				f2fs_inode_chksum_seed(f2fs_fs_sb(in->fs)->uuid));
		if (old != le32_get(n->i.i_inode_checksum))
			info("inode checksum of ino %u updated: 0x%08x -> 0x%08x",
			     f2fs_footer_ino(&in->bg, n), old, le32_get(n->i.i_inode_checksum));
	}
	wr(in, n, addr, what);
}

/*
 * Change a head field of entry --idx of inode @n's xattr list (the inline
 * area, then the xattr node) and write the block that holds it.
 */
static void inject_xattr_entry(const struct inject *in, const struct f2fs_field *f,
			       struct f2fs_node *n, uint32_t addr)
{
	const struct opts *o = &in->o;
	uint32_t features = f2fs_fs_features(in->fs);
	unsigned int inline_bytes = f2fs_inline_xattr_bytes(&in->bg, &n->i, features);
	uint32_t xnid = le32_get(n->i.i_xattr_nid), xaddr = 0;
	uint8_t *space, xnode[F2FS_MAX_BLKSIZE], *head;
	size_t len = inline_bytes;
	char what[80];
	bool in_inline;
	long off;

	need_val(in);
	if (!o->have_idx)
		tool_fail(&in->tool, 1, "--mb %s needs --idx (the entry's place in the list)",
			  f->name);
	check_fits(in, f, f->name);
	space = calloc(1, F2FS_XATTR_SPACE_MAX);
	if (!space)
		tool_fail(&in->tool, 1, "out of memory");
	memcpy(space, f2fs_inline_xattr(&in->bg, &n->i, features), inline_bytes);
	if (xnid) {
		xaddr = node_addr(in, load_nat(in), xnid);
		rd(in, xnode, xaddr);
		memcpy(space + len, xnode, f2fs_xattr_node_bytes(&in->bg));
		len += f2fs_xattr_node_bytes(&in->bg);
	}
	off = f2fs_xattr_entry_offset(space, len, o->idx);
	free(space);
	if (off < 0)
		tool_fail_image(&in->tool, 1,
				"nid %u: its xattr list (%zu bytes) has no entry %u (or breaks "
				"before it)",
				o->nid, len, o->idx);
	/* an entry's head never straddles the two parts: all three are whole words */
	in_inline = (size_t)off < inline_bytes;
	head = in_inline ? (uint8_t *)f2fs_inline_xattr(&in->bg, &n->i, features) + off
			 : xnode + ((size_t)off - inline_bytes);
	snprintf(what, sizeof(what), "xattr entry %u (offset %ld) of nid %u", o->idx, off, o->nid);
	put_member(in, head, f, 0, f->name, what, "");
	if (in_inline)
		write_inode_block(in, n, addr, true, "inode (inline xattrs)");
	else
		wr(in, xnode, xaddr, "xattr node");
}

static void inject_node(const struct inject *in)
{
	const struct opts *o = &in->o;
	uint8_t buf[F2FS_MAX_BLKSIZE];
	struct f2fs_node *n = (struct f2fs_node *)buf;
	const struct f2fs_nat_table *nat;
	const struct f2fs_field *m;
	struct f2fs_field placed; /* an array as long as the volume's block makes it */
	uint32_t addr;
	bool is_inode;
	char what[32];

	if (!o->have_nid)
		tool_fail(&in->tool, 1, "--node needs --nid");
	nat = load_nat(in);
	addr = node_addr(in, nat, o->nid);
	is_inode = f2fs_nat_get(nat, o->nid)->ino == o->nid;
	rd(in, buf, addr);
	snprintf(what, sizeof(what), "nid %u", o->nid);
	if ((m = find_member(F2FS_FIELDS_FOOTER, o->mb))) {
		set_member(in, f2fs_node_footer(&in->bg, n), m, what);
	} else if (is_inode && (m = find_member(F2FS_FIELDS_XATTR_ENTRY, o->mb))) {
		inject_xattr_entry(in, m, n, addr);
		return;
	} else if (is_inode) {
		m = find_member(F2FS_FIELDS_INODE, o->mb);
		if (!m)
			tool_fail(&in->tool, 1,
				  "unknown or unsupported inode member \"%s\" (-h after --node "
				  "lists them)",
				  o->mb);
		placed = f2fs_field_in_block(F2FS_FIELDS_INODE, m, &in->bg);
		set_member(in, &n->i, &placed, what);
	} else {
		m = find_member(F2FS_FIELDS_DIRECT_NODE, o->mb);
		if (!m)
			tool_fail(
			    &in->tool, 1,
			    "unknown or unsupported member \"%s\" of non-inode node %u (addr, "
			    "or a footer member)",
			    o->mb, o->nid);
		placed = f2fs_field_in_block(F2FS_FIELDS_DIRECT_NODE, m, &in->bg);
		set_member(in, &n->dn, &placed, what);
	}
	if (is_inode)
		write_inode_block(in, n, addr, strcmp(o->mb, "i_inode_checksum") != 0, "inode");
	else
		wr(in, buf, addr, "node block");
}

/* ---- dentries ---- */

/* The slot of the entry matching what we look for (inode @ino, or @name), or -1. */
static int find_slot(const struct f2fs_dentry_area *a, uint32_t ino, const char *name)
{
	unsigned int s = 0;

	while (s < a->nr) {
		const struct f2fs_dir_entry *de = &a->dentry[s];
		unsigned int len = le16_get(de->name_len);

		if (!f2fs_test_bit_lsb(a->bitmap, s) || !len) {
			s++;
			continue;
		}
		if (name) {
			if (len == strlen(name) && s + f2fs_name_slots(len) <= a->nr &&
			    !memcmp(f2fs_dentry_name(a, s), name, len))
				return (int)s;
		} else if (le32_get(de->ino) == ino) {
			return (int)s;
		}
		s += f2fs_name_slots(len);
	}
	return -1;
}

/*
 * A search through the dentry blocks of a directory, in file order, over
 * its whole node tree: by slot (--idx counts the slots of the blocks that
 * exist, 214 per block), or by the entry's inode or name.
 */
struct dent_search {
	const struct inject *in;
	bool by_index;
	uint32_t want_block; /* by_index: the index among the existing blocks */
	uint32_t ino;	     /* else: the entry's inode, */
	const char *name;    /* or its name when set */
	uint32_t seen;	     /* dentry blocks visited so far */
	/* the result */
	union {
		struct f2fs_dentry_block blk; /* the fixed head; the block is the volume's */
		uint8_t bytes[F2FS_MAX_BLKSIZE];
	};
	uint32_t blkaddr;
	int slot;
};

#define DENT_FOUND 1 /* stops the walk; errors are negative */

static int search_block(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct dent_search *s = arg;
	struct f2fs_dentry_area a;

	(void)file_block;
	if (blkaddr == F2FS_NEW_ADDR || blkaddr == F2FS_COMPRESS_ADDR)
		return 0; /* allocated, never written: no entries */
	if (s->by_index && s->seen++ != s->want_block)
		return 0;
	rd(s->in, &s->blk, blkaddr);
	s->blkaddr = blkaddr;
	if (s->by_index) {
		s->slot = (int)(s->in->o.idx % s->in->bg.dentry_slots);
		return DENT_FOUND;
	}
	s->seen++;
	f2fs_dentry_block_area(&s->in->bg, &s->blk, &a);
	s->slot = find_slot(&a, s->ino, s->name);
	return s->slot < 0 ? 0 : DENT_FOUND;
}

/* Find the slot in the dentry blocks of directory @dir; -1 in s->slot when there is none. */
static void search_dir_blocks(const struct inject *in, const struct f2fs_node *dir,
			      uint32_t dir_nid, struct dent_search *s)
{
	int ret;

	s->slot = -1;
	ret = f2fs_file_for_each_block(in->fs, dir, search_block, s);
	if (ret == DENT_FOUND)
		return;
	s->slot = -1;
	if (ret < 0)
		tool_fail_image(&in->tool, 1, "directory %u: node tree: %s", dir_nid,
				ret == -EUCLEAN	 ? "a node or address does not fit"
				: ret == -ENOMEM ? "out of memory"
						 : strerror(-ret));
}

/* d_bitmap: whether @slot is in use (--val 1, or 0 which is also what no --val means). */
static void set_dent_bit(const struct inject *in, struct f2fs_dentry_area *a, unsigned int slot,
			 const char *what)
{
	const struct opts *o = &in->o;
	int old = f2fs_test_bit_lsb(a->bitmap, slot);
	int nv = o->have_val ? (int)(o->val != 0) : 0;

	if (o->have_val && o->val > 1)
		tool_fail(&in->tool, 1, "--val for d_bitmap is 0 or 1");
	if (nv)
		f2fs_set_bit_lsb(a->bitmap, slot);
	else
		f2fs_clear_bit_lsb(a->bitmap, slot);
	info("inject d_bitmap bit of %s: %d -> %d", what, old, nv);
}

/* filename: --str over the old name, within its slots; the length and hash follow. */
static void rename_dent(const struct inject *in, struct f2fs_dentry_area *a, unsigned int slot,
			const char *what)
{
	const struct opts *o = &in->o;
	struct f2fs_dir_entry *de = &a->dentry[slot];
	/* the area is ours to change: f2fs_dentry_name() only says where the name is */
	uint8_t *name = (uint8_t *)f2fs_dentry_name(a, slot);
	size_t len = strlen(o->str);
	size_t cap = (size_t)f2fs_name_slots(le16_get(de->name_len)) * F2FS_SLOT_LEN;

	if (!len || len > cap || len > F2FS_NAME_LEN)
		tool_fail(&in->tool, 1, "--str must be 1..%zu bytes (the slots of the old name)",
			  cap);
	if (slot + f2fs_name_slots(len) > a->nr)
		tool_fail_image(&in->tool, 1, "%s: the name runs past the end of the block", what);
	info("inject filename of %s: \"%.*s\" -> \"%s\"", what,
	     (int)(le16_get(de->name_len) < cap ? le16_get(de->name_len) : cap), (const char *)name,
	     o->str);
	memcpy(name, o->str, len);
	de->name_len = le16_put((uint16_t)len);
	de->hash_code = le32_put(f2fs_dentry_hash((const unsigned char *)o->str, len));
	info("d_name_len -> %zu, d_hash -> 0x%08x", len, le32_get(de->hash_code));
}

/* Change member --mb of the entry at @slot of @a; @what names it in the messages. */
static void set_dent_field(const struct inject *in, struct f2fs_dentry_area *a, unsigned int slot,
			   const char *what)
{
	const struct f2fs_field *f = find_member(F2FS_FIELDS_DENTRY, in->o.mb);

	if (f) {
		check_fits(in, f, f->name);
		put_member(in, &a->dentry[slot], f, 0, f->name, what, "");
	} else if (!strcmp(in->o.mb, "d_bitmap")) {
		set_dent_bit(in, a, slot, what);
	} else {
		rename_dent(in, a, slot, what);
	}
}

static void check_dent_args(const struct inject *in)
{
	const struct opts *o = &in->o;

	if (!is_member(in))
		fail_unknown(in, "dentry");
	if (!o->have_nid)
		tool_fail(&in->tool, 1, "--dent needs --nid");
	if (!strcmp(o->mb, "filename")) {
		if (!o->str)
			tool_fail(&in->tool, 1, "--mb filename needs --str");
	} else if (strcmp(o->mb, "d_bitmap")) {
		need_val(in);
	}
	if (o->dots && o->have_idx)
		tool_fail(&in->tool, 1, "--dots and --idx cannot be combined");
}

static void inject_dent(const struct inject *in)
{
	const struct opts *o = &in->o;
	uint8_t inode_buf[F2FS_MAX_BLKSIZE];
	struct f2fs_node *dir = (struct f2fs_node *)inode_buf;
	struct dent_search *s = calloc(1, sizeof(*s));
	const struct f2fs_nat_table *nat;
	uint32_t dir_nid, dir_addr;
	struct f2fs_dentry_area a;
	bool in_inline;
	int slot;
	char what[96];

	if (!s)
		tool_fail(&in->tool, 1, "out of memory");
	check_dent_args(in);
	nat = load_nat(in);
	s->in = in;
	if (o->dots || o->have_idx) {
		dir_nid = o->nid;
		s->name = o->dots == 1 ? "." : o->dots == 2 ? ".." : NULL;
	} else {
		uint8_t child[F2FS_MAX_BLKSIZE];

		rd(in, child, node_addr(in, nat, o->nid));
		if (f2fs_nat_get(nat, o->nid)->ino != o->nid)
			tool_fail(&in->tool, 1, "nid %u is not an inode", o->nid);
		dir_nid = le32_get(((struct f2fs_node *)child)->i.i_pino);
		s->ino = o->nid;
	}
	dir_addr = node_addr(in, nat, dir_nid);
	rd(in, inode_buf, dir_addr);
	if ((le16_get(dir->i.i_mode) & S_IFMT) != S_IFDIR)
		tool_fail(&in->tool, 1, "nid %u is not a directory", dir_nid);
	in_inline = dir->i.i_inline & F2FS_INLINE_DENTRY;
	if (in_inline) {
		if (f2fs_inline_dentry_area(&in->bg, &dir->i, f2fs_fs_features(in->fs), &a))
			tool_fail_image(&in->tool, 1,
					"inode %u: i_extra_isize %u leaves no room for inline "
					"dentries",
					dir_nid, le16_get(dir->i.i_extra_isize));
		slot = o->have_idx ? (int)o->idx : find_slot(&a, s->ino, s->name);
		if (o->have_idx && o->idx >= a.nr)
			tool_fail(&in->tool, 1,
				  "--idx %u is out of range (the inline area has %u slots)", o->idx,
				  a.nr);
	} else {
		s->by_index = o->have_idx;
		s->want_block = o->idx / in->bg.dentry_slots;
		search_dir_blocks(in, dir, dir_nid, s);
		if (o->have_idx && s->slot < 0)
			tool_fail(&in->tool, 1,
				  "--idx %u is beyond the directory's %u block(s) of %d slots",
				  o->idx, s->seen, in->bg.dentry_slots);
		f2fs_dentry_block_area(&in->bg, &s->blk, &a);
		slot = s->slot;
	}
	if (slot < 0) {
		if (s->name)
			tool_fail(&in->tool, 1, "\"%s\" not found in directory %u", s->name,
				  dir_nid);
		tool_fail(&in->tool, 1, "no entry for ino %u found in its parent directory %u",
			  s->ino, dir_nid);
	}
	snprintf(what, sizeof(what), "dentry slot %d of directory %u%s", slot, dir_nid,
		 in_inline ? " (inline)" : "");
	set_dent_field(in, &a, (unsigned int)slot, what);
	if (in_inline)
		write_inode_block(in, dir, dir_addr, true, "directory inode (inline dentries)");
	else
		wr(in, &s->blk, s->blkaddr, "dentry block");
	free(s);
}

/* ---- command line ---- */

static uint32_t parse_u32(const struct inject *in, const char *opt, const char *s)
{
	uint64_t v;

	if (!tool_parse_u64(s, TOOL_NUM_C, UINT32_MAX, &v))
		tool_fail(&in->tool, 1, "invalid value for --%s: '%s'", opt, s);
	return (uint32_t)v;
}

static void set_target(struct inject *in, enum target t, int pack, const char *name)
{
	if (in->o.target != T_NONE)
		tool_fail(&in->tool, 1, "only one structure per run: --%s given after another one",
			  name);
	in->o.target = t;
	in->o.pack = pack;
}

static int parse_pack(const struct inject *in, const char *opt, const char *s)
{
	if (!s[0])
		return 0; /* as upstream reads it: fstests asks for help with --cp "" -h */
	if (strlen(s) != 1 || s[0] < '0' || s[0] > '2')
		tool_fail(&in->tool, 1, "invalid value for --%s: '%s' (expected 0, 1 or 2)", opt,
			  s);
	return s[0] - '0';
}

static void target_help(enum target target)
{
	const struct target_def *h = &targets[target];
	const struct target_part *p;

	if (target == T_NONE) {
		usage(stdout);
		return;
	}
	help_head(h->usage);
	for (p = h->parts; p->what; p++)
		help_members(p->of, p->what, p->by_idx);
	help_names(h->extra, h->parts[0].what);
}

static void parse_args(struct inject *in, int argc, char **argv)
{
	/* one option per line, so that an added option is an added line */
	/* clang-format off */
	static const struct option longopts[] = {{"dry-run", no_argument, NULL, 1},
						 {"mb", required_argument, NULL, 2},
						 {"idx", required_argument, NULL, 3},
						 {"val", required_argument, NULL, 4},
						 {"str", required_argument, NULL, 5},
						 {"sb", required_argument, NULL, 6},
						 {"cp", required_argument, NULL, 7},
						 {"nat", required_argument, NULL, 8},
						 {"nid", required_argument, NULL, 9},
						 {"sit", required_argument, NULL, 10},
						 {"blk", required_argument, NULL, 11},
						 {"ssa", no_argument, NULL, 12},
						 {"node", no_argument, NULL, 13},
						 {"dent", no_argument, NULL, 14},
						 {"dots", required_argument, NULL, 15},
						 {"force", no_argument, NULL, 16},
						 {"undo", required_argument, NULL, 'z'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	/* clang-format on */
	const struct tool *t = &in->tool;
	struct opts *o = &in->o;
	uint64_t v;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:Vhz:", longopts, NULL)) != -1) {
		switch (opt) {
		case 1:
			o->dry_run = true;
			break;
		case 2:
			o->mb = optarg;
			break;
		case 3:
			o->idx = parse_u32(in, "idx", optarg);
			o->have_idx = true;
			break;
		case 4:
			if (!tool_parse_u64(optarg, TOOL_NUM_C, UINT64_MAX, &o->val))
				tool_fail(t, 1, "invalid value for --val: '%s'", optarg);
			o->have_val = true;
			break;
		case 5:
			o->str = optarg;
			break;
		case 6:
			set_target(in, T_SB, parse_pack(in, "sb", optarg), "sb");
			break;
		case 7:
			set_target(in, T_CP, parse_pack(in, "cp", optarg), "cp");
			break;
		case 8:
			set_target(in, T_NAT, parse_pack(in, "nat", optarg), "nat");
			break;
		case 9:
			o->nid = parse_u32(in, "nid", optarg);
			o->have_nid = true;
			break;
		case 10:
			set_target(in, T_SIT, parse_pack(in, "sit", optarg), "sit");
			break;
		case 11:
			o->blk = parse_u32(in, "blk", optarg);
			o->have_blk = true;
			break;
		case 12:
			set_target(in, T_SSA, 0, "ssa");
			break;
		case 13:
			set_target(in, T_NODE, 0, "node");
			break;
		case 14:
			set_target(in, T_DENT, 0, "dent");
			break;
		case 15:
			if (strcmp(optarg, "1") && strcmp(optarg, "2"))
				tool_fail(
				    t, 1,
				    "invalid value for --dots: '%s' (1 for \".\", 2 for \"..\")",
				    optarg);
			o->dots = optarg[0] - '0';
			break;
		case 16:
			o->force = true;
			break;
		case 'z':
			o->undo = optarg;
			break;
		case 'd':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC, 9, &v))
				tool_fail(t, 1, "invalid value for -d: '%s' (expected 0 to 9)",
					  optarg);
			o->debug = (int)v;
			break;
		case 'V':
			printf("inject.f2fs %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			target_help(o->target);
			exit(0);
		case ':':
			if (optopt)
				tool_fail(t, 1, "option -%c requires a value (-h for help)",
					  optopt);
			tool_fail(t, 1, "option %s requires a value (-h for help)",
				  argv[optind - 1]);
		default:
			if (optopt)
				tool_fail(t, 1, "unknown option -%c (-h for help)", optopt);
			tool_fail(t, 1, "unknown option %s (-h for help)", argv[optind - 1]);
		}
	}
	if (o->target == T_NONE)
		tool_fail(t, 1,
			  "no structure given: one of --sb, --cp, --nat, --sit, --ssa, --node, "
			  "--dent");
	if (!o->mb)
		tool_fail(t, 1,
			  "no member given: --mb NAME (-h after the structure option lists "
			  "them)");
	if (o->dots && o->target != T_DENT)
		tool_fail(t, 1, "--dots applies only to --dent");
	if (o->str && strcmp(o->mb, "devs.path") && strcmp(o->mb, "filename"))
		tool_fail(t, 1, "--str applies only to devs.path and filename");
	if (optind >= argc)
		tool_fail(t, 1, "no device specified (usage: inject.f2fs [options] device)");
	o->device = argv[optind++];
	if (optind < argc)
		tool_fail(t, 1, "unexpected argument: '%s'", argv[optind]);
}

int main(int argc, char **argv)
{
	struct inject in = {.tool = {.prog = "inject.f2fs"}, .bg = *f2fs_blkgeo_4k()};
	int ret;

	parse_args(&in, argc, argv);
	in.tool.image = in.o.device;
	/* a dry run is refused where the run would be: it shows what the run would do */
	tool_check_target(&in.tool, TOOL_WRITES, 1);
	in.dev = tool_open_for_reading(&in.tool, 1);
	if (in.o.dry_run)
		info("dry run: nothing will be written");
	if (in.o.target == T_SB)
		check_sb_target(&in);
	else
		open_volume(&in);
	if (!in.o.dry_run)
		in.wdev =
		    tool_undo_stack(&in.tool, tool_open_for_writing(&in.tool, 1, 0), in.o.undo, 1);
	switch (in.o.target) {
	case T_SB:
		inject_sb(&in);
		break;
	case T_CP:
		inject_cp(&in);
		break;
	case T_NAT:
		inject_nat(&in);
		break;
	case T_SIT:
		inject_sit(&in);
		break;
	case T_SSA:
		inject_ssa(&in);
		break;
	case T_NODE:
		inject_node(&in);
		break;
	case T_DENT:
		inject_dent(&in);
		break;
	default:
		break;
	}
	f2fs_fs_close(in.fs);
	f2fs_dev_close(in.dev);
	ret = f2fs_dev_close(in.wdev);
	if (ret)
		tool_fail_image(&in.tool, 1, "closing: %s", strerror(-ret));
	return 0;
}
