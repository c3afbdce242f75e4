// SPDX-License-Identifier: GPL-2.0
/*
 * The quota file codec of lib/format/quota.c: the one-record file mkfs
 * writes (the layout upstream's mkfs writes, block by block), round trips
 * of sets with many ids (several data blocks, ids sharing tree paths),
 * records with no usage and no limits left out, an id-0 record kept
 * visible, and files the decoder must refuse: a wrong magic, a tree
 * pointer out of the file, a loop, a record the tree does not lead to, a
 * header count that lies, a file shorter than it says.  Then the charges
 * an inode makes, and the usage comparison.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/quota.h"
#include "test.h"

static uint32_t word(const uint8_t *buf, size_t off)
{
	le32 v;

	memcpy(&v, buf + off, sizeof(v));
	return le32_get(v);
}

static void put_word(uint8_t *buf, size_t off, uint32_t v)
{
	le32 x = le32_put(v);

	memcpy(buf + off, &x, sizeof(x));
}

static int decode(const uint8_t *buf, size_t len, unsigned int type, struct f2fs_quota_set *s)
{
	char why[160];

	return f2fs_quota_decode(buf, len, type, s, why, sizeof(why));
}

static void test_mkfs_layout(void)
{
	struct f2fs_quota_set s;
	uint8_t *buf;
	size_t len;
	unsigned int b;

	f2fs_quota_set_init(&s);
	CHECK(!f2fs_quota_charge(&s, 0, 2, 8192));
	CHECK(!f2fs_quota_encode(&s, F2FS_USRQUOTA, &buf, &len));
	CHECK_EQ_U64(len, 6 * F2FS_QUOTA_BLOCK);
	CHECK_EQ_U64(word(buf, 0), F2FS_QUOTA_USR_MAGIC);
	CHECK_EQ_U64(word(buf, 4), 1);
	CHECK_EQ_U64(word(buf, 8), F2FS_MAX_DQ_TIME); /* bgrace */
	CHECK_EQ_U64(word(buf, 20), 6);		      /* dqi_blocks */
	CHECK_EQ_U64(word(buf, 24), 0);		      /* free_blk */
	CHECK_EQ_U64(word(buf, 28), 5);		      /* free_entry: the data block */
	for (b = 1; b <= 4; b++)		      /* id 0: slot 0 of each level */
		CHECK_EQ_U64(word(buf, b * F2FS_QUOTA_BLOCK), b + 1);
	CHECK_EQ_U64(word(buf, 5 * F2FS_QUOTA_BLOCK + 8) & 0xffff, 1); /* entries */
	CHECK_EQ_U64(word(buf, 5 * F2FS_QUOTA_BLOCK + 16), 0);	       /* dqb_id */
	CHECK_EQ_U64(word(buf, 5 * F2FS_QUOTA_BLOCK + 16 + 24), 2);    /* curinodes */
	CHECK_EQ_U64(word(buf, 5 * F2FS_QUOTA_BLOCK + 16 + 48), 8192); /* curspace */
	free(buf);
	f2fs_quota_set_free(&s);
}

static void test_round_trip(void)
{
	struct f2fs_quota_set s, back;
	const struct f2fs_dquot *q;
	uint8_t *buf;
	size_t len;
	uint32_t id, diff;

	f2fs_quota_set_init(&s);
	for (id = 0; id < 100; id++) /* ids 0..99 and 70000..: several data blocks, shared paths */
		CHECK(!f2fs_quota_charge(&s, id < 50 ? id : 70000 + id * 257, (int64_t)id + 1,
					 (int64_t)id * 4096));
	f2fs_quota_get(&s, 5)->bhard = 777;	     /* limits survive */
	CHECK(!f2fs_quota_charge(&s, 123456, 0, 0)); /* nothing to say: left out */
	CHECK(!f2fs_quota_encode(&s, F2FS_GRPQUOTA, &buf, &len));
	CHECK(!decode(buf, len, F2FS_GRPQUOTA, &back));
	CHECK_EQ_U64(back.n, 100);
	CHECK(f2fs_quota_usage_equal(&back, &s, &diff));
	q = f2fs_quota_find(&back, 5);
	CHECK(q && q->bhard == 777 && q->inodes == 6);
	CHECK(!f2fs_quota_find(&back, 123456));
	/* the wrong type's magic */
	f2fs_quota_set_free(&back);
	CHECK(decode(buf, len, F2FS_USRQUOTA, &back) == -EUCLEAN);
	CHECK_EQ_U64(back.n, 0);
	free(buf);
	f2fs_quota_set_free(&s);
}

static void test_zero_id_visible(void)
{
	struct f2fs_quota_set s, back;
	uint8_t *buf;
	size_t len;

	f2fs_quota_set_init(&s);
	f2fs_quota_get(&s, 0)->isoft = 0; /* id 0, nothing: left out */
	CHECK(!f2fs_quota_encode(&s, F2FS_PRJQUOTA, &buf, &len));
	CHECK_EQ_U64(len, 2 * F2FS_QUOTA_BLOCK);
	free(buf);
	f2fs_quota_get(&s, 0)->ihard = 0;
	f2fs_quota_get(&s, 0)->bsoft = 1; /* a limit: kept */
	CHECK(!f2fs_quota_encode(&s, F2FS_PRJQUOTA, &buf, &len));
	CHECK(!decode(buf, len, F2FS_PRJQUOTA, &back));
	CHECK_EQ_U64(back.n, 1);
	free(buf);
	f2fs_quota_set_free(&back);
	f2fs_quota_set_free(&s);
}

