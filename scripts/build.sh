#!/bin/bash
# Build the tools and unit tests.  Default: in the source tree, as
# ./autogen.sh && ./configure && make (warnings are errors).  With --asan: a
# copy of the sources in build-asan/src built with AddressSanitizer and
# UBSan, so both builds coexist.  Prints the directory that holds the build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
build_tree() {
	local dir=$1
	shift
	cd "$dir"
	[ -x configure ] || ./autogen.sh >/dev/null 2>&1
	[ -f Makefile ] || ./configure -q "$@" >/dev/null
	make -s -j"$jobs" >/dev/null
	make -s -j"$jobs" check TESTS= >/dev/null
}
if [ "${1:-}" = --asan ]; then
	src=$top/build-asan/src
	mkdir -p "$src"
	# refresh the copy from the working tree (tracked and new files)
	(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf -) | tar -xf - -C "$src"
	build_tree "$src" \
		CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' \
		LDFLAGS='-fsanitize=address,undefined'
	echo "$src"
else
	build_tree "$top"
	echo "$top"
fi
