#!/bin/bash
# Progress (--progress[=FD], --no-progress, the automatic bar): fsck's four
# passes and dump's -r extraction, -I scan and --sections check give
# e2fsck's "PASS DONE TOTAL DEVICE" lines on the descriptor asked for, each
# pass from 0 to its total, and nothing else changes: standard output is
# byte-identical to a run without the option (but for fsck's timing line).
# Without a terminal and without the option nothing appears; on a terminal
# (script(1) gives one) the bar appears by itself only once the run has
# taken F2FS_PROGRESS_DELAY seconds (2 by default), is erased before the
# report goes on, and not at all with --no-progress or --quiet.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
SLOAD=${SLOAD:-/usr/sbin/sload.f2fs}
case $DUMP in /*) ;; *) DUMP=$PWD/$DUMP ;; esac # dump_pair runs it from $WORK
for b in "$FSCK" "$DUMP"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done

IMG=$WORK/img
truncate -s 512M "$IMG"
run_cmd "$MKFS" -q -f -O extra_attr,lost_found "$IMG"
if [ "$RC" -ne 0 ]; then
	fail setup "mkfs exited $RC: $(snippet "$WORK/last.err")"
	finish
fi
if [ -x "$SLOAD" ]; then
	mkdir -p "$WORK/tree/a/b" "$WORK/tree/c"
	for i in $(seq 1 40); do echo "$i" >"$WORK/tree/c/f$i"; done
	head -c 300000 /dev/urandom >"$WORK/tree/a/b/big"
	# sload exits 1 even when it loaded everything: fsck below judges
	"$SLOAD" -f "$WORK/tree" "$IMG" >/dev/null 2>&1
fi
run_cmd "$FSCK" "$IMG"
if [ "$RC" -ne 0 ]; then
	fail setup "the test image does not check clean (rc $RC)"
	finish
fi

# check_lines NAME FILE PASSES: FILE holds only e2fsck progress lines for
# $IMG, passes 1..PASSES in order, each from done 0 to done == total, at
# most 102 lines a pass.
check_lines() {
	local name=$1 file=$2 passes=$3 why
	why=$(awk -v dev="$IMG" -v passes="$passes" '
		NF != 4 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ || $4 != dev {
			print "line " NR " is not PASS DONE TOTAL DEVICE: " $0; bad = 1; exit }
		$1 < last { print "pass " $1 " after pass " last; bad = 1; exit }
		$1 != last { if (last && ld != lt) { print "pass " last " ends at " ld " of " lt; bad = 1; exit }
			if ($2 != 0) { print "pass " $1 " starts at " $2; bad = 1; exit }
			seen++ }
		{ last = $1; ld = $2; lt = $3; n[$1]++ }
		END { if (bad) exit
			if (seen != passes || last != passes) { print seen " passes seen, last " last ", expected " passes; exit }
			if (ld != lt) { print "pass " last " ends at " ld " of " lt; exit }
			for (p in n) if (n[p] > 102) { print n[p] " lines in pass " p; exit } }' "$file")
	if [ ! -s "$file" ]; then
		fail "$name" "no progress lines"
	elif [ -n "$why" ]; then
		fail "$name" "$why"
	else
		return 0
	fi
	return 1
}

# fsck's report without its timing line
report() {
	grep -v '^Done: ' "$1"
}

# --- fsck ------------------------------------------------------------------------

run_cmd "$FSCK" "$IMG"
cp "$WORK/last.out" "$WORK/plain.out"
if [ -s "$WORK/last.err" ]; then
	fail fsck-nothing-without-option "stderr: $(snippet "$WORK/last.err")"
else
	pass fsck-nothing-without-option
fi

run_cmd "$FSCK" --progress=2 "$IMG"
if check_lines fsck-progress-fd2 "$WORK/last.err" 4; then
	if cmp -s <(report "$WORK/last.out") <(report "$WORK/plain.out"); then
		pass fsck-progress-fd2
	else
		fail fsck-progress-fd2 "stdout differs from a run without --progress"
	fi
fi

timeout -k 5 "$CMD_TIMEOUT" "$FSCK" --progress=3 "$IMG" </dev/null >"$WORK/last.out" 2>"$WORK/last.err" 3>"$WORK/fd3"
if check_lines fsck-progress-fd3 "$WORK/fd3" 4; then
	if [ -s "$WORK/last.err" ]; then
		fail fsck-progress-fd3 "stderr: $(snippet "$WORK/last.err")"
	elif ! cmp -s <(report "$WORK/last.out") <(report "$WORK/plain.out"); then
		fail fsck-progress-fd3 "stdout differs from a run without --progress"
	else
		pass fsck-progress-fd3
	fi
fi

# without a terminal, --progress alone gives the lines on stderr too
run_cmd "$FSCK" --progress "$IMG"
check_lines fsck-progress-no-value "$WORK/last.err" 4 && pass fsck-progress-no-value

run_cmd "$FSCK" --progress=2 -d 1 "$IMG"
cp "$WORK/last.out" "$WORK/d1-progress.out"
run_cmd "$FSCK" -d 1 "$IMG"
if cmp -s <(report "$WORK/last.out") <(report "$WORK/d1-progress.out"); then
	pass fsck-progress-debug-stdout-same
else
	fail fsck-progress-debug-stdout-same "stdout of -d 1 differs with --progress=2"
fi

if command -v jq >/dev/null 2>&1; then
	run_cmd "$FSCK" --json "$IMG"
	jq -S 'del(.elapsed_ms)' "$WORK/last.out" >"$WORK/plain.json" 2>/dev/null
	run_cmd "$FSCK" --json --progress=2 "$IMG"
	if check_lines fsck-json-progress "$WORK/last.err" 4; then
		if [ -s "$WORK/plain.json" ] &&
			cmp -s <(jq -S 'del(.elapsed_ms)' "$WORK/last.out" 2>/dev/null) "$WORK/plain.json"; then
			pass fsck-json-progress
		else
			fail fsck-json-progress "the JSON differs with --progress=2"
		fi
	fi
else
	skip fsck-json-progress "jq is not installed"
fi

expect_refusal fsck-progress-fd-not-open 'file descriptor 9 is not open' -- "$FSCK" --progress=9 "$IMG"
[ "$RC" -eq 16 ] || fail fsck-progress-fd-not-open-status "exit $RC, expected 16"
expect_refusal fsck-progress-bad-value 'invalid value for --progress' -- "$FSCK" --progress=x "$IMG"
[ "$RC" -eq 16 ] || fail fsck-progress-bad-value-status "exit $RC, expected 16"

# --- dump --------------------------------------------------------------------------

# dump_pair NAME PASSES ARGS...: with --progress=2 the lines are right and
# stdout equals a run without it (run in $WORK, for -r's output directory).
dump_pair() {
	local name=$1 passes=$2
	shift 2
	rm -rf "$WORK/out"
	(cd "$WORK" && run_cmd "$DUMP" "$@" "$IMG" && cp last.out plain.dump && cp last.err plain.err)
	[ -d "$WORK/out" ] && mv "$WORK/out" "$WORK/out.plain"
	(cd "$WORK" && run_cmd "$DUMP" --progress=2 "$@" "$IMG" && exit "$RC")
	RC=$?
	if [ -s "$WORK/plain.err" ]; then
		fail "$name" "stderr without --progress: $(snippet "$WORK/plain.err")"
	elif [ "$RC" -ne 0 ]; then
		fail "$name" "exit $RC: $(snippet "$WORK/last.err")"
	elif check_lines "$name" "$WORK/last.err" "$passes"; then
		if ! cmp -s "$WORK/last.out" "$WORK/plain.dump"; then
			fail "$name" "stdout differs from a run without --progress"
		elif [ -d "$WORK/out.plain" ] && ! diff -r "$WORK/out" "$WORK/out.plain" >/dev/null; then
			fail "$name" "the extracted trees differ"
		else
			pass "$name"
		fi
	fi
	rm -rf "$WORK/out" "$WORK/out.plain"
}

dump_pair dump-r-progress 1 -r -o out
dump_pair dump-r-dry-run-progress 1 -r -N -o out
dump_pair dump-I-progress 1 -I 3
dump_pair dump-sections-progress 4 --sections
# the scan's pass covers the whole main area
run_cmd "$DUMP" --progress=2 -I 3 "$IMG"
segs=$(tail -n 1 "$WORK/last.err" | cut -d' ' -f3)
run_cmd "$DUMP" -d 1 "$IMG"
want=$(sed -n 's/^segment_count_main[[:space:]]*\[0x *[0-9a-f]* : \([0-9]*\)\].*/\1/p' "$WORK/last.out")
if [ -n "$segs" ] && [ "$segs" = "$want" ]; then
	pass dump-I-progress-total
