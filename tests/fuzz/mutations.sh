# shellcheck shell=bash
# Structure-aware mutations of an F2FS image, for the fuzz campaigns
# (differential.sh: our fsck against upstream's; kernel-verdict.sh: our
# fsck against the kernel).  Source it with BASE (the image), INJECT,
# DUMP (an absolute path) and FSCK set and WORK a scratch directory; call
# mut_inventory once, then `mutation` sets ARGS (inject.f2fs's arguments,
# the image last to add) and DESC for one random change of one field: an
# inode's field, flag or address, an xattr entry's head, a node word or
# footer, a NAT, SSA or SIT entry, a directory entry.  Values are chosen to
# matter: 0, 1, the old value plus or minus one, one bit flipped, all
# ones, another inode's number, another block's address.  RANDOM drives
# every choice: a seed and an image give the same mutations.  Last, the
# verdicts both campaigns take: `ours IMG` (OURS_RC, OURS_SAID) and
# `upstream IMG` (UP_RC, UP_SAID; upstream_flags, upstream_broke), with
# TMO seconds per command and UP_FSCK upstream's fsck.

# getv INJECT-ARGS...: a field's current value (inject --dry-run), empty when none.
getv() {
	"$INJECT" --dry-run "$@" --val 0 "$BASE" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}

# closed ADDR: does block ADDR lie outside the open logs' segments?
closed() { [[ "$OPEN_SEGS" != *" $((($1 - MAIN) / 512)) "* ]]; }

# mut_inventory: list what BASE holds (the arrays below); 1 with MUT_ERR when too little.
mut_inventory() {
	local nid ino ofs addr name i size first k
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
		MUT_ERR="inventory failed: ${#INODES[@]} inodes, ${#NAMED[@]} names, ${#SPECIAL[@]} picked often"
		return 1
	fi
	MAIN=$(getv --sb 1 --mb main_blkaddr)
	# Blocks whose summary is in the SSA (not an open log's, which the
	# checkpoint keeps): SSA_NODE[] node blocks, SSA_DATA[] data blocks (some
	# addresses of the larger files picked often).
	OPEN_SEGS=" "
	for i in 0 1 2; do
		OPEN_SEGS+="$(getv --cp 0 --mb cur_node_segno --idx $i) $(getv --cp 0 --mb cur_data_segno --idx $i) "
	done
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
	MUT_SUMMARY="${#INODES[@]} inodes, ${#NODE_NID[@]} node blocks (${#SSA_NODE[@]} in closed segments), ${#SSA_DATA[@]} data blocks in closed segments"
}

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

# --- verdicts --------------------------------------------------------------
# (TMO: seconds per command; UP_FSCK: upstream's fsck, by default newest
# upstream's built beside the tree, else Debian's)

if [ -z "${UP_FSCK:-}" ]; then
	UP_FSCK=/usr/sbin/fsck.f2fs
	[ -x "$TOP/../upstream-f2fs-tools/fsck/fsck.f2fs" ] &&
		UP_FSCK=$(cd "$TOP/../upstream-f2fs-tools/fsck" && pwd)/fsck.f2fs
fi

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
	[ -f "$WORK/answers" ] || yes n | head -n 64 >"$WORK/answers"
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
