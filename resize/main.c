// SPDX-License-Identifier: GPL-2.0
/*
 * resize.f2fs: grow a volume into the rest of its device (or to -t
 * sectors), or shrink it with -s, with newest upstream's options and
 * messages.  The work is lib/resize's (f2fs/resize.h); this file reads the
 * options, checks the target as every writing tool does (not mounted, not
 * busy), asks before it writes unless -F (and, with no terminal to ask on,
 * refuses instead), stacks the -z undo journal and reports.  Upstream
 * exits 255 (its -1) when a resize fails and 1 on a bad command line.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/resize.h"
#include "f2fs/volume.h"
#include "tools/common/common.h"
#include "tools/common/fields.h"
#include "tools/common/target.h"

#define EXIT_USAGE 1
#define EXIT_FAIL  255

struct opts {
	struct f2fs_resize_opts r;
	uint64_t target; /* -t, in the device's sectors; 0: the whole device */
	bool have_target, yes;
	bool whint; /* -H: write-life hints (F2FS_DEV_WRITE_HINTS) */
	unsigned int debug;
	const char *undo;
};

static void usage(FILE *out)
{
	fputs("\nUsage: resize.f2fs [options] device\n"
	      "[options]:\n"
	      "  -d debug level [default:0]\n"
	      "  -H support write hint\n"
	      "  -f force: resize in place (upstream's layout, not all or nothing),\n"
	      "     lay out again at the same size\n"
	      "  -F force to resize\n"
	      "  -g add default options\n"
	      "  -i extended node bitmap, node ratio is 20% by default\n"
	      "  -o overprovision percentage [default:auto]\n"
	      "  -s safe resize, needed to shrink (with -f: does not resize metadata)\n"
	      "  -t target sectors [default: device size]\n"
	      "  -z FILE save what the resize overwrites to an undo journal\n"
	      "     (f2fs_undo FILE device takes it back; not in upstream)\n"
	      "  -V print the version number and exit\n",
	      out);
}

static double parse_ratio(const struct tool *t, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v >= 100)
		tool_fail(t, EXIT_USAGE,
			  "-o %s: the overprovision ratio is a percentage above 0 "
			  "and below 100",
			  s);
	return v;
}

static void parse_option(struct tool *t, struct opts *o, int c)
{
	uint64_t v;

	switch (c) {
	case 'd':
		if (!tool_parse_u64(optarg, TOOL_NUM_DEC, 1000, &v))
			tool_fail(t, EXIT_USAGE, "-d %s: the debug level is a number", optarg);
		o->debug = (unsigned int)v;
		printf("Info: Debug level = %u\n", o->debug);
		break;
	case 'f':
		o->r.force = true;
		printf("Info: Ignore errors during resize\n");
		break;
	case 'F':
		o->yes = true;
		printf("Info: Force to resize\n");
		break;
	case 'g':
		/* upstream's Android defaults for resize: -F and write hints (nat_bits stay) */
		if (!strcmp(optarg, "android")) {
			printf("Info: Set conf for android\n");
			o->yes = o->whint = true;
		}
		break;
	case 'H':
		o->whint = true;
		break;
	case 'i':
		o->r.large_nat_bitmap = true;
		break;
	case 'o':
		o->r.overprovision = parse_ratio(t, optarg);
		break;
	case 's':
		o->r.safe = true;
		break;
	case 't':
		if (!tool_parse_u64(optarg, TOOL_NUM_DEC | TOOL_NUM_HEX, UINT64_MAX / 4096, &v) ||
		    !v)
			tool_fail(t, EXIT_USAGE,
				  "-t %s: the target is a number of sectors (decimal or 0x hex)",
				  optarg);
		o->target = v;
		o->have_target = true;
		break;
	case 'z':
		o->undo = optarg;
		break;
	case 'V':
		printf("resize.f2fs %s\n", PACKAGE_VERSION);
		exit(0);
	case 'h':
		usage(stdout);
		exit(0);
	case ':':
		tool_fail(t, EXIT_USAGE, "option -%c needs a value (-h for help)", optopt);
	default:
		tool_fail(t, EXIT_USAGE, "unknown option -%c (-h for help)", optopt);
	}
}

static void parse(struct tool *t, int argc, char **argv, struct opts *o)
{
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, ":d:fFg:Hhist:o:Vz:")) != -1)
		parse_option(t, o, c);
	if (optind >= argc) {
		usage(stderr);
		tool_fail(t, EXIT_USAGE, "no device given");
	}
	if (argc - optind > 1)
		tool_fail(t, EXIT_USAGE, "unknown argument %s", argv[optind + 1]);
	t->image = argv[optind];
}

