// SPDX-License-Identifier: GPL-2.0
/*
 * The xattr list walk of lib/format/xattr.c on hand-made spaces: an empty
 * list, entries of several sizes, an entry running past the end, bytes
 * after the end, a list filling the space exactly, a space shorter than
 * its header; entry offsets for inject; the inline area's place.
 */
#include "config.h"

#include <string.h>

#include "f2fs/endian.h"
#include "f2fs/xattr.h"
#include "test.h"

#define SPACE 200 /* a default inline xattr area */

/* Append an entry (index 1, @name, a value of @vlen bytes) at @off; returns the next offset. */
static size_t put_entry(uint8_t *space, size_t off, const char *name, uint16_t vlen)
{
	size_t nlen = strlen(name);

	space[off] = 1;
	space[off + 1] = (uint8_t)nlen;
	space[off + 2] = (uint8_t)vlen;
	space[off + 3] = (uint8_t)(vlen >> 8);
	memcpy(space + off + 4, name, nlen);
	memset(space + off + 4 + nlen, 'v', vlen);
	return off + f2fs_xattr_entry_size(space + off);
}

static void test_empty_and_short(void)
{
	uint8_t space[SPACE] = {0};
	struct f2fs_xattr_list l;

	f2fs_xattr_scan(space, sizeof(space), &l);
	CHECK_EQ_U64(l.entries, 0);
	CHECK_EQ_U64(l.end, F2FS_XATTR_HEADER_SIZE);
	CHECK(!l.overrun && !l.trailing);
	/* a space shorter than its header holds no list, whatever its bytes */
	memset(space, 0xff, sizeof(space));
	f2fs_xattr_scan(space, 12, &l);
	CHECK(!l.overrun && !l.trailing && l.entries == 0);
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, 12, 0), (uint64_t)-1);
}

static void test_entries(void)
{
	uint8_t space[SPACE] = {0};
	struct f2fs_xattr_list l;
	size_t off = F2FS_XATTR_HEADER_SIZE, second;

	off = put_entry(space, off, "tag", 5); /* 4 + 3 + 5 = 12 */
	CHECK_EQ_U64(off, F2FS_XATTR_HEADER_SIZE + 12);
	second = off;
	off = put_entry(space, off, "comment", 30); /* 41, padded to 44 */
	CHECK_EQ_U64(off, second + 44);
	f2fs_xattr_scan(space, sizeof(space), &l);
	CHECK_EQ_U64(l.entries, 2);
	CHECK_EQ_U64(l.end, off);
	CHECK(!l.overrun && !l.trailing);
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, sizeof(space), 0), F2FS_XATTR_HEADER_SIZE);
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, sizeof(space), 1), second);
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, sizeof(space), 2), off); /* the end word */
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, sizeof(space), 3), (uint64_t)-1);

	space[off + 9] = 0x40; /* a byte after the end */
	f2fs_xattr_scan(space, sizeof(space), &l);
	CHECK(l.trailing && !l.overrun);
	CHECK_EQ_U64(l.trailing_at, off + 9);
	space[off + 9] = 0;

	space[second + 2] = 0xff; /* the second value now runs past the space */
	f2fs_xattr_scan(space, sizeof(space), &l);
	CHECK(l.overrun && !l.trailing);
	CHECK_EQ_U64(l.entries, 1);
	CHECK_EQ_U64(l.end, second);
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, sizeof(space), 2), (uint64_t)-1);
}

/* A list that ends exactly at the end of the space has no terminating word, and needs none. */
static void test_full_space(void)
{
	uint8_t space[64] = {0};
	struct f2fs_xattr_list l;
	size_t off = put_entry(space, F2FS_XATTR_HEADER_SIZE, "x", 35); /* 40 bytes */

	CHECK_EQ_U64(off, sizeof(space));
	f2fs_xattr_scan(space, sizeof(space), &l);
	CHECK_EQ_U64(l.entries, 1);
	CHECK(!l.overrun && !l.trailing);
	CHECK_EQ_U64(f2fs_xattr_entry_offset(space, sizeof(space), 1), (uint64_t)-1);
}

