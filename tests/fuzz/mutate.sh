#!/bin/bash
# CI-sized mutation run against fsck.f2fs and dump.f2fs built with ASan/UBSan.
#
# For each image family (our mkfs with a few feature sets and sizes, plus one
# populated by upstream sload.f2fs so the tree walk has work) the script
# makes the image once, then FUZZ_ITERS times: copies it (sparse), writes
# random bytes or small integers into its metadata (superblocks, checkpoint
# packs, SIT/NAT first blocks, the SSA blocks of the open logs, the node and
# first data blocks of the open logs), and runs fsck.f2fs -f (which repairs,
# as upstream's -f does; every third run -n, which only checks; every 11th
# -f --rebuild, which rebuilds the tables from a scan first) under
# timeout, then FUZZ_EXTRA more commands on the same image, taken in turn
# from fsck.f2fs -t and dump.f2fs's modes (-d 3, -i, -n, -s, -a, -b, -M,
# --sections, --json -i, -r -N).  fsck must exit 0, 1, 4 or 8, dump 0 or 1
# (and print valid JSON when it exits 0 with --json); nothing may print a
# sanitizer report or hang.  Every extra command must exit 0 on the
# unmutated image first.  Then it builds the standalone drivers of
# tests/fuzz/fuzz_parsers.c and fuzz_read.c (each with fuzz_driver.c) with
# gcc and ASan against the ASan libf2fs.a and runs them.  Last, a short
# differential run (differential.sh) compares our verdicts with upstream's.
#
# Output: one PASS/FAIL/SKIP line per family and one per driver (see
# tests/cli/lib.sh), "# ..." lines with counts; exit 1 when something failed.
# A failing image is kept under $FUZZ_CRASH_DIR with the command that
# reproduces it.
#
# Environment:
#   FSCK               fsck under test (default <repo>/build-asan/src/fsck/fsck.f2fs)
#   DUMP               dump under test (default: dump/dump.f2fs beside FSCK's tree)
#   MKFS               our mkfs.f2fs (default <repo>/mkfs/mkfs.f2fs)
#   SLOAD              upstream sload.f2fs (default /usr/sbin/sload.f2fs)
#   FUZZ_ITERS         mutations per family (default 300)
#   FUZZ_EXTRA         fsck -t / dump commands per mutation (default 2, 0: fsck -f only)
#   FUZZ_DRIVER_ITERS  inputs for the parser driver (default 2000, 0 skips)
#   FUZZ_READ_ITERS    inputs for the read-layer driver (default 2000, 0 skips)
#   FUZZ_TRACE_ITERS   inputs for the trace-parser driver (default 20000)
#   FUZZ_UNDO_ITERS    damaged undo journals for the journal reader (default 3000)
#   FUZZ_SEED          seed (default 1); the same seed gives the same images
#   FUZZ_TIMEOUT       seconds per command (default 20)
#   FUZZ_CRASH_DIR     where failures are kept (default /tmp/fuzz-crashes)
#   FUZZ_FAMILIES      space-separated subset of the family names
#   FUZZ_DIFF_ITERS    mutations for differential.sh (default 150, 0 skips); INJECT
#                      (default: inject/inject.f2fs beside FSCK's tree) makes them
set -u
# shellcheck source=../cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"

FSCK=${FSCK:-$TOP/build-asan/src/fsck/fsck.f2fs}
DUMP=${DUMP:-$(dirname "$FSCK")/../dump/dump.f2fs}
SLOAD=${SLOAD:-/usr/sbin/sload.f2fs}
ITERS=${FUZZ_ITERS:-300}
EXTRA=${FUZZ_EXTRA:-2}
DRIVER_ITERS=${FUZZ_DRIVER_ITERS:-2000}
READ_ITERS=${FUZZ_READ_ITERS:-2000}
SEED=${FUZZ_SEED:-1}
TMO=${FUZZ_TIMEOUT:-20}
CRASH_DIR=${FUZZ_CRASH_DIR:-/tmp/fuzz-crashes}
FAMILIES=${FUZZ_FAMILIES:-default-64m features-128m large-section-256m heap-i-96m sload-64m}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

setup_workdir
require_mkfs
for b in "$FSCK" "$DUMP"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (run scripts/build.sh --asan first)"
		finish
	fi
done
HAVE_PY=0
command -v python3 >/dev/null && HAVE_PY=1

# --- reading and writing the image ---------------------------------------

# le32 IMG BYTE_OFFSET: an unsigned 32-bit little-endian value.
le32() {
	od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '
}

