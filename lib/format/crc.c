// SPDX-License-Identifier: GPL-2.0
/*
 * Checksums on zlib's crc32.  zlib returns ~crc(~seed), the kernel's f2fs
 * checksum is the raw register, so both ends are inverted here.
 */
#include <zlib.h>

#include "f2fs/crc.h"
#include "f2fs/format.h"

uint32_t f2fs_crc32(uint32_t seed, const void *buf, size_t len)
{
	uLong crc = ~seed & 0xffffffffu;
	const unsigned char *p = buf;

	while (len > 0) {
		uInt chunk = len > 0x40000000u ? 0x40000000u : (uInt)len;

		crc = crc32(crc, p, chunk);
		p += chunk;
		len -= chunk;
	}
	return ~(uint32_t)crc;
}

uint32_t f2fs_block_crc(const void *buf, size_t len)
{
	return f2fs_crc32(F2FS_SUPER_MAGIC, buf, len);
}
