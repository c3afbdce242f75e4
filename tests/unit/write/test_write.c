// SPDX-License-Identifier: GPL-2.0
/*
 * The write path on in-memory images: every change is followed by a
 * checkpoint and a check of the volume reopened read-only, which must find
 * no problem (the checker's per-section test is the invariant the allocator
 * must keep), and the read path must read back what was written.  Cycles of
 * create / write / overwrite / truncate / unlink / rename on a small image
 * run until the cleaner has worked several times.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs/check.h"
#include "f2fs/endian.h"
#include "f2fs/fs.h"
#include "f2fs/read.h"
#include "f2fs/write.h"
#include "f2fs/xattr.h"
#include "fixture.h"
#include "test.h"

#define ROOT 3u

static void on_problem(const struct f2fs_problem *p, void *arg)
{
	const struct f2fs_problem_info *info = f2fs_problem_info(p->code);

	(void)arg;
	fprintf(stderr, "  problem %s nid %u blk 0x%llx: %s\n", info ? info->name : "?", p->nid,
		(unsigned long long)p->blkaddr, p->detail);
}

/* Reopen read-only and check: the number of problems (-1 when the check could not run). */
static int problems(struct fixture *fx)
{
	struct f2fs_check_options o = {.on_problem = on_problem};
	struct f2fs_check_result r;
	struct f2fs_fs *fs;
	int ret;

	if (!fixture_fs_open(fx, &fs))
		return -1;
	memset(&r, 0, sizeof(r));
	ret = f2fs_check(fs, &o, &r);
	f2fs_fs_close(fs);
	if (ret) {
		fprintf(stderr, "  check failed: %s\n", r.fatal_why);
		return -1;
	}
	return (int)r.problems;
}

static int checkpoint(struct f2fs_fs *fs, bool umount)
{
	struct f2fs_cp_request req = {.reason = umount ? F2FS_CP_UMOUNT : F2FS_CP_SYNC};

	return f2fs_checkpoint(fs, &req);
}

static bool open_rw(struct fixture *fx, struct f2fs_fs **fs)
{
	char why[256] = "";
	int ret = f2fs_fs_open(fx->dev, F2FS_FS_WRITE, fs, why, sizeof(why));

	if (ret)
		fprintf(stderr, "open for writing: %s\n", why);
	return ret == 0;
}

static bool format(struct fixture *fx, uint64_t bytes, const char *features, uint32_t segs_per_sec)
{
	fixture_init(fx, bytes);
	if (features && !fixture_features(fx, features))
		return false;
	fx->cfg.geometry.segs_per_sec = segs_per_sec;
	return fixture_open(fx) && fixture_mkfs(fx);
}

static void fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

static int create(struct f2fs_fs *fs, uint32_t dir, const char *name, uint16_t mode, uint32_t *ino)
{
	struct f2fs_new_inode a;

	f2fs_new_inode_init(&a, mode, FIXTURE_TIME);
	return f2fs_create(fs, dir, name, strlen(name), &a, NULL, ino);
}

/* Read a file back through the read layer of a read-only handle and compare. */
static bool same_content(struct fixture *fx, const char *path, const uint8_t *want, size_t len)
{
	struct f2fs_fs *fs;
	struct f2fs_node *n = malloc(sizeof(*n));
	uint8_t *got = calloc(1, len + 1);
	uint32_t ino;
	size_t done = 0;
	bool ok = false;

	if (!n || !got || !fixture_fs_open(fx, &fs)) {
		free(n);
		free(got);
		return false;
	}
	/* the write layer's lookup is not for read-only handles: walk the path by hand */
	(void)path;
	ino = 0;
	{
		struct f2fs_fs *wfs;

		if (open_rw(fx, &wfs)) {
			if (f2fs_path_lookup(wfs, path, &ino))
				ino = 0;
			f2fs_fs_close(wfs);
		}
	}
	if (ino && !f2fs_read_inode(fs, ino, n) && !f2fs_file_pread(fs, n, got, len + 1, 0, &done))
		ok = done == len && !memcmp(got, want, len);
	if (!ok)
		fprintf(stderr, "  %s: read %zu bytes, expected %zu\n", path, done, len);
	f2fs_fs_close(fs);
	free(n);
	free(got);
	return ok;
}

