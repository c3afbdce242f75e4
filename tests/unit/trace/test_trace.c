// SPDX-License-Identifier: GPL-2.0
/*
 * The replay workload model and its text forms (lib/trace): every op of
 * the trace format read back with its fields, a workload written and read
 * back equal, each kind of bad line refused with its line number and
 * reason and the workload left as it was, \xNN paths, and the two
 * importers on hand-written logs: an strace -f log with unfinished and
 * resumed calls, dup, chdir, failed calls and paths outside the root, and
 * fio iologs of versions 2 and 3.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/replay.h"
#include "test.h"

#define MS 1000000ull
#define S  1000000000ull

static int read_trace(const char *text, size_t len, struct f2fs_replay_workload *wl,
		      struct f2fs_replay_parse_error *err)
{
	FILE *in = fmemopen((void *)text, len, "r");
	int ret;

	if (!in)
		return -errno;
	ret = f2fs_replay_trace_read(in, "t.trace", wl, err);
	fclose(in);
	return ret;
}

static int read_str(const char *text, struct f2fs_replay_workload *wl,
		    struct f2fs_replay_parse_error *err)
{
	return read_trace(text, strlen(text), wl, err);
}

static int import_strace(const char *text, const char *root, struct f2fs_replay_workload *wl,
			 struct f2fs_replay_parse_error *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!in)
		return -errno;
	ret = f2fs_replay_import_strace(in, "s.log", root, wl, err);
	fclose(in);
	return ret;
}

static int import_fio(const char *text, struct f2fs_replay_workload *wl,
		      struct f2fs_replay_parse_error *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!in)
		return -errno;
	ret = f2fs_replay_import_fio_iolog(in, "fio.log", wl, err);
	fclose(in);
	return ret;
}

/* @wl written as a trace, in a new string (free it). */
static char *write_str(const struct f2fs_replay_workload *wl, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	*ret = out ? f2fs_replay_trace_write(out, wl) : -errno;
	if (out)
		fclose(out);
	return buf;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Same ops, line numbers aside. */
static bool ops_equal(const struct f2fs_replay_op *a, const struct f2fs_replay_op *b)
{
	return a->time_ns == b->time_ns && a->op == b->op && a->flags == b->flags &&
	       str_eq(a->path, b->path) && str_eq(a->path2, b->path2) && a->offset == b->offset &&
	       a->length == b->length;
}

static bool threads_equal(const struct f2fs_replay_thread *a, const struct f2fs_replay_thread *b)
{
	size_t i;

	if (strcmp(a->name, b->name) || a->io_class != b->io_class || a->loop != b->loop ||
	    a->nops != b->nops)
		return false;
	for (i = 0; i < a->nops; i++)
		if (!ops_equal(&a->ops[i], &b->ops[i]))
			return false;
	return true;
}

static bool workloads_equal(const struct f2fs_replay_workload *a,
			    const struct f2fs_replay_workload *b)
{
	size_t i;

	if (strcmp(a->name, b->name) || a->read_pass != b->read_pass ||
	    a->nthreads != b->nthreads || a->nsetup_dirs != b->nsetup_dirs)
		return false;
	for (i = 0; i < a->nthreads; i++)
		if (!threads_equal(&a->threads[i], &b->threads[i]))
			return false;
	for (i = 0; i < a->nsetup_dirs; i++)
		if (strcmp(a->setup_dirs[i], b->setup_dirs[i]))
			return false;
	return true;
}

/* Check op @i of @t. */
static void check_op(const struct f2fs_replay_thread *t, size_t i, uint64_t time,
		     enum f2fs_replay_opcode op, const char *path, const char *path2,
		     uint64_t offset, uint64_t length, uint32_t flags)
{
	const struct f2fs_replay_op *o;

	CHECK(i < t->nops);
	if (i >= t->nops) {
		fprintf(stderr, "  thread %s has %zu ops, op %zu missing\n", t->name, t->nops, i);
		return;
	}
	o = &t->ops[i];
	if (o->time_ns != time || o->op != op || !str_eq(o->path, path) ||
	    !str_eq(o->path2, path2) || o->offset != offset || o->length != length ||
	    o->flags != flags) {
		fprintf(stderr,
			"  %s op %zu (line %u): %llu %s %s %s %llu %llu %u, expected %llu %s %s %s "
			"%llu %llu %u\n",
			t->name, i, o->line, (unsigned long long)o->time_ns,
			f2fs_replay_opcode_name(o->op), o->path ? o->path : "-",
			o->path2 ? o->path2 : "-", (unsigned long long)o->offset,
			(unsigned long long)o->length, o->flags, (unsigned long long)time,
			f2fs_replay_opcode_name(op), path ? path : "-", path2 ? path2 : "-",
			(unsigned long long)offset, (unsigned long long)length, flags);
		test_case_failed = 1;
	}
}

static const struct f2fs_replay_thread *thread_named(const struct f2fs_replay_workload *wl,
						     const char *name)
{
	size_t i;

	for (i = 0; i < wl->nthreads; i++)
		if (!strcmp(wl->threads[i].name, name))
			return &wl->threads[i];
	return NULL;
}

static void test_model(void)
{
	struct f2fs_replay_workload wl;
	struct f2fs_replay_op op = {.op = F2FS_RP_RENAME, .path = "/a", .path2 = "/b"};
	struct f2fs_replay_thread *t;
	int i;

	f2fs_replay_workload_init(&wl, "a-name-longer-than-thirty-one-bytes");
	CHECK(!strcmp(wl.name, "a-name-longer-than-thirty-one-b"));
	t = f2fs_replay_thread_get(&wl, "w");
	CHECK(t && t->io_class == F2FS_RP_CLASS_FG && !t->loop);
	CHECK(f2fs_replay_thread_get(&wl, "w") == t);
	CHECK(f2fs_replay_thread_add(t, &op) == 0);
	CHECK(t->ops[0].path != op.path && !strcmp(t->ops[0].path2, "/b"));
	CHECK(f2fs_replay_add_setup_dir(&wl, "/x/y/z") == 0);
	CHECK(f2fs_replay_add_setup_dir(&wl, "/x/q/") == 0);
	CHECK(f2fs_replay_add_setup_dir(&wl, "/x/y") == 0);
	CHECK(f2fs_replay_add_setup_dir(&wl, "/") == 0);
	CHECK_EQ_U64(wl.nsetup_dirs, 4);
	if (wl.nsetup_dirs == 4)
		CHECK(!strcmp(wl.setup_dirs[0], "/x") && !strcmp(wl.setup_dirs[1], "/x/y") &&
		      !strcmp(wl.setup_dirs[2], "/x/y/z") && !strcmp(wl.setup_dirs[3], "/x/q"));
	for (i = 0; i < F2FS_RP_OPCODES; i++)
		CHECK(f2fs_replay_opcode_parse(f2fs_replay_opcode_name(i)) == i);
	CHECK(!strcmp(f2fs_replay_opcode_name(F2FS_RP_FDATASYNC), "fdatasync"));
	CHECK(f2fs_replay_opcode_parse("wirte") == -1);
	CHECK(!strcmp(f2fs_replay_opcode_name(F2FS_RP_OPCODES), "?"));
	f2fs_replay_workload_free(&wl);
	CHECK(wl.nthreads == 0 && wl.threads == NULL);
	f2fs_replay_workload_free(&wl);
}

static const char every_op[] = "# every op once\n"
			       "\n"
			       "0      w1 fg create /d/f\n"
			       "0.5    w1 fg mkdir  /d/sub   # a comment after fields\n"
			       "-      w1 fg write /d/f 4K\n"
			       "1      w1 fg write /d/f 100 sync\n"
			       "1.25\tw1\tfg\tpwrite /d/f 1M 2G sync\n"
			       "1.25   w1 fg read /d/f 0 512\n"
			       "2      w1 fg fsync /d/f\n"
			       "-      w1 fg fdatasync /\n"
			       "3      w1 fg sync\n"
			       "3      w1 fg unlink /d/sub\n"
			       "3      w1 fg rename /d/f /d/g\n"
			       "3      w1 fg truncate /d/g 10k\n"
			       "-      w1 fg sleep 0.000000001\n"
			       "0      w2 bg+loop create /l/%n\n"
			       "!setup-dir /d\n"
			       "!setup-dir /l\n"
			       "!read-pass\n"
			       "!name mixed.1\n"
			       "!thread idle fg\n";

static void test_every_op(void)
{
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	const struct f2fs_replay_thread *t;
	int ret;

	f2fs_replay_workload_init(&wl, "trace");
	ret = read_str(every_op, &wl, &err);
	CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
		return;
	}
	CHECK(!strcmp(wl.name, "mixed.1"));
	CHECK(wl.read_pass);
	CHECK_EQ_U64(wl.nsetup_dirs, 2);
	CHECK_EQ_U64(wl.nthreads, 3);
	t = &wl.threads[0];
	CHECK(!strcmp(t->name, "w1") && t->io_class == F2FS_RP_CLASS_FG && !t->loop);
	check_op(t, 0, 0, F2FS_RP_CREATE, "/d/f", NULL, 0, 0, 0);
	check_op(t, 1, S / 2, F2FS_RP_MKDIR, "/d/sub", NULL, 0, 0, 0);
	check_op(t, 2, F2FS_RP_ASAP, F2FS_RP_WRITE, "/d/f", NULL, 0, 4096, 0);
	check_op(t, 3, S, F2FS_RP_WRITE, "/d/f", NULL, 0, 100, F2FS_RP_F_SYNC);
	check_op(t, 4, S + S / 4, F2FS_RP_PWRITE, "/d/f", NULL, 1u << 20, 2ull << 30,
		 F2FS_RP_F_SYNC);
	check_op(t, 5, S + S / 4, F2FS_RP_READ, "/d/f", NULL, 0, 512, 0);
	check_op(t, 6, 2 * S, F2FS_RP_FSYNC, "/d/f", NULL, 0, 0, 0);
	check_op(t, 7, F2FS_RP_ASAP, F2FS_RP_FDATASYNC, "/", NULL, 0, 0, 0);
	check_op(t, 8, 3 * S, F2FS_RP_SYNC, NULL, NULL, 0, 0, 0);
	check_op(t, 9, 3 * S, F2FS_RP_UNLINK, "/d/sub", NULL, 0, 0, 0);
	check_op(t, 10, 3 * S, F2FS_RP_RENAME, "/d/f", "/d/g", 0, 0, 0);
	check_op(t, 11, 3 * S, F2FS_RP_TRUNCATE, "/d/g", NULL, 0, 10240, 0);
	check_op(t, 12, F2FS_RP_ASAP, F2FS_RP_SLEEP, NULL, NULL, 0, 1, 0);
	CHECK_EQ_U64(t->nops, 13);
	CHECK_EQ_U64(t->ops[0].line, 3);
	CHECK_EQ_U64(t->ops[12].line, 15);
	t = &wl.threads[1];
	CHECK(!strcmp(t->name, "w2") && t->io_class == F2FS_RP_CLASS_BG && t->loop);
	check_op(t, 0, 0, F2FS_RP_CREATE, "/l/%n", NULL, 0, 0, 0);
	t = &wl.threads[2];
	CHECK(!strcmp(t->name, "idle") && t->nops == 0);
	f2fs_replay_workload_free(&wl);
}

