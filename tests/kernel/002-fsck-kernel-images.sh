#!/bin/bash
# Our fsck against upstream's on images the kernel (or upstream sload) wrote.
#
# fsck-tree cases: make an image (our mkfs, or upstream's for one case), let
# Debian's kernel build a varied tree on it (jobs/fsck-tree.sh: big
# directories, inline data, indirect nodes, holes, hard links, symlinks,
# special files, renames, deletions, truncations), then run our fsck and
# upstream's on the image.  A case passes only if both call it clean; when
# they disagree the reason names both exit codes and our PR_ lines.
#
# sload cases: upstream's sload.f2fs, then ours (on a 1 GiB image, an
# 8 GiB -s 128 one, and with LZ4 compression), load a generated host tree (~2,000 names, symlinks and
# hard links included) into an image made by our mkfs; both fscks must call
# it clean; the kernel mounts it and checks names, contents, link counts,
# sizes, modes and symlink targets against a manifest made on the host
# (jobs/remount-check.sh); then both fscks must call it clean again.
#
# Upstream runs as "fsck.f2fs --dry-run -f", which leaves the image
# unchanged, so both fscks read the same bytes.  The fsck-tree cases share
# one boot and the sload cases another, a disk each (guest_run_each).
#
# Environment:
#   MKFS           our mkfs.f2fs (default <repo>/mkfs/mkfs.f2fs)
#   OUR_FSCK       our fsck.f2fs (default <repo>/fsck/fsck.f2fs)
#   UPSTREAM_MKFS  default /usr/sbin/mkfs.f2fs
#   UPSTREAM_FSCK  default /usr/sbin/fsck.f2fs
#   UPSTREAM_SLOAD default /usr/sbin/sload.f2fs
#   OUR_SLOAD      our sload.f2fs (default <repo>/sload/sload.f2fs)
#   F2FS_IO        f2fs_io for the compressed file (default /usr/sbin/f2fs_io;
#                  the compressed file is left out when it is missing)
#   FSCK_KERNEL_CASES  names of the cases to run (default: all)
#   FSCK_KERNEL_NO_MKNOD=1  make no device nodes in the tree (to look past a
#                  known problem with them)
#   CI=true        a harness that cannot be set up is a failure, not a skip
#   TMPDIR         where the sparse images go (default /tmp)
#   plus the GUEST_* variables of guest.sh
#
# Output: one "PASS: name", "FAIL: name: reason" or "SKIP: name: reason" line
# per case on stdout, details on stderr; exit 1 if any case failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
OUR_FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
UPSTREAM_MKFS=${UPSTREAM_MKFS:-/usr/sbin/mkfs.f2fs}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
UPSTREAM_SLOAD=${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}
OUR_SLOAD=${OUR_SLOAD:-$repo/sload/sload.f2fs}
F2FS_IO=${F2FS_IO:-/usr/sbin/f2fs_io}
TREE_JOB=$here/jobs/fsck-tree.sh
REMOUNT_JOB=$here/jobs/remount-check.sh

FEATURES=extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found,compression
# name | image size | mkfs (ours or upstream) | mkfs options
CASES=(
	"1g-default|1G|ours|"
	"2g-features|2G|ours|-O $FEATURES"
	"8g-s128|8G|ours|-s 128"
	"1g-upstream-mkfs|1G|upstream|"
)
# name | image size | sload (ours, ours-plain or upstream) | mkfs options | sload options
# ours-plain: ours on the tree upstream gets (Debian's fsck 1.15 misreads compressed
# clusters in the large extra files' indirectly reached nodes; newest upstream does not)
SLOAD_CASES=(
	"1g-sload|1G|upstream||"
	"1g-our-sload|1G|ours||"
	"8g-s128-our-sload|8G|ours|-s 128|"
	"2g-our-sload-lz4|2G|ours-plain|-O extra_attr,compression|-c"
)

all_names() {
	local c
	for c in "${CASES[@]}" "${SLOAD_CASES[@]}"; do
		echo "fsck-kernel/${c%%|*}"
	done
}

wanted() {
	[ -z "${FSCK_KERNEL_CASES:-}" ] || [[ " $FSCK_KERNEL_CASES " == *" $1 "* ]]
}

