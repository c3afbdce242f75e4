#!/bin/sh
# Guest job, once per disk: the kernel reads the label f2fslabel wrote, then
# sets one of its own.  Mount, compare FS_IOC_GETFSLABEL with WANT (the
# label the host set), read every file back, set KERNEL_LABEL through
# FS_IOC_SETFSLABEL, write a file, unmount.  The host then reads the
# kernel's label with f2fslabel and runs both fscks.  Prints "label: DEV
# [LABEL]" as the kernel read it.  Busybox sh.

JOB_NAME=label
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

step "mount"
mount_dev
step "read the label"
got=$(/bin/fslabel get "$MNT") || fail "FS_IOC_GETFSLABEL failed"
echo "label: $DEV $got"
[ "$got" = "fslabel: [$WANT]" ] || fail "the kernel reads $got, the host set [$WANT]"
step "read every file"
find "$MNT" -type f -exec cat {} + >/dev/null || fail "a file does not read"
step "set a label and write"
/bin/fslabel set "$MNT" "$KERNEL_LABEL" || fail "FS_IOC_SETFSLABEL failed"
echo written-after-the-label >"$MNT/after-label" || fail "write failed"
sync
umount_dev
echo "@@JOB-OK@@"
