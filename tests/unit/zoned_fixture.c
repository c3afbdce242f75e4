// SPDX-License-Identifier: GPL-2.0
/* The zoned unit tests' shared volumes (zoned_fixture.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "f2fs/feature.h"
#include "f2fs/format.h"
#include "f2fs/zone.h"
#include "zoned_fixture.h"

void zoned_fixture_config(struct f2fs_mkfs_config *cfg, uint64_t zone_bytes)
{
	f2fs_mkfs_config_init(cfg);
	cfg->features |= F2FS_FEATURE_BLKZONED;
	cfg->fixed_time = 1700000000;
	cfg->fixed_cp_version = true;
	cfg->geometry.sector_size = 512;
	cfg->geometry.zoned = true;
	cfg->geometry.zone_blocks = (uint32_t)(zone_bytes / F2FS_BLKSIZE);
	cfg->geometry.segs_per_sec = (uint32_t)(zone_bytes / F2FS_SEGMENT_BYTES);
	cfg->geometry.secs_per_zone = 1;
}

int zoned_fixture_hm(uint32_t nr_conv, uint32_t max_active, struct f2fs_layout *l,
		     struct f2fs_device **dev)
{
	struct f2fs_memory_zones zp = {.size = 512 * ZF_MIB,
				       .zone_bytes = ZF_ZONE,
				       .nr_conv = nr_conv,
				       .max_active = max_active};
	struct f2fs_mkfs_config cfg;
	struct f2fs_mkfs_result res;
	char why[160] = "";
	int ret = f2fs_dev_open_memory_zoned(&zp, dev);

	zoned_fixture_config(&cfg, ZF_ZONE);
	cfg.geometry.total_sectors = zp.size / 512;
	cfg.geometry.nr_devices = 1;
	cfg.geometry.devices[0] = (struct f2fs_layout_device){
	    .sectors = zp.size / 512, .zoned = true, .host_managed = true, .rnd_zones = nr_conv};
	if (!ret)
		ret = f2fs_layout_compute(&cfg.geometry, l, why, sizeof(why));
	if (!ret)
		ret = f2fs_mkfs_format(*dev, &cfg, l, &res);
	if (ret) {
		fprintf(stderr, "zoned fixture: %s%s%s\n", strerror(-ret), why[0] ? ": " : "", why);
		f2fs_dev_close(*dev);
		*dev = NULL;
	}
	return ret;
}

/* The two devices' layout: the regular one's segments, then three usable of each zone's four. */
static void zns_geometry(struct f2fs_mkfs_config *cfg, uint64_t zoned_bytes)
{
	cfg->geometry.total_sectors = (64 * ZF_MIB + zoned_bytes) / 512;
	cfg->geometry.nr_devices = 2;
	cfg->geometry.devices[0] = (struct f2fs_layout_device){.sectors = 64 * ZF_MIB / 512};
	cfg->geometry.devices[1] =
	    (struct f2fs_layout_device){.sectors = zoned_bytes / 512,
					.zoned = true,
					.host_managed = true,
					.usable_segments = (uint32_t)(zoned_bytes / ZF_ZONE * 3)};
	cfg->paths[0] = "/dev/vda";
	cfg->paths[1] = "/dev/nvme0n1";
}

int zoned_fixture_zns(uint32_t max_active, struct f2fs_layout *l, struct f2fs_device **vol)
{
	struct f2fs_memory_zones zp = {.size = 512 * ZF_MIB,
				       .zone_bytes = ZF_ZONE,
				       .capacity = 6 * ZF_MIB,
				       .max_active = max_active};
	struct f2fs_device *devs[2] = {NULL, NULL};
	struct f2fs_mkfs_config cfg;
	struct f2fs_mkfs_result res;
	uint64_t lens[2];
	char why[160] = "";
	int ret;

	*vol = NULL;
	ret = f2fs_dev_open_memory(64 * ZF_MIB, &devs[0]);
	if (!ret)
		ret = f2fs_dev_open_memory_zoned(&zp, &devs[1]);
	zoned_fixture_config(&cfg, ZF_ZONE);
	zns_geometry(&cfg, zp.size);
	if (!ret)
		ret = f2fs_layout_compute(&cfg.geometry, l, why, sizeof(why));
	if (!ret) {
		lens[0] = ((uint64_t)l->segment0_blkaddr + (uint64_t)l->dev_segments[0] * 512) *
			  F2FS_BLKSIZE;
		lens[1] = (uint64_t)l->dev_segments[1] * F2FS_SEGMENT_BYTES;
		ret = f2fs_dev_concat(devs, lens, 2, vol);
	}
	if (ret) {
		fprintf(stderr, "zoned fixture: %s%s%s\n", strerror(-ret), why[0] ? ": " : "", why);
		f2fs_dev_close(devs[0]);
		f2fs_dev_close(devs[1]);
		return ret;
	}
	ret = f2fs_mkfs_format(*vol, &cfg, l, &res);
	if (ret) {
		fprintf(stderr, "zoned fixture: format: %s\n", strerror(-ret));
		f2fs_dev_close(*vol);
		*vol = NULL;
	}
	return ret;
}
