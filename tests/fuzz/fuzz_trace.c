// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the replay engine's text inputs: the trace format, the
 * strace importer and the fio iolog importer see the same bytes.  Each
 * must accept the input or refuse it with a line number and a one-line
 * reason, leaving the workload empty; an accepted trace must write back
 * as text that reads again to the same text (the round trip).
 *
 * Built with -DUSE_LIBFUZZER it is a libFuzzer target.  Otherwise main()
 * mutates built-in seed texts: fuzz_trace -n N [-s SEED] [-S SAVE] [-q]
 * runs N inputs, each saved to SAVE before it runs (so a crash leaves it
 * there), or fuzz_trace FILE... runs the given inputs.  A broken contract
 * abort()s with a message, so both modes report it as a crash.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs/replay.h"

#define MAX_INPUT (64u << 10)

static void broken(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_trace: %s: %s\n", what, detail);
	abort();
}

/* A refusal names a line and gives one line of reason; the workload stays empty. */
static void check_refusal(const char *who, int ret, const struct f2fs_replay_parse_error *err,
			  const struct f2fs_replay_workload *wl)
{
	if (ret != -EINVAL)
		return;
	if (!err->line || !err->reason[0] || strchr(err->reason, '\n'))
		broken(who, "a refusal without a line or a one-line reason");
	if (wl->nthreads || wl->nsetup_dirs || wl->nsetup_files)
		broken(who, "a refused input left ops in the workload");
}

/* Write @wl as a trace into a malloc'd string (NULL when the writer refuses it). */
static char *trace_text(const struct f2fs_replay_workload *wl, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int ret;

	if (!f)
		broken("open_memstream", strerror(errno));
	ret = f2fs_replay_trace_write(f, wl);
	fclose(f);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void round_trip(const struct f2fs_replay_workload *wl)
{
	struct f2fs_replay_workload again;
	struct f2fs_replay_parse_error err;
	size_t len1 = 0, len2 = 0;
	char *t1 = trace_text(wl, &len1), *t2;
	FILE *f;

	if (!t1)
		return;
	f2fs_replay_workload_init(&again, "");
	f = fmemopen(t1, len1, "r");
	if (!f || f2fs_replay_trace_read(f, "written", &again, &err))
		broken("round trip", f ? err.reason : "fmemopen");
	fclose(f);
	t2 = trace_text(&again, &len2);
	if (!t2 || len1 != len2 || memcmp(t1, t2, len1))
		broken("round trip", "the trace written twice differs");
	free(t1);
	free(t2);
	f2fs_replay_workload_free(&again);
}

/* Inputs each parser accepted (for the standalone driver's report). */
struct counts {
	uint64_t accepted[3];
};

static void run_one(const uint8_t *data, size_t size, struct counts *c)
{
	int kind;

	for (kind = 0; kind < 3; kind++) {
		struct f2fs_replay_workload wl;
		struct f2fs_replay_parse_error err;
		FILE *f = fmemopen((void *)data, size ? size : 1, "r");
		int ret;

		if (!f)
			broken("fmemopen", strerror(errno));
		if (!size)
			fgetc(f); /* an empty input: read past the one byte fmemopen needs */
		memset(&err, 0, sizeof(err));
		f2fs_replay_workload_init(&wl, "");
		if (kind == 0)
			ret = f2fs_replay_trace_read(f, "in", &wl, &err);
		else if (kind == 1)
			ret = f2fs_replay_import_strace(f, "in", "/data", &wl, &err);
		else
			ret = f2fs_replay_import_fio_iolog(f, "in", &wl, &err);
		fclose(f);
		if (ret && ret != -EINVAL && ret != -ENOMEM)
			broken("parser", "an error other than EINVAL or ENOMEM");
		check_refusal(kind == 0 ? "trace" : kind == 1 ? "strace" : "fio", ret, &err, &wl);
		if (!ret && c)
			c->accepted[kind]++;
		if (!ret && kind == 0)
			round_trip(&wl);
		f2fs_replay_workload_free(&wl);
	}
}

#ifdef USE_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_one(data, size, NULL);
	return 0;
}
#else

