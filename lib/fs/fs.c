// SPDX-License-Identifier: GPL-2.0
/*
 * The filesystem handle (f2fs/fs.h): the volume's chosen superblock and
 * checkpoint, and the tables behind them loaded on first use, each once.
 * Dependencies between the tables live here and nowhere else: the SIT, NAT
 * and SSA need the checkpoint pack's contents (journals, version bitmaps,
 * open-log summaries), so asking for any of them loads the pack first.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "fs_internal.h"

void fs_say(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !why_len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
}

static void no_lock(void *arg, enum f2fs_fs_lock which, uint32_t ino, bool exclusive)
{
	(void)arg;
	(void)which;
	(void)ino;
	(void)exclusive;
}

static const struct f2fs_fs_lock_ops no_locks = {.lock = no_lock, .unlock = no_lock};

/*
 * Writing needs every table, and a volume the kernel would write on: one
 * that the kernel did not stop with an error.
 */
static int open_for_write(struct f2fs_fs *fs, char *why, size_t why_len)
{
	int ret;

	if (le32_get(f2fs_fs_cp(fs)->ckpt_flags) & CP_ERROR_FLAG) {
		snprintf(why, why_len, "checkpoint: the error flag is set; run fsck.f2fs first");
		return -EUCLEAN;
	}
	ret = f2fs_fs_load_all(fs);
	if (ret)
		snprintf(why, why_len, "%s", fs->why);
	return ret;
}

/* What the handle read from the device, dropped (the write path's state with it). */
static void drop_loaded(struct f2fs_fs *fs)
{
	if (fs->wr_free)
		fs->wr_free(fs->wr);
	fs->wr = NULL;
	fs->wr_free = NULL;
	f2fs_ssa_free(fs->ssa);
	f2fs_nat_free(fs->nat);
	f2fs_sit_free(fs->sit);
	f2fs_cp_data_free(fs->cpd);
	f2fs_volume_close(fs->vol);
	fs->ssa = NULL;
	fs->nat = NULL;
	fs->sit = NULL;
	fs->cpd = NULL;
	fs->vol = NULL;
	fs->cpd_slot = fs->sit_slot = fs->nat_slot = fs->ssa_slot = (struct fs_slot){0};
	fs->why[0] = '\0';
}

/* Read the volume on fs->dev as fs->flags say: superblocks, checkpoint, and for writing the rest.
 */
static int load_volume(struct f2fs_fs *fs, char *why, size_t why_len)
{
	int ret =
	    f2fs_volume_open(fs->dev, fs->flags & F2FS_FS_SHORT_DEVICE, &fs->vol, why, why_len);

	if (ret)
		return ret;
	fs->features = le32_get(f2fs_volume_sb(fs->vol)->feature);
	f2fs_geometry_init(&fs->geo, f2fs_volume_sb(fs->vol));
	fs_read_zone_capacity(fs);
	if ((fs->flags & (F2FS_FS_WRITE | F2FS_FS_ROLL_BACK)) == F2FS_FS_WRITE &&
	    (f2fs_volume_rejected(fs->vol) & F2FS_REJECTED_CP_NEWEST)) {
		snprintf(why, why_len, "%s (fsck.f2fs -y rolls it back)",
			 f2fs_volume_rejected_why(fs->vol, F2FS_REJECTED_CP));
		return -EUCLEAN;
	}
	return fs->flags & F2FS_FS_WRITE ? open_for_write(fs, why, why_len) : 0;
}

int f2fs_fs_open(struct f2fs_device *dev, unsigned int flags, struct f2fs_fs **out, char *why,
		 size_t why_len)
{
	struct f2fs_fs *fs;
	int ret;

	*out = NULL;
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	fs->dev = dev;
	fs->flags = flags;
	fs->lock_ops = no_locks;
	ret = load_volume(fs, why, why_len);
	if (ret) {
		f2fs_fs_close(fs);
		return ret;
	}
	*out = fs;
	return 0;
}

