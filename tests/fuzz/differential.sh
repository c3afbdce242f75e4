#!/bin/bash
# Differential mutation run: our fsck.f2fs against upstream's, one
# structure-aware mutation at a time, on a kernel-written image.
#
# The image (default tests/fuzz/images/kernel.img.xz, made by
# make-kernel-image.sh) must be clean for both fscks.  Its inodes and node
# blocks are listed once (our dump.f2fs -N -n, our fsck.f2fs -t); then each
# iteration copies it and changes ONE field with our inject.f2fs: a field of
# an inode (mode, flags, sizes, links, i_ext, extra attributes, an address
# or a node pointer), a head field of an xattr entry or a word of the xattr
# space, a NAT entry (version, ino, block address), an SSA entry or an SSA
# footer's type, a directory entry, a node footer, a SIT entry.  Values are
# chosen to matter: 0, 1, the old value plus or minus one, one bit flipped,
# all ones, another inode's number, another block's address.  Both fscks
# run on the result (upstream as "fsck.f2fs --dry-run -f") and their
# verdicts are compared: ours flags when it exits non-zero; upstream flags
# when it exits non-zero or prints a problem line (see upstream_flags).
#
# Output: a "# up-only ..." line for each mutation upstream flags and ours
# calls clean, "# ours-only ..." for the reverse (with the inject command
# that reproduces it and what each side said), then a summary line with
# the counts, and PASS/FAIL lines (tests/cli/lib.sh protocol):
#   differential-ours-sane   our fsck exited 0, 4 or 8 every time (no crash,
#                            no timeout, no sanitizer report)
#   differential-up-only     at most DIFF_MAX_UP_ONLY mutations flagged by
#                            upstream alone (default: no limit, report only)
#
# Environment:
#   FSCK, INJECT, DUMP  our tools (default: the build in this tree)
#   UP_FSCK             upstream fsck (default: ../upstream-f2fs-tools/fsck/fsck.f2fs
#                       beside the tree when present, else /usr/sbin/fsck.f2fs)
#   DIFF_ITERS          mutations (default 300)
#   DIFF_SEED           seed (default 1); a seed and an image give the same mutations
#   DIFF_FIRST          first iteration to run (default 1; with DIFF_ITERS=1, one case)
#   DIFF_TIMEOUT        seconds per command (default 20)
#   DIFF_MAX_UP_ONLY    fail when more mutations than this are upstream-only
#   DIFF_ALLOW          file of extended regexes (default differential-allow.txt
#                       beside this script; "#" lines are comments): an
#                       upstream-only mutation whose line "DESC | upstream:
#                       UPSTREAM'S FIRST PROBLEM LINE" matches one is listed as
#                       up-only-allowed and not counted against DIFF_MAX_UP_ONLY
#                       (the known disagreements, each explained in the file)
#   DIFF_LIST           also write every mutation's line ("N verdict desc") here
set -u
# shellcheck source=../cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"

IMAGE=${1:-$TOP/tests/fuzz/images/kernel.img.xz}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
DUMP=${DUMP:-$(dirname "$FSCK")/../dump/dump.f2fs}
ITERS=${DIFF_ITERS:-300}
SEED=${DIFF_SEED:-1}
FIRST=${DIFF_FIRST:-1}
TMO=${DIFF_TIMEOUT:-20}
MAX_UP_ONLY=${DIFF_MAX_UP_ONLY:-}
ALLOW=${DIFF_ALLOW-$TOP/tests/fuzz/differential-allow.txt}
LIST=${DIFF_LIST:-}
# shellcheck source=mutations.sh
. "$TOP/tests/fuzz/mutations.sh"

setup_workdir
for b in "$FSCK" "$INJECT" "$DUMP"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build first)"
		finish
	fi
done
# dump runs in the work directory: a relative path would not reach it there
DUMP=$(cd "$(dirname "$DUMP")" && pwd)/$(basename "$DUMP")
if [ ! -x "$UP_FSCK" ]; then
	skip differential "no upstream fsck.f2fs ($UP_FSCK)"
	finish
fi

BASE=$WORK/base.img
IMG=$WORK/case.img
case $IMAGE in
*.xz) xz -dc "$IMAGE" >"$BASE" ;;
*) cp --sparse=always "$IMAGE" "$BASE" ;;
esac || {
	fail setup "cannot read $IMAGE"
	finish
}