le16() {
	od -An -tu2 -j "$2" -N 2 "$1" | tr -d ' '
}

# put IMG BYTE_OFFSET VALUE NBYTES: store VALUE little-endian.
put() {
	local img=$1 off=$2 v=$3 n=$4 i esc=''
	for ((i = 0; i < n; i++)); do
		esc+=$(printf '\\x%02x' $(((v >> (8 * i)) & 255)))
	done
	# shellcheck disable=SC2059
	printf "$esc" | dd of="$img" bs=1 seek="$off" conv=notrunc status=none
}

# rnd N: set R to a number below N from bash's seeded generator (30 bits).
# Not a function returning on stdout: a $(...) subshell would reseed RANDOM.
rnd() {
	R=$((((RANDOM << 15) | RANDOM) % $1))
}

# The metadata blocks of IMG worth damaging, one "CLASS BLKADDR" per line.
# Fields are read from superblock 0 and checkpoint pack 0 with od.
targets() {
	local img=$1 sb=1024 cp_blk sit nat ssa main sit_segs nat_segs cp total b i segno blkoff
	cp_blk=$(le32 "$img" $((sb + 76)))
	sit=$(le32 "$img" $((sb + 80)))
	nat=$(le32 "$img" $((sb + 84)))
	ssa=$(le32 "$img" $((sb + 88)))
	main=$(le32 "$img" $((sb + 92)))
	sit_segs=$(le32 "$img" $((sb + 56)))
	nat_segs=$(le32 "$img" $((sb + 60)))
	echo "sb 0"
	echo "sb 1"
	for cp in "$cp_blk" $((cp_blk + 512)); do
		total=$(le32 "$img" $((cp * 4096 + 132)))
		[ "$total" -ge 2 ] && [ "$total" -le 512 ] || total=2
		for ((b = 0; b < total && b < 12; b++)); do
			echo "cp $((cp + b))"
		done
		echo "cp $((cp + total - 1))"
	done
	# the second copies start half the area in (whole segments)
	echo "sit $sit"
	echo "sit $((sit + 1))"
	# shellcheck disable=SC2017
	echo "sit $((sit + sit_segs / 2 * 512))"
	echo "nat $nat"
	echo "nat $((nat + 1))"
	# shellcheck disable=SC2017
	echo "nat $((nat + nat_segs / 2 * 512))"
	# open logs: cur_node_segno at 36, cur_node_blkoff at 68, data at 84/116
	for i in 0 1 2; do
		segno=$(le32 "$img" $((cp_blk * 4096 + 36 + 4 * i)))
		blkoff=$(le16 "$img" $((cp_blk * 4096 + 68 + 2 * i)))
		echo "ssa $((ssa + segno))"
		for ((b = 0; b < blkoff && b < 64; b++)); do
			echo "node $((main + segno * 512 + b))"
		done
		segno=$(le32 "$img" $((cp_blk * 4096 + 84 + 4 * i)))
		blkoff=$(le16 "$img" $((cp_blk * 4096 + 116 + 2 * i)))
		echo "ssa $((ssa + segno))"
		for ((b = 0; b < blkoff && b < 16; b++)); do
			echo "data $((main + segno * 512 + b))"
		done
	done
}

SMALL_INTS=(0 1 2 3 7 8 0x7f 0x80 0xff 0x100 0x1ff 0x200 0x201 0x3ff 0x400 0xfff 0x1000
	0xffff 0x10000 0x7fffffff 0x80000000 0xfffffffe 0xffffffff)

