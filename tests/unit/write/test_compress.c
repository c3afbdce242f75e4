// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed files (lib/write/compress.c) as they land on the device.  A
 * file of four-block clusters is written with clusters of known
 * compressibility -- text, a little noise and many zeros, all noise, all
 * zeros, a partial last one -- and after a checkpoint its addresses, as
 * lib/read walks them, must follow the kernel's layout: COMPRESS_ADDR,
 * the blocks LZ4 needed, NEW_ADDR for the saved slots; plain blocks for a
 * cluster LZ4 does not shrink and for the partial one.  i_compr_blocks
 * counts the saved slots, i_blocks every slot.  Each compressed cluster is
 * decoded here straight from its blocks, the file read back through the
 * write path and through lib/read (which decompresses), and the checker,
 * which counts each cluster's reservation, must find the volume clean.
 * The same with LZO; and released (the kernel's release ioctl), the saved
 * slots are NULL_ADDR, their blocks back in the volume, the inode marked
 * and refusing writes, the contents unchanged.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/compress.h"
#include "f2fs/endian.h"
#include "f2fs/geometry.h"
#include "f2fs/node.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "test.h"
#include "write_fixture.h"

#define BLK	    F2FS_BLKSIZE
#define CLUSTER	    4 /* blocks: log_cluster_size 2, the kernel's default */
#define CLUSTER_LEN (CLUSTER * BLK)
#define MAX_BLOCKS  64

/* What a cluster holds, and so how it is stored. */
enum kind {
	TEXT,	/* compresses to one block: three slots saved */
	SPARSE, /* 6 KiB of noise, zeros after: two blocks, two slots saved */
	NOISE,	/* LZ4 cannot shrink it: plain */
	ZEROS,	/* one block */
};

/* One slot as the test expects it: COMPRESS_ADDR, NEW_ADDR, or a main-area block (0). */
#define MAIN 0u

static void fill_text(uint8_t *buf, size_t len)
{
	static const char words[] = "the quick brown fox jumps over the lazy dog ";
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)words[i % (sizeof(words) - 1)];
}

static void fill_cluster(uint8_t *buf, enum kind k, uint32_t seed)
{
	memset(buf, 0, CLUSTER_LEN);
	switch (k) {
	case TEXT:
		fill_text(buf, CLUSTER_LEN);
		break;
	case SPARSE:
		wfx_fill(buf, 6144, seed);
		break;
	case NOISE:
		wfx_fill(buf, CLUSTER_LEN, seed);
		break;
	case ZEROS:
		break;
	}
}

/* The blocks LZ4 stores a cluster of each kind in (0: it is stored plain). */
static const unsigned int stored_blocks[] = {[TEXT] = 1, [SPARSE] = 2, [NOISE] = 0, [ZEROS] = 1};

/* The slots a cluster of @k takes, in order; how many. */
static unsigned int expected_slots(enum kind k, uint32_t *slots)
{
	unsigned int i;

	for (i = 0; i < CLUSTER; i++)
		slots[i] = MAIN;
	if (!stored_blocks[k])
		return CLUSTER;
	slots[0] = F2FS_COMPRESS_ADDR;
	for (i = 1 + stored_blocks[k]; i < CLUSTER; i++)
		slots[i] = F2FS_NEW_ADDR;
	return CLUSTER;
}

/* What i_compr_blocks counts for a cluster of @k: the marker and the slots left unwritten. */
static unsigned int saved_slots(enum kind k)
{
	return stored_blocks[k] ? CLUSTER - stored_blocks[k] : 0;
}

/* A file's layout: its clusters, then @tail bytes of text (a partial cluster). */
struct layout {
	enum kind kinds[8];
	unsigned int nclusters;
	size_t tail;
	bool lzo; /* LZO, else LZ4 */
};

static unsigned int layout_algo(const struct layout *l)
{
	return l->lzo ? F2FS_COMPRESS_LZO : F2FS_COMPRESS_LZ4;
}

