// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs.f2fs: parse upstream's options, check the device, compute the layout
 * and let libf2fs write it.  Every refusal is one line on stderr and exit 1,
 * before anything is written.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "f2fs/blkgeo.h"
#include "f2fs/device.h"
#include "f2fs/feature.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"
#include "f2fs/super.h"
#include "f2fs/zone.h"
#include "tools/common/common.h"
#include "tools/common/target.h"

#define TOOLS_DATE	"2026-12-01"
#define MAX_LABEL_BYTES 4096
#define OPT_UNDO	256 /* --undo: past every short option */

struct mkfs_opts {
	struct f2fs_mkfs_config cfg;
	const char *device;
	const char *devices[F2FS_LAYOUT_MAX_DEVICES]; /* the device, then -c's */
	unsigned int ndevs;
	bool zoned_mode;	/* -m */
	int64_t wanted_sectors; /* the optional [sectors] argument, -1 when absent */
	int wanted_sector_size; /* -w, 0 when absent */
	int quiet;
	int debug;
	int force;
	int heap_given; /* -a: accepted, but heap-based allocation is gone upstream */
	int sparse;	/* -S: write an Android sparse image of sparse_bytes */
	uint64_t sparse_bytes;
	const char *undo; /* --undo: the journal that makes the format undoable */
	bool android;	  /* -g android: upstream's Android defaults, applied after the options */
	bool whint;	  /* -H: write-life hints on every write (F2FS_DEV_WRITE_HINTS) */
};

static void info(const struct mkfs_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void info(const struct mkfs_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void usage(FILE *out)
{
	fprintf(out, "\nUsage: mkfs.f2fs [options] device [sectors]\n"
		     "[options]:\n"
		     "  -b filesystem block size [default:4096]\n"
		     "  -c device_name up to 7 additional devices, except meta device (repeat -c)\n"
		     "  -d debug level [default:0]\n"
		     "  -e [cold file ext list] e.g. \"mp3,gif,mov\"\n"
		     "  -E [hot file ext list] e.g. \"db\"\n"
		     "  -f force overwrite of the existing filesystem\n"
		     "  -g add default options\n"
		     "  -H support write hint\n"
		     "  -i extended node bitmap, node ratio is 20%% by default\n"
		     "  -l label\n"
		     "  -U uuid\n"
		     "  -m support zoned block device [default:0]\n"
		     "  -o overprovision percentage [default:auto]\n"
		     "  -O feature1[,feature2,...] e.g. \"encrypt\"\n"
		     "  -C [encoding[:flag1,...]] Support casefolding with optional flags\n"
		     "  -q quiet mode\n"
		     "  -r set checkpointing seed (srand()) to 0\n"
		     "  -R root_owner [default: current uid:gid]\n"
		     "  -s # of segments per section [default:1]\n"
		     "  -S size: write an Android sparse image of size bytes\n"
		     "  -t 0: nodiscard, 1: discard [default:1]\n"
		     "  -T timestamps\n"
		     "  -w wanted sector size\n"
		     "  -z # of sections per zone [default:1]\n"
		     "  -V print the version number and exit\n"
		     "  -Z # of reserved sections [default:auto]\n"
		     "  --undo FILE save what the format overwrites to an undo journal\n"
		     "    (f2fs_undo FILE device takes it back; implies -t 0; not in upstream)\n"
		     "sectors: number of sectors [default: determined by device size]\n");
}

static void __attribute__((noreturn)) vdie(struct f2fs_device *dev, const char *fmt, va_list ap)
{
	fputs("mkfs.f2fs: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	f2fs_dev_close(dev);
	exit(1);
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(NULL, fmt, ap);
}

/* Refuse after the device is open: release it first so nothing leaks or stays locked. */
static void __attribute__((noreturn, format(printf, 2, 3)))
die_closing(struct f2fs_device *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(dev, fmt, ap);
}

/* A whole decimal (or 0x hex) number within [min, max], else a named error. */
static long long parse_num(const char *opt, const char *arg, long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 0);
	if (errno || end == arg || *end || v < min || v > max)
		die("invalid value for %s: '%s' (expected an integer from %lld to %lld)", opt, arg,
		    min, max);
	return v;
}

/*
 * -b: the kernel mounts blocks of its page size, 4 KiB or 16 KiB (newest
 * upstream also formats others no kernel mounts).
 */
static uint32_t parse_block_size(const char *arg)
{
	long long v = parse_num("-b", arg, 0, INT32_MAX);

	if (v == F2FS_MAX_BLKSIZE)
		return F2FS_MAX_BLKSIZE_BITS;
	if (v != F2FS_BLKSIZE)
		die("invalid value for -b: '%s' (expected 4096 or 16384)", arg);
	return F2FS_BLKSIZE_BITS;
}

static double parse_ratio(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0 && v < 100))
		die("invalid value for -o: '%s' (expected a percentage from 0 to 100)", arg);
	return v;
}

