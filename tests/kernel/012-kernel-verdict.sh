#!/bin/bash
# The kernel-verdict campaign: structure-aware mutants of the kernel-written
# image of tests/fuzz (tests/fuzz/mutations.sh: one to eight field changes
# each), each judged by our fsck AND by the 6.1 kernel in the guest (mount,
# walk and read every file, write, unmount: jobs/verdict.sh, sixteen disks
# to a boot).  For every mutant our fsck checks (-n); one it flags is
# repaired (-y) on a copy, checked again by ours and by upstream's, and the
# copy goes to the kernel too.  Asserted:
#
#   kernel-verdict/no-false-clean   no mutant our fsck calls clean is one
#                                   the kernel refuses or fails to read
#   kernel-verdict/repairs-usable   every mutant fsck -y says it repaired
#                                   (exit 1) is clean for our fsck and
#                                   upstream's afterwards and fully usable
#                                   by the kernel
#   kernel-verdict/repaired-share   at least KV_MIN_REPAIRED percent of the
#                                   mutants our fsck flags end repaired and
#                                   usable (default 99)
#
# A "# ..." summary gives the counts, the kernel's verdicts on the mutants
# grouped by its first complaint (numbers masked), and every mutant behind
# a failure with the inject commands that make it (KV_KEEP keeps the
# images).  The default tier runs KV_MUTANTS=16 (two boots), --long 1000.
#
# Environment: FSCK, INJECT, DUMP (ours, defaults in the tree), UP_FSCK
# (newest upstream beside the tree, else /usr/sbin/fsck.f2fs), KV_MUTANTS,
# KV_SEED (default 1), KV_MIN_REPAIRED, KV_KEEP (a directory), plus
# guest.sh's GUEST_*.  Output: PASS/FAIL/SKIP lines; exit 1 if any failed.

# shellcheck source-path=SCRIPTDIR disable=SC2034 # GUEST_* are read by guest.sh
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
TOP=$repo
# shellcheck source=guest.sh
. "$here/guest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"

FSCK=${FSCK:-$repo/fsck/fsck.f2fs}
INJECT=${INJECT:-$repo/inject/inject.f2fs}
DUMP=${DUMP:-$repo/dump/dump.f2fs}
MUTANTS=${KV_MUTANTS:-16}
SEED=${KV_SEED:-1}
MIN_REPAIRED=${KV_MIN_REPAIRED:-99}
TMO=${KV_TIMEOUT:-60}
PER_BOOT=16
NAMES=(kernel-verdict/no-false-clean kernel-verdict/repairs-usable kernel-verdict/repaired-share)

all_names() { printf '%s\n' "${NAMES[@]}"; }

need_executable "$FSCK" "$INJECT" "$DUMP"
DUMP=$(cd "$(dirname "$DUMP")" && pwd)/$(basename "$DUMP")
start_work kernel-verdict
WORK=$work
BASE=$work/base.img
xz -dc "$repo/tests/fuzz/images/kernel.img.xz" >"$BASE" || CI=true abandon "cannot unpack the kernel image"
# shellcheck source=../fuzz/mutations.sh
. "$repo/tests/fuzz/mutations.sh"
mut_inventory || CI=true abandon "$MUT_ERR"
ours "$BASE"
[ "$OURS_RC" = 0 ] || CI=true abandon "our fsck does not call the base image clean: $OURS_SAID"
HAVE_UP=0
[ -x "$UP_FSCK" ] && HAVE_UP=1

# --- one mutant, judged by our fsck ------------------------------------------------------

