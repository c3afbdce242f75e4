// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io: a table of subcommands on a mounted F2FS, with upstream's names,
 * arguments and output.  "f2fs_io" alone lists them, "f2fs_io help CMD"
 * prints one's usage; a wrong argument prints the usage and exits 1.  An
 * unknown command lists the commands and exits 1 (upstream exits 0).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_io.h"

static const struct f2fs_io_cmd *const families[] = {
    f2fs_io_io_cmds,
    f2fs_io_attr_cmds,
    f2fs_io_fs_cmds,
    f2fs_io_compress_cmds,
    f2fs_io_replay_cmds,
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

static const struct f2fs_io_cmd *find(const char *name)
{
	size_t f;
	const struct f2fs_io_cmd *c;

	for (f = 0; f < N_FAMILIES; f++)
		for (c = families[f]; c->name; c++)
			if (!strcmp(c->name, name))
				return c;
	return NULL;
}

/* The order upstream lists its commands in, which scripts and people know. */
static const char *const listing_order[] = {
    "fsync",
    "fdatasync",
    "set_verity",
    "getflags",
    "setflags",
    "clearflags",
    "shutdown",
    "pinfile",
    "fadvise",
    "fallocate",
    "erase",
    "write",
    "write_advice",
    "read",
    "randread",
    "fragread",
    "fiemap",
    "gc_urgent",
    "defrag_file",
    "copy",
    "get_cblocks",
    "release_cblocks",
    "reserve_cblocks",
    "get_coption",
    "set_coption",
    "decompress",
    "compress",
    "get_filename_encrypt_mode",
    "rename",
    "gc",
    "checkpoint",
    "precache_extents",
    "move_range",
    "gc_range",
    "listxattr",
    "setxattr",
    "removexattr",
    "lseek",
    "get_advise",
    "get_fadvise",
    "ioprio",
    "ftruncate",
    "test_create_perf",
    "test_lookup_perf",
    "freeze",
    "thaw",
};

#define N_LISTED (sizeof(listing_order) / sizeof(listing_order[0]))

static bool listed(const char *name)
{
	size_t i;

	for (i = 0; i < N_LISTED; i++)
		if (!strcmp(listing_order[i], name))
			return true;
	return false;
}

static void list_commands(FILE *out)
{
	const struct f2fs_io_cmd *c;
	size_t f, i;

	fputs("Available commands:\n", out);
	for (i = 0; i < N_LISTED; i++) {
		c = find(listing_order[i]);
		if (c)
			fprintf(out, "  %-20s %s\n", c->name, c->desc);
	}
	/* anything of ours upstream does not have comes last */
	for (f = 0; f < N_FAMILIES; f++)
		for (c = families[f]; c->name; c++)
			if (!listed(c->name))
				fprintf(out, "  %-20s %s\n", c->name, c->desc);
	fputs("\nTo get more information on a command, type 'f2fs_io help cmd'\n", out);
}

static void help(int argc, char **argv)
{
	const struct f2fs_io_cmd *c;

	if (argc < 3) {
		list_commands(stdout);
		exit(0);
	}
	c = find(argv[2]);
	if (!c) {
		printf("Unknown command: %s\n\n", argv[2]);
		list_commands(stdout);
		exit(1);
	}
	print_usage(c, stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	const struct f2fs_io_cmd *c;

	if (argc < 2) {
		list_commands(stdout);
		exit(0);
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		help(argc, argv);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("f2fs_io %s\n", PACKAGE_VERSION);
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		printf("Unknown command: %s\n\n", argv[1]);
		list_commands(stdout);
		exit(1);
	}
	c->run(argc - 1, argv + 1, c);
	return 0;
}
