#!/bin/sh
# Guest job for 014-resize.sh, one phase per boot (PHASE):
#
#   fill    the kernel fills FILL_PCT percent of the space df shows
#           available with files (FILE_MIB each, random content), keeps
#           their checksums in /SUMS and that space in /AVAIL, on the volume;
#   verify  after the host resized the volume: df must show about
#           WANT_MIB MiB, every file must match /SUMS; the kernel deletes
#           every third old file, writes WRITE_PCT percent of /AVAIL more
#           (added to /SUMS) and checks every file again.
#
# Then unmount; the host runs both fscks.  Busybox sh.

JOB_NAME=resize
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

FILE_MIB=${FILE_MIB:-8}

# write_files PREFIX MIB: MIB MiB of new files PREFIX-N, checksummed into /SUMS
write_files() {
	n=0
	while [ $((n * FILE_MIB)) -lt "$2" ]; do
		f=$MNT/$1-$n
		dd if=/dev/urandom of="$f" bs=1M count="$FILE_MIB" 2>/dev/null ||
			fail "writing $f failed"
		(cd "$MNT" && md5sum "$1-$n") >>"$MNT/SUMS" || fail "checksumming $f failed"
		n=$((n + 1))
	done
	sync
}

check_sums() {
	(cd "$MNT" && md5sum -c -s SUMS) || fail "a file does not read back as written ($1)"
}

size_mib() {
	df -k "$MNT" | awk 'NR == 2 { print int($2 / 1024) }'
}

step "mount ($PHASE)"
mount_dev
case $PHASE in
fill)
	avail=$(df -k "$MNT" | awk 'NR == 2 { print int($4 / 1024) }')
	echo "$avail" >"$MNT/AVAIL"
	step "fill $FILL_PCT% of $avail MiB"
	write_files old $((avail * FILL_PCT / 100))
	;;
verify)
	size=$(size_mib)
	echo "resize: $DEV size ${size} MiB"
	# statfs counts the blocks from segment 0 to block_count: the new size, near enough
	[ "$size" -ge $((WANT_MIB * 8 / 10)) ] && [ "$size" -le "$WANT_MIB" ] ||
		fail "df shows ${size} MiB, the volume has $WANT_MIB MiB"
	step "read back"
	check_sums "after the resize"
	step "delete every third old file"
	i=0
	for f in "$MNT"/old-*; do
		i=$((i + 1))
		[ $((i % 3)) -eq 0 ] || continue
		rm -f "$f" || fail "rm $f failed"
		grep -v " ${f#"$MNT"/}\$" "$MNT/SUMS" >/tmp/sums && cat /tmp/sums >"$MNT/SUMS"
	done
	want=$(($(cat "$MNT/AVAIL") * WRITE_PCT / 100))
	step "write $want MiB"
	write_files "new$WANT_MIB" "$want"
	sync
	check_sums "after the writes"
	;;
*) fail "unknown PHASE $PHASE" ;;
esac
umount_dev
echo "@@JOB-OK@@"
