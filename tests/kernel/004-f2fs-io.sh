#!/bin/bash
# Our f2fs_io against upstream's (Debian 1.15, and newest upstream's for the
# flag commands) on Debian's 6.1 kernel.
#
# Two images made by our mkfs: 8 GiB "-s 128 -O extra_attr,compression"
# (mounted with compress_algorithm=lz4,compress_mode=user) and 1 GiB plain.
# On each, jobs/f2fs-io.sh runs every subcommand: the ones upstream 1.15 has
# with both tools on the same (or an identically prepared) file, comparing
# exit status, stdout (timings masked) and the effect; the newer ones with
# ours only, checking their own invariants; "shutdown 1" last.  Each case
# the job reports becomes a line here.  Then our fsck and upstream's
# (--dry-run -f) must both find the image clean; if they do not, the image
# is mounted once more (roll-forward after the shutdown) and checked again.
# Both images share one boot (guest_run_each), each with a scratch disk.
#
# Environment:
#   MKFS             our mkfs.f2fs (default <repo>/mkfs/mkfs.f2fs)
#   OUR_FSCK         our fsck.f2fs (default <repo>/fsck/fsck.f2fs)
#   F2FS_IO          our f2fs_io (default <repo>/tools/f2fs_io/f2fs_io)
#   UPSTREAM_F2FS_IO default /usr/sbin/f2fs_io
#   UPSTREAM_NEWEST_F2FS_IO
#                    newest upstream's (g-dev-test) f2fs_io, for getflags,
#                    setflags and clearflags (default the build beside the
#                    repository, ../upstream-f2fs-tools; without it those
#                    are checked against the job's expectations only)
#   LSATTR, CHATTR   e2fsprogs' (default from PATH), run in the guest
#   UPSTREAM_FSCK    default /usr/sbin/fsck.f2fs
#   F2FS_IO_CASES    image names to run (default: all)
#   CI=true          a harness that cannot be set up is a failure
#   plus the GUEST_* variables of guest.sh
#
# Output: "PASS: f2fs-io/IMAGE/CASE" (or FAIL/SKIP) per case on stdout,
# details on stderr; exit 1 if any case failed.

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
F2FS_IO=${F2FS_IO:-$repo/tools/f2fs_io/f2fs_io}
UPSTREAM_F2FS_IO=${UPSTREAM_F2FS_IO:-/usr/sbin/f2fs_io}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
UPSTREAM_NEWEST_F2FS_IO=${UPSTREAM_NEWEST_F2FS_IO:-$(dirname "$repo")/upstream-f2fs-tools/tools/f2fs_io/f2fs_io}
LSATTR=${LSATTR:-$(command -v lsattr)}
CHATTR=${CHATTR:-$(command -v chattr)}
JOB=$here/jobs/f2fs-io.sh

# name | size | mkfs options | job environment
IMAGES=(
	"8g-compress|8G|-s 128 -O extra_attr,compression|COMPRESS=1"
	"1g|1G||COMPRESS=0"
)

all_names() {
	local i
	for i in "${IMAGES[@]}"; do
		echo "f2fs-io/${i%%|*}/job"
		echo "f2fs-io/${i%%|*}/fsck"
	done
}

wanted() {
	[ -z "${F2FS_IO_CASES:-}" ] || [[ " $F2FS_IO_CASES " == *" $1 "* ]]
}

# fsck_both IMG TAG: both fscks clean (0), else a reason on stdout.
fsck_both() {
	local img=$1 tag=$2 ours=$work/$2.ours.log ups=$work/$2.upstream.log orc urc ov uv
	"$OUR_FSCK" -n "$img" </dev/null >"$ours" 2>&1
	orc=$?
	"$UPSTREAM_FSCK" --dry-run -f "$img" </dev/null >"$ups" 2>&1
	urc=$?
	info "$tag: fsck ours exit $orc, upstream exit $urc"
	ov=$(our_verdict "$orc" "$ours") && ov=clean
	uv=$(upstream_verdict "$urc" "$ups") && uv=clean
	[ "$ov" = clean ] && [ "$uv" = clean ] && return 0
	{
		echo "----- $tag: our fsck -n (exit $orc) -----"
		fsck_log_tail "$ours"
		echo "----- $tag: upstream fsck --dry-run -f (exit $urc) -----"
		fsck_log_tail "$ups"
	} >&2
	echo "ours: $ov; upstream: $uv"
	return 1
}

