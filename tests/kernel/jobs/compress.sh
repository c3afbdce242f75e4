#!/bin/sh
# Guest job, once per disk: a volume our sload loaded with -c (RELEASED=0)
# or -c -r (RELEASED=1).  Every file must read back as the host's
# /bin/compress.sums says (the kernel decompresses our clusters).  Each file
# in /bin/compress.list (those sload compressed) must be a compressed file
# to F2FS_IOC_GET_COMPRESS_BLOCKS; the small ones in /bin/inline.list must
# not be.  Released: every count is 0, a second release and a write are
# refused.  Not released: F2FS_IOC_RELEASE_COMPRESS_BLOCKS must give back
# exactly the count it reported (the kernel recounts the clusters), leave
# it at 0, and the files must read back the same after.  At least one file
# must have saved blocks.  Then a new file, sync, unmount.  Busybox sh;
# /bin/f2fs_io is ours.

JOB_NAME='compress'
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

sums_match() {
	(cd "$MNT" && sha256sum -c -s /bin/compress.sums) || fail "contents differ $1"
}

step "mount"
mount_dev
step "read every file"
sums_match "as loaded"
total=0
step "compressed block counts"
while read -r f; do
	c=$(/bin/f2fs_io get_cblocks "$MNT/$f" 2>&1) || fail "get_cblocks $f: $c"
	if [ "$RELEASED" = 1 ]; then
		[ "$c" = 0 ] || fail "$f released, but the kernel counts $c compressed blocks"
		/bin/f2fs_io release_cblocks "$MNT/$f" >/dev/null 2>&1 &&
			fail "$f released twice"
	else
		r=$(/bin/f2fs_io release_cblocks "$MNT/$f" 2>&1) || fail "release_cblocks $f: $r"
		[ "$r" = "$c" ] || fail "$f: i_compr_blocks $c, the kernel released $r"
		a=$(/bin/f2fs_io get_cblocks "$MNT/$f" 2>&1)
		[ "$a" = 0 ] || fail "$f: $a compressed blocks after release"
	fi
	total=$((total + c))
done </bin/compress.list
echo "compress: $DEV saved blocks $total (released=$RELEASED)"
if [ "$RELEASED" = 0 ]; then
	[ "$total" -gt 0 ] || fail "no file saved a block"
	sums_match "after the kernel released them"
fi
first=$(head -n 1 /bin/compress.list)
echo more 2>/dev/null >>"$MNT/$first" && fail "a released file took a write"
while read -r f; do
	/bin/f2fs_io get_cblocks "$MNT/$f" >/dev/null 2>&1 && fail "$f is compressed"
done </bin/inline.list
check_dmesg "after the ioctls"
step "write and unmount"
echo written-by-the-kernel >"$MNT/after" || fail "write failed"
sync
umount_dev
echo "@@JOB-OK@@"
