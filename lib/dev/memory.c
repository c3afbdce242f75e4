// SPDX-License-Identifier: GPL-2.0
/* The memory backend: a zero-filled buffer standing in for a device, for unit tests. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

/* ---- memory backend ---- */

static int mem_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	memcpy(buf, dev->mem.buf + off, len);
	return 0;
}

static int mem_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
		     enum f2fs_dev_tag tag)
{
	(void)tag; /* a backend writes every kind alike */
	memcpy(dev->mem.buf + off, buf, len);
	return 0;
}

static int mem_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	memset(dev->mem.buf + off, 0, len);
	return 0;
}

static int mem_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	memset(dev->mem.buf + off, 0, len);
	*reads_zero = true;
	return 0;
}

static int mem_flush(struct f2fs_device *dev)
{
	(void)dev;
	return 0;
}

static int mem_close(struct f2fs_device *dev)
{
	free(dev->mem.buf);
	return 0;
}

static void mem_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	(void)dev, (void)off, (void)len; /* already in memory */
}

static const struct dev_ops mem_ops = {
    .prefetch = mem_prefetch,
    .read = mem_read,
    .write = mem_write,
    .zero = mem_zero,
    .discard = mem_discard,
    .flush = mem_flush,
    .close = mem_close,
};

int f2fs_dev_open_memory(uint64_t size, struct f2fs_device **out)
{
	struct f2fs_device *dev;

	*out = NULL;
	if (size > SIZE_MAX)
		return -ENOMEM;
	dev = dev_alloc("<memory>", &mem_ops);
	if (!dev)
		return -ENOMEM;
	/* calloc(0) may return NULL; keep one byte so a 0-byte device works. */
	dev->mem.buf = calloc(1, size ? (size_t)size : 1);
	if (!dev->mem.buf) {
		dev_free(dev);
		return -ENOMEM;
	}
	dev->info.size_bytes = size;
	dev->info.sector_size = 512;
	*out = dev;
	return 0;
}
