/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where on-disk little-endian values meet host integers.
 * Code reads a field with le32_get(x) and stores one with x = le32_put(v);
 * nothing else converts byte order.
 */
#ifndef F2FS_ENDIAN_H
#define F2FS_ENDIAN_H

#include <endian.h>
#include <stdint.h>

static inline uint16_t le16_get(uint16_t v)
{
	return le16toh(v);
}

static inline uint32_t le32_get(uint32_t v)
{
	return le32toh(v);
}

static inline uint64_t le64_get(uint64_t v)
{
	return le64toh(v);
}

static inline uint16_t le16_put(uint16_t v)
{
	return htole16(v);
}

static inline uint32_t le32_put(uint32_t v)
{
	return htole32(v);
}

static inline uint64_t le64_put(uint64_t v)
{
	return htole64(v);
}

#endif
