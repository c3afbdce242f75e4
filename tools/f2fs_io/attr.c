// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io attribute subcommands: inode flags (getflags, setflags,
 * clearflags), pinning, the f2fs advise xattrs, the write priority hint,
 * rename with fsync, fs-verity, the file name encryption mode and plain
 * xattr access.  Names, arguments and stdout follow upstream f2fs_io so
 * that scripts parsing it keep working; argument errors are caught before
 * anything is opened, and a failing call reports the kernel's error and
 * exits non-zero.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "f2fs_io.h"

/* FS_IOC_GETFLAGS bits beyond the ones f2fs_io.h names */
#define ATTR_IMMUTABLE_FL   0x00000010
#define ATTR_ENCRYPT_FL	    0x00000800
#define ATTR_VERITY_FL	    0x00100000
#define ATTR_NOCOW_FL	    0x00800000
#define ATTR_INLINE_DATA_FL 0x10000000

#define ATTR_ADVISE_XATTR    "system.advise"
#define ATTR_FADVISE_XATTR   "user.fadvise"
#define ATTR_FADV_LARGEFOLIO 0 /* bit number in user.fadvise */
#define ATTR_IOPRIO_WRITE    1 /* F2FS_IOC_IO_PRIO hint */
#define ATTR_VERITY_BLKSIZE  4096

struct flag_name {
	const char *name;
	unsigned int bit;
};

/* The order getflags prints them in. */
static const struct flag_name shown_flags[] = {
    {"casefold", F2FS_IO_CASEFOLD_FL},
    {"compression", F2FS_IO_COMPR_FL},
    {"nocompression", F2FS_IO_NOCOMP_FL},
    {"encrypt", ATTR_ENCRYPT_FL},
    {"verity", ATTR_VERITY_FL},
    {"inline_data", ATTR_INLINE_DATA_FL},
    {"nocow(pinned)", ATTR_NOCOW_FL},
    {"immutable", ATTR_IMMUTABLE_FL},
    {NULL, 0},
};

/*
 * The names setflags and clearflags act on.  Like upstream, they take any
 * other name too: it changes no bit, so the flags are written back as read
 * and the command reports what the kernel says to that (scripts that pass
 * a name upstream does not know, "noatime" say, see exit 0 from both).
 */
static const struct flag_name settable_flags[] = {
    {"casefold", F2FS_IO_CASEFOLD_FL},
    {"compression", F2FS_IO_COMPR_FL},
    {"nocompression", F2FS_IO_NOCOMP_FL},
    {"immutable", ATTR_IMMUTABLE_FL},
    {"nocow", ATTR_NOCOW_FL},
    {NULL, 0},
};

/* Upstream's clearflags has no casefold: clearing it is a no-op there too. */
static const struct flag_name clearable_flags[] = {
    {"compression", F2FS_IO_COMPR_FL},
    {"nocompression", F2FS_IO_NOCOMP_FL},
    {"immutable", ATTR_IMMUTABLE_FL},
    {"nocow", ATTR_NOCOW_FL},
    {NULL, 0},
};

/* The bit @name stands for in @tbl; 0 for a name @tbl does not know. */
static unsigned int flag_bit(const struct flag_name *tbl, const char *name)
{
	for (; tbl->name; tbl++)
		if (!strcmp(tbl->name, name))
			return tbl->bit;
	return 0;
}

static void need_args(const struct f2fs_io_cmd *cmd, int argc, int want)
{
	if (argc != want)
		usage_exit(cmd);
}

/* ---- getflags / setflags / clearflags ---- */

static void run_getflags(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	const struct flag_name *f;
	unsigned int flags = 0;
	int fd, ret, any = 0;

	need_args(cmd, argc, 2);
	fd = xopen(argv[1], O_RDONLY, 0);
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	printf("get a flag on %s ret=%d, flags=", argv[1], ret);
	if (ret)
		die_errno("F2FS_IOC_GETFLAGS failed");
	for (f = shown_flags; f->name; f++) {
		if (!(flags & f->bit))
			continue;
		printf("%s%s", any ? "," : "", f->name);
		any = 1;
	}
	puts(any ? "" : "none");
	close(fd);
}

