#!/bin/sh
# Guest job, once per disk: a read-only volume (feature ro) as the kernel
# sees it.  A read-write mount must be refused (the kernel allows ro only
# for the feature), a read-only one must succeed quietly, and the tree must
# equal the manifest of the tree sload loaded (MANIFEST=/bin/PREFIX: names,
# contents, links/sizes/modes, symlink targets, as make_manifest makes them
# on the host; an empty lost+found aside).  A second read-only mount
# follows: it must succeed, or, with SECOND_MOUNT=refused (a volume with
# quota files, which Linux 6.1 writes to at the first mount), the kernel
# must refuse it as corrupted.  Busybox sh.

JOB_NAME=ro
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

# (not with SECOND_MOUNT=refused: busybox's read-only retry would be the one
# mount that volume survives)
if [ "${SECOND_MOUNT:-}" != refused ]; then
	step "read-write mount, to be refused"
	# busybox mount retries read-only when the kernel refuses: what counts is rw or not
	if mount -t f2fs "$DEV" "$MNT" 2>/dev/null; then
		grep -q "^$DEV $MNT f2fs rw" /proc/mounts && fail "the kernel mounted a read-only volume read-write"
		umount "$MNT" || fail "umount after the refused rw mount failed"
	fi
	dmesg | grep -q 'Allow to mount readonly mode only' ||
		fail "the kernel did not refuse the rw mount for the ro feature"
	dmesg -c >/dev/null
fi
step "read-only mount"
mount -t f2fs -o ro "$DEV" "$MNT" || fail "mount -o ro failed: $(dmesg | grep -i f2fs | tail -n 1)"
grep -q "^$DEV $MNT f2fs ro" /proc/mounts || fail "$DEV is not mounted ro"
check_dmesg "after the ro mount"
step "compare with the loaded tree"
(
	cd "$MNT" || exit 1
	# lost+found (-O lost_found) is mkfs's, not the tree's
	find . -path ./lost+found -prune -o -print | LC_ALL=C sort >/tmp/m.names
	find . -type f | LC_ALL=C sort >/tmp/files
	xargs stat -c '%h %s %a %n' </tmp/files >/tmp/m.links
	find . -type l | LC_ALL=C sort | while read -r l; do
		echo "$l -> $(readlink "$l")"
	done >/tmp/m.symlinks
	cmp -s "$MANIFEST.names" /tmp/m.names ||
		fail "names differ: $(diff "$MANIFEST.names" /tmp/m.names | grep '^[-+][^-+]' | head -n 2 | tr '\n' ' ')"
	sha256sum -c -s "$MANIFEST.sums" 2>/dev/null ||
		fail "contents differ: $(sha256sum -c "$MANIFEST.sums" 2>&1 | grep -v ': OK$' | head -n 2 | tr '\n' ' ')"
	cmp -s "$MANIFEST.links" /tmp/m.links ||
		fail "links, sizes or modes differ: $(diff "$MANIFEST.links" /tmp/m.links | grep '^[-+][^-+]' | head -n 2 | tr '\n' ' ')"
	cmp -s "$MANIFEST.symlinks" /tmp/m.symlinks || fail "symlinks differ"
) || exit 1
echo "ro: $DEV $(wc -l </tmp/m.names) names, $(wc -l </tmp/files) files read back"
touch "$MNT/x" 2>/dev/null && fail "a write to the ro mount succeeded"
umount_dev
step "second read-only mount (${SECOND_MOUNT:-accepted} expected)"
dmesg -c >/dev/null
if mount -t f2fs -o ro "$DEV" "$MNT" 2>/dev/null; then
	umount "$MNT"
	[ "${SECOND_MOUNT:-}" = refused ] && fail "the kernel mounted the volume again"
	check_dmesg "after the second ro mount"
else
	[ "${SECOND_MOUNT:-}" = refused ] || fail "second mount -o ro failed: $(dmesg | grep -i f2fs | tail -n 1)"
	dmesg | grep -q 'Failed to initialize F2FS segment manager (-117)' ||
		fail "the second mount failed otherwise: $(dmesg | grep -i f2fs | tail -n 1)"
	echo "ro: second mount refused: $(dmesg | grep -i f2fs | tail -n 1)"
fi
echo "@@JOB-OK@@"
