#!/bin/bash
# resize.f2fs: a volume loaded by sload grows into a larger image (default
# and -s 128 sections; the grow relocates the metadata areas to the old main
# area's start) and shrinks with -s (relocating too, all or nothing; with -f -s
# in place, as upstream shrinks); after each resize our fsck and
# upstream's find it clean, the tree dumps back identical, and the
# superblock has the new size.  With newest upstream's resize.f2fs built,
# the superblock fields and the checkpoint's space fields of our resize -f
# (in place) equal those of upstream's resize of the same image.  -z then f2fs_undo
# gives the original bytes back.  Bad input -- a size below what is in
# use, a target past the device, shrinking without -s, growing with -s, bad
# option values, no F2FS, no terminal and no -F, a busy device -- is one
# line, a non-zero exit, and the image unchanged.  A volume of two devices
# (mkfs -c) grows into its last device and shrinks within it, its device
# table summing to segment_count, clean for both fscks; a first device that
# grew, and a shrink past the last device's start, are refused.  A volume of
# 16 KiB blocks (mkfs -b 16384) grows and shrinks, relocating and in place,
# judged by both fscks and dump -r.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

BUILD=${TOP_BUILDDIR:-$TOP}
RESIZE=${RESIZE:-$BUILD/resize/resize.f2fs}
FSCK=${FSCK:-$BUILD/fsck/fsck.f2fs}
SLOAD=${SLOAD:-$BUILD/sload/sload.f2fs}
DUMP=${DUMP:-$BUILD/dump/dump.f2fs}
UNDO=${F2FS_UNDO:-$BUILD/undo/f2fs_undo}
# newest upstream's resize, for the field comparison (Debian's 1.15 lays out differently)
UPSTREAM_RESIZE=${UPSTREAM_RESIZE:-/work/upstream-f2fs-tools/fsck/resize.f2fs}
NEW_FSCK=/work/upstream-f2fs-tools/fsck/fsck.f2fs
[ -x "$NEW_FSCK" ] && UPSTREAM_FSCK=${UPSTREAM_FSCK_NEWEST:-$NEW_FSCK}
[ -x "$UPSTREAM_RESIZE" ] && [ -x "$(dirname "$UPSTREAM_RESIZE")/dump.f2fs" ] &&
	UPSTREAM_DUMP=$(dirname "$UPSTREAM_RESIZE")/dump.f2fs
IMG=$WORK/disk.img
TREE=$WORK/tree

for b in "$RESIZE" "$FSCK" "$SLOAD" "$DUMP" "$UNDO"; do
	[ -x "$b" ] || {
		fail setup "$b is not executable (build with make first)"
		finish
	}
done

# A tree with small and large files, a deep directory and a symlink.
mkdir -p "$TREE/a/b/c" "$TREE/big"
for i in $(seq 1 300); do
	head -c $((i * 97)) /dev/urandom >"$TREE/a/f$i"
done
head -c $((24 << 20)) /dev/urandom >"$TREE/big/one"
head -c 5000 /dev/urandom >"$TREE/a/b/c/deep"
ln -s a/b/c/deep "$TREE/link"

# make IMG SIZE MKFS-ARGS...: a new image of SIZE loaded with the tree
make_image() {
	local img=$1 size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img"
	run_cmd "$MKFS" -q -f "$@" "$img" && [ "$RC" -eq 0 ] || return 1
	run_cmd "$SLOAD" -f "$TREE" "$img"
	[ "$RC" -eq 0 ]
}

# clean NAME IMG: our fsck and upstream's (when built) find no problem
clean() {
	local name=$1 img=$2
	run_cmd "$FSCK" -f "$img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our fsck exit $RC: $(snippet "$WORK/last.out")"
		return 1
	fi
	if have_upstream fsck; then
		run_cmd "$UPSTREAM_FSCK" --dry-run -f "$img"
		if [ "$RC" -ne 0 ] || grep -qE '\[Fail\]|Invalid SB|Magic Mismatch' "$WORK/last.out"; then
			fail "$name" "upstream fsck exit $RC: $(grep -m2 -E 'Fail|Invalid' "$WORK/last.out")"
			return 1
		fi
	fi
	pass "$name"
}

# same_tree NAME IMG: the tree dumps back from IMG identical
same_tree() {
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -P -L -o "$WORK/out" "$2"
	if [ "$RC" -ne 0 ]; then
		fail "$1" "dump -r exit $RC: $(snippet "$WORK/last.err")"
	elif ! diff -r --no-dereference "$TREE" "$WORK/out" >"$WORK/diff.out" 2>&1; then
		fail "$1" "the tree differs: $(snippet "$WORK/diff.out")"
	else
		pass "$1"
	fi
}

