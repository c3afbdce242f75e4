/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order a zoned device needs from the I/O scheduler: a write into a
 * sequential-write-required zone must start at the zone's write pointer.
 * The scheduler serves contexts in weighted-fair order, so two writes into
 * one zone from different contexts (a thread's fsync and the flusher both
 * write the warm data log) may reach the device in the other order than
 * the write path allocated them; the kernel keeps them in order with zone
 * write locking in mq-deadline.  This table holds each sequential zone's
 * pointer as the scheduler has served it, so the dispatcher can tell a
 * write the device takes now from one that must wait for its predecessor.
 * Not thread-safe: the scheduler calls it under its lock.
 */
#ifndef F2FS_REPLAY_ZONE_ORDER_H
#define F2FS_REPLAY_ZONE_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs/device.h"

struct rp_zone_order;

/*
 * The table of @dev's sequential-write-required zones in *@out, or NULL
 * there when it has none (a regular device, a host-aware one): then
 * every write is ready.  0 or a negative errno.
 */
int rp_zone_order_open(struct f2fs_device *dev, struct rp_zone_order **out);
void rp_zone_order_free(struct rp_zone_order *zo);

/* Re-read every pointer from @dev: after a reset, a finish, or a request that went around. */
int rp_zone_order_reload(struct rp_zone_order *zo, struct f2fs_device *dev);

/* Whether a write of [@off, @off + @len) may go to the device now. */
bool rp_zone_order_ready(const struct rp_zone_order *zo, uint64_t off, size_t len);

/* A write of [@off, @off + @len) completed without error: its zone's pointer moves past it. */
void rp_zone_order_wrote(struct rp_zone_order *zo, uint64_t off, size_t len);

/* How many sequential zones [@off, @off + @len) holds, and their bytes. */
uint64_t rp_zone_order_count(const struct rp_zone_order *zo, uint64_t off, uint64_t len,
			     uint64_t *bytes);

#endif
