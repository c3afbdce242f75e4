#!/bin/sh
# Guest job, once per disk, for tests/kernel/018-defrag.sh.
#
#   MODE=write  the kernel makes /frag fragmented: PIECES pieces of 64 KiB
#               written interleaved with /other, a sync after each pair (so
#               each pair is allocated in turn), then /other removed.
#   MODE=check  the kernel reads /frag after the host defragmented it.
#
# Both print "defrag: sum SHA256" and "defrag: extents N" (FS_IOC_FIEMAP,
# /bin/fiemap) for /frag, then write a file and unmount, so that both fscks
# judge a volume the kernel wrote after the move.  Busybox sh.

JOB_NAME=defrag
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

step "mount"
mount_dev
if [ "$MODE" = write ]; then
	step "write $PIECES interleaved pieces"
	i=0
	while [ "$i" -lt "$PIECES" ]; do
		dd if=/dev/urandom of="$MNT/frag" bs=64k count=1 seek="$i" conv=notrunc 2>/dev/null ||
			fail "write frag piece $i"
		dd if=/dev/urandom of="$MNT/other" bs=64k count=1 seek="$i" conv=notrunc 2>/dev/null ||
			fail "write other piece $i"
		sync
		i=$((i + 1))
	done
	rm "$MNT/other" || fail "rm other"
	sync
fi
step "read"
sum=$(sha256sum "$MNT/frag" | cut -d' ' -f1) || fail "frag does not read"
echo "defrag: sum $sum"
ext=$(/bin/fiemap "$MNT/frag" | sed -n 's/^fiemap: .*: \([0-9]*\) extents$/\1/p')
[ -n "$ext" ] || fail "FS_IOC_FIEMAP failed"
echo "defrag: extents $ext"
echo "written-after-$MODE" >"$MNT/after-$MODE" || fail "write failed"
sync
umount_dev
echo "@@JOB-OK@@"
