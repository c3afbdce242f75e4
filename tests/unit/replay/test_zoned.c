// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine on the emulated host-managed device: the built-in
 * workloads run through the scheduler onto zones that refuse any write
 * not at their pointer, so the scheduler's zone order and the write
 * path's zone rules are both exercised.  A run closes its device; a small
 * layer under the scheduler checks the volume on the memory device just
 * before it goes, so each case also ends with the checker's verdict.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "f2fs/check.h"
#include "f2fs/device.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/replay.h"
#include "f2fs/zone.h"
#include "test.h"
#include "zoned_fixture.h"

#define MIB  (1024ull * 1024)
#define ZONE (8 * MIB) /* four segments */

/* What the checking layer found when the run closed the device. */
struct close_check {
	struct f2fs_device *mem;
	int opened;
	uint64_t problems;
	uint32_t seq_zones_written;
};

static void show_problem(const struct f2fs_problem *p, void *arg)
{
	(void)arg;
	fprintf(stderr, "problem %s: %s\n", f2fs_problem_info(p->code)->name, p->detail);
}

static int count_written(const struct f2fs_zone *z, void *arg)
{
	struct close_check *c = arg;

	if (f2fs_zone_is_seq(z) && z->wp > z->start)
		c->seq_zones_written++;
	return 0;
}

static void check_on_release(void *priv)
{
	struct close_check *c = priv;
	struct f2fs_check_options o = {.on_problem = show_problem};
	struct f2fs_check_result r;
	struct f2fs_fs *fs = NULL;
	char why[256] = "";

	c->opened = f2fs_fs_open(c->mem, F2FS_FS_READ, &fs, why, sizeof(why));
	if (c->opened) {
		fprintf(stderr, "open at close: %s\n", why);
		return;
	}
	if (f2fs_check(fs, &o, &r) == 0)
		c->problems = r.problems;
	else
		c->problems = UINT64_MAX;
	f2fs_fs_close(fs);
	f2fs_dev_for_each_zone(c->mem, count_written, c);
}

static const struct f2fs_dev_layer_ops checking_layer = {.release = check_on_release};

/* 512 MiB in 8 MiB zones, the first 8 conventional, formatted with -m; checked when closed. */
static struct f2fs_device *zoned_volume(struct close_check *c)
{
	struct f2fs_device *mem = NULL, *dev = NULL;
	struct f2fs_layout l;

	CHECK(zoned_fixture_hm(8, 14, &l, &mem) == 0);
	memset(c, 0, sizeof(*c));
	c->mem = mem;
	c->opened = -1;
	CHECK(mem && f2fs_dev_stack(mem, &checking_layer, c, &dev) == 0);
	return dev;
}

/*
 * The ZNS shape: a 64 MiB regular device for the metadata and 512 MiB of
 * 8 MiB zones of which 6 MiB are writable, as one volume; checked when
 * closed.
 */
static struct f2fs_device *zns_volume(struct close_check *c)
{
	struct f2fs_device *vol = NULL, *dev = NULL;
	struct f2fs_layout l;

	CHECK(zoned_fixture_zns(14, &l, &vol) == 0);
	memset(c, 0, sizeof(*c));
	c->mem = vol;
	c->opened = -1;
	CHECK(vol && f2fs_dev_stack(vol, &checking_layer, c, &dev) == 0);
	return dev;
}

/* Run generator @name with @gp on a fresh zoned volume: no error, data read back, clean. */
static void run_on_zones(const char *name, const struct f2fs_replay_gen_params *gp,
			 const struct f2fs_replay_policy *pol, struct f2fs_replay_report *rep,
			 struct close_check *c)
{
	struct f2fs_replay_workload wl;
	struct f2fs_device *dev = zoned_volume(c);
	char why[256] = "";
	size_t i;
	int ret;

	f2fs_replay_workload_init(&wl, name);
	CHECK(f2fs_replay_generate(name, gp, &wl, why, sizeof(why)) == 0);
	ret = f2fs_replay_run(dev, &wl, pol, NULL, NULL, rep, why, sizeof(why));
	if (ret)
		fprintf(stderr, "%s: %s\n", name, why);
	CHECK_EQ_U64(ret, 0);
	for (i = 0; i < rep->nthreads; i++)
		CHECK_EQ_U64(rep->threads[i].errors, 0);
	CHECK(rep->verified_files > 0);
	CHECK_EQ_U64(rep->verify_failures, 0);
	CHECK_EQ_U64(c->opened, 0);
	CHECK_EQ_U64(c->problems, 0);
	f2fs_replay_workload_free(&wl);
}

/*
 * Eight writers at once: their data shares the warm data log, the flusher
 * and fsyncs queue into it from different contexts, and every write must
 * still reach its zone at the pointer.
 */
static void test_tiotest_on_zones(void)
{
	struct f2fs_replay_gen_params gp = {.threads = 8, .file_size = 6 * MIB};
	struct f2fs_replay_policy pol;
	struct f2fs_replay_report rep;
	struct close_check c;

	f2fs_replay_policy_default(&pol);
	pol.model_mbps = 400; /* queues build up, and contexts' writes interleave in them */
	run_on_zones("tiotest", &gp, &pol, &rep, &c);
	/* 48 MiB of data: zones of their own but the first section's conventional one */
	CHECK(c.seq_zones_written >= 5);
	CHECK(rep.zone_resets == 0); /* nothing was freed */
	printf("  tiotest: %.3f s, %llu writes held for their zone's order\n", rep.elapsed_s,
	       (unsigned long long)rep.zone_ordered_writes);
	f2fs_replay_report_free(&rep);
}

