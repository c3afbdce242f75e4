#!/bin/bash
# f2fs_io getflags/setflags/clearflags against newest upstream's (g-dev-test)
# on the host's file system, no kernel f2fs needed: the usage texts are equal,
# and for every flag name either tool acts on, plus names neither knows
# ("noatime", which upstream takes as a no-op, "bogus" and the empty name),
# both tools on identically made files give the same exit status, stdout,
# stderr and resulting flags word.  The host's file system refuses most f2fs
# flags (casefold, compression, nocow), so this checks the refusal path
# there; the guest test (tests/kernel/004-f2fs-io.sh) checks what F2FS does.
# Run as root, immutable is set and cleared for real; as another user both
# tools get EPERM.
#
# Environment: F2FS_IO (ours, default <repo>/tools/f2fs_io/f2fs_io),
# UPSTREAM_NEWEST_F2FS_IO (default the build beside the repository,
# ../upstream-f2fs-tools/tools/f2fs_io/f2fs_io; without it everything is
# skipped), CMD_TIMEOUT.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir

F2FS_IO=${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}
NEWEST=${UPSTREAM_NEWEST_F2FS_IO:-$(dirname "$TOP")/upstream-f2fs-tools/tools/f2fs_io/f2fs_io}

if [ ! -x "$F2FS_IO" ]; then
	fail setup "F2FS_IO=$F2FS_IO is not executable (build with make first)"
	finish
fi
if [ ! -x "$NEWEST" ]; then
	skip all "newest upstream f2fs_io ($NEWEST) not built"
	finish
fi

SET_NAMES="casefold compression nocompression immutable nocow noatime bogus"
CLEAR_NAMES="compression nocompression immutable nocow casefold noatime bogus"

# The flags word as the kernel reports it (lsattr), or "-" where it cannot.
flags_word() {
	local w
	w=$(lsattr -d "$1" 2>/dev/null) || w=-
	echo "${w%% *}"
}

# Make $WORK/f afresh: an empty file, with immutable lifted first so that
# it can go; then, with a flag name, have newest upstream set that flag
# (where the file system lets it) so that clearflags has something to clear.
fresh() {
	if [ -e "$WORK/f" ]; then
		"$NEWEST" clearflags immutable "$WORK/f" >/dev/null 2>&1
		rm -f "$WORK/f"
	fi
	: >"$WORK/f"
	[ -z "${1:-}" ] || "$NEWEST" setflags "$1" "$WORK/f" >/dev/null 2>&1
}
# shellcheck disable=SC2016 # expanded when the cleanup runs
at_exit '"$NEWEST" clearflags immutable "$WORK/f"'

# compare NAME PREFLAG ARGS...: run ours and newest upstream's with ARGS,
# each on a fresh $WORK/f (with PREFLAG set, if not empty); compare the exit
# status, stdout, stderr and the flags left on the file.
compare() {
	local name=$1 pre=$2 t out
	shift 2
	local why=()
	for t in ours up; do
		local bin=$F2FS_IO
		[ $t = up ] && bin=$NEWEST
		fresh "$pre"
		run_cmd "$bin" "$@"
		echo "$RC" >"$WORK/$t.rc"
		mv "$WORK/last.out" "$WORK/$t.out"
		mv "$WORK/last.err" "$WORK/$t.err"
		flags_word "$WORK/f" >"$WORK/$t.flags"
	done
	for out in rc out err flags; do
		cmp -s "$WORK/ours.$out" "$WORK/up.$out" ||
			why+=("$out: ours '$(snippet "$WORK/ours.$out" 120)', upstream '$(snippet "$WORK/up.$out" 120)'")
	done
	if [ ${#why[@]} -eq 0 ]; then
		pass "$name"
	else
		fail "$name" "$(IFS=';'; echo "${why[*]}")"
	fi
}

for c in getflags setflags clearflags; do
	"$F2FS_IO" help "$c" >"$WORK/help.ours" 2>&1
	"$NEWEST" help "$c" >"$WORK/help.up" 2>&1
	if cmp -s "$WORK/help.ours" "$WORK/help.up"; then
		pass "help/$c"
	else
		fail "help/$c" "$(diff "$WORK/help.up" "$WORK/help.ours" | grep '^[<>]' | head -n 4 | tr '\n' '|')"
	fi
done

compare getflags "" getflags "$WORK/f"
compare getflags-immutable immutable getflags "$WORK/f"
for n in $SET_NAMES ""; do
	compare "setflags/${n:-empty-name}" "" setflags "$n" "$WORK/f"
done
# Clearing a name upstream does not clear (casefold, noatime, bogus) must
# leave an immutable file immutable.
for n in $CLEAR_NAMES ""; do
	pre=$n
	case $n in compression | nocompression | immutable | nocow) ;; *) pre=immutable ;; esac
	compare "clearflags/${n:-empty-name}" "$pre" clearflags "$n" "$WORK/f"
done
compare setflags/missing-file "" setflags immutable "$WORK/absent"
compare clearflags/missing-file "" clearflags noatime "$WORK/absent"
compare setflags/one-argument "" setflags immutable
compare clearflags/three-arguments "" clearflags immutable "$WORK/f" extra

finish
