// SPDX-License-Identifier: GPL-2.0
/*
 * Importers: an strace log or a fio iolog turned into a workload
 * (f2fs_io(8), REPLAY TRACE FORMAT, "Importing strace logs" and
 * "Importing fio iologs").
 *
 * An strace log names files only when they are opened; later calls name
 * descriptors.  So the import keeps what the traced processes kept: per
 * process a descriptor table of open file descriptions (shared by dup and,
 * when the log shows it, by fork and threads), each with its path and file
 * position, and a working directory for relative paths, as the log shows
 * it (chdir, getcwd, strace -y) or the root says it starts.  A relative
 * path the import cannot place refuses the log: guessing would replay
 * another tree, and dropping it would replay nothing.  Calls that
 * change files become ops on the paths; the rest only update that state.
 * The ops are collected in log order first, then a second pass makes the
 * workload runnable on an empty volume: directories the log used before
 * creating them become setup directories, and a file it used without
 * creating it gets a create op just before its first use.
 *
 * A fio iolog already names files on every line; it only needs its file
 * names mapped into the volume and its timing rules (a "wait" in version 2,
 * a microsecond timestamp on every line in version 3) turned into op times.
 *
 * Both parse the whole log into a copy of the caller's workload and swap
 * it in at the end, so a refused log leaves the workload as it was.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

#define NS_PER_SEC	  RP_NS_PER_SEC
#define STRACE_LINE_MAX	  (256u * 1024) /* strace quotes each byte of a path as up to 4 */
#define STRACE_MAX_ARGS	  8
#define STRACE_UNFINISHED " <unfinished ...>"
#define NO_PROC		  ((size_t)-1)
#define NO_ARG		  STRACE_MAX_ARGS /* an argument index no call has */

/* ---- a set of paths (open addressing, linear probing) ---- */

struct pathset {
	char **slot; /* owned strings, NULL when free */
	size_t cap;  /* a power of two, or 0 */
	size_t count;
};

static uint64_t path_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static bool slot_is(const char *slot, const char *s, size_t len)
{
	return !strncmp(slot, s, len) && slot[len] == '\0';
}

/* The slot holding @s (@len bytes), or the free slot where it would go. */
static size_t ps_find(const struct pathset *ps, const char *s, size_t len)
{
	size_t i = (size_t)path_hash(s, len) & (ps->cap - 1);

	while (ps->slot[i] && !slot_is(ps->slot[i], s, len))
		i = (i + 1) & (ps->cap - 1);
	return i;
}

static bool ps_has_n(const struct pathset *ps, const char *s, size_t len)
{
	return ps->cap && ps->slot[ps_find(ps, s, len)];
}

static bool ps_has(const struct pathset *ps, const char *s)
{
	return ps_has_n(ps, s, strlen(s));
}

static int ps_grow(struct pathset *ps)
{
	struct pathset bigger = {.cap = ps->cap ? ps->cap * 2 : 64};
	size_t i;

	bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
	if (!bigger.slot)
		return -ENOMEM;
	for (i = 0; i < ps->cap; i++)
		if (ps->slot[i])
			bigger.slot[ps_find(&bigger, ps->slot[i], strlen(ps->slot[i]))] =
			    ps->slot[i];
	bigger.count = ps->count;
	free(ps->slot);
	*ps = bigger;
	return 0;
}

static int ps_add_n(struct pathset *ps, const char *s, size_t len)
{
	size_t i;

	if ((ps->count + 1) * 2 > ps->cap && ps_grow(ps))
		return -ENOMEM;
	i = ps_find(ps, s, len);
	if (ps->slot[i])
		return 0;
	ps->slot[i] = strndup(s, len);
	if (!ps->slot[i])
		return -ENOMEM;
	ps->count++;
	return 0;
}

static int ps_add(struct pathset *ps, const char *s)
{
	return ps_add_n(ps, s, strlen(s));
}

/* Remove @s; the entries after it in its probe run move back to keep the runs unbroken. */
static void ps_del(struct pathset *ps, const char *s)
{
	size_t mask = ps->cap - 1, i, j, home;

	if (!ps_has(ps, s))
		return;
	i = ps_find(ps, s, strlen(s));
	free(ps->slot[i]);
	ps->slot[i] = NULL;
	ps->count--;
	for (j = (i + 1) & mask; ps->slot[j]; j = (j + 1) & mask) {
		home = (size_t)path_hash(ps->slot[j], strlen(ps->slot[j])) & mask;
		/* the entry may move to the hole when its home is not between the hole and it */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			ps->slot[i] = ps->slot[j];
			ps->slot[j] = NULL;
			i = j;
		}
	}
}

static void ps_free(struct pathset *ps)
{
	size_t i;

	for (i = 0; i < ps->cap; i++)
		free(ps->slot[i]);
	free(ps->slot);
	memset(ps, 0, sizeof(*ps));
}

/* ---- paths ---- */

/* Append the components of @s (@len bytes) to the normalized path in @out (*@o bytes). */
static void push_components(char *out, size_t *o, const char *s, size_t len)
{
	const char *end = s + len, *c, *slash;

	for (c = s; c < end; c = slash + 1) {
		size_t n;

		slash = memchr(c, '/', (size_t)(end - c));
		if (!slash)
			slash = end;
		n = (size_t)(slash - c);
		if (n == 0 || (n == 1 && c[0] == '.'))
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			while (*o > 0 && out[--*o] != '/')
				;
			continue;
		}
		out[(*o)++] = '/';
		memcpy(out + *o, c, n);
		*o += n;
	}
}

/*
 * @rel (@len bytes) made absolute against @base (an absolute path, or NULL
 * when unknown) and normalized lexically: no empty, "." or ".." component
 * (".." of the root is the root).  *@out is NULL when @rel is relative and
 * there is no base.  -ENOMEM.
 */
static int normalize(const char *base, const char *rel, size_t len, char **out)
{
	size_t blen, o = 0;
	char *buf;

	*out = NULL;
	if (len && rel[0] == '/')
		base = "/";
	if (!base)
		return 0;
	blen = strlen(base);
	buf = malloc(blen + len + 3);
	if (!buf)
		return -ENOMEM;
	push_components(buf, &o, base, blen);
	push_components(buf, &o, rel, len);
	if (o == 0)
		buf[o++] = '/';
	buf[o] = '\0';
	*out = buf;
	return 0;
}

/* The length of @path's parent ("/a" for "/a/b"), 0 for a child of the root or the root. */
static size_t parent_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/* ---- strace: the state of the traced processes ---- */

/* An open file description, shared by dup and by inherited descriptor tables. */
struct ofile {
	unsigned int refs;
	size_t slot;	/* its index in strace.ofiles */
	char *host;	/* its path in the traced system, NULL when unknown */
	char *vol;	/* in the volume: NULL outside the root, unknown or unlinked */
	uint64_t pos;	/* the file position, when pos_known */
	bool pos_known; /* (not after an O_APPEND write) */
	bool append;	/* O_APPEND */
	bool dir;	/* opened with O_DIRECTORY */
	bool moved;	/* repositioned by lseek: writes become pwrites at pos */
	bool unlinked;	/* its name is gone: nothing done through it is replayed */
};

struct fdtable {
	unsigned int refs;
	struct ofile **fd;
	size_t nfd;
};

struct cwd {
	unsigned int refs;
	char *path;   /* NULL when unknown */
	bool changed; /* by chdir/fchdir in the log */
};

struct proc {
	long pid;	     /* -1 for the lines without a pid column */
	struct fdtable *fdt; /* NULL until used, and after the process exited */
	struct cwd *cwd;     /* NULL until used, and after the process exited */
	char *pending;	     /* an unfinished call's text, up to " <unfinished ...>" */
	uint64_t pending_time;
	uint32_t pending_line;
};

/* An op in log order, for the second pass. */
struct raw_op {
	struct f2fs_replay_op op;
	size_t proc;
	bool dir; /* the path is known to be a directory */
};

struct strace {
	const char *file;
	struct f2fs_replay_parse_error *err;
	char *root; /* normalized; NULL when paths are kept as they are */
	size_t root_len;
	bool root_given;    /* a process's working directory is the root until the log says */
	struct proc *procs; /* in the order the log shows them first */
	size_t nprocs, procs_cap;
	size_t anon; /* the process of the lines without a pid, NO_PROC before one */
	struct ofile **ofiles;
	size_t nofiles, ofiles_cap;
	struct raw_op *ops;
	size_t nops, ops_cap;
	uint64_t t0; /* the first timestamp */
	bool have_t0;
	uint64_t day_ns;     /* -t/-tt: days the clock went past midnight, in ns */
	uint64_t last_clock; /* -t/-tt: the latest time of day seen, ns */
	uint32_t line;
};

struct span {
	const char *s;
	size_t n;
};

/* A complete call: its process, name, arguments and result. */
struct call {
	size_t proc;
	const char *name;
	size_t name_len;
	const char *text; /* the arguments, after the opening parenthesis */
	struct span arg[STRACE_MAX_ARGS];
	size_t nargs;
	long long ret;
	bool failed; /* an error, or no result ("?") */
	uint64_t time;
	uint32_t line;
};

__attribute__((format(printf, 2, 3))) static int sfail(struct strace *st, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = rp_vfail(st->err, st->file, st->line, fmt, ap);
	va_end(ap);
	return ret;
}

static struct ofile *ofile_new(struct strace *st)
{
	struct ofile *f;

	if (!rp_grow((void **)&st->ofiles, &st->ofiles_cap, st->nofiles, sizeof(*st->ofiles)))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->refs = 1;
	f->slot = st->nofiles;
	f->pos_known = true;
	st->ofiles[st->nofiles++] = f;
	return f;
}

