// SPDX-License-Identifier: GPL-2.0
/*
 * The power-cut layer of cut_device.h, shared by tests/unit/resize and
 * tests/unit/resize/resizecut.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>

#include "cut_device.h"

static bool cut_now(struct cut_device *c)
{
	return c->seen++ >= c->limit;
}

static int cut_write(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		     size_t len)
{
	return cut_now(priv) ? -EIO : f2fs_dev_write(lower, buf, off, len);
}

static int cut_zero(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len)
{
	return cut_now(priv) ? -EIO : f2fs_dev_zero(lower, off, len);
}

static int cut_discard(void *priv, struct f2fs_device *lower, uint64_t off, uint64_t len,
		       bool *reads_zero)
{
	return cut_now(priv) ? -EIO : f2fs_dev_discard(lower, off, len, reads_zero);
}

static const struct f2fs_dev_layer_ops cut_ops = {
    .write = cut_write, .zero = cut_zero, .discard = cut_discard};

int cut_device_stack(struct f2fs_device *lower, struct cut_device *c, struct f2fs_device **out)
{
	return f2fs_dev_stack(lower, &cut_ops, c, out);
}
