// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io replay: run a workload -- a built-in seed experiment, a trace,
 * or an strace or fio log converted to one -- against an unmounted F2FS
 * volume through libf2fs's write path, with the kernel policies the
 * options choose, and report what they did (lib/replay does the work).
 * --compare runs the workload twice, reformatting in between, under two
 * policy sets, and prints the figures side by side with their ratios.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "f2fs/device.h"
#include "f2fs/replay.h"
#include "f2fs/sched.h"
#include "f2fs/write.h"
#include "f2fs_io.h"
#include "replay_plot.h"
#include "tools/common/common.h"
#include "tools/common/json.h"
#include "tools/common/progress.h"
#include "tools/common/target.h"

#define MAX_POLICY_WORDS 32

struct replay_opts {
	struct f2fs_replay_policy policy[2];
	struct f2fs_replay_gen_params gen;
	const char *workload, *trace, *strace, *strace_root, *fio_iolog, *save_trace, *plot,
	    *io_log;
	const char *device, *mkfs_args;
	const char *compare[2];
	char label[2][160]; /* --compare's runs named by their policy options */
	bool json, direct;
	struct progress_request progress;
};

enum {
	OPT_TRACE = 256,
	OPT_STRACE,
	OPT_STRACE_ROOT,
	OPT_FIO,
	OPT_SAVE_TRACE,
	OPT_IO_LOG,
	OPT_PLOT,
	OPT_MKFS,
	OPT_COMPARE,
	OPT_JSON,
	OPT_DIRECT,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_COUNT,
	OPT_THREADS,
	OPT_FILE_SIZE,
	OPT_IO_SIZE,
	OPT_SMALL_SIZE,
	/* policies: also allowed inside --compare's strings */
	OPT_MERGE,
	OPT_NO_MERGE,
	OPT_CKPT_IOPRIO,
	OPT_SERIAL,
	OPT_NO_SERIAL,
	OPT_MIN_SEQ,
	OPT_WB_CHUNK,
	OPT_SECTION_COUNTS,
	OPT_WRITEBACK,
	OPT_DIRTY_EXPIRE,
	OPT_DIRTY_BACKGROUND,
	OPT_DIRTY_LIMIT,
	OPT_IO_WEIGHTS,
	OPT_DEVICE_MODEL,
	OPT_SEED,
	OPT_THREADS_CPU,
	OPT_LOW_LATENCY,
	OPT_NO_LOW_LATENCY,
	OPT_DEVICE_QUEUE,
	OPT_MAX_REQUEST,
	OPT_NR_REQUESTS,
	OPT_BFQ_BUDGET,
	OPT_SLICE_IDLE,
	OPT_CKPT_WAKEUP,
	OPT_OP_CPU,
	OPT_ZONE_RESET,
	OPT_INJECT,
	OPT_NO_INJECT,
	OPT_LATE_WAKEUP,
	OPT_NO_LATE_WAKEUP,
	OPT_DIRTY_THROTTLE,
	OPT_DEVICE_SEEK,
	OPT_MERGE_WINDOW,
};

static const struct option policy_options[] = {
    {"checkpoint-merge", no_argument, NULL, OPT_MERGE},
    {"no-checkpoint-merge", no_argument, NULL, OPT_NO_MERGE},
    {"ckpt-ioprio", required_argument, NULL, OPT_CKPT_IOPRIO},
    {"serialize-writepages", no_argument, NULL, OPT_SERIAL},
    {"no-serialize-writepages", no_argument, NULL, OPT_NO_SERIAL},
    {"min-seq-blocks", required_argument, NULL, OPT_MIN_SEQ},
    {"wb-chunk", required_argument, NULL, OPT_WB_CHUNK},
    {"section-counts", required_argument, NULL, OPT_SECTION_COUNTS},
    {"writeback", required_argument, NULL, OPT_WRITEBACK},
    {"dirty-expire", required_argument, NULL, OPT_DIRTY_EXPIRE},
    {"dirty-background", required_argument, NULL, OPT_DIRTY_BACKGROUND},
    {"dirty-limit", required_argument, NULL, OPT_DIRTY_LIMIT},
    {"io-weights", required_argument, NULL, OPT_IO_WEIGHTS},
    {"device-model", required_argument, NULL, OPT_DEVICE_MODEL},
    {"seed", required_argument, NULL, OPT_SEED},
    {"threads-cpu", required_argument, NULL, OPT_THREADS_CPU},
    {"bfq-low-latency", no_argument, NULL, OPT_LOW_LATENCY},
    {"no-bfq-low-latency", no_argument, NULL, OPT_NO_LOW_LATENCY},
    {"device-queue", required_argument, NULL, OPT_DEVICE_QUEUE},
    {"max-request", required_argument, NULL, OPT_MAX_REQUEST},
    {"nr-requests", required_argument, NULL, OPT_NR_REQUESTS},
    {"bfq-budget", required_argument, NULL, OPT_BFQ_BUDGET},
    {"bfq-slice-idle", required_argument, NULL, OPT_SLICE_IDLE},
    {"ckpt-wakeup-us", required_argument, NULL, OPT_CKPT_WAKEUP},
    {"op-cpu-us", required_argument, NULL, OPT_OP_CPU},
    {"zone-reset-ms", required_argument, NULL, OPT_ZONE_RESET},
    {"bfq-inject", no_argument, NULL, OPT_INJECT},
    {"no-bfq-inject", no_argument, NULL, OPT_NO_INJECT},
    {"late-slot-wakeup", no_argument, NULL, OPT_LATE_WAKEUP},
    {"no-late-slot-wakeup", no_argument, NULL, OPT_NO_LATE_WAKEUP},
    {"dirty-throttle", required_argument, NULL, OPT_DIRTY_THROTTLE},
    {"device-seek", required_argument, NULL, OPT_DEVICE_SEEK},
    {"merge-window", required_argument, NULL, OPT_MERGE_WINDOW},
    {NULL, 0, NULL, 0},
};

static const struct option run_options[] = {
    {"trace", required_argument, NULL, OPT_TRACE},
    {"import-strace", required_argument, NULL, OPT_STRACE},
    {"strace-root", required_argument, NULL, OPT_STRACE_ROOT},
    {"import-fio-iolog", required_argument, NULL, OPT_FIO},
    {"save-trace", required_argument, NULL, OPT_SAVE_TRACE},
    {"io-log", required_argument, NULL, OPT_IO_LOG},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"mkfs", required_argument, NULL, OPT_MKFS},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"json", no_argument, NULL, OPT_JSON},
    {"direct", no_argument, NULL, OPT_DIRECT},
    {"progress", optional_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"count", required_argument, NULL, OPT_COUNT},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"file-size", required_argument, NULL, OPT_FILE_SIZE},
    {"io-size", required_argument, NULL, OPT_IO_SIZE},
    {"small-size", required_argument, NULL, OPT_SMALL_SIZE},
};

/* ---- option values ---- */

/* A size: bytes, or with a K, M, G or T suffix (powers of 1024). */
static bool parse_size(const char *s, uint64_t *v)
{
	static const char units[] = "KMGT";
	size_t len = strlen(s);
	const char *u = len ? strchr(units, s[len - 1]) : NULL;
	char num[32];
	unsigned int shift;

	if (!u || !s[len - 1])
		return tool_parse_u64(s, TOOL_NUM_DEC, UINT64_MAX, v);
	if (len >= sizeof(num))
		return false;
	memcpy(num, s, len - 1);
	num[len - 1] = 0;
	shift = 10u * (unsigned int)(u - units + 1);
	return tool_parse_u64(num, TOOL_NUM_DEC, UINT64_MAX >> shift, v) && (*v <<= shift, true);
}

