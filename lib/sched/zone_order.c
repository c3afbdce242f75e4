// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's view of a zoned device's write pointers (zone_order.h):
 * the sequential-write-required zones sorted by start, each with the
 * pointer the served writes left, found by binary search.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "f2fs/zone.h"
#include "zone_order.h"

struct seq_zone {
	uint64_t start, len, wp;
};

struct rp_zone_order {
	struct seq_zone *z;
	size_t n, room;
};

static int note_zone(const struct f2fs_zone *z, void *arg)
{
	struct rp_zone_order *zo = arg;
	struct seq_zone *grown;

	if (z->type != F2FS_ZONE_SEQ_REQ)
		return 0;
	if (zo->n == zo->room) {
		size_t room = zo->room ? 2 * zo->room : 64;

		grown = realloc(zo->z, room * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		zo->z = grown;
		zo->room = room;
	}
	zo->z[zo->n++] = (struct seq_zone){.start = z->start, .len = z->len, .wp = z->wp};
	return 0;
}

int rp_zone_order_reload(struct rp_zone_order *zo, struct f2fs_device *dev)
{
	zo->n = 0;
	return f2fs_dev_for_each_zone(dev, note_zone, zo);
}

int rp_zone_order_open(struct f2fs_device *dev, struct rp_zone_order **out)
{
	struct rp_zone_order *zo;
	int ret;

	*out = NULL;
	if (f2fs_dev_zone_info(dev)->model != F2FS_ZONED_HM)
		return 0;
	zo = calloc(1, sizeof(*zo));
	if (!zo)
		return -ENOMEM;
	ret = rp_zone_order_reload(zo, dev);
	if (ret || !zo->n) {
		rp_zone_order_free(zo);
		return ret;
	}
	*out = zo;
	return 0;
}

void rp_zone_order_free(struct rp_zone_order *zo)
{
	if (!zo)
		return;
	free(zo->z);
	free(zo);
}

/* The sequential zone holding byte @off, or NULL (zones are reported in order). */
static struct seq_zone *find(const struct rp_zone_order *zo, uint64_t off)
{
	size_t lo = 0, hi = zo ? zo->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct seq_zone *z = &zo->z[mid];

		if (off < z->start)
			hi = mid;
		else if (off - z->start >= z->len)
			lo = mid + 1;
		else
			return z;
	}
	return NULL;
}

/*
 * A write may run from one zone into the next (a log whose next section
 * follows its last): each sequential zone it covers must have its pointer
 * where the write's piece in it starts.
 */
bool rp_zone_order_ready(const struct rp_zone_order *zo, uint64_t off, size_t len)
{
	uint64_t at = off, end = off + len;

	while (at < end) {
		const struct seq_zone *z = find(zo, at);

		if (!z)
			return true; /* the rest lies in conventional zones or past the zoned part
				      */
		if (z->wp != at)
			return false;
		at = z->start + z->len;
	}
	return true;
}

void rp_zone_order_wrote(struct rp_zone_order *zo, uint64_t off, size_t len)
{
	uint64_t at = off, end = off + len;

	while (at < end) {
		struct seq_zone *z = find(zo, at);
		uint64_t zend;

		if (!z)
			return;
		zend = z->start + z->len;
		z->wp = end < zend ? end : zend;
		at = zend;
	}
}

uint64_t rp_zone_order_count(const struct rp_zone_order *zo, uint64_t off, uint64_t len,
			     uint64_t *bytes)
{
	uint64_t n = 0, end = off + len;
	const struct seq_zone *z = find(zo, off);

	*bytes = 0;
	if (!z)
		return 0;
	for (; z < zo->z + zo->n && z->start < end; z++) {
		n++;
		*bytes += z->len;
	}
	return n;
}
