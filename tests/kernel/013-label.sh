#!/bin/bash
# f2fslabel, judged by the kernel.  Two volumes holding the tree of
# tests/fsck loaded by our sload, each given a label by our f2fslabel:
#
#   label/utf8      a label beyond ASCII ("ng ✓ étiquette")
#   label/cleared   a label set by mkfs, then cleared (f2fslabel DEV "")
#
# Before the guest, both our fsck and upstream's must find each clean.  In
# one boot (jobs/label.sh, once per disk) the kernel mounts each, and its
# FS_IOC_GETFSLABEL must return the label we wrote; it reads every file,
# sets a label of its own (FS_IOC_SETFSLABEL), writes a file and unmounts.
# After that our f2fslabel must print the kernel's label, and both fscks
# must find each clean.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD, F2FSLABEL (ours, defaults in the
# tree), UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), plus guest.sh's
# GUEST_*.  Output: one PASS/FAIL/SKIP line per case; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=../fsck/lib.sh
. "$repo/tests/fsck/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
SLOAD=${OUR_SLOAD:-$repo/sload/sload.f2fs}
LABEL=${F2FSLABEL:-$repo/label/f2fslabel}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-240}
CASES=(label/utf8 label/cleared)
declare -A set_to=([utf8]='ng ✓ étiquette' [cleared]='')
declare -A kernel_sets=([utf8]='set-by-kernel' [cleared]='kernel ✓')

all_names() { printf '%s\n' "${CASES[@]}"; }

need_executable "$MKFS" "$FSCK" "$SLOAD" "$LABEL"
start_work label
cases_tree "$work/tree" || CI=true abandon "cannot make the tree"
cc -O2 -o "$work/fslabel" "$here/tools/fslabel.c" 2>"$work/cc.log" ||
	CI=true abandon "cannot build fslabel: $(head -n 1 "$work/cc.log")"

declare -A why=()

# label_is NAME IMG TEXT WHEN: our f2fslabel prints TEXT for IMG
label_is() {
	local out
	out=$("$LABEL" "$2" 2>&1)
	[ "$out" = "Info: volume label = $3" ] && return 0
	why[$1]="f2fslabel $4: '$out', want '$3'"
	return 1
}

prepare() {
	local name=$1 img=$work/$1.img
	rm -f "$img"
	truncate -s 256M "$img" &&
		"$MKFS" -q -f -l before "$img" </dev/null >/dev/null 2>&1 &&
		"$SLOAD" -f "$work/tree" "$img" </dev/null >/dev/null 2>&1 ||
		{ why[$name]="mkfs or sload failed"; return 1; }
	if ! "$LABEL" "$img" "${set_to[$name]}" </dev/null >"$work/$name-set.log" 2>&1; then
		why[$name]="f2fslabel failed: $(head -n 1 "$work/$name-set.log")"
		return 1
	fi
	label_is "$name" "$img" "${set_to[$name]}" before && clean_or_why "$name" "$img" before
}

GUEST_EACH_IMAGES=() GUEST_EACH_ENV=()
for c in "${CASES[@]}"; do
	n=${c#label/}
	prepare "$n"
	GUEST_EACH_IMAGES+=("$work/$n.img")
	GUEST_EACH_ENV+=("WANT='${set_to[$n]}'
KERNEL_LABEL='${kernel_sets[$n]}'")
done

guest_run_each "$here/jobs/label.sh" "$work/fslabel"
for i in "${!CASES[@]}"; do
	n=${CASES[i]#label/}
	if [ -n "${why[$n]:-}" ]; then
		fail "${CASES[i]}" "${why[$n]}"
	elif [ -n "${guest_each_error[i]}" ]; then
		fail "${CASES[i]}" "kernel: ${guest_each_error[i]}"
	elif ! label_is "$n" "$work/$n.img" "${kernel_sets[$n]}" after; then
		fail "${CASES[i]}" "${why[$n]}"
	elif ! clean_or_why "$n" "$work/$n.img" after; then
		fail "${CASES[i]}" "after the kernel wrote: ${why[$n]}"
	else
		pass "${CASES[i]}"
	fi
done
finish_work '*.img'
