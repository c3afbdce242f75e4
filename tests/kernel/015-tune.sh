#!/bin/bash
# fsck.f2fs -O, -C and --nolinear-lookup, judged by the kernel.  Volumes
# made by our mkfs and loaded by our sload with the tree of tests/fsck, then
# tuned by our fsck:
#
#   tune/encrypt-casefold  -O encrypt -C utf8 on a default volume
#   tune/casefold-strict   -C utf8:strict on an extra_attr,inode_checksum,
#                          sb_checksum volume
#   tune/nolinear          --nolinear-lookup=1 on a volume mkfs made with
#                          casefold (the 6.1 kernel knows no such flag and
#                          must mount it as it is)
#   tune/upstream-casefold newest upstream's fsck -C utf8 (when built): it
#                          leaves s_encoding 0 and the kernel must refuse
#                          the mount -- why ours stores the encoding
#
# Before the guest both our fsck and upstream's must find each tuned volume
# clean.  In one boot (jobs/tune.sh, once per disk) the kernel mounts each
# and lists the features in /sys/fs/f2fs/DEV/features; in a directory made
# casefolded (tools/fsfeat.c: FS_IOC_SETFLAGS) lookups differing only by case
# find the one file, also after a remount; in a directory given a v2
# encryption policy (FS_IOC_ADD_ENCRYPTION_KEY, FS_IOC_SET_ENCRYPTION_POLICY)
# a file is written and read, and its name shows encrypted once the key is
# gone.  After the kernel wrote, both fscks must find each clean again.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD (ours, defaults in the tree),
# UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), UPSTREAM_NEWEST_FSCK (default
# the build beside the repository), plus guest.sh's GUEST_*.  Output: one
# PASS/FAIL/SKIP line per case; exit 1 if any failed.

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
NEWEST=${UPSTREAM_NEWEST_FSCK:-$(dirname "$repo")/upstream-f2fs-tools/fsck/fsck.f2fs}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
# fscrypt's AES-256-XTS/CTS and HKDF-SHA512 are modules in the guest kernel
GUEST_EXTRA_MODULES=${GUEST_EXTRA_MODULES-sha512_generic ecb xts cts}
CASES=(tune/encrypt-casefold tune/casefold-strict tune/nolinear tune/upstream-casefold)
declare -A mkfs_opts=([encrypt-casefold]='' [casefold-strict]='-O extra_attr,inode_checksum,sb_checksum'
	[nolinear]='-O casefold -C utf8' [upstream-casefold]='')
declare -A tune_opts=([encrypt-casefold]='-O encrypt -C utf8' [casefold-strict]='-C utf8:strict'
	[nolinear]='--nolinear-lookup=1' [upstream-casefold]='-C utf8')
declare -A job_env=(
	[encrypt-casefold]="WANT=encryption,casefold
CASEFOLD=1
ENCRYPT=1"
	[casefold-strict]="WANT=extra_attr,inode_checksum,sb_checksum,casefold
CASEFOLD=1"
	[nolinear]="WANT=casefold
CASEFOLD=1"
	[upstream-casefold]="REFUSED=1
REFUSED_WHY='Encoding requested by superblock is unknown'")

all_names() { printf '%s\n' "${CASES[@]}"; }

need_executable "$MKFS" "$FSCK" "$SLOAD"
start_work tune
cases_tree "$work/tree" || CI=true abandon "cannot make the tree"
cc -O2 -o "$work/fsfeat" "$here/tools/fsfeat.c" 2>"$work/cc.log" ||
	CI=true abandon "cannot build fsfeat: $(head -n 1 "$work/cc.log")"

declare -A why=() skipped=()

# prepare NAME: the volume, loaded and tuned, clean for both fscks.
prepare() {
	local name=$1 img=$work/$1.img tuner=$FSCK
	rm -f "$img"
	# shellcheck disable=SC2086 # the options are words
	truncate -s 256M "$img" &&
		"$MKFS" -q -f ${mkfs_opts[$name]} "$img" </dev/null >/dev/null 2>&1 &&
		"$SLOAD" -f "$work/tree" "$img" </dev/null >/dev/null 2>&1 ||
		{ why[$name]="mkfs or sload failed"; return 1; }
	if [ "$name" = upstream-casefold ]; then
		[ -x "$NEWEST" ] || { skipped[$name]="newest upstream fsck.f2fs not built at $NEWEST"; return 1; }
		tuner=$NEWEST
	fi
	# shellcheck disable=SC2086
	if ! "$tuner" ${tune_opts[$name]} "$img" </dev/null >"$work/$name-tune.log" 2>&1; then
		why[$name]="fsck ${tune_opts[$name]} failed: $(tail -n 1 "$work/$name-tune.log")"
		return 1
	fi
	[ "$name" = upstream-casefold ] || clean_or_why "$name" "$img" "after tuning"
}

GUEST_EACH_IMAGES=() GUEST_EACH_ENV=() RUN=()
for c in "${CASES[@]}"; do
	n=${c#tune/}
	prepare "$n" || continue
	GUEST_EACH_IMAGES+=("$work/$n.img")
	GUEST_EACH_ENV+=("${job_env[$n]}")
	RUN+=("$n")
done

guest_run_each "$here/jobs/tune.sh" "$work/fsfeat"
declare -A verdict=()
for i in "${!RUN[@]}"; do
	verdict[${RUN[i]}]=${guest_each_error[i]:-ok}
done
for c in "${CASES[@]}"; do
	n=${c#tune/}
	if [ -n "${skipped[$n]:-}" ]; then
		skip "$c" "${skipped[$n]}"
	elif [ -n "${why[$n]:-}" ]; then
		fail "$c" "${why[$n]}"
	elif [ "${verdict[$n]:-}" != ok ]; then
		fail "$c" "kernel: ${verdict[$n]:-not run}"
	elif [ "$n" != upstream-casefold ] && ! clean_or_why "$n" "$work/$n.img" "after the kernel wrote"; then
		fail "$c" "${why[$n]}"
	else
		pass "$c"
	fi
done
finish_work '*.img'
