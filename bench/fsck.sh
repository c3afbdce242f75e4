#!/bin/bash
# Benchmark our fsck.f2fs against newest upstream's on the same images, in
# the same run.  Cases (BENCH_CASES, default all of them):
#
#   scale-1T scale-4T scale-15T  empty images made by our mkfs with -s 512
#                                (sparse files): the cost must follow the
#                                metadata in use, not the device size
#   files-60k                    16G -s 128, 60,000 files
#   files-250k-csum              16G -s 128 with extra_attr,inode_checksum,
#                                250,000 files
#
# The file trees are generated (mostly empty and small files in nested
# directories, some larger ones) and loaded by upstream sload.f2fs.  Each
# tool checks each image with -f, BENCH_RUNS times, alternating.  Reported
# per case: median wall time warm (page cache kept) and cold (caches dropped
# before each run, root only), peak RSS, and the ratios ours/upstream.
#
# Upstream is newest upstream built by bench/build-upstream.sh into
# UPSTREAM_DIR (default ../upstream-f2fs-tools beside the repository);
# without it Debian's /usr/sbin tools (1.15) are used and the header says so.
# BENCH_IMAGE_DIR=DIR keeps the populated images there and reuses them
# (sload of 250,000 files takes minutes).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${FSCK:-$top/fsck/fsck.f2fs}
mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
updir=${UPSTREAM_DIR:-$(dirname "$top")/upstream-f2fs-tools}
if [ -x "$updir/fsck/fsck.f2fs" ]; then
	upstream=${UPSTREAM_FSCK:-$updir/fsck/fsck.f2fs}
	sload=${UPSTREAM_SLOAD:-$updir/fsck/sload.f2fs}
	upname="newest upstream ($updir)"
else
	upstream=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
	sload=${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}
	upname="upstream $upstream (Debian's, not newest: run bench/build-upstream.sh)"
fi
cases=${BENCH_CASES:-scale-1T scale-4T scale-15T files-60k files-250k-csum}
runs=${BENCH_RUNS:-5}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-fsck.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

for bin in "$ours" "$mkfs" "$upstream" "$sload"; do
	[ -x "$bin" ] || { echo "bench: $bin is not executable" >&2; exit 2; }
done
if [ ! -x /usr/bin/time ] && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null 2>&1
fi
echo "bench: ours $ours; upstream: $upname"

# A tree of FILES files: top directories of ten subdirectories of 500 files.
make_tree() {
	local root=$1 files=$2 n=0 d s
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

# make_image CASE IMG: build the image of a case
make_image() {
	local name=$1 img=$2 files opts t0
	case $name in
	scale-*)
		truncate -s "${name#scale-}" "$img" && "$mkfs" -q -f -s 512 "$img"
		return
		;;
	files-60k) files=60000 opts= ;;
	files-250k-csum) files=250000 opts="-O extra_attr,inode_checksum" ;;
	*) echo "bench: unknown case $name" >&2; return 2 ;;
	esac
	if [ -n "${BENCH_IMAGE_DIR:-}" ] && [ -f "$BENCH_IMAGE_DIR/$name.img" ]; then
		cp --sparse=always "$BENCH_IMAGE_DIR/$name.img" "$img"
		return
	fi
	echo "bench: $name: generating $files files in a 16G -s 128 image..."
	rm -rf "$dir/tree"
	make_tree "$dir/tree" "$files"
	truncate -s 16G "$img"
	# shellcheck disable=SC2086
	"$mkfs" -q -f -s 128 $opts "$img" || return 1
	t0=$(date +%s)
	"$sload" -f "$dir/tree" "$img" >/dev/null 2>&1 || { echo "bench: sload failed" >&2; return 1; }
	echo "bench: $name: sload took $(($(date +%s) - t0)) s; image uses $(du -h "$img" | cut -f1)"
	rm -rf "$dir/tree"
	if [ -n "${BENCH_IMAGE_DIR:-}" ]; then
		mkdir -p "$BENCH_IMAGE_DIR" && cp --sparse=always "$img" "$BENCH_IMAGE_DIR/$name.img"
	fi
}

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

measure() { # MODE IMG: fills $dir/MODE.ours and .up with "us rss" lines
	local mode=$1 img=$2 i order who
	: >"$dir/$mode.ours"
	: >"$dir/$mode.up"
	for ((i = 0; i < runs; i++)); do
		if ((i % 2)); then order="up ours"; else order="ours up"; fi
		for who in $order; do
			[ "$mode" = cold ] && drop_caches
			if [ "$who" = ours ]; then
				run_once "$ours" -f "$img" >>"$dir/$mode.ours"
			else
				run_once "$upstream" --dry-run -f "$img" >>"$dir/$mode.up"
			fi
		done
	done
}

report() { # CASE
	local mode ot ut orss urss
	for mode in warm cold; do
		[ -s "$dir/$mode.ours" ] || continue
		ot=$(cut -d' ' -f1 "$dir/$mode.ours" | median)
		ut=$(cut -d' ' -f1 "$dir/$mode.up" | median)
		orss=$(cut -d' ' -f2 "$dir/$mode.ours" | median)
		urss=$(cut -d' ' -f2 "$dir/$mode.up" | median)
		awk -v c="$1" -v m="$mode" -v ot="$ot" -v ut="$ut" -v orss="$orss" -v urss="$urss" 'BEGIN {
			printf "%-16s %-5s %10.1f %10.1f %7.3f %10d %10d %7.3f\n", c, m, ot / 1000,
				ut / 1000, ut ? ot / ut : 0, orss, urss, urss ? orss / urss : 0 }'
	done
}

can_drop=no
[ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/drop_caches ] && can_drop=yes
: >"$dir/table"
for c in $cases; do
	img=$dir/$c.img
	make_image "$c" "$img" || exit 1
	# both must call it clean, or the timings compare different work
	"$ours" -f "$img" >"$dir/ours.log" 2>&1 || { echo "bench: $c: our fsck is not clean:"; tail "$dir/ours.log"; exit 1; }
	"$upstream" --dry-run -f "$img" >"$dir/up.log" 2>&1 || { echo "bench: $c: upstream fsck is not clean"; tail "$dir/up.log"; exit 1; }
	measure warm "$img"
	: >"$dir/cold.ours"
	[ "$can_drop" = yes ] && measure cold "$img"
	report "$c" >>"$dir/table"
	rm -f "$img"
done
printf '\n%-16s %-5s %10s %10s %7s %10s %10s %7s\n' case mode "ours ms" "upstr ms" ratio "ours KiB" "upstr KiB" ratio
cat "$dir/table"
[ "$can_drop" = yes ] || echo "(cold runs skipped: dropping caches needs root)"
echo "runs: $runs per tool, median; RSS = peak; ratio = ours/upstream; upstream: $upname"
