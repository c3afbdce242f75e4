#!/bin/bash
# Write-life hints (-H; mkfs -g android turns them on): each write reaches
# the image after an fcntl(F_SET_RW_HINT) naming its log's hint, as newest
# upstream's table has it -- metadata and hot node NONE (1), hot data SHORT
# (2), warm data NOT_SET (0), cold data EXTREME (5), warm node MEDIUM (3),
# cold node LONG (4) -- set only where the hint changes.  Under strace every
# pwrite64 to the image is matched with the log the finished volume's SIT
# gives its segment (below the main area: metadata); F_SET_RW_HINT's value
# is not decoded by strace, so the values are read back from the inode
# (F_GET_RW_HINT, which the kernel keeps per inode) after strace stops the
# tool at the write in question with an injected EIO.  Without -H nothing
# is hinted; a kernel that refuses hints costs one fcntl and no failure.
# Upstream's sload has no -H, so neither has ours.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
DEFRAG=${DEFRAG:-$TOP/defrag/defrag.f2fs}
RESIZE=${RESIZE:-$TOP/resize/resize.f2fs}
for b in "$SLOAD" "$FSCK" "$DUMP" "$INJECT" "$DEFRAG" "$RESIZE"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done
if ! command -v strace >/dev/null; then
	skip all "strace is not installed (scripts/setup.sh installs it)"
	finish
fi
if ! command -v python3 >/dev/null; then
	skip all "python3 is not installed (reads F_GET_RW_HINT)"
	finish
fi

IMG=$WORK/img
TRACE=$WORK/trace

# The hint the kernel keeps on FILE's inode (F_GET_RW_HINT is 1035).
hint_of() {
	python3 -c 'import fcntl, struct, sys
with open(sys.argv[1], "rb") as f:
    print(struct.unpack("=Q", fcntl.fcntl(f.fileno(), 1035, bytes(8)))[0])' "$1"
}

# A fresh image file (a new inode: no hint yet) of SIZE.
fresh() {
	rm -f "$IMG" && truncate -s "${1:-256M}" "$IMG"
}

# LeakSanitizer cannot run under ptrace: in the ASan build the tools run
# here without leak checks (every other test keeps them)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# traced CMD...: run under strace, the image's fcntl and pwrite64 calls in $TRACE.
traced() {
	run_cmd strace -f -y -qq -e signal=none -e trace=fcntl,pwrite64,pwritev,pwritev2 \
		-o "$TRACE" "$@"
}

# The finished volume's map: "main BLKADDR" and "seg SEGNO TYPE" lines.
volume_map() {
	local d=$WORK/map
	rm -rf "$d" && mkdir "$d" || return 1
	(cd "$d" && "$DUMP" -s 0~-1 "$IMG" >/dev/null 2>&1) || return 1
	"$DUMP" -d 1 "$IMG" 2>/dev/null | awk '/^main_blkaddr/ { gsub(/\]/, ""); print "main", $NF }'
	awk '/^segno:/ { t = $0; sub(/.*seg_type:/, "", t); sub(/[ \t].*/, "", t); print "seg", $2, t }' \
		"$d/dump_sit"
}

