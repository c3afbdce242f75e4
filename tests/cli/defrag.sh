#!/bin/bash
# defrag.f2fs: a file written interleaved with another (wrtool, one
# checkpoint per pair of writes), the other deleted, lies in 32 pieces with
# gaps; defrag of the segments it spans (default target: just past them,
# then back down with -i) leaves those segments empty in our dump's SIT,
# the file in one extent, its contents unchanged, and the volume clean for
# our fsck and upstream's.  Bad input -- a range past the device, a target
# inside the range or off the main area, a target area without room, not a
# number, no F2FS -- is one line, exit 1, nothing written.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

DEFRAG=${DEFRAG:-${TOP_BUILDDIR:-$TOP}/defrag/defrag.f2fs}
FSCK=${FSCK:-${TOP_BUILDDIR:-$TOP}/fsck/fsck.f2fs}
DUMP=${DUMP:-${TOP_BUILDDIR:-$TOP}/dump/dump.f2fs}
WRTOOL=${WRTOOL:-$TOP/tests/cli/wrtool}
IMG=$WORK/disk.img
PIECES=32 PIECE=65536

for b in "$DEFRAG" "$WRTOOL"; do
	[ -x "$b" ] || {
		fail setup "$b is not executable"
		finish
	}
done

# field NAME: a superblock field of $IMG, from our dump -d 1.
field() {
	"$DUMP" -d 1 "$IMG" 2>/dev/null |
		awk -v f="$1" '$1 == f { sub(/^.*: */, ""); sub(/\].*$/, ""); print; exit }'
}

# extents INO: the runs of the file's block map (our dump -i INO -M).
extents() {
	"$DUMP" -i "$1" -M "$IMG" 2>/dev/null | head -n 1 | wc -w
}

# blocks_span INO: "FIRST LAST", the file's lowest and highest block.
blocks_span() {
	"$DUMP" -i "$1" -M "$IMG" 2>/dev/null | head -n 1 | tr ' -' '\n\n' | grep -v '^$' |
		sort -n | sed -n '1p;$p' | tr '\n' ' '
}

# valid_in SEG0 SEG1: the valid blocks our dump's SIT gives segments
# [SEG0, SEG1] (numbered from segment0, as dump numbers them).
valid_in() {
	"$DUMP" -N -s "$1~$(($2 + 1))" "$IMG" 2>/dev/null |
		awk '$1 == "segno:" { n += $4 } END { print n + 0 }'
}

# same_contents NAME: the file read back by our dump equals the mirror.
same_contents() {
	rm -rf "$WORK/out"
	if ! "$DUMP" -r -o "$WORK/out" "$IMG" >/dev/null 2>&1; then
		fail "$1" "dump -r failed"
	elif ! cmp -s "$WORK/out/frag" "$WORK/mirror/frag"; then
		fail "$1" "the file's contents changed"
	else
		pass "$1"
	fi
}

# clean NAME: our fsck and upstream's (when built) find no problem.
clean() {
	run_cmd "$FSCK" -f "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$1" "our fsck exit $RC: $(snippet "$WORK/last.out")"
		return
	fi
	if have_upstream fsck; then
		run_cmd "$UPSTREAM_FSCK" --dry-run -f "$IMG"
		if [ "$RC" -ne 0 ] || grep -qE '\[Fail\]|\[FIX\]' "$WORK/last.out"; then
			fail "$1" "upstream fsck exit $RC: $(grep -m2 -E 'Fail|FIX' "$WORK/last.out")"
			return
		fi
	fi
	pass "$1"
}

# defragged NAME ARGS...: defrag ARGS exits 0 and the file is one extent,
# the same bytes, on a clean volume; the segments [SEG0, SEG1] are empty.
defragged() {
	local name=$1 n
	shift
	run_cmd "$DEFRAG" "$@" "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "exit $RC: $(snippet "$WORK/last.err")"
		return
	fi
	grep -q '^Info: Move ' "$WORK/last.out" || fail "$name/move-line" "no 'Info: Move' line"
	n=$(valid_in "$SEG0" "$SEG1")
	[ "$n" = 0 ] && pass "$name/range-empty" || fail "$name/range-empty" "$n valid blocks left"
	n=$(extents "$INO")
	[ "$n" = 1 ] && pass "$name/one-extent" || fail "$name/one-extent" "$n extents"
	same_contents "$name/contents"
	clean "$name/clean"
}

