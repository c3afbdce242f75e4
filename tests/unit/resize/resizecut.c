// SPDX-License-Identifier: GPL-2.0
/*
 * resizecut: a resize cut short by a power cut, for tests/cli/resize-cut.sh.
 *
 *	resizecut IMAGE N SECTORS [-f] [-s]
 *
 * Resizes IMAGE to SECTORS (512-byte sectors, resize.f2fs -t) through a
 * layer under which the N-th write (counting writes, zeroings and
 * discards from 0) and every one after it fail without reaching the
 * image, as nothing reaches a disk after its power is cut.  Prints
 * "resized after W writes" or "cut at write N: REASON".  -f and -s are
 * resize.f2fs's: -f resizes in place (not all or nothing), -s is needed to
 * shrink.
 * Exit status: 0 resized, 2 cut, 1 bad use or the image did not open.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/device.h"
#include "f2fs/resize.h"
#include "cut_device.h"

int main(int argc, char **argv)
{
	struct cut_device c = {0, 0};
	struct f2fs_resize_opts o = {0};
	struct f2fs_resize_report r;
	struct f2fs_device *img, *dev;
	char why[256] = "", *end;
	int ret, i;
	bool bad = argc < 4;

	for (i = 4; !bad && i < argc; i++) {
		o.force |= !strcmp(argv[i], "-f");
		o.safe |= !strcmp(argv[i], "-s");
		bad = strcmp(argv[i], "-f") && strcmp(argv[i], "-s");
	}
	if (bad) {
		fprintf(stderr, "usage: resizecut IMAGE N SECTORS [-f] [-s]\n");
		return 1;
	}
	c.limit = strtoull(argv[2], &end, 0);
	bad = *end != '\0';
	o.target_sectors = strtoull(argv[3], &end, 0);
	if (bad || *end) {
		fprintf(stderr, "resizecut: bad number\n");
		return 1;
	}
	ret = f2fs_dev_open(argv[1], 0, &img);
	if (!ret && (ret = cut_device_stack(img, &c, &dev)) != 0)
		f2fs_dev_close(img);
	if (ret) {
		fprintf(stderr, "resizecut: %s: error %d\n", argv[1], ret);
		return 1;
	}
	ret = f2fs_resize(dev, &o, &r, why, sizeof(why));
	f2fs_dev_close(dev);
	if (ret) {
		printf("cut at write %llu: %s\n", (unsigned long long)c.limit, why);
		return 2;
	}
	printf("resized after %llu writes\n", (unsigned long long)c.seen);
	return 0;
}
