# shellcheck shell=bash
# The corruption cases' shared part, sourced by tests/cli/fsck-repair.sh and
# tests/kernel/008-fsck-repair.sh: the base image every case copies, the
# variables a recipe may use, and running a recipe.  Needs MKFS, SLOAD,
# INJECT, DUMP and FSCK set; functions return non-zero with the reason in
# $CASES_ERR.
#
# A case is a directory tests/fsck/NNN-name/ with:
#   recipe    a shell snippet calling `inj ARGS...` (inject.f2fs on the
#             case's image) with the variables below
#   args      fsck.f2fs's options for the repair run (default -y)
#   expect.1  the repair run, reduced (cases_reduce), exit status last
#   expect.2  a second plain run, reduced the same way
#   moved     paths (./name) the repair links into /lost+found (their
#             contents must be there), for tests/kernel/008-fsck-repair.sh
#   gone      names the repair drops without moving their file (or, for a
#             recipe that makes its own image, names it never had)
#   base      "kernel" to start from the kernel-written image of
#             tests/fuzz/images (inline data, xattrs, i_ext, a hard link,
#             special files) instead of our sload's; its variables are K_*

CASES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES_ERR=

# cases_tree DIR: the host tree the base image is loaded from.
cases_tree() {
	local t=$1 i
	rm -rf "$t"
	mkdir -p "$t/dir/sub" "$t/links" || return 1
	for i in $(seq 1 12); do head -c $((i * 2500)) /dev/zero | tr '\0' "$i" >"$t/file$i"; done
	head -c 5000000 /dev/zero | tr '\0' b >"$t/big" # direct and indirect nodes
	echo small >"$t/dir/small"
	echo deep >"$t/dir/sub/deep"
	ln "$t/file1" "$t/links/hard"
	ln -s ../file2 "$t/links/sym"
}

# cases_base WORKDIR: the tree in WORKDIR/tree, loaded by our sload into
# WORKDIR/base.img (our mkfs); then the recipe variables, exported.
cases_base() {
	local w=$1 n nm v first
	declare -gA CASES_NID=()
	CASES_TREE=$w/tree
	CASES_BASE=$w/base.img
	cases_tree "$CASES_TREE" || { CASES_ERR="cannot make the tree in $w"; return 1; }
	rm -f "$CASES_BASE"
	truncate -s 128M "$CASES_BASE" || { CASES_ERR="cannot make $CASES_BASE"; return 1; }
	"$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr "$CASES_BASE" \
		</dev/null >"$w/mkfs.log" 2>&1 || { CASES_ERR="mkfs: $(tail -1 "$w/mkfs.log")"; return 1; }
	"$SLOAD" -f "$CASES_TREE" "$CASES_BASE" </dev/null >"$w/sload.log" 2>&1 ||
		{ CASES_ERR="sload: $(tail -1 "$w/sload.log")"; return 1; }
	"$FSCK" "$CASES_BASE" </dev/null >"$w/base-fsck.log" 2>&1 ||
		{ CASES_ERR="the base image is not clean: $(grep -m3 PR_ "$w/base-fsck.log")"; return 1; }
	# the inode of each name in the tree, from dump.f2fs -i for inodes 3..64
	for n in $(seq 3 64); do
		nm=$("$DUMP" -i "$n" "$CASES_BASE" 2>/dev/null | sed -n 's/^i_name[[:space:]]*\[\(.*\)\]$/\1/p')
		[ -n "$nm" ] && [ -z "${CASES_NID[$nm]:-}" ] && CASES_NID[$nm]=$n
	done
	for nm in file1 file2 file3 big dir sub small links; do
		[ -n "${CASES_NID[$nm]:-}" ] || { CASES_ERR="no inode found for $nm"; return 1; }
	done
	export ROOT=3 FILE1=${CASES_NID[file1]} FILE2=${CASES_NID[file2]} FILE3=${CASES_NID[file3]}
	export BIG=${CASES_NID[big]} DIR=${CASES_NID[dir]} SUB=${CASES_NID[sub]}
	export SMALL=${CASES_NID[small]} LINKS=${CASES_NID[links]}
	MAIN=$(cases_getv --sb 1 --mb main_blkaddr)
	FILE1_NODE=$(cases_getv --nat 0 --nid "$FILE1" --mb block_addr)
	BIG_NODE=$(cases_getv --nat 0 --nid "$BIG" --mb block_addr)
	BIG_DNODE=$(cases_getv --node --nid "$BIG" --mb i_nid --idx 0)
	first=$(($(cases_getv --node --nid "$BIG" --mb i_extra_isize) / 4)) # first data slot of i_addr
	BIG_DATA=$(cases_getv --node --nid "$BIG" --mb i_addr --idx "$first")
	export MAIN FILE1_NODE BIG_NODE BIG_DNODE BIG_DATA
	for v in MAIN FILE1_NODE BIG_NODE BIG_DNODE BIG_DATA; do
		[ -n "${!v}" ] || { CASES_ERR="cannot read $v with inject.f2fs --dry-run"; return 1; }
	done
}

