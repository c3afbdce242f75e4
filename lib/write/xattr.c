// SPDX-License-Identifier: GPL-2.0
/*
 * Extended attributes, in the kernel's layout (include/f2fs/xattr.h): one
 * list across the inode's inline xattr area and, past it, the data area of
 * the inode's xattr node, which is made when the list first outgrows the
 * inline area.  Setting an attribute removes its old entry, appends the new
 * one and keeps everything after the end marker zero.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/xattr.h"
#include "f2fs/fixup.h"
#include "write_internal.h"

#define XATTR_ALIGN(n) (((n) + 3u) & ~3u)

struct xlist {
	uint8_t *buf;
	size_t inline_size, size; /* inline part, whole capacity */
};

static size_t inline_xattr_bytes(struct f2fs_wr *w, const struct f2fs_inode *ri)
{
	return f2fs_inline_xattr_bytes(wr_bg(w), ri, w->fs->features);
}

/* The inline xattr area, to change (lib/format's description of where it lies). */
static uint8_t *inline_xattr_area(struct f2fs_wr *w, struct f2fs_inode *ri)
{
	return (uint8_t *)f2fs_inline_xattr(wr_bg(w), ri, w->fs->features);
}

static int load(struct f2fs_wr *w, struct wr_node *in, struct xlist *x)
{
	uint32_t xnid = le32_get(in->blk.i.i_xattr_nid);
	struct wr_node *xn;
	int ret;

	x->inline_size = inline_xattr_bytes(w, &in->blk.i);
	x->size = x->inline_size + wr_bg(w)->footer_offset;
	x->buf = calloc(1, x->size + 4);
	if (!x->buf)
		return -ENOMEM;
	if (x->inline_size)
		memcpy(x->buf, inline_xattr_area(w, &in->blk.i), x->inline_size);
	if (xnid) {
		ret = wr_node_get(w, xnid, in->ino, &xn);
		if (ret) {
			free(x->buf);
			return ret;
		}
		memcpy(x->buf + x->inline_size, &xn->blk, wr_bg(w)->footer_offset);
		wr_node_put(xn);
	}
	if (le32_get(*(le32 *)x->buf) != F2FS_XATTR_MAGIC) {
		memset(x->buf, 0, x->size);
		*(le32 *)x->buf = le32_put(F2FS_XATTR_MAGIC);
		*(le32 *)(x->buf + 4) = le32_put(1);
	}
	return 0;
}

/* The entry (index, name) and the end of the list; NULL when absent. */
static uint8_t *find(struct xlist *x, uint8_t index, const char *name, size_t nlen, size_t *end)
{
	size_t off = F2FS_XATTR_HEADER_SIZE;
	uint8_t *hit = NULL;

	while (off + F2FS_XATTR_ENTRY_HEAD <= x->size && le32_get(*(le32 *)(x->buf + off))) {
		uint8_t *e = x->buf + off;

		if (off + f2fs_xattr_entry_size(e) > x->size)
			break; /* damaged: treat the rest as gone */
		if (e[0] == index && e[1] == nlen && !memcmp(e + F2FS_XATTR_ENTRY_HEAD, name, nlen))
			hit = e;
		off += f2fs_xattr_entry_size(e);
	}
	*end = off;
	return hit;
}

static int store(struct f2fs_wr *w, struct wr_node *in, struct xlist *x, size_t used)
{
	uint32_t xnid = le32_get(in->blk.i.i_xattr_nid);
	struct wr_node *xn;
	int ret;

	if (x->inline_size)
		memcpy(inline_xattr_area(w, &in->blk.i), x->buf, x->inline_size);
	wr_node_dirty(w, in);
	if (!xnid && used <= x->inline_size)
		return 0;
	if (xnid) {
		ret = wr_node_get(w, xnid, in->ino, &xn);
	} else {
		ret = wr_nid_alloc(w, in->ino, &xnid);
		if (!ret)
			ret = wr_node_new(w, in->ino, xnid, F2FS_XATTR_NODE_OFFSET, wr_is_dir(in),
					  &xn);
		if (!ret) {
			in->blk.i.i_xattr_nid = le32_put(xnid);
			wr_inode_add_blocks(w, in, 1);
		}
	}
	if (ret)
		return ret;
	memcpy(&xn->blk, x->buf + x->inline_size, wr_bg(w)->footer_offset);
	wr_node_dirty(w, xn);
	wr_node_put(xn);
	return 0;
}

