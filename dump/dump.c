// SPDX-License-Identifier: GPL-2.0
/*
 * dump.f2fs: show what a volume holds, never changing it.  Superblock and
 * checkpoint fields (-d), NAT, SIT and SSA tables (-n, -s, -a, written to
 * ./dump_nat, ./dump_sit and ./dump_ssa in the line formats of upstream
 * f2fs-tools, which scripts parse), the owner of a block (-b), an inode
 * (-i), the copies of an inode's block left in the node segments (-I), a
 * segment map (-M), a per-section view (--sections), and the extraction of
 * the whole tree into a directory (-r -o DIR).  With --json every mode
 * prints one JSON document on stdout instead, which a failure ends with an
 * "error" member.  Names are bytes on disk and are shown by the escaping
 * rule of tools/common/name.h.  An image cut short is read as far as it
 * goes: what lies past the device's end is an error of the file it
 * belongs to.
 *
 * What a block is and where a file's bytes are is libf2fs's business
 * (f2fs/read.h), and how the fields of -d and -i are listed that of
 * tools/common/fields.h; this file parses the options, asks, and prints.
 * All arguments and the volume are validated before anything is written:
 * bad input gives one line on stderr and exit status 1.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/geometry.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/sit.h"
#include "f2fs/summary.h"
#include "f2fs/xattr.h"
#include "f2fs/super.h"
#include "f2fs/zone.h"
#include "tools/common/common.h"
#include "tools/common/fields.h"
#include "tools/common/target.h"
#include "tools/common/json.h"
#include "tools/common/name.h"
#include "tools/common/progress.h"

#define PROG	      "dump.f2fs"
#define MAX_DIR_DEPTH 4096

static const char *const log_names[F2FS_NR_CURSEG_TYPE] = {"hot_data", "warm_data", "cold_data",
							   "hot_node", "warm_node", "cold_node"};

/* ---- options ---- */

struct range {
	bool set;
	uint64_t start;
	int64_t end; /* -1: to the end */
};

struct options {
	int debug;
	bool have_ino, have_scan, have_blk;
	uint32_t ino, scan_ino;
	uint64_t blkaddr;
	struct range nat, sit, ssa;
	bool map, root, preserve, symlinks, yes, dry_run, sections, json;
	bool sparse; /* -S: the image is an Android sparse image */
	struct progress_request progress;
	const char *outdir;
	const char *device;
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " [options] device\n"
		   "  -d level      print superblock and checkpoint (level >= 1)\n"
		   "  -i ino        show an inode (decimal or 0x hex) and its blocks\n"
		   "  -I ino        the copies of an inode's block, stale ones included\n"
		   "  -n a~b        NAT entries of nids a..b-1 into ./dump_nat (0~-1: all)\n"
		   "  -s a~b        SIT entries of segments a..b-1 into ./dump_sit\n"
		   "  -a a~b        SSA entries of segments a..b-1 into ./dump_ssa\n"
		   "  -b blkaddr    what a block is and who owns it\n"
		   "  -M            segment map (with -i: the file's block map)\n"
		   "  -r            extract the whole tree from the root\n"
		   "  -o dir        where to extract to (default ./lost_found)\n"
		   "  -P            preserve mode, owner and times when extracting\n"
		   "  -L            extract symlinks as symlinks\n"
		   "  -S            the device is an Android sparse image\n"
		   "  -f, -y        do not ask before extracting a file with -i\n"
		   "  -N, --dry-run write nothing: tables to stdout, extraction listed\n"
		   "  --sections    per-section view from a full check\n"
		   "  --json        print one JSON document on stdout\n"
		   "  --progress[=FD]  progress of -r, -I and --sections on stderr, or\n"
		   "                e2fsck's lines on FD\n"
		   "  --no-progress never show progress\n"
		   "  -V            print the version and exit\n");
}

/* "a~b" or "a" (to the end), decimal; b may be -1 (to the end). */
static void parse_range(const struct tool *t, const char *opt, const char *arg, struct range *r)
{
	const char *tilde = strchr(arg, '~');
	char first[32];
	uint64_t v;

	if (tilde) {
		size_t n = (size_t)(tilde - arg);

		if (n == 0 || n >= sizeof(first))
			tool_fail(t, 1,
				  "-%s %s: bad range (expected START~END, decimal; 0~-1 for all)",
				  opt, arg);
		memcpy(first, arg, n);
		first[n] = '\0';
	} else {
		snprintf(first, sizeof(first), "%s", arg);
	}
	if (!tool_parse_u64(first, TOOL_NUM_DEC, UINT32_MAX, &v))
		tool_fail(t, 1, "-%s %s: bad range (expected START~END, decimal; 0~-1 for all)",
			  opt, arg);
	r->set = true;
	r->start = v;
	r->end = -1;
	if (tilde) {
		const char *e = tilde + 1;

		if (!strcmp(e, "-1"))
			return;
		if (!tool_parse_u64(e, TOOL_NUM_DEC, UINT32_MAX, &v))
			tool_fail(t, 1,
				  "-%s %s: bad range (expected START~END, decimal; 0~-1 for all)",
				  opt, arg);
		if (v < r->start)
			tool_fail(t, 1,
				  "-%s %s: bad range: end %" PRIu64 " is before start %" PRIu64,
				  opt, arg, v, r->start);
		r->end = (int64_t)v;
	}
}

/*
 * Is --json among the options?  Looked for before parsing, so that a usage
 * error found before getopt reaches it is reported as a JSON document too.
 */
static bool wants_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

