// SPDX-License-Identifier: GPL-2.0
/*
 * sload.f2fs: load a directory tree into an existing, unmounted F2FS
 * volume, with upstream's command line.  The work is f2fs_load_tree()'s
 * (lib/load); this file parses options, refuses what it cannot do, opens
 * the device and reports.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "f2fs/compress.h"
#include "f2fs/device.h"
#include "f2fs/fs.h"
#include "f2fs/load.h"
#include "f2fs/write.h"
#include "tools/common/common.h"
#include "tools/common/progress.h"
#include "tools/common/target.h"

#define EXIT_FAIL 1

#define MAX_EXTENSIONS 64

struct sload_opts {
	struct f2fs_load_options load;
	const char *ext[MAX_EXTENSIONS + 1];
	unsigned int next;
	char ext_kind; /* 'i' or 'x' once one was given */
	const char *device;
	struct progress_request progress;
	int debug;
	bool compress_sub; /* a compression sub-option (-L -a -i -x -m -r) was given */
	bool direct;	   /* --direct */
	const char *undo;  /* -z, --undo: the journal that makes the load undoable */
};

static void usage(FILE *f)
{
	fprintf(f, "\nUsage: sload.f2fs [options] device\n"
		   "[options]:\n"
		   "  -C fs_config (Android canned format: path uid gid mode [capabilities=N])\n"
		   "  -f source directory [path of the source directory]\n"
		   "  -p product out directory (accepted; -C takes a canned file instead)\n"
		   "  -s file_contexts\n"
		   "  -S sparse_mode: the device is an Android sparse image\n"
		   "  -t mount point [prefix of target fs path, default:/]\n"
		   "  -T timestamp\n"
		   "  -P preserve owner: user and group\n"
		   "  -c enable compression (default allow policy)\n"
		   "    -L <log-of-blocks-per-cluster>, default 2\n"
		   "    -a <algorithm> compression algorithm, default lz4 (lzo, lz4)\n"
		   "    -x <ext> compress files except for these extensions\n"
		   "    -i <ext> compress files with these extensions only\n"
		   "    -m <num> min compressed blocks per cluster: 1 only\n"
		   "    -r read only (to release unused blocks) for compressed files\n"
		   "  -d debug level [default:0]\n"
		   "  --progress[=FD], --no-progress\n"
		   "  --direct write the device with O_DIRECT (not in upstream)\n"
		   "  -z, --undo FILE save what the load overwrites to an undo journal\n"
		   "     (f2fs_undo FILE device takes it back; not in upstream)\n"
		   "  -V print the version number and exit\n");
}

