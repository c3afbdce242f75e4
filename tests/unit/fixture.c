// SPDX-License-Identifier: GPL-2.0
/* The unit tests' shared fixture; see fixture.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "f2fs/checkpoint.h"
#include "f2fs/endian.h"
#include "f2fs/feature.h"
#include "f2fs/nat.h"
#include "fixture.h"

void fixture_init(struct fixture *fx, uint64_t bytes)
{
	memset(fx, 0, sizeof(*fx));
	fx->bytes = bytes;
	f2fs_mkfs_config_init(&fx->cfg);
	fx->cfg.geometry.total_sectors = bytes / 512;
	fx->cfg.fixed_time = FIXTURE_TIME;
	fx->cfg.fixed_cp_version = true;
	snprintf(fx->cfg.kernel_version, sizeof(fx->cfg.kernel_version), "unit test");
}

bool fixture_features(struct fixture *fx, const char *list)
{
	char why[128] = "";

	if (list && f2fs_feature_parse(list, &fx->cfg.features, why, sizeof(why))) {
		fprintf(stderr, "features: %s\n", why);
		return false;
	}
	return true;
}

bool fixture_open(struct fixture *fx)
{
	char why[128] = "";
	int ret;

	if (f2fs_layout_compute(&fx->cfg.geometry, &fx->l, why, sizeof(why))) {
		fprintf(stderr, "layout: %s\n", why);
		return false;
	}
	fx->blksize = 1u << fx->l.log_blksize;
	ret = f2fs_dev_open_memory(fx->bytes, &fx->dev);
	if (ret) {
		fprintf(stderr, "f2fs_dev_open_memory: %d\n", ret);
		fx->dev = NULL;
		return false;
	}
	return true;
}

bool fixture_mkfs(struct fixture *fx)
{
	uint8_t blk[F2FS_MAX_BLKSIZE];

	fx->ret = f2fs_mkfs_format(fx->dev, &fx->cfg, &fx->l, &fx->res);
	if (fx->ret) {
		fprintf(stderr, "f2fs_mkfs_format: %d\n", fx->ret);
		return false;
	}
	if (!fixture_read_blk(fx, 0, blk))
		return false;
	memcpy(&fx->sb, blk + F2FS_SUPER_OFFSET, sizeof(fx->sb));
	return fixture_read_blk(fx, fx->l.cp_blkaddr, fx->cp_blk);
}

bool fixture_format(struct fixture *fx, uint64_t bytes, const char *list, bool discard)
{
	fixture_init(fx, bytes);
	fx->cfg.discard = discard;
	return fixture_features(fx, list) && fixture_open(fx) && fixture_mkfs(fx);
}

bool fixture_read_blk(struct fixture *fx, uint64_t blkaddr, void *buf)
{
	int ret = f2fs_dev_read(fx->dev, buf, blkaddr * fx->blksize, fx->blksize);

	if (ret)
		fprintf(stderr, "read of block %llu: %d\n", (unsigned long long)blkaddr, ret);
	return ret == 0;
}

bool fixture_write_blk(struct fixture *fx, uint64_t blkaddr, const void *buf)
{
	int ret = f2fs_dev_write(fx->dev, buf, blkaddr * fx->blksize, fx->blksize);

	if (ret)
		fprintf(stderr, "write of block %llu: %d\n", (unsigned long long)blkaddr, ret);
	return ret == 0;
}

bool fixture_read_sum(struct fixture *fx, void *buf)
{
	return fixture_read_blk(fx, (uint64_t)fx->l.cp_blkaddr + 1 + fx->l.cp_payload, buf);
}

bool fixture_fs_open(struct fixture *fx, struct f2fs_fs **fs)
{
	char why[256] = "";
	int ret = f2fs_fs_open(fx->dev, F2FS_FS_READ, fs, why, sizeof(why));

	if (ret)
		fprintf(stderr, "f2fs_fs_open: %d: %s\n", ret, why);
	return ret == 0;
}

bool fixture_nat_entry(struct fixture *fx, uint32_t nid, struct f2fs_nat_info *out)
{
	const struct f2fs_nat_table *nat;
	const struct f2fs_nat_info *e = NULL;
	struct f2fs_fs *fs;

	if (!fixture_fs_open(fx, &fs))
		return false;
	if (!f2fs_fs_nat(fs, &nat))
		e = f2fs_nat_get(nat, nid);
	if (e)
		*out = *e;
	f2fs_fs_close(fs);
	return e != NULL;
}

uint64_t fixture_node_blk(struct fixture *fx, uint32_t nid)
{
	struct f2fs_nat_info e;

	return fixture_nat_entry(fx, nid, &e) ? e.blkaddr : 0;
}

static bool is_open_log(const struct fixture *fx, uint32_t segno)
{
	int i;

	for (i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		if (fx->l.cur_seg[i] == segno)
			return true;
	return false;
}

uint64_t fixture_free_blk(struct fixture *fx)
{
	uint64_t end = (uint64_t)fx->l.segment_count_main * F2FS_DEFAULT_BLKS_PER_SEG, idx;

	do {
		idx = end - 1 - fx->blocks_taken++;
	} while (is_open_log(fx, (uint32_t)(idx / F2FS_DEFAULT_BLKS_PER_SEG)));
	return fx->l.main_blkaddr + idx;
}

/* The block (device address) and byte offset of the current pack's NAT or SIT journal. */
static bool journal_place(struct fixture *fx, bool sit, uint64_t *blk, size_t *ofs)
{
	struct f2fs_fs *fs;
	struct f2fs_pack_layout l;
	uint32_t rel;

	if (!fixture_fs_open(fx, &fs))
		return false;
	f2fs_pack_layout(f2fs_fs_cp(fs), le32_get(f2fs_fs_sb(fs)->cp_payload), &l);
	f2fs_pack_journal_location(&f2fs_fs_geo(fs)->blk, &l, sit, &rel, ofs);
	*blk = (uint64_t)f2fs_volume_cp_start(f2fs_fs_volume(fs)) + rel;
	f2fs_fs_close(fs);
	return true;
}

