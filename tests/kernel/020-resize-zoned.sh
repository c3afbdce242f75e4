#!/bin/bash
# resize.f2fs on a zoned volume, judged by the kernel: in one boot
# (jobs/resize-zoned.sh, its header lists the cases) our mkfs -m makes a
# volume of half a host-managed null_blk device (1 GiB in 8 MiB zones, 4
# conventional), the kernel fills part of it, a zone past its end gets
# stale data, our resize.f2fs refuses to grow it without -f and grows it
# by whole zones with -f; both fscks must find it clean, and the kernel
# must see the new size, read every file, write more than the old volume
# held, unmount without a complaint, and read it all back.  Then the
# volume shrinks to 3/8 of the device by whole zones (-f -s; refused
# without -f), moving a file written past the new end, with the same
# verdicts.
#
# Environment: MKFS, OUR_FSCK, DUMP, OUR_RESIZE (ours, defaults in the
# tree), UPSTREAM_NEWEST_FSCK (default ../upstream-f2fs-tools), plus
# guest.sh's GUEST_*.  Output: one PASS/FAIL line per case; exit 1 if any
# failed.
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
RESIZE=${OUR_RESIZE:-$repo/resize/resize.f2fs}
NEWEST_FSCK=${UPSTREAM_NEWEST_FSCK:-$(dirname "$repo")/upstream-f2fs-tools/fsck/fsck.f2fs}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-600}
CASES="made refused grown grown-clean kernel-grown shrunk shrunk-clean kernel-shrunk"

main() {
	local disk c
	local -a bins=("$MKFS" "$OUR_FSCK" "$DUMP" "$RESIZE")
	start_work resize-zoned
	need_executable "$MKFS" "$OUR_FSCK" "$DUMP" "$RESIZE"
	[ -x "$NEWEST_FSCK" ] && cp "$NEWEST_FSCK" "$work/fsck_new" && bins+=("$work/fsck_new")
	disk=$work/unused.img
	truncate -s 64M "$disk"
	GUEST_EXTRA_MODULES="configfs null_blk:nr_devices=1,zoned=1,zone_size=8,zone_nr_conv=4,gb=1,memory_backed=1,bs=4096"
	GUEST_QEMU_ARGS=
	if ! GUEST_MEM=2048 guest_run "$disk" "$here/jobs/resize-zoned.sh" "${bins[@]}" &&
		! grep -aq '^@@CASE ' "$guest_log"; then
		for c in $CASES; do fail "resize-zoned/$c" "kernel: $guest_error"; done
	else
		case_results "$guest_log" resize-zoned
		[ -n "$guest_error" ] && fail resize-zoned/job "$guest_error"
	fi
	finish_work '*.img'
}

main "$@"
