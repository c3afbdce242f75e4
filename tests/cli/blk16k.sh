#!/bin/bash
# 16 KiB blocks (log_blocksize 14).  The x86 kernel cannot mount them, so
# newest upstream's fsck and dump judge.  Our side: mkfs.f2fs -b 16384 lays
# volumes out as newest upstream does (tests/cli/blk16k-layout.matrix and
# its checked-in table, through mkfs-layout.sh), and our sload, fsck -y,
# defrag and f2fs_io replay write such volumes that both fscks find clean,
# our dump -r extracting a loaded tree (xattrs, symlinks, a sparse file
# using indirect nodes, compressed files) equal to the source.  Upstream's
# side: volumes its mkfs and sload made read with our fsck and dump (fields
# as upstream's dump lists them, lz4 and lzo clusters), our fsck's verdict
# on corruptions made with upstream's inject is upstream's, and our fsck -y
# repairs them so that both fscks are clean.  packed_ssa (4 KiB summaries,
# four to a 16 KiB SSA block; upstream leaves it off unless asked): our mkfs
# makes it (and drops it at 4 KiB with upstream's line), our sload writes
# it, and its summaries read as upstream's dump lists them.  Our inject
# writes the bytes upstream's writes, field by field, packed_ssa included,
# and both fscks agree on the result.  fsck --rebuild rebuilds our loaded
# volumes (packed_ssa too, and with both NAT copies zeroed) so that both
# fscks are clean and dump -r gives the tree back.  (resize.f2fs on
# 16 KiB volumes: tests/cli/resize.sh.)  Without newest upstream built the cases that need it
# skip, and our fsck alone judges our volumes.
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

# our mkfs takes -b as newest upstream does: 4096 or 16384 (the sizes a kernel mounts)
pat=$WORK/pattern.img
make_pattern_image "$pat" $((64 << 20))
REFUSE_IMAGE=$pat expect_refusal mkfs-b8192 "invalid value for -b: '8192' \(expected 4096 or 16384\)" -- \
	"$MKFS" -f -b 8192 "$pat"
run_cmd "$MKFS" -q -f -b 4096 "$pat"
if [ "$RC" -eq 0 ] && "$FSCK" --dry-run "$pat" >/dev/null 2>&1; then
	pass mkfs-b4096
else
	fail mkfs-b4096 "mkfs exited $RC: $(snippet "$WORK/last.err")"
fi

# clean IMG NAME: our fsck and (when built) newest upstream's both call IMG clean.
clean() {
	run_cmd "$FSCK" --dry-run "$1"
	if [ "$RC" -ne 0 ]; then
		fail "$2" "our fsck exited $RC: $(grep -a 'Fail\|PR_' "$WORK/last.out" | head -3)"
		return 1
	fi
	if [ -x "$N_FSCK" ]; then
		run_cmd "$N_FSCK" --dry-run "$1"
		if [ "$RC" -ne 0 ] || grep -aq '\[Fail\]' "$WORK/last.out"; then
			fail "$2" "upstream fsck exited $RC: $(grep -a 'Fail' "$WORK/last.out" | head -2)"
			return 1
		fi
	fi
	pass "$2"
}

# extracted NAME IMG SRC [noxattr]: our dump -r of IMG equals the tree SRC,
# xattrs included unless told (upstream's sload, built without libattr, stores none).
extracted() {
	local d
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -L -o "$WORK/out" "$2"
	rm -rf "$WORK/out/lost+found"
	if [ "$RC" -ne 0 ]; then
		fail "$1" "dump -r exited $RC: $(snippet "$WORK/last.err")"
	elif ! d=$(diff -r --no-dereference "$3" "$WORK/out" 2>&1); then
		fail "$1" "$(head -c 300 <<<"$d")"
	elif [ -z "${4:-}" ] && command -v getfattr >/dev/null &&
		! d=$(diff <(cd "$3" && getfattr -R -h -d . 2>/dev/null) \
			<(cd "$WORK/out" && getfattr -R -h -d . 2>/dev/null)); then
		fail "$1" "xattrs differ: $(head -c 300 <<<"$d")"
	else
		pass "$1"
	fi
}

