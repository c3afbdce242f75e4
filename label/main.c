// SPDX-License-Identifier: GPL-2.0
/*
 * f2fslabel: print or set the volume label, as upstream's f2fslabel does
 * (and e2label for ext4).  With one argument it prints the label; with two
 * it writes the second as the label into both superblock copies.  The
 * label is UTF-8 on the command line and UTF-16 on disk, at most 512
 * units: a longer one, or one that is not UTF-8, is refused before
 * anything is written.  Setting refuses a mounted or busy device, as every
 * tool that writes does; printing only warns.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/fs.h"
#include "f2fs/label.h"
#include "f2fs/super.h"
#include "f2fs/write.h"
#include "tools/common/common.h"
#include "tools/common/target.h"

#define EXIT_FAIL 1

static void usage(FILE *out)
{
	fputs("\nUsage: f2fslabel [options] device [volume-label]\n"
	      "[options]:\n"
	      "  -V print the version number and exit\n"
	      "  -h print this help\n",
	      out);
}

/* The device, and the new label (NULL: print it). */
static void parse(struct tool *t, int argc, char **argv, const char **label)
{
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, ":Vh")) != -1) {
		switch (c) {
		case 'V':
			printf("f2fslabel %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			tool_fail(t, EXIT_FAIL, "unknown option -%c (-h for help)", optopt);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		tool_fail(t, EXIT_FAIL, "no device given");
	}
	if (argc - optind > 2)
		tool_fail(t, EXIT_FAIL, "unknown argument %s (the label is one argument: quote it)",
			  argv[optind + 2]);
	t->image = argv[optind];
	*label = optind + 1 < argc ? argv[optind + 1] : NULL;
}

/* Refuse a label that cannot be stored, before the device is even opened. */
static void check_label(const struct tool *t, const char *label)
{
	uint16_t units[F2FS_MAX_VOLUME_NAME];
	int n = f2fs_label_to_utf16(label, units, F2FS_MAX_VOLUME_NAME);

	if (n == -ENAMETOOLONG)
		tool_fail(t, EXIT_FAIL, "label is too long: at most %d UTF-16 units",
			  F2FS_MAX_VOLUME_NAME);
	if (n < 0)
		tool_fail(t, EXIT_FAIL, "label is not valid UTF-8");
}

static struct f2fs_fs *open_volume(const struct tool *t, struct f2fs_device *dev)
{
	struct f2fs_fs *fs;
	char why[512];
	int ret = f2fs_fs_open(dev, F2FS_FS_READ, &fs, why, sizeof(why));

	if (ret) {
		f2fs_dev_close(dev);
		tool_fail_image(t, EXIT_FAIL, "%s", why);
	}
	return fs;
}

static void print_label(struct tool *t)
{
	struct f2fs_fs *fs;
	struct f2fs_device *dev;
	char label[F2FS_LABEL_UTF8_SIZE];

	tool_check_target(t, TOOL_READS, EXIT_FAIL);
	dev = tool_open_for_reading(t, EXIT_FAIL);
	fs = open_volume(t, dev);
	f2fs_super_label(f2fs_fs_sb(fs), label, sizeof(label));
	f2fs_fs_close(fs);
	f2fs_dev_close(dev);
	printf("Info: volume label = %s\n", label);
}

static void set_label(struct tool *t, const char *label)
{
	struct f2fs_device *dev;
	struct f2fs_fs *fs;
	int ret;

	check_label(t, label);
	tool_check_target(t, TOOL_WRITES, EXIT_FAIL);
	dev = tool_open_for_writing(t, EXIT_FAIL, 0);
	fs = open_volume(t, dev);
	ret = f2fs_set_label(fs, label);
	f2fs_fs_close(fs);
	if (!ret)
		ret = f2fs_dev_close(dev);
	else
		f2fs_dev_close(dev);
	if (ret)
		tool_fail_image(t, EXIT_FAIL, "cannot write the superblock: %s", strerror(-ret));
	printf("Info: volume label is changed to %s\n", label);
}

int main(int argc, char **argv)
{
	struct tool t = {.prog = "f2fslabel"};
	const char *label;

	parse(&t, argc, argv, &label);
	if (label)
		set_label(&t, label);
	else
		print_label(&t);
	return 0;
}
