// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace and data entry points of write.h: each checks its
 * arguments, makes room first when free sections run short (as the
 * kernel's f2fs_balance_fs() does, outside the operation lock), takes the
 * operation lock shared and the inode locks, and calls the mechanisms of
 * inode.c, dir.c and data.c.  The rules of rename(2), link(2) and
 * unlink(2) about directories live here.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/compress.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

void f2fs_new_inode_init(struct f2fs_new_inode *a, uint16_t mode, uint64_t now)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
	a->atime = a->mtime = a->ctime = a->crtime = now;
	a->inline_ok = true;
	a->inline_xattr = true;
	a->compress_algorithm = F2FS_COMPRESS_LZ4;
}

int f2fs_new_inode_inline_bytes(struct f2fs_fs *fs, const struct f2fs_new_inode *a,
				unsigned int *bytes)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	*bytes = ret ? 0 : wr_inode_inline_bytes_for(w, a);
	return ret;
}

/*
 * Before an operation (the kernel's f2fs_balance_fs and balance_fs_bg):
 * write dirty nodes back when too many are held -- without a checkpoint,
 * so the last one stays the volume's state -- and clean sections when the
 * free ones are down to the reserve plus what the dirty state will need.
 */
static int balance(struct f2fs_wr *w)
{
	uint64_t per_sec = f2fs_geo_sec_usable(&w->fs->geo);
	uint64_t need = (w->nodes.ndirty + w->inodes.dirty_pages) / per_sec + 1;
	int ret = 0;

	if (w->nodes.ndirty > w->nodes.dirty_budget)
		ret = wr_nodes_write_all(w);
	if (ret || w->in_gc || w->free_sections > w->reserved_sections + need + 1)
		return ret;
	return wr_gc(w, (uint32_t)(w->reserved_sections + need + 2));
}

static int enter(struct f2fs_fs *fs, struct f2fs_wr **w, bool may_clean)
{
	int ret = wr_get(fs, w);

	if (!ret && may_clean)
		ret = balance(*w);
	if (ret)
		return ret;
	wr_lock(*w, F2FS_LOCK_CP, 0, false);
	return 0;
}

static int leave(struct f2fs_wr *w, int ret)
{
	wr_unlock(w, F2FS_LOCK_CP, 0, false);
	return ret;
}

static int check_name(const char *name, size_t len)
{
	if (len == 0 || memchr(name, '/', len) || memchr(name, 0, len))
		return -EINVAL;
	if (len > F2FS_NAME_LEN)
		return -ENAMETOOLONG;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return -EEXIST;
	return 0;
}

int f2fs_lookup(struct f2fs_fs *fs, uint32_t dir, const char *name, size_t len, uint32_t *ino)
{
	struct f2fs_wr *w;
	struct wr_node *d;
	int ret = enter(fs, &w, false);

	if (ret)
		return ret;
	ret = wr_inode_get(w, dir, &d);
	if (!ret) {
		ret = wr_dir_lookup(w, d, name, len, ino, NULL);
		wr_node_put(d);
	}
	return leave(w, ret);
}

int f2fs_path_lookup(struct f2fs_fs *fs, const char *path, uint32_t *ino)
{
	uint32_t cur = le32_get(f2fs_fs_sb(fs)->root_ino);
	const char *p = path;
	int ret = 0;

	if (*p != '/')
		return -EINVAL;
	while (*p && !ret) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 1 && p[0] == '.') {
			p += len;
			continue;
		}
		ret = f2fs_lookup(fs, cur, p, len, &cur);
		p += len;
	}
	if (!ret)
		*ino = cur;
	return ret;
}

static void encode_rdev(struct f2fs_inode *ri, uint32_t major, uint32_t minor)
{
	unsigned int first = f2fs_inode_first_addr(ri);

	if (major < 256 && minor < 256) {
		ri->i_addr[first] = le32_put(major << 8 | minor);
	} else {
		ri->i_addr[first + 1] =
		    le32_put((minor & 0xff) | (major & 0xfff) << 8 | (minor & ~0xffu) << 12);
	}
}

static void set_name(struct f2fs_inode *ri, uint32_t pino, const char *name, size_t len)
{
	ri->i_pino = le32_put(pino);
	ri->i_namelen = le32_put((uint32_t)len);
	memset(ri->i_name, 0, sizeof(ri->i_name));
	memcpy(ri->i_name, name, len);
}

