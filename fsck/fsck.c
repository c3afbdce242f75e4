// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.f2fs: parse upstream's options, run libf2fs's checker on a read-only
 * handle and print upstream-style "[FSCK]" lines plus one line per problem;
 * when problems exist and the mode allows (fix.h: -y, -p, a terminal's
 * answers), repair them through lib/repair/ and check again.  A clean
 * volume is never opened for writing.  Exit status follows e2fsck: 0 clean,
 * 1 errors corrected, 4 errors left uncorrected, 8 operational error,
 * 16 usage error.  With --json, standard output holds
 * one JSON document and nothing else, whatever happens (a failure becomes
 * its "error" member); progress goes to standard error or the descriptor
 * the user names (tools/common/progress.h).
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
#include <time.h>
#include <unistd.h>

#include "f2fs/check.h"
#include "f2fs/checkpoint.h"
#include "f2fs/device.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/fs.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "fix.h"
#include "tools/common/common.h"
#include "tools/common/fields.h"
#include "tools/common/json.h"
#include "tools/common/name.h"
#include "tools/common/progress.h"
#include "tools/common/target.h"

#define EXIT_CLEAN	 0
#define EXIT_CORRECTED	 1
#define EXIT_UNCORRECTED 4
#define EXIT_OPERATIONAL 8
#define EXIT_USAGE	 16

#define JSON_VERSION 1 /* of the --json document's schema (fsck.f2fs(8)) */

struct fsck_opts {
	const char *device;
	unsigned int mb_shift; /* blocks to MiB: 20 - log_blocksize */
	int debug;
	int show_layout;  /* -l */
	int show_tree;	  /* -t */
	int quiet;	  /* --quiet */
	int force;	  /* -f, -y: fix everything */
	long preen_level; /* -p N (-a and a bare -p: 0): 0 skips a volume the kernel left clean */
	bool json;	  /* --json */
	int read_only;	  /* -n, -N, --dry-run, -l: may never write */
	const char *undo; /* -z: the undo journal of the repairs */
	bool rebuild;	  /* --rebuild: tables from a scan first */
	struct f2fs_tune tune; /* -O, -C, --nolinear-lookup */
	bool sparse;	       /* -S: the device is an Android sparse image */
	bool whint;	       /* -H: write-life hints on the repairs' writes */
	bool android; /* -g android: upstream's Android defaults, applied after the options */
	bool linear_defaulted;	      /* -g android chose --nolinear-lookup=1 */
	bool volume_ro;		      /* the volume has the ro feature: never repaired */
	struct f2fs_device *wdev;     /* the device opened for writing, once it is */
	struct f2fs_session *session; /* the run's one handle (lib/repair/session.c) */
	struct f2fs_device *dev;      /* the device it is on (wdev, or read-only) */
	char why[256];		      /* the session's reasons */
	bool in_repairs;	      /* --json: the "repairs" array is open */
	struct fix_plan plan;	      /* what the mode may fix, counted by the check */
	f2fs_problem_fn show_problem; /* how the first check's problems are shown */
	unsigned int problems_shown, problems_max; /* 0: no limit */
	/* what upstream lists after the check (rows F2FS_PR_MESSAGE_LATER), as reported */
	char **listed;
	size_t n_listed;
	struct progress_request progress_req;
	struct progress progress;
	/* --json: the document being written, and what goes into it after the problems */
	struct json js;
	bool js_started;
	const struct f2fs_geometry *geo; /* to place a problem's block, once the volume is open */
	struct f2fs_section_report *sections;
	size_t n_sections, sections_cap;
};

/* ---- --json: the document's frame ---- */

/* Open the document and write its header members, once. */
static void json_begin(struct fsck_opts *o)
{
	if (o->js_started)
		return;
	o->js_started = true;
	json_init(&o->js, stdout);
	json_object(&o->js, NULL);
	json_u64(&o->js, "version", JSON_VERSION);
	json_str(&o->js, "program", "fsck.f2fs");
	json_str(&o->js, "program_version", PACKAGE_VERSION);
	if (o->device)
		json_str(&o->js, "device", o->device);
}

static const char *verdict(int status)
{
	switch (status) {
	case EXIT_CLEAN:
		return "clean";
	case EXIT_CORRECTED:
		return "corrected";
	case EXIT_UNCORRECTED:
		return "uncorrected";
	case EXIT_OPERATIONAL:
		return "operational_error";
	default:
		return "usage_error";
	}
}

/*
 * Close whatever is open (a failure may come in the middle of the problem
 * list), then the verdict: the document stays valid however the run ends.
 */
static void json_finish(struct fsck_opts *o, int status, const char *error)
{
	json_begin(o);
	while (o->js.depth > 1)
		json_end(&o->js);
	if (error) {
		/* the shape dump.f2fs uses too (json_fail) */
		json_object(&o->js, "error");
		json_str(&o->js, "message", error);
		json_end(&o->js);
	}
	json_str(&o->js, "verdict", verdict(status));
	json_u64(&o->js, "exit_status", (uint64_t)status);
	json_end(&o->js);
	fputc('\n', stdout);
}

/* The error on stderr (and, with --json, as the document's end), then exit. */
static void __attribute__((noreturn, format(printf, 3, 4)))
fail(struct fsck_opts *o, int status, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	progress_finish(&o->progress);
	if (o->json)
		json_finish(o, status, msg);
	fflush(stdout);
	fprintf(stderr, "fsck.f2fs: %s\n", msg);
	exit(status);
}

/* A tools/common refusal under --json: end the document with the error first. */
static void json_on_fail(void *arg, int status, const char *msg)
{
	struct fsck_opts *o = arg;

	progress_finish(&o->progress);
	json_finish(o, status, msg);
}

/* An "Info:" line upstream prints for an option; none with --json. */
static void __attribute__((format(printf, 2, 3)))
info(const struct fsck_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void usage(FILE *out)
{
	fprintf(out,
		"\nUsage: fsck.f2fs [options] device\n"
		"[options]:\n"
		"  -a check/fix potential corruption, reported by f2fs (as -p)\n"
		"  -c <num-cache-entry>  set number of cache entries (accepted, no effect)\n"
		"  -m <max-hash-collision>  set max cache hash collision (accepted, no "
		"effect)\n"
		"  -C encoding[:flag1,flag2] Set options for enabling casefolding\n"
		"  -d debug level [default:0]\n"
		"  -f check/fix entire partition (as -y)\n"
		"  -g add default options\n"
		"  -H support write hint (accepted, no effect: nothing is written)\n"
		"  -l show superblock/checkpoint\n"
		"  -M show a file map (accepted, no effect)\n"
		"  -O feature1[feature2,feature3,...] e.g. \"encrypt\"\n"
		"  -p preen mode [default:0 the same as -a [0|1|2]]: fix what is safe\n"
		"  -S sparse_mode\n"
		"  -t show directory tree\n"
		"  -q preserve quota limits\n"
		"  -y fix all the time\n"
		"  -N answer \"No\" for all questions\n"
		"  -V print the version number and exit\n"
		"  -z undo_file  record what the repairs overwrite (f2fs_undo restores it)\n"
		"  --dry-run do not really fix corruptions\n"
		"  --no-kernel-check skips detecting kernel change\n"
		"  --kernel-check checks kernel change\n"
		"  --debug-cache to debug cache when -c is used\n"
		"  --nolinear-lookup=X X=1: disable linear lookup, X=0: enable linear lookup\n"
		"  --quiet print nothing but fatal errors\n"
		"  --json print the report as one JSON document\n"
		"  --progress[=FD] show progress on stderr, or e2fsck's lines on FD\n"
		"  --no-progress never show progress\n"
		"  --drop-roll-forward let repairs discard fsynced data a mount would recover\n"
		"  --rebuild rebuild NAT, SIT and checkpoint from a node scan first (-y)\n"
		"  -h, --help print this help\n");
}

/* A non-negative decimal option value, or exit 16 naming the option. */
static long number_arg(struct fsck_opts *o, int opt, const char *arg, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > max)
		fail(o, EXIT_USAGE, "invalid value for -%c: '%s' (expected 0 to %ld)", opt, arg,
		     max);
	return v;
}

