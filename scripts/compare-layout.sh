#!/bin/bash
# Compare the layout our mkfs.f2fs writes with upstream's for one size and set
# of options: both images are made on sparse files of the same size and read
# back with upstream dump.f2fs; every superblock and checkpoint field must be
# equal except those that differ by design (uuid, versions, times, checkpoint
# version and CRCs).  Prints the differing fields and exits 1 when any differ.
# usage: compare-layout.sh SIZE [mkfs options...]   (SIZE as for truncate -s)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${MKFS:-$top/mkfs/mkfs.f2fs}
upstream=${UPSTREAM_MKFS:-/usr/sbin/mkfs.f2fs}
dump=${UPSTREAM_DUMP:-/usr/sbin/dump.f2fs}
size=$1
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/cmp-layout.XXXXXX")
trap 'rm -rf "$work"' EXIT

fields() {
	"$dump" -d 1 "$1" 2>/dev/null | "$top/scripts/layout-fields.sh"
}

for who in ours upstream; do
	truncate -s "$size" "$work/$who.img" || exit 2
	bin=$ours
	[ "$who" = upstream ] && bin=$upstream
	if ! "$bin" -q -f "$@" "$work/$who.img" >"$work/$who.log" 2>&1; then
		echo "$who mkfs.f2fs failed for $size $*: $(head -c 300 "$work/$who.log" | tr '\n' ' ')"
		exit 3
	fi
	fields "$work/$who.img" >"$work/$who.fields"
done
if [ ! -s "$work/upstream.fields" ]; then
	echo "upstream dump.f2fs printed no fields"
	exit 2
fi
if ! diff -u "$work/upstream.fields" "$work/ours.fields" >"$work/diff"; then
	echo "layout differs for $size $*:"
	grep -E '^[-+][a-z]' "$work/diff"
	exit 1
fi
echo "layout equal for $size $* ($(wc -l <"$work/ours.fields") fields)"