static int fill_new(struct f2fs_wr *w, struct wr_node *dir, struct wr_node *in,
		    const struct f2fs_new_inode *a, const char *name, size_t len,
		    const char *target)
{
	struct f2fs_inode *ri = &in->blk.i;
	int ret = 0;

	set_name(ri, dir->ino, name, len);
	switch (a->mode & S_IFMT) {
	case S_IFDIR:
		ret = wr_dir_init(w, in, dir->ino);
		break;
	case S_IFLNK:
		ret = wr_data_write(w, in, target, strlen(target), 0);
		break;
	case S_IFCHR:
	case S_IFBLK:
		encode_rdev(ri, a->rdev_major, a->rdev_minor);
		break;
	case S_IFREG:
		if (a->temp == F2FS_TEMP_AUTO)
			wr_inode_temp_by_name(w, in, name, len);
		break;
	}
	/* times as the caller gave them, whatever filling the inode stamped */
	ri->i_mtime = le64_put(a->mtime);
	ri->i_ctime = le64_put(a->ctime);
	ri->i_mtime_nsec = le32_put(a->mtime_nsec);
	ri->i_ctime_nsec = le32_put(a->ctime_nsec);
	wr_node_dirty(w, in);
	return ret;
}

static int check_new(const struct f2fs_wr *w, const struct f2fs_new_inode *a, const char *target)
{
	switch (a->mode & S_IFMT) {
	case S_IFREG:
	case S_IFDIR:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		return 0;
	case S_IFLNK:
		if (!target || !*target)
			return -EINVAL;
		return strlen(target) >= wr_blksize(w) ? -ENAMETOOLONG : 0;
	}
	return -EINVAL;
}

static int do_create(struct f2fs_wr *w, uint32_t dir_ino, const char *name, size_t len,
		     const struct f2fs_new_inode *a, const char *target, uint32_t *ino)
{
	struct wr_node *dir, *in;
	uint32_t existing;
	int ret;

	ret = wr_inode_get(w, dir_ino, &dir);
	if (ret)
		return ret;
	ret = wr_dir_lookup(w, dir, name, len, &existing, NULL);
	if (!ret)
		ret = -EEXIST;
	if (ret == -ENOENT)
		ret = wr_inode_new(w, a, dir_ino, &in);
	if (ret) {
		wr_node_put(dir);
		return ret;
	}
	ret = fill_new(w, dir, in, a, name, len, target);
	if (!ret)
		ret = wr_dir_add(w, dir, name, len, in->ino, f2fs_mode_file_type(a->mode));
	if (!ret && S_ISDIR(a->mode))
		dir->blk.i.i_links = le32_put(le32_get(dir->blk.i.i_links) + 1);
	if (!ret) {
		wr_inode_touch(w, dir, true, true);
		*ino = in->ino;
	}
	wr_node_put(in);
	wr_node_put(dir);
	return ret;
}

int f2fs_make_root(struct f2fs_fs *fs, const struct f2fs_new_inode *attr, uint32_t *ino)
{
	uint32_t root = le32_get(f2fs_fs_sb(fs)->root_ino);
	struct f2fs_wr *w;
	struct wr_node *in = NULL;
	int ret;

	if (!S_ISDIR(attr->mode))
		return -EINVAL;
	ret = enter(fs, &w, false);
	if (ret)
		return ret;
	ret = wr_inode_new(w, attr, root, &in);
	if (!ret && in->ino != root)
		ret = -EEXIST; /* not a new volume: the root's nid is taken */
	if (!ret)
		ret = wr_dir_init(w, in, root);
	if (!ret) {
		in->blk.i.i_mtime = le64_put(attr->mtime);
		in->blk.i.i_ctime = le64_put(attr->ctime);
		*ino = in->ino;
	}
	if (in)
		wr_node_put(in);
	return leave(w, ret);
}

int f2fs_create_hidden(struct f2fs_fs *fs, const struct f2fs_new_inode *attr, uint32_t *ino)
{
	struct f2fs_wr *w;
	struct wr_node *in = NULL;
	int ret = S_ISREG(attr->mode) ? enter(fs, &w, false) : -EINVAL;

	if (ret)
		return ret;
	ret = wr_inode_new(w, attr, le32_get(w->sb->root_ino), &in);
	if (!ret) {
		*ino = in->ino;
		wr_node_put(in);
	}
	return leave(w, ret);
}

