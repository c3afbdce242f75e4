// SPDX-License-Identifier: GPL-2.0
/*
 * The text trace format of the replay engine (f2fs_io(8), REPLAY TRACE
 * FORMAT): one op a line, "TIME THREAD CLASS OP ARGS [FLAGS]", directives
 * starting with "!" for what belongs to the whole workload (its name, its
 * setup directories, the read pass, threads declared before their ops),
 * "#" comments.  Paths escape the bytes that would break a line into
 * fields as \xNN, so any path survives a round trip.
 *
 * Reading checks every line before anything reaches the caller: the ops
 * go into a copy of the workload, which replaces it only when the whole
 * file was accepted; the first bad line stops the read with its number and
 * the reason.  Writing produces what reading gives back, line numbers
 * aside (and the fields an op does not use, such as the offset of a
 * write, which read back as 0), and refuses (-EINVAL) a workload it could
 * not write that way.
 *
 * This file also holds what the importers share with the reader: the
 * bounded line reader, the parse errors, and the path rules.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

#define NS_PER_SEC RP_NS_PER_SEC
#define MAX_FIELDS 16

/* ---- lines ---- */

int rp_lines_open(struct rp_lines *r, FILE *in, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->buf = malloc(max + 1);
	if (!r->buf)
		return -ENOMEM;
	r->in = in;
	r->max = max;
	return 0;
}

void rp_lines_close(struct rp_lines *r)
{
	free(r->buf);
	r->buf = NULL;
}

