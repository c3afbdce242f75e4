#!/bin/sh
# Guest job: prove that the kernel accepts a freshly made F2FS image on
# $DEV (/dev/vda, or the disk of this run) and keeps what is written to
# it across an unmount.
#
# The tree is generated in tmpfs first and its checksums are taken there, so
# the manifest owes nothing to f2fs.  Then it is copied onto the image
# (1,000 small files of 0..8 KiB in 10 x 10 directories, a hard link, a
# symlink, a 64 MiB file whose every 4 KiB block is distinct), synced,
# unmounted, mounted again and compared: checksums, the list of names, the
# link count and the symlink target.  Busybox sh only.

JOB_NAME=mkfs-verify
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

# The tree and its lists are made once per boot, on the initramfs root
# that every disk's run shares (each run gets a fresh /tmp): generating
# and hashing 65 MiB under TCG cost each run more than copying it.
CACHE=/var/mkfs-verify
SRC=$CACHE/src
MANIFEST=$CACHE/manifest
NAMES=$CACHE/names

# 1,000 files named d<D>/s<S>/f<F>; file i = 100*D + 10*S + F holds
# (i * 7919) mod 8193 bytes (0..8192) of 16-byte records "iiii:oooooooooo\n"
# carrying the file index and the record offset, so no two blocks of the
# tree are alike.
make_small_files() {
	dirs=
	d=0
	while [ $d -lt 10 ]; do
		s=0
		while [ $s -lt 10 ]; do
			dirs="$dirs $SRC/t/d$d/s$s"
			s=$((s + 1))
		done
		d=$((d + 1))
	done
	# shellcheck disable=SC2086 # one word per directory
	mkdir -p $dirs || fail "mkdir in tmpfs failed"
	awk -v root="$SRC/t" 'BEGIN {
		tmpl = ""
		for (o = 0; o < 8208; o += 16)
			tmpl = tmpl sprintf("XXXX:%010d\n", o)
		for (i = 0; i < 1000; i++) {
			f = sprintf("%s/d%d/s%d/f%d", root, int(i / 100), int(i / 10) % 10, i % 10)
			size = (i * 7919) % 8193
			body = tmpl
			gsub(/XXXX/, sprintf("%04d", i), body)
			printf "%s", substr(body, 1, size) > f
			close(f)
		}
	}' || fail "generating the small files failed"
}

# 64 MiB: 16,384 blocks, each a 16-byte header with its block number and a
# fixed 4,080-byte body.
make_big_file() {
	awk 'BEGIN {
		b = "0123456789abcdef"
		while (length(b) < 4096)
			b = b b
		b = substr(b, 1, 4080)
		for (n = 0; n < 16384; n++)
			printf "%015d\n%s", n, b
	}' >"$SRC/big" || fail "generating the big file failed"
	[ "$(stat -c %s "$SRC/big")" = 67108864 ] || fail "big file has the wrong size in tmpfs"
}

make_tree() {
	# the names are written last, once the manifest is whole
	[ -s "$NAMES" ] && return 0
	rm -rf "$CACHE"
	mkdir -p "$SRC" || fail "mkdir $SRC failed"
	make_small_files
	make_big_file
	ln "$SRC/t/d3/s4/f5" "$SRC/t/d3/hardlink" || fail "ln failed"
	ln -s s4/f5 "$SRC/t/d3/symlink" || fail "ln -s failed"
	# Checksums of regular files (the hard link counts as one of them).
	(cd "$SRC" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$MANIFEST" ||
		fail "sha256sum in tmpfs failed"
	[ "$(wc -l <"$MANIFEST")" -eq 1002 ] || fail "manifest has $(wc -l <"$MANIFEST") entries, expected 1002"
	# the names last: a run cut short before here leaves no tree to reuse
	(cd "$SRC" && find . | LC_ALL=C sort) >"$NAMES" || fail "listing $SRC failed"
}

verify_tree() {
	cd "$MNT" || fail "cd $MNT failed"
	sha256sum -c -s "$MANIFEST" || {
		sha256sum -c "$MANIFEST" 2>&1 | grep -v ': OK$' | head -n 5
		fail "checksum mismatch $1"
	}
	find . ! -path ./lost+found ! -path './lost+found/*' ! -path ./manifest |
		LC_ALL=C sort >/tmp/names.now
	cmp -s "$NAMES" /tmp/names.now || {
		diff "$NAMES" /tmp/names.now | head -n 5
		fail "the set of names differs $1"
	}
	cmp -s "$MANIFEST" "$MNT/manifest" || fail "the on-disk manifest differs $1"
	[ "$(stat -c %h t/d3/hardlink)" = 2 ] || fail "hard link count is $(stat -c %h t/d3/hardlink) $1"
	[ "$(stat -c %i t/d3/hardlink)" = "$(stat -c %i t/d3/s4/f5)" ] ||
		fail "hard link and its target have different inodes $1"
	[ -L t/d3/symlink ] || fail "symlink is not a symlink $1"
	[ "$(readlink t/d3/symlink)" = s4/f5 ] || fail "symlink points to '$(readlink t/d3/symlink)' $1"
	cmp -s t/d3/symlink t/d3/s4/f5 || fail "symlink does not resolve to its target $1"
	cd / || fail "cd / failed"
}

step "first mount"
mount_dev "first mount"

step "generating the tree in tmpfs"
make_tree

step "copying the tree onto f2fs"
extra=$(find "$MNT" -mindepth 1 -maxdepth 1 ! -name lost+found | head -n 3 | tr '\n' ' ')
[ -z "$extra" ] || fail "a fresh file system is not empty: $extra"
cp -a "$SRC/." "$MNT/" || fail "copying the tree onto f2fs failed"
cp "$MANIFEST" "$MNT/manifest" || fail "writing the manifest onto f2fs failed"
verify_tree "before unmount"
sync || fail "sync failed"
umount_dev "first umount"

step "second mount"
mount_dev "second mount"
verify_tree "after remount"
umount_dev "second umount"

step "done"
echo "@@JOB-OK@@"
