// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine's run: it opens the volume under the I/O scheduler
 * (lib/sched), makes the scheduler's contexts, starts the kernel model's
 * threads (kernel.c), makes what the workload needs before it starts, runs
 * the emulated threads (thread.c), then writes everything back, checkpoints
 * as umount does, and fills the report.  Emulated threads run a workload's
 * ops concurrently, as real threads, through the write path; kernel.c
 * plays the parts of the kernel around it that decide how fast they go.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "f2fs/bitops.h"
#include "f2fs/device.h"
#include "f2fs/fs.h"
#include "f2fs/read.h"
#include "f2fs/replay.h"
#include "f2fs/write.h"
#include "f2fs/zone.h"
#include "replay_internal.h"
#include "f2fs/sched.h"

#define SETUP_CHUNK (1u << 20)
#define SETUP_DIRTY (32ull << 20) /* a setup file's pages held before they are written */

void f2fs_replay_policy_default(struct f2fs_replay_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->checkpoint_merge = true;
	p->ckpt_level = 3;
	p->serialize_writepages = true;
	p->wb_chunk_pages = 1;
	p->section_counts = F2FS_SECTION_COUNTS_CACHED;
	p->writeback = F2FS_RP_WB_EXPIRE;
	p->dirty_expire_ms = 30000;
	p->dirty_writeback_ms = 5000;
	p->dirty_background = 64ull << 20;
	p->dirty_limit = 128ull << 20;
	p->weight[F2FS_RP_CLASS_FG] = 100;
	p->weight[F2FS_RP_CLASS_BG] = 20;
	p->flusher_weight = 40;
	p->low_latency = true;
	p->device_queue = 1;
	p->max_request = 512u << 10;
	p->nr_requests = 64;
	p->bfq_budget = 8ull << 20;
	p->slice_idle_ms = 8;
	p->bfq_inject = true;
	p->late_slot_wakeup = true;
	p->ckpt_wakeup_us = 500;
	p->ckpt_wakeup_max_us = 1000;
	p->seed = 1;
}

/* ---- setup and teardown ---- */

static int make_class_contexts(struct rp_engine *e)
{
	int c;

	for (c = 0; c < F2FS_RP_CLASSES; c++) {
		e->flush_ctx[c] = rp_sched_context_new(e->sched, RP_CLASS_FLUSH);
		if (e->flush_ctx[c] < 0)
			return e->flush_ctx[c];
	}
	e->ckpt_ctx = rp_sched_context_new(e->sched, RP_CLASS_CKPT);
	return e->ckpt_ctx < 0 ? e->ckpt_ctx : 0;
}

/*
 * The slots background write-back may hold of @nr: BFQ's async depth
 * (bfq_update_depths) is half of each sbitmap word, whose size
 * sbitmap_calculate_shift() picks as the largest power of two up to 64
 * with four words or more; and one slot is always left to the others.
 */
static unsigned int async_slots(unsigned int nr)
{
	unsigned int shift = 6, words, half;

	while (shift && (4u << shift) > nr)
		shift--;
	words = (nr + (1u << shift) - 1) >> shift;
	half = (1u << shift) / 2 ? (1u << shift) / 2 : 1;
	if (words * half < nr)
		return words * half;
	return nr > 1 ? nr - 1 : 1;
}