int f2fs_create(struct f2fs_fs *fs, uint32_t dir, const char *name, size_t len,
		const struct f2fs_new_inode *attr, const char *target, uint32_t *ino)
{
	struct f2fs_wr *w;
	int ret = check_name(name, len);

	if (ret)
		return ret;
	ret = enter(fs, &w, true);
	if (ret)
		return ret;
	ret = check_new(w, attr, target);
	if (ret)
		return leave(w, ret);
	wr_lock(w, F2FS_LOCK_INODE, dir, true);
	ret = do_create(w, dir, name, len, attr, target, ino);
	wr_unlock(w, F2FS_LOCK_INODE, dir, true);
	return leave(w, ret);
}

static int do_link(struct f2fs_wr *w, uint32_t ino, uint32_t dir_ino, const char *name, size_t len)
{
	struct wr_node *dir, *in;
	uint32_t existing;
	int ret = wr_inode_get(w, ino, &in);

	if (ret)
		return ret;
	ret = wr_is_dir(in) ? -EPERM : wr_inode_get(w, dir_ino, &dir);
	if (ret) {
		wr_node_put(in);
		return ret;
	}
	ret = wr_dir_lookup(w, dir, name, len, &existing, NULL);
	if (!ret)
		ret = -EEXIST;
	if (ret == -ENOENT)
		ret = wr_dir_add(w, dir, name, len, ino,
				 f2fs_mode_file_type(le16_get(in->blk.i.i_mode)));
	if (!ret) {
		in->blk.i.i_links = le32_put(le32_get(in->blk.i.i_links) + 1);
		wr_inode_touch(w, in, true, false);
		wr_inode_touch(w, dir, true, true);
	}
	wr_node_put(dir);
	wr_node_put(in);
	return ret;
}

int f2fs_link(struct f2fs_fs *fs, uint32_t ino, uint32_t dir, const char *name, size_t len)
{
	struct f2fs_wr *w;
	int ret = check_name(name, len);

	if (ret)
		return ret;
	ret = enter(fs, &w, true);
	if (ret)
		return ret;
	ret = do_link(w, ino, dir, name, len);
	return leave(w, ret);
}

/* Remove @name, which names @in, from @dir; drop a link of @in (or free it). */
static int remove_entry(struct f2fs_wr *w, struct wr_node *dir, const char *name, size_t len,
			struct wr_node **pin)
{
	struct wr_node *in = *pin;
	int ret = 0;

	if (wr_is_dir(in)) {
		ret = wr_dir_is_empty(w, in);
		if (ret < 0)
			return ret;
		if (!ret)
			return -ENOTEMPTY;
	}
	ret = wr_dir_remove(w, dir, name, len);
	if (ret)
		return ret;
	if (wr_is_dir(in))
		dir->blk.i.i_links = le32_put(le32_get(dir->blk.i.i_links) - 1);
	wr_inode_touch(w, dir, true, true);
	return wr_inode_unlink(w, pin);
}

int f2fs_unlink(struct f2fs_fs *fs, uint32_t dir_ino, const char *name, size_t len)
{
	struct f2fs_wr *w;
	struct wr_node *dir, *in;
	uint32_t ino;
	int ret = check_name(name, len);

	if (ret)
		return ret == -EEXIST ? -EINVAL : ret;
	ret = enter(fs, &w, false);
	if (ret)
		return ret;
	ret = wr_inode_get(w, dir_ino, &dir);
	if (ret)
		return leave(w, ret);
	ret = wr_dir_lookup(w, dir, name, len, &ino, NULL);
	if (!ret)
		ret = wr_inode_get(w, ino, &in);
	if (!ret) {
		ret = remove_entry(w, dir, name, len, &in);
		wr_node_put(in); /* NULL when the inode was freed */
	}
	wr_node_put(dir);
	return leave(w, ret);
}

