/* SPDX-License-Identifier: GPL-2.0 */
/* F2FS checksums and the directory-entry name hash. */
#ifndef F2FS_CRC_H
#define F2FS_CRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * The kernel's crc32 as F2FS uses it: reflected CRC-32 continuing from
 * @seed with no final inversion.  Chain calls by passing the previous result.
 */
uint32_t f2fs_crc32(uint32_t seed, const void *buf, size_t len);

/* Checksum of a superblock, checkpoint block or similar, seeded with the magic. */
uint32_t f2fs_block_crc(const void *buf, size_t len);

/* Hash of a file name as stored in f2fs_dir_entry.hash_code ("." and ".." hash to 0). */
uint32_t f2fs_dentry_hash(const unsigned char *name, size_t len);

#endif
