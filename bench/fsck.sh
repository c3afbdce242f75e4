#!/bin/bash
# Benchmark our fsck.f2fs against upstream's on one populated image.
#
# The image (BENCH_SIZE, default 16G, with -s 128) is made by our mkfs and
# filled by upstream sload.f2fs from a generated tree of BENCH_FILES files
# (default 150000: mostly empty and small files in nested directories, some
# larger ones), then both tools check it with -f, BENCH_RUNS times each,
# alternating.  Reported: median wall time warm (page cache kept) and cold
# (caches dropped before each run, root only), peak RSS, and the ratios
# ours/upstream.  Goals: time <= 0.33, RSS <= 2.  BENCH_IMAGE=PATH keeps the
# populated image there (and reuses it when it exists): sload takes minutes.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${FSCK:-$top/fsck/fsck.f2fs}
mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
upstream=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
sload=${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}
size=${BENCH_SIZE:-16G}
files=${BENCH_FILES:-150000}
runs=${BENCH_RUNS:-5}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-fsck.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

for bin in "$ours" "$mkfs" "$upstream" "$sload"; do
	[ -x "$bin" ] || { echo "bench: $bin is not executable" >&2; exit 2; }
done
if [ ! -x /usr/bin/time ] && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null 2>&1
fi

# A tree of $files files: 100 top directories of subdirectories of 500 files.
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
	ln "$root/d0/big" "$root/d0/big.link"
	ln -s d0/big "$root/big.sym"
}

if [ -n "${BENCH_IMAGE:-}" ] && [ -f "$BENCH_IMAGE" ]; then
	echo "bench: reusing $BENCH_IMAGE"
	cp --sparse=always "$BENCH_IMAGE" "$dir/img" || exit 2
else
	echo "bench: generating $files files and a $size image (-s 128)..."
	make_tree "$dir/tree"
	truncate -s "$size" "$dir/img"
	"$mkfs" -q -f -s 128 "$dir/img" || exit 1
	t0=$(date +%s)
	"$sload" -f "$dir/tree" "$dir/img" >/dev/null 2>&1 || { echo "bench: sload failed" >&2; exit 1; }
	echo "bench: sload took $(($(date +%s) - t0)) s; image uses $(du -h "$dir/img" | cut -f1)"
	rm -rf "$dir/tree"
	[ -n "${BENCH_IMAGE:-}" ] && cp --sparse=always "$dir/img" "$BENCH_IMAGE"
fi

# Sanity: both must call it clean, or the timings compare different work.
"$ours" -f "$dir/img" >"$dir/ours.log" 2>&1 || { echo "bench: our fsck is not clean:"; tail "$dir/ours.log"; exit 1; }
"$upstream" --dry-run -f "$dir/img" >"$dir/up.log" 2>&1 || { echo "bench: upstream fsck is not clean"; exit 1; }

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
}

# run_once BIN [ARGS]: prints "ms rss_kib"
run_once() {
	local start end rss=0
	start=$(date +%s%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$dir/rss" "$@" >/dev/null 2>&1
		rss=$(tail -n 1 "$dir/rss")
	else
		"$@" >/dev/null 2>&1
	fi
	end=$(date +%s%N)
	echo "$(((end - start) / 1000)) $rss"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() { # mode(warm|cold) -> fills files with "us rss" lines per tool
	local mode=$1 i
	: >"$dir/$mode.ours"
	: >"$dir/$mode.up"
	for ((i = 0; i < runs; i++)); do
		if ((i % 2)); then order="up ours"; else order="ours up"; fi
		for who in $order; do
			[ "$mode" = cold ] && drop_caches
			if [ "$who" = ours ]; then
				run_once "$ours" -f "$dir/img" >>"$dir/$mode.ours"
			else
				run_once "$upstream" --dry-run -f "$dir/img" >>"$dir/$mode.up"
			fi
		done
	done
}

"$ours" -f "$dir/img" >/dev/null 2>&1 # warm the cache
measure warm
can_drop=no
[ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/drop_caches ] && can_drop=yes && measure cold

printf '\n%-6s %12s %12s %8s %12s %12s %8s\n' mode "ours ms" "upstr ms" ratio "ours RSS KiB" "upstr RSS" ratio
for mode in warm cold; do
	[ -s "$dir/$mode.ours" ] || continue
	ot=$(cut -d' ' -f1 "$dir/$mode.ours" | median)
	ut=$(cut -d' ' -f1 "$dir/$mode.up" | median)
	orss=$(cut -d' ' -f2 "$dir/$mode.ours" | median)
	urss=$(cut -d' ' -f2 "$dir/$mode.up" | median)
	awk -v m="$mode" -v ot="$ot" -v ut="$ut" -v orss="$orss" -v urss="$urss" 'BEGIN {
		printf "%-6s %12.1f %12.1f %8.3f %12d %12d %8.3f\n", m, ot / 1000, ut / 1000,
			ut ? ot / ut : 0, orss, urss, urss ? orss / urss : 0 }'
done
[ "$can_drop" = yes ] || echo "(cold runs skipped: dropping caches needs root)"
echo "image: $size -s 128, $files files loaded by upstream sload.f2fs; runs: $runs; ratio = ours/upstream (goals: time <= 0.33, RSS <= 2)"
