#!/bin/bash
# Android sparse images (-S): mkfs -S and sload -S write sparse files that
# simg2img expands, byte for byte, to the raw image the same options make
# (-r -T -U make mkfs reproducible, -T sload); our fsck and newest
# upstream's find them clean; fsck -S and dump -S read them in place, and a
# read-only run leaves them untouched; fsck -S -y repairs a damaged image
# (made sparse by img2simg) in place; sload -S keeps mkfs's zero fill
# chunks.  With upstream built with libsparse (UPSTREAM_SPARSE, default
# ../upstream-sparse) its sparse output is compared: the same block count,
# every block it defines defined by ours too, and each tool loads the
# other's image cleanly.  Bad input -- a sparse file that is not one, a
# damaged one, a bad -S value, a sparse image without -S, -z (undo) with
# -S -- gets one line, a non-zero exit, and nothing written.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

B=${TOP_BUILDDIR:-$TOP}
FSCK=${FSCK:-$B/fsck/fsck.f2fs}
SLOAD=${SLOAD:-$B/sload/sload.f2fs}
DUMP=${DUMP:-$B/dump/dump.f2fs}
NEWEST_FSCK=${UPSTREAM_NEWEST_FSCK:-$(dirname "$TOP")/upstream-f2fs-tools/fsck/fsck.f2fs}
UP_SPARSE=${UPSTREAM_SPARSE:-$(dirname "$TOP")/upstream-sparse}
SIZE=$((512 << 20))
UUID=6b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
MKOPTS=(-q -r -T 1700000000 -U "$UUID" -O "extra_attr,inode_checksum,sb_checksum")
SRC=$TOP/include

run_cmd "$MKFS" -q -S $SIZE "$WORK/probe.simg"
if grep -q 'without android-libsparse' "$WORK/last.err"; then
	skip all "this build has no android-libsparse"
	REFUSE_IMAGE=$WORK/none.simg expect_refusal "no-libsparse-refused" 'android-libsparse' -- \
		"$MKFS" -q -S $SIZE "$WORK/none.simg"
	finish
fi
command -v simg2img >/dev/null || {
	skip all "simg2img is not installed (android-sdk-libsparse-utils)"
	finish
}

# chunks FILE: one line per chunk that defines blocks, "raw|fill FIRST COUNT",
# after a "blocks N" line: the sparse header and chunk headers, read directly.
chunks() {
	python3 - "$1" <<'EOF'
import signal, struct, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (head) ends us quietly
f = open(sys.argv[1], 'rb').read()
magic, _, _, fhs, _, bs, blks, n, _ = struct.unpack_from('<IHHHHIIII', f, 0)
assert magic == 0xed26ff3a and bs == 4096
print('blocks', blks)
off, b = fhs, 0
for _ in range(n):
    t, _, sz, tot = struct.unpack_from('<HHII', f, off)
    if t == 0xcac1:
        print('raw', b, sz)
    elif t == 0xcac2:
        print('fill', b, sz, struct.unpack_from('<I', f, off + 12)[0])
    b += sz
    off += tot
EOF
}

# defined_blocks FILE [KIND]: every block a raw or fill chunk (or only KIND) covers,
# one per line, sorted for comm.
defined_blocks() {
	chunks "$1" | awk -v k="${2:-}" '$1 != "blocks" && (k == "" || $1 == k) {
		for (i = 0; i < $3; i++) print $2 + i }' | LC_ALL=C sort
}

# clean NAME IMG [-S]: our fsck (on the sparse file itself with -S) and newest
# upstream's (on the raw IMG.raw) exit 0.
clean() {
	local name=$1 img=$2
	run_cmd "$FSCK" -S "$img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our fsck -S exit $RC: $(snippet "$WORK/last.err")"
		return 1
	fi
	run_cmd "$FSCK" "$img.raw"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our fsck of the expanded image exit $RC: $(snippet "$WORK/last.out")"
		return 1
	fi
	if [ -x "$NEWEST_FSCK" ]; then
		run_cmd "$NEWEST_FSCK" "$img.raw"
		if [ "$RC" -ne 0 ]; then
			fail "$name" "newest upstream fsck exit $RC: $(grep -E 'Fail|rror' "$WORK/last.out" | head -2)"
			return 1
		fi
	fi
	pass "$name"
}

# expand NAME SPARSE: simg2img SPARSE to SPARSE.raw, SIZE bytes.
expand() {
	rm -f "$2.raw"
	if ! simg2img "$2" "$2.raw" 2>"$WORK/last.err" ||
		[ "$(stat -c %s "$2.raw")" -ne $SIZE ]; then
		fail "$1" "simg2img: $(snippet "$WORK/last.err")"
		return 1
	fi
}

# --- mkfs -S ---------------------------------------------------------------------