# --- a fragmented file ----------------------------------------------------

truncate -s 256M "$IMG"
"$MKFS" -q -f "$IMG" >/dev/null 2>&1
mkdir -p "$WORK/mirror"
args=(--mirror "$WORK/mirror" "$IMG" create /frag create /other)
for i in $(seq 0 $((PIECES - 1))); do
	args+=(write /frag $((i * PIECE)) "$PIECE" 1 write /other $((i * PIECE)) "$PIECE" 2 sync)
done
args+=(unlink /other umount)
run_cmd "$WRTOOL" "${args[@]}"
[ "$RC" -eq 0 ] || {
	fail setup "wrtool exit $RC: $(snippet "$WORK/last.err")"
	finish
}
INO=4 # the first inode after the root's
n=$(extents "$INO")
[ "$n" = "$PIECES" ] && pass fragmented || fail fragmented "the file has $n extents, want $PIECES"

read -r first last <<<"$(blocks_span "$INO")"
SEG0_BLK=$(field segment0_blkaddr)
MAIN=$(field main_blkaddr)
SEG0=$(((first - SEG0_BLK) / 512))
SEG1=$(((last - SEG0_BLK) / 512))
START=$((SEG0 * 512 + SEG0_BLK))
LEN=$(((SEG1 - SEG0 + 1) * 512))
defragged expand -s "$START" -l "$LEN"
moved_to=$(blocks_span "$INO")
# back below the range's old place, from the target down (shrink)
read -r first last <<<"$moved_to"
SEG0=$(((first - SEG0_BLK) / 512))
SEG1=$(((last - SEG0_BLK) / 512))
START=$((SEG0 * 512 + SEG0_BLK))
LEN=$(((SEG1 - SEG0 + 1) * 512))
defragged shrink -s "$(printf '0x%x' "$START")" -l "$LEN" -i
read -r first _ <<<"$(blocks_span "$INO")"
[ "$first" -lt "$START" ] && pass shrink/below || fail shrink/below "the file starts at $first, not below $START"

# --- refusals: one line, exit 1, nothing written --------------------------

END=$((MAIN + $(field segment_count_main) * 512))
read -r first last <<<"$(blocks_span "$INO")"
START=$(((first - SEG0_BLK) / 512 * 512 + SEG0_BLK))
REFUSE_IMAGE=$IMG expect_refusal past-device "start .* is past the main area" -- \
	"$DEFRAG" -s $((END + 4096)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal target-in-range "target .* lies in the range" -- \
	"$DEFRAG" -s "$START" -l 1024 -t $((START + 100)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal target-off-main "target .* is outside the main area" -- \
	"$DEFRAG" -s "$START" -l 1024 -t $((MAIN - 1)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal no-room "not enough room in the target area|no whole section" -- \
	"$DEFRAG" -s "$START" -l 1024 -t $((END - 512)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal no-room-below "not enough room in the target area|no whole section" -- \
	"$DEFRAG" -s "$START" -l 1024 -t $((MAIN + 100)) -i "$IMG"
REFUSE_IMAGE=$IMG expect_refusal not-a-number "invalid value for -s: 'x12'" -- \
	"$DEFRAG" -s x12 "$IMG"
REFUSE_IMAGE=$IMG expect_refusal unknown-option "unknown option -q" -- "$DEFRAG" -q "$IMG"
truncate -s 64M "$WORK/zero.img"
REFUSE_IMAGE=$WORK/zero.img expect_refusal not-f2fs "zero.img" -- "$DEFRAG" "$WORK/zero.img"
# a volume not unmounted cleanly: its fsynced data would be lost
cp "$IMG" "$WORK/unclean.img"
run_cmd "$WRTOOL" "$WORK/unclean.img" create /late sync
REFUSE_IMAGE=$WORK/unclean.img expect_refusal unclean "not unmounted cleanly" -- \
	"$DEFRAG" -s "$START" "$WORK/unclean.img"
run_cmd "$DEFRAG"
[ "$RC" -eq 1 ] && grep -q "no device given" "$WORK/last.err" && pass no-device ||
	fail no-device "exit $RC: $(snippet "$WORK/last.err")"
finish
