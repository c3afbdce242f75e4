// SPDX-License-Identifier: GPL-2.0
/*
 * The xattr space and its entry list (see include/f2fs/xattr.h): where the
 * inline area lies, how big an entry is, and a walk that says where the
 * list ends and whether it ends cleanly.  The kernel and upstream fsck read
 * entries the same way; one that would run past the space stops the walk.
 * Also the one value whose layout the tools build: file capabilities.
 * The name spaces a host knows by a prefix are mapped here, once.
 */
#include "config.h"

#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/xattr.h"

unsigned int f2fs_inline_xattr_bytes(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
				     uint32_t features)
{
	unsigned int addrs = f2fs_inode_inline_xattr_addrs(ri, features);

	if (!(ri->i_inline & F2FS_INLINE_XATTR) || addrs > g->addrs_per_inode)
		return 0;
	return addrs * 4u;
}

const uint8_t *f2fs_inline_xattr(const struct f2fs_blkgeo *g, const struct f2fs_inode *ri,
				 uint32_t features)
{
	unsigned int bytes = f2fs_inline_xattr_bytes(g, ri, features);

	/* the area ends where i_addr[] ends */
	return (const uint8_t *)ri + offsetof(struct f2fs_inode, i_addr) +
	       (g->addrs_per_inode - bytes / 4u) * sizeof(le32);
}

size_t f2fs_xattr_entry_size(const uint8_t *e)
{
	size_t n = F2FS_XATTR_ENTRY_HEAD + e[F2FS_XATTR_E_NAME_LEN] +
		   (size_t)(e[F2FS_XATTR_E_VALUE_SIZE] | e[F2FS_XATTR_E_VALUE_SIZE + 1] << 8);

	return (n + 3u) & ~(size_t)3u;
}

/* Is the word at @off the end of the list?  Past the space it reads as zero. */
static bool list_ends_at(const uint8_t *space, size_t len, size_t off)
{
	return off + 4u > len || !(space[off] | space[off + 1] | space[off + 2] | space[off + 3]);
}

void f2fs_xattr_scan(const uint8_t *space, size_t len, struct f2fs_xattr_list *out)
{
	size_t off = F2FS_XATTR_HEADER_SIZE, i;

	*out = (struct f2fs_xattr_list){.end = len};
	if (len < F2FS_XATTR_HEADER_SIZE)
		return;
	while (!list_ends_at(space, len, off)) {
		if (off + f2fs_xattr_entry_size(space + off) > len) {
			out->overrun = true;
			out->end = off;
			return;
		}
		off += f2fs_xattr_entry_size(space + off);
		out->entries++;
	}
	out->end = off;
	for (i = off; i < len; i++)
		if (space[i]) {
			out->trailing = true;
			out->trailing_at = i;
			return;
		}
}

long f2fs_xattr_entry_offset(const uint8_t *space, size_t len, uint32_t idx)
{
	size_t off = F2FS_XATTR_HEADER_SIZE;
	uint32_t i;

	if (len < F2FS_XATTR_HEADER_SIZE)
		return -1;
	for (i = 0; i < idx; i++) {
		if (list_ends_at(space, len, off) || off + f2fs_xattr_entry_size(space + off) > len)
			return -1;
		off += f2fs_xattr_entry_size(space + off);
	}
	return off + F2FS_XATTR_ENTRY_HEAD <= len ? (long)off : -1;
}

void f2fs_vfs_cap_build(uint64_t permitted, uint8_t out[F2FS_VFS_CAP_BYTES])
{
	le32 w[F2FS_VFS_CAP_BYTES / 4] = {
	    le32_put(F2FS_VFS_CAP_REVISION_2 | F2FS_VFS_CAP_FLAG_EFFECTIVE),
	    le32_put((uint32_t)permitted),
	    le32_put(0),
	    le32_put((uint32_t)(permitted >> 32)),
	    le32_put(0),
	};

	memcpy(out, w, sizeof(w));
}

static const struct {
	uint8_t index;
	const char *prefix;
} name_spaces[] = {
    {F2FS_XATTR_INDEX_USER, "user."},
    {F2FS_XATTR_INDEX_TRUSTED, "trusted."},
    {F2FS_XATTR_INDEX_SECURITY, "security."},
};

const char *f2fs_xattr_prefix(uint8_t index)
{
	size_t i;

	for (i = 0; i < sizeof(name_spaces) / sizeof(name_spaces[0]); i++)
		if (name_spaces[i].index == index)
			return name_spaces[i].prefix;
	return NULL;
}

uint8_t f2fs_xattr_index_of(const char *name, const char **suffix)
{
	size_t i;

	for (i = 0; i < sizeof(name_spaces) / sizeof(name_spaces[0]); i++) {
		size_t n = strlen(name_spaces[i].prefix);

		if (!strncmp(name, name_spaces[i].prefix, n) && name[n]) {
			*suffix = name + n;
			return name_spaces[i].index;
		}
	}
	return 0;
}
