#!/bin/sh
# Guest job: every virtio disk in turn (/dev/vda, /dev/vdb, ...): mount it,
# compare its tree with the manifest of its case -- MANIFEST_vdX=PREFIX, the
# tree the case started from (PREFIX.names, .sums, .links and .symlinks, made
# on the host as remount-check's are, or here from a reference disk; lost+found
# left out), less what the case's repair was meant to change (derive below)
# -- find the checksum of every file fsck moved among the files in
# lost+found, take a write, unmount.  One line per disk, "check-many: vdX ok"
# or "check-many: vdX bad: REASON"; a bad disk does not stop the others, the
# host judges each.  Busybox sh only.

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

# derive BASE VD OUT: OUT.* = BASE.* less what the case on disk VD changed,
# from its lists (space-separated paths): MOVED_VD, linked into lost+found
# with what lies below them (their checksums go to OUT.lost); GONE_VD, names
# the repair removed (with what lies below them), and LESS_VD, the other names of those files (one link
# less); DAMAGED_VD, files whose data the corruption hit (contents and
# sizes not compared)
derive() {
	eval "moved=\${MOVED_$2:-} gone=\${GONE_$2:-} less=\${LESS_$2:-} damaged=\${DAMAGED_$2:-}"
	# keep FIELD [EXTRA]: stdin's lines whose path (field FIELD, 0 for the
	# line) is neither moved nor gone nor among EXTRA; the links of LESS drop
	keep() {
		awk -v f="$1" -v moved="$moved" -v gone="$gone $2" -v less="$less" '
			BEGIN { nm = split(moved, m, " "); ng = split(gone, g, " ")
				nl = split(less, l, " ") }
			{ p = f ? $f : $0
			  for (i = 1; i <= nm; i++) if (p == m[i] || index(p, m[i] "/") == 1) next
			  for (i = 1; i <= ng; i++) if (p == g[i] || index(p, g[i] "/") == 1) next
			  if (f == 4) for (i = 1; i <= nl; i++) if (p == l[i]) $1 = $1 - 1
			  print }'
	}
	keep 0 <"$1.names" >"$3.names"
	keep 4 "$damaged" <"$1.links" >"$3.links"
	keep 1 <"$1.symlinks" >"$3.symlinks"
	keep 2 "$damaged" <"$1.sums" >"$3.sums"
	echo "$damaged" >"$3.damaged"
	# the moved files' checksums: those of BASE.sums under a moved path
	awk -v moved="$moved" 'BEGIN { n = split(moved, m, " ") }
		{ for (i = 1; i <= n; i++) if ($2 == m[i] || index($2, m[i] "/") == 1) { print $1; next } }' \
		<"$1.sums" >"$3.lost"
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
		# the damaged files' sizes are not compared: their lines go from both sides
		for d in $(cat "$MANIFEST.damaged"); do
			awk -v p="$d" '$4 != p' /tmp/m.links >/tmp/m.tmp && mv /tmp/m.tmp /tmp/m.links
		done
		cmp -s "$MANIFEST.names" /tmp/m.names || {
			echo "names differ: $(diff "$MANIFEST.names" /tmp/m.names | grep '^[-+][^-+]' | head -n 2 | tr '\n' ' ')"
			exit 1
		}
		# (a case whose every file moved or went leaves no checksum to compare)
		[ ! -s "$MANIFEST.sums" ] || sha256sum -c -s "$MANIFEST.sums" 2>/dev/null || {
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
	derive "$m" "${dev#/dev/}" "/tmp/case-${dev#/dev/}"
	why=$(check_disk "$dev" "/tmp/case-${dev#/dev/}")
	if [ -z "$why" ]; then
		step "${dev#/dev/} ok"
	else
		step "${dev#/dev/} bad: $why"
	fi
done
echo "@@JOB-OK@@"
