#!/bin/sh
# Guest job of the crash-test campaign (scripts/crashtest), after the cut:
# mount $DEV (the kernel rolls fsynced data forward here), check every file
# the log on $LOG_DISK says must have survived (crashload verify: size,
# CRC32 of the data, the xattr), walk and read the whole tree, unmount.
# Busybox sh only.
#
# Environment (GUEST_JOB_ENV, or the run's own with guest_run_each):
#   LOG_DISK     the workload's log disk (default /dev/vdb)
#   TORN_PACK=1  the host's fsck found a checkpoint pack the cut left torn:
#                the kernel's "invalid crc_offset" / "invalid crc value"
#                warnings for it at mount are expected (it mounts the other
#                pack), any other complaint still fails

JOB_NAME=crash-verify
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

LOG_DISK=${LOG_DISK:-/dev/vdb}
[ -b "$LOG_DISK" ] || fail "no log disk $LOG_DISK"
step "mount"
# check_dmesg reads the whole dmesg each time: the allowance stays.
[ "${TORN_PACK:-0}" = 1 ] && DMESG_ALLOW="F2FS-fs \\($DEV_NAME\\): invalid crc(_offset: [0-9]+| value)\$"
mount_dev
dmesg | grep -i f2fs | sed 's/^/crash-verify: dmesg: /'

step "verify"
# A loss is reported at the end: the tree is still walked and unmounted, so
# the host's fscks see the image the kernel leaves.
verified=ok
crashload verify --log "$LOG_DISK" --dir "$MNT" || verified=failed

step "walk"
ls -laR "$MNT" >/dev/null || fail "ls -R failed"
find "$MNT" -type f -exec cat {} + >/dev/null || fail "reading the files failed"

step "umount"
umount_dev
[ "$verified" = ok ] || fail "fsynced files lost or changed"
echo "@@JOB-OK@@"