/* A workload with every feature, made by hand: written, read back, equal; written again, same text.
 */
static void test_round_trip(void)
{
	static const char odd[] = "/dir with space/#hash\\back\x01\xff%x%n";
	struct f2fs_replay_workload wl, back;
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_op op = {0};
	struct f2fs_replay_thread *t;
	char *text, *again;
	int ret, i;

	f2fs_replay_workload_init(&wl, "rt");
	wl.read_pass = true;
	CHECK(f2fs_replay_add_setup_dir(&wl, "/dir with space/sub") == 0);
	t = f2fs_replay_thread_get(&wl, "fg.writer-1");
	for (i = 0; i < F2FS_RP_OPCODES; i++) {
		op.op = (enum f2fs_replay_opcode)i;
		op.time_ns = i % 3 ? F2FS_RP_ASAP : (uint64_t)i * 123456789ull;
		op.path = i == F2FS_RP_SYNC || i == F2FS_RP_SLEEP ? NULL : (char *)odd;
		op.path2 = i == F2FS_RP_RENAME ? "/x" : NULL;
		op.offset = i == F2FS_RP_PWRITE || i == F2FS_RP_READ ? 1ull << 40 : 0;
		op.length = i == F2FS_RP_WRITE || i == F2FS_RP_PWRITE || i == F2FS_RP_READ ||
				    i == F2FS_RP_TRUNCATE || i == F2FS_RP_SLEEP
				? (uint64_t)i * 1000 + 7
				: 0;
		op.flags = i == F2FS_RP_PWRITE ? F2FS_RP_F_SYNC : 0;
		CHECK(f2fs_replay_thread_add(t, &op) == 0);
	}
	t = f2fs_replay_thread_get(&wl, "bg");
	t->io_class = F2FS_RP_CLASS_BG;
	t->loop = true;
	op = (struct f2fs_replay_op){.op = F2FS_RP_WRITE, .path = "/l/%n/f%d", .length = 1};
	CHECK(f2fs_replay_thread_add(t, &op) == 0);
	op = (struct f2fs_replay_op){.op = F2FS_RP_SLEEP, .length = UINT64_MAX, .time_ns = 5};
	CHECK(f2fs_replay_thread_add(t, &op) == 0);
	f2fs_replay_thread_get(&wl, "empty");

	text = write_str(&wl, &ret);
	CHECK(ret == 0 && text);
	f2fs_replay_workload_init(&back, "other");
	ret = read_str(text, &back, &err);
	CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "  %s:%u: %s\n%s", err.file, err.line, err.reason, text);
	CHECK(workloads_equal(&wl, &back));
	again = write_str(&back, &ret);
	CHECK(ret == 0 && again && !strcmp(text, again));
	CHECK(strstr(text, "\\x25n") && strstr(text, "/l/%n/f%d"));
	free(text);
	free(again);
	f2fs_replay_workload_free(&back);

	/* what could not be read back is refused */
	op = (struct f2fs_replay_op){.op = F2FS_RP_CREATE, .path = "relative"};
	CHECK(f2fs_replay_thread_add(&wl.threads[0], &op) == 0);
	text = write_str(&wl, &ret);
	CHECK(ret == -EINVAL);
	free(text);
	f2fs_replay_workload_free(&wl);
}