static void parse_args(const struct tool *t, int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
	    {"dry-run", no_argument, NULL, 'N'},      {"sections", no_argument, NULL, 1},
	    {"json", no_argument, NULL, 2},	      {"help", no_argument, NULL, 'h'},
	    {"progress", optional_argument, NULL, 3}, {"no-progress", no_argument, NULL, 4},
	    {"version", no_argument, NULL, 'V'},      {NULL, 0, NULL, 0}};
	int c;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->json = wants_json(argc, argv);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:i:I:n:s:a:b:Mo:rPLfyNSVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC, 9, &v))
				tool_fail(t, 1, "-d %s: debug level must be a number from 0 to 9",
					  optarg);
			o->debug = (int)v;
			break;
		case 'i':
		case 'I':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC | TOOL_NUM_HEX, UINT32_MAX, &v) ||
			    v == 0)
				tool_fail(t, 1, "-%c %s: bad inode number", c, optarg);
			if (c == 'i') {
				o->have_ino = true;
				o->ino = (uint32_t)v;
			} else {
				o->have_scan = true;
				o->scan_ino = (uint32_t)v;
			}
			break;
		case 'n':
			parse_range(t, "n", optarg, &o->nat);
			break;
		case 's':
			parse_range(t, "s", optarg, &o->sit);
			break;
		case 'a':
			parse_range(t, "a", optarg, &o->ssa);
			break;
		case 'b':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC | TOOL_NUM_HEX, UINT32_MAX, &v))
				tool_fail(t, 1, "-b %s: bad block address", optarg);
			o->have_blk = true;
			o->blkaddr = v;
			break;
		case 'M':
			o->map = true;
			break;
		case 'o':
			if (!*optarg)
				tool_fail(t, 1, "-o: empty directory name");
			o->outdir = optarg;
			break;
		case 'r':
			o->root = true;
			break;
		case 'P':
			o->preserve = true;
			break;
		case 'L':
			o->symlinks = true;
			break;
		case 'f':
		case 'y':
			o->yes = true;
			break;
		case 'N':
			o->dry_run = true;
			break;
		case 'S':
			o->sparse = true;
			break;
		case 1:
			o->sections = true;
			break;
		case 2:
			o->json = true;
			break;
		case 3:
			if (!progress_parse(optarg, &o->progress))
				tool_fail(t, 1, "--progress=%s: expected a file descriptor number",
					  optarg);
			break;
		case 4:
			o->progress.mode = PROGRESS_OFF;
			break;
		case 'V':
			printf(PROG " %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			tool_fail(t, 1, "option -%c needs an argument (see --help)", optopt);
		default:
			if (optopt)
				tool_fail(t, 1, "unknown option -%c (see --help)", optopt);
			tool_fail(t, 1, "unknown option %s (see --help)", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		tool_fail(t, 1, "no device given (see --help)");
	if (optind + 1 < argc)
		tool_fail(t, 1, "only one device may be given, found %s and %s", argv[optind],
			  argv[optind + 1]);
	o->device = argv[optind];
	if (o->outdir && !o->root && !o->have_ino)
		tool_fail(t, 1, "-o needs -r (the whole tree) or -i (one file)");
	if (o->root && !o->outdir)
		o->outdir = "./lost_found";
}

/* ---- the volume ---- */

/* Everything one run works with: the options, the messages and the opened volume. */
struct dump {
	struct tool tool;
	struct options opt;
	struct json js;	   /* the document, with --json */
	char failure[256]; /* the first failure that did not stop the run: exit status 1 */
	struct f2fs_device *dev;
	struct f2fs_fs *fs;
	const struct f2fs_super_block *sb;
	const struct f2fs_checkpoint *cp;
	const struct f2fs_geometry *geo;
	const struct f2fs_cp_data *cpd;
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	uint32_t features;
};

/* What a read error of a file, directory or block means. */
/* A read-only volume (feature ro) has no SSA: -a and -b have nothing to ask. */
static bool volume_readonly(const struct dump *d)
{
	return le32_get(d->sb->feature) & F2FS_FEATURE_RO;
}

static const char *read_error(int err)
{
	if (err == -EUCLEAN)
		return "corrupted node tree or address";
	if (err == -ENXIO)
		return "a block lies past the end of the device";
	if (err == -ENOENT)
		return "the inode is free in the NAT";
	return strerror(-err);
}

/* A library error as a reason: the handle's when a load failed, else the errno's. */
static const char *reason(const struct dump *d, int err)
{
	if (err != -ENOMEM && err != -ENXIO && d->fs && f2fs_fs_why(d->fs)[0])
		return f2fs_fs_why(d->fs);
	return read_error(err);
}

static void note_failure(struct dump *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Remember that the run fails (exit status 1) though it goes on; the first reason is kept. */
static void note_failure(struct dump *d, const char *fmt, ...)
{
	va_list ap;

	if (d->failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(d->failure, sizeof(d->failure), fmt, ap);
	va_end(ap);
}

/* tool_fail's hook: with --json, the failure ends the document as its "error" member. */
static void end_json_on_fail(void *arg, int status, const char *message)
{
	struct dump *d = arg;

	(void)status;
	if (d->opt.json)
		json_fail(&d->js, message);
}

/* Open the volume and load every table: each mode reads some, and a broken one is refused up front.
 */
static void open_volume(struct dump *d)
{
	char why[256] = "", not_f2fs[400];
	int ret;

	d->tool.image = d->opt.device;
	d->tool.sparse = d->opt.sparse;
	if (d->opt.sparse)
		tool_check_sparse_support(&d->tool, 1);
	tool_check_target(&d->tool, TOOL_READS, 1);
	d->dev = tool_open_for_reading(&d->tool, 1);
	ret = f2fs_fs_open(d->dev, F2FS_FS_READ | F2FS_FS_SHORT_DEVICE, &d->fs, why, sizeof(why));
	if (ret) {
		tool_not_f2fs_reason(&d->tool, ret, why, not_f2fs, sizeof(not_f2fs));
		tool_fail_image(&d->tool, 1, "%s", not_f2fs);
	}
	ret = f2fs_fs_load_all(d->fs);
	if (!ret)
		ret = f2fs_fs_cp_data(d->fs, &d->cpd);
	if (!ret)
		ret = f2fs_fs_sit(d->fs, &d->sit);
	if (!ret)
		ret = f2fs_fs_nat(d->fs, &d->nat);
	if (ret)
		tool_fail_image(&d->tool, 1, "%s", reason(d, ret));
	d->sb = f2fs_fs_sb(d->fs);
	d->cp = f2fs_fs_cp(d->fs);
	d->geo = f2fs_fs_geo(d->fs);
	d->features = f2fs_fs_features(d->fs);
}

/* A cut image is read as far as it goes: say so once. */
static void warn_truncated(struct dump *d)
{
	if (f2fs_fs_truncated(d->fs))
		tool_warn(&d->tool,
			  "the device holds %" PRIu64 " of the volume's %" PRIu64
			  " blocks (truncated?): blocks past its end cannot be read",
			  f2fs_fs_device_blocks(d->fs), (uint64_t)le64_get(d->sb->block_count));
}

static void close_volume(struct dump *d)
{
	f2fs_fs_close(d->fs);
	f2fs_dev_close(d->dev);
}

static bool read_block(const struct dump *d, uint64_t blkaddr, void *buf)
{
	return f2fs_dev_read(d->dev, buf, f2fs_blk_to_bytes(d->geo, blkaddr),
			     d->geo->blk.blksize) == 0;
}

static uint32_t main_segs(const struct dump *d)
{
	return f2fs_sit_segments(d->sit);
}

/* Fatal message for a nid that cannot be looked at. */
static void check_ino_arg(const struct dump *d, const char *opt, uint32_t ino, bool need_used)
{
	const struct f2fs_nat_info *e = f2fs_nat_get(d->nat, ino);

	if (!e)
		tool_fail(&d->tool, 1, "%s %u: inode number is outside the NAT (max nid %u)", opt,
			  ino, f2fs_nat_max_nid(d->nat) - 1);
	if (need_used && e->blkaddr == F2FS_NULL_ADDR)
		tool_fail(&d->tool, 1, "%s %u: inode %u is free in the NAT", opt, ino, ino);
	if (need_used && e->ino != ino)
		tool_fail(&d->tool, 1, "%s %u: nid %u is a node of inode %u, not an inode", opt,
			  ino, ino, e->ino);
}

/* Clamp and check a table range against @limit entries. */
static void resolve_range(const struct tool *t, const char *opt, struct range *r, uint64_t limit,
			  const char *what)
{
	if (r->end == -1)
		r->end = (int64_t)limit;
	if ((uint64_t)r->end > limit)
		tool_fail(t, 1,
			  "-%s %" PRIu64 "~%" PRId64 ": end is past the last %s (%" PRIu64 ")", opt,
			  r->start, r->end, what, limit);
	if (r->start > (uint64_t)r->end)
		tool_fail(t, 1, "-%s %" PRIu64 "~%" PRId64 ": start is past the end", opt, r->start,
			  r->end);
}

/* ---- output ---- */

struct out {
	FILE *f;
	struct json *j; /* NULL: text */
};

/* Field listings (-d, -i) in upstream's debug form, or JSON. */
static struct fields_out fields_out(const struct dump *d, const struct out *o)
{
	struct fields_out fo = {.form = o->j ? FIELDS_JSON : FIELDS_DEBUG,
				.f = o->f,
				.j = o->j,
				.features = d->features,
				.bg = &d->geo->blk};

	return fo;
}

/* The checkpoint flags, named as upstream's "checkpoint state" line. */
static void cp_state(uint32_t flag, char *buf, size_t len)
{
	unsigned int i;
	uint32_t bit;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; (bit = f2fs_cp_flag_bit(i)); i++)
		if (flag & bit)
			o += (size_t)snprintf(buf + o, len - o, " %s", f2fs_cp_flag_name(bit));
	if (!(flag & CP_UMOUNT_FLAG))
		snprintf(buf + o, len - o, " sudden-power-off");
}

/* ---- -n: NAT ---- */

static int nat_pack(const struct dump *d, uint32_t nid)
{
	uint32_t blk = nid / d->geo->blk.nat_per_block;

	if (blk / 8 >= d->cpd->nat_bitmap_bytes)
		return 1;
	return f2fs_test_bit_msb(d->cpd->nat_bitmap, blk) ? 2 : 1;
}

static void dump_nat(const struct dump *d, const struct range *r, struct out *o)
{
	struct f2fs_node *n = f2fs_block_alloc(d->fs);
	uint32_t node_ino = le32_get(d->sb->node_ino), meta_ino = le32_get(d->sb->meta_ino);
	uint64_t nid;

	if (!n)
		tool_fail(&d->tool, 1, "out of memory");
	if (o->j)
		json_array(o->j, "nat");
	for (nid = r->start; nid < (uint64_t)r->end; nid++) {
		const struct f2fs_nat_info *e = f2fs_nat_get(d->nat, (uint32_t)nid);
		uint32_t ofs = 0;

		if (nid == 0 || nid == node_ino || nid == meta_ino || !e || !e->blkaddr)
			continue;
		if (read_block(d, e->blkaddr, n))
			ofs = f2fs_node_ofs(&d->geo->blk, n);
		if (o->j) {
			json_object(o->j, NULL);
			json_u64(o->j, "nid", nid);
			json_u64(o->j, "ino", e->ino);
			json_u64(o->j, "offset", ofs);
			json_u64(o->j, "blkaddr", e->blkaddr);
			json_u64(o->j, "version", e->version);
			json_u64(o->j, "pack", (uint64_t)nat_pack(d, (uint32_t)nid));
			json_bool(o->j, "journal", e->from_journal);
			json_end(o->j);
		} else {
			fprintf(o->f, "nid:%5u\tino:%5u\toffset:%5u\tblkaddr:%10u\tpack:%d\n",
				(unsigned int)nid, e->ino, ofs, e->blkaddr,
				nat_pack(d, (uint32_t)nid));
		}
	}
	if (o->j)
		json_end(o->j);
	free(n);
}

/* ---- -s: SIT ---- */

static void dump_sit(const struct dump *d, const struct range *r, struct out *o)
{
	uint64_t segno, valid_blocks = 0;
	uint32_t free_segs = 0;
	int i;

	if (o->j) {
		json_object(o->j, "sit");
		json_array(o->j, "segments");
	} else {
		fprintf(o->f, "segment_type(0:HD, 1:WD, 2:CD, 3:HN, 4:WN, 5:CN)\n");
	}
	for (segno = r->start; segno < (uint64_t)r->end; segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(d->sit, (uint32_t)segno);
		uint32_t sit_blk = (uint32_t)(segno / d->geo->blk.sit_per_block);
		int pack = sit_blk / 8 < d->cpd->sit_bitmap_bytes &&
				   f2fs_test_bit_msb(d->cpd->sit_bitmap, sit_blk)
			       ? 2
			       : 1;

		if (se->valid == 0)
			free_segs++;
		else
			valid_blocks += se->valid;
		if (o->j) {
			char hex[F2FS_SIT_VBLOCK_MAP_SIZE * 2 + 1];

			for (i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++)
				snprintf(hex + 2 * i, 3, "%02x", se->map[i]);
			json_object(o->j, NULL);
			json_u64(o->j, "segno", segno);
			json_u64(o->j, "vblocks", se->valid);
			json_u64(o->j, "seg_type", se->type);
			json_u64(o->j, "sit_pack", (uint64_t)pack);
			json_u64(o->j, "mtime", se->mtime);
			json_str(o->j, "bitmap", hex);
			json_end(o->j);
			continue;
		}
		fprintf(o->f, "\nsegno:%8u\tvblocks:%3u\tseg_type:%d\tsit_pack:%d\n\n",
			(unsigned int)segno, se->valid, se->type, pack);
		if (se->valid == 0)
			continue;
		for (i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++) {
			fprintf(o->f, "  %02x", se->map[i]);
			if (i % 16 == 15)
				fputc('\n', o->f);
		}
	}
	if (o->j) {
		json_end(o->j);
		json_u64(o->j, "valid_blocks", valid_blocks);
		json_u64(o->j, "valid_segs", main_segs(d) - free_segs);
		json_u64(o->j, "free_segs", free_segs);
		json_end(o->j);
	} else {
		fprintf(o->f, "valid_blocks:[0x%" PRIx64 "]\tvalid_segs:%d\t free_segs:%d\n",
			valid_blocks, (int)(main_segs(d) - free_segs), (int)free_segs);
	}
}

/* ---- -a: SSA ---- */

/* How upstream names a segment's summary ("Current Node"...), or NULL for a broken one. */
static const char *summary_name(const struct f2fs_segment_summary *s)
{
	if (s->open_log >= 0)
		return s->kind == F2FS_SUM_NODE ? "Current Node" : "Current Data";
	if (s->kind == F2FS_SUM_NODE)
		return "Node";
	return s->kind == F2FS_SUM_DATA ? "Data" : NULL;
}

static void dump_ssa(struct dump *d, const struct range *r, struct out *o)
{
	uint64_t segno;
	int i;

	if (o->j) {
		json_object(o->j, "ssa");
		json_u64(o->j, "main_blkaddr", d->geo->main_blkaddr);
		json_array(o->j, "segments");
	} else {
		fprintf(o->f, "Note: dump.f2fs -b blkaddr = 0x%x + segno *  0x200 + offset\n",
			d->geo->main_blkaddr);
	}
	for (segno = r->start; segno < (uint64_t)r->end; segno++) {
		struct f2fs_segment_summary ss;
		const struct f2fs_summary_block *sum;
		const char *kind;

		if (f2fs_segment_summary(d->fs, (uint32_t)segno, &ss)) {
			tool_warn(&d->tool, "SSA block of segment %" PRIu64 " could not be read",
				  segno);
			continue;
		}
		sum = ss.blk;
		kind = summary_name(&ss);
		if (o->j) {
			json_object(o->j, NULL);
			json_u64(o->j, "segno", segno);
			json_str(o->j, "type", kind ? kind : "Unknown");
			json_array(o->j, "entries");
			for (i = 0; i < F2FS_ENTRIES_IN_SUM; i++) {
				json_object(o->j, NULL);
				json_u64(o->j, "nid", le32_get(sum->entries[i].nid));
				json_u64(o->j, "version", sum->entries[i].version);
				json_u64(o->j, "ofs_in_node",
					 le16_get(sum->entries[i].ofs_in_node));
				json_end(o->j);
			}
			json_end(o->j);
			json_end(o->j);
			continue;
		}
		if (kind)
			fprintf(o->f, "\n\nsegno: %x, %s\n", (unsigned int)segno, kind);
		for (i = 0; i < F2FS_ENTRIES_IN_SUM; i++) {
			if (i % 10 == 0)
				fputc('\n', o->f);
			fprintf(o->f, "[%3d: %6x]", i, le32_get(sum->entries[i].nid));
		}
	}
	if (o->j) {
		json_end(o->j);
		json_end(o->j);
	}
}

/* ---- -i: one inode ---- */

static const char *file_type_name(uint16_t mode)
{
	static const char *const names[F2FS_FT_MAX] = {
	    [F2FS_FT_UNKNOWN] = "unknown", [F2FS_FT_REG_FILE] = "regular",
	    [F2FS_FT_DIR] = "directory",   [F2FS_FT_CHRDEV] = "chardev",
	    [F2FS_FT_BLKDEV] = "blockdev", [F2FS_FT_FIFO] = "fifo",
	    [F2FS_FT_SOCK] = "socket",	   [F2FS_FT_SYMLINK] = "symlink",
	};

	return names[f2fs_mode_file_type(mode)];
}

struct extent_acc {
	struct out *o;
	uint64_t fofs; /* first file block of the run */
	uint32_t blk;  /* first address of the run (0: none pending) */
	uint32_t len;
	uint64_t blocks;  /* addresses seen */
	uint64_t limit;	  /* -M: file blocks inside i_size */
	uint64_t next;	  /* -M: next file block to print */
	uint64_t max_gap; /* -M: longest run of holes shown */
	bool map;
};

static void extent_flush(struct extent_acc *a)
{
	if (!a->len)
		return;
	if (a->o->j) {
		json_object(a->o->j, NULL);
		json_u64(a->o->j, "fofs", a->fofs);
		if (a->blk == F2FS_NEW_ADDR)
			json_str(a->o->j, "blkaddr", "new");
		else if (a->blk == F2FS_COMPRESS_ADDR)
			json_str(a->o->j, "blkaddr", "compressed");
		else
			json_u64(a->o->j, "blkaddr", a->blk);
		json_u64(a->o->j, "len", a->len);
		json_end(a->o->j);
	} else if (a->map) {
		if (a->len == 1)
			fprintf(a->o->f, " %u", a->blk);
		else
			fprintf(a->o->f, " %u-%u", a->blk, a->blk + a->len - 1);
	} else if (a->blk == F2FS_NEW_ADDR || a->blk == F2FS_COMPRESS_ADDR) {
		fprintf(a->o->f, "extent: fofs:%" PRIu64 "\tblkaddr:%s\tlen:%u\n", a->fofs,
			a->blk == F2FS_NEW_ADDR ? "NEW_ADDR" : "COMPRESS_ADDR", a->len);
	} else {
		fprintf(a->o->f, "extent: fofs:%" PRIu64 "\tblkaddr:0x%x\tlen:%u\n", a->fofs,
			a->blk, a->len);
	}
	a->len = 0;
}

/*
 * -M holes print as " 0", one per missing block, like upstream's block map,
 * which shows the NULL addresses of the nodes it reads.  A gap longer than
 * one direct node is taken as absent nodes, which upstream does not show
 * either; this also bounds the output when i_size is corrupted.
 */
static void map_holes(struct extent_acc *a, uint64_t upto)
{
	if (upto > a->limit)
		upto = a->limit;
	if (upto <= a->next || upto - a->next > a->max_gap) {
		a->next = upto > a->next ? upto : a->next;
		return;
	}
	while (a->next < upto) {
		extent_flush(a);
		fprintf(a->o->f, " 0");
		a->next++;
	}
}

static int extent_add(uint64_t fblk, uint32_t blkaddr, void *arg)
{
	struct extent_acc *a = arg;
	bool real = blkaddr != F2FS_NEW_ADDR && blkaddr != F2FS_COMPRESS_ADDR;

	a->blocks++;
	if (a->map) {
		if (fblk >= a->limit)
			return 0;
		map_holes(a, fblk);
		a->next = fblk + 1;
		if (!real) {
			extent_flush(a);
			fprintf(a->o->f, " 0");
			return 0;
		}
	}
	if (a->len && real && a->blk != F2FS_NEW_ADDR && a->blk != F2FS_COMPRESS_ADDR &&
	    a->fofs + a->len == fblk && a->blk + a->len == blkaddr) {
		a->len++;
		return 0;
	}
	if (a->len && !real && a->blk == blkaddr && a->fofs + a->len == fblk) {
		a->len++;
		return 0;
	}
	extent_flush(a);
	a->fofs = fblk;
	a->blk = blkaddr;
	a->len = 1;
	return 0;
}

static void print_inode(const struct dump *d, const struct f2fs_node *n, struct out *o)
{
	struct fields_out fo = fields_out(d, o);

	if (o->j) {
		json_u64(o->j, "ino", f2fs_footer_ino(&d->geo->blk, n));
		json_str(o->j, "type", file_type_name(le16_get(n->i.i_mode)));
	}
	fields_print_inode(&fo, &n->i);
}

/* The file's blocks as extents (or, with -M, upstream's one-line block map). */
static int print_file_blocks(const struct dump *d, const struct f2fs_node *n, struct out *o,
			     bool map)
{
	struct extent_acc a = {
	    .o = o, .map = map, .max_gap = f2fs_direct_addrs(&d->geo->blk, &n->i)};
	uint64_t size = le64_get(n->i.i_size);
	int ret;

	a.limit = size / d->geo->blk.blksize + (size % d->geo->blk.blksize != 0);
	if (n->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		a.limit = 0; /* inline: no blocks, and no holes to show */
	if (o->j)
		json_array(o->j, "extents");
	else if (!map)
		fprintf(o->f, "File blocks (extents of consecutive addresses):\n");
	ret = f2fs_file_for_each_block(d->fs, n, extent_add, &a);
	if (map && !o->j)
		map_holes(&a, a.limit);
	extent_flush(&a);
	if (o->j) {
		json_end(o->j);
		json_u64(o->j, "data_blocks", a.blocks);
	} else if (map) {
		fputc('\n', o->f);
	} else {
		fprintf(o->f, "data blocks: %" PRIu64 "\n", a.blocks);
	}
	return ret;
}

/* ---- extraction (-r, and -i with -y) ---- */

/* A file or directory that could not be extracted (kept for the JSON report). */
struct failure {
	char *path; /* as bytes */
	uint32_t ino;
	char *why;
};

struct extract {
	struct dump *d;
	uint8_t *dir_seen; /* one byte per nid: directory already extracted */
	char **link_path;  /* per nid: where a multiply-linked file went */
	uint32_t nids;	   /* entries of both */
	uint64_t files, dirs, symlinks, specials, bytes, errors;
	uint64_t xattrs;	/* restored */
	uint64_t nodump;	/* files and directories skipped for their nodump flag */
	uint64_t visited;	/* directory entries followed, for the progress display */
	struct failure *failed; /* with --json */
	size_t nfailed, failed_cap;
};

struct write_ctx {
	struct extract *x;
	int fd;
};

static int write_data(uint64_t off, const void *data, size_t len, void *arg)
{
	struct write_ctx *w = arg;
	ssize_t r = pwrite(w->fd, data, len, (off_t)off);

	if (r != (ssize_t)len)
		return r < 0 ? -errno : -EIO;
	w->x->bytes += len;
	return 0;
}

/* The content of a regular file or symlink into @fd (inline or in blocks). */
static int write_content(struct extract *x, const struct f2fs_node *n, int fd)
{
	struct write_ctx w = {.x = x, .fd = fd};
	int ret;

	ret = f2fs_file_for_each_data(x->d->fs, n, write_data, &w);
	if (ret)
		return ret;
	if (ftruncate(fd, (off_t)le64_get(n->i.i_size)))
		return -errno;
	return 0;
}

/* @path as shown in messages (name.h's escapes), in a buffer the caller frees; NULL: no memory. */
static char *shown_path(const char *path)
{
	size_t len = strlen(path), cap = 4 * len + 1;
	char *out = malloc(cap);

	return out ? tool_escape_name(out, cap, path, len) : NULL;
}

static void xwarn(struct extract *x, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning about @path: "PATH: MESSAGE", the path escaped. */
static void xwarn(struct extract *x, const char *path, const char *fmt, ...)
{
	char msg[512], *shown = shown_path(path);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tool_warn(&x->d->tool, "%s: %s", shown ? shown : "(out of memory)", msg);
	free(shown);
}

/* Remember a failure for the JSON report (best effort: no memory, no entry). */
static void record_failure(struct extract *x, const char *path, uint32_t ino, const char *why)
{
	struct failure *f;

	if (!x->d->opt.json)
		return;
	if (x->nfailed == x->failed_cap) {
		size_t cap = x->failed_cap ? 2 * x->failed_cap : 16;

		f = realloc(x->failed, cap * sizeof(*f));
		if (!f)
			return;
		x->failed = f;
		x->failed_cap = cap;
	}
	f = &x->failed[x->nfailed];
	f->path = strdup(path);
	f->why = strdup(why);
	f->ino = ino;
	if (f->path && f->why)
		x->nfailed++;
	else {
		free(f->path);
		free(f->why);
	}
}

static void xfail(struct extract *x, const char *path, uint32_t ino, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* @path (inode @ino) could not be extracted: one line on stderr, counted, and recorded. */
static void xfail(struct extract *x, const char *path, uint32_t ino, const char *fmt, ...)
{
	char why[512], *shown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	shown = shown_path(path);
	tool_warn(&x->d->tool, "%s (inode %u): %s", shown ? shown : "(out of memory)", ino, why);
	free(shown);
	record_failure(x, path, ino, why);
	x->errors++;
}

struct xattr_ctx {
	struct extract *x;
	const char *path;
};

/*
 * One xattr onto the copy, as upstream's dump does: the user, trusted and
 * security name spaces (SELinux labels included); the others (POSIX ACLs in
 * the kernel's own form, the kernel's private entries) get a warning.  One
 * the host refuses is a warning too, and the copy goes on.
 */
static int restore_xattr(const struct f2fs_xattr *xa, void *arg)
{
	struct xattr_ctx *c = arg;
	const char *prefix = f2fs_xattr_prefix(xa->index);
	char name[XATTR_NAME_MAX + 1], shown[4 * (XATTR_NAME_MAX + 1)];
	size_t plen;

	if (!prefix) {
		xwarn(c->x, c->path, "Unknown xattr index 0x%x, not restored", xa->index);
		return 0;
	}
	plen = strlen(prefix);
	if (plen + xa->name_len > XATTR_NAME_MAX || memchr(xa->name, 0, xa->name_len)) {
		xwarn(c->x, c->path,
		      "XATTR index 0x%x name too long or holding a NUL, not restored", xa->index);
		return 0;
	}
	memcpy(name, prefix, plen);
	memcpy(name + plen, xa->name, xa->name_len);
	name[plen + xa->name_len] = '\0';
	if (lsetxattr(c->path, name, xa->value, xa->value_len, 0)) {
		int err = errno;

		xwarn(c->x, c->path, "XATTR index 0x%x set xattr failed error %d: %s: %s",
		      xa->index, err, tool_escape_name(shown, sizeof(shown), name, strlen(name)),
		      strerror(err));
		return 0;
	}
	c->x->xattrs++;
	return 0;
}

/* The xattrs of inode @n onto @path (not following a symlink), before its mode is set. */
static void restore_xattrs(struct extract *x, const char *path, const struct f2fs_node *n)
{
	struct xattr_ctx c = {.x = x, .path = path};
	int ret = f2fs_file_for_each_xattr(x->d->fs, n, restore_xattr, &c);

	if (ret == -EUCLEAN)
		xwarn(x, path, "xattr entry crosses the end of xattr space, the rest not restored");
	else if (ret)
		xwarn(x, path, "xattrs not restored: %s", read_error(ret));
}

/*
 * A file or directory carrying the nodump flag (chattr +d) is left out
 * with all it holds, as upstream leaves it; upstream says so only from
 * debug level 1 when it walks a tree, and so do we.
 */
static void skip_nodump(struct extract *x, const char *path)
{
	const struct options *opt = &x->d->opt;

	x->nodump++;
	if (opt->json || (!opt->dry_run && opt->debug < 1))
		return;
	progress_clear(x->d->tool.progress);
	fputs(opt->dry_run ? "would skip " : "File has nodump flag: ", stdout);
	tool_put_name(stdout, path, strlen(path));
	fputs(opt->dry_run ? " (nodump flag)\n" : "\n", stdout);
}

static void apply_attrs(struct extract *x, const char *path, const struct f2fs_inode *ri,
			bool is_link)
{
	struct timespec ts[2];

	if (!x->d->opt.preserve)
		return;
	if (lchown(path, le32_get(ri->i_uid), le32_get(ri->i_gid)) && errno != EPERM)
		xwarn(x, path, "cannot set owner: %s", strerror(errno));
	if (!is_link && chmod(path, le16_get(ri->i_mode) & 07777))
		xwarn(x, path, "cannot set mode: %s", strerror(errno));
	ts[0].tv_sec = (time_t)le64_get(ri->i_atime);
	ts[0].tv_nsec = le32_get(ri->i_atime_nsec) % 1000000000u;
	ts[1].tv_sec = (time_t)le64_get(ri->i_mtime);
	ts[1].tv_nsec = le32_get(ri->i_mtime_nsec) % 1000000000u;
	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW))
		xwarn(x, path, "cannot set times: %s", strerror(errno));
}

static void extract_dir(struct extract *x, uint32_t ino, const char *path, int depth);

static void extract_symlink(struct extract *x, uint32_t ino, const struct f2fs_node *n,
			    const char *path)
{
	char target[F2FS_MAX_BLKSIZE + 1];
	int ret;

	ret = f2fs_symlink_target(x->d->fs, n, target, sizeof(target));
	if (ret) {
		xfail(x, path, ino, "not extracted: %s", read_error(ret));
		return;
	}
	unlink(path);
	if (symlink(target, path)) {
		xfail(x, path, ino, "cannot create the symlink: %s", strerror(errno));
		return;
	}
	restore_xattrs(x, path, n);
	apply_attrs(x, path, &n->i, true);
	x->symlinks++;
}

/*
 * A regular file (or a symlink extracted as a file).  One whose contents
 * cannot all be read is removed again: what is left in the output
 * directory is complete.
 */
static void extract_file(struct extract *x, uint32_t ino, const struct f2fs_node *n,
			 const char *path)
{
	const struct f2fs_inode *ri = &n->i;
	uint16_t mode = le16_get(ri->i_mode);
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		xfail(x, path, ino, "cannot create: %s", strerror(errno));
		return;
	}
	ret = write_content(x, n, fd);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret) {
		unlink(path);
		xfail(x, path, ino, "not extracted: %s", read_error(ret));
		return;
	}
	restore_xattrs(x, path, n);
	apply_attrs(x, path, ri, false);
	if (S_ISLNK(mode))
		x->symlinks++;
	else
		x->files++;
	if (S_ISREG(mode) && le32_get(ri->i_links) > 1 && !x->link_path[ino])
		x->link_path[ino] = strdup(path);
}

static void extract_special(struct extract *x, uint32_t ino, const struct f2fs_node *n,
			    const char *path)
{
	const struct f2fs_inode *ri = &n->i;
	uint16_t mode = le16_get(ri->i_mode);
	dev_t rdev = 0;

	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		uint32_t major, minor;

		f2fs_inode_devnum(ri, &major, &minor);
		rdev = makedev(major, minor);
	}
	if (S_ISSOCK(mode)) {
		xwarn(x, path, "sockets are not extracted");
		return;
	}
	unlink(path);
	if (mknod(path, (mode & S_IFMT) | 0600, rdev)) {
		xfail(x, path, ino, "cannot create %s: %s", file_type_name(mode), strerror(errno));
		return;
	}
	restore_xattrs(x, path, n);
	apply_attrs(x, path, ri, false);
	x->specials++;
}

