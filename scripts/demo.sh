#!/bin/bash
# The main job on a built-in default: set up, build, make an 8 GiB sparse
# image with large sections (-s 128), load this source tree into it with our
# sload.f2fs (through the library's write path), check it with our
# fsck.f2fs and with upstream's, and print its layout and per-section view
# with our dump.f2fs.
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
echo "== layout (our dump.f2fs -d 1)"
"$top/dump/dump.f2fs" -d 1 "$img" 2>/dev/null |
	grep -E '^(segs_per_sec|secs_per_zone|block_count|section_count|segment_count[a-z_]*|[a-z0-9]+_blkaddr|rsvd_segment_count|overprov_segment_count|free_segment_count|user_block_count|cur_(node|data)_segno\[[0-2]\])[[:space:]]'
echo "== sections (our dump.f2fs --sections)"
"$top/dump/dump.f2fs" --sections "$img"
echo "== allocated on disk: $(du -h "$img" | cut -f1) of $size"
