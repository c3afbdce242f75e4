// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's reader thread (lib/load/reader.c): over a host tree made
 * here, every regular file in load order yields its data extents and one
 * END -- the file open when it has xattrs, closed when it has none, the
 * error when it cannot be opened or its directory cannot -- and stopping
 * it half way neither hangs nor leaks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../../lib/load/load_internal.h"
#include "test.h"

#define BLK 4096

/* An entry named @name with @mode and @size, as the first pass would have read it. */
static void entry(struct src_entry *e, const char *name, mode_t mode, off_t size)
{
	e->d = calloc(1, sizeof(*e->d));
	if (e->d)
		snprintf(e->d->d_name, sizeof(e->d->d_name), "%s", name);
	e->sb.st_mode = mode;
	e->sb.st_size = size;
}

static void free_tree(struct src_dir *d)
{
	int i;

	for (i = 0; i < d->n; i++) {
		free_tree(&d->e[i].sub);
		free(d->e[i].d);
	}
	free(d->e);
}

static int write_at(int dfd, const char *name, const char *s, off_t off)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644), ret = -1;

	if (fd >= 0 && pwrite(fd, s, strlen(s), off) == (ssize_t)strlen(s))
		ret = 0;
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * root/a "hello", root/b a 1 MiB hole then "tail", root/gone (in the tree,
 * not on disk), root/missing/c (a directory not on disk), root/sub/d of
 * 300 KiB of 'x' (two pieces).
 */
static int make_tree(char *root, struct src_dir *tree)
{
	static char big[300 << 10];
	struct src_entry *sub;
	int dfd;

	if (!mkdtemp(root))
		return -1;
	dfd = open(root, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || mkdirat(dfd, "sub", 0755))
		return -1;
	memset(big, 'x', sizeof(big) - 1);
	if (write_at(dfd, "a", "hello", 0) || write_at(dfd, "b", "tail", 1 << 20) ||
	    write_at(dfd, "sub/d", big, 0))
		return -1;
	tree->e = calloc(5, sizeof(*tree->e));
	sub = calloc(1, sizeof(*sub));
	if (!tree->e || !sub)
		return -1;
	tree->n = 5;
	entry(&tree->e[0], "a", S_IFREG | 0644, 5);
	entry(&tree->e[1], "b", S_IFREG | 0644, (1 << 20) + 4);
	entry(&tree->e[2], "gone", S_IFREG | 0644, 10);
	entry(&tree->e[3], "missing", S_IFDIR | 0755, 0);
	entry(&tree->e[4], "sub", S_IFDIR | 0755, 0);
	tree->e[3].sub.e = calloc(1, sizeof(struct src_entry));
	if (tree->e[3].sub.e) {
		tree->e[3].sub.n = 1;
		entry(&tree->e[3].sub.e[0], "c", S_IFREG | 0644, 3);
	}
	tree->e[4].sub.e = sub;
	tree->e[4].sub.n = 1;
	entry(sub, "d", S_IFREG | 0644, (off_t)sizeof(big) - 1);
	return dfd;
}

/* A user xattr on @name of @dfd; false where the file system takes none. */
static bool set_xattr(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY);
	bool ok = fd >= 0 && !fsetxattr(fd, "user.t", "1", 1, 0);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* The pieces of the next file: bytes and pieces counted, the first piece's offset; the END. */
static struct ld_piece next_file(struct ld_reader *r, size_t *bytes, int *pieces, off_t *first,
				 char *head)
{
	const struct ld_piece *p;
	struct ld_piece end;

	*bytes = 0;
	*pieces = 0;
	*first = -1;
	for (p = ld_reader_next(r); p->kind == LD_DATA; p = ld_reader_next(r)) {
		if (*first < 0) {
			*first = p->off;
			memcpy(head, p->data, p->len < 5 ? p->len : 5);
		}
		*bytes += p->len;
		++*pieces;
		ld_reader_done(r);
	}
	end = *p;
	ld_reader_done(r);
	return end;
}

static void test_files_in_order(void)
{
	char root[] = "/tmp/test_reader.XXXXXX", head[6] = {0}, cmd[64];
	struct src_dir tree = {0};
	struct ld_reader *r;
	struct ld_piece end;
	size_t bytes;
	int pieces, dfd = make_tree(root, &tree);
	bool xattr_a;
	off_t first;

	CHECK(dfd >= 0);
	if (dfd < 0)
		return;
	/* a has an xattr: it comes open (closed where the file system takes none); b comes closed
	 */
	xattr_a = set_xattr(dfd, "a");
	CHECK(ld_reader_start(&tree, dfd, BLK, &r) == 0);
	end = next_file(r, &bytes, &pieces, &first, head);
	CHECK(bytes == 5 && pieces == 1 && first == 0 && !memcmp(head, "hello", 5));
	CHECK(end.kind == LD_END && end.err == 0 && (end.fd >= 0) == xattr_a);
	if (end.fd >= 0)
		close(end.fd);
	end = next_file(r, &bytes, &pieces, &first, head);
	CHECK(bytes == 4 && first == 1 << 20 && !memcmp(head, "tail", 4)); /* the hole skipped */
	CHECK(end.err == 0 && end.fd < 0);
	end = next_file(r, &bytes, &pieces, &first, head);
	CHECK(bytes == 0 && end.err == -ENOENT && end.fd < 0); /* gone */
	end = next_file(r, &bytes, &pieces, &first, head);
	CHECK(bytes == 0 && end.err == -ENOENT && end.fd < 0); /* missing/c */
	end = next_file(r, &bytes, &pieces, &first, head);
	CHECK(bytes == (300 << 10) - 1 && pieces == 2 && first == 0 && head[0] == 'x');
	CHECK(end.err == 0);
	ld_reader_stop(r);
	close(dfd);
	free_tree(&tree);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}

/* Stopped before anything is taken, with the ring full: no hang, and the files it left closed. */
static void test_stop_half_way(void)
{
	char root[] = "/tmp/test_reader.XXXXXX", cmd[64];
	struct src_dir tree = {0};
	struct ld_reader *r;
	int dfd = make_tree(root, &tree), before, after;

	CHECK(dfd >= 0);
	if (dfd < 0)
		return;
	set_xattr(dfd, "a"); /* its END, left in the ring, holds it open */
	before = dup(0);
	if (before >= 0)
		close(before);
	CHECK(ld_reader_start(&tree, dfd, BLK, &r) == 0);
	usleep(20000);
	ld_reader_stop(r);
	after = dup(0); /* the lowest free descriptor: the same when none was left open */
	CHECK(after == before);
	if (after >= 0)
		close(after);
	close(dfd);
	free_tree(&tree);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	RUN(test_files_in_order);
	RUN(test_stop_half_way);
	TEST_EXIT();
}
