#!/bin/bash
# Read-only volumes (-O ro), judged by the kernel.  A tree loaded by our
# sload onto:
#
#   ro/ours            our mkfs -O ro
#   ro/ours-features   our mkfs -O ro,extra_attr,inode_checksum,sb_checksum,
#                      flexible_inline_xattr,inode_crtime,lost_found
#   ro/ours-quota      our mkfs -O ro,quota
#   ro/theirs          newest upstream's mkfs -O ro (when it is built)
#
# ro/ours-quota is the volume Linux 6.1 cannot keep: its first read-only
# mount runs roll-forward recovery, which clears SB_RDONLY and turns the
# quota files on and off, and that writes a checkpoint without the unmount
# flag; the pack then holds no node summaries, so the next mount looks for
# them in the SSA -- a read-only volume has none -- and fails
# (-EFSCORRUPTED, "Failed to initialize F2FS segment manager (-117)").
# Upstream's mkfs makes such volumes and upstream's fsck calls the image
# the kernel left clean (wrong: the kernel refuses it); our fsck must report
# PR_CP_NODE_SUMMARIES and exit 4 (not repaired: ro volumes never are).
#
# Before the guest both fscks must find each clean.  In one boot
# (jobs/ro.sh, once per disk) the kernel must refuse a read-write mount,
# mount read-only without a complaint, and every name, content, size, mode,
# link count and symlink target must equal the tree's.  After it the image
# must be byte for byte what it was (a read-only mount writes nothing) and
# both fscks must find it clean again; a second read-only mount must work
# (ro/ours-quota: as above).  About 40 s.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD (ours, defaults in the tree),
# UPSTREAM_FSCK (default newest upstream's when built, else
# /usr/sbin/fsck.f2fs), UPSTREAM_NEWEST_MKFS, plus guest.sh's GUEST_*.
# Output: one PASS/FAIL/SKIP line per case; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

newest_dir=$(dirname "$repo")/upstream-f2fs-tools
MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
SLOAD=${OUR_SLOAD:-$repo/sload/sload.f2fs}
NEWEST_MKFS=${UPSTREAM_NEWEST_MKFS:-$newest_dir/mkfs/mkfs.f2fs}
if [ -z "${UPSTREAM_FSCK:-}" ]; then
	UPSTREAM_FSCK=/usr/sbin/fsck.f2fs
	[ -x "$newest_dir/fsck/fsck.f2fs" ] && UPSTREAM_FSCK=$newest_dir/fsck/fsck.f2fs
fi
GUEST_TIMEOUT=${GUEST_TIMEOUT:-240}
CASES=(ro/ours ro/ours-features ro/ours-quota ro/theirs)
declare -A mkfs_of=([ours]="$MKFS -O ro" [ours-quota]="$MKFS -O ro,quota" [ours-features]="$MKFS -O ro,extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found" [theirs]="$NEWEST_MKFS -O ro")

all_names() { printf '%s\n' "${CASES[@]}"; }

need_executable "$MKFS" "$FSCK" "$SLOAD"
start_work ro

# the tree: big and small files, a hole, a hard link, symlinks, nested directories
make_tree() {
	local src=$1 i
	mkdir -p "$src/dir/sub/deeper" "$src/many" "$src/empty-dir" || return 1
	head -c 9000000 /dev/urandom >"$src/big" || return 1
	head -c 3000 /dev/urandom >"$src/dir/inline-size" || return 1
	head -c 4096 /dev/urandom >"$src/dir/sub/one-block" || return 1
	for i in $(seq 1 500); do echo "file $i" >"$src/many/f$i"; done
	: >"$src/empty"
	truncate -s 30M "$src/sparse" && printf 'tail' >>"$src/sparse" || return 1
	ln "$src/big" "$src/dir/hard" || return 1
	ln -s ../big "$src/dir/link" || return 1
	ln -s "$(printf 'x%.0s' $(seq 1 200))" "$src/dangling" || return 1
	chmod 0750 "$src/dir/sub" && chmod 0600 "$src/dir/inline-size"
}