ours=$WORK/ours.simg
raw=$WORK/ours.img
run_cmd "$MKFS" "${MKOPTS[@]}" -S $SIZE "$ours"
if [ "$RC" -ne 0 ]; then
	fail mkfs-sparse "exit $RC: $(snippet "$WORK/last.err")"
	finish
fi
truncate -s $SIZE "$raw"
run_cmd "$MKFS" "${MKOPTS[@]}" -t 0 "$raw"
if [ "$RC" -ne 0 ]; then
	fail mkfs-raw "exit $RC: $(snippet "$WORK/last.err")"
	finish
fi
if expand mkfs-expands-to-raw "$ours"; then
	if cmp -s "$ours.raw" "$raw"; then
		pass mkfs-expands-to-raw
	else
		fail mkfs-expands-to-raw "$(cmp "$ours.raw" "$raw" 2>&1 | head -1)"
	fi
	clean mkfs-sparse-clean "$ours"
fi
# the sparse file is small, and defines the SIT and NAT areas as zero fill
chunks "$ours" >"$WORK/ours.chunks"
nfill=$(grep -c '^fill .* 0$' "$WORK/ours.chunks")
if [ "$(stat -c %s "$ours")" -gt $((1 << 20)) ]; then
	fail mkfs-sparse-small "$(stat -c %s "$ours") bytes for an empty volume"
elif [ "$(head -1 "$WORK/ours.chunks")" != "blocks $((SIZE / 4096))" ] || [ "$nfill" -lt 2 ]; then
	fail mkfs-sparse-small "chunks: $(tr '\n' ' ' <"$WORK/ours.chunks" | head -c 200)"
else
	pass mkfs-sparse-small
fi

# --- fsck -S and dump -S read in place; read-only runs write nothing -----------------

before=$(fingerprint "$ours")
run_cmd "$FSCK" -S -n "$ours"
if [ "$RC" -ne 0 ] || [ "$(fingerprint "$ours")" != "$before" ]; then
	fail fsck-sparse-read-only "exit $RC, or the image changed"
else
	pass fsck-sparse-read-only
fi
run_cmd "$DUMP" -S -d 1 "$ours"
cp "$WORK/last.out" "$WORK/dump.sparse"
run_cmd "$DUMP" -d 1 "$raw"
if ! grep -q '^magic' "$WORK/dump.sparse" || ! cmp -s "$WORK/dump.sparse" "$WORK/last.out"; then
	fail dump-sparse "dump -S -d 1 differs from dump -d 1 of the raw image"
elif [ "$(fingerprint "$ours")" != "$before" ]; then
	fail dump-sparse "the image changed"
else
	pass dump-sparse
fi

# --- sload -S ----------------------------------------------------------------------

cp "$ours" "$WORK/load.simg"
cp --sparse=always "$raw" "$WORK/load.img"
run_cmd "$SLOAD" -S -T 1700000000 -f "$SRC" "$WORK/load.simg"
rc_sparse=$RC
run_cmd "$SLOAD" -T 1700000000 -f "$SRC" "$WORK/load.img"
if [ "$rc_sparse" -ne 0 ] || [ "$RC" -ne 0 ]; then
	fail sload-sparse "exit $rc_sparse (sparse), $RC (raw): $(snippet "$WORK/last.err")"
elif expand sload-expands-to-raw "$WORK/load.simg"; then
	if cmp -s "$WORK/load.simg.raw" "$WORK/load.img"; then
		pass sload-expands-to-raw
	else
		fail sload-expands-to-raw "$(cmp "$WORK/load.simg.raw" "$WORK/load.img" 2>&1 | head -1)"
	fi
	clean sload-sparse-clean "$WORK/load.simg"
	# what mkfs's zero fill chunks defined is still defined (as fill, or as data
	# sload wrote there): nothing became don't-care in the rewrite
	lost=$(LC_ALL=C comm -23 <(defined_blocks "$ours" fill) <(defined_blocks "$WORK/load.simg") | head -3)
	still=$(LC_ALL=C comm -12 <(defined_blocks "$ours" fill) <(defined_blocks "$WORK/load.simg" fill) | wc -l)
	if [ -n "$lost" ] || [ "$still" -lt 1024 ]; then
		fail sload-keeps-fill-chunks "lost blocks: ${lost//$'\n'/ }; still fill: $still"
	else
		pass sload-keeps-fill-chunks
	fi
fi

# --- fsck -S repairs in place: a damaged raw image made sparse by img2simg --------------

INJECT=${INJECT:-$B/inject/inject.f2fs}
if ! command -v img2simg >/dev/null || [ ! -x "$INJECT" ]; then
	skip fsck-sparse-repairs "no img2simg or no inject.f2fs"
