#!/bin/bash
# Every problem code of include/f2fs/check.h must be asserted by some test:
# named on a line of code (not a comment) of a unit test (tests/unit/*/*.c)
# or of a CLI test (tests/cli/*.sh, the fsck-corrupt.sh cases), or in the
# expected output of a repair case (tests/fsck/*/expect.[12], which
# tests/cli/fsck-repair.sh compares).  Prints one line per code no test
# names and exits 1 when there is one; run by make check (automake's
# exit-status protocol).
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1

codes=$(sed -n 's/^[[:space:]]*\(PR_[A-Z0-9_]*\)[[:space:]]*,.*/\1/p' include/f2fs/check.h)
if [ -z "$codes" ]; then
	echo "problem-codes: no PR_ codes found in include/f2fs/check.h" >&2
	exit 1
fi

# The code lines of the tests: C comment lines and shell comments dropped.
code_lines() {
	local f
	for f in tests/unit/*/*.c; do
		grep -v -E '^[[:space:]]*(/?\*|//)' "$f"
	done
	for f in tests/cli/*.sh; do
		grep -v -E '^[[:space:]]*#' "$f"
	done
	cat tests/fsck/*/expect.[12]
}
lines=$(code_lines)

missing=0
n=0
for c in $codes; do
	n=$((n + 1))
	if ! grep -qw -- "$c" <<<"$lines"; then
		echo "problem-codes: $c is named by no test (tests/unit/*/*.c, tests/cli/*.sh or" \
			"tests/fsck/*/expect.[12])" >&2
		missing=$((missing + 1))
	fi
done
echo "problem-codes: $((n - missing)) of $n codes are named by a test"
if [ "$missing" -eq 0 ]; then
	echo "PASS: problem-codes"
else
	echo "FAIL: problem-codes: $missing code(s) named by no test"
	exit 1
fi
