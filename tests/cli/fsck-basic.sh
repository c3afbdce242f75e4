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
INJECT=${INJECT:-$(cd "$(dirname "$0")/../.." && pwd)/inject/inject.f2fs}
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
if [ "$RC" -eq 0 ] && grep -qx '|-- lost+found <ino = 0x4>, <encrypted (0)>' "$WORK/last.out"; then
	pass tree-shows-lost+found
else
	fail tree-shows-lost+found "rc $RC: $(snippet "$WORK/last.out")"
fi
# a name with control characters is escaped, never printed raw
if [ -x "${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}" ]; then
	mkdir -p "$WORK/tree" && : >"$WORK/tree/$(printf 'bad\033[2Jname\tx')"
	truncate -s 1G "$WORK/names.img" && "$MKFS" -q -f "$WORK/names.img" &&
		"${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}" -f "$WORK/tree" "$WORK/names.img" >/dev/null 2>&1 </dev/null
	run_cmd "$FSCK" -t "$WORK/names.img"
	if grep -q 'bad\\x1b\[2Jname\\x09x <ino' "$WORK/last.out" && ! grep -q "$(printf '\033')" "$WORK/last.out"; then
		pass tree-escapes-control-characters
	else
		fail tree-escapes-control-characters "$(grep -a 'bad' "$WORK/last.out" | cat -v | head -c 200)"
	fi
else
	skip tree-escapes-control-characters "no sload.f2fs to put such a name on an image"
fi
run_cmd "$FSCK" -d 1 "$img"
sections=$(grep -c '^\[FSCK\] section [0-9]*: ' "$WORK/last.out")
# the six open logs of a fresh -s 128 volume are in six sections
if [ "$RC" -eq 0 ] && [ "$sections" -eq 6 ]; then
	pass debug-lists-sections
else
	fail debug-lists-sections "rc $RC, $sections section lines"
fi
run_cmd "$FSCK" --quiet "$img"
if [ "$RC" -eq 0 ] && [ ! -s "$WORK/last.out" ]; then
	pass quiet-prints-nothing
else
	fail quiet-prints-nothing "rc $RC, output: $(snippet "$WORK/last.out")"
fi

# upstream's command line: every option is accepted, the check still runs
# and is clean, and the Info line upstream prints for it is there
accepts() { # NAME INFO-REGEX|- OPTIONS...
	local name=$1 info=$2
	shift 2
	run_cmd "$FSCK" "$@" "$img"
	if [ "$RC" -ne 0 ] || ! grep -q 'other corrupted bugs .*\[Ok..\]' "$WORK/last.out"; then
		fail "option-$name" "rc $RC: $(snippet "$WORK/last.out")"
	elif [ "$info" != - ] && ! grep -Eq "$info" "$WORK/last.out"; then
		fail "option-$name" "no line matching '$info'"
	else
		pass "option-$name"
	fi
}
# boot-time runs: -a, -p and -p 0 check nothing on a volume the kernel left
# clean, as upstream (f2fs_should_proceed), and say so; -f makes them check
skips() { # NAME INFO-REGEX OPTIONS...
	local name=$1 info=$2
	shift 2
	run_cmd "$FSCK" "$@" "$img"
	if [ "$RC" -ne 0 ] || ! grep -q '^Info: No error was reported$' "$WORK/last.out" ||
		grep -q '^\[FSCK\]' "$WORK/last.out" || ! grep -Eq "$info" "$WORK/last.out"; then
		fail "option-$name" "rc $RC: $(snippet "$WORK/last.out")"
	else
		pass "option-$name"
	fi
}
skips a '^Info: Automatic fix mode enabled\.$' -a
accepts a-then-f '^Info: Automatic fix mode enabled\.$' -a -f
accepts c - -c 1024
accepts m - -m 16
accepts debug-cache - --debug-cache
accepts C - -C utf8:strict
accepts d5 '^Info: Debug level = 5$' -d 5
accepts d12 '^Info: Debug level = 12$' -d 12
accepts f '^Info: Force to fix corruption$' -f
accepts y '^Info: Force to fix corruption$' -y
skips g '^Info: Set conf for android$' -g android # a boot-time run, as upstream's -g android
accepts H - -H
run_cmd "$FSCK" -l "$img"
if [ "$RC" -eq 0 ] && grep -q '^magic: *4076150800$' "$WORK/last.out" &&
	grep -q '^checkpoint_ver: ' "$WORK/last.out" && ! grep -q '^\[FSCK\]' "$WORK/last.out"; then
	pass option-l-layout-only
