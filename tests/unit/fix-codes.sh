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

# The fix kinds (enum f2fs_fix's names), and the rows "ROW...(PR_CODE, ...)"
# (over as many lines as clang-format gives them):
# a row's fix is its top-level argument that names a kind.  String literals
# and comments are dropped first, so that a message's commas and
# parentheses do not count.
kinds=$(sed -n 's/^[[:space:]]*F2FS_FIX_\([A-Z]*\)\b.*/\1/p' include/f2fs/check.h)
rows=$(sed -e 's/"\([^"\\]\|\\.\)*"//g' -e 's|/\*.*\*/||g' lib/check/problem.c |
	awk -v kinds="$kinds" '
	function fix_of(s, i, ch, depth, arg, fix) {
		depth = 1
		for (i = 1; i <= length(s) && depth > 0; i++) {
			ch = substr(s, i, 1)
			depth += (ch == "(") - (ch == ")")
			if ((ch == "," && depth == 1) || depth == 0) {
				gsub(/[[:space:]]/, "", arg)
				if (arg in kind)
					fix = arg
				arg = ""
			} else if (depth == 1 && ch != ")") {
				arg = arg ch
			}
		}
		return fix
	}
	BEGIN { n = split(kinds, k); for (i = 1; i <= n; i++) kind[k[i]] = 1 }
	{ text = text $0 " " }
	END {
		while (match(text, /ROW[A-Z_]*\([ \t]*PR_[A-Z0-9_]*,/)) {
			code = substr(text, RSTART, RLENGTH - 1)
			sub(/^[^(]*\([ \t]*/, "", code)
			text = substr(text, RSTART + RLENGTH)
			print code, fix_of(text)
		}
	}')
# every code has a row the parse found, with a fix kind
codes=$(sed -n 's/^[[:space:]]*\(PR_[A-Z0-9_]*\)[[:space:]]*,.*/\1/p' include/f2fs/check.h | sort)
if [ "$codes" != "$(awk 'NF == 2 { print $1 }' <<<"$rows" | sort)" ]; then
	echo "FAIL: fix-codes: the rows found in lib/check/problem.c (with a fix kind each) are" \
		"not the codes of include/f2fs/check.h"
	exit 1
fi
fixable=$(awk '$2 != "NONE" { print $1 }' <<<"$rows")
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
