// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a fresh volume, as a client of the write path (mke2fs and
 * ext2fs_initialize are the model): mkfs computes the layout and builds the
 * superblock and an initial checkpoint block, clears what must read as
 * zeros, then lets the write path make the root directory, the quota files
 * and lost+found in the hot logs and write one checkpoint at "unmount"
 * (compacted summary with the NAT and SIT journals, node summaries,
 * nat_bits), so the SIT and NAT areas stay all zero.  What must read as
 * zeros: after a discard that reads back as zeros nothing more is written;
 * otherwise the SIT and NAT copies the checkpoint selects are zeroed (by
 * punching holes on regular files, so an image stays sparse).  The
 * superblocks go last, after a flush.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <uuid/uuid.h>

#include "f2fs/blkgeo.h"
#include "f2fs/checkpoint.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/mkfs.h"
#include "f2fs/node.h"
#include "f2fs/quota.h"
#include "f2fs/super.h"
#include "f2fs/write.h"
#include "f2fs/zone.h"

#define LOST_FOUND	"lost+found"
#define WIPE_BYTES	(4u << 20) /* other file systems' signatures live here */
#define MODE_DIR_0755	0x41ed
#define MODE_DIR_0700	0x41c0
#define MODE_REG_0600	0x8180
#define FS_IMMUTABLE_FL 0x00000010

/* The inodes a new volume starts with, and where they go in the hot logs. */
struct initial_tree {
	uint32_t root_ino;
	uint32_t lpf_ino; /* 0 when lost+found is not made */
	unsigned int nquota;
	unsigned int quota_type[F2FS_MAX_QUOTAS];
	uint32_t quota_ino[F2FS_MAX_QUOTAS];
	uint32_t next_free_nid;
};

struct mkfs_ctx {
	struct f2fs_device *dev;
	const struct f2fs_mkfs_config *cfg;
	const struct f2fs_layout *l;
	struct f2fs_super_block sb;
	struct initial_tree t;
	uint64_t now;
	uint64_t cp_ver;       /* of the pack mkfs writes */
	bool trimmed;	       /* discard succeeded: CP_TRIMMED_FLAG */
	bool reads_zero;       /* the whole device now reads as zeros */
	struct f2fs_blkgeo bg; /* the block size the layout asks for */
};

void f2fs_mkfs_config_init(struct f2fs_mkfs_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->geometry.sector_size = F2FS_MIN_SECTOR_SIZE;
	cfg->geometry.segs_per_sec = 1;
	cfg->geometry.secs_per_zone = 1;
	cfg->label = "";
	cfg->discard = true;
	cfg->fixed_time = -1;
}

unsigned int f2fs_mkfs_quota_types(uint32_t features, unsigned int types[F2FS_MAX_QUOTAS])
{
	unsigned int n = 0;

	if (features & (F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_PRJQUOTA)) {
		types[n++] = 0; /* user */
		types[n++] = 1; /* group */
	}
	if (features & F2FS_FEATURE_PRJQUOTA)
		types[n++] = 2; /* project */
	return n;
}

static int write_block(struct mkfs_ctx *c, uint64_t blkaddr, const void *buf)
{
	return f2fs_dev_write(c->dev, buf, blkaddr * c->bg.blksize, c->bg.blksize);
}

/* Inode numbers: root, then quota files, then lost+found, as upstream numbers them. */
static void plan_tree(struct mkfs_ctx *c)
{
	struct initial_tree *t = &c->t;
	unsigned int i;

	t->root_ino = F2FS_FIRST_INO_RESERVED;
	t->next_free_nid = t->root_ino + 1;
	t->nquota = f2fs_mkfs_quota_types(c->cfg->features, t->quota_type);
	for (i = 0; i < t->nquota; i++)
		t->quota_ino[i] = t->next_free_nid++;
	if (c->cfg->features & F2FS_FEATURE_LOST_FOUND)
		t->lpf_ino = t->next_free_nid++;
}

