#!/bin/bash
# dump.f2fs -r restores xattrs and honours the nodump flag as newest
# upstream's dump does: a tree with user.*, trusted.* and security.selinux
# xattrs (inline and in an xattr node, on files, directories and the root)
# loaded by our sload, then marked by the write path (wrtool: nodump on a
# file and a directory, an xattr of a name space no host name has, a user.*
# on a symlink, one on the root, which sload leaves alone), extracts with the same xattrs (getfattr), without the
# nodump file and directory, with one warning for the entry no host takes
# and one for the one the host refuses.  -N names what nodump skips, -i on
# a nodump file writes nothing.  Where newest upstream's dump is built, its
# extraction of the same image carries the same xattrs and files.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
WRTOOL=${WRTOOL:-$TOP/tests/cli/wrtool}
NEWEST_DUMP=${NEWEST_DUMP:-$TOP/../upstream-f2fs-tools/fsck/dump.f2fs}

for b in "$SLOAD" "$FSCK" "$DUMP" "$WRTOOL"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done
if ! command -v setfattr >/dev/null || ! command -v getfattr >/dev/null; then
	skip all "setfattr/getfattr (package attr) are not installed"
	finish
fi
touch "$WORK/probe"
if ! setfattr -n user.probe -v 1 "$WORK/probe" 2>/dev/null; then
	skip all "the file system of $WORK takes no user.* xattrs"
	finish
fi

# --- the tree, the image -------------------------------------------------

SRC=$WORK/src
mkdir -p "$SRC/d/sub" "$SRC/nodir/inner"
echo plain >"$SRC/plain"
head -c 10000 /dev/urandom >"$SRC/big"
echo keep >"$SRC/d/keep"
echo lab >"$SRC/d/labelled"
echo no >"$SRC/nod"
echo inner >"$SRC/nodir/inner/f"
ln -s plain "$SRC/link"
setfattr -n user.color -v blue "$SRC/plain"
setfattr -n user.empty "$SRC/plain"
# more than an inode's inline area holds: the list goes on in the xattr node
setfattr -n user.large -v "$(head -c 2500 /dev/zero | tr '\0' L)" "$SRC/big"
setfattr -n user.bin -v 0x00ff10 "$SRC/big"
setfattr -n user.sub -v sub "$SRC/d/sub"
setfattr -n user.n -v 1 "$SRC/nod"
setfattr -n user.in -v 1 "$SRC/nodir/inner/f"
# an SELinux label as the kernel keeps it, NUL included
setfattr -n security.selinux -v 0x73797374656d5f753a6f626a6563745f723a6574635f743a733000 \
	"$SRC/d/labelled" 2>/dev/null || skip security-label "the host refuses security.selinux"
setfattr -n trusted.dir -v 1 "$SRC/d" 2>/dev/null || skip trusted "the host refuses trusted.* (not root?)"

IMG=$WORK/img
truncate -s 128M "$IMG"
run_cmd "$MKFS" -f "$IMG"
[ "$RC" -eq 0 ] || { fail setup "mkfs exited $RC: $(snippet "$WORK/last.err")"; finish; }
run_cmd "$SLOAD" -f "$SRC" "$IMG"
if [ "$RC" -ne 0 ]; then
	fail sload "sload exited $RC: $(snippet "$WORK/last.err")"
	finish
fi
n_src=$(cd "$SRC" && getfattr -R -h -m - --absolute-names . 2>/dev/null | grep -c '^[a-z]')
if grep -q "$n_src xattrs" "$WORK/last.out"; then
	pass sload-xattrs
else
	fail sload-xattrs "the host tree has $n_src xattrs: $(snippet "$WORK/last.out")"
fi
run_cmd "$WRTOOL" "$IMG" setflags /nod 0x40 setflags /nodir 0x40 \
	setxattr /d/keep 5 lov lustre setxattr /link 1 sym onlink setxattr / 1 root top umount
[ "$RC" -eq 0 ] || { fail wrtool "wrtool exited $RC: $(snippet "$WORK/last.err")"; finish; }
run_cmd "$FSCK" "$IMG"
if [ "$RC" -eq 0 ]; then pass fsck-clean; else fail fsck-clean "our fsck exited $RC: $(snippet "$WORK/last.out")"; fi

# xattrs_of DIR [PRUNE...]: "path name=hexvalue" lines of DIR's tree, the
# paths relative to it, leaving out PRUNE (and all below it).
xattrs_of() {
	local dir=$1 p args=()
	shift
	for p in "$@"; do args+=(-path "./$p" -prune -o); done
	(cd "$dir" && find . "${args[@]}" -print | LC_ALL=C sort | while read -r p; do
		getfattr -h -d -m - -e hex "$p" 2>/dev/null | grep -v '^#' | grep . | sed "s|^|$p |"
	done)
}

ino_of() {
	"$FSCK" -t "$IMG" 2>/dev/null | sed -n "s/.*-- $1 <ino = \(0x[0-9a-f]*\)>.*/\1/p" | head -1
}

# --- -r -L: xattrs back, nodump left out, refusals warned ----------------

OUT=$WORK/out
run_cmd "$DUMP" -r -L -o "$OUT" "$IMG"
if [ "$RC" -ne 0 ]; then
	fail extract "dump -r -L exited $RC: $(snippet "$WORK/last.err")"
else
	pass extract
fi
if d=$(diff <(echo ". user.root=0x746f70"; xattrs_of "$SRC" nod nodir) <(xattrs_of "$OUT") 2>&1); then
	pass xattrs-restored
