#!/bin/bash
# Differential mutation run: our fsck.f2fs against upstream's, one
# structure-aware mutation at a time, on a kernel-written image.
#
# The image (default tests/fuzz/images/kernel.img.xz, made by
# make-kernel-image.sh) must be clean for both fscks.  Its inodes and node
# blocks are listed once (our dump.f2fs -N -n, our fsck.f2fs -t); then each
# iteration copies it and changes ONE field with our inject.f2fs: a field of
# an inode (mode, flags, sizes, links, i_ext, extra attributes, an address
# or a node pointer), a head field of an xattr entry or a word of the xattr
# space, a NAT entry (version, ino, block address), an SSA entry or an SSA
# footer's type, a directory entry, a node footer, a SIT entry.  Values are
# chosen to matter: 0, 1, the old value plus or minus one, one bit flipped,
# all ones, another inode's number, another block's address.  Both fscks
# run on the result (upstream as "fsck.f2fs --dry-run -f") and their
# verdicts are compared: ours flags when it exits non-zero; upstream flags
# when it exits non-zero or prints a problem line (see upstream_flags).
#
# Output: a "# up-only ..." line for each mutation upstream flags and ours
# calls clean, "# ours-only ..." for the reverse (with the inject command
# that reproduces it and what each side said), then a summary line with
# the counts, and PASS/FAIL lines (tests/cli/lib.sh protocol):
#   differential-ours-sane   our fsck exited 0, 4 or 8 every time (no crash,
#                            no timeout, no sanitizer report)
#   differential-up-only     at most DIFF_MAX_UP_ONLY mutations flagged by
#                            upstream alone (default: no limit, report only)
#
# Environment:
#   FSCK, INJECT, DUMP  our tools (default: the build in this tree)
#   UP_FSCK             upstream fsck (default: ../upstream-f2fs-tools/fsck/fsck.f2fs
#                       beside the tree when present, else /usr/sbin/fsck.f2fs)
#   DIFF_ITERS          mutations (default 300)
#   DIFF_SEED           seed (default 1); a seed and an image give the same mutations
#   DIFF_FIRST          first iteration to run (default 1; with DIFF_ITERS=1, one case)
#   DIFF_TIMEOUT        seconds per command (default 20)
#   DIFF_MAX_UP_ONLY    fail when more mutations than this are upstream-only
#   DIFF_ALLOW          file of extended regexes (default differential-allow.txt
#                       beside this script; "#" lines are comments): an
#                       upstream-only mutation whose line "DESC | upstream:
#                       UPSTREAM'S FIRST PROBLEM LINE" matches one is listed as
#                       up-only-allowed and not counted against DIFF_MAX_UP_ONLY
#                       (the known disagreements, each explained in the file)
#   DIFF_LIST           also write every mutation's line ("N verdict desc") here
set -u
# shellcheck source=../cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"

IMAGE=${1:-$TOP/tests/fuzz/images/kernel.img.xz}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
DUMP=${DUMP:-$(dirname "$FSCK")/../dump/dump.f2fs}
if [ -z "${UP_FSCK:-}" ]; then
	UP_FSCK=/usr/sbin/fsck.f2fs
	[ -x "$TOP/../upstream-f2fs-tools/fsck/fsck.f2fs" ] &&
		UP_FSCK=$(cd "$TOP/../upstream-f2fs-tools/fsck" && pwd)/fsck.f2fs
fi
ITERS=${DIFF_ITERS:-300}
SEED=${DIFF_SEED:-1}
FIRST=${DIFF_FIRST:-1}
TMO=${DIFF_TIMEOUT:-20}
MAX_UP_ONLY=${DIFF_MAX_UP_ONLY:-}
ALLOW=${DIFF_ALLOW-$TOP/tests/fuzz/differential-allow.txt}
LIST=${DIFF_LIST:-}

setup_workdir
for b in "$FSCK" "$INJECT" "$DUMP"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build first)"
		finish
	fi
done
# dump runs in the work directory: a relative path would not reach it there
DUMP=$(cd "$(dirname "$DUMP")" && pwd)/$(basename "$DUMP")
if [ ! -x "$UP_FSCK" ]; then
	skip differential "no upstream fsck.f2fs ($UP_FSCK)"
	finish
fi

