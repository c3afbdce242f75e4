// SPDX-License-Identifier: GPL-2.0
/*
 * Superblock construction: geometry fields from a computed layout, the
 * volume label in UTF-16, the extension lists that steer cold and hot data,
 * and the optional checksum; and the addresses the superblock gives the
 * metadata areas' blocks, for everyone who reads or writes them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/crc.h"
#include "f2fs/blkgeo.h"
#include "f2fs/endian.h"
#include "f2fs/super.h"

/* File name extensions whose data mkfs marks cold (media, archives...). */
static const char *const default_cold_extensions[] = {
    "mp",   "wm",   "og",  "jp",  "avi", "m4v",	 "m4p", "mkv",	"mov",	"webm", "wav", "m4a", "3gp",
    "opus", "flac", "gif", "png", "svg", "webp", "jar", "deb",	"iso",	"gz",	"xz",  "zst", "pdf",
    "pyc",  "ttc",  "ttf", "exe", "apk", "cnt",	 "exo", "odex", "vdex", "so",	NULL,
};

/* ... and hot (databases, virtual machine disks). */
static const char *const default_hot_extensions[] = {"db", "vmdk", "vdi", "qcow2", NULL};

void f2fs_super_set_layout(struct f2fs_super_block *sb, const struct f2fs_layout *l)
{
	sb->log_sectorsize = le32_put(l->log_sectorsize);
	sb->log_sectors_per_block = le32_put(l->log_sectors_per_block);
	sb->log_blocksize = le32_put(l->log_blksize ? l->log_blksize : F2FS_BLKSIZE_BITS);
	sb->log_blocks_per_seg = le32_put(F2FS_LOG_BLKS_PER_SEG);
	sb->segs_per_sec = le32_put(l->segs_per_sec);
	sb->secs_per_zone = le32_put(l->secs_per_zone);
	sb->block_count = le64_put(l->block_count);
	sb->section_count = le32_put(l->section_count);
	sb->segment_count = le32_put(l->segment_count);
	sb->segment_count_ckpt = le32_put(l->segment_count_ckpt);
	sb->segment_count_sit = le32_put(l->segment_count_sit);
	sb->segment_count_nat = le32_put(l->segment_count_nat);
	sb->segment_count_ssa = le32_put(l->segment_count_ssa);
	sb->segment_count_main = le32_put(l->segment_count_main);
	sb->segment0_blkaddr = le32_put(l->segment0_blkaddr);
	sb->cp_blkaddr = le32_put(l->cp_blkaddr);
	sb->sit_blkaddr = le32_put(l->sit_blkaddr);
	sb->nat_blkaddr = le32_put(l->nat_blkaddr);
	sb->ssa_blkaddr = le32_put(l->ssa_blkaddr);
	sb->main_blkaddr = le32_put(l->main_blkaddr);
	sb->cp_payload = le32_put(l->cp_payload);
}

uint64_t f2fs_sb_cp_pack_addr(const struct f2fs_super_block *sb, unsigned int pack)
{
	return le32_get(sb->cp_blkaddr) + (uint64_t)pack * F2FS_DEFAULT_BLKS_PER_SEG;
}

uint32_t f2fs_sb_blksize(const struct f2fs_super_block *sb)
{
	struct f2fs_blkgeo g;

	if (f2fs_blkgeo_init(&g, le32_get(sb->log_blocksize)))
		return F2FS_BLKSIZE;
	return g.blksize;
}

uint64_t f2fs_sb_nat_blocks(const struct f2fs_super_block *sb)
{
	return (uint64_t)(le32_get(sb->segment_count_nat) / 2) * F2FS_DEFAULT_BLKS_PER_SEG;
}

uint64_t f2fs_sb_max_nid(const struct f2fs_super_block *sb)
{
	return f2fs_sb_nat_blocks(sb) * (f2fs_sb_blksize(sb) / sizeof(struct f2fs_nat_entry));
}

uint64_t f2fs_sb_sit_blocks(const struct f2fs_super_block *sb)
{
	return (uint64_t)(le32_get(sb->segment_count_sit) / 2) * F2FS_DEFAULT_BLKS_PER_SEG;
}

uint64_t f2fs_sb_sit_block_addr(const struct f2fs_super_block *sb, uint32_t idx, int copy)
{
	return le32_get(sb->sit_blkaddr) + (uint64_t)idx + (copy ? f2fs_sb_sit_blocks(sb) : 0);
}

