// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_io compression subcommands: get_cblocks, release_cblocks,
 * reserve_cblocks, get_coption, set_coption, decompress, compress.
 *
 * Each is a single ioctl on one file.  Names, arguments and output lines
 * follow upstream f2fs_io; the compression option values are checked to
 * fit their byte-wide fields, and the kernel judges the rest.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_io.h"

/*
 * get/release/reserve_cblocks: the ioctl fills a 64-bit block count,
 * printed alone on a line.
 */
static void cblocks_ioctl(int argc, char **argv, const struct f2fs_io_cmd *cmd, unsigned long req,
			  const char *reqname)
{
	uint64_t blocks = 0;
	int fd;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_RDONLY, 0);
	if (ioctl(fd, req, &blocks) < 0)
		die_errno("%s failed", reqname);
	printf("%llu\n", (unsigned long long)blocks);
	close(fd);
	exit(0);
}

static void run_get_cblocks(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	cblocks_ioctl(argc, argv, cmd, F2FS_IOC_GET_COMPRESS_BLOCKS,
		      "F2FS_IOC_GET_COMPRESS_BLOCKS");
}

static void run_release_cblocks(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	cblocks_ioctl(argc, argv, cmd, F2FS_IOC_RELEASE_COMPRESS_BLOCKS,
		      "F2FS_IOC_RELEASE_COMPRESS_BLOCKS");
}

static void run_reserve_cblocks(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	cblocks_ioctl(argc, argv, cmd, F2FS_IOC_RESERVE_COMPRESS_BLOCKS,
		      "F2FS_IOC_RESERVE_COMPRESS_BLOCKS");
}

static void run_get_coption(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct f2fs_comp_option opt;
	int fd;

	if (argc != 2)
		usage_exit(cmd);
	memset(&opt, 0, sizeof(opt));
	fd = xopen(argv[1], O_RDONLY, 0);
	if (ioctl(fd, F2FS_IOC_GET_COMPRESS_OPTION, &opt) < 0)
		die_errno("F2FS_IOC_GET_COMPRESS_OPTION failed");
	printf("compression algorithm:%u\n", (unsigned int)opt.algorithm);
	printf("compression cluster log size:%u\n", (unsigned int)opt.log_cluster_size);
	close(fd);
	exit(0);
}

static void run_set_coption(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	struct f2fs_comp_option opt;
	int fd;

	if (argc != 4)
		usage_exit(cmd);
	memset(&opt, 0, sizeof(opt));
	opt.algorithm = (uint8_t)parse_u64(cmd, "algorithm", argv[1], UINT8_MAX);
	opt.log_cluster_size = (uint8_t)parse_u64(cmd, "log_cluster_size", argv[2], UINT8_MAX);

	fd = xopen(argv[3], O_WRONLY, 0);
	if (ioctl(fd, F2FS_IOC_SET_COMPRESS_OPTION, &opt) < 0)
		die_errno("F2FS_IOC_SET_COMPRESS_OPTION failed");
	printf("set compression option: algorithm=%u, log_cluster_size=%u\n",
	       (unsigned int)opt.algorithm, (unsigned int)opt.log_cluster_size);
	close(fd);
	exit(0);
}

/* decompress/compress: no argument, no output on success. */
static void file_ioctl(int argc, char **argv, const struct f2fs_io_cmd *cmd, unsigned long req,
		       const char *reqname)
{
	int fd;

	if (argc != 2)
		usage_exit(cmd);
	fd = xopen(argv[1], O_WRONLY, 0);
	if (ioctl(fd, req) < 0)
		die_errno("%s failed", reqname);
	close(fd);
	exit(0);
}

static void run_decompress(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	file_ioctl(argc, argv, cmd, F2FS_IOC_DECOMPRESS_FILE, "F2FS_IOC_DECOMPRESS_FILE");
}

static void run_compress(int argc, char **argv, const struct f2fs_io_cmd *cmd)
{
	file_ioctl(argc, argv, cmd, F2FS_IOC_COMPRESS_FILE, "F2FS_IOC_COMPRESS_FILE");
}

#define COPTION_HELP                                                                               \
	"  algorithm        : compression algorithm (0:lzo, 1: lz4, 2:zstd, 3:lzorle)\n"           \
	"  log_cluster_size : compression cluster log size (2 <= log_size <= 8)\n"

const struct f2fs_io_cmd f2fs_io_compress_cmds[] = {
    {"get_cblocks", "get number of reserved blocks on compress inode",
     "f2fs_io get_cblocks [file]\n\n", run_get_cblocks},
    {"release_cblocks", "release reserved blocks on compress inode",
     "f2fs_io release_cblocks [file]\n\n", run_release_cblocks},
    {"reserve_cblocks", "reserve blocks on compress inode", "f2fs_io reserve_cblocks [file]\n\n",
     run_reserve_cblocks},
    {"get_coption", "get compression option of a compressed file",
     "f2fs_io get_coption [file]\n\n" COPTION_HELP, run_get_coption},
    {"set_coption", "set compression option of a compressed file",
     "f2fs_io set_coption [algorithm] [log_cluster_size] [file_path]\n\n" COPTION_HELP,
     run_set_coption},
    {"decompress", "decompress an already compressed file", "f2fs_io decompress [file_path]\n\n",
     run_decompress},
    {"compress", "compress a compression enabled file", "f2fs_io compress [file_path]\n\n",
     run_compress},
    {NULL, NULL, NULL, NULL},
};