static int set_locked(struct f2fs_wr *w, struct wr_node *in, uint8_t index, const char *name,
		      const void *value, size_t len)
{
	size_t nlen = strlen(name), end, need;
	struct xlist x;
	uint8_t *e;
	int ret;

	if (nlen == 0 || nlen > 255 || len > 0xffff)
		return -ERANGE;
	ret = load(w, in, &x);
	if (ret)
		return ret;
	e = find(&x, index, name, nlen, &end);
	if (e) {
		size_t sz = f2fs_xattr_entry_size(e);

		memmove(e, e + sz, end - (size_t)(e - x.buf) - sz);
		end -= sz;
		memset(x.buf + end, 0, x.size - end);
	}
	need = XATTR_ALIGN(F2FS_XATTR_ENTRY_HEAD + nlen + len);
	if (value && end + need + 4 > x.size) {
		free(x.buf);
		return -ERANGE;
	}
	if (value) {
		e = x.buf + end;
		e[0] = index;
		e[1] = (uint8_t)nlen;
		*(le16 *)(e + 2) = le16_put((uint16_t)len);
		memcpy(e + F2FS_XATTR_ENTRY_HEAD, name, nlen);
		memcpy(e + F2FS_XATTR_ENTRY_HEAD + nlen, value, len);
		end += need;
	}
	ret = store(w, in, &x, end + 4);
	free(x.buf);
	return ret;
}

int f2fs_fix_xattr_cut(struct f2fs_fs *fs, uint32_t ino, size_t from)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	struct xlist x;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	ret = wr_inode_get(w, ino, &in);
	if (ret)
		return ret;
	ret = load(w, in, &x);
	if (ret) {
		wr_node_put(in);
		return ret;
	}
	if (from < F2FS_XATTR_HEADER_SIZE || from >= x.size) {
		ret = -EINVAL;
	} else {
		size_t end;

		memset(x.buf + from, 0, x.size - from);
		/* what is left may end well before @from: it needs no node that it did not have */
		find(&x, 0, "", 0, &end);
		ret = store(w, in, &x, end + 4);
	}
	free(x.buf);
	wr_node_put(in);
	return ret;
}

int f2fs_setxattr(struct f2fs_fs *fs, uint32_t ino, uint8_t index, const char *name,
		  const void *value, size_t len)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	wr_lock(w, F2FS_LOCK_CP, 0, false);
	ret = wr_inode_get(w, ino, &in);
	if (!ret) {
		ret = set_locked(w, in, index, name, value, len);
		wr_inode_touch(w, in, true, false);
		wr_node_put(in);
	}
	wr_unlock(w, F2FS_LOCK_CP, 0, false);
	return ret;
}

int f2fs_getxattr(struct f2fs_fs *fs, uint32_t ino, uint8_t index, const char *name, void *buf,
		  size_t len, size_t *value_len)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	struct xlist x;
	size_t end, vlen;
	uint8_t *e;
	int ret = wr_get(fs, &w);

	if (ret)
		return ret;
	ret = wr_inode_get(w, ino, &in);
	if (ret)
		return ret;
	ret = load(w, in, &x);
	wr_node_put(in);
	if (ret)
		return ret;
	e = find(&x, index, name, strlen(name), &end);
	if (!e) {
		free(x.buf);
		return -ENODATA;
	}
	vlen = le16_get(*(le16 *)(e + 2));
	*value_len = vlen;
	if (buf)
		memcpy(buf, e + F2FS_XATTR_ENTRY_HEAD + e[1], vlen < len ? vlen : len);
	free(x.buf);
	return vlen > len && buf ? -ERANGE : 0;
}

int wr_xattr_free(struct f2fs_wr *w, struct wr_node *in)
{
	uint32_t xnid = le32_get(in->blk.i.i_xattr_nid);
	struct wr_node *xn;
	int ret;

	if (!xnid)
		return 0;
	ret = wr_node_get(w, xnid, in->ino, &xn);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	in->blk.i.i_xattr_nid = 0;
	wr_inode_add_blocks(w, in, -1);
	return wr_node_remove(w, xn);
}
