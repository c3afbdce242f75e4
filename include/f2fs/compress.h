/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compressed clusters, as the kernel stores them (fs/f2fs/compress.c): a
 * file with F2FS_COMPR_FL is cut into clusters of 2^i_log_cluster_size
 * blocks.  A cluster that compresses holds COMPRESS_ADDR in its first
 * slot, then the blocks of one struct f2fs_compress_header followed by the
 * codec's output, then NEW_ADDR (or NULL_ADDR once released) in the slots
 * it saved.  This is the one place that knows the algorithm numbers, the
 * header and the codecs; the writer (lib/write) and the reader (lib/read)
 * both go through it.
 *
 * LZ4 is always built; LZO when liblzo2 was found (f2fs_compress_built()).
 * ZSTD and LZO-RLE are numbers the kernel knows but this build neither
 * writes nor reads: newest upstream's sload offers only lzo and lz4, and
 * the kernel's LZO-RLE bit stream is not liblzo2's.
 */
#ifndef F2FS_COMPRESS_H
#define F2FS_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"

/* i_compress_algorithm */
#define F2FS_COMPRESS_LZO    0
#define F2FS_COMPRESS_LZ4    1
#define F2FS_COMPRESS_ZSTD   2
#define F2FS_COMPRESS_LZORLE 3
#define F2FS_COMPRESS_MAX    4 /* the kernel refuses an inode with a higher number */

/* i_log_cluster_size: 4 to 256 blocks */
#define F2FS_MIN_LOG_CLUSTER 2
#define F2FS_MAX_LOG_CLUSTER 8

/* i_compress_flag bit 0: each cluster's chksum is the crc32 of its compressed bytes */
#define F2FS_COMPRESS_CHKSUM_FL 0x0001u

/* The head of a cluster's first stored block (the kernel's struct compress_data). */
struct f2fs_compress_header {
	le32 clen;	  /* bytes of codec output after the header */
	le32 chksum;	  /* f2fs_crc32(F2FS_SUPER_MAGIC, data, clen) or 0 */
	le32 reserved[4]; /* zero */
};
#define F2FS_COMPRESS_HEADER_SIZE 24
_Static_assert(sizeof(struct f2fs_compress_header) == F2FS_COMPRESS_HEADER_SIZE, "compress header");

/* The algorithm named @name as upstream's sload -a spells it ("lzo", "lz4"); -1 when none. */
int f2fs_compress_by_name(const char *name);

/* The name of algorithm @algo ("lzo", "lz4", "zstd", "lzo-rle"), "unknown" past them. */
const char *f2fs_compress_name(unsigned int algo);

/* Does this build write and read clusters of @algo? */
bool f2fs_compress_built(unsigned int algo);

/*
 * Compress the cluster @data (@cluster_blocks blocks) with @algo into
 * @out (room for @cluster_blocks blocks): header, codec output, zeros to
 * the end of the last block used (blocks of @blksize bytes).  Returns the blocks used, 0 when the
 * cluster would not save at least @min_saved blocks (the caller stores it
 * plain, as the kernel does), -EOPNOTSUPP for an algorithm not built or
 * -ENOMEM.
 */
int f2fs_cluster_compress(unsigned int algo, const void *data, unsigned int cluster_blocks,
			  unsigned int min_saved, void *out, uint32_t blksize);

/*
 * The clen of the cluster whose @nr_blocks stored blocks (of @blksize
 * bytes) begin at
 * @stored; -EUCLEAN when it is 0 or does not fit in them (the kernel's
 * check before it decompresses).
 */
int f2fs_cluster_clen(const void *stored, unsigned int nr_blocks, uint32_t blksize, uint32_t *clen);

/*
 * Decompress the cluster stored in @nr_blocks blocks at @stored into @out
 * (@cluster_blocks blocks of @blksize bytes).  With @chksum (F2FS_COMPRESS_CHKSUM_FL set on
 * the inode) the header's checksum must match.  Returns 0, -EUCLEAN for a
 * header that does not fit, a stream the codec rejects, one that does not
 * give exactly the cluster, or a checksum that does not match;
 * -EOPNOTSUPP for an algorithm this build does not read; -ENOMEM.
 */
int f2fs_cluster_decompress(unsigned int algo, const void *stored, unsigned int nr_blocks,
			    bool chksum, void *out, unsigned int cluster_blocks, uint32_t blksize);

#endif
