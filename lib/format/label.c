// SPDX-License-Identifier: GPL-2.0
/* Decoding the UTF-16LE volume label (see f2fs/label.h). */
#include "config.h"

#include <stdint.h>

#include "f2fs/label.h"

/* Unit @i of a little-endian UTF-16 string, byte by byte: the field is unaligned. */
static uint32_t unit_at(const uint8_t *p, size_t i)
{
	return (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
}

static size_t put_utf8(char *out, size_t o, uint32_t c)
{
	if (c < 0x80) {
		out[o++] = (char)c;
	} else if (c < 0x800) {
		out[o++] = (char)(0xc0 | (c >> 6));
		out[o++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		out[o++] = (char)(0xe0 | (c >> 12));
		out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[o++] = (char)(0x80 | (c & 0x3f));
	} else {
		out[o++] = (char)(0xf0 | (c >> 18));
		out[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
		out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[o++] = (char)(0x80 | (c & 0x3f));
	}
	return o;
}

size_t f2fs_label_to_utf8(const void *utf16le, size_t units, char *out, size_t out_len)
{
	const uint8_t *in = utf16le;
	size_t i, o = 0;

	for (i = 0; i < units; i++) {
		uint32_t c = unit_at(in, i);

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units && unit_at(in, i + 1) >= 0xdc00 &&
		    unit_at(in, i + 1) < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (unit_at(in, i + 1) - 0xdc00);
			i++;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		/* the longest character and the NUL */
		if (o + 5 > out_len)
			break;
		o = put_utf8(out, o, c);
	}
	out[o] = '\0';
	return o;
}

size_t f2fs_super_label(const struct f2fs_super_block *sb, char *out, size_t out_len)
{
	return f2fs_label_to_utf8((const uint8_t *)sb +
				      offsetof(struct f2fs_super_block, volume_name),
				  F2FS_MAX_VOLUME_NAME, out, out_len);
}
