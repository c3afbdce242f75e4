// SPDX-License-Identifier: GPL-2.0
/*
 * Extended attributes, in the kernel's layout: one list -- a 24-byte header
 * (magic, refcount) then entries {index, name length, value size, name,
 * value} each padded to 4 bytes, ended by four zero bytes -- stored across
 * the inode's inline xattr area (the last words of i_addr[]) and, past it,
 * the data area of the inode's xattr node, which is made when the list
 * first outgrows the inline area.  Everything after the end marker is zero.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

#define XATTR_MAGIC	 0xF2F52011u
#define XATTR_HDR_SIZE	 24
#define XATTR_ENTRY_HDR	 4
#define XATTR_NODE_BYTES (F2FS_BLKSIZE - sizeof(struct f2fs_node_footer))
#define XATTR_ALIGN(n)	 (((n) + 3u) & ~3u)

struct xlist {
	uint8_t *buf;
	size_t inline_size, size; /* inline part, whole capacity */
};

static size_t inline_xattr_bytes(struct f2fs_wr *w, const struct f2fs_inode *ri)
{
	return (size_t)f2fs_inode_inline_xattr_addrs(ri, w->fs->features) * sizeof(uint32_t);
}

static uint8_t *inline_xattr_area(struct f2fs_inode *ri, size_t bytes)
{
	return (uint8_t *)ri->i_nid - bytes;
}

static int load(struct f2fs_wr *w, struct wr_node *in, struct xlist *x)
{
	uint32_t xnid = le32_get(in->blk.i.i_xattr_nid);
	struct wr_node *xn;
	int ret;

	x->inline_size = inline_xattr_bytes(w, &in->blk.i);
	x->size = x->inline_size + XATTR_NODE_BYTES;
	x->buf = calloc(1, x->size + 4);
	if (!x->buf)
		return -ENOMEM;
	memcpy(x->buf, inline_xattr_area(&in->blk.i, x->inline_size), x->inline_size);
	if (xnid) {
		ret = wr_node_get(w, xnid, in->ino, &xn);
		if (ret) {
			free(x->buf);
			return ret;
		}
		memcpy(x->buf + x->inline_size, &xn->blk, XATTR_NODE_BYTES);
		wr_node_put(xn);
	}
	if (le32_get(*(le32 *)x->buf) != XATTR_MAGIC) {
		memset(x->buf, 0, x->size);
		*(le32 *)x->buf = le32_put(XATTR_MAGIC);
		*(le32 *)(x->buf + 4) = le32_put(1);
	}
	return 0;
}

static size_t entry_size(const uint8_t *e)
{
	return XATTR_ALIGN(XATTR_ENTRY_HDR + e[1] + le16_get(*(const le16 *)(e + 2)));
}

/* The entry (index, name) and the end of the list; NULL when absent. */
static uint8_t *find(struct xlist *x, uint8_t index, const char *name, size_t nlen, size_t *end)
{
	size_t off = XATTR_HDR_SIZE;
	uint8_t *hit = NULL;

	while (off + XATTR_ENTRY_HDR <= x->size && le32_get(*(le32 *)(x->buf + off))) {
		uint8_t *e = x->buf + off;

		if (off + entry_size(e) > x->size)
			break; /* damaged: treat the rest as gone */
		if (e[0] == index && e[1] == nlen && !memcmp(e + XATTR_ENTRY_HDR, name, nlen))
			hit = e;
		off += entry_size(e);
	}
	*end = off;
	return hit;
}

static int store(struct f2fs_wr *w, struct wr_node *in, struct xlist *x, size_t used)
{
	uint32_t xnid = le32_get(in->blk.i.i_xattr_nid);
	struct wr_node *xn;
	int ret;

	memcpy(inline_xattr_area(&in->blk.i, x->inline_size), x->buf, x->inline_size);
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
			wr_inode_add_blocks(in, 1);
		}
	}
	if (ret)
		return ret;
	memcpy(&xn->blk, x->buf + x->inline_size, XATTR_NODE_BYTES);
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
		size_t sz = entry_size(e);

		memmove(e, e + sz, end - (size_t)(e - x.buf) - sz);
		end -= sz;
		memset(x.buf + end, 0, x.size - end);
	}
	need = XATTR_ALIGN(XATTR_ENTRY_HDR + nlen + len);
	if (value && end + need + 4 > x.size) {
		free(x.buf);
		return -ERANGE;
	}
	if (value) {
		e = x.buf + end;
		e[0] = index;
		e[1] = (uint8_t)nlen;
		*(le16 *)(e + 2) = le16_put((uint16_t)len);
		memcpy(e + XATTR_ENTRY_HDR, name, nlen);
		memcpy(e + XATTR_ENTRY_HDR + nlen, value, len);
		end += need;
	}
	ret = store(w, in, &x, end + 4);
	free(x.buf);
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
		memcpy(buf, e + XATTR_ENTRY_HDR + e[1], vlen < len ? vlen : len);
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
	wr_inode_add_blocks(in, -1);
	return wr_node_remove(w, xn);
}
