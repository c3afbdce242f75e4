/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' shared fixture: an f2fs image formatted by f2fs_mkfs_format
 * on an in-memory device, with its superblock and first checkpoint block
 * read back, and block-sized reads and writes of it.
 *
 * Plain use:
 *
 *	struct fixture fx;
 *
 *	CHECK(fixture_format(&fx, 64ull << 20, "extra_attr", false));
 *	...
 *	CHECK_EQ_U64(fixture_free(&fx), 0);
 *
 * A test that needs another configuration calls the steps itself:
 * fixture_init(), then edits fx.cfg (geometry, features, label, uuid,
 * discard), fixture_open(), anything it wants on the empty device, then
 * fixture_mkfs().
 *
 * Tests that build structures by hand take unused main-area blocks with
 * fixture_free_blk(), point nids at them with fixture_nat_set(), and edit
 * the checkpoint's journals with fixture_edit_journal(); those find the
 * current pack and NAT copy through f2fs_fs_open(), as a reader would.
 * fixture_fail_reads() makes chosen blocks unreadable.
 *
 * The functions do not record failures themselves (test.h's counters are
 * private to each test program): they return false (or an error), print the
 * step that failed and why on stderr, and the caller CHECKs the result.
 */
#ifndef NG_FIXTURE_H
#define NG_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/blkgeo.h"
#include "f2fs/device.h"
#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"

/* The time every fixture image is stamped with (cfg.fixed_time). */
#define FIXTURE_TIME 1700000000

/* Reads touching blocks [first, first + count) fail with err (count 0: none do). */
struct fixture_fault {
	uint64_t first, count;
	int err;
	unsigned int hits; /* reads failed so far */
	uint32_t blksize;  /* the volume's, set by fixture_fail_reads() */
};

struct fixture {
	struct f2fs_device *dev;     /* the memory device, NULL until fixture_open() */
	uint64_t bytes;		     /* its size */
	struct f2fs_mkfs_config cfg; /* what fixture_mkfs() formats with */
	struct f2fs_layout l;	     /* computed from cfg.geometry by fixture_open() */
	uint32_t blksize;	     /* the volume's block size, from fx->l */
	struct f2fs_mkfs_result res; /* f2fs_mkfs_format's result */
	int ret;		     /* f2fs_mkfs_format's return value */
	struct f2fs_super_block sb;  /* superblock copy 0, as written */
	uint32_t blocks_taken;	     /* by fixture_free_blk() */
	struct fixture_fault fault;  /* used once fixture_fail_reads() stacked its layer */
	union {
		struct f2fs_checkpoint cp; /* the first block of checkpoint pack 1 */
		uint8_t cp_blk[F2FS_MAX_BLKSIZE];
	};
};

/*
 * Reset @fx and set the defaults of an image of @bytes: the mkfs defaults,
 * with a fixed time, a reproducible checkpoint version and the kernel
 * version "unit test".  cfg.discard keeps the mkfs default.
 */
void fixture_init(struct fixture *fx, uint64_t bytes);

/* Add the comma-separated feature names @list (NULL: none) to fx->cfg. */
bool fixture_features(struct fixture *fx, const char *list);

/* Compute fx->l from fx->cfg.geometry and open the (zeroed) memory device. */
bool fixture_open(struct fixture *fx);

/* Format the open device with fx->cfg, then read back fx->sb and fx->cp. */
bool fixture_mkfs(struct fixture *fx);

/*
 * All the steps at once: an image of @bytes with the features @list (NULL:
 * the defaults) and cfg.discard = @discard.
 */
bool fixture_format(struct fixture *fx, uint64_t bytes, const char *list, bool discard);

/* Read or write block @blkaddr of the device (fx->blksize bytes at @buf). */
bool fixture_read_blk(struct fixture *fx, uint64_t blkaddr, void *buf);
bool fixture_write_blk(struct fixture *fx, uint64_t blkaddr, const void *buf);

/*
 * Read the block after pack 1's checkpoint block and payload: the compacted
 * summary (NAT then SIT journal) of a freshly formatted image.
 */
bool fixture_read_sum(struct fixture *fx, void *buf);

/* Open the device through the handle; prints the reason when that fails. */
bool fixture_fs_open(struct fixture *fx, struct f2fs_fs **fs);

/* Node @nid's NAT entry, as a read-only handle sees it: false when there is none. */
bool fixture_nat_entry(struct fixture *fx, uint32_t nid, struct f2fs_nat_info *out);

/* The block the NAT gives node @nid, as a read-only handle sees it (0: none). */
uint64_t fixture_node_blk(struct fixture *fx, uint32_t nid);

/*
 * The next main-area block nothing uses: from the end of the main area
 * down, skipping the open logs' segments.  Nothing is written.
 */
uint64_t fixture_free_blk(struct fixture *fx);

/*
 * Make the NAT say @nid belongs to inode @ino at @blkaddr (0: free): in the
 * current pack's NAT journal when the nid is there, else in the current
 * copy of its NAT block.
 */
bool fixture_nat_set(struct fixture *fx, uint32_t nid, uint32_t ino, uint32_t blkaddr);

/* Let @edit change the NAT (@sit false) or SIT journal of the current pack in place. */
bool fixture_edit_journal(struct fixture *fx, bool sit,
			  void (*edit)(struct f2fs_journal *j, void *arg), void *arg);

/*
 * Stack a layer on fx->dev (which it becomes) that fails the reads
 * fx->fault names; fx->fault starts out failing nothing (err -EIO).
 */
bool fixture_fail_reads(struct fixture *fx);

/* Close the device (none open is fine); returns f2fs_dev_close's result. */
int fixture_free(struct fixture *fx);

#endif