static void ofile_put(struct strace *st, struct ofile *f)
{
	if (!f || --f->refs)
		return;
	st->ofiles[f->slot] = st->ofiles[--st->nofiles];
	st->ofiles[f->slot]->slot = f->slot;
	free(f->host);
	free(f->vol);
	free(f);
}

static void fdtable_put(struct strace *st, struct fdtable *t)
{
	size_t i;

	if (!t || --t->refs)
		return;
	for (i = 0; i < t->nfd; i++)
		ofile_put(st, t->fd[i]);
	free(t->fd);
	free(t);
}

static void cwd_put(struct cwd *c)
{
	if (!c || --c->refs)
		return;
	free(c->path);
	free(c);
}

/* The process's descriptor table, made empty on first use. */
static struct fdtable *proc_fdt(struct proc *pr)
{
	if (!pr->fdt) {
		pr->fdt = calloc(1, sizeof(*pr->fdt));
		if (pr->fdt)
			pr->fdt->refs = 1;
	}
	return pr->fdt;
}

/*
 * The process's working directory: on first use the root when one was
 * given, else unknown until the log shows it (see f2fs_io(8)).
 */
static struct cwd *proc_cwd(struct strace *st, struct proc *pr)
{
	if (!pr->cwd) {
		pr->cwd = calloc(1, sizeof(*pr->cwd));
		if (!pr->cwd)
			return NULL;
		pr->cwd->refs = 1;
		if (st->root_given) {
			pr->cwd->path = strdup(st->root ? st->root : "/");
			if (!pr->cwd->path) {
				cwd_put(pr->cwd);
				pr->cwd = NULL;
			}
		}
	}
	return pr->cwd;
}

static void proc_exit(struct strace *st, struct proc *pr)
{
	fdtable_put(st, pr->fdt);
	cwd_put(pr->cwd);
	free(pr->pending);
	pr->fdt = NULL;
	pr->cwd = NULL;
	pr->pending = NULL;
}

static struct ofile *fd_get(struct proc *pr, long long fd)
{
	if (!pr->fdt || fd < 0 || (unsigned long long)fd >= pr->fdt->nfd)
		return NULL;
	return pr->fdt->fd[fd];
}

/* Point @fd of @t at @f (a new reference), closing what it pointed at. */
static int fdt_set(struct strace *st, struct fdtable *t, long long fd, struct ofile *f)
{
	size_t n = (size_t)fd;

	if (fd < 0 || fd > 1 << 24)
		return 0;
	if (n >= t->nfd) {
		size_t nfd = n + 16;
		struct ofile **p = realloc(t->fd, nfd * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + t->nfd, 0, (nfd - t->nfd) * sizeof(*p));
		t->fd = p;
		t->nfd = nfd;
	}
	if (f)
		f->refs++;
	ofile_put(st, t->fd[n]);
	t->fd[n] = f;
	return 0;
}

static int fd_install(struct strace *st, struct proc *pr, long long fd, struct ofile *f)
{
	struct fdtable *t = proc_fdt(pr);

	return t ? fdt_set(st, t, fd, f) : -ENOMEM;
}

/* The process of pid @pid, added when new.  NO_PROC on ENOMEM. */
static size_t proc_add(struct strace *st, long pid)
{
	struct proc *pr;

	if (!rp_grow((void **)&st->procs, &st->procs_cap, st->nprocs, sizeof(*pr)))
		return NO_PROC;
	pr = &st->procs[st->nprocs];
	memset(pr, 0, sizeof(*pr));
	pr->pid = pid;
	return st->nprocs++;
}

static size_t proc_find(const struct strace *st, long pid)
{
	size_t i;

	for (i = st->nprocs; i-- > 0;)
		if (st->procs[i].pid == pid)
			return i;
	return NO_PROC;
}

static bool pending_is(const struct proc *pr, const char *name, size_t len)
{
	return pr->pending && !strncmp(pr->pending, name, len) && pr->pending[len] == '(';
}

static bool pending_forks(const struct proc *pr)
{
	return pending_is(pr, "clone", 5) || pending_is(pr, "clone3", 6) ||
	       pending_is(pr, "fork", 4) || pending_is(pr, "vfork", 5);
}

/*
 * The process of a line (@resumed: the name of the call a "<... resumed>"
 * line completes, NULL for other lines).  Without -o, strace leaves the
 * pid column out while it traces one process; once it traces more, its
 * lines get "[pid N]" too.  So the lines without a pid belong to the first
 * new pid that is not a child that process is making: while it waits in a
 * clone or fork, a new pid is the child, unless the line resumes that very
 * call.
 */
static size_t proc_of_line(struct strace *st, bool has_pid, long pid, const struct span *resumed)
{
	struct proc *anon;
	size_t i;

	if (!has_pid) {
		if (st->anon == NO_PROC)
			st->anon = proc_add(st, -1);
		return st->anon;
	}
	i = proc_find(st, pid);
	if (i != NO_PROC)
		return i;
	anon = st->anon != NO_PROC ? &st->procs[st->anon] : NULL;
	if (anon && anon->pid == -1 &&
	    (resumed ? pending_is(anon, resumed->s, resumed->n) : !pending_forks(anon))) {
		anon->pid = pid;
		return st->anon;
	}
	return proc_add(st, pid);
}

/* ---- strace: lines ---- */

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Decimal digits into *@v (at most 18 of them count); the end. */
static const char *read_decimal(const char *s, uint64_t *v)
{
	unsigned int n = 0;

	*v = 0;
	for (; rp_is_digit(*s); s++)
		if (n++ < 18)
			*v = *v * 10 + (uint64_t)(*s - '0');
	return s;
}

/* ".ddd" (up to 9 decimals count) into nanoseconds; @s at the dot or not. */
static const char *read_fraction(const char *s, uint64_t *ns)
{
	unsigned int n = 0;

	*ns = 0;
	if (*s != '.')
		return s;
	for (s++; rp_is_digit(*s); s++)
		if (n < 9) {
			*ns = *ns * 10 + (uint64_t)(*s - '0');
			n++;
		}
	for (; n < 9; n++)
		*ns *= 10;
	return s;
}

/*
 * A -ttt (seconds.fraction) or -t/-tt (HH:MM:SS[.fraction], *@clock set)
 * timestamp; NULL when none.
 */
static const char *read_timestamp(const char *s, uint64_t *ns, bool *clock)
{
	uint64_t v, h, m, frac;
	const char *p = read_decimal(s, &v);

	*clock = *p == ':';
	if (p == s)
		return NULL;
	if (*clock) {
		h = v;
		p = read_decimal(p + 1, &m);
		if (*p != ':')
			return NULL;
		p = read_decimal(p + 1, &v);
		v += h * 3600 + m * 60;
	} else if (*p != '.') {
		return NULL;
	}
	p = read_fraction(p, &frac);
	if (*p != ' ' && *p != '\t')
		return NULL;
	*ns = v * NS_PER_SEC + frac;
	return skip_spaces(p);
}

/* "[pid N] " or "N " before the timestamp; *@rest after it. */
static const char *read_pid(const char *s, bool *has_pid, long *pid)
{
	uint64_t v;
	const char *p;

	*has_pid = false;
	s = skip_spaces(s);
	if (starts_with(s, "[pid")) {
		p = read_decimal(skip_spaces(s + 4), &v);
		if (*p != ']')
			return s;
		*has_pid = true;
		*pid = (long)v;
		return skip_spaces(p + 1);
	}
	p = read_decimal(s, &v);
	if (p == s || (*p != ' ' && *p != '\t'))
		return s;
	*has_pid = true;
	*pid = (long)v;
	return skip_spaces(p);
}

/* Skip a quoted string at @s ('"'); the byte after its closing quote, NULL when unclosed. */
static const char *skip_string(const char *s)
{
	for (s++; *s && *s != '"'; s++)
		if (*s == '\\' && s[1])
			s++;
	return *s ? s + 1 : NULL;
}

static void push_arg(struct call *c, const char *from, const char *to)
{
	while (to > from && (to[-1] == ' ' || to[-1] == '\t'))
		to--;
	if (c->nargs < STRACE_MAX_ARGS && to > from)
		c->arg[c->nargs++] = (struct span){from, (size_t)(to - from)};
}

/* Does a -y decoration start at @s: after a descriptor number or AT_FDCWD? */
static bool is_decorated(const char *text, const char *s)
{
	return s > text &&
	       (rp_is_digit(s[-1]) || (s - text >= 8 && !strncmp(s - 8, "AT_FDCWD", 8)));
}

/* Skip a -y decoration "<...>" after a descriptor number; NULL when unclosed. */
static const char *skip_decoration(const char *s)
{
	const char *end = strchr(s, '>');

	return end ? end + 1 : NULL;
}

/*
 * Split the arguments (c->text, after "name(") at the commas outside
 * strings and brackets; *@end after the closing parenthesis.  false when
 * they do not close.
 */
static bool split_args(struct call *c, const char **end)
{
	const char *s = c->text, *start = skip_spaces(s);
	int depth = 0;

	for (s = start; *s; s++) {
		if (*s == '"') {
			s = skip_string(s);
			if (!s)
				return false;
			s--;
		} else if (*s == '<' && is_decorated(c->text, s)) {
			s = skip_decoration(s);
			if (!s)
				return false;
			s--;
		} else if (*s == '(' || *s == '[' || *s == '{') {
			depth++;
		} else if ((*s == ']' || *s == '}') && depth > 0) {
			depth--;
		} else if (*s == ')' && depth > 0) {
			depth--;
		} else if (*s == ')') {
			push_arg(c, start, s);
			*end = s + 1;
			return true;
		} else if (*s == ',' && depth == 0) {
			push_arg(c, start, s);
			start = skip_spaces(s + 1);
		}
	}
	return false;
}

