#!/bin/bash
# Quota files (-O quota, project_quota): every writer keeps them current and
# fsck checks and rebuilds them.  sload onto a quota volume and f2fs_io
# replay on one must leave images both our fsck and upstream's find clean
# (upstream 1.15 compares the quota files too).  Three damaged images, each
# named by its problem code: a stale user quota file (the root's uid changed
# behind it: PR_QUOTA_USAGE, with upstream's "Quota file is missing or
# invalid" line beside ours), a group quota file whose header is garbage
# (PR_QUOTA_FILE), a checkpoint carrying CP_QUOTA_NEED_FSCK_FLAG
# (PR_QUOTA_NEED_FSCK); fsck -n reports and writes nothing, fsck -y repairs
# in one run, the next run is clean, the flag is gone, and upstream agrees.
# The kernel's side is tests/kernel/011-quota.sh.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
F2FS_IO=${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}
FEATURES=extra_attr,inode_checksum,flexible_inline_xattr,quota,project_quota

SRC=$WORK/src
mkdir -p "$SRC/d/e" && for i in 1 2 3 4 5 6; do head -c $((i * 7000)) /dev/urandom >"$SRC/d/f$i"; done
echo small >"$SRC/d/e/small" && ln "$SRC/d/f1" "$SRC/d/e/hard" && ln -s f2 "$SRC/d/sym"
chown 1234:5678 "$SRC/d/f3" 2>/dev/null # as root: a second owner

# ours_clean NAME IMG: our fsck -f -n exits 0 with no problem line
ours_clean() {
	run_cmd "$FSCK" -f -n "$2"
	if [ "$RC" -ne 0 ] || grep -q '^\[FSCK\] PR_' "$WORK/last.out"; then
		fail "$1" "our fsck exited $RC: $(grep -m2 '^\[FSCK\] PR_' "$WORK/last.out")"
		return 1
	fi
}

# up_clean NAME IMG: upstream's fsck finds no quota problem and exits 0
up_clean() {
	have_upstream fsck || return 0
	fsck_run "$2" "$WORK/up.out"
	if [ "$RC" -ne 0 ] || grep -q 'Quota' "$WORK/up.out"; then
		fail "$1" "upstream fsck exited $RC: $(grep -m2 -E 'Quota|ASSERT' "$WORK/up.out")"
		return 1
	fi
}

new_loaded() {
	rm -f "$1" && truncate -s 256M "$1" &&
		"$MKFS" -q -f -O "$FEATURES" "$1" </dev/null >/dev/null 2>&1 &&
		"$SLOAD" -f "$SRC" "$1" </dev/null >/dev/null 2>&1
}

BASE=$WORK/base.img
if ! new_loaded "$BASE"; then
	fail sload "mkfs or sload failed"
	finish
fi
ours_clean sload "$BASE" && up_clean sload "$BASE" && pass sload

IMG=$WORK/replay.img
truncate -s 512M "$IMG"
run_cmd "$F2FS_IO" replay --mkfs "-O $FEATURES" --count 30 --file-size 2M ckpt-storm "$IMG"
if [ "$RC" -ne 0 ]; then
	fail replay "f2fs_io replay exited $RC: $(tail -1 "$WORK/last.err")"
else
	ours_clean replay "$IMG" && up_clean replay "$IMG" && pass replay
fi

# damage NAME: a copy of the base image at $IMG, broken as NAME says
damage() {
	local q first blk flags
	IMG=$WORK/$1.img
	cp --sparse=always "$BASE" "$IMG"
	case $1 in
	usage) "$INJECT" --node --nid 3 --mb i_uid --val 4242 "$IMG" >/dev/null ;;
	file)
		q=$("$INJECT" --dry-run --sb 1 --mb qf_ino --idx 1 --val 0 "$IMG" 2>/dev/null |
			sed -n 's/.*: \([0-9]*\) (0x.*/\1/p')
		first=$(($("$INJECT" --dry-run --node --nid "$q" --mb i_extra_isize --val 0 "$IMG" 2>/dev/null |
			sed -n 's/.*: \([0-9]*\) (0x.*/\1/p') / 4))
		blk=$("$INJECT" --dry-run --node --nid "$q" --mb i_addr --idx "$first" --val 0 "$IMG" 2>/dev/null |
			sed -n 's/.*: \([0-9]*\) (0x.*/\1/p')
		[ -n "$blk" ] && head -c 4096 /dev/zero | tr '\0' '\377' |
			dd of="$IMG" bs=4096 seek="$blk" count=1 conv=notrunc status=none
		;;
	need-fsck)
		flags=$("$INJECT" --dry-run --cp 0 --mb ckpt_flags --val 0 "$IMG" 2>/dev/null |
			sed -n 's/.*: \([0-9]*\) (0x.*/\1/p')
		[ -n "$flags" ] && "$INJECT" --cp 0 --mb ckpt_flags --val $((flags | 0x800)) "$IMG" >/dev/null
		;;
	esac
}

for c in usage:PR_QUOTA_USAGE file:PR_QUOTA_FILE need-fsck:PR_QUOTA_NEED_FSCK; do
	name=${c%%:*} code=${c#*:}
	if ! damage "$name"; then
		fail "$name" "cannot damage the image"
		continue
	fi
	before=$(fingerprint "$IMG")
	run_cmd "$FSCK" -f -n "$IMG"
	if [ "$RC" -ne 4 ] || ! grep -q "^\[FSCK\] $code:" "$WORK/last.out"; then
		fail "$name" "fsck -n exited $RC without $code: $(grep -m2 '^\[FSCK\] PR_' "$WORK/last.out")"
		continue
	fi
	if [ "$name" != need-fsck ] && ! grep -q '^\[ASSERT\] --> Quota file is missing or invalid' "$WORK/last.out"; then
		fail "$name" "no upstream line beside $code"
		continue
	fi
	[ "$(fingerprint "$IMG")" = "$before" ] || { fail "$name" "fsck -n wrote to the image"; continue; }
	run_cmd "$FSCK" -y "$IMG"
	if [ "$RC" -ne 1 ] || ! grep -q '^\[FIX\] Rebuild: quota files rewritten.*done' "$WORK/last.out"; then
		fail "$name" "fsck -y exited $RC: $(grep -m2 -E '^\[FIX\]|left' "$WORK/last.out")"
		continue
	fi
	ours_clean "$name" "$IMG" || continue
	if "$FSCK" -n "$IMG" </dev/null 2>&1 | grep -q 'checkpoint state = .*quota_need_fsck'; then
		fail "$name" "the checkpoint still carries quota_need_fsck"
		continue
	fi
	up_clean "$name" "$IMG" && pass "$name"
done
finish