static void test_create_and_checkpoint(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	uint32_t dir, file, small, link_dir;
	uint8_t *big = malloc(3 << 20), tiny[100];

	if (!big ||
	    !format(&fx, 128ull << 20, "extra_attr,inode_checksum,flexible_inline_xattr", 1)) {
		CHECK(0);
		free(big);
		return;
	}
	fill(big, 3 << 20, 1);
	fill(tiny, sizeof(tiny), 2);
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(create(fs, ROOT, "dir", S_IFDIR | 0755, &dir), 0);
	CHECK_EQ_U64(create(fs, dir, "big", S_IFREG | 0644, &file), 0);
	CHECK_EQ_U64(create(fs, ROOT, "small", S_IFREG | 0600, &small), 0);
	CHECK_EQ_U64(create(fs, dir, "sub", S_IFDIR | 0700, &link_dir), 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, file, big, 3 << 20, 0), 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, small, tiny, sizeof(tiny), 0), 0);
	CHECK_EQ_U64(create(fs, ROOT, "small", S_IFREG | 0600, &small), -EEXIST);
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK(same_content(&fx, "/dir/big", big, 3 << 20));
	CHECK(same_content(&fx, "/small", tiny, sizeof(tiny)));
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(big);
}

static void test_namespace(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	struct f2fs_new_inode a;
	uint32_t d1, d2, f, l, ino, i;
	char name[64];

	if (!format(&fx, 64ull << 20, NULL, 1)) {
		CHECK(0);
		return;
	}
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(create(fs, ROOT, "a", S_IFDIR | 0755, &d1), 0);
	CHECK_EQ_U64(create(fs, ROOT, "b", S_IFDIR | 0755, &d2), 0);
	CHECK_EQ_U64(create(fs, d1, "f", S_IFREG | 0644, &f), 0);
	f2fs_new_inode_init(&a, S_IFLNK | 0777, FIXTURE_TIME);
	CHECK_EQ_U64(f2fs_create(fs, d1, "link", 4, &a, "../b/target", &l), 0);
	f2fs_new_inode_init(&a, S_IFCHR | 0600, FIXTURE_TIME);
	a.rdev_major = 4;
	a.rdev_minor = 64;
	CHECK_EQ_U64(f2fs_create(fs, d1, "tty", 3, &a, NULL, &ino), 0);
	CHECK_EQ_U64(create(fs, d1, "fifo", S_IFIFO | 0600, &ino), 0);
	CHECK_EQ_U64(f2fs_link(fs, f, d2, "hard", 4), 0);
	CHECK_EQ_U64(f2fs_link(fs, d1, d2, "dirlink", 7), -EPERM);
	/* enough names to leave the inline area and use several dentry blocks */
	for (i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "entry-with-a-longer-name-%u", i);
		CHECK_EQ_U64(create(fs, d2, name, S_IFREG | 0644, &ino), 0);
	}
	for (i = 0; i < 600; i += 3) {
		snprintf(name, sizeof(name), "entry-with-a-longer-name-%u", i);
		CHECK_EQ_U64(f2fs_unlink(fs, d2, name, strlen(name)), 0);
	}
	CHECK_EQ_U64(f2fs_unlink(fs, ROOT, "a", 1), -ENOTEMPTY);
	CHECK_EQ_U64(f2fs_rename(fs, d1, "f", 1, ROOT, "moved", 5, false), 0);
	CHECK_EQ_U64(f2fs_rename(fs, ROOT, "b", 1, d1, "b-in-a", 6, false), 0);
	CHECK_EQ_U64(f2fs_rename(fs, d1, "b-in-a", 6, d2, "x", 1, false), -EINVAL);
	CHECK_EQ_U64(f2fs_path_lookup(fs, "/a/b-in-a/hard", &ino), 0);
	CHECK_EQ_U64(ino, f);
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);

	/* remove everything again */
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_unlink(fs, ROOT, "moved", 5), 0);
	CHECK_EQ_U64(f2fs_path_lookup(fs, "/a/b-in-a", &d2), 0);
	for (i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "entry-with-a-longer-name-%u", i);
		if (i % 3)
			CHECK_EQ_U64(f2fs_unlink(fs, d2, name, strlen(name)), 0);
	}
	CHECK_EQ_U64(f2fs_unlink(fs, d2, "hard", 4), 0);
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * Does the volume on the device, read back by a new handle, hold the SIT
 * and NAT the writing handle has in memory (after a checkpoint)?
 */