static void test_escapes(void)
{
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	int ret;

	f2fs_replay_workload_init(&wl, "trace");
	ret = read_str("0 t fg create /a\\x20b\\x23c\\x5cd\\xC3\\xa9\n"
		       "0 t fg create /p\\x25n\n",
		       &wl, &err);
	CHECK(ret == 0);
	if (!ret) {
		check_op(&wl.threads[0], 0, 0, F2FS_RP_CREATE, "/a b#c\\d\xc3\xa9", NULL, 0, 0, 0);
		/* an escaped %n is a literal one, allowed in a thread that does not loop */
		check_op(&wl.threads[0], 1, 0, F2FS_RP_CREATE, "/p%n", NULL, 0, 0, 0);
	}
	f2fs_replay_workload_free(&wl);
}

struct bad_case {
	const char *text;
	uint32_t line;
	const char *reason;
};

/* Preceded by two good lines, so that the bad one is line 3 unless it says otherwise. */
static const struct bad_case bad_cases[] = {
    {"0 t1 fg wirte /a 1\n", 3, "unknown op \"wirte\""},
    {"0 t1 fg pwrite /a 1\n", 3, "pwrite needs PATH OFFSET LENGTH"},
    {"0 t1 fg write /a 12Q\n", 3, "length \"12Q\" is not a size"},
    {"0 t1 fg write /a -1\n", 3, "length \"-1\" is not a size"},
    {"0 t1 fg write /a 17179869184G\n", 3, "length \"17179869184G\" is too large"},
    {"0 t1 fg pwrite /a 1x 1\n", 3, "offset \"1x\" is not a size"},
    {"0 t1 fg truncate /a K\n", 3, "size \"K\" is not a size"},
    {"0 t1 fg create a/b\n", 3, "path \"a/b\" is not absolute"},
    {"0 t1 fg create /a//b\n", 3, "path \"/a//b\" has an empty component"},
    {"0 t1 fg create /a/\n", 3, "has an empty component"},
    {"0 t1 fg create /a/../b\n", 3, "has a . or .. component"},
    {"0 t1 fg create /a\\q\n", 3, "path \"/a\\q\" has a bad escape"},
    {"0 t1 fg create /a\\x4\n", 3, "has a bad escape"},
    {"0 t1 fg create /a\\x00b\n", 3, "has a NUL byte"},
    {"0 t1 fg create /f%n\n", 3, "uses %n, which only looping threads may"},
    {"0 t1 fg create /\n", 3, "path \"/\" is the root"},
    {"0 t1 fg rename /a /\n", 3, "is the root"},
    {"0 t1 fg create /a b\n", 3, "unknown flag \"b\""},
    {"0 t1 fg create /a b c\n", 3, "too many fields: create needs PATH"},
    {"0 t1 fg write /a 1 fsync\n", 3, "unknown flag \"fsync\""},
    {"0 t1 fg read /a 0 1 sync\n", 3, "flag sync is only for write and pwrite"},
    {"0 t1 fg sync sync\n", 3, "flag sync is only for write and pwrite"},
    {"0 t1 fg sync a b\n", 3, "too many fields: sync takes no arguments"},
    {"0 t1 fg rename /a\n", 3, "rename needs PATH NEWPATH"},
    {"0 t1 fg sleep 1s\n", 3, "sleep \"1s\" is not seconds"},
    {"0 t1 fg\n", 3, "a line needs TIME THREAD CLASS OP"},
    {"x t1 fg sync\n", 3, "time \"x\" is not seconds"},
    {"1. t1 fg sync\n", 3, "time \"1.\" is not seconds"},
    {"0.0000000001 t1 fg sync\n", 3, "time \"0.0000000001\" has more than 9 decimals"},
    {"99999999999 t1 fg sync\n", 3, "time \"99999999999\" is too large"},
    {"0 t/1 fg sync\n", 3, "thread name \"t/1\" is not a name"},
    {"0 abcdefghijabcdefghijabcdefghij12 fg sync\n", 3, "is not a name"},
    {"0 t1 mid sync\n", 3, "class \"mid\" is not fg, bg, fg+loop or bg+loop"},
    {"0 t0 bg sync\n", 3, "thread t0 was class fg on line 2"},
    {"0 t0 fg+loop sync\n", 3, "thread t0 was class fg on line 2"},
    {"0.5 t0 fg sync\n", 3, "time 0.5 of thread t0 is before 1 on line 2"},
    {"!bogus\n", 3, "unknown directive \"!bogus\""},
    {"!setup-dir\n", 3, "!setup-dir needs PATH"},
    {"!setup-dir /\n", 3, "is the root, which needs no setup"},
    {"!setup-dir /d/%n\n", 3, "uses %n"},
    {"!read-pass now\n", 3, "!read-pass takes no arguments"},
    {"!name a\n!name b\n", 4, "the workload was named on line 3"},
    {"!name a:b\n", 3, "workload name \"a:b\" is not a name"},
    {"!thread t9\n", 3, "!thread needs NAME CLASS"},
    {"!thread t0 bg\n", 3, "thread t0 was class fg on line 2"},
    {"0 t1 fg create /a\x01\n", 3, "control byte 0x01 in line"},
    {"0 t1 fg sync\n1 t1 bg sync\n", 4, "thread t1 was class fg on line 3"},
};