declare -a M_DESC M_ARGS M_RC R_RC R_AGAIN R_UP
# make_mutant I: mI.img with one to eight changes, our fsck's verdict, and
# for a flagged one rI.img, repaired, with the verdicts after the repair
make_mutant() {
	local i=$1 img=$work/m$1.img n k tries
	cp --sparse=always "$BASE" "$img"
	rnd 8
	n=$((R + 1))
	M_DESC[i]= M_ARGS[i]=
	for ((k = 0; k < n; k++)); do
		tries=0
		until mutation; do
			tries=$((tries + 1))
			[ "$tries" -lt 50 ] || break
		done
		[ "$tries" -lt 50 ] || continue
		"$INJECT" "${ARGS[@]}" "$img" >/dev/null 2>&1 || continue
		M_DESC[i]+="${M_DESC[i]:+; }$DESC"
		M_ARGS[i]+="${M_ARGS[i]:+ && }inject.f2fs ${ARGS[*]} IMG"
	done
	timeout -k 5 "$TMO" "$FSCK" -n "$img" </dev/null >"$work/m$i.ours" 2>&1
	M_RC[i]=$?
	R_RC[i]= R_AGAIN[i]= R_UP[i]=
	[ "${M_RC[i]}" = 4 ] || return 0
	cp --sparse=always "$img" "$work/r$i.img"
	timeout -k 5 "$TMO" "$FSCK" -y "$work/r$i.img" </dev/null >"$work/r$i.fix" 2>&1
	R_RC[i]=$?
	timeout -k 5 "$TMO" "$FSCK" "$work/r$i.img" </dev/null >"$work/r$i.again" 2>&1
	R_AGAIN[i]=$?
	if [ "$HAVE_UP" = 1 ]; then
		upstream "$work/r$i.img"
		R_UP[i]=clean
		upstream_flags && R_UP[i]="exit $UP_RC $UP_SAID"
	fi
}

# --- the kernel's verdicts ---------------------------------------------------------------

declare -A VERDICT=()
# root_locked IMG: is the root of IMG immutable or append-only (FS_IMMUTABLE_FL,
# FS_APPEND_FL)?  Then the kernel refusing the job's write is the root's state,
# not damage (busybox has no lsattr, so the host reads the flag)
root_locked() {
	local flags
	flags=$("$DUMP" -i 3 "$1" 2>/dev/null | sed -n 's/^i_flags .*: \([0-9]*\)\]$/\1/p')
	[ -n "$flags" ] && [ $((flags & 0x30)) != 0 ]
}

