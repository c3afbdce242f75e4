#!/bin/bash
# Kernel oracle for mkfs: for each entry of a small option matrix, make an
# image with the mkfs under test, let Debian's kernel mount it, fill it,
# remount and verify it (jobs/mkfs-verify.sh), then require upstream
# fsck.f2fs -f to find it clean, and our fsck too when OUR_FSCK is set.
# The mkfs-verify cases share one boot, a disk each (guest_run_each).
#
# The gc cases check that the reserved and overprovisioned space mkfs gives
# lets the kernel reclaim space on a nearly full volume with 256 MiB
# sections (jobs/gc-fill.sh): fill 95% of the space df shows with 1 MiB
# files, then replace random files with new copies until twice that space
# has been rewritten; no write may fail, the kernel must have reclaimed
# space (GC or SSR), the data must read back after a remount, and both
# fscks must find the volume clean.  They are campaigns (8 GiB -s 128
# rewrites 3.6 GiB: 5 to 7 minutes under TCG beside the host lane, most of
# it the kernel's foreground GC, whose share varies two-fold from run to
# run; 16 GiB -s 128 -z 2 rewrites 18 GiB, 29 minutes), so they run with
# MKFS_MATRIX_LONG=1 (scripts/test-all.sh --long); the default tier keeps
# the kernel's mount, fill and read-back of the same layouts (8g-s128,
# 16g-s128-z2), which tests/cli/mkfs-layout.sh holds equal to newest
# upstream's field by field.
#
# Environment:
#   MKFS           mkfs.f2fs under test (default: <repo>/mkfs/mkfs.f2fs when
#                  built, else /usr/sbin/mkfs.f2fs)
#   UPSTREAM_FSCK  reference fsck (default newest upstream's,
#                  UPSTREAM_NEWEST_FSCK or ../upstream-f2fs-tools/fsck/fsck.f2fs
#                  beside the repository, when built; else /usr/sbin/fsck.f2fs)
#   OUR_FSCK       our fsck.f2fs; its sub-cases are skipped when unset
#   MKFS_MATRIX_CASES  names of the cases to run, space-separated (default:
#                  all; the others are reported as skipped)
#   MKFS_MATRIX_LONG=1  also run the long cases (the gc ones), which
#                  otherwise run only when MKFS_MATRIX_CASES names them
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

if [ -z "${MKFS:-}" ]; then
	if [ -x "$repo/mkfs/mkfs.f2fs" ]; then
		MKFS=$repo/mkfs/mkfs.f2fs
	else
		MKFS=/usr/sbin/mkfs.f2fs
	fi
fi
newest_fsck=${UPSTREAM_NEWEST_FSCK:-$(dirname "$repo")/upstream-f2fs-tools/fsck/fsck.f2fs}
if [ -z "${UPSTREAM_FSCK:-}" ]; then
	UPSTREAM_FSCK=/usr/sbin/fsck.f2fs
	[ -x "$newest_fsck" ] && UPSTREAM_FSCK=$newest_fsck
fi
OUR_FSCK=${OUR_FSCK:-}

# name | image size | mkfs options [| job [| long]]; the job defaults to
# mkfs-verify; "long" cases run only with MKFS_MATRIX_LONG=1.
CASES=(
	"1g-s1|1G|-s 1"
	"8g-s128|8G|-s 128"
	"16g-s128-z2|16G|-s 128 -z 2"
	"2g-features|2G|-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found,compression"
	"1g-quota|1G|-O extra_attr,quota,project_quota,lost_found"
	"1g-casefold|1G|-O casefold -C utf8"
	"1g-encrypt-verity|1G|-O encrypt,verity,extra_attr,inode_checksum"
	"3g-a1-i-s2-z3|3G|-a 1 -i -s 2 -z 3"
	"1g-nodiscard-label|1G|-t 0 -l kernel-oracle -e foo -E bar"
	"8g-s128-gc|8G|-s 128|gc-fill|long"
	"16g-s128-z2-gc|16G|-s 128 -z 2|gc-fill|long"
)
# What the gc-fill job does (see jobs/gc-fill.sh), and how long it may take.
GC_JOB_ENV="GC_FILL_PERCENT=95
GC_REWRITE_PERCENT=200
GC_FILE_KIB=1024"
GC_TIMEOUT=${GC_TIMEOUT:-5400}

