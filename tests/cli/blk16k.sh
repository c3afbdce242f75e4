#!/bin/bash
# 16 KiB blocks (log_blocksize 14), read side: newest upstream's mkfs.f2fs
# -b 16384 and sload.f2fs make the volumes, newest upstream's fsck and dump
# judge (the x86 kernel cannot mount 16 KiB blocks).  Our fsck --dry-run
# must find fresh and loaded volumes clean, our dump -r extract a loaded
# tree (a file using indirect nodes among it) equal to the source, dump -d 1
# and -i list the fields upstream's dump lists, lz4 and lzo clusters read
# back, and on corruptions made with upstream's inject our fsck's verdict
# must be upstream's.  Writing
# tools refuse such a volume with one line and leave it as it was, but for
# f2fslabel, which writes both superblock copies where 16 KiB blocks put
# them, and our mkfs -b refuses 16384 (and sizes no kernel mounts).
# Without newest upstream built only those refusals run (the unit tests
# carry the 16 KiB geometry).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs
cd "$WORK" || exit 1 # dump -n writes dump_nat where it runs

FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
DEFRAG=${OUR_DEFRAG:-$TOP/defrag/defrag.f2fs}
INJECT=${OUR_INJECT:-$TOP/inject/inject.f2fs}
LABEL=${OUR_LABEL:-$TOP/label/f2fslabel}
NEWEST=${NEWEST_UPSTREAM:-$TOP/../upstream-f2fs-tools}
N_MKFS=$NEWEST/mkfs/mkfs.f2fs
N_FSCK=$NEWEST/fsck/fsck.f2fs

# The "name [0x... : dec]" lines of a field listing.
field_lines() {
	grep -aP '^\S+\s+\t\t\['
}

# --- other block sizes: one line, nothing read past the superblock --------

img=$WORK/bad-log.img
truncate -s 256M "$img"
run_cmd "$MKFS" -q -f "$img"
# log_blocksize is the superblock's 5th word (no sb_checksum by default)
printf '\x0d' | dd of="$img" bs=1 seek=$((1024 + 16)) conv=notrunc status=none
printf '\x0d' | dd of="$img" bs=1 seek=$((4096 + 1024 + 16)) conv=notrunc status=none
REFUSE_IMAGE=$img expect_refusal fsck-log13 'log_blocksize 13 is not 12 or 14' -- \
	"$FSCK" --dry-run "$img"
REFUSE_IMAGE=$img expect_refusal dump-log13 'log_blocksize 13 is not 12 or 14' -- \
	"$DUMP" -d 1 "$img"

# our mkfs takes -b as newest upstream does, but formats 4 KiB blocks only
pat=$WORK/pattern.img
make_pattern_image "$pat" $((64 << 20))
REFUSE_IMAGE=$pat expect_refusal mkfs-b16384 '^mkfs.f2fs: 16 KiB blocks: not supported by mkfs.f2fs yet$' -- \
	"$MKFS" -f -b 16384 "$pat"
REFUSE_IMAGE=$pat expect_refusal mkfs-b8192 "invalid value for -b: '8192' \(expected 4096 or 16384\)" -- \
	"$MKFS" -f -b 8192 "$pat"
run_cmd "$MKFS" -q -f -b 4096 "$pat"
if [ "$RC" -eq 0 ] && "$FSCK" --dry-run "$pat" >/dev/null 2>&1; then
	pass mkfs-b4096
else
	fail mkfs-b4096 "mkfs exited $RC: $(snippet "$WORK/last.err")"
fi

if [ ! -x "$N_MKFS" ] || [ ! -x "$N_FSCK" ]; then
	skip upstream-16k "newest upstream ($NEWEST) not built: no mkfs.f2fs -b 16384"
	finish
fi
# upstream's tools are one program that acts by the name it is called by
for t in sload dump inject; do ln -s "$N_FSCK" "$WORK/$t.f2fs"; done
N_SLOAD=$WORK/sload.f2fs
N_DUMP=$WORK/dump.f2fs
N_INJECT=$WORK/inject.f2fs

# clean IMG NAME: our fsck and upstream's both call IMG clean.
clean() {
	run_cmd "$FSCK" --dry-run "$1"
	if [ "$RC" -ne 0 ]; then
		fail "$2" "our fsck exited $RC: $(grep -a 'Fail\|PR_' "$WORK/last.out" | head -3)"
		return 1
	fi
	run_cmd "$N_FSCK" --dry-run "$1"
	if [ "$RC" -ne 0 ]; then
		fail "$2" "upstream fsck exited $RC"
		return 1
	fi
	pass "$2"
}

