#!/bin/bash
# The kernel judges fsck's repairs.  Every case of tests/fsck/ that our
# fsck.f2fs repairs (its expect.1 ends "exit 1") is broken again here the
# same way (the recipe, on a copy of the base image our mkfs and sload
# make), repaired, and then the repaired image must mount in the guest, hold
# every name of the tree with the same contents, link counts, sizes, modes
# and symlink targets (the corruptions hit metadata only), take a write,
# unmount without an f2fs complaint, and afterwards both our fsck and
# upstream's must find it clean.  Cases on the kernel-written image compare
# with a pristine copy of it, attached as one more disk.  What a case's
# repair is meant to change is listed in its files (see case_env): names
# moved into /lost+found (their contents must be among its files), names
# removed, files whose data the corruption hit.  Images go to the guest
# 24 at a time as /dev/vda.. (jobs/check-many.sh), to keep boots few: a
# boot under TCG costs about 14 s, a case about 2 s.
#
# Environment: MKFS, OUR_FSCK, OUR_SLOAD, INJECT, DUMP (ours, defaults in
# the tree), UPSTREAM_FSCK (default /usr/sbin/fsck.f2fs), FSCK_REPAIR_CASES
# (case directory names to run, default all), FSCK_REPAIR_PER_BOOT (images
# per boot, default 24, at most 25: the pristine kernel image may take the
# 26th disk), plus guest.sh's GUEST_*.
#
# Output: one "PASS: fsck-repair/CASE" / "FAIL: ..." / "SKIP: ..." line per
# case on stdout; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=../fsck/lib.sh
. "$repo/tests/fsck/lib.sh"

MKFS=${MKFS:-$repo/mkfs/mkfs.f2fs}
FSCK=${OUR_FSCK:-$repo/fsck/fsck.f2fs}
SLOAD=${OUR_SLOAD:-$repo/sload/sload.f2fs}
INJECT=${INJECT:-$repo/inject/inject.f2fs}
DUMP=${DUMP:-$repo/dump/dump.f2fs}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
export INJECT
PER_BOOT=${FSCK_REPAIR_PER_BOOT:-24}
JOB=$here/jobs/check-many.sh

# the repaired cases, by directory
repaired_cases() {
	local d
	for d in "$CASES_DIR"/[0-9][0-9][0-9]-*/; do
		d=${d%/}
		[ "$(tail -n 1 "$d/expect.1" 2>/dev/null)" = "exit 1" ] || continue
		[ -z "${FSCK_REPAIR_CASES:-}" ] || [[ " $FSCK_REPAIR_CASES " == *" $(basename "$d") "* ]] ||
			continue
		echo "$d"
	done
}

all_names() {
	local d
	for d in $(repaired_cases); do echo "fsck-repair/$(basename "$d")"; done
}

need_executable "$MKFS" "$FSCK" "$SLOAD" "$INJECT" "$DUMP"
start_work fsck-repair
cases_base "$work" || CI=true abandon "the base image: $CASES_ERR"
cases_kernel_base "$work" || CI=true abandon "the kernel image: $CASES_ERR"
make_manifest "$CASES_TREE" "$work/manifest" || CI=true abandon "cannot make the manifest"
have_upstream=0
[ -x "$UPSTREAM_FSCK" ] && have_upstream=1

# repair DIR: the case's image, broken and repaired, at $work/NAME.img; the
# reason on stdout when that did not go as expect.1 says
repair() {
	local dir=$1 name img rc
	name=$(basename "$dir")
	img=$work/$name.img
	cases_prepare "$dir" "$img" || { echo "$CASES_ERR"; return 1; }
	# shellcheck disable=SC2046 # the options are words
	"$FSCK" $(cases_args "$dir") "$img" </dev/null >"$work/$name.fsck.log" 2>&1
	rc=$?
	[ "$rc" = 1 ] || { echo "our fsck exited $rc, not 1: $(grep -m2 'PR_\|Info: [0-9]' "$work/$name.fsck.log" | tr '\n' ' ')"; return 1; }
}