# Every case and sub-case, in report order.
all_names() {
	local c
	for c in "${CASES[@]}"; do
		echo "mkfs-matrix/${c%%|*}"
		echo "mkfs-matrix/${c%%|*}/our-fsck"
	done
}

# Judge an fsck run from its exit status and output (upstream -f: see
# upstream_problem in lib.sh), in this test's words.  Prints the reason and
# returns 1 when not clean.  Newest upstream's fsck calls the nat_bits of
# every image it did not write itself corrupted, its own mkfs's included,
# and rewrites them: that line is no problem of the image.
fsck_verdict() {
	local rc=$1 out=$2 bad
	grep -v '^Info: Corrupted valid nat_bits in checkpoint$' "$out" >"$out.judged"
	bad=$(upstream_problem "$out.judged")
	if [ "$rc" != 0 ]; then
		echo "exit status $rc${bad:+ ($bad)}"
		return 1
	fi
	if [ -n "$bad" ]; then
		echo "reported a problem: $bad"
		return 1
	fi
	if ! fsck_finished "$out"; then
		echo "did not finish its checks ($(tail -n 1 "$out"))"
		return 1
	fi
	return 0
}

# run_fsck FSCK IMG LOG: prints the reason and returns 1 unless clean.
run_fsck() {
	local fsck=$1 img=$2 out=$3 rc
	"$fsck" --dry-run -f "$img" </dev/null >"$out" 2>&1
	rc=$?
	if ! fsck_verdict "$rc" "$out"; then
		{
			echo "----- $fsck --dry-run -f output -----"
			fsck_log_tail "$out"
			echo "---------------------------"
		} >&2
		return 1
	fi
}

# run_job NAME IMG JOB: boot the guest with the job and its settings.
run_job() {
	local name=$1 img=$2 job=$3
	if [ "$job" = gc-fill ]; then
		GUEST_JOB_ENV=$GC_JOB_ENV GUEST_TIMEOUT=$GC_TIMEOUT guest_run "$img" "$here/jobs/$job.sh" || return 1
		grep -a '^gc-fill: \(stats\|filled\|fresh\)' "$guest_log" | sed "s/^/$name: /" | while read -r l; do info "$l"; done
		return 0
	fi
	guest_run "$img" "$here/jobs/$job.sh"
}

# make_image NAME SIZE OPTS: the case's image, made by the mkfs under test;
# on failure both result lines are printed and it returns 1.
make_image() {
	local name=$1 size=$2 opts=$3 img=$work/$1.img out
	local -a optv
	read -r -a optv <<<"$opts"
	rm -f "$img" "$img.ours"
	if ! truncate -s "$size" "$img"; then
		fail "mkfs-matrix/$name" "cannot create a $size sparse image in $work"
		skip "mkfs-matrix/$name/our-fsck" "no image"
		return 1
	fi
	out=$work/$name.mkfs.log
	if ! "$MKFS" -f "${optv[@]}" "$img" </dev/null >"$out" 2>&1; then
		info "$MKFS -f $opts output:"
		tail -n 20 "$out" >&2
		fail "mkfs-matrix/$name" "$MKFS -f $opts exited non-zero: $(grep -v '^$' "$out" | tail -n 1)"
		skip "mkfs-matrix/$name/our-fsck" "mkfs failed"
		rm -f "$img"
		return 1
	fi
}

# judge_case NAME KERNEL-ERROR: the verdicts on the case's image after its
# guest run (KERNEL-ERROR empty when the kernel passed it): upstream's fsck,
# then ours on a copy of the image exactly as the kernel left it (upstream
# -f rewrites parts of the image even when clean).
judge_case() {
	local name=$1 kerr=$2 img=$work/$1.img reason t0
	if [ -n "$kerr" ]; then
		# Upstream's view of the image helps to tell a mkfs bug from a kernel one.
		reason=$(run_fsck "$UPSTREAM_FSCK" "$img" "$work/$name.fsck.log") ||
			info "$name: upstream fsck also: $reason"
		fail "mkfs-matrix/$name" "kernel: $kerr"
		skip "mkfs-matrix/$name/our-fsck" "the kernel check failed"
		rm -f "$img"
		return
	fi
	if [ -n "$OUR_FSCK" ]; then
		cp --sparse=always "$img" "$img.ours" || info "$name: cannot copy the image for our fsck"
	fi
	t0=$(now)
	if reason=$(run_fsck "$UPSTREAM_FSCK" "$img" "$work/$name.fsck.log"); then
		pass "mkfs-matrix/$name"
	else
		fail "mkfs-matrix/$name" "upstream fsck after the kernel run: $reason"
	fi
	info "$name: upstream fsck $(since "$t0")s"
	rm -f "$img"

	if [ -z "$OUR_FSCK" ]; then
		skip "mkfs-matrix/$name/our-fsck" "OUR_FSCK not set"
	elif [ ! -x "$OUR_FSCK" ]; then
		fail "mkfs-matrix/$name/our-fsck" "OUR_FSCK=$OUR_FSCK is not executable"
	elif [ ! -f "$img.ours" ]; then
		fail "mkfs-matrix/$name/our-fsck" "no copy of the image"
	elif reason=$(run_fsck "$OUR_FSCK" "$img.ours" "$work/$name.ourfsck.log"); then
		pass "mkfs-matrix/$name/our-fsck"
	else
		fail "mkfs-matrix/$name/our-fsck" "$reason"
	fi
	rm -f "$img.ours"
}

