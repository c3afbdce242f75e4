// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine (lib/replay) on the memory device, with a scripted
 * trace and a stepped clock (clock.h): time moves only when the emulated
 * kernel sleeps -- here the checkpoint thread's wake-up latency, drawn from
 * the policy's seed -- so one thread's run reports the same figures, times
 * included, every time.  The cases check that two runs give identical
 * reports, that the report counts what the trace did (ops, fsyncs, bytes,
 * failed ops by error), that checkpoint merge moves the checkpoints to the
 * checkpoint thread's class and charges its wake-up to the fsyncs that wait
 * for it, as the model says, and that with a device model, whose service
 * times move the clock too, the times still repeat and merge adds exactly
 * the wake-ups.  A run closes its device; a layer under
 * the engine checks the volume just before the memory goes, so each run
 * also ends with the checker's verdict.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs/check.h"
#include "f2fs/clock.h"
#include "f2fs/device.h"
#include "f2fs/fs.h"
#include "f2fs/replay.h"
#include "fixture.h"
#include "test.h"

#define KIB 1024ull

/*
 * One thread; its line numbers matter (first_error_line).  Three ops fail:
 * two name what does not exist, one removes a directory that is not empty.
 */
static const char trace[] = "# a scripted run\n"	       /* 1 */
			    "0 w fg mkdir /d\n"		       /* 2 */
			    "- w fg create /d/a\n"	       /* 3 */
			    "- w fg write /d/a 256K\n"	       /* 4 */
			    "- w fg fsync /d/a\n"	       /* 5 */
			    "- w fg create /d/b\n"	       /* 6 */
			    "- w fg pwrite /d/b 0 64K\n"       /* 7 */
			    "- w fg fsync /d/b\n"	       /* 8 */
			    "- w fg unlink /d/missing\n"       /* 9 */
			    "- w fg write /d/a 128K\n"	       /* 10 */
			    "- w fg fdatasync /d/a\n"	       /* 11 */
			    "- w fg unlink /d\n"	       /* 12 */
			    "- w fg unlink /d/b\n"	       /* 13 */
			    "- w fg rename /d/none /d/other\n" /* 14 */
			    "- w fg fsync /d\n"		       /* 15 */
			    "- w fg sync\n";		       /* 16 */
#define TRACE_OPS     15
#define TRACE_FSYNCS  5 /* fsync x3, fdatasync, sync */
#define TRACE_BYTES   (448 * KIB)
#define FIRST_FAILURE 9

/* The checker's verdict on the memory device, taken when the run closes it. */
struct close_check {
	struct f2fs_device *mem;
	int opened;
	uint64_t problems;
};

static void show_problem(const struct f2fs_problem *p, void *arg)
{
	(void)arg;
	fprintf(stderr, "  checker: %s: %s\n", f2fs_problem_info(p->code)->name, p->detail);
}

static void check_on_release(void *priv)
{
	struct f2fs_check_options o = {.on_problem = show_problem};
	struct close_check *c = priv;
	struct f2fs_check_result r;
	struct f2fs_fs *fs = NULL;
	char why[256] = "";

	c->opened = f2fs_fs_open(c->mem, F2FS_FS_READ, &fs, why, sizeof(why));
	if (c->opened) {
		fprintf(stderr, "  open at close: %s\n", why);
		return;
	}
	c->problems = f2fs_check(fs, &o, &r) ? UINT64_MAX : r.problems;
	f2fs_fs_close(fs);
}

static const struct f2fs_dev_layer_ops checking_layer = {.release = check_on_release};

static bool read_trace(struct f2fs_replay_workload *wl)
{
	struct f2fs_replay_parse_error err;
	FILE *f = fmemopen((void *)trace, sizeof(trace) - 1, "r");
	int ret;

	if (!f)
		return false;
	f2fs_replay_workload_init(wl, "trace");
	ret = f2fs_replay_trace_read(f, "engine.trace", wl, &err);
	fclose(f);
	if (ret)
		fprintf(stderr, "  %s:%u: %s\n", err.file, err.line, err.reason);
	return ret == 0;
}

