/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz targets of tests/fuzz/ share: seed images formatted once
 * into memory devices, inputs that overlay a list of their blocks, the
 * standalone driver that runs such inputs without libFuzzer, and the
 * random numbers and mutators it builds them with.
 *
 * An input is one flags byte followed by 4 KiB chunks: chunk i replaces
 * block blk[i] of the seed image the flags pick (a short input replaces a
 * prefix of the list, a partial last chunk only its first bytes).  The
 * driver writes the chunks over the image, hands the input to the target,
 * then puts the blocks back, so an iteration costs only what the target
 * does with it.
 *
 * A target defines fuzz_target: its images and their block lists (build),
 * an optional re-sealing of each overlaid block (seal), what it does with
 * an input (run), and for the standalone driver how it mutates its seeds:
 * the flags of an input (random_flags), where each mutation goes (aim) and
 * what it writes (mutate), all from fuzz_rnd*() only, so an iteration
 * depends on SEED and ITER alone (and on the images, whose UUIDs mkfs
 * picks at random); report prints its counts after a run.
 *
 * Built with -DUSE_LIBFUZZER (clang -fsanitize=fuzzer) fuzz_driver.c gives
 * LLVMFuzzerTestOneInput().  Otherwise main() is a standalone driver:
 *   TARGET FILE...          run each file as one input
 *   TARGET -n N [-s SEED] [-f FIRST] [-S SAVE] [-q]
 *                           run iterations FIRST..FIRST+N-1 of random
 *                           mutations of the seed images; with -S each
 *                           input is written to SAVE before it runs (so
 *                           after a crash SAVE reproduces it)
 *   TARGET -C DIR           write the unmutated seed inputs to DIR (a
 *                           starting corpus for libFuzzer)
 * Under ASan a leak check runs every 500 iterations and names the window.
 * Broken invariants of the API contract that are not memory errors abort()
 * through fuzz_die(), so both modes report them as crashes.
 */
#ifndef F2FS_TESTS_FUZZ_DRIVER_H
#define F2FS_TESTS_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/layout.h"

#define FUZZ_BLK	F2FS_BLKSIZE
#define FUZZ_MAX_CHUNKS 64
#define FUZZ_MAX_IMAGES 4
#define FUZZ_MAX_VALUES 64

/* A seed image: how it is formatted, the blocks inputs overlay. */
struct fuzz_image {
	const char *name;
	const char *features;  /* mkfs feature list, NULL or "" for none */
	uint32_t segs_per_sec; /* 0 counts as 1 */
	uint64_t bytes;	       /* device size */
	struct f2fs_device *dev;
	uint32_t nblocks;
	uint64_t blk[FUZZ_MAX_CHUNKS];
	uint8_t role[FUZZ_MAX_CHUNKS];	  /* the target's name for what the block holds */
	uint8_t *orig;			  /* nblocks x FUZZ_BLK: the blocks as built */
	uint32_t values[FUZZ_MAX_VALUES]; /* nids, addresses, offsets: what FUZZ_VALUE writes */
	uint32_t nvalues;
};

/* What one mutation writes where the target aimed it. */
enum fuzz_op {
	FUZZ_FLIP,    /* flip one bit */
	FUZZ_BYTE,    /* a random byte */
	FUZZ_MAGIC16, /* one of magic[], 2 bytes */
	FUZZ_MAGIC32, /* one of magic[], 4 bytes */
	FUZZ_MAGIC,   /* one of magic[], 4 or 2 bytes */
	FUZZ_SMALL,   /* 0..4095, 4 bytes */
	FUZZ_VALUE,   /* one of the image's values[], 4 bytes */
	FUZZ_NUDGE,   /* add -nudge..nudge to a 32-bit field */
	FUZZ_FILL,    /* 1..fill bytes of 0 or 0xff */
};

/* How the standalone driver mutates an input. */
struct fuzz_mutations {
	uint32_t few, many;	 /* 1..few mutations in three inputs of four, else 1..many */
	const enum fuzz_op *ops; /* one picked at random for each mutation */
	unsigned int nr_ops;
	const uint64_t *magic;
	unsigned int nr_magic;
	uint32_t nudge, fill;
};

struct fuzz_target {
	const char *name; /* message prefix and usage */
	struct fuzz_image *images[FUZZ_MAX_IMAGES];
	unsigned int nr_images;
	unsigned int image_mask; /* flags bits that pick the image, modulo nr_images */
	uint32_t max_chunks;	 /* an input holds at most 1 + max_chunks blocks */
	uint8_t corpus_flags;	 /* flags of the seed corpus' inputs, besides the image */
	/* after mkfs: list image @i's blocks (features: what mkfs was given) */
	void (*build)(unsigned int i, uint32_t features, const struct f2fs_layout *l);
	/* optional: fix up overlaid block @b of role @role before it is written */
	void (*seal)(unsigned int i, uint8_t *b, unsigned int role, unsigned int flags);
	/* the input's blocks are on image @i: @data, @size are the chunks */
	void (*run)(unsigned int i, unsigned int flags, const uint8_t *data, size_t size);
	/* standalone: the flags byte of a random input, from fuzz_rnd*() */
	uint8_t (*random_flags)(void);
	/* standalone: the input offset (past the flags byte) of a mutation on image @i */
	size_t (*aim)(unsigned int i);
	struct fuzz_mutations mutate;
	/* standalone: the target's counts after a run */
	void (*report)(void);
};

extern const struct fuzz_target fuzz_target;

void __attribute__((noreturn, format(printf, 1, 2))) fuzz_die(const char *fmt, ...);

void fuzz_read_block(const struct fuzz_image *img, uint64_t blk, void *buf);
void fuzz_write_block(const struct fuzz_image *img, uint64_t blk, const void *buf);

/* The standalone driver's random numbers (splitmix64, one stream an input). */
uint64_t fuzz_rnd(void);
uint32_t fuzz_rnd_below(uint32_t n);

#endif
