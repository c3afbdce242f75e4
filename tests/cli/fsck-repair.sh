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

for b in "$FSCK" "$INJECT" "$DUMP" "$SLOAD"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done

# --- the base image: every case starts from a copy ---------------------------

# shellcheck source=../fsck/lib.sh
. "$TOP/tests/fsck/lib.sh"
export SLOAD INJECT
cases_base "$WORK" || { fail setup "$CASES_ERR"; finish; }
cases_kernel_base "$WORK" || fail setup-kernel-image "$CASES_ERR"
BASE=$CASES_BASE
IMG=$WORK/case.img

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
	local dir=$1 name
	name=$(basename "$dir")
	if ! cases_prepare "$dir" "$IMG"; then
		fail "$name" "$CASES_ERR"
		return
	fi
	# shellcheck disable=SC2046 # the options are words
	run_cmd "$FSCK" $(cases_args "$dir") "$IMG"
	cases_reduce "$WORK/last.out" "$RC" >"$WORK/got.1"
	compare "$name/1" "$WORK/got.1" "$dir/expect.1"
	run_cmd "$FSCK" "$IMG"
	cases_reduce "$WORK/last.out" "$RC" >"$WORK/got.2"
	compare "$name/2" "$WORK/got.2" "$dir/expect.2"
	if [ "$(tail -1 "$WORK/got.1")" = "exit 1" ] && have_upstream fsck; then
		fsck_run "$IMG" "$WORK/up.out"
		if [ "$RC" -eq 0 ]; then pass "$name/upstream-clean"; else
			fail "$name/upstream-clean" "upstream fsck exited $RC: $(grep -m3 -E 'ASSERT|Fail|\[0x' "$WORK/up.out" | tr '\n' ' ')"
		fi
	fi
}

for dir in "$CASES_DIR"/[0-9][0-9][0-9]-*/; do
	[ -f "$dir/recipe" ] || continue
	run_case "${dir%/}"
done

# --- the undo journal: a repair taken back gives the image byte for byte --------

UNDO=${F2FS_UNDO:-$TOP/undo/f2fs_undo}
CASES_WORK=$WORK
broken() {
	rm -f "$IMG"
	cp --sparse=always "$BASE" "$IMG"
	inj --node --nid "$FILE2" --mb i_links --val 7 && inj --cp 0 --mb valid_block_count --val 5
}
# blocks A B: the 4 KiB blocks where images A and B differ, one per line (sorted for comm)
blocks() {
	cmp -l "$1" "$2" | awk '{ print int(($1 - 1) / 4096) }' | LC_ALL=C sort -u
}

# A journal cut at random points (a crash while fsck wrote it) restores a
# prefix of it: every block of the result is the broken image's or the
# repaired one's, and a longer cut restores a superset of the blocks a
# shorter one does.  $WORK/broken.img and $WORK/repaired.img, the journal
# $WORK/fsck.undo.
undo_cut_at_random() {
	local len cut prev='' n=0 bad=''
	len=$(stat -c %s "$WORK/fsck.undo")
	blocks "$WORK/broken.img" "$WORK/repaired.img" >"$WORK/changed"
	for cut in $(awk -v l="$len" 'BEGIN { srand(11); for (i = 0; i < 6; i++) print int(rand() * l) }' |
		sort -n); do
		cp --sparse=always "$WORK/repaired.img" "$IMG"
		head -c "$cut" "$WORK/fsck.undo" >"$WORK/cut.undo"
		run_cmd "$UNDO" "$WORK/cut.undo" "$IMG"
		# a cut inside the header leaves nothing to restore: refused, image untouched
		if [ "$RC" -ne 0 ] && ! cmp -s "$IMG" "$WORK/repaired.img"; then
			bad="cut at $cut: f2fs_undo exited $RC and changed the image"
			break
		fi
		blocks "$WORK/repaired.img" "$IMG" >"$WORK/restored"
		if [ -n "$(blocks "$WORK/broken.img" "$IMG" | comm -12 - "$WORK/restored")" ]; then
			bad="cut at $cut: a block is neither the broken image's nor the repaired one's"
			break
		fi
		if [ -n "$prev" ] && [ -n "$(comm -23 "$prev" "$WORK/restored")" ]; then
			bad="cut at $cut restores less than a shorter cut"
			break
		fi
		cp "$WORK/restored" "$WORK/restored.prev"
		prev=$WORK/restored.prev
		n=$((n + 1))
	done
	if [ -n "$bad" ]; then
		fail undo/cut-at-random "$bad"
	elif [ "$n" -lt 6 ] || [ ! -s "$WORK/changed" ]; then
		fail undo/cut-at-random "only $n cuts ran, or the repair changed nothing"
	else
		pass undo/cut-at-random
	fi
}

