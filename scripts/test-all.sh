#!/bin/bash
# The whole test suite on a fresh Debian machine: set-up, the build (normal
# and ASan/UBSan), unit tests (both builds), cli tests (CLI_BUILDS), fuzzing, kernel tests
# in a qemu guest, and make distcheck.  Every test prints PASS:/FAIL:/SKIP:
# lines; this script gathers them, prints how long each group took, and ends
# with the line "N passed, N failed".
#
#   scripts/test-all.sh           the default tier (what CI runs, <= 40 min
#                                 on 2 cores)
#   scripts/test-all.sh --long    the long tier: the default's assertions
#                                 with the campaigns at full size (see
#                                 README.md, "Tests")
#
# After the build the work runs in two lanes at once, so that both cores
# stay busy: the kernel lane (qemu under TCG keeps one core busy) and the
# host lane (unit tests, the ASan build and its groups: unit, cli, fuzz;
# distcheck, then the kernel scripts in HOST_LANE_KERNEL, which balance the
# lanes).  Each group keeps its own log under build-logs/; results are
# merged in lane order.  A kernel script that measures timing against the
# guest (QUIET_SCRIPTS) runs after the others, once the host lane is done.
# The ASan build's pass runs the programs' tests only: the checks of the
# sources (problem codes, layers) ran once already.  The cli suite runs
# against the builds in CLI_BUILDS: in the default tier the ASan/UBSan one
# alone (its assertions are the plain pass's, with memory and UB errors
# caught besides; the kernel lane runs the plain build), in --long both.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
tier=default
case ${1:-} in
--long) tier=long ;;
'') ;;
*)
	echo "usage: scripts/test-all.sh [--long]" >&2
	exit 2
	;;
esac
logs=${TEST_LOG_DIR:-$top/build-logs}
mkdir -p "$logs"
rm -f "$logs"/results*.txt "$logs"/times*.tsv "$logs/host-lane.done" "$logs/kernel-setup.ok"
results=$logs/results.txt
times=$logs/times.tsv
: >"$results"
: >"$times"
QUIET_SCRIPTS=${QUIET_SCRIPTS:-007-replay-crosscheck.sh}
# HOST_LANE_KERNEL (set by the tier): kernel scripts the host lane runs
# after its own groups, so that the two lanes end together (the quiet
# scripts wait for both).
WARN_SECONDS=2700

# The tier's sizes, as the knobs of the scripts they belong to.  A knob the
# caller set stays as it is.
set_tier() {
	if [ "$tier" = long ]; then
		: "${MKFS_MATRIX_LONG:=1}" "${CRASHTEST_COUNT:=10}" "${POWER_CUT_TIMES:=2 4.5 8}"
		: "${XCHECK_ENGINE_RUNS:=5}"
		: "${FUZZ_ITERS:=2000}" "${FUZZ_DRIVER_ITERS:=20000}" "${FUZZ_READ_ITERS:=20000}"
		: "${FUZZ_UNDO_ITERS:=20000}" "${FUZZ_DIFF_ITERS:=1000}" "${KV_MUTANTS:=1000}"
		: "${RESIZE_LONG:=1}" "${HOST_LANE_KERNEL=}" "${CLI_BUILDS:=plain asan}"
	else
		: "${MKFS_MATRIX_LONG:=0}" "${CRASHTEST_COUNT:=2}" "${POWER_CUT_TIMES:=2 8}"
		: "${XCHECK_ENGINE_RUNS:=3}"
		: "${FUZZ_ITERS:=150}" "${FUZZ_DRIVER_ITERS:=2000}" "${FUZZ_READ_ITERS:=2000}"
		: "${FUZZ_UNDO_ITERS:=3000}" "${FUZZ_DIFF_ITERS:=150}" "${KV_MUTANTS:=16}"
		: "${RESIZE_LONG:=0}" "${CLI_BUILDS:=asan}"
		: "${HOST_LANE_KERNEL=014-resize.sh 017-compress.sh 018-defrag.sh 019-ro.sh}"
	fi
	export MKFS_MATRIX_LONG CRASHTEST_COUNT POWER_CUT_TIMES XCHECK_ENGINE_RUNS FUZZ_ITERS \
		FUZZ_DRIVER_ITERS FUZZ_READ_ITERS FUZZ_UNDO_ITERS FUZZ_DIFF_ITERS KV_MUTANTS
	export RESIZE_LONG
}

now() { date +%s; }