static void parse_owner(const char *arg, struct f2fs_mkfs_config *cfg)
{
	unsigned long uid, gid;
	char *end;

	errno = 0;
	uid = strtoul(arg, &end, 10);
	if (errno || end == arg || *end != ':' || uid > UINT32_MAX)
		die("invalid value for -R: '%s' (expected uid:gid)", arg);
	arg = end + 1;
	gid = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || gid > UINT32_MAX)
		die("invalid value for -R: '%s' (expected uid:gid)", arg);
	cfg->root_uid = (uint32_t)uid;
	cfg->root_gid = (uint32_t)gid;
}

static void parse_casefold(const char *arg, struct f2fs_mkfs_config *cfg)
{
	char why[160];
	uint16_t flags;

	if (f2fs_casefold_parse(arg, &cfg->s_encoding, &flags, why, sizeof(why)))
		die("%s", why);
	cfg->s_encoding_flags |= flags;
	cfg->features |= F2FS_FEATURE_CASEFOLD;
}

static void parse_features(const char *arg, struct f2fs_mkfs_config *cfg)
{
	char why[128];

	if (f2fs_feature_parse(arg, &cfg->features, why, sizeof(why)))
		die("%s", why);
}

static void parse_label(const char *arg, struct f2fs_mkfs_config *cfg)
{
	le16 units[F2FS_MAX_VOLUME_NAME];
	int n = f2fs_label_to_utf16(arg, units, F2FS_MAX_VOLUME_NAME);

	if (n == -ENAMETOOLONG)
		die("volume label is too long: at most %d UTF-16 units", F2FS_MAX_VOLUME_NAME);
	if (n < 0)
		die("volume label is not valid UTF-8");
	cfg->label = arg;
}

/*
 * -g android, as upstream applies it once every option is read (so it
 * overrides -d, -q, -w and -R): debug level 1, -f, 4096-byte sectors, root
 * owned by 0:0, no nat_bits, casefolded lookups without the linear
 * fallback; unless the volume is read-only (-O ro), encryption, project
 * quota (with the user and group quota files), extra_attr and verity.
 * Write hints too (-H), which change no byte of the volume.
 */
static void apply_android_defaults(struct mkfs_opts *o)
{
	o->debug = 1;
	o->quiet = 0;
	o->force = 1;
	o->wanted_sector_size = 4096;
	o->cfg.root_uid = o->cfg.root_gid = 0;
	o->cfg.no_nat_bits = true;
	o->whint = true;
	if (o->cfg.features & F2FS_FEATURE_RO)
		return;
	o->cfg.features |= F2FS_FEATURE_ENCRYPT | F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_EXTRA_ATTR |
			   F2FS_FEATURE_VERITY | F2FS_FEATURE_QUOTA_INO;
}