/* " = RET ...": a number, or "-1 ERRNO (...)" and "?" (failed). */
static bool read_result(struct call *c, const char *s)
{
	s = skip_spaces(s);
	if (*s != '=')
		return false;
	s = skip_spaces(s + 1);
	c->failed = *s == '?' || *s == '-';
	if (c->failed)
		return true;
	if (s[0] == '0' && s[1] == 'x')
		c->ret = (long long)strtoull(s + 2, NULL, 16);
	else if (rp_is_digit(*s))
		c->ret = strtoll(s, NULL, 10);
	else
		return false;
	return true;
}

/* ---- strace: arguments ---- */

static bool arg_is(const struct call *c, size_t i, const char *word)
{
	return i < c->nargs && c->arg[i].n == strlen(word) &&
	       !strncmp(c->arg[i].s, word, c->arg[i].n);
}

/* A number argument (decimal, or 0x hex; a -y decoration after it is fine). */
static bool arg_number(const struct call *c, size_t i, long long *v)
{
	const char *s;
	char *end;

	if (i >= c->nargs)
		return false;
	s = c->arg[i].s;
	if (s[0] == '[') /* _llseek's result */
		s++;
	if (!rp_is_digit(*s) && !(*s == '-' && rp_is_digit(s[1])))
		return false;
	if (s[0] == '0' && s[1] == 'x')
		*v = (long long)strtoull(s + 2, &end, 16);
	else
		*v = strtoll(s, &end, 10);
	return end > s;
}

