// SPDX-License-Identifier: GPL-2.0
/*
 * The workload model (f2fs/replay.h): threads found by name, ops appended
 * with their own copies of the paths, setup directories kept parents first
 * and each once, and the opcode names the trace format uses.  A workload
 * owns everything it points to; freeing it leaves it empty and reusable.
 * The staging helpers let a parser fill a copy and swap it in only when the
 * whole input was good, so a refused trace leaves the caller's workload as
 * it was.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

static const char *const opcode_names[F2FS_RP_OPCODES] = {
    [F2FS_RP_CREATE] = "create",       [F2FS_RP_MKDIR] = "mkdir",	[F2FS_RP_WRITE] = "write",
    [F2FS_RP_PWRITE] = "pwrite",       [F2FS_RP_READ] = "read",		[F2FS_RP_FSYNC] = "fsync",
    [F2FS_RP_FDATASYNC] = "fdatasync", [F2FS_RP_SYNC] = "sync",		[F2FS_RP_UNLINK] = "unlink",
    [F2FS_RP_RENAME] = "rename",       [F2FS_RP_TRUNCATE] = "truncate", [F2FS_RP_SLEEP] = "sleep",
};

static void copy_name(char *dst, size_t size, const char *name)
{
	size_t n = name ? strnlen(name, size - 1) : 0;

	memcpy(dst, name ? name : "", n);
	dst[n] = '\0';
}

void f2fs_replay_workload_init(struct f2fs_replay_workload *wl, const char *name)
{
	memset(wl, 0, sizeof(*wl));
	copy_name(wl->name, sizeof(wl->name), name);
}

static void free_op(struct f2fs_replay_op *op)
{
	free(op->path);
	free(op->path2);
}

static void free_thread(struct f2fs_replay_thread *t)
{
	size_t i;

	for (i = 0; i < t->nops; i++)
		free_op(&t->ops[i]);
	free(t->ops);
}

void f2fs_replay_workload_free(struct f2fs_replay_workload *wl)
{
	size_t i;

	for (i = 0; i < wl->nthreads; i++)
		free_thread(&wl->threads[i]);
	free(wl->threads);
	for (i = 0; i < wl->nsetup_dirs; i++)
		free(wl->setup_dirs[i]);
	free(wl->setup_dirs);
	for (i = 0; i < wl->nsetup_files; i++)
		free(wl->setup_files[i].path);
	free(wl->setup_files);
	memset(wl, 0, sizeof(*wl));
}

bool rp_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(*arr, ncap * size);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

struct f2fs_replay_thread *f2fs_replay_thread_get(struct f2fs_replay_workload *wl, const char *name)
{
	struct f2fs_replay_thread *t;
	char key[sizeof(t->name)];
	size_t i;

	copy_name(key, sizeof(key), name);
	for (i = 0; i < wl->nthreads; i++)
		if (!strcmp(wl->threads[i].name, key))
			return &wl->threads[i];
	if (!rp_grow((void **)&wl->threads, &wl->cap, wl->nthreads, sizeof(*t)))
		return NULL;
	t = &wl->threads[wl->nthreads++];
	memset(t, 0, sizeof(*t));
	memcpy(t->name, key, sizeof(key));
	t->io_class = F2FS_RP_CLASS_FG;
	return t;
}

/* *@dst = a copy of @src, NULL staying NULL; false on ENOMEM. */
static bool dup_path(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return true;
	*dst = strdup(src);
	return *dst != NULL;
}

int f2fs_replay_thread_add(struct f2fs_replay_thread *t, const struct f2fs_replay_op *op)
{
	struct f2fs_replay_op copy = *op;

	if (!rp_grow((void **)&t->ops, &t->cap, t->nops, sizeof(*op)))
		return -ENOMEM;
	if (!dup_path(&copy.path, op->path) || !dup_path(&copy.path2, op->path2)) {
		free_op(&copy);
		return -ENOMEM;
	}
	t->ops[t->nops++] = copy;
	return 0;
}