static const char *const seeds[] = {
    "# trace\n!name t\n!setup-dir /d\n!setup-file /d/f 1M\n!read-pass\n!thread w fg\n"
    "0 w fg create /d/a\n- w fg pwrite /d/a 0 300K\n- w fg write /d/a 8K sync\n"
    "0.5 w fg fsync /d/a\n- w fg rename /d/a /d/b\n- w fg truncate /d/b 10K\n"
    "- l bg+loop create /d/x%n\n- l bg+loop fsync /d\n- w fg sleep 0.01\n- w fg sync\n"
    "- w fg read /d/b 0 4K\n- w fg unlink /d/b\n- w fg mkdir /d/e\\x20f\n",
    "1234  1700000000.100000 openat(AT_FDCWD, \"/data/x\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3\n"
    "1234  1700000000.100100 write(3, \"abc\"..., 4096) = 4096\n"
    "1235  1700000000.100200 pwrite64(3, \"\\0\"..., 8192, 4096 <unfinished ...>\n"
    "1234  1700000000.100300 fsync(3) = 0\n"
    "1235  1700000000.100400 <... pwrite64 resumed>) = 8192\n"
    "1234  1700000000.100500 rename(\"/data/x\", \"/data/y\") = 0\n"
    "1234  1700000000.100600 close(3) = 0\n1234  1700000000.100700 sync() = 0\n",
    "fio version 2 iolog\n/tmp/f add\n/tmp/f open\n/tmp/f write 0 4096\n/tmp/f read 0 4096\n"
    "/tmp/f sync 0 0\n/tmp/f wait 100\n/tmp/f close\n",
    "fio version 3 iolog\n0 /tmp/f add\n10 /tmp/f open\n20 /tmp/f write 0 65536\n"
    "30 /tmp/f datasync 0 0\n40 /tmp/f close\n",
};

static const char *const tokens[] = {" ",
				     "\n",
				     "\t",
				     "-",
				     "0",
				     "9",
				     "18446744073709551615",
				     "4294967296",
				     "K",
				     "G",
				     "T",
				     "\\x",
				     "\\x00",
				     "\\xff",
				     "%n",
				     "%",
				     "/",
				     "//",
				     "..",
				     ".",
				     "#",
				     "!",
				     "\"",
				     "\\",
				     "fg",
				     "bg+loop",
				     "pwrite",
				     "rename",
				     "sleep",
				     "truncate",
				     "<unfinished ...>",
				     "<... write resumed>",
				     "= -1",
				     "openat(",
				     "dup2(",
				     "AT_FDCWD",
				     "O_CREAT",
				     "add",
				     "wait",
				     "fio version 3 iolog\n",
				     "\0"};

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Apply a few random edits to @buf (length *len, capacity MAX_INPUT). */
static void mutate(uint8_t *buf, size_t *len, uint64_t *rs)
{
	unsigned int edits = 1 + (unsigned int)(next_rand(rs) % 3), i;

	for (i = 0; i < edits; i++) {
		size_t at = *len ? (size_t)(next_rand(rs) % (*len + 1)) : 0;
		const char *tok = tokens[next_rand(rs) % (sizeof(tokens) / sizeof(tokens[0]))];
		size_t tl = strlen(tok) ? strlen(tok) : 1, n;

		switch (next_rand(rs) % 4) {
		case 0: /* flip a byte */
			if (at < *len)
				buf[at] ^= (uint8_t)(1u << (next_rand(rs) % 8));
			break;
		case 1: /* insert a token */
			if (*len + tl <= MAX_INPUT) {
				memmove(buf + at + tl, buf + at, *len - at);
				memcpy(buf + at, tok, tl);
				*len += tl;
			}
			break;
		case 2: /* delete a range */
			n = (size_t)(next_rand(rs) % 16);
			if (at + n > *len)
				n = *len - at;
			memmove(buf + at, buf + at + n, *len - at - n);
			*len -= n;
			break;
		default: /* duplicate a range */
			n = (size_t)(next_rand(rs) % 64);
			if (at + n > *len)
				n = *len - at;
			if (*len + n <= MAX_INPUT) {
				memmove(buf + at + n, buf + at, *len - at);
				*len += n;
			}
			break;
		}
	}
}

static int run_files(int argc, char **argv)
{
	static uint8_t buf[MAX_INPUT];
	int i;

	for (i = 0; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		run_one(buf, n, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t buf[MAX_INPUT];
	uint64_t n = 0, seed = 1, rs, i;
	struct counts c = {{0}};
	const char *save = NULL;
	bool quiet = false;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:S:q")) != -1) {
		if (opt == 'n')
			n = strtoull(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (opt == 'S')
			save = optarg;
		else if (opt == 'q')
			quiet = true;
		else
			return 2;
	}
	if (!n)
		return run_files(argc - optind, argv + optind);
	rs = seed * 0x9e3779b97f4a7c15ull | 1;
	for (i = 0; i < n; i++) {
		const char *s = seeds[next_rand(&rs) % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t len = strlen(s);

		memcpy(buf, s, len);
		mutate(buf, &len, &rs);
		if (save) {
			FILE *f = fopen(save, "wb");

			if (f) {
				fwrite(buf, 1, len, f);
				fclose(f);
			}
		}
		run_one(buf, len, &c);
	}
	if (!quiet)
		printf("fuzz_trace: %llu inputs (seed %llu), accepted: trace %llu, strace %llu, "
		       "fio %llu\n",
		       (unsigned long long)n, (unsigned long long)seed,
		       (unsigned long long)c.accepted[0], (unsigned long long)c.accepted[1],
		       (unsigned long long)c.accepted[2]);
	printf("fuzz_trace: ok\n");
	return 0;
}
#endif