# same_fields NAME ARGS...: our dump's field lines equal upstream's.
same_fields() {
	local name=$1 d
	shift
	if d=$(diff <("$N_DUMP" "$@" </dev/null 2>&1 | field_lines) \
		<("$DUMP" "$@" </dev/null 2>&1 | field_lines)); then
		pass "$name"
	else
		fail "$name" "$(head -4 <<<"$d")"
	fi
}

# --- a fresh volume -----------------------------------------------------------

fresh=$WORK/fresh.img
truncate -s 256M "$fresh"
run_cmd "$N_MKFS" -f -b 16384 "$fresh"
[ "$RC" -eq 0 ] || { fail fresh "upstream mkfs -b 16384 exited $RC"; finish; }
clean "$fresh" fresh-clean
run_cmd "$FSCK" --dry-run "$fresh"
ours=$(grep -a 'Max image size\|total FS sectors' "$WORK/last.out")
run_cmd "$N_FSCK" --dry-run "$fresh"
theirs=$(grep -a 'Max image size\|total FS sectors' "$WORK/last.out")
if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
	pass fresh-sizes-in-mb
else
	fail fresh-sizes-in-mb "ours: $ours; upstream: $theirs"
fi
same_fields fresh-d1 -d 1 "$fresh"

# packed_ssa (4 KiB summaries in 16 KiB blocks) is not read yet: one line
img=$WORK/packed.img
truncate -s 256M "$img"
run_cmd "$N_MKFS" -f -b 16384 -O packed_ssa "$img"
if [ "$RC" -eq 0 ]; then
	REFUSE_IMAGE=$img expect_refusal packed-ssa-fsck 'packed_ssa with 16 KiB blocks: not supported' -- \
		"$FSCK" --dry-run "$img"
	REFUSE_IMAGE=$img expect_refusal packed-ssa-dump 'packed_ssa with 16 KiB blocks: not supported' -- \
		"$DUMP" -d 1 "$img"
else
	skip packed-ssa "upstream mkfs -O packed_ssa exited $RC"
fi

# --- loaded volumes ---------------------------------------------------------

SRC=$WORK/src
mkdir -p "$SRC/a/b/c" "$SRC/many" "$SRC/x"
echo hello >"$SRC/a/small"
head -c 100000 /dev/urandom >"$SRC/a/b/mid"
head -c 70000000 /dev/urandom >"$SRC/a/b/c/direct-nodes"
# past 3995 + 2 * 4090 blocks: the inode's indirect nodes are used
head -c 210000000 /dev/urandom >"$SRC/x/indirect-nodes"
ln -s small "$SRC/a/link"
ln -s "$(printf 'x%.0s' $(seq 1 300))" "$SRC/a/long-target"
for i in $(seq 1 1200); do echo "$i" >"$SRC/many/file-$i"; done # two dentry blocks

for feat in "" "extra_attr,inode_checksum,sb_checksum,inode_crtime,lost_found,quota,project_quota"; do
	name=loaded${feat:+-features}
	img=$WORK/$name.img
	rm -f "$img" && truncate -s 1G "$img"
	run_cmd "$N_MKFS" -f -b 16384 ${feat:+-O "$feat"} "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "upstream mkfs exited $RC"; continue; }
	# upstream's sload exits 1 with quotas on a clean result: its fsck judges
	run_cmd "$N_SLOAD" -f "$SRC" "$img"
	clean "$img" "$name-clean" || continue
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -L -o "$WORK/out" "$img"
	rm -rf "$WORK/out/lost+found"
	if [ "$RC" -ne 0 ]; then
		fail "$name-extract" "dump -r exited $RC: $(snippet "$WORK/last.err")"
	elif d=$(diff -r --no-dereference "$SRC" "$WORK/out" 2>&1); then
		pass "$name-extract"
	else
		fail "$name-extract" "$(head -c 300 <<<"$d")"
	fi
	same_fields "$name-d1" -d 1 "$img"
	# the root, and the inodes that own nodes (the files with direct and
	# with indirect nodes): the nid of a node names another inode
	rm -f dump_nat
	run_cmd "$N_DUMP" -n 0~-1 "$img"
	inos=$(awk -F'[: \t]+' '$2 != $4 { print $4 }' dump_nat 2>/dev/null | sort -un)
	[ "$(wc -w <<<"$inos")" -ge 2 ] || fail "$name-node-owners" "dump_nat names $inos"
	for ino in 3 $inos; do
		same_fields "$name-i-$ino" -i "$ino" "$img"
	done
done

# --- compressed files: clusters of 16 KiB blocks ---------------------------