# after DIR: both fscks on the image the kernel has written to
after() {
	local name img rc v
	name=$(basename "$1")
	img=$work/$name.img
	"$FSCK" -n "$img" </dev/null >"$work/$name.after.log" 2>&1
	rc=$?
	v=$(our_verdict "$rc" "$work/$name.after.log") || { echo "after the kernel, our fsck: $v"; return 1; }
	[ "$have_upstream" = 1 ] || return 0
	"$UPSTREAM_FSCK" --dry-run -f "$img" </dev/null >"$work/$name.up.log" 2>&1
	rc=$?
	v=$(upstream_verdict "$rc" "$work/$name.up.log") || { echo "after the kernel, upstream fsck: $v"; return 1; }
}

# case_env DIR VD: the job's lines for disk VD of case DIR -- its base
# manifest and what its repair was meant to change, from the case's files
# (paths, one per line): `moved` (linked into lost+found), `gone` (names the
# repair removes; the other names of the file, found in the tree, count one
# link less; sload-made images only), `damaged` (files whose data or size
# the corruption hit)
case_env() {
	local d=$1 vd=$2 f g other less=''
	if cases_on_kernel "$d"; then
		echo "MANIFEST_$vd=/tmp/kref"
	else
		echo "MANIFEST_$vd=/bin/manifest"
		if [ -f "$d/gone" ]; then
			for g in $(cat "$d/gone"); do
				for other in $(cd "$CASES_TREE" && find . -samefile "$g" ! -path "$g"); do
					less+=" $other"
				done
			done
		fi
		echo "LESS_$vd='$less'"
	fi
	for f in moved gone damaged; do
		[ -f "$d/$f" ] && echo "${f^^}_$vd='$(tr '\n' ' ' <"$d/$f")'"
	done
}

# boot DIR...: the repaired images of up to 26 cases in one guest
boot() {
	local d i=0 letters=abcdefghijklmnopqrstuvwxyz line why
	local -a imgs=() files=("$work/manifest.names" "$work/manifest.sums" "$work/manifest.links"
		"$work/manifest.symlinks")
	GUEST_JOB_ENV=
	for d in "$@"; do
		imgs+=("$work/$(basename "$d").img")
		GUEST_JOB_ENV+="$(case_env "$d" "vd${letters:i:1}")"$'\n'
		i=$((i + 1))
	done
	# cases on the kernel image compare with a pristine copy, the last disk
	if [[ "$GUEST_JOB_ENV" == *=/tmp/kref* ]]; then
		cp --sparse=always "$CASES_KBASE" "$work/kref.img"
		imgs+=("$work/kref.img")
		GUEST_JOB_ENV+="KREF_DISK=vd${letters:i:1}"$'\n'"MANIFEST_vd${letters:i:1}=/tmp/kref"$'\n'
	fi
	GUEST_EXTRA_DRIVES=
	for ((i = 1; i < ${#imgs[@]}; i++)); do
		GUEST_EXTRA_DRIVES+="file=${imgs[i]},format=raw,if=virtio "
	done
	if ! guest_run "${imgs[0]}" "$JOB" "${files[@]}"; then
		for d in "$@"; do fail "fsck-repair/$(basename "$d")" "kernel: $guest_error"; done
		return
	fi
	i=0
	for d in "$@"; do
		line=$(grep -a "check-many: vd${letters:i:1} " "$guest_log" | head -n 1)
		i=$((i + 1))
		case $line in
		*" ok "*) ;;
		*" bad: "*)
			fail "fsck-repair/$(basename "$d")" "kernel: ${line#*bad: }"
			continue
			;;
		*)
			fail "fsck-repair/$(basename "$d")" "the guest said nothing about vd${letters:i-1:1}"
			continue
			;;
		esac
		if why=$(after "$d"); then
			pass "fsck-repair/$(basename "$d")"
			rm -f "$work/$(basename "$d").img"
		else
			fail "fsck-repair/$(basename "$d")" "$why"
		fi
	done
}

batch=()
for d in $(repaired_cases); do
	if why=$(repair "$d"); then
		batch+=("$d")
	else
		fail "fsck-repair/$(basename "$d")" "$why"
	fi
	if [ "${#batch[@]}" -eq "$PER_BOOT" ]; then
		boot "${batch[@]}"
		batch=()
	fi
done
[ "${#batch[@]}" -gt 0 ] && boot "${batch[@]}"
finish_work '*.img'
