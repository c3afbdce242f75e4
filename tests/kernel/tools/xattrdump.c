// SPDX-License-Identifier: GPL-2.0
/*
 * xattrdump DIR: print every extended attribute under DIR (symlinks not
 * followed, directories included), one "path name=hex" line each, sorted
 * by path then name, so a tree on the host and the same tree mounted in
 * the test guest can be compared byte for byte.  Built on the host by the
 * kernel tests and run on both sides; busybox has no getfattr.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

static size_t root_len;

static int visit(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	char names[65536], value[65536];
	ssize_t len = llistxattr(path, names, sizeof(names)), pos, vlen, i;

	(void)sb;
	(void)flag;
	(void)ftw;
	for (pos = 0; len > 0 && pos < len; pos += (ssize_t)strlen(names + pos) + 1) {
		if (!strncmp(names + pos, "system.", 7))
			continue;
		vlen = lgetxattr(path, names + pos, value, sizeof(value));
		if (vlen < 0)
			continue;
		printf(".%s %s=", path + root_len, names + pos);
		for (i = 0; i < vlen; i++)
			printf("%02x", (unsigned char)value[i]);
		printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: xattrdump DIR\n");
		return 2;
	}
	root_len = strlen(argv[1]);
	return nftw(argv[1], visit, 64, FTW_PHYS) ? 1 : 0;
}
