// SPDX-License-Identifier: GPL-2.0
/*
 * The undo journal (undo.h): a device layer that saves each block's
 * original contents before its first change, and the reader that verifies
 * a journal and writes the saved blocks back.  The layer keeps a bitmap of
 * the blocks already saved, so a block costs one read and one record at
 * most however often the run rewrites it; the journal is synced once per
 * request that saved something, before the request goes down.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "f2fs/bitops.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/undo.h"
#include "dev_internal.h"

#define UNDO_MAGIC    "F2FSUNDO"
#define REC_MAGIC     "UREC"
#define HDR_BYTES     F2FS_BLKSIZE /* the header's room in the journal */
#define CHUNK_BLOCKS  256u	   /* the longest record: 1 MiB of blocks */
#define BLKS_PER_PACK 512u	   /* a checkpoint pack's segment */
#define REC_DATA      1u
#define REC_ZERO      2u
#define FS_BEFORE     (1u << 0)
#define FS_AFTER      (1u << 1)
#define FS_STATE      (1u << 2) /* the header's state holds the journaled blocks' fingerprint */

struct undo_disk_header {
	char magic[8];
	uint32_t version;
	uint32_t block_size;
	uint64_t device_bytes;
	uint32_t finished;
	uint32_t fs_flags; /* FS_BEFORE, FS_AFTER: an F2FS superblock was there */
	uint8_t uuid_before[16];
	uint8_t uuid_after[16];
	uint64_t records;
	uint64_t blocks;
	uint32_t
	    state;    /* with FS_STATE: fingerprint of the journaled blocks as the run left them */
	uint32_t crc; /* CRC-32 of the bytes before it */
};
_Static_assert(sizeof(struct undo_disk_header) == 88, "undo header");
_Static_assert(offsetof(struct undo_disk_header, crc) == 84, "undo header crc");

struct undo_disk_record {
	char magic[4];
	uint32_t kind;
	uint64_t blkaddr;
	uint32_t nblocks;
	uint32_t data_crc; /* CRC-32 of the blocks (0 for a zero record) */
	uint32_t seq;	   /* 0 for the first record */
	uint32_t crc;	   /* CRC-32 of the bytes before it */
};
_Static_assert(sizeof(struct undo_disk_record) == 32, "undo record");

struct undo {
	int fd;
	uint64_t end; /* where the next record goes */
	uint64_t dev_blocks;
	uint8_t *saved; /* bitmap: the block's original is in the journal */
	uint8_t *buf;	/* CHUNK_BLOCKS blocks */
	struct f2fs_device *lower;
	uint64_t device_bytes;
	bool f2fs_before;
	uint8_t uuid_before[16];
	uint64_t records, blocks;
};

static uint32_t crc_of(const void *buf, size_t len)
{
	return (uint32_t)crc32(0L, buf, (uInt)len);
}

/*
 * The fingerprint of a set of blocks: a sum over the blocks of a mix of
 * each one's address and CRC, so that it does not depend on the order the
 * blocks are visited in (the layer visits them by address, the journal
 * holds them in the order the run first changed them).
 */
static uint64_t fp_block(uint64_t blk, const uint8_t *data, size_t len)
{
	return f2fs_mix64((blk << 32 ^ blk >> 32) ^ crc_of(data, len));
}

static uint32_t fp_fold(uint64_t fp)
{
	return (uint32_t)(fp ^ fp >> 32);
}

