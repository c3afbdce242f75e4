#!/bin/sh
# Guest job: every virtio disk in turn (/dev/vda, /dev/vdb, ...): mount it,
# compare its tree with its manifest MANIFEST_vdX=PREFIX (PREFIX.names,
# .sums, .links and .symlinks, made on the host as remount-check's are;
# lost+found left out), find every checksum of PREFIX.lost (files fsck
# moved) among the files in lost+found, take a write, unmount.  One line
# per disk, "check-many: vdX ok" or "check-many: vdX bad: REASON"; a bad
# disk does not stop the others, the host judges each.  Busybox sh only.

JOB_NAME=check-many
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

# complaints F2FS made since the last dmesg -c
complaints() {
	dmesg -c | grep -i 'f2fs' |
		grep -Ei 'error|fsck|corrupt|inconsisten|invalid|mismatch|wrong|fail|bad |unexpected|bug' |
		head -n 1
	dmesg | grep -Eq 'BUG:|WARNING:|Call Trace:' && echo "kernel warning or oops"
}

# manifest PREFIX: PREFIX.names, .links and .symlinks (and .sums with a
# second word) of the tree in the current directory, lost+found left out,
# as make_manifest makes them on the host
manifest() {
	find . -path ./lost+found -prune -o -print | LC_ALL=C sort >"$1.names"
	find . -path ./lost+found -prune -o -type f -print | LC_ALL=C sort >/tmp/files
	xargs stat -c '%h %s %a %n' </tmp/files >"$1.links"
	[ -z "${2:-}" ] || xargs sha256sum </tmp/files >"$1.sums"
	find . -path ./lost+found -prune -o -type l -print | LC_ALL=C sort | while read -r l; do
		echo "$l -> $(readlink "$l")"
	done >"$1.symlinks"
}

# check_disk DEV MANIFEST: prints nothing when the disk is good, else the reason
check_disk() {
	MANIFEST=$2
	mount -t f2fs "$1" "$MNT" 2>/dev/null || { echo "mount failed: $(dmesg | tail -n 1)"; return; }
	bad=$(complaints)
	[ -z "$bad" ] || { echo "after mount: $bad"; umount "$MNT"; return; }
	(
		cd "$MNT" || exit 1
		manifest /tmp/m
		cmp -s "$MANIFEST.names" /tmp/m.names || {
			echo "names differ: $(diff "$MANIFEST.names" /tmp/m.names | grep '^[-+][^-+]' | head -n 2 | tr '\n' ' ')"
			exit 1
		}
		sha256sum -c -s "$MANIFEST.sums" 2>/dev/null || {
			echo "contents differ: $(sha256sum -c "$MANIFEST.sums" 2>&1 | grep -v ': OK$' | head -n 2 | tr '\n' ' ')"
			exit 1
		}
		cmp -s "$MANIFEST.links" /tmp/m.links || {
			echo "links, sizes or modes differ: $(diff "$MANIFEST.links" /tmp/m.links | grep '^[-+][^-+]' | head -n 2 | tr '\n' ' ')"
			exit 1
		}
		cmp -s "$MANIFEST.symlinks" /tmp/m.symlinks || { echo "symlinks differ"; exit 1; }
		if [ -s "$MANIFEST.lost" ]; then
			find ./lost+found -type f -exec sha256sum {} + 2>/dev/null | cut -d' ' -f1 >/tmp/m.found
			while read -r sum; do
				grep -qx "$sum" /tmp/m.found || { echo "a moved file is not in lost+found ($sum)"; exit 1; }
			done <"$MANIFEST.lost"
		fi
		# and it takes writes
		echo written >"$MNT/.check-many" && sync && rm "$MNT/.check-many" || echo "cannot write"
	)
	umount "$MNT" || { echo "umount failed"; return; }
	bad=$(complaints)
	[ -z "$bad" ] || echo "after umount: $bad"
}

# KREF_DISK=vdX: a pristine disk whose tree is the manifest /tmp/kref of the
# disks that start from it (made here, as make_manifest makes one on the host)
if [ -n "${KREF_DISK:-}" ]; then
	mount -t f2fs "/dev/$KREF_DISK" "$MNT" || fail "mount of the reference disk $KREF_DISK failed"
	(cd "$MNT" && manifest /tmp/kref sums) || fail "cannot make the reference manifest"
	: >/tmp/kref.lost
	umount "$MNT" || fail "umount of the reference disk failed"
	step "reference manifest from $KREF_DISK: $(wc -l </tmp/kref.names) names"
fi
dmesg -c >/dev/null
for dev in /dev/vd?; do
	eval "m=\${MANIFEST_${dev#/dev/}:-}"
	if [ -z "$m" ]; then
		step "${dev#/dev/} bad: no manifest"
		continue
	fi
	why=$(check_disk "$dev" "$m")
	if [ -z "$why" ]; then
		step "${dev#/dev/} ok"
	else
		step "${dev#/dev/} bad: $why"
	fi
done
echo "@@JOB-OK@@"
