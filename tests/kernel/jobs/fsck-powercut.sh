#!/bin/sh
# Guest job: write and fsync files on /dev/vda until the power is cut.
#
# After a first checkpoint (sync) of a base tree, a loop keeps creating new
# directories (an fsync under a directory that was never checkpointed makes
# the kernel write a checkpoint) and new files in the old base directories,
# appending to old files and rewriting parts of them, each followed by an
# fsync (dd conv=fsync, or busybox "sync FILE", which is fsync(2)): those
# leave node chains after the last checkpoint that only roll-forward
# recovery at the next mount picks up.  Some files are written without any
# fsync, some are renamed or deleted.  A background subshell cuts the power
# with sysrq "b" (immediate reboot without sync or unmount; qemu runs with
# -no-reboot, so it just exits) CUT_AFTER seconds after the loop started.
#
# The job never finishes by itself: the host expects "@@CUT@@" on the
# console and no exit marker.  If the cut does not happen within CUT_AFTER +
# 60 s the job fails.  Busybox sh only.
#
# Environment (GUEST_JOB_ENV):
#   CUT_AFTER    seconds (may be fractional) from the start of the loop to
#                the power cut (default 3)

JOB_NAME=fsck-powercut
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

CUT_AFTER=${CUT_AFTER:-3}

step "mount"
mount_dev

step "base tree"
mkdir -p "$MNT/base" || fail "mkdir base failed"
awk -v t="$MNT/base" 'BEGIN {
	for (d = 0; d < 10; d++) {
		system("mkdir -p " t "/b" d)
		for (f = 0; f < 20; f++) {
			p = t "/b" d "/old" f
			for (i = 0; i < (d * 20 + f) % 7 * 100; i++)
				printf "%s %d %d\n", p, d, i > p
			close(p)
		}
	}
}' || fail "making the base tree failed"
dd if=/dev/urandom of="$MNT/base/log" bs=4k count=4 2>/dev/null || fail "dd log failed"
sync || fail "sync failed"
check_dmesg "after the first checkpoint"

start=$(uptime_s)
deadline=$(awk -v s="$start" -v c="$CUT_AFTER" 'BEGIN { printf "%d", s + c + 60 }')
(
	sleep "$CUT_AFTER"
	# Through printk as well: the console output of the job goes through
	# a pipe that the reset may not let drain.
	echo "<2>@@CUT@@ t=$(uptime_s)" >/dev/kmsg
	echo "@@CUT@@ t=$(uptime_s)"
	echo b >/proc/sysrq-trigger
) &
step "loop started; power cut in ${CUT_AFTER}s"

i=0
while :; do
	b=$MNT/base/b$((i % 10))
	# New files in checkpointed directories: fsync alone, roll-forward
	# has to recover the dentry and the data.
	dd if=/dev/urandom of="$b/new$i" bs=4k count=$((i % 9 + 1)) conv=fsync 2>/dev/null ||
		fail "dd new$i failed"
	printf 'tiny %d\n' "$i" >"$b/tiny$i" || fail "tiny$i failed"
	sync "$b/tiny$i" || fail "fsync of tiny$i failed"
	# Append to and overwrite part of old files, with fsync.
	dd if=/dev/urandom of="$MNT/base/log" bs=4k count=1 oflag=append conv=notrunc,fsync \
		2>/dev/null || fail "append to log failed"
	dd if=/dev/urandom of="$b/old$((i % 20))" bs=1k count=3 seek=$((i % 5)) \
		conv=notrunc,fsync 2>/dev/null || fail "overwrite old$((i % 20)) failed"
	# A file that is never fsynced.
	printf 'lost %d\n' "$i" >"$b/nofsync$i" || fail "nofsync$i failed"
	# Every third round a new directory with an fsynced file (the kernel
	# writes a checkpoint for it) and a rename.
	if [ $((i % 3)) = 0 ]; then
		mkdir -p "$MNT/new/n$i" || fail "mkdir n$i failed"
		dd if=/dev/urandom of="$MNT/new/n$i/f" bs=4k count=2 conv=fsync 2>/dev/null ||
			fail "dd n$i/f failed"
		[ $i -gt 0 ] && { mv "$MNT/base/b$(((i - 3) % 10))/tiny$((i - 3))" "$b/moved$i" ||
			fail "mv tiny$((i - 3)) failed"; }
	fi
	# Every fifth round delete something old.
	if [ $((i % 5)) = 4 ]; then
		rm -f "$MNT/base/b$((i % 10))/new$((i - 4))" || fail "rm new$((i - 4)) failed"
	fi
	i=$((i + 1))
	if [ $((i % 10)) = 0 ]; then
		now=$(uptime_s)
		echo "fsck-powercut: round $i (t=$now)"
		[ "${now%.*}" -lt "$deadline" ] || fail "the power cut did not happen"
	fi
done
