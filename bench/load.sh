#!/bin/bash
# Benchmark our sload.f2fs against newest upstream's on the same tree, the
# same image size and options, in the same run.
#
#   tree   a generated tree of BENCH_FILES files (default 50,000) in nested
#          directories, of mixed sizes adding up to BENCH_TREE_MB (default
#          2,048 MiB): mostly small files, some of 64 KiB..1 MiB, a few
#          of 64..256 MiB
#   image  16 GiB -s 128, made by our mkfs before each run
#
# Each loader runs BENCH_RUNS times (default 3), alternating, on a fresh
# image; reported: median wall time, MB/s of file data, peak RSS, and the
# ratio ours/upstream.  Then one 2 GiB file: our sload against
# "fio --rw=write --bs=512k --direct=1" writing the same 2 GiB to a file on
# the same file system as the image (the bandwidth the disk gives), and the
# ratio.  Both images are checked with both fscks at the end.  Between the
# two, "sload -c -r" of /usr/include (compress and release) on a 1 GiB
# image, ours and upstream's alternating, with the valid blocks each left.
#
# Android sparse images first: "sload -S" of BENCH_SPARSE_SRC (default
# /usr/include) into a 2 GiB sparse image our mkfs -S made, ours against
# newest upstream built with libsparse (UPSTREAM_SPARSE, default
# ../upstream-sparse; the case is skipped without it), BENCH_RUNS times
# each, alternating; both results expanded with simg2img and checked with
# both fscks.  BENCH_SPARSE_ONLY=1 stops after it.
#
# Upstream is newest upstream built by bench/build-upstream.sh into
# UPSTREAM_DIR (default ../upstream-f2fs-tools beside the repository);
# without it Debian's 1.15 is used and the header says so.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${SLOAD:-$top/sload/sload.f2fs}
mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
fsck=${FSCK:-$top/fsck/fsck.f2fs}
updir=${UPSTREAM_DIR:-$(dirname "$top")/upstream-f2fs-tools}
if [ -x "$updir/fsck/sload.f2fs" ]; then
	upstream=$updir/fsck/sload.f2fs
	upfsck=$updir/fsck/fsck.f2fs
	upname="newest upstream ($updir)"
else
	upstream=/usr/sbin/sload.f2fs
	upfsck=/usr/sbin/fsck.f2fs
	upname="Debian's $upstream (1.15, not newest: run bench/build-upstream.sh)"
fi
files=${BENCH_FILES:-50000}
tree_mb=${BENCH_TREE_MB:-2048}
runs=${BENCH_RUNS:-3}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-load.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT

for bin in "$ours" "$mkfs" "$upstream"; do
	[ -x "$bin" ] || { echo "bench: $bin is not executable" >&2; exit 2; }
done
if [ "$(id -u)" -eq 0 ]; then
	for p in time fio; do
		command -v "$p" >/dev/null || [ -x /usr/bin/$p ] ||
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null 2>&1
	done
fi
echo "bench: ours $ours; upstream: $upname"

# make_tree ROOT: $files files, $tree_mb MiB in all
make_tree() {
	local root=$1 big_mb=$((tree_mb * 3 / 4)) mid_mb=$((tree_mb / 8)) n=0 d s i
	mkdir -p "$root" || return 1
	# a few big files carry three quarters of the bytes
	for ((i = 0; big_mb > 0; i++)); do
		s=$((big_mb < 256 ? big_mb : 64 + i * 64 % 192))
		[ "$s" -gt "$big_mb" ] && s=$big_mb
		head -c $((s << 20)) /dev/urandom >"$root/big$i" || return 1
		big_mb=$((big_mb - s))
	done
	mkdir -p "$root/mid"
	for ((i = 0; mid_mb > 0; i++)); do
		s=$((64 + i * 97 % 960))
		head -c $((s << 10)) /dev/urandom >"$root/mid/m$i" || return 1
		mid_mb=$((mid_mb - (s >> 10) - 1))
		n=$((n + 1))
	done
	# the rest: small files (the remaining eighth of the bytes) in nested directories
	local small=$(((tree_mb / 8 << 20) / (files - n > 0 ? files - n : 1)))
	head -c $((small * 2 + 1)) /dev/urandom >"$dir/chunk"
	for ((d = 0; n < files; d++)); do
		for ((s = 0; s < 10 && n < files; s++)); do
			mkdir -p "$root/d$d/s$s"
			for ((i = 0; i < 500 && n < files; i++)); do
				head -c $(((i * 7919) % (small * 2 + 1))) "$dir/chunk" >"$root/d$d/s$s/f$i"
				n=$((n + 1))
			done
		done
	done
}