static bool same_tables(struct fixture *fx, struct f2fs_fs *fs)
{
	const struct f2fs_sit_table *a, *b;
	const struct f2fs_nat_table *na, *nb;
	struct f2fs_fs *rfs;
	bool same = true;
	uint32_t i;

	if (!fixture_fs_open(fx, &rfs))
		return false;
	if (f2fs_fs_sit(rfs, &a) || f2fs_fs_sit(fs, &b) || f2fs_fs_nat(rfs, &na) ||
	    f2fs_fs_nat(fs, &nb)) {
		f2fs_fs_close(rfs);
		return false;
	}
	for (i = 0; i < f2fs_sit_segments(a); i++) {
		const struct f2fs_seg_entry *x = f2fs_sit_seg(a, i), *y = f2fs_sit_seg(b, i);

		if (x->valid != y->valid || x->type != y->type ||
		    memcmp(x->map, y->map, sizeof(x->map))) {
			fprintf(stderr, "  segment %u: %u valid on disk, %u in memory\n", i,
				x->valid, y->valid);
			same = false;
		}
	}
	for (i = 0; i < f2fs_nat_max_nid(na); i++) {
		const struct f2fs_nat_info *x = f2fs_nat_get(na, i), *y = f2fs_nat_get(nb, i);

		if (x->blkaddr != y->blkaddr || x->ino != y->ino || x->version != y->version) {
			fprintf(stderr, "  nid %u: 0x%x on disk, 0x%x in memory\n", i, x->blkaddr,
				y->blkaddr);
			same = false;
		}
	}
	f2fs_fs_close(rfs);
	return same;
}

/*
 * Churn on a small image: files created, overwritten in the middle,
 * truncated and unlinked, with a checkpoint after every round -- after which
 * the tables on the device must equal those in memory -- and a full check
 * of the volume reopened every five rounds, until the cleaner has run
 * several times.
 */
static void churn(uint64_t bytes, uint32_t segs_per_sec, unsigned int want_gc)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	uint8_t *buf = malloc(1 << 20);
	uint32_t seed = 7, ino, round, files = 0;
	uint64_t gc_runs = 0, moved = 0;
	const struct f2fs_write_stats *st;
	char name[32];
	int bad = 0;

	if (!buf || !format(&fx, bytes, NULL, segs_per_sec)) {
		CHECK(0);
		free(buf);
		return;
	}
	CHECK(open_rw(&fx, &fs));
	for (round = 0; round < 600 && !bad; round++) {
		unsigned int k;

		for (k = 0; k < 8; k++) {
			size_t len;

			seed = seed * 1103515245u + 12345u;
			len = (seed >> 8) % (1 << 20);
			snprintf(name, sizeof(name), "f%u", (seed >> 4) % 40);
			if (f2fs_lookup(fs, ROOT, name, strlen(name), &ino)) {
				if (create(fs, ROOT, name, S_IFREG | 0644, &ino))
					continue;
				files++;
			}
			fill(buf, len, seed);
			switch (seed % 5) {
			case 0:
				CHECK_EQ_U64(f2fs_unlink(fs, ROOT, name, strlen(name)), 0);
				break;
			case 1:
				CHECK_EQ_U64(f2fs_truncate(fs, ino, len / 3), 0);
				break;
			default: {
				int ret = f2fs_pwrite(fs, ino, buf, len, (seed >> 12) % (1 << 20));

				CHECK(ret == 0 || ret == -ENOSPC);
			}
			}
		}
		if (checkpoint(fs, false)) {
			CHECK(0);
			break;
		}
		bad = !same_tables(&fx, fs);
		CHECK(!bad);
		if (!bad && round % 5 == 4) {
			gc_runs += f2fs_write_stats(fs)->gc_runs;
			moved += f2fs_write_stats(fs)->gc_blocks_moved;
			f2fs_fs_close(fs);
			bad = problems(&fx);
			CHECK_EQ_U64(bad, 0);
			if (!open_rw(&fx, &fs)) {
				CHECK(0);
				fs = NULL;
				break;
			}
		}
		st = f2fs_write_stats(fs);
		if (gc_runs + st->gc_runs >= want_gc && round >= 20)
			break;
	}
	if (fs) {
		st = f2fs_write_stats(fs);
		gc_runs += st->gc_runs;
		moved += st->gc_blocks_moved;
		fprintf(
		    stderr,
		    "  churn %llu MiB -s %u: %u rounds, %u files made, gc runs %llu, moved %llu\n",
		    (unsigned long long)(bytes >> 20), segs_per_sec, round, files,
		    (unsigned long long)gc_runs, (unsigned long long)moved);
		CHECK(checkpoint(fs, true) == 0);
		f2fs_fs_close(fs);
	}
	CHECK(gc_runs >= want_gc);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(buf);
}

static void test_churn_cleaner(void)
{
	churn(96ull << 20, 1, 5);
}

static void test_churn_large_sections(void)
{
	churn(256ull << 20, 4, 4);
}

/*
 * fsync without a checkpoint, then a "power cut" (close): the chain is
 * there for the kernel to replay, the checker calls the volume clean and
 * counts it, and the write path refuses to write over it.
 */
