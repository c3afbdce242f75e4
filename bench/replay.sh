#!/bin/bash
# Benchmark what f2fs_io replay measures, on this machine, with the
# commands printed beside each figure:
#
#   ckpt-storm  checkpoint_merge off vs on, on a UFS-like device model
#               (BENCH_MODEL, default 400 MB/s, 40,000 IOPS, 2 ms flush)
#               and on BENCH_SLOW_MODEL (default 100 MB/s, 20,000 IOPS,
#               2 ms: the same storage under sustained write):
#               thread A's elapsed time, checkpoints requested/issued/
#               merged (seed 001: A 68 s -> 48 s, -29%); with the
#               checkpoint thread at be,3 (the seed's) and rt,3 (6.15+)
#   tiotest     writepages not serialised vs serialised, 32 threads x
#               32 MiB: extents and 512 KiB read requests (seed 004:
#               85,177 -> 2,417 requests), the read pass on the model
#   seqwrite    1536 MiB in 512 KiB writes: -s 1 vs -s 128 with cached
#               section counts, and -s 128 with the per-segment loop
#               (seed 002), no device model
#   write-back  seed 003's two experiments, each alone: dd of 1000 MiB in
#               1 MiB writes, and the extraction of a kernel-like tree
#               (35,000 files, ~400 MiB), with write-back taking inodes
#               round robin (--writeback fifo, the seed's "no moving
#               expire") vs eldest first (expire), on a disk with a moving
#               head (BENCH_DISK_MODEL, default 75 MB/s; BENCH_DISK_SEEK,
#               default 1,18,7200: seeks of 1-18 ms at 7200 rpm; 500 us
#               merge window): the threads' times beside the seed's
#   fio         seqwrite without a model against "fio --rw=write
#               --bs=512k --size=1536M --end_fsync=1" on a file beside the
#               image, in the same run: our share of fio's bandwidth
#
# Every case runs BENCH_RUNS times (default 3); the median is printed.
# The images are BENCH_IMAGE_GB (default 16) GiB sparse files in BENCH_DIR.
# BENCH_CASES picks cases (default all: ckpt-storm tiotest writeback
# seqwrite; seqwrite includes fio).
# BENCH_ARGS adds options to every replay (e.g. "--count 50 --file-size 16M
# --threads 4" for a quick check of the script; the figures are then not
# the seeds').
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
io=${F2FS_IO:-$top/tools/f2fs_io/f2fs_io}
export F2FS_REPLAY_MKFS=${MKFS:-$top/mkfs/mkfs.f2fs}
runs=${BENCH_RUNS:-3}
model=${BENCH_MODEL:-400,40000,2}
size_gb=${BENCH_IMAGE_GB:-16}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-replay.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
img=$dir/replay.img

for bin in "$io" "$F2FS_REPLAY_MKFS"; do
	[ -x "$bin" ] || { echo "bench: $bin is not executable" >&2; exit 2; }
done
command -v fio >/dev/null || { [ "$(id -u)" -eq 0 ] &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fio >/dev/null 2>&1; }

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# run one replay --json with the given arguments and print the fields
# named by the python expression list in $1 (d = the document)
replay_fields() {
	local expr=$1 out
	shift
	rm -f "$img" && truncate -s "${size_gb}G" "$img"
	# shellcheck disable=SC2086
	out=$("$io" replay --no-progress --json ${BENCH_ARGS:-} "$@" "$img") || {
		echo "bench: f2fs_io replay $* failed" >&2
		return 1
	}
	echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); print(*($expr))"
}

# median of each of the N fields over the runs: prints N numbers
median_fields() {
	local n=$1 expr=$2 i k file=$dir/fields
	shift 2
	: >"$file"
	for i in $(seq 1 "$runs"); do
		replay_fields "$expr" "$@" >>"$file" || return 1
	done
	for k in $(seq 1 "$n"); do
		awk -v k="$k" '{ print $k }' "$file" | median
	done | tr '\n' ' '
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }'; }

echo "bench/replay.sh: $(date -u '+%F %T') UTC, $(nproc) CPUs, runs $runs, model $model"
echo