else
	fail xattrs-restored "$d"
fi
if [ -e "$OUT/nod" ] || [ -e "$OUT/nodir" ]; then
	fail nodump-skipped "$(cd "$OUT" && find nod nodir -maxdepth 0 2>/dev/null | tr '\n' ' ')extracted"
elif ! [ -f "$OUT/plain" ] || ! cmp -s "$SRC/big" "$OUT/big"; then
	fail nodump-skipped "the other files are not there"
elif ! grep -q ' 2 skipped for nodump' "$WORK/last.out"; then
	fail nodump-skipped "the summary does not count 2: $(snippet "$WORK/last.out")"
else
	pass nodump-skipped
fi
# two warnings: the name space no host has, and the host refusing user.* on a symlink
if [ "$(wc -l <"$WORK/last.err")" -eq 2 ] &&
	grep -q '^dump.f2fs: warning: .*/d/keep: Unknown xattr index 0x5, not restored$' "$WORK/last.err" &&
	grep -q '^dump.f2fs: warning: .*/link: XATTR index 0x1 set xattr failed error [0-9]*: user.sym: ' "$WORK/last.err"; then
	pass xattr-warnings
else
	fail xattr-warnings "stderr: $(snippet "$WORK/last.err" 400)"
fi

# without -L the symlink is a file, and takes its xattr
OUT2=$WORK/out-nol
run_cmd "$DUMP" -r -o "$OUT2" "$IMG"
if [ "$RC" -eq 0 ] && [ "$(getfattr -h --only-values -n user.sym "$OUT2/link" 2>/dev/null)" = onlink ]; then
	pass link-as-file-xattr
else
	fail link-as-file-xattr "rc=$RC; $(getfattr -h -d "$OUT2/link" 2>&1 | tr '\n' ' ')"
fi

# JSON counts
run_cmd "$DUMP" --json -r -o "$WORK/out-json" "$IMG"
n_out=$(xattrs_of "$OUT2" | wc -l)
if grep -q "\"nodump\": *2" "$WORK/last.out" && grep -q "\"xattrs\": *${n_out}[,}]" "$WORK/last.out"; then
	pass json-counts
else
	fail json-counts "expected nodump 2, xattrs $n_out: $(grep -o '"extract".*' "$WORK/last.out" | head -c 300)"
fi

# -N names what nodump leaves out, writes nothing
run_cmd "$DUMP" -r -N -o "$WORK/out-dry" "$IMG"
if [ "$RC" -eq 0 ] && [ ! -e "$WORK/out-dry" ] &&
	grep -qx 'would skip .*/nod (nodump flag)' "$WORK/last.out" &&
	grep -qx 'would skip .*/nodir (nodump flag)' "$WORK/last.out" &&
	! grep -q 'nodir/inner' "$WORK/last.out"; then
	pass dry-run-nodump
else
	fail dry-run-nodump "rc=$RC: $(snippet "$WORK/last.out" 400)"
fi

# -d 1 says it, as upstream's does at that level
run_cmd "$DUMP" -d 1 -r -o "$WORK/out-d1" "$IMG"
if grep -qx 'File has nodump flag: .*/nod' "$WORK/last.out"; then
	pass debug-nodump-line
else
	fail debug-nodump-line "$(grep -i nodump "$WORK/last.out" | head -3)"
fi

# -i on the nodump file: the message, nothing written
nod_ino=$(ino_of nod)
if [ -z "$nod_ino" ]; then
	fail inode-nodump "fsck -t does not list nod"
else
	run_cmd "$DUMP" -i "$nod_ino" -y -o "$WORK/out-i" "$IMG"
	if [ "$RC" -eq 0 ] && grep -qx 'File has nodump flag' "$WORK/last.out" && [ ! -e "$WORK/out-i/nod" ]; then
		pass inode-nodump
	else
		fail inode-nodump "rc=$RC: $(grep -i nodump "$WORK/last.out"; ls "$WORK/out-i" 2>&1)"
	fi
fi

# --- newest upstream on the same image -----------------------------------

if [ ! -x "$NEWEST_DUMP" ]; then
	skip upstream-same-xattrs "newest upstream dump.f2fs is not built ($NEWEST_DUMP)"
else
	UOUT=$WORK/uout
	timeout -k 5 "$CMD_TIMEOUT" "$NEWEST_DUMP" -y -r -o "$UOUT" "$IMG" </dev/null >"$WORK/up.out" 2>&1
	RC=$?
	if [ "$RC" -ne 0 ]; then
		fail upstream-same-xattrs "upstream dump exited $RC: $(snippet "$WORK/up.out")"
	elif d=$(diff <(xattrs_of "$UOUT") <(xattrs_of "$OUT2") 2>&1); then
		pass upstream-same-xattrs
	else
		fail upstream-same-xattrs "$d"
	fi
	if [ "$RC" -eq 0 ] && diff <(cd "$UOUT" && find . | LC_ALL=C sort) \
		<(cd "$OUT2" && find . | LC_ALL=C sort) >/dev/null; then
		pass upstream-same-files
	else
		fail upstream-same-files "$(diff <(cd "$UOUT" && find . | LC_ALL=C sort) <(cd "$OUT2" && find . | LC_ALL=C sort) | head -5)"
	fi
	if grep -q 'Unknown xattr index 0x5' "$WORK/up.out"; then
		pass upstream-unknown-index
	else
		fail upstream-unknown-index "upstream does not say 'Unknown xattr index 0x5' (its messages changed?)"
	fi
fi

finish
