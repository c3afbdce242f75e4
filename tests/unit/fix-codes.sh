#!/bin/bash
# Every problem code whose table row names a fix (lib/check/problem.c: a
# fix other than NONE) must be shown repaired by a case of tests/fsck/: an
# expect.1 that names the code and ends "exit 1" (corrected); or, for what
# an image file cannot carry (zone state), by a unit test that repairs it
# and names it on a " * REPAIRED:" line of its header.  Prints one
# line per code no case repairs and exits 1 when there is one; run by make
# check.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1

# rows are "ROW...(PR_CODE, ..., FIX, FLAGS)" over one or two lines
fixable=$(tr -d '\n\t' <lib/check/problem.c | tr -s ' ' | grep -o 'ROW[A-Z_]*(PR_[A-Z_]*,[^)]*)' |
	grep -v ', NONE, [A-Z |0]*)$' | sed 's/^ROW[A-Z_]*(\(PR_[A-Z_]*\),.*/\1/')
if [ -z "$fixable" ]; then
	echo "fix-codes: no fixable rows found in lib/check/problem.c" >&2
	exit 1
fi
missing=0
n=0
for code in $fixable; do
	n=$((n + 1))
	shown=0
	for e in tests/fsck/*/expect.1; do
		if grep -qx "$code" "$e" && [ "$(tail -1 "$e")" = "exit 1" ]; then
			shown=1
			break
		fi
	done
	# problems an image cannot carry (zone state) are repaired by unit tests on
	# the emulated zoned device, which name them on a "REPAIRED:" line
	if [ "$shown" = 0 ] && grep -h '^ \* REPAIRED:' tests/unit/*/*.c | grep -qw "$code"; then
		shown=1
	fi
	if [ "$shown" = 0 ]; then
		echo "fix-codes: $code has a fix but no tests/fsck case repairs it" >&2
		missing=$((missing + 1))
	fi
done
if [ "$missing" -ne 0 ]; then
	echo "FAIL: fix-codes: $missing of $n fixable codes not shown repaired"
	exit 1
fi
echo "PASS: fix-codes: $n fixable codes, each repaired by a tests/fsck case"