static int open_sched(struct rp_engine *e, struct f2fs_device *dev)
{
	struct rp_sched_config cfg;
	const struct f2fs_replay_policy *p = e->pol;
	int c;

	memset(&cfg, 0, sizeof(cfg));
	cfg.nclasses = RP_CLASS_FLUSH + 1;
	for (c = 0; c < F2FS_RP_CLASSES; c++)
		cfg.classes[c].weight = p->weight[c] ? p->weight[c] : 1;
	/* BFQ's weight for a best-effort level: (8 - level) * 10 */
	cfg.classes[RP_CLASS_CKPT].weight = rp_raised_weight(p, (8u - (p->ckpt_level & 7u)) * 10u);
	cfg.classes[RP_CLASS_CKPT].realtime = p->ckpt_realtime;
	/* the root group's async queue: best-effort level 4, charged bfq_async_charge_factor times
	 */
	cfg.classes[RP_CLASS_FLUSH].weight = p->flusher_weight ? p->flusher_weight : 1;
	cfg.classes[RP_CLASS_FLUSH].charge = 3;
	cfg.classes[RP_CLASS_FLUSH].async = true;
	cfg.slots = p->nr_requests;
	cfg.async_slots = async_slots(p->nr_requests);
	cfg.model.mbps = (uint32_t)p->model_mbps;
	cfg.model.iops = (uint32_t)p->model_iops;
	cfg.model.flush_ms = (uint32_t)p->model_flush_ms;
	cfg.model.burst_ms = (uint32_t)p->model_burst_ms;
	cfg.model.zone_reset_ms = (uint32_t)p->model_zone_reset_ms;
	cfg.model.seek_min_us = p->seek_min_us;
	cfg.model.seek_full_us = p->seek_full_us;
	cfg.model.rotation_us = p->rpm ? 60000000u / p->rpm : 0;
	cfg.model.merge_us = p->merge_us;
	cfg.max_write_bytes = p->max_request ? p->max_request : 512u << 10;
	cfg.defer_flush = true;
	cfg.flush_bypass = true;
	/* weight-raised queues, and the checkpoint thread (fast regime): see rp_sched_class.guarded
	 */
	for (c = 0; c < F2FS_RP_CLASSES; c++)
		cfg.classes[c].guarded = p->low_latency;
	cfg.classes[RP_CLASS_CKPT].guarded = true;
	cfg.queue_depth = p->device_queue;
	cfg.budget_bytes = p->bfq_budget;
	cfg.slice_ns = 125000000ull; /* bfq_timeout */
	cfg.slice_idle_ns = (uint64_t)p->slice_idle_ms * 1000000u;
	cfg.inject = p->bfq_inject;
	/*
	 * Not on a zoned device: the kernel schedules those with mq-deadline
	 * and its zone write locks, without BFQ's async depth the late
	 * wake-ups were recorded under
	 */
	cfg.late_slot_wakeup =
	    p->late_slot_wakeup && f2fs_dev_zone_info(dev)->model == F2FS_ZONED_NONE;
	cfg.seed = f2fs_mix64(p->seed ^ 0x51077a4eull);
	cfg.clock = p->clock;
	cfg.log = p->io_log;
	cfg.log_arg = p->io_log_arg;
	return rp_sched_open(dev, &cfg, &e->sched, &e->sdev);
}

static void engine_init(struct rp_engine *e, const struct f2fs_replay_workload *wl,
			const struct f2fs_replay_policy *pol)
{
	memset(e, 0, sizeof(*e));
	e->wl = wl;
	e->pol = pol;
	rp_kernel_init(e);
}

static void engine_destroy(struct rp_engine *e)
{
	free(e->cp_times_s);
	rp_kernel_destroy(e);
	rp_dirty_free(&e->dirty);
	free(e->thread_ctx);
	rp_files_free(e);
}

/* One setup file written in full with its content, written back as it goes. */
static int write_setup_file(struct rp_engine *e, const struct f2fs_replay_setup_file *sf,
			    uint8_t *buf)
{
	uint64_t off;
	uint32_t ino;
	int ret = rp_create_file(e, e->flush_ctx[0], sf->path, &ino);

	for (off = 0; !ret && off < sf->size; off += SETUP_CHUNK) {
		size_t n = sf->size - off < SETUP_CHUNK ? (size_t)(sf->size - off) : SETUP_CHUNK;

		f2fs_replay_content(e->pol->seed, sf->path, off, buf, n);
		rp_enter(e, e->flush_ctx[0]);
		ret = f2fs_pwrite(e->fs, ino, buf, n, off);
		ret = ret ? ret : rp_file_written(e, sf->path, off, n, 0);
		if (!ret && f2fs_dirty_pages(e->fs, ino) * e->blksize >= SETUP_DIRTY)
			ret = f2fs_writepages(e->fs, ino, F2FS_WB_NONE, 0);
		ret = rp_leave(e, ret);
	}
	return ret ? ret : rp_writeback(e, e->flush_ctx[0], ino, F2FS_WB_ALL, UINT64_MAX);
}

/* Directories and files the workload needs before it starts, parents first; not timed. */
static int make_setup_dirs(struct rp_engine *e)
{
	uint8_t *buf = NULL;
	size_t i;
	int ret = 0;

	for (i = 0; i < e->wl->nsetup_dirs && !ret; i++)
		ret = rp_mkdir_p(e, e->flush_ctx[0], e->wl->setup_dirs[i]);
	if (!ret && e->wl->nsetup_files && !(buf = malloc(SETUP_CHUNK)))
		ret = -ENOMEM;
	for (i = 0; i < e->wl->nsetup_files && !ret; i++)
		ret = write_setup_file(e, &e->wl->setup_files[i], buf);
	free(buf);
	if (!ret) {
		bool issued;

		ret = rp_write_checkpoint(e, e->flush_ctx[0], F2FS_CP_SYNC, &issued);
	}
	return ret;
}