/* The inline area is the last words of i_addr[], when the inode has one. */
static void test_inline_area(void)
{
	uint32_t features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR;
	static struct f2fs_inode ri;

	ri.i_inline = F2FS_EXTRA_ATTR;
	ri.i_extra_isize = le16_put(36);
	ri.i_inline_xattr_size = le16_put(50);
	CHECK_EQ_U64(f2fs_inline_xattr_bytes(f2fs_blkgeo_4k(), &ri, features), 0);
	ri.i_inline |= F2FS_INLINE_XATTR;
	CHECK_EQ_U64(f2fs_inline_xattr_bytes(f2fs_blkgeo_4k(), &ri, features), 200);
	CHECK(f2fs_inline_xattr(f2fs_blkgeo_4k(), &ri, features) ==
	      (const uint8_t *)&ri.i_addr[F2FS_DEF_ADDRS_PER_INODE - 50]);
	/* one that would not fit in i_addr[] is no area */
	ri.i_inline_xattr_size = le16_put(F2FS_DEF_ADDRS_PER_INODE + 1);
	CHECK_EQ_U64(f2fs_inline_xattr_bytes(f2fs_blkgeo_4k(), &ri, features), 0);
	/* without flexible inline xattrs the size is the default */
	CHECK_EQ_U64(f2fs_inline_xattr_bytes(f2fs_blkgeo_4k(), &ri, F2FS_FEATURE_EXTRA_ATTR),
		     F2FS_INLINE_XATTR_ADDRS * 4);
}

/* The kernel's vfs_cap_data, revision 2: magic_etc, then {permitted, inheritable} twice. */
static void test_vfs_cap(void)
{
	static const uint8_t want[F2FS_VFS_CAP_BYTES] = {
	    0x01, 0x00, 0x00, 0x02, /* revision 2, effective */
	    0x00, 0x30, 0x00, 0x00, /* permitted, bits 0-31 */
	    0x00, 0x00, 0x00, 0x00, /* inheritable */
	    0x05, 0x00, 0x00, 0x00, /* permitted, bits 32-63 */
	    0x00, 0x00, 0x00, 0x00,
	};
	uint8_t got[F2FS_VFS_CAP_BYTES];

	f2fs_vfs_cap_build(0x0000000500003000ull, got);
	CHECK(!memcmp(got, want, sizeof(want)));
}

/* The host prefixes of the name spaces dump restores and sload copies, both ways. */
static void test_prefixes(void)
{
	const char *suffix = NULL;

	CHECK(!strcmp(f2fs_xattr_prefix(F2FS_XATTR_INDEX_USER), "user."));
	CHECK(!strcmp(f2fs_xattr_prefix(F2FS_XATTR_INDEX_TRUSTED), "trusted."));
	CHECK(!strcmp(f2fs_xattr_prefix(F2FS_XATTR_INDEX_SECURITY), "security."));
	CHECK(f2fs_xattr_prefix(F2FS_XATTR_INDEX_POSIX_ACL_ACCESS) == NULL);
	CHECK(f2fs_xattr_prefix(0) == NULL && f2fs_xattr_prefix(9) == NULL);
	CHECK_EQ_U64(f2fs_xattr_index_of("security.selinux", &suffix), F2FS_XATTR_INDEX_SECURITY);
	CHECK(suffix && !strcmp(suffix, "selinux"));
	CHECK_EQ_U64(f2fs_xattr_index_of("user.a", &suffix), F2FS_XATTR_INDEX_USER);
	CHECK(!strcmp(suffix, "a"));
	CHECK_EQ_U64(f2fs_xattr_index_of("user.", &suffix), 0); /* nothing after the prefix */
	CHECK_EQ_U64(f2fs_xattr_index_of("system.posix_acl_access", &suffix), 0);
	CHECK_EQ_U64(f2fs_xattr_index_of("users.x", &suffix), 0);
}

int main(void)
{
	RUN(test_prefixes);
	RUN(test_empty_and_short);
	RUN(test_entries);
	RUN(test_full_space);
	RUN(test_inline_area);
	RUN(test_vfs_cap);
	TEST_EXIT();
}