if [ -x "$UNDO" ] && broken; then
	cp --sparse=always "$IMG" "$WORK/broken.img"
	before=$(sha256sum <"$IMG")
	run_cmd "$FSCK" -y -z "$WORK/fsck.undo" "$IMG"
	if [ "$RC" -ne 1 ] || [ "$(sha256sum <"$IMG")" = "$before" ]; then
		fail undo/repair "fsck -y -z exited $RC (expected 1, the image changed)"
	else
		cp --sparse=always "$IMG" "$WORK/repaired.img"
		run_cmd "$UNDO" "$WORK/fsck.undo" "$IMG"
		if [ "$RC" -eq 0 ] && [ "$(sha256sum <"$IMG")" = "$before" ]; then
			pass undo/restores-byte-for-byte
		else
			fail undo/restores-byte-for-byte "f2fs_undo exited $RC: $(snippet "$WORK/last.err")"
		fi
	fi
	undo_cut_at_random
	run_cmd "$FSCK" -n -z "$WORK/x.undo" "$IMG"
	if [ "$RC" -eq 16 ] && grep -q -- "-z records repairs" "$WORK/last.err"; then pass undo/refused-with-n; else
		fail undo/refused-with-n "exit $RC: $(snippet "$WORK/last.err")"
	fi
else
	skip undo "no $UNDO, or the image could not be broken: $(cat "$WORK/inj.err" 2>/dev/null)"
fi

# --- fsynced data past the checkpoint: -y applies it as a mount would ------------

WRTOOL=${WRTOOL:-$TOP/tests/cli/wrtool}
# rf_image MIRROR: a cut after two fsyncs (/rf extended, /new created) and
# a problem (file2's i_links); MIRROR gets what the fsyncs made durable
rf_image() {
	rm -rf "$IMG" "$1" && mkdir -p "$1"
	cp --sparse=always "$BASE" "$IMG"
	"$WRTOOL" --mirror "$1" "$IMG" create /rf write /rf 0 8192 7 sync write /rf 8192 4096 8 \
		create /new write /new 0 20000 9 fsync /new fsync /rf nomirror \
		write /rf 0 4096 10 abort >"$WORK/wrtool.out" 2>&1 &&
		grep -q "fsync /rf: roll-forward" "$WORK/wrtool.out" &&
		grep -q "fsync /new: roll-forward" "$WORK/wrtool.out" &&
		inj --node --nid "$FILE2" --mb i_links --val 7
}
# same_file NAME MIRROR: the volume's /NAME (dump.f2fs -r) equals MIRROR/NAME
same_file() {
	rm -rf "$WORK/rf-out"
	"$DUMP" -r -o "$WORK/rf-out" "$IMG" >/dev/null 2>&1 && cmp -s "$WORK/rf-out/$1" "$2/$1"
}
if [ -x "$WRTOOL" ] && rf_image "$WORK/rf-mirror"; then
	before=$(sha256sum <"$IMG")
	run_cmd "$FSCK" -n "$IMG"
	if [ "$RC" -eq 4 ] && grep -q "2 fsynced node blocks are recoverable" "$WORK/last.out" &&
		[ "$(sha256sum <"$IMG")" = "$before" ]; then
		pass roll-forward/kept-by-n
	else
		fail roll-forward/kept-by-n "exit $RC, or the image changed: $(grep 'fsynced\|Info: [0-9]' "$WORK/last.out")"
	fi
	run_cmd "$FSCK" -y "$IMG"
	if [ "$RC" -eq 1 ] &&
		grep -q '^\[FIX\] Roll forward: .* 2 inode(s) (1 new, 1 name(s) added)' "$WORK/last.out" &&
		same_file rf "$WORK/rf-mirror" && same_file new "$WORK/rf-mirror"; then
		pass roll-forward/applied
	else
		fail roll-forward/applied "exit $RC: $(grep -E '^\[FIX\]|Info: [0-9]' "$WORK/last.out" | tr '\n' ' ')"
	fi
	run_cmd "$FSCK" "$IMG"
	[ "$RC" -eq 0 ] && pass roll-forward/applied-clean ||
		fail roll-forward/applied-clean "exit $RC: $(grep -m3 PR_ "$WORK/last.out")"
	rf_image "$WORK/rf-mirror"
	run_cmd "$FSCK" -y --drop-roll-forward "$IMG"
	rc_drop=$RC
	dropped_log=$(grep -E '^\[FIX\]|Info: [0-9]' "$WORK/last.out" | tr '\n' ' ')
	run_cmd "$FSCK" "$IMG"
	if [ "$rc_drop" -eq 1 ] && [ "$RC" -eq 0 ] && ! grep -q 'Roll forward' <<<"$dropped_log" &&
		! same_file new "$WORK/rf-mirror" && [ ! -e "$WORK/rf-out/new" ]; then
		pass roll-forward/dropped-on-request
	else
		fail roll-forward/dropped-on-request "exit $rc_drop, then $RC: $dropped_log"
	fi
	# the chain as upstream's inject lists it (--cp --mb next_blkaddr), then made to loop:
	# the kernel cannot replay it (its mount retries without recovery and asks for fsck),
	# so fsck flags it and -y drops it as the kernel does
	rf_image "$WORK/rf-mirror"
	before=$(sha256sum <"$IMG")
	listed=$("$INJECT" --dry-run --cp 0 --mb next_blkaddr --idx 0 --val 0 "$IMG" 2>&1)
	first=$(sed -n 's/^Info: \[ *0\] blkaddr:\(0x[0-9a-f]*\)$/\1/p' <<<"$listed")
	if [ -n "$first" ] && grep -q '^Info: \[ *1\] blkaddr:0x' <<<"$listed" &&
		[ "$(sha256sum <"$IMG")" = "$before" ]; then
		pass inject/chain-listed
	else
		fail inject/chain-listed "$(head -c 300 <<<"$listed")"
	fi
	inj --cp 0 --mb next_blkaddr --idx 1 --val "${first:-0}"
	run_cmd "$FSCK" -n "$IMG"
	if [ "$RC" -eq 4 ] && grep -q '^\[FSCK\] PR_CHAIN_LOOP' "$WORK/last.out"; then
		pass roll-forward/loop-flagged
	else
		fail roll-forward/loop-flagged "exit $RC: $(grep -m2 -E 'PR_|recoverable' "$WORK/last.out")"
	fi
	run_cmd "$FSCK" -y "$IMG"
	rc_loop=$RC
	run_cmd "$FSCK" "$IMG"
	if [ "$rc_loop" -eq 1 ] && [ "$RC" -eq 0 ]; then pass roll-forward/loop-dropped; else
		fail roll-forward/loop-dropped "fsck -y exited $rc_loop, the rerun $RC"
	fi
	# preen mode replays too (e2fsck -p replays its journal), on a volume with nothing else wrong
	rf_image "$WORK/rf-mirror"
	inj --node --nid "$FILE2" --mb i_links --val 1
	run_cmd "$FSCK" -p "$IMG"
	if [ "$RC" -eq 1 ] && grep -q '^\[FIX\] Roll forward' "$WORK/last.out" &&
		same_file new "$WORK/rf-mirror"; then
		pass roll-forward/preen
	else
		fail roll-forward/preen "exit $RC: $(grep -E '^\[FIX\]|Info: [0-9]' "$WORK/last.out" | tr '\n' ' ')"
	fi
