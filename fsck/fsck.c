// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.f2fs in check mode: parse upstream's options, run libf2fs's checker
 * and print upstream-style "[FSCK]" lines plus one line per problem.  It
 * never writes; when problems exist it says they were not repaired.
 * Exit status follows e2fsck: 0 clean, 4 errors left uncorrected,
 * 8 operational error, 16 usage error.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/fs.h"
#include "f2fs/read.h"

#define EXIT_CLEAN	 0
#define EXIT_UNCORRECTED 4
#define EXIT_OPERATIONAL 8
#define EXIT_USAGE	 16

struct fsck_opts {
	const char *device;
	int debug;
	int show_layout; /* -l */
	int show_tree;	 /* -t */
	int quiet;	 /* --quiet */
	unsigned int problems_shown;
};

static void __attribute__((noreturn, format(printf, 2, 3))) fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("fsck.f2fs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void usage(FILE *out)
{
	fprintf(out, "\nUsage: fsck.f2fs [options] device\n"
		     "[options]:\n"
		     "  -a check/fix potential corruption, reported by f2fs (check only here)\n"
		     "  -c <num-cache-entry>  set number of cache entries (accepted, no effect)\n"
		     "  -m <max-hash-collision>  set max cache hash collision (accepted, no "
		     "effect)\n"
		     "  -C encoding[:flag1,flag2] Set options for enabling casefolding\n"
		     "  -d debug level [default:0]\n"
		     "  -f check/fix entire partition\n"
		     "  -g add default options\n"
		     "  -H support write hint (accepted, no effect: nothing is written)\n"
		     "  -l show superblock/checkpoint\n"
		     "  -M show a file map (accepted, no effect)\n"
		     "  -O feature1[feature2,feature3,...] e.g. \"encrypt\"\n"
		     "  -p preen mode [default:0 the same as -a [0|1|2]]\n"
		     "  -S sparse_mode\n"
		     "  -t show directory tree\n"
		     "  -q preserve quota limits\n"
		     "  -y fix all the time\n"
		     "  -N answer \"No\" for all questions\n"
		     "  -V print the version number and exit\n"
		     "  --dry-run do not really fix corruptions\n"
		     "  --no-kernel-check skips detecting kernel change\n"
		     "  --kernel-check checks kernel change\n"
		     "  --debug-cache to debug cache when -c is used\n"
		     "  --nolinear-lookup=X X=1: disable linear lookup, X=0: enable linear lookup\n"
		     "  --quiet print nothing but fatal errors\n"
		     "  -h, --help print this help\n");
}

/* A non-negative decimal option value, or exit 16 naming the option. */
static long number_arg(int opt, const char *arg, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > max)
		fail(EXIT_USAGE, "invalid value for -%c: '%s' (expected 0 to %ld)", opt, arg, max);
	return v;
}

enum long_only {
	OPT_DRY_RUN = 256,
	OPT_NO_KERNEL_CHECK,
	OPT_KERNEL_CHECK,
	OPT_DEBUG_CACHE,
	OPT_NOLINEAR_LOOKUP,
	OPT_QUIET,
};

/*
 * -p takes an optional level, given as the next word: "-p 1 IMG".  As in
 * upstream, a next word that is not all digits, or the last word (the
 * device), is not the level.
 */
static void preen_arg(int argc)
{
	const char *arg = optarg;
	bool digits = arg && *arg && strspn(arg, "0123456789") == strlen(arg);

	if (!arg || !digits || optind == argc) {
		if (arg)
			optind--; /* the word is not ours: give it back */
		printf("Info: Use default preen mode\n");
		return;
	}
	printf("Info: Fix the reported corruption in preen mode %ld\n", number_arg('p', arg, 2));
}

