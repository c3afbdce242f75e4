#!/bin/bash
# -g android: the superblock and checkpoint mkfs writes equal newest
# upstream's field by field (dump.f2fs -d 1) for the volumes of
# android-layout.matrix -- no nat_bits (ckpt_flags 0x105, not 0x185), the
# Android features, hash-only casefolded lookups -- through mkfs-layout.sh,
# against newest upstream when built and everywhere against the checked-in
# android-layout.expected.  sload's fs_config "capabilities=" gives the
# security.capability xattr the kernel reads: a revision 2 vfs_cap_data,
# effective, the set as the permitted words, checked byte for byte in the
# image; both fscks are clean after it; a bad capabilities= value is
# refused in one line with nothing written.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

B=${TOP_BUILDDIR:-$TOP}
FSCK=${FSCK:-$B/fsck/fsck.f2fs}
SLOAD=${SLOAD:-$B/sload/sload.f2fs}
NEWEST_FSCK=${UPSTREAM_NEWEST_FSCK:-$(dirname "$TOP")/upstream-f2fs-tools/fsck/fsck.f2fs}

# --- the layout, through mkfs-layout.sh on the Android matrix -------------------------

while IFS= read -r line; do
	case $line in
	PASS:*) pass "layout ${line#PASS: }" ;;
	SKIP:*) skip "layout $(cut -d: -f2 <<<"$line" | sed 's/^ //')" "${line#SKIP: *: }" ;;
	*) r=${line#FAIL: } && fail "layout ${r%%: *}" "${r#*: }" ;;
	esac
done < <(LAYOUT_MATRIX=$TOP/tests/cli/android-layout.matrix \
	LAYOUT_EXPECTED=$TOP/tests/cli/android-layout.expected bash "$TOP/tests/cli/mkfs-layout.sh" 2>/dev/null)

# nat_bits off, said once more without the table: the checkpoint flags are 0x105
img=$WORK/android.img
truncate -s 1G "$img"
run_cmd "$MKFS" -g android "$img"
flags=$(grep -E '^ckpt_flags' <("$B/dump/dump.f2fs" -d 1 "$img" 2>/dev/null) | sed -E 's/.*: *([0-9]+)\]$/\1/')
if [ "$RC" -ne 0 ]; then
	fail android-ckpt-flags "mkfs exit $RC: $(snippet "$WORK/last.err")"
elif [ "$flags" != 261 ]; then
	fail android-ckpt-flags "ckpt_flags $flags, want 261 (0x105: unmount, compacted summary, trimmed; no nat_bits)"
elif ! grep -q '^Info: Set conf for android$' "$WORK/last.out"; then
	fail android-ckpt-flags "no 'Info: Set conf for android' line"
else
	pass android-ckpt-flags
fi

# --- capabilities= -----------------------------------------------------------------

src=$WORK/src
mkdir -p "$src/bin" "$src/etc"
echo ping >"$src/bin/ping"
echo conf >"$src/etc/conf"
cat >"$WORK/fs_config" <<'CFG'
bin 0 2000 0755
bin/ping 0 2000 0750 capabilities=0x3000
etc/conf 1000 1000 0640 capabilities=0
CFG

# cap_value IMG: the value bytes of every security.capability entry in IMG, in hex:
# an xattr entry is a head (name index 6, name length 10, value size 20 as le16),
# the name "capability", then the value.
cap_value() {
	python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
head = bytes([6, 10, 20, 0]) + b'capability'
i = data.find(head)
while i >= 0:
    print(data[i + len(head):i + len(head) + 20].hex())
    i = data.find(head, i + 1)
PY
}

run_cmd "$SLOAD" -C "$WORK/fs_config" -f "$src" "$img"
if [ "$RC" -ne 0 ]; then
	fail capabilities "sload exit $RC: $(snippet "$WORK/last.err")"
else
	# magic_etc 0x02000001 (revision 2, effective), permitted 0x3000 (bits 12 and
	# 13: CAP_NET_ADMIN, CAP_NET_RAW), inheritable 0, the high words 0
	want=0100000200300000000000000000000000000000
	got=$(cap_value "$img" | tr '\n' ' ')
	if [ "$got" = "$want " ]; then
		pass capabilities
	else
		fail capabilities "security.capability values: '$got', want exactly one: $want"
	fi
	run_cmd "$FSCK" "$img"
	if [ "$RC" -ne 0 ]; then
		fail capabilities-fsck-clean "our fsck exit $RC: $(snippet "$WORK/last.out")"
	elif [ -x "$NEWEST_FSCK" ] && ! "$NEWEST_FSCK" "$img" >"$WORK/up.out" 2>&1; then
		fail capabilities-fsck-clean "newest upstream fsck: $(grep -E 'Fail|rror' "$WORK/up.out" | head -2)"
	else
		pass capabilities-fsck-clean
	fi
fi

truncate -s 1G "$WORK/bad.img"
"$MKFS" -q -f "$WORK/bad.img" >/dev/null
printf 'bin/ping 0 0 0755 capabilities=lots\n' >"$WORK/bad_config"
REFUSE_IMAGE=$WORK/bad.img expect_refusal capabilities-bad-value 'capabilities= needs a number' -- \
	"$SLOAD" -C "$WORK/bad_config" -f "$src" "$WORK/bad.img"

# --- fsck -g android ---------------------------------------------------------------
# Upstream's Android defaults for fsck: a boot-time run (-a: a volume the
# kernel left clean is not checked), casefolded names looked up by hash
# only (the superblock's s_encoding_flags gets 2 where casefold is on),
# write hints, and no nat_bits in the checkpoint a repair writes.  Output
# and image equal newest upstream's (its "[update_superblock: N]" debug
# line aside).
android_fsck_pair() { # NAME MKFS-ARGS...: ours and newest upstream's on copies
	local name=$1
	shift
	truncate -s 256M "$WORK/fa.img" && run_cmd "$MKFS" -q -f "$@" "$WORK/fa.img" &&
		cp --sparse=always "$WORK/fa.img" "$WORK/fb.img" || {
		fail "$name" "mkfs $*: $(snippet "$WORK/last.err")"
		return 1
	}
	run_cmd "$FSCK" -g android "$WORK/fa.img"
	mv "$WORK/last.out" "$WORK/ours.out"
	ours=$RC
	run_cmd "$NEWEST_FSCK" -g android "$WORK/fb.img"
	if [ "$ours" -ne 0 ] || [ "$RC" -ne 0 ]; then
		fail "$name" "exit ours $ours, upstream $RC, want 0"
	elif ! diff <(cat "$WORK/ours.out") <(grep -v '^\[update_superblock' "$WORK/last.out") \
		>"$WORK/diff"; then
		fail "$name" "output differs from newest upstream's: $(snippet "$WORK/diff" 300)"
	elif ! cmp -s "$WORK/fa.img" "$WORK/fb.img"; then
		fail "$name" "the image differs from the one newest upstream's fsck left"
	elif ! grep -q '^Info: No error was reported$' "$WORK/ours.out" ||
		grep -q 'Checked valid nat_bits' "$WORK/ours.out"; then
		fail "$name" "not a boot-time run that stops at the header"
	else
		pass "$name"
	fi
}
if [ -x "$NEWEST_FSCK" ]; then
	android_fsck_pair fsck-g-android-clean
	android_fsck_pair fsck-g-android-casefold -O casefold -C utf8
	enc_flags=$("$B/dump/dump.f2fs" -d 1 "$WORK/fa.img" 2>/dev/null | grep -E '^s_encoding_flags')
	case $enc_flags in
	*": 2]") pass fsck-g-android-hash-only ;;
	*) fail fsck-g-android-hash-only "s_encoding_flags after fsck -g android: $enc_flags, want 2" ;;
	esac
