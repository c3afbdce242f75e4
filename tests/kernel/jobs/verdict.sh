#!/bin/sh
# Guest job, once per disk: what the kernel makes of an image (the fuzz
# campaign's judge, 012-kernel-verdict.sh).  Mount it, walk the whole tree
# (every name looked up: find stats each) and read every regular file (its
# first 16 MiB), write a file, syncfs, unmount; each step under a timeout,
# since a damaged tree may loop or leave a task stuck in the kernel (the job
# then says "hung" and powers the guest off: the host boots again for the
# disks after it).
# Prints one line and always ends OK (the host judges):
#   verdict: DISK ok
#   verdict: DISK refused|read-failed|write-failed|umount-failed|complained|hung: DETAIL
# DETAIL is the first F2FS line of the kernel log (or the tool's error).
# Busybox sh only.

JOB_NAME=verdict
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

dmesg -c >/dev/null 2>&1

# the first complaint of the kernel log about this disk, or an oops
kernel_says() {
	dmesg | grep -Ei 'f2fs.*(error|fsck|corrupt|inconsisten|invalid|mismatch|wrong|fail|bad |unexpected|bug|run )|BUG:|WARNING:|Call Trace' |
		awk -v me="F2FS-fs ($DEV_NAME)" '!index($0, "F2FS-fs (") || index($0, me)' | head -n 1 | sed 's/^\[ *[0-9.]*\] //'
}

say() {
	echo "verdict: $DEV_NAME $1${2:+: $2}"
	echo "@@JOB-OK@@"
	exit 0
}

# run SECONDS CMD...: CMD in the background, waited for at most SECONDS;
# 124 when it ran out of time (a task stuck in the kernel may outlive even
# SIGKILL, so it is not waited for).
run() {
	s=$(($1 * 5))
	shift
	"$@" </dev/null >/tmp/run.out 2>&1 &
	p=$!
	while kill -0 "$p" 2>/dev/null; do
		if [ "$s" -le 0 ]; then
			kill -KILL "$p" 2>/dev/null
			return 124
		fi
		sleep 0.2
		s=$((s - 1))
	done
	wait "$p"
}

# hung WHAT [DETAIL]: give up on this disk and on this boot: what timed out
# may go on in the kernel, where even SIGKILL does not end it (the cleaner
# looping in a writeback worker takes the CPU from every disk after it, a
# sync waits for it forever).  The guest powers off at once and unsynced
# (-n); the host boots again for the disks it did not reach.
hung() {
	echo "verdict: $DEV_NAME hung: $1${2:+ ($2)}"
	echo "@@JOB-OK@@"
	sleep 1
	poweroff -n -f
}

# unmount WHAT [DETAIL]: unmount; a timeout is a hang (DETAIL: what the kernel
# said, else asked now), another failure is returned
unmount() {
	urc=0
	run 10 umount "$MNT" || urc=$?
	[ "$urc" = 124 ] && hung "$1" "${2:-$(kernel_says)}"
	return "$urc"
}

rc=0
run 10 mount -t f2fs "$DEV" "$MNT" || rc=$?
[ "$rc" = 124 ] && hung "mount" "$(kernel_says)"
[ "$rc" = 0 ] || say refused "$(kernel_says)"
# every file read, up to 16 MiB each (a damaged i_size may claim petabytes of holes)
run 15 sh -c "find '$MNT' -xdev -type f -exec head -c 16777216 {} + >/dev/null" || rc=$?
if [ "$rc" != 0 ]; then
	detail=$(kernel_says)
	[ -n "$detail" ] || detail=$(grep -v '^$' /tmp/run.out | head -n 1)
	[ "$rc" = 124 ] && hung "reading the tree" "$detail"
	unmount "unmounting after a failed read" "$detail"
	say read-failed "$detail"
fi
# (syncfs: this disk only)
run 10 sh -c "echo probe >'$MNT/verdict-probe' && sync -f '$MNT/verdict-probe' &&
	rm '$MNT/verdict-probe' && sync -f '$MNT'" || rc=$?
[ "$rc" = 124 ] && hung "writing" "$(kernel_says)"
# (an immutable or append-only root refuses it too: the host tells that from damage)
if [ "$rc" != 0 ]; then
	detail=$(kernel_says)
	[ -n "$detail" ] || detail=$(head -n 1 /tmp/run.out)
	unmount "unmounting after a failed write" "$detail"
	say write-failed "$detail"
fi
unmount "unmounting" || say umount-failed "$(kernel_says)"
detail=$(kernel_says)
[ -n "$detail" ] && say complained "$detail"
say ok