# cases_getv INJECT-ARGS...: a field's value in the base image (inject's dry run)
cases_getv() {
	cases_getv_in "$CASES_BASE" "$@"
}

cases_getv_in() {
	local img=$1
	shift
	"$INJECT" --dry-run "$@" --val 0 "$img" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}

# cases_kernel_base WORKDIR: the kernel-written image at WORKDIR/kbase.img,
# and its K_* variables, exported.
cases_kernel_base() {
	local w=$1 nm ino v first
	declare -gA CASES_KINO=()
	CASES_KBASE=$w/kbase.img
	xz -dc "$CASES_DIR/../fuzz/images/kernel.img.xz" >"$CASES_KBASE" 2>/dev/null ||
		{ CASES_ERR="cannot unpack tests/fuzz/images/kernel.img.xz"; return 1; }
	"$FSCK" -t "$CASES_KBASE" </dev/null >"$w/kbase-fsck.log" 2>&1 ||
		{ CASES_ERR="the kernel image is not clean: $(grep -m3 PR_ "$w/kbase-fsck.log")"; return 1; }
	while read -r nm ino; do
		[ -z "${CASES_KINO[$nm]:-}" ] && CASES_KINO[$nm]=$((ino))
	done < <(sed -n 's/.*|-- \(.*\) <ino = \(0x[0-9a-f]*\)>.*/\1 \2/p' "$w/kbase-fsck.log")
	for nm in docs notes note-00.txt note-01.txt note-03.txt clip-64k movie conf \
		entry-with-a-name-0600; do
		[ -n "${CASES_KINO[$nm]:-}" ] || { CASES_ERR="no inode found for $nm in the kernel image"; return 1; }
	done
	export K_DOCS=${CASES_KINO[docs]} K_NOTES=${CASES_KINO[notes]} K_INL=${CASES_KINO[note-00.txt]}
	export K_LINKED=${CASES_KINO[note-01.txt]} K_XATTRS=${CASES_KINO[note-03.txt]}
	export K_CLIP=${CASES_KINO[clip-64k]} K_MOVIE=${CASES_KINO[movie]} K_CONF=${CASES_KINO[conf]}
	export K_BIGNAME=${CASES_KINO[entry-with-a-name-0600]}
	first=$(($(cases_getv_in "$CASES_KBASE" --node --nid "$K_MOVIE" --mb i_extra_isize) / 4))
	K_MOVIE_DATA=$(cases_getv_in "$CASES_KBASE" --node --nid "$K_MOVIE" --mb i_addr --idx "$first")
	K_MAIN=$(cases_getv_in "$CASES_KBASE" --sb 1 --mb main_blkaddr)
	export K_MOVIE_DATA K_MAIN
	for v in K_MOVIE_DATA K_MAIN; do
		[ -n "${!v}" ] || { CASES_ERR="cannot read $v in the kernel image"; return 1; }
	done
}

# cases_on_kernel DIR: does the case start from the kernel-written image?
cases_on_kernel() {
	[ -f "$1/base" ] && grep -qx kernel "$1/base"
}