int f2fs_fs_reload(struct f2fs_fs *fs, unsigned int flags, char *why, size_t why_len)
{
	drop_loaded(fs);
	fs->flags = flags;
	return load_volume(fs, why, why_len);
}

unsigned int f2fs_fs_flags(const struct f2fs_fs *fs)
{
	return fs->flags;
}

int f2fs_fs_new(struct f2fs_device *dev, const struct f2fs_super_block *sb,
		const struct f2fs_checkpoint *cp, struct f2fs_fs **out)
{
	struct f2fs_fs *fs = calloc(1, sizeof(*fs));
	int ret;

	*out = NULL;
	if (!fs)
		return -ENOMEM;
	fs->dev = dev;
	fs->flags = F2FS_FS_WRITE;
	fs->features = le32_get(sb->feature);
	f2fs_geometry_init(&fs->geo, sb);
	fs_read_zone_capacity(fs);
	fs->lock_ops = no_locks;
	/* as if pack 1 were current: the first checkpoint goes to pack 0 */
	ret = f2fs_volume_new(dev, sb, cp, 1, &fs->vol);
	if (!ret)
		ret = f2fs_cp_data_new(sb, cp, &fs->cpd);
	if (!ret)
		ret = f2fs_sit_new_empty(sb, &fs->sit);
	if (!ret)
		f2fs_sit_exclude_unusable(fs->sit, &fs->geo, NULL);
	if (!ret)
		ret = f2fs_nat_new_empty(sb, &fs->nat);
	if (!ret)
		ret = f2fs_ssa_open(dev, sb, fs->cpd, &fs->ssa);
	fs->cpd_slot.tried = fs->sit_slot.tried = fs->nat_slot.tried = fs->ssa_slot.tried = true;
	if (ret) {
		f2fs_fs_close(fs);
		return ret;
	}
	*out = fs;
	return 0;
}

void f2fs_fs_close(struct f2fs_fs *fs)
{
	if (!fs)
		return;
	drop_loaded(fs);
	free(fs);
}

struct f2fs_device *f2fs_fs_dev(const struct f2fs_fs *fs)
{
	return fs->dev;
}

const struct f2fs_volume *f2fs_fs_volume(const struct f2fs_fs *fs)
{
	return fs->vol;
}

const struct f2fs_super_block *f2fs_fs_sb(const struct f2fs_fs *fs)
{
	return f2fs_volume_sb(fs->vol);
}

const struct f2fs_checkpoint *f2fs_fs_cp(const struct f2fs_fs *fs)
{
	return f2fs_volume_cp(fs->vol);
}

const struct f2fs_geometry *f2fs_fs_geo(const struct f2fs_fs *fs)
{
	return &fs->geo;
}

uint32_t f2fs_fs_features(const struct f2fs_fs *fs)
{
	return fs->features;
}

uint64_t f2fs_fs_device_blocks(const struct f2fs_fs *fs)
{
	return f2fs_volume_device_blocks(fs->vol);
}

bool f2fs_fs_truncated(const struct f2fs_fs *fs)
{
	return f2fs_volume_truncated(fs->vol);
}

int f2fs_fs_read_blocks(struct f2fs_fs *fs, uint64_t blkaddr, void *buf, uint32_t count)
{
	uint64_t end = f2fs_volume_device_blocks(fs->vol);

	if (blkaddr >= end || count > end - blkaddr)
		return -ENXIO;
	return f2fs_dev_read(fs->dev, buf, f2fs_blk_to_bytes(&fs->geo, blkaddr),
			     (size_t)count << fs->geo.blk.log_blksize);
}

const char *f2fs_fs_why(const struct f2fs_fs *fs)
{
	return fs->why;
}

/* Run a load once: later calls return the first call's result. */
static int load_once(struct fs_slot *slot, int ret)
{
	slot->tried = true;
	slot->err = ret;
	return ret;
}