static void test_fsync_chain(void)
{
	struct f2fs_check_options o = {.on_problem = on_problem};
	struct f2fs_check_result r;
	struct fixture fx;
	struct f2fs_fs *fs;
	struct f2fs_space sp;
	uint8_t buf[10000];
	uint32_t ino;
	bool cp = true;

	if (!format(&fx, 64ull << 20, "extra_attr,inode_checksum", 1)) {
		CHECK(0);
		return;
	}
	fill(buf, sizeof(buf), 9);
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(create(fs, ROOT, "synced", S_IFREG | 0644, &ino), 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, ino, buf, sizeof(buf), 0), 0);
	CHECK_EQ_U64(f2fs_fsync(fs, ino, false, &cp), 0);
	CHECK(!cp); /* a new file in a checkpointed directory: roll-forward */
	f2fs_fs_close(fs);

	CHECK(fixture_fs_open(&fx, &fs));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_U64(f2fs_check(fs, &o, &r), 0);
	CHECK_EQ_U64(r.problems, 0);
	CHECK(r.fsynced_nodes >= 1);
	f2fs_fs_close(fs);

	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(f2fs_space(fs, &sp), -EUCLEAN);
	CHECK(strstr(f2fs_fs_why(fs), "roll-forward") != NULL);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* Compressible bytes: text-like runs with some noise. */
static void fill_text(uint8_t *buf, size_t len, uint32_t seed)
{
	static const char words[] = "the quick brown fox jumps over the lazy dog ";
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (seed >> 24) < 8 ? (uint8_t)(seed >> 16) : (uint8_t)words[i % 44];
	}
}

static bool reads_back(struct f2fs_fs *fs, uint32_t ino, const uint8_t *want, size_t len)
{
	uint8_t *got = malloc(len + 100);
	size_t done = 0;
	bool ok = got && !f2fs_pread(fs, ino, got, len + 100, 0, &done) && done == len &&
		  !memcmp(got, want, len);

	if (!ok)
		fprintf(stderr, "  read back %zu bytes of %zu\n", done, len);
	free(got);
	return ok;
}

/*
 * LZ4 clusters: a compressible file, written, overwritten inside a
 * cluster, cut inside a cluster; after each checkpoint the volume is clean
 * (the checker counts each cluster's reservation) and the file reads back.
 */
static void test_compression(void)
{
	const size_t len = 1 << 20;
	struct fixture fx;
	struct f2fs_fs *fs;
	struct f2fs_new_inode a;
	struct f2fs_inode_attr at;
	uint8_t *buf = malloc(len), patch[10000];
	uint32_t ino, plain;

	if (!buf || !format(&fx, 128ull << 20, "extra_attr,compression", 1)) {
		CHECK(0);
		free(buf);
		return;
	}
	fill_text(buf, len, 3);
	CHECK(open_rw(&fx, &fs));
	f2fs_new_inode_init(&a, S_IFREG | 0644, FIXTURE_TIME);
	a.compress = true;
	CHECK_EQ_U64(f2fs_create(fs, ROOT, "c", 1, &a, NULL, &ino), 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, ino, buf, len - 5000, 0), 0); /* a partial last cluster */
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	CHECK(reads_back(fs, ino, buf, len - 5000));
	CHECK_EQ_U64(f2fs_getattr(fs, ino, &at), 0);
	/* compressed: far fewer blocks on disk than the 256 the data needs */
	CHECK(f2fs_write_stats(fs)->bytes[F2FS_IO_DATA] < 180 * 4096ull);
	CHECK_EQ_U64(problems(&fx), 0);

	fill(patch, sizeof(patch), 4);
	memcpy(buf + 70000, patch, sizeof(patch));
	CHECK_EQ_U64(f2fs_pwrite(fs, ino, patch, sizeof(patch), 70000), 0);
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	CHECK(reads_back(fs, ino, buf, len - 5000));
	CHECK_EQ_U64(problems(&fx), 0);

	CHECK_EQ_U64(f2fs_truncate(fs, ino, 300001), 0);
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	CHECK(reads_back(fs, ino, buf, 300001));
	CHECK_EQ_U64(problems(&fx), 0);

	/* random bytes do not compress: plain blocks in a compressed file */
	CHECK_EQ_U64(f2fs_create(fs, ROOT, "r", 1, &a, NULL, &plain), 0);
	fill(buf, len, 5);
	CHECK_EQ_U64(f2fs_pwrite(fs, plain, buf, len, 0), 0);
	CHECK_EQ_U64(f2fs_unlink(fs, ROOT, "c", 1), 0);
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	CHECK(reads_back(fs, plain, buf, len));
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);

	/* a volume without the feature refuses a compressed file */
	CHECK_EQ_U64(fixture_free(&fx), 0);
	if (format(&fx, 64ull << 20, NULL, 1) && open_rw(&fx, &fs)) {
		CHECK_EQ_U64(f2fs_create(fs, ROOT, "c", 1, &a, NULL, &ino), -EOPNOTSUPP);
		f2fs_fs_close(fs);
	}
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(buf);
}