static bool parse_u32(const char *s, uint64_t max, uint32_t *v)
{
	uint64_t x;

	if (!tool_parse_u64(s, TOOL_NUM_DEC, max, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

/* --ckpt-ioprio be,N | rt,N */
static bool parse_ioprio(const char *s, struct f2fs_replay_policy *p)
{
	uint32_t level;

	if (strncmp(s, "be,", 3) && strncmp(s, "rt,", 3))
		return false;
	if (!parse_u32(s + 3, 7, &level))
		return false;
	p->ckpt_realtime = s[0] == 'r';
	p->ckpt_level = (uint8_t)level;
	return true;
}

/* --io-weights fg=100,bg=20,flusher=13 (any may be left out) */
static bool parse_weights(const char *s, struct f2fs_replay_policy *p)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t *w = !strncmp(tok, "fg=", 3)	     ? &p->weight[F2FS_RP_CLASS_FG]
			      : !strncmp(tok, "bg=", 3)	     ? &p->weight[F2FS_RP_CLASS_BG]
			      : !strncmp(tok, "flusher=", 8) ? &p->flusher_weight
							     : NULL;

		if (!w || !parse_u32(strchr(tok, '=') + 1, 1000, w) || !*w)
			return false;
	}
	return true;
}

/* --device-model MBPS,IOPS,FLUSH_MS[,BURST_MS] (0 leaves one out) */
static bool parse_model(const char *s, struct f2fs_replay_policy *p)
{
	char buf[64], *f, *save = NULL;
	uint32_t v[4] = {0};
	int i;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	for (i = 0; i < 4; i++) {
		f = strtok_r(i ? NULL : buf, ",", &save);
		if (!f && i == 3)
			break;
		if (!f || !parse_u32(f, 10000000, &v[i]))
			return false;
	}
	if (strtok_r(NULL, ",", &save))
		return false;
	p->model_mbps = v[0];
	p->model_iops = v[1];
	p->model_flush_ms = v[2];
	p->model_burst_ms = v[3];
	return true;
}

/* --device-seek MIN_MS,FULL_MS[,RPM]: milliseconds with up to 3 decimals; MIN above FULL is refused
 */
static bool parse_seek(const char *s, struct f2fs_replay_policy *p)
{
	double min_ms, full_ms;
	unsigned int rpm = 0;
	int used = 0, n;

	n = sscanf(s, "%lf,%lf%n,%u%n", &min_ms, &full_ms, &used, &rpm, &used);
	if (n < 2 || (size_t)used != strlen(s) || min_ms < 0 || full_ms <= 0 || min_ms > full_ms ||
	    full_ms > 1000 || rpm > 100000)
		return false;
	p->seek_min_us = (uint32_t)(min_ms * 1000.0 + 0.5);
	p->seek_full_us = (uint32_t)(full_ms * 1000.0 + 0.5);
	p->rpm = rpm;
	return true;
}

/* MIN[,MAX] microseconds for --ckpt-wakeup-us and --op-cpu-us (MAX below MIN is refused) */
static bool parse_us_range(const char *s, uint32_t *min_us, uint32_t *max_us)
{
	const char *comma = strchr(s, ',');
	char min[16];

	if (!comma) {
		if (!parse_u32(s, 1000000, min_us))
			return false;
		*max_us = *min_us;
		return true;
	}
	if ((size_t)(comma - s) >= sizeof(min))
		return false;
	memcpy(min, s, (size_t)(comma - s));
	min[comma - s] = 0;
	return parse_u32(min, 1000000, min_us) && parse_u32(comma + 1, 1000000, max_us) &&
	       *max_us >= *min_us;
}

/* Apply policy option @opt with @arg; false when @arg is not a valid value. */
static bool apply_policy(int opt, const char *arg, struct f2fs_replay_policy *p)
{
	uint32_t v32;
	uint64_t v;

	switch (opt) {
	case OPT_MERGE:
	case OPT_NO_MERGE:
		p->checkpoint_merge = opt == OPT_MERGE;
		return true;
	case OPT_DEVICE_QUEUE:
		return parse_u32(arg, 1024, &p->device_queue) && p->device_queue;
	case OPT_LOW_LATENCY:
	case OPT_NO_LOW_LATENCY:
		p->low_latency = opt == OPT_LOW_LATENCY;
		return true;
	case OPT_SERIAL:
	case OPT_NO_SERIAL:
		p->serialize_writepages = opt == OPT_SERIAL;
		return true;
	case OPT_CKPT_IOPRIO:
		return parse_ioprio(arg, p);
	case OPT_MIN_SEQ:
		return parse_u32(arg, 1u << 30, &p->min_seq_blocks);
	case OPT_WB_CHUNK:
		return parse_u32(arg, 1u << 20, &p->wb_chunk_pages) && p->wb_chunk_pages;
	case OPT_SECTION_COUNTS:
		p->section_counts =
		    !strcmp(arg, "loop") ? F2FS_SECTION_COUNTS_LOOP : F2FS_SECTION_COUNTS_CACHED;
		return !strcmp(arg, "loop") || !strcmp(arg, "cached");
	case OPT_WRITEBACK:
		p->writeback = !strcmp(arg, "fifo") ? F2FS_RP_WB_FIFO : F2FS_RP_WB_EXPIRE;
		return !strcmp(arg, "fifo") || !strcmp(arg, "expire");
	case OPT_DIRTY_EXPIRE:
		return parse_u32(arg, 3600000, &p->dirty_expire_ms);
	case OPT_DIRTY_BACKGROUND:
		return parse_size(arg, &p->dirty_background);
	case OPT_DIRTY_LIMIT:
		return parse_size(arg, &p->dirty_limit);
	case OPT_DIRTY_THROTTLE:
		p->dirty_throttle =
		    !strcmp(arg, "writeback") ? F2FS_RP_THROTTLE_WRITEBACK : F2FS_RP_THROTTLE_SLEEP;
		return !strcmp(arg, "writeback") || !strcmp(arg, "sleep");
	case OPT_BFQ_BUDGET:
		return parse_size(arg, &p->bfq_budget);
	case OPT_SLICE_IDLE:
		return parse_u32(arg, 1000, &p->slice_idle_ms);
	case OPT_INJECT:
	case OPT_NO_INJECT:
		p->bfq_inject = opt == OPT_INJECT;
		return true;
	case OPT_LATE_WAKEUP:
	case OPT_NO_LATE_WAKEUP:
		p->late_slot_wakeup = opt == OPT_LATE_WAKEUP;
		return true;
	case OPT_CKPT_WAKEUP:
		return parse_us_range(arg, &p->ckpt_wakeup_us, &p->ckpt_wakeup_max_us);
	case OPT_OP_CPU:
		return parse_us_range(arg, &p->op_cpu_us, &p->op_cpu_max_us);
	case OPT_ZONE_RESET:
		if (!parse_u32(arg, 60000, &v32))
			return false;
		p->model_zone_reset_ms = v32;
		return true;
	case OPT_NR_REQUESTS:
		return parse_u32(arg, 4096, &p->nr_requests) && p->nr_requests;
	case OPT_MAX_REQUEST:
		return parse_size(arg, &p->max_request) && p->max_request % 4096 == 0;
	case OPT_IO_WEIGHTS:
		return parse_weights(arg, p);
	case OPT_DEVICE_MODEL:
		return parse_model(arg, p);
	case OPT_DEVICE_SEEK:
		return parse_seek(arg, p);
	case OPT_MERGE_WINDOW:
		return parse_u32(arg, 10000000, &p->merge_us);
	case OPT_SEED:
		return tool_parse_u64(arg, TOOL_NUM_DEC | TOOL_NUM_HEX, UINT64_MAX, &p->seed);
	case OPT_THREADS_CPU:
		if (!tool_parse_u64(arg, TOOL_NUM_DEC, 4096, &v))
			return false;
		p->threads_cpu = (uint32_t)v;
		return true;
	}
	return false;
}

static const char *option_name(const struct option *table, int opt)
{
	for (; table->name; table++)
		if (table->val == opt)
			return table->name;
	return "?";
}

/* ---- the command line ---- */

static void bad_option(const struct tool *t, const char *name, const char *arg)
{
	tool_fail(t, 1, "--%s %s: bad value (see f2fs_io help replay)", name, arg ? arg : "");
}

static bool apply_gen(int opt, const char *arg, struct f2fs_replay_gen_params *g)
{
	switch (opt) {
	case OPT_COUNT:
		return parse_u32(arg, 10000000, &g->count) && g->count;
	case OPT_THREADS:
		return parse_u32(arg, 1024, &g->threads) && g->threads;
	case OPT_FILE_SIZE:
		return parse_size(arg, &g->file_size) && g->file_size;
	case OPT_IO_SIZE:
		return parse_size(arg, &g->io_size) && g->io_size;
	case OPT_SMALL_SIZE:
		return parse_size(arg, &g->small_size) && g->small_size;
	}
	return false;
}

static void all_options(struct option *out, size_t n)
{
	size_t k = 0, i;

	for (i = 0; i < sizeof(run_options) / sizeof(run_options[0]) && k < n; i++)
		out[k++] = run_options[i];
	for (i = 0; policy_options[i].name && k < n; i++)
		out[k++] = policy_options[i];
	memset(&out[k < n ? k : n - 1], 0, sizeof(*out));
}

static void apply_run_option(const struct tool *t, int opt, const char *arg, struct replay_opts *o)
{
	switch (opt) {
	case OPT_TRACE:
		o->trace = arg;
		break;
	case OPT_STRACE:
		o->strace = arg;
		break;
	case OPT_STRACE_ROOT:
		o->strace_root = arg;
		break;
	case OPT_FIO:
		o->fio_iolog = arg;
		break;
	case OPT_PLOT:
		o->plot = arg;
		break;
	case OPT_SAVE_TRACE:
		o->save_trace = arg;
		break;
	case OPT_IO_LOG:
		o->io_log = arg;
		break;
	case OPT_MKFS:
		o->mkfs_args = arg;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_DIRECT:
		o->direct = true;
		break;
	case OPT_PROGRESS:
		if (!progress_parse(arg, &o->progress))
			bad_option(t, "progress", arg);
		break;
	case OPT_NO_PROGRESS:
		o->progress.mode = PROGRESS_OFF;
		break;
	default:
		if (!apply_gen(opt, arg, &o->gen))
			bad_option(t, option_name(run_options, opt), arg);
	}
}

/* Each policy set of --compare: options of the policy table only, split at blanks. */
static void parse_policy_string(const struct tool *t, const char *s, struct f2fs_replay_policy *p)
{
	char *copy = strdup(s), *words[MAX_POLICY_WORDS + 1], *save = NULL, *w;
	int argc = 1, opt;

	if (!copy)
		tool_fail(t, 8, "out of memory");
	words[0] = (char *)"compare";
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (argc == MAX_POLICY_WORDS)
			tool_fail(t, 1, "--compare \"%s\": too many words", s);
		words[argc++] = w;
	}
	words[argc] = NULL;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, words, "", policy_options, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			tool_fail(t, 1, "--compare \"%s\": \"%s\" is not a policy option", s,
				  words[optind - 1]);
		if (!apply_policy(opt, optarg, p))
			tool_fail(t, 1, "--compare \"%s\": --%s %s: bad value", s,
				  option_name(policy_options, opt), optarg ? optarg : "");
	}
	if (optind < argc)
		tool_fail(t, 1, "--compare \"%s\": \"%s\" is not a policy option", s,
			  words[optind]);
	free(copy);
}

