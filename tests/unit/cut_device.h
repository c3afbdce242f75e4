/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A power cut under a device, for tests: a layer whose writes (and
 * zeroings, discards) from the @limit-th on (counting from 0) fail with
 * -EIO and change nothing, as nothing reaches a disk after its power is
 * cut.  @seen counts every one tried; set @limit to UINT64_MAX for none.
 */
#ifndef F2FS_TESTS_CUT_DEVICE_H
#define F2FS_TESTS_CUT_DEVICE_H

#include <stdint.h>

#include "f2fs/device.h"

struct cut_device {
	uint64_t seen, limit;
};

/* Stack the cut layer over @lower; @c is its counter, the caller's to keep. */
int cut_device_stack(struct f2fs_device *lower, struct cut_device *c, struct f2fs_device **out);

#endif
