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

# fsck_rolled NAME IMG: our fsck -y applies the chain of the cut image IMG,
# then the kernel must find the mirror's tree on it (write-powercut/NAME/fsck-rolled)
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
	GUEST_JOB_ENV='MANIFEST=/bin/m'
	if ! guest_run "$img" "$REMOUNT_JOB" "$work/m.names" "$work/m.sums" "$work/m.links" \
		"$work/m.symlinks"; then
		GUEST_JOB_ENV=
		fail "write-powercut/$name/fsck-rolled" "kernel: $guest_error"
		return
	fi
	GUEST_JOB_ENV=
	if ! reason=$(both_clean "$img" "$name-rolled-after"); then
		fail "write-powercut/$name/fsck-rolled" "after the kernel mounted it: $reason"
		return
	fi
	pass "write-powercut/$name/fsck-rolled"
	rm -f "$img"
}

run_case() {
	local name=$1 size=$2 opts=$3 img mirror out reason
	img=$work/$name.img
	mirror=$work/$name.mirror
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
	(cd "$mirror" && find . | LC_ALL=C sort >"$work/m.names" &&
		find . -type f | LC_ALL=C sort | xargs sha256sum >"$work/m.sums" &&
		find . -type f | LC_ALL=C sort | xargs stat -c '%h %s %a %n' >"$work/m.links" &&
		: >"$work/m.symlinks")
	cp --sparse=always "$img" "$work/$name-rolled.img"
	fsck_rolled "$name" "$work/$name-rolled.img"
	GUEST_JOB_ENV=$'MANIFEST=/bin/m\nEXPECT_RECOVERY=1'
	if ! guest_run "$img" "$REMOUNT_JOB" "$work/m.names" "$work/m.sums" "$work/m.links" \
		"$work/m.symlinks"; then
		GUEST_JOB_ENV=
		fail "write-powercut/$name" "kernel: $guest_error"
		return
	fi
	GUEST_JOB_ENV=
	grep -a 'remount-check: dmesg:' "$guest_log" | sed 's/^/# /' >&2
	if ! reason=$(both_clean "$img" "$name-after"); then
		fail "write-powercut/$name" "after the kernel mounted it: $reason"
		return
	fi
	pass "write-powercut/$name"
	rm -rf "$img" "$mirror"
}

main() {
	local c name rest size opts
	start_work write-powercut
	need_executable "$MKFS" "$OUR_FSCK" "$UPSTREAM_FSCK" "$WRTOOL"
	for c in "${CASES[@]}"; do
		name=${c%%|*}
		rest=${c#*|}
		size=${rest%%|*}
		opts=${rest#*|}
		run_case "$name" "$size" "$opts"
	done
	finish_work '*.img'
}

main "$@"
