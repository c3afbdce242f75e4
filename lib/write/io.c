// SPDX-License-Identifier: GPL-2.0
/*
 * Device writes of the write path.  Blocks are queued one at a time, as the
 * allocator hands them out, and leave as one request per run of
 * consecutive addresses of one kind (data, node, meta), up to
 * WR_IO_MAX_BYTES: a log writing a segment sends large sequential
 * requests, never one syscall per block.  Every request is counted
 * by kind and carries its kind down the device stack (f2fs_dev_write_tagged),
 * with the log a node or data block goes to, so a layer stacked on the
 * device can schedule or account it and the device can hint its lifetime
 * (a run that crosses into another log's segment leaves as two requests).  Reads of the write path
 * look at the pending run first, so a block queued and not yet sent reads back as written.
 * A device that keeps its contents in memory (a sparse image) lends the run's
 * place in it (f2fs_dev_memory): blocks are queued there, and sending the
 * run copies nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "write_internal.h"

int wr_io_init(struct wr_io *io, uint32_t blksize)
{
	void *buf;

	memset(io, 0, sizeof(*io));
	io->blksize = blksize;
	io->max_blocks = WR_IO_MAX_BYTES / blksize;
	/* block-aligned, so a device opened for direct I/O can write it as it is */
	if (posix_memalign(&buf, blksize, WR_IO_MAX_BYTES))
		return -ENOMEM;
	io->buf = buf;
	io->run = buf;
	return 0;
}

void wr_io_free(struct wr_io *io)
{
	free(io->buf);
	io->buf = NULL;
}

/*
 * The tag of a write at @blkaddr: a node or data block names the log whose
 * segment it lands in (the SIT entry's type, set when the log took the
 * segment), so the device can hint its lifetime.
 */
static enum f2fs_dev_tag block_tag(struct f2fs_wr *w, uint64_t blkaddr, int kind)
{
	const struct f2fs_seg_entry *se;

	if (kind == F2FS_IO_META || !f2fs_geo_in_main(&w->fs->geo, blkaddr))
		return F2FS_DEV_TAG_META;
	se = f2fs_sit_seg(w->fs->sit, f2fs_geo_segno(&w->fs->geo, blkaddr));
	if (se && f2fs_dev_tag_kind(f2fs_dev_log_tag(se->type)) ==
		      (kind == F2FS_IO_NODE ? F2FS_DEV_TAG_NODE : F2FS_DEV_TAG_DATA))
		return f2fs_dev_log_tag(se->type);
	return kind == F2FS_IO_NODE ? F2FS_DEV_TAG_NODE : F2FS_DEV_TAG_DATA;
}

/* Blocks from @blkaddr (at most @count) that share its tag: whole segments of one log. */
static uint32_t same_tag_run(struct f2fs_wr *w, uint64_t blkaddr, uint32_t count, int kind,
			     enum f2fs_dev_tag tag)
{
	const struct f2fs_geometry *g = &w->fs->geo;
	uint64_t next;

	if (!f2fs_geo_in_main(g, blkaddr))
		return count;
	for (next = blkaddr;;) {
		next = f2fs_geo_seg_start(g, f2fs_geo_segno(g, next) + 1);
		if (next >= blkaddr + count)
			return count;
		if (block_tag(w, next, kind) != tag)
			return (uint32_t)(next - blkaddr);
	}
}

static int send(struct f2fs_wr *w, uint64_t blkaddr, const void *buf, uint32_t count, int kind)
{
	const char *p = buf;

	while (count) {
		enum f2fs_dev_tag tag = block_tag(w, blkaddr, kind);
		uint32_t n = same_tag_run(w, blkaddr, count, kind, tag);
		int ret =
		    f2fs_dev_write_tagged(w->fs->dev, p, f2fs_blk_to_bytes(&w->fs->geo, blkaddr),
					  (size_t)n * w->io.blksize, tag);

		if (ret)
			return wr_fail(w, ret);
		w->stats.bytes[kind] += (uint64_t)n * w->io.blksize;
		w->stats.requests[kind]++;
		p += (size_t)n * w->io.blksize;
		blkaddr += n;
		count -= n;
	}
	return 0;
}

int wr_io_submit(struct f2fs_wr *w)
{
	struct wr_io *io = &w->io;
	int ret;

	if (!io->count)
		return 0;
	ret = send(w, io->start, io->run, io->count, io->kind);
	io->count = 0;
	return ret;
}

int wr_write_block(struct f2fs_wr *w, uint64_t blkaddr, const void *buf, int kind)
{
	struct wr_io *io = &w->io;
	uint8_t *mem =
	    f2fs_dev_memory(w->fs->dev, f2fs_blk_to_bytes(&w->fs->geo, blkaddr), io->blksize);
	int ret;

	/* a run is built in one place: the I/O buffer or the device's memory */
	if (io->count && (io->kind != kind || blkaddr != io->start + io->count ||
			  io->count == io->max_blocks || !mem != (io->run == io->buf))) {
		ret = wr_io_submit(w);
		if (ret)
			return ret;
	}
	if (!io->count) {
		io->start = blkaddr;
		io->kind = kind;
		io->run = mem ? mem : io->buf;
	}
	memcpy(io->run + (size_t)io->count * io->blksize, buf, io->blksize);
	io->count++;
	return 0;
}

int wr_write_blocks(struct f2fs_wr *w, uint64_t blkaddr, const void *buf, uint32_t count, int kind)
{
	int ret = wr_io_submit(w);

	return ret ? ret : send(w, blkaddr, buf, count, kind);
}

int f2fs_write_submit(struct f2fs_fs *fs)
{
	struct f2fs_wr *w;
	int ret = wr_get(fs, &w);

	return ret ? ret : wr_io_submit(w);
}

int wr_flush(struct f2fs_wr *w)
{
	int ret = wr_io_submit(w);

	if (ret)
		return ret;
	ret = f2fs_dev_flush(w->fs->dev);
	if (ret)
		return wr_fail(w, ret);
	w->stats.flushes++;
	return 0;
}

int wr_read_block(struct f2fs_wr *w, uint64_t blkaddr, void *buf)
{
	struct wr_io *io = &w->io;
	int ret;

	if (io->count && blkaddr >= io->start && blkaddr < io->start + io->count) {
		memcpy(buf, io->run + (size_t)(blkaddr - io->start) * io->blksize, io->blksize);
		return 0;
	}
	ret = f2fs_dev_read(w->fs->dev, buf, f2fs_blk_to_bytes(&w->fs->geo, blkaddr), io->blksize);
	return ret;
}
