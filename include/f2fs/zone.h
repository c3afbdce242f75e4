/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zoned devices: a device split into zones, each conventional (written
 * anywhere) or sequential (written only at its write pointer, from its start
 * up to its capacity, which may be below its size; reset to empty as a
 * whole).  A host-managed device (SMR drives, NVMe ZNS) enforces the
 * sequential rule, a host-aware one only prefers it.  The numbers below are
 * the kernel's (include/uapi/linux/blkzoned.h), so a zone reported by
 * BLKREPORTZONE needs no translation; positions are in bytes.
 *
 * Every function returns 0 or a negative errno and never prints.  A device
 * that is not zoned reports model F2FS_ZONED_NONE and refuses the zone
 * operations with -EOPNOTSUPP.
 */
#ifndef F2FS_ZONE_H
#define F2FS_ZONE_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/device.h"

enum f2fs_zoned_model {
	F2FS_ZONED_NONE = 0,
	F2FS_ZONED_HA, /* host-aware: sequential writes preferred */
	F2FS_ZONED_HM, /* host-managed: sequential writes required */
};

enum f2fs_zone_type {
	F2FS_ZONE_CONV = 1,	/* conventional: random writes */
	F2FS_ZONE_SEQ_REQ = 2,	/* sequential write required */
	F2FS_ZONE_SEQ_PREF = 3, /* sequential write preferred */
};

enum f2fs_zone_cond {
	F2FS_ZONE_NOT_WP = 0x0, /* conventional: no write pointer */
	F2FS_ZONE_EMPTY = 0x1,
	F2FS_ZONE_IMP_OPEN = 0x2, /* opened by a write */
	F2FS_ZONE_EXP_OPEN = 0x3, /* opened on request */
	F2FS_ZONE_CLOSED = 0x4,	  /* written to, then closed: still active */
	F2FS_ZONE_READONLY = 0xd,
	F2FS_ZONE_FULL = 0xe,
	F2FS_ZONE_OFFLINE = 0xf,
};

struct f2fs_zone {
	uint64_t start;	   /* byte offset on the device */
	uint64_t len;	   /* bytes */
	uint64_t capacity; /* writable bytes from start (<= len) */
	uint64_t wp;	   /* write pointer, a byte offset (start + len for conventional) */
	uint8_t type;	   /* enum f2fs_zone_type */
	uint8_t cond;	   /* enum f2fs_zone_cond */
};

struct f2fs_zone_info {
	enum f2fs_zoned_model model;
	uint64_t zone_bytes; /* size of every zone but maybe a smaller last one */
	uint32_t nr_zones;
	uint32_t max_open;   /* zones open at once, 0: no limit */
	uint32_t max_active; /* zones open or closed at once, 0: no limit */
};

static inline bool f2fs_zone_is_seq(const struct f2fs_zone *z)
{
	return z->type == F2FS_ZONE_SEQ_REQ || z->type == F2FS_ZONE_SEQ_PREF;
}

/* Open or closed: a zone that counts against max_active. */
static inline bool f2fs_zone_is_active(const struct f2fs_zone *z)
{
	return z->cond == F2FS_ZONE_IMP_OPEN || z->cond == F2FS_ZONE_EXP_OPEN ||
	       z->cond == F2FS_ZONE_CLOSED;
}

/* The zone model and geometry of @dev (model NONE for a regular device). */
const struct f2fs_zone_info *f2fs_dev_zone_info(const struct f2fs_device *dev);

/*
 * Report up to @max zones, from the one holding byte @off on, into @zones;
 * *nr gets how many were filled (fewer at the device's end).
 */
int f2fs_dev_report_zones(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			  unsigned int max, unsigned int *nr);

/*
 * Call @fn for every zone of @dev in order (reported in batches); a
 * non-zero return from @fn stops the walk and is returned, as is a failed
 * report.
 */
int f2fs_dev_for_each_zone(struct f2fs_device *dev, int (*fn)(const struct f2fs_zone *z, void *arg),
			   void *arg);

/*
 * Reset the sequential zones of [off, off+len) to empty (their data reads
 * as zeros after it), or finish them (write pointer to the end, full).  The
 * range must start and end on zone boundaries (-EINVAL); a conventional zone
 * in it fails with -EIO, as the kernel's ioctls do.
 */
int f2fs_dev_reset_zones(struct f2fs_device *dev, uint64_t off, uint64_t len);
int f2fs_dev_finish_zones(struct f2fs_device *dev, uint64_t off, uint64_t len);

/*
 * An in-memory host-managed device for tests: @size bytes in zones of
 * @zone_bytes (a smaller last zone when it does not divide), the first
 * @nr_conv conventional, the others sequential with @capacity writable
 * bytes each (0: the whole zone), at most @max_open open and @max_active
 * active zones (0: no limit).  A write into a sequential zone that does not
 * start at its write pointer, or runs past its capacity, fails with -EIO and
 * changes nothing; opening a zone past max_open closes an implicitly open
 * one, past max_active fails with -EOVERFLOW.  Reads past a write pointer
 * return zeros.  Discarding whole sequential zones resets them; a partial
 * discard of one fails with -EOPNOTSUPP.
 */
struct f2fs_memory_zones {
	uint64_t size;
	uint64_t zone_bytes;
	uint64_t capacity;
	uint32_t nr_conv;
	uint32_t max_open;
	uint32_t max_active;
};

int f2fs_dev_open_memory_zoned(const struct f2fs_memory_zones *p, struct f2fs_device **out);

/*
 * For tests: put the emulated sequential zone holding byte @off of @dev in
 * condition @cond with its pointer at @wp, as a crash, another host or the
 * firmware may leave a zone (data past @wp reads as zeros from then on).
 * -EINVAL for a conventional zone, a pointer outside the zone or a device
 * that is not the emulation.
 */
int f2fs_dev_memory_zone_set(struct f2fs_device *dev, uint64_t off, enum f2fs_zone_cond cond,
			     uint64_t wp);

#endif