/* Upstream's question, asked only on a terminal: a run without one is refused instead. */
static bool confirmed(const struct tool *t)
{
	char answer[256];

	if (!isatty(STDIN_FILENO))
		tool_fail(t, EXIT_USAGE,
			  "no terminal to confirm the resize on: give -F to resize without asking");
	for (;;) {
		printf("\nResize operation is currently experimental, please backup your data.\n"
		       "Do you want to continue? [y/n]");
		fflush(stdout);
		if (scanf("%255s", answer) != 1)
			return false;
		if (!strcasecmp(answer, "y")) {
			printf("Proceeding to resize\n");
			return true;
		}
		if (!strcasecmp(answer, "n"))
			return false;
	}
}

/* The target in 512-byte sectors: -t in the device's sectors, or the whole device. */
static uint64_t target_sectors(const struct tool *t, const struct opts *o,
			       const struct f2fs_dev_info *info)
{
	uint32_t ss = info->sector_size ? info->sector_size : 512;
	uint64_t total = info->size_bytes / ss, want = o->have_target ? o->target : total;

	if (want > total)
		tool_fail_image(t, EXIT_FAIL, "Out-of-range Target=0x%llx / 0x%llx",
				(unsigned long long)want, (unsigned long long)total);
	return want * (ss / 512);
}

/* With -d: both superblocks, in dump.f2fs -d's form, as upstream prints them. */
static void print_superblocks(const struct f2fs_resize_report *r)
{
	struct fields_out fo = {.form = FIELDS_DEBUG, .f = stdout};

	fields_print_super(&fo, &r->old_sb);
	fields_print_super(&fo, &r->new_sb);
}

static void report(const struct f2fs_resize_report *r, unsigned int debug)
{
	uint64_t from = le64_get(r->old_sb.block_count), to = le64_get(r->new_sb.block_count);
	uint32_t seg0 = le32_get(r->old_sb.segment0_blkaddr);
	uint32_t mb_shift = 20 - le32_get(r->old_sb.log_blocksize); /* blocks to MiB */

	printf("Info: block_count %llu -> %llu (%llu MB -> %llu MB), main segments %u -> %u",
	       (unsigned long long)from, (unsigned long long)to,
	       (unsigned long long)(from >> mb_shift), (unsigned long long)(to >> mb_shift),
	       le32_get(r->old_sb.segment_count_main), le32_get(r->new_sb.segment_count_main));
	if (r->moved_blocks)
		printf(", %llu blocks moved", (unsigned long long)r->moved_blocks);
	if (le32_get(r->new_sb.segment0_blkaddr) != seg0)
		printf("\nInfo: metadata relocated to block %u (all or nothing); blocks %u..%u "
		       "unused",
		       le32_get(r->new_sb.segment0_blkaddr), seg0,
		       le32_get(r->new_sb.segment0_blkaddr) - 1);
	if (to < from && le32_get(r->new_sb.segment0_blkaddr) == seg0)
		printf("\nInfo: the shrunk volume's tables were rewritten in place (not all or "
		       "nothing: -z keeps an undo journal)");
	printf("\nInfo: Done to resize\n");
	if (debug)
		print_superblocks(r);
}

int main(int argc, char **argv)
{
	struct tool t = {.prog = "resize.f2fs"};
	struct opts o = {0};
	struct f2fs_resize_report r;
	struct f2fs_device *dev;
	char why[512];
	int ret;

	parse(&t, argc, argv, &o);
	if (!o.yes && !confirmed(&t))
		return 0;
	tool_check_target(&t, TOOL_WRITES, EXIT_FAIL);
	/* a volume of several devices grows into its last one: joined at its full size */
	dev = tool_open_for_writing(&t, EXIT_FAIL,
				    F2FS_VOLUME_GROW_LAST | (o.whint ? F2FS_DEV_WRITE_HINTS : 0));
	o.r.target_sectors = target_sectors(&t, &o, f2fs_dev_get_info(dev));
	printf("Info: resize wanted target FS sectors = %llu (%llu MB)\n",
	       (unsigned long long)o.r.target_sectors,
	       (unsigned long long)(o.r.target_sectors >> 11));
	dev = tool_undo_stack(&t, dev, o.undo, EXIT_FAIL);
	ret = f2fs_resize(dev, &o.r, &r, why, sizeof(why));
	if (ret) {
		f2fs_dev_close(dev);
		tool_fail_image(&t, EXIT_FAIL, "%s", why);
	}
	ret = f2fs_dev_close(dev);
	if (ret)
		tool_fail_image(&t, EXIT_FAIL, "closing the device: %s", strerror(-ret));
	if (r.result == F2FS_RESIZE_SAME_SIZE)
		printf("Nothing to resize.\n");
	else
		report(&r, o.debug);
	return 0;
}
