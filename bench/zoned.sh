#!/bin/bash
# Benchmark our mkfs.f2fs -m and fsck.f2fs against newest upstream's on real
# zoned devices, inside the qemu guest of tests/kernel (the host has none):
#   smr  null_blk host-managed, 8 GiB in 256 MiB zones, 4 conventional
#   zns  qemu NVMe ZNS, 8 GiB in 128 MiB zones of 96 MiB, metadata on vda
# In one boot per device (zone state does not survive a restart), each tool
# formats the device BENCH_RUNS times (mkfs -m, taking turns), then the
# kernel fills a volume to 80% (10,000 small files and 64 MiB ones) and
# each tool checks it BENCH_RUNS times (ours fsck -n, upstream --dry-run -f,
# both read-only).  Reported per tool and case: the median seconds in the
# guest (TCG, about ten times slower than the host: compare the ratio, not
# the seconds), and ours / upstream.
#
# Environment: MKFS, FSCK (ours, defaults in the tree); UPSTREAM_DIR
# (newest upstream built by bench/build-upstream.sh, default
# ../upstream-f2fs-tools); BENCH_RUNS (default 5); BENCH_KINDS (default
# "smr zns"); plus tests/kernel/guest.sh's GUEST_*.  Exit 0 when every run
# of both tools succeeded, 1 otherwise, 2 on a setup problem.
set -u -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../tests/kernel/guest.sh
. "$top/tests/kernel/guest.sh"
ours_mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
ours_fsck=${FSCK:-$top/fsck/fsck.f2fs}
updir=${UPSTREAM_DIR:-$(dirname "$top")/upstream-f2fs-tools}
runs=${BENCH_RUNS:-5}
kinds=${BENCH_KINDS:-smr zns}

die() {
	echo "bench/zoned.sh: $*" >&2
	exit 2
}
for f in "$ours_mkfs" "$ours_fsck" "$updir/mkfs/mkfs.f2fs" "$updir/fsck/fsck.f2fs"; do
	[ -x "$f" ] || die "$f is not executable (build newest upstream with bench/build-upstream.sh)"
done
guest_init || die "no guest: $guest_error"
work=$(mktemp -d "${TMPDIR:-/tmp}/zoned-bench.XXXXXX") || die "no work directory"
trap 'rm -rf "$work"' EXIT
cp "$updir/mkfs/mkfs.f2fs" "$work/mkfs_new" && cp "$updir/fsck/fsck.f2fs" "$work/fsck_new" ||
	die "cannot copy upstream's tools"

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

status=0
printf '%-5s %-5s %10s %10s %7s\n' kind what ours_s upstream_s ratio
for kind in $kinds; do
	truncate -s 256M "$work/meta.img"
	GUEST_QEMU_ARGS=
	if [ "$kind" = smr ]; then
		GUEST_EXTRA_MODULES="configfs null_blk:nr_devices=1,zoned=1,zone_size=256,zone_nr_conv=4,gb=8,memory_backed=1,bs=4096"
		mem=10240
	else
		rm -f "$work/zns.img"
		truncate -s 8G "$work/zns.img"
		GUEST_EXTRA_MODULES="crct10dif_common crct10dif_generic crc-t10dif crc64 crc64_rocksoft_generic crc64-rocksoft t10-pi nvme-core nvme"
		GUEST_QEMU_ARGS="-drive file=$work/zns.img,id=z0,format=raw,if=none -device nvme,serial=zns0,id=nvme0 -device nvme-ns,drive=z0,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=128M,zoned.zone_capacity=96M"
		mem=2048
	fi
	GUEST_JOB_ENV="KIND=$kind
RUNS=$runs"
	if ! GUEST_MEM=$mem GUEST_TIMEOUT=3600 guest_run "$work/meta.img" "$top/bench/jobs/zoned.sh" \
		"$ours_mkfs" "$ours_fsck" "$work/mkfs_new" "$work/fsck_new"; then
		echo "bench/zoned.sh: $kind: $guest_error" >&2
		status=1
		continue
	fi
	grep -a '^@@FILL ' "$guest_log" | sed "s/^@@FILL /# $kind: filled /" >&2
	for what in mkfs fsck; do
		o=$(grep -a "^@@BENCH ours $what " "$guest_log" | awk '{ print $5 }' | median)
		u=$(grep -a "^@@BENCH upstream $what " "$guest_log" | awk '{ print $5 }' | median)
		printf '%-5s %-5s %10s %10s %7s\n' "$kind" "$what" "$o" "$u" \
			"$(awk -v a="$o" -v b="$u" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
done
exit $status
