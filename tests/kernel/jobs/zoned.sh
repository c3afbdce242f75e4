#!/bin/sh
# Guest job: our tools on a real zoned block device, judged by the kernel.
# KIND=smr: a host-managed null_blk device (/dev/nullb0, 256 MiB zones, the
# first 4 conventional), formatted alone; KIND=zns: an NVMe ZNS namespace
# (/dev/nvme0n1, 128 MiB zones of 96 MiB capacity) with /dev/vda as the
# regular device for the metadata.  One boot does it all: zone state does
# not survive a restart.
#
#   mkfs          our mkfs.f2fs -m succeeds
#   layout-up     (with /bin/mkfs_new, newest upstream's mkfs) its layout is
#                 ours; both are printed as @@LAYOUT / @@LAYOUT-UP lines for
#                 the host to compare with the checked-in table
#   fsck-fresh    our fsck finds the new volume clean
#   kernel-write  the kernel mounts it, writes files across several zones,
#                 deletes some, unmounts, with no complaint
#   fsck-after    our fsck finds what the kernel left clean (and newest
#                 upstream's, with /bin/fsck_new: reported, see the host)
#   dump-zones    dump.f2fs --sections shows each used section's zone
#   remount-read  the kernel mounts it again and reads back every file
#   wp-flagged    (with /bin/blkzone) an open zone the volume writes is
#                 reset behind its back: our fsck -n reports it (exit 4)
#   wp-repair     fsck -y repairs it (exit 1), and a second run is clean
#   wp-kernel     the kernel mounts the repaired volume, reads every file
#                 (some lost their blocks: holes now), writes and unmounts
#                 without a complaint, and our fsck still calls it clean
#   sload         (with /bin/sload.f2fs) a fresh volume loaded with a tree
#                 across several zones by our sload: our fsck calls it
#                 clean, the kernel reads back every file of the tree
#   replay        (with /bin/f2fs_io) f2fs_io replay --mkfs "-m ..." of a
#                 trace whose writer writes 96 MiB files, fsyncs them and
#                 deletes all but the last two, beside a looping thread
#                 of small fsynced files: the run succeeds and reads its
#                 files back, reports zones reset, our fsck calls the
#                 volume clean, and the kernel mounts it, reads every
#                 file, writes and unmounts without a complaint
# Each case prints "@@CASE NAME PASS|FAIL|SKIP [REASON]@@".  Busybox sh only.

JOB_NAME=zoned
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

case_line() {
	echo "@@CASE $1 $2${3:+ $3}@@"
}

wait_for() {
	i=0
	while [ ! -b "$1" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -b "$1" ] || fail "$1 did not appear"
}

case ${KIND:-} in
smr)
	wait_for /dev/nullb0
	ZDEV=/dev/nullb0
	MKFS_ARGS="-f -m /dev/nullb0"
	REPLAY_MKFS="-m"
	VOL=/dev/nullb0
	;;
zns)
	wait_for /dev/nvme0n1
	ZDEV=/dev/nvme0n1
	MKFS_ARGS="-f -m -c /dev/nvme0n1 /dev/vda"
	REPLAY_MKFS="-m -c /dev/nvme0n1"
	VOL=/dev/vda
	;;
*) fail "KIND must be smr or zns" ;;
esac
step "$ZDEV: $(cat /sys/block/${ZDEV#/dev/}/queue/zoned), $(cat /sys/block/${ZDEV#/dev/}/queue/nr_zones) zones"
# upstream's tools know which one they are by their name
mkdir -p /tmp/up
[ -x /bin/fsck_new ] && ln -s /bin/fsck_new /tmp/up/fsck.f2fs

# shellcheck disable=SC2086 # the arguments are words
if /bin/mkfs.f2fs $MKFS_ARGS >/tmp/mkfs.out 2>&1; then
	case_line mkfs PASS
else
	case_line mkfs FAIL "$(tail -n 1 /tmp/mkfs.out)"
	echo "@@JOB-OK@@"
	exit 0
fi
/bin/dump.f2fs -d 1 "$VOL" | sed 's/^/@@LAYOUT /'

if [ -x /bin/mkfs_new ]; then
	# shellcheck disable=SC2086
	if /bin/mkfs_new $MKFS_ARGS >/tmp/mkfs-up.out 2>&1; then
		/bin/dump.f2fs -d 1 "$VOL" | sed 's/^/@@LAYOUT-UP /'
		case_line layout-up PASS
	else
		case_line layout-up FAIL "upstream's mkfs: $(tail -n 1 /tmp/mkfs-up.out)"
	fi
	# shellcheck disable=SC2086
	/bin/mkfs.f2fs $MKFS_ARGS >/tmp/mkfs.out 2>&1 || fail "our mkfs, again: $(tail -n 1 /tmp/mkfs.out)"
else
	case_line layout-up SKIP "newest upstream's mkfs not built"
fi