else
	fail dump-I-progress-total "scan total '$segs', segment_count_main '$want'"
fi
expect_refusal dump-progress-fd-not-open 'file descriptor 9 is not open' -- "$DUMP" --progress=9 -I 3 "$IMG"

# --- on a terminal -------------------------------------------------------------------

if ! script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	skip terminal "script(1) from util-linux cannot give a terminal here"
	finish
fi

BAR='\|[= ]+\| +[0-9]+\.[0-9]%'

# on_tty OUTFILE CMD...: run CMD with a terminal for stdin, stdout and stderr.
on_tty() {
	local out=$1
	shift
	timeout -k 5 "$CMD_TIMEOUT" script -qec "$*" /dev/null </dev/null >"$out" 2>&1
	RC=$?
}

# What the terminal shows at the end: each line as the last \r left it.
visible() {
	sed 's/\r$//; s/.*\r//' "$1"
}

on_tty "$WORK/tty0" env F2FS_PROGRESS_DELAY=0 "$FSCK" "$IMG"
if [ "$RC" -ne 0 ]; then
	fail tty-bar-with-delay-0 "exit $RC: $(snippet "$WORK/tty0")"
elif ! grep -Eq "$BAR" "$WORK/tty0"; then
	fail tty-bar-with-delay-0 "no bar: $(snippet "$WORK/tty0" 300)"
