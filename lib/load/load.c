// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a host tree into a volume (f2fs/load.h).  Two passes over the
 * source: the first measures it -- names, entries, blocks of data,
 * dentries and nodes -- and refuses it before anything is written when a
 * name is too long or the whole does not fit; the second creates every
 * entry through the write path in name order (so the same tree gives the
 * same image), directories before their contents and their times after
 * them, and writes one checkpoint at the end.  The first pass keeps what
 * it read -- each directory's sorted entries with their lstat -- and the
 * second walks that, opening entries relative to their directory's
 * descriptor: one listing and one stat per entry, and no path walked
 * again from the source's root.  Regular files are read in large chunks,
 * data extents only (SEEK_DATA/SEEK_HOLE), so holes stay holes, by a
 * reader thread running ahead of the second pass (reader.c).  Hard links
 * are found by host (device, inode).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifdef HAVE_SELINUX
#include <selinux/label.h>
#include <selinux/selinux.h>
#endif

#include "f2fs/blkgeo.h"
#include "f2fs/compress.h"
#include "f2fs/endian.h"
#include "f2fs/load.h"
#include "f2fs/write.h"
#include "f2fs/xattr.h"
#include "load_internal.h"

#define CHUNK		     (1u << 20)
#define XATTR_LIST_MAX_BYTES 65536
#define PATH_BYTES	     4096

/* A source inode seen with more than one link: its volume inode. */
struct link_entry {
	dev_t dev;
	ino_t ino;
	uint32_t f2fs_ino;
};

struct fs_config_entry {
	char *path;
	uint32_t uid, gid, mode;
	uint64_t capabilities; /* "capabilities=": security.capability when not 0 */
};

struct loader {
	struct f2fs_fs *fs;
	const struct f2fs_load_options *o;
	struct f2fs_load_stats *st;
	char *why;
	size_t why_len;
	uint8_t *buf;
	struct link_entry *links;
	size_t nlinks, links_cap;
	struct fs_config_entry *cfg;
	size_t ncfg;
	uint64_t total_entries, done_entries;
	struct src_dir tree; /* the source's entries */
	struct ld_reader *reader;
#ifdef HAVE_SELINUX
	struct selabel_handle *labels;
#endif
};