else
	fail option-l-layout-only "rc $RC: $(snippet "$WORK/last.out")"
fi
accepts M - -M
accepts O - -O encrypt,extra_attr
skips p-alone '^Info: Use default preen mode$' -p
skips p0 '^Info: Fix the reported corruption in preen mode 0$' -p 0
accepts p2 '^Info: Fix the reported corruption in preen mode 2$' -p 2
accepts p-then-f '^Info: Use default preen mode$' -p -f
# the kernel's fsck flag (set when it met an error) makes -a check
flagged=$WORK/flagged.img
cp "$img" "$flagged"
flags=$("$INJECT" --dry-run --cp 0 --mb ckpt_flags --val 0 "$flagged" 2>/dev/null | sed -n 's/.*: \([0-9]*\) (0x.*/\1/p' | head -1)
if [ -n "$flags" ] && "$INJECT" --cp 0 --mb ckpt_flags --val $((flags | 0x10)) "$flagged" >/dev/null 2>&1; then
	run_cmd "$FSCK" -a "$flagged"
	if grep -q 'other corrupted bugs .*\[Ok..\]' "$WORK/last.out" &&
		! grep -q 'No error was reported' "$WORK/last.out"; then
		pass option-a-fsck-flag-checks
	else
		fail option-a-fsck-flag-checks "rc $RC: $(snippet "$WORK/last.out")"
	fi
else
	fail option-a-fsck-flag-checks "cannot set CP_FSCK_FLAG with inject.f2fs"
fi
accepts q '^Info: Preserve quota limits = 1$' -q 1
# -S reads an Android sparse image (tests/cli/sparse.sh); a raw image is not one
REFUSE_IMAGE=$img expect_refusal option-S-raw-image 'not an Android sparse image|without android-libsparse' -- \
	"$FSCK" -S "$img"
accepts t - -t
accepts N - -N
accepts n - -n
accepts dry-run '^Info: Dry run$' --dry-run
accepts no-kernel-check '^Info: No Kernel Check$' --no-kernel-check
accepts kernel-check '^Info: Do Kernel Check$' --kernel-check
accepts nolinear-lookup - --nolinear-lookup=1

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
refuse bad-preen-level 16 'invalid value for -p' -- "$FSCK" -p 3 "$img"
refuse bad-quota-id 16 'invalid value for -q' -- "$FSCK" -q x "$img"
refuse bad-cache-entries 16 'invalid value for -c' -- "$FSCK" -c -1 "$img"
refuse bad-encoding 16 'unknown casefolding encoding' -- "$FSCK" -C latin1 "$img"
refuse bad-feature 16 'unknown feature' -- "$FSCK" -O nosuch "$img"
refuse extra-argument 16 'unexpected argument' -- "$FSCK" "$img" more
refuse missing-device 8 'cannot open' -- "$FSCK" "$WORK/absent.img"
refuse not-f2fs 8 'superblock' -- "$FSCK" "$WORK/zero.img"
head -c 4M "$img" >"$WORK/trunc.img"
refuse truncated-image 8 'superblock|block_count|exceeds' -- "$FSCK" "$WORK/trunc.img"

