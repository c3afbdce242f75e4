#!/bin/sh
# Guest job: the tiotest experiment for real on the kernel, the figures
# tests/kernel/007-replay-crosscheck.sh sets beside `f2fs_io replay`'s
# serialized-writepages figures.
#
# BFQ and cgroup v2 as rp_setup_io makes them, then REPS times: mount
# /dev/vda, set /sys/fs/f2fs/vda/min_seq_blocks to $MIN_SEQ_BLOCKS when
# given (it decides only whether WB_SYNC_ALL write-back, fsync's or
# sync's, takes the writepages mutex; 6.1 serializes background
# write-back of regular files always) and report it, run "replayload
# tiotest" in a fresh directory /mnt/rN (THREADS writers, sync, FIEMAP,
# a sequential read pass), unmount.  Prints "@@M rep=N name=value".
#
# Environment: REPS (3), THREADS (8), FILE_SIZE (16M), MIN_SEQ_BLOCKS, and
# rp_setup_io's knobs.  Host files: replayload, replay-common.sh.

JOB_NAME=replay-tiotest
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh
# shellcheck source-path=SCRIPTDIR source=replay-common.sh # a host file of the job
. /bin/replay-common.sh

rp_setup_io
rep=1
while [ "$rep" -le "${REPS:-3}" ]; do
	mount_dev "mount (rep $rep)"
	msb=/sys/fs/f2fs/vda/min_seq_blocks
	[ -f $msb ] || fail "no $msb"
	[ -z "${MIN_SEQ_BLOCKS:-}" ] || rp_write $msb "$MIN_SEQ_BLOCKS"
	echo "@@M rep=$rep min_seq_blocks=$(cat $msb)"
	replayload tiotest $MNT/r$rep "${THREADS:-8}" "${FILE_SIZE:-16M}" >/tmp/out ||
		fail "replayload tiotest failed (rep $rep)"
	sed "s/^@@M /@@M rep=$rep /" /tmp/out
	step "rep $rep: done"
	umount_dev "umount (rep $rep)"
	rep=$((rep + 1))
done
echo "@@JOB-OK@@"
