// SPDX-License-Identifier: GPL-2.0
/*
 * defrag.f2fs: move the valid blocks of a block range to a target area,
 * with newest upstream's options: -s start, -l length, -t target (block
 * addresses and counts, decimal or 0x hex), -i (the target area runs
 * down from the target: "shrink"), -H (write-life hints on the moves'
 * writes), and -d, -S accepted as upstream has them.  The work is libf2fs's (f2fs_defrag_resolve,
 * f2fs_defrag); this prints upstream's "Info: Move" line and what moved.  Bad input
 * -- a value that is not a number, a range or target off the main area,
 * a target inside the range, a target area without room, a busy device
 * -- is one line on stderr, exit 1, and nothing written.
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/fs.h"
#include "f2fs/write.h"
#include "tools/common/common.h"
#include "tools/common/target.h"

#define EXIT_FAIL 1

static void usage(FILE *out)
{
	fputs("\nUsage: defrag.f2fs [options] device\n"
	      "[options]:\n"
	      "  -d debug level [default:0]\n"
	      "  -H support write hint\n"
	      "  -s start block address [default: main_blkaddr]\n"
	      "  -S sparse_mode (accepted, no effect)\n"
	      "  -l length [default:512 (2MB)]\n"
	      "  -t target block address [default: main_blkaddr + 2MB]\n"
	      "  -i set direction as shrink [default: expand]\n"
	      "  -V print the version number and exit\n"
	      "  -h print this help\n",
	      out);
}

static uint64_t number(const struct tool *t, int opt, const char *arg)
{
	uint64_t v;

	if (!tool_parse_u64(arg, TOOL_NUM_DEC | TOOL_NUM_HEX, UINT64_MAX, &v))
		tool_fail(t, EXIT_FAIL,
			  "invalid value for -%c: '%s' (a block number, decimal or 0x hex)", opt,
			  arg);
	return v;
}

static void parse(struct tool *t, int argc, char **argv, struct f2fs_defrag_request *req,
		  bool *whint)
{
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, ":d:Hs:Sl:t:iVh")) != -1) {
		switch (c) {
		case 'd':
			printf("Info: Debug level = %llu\n",
			       (unsigned long long)number(t, c, optarg));
			break;
		case 'H':
			*whint = true;
			break;
		case 'S':
			break;
		case 's':
			req->start = number(t, c, optarg);
			break;
		case 'l':
			req->len = number(t, c, optarg);
			break;
		case 't':
			req->target = number(t, c, optarg);
			break;
		case 'i':
			req->shrink = true;
			break;
		case 'V':
			printf("defrag.f2fs %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			tool_fail(t, EXIT_FAIL, "option -%c requires a value (-h for help)",
				  optopt);
		default:
			tool_fail(t, EXIT_FAIL, "unknown option -%c (-h for help)", optopt);
		}
	}
	if (optind >= argc)
		tool_fail(t, EXIT_FAIL, "no device given (usage: defrag.f2fs [options] device)");
	if (optind + 1 < argc)
		tool_fail(t, EXIT_FAIL, "unexpected argument: '%s'", argv[optind + 1]);
	t->image = argv[optind];
}

static struct f2fs_fs *open_volume(const struct tool *t, struct f2fs_device *dev)
{
	struct f2fs_fs *fs;
	char why[512], reason[600];
	int ret = f2fs_fs_open(dev, F2FS_FS_WRITE, &fs, why, sizeof(why));

	if (ret) {
		f2fs_dev_close(dev);
		tool_not_f2fs_reason(t, ret, why, reason, sizeof(reason));
		tool_fail_image(t, EXIT_FAIL, "%s", reason);
	}
	return fs;
}

static void print_move(const struct f2fs_defrag_request *req)
{
	unsigned long long first = req->start, last = req->start + req->len - 1;

	if (req->start > req->target)
		printf("Info: Move 0x%llx <- [0x%llx-0x%llx]\n", (unsigned long long)req->target,
		       first, last);
	else
		printf("Info: Move [0x%llx-0x%llx] -> 0x%llx\n", first, last,
		       (unsigned long long)req->target);
}

int main(int argc, char **argv)
{
	struct tool t = {.prog = "defrag.f2fs"};
	struct f2fs_defrag_request req = {0};
	struct f2fs_defrag_report rep;
	struct f2fs_device *dev;
	struct f2fs_fs *fs;
	char why[300];
	int ret;

	bool whint = false;

	parse(&t, argc, argv, &req, &whint);
	tool_check_target(&t, TOOL_WRITES, EXIT_FAIL);
	dev = tool_open_for_writing(&t, EXIT_FAIL, whint ? F2FS_DEV_WRITE_HINTS : 0);
	fs = open_volume(&t, dev);
	ret = f2fs_defrag_resolve(fs, &req, why, sizeof(why));
	if (!ret) {
		print_move(&req);
		ret = f2fs_defrag(fs, &req, &rep, why, sizeof(why));
	}
	f2fs_fs_close(fs);
	if (f2fs_dev_close(dev) && !ret)
		tool_fail_image(&t, EXIT_FAIL, "closing the device failed");
	if (ret)
		tool_fail_image(&t, EXIT_FAIL, "%s", why);
	printf("Info: %llu valid block(s) in the range, %llu moved, %llu left\n",
	       (unsigned long long)rep.valid, (unsigned long long)rep.moved,
	       (unsigned long long)rep.left);
	return 0;
}
