/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files built by hand on a formatted in-memory image, for the read layer's
 * tests: inodes, direct, indirect and double indirect nodes written into
 * free main-area blocks (fixture_free_blk()), their nids pointed at them
 * in the NAT.  Like the fixture, these functions record no test failure
 * themselves: they print what failed on stderr and return false (or 0),
 * for the caller to CHECK.
 */
#ifndef NG_TREE_IMAGE_H
#define NG_TREE_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/format.h"
#include "f2fs/fs.h"
#include "fixture.h"

#define TREE_IMAGE_BYTES (128ull << 20)

struct img {
	struct fixture fx;
	uint32_t features;
	uint32_t next_nid;  /* from 100: NAT block 0, not in the journal */
	struct f2fs_fs *fs; /* opened by img_open() */
};

/* Format a TREE_IMAGE_BYTES image with @features. */
bool img_make(struct img *m, uint32_t features);

/* (Re)open the handle on the image, after its blocks changed. */
bool img_open(struct img *m);

/* Close the handle and the image. */
bool img_free(struct img *m);

/* A main-area block nothing uses yet. */
uint32_t img_main_blk(struct img *m);

/* An inode of @mode with the image's extra attributes, not yet written. */
void img_init_inode(const struct img *m, struct f2fs_node *n, uint32_t ino, uint16_t mode);

/* A node of inode @ino at tree offset @ofs, empty, not yet written. */
void img_init_node(struct f2fs_node *n, uint32_t nid, uint32_t ino, uint32_t ofs);

/* Write node @n into a free block and point its nid there; returns the block, 0 on failure. */
uint32_t img_put_node(struct img *m, const struct f2fs_node *n);

/* Set the inode's own data address @i (counted from the first). */
void img_set_iaddr(struct f2fs_node *n, unsigned int i, uint32_t addr);

/* A file whose tree reaches every kind of node, and the blocks it maps. */
struct tree_file {
	uint32_t ino, d1, ind1, d2, ind2, d3, dind, ind3, d4, ind4, d5;
	unsigned int addrs, per; /* data addresses in the inode, in each direct node */
	unsigned int nexp;	 /* the non-NULL addresses, in file order */
	uint64_t fblk[16];
	uint32_t addr[16];
};

/*
 * Inode @f->ino with data at file blocks 0, 5 (NEW_ADDR), 7 (COMPRESS_ADDR)
 * and addrs - 1; direct node 1 with its first and last address, direct
 * node 2 absent; indirect node 1 with child 5 only (address 3); indirect
 * node 2 with its last child only (last address); the double indirect node
 * with child 2's child 7 (address 9) and the very last block of the tree.
 * @ri_edit sets the inode's geometry (flags, extra sizes) before anything.
 * The handle is reopened on the result.
 */
bool build_tree_file(struct img *m, struct tree_file *f, void (*ri_edit)(struct f2fs_inode *ri));

#endif
