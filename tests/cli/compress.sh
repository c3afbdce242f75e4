#!/bin/bash
# sload.f2fs -c: compression never costs blocks, -r gives the saved ones back,
# and dump extracts compressed files decompressed.
#
# A generated tree (text that compresses, noise that does not, files that
# fit inline, a partial last cluster, a hole, an empty file) is loaded
# plain, with -c and with -c -r, with LZ4 and LZO: the checkpoint's
# valid_block_count with -c is never above plain, with -c -r below it; our
# fsck and newest upstream's find every image clean; dump -r -L extracts a
# tree equal to the source.  The same counts for /usr/include, with newest
# upstream's sload beside ours when it is built (the figures go to stderr);
# there -c -r must free at least what upstream's frees.  Bad input -- an
# unknown algorithm, -r or -a without -c -- gets one line, a non-zero exit
# and the image unchanged.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
UPDIR=${UPSTREAM_DIR:-$(dirname "$TOP")/upstream-f2fs-tools}
NEWEST_FSCK=${UPSTREAM_NEWEST_FSCK:-$UPDIR/fsck/fsck.f2fs}
NEWEST_SLOAD=${UPSTREAM_NEWEST_SLOAD:-$UPDIR/fsck/sload.f2fs}
img=$WORK/img

make_tree() {
	local src=$1 i
	rm -rf "$src" && mkdir -p "$src/text" "$src/noise" "$src/small" || return 1
	for i in 1 2 3 4 5; do
		# text: compresses; sizes that end inside a cluster too
		seq 1 $((i * 9000)) | sed 's/$/ the quick brown fox/' >"$src/text/t$i" || return 1
	done
	head -c 1000000 /dev/urandom >"$src/noise/n1" || return 1
	{ head -c 40000 /dev/urandom; seq 1 20000; } >"$src/noise/mixed" || return 1
	for i in $(seq 1 40); do seq 1 $((i * 10)) >"$src/small/s$i"; done # inline sizes
	: >"$src/small/empty"
	seq 1 4096 | head -c 16384 >"$src/text/one-cluster" || return 1
	truncate -s 2M "$src/text/holey" && seq 1 3000 | dd of="$src/text/holey" bs=4096 \
		seek=300 conv=notrunc status=none || return 1
}

# fresh SIZE: a new image with the compression feature
fresh() {
	rm -f "$img" && truncate -s "${1:-256M}" "$img" &&
		"$MKFS" -q -f -O extra_attr,compression "$img" >/dev/null
}

# valid_blocks IMAGE: the checkpoint's valid_block_count
valid_blocks() {
	"$DUMP" -d 1 "$1" 2>/dev/null | awk -F: '/valid_block_count/ { gsub(/[] ]/, "", $2); print $2; exit }'
}

# clean NAME IMAGE: our fsck and newest upstream's (when built) find it clean
clean() {
	run_cmd "$FSCK" "$2"
	[ "$RC" -eq 0 ] || { fail "$1" "our fsck exited $RC: $(grep -m1 PR_ "$WORK/last.out")"; return 1; }
	if [ -x "$NEWEST_FSCK" ]; then
		run_cmd "$NEWEST_FSCK" -f --dry-run "$2"
		[ "$RC" -eq 0 ] || { fail "$1" "upstream fsck exited $RC"; return 1; }
	fi
	return 0
}

# extracts NAME IMAGE SRC: dump -r -L gives back SRC
extracts() {
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -L -o "$WORK/out" "$2"
	[ "$RC" -eq 0 ] || { fail "$1" "dump -r exited $RC: $(snippet "$WORK/last.err")"; return 1; }
	diff -r --no-dereference "$3" "$WORK/out" >"$WORK/diff" 2>&1 ||
		{ fail "$1" "extracted tree differs: $(snippet "$WORK/diff")"; return 1; }
	return 0
}

SRC=$WORK/src
make_tree "$SRC" || { fail tree "cannot generate the source tree"; finish; }

algos=(lz4)
"$SLOAD" -c -a lzo -f /nonexistent "$img" 2>&1 | grep -q 'this build has no' || algos+=(lzo)

declare -A blocks
for mode in plain "${algos[@]}" "${algos[@]/%/-r}"; do
	case $mode in
	plain) opts=() ;;
	*-r) opts=(-c -a "${mode%-r}" -r) ;;
	*) opts=(-c -a "$mode") ;;
	esac
	fresh
	run_cmd "$SLOAD" "${opts[@]}" -f "$SRC" "$img"
	if [ "$RC" -ne 0 ]; then
		fail "load $mode" "sload exited $RC: $(snippet "$WORK/last.err")"
		continue
	fi
	blocks[$mode]=$(valid_blocks "$img")
	clean "load $mode" "$img" && extracts "load $mode" "$img" "$SRC" && pass "load $mode"