/* -N: what would be written, counted as if it were. */
static void list_inode(struct extract *x, const struct f2fs_inode *ri, const char *path)
{
	uint16_t mode = le16_get(ri->i_mode);

	if (!x->d->opt.json) {
		fputs("would write ", stdout);
		tool_put_name(stdout, path, strlen(path));
		printf(" (%s, %" PRIu64 " bytes)\n", file_type_name(mode),
		       (uint64_t)le64_get(ri->i_size));
	}
	if (S_ISREG(mode))
		x->files++;
	else if (S_ISLNK(mode))
		x->symlinks++;
	else
		x->specials++;
	x->bytes += le64_get(ri->i_size);
}

/* Extract inode @ino (already read into @n) to @path. */
static void extract_inode(struct extract *x, uint32_t ino, struct f2fs_node *n, const char *path,
			  int depth)
{
	const struct options *opt = &x->d->opt;
	const struct f2fs_inode *ri = &n->i;
	uint16_t mode = le16_get(ri->i_mode);

	/* the kernel marks encryption in i_advise, not i_flags */
	if (ri->i_advise & F2FS_FADVISE_ENCRYPT || le32_get(ri->i_flags) & F2FS_ENCRYPT_FL) {
		xfail(x, path, ino, "encrypted, skipped");
		return;
	}
	if (S_ISDIR(mode)) {
		extract_dir(x, ino, path, depth + 1);
		return;
	}
	if (le32_get(ri->i_flags) & F2FS_NODUMP_FL) {
		skip_nodump(x, path);
		return;
	}
	if (opt->dry_run) {
		progress_clear(x->d->tool.progress);
		list_inode(x, ri, path);
		return;
	}
	if (S_ISREG(mode) && le32_get(ri->i_links) > 1 && x->link_path[ino]) {
		unlink(path);
		if (!link(x->link_path[ino], path)) {
			x->files++;
			return;
		}
		/* fall back to a copy */
	}
	if (S_ISLNK(mode) && opt->symlinks)
		extract_symlink(x, ino, n, path);
	else if (S_ISREG(mode) || S_ISLNK(mode))
		extract_file(x, ino, n, path);
	else if (S_ISFIFO(mode) || S_ISCHR(mode) || S_ISBLK(mode) || S_ISSOCK(mode))
		extract_special(x, ino, n, path);
	else
		xfail(x, path, ino, "unknown file type (mode 0%o), skipped", mode);
}

