#!/bin/bash
# Repairs on a volume with orphan inodes.  The kernel makes them: on a copy
# of the image our mkfs and sload make for tests/fsck, a guest job unlinks
# two files it holds open, writes a checkpoint and resets the machine
# (jobs/orphan-cut.sh), so the checkpoint lists both as orphans.  Then:
#
#   orphans/left       the cut left them: our fsck -n is clean and names the
#                      checkpoint's orphan_inodes flag
#   orphans/released   with a problem added (file1's i_links), our fsck -y
#                      repairs it and releases both orphans as a mount would
#                      (the "[FIX] Release" line, 2 changed), reconnects
#                      nothing, and a second run is clean with no orphans
#   orphans/kernel     the kernel mounts the repaired image, which holds the
#                      tree that was loaded and nothing in lost+found, takes a
#                      write and unmounts (jobs/check-many.sh); then upstream's
#                      fsck finds it clean
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD, INJECT, DUMP (ours, defaults in the
# tree), UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), plus guest.sh's GUEST_*.
# Output: one PASS/FAIL/SKIP line per case; exit 1 if any failed.

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
GUEST_TIMEOUT=${GUEST_TIMEOUT:-180}
CASES=(orphans/left orphans/released orphans/kernel)

all_names() { printf '%s\n' "${CASES[@]}"; }

# give_up REASON: every case from $1 on fails with REASON
give_up() {
	local from=$1 reason=$2 c on=0
	for c in "${CASES[@]}"; do
		[ "$c" = "$from" ] && on=1
		[ "$on" = 1 ] && fail "$c" "$reason"
	done
	finish_work '*.img'
}

need_executable "$MKFS" "$FSCK" "$SLOAD" "$INJECT" "$DUMP"
start_work fsck-orphans
cases_base "$work" || CI=true abandon "the base image: $CASES_ERR"
make_manifest "$CASES_TREE" "$work/manifest" || CI=true abandon "cannot make the manifest"
IMG=$work/orphans.img
cp --sparse=always "$CASES_BASE" "$IMG"

# the kernel leaves the orphans (the job ends with a reset: no exit marker)
guest_run "$IMG" "$here/jobs/orphan-cut.sh" 2>"$work/cut.err"
if grep -aq '@@JOB-FAIL@@' "$guest_log" || ! grep -aq '@@CUT@@' "$guest_log"; then
	give_up orphans/left "guest: $(grep -ao '@@JOB-FAIL@@.*' "$guest_log" | head -n 1)${guest_error:+ $guest_error}"
fi

"$FSCK" -n "$IMG" </dev/null >"$work/left.log" 2>&1
rc=$?
if ! v=$(our_verdict "$rc" "$work/left.log"); then
	give_up orphans/left "our fsck on the cut image: $v"
elif ! grep -q 'checkpoint state = .*orphan_inodes' "$work/left.log"; then
	give_up orphans/left "the checkpoint lists no orphans: $(grep 'checkpoint state' "$work/left.log")"
fi
pass orphans/left

CASES_WORK=$work
inj --node --nid "$FILE1" --mb i_links --val 7 || give_up orphans/released "inject failed"
"$FSCK" -y "$IMG" </dev/null >"$work/repair.log" 2>&1
rc=$?
"$FSCK" "$IMG" </dev/null >"$work/again.log" 2>&1
rc2=$?
"$FSCK" -n -t "$IMG" </dev/null >"$work/tree.log" 2>&1
if [ "$rc" != 1 ] || ! grep -q '^\[FIX\] Release: .* 2 changed: done' "$work/repair.log"; then
	give_up orphans/released "fsck -y exited $rc: $(grep -E '^\[FIX\]|Info: [0-9]' "$work/repair.log" | tr '\n' ' ')"
elif grep -q '^\[FIX\] Reconnect' "$work/repair.log" || grep -q 'lost+found' "$work/tree.log"; then
	give_up orphans/released "a released orphan came back in lost+found"
elif ! v=$(our_verdict "$rc2" "$work/again.log") || grep -q 'orphan_inodes' "$work/again.log"; then
	give_up orphans/released "the second run: ${v:-the checkpoint still lists orphans}"
fi
pass orphans/released

GUEST_JOB_ENV="MANIFEST_vda=/bin/manifest"
if ! guest_run "$IMG" "$here/jobs/check-many.sh" "$work/manifest.names" "$work/manifest.sums" \
	"$work/manifest.links" "$work/manifest.symlinks"; then
	give_up orphans/kernel "kernel: $guest_error"
fi
line=$(grep -a 'check-many: vda ' "$guest_log" | head -n 1)
case $line in
*" ok "*) ;;
*) give_up orphans/kernel "kernel: ${line#*vda }" ;;
esac
if [ -x "$UPSTREAM_FSCK" ]; then
	"$UPSTREAM_FSCK" --dry-run -f "$IMG" </dev/null >"$work/up.log" 2>&1
	rc=$?
	v=$(upstream_verdict "$rc" "$work/up.log") || give_up orphans/kernel "upstream fsck: $v"
fi
pass orphans/kernel
finish_work '*.img'