CSRC=$WORK/csrc
mkdir -p "$CSRC"
for i in $(seq 1 40000); do echo "line $i of some compressible text"; done >"$CSRC/text.txt"
yes abc | head -c 5000000 >"$CSRC/big.txt"
head -c 300000 /dev/urandom >"$CSRC/rand.bin"
for alg in lz4 lzo; do
	name=compressed-$alg
	img=$WORK/$name.img
	rm -f "$img" && truncate -s 512M "$img"
	run_cmd "$N_MKFS" -f -b 16384 -O extra_attr,compression "$img"
	run_cmd "$N_SLOAD" -f "$CSRC" -c -a "$alg" -L 2 -x bin "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "upstream sload exited $RC"; continue; }
	# the three files are inodes 4..6: a compressible one must hold clusters
	if ! for ino in 4 5 6; do "$N_DUMP" -i "$ino" "$img" </dev/null 2>/dev/null; done |
		grep -aq '^i_compr_blocks .*: [1-9]'; then
		fail "$name" "upstream sload stored no compressed cluster"
		continue
	fi
	clean "$img" "$name-clean" || continue
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -o "$WORK/out" "$img"
	rm -rf "$WORK/out/lost+found"
	if [ "$RC" -eq 0 ] && d=$(diff -r "$CSRC" "$WORK/out" 2>&1); then
		pass "$name-extract"
	else
		fail "$name-extract" "exit $RC: ${d:-$(snippet "$WORK/last.err")}"
	fi
done

# --- corruptions: our verdict is upstream's ----------------------------------

base=$WORK/loaded.img
for c in "links|--node --mb i_links --nid 4 --val 7" \
	"i-nid|--node --mb i_nid --nid 4 --idx 0 --val 123456" \
	"nat-blkaddr|--nat 0 --mb block_addr --nid 4 --val 9" \
	"dentry-ino|--dent --mb d_ino --nid 4 --val 77777" \
	"i-mode|--node --mb i_mode --nid 4 --val 0x81a4"; do
	name=corrupt-${c%%|*}
	img=$WORK/c.img
	cp "$base" "$img"
	# shellcheck disable=SC2086
	run_cmd "$N_INJECT" ${c#*|} "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "upstream inject exited $RC"; continue; }
	run_cmd "$N_FSCK" --dry-run "$img"
	urc=$RC
	run_cmd "$FSCK" --dry-run "$img"
	if [ "$urc" -ne 0 ] && [ "$RC" -ne 0 ]; then
		pass "$name"
	else
		fail "$name" "upstream fsck exited $urc, ours $RC"
	fi
done

# --- writing tools refuse, and write nothing ---------------------------------

img=$WORK/refuse.img
cp "$base" "$img"
REFUSE_IMAGE=$img expect_refusal refuse-sload '16 KiB blocks: not supported' -- \
	"$SLOAD" -f "$SRC/a" "$img"
REFUSE_IMAGE=$img expect_refusal refuse-defrag '16 KiB blocks: not supported' -- \
	"$DEFRAG" -s 4096 -l 16 -t 8192 "$img"
REFUSE_IMAGE=$img expect_refusal refuse-replay '16 KiB blocks: not supported' -- \
	"${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}" replay seqwrite "$img"
REFUSE_IMAGE=$img expect_refusal refuse-inject '16 KiB blocks: not supported by inject' -- \
	"$INJECT" --node --mb i_links --nid 4 --val 9 "$img"
cp "$WORK/c.img" "$img" # the last corruption
before=$(fingerprint "$img")
run_cmd "$FSCK" -y "$img"
if [ "$RC" -ne 0 ] && [ "$(fingerprint "$img")" = "$before" ] &&
	grep -aq '16 KiB blocks: not supported' "$WORK/last.out"; then
	pass refuse-repair
else
	fail refuse-repair "exit $RC, image $([ "$(fingerprint "$img")" = "$before" ] && echo unchanged || echo CHANGED)"
fi

# --- the label goes to both superblock copies --------------------------------

img=$WORK/label.img
cp "$fresh" "$img"
run_cmd "$LABEL" "$img" sixteen
if [ "$RC" -eq 0 ] && "$N_DUMP" -d 1 "$img" </dev/null 2>&1 | grep -aq '^volum_name .*\[sixteen\]' &&
	[ "$(dd if="$img" bs=1 skip=$((1024 + 124)) count=14 status=none | od -An -tx1)" = \
		"$(dd if="$img" bs=1 skip=$((16384 + 1024 + 124)) count=14 status=none | od -An -tx1)" ]; then
	clean "$img" label-both-copies
else
	fail label-both-copies "exit $RC: $(snippet "$WORK/last.err")"
fi

finish
