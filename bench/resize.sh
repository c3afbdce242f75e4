#!/bin/bash
# Benchmark our resize.f2fs against newest upstream's on identical copies
# of one image, in the same run: a 16 GiB -s 128 volume holding 60,000
# files (a generated tree loaded by our sload.f2fs) grown to 32 GiB.  Each
# run copies the image afresh (sparse), extends the copy to 32 GiB, and
# times one resize -F of it; the two tools take turns, the first
# alternating, BENCH_RUNS times (default 3).  Ours runs twice per turn: by
# default (all or nothing: the metadata areas relocate to the old main
# area's start, whose sections are emptied first) and with -f (in place,
# upstream's layout and upstream's work).  Then the same image shrinks to
# 12 GiB (-s -t), with the same turns: ours by default (all or nothing: the
# areas relocate, sized for 12 GiB, the sections past the end and at the
# old main area's start are emptied first), ours with -f -s (in place,
# upstream's), and upstream's -s.  Reported: median wall time,
# peak RSS (with /usr/bin/time), the ratio ours/upstream, and a check that
# every result is clean for newest upstream's fsck (upstream's own shrink
# of this image is not: its fsck finds the hot data log in a segment the
# SIT types as warm data, "Incorrect curseg [0]", and says so here).
#
# Upstream is newest upstream built by bench/build-upstream.sh into
# UPSTREAM_DIR (default ../upstream-f2fs-tools beside the repository);
# Debian's 1.15 resize.f2fs lays the volume out differently, so without a
# newest build the script stops.  BENCH_IMAGE_DIR=DIR keeps the loaded
# image there and reuses it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${RESIZE:-$top/resize/resize.f2fs}
mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
sload=${SLOAD:-$top/sload/sload.f2fs}
updir=${UPSTREAM_DIR:-$(dirname "$top")/upstream-f2fs-tools}
upstream=${UPSTREAM_RESIZE:-$updir/fsck/resize.f2fs}
upfsck=${UPSTREAM_FSCK:-$updir/fsck/fsck.f2fs}
runs=${BENCH_RUNS:-3}
files=${BENCH_FILES:-60000}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-resize.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

for bin in "$ours" "$mkfs" "$sload" "$upstream" "$upfsck"; do
	[ -x "$bin" ] || { echo "bench: $bin is not executable (bench/build-upstream.sh builds upstream)" >&2; exit 2; }
done
echo "bench: ours $ours; upstream $upstream"

# A tree of FILES files: top directories of ten subdirectories of 500 files, a larger file in each.
make_tree() {
	local root=$1 n=0 d s
	mkdir -p "$root"
	for ((d = 0; n < files; d++)); do
		for ((s = 0; s < 10 && n < files; s++)); do
			mkdir -p "$root/d$d/s$s"
			(cd "$root/d$d/s$s" && touch f{0..499})
			echo "small file $d/$s" >"$root/d$d/s$s/f0"
			n=$((n + 500))
		done
		head -c $((64 * 1024 + d * 4096)) /dev/zero | tr '\0' 'x' >"$root/d$d/big"
	done
}

img=$dir/base.img
if [ -n "${BENCH_IMAGE_DIR:-}" ] && [ -f "$BENCH_IMAGE_DIR/resize-60k.img" ]; then
	cp --sparse=always "$BENCH_IMAGE_DIR/resize-60k.img" "$img"
else
	echo "bench: generating $files files in a 16G -s 128 image..."
	make_tree "$dir/tree"
	truncate -s 16G "$img"
	"$mkfs" -q -f -s 128 "$img" >/dev/null || exit 1
	"$sload" -f "$dir/tree" "$img" >/dev/null 2>&1 || { echo "bench: sload failed" >&2; exit 1; }
	rm -rf "$dir/tree"
	if [ -n "${BENCH_IMAGE_DIR:-}" ]; then
		mkdir -p "$BENCH_IMAGE_DIR" && cp --sparse=always "$img" "$BENCH_IMAGE_DIR/resize-60k.img"
	fi
fi