/* How a run goes: checkpoint merge, and a device model or none. */
struct setup {
	bool merge, model;
};

/*
 * The default policy, on @clock, without the parts that time waits on the
 * host (BFQ's budgets and idling).  Without a device model nothing but the
 * emulated kernel's own sleeps moves the clock; with one, the device's
 * service times move it too.
 */
static void stepped_policy(struct f2fs_replay_policy *p, struct rp_clock *clock,
			   const struct setup *s)
{
	f2fs_replay_policy_default(p);
	p->clock = clock;
	p->checkpoint_merge = s->merge;
	p->bfq_budget = 0;
	if (s->model) {
		p->model_mbps = 200;
		p->model_iops = 2000;
		p->model_flush_ms = 1;
	}
}

/* Run the trace on a fresh 64 MiB volume as @s says; the checker's verdict in @c. */
static bool run_trace(const struct setup *s, struct f2fs_replay_report *rep, struct close_check *c)
{
	struct f2fs_replay_workload wl;
	struct f2fs_replay_policy pol;
	struct f2fs_device *dev = NULL;
	struct rp_clock clock;
	struct fixture fx;
	char why[256] = "";
	int ret;

	memset(c, 0, sizeof(*c));
	c->opened = -1;
	if (!fixture_format(&fx, 64ull << 20, NULL, false) || !read_trace(&wl))
		return false;
	c->mem = fx.dev;
	if (f2fs_dev_stack(fx.dev, &checking_layer, c, &dev)) {
		f2fs_replay_workload_free(&wl);
		return false;
	}
	rp_clock_init_stepped(&clock);
	stepped_policy(&pol, &clock, s);
	ret = f2fs_replay_run(dev, &wl, &pol, NULL, NULL, rep, why, sizeof(why));
	if (ret)
		fprintf(stderr, "  run: %s\n", why);
	f2fs_replay_workload_free(&wl);
	return ret == 0;
}

/* The times of two runs: when each fsync-like op started and took, each checkpoint, the end. */
static bool same_times(const struct f2fs_replay_report *a, const struct f2fs_replay_report *b)
{
	const struct f2fs_replay_thread_report *x = a->threads, *y = b->threads;

	return a->nthreads == 1 && b->nthreads == 1 && a->elapsed_s == b->elapsed_s &&
	       a->ncp_times == b->ncp_times &&
	       !memcmp(a->cp_times_s, b->cp_times_s, a->ncp_times * sizeof(*a->cp_times_s)) &&
	       x->elapsed_s == y->elapsed_s && x->nfsync_samples == y->nfsync_samples &&
	       !memcmp(x->fsync_samples, y->fsync_samples,
		       x->nfsync_samples * sizeof(*x->fsync_samples));
}

static bool same_thread(const struct f2fs_replay_thread_report *a,
			const struct f2fs_replay_thread_report *b)
{
	return !strcmp(a->name, b->name) && a->elapsed_s == b->elapsed_s && a->ops == b->ops &&
	       a->errors == b->errors && a->fsyncs == b->fsyncs &&
	       a->fsync_p50_ms == b->fsync_p50_ms && a->fsync_p99_ms == b->fsync_p99_ms &&
	       a->fsync_max_ms == b->fsync_max_ms && a->first_error == b->first_error &&
	       a->first_error_line == b->first_error_line &&
	       a->first_error_at_s == b->first_error_at_s && a->nerror_kinds == b->nerror_kinds &&
	       !memcmp(a->error_kinds, b->error_kinds, sizeof(a->error_kinds)) &&
	       a->nfsync_samples == b->nfsync_samples &&
	       !memcmp(a->fsync_samples, b->fsync_samples,
		       a->nfsync_samples * sizeof(*a->fsync_samples));
}

#define SAME(field)	  (a->field == b->field)
#define SAME_ARRAY(field) (!memcmp(a->field, b->field, sizeof(a->field)))

