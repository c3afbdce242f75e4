#!/bin/bash
# Long libFuzzer run of a fuzz target of tests/fuzz/ (not part of CI).
#
#   tests/fuzz/run-long.sh [SECONDS] [TARGET]   default 600 s, fuzz_parsers
#
# TARGET is fuzz_parsers (volume, tables, checker) or fuzz_read (the read
# layer: walker, dentries, contents, block owners).  Builds the library
# sources (the lib_libf2fs_a_SOURCES of Makefile.am) with clang and
# -fsanitize=fuzzer-no-link,address,undefined into $FUZZ_BUILD (default
# /tmp/f2fs-libfuzzer), the target and fuzz_driver.c with -fsanitize=fuzzer,
# writes the seed corpus (the unmutated seed images, via the -C option of a
# standalone build) and runs libFuzzer for the time budget on FUZZ_JOBS jobs
# (default 2).  Crashes, leaks and timeouts are written under
# $FUZZ_CRASH_DIR (default /tmp/fuzz-crashes) as crash-*/leak-*/timeout-*;
# replay one with
#   $FUZZ_BUILD/TARGET FILE
# Output: one PASS/FAIL line (tests/cli/lib.sh protocol).
set -u
# shellcheck source=../cli/lib.sh
. "$(dirname "$0")/../cli/lib.sh"

BUDGET=${1:-600}
TARGET=${2:-fuzz_parsers}
BUILD=${FUZZ_BUILD:-/tmp/f2fs-libfuzzer}
CRASH_DIR=${FUZZ_CRASH_DIR:-/tmp/fuzz-crashes}
JOBS=${FUZZ_JOBS:-2}
CC=${CLANG:-clang}
SAN='-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer'

setup_workdir
case $TARGET in
fuzz_parsers | fuzz_read) ;;
*)
	fail libfuzzer "unknown target $TARGET (fuzz_parsers or fuzz_read)"
	finish
	;;
esac
if ! command -v "$CC" >/dev/null; then
	skip libfuzzer "no $CC (apt-get install clang)"
	finish
fi
if [ ! -f "$TOP/config.h" ]; then
	fail libfuzzer "no $TOP/config.h: run ./configure (or scripts/build.sh) first"
	finish
fi
mkdir -p "$BUILD/obj" "$BUILD/corpus-$TARGET" "$CRASH_DIR"
libs=$(sed -n -E 's/^(UUID|BLKID|ZLIB|LZ4)_LIBS = //p' "$TOP/Makefile" 2>/dev/null | tr '\n' ' ')
# the library's sources, as the build lists them
srcs=$(sed -n '/^lib_libf2fs_a_SOURCES/,/^$/p' "$TOP/Makefile.am" | grep -o 'lib/[A-Za-z0-9_/]*\.c')
if [ -z "$srcs" ]; then
	fail libfuzzer "no lib_libf2fs_a_SOURCES in $TOP/Makefile.am"
	finish
fi
objs=()
for c in $srcs; do
	o=$BUILD/obj/$(echo "${c%.c}" | tr / _).o
	# shellcheck disable=SC2086
	if ! "$CC" -std=gnu11 -O1 -g -fsanitize=fuzzer-no-link $SAN -I"$TOP" -I"$TOP/include" \
		-c "$TOP/$c" -o "$o" 2>"$WORK/cc.log"; then
		fail libfuzzer "cannot compile $c: $(snippet "$WORK/cc.log" 300)"
		finish
	fi
	objs+=("$o")
done
# shellcheck disable=SC2086
if ! "$CC" -std=gnu11 -O1 -g -DUSE_LIBFUZZER -fsanitize=fuzzer $SAN -I"$TOP" -I"$TOP/include" \
	"$TOP/tests/fuzz/$TARGET.c" "$TOP/tests/fuzz/fuzz_driver.c" "${objs[@]}" $libs \
	-o "$BUILD/$TARGET" 2>"$WORK/cc.log" ||
	! "$CC" -std=gnu11 -O1 -g $SAN -I"$TOP" -I"$TOP/include" \
		"$TOP/tests/fuzz/$TARGET.c" "$TOP/tests/fuzz/fuzz_driver.c" "${objs[@]}" $libs \
		-fsanitize=fuzzer-no-link -o "$BUILD/${TARGET}_standalone" 2>>"$WORK/cc.log"; then
	fail libfuzzer "cannot link: $(snippet "$WORK/cc.log" 300)"
	finish
fi
"$BUILD/${TARGET}_standalone" -C "$BUILD/corpus-$TARGET" || {
	fail libfuzzer "cannot write the seed corpus"
	finish
}
cd "$CRASH_DIR" || exit 1
# inputs are 1 + up to 64 blocks of 4 KiB
timeout -k 10 $((BUDGET + 60)) "$BUILD/$TARGET" -max_total_time="$BUDGET" \
	-max_len=$((1 + 64 * 4096)) -timeout=20 -rss_limit_mb=4096 -jobs="$JOBS" \
	-workers="$JOBS" -artifact_prefix="$CRASH_DIR/" -print_final_stats=1 \
	"$BUILD/corpus-$TARGET" >"$WORK/fuzz.log" 2>&1
rc=$?
cp "$WORK/fuzz.log" "$CRASH_DIR/libfuzzer-last.log"
for f in fuzz-*.log; do [ -f "$f" ] && cat "$f" >>"$CRASH_DIR/libfuzzer-last.log" && rm -f "$f"; done
grep -hE '^(stat::|#[0-9]+ *DONE)' "$CRASH_DIR/libfuzzer-last.log" | tail -5 | sed 's/^/# /'
found=$(find "$CRASH_DIR" -maxdepth 1 -newer "$WORK" \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | head -5)
if [ -n "$found" ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; }; then
	fail libfuzzer "rc=$rc; artifacts: ${found:-none} (log $CRASH_DIR/libfuzzer-last.log; replay: $BUILD/$TARGET FILE)"
else
	pass libfuzzer
fi
finish
