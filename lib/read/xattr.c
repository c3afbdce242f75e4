// SPDX-License-Identifier: GPL-2.0
/*
 * The extended attributes of a file, as a reader sees them: the inode's
 * inline xattr area and the data area of its xattr node, read as the one
 * list lib/format/xattr.c describes, handed out entry by entry.  The xattr
 * node comes through the NAT like every other node, its footer checked
 * against the inode; a list that runs past its space ends the walk with
 * -EUCLEAN after the entries before the break, as the kernel and upstream
 * stop there too.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/blkgeo.h"
#include "f2fs/endian.h"
#include "f2fs/geometry.h"
#include "f2fs/read.h"
#include "f2fs/xattr.h"

/* The inline area and the xattr node's data, one after the other, into @space; its length. */
static int read_xattr_space(struct f2fs_fs *fs, const struct f2fs_node *inode, uint8_t *space,
			    size_t *len)
{
	const struct f2fs_blkgeo *bg = &f2fs_fs_geo(fs)->blk;
	uint32_t features = f2fs_fs_features(fs);
	unsigned int inline_bytes = f2fs_inline_xattr_bytes(bg, &inode->i, features);
	uint32_t xnid = le32_get(inode->i.i_xattr_nid);
	void *xnode;
	int ret;

	memcpy(space, f2fs_inline_xattr(bg, &inode->i, features), inline_bytes);
	*len = inline_bytes;
	if (!xnid)
		return 0;
	xnode = f2fs_block_alloc(fs);
	if (!xnode)
		return -ENOMEM;
	ret = f2fs_read_node(fs, xnid, f2fs_footer_ino(bg, inode), xnode);
	if (!ret) {
		memcpy(space + inline_bytes, xnode, f2fs_xattr_node_bytes(bg));
		*len += f2fs_xattr_node_bytes(bg);
	}
	free(xnode);
	return ret;
}

static int pass_entries(const uint8_t *space, size_t len, f2fs_xattr_fn fn, void *arg)
{
	struct f2fs_xattr_list l;
	uint32_t i;

	f2fs_xattr_scan(space, len, &l);
	for (i = 0; i < l.entries; i++) {
		const uint8_t *e = space + f2fs_xattr_entry_offset(space, len, i);
		struct f2fs_xattr x = {
		    .index = e[F2FS_XATTR_E_NAME_INDEX],
		    .name = (const char *)e + F2FS_XATTR_ENTRY_HEAD,
		    .name_len = e[F2FS_XATTR_E_NAME_LEN],
		    .value_len = le16_get(*(const le16 *)(e + F2FS_XATTR_E_VALUE_SIZE)),
		};
		int ret;

		x.value = e + F2FS_XATTR_ENTRY_HEAD + x.name_len;
		ret = fn(&x, arg);
		if (ret)
			return ret;
	}
	return l.overrun ? -EUCLEAN : 0;
}

int f2fs_file_for_each_xattr(struct f2fs_fs *fs, const struct f2fs_node *inode, f2fs_xattr_fn fn,
			     void *arg)
{
	uint8_t *space = malloc(F2FS_XATTR_SPACE_MAX);
	size_t len;
	int ret;

	if (!space)
		return -ENOMEM;
	ret = read_xattr_space(fs, inode, space, &len);
	if (!ret)
		ret = pass_entries(space, len, fn, arg);
	free(space);
	return ret;
}