/* The initial checkpoint block: the layout's counts and logs, version one below the pack's. */
static void build_cp(const struct mkfs_ctx *c, struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = c->l;
	static const int node_logs[3] = {F2FS_CURSEG_HOT_NODE, F2FS_CURSEG_WARM_NODE,
					 F2FS_CURSEG_COLD_NODE};
	static const int data_logs[3] = {F2FS_CURSEG_HOT_DATA, F2FS_CURSEG_WARM_DATA,
					 F2FS_CURSEG_COLD_DATA};
	uint32_t flags = CP_NAT_BITS_FLAG;
	int i;

	memset(cp, 0, c->bg.blksize);
	cp->checkpoint_ver = le64_put(c->cp_ver - 1);
	for (i = 0; i < F2FS_MAX_ACTIVE_NODE_LOGS; i++) {
		cp->cur_node_segno[i] =
		    le32_put(i < 3 ? l->cur_seg[node_logs[i]] : F2FS_NULL_SEGNO);
		cp->cur_data_segno[i] =
		    le32_put(i < 3 ? l->cur_seg[data_logs[i]] : F2FS_NULL_SEGNO);
	}
	cp->rsvd_segment_count = le32_put(l->reserved_segments);
	cp->overprov_segment_count = le32_put(l->overprov_segments);
	cp->free_segment_count = le32_put(l->free_segments);
	cp->user_block_count = le64_put(l->user_block_count);
	if (l->large_nat_bitmap)
		flags |= CP_LARGE_NAT_BITMAP_FLAG;
	cp->ckpt_flags = le32_put(flags);
	cp->next_free_nid = le32_put(c->t.root_ino);
	cp->sit_ver_bitmap_bytesize = le32_put(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(l->nat_bitmap_bytes);
	cp->checksum_offset =
	    le32_put(l->large_nat_bitmap ? F2FS_CP_BITMAP_OFFSET : c->bg.cp_chksum_offset);
}

/* What every inode mkfs makes shares: owner, times, no inline data or xattrs, hot logs. */
static void new_attr(const struct mkfs_ctx *c, struct f2fs_new_inode *a, uint16_t mode)
{
	f2fs_new_inode_init(a, mode, c->now);
	a->uid = c->cfg->root_uid;
	a->gid = c->cfg->root_gid;
	a->inline_ok = false;
	a->inline_xattr = false;
	a->temp = F2FS_TEMP_HOT;
}

/*
 * A quota file charging root (the owner of the root directory and
 * lost+found) with each of them: one inode and its dentry block.
 */
static int build_quota_file(const struct mkfs_ctx *c, uint32_t id, unsigned int type,
			    uint8_t **file, size_t *len)
{
	struct f2fs_quota_set s;
	unsigned int inodes = c->t.lpf_ino ? 2 : 1;
	int ret;

	f2fs_quota_set_init(&s);
	ret = f2fs_quota_charge(&s, id, inodes, (int64_t)inodes * c->bg.blksize);
	if (!ret)
		ret = f2fs_quota_encode(&s, type, file, len);
	f2fs_quota_set_free(&s);
	return ret;
}

static int make_quota(struct mkfs_ctx *c, struct f2fs_fs *fs, unsigned int k)
{
	unsigned int type = c->t.quota_type[k];
	uint32_t id = type == 0 ? c->cfg->root_uid : type == 1 ? c->cfg->root_gid : 0, ino;
	struct f2fs_new_inode a;
	uint8_t *file;
	size_t len;
	int ret;

	new_attr(c, &a, MODE_REG_0600);
	a.flags = FS_IMMUTABLE_FL;
	ret = f2fs_create_hidden(fs, &a, &ino);
	if (ret)
		return ret;
	if (ino != c->t.quota_ino[k])
		return -EEXIST;
	ret = build_quota_file(c, id, type, &file, &len);
	if (ret)
		return ret;
	ret = f2fs_pwrite(fs, ino, file, len, 0);
	free(file);
	return ret;
}

/* Root, the quota files, lost+found: numbered as upstream numbers them. */
static int write_tree(struct mkfs_ctx *c, struct f2fs_fs *fs)
{
	struct f2fs_new_inode a;
	uint32_t ino;
	unsigned int k;
	int ret;

	f2fs_write_set_time(fs, (int64_t)c->now);
	new_attr(c, &a, MODE_DIR_0755);
	ret = f2fs_make_root(fs, &a, &ino);
	for (k = 0; !ret && k < c->t.nquota; k++)
		ret = make_quota(c, fs, k);
	if (!ret && c->t.lpf_ino) {
		new_attr(c, &a, MODE_DIR_0700);
		ret =
		    f2fs_create(fs, c->t.root_ino, LOST_FOUND, strlen(LOST_FOUND), &a, NULL, &ino);
		if (!ret && ino != c->t.lpf_ino)
			ret = -EEXIST;
	}
	return ret;
}

/*
 * The spare pack: the written pack's checkpoint block with version 0, as its
 * first and last block, so the pack mount takes is the newer one.
 */
static int write_spare_pack(struct mkfs_ctx *c)
{
	uint8_t blk[F2FS_MAX_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	struct f2fs_pack_layout pl;
	uint64_t start = (uint64_t)c->l->cp_blkaddr + F2FS_DEFAULT_BLKS_PER_SEG;
	uint32_t bs = c->bg.blksize;
	int ret = f2fs_dev_read(c->dev, blk, (uint64_t)c->l->cp_blkaddr * bs, bs);

	if (ret)
		return ret;
	cp->checkpoint_ver = 0;
	f2fs_cp_seal(cp, bs);
	f2fs_pack_layout(cp, c->l->cp_payload, &pl);
	ret = write_block(c, start, blk);
	if (!ret)
		ret = write_block(c, start + pl.last, blk);
	return ret;
}

/* Everything inside the volume, through the write path, ending with one checkpoint. */
static int write_volume(struct mkfs_ctx *c)
{
	struct f2fs_cp_request req = {.reason = F2FS_CP_UMOUNT};
	struct f2fs_checkpoint *cp = calloc(1, c->bg.blksize);
	struct f2fs_fs *fs = NULL;
	int ret;

	if (!cp)
		return -ENOMEM;
	build_cp(c, cp);
	ret = f2fs_fs_create(c->dev, &c->sb, cp, &fs);
	if (!ret)
		ret = write_tree(c, fs);
	if (c->trimmed)
		req.reason |= F2FS_CP_TRIMMED;
	if (c->cfg->no_nat_bits)
		req.reason |= F2FS_CP_NO_NAT_BITS;
	if (!ret)
		ret = f2fs_checkpoint(fs, &req);
	f2fs_fs_close(fs);
	free(cp);
	return ret ? ret : write_spare_pack(c);
}

/* ---- superblock ---- */

/* A volume on several devices lists each by path with its segments. */
static int set_devices(struct f2fs_super_block *sb, const struct f2fs_mkfs_config *cfg,
		       const struct f2fs_layout *l)
{
	uint32_t i;

	for (i = 0; i < l->nr_devices; i++) {
		size_t n = cfg->paths[i] ? strlen(cfg->paths[i]) : 0;

		if (n == 0 || n > F2FS_MAX_PATH_LEN)
			return -ENAMETOOLONG;
		memcpy(sb->devs[i].path, cfg->paths[i], n);
		sb->devs[i].total_segments = le32_put(l->dev_segments[i]);
	}
	return 0;
}

static int build_super(struct mkfs_ctx *c, struct f2fs_mkfs_result *res)
{
	struct f2fs_super_block *sb = &c->sb;
	const struct f2fs_mkfs_config *cfg = c->cfg;
	unsigned int k;
	int ret;

	memset(sb, 0, sizeof(*sb));
	sb->magic = le32_put(F2FS_SUPER_MAGIC);
	sb->major_ver = le16_put(1);
	sb->minor_ver = le16_put(16);
	f2fs_super_set_layout(sb, c->l);
	sb->root_ino = le32_put(c->t.root_ino);
	sb->node_ino = le32_put(1);
	sb->meta_ino = le32_put(2);
	if (cfg->uuid_given)
		memcpy(sb->uuid, cfg->uuid, sizeof(sb->uuid));
	else
		uuid_generate(sb->uuid);
	memcpy(res->uuid, sb->uuid, sizeof(sb->uuid));
	ret = f2fs_label_to_utf16(cfg->label ? cfg->label : "", sb->volume_name,
				  F2FS_MAX_VOLUME_NAME);
	if (ret < 0)
		return ret;
	f2fs_super_set_extensions(sb, cfg->cold_extensions, cfg->hot_extensions, NULL, NULL);
	memcpy(sb->version, cfg->kernel_version, F2FS_VERSION_LEN - 1);
	memcpy(sb->init_version, cfg->kernel_version, F2FS_VERSION_LEN - 1);
	sb->feature = le32_put(cfg->features);
	for (k = 0; k < c->t.nquota; k++)
		sb->qf_ino[c->t.quota_type[k]] = le32_put(c->t.quota_ino[k]);
	if (cfg->features & F2FS_FEATURE_CASEFOLD) {
		sb->s_encoding = le16_put(cfg->s_encoding);
		sb->s_encoding_flags = le16_put(cfg->s_encoding_flags);
	}
	ret = set_devices(sb, cfg, c->l);
	if (ret < 0)
		return ret;
	f2fs_super_seal(sb);
	return 0;
}

static int write_supers(struct mkfs_ctx *c)
{
	uint8_t blk[F2FS_MAX_BLKSIZE];
	int ret, i;

	memset(blk, 0, c->bg.blksize);
	memcpy(blk + F2FS_SUPER_OFFSET, &c->sb, sizeof(c->sb));
	for (i = 0, ret = 0; !ret && i < 2; i++)
		ret = write_block(c, (uint64_t)i, blk);
	return ret;
}

/* ---- clearing the device ---- */

static int zero_range(struct mkfs_ctx *c, uint64_t blkaddr, uint64_t blocks)
{
	return f2fs_dev_zero(c->dev, blkaddr * c->bg.blksize, blocks * c->bg.blksize);
}

struct reset_scan {
	struct f2fs_device *dev;
	uint64_t first; /* where the first sequential zone starts */
};

static int reset_one(const struct f2fs_zone *z, void *arg)
{
	struct reset_scan *s = arg;

	if (!f2fs_zone_is_seq(z))
		return 0;
	if (z->start < s->first)
		s->first = z->start;
	return z->cond == F2FS_ZONE_EMPTY ? 0 : f2fs_dev_reset_zones(s->dev, z->start, z->len);
}

/*
 * A zoned volume: reset every sequential zone that is not empty (a reset
 * zone reads as zeros), and find where the first one starts: everything
 * before it is randomly writable.  *first is the device's size when no
 * zone is sequential.
 */
static int reset_zones(struct mkfs_ctx *c, uint64_t *first)
{
	struct reset_scan s = {c->dev, f2fs_dev_get_info(c->dev)->size_bytes};
	int ret = f2fs_dev_for_each_zone(c->dev, reset_one, &s);

	*first = s.first;
	return ret;
}

/*
 * Zero [blkaddr, blkaddr+blocks) where it lies before @limit (the first
 * sequential zone); past it the zones were reset and read as zeros.
 */
static int zero_below(struct mkfs_ctx *c, uint64_t limit, uint64_t blkaddr, uint64_t blocks)
{
	uint64_t end = blkaddr + blocks, lim = limit / c->bg.blksize;

	if (blkaddr >= lim)
		return 0;
	return zero_range(c, blkaddr, (end < lim ? end : lim) - blkaddr);
}

/*
 * Make everything the kernel will read as "empty" read as zeros: the first
 * 4 MiB (old signatures), the selected SIT and NAT copies, and the first
 * block of the warm node log, where roll-forward recovery would otherwise
 * find a stale chain from an earlier file system.  On a zoned volume the
 * sequential zones are reset and only the space before them is discarded.
 */
static int clear_device(struct mkfs_ctx *c)
{
	const struct f2fs_layout *l = c->l;
	uint64_t size = f2fs_dev_get_info(c->dev)->size_bytes, limit = size;
	uint32_t seg;
	int ret;

	if (c->cfg->geometry.zoned) {
		ret = reset_zones(c, &limit);
		if (ret < 0)
			return ret;
	}
	if (c->cfg->discard) {
		ret = limit ? f2fs_dev_discard(c->dev, 0, limit, &c->reads_zero) : 0;
		/* as upstream: on a zoned volume the zone resets are the trim */
		c->trimmed = ret == 0 || c->cfg->geometry.zoned;
		if (ret && ret != -EOPNOTSUPP)
			return ret;
	}
	if (c->reads_zero)
		return 0;
	ret = zero_below(c, limit, 0, (size < WIPE_BYTES ? size : WIPE_BYTES) / c->bg.blksize);
	if (!ret)
		ret = zero_below(c, limit, l->sit_blkaddr,
				 (uint64_t)l->segment_count_sit / 2 * F2FS_DEFAULT_BLKS_PER_SEG);
	for (seg = 0; !ret && seg < l->segment_count_nat / 2; seg++)
		ret = zero_below(c, limit,
				 l->nat_blkaddr + (uint64_t)seg * 2 * F2FS_DEFAULT_BLKS_PER_SEG,
				 F2FS_DEFAULT_BLKS_PER_SEG);
	if (!ret)
		ret = zero_below(c, limit,
				 f2fs_layout_seg_blkaddr(l, l->cur_seg[F2FS_CURSEG_WARM_NODE]), 1);
	return ret;
}

static uint64_t pick_cp_version(const struct f2fs_mkfs_config *cfg)
{
	uint32_t r = 0;

	if (cfg->fixed_cp_version)
		return 1;
	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)time(NULL);
	return (r & 0x7fffffffu) | 1;
}

int f2fs_mkfs_format(struct f2fs_device *dev, const struct f2fs_mkfs_config *cfg,
		     const struct f2fs_layout *l, struct f2fs_mkfs_result *res)
{
	struct mkfs_ctx c = {.dev = dev, .cfg = cfg, .l = l};
	unsigned int k;
	int ret;

	memset(res, 0, sizeof(*res));
	if (f2fs_blkgeo_init_features(&c.bg, l->log_blksize ? l->log_blksize : F2FS_BLKSIZE_BITS,
				      cfg->features))
		return -EINVAL;
	c.now = cfg->fixed_time >= 0 ? (uint64_t)cfg->fixed_time : (uint64_t)time(NULL);
	c.cp_ver = pick_cp_version(cfg);
	plan_tree(&c);
	ret = build_super(&c, res);
	if (!ret)
		ret = clear_device(&c);
	if (!ret)
		ret = write_volume(&c);
	if (!ret)
		ret = f2fs_dev_flush(dev);
	if (!ret)
		ret = write_supers(&c);
	if (!ret)
		ret = f2fs_dev_flush(dev);
	res->discarded = c.trimmed;
	res->cp_version = c.cp_ver;
	res->lost_found_ino = c.t.lpf_ino;
	for (k = 0; k < c.t.nquota; k++)
		res->quota_ino[c.t.quota_type[k]] = c.t.quota_ino[k];
	return ret;
}

/* ---- the devices of a new volume ---- */

static int say(char *why, size_t len, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int say(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

struct zone_census {
	struct f2fs_layout_device *d;
	uint64_t *unusable; /* size - capacity of the sequential zones, UINT64_MAX until one */
	bool random_run;    /* no zone that must be written in order seen yet */
	uint32_t log_blksize;
};

static int count_zone(const struct f2fs_zone *z, void *arg)
{
	struct zone_census *s = arg;
	uint64_t cap_blocks = z->capacity >> s->log_blksize;

	if (z->cond == F2FS_ZONE_READONLY || z->cond == F2FS_ZONE_OFFLINE ||
	    z->type == F2FS_ZONE_SEQ_REQ)
		s->random_run = false;
	s->d->rnd_zones += s->random_run;
	if (f2fs_zone_is_seq(z)) {
		if (*s->unusable != UINT64_MAX && *s->unusable != z->len - z->capacity)
			return -EDOM;
		*s->unusable = z->len - z->capacity;
	}
	s->d->usable_segments +=
	    cap_blocks / F2FS_DEFAULT_BLKS_PER_SEG + (cap_blocks % F2FS_DEFAULT_BLKS_PER_SEG != 0);
	return 0;
}

/*
 * What the layout needs of zoned device @dev: its randomly writable zones
 * (the conventional or sequential-preferred ones before the first that is
 * not), and on a host-managed device the segments its zones' capacities
 * leave usable (a partly usable last segment counts, as upstream counts it).
 * -EDOM when its sequential zones' capacities differ from each other or
 * from *@unusable's.
 */
static int describe_zones(struct f2fs_device *dev, struct f2fs_layout_device *d, uint64_t *unusable,
			  uint32_t log_blksize)
{
	struct zone_census s = {d, unusable, true, log_blksize};
	int ret = f2fs_dev_for_each_zone(dev, count_zone, &s);

	if (!d->host_managed)
		d->usable_segments = 0;
	return ret;
}

/* The zone size every zoned device shares, checked against the kernel's rules. */
static int zone_geometry(struct f2fs_layout_params *g, struct f2fs_device *const *devs,
			 unsigned int n, char *why, size_t len)
{
	uint32_t log_bs = g->log_blksize ? g->log_blksize : F2FS_BLKSIZE_BITS;
	uint64_t zone_bytes = 0, zb, seg_bytes = (uint64_t)F2FS_DEFAULT_BLKS_PER_SEG << log_bs;
	unsigned int i;

	for (i = 0; i < n; i++) {
		zb = f2fs_dev_zone_info(devs[i])->zone_bytes;
		if (f2fs_dev_zone_info(devs[i])->model == F2FS_ZONED_NONE)
			continue;
		if (zone_bytes && zb != zone_bytes)
			return say(why, len, -EINVAL, "%s and %s have zones of different sizes",
				   f2fs_dev_path(devs[0]), f2fs_dev_path(devs[i]));
		zone_bytes = zb;
	}
	if (zone_bytes % seg_bytes)
		return say(why, len, -EINVAL,
			   "zones of %llu KiB: a zone must hold whole %llu MiB segments",
			   (unsigned long long)(zone_bytes >> 10),
			   (unsigned long long)(seg_bytes >> 20));
	if (zone_bytes & (zone_bytes - 1))
		return say(why, len, -EINVAL,
			   "zones of %llu MiB: Linux 6.1 mounts only zones whose size is a "
			   "power of two",
			   (unsigned long long)(zone_bytes >> 20));
	g->zoned = true;
	g->zone_blocks = zone_bytes >> log_bs;
	g->segs_per_sec = (uint32_t)(zone_bytes / seg_bytes);
	g->secs_per_zone = 1;
	return 0;
}

int f2fs_mkfs_describe_devices(struct f2fs_mkfs_config *cfg, struct f2fs_device *const *devs,
			       unsigned int n, bool zoned_mode, char *why, size_t len)
{
	struct f2fs_layout_params *g = &cfg->geometry;
	uint32_t ssz = f2fs_dev_get_info(devs[0])->sector_size;
	uint64_t unusable = UINT64_MAX;
	bool any_zoned = false;
	unsigned int i;
	int ret;

	if (n == 0 || n > F2FS_LAYOUT_MAX_DEVICES)
		return say(why, len, -EINVAL, "a volume spans 1 to 8 devices");
	for (i = 0; i < n; i++) {
		const struct f2fs_zone_info *zi = f2fs_dev_zone_info(devs[i]);

		if (f2fs_dev_get_info(devs[i])->sector_size != ssz)
			return say(why, len, -EINVAL, "%s and %s have different sector sizes",
				   f2fs_dev_path(devs[0]), f2fs_dev_path(devs[i]));
		if (zi->model != F2FS_ZONED_NONE && !zoned_mode)
			return say(why, len, -EINVAL,
				   "%s is a zoned block device: format it with -m",
				   f2fs_dev_path(devs[i]));
		/* the six logs each keep a zone open and active */
		if (zi->model == F2FS_ZONED_HM && zi->max_active &&
		    zi->max_active < F2FS_NR_CURSEG_TYPE)
			return say(why, len, -EINVAL,
				   "%s keeps at most %u zones active: F2FS writes six logs at once",
				   f2fs_dev_path(devs[i]), zi->max_active);
		any_zoned |= zi->model != F2FS_ZONED_NONE;
	}
	if (zoned_mode && !any_zoned)
		return say(why, len, -EINVAL, "-m: %s is not a zoned block device",
			   n == 1 ? f2fs_dev_path(devs[0]) : "none of the devices");
	if (zoned_mode && !cfg->discard)
		return say(why, len, -EINVAL,
			   "-m resets the zones and needs discard: drop -t 0, -S and --undo");
	if (zoned_mode) {
		ret = zone_geometry(g, devs, n, why, len);
		if (ret < 0)
			return ret;
	}
	g->sector_size = ssz;
	g->nr_devices = n > 1 || zoned_mode ? n : 0;
	g->total_sectors = 0;
	for (i = 0; i < n; i++) {
		struct f2fs_layout_device *d = &g->devices[i];
		const struct f2fs_zone_info *zi = f2fs_dev_zone_info(devs[i]);

		memset(d, 0, sizeof(*d));
		d->sectors = f2fs_dev_get_info(devs[i])->size_bytes / ssz;
		d->zoned = zi->model != F2FS_ZONED_NONE;
		d->host_managed = zi->model == F2FS_ZONED_HM;
		g->total_sectors += d->sectors;
		if (!d->zoned)
			continue;
		ret = describe_zones(devs[i], d, &unusable,
				     g->log_blksize ? g->log_blksize : F2FS_BLKSIZE_BITS);
		if (ret == -EDOM)
			return say(
			    why, len, -EINVAL,
			    "%s: sequential zones of different capacities: Linux 6.1 mounts a "
			    "volume only when every one has the same",
			    f2fs_dev_path(devs[i]));
		if (ret < 0)
			return say(why, len, ret, "%s: cannot report its zones: %s",
				   f2fs_dev_path(devs[i]), strerror(-ret));
	}
	if (g->devices[0].host_managed && g->devices[0].rnd_zones == 0)
		return say(why, len, -EINVAL,
			   "%s has no conventional zone for the superblocks: give a regular "
			   "device first and the zoned one with -c",
			   f2fs_dev_path(devs[0]));
	return 0;
}
