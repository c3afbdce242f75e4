// SPDX-License-Identifier: GPL-2.0
/*
 * Defragmentation (lib/write/defrag.c) on in-memory images.  A file is
 * written in pieces interleaved with another, a checkpoint after each
 * pair, and the other removed: its blocks alternate with gaps.  Moving the
 * segments it spans must leave them without a valid block, give the file
 * contiguous blocks in the target area (up from the target, or down with
 * shrink), keep its bytes (read back through lib/read) and leave a volume
 * the checker finds clean.  The request's defaults and refusals are
 * checked on their own, and a refused request must change no byte.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/sit.h"
#include "f2fs/write.h"
#include "test.h"
#include "write_fixture.h"

#define PIECES 16
#define PIECE  16384 /* four blocks */
#define FBLKS  (PIECES * PIECE / 4096)

struct frag {
	struct fixture fx;
	uint32_t ino;
	uint8_t want[PIECES * PIECE];
};

static bool make_fragmented(struct frag *f)
{
	struct f2fs_fs *fs;
	uint8_t other[PIECE];
	uint32_t ino2;
	int i, ret = 0;

	if (!wfx_format(&f->fx, 256ULL << 20, NULL, 1) || !wfx_open_rw(&f->fx, &fs))
		return false;
	wfx_fill(f->want, sizeof(f->want), 7);
	wfx_fill(other, sizeof(other), 9);
	ret = wfx_create(fs, WFX_ROOT, "frag", S_IFREG | 0644, &f->ino);
	if (!ret)
		ret = wfx_create(fs, WFX_ROOT, "other", S_IFREG | 0644, &ino2);
	for (i = 0; i < PIECES && !ret; i++) {
		ret = f2fs_pwrite(fs, f->ino, f->want + i * PIECE, PIECE, (uint64_t)i * PIECE);
		if (!ret)
			ret = f2fs_pwrite(fs, ino2, other, PIECE, (uint64_t)i * PIECE);
		if (!ret)
			ret = wfx_checkpoint(fs, false);
	}
	if (!ret)
		ret = f2fs_unlink(fs, WFX_ROOT, "other", 5);
	if (!ret)
		ret = wfx_checkpoint(fs, true);
	f2fs_fs_close(fs);
	return ret == 0;
}

/* The file's lowest and highest block, and whether its blocks are consecutive. */
static bool file_span(struct frag *f, uint64_t *lo, uint64_t *hi)
{
	struct f2fs_fs *fs;
	bool consecutive = true;
	uint64_t b;

	if (!fixture_fs_open(&f->fx, &fs))
		return false;
	*lo = UINT64_MAX;
	*hi = 0;
	for (b = 0; b < FBLKS; b++) {
		uint64_t a = wfx_file_block_addr(fs, f->ino, b);

		consecutive &= b == 0 || a == *hi + 1;
		*lo = a < *lo ? a : *lo;
		*hi = a > *hi ? a : *hi;
	}
	f2fs_fs_close(fs);
	return consecutive;
}

/* Valid blocks the SIT gives the segments of [start, start + len). */
static uint64_t valid_in(struct frag *f, uint64_t start, uint64_t len)
{
	const struct f2fs_sit_table *sit;
	struct f2fs_fs *fs;
	uint64_t n = 0, b;

	if (!fixture_fs_open(&f->fx, &fs) || f2fs_fs_sit(fs, &sit))
		return UINT64_MAX;
	for (b = start; b < start + len; b += 512)
		n += f2fs_sit_seg(sit, f2fs_geo_segno(f2fs_fs_geo(fs), b))->valid;
	f2fs_fs_close(fs);
	return n;
}

static int defrag(struct frag *f, struct f2fs_defrag_request *req, struct f2fs_defrag_report *rep)
{
	struct f2fs_fs *fs;
	char why[300] = "";
	int ret;

	if (!wfx_open_rw(&f->fx, &fs))
		return -EIO;
	ret = f2fs_defrag_resolve(fs, req, why, sizeof(why));
	if (!ret)
		ret = f2fs_defrag(fs, req, rep, why, sizeof(why));
	f2fs_fs_close(fs);
	return ret;
}

/* The segments the file spans, as a request. */
static struct f2fs_defrag_request span_request(struct frag *f, bool shrink)
{
	uint64_t lo, hi, main = f->fx.l.main_blkaddr;
	struct f2fs_defrag_request req = {.shrink = shrink};

	file_span(f, &lo, &hi);
	req.start = main + (lo - main) / 512 * 512;
	req.len = (hi - req.start) / 512 * 512 + 512;
	return req;
}