enum long_only {
	OPT_DRY_RUN = 256,
	OPT_NO_KERNEL_CHECK,
	OPT_KERNEL_CHECK,
	OPT_DEBUG_CACHE,
	OPT_NOLINEAR_LOOKUP,
	OPT_QUIET,
	OPT_JSON,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_DROP_ROLL_FORWARD,
	OPT_REBUILD,
};

/*
 * Is --json (or a prefix getopt would take for it) among the options?  It
 * must be known before the first option is handled, since with it the
 * "Info:" lines of the options and every error go into the JSON document.
 */
static bool json_requested(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t len = strlen(argv[i]);

		if (len >= 3 && !strncmp(argv[i], "--json", len))
			return true;
	}
	return false;
}

/*
 * -p takes an optional level, given as the next word: "-p 1 IMG".  As in
 * upstream, a next word that is not all digits, or the last word (the
 * device), is not the level.
 */
static void preen_arg(struct fsck_opts *o, int argc)
{
	const char *arg = optarg;
	bool digits = arg && *arg && strspn(arg, "0123456789") == strlen(arg);

	if (!arg || !digits || optind == argc) {
		if (arg)
			optind--; /* the word is not ours: give it back */
		info(o, "Info: Use default preen mode\n");
		return;
	}
	o->preen_level = number_arg(o, 'p', arg, 2);
	info(o, "Info: Fix the reported corruption in preen mode %ld\n", o->preen_level);
}

/*
 * -g android, as upstream applies it once every option is read: a boot-time
 * run (-a) unless -f, -y, -p or -n chose a mode, casefolded names looked up
 * by hash only unless --nolinear-lookup says otherwise (not in a run that
 * may not write), write hints (-H), and no nat_bits in the checkpoints the
 * run writes.
 */
static void apply_android_defaults(struct fsck_opts *o)
{
	if (o->plan.mode == FIX_ASK)
		o->plan.mode = FIX_PREEN;
	if (o->tune.linear_lookup == F2FS_LINEAR_LOOKUP_KEEP && !o->read_only) {
		o->tune.linear_lookup = F2FS_LINEAR_LOOKUP_DISABLE;
		o->linear_defaulted = true;
	}
	o->whint = true;
}

/* Options that cannot go together. */
/* Do -O, -C or --nolinear-lookup ask for a change of the superblock? */
static bool tuning(const struct fsck_opts *o)
{
	return o->tune.features || o->tune.encoding_set ||
	       o->tune.linear_lookup != F2FS_LINEAR_LOOKUP_KEEP;
}

static void check_combinations(struct fsck_opts *o)
{
	if (o->json && (o->show_layout || o->show_tree))
		fail(o, EXIT_USAGE, "--json does not go with -%c: it reports the check only",
		     o->show_layout ? 'l' : 't');
	if (o->json && o->progress_req.mode == PROGRESS_FD && o->progress_req.fd == STDOUT_FILENO)
		fail(o, EXIT_USAGE, "--progress=1 would mix progress into the JSON on stdout");
	if (o->quiet && o->progress_req.mode == PROGRESS_AUTO)
		o->progress_req.mode = PROGRESS_OFF;
	if (o->read_only)
		o->plan.mode = FIX_NO;
	if (o->undo && o->read_only)
		fail(o, EXIT_USAGE,
		     "-z records repairs: it does not go with -n, -N, --dry-run or -l");
	/* f2fs_undo writes the journal's blocks back in place: a sparse image has no places */
	if (o->undo && o->sparse)
		fail(o, EXIT_USAGE, "-z does not go with -S: f2fs_undo restores raw images only");
	if (o->rebuild && o->plan.mode != FIX_YES)
		fail(o, EXIT_USAGE,
		     "--rebuild rewrites the NAT, SIT and checkpoint: it needs -y (or -f)");
	if (o->rebuild && (o->show_layout || o->show_tree))
		fail(o, EXIT_USAGE, "--rebuild does not go with -%c", o->show_layout ? 'l' : 't');
	if (tuning(o) && o->read_only)
		fail(o, EXIT_USAGE,
		     "-O, -C and --nolinear-lookup write the superblock: they do not go with -n, "
		     "-N, --dry-run or -l");
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
	    {"json", no_argument, NULL, OPT_JSON},
	    {"progress", optional_argument, NULL, OPT_PROGRESS},
	    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
	    {"drop-roll-forward", no_argument, NULL, OPT_DROP_ROLL_FORWARD},
	    {"rebuild", no_argument, NULL, OPT_REBUILD},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	char why[200];
	int opt;

	o->json = json_requested(argc, argv);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":aC:c:m:Md:fg:HhlnNO:p:q:StyVz:", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case OPT_DRY_RUN:
			o->read_only = 1;
			info(o, "Info: Dry run\n");
			break;
		case OPT_NO_KERNEL_CHECK:
			info(o, "Info: No Kernel Check\n");
			break;
		case OPT_KERNEL_CHECK:
			info(o, "Info: Do Kernel Check\n");
			break;
		case 'n':
		case 'N':
			o->read_only = 1;
			break;
		case 'H':
			o->whint = true;
			break;
		case OPT_DEBUG_CACHE:
		case 'M':
			break; /* accepted: they change nothing in a check that never writes */
		case 'S':
			o->sparse = true;
			break;
		case OPT_NOLINEAR_LOOKUP:
			if (strcmp(optarg, "0") && strcmp(optarg, "1"))
				fail(o, EXIT_USAGE,
				     "invalid value for --nolinear-lookup: '%s' (expected 0 or 1)",
				     optarg);
			o->tune.linear_lookup =
			    *optarg == '1' ? F2FS_LINEAR_LOOKUP_DISABLE : F2FS_LINEAR_LOOKUP_ENABLE;
			break;
		case OPT_QUIET:
			o->quiet = 1;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_PROGRESS:
			if (!progress_parse(optarg, &o->progress_req))
				fail(o, EXIT_USAGE,
				     "invalid value for --progress: '%s' (expected a file "
				     "descriptor)",
				     optarg);
			break;
		case OPT_DROP_ROLL_FORWARD:
			o->plan.drop_roll_forward = true;
			break;
		case OPT_REBUILD:
			o->rebuild = true;
			break;
		case OPT_NO_PROGRESS:
			o->progress_req.mode = PROGRESS_OFF;
			break;
		case 'a':
			info(o, "Info: Automatic fix mode enabled.\n");
			o->plan.mode = FIX_PREEN;
			break;
		case 'c':
			number_arg(o, 'c', optarg, INT32_MAX);
			break;
		case 'm':
			number_arg(o, 'm', optarg, INT32_MAX);
			break;
		case 'C':
			if (f2fs_casefold_parse(optarg, &o->tune.encoding, &o->tune.encoding_flags,
						why, sizeof(why)))
				fail(o, EXIT_USAGE, "-C: %s", why);
			o->tune.encoding_set = true;
			break;
		case 'd':
			o->debug = (int)number_arg(o, 'd', optarg, INT32_MAX);
			info(o, "Info: Debug level = %d\n", o->debug);
			break;
		case 'f':
		case 'y':
			o->force = 1;
			o->plan.mode = FIX_YES;
			info(o, "Info: Force to fix corruption\n");
			break;
		case 'g':
			if (!strcmp(optarg, "android")) {
				info(o, "Info: Set conf for android\n");
				o->android = true;
			}
			break;
		case 'O':
			if (f2fs_feature_parse_known(optarg, &o->tune.features, why, sizeof(why)))
				fail(o, EXIT_USAGE, "-O: %s", why);
			break;
		case 'p':
			preen_arg(o, argc);
			o->plan.mode = FIX_PREEN;
			break;
		case 'z':
			o->undo = optarg;
			break;
		case 'q':
			info(o, "Info: Preserve quota limits = %ld\n",
			     number_arg(o, 'q', optarg, INT32_MAX));
			break;
		case 'l':
			o->show_layout = 1;
			o->read_only = 1;
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
				info(o, "Info: Use default preen mode\n");
				o->plan.mode = FIX_PREEN;
				break;
			}
			fail(o, EXIT_USAGE, "option -%c requires a value (-h for help)", optopt);
		default:
			if (optopt)
				fail(o, EXIT_USAGE, "unknown option -%c (-h for help)", optopt);
			fail(o, EXIT_USAGE, "unknown option %s (-h for help)", argv[optind - 1]);
		}
	}
	if (o->android)
		apply_android_defaults(o);
	if (optind >= argc)
		fail(o, EXIT_USAGE, "no device specified (usage: fsck.f2fs [options] device)");
	o->device = argv[optind++];
	if (optind < argc)
		fail(o, EXIT_USAGE, "unexpected argument: '%s'", argv[optind]);
	check_combinations(o);
}