static bool all_zero(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Read up to @len bytes; *@got is how many the file had there. */
static int pread_some(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
	uint8_t *p = buf;

	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, p + *got, len - *got, (off_t)(off + *got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* Is there an F2FS superblock on @dev (either copy), and its UUID. */
static int device_identity(struct f2fs_device *dev, bool *f2fs, uint8_t uuid[16])
{
	uint8_t blocks[2 * F2FS_BLKSIZE];
	unsigned int i;
	int ret;

	*f2fs = false;
	memset(uuid, 0, 16);
	if (f2fs_dev_get_info(dev)->size_bytes < sizeof(blocks))
		return 0;
	ret = f2fs_dev_read(dev, blocks, 0, sizeof(blocks));
	if (ret)
		return ret;
	for (i = 0; i < 2 && !*f2fs; i++) {
		const struct f2fs_super_block *sb =
		    (const void *)(blocks + i * F2FS_BLKSIZE + F2FS_SUPER_OFFSET);

		if (le32_get(sb->magic) == F2FS_SUPER_MAGIC) {
			*f2fs = true;
			memcpy(uuid, sb->uuid, 16);
		}
	}
	return 0;
}

/*
 * The fingerprint of what says which state an F2FS is in: both superblock
 * blocks and both checkpoint packs (every run that changes a volume writes
 * a checkpoint, to the pack the journal's blocks may not cover).  Without
 * an F2FS, the superblock blocks alone.  @buf holds CHUNK_BLOCKS blocks.
 */
static int state_fp(struct f2fs_device *dev, uint8_t *buf, uint64_t *fp)
{
	uint64_t size = f2fs_dev_get_info(dev)->size_bytes, blk, cp = 0;
	const struct f2fs_super_block *sb;
	unsigned int i;
	int ret;

	*fp = 0;
	if (size < 2 * F2FS_BLKSIZE)
		return 0;
	ret = f2fs_dev_read(dev, buf, 0, 2 * F2FS_BLKSIZE);
	for (i = 0; !ret && i < 2; i++) {
		sb = (const void *)(buf + i * F2FS_BLKSIZE + F2FS_SUPER_OFFSET);
		if (!cp && le32_get(sb->magic) == F2FS_SUPER_MAGIC)
			cp = le32_get(sb->cp_blkaddr);
		*fp += fp_block(i, buf + i * F2FS_BLKSIZE, F2FS_BLKSIZE);
	}
	if (ret || !cp || (cp + 2 * BLKS_PER_PACK) * F2FS_BLKSIZE > size)
		return ret;
	for (blk = cp; !ret && blk < cp + 2 * BLKS_PER_PACK; blk += CHUNK_BLOCKS) {
		ret = f2fs_dev_read(dev, buf, blk * F2FS_BLKSIZE,
				    (size_t)CHUNK_BLOCKS * F2FS_BLKSIZE);
		for (i = 0; !ret && i < CHUNK_BLOCKS; i++)
			*fp += fp_block(blk + i, buf + (size_t)i * F2FS_BLKSIZE, F2FS_BLKSIZE);
	}
	return ret;
}

/* ---- the layer ---- */

static bool is_saved(const struct undo *u, uint64_t blk)
{
	return u->saved[blk >> 3] & (1u << (blk & 7));
}

static void mark_saved(struct undo *u, uint64_t blk, uint32_t n)
{
	for (; n; n--, blk++)
		u->saved[blk >> 3] |= (uint8_t)(1u << (blk & 7));
}

static int append_record(struct undo *u, uint32_t kind, uint64_t blk, uint32_t n,
			 const uint8_t *data)
{
	struct undo_disk_record r;
	size_t len = kind == REC_DATA ? (size_t)n * F2FS_BLKSIZE : 0;
	int ret;

	memset(&r, 0, sizeof(r));
	memcpy(r.magic, REC_MAGIC, 4);
	r.kind = le32_put(kind);
	r.blkaddr = le64_put(blk);
	r.nblocks = le32_put(n);
	r.data_crc = le32_put(len ? crc_of(data, len) : 0);
	r.seq = le32_put((uint32_t)u->records);
	r.crc = le32_put(crc_of(&r, offsetof(struct undo_disk_record, crc)));
	ret = pwrite_all(u->fd, &r, sizeof(r), u->end);
	if (!ret && len)
		ret = pwrite_all(u->fd, data, len, u->end + sizeof(r));
	if (ret)
		return ret;
	u->end += sizeof(r) + len;
	u->records++;
	u->blocks += n;
	mark_saved(u, blk, n);
	return 0;
}

/* Journal @n unsaved blocks from @blk, read from the device: zero runs without data. */
/* The bytes of [off, off + len) that lie on a device of @size: its last block may be partial. */
static size_t on_device(uint64_t size, uint64_t off, uint64_t len)
{
	if (off >= size)
		return 0;
	return (size_t)(size - off < len ? size - off : len);
}

static int save_chunk(struct undo *u, uint64_t blk, uint32_t n)
{
	size_t len = (size_t)n * F2FS_BLKSIZE;
	size_t have = on_device(u->device_bytes, blk * F2FS_BLKSIZE, len);
	uint32_t i = 0;
	int ret = f2fs_dev_read(u->lower, u->buf, blk * F2FS_BLKSIZE, have);

	memset(u->buf + have, 0, len - have);

	while (!ret && i < n) {
		bool zero = all_zero(u->buf + (size_t)i * F2FS_BLKSIZE, F2FS_BLKSIZE);
		uint32_t j = i + 1;

		while (j < n && all_zero(u->buf + (size_t)j * F2FS_BLKSIZE, F2FS_BLKSIZE) == zero)
			j++;
		ret = append_record(u, zero ? REC_ZERO : REC_DATA, blk + i, j - i,
				    u->buf + (size_t)i * F2FS_BLKSIZE);
		i = j;
	}
	return ret;
}

/* Save the blocks of [off, off + len) not saved yet, then sync the journal. */
static int save_range(struct undo *u, uint64_t off, uint64_t len)
{
	uint64_t blk, last;
	bool saved_any = false;
	int ret = 0;

	if (!len)
		return 0;
	last = (off + len - 1) / F2FS_BLKSIZE;
	for (blk = off / F2FS_BLKSIZE; blk <= last && !ret;) {
		uint32_t n = 0;

		if (is_saved(u, blk)) {
			blk++;
			continue;
		}
		while (blk + n <= last && n < CHUNK_BLOCKS && !is_saved(u, blk + n))
			n++;
		ret = save_chunk(u, blk, n);
		saved_any = true;
		blk += n;
	}
	if (!ret && saved_any && fdatasync(u->fd))
		ret = -errno;
	return ret;
}

static int undo_write(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		      size_t len, enum f2fs_dev_tag tag)
{
	int ret = save_range(priv, off, len);

	return ret ? ret : f2fs_dev_write_tagged(lower, buf, off, len, tag);
}

static int undo_zero(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len)
{
	int ret = save_range(priv, off, len);

	return ret ? ret : f2fs_dev_zero(lower, off, len);
}

static int undo_discard(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len,
			bool *reads_zero)
{
	int ret = save_range(priv, off, len);

	return ret ? ret : f2fs_dev_discard(lower, off, len, reads_zero);
}

static void fill_header(const struct undo *u, bool finished, bool f2fs_after,
			const uint8_t *uuid_after, const uint32_t *state, uint8_t *block)
{
	struct undo_disk_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, UNDO_MAGIC, 8);
	h.version = le32_put(F2FS_UNDO_VERSION);
	h.block_size = le32_put(F2FS_BLKSIZE);
	h.device_bytes = le64_put(u->device_bytes);
	h.finished = le32_put(finished);
	h.fs_flags = le32_put((u->f2fs_before ? FS_BEFORE : 0) | (f2fs_after ? FS_AFTER : 0) |
			      (state ? FS_STATE : 0));
	h.state = le32_put(state ? *state : 0);
	memcpy(h.uuid_before, u->uuid_before, 16);
	if (uuid_after)
		memcpy(h.uuid_after, uuid_after, 16);
	h.records = le64_put(u->records);
	h.blocks = le64_put(u->blocks);
	h.crc = le32_put(crc_of(&h, offsetof(struct undo_disk_header, crc)));
	memset(block, 0, HDR_BYTES);
	memcpy(block, &h, sizeof(h));
}

static int write_header(struct undo *u, bool finished, bool f2fs_after, const uint8_t *uuid_after,
			const uint32_t *state)
{
	uint8_t block[HDR_BYTES];
	int ret;

	fill_header(u, finished, f2fs_after, uuid_after, state, block);
	ret = pwrite_all(u->fd, block, sizeof(block), 0);
	if (!ret && fdatasync(u->fd))
		ret = -errno;
	return ret;
}

static void undo_free(struct undo *u)
{
	if (u->fd >= 0)
		close(u->fd);
	free(u->saved);
	free(u->buf);
	free(u);
}

/* The fingerprint of the journaled blocks as the device holds them now. */
static int saved_state(struct undo *u, uint32_t *state)
{
	uint64_t blk, fp = 0;
	int ret = 0;

	uint64_t id = 0;

	for (blk = 0; !ret && blk < u->dev_blocks; blk++) {
		size_t len = on_device(u->device_bytes, blk * F2FS_BLKSIZE, F2FS_BLKSIZE);

		if (!is_saved(u, blk))
			continue;
		ret = f2fs_dev_read(u->lower, u->buf, blk * F2FS_BLKSIZE, len);
		fp += fp_block(blk, u->buf, len);
	}
	if (!ret)
		ret = state_fp(u->lower, u->buf, &id);
	*state = fp_fold(fp + id);
	return ret;
}

/*
 * Closed: the run is over, the journal says so, with what the device holds
 * now: its F2FS, and the fingerprint of every block the journal restores,
 * so that f2fs_undo can tell the state the run left from a later one.
 */
static void undo_release(void *priv)
{
	struct undo *u = priv;
	uint8_t uuid[16];
	bool f2fs = false;
	uint32_t state;

	/*
	 * A journal that cannot be marked finished stays a journal cut short,
	 * which f2fs_undo still applies: nothing to report from here.
	 */
	if (!f2fs_dev_flush(u->lower) && !device_identity(u->lower, &f2fs, uuid) &&
	    !saved_state(u, &state))
		write_header(u, true, f2fs, uuid, &state);
	undo_free(u);
}

static const struct f2fs_dev_layer_ops undo_ops = {
    .write_tagged = undo_write,
    .zero = undo_zero,
    .discard = undo_discard,
    .release = undo_release,
};

/* Is @journal the device itself (the same file or block device)? */
static bool same_file(const char *journal, struct f2fs_device *dev)
{
	struct stat a, b;

	if (stat(journal, &a) || stat(f2fs_dev_path(dev), &b))
		return false;
	if (S_ISBLK(a.st_mode) && S_ISBLK(b.st_mode))
		return a.st_rdev == b.st_rdev;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int undo_new(struct f2fs_device *lower, struct undo **out)
{
	struct undo *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->fd = -1;
	u->lower = lower;
	u->device_bytes = f2fs_dev_get_info(lower)->size_bytes;
	u->dev_blocks = (u->device_bytes + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	u->saved = calloc((size_t)(u->dev_blocks / 8 + 1), 1);
	u->buf = malloc((size_t)CHUNK_BLOCKS * F2FS_BLKSIZE);
	if (!u->saved || !u->buf) {
		undo_free(u);
		return -ENOMEM;
	}
	u->end = HDR_BYTES;
	*out = u;
	return 0;
}

int f2fs_undo_stack(struct f2fs_device *lower, const char *journal, struct f2fs_device **out)
{
	struct undo *u;
	int ret;

	if (same_file(journal, lower))
		return -EEXIST;
	ret = undo_new(lower, &u);
	if (ret)
		return ret;
	ret = device_identity(lower, &u->f2fs_before, u->uuid_before);
	if (!ret) {
		u->fd = open(journal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (u->fd < 0)
			ret = -errno;
	}
	if (!ret)
		ret = write_header(u, false, false, NULL, NULL);
	if (!ret)
		ret = f2fs_dev_stack(lower, &undo_ops, u, out);
	if (ret)
		undo_free(u);
	return ret;
}

/* ---- reading a journal back ---- */

struct reader {
	int fd;
	uint64_t size; /* of the journal file */
	uint64_t pos;
	uint64_t dev_blocks;
	uint8_t *buf;	    /* CHUNK_BLOCKS blocks */
	uint64_t fp_before; /* the fingerprint of the complete records' blocks */
};

/*
 * The fingerprint of a record's blocks as it restores them (a zero
 * record's are zeros); each block counts only its part on the device.
 */
static uint64_t record_fp(uint64_t dev_bytes, const struct undo_disk_record *r, const uint8_t *data)
{
	static const uint8_t zeros[F2FS_BLKSIZE];
	uint64_t blk = le64_get(r->blkaddr), fp = 0;
	uint32_t i, n = le32_get(r->nblocks);
	bool zero = le32_get(r->kind) == REC_ZERO;

	for (i = 0; i < n; i++) {
		size_t len = on_device(dev_bytes, (blk + i) * F2FS_BLKSIZE, F2FS_BLKSIZE);

		fp += fp_block(blk + i, zero ? zeros : data + (size_t)i * F2FS_BLKSIZE, len);
	}
	return fp;
}

static int read_header(struct reader *rd, struct f2fs_undo_summary *s)
{
	struct undo_disk_header h;
	size_t got;
	uint32_t flags;
	int ret = pread_some(rd->fd, &h, sizeof(h), 0, &got);

	if (ret)
		return ret;
	if (got < sizeof(h) || memcmp(h.magic, UNDO_MAGIC, 8)) {
		s->problem = F2FS_UNDO_NOT_JOURNAL;
		return 0;
	}
	if (le32_get(h.crc) != crc_of(&h, offsetof(struct undo_disk_header, crc))) {
		s->problem = F2FS_UNDO_HEADER_CRC;
		return 0;
	}
	if (le32_get(h.version) != F2FS_UNDO_VERSION || le32_get(h.block_size) != F2FS_BLKSIZE) {
		s->problem = F2FS_UNDO_BAD_VERSION;
		return 0;
	}
	flags = le32_get(h.fs_flags);
	s->finished = le32_get(h.finished) != 0;
	s->device_bytes = le64_get(h.device_bytes);
	s->f2fs_before = flags & FS_BEFORE;
	s->f2fs_after = s->finished && (flags & FS_AFTER);
	s->has_state = s->finished && (flags & FS_STATE);
	s->state_after = le32_get(h.state);
	memcpy(s->uuid_before, h.uuid_before, 16);
	memcpy(s->uuid_after, h.uuid_after, 16);
	rd->dev_blocks = (s->device_bytes + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	rd->pos = HDR_BYTES;
	return 0;
}

/* Does the journal hold only zeros from @off to its end (space a crash left unwritten)? */
static int zeros_to_end(struct reader *rd, uint64_t off, bool *zero)
{
	size_t got;
	int ret;

	*zero = true;
	while (off < rd->size && *zero) {
		ret = pread_some(rd->fd, rd->buf, (size_t)CHUNK_BLOCKS * F2FS_BLKSIZE, off, &got);
		if (ret)
			return ret;
		if (!got)
			break;
		*zero = all_zero(rd->buf, got);
		off += got;
	}
	return 0;
}

static bool record_sane(const struct reader *rd, const struct undo_disk_record *r, uint64_t seq)
{
	uint32_t kind = le32_get(r->kind), n = le32_get(r->nblocks);
	uint64_t blk = le64_get(r->blkaddr);

	return !memcmp(r->magic, REC_MAGIC, 4) &&
	       le32_get(r->crc) == crc_of(r, offsetof(struct undo_disk_record, crc)) &&
	       (kind == REC_DATA || kind == REC_ZERO) && n && n <= CHUNK_BLOCKS &&
	       blk < rd->dev_blocks && n <= rd->dev_blocks - blk &&
	       le32_get(r->seq) == (uint32_t)seq;
}

enum rec_state { REC_OK, REC_TORN, REC_BAD };

/*
 * The record at rd->pos: REC_OK with its header in *@r (and its data in
 * rd->buf), REC_TORN for an incomplete last record, REC_BAD for a corrupt
 * one.  A record is incomplete when the journal ends inside it, or when
 * what follows its start is all zeros (the file grew, its data never came).
 */
static int next_record(struct reader *rd, uint64_t seq, struct undo_disk_record *r,
		       enum rec_state *st)
{
	uint64_t left = rd->size - rd->pos, len;
	size_t got;
	bool zero;
	int ret = pread_some(rd->fd, r, sizeof(*r), rd->pos, &got);

	if (ret)
		return ret;
	if (got < sizeof(*r) || !record_sane(rd, r, seq)) {
		ret = zeros_to_end(rd, rd->pos, &zero);
		*st = got < sizeof(*r) || zero ? REC_TORN : REC_BAD;
		return ret;
	}
	len = le32_get(r->kind) == REC_DATA ? (uint64_t)le32_get(r->nblocks) * F2FS_BLKSIZE : 0;
	if (left < sizeof(*r) + len) {
		*st = REC_TORN;
		return 0;
	}
	*st = REC_OK;
	if (!len)
		return 0;
	ret = pread_some(rd->fd, rd->buf, (size_t)len, rd->pos + sizeof(*r), &got);
	if (ret)
		return ret;
	if (got < len || crc_of(rd->buf, (size_t)len) != le32_get(r->data_crc))
		*st = left == sizeof(*r) + len ? REC_TORN : REC_BAD;
	return 0;
}

typedef int (*record_fn)(void *arg, const struct undo_disk_record *r, const uint8_t *data);

/* Walk the journal's records, verifying each; @fn (may be NULL) gets each complete one. */
static int walk(struct reader *rd, struct f2fs_undo_summary *s, record_fn fn, void *arg)
{
	struct undo_disk_record r;
	enum rec_state st;
	int ret;

	while (rd->pos < rd->size) {
		ret = next_record(rd, s->records, &r, &st);
		if (ret)
			return ret;
		if (st == REC_TORN) {
			s->torn_tail = true;
			break;
		}
		if (st == REC_BAD) {
			s->problem = F2FS_UNDO_RECORD_CORRUPT;
			s->problem_at = rd->pos;
			break;
		}
		if (fn && (ret = fn(arg, &r, rd->buf)))
			return ret;
		rd->fp_before += record_fp(s->device_bytes, &r, rd->buf);
		s->records++;
		s->blocks += le32_get(r.nblocks);
		if (le32_get(r.kind) == REC_ZERO)
			s->zero_blocks += le32_get(r.nblocks);
		rd->pos += sizeof(r) + (le32_get(r.kind) == REC_DATA
					    ? (uint64_t)le32_get(r.nblocks) * F2FS_BLKSIZE
					    : 0);
	}
	s->state_before = fp_fold(rd->fp_before);
	return 0;
}

static int reader_open(const char *journal, struct reader *rd)
{
	struct stat st;

	memset(rd, 0, sizeof(*rd));
	rd->fd = open(journal, O_RDONLY | O_CLOEXEC);
	if (rd->fd < 0)
		return -errno;
	rd->buf = malloc((size_t)CHUNK_BLOCKS * F2FS_BLKSIZE);
	if (!rd->buf || fstat(rd->fd, &st)) {
		int ret = rd->buf ? -errno : -ENOMEM;

		close(rd->fd);
		free(rd->buf);
		return ret;
	}
	rd->size = (uint64_t)st.st_size;
	return 0;
}

static void reader_close(struct reader *rd)
{
	close(rd->fd);
	free(rd->buf);
}

/* Read @journal's header, then its records with @fn, into *@s. */
static int read_journal(const char *journal, struct f2fs_undo_summary *s, record_fn fn, void *arg)
{
	struct reader rd;
	int ret = reader_open(journal, &rd);

	memset(s, 0, sizeof(*s));
	if (ret)
		return ret;
	ret = read_header(&rd, s);
	if (!ret && s->problem == F2FS_UNDO_OK)
		ret = walk(&rd, s, fn, arg);
	reader_close(&rd);
	return ret;
}

int f2fs_undo_inspect(const char *journal, struct f2fs_undo_summary *s)
{
	return read_journal(journal, s, NULL, NULL);
}

int f2fs_undo_check_device(const struct f2fs_undo_summary *s, struct f2fs_device *dev,
			   enum f2fs_undo_problem *why)
{
	uint8_t uuid[16];
	bool f2fs, want_f2fs;
	const uint8_t *want;
	int ret;

	*why = F2FS_UNDO_OK;
	if (f2fs_dev_get_info(dev)->size_bytes != s->device_bytes) {
		*why = F2FS_UNDO_DEVICE_SIZE;
		return 0;
	}
	ret = device_identity(dev, &f2fs, uuid);
	if (ret)
		return ret;
	want_f2fs = s->finished ? s->f2fs_after : s->f2fs_before;
	want = s->finished ? s->uuid_after : s->uuid_before;
	if (f2fs != want_f2fs || (f2fs && memcmp(uuid, want, 16)))
		*why = s->finished ? F2FS_UNDO_WRONG_FS : F2FS_UNDO_UNFINISHED_FS;
	return 0;
}

/* Reading the device's blocks under the records, to fingerprint them. */
struct state_reader {
	struct f2fs_device *dev;
	uint8_t *buf;
	uint64_t fp;
};

static int fp_device_record(void *arg, const struct undo_disk_record *r, const uint8_t *data)
{
	struct state_reader *sr = arg;
	uint64_t size = f2fs_dev_get_info(sr->dev)->size_bytes;
	uint64_t blk = le64_get(r->blkaddr);
	uint32_t i, n = le32_get(r->nblocks);
	int ret = 0;

	(void)data;
	for (i = 0; !ret && i < n; i++) {
		size_t len = on_device(size, (blk + i) * F2FS_BLKSIZE, F2FS_BLKSIZE);

		ret = f2fs_dev_read(sr->dev, sr->buf, (blk + i) * F2FS_BLKSIZE, len);
		sr->fp += fp_block(blk + i, sr->buf, len);
	}
	return ret;
}

int f2fs_undo_check_state(const char *journal, const struct f2fs_undo_summary *s,
			  struct f2fs_device *dev, enum f2fs_undo_problem *why)
{
	struct f2fs_undo_summary again;
	struct state_reader sr = {.dev = dev};
	uint64_t id = 0;
	int ret;

	*why = F2FS_UNDO_OK;
	/* cut short, or an older journal: the F2FS check is all there is */
	if (!s->has_state || s->torn_tail)
		return 0;
	sr.buf = malloc((size_t)CHUNK_BLOCKS * F2FS_BLKSIZE);
	if (!sr.buf)
		return -ENOMEM;
	ret = read_journal(journal, &again, fp_device_record, &sr);
	if (!ret)
		ret = state_fp(dev, sr.buf, &id);
	free(sr.buf);
	if (ret)
		return ret;
	if (fp_fold(sr.fp + id) == s->state_after)
		return 0;
	/* the journal's blocks hold what it restores: applied (whatever the packs hold now) */
	*why =
	    s->blocks && fp_fold(sr.fp) == s->state_before ? F2FS_UNDO_APPLIED : F2FS_UNDO_CHANGED;
	return 0;
}

static int restore_record(void *arg, const struct undo_disk_record *r, const uint8_t *data)
{
	struct f2fs_device *dev = arg;
	uint64_t off = le64_get(r->blkaddr) * F2FS_BLKSIZE;
	size_t len = on_device(f2fs_dev_get_info(dev)->size_bytes, off,
			       (uint64_t)le32_get(r->nblocks) * F2FS_BLKSIZE);

	if (!len)
		return 0;
	if (le32_get(r->kind) == REC_ZERO)
		return f2fs_dev_zero(dev, off, len);
	return f2fs_dev_write(dev, data, off, len);
}

int f2fs_undo_apply(const char *journal, struct f2fs_device *dev, struct f2fs_undo_summary *s)
{
	struct f2fs_undo_summary mine;
	int ret;

	if (!s)
		s = &mine;
	ret = f2fs_undo_inspect(journal, s);
	if (ret)
		return ret;
	if (s->problem != F2FS_UNDO_OK)
		return -EINVAL;
	ret = read_journal(journal, s, restore_record, dev);
	return ret ? ret : f2fs_dev_flush(dev);
}
