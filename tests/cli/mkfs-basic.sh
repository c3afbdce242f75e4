#!/bin/bash
# Basic mkfs.f2fs behaviour: quiet and version output, the sectors argument,
# label, uuid, sparse mode, and images that upstream fsck.f2fs finds clean
# (judged against what upstream fsck says about upstream's own fresh image).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

GIB=$((1 << 30))

# fresh IMG SIZE: a new sparse file.
fresh() {
	rm -f "$1"
	truncate -s "$2" "$1"
}

# mkfs_ok NAME CMD...: run; on failure print FAIL and return 1.
mkfs_ok() {
	local name=$1
	shift
	run_cmd "$@"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "$(basename "$1") exited $RC: $(snippet "$WORK/last.err") $(snippet "$WORK/last.out")"
		return 1
	fi
	return 0
}

# --- output ------------------------------------------------------------------

fresh "$WORK/q.img" 64M
run_cmd "$MKFS" -q -f "$WORK/q.img"
if [ "$RC" -ne 0 ]; then
	fail quiet "exit status $RC: $(snippet "$WORK/last.err")"
elif [ -s "$WORK/last.out" ]; then
	fail quiet "stdout not empty: $(snippet "$WORK/last.out")"
elif [ -s "$WORK/last.err" ]; then
	fail quiet "stderr not empty: $(snippet "$WORK/last.err")"
else
	pass quiet
fi
rm -f "$WORK/q.img"

run_cmd "$MKFS" -V
if [ "$RC" -ne 0 ]; then
	fail version "exit status $RC: $(snippet "$WORK/last.err")"
elif [ "$(wc -l <"$WORK/last.out")" -ne 1 ] ||
	! grep -Eq '^mkfs\.f2fs .*[0-9]+\.[0-9]+' "$WORK/last.out"; then
	fail version "expected one 'mkfs.f2fs VERSION' line, got: $(snippet "$WORK/last.out")"
else
	pass version
fi

# --- upstream fsck on default images -------------------------------------------

have_fsck=0
have_upstream mkfs fsck && have_fsck=1
have_dump=0
have_upstream dump && have_dump=1

# Upstream's own fresh images, the fsck baselines.
if [ $have_fsck -eq 1 ]; then
	for t in 1 0; do
		fresh "$WORK/up-t$t.img" $GIB
		"$UPSTREAM_MKFS" -q -f -t $t "$WORK/up-t$t.img" >/dev/null 2>&1 ||
			have_fsck=0
	done
fi

# clean_case NAME BASELINE MKFS-OPTIONS...: a 1 GiB image made with the
# options must be clean for upstream fsck.
clean_case() {
	local name=$1 base=$2
	shift 2
	if [ $have_fsck -ne 1 ]; then
		skip "$name" "upstream mkfs.f2fs/fsck.f2fs not available or failing"
		return
	fi
	fresh "$WORK/ours.img" $GIB
	mkfs_ok "$name" "$MKFS" -q -f "$@" "$WORK/ours.img" || return
	fsck_clean "$name" "$WORK/ours.img" "$base"
}
clean_case default-1G-fsck-clean "$WORK/up-t1.img"
clean_case nodiscard-1G-fsck-clean "$WORK/up-t0.img" -t 0

# Allocated space of a default 1 GiB image: small, and not above upstream's.
fresh "$WORK/ours.img" $GIB
if mkfs_ok default-1G-allocation "$MKFS" -q -f "$WORK/ours.img"; then
	ours_k=$(du -k "$WORK/ours.img" | cut -f1)
	if [ -f "$WORK/up-t1.img" ] && have_upstream mkfs; then
		up_k=$(du -k "$WORK/up-t1.img" | cut -f1)
	else
		up_k=
	fi
	name="default-1G-allocation (ours ${ours_k} KiB, upstream ${up_k:-n/a} KiB)"
	if [ "$ours_k" -ge 8192 ]; then
		fail "$name" "at least 8 MiB allocated"
	elif [ -n "$up_k" ] && [ "$ours_k" -gt "$up_k" ]; then
		fail "$name" "more allocated than upstream"
	else
		pass "$name"
	fi
fi

# --- the sectors argument, label, uuid ------------------------------------------

fresh "$WORK/ours.img" $GIB
if mkfs_ok sectors-argument "$MKFS" -q -f "$WORK/ours.img" 262144; then
	size=$(stat -c %s "$WORK/ours.img")
	if [ "$size" -ne $GIB ]; then
		fail sectors-argument "the image changed size to $size"
	elif [ $have_dump -ne 1 ]; then
		skip sectors-argument "no upstream dump.f2fs at $UPSTREAM_DUMP"
	else
		bc=$(dump_field "$WORK/ours.img" block_count)
		if [ "$bc" = 32768 ]; then
			pass sectors-argument
		else
			fail sectors-argument "block_count is '${bc}', expected 32768 (262144 sectors)"
		fi
	fi
fi

label='f2fs-ng test label'
fresh "$WORK/ours.img" 64M
if mkfs_ok label "$MKFS" -q -f -l "$label" "$WORK/ours.img"; then
	if [ $have_dump -ne 1 ]; then
		skip label "no upstream dump.f2fs at $UPSTREAM_DUMP"
	else
		got=$(dump_field "$WORK/ours.img" volum_name)
		if [ "$got" = "$label" ]; then
			pass label
		else
			fail label "dump.f2fs shows volum_name '$got', expected '$label'"
		fi
	fi