# inj ARGS...: a recipe's verb, inject.f2fs on $IMG
inj() {
	if ! "$INJECT" "$@" "$IMG" >"$CASES_WORK/inj.out" 2>&1; then
		echo "inject $* failed: $(tail -1 "$CASES_WORK/inj.out")" >>"$CASES_WORK/inj.err"
		return 1
	fi
}

# cases_zero START COUNT: zero a metadata area of $IMG, from the superblock
# field START (a block address) for COUNT's segments (a segment_count_* field)
cases_zero() {
	local start count
	start=$(cases_getv_in "$IMG" --sb 1 --mb "$1")
	count=$(cases_getv_in "$IMG" --sb 1 --mb "$2")
	if [ -z "$start" ] || [ -z "$count" ]; then
		echo "cannot read $1/$2 in the superblock" >>"$CASES_WORK/inj.err"
		return 1
	fi
	dd if=/dev/zero of="$IMG" bs=4096 seek="$start" count=$((count * 512)) conv=notrunc \
		status=none
}

# cases_entry_slot NID: "SLOT DIR", where the entry naming NID sits in $IMG
cases_entry_slot() {
	"$INJECT" --dry-run --dent --nid "$1" --mb d_ino --val 0 "$IMG" 2>/dev/null |
		sed -n 's/.*dentry slot \([0-9]*\) of directory \([0-9]*\):.*/\1 \2/p'
}

# wr COMMAND...: a recipe's verb, tests/cli/wrtool's commands on $IMG (fsynced
# writes cut by "abort" leave a roll-forward chain)
wr() {
	if ! "${WRTOOL:-$CASES_DIR/../cli/wrtool}" "$IMG" "$@" >"$CASES_WORK/wr.out" 2>&1; then
		echo "wrtool $* failed: $(tail -1 "$CASES_WORK/wr.out")" >>"$CASES_WORK/inj.err"
		return 1
	fi
}

# chain_block I: the block of the I-th inode's last fsynced dnode in the
# roll-forward chain, as inject.f2fs --cp --mb next_blkaddr lists them
chain_block() {
	"$INJECT" --dry-run --cp 0 --mb next_blkaddr --idx 0 --val 0 "$IMG" 2>/dev/null |
		sed -n "s/^Info: \\[ *$1\\] blkaddr:\\(0x[0-9a-f]*\\)$/\\1/p"
}

# cases_prepare DIR IMG: a copy of the base image at IMG, broken by DIR's recipe
cases_prepare() {
	local dir=$1
	IMG=$2
	CASES_WORK=$(dirname "$IMG")
	rm -f "$IMG" "$CASES_WORK/inj.err"
	if cases_on_kernel "$dir"; then
		[ -n "${CASES_KBASE:-}" ] || { CASES_ERR="the kernel image was not unpacked"; return 1; }
		cp --sparse=always "$CASES_KBASE" "$IMG"
	else
		cp --sparse=always "$CASES_BASE" "$IMG"
	fi || { CASES_ERR="cannot copy the base image"; return 1; }
	# shellcheck disable=SC1091
	if ! (set -e && . "$dir/recipe") || [ -s "$CASES_WORK/inj.err" ]; then
		CASES_ERR="recipe: $(cat "$CASES_WORK/inj.err" 2>/dev/null || echo failed)"
		return 1
	fi
}

# cases_args DIR: the repair run's options
cases_args() {
	if [ -f "$1/args" ]; then cat "$1/args"; else echo -y; fi
}

# cases_reduce OUT RC: what expect files hold -- problem codes (each once),
# [FIX] lines, the verdict lines and the exit status.
cases_reduce() {
	sed -n -e 's/^\[FSCK\] \(PR_[A-Z_]*\):.*/\1/p' -e 's/^Info: \(PR_[A-Z_]*\):.*/\1/p' \
		-e 's/^\[FSCK\] left: \(PR_[A-Z_]*\):.*/left: \1/p' \
		-e '/^\[FIX\] /p' -e '/^Info: [0-9]* problem(s) found/p' -e '/^UNEXPECTED/p' "$1" |
		awk '!/^PR_/ || !seen[$0]++'
	echo "exit $2"
}
