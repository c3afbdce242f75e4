#!/bin/bash
# Basic fsck.f2fs behaviour: fresh images of several option sets are clean
# (exit 0, every [FSCK] line Ok, the image unchanged), -t lists the tree,
# -d 1 lists the sections, and bad input gets one line and the e2fsck exit
# codes: 8 when the device cannot be read as F2FS, 16 for usage errors.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs
FSCK=${FSCK:-$(cd "$(dirname "$0")/../.." && pwd)/fsck/fsck.f2fs}
if [ ! -x "$FSCK" ]; then
	fail setup "FSCK=$FSCK is not executable (build with make first)"
	finish
fi

img=$WORK/img

# clean NAME SIZE MKFS-OPTS...: a fresh image must check clean and stay untouched.
clean() {
	local name=$1 size=$2 before
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img"
	if ! "$MKFS" -q -f "$@" "$img" >"$WORK/mkfs.out" 2>&1; then
		fail "$name" "mkfs failed: $(snippet "$WORK/mkfs.out")"
		return
	fi
	before=$(fingerprint "$img")
	run_cmd "$FSCK" -f "$img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "fsck exited $RC: $(grep -m3 PR_ "$WORK/last.out" | tr '\n' ' ')"
	elif grep -q '\[Fail\]' "$WORK/last.out" || ! grep -q 'other corrupted bugs .*\[Ok..\]' "$WORK/last.out"; then
		fail "$name" "summary not all Ok: $(grep -m2 Fail "$WORK/last.out" | tr '\n' ' ')"
	elif [ "$(fingerprint "$img")" != "$before" ]; then
		fail "$name" "fsck changed the image"
	else
		pass "$name"
	fi
}

clean fresh-1g 1G
clean fresh-features 2G -O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found,compression
clean fresh-quota 1G -O extra_attr,quota,project_quota,lost_found
clean fresh-s128 8G -s 128
clean fresh-heap-i-z3 3G -a 1 -i -s 2 -z 3

# -t shows lost+found under the root; -d 1 prints one line per used section.
rm -f "$img"
truncate -s 8G "$img"
"$MKFS" -q -f -s 128 -O extra_attr,lost_found "$img"
run_cmd "$FSCK" -t "$img"
if [ "$RC" -eq 0 ] && grep -qx '|-- lost+found/' "$WORK/last.out"; then
	pass tree-shows-lost+found
else
	fail tree-shows-lost+found "rc $RC: $(snippet "$WORK/last.out")"
fi
run_cmd "$FSCK" -d 1 "$img"
sections=$(grep -c '^\[FSCK\] section [0-9]*: ' "$WORK/last.out")
# the six open logs of a fresh -s 128 volume are in six sections
if [ "$RC" -eq 0 ] && [ "$sections" -eq 6 ]; then
	pass debug-lists-sections
else
	fail debug-lists-sections "rc $RC, $sections section lines"
fi
run_cmd "$FSCK" -q "$img"
if [ "$RC" -eq 0 ] && [ ! -s "$WORK/last.out" ]; then
	pass quiet-prints-nothing
else
	fail quiet-prints-nothing "rc $RC, output: $(snippet "$WORK/last.out")"
fi

# bad input: one line on stderr, the documented exit code
refuse() { # NAME CODE REGEX -- CMD...: one refusal case, then its exit code
	local name=$1 code=$2 regex=$3
	shift 3
	expect_refusal "$name" "$regex" "$@"
	if [ "$RC" -eq "$code" ]; then
		pass "$name/exit-$code"
	else
		fail "$name/exit-$code" "exit $RC"
	fi
}
truncate -s 64M "$WORK/zero.img"
refuse no-device 16 'no device' -- "$FSCK"
refuse unknown-option 16 'unknown option' -- "$FSCK" -Q "$img"
refuse bad-debug-level 16 'invalid value for -d' -- "$FSCK" -d x "$img"
refuse extra-argument 16 'unexpected argument' -- "$FSCK" "$img" more
refuse missing-device 8 'cannot open' -- "$FSCK" "$WORK/absent.img"
refuse not-f2fs 8 'superblock' -- "$FSCK" "$WORK/zero.img"
head -c 4M "$img" >"$WORK/trunc.img"
refuse truncated-image 8 'superblock|block_count|exceeds' -- "$FSCK" "$WORK/trunc.img"
finish