# resized NAME IMG BLOCKS ARGS...: resize.f2fs -F ARGS IMG succeeds, block_count is BLOCKS
resized() {
	local name=$1 img=$2 blocks=$3 got
	shift 3
	run_cmd "$RESIZE" -F "$@" "$img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "exit $RC: $(snippet "$WORK/last.err")"
		return 1
	fi
	got=$(dd if="$img" bs=1 skip=$((1024 + 36)) count=8 status=none | od -An -tu8 | tr -d ' ')
	if [ "$got" != "$blocks" ]; then
		fail "$name" "block_count is $got, want $blocks"
		return 1
	fi
	pass "$name"
}

# sb_u32 IMG OFFSET: a 32-bit superblock field
sb_u32() {
	dd if="$1" bs=1 skip=$((1024 + $2)) count=4 status=none | od -An -tu4 | tr -d ' '
}

# relocated NAME OLD NEW: NEW's segment 0 is OLD's main area start (the all-or-nothing grow)
relocated() {
	local seg0 main
	seg0=$(sb_u32 "$3" 72) main=$(sb_u32 "$2" 92)
	if [ -n "$seg0" ] && [ "$seg0" = "$main" ]; then
		pass "$1"
	else
		fail "$1" "segment0_blkaddr $seg0, old main_blkaddr $main"
	fi
}

# the superblock, and the checkpoint's space fields, as upstream's dump -d 1 lists them
layout_fields() {
	"$UPSTREAM_DUMP" -d 1 "$1" 2>/dev/null | awk '
		/^magic/ { on = 1 }
		/^cp_payload/ { print; on = 0 }
		on { print }
		/^(user_block_count|valid_block_count|rsvd_segment_count|overprov_segment_count|valid_node_count|valid_inode_count|sit_ver_bitmap_bytesize|nat_ver_bitmap_bytesize)[[:space:]]/ { print }' |
		grep -v -e '^checksum' -e '^crc'
}

# as_upstream NAME ORIG SIZE RESIZE-ARGS...: our resize -f of ORIG equals upstream's, field for field
as_upstream() {
	local name=$1 orig=$2 size=$3
	shift 3
	if [ ! -x "$UPSTREAM_RESIZE" ]; then
		skip "$name" "newest upstream resize.f2fs not built ($UPSTREAM_RESIZE)"
		return
	fi
	cp --sparse=always "$orig" "$WORK/up.img"
	truncate -s "$size" "$WORK/up.img"
	run_cmd "$UPSTREAM_RESIZE" -F "$@" "$WORK/up.img"
	if [ "$RC" -ne 0 ]; then
		skip "$name" "upstream resize failed ($RC): $(snippet "$WORK/last.out")"
		return
	fi
	# -f: upstream's layout, in place (without it a grow relocates the metadata)
	cp --sparse=always "$orig" "$WORK/ours.img"
	truncate -s "$size" "$WORK/ours.img"
	run_cmd "$RESIZE" -F -f "$@" "$WORK/ours.img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "resize -f exit $RC: $(snippet "$WORK/last.err")"
		return
	fi
	layout_fields "$WORK/up.img" >"$WORK/up.fields"
	layout_fields "$WORK/ours.img" >"$WORK/ours.fields"
	if [ ! -s "$WORK/ours.fields" ]; then
		fail "$name" "upstream dump listed no fields"
	elif ! diff "$WORK/up.fields" "$WORK/ours.fields" >"$WORK/fields.diff"; then
		fail "$name" "fields differ: $(snippet "$WORK/fields.diff" 300)"
	else
		pass "$name"
	fi
}

