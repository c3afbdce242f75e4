#!/bin/bash
# f2fslabel: prints the label mkfs set, sets a new one (UTF-8 beyond ASCII
# included) in both superblock copies, clears it, and leaves the volume
# clean for our fsck and upstream's; blkid and upstream's dump read what
# it wrote.  A label too long or not UTF-8, a target without F2FS, a
# missing or extra argument: one line, exit 1, nothing written.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

LABEL=${F2FSLABEL:-${TOP_BUILDDIR:-$TOP}/label/f2fslabel}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
IMG=$WORK/disk.img

[ -x "$LABEL" ] || {
	fail setup "$LABEL is not executable"
	finish
}
truncate -s 256M "$IMG"
run_cmd "$MKFS" -q -l hello "$IMG"
[ "$RC" -eq 0 ] || {
	fail mkfs "exit $RC: $(snippet "$WORK/last.err")"
	finish
}

# printed LINE NAME: f2fslabel IMG printed exactly LINE, exit 0.
printed() {
	local want=$1 name=$2
	run_cmd "$LABEL" "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "exit $RC: $(snippet "$WORK/last.err")"
	elif [ "$(cat "$WORK/last.out")" != "$want" ]; then
		fail "$name" "printed '$(snippet "$WORK/last.out")', want '$want'"
	else
		pass "$name"
	fi
}

# both_copies TEXT: the label in the superblock copies of blocks 0 and 1
# (UTF-16LE at byte 1024 + 0x7c of each) is TEXT.
both_copies() {
	local want blk got
	want=$(printf '%s' "$1" | iconv -f UTF-8 -t UTF-16LE | od -An -tx1 | tr -d ' \n')
	for blk in 0 1; do
		got=$(dd if="$IMG" bs=1 skip=$((blk * 4096 + 1024 + 0x7c)) count=${#want} \
			status=none | od -An -tx1 | tr -d ' \n')
		[ "${got:0:${#want}}" = "$want" ] || return 1
	done
}

# clean NAME: our fsck and upstream's (when built) find no problem.
clean() {
	local name=$1
	run_cmd "$FSCK" -f "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our fsck exit $RC: $(snippet "$WORK/last.out")"
		return 1
	fi
	if have_upstream fsck; then
		run_cmd "$UPSTREAM_FSCK" --dry-run -f "$IMG"
		if [ "$RC" -ne 0 ] || grep -qE '\[Fail\]|Invalid SB|Magic Mismatch' "$WORK/last.out"; then
			fail "$name" "upstream fsck exit $RC: $(grep -m2 -E 'Fail|Invalid' "$WORK/last.out")"
			return 1
		fi
	fi
	pass "$name"
}

printed "Info: volume label = hello" print-mkfs-label

text='Données ✓ 😀'
run_cmd "$LABEL" "$IMG" "$text"
if [ "$RC" -ne 0 ] || [ "$(cat "$WORK/last.out")" != "Info: volume label is changed to $text" ]; then
	fail set-utf8 "exit $RC: $(snippet "$WORK/last.out") $(snippet "$WORK/last.err")"
elif ! both_copies "$text"; then
	fail set-utf8 "the two superblock copies do not both hold the label"
else
	pass set-utf8
fi
printed "Info: volume label = $text" print-utf8
clean clean-after-set
if command -v blkid >/dev/null; then
	got=$(blkid -p -s LABEL -o value "$IMG" 2>/dev/null)
	[ "$got" = "$text" ] && pass blkid-reads-it || fail blkid-reads-it "blkid says '$got'"
else
	skip blkid-reads-it "no blkid"
fi
if have_upstream dump; then
	got=$(dump_field "$IMG" volum_name)
	[ "$got" = "$text" ] && pass upstream-dump-reads-it ||
		fail upstream-dump-reads-it "upstream dump says '$got'"
else
	skip upstream-dump-reads-it "upstream dump.f2fs not built"
fi

# the most that fits, then nothing: cleared
run_cmd "$LABEL" "$IMG" "$(printf 'x%.0s' $(seq 512))"
[ "$RC" -eq 0 ] && pass set-512-units || fail set-512-units "exit $RC: $(snippet "$WORK/last.err")"
run_cmd "$LABEL" "$IMG" ""
printed "Info: volume label = " clear
clean clean-after-clear

# a volume with sb_checksum: the copies' checksum is set again
run_cmd "$MKFS" -q -f -O sb_checksum "$IMG"
run_cmd "$LABEL" "$IMG" sealed
[ "$RC" -eq 0 ] && clean sb-checksum || fail sb-checksum "exit $RC: $(snippet "$WORK/last.err")"
printed "Info: volume label = sealed" print-sb-checksum

# bad input: one line, exit 1, nothing written
REFUSE_IMAGE=$IMG expect_refusal too-long "label is too long: at most 512 UTF-16 units" -- \
	"$LABEL" "$IMG" "$(printf 'y%.0s' $(seq 513))"
REFUSE_IMAGE=$IMG expect_refusal too-long-astral "too long" -- \
	"$LABEL" "$IMG" "$(printf '😀%.0s' $(seq 257))"
REFUSE_IMAGE=$IMG expect_refusal not-utf8 "not valid UTF-8" -- "$LABEL" "$IMG" $'\xff\xfe'
REFUSE_IMAGE=$IMG expect_refusal extra-argument "unknown argument c" -- "$LABEL" "$IMG" b c
REFUSE_IMAGE=$IMG expect_refusal unknown-option "unknown option -q" -- "$LABEL" -q "$IMG"
truncate -s 64M "$WORK/zero.img"
REFUSE_IMAGE=$WORK/zero.img expect_refusal not-f2fs "zero.img: " -- "$LABEL" "$WORK/zero.img" x
REFUSE_IMAGE=$WORK/zero.img expect_refusal not-f2fs-print "zero.img: " -- "$LABEL" "$WORK/zero.img"
REFUSE_IMAGE=$WORK/none.img expect_refusal no-such-file "none.img" -- "$LABEL" "$WORK/none.img" x
run_cmd "$LABEL"
if [ "$RC" -eq 1 ] && grep -q "no device given" "$WORK/last.err"; then
	pass no-device
else
	fail no-device "exit $RC: $(snippet "$WORK/last.err")"
fi
finish
