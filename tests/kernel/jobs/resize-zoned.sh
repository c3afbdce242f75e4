#!/bin/sh
# Guest job: resize.f2fs grows a zoned volume by whole zones, judged by the
# kernel.  /dev/nullb0 is a host-managed null_blk device (1 GiB in 8 MiB
# zones, the first 4 conventional); our mkfs -m makes a volume of its first
# half.  One boot does it all: zone state does not survive a restart.
#
#   made          mkfs -m of half the device; the kernel writes a 40 MiB
#                 file and small ones, a zone past the volume gets stale
#                 data (dd), our fsck finds the volume clean
#   refused       resize.f2fs without -f refuses (in place) and writes nothing
#   grown         resize.f2fs -f grows it over the whole device
#   grown-clean   our fsck (and newest upstream's, /bin/fsck_new) clean
#   kernel-grown  the kernel mounts it, sees the new size, reads every file
#                 back, writes 460 MiB more in two files, 360 and 100 MiB
#                 (with the first, more than the old volume held)
#                 and unmounts without a complaint; our fsck clean again,
#                 and a second mount reads everything back
#   shrunk        the kernel deletes the 360 MiB file; resize.f2fs -s
#                 without -f refuses and writes nothing, -f -s shrinks the
#                 volume to 3/8 of the device by whole zones, moving the
#                 100 MiB file (written past the new end) inside
#   shrunk-clean  both fscks clean
#   kernel-shrunk the kernel mounts it, sees the new size, reads every file
#                 back, writes 40 MiB more, unmounts without a complaint;
#                 both fscks clean, and a second mount reads it all back
# Each case prints "@@CASE NAME PASS|FAIL [REASON]@@".  Busybox sh only.

JOB_NAME=resize-zoned
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

ZDEV=/dev/nullb0
i=0
while [ ! -b $ZDEV ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -b $ZDEV ] || fail "$ZDEV did not appear"
mkdir -p /tmp/up
[ -x /bin/fsck_new ] && ln -s /bin/fsck_new /tmp/up/fsck.f2fs

case_line() {
	echo "@@CASE $1 $2${3:+ $3}@@"
}

# done_with CASE REASON: the case failed and the ones after it cannot run
done_with() {
	case_line "$1" FAIL "$2"
	echo "@@JOB-OK@@"
	exit 0
}

# clean: empty when both fscks find the volume clean, else why
clean() {
	/bin/fsck.f2fs $ZDEV >/tmp/fsck.out 2>&1
	rc=$?
	bad=$(grep -m 1 '^\[FSCK\] PR_' /tmp/fsck.out)
	if [ $rc != 0 ] || [ -n "$bad" ]; then
		echo "our fsck exit $rc${bad:+: $bad}"
		return
	fi
	[ -x /tmp/up/fsck.f2fs ] || return 0
	/tmp/up/fsck.f2fs --dry-run -f $ZDEV >/tmp/fsck-up.out 2>&1
	rc=$?
	bad=$(grep -m 1 -E '\[Fail\]|Invalid SB|Magic Mismatch' /tmp/fsck-up.out)
	[ $rc = 0 ] && [ -z "$bad" ] || echo "upstream fsck exit $rc${bad:+: $bad}"
}

# block_count of the superblock
blocks() {
	/bin/dump.f2fs -d 1 $ZDEV 2>/dev/null | awk '/^block_count/ { print $NF; exit }' |
		tr -d ']'
}

lbs=$(cat /sys/block/nullb0/queue/logical_block_size)
bytes=$(($(cat /sys/block/nullb0/size) * 512))
step "$ZDEV: $bytes bytes, $(cat /sys/block/nullb0/queue/nr_zones) zones"
/bin/mkfs.f2fs -f -m $ZDEV $((bytes / 2 / lbs)) >/tmp/mkfs.out 2>&1 ||
	done_with made "mkfs: $(grep -v "^Info" /tmp/mkfs.out | head -n 3 | tr "\n" " ")"
mount -t f2fs $ZDEV $MNT || done_with made "the first mount failed"
check_dmesg "after the first mount"
dd if=/dev/urandom of=$MNT/big bs=1M count=40 2>/dev/null || done_with made "writing big"
mkdir -p $MNT/small
i=0
while [ $i -lt 100 ]; do
	head -c $((i * 211 + 1)) /dev/urandom >$MNT/small/f$i || done_with made "writing f$i"
	i=$((i + 1))
done
(cd $MNT && find . -type f | sort | xargs sha256sum) >/tmp/sums
umount $MNT || done_with made "umount failed"
check_dmesg "after the writes"
old=$(blocks)
# stale data at the start of the zone just past the volume (24 zones in)
stale=$((bytes / 1048576 / 2 + 32))
dd if=/dev/urandom of=$ZDEV bs=1M count=1 seek=$stale oflag=direct 2>/dev/null ||
	dd if=/dev/urandom of=$ZDEV bs=1M count=1 seek=$stale conv=fsync 2>/dev/null ||
	done_with made "writing stale data past the volume"
why=$(clean)
[ -z "$why" ] || done_with made "$why"
case_line made PASS

# the superblocks and the metadata areas (the conventional zones) are what a
# resize writes first
before=$(head -c 32M $ZDEV | md5sum | cut -c1-32)
if /bin/resize.f2fs -F $ZDEV >/tmp/refused.out 2>&1; then
	case_line refused FAIL "resize.f2fs without -f succeeded"
elif ! grep -q 'add -f' /tmp/refused.out; then
	case_line refused FAIL "$(tail -n 1 /tmp/refused.out)"
