#!/bin/sh
# Guest job: the kernel reads back what `f2fs_io replay` wrote on the host.
#
# Each image the host attached (/dev/vda, and /dev/vdb when VDB_PATHS is
# set) is mounted, and "replayload verify" checks that every listed file
# holds the bytes the engine writes for seed $SEED (f2fs_replay_content),
# then it is unmounted; dmesg must stay quiet about f2fs throughout.
# Prints "@@M disk=vdX name=value" lines (files, bytes, mismatches).
#
# Environment: SEED, VDA_PATHS, VDB_PATHS (space-separated paths from the
# volume's root, e.g. "/tio/file0 /tio/file1").
# Host files: replayload.

JOB_NAME=replay-verify
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

[ -n "${SEED:-}" ] || fail "SEED not set"
[ -n "${VDA_PATHS:-}" ] || fail "VDA_PATHS not set"

# verify_disk DEV MOUNTPOINT PATHS
verify_disk() {
	mkdir -p "$2"
	mount -t f2fs "/dev/$1" "$2" || fail "mount -t f2fs /dev/$1 failed"
	check_dmesg "after mounting $1"
	# shellcheck disable=SC2086 # one word per path
	replayload verify "$2" "$SEED" $3 >/tmp/out 2>/tmp/err ||
		fail "$1: $(head -n 1 /tmp/err)"
	sed "s/^@@M /@@M disk=$1 /" /tmp/out
	step "$1: verified $(echo "$3" | wc -w) files"
	umount "$2" || fail "umount /dev/$1 failed"
	check_dmesg "after unmounting $1"
}

verify_disk vda $MNT "$VDA_PATHS"
[ -z "${VDB_PATHS:-}" ] || verify_disk vdb /mnt2 "$VDB_PATHS"
echo "@@JOB-OK@@"
