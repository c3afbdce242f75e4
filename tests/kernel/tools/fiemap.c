// SPDX-License-Identifier: GPL-2.0
/*
 * fiemap FILE: the kernel's extent map of FILE through FS_IOC_FIEMAP
 * (FIEMAP_FLAG_SYNC: dirty pages written first), as filefrag prints it:
 * "fiemap: FILE: N extents", then one "fiemap: LOGICAL PHYSICAL LENGTH"
 * line per extent (bytes).  Extents the kernel returns as contiguous are
 * counted as it returns them.  Exit 0, or 1 with one line on stderr.
 * Built on the host by tests/kernel/018-defrag.sh, run in the guest
 * (busybox has no filefrag).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define BATCH 256

int main(int argc, char **argv)
{
	struct fiemap *fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	unsigned long long start = 0, total = 0;
	int fd, last = 0;

	if (argc != 2 || !fm) {
		fprintf(stderr, "usage: fiemap FILE\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "fiemap: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while (!last) {
		unsigned int i;

		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			fprintf(stderr, "fiemap: FS_IOC_FIEMAP: %s\n", strerror(errno));
			return 1;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			printf("fiemap: %llu %llu %llu\n", (unsigned long long)e->fe_logical,
			       (unsigned long long)e->fe_physical,
			       (unsigned long long)e->fe_length);
			start = e->fe_logical + e->fe_length;
			last |= !!(e->fe_flags & FIEMAP_EXTENT_LAST);
		}
		total += fm->fm_mapped_extents;
	}
	printf("fiemap: %s: %llu extents\n", argv[1], total);
	close(fd);
	free(fm);
	return 0;
}
