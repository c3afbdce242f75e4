#!/bin/sh
# Guest job of the crash-test campaign (scripts/crashtest), after the cut:
# mount /dev/vda (the kernel rolls fsynced data forward here), check every
# file the log on /dev/vdb says must have survived (crashload verify: size,
# CRC32 of the data, the xattr), walk and read the whole tree, unmount.
# Busybox sh only.

JOB_NAME=crash-verify
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

[ -b /dev/vdb ] || fail "no log disk /dev/vdb"
step "mount"
mount_vda
dmesg | grep -i f2fs | sed 's/^/crash-verify: dmesg: /'

step "verify"
# A loss is reported at the end: the tree is still walked and unmounted, so
# the host's fscks see the image the kernel leaves.
verified=ok
crashload verify --log /dev/vdb --dir "$MNT" || verified=failed

step "walk"
ls -laR "$MNT" >/dev/null || fail "ls -R failed"
find "$MNT" -type f -exec cat {} + >/dev/null || fail "reading the files failed"

step "umount"
umount_vda
[ "$verified" = ok ] || fail "fsynced files lost or changed"
echo "@@JOB-OK@@"
