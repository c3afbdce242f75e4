#!/bin/bash
# The main job on a built-in default: set up, build, make an 8 GiB sparse
# image with large sections (-s 128), load this source tree into it with our
# sload.f2fs (through the library's write path), check it with our
# fsck.f2fs and with upstream's, and print its layout and per-section view
# with our dump.f2fs.  A broken copy of it is repaired by fsck.f2fs -y with
# an undo journal, found clean by both fscks, and taken back by f2fs_undo.
# Then f2fs_io replay: the checkpoint-merge experiment
# (seed 001) replayed offline through the write path on the same image,
# merge off against on on a phone-like device model, side by side; the
# replayed volume is checked by both fscks too.
# DEMO_IMAGE, DEMO_SIZE and DEMO_OPTS override the defaults.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
img=${DEMO_IMAGE:-${TMPDIR:-/tmp}/f2fs-ng-demo.img}
size=${DEMO_SIZE:-8G}
opts=${DEMO_OPTS:--s 128}
bash "$top/scripts/setup.sh"
bash "$top/scripts/build.sh" >/dev/null
rm -f "$img"
truncate -s "$size" "$img"
echo "== mkfs.f2fs -f $opts $img ($size sparse file)"
# shellcheck disable=SC2086
"$top/mkfs/mkfs.f2fs" -f $opts "$img"
echo "== sload.f2fs -f $top/lib (the library's sources, through the write path)"
"$top/sload/sload.f2fs" -f "$top/lib" "$img"
echo "== fsck.f2fs -f (ours)"
"$top/fsck/fsck.f2fs" -f "$img" | grep '^\[FSCK\]' || { echo "our fsck found problems"; exit 1; }
echo "== upstream fsck.f2fs --dry-run -f"
out=$(/usr/sbin/fsck.f2fs --dry-run -f "$img" 2>&1) || { echo "$out"; echo "upstream fsck failed"; exit 1; }
echo "$out" | grep '^\[FSCK\]'
if echo "$out" | grep -q '\[Fail\]'; then
	echo "upstream fsck reports a failure"
	exit 1
fi
echo "== fsck.f2fs -y -z: repair a broken copy (a link count and the checkpoint's block count), then undo"
broken=${img%.img}-broken.img
cp --sparse=always "$img" "$broken"
"$top/inject/inject.f2fs" --node --nid 3 --mb i_links --val 9 "$broken" >/dev/null
"$top/inject/inject.f2fs" --cp 0 --mb valid_block_count --val 5 "$broken" >/dev/null
before=$(sha256sum <"$broken")
"$top/fsck/fsck.f2fs" -y -z "$broken.undo" "$broken" | grep -E "^\[FIX\]|^Info: [0-9]+ problem" || true
"$top/fsck/fsck.f2fs" "$broken" >/dev/null || { echo "the repaired copy is not clean"; exit 1; }
/usr/sbin/fsck.f2fs --dry-run -f "$broken" >/dev/null 2>&1 || { echo "upstream fsck: the repaired copy is not clean"; exit 1; }
echo "repaired: both fscks find the copy clean"
"$top/undo/f2fs_undo" "$broken.undo" "$broken"
if [ "$(sha256sum <"$broken")" != "$before" ]; then
	echo "f2fs_undo did not give the broken copy back"
	exit 1
fi
echo "f2fs_undo: the broken copy is back, byte for byte"
rm -f "$broken" "$broken.undo"
echo "== layout (our dump.f2fs -d 1)"
"$top/dump/dump.f2fs" -d 1 "$img" 2>/dev/null |
	grep -E '^(segs_per_sec|secs_per_zone|block_count|section_count|segment_count[a-z_]*|[a-z0-9]+_blkaddr|rsvd_segment_count|overprov_segment_count|free_segment_count|user_block_count|cur_(node|data)_segno\[[0-2]\])[[:space:]]'
echo "== sections (our dump.f2fs --sections)"
"$top/dump/dump.f2fs" --sections "$img"
echo "== allocated on disk: $(du -h "$img" | cut -f1) of $size"
echo "== f2fs_io replay --compare: checkpoint_merge off vs on (ckpt-storm, 300 rounds)"
F2FS_REPLAY_MKFS=$top/mkfs/mkfs.f2fs "$top/tools/f2fs_io/f2fs_io" replay --no-progress \
	--mkfs "$opts" --device-model 400,40000,2 --count 300 --file-size 256M \
	--plot "${img%.img}-replay.svg" \
	--compare "--no-checkpoint-merge" "--checkpoint-merge" ckpt-storm "$img"
"$top/fsck/fsck.f2fs" -f "$img" >/dev/null || { echo "our fsck found problems after the replay"; exit 1; }
/usr/sbin/fsck.f2fs --dry-run -f "$img" >/dev/null 2>&1 || { echo "upstream fsck failed after the replay"; exit 1; }
echo "both fscks: clean after the replay; the runs drawn in ${img%.img}-replay.svg"
