#!/bin/sh
# Guest job of bench/zoned.sh: our mkfs.f2fs -m and fsck.f2fs against newest
# upstream's (/bin/mkfs_new, /bin/fsck_new) on a real zoned device.
# KIND=smr: null_blk host-managed (/dev/nullb0); KIND=zns: an NVMe ZNS
# namespace with /dev/vda for the metadata.  RUNS runs per tool, taking
# turns (who goes first alternates).  Times come from /proc/uptime (10 ms).
# Prints "@@BENCH tool what run seconds" lines.  Busybox sh only.
JOB_NAME=zoned-bench
. /job-common.sh

case $KIND in
smr) VOL=/dev/nullb0; ARGS="-f -q -m /dev/nullb0" ;;
zns) VOL=/dev/vda; ARGS="-f -q -m -c /dev/nvme0n1 /dev/vda" ;;
*) fail "KIND must be smr or zns" ;;
esac
i=0
while [ ! -b /dev/nullb0 ] && [ ! -b /dev/nvme0n1 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
mkdir -p /tmp/up
ln -s /bin/mkfs_new /tmp/up/mkfs.f2fs
ln -s /bin/fsck_new /tmp/up/fsck.f2fs

# timed TOOL WHAT CMD...: one "@@BENCH" line for the command's time
timed() {
	tool=$1 what=$2
	shift 2
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@" >/tmp/out 2>&1 || { tail -n 3 /tmp/out; fail "$tool $what failed"; }
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "@@BENCH $tool $what $run $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
}

mkfs_of() {
	if [ "$1" = ours ]; then echo /bin/mkfs.f2fs; else echo /tmp/up/mkfs.f2fs; fi
}
fsck_of() {
	if [ "$1" = ours ]; then echo /bin/fsck.f2fs; else echo /tmp/up/fsck.f2fs; fi
}

run=1
while [ $run -le "$RUNS" ]; do
	order="ours upstream"
	[ $((run % 2)) = 0 ] && order="upstream ours"
	for t in $order; do
		# shellcheck disable=SC2086
		timed "$t" mkfs $(mkfs_of "$t") $ARGS
	done
	run=$((run + 1))
done

# A volume filled to 80% by the kernel: 10,000 small files and big ones.
# shellcheck disable=SC2086
/bin/mkfs.f2fs $ARGS >/dev/null 2>&1 || fail "mkfs for the fill"
mount -t f2fs "$VOL" "$MNT" || fail "mount"
avail=$(df -k "$MNT" | awk 'NR == 2 { print $4 }')
want=$((avail * 8 / 10))
mkdir "$MNT/small"
i=0
while [ $i -lt 10000 ]; do
	echo "$i" >"$MNT/small/f$i"
	i=$((i + 1))
done
n=0
while [ $(((n + 1) * 64 * 1024)) -lt "$want" ]; do
	dd if=/dev/zero of="$MNT/big$n" bs=1M count=64 2>/dev/null || break
	n=$((n + 1))
done
sync
echo "@@FILL $(df -k "$MNT" | awk 'NR == 2 { print $3 " of " $2 }') KiB, $n big files"
umount "$MNT" || fail "umount"

run=1
while [ $run -le "$RUNS" ]; do
	order="ours upstream"
	[ $((run % 2)) = 0 ] && order="upstream ours"
	for t in $order; do
		if [ "$t" = ours ]; then
			timed ours fsck /bin/fsck.f2fs -n "$VOL"
		else
			timed upstream fsck /tmp/up/fsck.f2fs --dry-run -f "$VOL"
		fi
	done
	run=$((run + 1))
done
echo "@@JOB-OK@@"
