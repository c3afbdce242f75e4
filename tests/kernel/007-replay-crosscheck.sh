#!/bin/bash
# `f2fs_io replay` against the kernel it emulates (Debian's 6.1).
#
# The replay engine claims to say what checkpoint merge and serialized
# writepages do to a workload on a device without booting a kernel.  This
# test runs the same workloads for real in the guest and through the engine
# with a matched device, and checks that they agree:
#
#   ckpt-storm  the guest runs tools/replayload.c's ckpt-storm (A: 100 x
#               touch + directory fsync, B: 128 KiB buffered writes over a
#               64 MiB file, C in the background cgroup: touch + directory
#               fsync until A ends) with -o checkpoint_merge and with
#               -o nocheckpoint_merge, XCHECK_RUNS times each, on 2 vCPUs,
#               BFQ with cgroup v2 io.bfq.weight 100 (A, B) and 20 (C), and
#               qemu's drive throttling as the slow device; the figures come
#               from replayload and from the kernel's own counters (debugfs
#               f2fs/status "CP calls", "CP merge (...)"; /sys/block/vda/stat).
#               The engine runs "ckpt-storm --compare --checkpoint-merge
#               --no-checkpoint-merge" XCHECK_ENGINE_RUNS times, with the
#               guest's measured touch times.  For each figure where the
#               kernel's effect (median with merge minus median without) is larger
#               than its run-to-run spread (max - min, the larger of the two
#               settings'), the engine's effect must have the same sign,
#               unless it lies inside the engine's own run-to-run spread
#               (its merged runs vary as the kernel's do: 3 runs of
#               cp_issued span 150..213), where the engine claims nothing;
#               figures inside a spread are reported and skipped.
#   tiotest     8 writers of one 16 MiB file each (512 KiB buffered writes),
#               sync, FIEMAP, a sequential read pass.  6.1 serializes
#               background write-back of regular files always and lets
#               min_seq_blocks decide only for WB_SYNC_ALL (fsync) write-back,
#               which tiotest does not do, so the kernel is one setting: the
#               engine's --serialize-writepages figures (extents per file, the
#               512 KiB read requests a sequential read needs) must be within
#               2x of the kernel's.
#   magnitude   beside the directions, an accuracy table: every figure of
#               both workloads, the kernel's median with its spread beside
#               the engine's, and their ratio; the figures in MAG_ASSERTED
#               must be within +-25% of the kernel's median when the
#               kernel's own runs agree that closely (see MAG_ASSERTED and
#               MAG_MISSES below for which figures are held and why the
#               others are not).  With XCHECK_KERNEL_RESULTS naming the
#               kernel figures of an earlier run, this is how a user sees
#               how far to trust a prediction without booting again.
#   trace       (only when XCHECK_CASES names it) one ckpt-storm run
#               without merge in the guest with the kernel's tracing on
#               (jobs/replay-trace.sh), summed up by tools/trace_summary.py:
#               checkpoint durations, B's write-back requests and the
#               pauses between them, where the write-back workers sleep,
#               B's throttle; the console is kept as $XCHECK_OUT/trace.log.
#               For working on the engine's model: it asserts only that
#               the run was traced.
#   verify      images `f2fs_io replay` wrote (tiotest and ckpt-storm) are
#               clean for our fsck and upstream's, the kernel mounts them and
#               reads back exactly the engine's content (replayload verify,
#               which calls the library's f2fs_replay_content), and both
#               fscks find them clean after the unmount.
#
# The matched device: qemu throttles the image to XCHECK_MBPS MB/s and
# XCHECK_IOPS requests/s and the engine models the same throttle
# (--device-model with qemu's 100 ms burst; flushes cost what the host's
# fdatasync costs on both sides, so the model's flush time is
# XCHECK_FLUSH_MS, 0 by default); the guest's queue holds XCHECK_QUEUE
# requests (nr_requests) of at most 512 KiB and the engine's device and
# request slots as many (--device-queue, --nr-requests, --max-request
# 512K), BFQ's low_latency is off on
# both (XCHECK_LOW_LATENCY), and the dirty thresholds are set to the same
# bytes (dirty_background_bytes / dirty_bytes, --dirty-background /
# --dirty-limit).  Why these: with a deep device queue or BFQ's weight
# raising, or with B's data under the background threshold, the kernel's
# run falls into one of two regimes at random (B's write-back running or
# not; fsyncs behind a full queue for seconds or not) and the spread hides
# every effect; with them a run of A takes 4-25 s and is repeatable.
#
# Environment:
#   MKFS, OUR_FSCK, F2FS_IO  this build's (default <repo>/...)
#   UPSTREAM_FSCK            default /usr/sbin/fsck.f2fs
#   CC, LIBF2FS              build tools/replayload.c (default cc and
#                            <repo>/lib/libf2fs.a)
#   XCHECK_CASES             among "ckpt-storm tiotest verify" (all by
#                            default) and "trace".  With checkpoint_merge
#                            the kernel falls at random into a regime where
#                            checkpoints take ~5 ms or one where they take
#                            ~165 ms behind write-back, so most ckpt-storm
#                            effects stay inside the kernel's spread; the
#                            engine (BFQ idling on the checkpoint thread's
#                            queue, --bfq-slice-idle) is always in the fast
#                            one.
#                            The engine's ckpt-storm runs with the guest's
#                            CPU: its touch times (--op-cpu-us) and vCPUs
#                            (--threads-cpu).
#   XCHECK_RUNS              kernel runs per setting (default 3)
#   XCHECK_ENGINE_RUNS       engine runs per setting (default 5: the engine's
#                            merged runs vary as the kernel's do, 155-196
#                            checkpoints issued of 200 requests, and more runs
#                            keep the median's direction steady)
#   XCHECK_KERNEL_RESULTS    a file of kernel figures: when it exists and was
#                            made with the same parameters, its figures are
#                            used instead of booting (only the engine runs);
#                            the kernel figures of every run are written to
#                            it (default $XCHECK_OUT/kernel-results.tsv)
#   XCHECK_OUT               where the table, the figures, the engine's JSON
#                            and the guests' consoles are kept (default
#                            ${TMPDIR:-/tmp}/replay-xcheck; its files are
#                            replaced by each run's)
#   XCHECK_MBPS (20) XCHECK_IOPS (1000) XCHECK_FLUSH_MS (0) XCHECK_QUEUE (4)
#   XCHECK_LOW_LATENCY (0) XCHECK_DIRTY_BG (4M) XCHECK_DIRTY_LIMIT (16M)
#   XCHECK_WEIGHTS (100,20) XCHECK_ROUNDS (100) XCHECK_STORM_SIZE (64M)
#   XCHECK_THREADS (8) XCHECK_TIO_SIZE (16M) XCHECK_IMG_SIZE (1G)
#   CI=true                  a harness that cannot be set up is a failure
#   plus the GUEST_* variables of guest.sh (GUEST_SMP defaults to 2 here)
#
# Output: "PASS: replay-xcheck/..." (or FAIL/SKIP) per case on stdout, the
# side-by-side table and details on stderr; exit 1 if any case failed.

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
F2FS_IO=${F2FS_IO:-$repo/tools/f2fs_io/f2fs_io}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
LIBF2FS=${LIBF2FS:-$repo/lib/libf2fs.a}
CASES=${XCHECK_CASES:-ckpt-storm tiotest verify}
RUNS=${XCHECK_RUNS:-3}
ENGINE_RUNS=${XCHECK_ENGINE_RUNS:-5}
OUT=${XCHECK_OUT:-${TMPDIR:-/tmp}/replay-xcheck}
KRES=${XCHECK_KERNEL_RESULTS:-$OUT/kernel-results.tsv}
MBPS=${XCHECK_MBPS:-20}
IOPS=${XCHECK_IOPS:-1000}
FLUSH_MS=${XCHECK_FLUSH_MS:-0}
QUEUE=${XCHECK_QUEUE:-4}
LOW_LATENCY=${XCHECK_LOW_LATENCY:-0}
DIRTY_BG=${XCHECK_DIRTY_BG:-4M}
DIRTY_LIMIT=${XCHECK_DIRTY_LIMIT:-16M}
WEIGHTS=${XCHECK_WEIGHTS:-100,20}
ROUNDS=${XCHECK_ROUNDS:-100}
STORM_SIZE=${XCHECK_STORM_SIZE:-64M}
THREADS=${XCHECK_THREADS:-8}
TIO_SIZE=${XCHECK_TIO_SIZE:-16M}
IMG_SIZE=${XCHECK_IMG_SIZE:-1G}
GUEST_SMP=${GUEST_SMP:-2}
W_FG=${WEIGHTS%%,*}
W_BG=${WEIGHTS#*,}
B_IO=131072 # replayload's and the engine's B write size

# The ckpt-storm figures whose direction is asserted; then the ones shown only.
STORM_ASSERTED=(a_elapsed_s a_fsync_p50_ms a_fsync_p99_ms c_fsyncs_per_s b_mbps cp_issued cp_merged)
# root_write_mb: the kernel's I/O charged to no cgroup of ours (kernel threads:
# the checkpoint thread, and the flusher for what cgroup write-back does not
# charge to the writer), beside the engine's checkpoint-thread class.
STORM_SHOWN=(cp_requested dev_write_mb flushes fg_write_mb bg_write_mb root_write_mb)
# The tiotest figures held to 2x; then the ones shown only.
TIO_ASSERTED=(extents_per_file read_requests_512k)
TIO_SHOWN=(read_ios write_mbps read_mbps)
# Magnitudes (WORKLOAD:SETTING:FIGURE): the engine's median within
# MAG_TOLERANCE of the kernel's, asserted when the kernel's own runs agree
# (spread, max - min, at most MAG_TOLERANCE of its median; else SKIP).  The
# rest of the accuracy table is shown, not asserted: the merged ckpt-storm
# runs fall into one of two regimes at random (checkpoints of ~5 or ~165 ms)
# so their spread is larger than any tolerance (the engine's merged runs
# vary too: 3 runs of cp_issued span 150..213); and the figures the model
# still misses by more than the tolerance with the kernel's spread inside it
# (MAG_MISSES, each with the engine/kernel ratio last measured) are
# printed as MISS for the reader to weigh, not asserted.
MAG_TOLERANCE=${XCHECK_MAG_TOLERANCE:-25}
MAG_ASSERTED=(ckpt-storm:nomerge:cp_requested ckpt-storm:nomerge:cp_issued
	ckpt-storm:nomerge:flushes ckpt-storm:nomerge:b_mbps
	tiotest:serialized:write_mbps tiotest:serialized:read_mbps
	tiotest:serialized:read_requests_512k tiotest:serialized:read_ios)
# A's fsync p50 came within 25% (0.85-1.09 in six comparisons on this
# test's volume) since the engine's flusher
# wakes late for a request slot (--late-slot-wakeup), as traced
# (XCHECK_CASES=trace): 6.1's write-back worker sleeps in blk_mq_get_tag
# through 1-8 completions (2 in the median), the device meanwhile runs dry
# of B's write-back, and the checkpoints that come then take 3-15 ms, a
# quarter to a half of them.
# Before, the engine's flusher took every freed slot, every checkpoint
# waited ~210 ms behind B's queue, and A took 1.3-1.5 times the kernel's
# time.  A's elapsed time and the bytes written (B's 20 MB/s for as long
# as A runs) are shown, not held: 0.78-0.84 and 0.84-0.89 in the same
# comparisons, inside 25% but too near it for every CI run; what is
# missing is the tail below.  C's rate is shown too: the engine's is
# steady (6.4-6.6 fsyncs/s) but the kernel's medians move between runs
# of the test more than inside one (5.1 and 5.9, spreads 15-30%), so the
# ratio went 1.05-1.29 and failed a CI run at 1.26.
# a_fsync_p99_ms 0.55-0.59: traced, the kernel's slowest fsyncs wait for
# three whole checkpoints: the one C began as A came, C's next one, which C takes
# past the woken A (the rwsem's optimistic spinning) before A runs, and
# A's own, which the handoff then gives A a wake-up later, after C's touch,
# so it is not skipped.  The engine's slowest wait for two; stealing and a
# late handoff alone in the engine made every checkpoint a real one (A
# 38.8 s), so the kernel's one-in-three skipped checkpoints come from more
# than that.
# a_fsync_p50_ms is shown, no longer held: the engine's runs fall in
# clusters (58-80, 105, 131, 157 ms; 5-run medians 131 and 157 of the
# same code) and the kernel's median moved 143 -> 176 ms between two
# measurements of the test (spreads 31% and 10%), so a 3-run median
# failed a CI run at 0.33 (two fast runs) and 131 against 176 (0.74)
# would fail one too.  The kernel has a fast regime of its own: the
# traced run (XCHECK_CASES=trace) of 2026-12-08 took A 12.7 s with a p50
# of 57 ms, where the three runs before it took 20.9-23.2 s, 168-185 ms.
# extents_per_file 0.68: the engine's flusher takes 4 MiB of a file at a
# time where the kernel's finds 2-2.5 MiB (its writers are paced each to
# a share; the pacing tried in the engine, on branch wip/throttle, gave
# 1.06 but pulled A's p50 to 0.59).  read_ios 0.87 (0.73 before) since
# the read pass reads each file's inode and node blocks, as the kernel
# does after the caches were dropped, and writes are dirtied 128 KiB at
# a time, so extents no longer end on 512 KiB boundaries only.
MAG_MISSES=(ckpt-storm:nomerge:a_fsync_p99_ms ckpt-storm:nomerge:a_fsync_p50_ms
	tiotest:serialized:extents_per_file)

all_names() {
	local m
	echo "replay-xcheck/ckpt-storm/kernel"
	echo "replay-xcheck/ckpt-storm/engine"
	for m in "${STORM_ASSERTED[@]}"; do echo "replay-xcheck/ckpt-storm/$m"; done
	echo "replay-xcheck/tiotest/kernel"
	echo "replay-xcheck/tiotest/engine"
	for m in "${TIO_ASSERTED[@]}"; do echo "replay-xcheck/tiotest/$m"; done
	for m in "${MAG_ASSERTED[@]}"; do echo "replay-xcheck/magnitude/$m"; done
	echo "replay-xcheck/verify"
	echo "replay-xcheck/trace"
}

wanted() {
	[[ " $CASES " == *" $1 "* ]]
}

bytes_of() {
	numfmt --from=iec "$1"
}

# ---- parameters: what a kernel figure was measured with ----

engine_low_latency() {
	if [ "$LOW_LATENCY" = 1 ]; then echo --bfq-low-latency; else echo --no-bfq-low-latency; fi
}

common_params() {
	echo "kernel=$GUEST_KVER smp=$GUEST_SMP mbps=$MBPS iops=$IOPS queue=$QUEUE max_kb=512" \
		"low_latency=$LOW_LATENCY dirty=$DIRTY_BG/$DIRTY_LIMIT weights=$W_FG/$W_BG img=$IMG_SIZE" \
		"runs=$RUNS"
}

workload_params() {
	case $1 in
	ckpt-storm) echo "$(common_params) rounds=$ROUNDS size=$STORM_SIZE touch_us=1" ;;
	tiotest) echo "$(common_params) threads=$THREADS size=$TIO_SIZE" ;;
	esac
}