static void test_gathers(void)
{
	struct frag *f = calloc(1, sizeof(*f));
	struct f2fs_defrag_report rep;
	struct f2fs_defrag_request req;
	uint64_t lo, hi;

	CHECK(f && make_fragmented(f));
	CHECK(!file_span(f, &lo, &hi));
	req = span_request(f, false);
	CHECK_EQ_U64(defrag(f, &req, &rep), 0);
	CHECK(rep.valid >= FBLKS);
	CHECK_EQ_U64(rep.moved, rep.valid);
	CHECK_EQ_U64(rep.left, 0);
	CHECK_EQ_U64(valid_in(f, req.start, req.len), 0);
	CHECK(file_span(f, &lo, &hi));
	CHECK(lo >= req.start + req.len);
	CHECK(wfx_reads_back(&f->fx, f->ino, f->want, sizeof(f->want)));
	CHECK_EQ_U64(wfx_problems(&f->fx), 0);
	/* and back down, below where it is now */
	req = span_request(f, true);
	CHECK_EQ_U64(defrag(f, &req, &rep), 0);
	CHECK_EQ_U64(valid_in(f, req.start, req.len), 0);
	CHECK(file_span(f, &lo, &hi));
	CHECK(hi < req.start);
	CHECK(wfx_reads_back(&f->fx, f->ino, f->want, sizeof(f->want)));
	CHECK_EQ_U64(wfx_problems(&f->fx), 0);
	CHECK_EQ_U64(fixture_free(&f->fx), 0);
	free(f);
}

static void test_resolve(void)
{
	struct frag *f = calloc(1, sizeof(*f));
	struct f2fs_defrag_request req = {0};
	struct f2fs_fs *fs;
	uint64_t main, end;
	char why[300];

	CHECK(f && wfx_format(&f->fx, 64ULL << 20, NULL, 1) && fixture_fs_open(&f->fx, &fs));
	main = f2fs_fs_geo(fs)->main_blkaddr;
	end = f2fs_fs_geo(fs)->main_end;
	/* upstream's defaults: the main area's first segment, moved just past itself */
	CHECK_EQ_U64(f2fs_defrag_resolve(fs, &req, why, sizeof(why)), 0);
	CHECK_EQ_U64(req.start, main);
	CHECK_EQ_U64(req.len, 512);
	CHECK_EQ_U64(req.target, main + 512);
	/* a length past the end is cut there; shrink's target is just before */
	req = (struct f2fs_defrag_request){.start = end - 100, .len = 1000, .shrink = true};
	CHECK_EQ_U64(f2fs_defrag_resolve(fs, &req, why, sizeof(why)), 0);
	CHECK_EQ_U64(req.len, 100);
	CHECK_EQ_U64(req.target, end - 101);
	req = (struct f2fs_defrag_request){.start = end};
	CHECK_EQ_U64(f2fs_defrag_resolve(fs, &req, why, sizeof(why)), -EINVAL);
	req = (struct f2fs_defrag_request){.start = main, .len = 1024, .target = main + 5};
	CHECK_EQ_U64(f2fs_defrag_resolve(fs, &req, why, sizeof(why)), -EINVAL);
	req = (struct f2fs_defrag_request){.start = main + 512, .target = main - 1};
	CHECK_EQ_U64(f2fs_defrag_resolve(fs, &req, why, sizeof(why)), -EINVAL);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&f->fx), 0);
	free(f);
}

static void test_no_room_writes_nothing(void)
{
	struct frag *f = calloc(1, sizeof(*f));
	struct f2fs_defrag_report rep;
	struct f2fs_defrag_request req;
	uint8_t *before = malloc(256u << 20), *after = malloc(256u << 20);
	uint64_t b;

	CHECK(f && before && after && make_fragmented(f));
	req = span_request(f, false);
	req.target = f->fx.l.main_blkaddr + (uint64_t)f->fx.l.segment_count_main * 512 - 512;
	for (b = 0; b < (256u << 20) / 4096; b++)
		CHECK(fixture_read_blk(&f->fx, b, before + b * 4096));
	CHECK_EQ_U64(defrag(f, &req, &rep), -ENOSPC);
	for (b = 0; b < (256u << 20) / 4096; b++)
		CHECK(fixture_read_blk(&f->fx, b, after + b * 4096));
	CHECK(!memcmp(before, after, 256u << 20));
	CHECK_EQ_U64(fixture_free(&f->fx), 0);
	free(before);
	free(after);
	free(f);
}

int main(void)
{
	RUN(test_resolve);
	RUN(test_gathers);
	RUN(test_no_room_writes_nothing);
	TEST_EXIT();
}