# mutate IMG: 1 to 6 writes into random target blocks; WHAT describes them,
# MUT_BLK is the last block written.
mutate() {
	local img=$1 n k cls blk off v width j pick
	WHAT=''
	rnd 6
	n=$((1 + R))
	for ((k = 0; k < n; k++)); do
		# pick a class first so that long node lists do not drown the rest
		rnd 7
		case $R in
		0) cls="sb" ;; 1) cls="cp" ;; 2) cls="sit" ;; 3) cls="nat" ;; 4) cls="ssa" ;;
		5) cls="node" ;; *) cls="data" ;;
		esac
		pick=()
		for ((j = 0; j < ${#T_CLASS[@]}; j++)); do
			[ "${T_CLASS[j]}" = "$cls" ] && pick+=("${T_BLKS[j]}")
		done
		[ ${#pick[@]} -eq 0 ] && pick=("${T_BLKS[@]}")
		rnd ${#pick[@]}
		blk=${pick[R]}
		rnd 4
		if [ "$cls" = sb ]; then
			off=1024
			[ "$R" -eq 0 ] && { rnd 3072; off=$((off + R)); }
			rnd 200
			off=$((off + R))
		elif [ "$cls" = node ] && [ "$R" -eq 0 ]; then
			rnd 24
			off=$((4096 - 24 + R)) # node footer
		elif [ "$R" -le 1 ]; then
			rnd 256
			off=$R
		else
			rnd 4096
			off=$R
		fi
		off=$((blk * 4096 + off))
		rnd 4
		case $R in
		0) rnd 256; v=$R width=1 ;;
		1) rnd ${#SMALL_INTS[@]}; v=$((SMALL_INTS[R])) width=4 ;;
		2) rnd ${#SMALL_INTS[@]}; v=$((SMALL_INTS[R] & 0xffff)) width=2 ;;
		*) rnd 8; v=$(($(od -An -tu1 -j "$off" -N 1 "$img") ^ (1 << R))) width=1 ;;
		esac
		put "$img" "$off" "$v" "$width"
		WHAT+=$(printf '%s@%d=%#x/%d ' "$cls" "$off" "$v" "$width")
		MUT_BLK=$blk
	done
}

# --- image families --------------------------------------------------------

make_tree() {
	local d=$1 i
	mkdir -p "$d/a/b/c" "$d/empty" "$d/many"
	for i in $(seq 1 20); do
		head -c $((i * 2500)) /dev/urandom >"$d/f$i"
	done
	for i in $(seq 1 60); do
		echo "$i" >"$d/many/entry-with-a-longer-name-$i"
	done
	head -c 300000 /dev/urandom >"$d/a/b/c/big"
	echo small >"$d/a/b/small"
	ln -s f1 "$d/link"
	ln -s "$(printf 'x%.0s' $(seq 1 300))" "$d/a/longlink"
	ln "$d/f2" "$d/a/hard"
}

# make_family NAME IMG: create the family's image; false (with REASON set)
# when it cannot be made.
make_family() {
	local name=$1 img=$2 mb opts=()
	case $name in
	default-64m) mb=64 ;;
	features-128m)
		mb=128
		opts=(-O "extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found,sb_checksum,inode_crtime,project_quota")
		;;
	large-section-256m) mb=256 opts=(-s 4 -O "extra_attr,inode_checksum,lost_found") ;;
	heap-i-96m) mb=96 opts=(-a 1 -i -O "extra_attr,compression") ;;
	sload-64m)
		# not flexible_inline_xattr: sload.f2fs 1.15 then writes inodes with
		# i_inline_xattr_size 0 and its own fsck pass rejects them
		mb=64 opts=(-O "extra_attr,inode_checksum,lost_found")
		;;
	*)
		REASON="unknown family"
		return 1
		;;
	esac
	rm -f "$img"
	truncate -s "${mb}M" "$img"
	if ! timeout 60 "$MKFS" -q -f -r -T 1700000000 "${opts[@]}" "$img" >"$WORK/mkfs.log" 2>&1; then
		REASON="mkfs ${opts[*]} failed: $(snippet "$WORK/mkfs.log")"
		return 1
	fi
	if [ "$name" = sload-64m ]; then
		if [ ! -x "$SLOAD" ]; then
			REASON="SLOAD=$SLOAD is not executable"
			return 2
		fi
		rm -rf "$WORK/tree"
		make_tree "$WORK/tree"
		if ! timeout 120 "$SLOAD" -f "$WORK/tree" "$img" >"$WORK/sload.log" 2>&1; then
			REASON="sload.f2fs failed: $(snippet "$WORK/sload.log")"
			return 1
		fi
	fi
	return 0
}

# --- running the tools ------------------------------------------------------

# The commands run after fsck -f, in turn.  Dump's table modes write
# ./dump_nat etc., so every command runs in a scratch directory.
EXTRA_MODES=(fsck-t dump-d3 dump-i dump-n dump-s dump-a dump-b dump-M dump-sections
	dump-json-i dump-r)

