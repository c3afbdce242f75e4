// SPDX-License-Identifier: GPL-2.0
/*
 * The device layer's front end (include/f2fs/device.h): a struct
 * f2fs_device is a path, a geometry and a const vtable (dev_internal.h).
 * The functions here check ranges and the read-only flag once, so the
 * backends only do the I/O; they also stack a layer on a device
 * (f2fs_dev_stack), which sees every request before the device below.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

int dev_neg_errno(void)
{
	return errno ? -errno : -EIO;
}

struct f2fs_device *dev_alloc(const char *path, const struct dev_ops *ops)
{
	struct f2fs_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->path = strdup(path);
	if (!dev->path) {
		free(dev);
		return NULL;
	}
	dev->ops = ops;
	return dev;
}

void dev_free(struct f2fs_device *dev)
{
	free(dev->path);
	free(dev);
}

int dev_write_zeros(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	size_t chunk = len < ZERO_CHUNK ? (size_t)len : ZERO_CHUNK;
	void *zeros = calloc(1, chunk);
	int ret = 0;

	if (!zeros)
		return -ENOMEM;
	while (len > 0 && ret == 0) {
		size_t n = len < chunk ? (size_t)len : chunk;

		ret = dev->ops->write(dev, zeros, off, n, F2FS_DEV_TAG_NONE);
		off += n;
		len -= n;
	}
	free(zeros);
	return ret;
}

int dev_read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return dev_neg_errno();
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

/* ---- stacked layers ---- */

static int stack_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	if (!dev->stack.ops->read)
		return f2fs_dev_read(dev->stack.lower, buf, off, len);
	return dev->stack.ops->read(dev->stack.priv, dev->stack.lower, buf, off, len);
}

static int stack_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
		       enum f2fs_dev_tag tag)
{
	const struct f2fs_dev_layer_ops *ops = dev->stack.ops;

	if (ops->write_tagged)
		return ops->write_tagged(dev->stack.priv, dev->stack.lower, buf, off, len, tag);
	if (!ops->write)
		return f2fs_dev_write_tagged(dev->stack.lower, buf, off, len, tag);
	return ops->write(dev->stack.priv, dev->stack.lower, buf, off, len);
}

static int stack_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	if (!dev->stack.ops->zero)
		return f2fs_dev_zero(dev->stack.lower, off, len);
	return dev->stack.ops->zero(dev->stack.priv, dev->stack.lower, off, len);
}

static int stack_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	if (!dev->stack.ops->discard)
		return f2fs_dev_discard(dev->stack.lower, off, len, reads_zero);
	return dev->stack.ops->discard(dev->stack.priv, dev->stack.lower, off, len, reads_zero);
}

static int stack_flush(struct f2fs_device *dev)
{
	if (!dev->stack.ops->flush)
		return f2fs_dev_flush(dev->stack.lower);
	return dev->stack.ops->flush(dev->stack.priv, dev->stack.lower);
}

static int stack_close(struct f2fs_device *dev)
{
	if (dev->stack.ops->release)
		dev->stack.ops->release(dev->stack.priv);
	return f2fs_dev_close(dev->stack.lower);
}

static void stack_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	f2fs_dev_prefetch(dev->stack.lower, off, len);
}

/* Zone requests pass below: no layer reorders or records them. */
static int stack_report_zones(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			      unsigned int max, unsigned int *nr)
{
	return f2fs_dev_report_zones(dev->stack.lower, off, zones, max, nr);
}

static int stack_zone_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off,
			   uint64_t len)
{
	if (dev->stack.ops->zone_mgmt)
		return dev->stack.ops->zone_mgmt(dev->stack.priv, dev->stack.lower, op, off, len);
	if (op == F2FS_ZONE_OP_RESET)
		return f2fs_dev_reset_zones(dev->stack.lower, off, len);
	return f2fs_dev_finish_zones(dev->stack.lower, off, len);
}

static const struct dev_ops stack_ops = {
    .report_zones = stack_report_zones,
    .zone_mgmt = stack_zone_mgmt,
    .read = stack_read,
    .write = stack_write,
    .zero = stack_zero,
    .discard = stack_discard,
    .flush = stack_flush,
    .close = stack_close,
    .prefetch = stack_prefetch,
};

int f2fs_dev_stack(struct f2fs_device *lower, const struct f2fs_dev_layer_ops *ops, void *priv,
		   struct f2fs_device **out)
{
	struct f2fs_device *dev;

	*out = NULL;
	if (!lower || !ops)
		return -EINVAL;
	dev = dev_alloc(lower->path, &stack_ops);
	if (!dev)
		return -ENOMEM;
	dev->info = lower->info;
	dev->zones = lower->zones;
	dev->readonly = lower->readonly;
	dev->stack.lower = lower;
	dev->stack.ops = ops;
	dev->stack.priv = priv;
	*out = dev;
	return 0;
}

/* ---- front end ---- */

int f2fs_dev_close(struct f2fs_device *dev)
{
	int ret;

	if (!dev)
		return 0;
	ret = dev->ops->close(dev);
	dev_free(dev);
	return ret;
}

const struct f2fs_dev_info *f2fs_dev_get_info(const struct f2fs_device *dev)
{
	return &dev->info;
}

const char *f2fs_dev_path(const struct f2fs_device *dev)
{
	return dev->path;
}

static bool range_fits(const struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	return off <= dev->info.size_bytes && len <= dev->info.size_bytes - off;
}

int f2fs_dev_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	if (!range_fits(dev, off, len))
		return -EIO;
	if (len == 0)
		return 0;
	return dev->ops->read(dev, buf, off, len);
}

int f2fs_dev_write_tagged(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
			  enum f2fs_dev_tag tag)
{
	if (dev->readonly)
		return -EBADF;
	if (!range_fits(dev, off, len))
		return -ENOSPC;
	if (len == 0)
		return 0;
	return dev->ops->write(dev, buf, off, len, tag);
}

void *f2fs_dev_memory(struct f2fs_device *dev, uint64_t off, size_t len)
{
	if (dev->readonly || !dev->ops->memory || !range_fits(dev, off, len) || !len)
		return NULL;
	return dev->ops->memory(dev, off, len);
}

int f2fs_dev_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len)
{
	return f2fs_dev_write_tagged(dev, buf, off, len, F2FS_DEV_TAG_NONE);
}

int f2fs_dev_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	if (dev->readonly)
		return -EBADF;
	if (!range_fits(dev, off, len))
		return -EINVAL;
	if (len == 0)
		return 0;
	return dev->ops->zero(dev, off, len);
}

int f2fs_dev_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	bool zeroed = false;
	int ret;

	if (dev->readonly)
		ret = -EBADF;
	else if (!range_fits(dev, off, len))
		ret = -EINVAL;
	else if (len == 0)
		ret = 0;
	else
		ret = dev->ops->discard(dev, off, len, &zeroed);
	if (reads_zero)
		*reads_zero = ret == 0 && zeroed;
	return ret;
}

void f2fs_dev_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	if (range_fits(dev, off, len) && len)
		dev->ops->prefetch(dev, off, len);
}

int f2fs_dev_flush(struct f2fs_device *dev)
{
	return dev->ops->flush(dev);
}
