#!/bin/bash
# Regenerate tests/fuzz/images/kernel.img.xz, the kernel-written image the
# differential mutation run (differential.sh) starts from.  Run by hand,
# rarely: the image is checked in so that a seed always gives the same
# mutations.  It needs the qemu guest of tests/kernel (about a minute under
# TCG; export F2FS_NG_CACHE=/work/main/build-cache to reuse a downloaded
# kernel).
#
# Our mkfs.f2fs formats a 64 MiB image with extra attributes, inode
# checksums, flexible inline xattrs and inode creation times; the kernel
# then writes the tree of kernel-image-job.sh (our f2fs_io sets the
# xattrs) and unmounts.  Both fscks must call the result clean.
set -eu -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
MKFS=${MKFS:-$top/mkfs/mkfs.f2fs}
FSCK=${FSCK:-$top/fsck/fsck.f2fs}
F2FS_IO=${F2FS_IO:-$top/tools/f2fs_io/f2fs_io}
UP_FSCK=${UP_FSCK:-/usr/sbin/fsck.f2fs}
out=$here/images/kernel.img.xz
# shellcheck source=../kernel/guest.sh
. "$top/tests/kernel/guest.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"; guest_cleanup' EXIT
img=$work/kernel.img
truncate -s 64M "$img"
"$MKFS" -q -f -U 6a1bd1c5-0f27-4b8e-9d3c-2f00c0ffee02 -T 1700000000 \
	-O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime "$img"
if ! guest_run "$img" "$here/kernel-image-job.sh" "$F2FS_IO"; then
	# shellcheck disable=SC2154 # guest_error is set by guest.sh
	echo "make-kernel-image: the guest failed: $guest_error" >&2
	exit 1
fi
"$FSCK" "$img" >"$work/ours.log" || {
	echo "make-kernel-image: our fsck does not call the image clean:" >&2
	grep PR_ "$work/ours.log" >&2
	exit 1
}
"$UP_FSCK" --dry-run -f "$img" >"$work/up.log" 2>&1 || {
	echo "make-kernel-image: upstream fsck does not call the image clean" >&2
	tail -20 "$work/up.log" >&2
	exit 1
}
mkdir -p "$(dirname "$out")"
xz -9 -c "$img" >"$out"
ls -l "$out"