# both_fsck IMG TAG: run our fsck, then upstream --dry-run -f, on IMG.
# Prints nothing and returns 0 when both say clean; otherwise prints a
# one-line reason naming both verdicts and returns 1.  Logs go to
# $work/TAG.{ours,upstream}.log.
both_fsck() {
	local img=$1 tag=$2 ours=$work/$2.ours.log ups=$work/$2.upstream.log
	local orc urc ov uv t0
	t0=$(now)
	"$OUR_FSCK" -n "$img" </dev/null >"$ours" 2>&1
	orc=$?
	"$UPSTREAM_FSCK" --dry-run -f "$img" </dev/null >"$ups" 2>&1
	urc=$?
	info "$tag: fsck ours exit $orc, upstream exit $urc ($(since "$t0")s for both)"
	ov=$(our_verdict "$orc" "$ours") && uv=$(upstream_verdict "$urc" "$ups") && return 0
	# Re-evaluate both for the message (the && above may have skipped one).
	ov=$(our_verdict "$orc" "$ours") && ov=clean
	uv=$(upstream_verdict "$urc" "$ups") && uv=clean
	{
		echo "----- $tag: our fsck -n (exit $orc) -----"
		fsck_log_tail "$ours"
		echo "----- $tag: upstream fsck --dry-run -f (exit $urc) -----"
		fsck_log_tail "$ups"
		echo "-----------------------------------------"
	} >&2
	if [ "$ov" = clean ]; then
		echo "disagreement: ours clean (exit $orc), upstream not: $uv"
	elif [ "$uv" = clean ]; then
		echo "disagreement: upstream clean (exit $urc), ours not: $ov"
	else
		echo "both not clean: ours $ov; upstream $uv"
	fi
	return 1
}

# tree_image NAME SIZE ours|upstream OPTS: the case's image, made; on
# failure the case's result line is printed and it returns 1.
tree_image() {
	local name=$1 size=$2 which=$3 opts=$4 img=$work/$1.img out mkfs
	local -a optv
	read -r -a optv <<<"$opts"
	mkfs=$MKFS
	[ "$which" = upstream ] && mkfs=$UPSTREAM_MKFS
	rm -f "$img"
	if ! truncate -s "$size" "$img"; then
		fail "fsck-kernel/$name" "cannot create a $size sparse image in $work"
		return 1
	fi
	out=$work/$name.mkfs.log
	if ! "$mkfs" -f "${optv[@]}" "$img" </dev/null >"$out" 2>&1; then
		tail -n 20 "$out" >&2
		fail "fsck-kernel/$name" "$mkfs -f $opts failed: $(grep -v '^$' "$out" | tail -n 1)"
		rm -f "$img"
		return 1
	fi
}