/* Keep upstream's line @line for the list after the walk. */
static void remember(struct fsck_opts *o, const char *line)
{
	char **grown, *copy = strdup(line);

	if (!copy)
		fail(o, EXIT_OPERATIONAL, "out of memory");
	if ((o->n_listed & (o->n_listed + 1)) == 0) { /* 0, 1, 3, 7...: full, double it */
		grown = realloc(o->listed, (o->n_listed + 1) * 2 * sizeof(*grown));
		if (!grown)
			fail(o, EXIT_OPERATIONAL, "out of memory");
		o->listed = grown;
	}
	o->listed[o->n_listed++] = copy;
}

/* ---- upstream's [FSCK] summary lines, for the text and the JSON alike ---- */

enum line_value {
	LINE_NO_VALUE,	   /* "[Ok..]" alone */
	LINE_FOUND,	   /* "[Ok..] [0x12]": what the check found */
	LINE_CP_AND_FOUND, /* failing, "[Fail] [0x200, 0x1f2]": the checkpoint's, then found */
};

struct summary_line {
	enum f2fs_check_line line;
	const char *label;
	enum line_value value;
};

/* In upstream's order; "fixing SIT types" comes before F2FS_LINE_OTHER. */
static const struct summary_line summary_lines[] = {
    {F2FS_LINE_NAT_UNREACHABLE, "Unreachable nat entries", LINE_FOUND},
    {F2FS_LINE_SIT_BITMAP, "SIT valid block bitmap checking", LINE_NO_VALUE},
    {F2FS_LINE_HARD_LINKS, "Hard link checking for regular file", LINE_FOUND},
    {F2FS_LINE_VALID_BLOCKS, "valid_block_count matching with CP", LINE_CP_AND_FOUND},
    {F2FS_LINE_VALID_NODES, "valid_node_count matching with CP (de lookup)", LINE_CP_AND_FOUND},
    {F2FS_LINE_NAT_NODES, "valid_node_count matching with CP (nat lookup)", LINE_CP_AND_FOUND},
    {F2FS_LINE_VALID_INODES, "valid_inode_count matched with CP", LINE_CP_AND_FOUND},
    {F2FS_LINE_FREE_SEGMENTS, "free segment_count matched with CP", LINE_CP_AND_FOUND},
    {F2FS_LINE_CURSEG, "next block offset is free", LINE_NO_VALUE},
    {F2FS_LINE_OTHER, "other corrupted bugs", LINE_NO_VALUE},
    {F2FS_LINE_SECTIONS, "section ckpt_valid_blocks matched with SIT", LINE_FOUND},
};

#define N_SUMMARY_LINES (sizeof(summary_lines) / sizeof(summary_lines[0]))

/* The values a summary line shows: the checkpoint's (when it has one) and the one found. */
static void line_values(const struct f2fs_check_result *r, enum f2fs_check_line line, uint64_t *cp,
			uint64_t *found)
{
	*cp = *found = 0;
	switch (line) {
	case F2FS_LINE_NAT_UNREACHABLE:
		*found = r->unreachable_nat;
		break;
	case F2FS_LINE_HARD_LINKS:
		*found = r->hard_link_files;
		break;
	case F2FS_LINE_VALID_BLOCKS:
		*cp = r->cp_valid_blocks;
		*found = r->valid_blocks;
		break;
	case F2FS_LINE_VALID_NODES:
		*cp = r->cp_valid_nodes;
		*found = r->valid_nodes;
		break;
	case F2FS_LINE_NAT_NODES:
		*cp = r->cp_valid_nodes;
		*found = r->nat_valid_entries;
		break;
	case F2FS_LINE_VALID_INODES:
		*cp = r->cp_valid_inodes;
		*found = r->valid_inodes;
		break;
	case F2FS_LINE_FREE_SEGMENTS:
		*cp = r->cp_free_segments;
		*found = r->free_segments;
		break;
	case F2FS_LINE_SECTIONS:
		*found = r->sections;
		break;
	default:
		break;
	}
}

/*
 * One summary line as upstream prints it: the label padded to column 53,
 * then " [Ok..]" or " [Fail]", then the value found (with the checkpoint's
 * first when they differ, "[0x200, 0x1f2]"), or nothing.
 */
static void print_line(const struct summary_line *l, const struct f2fs_check_result *r)
{
	bool ok = f2fs_check_line_ok(r, l->line);
	uint64_t cp, found;

	line_values(r, l->line, &cp, &found);
	printf("[FSCK] %-46s [%s]", l->label, ok ? "Ok.." : "Fail");
	if (l->value == LINE_CP_AND_FOUND && !ok)
		printf(" [0x%llx, 0x%llx]", (unsigned long long)cp, (unsigned long long)found);
	else if (l->value != LINE_NO_VALUE)
		printf(" [0x%llx]", (unsigned long long)found);
	putchar('\n');
}

/* ---- the problems and sections, as text ---- */

/*
 * Upstream's own line for @p (its row's message), the one scripts grep
 * for: now, or kept for the list after the walk.
 */
static void print_upstream_message(struct fsck_opts *o, const struct f2fs_problem *p)
{
	char line[sizeof(p->detail)];

	if (!f2fs_problem_message(p, line, sizeof(line)))
		return;
	if (f2fs_problem_info(p->code)->flags & F2FS_PR_MESSAGE_LATER)
		remember(o, line);
	else
		printf("%s\n", line);
}

