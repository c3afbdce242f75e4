#!/bin/bash
# sload -c, judged by the kernel.  One generated tree (text that compresses,
# noise that does not, a file of many clusters through the indirect nodes,
# small files kept inline) loaded by our sload into four volumes:
#
#   compress/lz4            -c
#   compress/lzo            -c -a lzo
#   compress/lz4-released   -c -r
#   compress/lzo-released   -c -a lzo -r
#
# Before the guest, our fsck and upstream's must find each clean.  In one
# boot (jobs/compress.sh, once per disk) the kernel reads every file back
# identical to the source; F2FS_IOC_GET_COMPRESS_BLOCKS reports 0 for the
# released files and refuses the inline ones; on the -c volumes
# F2FS_IOC_RELEASE_COMPRESS_BLOCKS gives back exactly the count it
# reported; the files read back the same after; a released file refuses a
# write.  Then the kernel writes a file, unmounts, and both fscks must find
# each volume clean again.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD, OUR_F2FS_IO (ours, defaults in the
# tree), UPSTREAM_FSCK (default: newest upstream's beside the repository,
# else /usr/sbin/fsck.f2fs), plus guest.sh's GUEST_*.  Output: one
# PASS/FAIL/SKIP line per case; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
SLOAD=${OUR_SLOAD:-$repo/sload/sload.f2fs}
F2FS_IO=${OUR_F2FS_IO:-$repo/tools/f2fs_io/f2fs_io}
newest=$(dirname "$repo")/upstream-f2fs-tools/fsck/fsck.f2fs
[ -x "$newest" ] || newest=/usr/sbin/fsck.f2fs
UPSTREAM_FSCK=${UPSTREAM_FSCK:-$newest}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
CASES=(compress/lz4 compress/lzo compress/lz4-released compress/lzo-released)
declare -A opts=([lz4]='-c' [lzo]='-c -a lzo' [lz4-released]='-c -r' [lzo-released]='-c -a lzo -r')

all_names() { printf '%s\n' "${CASES[@]}"; }

need_executable "$MKFS" "$FSCK" "$SLOAD" "$F2FS_IO"
start_work compress

# make_tree DIR: files of every kind the loader treats differently
make_tree() {
	local t=$1 i
	rm -rf "$t" && mkdir -p "$t/text" "$t/noise" "$t/small" || return 1
	for i in 1 2 3 4 5 6; do
		seq 1 $((i * 7000)) | sed "s/\$/ line of file $i/" >"$t/text/t$i" || return 1
	done
	# past the inode's addresses and both direct nodes: clusters in indirect nodes
	seq 1 700000 >"$t/text/big" || return 1
	head -c 300000 /dev/urandom >"$t/noise/n1" || return 1
	{ head -c 20000 /dev/urandom; seq 1 30000; } >"$t/noise/mixed" || return 1
	for i in $(seq 1 20); do seq 1 $((i * 20)) | head -c 2900 >"$t/small/s$i"; done
	: >"$t/small/empty"
}

tree=$work/tree
make_tree "$tree" || CI=true abandon "cannot make the tree"
if ! { (cd "$tree" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$work/compress.sums" &&
	(cd "$tree" && find . -type f -size +8k | LC_ALL=C sort) >"$work/compress.list" &&
	(cd "$tree" && find . -type f -size -3000c | LC_ALL=C sort) >"$work/inline.list"; }; then
	CI=true abandon "cannot list the tree"
fi

declare -A why=()

prepare() {
	local name=$1 img=$work/$1.img
	rm -f "$img"
	# shellcheck disable=SC2086 # opts is a list of options
	if ! { truncate -s 256M "$img" &&
		"$MKFS" -q -f -O extra_attr,compression "$img" </dev/null >/dev/null 2>&1 &&
		"$SLOAD" ${opts[$name]} -f "$tree" "$img" </dev/null >"$work/$name-sload.log" 2>&1; }; then
		why[$name]="mkfs or sload ${opts[$name]} failed: $(tail -n 1 "$work/$name-sload.log")"
		return 1
	fi
	clean_or_why "$name" "$img" before
}

GUEST_EACH_IMAGES=() GUEST_EACH_ENV=()
for c in "${CASES[@]}"; do
	n=${c#compress/}
	prepare "$n"
	GUEST_EACH_IMAGES+=("$work/$n.img")
	case $n in
	*-released) GUEST_EACH_ENV+=("RELEASED=1") ;;
	*) GUEST_EACH_ENV+=("RELEASED=0") ;;
	esac
done

guest_run_each "$here/jobs/compress.sh" "$F2FS_IO" "$work/compress.sums" \
	"$work/compress.list" "$work/inline.list"
for i in "${!CASES[@]}"; do
	n=${CASES[i]#compress/}
	if [ -n "${why[$n]:-}" ]; then
		fail "${CASES[i]}" "${why[$n]}"
	elif [ -n "${guest_each_error[i]}" ]; then
		fail "${CASES[i]}" "kernel: ${guest_each_error[i]}"
	elif ! clean_or_why "$n" "$work/$n.img" after; then
		fail "${CASES[i]}" "after the kernel wrote: ${why[$n]}"
	else
		info "${CASES[i]}: $(grep -a -o -m1 'compress: /dev/[^)]*)' "${guest_each_log[i]}")"
		pass "${CASES[i]}"
	fi
done
finish_work '*.img'