if ! make_tree "$work/tree" || ! make_manifest "$work/tree" "$work/manifest"; then
	CI=true abandon "cannot make the tree"
fi

declare -A why=() sum_before=()

prepare() {
	local name=$1 img=$work/$1.img
	rm -f "$img"
	truncate -s 128M "$img" || { why[$name]="cannot make the image"; return 1; }
	# shellcheck disable=SC2086 # the command and its options are words
	if ! ${mkfs_of[$name]} -f "$img" </dev/null >"$work/$name.mkfs.log" 2>&1; then
		why[$name]="mkfs failed: $(grep -v '^$' "$work/$name.mkfs.log" | tail -n 1)"
		return 1
	fi
	if ! "$SLOAD" -f "$work/tree" "$img" </dev/null >"$work/$name.sload.log" 2>&1; then
		why[$name]="sload failed: $(tail -n 1 "$work/$name.sload.log")"
		return 1
	fi
	clean_or_why "$name" "$img" "after sload" || return 1
	sum_before[$name]=$(sha256sum <"$img")
}

# ro/ours-quota after the guest: the kernel wrote it and now refuses it, so
# our fsck must find it broken, for the reason the kernel has
quota_verdict() {
	local name=$1 img=$2
	if [ "$(sha256sum <"$img")" = "${sum_before[${name#ro/}]}" ]; then
		fail "$name" "the kernel left the image as it was: the case no longer shows the problem"
		return
	fi
	"$FSCK" "$img" </dev/null >"$work/quota-after.log" 2>&1
	local rc=$?
	if [ "$rc" -ne 4 ] || ! grep -q '^\[FSCK\] PR_CP_NODE_SUMMARIES' "$work/quota-after.log"; then
		fail "$name" "our fsck on the image the kernel refuses: exit $rc, $(grep -m1 -E 'PR_|problem' "$work/quota-after.log"), want PR_CP_NODE_SUMMARIES and exit 4"
	else
		pass "$name"
	fi
}

GUEST_EACH_IMAGES=() GUEST_EACH_ENV=() run=()
for c in "${CASES[@]}"; do
	n=${c#ro/}
	if [ "$n" = theirs ] && [ ! -x "$NEWEST_MKFS" ]; then
		skip "$c" "newest upstream mkfs.f2fs is not built ($NEWEST_MKFS)"
		continue
	fi
	if ! prepare "$n"; then
		fail "$c" "${why[$n]}"
		continue
	fi
	GUEST_EACH_IMAGES+=("$work/$n.img")
	if [ "$n" = ours-quota ]; then
		GUEST_EACH_ENV+=($'MANIFEST=/bin/manifest\nSECOND_MOUNT=refused')
	else
		GUEST_EACH_ENV+=("MANIFEST=/bin/manifest")
	fi
	run+=("$c")
done

[ ${#run[@]} -gt 0 ] || finish_work '*.img'
guest_run_each "$here/jobs/ro.sh" "$work/manifest.names" "$work/manifest.sums" \
	"$work/manifest.links" "$work/manifest.symlinks"
for i in "${!run[@]}"; do
	n=${run[i]#ro/}
	if [ -n "${guest_each_error[i]}" ]; then
		fail "${run[i]}" "kernel: ${guest_each_error[i]}"
	elif [ "$n" = ours-quota ]; then
		quota_verdict "${run[i]}" "$work/$n.img"
	elif [ "$(sha256sum <"$work/$n.img")" != "${sum_before[$n]}" ]; then
		fail "${run[i]}" "the read-only mount changed the image"
	elif ! clean_or_why "$n" "$work/$n.img" "after the kernel"; then
		fail "${run[i]}" "${why[$n]}"
	else
		pass "${run[i]}"
	fi
done
finish_work '*.img'