ours "$BASE"
if [ "$OURS_RC" != 0 ]; then
	fail setup "our fsck does not call $IMAGE clean: $OURS_SAID"
	finish
fi
upstream "$BASE"
if upstream_flags; then
	fail setup "upstream fsck does not call $IMAGE clean: exit $UP_RC $UP_SAID"
	finish
fi

# --- the mutations -----------------------------------------------------------------

if ! mut_inventory; then
	fail setup "$MUT_ERR"
	finish
fi
echo "# $(basename "$IMAGE"): $MUT_SUMMARY; upstream $UP_FSCK" >&2

# --- the run --------------------------------------------------------------------------

RANDOM=$SEED
n_both=0 n_clean=0 n_up=0 n_ours=0 n_skip=0 n_upbroke=0 n_allowed=0 bad_ours=0
[ -n "$LIST" ] && : >"$LIST"
for ((it = 1; it < FIRST + ITERS; it++)); do
	tries=0
	until mutation; do
		tries=$((tries + 1))
		[ "$tries" -lt 50 ] || break
	done
	[ "$it" -lt "$FIRST" ] && continue
	rm -f "$IMG"
	cp --sparse=always "$BASE" "$IMG"
	if ! "$INJECT" "${ARGS[@]}" "$IMG" >"$WORK/inj.out" 2>&1; then
		n_skip=$((n_skip + 1))
		[ -n "$LIST" ] && echo "$it not-applied $DESC" >>"$LIST"
		continue
	fi
	ours "$IMG"
	case $OURS_RC in
	0 | 4 | 8) ;;
	*)
		bad_ours=$((bad_ours + 1))
		echo "# ours-broken #$it: exit $OURS_RC: inject ${ARGS[*]}: $(head -c 200 "$WORK/ours.err" | tr '\n' ' ')"
		;;
	esac
	if grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$WORK/ours.err"; then
		bad_ours=$((bad_ours + 1))
		echo "# ours-sanitizer #$it: inject ${ARGS[*]}"
	fi
	upstream "$IMG"
	if upstream_broke; then
		n_upbroke=$((n_upbroke + 1))
		v=upstream-broke
		echo "# upstream-broke #$it: $DESC: inject ${ARGS[*]}: upstream: exit $UP_RC $(tail -n 1 "$WORK/up.out" | head -c 120)"
	elif upstream_flags && [ "$OURS_RC" != 0 ]; then
		n_both=$((n_both + 1))
		v=both
	elif ! upstream_flags && [ "$OURS_RC" = 0 ]; then
		n_clean=$((n_clean + 1))
		v=clean
	elif upstream_flags; then
		v=up-only
		if [ -n "$ALLOW" ] && grep -qEf <(grep -v -e '^#' -e '^$' "$ALLOW") \
			<<<"$DESC | upstream: $UP_SAID"; then
			n_allowed=$((n_allowed + 1))
			v=up-only-allowed
		else
			n_up=$((n_up + 1))
		fi
		echo "# $v #$it: $DESC: inject ${ARGS[*]}: upstream: exit $UP_RC $UP_SAID"
	else
		n_ours=$((n_ours + 1))
		v=ours-only
		echo "# ours-only #$it: $DESC: inject ${ARGS[*]}: ours: exit $OURS_RC $OURS_SAID"
	fi
	[ -n "$LIST" ] && echo "$it $v $DESC | ours $OURS_RC $OURS_SAID| up $UP_RC $UP_SAID" >>"$LIST"
done

echo "# $ITERS mutations (seed $SEED, $(basename "$UP_FSCK") at $UP_FSCK): both flag $n_both," \
	"both clean $n_clean, upstream flags ours clean $n_up (+$n_allowed allowed)," \
	"ours flags upstream clean $n_ours, upstream broke $n_upbroke, not applied $n_skip"
if [ "$bad_ours" = 0 ]; then
	pass differential-ours-sane
else
	fail differential-ours-sane "$bad_ours mutations made our fsck crash, hang or exit oddly"
fi
if [ -n "$MAX_UP_ONLY" ]; then
	if [ "$n_up" -le "$MAX_UP_ONLY" ]; then
		pass "differential-up-only ($n_up <= $MAX_UP_ONLY)"
	else
		fail differential-up-only "$n_up mutations flagged by upstream only (limit $MAX_UP_ONLY)"
	fi
fi
finish