# ---- ckpt-storm ----
bench_ckpt_storm() {
	echo "## ckpt-storm: checkpoint_merge off vs on"
	echo "| model | ckpt thread | A off (s) | A on (s) | on/off | cp requested on | issued on | merged on |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	for m in "$model" "${BENCH_SLOW_MODEL:-100,20000,2}"; do
		for prio in be,3 rt,3; do
			cmd=(--mkfs "-s 128" --device-model "$m" --ckpt-ioprio "$prio"
				--compare "--no-checkpoint-merge" "--checkpoint-merge" ckpt-storm)
			read -r aoff aon req iss mer < <(median_fields 5 \
				'[t["elapsed_s"] for t in d["a"]["threads"] if t["name"] == "A"] + [t["elapsed_s"] for t in d["b"]["threads"] if t["name"] == "A"] + [d["b"]["checkpoints"][k] for k in ("requested", "issued", "merged")]' \
				"${cmd[@]}")
			echo "| $m | $prio | $aoff | $aon | $(ratio "$aoff" "$aon") | $req | $iss | $mer |"
		done
	done
	echo "command: f2fs_io replay --mkfs \"-s 128\" --device-model MODEL --ckpt-ioprio PRIO --compare \"--no-checkpoint-merge\" \"--checkpoint-merge\" ckpt-storm IMG"
	echo
}

# ---- tiotest ----
# The seed's fragmentation needs writepages callers running at once: with
# --dirty-throttle writeback each writer is one; with 6.1's sleeping writers
# only the flusher writes back and serialising changes little.
bench_tiotest() {
	for throttle in writeback sleep; do
		echo "## tiotest: writepages not serialised vs serialised (32 threads x 32 MiB, model $model, --dirty-throttle $throttle)"
		read -r ext0 ext1 req0 req1 rd0 rd1 < <(median_fields 6 \
			'[d[k]["files"]["extents"] for k in ("a", "b")] + [d[k]["files"]["read_requests_512k"] for k in ("a", "b")] + [d[k]["read_pass"]["mbps"] for k in ("a", "b")]' \
			--mkfs "-s 128" --device-model "$model" --dirty-throttle "$throttle" \
			--compare "--no-serialize-writepages" "--serialize-writepages" tiotest)
		echo "| metric | not serialised | serialised | ratio |"
		echo "| --- | --- | --- | --- |"
		echo "| extents | $ext0 | $ext1 | $(ratio "$ext1" "$ext0")x fewer |"
		echo "| read requests at 512 KiB | $req0 | $req1 | $(ratio "$req1" "$req0")x fewer |"
		echo "| read pass MB/s | $rd0 | $rd1 | $(ratio "$rd0" "$rd1") |"
		echo "command: f2fs_io replay --mkfs \"-s 128\" --device-model $model --dirty-throttle $throttle --compare \"--no-serialize-writepages\" \"--serialize-writepages\" tiotest IMG"
		echo
	done
}

# ---- write-back order (seed 003) ----
# The seed's kernel defaults (dirty_expire 30 s, background 10% and limit
# 20% of memory); it does not give its machine's memory: 2 GiB is taken,
# 200 and 400 MiB.  tar's CPU per operation (bzip2 and the system calls:
# the seed's 12.5 s user and 4 s system over 35,000 files and ~80,000
# writes) is --op-cpu-us 150,250.
bench_writeback() {
	disk=${BENCH_DISK_MODEL:-75,0,0}
	seek=${BENCH_DISK_SEEK:-1,18,7200}
	wb_common=(--mkfs "-s 128" --device-model "$disk" --device-seek "$seek" --merge-window 500
		--dirty-expire 30000 --dirty-background 200M --dirty-limit 400M)
	# the threads' times, then the engine's record of why: seeks, seek
	# time, the flusher's requests, checkpoints (the node inode's)
	wb_fields='[t["elapsed_s"] for k in ("a", "b") for t in d[k]["threads"]] + [d[k]["head"][f] for f in ("seeks", "seek_s") for k in ("a", "b")] + [c["writes"] for k in ("a", "b") for c in d[k]["io_classes"] if c["class"] == "flusher"] + [d[k]["checkpoints"]["issued"] for k in ("a", "b")]'
	echo "## write-back order (seed 003): round robin (fifo) vs eldest first (expire), each workload alone"
	echo "| workload | fifo (s) | expire (s) | expire/fifo | seeks fifo / expire | seek time fifo / expire (s) | flusher requests fifo / expire | checkpoints fifo / expire | seed, no moving expire -> moving expire |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for w in dd untar; do
		extra=()
		[ "$w" = untar ] && extra=(--op-cpu-us 150,250)
		read -r tf te sf se kf ke rf re cf ce < <(median_fields 10 "$wb_fields" "${wb_common[@]}" "${extra[@]}" \
			--compare "--writeback fifo" "--writeback expire" "$w")
		case $w in
		dd) seed="XFS 14.44 -> 13.42 s (0.929); ext4 20.60 -> 19.23 s (0.933)" ;;
		untar) seed="XFS 28.86 -> 26.77 s (0.927); ext4 18.71 -> 16.88 s (0.902)" ;;
		esac
		echo "| $w | $tf | $te | $(ratio "$tf" "$te") | $sf / $se | $kf / $ke | $rf / $re | $cf / $ce | $seed |"
	done
	echo "command: f2fs_io replay ${wb_common[*]} [--op-cpu-us 150,250] --compare \"--writeback fifo\" \"--writeback expire\" dd|untar IMG"
	echo
}

