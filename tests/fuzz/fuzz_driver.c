// SPDX-License-Identifier: GPL-2.0
/*
 * The common half of the fuzz targets (see fuzz_driver.h): the seed images
 * are formatted with f2fs_mkfs_format() into memory devices on the first
 * input, with fixed times and checkpoint versions, so two runs build the
 * same images but for the UUID mkfs picks and the checksums over it; an
 * input is overlaid on its image's block list, run by the target and
 * undone.  Without -DUSE_LIBFUZZER main() is the standalone driver: it
 * replays files, writes the seed corpus, or generates iterations of random
 * mutations from a splitmix64 stream reseeded from SEED and the iteration
 * number for each input, aimed and chosen as the target's fuzz_target
 * says.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/device.h"
#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"

#include "fuzz_driver.h"

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_LSAN 1
#endif
#endif
#ifdef HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define BLK FUZZ_BLK

void fuzz_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", fuzz_target.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void fuzz_read_block(const struct fuzz_image *img, uint64_t blk, void *buf)
{
	if (f2fs_dev_read(img->dev, buf, blk * BLK, BLK))
		fuzz_die("seed %s: read of block %llu failed", img->name, (unsigned long long)blk);
}

void fuzz_write_block(const struct fuzz_image *img, uint64_t blk, const void *buf)
{
	if (f2fs_dev_write(img->dev, buf, blk * BLK, BLK))
		fuzz_die("seed %s: write of block %llu failed", img->name, (unsigned long long)blk);
}

/* ---- the seed images ---- */

static void format_image(unsigned int k)
{
	struct fuzz_image *img = fuzz_target.images[k];
	struct f2fs_mkfs_config cfg;
	struct f2fs_layout l;
	struct f2fs_mkfs_result res;
	char why[200] = "";
	uint32_t i;

	f2fs_mkfs_config_init(&cfg);
	cfg.geometry.total_sectors = img->bytes / 512;
	cfg.geometry.segs_per_sec = img->segs_per_sec ? img->segs_per_sec : 1;
	if (f2fs_layout_compute(&cfg.geometry, &l, why, sizeof(why)))
		fuzz_die("seed %s: layout: %s", img->name, why);
	cfg.features = 0;
	if (img->features && *img->features &&
	    f2fs_feature_parse(img->features, &cfg.features, why, sizeof(why)))
		fuzz_die("seed %s: features: %s", img->name, why);
	cfg.fixed_time = 1700000000;
	cfg.fixed_cp_version = true;
	cfg.discard = false;
	snprintf(cfg.kernel_version, sizeof(cfg.kernel_version), "fuzz seed");
	if (f2fs_dev_open_memory(img->bytes, &img->dev))
		fuzz_die("seed %s: no memory for the device", img->name);
	if (f2fs_mkfs_format(img->dev, &cfg, &l, &res))
		fuzz_die("seed %s: mkfs failed", img->name);
	fuzz_target.build(k, cfg.features, &l);
	img->orig = malloc((size_t)img->nblocks * BLK);
	if (!img->orig)
		fuzz_die("out of memory");
	for (i = 0; i < img->nblocks; i++)
		fuzz_read_block(img, img->blk[i], img->orig + (size_t)i * BLK);
}

static void init_images(void)
{
	static bool done;
	unsigned int k;

	if (done)
		return;
	for (k = 0; k < fuzz_target.nr_images; k++)
		format_image(k);
	done = true;
}