struct dir_ctx {
	struct extract *x;
	const char *path;
	int depth;
};

static int extract_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct dir_ctx *dc = arg;
	struct extract *x = dc->x;
	size_t plen = strlen(dc->path);
	char *child;
	struct f2fs_node *n;
	int ret;

	(void)type;
	child = malloc(plen + len + 2);
	n = f2fs_block_alloc(x->d->fs);
	if (!child || !n) {
		free(child);
		free(n);
		return -ENOMEM;
	}
	memcpy(child, dc->path, plen);
	child[plen] = '/';
	memcpy(child + plen + 1, name, len);
	child[plen + 1 + len] = '\0';
	if (++x->visited < le32_get(x->d->cp->valid_inode_count))
		f2fs_fs_progress(x->d->fs, 1, 1, "extracting", x->visited,
				 le32_get(x->d->cp->valid_inode_count));
	if (memchr(name, '/', len) || strlen(name) != len)
		xfail(x, child, ino, "a '/' or NUL in the name, skipped");
	else if (plen + 1 + len >= PATH_MAX)
		xfail(x, child, ino, "path too long, skipped");
	else if ((ret = f2fs_read_inode(x->d->fs, ino, n)))
		xfail(x, child, ino, "not extracted: %s", read_error(ret));
	else
		extract_inode(x, ino, n, child, dc->depth);
	free(n);
	free(child);
	return 0;
}

