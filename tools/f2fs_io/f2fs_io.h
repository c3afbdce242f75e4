/* SPDX-License-Identifier: GPL-2.0 */
/*
 * f2fs_io: the command table, helpers shared by the subcommand families,
 * and the ioctl numbers and structures.  The kernel's uapi headers
 * (linux/f2fs.h, linux/fs.h, linux/fiemap.h, linux/fscrypt.h,
 * linux/fsverity.h) supply most of them; what a 6.1 uapi lacks is defined
 * below from the kernel's f2fs uapi, guarded so newer headers win.
 */
#ifndef F2FS_IO_H
#define F2FS_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <linux/fsverity.h>
#include <linux/f2fs.h>

#ifndef F2FS_IOC_IO_PRIO
#define F2FS_IOC_IO_PRIO _IOW(F2FS_IOCTL_MAGIC, 27, __u32)
#endif
#ifndef F2FS_IOC_START_ATOMIC_REPLACE
#define F2FS_IOC_START_ATOMIC_REPLACE _IO(F2FS_IOCTL_MAGIC, 25)
#endif
#ifndef F2FS_IOC_GET_DEV_ALIAS_FILE
#define F2FS_IOC_GET_DEV_ALIAS_FILE _IOR(F2FS_IOCTL_MAGIC, 26, __u32)
#endif

/* F2FS_IOC_SHUTDOWN levels */
#define F2FS_GOING_DOWN_FULLSYNC  0x0 /* sync the device, then shut down */
#define F2FS_GOING_DOWN_METASYNC  0x1 /* write a checkpoint, then shut down */
#define F2FS_GOING_DOWN_NOSYNC	  0x2 /* shut down at once */
#define F2FS_GOING_DOWN_METAFLUSH 0x3 /* flush meta pages, then shut down */
#define F2FS_GOING_DOWN_NEED_FSCK 0x4 /* mark the volume as needing fsck */
#define F2FS_GOING_DOWN_MAX	  0x5

/* Inode flags getflags/setflags know by name (FS_IOC_GETFLAGS values). */
#define F2FS_IO_COMPR_FL    0x00000004
#define F2FS_IO_NOCOMP_FL   0x00000400
#define F2FS_IO_CASEFOLD_FL 0x40000000

/* i_advise bits shown by get_advise */
#define F2FS_IO_ADVISE_COLD	 0x01
#define F2FS_IO_ADVISE_LOST_INO	 0x02
#define F2FS_IO_ADVISE_ENCRYPT	 0x04
#define F2FS_IO_ADVISE_ENC_NAME	 0x08
#define F2FS_IO_ADVISE_KEEP_SIZE 0x10
#define F2FS_IO_ADVISE_HOT	 0x20
#define F2FS_IO_ADVISE_VERITY	 0x40
#define F2FS_IO_ADVISE_TRUNC	 0x80

struct f2fs_io_cmd {
	const char *name;
	const char *desc; /* one line, for the command list */
	const char
	    *usage; /* upstream-style help: "f2fs_io NAME [args]\n\n...", ends with a newline */
	void (*run)(int argc, char **argv, const struct f2fs_io_cmd *cmd);
};

/* Each family's table, terminated by an entry with a NULL name. */
extern const struct f2fs_io_cmd f2fs_io_io_cmds[];	 /* io.c */
extern const struct f2fs_io_cmd f2fs_io_attr_cmds[];	 /* attr.c */
extern const struct f2fs_io_cmd f2fs_io_fs_cmds[];	 /* fs.c */
extern const struct f2fs_io_cmd f2fs_io_compress_cmds[]; /* compress.c */
extern const struct f2fs_io_cmd f2fs_io_replay_cmds[];   /* replay.c */

/* Print "message: strerror(errno)" (die_errno) or "message" (die) on stderr, exit 1. */
void die_errno(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* A wrong argument count: "Excess arguments", then the usage, on stderr; exit 1. */
void usage_exit(const struct f2fs_io_cmd *cmd) __attribute__((noreturn));
/* The usage of @cmd as "f2fs_io help CMD" prints it. */
void print_usage(const struct f2fs_io_cmd *cmd, FILE *out);

/* A wrong argument value: "Wrong <what>: <arg>", then the usage, on stderr; exit 1. */
void bad_value(const struct f2fs_io_cmd *cmd, const char *what, const char *arg)
    __attribute__((noreturn));

void *xmalloc(size_t size);
void *xaligned_alloc(size_t alignment, size_t size);
int xopen(const char *path, int flags, mode_t mode);
ssize_t xread(int fd, void *buf, size_t count);
void full_write(int fd, const void *buf, size_t count);

/*
 * Parse a whole unsigned number (decimal, or 0x hex) no larger than @max;
 * anything else is bad_value(@cmd, @what, @arg).
 */
uint64_t parse_u64(const struct f2fs_io_cmd *cmd, const char *what, const char *arg, uint64_t max);

/* Current time in microseconds, for the perf subcommands and delays. */
uint64_t now_usec(void);

#endif