elif cp --sparse=always "$WORK/load.img" "$WORK/hurt.img" &&
	"$INJECT" --node --nid 3 --mb i_links --val 7 "$WORK/hurt.img" >/dev/null 2>&1 &&
	img2simg "$WORK/hurt.img" "$WORK/hurt.simg"; then
	run_cmd "$FSCK" -S "$WORK/hurt.simg"
	rc_check=$RC
	run_cmd "$FSCK" -S -y "$WORK/hurt.simg"
	if [ "$rc_check" -eq 0 ] || [ "$RC" -ne 1 ]; then
		fail fsck-sparse-repairs "check exit $rc_check (want non-zero), repair exit $RC (want 1)"
	elif expand fsck-sparse-repairs "$WORK/hurt.simg"; then
		clean fsck-sparse-repairs "$WORK/hurt.simg"
	fi
else
	fail fsck-sparse-repairs "cannot damage the image or make it sparse"
fi

# --- newest upstream built with libsparse --------------------------------------------

if [ -x "$UP_SPARSE/mkfs/mkfs.f2fs" ] && [ -x "$UP_SPARSE/fsck/sload.f2fs" ]; then
	up=$WORK/up.simg
	run_cmd "$UP_SPARSE/mkfs/mkfs.f2fs" "${MKOPTS[@]}" -S $SIZE "$up"
	if [ "$RC" -ne 0 ]; then
		fail upstream-mkfs-sparse "exit $RC"
	elif [ "$(chunks "$up" | head -1)" != "$(head -1 "$WORK/ours.chunks")" ]; then
		fail upstream-mkfs-sparse "block counts differ: $(chunks "$up" | head -1)"
	elif [ -n "$(LC_ALL=C comm -23 <(defined_blocks "$up") <(defined_blocks "$ours") | head -3)" ]; then
		fail upstream-mkfs-sparse "blocks upstream defines that ours leaves don't-care: $(LC_ALL=C comm -23 <(defined_blocks "$up") <(defined_blocks "$ours") | head -3 | tr '\n' ' ')"
	else
		pass upstream-mkfs-sparse
	fi
	# each loads the other's image
	cp "$up" "$WORK/cross1.simg"
	cp "$ours" "$WORK/cross2.simg"
	run_cmd "$SLOAD" -S -T 1700000000 -f "$SRC" "$WORK/cross1.simg"
	rc1=$RC
	run_cmd "$UP_SPARSE/fsck/sload.f2fs" -S -T 1700000000 -f "$SRC" "$WORK/cross2.simg"
	if [ "$rc1" -ne 0 ] || [ "$RC" -ne 0 ]; then
		fail upstream-cross-load "exit ours $rc1, upstream $RC"
	else
		expand upstream-cross-load-ours "$WORK/cross1.simg" &&
			clean upstream-cross-load-ours "$WORK/cross1.simg"
		expand upstream-cross-load-theirs "$WORK/cross2.simg" &&
			clean upstream-cross-load-theirs "$WORK/cross2.simg"
	fi
else
	skip upstream-sparse "no newest upstream built with libsparse at $UP_SPARSE"
fi

# --- bad input: one line, non-zero, nothing written ------------------------------------

REFUSE_IMAGE=$raw expect_refusal sload-not-sparse 'not an Android sparse image' -- \
	"$SLOAD" -S -f "$SRC" "$raw"
REFUSE_IMAGE=$raw expect_refusal fsck-not-sparse 'not an Android sparse image' -- \
	"$FSCK" -S -f "$raw"
REFUSE_IMAGE=$ours expect_refusal fsck-sparse-without-S 'Android sparse image.*-S' -- \
	"$FSCK" -f "$ours"
cp "$ours" "$WORK/cut.simg"
truncate -s $(($(stat -c %s "$ours") / 2)) "$WORK/cut.simg"
REFUSE_IMAGE=$WORK/cut.simg expect_refusal sload-damaged-sparse 'damaged Android sparse image' -- \
	"$SLOAD" -S -f "$SRC" "$WORK/cut.simg"
REFUSE_IMAGE=$ours expect_refusal sload-sparse-undo '-z does not go with -S' -- \
	"$SLOAD" -S -z "$WORK/undo.journal" -f "$SRC" "$ours"
REFUSE_IMAGE=$ours expect_refusal fsck-sparse-undo '-z does not go with -S' -- \
	"$FSCK" -S -y -z "$WORK/undo.journal" "$ours"
for v in abc 0 100 -5 1x; do
	REFUSE_IMAGE=$WORK/bad.simg expect_refusal "mkfs-bad-S-$v" "invalid value for -S" -- \
		"$MKFS" -q -S "$v" "$WORK/bad.simg"
done
REFUSE_IMAGE=$WORK/small.simg expect_refusal mkfs-sparse-too-small 'too small' -- \
	"$MKFS" -q -S $((8 << 20)) "$WORK/small.simg"

finish