# boot LABEL...: one boot for these images (mI, rI); sets VERDICT of each
# that printed one, or that started and never ended (the guest froze on it:
# a lock-up the job could not step around, an oops), and LEFT to the labels
# the guest never reached (the job powers off after a disk that hung)
boot() {
	local j label line
	GUEST_EACH_IMAGES=() GUEST_EACH_ENV=() LEFT=()
	for label in "$@"; do GUEST_EACH_IMAGES+=("$work/$label.img"); done
	GUEST_TIMEOUT=$((30 + 6 * $#)) guest_run_each "$here/jobs/verdict.sh" >>"$work/guest.out" 2>&1
	for j in "${!GUEST_EACH_IMAGES[@]}"; do
		label=${GUEST_EACH_IMAGES[j]##*/}
		label=${label%.img}
		line=$(grep -a -m1 '^verdict: ' "${guest_each_log[j]:-/dev/null}" 2>/dev/null |
			sed 's/^verdict: [a-z0-9]* //')
		if [[ $line == "write-failed: "*"Operation not permitted"* ]] &&
			root_locked "$work/$label.img"; then
			VERDICT[$label]=ok
		elif [ -n "$line" ]; then
			VERDICT[$label]=$line
		elif [ -s "${guest_each_log[j]:-/dev/null}" ]; then
			VERDICT[$label]="hung: the guest stopped (${guest_each_error[j]:-no verdict})"
		else
			LEFT+=("$label")
		fi
	done
}

# judge LABEL...: boot them, and again those the guest did not reach, as
# long as each boot reaches one
judge() {
	local label
	boot "$@"
	while [ ${#LEFT[@]} -gt 0 ] && [ ${#LEFT[@]} -lt $# ]; do
		set -- "${LEFT[@]}"
		boot "$@"
	done
	for label in "${LEFT[@]}"; do
		VERDICT[$label]="hung: the guest did not reach it (${guest_error:-no verdict})"
	done
}

# --- judging -------------------------------------------------------------------------------

fc=0 bad_repair=0 flagged=0 repaired=0 clean=0 unreadable=0 done_n=0
declare -A BYKERNEL=()
# group VERDICT: the kernel's complaint, its device and numbers masked
group() {
	sed -E 's/F2FS-fs \([a-z0-9]+\): //; s/0x[0-9a-fA-F]+/N/g; s/(= ?)[0-9a-f]+\b/\1N/g; s/\b[0-9a-f]*[0-9][0-9a-f]*\b/N/g' <<<"$1" |
		cut -c1-110
}
# outcome I: count mutant I (its kernel verdicts known), print why it failed
outcome() {
	local i=$1 v=${VERDICT[m$1]} rv why=
	BYKERNEL["$(group "$v")"]=$((${BYKERNEL["$(group "$v")"]:-0} + 1))
	done_n=$((done_n + 1))
	case ${M_RC[i]} in
	0)
		clean=$((clean + 1))
		if [ "$v" != ok ]; then
			fc=$((fc + 1))
			echo "# false-clean m$i: kernel: $v; mutations: ${M_DESC[i]}; make: ${M_ARGS[i]}"
		fi
		;;
	4)
		flagged=$((flagged + 1))
		rv=${VERDICT[r$i]}
		[ "${R_RC[i]}" = 1 ] || why="fsck -y exited ${R_RC[i]}: $(grep -m2 -o '^\[FSCK\] left: PR_[A-Z_]*' "$work/r$i.fix" | tr '\n' ' ')"
		[ -n "$why" ] || [ "${R_AGAIN[i]}" = 0 ] || why="the second run exited ${R_AGAIN[i]}: $(grep -m2 -o '^\[FSCK\] PR_[A-Z_]*' "$work/r$i.again" | tr '\n' ' ')"
		[ -n "$why" ] || [ -z "${R_UP[i]}" ] || [ "${R_UP[i]}" = clean ] || why="upstream: ${R_UP[i]}"
		[ -n "$why" ] || [ "$rv" = ok ] || why="kernel: $rv"
		if [ -z "$why" ]; then
			repaired=$((repaired + 1))
		else
			[ "${R_RC[i]}" = 1 ] && bad_repair=$((bad_repair + 1))
			echo "# not-repaired m$i (kernel on the mutant: $v): $why; mutations: ${M_DESC[i]}; make: ${M_ARGS[i]}"
		fi
		;;
	*)
		unreadable=$((unreadable + 1))
		echo "# fsck-exit-${M_RC[i]} m$i (kernel: $v): $(grep -m1 -v '^$' "$work/m$i.ours" | cut -c1-120)"
		;;
	esac
}

# --- the run: eight mutants at a time (up to sixteen disks, one boot) -----------------------

RANDOM=$SEED
for ((first = 0; first < MUTANTS; first += 8)); do
	labels=()
	t0=$SECONDS
	for ((i = first; i < first + 8 && i < MUTANTS; i++)); do
		make_mutant "$i"
		labels+=("m$i")
		[ -n "${R_RC[i]}" ] && labels+=("r$i")
	done
	t1=$SECONDS
	judge "${labels[@]}"
	for ((i = first; i < first + 8 && i < MUTANTS; i++)); do outcome "$i"; done
	echo "# progress: $done_n judged, false clean $fc, flagged $flagged, repaired $repaired" \
		"(host $((t1 - t0)) s, guest $((SECONDS - t1)) s)"
	if [ -n "${KV_KEEP:-}" ]; then
		mkdir -p "$KV_KEEP" && cp --sparse=always "$work"/*.img "$KV_KEEP"/ 2>/dev/null
	fi
	rm -f "$work"/[mr][0-9]*.img
done

echo "# $MUTANTS mutants (seed $SEED): ours clean $clean (false clean $fc), flagged $flagged" \
	"(repaired and usable $repaired, -y claims with a fault $bad_repair), not checkable $unreadable;" \
	"upstream $([ "$HAVE_UP" = 1 ] && echo "$UP_FSCK" || echo "not run")"
echo "# the kernel on the mutants, by its first complaint:"
for g in "${!BYKERNEL[@]}"; do
	printf '#   %4d  %s\n' "${BYKERNEL[$g]}" "$g"
done | sort -rn -k2

[ "$fc" = 0 ] && pass kernel-verdict/no-false-clean ||
	fail kernel-verdict/no-false-clean "$fc mutant(s) our fsck calls clean the kernel does not take"
[ "$bad_repair" = 0 ] && pass kernel-verdict/repairs-usable ||
	fail kernel-verdict/repairs-usable "$bad_repair repair(s) fsck -y called done are not clean or not usable"
if [ "$flagged" = 0 ] || [ $((repaired * 100)) -ge $((flagged * MIN_REPAIRED)) ]; then
	pass "kernel-verdict/repaired-share"
else
	fail kernel-verdict/repaired-share "$repaired of $flagged flagged mutants repaired ($((repaired * 100 / flagged))%, want $MIN_REPAIRED%)"
fi
finish_work '*.img'
