#!/bin/bash
# fsck.f2fs -O, -C and --nolinear-lookup: each feature turned on after mkfs
# shows in our dump -d 1 (bits, encoding, flags) and leaves the volume clean
# for our fsck and upstream's; on identical copies, newest upstream's fsck
# (when built) writes the same superblock -- but for casefold's encoding,
# which upstream leaves 0 (the kernel refuses that mount).  A feature that
# cannot be turned on, casefold without an encoding, bad values, tuning with
# --dry-run or -n, a target without F2FS: one line, non-zero exit, nothing
# written.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

FSCK=${FSCK:-${TOP_BUILDDIR:-$TOP}/fsck/fsck.f2fs}
DUMP=${DUMP:-${TOP_BUILDDIR:-$TOP}/dump/dump.f2fs}
NEWEST=${UPSTREAM_NEWEST_FSCK:-$(dirname "$TOP")/upstream-f2fs-tools/fsck/fsck.f2fs}
IMG=$WORK/disk.img
ENCRYPT=0x1 CASEFOLD=0x1000

# fresh [MKFS-OPTIONS...]: a new 256 MiB volume in $IMG.
fresh() {
	rm -f "$IMG"
	truncate -s 256M "$IMG"
	"$MKFS" -q -f "$@" "$IMG" >/dev/null 2>&1
}

# field NAME [IMG]: the value of a superblock field in our dump -d 1.
field() {
	"$DUMP" -d 1 "${2:-$IMG}" 2>/dev/null |
		awk -v f="$1" '$1 == f { sub(/^.*: */, ""); sub(/\].*$/, ""); print; exit }'
}

# has_bits FIELD MASK: our dump shows every bit of MASK set in FIELD.
has_bits() {
	local v
	v=$(field "$1")
	[ -n "$v" ] && [ $((v & $2)) -eq $(($2)) ]
}

# clean NAME: our fsck and upstream's (when built) find no problem.
clean() {
	local name=$1
	run_cmd "$FSCK" -f "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "our fsck exit $RC: $(snippet "$WORK/last.out")"
		return 1
	fi
	if have_upstream fsck; then
		run_cmd "$UPSTREAM_FSCK" --dry-run -f "$IMG"
		if [ "$RC" -ne 0 ] || grep -qE '\[Fail\]|Invalid SB|Magic Mismatch' "$WORK/last.out"; then
			fail "$name" "upstream fsck exit $RC: $(grep -m2 -E 'Fail|Invalid' "$WORK/last.out")"
			return 1
		fi
	fi
	pass "$name"
}

# tuned NAME LINE FSCK-OPTIONS...: our fsck with the options exits 0 and
# prints LINE.
tuned() {
	local name=$1 line=$2
	shift 2
	run_cmd "$FSCK" "$@" "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "exit $RC: $(snippet "$WORK/last.err")"
	elif ! grep -qxF "$line" "$WORK/last.out"; then
		fail "$name" "no '$line' in: $(snippet "$WORK/last.out")"
	else
		pass "$name"
		return 0
	fi
	return 1
}

# --- each feature turned on ---------------------------------------------

fresh
tuned encrypt "Info: Set Encryption feature" -O encrypt &&
	{ has_bits feature $ENCRYPT && pass encrypt/dump || fail encrypt/dump "feature $(field feature)"; }
clean encrypt/clean

fresh -O extra_attr,inode_checksum,sb_checksum
tuned casefold "Info: Set Casefold feature" -C utf8
if has_bits feature $CASEFOLD && [ "$(field s_encoding)" = 1 ] && [ "$(field s_encoding_flags)" = 0 ]; then
	pass casefold/dump
else
	fail casefold/dump "feature $(field feature) s_encoding $(field s_encoding) flags $(field s_encoding_flags)"
fi
clean casefold/clean

fresh
tuned casefold-strict "Info: Set Casefold feature" -O casefold,encrypt -C utf8:strict
if has_bits feature $((CASEFOLD | ENCRYPT)) && [ "$(field s_encoding_flags)" = 1 ]; then
	pass casefold-strict/dump
else
	fail casefold-strict/dump "feature $(field feature) flags $(field s_encoding_flags)"
fi
clean casefold-strict/clean
tuned nolinear-1 "Info: Casefold: disable linear lookup" --nolinear-lookup=1
[ "$(field s_encoding_flags)" = 3 ] && pass nolinear-1/dump ||
	fail nolinear-1/dump "flags $(field s_encoding_flags), want 3 (strict, no fallback)"
clean nolinear-1/clean
tuned nolinear-0 "Info: Casefold: enable linear lookup" --nolinear-lookup=0
[ "$(field s_encoding_flags)" = 1 ] && pass nolinear-0/dump ||
	fail nolinear-0/dump "flags $(field s_encoding_flags), want 1"

