#!/bin/bash
# Zoned volumes on real zoned block devices, inside the guest (the host has
# none): our mkfs, fsck and dump run there, on
#   smr  a host-managed null_blk device: 8 GiB in 256 MiB zones (a -s 128
#        section each), the first 4 conventional, memory-backed
#   zns  a qemu NVMe ZNS namespace: 8 GiB in 128 MiB zones of 96 MiB
#        capacity, with a 256 MiB virtio disk for the metadata (-m -c)
# jobs/zoned.sh makes the volume, checks it, lets the kernel write and
# delete across several zones, checks it again and reads it back, then
# resets a zone the volume writes behind its back (util-linux blkzone) and
# has our fsck flag and repair it before the kernel uses it again, loads a
# tree with our sload and replays a workload with f2fs_io replay (its
# header lists the cases).  Here the layout our mkfs wrote (dump.f2fs -d 1)
# is compared field by field with newest upstream's for the same device:
# with upstream's mkfs built beside the repository it runs in the same boot
# and the checked-in table (zoned-layout.expected) must also be what it
# wrote; without it (CI), with the table.  ZONED_WRITE_EXPECTED=1 with
# newest upstream built rewrites the table's rows from what it wrote.
#
# Environment: MKFS, OUR_FSCK, DUMP, OUR_SLOAD, F2FS_IO (ours, defaults in the tree),
# UPSTREAM_NEWEST_MKFS / UPSTREAM_NEWEST_FSCK (default
# ../upstream-f2fs-tools), ZONED_CASES (default "smr zns"), plus guest.sh's
# GUEST_*.  Output: one PASS/FAIL/SKIP line per case; exit 1 if any failed.
# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
OUR_FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
DUMP=${DUMP:-$repo/dump/dump.f2fs}
OUR_SLOAD=${OUR_SLOAD:-$repo/sload/sload.f2fs}
F2FS_IO=${F2FS_IO:-$repo/tools/f2fs_io/f2fs_io}
newest=$(dirname "$repo")/upstream-f2fs-tools
NEWEST_MKFS=${UPSTREAM_NEWEST_MKFS:-$newest/mkfs/mkfs.f2fs}
NEWEST_FSCK=${UPSTREAM_NEWEST_FSCK:-$newest/fsck/fsck.f2fs}
KINDS=${ZONED_CASES:-smr zns}
BLKZONE=${BLKZONE:-$(command -v blkzone || echo /usr/sbin/blkzone)}
EXPECTED=$here/zoned-layout.expected
JOB=$here/jobs/zoned.sh
STEPS="mkfs layout layout-up fsck-fresh kernel-write fsck-after dump-zones remount-read wp-flagged
	wp-repair wp-kernel sload replay"

all_names() {
	local k s
	for k in $KINDS; do
		for s in $STEPS; do echo "zoned/$k/$s"; done
	done
}

# layout_of LOG MARK: the layout fields of the dump lines marked MARK.
layout_of() {
	grep -a "^$2 " "$1" | sed "s/^$2 //" | "$repo/scripts/layout-fields.sh"
}

# write_table KIND FIELDS: the table's KIND rows become FIELDS.
write_table() {
	{
		grep -v "^$1|" "$EXPECTED" 2>/dev/null || true
		sed "s/^/$1|/" "$2"
	} >"$work/table.new" && mv "$work/table.new" "$EXPECTED"
	info "wrote the $1 rows of $EXPECTED"
}

# check_layout KIND LOG: ours against newest upstream's of the same boot,
# when it ran, and against the table (which it must also match).
check_layout() {
	local kind=$1 log=$2 name=zoned/$1/layout
	layout_of "$log" @@LAYOUT >"$work/$kind.ours"
	awk -F'|' -v k="$kind" '$1 == k { print $2 }' "$EXPECTED" >"$work/$kind.table"
	if [ ! -s "$work/$kind.ours" ]; then
		fail "$name" "no layout in the guest's output"
		return
	fi
	if grep -aq '^@@LAYOUT-UP ' "$log"; then
		layout_of "$log" @@LAYOUT-UP >"$work/$kind.up"
		if ! diff "$work/$kind.up" "$work/$kind.ours" >"$work/$kind.diff"; then
			fail "$name" "differs from newest upstream's: $(grep '^[<>]' "$work/$kind.diff" | head -n 4 | tr '\n' ' ')"
			return
		fi
		if [ "${ZONED_WRITE_EXPECTED:-0}" = 1 ]; then
			write_table "$kind" "$work/$kind.up"
		elif ! diff -q "$work/$kind.up" "$work/$kind.table" >/dev/null; then
			fail "$name" "zoned-layout.expected is not what newest upstream writes: rerun with ZONED_WRITE_EXPECTED=1"
			return
		fi
	elif ! diff "$work/$kind.table" "$work/$kind.ours" >"$work/$kind.diff"; then
		fail "$name" "differs from zoned-layout.expected: $(grep '^[<>]' "$work/$kind.diff" | head -n 4 | tr '\n' ' ')"
		return
	fi
	pass "$name"
}

# run_kind KIND: one boot on that kind of device.
run_kind() {
	local kind=$1 meta=$work/$1-meta.img zns=$work/$1-zns.img
	local -a bins=("$MKFS" "$OUR_FSCK" "$DUMP" "$OUR_SLOAD" "$F2FS_IO")
	[ -x "$BLKZONE" ] && bins+=("$BLKZONE")
	[ -x "$NEWEST_MKFS" ] && cp "$NEWEST_MKFS" "$work/mkfs_new" && bins+=("$work/mkfs_new")
	[ -x "$NEWEST_FSCK" ] && cp "$NEWEST_FSCK" "$work/fsck_new" && bins+=("$work/fsck_new")
	truncate -s 256M "$meta"
	GUEST_EXTRA_MODULES= GUEST_QEMU_ARGS=
	if [ "$kind" = smr ]; then
		GUEST_EXTRA_MODULES="configfs null_blk:nr_devices=1,zoned=1,zone_size=256,zone_nr_conv=4,gb=8,memory_backed=1,bs=4096"
	else
		truncate -s 8G "$zns"
		GUEST_EXTRA_MODULES="crct10dif_common crct10dif_generic crc-t10dif crc64 crc64_rocksoft_generic crc64-rocksoft t10-pi nvme-core nvme"
		GUEST_QEMU_ARGS="-drive file=$zns,id=z0,format=raw,if=none -device nvme,serial=zns0,id=nvme0 -device nvme-ns,drive=z0,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=128M,zoned.zone_capacity=96M"
	fi
	GUEST_JOB_ENV="KIND=$kind"
	if ! GUEST_MEM=2048 guest_run "$meta" "$JOB" "${bins[@]}" &&
		! grep -aq '^@@CASE ' "$guest_log"; then
		for s in $STEPS; do fail "zoned/$kind/$s" "kernel: $guest_error"; done
		return
	fi
	case_results "$guest_log" "zoned/$kind"
	if grep -aq '^@@CASE mkfs PASS' "$guest_log"; then
		check_layout "$kind" "$guest_log"
	else
		skip "zoned/$kind/layout" "mkfs failed"
	fi
	[ -n "$guest_error" ] && fail "zoned/$kind/job" "$guest_error"
	rm -f "$meta" "$zns"
}

main() {
	local k
	start_work zoned
	need_executable "$MKFS" "$OUR_FSCK" "$DUMP" "$OUR_SLOAD" "$F2FS_IO"
	for k in $KINDS; do run_kind "$k"; done
	finish_work '*.img'
}

main "$@"
