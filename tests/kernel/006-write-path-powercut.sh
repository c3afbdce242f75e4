#!/bin/bash
# A power cut after an fsync through our write path, judged by the kernel.
#
# For each case: our mkfs makes the image; tests/cli/wrtool writes a base
# (a directory and a 1 MiB file) and checkpoints at unmount; a second run
# creates a file, writes and fsyncs it, overwrites and fsyncs the first
# file, then creates and writes a third file without fsync and stops
# without a checkpoint -- what a power cut leaves.  Then:
#   - our fsck and upstream's (--dry-run) must both call the image
#     consistent (the fsynced chain is for roll-forward, not corruption);
#   - the kernel mounts it (rolling the fsynced data forward) and the tree
#     must equal the host mirror wrtool kept of the durable operations:
#     the fsynced file with its content, the first file's overwrite, and
#     no third file (jobs/remount-check.sh);
#   - after that unmount both fscks must call it clean;
#   - .../fsck-rolled: on a copy of the cut image our fsck -y applies the
#     chain first (the "[FIX] Roll forward" line, exit 1); the kernel then
#     mounts that copy with nothing left to recover and the tree must equal
#     the same mirror; after that unmount both fscks must call it clean.
# The kernel mounts every image of every case in one boot, a disk each
# (guest_run_each).
#
# Environment: MKFS, OUR_FSCK, UPSTREAM_FSCK, WRTOOL (default
# <repo>/tests/cli/wrtool), CI, TMPDIR and the GUEST_* variables.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
OUR_FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
WRTOOL=${WRTOOL:-$repo/tests/cli/wrtool}
REMOUNT_JOB=$here/jobs/remount-check.sh

# name | image size | mkfs options
CASES=(
	"1g|1G|"
	"8g-s128|8G|-s 128"
)

all_names() {
	local c
	for c in "${CASES[@]}"; do
		echo "write-powercut/${c%%|*}"
		echo "write-powercut/${c%%|*}/fsck-rolled"
	done
}

# both_clean IMG TAG: our fsck and upstream --dry-run; prints a reason and returns 1 when not clean
both_clean() {
	local img=$1 tag=$2 rc reason
	"$OUR_FSCK" "$img" >"$work/$tag.ours" 2>&1
	rc=$?
	if ! reason=$(our_verdict "$rc" "$work/$tag.ours"); then
		echo "our fsck: $reason"
		return 1
	fi
	"$UPSTREAM_FSCK" --dry-run "$img" >"$work/$tag.upstream" 2>&1
	rc=$?
	if ! reason=$(upstream_verdict "$rc" "$work/$tag.upstream"); then
		echo "upstream fsck: $reason"
		return 1
	fi
	return 0
}

# fsck_rolled NAME IMG: our fsck -y applies the chain of the cut image IMG
# and both fscks call it clean; then it joins the boot (with the same
# manifest) as write-powercut/NAME/fsck-rolled.
fsck_rolled() {
	local name=$1 img=$2 rc reason
	"$OUR_FSCK" -y "$img" </dev/null >"$work/$name-rolled.fsck" 2>&1
	rc=$?
	if [ "$rc" != 1 ] || ! grep -q '^\[FIX\] Roll forward: ' "$work/$name-rolled.fsck"; then
		fail "write-powercut/$name/fsck-rolled" "fsck -y exited $rc: $(grep -m3 -E '^\[FIX\]|Info: [0-9]|rror' "$work/$name-rolled.fsck" | tr '\n' ' ')"
		return
	fi
	info "$name/fsck-rolled: $(grep '^\[FIX\] Roll forward' "$work/$name-rolled.fsck")"
	if ! reason=$(both_clean "$img" "$name-rolled"); then
		fail "write-powercut/$name/fsck-rolled" "after fsck -y: $reason"
		return
	fi
	add_to_boot "write-powercut/$name/fsck-rolled" "$img" "MANIFEST=/bin/$name.m"
}

# add_to_boot RESULT IMG ENV: IMG goes to the guest, judged as RESULT.
add_to_boot() {
	BOOT_RESULTS+=("$1")
	GUEST_EACH_IMAGES+=("$2")
	GUEST_EACH_ENV+=("$3")
}

