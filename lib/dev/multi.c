// SPDX-License-Identifier: GPL-2.0
/*
 * A volume over several devices, back to back: byte offsets of the volume
 * map onto the devices in order, each contributing the bytes the volume
 * uses of it (a multi-device F2FS volume ends each device on a segment
 * boundary and leaves the rest unused).  Reads, writes, zeroing and
 * discards are split where a request crosses a device; zone reports list
 * the zones of the zoned members at their volume offsets, and zone resets
 * and finishes go to the member that holds them.  The volume owns its
 * members.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

struct multi {
	unsigned int n;
	struct f2fs_device *dev[F2FS_DEV_MAX_MEMBERS];
	uint64_t start[F2FS_DEV_MAX_MEMBERS]; /* volume offset of each member */
	uint64_t len[F2FS_DEV_MAX_MEMBERS];   /* bytes of it the volume uses */
};

static struct multi *multi_of(const struct f2fs_device *dev)
{
	return dev->multi;
}

/* The member holding volume byte @off. */
static unsigned int member_at(const struct multi *m, uint64_t off)
{
	unsigned int i = m->n - 1;

	while (i > 0 && off < m->start[i])
		i--;
	return i;
}

/*
 * Run @fn on every piece of [off, off+len) that lies on one member, with
 * the member's offset and the piece's offset into the request.
 */
static int for_each_piece(struct f2fs_device *dev, uint64_t off, uint64_t len,
			  int (*fn)(struct f2fs_device *member, uint64_t moff, uint64_t n,
				    uint64_t done, void *arg),
			  void *arg)
{
	struct multi *m = multi_of(dev);
	uint64_t done = 0;
	int ret;

	while (done < len) {
		unsigned int i = member_at(m, off + done);
		uint64_t moff = off + done - m->start[i];
		uint64_t n = m->len[i] - moff < len - done ? m->len[i] - moff : len - done;

		ret = fn(m->dev[i], moff, n, done, arg);
		if (ret < 0)
			return ret;
		done += n;
	}
	return 0;
}

static int piece_read(struct f2fs_device *member, uint64_t moff, uint64_t n, uint64_t done,
		      void *buf)
{
	return f2fs_dev_read(member, (unsigned char *)buf + done, moff, (size_t)n);
}

static int multi_read(struct f2fs_device *dev, void *buf, uint64_t off, size_t len)
{
	return for_each_piece(dev, off, len, piece_read, buf);
}

struct write_arg {
	const unsigned char *buf;
	enum f2fs_dev_tag tag;
};

static int piece_write(struct f2fs_device *member, uint64_t moff, uint64_t n, uint64_t done,
		       void *arg)
{
	struct write_arg *w = arg;

	return f2fs_dev_write_tagged(member, w->buf + done, moff, (size_t)n, w->tag);
}

static int multi_write(struct f2fs_device *dev, const void *buf, uint64_t off, size_t len,
		       enum f2fs_dev_tag tag)
{
	struct write_arg w = {buf, tag};

	return for_each_piece(dev, off, len, piece_write, &w);
}

static int piece_zero(struct f2fs_device *member, uint64_t moff, uint64_t n, uint64_t done,
		      void *arg)
{
	(void)done, (void)arg;
	return f2fs_dev_zero(member, moff, n);
}

static int multi_zero(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	return for_each_piece(dev, off, len, piece_zero, NULL);
}

static int piece_discard(struct f2fs_device *member, uint64_t moff, uint64_t n, uint64_t done,
			 void *arg)
{
	bool *all_zero = arg, zeroed = false;
	int ret = f2fs_dev_discard(member, moff, n, &zeroed);

	(void)done;
	*all_zero = *all_zero && zeroed;
	return ret;
}

static int multi_discard(struct f2fs_device *dev, uint64_t off, uint64_t len, bool *reads_zero)
{
	*reads_zero = true;
	return for_each_piece(dev, off, len, piece_discard, reads_zero);
}

static int multi_flush(struct f2fs_device *dev)
{
	struct multi *m = multi_of(dev);
	unsigned int i;
	int ret = 0, r;

	for (i = 0; i < m->n; i++) {
		r = f2fs_dev_flush(m->dev[i]);
		if (ret == 0)
			ret = r;
	}
	return ret;
}

static int multi_close(struct f2fs_device *dev)
{
	struct multi *m = multi_of(dev);
	unsigned int i;
	int ret = 0, r;

	for (i = 0; i < m->n; i++) {
		r = f2fs_dev_close(m->dev[i]);
		if (ret == 0)
			ret = r;
	}
	free(m);
	return ret;
}

static int piece_prefetch(struct f2fs_device *member, uint64_t moff, uint64_t n, uint64_t done,
			  void *arg)
{
	(void)done, (void)arg;
	f2fs_dev_prefetch(member, moff, n);
	return 0;
}