/* Is @dir @ancestor or below it?  (Walks ".." up to the root.) */
static int is_below(struct f2fs_wr *w, uint32_t dir, uint32_t ancestor)
{
	uint32_t root = le32_get(w->sb->root_ino), cur = dir, depth;

	for (depth = 0; depth < 4096; depth++) {
		struct wr_node *n;
		uint32_t up;
		int ret;

		if (cur == ancestor)
			return 1;
		if (cur == root)
			return 0;
		ret = wr_inode_get(w, cur, &n);
		if (ret)
			return ret;
		ret = wr_dir_lookup(w, n, "..", 2, &up, NULL);
		wr_node_put(n);
		if (ret)
			return ret;
		cur = up;
	}
	return -ELOOP;
}

struct rename_ctx {
	struct wr_node *odir, *ndir, *src, *dst;
	uint32_t src_ino, dst_ino;
	uint8_t src_type;
};

static int rename_checks(struct f2fs_wr *w, struct rename_ctx *r, bool noreplace)
{
	bool src_dir = wr_is_dir(r->src);
	int ret;

	if (src_dir) {
		ret = is_below(w, r->ndir->ino, r->src_ino);
		if (ret)
			return ret < 0 ? ret : -EINVAL;
	}
	if (!r->dst)
		return 0;
	if (noreplace)
		return -EEXIST;
	if (src_dir != wr_is_dir(r->dst))
		return src_dir ? -ENOTDIR : -EISDIR;
	if (wr_is_dir(r->dst)) {
		ret = wr_dir_is_empty(w, r->dst);
		if (ret <= 0)
			return ret < 0 ? ret : -ENOTEMPTY;
	}
	return 0;
}

static int do_rename(struct f2fs_wr *w, struct rename_ctx *r, const char *oname, size_t olen,
		     const char *nname, size_t nlen)
{
	bool src_dir = wr_is_dir(r->src);
	int ret;

	if (r->dst) {
		ret = wr_dir_set(w, r->ndir, nname, nlen, r->src_ino, r->src_type);
		if (!ret && wr_is_dir(r->dst))
			r->ndir->blk.i.i_links = le32_put(le32_get(r->ndir->blk.i.i_links) - 1);
		if (!ret)
			ret = wr_inode_unlink(w, &r->dst);
	} else {
		ret = wr_dir_add(w, r->ndir, nname, nlen, r->src_ino, r->src_type);
	}
	if (!ret)
		ret = wr_dir_remove(w, r->odir, oname, olen);
	if (!ret && src_dir && r->odir != r->ndir) {
		ret = wr_dir_set(w, r->src, "..", 2, r->ndir->ino, F2FS_FT_DIR);
		r->odir->blk.i.i_links = le32_put(le32_get(r->odir->blk.i.i_links) - 1);
		r->ndir->blk.i.i_links = le32_put(le32_get(r->ndir->blk.i.i_links) + 1);
	}
	if (ret)
		return ret;
	set_name(&r->src->blk.i, r->ndir->ino, nname, nlen);
	if (!src_dir) {
		struct wr_inode *wi = wr_inode_find(w, r->src_ino, true);

		if (wi)
			wi->lost_pino = true;
	}
	wr_inode_touch(w, r->src, true, false);
	wr_inode_touch(w, r->odir, true, true);
	wr_inode_touch(w, r->ndir, true, true);
	return 0;
}

static int rename_locked(struct f2fs_wr *w, uint32_t odir, const char *oname, size_t olen,
			 uint32_t ndir, const char *nname, size_t nlen, bool noreplace)
{
	struct rename_ctx r = {0};
	int ret = wr_inode_get(w, odir, &r.odir);

	if (!ret)
		ret = wr_inode_get(w, ndir, &r.ndir);
	if (!ret)
		ret = wr_dir_lookup(w, r.odir, oname, olen, &r.src_ino, &r.src_type);
	if (!ret)
		ret = wr_inode_get(w, r.src_ino, &r.src);
	if (!ret) {
		ret = wr_dir_lookup(w, r.ndir, nname, nlen, &r.dst_ino, NULL);
		if (!ret && r.dst_ino == r.src_ino)
			ret = 1; /* two names of one file: nothing to do */
		else if (!ret)
			ret = wr_inode_get(w, r.dst_ino, &r.dst);
		else if (ret == -ENOENT)
			ret = 0;
	}
	if (!ret)
		ret = rename_checks(w, &r, noreplace);
	if (!ret)
		ret = do_rename(w, &r, oname, olen, nname, nlen);
	wr_node_put(r.dst);
	wr_node_put(r.src);
	wr_node_put(r.ndir);
	wr_node_put(r.odir);
	return ret > 0 ? 0 : ret;
}

