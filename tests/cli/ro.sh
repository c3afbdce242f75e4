#!/bin/bash
# Read-only volumes (-O ro): our mkfs -O ro is clean for our fsck and
# upstream's; newest upstream's ro image reads in our dump (-d 1 field for
# field as its own dump) and is clean for our fsck; our sload fills either
# and both fscks stay clean, dump -r giving the tree back.  What makes no
# sense on a volume no kernel writes is refused with one line and nothing
# written: fsck repairs (-y reports and says why not, --rebuild refuses),
# f2fs_io replay, dump -a and -b (no SSA), mkfs -O ro on several devices.
# The superblock and checkpoint layout against newest upstream's is
# mkfs-layout.sh's (its matrix has -O ro rows).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
F2FS_IO=${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}
newest_dir=$(dirname "$TOP")/upstream-f2fs-tools
NEWEST_MKFS=${UPSTREAM_NEWEST_MKFS:-$newest_dir/mkfs/mkfs.f2fs}
NEWEST_DUMP=${UPSTREAM_NEWEST_DUMP:-$newest_dir/fsck/dump.f2fs}
NEWEST_FSCK=${UPSTREAM_NEWEST_FSCK:-$newest_dir/fsck/fsck.f2fs}

for b in "$SLOAD" "$FSCK" "$DUMP" "$INJECT" "$F2FS_IO"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done
# the upstream fsck that judges: newest where built, else Debian's
if [ -x "$NEWEST_FSCK" ]; then
	UPSTREAM_FSCK=$NEWEST_FSCK
fi
HAVE_NEWEST=0
[ -x "$NEWEST_MKFS" ] && [ -x "$NEWEST_DUMP" ] && HAVE_NEWEST=1

# ours_clean NAME IMG: our fsck exits 0 and reports no problem
ours_clean() {
	run_cmd "$FSCK" "$2"
	if [ "$RC" -eq 0 ] && ! grep -q 'problem(s) found\|PR_' "$WORK/last.out"; then
		pass "$1"
	else
		fail "$1" "our fsck exited $RC: $(grep -E 'PR_|problem' "$WORK/last.out" | head -3)"
	fi
}

# upstream_clean NAME IMG: upstream's fsck exits 0 without a problem line
upstream_clean() {
	if ! have_upstream fsck; then
		skip "$1" "no upstream fsck.f2fs"
		return
	fi
	fsck_run "$2" "$WORK/up.fsck"
	# lines it prints on any image (and "Corrupted valid nat_bits" of its own fresh ro ones)
	probs=$(_fsck_suspicious "$WORK/up.fsck" | grep -Ev 'nat_bits|Force to fix corruption|fixing SIT types')
	if [ "$RC" -eq 0 ] && [ -z "$probs" ]; then
		pass "$1"
	else
		fail "$1" "upstream fsck exited $RC: $(head -3 <<<"$probs")"
	fi
}

# unchanged_after NAME IMG REGEX -- CMD...: one line matching REGEX, non-zero, IMG as it was
unchanged_after() {
	local name=$1 img=$2 regex=$3
	shift 3
	REFUSE_IMAGE=$img expect_refusal "$name" "$regex" "$@"
}

make_tree() {
	local src=$1 i
	mkdir -p "$src/dir/sub" "$src/many" || return 1
	head -c 6000000 /dev/urandom >"$src/big" || return 1
	head -c 3000 /dev/urandom >"$src/dir/small" || return 1
	for i in $(seq 1 600); do printf '%s' "$i" >"$src/many/f$i"; done
	: >"$src/empty"
	printf 'photo' >"$src/dir/cold.jpg"
	ln -s ../big "$src/dir/sub/link" || return 1
	truncate -s 20M "$src/sparse" && printf 'end' >>"$src/sparse"
}

SRC=$WORK/src
make_tree "$SRC" || { fail setup "cannot make the source tree"; finish; }

# --- our mkfs -O ro, our sload onto it -----------------------------------

IMG=$WORK/ours.img
truncate -s 128M "$IMG"
run_cmd "$MKFS" -f -O ro "$IMG"
if [ "$RC" -ne 0 ]; then
	fail mkfs "our mkfs -O ro exited $RC: $(snippet "$WORK/last.err")"
	finish
fi
pass mkfs
ours_clean fresh/our-fsck "$IMG"
upstream_clean fresh/upstream-fsck "$IMG"

run_cmd "$SLOAD" -f "$SRC" "$IMG"
if [ "$RC" -eq 0 ]; then pass sload; else fail sload "our sload exited $RC: $(snippet "$WORK/last.err")"; fi
ours_clean sloaded/our-fsck "$IMG"
upstream_clean sloaded/upstream-fsck "$IMG"
# two logs: hot data above where it started, hot node below the last segment
main=$("$DUMP" -d 1 "$IMG" | awk '$1 == "segment_count_main" { sub(/.*: */, ""); sub(/\].*/, ""); print }')
dseg=$("$DUMP" -d 1 "$IMG" | awk '$1 == "cur_data_segno[0]" { sub(/.*: */, ""); sub(/\].*/, ""); print }')
nseg=$("$DUMP" -d 1 "$IMG" | awk '$1 == "cur_node_segno[0]" { sub(/.*: */, ""); sub(/\].*/, ""); print }')
others=$("$DUMP" -d 1 "$IMG" | grep -E '^cur_(data|node)_segno\[[12]\]' | grep -vc ': 0\]')
if [ -n "$main" ] && [ "${dseg:-0}" -gt 0 ] && [ "${nseg:-0}" -lt $((main - 1)) ] && [ "$others" -eq 0 ]; then
	pass two-logs