/* -c PATH: one more device; its path goes into the superblock. */
static void add_device(struct mkfs_opts *o, const char *path)
{
	if (o->ndevs == 0)
		o->ndevs = 1; /* devices[0] is the main device, known later */
	if (strchr(path, '@'))
		die("-c %s: device aliasing (device@file) is not supported: Linux 6.1 does not "
		    "mount the device_alias feature",
		    path);
	if (!*path)
		die("-c needs a device path");
	if (strlen(path) > F2FS_MAX_PATH_LEN)
		die("-c %s: a device path is at most %d bytes (the superblock records it)", path,
		    F2FS_MAX_PATH_LEN);
	if (o->ndevs == F2FS_LAYOUT_MAX_DEVICES)
		die("too many devices (-c): a volume spans at most %d", F2FS_LAYOUT_MAX_DEVICES);
	o->devices[o->ndevs++] = path;
}

static void parse_option(struct mkfs_opts *o, int opt, char *arg, const char *word)
{
	struct f2fs_mkfs_config *cfg = &o->cfg;

	switch (opt) {
	case 'q':
		o->quiet = 1;
		break;
	case 'a':
		parse_num("-a", arg, 0, 1);
		o->heap_given = 1;
		break;
	case 'b':
		cfg->geometry.log_blksize = parse_block_size(arg);
		break;
	case 'c':
		add_device(o, arg);
		break;
	case 'm':
		o->zoned_mode = true;
		break;
	case 'd':
		o->debug = (int)parse_num("-d", arg, -1, 10);
		break;
	case 'e':
		cfg->cold_extensions = arg;
		break;
	case 'E':
		cfg->hot_extensions = arg;
		break;
	case 'f':
		o->force = 1;
		break;
	case 'g':
		if (strcmp(arg, "android"))
			die("unknown default option set for -g: '%s' (supported: android)", arg);
		o->android = true;
		break;
	case 'H':
		o->whint = true;
		break;
	case 'i':
		cfg->geometry.large_nat_bitmap = true;
		break;
	case 'l':
		parse_label(arg, cfg);
		break;
	case 'o':
		cfg->geometry.overprovision = parse_ratio(arg);
		break;
	case 'O':
		parse_features(arg, cfg);
		break;
	case 'C':
		parse_casefold(arg, cfg);
		break;
	case 'r':
		cfg->fixed_cp_version = true;
		break;
	case 'R':
		parse_owner(arg, cfg);
		break;
	case 's':
		cfg->geometry.segs_per_sec = (uint32_t)parse_num("-s", arg, 1, 512);
		break;
	case 'S':
		if (!f2fs_dev_sparse_supported())
			die("-S: this build cannot write Android sparse images (built without "
			    "android-libsparse)");
		o->sparse = 1;
		o->sparse_bytes =
		    (uint64_t)parse_num("-S", arg, F2FS_BLKSIZE, (long long)F2FS_MAX_VOLUME_BYTES) &
		    ~(uint64_t)(F2FS_BLKSIZE - 1);
		break;
	case OPT_UNDO:
		o->undo = arg;
		break;
	case 'z':
		cfg->geometry.secs_per_zone = (uint32_t)parse_num("-z", arg, 1, 4096);
		break;
	case 't':
		cfg->discard = parse_num("-t", arg, 0, 1) != 0;
		break;
	case 'T':
		cfg->fixed_time = parse_num("-T", arg, 0, UINT32_MAX);
		break;
	case 'U':
		if (uuid_parse(arg, cfg->uuid))
			die("invalid value for -U: '%s' is not a UUID", arg);
		cfg->uuid_given = true;
		break;
	case 'w': {
		long long w = parse_num("-w", arg, 512, 4096);

		if (w & (w - 1))
			die("invalid value for -w: '%s' (expected a power of two from 512 to 4096)",
			    arg);
		o->wanted_sector_size = (int)w;
		break;
	}
	case 'Z':
		cfg->geometry.reserved_sections = (uint32_t)parse_num("-Z", arg, 1, UINT32_MAX);
		break;
	case 'V':
		printf("mkfs.f2fs %s (%s)\n", PACKAGE_VERSION, TOOLS_DATE);
		exit(0);
	case 'h':
		usage(stdout);
		exit(0);
	case ':':
		if (optopt)
			die("option -%c requires a value (-h for help)", optopt);
		die("option %s requires a value (-h for help)", word);
	default:
		if (optopt)
			die("unknown option -%c (-h for help)", optopt);
		die("unknown option %s (-h for help)", word);
	}
}