# The guest's side of the matched device, for every boot of a workload.
guest_setup() {
	GUEST_EXTRA_MODULES=bfq
	GUEST_DRIVE_OPTS="throttling.bps-total=$((MBPS * 1000000)),throttling.iops-total=$IOPS"
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-600}
	guest_env="WEIGHT_FG=$W_FG
WEIGHT_BG=$W_BG
NR_REQUESTS=$QUEUE
BFQ_LOW_LATENCY=$LOW_LATENCY
MAX_SECTORS_KB=512
DIRTY_BG=$(bytes_of "$DIRTY_BG")
DIRTY_LIMIT=$(bytes_of "$DIRTY_LIMIT")
REPS=$RUNS"
}

guest_plain() {
	GUEST_EXTRA_MODULES=
	GUEST_DRIVE_OPTS=
	GUEST_EXTRA_DRIVES=
	GUEST_JOB_ENV=
}

# The engine's side: the same device, weights and dirty thresholds.
engine_common() {
	echo --device-model "$MBPS,$IOPS,$FLUSH_MS,100" --device-queue "$QUEUE" --nr-requests "$QUEUE" \
		--max-request 512K "$(engine_low_latency)" \
		--dirty-background "$DIRTY_BG" --dirty-limit "$DIRTY_LIMIT" --io-weights "fg=$W_FG,bg=$W_BG"
}