BASE=$WORK/base.img
IMG=$WORK/case.img
case $IMAGE in
*.xz) xz -dc "$IMAGE" >"$BASE" ;;
*) cp --sparse=always "$IMAGE" "$BASE" ;;
esac || {
	fail setup "cannot read $IMAGE"
	finish
}

# --- verdicts --------------------------------------------------------------

yes n | head -n 64 >"$WORK/answers"

# ours IMG: OURS_RC and OURS_SAID (the PR_ codes, or the error line).
ours() {
	{
		timeout -k 5 "$TMO" "$FSCK" "$1" </dev/null >"$WORK/ours.out" 2>"$WORK/ours.err"
		OURS_RC=$?
	} 2>/dev/null
	OURS_SAID=$(grep -o '^\[FSCK\] PR_[A-Z0-9_]*' "$WORK/ours.out" | sed 's/^\[FSCK\] //' |
		sort -u | tr '\n' ' ')
	[ -z "$OURS_SAID" ] && OURS_SAID=$(head -c 120 "$WORK/ours.err" | tr '\n' ' ')
}

# upstream IMG: UP_RC and UP_SAID (its first problem line).
upstream() {
	# "n" to its questions (restore lost files?): 1.15 has no -N
	# (braces: bash's own "Segmentation fault" notice goes nowhere)
	{
		timeout -k 5 "$TMO" "$UP_FSCK" --dry-run "$1" <"$WORK/answers" >"$WORK/up.out" 2>&1
		UP_RC=$?
	} 2>/dev/null
	UP_SAID=$(grep -v -e '^Info: Force to fix corruption$' -e '^\[FSCK\] fixing SIT types$' \
		-e '^\[FSCK\] .*\[Ok\.\.\]' "$WORK/up.out" |
		grep -Eai '\[FIX\]|\[ASSERT\]|\[Fail\]|\[ERROR\]|Do you want|fix|corrupt|invalid|error|-->' |
		head -n 1 | sed 's/^\[ASSERT\] ([a-z_]*: *[0-9]*) *//' | head -c 120)
}

upstream_flags() { [ "$UP_RC" != 0 ] || [ -n "$UP_SAID" ]; }
upstream_broke() { [ "$UP_RC" -ge 124 ]; } # a timeout, a signal or exit(-1) of an ASSERT()

ours "$BASE"
if [ "$OURS_RC" != 0 ]; then
	fail setup "our fsck does not call $IMAGE clean: $OURS_SAID"
	finish
fi
upstream "$BASE"
if upstream_flags; then
	fail setup "upstream fsck does not call $IMAGE clean: exit $UP_RC $UP_SAID"
	finish
fi

# --- the inventory ------------------------------------------------------------

# getv INJECT-ARGS...: a field's current value (inject --dry-run), empty when none.
getv() {
	"$INJECT" --dry-run "$@" --val 0 "$BASE" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}

# Node blocks from the NAT: NODE_NID[], NODE_INO[], NODE_ADDR[]; inodes in INODES[].
NODE_NID=()
NODE_INO=()
NODE_ADDR=()
INODES=()
while read -r nid ino ofs addr; do
	NODE_NID+=("$nid")
	NODE_INO+=("$ino")
	NODE_ADDR+=("$addr")
	[ "$nid" = "$ino" ] && [ "$ofs" = 0 ] && INODES+=("$nid")
done < <(cd "$WORK" && "$DUMP" -N -n 0~-1 "$BASE" 2>/dev/null |
	sed -n 's/^nid: *\([0-9]*\)[[:space:]]*ino: *\([0-9]*\)[[:space:]]*offset: *\([0-9]*\)[[:space:]]*blkaddr: *\([0-9]*\).*/\1 \2 \3 \4/p')
# Inodes named by an entry (not the root), from the -t tree; SPECIAL: those
# but the many names of a big directory (all named NAME-NUMBER alike), and
# the root, picked more often.
NAMED=()
SPECIAL=(3)
declare -A STEMS=()
while read -r name ino; do
	NAMED+=("$((ino))")
	STEMS[${name%%[0-9]*}]=$((${STEMS[${name%%[0-9]*}]:-0} + 1))