static bool same_report(const struct f2fs_replay_report *a, const struct f2fs_replay_report *b)
{
	size_t i;

	if (!SAME(nthreads) || !SAME(ncp_times) ||
	    memcmp(a->cp_times_s, b->cp_times_s, a->ncp_times * sizeof(*a->cp_times_s)))
		return false;
	for (i = 0; i < a->nthreads; i++)
		if (!same_thread(&a->threads[i], &b->threads[i]))
			return false;
	return SAME(elapsed_s) && SAME(cp_requested) && SAME(cp_issued) && SAME(cp_merged) &&
	       SAME(cp_skipped) && SAME(cp_wait_avg_ms) && SAME(cp_wait_peak_ms) &&
	       SAME_ARRAY(bytes) && SAME_ARRAY(requests) && SAME(user_bytes) && SAME(flushes) &&
	       SAME(write_amplification) && SAME(gc_runs) && SAME(gc_blocks_moved) && SAME(files) &&
	       SAME(file_bytes) && SAME(extents) && SAME(max_extents) && SAME_ARRAY(class_bytes) &&
	       SAME_ARRAY(class_requests) && SAME_ARRAY(class_write_bytes) &&
	       SAME_ARRAY(class_writes) && SAME_ARRAY(class_flushes) &&
	       SAME_ARRAY(class_wait_avg_ms) && SAME_ARRAY(class_wait_max_ms) &&
	       SAME(verified_files) && SAME(verify_failures);
}

/* The run itself went well: no fatal error, the content check passed, the volume is clean. */
static void check_run(bool ran, const struct f2fs_replay_report *rep, const struct close_check *c)
{
	CHECK(ran);
	CHECK_EQ_U64(rep->verify_failures, 0);
	CHECK(rep->verified_files > 0);
	CHECK_EQ_U64(c->opened, 0);
	CHECK_EQ_U64(c->problems, 0);
}

static const struct setup merged = {.merge = true}, unmerged = {.merge = false};
static const struct setup merged_model = {.merge = true, .model = true};
static const struct setup unmerged_model = {.merge = false, .model = true};

static void test_two_runs_report_the_same(void)
{
	struct f2fs_replay_report a, b;
	struct close_check c;

	check_run(run_trace(&merged, &a, &c), &a, &c);
	check_run(run_trace(&merged, &b, &c), &b, &c);
	CHECK(same_report(&a, &b));
	printf("  merged: %.6f s, fsync max %.3f ms, %llu checkpoints\n", a.elapsed_s,
	       a.threads[0].fsync_max_ms, (unsigned long long)a.cp_issued);
	f2fs_replay_report_free(&a);
	f2fs_replay_report_free(&b);
}

static void test_report_counts_the_trace(void)
{
	struct f2fs_replay_report r;
	struct close_check c;
	const struct f2fs_replay_thread_report *t;

	check_run(run_trace(&merged, &r, &c), &r, &c);
	CHECK_EQ_U64(r.nthreads, 1);
	t = &r.threads[0];
	CHECK_EQ_U64(t->ops, TRACE_OPS);
	CHECK_EQ_U64(t->rounds, 1);
	CHECK_EQ_U64(t->fsyncs, TRACE_FSYNCS);
	CHECK_EQ_U64(t->nfsync_samples, TRACE_FSYNCS);
	CHECK_EQ_U64(r.user_bytes, TRACE_BYTES);
	/* every byte written reached the device before the end (more: nodes, dentries) */
	CHECK(r.bytes[0] >= TRACE_BYTES);
	/* /d/a is left, with what both writes put there */
	CHECK_EQ_U64(r.files, 1);
	CHECK_EQ_U64(r.file_bytes, 384 * KIB);
	/* the failed ops, by error, in the order they first failed */
	CHECK_EQ_U64(t->errors, 3);
	CHECK_EQ_U64(t->first_error, -ENOENT);
	CHECK_EQ_U64(t->first_error_line, FIRST_FAILURE);
	CHECK_EQ_U64(t->nerror_kinds, 2);
	CHECK_EQ_U64(t->error_kinds[0].error, -ENOENT);
	CHECK_EQ_U64(t->error_kinds[0].count, 2);
	CHECK_EQ_U64(t->error_kinds[1].error, -ENOTEMPTY);
	CHECK_EQ_U64(t->error_kinds[1].count, 1);
	f2fs_replay_report_free(&r);
}