static size_t layout_len(const struct layout *l)
{
	return (size_t)l->nclusters * CLUSTER_LEN + l->tail;
}

static void layout_fill(const struct layout *l, uint8_t *buf)
{
	unsigned int c;

	for (c = 0; c < l->nclusters; c++)
		fill_cluster(buf + (size_t)c * CLUSTER_LEN, l->kinds[c], c + 1);
	fill_text(buf + (size_t)l->nclusters * CLUSTER_LEN, l->tail);
}

/* Every slot of the file, as expected; the count. */
static unsigned int layout_slots(const struct layout *l, uint32_t *slots)
{
	unsigned int c, n = 0, i;

	for (c = 0; c < l->nclusters; c++)
		n += expected_slots(l->kinds[c], slots + n);
	for (i = 0; i < (l->tail + BLK - 1) / BLK; i++)
		slots[n++] = MAIN;
	return n;
}

static uint64_t layout_saved(const struct layout *l)
{
	uint64_t n = 0;
	unsigned int c;

	for (c = 0; c < l->nclusters; c++)
		n += saved_slots(l->kinds[c]);
	return n;
}

/* The file's addresses as lib/read walks them (NULL ones skipped: none are expected). */
struct walk {
	uint32_t addr[MAX_BLOCKS];
	unsigned int n;
	bool in_order;
	bool gaps; /* NULL slots expected: file blocks only increase */
	uint64_t last;
};

static int note_addr(uint64_t file_block, uint32_t blkaddr, void *arg)
{
	struct walk *w = arg;

	if (w->n == MAX_BLOCKS)
		return -ERANGE;
	w->in_order &= w->gaps ? !w->n || file_block > w->last : file_block == w->n;
	w->last = file_block;
	w->addr[w->n++] = blkaddr;
	return 0;
}

static bool walk_file(struct fixture *fx, uint32_t ino, struct f2fs_node *n, struct walk *w)
{
	bool gaps = w->gaps;
	struct f2fs_fs *fs;
	int ret;

	memset(w, 0, sizeof(*w));
	w->in_order = true;
	w->gaps = gaps;
	if (!fixture_fs_open(fx, &fs))
		return false;
	ret = f2fs_read_inode(fs, ino, n);
	if (!ret)
		ret = f2fs_file_for_each_block(fs, n, note_addr, w);
	f2fs_fs_close(fs);
	return !ret && w->in_order;
}

static bool slot_is(uint32_t got, uint32_t want, const struct f2fs_geometry *g)
{
	return want == MAIN ? f2fs_geo_in_main(g, got) : got == want;
}

/* Does @ino's node tree hold @l's slots, and its inode the counts they make? */
static bool stored_as(struct fixture *fx, uint32_t ino, const struct layout *l)
{
	uint32_t want[MAX_BLOCKS];
	unsigned int n = layout_slots(l, want), i;
	struct f2fs_geometry g;
	struct f2fs_node node;
	struct walk w = {.gaps = false};
	bool ok;

	f2fs_geometry_init(&g, &fx->sb);
	if (!walk_file(fx, ino, &node, &w))
		return false;
	ok = w.n == n;
	for (i = 0; ok && i < n; i++)
		ok = slot_is(w.addr[i], want[i], &g);
	if (!ok)
		fprintf(stderr, "  inode %u: %u slots, expected %u; slot %u is 0x%x\n", ino, w.n, n,
			i ? i - 1 : 0, w.addr[i ? i - 1 : 0]);
	ok &= le64_get(node.i.i_compr_blocks) == layout_saved(l);
	ok &= le64_get(node.i.i_blocks) == 1 + n;
	ok &= (le32_get(node.i.i_flags) & F2FS_COMPR_FL) &&
	      node.i.i_compress_algorithm == layout_algo(l) && node.i.i_log_cluster_size == 2;
	if (!ok)
		fprintf(stderr, "  inode %u: i_compr_blocks %llu (%llu), i_blocks %llu (%u)\n", ino,
			(unsigned long long)le64_get(node.i.i_compr_blocks),
			(unsigned long long)layout_saved(l),
			(unsigned long long)le64_get(node.i.i_blocks), 1 + n);
	return ok;
}

