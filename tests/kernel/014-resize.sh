#!/bin/bash
# resize.f2fs, judged by the kernel.  The kernel fills a volume made by our
# mkfs (jobs/resize.sh, PHASE=fill); on the host both fscks must find it
# clean, our resize.f2fs grows it to twice its size, and both fscks must
# find it clean again.  The kernel then mounts it, must see the new size,
# read every file back as written (checksums), write more, delete some and
# read the rest (PHASE=verify); both fscks clean.  Then the volume shrinks
# back to its first size with -s, the image is cut to it, and the same
# verify boot and fsck verdicts follow.
#
# Sizes: the default is 1 GiB with 16 segments per section (-s 128 needs
# about 6.5 GiB, ours and upstream's mkfs alike, and 1 GiB -s 16 leaves
# users about 216 MiB); RESIZE_LONG=1 (scripts/test-all.sh --long) runs
# 8 GiB -s 128 grown to 16 GiB.
#
# Environment: MKFS, OUR_FSCK, OUR_RESIZE (ours, defaults in the tree),
# UPSTREAM_FSCK (default newest upstream's when built, else /usr/sbin/fsck.f2fs),
# RESIZE_LONG (default 0), plus guest.sh's
# GUEST_*.  Output: one PASS/FAIL line per step; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
RESIZE=${OUR_RESIZE:-$repo/resize/resize.f2fs}
# newest upstream's fsck when it is built, else Debian's
NEWEST_FSCK=/work/upstream-f2fs-tools/fsck/fsck.f2fs
[ -x "$NEWEST_FSCK" ] || NEWEST_FSCK=/usr/sbin/fsck.f2fs
UPSTREAM_FSCK=${UPSTREAM_FSCK:-$NEWEST_FSCK}
if [ "${RESIZE_LONG:-0}" = 1 ]; then
	MIB=8192 SEGS=128 GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800}
else
	MIB=1024 SEGS=16 GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
fi
NAME=resize/${MIB}M-s$SEGS

need_executable "$MKFS" "$FSCK" "$RESIZE"
start_work resize
img=$work/vol.img

declare -A why=()

# boot PHASE WANT_MIB: one verify or fill boot; on failure the reason in why[boot]
boot() {
	GUEST_JOB_ENV="PHASE=$1
WANT_MIB=$2
FILL_PCT=50
WRITE_PCT=20"
	guest_run "$img" "$here/jobs/resize.sh" && return 0
	why[boot]="kernel ($1 at $2 MiB): $guest_error"
	return 1
}

# step NAME CMD...: run CMD, PASS or FAIL NAME; false when it failed
step() {
	local name=$1
	shift
	if "$@"; then
		pass "$NAME/$name"
		return 0
	fi
	fail "$NAME/$name" "${why[boot]:-${why[$name]:-failed}}"
	return 1
}

resize_to() {
	if ! "$RESIZE" -F "$@" "$img" </dev/null >"$work/resize.log" 2>&1; then
		why[$RESIZE_STEP]="resize.f2fs $*: $(tail -n 1 "$work/resize.log")"
		return 1
	fi
}

made() {
	truncate -s "${MIB}M" "$img" &&
		"$MKFS" -q -f -s "$SEGS" "$img" </dev/null >"$work/mkfs.log" 2>&1 && boot fill "$MIB"
}

grown() {
	RESIZE_STEP=grown
	truncate -s "$((2 * MIB))M" "$img" && resize_to && clean_or_why grown "$img" after-grow
}

shrunk() {
	RESIZE_STEP=shrunk
	resize_to -s -t $((MIB * 2048)) && truncate -s "${MIB}M" "$img" &&
		clean_or_why shrunk "$img" after-shrink
}

step filled made && step filled-clean clean_or_why filled-clean "$img" filled &&
	step grown grown && step kernel-reads-grown boot verify $((2 * MIB)) &&
	step grown-written-clean clean_or_why grown-written-clean "$img" grown-written &&
	step shrunk shrunk && step kernel-reads-shrunk boot verify "$MIB" &&
	step shrunk-written-clean clean_or_why shrunk-written-clean "$img" shrunk-written
finish_work '*.img'