# timed NAME CMD...: run CMD and add "NAME<TAB>seconds" to the times file of
# the current lane ($lane_times).
timed() {
	local name=$1 t0 rc
	shift
	t0=$(now)
	"$@"
	rc=$?
	printf '%s\t%s\n' "$name" "$(($(now) - t0))" >>"$lane_times"
	return $rc
}

# run_group NAME CMD...: run CMD, keep its log, collect its result lines in
# the lane's results file; a command that fails without reporting a failure
# counts as one.
run_group() {
	local name=$1 log rc
	shift
	log=$logs/$(echo "$name" | tr '/ ' '__').log
	timed "$name" "$@" >"$log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL|SKIP): ' "$log" | sed "s|^\([A-Z]*\): |\1: $name: |" >>"$lane_results"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$log"; then
		echo "FAIL: $name: exited $rc (see $log)" >>"$lane_results"
	fi
	grep -E "^FAIL: $name" "$lane_results" | tail -n 20
	return 0
}

# step NAME CMD...: one result line for the whole command.
step() {
	local name=$1
	shift
	if timed "$name" "$@" >"$logs/$name.log" 2>&1; then
		echo "PASS: $name" >>"$lane_results"
		return 0
	fi
	echo "FAIL: $name (see $logs/$name.log)" >>"$lane_results"
	tail -n 30 "$logs/$name.log"
	return 1
}

