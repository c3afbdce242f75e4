#!/bin/sh
# Guest job: let the kernel build a varied tree on $DEV (/dev/vda, or the
# disk of this run) for the host's fsck comparison
# (002-fsck-kernel-images.sh), then sync and unmount.
#
# The tree touches the on-disk structures an fsck has to walk: nested
# directories, directories whose dentries leave the inode (> 200 entries)
# and span several blocks and hash levels, empty files, inline-data files,
# files just under, at and over one block, a 40 MiB file (indirect nodes), a
# sparse file, hard links with names in several directories, short and long
# symlinks, a fifo, device nodes, renames across directories, a deleted
# subtree, deleted files and truncated files.  Busybox sh only.
#
# Environment (GUEST_JOB_ENV):
#   COMPRESS=1   also make a compressed file with f2fs_io (copied in as a
#                host file) when the image has the compression feature
#   NO_MKNOD=1   leave out the character and block device nodes

JOB_NAME=fsck-tree
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

T=$MNT/t

step "mount"
mount_dev

step "directories"
mkdir -p "$T/deep/l0/l1/l2/l3/l4/l5/l6/l7/l8" "$T/big300" "$T/big2000" "$T/small" \
	"$T/sizes" "$T/links/a" "$T/links/b" "$T/links/c" "$T/special" "$T/from" "$T/to" \
	"$T/doomed/x/y/z" || fail "mkdir failed"

# One awk makes almost every file: forking per file is slow under TCG.
#   big300:   300 files with 1..300 bytes (the dentries leave the inode)
#   big2000:  2,000 empty files with 40-character names (dozens of dentry
#             blocks over several hash levels)
#   small:    500 files of 0..3,000 bytes (inline data where it fits)
#   deep:     10 files in each of the 10 nested levels
#   from:     200 files, half of them renamed into to/ later
#   doomed:   300 files in a subtree deleted later
step "files"
awk -v t="$T" 'function put(f, n,   s) {
		s = substr(body, 1, n)
		printf "%s", s > f
		close(f)
	}
	BEGIN {
		body = ""
		for (i = 0; length(body) < 8192; i++)
			body = body sprintf("%07d\n", i)
		for (i = 0; i < 300; i++)
			put(sprintf("%s/big300/entry-%04d", t, i), i + 1)
		for (i = 0; i < 2000; i++)
			put(sprintf("%s/big2000/a-rather-long-file-name-number-%08d", t, i), 0)
		for (i = 0; i < 500; i++)
			put(sprintf("%s/small/s%03d", t, i), (i * 6007) % 3001)
		d = t "/deep"
		for (l = 0; l < 10; l++) {
			for (i = 0; i < 10; i++)
				put(sprintf("%s/f%d", d, i), l * 100 + i + 1)
			d = d "/l" l
		}
		for (i = 0; i < 200; i++)
			put(sprintf("%s/from/m%03d", t, i), i * 37)
		for (i = 0; i < 300; i++)
			put(sprintf("%s/doomed/x/y/z/d%03d", t, i), i * 13)
		# around one block
		put(t "/sizes/3.9k", 3994)
		put(t "/sizes/4k", 4096)
		put(t "/sizes/5k", 5120)
		put(t "/sizes/8k+1", 8193)
	}' || fail "making the files failed"

step "big and sparse files"
dd if=/dev/zero of="$T/big40m" bs=1M count=40 2>/dev/null || fail "dd big40m failed"
dd if=/dev/zero of="$T/sparse" bs=4k count=1 seek=20000 2>/dev/null || fail "dd sparse failed"
dd if=/dev/zero of="$T/sparse2" bs=4k count=3 seek=1030 2>/dev/null || fail "dd sparse2 failed"
dd if=/dev/zero of="$T/sparse2" bs=4k count=2 conv=notrunc 2>/dev/null || fail "dd sparse2 head failed"
dd if=/dev/zero of="$T/shrink" bs=1M count=12 2>/dev/null || fail "dd shrink failed"
dd if=/dev/zero of="$T/shrink-small" bs=4k count=30 2>/dev/null || fail "dd shrink-small failed"

