#!/bin/sh
# Guest job: leave orphan inodes in the checkpoint of /dev/vda.  Two files
# are written, held open, unlinked, and a checkpoint is written (sync) while
# they are still open, so it lists them as orphans; then the machine resets
# with sysrq "b" (no unmount: qemu runs with -no-reboot and exits), before
# the kernel could release them.  The host expects "@@CUT@@" on the console
# and no exit marker.  Busybox sh only.

JOB_NAME=orphan-cut
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

step "mount"
mount_dev
dd if=/dev/urandom of="$MNT/orphan-a" bs=4k count=40 2>/dev/null || fail "dd orphan-a failed"
dd if=/dev/urandom of="$MNT/orphan-b" bs=4k count=3 2>/dev/null || fail "dd orphan-b failed"
exec 3<"$MNT/orphan-a" 4<"$MNT/orphan-b"
rm "$MNT/orphan-a" "$MNT/orphan-b" || fail "rm failed"
sync || fail "sync failed"
check_dmesg "after the checkpoint"
step "two open files unlinked and checkpointed"
echo "<2>@@CUT@@ t=$(uptime_s)" >/dev/kmsg
echo "@@CUT@@ t=$(uptime_s)"
echo b >/proc/sysrq-trigger
sleep 30
fail "the reset did not happen"
