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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/file.h"
#include "f2fs/nat.h"
#include "f2fs/summary.h"
#include "f2fs/volume.h"

#define EXIT_CLEAN	 0
#define EXIT_UNCORRECTED 4
#define EXIT_OPERATIONAL 8
#define EXIT_USAGE	 16

struct fsck_opts {
	const char *device;
	int debug;
	int show_layout; /* -l */
	int show_tree;	 /* -t */
	int quiet;
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
		     "  -a check/fix corruption (check only in this version)\n"
		     "  -d debug level [default:0]\n"
		     "  -f check the whole volume even when it looks clean\n"
		     "  -l show superblock/checkpoint\n"
		     "  -n, -N, --dry-run do not write anything (always the case)\n"
		     "  -p preen mode (check only in this version)\n"
		     "  -q quiet\n"
		     "  -t show directory tree\n"
		     "  -y answer yes to all questions (check only in this version)\n"
		     "  -V print the version number and exit\n");
}

static void parse_args(struct fsck_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {{"dry-run", no_argument, NULL, 'N'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	char *end;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":ad:fhlnNpqtVy", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
		case 'f':
		case 'n':
		case 'N':
		case 'p':
		case 'y':
			break; /* accepted: this version only checks, so they change nothing */
		case 'd':
			o->debug = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || o->debug < 0 || o->debug > 9)
				fail(EXIT_USAGE, "invalid value for -d: '%s' (expected 0 to 9)",
				     optarg);
			break;
		case 'l':
			o->show_layout = 1;
			break;
		case 'q':
			o->quiet = 1;
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
static void print_info(struct f2fs_device *dev, const struct fsck_opts *o)
{
	struct f2fs_volume *v;
	const struct f2fs_super_block *sb;
	const struct f2fs_checkpoint *cp;
	char why[200];
	uint64_t sectors;

	if (f2fs_volume_open(dev, &v, why, sizeof(why)))
		return; /* f2fs_check() explains */
	sb = f2fs_volume_sb(v);
	cp = f2fs_volume_cp(v);
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
	f2fs_volume_close(v);
}

static void print_summary(const struct f2fs_check_result *r)
{
	char v[40];
	uint64_t free_mb = r->user_block_count > r->valid_blocks
			       ? (r->user_block_count - r->valid_blocks) >> 8
			       : 0;

	printf("\n[FSCK] Max image size: %llu MB, Free space: %llu MB\n",
	       (unsigned long long)(r->max_size_bytes >> 20), (unsigned long long)free_mb);
	print_line("Unreachable nat entries", r->unreachable_nat == 0,
		   hex(v, sizeof(v), r->unreachable_nat));
	print_line("SIT valid block bitmap checking", r->sit_bitmap_ok, NULL);
	print_line("Hard link checking for regular file", r->hard_links_ok,
		   hex(v, sizeof(v), r->hard_link_files));
	print_line("valid_block_count matching with CP", r->valid_blocks == r->cp_valid_blocks,
		   hex(v, sizeof(v), r->valid_blocks));
	print_line("valid_node_count matching with CP (de lookup)",
		   r->valid_nodes == r->cp_valid_nodes, hex(v, sizeof(v), r->valid_nodes));
	print_line("valid_node_count matching with CP (nat lookup)",
		   r->nat_valid_entries == r->cp_valid_nodes,
		   hex(v, sizeof(v), r->nat_valid_entries));
	print_line("valid_inode_count matched with CP", r->valid_inodes == r->cp_valid_inodes,
		   hex(v, sizeof(v), r->valid_inodes));
	print_line("free segment_count matched with CP", r->free_segments == r->cp_free_segments,
		   hex(v, sizeof(v), r->free_segments));
	print_line("next block offset is free", r->curseg_ok, NULL);
	print_line("section ckpt_valid_blocks matched with SIT", r->sections_bad == 0,
		   hex(v, sizeof(v), r->sections));
	print_line("other corrupted bugs", r->other_ok, NULL);
	if (r->fsynced_nodes)
		printf("[FSCK] %u fsynced node blocks are recoverable by roll-forward at mount\n",
		       r->fsynced_nodes);
}

/* ---- -t: the directory tree, depth first ---- */

#define TREE_MAX_DEPTH 64

struct tree_walk {
	struct f2fs_device *dev;
	const struct f2fs_super_block *sb;
	const struct f2fs_nat_table *nat;
	uint32_t features;
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
	if (n && !f2fs_read_inode(t->dev, t->sb, t->nat, ino, n))
		f2fs_dir_for_each_entry(t->dev, t->sb, t->nat, n, t->features, print_tree_entry, t);
	free(n);
}

static void print_tree(struct f2fs_device *dev)
{
	struct f2fs_volume *v = NULL;
	struct f2fs_cp_data *cpd = NULL;
	struct f2fs_nat_table *nat = NULL;
	struct tree_walk t = {.dev = dev};
	char why[200];

	if (f2fs_volume_open(dev, &v, why, sizeof(why)) ||
	    f2fs_cp_data_load(v, &cpd, why, sizeof(why)) ||
	    f2fs_nat_load(dev, f2fs_volume_sb(v), f2fs_volume_cp(v), f2fs_volume_cp_start(v), cpd,
			  &nat, why, sizeof(why))) {
		printf("[FSCK] directory tree not shown: %s\n", why);
	} else {
		t.sb = f2fs_volume_sb(v);
		t.nat = nat;
		t.features = le32_get(t.sb->feature);
		t.seen = calloc(nat->max_nid / 8 + 1, 1);
		if (t.seen) {
			printf("/\n");
			print_tree_dir(&t, le32_get(t.sb->root_ino));
		}
		free(t.seen);
	}
	f2fs_nat_free(nat);
	f2fs_cp_data_free(cpd);
	f2fs_volume_close(v);
}

int main(int argc, char **argv)
{
	struct fsck_opts o = {0};
	struct f2fs_check_options co = {0};
	struct f2fs_check_result r;
	struct f2fs_device *dev;
	int ret;

	parse_args(&o, argc, argv);
	ret = f2fs_dev_open(o.device, F2FS_DEV_RDONLY, &dev);
	if (ret)
		fail(EXIT_OPERATIONAL, "cannot open %s: %s", o.device, strerror(-ret));
	if (!o.quiet)
		print_info(dev, &o);
	if (o.show_tree && !o.quiet)
		print_tree(dev);
	co.on_problem = o.quiet ? NULL : print_problem;
	co.on_section = o.debug > 0 && !o.quiet ? print_section : NULL;
	co.arg = &o;
	co.max_problems = o.debug > 0 ? 0 : 200;
	ret = f2fs_check(dev, &co, &r);
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
