/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the sched layer: the modelled disk head (head.c), used by the
 * dispatcher's device model in iosched.c.
 */
#ifndef F2FS_SCHED_HEAD_H
#define F2FS_SCHED_HEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/sched.h"

struct rp_head {
	uint64_t span;		/* the device's size: a full stroke */
	uint64_t pos;		/* the byte after the last request */
	bool placed;		/* a request has placed it */
	uint64_t last_start_ns; /* when the last request that was not merged went */
	uint64_t seeks, seek_ns, merged;
};

/* @m describes a head (seek_full_us set, and a device that is not a throttle). */
bool rp_head_modelled(const struct rp_sched_model *m);

/*
 * Move the head to a request of @len bytes at @off, queued at @queued_ns
 * and starting at @start_ns: the time the move takes (0 in place), and in
 * *@merged whether the block layer would have merged it into the previous.
 */
uint64_t rp_head_move(struct rp_head *h, const struct rp_sched_model *m, uint64_t off, uint64_t len,
		      uint64_t queued_ns, uint64_t start_ns, bool *merged);

#endif