/* "f2fs_io replay --help": the usage as "f2fs_io help replay" prints it, exit 0. */
static void help_exit(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_usage(cmd, stdout);
			exit(0);
		}
}

/* getopt_long's '?': an option it does not know, or one without its value. */
static void bad_word(const struct tool *t, char **argv, const struct option *opts)
{
	const char *word = argv[optind - 1];

	for (; optopt && opts->name; opts++)
		if (opts->val == optopt)
			tool_fail(t, 1, "--%s needs a value (f2fs_io replay --help)", opts->name);
	tool_fail(t, 1, "unrecognized option \"%s\" (f2fs_io replay --help)", word);
}

static bool is_generator(const char *name)
{
	const char *const *g;

	for (g = f2fs_replay_generators; *g; g++)
		if (!strcmp(*g, name))
			return true;
	return false;
}

/* "ckpt-storm, tiotest, seqwrite, writeback" */
static void generator_names(char *out, size_t len)
{
	const char *const *g;
	size_t o = 0;

	out[0] = 0;
	for (g = f2fs_replay_generators; *g && o < len; g++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? ", " : "", *g);
}

/*
 * Too few words after the options: say which is missing, in the order of
 * the usage, WORKLOAD (or a --trace, --import-* option) then DEVICE.
 */
static void missing_args(const struct tool *t, int sources, int left, char **rest)
{
	char names[128];

	generator_names(names, sizeof(names));
	if (sources || (left == 1 && is_generator(rest[0])))
		tool_fail(t, 1, "no device given after the workload (f2fs_io replay --help)");
	if (!left)
		tool_fail(t, 1, "no workload and no device given (f2fs_io replay --help)");
	if (!access(rest[0], F_OK))
		tool_fail(t, 1,
			  "no workload given before device %s: a workload name (%s), --trace, "
			  "--import-strace or --import-fio-iolog",
			  rest[0], names);
	tool_fail(t, 1,
		  "\"%s\" is neither a workload (%s) nor an existing device: give WORKLOAD "
		  "DEVICE (f2fs_io replay --help)",
		  rest[0], names);
}

/*
 * The names of --compare's runs: their policy strings, blanks squeezed, so
 * that the table's columns and the plot's rows say which is which; "" is
 * "(defaults)", and two equal strings are told apart as 1st and 2nd.
 */
static void compare_labels(struct replay_opts *o)
{
	char *out, *end;
	const char *s;
	int i;

	for (i = 0; i < 2; i++) {
		out = o->label[i];
		end = out + sizeof(o->label[i]) - 1;
		for (s = o->compare[i]; *s && out < end; s++)
			if ((*s != ' ' && *s != '\t') || (out > o->label[i] && out[-1] != ' '))
				*out++ = *s == '\t' ? ' ' : *s;
		if (out > o->label[i] && out[-1] == ' ')
			out--;
		*out = 0;
		if (!o->label[i][0])
			snprintf(o->label[i], sizeof(o->label[i]), "(defaults)");
	}
	if (!strcmp(o->label[0], o->label[1]) && strlen(o->label[0]) < sizeof(o->label[0]) - 8) {
		strcat(o->label[0], " (1st)");
		strcat(o->label[1], " (2nd)");
	}
}

static void parse_args(const struct tool *t, int argc, char **argv, struct replay_opts *o,
		       const struct f2fs_io_cmd *cmd)
{
	struct option opts[64];
	int opt, sources;

	all_options(opts, sizeof(opts) / sizeof(opts[0]));
	f2fs_replay_policy_default(&o->policy[0]);
	help_exit(argc, argv, cmd);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			bad_word(t, argv, opts);
		if (opt == OPT_COMPARE) {
			if (optind >= argc)
				tool_fail(t, 1,
					  "--compare needs two policy strings, "
					  "e.g. --compare \"--no-checkpoint-merge\" \"\"");
			o->compare[0] = optarg;
			o->compare[1] = argv[optind++];
		} else if (opt >= OPT_MERGE) {
			if (!apply_policy(opt, optarg, &o->policy[0]))
				bad_option(t, option_name(policy_options, opt), optarg);
		} else {
			apply_run_option(t, opt, optarg, o);
		}
	}
	sources = !!o->trace + !!o->strace + !!o->fio_iolog;
	if (sources > 1)
		tool_fail(t, 1,
			  "one workload at a time: --trace, --import-strace and "
			  "--import-fio-iolog do not go together");
	if (argc - optind < 2 - sources)
		missing_args(t, sources, argc - optind, argv + optind);
	if (argc - optind > 2 - sources)
		tool_fail(t, 1, "\"%s\": one %sdevice only (f2fs_io replay --help)",
			  argv[optind + 2 - sources], sources ? "" : "workload and one ");
	if (!sources)
		o->workload = argv[optind++];
	o->device = argv[optind];
	if (o->compare[0]) {
		o->policy[1] = o->policy[0];
		parse_policy_string(t, o->compare[0], &o->policy[0]);
		parse_policy_string(t, o->compare[1], &o->policy[1]);
		compare_labels(o);
	}
}

/* ---- the workload ---- */