# ---- the kernel-results file ----
# Lines "params WORKLOAD TEXT" and "kernel WORKLOAD SETTING RUN FIGURE VALUE"
# (tab-separated); the engine's figures go to $OUT/engine-results.tsv alike.

# kernel_cached WORKLOAD: XCHECK_KERNEL_RESULTS names a file with this
# workload's figures, measured with the parameters of this run.
kernel_cached() {
	[ -n "${XCHECK_KERNEL_RESULTS:-}" ] && [ -f "$KRES" ] || return 1
	if ! grep -q "^kernel	$1	" "$KRES"; then
		return 1
	fi
	if [ "$(awk -F'\t' -v w="$1" '$1 == "params" && $2 == w { print $3 }' "$KRES")" != \
		"$(workload_params "$1")" ]; then
		info "$1: $KRES was measured with other parameters; booting again"
		info "  file: $(awk -F'\t' -v w="$1" '$1 == "params" && $2 == w { print $3 }' "$KRES")"
		info "  now:  $(workload_params "$1")"
		return 1
	fi
	return 0
}

# kernel_store WORKLOAD ROWS: replace the workload's lines in the file.
kernel_store() {
	local tmp=$KRES.new.$$
	mkdir -p "$(dirname "$KRES")" || return 1
	{
		[ -f "$KRES" ] && awk -F'\t' -v w="$1" '$2 != w' "$KRES"
		printf 'params\t%s\t%s\n' "$1" "$(workload_params "$1")"
		cat "$2"
	} >"$tmp" && mv "$tmp" "$KRES"
}