elif visible "$WORK/tty0" | grep -Eq "$BAR"; then
	fail tty-bar-with-delay-0 "the bar was left on the screen"
elif ! cmp -s <(visible "$WORK/tty0" | grep -v '^Done: ' | sed '/^ *$/d') \
	<(report "$WORK/plain.out" | sed '/^ *$/d'); then
	fail tty-bar-with-delay-0 "what the terminal shows differs from the report"
else
	pass tty-bar-with-delay-0
fi

start=$(date +%s%N)
on_tty "$WORK/tty2" "$FSCK" "$IMG"
took=$((($(date +%s%N) - start) / 1000000))
if [ "$took" -ge 1800 ]; then
	skip tty-no-bar-before-2s "the run took ${took} ms, too close to the 2 s delay"
elif grep -Eq "$BAR" "$WORK/tty2"; then
	fail tty-no-bar-before-2s "a bar appeared in a ${took} ms run"
elif ! cmp -s <(sed 's/\r$//' "$WORK/tty2" | grep -v '^Done: ') <(report "$WORK/plain.out"); then
	fail tty-no-bar-before-2s "the terminal shows something else than the report"
else
	pass tty-no-bar-before-2s
fi

on_tty "$WORK/tty3" env F2FS_PROGRESS_DELAY=0 "$FSCK" --no-progress "$IMG"
if grep -Eq "$BAR" "$WORK/tty3"; then
	fail tty-no-progress "a bar appeared with --no-progress"
else
	pass tty-no-progress
fi

on_tty "$WORK/tty4" env F2FS_PROGRESS_DELAY=0 "$FSCK" --quiet "$IMG"
if [ "$RC" -ne 0 ] || [ -s "$WORK/tty4" ]; then
	fail tty-quiet-stays-quiet "rc $RC, output: $(snippet "$WORK/tty4")"
else
	pass tty-quiet-stays-quiet
fi

on_tty "$WORK/tty5" env F2FS_PROGRESS_DELAY=60 "$FSCK" --progress "$IMG"
if grep -Eq "$BAR" "$WORK/tty5"; then
	pass tty-progress-option-shows-at-once
else
	fail tty-progress-option-shows-at-once "no bar with --progress: $(snippet "$WORK/tty5" 300)"
fi

# the bar goes to the terminal on stderr; stdout redirected stays the plain report
on_tty "$WORK/tty6" env F2FS_PROGRESS_DELAY=0 "$FSCK" "$IMG" ">$WORK/redirected.out"
if ! grep -Eq "$BAR" "$WORK/tty6"; then
	fail tty-stdout-redirected "no bar on the terminal: $(snippet "$WORK/tty6")"
elif ! cmp -s <(report "$WORK/redirected.out") <(report "$WORK/plain.out"); then
	fail tty-stdout-redirected "stdout differs from the plain report"
else
	pass tty-stdout-redirected
fi

rm -rf "$WORK/out"
on_tty "$WORK/tty7" env F2FS_PROGRESS_DELAY=0 "$DUMP" -r -o "$WORK/out" "$IMG"
if [ "$RC" -ne 0 ] || ! grep -Eq "$BAR" "$WORK/tty7"; then
	fail tty-dump-r-bar "rc $RC, no bar: $(snippet "$WORK/tty7" 300)"
elif ! visible "$WORK/tty7" | grep -q '^Extracted into '; then
	fail tty-dump-r-bar "the closing line is not on a clean line: $(snippet "$WORK/tty7" 300)"
else
	pass tty-dump-r-bar
fi

finish