/* Everything written back and an unmount checkpoint, as umount does. */
static int finish_volume(struct rp_engine *e)
{
	bool issued;
	int ret = rp_writeback_all(e, e->flush_ctx[0]);

	return ret ? ret : rp_write_checkpoint(e, e->flush_ctx[0], F2FS_CP_UMOUNT, &issued);
}

static void copy_stats(struct rp_engine *e, struct f2fs_replay_report *rep)
{
	const struct f2fs_write_stats *ws = f2fs_write_stats(e->fs);
	int k;

	for (k = 0; k < 3; k++) {
		rep->bytes[k] = ws->bytes[k] - e->base_stats.bytes[k];
		rep->requests[k] = ws->requests[k] - e->base_stats.requests[k];
	}
	rep->user_bytes = ws->user_bytes - e->base_stats.user_bytes;
	rep->flushes = ws->flushes - e->base_stats.flushes;
	rep->gc_runs = ws->gc_runs - e->base_stats.gc_runs;
	rep->gc_blocks_moved = ws->gc_blocks_moved - e->base_stats.gc_blocks_moved;
	rep->gc_sections_freed = ws->gc_sections_freed - e->base_stats.gc_sections_freed;
	rep->space_checks = ws->space_checks - e->base_stats.space_checks;
	if (rep->user_bytes)
		rep->write_amplification = (double)(rep->bytes[0] + rep->bytes[1] + rep->bytes[2]) /
					   (double)rep->user_bytes;
	rep->cp_requested = e->cp_requested;
	rep->cp_issued = e->cp_issued;
	rep->cp_times_s = e->cp_times_s; /* the report's now */
	rep->ncp_times = e->ncp_times;
	e->cp_times_s = NULL;
	e->ncp_times = e->cp_times_cap = 0;
	rep->cp_skipped = e->cp_skipped;
	rep->cp_merged = e->cp_served - e->cp_issued - e->cp_skipped;
	rep->cp_wait_avg_ms = e->cp_requested ? e->cp_wait_total_ms / (double)e->cp_requested : 0;
	rep->cp_wait_peak_ms = e->cp_wait_peak_ms;
}

/* A read-only volume (feature ro) is refused before anything is opened for writing. */
static int refuse_readonly(struct rp_engine *e, char *why, size_t why_len)
{
	struct f2fs_fs *fs;
	bool ro;
	int ret = f2fs_fs_open(e->sdev, 0, &fs, why, why_len);

	if (ret)
		return ret;
	ro = f2fs_fs_features(fs) & F2FS_FEATURE_RO;
	f2fs_fs_close(fs);
	if (!ro)
		return 0;
	snprintf(why, why_len,
		 "the volume is read-only (feature ro): the kernel never writes to it, "
		 "so there is nothing to replay");
	return -EROFS;
}