static void parse_args(struct fsck_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
	    {"no-kernel-check", no_argument, NULL, OPT_NO_KERNEL_CHECK},
	    {"kernel-check", no_argument, NULL, OPT_KERNEL_CHECK},
	    {"debug-cache", no_argument, NULL, OPT_DEBUG_CACHE},
	    {"nolinear-lookup", required_argument, NULL, OPT_NOLINEAR_LOOKUP},
	    {"quiet", no_argument, NULL, OPT_QUIET},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	char why[200];
	uint32_t features = 0;
	uint16_t enc, enc_flags;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":aC:c:m:Md:fg:HhlnNO:p:q:StyV", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case OPT_DRY_RUN:
			printf("Info: Dry run\n");
			break;
		case OPT_NO_KERNEL_CHECK:
			printf("Info: No Kernel Check\n");
			break;
		case OPT_KERNEL_CHECK:
			printf("Info: Do Kernel Check\n");
			break;
		case OPT_DEBUG_CACHE:
		case 'H':
		case 'M':
		case 'S':
		case 'n':
		case 'N':
			break; /* accepted: they change nothing in a check that never writes */
		case OPT_NOLINEAR_LOOKUP:
			number_arg('-', optarg, 1);
			break;
		case OPT_QUIET:
			o->quiet = 1;
			break;
		case 'a':
			printf("Info: Automatic fix mode enabled.\n");
			break;
		case 'c':
			number_arg('c', optarg, INT32_MAX);
			break;
		case 'm':
			number_arg('m', optarg, INT32_MAX);
			break;
		case 'C':
			if (f2fs_casefold_parse(optarg, &enc, &enc_flags, why, sizeof(why)))
				fail(EXIT_USAGE, "-C: %s", why);
			break;
		case 'd':
			o->debug = (int)number_arg('d', optarg, INT32_MAX);
			printf("Info: Debug level = %d\n", o->debug);
			break;
		case 'f':
		case 'y':
			printf("Info: Force to fix corruption\n");
			break;
		case 'g':
			if (!strcmp(optarg, "android"))
				printf("Info: Set conf for android\n");
			break;
		case 'O':
			if (f2fs_feature_parse(optarg, &features, why, sizeof(why)))
				fail(EXIT_USAGE, "-O: %s", why);
			break;
		case 'p':
			preen_arg(argc);
			break;
		case 'q':
			printf("Info: Preserve quota limits = %ld\n",
			       number_arg('q', optarg, INT32_MAX));
			break;
		case 'l':
			o->show_layout = 1;
			break;
		case 't':
			o->show_tree = 1;
			break;
		case 'V':
			printf("fsck.f2fs %s\n", PACKAGE_VERSION);
			exit(EXIT_CLEAN);
		case 'h':
			usage(stdout);
			exit(EXIT_CLEAN);
		case ':':
			if (optopt == 'p') { /* -p as the last option before nothing */
				printf("Info: Use default preen mode\n");
				break;
			}
			fail(EXIT_USAGE, "option -%c requires a value (-h for help)", optopt);
		default:
			if (optopt)
				fail(EXIT_USAGE, "unknown option -%c (-h for help)", optopt);
			fail(EXIT_USAGE, "unknown option %s (-h for help)", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		fail(EXIT_USAGE, "no device specified (usage: fsck.f2fs [options] device)");
	o->device = argv[optind++];
	if (optind < argc)
		fail(EXIT_USAGE, "unexpected argument: '%s'", argv[optind]);
}

static void print_problem(const struct f2fs_problem *p, void *arg)
{
	struct fsck_opts *o = arg;
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	o->problems_shown++;
	printf("[FSCK] %s: %s: %s: %s", info ? info->name : "PR_UNKNOWN",
	       info ? info->structure : "?", info ? info->summary : "?", p->detail);
	if (p->nid)
		printf(" [nid 0x%x]", p->nid);
	if (p->blkaddr)
		printf(" [blk 0x%llx]", (unsigned long long)p->blkaddr);
	putchar('\n');
}

static void print_section(const struct f2fs_section_report *s, void *arg)
{
	(void)arg;
	if (s->sit_ckpt_valid == 0 && s->found == 0 && s->owner_log < 0)
		return;
	printf(
	    "[FSCK] section %u: type %d log %d valid %u ckpt_valid %u found %u bad segments %u\n",
	    s->secno, s->type, s->owner_log, s->sit_valid, s->sit_ckpt_valid, s->found,
	    s->bad_segments);
}

static void print_line(const char *label, bool ok, const char *value)
{
	printf("[FSCK] %-53s[%s]%s%s\n", label, ok ? "Ok.." : "Fail", value ? " " : "",
	       value ? value : "");
}

static const char *hex(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "[0x%llx]", (unsigned long long)v);
	return buf;
}