static void print_problem(const struct f2fs_problem *p, void *arg)
{
	struct fsck_opts *o = arg;
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	progress_clear(&o->progress);
	print_upstream_message(o, p);
	if (info && info->warning) {
		printf("Info: %s: %s: %s: %s\n", info->name, info->structure, info->summary,
		       p->detail);
		return;
	}
	if (o->problems_max && o->problems_shown >= o->problems_max)
		return;
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
	struct fsck_opts *o = arg;

	if (s->sit_ckpt_valid == 0 && s->found == 0 && s->owner_log < 0)
		return;
	progress_clear(&o->progress);
	printf(
	    "[FSCK] section %u: type %d log %d valid %u ckpt_valid %u found %u bad segments %u\n",
	    s->secno, s->type, s->owner_log, s->sit_valid, s->sit_ckpt_valid, s->found,
	    s->bad_segments);
}

/* ---- the problems and sections, into the JSON document ---- */

/* The entry or pointer a repair goes to: "entry" {dir, block or inline, slot}, "pointer" {...}. */
static void json_place(struct json *j, const struct f2fs_place *at)
{
	static const char *const kinds[] = {[F2FS_PLACE_ADDR] = "addr",
					    [F2FS_PLACE_NID] = "nid",
					    [F2FS_PLACE_XATTR_NID] = "xattr_nid"};

	if (at->kind == F2FS_PLACE_NONE)
		return;
	if (at->kind == F2FS_PLACE_ENTRY) {
		json_object(j, "entry");
		json_u64(j, "dir", at->node);
		if (at->block == F2FS_DENTRY_INLINE)
			json_bool(j, "inline", true);
		else
			json_u64(j, "block", at->block);
		json_u64(j, "slot", at->index);
	} else {
		json_object(j, "pointer");
		json_str(j, "kind", kinds[at->kind]);
		json_u64(j, "ino", at->ino);
		json_u64(j, "node", at->node);
		json_u64(j, "index", at->index);
	}
	json_end(j);
}

/* Where a problem is: the nid and block it names, and the block's segment and section. */
static void json_location(struct fsck_opts *o, const struct f2fs_problem *p)
{
	struct json *j = &o->js;

	json_object(j, "location");
	if (p->nid)
		json_u64(j, "nid", p->nid);
	if (p->blkaddr) {
		json_u64(j, "blkaddr", p->blkaddr);
		if (f2fs_geo_in_main(o->geo, p->blkaddr)) {
			uint32_t segno = f2fs_geo_segno(o->geo, p->blkaddr);

			json_u64(j, "segno", segno);
			json_u64(j, "secno", f2fs_geo_secno(o->geo, segno));
		}
	}
	json_place(j, &p->at);
	json_end(j);
}

static void json_problem(const struct f2fs_problem *p, void *arg)
{
	struct fsck_opts *o = arg;
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);
	unsigned int lines = info ? info->lines : F2FS_LINE_BIT(F2FS_LINE_OTHER);
	struct json *j = &o->js;
	size_t i;

	json_object(j, NULL);
	json_str(j, "code", info ? info->name : "PR_UNKNOWN");
	json_str(j, "structure", info ? info->structure : "?");
	json_str(j, "summary", info ? info->summary : "?");
	json_str(j, "message", p->detail);
	json_bool(j, "warning", info && info->warning);
	json_location(o, p);
	if (p->value || p->expected) {
		json_u64(j, "value", p->value);
		json_u64(j, "expected", p->expected);
	}
	json_array(j, "fails");
	for (i = 0; i < N_SUMMARY_LINES && !(info && info->warning); i++)
		if (lines & F2FS_LINE_BIT(summary_lines[i].line))
			json_str(j, NULL, summary_lines[i].label);
	json_end(j);
	json_end(j);
}

/* Sections are kept until the problem list is closed: the check reports both in turn. */
static void keep_section(const struct f2fs_section_report *s, void *arg)
{
	struct fsck_opts *o = arg;

	if (!s->sit_valid && !s->sit_ckpt_valid && !s->found && s->owner_log < 0 &&
	    !s->bad_segments)
		return;
	if (o->n_sections == o->sections_cap) {
		size_t cap = o->sections_cap ? o->sections_cap * 2 : 256;
		struct f2fs_section_report *grown = realloc(o->sections, cap * sizeof(*grown));

		if (!grown)
			fail(o, EXIT_OPERATIONAL, "out of memory");
		o->sections = grown;
		o->sections_cap = cap;
	}
	o->sections[o->n_sections++] = *s;
}

static void json_sections(struct fsck_opts *o)
{
	struct json *j = &o->js;
	size_t i;

	json_array(j, "sections");
	for (i = 0; i < o->n_sections; i++) {
		const struct f2fs_section_report *s = &o->sections[i];

		json_object(j, NULL);
		json_u64(j, "secno", s->secno);
		if (s->type >= 0)
			json_u64(j, "type", (uint64_t)s->type);
		if (s->owner_log >= 0)
			json_u64(j, "owner_log", (uint64_t)s->owner_log);
		json_u64(j, "valid", s->sit_valid);
		json_u64(j, "ckpt_valid", s->sit_ckpt_valid);
		json_u64(j, "found", s->found);
		json_u64(j, "bad_segments", s->bad_segments);
		if (s->bad_segments)
			json_u64(j, "first_bad_segno", s->first_bad_segno);
		json_end(j);
	}
	json_end(j);
}

