#!/bin/bash
# fsck.f2fs against corrupted images: build one populated image (our mkfs,
# then upstream sload.f2fs from a generated tree), check that both our fsck
# and upstream's find it clean, then for every case copy it, change ONE
# on-disk field with our inject.f2fs and require that our fsck exits 4 (or
# 8 where the volume cannot be read) naming the expected PR_ code.  Upstream
# fsck.f2fs --dry-run -f is run on the same image; when it does not notice
# the corruption the case name says "upstream-misses" instead of failing.
# The cases for i_ext, xattrs, inline data, inode flags, SSA types and
# versions, i_pino and lost subtrees corrupt the kernel-written image of
# tests/fuzz/images (it has extents, xattrs and inline files sload does
# not make) and also require upstream's own line where it has one.  Also
# checks inject.f2fs's refusals and --dry-run.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
WRTOOL=${WRTOOL:-$TOP/tests/cli/wrtool}
SLOAD=${SLOAD:-/usr/sbin/sload.f2fs}

for b in "$FSCK" "$INJECT"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done
if [ ! -x "$SLOAD" ]; then
	skip all "upstream sload.f2fs ($SLOAD) is not installed"
	finish
fi
HAVE_UP=0
have_upstream fsck && HAVE_UP=1

# --- the base image -----------------------------------------------------------

TREE=$WORK/tree
mkdir -p "$TREE/a/b/c" "$TREE/d"
echo hello >"$TREE/small.txt"
echo x >"$TREE/a/b/c/deep"
head -c 6000000 /dev/urandom >"$TREE/big.bin"   # direct and indirect nodes
head -c 10000 /dev/urandom >"$TREE/a/mid.bin"
ln "$TREE/small.txt" "$TREE/d/hard.txt"
ln -s ../small.txt "$TREE/d/sym"
for i in $(seq 1 30); do echo "$i" >"$TREE/d/f$i"; done
echo long >"$TREE/d/a_rather_long_file_name.txt"

BASE=$WORK/base.img
truncate -s 256M "$BASE"
# not flexible_inline_xattr: sload.f2fs 1.15 then writes the data addresses
# of a big file into its inline xattr area (the kernel reads other data and
# fails listxattr on it)
run_cmd "$MKFS" -q -f -O extra_attr,inode_checksum "$BASE"
if [ "$RC" -ne 0 ]; then
	fail setup "mkfs exited $RC: $(snippet "$WORK/last.err")"
	finish
fi
# sload.f2fs exits 1 even when it loaded everything: judge by fsck below.
timeout -k 5 "$CMD_TIMEOUT" "$SLOAD" -f "$TREE" "$BASE" </dev/null >"$WORK/sload.out" 2>&1

run_cmd "$FSCK" "$BASE"
if [ "$RC" -ne 0 ]; then
	fail base-clean-ours "our fsck exited $RC: $(grep PR_ "$WORK/last.out" | head -3)"
	finish
fi
pass base-clean-ours
if [ "$HAVE_UP" = 1 ]; then
	fsck_run "$BASE" "$WORK/up.base"
	if [ "$RC" -ne 0 ]; then
		fail base-clean-upstream "upstream fsck exited $RC"
		finish
	fi
	pass base-clean-upstream
fi

# --- finding things -------------------------------------------------------------

# getv INJECT-ARGS...: the current value of a field, read with a dry run
# (the decimal before "->" in inject's Info line).
getv() {
	"$INJECT" --dry-run "$@" --val 0 "$BASE" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}

# nid_of NAME: inode number of the file NAME (upstream dump.f2fs).
declare -A NID
for n in $(seq 3 60); do
	nm=$("$UPSTREAM_DUMP" -i "$n" "$BASE" 2>/dev/null | sed -n 's/^i_name[[:space:]]*\[\(.*\)\]$/\1/p')
	[ -n "$nm" ] && [ -z "${NID[$nm]:-}" ] && NID[$nm]=$n
done
for nm in a big.bin d small.txt b mid.bin f1 f2 a_rather_long_file_name.txt; do
	if [ -z "${NID[$nm]:-}" ]; then
		fail setup "cannot find the inode of $nm with dump.f2fs"
		finish
	fi
done
ROOT=3
DIR_A=${NID[a]}
DIR_B=${NID[b]}
DIR_D=${NID[d]}
BIG=${NID[big.bin]}
MID=${NID[mid.bin]}
SMALL=${NID[small.txt]}
F1=${NID[f1]}
F2=${NID[f2]}
LONG=${NID[a_rather_long_file_name.txt]}
BIG_DNODE=$(getv --node --nid "$BIG" --mb i_nid --idx 0)
FIRST=$(($(getv --node --nid "$BIG" --mb i_extra_isize) / 4)) # first data slot of i_addr
BIG_BLK=$(getv --node --nid "$BIG" --mb i_addr --idx "$FIRST")
MID_BLK=$(getv --node --nid "$MID" --mb i_addr --idx "$FIRST")
F1_NODE=$(getv --nat 0 --nid "$F1" --mb block_addr)
MAIN=$(getv --sb 1 --mb main_blkaddr)
SEGS_MAIN=$(getv --sb 1 --mb segment_count_main)
FREE_BLK=$((MAIN + (SEGS_MAIN - 2) * 512 + 7)) # in a free segment near the end
LONG_SLOT=$("$INJECT" --dry-run --dent --nid "$LONG" --mb d_hash --val 0 "$BASE" |
	sed -n 's/.*dentry slot \([0-9]*\) of directory.*/\1/p')
