// SPDX-License-Identifier: GPL-2.0
/*
 * quotausage DEV DIR: compare what the kernel's quota says each id uses
 * with what the tree under DIR holds.  The tree is walked without leaving
 * the file system or following symlinks; each inode (hard links once) is
 * counted for its uid, gid and project id, with st_blocks * 512 bytes (the
 * kernel charges the blocks an inode holds but its own) less what f2fs's
 * getattr adds for inline data and dentries (the size in sectors, which
 * it reports so that du shows them; FIEMAP's DATA_INLINE flag says when).
 * Then quotactl's
 * Q_GETQUOTA on DEV gives the kernel's usage for every id seen, and for
 * ids given as extra arguments (u:ID, g:ID, p:ID: ids that must hold
 * nothing).  Prints "quota-usage: ok N" or one "quota-usage: bad ..."
 * line per difference; exit 0 only when all agree.  Project ids come from
 * FS_IOC_FSGETXATTR; a kernel without project quota on DEV skips them.
 * Built on the host by tests/kernel/011-quota.sh, run in the guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/quota.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/quota.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_IDS	   4096
#define MAX_INODES 1000000

struct usage {
	int type;
	unsigned int id;
	unsigned long long inodes, space;
};

static struct usage ids[MAX_IDS];
static size_t nids;
static ino_t *seen;
static size_t nseen;
static const char *dev;
static int bad;

static struct usage *slot(int type, unsigned int id)
{
	size_t i;

	for (i = 0; i < nids; i++)
		if (ids[i].type == type && ids[i].id == id)
			return &ids[i];
	if (nids == MAX_IDS) {
		fprintf(stderr, "quotausage: too many ids\n");
		exit(2);
	}
	ids[nids] = (struct usage){type, id, 0, 0};
	return &ids[nids++];
}

static int counted_before(ino_t ino)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i] == ino)
			return 1;
	if (nseen < MAX_INODES)
		seen[nseen++] = ino;
	return 0;
}

/* Is the data (or the dentries) of the open file @fd inline in its inode? */
static int is_inline(int fd)
{
	struct {
		struct fiemap map;
		struct fiemap_extent ext[1];
	} f;

	memset(&f, 0, sizeof(f));
	f.map.fm_length = FIEMAP_MAX_OFFSET;
	f.map.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &f.map) || !f.map.fm_mapped_extents)
		return 0;
	return (f.ext[0].fe_flags & FIEMAP_EXTENT_DATA_INLINE) != 0;
}

/* Project id and inline state of a file or directory (others: no ioctl without opening). */
static int inspect(const char *path, const struct stat *st, unsigned int *projid, int *inl)
{
	struct fsxattr fa;
	int fd, ret;

	*inl = 0;
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -1;
	ret = ioctl(fd, FS_IOC_FSGETXATTR, &fa);
	*inl = is_inline(fd);
	close(fd);
	if (ret)
		return -1;
	*projid = fa.fsx_projid;
	return 0;
}

static void charge(int type, unsigned int id, unsigned long long space)
{
	struct usage *u = slot(type, id);

	u->inodes++;
	u->space += space;
}

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	unsigned long long space = (unsigned long long)st->st_blocks * 512;
	unsigned int projid = 0;
	int inl, has_project;

	(void)flag;
	(void)ftw;
	if (st->st_nlink > 1 && !S_ISDIR(st->st_mode) && counted_before(st->st_ino))
		return 0;
	has_project = inspect(path, st, &projid, &inl) == 0;
	if (inl)
		space -= (((unsigned long long)st->st_size + 511) >> 9) * 512;
	charge(USRQUOTA, st->st_uid, space);
	charge(GRPQUOTA, st->st_gid, space);
	/* symlinks and special files: project 0 in the trees the tests make */
	if (has_project || (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)))
		charge(PRJQUOTA, projid, space);
	return 0;
}

static const char *type_name(int type)
{
	return type == USRQUOTA ? "user" : type == GRPQUOTA ? "group" : "project";
}

static void compare(const struct usage *u)
{
	struct if_dqblk dq;

	if (quotactl(QCMD(Q_GETQUOTA, u->type), dev, (int)u->id, (caddr_t)&dq)) {
		if (u->type == PRJQUOTA && (errno == ESRCH || errno == EINVAL || errno == ENOSYS))
			return; /* project quota not on for this volume */
		printf("quota-usage: bad %s %u: quotactl: %s\n", type_name(u->type), u->id,
		       strerror(errno));
		bad++;
		return;
	}
	if (dq.dqb_curinodes != u->inodes || dq.dqb_curspace != u->space) {
		printf("quota-usage: bad %s %u: kernel %llu inodes %llu bytes, tree %llu inodes "
		       "%llu bytes\n",
		       type_name(u->type), u->id, (unsigned long long)dq.dqb_curinodes,
		       (unsigned long long)dq.dqb_curspace, u->inodes, u->space);
		bad++;
	}
}

int main(int argc, char **argv)
{
	size_t i;
	int a;

	if (argc < 3) {
		fprintf(stderr, "usage: quotausage DEV DIR [u:ID|g:ID|p:ID]...\n");
		return 2;
	}
	dev = argv[1];
	seen = malloc(sizeof(*seen) * MAX_INODES);
	if (!seen || nftw(argv[2], visit, 64, FTW_PHYS | FTW_MOUNT)) {
		fprintf(stderr, "quotausage: cannot walk %s\n", argv[2]);
		return 2;
	}
	for (a = 3; a < argc; a++) {
		int type = argv[a][0] == 'u' ? USRQUOTA : argv[a][0] == 'g' ? GRPQUOTA : PRJQUOTA;

		slot(type, (unsigned int)strtoul(argv[a] + 2, NULL, 10));
	}
	for (i = 0; i < nids; i++)
		compare(&ids[i]);
	if (!bad)
		printf("quota-usage: ok %zu\n", nids);
	return bad ? 1 : 0;
}
