#!/bin/bash
# defrag.f2fs, judged by the kernel.  On a volume our mkfs made, the kernel
# writes /frag in DEFRAG_PIECES pieces interleaved with /other (a sync after
# each pair) and removes /other (jobs/defrag.sh MODE=write), so /frag lies in
# pieces with gaps; FS_IOC_FIEMAP (tools/fiemap.c) counts its extents.  Both
# fscks must find that volume clean.  The host then defrags the segments
# /frag spans (default target: just past them) with our defrag.f2fs, and
# both fscks must find it clean again.  In a second boot (MODE=check) the
# kernel reads /frag: the same SHA-256 as it wrote, fewer extents than
# before, and after it wrote a file, both fscks clean.
#
#   defrag/kernel-fragmented
#
# Environment: MKFS, OUR_FSCK, OUR_DUMP, OUR_DEFRAG (ours, defaults in the
# tree), UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), DEFRAG_PIECES
# (default 32), plus guest.sh's GUEST_*.  Output: one PASS/FAIL/SKIP line;
# exit 1 if it failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
DUMP=${OUR_DUMP:-$repo/dump/dump.f2fs}
DEFRAG=${OUR_DEFRAG:-$repo/defrag/defrag.f2fs}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
PIECES=${DEFRAG_PIECES:-32}
NAME=defrag/kernel-fragmented

all_names() { echo "$NAME"; }

need_executable "$MKFS" "$FSCK" "$DUMP" "$DEFRAG"
start_work defrag
cc -O2 -o "$work/fiemap" "$here/tools/fiemap.c" 2>"$work/cc.log" ||
	CI=true abandon "cannot build fiemap: $(head -n 1 "$work/cc.log")"
img=$work/frag.img

# reported WHAT LOG: the value the job printed as "defrag: WHAT VALUE".
reported() {
	grep -ao "defrag: $1 [0-9a-f]*" "$2" | head -n 1 | cut -d' ' -f3
}

# frag_ino: the inode of /frag, from our fsck's tree (-t).
frag_ino() {
	"$FSCK" -n -t "$img" 2>/dev/null | sed -n 's/^.*-- frag <ino = \(0x[0-9a-f]*\)>.*$/\1/p' |
		head -n 1
}

# defrag_span INO: defrag the segments file INO spans; prints defrag's output.
defrag_span() {
	local seg0 first last start len
	seg0=$("$DUMP" -d 1 "$img" | awk '$1 == "segment0_blkaddr" { sub(/^.*: */, ""); sub(/\].*$/, ""); print }')
	read -r first last <<<"$("$DUMP" -i "$1" -M "$img" | head -n 1 | tr ' -' '\n\n' |
		grep -v '^$' | sort -n | sed -n '1p;$p' | tr '\n' ' ')"
	[ -n "$first" ] && [ -n "$seg0" ] || return 1
	start=$(((first - seg0) / 512 * 512 + seg0))
	len=$(((last - start) / 512 * 512 + 512))
	"$DEFRAG" -s "$start" -l "$len" "$img"
}

run() {
	local sum0 ext0 sum1 ext1 ino r
	truncate -s 256M "$img" && "$MKFS" -q -f "$img" </dev/null >/dev/null 2>&1 ||
		{ echo "mkfs failed"; return; }
	GUEST_JOB_ENV="MODE=write
PIECES=$PIECES"
	guest_run "$img" "$here/jobs/defrag.sh" "$work/fiemap" ||
		{ echo "kernel, writing: $guest_error"; return; }
	sum0=$(reported sum "$guest_log")
	ext0=$(reported extents "$guest_log")
	[ "${ext0:-0}" -gt 1 ] || { echo "the kernel wrote /frag in ${ext0:-?} extent(s): nothing to defragment"; return; }
	r=$(fscks_clean "$img" written) || { echo "after the kernel wrote: $r"; return; }
	ino=$(frag_ino)
	[ -n "$ino" ] || { echo "our dump finds no inode named frag"; return; }
	defrag_span "$ino" >"$work/defrag.log" 2>&1 ||
		{ echo "defrag.f2fs failed: $(tail -n 1 "$work/defrag.log")"; return; }
	info "$(tr '\n' ' ' <"$work/defrag.log")"
	r=$(fscks_clean "$img" defragged) || { echo "after defrag: $r"; return; }
	GUEST_JOB_ENV="MODE=check
PIECES=$PIECES"
	guest_run "$img" "$here/jobs/defrag.sh" "$work/fiemap" ||
		{ echo "kernel, reading: $guest_error"; return; }
	sum1=$(reported sum "$guest_log")
	ext1=$(reported extents "$guest_log")
	info "extents: $ext0 before, $ext1 after"
	[ -n "$sum1" ] && [ "$sum1" = "$sum0" ] || { echo "contents changed: $sum0 -> $sum1"; return; }
	[ "${ext1:-$ext0}" -lt "$ext0" ] || { echo "extents: $ext0 before, ${ext1:-?} after"; return; }
	r=$(fscks_clean "$img" after) || { echo "after the kernel read and wrote: $r"; return; }
}

verdict=$(run)
if [ -z "$verdict" ]; then
	pass "$NAME"
else
	fail "$NAME" "$verdict"
fi
finish_work '*.img'
