#!/bin/bash
# The crash-test campaign (scripts/crashtest) as a kernel test: its
# self-test, then CRASHTEST_COUNT iterations (default 10) with our mkfs at
# -s 1 (1 GiB image) and as many at -s 128 (8 GiB sparse image).  Each
# iteration makes an image, runs the seeded fsync-heavy workload in the
# guest, kills qemu at the seed's cut, runs our fsck and upstream's on the
# cut image (both must call it clean, agree and write nothing), mounts it
# in the guest (roll-forward), checks every fsynced file the log says must
# have survived, unmounts, and runs both fscks again (both clean).
#
# The seeds are fixed (CRASHTEST_SEED_S1, default 1000, and
# CRASHTEST_SEED_S128, default 2000, for iterations 0..COUNT-1), so a
# failure names a seed that "scripts/crashtest --replay SEED --mkfs '-s 1'"
# (or '-s 128') reruns; a failing iteration's image, log and outputs are
# kept under CRASHTEST_KEEP (default ${TMPDIR:-/tmp}/crashtest-kept).
#
# Environment:
#   MKFS, OUR_FSCK   our tools (default this checkout's builds)
#   UPSTREAM_FSCK    upstream fsck.f2fs (default: scripts/crashtest's choice,
#                    the newest build next to the checkout, else Debian's)
#   CRASHTEST_COUNT, CRASHTEST_SEED_S1, CRASHTEST_SEED_S128, CRASHTEST_KEEP
#   CI=true          a harness that cannot be set up is a failure, not a skip
#   plus TMPDIR and the GUEST_* variables of guest.sh
#
# Output: "PASS: crashtest/selftest", then one "PASS: crashtest/s1/seed-N" or
# "FAIL: crashtest/s1/seed-N: reason" line per iteration (likewise s128);
# the campaign's summary lines and details on stderr; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2317 # all_names is called by lib.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"

COUNT=${CRASHTEST_COUNT:-10}
SEED_S1=${CRASHTEST_SEED_S1:-1000}
SEED_S128=${CRASHTEST_SEED_S128:-2000}
KEEP=${CRASHTEST_KEEP:-${TMPDIR:-/tmp}/crashtest-kept}
CRASHTEST=$repo/scripts/crashtest
upstream=()
[ -n "${UPSTREAM_FSCK:-}" ] && upstream=(--upstream-fsck "$UPSTREAM_FSCK")

# name | mkfs options | first seed
CAMPAIGNS=("s1|-s 1|$SEED_S1" "s128|-s 128|$SEED_S128")

all_names() {
	local c name opts seed i
	echo crashtest/selftest
	for c in "${CAMPAIGNS[@]}"; do
		IFS='|' read -r name opts seed <<<"$c"
		for ((i = 0; i < COUNT; i++)); do
			echo "crashtest/$name/seed-$((seed + i))"
		done
	done
}

# Turn crashtest's iteration lines into result lines; an iteration that
# printed none (the campaign died) fails.
report() {
	local name=$1 seed=$2 out=$3 rc=$4 i s line
	for ((i = 0; i < COUNT; i++)); do
		s=$((seed + i))
		line=$(grep "^crashtest: seed=$s " "$out" | tail -n 1)
		case $line in
		*"=> PASS") pass "crashtest/$name/seed-$s" ;;
		*"=> FAIL: "*) fail "crashtest/$name/seed-$s" "${line#*=> FAIL: }" ;;
		*) fail "crashtest/$name/seed-$s" "no result (scripts/crashtest exited $rc)" ;;
		esac
	done
}

main() {
	local c name opts seed out rc t0
	out=$(mktemp "${TMPDIR:-/tmp}/crashtest-ci.XXXXXX") || abandon "cannot create a file in ${TMPDIR:-/tmp}"
	trap 'rm -f "$out" "$out.err"' EXIT

	"$CRASHTEST" --selftest >"$out" 2>&1
	rc=$?
	[ $rc = 77 ] && abandon "$(tail -n 1 "$out")"
	if grep -q '=> PASS$' "$out"; then
		pass crashtest/selftest
	else
		fail crashtest/selftest "$(tail -n 1 "$out")"
	fi

	for c in "${CAMPAIGNS[@]}"; do
		IFS='|' read -r name opts seed <<<"$c"
		t0=$(now)
		"$CRASHTEST" -n "$COUNT" --seed "$seed" --mkfs "$opts" --keep-dir "$KEEP" \
			"${upstream[@]}" >"$out" 2>"$out.err"
		rc=$?
		[ $rc = 77 ] && abandon "$(tail -n 1 "$out.err")"
		sed 's/^/# /' "$out.err" >&2
		grep '^crashtest: ' "$out" | sed 's/^/# /' >&2
		report "$name" "$seed" "$out" "$rc"
		info "crashtest '$opts': $COUNT iterations in $(since "$t0") s"
	done
	exit "$failed"
}

main "$@"
