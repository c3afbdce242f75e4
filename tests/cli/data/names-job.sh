#!/bin/sh
# Guest job of make-names-image.sh (busybox sh): fill /dev/vda with the
# names dump-names.sh shows -- UTF-8, bytes that are not UTF-8, control
# characters, a backslash -- and an inode rewritten across checkpoints, so
# that the node segments hold stale copies of it for dump -I, then enough
# inodes to move the node logs past them.
# shellcheck disable=SC2034 # read by /job-common.sh
JOB_NAME=names
# shellcheck disable=SC1091 # put into the guest by tests/kernel/guest.sh
. /job-common.sh

mount_dev
step "names"
cd "$MNT" || fail "cd $MNT"
echo cafe >"$(printf 'caf\303\251')" || fail "café"
echo nihon >"$(printf '\346\227\245\346\234\254')" || fail "日本"
echo bad >"$(printf 'bad\377\376x')" || fail "bad bytes"
echo ctl >"$(printf 'ctl\001\033[31m\177')" || fail "control characters"
echo back >"$(printf 'back\134slash')" || fail "backslash"
echo nel >"$(printf 'nel\302\205')" || fail "U+0085"
mkdir dir || fail "mkdir"
step "stale copies"
echo one >dir/stale || fail "stale"
sync
for mode in 600 640 644 600; do
	chmod "$mode" dir/stale || fail "chmod $mode"
	sync
done
# enough new inodes to move the node logs on: the stale copies then lie in
# segments that are no longer open, found through their summary blocks
step "node logs"
mkdir many || fail "mkdir many"
i=0
while [ $i -lt 1100 ]; do
	: >many/$i || fail "many/$i"
	i=$((i + 1))
done
sync
cd / || fail "cd /"
umount_dev
echo "@@JOB-OK@@"
