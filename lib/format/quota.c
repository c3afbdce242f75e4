// SPDX-License-Identifier: GPL-2.0
/*
 * The quota file format (see include/f2fs/quota.h): sets of records, the
 * decoder that follows the radix tree as the kernel's lookups do, and the
 * encoder that lays a set out the way the kernel's inserts would (tree
 * blocks on the way down, then the data block, records in id order, only
 * the last data block left with free slots).  The decoder refuses what
 * would send the kernel's lookup outside the file or round a loop, and a
 * record the kernel's lookup of its id could not reach.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "f2fs/quota.h"

#define QUOTA_VERSION  1u
#define QUOTA_REFS     (F2FS_QUOTA_BLOCK / 4u)
#define QUOTA_INFO_END (F2FS_V2_DQINFOOFF + sizeof(struct f2fs_v2_dqinfo))
#define DQ_NEXT_FREE   0u
#define DQ_PREV_FREE   4u
#define DQ_ENTRIES     8u
#define DQ_RECORD_SIZE sizeof(struct f2fs_v2r1_dqblk)

static const uint32_t quota_magic[F2FS_MAX_QUOTAS] = {
    F2FS_QUOTA_USR_MAGIC,
    F2FS_QUOTA_GRP_MAGIC,
    F2FS_QUOTA_PRJ_MAGIC,
};

const char *f2fs_quota_type_name(unsigned int type)
{
	static const char *const names[F2FS_MAX_QUOTAS] = {"user", "group", "project"};

	return type < F2FS_MAX_QUOTAS ? names[type] : "unknown";
}

void f2fs_quota_set_init(struct f2fs_quota_set *s)
{
	memset(s, 0, sizeof(*s));
	s->bgrace = F2FS_MAX_DQ_TIME;
	s->igrace = F2FS_MAX_IQ_TIME;
}

void f2fs_quota_set_free(struct f2fs_quota_set *s)
{
	free(s->q);
	s->q = NULL;
	s->n = s->cap = 0;
}

/* Index of @id, or where it would go. */
static size_t find_slot(const struct f2fs_quota_set *s, uint32_t id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->q[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct f2fs_dquot *f2fs_quota_find(const struct f2fs_quota_set *s, uint32_t id)
{
	size_t i = find_slot(s, id);

	return i < s->n && s->q[i].id == id ? &s->q[i] : NULL;
}

struct f2fs_dquot *f2fs_quota_get(struct f2fs_quota_set *s, uint32_t id)
{
	size_t i = find_slot(s, id);

	if (i < s->n && s->q[i].id == id)
		return &s->q[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct f2fs_dquot *q = realloc(s->q, cap * sizeof(*q));

		if (!q)
			return NULL;
		s->q = q;
		s->cap = cap;
	}
	memmove(&s->q[i + 1], &s->q[i], (s->n - i) * sizeof(*s->q));
	memset(&s->q[i], 0, sizeof(*s->q));
	s->q[i].id = id;
	s->n++;
	return &s->q[i];
}

int f2fs_quota_charge(struct f2fs_quota_set *s, uint32_t id, int64_t inodes, int64_t space)
{
	struct f2fs_dquot *d = f2fs_quota_get(s, id);

	if (!d)
		return -ENOMEM;
	d->inodes += (uint64_t)inodes;
	d->space += (uint64_t)space;
	return 0;
}

static bool has_usage(const struct f2fs_dquot *d)
{
	return d->inodes || d->space;
}

static bool worth_keeping(const struct f2fs_dquot *d)
{
	return has_usage(d) || d->ihard || d->isoft || d->bhard || d->bsoft;
}

/* ---- decoding ---- */

struct decoder {
	const uint8_t *buf;
	uint32_t blocks;
	uint8_t *seen; /* per block: 1 tree block, 2 data block decoded */
	struct f2fs_quota_set *out;
	char *why;
	size_t whylen;
};

static int refuse(struct decoder *d, const char *fmt, ...)
{
	va_list ap;

	if (d->whylen) {
		va_start(ap, fmt);
		vsnprintf(d->why, d->whylen, fmt, ap);
		va_end(ap);
	}
	return -EUCLEAN;
}

static uint32_t ref_at(const uint8_t *block, unsigned int i)
{
	le32 v;

	memcpy(&v, block + 4u * i, sizeof(v));
	return le32_get(v);
}

static const uint8_t *qblock(const struct decoder *d, uint32_t blk)
{
	return d->buf + (size_t)blk * F2FS_QUOTA_BLOCK;
}

static unsigned int id_index(uint32_t id, unsigned int depth)
{
	return (id >> ((F2FS_QUOTA_TREE_DEPTH - depth - 1) * 8u)) & 0xffu;
}

/* The data block the kernel's lookup of @id reaches, 0 for none. */
static uint32_t lookup_block(const struct decoder *d, uint32_t id)
{
	uint32_t blk = F2FS_QT_TREEOFF;
	unsigned int depth;

	for (depth = 0; depth < F2FS_QUOTA_TREE_DEPTH && blk; depth++)
		blk = ref_at(qblock(d, blk), id_index(id, depth));
	return blk;
}

static bool record_unused(const uint8_t *rec)
{
	unsigned int i;

	for (i = 0; i < DQ_RECORD_SIZE; i++)
		if (rec[i])
			return false;
	return true;
}

static void record_to_dquot(const uint8_t *rec, struct f2fs_dquot *q)
{
	struct f2fs_v2r1_dqblk b;

	memcpy(&b, rec, sizeof(b));
	q->inodes = le64_get(b.dqb_curinodes);
	q->space = le64_get(b.dqb_curspace);
	q->ihard = le64_get(b.dqb_ihardlimit);
	q->isoft = le64_get(b.dqb_isoftlimit);
	q->bhard = le64_get(b.dqb_bhardlimit);
	q->bsoft = le64_get(b.dqb_bsoftlimit);
	q->btime = le64_get(b.dqb_btime);
	q->itime = le64_get(b.dqb_itime);
}

static int decode_data(struct decoder *d, uint32_t blk)
{
	const uint8_t *b = qblock(d, blk);
	unsigned int i, used = 0;
	uint16_t entries;
	le16 e;

	memcpy(&e, b + DQ_ENTRIES, sizeof(e));
	entries = le16_get(e);
	for (i = 0; i < F2FS_QUOTA_PER_BLOCK; i++) {
		const uint8_t *rec = b + F2FS_QUOTA_DATA_HEADER + i * DQ_RECORD_SIZE;
		struct f2fs_v2r1_dqblk head;
		struct f2fs_dquot *q;
		uint32_t id;

		if (record_unused(rec))
			continue;
		used++;
		memcpy(&head, rec, sizeof(head));
		id = le32_get(head.dqb_id);
		if (lookup_block(d, id) != blk)
			return refuse(d,
				      "quota block %u holds id %u, which the tree does not lead to",
				      blk, id);
		if (f2fs_quota_find(d->out, id))
			return refuse(d, "id %u is recorded twice", id);
		q = f2fs_quota_get(d->out, id);
		if (!q)
			return -ENOMEM;
		record_to_dquot(rec, q);
	}
	if (used != entries)
		return refuse(d, "quota block %u says %u records, holds %u", blk, entries, used);
	return 0;
}

static int decode_tree(struct decoder *d, uint32_t blk, unsigned int depth)
{
	unsigned int i;
	int ret = 0;

	if (blk < F2FS_QT_TREEOFF || blk >= d->blocks)
		return refuse(d, "quota tree points at block %u of %u", blk, d->blocks);
	if (depth == F2FS_QUOTA_TREE_DEPTH) {
		if (d->seen[blk] == 1)
			return refuse(d, "quota block %u is both a tree and a data block", blk);
		if (d->seen[blk] == 2)
			return 0; /* shared by the leaves of several ids */
		d->seen[blk] = 2;
		return decode_data(d, blk);
	}
	if (d->seen[blk])
		return refuse(d, "quota tree reaches block %u twice", blk);
	d->seen[blk] = 1;
	for (i = 0; i < QUOTA_REFS && !ret; i++) {
		uint32_t ref = ref_at(qblock(d, blk), i);

		if (ref)
			ret = decode_tree(d, ref, depth + 1);
	}
	return ret;
}

static int decode_info(struct decoder *d, size_t len, unsigned int type)
{
	struct f2fs_v2_dqheader h;
	struct f2fs_v2_dqinfo info;
	uint32_t blocks, free_blk, free_entry;

	if (len < QUOTA_INFO_END)
		return refuse(d, "quota file of %zu bytes has no header", len);
	memcpy(&h, d->buf, sizeof(h));
	memcpy(&info, d->buf + F2FS_V2_DQINFOOFF, sizeof(info));
	if (le32_get(h.dqh_magic) != quota_magic[type] || le32_get(h.dqh_version) != QUOTA_VERSION)
		return refuse(d, "not a %s quota file (magic 0x%x version %u)",
			      f2fs_quota_type_name(type), le32_get(h.dqh_magic),
			      le32_get(h.dqh_version));
	blocks = le32_get(info.dqi_blocks);
	free_blk = le32_get(info.dqi_free_blk);
	free_entry = le32_get(info.dqi_free_entry);
	if (blocks <= F2FS_QT_TREEOFF || blocks > F2FS_QUOTA_MAX_BLOCKS ||
	    (uint64_t)blocks * F2FS_QUOTA_BLOCK > len)
		return refuse(d, "quota file says %u blocks, has %zu bytes", blocks, len);
	if (free_blk >= blocks || free_entry >= blocks)
		return refuse(d, "quota free list starts at block %u of %u",
			      free_blk >= blocks ? free_blk : free_entry, blocks);
	d->blocks = blocks;
	d->out->bgrace = le32_get(info.dqi_bgrace);
	d->out->igrace = le32_get(info.dqi_igrace);
	d->out->flags = le32_get(info.dqi_flags);
	return 0;
}

int f2fs_quota_decode(const uint8_t *buf, size_t len, unsigned int type, struct f2fs_quota_set *out,
		      char *why, size_t whylen)
{
	struct decoder d = {buf, 0, NULL, out, why, whylen};
	int ret;

	f2fs_quota_set_init(out);
	if (type >= F2FS_MAX_QUOTAS)
		return -EINVAL;
	if (!len)
		return 0;
	ret = decode_info(&d, len, type);
	if (ret)
		return ret;
	d.seen = calloc(d.blocks, 1);
	if (!d.seen)
		return -ENOMEM;
	ret = decode_tree(&d, F2FS_QT_TREEOFF, 0);
	free(d.seen);
	if (ret)
		f2fs_quota_set_free(out);
	return ret;
}

/* ---- encoding ---- */

struct encoder {
	uint8_t *buf;
	uint32_t blocks, cap; /* in use, allocated (1 KiB blocks) */
	uint32_t data;	      /* the data block being filled, 0 before the first */
	uint16_t entries;     /* records in it */
};

static int new_block(struct encoder *e, uint32_t *blk)
{
	if (e->blocks == e->cap) {
		uint32_t cap = e->cap * 2;
		uint8_t *b = realloc(e->buf, (size_t)cap * F2FS_QUOTA_BLOCK);

		if (!b)
			return -ENOMEM;
		memset(b + (size_t)e->cap * F2FS_QUOTA_BLOCK, 0,
		       (size_t)(cap - e->cap) * F2FS_QUOTA_BLOCK);
		e->buf = b;
		e->cap = cap;
	}
	*blk = e->blocks++;
	return 0;
}

static uint8_t *eblock(const struct encoder *e, uint32_t blk)
{
	return e->buf + (size_t)blk * F2FS_QUOTA_BLOCK;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	le32 x = le32_put(v);

	memcpy(p, &x, sizeof(x));
}

static void put_le16(uint8_t *p, uint16_t v)
{
	le16 x = le16_put(v);

	memcpy(p, &x, sizeof(x));
}

/* The tree path of @id, made where missing; the leaf's slot in *@leaf. */
static int descend(struct encoder *e, uint32_t id, uint8_t **leaf)
{
	uint32_t blk = F2FS_QT_TREEOFF, next;
	unsigned int depth;
	int ret;

	for (depth = 0; depth + 1 < F2FS_QUOTA_TREE_DEPTH; depth++) {
		uint8_t *slot = eblock(e, blk) + 4u * id_index(id, depth);

		next = ref_at(slot, 0);
		if (!next) {
			ret = new_block(e, &next);
			if (ret)
				return ret;
			put_le32(eblock(e, blk) + 4u * id_index(id, depth), next);
		}
		blk = next;
	}
	*leaf = eblock(e, blk) + 4u * id_index(id, depth);
	return 0;
}

static void put_record(uint8_t *rec, const struct f2fs_dquot *q)
{
	struct f2fs_v2r1_dqblk b = {0};

	b.dqb_id = le32_put(q->id);
	b.dqb_ihardlimit = le64_put(q->ihard);
	b.dqb_isoftlimit = le64_put(q->isoft);
	b.dqb_curinodes = le64_put(q->inodes);
	b.dqb_bhardlimit = le64_put(q->bhard);
	b.dqb_bsoftlimit = le64_put(q->bsoft);
	b.dqb_curspace = le64_put(q->space);
	b.dqb_btime = le64_put(q->btime);
	b.dqb_itime = le64_put(q->itime);
	memcpy(rec, &b, sizeof(b));
	if (record_unused(rec)) /* id 0 with nothing to say: the kernel marks it used */
		put_le32(rec + offsetof(struct f2fs_v2r1_dqblk, dqb_itime), 1);
}

static int insert(struct encoder *e, const struct f2fs_dquot *q)
{
	uint8_t *leaf;
	int ret = descend(e, q->id, &leaf);

	if (ret)
		return ret;
	if (!e->data || e->entries == F2FS_QUOTA_PER_BLOCK) {
		ret = new_block(e, &e->data);
		if (ret)
			return ret;
		e->entries = 0;
		ret = descend(e, q->id, &leaf); /* the buffer may have moved */
		if (ret)
			return ret;
	}
	put_le32(leaf, e->data);
	put_record(eblock(e, e->data) + F2FS_QUOTA_DATA_HEADER + e->entries * DQ_RECORD_SIZE, q);
	e->entries++;
	put_le16(eblock(e, e->data) + DQ_ENTRIES, e->entries);
	return 0;
}

static void put_info(struct encoder *e, const struct f2fs_quota_set *s, unsigned int type)
{
	struct f2fs_v2_dqheader h = {le32_put(quota_magic[type]), le32_put(QUOTA_VERSION)};
	struct f2fs_v2_dqinfo info = {0};

	info.dqi_bgrace = le32_put(s->bgrace);
	info.dqi_igrace = le32_put(s->igrace);
	info.dqi_flags = le32_put(s->flags);
	info.dqi_blocks = le32_put(e->blocks);
	/* every data block but the last is full: only that one has free slots */
	if (e->data && e->entries < F2FS_QUOTA_PER_BLOCK)
		info.dqi_free_entry = le32_put(e->data);
	memcpy(e->buf, &h, sizeof(h));
	memcpy(e->buf + F2FS_V2_DQINFOOFF, &info, sizeof(info));
}

int f2fs_quota_encode(const struct f2fs_quota_set *s, unsigned int type, uint8_t **buf, size_t *len)
{
	struct encoder e = {NULL, 0, 0, 0, 0};
	uint32_t blk;
	size_t i;
	int ret;

	if (type >= F2FS_MAX_QUOTAS)
		return -EINVAL;
	e.buf = calloc(8, F2FS_QUOTA_BLOCK);
	if (!e.buf)
		return -ENOMEM;
	e.cap = 8;
	ret = new_block(&e, &blk); /* the header */
	if (!ret)
		ret = new_block(&e, &blk); /* the tree's root */
	for (i = 0; i < s->n && !ret; i++)
		if (worth_keeping(&s->q[i]))
			ret = insert(&e, &s->q[i]);
	if (ret) {
		free(e.buf);
		return ret;
	}
	put_info(&e, s, type);
	*buf = e.buf;
	*len = (size_t)e.blocks * F2FS_QUOTA_BLOCK;
	return 0;
}

/* ---- comparing, inodes ---- */

static bool same_usage(const struct f2fs_dquot *a, const struct f2fs_dquot *b)
{
	uint64_t ai = a ? a->inodes : 0, as = a ? a->space : 0;
	uint64_t bi = b ? b->inodes : 0, bs = b ? b->space : 0;

	return ai == bi && as == bs;
}

bool f2fs_quota_usage_equal(const struct f2fs_quota_set *have, const struct f2fs_quota_set *want,
			    uint32_t *id)
{
	size_t i;

	for (i = 0; i < want->n; i++)
		if (!same_usage(f2fs_quota_find(have, want->q[i].id), &want->q[i])) {
			*id = want->q[i].id;
			return false;
		}
	for (i = 0; i < have->n; i++)
		if (has_usage(&have->q[i]) && !f2fs_quota_find(want, have->q[i].id)) {
			*id = have->q[i].id;
			return false;
		}
	return true;
}

int f2fs_quota_take_usage(struct f2fs_quota_set *to, const struct f2fs_quota_set *from)
{
	size_t i;

	for (i = 0; i < to->n; i++)
		to->q[i].inodes = to->q[i].space = 0;
	for (i = 0; i < from->n; i++) {
		struct f2fs_dquot *d = f2fs_quota_get(to, from->q[i].id);

		if (!d)
			return -ENOMEM;
		d->inodes = from->q[i].inodes;
		d->space = from->q[i].space;
	}
	return 0;
}

uint32_t f2fs_inode_quota_id(const struct f2fs_inode *ri, unsigned int type, uint32_t features)
{
	switch (type) {
	case F2FS_USRQUOTA:
		return le32_get(ri->i_uid);
	case F2FS_GRPQUOTA:
		return le32_get(ri->i_gid);
	default:
		/* as the kernel reads it: the field counts only when the inode has room for it */
		if (!(features & F2FS_FEATURE_PRJQUOTA) || !F2FS_INODE_FITS(ri, i_projid))
			return 0;
		return le32_get(ri->i_projid);
	}
}

uint64_t f2fs_inode_quota_space(const struct f2fs_inode *ri)
{
	uint64_t blocks = le64_get(ri->i_blocks);

	return blocks ? (blocks - 1) * F2FS_BLKSIZE : 0;
}

bool f2fs_is_quota_ino(const struct f2fs_super_block *sb, uint32_t ino)
{
	unsigned int t;

	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (ino && le32_get(sb->qf_ino[t]) == ino)
			return true;
	return false;
}

unsigned int f2fs_quota_types(const struct f2fs_super_block *sb)
{
	unsigned int t, mask = 0;

	if (!(le32_get(sb->feature) & F2FS_FEATURE_QUOTA_INO))
		return 0;
	for (t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (le32_get(sb->qf_ino[t]))
			mask |= 1u << t;
	return mask;
}
