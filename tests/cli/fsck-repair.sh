#!/bin/bash
# fsck.f2fs repairs, one case per tests/fsck/NNN-name/ directory (e2fsprogs'
# f_* tests are the model).  Each case copies a base image -- our mkfs and
# our sload.f2fs from a fixed tree -- and corrupts it with the inject.f2fs
# calls of its `recipe` (a shell snippet calling `inj ARGS...`, with the
# variables set below).  Then fsck.f2fs runs with the case's `args` (-y
# when there is none) and its output, reduced to the problem codes, the
# [FIX] lines, the verdict lines and the exit status, must equal
# `expect.1`; a second plain run must equal `expect.2`.  Where a case is
# repaired (exit 1), upstream's fsck.f2fs must find the image clean too.
# UPDATE=1 rewrites the expect files from what the runs print.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
CASES=${FSCK_CASES:-$TOP/tests/fsck}

for b in "$FSCK" "$INJECT" "$DUMP" "$SLOAD"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done

# --- the base image: every case starts from a copy ---------------------------

TREE=$WORK/tree
mkdir -p "$TREE/dir/sub" "$TREE/links"
for i in $(seq 1 12); do head -c $((i * 2500)) /dev/zero | tr '\0' "$i" >"$TREE/file$i"; done
head -c 5000000 /dev/zero | tr '\0' b >"$TREE/big"       # direct and indirect nodes
echo small >"$TREE/dir/small"
echo deep >"$TREE/dir/sub/deep"
ln "$TREE/file1" "$TREE/links/hard"
ln -s ../file2 "$TREE/links/sym"
BASE=$WORK/base.img
truncate -s 128M "$BASE"
run_cmd "$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr "$BASE"
[ "$RC" -eq 0 ] || { fail setup "mkfs exited $RC: $(snippet "$WORK/last.err")"; finish; }
run_cmd "$SLOAD" -f "$TREE" "$BASE"
[ "$RC" -eq 0 ] || { fail setup "sload exited $RC: $(snippet "$WORK/last.err")"; finish; }
run_cmd "$FSCK" "$BASE"
[ "$RC" -eq 0 ] || { fail setup "the base image is not clean: $(grep PR_ "$WORK/last.out" | head -3)"; finish; }

# getv INJECT-ARGS...: a field's current value (inject's dry run)
getv() {
	"$INJECT" --dry-run "$@" --val 0 "$BASE" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}

# the inode of each name in the tree, by asking dump.f2fs for inodes 3..64
declare -A NID
for n in $(seq 3 64); do
	nm=$("$DUMP" -i "$n" "$BASE" 2>/dev/null | sed -n 's/^i_name[[:space:]]*\[\(.*\)\]$/\1/p')
	[ -n "$nm" ] && [ -z "${NID[$nm]:-}" ] && NID[$nm]=$n
done
for nm in file1 file2 file3 big dir sub small links; do
	[ -n "${NID[$nm]:-}" ] || { fail setup "no inode found for $nm"; finish; }
done
# variables a recipe may use
export ROOT=3 FILE1=${NID[file1]} FILE2=${NID[file2]} FILE3=${NID[file3]} BIG=${NID[big]}
export DIR=${NID[dir]} SUB=${NID[sub]} SMALL=${NID[small]} LINKS=${NID[links]}
export MAIN=$(getv --sb 1 --mb main_blkaddr)
export FILE1_NODE=$(getv --nat 0 --nid "$FILE1" --mb block_addr)
export BIG_NODE=$(getv --nat 0 --nid "$BIG" --mb block_addr)
export BIG_DNODE=$(getv --node --nid "$BIG" --mb i_nid --idx 0)
FIRST=$(($(getv --node --nid "$BIG" --mb i_extra_isize) / 4)) # the first data slot of i_addr
export BIG_DATA=$(getv --node --nid "$BIG" --mb i_addr --idx "$FIRST")
for v in MAIN FILE1_NODE BIG_NODE BIG_DNODE BIG_DATA; do
	[ -n "${!v}" ] || { fail setup "cannot read $v with inject.f2fs --dry-run"; finish; }
done

# --- one case ---------------------------------------------------------------------

IMG=$WORK/case.img

# inj ARGS...: one inject.f2fs call on the case image (a recipe's verb)
inj() {
	if ! "$INJECT" "$@" "$IMG" >"$WORK/inj.out" 2>&1; then
		echo "inject $* failed: $(snippet "$WORK/inj.out")" >>"$WORK/inj.err"
		return 1
	fi
}

# reduce OUT RC: what expect files hold -- codes, fixes, verdicts, the exit status
reduce() {
	sed -n -e 's/^\[FSCK\] \(PR_[A-Z_]*\):.*/\1/p' -e 's/^Info: \(PR_[A-Z_]*\):.*/\1/p' \
		-e 's/^\[FSCK\] left: \(PR_[A-Z_]*\):.*/left: \1/p' \
		-e '/^\[FIX\] /p' -e '/^Info: [0-9]* problem(s) found/p' -e '/^UNEXPECTED/p' "$1" |
		awk '!/^PR_/ || !seen[$0]++'
	echo "exit $2"
}

# compare NAME GOT EXPECT-FILE
compare() {
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$2" "$3"
		pass "$1 (updated)"
	elif [ ! -f "$3" ]; then
		fail "$1" "no $(basename "$3") (UPDATE=1 writes it)"
	elif diff -u "$3" "$2" >"$WORK/diff" 2>&1; then
		pass "$1"
	else
		fail "$1" "$(tail -n +3 "$WORK/diff" | head -12)"
	fi
}