struct tag_count {
	uint64_t bytes[4];
};

static int count_tagged(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
			size_t len, enum f2fs_dev_tag tag)
{
	struct tag_count *c = priv;

	c->bytes[f2fs_dev_tag_kind(tag)] += len;
	return f2fs_dev_write_tagged(lower, buf, off, len, tag);
}

/* Every write of the write path reaches a stacked layer tagged with its kind. */
static void test_tagged_writes(void)
{
	static const struct f2fs_dev_layer_ops ops = {.write_tagged = count_tagged};
	struct tag_count c = {{0}};
	struct fixture fx;
	struct f2fs_device *top;
	struct f2fs_fs *fs;
	const struct f2fs_write_stats *st;
	uint8_t buf[20000];
	uint32_t ino;

	if (!format(&fx, 64ull << 20, NULL, 1) || f2fs_dev_stack(fx.dev, &ops, &c, &top)) {
		CHECK(0);
		return;
	}
	fx.dev = top;
	fill(buf, sizeof(buf), 1);
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(create(fs, ROOT, "f", S_IFREG | 0644, &ino), 0);
	CHECK_EQ_U64(f2fs_pwrite(fs, ino, buf, sizeof(buf), 0), 0);
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	st = f2fs_write_stats(fs);
	CHECK_EQ_U64(c.bytes[F2FS_DEV_TAG_DATA], st->bytes[F2FS_IO_DATA]);
	CHECK_EQ_U64(c.bytes[F2FS_DEV_TAG_NODE], st->bytes[F2FS_IO_NODE]);
	CHECK_EQ_U64(c.bytes[F2FS_DEV_TAG_META], st->bytes[F2FS_IO_META]);
	CHECK(c.bytes[F2FS_DEV_TAG_DATA] >= sizeof(buf));
	CHECK(c.bytes[F2FS_DEV_TAG_NODE] > 0 && c.bytes[F2FS_DEV_TAG_META] > 0);
	CHECK_EQ_U64(c.bytes[F2FS_DEV_TAG_NONE], 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/* xattrs inline, then past the inline area into an xattr node, replaced and removed. */
struct xattr_seen {
	int n;
	char names[4][16];
	size_t lens[4];
	uint8_t index[4];
	uint8_t big_ok;
};

static int note_xattr(const struct f2fs_xattr *x, void *arg)
{
	struct xattr_seen *s = arg;
	uint8_t big[3000];

	if (s->n == 4 || x->name_len >= sizeof(s->names[0]))
		return -E2BIG;
	memcpy(s->names[s->n], x->name, x->name_len);
	s->lens[s->n] = x->value_len;
	s->index[s->n] = x->index;
	fill(big, sizeof(big), 8);
	if (x->value_len == sizeof(big) && !memcmp(x->value, big, sizeof(big)))
		s->big_ok = 1;
	s->n++;
	return 0;
}

/* The read layer's walk sees what the write path stored, inline and in the xattr node. */
static void check_xattr_walk(struct f2fs_fs *fs, uint32_t ino)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	struct xattr_seen s = {0};

	CHECK(n != NULL);
	if (!n)
		return;
	CHECK_EQ_U64(f2fs_read_inode(fs, ino, n), 0);
	CHECK(n->i.i_xattr_nid != 0);
	CHECK_EQ_U64(f2fs_file_for_each_xattr(fs, n, note_xattr, &s), 0);
	CHECK_EQ_U64(s.n, 3);
	CHECK(!strcmp(s.names[0], "big") && s.index[0] == F2FS_XATTR_INDEX_USER && s.big_ok);
	CHECK(!strcmp(s.names[1], "selinux") && s.index[1] == F2FS_XATTR_INDEX_SECURITY &&
	      s.lens[1] == 16);
	CHECK(!strcmp(s.names[2], "small") && s.lens[2] == 5);
	free(n);
}

static void test_xattrs(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	uint8_t big[3000], got[4000];
	size_t len = 0;
	uint32_t ino;
	int i;

	if (!format(&fx, 64ull << 20, "extra_attr,flexible_inline_xattr", 1)) {
		CHECK(0);
		return;
	}
	fill(big, sizeof(big), 8);
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(create(fs, ROOT, "x", S_IFREG | 0644, &ino), 0);
	CHECK_EQ_U64(f2fs_setxattr(fs, ino, 1, "small", "value", 5), 0);
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(f2fs_setxattr(fs, ino, 1, "big", big, sizeof(big)), 0);
	CHECK_EQ_U64(f2fs_setxattr(fs, ino, 6, "selinux", "u:object_r:x:s0", 16), 0);
	for (i = 0; i < 20; i++) /* replaced in place, never piling up */
		CHECK_EQ_U64(f2fs_setxattr(fs, ino, 1, "small", "other", 5), 0);
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(f2fs_getxattr(fs, ino, 1, "big", got, sizeof(got), &len), 0);
	CHECK(len == sizeof(big) && !memcmp(got, big, len));
	CHECK_EQ_U64(f2fs_getxattr(fs, ino, 1, "small", got, sizeof(got), &len), 0);
	CHECK(len == 5 && !memcmp(got, "other", 5));
	check_xattr_walk(fs, ino);
	CHECK_EQ_U64(f2fs_setxattr(fs, ino, 1, "big", NULL, 0), 0);
	CHECK_EQ_U64(f2fs_getxattr(fs, ino, 1, "big", got, sizeof(got), &len), -ENODATA);
	CHECK_EQ_U64(f2fs_setxattr(fs, ino, 1, "huge", got, 65536), -ERANGE);
	CHECK_EQ_U64(f2fs_unlink(fs, ROOT, "x", 1), 0);
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * A sparse file reaching the double indirect node (past about 4 GiB):
 * blocks at 1 MiB, 6 MiB, 100 MiB, 5 GiB and 9 GiB, read back through the
 * read layer; cut back to 2 MiB, the nodes that mapped only the rest go.
 */
static void test_deep_tree(void)
{
	static const uint64_t offs[] = {1ull << 20, 6ull << 20, 100ull << 20, 5ull << 30,
					9ull << 30};
	struct fixture fx;
	struct f2fs_fs *fs;
	struct f2fs_inode_attr a0, a1;
	uint8_t blk[4096], got[4096];
	size_t done, i;
	uint32_t ino;

	if (!format(&fx, 64ull << 20, NULL, 1)) {
		CHECK(0);
		return;
	}
	CHECK(open_rw(&fx, &fs));
	CHECK_EQ_U64(create(fs, ROOT, "deep", S_IFREG | 0644, &ino), 0);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		fill(blk, sizeof(blk), (uint32_t)i + 20);
		CHECK_EQ_U64(f2fs_pwrite(fs, ino, blk, sizeof(blk), offs[i]), 0);
	}
	CHECK_EQ_U64(checkpoint(fs, false), 0);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(f2fs_getattr(fs, ino, &a0), 0);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		fill(blk, sizeof(blk), (uint32_t)i + 20);
		CHECK_EQ_U64(f2fs_pread(fs, ino, got, sizeof(got), offs[i], &done), 0);
		CHECK(done == sizeof(got) && !memcmp(got, blk, sizeof(blk)));
	}
	CHECK_EQ_U64(f2fs_pread(fs, ino, got, sizeof(got), 3ull << 30, &done), 0);
	CHECK(done == sizeof(got) && got[0] == 0 && !memcmp(got, got + 1, sizeof(got) - 1));
	CHECK_EQ_U64(f2fs_truncate(fs, ino, 2ull << 20), 0);
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	CHECK_EQ_U64(f2fs_getattr(fs, ino, &a1), 0);
	/* five data blocks, the direct nodes and the (double) indirect ones: all but one block go
	 */
	CHECK(a0.blocks >= 1 + 5 + 5);
	CHECK_EQ_U64(a1.blocks, 2); /* the inode and the block at 1 MiB, held by the inode itself */
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * Dirty nodes are counted (f2fs_dirty_nodes), and an operation writes them
 * all back, without a checkpoint, once more than the bound are held: at
 * most the bound plus what one create dirties (its inode and the parent's).
 */
static void test_dirty_node_bound(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	uint64_t n, peak = 0;
	uint32_t ino, i;
	char name[16];

	if (!format(&fx, 64ull << 20, NULL, 1)) {
		CHECK(0);
		return;
	}
	CHECK(open_rw(&fx, &fs));
	f2fs_write_set_node_cache(fs, 0, 4);
	CHECK_EQ_U64(f2fs_dirty_nodes(fs), 0);
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		CHECK_EQ_U64(create(fs, ROOT, name, S_IFREG | 0644, &ino), 0);
		n = f2fs_dirty_nodes(fs);
		CHECK(n > 0);
		peak = n > peak ? n : peak;
	}
	CHECK(peak <= 4 + 2);
	/* the default bound holds all twenty more */
	f2fs_write_set_node_cache(fs, 0, 0);
	n = f2fs_dirty_nodes(fs);
	for (i = 20; i < 40; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		CHECK_EQ_U64(create(fs, ROOT, name, S_IFREG | 0644, &ino), 0);
	}
	CHECK(f2fs_dirty_nodes(fs) >= n + 20);
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	CHECK_EQ_U64(f2fs_dirty_nodes(fs), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * The calls a caller that schedules write-back itself uses: automatic
 * write-back off, chunks of a file's pages, the serialisation rule, the
 * fsync decision, and both ways of counting a section's valid blocks.
 */
static void test_engine_calls(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	struct f2fs_space sp;
	uint8_t *buf = malloc(600 * 4096);
	uint32_t dir, a, b;
	uint64_t left = 0, room_cached;
	bool need = false;

	CHECK(buf && format(&fx, 256ull << 20, NULL, 4));
	CHECK(open_rw(&fx, &fs));
	f2fs_write_set_writeback(fs, 0, 0);
	fill(buf, 600 * 4096, 7);
	CHECK(create(fs, ROOT, "d", S_IFDIR | 0755, &dir) == 0);
	CHECK(create(fs, dir, "a", S_IFREG | 0644, &a) == 0);
	CHECK(create(fs, dir, "b", S_IFREG | 0644, &b) == 0);
	CHECK(f2fs_pwrite(fs, a, buf, 600 * 4096, 0) == 0);
	CHECK(f2fs_pwrite(fs, b, buf, 8 * 4096, 0) == 0);
	CHECK_EQ_U64(f2fs_dirty_pages(fs, a), 600);
	CHECK_EQ_U64(f2fs_dirty_pages(fs, 0),
		     608 + f2fs_dirty_pages(fs, dir) + f2fs_dirty_pages(fs, ROOT));
	/* 600 dirty pages >= 512: serialised even for fsync; 8 pages only in the background */
	CHECK(f2fs_writepages_serialized(fs, a, F2FS_WB_ALL, 0));
	CHECK(!f2fs_writepages_serialized(fs, b, F2FS_WB_ALL, 0));
	CHECK(f2fs_writepages_serialized(fs, b, F2FS_WB_NONE, 0));
	CHECK(f2fs_writepages_serialized(fs, b, F2FS_WB_ALL, 8));
	/* interleave the two files page by page */
	CHECK(f2fs_writepages_some(fs, a, F2FS_WB_NONE, 1, &left) == 0);
	CHECK_EQ_U64(left, 599);
	CHECK(f2fs_writepages_some(fs, b, F2FS_WB_NONE, 1, &left) == 0);
	CHECK_EQ_U64(left, 7);
	CHECK(f2fs_write_submit(fs) == 0);
	/* a file in a directory made since the checkpoint needs one; a directory always */
	CHECK(f2fs_fsync_needs_checkpoint(fs, a, &need) == 0);
	CHECK(need);
	CHECK(f2fs_fsync_needs_checkpoint(fs, dir, &need) == 0);
	CHECK(need);
	CHECK(f2fs_write_dirty(fs));
	CHECK(checkpoint(fs, false) == 0);
	CHECK(!f2fs_write_dirty(fs));
	CHECK(f2fs_fsync_needs_checkpoint(fs, a, &need) == 0);
	CHECK(!need);
	/* the per-page room check gives the same answer either way */
	CHECK(f2fs_pwrite(fs, b, buf, 4096, 0) == 0);
	/* a file's dirty data and its new times (lazytime) leave nothing for a checkpoint... */
	CHECK(!f2fs_write_dirty(fs));
	CHECK(f2fs_writepages(fs, b, F2FS_WB_ALL, 0) == 0);
	/* ...its block's new address does */
	CHECK(f2fs_write_dirty(fs));
	CHECK(f2fs_space(fs, &sp) == 0);
	room_cached = sp.curseg_room;
	CHECK(room_cached > 0);
	f2fs_write_set_section_counts(fs, F2FS_SECTION_COUNTS_LOOP);
	CHECK(f2fs_pwrite(fs, b, buf, 4096, 4096) == 0);
	CHECK(f2fs_writepages(fs, b, F2FS_WB_ALL, 0) == 0);
	CHECK(f2fs_space(fs, &sp) == 0);
	CHECK_EQ_U64(sp.curseg_room, room_cached - 1);
	CHECK(f2fs_write_stats(fs)->space_checks >= 602);
	CHECK(checkpoint(fs, false) == 0);
	/* a write that grows the file changes its size: the inode is dirty */
	CHECK(f2fs_pwrite(fs, b, buf, 4096, 8 * 4096) == 0);
	CHECK(f2fs_write_dirty(fs));
	CHECK(checkpoint(fs, true) == 0);
	f2fs_fs_close(fs);
	CHECK(problems(&fx) == 0);
	CHECK(same_content(&fx, "/d/a", buf, 600 * 4096));
	CHECK_EQ_U64(fixture_free(&fx), 0);
	free(buf);
}

/*
 * A read-only volume (-O ro) filled as sload fills it: 600 files of two
 * blocks.  Data goes into hot data up from the main area's first segment,
 * nodes into hot node down from its last, the four unused logs stay on
 * segment 0, and the checker finds the volume clean.
 */
static void test_readonly_volume(void)
{
	struct fixture fx;
	struct f2fs_fs *fs;
	const struct f2fs_checkpoint *cp;
	uint8_t buf[2 * F2FS_BLKSIZE];
	char name[16], why[256];
	uint32_t ino, i, last;

	fixture_init(&fx, 64ull << 20);
	fx.cfg.geometry.readonly = true;
	if (!fixture_features(&fx, "ro") || !fixture_open(&fx) || !fixture_mkfs(&fx)) {
		CHECK(0);
		return;
	}
	last = fx.l.segment_count_main - 1;
	fill(buf, sizeof(buf), 29);
	CHECK(open_rw(&fx, &fs));
	for (i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		CHECK_EQ_U64(create(fs, ROOT, name, S_IFREG | 0644, &ino), 0);
		CHECK_EQ_U64(f2fs_pwrite(fs, ino, buf, sizeof(buf), 0), 0);
	}
	CHECK_EQ_U64(checkpoint(fs, true), 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(problems(&fx), 0);
	CHECK_EQ_U64(f2fs_fs_open(fx.dev, 0, &fs, why, sizeof(why)), 0);
	cp = f2fs_fs_cp(fs);
	CHECK(le32_get(cp->cur_data_segno[0]) >= 2);		 /* 1200 data blocks: up */
	CHECK_EQ_U64(le32_get(cp->cur_node_segno[0]), last - 1); /* 601 nodes: down */
	for (i = 1; i < 3; i++)
		CHECK(cp->cur_data_segno[i] == 0 && cp->cur_node_segno[i] == 0);
	f2fs_fs_close(fs);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

/*
 * The elapsed_time a checkpoint written 1.1 s after the first change
 * records, or UINT64_MAX when a step failed.
 */
static uint64_t elapsed_after_pause(struct fixture *fx, bool fixed_clock)
{
	static unsigned int n;
	struct f2fs_fs *fs;
	uint64_t t = UINT64_MAX;
	uint32_t ino;
	char name[16];

	if (!open_rw(fx, &fs))
		return t;
	if (fixed_clock)
		f2fs_write_set_time(fs, FIXTURE_TIME);
	snprintf(name, sizeof(name), "f%u", n++); /* something to checkpoint */
	if (create(fs, ROOT, name, S_IFREG | 0644, &ino) == 0) {
		usleep(1100000);
		if (checkpoint(fs, true) == 0)
			t = le64_get(f2fs_fs_cp(fs)->elapsed_time);
	}
	f2fs_fs_close(fs);
	return t;
}

/*
 * Under a fixed clock (mkfs -T, sload -T) the checkpoint's elapsed time
 * stands still, so the same input makes the same image; otherwise it counts
 * the seconds the volume was open.
 */
static void test_elapsed_time(void)
{
	struct fixture fx;
	uint64_t base, fixed, running;

	if (!format(&fx, 64ull << 20, NULL, 1)) {
		CHECK(0);
		return;
	}
	base = elapsed_after_pause(&fx, true);
	fixed = elapsed_after_pause(&fx, true);
	running = elapsed_after_pause(&fx, false);
	CHECK(base != UINT64_MAX && fixed != UINT64_MAX && running != UINT64_MAX);
	CHECK_EQ_U64(fixed, base);
	CHECK(running >= base + 1);
	CHECK_EQ_U64(fixture_free(&fx), 0);
}

int main(void)
{
	RUN(test_elapsed_time);
	RUN(test_readonly_volume);
	RUN(test_create_and_checkpoint);
	RUN(test_namespace);
	RUN(test_fsync_chain);
	RUN(test_compression);
	RUN(test_tagged_writes);
	RUN(test_xattrs);
	RUN(test_deep_tree);
	RUN(test_dirty_node_bound);
	RUN(test_engine_calls);
	RUN(test_churn_cleaner);
	RUN(test_churn_large_sections);
	TEST_EXIT();
}
