// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_undo: take back a run of mkfs.f2fs, fsck.f2fs, sload.f2fs or
 * inject.f2fs that wrote through an undo journal (--undo / -z), as e2undo
 * does for e2fsprogs: check the journal whole, check that the device is
 * the one the run left, then write the saved blocks back.  A journal cut
 * short (the run crashed) restores the blocks it holds.  Nothing is
 * written when the journal or the device does not check out; -f applies a
 * sound journal to a device that does not match, -n only reports.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "f2fs/device.h"
#include "f2fs/undo.h"
#include "tools/common/common.h"
#include "tools/common/target.h"

#define EXIT_FAIL 1

struct undo_opts {
	const char *journal, *device;
	bool force, dry_run, verbose;
};

static void usage(FILE *out)
{
	fputs("\nUsage: f2fs_undo [options] undo_file device\n"
	      "[options]:\n"
	      "  -f apply even when the device is not the one the journal's run left\n"
	      "  -n dry run: check and report, write nothing\n"
	      "  -v verbose: show what the journal holds\n"
	      "  -V print the version number and exit\n"
	      "  -h print this help\n",
	      out);
}

static void parse(const struct tool *t, int argc, char **argv, struct undo_opts *o)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":fnvVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->force = true;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'V':
			printf("f2fs_undo %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			if (optopt)
				tool_fail(t, EXIT_FAIL, "unknown option -%c (-h for help)", optopt);
			tool_fail(t, EXIT_FAIL, "unknown option %s (-h for help)",
				  argv[optind - 1]);
		}
	}
	if (argc - optind != 2)
		tool_fail(t, EXIT_FAIL,
			  "need an undo journal and a device (usage: f2fs_undo "
			  "[-f] [-n] [-v] undo_file device)");
	o->journal = argv[optind];
	o->device = argv[optind + 1];
}

static void fmt_uuid(bool f2fs, const uint8_t uuid[16], char *out)
{
	if (f2fs)
		uuid_unparse(uuid, out);
	else
		strcpy(out, "no F2FS");
}

/* The journal, verified whole: one line and exit when it cannot be applied. */
static void inspect(const struct tool *t, const struct undo_opts *o, struct f2fs_undo_summary *s)
{
	int ret = f2fs_undo_inspect(o->journal, s);

	if (ret)
		tool_fail(t, EXIT_FAIL, "%s: cannot read: %s", o->journal, strerror(-ret));
	switch (s->problem) {
	case F2FS_UNDO_OK:
		break;
	case F2FS_UNDO_NOT_JOURNAL:
		tool_fail(t, EXIT_FAIL, "%s: not an F2FS undo journal", o->journal);
	case F2FS_UNDO_BAD_VERSION:
		tool_fail(t, EXIT_FAIL,
			  "%s: an undo journal of a version this f2fs_undo does not know",
			  o->journal);
	case F2FS_UNDO_HEADER_CRC:
		tool_fail(t, EXIT_FAIL, "%s: header fails its checksum: refusing the journal",
			  o->journal);
	case F2FS_UNDO_RECORD_CORRUPT:
	default:
		tool_fail(t, EXIT_FAIL,
			  "%s: record %llu (at byte %llu) fails its checksum: refusing the journal",
			  o->journal, (unsigned long long)s->records,
			  (unsigned long long)s->problem_at);
	}
}

static void report(const struct undo_opts *o, const struct f2fs_undo_summary *s)
{
	char before[40], after[40];

	if (!o->verbose)
		return;
	fmt_uuid(s->f2fs_before, s->uuid_before, before);
	fmt_uuid(s->f2fs_after, s->uuid_after, after);
	printf("journal %s: %s, device %llu bytes, before the run: %s, after it: %s\n", o->journal,
	       s->finished ? "finished" : "cut short", (unsigned long long)s->device_bytes, before,
	       s->finished ? after : "unknown");
	printf("journal %s: %llu records, %llu blocks (%llu of zeros)%s\n", o->journal,
	       (unsigned long long)s->records, (unsigned long long)s->blocks,
	       (unsigned long long)s->zero_blocks,
	       s->torn_tail ? ", an incomplete last record skipped" : "");
}