static const char good_lines[] = "# two good lines first\n1 t0 fg create /ok\n";

/* A workload with content, to see that a refused trace leaves it as it was. */
static void make_busy(struct f2fs_replay_workload *wl)
{
	struct f2fs_replay_op op = {.op = F2FS_RP_CREATE, .path = "/keep", .time_ns = 7};

	f2fs_replay_workload_init(wl, "busy");
	f2fs_replay_thread_add(f2fs_replay_thread_get(wl, "t0"), &op);
	f2fs_replay_add_setup_dir(wl, "/kept/dir");
}

static void check_bad(const char *text, size_t len, uint32_t line, const char *reason)
{
	struct f2fs_replay_workload wl, orig;
	struct f2fs_replay_parse_error err;
	int ret;

	make_busy(&wl);
	make_busy(&orig);
	memset(&err, 0, sizeof(err));
	ret = read_trace(text, len, &wl, &err);
	if (ret != -EINVAL || err.line != line || !strstr(err.reason, reason) ||
	    strcmp(err.file, "t.trace")) {
		fprintf(stderr, "  %.*s: got %d %s:%u: \"%s\", expected line %u \"%s\"\n",
			(int)(len > 60 ? 60 : len), text, ret, err.file, err.line, err.reason, line,
			reason);
		test_case_failed = 1;
	}
	CHECK(workloads_equal(&wl, &orig));
	f2fs_replay_workload_free(&wl);
	f2fs_replay_workload_free(&orig);
}

static void test_bad_lines(void)
{
	char text[256];
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		snprintf(text, sizeof(text), "%s%s0 t0 fg sync\n", good_lines, bad_cases[i].text);
		check_bad(text, strlen(text), bad_cases[i].line, bad_cases[i].reason);
	}
}

/* Limits: path and component lengths, a line past 8 KiB, a NUL byte. */
static void test_limits(void)
{
	static char text[10000];
	struct f2fs_replay_workload wl;
	struct f2fs_replay_parse_error err;
	size_t n;

	/* 255 bytes in a component pass, 256 do not */
	n = (size_t)snprintf(text, sizeof(text), "0 t fg create /%0255d\n", 0);
	f2fs_replay_workload_init(&wl, "trace");
	CHECK(read_trace(text, n, &wl, &err) == 0);
	f2fs_replay_workload_free(&wl);
	n = (size_t)snprintf(text, sizeof(text), "0 t fg create /%0256d\n", 0);
	check_bad(text, n, 1, "has a component longer than 255 bytes");

	/* 4095 bytes of path pass, 4096 do not */
	n = (size_t)snprintf(text, sizeof(text), "0 t fg create ");
	while (n < 14 + 4095 - 4) {
		memcpy(text + n, "/abc", 4);
		n += 4;
	}
	memcpy(text + n, "/ab\n", 5);
	n += 4;
	f2fs_replay_workload_init(&wl, "trace");
	CHECK(read_trace(text, n, &wl, &err) == 0);
	CHECK(wl.nthreads == 1 && strlen(wl.threads[0].ops[0].path) == 4095);
	f2fs_replay_workload_free(&wl);
	memcpy(text + n - 1, "c\n", 3);
	check_bad(text, n + 1, 1, "is longer than 4095 bytes");

	memset(text, ' ', 8193);
	memcpy(text, "0 t fg sync", 11);
	text[8193] = '\n';
	check_bad(text, 8194, 1, "line longer than 8192 bytes");
	text[8192] = '\n';
	f2fs_replay_workload_init(&wl, "trace");
	CHECK(read_trace(text, 8193, &wl, &err) == 0);
	f2fs_replay_workload_free(&wl);

	memcpy(text, "# fine\n0 t fg sync\0\n", 20);
	check_bad(text, 20, 2, "NUL byte in line");
}

