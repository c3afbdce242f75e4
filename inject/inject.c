// SPDX-License-Identifier: GPL-2.0
/*
 * inject.f2fs: change one field of one on-disk structure, to build corrupt
 * images for testing fsck.  The command line follows upstream f2fs-tools:
 * pick a structure (--sb, --cp, --nat, --sit, --ssa, --node, --dent), a
 * member (--mb), where (--nid, --blk, --idx, --dots) and the new value
 * (--val or --str).  Structures are found through libf2fs's read path, so
 * the copy written is the one the checkpoint makes current (or the journal
 * entry that overrides it).  Checksums are recomputed for the superblock
 * (when sb_checksum is on), the checkpoint and inodes, unless the member
 * written is the checksum itself.  Every input is validated before anything
 * is written; --dry-run reports the change and writes nothing.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/checkpoint.h"
#include "f2fs/crc.h"
#include "f2fs/device.h"
#include "f2fs/dir.h"
#include "f2fs/endian.h"
#include "f2fs/format.h"
#include "f2fs/nat.h"
#include "f2fs/node.h"
#include "f2fs/summary.h"
#include "f2fs/super.h"
#include "f2fs/volume.h"

#define SEG_BLKS F2FS_DEFAULT_BLKS_PER_SEG

enum target { T_NONE, T_SB, T_CP, T_NAT, T_SIT, T_SSA, T_NODE, T_DENT };

struct opts {
	enum target target;
	int pack; /* --sb/--cp/--nat/--sit: 0 auto, 1 first, 2 second */
	const char *mb;
	const char *str;
	uint64_t val;
	bool have_val, have_idx, have_nid, have_blk;
	uint32_t idx, nid, blk;
	int dots; /* 0, 1 ".", 2 ".." */
	bool dry_run;
	int debug;
	const char *device;
};

