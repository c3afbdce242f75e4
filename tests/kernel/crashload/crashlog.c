// SPDX-License-Identifier: GPL-2.0
/*
 * The log records and the model of what they make durable (crashlog.h has
 * the format and the rules).  The workload applies every record it writes
 * to its own model, so the guest's verification and the host's summary
 * replay the very function that the workload's choices were made from.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "crashlog.h"

void crashlog_seal(struct crashlog_record *rec, const char *magic, uint32_t seq, const char *text)
{
	memset(rec, 0, sizeof(*rec));
	memcpy(rec->magic, magic, sizeof(rec->magic));
	rec->seq = seq;
	snprintf(rec->text, sizeof(rec->text), "%s", text);
	rec->crc = (uint32_t)crc32(0, (const Bytef *)rec, sizeof(*rec));
}

bool crashlog_valid(const struct crashlog_record *rec, const char *magic, uint32_t seq)
{
	struct crashlog_record copy = *rec;

	if (memcmp(rec->magic, magic, sizeof(rec->magic)) || rec->seq != seq)
		return false;
	copy.crc = 0;
	if ((uint32_t)crc32(0, (const Bytef *)&copy, sizeof(copy)) != rec->crc)
		return false;
	return memchr(rec->text, '\0', sizeof(rec->text)) != NULL;
}

void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
}

void model_free(struct model *m)
{
	free(m->names);
	free(m->files);
	memset(m, 0, sizeof(*m));
}

static int model_fail(struct model *m, const char *what, const char *text)
{
	snprintf(m->error, sizeof(m->error), "%s: \"%s\"", what, text);
	return -1;
}

long model_find(const struct model *m, const char *path)
{
	size_t i;

	for (i = 0; i < m->nnames; i++)
		if (!strcmp(m->names[i].path, path))
			return (long)i;
	return -1;
}

/* The index of PATH, added unbound when new; -1 when out of memory. */
static long model_name(struct model *m, const char *path)
{
	long i = model_find(m, path);
	struct model_name *n;

	if (i >= 0)
		return i;
	if (strlen(path) >= CRASHLOG_PATH)
		return -1;
	if (m->nnames == m->names_cap) {
		size_t cap = m->names_cap ? 2 * m->names_cap : 256;

		n = realloc(m->names, cap * sizeof(*n));
		if (!n)
			return -1;
		m->names = n;
		m->names_cap = cap;
	}
	n = &m->names[m->nnames];
	memset(n, 0, sizeof(*n));
	snprintf(n->path, sizeof(n->path), "%s", path);
	n->id = -1;
	return (long)m->nnames++;
}

static void model_change(struct model *m, size_t i, int id, uint32_t seq)
{
	m->names[i].id = id;
	m->names[i].changed = seq + 1;
}

/* R3: every name that exists now is durable. */
static void model_checkpoint(struct model *m, uint32_t seq)
{
	size_t i;

	for (i = 0; i < m->nnames; i++)
		if (m->names[i].id >= 0 || m->names[i].is_dir)
			m->names[i].durable = seq + 1;
	m->checkpoints++;
}

/* The file a bound name refers to, or -1. */
static int model_bound(const struct model *m, const char *path)
{
	long i = model_find(m, path);

	return i < 0 || m->names[i].is_dir ? -1 : m->names[i].id;
}

static int apply_create(struct model *m, uint32_t seq, const char *args, const char *text)
{
	char path[CRASHLOG_PATH];
	unsigned long id;
	struct model_file *f;
	long i;

	if (sscanf(args, "%lu %159s", &id, path) != 2 || id != m->nfiles)
		return model_fail(m, "bad create record", text);
	if (model_bound(m, path) >= 0)
		return model_fail(m, "create over an existing name", text);
	i = model_name(m, path);
	if (i < 0)
		return model_fail(m, "out of memory", text);
	if (m->nfiles == m->files_cap) {
		size_t cap = m->files_cap ? 2 * m->files_cap : 256;

		f = realloc(m->files, cap * sizeof(*f));
		if (!f)
			return model_fail(m, "out of memory", text);
		m->files = f;
		m->files_cap = cap;
	}
	f = &m->files[m->nfiles++];
	memset(f, 0, sizeof(*f));
	f->nlink = 1;
	f->fresh = true;
	f->home = (size_t)i;
	model_change(m, (size_t)i, (int)id, seq);
	return 0;
}

static int apply_mkdir(struct model *m, uint32_t seq, const char *args, const char *text)
{
	char path[CRASHLOG_PATH];
	long i;

	if (sscanf(args, "%159s", path) != 1 || model_find(m, path) >= 0)
		return model_fail(m, "bad mkdir record", text);
	i = model_name(m, path);
	if (i < 0)
		return model_fail(m, "out of memory", text);
	m->names[i].is_dir = true;
	m->names[i].changed = seq + 1;
	return 0;
}

/* Unbind name I (a rename's target or an unlink): its file loses a link. */
static void model_drop(struct model *m, size_t i, uint32_t seq)
{
	int id = m->names[i].id;

	if (id >= 0)
		m->files[id].nlink--;
	model_change(m, i, -1, seq);
}