/*
 * strace -f -ttt: two processes, an open split in unfinished/resumed, dup
 * sharing the position, lseek, a relative path after chdir, failed calls,
 * paths outside the root, a rename with the file open, writes after unlink.
 */
static const char strace_log[] =
    "1000  1700000000.000000 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n"
    "1000  1700000000.000100 close(3)                = 0\n"
    "1000  1700000000.100000 chdir(\"/data/app\") = 0\n"
    "1000  1700000000.200000 openat(AT_FDCWD, \"db/main.db\", O_RDWR|O_CREAT, 0644) = 3\n"
    "1000  1700000000.300000 write(3, \"hello\", 5) = 5\n"
    "1001  1700000000.300500 openat(AT_FDCWD, \"/data/app/log/x.log\", "
    "O_WRONLY|O_CREAT|O_APPEND, 0644 <unfinished ...>\n"
    "1000  1700000000.400000 pwrite64(3, \"abc\"..., 3, 4096) = 3\n"
    "1001  1700000000.400100 <... openat resumed>) = 4</data/app/log/x.log>\n"
    "1001  1700000000.400200 write(4</data/app/log/x.log>, \"line, \\\"q\\\"\\n\", 10) = 10\n"
    "1000  1700000000.500000 dup(3)                  = 5\n"
    "1000  1700000000.500100 lseek(5, 0, SEEK_SET)   = 0\n"
    "1000  1700000000.500200 read(3, \"hello\", 4096) = 5\n"
    "1000  1700000000.600000 fsync(5)                = 0\n"
    "1000  1700000000.700000 openat(AT_FDCWD, \"/data/app/missing\", O_RDONLY) = -1 ENOENT "
    "(No such file or directory)\n"
    "1000  1700000000.800000 unlink(\"/tmp/outside\") = 0\n"
    "1000  1700000000.900000 rename(\"db/main.db\", \"db/main.old\") = 0\n"
    "1001  1700000001.000000 fdatasync(4)            = 0\n"
    "1000  1700000001.100000 write(3, \"x\", 1)        = 1\n"
    "1001  1700000001.200000 +++ exited with 0 +++\n"
    "1000  1700000001.300000 mkdir(\"/data/app/new\", 0755) = 0\n"
    "1000  1700000001.400000 openat(AT_FDCWD, \"new/f\\303\\251\", O_WRONLY|O_CREAT|O_TRUNC, "
    "0600) = 6\n"
    "1000  1700000001.500000 ftruncate(6, 8192)      = 0\n"
    "1000  1700000001.600000 unlinkat(AT_FDCWD, \"/data/app/new/f\\xc3\\xa9\", 0) = 0\n"
    "1000  1700000001.700000 write(6, \"zz\", 2)       = 2\n"
    "1000  1700000001.800000 sync()                  = 0\n"
    "1000  1700000001.900000 write(1, \"done\\n\", 5)  = 5\n"
    "1000  1700000002.000000 openat(AT_FDCWD, \"old/data\", O_RDONLY) = 7\n"
    "1000  1700000002.100000 read(7, \"...\", 100) = 100\n"
    "1000  1700000002.200000 unlink(\"gone\") = -1 ENOENT (No such file or directory)\n"
    "1000  1700000002.300000 --- SIGCHLD {si_signo=SIGCHLD} ---\n"
    "1000  1700000002.400000 exit_group(0)           = ?\n"
    "1000  1700000002.500000 +++ exited with 0 +++\n";