F1_SLOT=$("$INJECT" --dry-run --dent --nid "$F1" --mb d_hash --val 0 "$BASE" |
	sed -n 's/.*dentry slot \([0-9]*\) of directory.*/\1/p')
for v in BIG_DNODE FIRST BIG_BLK MID_BLK F1_NODE MAIN SEGS_MAIN LONG_SLOT F1_SLOT; do
	if [ -z "${!v}" ]; then
		fail setup "cannot read $v with inject.f2fs --dry-run"
		finish
	fi
done

# --- one case ---------------------------------------------------------------------

IMG=$WORK/case.img

# prep [IMAGE]: a fresh copy of the base image (or of IMAGE).
prep() {
	rm -f "$IMG"
	cp --sparse=always "${1:-$BASE}" "$IMG"
	INJ_OK=1
}

# inj ARGS...: one inject.f2fs call on the case image.
inj() {
	run_cmd "$INJECT" "$@" "$IMG"
	if [ "$RC" -ne 0 ]; then
		INJ_OK=0
		INJ_ERR="inject $* exited $RC: $(snippet "$WORK/last.err")"
	fi
}

# verdict NAME CODE [RC]: our fsck must exit RC (default 4) and, for 4,
# print a CODE line (CODE is an extended regex, e.g. "PR_A|PR_B"; a warning's
# line starts "Info:"); for 8,
# mention CODE.  Upstream fsck must notice (else the name says so).
verdict() {
	local name=$1 code=$2 want=${3:-4} ours up_note=''
	if [ "$INJ_OK" != 1 ]; then
		fail "$name" "$INJ_ERR"
		return
	fi
	if [ "$HAVE_UP" = 1 ]; then
		fsck_run "$IMG" "$WORK/up.case"
		if [ "$RC" -eq 0 ] && [ -z "$(fsck_problems "$WORK/up.case" "$WORK/up.base")" ] &&
			! grep -Eq 'ASSERT|Error:' "$WORK/up.case"; then
			up_note=' upstream-misses'
		fi
	fi
	name="$name$up_note"
	run_cmd "$FSCK" "$IMG"
	ours=$RC
	if [ "$ours" -ne "$want" ]; then
		fail "$name" "our fsck exited $ours, expected $want: $(grep -o 'PR_[A-Z_]*' "$WORK/last.out" | sort -u | tr '\n' ' ') $(snippet "$WORK/last.err")"
	elif [ "$want" -eq 4 ] && ! grep -Eq "^(\[FSCK\]|Info:) ($code): " "$WORK/last.out"; then
		fail "$name" "no $code line; got: $(grep -o 'PR_[A-Z_]*' "$WORK/last.out" | sort -u | tr '\n' ' ')"
	elif [ "$want" -eq 8 ] && ! grep -qi "$code" "$WORK/last.err" "$WORK/last.out"; then
		fail "$name" "exit 8 but no /$code/ in the message: $(snippet "$WORK/last.err")"
	else
		pass "$name"
	fi
}

# one_field NAME CODE INJECT-ARGS...: the usual case, one inject call on a
# fresh copy of the base image, and the verdict on "NAME CODE".
one_field() {
	local name=$1 code=$2
	shift 2
	prep
	inj "$@"
	verdict "$name $code" "$code"
}

# plus VAR DELTA: VAR's value plus DELTA.
plus() { echo $(($1 + $2)); }

# --- superblock ---------------------------------------------------------------------

one_field sb1-magic PR_SB_INVALID --sb 1 --mb magic --val 0

one_field sb2-log_blocksize PR_SB_INVALID --sb 2 --mb log_blocksize --val 13

prep; inj --sb 1 --mb segment_count_nat --val 1000; inj --sb 2 --mb segment_count_nat --val 1000
verdict "sb-both-segment_count_nat exit-8" superblock 8

# --- checkpoint ---------------------------------------------------------------------

