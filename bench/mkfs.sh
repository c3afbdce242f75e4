#!/bin/bash
# Benchmark our mkfs.f2fs against upstream's on sparse image files.
#
# For every case below, each tool formats a freshly truncated sparse file
# BENCH_RUNS times (the two tools take turns, and which one goes first
# alternates from run to run).  Reported per tool: the median wall time of
# the mkfs process, and the median number of bytes the file system under the
# image really allocated afterwards (st_blocks * 512, what `du -B1` shows;
# not the apparent size, which is the truncated size for both).
#
# Environment:
#   MKFS           our binary        [default: <top>/mkfs/mkfs.f2fs]
#   UPSTREAM_MKFS  upstream binary   [default: /usr/sbin/mkfs.f2fs]
#   BENCH_RUNS     runs per tool and case [default: 5]
#   BENCH_DIR      where the temporary images go [default: $TMPDIR or /tmp]
#                  (needs room for one upstream image, ~130 MB, and must hold
#                  1 TiB sparse files: ext4, xfs, btrfs and tmpfs all do)
#
# Exit status: 0 when every run of both tools succeeded, 1 when a tool
# failed (its output is shown), 2 on a setup problem.
set -u
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${MKFS:-$top/mkfs/mkfs.f2fs}
upstream=${UPSTREAM_MKFS:-/usr/sbin/mkfs.f2fs}
runs=${BENCH_RUNS:-5}
base=${BENCH_DIR:-${TMPDIR:-/tmp}}

# size|mkfs options|note
cases=(
	"1G|-f -q -s 1|-s 1, not -s 128: 128-segment sections need a volume of at least 7936 MiB"
	"64G|-f -q -s 128|"
	"64G|-f -q -s 128 -t 0|no discard: ours punches holes, upstream writes zeros"
	"1T|-f -q -s 128|"
)

die() {
	echo "bench/mkfs.sh: $*" >&2
	exit 2
}

case $runs in
'' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer, not '$runs'" ;;
esac
for bin in "$ours" "$upstream"; do
	[ -x "$bin" ] || die "$bin is not an executable (set MKFS / UPSTREAM_MKFS)"
done
[ -d "$base" ] || die "$base is not a directory (set BENCH_DIR)"
work=$(mktemp -d "$base/mkfs-bench.XXXXXX") || die "cannot make a directory under $base"
trap 'rm -rf "$work"' EXIT

# Median of integers, one per line on stdin; the mean of the middle two for
# an even count.
median() {
	sort -n | awk '{ v[NR] = $1 }
		END {
			if (NR == 0) exit 1
			if (NR % 2) printf "%.0f\n", v[(NR + 1) / 2]
			else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# run WHO SIZE OPTS: format a fresh sparse file, append the elapsed
# nanoseconds and the allocated bytes to $work/WHO.ns and $work/WHO.bytes.
run() {
	local who=$1 size=$2 opts=$3 bin img t0 t1 rc
	bin=$ours
	[ "$who" = upstream ] && bin=$upstream
	img=$work/$who.img
	rm -f "$img"
	truncate -s "$size" "$img" || die "cannot create a $size sparse file in $work"
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # the options are meant to be split
	"$bin" $opts "$img" >"$work/$who.log" 2>&1
	rc=$?
	t1=$(date +%s%N)
	if [ "$rc" -ne 0 ]; then
		echo "bench/mkfs.sh: $who mkfs.f2fs ($bin) failed with status $rc" \
			"on $size with $opts:" >&2
		sed 's/^/  | /' "$work/$who.log" | head -20 >&2
		exit 1
	fi
	echo $((t1 - t0)) >>"$work/$who.ns"
	echo $(($(stat -c '%b * %B' "$img"))) >>"$work/$who.bytes"
	rm -f "$img"
}

echo "mkfs.f2fs benchmark: $runs run(s) per tool and case, images in $work"
echo "  ours:     $ours"
echo "  upstream: $upstream"
echo "  time = median wall ms of the mkfs process; alloc = median allocated bytes of the image"
echo

fmt='%-5s %-22s %10s %10s %7s %12s %12s %8s\n'
# shellcheck disable=SC2059
printf "$fmt" size options "ours ms" "upstr ms" ratio "ours alloc" "upstr alloc" ratio
notes=()
for c in "${cases[@]}"; do
	IFS='|' read -r size opts note <<<"$c"
	rm -f "$work"/*.ns "$work"/*.bytes
	for ((i = 1; i <= runs; i++)); do
		if ((i % 2)); then
			run ours "$size" "$opts"
			run upstream "$size" "$opts"
		else
			run upstream "$size" "$opts"
			run ours "$size" "$opts"
		fi
	done
	o_ns=$(median <"$work/ours.ns")
	u_ns=$(median <"$work/upstream.ns")
	o_b=$(median <"$work/ours.bytes")
	u_b=$(median <"$work/upstream.bytes")
	row=$(awk -v o="$o_ns" -v u="$u_ns" -v ob="$o_b" -v ub="$u_b" 'BEGIN {
		tr = u > 0 ? sprintf("%.3f", o / u) : "n/a"
		br = ub > 0 ? sprintf("%.4f", ob / ub) : (ob > 0 ? "inf" : "1.0000")
		printf "%.1f|%.1f|%s|%s\n", o / 1e6, u / 1e6, tr, br
	}')
	IFS='|' read -r o_ms u_ms t_ratio b_ratio <<<"$row"
	mark=
	if [ -n "$note" ]; then
		notes+=("$note")
		mark="[${#notes[@]}]"
	fi
	# shellcheck disable=SC2059
	printf "$fmt" "$size" "$opts${mark:+ $mark}" "$o_ms" "$u_ms" "$t_ratio" \
		"$o_b" "$u_b" "$b_ratio"
done
echo
echo "ratio = ours / upstream (goal: <= 1.0)"
for ((i = 0; i < ${#notes[@]}; i++)); do
	echo "[$((i + 1))] ${notes[i]}"
done
exit 0
