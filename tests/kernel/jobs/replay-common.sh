#!/bin/sh
# Helpers of the replay cross-check jobs (jobs/replay-*.sh, run by
# tests/kernel/007-replay-crosscheck.sh).  Not a job itself: the host
# passes it to guest_run as a host file, so it lands in /bin, and the jobs
# source it after /job-common.sh.  Busybox sh only.
#
#   rp_setup_io          BFQ on /dev/vda, cgroup v2 with groups fg and bg
#                        at io.bfq.weight $WEIGHT_FG and $WEIGHT_BG, the
#                        largest request and read-ahead $MAX_SECTORS_KB and
#                        the requests the queue holds $NR_REQUESTS, BFQ's
#                        low_latency $BFQ_LOW_LATENCY (when set), dirty
#                        thresholds $DIRTY_BG and $DIRTY_LIMIT (bytes, when
#                        set), debugfs; fails the job when any is missing
#   rp_counters FILE     the kernel's counters now, "name value" per line:
#                        debugfs status ("CP calls", "CP merge (...)"),
#                        /sys/block/vda/stat, and the bytes and I/Os
#                        written on behalf of cgroups fg and bg (io.stat;
#                        the rest was charged to the root: kernel threads)
#   rp_deltas REP BEFORE AFTER
#                        "@@M rep=REP name=value" for each counter: the
#                        difference, or the value after for gauges
#   rp_status_lines      the status lines the figures come from, for people

rp_write() {
	echo "$2" >"$1" 2>/dev/null || fail "cannot write '$2' to $1"
}

rp_setup_io() {
	q=/sys/block/vda/queue
	grep -qw bfq $q/scheduler || fail "BFQ not offered for vda ($(cat $q/scheduler)); is bfq.ko loaded?"
	rp_write $q/scheduler bfq
	grep -q '\[bfq\]' $q/scheduler || fail "BFQ not selected: $(cat $q/scheduler)"
	if [ -n "${MAX_SECTORS_KB:-}" ]; then
		rp_write $q/max_sectors_kb "$MAX_SECTORS_KB"
		rp_write $q/read_ahead_kb "$MAX_SECTORS_KB"
	fi
	[ -z "${NR_REQUESTS:-}" ] || rp_write $q/nr_requests "$NR_REQUESTS"
	[ -z "${BFQ_LOW_LATENCY:-}" ] || rp_write $q/iosched/low_latency "$BFQ_LOW_LATENCY"
	mkdir -p /sys/fs/cgroup
	mount -t cgroup2 none /sys/fs/cgroup || fail "cannot mount cgroup2"
	grep -qw io /sys/fs/cgroup/cgroup.controllers || fail "no io controller in cgroup v2"
	rp_write /sys/fs/cgroup/cgroup.subtree_control +io
	for g in fg bg; do
		mkdir -p /sys/fs/cgroup/$g || fail "cannot make cgroup $g"
		[ -f /sys/fs/cgroup/$g/io.bfq.weight ] ||
			fail "no io.bfq.weight in cgroup $g: BFQ group scheduling unavailable"
	done
	rp_write /sys/fs/cgroup/fg/io.bfq.weight "${WEIGHT_FG:-100}"
	rp_write /sys/fs/cgroup/bg/io.bfq.weight "${WEIGHT_BG:-20}"
	grep -q "default ${WEIGHT_BG:-20}\$" /sys/fs/cgroup/bg/io.bfq.weight ||
		fail "bg weight did not stick: $(cat /sys/fs/cgroup/bg/io.bfq.weight)"
	[ -z "${DIRTY_BG:-}" ] || rp_write /proc/sys/vm/dirty_background_bytes "$DIRTY_BG"
	[ -z "${DIRTY_LIMIT:-}" ] || rp_write /proc/sys/vm/dirty_bytes "$DIRTY_LIMIT"
	mkdir -p /sys/kernel/debug
	mount -t debugfs none /sys/kernel/debug || fail "cannot mount debugfs"
	echo "@@M scheduler=$(sed 's/.*\[\(.*\)\].*/\1/' $q/scheduler)"
	echo "@@M weight_fg=$(sed 's/default //' /sys/fs/cgroup/fg/io.bfq.weight)"
	echo "@@M weight_bg=$(sed 's/default //' /sys/fs/cgroup/bg/io.bfq.weight)"
	echo "@@M bfq_low_latency=$(cat $q/iosched/low_latency)"
	echo "@@M max_sectors_kb=$(cat $q/max_sectors_kb)"
	echo "@@M read_ahead_kb=$(cat $q/read_ahead_kb)"
	echo "@@M nr_requests=$(cat $q/nr_requests)"
	echo "@@M dirty_background_bytes=$(cat /proc/sys/vm/dirty_background_bytes)"
	echo "@@M dirty_bytes=$(cat /proc/sys/vm/dirty_bytes)"
	echo "@@M nr_cpus=$(grep -c '^processor' /proc/cpuinfo)"
}

