#!/bin/bash
# Undo journals: a run of mkfs.f2fs --undo, sload.f2fs -z or inject.f2fs -z
# over an image, then f2fs_undo with the journal, gives back the image byte
# for byte (cmp), and the result is clean for our fsck (and upstream's when
# installed).  A journal cut short restores what it holds; a damaged one, a
# second undo of the same journal, a device of another size and a busy or
# mounted-looking target are refused with one line and nothing written.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
UNDO=${F2FS_UNDO:-$TOP/undo/f2fs_undo}

IMG=$WORK/disk.img
truncate -s 256M "$IMG"
run_cmd "$MKFS" -q "$IMG"
[ "$RC" -eq 0 ] || { fail mkfs "exit $RC: $(snippet "$WORK/last.err")"; finish; }
mkdir -p "$WORK/src/d"
head -c 300000 /dev/urandom >"$WORK/src/d/data"
echo small >"$WORK/src/small"

# same_as NAME FILE: the image is FILE's bytes, and clean for both fscks.
same_as() {
	local name=$1 want=$2
	if ! cmp -s "$IMG" "$want"; then
		fail "$name" "the image differs from before the run: $(cmp "$IMG" "$want" | head -1)"
		return
	fi
	run_cmd "$FSCK" "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our fsck exited $RC after the undo: $(snippet "$WORK/last.err")"
	elif have_upstream fsck && ! run_cmd "$UPSTREAM_FSCK" -f "$IMG" && [ "$RC" -ne 0 ]; then
		fail "$name" "upstream fsck exited $RC after the undo"
	else
		pass "$name"
	fi
}

# undo_case NAME JOURNAL: f2fs_undo succeeds and gives back $WORK/before.img.
undo_case() {
	run_cmd "$UNDO" "$2" "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$1" "f2fs_undo exited $RC: $(snippet "$WORK/last.err")"
		return
	fi
	same_as "$1" "$WORK/before.img"
}

# sload: the load is taken back
cp "$IMG" "$WORK/before.img"
run_cmd "$SLOAD" -f "$WORK/src" -z "$WORK/sload.undo" "$IMG"
if [ "$RC" -ne 0 ] || cmp -s "$IMG" "$WORK/before.img"; then
	fail sload-undo "sload exited $RC or changed nothing: $(snippet "$WORK/last.err")"
else
	undo_case sload-undo "$WORK/sload.undo"
fi

# inject: a corruption is taken back
run_cmd "$SLOAD" -f "$WORK/src" "$IMG"
cp "$IMG" "$WORK/before.img"
run_cmd "$INJECT" --undo "$WORK/inject.undo" --node --nid 4 --mb i_links --val 7 "$IMG"
if [ "$RC" -ne 0 ] || cmp -s "$IMG" "$WORK/before.img"; then
	fail inject-undo "inject exited $RC or changed nothing: $(snippet "$WORK/last.err")"
else
	undo_case inject-undo "$WORK/inject.undo"
fi

# mkfs over the loaded image: the format is taken back, files and all
run_cmd "$MKFS" -q -f --undo "$WORK/mkfs.undo" "$IMG"
if [ "$RC" -ne 0 ] || cmp -s "$IMG" "$WORK/before.img"; then
	fail mkfs-undo "mkfs exited $RC or changed nothing: $(snippet "$WORK/last.err")"
else
	cp "$IMG" "$WORK/formatted.img"
	undo_case mkfs-undo "$WORK/mkfs.undo"
fi

# the same journal again: the device is no longer what the run left
run_cmd "$UNDO" "$WORK/mkfs.undo" "$IMG"
if [ "$RC" -eq 1 ] && grep -q "not the file system the journal's run left" "$WORK/last.err" &&
	cmp -s "$IMG" "$WORK/before.img"; then
	pass undo-twice-refused
else
	fail undo-twice-refused "exit $RC: $(snippet "$WORK/last.err")"
fi

# a journal applied once is refused the second time: its blocks already hold
# what it restores (the image was loaded again meanwhile, over the same tree)
cp "$WORK/before.img" "$IMG"
mkdir -p "$WORK/src2" "$WORK/src3"
for i in $(seq 1 300); do echo "$i" >"$WORK/src2/more$i"; done
for i in $(seq 1 700); do echo "$i" >"$WORK/src3/most$i"; done
run_cmd "$SLOAD" -f "$WORK/src2" -z "$WORK/again.undo" "$IMG"
cp "$IMG" "$WORK/loaded.img"
run_cmd "$UNDO" "$WORK/again.undo" "$IMG"
run_cmd "$UNDO" "$WORK/again.undo" "$IMG"
if [ "$RC" -eq 1 ] && grep -q "the journal was applied already" "$WORK/last.err" &&
	cmp -s "$IMG" "$WORK/before.img"; then
	pass applied-twice-refused