# check_trace: the image's writes in $TRACE against the volume's map.  Prints
# "write OFFSET HINT" per write (the hint it should carry), then "ok META
# NODE DATA FCNTLS"; or one line saying what is wrong, status 1.
check_trace() {
	volume_map >"$WORK/map.txt" || {
		echo "dump could not map the volume"
		return 1
	}
	awk -v img="<$IMG>" -v bs=4096 '
	FNR == NR { if ($1 == "main") main = $2; else type[$2] = $3; next }
	BEGIN {
		life[0] = 2; life[1] = 0; life[2] = 5   # hot, warm, cold data
		life[3] = 1; life[4] = 3; life[5] = 4   # hot, warm, cold node
		prev = 0; changed = 0
	}
	index($0, img) == 0 { next }
	/fcntl\(/ && /0x40c/ { if ($NF == "0") { changed = 1; nf++ }; next }
	/pwrite64\(/ {
		line = $0; sub(/\) *= .*/, "", line); n = split(line, a, ", ")
		off = a[n]; blk = int(off / bs)
		if (main == "") { print "no main_blkaddr"; bad = 1; exit 1 }
		if (blk < main) { want = 1; meta++ }
		else {
			seg = int((blk - main) / 512)
			if (!(seg in type)) { print "write at " off ": segment " seg " has no SIT type"; bad = 1; exit 1 }
			want = life[type[seg]]
			if (type[seg] < 3) data++; else node++
		}
		if (want != prev && !changed) { print "write at " off " wants hint " want " after " prev ", no fcntl"; bad = 1; exit 1 }
		if (want == prev && changed) { print "fcntl before write at " off " though its hint " want " is the last one"; bad = 1; exit 1 }
		print "write", off, want
		prev = want; changed = 0
	}
	END { if (!bad) print "ok", meta + 0, node + 0, data + 0, nf + 0 }' "$WORK/map.txt" "$TRACE"
}

# expect_hints NAME: check_trace passes, with writes of metadata, nodes and data.
expect_hints() {
	local out last
	out=$(check_trace) || {
		fail "$1" "$(tail -1 <<<"$out")"
		return 1
	}
	last=$(tail -1 <<<"$out")
	read -r _ meta node data nf <<<"$last"
	if [ "$meta" -eq 0 ] || [ "$node" -eq 0 ] || [ "$data" -eq 0 ] || [ "$nf" -eq 0 ]; then
		fail "$1" "writes meta $meta node $node data $data, $nf hints set: expected all kinds"
		return 1
	fi
	grep '^write ' <<<"$out" >"$WORK/writes.txt"
	pass "$1"
}

# --- mkfs ---------------------------------------------------------------

fresh
traced "$MKFS" -f -O extra_attr,quota "$IMG"
if [ "$RC" -ne 0 ]; then
	fail mkfs-no-hints "mkfs failed: $(snippet "$WORK/last.err")"
elif grep -q 'fcntl(.*0x40c' "$TRACE"; then
	fail mkfs-no-hints "F_SET_RW_HINT without -H: $(grep -m1 0x40c "$TRACE")"
elif [ "$(hint_of "$IMG")" != 0 ]; then
	fail mkfs-no-hints "the image's inode carries hint $(hint_of "$IMG")"
else
	pass mkfs-no-hints
fi

fresh
traced "$MKFS" -f -H -O extra_attr,quota "$IMG"
if [ "$RC" -ne 0 ]; then
	fail mkfs-H "mkfs -H failed: $(snippet "$WORK/last.err")"
elif expect_hints mkfs-H; then
	# the values: stop mkfs at each write whose hint changes, read the inode's
	i=0 prev=0 bad=
	while read -r _ off want; do
		i=$((i + 1))
		[ "$want" = "$prev" ] && continue
		prev=$want
		fresh
		run_cmd strace -qq -e signal=none -e trace=pwrite64 \
			-e inject=pwrite64:error=EIO:when=$i -o /dev/null \
			"$MKFS" -f -H -O extra_attr,quota "$IMG"
		got=$(hint_of "$IMG")
		if [ "$RC" -eq 0 ] || [ "$got" != "$want" ]; then
			bad="write $i at $off: inode hint $got, expected $want (mkfs status $RC)"
			break
		fi
	done <"$WORK/writes.txt"
	if [ -n "$bad" ]; then
		fail mkfs-H-values "$bad"
	else
		pass mkfs-H-values
	fi
fi

fresh
traced "$MKFS" -g android "$IMG"
if [ "$RC" -ne 0 ]; then
	fail mkfs-g-android "mkfs -g android failed: $(snippet "$WORK/last.err")"
else
	expect_hints mkfs-g-android
fi

# Newest upstream's mkfs -H by the same rule: its writes carry the hint of
# the log their segment belongs to, metadata NONE.
newest_mkfs=${UPSTREAM_NEWEST_MKFS:-$(dirname "$TOP")/upstream-f2fs-tools/mkfs/mkfs.f2fs}
if [ -x "$newest_mkfs" ]; then
	fresh
	traced "$newest_mkfs" -f -H -O extra_attr,quota "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail upstream-mkfs-H "newest upstream's mkfs -H failed: $(snippet "$WORK/last.err")"
	else
		expect_hints upstream-mkfs-H
	fi
else
	skip upstream-mkfs-H "no newest upstream mkfs at $newest_mkfs"
fi

# A kernel that refuses F_SET_RW_HINT: one attempt, then plain writes.
fresh
run_cmd strace -qq -e signal=none -e trace=fcntl -e inject=fcntl:error=EINVAL -o "$TRACE" \
	"$MKFS" -f -H "$IMG"
n=$(grep -c '0x40c' "$TRACE")
if [ "$RC" -ne 0 ]; then
	fail mkfs-H-refused "mkfs -H failed when hints are refused: $(snippet "$WORK/last.err")"
elif [ "$n" -ne 1 ]; then
	fail mkfs-H-refused "$n F_SET_RW_HINT attempts, expected 1"
elif ! run_cmd "$FSCK" "$IMG" || [ "$RC" -ne 0 ]; then
	fail mkfs-H-refused "the image is not clean: $(snippet "$WORK/last.out")"
else
	pass mkfs-H-refused
fi

# --- fsck, defrag, resize: the write path's writes ----------------------

SRC=$WORK/src
mkdir -p "$SRC/d"
for i in $(seq 1 40); do
	head -c $((i * 3000)) /dev/urandom >"$SRC/d/f$i"
done
fresh
run_cmd "$MKFS" -f "$IMG" && run_cmd "$SLOAD" -f "$SRC" "$IMG"
if [ "$RC" -ne 0 ]; then
	fail setup-loaded "$(snippet "$WORK/last.err")"
else
	cp --sparse=always "$IMG" "$WORK/loaded"
	# fsck -y -H: a link count set wrong is fixed by rewriting the inode
	nid=$("$DUMP" -d 1 "$IMG" 2>/dev/null | awk '/^root_ino/ { gsub(/\]/, ""); print $NF + 1 }')
	run_cmd "$INJECT" --node --nid "${nid:-4}" --mb i_links --val 7 "$IMG"
	cp --sparse=always "$IMG" "$WORK/img.tmp" && mv "$WORK/img.tmp" "$IMG" # a new inode
	traced "$FSCK" -y -H "$IMG"
	if [ "$RC" -ne 1 ]; then
		fail fsck-H "fsck -y -H exit $RC, expected 1 (fixed): $(snippet "$WORK/last.out")"
	elif ! grep -q 'fcntl(.*0x40c' "$TRACE"; then
		fail fsck-H "no F_SET_RW_HINT in the repair"
	else
		out=$(check_trace)
		if [ $? -ne 0 ]; then
			fail fsck-H "$(tail -1 <<<"$out")"
		else
			pass fsck-H
		fi
	fi

	# defrag -H: the moved data lands in a data log with its hint
	cp --sparse=always "$WORK/loaded" "$IMG"
	main=$("$DUMP" -d 1 "$IMG" 2>/dev/null | awk '/^main_blkaddr/ { gsub(/\]/, ""); print $NF }')
	traced "$DEFRAG" -H -s $((main + 512 * 3)) -l 512 -t $((main + 512 * 40)) "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail defrag-H "defrag -H failed: $(snippet "$WORK/last.err")"
	else
		expect_hints defrag-H
	fi

	# resize -H: grown, its writes hinted and the last one (the superblock) metadata
	cp --sparse=always "$WORK/loaded" "$IMG" && truncate -s 512M "$IMG"
	traced "$RESIZE" -H -F "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail resize-H "resize -H failed: $(snippet "$WORK/last.err")"
	elif ! grep -q 'fcntl(.*0x40c' "$TRACE"; then
		fail resize-H "no F_SET_RW_HINT in the resize"
	elif [ "$(hint_of "$IMG")" != 1 ]; then
		fail resize-H "last hint $(hint_of "$IMG"), expected 1 (metadata)"
	else
		pass resize-H
	fi
fi

fp=$(fingerprint "$IMG")
run_cmd "$SLOAD" -H -f "$SRC" "$IMG"
if [ "$RC" -ne 0 ] && grep -q "invalid option -- 'H'" "$WORK/last.err" &&
	[ "$(fingerprint "$IMG")" = "$fp" ]; then
	pass sload-no-H
else
	fail sload-no-H "sload -H: exit $RC, $(snippet "$WORK/last.err") (upstream's sload has no -H)"
fi

finish
