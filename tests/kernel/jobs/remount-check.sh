#!/bin/sh
# Guest job: mount $DEV (/dev/vda, or the disk of this run; after a power
# cut this is where the kernel rolls fsynced data forward), walk the whole
# tree, unmount.  Busybox sh only.
#
# Environment (GUEST_JOB_ENV):
#   MANIFEST=PREFIX  also compare the tree with PREFIX.names (sorted find
#                    output), PREFIX.sums (sha256sum), PREFIX.links (stat -c
#                    '%h %s %a %n' of the regular files) and PREFIX.symlinks
#                    ("path -> target"), made on the host the same way
#   EXPECT_RECOVERY=1  print whether the kernel said it recovered data (for
#                    the host's report; never a failure either way)
#   XATTRS=FILE      also compare the extended attributes with FILE, the
#                    sorted output of /bin/xattrdump on the host's tree
#   WRITE_MORE=1     after the comparison, write more (new files, an
#                    overwrite, a removal) before unmounting

JOB_NAME=remount-check
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

step "mount"
mount_dev
if [ "${EXPECT_RECOVERY:-0}" = 1 ]; then
	dmesg | grep -i f2fs | sed 's/^/remount-check: dmesg: /'
fi

step "walk"
ls -laR "$MNT" >/dev/null || fail "ls -R failed"
# Read every regular file once: the data blocks get looked up too.
find "$MNT" -type f -exec cat {} + >/dev/null || fail "reading the files failed"

if [ -n "${MANIFEST:-}" ]; then
	step "compare with the manifest"
	cd "$MNT" || fail "cd $MNT failed"
	find . ! -path ./lost+found ! -path './lost+found/*' | LC_ALL=C sort >/tmp/m.names
	cmp -s "$MANIFEST.names" /tmp/m.names || {
		diff "$MANIFEST.names" /tmp/m.names | head -n 5
		fail "the set of names differs from the manifest"
	}
	sha256sum -c -s "$MANIFEST.sums" || {
		sha256sum -c "$MANIFEST.sums" 2>&1 | grep -v ': OK$' | head -n 5
		fail "checksum mismatch"
	}
	find . -type f | LC_ALL=C sort | xargs stat -c '%h %s %a %n' >/tmp/m.links
	cmp -s "$MANIFEST.links" /tmp/m.links || {
		diff "$MANIFEST.links" /tmp/m.links | head -n 5
		fail "link counts, sizes or modes differ from the manifest"
	}
	find . -type l | LC_ALL=C sort | while read -r l; do
		echo "$l -> $(readlink "$l")"
	done >/tmp/m.symlinks
	cmp -s "$MANIFEST.symlinks" /tmp/m.symlinks || {
		diff "$MANIFEST.symlinks" /tmp/m.symlinks | head -n 5
		fail "symlink targets differ from the manifest"
	}
	step "$(wc -l </tmp/m.names) names match the manifest"
	cd / || fail "cd / failed"
fi

if [ -n "${XATTRS:-}" ]; then
	step "compare the extended attributes"
	/bin/xattrdump "$MNT" | LC_ALL=C sort >/tmp/m.xattrs || fail "xattrdump failed"
	cmp -s "$XATTRS" /tmp/m.xattrs || {
		diff "$XATTRS" /tmp/m.xattrs | head -n 5
		fail "extended attributes differ from the source"
	}
	step "$(wc -l </tmp/m.xattrs) extended attributes match"
fi

if [ "${WRITE_MORE:-0}" = 1 ]; then
	step "write more"
	mkdir -p "$MNT/more" || fail "mkdir failed"
	i=0
	while [ $i -lt 20 ]; do
		dd if=/dev/urandom of="$MNT/more/f$i" bs=64k count=$((i + 1)) 2>/dev/null ||
			fail "writing more/f$i failed"
		i=$((i + 1))
	done
	first=$(find "$MNT" -type f ! -path "$MNT/more/*" | head -n 1)
	[ -n "$first" ] && { dd if=/dev/urandom of="$first" bs=4k count=3 conv=notrunc 2>/dev/null ||
		fail "overwriting $first failed"; }
	rm -f "$MNT/more/f3" || fail "rm failed"
	sync
fi

step "umount"
umount_dev

step "done"
echo "@@JOB-OK@@"