# --- grow, default sections ---
if make_image "$IMG" 256M; then
	cp --sparse=always "$IMG" "$WORK/orig.img"
	truncate -s 1G "$IMG"
	resized grow "$IMG" 262144 && {
		relocated grow/relocated "$WORK/orig.img" "$IMG"
		clean grow/clean "$IMG"
		same_tree grow/tree "$IMG"
		as_upstream grow/as-upstream "$WORK/orig.img" 1G &&
			cp --sparse=always "$WORK/ours.img" "$WORK/in-place.img"
	}
	# and again, into 3 GiB: the SIT, NAT and SSA grow, the main area starts later
	cp --sparse=always "$IMG" "$WORK/orig.img"
	truncate -s 3G "$IMG"
	resized grow-again "$IMG" 786432 && {
		clean grow-again/clean "$IMG"
		same_tree grow-again/tree "$IMG"
		# from the volume grown in place: upstream never relocates segment 0
		[ -f "$WORK/in-place.img" ] &&
			as_upstream grow-again/as-upstream "$WORK/in-place.img" 3G
	}
	run_cmd "$RESIZE" -F "$IMG"
	if [ "$RC" -eq 0 ] && grep -q '^Nothing to resize.$' "$WORK/last.out"; then
		pass same-size
	else
		fail same-size "exit $RC: $(snippet "$WORK/last.out")"
	fi
else
	fail grow "making the image: $(snippet "$WORK/last.err")"
fi

# --- shrink with -s (relocating, all or nothing), then cut the image to the new size ---
if make_image "$IMG" 1G; then
	cp --sparse=always "$IMG" "$WORK/orig.img"
	resized shrink "$IMG" 76800 -s -t $((300 * 2048)) && {
		relocated shrink/relocated "$WORK/orig.img" "$IMG"
		truncate -s 300M "$IMG"
		clean shrink/clean "$IMG"
		same_tree shrink/tree "$IMG"
		truncate -s 1G "$IMG"
		as_upstream shrink/as-upstream "$WORK/orig.img" 1G -s -t $((300 * 2048))
	}
else
	fail shrink "making the image: $(snippet "$WORK/last.err")"
fi

# --- large sections: mkfs -s 128 ---
if make_image "$IMG" 7G -s 128; then
	cp --sparse=always "$IMG" "$WORK/orig.img"
	truncate -s 14G "$IMG"
	resized large-sections/grow "$IMG" 3670016 && {
		clean large-sections/grow-clean "$IMG"
		same_tree large-sections/grow-tree "$IMG"
		as_upstream large-sections/as-upstream "$WORK/orig.img" 14G
	}
	# all or nothing (relocating again), then in place as upstream shrinks
	cp --sparse=always "$IMG" "$WORK/grown.img"
	resized large-sections/shrink "$IMG" 2621440 -s -t $((10240 * 2048)) && {
		relocated large-sections/shrink-relocated "$WORK/grown.img" "$IMG"
		clean large-sections/shrink-clean "$IMG"
		same_tree large-sections/shrink-tree "$IMG"
	}
	resized large-sections/shrink-in-place "$IMG" 2359296 -f -s -t $((9216 * 2048)) && {
		clean large-sections/shrink-in-place-clean "$IMG"
		same_tree large-sections/shrink-in-place-tree "$IMG"
	}
else
	fail large-sections "making the image: $(snippet "$WORK/last.err")"
fi

# --- undo: -z, then f2fs_undo gives the original bytes back ---
if make_image "$IMG" 1G; then
	cp --sparse=always "$IMG" "$WORK/orig.img"
	resized undo/shrink "$IMG" 76800 -f -s -t $((300 * 2048)) -z "$WORK/shrink.undo" && {
		run_cmd "$UNDO" "$WORK/shrink.undo" "$IMG"
		if [ "$RC" -eq 0 ] && cmp -s "$IMG" "$WORK/orig.img"; then
			pass undo/shrink-restored
		else
			fail undo/shrink-restored "f2fs_undo exit $RC: $(snippet "$WORK/last.err")"
		fi
	}
	resized undo/shrink-atomic "$IMG" 76800 -s -t $((300 * 2048)) -z "$WORK/shrink2.undo" && {
		run_cmd "$UNDO" "$WORK/shrink2.undo" "$IMG"
		if [ "$RC" -eq 0 ] && cmp -s "$IMG" "$WORK/orig.img"; then
			pass undo/shrink-atomic-restored
		else
			fail undo/shrink-atomic-restored "f2fs_undo exit $RC: $(snippet "$WORK/last.err")"
		fi
	}
	truncate -s 3G "$IMG"
	resized undo/grow "$IMG" 786432 -z "$WORK/grow.undo" && {
		run_cmd "$UNDO" "$WORK/grow.undo" "$IMG"
		truncate -s 1G "$IMG"
		if [ "$RC" -eq 0 ] && cmp -s "$IMG" "$WORK/orig.img"; then
			pass undo/grow-restored
		else
			fail undo/grow-restored "f2fs_undo exit $RC: $(snippet "$WORK/last.err")"
		fi
	}
fi