else
	fail roll-forward "no fsynced image: $(tail -1 "$WORK/wrtool.out" 2>/dev/null)"
fi

# --- --rebuild: only with -y; undone like any repair ------------------------------

for opts in "--rebuild" "-n -y --rebuild" "-p --rebuild"; do
	# shellcheck disable=SC2086 # the options are words
	run_cmd "$FSCK" $opts "$BASE"
	if [ "$RC" -eq 16 ] && grep -q -- '--rebuild .*needs -y' "$WORK/last.err"; then
		pass "rebuild/refused: $opts"
	else
		fail "rebuild/refused: $opts" "exit $RC: $(tail -1 "$WORK/last.err")"
	fi
done
rm -f "$IMG" "$WORK/rebuild.undo"
cp --sparse=always "$CASES_KBASE" "$IMG"
IMG=$IMG cases_zero nat_blkaddr segment_count_nat
cp --sparse=always "$IMG" "$WORK/zeroed.img"
run_cmd "$FSCK" -y --rebuild -z "$WORK/rebuild.undo" "$IMG"
rc_rebuild=$RC
run_cmd "$UNDO" "$WORK/rebuild.undo" "$IMG"
if [ "$rc_rebuild" -eq 1 ] && [ "$RC" -eq 0 ] && cmp -s "$IMG" "$WORK/zeroed.img"; then
	pass rebuild/undone
else
	fail rebuild/undone "fsck exited $rc_rebuild, undo $RC; $(cmp "$IMG" "$WORK/zeroed.img" 2>&1 | head -1)"
fi
# a volume with no superblock left is not rebuilt, and nothing is written
dd if=/dev/zero of="$IMG" bs=4096 count=2 conv=notrunc status=none
cp --sparse=always "$IMG" "$WORK/nosb.img"
run_cmd "$FSCK" -y --rebuild "$IMG"
if [ "$RC" -eq 8 ] && grep -q 'cannot rebuild: superblock' "$WORK/last.err" && cmp -s "$IMG" "$WORK/nosb.img"; then
	pass rebuild/no-superblock
else
	fail rebuild/no-superblock "exit $RC: $(tail -1 "$WORK/last.err")"
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