int rp_lines_next(struct rp_lines *r)
{
	bool any = false, nul = false;
	int c;

	r->len = 0;
	r->no++;
	while ((c = getc_unlocked(r->in)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (r->len == r->max)
			return -EFBIG;
		nul |= c == '\0';
		r->buf[r->len++] = (char)c;
	}
	if (ferror(r->in))
		return -EIO;
	if (!any) {
		r->no--;
		return 0;
	}
	if (r->len && r->buf[r->len - 1] == '\r')
		r->len--;
	r->buf[r->len] = '\0';
	return nul ? -EILSEQ : 1;
}

/* ---- errors ---- */

int rp_vfail(struct f2fs_replay_parse_error *err, const char *file, uint32_t line, const char *fmt,
	     va_list ap)
{
	if (!err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "-");
	err->line = line;
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	return -EINVAL;
}

int rp_fail(struct f2fs_replay_parse_error *err, const char *file, uint32_t line, const char *fmt,
	    ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = rp_vfail(err, file, line, fmt, ap);
	va_end(ap);
	return ret;
}

static bool printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

const char *rp_quote(char *out, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	out[o++] = '"';
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		/* keep room for \xNN, "...", the closing quote and the NUL */
		if (o + 4 + 5 > size) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (printable(c)) {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o++] = '"';
	out[o] = '\0';
	return out;
}

int rp_line_error(const struct rp_lines *r, int ret, const char *file,
		  struct f2fs_replay_parse_error *err)
{
	if (ret == -EFBIG)
		return rp_fail(err, file, r->no, "line longer than %zu bytes", r->max);
	if (ret == -EILSEQ)
		return rp_fail(err, file, r->no, "NUL byte in line");
	return ret;
}

int rp_lines_each(FILE *in, size_t max, rp_line_fn fn, void *arg, const char *file,
		  struct f2fs_replay_parse_error *err)
{
	struct rp_lines r;
	int ret = rp_lines_open(&r, in, max);

	if (ret)
		return ret;
	while ((ret = rp_lines_next(&r)) > 0) {
		ret = fn(arg, r.no, r.buf);
		if (ret)
			break;
	}
	if (ret < 0 && ret != -EINVAL)
		ret = rp_line_error(&r, ret, file, err);
	rp_lines_close(&r);
	return ret;
}

/* ---- paths ---- */

static const char *component_problem(const char *c, size_t n)
{
	if (n == 0)
		return "has an empty component";
	if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
		return "has a . or .. component";
	if (n > RP_NAME_MAX)
		return "has a component longer than 255 bytes";
	return NULL;
}

const char *rp_path_problem(const char *path, size_t len)
{
	const char *why, *end = path + len, *c, *slash;

	if (len == 0 || path[0] != '/')
		return "is not absolute";
	if (memchr(path, '\0', len))
		return "has a NUL byte";
	if (len > RP_PATH_MAX)
		return "is longer than 4095 bytes";
	if (len == 1)
		return NULL;
	for (c = path + 1; c <= end; c = slash + 1) {
		slash = memchr(c, '/', (size_t)(end - c));
		if (!slash)
			slash = end;
		why = component_problem(c, (size_t)(slash - c));
		if (why)
			return why;
	}
	return NULL;
}

/* ---- fields ---- */

/* Bytes written as \xNN in a path: those that are not printable, space, '#' and backslash. */
static bool path_byte_escaped(unsigned char c, bool escape_percent)
{
	return c <= 0x20 || c >= 0x7f || c == '#' || c == '\\' || (escape_percent && c == '%');
}

/* A size: decimal bytes, or K, M or G (powers of 1024).  -EINVAL for junk, -ERANGE for overflow. */
static int parse_size(const char *s, uint64_t *v)
{
	const char *p = s;
	unsigned int shift = 0;
	uint64_t n = 0;

	if (!rp_is_digit(*p))
		return -EINVAL;
	while (rp_is_digit(*p))
		p++;
	if (*p == 'K' || *p == 'k')
		shift = 10;
	else if (*p == 'M' || *p == 'm')
		shift = 20;
	else if (*p == 'G' || *p == 'g')
		shift = 30;
	if (*(p + (shift ? 1 : 0)) != '\0')
		return -EINVAL;
	for (; s < p; s++) {
		if (n > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	if (n > UINT64_MAX >> shift)
		return -ERANGE;
	*v = n << shift;
	return 0;
}

/*
 * Seconds as a decimal ("0", "1.25", "0.000000001") into nanoseconds.
 * -EINVAL for junk, -EDOM for more than 9 decimals, -ERANGE for overflow.
 */
static int parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	unsigned int decimals = 0;

	if (!rp_is_digit(*s))
		return -EINVAL;
	for (; rp_is_digit(*s); s++) {
		if (sec > (UINT64_MAX / NS_PER_SEC - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		if (!rp_is_digit(*++s))
			return -EINVAL;
		for (; rp_is_digit(*s); s++, decimals++)
			if (decimals < 9)
				frac = frac * 10 + (uint64_t)(*s - '0');
	}
	if (*s != '\0')
		return -EINVAL;
	if (decimals > 9)
		return -EDOM;
	for (; decimals < 9; decimals++)
		frac *= 10;
	if (sec * NS_PER_SEC > UINT64_MAX - frac)
		return -ERANGE;
	*ns = sec * NS_PER_SEC + frac;
	return 0;
}

/* @ns as the trace writes seconds: "0", "1.25", "0.000000001". */
static const char *format_seconds(char *buf, size_t size, uint64_t ns)
{
	uint64_t frac = ns % NS_PER_SEC;
	int n = snprintf(buf, size, "%llu", (unsigned long long)(ns / NS_PER_SEC));

	if (frac && n > 0 && (size_t)n < size) {
		int digits = 9;

		while (frac % 10 == 0) {
			frac /= 10;
			digits--;
		}
		snprintf(buf + n, size - (size_t)n, ".%0*llu", digits, (unsigned long long)frac);
	}
	return buf;
}

/* A thread or workload name: 1 to 31 bytes of [A-Za-z0-9_.-]. */
static bool is_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++) {
		char c = s[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || rp_is_digit(c) ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return n >= 1 && n < sizeof(((struct f2fs_replay_thread *)0)->name);
}

static const char *class_name(enum f2fs_replay_class c, bool loop)
{
	if (c == F2FS_RP_CLASS_BG)
		return loop ? "bg+loop" : "bg";
	return loop ? "fg+loop" : "fg";
}

static bool parse_class(const char *s, enum f2fs_replay_class *c, bool *loop)
{
	if (!strncmp(s, "fg", 2))
		*c = F2FS_RP_CLASS_FG;
	else if (!strncmp(s, "bg", 2))
		*c = F2FS_RP_CLASS_BG;
	else
		return false;
	*loop = !strcmp(s + 2, "+loop");
	return *loop || s[2] == '\0';
}

/*
 * Decode the \xNN escapes of @field into a new string (*@out, *@len bytes,
 * NUL-terminated; it may hold NULs).  -EINVAL for a backslash without two
 * hex digits, -ENOMEM.
 */
static int decode_path(const char *field, char **out, size_t *len)
{
	char *buf = malloc(strlen(field) + 1);
	size_t n = 0;
	int hi, lo;

	if (!buf)
		return -ENOMEM;
	for (; *field; field++) {
		if (*field != '\\') {
			buf[n++] = *field;
			continue;
		}
		if (field[1] != 'x' || (hi = rp_hex_digit(field[2])) < 0 ||
		    (lo = rp_hex_digit(field[3])) < 0) {
			free(buf);
			return -EINVAL;
		}
		buf[n++] = (char)(hi << 4 | lo);
		field += 3;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* ---- the reader ---- */

/* What this trace said about a thread so far (parallel to the staged workload's threads). */
struct seen {
	uint32_t class_line; /* where its class was first given, 0 before */
	uint32_t time_line;  /* where its latest timed op is, 0 before */
	uint64_t time_ns;    /* that op's time */
};

struct parser {
	struct f2fs_replay_workload *wl; /* the staged copy */
	struct seen *seen;
	size_t nseen;
	struct f2fs_replay_parse_error *err;
	const char *file;
	uint32_t line;
	uint32_t name_line; /* where !name was given, 0 before */
	char *field[MAX_FIELDS];
	size_t nfields;
};

__attribute__((format(printf, 2, 3))) static int pfail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = rp_vfail(p->err, p->file, p->line, fmt, ap);
	va_end(ap);
	return ret;
}

/* @s quoted for a reason (a buffer per argument: pass a fresh one each time). */
#define Q(buf, s) rp_quote(buf, sizeof(buf), s, strlen(s))

#define NOT_ROOT_OP "is the root, which only fsync and fdatasync take"

/* Split the line into fields, a comment cut off; refuses control bytes. */
static int split_fields(struct parser *p, char *line)
{
	char *hash = strchr(line, '#'), *s, *save = NULL;

	if (hash)
		*hash = '\0';
	for (s = line; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return pfail(p, "control byte 0x%02x in line", (unsigned char)*s);
	p->nfields = 0;
	for (s = strtok_r(line, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (p->nfields == MAX_FIELDS)
			return pfail(p, "too many fields");
		p->field[p->nfields++] = s;
	}
	return 0;
}

static struct seen *seen_of(struct parser *p, const struct f2fs_replay_thread *t)
{
	size_t i = (size_t)(t - p->wl->threads);

	if (i >= p->nseen) {
		size_t n = p->wl->cap;
		struct seen *s = realloc(p->seen, n * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + p->nseen, 0, (n - p->nseen) * sizeof(*s));
		p->seen = s;
		p->nseen = n;
	}
	return &p->seen[i];
}

/* The thread @name of class @c, which must be the class it had on earlier lines. */
static int use_thread(struct parser *p, const char *name, enum f2fs_replay_class c, bool loop,
		      struct f2fs_replay_thread **out)
{
	struct f2fs_replay_thread *t;
	struct seen *s;
	char q[RP_QUOTE_SIZE];

	if (!is_name(name))
		return pfail(p, "thread name %s is not a name ([A-Za-z0-9_.-], at most 31 bytes)",
			     Q(q, name));
	t = f2fs_replay_thread_get(p->wl, name);
	s = t ? seen_of(p, t) : NULL;
	if (!s)
		return -ENOMEM;
	if (!s->class_line) {
		t->io_class = c;
		t->loop = loop;
		s->class_line = p->line;
	} else if (t->io_class != c || t->loop != loop) {
		return pfail(p, "thread %s was class %s on line %u", name,
			     class_name(t->io_class, t->loop), s->class_line);
	}
	*out = t;
	return 0;
}

static int field_class(struct parser *p, const char *f, enum f2fs_replay_class *c, bool *loop)
{
	char q[RP_QUOTE_SIZE];

	if (!parse_class(f, c, loop))
		return pfail(p, "class %s is not fg, bg, fg+loop or bg+loop", Q(q, f));
	return 0;
}

/* TIME: seconds, or "-" for right after the thread's previous op. */
static int field_time(struct parser *p, const char *f, uint64_t *ns)
{
	char q[RP_QUOTE_SIZE];
	int ret;

	if (!strcmp(f, "-")) {
		*ns = F2FS_RP_ASAP;
		return 0;
	}
	ret = parse_seconds(f, ns);
	if (ret == -EDOM)
		return pfail(p, "time %s has more than 9 decimals", Q(q, f));
	if (ret == -ERANGE || (!ret && *ns == F2FS_RP_ASAP))
		return pfail(p, "time %s is too large", Q(q, f));
	if (ret)
		return pfail(p, "time %s is not seconds (0, 1.25, ...) or -", Q(q, f));
	return 0;
}

static int field_size(struct parser *p, const char *what, const char *f, uint64_t *v)
{
	char q[RP_QUOTE_SIZE];
	int ret = parse_size(f, v);

	if (ret == -ERANGE)
		return pfail(p, "%s %s is too large", what, Q(q, f));
	if (ret)
		return pfail(p, "%s %s is not a size", what, Q(q, f));
	return 0;
}

static int field_sleep(struct parser *p, const char *f, uint64_t *ns)
{
	char q[RP_QUOTE_SIZE];
	int ret = parse_seconds(f, ns);

	if (ret == -EDOM)
		return pfail(p, "sleep %s has more than 9 decimals", Q(q, f));
	if (ret == -ERANGE)
		return pfail(p, "sleep %s is too large", Q(q, f));
	if (ret)
		return pfail(p, "sleep %s is not seconds", Q(q, f));
	return 0;
}

/*
 * A PATH field into *@out.  "%n" (checked before decoding, so that \x25n
 * is a literal "%n") is for looping threads only; @loop_ok says whether
 * this path may use it.  @not_root is why the path may not be "/" (NULL
 * when it may).
 */
static int field_path(struct parser *p, const char *f, bool loop_ok, const char *not_root,
		      char **out)
{
	char q[RP_QUOTE_SIZE];
	const char *why;
	size_t len;
	int ret;

	ret = decode_path(f, out, &len);
	if (ret == -EINVAL)
		return pfail(p, "path %s has a bad escape (\\xNN)", Q(q, f));
	if (ret)
		return ret;
	why = rp_path_problem(*out, len);
	if (!why && len == 1)
		why = not_root;
	if (!why && !loop_ok && strstr(f, "%n"))
		why = "uses %n, which only looping threads may";
	if (why) {
		free(*out);
		*out = NULL;
		return pfail(p, "path %s %s", Q(q, f), why);
	}
	return 0;
}

enum arg_kind { ARG_PATH, ARG_PATH2, ARG_OFFSET, ARG_LENGTH, ARG_SIZE, ARG_SECONDS };

struct op_spec {
	uint8_t nargs;
	uint8_t arg[3];	   /* enum arg_kind */
	const char *usage; /* "PATH OFFSET LENGTH" */
	bool sync_flag;	   /* takes the sync flag */
	bool root_ok;	   /* PATH may be "/" */
};

static const struct op_spec op_specs[F2FS_RP_OPCODES] = {
    [F2FS_RP_CREATE] = {1, {ARG_PATH}, "PATH", false, false},
    [F2FS_RP_MKDIR] = {1, {ARG_PATH}, "PATH", false, false},
    [F2FS_RP_WRITE] = {2, {ARG_PATH, ARG_LENGTH}, "PATH LENGTH", true, false},
    [F2FS_RP_PWRITE] = {3, {ARG_PATH, ARG_OFFSET, ARG_LENGTH}, "PATH OFFSET LENGTH", true, false},
    [F2FS_RP_READ] = {3, {ARG_PATH, ARG_OFFSET, ARG_LENGTH}, "PATH OFFSET LENGTH", false, false},
    [F2FS_RP_FSYNC] = {1, {ARG_PATH}, "PATH", false, true},
    [F2FS_RP_FDATASYNC] = {1, {ARG_PATH}, "PATH", false, true},
    [F2FS_RP_SYNC] = {0, {0}, "", false, false},
    [F2FS_RP_UNLINK] = {1, {ARG_PATH}, "PATH", false, false},
    [F2FS_RP_RENAME] = {2, {ARG_PATH, ARG_PATH2}, "PATH NEWPATH", false, false},
    [F2FS_RP_TRUNCATE] = {2, {ARG_PATH, ARG_SIZE}, "PATH SIZE", false, false},
    [F2FS_RP_SLEEP] = {1, {ARG_SECONDS}, "SECONDS", false, false},
};

static int field_flags(struct parser *p, const struct op_spec *spec, enum f2fs_replay_opcode opc,
		       char *f, uint32_t *flags)
{
	char q[RP_QUOTE_SIZE], *save = NULL, *tok;

	if (*f == ',' || f[strlen(f) - 1] == ',' || strstr(f, ",,"))
		return pfail(p, "flags %s have an empty flag", Q(q, f));
	for (tok = strtok_r(f, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "sync"))
			return pfail(p, "unknown flag %s", Q(q, tok));
		if (!spec->sync_flag)
			return pfail(p, "flag sync is only for write and pwrite, not %s",
				     f2fs_replay_opcode_name(opc));
		*flags |= F2FS_RP_F_SYNC;
	}
	return 0;
}

static int arg_count_problem(struct parser *p, const struct op_spec *spec, const char *name,
			     size_t nargs)
{
	if (nargs < spec->nargs)
		return pfail(p, "%s needs %s", name, spec->usage);
	if (nargs <= spec->nargs + 1u)
		return 0;
	if (!spec->nargs)
		return pfail(p, "too many fields: %s takes no arguments", name);
	return pfail(p, "too many fields: %s needs %s%s", name, spec->usage,
		     spec->sync_flag ? " [sync]" : "");
}

static int parse_arg(struct parser *p, const struct op_spec *spec, enum arg_kind kind,
		     const struct f2fs_replay_thread *t, char *f, struct f2fs_replay_op *op)
{
	switch (kind) {
	case ARG_PATH:
		return field_path(p, f, t->loop, spec->root_ok ? NULL : NOT_ROOT_OP, &op->path);
	case ARG_PATH2:
		return field_path(p, f, t->loop, NOT_ROOT_OP, &op->path2);
	case ARG_OFFSET:
		return field_size(p, "offset", f, &op->offset);
	case ARG_LENGTH:
		return field_size(p, "length", f, &op->length);
	case ARG_SIZE:
		return field_size(p, "size", f, &op->length);
	case ARG_SECONDS:
		return field_sleep(p, f, &op->length);
	}
	return -EINVAL;
}

/* OP ARGS [FLAGS] (fields 3 on) into *@op. */
static int parse_op(struct parser *p, const struct f2fs_replay_thread *t, struct f2fs_replay_op *op)
{
	const char *name = p->field[3];
	const struct op_spec *spec;
	char q[RP_QUOTE_SIZE];
	size_t nargs = p->nfields - 4, i;
	int opc = f2fs_replay_opcode_parse(name), ret;

	if (opc < 0)
		return pfail(p, "unknown op %s", Q(q, name));
	op->op = (enum f2fs_replay_opcode)opc;
	spec = &op_specs[opc];
	ret = arg_count_problem(p, spec, name, nargs);
	for (i = 0; i < spec->nargs && !ret; i++)
		ret = parse_arg(p, spec, (enum arg_kind)spec->arg[i], t, p->field[4 + i], op);
	if (!ret && nargs > spec->nargs)
		ret = field_flags(p, spec, op->op, p->field[4 + spec->nargs], &op->flags);
	return ret;
}

/* Times of one thread must not go backwards. */
static int check_time(struct parser *p, const struct f2fs_replay_thread *t, uint64_t ns)
{
	struct seen *s = &p->seen[t - p->wl->threads];
	char was[32];

	if (ns == F2FS_RP_ASAP)
		return 0;
	if (s->time_line && ns < s->time_ns)
		return pfail(p, "time %s of thread %s is before %s on line %u", p->field[0],
			     t->name, format_seconds(was, sizeof(was), s->time_ns), s->time_line);
	s->time_ns = ns;
	s->time_line = p->line;
	return 0;
}

static int parse_op_line(struct parser *p)
{
	struct f2fs_replay_op op = {0};
	struct f2fs_replay_thread *t = NULL;
	enum f2fs_replay_class c = F2FS_RP_CLASS_FG;
	bool loop = false;
	int ret;

	if (p->nfields < 4)
		return pfail(p, "a line needs TIME THREAD CLASS OP [ARGS]");
	ret = field_time(p, p->field[0], &op.time_ns);
	if (!ret)
		ret = field_class(p, p->field[2], &c, &loop);
	if (!ret)
		ret = use_thread(p, p->field[1], c, loop, &t);
	if (!ret)
		ret = parse_op(p, t, &op);
	if (!ret)
		ret = check_time(p, t, op.time_ns);
	op.line = p->line;
	if (!ret)
		ret = f2fs_replay_thread_add(t, &op);
	free(op.path);
	free(op.path2);
	return ret;
}

static int directive_name(struct parser *p)
{
	char q[RP_QUOTE_SIZE];

	if (p->nfields != 2)
		return pfail(p, "!name needs NAME");
	if (!is_name(p->field[1]))
		return pfail(p, "workload name %s is not a name ([A-Za-z0-9_.-], at most 31 bytes)",
			     Q(q, p->field[1]));
	if (p->name_line)
		return pfail(p, "the workload was named on line %u", p->name_line);
	p->name_line = p->line;
	snprintf(p->wl->name, sizeof(p->wl->name), "%s", p->field[1]);
	return 0;
}

static int directive_thread(struct parser *p)
{
	struct f2fs_replay_thread *t;
	enum f2fs_replay_class c = F2FS_RP_CLASS_FG;
	bool loop = false;
	int ret;

	if (p->nfields != 3)
		return pfail(p, "!thread needs NAME CLASS");
	ret = field_class(p, p->field[2], &c, &loop);
	return ret ? ret : use_thread(p, p->field[1], c, loop, &t);
}

static int directive_setup_dir(struct parser *p)
{
	char *path;
	int ret;

	if (p->nfields != 2)
		return pfail(p, "!setup-dir needs PATH");
	ret = field_path(p, p->field[1], false, "is the root, which needs no setup", &path);
	if (ret)
		return ret;
	ret = f2fs_replay_add_setup_dir(p->wl, path);
	free(path);
	return ret;
}

static int directive_setup_file(struct parser *p)
{
	uint64_t size;
	char *path;
	int ret;

	if (p->nfields != 3)
		return pfail(p, "!setup-file needs PATH SIZE");
	ret = field_size(p, "size", p->field[2], &size);
	if (ret)
		return ret;
	ret = field_path(p, p->field[1], false, "is the root, not a file", &path);
	if (ret)
		return ret;
	ret = f2fs_replay_add_setup_file(p->wl, path, size);
	free(path);
	return ret;
}

static int parse_directive(struct parser *p)
{
	const char *d = p->field[0];
	char q[RP_QUOTE_SIZE];

	if (!strcmp(d, "!name"))
		return directive_name(p);
	if (!strcmp(d, "!thread"))
		return directive_thread(p);
	if (!strcmp(d, "!setup-dir"))
		return directive_setup_dir(p);
	if (!strcmp(d, "!setup-file"))
		return directive_setup_file(p);
	if (!strcmp(d, "!read-pass")) {
		if (p->nfields != 1)
			return pfail(p, "!read-pass takes no arguments");
		p->wl->read_pass = true;
		return 0;
	}
	return pfail(p, "unknown directive %s", Q(q, d));
}

static int parse_line(struct parser *p, char *line)
{
	int ret = split_fields(p, line);

	if (ret || !p->nfields)
		return ret;
	if (p->field[0][0] == '!')
		return parse_directive(p);
	return parse_op_line(p);
}

static int parse_numbered_line(void *arg, uint32_t no, char *line)
{
	struct parser *p = arg;

	p->line = no;
	return parse_line(p, line);
}

static int parse_all(struct parser *p, FILE *in)
{
	return rp_lines_each(in, RP_TRACE_LINE_MAX, parse_numbered_line, p, p->file, p->err);
}

int f2fs_replay_trace_read(FILE *in, const char *file, struct f2fs_replay_workload *wl,
			   struct f2fs_replay_parse_error *err)
{
	struct parser p = {.err = err, .file = file};
	struct f2fs_replay_workload staged;
	int ret;

	ret = rp_workload_copy(&staged, wl);
	if (ret)
		return ret;
	p.wl = &staged;
	ret = parse_all(&p, in);
	free(p.seen);
	if (ret) {
		f2fs_replay_workload_free(&staged);
		return ret;
	}
	rp_workload_move(wl, &staged);
	return 0;
}

/* ---- the writer ---- */

static bool path_writable(const char *path, bool root_ok)
{
	size_t len;

	if (!path)
		return false;
	len = strlen(path);
	return !rp_path_problem(path, len) && (root_ok || len > 1);
}

static bool op_writable(const struct f2fs_replay_op *op)
{
	const struct op_spec *spec;
	bool has_path = false, has_path2 = false;
	size_t i;

	if ((unsigned int)op->op >= F2FS_RP_OPCODES)
		return false;
	spec = &op_specs[op->op];
	for (i = 0; i < spec->nargs; i++) {
		has_path |= spec->arg[i] == ARG_PATH;
		has_path2 |= spec->arg[i] == ARG_PATH2;
	}
	if (has_path ? !path_writable(op->path, spec->root_ok) : op->path != NULL)
		return false;
	if (has_path2 ? !path_writable(op->path2, false) : op->path2 != NULL)
		return false;
	if (op->flags & ~(uint32_t)F2FS_RP_F_SYNC)
		return false;
	return !op->flags || spec->sync_flag;
}

static bool thread_writable(const struct f2fs_replay_thread *t)
{
	uint64_t last = 0;
	size_t i;

	if (!is_name(t->name) || (unsigned int)t->io_class >= F2FS_RP_CLASSES)
		return false;
	for (i = 0; i < t->nops; i++) {
		const struct f2fs_replay_op *op = &t->ops[i];

		if (!op_writable(op))
			return false;
		if (op->time_ns == F2FS_RP_ASAP)
			continue;
		if (op->time_ns < last)
			return false;
		last = op->time_ns;
	}
	return true;
}

static bool workload_writable(const struct f2fs_replay_workload *wl)
{
	size_t i;

	if (wl->name[0] && !is_name(wl->name))
		return false;
	for (i = 0; i < wl->nthreads; i++)
		if (!thread_writable(&wl->threads[i]))
			return false;
	for (i = 0; i < wl->nsetup_dirs; i++)
		if (!path_writable(wl->setup_dirs[i], false))
			return false;
	for (i = 0; i < wl->nsetup_files; i++)
		if (!path_writable(wl->setup_files[i].path, false))
			return false;
	return true;
}

static void write_path(FILE *out, const char *path, bool escape_percent)
{
	const unsigned char *s = (const unsigned char *)path;

	putc(' ', out);
	for (; *s; s++) {
		if (path_byte_escaped(*s, escape_percent))
			fprintf(out, "\\x%02x", *s);
		else
			putc(*s, out);
	}
}

static void write_arg(FILE *out, const struct f2fs_replay_thread *t,
		      const struct f2fs_replay_op *op, enum arg_kind kind)
{
	char buf[32];

	switch (kind) {
	case ARG_PATH:
		write_path(out, op->path, !t->loop);
		break;
	case ARG_PATH2:
		write_path(out, op->path2, !t->loop);
		break;
	case ARG_OFFSET:
		fprintf(out, " %llu", (unsigned long long)op->offset);
		break;
	case ARG_LENGTH:
	case ARG_SIZE:
		fprintf(out, " %llu", (unsigned long long)op->length);
		break;
	case ARG_SECONDS:
		fprintf(out, " %s", format_seconds(buf, sizeof(buf), op->length));
		break;
	}
}

static void write_op(FILE *out, const struct f2fs_replay_thread *t, const struct f2fs_replay_op *op)
{
	const struct op_spec *spec = &op_specs[op->op];
	char buf[32];
	size_t i;

	if (op->time_ns == F2FS_RP_ASAP)
		fputs("-", out);
	else
		fputs(format_seconds(buf, sizeof(buf), op->time_ns), out);
	fprintf(out, " %s %s %s", t->name, class_name(t->io_class, t->loop),
		f2fs_replay_opcode_name(op->op));
	for (i = 0; i < spec->nargs; i++)
		write_arg(out, t, op, (enum arg_kind)spec->arg[i]);
	if (op->flags & F2FS_RP_F_SYNC)
		fputs(" sync", out);
	putc('\n', out);
}

static size_t count_ops(const struct f2fs_replay_workload *wl)
{
	size_t n = 0, i;

	for (i = 0; i < wl->nthreads; i++)
		n += wl->threads[i].nops;
	return n;
}

int f2fs_replay_trace_write(FILE *out, const struct f2fs_replay_workload *wl)
{
	size_t i, j;

	if (!workload_writable(wl))
		return -EINVAL;
	fprintf(out,
		"# f2fs_io replay trace (f2fs_io(8), REPLAY TRACE FORMAT): %zu threads, %zu ops\n",
		wl->nthreads, count_ops(wl));
	if (wl->name[0])
		fprintf(out, "!name %s\n", wl->name);
	if (wl->read_pass)
		fputs("!read-pass\n", out);
	for (i = 0; i < wl->nsetup_dirs; i++) {
		fputs("!setup-dir", out);
		write_path(out, wl->setup_dirs[i], true);
		putc('\n', out);
	}
	for (i = 0; i < wl->nsetup_files; i++) {
		fputs("!setup-file", out);
		write_path(out, wl->setup_files[i].path, true);
		fprintf(out, " %llu\n", (unsigned long long)wl->setup_files[i].size);
	}
	for (i = 0; i < wl->nthreads; i++)
		fprintf(out, "!thread %s %s\n", wl->threads[i].name,
			class_name(wl->threads[i].io_class, wl->threads[i].loop));
	for (i = 0; i < wl->nthreads; i++)
		for (j = 0; j < wl->threads[i].nops; j++)
			write_op(out, &wl->threads[i], &wl->threads[i].ops[j]);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
