#!/bin/sh
# Guest job: one ckpt-storm run as jobs/replay-ckpt-storm.sh runs it, with
# the kernel's tracing on, for the trace case of
# tests/kernel/007-replay-crosscheck.sh (tools/trace_summary.py) to read.
#
# BFQ, cgroups and dirty thresholds as rp_setup_io makes them; mount
# /dev/vda with -o $MOUNT_OPT, lay out B's file, turn on the events below,
# run "replayload ckpt-storm", and print replayload's "@@M" figures, then
# between "@@TRACE-BEGIN" and "@@TRACE-END" one short line per event:
#   C TIME STATE      f2fs_write_checkpoint (start block_ops, finish
#                     block_ops, finish checkpoint)
#   Q TIME COMM       a 512 KiB write inserted into the I/O scheduler
#                     (block_rq_insert, nr_sector 1024: B's write-back)
#   I TIME RWBS SECTOR SECTORS, D TIME RWBS SECTOR SECTORS
#                     every request issued to the device and completed
#   B TIME k=v...     balance_dirty_pages (dirty, limit, pause, ...)
#   W TIME REASON     writeback_start
#   Z TIME k=v...     sched_switch to or from a write-back worker
#                     (kworker/u*), followed by "F FRAME" lines, the
#                     worker's kernel stack, when it went to sleep
#                     uninterruptibly
# The trace buffer is TRACE_BUFFER_KB per CPU (default 32768): a run longer
# than it holds keeps its end.
#
# Environment: MOUNT_OPT (nocheckpoint_merge), ROUNDS (100), FILE_SIZE (64M),
# TRACE_BUFFER_KB, and rp_setup_io's variables.
# Host files: replayload, replay-common.sh.

JOB_NAME=replay-trace
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh
# shellcheck source-path=SCRIPTDIR source=replay-common.sh # a host file of the job
. /bin/replay-common.sh

T=/sys/kernel/tracing

trace_on() {
	[ -d $T/events ] || mount -t tracefs none $T || fail "cannot mount tracefs"
	rp_write $T/buffer_size_kb "${TRACE_BUFFER_KB:-32768}"
	rp_write $T/events/sched/sched_switch/filter \
		'prev_comm ~ "kworker/u*" || next_comm ~ "kworker/u*"'
	rp_write $T/events/sched/sched_switch/trigger \
		'stacktrace if prev_comm ~ "kworker/u*" && prev_state == 2'
	rp_write $T/events/block/block_rq_insert/filter 'nr_sector == 1024'
	for e in sched/sched_switch block/block_rq_insert block/block_rq_issue \
		block/block_rq_complete f2fs/f2fs_write_checkpoint \
		writeback/balance_dirty_pages writeback/writeback_start; do
		rp_write $T/events/$e/enable 1
	done
	rp_write $T/tracing_on 1
}

# One short line per event (see above); stack frames lose their offsets.
trace_dump() {
	echo "@@TRACE-BEGIN"
	awk '
	function at() { t = $4; sub(":", "", t); return t }
	/ sched_switch: / { m = $0; sub(/.* sched_switch: /, "", m)
		gsub(/(prev|next)_prio=[0-9]+ ?/, "", m); print "Z", at(), m; next }
	/^ => / { print "F", $2; next }
	/ f2fs_write_checkpoint: / { m = $0; sub(/.*state = /, "", m); print "C", at(), m; next }
	/ block_rq_(issue|complete): / { k = $5 ~ /issue/ ? "I" : "D"; m = $0
		sub(/.* block_rq_[a-z]*: [0-9]+,[0-9]+ /, "", m); n = split(m, f, " ")
		for (i = 2; i < n; i++) if (f[i] == "+") { print k, at(), f[1], f[i - 1], f[i + 1]; break }
		next }
	/ block_rq_insert: / { m = $0; sub(/.*\[/, "", m); sub(/\].*/, "", m); print "Q", at(), m; next }
	/ balance_dirty_pages: / { m = $0; sub(/.* balance_dirty_pages: /, "", m); print "B", at(), m; next }
	/ writeback_start: / { m = $0; sub(/.*reason=/, "", m); sub(/ .*/, "", m); print "W", at(), m; next }
	' $T/trace
	echo "@@TRACE-END"
}

rp_setup_io
mount -t f2fs -o "${MOUNT_OPT:-nocheckpoint_merge}" /dev/vda $MNT ||
	fail "mount -o ${MOUNT_OPT:-nocheckpoint_merge} failed"
replayload layout $MNT/r1 "${FILE_SIZE:-64M}" || fail "layout failed"
trace_on
replayload ckpt-storm $MNT/r1 "${ROUNDS:-100}" "${FILE_SIZE:-64M}" >/tmp/out ||
	fail "replayload ckpt-storm failed"
rp_write $T/tracing_on 0
grep '^@@M ' /tmp/out
trace_dump
umount_dev "umount"
echo "@@JOB-OK@@"
