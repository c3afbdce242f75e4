#!/bin/sh
# Helpers shared by the guest jobs.  guest.sh puts this file in every
# initramfs as /job-common.sh; a job sets JOB_NAME (the prefix of its step
# lines) and sources it.  Busybox sh only.
#
#   fail TEXT...       print the @@JOB-FAIL@@ marker with TEXT and exit 1
#   uptime_s           seconds since boot, from /proc/uptime
#   step TEXT...       a progress line: "JOB_NAME: TEXT (t=SECONDS)"
#   check_dmesg WHEN   fail when the kernel complained about f2fs, or
#                      warned or oopsed at all; WHEN ends the reason.  Lines
#                      matching the ERE in $DMESG_ALLOW (when set) are
#                      expected and ignored.
#   mount_dev [WHAT]   mount $DEV read-write on $MNT and check dmesg;
#                      WHAT (default "mount") names the mount in reasons
#   umount_dev [WHAT]  unmount $MNT and check dmesg (WHAT default "umount")
#
# DEV is the disk under test: /dev/vda, or the disk of this run when the
# host batched several images into one boot (guest_run_each); DEV_NAME is
# its name in /sys (vda, ...).

MNT=/mnt
DEV=${DEV:-/dev/vda}
DEV_NAME=${DEV#/dev/}

fail() {
	echo "@@JOB-FAIL@@ $*"
	exit 1
}

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

step() {
	echo "$JOB_NAME: $* (t=$(uptime_s))"
}

# F2FS messages that mean the kernel did not like the image.  Normal mounts
# only say "Found nat_bits in checkpoint" and "Mounted with checkpoint ...".
check_dmesg() {
	bad=$(dmesg | grep -i 'f2fs' | grep -Ev "${DMESG_ALLOW:-^\$}" |
		grep -Ei 'error|fsck|corrupt|inconsisten|invalid|mismatch|wrong|fail|bad |unexpected|bug')
	[ -z "$bad" ] || fail "kernel complained $1: $(echo "$bad" | head -n 1)"
	dmesg | grep -Eq 'BUG:|WARNING:|Call Trace:' && fail "kernel warning or oops $1"
	return 0
}

# shellcheck disable=SC2120 # WHAT is optional
mount_dev() {
	mount -t f2fs "$DEV" "$MNT" || fail "mount -t f2fs $DEV${1:+ ($1)} failed"
	grep -q "^$DEV $MNT f2fs rw" /proc/mounts || fail "$DEV not mounted rw${1:+ ($1)}"
	check_dmesg "after ${1:-mount}"
}

# shellcheck disable=SC2120 # WHAT is optional
umount_dev() {
	umount "$MNT" || fail "umount${1:+ ($1)} failed"
	check_dmesg "after ${1:-umount}"
}