bool fixture_edit_journal(struct fixture *fx, bool sit,
			  void (*edit)(struct f2fs_journal *j, void *arg), void *arg)
{
	uint8_t blk[F2FS_MAX_BLKSIZE];
	struct f2fs_journal j;
	uint64_t addr;
	size_t ofs;

	if (!journal_place(fx, sit, &addr, &ofs) || !fixture_read_blk(fx, addr, blk))
		return false;
	memcpy(&j, blk + ofs, sizeof(j));
	edit(&j, arg);
	memcpy(blk + ofs, &j, sizeof(j));
	return fixture_write_blk(fx, addr, blk);
}

struct nat_edit {
	uint32_t nid, ino, blkaddr;
	bool done;
};

static void nat_journal_edit(struct f2fs_journal *j, void *arg)
{
	struct nat_edit *e = arg;
	unsigned int i, n = le16_get(j->n_nats);

	for (i = 0; i < n && i < F2FS_NAT_JOURNAL_ENTRIES; i++) {
		struct f2fs_nat_journal_entry *je = &j->nat_j.entries[i];

		if (le32_get(je->nid) == e->nid) {
			je->ne.ino = le32_put(e->ino);
			je->ne.block_addr = le32_put(e->blkaddr);
			e->done = true;
		}
	}
}

bool fixture_nat_set(struct fixture *fx, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	struct nat_edit e = {.nid = nid, .ino = ino, .blkaddr = blkaddr};
	const struct f2fs_cp_data *cpd;
	union {
		struct f2fs_nat_block b; /* one byte short of a block */
		uint8_t raw[F2FS_MAX_BLKSIZE];
	} blk;
	struct f2fs_fs *fs;
	uint32_t idx = nid / F2FS_NAT_ENTRY_PER_BLOCK;
	uint64_t addr;
	int ret;

	if (!fixture_edit_journal(fx, false, nat_journal_edit, &e))
		return false;
	if (e.done)
		return true;
	if (!fixture_fs_open(fx, &fs))
		return false;
	ret = f2fs_fs_cp_data(fs, &cpd);
	if (ret || (uint64_t)idx >= (uint64_t)cpd->nat_bitmap_bytes * 8) {
		fprintf(stderr, "nid %u: no NAT block (%d: %s)\n", nid, ret, f2fs_fs_why(fs));
		f2fs_fs_close(fs);
		return false;
	}
	addr = f2fs_nat_block_addr(f2fs_fs_sb(fs), idx, f2fs_test_bit_msb(cpd->nat_bitmap, idx));
	f2fs_fs_close(fs);
	if (!fixture_read_blk(fx, addr, blk.raw))
		return false;
	blk.b.entries[nid % F2FS_NAT_ENTRY_PER_BLOCK].ino = le32_put(ino);
	blk.b.entries[nid % F2FS_NAT_ENTRY_PER_BLOCK].block_addr = le32_put(blkaddr);
	return fixture_write_blk(fx, addr, blk.raw);
}

static int fault_read(void *priv, struct f2fs_device *lower, void *buf, uint64_t off, size_t len)
{
	struct fixture_fault *f = priv;
	uint64_t first = f->first * f->blksize, end = (f->first + f->count) * f->blksize;

	if (f->count && off < end && off + len > first) {
		f->hits++;
		return f->err;
	}
	return f2fs_dev_read(lower, buf, off, len);
}

static const struct f2fs_dev_layer_ops fault_ops = {.read = fault_read};

bool fixture_fail_reads(struct fixture *fx)
{
	struct f2fs_device *dev;
	int ret;

	memset(&fx->fault, 0, sizeof(fx->fault));
	fx->fault.err = -EIO;
	fx->fault.blksize = fx->blksize;
	ret = f2fs_dev_stack(fx->dev, &fault_ops, &fx->fault, &dev);
	if (ret) {
		fprintf(stderr, "f2fs_dev_stack: %d\n", ret);
		return false;
	}
	fx->dev = dev;
	return true;
}

int fixture_free(struct fixture *fx)
{
	int ret = fx->dev ? f2fs_dev_close(fx->dev) : 0;

	fx->dev = NULL;
	return ret;
}