# ---- the guest's figures ----

# guest_rows LOG WORKLOAD SETTING: "@@M rep=N name=value" lines of a console
# log as result rows, with the figures derived from the kernel's counters.
guest_rows() {
	grep -a '^@@M rep=' "$1" | tr -d '\r' | awk -v w="$2" -v s="$3" '
	{
		rep = $2; sub(/^rep=/, "", rep)
		kv = $3; k = kv; sub(/=.*/, "", k); v = kv; sub(/^[^=]*=/, "", v)
		val[rep, k] = v; reps[rep] = 1
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
	}
	function row(r, k, v) { printf "kernel\t%s\t%s\t%s\t%s\t%s\n", w, s, r, k, v }
	END {
		for (r in reps) {
			for (i = 1; i <= n; i++)
				if ((r, order[i]) in val)
					row(r, order[i], val[r, order[i]])
			if (w != "ckpt-storm")
				continue
			row(r, "cp_issued", val[r, "cp_calls"])
			row(r, "cp_merged", val[r, "cp_merge_total"] - val[r, "cp_merge_issued"])
			row(r, "cp_requested", val[r, "a_fsyncs"] + val[r, "c_fsyncs"])
			row(r, "dev_write_mb", sprintf("%.2f", val[r, "dev_write_sectors"] * 512 / 1e6))
			row(r, "flushes", val[r, "dev_flushes"])
			row(r, "fg_write_mb", sprintf("%.2f", val[r, "fg_wbytes"] / 1e6))
			row(r, "bg_write_mb", sprintf("%.2f", val[r, "bg_wbytes"] / 1e6))
			row(r, "root_write_mb", sprintf("%.2f", (val[r, "dev_write_sectors"] * 512 - val[r, "fg_wbytes"] - val[r, "bg_wbytes"]) / 1e6))
		}
	}' | sort -t$'\t' -k4,4n
}

# kernel_boot WORKLOAD SETTING JOB ENV ROWS: one boot on a fresh image;
# appends its rows to ROWS (none when ROWS is -).  Returns 1 with the
# reason in $boot_error.
kernel_boot() {
	local w=$1 s=$2 job=$3 env=$4 rows=$5 img=$work/kernel.img out n
	boot_error=
	rm -f "$img"
	if ! truncate -s "$IMG_SIZE" "$img"; then
		boot_error="cannot create $img"
		return 1
	fi
	if ! out=$("$MKFS" -f "$img" </dev/null 2>&1); then
		boot_error="mkfs: $(echo "$out" | tail -n 1)"
		return 1
	fi
	guest_setup
	GUEST_JOB_ENV="$guest_env
$env"
	guest_run "$img" "$job" "$replayload" "$here/jobs/replay-common.sh"
	n=$?
	guest_plain
	rm -f "$img"
	cp "$guest_log" "$OUT/kernel-$w-$s.log" 2>/dev/null
	if [ "$n" != 0 ]; then
		boot_error="kernel ($s): $guest_error"
		return 1
	fi
	info "$w/$s: guest ${guest_seconds}s, console $OUT/kernel-$w-$s.log"
	[ "$rows" = - ] && return 0
	guest_rows "$guest_log" "$w" "$s" >"$work/rows"
	cat "$work/rows" >>"$rows"
	n=$(awk -F'\t' '{ print $4 }' "$work/rows" | sort -u | wc -l)
	if [ "$n" -lt "$RUNS" ]; then
		boot_error="kernel ($s): $n runs in the console, wanted $RUNS"
		return 1
	fi
}

# kernel_figures WORKLOAD: the kernel's rows in $work/kernel-WORKLOAD.tsv,
# from the results file or from new boots; 1 (with a fail line) if neither.
kernel_figures() {
	local w=$1 rows=$work/kernel-$1.tsv t0 storm_env
	: >"$rows"
	if kernel_cached "$w"; then
		awk -F'\t' -v w="$w" '$1 == "kernel" && $2 == w' "$KRES" >"$rows"
		info "$w: kernel figures from $KRES (no boot)"
		pass "replay-xcheck/$w/kernel"
		return 0
	fi
	t0=$(now)
	storm_env="ROUNDS=$ROUNDS
FILE_SIZE=$STORM_SIZE"
	case $w in
	ckpt-storm)
		kernel_boot "$w" merge "$here/jobs/replay-ckpt-storm.sh" \
			"MOUNT_OPT=checkpoint_merge
$storm_env" "$rows" &&
			kernel_boot "$w" nomerge "$here/jobs/replay-ckpt-storm.sh" \
				"MOUNT_OPT=nocheckpoint_merge
$storm_env" "$rows"
		;;
	tiotest)
		kernel_boot "$w" serialized "$here/jobs/replay-tiotest.sh" \
			"THREADS=$THREADS
FILE_SIZE=$TIO_SIZE" "$rows"
		;;
	esac
	if [ -n "$boot_error" ]; then
		: >"$rows"
		fail "replay-xcheck/$w/kernel" "$boot_error"
		return 1
	fi
	info "$w: kernel runs took $(since "$t0")s"
	if kernel_store "$w" "$rows"; then
		info "$w: kernel figures written to $KRES (XCHECK_KERNEL_RESULTS=$KRES reuses them)"
	else
		info "$w: cannot write $KRES"
	fi
	pass "replay-xcheck/$w/kernel"
}

# ---- the engine's figures ----

