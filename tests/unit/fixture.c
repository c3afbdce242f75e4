// SPDX-License-Identifier: GPL-2.0
/* The unit tests' shared fixture; see fixture.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "f2fs/feature.h"
#include "fixture.h"

void fixture_init(struct fixture *fx, uint64_t bytes)
{
	memset(fx, 0, sizeof(*fx));
	fx->bytes = bytes;
	f2fs_mkfs_config_init(&fx->cfg);
	fx->cfg.geometry.total_sectors = bytes / 512;
	fx->cfg.fixed_time = FIXTURE_TIME;
	fx->cfg.fixed_cp_version = true;
	snprintf(fx->cfg.kernel_version, sizeof(fx->cfg.kernel_version), "unit test");
}

bool fixture_features(struct fixture *fx, const char *list)
{
	char why[128] = "";

	if (list && f2fs_feature_parse(list, &fx->cfg.features, why, sizeof(why))) {
		fprintf(stderr, "features: %s\n", why);
		return false;
	}
	return true;
}

bool fixture_open(struct fixture *fx)
{
	char why[128] = "";
	int ret;

	if (f2fs_layout_compute(&fx->cfg.geometry, &fx->l, why, sizeof(why))) {
		fprintf(stderr, "layout: %s\n", why);
		return false;
	}
	ret = f2fs_dev_open_memory(fx->bytes, &fx->dev);
	if (ret) {
		fprintf(stderr, "f2fs_dev_open_memory: %d\n", ret);
		fx->dev = NULL;
		return false;
	}
	return true;
}

bool fixture_mkfs(struct fixture *fx)
{
	uint8_t blk[F2FS_BLKSIZE];

	fx->ret = f2fs_mkfs_format(fx->dev, &fx->cfg, &fx->l, &fx->res);
	if (fx->ret) {
		fprintf(stderr, "f2fs_mkfs_format: %d\n", fx->ret);
		return false;
	}
	if (!fixture_read_blk(fx, 0, blk))
		return false;
	memcpy(&fx->sb, blk + F2FS_SUPER_OFFSET, sizeof(fx->sb));
	return fixture_read_blk(fx, fx->l.cp_blkaddr, fx->cp_blk);
}

bool fixture_format(struct fixture *fx, uint64_t bytes, const char *list, bool discard)
{
	fixture_init(fx, bytes);
	fx->cfg.discard = discard;
	return fixture_features(fx, list) && fixture_open(fx) && fixture_mkfs(fx);
}

bool fixture_read_blk(struct fixture *fx, uint64_t blkaddr, void *buf)
{
	int ret = f2fs_dev_read(fx->dev, buf, blkaddr * F2FS_BLKSIZE, F2FS_BLKSIZE);

	if (ret)
		fprintf(stderr, "read of block %llu: %d\n", (unsigned long long)blkaddr, ret);
	return ret == 0;
}

bool fixture_write_blk(struct fixture *fx, uint64_t blkaddr, const void *buf)
{
	int ret = f2fs_dev_write(fx->dev, buf, blkaddr * F2FS_BLKSIZE, F2FS_BLKSIZE);

	if (ret)
		fprintf(stderr, "write of block %llu: %d\n", (unsigned long long)blkaddr, ret);
	return ret == 0;
}

bool fixture_read_sum(struct fixture *fx, void *buf)
{
	return fixture_read_blk(fx, (uint64_t)fx->l.cp_blkaddr + 1 + fx->l.cp_payload, buf);
}

int fixture_free(struct fixture *fx)
{
	int ret = fx->dev ? f2fs_dev_close(fx->dev) : 0;

	fx->dev = NULL;
	return ret;
}
