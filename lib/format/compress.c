// SPDX-License-Identifier: GPL-2.0
/*
 * The codecs of compressed clusters and their header (f2fs/compress.h):
 * LZ4 always, LZO through liblzo2 when the build found it.  A cluster is
 * compressed whole into header + codec output; it is worth storing so only
 * when that takes fewer blocks than the cluster by at least the caller's
 * margin, the rule the kernel applies before it writes a cluster
 * compressed.  Decompression trusts nothing: clen must fit in the blocks
 * read, and the codec must give back exactly one cluster.
 */
#include "config.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_LZO2
#include <lzo/lzo1x.h>
#endif

#include "f2fs/compress.h"
#include "f2fs/crc.h"
#include "f2fs/endian.h"

static const char *const names[F2FS_COMPRESS_MAX] = {
    [F2FS_COMPRESS_LZO] = "lzo",
    [F2FS_COMPRESS_LZ4] = "lz4",
    [F2FS_COMPRESS_ZSTD] = "zstd",
    [F2FS_COMPRESS_LZORLE] = "lzo-rle",
};

int f2fs_compress_by_name(const char *name)
{
	/* upstream's sload knows these two, spelled this way */
	if (!strcmp(name, "lzo"))
		return F2FS_COMPRESS_LZO;
	if (!strcmp(name, "lz4"))
		return F2FS_COMPRESS_LZ4;
	return -1;
}

const char *f2fs_compress_name(unsigned int algo)
{
	return algo < F2FS_COMPRESS_MAX ? names[algo] : "unknown";
}

bool f2fs_compress_built(unsigned int algo)
{
#ifdef HAVE_LZO2
	if (algo == F2FS_COMPRESS_LZO)
		return true;
#endif
	return algo == F2FS_COMPRESS_LZ4;
}

/* LZ4 into at most @room bytes at @dst; the bytes written, 0 when they do not fit. */
static int lz4_into(const void *src, size_t len, uint8_t *dst, size_t room, size_t *clen)
{
	int n = LZ4_compress_default(src, (char *)dst, (int)len, (int)room);

	*clen = n > 0 ? (size_t)n : 0;
	return 0;
}

#ifdef HAVE_LZO2
/*
 * LZO1X-1, the kernel's lzo1x_1_compress(): it has no output bound, so it
 * writes to a worst-case buffer and the result is copied when it fits.
 */
static int lzo_into(const void *src, size_t len, uint8_t *dst, size_t room, size_t *clen)
{
	size_t worst = len + len / 16 + 64 + 3;
	uint8_t *mem = malloc(LZO1X_1_MEM_COMPRESS + worst);
	lzo_uint n = 0;
	int ret = 0;

	*clen = 0;
	if (!mem)
		return -ENOMEM;
	if (lzo1x_1_compress(src, len, mem + LZO1X_1_MEM_COMPRESS, &n, mem) == LZO_E_OK &&
	    n <= room) {
		memcpy(dst, mem + LZO1X_1_MEM_COMPRESS, n);
		*clen = n;
	}
	free(mem);
	return ret;
}
#endif

int f2fs_cluster_compress(unsigned int algo, const void *data, unsigned int cluster_blocks,
			  unsigned int min_saved, void *out, uint32_t blksize)
{
	size_t len = (size_t)cluster_blocks * blksize, clen = 0, room;
	struct f2fs_compress_header h = {0};
	uint8_t *o = out;
	unsigned int blocks;
	int ret;

	if (min_saved == 0 || min_saved >= cluster_blocks)
		return 0;
	room = (size_t)(cluster_blocks - min_saved) * blksize - F2FS_COMPRESS_HEADER_SIZE;
	if (algo == F2FS_COMPRESS_LZ4)
		ret = lz4_into(data, len, o + F2FS_COMPRESS_HEADER_SIZE, room, &clen);
#ifdef HAVE_LZO2
	else if (algo == F2FS_COMPRESS_LZO)
		ret = lzo_into(data, len, o + F2FS_COMPRESS_HEADER_SIZE, room, &clen);
#endif
	else
		return -EOPNOTSUPP;
	if (ret || clen == 0)
		return ret;
	blocks = (unsigned int)((clen + F2FS_COMPRESS_HEADER_SIZE + blksize - 1) / blksize);
	h.clen = le32_put((uint32_t)clen);
	memcpy(o, &h, sizeof(h));
	memset(o + F2FS_COMPRESS_HEADER_SIZE + clen, 0,
	       (size_t)blocks * blksize - F2FS_COMPRESS_HEADER_SIZE - clen);
	return (int)blocks;
}

int f2fs_cluster_clen(const void *stored, unsigned int nr_blocks, uint32_t blksize, uint32_t *clen)
{
	struct f2fs_compress_header h;

	memcpy(&h, stored, sizeof(h));
	*clen = le32_get(h.clen);
	if (nr_blocks == 0 || *clen == 0 ||
	    *clen > (uint64_t)nr_blocks * blksize - F2FS_COMPRESS_HEADER_SIZE)
		return -EUCLEAN;
	return 0;
}

/* Decode @clen bytes at @src into @len bytes at @dst: -EUCLEAN unless exactly @len come out. */
static int decode(unsigned int algo, const uint8_t *src, uint32_t clen, uint8_t *dst, size_t len)
{
	if (algo == F2FS_COMPRESS_LZ4) {
		int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)clen, (int)len);

		return n == (int)len ? 0 : -EUCLEAN;
	}
#ifdef HAVE_LZO2
	if (algo == F2FS_COMPRESS_LZO) {
		lzo_uint n = len;

		if (lzo1x_decompress_safe(src, clen, dst, &n, NULL) != LZO_E_OK || n != len)
			return -EUCLEAN;
		return 0;
	}
#endif
	return -EOPNOTSUPP;
}

int f2fs_cluster_decompress(unsigned int algo, const void *stored, unsigned int nr_blocks,
			    bool chksum, void *out, unsigned int cluster_blocks, uint32_t blksize)
{
	const uint8_t *s = stored;
	struct f2fs_compress_header h;
	uint32_t clen;
	int ret;

	if (!f2fs_compress_built(algo))
		return -EOPNOTSUPP;
	ret = f2fs_cluster_clen(stored, nr_blocks, blksize, &clen);
	if (ret)
		return ret;
	memcpy(&h, s, sizeof(h));
	if (chksum &&
	    le32_get(h.chksum) != f2fs_crc32(F2FS_SUPER_MAGIC, s + F2FS_COMPRESS_HEADER_SIZE, clen))
		return -EUCLEAN;
	return decode(algo, s + F2FS_COMPRESS_HEADER_SIZE, clen, out,
		      (size_t)cluster_blocks * blksize);
}