# extra_cmd MODE IMG I BLK: set CMD (the command line) and OK (the exit
# statuses it may end with) for mode MODE on IMG, iteration I (-1: the
# unmutated image), with BLK the block dump -b asks about (the one the
# mutation wrote last).  No RANDOM is drawn here, so FUZZ_EXTRA does not
# change the images a seed gives.
extra_cmd() {
	local mode=$1 img=$2 i=$3 blk=$4 ino=$((3 + $3 % 40))
	OK='0 1'
	case $mode in
	fsck-t) CMD=("$FSCK" -f -t "$img") OK='0 1 4 8' ;;
	dump-d3) CMD=("$DUMP" -d 3 "$img") ;;
	dump-i) CMD=("$DUMP" -i "$ino" "$img") ;;
	dump-n) CMD=("$DUMP" -n 0~-1 "$img") ;;
	dump-s) CMD=("$DUMP" -s 0~-1 "$img") ;;
	dump-a) CMD=("$DUMP" -a 0~-1 "$img") ;;
	dump-b) CMD=("$DUMP" -b "$blk" "$img") ;;
	dump-M) CMD=("$DUMP" -M "$img") ;;
	dump-sections) CMD=("$DUMP" --sections "$img") ;;
	dump-json-i) CMD=("$DUMP" --json -i "$ino" "$img") ;;
	dump-r) CMD=("$DUMP" -r -N -o "$WORK/run/out" "$img") ;;
	esac
	# the unmutated image has the root and nothing else for sure
	[ "$i" -lt 0 ] && case $mode in dump-i | dump-json-i) CMD[-2]=3 ;; esac
	return 0
}

# run_tool OK CMD...: run CMD in $WORK/run under timeout; set RC and BAD
# (empty when the exit status is one of OK and no sanitizer spoke).
run_tool() {
	local ok=$1
	shift
	rm -rf "$WORK/run"
	mkdir -p "$WORK/run"
	(cd "$WORK/run" && timeout -k 5 "$TMO" "$@" </dev/null >"$WORK/out" 2>"$WORK/err")
	RC=$?
	BAD=''
	case $RC in
	124 | 137) BAD="timed out after ${TMO}s" ;;
	*) [[ " $ok " == *" $RC "* ]] || BAD="exit status $RC" ;;
	esac
	if grep -qE 'ERROR: AddressSanitizer|runtime error|LeakSanitizer|ERROR: UndefinedBehaviorSanitizer' "$WORK/err"; then
		BAD="${BAD:+$BAD, }sanitizer report: $(grep -m1 -E 'ERROR: |runtime error' "$WORK/err")"
	fi
	if [ -z "$BAD" ] && [ "$RC" -eq 0 ] && [ "$HAVE_PY" = 1 ] && [[ " $* " == *" --json "* ]] &&
		! python3 -c 'import json,sys; json.load(sys.stdin)' <"$WORK/out" 2>/dev/null; then
		BAD="exit 0 with invalid JSON on stdout"
	fi
}

# keep_failure NAME SEED I WHAT CMD...: save the image and how to reproduce.
keep_failure() {
	local name=$1 fseed=$2 i=$3 what=$4
	shift 4
	mkdir -p "$CRASH_DIR"
	SAVED=$CRASH_DIR/$name-seed$fseed-iter$i.img
	cp --sparse=always "$IMG_CUR" "$SAVED"
	cp "$WORK/err" "$SAVED.stderr"
	echo "$what" >"$SAVED.mutation"
	echo "# $name: iteration $i ($what): $BAD"
	echo "# reproduce: ${*/#"$IMG_CUR"/$SAVED}   (stderr in $SAVED.stderr)"
}

