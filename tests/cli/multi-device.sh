#!/bin/bash
# Multi-device volumes: the tools open every device the superblock lists
# and check the volume across all of them.  The volume is made by upstream's
# mkfs.f2fs -c (two 1 GiB image files).  Then:
#   fsck-clean        our fsck on the first image: exit 0, no problem line,
#                     no "truncated" notice
#   dump-super        dump.f2fs -d 1 reads it and lists both devices
#   missing-member    the second image gone: fsck exits 8 naming it and
#                     the volume, nothing written
#   short-member      the second image cut to 512 MiB: fsck exits 8 saying
#                     how much the volume puts on it
#   sload-across      our sload writes a tree through both devices (warm
#                     data starts on the second); both fscks call it clean
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
for bin in "$FSCK" "$DUMP"; do
	if [ ! -x "$bin" ]; then
		fail setup "$bin is not executable (build with make first)"
		finish
	fi
done
if ! have_upstream mkfs; then
	skip all "no upstream mkfs.f2fs ($UPSTREAM_MKFS) to make a multi-device volume"
	finish
fi

d0=$WORK/md0.img
d1=$WORK/md1.img
make_volume() {
	rm -f "$d0" "$d1"
	truncate -s 1G "$d0" "$d1"
	"$UPSTREAM_MKFS" -f -c "$d1" "$d0" >"$WORK/mkfs.out" 2>&1
}
if ! make_volume; then
	fail setup "upstream mkfs -c failed: $(snippet "$WORK/mkfs.out")"
	finish
fi

run_cmd "$FSCK" "$d0"
if [ "$RC" -ne 0 ]; then
	fail fsck-clean "exit $RC: $(snippet "$WORK/last.err") $(grep -m1 'PR_' "$WORK/last.out")"
elif grep -q 'PR_\|truncated' "$WORK/last.out" "$WORK/last.err"; then
	fail fsck-clean "$(grep -m1 -h 'PR_\|truncated' "$WORK/last.out" "$WORK/last.err")"
elif ! grep -q '^\[FSCK\] other corrupted bugs *\[Ok\.\.\]' "$WORK/last.out"; then
	fail fsck-clean "the summary did not finish: $(tail -n 1 "$WORK/last.out")"
else
	pass fsck-clean
fi

run_cmd "$DUMP" -d 1 "$d0"
if [ "$RC" -eq 0 ] && grep -q 'segment_count_main' "$WORK/last.out" &&
	[ "$(grep -c '^devs\[i\]\.path ' "$WORK/last.out")" -eq 2 ] &&
	grep -q "^devs\[i\].path .*\[$d1\]" "$WORK/last.out"; then
	pass dump-super
else
	fail dump-super "exit $RC: $(snippet "$WORK/last.err") $(grep -m2 '^devs' "$WORK/last.out" | tr '\n' ' ')"
fi

mv "$d1" "$d1.away"
REFUSE_IMAGE=$d0 expect_refusal missing-member "md1.img, a device of this volume: no such file" \
	-- "$FSCK" "$d0"
[ "$RC" -eq 8 ] || fail missing-member/status "exit $RC, expected 8"
mv "$d1.away" "$d1"

truncate -s 512M "$d1"
REFUSE_IMAGE=$d0 expect_refusal short-member "md1.img holds 512 MiB, less than the 1024 MiB" \
	-- "$FSCK" "$d0"
[ "$RC" -eq 8 ] || fail short-member/status "exit $RC, expected 8"
truncate -s 1G "$d1"

# Our sload writes through both devices: warm data starts past the first.
SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
if [ ! -x "$SLOAD" ]; then
	skip sload-across "no sload.f2fs"
else
	rm -f "$d0" "$d1"
	truncate -s 256M "$d0" "$d1"
	mkdir -p "$WORK/src"
	for i in $(seq 1 40); do head -c $((i * 9000)) /dev/urandom >"$WORK/src/f$i"; done
	if ! "$UPSTREAM_MKFS" -f -c "$d1" "$d0" >"$WORK/mkfs.out" 2>&1; then
		fail sload-across "upstream mkfs -c failed: $(snippet "$WORK/mkfs.out")"
	elif ! run_cmd "$SLOAD" -f "$WORK/src" "$d0" || [ "$RC" -ne 0 ]; then
		fail sload-across "sload exited $RC: $(snippet "$WORK/last.err")"
	elif [ -z "$(od -An -tx1 "$d1" | grep -v '^ 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$' | grep -v '^\*$' | head -n 1)" ]; then
		fail sload-across "nothing reached the second device"
	else
		run_cmd "$FSCK" "$d0"
		ours=$RC
		if have_upstream fsck; then
			run_cmd "$UPSTREAM_FSCK" --dry-run -f "$d0"
		else
			RC=0
		fi
		if [ "$ours" -eq 0 ] && [ "$RC" -eq 0 ]; then
			pass sload-across
		else
			fail sload-across "after sload: our fsck exit $ours, upstream's $RC"
		fi
	fi
fi
finish
