// SPDX-License-Identifier: GPL-2.0
/* Files built by hand on an in-memory image; see tree_image.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs/endian.h"
#include "f2fs/node.h"
#include "tree_image.h"

#define N F2FS_NIDS_PER_BLOCK

bool img_make(struct img *m, uint32_t features)
{
	memset(m, 0, sizeof(*m));
	fixture_init(&m->fx, TREE_IMAGE_BYTES);
	m->fx.cfg.features = features;
	m->features = features;
	m->next_nid = 100;
	if (!fixture_open(&m->fx) || !fixture_mkfs(&m->fx)) {
		fixture_free(&m->fx);
		return false;
	}
	return true;
}

bool img_open(struct img *m)
{
	f2fs_fs_close(m->fs);
	m->fs = NULL;
	return fixture_fs_open(&m->fx, &m->fs);
}

bool img_free(struct img *m)
{
	int ret;

	f2fs_fs_close(m->fs);
	m->fs = NULL;
	ret = fixture_free(&m->fx);
	if (ret)
		fprintf(stderr, "fixture_free: %d\n", ret);
	return ret == 0;
}

uint32_t img_main_blk(struct img *m)
{
	return (uint32_t)fixture_free_blk(&m->fx);
}

void img_init_inode(const struct img *m, struct f2fs_node *n, uint32_t ino, uint16_t mode)
{
	memset(n, 0, sizeof(*n));
	n->i.i_mode = le16_put(mode);
	n->i.i_links = le32_put(1);
	if (m->features & F2FS_FEATURE_EXTRA_ATTR) {
		n->i.i_inline = F2FS_EXTRA_ATTR;
		n->i.i_extra_isize = le16_put(f2fs_extra_isize_for(m->features));
	}
	n->footer.nid = le32_put(ino);
	n->footer.ino = le32_put(ino);
}

void img_init_node(struct f2fs_node *n, uint32_t nid, uint32_t ino, uint32_t ofs)
{
	memset(n, 0, sizeof(*n));
	n->footer.nid = le32_put(nid);
	n->footer.ino = le32_put(ino);
	n->footer.flag = le32_put(ofs << F2FS_OFFSET_BIT_SHIFT);
}

uint32_t img_put_node(struct img *m, const struct f2fs_node *n)
{
	uint32_t blk = img_main_blk(m);

	if (!fixture_write_blk(&m->fx, blk, n) ||
	    !fixture_nat_set(&m->fx, le32_get(n->footer.nid), le32_get(n->footer.ino), blk)) {
		fprintf(stderr, "node %u: cannot be put at 0x%x\n", le32_get(n->footer.nid), blk);
		return 0;
	}
	return blk;
}

void img_set_iaddr(struct f2fs_node *n, unsigned int i, uint32_t addr)
{
	n->i.i_addr[f2fs_inode_first_addr(&n->i) + i] = le32_put(addr);
}

static void expect(struct tree_file *f, uint64_t fblk, uint32_t addr)
{
	f->fblk[f->nexp] = fblk;
	f->addr[f->nexp] = addr;
	f->nexp++;
}

bool build_tree_file(struct img *m, struct tree_file *f, void (*ri_edit)(struct f2fs_inode *ri))
{
	struct f2fs_node n;
	uint32_t ofs_ind3 = f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()) + 1 + 2 * (N + 1);
	uint32_t ofs_ind4 = f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()) + 1 + (N - 1) * (N + 1);
	uint32_t a;
	unsigned int last;
	bool ok = true;

	memset(f, 0, sizeof(*f));
	f->ino = m->next_nid++;
	f->d1 = m->next_nid++;
	f->ind1 = m->next_nid++;
	f->d2 = m->next_nid++;
	f->ind2 = m->next_nid++;
	f->d3 = m->next_nid++;
	f->dind = m->next_nid++;
	f->ind3 = m->next_nid++;
	f->d4 = m->next_nid++;
	f->ind4 = m->next_nid++;
	f->d5 = m->next_nid++;

	img_init_inode(m, &n, f->ino, S_IFREG | 0644);
	if (ri_edit)
		ri_edit(&n.i);
	f->addrs = f2fs_inode_addrs(f2fs_blkgeo_4k(), &n.i, m->features);
	f->per = f2fs_direct_addrs(f2fs_blkgeo_4k(), &n.i);
	last = f->per - 1;

	a = img_main_blk(m);
	img_set_iaddr(&n, 0, a);
	expect(f, 0, a);
	img_set_iaddr(&n, 5, F2FS_NEW_ADDR);
	expect(f, 5, F2FS_NEW_ADDR);
	img_set_iaddr(&n, 7, F2FS_COMPRESS_ADDR);
	expect(f, 7, F2FS_COMPRESS_ADDR);
	a = img_main_blk(m);
	img_set_iaddr(&n, f->addrs - 1, a);
	expect(f, f->addrs - 1, a);
	n.i.i_nid[0] = le32_put(f->d1);
	n.i.i_nid[2] = le32_put(f->ind1);
	n.i.i_nid[3] = le32_put(f->ind2);
	n.i.i_nid[4] = le32_put(f->dind);
	ok = img_put_node(m, &n) && ok;

	img_init_node(&n, f->d1, f->ino, F2FS_NODE_OFS_DIRECT1);
	a = img_main_blk(m);
	n.dn.addr[0] = le32_put(a);
	expect(f, f->addrs, a);
	a = img_main_blk(m);
	n.dn.addr[last] = le32_put(a);
	expect(f, f->addrs + last, a);
	ok = img_put_node(m, &n) && ok;

	img_init_node(&n, f->ind1, f->ino, F2FS_NODE_OFS_INDIRECT1);
	n.in.nid[5] = le32_put(f->d2);
	ok = img_put_node(m, &n) && ok;
	img_init_node(&n, f->d2, f->ino, F2FS_NODE_OFS_INDIRECT1 + 1 + 5);
	a = img_main_blk(m);
	n.dn.addr[3] = le32_put(a);
	expect(f, f->addrs + (uint64_t)f->per * (2 + 5) + 3, a);
	ok = img_put_node(m, &n) && ok;

	img_init_node(&n, f->ind2, f->ino, f2fs_node_ofs_indirect2(f2fs_blkgeo_4k()));
	n.in.nid[N - 1] = le32_put(f->d3);
	ok = img_put_node(m, &n) && ok;
	img_init_node(&n, f->d3, f->ino, f2fs_node_ofs_indirect2(f2fs_blkgeo_4k()) + N);
	a = img_main_blk(m);
	n.dn.addr[last] = le32_put(a);
	expect(f, f->addrs + (uint64_t)f->per * (2 + N + N - 1) + last, a);
	ok = img_put_node(m, &n) && ok;

	img_init_node(&n, f->dind, f->ino, f2fs_node_ofs_dindirect(f2fs_blkgeo_4k()));
	n.in.nid[2] = le32_put(f->ind3);
	n.in.nid[N - 1] = le32_put(f->ind4);
	ok = img_put_node(m, &n) && ok;
	img_init_node(&n, f->ind3, f->ino, ofs_ind3);
	n.in.nid[7] = le32_put(f->d4);
	ok = img_put_node(m, &n) && ok;
	img_init_node(&n, f->d4, f->ino, ofs_ind3 + 1 + 7);
	a = img_main_blk(m);
	n.dn.addr[9] = le32_put(a);
	expect(f, f->addrs + (uint64_t)f->per * (2 + 2 * N + 2 * N + 7) + 9, a);
	ok = img_put_node(m, &n) && ok;
	img_init_node(&n, f->ind4, f->ino, ofs_ind4);
	n.in.nid[N - 1] = le32_put(f->d5);
	ok = img_put_node(m, &n) && ok;
	img_init_node(&n, f->d5, f->ino, ofs_ind4 + N);
	a = img_main_blk(m);
	n.dn.addr[last] = le32_put(a);
	expect(f, f->addrs + (uint64_t)f->per * (2 + 2 * N + (uint64_t)(N - 1) * N + N - 1) + last,
	       a);
	ok = img_put_node(m, &n) && ok;
	return ok && img_open(m);
}
