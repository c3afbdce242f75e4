#!/bin/bash
# resize.f2fs, all or nothing: a volume loaded by sload grows from 64 MiB
# to 128 MiB, and one of 128 MiB shrinks to 64 MiB (-s; sload put its
# files' data in the middle of the volume, past the new end, so they
# move), each with the resize cut short at its first write, its second,
# ... (tests/unit/resize/resizecut stacks a layer that fails every write
# from the N-th on), until one runs through.  After every cut the image
# must be the old volume or the new one -- our fsck and newest upstream's
# clean, the superblock's block_count the old or the new size, the tree
# dumped back identical -- and only the run that was not cut may be the
# new one.  The same cuts of a grow with -f and of a shrink with -f -s (in
# place, as upstream resizes) must leave some image that is neither: the
# check can tell, and -f is not atomic.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

BUILD=${TOP_BUILDDIR:-$TOP}
CUT=${RESIZECUT:-$BUILD/tests/unit/resize/resizecut}
FSCK=${FSCK:-$BUILD/fsck/fsck.f2fs}
SLOAD=${SLOAD:-$BUILD/sload/sload.f2fs}
DUMP=${DUMP:-$BUILD/dump/dump.f2fs}
NEW_FSCK=/work/upstream-f2fs-tools/fsck/fsck.f2fs
[ -x "$NEW_FSCK" ] && UPSTREAM_FSCK=${UPSTREAM_FSCK_NEWEST:-$NEW_FSCK}
SMALL=$WORK/small.img # a 64 MiB volume on 128 MiB, to grow
LARGE=$WORK/large.img # a 128 MiB volume, to shrink
IMG=$WORK/cut.img
TREE=$WORK/tree

for b in "$CUT" "$FSCK" "$SLOAD" "$DUMP"; do
	[ -x "$b" ] || {
		fail setup "$b is not executable (build with make check first)"
		finish
	}
done

mkdir -p "$TREE/d"
for i in $(seq 1 40); do
	head -c $((i * 1531)) /dev/urandom >"$TREE/d/f$i"
done
head -c $((3 << 20)) /dev/urandom >"$TREE/big"

truncate -s 128M "$SMALL" "$LARGE"
run_cmd "$MKFS" -q -f "$SMALL" $((64 * 2048))
[ "$RC" -eq 0 ] && run_cmd "$SLOAD" -f "$TREE" "$SMALL"
[ "$RC" -eq 0 ] && run_cmd "$MKFS" -q -f "$LARGE"
[ "$RC" -eq 0 ] && run_cmd "$SLOAD" -f "$TREE" "$LARGE"
if [ "$RC" -ne 0 ]; then
	fail setup "making the images: $(snippet "$WORK/last.err")"
	finish
fi

# why IMG: empty when IMG is a clean volume holding the tree, else the reason
why() {
	run_cmd "$FSCK" -f "$1"
	[ "$RC" -eq 0 ] || {
		echo "our fsck exit $RC: $(grep -m1 -v '^Info' "$WORK/last.out")"
		return
	}
	if have_upstream fsck; then
		run_cmd "$UPSTREAM_FSCK" --dry-run -f "$1"
		if [ "$RC" -ne 0 ] || grep -qE '\[Fail\]|Invalid SB|Magic Mismatch' "$WORK/last.out"; then
			echo "upstream fsck exit $RC: $(grep -m1 -E 'Fail|Invalid' "$WORK/last.out")"
			return
		fi
	fi
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -P -L -o "$WORK/out" "$1"
	[ "$RC" -eq 0 ] || {
		echo "dump -r exit $RC"
		return
	}
	diff -r --no-dereference "$TREE" "$WORK/out" >/dev/null 2>&1 || echo "the tree differs"
}

# cuts MODE BASE FROM-MIB TO-MIB [OPTION...]: cut the resize of BASE from
# FROM to TO MiB at every write in turn (MODE atomic: every cut must leave
# the old volume; in-place: some may not); sets olds, bad, n, rc
cuts() {
	local mode=$1 base=$2 old=$(($3 * 256)) new=$(($4 * 256)) sectors=$(($4 * 2048))
	shift 4
	n=0 olds=0 bad=0
	while :; do
		cp --sparse=always "$base" "$IMG"
		run_cmd "$CUT" "$IMG" "$n" "$sectors" "$@"
		rc=$RC
		blocks=$(dd if="$IMG" bs=1 skip=$((1024 + 36)) count=8 status=none |
			od -An -tu8 | tr -d ' ')
		reason=$(why "$IMG")
		if [ "$rc" -eq 2 ] && [ "$blocks" = "$old" ] && [ -z "$reason" ]; then
			olds=$((olds + 1))
		elif [ "$rc" -eq 0 ] && [ "$blocks" = "$new" ] && [ -z "$reason" ]; then
			break
		else
			[ "$mode" = in-place ] || fail "cut-at-$n" "resizecut exit $rc, block_count $blocks: ${reason:-$(snippet "$WORK/last.out")}"
			bad=$((bad + 1))
			[ "$rc" -eq 0 ] && break
		fi
		n=$((n + 1))
		[ "$n" -lt 5000 ] || break
	done
}

# atomic NAME BASE FROM TO [OPTION...] / in_place NAME ...: the verdicts
atomic() {
	local name=$1
	shift
	cuts atomic "$@"
	if [ "$bad" -eq 0 ] && [ "$olds" -gt 0 ] && [ "$rc" -eq 0 ]; then
		pass "$name ($olds cuts left the old volume, the uncut run the new one)"
	else
		fail "$name" "$bad bad of $n runs, last exit $rc"
	fi
}
in_place() {
	local name=$1
	shift
	cuts in-place "$@"
	if [ "$bad" -gt 0 ] && [ "$rc" -eq 0 ]; then
		pass "$name ($bad of $n cuts left neither volume)"
	else
		fail "$name" "$bad bad of $n runs, last exit $rc"
	fi
}

atomic grow-every-cut "$SMALL" 64 128
in_place grow-in-place-is-not-atomic "$SMALL" 64 128 -f
atomic shrink-every-cut "$LARGE" 128 64 -s
in_place shrink-in-place-is-not-atomic "$LARGE" 128 64 -f -s
finish
