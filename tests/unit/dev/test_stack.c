// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for stacked device layers (f2fs_dev_stack): requests pass
 * through a layer to the device below, a layer can change what happens
 * (here: fail reads of one range, count writes), two layers stack, and
 * closing the top closes everything below after each layer's release.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "f2fs/device.h"
#include "test.h"

struct probe {
	uint64_t bad_off, bad_len; /* reads touching this range fail with -EIO */
	unsigned int reads, writes, flushes, released;
	unsigned int *release_order, *next_order;
};

static int probe_read(void *priv, struct f2fs_device *lower, void *buf, uint64_t off, size_t len)
{
	struct probe *p = priv;

	p->reads++;
	if (p->bad_len && off < p->bad_off + p->bad_len && off + len > p->bad_off)
		return -EIO;
	return f2fs_dev_read(lower, buf, off, len);
}

static int probe_write(void *priv, struct f2fs_device *lower, const void *buf, uint64_t off,
		       size_t len)
{
	struct probe *p = priv;

	p->writes++;
	return f2fs_dev_write(lower, buf, off, len);
}

static int probe_flush(void *priv, struct f2fs_device *lower)
{
	struct probe *p = priv;

	p->flushes++;
	return f2fs_dev_flush(lower);
}

static void probe_release(void *priv)
{
	struct probe *p = priv;

	p->released++;
	if (p->next_order)
		*p->release_order = (*p->next_order)++;
}

static const struct f2fs_dev_layer_ops probe_ops = {
    .read = probe_read,
    .write = probe_write,
    .flush = probe_flush,
    .release = probe_release,
};

/* Only release: every request goes straight down. */
static const struct f2fs_dev_layer_ops passthrough_ops = {.release = probe_release};

static void test_passthrough(void)
{
	struct f2fs_device *mem, *dev;
	struct probe p = {0};
	uint8_t in[4096], out[4096];

	CHECK_EQ_U64(f2fs_dev_open_memory(1 << 20, &mem), 0);
	CHECK_EQ_U64(f2fs_dev_stack(mem, &passthrough_ops, &p, &dev), 0);
	CHECK_EQ_U64(f2fs_dev_get_info(dev)->size_bytes, 1 << 20);
	CHECK(strcmp(f2fs_dev_path(dev), "<memory>") == 0);
	memset(in, 0xa5, sizeof(in));
	CHECK_EQ_U64(f2fs_dev_write(dev, in, 8192, sizeof(in)), 0);
	CHECK_EQ_U64(f2fs_dev_read(mem, out, 8192, sizeof(out)), 0);
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	CHECK_EQ_U64(f2fs_dev_zero(dev, 8192, 4096), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, out, 8192, sizeof(out)), 0);
	CHECK(out[0] == 0 && out[4095] == 0);
	/* the front end still checks ranges above the layer */
	CHECK_EQ_U64(f2fs_dev_read(dev, out, (1 << 20) - 100, sizeof(out)), -EIO);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	CHECK_EQ_U64(p.released, 1);
}

static void test_fault_and_count(void)
{
	struct f2fs_device *mem, *dev;
	struct probe p = {.bad_off = 4096 * 3, .bad_len = 4096};
	uint8_t buf[4096] = {1};

	CHECK_EQ_U64(f2fs_dev_open_memory(1 << 20, &mem), 0);
	CHECK_EQ_U64(f2fs_dev_stack(mem, &probe_ops, &p, &dev), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096 * 2, sizeof(buf)), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096 * 3, sizeof(buf)), -EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, buf, 4096 * 2, 2 * sizeof(buf)), -EIO);
	CHECK_EQ_U64(f2fs_dev_write(dev, buf, 0, sizeof(buf)), 0);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	CHECK_EQ_U64(p.reads, 3);
	CHECK_EQ_U64(p.writes, 1);
	CHECK_EQ_U64(p.flushes, 1);
	CHECK_EQ_U64(f2fs_dev_close(dev), 0);
	CHECK_EQ_U64(p.released, 1);
}

static void test_two_layers(void)
{
	struct f2fs_device *mem, *mid, *top;
	unsigned int order = 1, top_order = 0, mid_order = 0;
	struct probe pm = {.release_order = &mid_order, .next_order = &order};
	struct probe pt = {.release_order = &top_order, .next_order = &order};
	uint8_t buf[512] = {7};

	CHECK_EQ_U64(f2fs_dev_open_memory(1 << 16, &mem), 0);
	CHECK_EQ_U64(f2fs_dev_stack(mem, &probe_ops, &pm, &mid), 0);
	CHECK_EQ_U64(f2fs_dev_stack(mid, &probe_ops, &pt, &top), 0);
	CHECK_EQ_U64(f2fs_dev_write(top, buf, 512, sizeof(buf)), 0);
	CHECK_EQ_U64(f2fs_dev_read(top, buf, 512, sizeof(buf)), 0);
	CHECK_EQ_U64(pt.writes, 1);
	CHECK_EQ_U64(pm.writes, 1);
	CHECK_EQ_U64(pt.reads, 1);
	CHECK_EQ_U64(pm.reads, 1);
	CHECK_EQ_U64(f2fs_dev_close(top), 0);
	/* the top layer is released first, then the one below it */
	CHECK_EQ_U64(top_order, 1);
	CHECK_EQ_U64(mid_order, 2);
}

static void test_bad_arguments(void)
{
	struct f2fs_device *mem, *dev = (struct f2fs_device *)&dev;

	CHECK_EQ_U64(f2fs_dev_stack(NULL, &probe_ops, NULL, &dev), -EINVAL);
	CHECK(dev == NULL);
	CHECK_EQ_U64(f2fs_dev_open_memory(4096, &mem), 0);
	CHECK_EQ_U64(f2fs_dev_stack(mem, NULL, NULL, &dev), -EINVAL);
	CHECK_EQ_U64(f2fs_dev_close(mem), 0);
}

int main(void)
{
	RUN(test_passthrough);
	RUN(test_fault_and_count);
	RUN(test_two_layers);
	RUN(test_bad_arguments);
	TEST_EXIT();
}