# engine_rows JSON RUN: result rows of one `f2fs_io replay --json` output
# (a --compare pair or a single run).
engine_rows() {
	jq -r --arg run "$2" --argjson bio "$B_IO" '
	(if has("run") then [.run] else [.a, .b] end)[] |
	.workload as $w |
	(if .workload == "tiotest" then "serialized"
	 elif .policy.checkpoint_merge then "merge" else "nomerge" end) as $s |
	(.threads | map({(.name): .}) | add) as $t |
	(if .workload == "ckpt-storm" then [
		["a_elapsed_s", $t.A.elapsed_s],
		["a_fsync_p50_ms", $t.A.fsync_p50_ms],
		["a_fsync_p99_ms", $t.A.fsync_p99_ms],
		["a_fsync_max_ms", $t.A.fsync_max_ms],
		["c_fsyncs", $t.C.fsyncs],
		["c_fsyncs_per_s", $t.C.fsyncs / $t.A.elapsed_s],
		["b_mbps", $t.B.ops * $bio / 1e6 / $t.A.elapsed_s],
		["cp_issued", .checkpoints.issued],
		["cp_merged", .checkpoints.merged],
		["cp_requested", .checkpoints.requested],
		["cp_wait_peak_ms", .checkpoints.wait_peak_ms],
		["dev_write_mb", ((.written.data_bytes + .written.node_bytes + .written.meta_bytes) / 1e6)],
		["flushes", .written.flushes],
		["fg_write_mb", ((.io_classes[] | select(.class == "fg") | .write_bytes) / 1e6)],
		["bg_write_mb", ((.io_classes[] | select(.class == "bg") | .write_bytes) / 1e6)],
		["root_write_mb", ((.io_classes[] | select(.class == "ckpt") | .write_bytes) / 1e6)]
	] else [
		["extents_per_file", .files.extents / .files.count],
		["read_requests_512k", .files.read_requests_512k],
		["read_ios", .read_pass.requests],
		["write_mbps", .written.workload_bytes / 1e6 / .elapsed_s],
		["read_mbps", .read_pass.mbps]
	] end)[] |
	"engine\t\($w)\t\($s)\t\($run)\t\(.[0])\t\(.[1])"' "$1"
}

# guest_op_cpu: the engine's --op-cpu-us MIN,MAX for ckpt-storm, the tenth
# and ninetieth percentiles of the guest's touch times (means over the
# kernel's runs).  A touch does no I/O: its time is what an operation takes
# on the emulated vCPUs before it reaches f2fs, 0.1-0.7 ms under TCG.  It
# decides whether a caller's touch comes before the next checkpoint blocks
# operations (covered by it: the caller's own checkpoint is then skipped,
# as a quarter are without merge) or while it runs.
guest_op_cpu() {
	awk -F'\t' '$1 == "kernel" && $2 == "ckpt-storm" && $5 ~ /^a_touch_p[19]0_us$/ {
		sum[$5] += $6; n[$5]++
	}
	END {
		if (n["a_touch_p10_us"] && n["a_touch_p90_us"])
			printf "%d,%d\n", sum["a_touch_p10_us"] / n["a_touch_p10_us"],
				sum["a_touch_p90_us"] / n["a_touch_p90_us"]
	}' "$KRES"
}

# engine_figures WORKLOAD: XCHECK_ENGINE_RUNS engine runs into $work/engine-WORKLOAD.tsv.
engine_figures() {
	local w=$1 rows=$work/engine-$1.tsv img=$work/engine.img i json t0 failures=0 op_cpu
	local -a common args
	read -r -a common <<<"$(engine_common)"
	if [ "$w" = ckpt-storm ]; then
		op_cpu=$(guest_op_cpu)
		if [ -z "$op_cpu" ]; then
			fail "replay-xcheck/$w/engine" "no touch times among the kernel's figures ($KRES)"
			return 1
		fi
		common+=(--op-cpu-us "$op_cpu" --threads-cpu "$GUEST_SMP")
	fi
	: >"$rows"
	t0=$(now)
	for ((i = 1; i <= ENGINE_RUNS; i++)); do
		json=$OUT/engine-$w-$i.json
		rm -f "$img"
		truncate -s "$IMG_SIZE" "$img" || return 1
		case $w in
		ckpt-storm)
			# Alternate which policy runs first, so neither always has the warmer host.
			if ((i % 2)); then
				args=(--compare --checkpoint-merge --no-checkpoint-merge)
			else
				args=(--compare --no-checkpoint-merge --checkpoint-merge)
			fi
			args+=(--count "$ROUNDS" --file-size "$STORM_SIZE" ckpt-storm)
			;;
		tiotest)
			args=(--serialize-writepages --threads "$THREADS" --file-size "$TIO_SIZE" tiotest)
			;;
		esac
		if ! "$F2FS_IO" replay --mkfs "" "${common[@]}" --seed "$i" --json --no-progress \
			"${args[@]}" "$img" >"$json" 2>"$OUT/engine-$w-$i.err" </dev/null; then
			info "$w: engine run $i failed: $(tail -n 1 "$OUT/engine-$w-$i.err")"
			failures=$((failures + 1))
			continue
		fi
		engine_rows "$json" "$i" >>"$rows" || failures=$((failures + 1))
	done
	rm -f "$img"
	info "$w: engine runs took $(since "$t0")s ($F2FS_IO replay --mkfs \"\" ${common[*]} ...)"
	cat "$rows" >>"$OUT/engine-results.tsv"
	if [ "$failures" != 0 ]; then
		fail "replay-xcheck/$w/engine" "$failures of $ENGINE_RUNS runs failed (see $OUT/engine-$w-*.err)"
		return 1
	fi
	pass "replay-xcheck/$w/engine"
}

# ---- comparing ----

# stats ROWS...: "source setting figure n median spread min max" per group.
# The median, not the mean: runs fall into regimes (the kernel's fast and
# slow checkpoints, the engine's lockstep and alternating callers), and one
# run in the other regime would decide a mean's sign.
stats() {
	cat "$@" | awk -F'\t' '
	{
		g = $1 "\t" $3 "\t" $5
		if (!(g in n)) { lo[g] = $6; hi[g] = $6; order[++k] = g }
		v[g, ++n[g]] = $6 + 0
		if ($6 < lo[g]) lo[g] = $6
		if ($6 > hi[g]) hi[g] = $6
	}
	function median(g, m, x, i, j, t) {
		m = n[g]
		for (i = 1; i <= m; i++) x[i] = v[g, i]
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
		return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
	}
	END {
		for (i = 1; i <= k; i++) {
			g = order[i]
			printf "%s\t%d\t%.6g\t%.6g\t%.6g\t%.6g\n", g, n[g], median(g), hi[g] - lo[g],
				lo[g], hi[g]
		}
	}'
}