static void json_summary(struct fsck_opts *o, const struct f2fs_check_result *r)
{
	struct json *j = &o->js;
	uint64_t cp, found;
	size_t i;

	json_object(j, "summary");
	json_u64(j, "max_image_size_mb", r->image_blocks >> o->mb_shift);
	json_u64(j, "free_space_mb", r->free_blocks >> o->mb_shift);
	json_array(j, "lines");
	if (r->zones_checked) {
		json_object(j, NULL);
		json_str(j, "name", "Write pointers consistency");
		json_bool(j, "ok", !r->wp_problems);
		json_u64(j, "value", r->wp_problems);
		json_end(j);
	}
	for (i = 0; i < N_SUMMARY_LINES; i++) {
		const struct summary_line *l = &summary_lines[i];

		line_values(r, l->line, &cp, &found);
		json_object(j, NULL);
		json_str(j, "name", l->label);
		json_bool(j, "ok", f2fs_check_line_ok(r, l->line));
		if (l->value == LINE_CP_AND_FOUND)
			json_u64(j, "checkpoint", cp);
		if (l->value != LINE_NO_VALUE)
			json_u64(j, "value", found);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

static void json_counts(struct fsck_opts *o, const struct f2fs_check_result *r)
{
	struct json *j = &o->js;

	json_object(j, "counts");
	json_u64(j, "valid_blocks", r->valid_blocks);
	json_u64(j, "valid_nodes", r->valid_nodes);
	json_u64(j, "valid_inodes", r->valid_inodes);
	json_u64(j, "nat_valid_entries", r->nat_valid_entries);
	json_u64(j, "unreachable_nat", r->unreachable_nat);
	json_u64(j, "hard_link_files", r->hard_link_files);
	json_u64(j, "free_segments", r->free_segments);
	json_u64(j, "fsynced_nodes", r->fsynced_nodes);
	json_u64(j, "sections", r->sections);
	json_u64(j, "sections_bad", r->sections_bad);
	json_u64(j, "cp_valid_blocks", r->cp_valid_blocks);
	json_u64(j, "cp_valid_nodes", r->cp_valid_nodes);
	json_u64(j, "cp_valid_inodes", r->cp_valid_inodes);
	json_u64(j, "cp_free_segments", r->cp_free_segments);
	json_u64(j, "user_block_count", r->user_block_count);
	json_u64(j, "problems", r->problems);
	json_u64(j, "warnings", r->warnings);
	json_end(j);
}

/* After the check: close the problem list, then the sections, summary and counts. */
static void json_report(struct fsck_opts *o, const struct f2fs_check_result *r)
{
	json_end(&o->js); /* "problems" */
	json_sections(o);
	json_summary(o, r);
	json_counts(o, r);
}

static void print_cp_flags(uint32_t flags)
{
	unsigned int i;
	uint32_t bit;

	printf("Info: checkpoint state = %x : ", flags);
	for (i = 0; (bit = f2fs_cp_flag_bit(i)); i++)
		if (flags & bit)
			printf(" %s", f2fs_cp_flag_name(bit));
	/* upstream names the unmount flag's absence: what a crash test looks for */
	if (!(flags & CP_UMOUNT_FLAG))
		printf(" sudden-power-off");
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

/*
 * The chosen superblock or checkpoint as upstream lists them: -l's layout
 * form, -d's debug form under a boxed title.
 */
static void list_super(struct f2fs_fs *fs, enum fields_form form)
{
	struct fields_out o = {.form = form,
			       .f = stdout,
			       .features = f2fs_fs_features(fs),
			       .bg = &f2fs_fs_geo(fs)->blk};

	fields_print_super(&o, f2fs_fs_sb(fs));
}

static void list_checkpoint(struct f2fs_fs *fs, enum fields_form form)
{
	struct fields_out o = {.form = form,
			       .f = stdout,
			       .features = f2fs_fs_features(fs),
			       .bg = &f2fs_fs_geo(fs)->blk};
	const struct f2fs_cp_data *cpd;

	fields_print_checkpoint(&o, f2fs_fs_cp(fs), f2fs_fs_cp_data(fs, &cpd) ? NULL : cpd);
}

/*
 * The header upstream prints before checking, from the chosen superblock and
 * pack; -d lists both in full as well.
 */
static void print_info(struct f2fs_fs *fs, const struct fsck_opts *o)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	char running[F2FS_VERSION_LEN];
	uint64_t sectors;
	int i;

	tool_kernel_version(running, sizeof(running));
	printf("Info: MKFS version\n  \"%.*s\"\n", fields_version_len(sb->init_version),
	       (const char *)sb->init_version);
	printf("Info: FSCK version\n  from \"%.*s\"\n    to \"%.*s\"\n",
	       fields_version_len(sb->version), (const char *)sb->version,
	       fields_version_len((const uint8_t *)running), running);
	sectors = le64_get(sb->block_count) << le32_get(sb->log_sectors_per_block);
	print_features(le32_get(sb->feature));
	printf("Info: superblock encrypt level = %d, salt = ", sb->encryption_level);
	for (i = 0; i < 16; i++)
		printf("%02x", sb->encrypt_pw_salt[i]);
	putchar('\n');
	if (o->debug > 0)
		list_super(fs, FIELDS_DEBUG);
	printf("Info: Segments per section = %u\n", le32_get(sb->segs_per_sec));
	printf("Info: Sections per zone = %u\n", le32_get(sb->secs_per_zone));
	printf("Info: total FS sectors = %llu (%llu MB)\n", (unsigned long long)sectors,
	       (unsigned long long)(le64_get(sb->block_count) >> o->mb_shift));
	printf("Info: CKPT version = %llx\n", (unsigned long long)le64_get(cp->checkpoint_ver));
	if (o->tune.linear_lookup == F2FS_LINEAR_LOOKUP_KEEP)
		printf("Info: Casefold: linear_lookup [%s]\n",
		       le16_get(sb->s_encoding_flags) & F2FS_ENC_NO_COMPAT_FALLBACK_FL ? "disable"
										       : "enable");
	if (o->debug > 0)
		list_checkpoint(fs, FIELDS_DEBUG);
}

/*
 * The header's last lines, after what tuning printed: upstream's verdict
 * on nat_bits (not when a boot-time run stops at the header, @skipping),
 * then the checkpoint's flags.
 */
static void print_cp_state(struct f2fs_fs *fs, const struct fsck_opts *o, bool skipping)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_nat_table *nat;
	const struct f2fs_cp_data *cpd;

	/*
	 * Upstream's verdict on nat_bits.  With a NAT journal (or a stale tag)
	 * they describe older NAT blocks and the kernel drops them; upstream
	 * calls that corrupted only when told to fix (-f, -y), and otherwise
	 * checks every NAT block's bits.  The tables load here for the check
	 * anyway; a failure is the check's to report.
	 */
	if (!skipping && (le32_get(cp->ckpt_flags) & CP_NAT_BITS_FLAG) && !f2fs_fs_nat(fs, &nat) &&
	    !f2fs_fs_cp_data(fs, &cpd)) {
		bool stale = !f2fs_nat_bits_valid(nat) || le16_get(cpd->nat_journal.n_nats);
		bool ok = stale ? !o->force : f2fs_nat_bits_exact(nat);

		printf("Info: %s valid nat_bits in checkpoint\n", ok ? "Checked" : "Corrupted");
	}
	print_cp_flags(le32_get(cp->ckpt_flags));
}

/*
 * A boot-time run (-a, -p or -p 0, without -f) checks nothing when the
 * kernel left the volume without a sign of trouble, as upstream does
 * (f2fs_should_proceed): no fsck or checkpoint-disabled flag, no quota
 * that needs a check, no error flag with quota files, and both
 * superblock copies and the newest checkpoint pack sound.  -p 1 and -p 2
 * check as -p does otherwise.
 */
static bool boot_skip(const struct fsck_opts *o, struct f2fs_fs *fs)
{
	uint32_t flags = le32_get(f2fs_fs_cp(fs)->ckpt_flags);
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	bool quota = false;
	int i;

	/* --json and -t ask for the check itself */
	if (o->plan.mode != FIX_PREEN || o->force || o->preen_level != 0 || o->show_tree || o->json)
		return false;
	for (i = 0; i < F2FS_MAX_QUOTAS; i++)
		quota |= le32_get(sb->qf_ino[i]) != 0;
	if (flags & (CP_FSCK_FLAG | CP_DISABLED_FLAG | CP_QUOTA_NEED_FSCK_FLAG))
		return false;
	if (quota && (flags & CP_ERROR_FLAG))
		return false;
	return !(f2fs_volume_rejected(f2fs_fs_volume(fs)) &
		 (F2FS_REJECTED_SB | F2FS_REJECTED_CP_NEWEST));
}

/*
 * -p 1 as upstream: when the SIT, the NAT and the checkpoint agree, that is
 * the check ("F2FS metadata [Ok..]", exit 0); when they do not, the full
 * check and preen's repairs follow.  Returns true when the run is over.
 */
static bool meta_only(struct fsck_opts *o, struct f2fs_fs *fs)
{
	char why[256];
	int ret;

	if (o->plan.mode != FIX_PREEN || o->force || o->preen_level != 1 || o->show_tree || o->json)
		return false;
	ret = f2fs_check_meta(fs, why, sizeof(why));
	if (ret < 0)
		fail(o, EXIT_OPERATIONAL, "%s: %s", o->device, why);
	if (!ret) {
		if (!o->quiet)
			printf("[FSCK] F2FS metadata   [Ok..]\n");
		return true;
	}
	if (!o->quiet)
		printf("[FSCK] F2FS metadata   [Fail]\tError: meta does not match, force check all "
		       "(%s)\n",
		       why);
	return false;
}

/* Upstream's line for a zoned volume checked on its device, before the others. */
static void print_write_pointers(const struct f2fs_check_result *r)
{
	if (!r->zones_checked)
		return;
	printf("\n[FSCK] %-46s [%s]", "Write pointers consistency",
	       r->wp_problems ? "Fail" : "Ok..");
	if (r->wp_problems)
		printf(" [0x%x]", r->wp_problems);
	putchar('\n');
}

static void print_summary(const struct fsck_opts *o, const struct f2fs_check_result *r)
{
	size_t i;

	print_write_pointers(r);
	for (i = 0; i < o->n_listed; i++)
		printf("%s\n", o->listed[i]);
	printf("\n[FSCK] Max image size: %llu MB, Free space: %llu MB\n",
	       (unsigned long long)(r->image_blocks >> o->mb_shift),
	       (unsigned long long)(r->free_blocks >> o->mb_shift));
	for (i = 0; i < N_SUMMARY_LINES; i++) {
		/* upstream rewrites SIT types here; a check that never writes only names the step
		 */
		if (summary_lines[i].line == F2FS_LINE_OTHER)
			printf("[FSCK] fixing SIT types\n");
		print_line(&summary_lines[i], r);
	}
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
	bool encrypted; /* the directory being listed */
};

static void print_tree_dir(struct tree_walk *t, uint32_t ino);

static int print_tree_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct tree_walk *t = arg;
	bool encrypted = t->encrypted;
	int i;

	/* upstream's form: "|   " per level above, then the entry */
	for (i = 0; i < t->depth; i++)
		fputs("|   ", stdout);
	fputs("|-- ", stdout);
	/* the bytes on disk, valid UTF-8 as is, the rest as \xNN (tools/common/name.h) */
	tool_put_name(stdout, name, len);
	printf(" <ino = 0x%x>, <encrypted (%d)>\n", ino, encrypted);
	if (type == F2FS_FT_DIR && t->depth < TREE_MAX_DEPTH && f2fs_nat_get(t->nat, ino) &&
	    !f2fs_test_bit_lsb(t->seen, ino)) {
		t->depth++;
		print_tree_dir(t, ino);
		t->depth--;
		t->encrypted = encrypted;
	}
	return 0;
}