static bool setup_dir_known(const struct f2fs_replay_workload *wl, const char *path, size_t len)
{
	size_t i;

	for (i = 0; i < wl->nsetup_dirs; i++)
		if (!strncmp(wl->setup_dirs[i], path, len) && wl->setup_dirs[i][len] == '\0')
			return true;
	return false;
}

/*
 * Append the first @len bytes of @path unless they are there already.  The
 * workload keeps no capacity for this array, so it grows by one each time.
 */
static int setup_dir_push(struct f2fs_replay_workload *wl, const char *path, size_t len)
{
	char **dirs, *copy;

	if (setup_dir_known(wl, path, len))
		return 0;
	copy = strndup(path, len);
	if (!copy)
		return -ENOMEM;
	dirs = realloc(wl->setup_dirs, (wl->nsetup_dirs + 1) * sizeof(*dirs));
	if (!dirs) {
		free(copy);
		return -ENOMEM;
	}
	wl->setup_dirs = dirs;
	wl->setup_dirs[wl->nsetup_dirs++] = copy;
	return 0;
}

int f2fs_replay_add_setup_file(struct f2fs_replay_workload *wl, const char *path, uint64_t size)
{
	struct f2fs_replay_setup_file *files;
	char *copy = strdup(path);

	if (!copy)
		return -ENOMEM;
	files = realloc(wl->setup_files, (wl->nsetup_files + 1) * sizeof(*files));
	if (!files) {
		free(copy);
		return -ENOMEM;
	}
	wl->setup_files = files;
	wl->setup_files[wl->nsetup_files].path = copy;
	wl->setup_files[wl->nsetup_files++].size = size;
	return 0;
}

int f2fs_replay_add_setup_dir(struct f2fs_replay_workload *wl, const char *path)
{
	size_t len = strlen(path), i;
	int ret;

	while (len > 1 && path[len - 1] == '/')
		len--;
	/* every ancestor below the root first, so the list can be made in order */
	for (i = 1; i < len; i++) {
		if (path[i] != '/')
			continue;
		ret = setup_dir_push(wl, path, i);
		if (ret)
			return ret;
	}
	if (len == 1 && path[0] == '/')
		return 0;
	return setup_dir_push(wl, path, len);
}

const char *f2fs_replay_opcode_name(enum f2fs_replay_opcode op)
{
	if ((unsigned int)op >= F2FS_RP_OPCODES)
		return "?";
	return opcode_names[op];
}

int f2fs_replay_opcode_parse(const char *name)
{
	int i;

	for (i = 0; i < F2FS_RP_OPCODES; i++)
		if (!strcmp(opcode_names[i], name))
			return i;
	return -1;
}

/* ---- staging ---- */

static int copy_thread(struct f2fs_replay_workload *dst, const struct f2fs_replay_thread *src)
{
	struct f2fs_replay_thread *t = f2fs_replay_thread_get(dst, src->name);
	size_t i;
	int ret;

	if (!t)
		return -ENOMEM;
	t->io_class = src->io_class;
	t->loop = src->loop;
	for (i = 0; i < src->nops; i++) {
		ret = f2fs_replay_thread_add(t, &src->ops[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int rp_workload_copy(struct f2fs_replay_workload *dst, const struct f2fs_replay_workload *src)
{
	size_t i;
	int ret = 0;

	f2fs_replay_workload_init(dst, src->name);
	dst->read_pass = src->read_pass;
	for (i = 0; i < src->nthreads && !ret; i++)
		ret = copy_thread(dst, &src->threads[i]);
	for (i = 0; i < src->nsetup_dirs && !ret; i++)
		ret = setup_dir_push(dst, src->setup_dirs[i], strlen(src->setup_dirs[i]));
	for (i = 0; i < src->nsetup_files && !ret; i++)
		ret = f2fs_replay_add_setup_file(dst, src->setup_files[i].path,
						 src->setup_files[i].size);
	if (ret)
		f2fs_replay_workload_free(dst);
	return ret;
}

void rp_workload_move(struct f2fs_replay_workload *dst, struct f2fs_replay_workload *src)
{
	f2fs_replay_workload_free(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}