# a pack torn by a power cut, or an old pack with bad values: the pack in
# use is the other one, as for the kernel, and the check passes with an
# Info line naming the rejected pack.  (Tearing the pack in use here would
# leave the older pack describing blocks sload overwrote since.)
prep
cur=$("$INJECT" --dry-run --cp 0 --mb crc --val 1 "$IMG" 2>/dev/null | sed -n 's/^Info: inject crc of cp \([12]\):.*/\1/p')
inj --cp $((3 - ${cur:-1})) --mb crc --val 0x12345678
run_cmd "$FSCK" "$IMG"
if [ "$RC" -eq 0 ] && grep -Eq "^Info: PR_CP_INVALID: .*checkpoint pack $((3 - ${cur:-1})) rejected.*using pack ${cur:-1}" "$WORK/last.out" &&
	! grep -q '^\[FSCK\] PR_' "$WORK/last.out"; then
	pass "cp-other-crc PR_CP_INVALID torn-pack-is-info"
else
	fail "cp-other-crc PR_CP_INVALID torn-pack-is-info" "rc $RC: $(grep -m2 'PR_' "$WORK/last.out" | tr '\n' ' ')"
fi

# the newest pack with valid checksums but a log past the main area: the kernel
# takes it and refuses to mount (no fallback), so it is an error, not an Info line
one_field cp-newest-cur_node_segno PR_CP_NEWEST_INSANE --cp 0 --mb cur_node_segno --idx 1 --val 99999
# two node logs on one segment (upstream: "Incorrect curseg"; the kernel: "Node segment
# (0, 1) has the same segno")
one_field cp-newest-two-logs-one-segment PR_CP_NEWEST_INSANE --cp 0 --mb cur_node_segno --idx 0 --val "$(getv --cp 0 --mb cur_node_segno --idx 1)"
# a repair rolls the volume back to the older pack: preen mode writes nothing, -y repairs
sum=$(md5sum <"$IMG")
run_cmd "$FSCK" -p "$IMG"
if [ "$RC" -eq 4 ] && [ "$(md5sum <"$IMG")" = "$sum" ] &&
	grep -q 'not repaired: any repair would roll the volume back' "$WORK/last.out"; then
	pass "cp-newest-insane preen-writes-nothing"
else
	fail "cp-newest-insane preen-writes-nothing" "rc $RC: $(grep -m1 'repaired' "$WORK/last.out")"
fi
# a writer other than fsck refuses it: it would roll the volume back unasked
mkdir -p "$WORK/empty"
run_cmd "${OUR_SLOAD:-$TOP/sload/sload.f2fs}" -f "$WORK/empty" "$IMG"
if [ "$RC" -ne 0 ] && [ "$(md5sum <"$IMG")" = "$sum" ] &&
	[ "$(wc -l <"$WORK/last.err")" -eq 1 ] && grep -q 'the newest) is insane' "$WORK/last.err"; then
	pass "cp-newest-insane sload-refuses"
else
	fail "cp-newest-insane sload-refuses" "rc $RC: $(head -2 "$WORK/last.err")"
fi

one_field cp-valid_block_count PR_COUNT_VALID_BLOCKS --cp 0 --mb valid_block_count --val "$(plus "$(getv --cp 0 --mb valid_block_count)" 1)"

one_field cp-valid_node_count PR_COUNT_VALID_NODES --cp 0 --mb valid_node_count --val "$(plus "$(getv --cp 0 --mb valid_node_count)" 1)"

one_field cp-valid_inode_count PR_COUNT_VALID_INODES --cp 0 --mb valid_inode_count --val "$(plus "$(getv --cp 0 --mb valid_inode_count)" -1)"

one_field cp-free_segment_count PR_SIT_FREE_COUNT --cp 0 --mb free_segment_count --val "$(plus "$(getv --cp 0 --mb free_segment_count)" -3)"

# The warm data log (1) is partly written: point its next block at a used
# one.  sload leaves every log in SSR mode (alloc_type 1); the next block
# must be free in both modes.
WARM_OFF=$(getv --cp 0 --mb cur_data_blkoff --idx 1)
one_field cp-cur_data_blkoff-used-ssr-log PR_CURSEG_NEXT_USED --cp 0 --mb cur_data_blkoff --idx 1 --val $((WARM_OFF - 1))

prep; inj --cp 0 --mb alloc_type --idx 1 --val 0; inj --cp 0 --mb cur_data_blkoff --idx 1 --val $((WARM_OFF - 1))
verdict "cp-cur_data_blkoff-used-lfs-log PR_CURSEG_NEXT_USED" PR_CURSEG_NEXT_USED

# --- NAT ------------------------------------------------------------------------------

one_field nat-block_addr-outside-main PR_NAT_ADDR_RANGE --nat 0 --nid "$F1" --mb block_addr --val 5

one_field nat-dnode-ino-wrong PR_NAT_INO --nat 0 --nid "$BIG_DNODE" --mb ino --val "$MID"

one_field nat-unused-nid-in-use PR_NAT_UNREACHABLE --nat 0 --nid 300 --mb block_addr --val "$F1_NODE"

