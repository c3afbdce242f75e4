#!/bin/bash
# scripts/check-layers.sh itself.  The real tree passes.  A scratch copy of
# the tree's sources and lib objects, checked the way make check does in a
# VPATH build (relative top_srcdir and top_builddir, the build apart from
# the sources), passes as copied; with one violation planted it fails with
# that violation's line and no other: an upward include in either form, an
# upward or sideways call through a hand-written prototype (seen only in the
# objects), another folder's internal header included by a tool folder (one
# from Makefile.am, also a new one) or by a lib folder, missing objects.
# Allowed downward includes and calls still pass.
#
# Environment: TOP_BUILDDIR, the build whose lib objects are copied (default:
# the source tree, an in-tree build); CC compiles the planted files (default
# cc); NM (default nm); CHECK_LAYERS, the script under test (default
# <repo>/scripts/check-layers.sh).
set -u
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=${TOP_BUILDDIR:-$TOP}
CHECK_LAYERS=${CHECK_LAYERS:-$TOP/scripts/check-layers.sh}
CC=${CC:-cc}
NM=${NM:-nm}
TOOLS_ONLY="(tools use include/f2fs/ and tools/common/ only)"

setup_workdir

if [ ! -f "$BUILD/lib/fs/fs.o" ]; then
	fail setup "no lib objects under $BUILD (build with make first, or set TOP_BUILDDIR)"
	finish
fi
for t in "$CC" "$NM"; do
	if ! command -v "$t" >/dev/null; then
		skip all "$t not found"
		finish
	fi
done

