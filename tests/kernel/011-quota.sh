#!/bin/bash
# Quota, judged by the kernel.  Three volumes with user, group and project
# quota, each holding the tree of tests/fsck loaded by our sload:
#
#   quota/sload       as sload left it
#   quota/repaired    the root inode's uid changed afterwards (inject), so
#                     the user quota file is stale; our fsck -y rewrites it
#   quota/need-fsck   the checkpoint carries CP_QUOTA_NEED_FSCK_FLAG (the
#                     kernel would not load the files); our fsck -y rewrites
#                     every file and drops the flag
#
# Before the guest, both our fsck and upstream's must find each clean.  In
# one boot (jobs/quota.sh, once per disk) the kernel mounts each, and what
# quotactl reports for every id must equal what the tree holds; then it
# writes files as two other users, compares again, and unmounts.  After
# that, both fscks must find each clean: our count of what the kernel
# charges agrees with the quota files the kernel wrote.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD, INJECT, DUMP (ours, defaults in
# the tree), UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), plus guest.sh's
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
INJECT=${INJECT:-$repo/inject/inject.f2fs}
DUMP=${DUMP:-$repo/dump/dump.f2fs}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-240}
CASES=(quota/sload quota/repaired quota/need-fsck)

all_names() { printf '%s\n' "${CASES[@]}"; }

need_executable "$MKFS" "$FSCK" "$SLOAD" "$INJECT" "$DUMP"
start_work quota
cases_tree "$work/tree" || CI=true abandon "cannot make the tree"
cc -O2 -o "$work/quotausage" "$here/tools/quotausage.c" 2>"$work/cc.log" ||
	CI=true abandon "cannot build quotausage: $(head -n 1 "$work/cc.log")"

declare -A why=()

# prepare NAME: $work/NAME.img, loaded and (for the repair cases) broken and repaired
prepare() {
	local name=$1 img=$work/$1.img flags rc
	IMG=$img CASES_WORK=$work
	rm -f "$img" "$work/inj.err"
	truncate -s 256M "$img" &&
		"$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr,quota,project_quota \
			"$img" </dev/null >/dev/null 2>&1 &&
		"$SLOAD" -f "$work/tree" "$img" </dev/null >/dev/null 2>&1 ||
		{ why[$name]="mkfs or sload failed"; return 1; }
	case $name in
	repaired) inj --node --nid 3 --mb i_uid --val 4242 ;;
	need-fsck)
		flags=$(cases_getv_in "$img" --cp 0 --mb ckpt_flags)
		inj --cp 0 --mb ckpt_flags --val $((flags | 0x800))
		;;
	esac
	if [ -s "$work/inj.err" ]; then
		why[$name]=$(cat "$work/inj.err")
		return 1
	fi
	if [ "$name" != sload ]; then
		"$FSCK" -y "$img" </dev/null >"$work/$name-repair.log" 2>&1
		rc=$?
		if [ "$rc" != 1 ] || ! grep -q '^\[FIX\] Rebuild: quota files rewritten' "$work/$name-repair.log"; then
			why[$name]="fsck -y exited $rc: $(grep -E '^\[FSCK\] PR_|^\[FIX\]' "$work/$name-repair.log" | head -n 3 | tr '\n' ' ')"
			return 1
		fi
	fi
	clean_or_why "$name" "$img" before
}

GUEST_EACH_IMAGES=() GUEST_EACH_ENV=()
for c in "${CASES[@]}"; do
	n=${c#quota/}
	prepare "$n"
	GUEST_EACH_IMAGES+=("$work/$n.img")
done

guest_run_each "$here/jobs/quota.sh" "$work/quotausage"
for i in "${!CASES[@]}"; do
	n=${CASES[i]#quota/}
	if [ -n "${why[$n]:-}" ]; then
		fail "${CASES[i]}" "${why[$n]}"
		continue
	fi
	if [ -n "${guest_each_error[i]}" ]; then
		fail "${CASES[i]}" "kernel: ${guest_each_error[i]} $(grep -a 'quota: .* bad' "${guest_each_log[i]:-/dev/null}" | head -n 2 | tr '\n' ' ')"
		continue
	fi
	if ! grep -aq "quota: .* after-writes ok" "${guest_each_log[i]}"; then
		fail "${CASES[i]}" "the guest printed no verdict"
		continue
	fi
	if ! clean_or_why "$n" "$work/$n.img" after; then
		fail "${CASES[i]}" "after the kernel wrote: ${why[$n]}"
		continue
	fi
	pass "${CASES[i]}"
done
finish_work '*.img'