else
	skip fsck-g-android-clean "no newest upstream fsck at $NEWEST_FSCK"
fi

# A repair under -g android writes its checkpoint without nat_bits (plain -f keeps them).
ckpt_flags() {
	"$B/dump/dump.f2fs" -d 1 "$1" 2>/dev/null | sed -nE 's/^ckpt_flags.*: *([0-9]+)\]$/\1/p'
}
truncate -s 256M "$WORK/r.img"
mkdir -p "$WORK/rsrc" && echo a >"$WORK/rsrc/a" && echo b >"$WORK/rsrc/b"
run_cmd "$MKFS" -q -f "$WORK/r.img" && run_cmd "$SLOAD" -f "$WORK/rsrc" "$WORK/r.img" &&
	run_cmd "$B/inject/inject.f2fs" --node --nid 4 --mb i_links --val 7 "$WORK/r.img"
cp --sparse=always "$WORK/r.img" "$WORK/r2.img"
run_cmd "$FSCK" -f "$WORK/r2.img"
plain=$(ckpt_flags "$WORK/r2.img")
run_cmd "$FSCK" -g android -f "$WORK/r.img"
rc=$RC
android=$(ckpt_flags "$WORK/r.img")
run_cmd "$FSCK" "$WORK/r.img"
if [ "$rc" -ne 1 ]; then
	fail fsck-g-android-no-nat-bits "fsck -g android -f exit $rc, want 1 (fixed)"
elif [ $((plain & 0x80)) -eq 0 ] || [ $((android & 0x80)) -ne 0 ]; then
	fail fsck-g-android-no-nat-bits "ckpt_flags plain -f $plain, -g android -f $android: want nat_bits (0x80) only in the first"
elif [ "$RC" -ne 0 ]; then
	fail fsck-g-android-no-nat-bits "not clean after the repair: $(snippet "$WORK/last.out")"
else
	pass fsck-g-android-no-nat-bits
fi

finish