/* Does the flag word @flag appear in argument @i ("O_WRONLY|O_CREAT", "{flags=...}")? */
static bool arg_has_flag(const struct call *c, size_t i, const char *flag)
{
	size_t n = strlen(flag);
	const char *s, *end, *p;

	if (i >= c->nargs)
		return false;
	s = c->arg[i].s;
	end = s + c->arg[i].n;
	for (p = s; p + n <= end; p++) {
		if (strncmp(p, flag, n))
			continue;
		if ((p == s || !(p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z'))) &&
		    (p + n == end || !(p[n] == '_' || (p[n] >= 'A' && p[n] <= 'Z'))))
			return true;
	}
	return false;
}

static int octal_escape(const char **s)
{
	int v = 0, n;

	for (n = 0; n < 3 && **s >= '0' && **s <= '7'; n++, (*s)++)
		v = v * 8 + (**s - '0');
	return v;
}

/* One escape after a backslash at *@s; -1 when strace would not write it. */
static int string_escape(const char **s)
{
	static const char from[] = "\"\\fnrtv", to[] = "\"\\\f\n\r\t\v";
	const char *e = strchr(from, **s);
	int hi, lo;

	if (**s && e) {
		(*s)++;
		return to[e - from];
	}
	if (**s >= '0' && **s <= '7')
		return octal_escape(s);
	if (**s != 'x' || (hi = rp_hex_digit((*s)[1])) < 0 || (lo = rp_hex_digit((*s)[2])) < 0)
		return -1;
	*s += 3;
	return hi << 4 | lo;
}

/*
 * Argument @i as a string: *@out (*@len bytes, NUL-terminated), *@cut when
 * strace cut it ("..." after the quote).  1 when it is not a string (NULL,
 * an address), -EINVAL for a bad escape, -ENOMEM.
 */
static int arg_string(const struct call *c, size_t i, char **out, size_t *len, bool *cut)
{
	const char *s, *end;
	char *buf;
	size_t n = 0;
	int ch;

	if (i >= c->nargs || c->arg[i].s[0] != '"')
		return 1;
	s = c->arg[i].s + 1;
	end = c->arg[i].s + c->arg[i].n;
	buf = malloc(c->arg[i].n);
	if (!buf)
		return -ENOMEM;
	while (s < end && *s != '"') {
		ch = (unsigned char)*s++;
		if (ch == '\\' && (ch = string_escape(&s)) < 0) {
			free(buf);
			return -EINVAL;
		}
		buf[n++] = (char)ch;
	}
	buf[n] = '\0';
	*cut = s + 1 < end && starts_with(s + 1, "...");
	*out = buf;
	*len = n;
	return 0;
}

/* ---- strace: resolving paths ---- */

/* Argument @i is AT_FDCWD, with or without a -y decoration. */
static bool arg_is_fdcwd(const struct call *c, size_t i)
{
	return i < c->nargs && c->arg[i].n >= 8 && !strncmp(c->arg[i].s, "AT_FDCWD", 8) &&
	       (c->arg[i].n == 8 || c->arg[i].s[8] == '<');
}

/*
 * The path strace -y shows after argument @i ("3</data/dir>",
 * "AT_FDCWD</data>"), unescaped, into *@out; NULL when it shows none, or
 * something other than a path (a socket).  -ENOMEM.
 */
static int arg_decoration(const struct call *c, size_t i, char **out)
{
	const char *s, *end;
	char *shown;
	size_t n = 0;
	int ch = 0, ret = 0;

	*out = NULL;
	if (i >= c->nargs)
		return 0;
	end = c->arg[i].s + c->arg[i].n;
	s = memchr(c->arg[i].s, '<', c->arg[i].n);
	if (!s || s[1] != '/' || end[-1] != '>')
		return 0;
	*out = malloc((size_t)(end - s));
	if (!*out)
		return -ENOMEM;
	/* strace escapes what is not printable, and < and > */
	for (s++; s < end - 1; (*out)[n++] = (char)ch) {
		ch = (unsigned char)*s++;
		if (ch == '\\' && (ch = string_escape(&s)) < 0)
			break;
	}
	(*out)[n] = '\0';
	shown = *out;
	*out = NULL;
	if (ch >= 0 && !memchr(shown, '\0', n))
		ret = normalize("/", shown, n, out);
	free(shown);
	return ret;
}

static int set_cwd(struct strace *st, struct proc *pr, char *path);
static int volume_path(const struct strace *st, const char *host, char **vol);

/* Descriptor @fd of the process is the directory @host, as strace -y showed (@host taken). */
static int learn_dir_fd(struct strace *st, struct proc *pr, long long fd, char *host)
{
	struct ofile *f = ofile_new(st);
	int ret;

	if (!f) {
		free(host);
		return -ENOMEM;
	}
	f->host = host;
	f->dir = true;
	ret = volume_path(st, host, &f->vol);
	if (!ret)
		ret = fd_install(st, pr, fd, f);
	ofile_put(st, f);
	return ret;
}

/*
 * The directory a relative path of argument @dirfd starts from (-1: the
 * cwd) into *@base, NULL when unknown.  A -y decoration tells what the log
 * did not: the working directory, or a descriptor opened before the log.
 */
static int base_dir(struct strace *st, const struct call *c, int dirfd, const char **base)
{
	struct proc *pr = &st->procs[c->proc];
	struct cwd *cwd;
	struct ofile *f;
	long long fd;
	char *shown = NULL;
	int ret = dirfd < 0 ? 0 : arg_decoration(c, (size_t)dirfd, &shown);

	*base = NULL;
	if (ret)
		return ret;
	if (dirfd < 0 || arg_is_fdcwd(c, (size_t)dirfd)) {
		if (shown && (ret = set_cwd(st, pr, shown)))
			return ret;
		cwd = proc_cwd(st, pr);
		*base = cwd ? cwd->path : NULL;
		return cwd ? 0 : -ENOMEM;
	}
	if (!arg_number(c, (size_t)dirfd, &fd)) {
		free(shown);
		return 0;
	}
	f = fd_get(pr, fd);
	if ((!f || !f->host) && shown) {
		ret = learn_dir_fd(st, pr, fd, shown);
		f = fd_get(pr, fd);
	} else {
		free(shown);
	}
	*base = f ? f->host : NULL;
	return ret;
}

/* "pid 8983", or "the traced process" for a log without pids. */
static const char *proc_label(const struct strace *st, size_t proc, char *buf, size_t size)
{
	if (st->procs[proc].pid < 0)
		return "the traced process";
	snprintf(buf, size, "pid %ld", st->procs[proc].pid);
	return buf;
}

/* A relative path the log gives no directory for: refused, at the line of its call. */
static int unplaced(struct strace *st, const struct call *c, int dirfd, const char *path,
		    size_t len)
{
	char q[RP_QUOTE_SIZE], who[32];
	long long fd;

	rp_quote(q, sizeof(q), path, len);
	if (dirfd >= 0 && !arg_is_fdcwd(c, (size_t)dirfd) && arg_number(c, (size_t)dirfd, &fd))
		return rp_fail(st->err, st->file, c->line,
			       "relative path %s: descriptor %lld was not opened in the log", q,
			       fd);
	if (dirfd >= 0 && !arg_is_fdcwd(c, (size_t)dirfd))
		return rp_fail(st->err, st->file, c->line,
			       "relative path %s: its directory is not a descriptor", q);
	return rp_fail(st->err, st->file, c->line,
		       "relative path %s: where %s started is not in the log; give --strace-root",
		       q, proc_label(st, c->proc, who, sizeof(who)));
}

/*
 * The path of argument @i (relative to argument @dirfd, -1 for the working
 * directory) in the traced system, normalized: *@host, NULL when it cannot
 * be known (not a string, cut by strace, a NUL in it).  A relative path
 * without a known directory is refused when @strict, else NULL too.
 */
static int resolve_path(struct strace *st, const struct call *c, int dirfd, size_t i, bool strict,
			char **host)
{
	char q[RP_QUOTE_SIZE], *s;
	const char *base = "/";
	size_t len;
	bool cut;
	int ret;

	*host = NULL;
	ret = arg_string(c, i, &s, &len, &cut);
	if (ret == -EINVAL)
		return sfail(st, "bad escape in string %s",
			     rp_quote(q, sizeof(q), c->arg[i].s, c->arg[i].n));
	if (ret)
		return ret > 0 ? 0 : ret;
	if (!cut && len && !memchr(s, '\0', len)) {
		if (s[0] != '/')
			ret = base_dir(st, c, dirfd, &base);
		if (!ret && base)
			ret = normalize(base, s, len, host);
		else if (!ret && strict)
			ret = unplaced(st, c, dirfd, s, len);
	}
	free(s);
	return ret;
}

static int call_path(struct strace *st, const struct call *c, int dirfd, size_t i, char **host)
{
	return resolve_path(st, c, dirfd, i, true, host);
}

/* @host in the volume: NULL when outside the root, or not a path a workload may hold. */
static int volume_path(const struct strace *st, const char *host, char **vol)
{
	const char *rest = host;

	*vol = NULL;
	if (!host)
		return 0;
	if (st->root) {
		if (strncmp(host, st->root, st->root_len) ||
		    (host[st->root_len] != '/' && host[st->root_len] != '\0'))
			return 0;
		rest = host[st->root_len] ? host + st->root_len : "/";
	}
	if (rp_path_problem(rest, strlen(rest)))
		return 0;
	*vol = strdup(rest);
	return *vol ? 0 : -ENOMEM;
}

/* ---- strace: emitting ops ---- */

static int emit(struct strace *st, const struct call *c, enum f2fs_replay_opcode opc,
		const char *path, const char *path2, uint64_t offset, uint64_t length, bool dir)
{
	struct raw_op *r;

	/* the root can only be synced: other ops on it failed in the log */
	if ((path && !path[1] && opc != F2FS_RP_FSYNC && opc != F2FS_RP_FDATASYNC) ||
	    (path2 && !path2[1]))
		return 0;
	if (!rp_grow((void **)&st->ops, &st->ops_cap, st->nops, sizeof(*r)))
		return -ENOMEM;
	r = &st->ops[st->nops];
	memset(r, 0, sizeof(*r));
	r->proc = c->proc;
	r->dir = dir;
	r->op.op = opc;
	r->op.time_ns = c->time > st->t0 ? c->time - st->t0 : 0;
	r->op.offset = offset;
	r->op.length = length;
	r->op.line = c->line;
	r->op.path = path ? strdup(path) : NULL;
	r->op.path2 = path2 ? strdup(path2) : NULL;
	if ((path && !r->op.path) || (path2 && !r->op.path2)) {
		free(r->op.path);
		free(r->op.path2);
		return -ENOMEM;
	}
	st->nops++;
	return 0;
}

/* The open file of descriptor argument @i, when it has a path in the volume. */
static struct ofile *call_file(struct strace *st, const struct call *c, size_t i)
{
	struct ofile *f;
	long long fd;

	if (!arg_number(c, i, &fd))
		return NULL;
	f = fd_get(&st->procs[c->proc], fd);
	return f && f->vol && !f->unlinked ? f : NULL;
}

/* ---- strace: the calls ---- */

/* An open of argument @path (relative to @dirfd) with the flags of argument @flags. */
static int do_open(struct strace *st, const struct call *c, int dirfd, size_t path, size_t flags,
		   bool creat)
{
	bool create = creat || arg_has_flag(c, flags, "O_CREAT");
	bool writable =
	    creat || arg_has_flag(c, flags, "O_WRONLY") || arg_has_flag(c, flags, "O_RDWR");
	struct ofile *f;
	char *host;
	int ret;

	if (c->failed)
		return 0;
	ret = call_path(st, c, dirfd, path, &host);
	if (ret)
		return ret;
	f = ofile_new(st);
	if (!f) {
		free(host);
		return -ENOMEM;
	}
	f->host = host;
	f->append = arg_has_flag(c, flags, "O_APPEND");
	f->dir = arg_has_flag(c, flags, "O_DIRECTORY");
	/* an O_TMPFILE file has no name until linked: nothing done to it is replayed */
	ret = arg_has_flag(c, flags, "O_TMPFILE") ? 0 : volume_path(st, host, &f->vol);
	if (!ret)
		ret = fd_install(st, &st->procs[c->proc], c->ret, f);
	if (!ret && f->vol && create)
		ret = emit(st, c, F2FS_RP_CREATE, f->vol, NULL, 0, 0, false);
	if (!ret && f->vol && writable && (creat || arg_has_flag(c, flags, "O_TRUNC")))
		ret = emit(st, c, F2FS_RP_TRUNCATE, f->vol, NULL, 0, 0, false);
	ofile_put(st, f);
	return ret;
}

static int h_open(struct strace *st, struct call *c)
{
	return do_open(st, c, -1, 0, 1, false);
}

static int h_openat(struct strace *st, struct call *c)
{
	return do_open(st, c, 0, 1, 2, false);
}

static int h_creat(struct strace *st, struct call *c)
{
	return do_open(st, c, -1, 0, 1, true);
}

static int h_close(struct strace *st, struct call *c)
{
	long long fd;

	if (c->failed || !arg_number(c, 0, &fd) || !st->procs[c->proc].fdt)
		return 0;
	return fd_install(st, &st->procs[c->proc], fd, NULL);
}

/* dup, dup2, dup3, fcntl F_DUPFD*: the result shares argument 0's open file. */
static int h_dup(struct strace *st, struct call *c)
{
	struct proc *pr = &st->procs[c->proc];
	long long fd;

	if (c->failed || !arg_number(c, 0, &fd))
		return 0;
	return fd_install(st, pr, c->ret, fd_get(pr, fd));
}

static int h_fcntl(struct strace *st, struct call *c)
{
	struct ofile *f;
	long long fd;

	if (c->failed || !arg_number(c, 0, &fd))
		return 0;
	if (arg_is(c, 1, "F_DUPFD") || arg_is(c, 1, "F_DUPFD_CLOEXEC"))
		return h_dup(st, c);
	f = fd_get(&st->procs[c->proc], fd);
	if (f && arg_is(c, 1, "F_SETFL"))
		f->append = arg_has_flag(c, 2, "O_APPEND");
	return 0;
}

static int set_cwd(struct strace *st, struct proc *pr, char *path)
{
	struct cwd *cwd = proc_cwd(st, pr);

	if (!cwd) {
		free(path);
		return -ENOMEM;
	}
	free(cwd->path);
	cwd->path = path;
	cwd->changed = true;
	return 0;
}

/* A chdir to a relative path from an unknown directory leaves it unknown; using it is refused. */
static int h_chdir(struct strace *st, struct call *c)
{
	char *host;
	int ret;

	if (c->failed)
		return 0;
	ret = resolve_path(st, c, -1, 0, false, &host);
	return ret ? ret : set_cwd(st, &st->procs[c->proc], host);
}

/* getcwd(BUF, SIZE): the log says where the process is. */
static int h_getcwd(struct strace *st, struct call *c)
{
	char *host;
	int ret;

	if (c->failed || c->nargs < 1 || c->arg[0].n < 2 || c->arg[0].s[1] != '/')
		return 0;
	ret = call_path(st, c, -1, 0, &host);
	return ret || !host ? ret : set_cwd(st, &st->procs[c->proc], host);
}

static int h_fchdir(struct strace *st, struct call *c)
{
	struct proc *pr = &st->procs[c->proc];
	struct ofile *f;
	long long fd;
	char *host = NULL;

	if (c->failed || !arg_number(c, 0, &fd))
		return 0;
	f = fd_get(pr, fd);
	if (f && f->host) {
		host = strdup(f->host);
		if (!host)
			return -ENOMEM;
	}
	return set_cwd(st, pr, host);
}

/* @n bytes written at @f's position, which the engine keeps until an lseek moved it. */
static int write_at_position(struct strace *st, const struct call *c, struct ofile *f, uint64_t n)
{
	int ret;

	if (f->moved && f->pos_known && !f->append)
		ret = emit(st, c, F2FS_RP_PWRITE, f->vol, NULL, f->pos, n, false);
	else
		ret = emit(st, c, F2FS_RP_WRITE, f->vol, NULL, 0, n, false);
	f->pos += n;
	if (f->append)
		f->pos_known = false;
	return ret;
}

static int read_at_position(struct strace *st, const struct call *c, struct ofile *f, uint64_t n)
{
	int ret = 0;

	if (f->pos_known)
		ret = emit(st, c, F2FS_RP_READ, f->vol, NULL, f->pos, n, false);
	f->pos += n;
	return ret;
}

/* write, writev */
static int h_write(struct strace *st, struct call *c)
{
	struct ofile *f;

	if (c->failed || c->ret <= 0 || !(f = call_file(st, c, 0)))
		return 0;
	return write_at_position(st, c, f, (uint64_t)c->ret);
}

/*
 * A positional call: the offset is argument 3 (-1 for pwritev2/preadv2:
 * at the position, as @at_position does it); @op at that offset else.
 */
static int positional(struct strace *st, struct call *c, enum f2fs_replay_opcode op,
		      int (*at_position)(struct strace *, struct call *))
{
	struct ofile *f;
	long long off;

	if (c->failed || c->ret <= 0 || !arg_number(c, 3, &off))
		return 0;
	if (off < 0)
		return at_position(st, c);
	f = call_file(st, c, 0);
	return f ? emit(st, c, op, f->vol, NULL, (uint64_t)off, (uint64_t)c->ret, false) : 0;
}

/* pwrite64, pwritev, pwritev2 */
static int h_pwrite(struct strace *st, struct call *c)
{
	return positional(st, c, F2FS_RP_PWRITE, h_write);
}

/* read, readv */
static int h_read(struct strace *st, struct call *c)
{
	struct ofile *f;

	if (c->failed || c->ret <= 0 || !(f = call_file(st, c, 0)))
		return 0;
	return read_at_position(st, c, f, (uint64_t)c->ret);
}

/* pread64, preadv, preadv2 */
static int h_pread(struct strace *st, struct call *c)
{
	return positional(st, c, F2FS_RP_READ, h_read);
}

/*
 * A copy between descriptors (arguments @in and @out), as a read and a
 * write of the result's length; @in_off and @out_off are the arguments
 * holding an offset ("[4096]"), NULL or NO_ARG for the file positions.
 */
static int copy_op(struct strace *st, struct call *c, size_t in, size_t in_off, size_t out,
		   size_t out_off)
{
	struct ofile *fin, *fout;
	uint64_t n = (uint64_t)c->ret;
	long long off;
	int ret = 0;

	if (c->failed || c->ret <= 0)
		return 0;
	fin = call_file(st, c, in);
	fout = call_file(st, c, out);
	if (fin && arg_number(c, in_off, &off))
		ret = emit(st, c, F2FS_RP_READ, fin->vol, NULL, (uint64_t)off, n, false);
	else if (fin)
		ret = read_at_position(st, c, fin, n);
	if (ret || !fout)
		return ret;
	if (arg_number(c, out_off, &off))
		return emit(st, c, F2FS_RP_PWRITE, fout->vol, NULL, (uint64_t)off, n, false);
	return write_at_position(st, c, fout, n);
}

/* copy_file_range(fd_in, off_in, fd_out, off_out, len, flags) */
static int h_copy_file_range(struct strace *st, struct call *c)
{
	return copy_op(st, c, 0, 1, 2, 3);
}

/* sendfile(out_fd, in_fd, offset, count) */
static int h_sendfile(struct strace *st, struct call *c)
{
	return copy_op(st, c, 1, 2, 0, NO_ARG);
}

static void reposition(struct ofile *f, uint64_t pos)
{
	if (!f->pos_known || f->pos != pos)
		f->moved = true;
	f->pos = pos;
	f->pos_known = true;
}

static int h_lseek(struct strace *st, struct call *c)
{
	struct ofile *f;
	long long fd;

	if (c->failed || !arg_number(c, 0, &fd) || !(f = fd_get(&st->procs[c->proc], fd)))
		return 0;
	reposition(f, (uint64_t)c->ret);
	return 0;
}

/* _llseek(fd, offset, [result], whence) */
static int h_llseek(struct strace *st, struct call *c)
{
	struct ofile *f;
	long long fd, pos;

	if (c->failed || !arg_number(c, 0, &fd) || !arg_number(c, 2, &pos) ||
	    !(f = fd_get(&st->procs[c->proc], fd)))
		return 0;
	reposition(f, (uint64_t)pos);
	return 0;
}

static int fd_sync(struct strace *st, struct call *c, enum f2fs_replay_opcode opc)
{
	struct ofile *f;

	if (c->failed || !(f = call_file(st, c, 0)))
		return 0;
	return emit(st, c, opc, f->vol, NULL, 0, 0, f->dir);
}

static int h_fsync(struct strace *st, struct call *c)
{
	return fd_sync(st, c, F2FS_RP_FSYNC);
}

static int h_fdatasync(struct strace *st, struct call *c)
{
	return fd_sync(st, c, F2FS_RP_FDATASYNC);
}

static int h_sync(struct strace *st, struct call *c)
{
	return c->failed ? 0 : emit(st, c, F2FS_RP_SYNC, NULL, NULL, 0, 0, false);
}

static int h_ftruncate(struct strace *st, struct call *c)
{
	struct ofile *f;
	long long len;

	if (c->failed || !arg_number(c, 1, &len) || len < 0 || !(f = call_file(st, c, 0)))
		return 0;
	return emit(st, c, F2FS_RP_TRUNCATE, f->vol, NULL, 0, (uint64_t)len, false);
}

/*
 * An op on the path of argument @path (relative to @dirfd): its volume
 * path, when it has one, into an op of @opc.
 */
static int path_op(struct strace *st, struct call *c, int dirfd, size_t path,
		   enum f2fs_replay_opcode opc, uint64_t length, bool dir)
{
	char *host, *vol = NULL;
	int ret;

	if (c->failed)
		return 0;
	ret = call_path(st, c, dirfd, path, &host);
	if (!ret)
		ret = volume_path(st, host, &vol);
	if (!ret && vol)
		ret = emit(st, c, opc, vol, NULL, 0, length, dir);
	free(host);
	free(vol);
	return ret;
}

static int h_truncate(struct strace *st, struct call *c)
{
	long long len;

	if (c->failed || !arg_number(c, 1, &len) || len < 0)
		return 0;
	return path_op(st, c, -1, 0, F2FS_RP_TRUNCATE, (uint64_t)len, false);
}

static int h_mkdir(struct strace *st, struct call *c)
{
	return path_op(st, c, -1, 0, F2FS_RP_MKDIR, 0, true);
}

static int h_mkdirat(struct strace *st, struct call *c)
{
	return path_op(st, c, 0, 1, F2FS_RP_MKDIR, 0, true);
}

/* The open files named @host are gone: their later ops cannot be replayed. */
static void mark_unlinked(struct strace *st, const char *host)
{
	size_t i;

	for (i = 0; i < st->nofiles; i++) {
		struct ofile *f = st->ofiles[i];

		if (f->host && !strcmp(f->host, host))
			f->unlinked = true;
	}
}

static int remove_path(struct strace *st, struct call *c, int dirfd, size_t path, bool dir)
{
	char *host, *vol = NULL;
	int ret;

	if (c->failed)
		return 0;
	ret = call_path(st, c, dirfd, path, &host);
	if (!ret)
		ret = volume_path(st, host, &vol);
	if (!ret && vol)
		ret = emit(st, c, F2FS_RP_UNLINK, vol, NULL, 0, 0, dir);
	if (host)
		mark_unlinked(st, host);
	free(host);
	free(vol);
	return ret;
}

static int h_unlink(struct strace *st, struct call *c)
{
	return remove_path(st, c, -1, 0, false);
}

static int h_rmdir(struct strace *st, struct call *c)
{
	return remove_path(st, c, -1, 0, true);
}

static int h_unlinkat(struct strace *st, struct call *c)
{
	return remove_path(st, c, 0, 1, arg_has_flag(c, 2, "AT_REMOVEDIR"));
}

/* Open files at or under @from now have their paths under @to. */
static int move_open_files(struct strace *st, const char *from, const char *to)
{
	size_t flen = strlen(from), i;

	for (i = 0; i < st->nofiles; i++) {
		struct ofile *f = st->ofiles[i];
		char *host;
		int ret;

		if (!f->host || f->unlinked || strncmp(f->host, from, flen) ||
		    (f->host[flen] != '/' && f->host[flen] != '\0'))
			continue;
		host = malloc(strlen(to) + strlen(f->host + flen) + 1);
		if (!host)
			return -ENOMEM;
		strcpy(host, to);
		strcat(host, f->host + flen);
		free(f->host);
		free(f->vol);
		f->host = host;
		ret = volume_path(st, host, &f->vol);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A rename seen from the volume: both inside, a rename; from inside to
 * outside, the file leaves (an unlink); from outside in, nothing (a later
 * use creates it, see the second pass).
 */
static int do_rename(struct strace *st, struct call *c, int olddir, size_t old, int newdir,
		     size_t new, size_t flags)
{
	char *from = NULL, *to = NULL, *vfrom = NULL, *vto = NULL;
	int ret;

	if (c->failed || arg_has_flag(c, flags, "RENAME_EXCHANGE") ||
	    arg_has_flag(c, flags, "RENAME_WHITEOUT"))
		return 0;
	ret = call_path(st, c, olddir, old, &from);
	if (!ret)
		ret = call_path(st, c, newdir, new, &to);
	if (!ret)
		ret = volume_path(st, from, &vfrom);
	if (!ret)
		ret = volume_path(st, to, &vto);
	if (!ret && vfrom)
		ret = vto ? emit(st, c, F2FS_RP_RENAME, vfrom, vto, 0, 0, false)
			  : emit(st, c, F2FS_RP_UNLINK, vfrom, NULL, 0, 0, false);
	if (!ret && to)
		mark_unlinked(st, to);
	if (!ret && from && to)
		ret = move_open_files(st, from, to);
	free(from);
	free(to);
	free(vfrom);
	free(vto);
	return ret;
}

static int h_rename(struct strace *st, struct call *c)
{
	return do_rename(st, c, -1, 0, -1, 1, NO_ARG);
}

static int h_renameat(struct strace *st, struct call *c)
{
	return do_rename(st, c, 0, 1, 2, 3, 4);
}

/* Every descriptor of @from that @to does not have, into @to. */
static int copy_missing(struct strace *st, struct fdtable *to, const struct fdtable *from)
{
	size_t i;
	int ret;

	for (i = 0; from && i < from->nfd; i++) {
		if (!from->fd[i] || (i < to->nfd && to->fd[i]))
			continue;
		ret = fdt_set(st, to, (long long)i, from->fd[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A new process (clone, clone3, fork, vfork) shares the descriptor table
 * (CLONE_FILES) or gets a copy.  The child may have run before the call
 * returned in the log: what it opened by then is kept.
 */
static int inherit_files(struct strace *st, struct proc *parent, struct proc *child, bool share)
{
	struct fdtable *from = proc_fdt(parent), *to;
	int ret;

	if (!from)
		return -ENOMEM;
	if (child->fdt == from)
		return 0;
	if (share) {
		ret = copy_missing(st, from, child->fdt);
		if (ret)
			return ret;
		fdtable_put(st, child->fdt);
		child->fdt = from;
		from->refs++;
		return 0;
	}
	to = proc_fdt(child);
	return to ? copy_missing(st, to, from) : -ENOMEM;
}

static int inherit_cwd(struct strace *st, struct proc *parent, struct proc *child, bool share)
{
	struct cwd *from = proc_cwd(st, parent), *to;
	char *path = NULL;

	if (!from)
		return -ENOMEM;
	if (child->cwd == from)
		return 0;
	if (share) {
		cwd_put(child->cwd);
		child->cwd = from;
		from->refs++;
		return 0;
	}
	to = proc_cwd(st, child);
	if (!to)
		return -ENOMEM;
	if (to->changed)
		return 0;
	if (from->path && !(path = strdup(from->path)))
		return -ENOMEM;
	free(to->path);
	to->path = path;
	return 0;
}

static int h_clone(struct strace *st, struct call *c)
{
	bool files = false, fs = false;
	size_t child, i;
	int ret;

	if (c->failed || c->ret <= 0)
		return 0;
	for (i = 0; i < c->nargs; i++) {
		files |= arg_has_flag(c, i, "CLONE_FILES");
		fs |= arg_has_flag(c, i, "CLONE_FS");
	}
	child = proc_find(st, (long)c->ret);
	if (child == NO_PROC)
		child = proc_add(st, (long)c->ret);
	if (child == NO_PROC)
		return -ENOMEM;
	if (child == c->proc) /* not from strace: a process is not its own child */
		return 0;
	ret = inherit_files(st, &st->procs[c->proc], &st->procs[child], files);
	return ret ? ret : inherit_cwd(st, &st->procs[c->proc], &st->procs[child], fs);
}

struct handler {
	const char *name;
	int (*fn)(struct strace *st, struct call *c);
};

static const struct handler handlers[] = {
    {"open", h_open},
    {"openat", h_openat},
    {"openat2", h_openat},
    {"creat", h_creat},
    {"close", h_close},
    {"dup", h_dup},
    {"dup2", h_dup},
    {"dup3", h_dup},
    {"fcntl", h_fcntl},
    {"fcntl64", h_fcntl},
    {"chdir", h_chdir},
    {"fchdir", h_fchdir},
    {"getcwd", h_getcwd},
    {"write", h_write},
    {"writev", h_write},
    {"pwrite64", h_pwrite},
    {"pwritev", h_pwrite},
    {"pwritev2", h_pwrite},
    {"read", h_read},
    {"readv", h_read},
    {"pread64", h_pread},
    {"preadv", h_pread},
    {"preadv2", h_pread},
    {"copy_file_range", h_copy_file_range},
    {"sendfile", h_sendfile},
    {"sendfile64", h_sendfile},
    {"lseek", h_lseek},
    {"_llseek", h_llseek},
    {"fsync", h_fsync},
    {"fdatasync", h_fdatasync},
    {"sync", h_sync},
    {"syncfs", h_sync},
    {"unlink", h_unlink},
    {"unlinkat", h_unlinkat},
    {"rmdir", h_rmdir},
    {"rename", h_rename},
    {"renameat", h_renameat},
    {"renameat2", h_renameat},
    {"mkdir", h_mkdir},
    {"mkdirat", h_mkdirat},
    {"truncate", h_truncate},
    {"truncate64", h_truncate},
    {"ftruncate", h_ftruncate},
    {"ftruncate64", h_ftruncate},
    {"clone", h_clone},
    {"clone3", h_clone},
    {"fork", h_clone},
    {"vfork", h_clone},
};

static const struct handler *find_handler(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (strlen(handlers[i].name) == len && !strncmp(handlers[i].name, name, len))
			return &handlers[i];
	return NULL;
}

/* A complete call "name(args) = result": its handler, when the import cares about it. */
static int do_call(struct strace *st, struct call *c, const char *text)
{
	const struct handler *h;
	const char *p = text, *end;
	char q[RP_QUOTE_SIZE];

	while (*p == '_' || (*p >= 'a' && *p <= 'z') || rp_is_digit(*p))
		p++;
	if (p == text || *p != '(')
		return sfail(st, "not a call: %s", rp_quote(q, sizeof(q), text, strlen(text)));
	c->name = text;
	c->name_len = (size_t)(p - text);
	h = find_handler(text, c->name_len);
	if (!h)
		return 0;
	c->text = p + 1;
	if (!split_args(c, &end) || !read_result(c, end))
		return sfail(st, "cannot read the %.*s call: %s", (int)c->name_len, text,
			     rp_quote(q, sizeof(q), text, strlen(text)));
	return h->fn(st, c);
}

/* The name in "<... name resumed>", or NULL for other events. */
static const struct span *resumed_name(const char *text, struct span *name)
{
	const char *end;

	if (!starts_with(text, "<... "))
		return NULL;
	end = strstr(text, " resumed>");
	if (!end)
		return NULL;
	name->s = text + 5;
	name->n = (size_t)(end - name->s);
	return name;
}

/* "<... name resumed>rest": the pending call of the process, completed. */
static int resume_call(struct strace *st, struct call *c, const char *text)
{
	struct proc *pr = &st->procs[c->proc];
	const char *rest;
	struct span name;
	size_t plen;
	char *joined;
	int ret;

	/* without its start (the log began after the call did) nothing is known of it */
	if (!resumed_name(text, &name) || !pending_is(pr, name.s, name.n))
		return 0;
	rest = name.s + name.n + strlen(" resumed>");
	plen = strlen(pr->pending);
	joined = malloc(plen + strlen(rest) + 1);
	if (!joined)
		return -ENOMEM;
	memcpy(joined, pr->pending, plen);
	strcpy(joined + plen, rest);
	c->time = pr->pending_time;
	c->line = pr->pending_line;
	free(pr->pending);
	pr->pending = NULL;
	ret = do_call(st, c, joined);
	free(joined);
	return ret;
}

/* "name(args <unfinished ...>": kept until its "<... name resumed>" line. */
static int hold_call(struct strace *st, struct call *c, const char *text, size_t len)
{
	struct proc *pr = &st->procs[c->proc];

	free(pr->pending);
	pr->pending = strndup(text, len - strlen(STRACE_UNFINISHED));
	if (!pr->pending)
		return -ENOMEM;
	pr->pending_time = c->time;
	pr->pending_line = c->line;
	return 0;
}

/* After the pid column and the timestamp. */
static int do_event(struct strace *st, struct call *c, const char *text)
{
	size_t len = strlen(text), ulen = strlen(STRACE_UNFINISHED);

	if (starts_with(text, "+++ exited") || starts_with(text, "+++ killed")) {
		proc_exit(st, &st->procs[c->proc]);
		return 0;
	}
	if (starts_with(text, "+++") || starts_with(text, "---"))
		return 0;
	if (starts_with(text, "<... "))
		return resume_call(st, c, text);
	if (len >= ulen && !strcmp(text + len - ulen, STRACE_UNFINISHED))
		return hold_call(st, c, text, len);
	return do_call(st, c, text);
}

/*
 * A -t/-tt time of day @ns as time since the first day of the log: the
 * clock going back by more than half a day went past midnight.
 */
static uint64_t past_midnight(struct strace *st, uint64_t ns)
{
	const uint64_t day = 24 * 3600 * NS_PER_SEC;

	if (ns + day / 2 < st->last_clock)
		st->day_ns += day;
	st->last_clock = ns;
	return ns + st->day_ns;
}

static int strace_line(struct strace *st, char *line)
{
	struct call c = {0};
	struct span name;
	const char *s;
	bool has_pid, clock;
	long pid = 0;

	s = skip_spaces(line);
	if (!*s || starts_with(s, "strace: "))
		return 0;
	s = read_pid(s, &has_pid, &pid);
	s = read_timestamp(s, &c.time, &clock);
	if (!s)
		return sfail(st, "no timestamp: record the log with strace -ttt (or -tt or -t)");
	if (clock)
		c.time = past_midnight(st, c.time);
	if (!st->have_t0) {
		st->t0 = c.time;
		st->have_t0 = true;
	}
	c.proc = proc_of_line(st, has_pid, pid, resumed_name(s, &name));
	if (c.proc == NO_PROC)
		return -ENOMEM;
	c.line = st->line;
	return do_event(st, &c, s);
}

/* ---- strace: the second pass, making the ops runnable on an empty volume ---- */

struct runnable {
	struct f2fs_replay_workload *wl;
	struct f2fs_replay_thread **thread; /* per process, NULL when it has no op */
	uint64_t *last_time;		    /* per process */
	struct pathset exists;		    /* what the replay has made so far */
	struct pathset dirs;		    /* paths the log shows to be directories */
};

/* Every ancestor of @path (below the root) into @ps. */
static int add_ancestors(struct pathset *ps, const char *path)
{
	size_t i;
	int ret;

	for (i = 1; path[i]; i++) {
		if (path[i] != '/')
			continue;
		ret = ps_add_n(ps, path, i);
		if (ret)
			return ret;
	}
	return 0;
}

static int find_dirs(struct runnable *rn, const struct strace *st)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < st->nops && !ret; i++) {
		const struct raw_op *r = &st->ops[i];

		if (r->op.path)
			ret = add_ancestors(&rn->dirs, r->op.path);
		if (!ret && r->op.path2)
			ret = add_ancestors(&rn->dirs, r->op.path2);
		if (!ret && r->op.path && (r->dir || r->op.op == F2FS_RP_MKDIR))
			ret = ps_add(&rn->dirs, r->op.path);
	}
	return ret;
}

/* A directory that existed before the log: a setup directory (and its ancestors). */
static int setup_dir(struct runnable *rn, const char *path, size_t len)
{
	char *dir = strndup(path, len);
	int ret;

	if (!dir)
		return -ENOMEM;
	ret = f2fs_replay_add_setup_dir(rn->wl, dir);
	if (!ret)
		ret = add_ancestors(&rn->exists, dir);
	if (!ret)
		ret = ps_add(&rn->exists, dir);
	free(dir);
	return ret;
}

static int need_parent(struct runnable *rn, const char *path)
{
	size_t len = parent_len(path);

	if (len == 0 || ps_has_n(&rn->exists, path, len))
		return 0;
	return setup_dir(rn, path, len);
}

/* @path must be there before @r: a setup directory, or a create op just before. */
static int need_present(struct runnable *rn, const struct raw_op *r, const char *path)
{
	struct f2fs_replay_op create = r->op;
	int ret;

	if (!path[1] || ps_has(&rn->exists, path))
		return 0;
	ret = need_parent(rn, path);
	if (ret)
		return ret;
	if (r->dir || ps_has(&rn->dirs, path))
		return setup_dir(rn, path, strlen(path));
	create.op = F2FS_RP_CREATE;
	create.path2 = NULL;
	create.offset = create.length = 0;
	create.flags = 0;
	ret = f2fs_replay_thread_add(rn->thread[r->proc], &create);
	return ret ? ret : ps_add(&rn->exists, path);
}

/* The replay's view after a rename: @from and all under it are now under @to. */
static int move_existing(struct runnable *rn, const char *from, const char *to)
{
	size_t flen = strlen(from), i, n = 0;
	char **moved = calloc(rn->exists.count + 1, sizeof(*moved));
	int ret = 0;

	if (!moved)
		return -ENOMEM;
	for (i = 0; i < rn->exists.cap; i++) {
		char *s = rn->exists.slot[i];

		if (s && !strncmp(s, from, flen) && (s[flen] == '/' || s[flen] == '\0'))
			moved[n++] = s;
	}
	for (i = 0; i < n; i++) {
		char *s = moved[i], *dst = malloc(strlen(to) + strlen(s + flen) + 1);

		if (!dst) {
			ret = -ENOMEM;
			break;
		}
		strcpy(dst, to);
		strcat(dst, s + flen);
		moved[i] = dst;
		ps_del(&rn->exists, s);
	}
	for (i = 0; i < n; i++) {
		if (!ret && moved[i])
			ret = ps_add(&rn->exists, moved[i]);
		free(moved[i]);
	}
	free(moved);
	return ret;
}

static int before_op(struct runnable *rn, const struct raw_op *r)
{
	const struct f2fs_replay_op *op = &r->op;
	int ret;

	switch (op->op) {
	case F2FS_RP_SYNC:
	case F2FS_RP_SLEEP:
		return 0;
	case F2FS_RP_CREATE:
	case F2FS_RP_MKDIR:
		return need_parent(rn, op->path);
	case F2FS_RP_RENAME:
		ret = need_present(rn, r, op->path);
		return ret ? ret : need_parent(rn, op->path2);
	default:
		return need_present(rn, r, op->path);
	}
}

static int after_op(struct runnable *rn, const struct f2fs_replay_op *op)
{
	switch (op->op) {
	case F2FS_RP_CREATE:
	case F2FS_RP_MKDIR:
		return ps_add(&rn->exists, op->path);
	case F2FS_RP_UNLINK:
		ps_del(&rn->exists, op->path);
		return 0;
	case F2FS_RP_RENAME:
		ps_del(&rn->exists, op->path2);
		return move_existing(rn, op->path, op->path2);
	default:
		return 0;
	}
}

static void proc_name(const struct strace *st, size_t i, char *name, size_t size)
{
	if (st->procs[i].pid < 0)
		snprintf(name, size, "main");
	else
		snprintf(name, size, "pid%ld", st->procs[i].pid);
}

/* One thread per process that has ops, in the order the processes appeared. */
static int make_threads(struct runnable *rn, const struct strace *st)
{
	bool *used = calloc(st->nprocs + 1, sizeof(*used));
	char name[32];
	size_t i;

	if (!used)
		return -ENOMEM;
	for (i = 0; i < st->nops; i++)
		used[st->ops[i].proc] = true;
	for (i = 0; i < st->nprocs; i++) {
		if (!used[i])
			continue;
		proc_name(st, i, name, sizeof(name));
		if (!f2fs_replay_thread_get(rn->wl, name)) {
			free(used);
			return -ENOMEM;
		}
	}
	/* pointers only now that the array will not move */
	for (i = 0; i < st->nprocs; i++) {
		proc_name(st, i, name, sizeof(name));
		rn->thread[i] = used[i] ? f2fs_replay_thread_get(rn->wl, name) : NULL;
	}
	free(used);
	return 0;
}

static int add_runnable(struct runnable *rn, struct raw_op *r)
{
	uint64_t *last = &rn->last_time[r->proc];
	int ret;

	/* a process's calls start in order, but keep the rule of the format */
	if (r->op.time_ns < *last)
		r->op.time_ns = *last;
	*last = r->op.time_ns;
	ret = before_op(rn, r);
	if (!ret)
		ret = f2fs_replay_thread_add(rn->thread[r->proc], &r->op);
	return ret ? ret : after_op(rn, &r->op);
}

static int build_workload(struct strace *st, struct f2fs_replay_workload *wl)
{
	struct runnable rn = {.wl = wl};
	size_t i;
	int ret = -ENOMEM;

	rn.thread = calloc(st->nprocs + 1, sizeof(*rn.thread));
	rn.last_time = calloc(st->nprocs + 1, sizeof(*rn.last_time));
	if (rn.thread && rn.last_time)
		ret = find_dirs(&rn, st);
	if (!ret)
		ret = make_threads(&rn, st);
	for (i = 0; i < st->nops && !ret; i++)
		ret = add_runnable(&rn, &st->ops[i]);
	ps_free(&rn.exists);
	ps_free(&rn.dirs);
	free(rn.thread);
	free(rn.last_time);
	return ret;
}

/* ---- strace: the import ---- */

static void strace_free(struct strace *st)
{
	size_t i;

	for (i = 0; i < st->nprocs; i++)
		proc_exit(st, &st->procs[i]);
	free(st->procs);
	free(st->ofiles);
	for (i = 0; i < st->nops; i++) {
		free(st->ops[i].op.path);
		free(st->ops[i].op.path2);
	}
	free(st->ops);
	free(st->root);
}

static int set_root(struct strace *st, const char *root)
{
	char q[RP_QUOTE_SIZE];
	int ret;

	if (!root)
		return 0;
	st->root_given = true;
	if (root[0] != '/')
		return rp_fail(st->err, st->file, 0, "root %s is not absolute",
			       rp_quote(q, sizeof(q), root, strlen(root)));
	ret = normalize("/", root, strlen(root), &st->root);
	if (ret)
		return ret;
	if (!strcmp(st->root, "/")) {
		free(st->root);
		st->root = NULL;
		return 0;
	}
	st->root_len = strlen(st->root);
	return 0;
}

static int strace_numbered_line(void *arg, uint32_t no, char *line)
{
	struct strace *st = arg;

	st->line = no;
	return strace_line(st, line);
}

static int read_strace(struct strace *st, FILE *in)
{
	return rp_lines_each(in, STRACE_LINE_MAX, strace_numbered_line, st, st->file, st->err);
}

int f2fs_replay_import_strace(FILE *in, const char *file, const char *root,
			      struct f2fs_replay_workload *wl, struct f2fs_replay_parse_error *err)
{
	struct strace st = {.file = file, .err = err, .anon = NO_PROC};
	struct f2fs_replay_workload staged;
	int ret;

	ret = set_root(&st, root);
	if (!ret)
		ret = read_strace(&st, in);
	if (!ret)
		ret = rp_workload_copy(&staged, wl);
	if (ret) {
		strace_free(&st);
		return ret;
	}
	ret = build_workload(&st, &staged);
	strace_free(&st);
	if (ret) {
		f2fs_replay_workload_free(&staged);
		return ret;
	}
	rp_workload_move(wl, &staged);
	return 0;
}

/* ---- fio iologs ---- */

#define FIO_THREAD "fio"

struct fio_file {
	char *log_name; /* as the log names it */
	char *path;	/* in the volume: "/" and its base name */
};

struct fio {
	const char *file;
	struct f2fs_replay_parse_error *err;
	struct f2fs_replay_thread *t;
	int version;
	uint32_t line;
	struct fio_file *files;
	size_t nfiles, files_cap;
	uint64_t last_ns; /* the latest op time given */
	uint64_t wait_ns; /* v2: the next op starts no earlier (a "wait"), 0 for none */
	char *field[6];
	size_t nfields;
};

__attribute__((format(printf, 2, 3))) static int ffail(struct fio *f, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = rp_vfail(f->err, f->file, f->line, fmt, ap);
	va_end(ap);
	return ret;
}

/* fio's numbers: plain decimal. */
static bool fio_number(const char *s, uint64_t *v)
{
	uint64_t n = 0;

	if (!rp_is_digit(*s))
		return false;
	for (; rp_is_digit(*s); s++) {
		if (n > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	*v = n;
	return *s == '\0';
}

static int fio_arg(struct fio *f, const char *what, const char *s, uint64_t *v)
{
	char q[RP_QUOTE_SIZE];

	if (fio_number(s, v))
		return 0;
	return ffail(f, "%s %s is not a number", what, rp_quote(q, sizeof(q), s, strlen(s)));
}

static int fio_header(struct fio *f, const char *line)
{
	char q[RP_QUOTE_SIZE];

	if (!strcmp(line, "fio version 2 iolog"))
		f->version = 2;
	else if (!strcmp(line, "fio version 3 iolog"))
		f->version = 3;
	else if (starts_with(line, "fio version "))
		return ffail(f, "%s: only versions 2 and 3 are read",
			     rp_quote(q, sizeof(q), line, strlen(line)));
	else
		return ffail(f, "not a fio iolog: the first line is not \"fio version 2 iolog\" or "
				"\"fio version 3 iolog\"");
	return 0;
}

static struct fio_file *fio_find(struct fio *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nfiles; i++)
		if (!strcmp(f->files[i].log_name, name))
			return &f->files[i];
	return NULL;
}

/* "/" and the base name of @name; refused when it has none or two log names meet there. */
static int fio_volume_path(struct fio *f, const char *name, char **path)
{
	const char *base = strrchr(name, '/'), *why;
	char q[RP_QUOTE_SIZE], q2[RP_QUOTE_SIZE];
	size_t i;

	base = base ? base + 1 : name;
	*path = malloc(strlen(base) + 2);
	if (!*path)
		return -ENOMEM;
	(*path)[0] = '/';
	strcpy(*path + 1, base);
	why = rp_path_problem(*path, strlen(*path));
	if (!why && !base[0])
		why = "is the root";
	for (i = 0; !why && i < f->nfiles; i++)
		if (!strcmp(f->files[i].path, *path))
			return ffail(f, "files %s and %s both map to %s",
				     rp_quote(q, sizeof(q), f->files[i].log_name,
					      strlen(f->files[i].log_name)),
				     rp_quote(q2, sizeof(q2), name, strlen(name)), *path);
	if (why)
		return ffail(f, "file %s maps to a path that %s",
			     rp_quote(q, sizeof(q), name, strlen(name)), why);
	return 0;
}

/* The file @name, added to the list when @add and not there yet; fio uses only added files. */
static int fio_file_of(struct fio *f, const char *name, bool add, struct fio_file **out)
{
	char q[RP_QUOTE_SIZE], *path;
	struct fio_file *ff = fio_find(f, name);
	int ret;

	*out = ff;
	if (ff)
		return 0;
	if (!add)
		return ffail(f, "file %s was not added",
			     rp_quote(q, sizeof(q), name, strlen(name)));
	ret = fio_volume_path(f, name, &path);
	if (ret) {
		free(path);
		return ret;
	}
	if (!rp_grow((void **)&f->files, &f->files_cap, f->nfiles, sizeof(*ff))) {
		free(path);
		return -ENOMEM;
	}
	ff = &f->files[f->nfiles];
	ff->log_name = strdup(name);
	if (!ff->log_name) {
		free(path);
		return -ENOMEM;
	}
	ff->path = path;
	f->nfiles++;
	*out = ff;
	return 0;
}

/* The time of the next op: v3 gives it, v2 only when a wait asked for a later start. */
static uint64_t fio_op_time(struct fio *f, uint64_t v3_ns)
{
	uint64_t t = f->version == 3 ? v3_ns : f->wait_ns;

	f->wait_ns = 0;
	if (f->version == 2 && !t)
		return F2FS_RP_ASAP;
	if (t <= f->last_ns)
		return f->version == 3 ? f->last_ns : F2FS_RP_ASAP;
	f->last_ns = t;
	return t;
}

static int fio_emit(struct fio *f, uint64_t ns, enum f2fs_replay_opcode opc,
		    const struct fio_file *ff, uint64_t offset, uint64_t length)
{
	struct f2fs_replay_op op = {0};

	op.op = opc;
	op.time_ns = fio_op_time(f, ns);
	op.path = ff->path;
	op.offset = offset;
	op.length = length;
	op.line = f->line;
	return f2fs_replay_thread_add(f->t, &op);
}

static const char *const fio_file_actions[] = {"add", "open", "close"};
static const char *const fio_io_actions[] = {"read", "write", "sync", "datasync", "trim", "wait"};

/* Is @act an action, and does it take OFFSET LENGTH (*@io)? */
static bool fio_action_of(const char *act, bool *io)
{
	size_t i;

	for (i = 0; i < sizeof(fio_file_actions) / sizeof(fio_file_actions[0]); i++)
		if (!strcmp(act, fio_file_actions[i])) {
			*io = false;
			return true;
		}
	for (i = 0; i < sizeof(fio_io_actions) / sizeof(fio_io_actions[0]); i++)
		if (!strcmp(act, fio_io_actions[i])) {
			*io = true;
			return true;
		}
	return false;
}

/* FILE ACTION [OFFSET LENGTH] at fields @first on; @ns the v3 time. */
static int fio_action(struct fio *f, size_t first, uint64_t ns)
{
	const char *name = f->field[first], *act = f->field[first + 1];
	size_t nargs = f->nfields - first - 2;
	uint64_t off = 0, len = 0;
	struct fio_file *ff;
	char q[RP_QUOTE_SIZE];
	bool io;
	int ret;

	if (!fio_action_of(act, &io))
		return ffail(f, "unknown action %s", rp_quote(q, sizeof(q), act, strlen(act)));
	if (!io && nargs)
		return ffail(f, "%s takes no OFFSET LENGTH", act);
	if (io && nargs != 2)
		return ffail(f, "%s needs OFFSET LENGTH", act);
	ret = io ? fio_arg(f, "offset", f->field[first + 2], &off) : 0;
	if (!ret && io)
		ret = fio_arg(f, "length", f->field[first + 3], &len);
	if (ret)
		return ret;
	if (io && !strcmp(act, "wait")) {
		/* fio waits until OFFSET milliseconds after the job started; v3 ignores waits */
		if (f->version == 2)
			f->wait_ns = off > UINT64_MAX / 1000000 ? UINT64_MAX - 1 : off * 1000000;
		return 0;
	}
	ret = fio_file_of(f, name, !io && !strcmp(act, "add"), &ff);
	if (ret)
		return ret;
	if (!io) /* open and close change nothing the replay keeps */
		return strcmp(act, "add") ? 0 : fio_emit(f, ns, F2FS_RP_CREATE, ff, 0, 0);
	if (!strcmp(act, "trim")) /* no op punches holes */
		return 0;
	if (!strcmp(act, "read"))
		return fio_emit(f, ns, F2FS_RP_READ, ff, off, len);
	if (!strcmp(act, "write"))
		return fio_emit(f, ns, F2FS_RP_PWRITE, ff, off, len);
	return fio_emit(f, ns, strcmp(act, "sync") ? F2FS_RP_FDATASYNC : F2FS_RP_FSYNC, ff, 0, 0);
}

static int fio_split(struct fio *f, char *line)
{
	char *save = NULL, *s;

	f->nfields = 0;
	for (s = strtok_r(line, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (f->nfields == sizeof(f->field) / sizeof(f->field[0]))
			return ffail(f, "too many fields");
		f->field[f->nfields++] = s;
	}
	return 0;
}

static int fio_line(struct fio *f, char *line)
{
	char q[RP_QUOTE_SIZE];
	size_t first = f->version == 3 ? 1 : 0;
	uint64_t us = 0;
	int ret = fio_split(f, line);

	if (ret || !f->nfields)
		return ret;
	if (f->nfields < first + 2)
		return ffail(f, f->version == 3 ? "a line needs TIMESTAMP FILE ACTION"
						: "a line needs FILE ACTION");
	if (f->version == 3 && !fio_number(f->field[0], &us))
		return ffail(f, "timestamp %s is not a number of microseconds",
			     rp_quote(q, sizeof(q), f->field[0], strlen(f->field[0])));
	if (us > (UINT64_MAX - 1) / 1000)
		return ffail(f, "timestamp %s is too large", f->field[0]);
	return fio_action(f, first, us * 1000);
}

static int fio_numbered_line(void *arg, uint32_t no, char *line)
{
	struct fio *f = arg;

	f->line = no;
	return f->version ? fio_line(f, line) : fio_header(f, line);
}

static int read_fio(struct fio *f, FILE *in)
{
	int ret = rp_lines_each(in, RP_TRACE_LINE_MAX, fio_numbered_line, f, f->file, f->err);

	if (!ret && !f->version)
		ret = ffail(f, "empty: no \"fio version 2 iolog\" line");
	return ret;
}

int f2fs_replay_import_fio_iolog(FILE *in, const char *file, struct f2fs_replay_workload *wl,
				 struct f2fs_replay_parse_error *err)
{
	struct fio f = {.file = file, .err = err};
	struct f2fs_replay_workload staged;
	size_t i;
	int ret;

	ret = rp_workload_copy(&staged, wl);
	if (ret)
		return ret;
	f.t = f2fs_replay_thread_get(&staged, FIO_THREAD);
	ret = f.t ? read_fio(&f, in) : -ENOMEM;
	for (i = 0; i < f.nfiles; i++) {
		free(f.files[i].log_name);
		free(f.files[i].path);
	}
	free(f.files);
	if (ret) {
		f2fs_replay_workload_free(&staged);
		return ret;
	}
	rp_workload_move(wl, &staged);
	return 0;
}