# stat_of STATS SOURCE SETTING FIGURE: "n median spread min max", or nothing.
stat_of() {
	awk -F'\t' -v s="$2" -v t="$3" -v f="$4" \
		'$1 == s && $2 == t && $3 == f { print $4, $5, $6, $7, $8 }' "$1"
}

fmt() { # fmt "n median spread": median±spread
	[ -n "$1" ] || {
		echo "-"
		return
	}
	echo "$1" | awk 'function f(x) { return x >= 100 || x <= -100 ? sprintf("%.0f", x) : sprintf("%.3g", x) }
		{ printf "%s±%s", f($2), f($3) }'
}

storm_compare() {
	local st=$work/ckpt-storm.stats m k_on k_off e_on e_off verdict line
	local asserted_set
	stats "$work/kernel-ckpt-storm.tsv" "$work/engine-ckpt-storm.tsv" >"$st"
	{
		echo "ckpt-storm: merge on vs off (median±spread over $RUNS kernel and $ENGINE_RUNS engine runs; effect = on - off)"
		printf '%-16s %14s %14s %10s | %14s %14s %10s | %s\n' figure "kernel off" "kernel on" effect \
			"engine off" "engine on" effect verdict
	} >"$work/table-storm"
	asserted_set=" ${STORM_ASSERTED[*]} "
	for m in "${STORM_ASSERTED[@]}" "${STORM_SHOWN[@]}"; do
		k_on=$(stat_of "$st" kernel merge "$m")
		k_off=$(stat_of "$st" kernel nomerge "$m")
		e_on=$(stat_of "$st" engine merge "$m")
		e_off=$(stat_of "$st" engine nomerge "$m")
		verdict=$(awk -v kon="$k_on" -v koff="$k_off" -v eon="$e_on" -v eoff="$e_off" \
			-v asserted="$([[ $asserted_set == *" $m "* ]] && echo 1 || echo 0)" 'BEGIN {
			if (!asserted) { print "INFO"; exit }
			if (kon == "" || koff == "") { print "SKIP no kernel figures"; exit }
			split(kon, a, " "); split(koff, b, " ")
			keff = a[2] - b[2]; spread = a[3] > b[3] ? a[3] : b[3]
			kdir = keff > 0 ? "up" : (keff < 0 ? "down" : "none")
			if (eon == "" || eoff == "") { print "FAIL no engine figures"; exit }
			split(eon, c, " "); split(eoff, d, " ")
			eeff = c[2] - d[2]
			edir = eeff > 0 ? "up" : (eeff < 0 ? "down" : "none")
			why = sprintf("kernel %+.3g (spread %.3g; runs off %.3g..%.3g, on %.3g..%.3g), engine %+.3g",
				keff, spread, b[4], b[5], a[4], a[5], eeff)
			if (keff * keff <= spread * spread) { print "SKIP kernel effect within its spread: " why; exit }
			espread = c[3] > d[3] ? c[3] : d[3]
			if (kdir != edir && eeff * eeff <= espread * espread) {
				print "SKIP engine effect within its own spread (" espread "): " why; exit
			}
			print (kdir == edir ? "PASS " : "FAIL ") why
		}')
		line=$(printf '%-16s %14s %14s %10s | %14s %14s %10s | %s' "$m" "$(fmt "$k_off")" \
			"$(fmt "$k_on")" "$(effect "$k_on" "$k_off")" "$(fmt "$e_off")" "$(fmt "$e_on")" \
			"$(effect "$e_on" "$e_off")" "${verdict%% *}")
		echo "$line" >>"$work/table-storm"
		case $verdict in
		PASS*) pass "replay-xcheck/ckpt-storm/$m" ;;
		FAIL*) fail "replay-xcheck/ckpt-storm/$m" "direction disagrees: ${verdict#FAIL }" ;;
		SKIP*) skip "replay-xcheck/ckpt-storm/$m" "${verdict#SKIP }" ;;
		esac
	done
}

effect() { # effect ON OFF: the difference of the medians
	if [ -z "$1" ] || [ -z "$2" ]; then
		echo "-"
		return
	fi
	awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); d = x[2] - y[2]
		printf (d >= 100 || d <= -100 ? "%+.0f" : "%+.3g"), d }'
}

tio_compare() {
	local st=$work/tiotest.stats m k e verdict
	stats "$work/kernel-tiotest.tsv" "$work/engine-tiotest.tsv" >"$st"
	{
		echo "tiotest: kernel 6.1 (background write-back serialized) vs engine --serialize-writepages"
		printf '%-20s %16s %16s %8s | %s\n' figure kernel engine ratio verdict
	} >"$work/table-tio"
	for m in "${TIO_ASSERTED[@]}" "${TIO_SHOWN[@]}"; do
		k=$(stat_of "$st" kernel serialized "$m")
		e=$(stat_of "$st" engine serialized "$m")
		verdict=$(awk -v k="$k" -v e="$e" -v asserted="$([[ " ${TIO_ASSERTED[*]} " == *" $m "* ]] &&
			echo 1 || echo 0)" 'BEGIN {
			if (!asserted) { asserted = -1 }
			if (k == "" && asserted > 0) { print "SKIP - no kernel figures"; exit }
			if (e == "" && asserted > 0) { print "FAIL - no engine figures"; exit }
			if (k == "" || e == "") { print "INFO -"; exit }
			split(k, a, " "); split(e, b, " ")
			if (a[2] <= 0 || b[2] <= 0) { print (asserted > 0 ? "FAIL" : "INFO") " - a figure is zero"; exit }
			r = b[2] / a[2]; big = r >= 1 ? r : 1 / r
			why = sprintf("kernel %.3g, engine %.3g: engine/kernel %.2fx", a[2], b[2], r)
			printf "%s %.2f %s\n", asserted < 0 ? "INFO" : (big <= 2 ? "PASS" : "FAIL"), r, why
		}')
		printf '%-20s %16s %16s %8s | %s\n' "$m" "$(fmt "$k")" "$(fmt "$e")" \
			"$(echo "$verdict" | awk '{ print $2 }')" "${verdict%% *}" >>"$work/table-tio"
		case $verdict in
		PASS*) pass "replay-xcheck/tiotest/$m" ;;
		FAIL*) fail "replay-xcheck/tiotest/$m" "gap beyond 2x: $(echo "$verdict" | cut -d' ' -f3-)" ;;
		SKIP*) skip "replay-xcheck/tiotest/$m" "$(echo "$verdict" | cut -d' ' -f3-)" ;;
		esac
	done
}