# what changes nothing writes nothing
for opts in "-O encrypt" "-C utf8" "--nolinear-lookup=0"; do
	cp "$IMG" "$WORK/before.img"
	# shellcheck disable=SC2086
	run_cmd "$FSCK" $opts "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail "unchanged${opts// /}" "exit $RC: $(snippet "$WORK/last.err")"
	elif ! cmp -s "$IMG" "$WORK/before.img"; then
		fail "unchanged${opts// /}" "the image changed"
	else
		pass "unchanged${opts// /}"
	fi
done
fresh
cp "$IMG" "$WORK/before.img"
tuned no-casefold "Info: Not support Casefold feature" --nolinear-lookup=1 &&
	{ cmp -s "$IMG" "$WORK/before.img" && pass no-casefold/unchanged ||
		fail no-casefold/unchanged "the image changed"; }

# --- the superblock newest upstream writes on an identical copy ---------

# same_super NAME MKFS-OPTIONS -- FSCK-OPTIONS: blocks 0 and 1 after our
# fsck and newest upstream's, on copies of one image, are identical.
same_super() {
	local name=$1 mk=() opts=()
	shift
	while [ "$1" != -- ]; do mk+=("$1"); shift; done
	shift
	opts=("$@")
	fresh "${mk[@]}"
	cp "$IMG" "$WORK/theirs.img"
	run_cmd "$FSCK" "${opts[@]}" "$IMG"
	[ "$RC" -eq 0 ] || { fail "$name" "our fsck exit $RC"; return; }
	# --no-kernel-check: upstream would stamp its version into the superblock
	run_cmd "$NEWEST" --no-kernel-check "${opts[@]}" "$WORK/theirs.img"
	[ "$RC" -eq 0 ] || { fail "$name" "upstream fsck exit $RC"; return; }
	if cmp -s <(head -c 8192 "$IMG") <(head -c 8192 "$WORK/theirs.img"); then
		pass "$name"
	else
		fail "$name" "superblocks differ: $(cmp <(head -c 8192 "$IMG") <(head -c 8192 "$WORK/theirs.img") | head -1)"
	fi
}

if [ -x "$NEWEST" ]; then
	same_super upstream/encrypt -- -O encrypt
	same_super upstream/encrypt-sb-checksum -O sb_checksum -- -O encrypt
	same_super upstream/nolinear -O casefold -C utf8 -- --nolinear-lookup=1
	# casefold: the same but for s_encoding, which upstream leaves 0
	fresh
	cp "$IMG" "$WORK/theirs.img"
	run_cmd "$FSCK" -C utf8 "$IMG"
	run_cmd "$NEWEST" --no-kernel-check -C utf8 "$WORK/theirs.img"
	if [ "$(field feature)" != "$(field feature "$WORK/theirs.img")" ]; then
		fail upstream/casefold "feature: ours $(field feature), upstream $(field feature "$WORK/theirs.img")"
	elif [ "$(field s_encoding "$WORK/theirs.img")" != 0 ] || [ "$(field s_encoding)" != 1 ]; then
		fail upstream/casefold "s_encoding: ours $(field s_encoding), upstream $(field s_encoding "$WORK/theirs.img") (want 1 and 0)"
	else
		pass upstream/casefold
	fi
else
	skip upstream "newest upstream fsck.f2fs not built at $NEWEST"
fi

# --- refusals: one line, non-zero, nothing written ----------------------

fresh
REFUSE_IMAGE=$IMG expect_refusal not-later "feature verity cannot be turned on after mkfs" -- \
	"$FSCK" -O verity "$IMG"
[ "$RC" -eq 8 ] || fail not-later/status "exit $RC, want 8"
REFUSE_IMAGE=$IMG expect_refusal not-later-mixed "feature quota cannot be turned on" -- \
	"$FSCK" -O encrypt,quota "$IMG"
REFUSE_IMAGE=$IMG expect_refusal casefold-no-encoding "casefold needs an encoding" -- \
	"$FSCK" -O casefold "$IMG"
REFUSE_IMAGE=$IMG expect_refusal unknown-feature "unknown feature: nosuch" -- \
	"$FSCK" -O encrypt,nosuch "$IMG"
[ "$RC" -eq 16 ] || fail unknown-feature/status "exit $RC, want 16"
REFUSE_IMAGE=$IMG expect_refusal unknown-encoding "unknown casefolding encoding" -- \
	"$FSCK" -C latin1 "$IMG"
REFUSE_IMAGE=$IMG expect_refusal unknown-flag "unknown casefolding flag" -- \
	"$FSCK" -C utf8:loose "$IMG"
REFUSE_IMAGE=$IMG expect_refusal nolinear-value "invalid value for --nolinear-lookup: '2'" -- \
	"$FSCK" --nolinear-lookup=2 "$IMG"
for ro in --dry-run -n -N -l; do
	REFUSE_IMAGE=$IMG expect_refusal "read-only$ro" "do not go with -n, -N, --dry-run or -l" -- \
		"$FSCK" "$ro" -O encrypt "$IMG"
done
truncate -s 64M "$WORK/zero.img"
REFUSE_IMAGE=$WORK/zero.img expect_refusal not-f2fs "zero.img" -- "$FSCK" -O encrypt "$WORK/zero.img"
finish
