#!/bin/bash
# Benchmark our defrag.f2fs against newest upstream's on identical copies of
# one image, in the same run.  The image (BENCH_SIZE, default 8G, made by
# our mkfs) holds a fragmented file of BENCH_FILE_MIB MiB (default 1024):
# written by our write path (tests/cli/wrtool) in 1 MiB pieces interleaved
# with a second file, a checkpoint after each pair, then the second file
# removed -- so the file's blocks alternate with free gaps over twice its
# size.  Both tools move the segments the file spans to the default target
# (just past them): BENCH_RUNS times each (default 3), alternating, each on
# a fresh copy of the image.  Reported: the median wall time of each tool
# (date +%s%N around the call, copying the image not counted), the ratio
# ours/upstream, the blocks each left in the range (our dump's SIT), the
# file's extents and our fsck's verdict on each result, so that only equal
# work is compared.
#
# Upstream is newest upstream built by bench/build-upstream.sh into
# UPSTREAM_DIR (default ../upstream-f2fs-tools beside the repository).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${DEFRAG:-$top/defrag/defrag.f2fs}
mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
fsck=${FSCK:-$top/fsck/fsck.f2fs}
dump=${DUMP:-$top/dump/dump.f2fs}
wrtool=${WRTOOL:-$top/tests/cli/wrtool}
updir=${UPSTREAM_DIR:-$(dirname "$top")/upstream-f2fs-tools}
upstream=${UPSTREAM_DEFRAG:-$updir/fsck/defrag.f2fs}
size=${BENCH_SIZE:-8G}
mib=${BENCH_FILE_MIB:-1024}
runs=${BENCH_RUNS:-3}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-defrag.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

for bin in "$ours" "$mkfs" "$fsck" "$dump" "$wrtool" "$upstream"; do
	[ -x "$bin" ] || { echo "bench: $bin is not executable (make check builds wrtool; bench/build-upstream.sh upstream)" >&2; exit 2; }
done
echo "bench: ours $ours; upstream $upstream"

img=$dir/frag.img
truncate -s "$size" "$img" && "$mkfs" -q -f "$img" >/dev/null || exit 2
args=("$img" create /frag create /other)
for ((i = 0; i < mib; i++)); do
	args+=(write /frag $((i << 20)) 1048576 1 write /other $((i << 20)) 1048576 2 sync)
done
args+=(unlink /other umount)
t0=$(date +%s%N)
"$wrtool" "${args[@]}" >/dev/null || { echo "bench: wrtool failed" >&2; exit 2; }
echo "bench: $mib MiB file in $("$dump" -i 4 -M "$img" | head -n 1 | wc -w) extents, written in $((($(date +%s%N) - t0) / 1000000)) ms"

field() {
	"$dump" -d 1 "$img" | awk -v f="$1" '$1 == f { sub(/^.*: */, ""); sub(/\].*$/, ""); print; exit }'
}
seg0=$(field segment0_blkaddr)
read -r first last <<<"$("$dump" -i 4 -M "$img" | head -n 1 | tr ' -' '\n\n' | grep -v '^$' |
	sort -n | sed -n '1p;$p' | tr '\n' ' ')"
start=$(((first - seg0) / 512 * 512 + seg0))
len=$(((last - start) / 512 * 512 + 512))
echo "bench: range -s $start -l $len ($((len / 256)) MiB)"

# run TOOL COPY: defrag COPY with TOOL; prints the milliseconds.
run() {
	local t0 t1
	t0=$(date +%s%N)
	"$1" -s "$start" -l "$len" "$2" >"$dir/out.log" 2>&1 || { echo "bench: $1 failed: $(tail -n 1 "$dir/out.log")" >&2; return 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# verdict COPY: "left N, fsck RC" for a defragged copy.
verdict() {
	local left rc
	left=$("$dump" -N -s "$(((start - seg0) / 512))~$(((start + len - seg0) / 512))" "$1" |
		awk '$1 == "segno:" { n += $4 } END { print n + 0 }')
	"$fsck" -f -n "$1" >/dev/null 2>&1
	rc=$?
	echo "left $left, file in $("$dump" -i 4 -M "$1" | head -n 1 | wc -w) extent(s), our fsck exit $rc"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$dir/ours.ms"
: >"$dir/upstream.ms"
for ((r = 0; r < runs; r++)); do
	for who in ours upstream; do
		cp --sparse=always "$img" "$dir/$who.img"
		bin=$ours
		[ "$who" = upstream ] && bin=$upstream
		ms=$(run "$bin" "$dir/$who.img") || exit 1
		echo "$ms" >>"$dir/$who.ms"
		echo "bench: run $((r + 1)) $who: $ms ms ($(verdict "$dir/$who.img"))"
	done
done
o=$(median <"$dir/ours.ms")
u=$(median <"$dir/upstream.ms")
printf 'defrag of a %d MiB fragmented file: ours %d ms, upstream %d ms, ratio ours/upstream %s\n' \
	"$mib" "$o" "$u" "$(awk -v o="$o" -v u="$u" 'BEGIN { printf "%.2f", u ? o / u : 0 }')"