# fsck_case NAME: our fsck must exit 0 without a problem line
fsck_case() {
	/bin/fsck.f2fs "$VOL" >/tmp/fsck.out 2>&1
	rc=$?
	bad=$(grep -m 1 '^\[FSCK\] PR_' /tmp/fsck.out)
	if [ $rc = 0 ] && [ -z "$bad" ]; then
		case_line "$1" PASS
	else
		grep '^\[FSCK\] PR_' /tmp/fsck.out | head -n 5 | sed 's/^/| /'
		case_line "$1" FAIL "our fsck exit $rc${bad:+: $bad}"
	fi
}
fsck_case fsck-fresh

# Files across several zones: a 320 MiB file (two or more zones of either
# kind), 300 small files, then half of the small ones and a 64 MiB file go.
write_files() {
	mount -t f2fs "$VOL" "$MNT" || return 1
	check_dmesg "after the first mount"
	dd if=/dev/urandom of="$MNT/big" bs=1M count=320 2>/dev/null || return 1
	dd if=/dev/urandom of="$MNT/gone" bs=1M count=64 2>/dev/null || return 1
	mkdir -p "$MNT/small" || return 1
	i=0
	while [ $i -lt 300 ]; do
		head -c $((i * 97 + 1)) /dev/urandom >"$MNT/small/f$i" || return 1
		i=$((i + 1))
	done
	sync
	rm -f "$MNT/gone" "$MNT"/small/f*[13579] || return 1
	(cd "$MNT" && find . -type f | sort | xargs sha256sum) >/tmp/sums || return 1
	umount "$MNT" || return 1
	check_dmesg "after the writes"
}
if write_files; then
	case_line kernel-write PASS
else
	case_line kernel-write FAIL "writing to the mounted volume failed"
	echo "@@JOB-OK@@"
	exit 0
fi

fsck_case fsck-after
n=$(/bin/dump.f2fs --sections "$VOL" 2>/dev/null | grep -c 'zone:')
if [ "$n" -gt 0 ]; then
	case_line dump-zones PASS
else
	case_line dump-zones FAIL "dump.f2fs --sections shows no zone"
fi
if [ -x /tmp/up/fsck.f2fs ]; then
	/tmp/up/fsck.f2fs --dry-run -f "$VOL" >/tmp/fsck-up.out 2>&1
	echo "@@NOTE upstream fsck after the kernel: exit $?: $(grep -E -m 3 '\[Fail\]|\[FIX\]|Error|Wrong' /tmp/fsck-up.out | tr '\n' ' ')"
fi

if mount -t f2fs "$VOL" "$MNT" && (cd "$MNT" && sha256sum -c -s /tmp/sums) &&
	umount "$MNT"; then
	check_dmesg "after reading back"
	case_line remount-read PASS
else
	case_line remount-read FAIL "the files did not read back"
fi

# The first open sequential zone: a log's, which the volume still writes.
open_zone() {
	/bin/blkzone report "$ZDEV" | awk '/zcond: *[23]\(o[ie]\)/ {
		sub(/,/, "", $2); print $2; exit }'
}
if [ ! -x /bin/blkzone ]; then
	for s in wp-flagged wp-repair wp-kernel; do case_line $s SKIP "no blkzone"; done
	echo "@@JOB-OK@@"
	exit 0
fi
start=$(open_zone)
if [ -z "$start" ] || ! /bin/blkzone reset -o "$start" -c 1 "$ZDEV"; then
	case_line wp-flagged FAIL "no open zone to reset ($(/bin/blkzone report "$ZDEV" | head -n 8 | tr '\n' ' '))"
	echo "@@JOB-OK@@"
	exit 0
fi
step "reset the zone at sector $start"
/bin/fsck.f2fs -n "$VOL" >/tmp/fsck-n.out 2>&1
rc=$?
codes=$(grep -o '^\[FSCK\] PR_ZONE_[A-Z_]*' /tmp/fsck-n.out | sort -u | tr '\n' ' ')
if [ $rc = 4 ] && [ -n "$codes" ] && grep -q '^\[FSCK\] Write pointers consistency *\[Fail\]' /tmp/fsck-n.out; then
	case_line wp-flagged PASS
	echo "@@NOTE after the reset: $codes"
else
	grep '^\[FSCK\]' /tmp/fsck-n.out | head -n 8 | sed 's/^/| /'
	case_line wp-flagged FAIL "fsck -n exit $rc, codes: ${codes:-none}"
fi
/bin/fsck.f2fs -y "$VOL" >/tmp/fsck-y.out 2>&1
rc=$?
/bin/fsck.f2fs "$VOL" >/tmp/fsck-2.out 2>&1
rc2=$?
if [ $rc = 1 ] && [ $rc2 = 0 ] && ! grep -q '^\[FSCK\] PR_' /tmp/fsck-2.out; then
	case_line wp-repair PASS
else
	grep -E '^\[FSCK\] (left: )?PR_|^\[FIX\]' /tmp/fsck-y.out /tmp/fsck-2.out | head -n 8 | sed 's/^/| /'
	case_line wp-repair FAIL "fsck -y exit $rc, the rerun $rc2"