static void multi_prefetch(struct f2fs_device *dev, uint64_t off, uint64_t len)
{
	for_each_piece(dev, off, len, piece_prefetch, NULL);
}

/* The zones of the zoned members from volume byte @off on, at volume offsets. */
static int multi_report(struct f2fs_device *dev, uint64_t off, struct f2fs_zone *zones,
			unsigned int max, unsigned int *nr)
{
	struct multi *m = multi_of(dev);
	unsigned int i, got, k;
	int ret;

	*nr = 0;
	for (i = member_at(m, off); i < m->n && *nr < max; i++) {
		uint64_t moff = off > m->start[i] ? off - m->start[i] : 0;

		if (f2fs_dev_zone_info(m->dev[i])->model == F2FS_ZONED_NONE)
			continue;
		ret = f2fs_dev_report_zones(m->dev[i], moff, zones + *nr, max - *nr, &got);
		if (ret < 0)
			return ret;
		for (k = 0; k < got; k++) {
			struct f2fs_zone *z = &zones[*nr];

			if (z->start >= m->len[i])
				break; /* past what the volume uses of the member */
			z->start += m->start[i];
			z->wp += m->start[i];
			(*nr)++;
		}
	}
	return 0;
}

static int multi_zone_mgmt(struct f2fs_device *dev, enum f2fs_zone_op op, uint64_t off,
			   uint64_t len)
{
	struct multi *m = multi_of(dev);
	unsigned int i = member_at(m, off);
	uint64_t moff = off - m->start[i];

	if (len > m->len[i] - moff)
		return -EINVAL; /* one member at a time */
	if (op == F2FS_ZONE_OP_RESET)
		return f2fs_dev_reset_zones(m->dev[i], moff, len);
	return f2fs_dev_finish_zones(m->dev[i], moff, len);
}

static const struct dev_ops multi_ops = {
    .read = multi_read,
    .write = multi_write,
    .zero = multi_zero,
    .discard = multi_discard,
    .flush = multi_flush,
    .close = multi_close,
    .prefetch = multi_prefetch,
    .report_zones = multi_report,
    .zone_mgmt = multi_zone_mgmt,
};

/* The volume's zone model: the strictest member's; its zone size: theirs. */
static int merge_zone_info(struct f2fs_device *dev, const struct multi *m)
{
	struct f2fs_zone_info *zi = &dev->zones;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		const struct f2fs_zone_info *mz = f2fs_dev_zone_info(m->dev[i]);

		if (mz->model == F2FS_ZONED_NONE)
			continue;
		if (zi->zone_bytes && zi->zone_bytes != mz->zone_bytes)
			return -EINVAL; /* zones of different sizes */
		if (mz->model > zi->model)
			zi->model = mz->model;
		zi->zone_bytes = mz->zone_bytes;
		zi->nr_zones += (uint32_t)((m->len[i] + mz->zone_bytes - 1) / mz->zone_bytes);
		if (mz->max_open && (!zi->max_open || mz->max_open < zi->max_open))
			zi->max_open = mz->max_open;
		if (mz->max_active && (!zi->max_active || mz->max_active < zi->max_active))
			zi->max_active = mz->max_active;
	}
	return 0;
}

static int check_members(struct f2fs_device *const *devs, const uint64_t *lens, unsigned int n)
{
	unsigned int i;

	if (n == 0 || n > F2FS_DEV_MAX_MEMBERS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!devs[i] || lens[i] == 0 || lens[i] > f2fs_dev_get_info(devs[i])->size_bytes)
			return -EINVAL;
	return 0;
}

int f2fs_dev_concat(struct f2fs_device *const *devs, const uint64_t *lens, unsigned int n,
		    struct f2fs_device **out)
{
	struct f2fs_device *dev;
	struct multi *m;
	unsigned int i;
	int ret;

	*out = NULL;
	ret = check_members(devs, lens, n);
	if (ret < 0)
		return ret;
	m = calloc(1, sizeof(*m));
	dev = m ? dev_alloc(f2fs_dev_path(devs[0]), &multi_ops) : NULL;
	if (!dev) {
		free(m);
		return -ENOMEM;
	}
	dev->multi = m;
	m->n = n;
	for (i = 0; i < n; i++) {
		m->dev[i] = devs[i];
		m->len[i] = lens[i];
		m->start[i] = i ? m->start[i - 1] + m->len[i - 1] : 0;
		dev->readonly = dev->readonly || devs[i]->readonly;
	}
	ret = merge_zone_info(dev, m);
	if (ret < 0) {
		free(m);
		dev_free(dev);
		return ret;
	}
	dev->info = devs[0]->info;
	dev->info.size_bytes = m->start[n - 1] + m->len[n - 1];
	dev->info.nr_members = n;
	*out = dev;
	return 0;
}

unsigned int f2fs_dev_members(const struct f2fs_device *dev)
{
	return dev->info.nr_members ? dev->info.nr_members : 1;
}
