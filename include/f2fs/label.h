/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The volume label: the superblock keeps it as up to F2FS_MAX_VOLUME_NAME
 * UTF-16LE units, NUL-terminated when shorter.  Tools show it as UTF-8.
 */
#ifndef F2FS_LABEL_H
#define F2FS_LABEL_H

#include <stddef.h>

#include "f2fs/format.h"

/* Bytes that always hold a decoded label and its NUL. */
#define F2FS_LABEL_UTF8_SIZE (F2FS_MAX_VOLUME_NAME * 4 + 1)

/*
 * Decode @units UTF-16LE units at @utf16le (up to the first NUL unit) into
 * @out as NUL-terminated UTF-8.  A surrogate pair becomes one character; an
 * unpaired surrogate becomes U+FFFD.  Decoding stops before a character
 * when fewer than 5 bytes of @out are left, so the result is always whole
 * characters.  Returns the bytes written, without the NUL.  @out_len must
 * be at least 1.
 */
size_t f2fs_label_to_utf8(const void *utf16le, size_t units, char *out, size_t out_len);

/* f2fs_label_to_utf8() of @sb's volume_name. */
size_t f2fs_super_label(const struct f2fs_super_block *sb, char *out, size_t out_len);

#endif