run_case() {
	local dir=$1 name args
	name=$(basename "$dir")
	rm -f "$IMG"
	cp --sparse=always "$BASE" "$IMG"
	rm -f "$WORK/inj.err"
	# shellcheck disable=SC1091
	if ! (set -e && . "$dir/recipe") || [ -s "$WORK/inj.err" ]; then
		fail "$name" "recipe: $(cat "$WORK/inj.err" 2>/dev/null || echo failed)"
		return
	fi
	args=-y
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	# shellcheck disable=SC2086
	run_cmd "$FSCK" $args "$IMG"
	reduce "$WORK/last.out" "$RC" >"$WORK/got.1"
	compare "$name/1" "$WORK/got.1" "$dir/expect.1"
	run_cmd "$FSCK" "$IMG"
	reduce "$WORK/last.out" "$RC" >"$WORK/got.2"
	compare "$name/2" "$WORK/got.2" "$dir/expect.2"
	if [ "$(tail -1 "$WORK/got.1")" = "exit 1" ] && have_upstream fsck; then
		fsck_run "$IMG" "$WORK/up.out"
		if [ "$RC" -eq 0 ]; then pass "$name/upstream-clean"; else
			fail "$name/upstream-clean" "upstream fsck exited $RC: $(grep -m3 -E 'ASSERT|Fail|\[0x' "$WORK/up.out" | tr '\n' ' ')"
		fi
	fi
}

for dir in "$CASES"/[0-9][0-9][0-9]-*/; do
	[ -f "$dir/recipe" ] || continue
	run_case "${dir%/}"
done

# --- the undo journal: a repair taken back gives the image byte for byte --------

UNDO=${F2FS_UNDO:-$TOP/undo/f2fs_undo}
broken() {
	rm -f "$IMG"
	cp --sparse=always "$BASE" "$IMG"
	inj --node --nid "$FILE2" --mb i_links --val 7 && inj --cp 0 --mb valid_block_count --val 5
}
if [ -x "$UNDO" ] && broken; then
	before=$(sha256sum <"$IMG")
	run_cmd "$FSCK" -y -z "$WORK/fsck.undo" "$IMG"
	if [ "$RC" -ne 1 ] || [ "$(sha256sum <"$IMG")" = "$before" ]; then
		fail undo/repair "fsck -y -z exited $RC (expected 1, the image changed)"
	else
		run_cmd "$UNDO" "$WORK/fsck.undo" "$IMG"
		if [ "$RC" -eq 0 ] && [ "$(sha256sum <"$IMG")" = "$before" ]; then
			pass undo/restores-byte-for-byte
		else
			fail undo/restores-byte-for-byte "f2fs_undo exited $RC: $(snippet "$WORK/last.err")"
		fi
	fi
	run_cmd "$FSCK" -n -z "$WORK/x.undo" "$IMG"
	if [ "$RC" -eq 16 ] && grep -q -- "-z records repairs" "$WORK/last.err"; then pass undo/refused-with-n; else
		fail undo/refused-with-n "exit $RC: $(snippet "$WORK/last.err")"
	fi
else
	skip undo "no $UNDO, or the image could not be broken: $(cat "$WORK/inj.err" 2>/dev/null)"
fi

# --- questions on a terminal (script(1) gives fsck one) ---------------------------

# ask ANSWERS NAME WANT-RC: a plain run on a terminal fed ANSWERS
ask() {
	broken || { fail "terminal/$2" "inject failed"; return; }
	printf '%s' "$1" | timeout -k 5 "$CMD_TIMEOUT" script -qec "$FSCK $IMG" /dev/null >"$WORK/tty.out" 2>&1
	RC=$?
	if [ "$RC" -ne "$3" ]; then
		fail "terminal/$2" "exit $RC, expected $3: $(grep -E '\?|Info: [0-9]' "$WORK/tty.out" | tr '\n' ' ')"
	elif [ "$(grep -o '? \[y/n\]' "$WORK/tty.out" | wc -l)" -ne 2 ]; then
		fail "terminal/$2" "expected two questions: $(grep -o '[A-Za-z]*: [^:]*? \[y/n\]' "$WORK/tty.out" | tr '\n' ' ')"
	else
		pass "terminal/$2"
	fi
}
if command -v script >/dev/null 2>&1; then
	ask $'y\ny\n' yes-to-both 1
	ask $'n\nn\n' no-to-both 4
	grep -q 'not repaired: every fix was declined' "$WORK/tty.out" && pass terminal/declined-line ||
		fail terminal/declined-line "$(grep 'Info: [0-9]' "$WORK/tty.out")"
	ask $'y\nn\n' yes-then-no 4
else
	skip terminal "script(1) is not installed"
fi

# --- never reads standard input without a terminal, even when it has data ------

broken
printf 'y\ny\n' | timeout -k 5 "$CMD_TIMEOUT" "$FSCK" "$IMG" >"$WORK/pipe.out" 2>&1
RC=$?
if [ "$RC" -eq 4 ] && grep -q 'no terminal to ask on' "$WORK/pipe.out"; then pass no-terminal/stdin-ignored; else
	fail no-terminal/stdin-ignored "exit $RC: $(grep 'Info: [0-9]' "$WORK/pipe.out")"
fi
finish
