#!/bin/sh
# Guest job, once per disk: a volume made as an Android sparse image (mkfs
# -S, sload -S, expanded by simg2img on the host).  Mount, compare the
# security.capability values the kernel reads (xattrdump) with WANT_CAPS
# (lines "./path security.capability=HEX", "" for none), read every file
# back, write a file, unmount.  The host then runs both fscks.  Busybox sh.

JOB_NAME=android
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

step "mount"
mount_dev
step "read the capabilities"
got=$(/bin/xattrdump "$MNT" | grep ' security\.capability=' | sort)
echo "capabilities: $DEV [$got]"
[ "$got" = "$WANT_CAPS" ] || fail "the kernel reads [$got], the host wrote [$WANT_CAPS]"
step "read every file"
find "$MNT" -type f -exec cat {} + >/dev/null || fail "a file does not read"
step "write"
echo written-by-the-kernel >"$MNT/after-flash" || fail "write failed"
sync
umount_dev
echo "@@JOB-OK@@"