/*
 * setflags and clearflags: read the flags, report them, change the named
 * bit (if @tbl knows the name) and write them back, whatever changed.
 * Upstream's first line names the flag, not the file; scripts see exactly
 * that.
 */
static void change_flag(int argc, char **argv, const struct f2fs_io_cmd *cmd,
			const struct flag_name *tbl, int set)
{
	unsigned int flags = 0, bit;
	int fd, ret;

	need_args(cmd, argc, 3);
	bit = flag_bit(tbl, argv[1]);
	fd = xopen(argv[2], O_RDONLY, 0);
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	printf("get a flag on %s ret=%d, flags=%x\n", argv[1], ret, flags);
	if (ret)
		die_errno("F2FS_IOC_GETFLAGS failed");
	if (set)
		flags |= bit;
	else
		flags &= ~bit;
	ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	printf("%s a flag on %s ret=%d, flags=%s\n", set ? "set" : "clear", argv[2], ret, argv[1]);
	if (ret)
		die_errno("F2FS_IOC_SETFLAGS failed");
	close(fd);
}

static void run_setflags(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	change_flag(argc, argv, cmd, settable_flags, 1);
}

static void run_clearflags(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	change_flag(argc, argv, cmd, clearable_flags, 0);
}

/* ---- pinfile ---- */

static void run_pinfile(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	enum { PIN_GET, PIN_SET, PIN_UNSET } op;
	uint64_t size = 0;
	__u32 pin;
	int fd, ret;

	if (argc < 3 || argc > 4)
		usage_exit(cmd);
	if (!strcmp(argv[1], "get"))
		op = PIN_GET;
	else if (!strcmp(argv[1], "set"))
		op = PIN_SET;
	else if (!strcmp(argv[1], "unset"))
		op = PIN_UNSET;
	else
		bad_value(cmd, "operation", argv[1]);
	if (argc == 4) {
		if (op != PIN_SET) /* {size} belongs to set only */
			usage_exit(cmd);
		size = parse_u64(cmd, "size", argv[3], INT64_MAX);
	}

	fd = xopen(argv[2], O_RDWR, 0);
	if (op == PIN_GET) {
		unsigned int flags = 0;

		if (ioctl(fd, F2FS_IOC_GET_PIN_FILE, &pin) < 0)
			die_errno("F2FS_IOC_GET_PIN_FILE failed");
		if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
			die_errno("F2FS_IOC_GETFLAGS failed");
		printf("get_pin_file: %s with %u blocks moved in %s\n",
		       (flags & ATTR_NOCOW_FL) ? "pinned" : "un-pinned", pin, argv[2]);
	} else if (op == PIN_UNSET) {
		pin = 0;
		if (ioctl(fd, F2FS_IOC_SET_PIN_FILE, &pin) != 0)
			die_errno("F2FS_IOC_SET_PIN_FILE failed");
		printf("unset pinfile in %s\n", argv[2]);
	} else {
		struct stat st;

		pin = 1;
		ret = ioctl(fd, F2FS_IOC_SET_PIN_FILE, &pin);
		if (ret != 0)
			die_errno("F2FS_IOC_SET_PIN_FILE failed");
		if (argc == 3) {
			printf("set pinfile: %u blocks moved in %s\n", (unsigned int)ret, argv[2]);
		} else {
			if (fallocate(fd, 0, 0, (off_t)size) != 0)
				die_errno("fallocate failed");
			if (fstat(fd, &st) != 0)
				die_errno("fstat failed");
			printf("set pinfile: %u blocks moved and fallocate %" PRIu64
			       " bytes in %s\n",
			       (unsigned int)ret, (uint64_t)st.st_size, argv[2]);
		}
	}
	close(fd);
}

/* ---- get_advise / get_fadvise ---- */