static void extract_dir(struct extract *x, uint32_t ino, const char *path, int depth)
{
	const struct options *opt = &x->d->opt;
	struct dir_ctx dc = {.x = x, .path = path, .depth = depth};
	struct f2fs_node *n;
	int ret;

	if (depth > MAX_DIR_DEPTH) {
		xfail(x, path, ino, "directories nested deeper than %d, skipped", MAX_DIR_DEPTH);
		return;
	}
	if (x->dir_seen[ino]) {
		xfail(x, path, ino, "directory already extracted (a loop), skipped");
		return;
	}
	x->dir_seen[ino] = 1;
	n = f2fs_block_alloc(x->d->fs);
	if (!n) {
		xfail(x, path, ino, "out of memory");
		return;
	}
	ret = f2fs_read_inode(x->d->fs, ino, n);
	if (ret) {
		xfail(x, path, ino, "not extracted: %s", read_error(ret));
		free(n);
		return;
	}
	if (le32_get(n->i.i_flags) & F2FS_NODUMP_FL) {
		skip_nodump(x, path);
		free(n);
		return;
	}
	if (opt->dry_run) {
		progress_clear(x->d->tool.progress);
		if (!opt->json) {
			fputs("would create ", stdout);
			tool_put_name(stdout, path, strlen(path));
			fputs("/\n", stdout);
		}
	} else if (mkdir(path, 0777) && errno != EEXIST) {
		xfail(x, path, ino, "cannot create the directory: %s", strerror(errno));
		free(n);
		return;
	}
	x->dirs++;
	ret = f2fs_dir_for_each_entry(x->d->fs, n, extract_entry, &dc);
	if (ret)
		xfail(x, path, ino, "directory not complete: %s", read_error(ret));
	if (!opt->dry_run) {
		restore_xattrs(x, path, n);
		apply_attrs(x, path, &n->i, false);
	}
	free(n);
}

static int extract_setup(struct extract *x, struct dump *d)
{
	memset(x, 0, sizeof(*x));
	x->d = d;
	x->nids = f2fs_nat_max_nid(d->nat);
	x->dir_seen = calloc(x->nids, 1);
	x->link_path = calloc(x->nids, sizeof(char *));
	if (!x->dir_seen || !x->link_path)
		return -ENOMEM;
	return 0;
}

static void extract_free(struct extract *x)
{
	uint32_t i;
	size_t k;

	if (x->link_path)
		for (i = 0; i < x->nids; i++)
			free(x->link_path[i]);
	free(x->link_path);
	free(x->dir_seen);
	for (k = 0; k < x->nfailed; k++) {
		free(x->failed[k].path);
		free(x->failed[k].why);
	}
	free(x->failed);
}

static void extract_report(const struct extract *x, struct out *o, const char *root)
{
	size_t k;

	if (o->j) {
		json_object(o->j, "extract");
		json_name(o->j, "outdir", root, strlen(root));
		json_bool(o->j, "dry_run", x->d->opt.dry_run);
		json_u64(o->j, "dirs", x->dirs);
		json_u64(o->j, "files", x->files);
		json_u64(o->j, "symlinks", x->symlinks);
		json_u64(o->j, "specials", x->specials);
		json_u64(o->j, "bytes", x->bytes);
		json_u64(o->j, "errors", x->errors);
		json_u64(o->j, "xattrs", x->xattrs);
		json_u64(o->j, "nodump", x->nodump);
		json_array(o->j, "failed");
		for (k = 0; k < x->nfailed; k++) {
			json_object(o->j, NULL);
			json_name(o->j, "path", x->failed[k].path, strlen(x->failed[k].path));
			json_u64(o->j, "ino", x->failed[k].ino);
			json_str(o->j, "error", x->failed[k].why);
			json_end(o->j);
		}
		json_end(o->j);
		json_end(o->j);
	} else {
		fputs("Extracted into ", stdout);
		tool_put_name(stdout, root, strlen(root));
		printf(": %" PRIu64 " directories, %" PRIu64 " files, %" PRIu64
		       " symlinks, %" PRIu64 " special files, %" PRIu64 " bytes, %" PRIu64
		       " errors, %" PRIu64 " xattrs, %" PRIu64 " skipped for nodump\n",
		       x->dirs, x->files, x->symlinks, x->specials, x->bytes, x->errors, x->xattrs,
		       x->nodump);
	}
}
/* ---- -b: one block ---- */

/* The name and size of inode @ino, when it reads back. */
static void node_file_info(const struct dump *d, uint32_t ino, struct out *o)
{
	struct f2fs_node *n = f2fs_block_alloc(d->fs);

	if (!n)
		return;
	if (!f2fs_read_inode(d->fs, ino, n)) {
		uint32_t len = le32_get(n->i.i_namelen);

		if (len > F2FS_NAME_LEN)
			len = 0;
		if (o->j) {
			json_name(o->j, "file_name", n->i.i_name, len);
			json_u64(o->j, "file_size", le64_get(n->i.i_size));
		} else {
			if (len) {
				fputs(" - File name         : ", o->f);
				tool_put_name(o->f, n->i.i_name, len);
				fputc('\n', o->f);
			}
			fprintf(o->f, " - File size         : %" PRIu64 " (bytes)\n",
				(uint64_t)le64_get(n->i.i_size));
		}
	}
	free(n);
}