/*
 * ckpt-storm's thread B overwrites a file larger than a zone again and
 * again: whole sections go invalid, are freed at a checkpoint and reset
 * before they are written again.  The report counts the resets, and a
 * modelled reset cost shows in their time.
 */
static void test_resets_counted_and_costed(void)
{
	struct f2fs_replay_gen_params gp = {.count = 200, .file_size = 24 * MIB};
	struct f2fs_replay_policy pol;
	struct f2fs_replay_report rep;
	struct close_check c;

	f2fs_replay_policy_default(&pol);
	pol.model_zone_reset_ms = 2;
	run_on_zones("ckpt-storm", &gp, &pol, &rep, &c);
	CHECK(rep.zone_resets > 0);
	CHECK(rep.zone_reset_bytes == rep.zone_resets * ZONE);
	/* each reset took at least the model's 2 ms */
	CHECK(rep.zone_mgmt_ms >= 2.0 * (double)rep.zone_resets);
	printf("  ckpt-storm: %llu zone resets (%.0f MiB) in %.1f ms, %llu finishes\n",
	       (unsigned long long)rep.zone_resets, (double)rep.zone_reset_bytes / MIB,
	       rep.zone_mgmt_ms, (unsigned long long)rep.zone_finishes);
	f2fs_replay_report_free(&rep);
}

/*
 * What the guest job replays, smaller: a writer of big files that deletes
 * all but the last two, beside a looping thread of small fsynced files.
 * Deleted files free whole sections, which are reset.
 */
static void delete_trace_on(struct f2fs_device *(*make)(struct close_check *), const char *what)
{
	char trace[4096];
	struct f2fs_replay_parse_error err;
	struct f2fs_replay_workload wl;
	struct f2fs_replay_policy pol;
	struct f2fs_replay_report rep;
	struct close_check c;
	struct f2fs_device *dev;
	char why[256] = "";
	size_t n;
	FILE *f;
	int i;

	n = (size_t)snprintf(trace, sizeof(trace),
			     "0 x bg+loop create /x%%n\n- x bg+loop write /x%%n 64K\n"
			     "- x bg+loop fsync /x%%n\n- x bg+loop unlink /x%%n\n");
	for (i = 0; i < 8; i++) {
		n += (size_t)snprintf(
		    trace + n, sizeof(trace) - n,
		    "- w fg create /f%d\n- w fg write /f%d 24M\n- w fg fsync /f%d\n", i, i, i);
		if (i >= 2)
			n += (size_t)snprintf(trace + n, sizeof(trace) - n, "- w fg unlink /f%d\n",
					      i - 2);
		n += (size_t)snprintf(trace + n, sizeof(trace) - n, "- w fg sync\n");
	}
	f = fmemopen(trace, n, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	f2fs_replay_workload_init(&wl, "trace");
	CHECK(f2fs_replay_trace_read(f, "zoned.trace", &wl, &err) == 0);
	fclose(f);
	f2fs_replay_policy_default(&pol);
	dev = make(&c);
	CHECK(f2fs_replay_run(dev, &wl, &pol, NULL, NULL, &rep, why, sizeof(why)) == 0);
	if (why[0])
		fprintf(stderr, "run: %s\n", why);
	for (n = 0; n < rep.nthreads; n++) {
		if (rep.threads[n].errors)
			fprintf(stderr, "thread %s: %llu errors, the first: %s (trace line %u)\n",
				rep.threads[n].name, (unsigned long long)rep.threads[n].errors,
				strerror(-rep.threads[n].first_error),
				rep.threads[n].first_error_line);
		CHECK_EQ_U64(rep.threads[n].errors, 0);
	}
	CHECK_EQ_U64(rep.verify_failures, 0);
	CHECK_EQ_U64(c.opened, 0);
	CHECK_EQ_U64(c.problems, 0);
	CHECK(rep.zone_resets > 0);
	printf("  delete trace on %s: %.3f s, %llu zone resets, %llu writes held\n", what,
	       rep.elapsed_s, (unsigned long long)rep.zone_resets,
	       (unsigned long long)rep.zone_ordered_writes);
	f2fs_replay_report_free(&rep);
	f2fs_replay_workload_free(&wl);
}

static void test_delete_trace_on_zones(void)
{
	delete_trace_on(zoned_volume, "one host-managed device");
}

/* The same on the ZNS shape: sections end at the zone's capacity, metadata on the regular device.
 */
static void test_delete_trace_on_zns(void)
{
	delete_trace_on(zns_volume, "a regular device and ZNS");
}

int main(void)
{
	/* an engine that hangs fails the program instead of the whole run */
	alarm(300);
	RUN(test_tiotest_on_zones);
	RUN(test_resets_counted_and_costed);
	RUN(test_delete_trace_on_zones);
	RUN(test_delete_trace_on_zns);
	TEST_EXIT();
}
