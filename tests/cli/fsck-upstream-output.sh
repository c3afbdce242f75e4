#!/bin/bash
# fsck.f2fs prints what upstream prints, where a script could read it: the
# Info header and the [FSCK] summary lines, compared line for line with
# upstream's fsck.f2fs on the same images (a clean one from our mkfs, and the
# same image with a directory's link count and a NAT entry corrupted).
# Normalised: the running kernel's version line and "Done: N secs"; dropped:
# upstream's lines about what its dry run would write, and our own extra
# lines (problem lines, the per-section line).
#
# Newest upstream (UPSTREAM_NEWEST_FSCK, default the build of
# bench/build-upstream.sh beside the repository) is compared in full, and so
# are the -l layout and the listings -d 1 adds to the header; without it
# Debian's 1.15 is, minus the lines 1.15 prints differently ("Max image
# size", the Casefold and nat_bits Info lines, which it lacks).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
newest=${UPSTREAM_NEWEST_FSCK:-$(dirname "$TOP")/upstream-f2fs-tools/fsck/fsck.f2fs}
if [ -x "$newest" ]; then
	upstream=$newest
	which=newest
elif [ -x "$UPSTREAM_FSCK" ]; then
	upstream=$UPSTREAM_FSCK
	which=1.15
else
	skip all "no upstream fsck.f2fs ($newest, $UPSTREAM_FSCK)"
	finish
fi

# keep OUT: the lines both tools print, normalised
keep() {
	grep -v -e '^\[FSCK\] PR_' -e '^\[FSCK\] section ' -e '^\[ASSERT\]' -e '^\[FIX\]' \
		-e '^Info: \(flush_journal_entries\|Duplicate valid\|Write valid nat_bits\|write_checkpoint\|fix_checkpoint\)' \
		-e 'problem(s) found' -e '^$' -e '^Info: Fix the' -e '^Info: Force' "$1" |
		sed -e 's/^    to ".*"$/    to KERNEL/' -e 's/^Done: [0-9.]* secs$/Done/' |
		if [ "$which" = 1.15 ]; then
			grep -v -e 'Max image size' -e '^Info: Casefold' -e 'nat_bits in checkpoint'
		else
			cat
		fi
}

compare() { # NAME IMG [OPTIONS...]
	local name=$1 image=$2
	shift 2
	cp --sparse=always "$image" "$WORK/up.img"
	"$FSCK" --dry-run "$@" "$image" >"$WORK/ours.out" 2>&1
	"$upstream" --dry-run "$@" "$WORK/up.img" >"$WORK/up.out" 2>&1 </dev/null
	keep "$WORK/ours.out" >"$WORK/ours.kept"
	keep "$WORK/up.out" >"$WORK/up.kept"
	if diff "$WORK/up.kept" "$WORK/ours.kept" >"$WORK/diff"; then
		pass "$name-$which"
	else
		fail "$name-$which" "$(head -c 300 "$WORK/diff")"
	fi
}

img=$WORK/img
truncate -s 1G "$img"
"$MKFS" -q -f -O extra_attr,inode_checksum "$img" || { fail setup "mkfs failed"; finish; }
compare clean "$img"
compare clean-f "$img" -f
truncate -s 8G "$WORK/big.img"
"$MKFS" -q -f -s 128 "$WORK/big.img" || { fail setup "mkfs -s 128 failed"; finish; }
compare clean-s128 "$WORK/big.img"
# root's link count off by one, and lost+found's NAT entry cut loose
"$INJECT" --node --nid 3 --mb i_links --val 5 "$img" >/dev/null 2>&1 &&
	"$INJECT" --node --nid 3 --mb i_inode_checksum --val 0 "$img" >/dev/null 2>&1
compare corrupt "$img"
compare corrupt-f "$img" -f
# -l: upstream's layout lines (1.15 orders them differently)
if [ "$which" = newest ]; then
	compare layout "$img" -l
	compare layout-s128 "$WORK/big.img" -l
fi

# -d: the superblock and checkpoint listings the header gains, each from its
# boxed title to the next line that is not its own
listings() {
	awk '/^\| (Super block|Checkpoint) / { on = 1 } on && /^(Info: |\[)/ { on = 0 } on' "$1"
}
if [ "$which" = newest ]; then
	"$FSCK" --dry-run -d 1 "$WORK/big.img" >"$WORK/ours.out" 2>&1
	"$upstream" --dry-run -d 1 "$WORK/big.img" >"$WORK/up.out" 2>&1 </dev/null
	listings "$WORK/ours.out" >"$WORK/ours.kept"
	listings "$WORK/up.out" >"$WORK/up.kept"
	if [ "$(grep -c . "$WORK/ours.kept")" -lt 100 ]; then
		fail debug-listings "only $(grep -c . "$WORK/ours.kept") lines listed"
	elif diff "$WORK/up.kept" "$WORK/ours.kept" >"$WORK/diff"; then
		pass debug-listings
	else
		fail debug-listings "$(head -c 300 "$WORK/diff")"
	fi
fi
finish