/* Upstream's names of the areas outside the main area. */
static const char *area_name(enum f2fs_area area)
{
	switch (area) {
	case F2FS_AREA_RESERVED:
		return "FS Reserved Area for SEG #0";
	case F2FS_AREA_META:
		return "FS Metadata Area";
	case F2FS_AREA_SIT:
		return "FS SIT Area";
	case F2FS_AREA_NAT:
		return "FS NAT Area";
	case F2FS_AREA_SSA:
		return "FS SSA Area";
	case F2FS_AREA_PAST_END:
		return "Out of address space";
	case F2FS_AREA_MAIN:
		break;
	}
	return NULL;
}

/* The block's position, SIT state and summary entry. */
static void print_block_place(const struct dump *d, uint64_t b, const struct f2fs_block_owner *ow,
			      struct out *o)
{
	const char *kind = summary_name(&ow->seg);

	if (o->j) {
		json_str(o->j, "area", "main");
		json_u64(o->j, "segno", ow->segno);
		json_u64(o->j, "offset", ow->offset);
		json_bool(o->j, "valid", ow->sit_valid);
		json_str(o->j, "segment_type",
			 ow->seg_type < F2FS_NR_CURSEG_TYPE ? log_names[ow->seg_type] : "invalid");
		json_str(o->j, "summary_type", kind ? kind : "Broken");
		if (ow->seg.open_log >= 0)
			json_str(o->j, "open_log", log_names[ow->seg.open_log]);
		json_u64(o->j, "sum_nid", ow->nid);
		json_u64(o->j, "sum_version", ow->version);
		json_u64(o->j, "sum_ofs_in_node", ow->ofs_in_node);
		return;
	}
	if (!ow->sit_valid)
		fprintf(o->f, "\nblkaddr is not valid\n");
	if (d->opt.debug < 1)
		return;
	fprintf(o->f, "Note: blkaddr = main_blkaddr + segno * 512 + offset\n");
	fprintf(o->f, "Block_addr            [0x%" PRIx64 "]\n", b);
	fprintf(o->f, " - Segno              [0x%x]\n", ow->segno);
	fprintf(o->f, " - Offset             [0x%x]\n", ow->offset);
	fprintf(o->f, "SUM.nid               [0x%x]\n", ow->nid);
	fprintf(o->f, "SUM.type              [%s]\n", kind ? kind : "Broken");
	fprintf(o->f, "SUM.version           [%d]\n", ow->version);
	fprintf(o->f, "SUM.ofs_in_node       [0x%x]\n", ow->ofs_in_node);
	if (ow->in_nat) {
		fprintf(o->f, "NAT.blkaddr           [0x%x]\n", ow->nat_blkaddr);
		fprintf(o->f, "NAT.ino               [0x%x]\n", ow->nat_ino);
	}
}

/* Who owns the block, as upstream's "FS Userdata Area" lines say. */
static void print_block_owner(const struct dump *d, uint64_t b, const struct f2fs_block_owner *ow,
			      struct out *o)
{
	static const char *const owner_names[] = {
	    [F2FS_OWNER_OBSOLETE] = "obsolete",
	    [F2FS_OWNER_DATA] = "data",
	    [F2FS_OWNER_INODE] = "inode",
	    [F2FS_OWNER_NODE] = "node",
	};

	if (o->j)
		json_str(o->j, "owner", owner_names[ow->kind]);
	if (ow->kind == F2FS_OWNER_OBSOLETE) {
		if (!o->j)
			fprintf(o->f, "FS Userdata Area: Obsolete block from 0x%" PRIx64 "\n", b);
		return;
	}
	if (o->j) {
		json_u64(o->j, "nid", ow->nid);
		json_u64(o->j, "nid_blkaddr", ow->nat_blkaddr);
		json_u64(o->j, "ino", ow->ino);
		json_u64(o->j, "ino_blkaddr", ow->ino_blkaddr);
	} else {
		fprintf(o->f, "FS Userdata Area: %s block from 0x%" PRIx64 "\n",
			ow->kind == F2FS_OWNER_DATA ? "Data" : "Node", b);
		if (ow->kind == F2FS_OWNER_DATA)
			fprintf(o->f, " - Direct node block : id = 0x%x from 0x%x\n", ow->nid,
				ow->nat_blkaddr);
		else if (ow->kind == F2FS_OWNER_NODE)
			fprintf(o->f, " - Node block        : id = 0x%x from 0x%x\n", ow->nid,
				ow->nat_blkaddr);
		fprintf(o->f, " - Inode block       : id = 0x%x from 0x%x\n", ow->ino,
			ow->ino_blkaddr);
	}
	node_file_info(d, ow->ino, o);
	if (ow->kind == F2FS_OWNER_DATA && ow->has_file_block) {
		if (o->j)
			json_u64(o->j, "data_offset", ow->file_block);
		else
			fprintf(o->f,
				" - Data offset       : 0x%" PRIx64 " (4KB), %" PRIu64 " (bytes)\n",
				ow->file_block, ow->file_block * d->geo->blk.blksize);
	} else if (ow->kind == F2FS_OWNER_NODE) {
		if (o->j)
			json_u64(o->j, "node_offset", ow->node_ofs);
		else
			fprintf(o->f, " - Node offset       : 0x%x\n", ow->node_ofs);
	}
}

static void dump_blkaddr(const struct dump *d, uint64_t b, struct out *o)
{
	enum f2fs_area area = f2fs_block_area(d->fs, b);
	struct f2fs_block_owner ow;
	int ret;

	if (o->j) {
		json_object(o->j, "block");
		json_u64(o->j, "blkaddr", b);
	} else {
		fprintf(o->f, "\n== Dump data from block address ==\n\n");
	}
	if (area != F2FS_AREA_MAIN) {
		if (o->j) {
			json_str(o->j, "area", area_name(area));
			json_u64(o->j, "main_start", d->geo->main_blkaddr);
			json_u64(o->j, "main_end", d->geo->main_end);
			json_end(o->j);
		} else {
			fprintf(o->f, "\n%s: User data is from 0x%x to 0x%" PRIx64 "\n\n",
				area_name(area), d->geo->main_blkaddr, d->geo->main_end);
		}
		return;
	}
	ret = f2fs_block_owner(d->fs, b, &ow);
	if (ret == -ENODATA && volume_readonly(d))
		tool_fail_image(&d->tool, 1,
				"block 0x%" PRIx64 ": the volume is read-only (feature ro) and has "
				"no SSA to say whose the block is",
				b);
	if (ret)
		tool_fail_image(&d->tool, 1, "block 0x%" PRIx64 ": summary or node block: %s", b,
				reason(d, ret));
	print_block_place(d, b, &ow, o);
	print_block_owner(d, b, &ow, o);
	if (o->j)
		json_end(o->j);
}

/* ---- -I: the copies of an inode's block, stale ones included ---- */

struct scan_ctx {
	struct dump *d;
	struct out *o;
	uint64_t found;
};

/* One copy: upstream's lines (nid, block, footer), our SIT/NAT state, then the inode. */
static int scan_found(const struct f2fs_inode_copy *c, void *arg)
{
	struct scan_ctx *s = arg;
	struct out *o = s->o;
	uint32_t ino = s->d->opt.scan_ino;

	progress_clear(s->d->tool.progress);
	s->found++;
	if (o->j) {
		json_object(o->j, NULL);
		json_u64(o->j, "blkaddr", c->blkaddr);
		json_u64(o->j, "footer_flag", c->flag);
		json_u64(o->j, "cp_ver", c->cp_ver);
		json_bool(o->j, "sit_valid", c->sit_valid);
		json_bool(o->j, "nat_current", c->nat_current);
		json_object(o->j, "inode");
		print_inode(s->d, c->node, o);
		json_end(o->j);
		json_end(o->j);
		return 0;
	}
	fprintf(o->f, "Info: nid: %u, blkaddr: %" PRIu64 "\n", ino, c->blkaddr);
	fprintf(o->f, "node_blk.footer.flag [0x%x]\n", c->flag);
	fprintf(o->f, "node_blk.footer.cp_ver [%x]\n", (uint32_t)c->cp_ver);
	fprintf(o->f, "Info: SIT: %s, NAT: %s\n", c->sit_valid ? "valid" : "invalid",
		c->nat_current ? "current" : "stale");
	print_inode(s->d, c->node, o);
	return 0;
}

static void scan_unreadable(uint64_t blkaddr, int err, void *arg)
{
	struct scan_ctx *s = arg;

	tool_warn(&s->d->tool, "block 0x%" PRIx64 " could not be read: %s", blkaddr,
		  read_error(err));
}

