#!/bin/bash
# Android sparse images, judged by the kernel.  Two volumes made the way an
# Android build makes them, as sparse files, then expanded with simg2img
# (what flashing does):
#
#   android/sparse    mkfs -S 256 MiB, sload -S of the tree of tests/fsck
#   android/defaults  mkfs -g android -S (no nat_bits, encryption, quotas,
#                     verity...), sload -S with an fs_config giving one
#                     file capabilities=0x3000
#
# Before the guest, both our fsck and upstream's must find each expanded
# image clean.  In one boot (jobs/android.sh, once per disk) the kernel
# mounts each, reads security.capability as the host wrote it (revision 2,
# effective, permitted 0x3000 on bin/ping; none on the other volume),
# reads every file, writes one and unmounts; then both fscks must find
# each clean.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD (ours, defaults in the tree),
# UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), plus guest.sh's GUEST_*.
# Needs a build with android-libsparse and simg2img (else SKIP, FAIL in CI).  Output:
# one PASS/FAIL/SKIP line per case; exit 1 if any failed.

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
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-240}
CASES=(android/sparse android/defaults)
CAPS='./bin/ping security.capability=0100000200300000000000000000000000000000'
declare -A want_caps=([sparse]='' [defaults]="$CAPS")
declare -A mkfs_opts=([sparse]='' [defaults]='-g android')

all_names() { printf '%s\n' "${CASES[@]}"; }

need_executable "$MKFS" "$FSCK" "$SLOAD"
start_work android
command -v simg2img >/dev/null || abandon "simg2img is not installed (android-sdk-libsparse-utils)"
"$MKFS" -q -S $((64 << 20)) "$work/probe.simg" 2>&1 | grep -q 'without android-libsparse' &&
	abandon "this build has no android-libsparse"
cases_tree "$work/tree" || CI=true abandon "cannot make the tree"
mkdir -p "$work/tree/bin" && echo ping >"$work/tree/bin/ping"
printf 'bin 0 2000 0755\nbin/ping 0 2000 0750 capabilities=0x3000\n' >"$work/fs_config"
cc -O2 -o "$work/xattrdump" "$here/tools/xattrdump.c" 2>"$work/cc.log" ||
	CI=true abandon "cannot build xattrdump: $(head -n 1 "$work/cc.log")"

declare -A why=()

# prepare NAME: $work/NAME.img, expanded from the sparse image mkfs -S and sload -S made
prepare() {
	local name=$1 simg=$work/$1.simg config=()
	[ "$name" = defaults ] && config=(-C "$work/fs_config")
	rm -f "$simg" "$work/$name.img"
	# shellcheck disable=SC2086 # mkfs_opts holds options
	if ! "$MKFS" -q ${mkfs_opts[$name]} -S $((256 << 20)) "$simg" </dev/null >"$work/$name-mkfs.log" 2>&1 ||
		! "$SLOAD" -S "${config[@]}" -f "$work/tree" "$simg" </dev/null >"$work/$name-sload.log" 2>&1; then
		why[$name]="mkfs -S or sload -S failed: $(tail -n 1 "$work/$name-mkfs.log" "$work/$name-sload.log" | tr '\n' ' ')"
		return 1
	fi
	if ! simg2img "$simg" "$work/$name.img" 2>"$work/$name-simg2img.log"; then
		why[$name]="simg2img failed: $(head -n 1 "$work/$name-simg2img.log")"
		return 1
	fi
	clean_or_why "$name" "$work/$name.img" before
}

GUEST_EACH_IMAGES=() GUEST_EACH_ENV=()
for c in "${CASES[@]}"; do
	n=${c#android/}
	prepare "$n"
	GUEST_EACH_IMAGES+=("$work/$n.img")
	GUEST_EACH_ENV+=("WANT_CAPS='${want_caps[$n]}'")
done

guest_run_each "$here/jobs/android.sh" "$work/xattrdump"
for i in "${!CASES[@]}"; do
	n=${CASES[i]#android/}
	if [ -n "${why[$n]:-}" ]; then
		fail "${CASES[i]}" "${why[$n]}"
	elif [ -n "${guest_each_error[i]}" ]; then
		fail "${CASES[i]}" "kernel: ${guest_each_error[i]}"
	elif ! clean_or_why "$n" "$work/$n.img" after; then
		fail "${CASES[i]}" "after the kernel wrote: ${why[$n]}"
	else
		pass "${CASES[i]}"
	fi
done
finish_work '*.img'