void f2fs_super_seal(struct f2fs_super_block *sb)
{
	if (!(le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM)) {
		sb->checksum_offset = 0;
		sb->crc = 0;
		return;
	}
	sb->checksum_offset = le32_put(F2FS_SB_CHKSUM_OFFSET);
	sb->crc = le32_put(f2fs_block_crc(sb, F2FS_SB_CHKSUM_OFFSET));
}

/* Decode one UTF-8 sequence; returns its length or 0 when malformed. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t len, i;
	uint32_t min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, *cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, *cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, *cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

static void put_unit(uint8_t *out, size_t idx, uint32_t unit)
{
	le16 v = le16_put((uint16_t)unit);

	memcpy(out + idx * sizeof(v), &v, sizeof(v));
}

int f2fs_label_to_utf16(const char *label, void *buf, size_t max)
{
	const unsigned char *s = (const unsigned char *)label;
	uint8_t *out = buf;
	size_t units = 0;

	memset(out, 0, max * sizeof(le16));
	while (*s) {
		uint32_t cp;
		size_t len = utf8_decode(s, &cp);

		if (!len)
			return -EINVAL;
		s += len;
		if (cp >= 0x10000) {
			if (units + 2 > max)
				return -ENAMETOOLONG;
			cp -= 0x10000;
			put_unit(out, units++, 0xd800 | (cp >> 10));
			put_unit(out, units++, 0xdc00 | (cp & 0x3ff));
		} else {
			if (units + 1 > max)
				return -ENAMETOOLONG;
			put_unit(out, units++, cp);
		}
	}
	return (int)units;
}

static int extension_present(const struct f2fs_super_block *sb, unsigned int count,
			     const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		if (strnlen((const char *)sb->extension_list[i], F2FS_EXTENSION_LEN) == len &&
		    !memcmp(sb->extension_list[i], name, len))
			return 1;
	return 0;
}

/* Append defaults then user names from @list; returns the new count. */
static unsigned int add_extensions(struct f2fs_super_block *sb, unsigned int pos,
				   const char *const *defaults, const char *list,
				   void (*warn)(const char *, void *), void *arg)
{
	const char *p = list;

	for (; *defaults && pos < F2FS_MAX_EXTENSION; defaults++)
		memcpy(sb->extension_list[pos++], *defaults, strlen(*defaults));
	while (p && *p && pos < F2FS_MAX_EXTENSION) {
		size_t len;

		p += strspn(p, ", ");
		len = strcspn(p, ", ");
		if (!len)
			break;
		if (len >= F2FS_EXTENSION_LEN) {
			if (warn) {
				char name[256];

				snprintf(name, sizeof(name), "%.*s", (int)len, p);
				warn(name, arg);
			}
		} else if (!extension_present(sb, pos, p, len)) {
			memcpy(sb->extension_list[pos++], p, len);
		}
		p += len;
	}
	return pos;
}

void f2fs_super_set_extensions(struct f2fs_super_block *sb, const char *cold, const char *hot,
			       void (*warn)(const char *, void *), void *arg)
{
	unsigned int cold_count, total;

	memset(sb->extension_list, 0, sizeof(sb->extension_list));
	cold_count = add_extensions(sb, 0, default_cold_extensions, cold, warn, arg);
	total = add_extensions(sb, cold_count, default_hot_extensions, hot, warn, arg);
	sb->extension_count = le32_put(cold_count);
	sb->hot_ext_count = (uint8_t)(total - cold_count);
}

unsigned int f2fs_super_devices(const struct f2fs_super_block *sb, struct f2fs_sb_device *out)
{
	uint64_t next = 0;
	unsigned int n;

	for (n = 0; n < F2FS_MAX_DEVICES && sb->devs[n].path[0]; n++) {
		struct f2fs_sb_device *d = &out[n];

		memcpy(d->path, sb->devs[n].path, F2FS_MAX_PATH_LEN);
		d->path[F2FS_MAX_PATH_LEN] = '\0';
		d->segments = le32_get(sb->devs[n].total_segments);
		d->first_blkaddr = next;
		d->last_blkaddr = next + (uint64_t)d->segments * F2FS_DEFAULT_BLKS_PER_SEG - 1;
		if (n == 0)
			d->last_blkaddr += le32_get(sb->segment0_blkaddr);
		next = d->last_blkaddr + 1;
	}
	return n;
}