/* Decode the compressed cluster whose slots are @slots, here: @want's bytes? */
static bool decodes_to(struct fixture *fx, const struct layout *l, const uint32_t *slots,
		       const uint8_t *want)
{
	uint8_t in[CLUSTER_LEN], out[CLUSTER_LEN];
	unsigned int k;

	for (k = 1; k < CLUSTER && slots[k] != F2FS_NEW_ADDR; k++)
		if (!fixture_read_blk(fx, slots[k], in + (size_t)(k - 1) * BLK))
			return false;
	return !f2fs_cluster_decompress(layout_algo(l), in, k - 1, false, out, CLUSTER,
					F2FS_BLKSIZE) &&
	       !memcmp(out, want, CLUSTER_LEN);
}

/* Each compressed cluster of @ino decodes to its bytes; each plain block holds its own. */
static bool clusters_decode(struct fixture *fx, uint32_t ino, const struct layout *l,
			    const uint8_t *data)
{
	struct f2fs_node node;
	uint8_t blk[BLK];
	struct walk w = {.gaps = false};
	unsigned int c, i;

	if (!walk_file(fx, ino, &node, &w))
		return false;
	for (c = 0; c < l->nclusters; c++) {
		const uint32_t *slots = w.addr + c * CLUSTER;
		const uint8_t *want = data + (size_t)c * CLUSTER_LEN;

		if (slots[0] == F2FS_COMPRESS_ADDR) {
			if (!decodes_to(fx, l, slots, want))
				return false;
			continue;
		}
		for (i = 0; i < CLUSTER; i++)
			if (!fixture_read_blk(fx, slots[i], blk) ||
			    memcmp(blk, want + (size_t)i * BLK, BLK))
				return false;
	}
	return true;
}

/* Read the whole file back through lib/read (a read-only handle), which decompresses. */
static bool reads_back_from_disk(struct fixture *fx, uint32_t ino, const uint8_t *want, size_t len)
{
	uint8_t *got = malloc(len + BLK);
	struct f2fs_node node;
	struct f2fs_fs *fs;
	size_t done = 0;
	bool ok = false;

	if (got && fixture_fs_open(fx, &fs)) {
		ok = !f2fs_read_inode(fs, ino, &node) &&
		     !f2fs_file_pread(fs, &node, got, len + BLK, 0, &done) && done == len &&
		     !memcmp(got, want, len);
		f2fs_fs_close(fs);
	}
	if (!ok)
		fprintf(stderr, "  inode %u: lib/read gave %zu bytes of %zu\n", ino, done, len);
	free(got);
	return ok;
}

/* Read the whole file back through a new write handle, from the device; then lib/read. */
static bool reads_back(struct fixture *fx, uint32_t ino, const uint8_t *want, size_t len)
{
	uint8_t *got = malloc(len + BLK);
	struct f2fs_fs *fs;
	size_t done = 0;
	bool ok = false;

	if (got && wfx_open_rw(fx, &fs)) {
		ok = !f2fs_pread(fs, ino, got, len + BLK, 0, &done) && done == len &&
		     !memcmp(got, want, len);
		f2fs_fs_close(fs);
	}
	if (!ok)
		fprintf(stderr, "  inode %u: read back %zu bytes of %zu\n", ino, done, len);
	free(got);
	return ok ? reads_back_from_disk(fx, ino, want, len) : false;
}

static bool compressed_volume(struct fixture *fx)
{
	return wfx_format(fx, 64ull << 20, "extra_attr,inode_checksum,compression", 1);
}