int f2fs_fs_cp_data(struct f2fs_fs *fs, const struct f2fs_cp_data **out)
{
	*out = fs->cpd;
	if (fs->cpd_slot.tried)
		return fs->cpd_slot.err;
	load_once(&fs->cpd_slot, f2fs_cp_data_load(fs->vol, &fs->cpd, fs->why, sizeof(fs->why)));
	*out = fs->cpd;
	return fs->cpd_slot.err;
}

int f2fs_fs_sit(struct f2fs_fs *fs, const struct f2fs_sit_table **out)
{
	const struct f2fs_cp_data *cpd;
	int ret;

	*out = fs->sit;
	if (fs->sit_slot.tried)
		return fs->sit_slot.err;
	ret = f2fs_fs_cp_data(fs, &cpd);
	if (!ret)
		ret =
		    f2fs_sit_load(fs->dev, f2fs_fs_sb(fs), cpd, &fs->sit, fs->why, sizeof(fs->why));
	if (!ret)
		f2fs_sit_exclude_unusable(fs->sit, &fs->geo, cpd);
	*out = fs->sit;
	return load_once(&fs->sit_slot, ret);
}

int f2fs_fs_nat(struct f2fs_fs *fs, const struct f2fs_nat_table **out)
{
	const struct f2fs_cp_data *cpd;
	int ret;

	*out = fs->nat;
	if (fs->nat_slot.tried)
		return fs->nat_slot.err;
	ret = f2fs_fs_cp_data(fs, &cpd);
	if (!ret)
		ret = f2fs_nat_load(fs->dev, f2fs_fs_sb(fs), f2fs_fs_cp(fs),
				    f2fs_volume_cp_start(fs->vol), cpd, &fs->nat, fs->why,
				    sizeof(fs->why));
	*out = fs->nat;
	return load_once(&fs->nat_slot, ret);
}

int f2fs_fs_ssa(struct f2fs_fs *fs, struct f2fs_ssa **out)
{
	const struct f2fs_cp_data *cpd;
	int ret;

	*out = fs->ssa;
	if (fs->ssa_slot.tried)
		return fs->ssa_slot.err;
	ret = f2fs_fs_cp_data(fs, &cpd);
	if (!ret) {
		ret = f2fs_ssa_open(fs->dev, f2fs_fs_sb(fs), cpd, &fs->ssa);
		if (ret == -ENOMEM)
			snprintf(fs->why, sizeof(fs->why), "SSA: out of memory");
		else if (ret)
			snprintf(fs->why, sizeof(fs->why),
				 "SSA: segment_count_ssa too small for the main area");
	}
	*out = fs->ssa;
	return load_once(&fs->ssa_slot, ret);
}

int f2fs_fs_load_all(struct f2fs_fs *fs)
{
	const struct f2fs_sit_table *sit;
	const struct f2fs_nat_table *nat;
	struct f2fs_ssa *ssa;
	int ret;

	ret = f2fs_fs_sit(fs, &sit);
	if (!ret)
		ret = f2fs_fs_nat(fs, &nat);
	if (!ret)
		ret = f2fs_fs_ssa(fs, &ssa);
	return ret;
}

void f2fs_fs_set_lock_ops(struct f2fs_fs *fs, const struct f2fs_fs_lock_ops *ops)
{
	fs->lock_ops = ops ? *ops : no_locks;
}

void f2fs_fs_set_progress(struct f2fs_fs *fs, f2fs_progress_fn fn, void *arg)
{
	fs->progress_fn = fn;
	fs->progress_arg = arg;
}

void f2fs_fs_progress(struct f2fs_fs *fs, unsigned int pass, unsigned int passes, const char *name,
		      uint64_t done, uint64_t total)
{
	struct f2fs_progress p = {pass, passes, name, done, total};

	if (!fs->progress_fn)
		return;
	/* the first and last call of a pass, and every step of it between */
	if (done != 0 && done != total && done % (total / F2FS_PROGRESS_STEPS + 1))
		return;
	fs->progress_fn(&p, fs->progress_arg);
}