static void test_strace(void)
{
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	const struct f2fs_replay_thread *a, *b;
	int ret;

	f2fs_replay_workload_init(&wl, "strace");
	ret = import_strace(strace_log, "/data/app/", &wl, &err);
	CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
		return;
	}
	CHECK_EQ_U64(wl.nthreads, 2);
	a = thread_named(&wl, "pid1000");
	b = thread_named(&wl, "pid1001");
	CHECK(a == &wl.threads[0] && b == &wl.threads[1]);
	if (!a || !b)
		return;
	check_op(a, 0, 200 * MS, F2FS_RP_CREATE, "/db/main.db", NULL, 0, 0, 0);
	check_op(a, 1, 300 * MS, F2FS_RP_WRITE, "/db/main.db", NULL, 0, 5, 0);
	check_op(a, 2, 400 * MS, F2FS_RP_PWRITE, "/db/main.db", NULL, 4096, 3, 0);
	check_op(a, 3, 500 * MS + 200000, F2FS_RP_READ, "/db/main.db", NULL, 0, 5, 0);
	check_op(a, 4, 600 * MS, F2FS_RP_FSYNC, "/db/main.db", NULL, 0, 0, 0);
	check_op(a, 5, 900 * MS, F2FS_RP_RENAME, "/db/main.db", "/db/main.old", 0, 0, 0);
	/* moved by the lseek through the dup: at the position the read left */
	check_op(a, 6, 1100 * MS, F2FS_RP_PWRITE, "/db/main.old", NULL, 5, 1, 0);
	check_op(a, 7, 1300 * MS, F2FS_RP_MKDIR, "/new", NULL, 0, 0, 0);
	check_op(a, 8, 1400 * MS, F2FS_RP_CREATE, "/new/f\xc3\xa9", NULL, 0, 0, 0);
	check_op(a, 9, 1400 * MS, F2FS_RP_TRUNCATE, "/new/f\xc3\xa9", NULL, 0, 0, 0);
	check_op(a, 10, 1500 * MS, F2FS_RP_TRUNCATE, "/new/f\xc3\xa9", NULL, 0, 8192, 0);
	check_op(a, 11, 1600 * MS, F2FS_RP_UNLINK, "/new/f\xc3\xa9", NULL, 0, 0, 0);
	check_op(a, 12, 1800 * MS, F2FS_RP_SYNC, NULL, NULL, 0, 0, 0);
	/* a file the log read without making it: created first */
	check_op(a, 13, 2100 * MS, F2FS_RP_CREATE, "/old/data", NULL, 0, 0, 0);
	check_op(a, 14, 2100 * MS, F2FS_RP_READ, "/old/data", NULL, 0, 100, 0);
	CHECK_EQ_U64(a->nops, 15);
	CHECK_EQ_U64(a->ops[0].line, 4);
	/* the split open takes the time and line where it started */
	check_op(b, 0, 300 * MS + 500000, F2FS_RP_CREATE, "/log/x.log", NULL, 0, 0, 0);
	CHECK_EQ_U64(b->ops[0].line, 6);
	check_op(b, 1, 400 * MS + 200000, F2FS_RP_WRITE, "/log/x.log", NULL, 0, 10, 0);
	check_op(b, 2, 1000 * MS, F2FS_RP_FDATASYNC, "/log/x.log", NULL, 0, 0, 0);
	CHECK_EQ_U64(b->nops, 3);
	/* directories used before they were made, in the order the log needed them */
	CHECK_EQ_U64(wl.nsetup_dirs, 3);
	if (wl.nsetup_dirs == 3)
		CHECK(!strcmp(wl.setup_dirs[0], "/db") && !strcmp(wl.setup_dirs[1], "/log") &&
		      !strcmp(wl.setup_dirs[2], "/old"));
	f2fs_replay_workload_free(&wl);
}

/*
 * strace -f to a terminal: no pid column while one process is traced, then
 * "[pid N]"; a thread made by clone shares the descriptors; the root "/"
 * says where relative paths start.
 */
static const char strace_threads[] =
    "strace: Process 2000 attached\n"
    "1700000000.000000 openat(AT_FDCWD, \"/a\", O_WRONLY|O_CREAT, 0644) = 3\n"
    "1700000000.000010 clone(child_stack=0x7f00, flags=CLONE_VM|CLONE_FS|CLONE_FILES|"
    "CLONE_THREAD <unfinished ...>\n"
    "[pid  2001] 1700000000.000020 write(3, \"x\", 1) = 1\n"
    "[pid  2000] 1700000000.000030 <... clone resumed>, parent_tid=[2001]) = 2001\n"
    "[pid  2001] 1700000000.000040 write(3, \"y\", 1) = 1\n"
    "[pid  2000] 1700000000.000050 close(3) = 0\n"
    "[pid  2001] 1700000000.000060 fsync(3) = -1 EBADF (Bad file descriptor)\n"
    "[pid  2001] 1700000000.000070 mkdirat(AT_FDCWD, \"rel\", 0777) = 0\n";

static void test_strace_threads(void)
{
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	int ret;

	f2fs_replay_workload_init(&wl, "strace");
	ret = import_strace(strace_threads, "/", &wl, &err);
	CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
		return;
	}
	CHECK_EQ_U64(wl.nthreads, 2);
	if (wl.nthreads != 2)
		return;
	CHECK(!strcmp(wl.threads[0].name, "pid2000") && !strcmp(wl.threads[1].name, "pid2001"));
	check_op(&wl.threads[0], 0, 0, F2FS_RP_CREATE, "/a", NULL, 0, 0, 0);
	CHECK_EQ_U64(wl.threads[0].nops, 1);
	/* the write before the clone returned is lost; the one after is not */
	check_op(&wl.threads[1], 0, 40000, F2FS_RP_WRITE, "/a", NULL, 0, 1, 0);
	/* the thread shares its process's working directory, the root */
	check_op(&wl.threads[1], 1, 70000, F2FS_RP_MKDIR, "/rel", NULL, 0, 0, 0);
	CHECK_EQ_U64(wl.threads[1].nops, 2);
	CHECK_EQ_U64(wl.nsetup_dirs, 0);
	f2fs_replay_workload_free(&wl);

	/* strace without -f: one process, "main" */
	f2fs_replay_workload_init(&wl, "strace");
	ret = import_strace("1.5 creat(\"/r/x\", 0600) = 3\n"
			    "2.5 write(3, \"\\x00\\1\\02\\003\", 4) = 4\n",
			    "/r", &wl, &err);
	CHECK(ret == 0 && wl.nthreads == 1);
	if (!ret && wl.nthreads == 1) {
		CHECK(!strcmp(wl.threads[0].name, "main"));
		check_op(&wl.threads[0], 0, 0, F2FS_RP_CREATE, "/x", NULL, 0, 0, 0);
		check_op(&wl.threads[0], 1, 0, F2FS_RP_TRUNCATE, "/x", NULL, 0, 0, 0);
		check_op(&wl.threads[0], 2, S, F2FS_RP_WRITE, "/x", NULL, 0, 4, 0);
	}
	f2fs_replay_workload_free(&wl);
}

/*
 * Where relative paths start, from the log itself (no root): a chdir to an
 * absolute path, getcwd, an fchdir to a directory opened by path, a
 * directory descriptor of openat and friends, strace -y's decorations of
 * AT_FDCWD and of a descriptor opened before the log; a child process
 * starts where its parent is.  -tt timestamps going past midnight.
 */
