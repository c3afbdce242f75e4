#!/bin/sh
# Guest job for make-kernel-image.sh: let the kernel write a small tree with
# every structure the differential mutation run aims at, then unmount.
#
# What it makes: top-level directories with children (one nested three
# deep), inline-data files and block files whose largest extent the kernel
# records in i_ext, a file past the inode's direct addresses, a sparse
# file, a directory of 1,200 names (dentry blocks over several hash levels;
# its inodes fill node segments, so that some are closed and keep their
# summaries in the SSA), short and long symlinks, a hard link, a fifo and a device node, extended
# attributes in the inline xattr area and, when the value is large, in an
# xattr node (on files and on a directory), and nids reused after deletions
# (their NAT versions move past 0).  Busybox sh only; our f2fs_io (a host
# file in /bin) sets the xattrs.

JOB_NAME=kernel-image
# shellcheck source-path=SCRIPTDIR source=../kernel/jobs/common.sh # put there by guest.sh
. /job-common.sh

T=$MNT
X=/bin/f2fs_io

step "mount"
mount_dev

step "tree"
mkdir -p "$T/docs/notes/old" "$T/big" "$T/media" "$T/etc" || fail "mkdir failed"
awk -v t="$T" 'function put(f, n,   s) {
		s = substr(body, 1, n)
		printf "%s", s > f
		close(f)
	}
	BEGIN {
		body = ""
		for (i = 0; length(body) < 70000; i++)
			body = body sprintf("line %06d of a compressible text body\n", i)
		for (i = 0; i < 12; i++)
			put(sprintf("%s/docs/note-%02d.txt", t, i), 40 + i * 250)
		for (i = 0; i < 6; i++)
			put(sprintf("%s/docs/notes/n%d", t, i), 900 + i * 1000)
		for (i = 0; i < 4; i++)
			put(sprintf("%s/docs/notes/old/o%d", t, i), 100 * (i + 1))
		for (i = 0; i < 1200; i++)
			put(sprintf("%s/big/entry-with-a-name-%04d", t, i), i % 37)
		put(t "/etc/conf", 3000)
		put(t "/media/clip-64k", 65536)
		put(t "/media/clip-40k", 40000)
	}' || fail "making the files failed"
dd if=/dev/zero of="$T/media/movie" bs=64k count=80 2>/dev/null || fail "dd movie failed"
dd if=/dev/zero of="$T/media/sparse" bs=4k count=2 seek=3000 2>/dev/null || fail "dd sparse failed"
dd if=/dev/zero of="$T/media/sparse" bs=4k count=3 conv=notrunc 2>/dev/null || fail "dd sparse head failed"

step "links and special files"
ln "$T/docs/note-01.txt" "$T/etc/note-link" || fail "ln failed"
ln -s ../docs/note-02.txt "$T/etc/short-link" || fail "ln -s failed"
ln -s "../docs/notes/old/$(printf 'long/%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14)target" \
	"$T/etc/long-link" || fail "ln -s long failed"
mkfifo "$T/etc/fifo" || fail "mkfifo failed"
mknod "$T/etc/null" c 1 3 || fail "mknod failed"

step "reused nids"
i=0
while [ $i -lt 20 ]; do
	echo "scratch $i" >"$T/docs/tmp-$i" || fail "scratch file failed"
	i=$((i + 1))
done
# written by a checkpoint first: removing a node that reached the disk
# moves its NAT version on, and the nids come back after the next one
sync
rm -f "$T"/docs/tmp-* || fail "rm scratch failed"
sync
i=0
while [ $i -lt 10 ]; do
	echo "again $i" >"$T/etc/again-$i" || fail "again file failed"
	i=$((i + 1))
done

step "xattrs"
long=$(awk 'BEGIN { for (i = 0; i < 60; i++) printf "value-%02d-", i }')
for f in "$T/docs/note-00.txt" "$T/docs/note-03.txt" "$T/etc/conf" "$T/docs"; do
	"$X" setxattr user.tag short "$f" >/dev/null || fail "setxattr on $f failed"
done
"$X" setxattr user.comment "a longer comment stored inline" "$T/docs/note-03.txt" >/dev/null ||
	fail "setxattr comment failed"
for f in "$T/docs/note-04.txt" "$T/media/clip-64k" "$T/docs/notes"; do
	"$X" setxattr user.big "$long" "$f" >/dev/null || fail "setxattr big on $f failed"
done

step "sync and umount"
sync || fail "sync failed"
umount_dev

step "done"
echo "@@JOB-OK@@"