# --- our mkfs -b 16384: newest upstream's layout ----------------------------

reader=$TOP/dump/dump.f2fs
[ -x "$NEWEST/fsck/dump.f2fs" ] && reader=$NEWEST/fsck/dump.f2fs
while IFS= read -r line; do
	case $line in
	PASS:*) pass "layout ${line#PASS: }" ;;
	SKIP:*) skip "layout $(cut -d: -f2 <<<"$line" | sed 's/^ //')" "${line#SKIP: *: }" ;;
	*) r=${line#FAIL: } && fail "layout ${r%%: *}" "${r#*: }" ;;
	esac
done < <(UPSTREAM_DUMP=$reader UPSTREAM_NEWEST_MKFS=$N_MKFS UPSTREAM_NEWEST_DUMP=$NEWEST/fsck/dump.f2fs \
	LAYOUT_MATRIX=$TOP/tests/cli/blk16k-layout.matrix \
	LAYOUT_EXPECTED=$TOP/tests/cli/blk16k-layout.expected bash "$TOP/tests/cli/mkfs-layout.sh" 2>/dev/null)

# read-only: segment 0 right after the two superblock blocks (upstream puts it
# at byte 8192, block 0 at 16 KiB, over the superblock, and fails its own fsck)
img=$WORK/ro.img
truncate -s 1G "$img"
run_cmd "$MKFS" -q -f -b 16384 -O ro "$img"
s0=$("$DUMP" -d 1 "$img" 2>/dev/null | grep -a '^segment0_blkaddr' | sed -E 's/.*: *([0-9]+)\]$/\1/')
if [ "$RC" -ne 0 ] || [ "$s0" != 2 ]; then
	fail ro-segment0 "mkfs exit $RC, segment0_blkaddr ${s0:-none}"
else
	clean "$img" ro-segment0
fi

for o in "" "-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found,quota,project_quota,compression" "-s 4" "-i"; do
	img=$WORK/ours.img
	rm -f "$img" && truncate -s 1G "$img"
	# shellcheck disable=SC2086 # o is a list of options
	run_cmd "$MKFS" -q -f -b 16384 $o "$img"
	if [ "$RC" -ne 0 ]; then
		fail "mkfs-16k${o:+ $o}" "exit $RC: $(snippet "$WORK/last.err")"
	else
		clean "$img" "mkfs-16k${o:+ $o}"
	fi
done

# --- our sload on our 16 KiB volumes ------------------------------------------

OSRC=$WORK/osrc
mkdir -p "$OSRC/d/e" "$OSRC/many"
echo hi >"$OSRC/small"
head -c 3000 /dev/urandom >"$OSRC/d/inline"
head -c 20000 /dev/urandom >"$OSRC/d/e/blocks"
head -c 3000000 /dev/urandom >"$OSRC/d/direct"
# holes, and data past 3995 + 2 * 4090 blocks: the inode's indirect nodes
truncate -s 300M "$OSRC/sparse"
printf mid | dd of="$OSRC/sparse" bs=1 seek=$((100 << 20)) conv=notrunc status=none
printf tail | dd of="$OSRC/sparse" bs=1 seek=$(((300 << 20) - 4)) conv=notrunc status=none
ln -s small "$OSRC/link"
ln -s "$(printf 'y%.0s' $(seq 1 300))" "$OSRC/d/long-target"
for i in $(seq 1 1500); do echo "$i" >"$OSRC/many/f-$i"; done # two dentry blocks
if command -v setfattr >/dev/null; then
	setfattr -n user.small -v hello "$OSRC/small"
	setfattr -n user.big -v "$(head -c 2000 /dev/zero | tr '\0' x)" "$OSRC/d/e/blocks"
fi
[ -d /usr/include/linux ] && cp -r /usr/include/linux "$OSRC/include"

for feat in "" "extra_attr,inode_checksum,sb_checksum,inode_crtime,lost_found,quota,project_quota"; do
	name=our-sload${feat:+-features}
	img=$WORK/$name.img
	rm -f "$img" && truncate -s 1G "$img"
	run_cmd "$MKFS" -q -f -b 16384 ${feat:+-O "$feat"} "$img"
	run_cmd "$SLOAD" -f "$OSRC" "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "sload exited $RC: $(snippet "$WORK/last.err")"; continue; }
	clean "$img" "$name-clean" && extracted "$name-extract" "$img" "$OSRC"
done

CSRC=$WORK/csrc
mkdir -p "$CSRC"
for i in $(seq 1 40000); do echo "line $i of some compressible text"; done >"$CSRC/text.txt"
yes abc | head -c 5000000 >"$CSRC/big.txt"
head -c 300000 /dev/urandom >"$CSRC/rand.bin"
for c in "lz4|" "lzo|-r"; do
	alg=${c%%|*}
	name=our-sload-$alg${c#*|}
	img=$WORK/$name.img
	rm -f "$img" && truncate -s 512M "$img"
	run_cmd "$MKFS" -q -f -b 16384 -O extra_attr,compression "$img"
	# shellcheck disable=SC2086 # the -r, or nothing
	run_cmd "$SLOAD" -f "$CSRC" -c -a "$alg" -L 2 ${c#*|} "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "sload exited $RC: $(snippet "$WORK/last.err")"; continue; }
	if [ -z "${c#*|}" ] && ! for ino in 4 5 6; do "$DUMP" -i "$ino" "$img" </dev/null 2>/dev/null; done |
		grep -aq '^i_compr_blocks .*: [1-9]'; then
		fail "$name" "no compressed cluster stored"
		continue
	fi
	clean "$img" "$name-clean" && extracted "$name-extract" "$img" "$CSRC"
done

# --- f2fs_io replay on a 16 KiB volume -----------------------------------------

img=$WORK/replay.img
truncate -s 2G "$img"
for wl in seqwrite tiotest; do
	if out=$(F2FS_REPLAY_MKFS=$MKFS timeout -k 5 "$CMD_TIMEOUT" "${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}" \
		replay --mkfs "-b 16384" --device-model 400,20000,1 --count 20 --file-size 8M \
		--no-progress "$wl" "$img" 2>&1) &&
		grep -q 'content check: [1-9][0-9]* files read back, 0 differ' <<<"$out"; then
		clean "$img" "replay-$wl"
	else
		fail "replay-$wl" "$(tail -2 <<<"$out")"
	fi
done

# --- defrag moves blocks of a 16 KiB volume --------------------------------------

img=$WORK/defrag.img
cp --sparse=always "$WORK/our-sload.img" "$img"
run_cmd "$DEFRAG" -s 4096 -l 64 -t 16384 "$img"
if [ "$RC" -eq 0 ] && grep -aq ' [1-9][0-9]* moved' "$WORK/last.out"; then
	clean "$img" defrag-16k && extracted defrag-16k-extract "$img" "$OSRC"
else
	fail defrag-16k "exit $RC: $(snippet "$WORK/last.out")"
fi

# --- packed_ssa: 4 KiB summaries, four to a 16 KiB SSA block ----------------------

# at 4 KiB there is nothing to pack: dropped with upstream's line
img=$WORK/packed4k.img
rm -f "$img" && truncate -s 256M "$img"
run_cmd "$MKFS" -f -O packed_ssa "$img"
if [ "$RC" -eq 0 ] && grep -q '^	Info: packed_ssa feature is disabled for 4k block\.$' "$WORK/last.out" &&
	"$DUMP" -d 1 "$img" 2>/dev/null | grep -aq '^feature .*\[0x *0 : 0\]'; then
	pass packed-ssa-4k-dropped
else
	fail packed-ssa-4k-dropped "exit $RC: $(snippet "$WORK/last.out")"
fi

img=$WORK/our-packed.img
rm -f "$img" && truncate -s 1G "$img"
run_cmd "$MKFS" -q -f -b 16384 -O packed_ssa "$img"
if [ "$RC" -ne 0 ]; then
	fail our-packed "mkfs exited $RC: $(snippet "$WORK/last.err")"
elif ! "$DUMP" -d 1 "$img" 2>/dev/null | grep -aq '^feature .*: 65536\]'; then
	fail our-packed "no packed_ssa bit in the superblock"
else
	clean "$img" our-packed-mkfs
	run_cmd "$SLOAD" -f "$OSRC" "$img"
	if [ "$RC" -ne 0 ]; then
		fail our-packed-sload "sload exited $RC: $(snippet "$WORK/last.err")"
	else
		clean "$img" our-packed-sload-clean && extracted our-packed-sload-extract "$img" "$OSRC"
	fi
fi

# --- fsck --rebuild on 16 KiB volumes ----------------------------------------------

# field IMG NAME: a superblock field's value, as our dump -d 1 prints it
sb_field() {
	"$DUMP" -d 1 "$1" 2>/dev/null | grep -a "^$2 " | sed -E 's/.*: *([0-9]+)\]$/\1/'
}

# rebuilt NAME IMG SRC: fsck --rebuild -y IMG, then both fscks clean and the tree back
rebuilt() {
	run_cmd "$FSCK" --rebuild -y "$2"
	if [ "$RC" -ne 1 ] || ! grep -aq 'Rebuild from a scan' "$WORK/last.out"; then
		fail "$1" "fsck --rebuild exited $RC: $(snippet "$WORK/last.err")"
		return
	fi
	clean "$2" "$1-clean" && extracted "$1-extract" "$2" "$3"
}

for src in our-sload our-packed; do
	[ -f "$WORK/$src.img" ] || continue
	img=$WORK/rebuild.img
	cp --sparse=always "$WORK/$src.img" "$img"
	rebuilt "rebuild-$src" "$img" "$OSRC"
	# both NAT copies gone: only the scan of the main area knows the nodes
	cp --sparse=always "$WORK/$src.img" "$img"
	nat=$(sb_field "$img" nat_blkaddr)
	nsegs=$(sb_field "$img" segment_count_nat)
	dd if=/dev/zero of="$img" bs=16384 seek="$nat" count=$((nsegs * 512)) conv=notrunc status=none
	rebuilt "rebuild-$src-no-nat" "$img" "$OSRC"
done

if [ ! -x "$N_MKFS" ] || [ ! -x "$N_FSCK" ]; then
	skip upstream-16k "newest upstream ($NEWEST) not built: no mkfs.f2fs -b 16384"
	finish
fi
# upstream's tools are one program that acts by the name it is called by
for t in sload dump inject; do ln -s "$N_FSCK" "$WORK/$t.f2fs"; done
N_SLOAD=$WORK/sload.f2fs
N_DUMP=$WORK/dump.f2fs
N_INJECT=$WORK/inject.f2fs

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

# same_ssa NAME IMG: our dump -a writes the summaries upstream's does.
same_ssa() {
	rm -f dump_ssa
	"$N_DUMP" -a 0~-1 "$2" </dev/null >/dev/null 2>&1 && mv dump_ssa "$WORK/ssa.theirs"
	"$DUMP" -a 0~-1 "$2" </dev/null >/dev/null 2>&1
	if [ -s "$WORK/ssa.theirs" ] && cmp -s dump_ssa "$WORK/ssa.theirs"; then
		pass "$1"
	else
		fail "$1" "dump_ssa differs: $(diff "$WORK/ssa.theirs" dump_ssa 2>&1 | head -3 | tr '\n' ' ')"
	fi
	rm -f dump_ssa "$WORK/ssa.theirs"
}

# verdicts NAME IMG INJECT-ARGS...: upstream's inject breaks IMG, both fscks
# call it broken, and our fsck -y repairs it so that both call it clean.
verdicts() {
	local name=$1 img=$2 urc
	shift 2
	run_cmd "$N_INJECT" "$@" "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "upstream inject exited $RC"; return 1; }
	run_cmd "$N_FSCK" --dry-run "$img"
	urc=$RC
	run_cmd "$FSCK" --dry-run "$img"
	if [ "$urc" -eq 0 ] || [ "$RC" -eq 0 ]; then
		fail "$name" "upstream fsck exited $urc, ours $RC"
		return 1
	fi
	pass "$name"
	run_cmd "$FSCK" -y "$img"
	if [ "$RC" -ne 1 ]; then
		fail "$name-repair" "fsck -y exited $RC: $(snippet "$WORK/last.err")"
	else
		clean "$img" "$name-repair"
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

# packed_ssa: upstream's volumes read as upstream reads them; our loaded
# volume's SSA as upstream's dump lists it, and our fsck's verdict on a
# summary upstream's inject broke is upstream's
img=$WORK/packed.img
rm -f "$img" && truncate -s 1G "$img"
run_cmd "$N_MKFS" -f -b 16384 -O packed_ssa "$img"
if [ "$RC" -eq 0 ]; then
	same_fields packed-ssa-d1 -d 1 "$img"
	run_cmd "$N_SLOAD" -f "$OSRC" "$img"
	clean "$img" packed-ssa-upstream-sload && extracted packed-ssa-upstream-extract "$img" "$OSRC" noxattr
	same_ssa packed-ssa-upstream-ssa "$img"
	if [ -f "$WORK/our-packed.img" ]; then
		same_ssa packed-ssa-our-ssa "$WORK/our-packed.img"
		# block 5 of segment 1 (a full warm node one): four summaries to a block
		cp "$WORK/our-packed.img" "$img"
		main=$("$DUMP" -d 1 "$img" 2>/dev/null | grep -a '^main_blkaddr' | sed -E 's/.*: *([0-9]+)\]$/\1/')
		verdicts packed-ssa-corrupt "$img" --ssa --mb nid --blk $((main + 512 + 5)) --val 77
	fi
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
		continue
	fi
	# our repair: both fscks clean after it, the tree still there
	run_cmd "$FSCK" -y "$img"
	if [ "$RC" -ne 1 ]; then
		fail "$name-repair" "fsck -y exited $RC: $(snippet "$WORK/last.err")"
	else
		clean "$img" "$name-repair"
	fi
done

# --- inject: our inject writes what upstream's writes ----------------------------

# same_inject NAME IMG ARGS...: both injects on copies of IMG leave the same
# bytes, and both fscks give the same verdict (clean or not) on the result.
same_inject() {
	local name=$1 base=$2 urc
	shift 2
	cp --sparse=always "$base" "$WORK/inj-u.img"
	cp --sparse=always "$base" "$WORK/inj-o.img"
	run_cmd "$N_INJECT" "$@" "$WORK/inj-u.img"
	urc=$RC
	run_cmd "$INJECT" "$@" "$WORK/inj-o.img"
	if [ "$urc" -ne 0 ] || [ "$RC" -ne 0 ]; then
		fail "$name" "inject exited: upstream $urc, ours $RC: $(snippet "$WORK/last.err")"
		return
	fi
	if ! cmp -s "$WORK/inj-u.img" "$WORK/inj-o.img"; then
		fail "$name" "images differ: $(cmp "$WORK/inj-u.img" "$WORK/inj-o.img" | head -1)"
		return
	fi
	run_cmd "$N_FSCK" --dry-run "$WORK/inj-u.img"
	urc=$RC
	run_cmd "$FSCK" --dry-run "$WORK/inj-o.img"
	if [ $((urc != 0)) -ne $((RC != 0)) ]; then
		fail "$name" "verdicts differ: upstream fsck exited $urc, ours $RC"
	else
		pass "$name"
	fi
}

# main_blkaddr IMG
main_blkaddr() {
	"$DUMP" -d 1 "$1" 2>/dev/null | grep -a '^main_blkaddr' | sed -E 's/.*: *([0-9]+)\]$/\1/'
}

# every structure, and the arrays as long as a 16 KiB block makes them
# (i_addr[] past 923, addr[] past 1018, entries[] past 512); the second
# superblock's magic is left out: our fsck reports a rejected copy, upstream's
# says nothing (as at 4 KiB)
base=$WORK/loaded-features.img
main=$(main_blkaddr "$base")
rm -f dump_nat
run_cmd "$N_DUMP" -n 0~-1 "$base"
# a node that is not an inode, and a file that owns one (a file in a directory)
read -r dnid fino < <(awk -F'[: \t]+' '$2 != $4 { print $2, $4; exit }' dump_nat 2>/dev/null)
rm -f dump_nat
seg5=$((main + 5 * 512 + 1))
while IFS='|' read -r name args; do
	# shellcheck disable=SC2086 # args is a list of options
	same_inject "inject-$name" "$base" $args
done <<EOF
sb-feature|--sb 1 --mb feature --val 0x1
sb-errors|--sb 2 --mb s_errors --idx 3 --val 5
cp-version|--cp 0 --mb checkpoint_ver --val 5
cp-crc|--cp 1 --mb crc --val 0x1234
cp-blkoff|--cp 0 --mb cur_data_blkoff --idx 0 --val 7
nat-blkaddr|--nat 0 --mb block_addr --nid 5 --val 9
nat-ino|--nat 0 --mb ino --nid ${dnid:-5} --val 4
nat-version|--nat 2 --mb version --nid 5 --val 1
sit-vblocks|--sit 0 --mb vblocks --blk $seg5 --val 3
sit-map|--sit 0 --mb valid_map --blk $seg5 --idx 3 --val 255
sit-mtime|--sit 0 --mb mtime --blk $seg5 --val 99
ssa-nid|--ssa --mb nid --blk $seg5 --val 7
ssa-type|--ssa --mb entry_type --blk $seg5 --val 1
ssa-idx1000|--ssa --mb nid --blk $seg5 --idx 1000 --val 7
ssa-ofs|--ssa --mb ofs_in_node --blk $seg5 --val 3
inode-mode|--node --mb i_mode --nid 4 --val 0x41ed
inode-links|--node --mb i_links --nid 4 --val 7
inode-addr3000|--node --mb i_addr --nid 4 --idx 3000 --val 77
inode-nid|--node --mb i_nid --nid 4 --idx 2 --val 77
inode-chksum|--node --mb i_inode_checksum --nid 4 --val 7
node-addr4000|--node --mb addr --nid ${dnid:-5} --idx 4000 --val 77
footer-nid|--node --mb nid --nid ${dnid:-5} --val 11
footer-flag|--node --mb flag --nid 4 --val 3
dent-ino|--dent --mb d_ino --nid ${fino:-4} --val 77
dent-dot-hash|--dent --dots 1 --mb d_hash --nid 3 --val 1
dent-name|--dent --mb filename --nid ${fino:-4} --str zz
EOF

# packed_ssa: a segment's summary is its quarter of an SSA block
if [ -f "$WORK/our-packed.img" ]; then
	pmain=$(main_blkaddr "$WORK/our-packed.img")
	# closed segments only: an open log's summary is the checkpoint's
	open=" $("$DUMP" -d 1 "$WORK/our-packed.img" 2>/dev/null | grep -a '^cur_.*_segno' |
		sed -E 's/.*: *([0-9]+)\]$/\1/' | tr '\n' ' ')"
	for k in $(seq 1 12 | grep -vxF -f <(tr ' ' '\n' <<<"$open" | grep .) | head -3); do
		same_inject "inject-packed-ssa-seg$k" "$WORK/our-packed.img" --ssa --mb nid \
			--blk $((pmain + k * 512 + 5)) --val 7
	done
	same_inject inject-packed-ssa-footer "$WORK/our-packed.img" --ssa --mb check_sum \
		--blk $((pmain + 4 * 512)) --val 9
	REFUSE_IMAGE=$WORK/our-packed.img expect_refusal inject-packed-ssa-idx 'out of range for entries' -- \
		"$INJECT" --ssa --mb nid --blk $((pmain + 512 + 5)) --idx 600 --val 7 "$WORK/our-packed.img"
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