# The checkpoint state line names a checkpoint written without unmount, as upstream does.
WRTOOL=${WRTOOL:-$TOP/tests/cli/wrtool}
state=$WORK/state.img
rm -f "$state" && truncate -s 128M "$state" && "$MKFS" -q -f "$state"
if "$FSCK" "$state" | grep -q '^Info: checkpoint state = .* unmount$'; then
	"$WRTOOL" "$state" create /f sync >/dev/null 2>&1
	if "$FSCK" "$state" | grep -q '^Info: checkpoint state = .* sudden-power-off$'; then
		pass "cp-state-sudden-power-off"
	else
		fail "cp-state-sudden-power-off" "no 'sudden-power-off' after a checkpoint without unmount"
	fi
else
	fail "cp-state-sudden-power-off" "a fresh image's state line does not end in 'unmount'"
fi
# One handle for a whole repair run (lib/repair/session.c): fsck -y opens the device once
# for the check, the rounds and the verdict after them (besides the probe for a busy
# device, which does not read), and reads the volume again once per checkpoint it writes.
one=$WORK/one.img
rm -f "$one" && truncate -s 128M "$one" && "$MKFS" -q -f -O extra_attr "$one"
"$INJECT" --cp 0 --mb valid_inode_count --val 9 "$one" >/dev/null 2>&1
if ! command -v strace >/dev/null; then
	skip one-open "strace is not installed"
else
	strace -f -e trace=openat,pread64 -o "$WORK/strace.out" "$FSCK" -y "$one" >"$WORK/one.out" 2>&1
	rc=$?
	opens=$(grep -c "openat(.*one.img\", O_RDWR" "$WORK/strace.out")
	others=$(grep "openat(.*one.img\"" "$WORK/strace.out" | grep -vc 'O_RDWR\|O_NONBLOCK')
	# copy 1 of the superblock: read at each load of the volume (the open, each reload)
	loads=$(grep -c 'pread64(.*, 3072, 1024) = 3072' "$WORK/strace.out")
	if [ "$rc" -ne 1 ] || ! grep -q '0 left after the repairs' "$WORK/one.out"; then
		fail one-open "fsck -y exited $rc: $(grep -m2 -E 'PR_|left' "$WORK/one.out" | tr '\n' ' ')"
	elif [ "$opens" -ne 1 ] || [ "$others" -ne 0 ]; then
		fail one-open "the image was opened $opens time(s) for writing and $others more"
	elif [ "$loads" -gt 4 ]; then
		fail one-open "the volume was read $loads times for a one-round repair (open and one reload: 2 or 4 with both copies)"
	else
		pass one-open
	fi
fi
# -p 1 checks the metadata only, as upstream's: tables that agree end the run (exit 0,
# the image untouched, a problem only the walk sees not looked for); tables that do
# not get the full check and preen's repairs.
p1=$WORK/p1.img
rm -f "$p1" && truncate -s 128M "$p1" && "$MKFS" -q -f "$p1"
"$WRTOOL" "$p1" create /a write /a 0 20000 umount >/dev/null 2>&1
before=$(fingerprint "$p1")
run_cmd "$FSCK" -p 1 "$p1"
if [ "$RC" -ne 0 ] || ! grep -q '^\[FSCK\] F2FS metadata   \[Ok..\]' "$WORK/last.out" ||
	grep -q 'valid_block_count' "$WORK/last.out" || [ "$(fingerprint "$p1")" != "$before" ]; then
	fail p1-clean "exit $RC: $(grep -m2 -E 'metadata|PR_' "$WORK/last.out" | tr '\n' ' ')"
else
	pass p1-clean
fi
"$INJECT" --node --nid 3 --mb i_links --val 9 "$p1" >/dev/null 2>&1
before=$(fingerprint "$p1")
run_cmd "$FSCK" -p 1 "$p1"
if [ "$RC" -ne 0 ] || ! grep -q 'F2FS metadata   \[Ok..\]' "$WORK/last.out" || [ "$(fingerprint "$p1")" != "$before" ]; then
	fail p1-tree-problem-not-looked-for "exit $RC: $(grep -m2 -E 'metadata|PR_' "$WORK/last.out" | tr '\n' ' ')"
