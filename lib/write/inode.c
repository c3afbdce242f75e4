// SPDX-License-Identifier: GPL-2.0
/*
 * Inodes: making one as the kernel's f2fs_new_inode() does (extra
 * attributes, inline xattrs, inline data or dentries, crtime, project id
 * and checksum as the volume's features ask), counting its blocks, its
 * temperature, and freeing it with its last link.  The inode's node block
 * in the node cache is the one copy of its fields; struct wr_inode holds
 * only what a node block cannot: dirty pages and the flags fsync needs.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "f2fs/compress.h"
#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "write_internal.h"

#define FADVISE_COLD_BIT 0x01
#define FADVISE_HOT_BIT	 0x20

static uint32_t hash_ino(const struct wr_inode_table *t, uint32_t ino)
{
	return (ino * 2654435761u) % t->nbuckets;
}

int wr_inodes_init(struct f2fs_wr *w)
{
	w->inodes.nbuckets = 4096;
	w->inodes.page_bytes = wr_blksize(w);
	w->inodes.buckets = calloc(w->inodes.nbuckets, sizeof(*w->inodes.buckets));
	return w->inodes.buckets ? 0 : -ENOMEM;
}

static void free_inode(struct f2fs_wr *w, struct wr_inode *wi)
{
	wr_drop_pages(w, wi, 0);
	free(wi->pages);
	free(wi);
}

void wr_inodes_free(struct f2fs_wr *w)
{
	uint32_t i;

	for (i = 0; w->inodes.buckets && i < w->inodes.nbuckets; i++) {
		while (w->inodes.buckets[i]) {
			struct wr_inode *wi = w->inodes.buckets[i];

			w->inodes.buckets[i] = wi->hnext;
			free_inode(w, wi);
		}
	}
	free(w->inodes.buckets);
	while (w->inodes.npool)
		free(w->inodes.pool[--w->inodes.npool]);
	free(w->inodes.pool);
}

struct wr_inode *wr_inode_find(struct f2fs_wr *w, uint32_t ino, bool create)
{
	struct wr_inode_table *t = &w->inodes;
	uint32_t h = hash_ino(t, ino);
	struct wr_inode *wi;

	for (wi = t->buckets[h]; wi; wi = wi->hnext)
		if (wi->ino == ino)
			return wi;
	if (!create)
		return NULL;
	wi = calloc(1, sizeof(*wi));
	if (!wi)
		return NULL;
	wi->ino = ino;
	wi->hnext = t->buckets[h];
	t->buckets[h] = wi;
	t->count++;
	return wi;
}

void wr_inode_forget(struct f2fs_wr *w, uint32_t ino)
{
	struct wr_inode_table *t = &w->inodes;
	struct wr_inode **p = &t->buckets[hash_ino(t, ino)];

	while (*p && (*p)->ino != ino)
		p = &(*p)->hnext;
	if (*p) {
		struct wr_inode *wi = *p;

		*p = wi->hnext;
		t->count--;
		free_inode(w, wi);
	}
}

int wr_inode_get(struct f2fs_wr *w, uint32_t ino, struct wr_node **out)
{
	int ret = wr_node_get(w, ino, ino, out);

	if (!ret && f2fs_node_ofs(wr_bg(w), &(*out)->blk) != 0) {
		wr_node_put(*out);
		*out = NULL;
		return -EUCLEAN;
	}
	return ret;
}

bool wr_is_dir(const struct wr_node *in)
{
	return S_ISDIR(le16_get(in->blk.i.i_mode));
}

void wr_inode_add_blocks(struct f2fs_wr *w, struct wr_node *in, int64_t delta)
{
	wr_quota_charge(w, in, 0, delta);
	in->blk.i.i_blocks = le64_put((uint64_t)((int64_t)le64_get(in->blk.i.i_blocks) + delta));
}

void wr_inode_touch(struct f2fs_wr *w, struct wr_node *in, bool ctime, bool mtime)
{
	uint64_t now = wr_clock(w);

	if (ctime) {
		in->blk.i.i_ctime = le64_put(now);
		in->blk.i.i_ctime_nsec = 0;
	}
	if (mtime) {
		in->blk.i.i_mtime = le64_put(now);
		in->blk.i.i_mtime_nsec = 0;
	}
	wr_node_dirty(w, in);
}

/*
 * A data write's new times.  f2fs mounts with lazytime by default, so
 * the times alone mark the inode I_DIRTY_TIME, which f2fs_dirty_inode()
 * ignores: they go out with the inode's next write, and a sync
 * checkpoint with nothing else changed is skipped.
 */