static void scan_inode(struct dump *d, uint32_t ino, struct out *o)
{
	struct scan_ctx s = {.d = d, .o = o};
	int ret;

	if (o->j) {
		json_object(o->j, "scan");
		json_u64(o->j, "ino", ino);
		json_u64(o->j, "main_start", d->geo->main_blkaddr);
		json_u64(o->j, "main_end", d->geo->main_end);
		json_array(o->j, "copies");
	} else {
		fprintf(o->f, "Info: scan all nid: %u from block_addr [%u: %" PRIu64 "]\n", ino,
			d->geo->main_blkaddr, d->geo->main_end);
	}
	ret = f2fs_find_inode_copies(d->fs, ino, scan_found, scan_unreadable, &s);
	progress_clear(d->tool.progress);
	if (ret)
		tool_fail_image(&d->tool, 1, "main area scan: %s", reason(d, ret));
	if (o->j) {
		json_end(o->j);
		json_u64(o->j, "found", s.found);
		json_end(o->j);
	} else {
		fprintf(o->f, "Info: %" PRIu64 " cop%s of inode %u found\n", s.found,
			s.found == 1 ? "y" : "ies", ino);
	}
}

/* ---- -M: segment map ---- */

static void segment_map(const struct dump *d, struct out *o)
{
	uint32_t segno;

	if (o->j)
		json_array(o->j, "segments");
	else
		fprintf(o->f, "Segment map: %u main segments from block 0x%x\n", main_segs(d),
			d->geo->main_blkaddr);
	for (segno = 0; segno < main_segs(d); segno++) {
		const struct f2fs_seg_entry *se = f2fs_sit_seg(d->sit, segno);
		const char *type = se->type < F2FS_NR_CURSEG_TYPE ? log_names[se->type] : "invalid";
		int log = f2fs_cp_log_of_segment(d->cpd, segno);

		if (o->j) {
			json_object(o->j, NULL);
			json_u64(o->j, "segno", segno);
			json_str(o->j, "type", type);
			json_u64(o->j, "valid", se->valid);
			json_u64(o->j, "ckpt_valid", se->ckpt_valid);
			if (log >= 0)
				json_str(o->j, "open_log", log_names[log]);
			json_end(o->j);
		} else {
			fprintf(o->f, "segno:%8u\ttype:%-9s\tvalid:%3u%s%s\n", segno, type,
				se->valid, se->valid == 0 && log < 0 ? "\tfree" : "",
				log >= 0 ? "\tcurseg" : "");
		}
	}
	if (o->j)
		json_end(o->j);
}

/* ---- --sections ---- */

struct sec_acc {
	struct out *o;
	const struct dump *d;
	uint64_t used, valid, ckpt_valid, found, bad;
};

static const char *zone_cond_name(uint8_t cond)
{
	switch (cond) {
	case F2FS_ZONE_NOT_WP:
		return "conventional";
	case F2FS_ZONE_EMPTY:
		return "empty";
	case F2FS_ZONE_IMP_OPEN:
	case F2FS_ZONE_EXP_OPEN:
		return "open";
	case F2FS_ZONE_CLOSED:
		return "closed";
	case F2FS_ZONE_FULL:
		return "full";
	case F2FS_ZONE_READONLY:
		return "readonly";
	case F2FS_ZONE_OFFLINE:
		return "offline";
	default:
		return "unknown";
	}
}

/*
 * On a zoned device, the zone of section @secno: its condition, the blocks
 * written up to its pointer and its capacity in blocks.
 */
static void zone_fields(const struct sec_acc *a, uint32_t secno)
{
	const struct dump *d = a->d;
	uint64_t off = f2fs_blk_to_bytes(d->geo, f2fs_geo_sec_start(d->geo, secno));
	struct f2fs_zone z;
	unsigned int nr = 0;

	if (f2fs_dev_zone_info(d->dev)->model == F2FS_ZONED_NONE ||
	    f2fs_dev_report_zones(d->dev, off, &z, 1, &nr) || nr != 1)
		return;
	if (a->o->j) {
		json_object(a->o->j, "zone");
		json_str(a->o->j, "condition", zone_cond_name(z.cond));
		json_u64(a->o->j, "written", (z.wp - z.start) / a->d->geo->blk.blksize);
		json_u64(a->o->j, "capacity", z.capacity / a->d->geo->blk.blksize);
		json_end(a->o->j);
	} else {
		fprintf(a->o->f, "\tzone:%s\twritten:%" PRIu64 "\tcapacity:%" PRIu64,
			zone_cond_name(z.cond), (z.wp - z.start) / a->d->geo->blk.blksize,
			z.capacity / a->d->geo->blk.blksize);
	}
}

static void on_section(const struct f2fs_section_report *s, void *arg)
{
	struct sec_acc *a = arg;
	struct out *o = a->o;
	const char *type = s->type >= 0 && s->type < F2FS_NR_CURSEG_TYPE ? log_names[s->type]
			   : s->type < 0				 ? "free"
									 : "invalid";
	const char *owner =
	    s->owner_log >= 0 && s->owner_log < F2FS_NR_CURSEG_TYPE ? log_names[s->owner_log] : "-";

	if (!s->sit_valid && !s->sit_ckpt_valid && !s->found)
		return;
	a->used++;
	a->valid += s->sit_valid;
	a->ckpt_valid += s->sit_ckpt_valid;
	a->found += s->found;
	a->bad += s->bad_segments;
	if (o->j) {
		json_object(o->j, NULL);
		json_u64(o->j, "secno", s->secno);
		json_str(o->j, "type", type);
		json_str(o->j, "owner_log", owner);
		json_u64(o->j, "valid", s->sit_valid);
		json_u64(o->j, "ckpt_valid", s->sit_ckpt_valid);
		json_u64(o->j, "found", s->found);
		json_u64(o->j, "bad_segments", s->bad_segments);
		if (s->bad_segments)
			json_u64(o->j, "first_bad_segno", s->first_bad_segno);
		zone_fields(a, s->secno);
		json_end(o->j);
	} else {
		fprintf(o->f,
			"secno:%8u\ttype:%-9s\towner:%-9s\tvalid:%6u\tckpt_valid:%6u\tfound:%6u"
			"\tbad_segs:%u",
			s->secno, type, owner, s->sit_valid, s->sit_ckpt_valid, s->found,
			s->bad_segments);
		if (s->bad_segments)
			fprintf(o->f, "\tfirst_bad_segno:%u", s->first_bad_segno);
		zone_fields(a, s->secno);
		fputc('\n', o->f);
	}
}

static void dump_sections(const struct dump *d, struct out *o)
{
	struct sec_acc a = {.o = o, .d = d};
	struct f2fs_check_options co = {.on_section = on_section, .arg = &a};
	struct f2fs_check_result res;
	uint32_t sections = f2fs_sit_sections(d->sit);
	int ret;

	memset(&res, 0, sizeof(res));
	if (o->j) {
		json_object(o->j, "sections");
		json_u64(o->j, "segs_per_sec", le32_get(d->sb->segs_per_sec));
		json_array(o->j, "used");
	} else {
		fprintf(o->f, "Sections of %u segments (%u sections):\n",
			le32_get(d->sb->segs_per_sec), sections);
	}
	ret = f2fs_check(d->fs, &co, &res);
	progress_clear(d->tool.progress);
	if (ret)
		tool_fail_image(&d->tool, 1, "section check failed: %s",
				res.fatal ? res.fatal_why : strerror(-ret));
	if (o->j) {
		json_end(o->j);
		json_u64(o->j, "sections", sections);
		json_u64(o->j, "used_sections", a.used);
		json_u64(o->j, "valid", a.valid);
		json_u64(o->j, "ckpt_valid", a.ckpt_valid);
		json_u64(o->j, "found", a.found);
		json_u64(o->j, "bad_segments", a.bad);
		json_u64(o->j, "problems", res.problems);
		json_end(o->j);
	} else {
		fprintf(o->f,
			"total: sections:%u\tused:%" PRIu64 "\tvalid:%" PRIu64
			"\tckpt_valid:%" PRIu64 "\tfound:%" PRIu64 "\tbad_segs:%" PRIu64
			"\tproblems:%u\n",
			sections, a.used, a.valid, a.ckpt_valid, a.found, a.bad, res.problems);
	}
}

/* ---- main ---- */

static FILE *open_table(const struct dump *d, const char *name)
{
	FILE *f;

	if (d->opt.dry_run || d->opt.json)
		return stdout;
	f = fopen(name, "w");
	if (!f)
		tool_fail(&d->tool, 1, "cannot create %s: %s", name, strerror(errno));
	return f;
}

static void close_table(const struct dump *d, FILE *f, const char *name)
{
	if (f == stdout)
		return;
	if (ferror(f) | fclose(f))
		tool_fail(&d->tool, 1, "writing %s failed", name);
}

/* Will -i copy the file out?  -y/-f and -N say yes; else only a terminal can be asked. */
static bool may_extract(const struct options *opt)
{
	return opt->yes || opt->dry_run || (!opt->json && isatty(STDIN_FILENO));
}

/* Ask before extracting one file, as upstream does; -y/-f and -N skip the question. */
static bool confirm_extract(const struct options *opt, const char *outdir)
{
	char ans[16];

	if (opt->yes || opt->dry_run)
		return true;
	printf("Do you want to dump this file into %s/? [Y/N] ", outdir);
	fflush(stdout);
	if (!fgets(ans, sizeof(ans), stdin))
		return false;
	return ans[0] == 'y' || ans[0] == 'Y';
}

/* The inode's own name into @name, when it can name a file: not empty, no '/' or NUL, not a dot. */
static bool usable_name(const struct f2fs_inode *ri, char name[F2FS_NAME_LEN + 1])
{
	uint32_t len = le32_get(ri->i_namelen);

	if (len == 0 || len > F2FS_NAME_LEN || memchr(ri->i_name, '/', len) ||
	    memchr(ri->i_name, 0, len))
		return false;
	memcpy(name, ri->i_name, len);
	name[len] = '\0';
	return strcmp(name, ".") && strcmp(name, "..");
}