# run_family NAME FAMILY_SEED
run_family() {
	local name=$1 fseed=$2 base=$WORK/$1.img img=$WORK/cur.img i k rc what args mode
	local n0=0 n1=0 n4=0 n8=0 d0=0 d1=0 bad='' t0 nmodes=${#EXTRA_MODES[@]}
	REASON=''
	IMG_CUR=$img
	make_family "$name" "$base"
	case $? in
	0) ;;
	2)
		skip "mutate-$name" "$REASON"
		return
		;;
	*)
		fail "mutate-$name" "$REASON"
		return
		;;
	esac
	# the unmutated image must be clean, and every extra command must work on it
	timeout -k 5 "$TMO" "$FSCK" -f "$base" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "mutate-$name" "fsck on the unmutated image exited $rc: $(grep -m3 -E 'PR_|rror' "$WORK/out" "$WORK/err" | tr '\n' ' ')"
		return
	fi
	T_CLASS=()
	T_BLKS=()
	while read -r cls blk; do
		T_CLASS+=("$cls")
		T_BLKS+=("$blk")
	done < <(targets "$base")
	if [ "$EXTRA" -gt 0 ]; then
		for mode in "${EXTRA_MODES[@]}"; do
			extra_cmd "$mode" "$base" -1 "${T_BLKS[-1]}"
			run_tool 0 "${CMD[@]}"
			if [ -n "$BAD" ]; then
				fail "mutate-$name" "$mode on the unmutated image: $BAD: ${CMD[*]}: $(snippet "$WORK/err")"
				return
			fi
		done
	fi
	RANDOM=$fseed
	t0=$SECONDS
	for ((i = 0; i < ITERS; i++)); do
		cp --sparse=always "$base" "$img"
		mutate "$img"
		what=$WHAT
		# -f repairs (as upstream's -f does), -n only checks
		args=(-f)
		[ $((i % 3)) -eq 1 ] && args=(-n -d 1)
		[ $((i % 7)) -eq 5 ] && args=(-f -l)
		[ $((i % 11)) -eq 7 ] && args=(-f --rebuild)
		cp --sparse=always "$img" "$img.pre"
		run_tool '0 1 4 8' "$FSCK" "${args[@]}" "$img"
		# a run that says it corrected everything must leave a clean volume
		if [ "$RC" = 1 ] && [ -z "$BAD" ]; then
			run_tool '0' "$FSCK" -n "$img"
			if [ -n "$BAD" ]; then
				BAD="exit 1 (corrected), then fsck -n exits $RC: $(grep -m2 -o 'PR_[A-Z_]*' "$WORK/out" | tr '\n' ' ')"
				cp --sparse=always "$img.pre" "$img" # keep the image as it was before the repair
			fi
			RC=1
		fi
		case $RC in
		0) n0=$((n0 + 1)) ;;
		1) n1=$((n1 + 1)) ;;
		4) n4=$((n4 + 1)) ;;
		8) n8=$((n8 + 1)) ;;
		esac
		if [ -n "$BAD" ]; then
			bad=$BAD
			keep_failure "$name" "$fseed" "$i" "$what" "$FSCK" "${args[@]}" "$img"
			break
		fi
		for ((k = 0; k < EXTRA; k++)); do
			mode=${EXTRA_MODES[(i * EXTRA + k) % nmodes]}
			extra_cmd "$mode" "$img" "$i" "$MUT_BLK"
			run_tool "$OK" "${CMD[@]}"
			case $mode:$RC in
			dump-*:0) d0=$((d0 + 1)) ;;
			dump-*:1) d1=$((d1 + 1)) ;;
			esac
			if [ -n "$BAD" ]; then
				bad="$mode: $BAD"
				keep_failure "$name" "$fseed" "$i" "$what" "${CMD[@]}"
				break 2
			fi
		done
	done
	echo "# mutate-$name: $i/$ITERS iterations in $((SECONDS - t0))s, fsck exit 0 x$n0, 1 x$n1, 4 x$n4, 8 x$n8; dump exit 0 x$d0, 1 x$d1 (seed $fseed)"
	if [ -n "$bad" ]; then
		fail "mutate-$name" "iteration $i: $bad; image kept as $SAVED"
	else
		pass "mutate-$name"
	fi
}

# --- the standalone fuzz drivers ---------------------------------------------