# the same entry counted: the NAT holds one valid entry more than the checkpoint says
one_field nat-unused-nid-counted PR_COUNT_NAT_NODES --nat 0 --nid 300 --mb block_addr --val "$F1_NODE"

one_field nat-root-free PR_ROOT_INODE --nat 0 --nid "$ROOT" --mb block_addr --val 0

# --- SIT ------------------------------------------------------------------------------

VB=$(getv --sit 0 --blk "$MID_BLK" --mb vblocks)
one_field sit-vblocks-too-big PR_SIT_VBLOCKS --sit 0 --blk "$MID_BLK" --mb vblocks --val $(((VB & ~1023) | 600))

one_field sit-vblocks-off-by-one PR_SIT_BITMAP_COUNT --sit 0 --blk "$MID_BLK" --mb vblocks --val $((VB - 1))

one_field sit-bit-cleared-used-block PR_BLK_NOT_IN_SIT --sit 0 --blk "$MID_BLK" --mb valid_bit --val 0

one_field sit-bit-set-free-block PR_BLK_SIT_EXTRA --sit 0 --blk "$FREE_BLK" --mb valid_bit --val 1

one_field sit-type-out-of-range PR_SIT_TYPE --sit 0 --blk "$MID_BLK" --mb type --val 9

one_field sit-node-segment-as-data PR_SIT_TYPE_MISMATCH --sit 0 --blk "$F1_NODE" --mb type --val 1

# --- SSA ------------------------------------------------------------------------------

one_field ssa-nid PR_SSA_MISMATCH --ssa --blk "$BIG_BLK" --mb nid --val 9999

# --- node footers ---------------------------------------------------------------------

one_field node-footer-nid PR_NODE_FOOTER_NID --node --nid "$F1" --mb nid --val "$F2"

one_field node-footer-ino PR_NODE_FOOTER_INO --node --nid "$BIG_DNODE" --mb ino --val "$MID"

one_field node-offset PR_NODE_OFFSET --node --nid "$BIG_DNODE" --mb ofs --val 5

# big.bin's second direct-node slot (unused: the file ends in the first) names a free nid
one_field inode-i_nid-free PR_NODE_NID_FREE --node --nid "$BIG" --mb i_nid --idx 1 --val 400

# ... or its first direct node again
one_field inode-i_nid-shared PR_NODE_REACHED_TWICE --node --nid "$BIG" --mb i_nid --idx 1 --val "$BIG_DNODE"

# --- inodes ---------------------------------------------------------------------------

one_field inode-i_mode-0 PR_INODE_MODE --node --nid "$F1" --mb i_mode --val 0

one_field inode-i_links-hardlink PR_INODE_LINKS --node --nid "$SMALL" --mb i_links --val 1

one_field inode-i_blocks PR_INODE_BLOCKS --node --nid "$MID" --mb i_blocks --val "$(plus "$(getv --node --nid "$MID" --mb i_blocks)" 2)"

one_field inode-i_namelen-long PR_INODE_NAMELEN --node --nid "$F1" --mb i_namelen --val 300

one_field dir-i_size-not-blocks PR_INODE_SIZE --node --nid "$DIR_D" --mb i_size --val "$(plus "$(getv --node --nid "$DIR_D" --mb i_size)" 1)"

# i_current_depth past MAX_DIR_HASH_DEPTH: the kernel warns "Corrupted max_depth"
one_field dir-depth-past-most PR_DIR_DEPTH --node --nid "$DIR_D" --mb i_current_depth --val 64

# the encryption advise bit on a volume without encryption: no key applies, and with
# inline data the kernel refuses the inode ("should not have inline_data")
one_field advise-encrypt-no-feature PR_INODE_ADVISE --node --nid "$SMALL" --mb i_advise --val 4

# a name with a NUL byte (one more byte of d_name_len takes in the padding): listed
# by the kernel, reached by no path
one_field dent-name-nul PR_DENT_NAME_CHARS --dent --nid "$F1" --mb d_name_len --val 3

# an i_dir_level past the 63 the dir_level option allows: no lookup finds a name
one_field dir-level-huge PR_DIR_LEVEL --node --nid "$DIR_D" --mb i_dir_level --val 200

# the root's footer naming another inode: only the footer can be fixed
one_field root-footer-ino PR_ROOT_FOOTER --node --nid 3 --mb ino --val 9

one_field inode-i_extra_isize-odd PR_INODE_EXTRA_ISIZE --node --nid "$F1" --mb i_extra_isize --val 13

one_field inode-checksum PR_INODE_CHECKSUM --node --nid "$F1" --mb i_inode_checksum --val 0x1234

one_field inode-i_xattr_nid-free PR_INODE_XATTR_NID --node --nid "$F1" --mb i_xattr_nid --val 400

one_field inode-i_addr-outside-main PR_BLK_RANGE --node --nid "$MID" --mb i_addr --idx "$FIRST" --val 1