# run_alone NAME SIZE OPTS JOB: a case with a boot of its own (gc-fill).
run_alone() {
	local name=$1 t0
	make_image "$1" "$2" "$3" || return
	t0=$(now)
	if run_job "$name" "$work/$name.img" "$4"; then
		info "$name: guest $(since "$t0")s"
		judge_case "$name" ""
	else
		info "$name: guest $(since "$t0")s (failed)"
		judge_case "$name" "$guest_error"
	fi
}

# run_verify_batch NAME...: the mkfs-verify cases whose images are made, in
# one boot (one disk each), then each judged.
run_verify_batch() {
	local i t0
	[ $# -gt 0 ] || return 0
	GUEST_EACH_IMAGES=()
	for i in "$@"; do GUEST_EACH_IMAGES+=("$work/$i.img"); done
	t0=$(now)
	guest_run_each "$here/jobs/mkfs-verify.sh"
	info "mkfs-verify: $# images in one boot, ${guest_seconds:-?}s"
	for i in "${!GUEST_EACH_IMAGES[@]}"; do
		judge_case "$(basename "${GUEST_EACH_IMAGES[i]}" .img)" "${guest_each_error[i]}"
	done
}

main() {
	local c name rest size opts job long
	local -a batch=() alone=()

	start_work mkfs-matrix
	# After guest_init, which installs f2fs-tools: a missing tool under test
	# is a failure of the test, not of the harness.
	[ -x "$MKFS" ] || CI=true abandon "MKFS=$MKFS is not executable"
	[ -x "$UPSTREAM_FSCK" ] || CI=true abandon "UPSTREAM_FSCK=$UPSTREAM_FSCK is not executable"
	info "mkfs: $MKFS; upstream fsck: $UPSTREAM_FSCK; kernel: $GUEST_KPKG $GUEST_KPKG_VERSION"

	for c in "${CASES[@]}"; do
		name=${c%%|*}
		rest=${c#*|}
		size=${rest%%|*}
		rest=${rest#*|}
		IFS='|' read -r opts job long <<<"$rest"
		if [ -n "${MKFS_MATRIX_CASES:-}" ] && [[ " $MKFS_MATRIX_CASES " != *" $name "* ]]; then
			skip "mkfs-matrix/$name" "not in MKFS_MATRIX_CASES"
			skip "mkfs-matrix/$name/our-fsck" "not in MKFS_MATRIX_CASES"
			continue
		fi
		if [ "$long" = long ] && [ "${MKFS_MATRIX_LONG:-0}" != 1 ] &&
			[[ " ${MKFS_MATRIX_CASES:-} " != *" $name "* ]]; then
			skip "mkfs-matrix/$name" "long case: set MKFS_MATRIX_LONG=1"
			skip "mkfs-matrix/$name/our-fsck" "long case: set MKFS_MATRIX_LONG=1"
			continue
		fi
		job=${job:-mkfs-verify}
		if [ "$job" = mkfs-verify ]; then
			make_image "$name" "$size" "$opts" && batch+=("$name")
		else
			alone+=("$name|$size|$opts|$job")
		fi
	done
	run_verify_batch "${batch[@]}"
	for c in "${alone[@]}"; do
		IFS='|' read -r name size opts job <<<"$c"
		run_alone "$name" "$size" "$opts" "$job"
	done

	finish_work '*.img*'
}

main "$@"