static void run_get_advise(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	static const struct flag_name bits[] = {
	    {"cold", F2FS_IO_ADVISE_COLD},
	    {"lost_pino", F2FS_IO_ADVISE_LOST_INO},
	    {"encrypt", F2FS_IO_ADVISE_ENCRYPT},
	    {"enc_name", F2FS_IO_ADVISE_ENC_NAME},
	    {"keep_size", F2FS_IO_ADVISE_KEEP_SIZE},
	    {"hot", F2FS_IO_ADVISE_HOT},
	    {"verity", F2FS_IO_ADVISE_VERITY},
	    {"trunc", F2FS_IO_ADVISE_TRUNC},
	    {NULL, 0},
	};
	const struct flag_name *b;
	unsigned char advise;
	ssize_t n;

	need_args(cmd, argc, 2);
	n = getxattr(argv[1], ATTR_ADVISE_XATTR, &advise, sizeof(advise));
	if (n < 0)
		die_errno("getxattr");
	if (n != (ssize_t)sizeof(advise))
		die("getxattr: %s is %zd bytes, not %zu", ATTR_ADVISE_XATTR, n, sizeof(advise));
	printf("i_advise=0x%x, advise_type: ", advise);
	for (b = bits; b->name; b++)
		if (advise & b->bit)
			printf("%s ", b->name);
	putchar('\n');
}

static void run_get_fadvise(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	unsigned int fadvise;
	ssize_t n;

	need_args(cmd, argc, 2);
	n = getxattr(argv[1], ATTR_FADVISE_XATTR, &fadvise, sizeof(fadvise));
	if (n < 0)
		die_errno("getxattr");
	if (n != (ssize_t)sizeof(fadvise))
		die("getxattr: %s is %zd bytes, not %zu", ATTR_FADVISE_XATTR, n, sizeof(fadvise));
	printf("fadvise=0x%x, advise_type: %s\n", fadvise,
	       (fadvise & (1u << ATTR_FADV_LARGEFOLIO)) ? "largefolio" : "");
}

/* ---- ioprio ---- */

static void run_ioprio(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	__u32 hint;
	int fd;

	need_args(cmd, argc, 3);
	if (!strcmp(argv[1], "ioprio_write"))
		hint = ATTR_IOPRIO_WRITE;
	else
		bad_value(cmd, "hint", argv[1]);
	fd = xopen(argv[2], O_RDWR, 0);
	if (ioctl(fd, F2FS_IOC_IO_PRIO, &hint) != 0)
		die_errno("ioprio failed");
	printf("ioprio_hint %u to a file: %s\n", hint, argv[2]);
	close(fd);
}

/* ---- rename ---- */

static void run_rename(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int fd = -1;

	need_args(cmd, argc, 4);
	if (parse_u64(cmd, "fsync_after_rename", argv[3], 1))
		fd = xopen(argv[1], O_WRONLY, 0);
	if (rename(argv[1], argv[2]) < 0)
		die_errno("rename failed");
	if (fd >= 0) {
		if (fsync(fd) != 0)
			die_errno("fsync failed: %s", argv[1]);
		close(fd);
	}
}

/* ---- set_verity ---- */

static void run_set_verity(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct fsverity_enable_arg arg;
	int fd;

	need_args(cmd, argc, 2);
	memset(&arg, 0, sizeof(arg));
	arg.version = 1;
	arg.hash_algorithm = FS_VERITY_HASH_ALG_SHA256;
	arg.block_size = ATTR_VERITY_BLKSIZE;
	/* the kernel refuses a file open for writing */
	fd = xopen(argv[1], O_RDONLY, 0);
	if (ioctl(fd, FS_IOC_ENABLE_VERITY, &arg) < 0)
		die_errno("FS_IOC_ENABLE_VERITY");
	printf("Set fsverity bit to %s\n", argv[1]);
	close(fd);
}

/* ---- get_filename_encrypt_mode ---- */