static void load_log(const struct tool *t, const char *path, int kind, const char *root,
		     struct f2fs_replay_workload *wl)
{
	struct f2fs_replay_parse_error err;
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		tool_fail(t, 1, "%s: %s", path, strerror(errno));
	memset(&err, 0, sizeof(err));
	if (kind == OPT_TRACE)
		ret = f2fs_replay_trace_read(f, path, wl, &err);
	else if (kind == OPT_STRACE)
		ret = f2fs_replay_import_strace(f, path, root, wl, &err);
	else
		ret = f2fs_replay_import_fio_iolog(f, path, wl, &err);
	fclose(f);
	if (ret == -EINVAL)
		tool_fail(t, 1, "%s:%u: %s", err.file[0] ? err.file : path, err.line, err.reason);
	if (ret)
		tool_fail(t, ret == -ENOMEM ? 8 : 1, "%s: %s", path, strerror(-ret));
}

static void load_workload(const struct tool *t, const struct replay_opts *o,
			  struct f2fs_replay_workload *wl)
{
	char why[160] = "";
	int ret;

	f2fs_replay_workload_init(wl, o->workload ? o->workload : "trace");
	if (o->trace)
		load_log(t, o->trace, OPT_TRACE, NULL, wl);
	else if (o->strace)
		load_log(t, o->strace, OPT_STRACE, o->strace_root, wl);
	else if (o->fio_iolog)
		load_log(t, o->fio_iolog, OPT_FIO, NULL, wl);
	else if ((ret = f2fs_replay_generate(o->workload, &o->gen, wl, why, sizeof(why))))
		tool_fail(t, ret == -ENOMEM ? 8 : 1, "%s", why);
	if (o->save_trace) {
		FILE *f = fopen(o->save_trace, "w");

		if (!f || f2fs_replay_trace_write(f, wl) || fclose(f))
			tool_fail(t, 1, "%s: cannot write the trace", o->save_trace);
	}
}

/* ---- the device ---- */

