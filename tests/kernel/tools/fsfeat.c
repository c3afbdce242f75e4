// SPDX-License-Identifier: GPL-2.0
/*
 * fsfeat casefold DIR | fsfeat encrypt MNT DIR: use a feature fsck.f2fs
 * turned on after mkfs, through the kernel's own interfaces (busybox's
 * chattr knows no +F, and there is no fscryptctl in the guest).
 *
 *   casefold DIR      FS_IOC_SETFLAGS with FS_CASEFOLD_FL on the empty
 *                     directory DIR, then FS_IOC_GETFLAGS must show it.
 *   encrypt MNT DIR   FS_IOC_ADD_ENCRYPTION_KEY of a fixed 64-byte test key
 *                     on the mount point MNT, then FS_IOC_SET_ENCRYPTION_POLICY
 *                     (v2, AES-256-XTS contents, AES-256-CTS names) on the
 *                     empty directory DIR; prints "fsfeat: key KEYID".
 *
 * Exit 0 on success, 1 with one line on stderr otherwise.  Built on the
 * host by tests/kernel/015-tune.sh, run in the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define KEY_SIZE 64

static int open_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		fprintf(stderr, "fsfeat: %s: %s\n", path, strerror(errno));
	return fd;
}

static int casefold(const char *dir)
{
	int fd = open_dir(dir), flags;

	if (fd < 0)
		return 1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		fprintf(stderr, "fsfeat: FS_IOC_GETFLAGS: %s\n", strerror(errno));
		return 1;
	}
	flags |= FS_CASEFOLD_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0) {
		fprintf(stderr, "fsfeat: FS_IOC_SETFLAGS +F: %s\n", strerror(errno));
		return 1;
	}
	flags = 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0 || !(flags & FS_CASEFOLD_FL)) {
		fprintf(stderr, "fsfeat: %s: the casefold flag did not stick\n", dir);
		return 1;
	}
	close(fd);
	return 0;
}

/* Add the test key to the volume of @mnt_fd; its identifier into @id. */
static int add_key(int mnt_fd, __u8 id[FSCRYPT_KEY_IDENTIFIER_SIZE])
{
	struct fscrypt_add_key_arg *arg = calloc(1, sizeof(*arg) + KEY_SIZE);
	int i;

	if (!arg)
		return -1;
	arg->key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	arg->raw_size = KEY_SIZE;
	for (i = 0; i < KEY_SIZE; i++)
		arg->raw[i] = (__u8)(i * 7 + 1);
	if (ioctl(mnt_fd, FS_IOC_ADD_ENCRYPTION_KEY, arg) < 0) {
		fprintf(stderr, "fsfeat: FS_IOC_ADD_ENCRYPTION_KEY: %s\n", strerror(errno));
		free(arg);
		return -1;
	}
	memcpy(id, arg->key_spec.u.identifier, FSCRYPT_KEY_IDENTIFIER_SIZE);
	free(arg);
	return 0;
}

static int encrypt(const char *mnt, const char *dir)
{
	struct fscrypt_policy_v2 policy = {
	    .version = FSCRYPT_POLICY_V2,
	    .contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
	    .filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
	    .flags = FSCRYPT_POLICY_FLAGS_PAD_32,
	};
	int mnt_fd = open_dir(mnt), fd, i;

	if (mnt_fd < 0 || add_key(mnt_fd, policy.master_key_identifier))
		return 1;
	fd = open_dir(dir);
	if (fd < 0)
		return 1;
	if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy) < 0) {
		fprintf(stderr, "fsfeat: FS_IOC_SET_ENCRYPTION_POLICY: %s\n", strerror(errno));
		return 1;
	}
	printf("fsfeat: key ");
	for (i = 0; i < FSCRYPT_KEY_IDENTIFIER_SIZE; i++)
		printf("%02x", policy.master_key_identifier[i]);
	putchar('\n');
	close(fd);
	close(mnt_fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "casefold"))
		return casefold(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "encrypt"))
		return encrypt(argv[2], argv[3]);
	fprintf(stderr, "usage: fsfeat casefold DIR | fsfeat encrypt MNT DIR\n");
	return 1;
}
