#!/bin/sh
# Guest job, once per disk: what the kernel makes of an image (the fuzz
# campaign's judge, 012-kernel-verdict.sh).  Mount it, walk the whole tree
# (every name looked up: find stats each) and read every regular file (its
# first 16 MiB),
# write a file, sync, unmount; each step under a timeout, since a damaged
# tree may loop.  Prints one line and always ends OK (the host judges):
#   verdict: DISK ok
#   verdict: DISK refused|read-failed|write-failed|umount-failed|complained|hung: DETAIL
# DETAIL is the first F2FS line of the kernel log (or the tool's error).
# Busybox sh only.

JOB_NAME=verdict
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

dmesg -c >/dev/null 2>&1

# the first complaint of the kernel log, F2FS's or an oops
kernel_says() {
	dmesg | grep -Ei 'f2fs.*(error|fsck|corrupt|inconsisten|invalid|mismatch|wrong|fail|bad |unexpected|bug|run )|BUG:|WARNING:|Call Trace' |
		head -n 1 | sed 's/^\[ *[0-9.]*\] //'
}

say() {
	echo "verdict: $DEV_NAME $1${2:+: $2}"
	echo "@@JOB-OK@@"
	exit 0
}

# run SECONDS CMD...: CMD under a timeout; 124 when it ran out of time
run() {
	s=$1
	shift
	timeout -s KILL "$s" "$@" >/tmp/run.out 2>&1
}

if ! run 30 mount -t f2fs "$DEV" "$MNT"; then
	rc=$?
	[ "$rc" -ge 124 ] && say hung "mount"
	say refused "$(kernel_says)"
fi
# every file read, up to 16 MiB each (a damaged i_size may claim petabytes of holes)
if ! run 60 sh -c "find '$MNT' -xdev -type f -exec head -c 16777216 {} + >/dev/null"; then
	rc=$?
	detail=$(kernel_says)
	[ -n "$detail" ] || detail=$(grep -v '^$' /tmp/run.out | head -n 1)
	umount "$MNT" 2>/dev/null
	[ "$rc" -ge 124 ] && say hung "reading the tree"
	say read-failed "$detail"
fi
if ! run 30 sh -c "echo probe >'$MNT/verdict-probe' && sync && rm '$MNT/verdict-probe' && sync" &&
	! { grep -q 'Operation not permitted' /tmp/run.out &&
		lsattr -d "$MNT" 2>/dev/null | cut -d' ' -f1 | grep -q '[ia]'; }; then
	# (an immutable or append-only root refusing the write is its state, not damage)
	detail=$(kernel_says)
	umount "$MNT" 2>/dev/null
	say write-failed "${detail:-$(head -n 1 /tmp/run.out)}"
fi
if ! run 30 umount "$MNT"; then
	say umount-failed "$(kernel_says)"
fi
detail=$(kernel_says)
[ -n "$detail" ] && say complained "$detail"
say ok
