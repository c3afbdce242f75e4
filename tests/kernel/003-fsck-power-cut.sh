#!/bin/bash
# Our fsck and upstream's on images left by a power cut in the middle of
# fsync-heavy writing.
#
# Each iteration makes a fresh image with our mkfs and boots a guest that
# writes, fsyncs, creates directories, renames and deletes until, CUT_AFTER
# seconds into the loop, the job resets the machine with sysrq "b"
# (jobs/fsck-powercut.sh; qemu runs with -no-reboot, so the reset ends it
# with no unmount and no sync).  Then, on the image as the cut left it:
#
#   .../our-fsck       our fsck -n must exit 0.  The last checkpoint is
#                      consistent by construction; the node blocks fsynced
#                      after it are not reachable from that checkpoint, so
#                      our fsck may only mention them as "fsynced node blocks
#                      are recoverable by roll-forward" (a count, not a
#                      problem).  Any PR_ line fails.
#   .../upstream-fsck  upstream "fsck.f2fs --dry-run" (no -f, as after a
#                      crash) must not report corruption.
#   .../remount        the kernel mounts it again (roll-forward recovery),
#                      walks the tree and unmounts (jobs/remount-check.sh);
#                      then our fsck -n and upstream --dry-run -f must both
#                      say clean.  The remounts of all iterations share one
#                      boot, a disk each (guest_run_each).
#
# Environment:
#   MKFS           our mkfs.f2fs (default <repo>/mkfs/mkfs.f2fs)
#   OUR_FSCK       our fsck.f2fs (default <repo>/fsck/fsck.f2fs)
#   UPSTREAM_FSCK  default /usr/sbin/fsck.f2fs
#   POWER_CUT_TIMES  cut times in seconds, one iteration each (default
#                  "2 4.5 8")
#   POWER_CUT_SIZE image size (default 1G)
#   CI=true        a harness that cannot be set up is a failure, not a skip
#   TMPDIR         where the sparse images go (default /tmp)
#   plus the GUEST_* variables of guest.sh (GUEST_TIMEOUT defaults to 180
#   here: a job that does not cut the power is killed then)
#
# Output: one "PASS: name", "FAIL: name: reason" or "SKIP: name: reason" line
# per case on stdout, details on stderr; exit 1 if any case failed.

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
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
POWER_CUT_TIMES=${POWER_CUT_TIMES:-2 4.5 8}
POWER_CUT_SIZE=${POWER_CUT_SIZE:-1G}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-180}
CUT_JOB=$here/jobs/fsck-powercut.sh
REMOUNT_JOB=$here/jobs/remount-check.sh

iter_name() { echo "power-cut/$1-cut${2}s"; }

all_names() {
	local n=0 t
	for t in $POWER_CUT_TIMES; do
		n=$((n + 1))
		echo "$(iter_name "$n" "$t")/our-fsck"
		echo "$(iter_name "$n" "$t")/upstream-fsck"
		echo "$(iter_name "$n" "$t")/remount"
	done
}

show_log() {
	{
		echo "----- $1 -----"
		fsck_log_tail "$2"
		echo "--------------"
	} >&2
}

