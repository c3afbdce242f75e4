#!/bin/bash
# resize.f2fs on a volume of two devices, judged by the kernel.  The
# superblock records the paths the kernel opens the devices by, so the
# volume is made inside the guest on its two virtio disks (/dev/vda first,
# with the metadata; /dev/vdb last), 128 MiB each; jobs/resize-multi.sh
# lists the cases.  Boot 1 makes it, the kernel fills it, both fscks find
# it clean.  The host then gives /dev/vdb a backing file of 384 MiB; boot 2
# grows the volume into it with our resize.f2fs (the device table
# following), both fscks clean, the kernel mounts it, sees the new size,
# reads every file back, writes more than the old volume had free,
# unmounts, both fscks clean, a second mount reads it all; then it shrinks
# within /dev/vdb with -s, with the same verdicts.
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
GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}

# phase PHASE CASE...: one boot running PHASE; the CASEs fail with the boot's reason
phase() {
	local p=$1 c
	shift
	GUEST_JOB_ENV="PHASE=$p"
	GUEST_EXTRA_DRIVES="file=$work/vdb.img,format=raw,if=virtio"
	if ! guest_run "$work/vda.img" "$here/jobs/resize-multi.sh" "${bins[@]}" &&
		! grep -aq '^@@CASE ' "$guest_log"; then
		for c in "$@"; do fail "resize-multi/$c" "kernel: $guest_error"; done
		return 1
	fi
	case_results "$guest_log" resize-multi
	[ -z "$guest_error" ] || fail "resize-multi/$p" "$guest_error"
	! grep -aq '^@@CASE [^ ]* FAIL' "$guest_log"
}

main() {
	local -a bins=("$MKFS" "$OUR_FSCK" "$DUMP" "$RESIZE")
	start_work resize-multi
	need_executable "$MKFS" "$OUR_FSCK" "$DUMP" "$RESIZE"
	[ -x "$NEWEST_FSCK" ] && cp "$NEWEST_FSCK" "$work/fsck_new" && bins+=("$work/fsck_new")
	truncate -s 128M "$work/vda.img" "$work/vdb.img"
	if phase fill made; then
		truncate -s 384M "$work/vdb.img"
		phase grow grown grown-clean kernel-grown shrunk
	fi
	finish_work '*.img'
}

main "$@"