/* -i on a regular file or symlink: write it under its own name into the output directory. */
static void extract_one(struct dump *d, struct f2fs_node *n, struct out *o)
{
	const struct options *opt = &d->opt;
	const char *outdir = opt->outdir ? opt->outdir : "./lost_found";
	char name[F2FS_NAME_LEN + 1];
	struct extract x;
	char *path;

	if (!may_extract(opt))
		return;
	if (!usable_name(&n->i, name)) {
		tool_warn(&d->tool, "-i %u: the inode has no usable name to dump it under",
			  opt->ino);
		note_failure(d, "inode %u: no usable name to dump it under", opt->ino);
		return;
	}
	if (le32_get(n->i.i_flags) & F2FS_NODUMP_FL) {
		if (!o->j)
			printf("File has nodump flag\n");
		return;
	}
	if (!confirm_extract(opt, outdir))
		return;
	if (!opt->dry_run && mkdir(outdir, 0777) && errno != EEXIST)
		tool_fail(&d->tool, 1, "cannot create %s: %s", outdir, strerror(errno));
	path = malloc(strlen(outdir) + strlen(name) + 2);
	if (!path || extract_setup(&x, d))
		tool_fail(&d->tool, 1, "out of memory");
	sprintf(path, "%s/%s", outdir, name);
	extract_inode(&x, opt->ino, n, path, 0);
	if (x.errors) {
		note_failure(d, "inode %u: the file could not be extracted", opt->ino);
	} else if (!o->j && !opt->dry_run) {
		printf("Dumped inode %u into ", opt->ino);
		tool_put_name(stdout, path, strlen(path));
		putchar('\n');
	}
	extract_free(&x);
	free(path);
}

static void do_inode(struct dump *d, struct out *o)
{
	const struct options *opt = &d->opt;
	struct f2fs_node *n = f2fs_block_alloc(d->fs);
	uint16_t mode;
	int ret, walk = 0;

	if (!n)
		tool_fail(&d->tool, 1, "out of memory");
	ret = f2fs_read_inode(d->fs, opt->ino, n);
	if (ret) {
		free(n); /* the exit below must leave nothing allocated (LeakSanitizer) */
		tool_fail(&d->tool, 1, "-i %u: cannot read inode: %s", opt->ino,
			  ret == -EUCLEAN ? "node block footer or address does not match the NAT"
					  : read_error(ret));
	}
	mode = le16_get(n->i.i_mode);
	if (o->j)
		json_object(o->j, "inode");
	else if (!opt->map)
		fprintf(o->f, "Node ID [0x%x:%u] is inode\n", opt->ino, opt->ino);
	if (!(opt->map && !o->j))
		print_inode(d, n, o);
	if (o->j || opt->map || !(n->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))) {
		walk = print_file_blocks(d, n, o, opt->map);
		if (walk) {
			tool_warn(&d->tool, "inode %u: block walk stopped: %s", opt->ino,
				  read_error(walk));
			note_failure(d, "inode %u: block walk stopped: %s", opt->ino,
				     read_error(walk));
		}
	}
	if (o->j)
		json_end(o->j);
	if ((S_ISREG(mode) || S_ISLNK(mode)) && !opt->map)
		extract_one(d, n, o);
	free(n);
}

/* Everything is validated before anything is written. */
static void check_args(struct dump *d)
{
	struct options *opt = &d->opt;

	if (opt->nat.set)
		resolve_range(&d->tool, "n", &opt->nat, f2fs_nat_max_nid(d->nat), "nid");
	if (opt->sit.set)
		resolve_range(&d->tool, "s", &opt->sit, main_segs(d), "main segment");
	if (opt->ssa.set && volume_readonly(d))
		tool_fail(&d->tool, 1, "-a: the volume is read-only (feature ro) and has no SSA");
	if (opt->ssa.set)
		resolve_range(&d->tool, "a", &opt->ssa, main_segs(d), "main segment");
	if (opt->have_ino)
		check_ino_arg(d, "-i", opt->ino, true);
	if (opt->have_scan)
		check_ino_arg(d, "-I", opt->scan_ino, false);
	if (opt->have_blk && opt->blkaddr >= le64_get(d->sb->block_count))
		tool_fail(&d->tool, 1,
			  "-b %" PRIu64 ": block address is past the end of the volume (%" PRIu64
			  " blocks)",
			  opt->blkaddr, (uint64_t)le64_get(d->sb->block_count));
	if (opt->root) {
		check_ino_arg(d, "root inode", le32_get(d->sb->root_ino), true);
		if (!opt->dry_run && mkdir(opt->outdir, 0777) && errno != EEXIST)
			tool_fail(&d->tool, 1, "cannot create %s: %s", opt->outdir,
				  strerror(errno));
		if (!opt->dry_run) {
			struct stat st;

			if (stat(opt->outdir, &st) || !S_ISDIR(st.st_mode))
				tool_fail(&d->tool, 1, "%s is not a directory", opt->outdir);
		}
	}
}

/* The tables -n, -s and -a write to ./dump_* (or stdout). */
static void dump_tables(struct dump *d, struct out *o)
{
	const struct options *opt = &d->opt;

	if (opt->nat.set) {
		struct out t = {.f = open_table(d, "dump_nat"), .j = o->j};

		dump_nat(d, &opt->nat, &t);
		close_table(d, t.f, "dump_nat");
	}
	if (opt->sit.set) {
		struct out t = {.f = open_table(d, "dump_sit"), .j = o->j};

		dump_sit(d, &opt->sit, &t);
		close_table(d, t.f, "dump_sit");
	}
	if (opt->ssa.set) {
		struct out t = {.f = open_table(d, "dump_ssa"), .j = o->j};

		dump_ssa(d, &opt->ssa, &t);
		close_table(d, t.f, "dump_ssa");
	}
}

int main(int argc, char **argv)
{
	struct dump d = {.tool = {.prog = PROG, .on_fail = end_json_on_fail}};
	const struct options *opt = &d.opt;
	struct progress progress;
	struct json *js = &d.js;
	struct out text = {.f = stdout}, jout = {.f = stdout, .j = js};
	struct out *o;
	char state[256];
	uint32_t flags;

	d.tool.on_fail_arg = &d;
	json_init(js, stdout);
	parse_args(&d.tool, argc, argv, &d.opt);
	o = opt->json ? &jout : &text;
	if (opt->json && opt->progress.mode == PROGRESS_FD && opt->progress.fd == STDOUT_FILENO)
		tool_fail(&d.tool, 1, "--progress=1 would mix progress into the JSON on stdout");
	if (!progress_start(&progress, &opt->progress, opt->device, state, sizeof(state)))
		tool_fail(&d.tool, 1, "--progress=%d: %s", opt->progress.fd, state);
	d.tool.progress = &progress;
	open_volume(&d);
	f2fs_fs_set_progress(d.fs, progress_report, &progress);
	warn_truncated(&d);
	check_args(&d);

	flags = le32_get(d.cp->ckpt_flags);
	cp_state(flags, state, sizeof(state));
	if (opt->json) {
		json_object(js, NULL);
		json_name(js, "device", opt->device, strlen(opt->device));
		json_u64(js, "ckpt_flags", flags);
		json_str(js, "checkpoint_state", state + 1);
		if (f2fs_fs_truncated(d.fs)) {
			json_u64(js, "block_count", le64_get(d.sb->block_count));
			json_u64(js, "device_blocks", f2fs_fs_device_blocks(d.fs));
		}
	}
	if (opt->debug >= 1) {
		struct fields_out fo = fields_out(&d, o);

		fields_print_super(&fo, d.sb);
		fields_print_checkpoint(&fo, d.cp, d.cpd);
	}
	dump_tables(&d, o);
	if (opt->have_blk)
		dump_blkaddr(&d, opt->blkaddr, o);
	if (opt->have_ino)
		do_inode(&d, o);
	if (opt->have_scan)
		scan_inode(&d, opt->scan_ino, o);
	if (opt->map && !opt->have_ino)
		segment_map(&d, o);
	if (opt->sections)
		dump_sections(&d, o);
	if (opt->root) {
		struct extract x;

		if (extract_setup(&x, &d))
			tool_fail(&d.tool, 1, "out of memory");
		f2fs_fs_progress(d.fs, 1, 1, "extracting", 0, le32_get(d.cp->valid_inode_count));
		extract_dir(&x, le32_get(d.sb->root_ino), opt->outdir, 0);
		f2fs_fs_progress(d.fs, 1, 1, "extracting", x.visited, x.visited);
		progress_clear(&progress);
		extract_report(&x, o, opt->outdir);
		if (x.errors)
			note_failure(
			    &d, "%" PRIu64 " of the files and directories could not be extracted",
			    x.errors);
		extract_free(&x);
	}
	if (opt->json) {
		json_u64(js, "warnings", d.tool.warnings);
		if (d.failure[0]) {
			json_object(js, "error");
			json_str(js, "message", d.failure);
			json_end(js);
		}
		json_end(js);
		fputc('\n', stdout);
	} else {
		printf("Info: checkpoint state = %x : %s\n", flags, state);
	}
	progress_finish(&progress);
	close_volume(&d);
	if (fflush(stdout) || ferror(stdout))
		tool_fail(&d.tool, 1, "writing the output failed");
	return d.failure[0] ? 1 : 0;
}