else
	fail applied-twice-refused "exit $RC: $(snippet "$WORK/last.err")"
fi

# a journal whose image was written since (a second load without a journal)
# is refused: applying it would mix the two runs' blocks; -f applies anyway
cp "$WORK/loaded.img" "$IMG"
run_cmd "$SLOAD" -f "$WORK/src3" "$IMG"
cp "$IMG" "$WORK/reloaded.img"
run_cmd "$UNDO" "$WORK/again.undo" "$IMG"
if [ "$RC" -eq 1 ] && grep -q "written since the journal's run" "$WORK/last.err" &&
	cmp -s "$IMG" "$WORK/reloaded.img"; then
	pass changed-since-refused
else
	fail changed-since-refused "exit $RC: $(snippet "$WORK/last.err")"
fi
run_cmd "$UNDO" -f "$WORK/again.undo" "$IMG"
if [ "$RC" -eq 0 ] && grep -q "applying anyway (-f)" "$WORK/last.err"; then
	pass changed-since-forced
else
	fail changed-since-forced "exit $RC: $(snippet "$WORK/last.err")"
fi

# -n reports and writes nothing; -v shows the journal
cp "$WORK/formatted.img" "$IMG"
run_cmd "$UNDO" -n -v "$WORK/mkfs.undo" "$IMG"
if [ "$RC" -eq 0 ] && grep -q "would restore" "$WORK/last.out" &&
	grep -q "finished" "$WORK/last.out" &&
	cmp -s "$IMG" "$WORK/formatted.img"; then
	pass dry-run
else
	fail dry-run "exit $RC: $(snippet "$WORK/last.err")"
fi

# a journal cut short (a run that crashed): the complete records come back
# and the incomplete last one is skipped, with a warning
len=$(stat -c %s "$WORK/mkfs.undo")
head -c $((len - 1000)) "$WORK/mkfs.undo" >"$WORK/cut.undo"
run_cmd "$UNDO" "$WORK/cut.undo" "$IMG"
if [ "$RC" -eq 0 ] && grep -q "cut short: restoring" "$WORK/last.err"; then
	pass cut-short
else
	fail cut-short "exit $RC: $(snippet "$WORK/last.err")"
fi

# damaged journals are refused before the device is touched
cp "$WORK/formatted.img" "$IMG"
cp "$WORK/mkfs.undo" "$WORK/bad.undo"
printf '\x01' | dd of="$WORK/bad.undo" bs=1 seek=20 conv=notrunc status=none
REFUSE_IMAGE="$IMG" expect_refusal bad-header "fails its checksum" -- "$UNDO" "$WORK/bad.undo" "$IMG"
cp "$WORK/mkfs.undo" "$WORK/bad.undo"
printf '\xff' | dd of="$WORK/bad.undo" bs=1 seek=$((4096 + 32 + 10)) conv=notrunc status=none
REFUSE_IMAGE="$IMG" expect_refusal bad-record "record 0 \\(at byte 4096\\) fails its checksum" -- \
	"$UNDO" "$WORK/bad.undo" "$IMG"
echo "not a journal" >"$WORK/bad.undo"
REFUSE_IMAGE="$IMG" expect_refusal not-journal "not an F2FS undo journal" -- "$UNDO" "$WORK/bad.undo" "$IMG"
REFUSE_IMAGE="$IMG" expect_refusal no-journal "cannot read" -- "$UNDO" "$WORK/none.undo" "$IMG"
truncate -s 300M "$WORK/other.img"
REFUSE_IMAGE="$WORK/other.img" expect_refusal other-size "the journal was made on" -- \
	"$UNDO" "$WORK/mkfs.undo" "$WORK/other.img"
REFUSE_IMAGE="$IMG" expect_refusal usage "need an undo journal and a device" -- "$UNDO" "$WORK/mkfs.undo"
REFUSE_IMAGE="$IMG" expect_refusal journal-is-device "that is the device itself" -- \
	"$INJECT" --undo "$IMG" --node --nid 4 --mb i_links --val 7 "$IMG"
REFUSE_IMAGE="$IMG" expect_refusal journal-unwritable "--undo $WORK/no/such/dir/x.undo" -- \
	"$SLOAD" -f "$WORK/src" -z "$WORK/no/such/dir/x.undo" "$IMG"
finish