/* Overlay the input on its image, run it, put the blocks back. */
static void run_input(const uint8_t *data, size_t size)
{
	struct fuzz_image *img;
	unsigned int flags, k;
	uint8_t blk[BLK];
	size_t i, n, len;

	init_images();
	if (size < 1)
		return;
	flags = data[0];
	k = (flags & fuzz_target.image_mask) % fuzz_target.nr_images;
	img = fuzz_target.images[k];
	data++;
	size--;
	n = (size + BLK - 1) / BLK;
	if (n > img->nblocks)
		n = img->nblocks;
	for (i = 0; i < n; i++) {
		len = size - i * BLK < BLK ? size - i * BLK : BLK;
		memcpy(blk, img->orig + i * BLK, BLK);
		memcpy(blk, data + i * BLK, len);
		if (fuzz_target.seal)
			fuzz_target.seal(k, blk, img->role[i], flags);
		fuzz_write_block(img, img->blk[i], blk);
	}
	fuzz_target.run(k, flags, data, size);
	for (i = 0; i < n; i++)
		fuzz_write_block(img, img->blk[i], img->orig + i * BLK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_input(data, size);
	return 0;
}

/* ---- random numbers and mutators ---- */

static uint64_t rng_state;

uint64_t fuzz_rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t fuzz_rnd_below(uint32_t n)
{
	return n ? (uint32_t)(fuzz_rnd() % n) : 0;
}

#ifndef USE_LIBFUZZER
/* ---- standalone driver ---- */

static void put_le(uint8_t *p, size_t room, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes && i < room; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* One mutation of input @buf (@size bytes, on image @img) at @ofs. */
static void mutate(const struct fuzz_image *img, uint8_t *buf, size_t size, size_t ofs)
{
	const struct fuzz_mutations *mu = &fuzz_target.mutate;

	switch (mu->ops[fuzz_rnd_below(mu->nr_ops)]) {
	case FUZZ_FLIP:
		buf[ofs] ^= (uint8_t)(1u << fuzz_rnd_below(8));
		break;
	case FUZZ_BYTE:
		buf[ofs] = (uint8_t)fuzz_rnd();
		break;
	case FUZZ_MAGIC16:
		put_le(buf + ofs, size - ofs, mu->magic[fuzz_rnd_below(mu->nr_magic)], 2);
		break;
	case FUZZ_MAGIC32:
		put_le(buf + ofs, size - ofs, mu->magic[fuzz_rnd_below(mu->nr_magic)], 4);
		break;
	case FUZZ_MAGIC: {
		/* the width first: the order gcc gave the arguments of one call */
		unsigned int bytes = fuzz_rnd_below(2) ? 4 : 2;

		put_le(buf + ofs, size - ofs, mu->magic[fuzz_rnd_below(mu->nr_magic)], bytes);
		break;
	}
	case FUZZ_SMALL:
		put_le(buf + ofs, size - ofs, fuzz_rnd_below(4096), 4);
		break;
	case FUZZ_VALUE:
		put_le(buf + ofs, size - ofs, img->values[fuzz_rnd_below(img->nvalues)], 4);
		break;
	case FUZZ_NUDGE: {
		uint32_t w = 0;
		unsigned int i;

		for (i = 0; i < 4 && ofs + i < size; i++)
			w |= (uint32_t)buf[ofs + i] << (8 * i);
		w += fuzz_rnd_below(2 * mu->nudge + 1) - mu->nudge;
		put_le(buf + ofs, size - ofs, w, 4);
		break;
	}
	case FUZZ_FILL: {
		size_t len = 1 + fuzz_rnd_below(mu->fill);

		if (len > size - ofs)
			len = size - ofs;
		memset(buf + ofs, fuzz_rnd_below(2) ? 0 : 0xff, len);
		break;
	}
	}
}

/* The unmutated input of @img with flags byte @flags into @buf; returns its size. */
static size_t seed_input(const struct fuzz_image *img, uint8_t flags, uint8_t *buf)
{
	buf[0] = flags;
	memcpy(buf + 1, img->orig, (size_t)img->nblocks * BLK);
	return 1 + (size_t)img->nblocks * BLK;
}

/* Input @iter of the run with @seed into @buf; returns its size. */
static size_t make_input(uint64_t seed, uint64_t iter, uint8_t *buf)
{
	const struct fuzz_image *img;
	unsigned int k;
	uint32_t nmut, m;
	uint8_t flags;
	size_t size;

	rng_state = seed * 0x100000001b3ull ^ (iter + 1) * 0xcbf29ce484222325ull;
	fuzz_rnd();
	flags = fuzz_target.random_flags();
	k = (flags & fuzz_target.image_mask) % fuzz_target.nr_images;
	img = fuzz_target.images[k];
	size = seed_input(img, flags, buf);
	nmut = 1 +
	       fuzz_rnd_below(fuzz_rnd_below(4) ? fuzz_target.mutate.few : fuzz_target.mutate.many);
	for (m = 0; m < nmut; m++)
		mutate(img, buf, size, fuzz_target.aim(k));
	if (fuzz_rnd_below(16) == 0)
		size = 1 + fuzz_rnd_below((uint32_t)size); /* a prefix only */
	return size;
}

static int write_file(const char *path, const uint8_t *buf, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -errno;
	if (fwrite(buf, 1, size, f) != size) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t cap = 1 + (size_t)fuzz_target.max_chunks * BLK, size;

	if (!f) {
		perror(path);
		return 1;
	}
	buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return 1;
	}
	size = fread(buf, 1, cap, f);
	fclose(f);
	run_input(buf, size);
	free(buf);
	return 0;
}

static void usage(void)
{
	const char *t = fuzz_target.name;

	fprintf(stderr,
		"usage: %s FILE...\n"
		"       %s -n N [-s SEED] [-f FIRST] [-S SAVE] [-q]\n"
		"       %s -C DIR\n",
		t, t, t);
	exit(2);
}

static void free_images(void)
{
	unsigned int k;

	for (k = 0; k < fuzz_target.nr_images; k++) {
		struct fuzz_image *img = fuzz_target.images[k];

		f2fs_dev_close(img->dev);
		free(img->orig);
		img->dev = NULL;
		img->orig = NULL;
	}
}

static int write_corpus(const char *dir, uint8_t *buf)
{
	char path[4096];
	unsigned int k;
	int rc = 0;

	for (k = 0; k < fuzz_target.nr_images; k++) {
		const struct fuzz_image *img = fuzz_target.images[k];
		size_t size = seed_input(img, (uint8_t)(k | fuzz_target.corpus_flags), buf);

		snprintf(path, sizeof(path), "%s/seed-%s", dir, img->name);
		if (write_file(path, buf, size)) {
			perror(path);
			rc = 1;
		}
	}
	return rc;
}

/* Iterations @first..@first+@n-1 of run @seed; 0, or 1 when SAVE cannot be written. */
static int run_random(uint64_t seed, uint64_t first, uint64_t n, const char *save, bool quiet,
		      uint8_t *buf)
{
	uint64_t i;

	for (i = first; i < first + n; i++) {
		size_t size = make_input(seed, i, buf);

		if (save && write_file(save, buf, size)) {
			perror(save);
			return 1;
		}
		run_input(buf, size);
#ifdef HAVE_LSAN
		/* leaks show up per window, not only at exit */
		if ((i + 1 - first) % 500 == 0 && __lsan_do_recoverable_leak_check())
			fuzz_die("leak within iterations %llu..%llu (seed %llu)",
				 (unsigned long long)(i >= first + 499 ? i - 499 : first),
				 (unsigned long long)i, (unsigned long long)seed);
#endif
		if (!quiet && (i + 1 - first) % 1000 == 0)
			printf("%llu iterations\n", (unsigned long long)(i + 1 - first));
	}
	printf("%s: %llu iterations from %llu, seed %llu: ok\n", fuzz_target.name,
	       (unsigned long long)n, (unsigned long long)first, (unsigned long long)seed);
	fuzz_target.report();
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = 0, seed = 1, first = 0;
	const char *save = NULL, *corpus = NULL;
	bool quiet = false, random_mode = false;
	uint8_t *buf;
	int a, rc = 0;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-q")) {
			quiet = true;
			continue;
		}
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "-n")) {
			n = strtoull(argv[++a], NULL, 0);
			random_mode = true;
		} else if (!strcmp(argv[a], "-s")) {
			seed = strtoull(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "-f")) {
			first = strtoull(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "-S")) {
			save = argv[++a];
		} else if (!strcmp(argv[a], "-C")) {
			corpus = argv[++a];
		} else {
			usage();
		}
	}
	init_images();
	buf = malloc(1 + (size_t)fuzz_target.max_chunks * BLK);
	if (!buf)
		return 1;
	if (corpus) {
		rc = write_corpus(corpus, buf);
	} else if (!random_mode) {
		if (a >= argc)
			usage();
		for (; a < argc; a++) {
			if (!quiet)
				printf("running %s\n", argv[a]);
			rc |= run_file(argv[a]);
		}
	} else {
		if (a != argc)
			usage();
		rc = run_random(seed, first, n, save, quiet, buf);
	}
	free(buf);
	free_images();
	return rc;
}
#endif
