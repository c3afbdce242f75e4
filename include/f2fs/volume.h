/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an existing volume for reading: pick a valid superblock (the
 * primary in block 0, else the secondary in block 1) and the newer valid
 * checkpoint pack.  Every on-disk field the later read path uses as an
 * address or index is range-checked here, so a corrupted image fails with a
 * one-line reason instead of reading out of bounds.
 */
#ifndef F2FS_VOLUME_H
#define F2FS_VOLUME_H

#include <stddef.h>
#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/format.h"

struct f2fs_volume;

/*
 * Read and validate the superblocks and checkpoint of @dev.  The volume
 * keeps a pointer to @dev (it does not own it).  Returns 0 and *out, or a
 * negative errno: -EINVAL when no usable superblock or checkpoint exists,
 * -EIO (or another device error) when a read failed, -ENOMEM.  On failure
 * @why holds one line naming the structure and field, for example
 * "superblock: both copies invalid: #0: magic 0x00000000 is not 0xf2f52010; ...".
 */
int f2fs_volume_open(struct f2fs_device *dev, struct f2fs_volume **out, char *why, size_t why_len);

/* Free the volume (NULL is fine); the device stays open. */
void f2fs_volume_close(struct f2fs_volume *v);

/* The chosen superblock and the first block of the chosen checkpoint pack. */
const struct f2fs_super_block *f2fs_volume_sb(const struct f2fs_volume *v);
const struct f2fs_checkpoint *f2fs_volume_cp(const struct f2fs_volume *v);

/* Which copy was chosen: superblock 0 (block 0) or 1; checkpoint pack 0 or 1. */
int f2fs_volume_sb_index(const struct f2fs_volume *v);
int f2fs_volume_cp_index(const struct f2fs_volume *v);

/* The chosen checkpoint's version, and the block address its pack starts at. */
uint64_t f2fs_volume_cp_version(const struct f2fs_volume *v);
uint32_t f2fs_volume_cp_start(const struct f2fs_volume *v);

/* The device the volume was opened on. */
struct f2fs_device *f2fs_volume_device(const struct f2fs_volume *v);

/*
 * One line about a copy that was rejected (superblock and/or checkpoint
 * pack) while the other one was used, or NULL when both copies were fine.
 */
const char *f2fs_volume_warning(const struct f2fs_volume *v);

#endif
