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
#   each/*         the same in one boot for six disks (guest_run_each):
#                  good, bad magic, a job failing with the volume mounted,
#                  bad first superblock, good again (nothing of the runs
#                  before may leak into it), silent
#
# Output protocol and CI=true handling as in 001-mkfs-matrix.sh.

set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

REF_MKFS=${REF_MKFS:-/usr/sbin/mkfs.f2fs}
NAMES=(good-image bad-magic bad-first-sb silent-job each/good each/bad-magic each/left-mounted
	each/bad-first-sb each/after-failures each/silent)
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

# each_cases: one boot for six disks (guest_run_each).  Each run must be
# judged on its own: a failure does not leak into the runs after it (their
# /tmp is fresh, nothing is left mounted, dmesg is empty), and a broken
# disk fails for its own reason.
each_cases() {
	local i n img job=$work/each.sh
	local -a want=('' 'mount -t f2fs' 'failing on purpose' 'kernel complained' '' 'without printing @@JOB-OK@@')
	cat >"$job" <<-'EOF'
		#!/bin/sh
		JOB_NAME=each
		. /job-common.sh
		[ -e /tmp/left-behind ] && fail "/tmp holds a file of the run before"
		grep -q " $MNT " /proc/mounts && fail "$MNT is still mounted by the run before"
		: >/tmp/left-behind
		mount_dev
		echo "$DEV_NAME" >"$MNT/who" && sync || fail "write failed"
		[ "${FAIL_MOUNTED:-0}" = 1 ] && fail "failing on purpose with $MNT mounted"
		[ "${SILENT:-0}" = 1 ] && exit 0
		umount_dev
		echo "@@JOB-OK@@"
	EOF
	GUEST_EACH_IMAGES=() GUEST_EACH_ENV=('' '' FAIL_MOUNTED=1 '' '' SILENT=1)
	for i in 0 1 2 3 4 5; do
		GUEST_EACH_IMAGES+=("$work/each$i.img")
		img=$work/each$i.img
		fresh_image || {
			for n in "${NAMES[@]}"; do [[ $n == each/* ]] && fail "$n" "$REF_MKFS failed"; done
			return
		}
	done
	corrupt_magic "$work/each1.img" "${SB_MAGIC_OFFSETS[@]}" &&
		corrupt_magic "$work/each3.img" "${SB_MAGIC_OFFSETS[0]}" || {
		for n in "${NAMES[@]}"; do [[ $n == each/* ]] && fail "$n" "cannot prepare the images"; done
		return
	}
	guest_run_each "$job" 2>/dev/null
	for i in 0 1 2 3 4 5; do
		guest_error=${guest_each_error[i]}
		guest_log=${guest_each_log[i]:-/dev/null}
		if [ -z "${want[i]}" ]; then
			if [ -z "$guest_error" ]; then
				pass "${NAMES[i + 4]}"
			else
				fail "${NAMES[i + 4]}" "kernel: $guest_error"
			fi
		elif [ "$i" = 1 ] || [ "$i" = 3 ]; then
			expect_failure "${NAMES[i + 4]}" "${want[i]}" dmesg
		else
			expect_failure "${NAMES[i + 4]}" "${want[i]}"
		fi
		rm -f "$work/each$i.img"
	done
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

	each_cases
	rm -f "$img"
	exit "$failed"
}

main "$@"