__attribute__((format(printf, 3, 4))) static int fail(struct loader *l, int err, const char *fmt,
						      ...)
{
	va_list ap;

	if (l->why && l->why_len) {
		va_start(ap, fmt);
		vsnprintf(l->why, l->why_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

void f2fs_load_options_init(struct f2fs_load_options *o)
{
	memset(o, 0, sizeof(*o));
	o->mount_point = "/";
	o->timestamp = -1;
	o->compress_algorithm = F2FS_COMPRESS_LZ4;
}

bool f2fs_load_has_selinux(void)
{
#ifdef HAVE_SELINUX
	return true;
#else
	return false;
#endif
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_dots(const struct dirent *d)
{
	return strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
}

/* The entries of host directory @dfd (@path, for messages), sorted and not yet stat'ed. */
static int list_dir(struct loader *l, int dfd, const char *path, struct src_dir *out)
{
	struct dirent **list;
	int n = scandirat(dfd, ".", &list, skip_dots, by_name), i;

	if (n < 0)
		return fail(l, -errno, "%s: cannot read the directory: %s", path, strerror(errno));
	out->e = calloc((size_t)n + 1, sizeof(*out->e));
	if (!out->e) {
		for (i = 0; i < n; i++)
			free(list[i]);
		free(list);
		return fail(l, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		out->e[i].d = list[i];
	out->n = n;
	free(list);
	return 0;
}

static void free_dir(struct src_dir *d)
{
	int i;

	for (i = 0; i < d->n; i++) {
		free_dir(&d->e[i].sub);
		free(d->e[i].d);
	}
	free(d->e);
	d->e = NULL;
	d->n = 0;
}

/* Open entry @name of directory @dfd for reading (a directory as one); -1 with the reason kept. */
static int open_entry(struct loader *l, int dfd, const char *path, const char *name, bool dir,
		      int *fd)
{
	*fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (dir ? O_DIRECTORY : 0));
	return *fd < 0 ? fail(l, -errno, "%s: %s", path, strerror(errno)) : 0;
}

static int join(struct loader *l, char *out, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, PATH_BYTES, "%s/%s", dir, name) >= PATH_BYTES)
		return fail(l, -ENAMETOOLONG, "%s/%s: path too long", dir, name);
	return 0;
}

/* ---- pass 1: measure ---- */

/* An inode's addresses, less a margin for extra attributes (900 with 4 KiB blocks). */
static uint64_t inode_room(const struct f2fs_blkgeo *g)
{
	return g->addrs_per_inode - 23;
}

/* Blocks a file of @blocks data blocks needs for its direct and indirect nodes. */
static uint64_t node_blocks(const struct f2fs_blkgeo *g, uint64_t blocks)
{
	uint64_t in_inode = inode_room(g), per = g->addrs_per_block;
	uint64_t direct = blocks > in_inode ? (blocks - in_inode + per - 1) / per : 0;

	return 1 + direct + (direct > 2 ? (direct - 2 + per - 1) / per + 1 : 0);
}

static int measure(struct loader *l, int dfd, const char *path, struct src_dir *out,
		   uint64_t *entries_in_parent);

/* Measure subdirectory @e of @dfd, keeping its entries in @e. */
static int measure_subdir(struct loader *l, int dfd, const char *path, struct src_entry *e)
{
	uint64_t sub = 0;
	int fd, ret = open_entry(l, dfd, path, e->d->d_name, true, &fd);

	if (ret)
		return ret;
	ret = measure(l, fd, path, &e->sub, &sub);
	close(fd);
	l->st->need_blocks += 1 + sub / 48;
	return ret;
}

/* Read and measure directory @dfd (@path), keeping its entries in @out. */
static int measure(struct loader *l, int dfd, const char *path, struct src_dir *out,
		   uint64_t *entries_in_parent)
{
	char child[PATH_BYTES];
	int i, ret;

	ret = list_dir(l, dfd, path, out);
	if (ret)
		return ret;
	*entries_in_parent += 1;
	for (i = 0, ret = 0; i < out->n && !ret; i++) {
		struct src_entry *e = &out->e[i];
		const struct stat *sb = &e->sb;
		size_t len = strlen(e->d->d_name);

		ret = join(l, child, path, e->d->d_name);
		if (ret)
			break;
		if (len > F2FS_NAME_LEN) {
			ret = fail(l, -ENAMETOOLONG, "%s: name longer than %u bytes", child,
				   F2FS_NAME_LEN);
			break;
		}
		if (fstatat(dfd, e->d->d_name, &e->sb, AT_SYMLINK_NOFOLLOW)) {
			ret = fail(l, -errno, "%s: %s", child, strerror(errno));
			break;
		}
		l->total_entries++;
		l->st->need_blocks += 1; /* its share of dentry blocks, generously */
		if (S_ISDIR(sb->st_mode)) {
			ret = measure_subdir(l, dfd, child, e);
		} else if (S_ISREG(sb->st_mode)) {
			const struct f2fs_blkgeo *g = &f2fs_fs_geo(l->fs)->blk;
			uint64_t blocks = (uint64_t)sb->st_blocks * 512 / g->blksize;

			/* past what an inode holds inline (3400 bytes at 4 KiB), a block at least
			 */
			if ((uint64_t)sb->st_size > (inode_room(g) - F2FS_INLINE_XATTR_ADDRS) * 4 &&
			    !blocks)
				blocks = 1;
			l->st->need_blocks += blocks + node_blocks(g, blocks);
		} else {
			l->st->need_blocks += 2;
		}
	}
	return ret;
}

/* ---- labels and fs_config ---- */

/*
 * After "path uid gid mode", Android's canned format may name the file
 * capabilities as a word "capabilities=N" (decimal or 0x hex); other words
 * are ignored, as Android's reader ignores them.  Returns false on a bad N.
 */
static bool parse_capabilities(char *rest, uint64_t *caps)
{
	char *save = NULL, *w, *end;

	*caps = 0;
	for (w = strtok_r(rest, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(w, "capabilities=", 13))
			continue;
		errno = 0;
		*caps = strtoull(w + 13, &end, 0);
		return !errno && end != w + 13 && !*end;
	}
	return true;
}

static int load_fs_config(struct loader *l, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[PATH_BYTES + 128];
	unsigned int lineno = 0;

	if (!f)
		return fail(l, -errno, "%s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char path[PATH_BYTES];
		unsigned int uid, gid, mode;
		uint64_t caps;
		struct fs_config_entry *e;
		int end = 0;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%4095s %u %u %o%n", path, &uid, &gid, &mode, &end) != 4) {
			fclose(f);
			return fail(l, -EINVAL, "%s:%u: expected \"path uid gid mode\"", file,
				    lineno);
		}
		if (!parse_capabilities(line + end, &caps)) {
			fclose(f);
			return fail(l, -EINVAL, "%s:%u: capabilities= needs a number", file,
				    lineno);
		}
		e = realloc(l->cfg, (l->ncfg + 1) * sizeof(*e));
		if (e)
			l->cfg = e;
		if (!e || !(e[l->ncfg].path = strdup(path))) {
			fclose(f);
			return fail(l, -ENOMEM, "out of memory");
		}
		e[l->ncfg].uid = uid;
		e[l->ncfg].gid = gid;
		e[l->ncfg].mode = mode;
		e[l->ncfg].capabilities = caps;
		l->ncfg++;
	}
	fclose(f);
	return 0;
}

static const struct fs_config_entry *fs_config_for(struct loader *l, const char *target)
{
	size_t i;

	while (*target == '/')
		target++;
	for (i = 0; i < l->ncfg; i++)
		if (!strcmp(l->cfg[i].path, target))
			return &l->cfg[i];
	return NULL;
}

static int open_labels(struct loader *l)
{
	if (!l->o->file_contexts)
		return 0;
#ifdef HAVE_SELINUX
	{
		struct selinux_opt opt = {SELABEL_OPT_PATH, l->o->file_contexts};

		l->labels = selabel_open(SELABEL_CTX_FILE, &opt, 1);
		if (!l->labels)
			return fail(l, -errno ? -errno : -EINVAL,
				    "%s: cannot load the file contexts", l->o->file_contexts);
		return 0;
	}
#else
	return fail(l, -EOPNOTSUPP, "-s %s: this build has no SELinux support",
		    l->o->file_contexts);
#endif
}

static int label(struct loader *l, uint32_t ino, const char *target, mode_t mode)
{
#ifdef HAVE_SELINUX
	char *ctx = NULL;
	int ret;

	if (!l->labels)
		return 0;
	if (selabel_lookup(l->labels, &ctx, target, (int)mode))
		return 0; /* no label for this path: as upstream, leave it unlabelled */
	ret = f2fs_setxattr(l->fs, ino, F2FS_XATTR_INDEX_SECURITY, "selinux", ctx, strlen(ctx) + 1);
	freecon(ctx);
	if (ret)
		return fail(l, ret, "%s: cannot store its SELinux label: %s", target,
			    strerror(-ret));
	l->st->xattrs++;
#else
	(void)l;
	(void)ino;
	(void)target;
	(void)mode;
#endif
	return 0;
}

/* fs_config's capabilities=, as the security.capability xattr the kernel reads. */
static int set_capabilities(struct loader *l, uint32_t ino, const char *target)
{
	const struct fs_config_entry *c = fs_config_for(l, target);
	uint8_t value[F2FS_VFS_CAP_BYTES];
	int ret;

	if (!c || !c->capabilities)
		return 0;
	f2fs_vfs_cap_build(c->capabilities, value);
	ret = f2fs_setxattr(l->fs, ino, F2FS_XATTR_INDEX_SECURITY, F2FS_VFS_CAP_NAME, value,
			    sizeof(value));
	if (ret)
		return fail(l, ret, "%s: cannot store its capabilities: %s", target,
			    strerror(-ret));
	l->st->xattrs++;
	return 0;
}

/* ---- pass 2: load ---- */

/*
 * The xattrs of open file @fd, or of @path when it is not open (-1: a
 * device, a fifo or a socket, which are not opened).
 */
static int copy_xattrs(struct loader *l, int fd, const char *path, uint32_t ino)
{
	char names[XATTR_LIST_MAX_BYTES];
	ssize_t len = fd >= 0 ? flistxattr(fd, names, sizeof(names))
			      : llistxattr(path, names, sizeof(names)),
		pos;
	uint8_t *value = l->buf;

	if (len < 0)
		return errno == ENOTSUP ? 0
					: fail(l, -errno, "%s: xattrs: %s", path, strerror(errno));
	for (pos = 0; pos < len; pos += (ssize_t)strlen(names + pos) + 1) {
		const char *suffix;
		uint8_t index = f2fs_xattr_index_of(names + pos, &suffix);
		ssize_t vlen;
		int ret;

		if (!index)
			continue; /* system.* (ACLs) and unknown name spaces are not copied */
		vlen = fd >= 0 ? fgetxattr(fd, names + pos, value, CHUNK)
			       : lgetxattr(path, names + pos, value, CHUNK);
		if (vlen < 0)
			return fail(l, -errno, "%s: xattr %s: %s", path, names + pos,
				    strerror(errno));
		ret = f2fs_setxattr(l->fs, ino, index, suffix, value, (size_t)vlen);
		if (ret)
			return fail(l, ret, "%s: xattr %s: %s", path, names + pos, strerror(-ret));
		l->st->xattrs++;
	}
	return 0;
}

/*
 * The data of regular file @ino (@path, @size bytes) as the reader read
 * it, then its size; *fd is the file, open for its xattrs, or -1.  A
 * failure still takes the file's pieces, so the reader stays in step.
 */
static int take_file(struct loader *l, const char *path, uint32_t ino, off_t size, int *fd)
{
	const struct ld_piece *p;
	int ret = 0;

	for (p = ld_reader_next(l->reader); p->kind == LD_DATA; p = ld_reader_next(l->reader)) {
		if (!ret)
			ret = f2fs_pwrite(l->fs, ino, p->data, p->len, (uint64_t)p->off);
		l->st->bytes += p->len;
		ld_reader_done(l->reader);
	}
	*fd = p->fd;
	if (!ret)
		ret = p->err;
	ld_reader_done(l->reader);
	if (!ret)
		ret = f2fs_truncate(l->fs, ino, (uint64_t)size);
	return ret ? fail(l, ret, "%s: %s", path, strerror(-ret)) : 0;
}

/* The reader's pieces of a file not read again (a hard link's other name): dropped. */
static void skip_file(struct loader *l)
{
	const struct ld_piece *p;

	for (p = ld_reader_next(l->reader); p->kind == LD_DATA; p = ld_reader_next(l->reader))
		ld_reader_done(l->reader);
	if (p->fd >= 0)
		close(p->fd);
	ld_reader_done(l->reader);
}

/* -r: the saved blocks of compressed file @ino back to the volume. */
static int release_blocks(struct loader *l, const char *path, uint32_t ino)
{
	uint64_t released;
	int ret = f2fs_release_compress_blocks(l->fs, ino, &released);

	return ret ? fail(l, ret, "%s: releasing compressed blocks: %s", path, strerror(-ret)) : 0;
}

static int find_link(struct loader *l, const struct stat *sb, uint32_t *ino)
{
	size_t i;

	for (i = 0; i < l->nlinks; i++) {
		if (l->links[i].dev == sb->st_dev && l->links[i].ino == sb->st_ino) {
			*ino = l->links[i].f2fs_ino;
			return 1;
		}
	}
	return 0;
}

static int remember_link(struct loader *l, const struct stat *sb, uint32_t ino)
{
	if (l->nlinks == l->links_cap) {
		size_t cap = l->links_cap ? l->links_cap * 2 : 64;
		struct link_entry *e = realloc(l->links, cap * sizeof(*e));

		if (!e)
			return fail(l, -ENOMEM, "out of memory");
		l->links = e;
		l->links_cap = cap;
	}
	l->links[l->nlinks++] = (struct link_entry){sb->st_dev, sb->st_ino, ino};
	return 0;
}

/* Does the -i/-x list let file @name be compressed? */
static bool compress_name(const struct f2fs_load_options *o, const char *name)
{
	const char *dot = strrchr(name, '.');
	bool listed = false;
	size_t i;

	if (!o->extensions)
		return true;
	for (i = 0; dot && o->extensions[i]; i++)
		listed |= !strcasecmp(dot + 1, o->extensions[i]);
	return o->extensions_exclude ? !listed : listed;
}

/*
 * Would @size bytes stay inline in a new inode made with @a?  Such a file
 * takes no data block, so compressing it (which rules inline data out)
 * could only cost one.
 */
static bool fits_inline(struct loader *l, const struct f2fs_new_inode *a, off_t size)
{
	unsigned int bytes;

	return !f2fs_new_inode_inline_bytes(l->fs, a, &bytes) && size <= (off_t)bytes;
}

static void fill_attr(struct loader *l, struct f2fs_new_inode *a, const struct stat *sb,
		      const char *target)
{
	const struct fs_config_entry *c = fs_config_for(l, target);
	uint64_t t = l->o->timestamp >= 0 ? (uint64_t)l->o->timestamp : (uint64_t)sb->st_mtime;

	f2fs_new_inode_init(a, (uint16_t)sb->st_mode, t);
	if (l->o->timestamp < 0) {
		a->atime = (uint64_t)sb->st_atime;
		a->ctime = (uint64_t)sb->st_ctime;
		a->atime_nsec = (uint32_t)sb->st_atim.tv_nsec;
		a->mtime_nsec = (uint32_t)sb->st_mtim.tv_nsec;
		a->ctime_nsec = (uint32_t)sb->st_ctim.tv_nsec;
	}
	if (l->o->preserve_owner) {
		a->uid = sb->st_uid;
		a->gid = sb->st_gid;
	}
	if (c) {
		a->uid = c->uid;
		a->gid = c->gid;
		a->mode = (uint16_t)((sb->st_mode & S_IFMT) | (c->mode & 07777));
	}
	if (S_ISCHR(sb->st_mode) || S_ISBLK(sb->st_mode)) {
		a->rdev_major = major(sb->st_rdev);
		a->rdev_minor = minor(sb->st_rdev);
	}
	if (S_ISREG(sb->st_mode) && l->o->compress && compress_name(l->o, target) &&
	    !fits_inline(l, a, sb->st_size)) {
		a->compress = true;
		a->compress_algorithm = l->o->compress_algorithm;
		a->log_cluster_size = l->o->log_cluster_size;
	}
}

/* Set the times the source had (the load itself stamped others). */
static int keep_times(struct loader *l, uint32_t ino, const struct f2fs_new_inode *a)
{
	struct f2fs_setattr s = {0};

	s.atime = a->atime;
	s.mtime = a->mtime;
	s.ctime = a->ctime;
	s.atime_nsec = a->atime_nsec;
	s.mtime_nsec = a->mtime_nsec;
	s.ctime_nsec = a->ctime_nsec;
	return f2fs_setattr(l->fs, ino, &s);
}

static int load_dir(struct loader *l, int dfd, const char *path, const char *target, uint32_t dir,
		    const struct src_dir *d);

static int make_symlink(struct loader *l, int dfd, const char *path, uint32_t dir, const char *name,
			struct f2fs_new_inode *a, uint32_t *ino)
{
	char dest[PATH_BYTES];
	ssize_t n = readlinkat(dfd, name, dest, sizeof(dest) - 1);

	if (n < 0)
		return fail(l, -errno, "%s: %s", path, strerror(errno));
	dest[n] = 0;
	return f2fs_create(l->fs, dir, name, strlen(name), a, dest, ino);
}

/*
 * The contents of entry @e (a regular file from the reader, which hands it
 * over open as *fd when it has xattrs, or a directory open as *fd) and its
 * xattrs.
 */
static int load_contents(struct loader *l, const struct src_entry *e, int *fd, const char *path,
			 const char *target, uint32_t ino, bool release)
{
	const struct stat *sb = &e->sb;
	int ret = 0;

	if (S_ISREG(sb->st_mode))
		ret = take_file(l, path, ino, sb->st_size, fd);
	if (!ret && release)
		ret = release_blocks(l, path, ino);
	else if (S_ISDIR(sb->st_mode))
		ret = load_dir(l, *fd, path, target, ino, &e->sub);
	/* a regular file the reader closed has no xattrs */
	if (!ret && !S_ISLNK(sb->st_mode) && (*fd >= 0 || !S_ISREG(sb->st_mode)))
		ret = copy_xattrs(l, *fd, path, ino);
	return ret;
}

/* Entry @e of directory @dfd (@path on the host, @target in the volume) into volume directory @dir.
 */
static int load_entry(struct loader *l, int dfd, const char *path, const char *target, uint32_t dir,
		      const struct src_entry *e)
{
	const struct stat *sb = &e->sb;
	const char *name = e->d->d_name;
	struct f2fs_new_inode a;
	uint32_t ino = 0;
	int fd = -1, ret;

	if (!S_ISDIR(sb->st_mode) && sb->st_nlink > 1 && find_link(l, sb, &ino)) {
		if (S_ISREG(sb->st_mode))
			skip_file(l);
		ret = f2fs_link(l->fs, ino, dir, name, strlen(name));
		l->st->hard_links++;
		return ret ? fail(l, ret, "%s: %s", path, strerror(-ret)) : 0;
	}
	fill_attr(l, &a, sb, target);
	if (S_ISLNK(sb->st_mode))
		ret = make_symlink(l, dfd, path, dir, name, &a, &ino);
	else
		ret = f2fs_create(l->fs, dir, name, strlen(name), &a, NULL, &ino);
	if (ret)
		return fail(l, ret, "%s: %s", path, strerror(-ret));
	if (S_ISDIR(sb->st_mode))
		ret = open_entry(l, dfd, path, name, true, &fd);
	if (!ret)
		ret = load_contents(l, e, &fd, path, target, ino,
				    a.compress && l->o->release_compressed);
	if (fd >= 0)
		close(fd);
	if (!ret)
		ret = label(l, ino, target, sb->st_mode);
	if (!ret && !S_ISLNK(sb->st_mode))
		ret = set_capabilities(l, ino, target);
	if (!ret)
		ret = keep_times(l, ino, &a);
	if (!ret && !S_ISDIR(sb->st_mode) && sb->st_nlink > 1)
		ret = remember_link(l, sb, ino);
	l->st->files += S_ISREG(sb->st_mode);
	l->st->dirs += S_ISDIR(sb->st_mode);
	l->st->symlinks += S_ISLNK(sb->st_mode);
	l->st->specials += !S_ISREG(sb->st_mode) && !S_ISDIR(sb->st_mode) && !S_ISLNK(sb->st_mode);
	f2fs_fs_progress(l->fs, 2, 2, "loading", ++l->done_entries, l->total_entries);
	return ret;
}

/* The entries @d of host directory @dfd (@path) into volume directory @dir (@target). */
static int load_dir(struct loader *l, int dfd, const char *path, const char *target, uint32_t dir,
		    const struct src_dir *d)
{
	char child[PATH_BYTES], child_target[PATH_BYTES];
	int i, ret = 0;

	for (i = 0; !ret && i < d->n; i++) {
		const char *name = d->e[i].d->d_name;

		ret = join(l, child, path, name);
		if (!ret)
			ret = join(l, child_target, strcmp(target, "/") ? target : "", name);
		if (!ret)
			ret = load_entry(l, dfd, child, child_target, dir, &d->e[i]);
	}
	return ret;
}

static int check_fits(struct loader *l)
{
	struct f2fs_space s;
	uint64_t free_blocks;
	int ret = f2fs_space(l->fs, &s);

	if (ret)
		return fail(l, ret, "%s",
			    *f2fs_fs_why(l->fs) ? f2fs_fs_why(l->fs) : strerror(-ret));
	free_blocks = s.user_blocks > s.valid_blocks ? s.user_blocks - s.valid_blocks : 0;
	if (l->st->need_blocks > free_blocks)
		return fail(
		    l, -ENOSPC, "%s needs about %llu MiB, the volume has %llu MiB free",
		    l->o->source,
		    (unsigned long long)(l->st->need_blocks * f2fs_fs_geo(l->fs)->blk.blksize >>
					 20),
		    (unsigned long long)(free_blocks * f2fs_fs_geo(l->fs)->blk.blksize >> 20));
	return 0;
}

static void release(struct loader *l)
{
	size_t i;

	for (i = 0; i < l->ncfg; i++)
		free(l->cfg[i].path);
	free(l->cfg);
	free(l->links);
	free(l->buf);
	free_dir(&l->tree);
#ifdef HAVE_SELINUX
	if (l->labels)
		selabel_close(l->labels);
#endif
}

int f2fs_load_tree(struct f2fs_fs *fs, const struct f2fs_load_options *o,
		   struct f2fs_load_stats *stats, char *why, size_t why_len)
{
	struct loader l = {.fs = fs, .o = o, .st = stats, .why = why, .why_len = why_len};
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	uint32_t root = le32_get(f2fs_fs_sb(fs)->root_ino);
	uint64_t top = 0;
	struct stat sb;
	int ret, fd;

	memset(stats, 0, sizeof(*stats));
	if (!o->source)
		return fail(&l, -EINVAL, "no source directory");
	if (stat(o->source, &sb))
		return fail(&l, -errno, "%s: %s", o->source, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return fail(&l, -ENOTDIR, "%s: not a directory", o->source);
	if (o->compress && !(f2fs_fs_features(fs) & F2FS_FEATURE_COMPRESSION))
		return fail(&l, -EOPNOTSUPP,
			    "-c: the volume has no compression feature (mkfs.f2fs -O "
			    "extra_attr,compression)");
	if (!o->compress && o->release_compressed)
		return fail(&l, -EINVAL, "-r: releasing compressed blocks needs -c");
	if (o->compress && !f2fs_compress_built(o->compress_algorithm))
		return fail(&l, -EOPNOTSUPP, "-a %s: this build cannot compress with it",
			    f2fs_compress_name(o->compress_algorithm));
	if (o->compress && o->log_cluster_size &&
	    (o->log_cluster_size < 2 || o->log_cluster_size > 8))
		return fail(&l, -EINVAL, "-L %u: the cluster size must be 2..8 (log2 of blocks)",
			    o->log_cluster_size);
	l.buf = malloc(CHUNK);
	if (!l.buf)
		return fail(&l, -ENOMEM, "out of memory");
	fd = open(o->source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		free(l.buf);
		return fail(&l, -err, "%s: cannot read the directory: %s", o->source,
			    strerror(err));
	}
	if (o->timestamp >= 0)
		f2fs_write_set_time(fs, o->timestamp);
	f2fs_fs_progress(fs, 1, 2, "measuring", 0, 0);
	ret = measure(&l, fd, o->source, &l.tree, &top);
	if (!ret)
		ret = check_fits(&l);
	if (!ret && o->fs_config)
		ret = load_fs_config(&l, o->fs_config);
	if (!ret)
		ret = open_labels(&l);
	f2fs_fs_progress(fs, 2, 2, "loading", 0, l.total_entries);
	if (!ret) {
		ret = ld_reader_start(&l.tree, fd, f2fs_fs_geo(fs)->blk.blksize, &l.reader);
		if (ret)
			fail(&l, ret, "cannot start reading the source: %s", strerror(-ret));
	}
	if (!ret)
		ret = load_dir(&l, fd, o->source, o->mount_point, root, &l.tree);
	ld_reader_stop(l.reader);
	close(fd);
	if (!ret)
		ret = label(&l, root, o->mount_point, S_IFDIR);
	if (!ret) {
		ret = f2fs_checkpoint(fs, &req);
		if (ret)
			fail(&l, ret, "checkpoint: %s", strerror(-ret));
	}
	release(&l);
	return ret;
}