one_field two-files-share-a-block PR_BLK_REACHED_TWICE --node --nid "$MID" --mb i_addr --idx "$FIRST" --val "$BIG_BLK"

one_field dir-with-inline-data-flag PR_INODE_INLINE --node --nid "$DIR_B" --mb i_inline --val 3

# --- dentries -------------------------------------------------------------------------

one_field dent-hash PR_DENT_HASH --dent --nid "$F1" --mb d_hash --val 0x1234

one_field dent-ino-free PR_DENT_INO --dent --nid "$F1" --mb d_ino --val 500

one_field dent-file-type PR_DENT_FILE_TYPE --dent --nid "$F1" --mb d_ftype --val 2

one_field dent-name_len-0 PR_DENT_NAME_LEN --dent --nid "$F1" --mb d_name_len --val 0

one_field dent-bitmap-name-slot PR_DENT_BITMAP --dent --nid "$DIR_D" --idx $((LONG_SLOT + 1)) --mb d_bitmap

one_field dent-dot-wrong PR_DIR_DOTS --dent --nid "$DIR_A" --dots 1 --mb d_ino --val "$ROOT"

# d/f1 names directory a/b (entry typed as a directory, as a link would be).
prep; inj --dent --nid "$F1" --mb d_ino --val "$DIR_B"; inj --dent --nid "$DIR_D" --idx "$F1_SLOT" --mb d_ftype --val 2
verdict "dir-hard-linked-twice PR_DIR_MULTIPLE_PARENTS" PR_DIR_MULTIPLE_PARENTS

# The same with the entry still typed as a regular file.
prep; inj --dent --nid "$F1" --mb d_ino --val "$DIR_B"
verdict "dir-linked-again-as-regular-file PR_DENT_FILE_TYPE|PR_DIR_MULTIPLE_PARENTS" \
	"PR_DENT_FILE_TYPE|PR_DIR_MULTIPLE_PARENTS"

# --- journals --------------------------------------------------------------------
# mkfs checkpoints at "unmount" (NAT journal emptied into the blocks, as the
# kernel does with nat_bits); one file created and a sync checkpoint through
# the write path (wrtool) put the root's NAT and SIT entries in the journals.

FRESH=$WORK/fresh.img
truncate -s 128M "$FRESH"
run_cmd "$MKFS" -q -f "$FRESH"
FRESH_OK=$RC
[ "$FRESH_OK" -eq 0 ] && run_cmd "$WRTOOL" "$FRESH" create /journalled sync && FRESH_OK=$RC
run_cmd "$FSCK" "$FRESH"
[ "$RC" -ne 0 ] && FRESH_OK=$RC
if [ "$FRESH_OK" -ne 0 ]; then
	fail fresh-clean "our mkfs, wrtool or fsck failed on a fresh 128 MiB image"