# make_image NAME SIZE OPTS ENV: the case's image and a scratch disk join
# the boot; on failure both result lines are printed.
make_image() {
	local name=$1 size=$2 opts=$3 env=$4 img=$work/$1.img out prefix=f2fs-io/$1 n
	local -a optv
	read -r -a optv <<<"$opts"
	n=${#GUEST_EACH_IMAGES[@]}
	rm -f "$img" "$work/scratch$n.img"
	if ! truncate -s "$size" "$img" || ! truncate -s 16M "$work/scratch$n.img"; then
		fail "$prefix/job" "cannot create the images in $work"
		fail "$prefix/fsck" "no image"
		return
	fi
	out=$work/$name.mkfs.log
	if ! "$MKFS" -f "${optv[@]}" "$img" </dev/null >"$out" 2>&1; then
		fail "$prefix/job" "$MKFS -f $opts failed: $(grep -v '^$' "$out" | tail -n 1)"
		fail "$prefix/fsck" "no image"
		return
	fi
	GUEST_EACH_IMAGES+=("$img")
	GUEST_EACH_ENV+=("$env")
	SCRATCHES+=("$work/scratch$n.img")
}

# run_images: the job on every image in one boot, the images first
# (/dev/vda, ...) and their scratch disks after them, each run told its
# own (SCRATCH); then the cases each run reported and both fscks.
run_images() {
	local i n=${#GUEST_EACH_IMAGES[@]} name img env reason t0 prefix
	[ "$n" -gt 0 ] || return 0
	GUEST_EXTRA_DRIVES=
	for i in "${!SCRATCHES[@]}"; do
		GUEST_EXTRA_DRIVES+=" file=${SCRATCHES[i]},format=raw,if=virtio"
		GUEST_EACH_ENV[i]+=$'\n'"SCRATCH=/dev/$(_guest_disk $((n + i)))"
	done
	t0=$(now)
	guest_run_each "$JOB" "${guest_bins[@]}"
	info "$n images in one boot: ${guest_seconds}s ($(since "$t0")s with packing)"
	GUEST_EXTRA_DRIVES=
	for i in "${!GUEST_EACH_IMAGES[@]}"; do
		img=${GUEST_EACH_IMAGES[i]}
		name=$(basename "$img" .img)
		env=${GUEST_EACH_ENV[i]%%$'\n'SCRATCH=*}
		prefix=f2fs-io/$name
		if [ -z "${guest_each_error[i]}" ]; then
			pass "$prefix/job"
		elif grep -aq '^@@CASE-END@@' "${guest_each_log[i]}"; then
			# The job got to the end: its failures are the case lines.
			pass "$prefix/job"
		else
			fail "$prefix/job" "kernel: ${guest_each_error[i]}"
		fi
		case_results "${guest_each_log[i]}" "$prefix"
		if reason=$(fsck_both "$img" "$name-after-shutdown"); then
			pass "$prefix/fsck"
		else
			info "$name: not clean after the shutdown ($reason); mounting once more"
			GUEST_JOB_ENV="$env"$'\nMODE=remount'
			if ! guest_run "$img" "$JOB"; then
				fail "$prefix/fsck" "after the shutdown: $reason; the remount failed: $guest_error"
			elif reason=$(fsck_both "$img" "$name-after-remount"); then
				pass "$prefix/fsck"
				info "$name: clean only after a remount (roll-forward)"
			else
				fail "$prefix/fsck" "after the shutdown and a remount: $reason"
			fi
			GUEST_JOB_ENV=
		fi
		rm -f "$img" "${SCRATCHES[i]}"
	done
}

main() {
	local i name rest size opts env t_all
	GUEST_EACH_IMAGES=() GUEST_EACH_ENV=() SCRATCHES=()
	t_all=$(now)
	start_work f2fs-io
	need_executable "$MKFS" "$OUR_FSCK" "$F2FS_IO" "$UPSTREAM_F2FS_IO" "$UPSTREAM_FSCK" "$LSATTR" "$CHATTR"
	# guest_run puts host files in /bin by their base name.
	mkdir -p "$work/bin" && cp "$F2FS_IO" "$work/bin/f2fs_io" &&
		cp "$UPSTREAM_F2FS_IO" "$work/bin/f2fs_io_up" || abandon "cannot copy the f2fs_io binaries to $work/bin"
	guest_bins=("$work/bin/f2fs_io" "$work/bin/f2fs_io_up" "$LSATTR" "$CHATTR")
	if [ -x "$UPSTREAM_NEWEST_F2FS_IO" ]; then
		cp "$UPSTREAM_NEWEST_F2FS_IO" "$work/bin/f2fs_io_new" || abandon "cannot copy $UPSTREAM_NEWEST_F2FS_IO"
		guest_bins+=("$work/bin/f2fs_io_new")
	else
		info "no newest upstream f2fs_io ($UPSTREAM_NEWEST_F2FS_IO): flag commands against expectations only"
	fi
	info "ours: $F2FS_IO; upstream: $UPSTREAM_F2FS_IO, newest $UPSTREAM_NEWEST_F2FS_IO; kernel: $GUEST_KPKG $GUEST_KPKG_VERSION"
	for i in "${IMAGES[@]}"; do
		name=${i%%|*}
		rest=${i#*|}
		size=${rest%%|*}
		rest=${rest#*|}
		opts=${rest%%|*}
		env=${rest#*|}
		if ! wanted "$name"; then
			skip "f2fs-io/$name/job" "not in F2FS_IO_CASES"
			skip "f2fs-io/$name/fsck" "not in F2FS_IO_CASES"
			continue
		fi
		make_image "$name" "$size" "$opts" "$env"
	done
	run_images
	info "total $(since "$t_all")s"
	finish_work '*.img'
}

main "$@"