static uint32_t dirty_node_bound(const struct rp_engine *e)
{
	uint64_t n = 2 * e->pol->dirty_limit / e->blksize;

	return n < 8192 ? 8192 : n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

static int open_volume(struct rp_engine *e, char *why, size_t why_len)
{
	int ret = refuse_readonly(e, why, why_len);

	if (!ret)
		ret = f2fs_fs_open(e->sdev, F2FS_FS_WRITE, &e->fs, why, why_len);
	if (ret)
		return ret;
	e->blksize = f2fs_fs_geo(e->fs)->blk.blksize;
	e->node_ino = le32_get(f2fs_fs_sb(e->fs)->node_ino);
	f2fs_write_set_writeback(e->fs, 0, 0);
	/*
	 * 256 MiB of clean node pages: a host's page cache keeps a workload's
	 * inodes.  Dirty ones are the flusher's (kernel.c, node_writeback),
	 * held here up to twice the dirty limit, which throttles the kernel's
	 * writers long before, as a bound on the engine's memory.
	 */
	f2fs_write_set_node_cache(e->fs, 65536, dirty_node_bound(e));
	f2fs_write_set_section_counts(e->fs, (enum f2fs_section_counts)e->pol->section_counts);
	e->cp_ctx = -1;
	rp_checkpoint_setup(e);
	return 0;
}

static int run_phases(struct rp_engine *e, f2fs_replay_progress_fn progress, void *parg,
		      struct f2fs_replay_report *rep)
{
	int ret = make_class_contexts(e);

	ret = ret ? ret : make_setup_dirs(e);
	if (ret) {
		snprintf(e->why, sizeof(e->why), "setting up the workload's directories: %s",
			 strerror(-ret));
		return ret;
	}
	e->base_stats = *f2fs_write_stats(e->fs);
	ret = rp_kernel_start(e);
	if (!ret) {
		uint64_t t0 = rp_time(e);

		ret = rp_run_threads(e, progress, parg, rep);
		rp_kernel_stop(e);
		if (!ret && !e->fatal)
			ret = finish_volume(e);
		rep->elapsed_s = (double)(rp_time(e) - t0) / 1e9;
	}
	rp_kernel_stop(e);
	if (e->fatal)
		return e->fatal;
	if (ret && !e->why[0])
		snprintf(e->why, sizeof(e->why), "%s", strerror(-ret));
	copy_stats(e, rep);
	return ret;
}

/* The scheduler's figures per class: the workload's, the checkpoint thread's, the flusher's. */
static void sched_report(struct rp_sched *sched, struct f2fs_replay_report *rep)
{
	struct rp_sched_stats st;
	unsigned int c, t;

	rp_sched_get_stats(sched, &st);
	for (c = 0; c < st.nclasses && c < F2FS_RP_IO_CLASSES; c++) {
		const struct rp_sched_counters *k = &st.classes[c];
		uint64_t n;

		rep->class_read_bytes[c] = k->read_bytes;
		rep->class_reads[c] = k->reads;
		rep->class_flushes[c] = k->flushes;
		for (t = 0; t < RP_SCHED_TAGS; t++) {
			rep->class_write_bytes[c] += k->write_bytes[t];
			rep->class_writes[c] += k->writes[t];
		}
		rep->class_bytes[c] = k->read_bytes + rep->class_write_bytes[c];
		n = k->reads + rep->class_writes[c] + k->flushes;
		rep->class_requests[c] = n;
		rep->class_wait_avg_ms[c] = n ? (double)k->wait_ns / 1e6 / (double)n : 0;
		rep->class_wait_max_ms[c] = (double)k->max_wait_ns / 1e6;
	}
	rep->zone_resets = st.zone_resets;
	rep->zone_reset_bytes = st.zone_reset_bytes;
	rep->zone_finishes = st.zone_finishes;
	rep->zone_mgmt_ms = (double)st.zone_mgmt_ns / 1e6;
	rep->zone_ordered_writes = st.zone_held_writes;
	rep->head = st.seeks || st.merged;
	rep->seeks = st.seeks;
	rep->seek_s = (double)st.seek_ns / 1e9;
	rep->merged_requests = st.merged;
}

int f2fs_replay_run(struct f2fs_device *dev, const struct f2fs_replay_workload *wl,
		    const struct f2fs_replay_policy *pol, f2fs_replay_progress_fn progress,
		    void *progress_arg, struct f2fs_replay_report *rep, char *why, size_t why_len)
{
	struct rp_engine *e = malloc(sizeof(*e));
	int ret, sret;

	memset(rep, 0, sizeof(*rep));
	rep->zoned = f2fs_dev_zone_info(dev)->model != F2FS_ZONED_NONE;
	snprintf(rep->workload, sizeof(rep->workload), "%s", wl->name);
	if (!e) {
		f2fs_dev_close(dev);
		return -ENOMEM;
	}
	engine_init(e, wl, pol);
	ret = open_sched(e, dev);
	if (ret) {
		f2fs_dev_close(dev);
		snprintf(why, why_len, "I/O scheduler: %s", strerror(-ret));
		engine_destroy(e);
		free(e);
		return ret;
	}
	ret = open_volume(e, why, why_len);
	if (!ret) {
		ret = run_phases(e, progress, progress_arg, rep);
		if (!ret)
			ret = rp_files_report(e, rep);
		f2fs_fs_close(e->fs);
		e->fs = NULL;
		/* the classes' figures are the workload's: before the files are read back */
		rp_sched_drain(e->sched);
		sched_report(e->sched, rep);
		if (!ret)
			ret = rp_read_pass_and_verify(e, rep);
		if (ret && e->why[0])
			snprintf(why, why_len, "%s", e->why);
	}
	sret = rp_sched_drain(e->sched);
	if (!ret && sret) {
		ret = sret;
		snprintf(why, why_len, "device: %s", strerror(-sret));
	}
	f2fs_dev_close(e->sdev);
	engine_destroy(e);
	free(e);
	return ret;
}
