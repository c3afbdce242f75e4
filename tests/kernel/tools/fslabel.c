// SPDX-License-Identifier: GPL-2.0
/*
 * fslabel get DIR | fslabel set DIR LABEL: the kernel's view of a mounted
 * volume's label, through FS_IOC_GETFSLABEL and FS_IOC_SETFSLABEL on the
 * mount point (f2fs converts it between UTF-8 and the superblock's
 * UTF-16).  get prints "fslabel: [LABEL]"; set writes it, which the kernel
 * commits to both superblock copies at once.  Exit 0 on success, 1 with
 * one line on stderr otherwise.  Built on the host by
 * tests/kernel/013-label.sh, run in the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int get_label(int fd)
{
	char label[FSLABEL_MAX + 1];

	memset(label, 0, sizeof(label));
	if (ioctl(fd, FS_IOC_GETFSLABEL, label) < 0) {
		fprintf(stderr, "fslabel: FS_IOC_GETFSLABEL: %s\n", strerror(errno));
		return 1;
	}
	printf("fslabel: [%s]\n", label);
	return 0;
}

static int set_label(int fd, const char *text)
{
	char label[FSLABEL_MAX];

	if (strlen(text) >= sizeof(label)) {
		fprintf(stderr, "fslabel: label longer than %d bytes\n", FSLABEL_MAX - 1);
		return 1;
	}
	memset(label, 0, sizeof(label));
	memcpy(label, text, strlen(text));
	if (ioctl(fd, FS_IOC_SETFSLABEL, label) < 0) {
		fprintf(stderr, "fslabel: FS_IOC_SETFSLABEL: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fd, ret;

	if (argc < 3 || (strcmp(argv[1], "get") && strcmp(argv[1], "set")) ||
	    (!strcmp(argv[1], "set") && argc != 4)) {
		fprintf(stderr, "usage: fslabel get DIR | fslabel set DIR LABEL\n");
		return 1;
	}
	fd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		fprintf(stderr, "fslabel: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	ret = strcmp(argv[1], "get") ? set_label(fd, argv[3]) : get_label(fd);
	close(fd);
	return ret;
}
