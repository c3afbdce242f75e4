#!/bin/sh
# Guest job: the ckpt-storm experiment for real on the kernel, the figures
# tests/kernel/007-replay-crosscheck.sh sets beside `f2fs_io replay`'s.
#
# BFQ and cgroup v2 as rp_setup_io makes them, then REPS times: mount
# /dev/vda with -o $MOUNT_OPT (checkpoint_merge or nocheckpoint_merge),
# lay out B's file in a fresh directory /mnt/rN, read the kernel's
# counters, run "replayload ckpt-storm" (A, B and C together), read the
# counters again, unmount.  Prints "@@M rep=N name=value" for replayload's
# figures and the counters' differences (rp_deltas), and the debugfs status
# lines after each repetition.
#
# Environment: MOUNT_OPT, REPS (3), ROUNDS (100), FILE_SIZE (64M), and
# rp_setup_io's WEIGHT_FG, WEIGHT_BG, DIRTY_BG, DIRTY_LIMIT.
# Host files: replayload, replay-common.sh.

JOB_NAME=replay-ckpt-storm
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh
# shellcheck source-path=SCRIPTDIR source=replay-common.sh # a host file of the job
. /bin/replay-common.sh

case ${MOUNT_OPT:-} in
checkpoint_merge | nocheckpoint_merge) ;;
*) fail "MOUNT_OPT must be checkpoint_merge or nocheckpoint_merge, not '${MOUNT_OPT:-}'" ;;
esac
rp_setup_io
echo "@@M mount_opt=$MOUNT_OPT"
rep=1
while [ "$rep" -le "${REPS:-3}" ]; do
	mount -t f2fs -o "$MOUNT_OPT" /dev/vda $MNT || fail "mount -o $MOUNT_OPT failed"
	grep -q "^/dev/vda $MNT f2fs rw" /proc/mounts || fail "/dev/vda not mounted rw"
	merged=no
	grep "^/dev/vda $MNT " /proc/mounts | grep -q '[,]checkpoint_merge' && merged=yes
	[ "$MOUNT_OPT" = checkpoint_merge ] && [ $merged = no ] &&
		fail "checkpoint_merge not in /proc/mounts: $(grep "^/dev/vda" /proc/mounts)"
	[ "$MOUNT_OPT" = nocheckpoint_merge ] && [ $merged = yes ] &&
		fail "checkpoint_merge still on: $(grep "^/dev/vda" /proc/mounts)"
	check_dmesg "after mount -o $MOUNT_OPT"
	replayload layout $MNT/r$rep "${FILE_SIZE:-64M}" || fail "layout failed (rep $rep)"
	step "rep $rep: laid out"
	rp_counters /tmp/before
	replayload ckpt-storm $MNT/r$rep "${ROUNDS:-100}" "${FILE_SIZE:-64M}" >/tmp/out ||
		fail "replayload ckpt-storm failed (rep $rep)"
	rp_counters /tmp/after
	sed "s/^@@M /@@M rep=$rep /" /tmp/out
	rp_deltas $rep /tmp/before /tmp/after
	rp_status_lines
	step "rep $rep: done"
	umount_dev "umount (rep $rep)"
	rep=$((rep + 1))
done
echo "@@JOB-OK@@"