/* A compressed file @name holding @l's bytes (in @data), checkpointed. */
static bool write_layout(struct fixture *fx, const char *name, const struct layout *l,
			 uint8_t *data, uint32_t *ino)
{
	struct f2fs_new_inode a;
	struct f2fs_fs *fs;
	bool ok;

	layout_fill(l, data);
	if (!wfx_open_rw(fx, &fs))
		return false;
	f2fs_new_inode_init(&a, S_IFREG | 0644, FIXTURE_TIME);
	a.compress = true;
	a.compress_algorithm = (uint8_t)layout_algo(l);
	ok = !f2fs_create(fs, WFX_ROOT, name, strlen(name), &a, NULL, ino) &&
	     !f2fs_pwrite(fs, *ino, data, layout_len(l), 0) && !wfx_checkpoint(fs, true);
	f2fs_fs_close(fs);
	return ok;
}

static const struct layout mixed = {{TEXT, SPARSE, NOISE, ZEROS}, 4, 2 * BLK + 100, false};

static void test_clusters_stored_as_the_kernel_does(void)
{
	uint8_t data[8 * CLUSTER_LEN];
	struct fixture fx;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "mixed", &mixed, data, &ino));
	CHECK(stored_as(&fx, ino, &mixed));
	CHECK(clusters_decode(&fx, ino, &mixed, data));
	CHECK(reads_back(&fx, ino, data, layout_len(&mixed)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* A compressed file of noise only: every cluster plain, nothing saved. */
static void test_incompressible_file_stored_plain(void)
{
	static const struct layout noise = {{NOISE, NOISE, NOISE}, 3, 0, false};
	uint8_t data[8 * CLUSTER_LEN];
	struct fixture fx;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "noise", &noise, data, &ino));
	CHECK(stored_as(&fx, ino, &noise));
	CHECK(reads_back(&fx, ino, data, layout_len(&noise)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Rewrite cluster @c of @ino with @k's bytes (also in @data) and checkpoint. */
static bool rewrite_cluster(struct fixture *fx, uint32_t ino, unsigned int c, enum kind k,
			    uint8_t *data)
{
	struct f2fs_fs *fs;
	bool ok;

	fill_cluster(data + (size_t)c * CLUSTER_LEN, k, 100 + c);
	if (!wfx_open_rw(fx, &fs))
		return false;
	ok = !f2fs_pwrite(fs, ino, data + (size_t)c * CLUSTER_LEN, CLUSTER_LEN,
			  (uint64_t)c * CLUSTER_LEN) &&
	     !wfx_checkpoint(fs, true);
	f2fs_fs_close(fs);
	return ok;
}

/*
 * Overwritten, a cluster is stored again from scratch: a compressed one
 * turned to noise gives back its reservation and goes plain, a plain one
 * turned to zeros is compressed; the counts follow.
 */
static void test_rewritten_clusters_change_form(void)
{
	struct layout now = mixed;
	uint8_t data[8 * CLUSTER_LEN];
	struct fixture fx;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "mixed", &mixed, data, &ino));
	CHECK(rewrite_cluster(&fx, ino, 0, NOISE, data));
	CHECK(rewrite_cluster(&fx, ino, 2, ZEROS, data));
	now.kinds[0] = NOISE;
	now.kinds[2] = ZEROS;
	CHECK(stored_as(&fx, ino, &now));
	CHECK(clusters_decode(&fx, ino, &now, data));
	CHECK(reads_back(&fx, ino, data, layout_len(&now)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Cut at a cluster boundary: the clusters past it go whole, their reservation with them. */
static void test_truncate_releases_whole_clusters(void)
{
	static const struct layout cut = {{TEXT, SPARSE}, 2, 0, false};
	uint8_t data[8 * CLUSTER_LEN];
	struct fixture fx;
	struct f2fs_fs *fs;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "mixed", &mixed, data, &ino));
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_truncate(fs, ino, layout_len(&cut)), 0);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK(stored_as(&fx, ino, &cut));
	CHECK(reads_back(&fx, ino, data, layout_len(&cut)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * Cut inside a compressed cluster: the part below the cut is kept, as a
 * partial cluster, so in plain blocks, and the cluster's reservation goes.
 */
static void test_truncate_inside_cluster_keeps_plain_head(void)
{
	static const struct layout cut = {{TEXT}, 1, 6000, false};
	uint8_t data[8 * CLUSTER_LEN];
	struct fixture fx;
	struct f2fs_fs *fs;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "mixed", &mixed, data, &ino));
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_truncate(fs, ino, layout_len(&cut)), 0);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK(stored_as(&fx, ino, &cut));
	CHECK(reads_back(&fx, ino, data, layout_len(&cut)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* LZO clusters: stored, decoded and read back the same way. */
static void test_lzo_clusters(void)
{
	struct layout lzo = mixed;
	uint8_t data[8 * CLUSTER_LEN];
	struct fixture fx;
	uint32_t ino;

	if (!f2fs_compress_built(F2FS_COMPRESS_LZO))
		return;
	lzo.lzo = true;
	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "lzo", &lzo, data, &ino));
	CHECK(stored_as(&fx, ino, &lzo));
	CHECK(clusters_decode(&fx, ino, &lzo, data));
	CHECK(reads_back(&fx, ino, data, layout_len(&lzo)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Released: compressed clusters keep the marker and their stored blocks, nothing after. */
static bool stored_released(struct fixture *fx, uint32_t ino, const struct layout *l)
{
	uint32_t want[MAX_BLOCKS];
	unsigned int n = layout_slots(l, want), i, kept = 0;
	struct f2fs_geometry g;
	struct f2fs_node node;
	struct walk w = {.gaps = false};
	bool ok;

	for (i = 0; i < n; i++)
		if (want[i] != F2FS_NEW_ADDR)
			want[kept++] = want[i];
	f2fs_geometry_init(&g, &fx->sb);
	w.gaps = true;
	if (!walk_file(fx, ino, &node, &w))
		return false;
	/* the walk skips NULL slots: it sees the kept ones back to back */
	ok = w.n == kept;
	for (i = 0; ok && i < kept; i++)
		ok = slot_is(w.addr[i], want[i], &g);
	ok &= le64_get(node.i.i_compr_blocks) == 0;
	ok &= le64_get(node.i.i_blocks) == 1 + n - layout_saved(l);
	ok &= (node.i.i_inline & F2FS_COMPRESS_RELEASED) != 0;
	if (!ok)
		fprintf(stderr, "  inode %u: %u slots (%u), i_blocks %llu, i_compr_blocks %llu\n",
			ino, w.n, kept, (unsigned long long)le64_get(node.i.i_blocks),
			(unsigned long long)le64_get(node.i.i_compr_blocks));
	return ok;
}

static void test_release_gives_back_saved_blocks(void)
{
	uint8_t data[8 * CLUSTER_LEN];
	struct f2fs_space before, after;
	struct fixture fx;
	struct f2fs_fs *fs;
	uint64_t released = 0, again = 1;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "mixed", &mixed, data, &ino));
	CHECK(wfx_open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_space(fs, &before), 0);
	CHECK_EQ_U64(f2fs_release_compress_blocks(fs, ino, &released), 0);
	CHECK_EQ_U64(released, layout_saved(&mixed));
	/* the kernel refuses a second release and any write after it */
	CHECK_EQ_U64(f2fs_release_compress_blocks(fs, ino, &again), (uint64_t)-EINVAL);
	CHECK_EQ_U64(again, 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, ino, data, 10, 0), (uint64_t)-EPERM);
	CHECK_EQ_U64(wfx_checkpoint(fs, true), 0);
	CHECK_EQ_U64(f2fs_space(fs, &after), 0);
	CHECK_EQ_U64(after.valid_blocks, before.valid_blocks - released);
	f2fs_fs_close(fs);
	CHECK(stored_released(&fx, ino, &mixed));
	CHECK(reads_back(&fx, ino, data, layout_len(&mixed)));
	CHECK_EQ_U64(wfx_problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* A file that is not compressed cannot be released. */
static void test_release_refuses_plain_file(void)
{
	struct f2fs_new_inode a;
	struct fixture fx;
	struct f2fs_fs *fs;
	uint64_t released = 1;
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(wfx_open_rw(&fx, &fs));
	f2fs_new_inode_init(&a, S_IFREG | 0644, FIXTURE_TIME);
	CHECK_EQ_U64(f2fs_create(fs, WFX_ROOT, "plain", 5, &a, NULL, &ino), 0);
	CHECK_EQ_U64(f2fs_release_compress_blocks(fs, ino, &released), (uint64_t)-EINVAL);
	CHECK_EQ_U64(released, 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* lib/read's answer for the whole of @ino. */
static int read_all(struct fixture *fx, uint32_t ino, uint8_t *buf, size_t len)
{
	struct f2fs_node node;
	struct f2fs_fs *fs;
	size_t done;
	int ret;

	if (!fixture_fs_open(fx, &fs))
		return -EIO;
	ret = f2fs_read_inode(fs, ino, &node);
	if (!ret)
		ret = f2fs_file_pread(fs, &node, buf, len, 0, &done);
	f2fs_fs_close(fs);
	return ret;
}

/*
 * A damaged cluster -- clen past its one stored block, then a stream that
 * does not decode -- is -EUCLEAN from lib/read, never bytes or a crash;
 * the checker reports the first (PR_COMPRESS_CLUSTER).
 */
static void test_damaged_cluster_is_an_error(void)
{
	uint8_t data[8 * CLUSTER_LEN], blk[BLK], keep[BLK];
	struct f2fs_compress_header h;
	struct f2fs_node node;
	struct fixture fx;
	struct walk w = {.gaps = false};
	struct wfx_verdict *v = malloc(sizeof(*v));
	uint32_t ino;

	CHECK(compressed_volume(&fx));
	CHECK(write_layout(&fx, "mixed", &mixed, data, &ino));
	CHECK(walk_file(&fx, ino, &node, &w));
	/* cluster 0 is TEXT: COMPRESS_ADDR, one stored block */
	CHECK(w.addr[0] == F2FS_COMPRESS_ADDR);
	CHECK(fixture_read_blk(&fx, w.addr[1], keep));
	memcpy(blk, keep, BLK);
	memcpy(&h, blk, sizeof(h));
	h.clen = le32_put(BLK);
	memcpy(blk, &h, sizeof(h));
	CHECK(fixture_write_blk(&fx, w.addr[1], blk));
	CHECK_EQ_U64(read_all(&fx, ino, data, sizeof(data)), (uint64_t)-EUCLEAN);
	/* the checker reads the header too: one report, on this cluster's block */
	CHECK(v && !wfx_check(&fx, v));
	CHECK(v && v->count[PR_COMPRESS_CLUSTER] == 1 && v->r.problems == 1 &&
	      v->last[PR_COMPRESS_CLUSTER].value == BLK);
	memcpy(blk, keep, BLK);
	memset(blk + sizeof(h), 0xff, 64);
	CHECK(fixture_write_blk(&fx, w.addr[1], blk));
	CHECK_EQ_U64(read_all(&fx, ino, data, sizeof(data)), (uint64_t)-EUCLEAN);
	free(v);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

int main(void)
{
	RUN(test_clusters_stored_as_the_kernel_does);
	RUN(test_incompressible_file_stored_plain);
	RUN(test_rewritten_clusters_change_form);
	RUN(test_truncate_releases_whole_clusters);
	RUN(test_truncate_inside_cluster_keeps_plain_head);
	RUN(test_lzo_clusters);
	RUN(test_release_gives_back_saved_blocks);
	RUN(test_release_refuses_plain_file);
	RUN(test_damaged_cluster_is_an_error);
	TEST_EXIT();
}