static void run_get_filename_encrypt_mode(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	/* indexed by the policy's filenames_encryption_mode, as upstream names them */
	static const char *const mode_names[] = {
	    "invalid",		"aes-256-xts", "aes-256-gcm",	"aes-256-cbc",
	    "aes-256-cts",	"aes-128-cbc", "aes-128-cts",	"speck128-256-xts",
	    "speck128-256-cts", "adiantum",    "aes-256-hctr2",
	};
	struct fscrypt_get_policy_ex_arg arg;
	unsigned int mode;
	int fd, ret;

	need_args(cmd, argc, 2);
	memset(&arg, 0, sizeof(arg));
	fd = xopen(argv[1], O_RDONLY, 0);
	arg.policy_size = sizeof(arg.policy);
	ret = ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, &arg);
	if (ret != 0 && errno == ENOTTY) /* a kernel older than 5.4: v1 only */
		ret = ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY, &arg.policy.v1);
	if (ret != 0)
		die_errno("FS_IOC_GET_ENCRYPTION_POLICY|_EX");
	close(fd);

	if (arg.policy.version == FSCRYPT_POLICY_V1) {
		mode = arg.policy.v1.filenames_encryption_mode;
	} else if (arg.policy.version == FSCRYPT_POLICY_V2) {
		mode = arg.policy.v2.filenames_encryption_mode;
	} else {
		printf("Do not support policy version: %d\n", arg.policy.version);
		exit(1);
	}
	if (mode >= sizeof(mode_names) / sizeof(mode_names[0])) {
		printf("Do not support algorithm: %u\n", mode);
		exit(1);
	}
	printf("%s\n", mode_names[mode]);
}

/* ---- listxattr / setxattr / removexattr ---- */

/* Read a list or value whose size may change under us; *len gets its size. */
static char *read_sized(const char *path, const char *name, ssize_t *len)
{
	for (;;) {
		ssize_t want, got;
		char *buf;

		want = name ? getxattr(path, name, NULL, 0) : listxattr(path, NULL, 0);
		if (want < 0)
			return NULL;
		buf = xmalloc((size_t)want + 1);
		got = want == 0 ? 0
		      : name	? getxattr(path, name, buf, (size_t)want)
				: listxattr(path, buf, (size_t)want);
		if (got >= 0) {
			buf[got] = '\0';
			*len = got;
			return buf;
		}
		free(buf);
		if (errno != ERANGE) /* ERANGE: it grew; ask again */
			return NULL;
	}
}

static void run_listxattr(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	ssize_t len, vlen;
	char *names, *name, *value;

	need_args(cmd, argc, 2);
	names = read_sized(argv[1], NULL, &len);
	if (!names)
		die_errno("listxattr");
	if (len == 0) {
		printf("%s has no attributes.\n", argv[1]);
		free(names);
		return;
	}
	for (name = names; name < names + len; name += strlen(name) + 1) {
		printf("%s: ", name);
		value = read_sized(argv[1], name, &vlen);
		if (!value)
			die_errno("getxattr");
		/* shown as a C string, as upstream does: up to the first NUL */
		printf("%s\n", vlen ? value : "<no value>");
		free(value);
	}
	free(names);
}

static void run_setxattr(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	unsigned char advise;
	unsigned int fadvise;
	const void *value;
	size_t len;
	int ret;

	need_args(cmd, argc, 4);
	if (!strcmp(argv[1], ATTR_ADVISE_XATTR)) {
		/* f2fs takes system.advise as one binary byte */
		advise = (unsigned char)parse_u64(cmd, "value", argv[2], 0xff);
		value = &advise;
		len = sizeof(advise);
	} else if (!strcmp(argv[1], ATTR_FADVISE_XATTR)) {
		/* and user.fadvise as a native 32-bit word */
		fadvise = (unsigned int)parse_u64(cmd, "value", argv[2], UINT32_MAX);
		value = &fadvise;
		len = sizeof(fadvise);
	} else {
		value = argv[2];
		len = strlen(argv[2]);
	}

	ret = setxattr(argv[3], argv[1], value, len, XATTR_CREATE);
	printf("setxattr %s CREATE: name: %s, value: %s: ret=%d\n", argv[3], argv[1], argv[2], ret);
	if (ret < 0 && errno == EEXIST) {
		ret = setxattr(argv[3], argv[1], value, len, XATTR_REPLACE);
		printf("setxattr %s REPLACE: name: %s, value: %s: ret=%d\n", argv[3], argv[1],
		       argv[2], ret);
	}
	if (ret < 0)
		die_errno("setxattr");
}