# check NAME EXPECT... : the last run_cmd of the script must have exited with
# status 0 and printed "PASS: check-layers" and nothing else (EXPECT "pass"),
# or with status 1, each "check-layers: LINE" of EXPECT ("LINE"...) on stderr
# and no other, and "FAIL: check-layers: N violation(s)" with N lines.
check() {
	local name=$1 why=() want
	shift
	if [ "$1" = pass ]; then
		[ "$RC" -eq 0 ] || why+=("exit status $RC")
		[ "$(cat "$WORK/last.out")" = "PASS: check-layers" ] || why+=("stdout: $(snippet "$WORK/last.out")")
		[ ! -s "$WORK/last.err" ] || why+=("stderr: $(snippet "$WORK/last.err" 400)")
	else
		[ "$RC" -eq 1 ] || why+=("exit status $RC, expected 1")
		for want; do
			grep -Fxq -- "check-layers: $want" "$WORK/last.err" || why+=("no line \"check-layers: $want\"")
		done
		[ "$(wc -l <"$WORK/last.err")" -eq $# ] || why+=("$(wc -l <"$WORK/last.err") line(s) on stderr, expected $#")
		[ "$(cat "$WORK/last.out")" = "FAIL: check-layers: $# violation(s)" ] ||
			why+=("stdout: $(snippet "$WORK/last.out")")
		[ ${#why[@]} -eq 0 ] || why+=("stderr: $(snippet "$WORK/last.err" 400)")
	fi
	if [ ${#why[@]} -eq 0 ]; then
		pass "$name"
	else
		local IFS=';'
		fail "$name" "${why[*]}"
	fi
}

# The scratch copy: $WORK/base/src, the sources (*.c, *.h, Makefile.am) and
# $WORK/base/build/lib, the lib objects.
mkdir -p "$WORK/base/src" "$WORK/base/build"
(cd "$TOP" && find . \( -path ./.git -o -path './build-*' -o -path './f2fs-tools-ng-*' \) -prune -o \
	\( -name '*.[ch]' -o -path ./Makefile.am \) -print0 | tar --null -T - -cf -) |
	tar -xf - -C "$WORK/base/src"
(cd "$BUILD" && find lib -name '*.o' -print0 | tar --null -T - -cf -) | tar -xf - -C "$WORK/base/build"

# new_case: a fresh copy of the scratch tree in $SRC and $BLD (the objects
# are hard links: a case adds or removes objects, never writes one)
new_case() {
	rm -rf "$WORK/case"
	mkdir "$WORK/case"
	cp -a "$WORK/base/src" "$WORK/case/src"
	cp -al "$WORK/base/build" "$WORK/case/build"
	SRC=$WORK/case/src
	BLD=$WORK/case/build
}

# run_check [ARG...]: the script on the copy, from its build folder
run_check() {
	cd "$BLD" || exit 1
	run_cmd env top_srcdir=../src top_builddir=. NM="$NM" bash "$CHECK_LAYERS" "$@"
	cd "$WORK" || exit 1
}

# plant_call LIB_FOLDER SYMBOL: lib/LIB_FOLDER/planted.c calls SYMBOL through
# a prototype of its own (no #include at all), and its object is built
plant_call() {
	printf 'int %s(void);\nint planted(void);\nint planted(void)\n{\n\treturn %s();\n}\n' "$2" "$2" \
		>"$SRC/lib/$1/planted.c"
	"$CC" -c -o "$BLD/lib/$1/planted.o" "$SRC/lib/$1/planted.c" 2>"$WORK/cc.err" ||
		echo "planted call does not compile: $(snippet "$WORK/cc.err")" >"$WORK/cc.fail"
}

# a global function of an object of the real build
global_function() {
	"$NM" -P -g --defined-only "$BUILD/$1" | awk '$2 == "T" { print $1; exit }'
}
WRITE_SYM=$(global_function lib/write/checkpoint.o)
FS_SYM=$(global_function lib/fs/fs.o)
if [ -z "$WRITE_SYM" ] || [ -z "$FS_SYM" ]; then
	fail setup "no global function in lib/write/checkpoint.o or lib/fs/fs.o"
	finish
fi

run_cmd env top_srcdir="$TOP" top_builddir="$BUILD" NM="$NM" bash "$CHECK_LAYERS"
check real-tree pass

new_case
run_check
check scratch-copy pass

new_case
echo '#include <f2fs/write.h>' >>"$SRC/lib/fs/fs.c"
run_check
check angle-include-upward "lib/fs/fs.c (fs) includes f2fs/write.h (write)"

new_case
echo '#include "f2fs/write.h"' >>"$SRC/lib/fs/fs.c"
run_check
check quote-include-upward "lib/fs/fs.c (fs) includes f2fs/write.h (write)"

# call_case NAME LAYER WANT: LAYER's planted object calls write's symbol; WANT the line
call_case() {
	new_case
	rm -f "$WORK/cc.fail"
	plant_call "$2" "$WRITE_SYM"
	run_check
	if [ -e "$WORK/cc.fail" ]; then
		fail "$1" "$(cat "$WORK/cc.fail")"
	else
		check "$1" "$3"
	fi
}
call_case call-upward fs "lib/fs/planted.o uses $WRITE_SYM from lib/write (write is above fs)"
call_case call-sideways check \
	"lib/check/planted.o uses $WRITE_SYM from lib/write (check may not use write)"

# the repair primitives' header: lib/repair's and lib/write's alone, not load's (above write) nor a tool's
new_case
echo '#include "f2fs/fixup.h"' >>"$SRC/lib/load/load.c"
echo '#include <f2fs/fixup.h>' >>"$SRC/fsck/fsck.c"
run_check
check restricted-header \
	"lib/load/load.c includes f2fs/fixup.h, which only lib/{write,repair,resize} may include" \
	"fsck/fsck.c includes f2fs/fixup.h, which only lib/{write,repair,resize} may include"

new_case
echo '#include "../lib/dev/dev_internal.h"' >>"$SRC/undo/main.c"
run_check
check undo-includes-internal "undo/main.c includes lib/dev/dev_internal.h, internal to lib/dev $TOOLS_ONLY"

new_case
echo '#include <lib/replay/replay_internal.h>' >>"$SRC/tools/f2fs_io/main.c"
run_check
check f2fs_io-includes-lib-header \
	"tools/f2fs_io/main.c includes lib/replay/replay_internal.h, internal to lib/replay $TOOLS_ONLY"

# a program Makefile.am gains is checked: one with its _SOURCES, one with
# the default source (TARGET.c)
new_case
mkdir -p "$SRC/newtool" "$SRC/other"
printf 'sbin_PROGRAMS += newtool/newtool\nnewtool_newtool_SOURCES = newtool/main.c \\\n\tnewtool/main.h\nbin_PROGRAMS = other/tool\n' \
	>>"$SRC/Makefile.am"
printf '#include "main.h"\n#include "f2fs/fs.h"\n#include "lib/write/write_internal.h"\n' >"$SRC/newtool/main.c"
: >"$SRC/newtool/main.h"
echo '#include "../lib/check/context.h"' >"$SRC/other/tool.c"
run_check
check new-tool-folders "newtool/main.c includes lib/write/write_internal.h, internal to lib/write $TOOLS_ONLY" \
	"other/tool.c includes lib/check/context.h, internal to lib/check $TOOLS_ONLY"

# repair may use check, but not check's internal header; fs_internal.h is
# shared with write only
new_case
echo '#include "../check/context.h"' >"$SRC/lib/repair/planted.h"
echo '#include "../fs/fs_internal.h"' >"$SRC/lib/check/planted.h"
run_check
check lib-includes-other-internal "lib/repair/planted.h includes lib/check/context.h, internal to lib/check" \
	"lib/check/planted.h includes lib/fs/fs_internal.h, internal to lib/fs"

new_case
rm -f "$WORK/cc.fail"
plant_call read "$FS_SYM"
printf '#include <f2fs/fs.h>\n#include "f2fs/format.h"\n' >"$SRC/lib/read/planted.h"
printf '#include "write_internal.h"\n#include "../fs/fs_internal.h"\n' >"$SRC/lib/write/planted.h"
: >"$SRC/undo/planted.h"
echo '#include "planted.h"' >>"$SRC/undo/main.c"
run_check
if [ -e "$WORK/cc.fail" ]; then
	fail allowed-downward "$(cat "$WORK/cc.fail")"
else
	check allowed-downward pass
fi

new_case
rm -f "$BLD/lib/fs/fs.o"
run_check
check one-object-missing "1 lib object(s) missing under $BLD (lib/fs/fs.o...): build first, or run with --source-only"

new_case
rm -rf "${BLD:?}/lib"
run_check
check no-objects "no lib objects under $BLD: build first, or run with --source-only"

run_check --source-only
if [ "$RC" -eq 0 ] && [ "$(cat "$WORK/last.out")" = "PASS: check-layers" ] &&
	[ "$(cat "$WORK/last.err")" = "check-layers: --source-only: the symbol check is skipped" ]; then
	pass source-only
else
	fail source-only "rc=$RC; stdout: $(snippet "$WORK/last.out"); stderr: $(snippet "$WORK/last.err")"
fi

finish
