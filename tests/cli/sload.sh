#!/bin/bash
# sload.f2fs: a generated tree loaded into images from our mkfs (-s 1 and
# -s 128) must be clean for our fsck and upstream's and extract back (our
# dump -r -P -L) equal to the source: contents, holes, modes, owners, times,
# symlinks, hard links.  Bad input -- no source, a source that does not fit,
# a name already there, a file with no F2FS, a busy device, options we do
# not support -- gets one line, a non-zero exit, and the image unchanged.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

SLOAD=${OUR_SLOAD:-$TOP/sload/sload.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}

make_tree() {
	local src=$1 i
	rm -rf "$src"
	mkdir -p "$src/a/b/c" "$src/wide" "$src/empty-dir" || return 1
	for i in $(seq 1 700); do printf '%s' "$i" >"$src/wide/name-$i"; done
	head -c 5000000 /dev/urandom >"$src/a/big" || return 1
	head -c 3000 /dev/urandom >"$src/a/inline-size" || return 1
	: >"$src/a/empty"
	truncate -s 64M "$src/a/sparse" && printf 'middle' | dd of="$src/a/sparse" bs=1 \
		seek=33554432 conv=notrunc status=none || return 1
	ln "$src/a/big" "$src/a/b/hard" || return 1
	ln -s ../big "$src/a/b/sym" || return 1
	ln -s "$(printf 'x%.0s' $(seq 1 300))" "$src/a/long-target" || return 1
	mkfifo "$src/a/fifo" || return 1
	printf 'caf\xc3\xa9' >"$src/a/caf$(printf '\xc3\xa9')" || return 1
	printf 'nihon' >"$src/a/$(printf '\xe6\x97\xa5\xe6\x9c\xac')" || return 1
	printf 'long' >"$src/a/$(printf 'n%.0s' $(seq 1 255))" || return 1
	chmod 0751 "$src/a/b" && chmod 0600 "$src/a/inline-size" || return 1
	chown 1234:5678 "$src/a/big" 2>/dev/null
	touch -d '2001-02-03 04:05:06' "$src/a/inline-size" || return 1
}

# Compare an extracted tree with the source: names, types, contents, modes,
# owners, mtimes (in seconds: dump -P restores whole seconds).
same_tree() {
	local a=$1 b=$2
	diff -r --no-dereference --exclude=fifo "$a" "$b" >/dev/null 2>&1 || return 1
	diff <(cd "$a" && find . -printf '%y %m %U:%G %s %p\n' | LC_ALL=C sort) \
		<(cd "$b" && find . -printf '%y %m %U:%G %s %p\n' | LC_ALL=C sort) >/dev/null &&
		diff <(cd "$a" && find . -type f -printf '%Ts %p\n' | LC_ALL=C sort) \
			<(cd "$b" && find . -type f -printf '%Ts %p\n' | LC_ALL=C sort) >/dev/null
}

SRC=$WORK/src
if ! make_tree "$SRC"; then
	fail tree "cannot generate the source tree"
	finish
fi