static void run_removexattr(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	int ret;

	need_args(cmd, argc, 3);
	ret = removexattr(argv[2], argv[1]);
	/* upstream's line: the xattr name first, then "name:" the file */
	printf("removexattr %s REMOVE: name: %s: ret=%d\n", argv[1], argv[2], ret);
	if (ret < 0)
		die_errno("removexattr");
}

/* ---- the table ---- */

const struct f2fs_io_cmd f2fs_io_attr_cmds[] = {
    {"set_verity", "Set fs-verity",
     "f2fs_io set_verity [file]\n\n"
     "Set fsverity bit given a file\n",
     run_set_verity},
    {"getflags", "getflags ioctl",
     "f2fs_io getflags [file]\n\n"
     "get a flag given the file\n"
     "flag can show \n"
     "  encryption\n"
     "  nocow(pinned)\n"
     "  inline_data\n"
     "  verity\n"
     "  casefold\n"
     "  compression\n"
     "  nocompression\n"
     "  immutable\n",
     run_getflags},
    {"setflags", "setflags ioctl",
     "f2fs_io setflags [flag] [file]\n\n"
     "set a flag given the file\n"
     "flag can be\n"
     "  casefold\n"
     "  compression\n"
     "  nocompression\n"
     "  immutable\n"
     "  nocow\n",
     run_setflags},
    {"clearflags", "clearflags ioctl",
     "f2fs_io clearflags [flag] [file]\n\n"
     "clear a flag given the file\n"
     "flag can be\n"
     "  compression\n"
     "  nocompression\n"
     "  immutable\n"
     "  nocow\n",
     run_clearflags},
    {"pinfile", "pin file control",
     "f2fs_io pinfile [get|set|unset] [file] {size}\n\n"
     "get/set/unset pinning given the file\n"
     "{size} is fallocate length and optional only for set operations\n",
     run_pinfile},
    {"get_filename_encrypt_mode", "get file name encrypt mode",
     "f2fs_io filename_encrypt_mode [file or directory path]\n\n"
     "Get the file name encription mode of the given file/directory.\n",
     run_get_filename_encrypt_mode},
    {"rename", "rename source to target file with fsync option",
     "f2fs_io rename [src_path] [target_path] [fsync_after_rename]\n\n"
     "e.g., f2fs_io rename source dest 1\n"
     "      1. open(source)\n"
     "      2. rename(source, dest)\n"
     "      3. fsync(source)\n"
     "      4. close(source)\n",
     run_rename},
    {"listxattr", "listxattr", "f2fs_io listxattr [file_path]\n\n", run_listxattr},
    {"setxattr", "setxattr", "f2fs_io setxattr [name] [value] [file_path]\n\n", run_setxattr},
    {"removexattr", "removexattr", "f2fs_io removexattr [name] [file_path]\n\n", run_removexattr},
    {"get_advise", "get_advise", "f2fs_io get_advise [file_path]\n\n", run_get_advise},
    {"get_fadvise", "get_fadvise", "f2fs_io get_fadvise [file_path]\n\n", run_get_fadvise},
    {"ioprio", "ioprio",
     "f2fs_io ioprio [hint] [file]\n\n"
     "ioprio given the file\n"
     "hint can be\n"
     " ioprio_write\n",
     run_ioprio},
    {NULL, NULL, NULL, NULL},
};