static int apply_rename_link(struct model *m, uint32_t seq, char kind, const char *args,
			     const char *text)
{
	char from[CRASHLOG_PATH], to[CRASHLOG_PATH];
	long i, j;
	int id, old;

	if (sscanf(args, "%159s %159s", from, to) != 2 || !strcmp(from, to))
		return model_fail(m, "bad rename or link record", text);
	id = model_bound(m, from);
	old = model_bound(m, to);
	if (id < 0 || (kind == 'L' && old >= 0) || old == id ||
	    (model_find(m, to) >= 0 && m->names[model_find(m, to)].is_dir))
		return model_fail(m, "rename or link of names the model does not allow", text);
	i = model_find(m, from);
	j = model_name(m, to);
	if (j < 0)
		return model_fail(m, "out of memory", text);
	if (kind == 'R') {
		model_change(m, (size_t)i, -1, seq);
		if (old >= 0)
			model_drop(m, (size_t)j, seq);
	} else {
		m->files[id].nlink++;
	}
	model_change(m, (size_t)j, id, seq);
	m->files[id].fresh = false;
	return 0;
}

static int apply_unlink(struct model *m, uint32_t seq, const char *args, const char *text)
{
	char path[CRASHLOG_PATH];

	if (sscanf(args, "%159s", path) != 1 || model_bound(m, path) < 0)
		return model_fail(m, "bad unlink record", text);
	model_drop(m, (size_t)model_find(m, path), seq);
	return 0;
}

static int apply_dirty(struct model *m, const char *args, const char *text)
{
	unsigned long id;
	char what[4] = "";
	int n = sscanf(args, "%lu %3s", &id, what);

	if (n < 1 || id >= m->nfiles || (n == 2 && strcmp(what, "x")))
		return model_fail(m, "bad dirty record", text);
	if (n == 2)
		m->files[id].xsynced = false;
	else
		m->files[id].synced = false;
	return 0;
}

static int apply_sync(struct model *m, uint32_t seq, const char *args, const char *text)
{
	unsigned long id;
	uint64_t size;
	uint32_t crc, xlen, xcrc;
	int nlink; /* recorded for the reader; no rule uses it (crashlog.h) */
	char kind[4];
	struct model_file *f;

	if (sscanf(args, "%lu %" SCNu64 " %" SCNx32 " %" SCNu32 " %" SCNx32 " %d %3s", &id, &size,
		   &crc, &xlen, &xcrc, &nlink, kind) != 7 ||
	    id >= m->nfiles || (strcmp(kind, "f") && strcmp(kind, "d")))
		return model_fail(m, "bad sync record", text);
	f = &m->files[id];
	f->synced = true; /* R1 */
	f->size = size;
	f->crc = crc;
	if (kind[0] == 'f') {
		f->xsynced = true; /* R1, fsync only */
		f->xlen = xlen;
		f->xcrc = xcrc;
		if (f->fresh && m->names[f->home].id == (int)id)
			m->names[f->home].durable = seq + 1; /* R2 */
	}
	m->syncs++;
	return 0;
}

int model_apply(struct model *m, uint32_t seq, const char *text)
{
	unsigned long op;
	char kind;
	int used = 0;
	const char *args;
	int rc = 0;

	if (sscanf(text, "%lu %c%n", &op, &kind, &used) != 2)
		return model_fail(m, "unreadable record", text);
	args = text + used;
	switch (kind) {
	case 'C':
		rc = apply_create(m, seq, args, text);
		break;
	case 'M':
		rc = apply_mkdir(m, seq, args, text);
		break;
	case 'D':
		rc = apply_dirty(m, args, text);
		break;
	case 'R':
	case 'L':
		rc = apply_rename_link(m, seq, kind, args, text);
		break;
	case 'U':
		rc = apply_unlink(m, seq, args, text);
		break;
	case 'S':
		rc = apply_sync(m, seq, args, text);
		break;
	case 'F':
	case 'Y':
		model_checkpoint(m, seq);
		break;
	case 'X':
		m->cut = true;
		m->cut_op = (uint32_t)op;
		break;
	default:
		return model_fail(m, "unknown record", text);
	}
	if (rc == 0) {
		m->records++;
		m->last_op = (uint32_t)op;
	}
	return rc;
}

bool model_name_expected(const struct model *m, size_t i)
{
	const struct model_name *n = &m->names[i];

	return !n->is_dir && n->id >= 0 && n->durable > n->changed && m->files[n->id].synced;
}

void model_tally(const struct model *m, struct model_tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < m->nnames; i++) {
		const struct model_name *n = &m->names[i];

		if (n->is_dir)
			t->directories++;
		else if (n->id < 0)
			continue;
		else if (!m->files[n->id].synced)
			t->not_synced++;
		else if (model_name_expected(m, i))
			t->expected++;
		else
			t->not_durable++;
	}
}

int crashlog_read(const char *path, struct model *m, char *header, size_t header_len)
{
	struct crashlog_record rec;
	uint32_t seq;
	int fd = open(path, O_RDONLY);
	int rc = 0;

	if (fd < 0) {
		snprintf(m->error, sizeof(m->error), "%s: %s", path, strerror(errno));
		return -1;
	}
	if (pread(fd, &rec, sizeof(rec), 0) != (ssize_t)sizeof(rec) ||
	    !crashlog_valid(&rec, "CRLOGHDR", 0)) {
		snprintf(m->error, sizeof(m->error), "%s: no log header", path);
		close(fd);
		return -1;
	}
	if (header)
		snprintf(header, header_len, "%s", rec.text);
	for (seq = 0;; seq++) {
		off_t at = (off_t)(CRASHLOG_FIRST_RECORD + (off_t)seq) * CRASHLOG_SECTOR;

		if (pread(fd, &rec, sizeof(rec), at) != (ssize_t)sizeof(rec) ||
		    !crashlog_valid(&rec, "CRLOGREC", seq))
			break;
		rc = model_apply(m, seq, rec.text);
		if (rc)
			break;
	}
	close(fd);
	return rc;
}