# accuracy WORKLOAD SETTING FIGURE...: rows of the accuracy table (kernel
# median±spread, spread in % of the median, engine median±spread, engine /
# kernel) into $work/table-accuracy, and the magnitude verdicts of the
# figures in MAG_ASSERTED.
accuracy() {
	local w=$1 set=$2 st=$work/$1.stats m k e verdict key
	shift 2
	[ -s "$work/table-accuracy" ] || {
		echo "accuracy: engine / kernel, median of each (asserted within ±$MAG_TOLERANCE% where the kernel's spread is within it)"
		printf '%-32s %14s %7s %14s %7s | %s\n' figure kernel spread engine ratio verdict
	} >"$work/table-accuracy"
	for m in "$@"; do
		key=$w:$set:$m
		k=$(stat_of "$st" kernel "$set" "$m")
		e=$(stat_of "$st" engine "$set" "$m")
		verdict=$(awk -v k="$k" -v e="$e" -v tol="$MAG_TOLERANCE" \
			-v asserted="$([[ " ${MAG_ASSERTED[*]} " == *" $key "* ]] && echo 1 || echo 0)" \
			-v miss="$([[ " ${MAG_MISSES[*]} " == *" $key "* ]] && echo 1 || echo 0)" 'BEGIN {
			if (k == "" || e == "") { print (asserted ? "SKIP" : "INFO") " - - no figures"; exit }
			split(k, a, " "); split(e, b, " ")
			if (a[2] == 0) { print (asserted ? "SKIP" : "INFO") " - - the kernel figure is zero"; exit }
			sp = 100 * a[3] / (a[2] < 0 ? -a[2] : a[2]); r = b[2] / a[2]
			off = r >= 1 ? 100 * (r - 1) : 100 * (1 - r)
			why = sprintf("kernel %.4g (spread %.0f%%), engine %.4g: engine/kernel %.2f", a[2], sp, b[2], r)
			v = "INFO"
			if (asserted) v = sp > tol ? "SKIP" : (off <= tol ? "PASS" : "FAIL")
			else if (miss && sp <= tol && off > tol) v = "MISS"
			printf "%s %.0f%% %.2f %s\n", v, sp, r, why
		}')
		printf '%-32s %14s %7s %14s %7s | %s\n' "$key" "$(fmt "$k")" "$(echo "$verdict" | cut -d' ' -f2)" \
			"$(fmt "$e")" "$(echo "$verdict" | cut -d' ' -f3)" "${verdict%% *}" >>"$work/table-accuracy"
		case $verdict in
		PASS*) pass "replay-xcheck/magnitude/$key" ;;
		FAIL*) fail "replay-xcheck/magnitude/$key" "beyond ±$MAG_TOLERANCE%: $(echo "$verdict" | cut -d' ' -f4-)" ;;
		SKIP*) skip "replay-xcheck/magnitude/$key" "kernel spread beyond ±$MAG_TOLERANCE%: $(echo "$verdict" | cut -d' ' -f4-)" ;;
		esac
	done
}

# ---- verify ----

# fsck_both IMG TAG: both fscks clean (0), else a reason on stdout.
fsck_both() {
	local img=$1 tag=$2 ours=$work/$2.ours.log ups=$work/$2.upstream.log orc urc ov uv
	"$OUR_FSCK" --dry-run -f "$img" </dev/null >"$ours" 2>&1
	orc=$?
	"$UPSTREAM_FSCK" --dry-run -f "$img" </dev/null >"$ups" 2>&1
	urc=$?
	ov=$(our_verdict "$orc" "$ours") && ov=clean
	uv=$(upstream_verdict "$urc" "$ups") && uv=clean
	[ "$ov" = clean ] && [ "$uv" = clean ] && return 0
	{
		echo "----- $tag: our fsck --dry-run -f (exit $orc) -----"
		fsck_log_tail "$ours"
		echo "----- $tag: upstream fsck --dry-run -f (exit $urc) -----"
		fsck_log_tail "$ups"
	} >&2
	echo "$tag: ours: $ov; upstream: $uv"
	return 1
}