done < <("$FSCK" -t "$BASE" 2>/dev/null | sed -n 's/.*|-- \(.*\) <ino = \(0x[0-9a-f]*\)>.*/\1 \2/p')
while read -r name ino; do
	[ "${STEMS[${name%%[0-9]*}]}" -le 20 ] && SPECIAL+=("$((ino))")
done < <("$FSCK" -t "$BASE" 2>/dev/null | sed -n 's/.*|-- \(.*\) <ino = \(0x[0-9a-f]*\)>.*/\1 \2/p')
if [ ${#INODES[@]} -lt 10 ] || [ ${#NAMED[@]} -lt 10 ] || [ ${#SPECIAL[@]} -lt 5 ]; then
	fail setup "inventory failed: ${#INODES[@]} inodes, ${#NAMED[@]} names, ${#SPECIAL[@]} picked often"
	finish
fi
MAIN=$(getv --sb 1 --mb main_blkaddr)
# Blocks whose summary is in the SSA (not an open log's, which the
# checkpoint keeps): SSA_NODE[] node blocks, SSA_DATA[] data blocks (some
# addresses of the larger files picked often).
OPEN_SEGS=" "
for i in 0 1 2; do
	OPEN_SEGS+="$(getv --cp 0 --mb cur_node_segno --idx $i) $(getv --cp 0 --mb cur_data_segno --idx $i) "
done
closed() { [[ "$OPEN_SEGS" != *" $((($1 - MAIN) / 512)) "* ]]; }
SSA_NODE=()
SSA_DATA=()
for addr in "${NODE_ADDR[@]}"; do
	closed "$addr" && SSA_NODE+=("$addr")
done
for ino in "${SPECIAL[@]}"; do
	size=$(getv --node --nid "$ino" --mb i_size)
	[ "${size:-0}" -gt 65536 ] || continue
	first=$(($(getv --node --nid "$ino" --mb i_extra_isize) / 4))
	for k in 0 100 300 600 850; do
		addr=$(getv --node --nid "$ino" --mb i_addr --idx $((first + k)))
		[ -n "$addr" ] && [ "$addr" -ge "$MAIN" ] && [ "$addr" -lt 4294967294 ] &&
			closed "$addr" && SSA_DATA+=("$addr")
	done
done
echo "# $(basename "$IMAGE"): ${#INODES[@]} inodes, ${#NODE_NID[@]} node blocks" \
	"(${#SSA_NODE[@]} in closed segments), ${#SSA_DATA[@]} data blocks in closed segments;" \
	"upstream $UP_FSCK" >&2

# --- choosing ---------------------------------------------------------------------

# rnd N: R = a number below N (not on stdout: a subshell would reseed RANDOM).
rnd() { R=$((((RANDOM << 15) | RANDOM) % $1)); }
# pick ARRAY: P = a random element.
pick() {
	local -n arr=$1
	rnd ${#arr[@]}
	P=${arr[R]}
}
pick_inode() {
	rnd 10
	if [ "$R" -lt 7 ]; then pick SPECIAL; else pick INODES; fi
	INO=$P
}
pick_node() {
	rnd ${#NODE_NID[@]}
	NNID=${NODE_NID[R]}
	NADDR=${NODE_ADDR[R]}
}

# newval OLD BYTES [FLAVOURS]: V = a new value for a field of BYTES bytes.
newval() {
	local old=$1 bytes=$2 mask k
	mask=$(((1 << (8 * bytes)) - 1))
	[ "$bytes" -ge 8 ] && mask=0x7fffffffffffffff
	rnd 10
	case $R in
	0) V=0 ;;
	1) V=1 ;;
	2) V=$((old + 1)) ;;
	3) V=$((old - 1)) ;;
	4 | 5)
		rnd $((8 * bytes))
		V=$((old ^ (1 << R)))
		;;
	6) V=$mask ;;
	7)
		pick INODES
		V=$P
		;;
	8)
		pick NODE_ADDR
		V=$P
		;;
	9)
		rnd 65536
		k=$R
		rnd 65536
		V=$(((k << 16) | R))
		;;
	esac
	V=$((V & mask))
}

# The inode fields worth changing and their sizes.
INODE_FIELDS=(i_mode:2 i_advise:1 i_inline:1 i_links:4 i_size:8 i_blocks:8 i_xattr_nid:4
	i_flags:4 i_pino:4 i_namelen:4 i_dir_level:1 i_current_depth:4 i_generation:4
	i_ext.fofs:4 i_ext.blk_addr:4 i_ext.len:4 i_extra_isize:2 i_inline_xattr_size:2
	i_inode_checksum:4 i_compr_blocks:8)

