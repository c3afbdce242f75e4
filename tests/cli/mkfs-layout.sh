#!/bin/bash
# Our superblock/checkpoint layout must equal newest upstream mkfs.f2fs's
# (g-dev-test), field by field, for every volume in mkfs-layout.matrix.
#
# Where newest upstream is built (UPSTREAM_NEWEST_MKFS and
# UPSTREAM_NEWEST_DUMP, default the build of bench/build-upstream.sh beside
# the repository), each volume is made by both and compared in full with
# scripts/compare-layout.sh, and the checked-in table mkfs-layout.expected is
# checked to be what scripts/gen-layout-expected.sh makes from it today.
# Everywhere (CI has no newest build), our volumes are checked against that
# table, read back with Debian's dump.f2fs when installed, else with ours.
# Debian's 1.15 mkfs.f2fs reserves and overprovisions more on purpose, so it
# is not compared.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

COMPARE=${COMPARE_LAYOUT:-$TOP/scripts/compare-layout.sh}
GENERATE=$TOP/scripts/gen-layout-expected.sh
# another matrix and its table (tests/cli/android.sh runs this script on its own)
MATRIX=${LAYOUT_MATRIX:-$TOP/tests/cli/mkfs-layout.matrix}
EXPECTED=${LAYOUT_EXPECTED:-$TOP/tests/cli/mkfs-layout.expected}
newest_dir=$(dirname "$TOP")/upstream-f2fs-tools
NEWEST_MKFS=${UPSTREAM_NEWEST_MKFS:-$newest_dir/mkfs/mkfs.f2fs}
NEWEST_DUMP=${UPSTREAM_NEWEST_DUMP:-$newest_dir/fsck/dump.f2fs}
OUR_DUMP=${DUMP:-$TOP/dump/dump.f2fs}
export UPSTREAM_NEWEST_MKFS=$NEWEST_MKFS UPSTREAM_NEWEST_DUMP=$NEWEST_DUMP

mapfile -t cases < <(grep -Ev '^[[:space:]]*(#|$)' "$MATRIX")

# fields IMG: "name value" for each field the reader prints that the table may hold
fields() {
	"$reader" -d 1 "$1" 2>/dev/null | "$TOP/scripts/layout-fields.sh"
}

# Full comparison with newest upstream, when it is built.
compare_with_newest() {
	local m out rc
	for m in "${cases[@]}"; do
		# shellcheck disable=SC2086 # the matrix entry is SIZE and options
		out=$(TMPDIR=$WORK UPSTREAM_MKFS=$NEWEST_MKFS UPSTREAM_DUMP=$NEWEST_DUMP \
			timeout -k 5 "$CMD_TIMEOUT" bash "$COMPARE" $m 2>&1)
		rc=$?
		if [ $rc -eq 0 ]; then
			pass "newest upstream $m"
		elif [ $rc -eq 1 ]; then
			fail "newest upstream $m" "$(grep -E '^[-+]' <<<"$out" | tr '\n' ' ')"
		else
			fail "newest upstream $m" "compare-layout.sh exited $rc: $out"
		fi
	done
}

# The checked-in table must be what the generator makes from newest upstream today.
table_is_current() {
	local name
	name="$(basename "$EXPECTED") is newest upstream's"
	if ! TMPDIR=$WORK LAYOUT_MATRIX=$MATRIX bash "$GENERATE" "$WORK/expected" >"$WORK/gen.log" 2>&1; then
		fail "$name" "gen-layout-expected.sh failed: $(snippet "$WORK/gen.log" 300)"
	elif ! diff <(grep -v '^#' "$EXPECTED") <(grep -v '^#' "$WORK/expected") >"$WORK/gen.diff"; then
		fail "$name" "regenerate it with scripts/gen-layout-expected.sh: $(grep -E '^[<>]' "$WORK/gen.diff" | head -4 | tr '\n' ' ')"
	else
		pass "$name"
	fi
}

# Our volume for case $1 against the table, on the fields the reader prints.
check_against_table() {
	local m=$1 name="table $1" size opts missing
	read -r size opts <<<"$m"
	awk -F'|' -v c="$m" '$1 == c { print $2 }' "$EXPECTED" | LC_ALL=C sort >"$WORK/want"
	if [ ! -s "$WORK/want" ]; then
		fail "$name" "no rows in mkfs-layout.expected: regenerate it with scripts/gen-layout-expected.sh"
		return
	fi
	rm -f "$WORK/ours.img"
	truncate -s "$size" "$WORK/ours.img"
	# shellcheck disable=SC2086 # opts is a list of options
	run_cmd "$MKFS" -q -f $opts "$WORK/ours.img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our mkfs.f2fs exited $RC: $(snippet "$WORK/last.err")"
		return
	fi
	fields "$WORK/ours.img" | LC_ALL=C sort >"$WORK/got"
	rm -f "$WORK/ours.img"
	# every field the reader printed is in the table with the same value
	missing=$(LC_ALL=C comm -23 "$WORK/got" "$WORK/want" |
		awk 'NR == FNR { want[$1] = $2; next } { print $1 " " $2 " (newest upstream " (($1 in want) ? want[$1] : "none") ")" }' "$WORK/want" -)
	if [ -n "$missing" ]; then
		fail "$name" "$(head -6 <<<"$missing" | tr '\n' ';')"
	elif [ "$(wc -l <"$WORK/got")" -lt 50 ]; then
		fail "$name" "$reader printed only $(wc -l <"$WORK/got") fields"
	else
		pass "$name"
	fi
}

if [ -x "$NEWEST_MKFS" ] && [ -x "$NEWEST_DUMP" ]; then
	compare_with_newest
	table_is_current
else
	skip "newest upstream" "not built ($NEWEST_MKFS, $NEWEST_DUMP): checking against mkfs-layout.expected only"
fi

if have_upstream dump; then
	reader=$UPSTREAM_DUMP
else
	reader=$OUR_DUMP
fi
for m in "${cases[@]}"; do
	check_against_table "$m"
done

finish
