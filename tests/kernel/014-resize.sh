#!/bin/bash
# resize.f2fs, judged by the kernel.  Two volumes made by our mkfs, one
# boot for both per phase (jobs/resize.sh, once per disk):
#
#   large      large sections (-s 16; -s 128 with RESIZE_LONG=1)
#   main-moves -s 2, sized so that growing it grows the NAT and SSA past
#              their zone: the main area then starts later, and the blocks
#              where it used to start move first (the cleaner's path)
#
# The kernel fills half of each (PHASE=fill); on the host both fscks must
# find it clean, our resize.f2fs grows it to twice its size (relocating the
# metadata areas to the old main area's start, the all-or-nothing grow), and both
# fscks must find it clean again.  The kernel then mounts it, must see the
# new size, read every file back as written (checksums), delete some,
# write more and read everything again (PHASE=verify); both fscks clean.
# Then each volume shrinks to one and a half times its first size with -s
# (relocating the metadata areas again, sized for the new size: the
# all-or-nothing shrink, which moves the blocks past the new end first),
# the image is cut to it, and the same verify boot and fsck verdicts
# follow; then back to its first size with -f -s (in place, over the
# relocated areas, as upstream shrinks), with the same verdicts.
#
# Sizes: by default "large" is 1 GiB -s 16 (-s 128 needs about 6.5 GiB,
# ours and upstream's mkfs alike) and main-moves 512 MiB -s 2;
# RESIZE_LONG=1 (scripts/test-all.sh --long) makes "large" 8 GiB -s 128.
#
# Environment: MKFS, OUR_FSCK, OUR_RESIZE (ours, defaults in the tree),
# UPSTREAM_FSCK (default newest upstream's when built, else
# /usr/sbin/fsck.f2fs), RESIZE_LONG (default 0), plus guest.sh's GUEST_*.
# Output: one PASS/FAIL line per volume and step; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034,SC2317 # GUEST_* are read by guest.sh; each() calls the step functions
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
NEWEST_FSCK=/work/upstream-f2fs-tools/fsck/fsck.f2fs
[ -x "$NEWEST_FSCK" ] || NEWEST_FSCK=/usr/sbin/fsck.f2fs
UPSTREAM_FSCK=${UPSTREAM_FSCK:-$NEWEST_FSCK}
VOLS=(large main-moves)
if [ "${RESIZE_LONG:-0}" = 1 ]; then
	declare -A mib=([large]=8192 [main-moves]=512) segs=([large]=128 [main-moves]=2)
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800}
else
	declare -A mib=([large]=1024 [main-moves]=512) segs=([large]=16 [main-moves]=2)
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
fi
STEPS=(filled filled-clean grown grown-clean kernel-reads-grown grown-written-clean shrunk
	shrunk-clean kernel-reads-shrunk shrunk-written-clean shrunk-in-place
	shrunk-in-place-clean kernel-reads-shrunk-in-place shrunk-in-place-written-clean)

all_names() {
	local v s
	for v in "${VOLS[@]}"; do
		for s in "${STEPS[@]}"; do
			echo "resize/$v/$s"
		done
	done
}

need_executable "$MKFS" "$FSCK" "$RESIZE"
start_work resize

declare -A why=() dead=()

img() { echo "$work/$1.img"; }

# verdict VOL STEP OK: PASS or FAIL resize/VOL/STEP; a failed step ends the volume's run
verdict() {
	if [ "$3" = 0 ]; then
		pass "resize/$1/$2"
	else
		fail "resize/$1/$2" "${why[$1]:-failed}"
		dead[$1]=1
	fi
}