# run_driver NAME ITERS: build tests/fuzz/NAME.c and fuzz_driver.c against the
# ASan library of FSCK's tree and run ITERS inputs (the test is "NAME" with _
# as -).
run_driver() {
	local name=$1 iters=$2 test=${1//_/-} src lib drv=$WORK/$1 libs t0 rc saved
	if [ "$iters" -eq 0 ]; then
		skip "$test" "no iterations asked for"
		return
	fi
	src=$(cd "$(dirname "$FSCK")/.." && pwd)
	lib=$src/lib/libf2fs.a
	if [ ! -f "$lib" ] || [ ! -f "$src/config.h" ]; then
		skip "$test" "no $lib or $src/config.h next to FSCK"
		return
	fi
	# the libraries libf2fs needs, as configure found them
	libs=$(make -s --no-print-directory -C "$src" print-libf2fs-deps 2>/dev/null | tail -n 1)
	# shellcheck disable=SC2086
	if ! ${CC:-gcc} -std=gnu11 -O1 -g -Wall -Wextra -fsanitize=address,undefined \
		-fno-omit-frame-pointer -fno-sanitize-recover=undefined -I"$src" -I"$src/include" \
		"$TOP/tests/fuzz/$name.c" "$TOP/tests/fuzz/fuzz_driver.c" "$lib" $libs -o "$drv" \
		>"$WORK/cc.log" 2>&1; then
		fail "$test" "cannot build the driver: $(snippet "$WORK/cc.log" 300)"
		return
	fi
	t0=$SECONDS
	timeout -k 5 $((TMO * 30)) "$drv" -q -n "$iters" -s "$SEED" -S "$WORK/input.bin" \
		>"$WORK/drv.out" 2>"$WORK/drv.err"
	rc=$?
	grep "^$name:" "$WORK/drv.out" | sed 's/^/# /'
	echo "# $test: $iters inputs in $((SECONDS - t0))s (seed $SEED)"
	if [ "$rc" -eq 0 ] && ! grep -qE 'ERROR: |runtime error|LeakSanitizer' "$WORK/drv.err"; then
		pass "$test"
		return
	fi
	mkdir -p "$CRASH_DIR"
	saved=$CRASH_DIR/${name#fuzz_}-seed$SEED.bin
	cp "$WORK/input.bin" "$saved"
	cp "$WORK/drv.err" "$saved.stderr"
	cp "$drv" "$CRASH_DIR/$name"
	echo "# reproduce: $CRASH_DIR/$name $saved   (stderr in $saved.stderr)"
	fail "$test" "exit $rc: $(grep -m1 -E "ERROR: |runtime error|$name: " "$WORK/drv.err"); last input kept as $saved"
}

# run_text_driver NAME ITERS: the replay engine's text inputs (tests/fuzz/NAME.c,
# its own mutator), built against the ASan library of FSCK's tree.
run_text_driver() {
	local name=$1 iters=$2 test=${1//_/-} src lib drv=$WORK/$1 libs t0 rc
	src=$(cd "$(dirname "$FSCK")/.." && pwd)
	lib=$src/lib/libf2fs.a
	if [ ! -f "$lib" ] || [ ! -f "$src/config.h" ]; then
		skip "$test" "no $lib or $src/config.h next to FSCK"
		return
	fi
	libs=$(make -s --no-print-directory -C "$src" print-libf2fs-deps 2>/dev/null | tail -n 1)
	# shellcheck disable=SC2086
	if ! ${CC:-gcc} -std=gnu11 -O1 -g -Wall -Wextra -pthread -fsanitize=address,undefined \
		-fno-omit-frame-pointer -fno-sanitize-recover=undefined -I"$src" -I"$src/include" \
		"$TOP/tests/fuzz/$name.c" "$lib" $libs -o "$drv" >"$WORK/cc.log" 2>&1; then
		fail "$test" "cannot build the driver: $(snippet "$WORK/cc.log" 300)"
		return
	fi
	t0=$SECONDS
	timeout -k 5 $((TMO * 30)) "$drv" -q -n "$iters" -s "$SEED" -S "$WORK/input.txt" \
		>"$WORK/drv.out" 2>"$WORK/drv.err"
	rc=$?
	echo "# $test: $iters inputs in $((SECONDS - t0))s (seed $SEED)"
	if [ "$rc" -eq 0 ] && ! grep -qE 'ERROR: |runtime error|LeakSanitizer' "$WORK/drv.err"; then
		pass "$test"
		return
	fi
	mkdir -p "$CRASH_DIR"
	cp "$WORK/input.txt" "$CRASH_DIR/$name-seed$SEED.txt"
	fail "$test" "exit $rc: $(grep -m1 -E "ERROR: |runtime error|$name: " "$WORK/drv.err"); input kept as $CRASH_DIR/$name-seed$SEED.txt"
}

k=0
for fam in $FAMILIES; do
	run_family "$fam" $((SEED * 100 + k))
	k=$((k + 1))
done
run_driver fuzz_parsers "$DRIVER_ITERS"
run_driver fuzz_read "$READ_ITERS"
run_text_driver fuzz_trace "${FUZZ_TRACE_ITERS:-20000}"
run_text_driver fuzz_undo "${FUZZ_UNDO_ITERS:-3000}"

# --- the differential run: every mutation upstream flags, ours must too ------------
# (but the known, explained ones of differential-allow.txt); it prints its own
# PASS/FAIL lines
if [ "${FUZZ_DIFF_ITERS:-150}" -gt 0 ]; then
	FSCK=$FSCK DUMP=$DUMP INJECT=${INJECT:-$(dirname "$FSCK")/../inject/inject.f2fs} \
		DIFF_ITERS=${FUZZ_DIFF_ITERS:-150} DIFF_SEED=$SEED DIFF_TIMEOUT=$TMO DIFF_MAX_UP_ONLY=0 \
		bash "$TOP/tests/fuzz/differential.sh" || N_FAIL=$((N_FAIL + 1))
fi
finish