verify_case() {
	local tio=$work/verify-tio.img storm=$work/verify-storm.img seed=7 paths='' i reason got
	local name=replay-xcheck/verify
	for i in "$tio" "$storm"; do
		rm -f "$i"
		truncate -s "$IMG_SIZE" "$i" || {
			fail "$name" "cannot create $i"
			return
		}
	done
	# Unthrottled: only the bytes matter here.
	if ! "$F2FS_IO" replay --mkfs "" --seed $seed --no-progress --threads 4 --file-size 8M \
		tiotest "$tio" >"$work/verify-tio.log" 2>&1 </dev/null; then
		fail "$name" "f2fs_io replay tiotest: $(tail -n 1 "$work/verify-tio.log")"
		return
	fi
	if ! "$F2FS_IO" replay --mkfs "" --seed $seed --no-progress --count 20 --file-size 16M \
		ckpt-storm "$storm" >"$work/verify-storm.log" 2>&1 </dev/null; then
		fail "$name" "f2fs_io replay ckpt-storm: $(tail -n 1 "$work/verify-storm.log")"
		return
	fi
	if ! reason=$(fsck_both "$tio" verify-tio-before) ||
		! reason=$(fsck_both "$storm" verify-storm-before); then
		fail "$name" "before the mount: $reason"
		return
	fi
	for ((i = 0; i < 4; i++)); do paths+=" /tio/file$i"; done
	guest_plain
	GUEST_EXTRA_DRIVES="file=$storm,format=raw,if=virtio"
	GUEST_JOB_ENV="SEED=$seed
VDA_PATHS='${paths# }'
VDB_PATHS=/fio/test_img"
	if ! guest_run "$tio" "$here/jobs/replay-verify.sh" "$replayload"; then
		fail "$name" "kernel: $guest_error"
		guest_plain
		return
	fi
	guest_plain
	got=$(grep -a '^@@M disk=' "$guest_log" | tr -d '\r' |
		awk '{ split($3, kv, "="); v[$2 " " kv[1]] = kv[2] }
		END { printf "%s %s %s %s", v["disk=vda verify_bytes"], v["disk=vda verify_bad"],
			v["disk=vdb verify_bytes"], v["disk=vdb verify_bad"] }')
	if [ "$got" != "$((4 * 8 * 1048576)) 0 $((16 * 1048576)) 0" ]; then
		fail "$name" "the guest read back 'bytes bad' = '$got' (tiotest, ckpt-storm)"
		return
	fi
	if ! reason=$(fsck_both "$tio" verify-tio-after) ||
		! reason=$(fsck_both "$storm" verify-storm-after); then
		fail "$name" "after the kernel's unmount: $reason"
		return
	fi
	info "verify: the kernel read back 4 tiotest files (32 MiB) and test_img (16 MiB), seed $seed"
	pass "$name"
	rm -f "$tio" "$storm"
}

build_replayload() {
	local libs
	replayload=$work/replayload
	# the libraries libf2fs needs, as configure found them
	libs=$(make -s --no-print-directory -C "$(dirname "$LIBF2FS")/.." print-libf2fs-deps 2>/dev/null | tail -n 1)
	[ -n "$libs" ] || libs="-lz -luuid -lblkid -llz4 -lpthread"
	# shellcheck disable=SC2086 # one word per library
	"${CC:-cc}" -O2 -Wall -Wextra -Werror -I"$repo/include" -I"$repo" -o "$replayload" \
		"$here/tools/replayload.c" "$LIBF2FS" $libs -lpthread \
		2>"$work/replayload.build.log"
}

# ---- trace ----

trace_case() {
	local name=replay-xcheck/trace summary
	if ! kernel_boot ckpt-storm trace "$here/jobs/replay-trace.sh" "ROUNDS=$ROUNDS
FILE_SIZE=$STORM_SIZE
MOUNT_OPT=nocheckpoint_merge" -; then
		fail "$name" "$boot_error"
		return
	fi
	mv "$OUT/kernel-ckpt-storm-trace.log" "$OUT/trace.log"
	if ! summary=$(python3 "$here/tools/trace_summary.py" "$OUT/trace.log" 2>&1); then
		fail "$name" "$summary"
		return
	fi
	printf '# trace: %s\n' "${summary//$'\n'/$'\n'# trace: }" >&2
	info "trace: console $OUT/trace.log"
	pass "$name"
}

main() {
	local t_all w m
	t_all=$(now)
	start_work replay-xcheck
	need_executable "$MKFS" "$OUR_FSCK" "$F2FS_IO" "$UPSTREAM_FSCK"
	command -v jq >/dev/null || CI=true abandon "jq not found (scripts/setup.sh installs it)"
	command -v numfmt >/dev/null || CI=true abandon "numfmt not found"
	[ "$RUNS" -ge 2 ] 2>/dev/null || CI=true abandon "XCHECK_RUNS must be at least 2 (a spread needs two runs)"
	[ "$ENGINE_RUNS" -ge 2 ] 2>/dev/null ||
		CI=true abandon "XCHECK_ENGINE_RUNS must be at least 2 (a spread needs two runs)"
	[ -f "$LIBF2FS" ] || CI=true abandon "$LIBF2FS not built"
	build_replayload || CI=true abandon "cannot build replayload: $(head -n 3 "$work/replayload.build.log")"
	mkdir -p "$OUT" || abandon "cannot make $OUT"
	rm -f "$OUT"/engine-* "$OUT/table.txt"
	: >"$OUT/engine-results.tsv"
	info "kernel $GUEST_KPKG $GUEST_KPKG_VERSION; $(common_params)"
	info "results in $OUT; kernel figures: $KRES"

	for w in ckpt-storm tiotest; do
		if ! wanted "$w"; then
			for m in $(all_names | grep -e "^replay-xcheck/$w/" -e "^replay-xcheck/magnitude/$w:"); do skip "$m" "not in XCHECK_CASES"; done
			continue
		fi
		kernel_figures "$w"
		engine_figures "$w"
		case $w in
		ckpt-storm)
			storm_compare
			accuracy ckpt-storm nomerge "${STORM_ASSERTED[@]}" "${STORM_SHOWN[@]}"
			accuracy ckpt-storm merge "${STORM_ASSERTED[@]}" "${STORM_SHOWN[@]}"
			;;
		tiotest)
			tio_compare
			accuracy tiotest serialized "${TIO_ASSERTED[@]}" "${TIO_SHOWN[@]}"
			;;
		esac
	done
	if wanted verify; then
		verify_case
	else
		skip replay-xcheck/verify "not in XCHECK_CASES"
	fi
	if wanted trace; then
		trace_case
	else
		skip replay-xcheck/trace "not in XCHECK_CASES"
	fi
	cat "$work"/table-storm "$work"/table-tio "$work"/table-accuracy 2>/dev/null |
		tee "$OUT/table.txt" | sed 's/^/# /' >&2
	[ -s "$OUT/table.txt" ] && info "table: $OUT/table.txt"
	info "total $(since "$t_all")s"
	finish_work '*.img'
}

main "$@"