# unit_tests DIR [binaries]: the unit test programs of the build in DIR,
# then the checks of the sources, unless "binaries" asks for the programs
# only (the ASan build's pass: the sources are the same).
unit_tests() {
	local dir=$1 t rc=0
	for t in "$dir"/tests/unit/*/test_*; do
		case $t in *.c | *.o) continue ;; esac
		[ -x "$t" ] || continue
		"$t" || rc=1
	done
	[ "${2:-}" = binaries ] && return $rc
	# every PR_ code must be asserted by some test; the layers must hold
	top_srcdir=$top bash "$top/tests/unit/problem-codes.sh" || rc=1
	top_srcdir=$top bash "$top/tests/unit/fix-codes.sh" || rc=1
	top_srcdir=$top top_builddir=$dir bash "$top/scripts/check-layers.sh" || rc=1
	return $rc
}

# The cli scripts that run none of our programs (check-layers.sh tests a
# script of the tree): once is enough, in the first cli pass.
SCRIPT_ONLY_CLI="check-layers.sh"

# listed WORD LIST: WORD is one of the space-separated words of LIST.
listed() {
	[[ " $2 " == *" $1 "* ]]
}

# cli_tests DIR [binaries]: the cli scripts against the programs of the
# build in DIR; with "binaries", not the ones in SCRIPT_ONLY_CLI (run by
# the pass before).
cli_tests() {
	local dir=$1 t rc=0
	for t in "$top"/tests/cli/*.sh; do
		[ "$(basename "$t")" = lib.sh ] && continue
		[ "${2:-}" = binaries ] && listed "$(basename "$t")" "$SCRIPT_ONLY_CLI" && continue
		MKFS=$dir/mkfs/mkfs.f2fs FSCK=$dir/fsck/fsck.f2fs DUMP=$dir/dump/dump.f2fs \
			INJECT=$dir/inject/inject.f2fs F2FS_IO=$dir/tools/f2fs_io/f2fs_io \
			OUR_SLOAD=$dir/sload/sload.f2fs F2FS_UNDO=$dir/undo/f2fs_undo \
			WRTOOL=$dir/tests/cli/wrtool TOP_BUILDDIR=$dir bash "$t" || rc=1
	done
	FSCK=$dir/fsck/fsck.f2fs DUMP=$dir/dump/dump.f2fs INJECT=$dir/inject/inject.f2fs \
		bash "$top/tests/golden/run.sh" || rc=1
	return $rc
}

kernel_script() {
	MKFS=$top/mkfs/mkfs.f2fs OUR_FSCK=$top/fsck/fsck.f2fs \
		F2FS_IO=$top/tools/f2fs_io/f2fs_io OUR_SLOAD=$top/sload/sload.f2fs \
		WRTOOL=$top/tests/cli/wrtool bash "$1"
}

# wait_for_host_lane: block until the host lane has finished (or is gone).
wait_for_host_lane() {
	while [ ! -e "$logs/host-lane.done" ] && kill -0 "$host_pid" 2>/dev/null; do
		sleep 5
	done
}

# is_quiet SCRIPT: SCRIPT measures timing against the guest, so it runs
# last and alone.
is_quiet() {
	listed "$(basename "$1")" "$QUIET_SCRIPTS"
}

# on_host_lane SCRIPT: SCRIPT is one of the kernel scripts the host lane runs.
on_host_lane() {
	listed "$(basename "$1")" "$HOST_LANE_KERNEL"
}

# host_lane_kernel: the kernel scripts given to the host lane, once the
# kernel lane has set the guest up (a failed set-up is its failure).
host_lane_kernel() {
	local t
	for t in "$top"/tests/kernel/[0-9]*.sh; do
		if ! on_host_lane "$t" || is_quiet "$t"; then
			continue
		fi
		[ -e "$logs/kernel-setup.ok" ] || break
		run_group "kernel/$(basename "$t" .sh)" kernel_script "$t"
	done
}

kernel_lane() {
	local t waited=0
	lane_results=$logs/results.kernel.txt lane_times=$logs/times.kernel.tsv
	: >"$lane_results"
	: >"$lane_times"
	if ! step kernel-setup bash "$top/tests/kernel/setup.sh"; then
		return 0
	fi
	touch "$logs/kernel-setup.ok"
	for t in "$top"/tests/kernel/[0-9]*.sh; do
		is_quiet "$t" || on_host_lane "$t" || run_group "kernel/$(basename "$t" .sh)" kernel_script "$t"
	done
	for t in "$top"/tests/kernel/[0-9]*.sh; do
		is_quiet "$t" || continue
		[ $waited = 1 ] || timed "wait for the host lane" wait_for_host_lane
		waited=1
		run_group "kernel/$(basename "$t" .sh)" kernel_script "$t"
	done
}

host_lane() {
	lane_results=$logs/results.host.txt lane_times=$logs/times.host.tsv
	: >"$lane_results"
	: >"$lane_times"
	run_group unit unit_tests "$top"
	local after_plain=
	if listed plain "$CLI_BUILDS"; then
		run_group cli cli_tests "$top"
		after_plain=binaries
	fi
	if step build-asan bash scripts/build.sh --asan; then
		(
			export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
			run_group asan/unit unit_tests "$top/build-asan/src" binaries
			if listed asan "$CLI_BUILDS"; then
				run_group asan/cli cli_tests "$top/build-asan/src" $after_plain
			fi
			run_group asan/fuzz bash "$top/tests/fuzz/mutate.sh"
		)
	fi
	if [ "${SKIP_DISTCHECK:-0}" != 1 ]; then
		step distcheck make -s distcheck
	fi
	host_lane_kernel
	touch "$logs/host-lane.done"
}

# print_times: the table of each group's wall time, lane by lane, and the
# total; a warning when the total passes WARN_SECONDS.
print_times() {
	local total=$1
	echo "== wall time per group (tier: $tier)"
	awk -F'\t' '{ printf "  %-42s %5d s %5.1f min\n", $1, $2, $2 / 60 }' "$times"
	printf '  %-42s %5d s %5.1f min\n' "total" "$total" "$(awk -v t="$total" 'BEGIN { print t / 60 }')"
	if [ "$total" -gt "$WARN_SECONDS" ]; then
		echo "WARNING: the run took $((total / 60)) min, past the $((WARN_SECONDS / 60)) min budget CI keeps room under"
	fi
}

set_tier
t_start=$(now)
lane_results=$results lane_times=$times
echo "== set-up ($tier tier)"
if step setup bash scripts/setup.sh && step build bash scripts/build.sh; then
	echo "== host lane (unit, asan unit, cli on the $CLI_BUILDS build(s), asan fuzz, distcheck${HOST_LANE_KERNEL:+, then $HOST_LANE_KERNEL}) and kernel lane, side by side"
	host_lane >"$logs/host-lane.out" 2>&1 &
	host_pid=$!
	kernel_lane >"$logs/kernel-lane.out" 2>&1 &
	kernel_pid=$!
	wait "$host_pid" "$kernel_pid"
	cat "$logs/host-lane.out" "$logs/kernel-lane.out"
	for lane in host kernel; do
		cat "$logs/results.$lane.txt" >>"$results" 2>/dev/null
		[ -f "$logs/times.$lane.tsv" ] || continue
		sed "s|^|$lane: |" "$logs/times.$lane.tsv" >>"$times"
		awk -F'\t' -v l="$lane" '{ t += $2 } END { printf "%s lane, in all\t%d\n", l, t }' \
			"$logs/times.$lane.tsv" >>"$times"
	done
fi
total=$(($(now) - t_start))

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
skipped=$(grep -c '^SKIP: ' "$results")
grep -E '^(FAIL|SKIP): ' "$results"
echo "results: $results"
print_times "$total"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