static void parse(struct tool *t, int argc, char **argv, struct sload_opts *o)
{
	static const struct option longopts[] = {
	    {"progress", optional_argument, NULL, 1}, {"no-progress", no_argument, NULL, 2},
	    {"direct", no_argument, NULL, 3},	      {"undo", required_argument, NULL, 'z'},
	    {"help", no_argument, NULL, 'h'},	      {NULL, 0, NULL, 0}};
	uint64_t v;
	int c, ret;

	f2fs_load_options_init(&o->load);
	while ((c = getopt_long(argc, argv, "C:f:p:s:St:T:Pca:i:x:L:m:rd:Vhz:", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'C':
			o->load.fs_config = optarg;
			break;
		case 'f':
			o->load.source = optarg;
			break;
		case 'p':
			break;
		case 's':
			o->load.file_contexts = optarg;
			break;
		case 'S':
			tool_check_sparse_support(t, EXIT_FAIL);
			t->sparse = true;
			break;
		case 't':
			o->load.mount_point = optarg;
			break;
		case 'T':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC, INT64_MAX, &v))
				tool_fail(t, EXIT_FAIL, "-T %s: bad timestamp", optarg);
			o->load.timestamp = (int64_t)v;
			break;
		case 'P':
			o->load.preserve_owner = true;
			break;
		case 'c':
			o->load.compress = true;
			break;
		case 'a':
			ret = f2fs_compress_by_name(optarg);
			if (ret < 0)
				tool_fail(t, EXIT_FAIL,
					  "-a %s: Unknown compression algorithm (lzo or lz4)",
					  optarg);
			if (!f2fs_compress_built((unsigned int)ret))
				tool_fail(t, EXIT_FAIL,
					  "-a %s: this build has no %s (liblzo2 was not found)",
					  optarg, optarg);
			o->load.compress_algorithm = (uint8_t)ret;
			o->compress_sub = true;
			break;
		case 'i':
		case 'x':
			if (o->ext_kind && o->ext_kind != c)
				tool_fail(t, EXIT_FAIL, "-i and -x cannot be used together");
			if (o->next == MAX_EXTENSIONS)
				tool_fail(t, EXIT_FAIL, "-%c %s: at most %d extensions", c, optarg,
					  MAX_EXTENSIONS);
			o->ext_kind = (char)c;
			o->compress_sub = true;
			o->ext[o->next++] = optarg;
			o->load.extensions = o->ext;
			o->load.extensions_exclude = c == 'x';
			break;
		case 'L':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC, 8, &v) || v < 2)
				tool_fail(t, EXIT_FAIL, "-L %s: the cluster size must be 2..8",
					  optarg);
			o->load.log_cluster_size = (uint8_t)v;
			o->compress_sub = true;
			break;
		case 'm':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC, 1, &v) || v != 1)
				tool_fail(
				    t, EXIT_FAIL,
				    "-m %s: only 1 (a cluster must save a block) is supported",
				    optarg);
			o->compress_sub = true;
			break;
		case 'r':
			o->load.release_compressed = true;
			o->compress_sub = true;
			break;
		case 'd':
			if (!tool_parse_u64(optarg, TOOL_NUM_DEC, 10, &v))
				tool_fail(t, EXIT_FAIL, "-d %s: bad debug level", optarg);
			o->debug = (int)v;
			break;
		case 1:
			if (!progress_parse(optarg, &o->progress))
				tool_fail(t, EXIT_FAIL, "--progress=%s: not a file descriptor",
					  optarg);
			break;
		case 2:
			o->progress.mode = PROGRESS_OFF;
			break;
		case 3:
			o->direct = true;
			break;
		case 'z':
			o->undo = optarg;
			break;
		case 'V':
			printf("sload.f2fs %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(EXIT_FAIL);
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		tool_fail(t, EXIT_FAIL, optind >= argc ? "no device given" : "too many arguments");
	}
	o->device = argv[optind];
	if (!o->load.source)
		tool_fail(t, EXIT_FAIL, "-f: no source directory given");
	if (!o->load.compress && o->compress_sub)
		tool_fail(t, EXIT_FAIL,
			  "compression sub-options (-L -a -i -x -m -r) are used without the "
			  "compression enable (-c) option");
	if (o->load.mount_point[0] != '/')
		tool_fail(t, EXIT_FAIL, "-t %s: the mount point must start with /",
			  o->load.mount_point);
	/* f2fs_undo writes the journal's blocks back in place: a sparse image has no places */
	if (o->undo && t->sparse)
		tool_fail(t, EXIT_FAIL,
			  "-z does not go with -S: f2fs_undo restores raw images only");
	if (o->direct && t->sparse)
		tool_fail(t, EXIT_FAIL,
			  "--direct does not go with -S: the image is written from memory");
}

int main(int argc, char **argv)
{
	struct tool t = {.prog = "sload.f2fs"};
	struct sload_opts o = {0};
	struct f2fs_load_stats st;
	struct f2fs_device *dev;
	struct f2fs_fs *fs;
	struct progress p;
	char why[400] = "";
	int ret;

	parse(&t, argc, argv, &o);
	t.image = o.device;
	/* the target rules every writing tool follows: no busy device, no other format */
	tool_check_target(&t, TOOL_WRITES, EXIT_FAIL);
	dev = tool_open_for_writing(&t, EXIT_FAIL, o.direct ? F2FS_DEV_DIRECT : 0);
	dev = tool_undo_stack(&t, dev, o.undo, EXIT_FAIL);
	ret = f2fs_fs_open(dev, F2FS_FS_WRITE, &fs, why, sizeof(why));
	if (ret) {
		char reason[600];

		f2fs_dev_close(dev);
		tool_not_f2fs_reason(&t, ret, why, reason, sizeof(reason));
		tool_fail_image(&t, EXIT_FAIL, "%s", reason);
	}
	if (!progress_start(&p, &o.progress, o.device, why, sizeof(why)))
		tool_fail(&t, EXIT_FAIL, "--progress: %s", why);
	t.progress = &p;
	f2fs_fs_set_progress(fs, progress_report, &p);
	ret = f2fs_load_tree(fs, &o.load, &st, why, sizeof(why));
	progress_finish(&p);
	f2fs_fs_close(fs);
	if (f2fs_dev_close(dev) && !ret)
		tool_fail_image(&t, EXIT_FAIL, "closing the device failed");
	if (ret)
		tool_fail(&t, EXIT_FAIL, "%s (nothing was loaded)", why);
	printf("Info: loaded %llu files, %llu directories, %llu symlinks, %llu special files, "
	       "%llu hard links, %llu xattrs: %llu bytes\n",
	       (unsigned long long)st.files, (unsigned long long)st.dirs,
	       (unsigned long long)st.symlinks, (unsigned long long)st.specials,
	       (unsigned long long)st.hard_links, (unsigned long long)st.xattrs,
	       (unsigned long long)st.bytes);
	return 0;
}