static struct opts o;
static struct f2fs_device *dev;
static struct f2fs_volume *vol;
static struct f2fs_cp_data *cpd;
static struct f2fs_nat_table *nat;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("inject.f2fs: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void __attribute__((format(printf, 1, 2))) info(const char *fmt, ...)
{
	va_list ap;

	fputs("Info: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static void __attribute__((format(printf, 2, 3))) dbg(int level, const char *fmt, ...)
{
	va_list ap;

	if (o.debug < level)
		return;
	fputs("Debug: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static void usage(FILE *out)
{
	fputs("\nUsage: inject.f2fs [options] device\n"
	      "[options]:\n"
	      "  -d debug level [default:0]\n"
	      "  -V print the version number and exit\n"
	      "  -h print this help (after a structure option: its members)\n"
	      "  --mb <name>   member to change\n"
	      "  --val <n>     new value\n"
	      "  --str <s>     new string (devs.path, filename)\n"
	      "  --idx <n>     array index (or dentry slot with --dent)\n"
	      "  --nid <n>     node id (--nat, --node, --dent)\n"
	      "  --blk <n>     block address (--sit, --ssa)\n"
	      "  --sb <0|1|2>  superblock: 0 and 1 the first copy, 2 the second\n"
	      "  --cp <0|1|2>  checkpoint: 0 the current pack, 1 the first, 2 the second\n"
	      "  --nat <0|1|2> NAT entry of --nid: 0 the current copy, 1 the first, 2 the second\n"
	      "  --sit <0|1|2> SIT entry of --blk's segment: 0 current, 1 first, 2 second copy\n"
	      "  --ssa         summary entry of --blk\n"
	      "  --node        node block of --nid\n"
	      "  --dent        dentry of --nid (in its parent), or --dots 1|2 of directory\n"
	      "                --nid, or slot --idx of directory --nid\n"
	      "  --dots <1|2>  with --dent: \".\" or \"..\" of directory --nid\n"
	      "  --dry-run     report the change, write nothing\n",
	      out);
}

/* ---- member tables: name, byte offset, size, array length ---- */

struct member {
	const char *name;
	size_t off;
	unsigned int size;  /* 1, 2, 4 or 8 bytes */
	unsigned int count; /* 1 for a scalar */
};

#define M(s, f)                                                                                    \
	{                                                                                          \
#f, offsetof(struct s, f), sizeof(((struct s *)0)->f), 1                           \
	}
#define MN(s, n, f)                                                                                \
	{                                                                                          \
		n, offsetof(struct s, f), sizeof(((struct s *)0)->f), 1                            \
	}
#define MA(s, f, cnt)                                                                              \
	{                                                                                          \
#f, offsetof(struct s, f), sizeof(((struct s *)0)->f[0]), cnt                      \
	}

static const struct member sb_members[] = {
    M(f2fs_super_block, magic),
    M(f2fs_super_block, major_ver),
    M(f2fs_super_block, minor_ver),
    M(f2fs_super_block, log_sectorsize),
    M(f2fs_super_block, log_sectors_per_block),
    M(f2fs_super_block, log_blocksize),
    M(f2fs_super_block, log_blocks_per_seg),
    M(f2fs_super_block, segs_per_sec),
    M(f2fs_super_block, secs_per_zone),
    M(f2fs_super_block, checksum_offset),
    M(f2fs_super_block, block_count),
    M(f2fs_super_block, section_count),
    M(f2fs_super_block, segment_count),
    M(f2fs_super_block, segment_count_ckpt),
    M(f2fs_super_block, segment_count_sit),
    M(f2fs_super_block, segment_count_nat),
    M(f2fs_super_block, segment_count_ssa),
    M(f2fs_super_block, segment_count_main),
    M(f2fs_super_block, segment0_blkaddr),
    M(f2fs_super_block, cp_blkaddr),
    M(f2fs_super_block, sit_blkaddr),
    M(f2fs_super_block, nat_blkaddr),
    M(f2fs_super_block, ssa_blkaddr),
    M(f2fs_super_block, main_blkaddr),
    M(f2fs_super_block, root_ino),
    M(f2fs_super_block, node_ino),
    M(f2fs_super_block, meta_ino),
    M(f2fs_super_block, extension_count),
    M(f2fs_super_block, cp_payload),
    M(f2fs_super_block, feature),
    M(f2fs_super_block, encryption_level),
    MA(f2fs_super_block, qf_ino, F2FS_MAX_QUOTAS),
    M(f2fs_super_block, hot_ext_count),
    M(f2fs_super_block, s_encoding),
    M(f2fs_super_block, s_encoding_flags),
    MA(f2fs_super_block, s_stop_reason, 32),
    MA(f2fs_super_block, s_errors, 16),
    M(f2fs_super_block, crc),
    {NULL, 0, 0, 0},
};

static const struct member cp_members[] = {
    M(f2fs_checkpoint, checkpoint_ver),
    M(f2fs_checkpoint, user_block_count),
    M(f2fs_checkpoint, valid_block_count),
    M(f2fs_checkpoint, rsvd_segment_count),
    M(f2fs_checkpoint, overprov_segment_count),
    M(f2fs_checkpoint, free_segment_count),
    MA(f2fs_checkpoint, cur_node_segno, F2FS_MAX_ACTIVE_NODE_LOGS),
    MA(f2fs_checkpoint, cur_node_blkoff, F2FS_MAX_ACTIVE_NODE_LOGS),
    MA(f2fs_checkpoint, cur_data_segno, F2FS_MAX_ACTIVE_DATA_LOGS),
    MA(f2fs_checkpoint, cur_data_blkoff, F2FS_MAX_ACTIVE_DATA_LOGS),
    M(f2fs_checkpoint, ckpt_flags),
    M(f2fs_checkpoint, cp_pack_total_block_count),
    M(f2fs_checkpoint, cp_pack_start_sum),
    M(f2fs_checkpoint, valid_node_count),
    M(f2fs_checkpoint, valid_inode_count),
    M(f2fs_checkpoint, next_free_nid),
    M(f2fs_checkpoint, sit_ver_bitmap_bytesize),
    M(f2fs_checkpoint, nat_ver_bitmap_bytesize),
    M(f2fs_checkpoint, checksum_offset),
    M(f2fs_checkpoint, elapsed_time),
    MA(f2fs_checkpoint, alloc_type, F2FS_MAX_ACTIVE_LOGS),
    {NULL, 0, 0, 0},
};

static const struct member inode_members[] = {
    M(f2fs_inode, i_mode),
    M(f2fs_inode, i_advise),
    M(f2fs_inode, i_inline),
    M(f2fs_inode, i_uid),
    M(f2fs_inode, i_gid),
    M(f2fs_inode, i_links),
    M(f2fs_inode, i_size),
    M(f2fs_inode, i_blocks),
    M(f2fs_inode, i_atime),
    M(f2fs_inode, i_ctime),
    M(f2fs_inode, i_mtime),
    M(f2fs_inode, i_generation),
    M(f2fs_inode, i_current_depth),
    M(f2fs_inode, i_xattr_nid),
    M(f2fs_inode, i_flags),
    M(f2fs_inode, i_pino),
    M(f2fs_inode, i_namelen),
    M(f2fs_inode, i_dir_level),
    MN(f2fs_inode, "i_ext.fofs", i_ext.fofs),
    MN(f2fs_inode, "i_ext.blk_addr", i_ext.blk),
    MN(f2fs_inode, "i_ext.len", i_ext.len),
    M(f2fs_inode, i_extra_isize),
    M(f2fs_inode, i_inline_xattr_size),
    M(f2fs_inode, i_projid),
    M(f2fs_inode, i_inode_checksum),
    M(f2fs_inode, i_crtime),
    M(f2fs_inode, i_compr_blocks),
    MA(f2fs_inode, i_addr, F2FS_DEF_ADDRS_PER_INODE),
    MA(f2fs_inode, i_nid, F2FS_DEF_NIDS_PER_INODE),
    {NULL, 0, 0, 0},
};

/* Offsets inside the whole node block. */
static const struct member footer_members[] = {
    MN(f2fs_node, "nid", footer.nid),
    MN(f2fs_node, "ino", footer.ino),
    MN(f2fs_node, "flag", footer.flag),
    MN(f2fs_node, "cp_ver", footer.cp_ver),
    MN(f2fs_node, "next_blkaddr", footer.next_blkaddr),
    {NULL, 0, 0, 0},
};

static const struct member *find_member(const struct member *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static void list_members(const char *what, const struct member *t, const char *extra)
{
	printf("members of %s:", what);
	for (; t->name; t++)
		printf(" %s%s", t->name, t->count > 1 ? "[]" : "");
	if (extra)
		printf(" %s", extra);
	putchar('\n');
}

static uint64_t get_le(const uint8_t *p, unsigned int size)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *p, unsigned int size, uint64_t v)
{
	for (unsigned int i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t size_mask(unsigned int size)
{
	return size >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * size)) - 1;
}

static void need_val(void)
{
	if (!o.have_val)
		die("--mb %s needs --val", o.mb);
}

/*
 * Set member @m (index --idx for arrays) of the structure at @base; @what
 * names the structure in the message.
 */
static void set_member(uint8_t *base, const struct member *m, const char *what)
{
	unsigned int idx = 0;
	char label[80];
	uint8_t *p;
	uint64_t old;

	need_val();
	if (m->count > 1) {
		if (!o.have_idx)
			die("--mb %s is an array: give --idx (0..%u)", m->name, m->count - 1);
		if (o.idx >= m->count)
			die("--idx %u is out of range for %s[] (0..%u)", o.idx, m->name,
			    m->count - 1);
		idx = o.idx;
		snprintf(label, sizeof(label), "%s[%u]", m->name, idx);
	} else {
		if (o.have_idx)
			die("--mb %s is not an array: --idx does not apply", m->name);
		snprintf(label, sizeof(label), "%s", m->name);
	}
	if (o.val > size_mask(m->size))
		die("--val %" PRIu64 " does not fit %s (%u byte%s)", o.val, label, m->size,
		    m->size > 1 ? "s" : "");
	p = base + m->off + (size_t)idx * m->size;
	old = get_le(p, m->size);
	put_le(p, m->size, o.val);
	info("inject %s of %s: %" PRIu64 " (0x%" PRIx64 ") -> %" PRIu64 " (0x%" PRIx64 ")", label,
	     what, old, old, o.val, o.val);
}

/* ---- device access ---- */

static void rd(void *buf, uint64_t blk)
{
	int ret = f2fs_dev_read(dev, buf, blk * F2FS_BLKSIZE, F2FS_BLKSIZE);

	if (ret)
		die("cannot read block %" PRIu64 ": %s", blk, strerror(-ret));
}

static void wr(const void *buf, uint64_t blk, const char *what)
{
	int ret;

	if (o.dry_run) {
		info("dry run: block 0x%" PRIx64 " (%s) not written", blk, what);
		return;
	}
	ret = f2fs_dev_write(dev, buf, blk * F2FS_BLKSIZE, F2FS_BLKSIZE);
	if (ret)
		die("cannot write block %" PRIu64 ": %s", blk, strerror(-ret));
	dbg(1, "wrote block 0x%" PRIx64 " (%s)", blk, what);
}

static void open_volume(void)
{
	char why[400];
	int ret;

	ret = f2fs_volume_open(dev, &vol, why, sizeof(why));
	if (ret)
		die("cannot open the volume: %s", why);
	if (f2fs_volume_warning(vol))
		info("%s", f2fs_volume_warning(vol));
	ret = f2fs_cp_data_load(vol, &cpd, why, sizeof(why));
	if (ret)
		die("cannot load the checkpoint pack: %s", why);
}

static void load_nat(void)
{
	char why[400];
	int ret;

	ret = f2fs_nat_load(dev, f2fs_volume_sb(vol), f2fs_volume_cp(vol),
			    f2fs_volume_cp_start(vol), cpd, &nat, why, sizeof(why));
	if (ret)
		die("cannot load the NAT: %s", why);
}

/* ---- superblock ---- */

static void inject_sb(void)
{
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_super_block *sb = (struct f2fs_super_block *)(buf + F2FS_SUPER_OFFSET);
	int copy = o.pack == 2 ? 1 : 0;
	const struct member *m;
	char what[16];
	bool is_crc;

	snprintf(what, sizeof(what), "sb %d", copy + 1);
	m = find_member(sb_members, o.mb);
	is_crc = m && !strcmp(m->name, "crc");
	if (!strcmp(o.mb, "devs.path")) {
		if (!o.str)
			die("--mb devs.path needs --str");
		if (!o.have_idx || o.idx >= F2FS_MAX_DEVICES)
			die("--mb devs.path needs --idx 0..%d", F2FS_MAX_DEVICES - 1);
		if (strlen(o.str) >= F2FS_MAX_PATH_LEN)
			die("--str is longer than %d bytes", F2FS_MAX_PATH_LEN - 1);
	} else if (!m) {
		die("unknown or unsupported superblock member \"%s\" (-h after --sb lists them)",
		    o.mb);
	}
	rd(buf, (uint64_t)copy);
	if (m) {
		set_member((uint8_t *)sb, m, what);
	} else {
		info("inject devs[%u].path of %s: \"%.*s\" -> \"%s\"", o.idx, what,
		     F2FS_MAX_PATH_LEN, (const char *)sb->devs[o.idx].path, o.str);
		memset(sb->devs[o.idx].path, 0, F2FS_MAX_PATH_LEN);
		memcpy(sb->devs[o.idx].path, o.str, strlen(o.str));
	}
	if (!is_crc && (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM)) {
		uint32_t old = le32_get(sb->crc);

		f2fs_super_seal(sb);
		info("%s crc updated: 0x%08x -> 0x%08x", what, old, le32_get(sb->crc));
	}
	wr(buf, (uint64_t)copy, what);
}

/* ---- checkpoint ---- */

static void inject_cp(void)
{
	const struct f2fs_super_block *sb = f2fs_volume_sb(vol);
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	const struct member *m = find_member(cp_members, o.mb);
	int pack = o.pack ? o.pack - 1 : f2fs_volume_cp_index(vol);
	uint64_t start = le32_get(sb->cp_blkaddr) + (uint64_t)pack * SEG_BLKS;
	uint32_t total, csum_off;
	char what[16];

	snprintf(what, sizeof(what), "cp %d", pack + 1);
	if (!m && strcmp(o.mb, "crc"))
		die("unknown or unsupported checkpoint member \"%s\" (-h after --cp lists them)",
		    o.mb);
	rd(buf, start);
	total = le32_get(cp->cp_pack_total_block_count);
	csum_off = le32_get(cp->checksum_offset);
	if (total < 2 || total > SEG_BLKS)
		die("%s: cp_pack_total_block_count %u is unusable: cannot find the pack's last "
		    "block",
		    what, total);
	if (m) {
		bool reseal = true;

		set_member(buf, m, what);
		if (!strcmp(m->name, "checksum_offset")) {
			/* the checksum moves with it: keep the old one where it was */
			reseal = false;
		}
		if (reseal) {
			if (csum_off < F2FS_CP_BITMAP_OFFSET || csum_off > F2FS_CP_CHKSUM_OFFSET) {
				info("%s: checksum_offset %u is out of range: crc left alone", what,
				     csum_off);
			} else {
				uint32_t old = get_le(buf + csum_off, 4);

				f2fs_cp_seal(cp);
				info("%s crc updated: 0x%08x -> 0x%08x", what, old,
				     (uint32_t)get_le(buf + csum_off, 4));
			}
		}
	} else {
		uint64_t old;

		need_val();
		if (csum_off < F2FS_CP_BITMAP_OFFSET || csum_off > F2FS_CP_CHKSUM_OFFSET)
			die("%s: checksum_offset %u is out of range", what, csum_off);
		if (o.val > UINT32_MAX)
			die("--val %" PRIu64 " does not fit crc (4 bytes)", o.val);
		old = get_le(buf + csum_off, 4);
		put_le(buf + csum_off, 4, o.val);
		info("inject crc of %s: 0x%08" PRIx64 " -> 0x%08" PRIx64, what, old, o.val);
	}
	wr(buf, start, what);
	wr(buf, start + total - 1, "checkpoint tail copy");
}

/* ---- journals in the checkpoint pack ---- */

/*
 * Block address and byte offset of the NAT (@sit false) or SIT journal of
 * the current pack, as lib/summary.c reads them.
 */
static void journal_location(bool sit, uint64_t *blk, size_t *off)
{
	const struct f2fs_checkpoint *cp = f2fs_volume_cp(vol);
	uint32_t flags = le32_get(cp->ckpt_flags);
	uint64_t start = f2fs_volume_cp_start(vol);

	if (flags & CP_COMPACT_SUM_FLAG) {
		*blk = start + le32_get(cp->cp_pack_start_sum);
		*off = sit ? F2FS_SUM_JOURNAL_SIZE : 0;
	} else {
		uint32_t base = (flags & (CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG)) ? 7 : 4;

		*blk = start + le32_get(cp->cp_pack_total_block_count) - base +
		       (sit ? F2FS_CURSEG_COLD_DATA : F2FS_CURSEG_HOT_DATA);
		*off = offsetof(struct f2fs_summary_block, journal);
	}
}

/* ---- NAT ---- */

static uint32_t nat_max_nid(const struct f2fs_super_block *sb)
{
	return (le32_get(sb->segment_count_nat) / 2) * SEG_BLKS * F2FS_NAT_ENTRY_PER_BLOCK;
}

static void set_nat_field(struct f2fs_nat_entry *ne, const char *where)
{
	char what[64];
	uint64_t old;
	unsigned int size;
	uint8_t *p;

	snprintf(what, sizeof(what), "nid %u in %s", o.nid, where);
	if (!strcmp(o.mb, "version")) {
		p = &ne->version;
		size = 1;
	} else if (!strcmp(o.mb, "ino")) {
		p = (uint8_t *)&ne->ino;
		size = 4;
	} else if (!strcmp(o.mb, "block_addr")) {
		p = (uint8_t *)&ne->block_addr;
		size = 4;
	} else {
		die("unknown or unsupported NAT member \"%s\" (version, ino, block_addr)", o.mb);
	}
	need_val();
	if (o.val > size_mask(size))
		die("--val %" PRIu64 " does not fit %s", o.val, o.mb);
	old = get_le(p, size);
	put_le(p, size, o.val);
	info("inject %s of %s: %" PRIu64 " (0x%" PRIx64 ") -> %" PRIu64 " (0x%" PRIx64 ")", o.mb,
	     what, old, old, o.val, o.val);
}

static void check_nat_member(void)
{
	if (strcmp(o.mb, "version") && strcmp(o.mb, "ino") && strcmp(o.mb, "block_addr"))
		die("unknown or unsupported NAT member \"%s\" (version, ino, block_addr)", o.mb);
	need_val();
}

static void inject_nat(void)
{
	const struct f2fs_super_block *sb = f2fs_volume_sb(vol);
	uint32_t n = le16_get(cpd->nat_journal.n_nats), i, bidx;
	uint8_t buf[F2FS_BLKSIZE];
	uint64_t addr;
	int copy;

	if (!o.have_nid)
		die("--nat needs --nid");
	if (o.nid >= nat_max_nid(sb))
		die("--nid %u is out of range (0..%u)", o.nid, nat_max_nid(sb) - 1);
	check_nat_member();
	for (i = 0; i < n; i++) {
		if (le32_get(cpd->nat_journal.nat_j.entries[i].nid) != o.nid)
			continue;
		uint64_t jblk;
		size_t joff;
		struct f2fs_journal *j;

		journal_location(false, &jblk, &joff);
		rd(buf, jblk);
		j = (struct f2fs_journal *)(buf + joff);
		if (le32_get(j->nat_j.entries[i].nid) != o.nid)
			die("NAT journal on disk differs from the one loaded");
		set_nat_field(&j->nat_j.entries[i].ne, "the NAT journal");
		wr(buf, jblk, "NAT journal");
		return;
	}
	bidx = o.nid / F2FS_NAT_ENTRY_PER_BLOCK;
	if (o.pack)
		copy = o.pack - 1;
	else
		copy = f2fs_test_bit_msb(cpd->nat_bitmap, bidx);
	addr = f2fs_nat_block_addr(sb, bidx, copy);
	rd(buf, addr);
	{
		char where[48];

		snprintf(where, sizeof(where), "NAT copy %d (block 0x%" PRIx64 ")", copy + 1, addr);
		set_nat_field(
		    &((struct f2fs_nat_block *)buf)->entries[o.nid % F2FS_NAT_ENTRY_PER_BLOCK],
		    where);
	}
	wr(buf, addr, "NAT block");
}

/* ---- SIT ---- */

static uint32_t main_segno(const struct f2fs_super_block *sb, uint32_t blk)
{
	uint32_t main = le32_get(sb->main_blkaddr);
	uint64_t end = main + (uint64_t)le32_get(sb->segment_count_main) * SEG_BLKS;

	if (!o.have_blk)
		die("this structure needs --blk");
	if (blk < main || blk >= end)
		die("--blk 0x%x is outside the main area [0x%x, 0x%" PRIx64 ")", blk, main, end);
	return (blk - main) / SEG_BLKS;
}

static void set_sit_field(struct f2fs_sit_entry *se, uint32_t segno, const char *where)
{
	const struct f2fs_super_block *sb = f2fs_volume_sb(vol);
	uint32_t off = (o.blk - le32_get(sb->main_blkaddr)) % SEG_BLKS;
	char what[96];

	snprintf(what, sizeof(what), "segment %u (blk 0x%x) in %s", segno, o.blk, where);
	need_val();
	if (!strcmp(o.mb, "vblocks")) {
		uint16_t old = le16_get(se->vblocks);

		if (o.val > UINT16_MAX)
			die("--val %" PRIu64 " does not fit vblocks (2 bytes)", o.val);
		se->vblocks = le16_put((uint16_t)o.val);
		info("inject vblocks of %s: %u (0x%04x) -> %u (0x%04x) [type %u, %u blocks -> type "
		     "%u, %u blocks]",
		     what, old, old, (unsigned int)o.val, (unsigned int)o.val,
		     old >> F2FS_SIT_VBLOCKS_SHIFT, old & F2FS_SIT_VBLOCKS_MASK,
		     (unsigned int)(o.val >> F2FS_SIT_VBLOCKS_SHIFT),
		     (unsigned int)(o.val & F2FS_SIT_VBLOCKS_MASK));
	} else if (!strcmp(o.mb, "type")) {
		uint16_t old = le16_get(se->vblocks);

		if (o.val > 63)
			die("--val %" PRIu64 " does not fit the 6-bit segment type", o.val);
		se->vblocks = le16_put(
		    (uint16_t)((old & F2FS_SIT_VBLOCKS_MASK) | (o.val << F2FS_SIT_VBLOCKS_SHIFT)));
		info("inject type of %s: %u -> %u", what, old >> F2FS_SIT_VBLOCKS_SHIFT,
		     (unsigned int)o.val);
	} else if (!strcmp(o.mb, "valid_map")) {
		uint32_t idx = o.have_idx ? o.idx : off / 8;

		if (idx >= F2FS_SIT_VBLOCK_MAP_SIZE)
			die("--idx %u is out of range for valid_map[] (0..%d)", idx,
			    F2FS_SIT_VBLOCK_MAP_SIZE - 1);
		if (o.val > 0xff)
			die("--val %" PRIu64 " does not fit a valid_map byte", o.val);
		info("inject valid_map[%u] of %s: 0x%02x -> 0x%02x", idx, what, se->valid_map[idx],
		     (unsigned int)o.val);
		se->valid_map[idx] = (uint8_t)o.val;
	} else if (!strcmp(o.mb, "valid_bit")) {
		int old = f2fs_test_bit_msb(se->valid_map, off);

		if (o.val > 1)
			die("--val for valid_bit is 0 or 1");
		if (o.val)
			f2fs_set_bit_msb(se->valid_map, off);
		else
			se->valid_map[off >> 3] &= (uint8_t) ~(0x80u >> (off & 7));
		info("inject valid_bit of block %u of %s: %d -> %d", off, what, old, (int)o.val);
	} else if (!strcmp(o.mb, "mtime")) {
		uint64_t old = le64_get(se->mtime);

		se->mtime = le64_put(o.val);
		info("inject mtime of %s: %" PRIu64 " -> %" PRIu64, what, old, o.val);
	} else {
		die("unknown or unsupported SIT member \"%s\" (vblocks, type, valid_map, "
		    "valid_bit, mtime)",
		    o.mb);
	}
}

static void check_sit_member(void)
{
	static const char *const ok[] = {"vblocks", "type", "valid_map", "valid_bit", "mtime"};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(o.mb, ok[i])) {
			need_val();
			return;
		}
	die("unknown or unsupported SIT member \"%s\" (vblocks, type, valid_map, valid_bit, "
	    "mtime)",
	    o.mb);
}

static void inject_sit(void)
{
	const struct f2fs_super_block *sb = f2fs_volume_sb(vol);
	uint32_t segno = main_segno(sb, o.blk);
	uint32_t n = le16_get(cpd->sit_journal.n_sits), i, bidx;
	uint8_t buf[F2FS_BLKSIZE];
	uint64_t addr;
	int copy;

	check_sit_member();
	if (o.have_idx && strcmp(o.mb, "valid_map"))
		die("--idx applies only to valid_map");
	for (i = 0; i < n; i++) {
		if (le32_get(cpd->sit_journal.sit_j.entries[i].segno) != segno)
			continue;
		uint64_t jblk;
		size_t joff;
		struct f2fs_journal *j;

		journal_location(true, &jblk, &joff);
		rd(buf, jblk);
		j = (struct f2fs_journal *)(buf + joff);
		if (le32_get(j->sit_j.entries[i].segno) != segno)
			die("SIT journal on disk differs from the one loaded");
		set_sit_field(&j->sit_j.entries[i].se, segno, "the SIT journal");
		wr(buf, jblk, "SIT journal");
		return;
	}
	bidx = segno / F2FS_SIT_ENTRY_PER_BLOCK;
	if (o.pack)
		copy = o.pack - 1;
	else
		copy = f2fs_test_bit_msb(cpd->sit_bitmap, bidx);
	addr = le32_get(sb->sit_blkaddr) + bidx +
	       (copy ? (uint64_t)(le32_get(sb->segment_count_sit) / 2) * SEG_BLKS : 0);
	rd(buf, addr);
	{
		char where[48];

		snprintf(where, sizeof(where), "SIT copy %d (block 0x%" PRIx64 ")", copy + 1, addr);
		set_sit_field(
		    &((struct f2fs_sit_block *)buf)->entries[segno % F2FS_SIT_ENTRY_PER_BLOCK],
		    segno, where);
	}
	wr(buf, addr, "SIT block");
}

/* ---- SSA ---- */

static void inject_ssa(void)
{
	const struct f2fs_super_block *sb = f2fs_volume_sb(vol);
	uint32_t segno = main_segno(sb, o.blk);
	uint32_t off = (o.blk - le32_get(sb->main_blkaddr)) % SEG_BLKS, idx;
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_summary_block *s = (struct f2fs_summary_block *)buf;
	uint64_t addr = le32_get(sb->ssa_blkaddr) + (uint64_t)segno;
	char what[64];
	uint8_t *p;
	unsigned int size;
	uint64_t old;

	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		if (cpd->curseg_segno[t] == segno)
			die("segment %u is open log %d: its summary lives in the checkpoint pack; "
			    "pick a block of a closed segment",
			    segno, t);
	need_val();
	idx = o.have_idx ? o.idx : off;
	if (idx >= F2FS_ENTRIES_IN_SUM)
		die("--idx %u is out of range for entries[] (0..%d)", idx, F2FS_ENTRIES_IN_SUM - 1);
	if (!strcmp(o.mb, "nid")) {
		p = (uint8_t *)&s->entries[idx].nid;
		size = 4;
	} else if (!strcmp(o.mb, "version")) {
		p = &s->entries[idx].version;
		size = 1;
	} else if (!strcmp(o.mb, "ofs_in_node")) {
		p = (uint8_t *)&s->entries[idx].ofs_in_node;
		size = 2;
	} else if (!strcmp(o.mb, "entry_type")) {
		p = &s->footer.entry_type;
		size = 1;
	} else if (!strcmp(o.mb, "check_sum")) {
		p = (uint8_t *)&s->footer.check_sum;
		size = 4;
	} else {
		die("unknown or unsupported SSA member \"%s\" (nid, version, ofs_in_node, "
		    "entry_type, check_sum)",
		    o.mb);
	}
	if (o.val > size_mask(size))
		die("--val %" PRIu64 " does not fit %s", o.val, o.mb);
	rd(buf, addr);
	if (p >= (uint8_t *)&s->footer)
		snprintf(what, sizeof(what), "the summary of segment %u", segno);
	else
		snprintf(what, sizeof(what), "summary entry %u of segment %u", idx, segno);
	old = get_le(p, size);
	put_le(p, size, o.val);
	info("inject %s of %s: %" PRIu64 " (0x%" PRIx64 ") -> %" PRIu64 " (0x%" PRIx64 ")", o.mb,
	     what, old, old, o.val, o.val);
	wr(buf, addr, "SSA block");
}

/* ---- nodes ---- */

static uint32_t node_addr(uint32_t nid)
{
	const struct f2fs_super_block *sb = f2fs_volume_sb(vol);
	const struct f2fs_nat_info *ni = f2fs_nat_get(nat, nid);
	uint32_t main = le32_get(sb->main_blkaddr);
	uint64_t end = main + (uint64_t)le32_get(sb->segment_count_main) * SEG_BLKS;

	if (!ni)
		die("nid %u is outside the NAT (0..%u)", nid, nat->max_nid - 1);
	if (ni->blkaddr == F2FS_NULL_ADDR)
		die("nid %u is not in use (NAT block address 0)", nid);
	if (ni->blkaddr < main || ni->blkaddr >= end)
		die("nid %u: NAT block address 0x%x is outside the main area", nid, ni->blkaddr);
	return ni->blkaddr;
}

static uint32_t chksum_seed(void)
{
	return f2fs_inode_chksum_seed(f2fs_volume_sb(vol)->uuid);
}

static uint32_t features(void)
{
	return le32_get(f2fs_volume_sb(vol)->feature);
}

/* Write an inode block back, recomputing its checksum unless told not to. */
static void write_inode_block(struct f2fs_node *n, uint32_t addr, bool reseal, const char *what)
{
	if (reseal && (features() & F2FS_FEATURE_INODE_CHKSUM)) {
		uint32_t old = le32_get(n->i.i_inode_checksum);

		f2fs_inode_seal(n, features(), chksum_seed());
		if (old != le32_get(n->i.i_inode_checksum))
			info("inode checksum of ino %u updated: 0x%08x -> 0x%08x",
			     le32_get(n->footer.ino), old, le32_get(n->i.i_inode_checksum));
	}
	wr(n, addr, what);
}

static void inject_node(void)
{
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_node *n = (struct f2fs_node *)buf;
	const struct f2fs_nat_info *ni;
	const struct member *m;
	uint32_t addr;
	bool is_inode;
	char what[32];

	if (!o.have_nid)
		die("--node needs --nid");
	load_nat();
	addr = node_addr(o.nid);
	ni = f2fs_nat_get(nat, o.nid);
	is_inode = ni->ino == o.nid;
	rd(buf, addr);
	snprintf(what, sizeof(what), "nid %u", o.nid);
	if ((m = find_member(footer_members, o.mb))) {
		set_member(buf, m, what);
	} else if (!strcmp(o.mb, "ofs")) {
		uint32_t flag = le32_get(n->footer.flag);
		uint32_t old = flag >> F2FS_OFFSET_BIT_SHIFT;

		need_val();
		if (o.have_idx)
			die("--mb ofs is not an array: --idx does not apply");
		if (o.val > (UINT32_MAX >> F2FS_OFFSET_BIT_SHIFT))
			die("--val %" PRIu64 " does not fit the node offset", o.val);
		flag = (flag & ((1u << F2FS_OFFSET_BIT_SHIFT) - 1)) |
		       ((uint32_t)o.val << F2FS_OFFSET_BIT_SHIFT);
		n->footer.flag = le32_put(flag);
		info("inject node offset (footer flag) of %s: %u -> %u", what, old,
		     (unsigned int)o.val);
	} else if (is_inode) {
		m = find_member(inode_members, o.mb);
		if (!m)
			die("unknown or unsupported inode member \"%s\" (-h after --node lists "
			    "them)",
			    o.mb);
		set_member(buf, m, what);
	} else {
		static const struct member addr_m = {"addr", 0, 4, F2FS_ADDRS_PER_BLOCK};

		if (strcmp(o.mb, "addr"))
			die("unknown or unsupported member \"%s\" of non-inode node %u (addr, or a "
			    "footer member)",
			    o.mb, o.nid);
		set_member(buf, &addr_m, what);
	}
	if (is_inode)
		write_inode_block(n, addr, strcmp(o.mb, "i_inode_checksum") != 0, "inode");
	else
		wr(buf, addr, "node block");
}

/* ---- dentries ---- */

struct dent_area {
	uint8_t *bitmap;
	struct f2fs_dir_entry *de;
	uint8_t (*names)[F2FS_SLOT_LEN];
	unsigned int nr;
};

static void inline_area(struct f2fs_node *n, struct dent_area *a)
{
	struct f2fs_inline_dentry_geo g;
	uint8_t *p = (uint8_t *)f2fs_inline_data(&n->i);

	f2fs_inline_dentry_geometry(f2fs_inline_data_bytes(&n->i, features()), &g);
	a->nr = g.nr;
	a->bitmap = p;
	a->de = (struct f2fs_dir_entry *)(p + g.bitmap_size + g.reserved);
	a->names = (uint8_t(*)[F2FS_SLOT_LEN])((uint8_t *)a->de +
					       (size_t)g.nr * sizeof(struct f2fs_dir_entry));
}

static void block_area(uint8_t *blk, struct dent_area *a)
{
	struct f2fs_dentry_block *d = (struct f2fs_dentry_block *)blk;

	a->nr = F2FS_NR_DENTRY_IN_BLOCK;
	a->bitmap = d->dentry_bitmap;
	a->de = d->dentry;
	a->names = d->filename;
}

/* The slot of the entry matching what we look for, or -1. */
static int find_slot(const struct dent_area *a, uint32_t ino, const char *name)
{
	unsigned int s = 0;

	while (s < a->nr) {
		const struct f2fs_dir_entry *de = &a->de[s];
		unsigned int len = le16_get(de->name_len);

		if (!f2fs_test_bit_lsb(a->bitmap, s) || !len) {
			s++;
			continue;
		}
		if (name) {
			if (len == strlen(name) && s + f2fs_name_slots(len) <= a->nr &&
			    !memcmp(a->names[s], name, len))
				return (int)s;
		} else if (le32_get(de->ino) == ino) {
			return (int)s;
		}
		s += (len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN;
	}
	return -1;
}

/* Data block addresses of directory @n (in the inode and its two direct nodes). */
static unsigned int dir_blocks(struct f2fs_node *n, uint32_t *out, unsigned int max)
{
	unsigned int first = f2fs_inode_first_addr(&n->i);
	unsigned int cnt = f2fs_inode_addrs(&n->i, features()), k = 0;
	uint8_t buf[F2FS_BLKSIZE];

	for (unsigned int i = 0; i < cnt && k < max; i++) {
		uint32_t a = le32_get(n->i.i_addr[first + i]);

		if (a != F2FS_NULL_ADDR && a != F2FS_NEW_ADDR)
			out[k++] = a;
	}
	for (int d = 0; d < 2; d++) {
		uint32_t nid = le32_get(n->i.i_nid[d]);
		const struct f2fs_nat_info *ni = f2fs_nat_get(nat, nid);
		struct f2fs_node *dn = (struct f2fs_node *)buf;

		if (!nid || !ni || ni->blkaddr == F2FS_NULL_ADDR)
			continue;
		rd(buf, ni->blkaddr);
		for (unsigned int i = 0; i < F2FS_ADDRS_PER_BLOCK && k < max; i++) {
			uint32_t a = le32_get(dn->dn.addr[i]);

			if (a != F2FS_NULL_ADDR && a != F2FS_NEW_ADDR)
				out[k++] = a;
		}
	}
	return k;
}

static void inject_dent(void)
{
	static const char *const ok[] = {"d_hash",     "d_ino",	   "d_ftype",
					 "d_name_len", "d_bitmap", "filename"};
	uint8_t inode_buf[F2FS_BLKSIZE], blk_buf[F2FS_BLKSIZE];
	struct f2fs_node *dir = (struct f2fs_node *)inode_buf;
	uint32_t dir_nid, dir_addr, look_ino = 0, blk_addr = 0;
	const char *look_name = NULL;
	struct dent_area a;
	bool in_inline, known = false;
	int slot = -1;
	char what[96];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		known |= !strcmp(o.mb, ok[i]);
	if (!known)
		die("unknown or unsupported dentry member \"%s\" (d_hash, d_ino, d_ftype, "
		    "d_name_len, d_bitmap, filename)",
		    o.mb);
	if (!o.have_nid)
		die("--dent needs --nid");
	if (!strcmp(o.mb, "filename")) {
		if (!o.str)
			die("--mb filename needs --str");
	} else if (strcmp(o.mb, "d_bitmap")) {
		need_val();
	}
	if (o.dots && o.have_idx)
		die("--dots and --idx cannot be combined");
	load_nat();
	if (o.dots || o.have_idx) {
		dir_nid = o.nid;
		look_name = o.dots == 1 ? "." : o.dots == 2 ? ".." : NULL;
	} else {
		uint8_t child[F2FS_BLKSIZE];

		rd(child, node_addr(o.nid));
		if (f2fs_nat_get(nat, o.nid)->ino != o.nid)
			die("nid %u is not an inode", o.nid);
		dir_nid = le32_get(((struct f2fs_node *)child)->i.i_pino);
		look_ino = o.nid;
	}
	dir_addr = node_addr(dir_nid);
	rd(inode_buf, dir_addr);
	if ((le16_get(dir->i.i_mode) & S_IFMT) != S_IFDIR)
		die("nid %u is not a directory", dir_nid);
	in_inline = dir->i.i_inline & F2FS_INLINE_DENTRY;
	if (in_inline) {
		inline_area(dir, &a);
		if (o.have_idx)
			slot = (int)o.idx;
		else
			slot = find_slot(&a, look_ino, look_name);
	} else {
		uint32_t blks[64];
		unsigned int nb = dir_blocks(dir, blks, 64);

		if (o.have_idx) {
			/* --idx counts slots across the directory's blocks in order */
			uint32_t b = o.idx / F2FS_NR_DENTRY_IN_BLOCK;

			if (b >= nb)
				die("--idx %u is beyond the directory's %u block(s) of %d slots",
				    o.idx, nb, F2FS_NR_DENTRY_IN_BLOCK);
			blk_addr = blks[b];
			rd(blk_buf, blk_addr);
			block_area(blk_buf, &a);
			slot = (int)(o.idx % F2FS_NR_DENTRY_IN_BLOCK);
		} else {
			for (unsigned int i = 0; i < nb && slot < 0; i++) {
				blk_addr = blks[i];
				rd(blk_buf, blk_addr);
				block_area(blk_buf, &a);
				slot = find_slot(&a, look_ino, look_name);
			}
		}
	}
	if (o.have_idx && (unsigned int)slot >= a.nr)
		die("--idx %u is out of range (the inline area has %u slots)", o.idx, a.nr);
	if (slot < 0) {
		if (look_name)
			die("\"%s\" not found in directory %u", look_name, dir_nid);
		die("no entry for ino %u found in its parent directory %u", look_ino, dir_nid);
	}

	struct f2fs_dir_entry *de = &a.de[slot];

	snprintf(what, sizeof(what), "dentry slot %d of directory %u%s", slot, dir_nid,
		 in_inline ? " (inline)" : "");
	if (!strcmp(o.mb, "d_hash")) {
		if (o.val > UINT32_MAX)
			die("--val does not fit d_hash");
		info("inject d_hash of %s: 0x%08x -> 0x%08x", what, le32_get(de->hash_code),
		     (uint32_t)o.val);
		de->hash_code = le32_put((uint32_t)o.val);
	} else if (!strcmp(o.mb, "d_ino")) {
		if (o.val > UINT32_MAX)
			die("--val does not fit d_ino");
		info("inject d_ino of %s: %u -> %u", what, le32_get(de->ino), (uint32_t)o.val);
		de->ino = le32_put((uint32_t)o.val);
	} else if (!strcmp(o.mb, "d_ftype")) {
		if (o.val > 0xff)
			die("--val does not fit d_ftype");
		info("inject d_ftype of %s: %u -> %u", what, de->file_type, (unsigned int)o.val);
		de->file_type = (uint8_t)o.val;
	} else if (!strcmp(o.mb, "d_name_len")) {
		if (o.val > UINT16_MAX)
			die("--val does not fit d_name_len");
		info("inject d_name_len of %s: %u -> %u", what, le16_get(de->name_len),
		     (unsigned int)o.val);
		de->name_len = le16_put((uint16_t)o.val);
	} else if (!strcmp(o.mb, "d_bitmap")) {
		int old = f2fs_test_bit_lsb(a.bitmap, (unsigned int)slot);
		int nv = o.have_val ? (int)(o.val != 0) : 0;

		if (o.have_val && o.val > 1)
			die("--val for d_bitmap is 0 or 1");
		if (nv)
			f2fs_set_bit_lsb(a.bitmap, (unsigned int)slot);
		else
			f2fs_clear_bit_lsb(a.bitmap, (unsigned int)slot);
		info("inject d_bitmap bit of %s: %d -> %d", what, old, nv);
	} else {
		size_t len = strlen(o.str);
		size_t cap = (size_t)f2fs_name_slots(le16_get(de->name_len)) * F2FS_SLOT_LEN;

		if (!len || len > cap || len > F2FS_NAME_LEN)
			die("--str must be 1..%zu bytes (the slots of the old name)", cap);
		if ((unsigned int)slot + f2fs_name_slots(len) > a.nr)
			die("the name runs past the end of the block");
		info("inject filename of %s: \"%.*s\" -> \"%s\"", what,
		     (int)(le16_get(de->name_len) < cap ? le16_get(de->name_len) : cap),
		     (const char *)a.names[slot], o.str);
		memcpy(a.names[slot], o.str, len);
		de->name_len = le16_put((uint16_t)len);
		de->hash_code = le32_put(f2fs_dentry_hash((const unsigned char *)o.str, len));
		info("d_name_len -> %zu, d_hash -> 0x%08x", len, le32_get(de->hash_code));
	}
	if (in_inline)
		write_inode_block(dir, dir_addr, true, "directory inode (inline dentries)");
	else
		wr(blk_buf, blk_addr, "dentry block");
}

/* ---- command line ---- */

static uint32_t parse_u32(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-')
		die("invalid value for --%s: '%s'", opt, s);
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		die("invalid value for --%s: '%s'", opt, s);
	return (uint32_t)v;
}

static void set_target(enum target t, int pack, const char *name)
{
	if (o.target != T_NONE)
		die("only one structure per run: --%s given after another one", name);
	o.target = t;
	o.pack = pack;
}

static int parse_pack(const char *opt, const char *s)
{
	if (strlen(s) != 1 || s[0] < '0' || s[0] > '2')
		die("invalid value for --%s: '%s' (expected 0, 1 or 2)", opt, s);
	return s[0] - '0';
}

static void target_help(void)
{
	switch (o.target) {
	case T_SB:
		list_members("--sb", sb_members, "devs.path (--idx, --str)");
		break;
	case T_CP:
		list_members("--cp", cp_members, "crc");
		break;
	case T_NAT:
		puts("members of --nat (with --nid): version ino block_addr");
		break;
	case T_SIT:
		puts("members of --sit (with --blk): vblocks type valid_map (--idx byte) valid_bit "
		     "mtime");
		break;
	case T_SSA:
		puts("members of --ssa (with --blk): nid version ofs_in_node (--idx entry) "
		     "entry_type check_sum");
		break;
	case T_NODE:
		list_members("--node (footer)", footer_members, "ofs");
		list_members("--node (inode)", inode_members, NULL);
		puts("members of --node (direct/indirect node): addr[]");
		break;
	case T_DENT:
		puts(
		    "members of --dent: d_hash d_ino d_ftype d_name_len d_bitmap filename (--str)");
		break;
	default:
		usage(stdout);
	}
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {{"dry-run", no_argument, NULL, 1},
						 {"mb", required_argument, NULL, 2},
						 {"idx", required_argument, NULL, 3},
						 {"val", required_argument, NULL, 4},
						 {"str", required_argument, NULL, 5},
						 {"sb", required_argument, NULL, 6},
						 {"cp", required_argument, NULL, 7},
						 {"nat", required_argument, NULL, 8},
						 {"nid", required_argument, NULL, 9},
						 {"sit", required_argument, NULL, 10},
						 {"blk", required_argument, NULL, 11},
						 {"ssa", no_argument, NULL, 12},
						 {"node", no_argument, NULL, 13},
						 {"dent", no_argument, NULL, 14},
						 {"dots", required_argument, NULL, 15},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	char *end;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:Vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 1:
			o.dry_run = true;
			break;
		case 2:
			o.mb = optarg;
			break;
		case 3:
			o.idx = parse_u32("idx", optarg);
			o.have_idx = true;
			break;
		case 4:
			errno = 0;
			if (!*optarg || *optarg == '-')
				die("invalid value for --val: '%s'", optarg);
			o.val = strtoull(optarg, &end, 0);
			if (errno || *end)
				die("invalid value for --val: '%s'", optarg);
			o.have_val = true;
			break;
		case 5:
			o.str = optarg;
			break;
		case 6:
			set_target(T_SB, parse_pack("sb", optarg), "sb");
			break;
		case 7:
			set_target(T_CP, parse_pack("cp", optarg), "cp");
			break;
		case 8:
			set_target(T_NAT, parse_pack("nat", optarg), "nat");
			break;
		case 9:
			o.nid = parse_u32("nid", optarg);
			o.have_nid = true;
			break;
		case 10:
			set_target(T_SIT, parse_pack("sit", optarg), "sit");
			break;
		case 11:
			o.blk = parse_u32("blk", optarg);
			o.have_blk = true;
			break;
		case 12:
			set_target(T_SSA, 0, "ssa");
			break;
		case 13:
			set_target(T_NODE, 0, "node");
			break;
		case 14:
			set_target(T_DENT, 0, "dent");
			break;
		case 15:
			if (strcmp(optarg, "1") && strcmp(optarg, "2"))
				die("invalid value for --dots: '%s' (1 for \".\", 2 for \"..\")",
				    optarg);
			o.dots = optarg[0] - '0';
			break;
		case 'd':
			o.debug = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || o.debug < 0 || o.debug > 9)
				die("invalid value for -d: '%s' (expected 0 to 9)", optarg);
			break;
		case 'V':
			printf("inject.f2fs %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			target_help();
			exit(0);
		case ':':
			if (optopt)
				die("option -%c requires a value (-h for help)", optopt);
			die("option %s requires a value (-h for help)", argv[optind - 1]);
		default:
			if (optopt)
				die("unknown option -%c (-h for help)", optopt);
			die("unknown option %s (-h for help)", argv[optind - 1]);
		}
	}
	if (o.target == T_NONE)
		die("no structure given: one of --sb, --cp, --nat, --sit, --ssa, --node, --dent");
	if (!o.mb)
		die("no member given: --mb NAME (-h after the structure option lists them)");
	if (o.dots && o.target != T_DENT)
		die("--dots applies only to --dent");
	if (o.str && strcmp(o.mb, "devs.path") && strcmp(o.mb, "filename"))
		die("--str applies only to devs.path and filename");
	if (optind >= argc)
		die("no device specified (usage: inject.f2fs [options] device)");
	o.device = argv[optind++];
	if (optind < argc)
		die("unexpected argument: '%s'", argv[optind]);
}

int main(int argc, char **argv)
{
	int ret;

	parse_args(argc, argv);
	ret = f2fs_dev_open(o.device, o.dry_run ? F2FS_DEV_RDONLY : 0, &dev);
	if (ret)
		die("cannot open %s: %s", o.device, strerror(-ret));
	if (o.dry_run)
		info("dry run: nothing will be written");
	if (o.target != T_SB)
		open_volume();
	switch (o.target) {
	case T_SB:
		inject_sb();
		break;
	case T_CP:
		inject_cp();
		break;
	case T_NAT:
		inject_nat();
		break;
	case T_SIT:
		inject_sit();
		break;
	case T_SSA:
		inject_ssa();
		break;
	case T_NODE:
		inject_node();
		break;
	case T_DENT:
		inject_dent();
		break;
	default:
		break;
	}
	f2fs_nat_free(nat);
	f2fs_cp_data_free(cpd);
	f2fs_volume_close(vol);
	ret = f2fs_dev_close(dev);
	if (ret)
		die("closing %s: %s", o.device, strerror(-ret));
	return 0;
}