else
	ROOT_DENT=$("$INJECT" --dry-run --node --nid 3 --mb i_addr --idx 0 --val 0 "$FRESH" |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p')
	prep "$FRESH"; inj --nat 0 --nid 3 --mb block_addr --val 5
	if [ "$INJ_OK" = 1 ] && ! grep -q 'NAT journal' "$WORK/last.out"; then
		INJ_OK=0
		INJ_ERR="the root's NAT entry was not in the journal: $(snippet "$WORK/last.out")"
	fi
	verdict "nat-journal-root-block_addr PR_NAT_ADDR_RANGE" PR_NAT_ADDR_RANGE
	prep "$FRESH"; inj --sit 0 --blk "$ROOT_DENT" --mb vblocks --val 600
	if [ "$INJ_OK" = 1 ] && ! grep -q 'SIT journal' "$WORK/last.out"; then
		INJ_OK=0
		INJ_ERR="the root dentry's SIT entry was not in the journal: $(snippet "$WORK/last.out")"
	fi
	verdict "sit-journal-vblocks PR_SIT_VBLOCKS" PR_SIT_VBLOCKS
	# the up.base baseline belongs to the populated image: good enough, a
	# fresh image has no problem lines either
fi

# --- the kernel-written image ------------------------------------------------------

KIMG=$WORK/kernel.img
xz -dc "$TOP/tests/fuzz/images/kernel.img.xz" >"$KIMG" 2>/dev/null
run_cmd "$FSCK" -t "$KIMG"
if [ "$RC" -ne 0 ]; then
	fail kernel-image-clean "our fsck exited $RC on tests/fuzz/images/kernel.img.xz"
else
	pass kernel-image-clean
	declare -A KINO
	while read -r nm ino; do
		[ -z "${KINO[$nm]:-}" ] && KINO[$nm]=$((ino))
	done < <(sed -n 's/.*|-- \(.*\) <ino = \(0x[0-9a-f]*\)>.*/\1 \2/p' "$WORK/last.out")
fi

# kgetv INJECT-ARGS...: getv on the kernel image.
kgetv() {
	"$INJECT" --dry-run "$@" --val 0 "$KIMG" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}

# kfield NAME CODE UPLINE INJECT-ARGS...: one field of the kernel image,
# the verdict on CODE, and our output must hold UPLINE (upstream's line,
# fixed text; "" when upstream has none).
kfield() {
	local name=$1 code=$2 upline=$3
	shift 3
	prep "$KIMG"
	inj "$@"
	kverdict "$name" "$code" "$upline"
}

# kverdict NAME CODE UPLINE: verdict, then UPLINE in our output.
kverdict() {
	local before=$N_FAIL
	verdict "$1 $2" "$2"
	if [ "$N_FAIL" = "$before" ] && [ -n "$3" ] && ! grep -qF -- "$3" "$WORK/last.out"; then
		N_PASS=$((N_PASS - 1))
		fail "$1 $2 upstream-line" "no line \"$3\" in our output"
	fi
}

hex() { printf '0x%x' "$1"; }

if [ -n "${KINO[docs]:-}" ] && [ -n "${KINO[note-00.txt]:-}" ] && [ -n "${KINO[clip-64k]:-}" ]; then
	DOCS=${KINO[docs]}
	NOTES=${KINO[notes]}
	INL=${KINO[note-00.txt]}  # inline data, one inline xattr
	XATTRS=${KINO[note-03.txt]} # two inline xattrs
	CLIP=${KINO[clip-64k]}     # 16 blocks, all in i_ext; an xattr node
	MOVIE=${KINO[movie]}       # 1280 blocks, a direct node
	KFIRST=$(($(kgetv --node --nid "$INL" --mb i_extra_isize) / 4))
	KXATTR=$((923 - $(kgetv --node --nid "$INL" --mb i_inline_xattr_size))) # first word of the area

	# i_ext: a zero block address with a length, an fofs past any file, one block too many
	kfield ext-blk-zero PR_INODE_EXTENT "[ASSERT] --> ino: $(hex "$CLIP") has wrong ext: [pgofs:0, blk:0, len:16]" \
		--node --nid "$CLIP" --mb i_ext.blk_addr --val 0
	kfield ext-fofs-past-max PR_INODE_EXTENT "has wrong ext: [pgofs:4294967040," \
		--node --nid "$CLIP" --mb i_ext.fofs --val 0xffffff00
	kfield ext-len-too-long PR_INODE_EXTENT "[ASSERT] --> ino: $(hex "$CLIP") has wrong ext:" \
		--node --nid "$CLIP" --mb i_ext.len --val 17
	kfield ext-on-inline-file PR_INODE_EXTENT "" --node --nid "$INL" --mb i_ext.len --val 1

	# xattrs: an entry past the space; bytes after the list's end
	kfield xattr-value-size-past-end PR_XATTR_ENTRY "[ASSERT] --> [$(hex "$XATTRS")] last xattr entry (offset: 18) crosses the boundary" \
		--node --nid "$XATTRS" --mb xattr.e_value_size --idx 0 --val 3000
	kfield xattr-bytes-after-end PR_XATTR_TRAILING "[ASSERT] --> [$(hex "$INL")] nonzero bytes in xattr space after end of list" \
		--node --nid "$INL" --mb i_addr --idx $((KXATTR + 12)) --val 0x1234
	kfield xattr-node-entry-past-end PR_XATTR_ENTRY "crosses the boundary" \
		--node --nid "$CLIP" --mb xattr.e_value_size --idx 0 --val 65535
	kfield inode-i_inline_xattr_size-huge PR_INODE_INLINE_XATTR "" \
		--node --nid "$INL" --mb i_inline_xattr_size --val 2000

	# inline data: i_size past the inline capacity; the reserved word used
	kfield inline-size-too-big PR_INODE_INLINE_SIZE "[ASSERT] --> [$(hex "$INL")] wrong inline size:5000" \
		--node --nid "$INL" --mb i_size --val 5000
	kfield inline-reserved-word PR_INODE_INLINE_RESERVED "[ASSERT] --> [$(hex "$INL")] wrong inline reserve blkaddr:7" \
		--node --nid "$INL" --mb i_addr --idx "$KFIRST" --val 7
	# data without F2FS_DATA_EXIST: a warning (the kernel sets the flag), exit 0
	prep "$KIMG"
	inj --node --nid "$INL" --mb i_inline --val $(($(kgetv --node --nid "$INL" --mb i_inline) & ~8))
	run_cmd "$FSCK" "$IMG"
	if [ "$INJ_OK" != 1 ]; then
		fail "inline-data-exist-clear PR_INODE_INLINE_JUNK warning" "$INJ_ERR"
	elif [ "$RC" -ne 0 ] || ! grep -q "^Info: PR_INODE_INLINE_JUNK: " "$WORK/last.out"; then
		fail "inline-data-exist-clear PR_INODE_INLINE_JUNK warning" "exit $RC: $(grep -o 'PR_[A-Z_]*' "$WORK/last.out" | sort -u | tr '\n' ' ')"
	else
		pass "inline-data-exist-clear PR_INODE_INLINE_JUNK warning"
	fi

	# flags an inode cannot carry
	kfield casefold-on-file PR_INODE_CASEFOLD "[ASSERT] --> [$(hex "$INL")] unexpected casefold flag" \
		--node --nid "$INL" --mb i_flags --val 0x40000000
	kfield casefold-without-feature PR_INODE_CASEFOLD "[ASSERT] --> [$(hex "$DOCS")] unexpected casefold flag" \
		--node --nid "$DOCS" --mb i_flags --val 0x40000000
	kfield compress-without-feature PR_INODE_COMPRESS "" \
		--node --nid "$CLIP" --mb i_flags --val 0x4
	kfield device-alias-without-feature PR_INODE_DEVICE_ALIAS "" \
		--node --nid "$MOVIE" --mb i_flags --val 0x80000000

	# SSA: the type of a closed data segment's summary; a data block's version,
	# and the NAT version of the node holding its address
	SSA_BLK=
	for k in 0 100 600 900; do
		b=$(kgetv --node --nid "$MOVIE" --mb i_addr --idx $((KFIRST + k)))
		if [ -n "$b" ] && [ -n "$(kgetv --ssa --blk "$b" --mb entry_type)" ]; then
			SSA_BLK=$b
			break
		fi
	done
	if [ -z "$SSA_BLK" ]; then
		fail ssa-cases "no block of movie lies in a closed segment"
	else
		kfield ssa-type-node-for-data PR_SSA_TYPE "[ASSERT] --> Summary footer is not for data segment" \
			--ssa --blk "$SSA_BLK" --mb entry_type --val 1
		kfield ssa-version PR_SSA_VERSION "[ASSERT] --> Invalid data seg summary" \
			--ssa --blk "$SSA_BLK" --mb version --val 7
		kfield nat-version-against-ssa PR_SSA_VERSION "[ASSERT] --> Invalid data seg summary" \
			--nat 0 --nid "$MOVIE" --mb version --val 5
	fi

	# a directory's i_pino against the directory naming it
	kfield dir-i_pino PR_DIR_PINO "[ASSERT] --> Bad inode number[$(hex "$DOCS")] for '..', parent parent ino is [0x3]" \
		--node --nid "$NOTES" --mb i_pino --val 3

	# a top-level directory with children loses its inode: the entry naming
	# it (parent path and name), the root's link count (upstream's line),
	# its children unreachable (upstream's line)
	kfield dir-lost-nat-elsewhere PR_DIR_LOST 'entry "docs" in / (inode 3) names directory' \
		--nat 0 --nid "$DOCS" --mb block_addr --val "$(kgetv --nat 0 --nid "$CLIP" --mb block_addr)"
	for line in "[ASSERT] --> ino: 0x3 i_links: 6, real links: 5" "NID[$(hex "$NOTES")] is unreachable" \
		"[FSCK] PR_DIR_LINKS: "; do
		if ! grep -qF -- "$line" "$WORK/last.out"; then
			fail "dir-lost-nat-elsewhere lines" "no line \"$line\" in our output"
			line=
			break
		fi
	done
	[ -n "$line" ] && pass "dir-lost-nat-elsewhere lines"
	kfield dir-lost-nat-free PR_DIR_LOST 'entry "notes" in /docs (inode '"$DOCS"') names directory' \
		--nat 0 --nid "$NOTES" --mb block_addr --val 0
else
	fail kernel-image "cannot find docs, note-00.txt and clip-64k in the kernel image"
fi

# --- inject.f2fs itself -------------------------------------------------------------

# inject_refuses NAME PATTERN INJECT-ARGS...: inject.f2fs on the case image
# must refuse with a message matching PATTERN and leave the image alone.
inject_refuses() {
	local name=$1 pattern=$2
	shift 2
	REFUSE_IMAGE=$IMG expect_refusal "$name" "$pattern" -- "$INJECT" "$@" "$IMG"
}

prep
inject_refuses inject-unknown-member 'unknown.*member' --node --nid "$F1" --mb i_bogus --val 1
inject_refuses inject-node-needs-nid 'needs --nid' --node --mb i_links --val 1
inject_refuses inject-index-out-of-range 'out of range' --node --nid "$F1" --mb i_nid --idx 5 --val 1
inject_refuses inject-value-too-big 'does not fit' --node --nid "$F1" --mb i_mode --val 0x10000
inject_refuses inject-blk-outside-main 'outside the main area' --sit 0 --blk 1 --mb vblocks --val 1
inject_refuses inject-bad-pack 'expected 0, 1 or 2' --cp 3 --mb crc --val 1
before=$(fingerprint "$IMG")
run_cmd "$INJECT" --dry-run --node --nid "$F1" --mb i_links --val 9 "$IMG"
if [ "$RC" -ne 0 ]; then
	fail inject-dry-run "exit $RC: $(snippet "$WORK/last.err")"
elif [ "$before" != "$(fingerprint "$IMG")" ]; then
	fail inject-dry-run "the image changed"
elif ! grep -q 'i_links of nid .*: 1 (0x1) -> 9' "$WORK/last.out"; then
	fail inject-dry-run "no change line: $(snippet "$WORK/last.out")"
else
	pass inject-dry-run
fi

# --- a directory past level 0: hash bucket positions ---------------------------------
# 600 two-slot names overflow level 0 (one bucket of two blocks), so block 2
# is level 1, bucket 0 of 2.  sload creates the directory first, as inode 4.
MANY=$WORK/many
mkdir -p "$MANY/big"
for i in $(seq -w 1 600); do : >"$MANY/big/file_$i"; done
MANY_IMG=$WORK/many.img
truncate -s 256M "$MANY_IMG"
"$MKFS" -q -f "$MANY_IMG" && "$SLOAD" -f "$MANY" "$MANY_IMG" >/dev/null 2>&1
run_cmd "$FSCK" "$MANY_IMG"
if [ "$RC" -ne 0 ]; then
	fail "dent-wrong-bucket PR_DENT_POSITION" "the 600-entry image is not clean: exit $RC"
else
	prep "$MANY_IMG"
	# slot 428 (slot 0 of block 2) renamed in place, its hash set from the new
	# name, which selects another bucket (a wrong stored hash is PR_DENT_HASH)
	inj --dent --nid 4 --idx 428 --mb filename --str renamed3
	verdict "dent-wrong-bucket PR_DENT_POSITION" PR_DENT_POSITION
fi

# --- compression parameters the kernel's inode check refuses ----------------------
# (our sload -c makes the compressed file; the kernel would not open it afterwards,
# sanity_check_inode: an unknown algorithm, a cluster size out of 4..256 blocks, more
# saved blocks than the file holds; no fix: which values wrote the clusters is unknown)
CSRC=$WORK/csrc CIMG=$WORK/compressed.img
mkdir -p "$CSRC" && head -c 200000 /dev/zero >"$CSRC/z"
rm -f "$CIMG" && truncate -s 128M "$CIMG"
if "$MKFS" -q -f -O extra_attr,compression "$CIMG" </dev/null >/dev/null 2>&1 &&
	"$TOP/sload/sload.f2fs" -f "$CSRC" -c "$CIMG" </dev/null >/dev/null 2>&1; then
	for c in i_log_cluster_size:9 i_log_cluster_size:1 i_compress_algorithm:7 i_compr_blocks:999; do
		prep "$CIMG"
		inj --node --nid 4 --mb "${c%%:*}" --val "${c#*:}"
		verdict "compress-${c%%:*}-${c#*:} PR_INODE_COMPRESS_PARAMS" PR_INODE_COMPRESS_PARAMS
	done
else
	fail compress-params "mkfs or sload -c failed"
fi

# --- inject's member lists, in the form fstests probes ---------------------------
# (common/f2fs _require_inject_f2fs_command: `inject.f2fs --STRUCT "" -h | grep "MEMBER:"`)
for probe in node:addr node:i_nid node:i_links node:i_inline node:i_inline_xattr_size dent:d_hash \
	cp:cur_node_segno sit:vblocks nat:block_addr ssa:ofs_in_node sb:magic; do
	if "$INJECT" "--${probe%%:*}" "" -h 2>/dev/null | grep -q "^  ${probe#*:}: "; then
		pass "inject-help/${probe/:/-}"
	else
		fail "inject-help/${probe/:/-}" "no '  ${probe#*:}: ' line in --${probe%%:*} -h"
	fi
done
# every member newest upstream lists, ours lists too (upstream's inject is its fsck by that name)
ln -sf "$UPSTREAM_FSCK" "$WORK/inject.f2fs"
for what in sb cp nat sit ssa node dent; do
	theirs=$("$WORK/inject.f2fs" "--$what" "" -h 2>/dev/null | sed -n 's/^  \([a-z_.]*\): inject.*/\1/p')
	if [ -z "$theirs" ]; then
		skip "inject-help/upstream-$what" "$UPSTREAM_FSCK has no inject.f2fs --$what"
		continue
	fi
	ours=$("$INJECT" "--$what" "" -h 2>/dev/null | sed -n 's/^  \([a-z_.]*\): .*/\1/p')
	missing=$(comm -23 <(sort -u <<<"$theirs") <(sort -u <<<"$ours") | tr '\n' ' ')
	[ -z "$missing" ] && pass "inject-help/upstream-$what" ||
		fail "inject-help/upstream-$what" "members upstream lists and we do not: $missing"
done

finish
