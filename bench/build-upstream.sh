#!/bin/bash
# Build newest upstream f2fs-tools (branch g-dev-test) for the benchmarks,
# outside this repository.  Usage:
#   bench/build-upstream.sh GIT_DIR [OUT_DIR]
# GIT_DIR is a clone or bare mirror of jaegeuk/f2fs-tools; OUT_DIR defaults
# to ../upstream-f2fs-tools beside the repository.  Prints OUT_DIR; the tools
# are then OUT_DIR/fsck/fsck.f2fs, OUT_DIR/mkfs/mkfs.f2fs and so on, which is
# what the benchmarks look for in $UPSTREAM_DIR.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
git_dir=${1:?usage: bench/build-upstream.sh GIT_DIR [OUT_DIR]}
out=${2:-$(dirname "$top")/upstream-f2fs-tools}
branch=${UPSTREAM_BRANCH:-g-dev-test}
case $(cd "$(dirname "$out")" 2>/dev/null && pwd)/ in
"$top"/*) echo "build-upstream: $out is inside the repository" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"
git --git-dir="$git_dir" archive "$branch" | tar -x -C "$out"
cd "$out"
./autogen.sh >/dev/null 2>&1
# static libf2fs: real binaries, not libtool wrappers (sload is fsck under another name)
./configure -q --disable-shared >/dev/null
make -s -j"$(nproc)" >/dev/null 2>&1
# the installed names of the one fsck binary, which acts on its argv[0]
for t in sload dump defrag resize; do ln -sf fsck.f2fs "fsck/$t.f2fs"; done
echo "$out ($(git --git-dir="$git_dir" log -1 --format='%h %s' "$branch"))"