# boot PHASE STEP WANT-PCT: one boot for the volumes still going; WANT is
# the volume's size now, in MiB (WANT-PCT percent of its first size)
boot() {
	local v i live=()
	GUEST_EACH_IMAGES=() GUEST_EACH_ENV=()
	for v in "${VOLS[@]}"; do
		[ -z "${dead[$v]:-}" ] || continue
		live+=("$v")
		GUEST_EACH_IMAGES+=("$(img "$v")")
		GUEST_EACH_ENV+=("PHASE=$1
WANT_MIB=$((mib[$v] * $3 / 100))
FILL_PCT=50
WRITE_PCT=20")
	done
	[ ${#live[@]} -gt 0 ] || return
	guest_run_each "$here/jobs/resize.sh"
	for i in "${!live[@]}"; do
		why[${live[i]}]="kernel: ${guest_each_error[i]}"
		verdict "${live[i]}" "$2" "$([ -z "${guest_each_error[i]}" ] && echo 0 || echo 1)"
	done
}

# each STEP FN: FN VOL for the volumes still going, judged as STEP
each() {
	local v
	for v in "${VOLS[@]}"; do
		[ -z "${dead[$v]:-}" ] || continue
		why[$v]=
		"$2" "$v"
		verdict "$v" "$1" $?
	done
}

make_vol() {
	local f
	f=$(img "$1")
	rm -f "$f"
	truncate -s "${mib[$1]}M" "$f" &&
		"$MKFS" -q -f -s "${segs[$1]}" "$f" </dev/null >"$work/$1-mkfs.log" 2>&1 && return 0
	why[$1]="mkfs: $(tail -n 1 "$work/$1-mkfs.log")"
	return 1
}

resize_vol() {
	local v=$1 f
	shift
	f=$(img "$v")
	"$RESIZE" -F "$@" "$f" </dev/null >"$work/$v-resize.log" 2>&1 && return 0
	why[$v]="resize.f2fs $*: $(tail -n 1 "$work/$v-resize.log")"
	return 1
}

grow_vol() {
	truncate -s "$((2 * mib[$1]))M" "$(img "$1")" && resize_vol "$1" || return 1
	[ "$1" != main-moves ] || grep -q 'blocks moved' "$work/$1-resize.log" && return 0
	why[$1]="no block moved: $(grep -m1 block_count "$work/$1-resize.log")"
	return 1
}

# to 3/2 of the first size, relocating (all or nothing)
shrink_vol() {
	local to=$((mib[$1] * 3 / 2))
	resize_vol "$1" -s -t $((to * 2048)) || return 1
	if ! grep -q 'metadata relocated' "$work/$1-resize.log"; then
		why[$1]="not relocated: $(grep -m1 block_count "$work/$1-resize.log")"
		return 1
	fi
	grep -q 'blocks moved' "$work/$1-resize.log" || {
		why[$1]="no block moved: $(grep -m1 block_count "$work/$1-resize.log")"
		return 1
	}
	truncate -s "${to}M" "$(img "$1")"
}

# back to the first size in place, as upstream shrinks
shrink_in_place_vol() {
	resize_vol "$1" -f -s -t $((mib[$1] * 2048)) && truncate -s "${mib[$1]}M" "$(img "$1")"
}

clean_filled() { clean_or_why "$1" "$(img "$1")" filled; }
clean_grown() { clean_or_why "$1" "$(img "$1")" grown; }
clean_grown_written() { clean_or_why "$1" "$(img "$1")" grown-written; }
clean_shrunk() { clean_or_why "$1" "$(img "$1")" shrunk; }
clean_shrunk_written() { clean_or_why "$1" "$(img "$1")" shrunk-written; }
clean_in_place() { clean_or_why "$1" "$(img "$1")" shrunk-in-place; }
clean_in_place_written() { clean_or_why "$1" "$(img "$1")" shrunk-in-place-written; }

for v in "${VOLS[@]}"; do
	make_vol "$v" || { fail "resize/$v/filled" "${why[$v]}"; dead[$v]=1; }
done
boot fill filled 100
each filled-clean clean_filled
each grown grow_vol
each grown-clean clean_grown
boot verify kernel-reads-grown 200
each grown-written-clean clean_grown_written
each shrunk shrink_vol
each shrunk-clean clean_shrunk
boot verify kernel-reads-shrunk 150
each shrunk-written-clean clean_shrunk_written
each shrunk-in-place shrink_in_place_vol
each shrunk-in-place-clean clean_in_place
boot verify kernel-reads-shrunk-in-place 100
each shrunk-in-place-written-clean clean_in_place_written
finish_work '*.img'