# run_one LOADER SRC IMG: load once; prints "seconds rss_kib"
run_one() {
	local bin=$1 src=$2 img=$3
	rm -f "$img" && truncate -s 16G "$img" && "$mkfs" -q -f -s 128 "$img" || return 1
	sync
	/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" -f "$src" "$img" >/dev/null 2>"$dir/err" ||
		{ echo "bench: $bin failed: $(tail -n 1 "$dir/err")" >&2; return 1; }
	sync
	cat "$dir/time"
}

median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# run_sparse LOADER SRC IMG: sload -S once into a copy of $dir/base.simg; prints "seconds rss_kib"
run_sparse() {
	local bin=$1 src=$2 img=$3
	cp "$dir/base.simg" "$img" && sync || return 1
	/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" -S -f "$src" "$img" >/dev/null 2>"$dir/err" ||
		{ echo "bench: $bin -S failed: $(tail -n 1 "$dir/err")" >&2; return 1; }
	cat "$dir/time"
}

upsparse=${UPSTREAM_SPARSE:-$(dirname "$top")/upstream-sparse}/fsck/sload.f2fs
sparse_src=${BENCH_SPARSE_SRC:-/usr/include}
if [ -x "$upsparse" ] && command -v simg2img >/dev/null &&
	"$mkfs" -q -S $((2 << 30)) "$dir/base.simg" 2>/dev/null; then
	sbytes=$(du -sb --apparent-size "$sparse_src" | cut -f1)
	echo "bench: sload -S of $sparse_src ($((sbytes >> 20)) MiB) into a 2 GiB sparse image; upstream $upsparse"
	: >"$dir/sparse-ours.t"
	: >"$dir/sparse-up.t"
	for ((r = 0; r < runs; r++)); do
		run_sparse "$ours" "$sparse_src" "$dir/ours.simg" >>"$dir/sparse-ours.t" || exit 1
		run_sparse "$upsparse" "$sparse_src" "$dir/up.simg" >>"$dir/sparse-up.t" || exit 1
	done
	for side in ours up; do
		simg2img "$dir/$side.simg" "$dir/$side.raw" || echo "bench: simg2img fails on $side's image" >&2
		"$fsck" "$dir/$side.raw" >/dev/null 2>&1 || echo "bench: our fsck finds $side's sparse image not clean" >&2
		"$upfsck" --dry-run "$dir/$side.raw" >/dev/null 2>&1 ||
			echo "bench: upstream fsck finds $side's sparse image not clean" >&2
		echo "bench: $side's sparse file: $(stat -c %s "$dir/$side.simg") bytes"
		rm -f "$dir/$side.raw"
	done
	t_ours=$(cut -d' ' -f1 "$dir/sparse-ours.t" | median)
	t_up=$(cut -d' ' -f1 "$dir/sparse-up.t" | median)
	m_ours=$(cut -d' ' -f2 "$dir/sparse-ours.t" | median)
	m_up=$(cut -d' ' -f2 "$dir/sparse-up.t" | median)
	echo
	echo "| case | ours s | upstream s | time ratio | ours RSS KiB | upstream RSS KiB |"
	echo "| --- | --- | --- | --- | --- | --- |"
	awk -v to="$t_ours" -v tu="$t_up" -v mo="$m_ours" -v mu="$m_up" -v s="$sparse_src" \
		'BEGIN { printf "| sload -S %s | %.2f | %.2f | %.3f | %d | %d |\n", s, to, tu, to / tu, mo, mu }'
	echo
	rm -f "$dir/base.simg" "$dir/ours.simg" "$dir/up.simg"
else
	echo "bench: sload -S case skipped: no $upsparse, no simg2img, or our mkfs has no -S"
fi
[ "${BENCH_SPARSE_ONLY:-0}" = 1 ] && exit 0

echo "bench: generating $files files, $tree_mb MiB ..."
make_tree "$dir/tree" || { echo "bench: cannot make the tree" >&2; exit 2; }
bytes=$(du -sb --apparent-size "$dir/tree" | cut -f1)
nfiles=$(find "$dir/tree" -type f | wc -l)
echo "bench: tree of $nfiles files, $((bytes >> 20)) MiB; image 16 GiB -s 128; $runs runs each"

: >"$dir/ours.t"
: >"$dir/up.t"
for ((r = 0; r < runs; r++)); do
	run_one "$ours" "$dir/tree" "$dir/ours.img" >>"$dir/ours.t" || exit 1
	run_one "$upstream" "$dir/tree" "$dir/up.img" >>"$dir/up.t" || exit 1