static void parse_args(struct mkfs_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
						 {"undo", required_argument, NULL, OPT_UNDO},
						 {NULL, 0, NULL, 0}};
	char why[128];
	int opt;

	f2fs_mkfs_config_init(&o->cfg);
	o->cfg.root_uid = getuid();
	o->cfg.root_gid = getgid();
	o->wanted_sectors = -1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qa:b:c:C:d:e:E:fg:hHil:mo:O:rR:s:S:z:t:T:U:Vw:Z:",
				  longopts, NULL)) != -1)
		parse_option(o, opt, optarg, argv[optind - 1]);
	if (o->android)
		apply_android_defaults(o);
	if (f2fs_feature_check(o->cfg.features, why, sizeof(why)))
		die("%s", why);
	/* packing 4 KiB summaries into 4 KiB blocks packs nothing: upstream drops the bit */
	if ((o->cfg.features & F2FS_FEATURE_PACKED_SSA) &&
	    o->cfg.geometry.log_blksize != F2FS_MAX_BLKSIZE_BITS) {
		o->cfg.features &= ~F2FS_FEATURE_PACKED_SSA;
		info(o, "\tInfo: packed_ssa feature is disabled for 4k block.\n");
	}
	o->cfg.geometry.readonly = o->cfg.features & F2FS_FEATURE_RO;
	/* as mke2fs with an undo file: journaling a discard would read the whole device */
	if (o->undo)
		o->cfg.discard = false;
	if (optind >= argc)
		die("no device specified (usage: mkfs.f2fs [options] device [sectors]; -h for "
		    "help)");
	o->device = argv[optind++];
	o->devices[0] = o->device;
	if (o->ndevs == 0)
		o->ndevs = 1;
	if (optind < argc)
		o->wanted_sectors = parse_num("sectors", argv[optind++], 1, LLONG_MAX / 4096);
	if (optind < argc)
		die("unexpected argument: '%s'", argv[optind]);
	if (o->ndevs > 1 && strlen(o->device) > F2FS_MAX_PATH_LEN)
		die("%s: the first device's path is at most %d bytes on a volume of several "
		    "(the superblock records it)",
		    o->device, F2FS_MAX_PATH_LEN);
	if (o->ndevs > 1 && o->wanted_sectors > 0)
		die("a sectors argument cannot be used with -c");
	if (o->zoned_mode)
		o->cfg.features |= F2FS_FEATURE_BLKZONED;
	if (o->sparse)
		o->cfg.discard = false;
	/* casefold needs an encoding to mount; utf8 is the only one there is */
	if ((o->cfg.features & F2FS_FEATURE_CASEFOLD) && !o->cfg.s_encoding)
		o->cfg.s_encoding = F2FS_ENC_UTF8_12_1;
	/* Android's kernels look casefolded names up by hash only */
	if ((o->cfg.features & F2FS_FEATURE_CASEFOLD) && o->android)
		o->cfg.s_encoding_flags |= F2FS_ENC_NO_COMPAT_FALLBACK_FL;
}

