/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The undo journal (e2fsprogs' undo_io.c and e2undo are the model).  A
 * device layer stacked on the device a tool writes: before the first
 * write, zero or discard that reaches a 4 KiB block, it appends what the
 * block held to a journal file and makes the journal durable (fdatasync),
 * and only then lets the request down.  Every tool that writes through a
 * struct f2fs_device gets it by stacking it (mkfs, sload, inject, fsck's
 * repairs).  f2fs_undo_apply() later writes the saved blocks back, which
 * gives the device its contents from before the run, byte for byte.
 *
 * The journal: a 4 KiB header (magic "F2FSUNDO", version, the device's
 * size, the F2FS UUID on it before the run and, once the layer is closed,
 * after it, a CRC-32), then records in the order they were made, each a
 * 32-byte header (first block, block count, data CRC, sequence, its own
 * CRC) and, for a data record, the blocks.  Runs of blocks that held only
 * zeros are zero records without data.  A block is saved once, at its
 * first change, so records never overlap.
 *
 * Crash safety: a record is durable before the device sees the change it
 * covers, so a journal cut short (the tool crashed or the machine lost
 * power) still holds the original of every block the device may have
 * changed; only its last record can be incomplete, and applying skips it.
 * A journal whose header, or any record but the last, fails its CRC is
 * refused as a whole, before the device is touched.
 *
 * A device whose size is not a multiple of 4 KiB has a partial last block:
 * the part on the device is saved and restored.  The layer serves one
 * request at a time (it keeps no lock): stack it where requests come from
 * one thread.
 */
#ifndef F2FS_UNDO_H
#define F2FS_UNDO_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/device.h"

#define F2FS_UNDO_VERSION 1

/* What is wrong with a journal or with the device it is applied to: data, not text. */
enum f2fs_undo_problem {
	F2FS_UNDO_OK,
	F2FS_UNDO_NOT_JOURNAL,	  /* no journal magic: not an undo journal */
	F2FS_UNDO_BAD_VERSION,	  /* a journal version this build does not know */
	F2FS_UNDO_HEADER_CRC,	  /* the header fails its checksum */
	F2FS_UNDO_RECORD_CORRUPT, /* a record before the last fails its checksum */
	F2FS_UNDO_DEVICE_SIZE,	  /* the device is not the size the journal was made on */
	F2FS_UNDO_WRONG_FS,	  /* the device's F2FS is not the one the run left */
	F2FS_UNDO_UNFINISHED_FS,  /* cut short, and the device's F2FS is not the one before */
	F2FS_UNDO_APPLIED,	  /* the device already holds what the journal restores */
	F2FS_UNDO_CHANGED,	  /* the blocks it restores changed since the run */
};

/* What f2fs_undo_inspect() found in a journal. */
struct f2fs_undo_summary {
	enum f2fs_undo_problem problem;
	uint64_t problem_at; /* RECORD_CORRUPT: the bad record's byte offset in the journal */
	bool finished;	     /* the layer was closed: the run ended */
	bool torn_tail;	     /* the last record is incomplete and is skipped */
	uint64_t device_bytes;
	uint64_t records;	      /* complete records */
	uint64_t blocks;	      /* blocks they restore, zero records' included */
	uint64_t zero_blocks;	      /* of those, blocks restored as zeros */
	bool f2fs_before, f2fs_after; /* an F2FS superblock was there (after: finished only) */
	uint8_t uuid_before[16], uuid_after[16];
	/*
	 * Fingerprints of the blocks the journal restores: as the run left
	 * them (has_state: a finished journal of this version) and as the
	 * journal restores them
	 */
	bool has_state;
	uint32_t state_after, state_before;
};

/*
 * Stack an undo journal on @lower: create @journal (an existing file is
 * replaced, as e2fsprogs' tools do), write and sync its header, and return
 * the stacked device in *@out, which owns @lower.  Closing *@out marks the
 * journal finished with the device's F2FS UUID at that point.  A request
 * whose originals cannot be saved fails with that error and never reaches
 * @lower.  Returns 0 or a negative errno (-EEXIST when @journal is the
 * device itself); on failure @lower is left to the caller.
 */
int f2fs_undo_stack(struct f2fs_device *lower, const char *journal, struct f2fs_device **out);

/*
 * Read and verify @journal whole (headers and data CRCs).  Returns 0 with
 * *@s filled, s->problem saying whether it can be applied; or a negative
 * errno when it cannot be read.
 */
int f2fs_undo_inspect(const char *journal, struct f2fs_undo_summary *s);

/*
 * May the journal of @s be applied to @dev?  F2FS_UNDO_OK, or why not:
 * the device's size must be the journal's, and its F2FS (or its having
 * none) the one the run left; for a journal cut short, the one before the
 * run.  Returns 0 or a negative errno when @dev cannot be read.
 */
int f2fs_undo_check_device(const struct f2fs_undo_summary *s, struct f2fs_device *dev,
			   enum f2fs_undo_problem *why);

/*
 * Do the blocks @journal restores hold on @dev what the run left there?
 * F2FS_UNDO_OK, F2FS_UNDO_APPLIED when they hold what the journal restores
 * (it was applied already), F2FS_UNDO_CHANGED when they hold something
 * else (a later run wrote them: applying would mix two states).  A journal
 * without the run's fingerprint (cut short, or older) passes.  Reads every
 * such block; returns 0 or a negative errno.
 */
int f2fs_undo_check_state(const char *journal, const struct f2fs_undo_summary *s,
			  struct f2fs_device *dev, enum f2fs_undo_problem *why);

/*
 * Write every complete record of @journal back to @dev and flush it.
 * Verifies the journal first and writes nothing unless s->problem is OK
 * (s may be NULL); the device check is the caller's (with a force option,
 * it may skip it).  Returns 0 or a negative errno; -EINVAL for a journal
 * with a problem.
 */
int f2fs_undo_apply(const char *journal, struct f2fs_device *dev, struct f2fs_undo_summary *s);

#endif