# --- one mutation -------------------------------------------------------------------
# mutation: sets ARGS (the inject arguments) and DESC, or returns 1 when the
# chosen target has nothing to change.

m_inode_field() {
	local f bytes old
	pick_inode
	rnd ${#INODE_FIELDS[@]}
	f=${INODE_FIELDS[R]%:*}
	bytes=${INODE_FIELDS[R]#*:}
	old=$(getv --node --nid "$INO" --mb "$f") || return 1
	[ -n "$old" ] || return 1
	newval "$old" "$bytes"
	[ "$V" = "$old" ] && return 1
	ARGS=(--node --nid "$INO" --mb "$f" --val "$V")
	DESC="inode $INO $f $old->$V"
}

m_inode_flag() {
	local old bits=(0x40000000 0x4 0x800 0x10 0x1000 0x20 0x80000 0x8000000) b
	pick_inode
	old=$(getv --node --nid "$INO" --mb i_flags) || return 1
	[ -n "$old" ] || return 1
	rnd ${#bits[@]}
	b=${bits[R]}
	V=$((old ^ b))
	ARGS=(--node --nid "$INO" --mb i_flags --val "$V")
	DESC="inode $INO i_flags ^$b"
}

m_inode_inline() {
	local old bits=(0x1 0x2 0x4 0x8 0x10 0x20 0x40 0x80) b
	pick_inode
	old=$(getv --node --nid "$INO" --mb i_inline) || return 1
	[ -n "$old" ] || return 1
	rnd ${#bits[@]}
	b=${bits[R]}
	ARGS=(--node --nid "$INO" --mb i_inline --val $((old ^ b)))
	DESC="inode $INO i_inline ^$b"
}

m_extent() {
	local f old len blk names=(i_ext.fofs i_ext.blk_addr i_ext.len)
	pick_inode
	len=$(getv --node --nid "$INO" --mb i_ext.len)
	blk=$(getv --node --nid "$INO" --mb i_ext.blk_addr)
	[ -n "$len" ] || return 1
	rnd 3
	f=${names[R]}
	old=$(getv --node --nid "$INO" --mb "$f")
	rnd 8
	case $R in
	0) V=0 ;;
	1) V=$((old + 1)) ;;
	2) V=$((old > 0 ? old - 1 : 7)) ;;
	3) V=$((old + 4096)) ;;
	4) V=0xffffffff ;;
	5) V=$((blk ? blk : MAIN)) ;;
	6) V=$((len + 1)) ;;
	7) V=1 ;;
	esac
	V=$((V & 0xffffffff))
	[ "$V" = "$old" ] && return 1
	ARGS=(--node --nid "$INO" --mb "$f" --val "$V")
	DESC="inode $INO $f $old->$V (ext len $len)"
}

m_inode_addr() {
	local first old k arr=i_addr
	pick_inode
	first=$(($(getv --node --nid "$INO" --mb i_extra_isize) / 4))
	rnd 10
	if [ "$R" -lt 3 ]; then
		k=$((first + R))
	elif [ "$R" -lt 5 ]; then
		rnd 50
		k=$((923 - 1 - R)) # the inline xattr area, by default
	elif [ "$R" -lt 7 ]; then
		rnd 923
		k=$R
	else
		arr=i_nid
		rnd 5
		k=$R
	fi
	old=$(getv --node --nid "$INO" --mb "$arr" --idx "$k")
	[ -n "$old" ] || return 1
	newval "$old" 4
	[ "$V" = "$old" ] && return 1
	ARGS=(--node --nid "$INO" --mb "$arr" --idx "$k" --val "$V")
	DESC="inode $INO ${arr}[$k] $old->$V"
}