static void print_tree_dir(struct tree_walk *t, uint32_t ino)
{
	struct f2fs_node *n = f2fs_block_alloc(t->fs);

	f2fs_set_bit_lsb(t->seen, ino);
	if (n && !f2fs_read_inode(t->fs, ino, n)) {
		t->encrypted = le32_get(n->i.i_flags) & F2FS_ENCRYPT_FL;
		f2fs_dir_for_each_entry(t->fs, n, print_tree_entry, t);
	}
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
	if (t.seen)
		print_tree_dir(&t, le32_get(f2fs_fs_sb(fs)->root_ino));
	free(t.seen);
}

static double elapsed_secs(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* What follows the check in text: upstream's lists and summary. */
static void print_report(struct fsck_opts *o, const struct f2fs_check_result *r)
{
	print_summary(o, r);
	if (r->problems > o->problems_shown)
		printf("\nInfo: %u of the problems were not listed; -d 1 lists them all\n",
		       r->problems - o->problems_shown);
}

/* Every problem of the first check is counted for the repair plan, then shown. */
static void count_problem(const struct f2fs_problem *p, void *arg)
{
	struct fsck_opts *o = arg;

	fix_plan_count(&o->plan, p);
	if (o->show_problem)
		o->show_problem(p, arg);
}

/* Where the check's reports go: text, the JSON document, or nowhere (--quiet). */
static void route_reports(struct fsck_opts *o, struct f2fs_check_options *co)
{
	co->arg = o;
	co->on_problem = count_problem;
	if (o->json) {
		o->show_problem = json_problem;
		co->on_section = keep_section;
		return;
	}
	o->show_problem = o->quiet ? NULL : print_problem;
	co->on_section = o->debug > 0 && !o->quiet ? print_section : NULL;
	o->problems_max = o->debug > 0 ? 0 : 200;
}

/* ---- repairs ---- */

static void __attribute__((format(printf, 2, 3)))
say(const struct fsck_opts *o, const char *fmt, ...);

static const char *rebuild_hints(const struct f2fs_rebuild_report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", r->used_checkpoint ? " checkpoint" : "",
		 r->used_nat ? " NAT" : "", r->used_raw_nat ? " stored-NAT-copies" : "",
		 r->used_sit ? " SIT" : "");
	return buf[0] ? buf + 1 : "none";
}

static void print_rebuild(struct fsck_opts *o, const struct f2fs_rebuild_report *r)
{
	char hints[64];

	rebuild_hints(r, hints, sizeof(hints));
	if (o->json) {
		json_object(&o->js, "rebuild");
		json_u64(&o->js, "blocks_scanned", r->blocks_scanned);
		json_u64(&o->js, "unreadable_segments", r->unreadable_segments);
		json_u64(&o->js, "node_blocks", r->node_blocks);
		json_u64(&o->js, "nodes", r->nodes);
		json_u64(&o->js, "inodes", r->inodes);
		json_u64(&o->js, "dropped", r->dropped);
		json_u64(&o->js, "leftovers", r->leftovers);
		json_u64(&o->js, "data_blocks", r->data_blocks);
		json_u64(&o->js, "summary_blocks", r->summaries);
		json_str(&o->js, "hints", rebuild_hints(r, hints, sizeof(hints)));
		json_str(&o->js, "liveness", r->liveness);
		json_u64(&o->js, "checkpoint_version", r->cp_version);
		json_end(&o->js);
		return;
	}
	say(o,
	    "[FIX] Rebuild from a scan: %llu blocks read, %llu node blocks found, %u nodes kept "
	    "(%u inodes, %llu data blocks), %u dropped as freed (alive per: %s); hints used: %s; "
	    "NAT, SIT, %u SSA block(s) and checkpoint (version %llu) written\n",
	    (unsigned long long)r->blocks_scanned, (unsigned long long)r->node_blocks, r->nodes,
	    r->inodes, (unsigned long long)r->data_blocks, r->dropped, r->liveness,
	    rebuild_hints(r, hints, sizeof(hints)), r->summaries,
	    (unsigned long long)r->cp_version);
	if (r->leftovers)
		say(o,
		    "Info: %u of the dropped nodes lost a data block to a newer node: leftovers of "
		    "deleted files\n",
		    r->leftovers);
	if (r->unreadable_segments)
		say(o, "Info: %u segment(s) could not be read\n", r->unreadable_segments);
}

static void print_recovery(const struct f2fs_recovery *r, void *arg);

/*
 * --rebuild: open the device for writing (with the undo journal), rebuild
 * the tables from a scan; the check and repairs that follow use that handle.
 */
static void rebuild_phase(struct fsck_opts *o, struct tool *t)
{
	struct f2fs_rebuild_report rep;
	char why[256];
	int ret;

	o->wdev = tool_open_for_writing(t, EXIT_OPERATIONAL, o->whint ? F2FS_DEV_WRITE_HINTS : 0);
	o->wdev = tool_undo_stack(t, o->wdev, o->undo, EXIT_OPERATIONAL);
	ret = f2fs_rebuild(o->wdev, &rep, why, sizeof(why));
	if (ret)
		fail(o, EXIT_OPERATIONAL, "%s: cannot rebuild: %s", o->device, why);
	print_rebuild(o, &rep);
}