else
	fail two-logs "main $main, hot data at $dseg, hot node at $nseg, $others other log(s) moved"
fi
OUT=$WORK/out
run_cmd "$DUMP" -r -P -L -o "$OUT" "$IMG"
if [ "$RC" -eq 0 ] && d=$(diff -r --no-dereference "$SRC" "$OUT" 2>&1); then
	pass extract
else
	fail extract "rc=$RC: ${d:-$(snippet "$WORK/last.err")}"
fi
for a in "-i 3" "-I 3" "-M" "--sections" "-n 0~-1 -s 0~-1 -N"; do
	# shellcheck disable=SC2086 # the options are words
	run_cmd "$DUMP" $a "$IMG"
	if [ "$RC" -eq 0 ] && [ ! -s "$WORK/last.err" ]; then
		pass "dump $a"
	else
		fail "dump $a" "rc=$RC: $(snippet "$WORK/last.err")"
	fi
done
run_cmd "$INJECT" --dry-run --node --nid 3 --mb i_links --val 9 "$IMG"
if [ "$RC" -eq 0 ] && grep -q 'i_links of nid 3' "$WORK/last.out"; then pass inject-reads; else fail inject-reads "rc=$RC: $(snippet "$WORK/last.err")"; fi

# --- refusals --------------------------------------------------------------

unchanged_after dump-a-refused "$IMG" 'read-only.*no SSA' -- "$DUMP" -a 0~-1 "$IMG"
# a data block of a segment the hot data log has left: no summary to ask
blk=$(("$(awk '$1 == "main_blkaddr" { sub(/.*: */, ""); sub(/\].*/, ""); print }' < <("$DUMP" -d 1 "$IMG"))" + 10))
run_cmd "$DUMP" -b "$blk" "$IMG"
if [ "$RC" -eq 1 ] && [ "$(wc -l <"$WORK/last.err")" -eq 1 ] && grep -q 'read-only (feature ro) and has no SSA' "$WORK/last.err"; then
	pass dump-b-no-ssa
else
	fail dump-b-no-ssa "rc=$RC: $(snippet "$WORK/last.err")"
fi
unchanged_after replay-refused "$IMG" 'read-only \(feature ro\)' -- \
	"$F2FS_IO" replay --no-progress --count 4 --file-size 1M ckpt-storm "$IMG"
BAD=$WORK/bad.img
cp "$IMG" "$BAD"
run_cmd "$INJECT" --node --nid 3 --mb i_links --val 9 "$BAD"
before=$(fingerprint "$BAD")
run_cmd "$FSCK" -y "$BAD"
if [ "$RC" -eq 4 ] && grep -q 'not repaired: the volume is read-only (feature ro)' "$WORK/last.out" &&
	[ "$(fingerprint "$BAD")" = "$before" ]; then
	pass fsck-y-not-repaired
else
	fail fsck-y-not-repaired "rc=$RC: $(grep -E 'problem|repair' "$WORK/last.out" | head -2)"
fi
unchanged_after fsck-rebuild-refused "$BAD" 'read-only \(feature ro\)' -- "$FSCK" --rebuild -y "$BAD"
truncate -s 64M "$WORK/dev1" "$WORK/dev2"
REFUSE_IMAGE=$WORK/dev2 expect_refusal mkfs-ro-multi 'read-only volume lies on one regular device' -- \
	"$MKFS" -f -O ro -c "$WORK/dev2" "$WORK/dev1"

# --- newest upstream's ro image ------------------------------------------

if [ "$HAVE_NEWEST" -eq 0 ]; then
	skip newest-upstream "newest upstream is not built ($NEWEST_MKFS)"
	finish
fi
UIMG=$WORK/theirs.img
truncate -s 128M "$UIMG"
if ! timeout -k 5 "$CMD_TIMEOUT" "$NEWEST_MKFS" -f -O ro "$UIMG" >"$WORK/umkfs.log" 2>&1; then
	fail newest-mkfs "newest upstream mkfs -O ro failed: $(snippet "$WORK/umkfs.log")"
	finish
fi
# our dump reads every field as theirs does (the version bitmaps but for the words upstream repeats)
"$NEWEST_DUMP" -d 1 "$UIMG" 2>/dev/null | grep -aP '^\S+\s+\t\t\[' | grep -v '_version_bitmap\[' >"$WORK/their.d1"
run_cmd "$DUMP" -d 1 "$UIMG"
if [ "$RC" -eq 0 ] && [ "$(wc -l <"$WORK/their.d1")" -gt 60 ] &&
	d=$(diff "$WORK/their.d1" <(grep -aP '^\S+\s+\t\t\[' "$WORK/last.out" | grep -v '_version_bitmap\[')); then
	pass their-image/dump-d1
else
	fail their-image/dump-d1 "rc=$RC: ${d:-$(snippet "$WORK/last.err")}"
fi
ours_clean their-image/our-fsck "$UIMG"
run_cmd "$SLOAD" -f "$SRC" "$UIMG"
if [ "$RC" -eq 0 ]; then pass their-image/sload; else fail their-image/sload "our sload exited $RC: $(snippet "$WORK/last.err")"; fi
ours_clean their-image/sloaded/our-fsck "$UIMG"
upstream_clean their-image/sloaded/upstream-fsck "$UIMG"
rm -rf "$OUT"
run_cmd "$DUMP" -r -P -L -o "$OUT" "$UIMG"
if [ "$RC" -eq 0 ] && d=$(diff -r --no-dereference "$SRC" "$OUT" 2>&1); then
	pass their-image/extract
else
	fail their-image/extract "rc=$RC: ${d:-$(snippet "$WORK/last.err")}"
fi

finish