# --- 16 KiB blocks (mkfs -b 16384): the same resizes, sized by the volume's blocks ---
# No x86 guest mounts 16 KiB blocks, so newest upstream's fsck, ours and dump -r judge.
K16=$WORK/k16.img
rm -f "$K16"
truncate -s 512M "$K16"
run_cmd "$MKFS" -q -f -b 16384 "$K16"
if [ "$RC" -eq 0 ] && run_cmd "$SLOAD" -f "$TREE" "$K16" && [ "$RC" -eq 0 ]; then
	truncate -s 1G "$K16"
	cp --sparse=always "$K16" "$WORK/k16.orig"
	resized 16k/grow "$K16" $((1024 * 64)) && {
		relocated 16k/grow-relocated "$WORK/k16.orig" "$K16"
		clean 16k/grow-clean "$K16"
		same_tree 16k/grow-tree "$K16"
	}
	cp --sparse=always "$K16" "$WORK/k16.grown"
	resized 16k/shrink "$K16" $((384 * 64)) -s -t $((384 * 2048)) && {
		relocated 16k/shrink-relocated "$WORK/k16.grown" "$K16"
		clean 16k/shrink-clean "$K16"
		same_tree 16k/shrink-tree "$K16"
	}
	resized 16k/grow-in-place "$K16" $((1024 * 64)) -f && {
		clean 16k/grow-in-place-clean "$K16"
		same_tree 16k/grow-in-place-tree "$K16"
	}
	resized 16k/shrink-in-place "$K16" $((512 * 64)) -f -s -t $((512 * 2048)) && {
		clean 16k/shrink-in-place-clean "$K16"
		same_tree 16k/shrink-in-place-tree "$K16"
	}
	# 12 segments of 8 MiB: too few for the metadata, the reserve and the logs
	REFUSE_IMAGE=$K16 expect_refusal 16k/too-small "device size is not sufficient for F2FS volume" -- \
		"$RESIZE" -F -s -t $((96 * 2048)) "$K16"
	rm -f "$WORK/k16.orig" "$WORK/k16.grown"
else
	fail 16k "mkfs -b 16384 or sload: $(snippet "$WORK/last.err")"
fi

# --- a volume of two devices (mkfs -c): grows into its last device, shrinks within it ---
# The kernel (6.1 super.c) wants segment_count to be the sum of the device
# table's total_segments and maps each device after the one before; our
# resize joins the last device at its full size and rewrites the table.
# Newest upstream's resize.f2fs is wrong here: it sets segment_count and
# leaves the table, and its own fsck then rejects the superblock ("Segment
# count (319) mismatch with total segments from devices (127)" after a grow
# like this one), so only upstream's fsck judges our result.  Paths are
# absolute: the superblock records them, and upstream's fsck compares.
M0=$(realpath -m "$WORK/m0.img") M1=$(realpath -m "$WORK/m1.img")

# dev_segs IMG: "SEGMENT_COUNT DEV0 DEV1", as our dump lists the superblock
dev_segs() {
	"$DUMP" -d 1 "$1" 2>/dev/null | awk '
		/^segment_count / { c = $NF } /^devs\[i\].total_segments/ { d = d " " $NF }
		END { gsub(/\]/, "", c); gsub(/\]/, "", d); print c d }'
}

# multi_devs NAME WANT: the device table's segments (dev_segs M0) are WANT, summing to segment_count
multi_devs() {
	local got
	got=$(dev_segs "$M0")
	# shellcheck disable=SC2086 # three numbers, split on purpose
	set -- "$1" "$2" $got
	if [ "$2" = "$4 $5" ] && [ "$3" -eq $(($4 + $5)) ]; then
		pass "$1"
	else
		fail "$1" "segment_count and devices: $3 / $4 $5, want devices $2"
	fi
}