fi

uuid=01234567-89ab-cdef-0123-456789abcdef
fresh "$WORK/ours.img" 64M
if mkfs_ok uuid-accepted "$MKFS" -q -f -U "$uuid" "$WORK/ours.img"; then
	# The superblock (at byte 1024) holds the uuid at offset 108.
	got=$(od -An -tx1 -v -j $((1024 + 108)) -N 16 "$WORK/ours.img" | tr -d ' \n')
	if [ "$got" = "${uuid//-/}" ]; then
		pass uuid-accepted
	else
		fail uuid-accepted "superblock uuid is $got"
	fi
fi
REFUSE_IMAGE=$WORK/ours.img expect_refusal uuid-garbage-refused '-U.*not a UUID' -- \
	"$MKFS" -q -f -U garbage "$WORK/ours.img"

# --- sparse mode (tests/cli/sparse.sh covers it in depth) -------------------------

rm -f "$WORK/sparse.img"
run_cmd "$MKFS" -q -S $GIB "$WORK/sparse.img"
if grep -q 'without android-libsparse' "$WORK/last.err" || ! command -v simg2img >/dev/null; then
	skip sparse-mode-creates-file "built without android-libsparse, or no simg2img"
elif rm -f "$WORK/sparse.img" && mkfs_ok sparse-mode-creates-file "$MKFS" -q -S $GIB "$WORK/sparse.img"; then
	if [ ! -f "$WORK/sparse.img" ]; then
		fail sparse-mode-creates-file "no file was created"
	elif [ "$(head -c 4 "$WORK/sparse.img" | od -An -tx4 | tr -d ' ')" != ed26ff3a ]; then
		fail sparse-mode-creates-file "not an Android sparse image"
	elif ! simg2img "$WORK/sparse.img" "$WORK/sparse.raw" 2>/dev/null ||
		[ "$(stat -c %s "$WORK/sparse.raw")" -ne $GIB ]; then
		fail sparse-mode-creates-file "does not expand to $GIB bytes"
	else
		pass sparse-mode-creates-file
		if [ $have_fsck -eq 1 ]; then
			fsck_clean sparse-mode-fsck-clean "$WORK/sparse.raw" "$WORK/up-t1.img"
		else
			skip sparse-mode-fsck-clean "upstream mkfs.f2fs/fsck.f2fs not available or failing"
		fi
	fi
fi
rm -f "$WORK/sparse.img" "$WORK/sparse.raw"

# --- overwriting with -f -------------------------------------------------------------

if [ $have_fsck -eq 1 ]; then
	cp --sparse=always "$WORK/up-t1.img" "$WORK/ours.img"
	mkfs_ok force-over-f2fs "$MKFS" -q -f "$WORK/ours.img" &&
		fsck_clean force-over-f2fs "$WORK/ours.img" "$WORK/up-t1.img"
else
	skip force-over-f2fs "upstream mkfs.f2fs/fsck.f2fs not available or failing"
fi

# --- images full of old data: what mkfs does not write or discard must not
# be mistaken for metadata (with -t 0 nothing is discarded) -----------------------

dirty_case() {
	local name=$1
	shift
	if [ $have_fsck -ne 1 ]; then
		skip "$name" "upstream mkfs.f2fs/fsck.f2fs not available or failing"
		return
	fi
	make_pattern_image "$WORK/up-dirty.img" $((128 << 20))
	if ! "$UPSTREAM_MKFS" -q -f "$@" "$WORK/up-dirty.img" >/dev/null 2>&1; then
		skip "$name" "upstream mkfs.f2fs failed on the dirty image"
		return
	fi
	make_pattern_image "$WORK/ours.img" $((128 << 20))
	mkfs_ok "$name" "$MKFS" -q -f "$@" "$WORK/ours.img" &&
		fsck_clean "$name" "$WORK/ours.img" "$WORK/up-dirty.img"
	rm -f "$WORK/up-dirty.img" "$WORK/ours.img"
}
dirty_case dirty-128M-fsck-clean
dirty_case dirty-128M-nodiscard-fsck-clean -t 0

# --- a loop block device (root only) ---------------------------------------------------

loop_case() {
	local name=loop-device-fsck-clean dev why
	if [ $have_fsck -ne 1 ]; then
		skip $name "upstream mkfs.f2fs/fsck.f2fs not available or failing"
		return
	elif [ "$(id -u)" -ne 0 ]; then
		skip $name "not running as root"
		return
	fi
	fresh "$WORK/loop.img" $GIB
	if ! dev=$(losetup -f --show "$WORK/loop.img" 2>&1); then
		skip $name "losetup failed: $dev"
		return
	fi
	# At exit, detach whatever loop device still backs our image.
	at_exit "losetup -n -O NAME -j '$WORK/loop.img' | xargs -r -n 1 losetup -d"
	if mkfs_ok $name "$MKFS" -q -f "$dev"; then
		sync
		fsck_clean $name "$dev" "$WORK/up-t1.img"
	fi
	if ! why=$(losetup -d "$dev" 2>&1); then
		fail loop-device-detach "losetup -d $dev failed: $why"
	fi
}
loop_case

finish
