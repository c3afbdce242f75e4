#!/bin/sh
# Guest job for 021-resize-multi.sh: a volume of two virtio disks, /dev/vda
# (its first device, with the metadata) and /dev/vdb, made here so that the
# superblock records the paths the kernel opens.  One phase per boot (PHASE):
#
#   fill   made         our mkfs.f2fs -c /dev/vdb /dev/vda; the kernel mounts
#                       it, writes files (checksums kept on the volume in
#                       SUMS) and unmounts; our fsck and newest upstream's
#                       (/bin/fsck_new) find it clean
#   grow   (the host gave /dev/vdb a larger backing file before this boot)
#          grown        our resize.f2fs grows the volume into /dev/vdb:
#                       block_count is the first device's share plus all
#                       of /dev/vdb, and the device table sums to
#                       segment_count
#          grown-clean  both fscks clean
#          kernel-grown the kernel mounts it, sees the new size, reads
#                       every file back, writes more than the old volume
#                       had free and unmounts without a complaint; both
#                       fscks clean; a second mount reads everything back
#          shrunk       resize.f2fs -s shrinks it within /dev/vdb (after
#                       the kernel deleted the large new file); both fscks
#                       clean, and the kernel reads everything back
# Each case prints "@@CASE NAME PASS|FAIL [REASON]@@".  Busybox sh only.

JOB_NAME=resize-multi
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

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

# pass_or CASE WHY: PASS when WHY is empty, else FAIL and stop
pass_or() {
	[ -z "$2" ] || done_with "$1" "$2"
	case_line "$1" PASS
}

# clean: empty when both fscks find the volume clean, else why
clean() {
	/bin/fsck.f2fs -f /dev/vda >/tmp/fsck.out 2>&1
	rc=$?
	bad=$(grep -m 1 '^\[FSCK\] PR_' /tmp/fsck.out)
	if [ $rc != 0 ] || [ -n "$bad" ]; then
		echo "our fsck exit $rc: ${bad:-$(tail -n 1 /tmp/fsck.out)}"
		return
	fi
	[ -x /tmp/up/fsck.f2fs ] || return 0
	/tmp/up/fsck.f2fs --dry-run -f /dev/vda >/tmp/fsck-up.out 2>&1
	rc=$?
	bad=$(grep -m 1 -E '\[Fail\]|Invalid SB|Magic Mismatch|mismatch' /tmp/fsck-up.out)
	[ $rc = 0 ] && [ -z "$bad" ] || echo "upstream fsck exit $rc${bad:+: $bad}"
}

# field NAME: the superblock field NAME as our dump lists it (every copy, one a line)
field() {
	/bin/dump.f2fs -d 1 /dev/vda 2>/dev/null | awk -v f="$1" '$1 == f { print $NF }' | tr -d ']'
}

disk_bytes() {
	echo $(($(cat "/sys/block/$1/size") * 512))
}

# write_files PREFIX COUNT MIB: COUNT files of MIB MiB, checksummed into SUMS
write_files() {
	n=0
	while [ $n -lt "$2" ]; do
		dd if=/dev/urandom of="$MNT/$1$n" bs=1M count="$3" 2>/dev/null || return 1
		(cd $MNT && sha256sum "$1$n") >>$MNT/SUMS || return 1
		n=$((n + 1))
	done
	sync
}

# reads_back WHEN: empty when every file in SUMS reads back, else why
reads_back() {
	(cd $MNT && sha256sum -c -s SUMS) || echo "a file does not read back $1"
}

size_mib() {
	df -k $MNT | awk 'NR == 2 { print int($2 / 1024) }'
}

# kernel_round WANT-MIB PREFIX COUNT: mount, see about WANT-MIB MiB, read
# back, write COUNT files of 8 MiB, unmount, both fscks, mount and read again
kernel_round() {
	mount -t f2fs /dev/vda $MNT || { echo "mount failed"; return; }
	size=$(size_mib)
	if [ "$size" -lt $(($1 * 8 / 10)) ] || [ "$size" -gt "$1" ]; then
		echo "df shows $size MiB, the volume has $1 MiB"
		return
	fi
	why=$(reads_back "after the resize")
	[ -z "$why" ] && [ "$3" -gt 0 ] && ! write_files "$2" "$3" 8 && why="writing $2 failed"
	umount $MNT || why=${why:-umount failed}
	[ -z "$why" ] || { echo "$why"; return; }
	why=$(check_dmesg "after the writes")
	[ -z "$why" ] || { echo "$why"; return; }
	why=$(clean)
	[ -z "$why" ] || { echo "after the kernel wrote: $why"; return; }
	mount -t f2fs /dev/vda $MNT || { echo "the second mount failed"; return; }
	why=$(reads_back "at the second mount")
	umount $MNT || why=${why:-umount failed}
	echo "$why"
}

step "PHASE=$PHASE: vda $(disk_bytes vda) bytes, vdb $(disk_bytes vdb) bytes"
case $PHASE in
fill)
	/bin/mkfs.f2fs -f -c /dev/vdb /dev/vda >/tmp/mkfs.out 2>&1 ||
		done_with made "mkfs: $(grep -v '^Info' /tmp/mkfs.out | head -n 3 | tr '\n' ' ')"
	mount_dev "the first mount"
	: >$MNT/SUMS
	write_files old 12 8 || done_with made "writing the files failed"
	mkdir -p $MNT/small
	i=0
	while [ $i -lt 200 ]; do
		head -c $((i * 173 + 1)) /dev/urandom >$MNT/small/f$i || done_with made "small f$i"
		i=$((i + 1))
	done
	(cd $MNT && find small -type f -exec sha256sum {} +) >>$MNT/SUMS
	umount_dev
	pass_or made "$(clean)"
	;;
grow)
	share0=$(($(field segment0_blkaddr | head -n 1) + $(field devs\[i\].total_segments | head -n 1) * 512))
	/bin/resize.f2fs -F /dev/vda >/tmp/resize.out 2>&1 ||
		done_with grown "resize.f2fs: $(tail -n 1 /tmp/resize.out)"
	cat /tmp/resize.out
	blocks=$(field block_count | head -n 1)
	want=$((share0 + $(disk_bytes vdb) / 4096))
	segs=$(field segment_count | head -n 1)
	sum=$(field devs\[i\].total_segments | head -n 2 | awk '{ s += $1 } END { print s }')
	why=
	[ "$blocks" = "$want" ] || why="block_count $blocks, want $want"
	[ "$segs" = "$sum" ] || why=${why:-"segment_count $segs, the devices sum to $sum"}
	pass_or grown "$why"
	pass_or grown-clean "$(clean)"
	mib=$((blocks / 256))
	# 20 files of 8 MiB: more than the old volume had free
	pass_or kernel-grown "$(kernel_round $mib new 20)"
	mount_dev "before the shrink"
	n=0
	while [ $n -lt 20 ]; do
		rm -f "$MNT/new$n"
		n=$((n + 1))
	done
	grep -v ' new' $MNT/SUMS >/tmp/sums && cat /tmp/sums >$MNT/SUMS
	umount_dev "before the shrink"
	to=$((share0 / 256 + 160))
	/bin/resize.f2fs -F -s -t $((to * 2048)) /dev/vda >/tmp/shrink.out 2>&1 ||
		done_with shrunk "resize.f2fs -s: $(tail -n 1 /tmp/shrink.out)"
	why=$(clean)
	[ -n "$why" ] || why=$(kernel_round "$to" after 2)
	pass_or shrunk "$why"
	;;
*) fail "unknown PHASE $PHASE" ;;
esac
echo "@@JOB-OK@@"