static void print_cp_flags(uint32_t flags)
{
	unsigned int i;
	uint32_t bit;

	printf("Info: checkpoint state = %x : ", flags);
	for (i = 0; (bit = f2fs_cp_flag_bit(i)); i++)
		if (flags & bit)
			printf(" %s", f2fs_cp_flag_name(bit));
	putchar('\n');
}

static void print_features(uint32_t features)
{
	uint32_t bit;

	printf("Info: superblock features = %x : ", features);
	for (bit = 1; bit; bit <<= 1)
		if ((features & bit) && f2fs_feature_name(bit))
			printf(" %s", f2fs_feature_name(bit));
	putchar('\n');
}

/* The header upstream prints before checking, from the chosen superblock and pack. */
static void print_info(struct f2fs_fs *fs, const struct fsck_opts *o)
{
	const struct f2fs_volume *v = f2fs_fs_volume(fs);
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint64_t sectors;

	sectors = le64_get(sb->block_count) << le32_get(sb->log_sectors_per_block);
	print_features(le32_get(sb->feature));
	printf("Info: Segments per section = %u\n", le32_get(sb->segs_per_sec));
	printf("Info: Sections per zone = %u\n", le32_get(sb->secs_per_zone));
	printf("Info: total FS sectors = %llu (%llu MB)\n", (unsigned long long)sectors,
	       (unsigned long long)(le64_get(sb->block_count) >> 8));
	printf("Info: CKPT version = %llx\n", (unsigned long long)le64_get(cp->checkpoint_ver));
	if (o->show_layout) {
		printf("Info: superblock #%d, checkpoint pack %d at block %u\n",
		       f2fs_volume_sb_index(v), f2fs_volume_cp_index(v) + 1,
		       f2fs_volume_cp_start(v));
		printf("Info: main_blkaddr %u, segment_count_main %u, section_count %u\n",
		       le32_get(sb->main_blkaddr), le32_get(sb->segment_count_main),
		       le32_get(sb->section_count));
	}
	print_cp_flags(le32_get(cp->ckpt_flags));
}

static void print_summary(const struct f2fs_check_result *r)
{
	char v[40];
	uint64_t free_mb = r->user_block_count > r->valid_blocks
			       ? (r->user_block_count - r->valid_blocks) >> 8
			       : 0;

	printf("\n[FSCK] Max image size: %llu MB, Free space: %llu MB\n",
	       (unsigned long long)(r->max_size_bytes >> 20), (unsigned long long)free_mb);
	print_line("Unreachable nat entries", f2fs_check_line_ok(r, F2FS_LINE_NAT_UNREACHABLE),
		   hex(v, sizeof(v), r->unreachable_nat));
	print_line("SIT valid block bitmap checking", f2fs_check_line_ok(r, F2FS_LINE_SIT_BITMAP),
		   NULL);
	print_line("Hard link checking for regular file",
		   f2fs_check_line_ok(r, F2FS_LINE_HARD_LINKS),
		   hex(v, sizeof(v), r->hard_link_files));
	print_line("valid_block_count matching with CP",
		   f2fs_check_line_ok(r, F2FS_LINE_VALID_BLOCKS),
		   hex(v, sizeof(v), r->valid_blocks));
	print_line("valid_node_count matching with CP (de lookup)",
		   f2fs_check_line_ok(r, F2FS_LINE_VALID_NODES), hex(v, sizeof(v), r->valid_nodes));
	print_line("valid_node_count matching with CP (nat lookup)",
		   f2fs_check_line_ok(r, F2FS_LINE_NAT_NODES),
		   hex(v, sizeof(v), r->nat_valid_entries));
	print_line("valid_inode_count matched with CP",
		   f2fs_check_line_ok(r, F2FS_LINE_VALID_INODES),
		   hex(v, sizeof(v), r->valid_inodes));
	print_line("free segment_count matched with CP",
		   f2fs_check_line_ok(r, F2FS_LINE_FREE_SEGMENTS),
		   hex(v, sizeof(v), r->free_segments));
	print_line("next block offset is free", f2fs_check_line_ok(r, F2FS_LINE_CURSEG), NULL);
	print_line("section ckpt_valid_blocks matched with SIT",
		   f2fs_check_line_ok(r, F2FS_LINE_SECTIONS), hex(v, sizeof(v), r->sections));
	print_line("other corrupted bugs", f2fs_check_line_ok(r, F2FS_LINE_OTHER), NULL);
	if (r->fsynced_nodes)
		printf("[FSCK] %u fsynced node blocks are recoverable by roll-forward at mount\n",
		       r->fsynced_nodes);
}