int f2fs_rename(struct f2fs_fs *fs, uint32_t odir, const char *oname, size_t olen, uint32_t ndir,
		const char *nname, size_t nlen, bool noreplace)
{
	struct f2fs_wr *w;
	int ret = check_name(oname, olen);

	if (!ret)
		ret = check_name(nname, nlen);
	if (ret)
		return ret == -EEXIST ? -EINVAL : ret;
	ret = enter(fs, &w, true);
	if (ret)
		return ret;
	ret = rename_locked(w, odir, oname, olen, ndir, nname, nlen, noreplace);
	return leave(w, ret);
}

int f2fs_getattr(struct f2fs_fs *fs, uint32_t ino, struct f2fs_inode_attr *a)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = enter(fs, &w, false);

	if (ret)
		return ret;
	ret = wr_inode_get(w, ino, &in);
	if (!ret) {
		const struct f2fs_inode *ri = &in->blk.i;

		memset(a, 0, sizeof(*a));
		a->mode = le16_get(ri->i_mode);
		a->uid = le32_get(ri->i_uid);
		a->gid = le32_get(ri->i_gid);
		a->links = le32_get(ri->i_links);
		a->pino = le32_get(ri->i_pino);
		a->flags = le32_get(ri->i_flags);
		a->size = le64_get(ri->i_size);
		a->blocks = le64_get(ri->i_blocks);
		a->atime = le64_get(ri->i_atime);
		a->mtime = le64_get(ri->i_mtime);
		a->ctime = le64_get(ri->i_ctime);
		a->inline_data = ri->i_inline & F2FS_INLINE_DATA;
		a->inline_dentry = ri->i_inline & F2FS_INLINE_DENTRY;
		wr_node_put(in);
	}
	return leave(w, ret);
}

int f2fs_setattr(struct f2fs_fs *fs, uint32_t ino, const struct f2fs_setattr *s)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = enter(fs, &w, false);

	if (ret)
		return ret;
	ret = wr_inode_get(w, ino, &in);
	if (!ret) {
		struct f2fs_inode *ri = &in->blk.i, before = *ri;

		if (s->set_mode)
			ri->i_mode =
			    le16_put((le16_get(ri->i_mode) & S_IFMT) | (s->mode & ~S_IFMT));
		if (s->set_owner) {
			ri->i_uid = le32_put(s->uid);
			ri->i_gid = le32_put(s->gid);
			wr_quota_transfer(w, in, &before);
		}
		if (s->set_flags)
			ri->i_flags = le32_put(s->flags);
		if (s->atime != UINT64_MAX) {
			ri->i_atime = le64_put(s->atime);
			ri->i_atime_nsec = le32_put(s->atime_nsec);
		}
		if (s->mtime != UINT64_MAX) {
			ri->i_mtime = le64_put(s->mtime);
			ri->i_mtime_nsec = le32_put(s->mtime_nsec);
		}
		if (s->ctime != UINT64_MAX) {
			ri->i_ctime = le64_put(s->ctime);
			ri->i_ctime_nsec = le32_put(s->ctime_nsec);
		}
		wr_node_dirty(w, in);
		wr_node_put(in);
	}
	return leave(w, ret);
}

/* The regular file @ino, for a data operation. */
static int get_file(struct f2fs_wr *w, uint32_t ino, struct wr_node **in)
{
	int ret = wr_inode_get(w, ino, in);

	if (ret)
		return ret;
	if (!S_ISREG(le16_get((*in)->blk.i.i_mode))) {
		ret = wr_is_dir(*in) ? -EISDIR : -EINVAL;
		wr_node_put(*in);
	}
	return ret;
}

/* Enter for a change of regular file @ino: its lock taken, its inode in *in. */
static int begin_file_change(struct f2fs_fs *fs, uint32_t ino, bool may_clean, struct f2fs_wr **w,
			     struct wr_node **in)
{
	int ret = enter(fs, w, may_clean);

	if (ret)
		return ret;
	wr_lock(*w, F2FS_LOCK_INODE, ino, true);
	ret = get_file(*w, ino, in);
	if (ret) {
		wr_unlock(*w, F2FS_LOCK_INODE, ino, true);
		leave(*w, ret);
	}
	return ret;
}