m_xattr() {
	local f fields=(xattr.e_name_index:1 xattr.e_name_len:1 xattr.e_value_size:2) bytes old idx
	pick_inode
	rnd 3
	idx=$R
	rnd 3
	f=${fields[R]%:*}
	bytes=${fields[R]#*:}
	old=$(getv --node --nid "$INO" --mb "$f" --idx "$idx")
	[ -n "$old" ] || return 1
	newval "$old" "$bytes"
	[ "$V" = "$old" ] && return 1
	ARGS=(--node --nid "$INO" --mb "$f" --idx "$idx" --val "$V")
	DESC="inode $INO ${f}[$idx] $old->$V"
}

m_node_word() {
	local old k
	pick_node
	[ "$NNID" = "${NODE_INO[R]}" ] && return 1 # inodes have their own mutations
	rnd 1018
	k=$R
	old=$(getv --node --nid "$NNID" --mb addr --idx "$k")
	[ -n "$old" ] || return 1
	newval "$old" 4
	[ "$V" = "$old" ] && return 1
	ARGS=(--node --nid "$NNID" --mb addr --idx "$k" --val "$V")
	DESC="node $NNID addr[$k] $old->$V"
}

m_footer() {
	local f fields=(nid:4 ino:4 flag:4 cp_ver:8 next_blkaddr:4 ofs:4) bytes old
	pick_node
	rnd ${#fields[@]}
	f=${fields[R]%:*}
	bytes=${fields[R]#*:}
	old=$(getv --node --nid "$NNID" --mb "$f")
	[ -n "$old" ] || return 1
	newval "$old" "$bytes"
	[ "$f" = ofs ] && V=$((V & 0x1fffffff))
	[ "$V" = "$old" ] && return 1
	ARGS=(--node --nid "$NNID" --mb "$f" --val "$V")
	DESC="node $NNID footer $f $old->$V"
}

m_nat() {
	local f fields=(version:1 ino:4 block_addr:4) bytes old
	pick_node
	rnd 3
	f=${fields[R]%:*}
	bytes=${fields[R]#*:}
	old=$(getv --nat 0 --nid "$NNID" --mb "$f")
	[ -n "$old" ] || return 1
	newval "$old" "$bytes"
	[ "$V" = "$old" ] && return 1
	ARGS=(--nat 0 --nid "$NNID" --mb "$f" --val "$V")
	DESC="nat $NNID $f $old->$V"
}

m_ssa() {
	local blk f fields=(nid:4 version:1 ofs_in_node:2 entry_type:1) bytes old
	rnd 2
	if [ "$R" = 0 ] && [ ${#SSA_NODE[@]} -gt 0 ]; then
		pick SSA_NODE
	elif [ ${#SSA_DATA[@]} -gt 0 ]; then
		pick SSA_DATA
	else
		return 1
	fi
	blk=$P
	rnd 4
	f=${fields[R]%:*}
	bytes=${fields[R]#*:}
	old=$(getv --ssa --blk "$blk" --mb "$f")
	[ -n "$old" ] || return 1 # an open log's summary: not in the SSA
	if [ "$f" = entry_type ]; then
		V=$((old ^ 1))
		rnd 4
		[ "$R" = 0 ] && V=0xff
	else
		newval "$old" "$bytes"
	fi
	[ "$V" = "$old" ] && return 1
	ARGS=(--ssa --blk "$blk" --mb "$f" --val "$V")
	DESC="ssa blk $blk $f $old->$V"
}

m_dent() {
	local f fields=(d_hash:4 d_ino:4 d_ftype:1 d_name_len:2) bytes old ino
	pick NAMED
	ino=$P
	rnd 4
	f=${fields[R]%:*}
	bytes=${fields[R]#*:}
	old=$(getv --dent --nid "$ino" --mb "$f")
	[ -n "$old" ] || return 1
	newval "$old" "$bytes"
	[ "$V" = "$old" ] && return 1
	ARGS=(--dent --nid "$ino" --mb "$f" --val "$V")
	DESC="dentry of $ino $f $old->$V"
}

m_sit() {
	local f fields=(vblocks valid_bit type) old
	pick_node
	rnd 3
	f=${fields[R]}
	old=$(getv --sit 0 --blk "$NADDR" --mb "$f")
	[ -n "$old" ] || return 1
	case $f in
	valid_bit) V=0 ;;
	type)
		rnd 6
		V=$R
		;;
	*) newval "$old" 2 ;;
	esac
	[ "$V" = "$old" ] && return 1
	ARGS=(--sit 0 --blk "$NADDR" --mb "$f" --val "$V")
	DESC="sit of blk $NADDR $f $old->$V"
}

# kind weights, out of 100
KINDS=(m_inode_field:25 m_inode_flag:6 m_inode_inline:6 m_extent:10 m_inode_addr:10
	m_xattr:10 m_node_word:5 m_footer:6 m_nat:8 m_ssa:8 m_dent:4 m_sit:2)

mutation() {
	local k acc=0
	rnd 100
	for k in "${KINDS[@]}"; do
		acc=$((acc + ${k#*:}))
		if [ "$R" -lt "$acc" ]; then
			"${k%:*}"
			return
		fi
	done
}

# --- the run --------------------------------------------------------------------------

RANDOM=$SEED
n_both=0 n_clean=0 n_up=0 n_ours=0 n_skip=0 n_upbroke=0 n_allowed=0 bad_ours=0
[ -n "$LIST" ] && : >"$LIST"
for ((it = 1; it < FIRST + ITERS; it++)); do
	tries=0
	until mutation; do
		tries=$((tries + 1))
		[ "$tries" -lt 50 ] || break
	done
	[ "$it" -lt "$FIRST" ] && continue
	rm -f "$IMG"
	cp --sparse=always "$BASE" "$IMG"
	if ! "$INJECT" "${ARGS[@]}" "$IMG" >"$WORK/inj.out" 2>&1; then
		n_skip=$((n_skip + 1))
		[ -n "$LIST" ] && echo "$it not-applied $DESC" >>"$LIST"
		continue
	fi
	ours "$IMG"
	case $OURS_RC in
	0 | 4 | 8) ;;
	*)
		bad_ours=$((bad_ours + 1))
		echo "# ours-broken #$it: exit $OURS_RC: inject ${ARGS[*]}: $(head -c 200 "$WORK/ours.err" | tr '\n' ' ')"
		;;
	esac
	if grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$WORK/ours.err"; then
		bad_ours=$((bad_ours + 1))
		echo "# ours-sanitizer #$it: inject ${ARGS[*]}"
	fi
	upstream "$IMG"
	if upstream_broke; then
		n_upbroke=$((n_upbroke + 1))
		v=upstream-broke
		echo "# upstream-broke #$it: $DESC: inject ${ARGS[*]}: upstream: exit $UP_RC $(tail -n 1 "$WORK/up.out" | head -c 120)"
	elif upstream_flags && [ "$OURS_RC" != 0 ]; then
		n_both=$((n_both + 1))
		v=both
	elif ! upstream_flags && [ "$OURS_RC" = 0 ]; then
		n_clean=$((n_clean + 1))
		v=clean
	elif upstream_flags; then
		v=up-only
		if [ -n "$ALLOW" ] && grep -qEf <(grep -v -e '^#' -e '^$' "$ALLOW") \
			<<<"$DESC | upstream: $UP_SAID"; then
			n_allowed=$((n_allowed + 1))
			v=up-only-allowed
		else
			n_up=$((n_up + 1))
		fi
		echo "# $v #$it: $DESC: inject ${ARGS[*]}: upstream: exit $UP_RC $UP_SAID"
	else
		n_ours=$((n_ours + 1))
		v=ours-only
		echo "# ours-only #$it: $DESC: inject ${ARGS[*]}: ours: exit $OURS_RC $OURS_SAID"
	fi
	[ -n "$LIST" ] && echo "$it $v $DESC | ours $OURS_RC $OURS_SAID| up $UP_RC $UP_SAID" >>"$LIST"
done

echo "# $ITERS mutations (seed $SEED, $(basename "$UP_FSCK") at $UP_FSCK): both flag $n_both," \
	"both clean $n_clean, upstream flags ours clean $n_up (+$n_allowed allowed)," \
	"ours flags upstream clean $n_ours, upstream broke $n_upbroke, not applied $n_skip"
if [ "$bad_ours" = 0 ]; then
	pass differential-ours-sane
else
	fail differential-ours-sane "$bad_ours mutations made our fsck crash, hang or exit oddly"
fi
if [ -n "$MAX_UP_ONLY" ]; then
	if [ "$n_up" -le "$MAX_UP_ONLY" ]; then
		pass "differential-up-only ($n_up <= $MAX_UP_ONLY)"
	else
		fail differential-up-only "$n_up mutations flagged by upstream only (limit $MAX_UP_ONLY)"
	fi
fi
finish