static const char strace_places[] =
    "100  23:59:59.500000 getcwd(\"/home/u\", 4096) = 8\n"
    "100  23:59:59.600000 openat(AT_FDCWD, \"a\", O_WRONLY|O_CREAT, 0644) = 3\n"
    "100  23:59:59.700000 chdir(\"sub\") = 0\n"
    "100  23:59:59.800000 mkdirat(AT_FDCWD, \"d\", 0777) = 0\n"
    "100  00:00:00.100000 openat(AT_FDCWD, \"d\", O_RDONLY|O_DIRECTORY) = 4\n"
    "100  00:00:00.200000 openat(4, \"f\", O_WRONLY|O_CREAT, 0644) = 5\n"
    "100  00:00:00.300000 unlinkat(4, \"f\", 0) = 0\n"
    "100  00:00:00.400000 renameat2(AT_FDCWD, \"/home/u/a\", 4, \"b\", 0) = 0\n"
    "100  00:00:00.500000 chdir(\"/srv\") = 0\n"
    "100  00:00:00.600000 fchdir(4) = 0\n"
    "100  00:00:00.700000 unlink(\"b\") = 0\n"
    "100  00:00:00.800000 clone(child_stack=NULL, flags=SIGCHLD) = 101\n"
    "101  00:00:00.900000 mkdir(\"kid\", 0777) = 0\n"
    "102  00:00:01.000000 mkdirat(AT_FDCWD</x/y\\x3ez>, \"e\", 0777) = 0\n"
    "102  00:00:01.100000 openat(7</x/dir>, \"g\", O_WRONLY|O_CREAT, 0644) = 8</x/dir/g>\n";

static void test_strace_places(void)
{
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	const struct f2fs_replay_thread *t;
	int ret;

	f2fs_replay_workload_init(&wl, "strace");
	ret = import_strace(strace_places, NULL, &wl, &err);
	CHECK(ret == 0 && wl.nthreads == 3);
	if (ret)
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
	if (ret || wl.nthreads != 3) {
		f2fs_replay_workload_free(&wl);
		return;
	}
	t = &wl.threads[0];
	check_op(t, 0, 100 * MS, F2FS_RP_CREATE, "/home/u/a", NULL, 0, 0, 0);
	check_op(t, 1, 300 * MS, F2FS_RP_MKDIR, "/home/u/sub/d", NULL, 0, 0, 0);
	/* past midnight: the clock went from 23:59:59.8 to 00:00:00.2 */
	check_op(t, 2, 700 * MS, F2FS_RP_CREATE, "/home/u/sub/d/f", NULL, 0, 0, 0);
	check_op(t, 3, 800 * MS, F2FS_RP_UNLINK, "/home/u/sub/d/f", NULL, 0, 0, 0);
	check_op(t, 4, 900 * MS, F2FS_RP_RENAME, "/home/u/a", "/home/u/sub/d/b", 0, 0, 0);
	check_op(t, 5, 1200 * MS, F2FS_RP_UNLINK, "/home/u/sub/d/b", NULL, 0, 0, 0);
	CHECK_EQ_U64(t->nops, 6);
	check_op(&wl.threads[1], 0, 1400 * MS, F2FS_RP_MKDIR, "/home/u/sub/d/kid", NULL, 0, 0, 0);
	t = &wl.threads[2];
	check_op(t, 0, 1500 * MS, F2FS_RP_MKDIR, "/x/y>z/e", NULL, 0, 0, 0);
	check_op(t, 1, 1600 * MS, F2FS_RP_CREATE, "/x/dir/g", NULL, 0, 0, 0);
	f2fs_replay_workload_free(&wl);
}

static void check_import_bad(bool fio, const char *text, const char *root, uint32_t line,
			     const char *reason)
{
	struct f2fs_replay_workload wl, orig;
	struct f2fs_replay_parse_error err;
	int ret;

	make_busy(&wl);
	make_busy(&orig);
	memset(&err, 0, sizeof(err));
	ret = fio ? import_fio(text, &wl, &err) : import_strace(text, root, &wl, &err);
	if (ret != -EINVAL || err.line != line || !strstr(err.reason, reason)) {
		fprintf(stderr, "  %s: got %d %s:%u: \"%s\", expected line %u \"%s\"\n", text, ret,
			err.file, err.line, err.reason, line, reason);
		test_case_failed = 1;
	}
	CHECK(workloads_equal(&wl, &orig));
	f2fs_replay_workload_free(&wl);
	f2fs_replay_workload_free(&orig);
}

static void test_strace_errors(void)
{
	check_import_bad(false, "1.0 sync() = 0\nopenat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n", NULL, 2,
			 "no timestamp: record the log with strace -ttt");
	check_import_bad(false, "1.0 openat(AT_FDCWD, \"/a\\q\", O_RDONLY) = 3\n", NULL, 1,
			 "bad escape in string");
	check_import_bad(false, "1.0 openat(AT_FDCWD, \"/a\", O_RDONLY\n", NULL, 1,
			 "cannot read the openat call");
	check_import_bad(false, "1.0 write(3, \"a\", 1)\n", NULL, 1, "cannot read the write call");
	check_import_bad(false, "1.0 ???\n", NULL, 1, "not a call");
	check_import_bad(false, "1.0 sync() = 0\n", "data", 0, "root \"data\" is not absolute");
	/* relative paths the log gives no directory for, at the line of the call */
	check_import_bad(false, strace_threads, NULL, 9,
			 "relative path \"rel\": where pid 2001 started is not in the log; give "
			 "--strace-root");
	check_import_bad(false,
			 "1.0 chdir(\"x\") = 0\n2.0 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3\n"
			 "3.0 creat(\"y\", 0600 <unfinished ...>\n4.0 <... creat resumed>) = 4\n",
			 NULL, 3,
			 "relative path \"y\": where the traced process started is not in the log");
	check_import_bad(false, "1.0 unlinkat(5, \"z\", 0) = 0\n", "/", 1,
			 "relative path \"z\": descriptor 5 was not opened in the log");
}