rm -f "$M0" "$M1"
truncate -s 128M "$M0" "$M1"
run_cmd "$MKFS" -q -f -c "$M1" "$M0"
if [ "$RC" -eq 0 ] && run_cmd "$SLOAD" -f "$TREE" "$M0" && [ "$RC" -eq 0 ]; then
	truncate -s 512M "$M1"
	# relocating: segment 0 moves on by 7 segments, taken from the first device's 63
	resized multi-device/grow "$M0" $(((128 + 512) * 256)) && {
		multi_devs multi-device/grow-table "56 256"
		clean multi-device/grow-clean "$M0"
		same_tree multi-device/grow-tree "$M0"
	}
	resized multi-device/shrink "$M0" $(((128 + 200) * 256)) -s -t $(((128 + 200) * 2048)) && {
		multi_devs multi-device/shrink-table "49 100"
		clean multi-device/shrink-clean "$M0"
		same_tree multi-device/shrink-tree "$M0"
	}
	cp --sparse=always "$M1" "$WORK/m1.orig"
	REFUSE_IMAGE=$M0 expect_refusal multi-device/shrink-past-last \
		"ends before the last device \(.*m1.img\)" -- "$RESIZE" -F -f -s -t $((120 * 2048)) "$M0"
	truncate -s 192M "$M0"
	REFUSE_IMAGE=$M0 expect_refusal multi-device/first-grown \
		"m0.img holds 192 MiB, more than the 128 MiB the volume puts on it: only the last device" \
		-- "$RESIZE" -F "$M0"
	if cmp -s "$M1" "$WORK/m1.orig"; then
		pass multi-device/refused-last-unchanged
	else
		fail multi-device/refused-last-unchanged "the second device changed"
	fi
else
	fail multi-device "mkfs -c or sload: $(snippet "$WORK/last.err")"
fi

# --- bad input: one line, non-zero exit, the image unchanged ---
make_image "$IMG" 256M || fail refusals "making the image: $(snippet "$WORK/last.err")"
REFUSE_IMAGE=$IMG expect_refusal below-used "blocks are in use, more than the [0-9]+ the new size leaves" -- \
	"$RESIZE" -F -s -t $((64 * 2048)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal below-used-in-place "blocks are in use, more than the [0-9]+ the new size leaves" -- \
	"$RESIZE" -F -f -s -t $((48 * 2048)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal below-metadata "device size is not sufficient for F2FS volume" -- \
	"$RESIZE" -F -s -t $((8 * 2048)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal past-device "Out-of-range Target=0x100000 / 0x80000" -- \
	"$RESIZE" -F -t $((512 * 2048)) "$IMG"
REFUSE_IMAGE=$IMG expect_refusal shrink-without-s "shrinking needs -s" -- \
	"$RESIZE" -F -t $((200 * 2048)) "$IMG"
truncate -s 512M "$IMG"
REFUSE_IMAGE=$IMG expect_refusal grow-with-s "growing does not support -s" -- \
	"$RESIZE" -F -s "$IMG"
REFUSE_IMAGE=$IMG expect_refusal bad-target "-t 12x: the target is a number of sectors" -- \
	"$RESIZE" -F -t 12x "$IMG"
REFUSE_IMAGE=$IMG expect_refusal zero-target "-t 0: the target" -- "$RESIZE" -F -t 0 "$IMG"
REFUSE_IMAGE=$IMG expect_refusal bad-ratio "-o 0: the overprovision ratio" -- \
	"$RESIZE" -F -o 0 "$IMG"
REFUSE_IMAGE=$IMG expect_refusal bad-ratio-text "-o abc: the overprovision ratio" -- \
	"$RESIZE" -F -o abc "$IMG"
REFUSE_IMAGE=$IMG expect_refusal bad-debug "-d x: the debug level" -- "$RESIZE" -F -d x "$IMG"
REFUSE_IMAGE=$IMG expect_refusal unknown-option "unknown option -q" -- "$RESIZE" -q "$IMG"
REFUSE_IMAGE=$IMG expect_refusal no-terminal "no terminal to confirm the resize on: give -F" -- \
	"$RESIZE" "$IMG"
truncate -s 64M "$WORK/zero.img"
REFUSE_IMAGE=$WORK/zero.img expect_refusal not-f2fs "zero.img: " -- "$RESIZE" -F "$WORK/zero.img"

# a device held open exclusively (as a mount holds it): refused before it is opened
busy_case() {
	local loop pid i
	if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null || ! command -v python3 >/dev/null; then
		skip busy "needs root, losetup and python3"
		return
	fi
	loop=$(losetup -f --show "$IMG" 2>/dev/null) || {
		skip busy "losetup failed"
		return
	}
	at_exit "losetup -d '$loop'"
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(600)' "$loop" >"$WORK/holder.out" 2>&1 &
	pid=$!
	at_exit "kill $pid"
	for i in $(seq 50); do
		grep -q held "$WORK/holder.out" 2>/dev/null && break
		sleep 0.1
	done
	REFUSE_IMAGE=$IMG expect_refusal busy "$loop: in use .*refusing to write to it" -- \
		"$RESIZE" -F "$loop"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
busy_case
finish