/* A one-record user file of @id with usage 1 inode, 4096 bytes. */
static uint8_t *one_record(uint32_t id, size_t *len)
{
	struct f2fs_quota_set s;
	uint8_t *buf = NULL;

	f2fs_quota_set_init(&s);
	f2fs_quota_charge(&s, id, 1, 4096);
	f2fs_quota_encode(&s, F2FS_USRQUOTA, &buf, len);
	f2fs_quota_set_free(&s);
	return buf;
}

static void test_refusals(void)
{
	struct f2fs_quota_set back;
	size_t len;
	uint8_t *buf = one_record(0, &len);

	CHECK(buf != NULL);
	CHECK(!decode(buf, 0, F2FS_USRQUOTA, &back)); /* an empty file: no records */
	CHECK(decode(buf, len - F2FS_QUOTA_BLOCK, F2FS_USRQUOTA, &back) == -EUCLEAN);
	put_word(buf, 2 * F2FS_QUOTA_BLOCK, 99); /* level 1 points past the file */
	CHECK(decode(buf, len, F2FS_USRQUOTA, &back) == -EUCLEAN);
	put_word(buf, 2 * F2FS_QUOTA_BLOCK, 1); /* ... or back at the root: a loop */
	CHECK(decode(buf, len, F2FS_USRQUOTA, &back) == -EUCLEAN);
	put_word(buf, 2 * F2FS_QUOTA_BLOCK, 3);
	CHECK(!decode(buf, len, F2FS_USRQUOTA, &back));
	f2fs_quota_set_free(&back);
	put_word(buf, 5 * F2FS_QUOTA_BLOCK + 16, 7); /* id 7 under id 0's path */
	CHECK(decode(buf, len, F2FS_USRQUOTA, &back) == -EUCLEAN);
	put_word(buf, 5 * F2FS_QUOTA_BLOCK + 16, 0);
	put_word(buf, 5 * F2FS_QUOTA_BLOCK + 8, 3); /* says 3 records, holds 1 */
	CHECK(decode(buf, len, F2FS_USRQUOTA, &back) == -EUCLEAN);
	put_word(buf, 5 * F2FS_QUOTA_BLOCK + 8, 1);
	put_word(buf, 28, 40); /* free entry list past the end */
	CHECK(decode(buf, len, F2FS_USRQUOTA, &back) == -EUCLEAN);
	free(buf);
}

static void test_inode_charges(void)
{
	struct f2fs_inode ri;
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_PRJQUOTA;
	struct f2fs_quota_set a, b;
	uint32_t id;

	memset(&ri, 0, sizeof(ri));
	ri.i_uid = le32_put(1000);
	ri.i_gid = le32_put(2000);
	ri.i_projid = le32_put(7);
	ri.i_blocks = le64_put(4);
	CHECK_EQ_U64(f2fs_inode_quota_id(&ri, F2FS_USRQUOTA, features), 1000);
	CHECK_EQ_U64(f2fs_inode_quota_id(&ri, F2FS_GRPQUOTA, features), 2000);
	CHECK_EQ_U64(f2fs_inode_quota_id(&ri, F2FS_PRJQUOTA, features), 0); /* no extra attr */
	ri.i_inline = F2FS_EXTRA_ATTR;
	ri.i_extra_isize = le16_put(4); /* ends before i_projid */
	CHECK_EQ_U64(f2fs_inode_quota_id(&ri, F2FS_PRJQUOTA, features), 0);
	ri.i_extra_isize = le16_put(8);
	CHECK_EQ_U64(f2fs_inode_quota_id(&ri, F2FS_PRJQUOTA, features), 7);
	CHECK_EQ_U64(f2fs_inode_quota_id(&ri, F2FS_PRJQUOTA, F2FS_FEATURE_EXTRA_ATTR), 0);
	CHECK_EQ_U64(f2fs_inode_quota_space(&ri), 3 * 4096);

	f2fs_quota_set_init(&a);
	f2fs_quota_set_init(&b);
	CHECK(!f2fs_quota_charge(&a, 3, 1, 4096));
	CHECK(!f2fs_quota_charge(&b, 3, 1, 4096));
	CHECK(!f2fs_quota_charge(&b, 9, 0, 0)); /* an id with nothing counts as absent */
	CHECK(f2fs_quota_usage_equal(&a, &b, &id));
	CHECK(!f2fs_quota_charge(&b, 3, -1, -4096)); /* charges may go down to nothing */
	CHECK(!f2fs_quota_usage_equal(&a, &b, &id));
	CHECK_EQ_U64(id, 3);
	f2fs_quota_set_free(&a);
	f2fs_quota_set_free(&b);
}

int main(void)
{
	RUN(test_mkfs_layout);
	RUN(test_round_trip);
	RUN(test_zero_id_visible);
	RUN(test_refusals);
	RUN(test_inode_charges);
	TEST_EXIT();
}