else
	pass p1-tree-problem-not-looked-for
fi
"$INJECT" --cp 0 --mb free_segment_count --val 5 "$p1" >/dev/null 2>&1
run_cmd "$FSCK" -p 1 "$p1"
if [ "$RC" -ne 1 ] || ! grep -q 'F2FS metadata   \[Fail\].*free segments' "$WORK/last.out" ||
	! grep -q '0 left after the repairs' "$WORK/last.out"; then
	fail p1-tables-disagree "exit $RC: $(grep -m3 -E 'metadata|PR_|left' "$WORK/last.out" | tr '\n' ' ')"
else
	run_cmd "$FSCK" "$p1"
	[ "$RC" -eq 0 ] && pass p1-tables-disagree || fail p1-tables-disagree "not clean after: exit $RC"
fi
# More directories than the checker's first table holds (1024 slots, grown
# at 768): a subdirectory entered while the table grows still counts as
# its parent's link (a stale pointer into the old table once lost it, and
# /usr/include checked as PR_DIR_LINKS).
SLOAD=${OUR_SLOAD:-$(cd "$(dirname "$0")/../.." && pwd)/sload/sload.f2fs}
many=$WORK/many.img tree=$WORK/many-dirs
mkdir -p "$tree"
for i in $(seq 1 500); do mkdir -p "$tree/d$i/sub"; done
rm -f "$many" && truncate -s 256M "$many" && "$MKFS" -q -f "$many" >/dev/null 2>&1
if ! "$SLOAD" -f "$tree" "$many" >"$WORK/sload.out" 2>&1; then
	fail many-dirs "sload failed: $(snippet "$WORK/sload.out")"
else
	run_cmd "$FSCK" --dry-run "$many"
	[ "$RC" -eq 0 ] && pass many-dirs ||
		fail many-dirs "exit $RC: $(grep -m2 PR_ "$WORK/last.out" | tr '\n' ' ')"
fi
# An encrypted directory's names are ciphertext: any byte, a NUL or a slash
# among them.  The kernel marks encryption in i_advise (FADVISE_ENCRYPT),
# not i_flags; a check that looked at i_flags flagged a ciphertext name as
# PR_DENT_NAME_CHARS and cut its file off (tests/kernel/015, 1 run in 5).
enc=$WORK/enc.img
rm -f "$enc" && truncate -s 64M "$enc" && "$MKFS" -q -f -O encrypt "$enc" >/dev/null 2>&1 &&
	"$WRTOOL" "$enc" mkdir /d create /d/ab umount >/dev/null 2>&1
blk=$("$(dirname "$FSCK")/../dump/dump.f2fs" -I 4 "$enc" 2>/dev/null |
	sed -n 's/^Info: nid: 4, blkaddr: \([0-9]*\)$/\1/p')
if [ -z "$blk" ] || ! python3 - "$enc" "$blk" <<'PY'; then
import sys
with open(sys.argv[1], "r+b") as f:
    off = int(sys.argv[2]) * 4096
    f.seek(off)
    b = bytearray(f.read(4096))
    b[2] |= 0x04  # i_advise: FADVISE_ENCRYPT
    i = b.find(b"ab", 360)  # the inline dentry's name
    assert i > 0
    b[i + 1] = ord("/")
    f.seek(off)
    f.write(b)
PY
	fail encrypted-name-bytes "could not make the image"
else
	run_cmd "$FSCK" --dry-run "$enc"
	[ "$RC" -eq 0 ] && pass encrypted-name-bytes ||
		fail encrypted-name-bytes "exit $RC: $(grep -m2 PR_ "$WORK/last.out" | tr '\n' ' ')"
fi
finish