static int end_file_change(struct f2fs_wr *w, struct wr_node *in, int ret)
{
	uint32_t ino = in->ino;

	wr_node_put(in);
	wr_unlock(w, F2FS_LOCK_INODE, ino, true);
	return leave(w, ret);
}

int f2fs_pwrite(struct f2fs_fs *fs, uint32_t ino, const void *buf, size_t len, uint64_t off)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = begin_file_change(fs, ino, true, &w, &in);

	if (ret)
		return ret;
	ret = wr_data_write(w, in, buf, len, off);
	if (!ret)
		w->stats.user_bytes += len;
	return end_file_change(w, in, ret);
}

int f2fs_pread(struct f2fs_fs *fs, uint32_t ino, void *buf, size_t len, uint64_t off, size_t *done)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = enter(fs, &w, false);

	*done = 0;
	if (ret)
		return ret;
	ret = wr_inode_get(w, ino, &in);
	if (!ret) {
		ret = wr_is_dir(in) ? -EISDIR : wr_data_read(w, in, buf, len, off, done);
		wr_node_put(in);
	}
	return leave(w, ret);
}

int f2fs_truncate(struct f2fs_fs *fs, uint32_t ino, uint64_t size)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret = begin_file_change(fs, ino, false, &w, &in);

	return ret ? ret : end_file_change(w, in, wr_set_size(w, in, size));
}

int f2fs_release_compress_blocks(struct f2fs_fs *fs, uint32_t ino, uint64_t *released)
{
	struct f2fs_wr *w;
	struct wr_node *in;
	int ret;

	*released = 0;
	if (!(f2fs_fs_features(fs) & F2FS_FEATURE_COMPRESSION))
		return -EOPNOTSUPP;
	ret = begin_file_change(fs, ino, true, &w, &in);
	return ret ? ret : end_file_change(w, in, wr_compress_release(w, in, released));
}

/* data.c's __should_serialize_io(): compressed, background write-back, or a big file */
static bool should_serialize(struct f2fs_wr *w, uint32_t ino, enum f2fs_wb_mode mode,
			     uint32_t min_seq_blocks)
{
	struct wr_inode *wi = wr_inode_find(w, ino, false);
	struct wr_node *in;
	bool compressed = false;

	if (!min_seq_blocks)
		min_seq_blocks = F2FS_DEFAULT_BLKS_PER_SEG;
	if (mode != F2FS_WB_ALL || (wi && wi->npages >= min_seq_blocks))
		return true;
	if (wi && wi->npages && !wr_inode_get(w, ino, &in)) {
		compressed = wr_compressed(&in->blk.i);
		wr_node_put(in);
	}
	return compressed;
}

bool f2fs_writepages_serialized(struct f2fs_fs *fs, uint32_t ino, enum f2fs_wb_mode mode,
				uint32_t min_seq_blocks)
{
	struct f2fs_wr *w;

	return !wr_get(fs, &w) && should_serialize(w, ino, mode, min_seq_blocks);
}

int f2fs_writepages_some(struct f2fs_fs *fs, uint32_t ino, enum f2fs_wb_mode mode,
			 uint64_t max_pages, uint64_t *left)
{
	struct f2fs_wr *w;
	int ret = enter(fs, &w, true);

	*left = 0;
	if (ret)
		return ret;
	wr_lock(w, F2FS_LOCK_INODE, ino, true);
	ret = wr_writepages_some(w, ino, max_pages, mode == F2FS_WB_NONE, left);
	wr_unlock(w, F2FS_LOCK_INODE, ino, true);
	return leave(w, ret);
}

int f2fs_writepages(struct f2fs_fs *fs, uint32_t ino, enum f2fs_wb_mode mode,
		    uint32_t min_seq_blocks)
{
	struct f2fs_wr *w;
	bool serialize;
	int ret = enter(fs, &w, true);

	if (ret)
		return ret;
	serialize = should_serialize(w, ino, mode, min_seq_blocks);
	if (serialize)
		wr_lock(w, F2FS_LOCK_WRITEPAGES, 0, true);
	ret = wr_writepages(w, ino, mode);
	if (serialize)
		wr_unlock(w, F2FS_LOCK_WRITEPAGES, 0, true);
	return leave(w, ret);
}