fi
if mount -t f2fs "$VOL" "$MNT" && find "$MNT" -type f -exec cat {} + >/dev/null &&
	dd if=/dev/urandom of="$MNT/after" bs=1M count=8 2>/dev/null && umount "$MNT"; then
	check_dmesg "after the repaired volume's mount"
	if /bin/fsck.f2fs "$VOL" >/tmp/fsck-3.out 2>&1; then
		case_line wp-kernel PASS
	else
		grep '^\[FSCK\] PR_' /tmp/fsck-3.out | head -n 5 | sed 's/^/| /'
		case_line wp-kernel FAIL "our fsck after the kernel wrote to the repaired volume"
	fi
else
	case_line wp-kernel FAIL "the kernel could not use the repaired volume"
fi

# sload: 200 MiB in three big files and 500 small ones, through our write path
sload_case() {
	rm -rf /tmp/src
	mkdir -p /tmp/src/small || return 1
	for f in 1 2 3; do
		dd if=/dev/urandom of=/tmp/src/big$f bs=1M count=$((f * 33)) 2>/dev/null || return 1
	done
	i=0
	while [ $i -lt 500 ]; do
		head -c $((i * 53 + 7)) /dev/urandom >/tmp/src/small/$((i % 2))-$i ||
			return 1
		i=$((i + 1))
	done
	(cd /tmp/src && find . -type f | sort | xargs sha256sum) >/tmp/src.sums || return 1
	# shellcheck disable=SC2086
	/bin/mkfs.f2fs $MKFS_ARGS >/tmp/mkfs.out 2>&1 || return 1
	/bin/sload.f2fs -f /tmp/src "$VOL" >/tmp/sload.out 2>&1 || return 2
	/bin/fsck.f2fs "$VOL" >/tmp/fsck-s.out 2>&1 || return 3
	mount -t f2fs "$VOL" "$MNT" && (cd "$MNT" && sha256sum -c -s /tmp/src.sums) || return 4
	umount "$MNT" || return 4
	check_dmesg "after reading the loaded tree"
}
if [ ! -x /bin/sload.f2fs ]; then
	case_line sload SKIP "no sload.f2fs"
else
	sload_case
	case $? in
	0) case_line sload PASS ;;
	2) case_line sload FAIL "sload: $(tail -n 1 /tmp/sload.out)" ;;
	3) case_line sload FAIL "our fsck after sload: $(grep -m 1 'PR_' /tmp/fsck-s.out)" ;;
	4) case_line sload FAIL "the kernel did not read back the loaded tree" ;;
	*) case_line sload FAIL "could not make the tree or the volume" ;;
	esac
fi
rm -rf /tmp/src

# replay: the engine's scheduler keeps each zone's writes in order, the write path resets freed zones
replay_trace() {
	echo "0 x bg+loop create /x%n"
	echo "- x bg+loop write /x%n 64K"
	echo "- x bg+loop fsync /x%n"
	echo "- x bg+loop unlink /x%n"
	i=0
	while [ $i -lt 8 ]; do
		echo "- w fg create /f$i"
		echo "- w fg write /f$i 96M"
		echo "- w fg fsync /f$i"
		[ $i -ge 2 ] && echo "- w fg unlink /f$((i - 2))"
		echo "- w fg sync"
		i=$((i + 1))
	done
}
replay_case() {
	replay_trace >/tmp/zoned.trace
	timeout 240 /bin/f2fs_io replay --mkfs "$REPLAY_MKFS" --no-progress --zone-reset-ms 1 \
		--trace /tmp/zoned.trace "$VOL" >/tmp/replay.out 2>&1
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/@@REPLAY /' /tmp/replay.out
	[ $rc -eq 0 ] || return 2
	resets=$(sed -n 's/^zones: \([0-9]*\) reset.*/\1/p' /tmp/replay.out)
	[ "${resets:-0}" -gt 0 ] || return 3
	/bin/fsck.f2fs "$VOL" >/tmp/fsck-r.out 2>&1 || return 4
	mount -t f2fs "$VOL" "$MNT" || return 5
	find "$MNT" -type f -exec cat {} + >/dev/null || return 5
	dd if=/dev/urandom of="$MNT/after-replay" bs=1M count=8 2>/dev/null || return 5
	umount "$MNT" || return 5
	check_dmesg "after the replayed volume was used"
	/bin/fsck.f2fs "$VOL" >/tmp/fsck-r.out 2>&1 || return 4
}
if [ ! -x /bin/f2fs_io ]; then
	case_line replay SKIP "no f2fs_io"
else
	replay_case
	case $? in
	0)
		echo "@@NOTE replay: $(grep '^elapsed' /tmp/replay.out), $(grep '^zones:' /tmp/replay.out)"
		case_line replay PASS
		;;
	2) case_line replay FAIL "f2fs_io replay: $(tail -n 1 /tmp/replay.out)" ;;
	3) case_line replay FAIL "no zone reset reported: $(grep '^zones:' /tmp/replay.out)" ;;
	4) case_line replay FAIL "our fsck: $(grep -m 1 'PR_' /tmp/fsck-r.out)" ;;
	*) case_line replay FAIL "the kernel could not use the replayed volume" ;;
	esac
fi
echo "@@JOB-OK@@"
