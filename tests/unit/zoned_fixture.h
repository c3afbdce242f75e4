/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The zoned unit tests' shared volumes, on the emulated host-managed device
 * (f2fs/zone.h): mkfs -m's settings for zones of a given size, and the
 * ZNS-shaped pair -- a 64 MiB regular device for the metadata joined with
 * 512 MiB of 8 MiB zones of which 6 MiB are writable -- formatted.  As
 * fixture.h, the functions print what failed and return an error; the
 * caller CHECKs.
 */
#ifndef NG_ZONED_FIXTURE_H
#define NG_ZONED_FIXTURE_H

#include <stdint.h>

#include "f2fs/device.h"
#include "f2fs/layout.h"
#include "f2fs/mkfs.h"

#define ZF_MIB	(1024ull * 1024)
#define ZF_ZONE (8 * ZF_MIB) /* four segments: a section each */

/* f2fs_mkfs_config_init() with mkfs -m's settings for zones of @zone_bytes. */
void zoned_fixture_config(struct f2fs_mkfs_config *cfg, uint64_t zone_bytes);

/*
 * One host-managed device of 512 MiB in zones of ZF_ZONE, the first
 * @nr_conv conventional (they hold the metadata), at most @max_active
 * active (0: no limit), formatted, in *@dev (its layout in @l).  0 or a
 * negative errno.
 */
int zoned_fixture_hm(uint32_t nr_conv, uint32_t max_active, struct f2fs_layout *l,
		     struct f2fs_device **dev);

/*
 * The ZNS-shaped pair, formatted, in *@vol (its layout in @l); zones of
 * ZF_ZONE, at most @max_active active (0: no limit).  0 or a negative errno.
 */
int zoned_fixture_zns(uint32_t max_active, struct f2fs_layout *l, struct f2fs_device **vol);

#endif