# prepare_case NAME SIZE OPTS: the cut image (our write path's fsync, then
# no checkpoint), both fscks clean on it, the manifest of the durable
# operations, and its fsck-rolled copy; both join the boot.
prepare_case() {
	local name=$1 size=$2 opts=$3 img mirror out reason m
	img=$work/$name.img
	mirror=$work/$name.mirror
	m=$work/$name.m
	rm -rf "$img" "$mirror" && mkdir -p "$mirror" && truncate -s "$size" "$img" || {
		fail "write-powercut/$name" "cannot create the image"
		return
	}
	# shellcheck disable=SC2086 # the case's options are words
	if ! out=$("$MKFS" -f $opts "$img" 2>&1 </dev/null); then
		fail "write-powercut/$name" "mkfs: $out"
		return
	fi
	if ! out=$("$WRTOOL" --mirror "$mirror" "$img" mkdir /d create /d/a \
		write /d/a 0 1048576 1 umount 2>&1); then
		fail "write-powercut/$name" "base: $out"
		return
	fi
	if ! out=$("$WRTOOL" --mirror "$mirror" "$img" create /d/b write /d/b 0 300000 2 \
		fsync /d/b write /d/a 0 4096 3 fsync /d/a nomirror create /d/c \
		write /d/c 0 8192 4 abort 2>&1); then
		fail "write-powercut/$name" "fsync run: $out"
		return
	fi
	info "$name: $(echo "$out" | tr '\n' ';')"
	if ! grep -q 'fsync /d/b: roll-forward' <<<"$out"; then
		fail "write-powercut/$name" "the fsync of a new file checkpointed: $out"
		return
	fi
	if ! reason=$(both_clean "$img" "$name-cut"); then
		fail "write-powercut/$name" "after the cut: $reason"
		return
	fi
	(cd "$mirror" && find . | LC_ALL=C sort >"$m.names" &&
		find . -type f | LC_ALL=C sort | xargs sha256sum >"$m.sums" &&
		find . -type f | LC_ALL=C sort | xargs stat -c '%h %s %a %n' >"$m.links" &&
		: >"$m.symlinks")
	BOOT_FILES+=("$m.names" "$m.sums" "$m.links" "$m.symlinks")
	cp --sparse=always "$img" "$work/$name-rolled.img"
	fsck_rolled "$name" "$work/$name-rolled.img"
	add_to_boot "write-powercut/$name" "$img" "MANIFEST=/bin/$name.m"$'\n'"EXPECT_RECOVERY=1"
	rm -rf "$mirror"
}

# boot_and_judge: one boot mounts every image the cases made (the kernel
# rolls the chain forward where fsck did not) and compares it with its
# manifest; then both fscks must call each clean.
boot_and_judge() {
	local i result img reason
	[ ${#GUEST_EACH_IMAGES[@]} -gt 0 ] || return 0
	guest_run_each "$REMOUNT_JOB" "${BOOT_FILES[@]}"
	info "${#GUEST_EACH_IMAGES[@]} images in one boot, ${guest_seconds:-?}s"
	for i in "${!BOOT_RESULTS[@]}"; do
		result=${BOOT_RESULTS[i]}
		img=${GUEST_EACH_IMAGES[i]}
		if [ -n "${guest_each_error[i]}" ]; then
			fail "$result" "kernel: ${guest_each_error[i]}"
			continue
		fi
		grep -a 'remount-check: dmesg:' "${guest_each_log[i]}" | sed "s|^|# $result: |" >&2
		if ! reason=$(both_clean "$img" "$(basename "$img" .img)-after"); then
			fail "$result" "after the kernel mounted it: $reason"
			continue
		fi
		pass "$result"
		rm -f "$img"
	done
}

main() {
	local c name rest size opts
	BOOT_RESULTS=() BOOT_FILES=() GUEST_EACH_IMAGES=() GUEST_EACH_ENV=()
	start_work write-powercut
	need_executable "$MKFS" "$OUR_FSCK" "$UPSTREAM_FSCK" "$WRTOOL"
	for c in "${CASES[@]}"; do
		name=${c%%|*}
		rest=${c#*|}
		size=${rest%%|*}
		opts=${rest#*|}
		prepare_case "$name" "$size" "$opts"
	done
	boot_and_judge
	finish_work '*.img'
}

main "$@"
