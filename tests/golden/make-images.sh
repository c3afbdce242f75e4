#!/bin/bash
# Regenerate the golden images in tests/golden/images/ (run by hand, rarely:
# the images are checked in so that the golden outputs stay byte-identical;
# a new image means new expected outputs, see run.sh --update).
#
# Each image is made by our mkfs with a fixed UUID and timestamp, filled by
# upstream sload.f2fs (Debian's) from a generated tree with a fixed
# timestamp, and compressed with xz.  One copy is then corrupted with our
# inject.f2fs so that the problem lines are covered too.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/golden/images
mkfs=${MKFS:-$top/mkfs/mkfs.f2fs}
inject=${INJECT:-$top/inject/inject.f2fs}
sload=${SLOAD:-/usr/sbin/sload.f2fs}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
uuid=6a1bd1c5-0f27-4b8e-9d3c-2f00c0ffee01

# A tree with what the read path walks: inline and block files, a file past
# the inode's direct addresses into the indirect nodes, holes, a directory
# large enough for several hash levels, symlinks, hard links, non-ASCII names.
make_tree() {
	local t=$1 i
	mkdir -p "$t/dir/sub/deep" "$t/big" "$t/empty"
	echo hello >"$t/hello.txt"
	printf 'inline %s\n' {1..20} >"$t/dir/inline"
	yes 'block file line' | head -c 40000 >"$t/dir/blocks"
	yes 'a large file, into indirect nodes' | head -c $((12 << 20)) >"$t/dir/sub/large"
	truncate -s 5M "$t/dir/sparse" && printf 'end' >>"$t/dir/sparse"
	printf 'x' | dd of="$t/dir/sparse" bs=1 seek=2000000 conv=notrunc status=none
	for i in $(seq 1 400); do echo "$i" >"$t/big/entry-$i"; done
	ln -s hello.txt "$t/link"
	ln -s "$(printf 'long/%.0s' {1..60})target" "$t/dir/longlink"
	ln "$t/hello.txt" "$t/dir/hardlink"
	echo café >"$t/café"
	echo nihon >"$t/日本"
	: >"$t/empty/zero"
	touch -d @1700000000 "$t" "$t"/* "$t"/*/* "$t"/*/*/* 2>/dev/null || true
}

image() { # NAME SIZE MKFS-OPTS...
	local name=$1 size=$2
	shift 2
	rm -f "$work/$name.img"
	truncate -s "$size" "$work/$name.img"
	"$mkfs" -q -f -U "$uuid" -T 1700000000 "$@" "$work/$name.img"
}

make_tree "$work/tree"
image empty 256M
image populated 256M -O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime
"$sload" -T 1700000000 -f "$work/tree" "$work/populated.img" </dev/null >/dev/null 2>&1 || true
image sections 512M -s 4
"$sload" -T 1700000000 -f "$work/tree" "$work/sections.img" </dev/null >/dev/null 2>&1 || true
cp "$work/populated.img" "$work/corrupt.img"
# a wrong link count, a bad dentry hash, a block the SIT does not mark
"$inject" --node --nid 4 --mb i_links --val 7 "$work/corrupt.img" >/dev/null
"$inject" --node --nid 3 --mb i_size --val 12345 "$work/corrupt.img" >/dev/null
"$inject" --nat 0 --nid 5 --mb block_addr --val 0 "$work/corrupt.img" >/dev/null
for n in empty populated sections corrupt; do
	xz -9 -c "$work/$n.img" >"$out/$n.img.xz"
done
ls -l "$out"