/*
 * Merged, the checkpoints an fsync asks for are written by the checkpoint
 * thread, in its own class, after it wakes (500 to 1000 us later: the only
 * time that passes on this clock); unmerged, by the fsync's own thread in
 * its class, at once.  The same checkpoints either way: one thread's
 * requests never share one.
 */
static void test_checkpoint_merge_moves_checkpoints(void)
{
	struct f2fs_replay_report on, off;
	struct close_check c;

	check_run(run_trace(&merged, &on, &c), &on, &c);
	check_run(run_trace(&unmerged, &off, &c), &off, &c);
	CHECK(on.cp_requested > 0);
	CHECK_EQ_U64(on.cp_requested, off.cp_requested);
	CHECK_EQ_U64(on.cp_issued, off.cp_issued);
	CHECK_EQ_U64(on.cp_merged, 0);
	CHECK(on.class_writes[F2FS_RP_CLASSES] > 0); /* the checkpoint thread's class */
	CHECK_EQ_U64(off.class_writes[F2FS_RP_CLASSES], 0);
	CHECK(off.class_writes[F2FS_RP_CLASS_FG] > on.class_writes[F2FS_RP_CLASS_FG]);
	CHECK(on.threads[0].fsync_max_ms >= 0.5 && on.threads[0].fsync_max_ms <= 1.0);
	CHECK(on.cp_wait_avg_ms >= 0.5 && on.cp_wait_peak_ms <= 1.0);
	CHECK(off.threads[0].fsync_max_ms == 0 && off.cp_wait_peak_ms == 0);
	printf("  merge on: %llu checkpoints, fsync max %.3f ms; off: fsync max %.3f ms\n",
	       (unsigned long long)on.cp_issued, on.threads[0].fsync_max_ms,
	       off.threads[0].fsync_max_ms);
	f2fs_replay_report_free(&on);
	f2fs_replay_report_free(&off);
}

/* A (positive) time of the report in ns, exactly: the stepped clock counts whole ns. */
static uint64_t ns_of(double s)
{
	return (uint64_t)(s * 1e9 + 0.5);
}

/*
 * With a device model the clock also moves by the device's service, and
 * the times still repeat (the queue waits do not: when a request was
 * queued, against the dispatcher's steps, is the host's doing).  Merged,
 * the run takes what it takes unmerged, the device doing the same work,
 * plus the checkpoint thread's wake-ups, which are all a merged run without
 * a model takes.
 */
static void test_model_times_repeat_and_merge_adds_wakeups(void)
{
	struct f2fs_replay_report on, again, off, wakeups;
	struct close_check c;

	check_run(run_trace(&merged_model, &on, &c), &on, &c);
	check_run(run_trace(&merged_model, &again, &c), &again, &c);
	check_run(run_trace(&unmerged_model, &off, &c), &off, &c);
	check_run(run_trace(&merged, &wakeups, &c), &wakeups, &c);
	CHECK(same_times(&on, &again));
	CHECK(off.elapsed_s > 0.010); /* the device's time: the clock is the model's */
	CHECK(wakeups.elapsed_s > 0);
	CHECK_EQ_U64(ns_of(on.elapsed_s) - ns_of(off.elapsed_s), ns_of(wakeups.elapsed_s));
	printf("  model: merged %.6f s, unmerged %.6f s, wake-ups %.6f s\n", on.elapsed_s,
	       off.elapsed_s, wakeups.elapsed_s);
	f2fs_replay_report_free(&on);
	f2fs_replay_report_free(&again);
	f2fs_replay_report_free(&off);
	f2fs_replay_report_free(&wakeups);
}

int main(void)
{
	/* an engine that hangs fails the program instead of the whole run */
	alarm(120);
	RUN(test_two_runs_report_the_same);
	RUN(test_report_counts_the_trace);
	RUN(test_checkpoint_merge_moves_checkpoints);
	RUN(test_model_times_repeat_and_merge_adds_wakeups);
	TEST_EXIT();
}