for geo in "1G||" "8G|-s 128|" "1G||--direct"; do
	size=${geo%%|*}
	rest=${geo#*|}
	opts=${rest%%|*}
	sopts=${rest#*|}
	name="load ${size}${opts:+ $opts}${sopts:+ $sopts}"
	img=$WORK/img
	rm -f "$img" && truncate -s "$size" "$img"
	# shellcheck disable=SC2086
	run_cmd "$MKFS" -q -f $opts "$img"
	# shellcheck disable=SC2086
	run_cmd "$SLOAD" $sopts -P -f "$SRC" "$img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "sload exited $RC: $(snippet "$OUT")"
		continue
	fi
	run_cmd "$FSCK" "$img"
	[ "$RC" -eq 0 ] || { fail "$name" "our fsck exited $RC: $(snippet "$OUT")"; continue; }
	if have_upstream fsck; then
		run_cmd "$UPSTREAM_FSCK" -f "$img"
		[ "$RC" -eq 0 ] || { fail "$name" "upstream fsck exited $RC"; continue; }
	fi
	rm -rf "$WORK/out"
	run_cmd "$DUMP" -r -P -L -o "$WORK/out" "$img"
	rm -rf "$WORK/out/lost+found"
	if [ "$RC" -ne 0 ] || ! same_tree "$SRC" "$WORK/out"; then
		fail "$name" "the extracted tree differs from the source (dump exit $RC)"
		continue
	fi
	pass "$name"
done

# -c: LZ4 clusters; both fscks clean (the kernel test reads the files back)
img=$WORK/img
rm -f "$img" && truncate -s 1G "$img" && run_cmd "$MKFS" -q -f -O extra_attr,compression "$img"
run_cmd "$SLOAD" -c -x bin -f "$SRC" "$img"
if [ "$RC" -ne 0 ]; then
	fail "compressed load" "sload -c exited $RC: $(snippet "$WORK/last.err")"
else
	run_cmd "$FSCK" "$img"
	ours=$RC
	up=0
	# Debian's 1.15 misreads compressed clusters in indirect direct nodes
	# (kernel 6.1 and newest upstream accept them): only newest is asked
	newest=${UPSTREAM_NEWEST_FSCK:-$(dirname "$TOP")/upstream-f2fs-tools/fsck/fsck.f2fs}
	if [ -x "$newest" ]; then
		run_cmd "$newest" -f --dry-run "$img"
		up=$RC
	fi
	if [ "$ours" -eq 0 ] && [ "$up" -eq 0 ]; then
		pass "compressed load"
	else
		fail "compressed load" "fsck exit ours $ours, upstream $up"
	fi
fi

# -T sets every time; without -P files belong to 0:0.
img=$WORK/img
rm -f "$img" && truncate -s 1G "$img" && run_cmd "$MKFS" -q -f "$img"
run_cmd "$SLOAD" -T 1000000000 -f "$SRC" "$img"
rm -rf "$WORK/out" && run_cmd "$DUMP" -r -P -o "$WORK/out" "$img"
if [ "$(find "$WORK/out/a" -newermt '@1000000001' | wc -l)" = 0 ] &&
	[ "$(stat -c %U:%G "$WORK/out/a/big")" = root:root ]; then
	pass "timestamp and owner"
else
	fail "timestamp and owner" "times not 1000000000 or owner not root"
fi

# --- refusals: one line, non-zero, the image unchanged ------------------------

fresh() {
	rm -f "$img" && truncate -s "${1:-1G}" "$img" && "$MKFS" -q -f "$img" >/dev/null
}

fresh
REFUSE_IMAGE=$img expect_refusal "no-source" 'no source' -- "$SLOAD" "$img"
REFUSE_IMAGE=$img expect_refusal "missing-source" 'No such file' -- "$SLOAD" -f "$WORK/none" "$img"
REFUSE_IMAGE=$img expect_refusal "source-not-dir" 'not a directory' -- "$SLOAD" -f "$SRC/a/big" "$img"
REFUSE_IMAGE=$img expect_refusal "sparse-mode-not-sparse" 'not an Android sparse image|without android-libsparse' -- \
	"$SLOAD" -S -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "compression-no-feature" 'no compression feature' -- \
	"$SLOAD" -c -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "compression-algorithm" 'Unknown compression algorithm' -- \
	"$SLOAD" -c -a zstd -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "cluster-without-c" 'without the compression enable \(-c\)' -- \
	"$SLOAD" -L 3 -f "$SRC" "$img"
REFUSE_IMAGE=$img expect_refusal "bad-timestamp" 'bad timestamp' -- "$SLOAD" -T x -f "$SRC" "$img"

# a source bigger than the volume: refused before anything is written
mkdir -p "$WORK/huge" && head -c 90000000 /dev/urandom >"$WORK/huge/f"
fresh 64M
REFUSE_IMAGE=$img expect_refusal "too-big" 'needs about [0-9]* MiB' -- "$SLOAD" -f "$WORK/huge" "$img"

# a name already in the volume: the second load is refused whole
fresh
"$SLOAD" -f "$SRC" "$img" >/dev/null 2>&1
REFUSE_IMAGE=$img expect_refusal "name-exists" 'File exists' -- "$SLOAD" -f "$SRC" "$img"
run_cmd "$FSCK" "$img"
[ "$RC" -eq 0 ] && pass "clean-after-refusal" || fail "clean-after-refusal" "fsck exited $RC"

# no F2FS on the target
head -c 8388608 /dev/zero >"$img"
REFUSE_IMAGE=$img expect_refusal "not-f2fs" 'superblock|magic|F2FS' -- "$SLOAD" -f "$SRC" "$img"

# a mounted device (an ext4 loop device)
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	ext=$WORK/ext.img
	truncate -s 64M "$ext" && mkfs.ext4 -q -F "$ext"
	loop=$(losetup -f --show "$ext" 2>/dev/null)
	mkdir -p "$WORK/mnt"
	if [ -n "$loop" ] && mount "$loop" "$WORK/mnt" 2>/dev/null; then
		at_exit "fsfreeze -u '$WORK/mnt' 2>/dev/null; umount '$WORK/mnt' 2>/dev/null; losetup -d '$loop' 2>/dev/null"
		# ext4 rewrites its own superblock a while after mount: frozen, its bytes hold still
		fsfreeze -f "$WORK/mnt" 2>/dev/null
		REFUSE_IMAGE=$loop expect_refusal "mounted" 'mounted|in use' -- "$SLOAD" -f "$SRC" "$loop"
		fsfreeze -u "$WORK/mnt" 2>/dev/null
		umount "$WORK/mnt"
	else
		skip "mounted" "cannot loop-mount an ext4 image here"
	fi
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
else
	skip "mounted" "needs root, losetup and mkfs.ext4"
fi

finish