/* Why the device does not fit the journal, in the words of a refusal. */
static void mismatch(const struct f2fs_undo_summary *s, enum f2fs_undo_problem why,
		     uint64_t dev_bytes, char *out, size_t len)
{
	char want[40];

	fmt_uuid(s->finished ? s->f2fs_after : s->f2fs_before,
		 s->finished ? s->uuid_after : s->uuid_before, want);
	if (why == F2FS_UNDO_DEVICE_SIZE)
		snprintf(out, len, "%llu bytes, the journal was made on %llu",
			 (unsigned long long)dev_bytes, (unsigned long long)s->device_bytes);
	else if (why == F2FS_UNDO_WRONG_FS)
		snprintf(out, len, "not the file system the journal's run left (%s)", want);
	else if (why == F2FS_UNDO_APPLIED)
		snprintf(out, len,
			 "the journal was applied already: the blocks it restores hold "
			 "what it would write");
	else if (why == F2FS_UNDO_CHANGED)
		snprintf(out, len,
			 "written since the journal's run: the blocks it restores no "
			 "longer hold what the run left");
	else
		snprintf(out, len,
			 "the journal was cut short and this is not the file system from "
			 "before the run (%s)",
			 want);
}

/*
 * Is the device the one the journal's run left, in the state it left it?
 * Refused, or with -f warned, when not.
 */
static void check_device(struct tool *t, const struct undo_opts *o,
			 const struct f2fs_undo_summary *s, struct f2fs_device *dev)
{
	enum f2fs_undo_problem why;
	char what[200];
	int ret = f2fs_undo_check_device(s, dev, &why);

	if (!ret && why == F2FS_UNDO_OK)
		ret = f2fs_undo_check_state(o->journal, s, dev, &why);

	if (ret) {
		f2fs_dev_close(dev);
		tool_fail_image(t, EXIT_FAIL, "cannot read: %s", strerror(-ret));
	}
	if (why == F2FS_UNDO_OK)
		return;
	mismatch(s, why, f2fs_dev_get_info(dev)->size_bytes, what, sizeof(what));
	if (o->force) {
		tool_warn(t, "%s: %s: applying anyway (-f)", o->device, what);
		return;
	}
	f2fs_dev_close(dev);
	tool_fail_image(t, EXIT_FAIL, "%s: refusing (-f to apply anyway)", what);
}

int main(int argc, char **argv)
{
	struct tool t = {.prog = "f2fs_undo"};
	struct f2fs_undo_summary s;
	struct undo_opts o = {0};
	struct f2fs_device *dev;
	int ret;

	parse(&t, argc, argv, &o);
	inspect(&t, &o, &s);
	report(&o, &s);
	t.image = o.device;
	tool_check_target(&t, TOOL_WRITES, EXIT_FAIL);
	if (o.dry_run) {
		dev = tool_open_for_reading(&t, EXIT_FAIL);
	} else {
		dev = tool_open_for_writing(&t, EXIT_FAIL, 0);
	}
	check_device(&t, &o, &s, dev);
	if (s.torn_tail)
		tool_warn(&t, "%s: cut short: restoring the %llu complete records", o.journal,
			  (unsigned long long)s.records);
	if (o.dry_run) {
		f2fs_dev_close(dev);
		printf("f2fs_undo: dry run: would restore %llu blocks to %s\n",
		       (unsigned long long)s.blocks, o.device);
		return 0;
	}
	ret = f2fs_undo_apply(o.journal, dev, &s);
	if (ret) {
		f2fs_dev_close(dev);
		tool_fail_image(&t, EXIT_FAIL, "restoring failed: %s", strerror(-ret));
	}
	ret = f2fs_dev_close(dev);
	if (ret)
		tool_fail_image(&t, EXIT_FAIL, "closing: %s", strerror(-ret));
	printf("f2fs_undo: restored %llu blocks (%llu of zeros) from %s to %s\n",
	       (unsigned long long)s.blocks, (unsigned long long)s.zero_blocks, o.journal,
	       o.device);
	return 0;
}
