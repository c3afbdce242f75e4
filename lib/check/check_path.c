// SPDX-License-Identifier: GPL-2.0
/*
 * Paths for messages about lost subtrees.  The walk keeps, per directory,
 * only the directory whose entry led it there; a path is rebuilt on demand
 * by looking each component's name up in its parent, which reads those
 * directories again.  That happens only when such a problem is reported,
 * and a check does at most PATH_LOOKUPS lookups, so that a volume with
 * thousands of broken entries does not turn into thousands of directory
 * scans.  Names are escaped so that a message stays one line.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "f2fs/read.h"

#define PATH_LOOKUPS 256  /* name lookups per check */
#define PATH_DEPTH   64	  /* components followed up from a directory */
#define PATH_TEXT    2048 /* a path as built, before it is cut to the caller's buffer */

size_t check_escape_name(char *buf, size_t size, size_t used, const char *name, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len && used + 5 < size; i++) {
		unsigned char ch = (unsigned char)name[i];

		if (ch < 0x20 || ch == 0x7f || ch == '\\') {
			buf[used++] = '\\';
			buf[used++] = 'x';
			buf[used++] = hex[ch >> 4];
			buf[used++] = hex[ch & 15];
		} else {
			buf[used++] = (char)ch;
		}
	}
	if (used < size)
		buf[used] = '\0';
	return used;
}

struct name_search {
	uint32_t ino;
	char *buf;
	size_t size;
	bool found;
};

static int match_entry(const char *name, size_t len, uint32_t ino, uint8_t type, void *arg)
{
	struct name_search *s = arg;

	(void)type;
	if (ino != s->ino)
		return 0;
	check_escape_name(s->buf, s->size, 0, name, len);
	s->found = true;
	return 1; /* found: stop the walk */
}

void check_entry_name(struct check_ctx *c, uint32_t dir, uint32_t ino, char *buf, size_t size)
{
	struct name_search s = {.ino = ino, .buf = buf, .size = size};
	struct f2fs_node *n;

	if (c->paths_named < PATH_LOOKUPS) {
		c->paths_named++;
		n = f2fs_block_alloc(c->fs);
		if (n && !f2fs_read_inode(c->fs, dir, n))
			f2fs_dir_for_each_entry(c->fs, n, match_entry, &s);
		free(n);
	}
	if (!s.found)
		snprintf(buf, size, "?");
}

/* Append @text to @buf of @size bytes holding @used; the new length (clipped). */
static size_t append(char *buf, size_t size, size_t used, const char *text)
{
	size_t n = strlen(text);

	if (used + n >= size)
		n = size - used - 1;
	memcpy(buf + used, text, n);
	buf[used + n] = '\0';
	return used + n;
}

void check_dir_path(struct check_ctx *c, uint32_t dir, char *buf, size_t size)
{
	uint32_t chain[PATH_DEPTH], d = dir;
	unsigned int depth = 0, i;
	char *text, name[F2FS_NAME_LEN * 4 + 1];
	size_t used = 0;

	while (d != c->root_ino && depth < PATH_DEPTH) {
		const struct nid_rec *r = nid_peek(c, d);
		const struct dir_rec *dr = dir_record(c, d, false);

		if (!r || r->kind != NID_DIR || !dr || !dr->parent)
			break;
		chain[depth++] = d;
		d = dr->parent;
	}
	text = malloc(PATH_TEXT);
	if (d != c->root_ino || c->paths_named + depth > PATH_LOOKUPS || !text) {
		snprintf(buf, size, "(inode %u)", dir);
		free(text);
		return;
	}
	text[0] = '\0';
	if (!depth)
		used = append(text, PATH_TEXT, used, "/");
	for (i = depth; i-- > 0;) {
		check_entry_name(c, i + 1 < depth ? chain[i + 1] : c->root_ino, chain[i], name,
				 sizeof(name));
		used = append(text, PATH_TEXT, used, "/");
		used = append(text, PATH_TEXT, used, name);
	}
	/* a path longer than the buffer keeps its end, the part that names the place */
	if (used < size)
		snprintf(buf, size, "%s", text);
	else
		snprintf(buf, size, "...%s", text + used - (size - 4));
	free(text);
}