/* Our mkfs.f2fs: beside this program, or in the build tree, never another one from $PATH. */
static void find_mkfs(char *out, size_t len)
{
	char self[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *env = getenv("F2FS_REPLAY_MKFS");

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	out[0] = 0;
	if (n <= 0)
		return;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = 0;
	snprintf(out, len, "%s/mkfs.f2fs", self);
	if (access(out, X_OK))
		snprintf(out, len, "%s/../../mkfs/mkfs.f2fs", self);
	if (access(out, X_OK))
		out[0] = 0;
}

static void run_mkfs(const struct tool *t, const char *args, const char *device)
{
	char mkfs[4200], *copy = strdup(args), *argv[MAX_POLICY_WORDS + 4], *save = NULL, *w;
	int argc = 0, status;
	pid_t pid;

	find_mkfs(mkfs, sizeof(mkfs));
	if (!mkfs[0])
		tool_fail(t, 8,
			  "--mkfs: our mkfs.f2fs is not beside f2fs_io (set F2FS_REPLAY_MKFS)");
	if (!copy)
		tool_fail(t, 8, "out of memory");
	argv[argc++] = mkfs;
	argv[argc++] = (char *)"-f";
	argv[argc++] = (char *)"-q";
	for (w = strtok_r(copy, " \t", &save); w && argc < MAX_POLICY_WORDS;
	     w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc++] = (char *)device;
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv(mkfs, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		tool_fail(t, 1, "--mkfs \"%s\": mkfs.f2fs failed on %s", args, device);
	free(copy);
}

/* ---- the report ---- */

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

static const char *class_name(unsigned int c)
{
	static const char *const names[F2FS_RP_IO_CLASSES] = {"fg", "bg", "ckpt", "flusher"};

	return c < F2FS_RP_IO_CLASSES ? names[c] : "?";
}

/* ", seek 1-18 ms at 7200 rpm, merge 500 us": the head model, if any */
static void describe_head(const struct f2fs_replay_policy *p, char *out, size_t len)
{
	char rpm[24] = "", merge[32] = "";

	if (!p->seek_full_us)
		return;
	if (p->rpm)
		snprintf(rpm, sizeof(rpm), " at %u rpm", p->rpm);
	if (p->merge_us)
		snprintf(merge, sizeof(merge), ", merge %u us", p->merge_us);
	snprintf(out, len, ", seek %g-%g ms%s%s", p->seek_min_us / 1000.0, p->seek_full_us / 1000.0,
		 rpm, merge);
}

static void describe_policy(const struct f2fs_replay_policy *p, char *out, size_t len)
{
	char model[192] = "the device's own speed", burst[32] = "", zr[112] = "";

	if (p->model_burst_ms)
		snprintf(burst, sizeof(burst), ", throttle burst %.0f ms", p->model_burst_ms);
	if (p->model_zone_reset_ms)
		snprintf(zr, sizeof(zr), ", zone reset %.0f ms", p->model_zone_reset_ms);
	describe_head(p, zr + strlen(zr), sizeof(zr) - strlen(zr));
	if (p->model_mbps || p->model_iops || p->model_flush_ms)
		snprintf(model, sizeof(model),
			 "model %.0f MB/s, %.0f IOPS, flush %.0f ms%s%s, queue %u", p->model_mbps,
			 p->model_iops, p->model_flush_ms, burst, zr, p->device_queue);
	else if (zr[0])
		snprintf(model, sizeof(model), "the device's own speed%s", zr);
	snprintf(out, len,
		 "%s (ckpt ioprio %s,%u), %s (min_seq_blocks %u), section counts %s, writeback "
		 "%s, weights fg=%u bg=%u flusher=%u%s, %s, seed %llu",
		 p->checkpoint_merge ? "checkpoint_merge" : "nocheckpoint_merge",
		 p->ckpt_realtime ? "rt" : "be", p->ckpt_level,
		 p->serialize_writepages ? "serialized writepages" : "writepages not serialized",
		 p->min_seq_blocks ? p->min_seq_blocks : 512,
		 p->section_counts == F2FS_SECTION_COUNTS_LOOP ? "loop" : "cached",
		 p->writeback == F2FS_RP_WB_FIFO ? "fifo" : "expire", p->weight[0], p->weight[1],
		 p->flusher_weight, p->low_latency ? " (bfq low_latency)" : "", model,
		 (unsigned long long)p->seed);
}

/* ---- failed operations ---- */

#define MAX_ERROR_KINDS (2 * F2FS_RP_ERROR_KINDS)

/* A run's failed operations: counted by error, and the first of them in time. */
struct error_summary {
	uint64_t total, other; /* other: of kinds the threads' reports did not count apart */
	struct f2fs_replay_error_count kinds[MAX_ERROR_KINDS];
	size_t nkinds;
	const struct f2fs_replay_thread_report *first; /* its thread, NULL when none failed */
};

/* ENOENT for -ENOENT, or "errno N" where libc has no names. */
static const char *error_name(int err, char *buf, size_t len)
{
#ifdef HAVE_STRERRORNAME_NP
	const char *name = strerrorname_np(-err);

	if (name)
		return name;
#endif
	snprintf(buf, len, "errno %d", -err);
	return buf;
}

static void add_error_kind(struct error_summary *s, const struct f2fs_replay_error_count *k)
{
	size_t i;

	for (i = 0; i < s->nkinds && s->kinds[i].error != k->error; i++)
		;
	if (i == MAX_ERROR_KINDS) {
		s->other += k->count;
		return;
	}
	s->kinds[i].error = k->error;
	s->kinds[i].count += k->count;
	if (i == s->nkinds)
		s->nkinds++;
}

/* The most frequent error first (a stable insertion sort: ties keep their order). */
static void sort_kinds(struct error_summary *s)
{
	struct f2fs_replay_error_count k;
	size_t i, j;

	for (i = 1; i < s->nkinds; i++) {
		k = s->kinds[i];
		for (j = i; j > 0 && s->kinds[j - 1].count < k.count; j--)
			s->kinds[j] = s->kinds[j - 1];
		s->kinds[j] = k;
	}
}

static void summarize_errors(const struct f2fs_replay_report *r, struct error_summary *s)
{
	size_t i, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->nthreads; i++) {
		const struct f2fs_replay_thread_report *t = &r->threads[i];
		uint64_t counted = 0;

		if (!t->errors)
			continue;
		s->total += t->errors;
		for (k = 0; k < t->nerror_kinds; k++) {
			add_error_kind(s, &t->error_kinds[k]);
			counted += t->error_kinds[k].count;
		}
		s->other += t->errors - counted;
		if (!s->first || t->first_error_at_s < s->first->first_error_at_s)
			s->first = t;
	}
	sort_kinds(s);
}

/* "ENOENT 2, EEXIST 1" */
static void describe_kinds(const struct error_summary *s, char *out, size_t len)
{
	char name[32];
	size_t i, o = 0;

	out[0] = 0;
	for (i = 0; i < s->nkinds && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s %llu", i ? ", " : "",
				      error_name(s->kinds[i].error, name, sizeof(name)),
				      (unsigned long long)s->kinds[i].count);
	if (s->other && o < len)
		snprintf(out + o, len - o, "%sother %llu", o ? ", " : "",
			 (unsigned long long)s->other);
}

/* "thread t, trace line 3: No such file or directory", or "(no trace line)" for a generated op. */
static void describe_first(const struct f2fs_replay_thread_report *t, char *out, size_t len)
{
	if (t->first_error_line)
		snprintf(out, len, "thread %s, trace line %u: %s", t->name, t->first_error_line,
			 strerror(-t->first_error));
	else
		snprintf(out, len, "thread %s (a generated op, no trace line): %s", t->name,
			 strerror(-t->first_error));
}

static void print_errors(const struct f2fs_replay_report *r)
{
	struct error_summary s;
	char kinds[256], first[160];

	summarize_errors(r, &s);
	if (!s.total)
		return;
	describe_kinds(&s, kinds, sizeof(kinds));
	describe_first(s.first, first, sizeof(first));
	printf("failed operations: %llu (%s); the first: %s\n", (unsigned long long)s.total, kinds,
	       first);
}

/* ---- the text report ---- */

static void print_threads(const struct f2fs_replay_report *r)
{
	size_t i;

	printf("%-12s %-5s %10s %9s %7s %8s %8s %8s %7s\n", "thread", "class", "elapsed_s", "ops",
	       "fsyncs", "p50_ms", "p99_ms", "max_ms", "errors");
	for (i = 0; i < r->nthreads; i++) {
		const struct f2fs_replay_thread_report *t = &r->threads[i];

		printf("%-12s %-5s %10.3f %9llu %7llu %8.2f %8.2f %8.2f %7llu\n", t->name,
		       class_name(t->io_class), t->elapsed_s, (unsigned long long)t->ops,
		       (unsigned long long)t->fsyncs, t->fsync_p50_ms, t->fsync_p99_ms,
		       t->fsync_max_ms, (unsigned long long)t->errors);
		if (t->errors && t->first_error_line)
			printf("  first error: %s, trace line %u\n", strerror(-t->first_error),
			       t->first_error_line);
		else if (t->errors)
			printf("  first error: %s (a generated op, no trace line)\n",
			       strerror(-t->first_error));
	}
}

/*
 * Write amplification is what the device took over what the workload
 * wrote; below 1 it needs saying why, or it reads as lost data.
 */
static void print_amplification(const struct f2fs_replay_report *r)
{
	uint64_t device = r->bytes[0] + r->bytes[1] + r->bytes[2];

	if (!r->user_bytes) {
		printf("write amplification -: the workload wrote nothing (the device took %.1f "
		       "MiB)\n",
		       mib(device));
		return;
	}
	printf("write amplification %.3f = the device took %.1f MiB (data + node + meta) / the "
	       "workload wrote %.1f MiB; workload %.1f MB/s\n",
	       r->write_amplification, mib(device), mib(r->user_bytes), r->write_mbps);
	if (r->write_amplification < 1)
		printf("  below 1: data the workload rewrote, truncated or deleted while still in "
		       "the page cache reached the device once or not at all\n");
}

/* One row of the I/O class table. */
struct class_row {
	uint64_t read_bytes, reads, write_bytes, writes, flushes, requests;
	double wait_total_ms, wait_max_ms;
};

static void class_row(const struct f2fs_replay_report *r, unsigned int c, struct class_row *row)
{
	row->read_bytes = r->class_read_bytes[c];
	row->reads = r->class_reads[c];
	row->write_bytes = r->class_write_bytes[c];
	row->writes = r->class_writes[c];
	row->flushes = r->class_flushes[c];
	row->requests = r->class_requests[c];
	row->wait_total_ms = r->class_wait_avg_ms[c] * (double)r->class_requests[c];
	row->wait_max_ms = r->class_wait_max_ms[c];
}

static void add_row(struct class_row *sum, const struct class_row *row)
{
	sum->read_bytes += row->read_bytes;
	sum->reads += row->reads;
	sum->write_bytes += row->write_bytes;
	sum->writes += row->writes;
	sum->flushes += row->flushes;
	sum->requests += row->requests;
	sum->wait_total_ms += row->wait_total_ms;
	if (row->wait_max_ms > sum->wait_max_ms)
		sum->wait_max_ms = row->wait_max_ms;
}

static void print_row(const char *name, const struct class_row *row)
{
	printf("%-8s %9.1f %8llu %11.1f %8llu %8llu %9llu %12.2f %12.2f\n", name,
	       mib(row->read_bytes), (unsigned long long)row->reads, mib(row->write_bytes),
	       (unsigned long long)row->writes, (unsigned long long)row->flushes,
	       (unsigned long long)row->requests,
	       row->requests ? row->wait_total_ms / (double)row->requests : 0, row->wait_max_ms);
}

/*
 * The device requests of each I/O class, reads, writes and flushes apart,
 * and their total: every request from the mount to the unmount, so the
 * mount's reads and the workload's setup are in it (the written line above
 * counts from the workload's start).
 */
static void print_classes(const struct f2fs_replay_report *r)
{
	struct class_row row, sum;
	unsigned int c;

	memset(&sum, 0, sizeof(sum));
	printf("\ndevice requests by I/O class, mount to unmount (the mount's reads and the "
	       "workload's setup in them):\n");
	printf("%-8s %9s %8s %11s %8s %8s %9s %12s %12s\n", "class", "read_MiB", "reads",
	       "written_MiB", "writes", "flushes", "requests", "wait_avg_ms", "wait_max_ms");
	for (c = 0; c < F2FS_RP_IO_CLASSES; c++) {
		if (!r->class_requests[c])
			continue;
		class_row(r, c, &row);
		print_row(class_name(c), &row);
		add_row(&sum, &row);
	}
	print_row("total", &sum);
}

static void print_report(const struct f2fs_replay_report *r, const struct f2fs_replay_policy *p)
{
	char pol[512];

	describe_policy(p, pol, sizeof(pol));
	printf("workload %s: %s\n", r->workload, pol);
	printf("elapsed %.3f s\n\n", r->elapsed_s);
	print_threads(r);
	print_errors(r);
	printf("\ncheckpoints: requested %llu, issued %llu, merged %llu, skipped (clean) %llu; "
	       "wait avg %.2f ms, peak %.2f ms\n",
	       (unsigned long long)r->cp_requested, (unsigned long long)r->cp_issued,
	       (unsigned long long)r->cp_merged, (unsigned long long)r->cp_skipped,
	       r->cp_wait_avg_ms, r->cp_wait_peak_ms);
	printf("written: data %.1f MiB (%llu requests), node %.1f MiB (%llu), meta %.1f MiB "
	       "(%llu); flushes %llu\n",
	       mib(r->bytes[0]), (unsigned long long)r->requests[0], mib(r->bytes[1]),
	       (unsigned long long)r->requests[1], mib(r->bytes[2]),
	       (unsigned long long)r->requests[2], (unsigned long long)r->flushes);
	print_amplification(r);
	printf("cleaner: runs %llu, blocks moved %llu, sections freed %llu\n",
	       (unsigned long long)r->gc_runs, (unsigned long long)r->gc_blocks_moved,
	       (unsigned long long)r->gc_sections_freed);
	printf("files: %llu, %.1f MiB, extents %llu (at most %llu in a file), read requests at "
	       "512 KiB %llu\n",
	       (unsigned long long)r->files, mib(r->file_bytes), (unsigned long long)r->extents,
	       (unsigned long long)r->max_extents, (unsigned long long)r->read_requests);
	if (r->read_pass)
		printf("read pass: %llu requests (%llu of nodes), %.1f MiB in %.3f s, %.1f MB/s\n",
		       (unsigned long long)r->read_pass_requests,
		       (unsigned long long)r->read_pass_node_requests, mib(r->read_pass_bytes),
		       r->read_pass_s, r->read_pass_mbps);
	print_classes(r);
	if (r->zoned)
		printf("zones: %llu reset (%.1f MiB), %llu finished, in %.1f ms; %llu writes held "
		       "for their zone's write pointer\n",
		       (unsigned long long)r->zone_resets, mib(r->zone_reset_bytes),
		       (unsigned long long)r->zone_finishes, r->zone_mgmt_ms,
		       (unsigned long long)r->zone_ordered_writes);
	if (r->head)
		printf("head: %llu requests sought, %.3f s seeking; %llu requests merged into the "
		       "one before\n",
		       (unsigned long long)r->seeks, r->seek_s,
		       (unsigned long long)r->merged_requests);
	printf("content check: %llu files read back, %llu differ\n",
	       (unsigned long long)r->verified_files, (unsigned long long)r->verify_failures);
}

static void json_policy(struct json *j, const struct f2fs_replay_policy *p)
{
	json_object(j, "policy");
	json_bool(j, "checkpoint_merge", p->checkpoint_merge);
	json_str(j, "ckpt_ioprio_class", p->ckpt_realtime ? "rt" : "be");
	json_u64(j, "ckpt_ioprio_level", p->ckpt_level);
	json_bool(j, "serialize_writepages", p->serialize_writepages);
	json_u64(j, "min_seq_blocks", p->min_seq_blocks ? p->min_seq_blocks : 512);
	json_str(j, "section_counts",
		 p->section_counts == F2FS_SECTION_COUNTS_LOOP ? "loop" : "cached");
	json_str(j, "writeback", p->writeback == F2FS_RP_WB_FIFO ? "fifo" : "expire");
	json_u64(j, "weight_fg", p->weight[0]);
	json_u64(j, "weight_bg", p->weight[1]);
	json_u64(j, "weight_flusher", p->flusher_weight);
	json_bool(j, "bfq_low_latency", p->low_latency);
	json_u64(j, "device_queue", p->device_queue);
	json_u64(j, "bfq_budget", p->bfq_budget);
	json_u64(j, "bfq_slice_idle_ms", p->slice_idle_ms);
	json_bool(j, "bfq_inject", p->bfq_inject);
	json_bool(j, "late_slot_wakeup", p->late_slot_wakeup);
	json_u64(j, "ckpt_wakeup_us", p->ckpt_wakeup_us);
	json_u64(j, "ckpt_wakeup_max_us", p->ckpt_wakeup_max_us);
	json_u64(j, "op_cpu_us", p->op_cpu_us);
	json_u64(j, "op_cpu_max_us", p->op_cpu_max_us);
	json_str(j, "dirty_throttle",
		 p->dirty_throttle == F2FS_RP_THROTTLE_WRITEBACK ? "writeback" : "sleep");
	json_double(j, "model_mbps", p->model_mbps);
	json_double(j, "model_iops", p->model_iops);
	json_double(j, "model_flush_ms", p->model_flush_ms);
	json_double(j, "model_burst_ms", p->model_burst_ms);
	json_double(j, "model_zone_reset_ms", p->model_zone_reset_ms);
	json_double(j, "seek_min_ms", p->seek_min_us / 1000.0);
	json_double(j, "seek_full_ms", p->seek_full_us / 1000.0);
	json_u64(j, "rpm", p->rpm);
	json_u64(j, "merge_window_us", p->merge_us);
	json_u64(j, "max_request", p->max_request);
	json_u64(j, "nr_requests", p->nr_requests);
	json_u64(j, "seed", p->seed);
	json_end(j);
}

static void json_threads(struct json *j, const struct f2fs_replay_report *r)
{
	size_t i;

	json_array(j, "threads");
	for (i = 0; i < r->nthreads; i++) {
		const struct f2fs_replay_thread_report *t = &r->threads[i];

		json_object(j, NULL);
		json_str(j, "name", t->name);
		json_str(j, "class", class_name(t->io_class));
		json_double(j, "elapsed_s", t->elapsed_s);
		json_u64(j, "ops", t->ops);
		json_u64(j, "rounds", t->rounds);
		json_u64(j, "fsyncs", t->fsyncs);
		json_double(j, "fsync_p50_ms", t->fsync_p50_ms);
		json_double(j, "fsync_p99_ms", t->fsync_p99_ms);
		json_double(j, "fsync_max_ms", t->fsync_max_ms);
		json_u64(j, "errors", t->errors);
		if (t->errors) {
			json_str(j, "first_error", strerror(-t->first_error));
			if (t->first_error_line)
				json_u64(j, "first_error_line", t->first_error_line);
		}
		json_end(j);
	}
	json_end(j);
}

/* "failed_ops": every failed op counted by error name, and the first in time. */
static void json_errors(struct json *j, const struct f2fs_replay_report *r)
{
	struct error_summary s;
	char name[32];
	size_t i;

	summarize_errors(r, &s);
	json_object(j, "failed_ops");
	json_u64(j, "count", s.total);
	json_object(j, "by_error");
	for (i = 0; i < s.nkinds; i++)
		json_u64(j, error_name(s.kinds[i].error, name, sizeof(name)), s.kinds[i].count);
	if (s.other)
		json_u64(j, "other", s.other);
	json_end(j);
	if (s.first) {
		json_str(j, "first_error", strerror(-s.first->first_error));
		json_str(j, "first_error_name",
			 error_name(s.first->first_error, name, sizeof(name)));
		json_str(j, "first_error_thread", s.first->name);
		if (s.first->first_error_line)
			json_u64(j, "first_error_line", s.first->first_error_line);
	}
	json_end(j);
}

static void json_report(struct json *j, const char *key, const struct f2fs_replay_report *r,
			const struct f2fs_replay_policy *p, const char *label)
{
	unsigned int c;

	json_object(j, key);
	json_str(j, "workload", r->workload);
	if (label)
		json_str(j, "label", label);
	json_policy(j, p);
	json_double(j, "elapsed_s", r->elapsed_s);
	json_threads(j, r);
	json_errors(j, r);
	json_object(j, "checkpoints");
	json_u64(j, "requested", r->cp_requested);
	json_u64(j, "issued", r->cp_issued);
	json_u64(j, "merged", r->cp_merged);
	json_u64(j, "skipped", r->cp_skipped);
	json_double(j, "wait_avg_ms", r->cp_wait_avg_ms);
	json_double(j, "wait_peak_ms", r->cp_wait_peak_ms);
	json_end(j);
	json_object(j, "written");
	json_u64(j, "data_bytes", r->bytes[0]);
	json_u64(j, "node_bytes", r->bytes[1]);
	json_u64(j, "meta_bytes", r->bytes[2]);
	json_u64(j, "data_requests", r->requests[0]);
	json_u64(j, "node_requests", r->requests[1]);
	json_u64(j, "meta_requests", r->requests[2]);
	json_u64(j, "workload_bytes", r->user_bytes);
	json_u64(j, "flushes", r->flushes);
	json_double(j, "write_amplification", r->write_amplification);
	json_double(j, "write_mbps", r->write_mbps);
	json_end(j);
	json_object(j, "cleaner");
	json_u64(j, "runs", r->gc_runs);
	json_u64(j, "blocks_moved", r->gc_blocks_moved);
	json_u64(j, "sections_freed", r->gc_sections_freed);
	json_end(j);
	json_object(j, "files");
	json_u64(j, "count", r->files);
	json_u64(j, "bytes", r->file_bytes);
	json_u64(j, "extents", r->extents);
	json_u64(j, "max_extents", r->max_extents);
	json_u64(j, "read_requests_512k", r->read_requests);
	json_u64(j, "verified", r->verified_files);
	json_u64(j, "verify_failures", r->verify_failures);
	json_end(j);
	if (r->read_pass) {
		json_object(j, "read_pass");
		json_u64(j, "requests", r->read_pass_requests);
		json_u64(j, "node_requests", r->read_pass_node_requests);
		json_u64(j, "bytes", r->read_pass_bytes);
		json_double(j, "seconds", r->read_pass_s);
		json_double(j, "mbps", r->read_pass_mbps);
		json_end(j);
	}
	if (r->zoned) {
		json_object(j, "zones");
		json_u64(j, "resets", r->zone_resets);
		json_u64(j, "reset_bytes", r->zone_reset_bytes);
		json_u64(j, "finishes", r->zone_finishes);
		json_double(j, "mgmt_ms", r->zone_mgmt_ms);
		json_u64(j, "ordered_writes", r->zone_ordered_writes);
		json_end(j);
	}
	if (r->head) {
		json_object(j, "head");
		json_u64(j, "seeks", r->seeks);
		json_double(j, "seek_s", r->seek_s);
		json_u64(j, "merged_requests", r->merged_requests);
		json_end(j);
	}
	json_array(j, "io_classes");
	for (c = 0; c < F2FS_RP_IO_CLASSES; c++) {
		json_object(j, NULL);
		json_str(j, "class", class_name(c));
		json_u64(j, "bytes", r->class_bytes[c]);
		json_u64(j, "requests", r->class_requests[c]);
		json_u64(j, "read_bytes", r->class_read_bytes[c]);
		json_u64(j, "reads", r->class_reads[c]);
		json_u64(j, "write_bytes", r->class_write_bytes[c]);
		json_u64(j, "writes", r->class_writes[c]);
		json_u64(j, "flushes", r->class_flushes[c]);
		json_double(j, "wait_avg_ms", r->class_wait_avg_ms[c]);
		json_double(j, "wait_max_ms", r->class_wait_max_ms[c]);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

/* ---- --compare's table ---- */

#define METRIC_W 38 /* "write amplification (device/workload)" */

/* Columns as wide as the runs' names, at least as wide as a figure. */
struct columns {
	int w[2];
};

static void print_metric(const struct columns *c, const char *name, double a, double b)
{
	if (a != 0)
		printf("%-*s %*.3f %*.3f %9.3f\n", METRIC_W, name, c->w[0], a, c->w[1], b, b / a);
	else
		printf("%-*s %*.3f %*.3f %9s\n", METRIC_W, name, c->w[0], a, c->w[1], b, "-");
}

static void print_thread_metrics(const struct columns *c, const struct f2fs_replay_report r[2])
{
	const struct f2fs_replay_thread_report *a, *b;
	char name[80];
	size_t i;

	for (i = 0; i < r[0].nthreads && i < r[1].nthreads; i++) {
		a = &r[0].threads[i];
		b = &r[1].threads[i];
		snprintf(name, sizeof(name), "thread %s elapsed (s)", a->name);
		print_metric(c, name, a->elapsed_s, b->elapsed_s);
		if (!a->fsyncs && !b->fsyncs)
			continue;
		snprintf(name, sizeof(name), "thread %s fsync p50 (ms)", a->name);
		print_metric(c, name, a->fsync_p50_ms, b->fsync_p50_ms);
		snprintf(name, sizeof(name), "thread %s fsync p99 (ms)", a->name);
		print_metric(c, name, a->fsync_p99_ms, b->fsync_p99_ms);
	}
}

/* The runs side by side, each column named by its policy options (@label). */
static void print_compare(const struct f2fs_replay_report r[2], const char label[2][160])
{
	struct columns c;
	int i;

	for (i = 0; i < 2; i++) {
		c.w[i] = (int)strlen(label[i]);
		if (c.w[i] < 14)
			c.w[i] = 14;
	}
	printf("first run:  %s\nsecond run: %s\nratio:      second / first\n\n", label[0],
	       label[1]);
	printf("%-*s %*s %*s %9s\n", METRIC_W, "metric", c.w[0], label[0], c.w[1], label[1],
	       "ratio");
	print_metric(&c, "elapsed (s)", r[0].elapsed_s, r[1].elapsed_s);
	print_thread_metrics(&c, r);
	print_metric(&c, "checkpoints requested", (double)r[0].cp_requested,
		     (double)r[1].cp_requested);
	print_metric(&c, "checkpoints issued", (double)r[0].cp_issued, (double)r[1].cp_issued);
	print_metric(&c, "checkpoints merged", (double)r[0].cp_merged, (double)r[1].cp_merged);
	print_metric(&c, "checkpoint wait avg (ms)", r[0].cp_wait_avg_ms, r[1].cp_wait_avg_ms);
	print_metric(&c, "data written (MiB)", mib(r[0].bytes[0]), mib(r[1].bytes[0]));
	print_metric(&c, "node written (MiB)", mib(r[0].bytes[1]), mib(r[1].bytes[1]));
	print_metric(&c, "meta written (MiB)", mib(r[0].bytes[2]), mib(r[1].bytes[2]));
	print_metric(&c, "write amplification (device/workload)", r[0].write_amplification,
		     r[1].write_amplification);
	print_metric(&c, "write MB/s", r[0].write_mbps, r[1].write_mbps);
	print_metric(&c, "extents", (double)r[0].extents, (double)r[1].extents);
	print_metric(&c, "read requests at 512 KiB", (double)r[0].read_requests,
		     (double)r[1].read_requests);
	if (r[0].read_pass)
		print_metric(&c, "read pass MB/s", r[0].read_pass_mbps, r[1].read_pass_mbps);
	print_metric(&c, "cleaner blocks moved", (double)r[0].gc_blocks_moved,
		     (double)r[1].gc_blocks_moved);
	if (r[0].zoned) {
		print_metric(&c, "zones reset", (double)r[0].zone_resets, (double)r[1].zone_resets);
		print_metric(&c, "zone reset time (ms)", r[0].zone_mgmt_ms, r[1].zone_mgmt_ms);
	}
	if (r[0].head) {
		print_metric(&c, "seeks", (double)r[0].seeks, (double)r[1].seeks);
		print_metric(&c, "seek time (s)", r[0].seek_s, r[1].seek_s);
	}
}

/* ---- running ---- */

struct progress_state {
	struct progress *p;
	int run, runs;
};

static void on_progress(uint64_t done, uint64_t total, void *arg)
{
	struct progress_state *s = arg;
	struct f2fs_progress fp = {.pass = (unsigned int)s->run,
				   .passes = (unsigned int)s->runs,
				   .name = "replaying",
				   .done = done,
				   .total = total};

	progress_report(&fp, s->p);
}

/* --io-log: one line per device request of each run, times in ms since the run's scheduler opened.
 */
struct io_log {
	FILE *f;
	int run;
};

static const char *const io_log_kinds[] = {"write", "read", "flush"};

static void io_log_line(void *arg, const struct rp_sched_record *r)
{
	struct io_log *l = arg;

	fprintf(l->f, "%d\t%.3f\t%.3f\t%.3f\t%.3f\t%u\t%u\t%s\t%d\t%llu\t%llu\n", l->run,
		(double)r->queued_ns / 1e6, (double)r->devq_ns / 1e6, (double)r->start_ns / 1e6,
		(double)r->end_ns / 1e6, r->ctx, r->cls, io_log_kinds[r->kind], (int)r->tag,
		(unsigned long long)r->off, (unsigned long long)r->len);
}

static void run_one(struct tool *t, const struct replay_opts *o,
		    const struct f2fs_replay_workload *wl, const struct f2fs_replay_policy *p,
		    struct progress_state *ps, struct f2fs_replay_report *rep)
{
	char why[300] = "";
	struct f2fs_device *dev;
	int ret;

	if (o->mkfs_args)
		run_mkfs(t, o->mkfs_args, o->device);
	dev = tool_open_for_writing(t, 1, o->direct ? F2FS_DEV_DIRECT : 0);
	ret = f2fs_replay_run(dev, wl, p, on_progress, ps, rep, why, sizeof(why));
	progress_clear(ps->p);
	if (ret)
		tool_fail(t, ret == -ENOMEM ? 8 : 1, "%s: %s", o->device,
			  why[0] ? why : strerror(-ret));
	if (rep->verify_failures)
		tool_fail(t, 1, "%s: %llu of %llu files read back differ from what was written",
			  o->device, (unsigned long long)rep->verify_failures,
			  (unsigned long long)rep->verified_files);
	if (rep->elapsed_s > 0)
		rep->write_mbps = (double)rep->user_bytes / 1e6 / rep->elapsed_s;
}

/*
 * Operations of the workload that failed make the run a failed one (exit 1,
 * as the man page says): one line on standard error counts them by error
 * and names the first, with its trace line.  With --compare, the first run
 * that had any (@labels name the runs).
 */
static bool report_failed_ops(const struct tool *t, const struct f2fs_replay_report *rep,
			      const char *const labels[], int runs)
{
	struct error_summary s;
	char kinds[256], first[160], run[200] = "";
	int i;

	for (i = 0; i < runs; i++) {
		summarize_errors(&rep[i], &s);
		if (s.total)
			break;
	}
	if (i == runs)
		return false;
	if (runs > 1)
		snprintf(run, sizeof(run), " in the run with \"%s\"", labels[i]);
	describe_kinds(&s, kinds, sizeof(kinds));
	describe_first(s.first, first, sizeof(first));
	fflush(stdout); /* after the report, where both go to one place */
	fprintf(stderr, "%s: %s: %llu operation%s failed%s (%s); the first: %s\n", t->prog,
		t->image, (unsigned long long)s.total, s.total == 1 ? "" : "s", run, kinds, first);
	return true;
}

/* What a single run ran: the workload's name, or the file its trace came from. */
static const char *source_name(const struct replay_opts *o)
{
	if (o->workload)
		return o->workload;
	if (o->trace)
		return o->trace;
	return o->strace ? o->strace : o->fio_iolog;
}

/* The report: JSON ("a" and "b" for --compare, each with its label), the table, or the text. */
static void print_results(const struct replay_opts *o, const struct f2fs_replay_report *rep,
			  const char *const labels[2], int runs)
{
	struct json j;

	if (!o->json) {
		if (runs == 2)
			print_compare(rep, o->label);
		else
			print_report(&rep[0], &o->policy[0]);
		return;
	}
	json_init(&j, stdout);
	json_object(&j, NULL);
	json_report(&j, runs == 2 ? "a" : "run", &rep[0], &o->policy[0],
		    runs == 2 ? labels[0] : NULL);
	if (runs == 2)
		json_report(&j, "b", &rep[1], &o->policy[1], labels[1]);
	json_end(&j);
	putchar('\n');
}

static void run_replay(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct tool t = {.prog = "f2fs_io replay"};
	struct replay_opts o;
	struct f2fs_replay_workload wl;
	struct f2fs_replay_report rep[2];
	struct progress prog;
	struct progress_state ps = {.p = &prog};
	FILE *plot = NULL;
	struct io_log iolog = {NULL, 0};
	const char *labels[2];
	char why[128];
	bool failed;
	int runs, i;

	memset(&o, 0, sizeof(o));
	memset(rep, 0, sizeof(rep));
	parse_args(&t, argc, argv, &o, cmd);
	t.image = o.device;
	runs = o.compare[0] ? 2 : 1;
	if (runs == 2 && !o.mkfs_args)
		tool_fail(&t, 1, "--compare needs --mkfs, to start both runs from the same volume");
	/* a plot that cannot be written is refused before the device is touched */
	if (o.plot && !(plot = fopen(o.plot, "w")))
		tool_fail(&t, 1, "--plot %s: %s", o.plot, strerror(errno));
	if (o.io_log && !(iolog.f = fopen(o.io_log, "w")))
		tool_fail(&t, 1, "--io-log %s: %s", o.io_log, strerror(errno));
	if (iolog.f)
		fputs(
		    "run\tqueued_ms\tdevq_ms\tstart_ms\tend_ms\tctx\tclass\tkind\ttag\toff\tlen\n",
		    iolog.f);
	load_workload(&t, &o, &wl);
	tool_check_target(&t, TOOL_WRITES, 1);
	if (!progress_start(&prog, &o.progress, o.device, why, sizeof(why)))
		tool_fail(&t, 1, "--progress: %s", why);
	t.progress = &prog;
	ps.runs = runs;
	for (i = 0; i < runs; i++) {
		ps.run = i + 1;
		iolog.run = i + 1;
		if (iolog.f) {
			o.policy[i].io_log = io_log_line;
			o.policy[i].io_log_arg = &iolog;
		}
		run_one(&t, &o, &wl, &o.policy[i], &ps, &rep[i]);
	}
	progress_finish(&prog);
	labels[0] = runs == 2 ? o.label[0] : source_name(&o);
	labels[1] = o.label[1];
	print_results(&o, rep, labels, runs);
	if (plot && (replay_plot_svg(plot, rep, labels, (size_t)runs) || fclose(plot)))
		tool_fail(&t, 1, "--plot %s: cannot write it", o.plot);
	if (iolog.f && fclose(iolog.f))
		tool_fail(&t, 1, "--io-log %s: cannot write it", o.io_log);
	failed = report_failed_ops(&t, rep, labels, runs);
	for (i = 0; i < runs; i++)
		f2fs_replay_report_free(&rep[i]);
	f2fs_replay_workload_free(&wl);
	if (failed)
		exit(1);
}

const struct f2fs_io_cmd f2fs_io_replay_cmds[] = {
    {"replay", "replay a workload offline through libf2fs's write path",
     "f2fs_io replay [options] (WORKLOAD | --trace FILE | --import-strace LOG |\n"
     "                --import-fio-iolog LOG) DEVICE\n\n"
     "Run a workload against the unmounted F2FS on DEVICE (an image file or a block\n"
     "device) through libf2fs, emulating the kernel's checkpoint merge, serialized\n"
     "writepages, per-section counts and write-back, and report the effect.\n"
     "WORKLOAD: ckpt-storm, tiotest, seqwrite, writeback, dd or untar.\n"
     "  --mkfs \"ARGS\"                 format DEVICE first with our mkfs.f2fs ARGS\n"
     "  --compare \"POLICIES\" \"POLICIES\" run twice (needs --mkfs), side by side\n"
     "  --json                        the report as JSON\n"
     "  --save-trace FILE             write the workload as a trace\n"
     "  --io-log FILE                 every device request: queued, into the device, start, end\n"
     "  --plot FILE.svg               fsync latency, elapsed and checkpoints over time\n"
     "  --strace-root DIR             with --import-strace: the directory mapped to /, where\n"
     "                                relative paths start until the log shows otherwise\n"
     "  --count N --threads N --file-size SIZE --io-size SIZE --small-size SIZE\n"
     "  --direct                      O_DIRECT writes to DEVICE\n"
     "  --progress[=FD] --no-progress\n"
     "policies:\n"
     "  --checkpoint-merge | --no-checkpoint-merge   --ckpt-ioprio be,N|rt,N\n"
     "  --serialize-writepages | --no-serialize-writepages   --min-seq-blocks N\n"
     "  --wb-chunk PAGES   --section-counts cached|loop   --writeback expire|fifo\n"
     "  --dirty-expire MS  --dirty-background SIZE  --dirty-limit SIZE\n"
     "  --io-weights fg=N,bg=N,flusher=N   --device-model MBPS,IOPS,FLUSH_MS[,BURST_MS]\n"
     "  --seed N   --max-request SIZE   --nr-requests N\n"
     "  --threads-cpu N   --bfq-low-latency | --no-bfq-low-latency   --device-queue N\n"
     "  --bfq-budget SIZE   --bfq-slice-idle MS   --dirty-throttle sleep|writeback\n"
     "  --bfq-inject | --no-bfq-inject   --ckpt-wakeup-us MIN[,MAX]   --op-cpu-us MIN[,MAX]\n"
     "  --zone-reset-ms MS   --device-seek MIN_MS,FULL_MS[,RPM]   --merge-window US\n"
     "  --late-slot-wakeup | --no-late-slot-wakeup\n",
     run_replay},
    {NULL, NULL, NULL, NULL},
};