static void print_recovery(const struct f2fs_recovery *r, void *arg)
{
	struct fsck_opts *o = arg;

	if (o->json) {
		if (!o->in_repairs)
			json_array(&o->js, "recovery");
		json_object(&o->js, NULL);
		json_str(&o->js, "fix", "roll_forward");
		json_u64(&o->js, "chain_blocks", r->chain);
		json_u64(&o->js, "fsynced_blocks", r->fsynced);
		json_u64(&o->js, "inodes", r->recovered_inodes);
		json_u64(&o->js, "created", r->created);
		json_u64(&o->js, "dentries", r->dentries);
		json_u64(&o->js, "data_blocks", r->blocks);
		json_u64(&o->js, "skipped", r->skipped);
		json_str(&o->js, "result", "done");
		json_end(&o->js);
		if (!o->in_repairs)
			json_end(&o->js);
		return;
	}
	say(o,
	    "[FIX] Roll forward: the fsynced data applied as a mount would, then a checkpoint: "
	    "%u chain block(s), %u fsynced, %u inode(s) (%u new, %u name(s) added), %u data "
	    "block(s)%s\n",
	    r->chain, r->fsynced, r->recovered_inodes, r->created, r->dentries, r->blocks,
	    r->skipped ? "; some fsynced blocks belong to no inode and were dropped" : "");
}

static void print_fix(const struct f2fs_fix_report *rep, void *arg)
{
	struct fsck_opts *o = arg;
	const struct f2fs_fix_info *fi = f2fs_fix_info(rep->fix);
	const char *result = rep->withheld ? "withheld" : rep->result ? "failed" : "done";

	if (o->json) {
		json_object(&o->js, NULL);
		json_str(&o->js, "fix", fi->name);
		json_str(&o->js, "action", fi->action);
		json_u64(&o->js, "problems", rep->problems);
		json_u64(&o->js, "changed", rep->changed);
		json_str(&o->js, "result", result);
		if (rep->withheld)
			json_str(&o->js, "why", rep->why);
		json_end(&o->js);
		return;
	}
	if (o->quiet)
		return;
	printf("[FIX] %s: %s: %u problem(s), %u changed: %s%s%s\n", fi->prompt, fi->action,
	       rep->problems, rep->changed, result, rep->withheld ? ": " : "",
	       rep->withheld ? rep->why : "");
}

static void print_left(const struct f2fs_problem *p, void *arg)
{
	struct fsck_opts *o = arg;
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	if (info && info->warning)
		return;
	if (o->json) {
		json_problem(p, arg);
		return;
	}
	if (o->quiet || (o->problems_max && o->problems_shown++ >= o->problems_max))
		return;
	printf("[FSCK] left: %s: %s: %s\n", info ? info->name : "PR_UNKNOWN",
	       info ? info->summary : "?", p->detail);
}

/*
 * After repairs that wrote: the problems the last round's check left,
 * printed by a check of the same handle (only when there are any: a clean
 * last check is the verdict).
 */
static unsigned int report_left(struct fsck_opts *o, unsigned int left)
{
	struct f2fs_check_options co = {.on_problem = print_left, .arg = o};
	struct f2fs_check_result r;

	if (!o->quiet && !o->json)
		printf("\nInfo: checking again after the repairs\n");
	o->problems_shown = 0;
	if (o->json)
		json_array(&o->js, "remaining");
	if (left && f2fs_session_check(o->session, &co, &r))
		fail(o, EXIT_OPERATIONAL, "%s: after the repairs: %s", o->device, r.fatal_why);
	if (o->json)
		json_end(&o->js);
	return left ? r.problems : 0;
}

/* Why the problems of the first check are not repaired, or NULL when they may be. */
static const char *why_not_repaired(const struct fsck_opts *o, bool may_write)
{
	unsigned int fixable = 0;
	int k;

	for (k = 0; k < F2FS_NR_FIXES; k++)
		fixable += o->plan.fixable[k];
	if (o->plan.mode == FIX_NO)
		return "checked without writing (-n)";
	if (!may_write)
		return "the device is mounted read-only";
	if (o->volume_ro)
		return "the volume is read-only (feature ro): this version does not repair it";
	if (!fixable)
		return o->plan.mode == FIX_PREEN
			   ? "none is safe to fix in preen mode (-y fixes more)"
			   : "this version has no fix for them yet";
	if (o->plan.mode == FIX_ASK && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)))
		return "no terminal to ask on (-y repairs them, -p what is safe)";
	if (o->plan.writes_gated && o->plan.mode == FIX_PREEN)
		return "any repair would roll the volume back to the older checkpoint pack, which "
		       "preen mode does not do (-y does)";
	return NULL;
}

