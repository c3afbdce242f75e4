#!/bin/sh
# Guest job, once per disk: the kernel's quota usage against the tree.  Mount
# (the kernel loads the quota files the volume names, quota_ino), compare
# what quotactl reports for every uid, gid and project id with what the
# tree holds (/bin/quotausage), then write as two other users (new files
# owned by 1000:2000 and 1001:2000, one with a hard link, one removed
# again), compare again, unmount.  The host checks afterwards that both
# fscks agree with the quota files the kernel wrote.  Prints "quota: DEV
# first ok" / "quota: DEV after-writes ok" or the differences.  Busybox sh.

JOB_NAME=quota
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

usage() {
	out=$(/bin/quotausage "$DEV" "$MNT" u:1000 u:1001 g:2000 2>&1)
	echo "$out" | sed "s|^quota-usage:|quota: $DEV $1|"
	echo "$out" | grep -q '^quota-usage: ok' || fail "quota usage differs ($1)"
}

step "mount"
mount_dev
usage first
step "writes as other users"
mkdir "$MNT/quota-test" || fail "mkdir failed"
dd if=/dev/urandom of="$MNT/quota-test/a" bs=4k count=37 2>/dev/null || fail "dd a failed"
dd if=/dev/urandom of="$MNT/quota-test/b" bs=4k count=5 2>/dev/null || fail "dd b failed"
dd if=/dev/urandom of="$MNT/quota-test/c" bs=4k count=9 2>/dev/null || fail "dd c failed"
chown 1000:2000 "$MNT/quota-test/a" "$MNT/quota-test/c" || fail "chown failed"
chown 1001:2000 "$MNT/quota-test/b" "$MNT/quota-test" || fail "chown failed"
ln "$MNT/quota-test/a" "$MNT/quota-test/a-link" || fail "ln failed"
rm "$MNT/quota-test/c" || fail "rm failed"
sync
usage after-writes
umount_dev
echo "@@JOB-OK@@"