done
for side in ours up; do
	img=$dir/$side.img
	"$fsck" "$img" >/dev/null 2>&1 || echo "bench: our fsck finds $side's image not clean" >&2
	"$upfsck" --dry-run "$img" >/dev/null 2>&1 ||
		"$upfsck" -f "$img" >/dev/null 2>&1 || echo "bench: upstream fsck finds $side's image not clean" >&2
done
t_ours=$(cut -d' ' -f1 "$dir/ours.t" | median)
t_up=$(cut -d' ' -f1 "$dir/up.t" | median)
m_ours=$(cut -d' ' -f2 "$dir/ours.t" | median)
m_up=$(cut -d' ' -f2 "$dir/up.t" | median)
echo
echo "| case | ours s | upstream s | time ratio | ours MB/s | upstream MB/s | ours RSS KiB | upstream RSS KiB |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
awk -v to="$t_ours" -v tu="$t_up" -v mo="$m_ours" -v mu="$m_up" -v b="$bytes" -v n="$nfiles" \
	'BEGIN { printf "| %d files, %d MiB | %.2f | %.2f | %.3f | %.0f | %.0f | %d | %d |\n",
		n, b / 1048576, to, tu, to / tu, b / 1e6 / to, b / 1e6 / tu, mo, mu }'
rm -rf "$dir/tree" "$dir/ours.img" "$dir/up.img"

# sload -c -r of /usr/include (compress, then release the saved blocks):
# ours against upstream's, 1 GiB images with the compression feature.
run_compressed() {
	local bin=$1 img=$2
	rm -f "$img" && truncate -s 1G "$img" && "$mkfs" -q -f -O extra_attr,compression "$img" || return 1
	sync
	/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" -c -r -f /usr/include "$img" >/dev/null 2>"$dir/err" ||
		{ echo "bench: $bin -c -r failed: $(tail -n 1 "$dir/err")" >&2; return 1; }
	sync
	cat "$dir/time"
}
if [ -d /usr/include ]; then
	: >"$dir/cr-ours.t"
	: >"$dir/cr-up.t"
	for ((r = 0; r < runs; r++)); do
		run_compressed "$ours" "$dir/ours.img" >>"$dir/cr-ours.t" || exit 1
		run_compressed "$upstream" "$dir/up.img" >>"$dir/cr-up.t" || exit 1
	done
	vb() { "$top/dump/dump.f2fs" -d 1 "$1" 2>/dev/null | awk '/valid_block_count/ { print "0x" $3; exit }'; }
	awk -v to="$(cut -d' ' -f1 "$dir/cr-ours.t" | median)" -v tu="$(cut -d' ' -f1 "$dir/cr-up.t" | median)" \
		-v bo="$(vb "$dir/ours.img")" -v bu="$(vb "$dir/up.img")" -v b="$(du -sb --apparent-size /usr/include | cut -f1)" \
		'BEGIN { printf "\n| sload -c -r /usr/include (%d MiB) | ours %.2f s | upstream %.2f s | time ratio %.3f | valid blocks ours %s, upstream %s |\n",
			b / 1048576, to, tu, to / tu, bo, bu }'
	rm -f "$dir/ours.img" "$dir/up.img"
fi

# One 2 GiB file: our sload against fio's sequential write bandwidth.
mkdir -p "$dir/one" && head -c $((2048 << 20)) /dev/urandom >"$dir/one/file"
t_one=$(run_one "$ours" "$dir/one" "$dir/ours.img" | cut -d' ' -f1) || exit 1
rm -f "$dir/ours.img"
if command -v fio >/dev/null; then
	fio --name=seq --filename="$dir/fio.dat" --rw=write --bs=512k --size=2g --direct=1 \
		--output-format=terse --terse-version=3 >"$dir/fio.out" 2>/dev/null
	# terse v3: field 7 is the write bandwidth in KiB/s... of the read part; write is field 48
	fio_kbs=$(awk -F';' '{ print $48 }' "$dir/fio.out")
	awk -v t="$t_one" -v k="$fio_kbs" 'BEGIN {
		ours = 2048 * 1048576 / 1e6 / t; fio = k * 1024 / 1e6
		printf "\n| one 2 GiB file | ours %.0f MB/s (%.2f s) | fio --rw=write --bs=512k --direct=1 %.0f MB/s | ratio %.2f |\n",
			ours, t, fio, ours / fio }'
else
	echo "bench: fio not available: one 2 GiB file took ${t_one} s with our sload"
fi