done
for a in "${algos[@]}"; do
	p=${blocks[plain]:-} c=${blocks[$a]:-} r=${blocks[$a-r]:-}
	echo "# generated tree, valid blocks: plain $p, -c -a $a $c, -c -a $a -r $r" >&2
	if [ -n "$p" ] && [ -n "$c" ] && [ "$c" -le "$p" ]; then
		pass "blocks $a: -c not above plain"
	else
		fail "blocks $a: -c not above plain" "plain ${p:-?}, -c ${c:-?}"
	fi
	if [ -n "$p" ] && [ -n "$r" ] && [ "$r" -lt "$p" ]; then
		pass "blocks $a: -c -r below plain"
	else
		fail "blocks $a: -c -r below plain" "plain ${p:-?}, -c -r ${r:-?}"
	fi
done

# A released file refuses writes in the kernel; here it must at least read back
# after a second load added files beside it (the load leaves it alone).
fresh
mkdir -p "$WORK/more" && seq 1 50000 >"$WORK/more/late"
if "$SLOAD" -c -r -f "$SRC" "$img" >/dev/null 2>&1 && "$SLOAD" -f "$WORK/more" "$img" >/dev/null 2>&1 &&
	clean "second load beside released files" "$img"; then
	cp -a "$SRC" "$WORK/both" && cp "$WORK/more/late" "$WORK/both/"
	extracts "second load beside released files" "$img" "$WORK/both" &&
		pass "second load beside released files"
	rm -rf "$WORK/both"
else
	fail "second load beside released files" "a load failed or the image is not clean"
fi

# /usr/include: ours against newest upstream's sload, same image, same run
if [ -d /usr/include ] && [ "$(find /usr/include -type f | head -n 1000 | wc -l)" -ge 1000 ]; then
	declare -A inc
	for who in ours upstream; do
		bin=$SLOAD
		if [ $who = upstream ]; then
			[ -x "$NEWEST_SLOAD" ] || continue
			bin=$NEWEST_SLOAD
		fi
		for opts in "" "-c" "-c -r"; do
			fresh 1G
			# shellcheck disable=SC2086 # $opts is a list of options
			run_cmd "$bin" $opts -f /usr/include "$img"
			[ "$RC" -eq 0 ] || { fail "/usr/include $who $opts" "sload exited $RC"; continue; }
			inc[$who$opts]=$(valid_blocks "$img")
			if [ $who = ours ] && [ -n "$opts" ]; then
				# newest upstream's fsck and our dump; see the report for our fsck here
				if [ -x "$NEWEST_FSCK" ]; then
					run_cmd "$NEWEST_FSCK" -f --dry-run "$img"
					[ "$RC" -eq 0 ] || fail "/usr/include ours $opts" "upstream fsck exited $RC"
				fi
				extracts "/usr/include ours $opts" "$img" /usr/include &&
					pass "/usr/include ours $opts extracts equal"
			fi
		done
	done
	printf '# /usr/include valid blocks: ours plain 0x%x, -c 0x%x, -c -r 0x%x' \
		"${inc[ours]:-0}" "${inc[ours-c]:-0}" "${inc[ours-c -r]:-0}" >&2
	[ -n "${inc[upstream]:-}" ] &&
		printf '; upstream plain 0x%x, -c 0x%x, -c -r 0x%x' "${inc[upstream]:-0}" \
			"${inc[upstream-c]:-0}" "${inc[upstream-c -r]:-0}" >&2
	echo >&2
	if [ -n "${inc[ours]:-}" ] && [ -n "${inc[ours-c]:-}" ] && [ -n "${inc[ours-c -r]:-}" ] &&
		[ "${inc[ours-c]}" -le "${inc[ours]}" ] && [ "${inc[ours-c -r]}" -lt "${inc[ours]}" ]; then
		pass "/usr/include blocks: -c not above plain, -c -r below"
	else
		fail "/usr/include blocks: -c not above plain, -c -r below" \
			"plain ${inc[ours]:-?}, -c ${inc[ours-c]:-?}, -c -r ${inc[ours-c -r]:-?}"
	fi
	if [ -n "${inc[upstream-c -r]:-}" ]; then
		if [ -n "${inc[ours-c -r]:-}" ] && [ "${inc[ours-c -r]}" -le "${inc[upstream-c -r]}" ]; then
			pass "/usr/include -c -r: no more blocks than upstream's"
		else
			fail "/usr/include -c -r: no more blocks than upstream's" \
				"ours ${inc[ours-c -r]:-?}, upstream ${inc[upstream-c -r]}"
		fi
	fi
else
	skip "/usr/include" "no /usr/include with 1000 files here"
fi

# --- refusals: one line, non-zero, the image unchanged ------------------------
fresh
REFUSE_IMAGE=$img expect_refusal "unknown-algorithm" 'Unknown compression algorithm' -- \
	"$SLOAD" -c -a zstd -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "algorithm-case" 'Unknown compression algorithm' -- \
	"$SLOAD" -c -a LZ4 -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "release-without-c" 'without the compression enable \(-c\)' -- \
	"$SLOAD" -r -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "algorithm-without-c" 'without the compression enable \(-c\)' -- \
	"$SLOAD" -a lzo -f "$SRC" "$img"
rm -f "$img" && truncate -s 256M "$img" && "$MKFS" -q -f "$img" >/dev/null
REFUSE_IMAGE=$img expect_refusal "release-no-feature" 'no compression feature' -- \
	"$SLOAD" -c -r -f "$SRC" "$img"

finish