# ---- seqwrite, and fio on the same file system ----
# The cases take turns, each run starting one case later, so that the
# host's page cache and its write-back of the previous case's file weigh
# on each case alike (run in blocks, fio's figure moved by 40% with what
# ran before it).
bench_seqwrite() {
	seq_mbps() { replay_fields '[d["run"]["written"]["write_mbps"]]' "$@" seqwrite; }
	fio_mbps() {
		rm -f "$dir/fio.img"
		fio --name=seq --filename="$dir/fio.img" --rw=write --bs=512k --size=1536M \
			--end_fsync=1 --output-format=json 2>/dev/null |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["write"]["bw_bytes"] / 1e6)'
		rm -f "$dir/fio.img"
	}
	have_fio=$(command -v fio)
	for c in s1 s128 loop fio; do : >"$dir/$c"; done
	seq_case() {
		case $1 in
		s1) seq_mbps --mkfs "-s 1" ;;
		s128) seq_mbps --mkfs "-s 128" ;;
		loop) seq_mbps --mkfs "-s 128" --section-counts loop ;;
		fio) [ -z "$have_fio" ] || fio_mbps ;;
		esac
	}
	cases=(s1 s128 loop fio)
	for i in $(seq 0 $((runs - 1))); do
		for k in 0 1 2 3; do
			c=${cases[$(((i + k) % 4))]}
			seq_case "$c" >>"$dir/$c" || exit 1
		done
	done
	rm -f "$img"
	s1=$(median <"$dir/s1")
	s128=$(median <"$dir/s128")
	loop=$(median <"$dir/loop")
	echo "## seqwrite: 1536 MiB in 512 KiB writes, no device model"
	echo "| case | MB/s | vs -s 1 |"
	echo "| --- | --- | --- |"
	echo "| -s 1, cached | $s1 | 1.000 |"
	echo "| -s 128, cached | $s128 | $(ratio "$s1" "$s128") |"
	echo "| -s 128, loop | $loop | $(ratio "$s1" "$loop") |"
	echo "command: f2fs_io replay --mkfs \"-s N\" [--section-counts loop] seqwrite IMG"
	echo
	echo "## seqwrite against fio on the same file system"
	if [ -n "$have_fio" ]; then
		fiobw=$(median <"$dir/fio")
		echo "| ours MB/s | fio MB/s | ours/fio |"
		echo "| --- | --- | --- |"
		echo "| $s128 | $fiobw | $(ratio "$fiobw" "$s128") |"
		echo "command: fio --name=seq --filename=DIR/fio.img --rw=write --bs=512k --size=1536M --end_fsync=1"
	else
		echo "fio is not installed: skipped"
	fi
}

for case in ${BENCH_CASES:-ckpt-storm tiotest writeback seqwrite}; do
	case $case in
	ckpt-storm) bench_ckpt_storm ;;
	tiotest) bench_tiotest ;;
	writeback) bench_writeback ;;
	seqwrite) bench_seqwrite ;;
	*)
		echo "bench: unknown case $case (ckpt-storm, tiotest, writeback, seqwrite)" >&2
		exit 2
		;;
	esac
done