# tree_cases "NAME|OPTS"...: the kernel builds its tree on every image in
# one boot (one disk each), then both fscks judge each image.
tree_cases() {
	local c name opts i reason t0
	local -a hostfiles=()
	[ $# -gt 0 ] || return 0
	GUEST_EACH_IMAGES=()
	GUEST_EACH_ENV=()
	GUEST_JOB_ENV="NO_MKNOD=${FSCK_KERNEL_NO_MKNOD:-0}"
	for c in "$@"; do
		name=${c%%|*}
		opts=${c#*|}
		GUEST_EACH_IMAGES+=("$work/$name.img")
		if [[ ",$opts," == *compression* ]] && [ -x "$F2FS_IO" ]; then
			GUEST_EACH_ENV+=("COMPRESS=1")
			hostfiles=("$F2FS_IO")
		else
			GUEST_EACH_ENV+=("")
		fi
	done
	t0=$(now)
	guest_run_each "$TREE_JOB" "${hostfiles[@]}"
	info "tree cases: $# images in one boot, $(since "$t0")s"
	GUEST_JOB_ENV=
	for i in "${!GUEST_EACH_IMAGES[@]}"; do
		name=$(basename "${GUEST_EACH_IMAGES[i]}" .img)
		if [ -n "${guest_each_error[i]}" ]; then
			fail "fsck-kernel/$name" "kernel: ${guest_each_error[i]}"
		elif reason=$(both_fsck "${GUEST_EACH_IMAGES[i]}" "$name"); then
			pass "fsck-kernel/$name"
		else
			fail "fsck-kernel/$name" "$reason"
		fi
		rm -f "${GUEST_EACH_IMAGES[i]}"
	done
}

# Generate the host tree for sload: ~2,000 names in nested directories, a
# big directory, files of 0..12 KiB, a 6 MiB file, a sparse file, hard links
# (names in several directories) and symlinks (short, long, dangling).
make_host_tree() {
	local src=$1
	rm -rf "$src"
	mkdir -p "$src" || return 1
	awk -v root="$src" 'BEGIN {
		body = ""
		for (i = 0; length(body) < 13000; i++)
			body = body sprintf("%07d\n", i)
		for (d = 0; d < 8; d++)
			for (s = 0; s < 6; s++) {
				dir = sprintf("%s/d%d/s%d", root, d, s)
				system("mkdir -p " dir)
				for (f = 0; f < 30; f++) {
					i = (d * 6 + s) * 30 + f
					n = (i * 7919) % 12289
					p = sprintf("%s/f%04d", dir, i)
					printf "%s", substr(body, 1 + i % 7, n) > p
					close(p)
				}
			}
		system("mkdir -p " root "/bigdir")
		for (i = 0; i < 500; i++) {
			p = sprintf("%s/bigdir/entry-with-a-longish-name-%05d", root, i)
			printf "%s", substr(body, 1, i % 50) > p
			close(p)
		}
	}' || return 1
	head -c 6291456 /dev/urandom >"$src/big" || return 1
	truncate -s 20M "$src/sparse" && printf 'tail' >>"$src/sparse" || return 1
	printf 'head' | dd of="$src/sparse" conv=notrunc status=none || return 1
	mkdir -p "$src/links" "$src/d7/s5/deeper/still" || return 1
	ln "$src/d0/s0/f0001" "$src/links/hard-a" || return 1
	ln "$src/d0/s0/f0001" "$src/d3/s2/hard-b" || return 1
	ln "$src/d0/s0/f0001" "$src/d0/s0/hard-c" || return 1
	ln "$src/big" "$src/links/big-link" || return 1
	ln -s ../d0/s0/f0002 "$src/links/short" || return 1
	ln -s ../d7/s5/deeper/still/../../../../d1/s1/this-name-makes-the-target-longer-than-sixty-bytes \
		"$src/links/long" || return 1
	ln -s /does/not/exist "$src/links/dangling" || return 1
	ln -s ../bigdir "$src/links/dirlink" || return 1
	echo x >"$src/d1/s1/this-name-makes-the-target-longer-than-sixty-bytes" || return 1
	: >"$src/d7/s5/deeper/still/empty" || return 1
}

# What only our sload is asked to carry (upstream's 1.15 loads no xattrs,
# and would allocate every hole): xattrs on files and directories, a
# 256 MiB sparse file with data in three places, a 32 MiB dense one.
add_our_extras() {
	local src=$1
	mkdir -p "$src/extra/xdir" || return 1
	head -c 33554432 /dev/urandom >"$src/extra/dense" || return 1
	truncate -s 256M "$src/extra/huge-sparse" || return 1
	for off in 0 134217728 268435000; do
		printf 'data at %s' "$off" | dd of="$src/extra/huge-sparse" bs=1 seek="$off" \
			conv=notrunc status=none || return 1
	done
	printf 'x' >"$src/extra/xfile" || return 1
	setfattr -n user.small -v value "$src/extra/xfile" &&
		setfattr -n user.big -v "$(head -c 3000 /dev/zero | tr '\0' v)" "$src/extra/xfile" &&
		setfattr -n trusted.t -v 0x000102 "$src/extra/xfile" &&
		setfattr -n user.onadir -v dirvalue "$src/extra/xdir" &&
		setfattr -n user.k -v 1 "$src/extra/dense"
}

# sload_image NAME SIZE ours|ours-plain|upstream MKFS-OPTIONS SLOAD-OPTIONS:
# the host tree of that sload (made once), the image made and loaded, and
# both fscks clean on it.  Adds the case to the remount batch
# (SLOAD_BATCH, SLOAD_ENV, SLOAD_FILES); on failure prints its result line.
sload_image() {
	local name=$1 size=$2 which=$3 opts=$4 sopts=$5 img src out reason t0 sload m env
	img=$work/$name.img
	src=$work/sload-src-$which
	m=$work/manifest-$which
	sload=$UPSTREAM_SLOAD
	[ "$which" != upstream ] && sload=$OUR_SLOAD
	if [ ! -x "$sload" ]; then
		fail "fsck-kernel/$name" "$sload is not executable"
		return
	fi
	if [ ! -f "$m.names" ] &&
		{ ! make_host_tree "$src" || { [ "$which" = ours ] && ! add_our_extras "$src"; } ||
			! make_manifest "$src" "$m"; }; then
		fail "fsck-kernel/$name" "cannot generate the host tree in $src"
		return
	fi
	env="MANIFEST=/bin/manifest-$which"
	if [ "$which" != upstream ]; then
		if [ ! -x "$work/xattrdump" ] &&
			! cc -O2 -o "$work/xattrdump" "$here/tools/xattrdump.c" 2>"$work/cc.log"; then
			fail "fsck-kernel/$name" "cannot build xattrdump: $(head -n 1 "$work/cc.log")"
			return
		fi
		[ -f "$m.xattrs" ] || "$work/xattrdump" "$src" | LC_ALL=C sort >"$m.xattrs"
		add_sload_file "$work/xattrdump"
		add_sload_file "$m.xattrs"
		env+=$'\n'"XATTRS=/bin/$(basename "$m").xattrs"$'\n'"WRITE_MORE=1"
	fi
	info "$name: host tree has $(wc -l <"$m.names") names, $(wc -l <"$m.xattrs" 2>/dev/null || echo 0) xattrs"
	rm -f "$img"
	truncate -s "$size" "$img" || {
		fail "fsck-kernel/$name" "cannot create a $size sparse image"
		return
	}
	out=$work/$name.mkfs.log
	# shellcheck disable=SC2086 # the case's options are words
	if ! "$MKFS" -f $opts "$img" </dev/null >"$out" 2>&1; then
		fail "fsck-kernel/$name" "$MKFS -f failed: $(grep -v '^$' "$out" | tail -n 1)"
		return
	fi
	t0=$(now)
	out=$work/$name.sload.log
	# shellcheck disable=SC2086 # the case's options are words
	if ! "$sload" $sopts -f "$src" "$img" </dev/null >"$out" 2>&1; then
		tail -n 20 "$out" >&2
		fail "fsck-kernel/$name" "sload.f2fs failed: $(grep -v '^$' "$out" | tail -n 1)"
		return
	fi
	info "$name: sload $(since "$t0")s"
	if ! reason=$(both_fsck "$img" "$name-after-sload"); then
		fail "fsck-kernel/$name" "after sload: $reason"
		return
	fi
	for out in "$m.names" "$m.sums" "$m.links" "$m.symlinks"; do add_sload_file "$out"; done
	SLOAD_BATCH+=("$img")
	SLOAD_ENV+=("$env")
}

# add_sload_file FILE: a host file the remount batch needs, once.
add_sload_file() {
	[[ " ${SLOAD_FILES[*]} " == *" $1 "* ]] || SLOAD_FILES+=("$1")
}

# sload_remounts: the kernel checks every loaded image against its
# manifest in one boot (one disk each); then both fscks judge each again.
sload_remounts() {
	local i name reason t0
	[ ${#SLOAD_BATCH[@]} -gt 0 ] || return 0
	GUEST_EACH_IMAGES=("${SLOAD_BATCH[@]}")
	GUEST_EACH_ENV=("${SLOAD_ENV[@]}")
	t0=$(now)
	guest_run_each "$REMOUNT_JOB" "${SLOAD_FILES[@]}"
	info "sload cases: ${#SLOAD_BATCH[@]} images in one boot, $(since "$t0")s"
	for i in "${!GUEST_EACH_IMAGES[@]}"; do
		name=$(basename "${GUEST_EACH_IMAGES[i]}" .img)
		if [ -n "${guest_each_error[i]}" ]; then
			fail "fsck-kernel/$name" "kernel: ${guest_each_error[i]}"
		elif ! reason=$(both_fsck "${GUEST_EACH_IMAGES[i]}" "$name-after-mount"); then
			fail "fsck-kernel/$name" "after the kernel mounted it: $reason"
		else
			pass "fsck-kernel/$name"
		fi
		rm -f "${GUEST_EACH_IMAGES[i]}"
	done
}

main() {
	local c name rest size which opts sopts t_all
	local -a trees=()
	SLOAD_BATCH=() SLOAD_ENV=() SLOAD_FILES=()
	t_all=$(now)
	start_work fsck-kernel
	need_executable "$MKFS" "$OUR_FSCK" "$UPSTREAM_MKFS" "$UPSTREAM_FSCK"
	info "our mkfs: $MKFS; our fsck: $OUR_FSCK; kernel: $GUEST_KPKG $GUEST_KPKG_VERSION"

	for c in "${CASES[@]}"; do
		name=${c%%|*}
		rest=${c#*|}
		size=${rest%%|*}
		rest=${rest#*|}
		which=${rest%%|*}
		opts=${rest#*|}
		if ! wanted "$name"; then
			skip "fsck-kernel/$name" "not in FSCK_KERNEL_CASES"
			continue
		fi
		tree_image "$name" "$size" "$which" "$opts" && trees+=("$name|$opts")
	done
	tree_cases "${trees[@]}"
	for c in "${SLOAD_CASES[@]}"; do
		name=${c%%|*}
		rest=${c#*|}
		size=${rest%%|*}
		rest=${rest#*|}
		which=${rest%%|*}
		rest=${rest#*|}
		opts=${rest%%|*}
		sopts=${rest#*|}
		if wanted "$name"; then
			sload_image "$name" "$size" "$which" "$opts" "$sopts"
		else
			skip "fsck-kernel/$name" "not in FSCK_KERNEL_CASES"
		fi
	done
	sload_remounts
	rm -rf "$work"/sload-src-*
	info "total $(since "$t_all")s"

	finish_work '*.img'
}

main "$@"