void wr_inode_touch_lazy(struct f2fs_wr *w, struct wr_node *in)
{
	bool meta_dirty = w->meta_dirty;

	wr_inode_touch(w, in, true, true);
	w->meta_dirty = meta_dirty;
}

/* A generation number that differs between inodes and is the same on every run. */
static uint32_t generation(uint32_t ino)
{
	uint32_t x = ino * 2654435761u + 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

static void fill_extra(struct f2fs_wr *w, struct f2fs_inode *ri, const struct f2fs_new_inode *a)
{
	uint32_t features = w->fs->features;

	if (!(features & F2FS_FEATURE_EXTRA_ATTR))
		return;
	ri->i_inline |= F2FS_EXTRA_ATTR;
	ri->i_extra_isize = le16_put(f2fs_extra_isize_for(features));
	if (features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR)
		ri->i_inline_xattr_size = le16_put(a->inline_xattr ? F2FS_INLINE_XATTR_ADDRS : 0);
	if (features & F2FS_FEATURE_PRJQUOTA)
		ri->i_projid = le32_put(a->projid);
	if (features & F2FS_FEATURE_INODE_CRTIME)
		ri->i_crtime = le64_put(a->crtime);
}

unsigned int wr_inode_inline_bytes_for(struct f2fs_wr *w, const struct f2fs_new_inode *a)
{
	struct f2fs_inode ri;

	if (!a->inline_ok)
		return 0;
	memset(&ri, 0, sizeof(ri));
	if (a->inline_xattr)
		ri.i_inline |= F2FS_INLINE_XATTR;
	fill_extra(w, &ri, a);
	ri.i_inline |= F2FS_INLINE_DATA;
	return f2fs_inline_data_bytes(wr_bg(w), &ri, w->fs->features);
}

int wr_inode_new(struct f2fs_wr *w, const struct f2fs_new_inode *a, uint32_t pino,
		 struct wr_node **out)
{
	uint32_t ino;
	int ret;

	*out = NULL;
	if (a->compress &&
	    (!S_ISREG(a->mode) ||
	     (w->fs->features & (F2FS_FEATURE_COMPRESSION | F2FS_FEATURE_EXTRA_ATTR)) !=
		 (F2FS_FEATURE_COMPRESSION | F2FS_FEATURE_EXTRA_ATTR) ||
	     !f2fs_compress_built(a->compress_algorithm)))
		return -EOPNOTSUPP;
	ret = wr_nid_alloc(w, 0, &ino);
	if (ret)
		return ret;
	return wr_inode_make(w, ino, a, pino, out);
}

int wr_inode_make(struct f2fs_wr *w, uint32_t ino, const struct f2fs_new_inode *a, uint32_t pino,
		  struct wr_node **out)
{
	bool dir = S_ISDIR(a->mode);
	struct f2fs_inode *ri;
	struct wr_node *n;
	struct wr_inode *wi;
	int ret;

	*out = NULL;
	ret = wr_node_new(w, ino, ino, 0, dir && a->temp != F2FS_TEMP_COLD, &n);
	if (ret)
		return ret;
	if (a->temp == F2FS_TEMP_HOT)
		f2fs_node_footer(wr_bg(w), &n->blk)->flag =
		    le32_put(f2fs_footer_flag(wr_bg(w), &n->blk) & ~1u);
	ri = &n->blk.i;
	ri->i_mode = le16_put(a->mode);
	ri->i_uid = le32_put(a->uid);
	ri->i_gid = le32_put(a->gid);
	ri->i_links = le32_put(dir ? 2 : 1);
	ri->i_blocks = le64_put(1);
	ri->i_atime = le64_put(a->atime);
	ri->i_mtime = le64_put(a->mtime);
	ri->i_ctime = le64_put(a->ctime);
	ri->i_atime_nsec = le32_put(a->atime_nsec);
	ri->i_mtime_nsec = le32_put(a->mtime_nsec);
	ri->i_ctime_nsec = le32_put(a->ctime_nsec);
	ri->i_generation = le32_put(generation(ino));
	ri->i_flags = le32_put(a->flags);
	ri->i_pino = le32_put(pino);
	if (dir)
		ri->i_current_depth = le32_put(1);
	if (a->temp == F2FS_TEMP_HOT)
		ri->i_advise |= FADVISE_HOT_BIT;
	else if (a->temp == F2FS_TEMP_COLD)
		ri->i_advise |= FADVISE_COLD_BIT;
	if (a->inline_xattr)
		ri->i_inline |= F2FS_INLINE_XATTR;
	fill_extra(w, ri, a);
	if (a->compress) {
		ri->i_flags = le32_put(le32_get(ri->i_flags) | F2FS_COMPR_FL);
		ri->i_compress_algorithm = a->compress_algorithm;
		ri->i_log_cluster_size = a->log_cluster_size ? a->log_cluster_size : 2;
	} else if (a->inline_ok && (S_ISREG(a->mode) || S_ISLNK(a->mode))) {
		ri->i_inline |= F2FS_INLINE_DATA;
	}
	if (a->inline_ok && dir)
		ri->i_inline |= F2FS_INLINE_DENTRY;
	w->valid_inodes++;
	wr_quota_charge(w, n, 1, 0);
	wi = wr_inode_find(w, ino, true);
	if (!wi) {
		wr_node_put(n);
		return -ENOMEM;
	}
	wi->created = true;
	*out = n;
	return 0;
}

/* The kernel's is_temperature_extension(): ".EXT" after any dot but the first byte. */
static bool has_extension(const char *name, size_t len, const uint8_t ext[F2FS_EXTENSION_LEN])
{
	size_t elen = strnlen((const char *)ext, F2FS_EXTENSION_LEN), i;

	if (elen == 0 || len < elen + 2)
		return false;
	for (i = 1; i < len - elen; i++)
		if (name[i] == '.' && !strncasecmp(name + i + 1, (const char *)ext, elen))
			return true;
	return false;
}

void wr_inode_temp_by_name(struct f2fs_wr *w, struct wr_node *in, const char *name, size_t len)
{
	uint32_t count = le32_get(w->sb->extension_count), hot = w->sb->hot_ext_count, i;
	char buf[F2FS_NAME_LEN + 1];

	if (!S_ISREG(le16_get(in->blk.i.i_mode)) ||
	    in->blk.i.i_advise & (FADVISE_COLD_BIT | FADVISE_HOT_BIT))
		return;
	if (count > F2FS_MAX_EXTENSION)
		count = F2FS_MAX_EXTENSION;
	if (hot > count)
		hot = count;
	memcpy(buf, name, len);
	buf[len] = 0;
	for (i = 0; i < count; i++) {
		if (!has_extension(buf, len, w->sb->extension_list[i]))
			continue;
		in->blk.i.i_advise |= i < count - hot ? FADVISE_COLD_BIT : FADVISE_HOT_BIT;
		return;
	}
}

int wr_inode_temp(struct f2fs_wr *w, const struct f2fs_inode *ri, bool node)
{
	(void)w;
	(void)node;
	if (S_ISDIR(le16_get(ri->i_mode)) || ri->i_advise & FADVISE_HOT_BIT)
		return F2FS_CURSEG_HOT_DATA;
	if (ri->i_advise & FADVISE_COLD_BIT)
		return F2FS_CURSEG_COLD_DATA;
	return F2FS_CURSEG_WARM_DATA;
}

int wr_inode_unlink(struct f2fs_wr *w, struct wr_node **pin)
{
	struct wr_node *in = *pin;
	struct f2fs_inode *ri = &in->blk.i;
	uint32_t links = le32_get(ri->i_links);
	int ret;

	if (wr_is_dir(in))
		links = 0;
	else if (links)
		links--;
	ri->i_links = le32_put(links);
	wr_inode_touch(w, in, true, false);
	if (links)
		return 0;
	wr_inode_forget(w, in->ino);
	ret = wr_truncate_blocks(w, in, 0);
	if (!ret)
		ret = wr_xattr_free(w, in);
	if (ret)
		return ret;
	w->valid_inodes--;
	wr_quota_charge(w, in, -1, -(int64_t)(f2fs_inode_quota_space(ri) / wr_blksize(w)));
	*pin = NULL;
	return wr_node_remove(w, in);
}
