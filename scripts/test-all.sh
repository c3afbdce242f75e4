#!/bin/bash
# The whole test suite on a fresh Debian machine: set-up, the build (normal
# and ASan/UBSan), unit tests, cli tests (both builds), kernel tests in a
# qemu guest, and make distcheck.  Every test prints PASS:/FAIL:/SKIP: lines;
# this script gathers them and ends with the line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=${TEST_LOG_DIR:-$top/build-logs}
mkdir -p "$logs"
results=$logs/results.txt
: >"$results"

# run_group NAME CMD...: run CMD, keep its log, collect its result lines;
# a command that fails without reporting a failure counts as one.
run_group() {
	local name=$1 log rc
	shift
	log=$logs/$(echo "$name" | tr '/ ' '__').log
	"$@" >"$log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL|SKIP): ' "$log" | sed "s|^\([A-Z]*\): |\1: $name: |" >>"$results"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$log"; then
		echo "FAIL: $name: exited $rc (see $log)" >>"$results"
	fi
	grep -E "^FAIL: $name" "$results" | tail -n 20
	return 0
}

step() {
	local name=$1
	shift
	if "$@" >"$logs/$name.log" 2>&1; then
		echo "PASS: $name" >>"$results"
		return 0
	fi
	echo "FAIL: $name (see $logs/$name.log)" >>"$results"
	tail -n 30 "$logs/$name.log"
	return 1
}

unit_tests() {
	local dir=$1 t rc=0
	for t in "$dir"/tests/unit/*/test_*; do
		case $t in *.c | *.o) continue ;; esac
		[ -x "$t" ] || continue
		"$t" || rc=1
	done
	# every PR_ code must be asserted by some test; the layers must hold
	top_srcdir=$top bash "$top/tests/unit/problem-codes.sh" || rc=1
	top_srcdir=$top bash "$top/tests/unit/fix-codes.sh" || rc=1
	top_srcdir=$top bash "$top/scripts/check-layers.sh" || rc=1
	return $rc
}

cli_tests() {
	local dir=$1 t rc=0
	for t in "$top"/tests/cli/*.sh; do
		[ "$(basename "$t")" = lib.sh ] && continue
		MKFS=$dir/mkfs/mkfs.f2fs FSCK=$dir/fsck/fsck.f2fs DUMP=$dir/dump/dump.f2fs \
			INJECT=$dir/inject/inject.f2fs F2FS_IO=$dir/tools/f2fs_io/f2fs_io \
			OUR_SLOAD=$dir/sload/sload.f2fs F2FS_UNDO=$dir/undo/f2fs_undo \
			WRTOOL=$dir/tests/cli/wrtool bash "$t" || rc=1
	done
	FSCK=$dir/fsck/fsck.f2fs DUMP=$dir/dump/dump.f2fs INJECT=$dir/inject/inject.f2fs \
		bash "$top/tests/golden/run.sh" || rc=1
	return $rc
}

kernel_tests() {
	local t rc=0
	bash "$top/tests/kernel/setup.sh" || { echo "FAIL: setup: guest kernel"; return 1; }
	for t in "$top"/tests/kernel/[0-9]*.sh; do
		MKFS=$top/mkfs/mkfs.f2fs OUR_FSCK=$top/fsck/fsck.f2fs \
			F2FS_IO=$top/tools/f2fs_io/f2fs_io OUR_SLOAD=$top/sload/sload.f2fs \
			WRTOOL=$top/tests/cli/wrtool bash "$t" || rc=1
	done
	return $rc
}

echo "== set-up"
if step setup bash scripts/setup.sh && step build bash scripts/build.sh; then
	echo "== unit tests";   run_group unit unit_tests "$top"
	echo "== cli tests";    run_group cli cli_tests "$top"
	if step build-asan bash scripts/build.sh --asan; then
		export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
		echo "== unit tests (asan)"; run_group asan/unit unit_tests "$top/build-asan/src"
		echo "== cli tests (asan)";  run_group asan/cli cli_tests "$top/build-asan/src"
		echo "== fuzz (asan)";       run_group asan/fuzz bash "$top/tests/fuzz/mutate.sh"
		unset ASAN_OPTIONS UBSAN_OPTIONS
	fi
	echo "== kernel tests"; run_group kernel kernel_tests
	if [ "${SKIP_DISTCHECK:-0}" != 1 ]; then
		echo "== distcheck"; step distcheck make -s distcheck
	fi
fi

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
skipped=$(grep -c '^SKIP: ' "$results")
grep -E '^(FAIL|SKIP): ' "$results"
echo "results: $results"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