static const char fio_v2[] = "fio version 2 iolog\n"
			     "/dev/sdb add\n"
			     "/dev/sdb open\n"
			     "/dev/sdb write 0 4096\n"
			     "/dev/sdb wait 250 0\n"
			     "/dev/sdb read 4096 4096\n"
			     "/dev/sdb sync 0 0\n"
			     "\n"
			     "/dev/sdb datasync 0 0\n"
			     "/dev/sdb trim 0 4096\n"
			     "/dev/sdb wait 100 0\n"
			     "/dev/sdb write 8192 512\n"
			     "/dev/sdb close\n";

static const char fio_v3[] = "fio version 3 iolog\n"
			     "0 /tmp/f1 add\n"
			     "2 /tmp/other/f2 add\n"
			     "5 /tmp/f1 open\n"
			     "10 /tmp/f1 write 0 512\n"
			     "20 /tmp/other/f2 read 0 512\n"
			     "15 /tmp/f1 sync 0 0\n"
			     "30 /tmp/f1 wait 0 0\n"
			     "40 /tmp/f1 close\n";

static void test_fio(void)
{
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	const struct f2fs_replay_thread *t;
	int ret;

	f2fs_replay_workload_init(&wl, "fio");
	ret = import_fio(fio_v2, &wl, &err);
	CHECK(ret == 0 && wl.nthreads == 1);
	if (ret)
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
	if (!ret && wl.nthreads == 1) {
		t = &wl.threads[0];
		CHECK(!strcmp(t->name, "fio") && t->io_class == F2FS_RP_CLASS_FG);
		check_op(t, 0, F2FS_RP_ASAP, F2FS_RP_CREATE, "/sdb", NULL, 0, 0, 0);
		check_op(t, 1, F2FS_RP_ASAP, F2FS_RP_PWRITE, "/sdb", NULL, 0, 4096, 0);
		check_op(t, 2, 250 * MS, F2FS_RP_READ, "/sdb", NULL, 4096, 4096, 0);
		check_op(t, 3, F2FS_RP_ASAP, F2FS_RP_FSYNC, "/sdb", NULL, 0, 0, 0);
		check_op(t, 4, F2FS_RP_ASAP, F2FS_RP_FDATASYNC, "/sdb", NULL, 0, 0, 0);
		/* a wait for a moment already past changes nothing */
		check_op(t, 5, F2FS_RP_ASAP, F2FS_RP_PWRITE, "/sdb", NULL, 8192, 512, 0);
		CHECK_EQ_U64(t->nops, 6);
		CHECK_EQ_U64(t->ops[2].line, 6);
	}
	f2fs_replay_workload_free(&wl);

	f2fs_replay_workload_init(&wl, "fio");
	ret = import_fio(fio_v3, &wl, &err);
	CHECK(ret == 0 && wl.nthreads == 1);
	if (ret)
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
	if (!ret && wl.nthreads == 1) {
		t = &wl.threads[0];
		check_op(t, 0, 0, F2FS_RP_CREATE, "/f1", NULL, 0, 0, 0);
		check_op(t, 1, 2000, F2FS_RP_CREATE, "/f2", NULL, 0, 0, 0);
		check_op(t, 2, 10000, F2FS_RP_PWRITE, "/f1", NULL, 0, 512, 0);
		check_op(t, 3, 20000, F2FS_RP_READ, "/f2", NULL, 0, 512, 0);
		/* a timestamp going back is held at the latest */
		check_op(t, 4, 20000, F2FS_RP_FSYNC, "/f1", NULL, 0, 0, 0);
		CHECK_EQ_U64(t->nops, 5);
	}
	f2fs_replay_workload_free(&wl);
}

static void test_fio_errors(void)
{
	check_import_bad(true, "# not fio\n", NULL, 1, "not a fio iolog");
	check_import_bad(true, "fio version 1 iolog\n", NULL, 1, "only versions 2 and 3");
	check_import_bad(true, "fio version 2 iolog\n/a add\n/a frob 0 1\n", NULL, 3,
			 "unknown action \"frob\"");
	check_import_bad(true, "fio version 2 iolog\n/a add\n/a write 0\n", NULL, 3,
			 "write needs OFFSET LENGTH");
	check_import_bad(true, "fio version 2 iolog\n/a add 0 1\n", NULL, 2,
			 "add takes no OFFSET LENGTH");
	check_import_bad(true, "fio version 2 iolog\n/a add\n/a read x 1\n", NULL, 3,
			 "offset \"x\" is not a number");
	check_import_bad(true, "fio version 2 iolog\n/a add\n/a read 0 -1\n", NULL, 3,
			 "length \"-1\" is not a number");
	check_import_bad(true, "fio version 2 iolog\n/b write 0 1\n", NULL, 2,
			 "file \"/b\" was not added");
	check_import_bad(true, "fio version 2 iolog\n/x/a add\n/y/a add\n", NULL, 3,
			 "files \"/x/a\" and \"/y/a\" both map to /a");
	check_import_bad(true, "fio version 2 iolog\n/x/ add\n", NULL, 2, "is the root");
	check_import_bad(true, "fio version 3 iolog\n0 /a add\nsoon /a open\n", NULL, 3,
			 "timestamp \"soon\" is not a number of microseconds");
	check_import_bad(true, "fio version 3 iolog\n0 /a\n", NULL, 2,
			 "a line needs TIMESTAMP FILE ACTION");
}

int main(void)
{
	RUN(test_model);
	RUN(test_every_op);
	RUN(test_round_trip);
	RUN(test_escapes);
	RUN(test_bad_lines);
	RUN(test_limits);
	RUN(test_strace);
	RUN(test_strace_threads);
	RUN(test_strace_places);
	RUN(test_strace_errors);
	RUN(test_fio);
	RUN(test_fio_errors);
	TEST_EXIT();
}