/* Refuse a mounted or busy device, and an existing file system without -f. */
static void check_target(const struct mkfs_opts *o, const char *device)
{
	char what[256];
	struct stat st;
	int ret;

	if (stat(device, &st)) {
		if (errno == ENOENT && o->sparse && device == o->device)
			return;
		die("cannot open %s: %s", device, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		die("%s is a directory, not a device or image file", device);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		die("%s is not a block device or regular file", device);
	/* Root may write anything; a file nobody may write is still meant to be kept. */
	if (S_ISREG(st.st_mode) && (!(st.st_mode & 0222) || access(device, W_OK)))
		die("%s is read-only: not formatting it", device);
	ret = f2fs_dev_is_busy(device, what, sizeof(what));
	if (ret > 0)
		die("%s is mounted or in use (%s): not formatting it", device, what);
	if (ret < 0)
		die("cannot tell whether %s is mounted: %s", device, strerror(-ret));
	if (o->force)
		return;
	ret = f2fs_dev_probe_existing(device, what, sizeof(what));
	if (ret > 0)
		die("%s contains an existing file system (%s): use -f to overwrite it", device,
		    what);
	if (ret < 0)
		die("cannot probe %s for an existing file system: %s", device, strerror(-ret));
}

/* The same device twice (a path and a link to it, or two names of one disk). */
static void check_distinct(const struct mkfs_opts *o)
{
	struct stat a, b;
	unsigned int i, j;

	for (i = 0; i < o->ndevs; i++)
		for (j = i + 1; j < o->ndevs; j++)
			if (!stat(o->devices[i], &a) && !stat(o->devices[j], &b) &&
			    (S_ISBLK(a.st_mode) ? S_ISBLK(b.st_mode) && a.st_rdev == b.st_rdev
						: a.st_dev == b.st_dev && a.st_ino == b.st_ino))
				die("%s and %s are the same device", o->devices[i], o->devices[j]);
}

/* One more device of a multi-device volume (not created, not sized). */
static unsigned int open_flags(const struct mkfs_opts *o)
{
	return F2FS_DEV_EXCL | (o->whint ? F2FS_DEV_WRITE_HINTS : 0);
}

static struct f2fs_device *open_member(const struct mkfs_opts *o, const char *path)
{
	struct f2fs_device *dev;
	int ret = f2fs_dev_open(path, open_flags(o), &dev);

	if (ret)
		die("cannot open %s%s: %s", path,
		    ret == -EACCES || ret == -EROFS || ret == -EPERM ? " for writing" : "",
		    strerror(-ret));
	return dev;
}

static struct f2fs_device *open_target(const struct mkfs_opts *o)
{
	struct f2fs_device *dev;
	int ret;

	/* the image is made in memory and written as a sparse file when closed */
	if (o->sparse) {
		ret = f2fs_dev_sparse_create(o->device, o->sparse_bytes, &dev);
		if (ret == -EBUSY)
			die("%s is being written by another program: not formatting it", o->device);
		if (ret)
			die("cannot create %s: %s", o->device, strerror(-ret));
		return dev;
	}
	ret = f2fs_dev_open(o->device, open_flags(o), &dev);
	if (ret == -EACCES || ret == -EROFS || ret == -EPERM)
		die("cannot open %s for writing: %s", o->device, strerror(-ret));
	if (ret)
		die("cannot open %s: %s", o->device, strerror(-ret));
	return dev;
}

/* Device size, or the [sectors] argument when it asks for less. */
static void size_volume(struct mkfs_opts *o, struct f2fs_device *dev)
{
	const struct f2fs_dev_info *di = f2fs_dev_get_info(dev);
	struct f2fs_layout_params *g = &o->cfg.geometry;
	uint64_t sectors = di->size_bytes / di->sector_size;

	g->sector_size = di->sector_size;
	g->start_sector = di->start_sector;
	if (o->wanted_sectors > 0) {
		uint64_t unit =
		    o->wanted_sector_size ? (uint64_t)o->wanted_sector_size : di->sector_size;
		uint64_t wanted = (uint64_t)o->wanted_sectors * unit / di->sector_size;

		info(o, "Info: total device sectors = %llu (in %u bytes)\n",
		     (unsigned long long)sectors, di->sector_size);
		if (wanted > sectors)
			die_closing(dev, "%s has %llu sectors, fewer than the %llu asked for",
				    o->device, (unsigned long long)sectors,
				    (unsigned long long)wanted);
		sectors = wanted;
	}
	g->total_sectors = sectors;
	if (g->nr_devices == 1) /* one zoned device (-m): the volume is its first part */
		g->devices[0].sectors = sectors;
}

static void compute_layout(const struct mkfs_opts *o, struct f2fs_device *dev,
			   struct f2fs_layout *l)
{
	const struct f2fs_layout_params *g = &o->cfg.geometry;
	uint64_t have = g->total_sectors * g->sector_size;
	char why[160];

	if (have > F2FS_MAX_VOLUME_BYTES)
		die_closing(dev, "%s is larger than 16 TiB, the most F2FS can address", o->device);
	int ret = f2fs_layout_compute(g, l, why, sizeof(why));

	if (ret == 0)
		return;
	if (ret == -ENOSPC) {
		uint64_t need = f2fs_layout_min_bytes(g);

		if (need)
			die_closing(
			    dev, "%s is too small: %llu KiB, these options need at least %llu MiB",
			    o->device, (unsigned long long)(have >> 10),
			    (unsigned long long)((need + (1 << 20) - 1) >> 20));
		die_closing(dev, "%s: no volume size fits these options (%s)", o->device, why);
	}
	die_closing(dev, "%s: %s", o->device, why);
}

/* log2 of the block size -b chose. */
static uint32_t block_bits(const struct f2fs_mkfs_config *cfg)
{
	return cfg->geometry.log_blksize ? cfg->geometry.log_blksize : F2FS_BLKSIZE_BITS;
}

/* The devices' sizes and zones for the layout; a zoned device's limits. */
static void describe_devices(struct mkfs_opts *o, struct f2fs_device *const *devs)
{
	char why[256];
	unsigned int i;

	if (f2fs_mkfs_describe_devices(&o->cfg, devs, o->ndevs, o->zoned_mode, why, sizeof(why)))
		die("%s", why);
	for (i = 0; i < o->ndevs; i++) {
		const struct f2fs_zone_info *zi = f2fs_dev_zone_info(devs[i]);
		const struct f2fs_layout_device *d = &o->cfg.geometry.devices[i];

		if (zi->model == F2FS_ZONED_NONE)
			continue;
		info(o, "Info: Host-%s zoned block device:\n",
		     zi->model == F2FS_ZONED_HA ? "aware" : "managed");
		info(o, "      %u zones, %llu zone size(bytes), %u randomly writeable zones\n",
		     zi->nr_zones, (unsigned long long)zi->zone_bytes, d->rnd_zones);
		info(o, "      %llu blocks per zone\n",
		     (unsigned long long)(zi->zone_bytes >> block_bits(&o->cfg)));
	}
}

/*
 * A volume on several devices: one device over them, each contributing
 * the blocks the layout puts on it; their paths go into the superblock.
 */
static struct f2fs_device *join_devices(struct mkfs_opts *o, struct f2fs_device **devs,
					const struct f2fs_layout *l)
{
	uint64_t lens[F2FS_LAYOUT_MAX_DEVICES];
	struct f2fs_device *vol;
	unsigned int i;
	int ret;

	if (o->ndevs == 1)
		return devs[0];
	for (i = 0; i < o->ndevs; i++) {
		lens[i] = (uint64_t)l->dev_segments[i] * F2FS_DEFAULT_BLKS_PER_SEG
			  << l->log_blksize;
		o->cfg.paths[i] = o->devices[i];
		info(o, "Info: Device[%u] : %s, %u segments\n", i, o->devices[i],
		     l->dev_segments[i]);
	}
	lens[0] += (uint64_t)l->segment0_blkaddr << l->log_blksize;
	ret = f2fs_dev_concat(devs, lens, o->ndevs, &vol);
	if (ret)
		die("cannot join the devices: %s", strerror(-ret));
	return vol;
}

static void show_start(const struct mkfs_opts *o)
{
	const struct f2fs_mkfs_config *cfg = &o->cfg;

	if (o->heap_given)
		info(o, "Info: heap allocation is deprecated\n");
	info(o, "\n    F2FS-tools: mkfs.f2fs Ver: %s (%s)\n\n", PACKAGE_VERSION, TOOLS_DATE);
	info(o, "Info: Debug level = %d\n", o->debug);
	if (cfg->cold_extensions)
		info(o, "Info: Add new cold file extension list\n");
	if (cfg->hot_extensions)
		info(o, "Info: Add new hot file extension list\n");
	if (cfg->label && *cfg->label)
		info(o, "Info: Label = %s\n", cfg->label);
	info(o, "Info: Trim is %s\n", cfg->discard ? "enabled" : "disabled");
	if (o->android)
		info(o, "Info: Set conf for android\n");
	if (cfg->features & F2FS_FEATURE_CASEFOLD)
		info(o, "Info: Enable utf8 with casefolding\n");
	if (cfg->features & F2FS_FEATURE_PRJQUOTA)
		info(o, "Info: Enable Project quota\n");
	if (cfg->features & F2FS_FEATURE_COMPRESSION)
		info(o, "Info: Enable Compression\n");
}

/* What -Z turned into: raised to the minimum, and -o's default with it. */
static void show_reserve(const struct mkfs_opts *o)
{
	const struct f2fs_layout_params *g = &o->cfg.geometry;
	uint32_t secs = f2fs_layout_reserved_sections(g);

	if (!g->reserved_sections)
		return;
	if (secs != g->reserved_sections) {
		info(o, "Info: Too small sections are reserved(%u secs)\n", g->reserved_sections);
		info(o, "Info: It is operated as a minimum reserved sections(%u secs)\n", secs);
	} else {
		info(o, "Info: %u sections are reserved\n", secs);
	}
	if (g->overprovision == 0)
		info(o, "Info: Overprovision ratio is set to default(%.1lf%%)\n",
		     f2fs_layout_overprovision_given(g));
}

static void show_layout(const struct mkfs_opts *o, const struct f2fs_layout *l)
{
	const struct f2fs_layout_params *g = &o->cfg.geometry;

	info(o, "Info: Segments per section = %u\n", l->segs_per_sec);
	info(o, "Info: Sections per zone = %u\n", l->secs_per_zone);
	info(o, "Info: sector size = %u\n", g->sector_size);
	info(o, "Info: total sectors = %llu (%llu MB)\n", (unsigned long long)g->total_sectors,
	     (unsigned long long)((g->total_sectors * (g->sector_size >> 9)) >> 11));
	show_reserve(o);
	info(o, "Info: zone aligned segment0 blkaddr: %u\n", l->segment0_blkaddr);
	info(o, "Info: format version with\n  \"%s\"\n", o->cfg.kernel_version);
}

int main(int argc, char **argv)
{
	struct mkfs_opts o;
	struct f2fs_layout l;
	struct f2fs_mkfs_result res;
	struct f2fs_device *dev, *devs[F2FS_LAYOUT_MAX_DEVICES] = {NULL};
	unsigned int i;
	int ret;

	memset(&o, 0, sizeof(o));
	parse_args(&o, argc, argv);
	tool_kernel_version(o.cfg.kernel_version, sizeof(o.cfg.kernel_version));
	show_start(&o);
	for (i = 0; i < o.ndevs; i++)
		check_target(&o, o.devices[i]);
	check_distinct(&o);
	devs[0] = open_target(&o);
	for (i = 1; i < o.ndevs; i++)
		devs[i] = open_member(&o, o.devices[i]);
	describe_devices(&o, devs);
	if (o.ndevs == 1)
		size_volume(&o, devs[0]);
	compute_layout(&o, devs[0], &l);
	dev = join_devices(&o, devs, &l);
	show_layout(&o, &l);
	if (o.android && (o.cfg.features & F2FS_FEATURE_CASEFOLD))
		info(&o, "Info: set default linear_lookup option: disable\n");
	/* --undo: journal what the format overwrites (parse_args turned the discard off) */
	dev = tool_undo_stack(&(struct tool){.prog = "mkfs.f2fs"}, dev, o.undo, 1);
	if (o.cfg.discard)
		info(&o, "Info: [%s] Discarding device\n", o.device);
	ret = f2fs_mkfs_format(dev, &o.cfg, &l, &res);
	if (ret)
		die_closing(dev, "writing %s failed: %s", o.device, strerror(-ret));
	info(&o, "Info: Overprovision ratio = %.3lf%%\n", l.overprovision);
	info(&o, "Info: Overprovision segments = %u (GC reserved = %u)\n", l.overprov_segments,
	     l.reserved_segments);
	ret = f2fs_dev_close(dev);
	if (ret)
		die("closing %s failed: %s", o.device, strerror(-ret));
	info(&o, "Info: format successful\n");
	return 0;
}