iteration() {
	local n=$1 cut=$2 name img out rc reason t0 t_guest t_fsck fsynced
	local cutline rounds s
	name=$(iter_name "$n" "$cut")
	img=$work/cut$n.img
	rm -f "$img"
	if ! truncate -s "$POWER_CUT_SIZE" "$img" ||
		! "$MKFS" -f "$img" </dev/null >"$work/cut$n.mkfs.log" 2>&1; then
		for s in our-fsck upstream-fsck remount; do
			fail "$name/$s" "cannot make the image: $(tail -n 1 "$work/cut$n.mkfs.log" 2>/dev/null)"
		done
		return
	fi

	# The job ends with a reset, so guest_run's own verdict (no exit
	# marker) is expected; its report goes to a file, not to stderr.
	t0=$(now)
	GUEST_JOB_ENV="CUT_AFTER=$cut"
	guest_run "$img" "$CUT_JOB" 2>"$work/cut$n.guest.err"
	GUEST_JOB_ENV=
	t_guest=$(since "$t0")
	cutline=$(grep -ao '@@CUT@@ t=[0-9.]*' "$guest_log" | head -n 1)
	rounds=$(grep -ao 'fsck-powercut: round [0-9]*' "$guest_log" | tail -n 1 | awk '{ print $3 }')
	if grep -aq '@@JOB-FAIL@@' "$guest_log" || [ -z "$cutline" ] ||
		grep -aq '@@JOB-EXIT' "$guest_log"; then
		cat "$work/cut$n.guest.err" >&2
		reason=$(grep -ao '@@JOB-FAIL@@.*' "$guest_log" | head -n 1 | sed 's/^@@JOB-FAIL@@ *//')
		[ -n "$reason" ] || reason="no power cut seen (${guest_error:-the job exited})"
		for s in our-fsck upstream-fsck remount; do
			fail "$name/$s" "guest: $reason"
		done
		return
	fi
	info "$name: guest ${t_guest}s, ${cutline#@@CUT@@ }, >= ${rounds:-0} rounds"

	t0=$(now)
	out=$work/cut$n.ours.log
	"$OUR_FSCK" -n "$img" </dev/null >"$out" 2>&1
	rc=$?
	fsynced=$(grep -o '^\[FSCK\] [0-9]* fsynced node blocks' "$out" | awk '{ print $2 }')
	info "$name: our fsck exit $rc, ${fsynced:-0} fsynced node blocks reported," \
		"checkpoint: $(grep -o 'checkpoint state = .*' "$out" | head -n 1)"
	if reason=$(our_verdict "$rc" "$out"); then
		pass "$name/our-fsck"
	else
		show_log "$name: our fsck -n (exit $rc)" "$out"
		fail "$name/our-fsck" "$reason"
	fi

	out=$work/cut$n.upstream.log
	"$UPSTREAM_FSCK" --dry-run "$img" </dev/null >"$out" 2>&1
	rc=$?
	info "$name: upstream fsck --dry-run exit $rc," \
		"$(grep -o 'checkpoint state = .*' "$out" | head -n 1)"
	if reason=$(upstream_verdict "$rc" "$out"); then
		pass "$name/upstream-fsck"
	else
		show_log "$name: upstream fsck --dry-run (exit $rc)" "$out"
		fail "$name/upstream-fsck" "$reason"
	fi
	t_fsck=$(since "$t0")
	info "$name: timings: guest with cut ${t_guest}s, fscks ${t_fsck}s"
	REMOUNTS+=("$n|$cut")
}

# remounts: the kernel mounts every cut image (roll-forward), walks its tree
# and unmounts, all in one boot (one disk each); then our fsck -n and
# upstream --dry-run -f must both call each clean.
remounts() {
	local i n cut name img out rc r reason t0
	[ ${#REMOUNTS[@]} -gt 0 ] || return 0
	GUEST_EACH_IMAGES=()
	for i in "${REMOUNTS[@]}"; do GUEST_EACH_IMAGES+=("$work/cut${i%%|*}.img"); done
	t0=$(now)
	GUEST_JOB_ENV="EXPECT_RECOVERY=1"
	guest_run_each "$REMOUNT_JOB"
	GUEST_JOB_ENV=
	info "remount: ${#REMOUNTS[@]} images in one boot, $(since "$t0")s"
	for i in "${!REMOUNTS[@]}"; do
		IFS='|' read -r n cut <<<"${REMOUNTS[i]}"
		name=$(iter_name "$n" "$cut")
		img=${GUEST_EACH_IMAGES[i]}
		if [ -n "${guest_each_error[i]}" ]; then
			fail "$name/remount" "kernel: ${guest_each_error[i]}"
			continue
		fi
		grep -a 'remount-check: dmesg:' "${guest_each_log[i]}" | sed "s/^/# $name: /" >&2
		reason=
		out=$work/cut$n.remount.ours.log
		"$OUR_FSCK" -n "$img" </dev/null >"$out" 2>&1
		rc=$?
		if ! r=$(our_verdict "$rc" "$out"); then
			show_log "$name: our fsck -n after remount (exit $rc)" "$out"
			reason="our fsck after remount: $r"
		fi
		out=$work/cut$n.remount.upstream.log
		"$UPSTREAM_FSCK" --dry-run -f "$img" </dev/null >"$out" 2>&1
		rc=$?
		if ! r=$(upstream_verdict "$rc" "$out"); then
			show_log "$name: upstream fsck --dry-run -f after remount (exit $rc)" "$out"
			reason="${reason:+$reason; }upstream fsck after remount: $r"
		fi
		if [ -z "$reason" ]; then
			pass "$name/remount"
		else
			fail "$name/remount" "$reason"
		fi
		rm -f "$img"
	done
}

main() {
	local t n=0 t_all
	REMOUNTS=()
	t_all=$(now)
	start_work power-cut
	need_executable "$MKFS" "$OUR_FSCK" "$UPSTREAM_FSCK"
	info "our mkfs: $MKFS; our fsck: $OUR_FSCK; kernel: $GUEST_KPKG $GUEST_KPKG_VERSION"
	for t in $POWER_CUT_TIMES; do
		n=$((n + 1))
		iteration "$n" "$t"
	done
	remounts
	info "total $(since "$t_all")s"
	finish_work '*.img'
}

main "$@"