static void __attribute__((format(printf, 2, 3)))
say(const struct fsck_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet || o->json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* After a check that found @r->problems: repair what the plan allows; the exit status. */
static int repair_phase(struct fsck_opts *o, bool may_write, const struct f2fs_check_result *r)
{
	const char *why_not = why_not_repaired(o, may_write);
	struct f2fs_session_outcome out;
	unsigned int left;
	char why[256];
	int ret;

	if (!why_not && !fix_plan_decide(&o->plan, stdin, stdout))
		why_not = "every fix was declined";
	if (why_not) {
		say(o, "\nInfo: %u problem(s) found; not repaired: %s\n", r->problems, why_not);
		return EXIT_UNCORRECTED;
	}
	if (o->json)
		json_array(&o->js, "repairs");
	else if (!o->quiet)
		putchar('\n');
	o->in_repairs = true;
	ret = f2fs_session_repair(o->session, &out);
	o->in_repairs = false;
	if (o->json)
		json_end(&o->js);
	snprintf(why, sizeof(why), "%s", o->why);
	if (ret == -ENOMEM || ret == -EIO)
		fail(o, EXIT_OPERATIONAL, "%s: repairing: %s", o->device, why);
	if (ret) {
		say(o, "\nInfo: %u problem(s) found; not repaired: %s\n", r->problems, why);
		return EXIT_UNCORRECTED;
	}
	left = out.checkpointed ? report_left(o, out.left) : r->problems;
	say(o, "\nInfo: %u problem(s) found; %u left after the repairs\n", r->problems, left);
	if (left && o->plan.mode == FIX_PREEN)
		say(o, "UNEXPECTED INCONSISTENCY; RUN fsck.f2fs MANUALLY (without -a or -p)\n");
	if (o->json)
		json_u64(&o->js, "remaining_problems", left);
	return left ? EXIT_UNCORRECTED : EXIT_CORRECTED;
}

/* The session's policy hook: would the plan fix a problem with @code? */
static bool approve_code(enum f2fs_problem_code code, void *arg)
{
	const struct fsck_opts *o = arg;
	struct f2fs_problem p = {.code = code};

	return fix_plan_approves(&o->plan, &p);
}

/* May this run repair (then the device is opened for writing from the start)? */
static bool may_repair(const struct fsck_opts *o, bool may_write)
{
	if (!may_write || o->read_only || o->plan.mode == FIX_NO)
		return false;
	return o->plan.mode != FIX_ASK || (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
}

/*
 * The run's one handle: for writing when it may repair (with the undo
 * journal), applying the fsynced chain first for -y and -p as a mount
 * (and e2fsck's journal replay) would; --drop-roll-forward keeps the
 * chain out, -n and a terminal only look.
 */
static void open_session(struct fsck_opts *o, struct tool *t, bool repairing)
{
	struct f2fs_session_hooks h = {
	    .approve = approve_code, .on_recovery = print_recovery, .on_fix = print_fix, .arg = o};
	enum f2fs_session_failure failure;
	unsigned int flags = 0;
	char reason[400];
	int ret;

	if ((repairing || tuning(o)) && !o->wdev) {
		o->wdev =
		    tool_open_for_writing(t, EXIT_OPERATIONAL, o->whint ? F2FS_DEV_WRITE_HINTS : 0);
		o->wdev = tool_undo_stack(t, o->wdev, o->undo, EXIT_OPERATIONAL);
	}
	if (repairing) {
		flags |= F2FS_SESSION_WRITE;
		if (o->plan.drop_roll_forward)
			flags |= F2FS_SESSION_DROP_ROLL_FORWARD;
		else if (o->plan.mode == FIX_YES || o->plan.mode == FIX_PREEN)
			flags |= F2FS_SESSION_ROLL_FORWARD;
	}
	o->dev = o->wdev ? o->wdev : tool_open_for_reading(t, EXIT_OPERATIONAL);
	ret = f2fs_session_open(o->dev, flags, &h, &o->session, o->why, sizeof(o->why), &failure);
	if (!ret)
		return;
	if (o->dev != o->wdev)
		f2fs_dev_close(o->dev);
	if (failure == F2FS_SESSION_NOT_RECOVERED)
		fail(o, EXIT_UNCORRECTED, "%s: %s", o->device, o->why);
	tool_not_f2fs_reason(t, ret, o->why, reason, sizeof(reason));
	fail(o, EXIT_OPERATIONAL, "%s: %s", o->device, reason);
}

/*
 * -O, -C, --nolinear-lookup: the superblock changed before the check, as
 * upstream does it at mount, with upstream's lines for what changed.
 */
static void tune(struct fsck_opts *o, struct f2fs_fs *fs)
{
	unsigned int changes;
	bool disable = o->tune.linear_lookup == F2FS_LINEAR_LOOKUP_DISABLE;

	if (f2fs_tune_super(fs, &o->tune, &changes, o->why, sizeof(o->why)))
		fail(o, EXIT_OPERATIONAL, "%s: %s", o->device, o->why);
	if (o->quiet)
		return;
	if (changes & F2FS_TUNED_ENCRYPT)
		info(o, "Info: Set Encryption feature\n");
	if (changes & F2FS_TUNED_CASEFOLD)
		info(o, "Info: Set Casefold feature\n");
	if (changes & F2FS_TUNED_CASEFOLD_KEPT)
		info(o, "Info: Casefold is already on: its encoding stays\n");
	if (o->linear_defaulted)
		info(o, "Info: set default linear_lookup option: disable\n");
	if (o->tune.linear_lookup != F2FS_LINEAR_LOOKUP_KEEP)
		info(o, "Info: linear_lookup option: %s\n", disable ? "disable" : "enable");
	if (changes & F2FS_TUNED_NO_CASEFOLD)
		info(o, "Info: Not support Casefold feature\n");
	if (changes & F2FS_TUNED_LINEAR_LOOKUP)
		info(o, "Info: Casefold: %s linear lookup\n", disable ? "disable" : "enable");
}

/* The session and the devices, closed: a device that does not close is an error. */
static void close_all(struct fsck_opts *o)
{
	f2fs_session_close(o->session);
	o->session = NULL;
	if (o->dev && o->dev != o->wdev)
		f2fs_dev_close(o->dev);
	o->dev = NULL;
	if (o->wdev && f2fs_dev_close(o->wdev)) {
		o->wdev = NULL;
		fail(o, EXIT_OPERATIONAL, "%s: closing the device failed", o->device);
	}
	o->wdev = NULL;
}

int main(int argc, char **argv)
{
	struct fsck_opts o = {0};
	struct tool t = {.prog = "fsck.f2fs"};
	struct f2fs_check_options co = {0};
	struct f2fs_check_result r;
	struct f2fs_fs *fs;
	struct timespec start;
	char why[256];
	bool may_write, recovered, skipping;
	int ret, status;

	clock_gettime(CLOCK_MONOTONIC, &start);
	parse_args(&o, argc, argv);
	t.image = o.device;
	t.quiet = o.quiet;
	if (!progress_start(&o.progress, &o.progress_req, o.device, why, sizeof(why)))
		fail(&o, EXIT_USAGE, "--progress=%d: %s", o.progress_req.fd, why);
	if (o.json) {
		json_begin(&o);
		/* a refused target still ends the document */
		t.on_fail = json_on_fail;
		t.on_fail_arg = &o;
	}
	t.sparse = o.sparse;
	if (o.sparse)
		tool_check_sparse_support(&t, EXIT_OPERATIONAL);
	/* a run that may repair (all but -n, -N, --dry-run, -l) refuses a busy device */
	may_write =
	    tool_check_target(&t, o.read_only ? TOOL_READS : TOOL_REPAIRS, EXIT_OPERATIONAL);
	if (o.rebuild && !may_write)
		fail(&o, EXIT_OPERATIONAL, "%s: --rebuild: the device is mounted read-only",
		     o.device);
	if (o.rebuild)
		rebuild_phase(&o, &t);
	open_session(&o, &t, may_repair(&o, may_write));
	recovered = f2fs_session_recovered(o.session);
	fs = f2fs_session_fs(o.session);
	if (o.android && o.wdev)
		f2fs_write_set_no_nat_bits(fs);
	o.volume_ro = f2fs_fs_features(fs) & F2FS_FEATURE_RO;
	o.mb_shift = 20 - f2fs_fs_geo(fs)->blk.log_blksize;
	if (o.show_layout) {
		/* as upstream: the layout, and no check */
		if (!o.quiet) {
			list_super(fs, FIELDS_LAYOUT);
			list_checkpoint(fs, FIELDS_LAYOUT);
		}
		close_all(&o);
		return EXIT_CLEAN;
	}
	if (!o.quiet && !o.json)
		print_info(fs, &o);
	if (tuning(&o))
		tune(&o, fs);
	skipping = !recovered && boot_skip(&o, fs);
	if (!o.quiet && !o.json)
		print_cp_state(fs, &o, skipping);
	if (skipping) {
		/* upstream's verdict for a boot-time run on a volume the kernel left clean */
		if (!o.quiet)
			printf("Info: No error was reported\n");
		close_all(&o);
		return EXIT_CLEAN;
	}
	if (!recovered && meta_only(&o, fs)) {
		close_all(&o);
		return EXIT_CLEAN;
	}
	if (o.show_tree && !o.quiet)
		print_tree(fs);
	route_reports(&o, &co);
	o.geo = f2fs_fs_geo(fs);
	f2fs_fs_set_progress(fs, progress_report, &o.progress);
	if (o.json)
		json_array(&o.js, "problems");
	ret = f2fs_session_check(o.session, &co, &r);
	progress_finish(&o.progress);
	f2fs_fs_set_progress(fs, NULL, NULL);
	o.geo = NULL;
	if (ret)
		fail(&o, EXIT_OPERATIONAL, "%s: %s", o.device, r.fatal_why);
	if (o.json)
		json_report(&o, &r);
	else if (!o.quiet)
		print_report(&o, &r);
	status = r.problems ? repair_phase(&o, may_write, &r) : EXIT_CLEAN;
	close_all(&o);
	if ((o.rebuild || recovered) && status == EXIT_CLEAN)
		status = EXIT_CORRECTED;
	if (o.json) {
		json_u64(&o.js, "elapsed_ms", (uint64_t)(elapsed_secs(&start) * 1000));
		json_finish(&o, status, NULL);
	} else if (!o.quiet) {
		printf("\nDone: %.6f secs\n", elapsed_secs(&start));
	}
	while (o.n_listed)
		free(o.listed[--o.n_listed]);
	free(o.listed);
	free(o.sections);
	if (fflush(stdout) || ferror(stdout))
		fail(&o, EXIT_OPERATIONAL, "writing the report failed");
	return status;
}
