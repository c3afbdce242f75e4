#!/bin/bash
# Regenerate names.img.xz (run by hand, rarely: dump-names.sh asserts exact
# outputs on the checked-in image).  Our mkfs formats a 256 MiB image with a
# fixed UUID and time; Debian's kernel fills it in the qemu guest
# (tests/kernel) with names-job.sh.  Needs F2FS_NG_CACHE or a kernel that
# tests/kernel/setup.sh can fetch.
set -eu -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
# shellcheck source=../../kernel/guest.sh disable=SC2154 # guest_error is set by guest.sh
. "$repo/tests/kernel/guest.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
img=$work/names.img
truncate -s 256M "$img"
"$MKFS" -q -f -U 6a1bd1c5-0f27-4b8e-9d3c-2f00c0ffee02 -T 1700000000 -O extra_attr,inode_checksum "$img"
guest_init || { echo "cannot start the guest: $guest_error" >&2; exit 1; }
guest_run "$img" "$here/names-job.sh" || { echo "guest: $guest_error" >&2; exit 1; }
xz -9 -c "$img" >"$here/names.img.xz"
echo "wrote $here/names.img.xz ($(stat -c %s "$here/names.img.xz") bytes)"