# run_once SIZE BIN [ARGS]: resize a fresh copy of the image, SIZE long; prints "us rss_kib"
run_once() {
	local size=$1 bin=$2 copy=$dir/run.img start end rc rss=0
	shift 2
	rm -f "$copy"
	cp --sparse=always "$img" "$copy" && truncate -s "$size" "$copy"
	sync
	start=$(date +%s%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$dir/rss" "$bin" -F "$@" "$copy" >"$dir/out" 2>&1
		rc=$?
		rss=$(tail -n 1 "$dir/rss")
	else
		"$bin" -F "$@" "$copy" >"$dir/out" 2>&1
		rc=$?
	fi
	end=$(date +%s%N)
	if [ "$rc" -ne 0 ] || ! grep -q 'Done\|block_count' "$dir/out"; then
		echo "bench: $bin $* failed ($rc): $(tail -n 1 "$dir/out")" >&2
		exit 1
	fi
	if ! "$upfsck" --dry-run -f "$copy" >"$dir/fsck.out" 2>&1 || grep -q '\[Fail\]' "$dir/fsck.out"; then
		echo "bench: $bin $*: the result is not clean for upstream's fsck" >&2
	fi
	echo "$(((end - start) / 1000)) $rss"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# turns NAME SIZE UPSTREAM-ARGS -- OURS-ARGS -- OURS-F-ARGS: BENCH_RUNS turns of the three,
# the first alternating, into $dir/NAME-{ours,ours-f,up}.t
turns() {
	local name=$1 size=$2 i
	local -a up=() mine=() minef=()
	shift 2
	while [ "$1" != -- ]; do up+=("$1"); shift; done
	shift
	while [ "$1" != -- ]; do mine+=("$1"); shift; done
	shift
	minef=("$@")
	: >"$dir/$name-ours.t"
	: >"$dir/$name-ours-f.t"
	: >"$dir/$name-up.t"
	for ((i = 0; i < runs; i++)); do
		if ((i % 2)); then
			run_once "$size" "$upstream" "${up[@]}" >>"$dir/$name-up.t"
			run_once "$size" "$ours" "${minef[@]}" >>"$dir/$name-ours-f.t"
			run_once "$size" "$ours" "${mine[@]}" >>"$dir/$name-ours.t"
		else
			run_once "$size" "$ours" "${mine[@]}" >>"$dir/$name-ours.t"
			run_once "$size" "$ours" "${minef[@]}" >>"$dir/$name-ours-f.t"
			run_once "$size" "$upstream" "${up[@]}" >>"$dir/$name-up.t"
		fi
	done
}

# row LABEL FILE-OURS FILE-UP: median ms of each and their ratio
row() {
	local o u
	o=$(cut -d' ' -f1 "$2" | median)
	u=$(cut -d' ' -f1 "$3" | median)
	printf '%-28s %12.1f %12.1f %8.2f\n' "$1" "$(echo "$o / 1000" | bc -l)" \
		"$(echo "$u / 1000" | bc -l)" "$(echo "$o / $u" | bc -l)"
}

# rss LABEL FILE-OURS FILE-UP: median peak RSS of each and their ratio
rss() {
	local o u
	o=$(cut -d' ' -f2 "$2" | median)
	u=$(cut -d' ' -f2 "$3" | median)
	printf '%-28s %12s %12s %8.2f\n' "$1" "$o" "$u" "$(echo "$o / ($u + 1)" | bc -l)"
}

turns grow 32G -- -- -f
turns shrink 16G -s -t $((12 * 2097152)) -- -s -t $((12 * 2097152)) -- -f -s -t $((12 * 2097152))
printf '%-28s %12s %12s %8s\n' case "ours ms" "upstream ms" ratio
row "grow-16G-32G-${files}" "$dir/grow-ours.t" "$dir/grow-up.t"
row "grow-in-place (-f)" "$dir/grow-ours-f.t" "$dir/grow-up.t"
row "shrink-16G-12G (-s)" "$dir/shrink-ours.t" "$dir/shrink-up.t"
row "shrink-in-place (-f -s)" "$dir/shrink-ours-f.t" "$dir/shrink-up.t"
rss "peak RSS KiB grow" "$dir/grow-ours.t" "$dir/grow-up.t"
rss "peak RSS KiB grow -f" "$dir/grow-ours-f.t" "$dir/grow-up.t"
rss "peak RSS KiB shrink" "$dir/shrink-ours.t" "$dir/shrink-up.t"
rss "peak RSS KiB shrink -f -s" "$dir/shrink-ours-f.t" "$dir/shrink-up.t"
