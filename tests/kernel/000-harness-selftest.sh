#!/bin/bash
# Self-test of the kernel harness: a harness that passes everything is worse
# than none, so check that guest_run tells good from bad.  Images come from
# Debian's mkfs.f2fs (the reference), not from the mkfs under test.
#
# Cases:
#   good-image     a trivial mount/write/umount job on a fresh image passes
#   bad-magic      both superblock magics corrupted: mkfs-verify fails, and
#                  the f2fs lines of the guest's dmesg reach the log
#   bad-first-sb   only the first superblock corrupted: the kernel mounts from
#                  the second, but mkfs-verify must notice its complaint
#   silent-job     a job that exits 0 without @@JOB-OK@@ counts as failed
#
# Output protocol and CI=true handling as in 001-mkfs-matrix.sh.

set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

REF_MKFS=${REF_MKFS:-/usr/sbin/mkfs.f2fs}
NAMES=(good-image bad-magic bad-first-sb silent-job)
SB_MAGIC_OFFSETS=(1024 5120) # superblock 0 and 1: byte 1024 of blocks 0 and 1

# Names here go without the "harness/" of the result lines, and reasons are
# printed as they are: these printers replace those of lib.sh.
pass() { echo "PASS: harness/$1"; }
fail() {
	echo "FAIL: harness/$1: $2"
	failed=1
}
skip() { echo "SKIP: harness/$1: $2"; }
all_names() { printf '%s\n' "${NAMES[@]}"; }

# Flip the low bit of the first magic byte of the superblocks at OFFSETS.
corrupt_magic() {
	local img=$1 off byte
	shift
	for off in "$@"; do
		byte=$(od -An -tu1 -j "$off" -N1 "$img" | tr -d ' ')
		printf '%b' "\\0$(printf '%03o' $((byte ^ 1)))" |
			dd of="$img" bs=1 seek="$off" conv=notrunc status=none || return 1
	done
}

fresh_image() {
	rm -f "$img"
	truncate -s 1G "$img" && "$REF_MKFS" -f "$img" >/dev/null 2>&1
}

# expect_failure NAME WHAT: the last guest_run must have failed for WHAT
# (a pattern in guest_error), with f2fs dmesg lines in the log when a third
# argument is given.
expect_failure() {
	local name=$1 want=$2 need_dmesg=${3:-}
	if [ -z "$guest_error" ]; then
		fail "$name" "guest_run passed a broken case"
	elif ! grep -q -- "$want" <<<"$guest_error"; then
		fail "$name" "failed for the wrong reason: $guest_error"
	elif [ -n "$need_dmesg" ] &&
		! sed -n '/^@@DMESG-F2FS-BEGIN@@/,/^@@DMESG-F2FS-END@@/p' "$guest_log" | grep -q 'F2FS-fs'; then
		fail "$name" "no f2fs dmesg lines in the console log"
	else
		pass "$name"
	fi
}

main() {
	local img job

	start_work harness
	[ -x "$REF_MKFS" ] || CI=true abandon "REF_MKFS=$REF_MKFS is not executable"
	img=$work/img

	job=$work/good.sh
	cat >"$job" <<-'EOF'
		#!/bin/sh
		mount -t f2fs /dev/vda /mnt || { echo "@@JOB-FAIL@@ mount failed"; exit 1; }
		echo hello >/mnt/hello && sync && umount /mnt || { echo "@@JOB-FAIL@@ write failed"; exit 1; }
		echo "@@JOB-OK@@"
	EOF
	if ! fresh_image; then
		fail good-image "$REF_MKFS failed"
	elif guest_run "$img" "$job"; then
		pass good-image
	else
		fail good-image "kernel: $guest_error"
	fi

	# The diagnostics guest_run prints for expected failures would only
	# confuse a reader of the test output.
	if fresh_image && corrupt_magic "$img" "${SB_MAGIC_OFFSETS[@]}"; then
		guest_run "$img" "$here/jobs/mkfs-verify.sh" 2>/dev/null
		expect_failure bad-magic "mount -t f2fs" dmesg
	else
		fail bad-magic "cannot prepare the image"
	fi

	if fresh_image && corrupt_magic "$img" "${SB_MAGIC_OFFSETS[0]}"; then
		guest_run "$img" "$here/jobs/mkfs-verify.sh" 2>/dev/null
		expect_failure bad-first-sb "kernel complained" dmesg
	else
		fail bad-first-sb "cannot prepare the image"
	fi

	job=$work/silent.sh
	printf '#!/bin/sh\nexit 0\n' >"$job"
	if fresh_image; then
		guest_run "$img" "$job" 2>/dev/null
		expect_failure silent-job "without printing @@JOB-OK@@"
	else
		fail silent-job "$REF_MKFS failed"
	fi

	rm -f "$img"
	exit "$failed"
}

main "$@"