# The 6.1 status file has "CP calls: 12 (BG: 0)" and
# "CP merge (Queued:    0, Issued:   10, Total:   12, Cur time:    3(ms), Peak time:   40(ms))";
# /sys/block/vda/stat: reads merged sectors ticks, writes merged sectors
# ticks, in-flight, io_ticks, queue time, discards (4), flushes, flush ticks.
rp_counters() {
	{
		cat /sys/kernel/debug/f2fs/status
		echo "@@BLOCKSTAT $(cat /sys/block/vda/stat)"
		for g in fg bg; do
			sed "s/^/@@IOSTAT $g /" /sys/fs/cgroup/$g/io.stat
		done
	} | awk '
	/^CP calls:/ {
		v = $3; bg = $0; sub(/.*BG: */, "", bg); sub(/\).*/, "", bg)
		print "cp_calls", v; print "cp_bg_calls", bg + 0
	}
	/^CP merge/ {
		s = $0; sub(/^[^(]*\(/, "", s); gsub(/\(ms\)/, "", s); sub(/\).*$/, "", s)
		n = split(s, f, ",")
		for (i = 1; i <= n; i++) {
			split(f[i], kv, ":"); k = kv[1]; gsub(/ /, "", k)
			print "cp_merge_" tolower(k), kv[2] + 0
		}
	}
	/^@@BLOCKSTAT/ {
		print "dev_read_ios", $2; print "dev_read_sectors", $4
		print "dev_write_ios", $6; print "dev_write_sectors", $8
		print "dev_write_ticks_ms", $9; print "dev_io_ticks_ms", $11
		if (NF >= 17) print "dev_flushes", $17
		if (NF >= 18) print "dev_flush_ticks_ms", $18
	}
	/^@@IOSTAT/ {
		for (i = 4; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "wbytes" || kv[1] == "wios") io[$2 "_" kv[1]] += kv[2]
		}
	}
	END {
		print "fg_wbytes", io["fg_wbytes"] + 0; print "fg_wios", io["fg_wios"] + 0
		print "bg_wbytes", io["bg_wbytes"] + 0; print "bg_wios", io["bg_wios"] + 0
	}' >"$1"
	grep -q '^cp_calls ' "$1" || fail "no 'CP calls' in /sys/kernel/debug/f2fs/status"
	grep -q '^cp_merge_issued ' "$1" || fail "no 'CP merge' in /sys/kernel/debug/f2fs/status"
}

rp_deltas() {
	awk -v rep="$1" '
	FNR == NR { before[$1] = $2; next }
	$1 ~ /^cp_merge_(queued|curtime|peaktime)$/ { print "@@M rep=" rep " " $1 "=" $2; next }
	{ print "@@M rep=" rep " " $1 "=" ($2 - before[$1]) }' "$2" "$3"
}

rp_status_lines() {
	grep -E '^CP calls:|^CP merge' /sys/kernel/debug/f2fs/status | sed 's/^/status: /'
}