if [ "${COMPRESS:-0}" = 1 ]; then
	step "compressed file"
	: >"$T/compressed" || fail "creating the compressed file failed"
	f2fs_io setflags compression "$T/compressed" || fail "f2fs_io setflags compression failed"
	# compressible data: 2 MiB of repeated records
	awk 'BEGIN { for (i = 0; i < 65536; i++) printf "compress me %019d\n", i % 97 }' \
		>"$T/compressed" || fail "writing the compressed file failed"
fi

step "links and special files"
ln "$T/small/s001" "$T/links/a/h1" || fail "ln failed"
ln "$T/small/s001" "$T/links/b/h2" || fail "ln failed"
ln "$T/small/s001" "$T/links/c/h3" || fail "ln failed"
ln "$T/small/s001" "$T/small/s001.again" || fail "ln failed"
ln "$T/sizes/5k" "$T/links/a/five" || fail "ln failed"
ln "$T/big40m" "$T/links/b/big" || fail "ln failed"
ln -s ../small/s002 "$T/links/short" || fail "ln -s failed"
long=../deep/l0/l1/l2/l3/l4/l5/l6/l7/l8/a-symlink-target-well-beyond-sixty-bytes-long/f0
ln -s "$long" "$T/links/long" || fail "ln -s long failed"
ln -s /nonexistent/dangling "$T/links/dangling" || fail "ln -s dangling failed"
ln -s "$T/big2000" "$T/links/dirlink" || fail "ln -s dir failed"
mkfifo "$T/special/fifo" || fail "mkfifo failed"
if [ "${NO_MKNOD:-0}" != 1 ]; then
	mknod "$T/special/null" c 1 3 || fail "mknod c failed"
	mknod "$T/special/blk" b 7 0 || fail "mknod b failed"
fi

step "renames"
i=0
while [ $i -lt 100 ]; do
	n=$(printf '%03d' $i)
	mv "$T/from/m$n" "$T/to/renamed-m$n" || fail "mv m$n failed"
	i=$((i + 2))
done
mv "$T/links/a/h1" "$T/links/c/h1-moved" || fail "mv of a hard link failed"
mv "$T/deep/l0/l1/l2/l3/l4" "$T/to/l4-moved" || fail "mv of a directory failed"
mv "$T/sizes/4k" "$T/sizes/3.9k" || fail "mv over an existing file failed"

step "deletions and truncations"
rm -rf "$T/doomed" || fail "rm -rf doomed failed"
rm -f "$T/small/s1"[0-4]? "$T/big2000/a-rather-long-file-name-number-000015"* ||
	fail "rm of some files failed"
rm -f "$T/links/b/h2" || fail "rm of a hard link failed"
truncate -s 5000000 "$T/shrink" || fail "truncate shrink failed"
truncate -s 1000 "$T/shrink-small" || fail "truncate shrink-small failed"
truncate -s 100000 "$T/sizes/5k" || fail "truncate (extend) 5k failed"

[ "$(stat -c %h "$T/small/s001")" = 4 ] || fail "s001 has $(stat -c %h "$T/small/s001") links, expected 4"
[ "$(readlink "$T/links/long")" = "$long" ] || fail "long symlink reads back wrong"
[ -p "$T/special/fifo" ] || fail "fifo is not a fifo"
[ "${NO_MKNOD:-0}" = 1 ] || [ -c "$T/special/null" ] || fail "null is not a character device"
count=$(find "$T" | wc -l)
step "tree has $count names"
[ "$count" -gt 2500 ] || fail "only $count names in the tree"

step "sync and umount"
sync || fail "sync failed"
umount_dev

step "done"
echo "@@JOB-OK@@"