elif [ "$(head -c 32M $ZDEV | md5sum | cut -c1-32)" != "$before" ]; then
	case_line refused FAIL "the device changed"
else
	case_line refused PASS
fi

/bin/resize.f2fs -F -f $ZDEV >/tmp/resize.out 2>&1 ||
	done_with grown "resize.f2fs -f: $(tail -n 1 /tmp/resize.out)"
new=$(blocks)
if [ "$new" = $((bytes / 4096)) ]; then
	case_line grown PASS
else
	done_with grown "block_count $old -> $new, want $((bytes / 4096))"
fi
why=$(clean)
if [ -z "$why" ]; then
	case_line grown-clean PASS
else
	case_line grown-clean FAIL "$why"
fi

kernel_grown() {
	mount -t f2fs $ZDEV $MNT || { echo "mount failed"; return; }
	check_dmesg "after mounting the grown volume"
	size=$(df -k $MNT | awk 'NR == 2 { print $2 }')
	[ "$size" -gt $((bytes / 2 / 1024)) ] || { echo "df says $size KiB"; return; }
	(cd $MNT && sha256sum -c -s /tmp/sums) || { echo "the files did not read back"; return; }
	# zeros: cheap to make and to check in an emulated guest
	dd if=/dev/zero of=$MNT/more bs=1M count=360 2>/dev/null &&
		dd if=/dev/zero of=$MNT/tail bs=1M count=100 2>/dev/null ||
		{ echo "writing 460 MiB more failed ($(df -k $MNT | tail -n 1))"; return; }
	umount $MNT || { echo "umount failed"; return; }
	check_dmesg "after writing the grown volume"
	why=$(clean)
	[ -z "$why" ] || { echo "after the kernel wrote: $why"; return; }
	if ! mount -t f2fs $ZDEV $MNT || ! (cd $MNT && sha256sum -c -s /tmp/sums) ||
		! head -c $((360 << 20)) /dev/zero | cmp -s - $MNT/more ||
		! head -c $((100 << 20)) /dev/zero | cmp -s - $MNT/tail || ! umount $MNT; then
		echo "the second mount did not read everything back"
		return
	fi
	check_dmesg "after reading back"
}
why=$(kernel_grown)
if [ -z "$why" ]; then
	case_line kernel-grown PASS
else
	done_with kernel-grown "$why"
fi

# reads_back WHEN: every file as written, "tail" all zeros; empty or why
reads_back() {
	(cd $MNT && sha256sum -c -s /tmp/sums) || { echo "the files did not read back $1"; return; }
	head -c $((100 << 20)) /dev/zero | cmp -s - $MNT/tail || echo "tail did not read back $1"
}

mount -t f2fs $ZDEV $MNT && rm $MNT/more && umount $MNT ||
	done_with shrunk "deleting the 360 MiB file failed"
target=$((bytes * 3 / 8 / lbs))
before=$(head -c 32M $ZDEV | md5sum | cut -c1-32)
if /bin/resize.f2fs -F -s -t $target $ZDEV >/tmp/refused.out 2>&1; then
	done_with shrunk "resize.f2fs -s without -f succeeded"
elif ! grep -q 'add -f' /tmp/refused.out ||
	[ "$(head -c 32M $ZDEV | md5sum | cut -c1-32)" != "$before" ]; then
	done_with shrunk "without -f: $(tail -n 1 /tmp/refused.out), or the device changed"
fi
/bin/resize.f2fs -F -f -s -t $target $ZDEV >/tmp/resize.out 2>&1 ||
	done_with shrunk "resize.f2fs -f -s: $(tail -n 1 /tmp/resize.out)"
new=$(blocks)
[ "$new" = $((bytes * 3 / 8 / 4096)) ] ||
	done_with shrunk "block_count $new, want $((bytes * 3 / 8 / 4096))"
grep -q 'blocks moved' /tmp/resize.out ||
	done_with shrunk "no block moved: $(grep -m1 block_count /tmp/resize.out)"
case_line shrunk PASS
why=$(clean)
[ -z "$why" ] || done_with shrunk-clean "$why"
case_line shrunk-clean PASS

kernel_shrunk() {
	mount -t f2fs $ZDEV $MNT || { echo "mount failed"; return; }
	check_dmesg "after mounting the shrunk volume"
	size=$(df -k $MNT | awk 'NR == 2 { print $2 }')
	[ "$size" -le $((bytes * 3 / 8 / 1024)) ] || { echo "df says $size KiB"; return; }
	why=$(reads_back "after the shrink")
	[ -z "$why" ] || { echo "$why"; return; }
	dd if=/dev/urandom of=$MNT/after bs=1M count=40 2>/dev/null ||
		{ echo "writing 40 MiB failed ($(df -k $MNT | tail -n 1))"; return; }
	(cd $MNT && sha256sum after) >>/tmp/sums
	umount $MNT || { echo "umount failed"; return; }
	check_dmesg "after writing the shrunk volume"
	why=$(clean)
	[ -z "$why" ] || { echo "after the kernel wrote: $why"; return; }
	mount -t f2fs $ZDEV $MNT || { echo "the second mount failed"; return; }
	why=$(reads_back "at the second mount")
	umount $MNT || why=${why:-umount failed}
	[ -z "$why" ] || { echo "$why"; return; }
	check_dmesg "after reading back"
}
why=$(kernel_shrunk)
if [ -z "$why" ]; then
	case_line kernel-shrunk PASS
else
	case_line kernel-shrunk FAIL "$why"
fi
echo "@@JOB-OK@@"