/* ---- -t: the directory tree, depth first ---- */

#define TREE_MAX_DEPTH 64

struct tree_walk {
	struct f2fs_fs *fs;
	const struct f2fs_nat_table *nat;
	uint8_t *seen; /* bit per nid: directories already listed (cycles in a bad image) */
	int depth;
};

static void print_tree_dir(struct tree_walk *t, uint32_t ino);

static int print_tree_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct tree_walk *t = arg;

	printf("%*s|-- %.*s%s\n", 4 * t->depth, "", (int)len, name, type == F2FS_FT_DIR ? "/" : "");
	if (type == F2FS_FT_DIR && t->depth < TREE_MAX_DEPTH && f2fs_nat_get(t->nat, ino) &&
	    !f2fs_test_bit_lsb(t->seen, ino)) {
		t->depth++;
		print_tree_dir(t, ino);
		t->depth--;
	}
	return 0;
}

static void print_tree_dir(struct tree_walk *t, uint32_t ino)
{
	struct f2fs_node *n = malloc(sizeof(*n));

	f2fs_set_bit_lsb(t->seen, ino);
	if (n && !f2fs_read_inode(t->fs, ino, n))
		f2fs_dir_for_each_entry(t->fs, n, print_tree_entry, t);
	free(n);
}

static void print_tree(struct f2fs_fs *fs)
{
	struct tree_walk t = {.fs = fs};

	if (f2fs_fs_nat(fs, &t.nat)) {
		printf("[FSCK] directory tree not shown: %s\n", f2fs_fs_why(fs));
		return;
	}
	t.seen = calloc(f2fs_nat_max_nid(t.nat) / 8 + 1, 1);
	if (t.seen) {
		printf("/\n");
		print_tree_dir(&t, le32_get(f2fs_fs_sb(fs)->root_ino));
	}
	free(t.seen);
}

int main(int argc, char **argv)
{
	struct fsck_opts o = {0};
	struct f2fs_check_options co = {0};
	struct f2fs_check_result r;
	struct f2fs_device *dev;
	struct f2fs_fs *fs;
	char why[256];
	int ret;

	parse_args(&o, argc, argv);
	ret = f2fs_dev_open(o.device, F2FS_DEV_RDONLY, &dev);
	if (ret)
		fail(EXIT_OPERATIONAL, "cannot open %s: %s", o.device, strerror(-ret));
	ret = f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why));
	if (ret) {
		f2fs_dev_close(dev);
		fail(EXIT_OPERATIONAL, "%s: %s", o.device, why);
	}
	if (!o.quiet)
		print_info(fs, &o);
	if (o.show_tree && !o.quiet)
		print_tree(fs);
	co.on_problem = o.quiet ? NULL : print_problem;
	co.on_section = o.debug > 0 && !o.quiet ? print_section : NULL;
	co.arg = &o;
	co.max_problems = o.debug > 0 ? 0 : 200;
	ret = f2fs_check(fs, &co, &r);
	f2fs_fs_close(fs);
	f2fs_dev_close(dev);
	if (ret)
		fail(EXIT_OPERATIONAL, "%s: %s", o.device, r.fatal_why);
	if (!o.quiet)
		print_summary(&r);
	if (r.problems) {
		if (!o.quiet)
			printf("\nInfo: %u problem(s) found; not repaired: this fsck.f2fs only "
			       "checks\n",
			       r.problems);
		return EXIT_UNCORRECTED;
	}
	return EXIT_CLEAN;
}
