#!/bin/bash
# fsck.f2fs, dump.f2fs, inject.f2fs, f2fs_undo and f2fslabel on targets that hold no usable F2FS
# or that something else uses.  Every bad target gets one line naming what
# it is, the documented exit status (fsck 8, dump and inject 1) and no
# write.  inject writes to a volume that does not open only with --force
# (and only for --sb), never to a mounted or held device.  On a busy device
# the read-only modes (fsck -n, dump) warn on one line and work; fsck's
# repairing modes, inject, f2fs_undo and f2fslabel refuse.  The busy cases need root, loop
# devices, mkfs.ext4 and a C compiler; without them they are skipped.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
DUMP=${DUMP:-$TOP/dump/dump.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
LABEL=${F2FSLABEL:-${TOP_BUILDDIR:-$TOP}/label/f2fslabel}
DEFRAG=${DEFRAG:-${TOP_BUILDDIR:-$TOP}/defrag/defrag.f2fs}
UNDO=${F2FS_UNDO:-$TOP/undo/f2fs_undo}
for bin in "$FSCK" "$DUMP" "$INJECT" "$UNDO"; do
	if [ ! -x "$bin" ]; then
		fail setup "$bin is not executable (build with make first)"
		finish
	fi
done

img=$WORK/f2fs.img
truncate -s 64M "$img"
if ! "$MKFS" -q -f "$img" >"$WORK/mkfs.out" 2>&1; then
	fail setup "mkfs failed: $(snippet "$WORK/mkfs.out")"
	finish
fi
# a sound undo journal, for f2fs_undo's refusals of busy devices
cp "$img" "$WORK/journaled.img"
if ! "$INJECT" -z "$WORK/any.undo" --node --nid 3 --mb i_links --val 1 "$WORK/journaled.img" \
	>"$WORK/inject.out" 2>&1; then
	fail setup "inject -z failed: $(snippet "$WORK/inject.out")"
	finish
fi

# refuse NAME CODE REGEX -- CMD...: expect_refusal, and exit status CODE.
refuse() {
	local name=$1 code=$2 regex=$3
	shift 3
	expect_refusal "$name" "$regex" "$@" || return 1
	if [ "$RC" -ne "$code" ]; then
		fail "$name" "exit $RC, expected $code"
		return 1
	fi
}

# stderr_is NAME REGEX...: the last command's stderr is exactly one line per
# REGEX (extended, case-sensitive), in order; else FAIL NAME and return 1.
stderr_is() {
	local name=$1 i=0 line
	shift
	if [ "$(wc -l <"$WORK/last.err")" -ne $# ]; then
		fail "$name" "stderr has $(wc -l <"$WORK/last.err") lines, expected $#: $(snippet "$WORK/last.err" 400)"
		return 1
	fi
	while IFS= read -r line; do
		i=$((i + 1))
		if ! grep -Eq -e "${!i}" <<<"$line"; then
			fail "$name" "stderr line $i does not match /${!i}/: $line"
			return 1
		fi
	done <"$WORK/last.err"
}

# --- targets that are not an F2FS volume ---------------------------------

: >"$WORK/empty"
head -c 100 /dev/zero >"$WORK/b100"
head -c 4096 /dev/zero >"$WORK/zero4k"
truncate -s 1M "$WORK/zero1m"
mkdir "$WORK/dir"
mkfifo "$WORK/fifo"
# an MBR with one Linux partition at sector 2048 of 4096 sectors
truncate -s 4M "$WORK/mbr.img"
printf '\203\000\000\000\000\010\000\000\000\020\000\000' |
	dd of="$WORK/mbr.img" bs=1 seek=450 conv=notrunc 2>/dev/null
printf '\125\252' | dd of="$WORK/mbr.img" bs=1 seek=510 conv=notrunc 2>/dev/null
have_ext4=
if command -v mkfs.ext4 >/dev/null 2>&1; then
	truncate -s 16M "$WORK/ext4.img"
	mkfs.ext4 -q -F "$WORK/ext4.img" >/dev/null 2>&1 && have_ext4=1
fi

not_file='not a regular file or block device'
short='too short for an F2FS superblock'
# bad_targets TOOL CODE CMD...: CMD with each bad target appended.
bad_targets() {
	local tool=$1 code=$2
	shift 2
	refuse "$tool/dev-null" "$code" "^$tool.f2fs: /dev/null: is a character device, $not_file\$" -- "$@" /dev/null
	REFUSE_IMAGE=$WORK/empty refuse "$tool/empty-file" "$code" "$short \(0 bytes" -- "$@" "$WORK/empty"
	REFUSE_IMAGE=$WORK/b100 refuse "$tool/100-byte-file" "$code" "$short \(100 bytes" -- "$@" "$WORK/b100"
	REFUSE_IMAGE=$WORK/zero4k refuse "$tool/4k-zero-file" "$code" "$short \(4096 bytes" -- "$@" "$WORK/zero4k"
	REFUSE_IMAGE=$WORK/zero1m refuse "$tool/1m-zero-file" "$code" 'superblock: both copies invalid: #0: magic 0x00000000' -- "$@" "$WORK/zero1m"
	REFUSE_IMAGE=$WORK/dir refuse "$tool/directory" "$code" ": is a directory, $not_file\$" -- "$@" "$WORK/dir"
	# no REFUSE_IMAGE: reading a FIFO to fingerprint it would block
	refuse "$tool/fifo" "$code" ": is a FIFO, $not_file\$" -- "$@" "$WORK/fifo"
	REFUSE_IMAGE=$WORK/absent refuse "$tool/nonexistent" "$code" ': cannot open: No such file or directory$' -- "$@" "$WORK/absent"
	REFUSE_IMAGE=$WORK/mbr.img refuse "$tool/partition-table" "$code" ': holds a dos partition table, not a filesystem: give one of its partitions$' -- "$@" "$WORK/mbr.img"
	if [ -n "$have_ext4" ]; then
		REFUSE_IMAGE=$WORK/ext4.img refuse "$tool/ext4-image" "$code" ': holds an ext4 filesystem, not F2FS' -- "$@" "$WORK/ext4.img"
	else
		skip "$tool/ext4-image" "no mkfs.ext4"
	fi
}
bad_targets fsck 8 "$FSCK" -n
bad_targets dump 1 "$DUMP"
bad_targets inject 1 "$INJECT" --sb 1 --mb block_count --val 5
# what the issue saw: inject zeroing an ext4 magic, and writing a 4 KiB file
if [ -n "$have_ext4" ]; then
	REFUSE_IMAGE=$WORK/ext4.img refuse inject/ext4-magic 1 'refusing without --force: holds an ext4 filesystem, not F2FS$' -- \
		"$INJECT" --sb 1 --mb magic --val 0 "$WORK/ext4.img"
fi
REFUSE_IMAGE=$WORK/zero4k refuse inject/4k-zero-file-force 1 "$short" -- \
	"$INJECT" --force --sb 1 --mb block_count --val 5 "$WORK/zero4k"
REFUSE_IMAGE=$WORK/zero1m refuse inject/1m-zero-file-dry-run 1 'refusing without --force: superblock: both copies invalid' -- \
	"$INJECT" --dry-run --sb 1 --mb block_count --val 5 "$WORK/zero1m"

# --- inject --force: mending and damaging a volume that does not open -----

# run_ok NAME CMD...: the command must exit 0.
run_ok() {
	local name=$1
	shift
	run_cmd "$@"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "exit $RC: $(snippet "$WORK/last.err")"
		return 1
	fi
}

force_cases() {
	local d=$WORK/damaged.img before
	cp "$img" "$d"
	# one bad copy: the volume still opens through the other, no --force needed
	run_ok force/one-copy-bad "$INJECT" --sb 1 --mb magic --val 0 "$d" &&
		run_ok force/one-copy-bad "$INJECT" --sb 2 --mb magic --val 0 "$d" &&
		pass force/one-copy-bad
	REFUSE_IMAGE=$d refuse force/needed 1 'refusing without --force: superblock: both copies invalid' -- \
		"$INJECT" --sb 1 --mb magic --val 0xf2f52010 "$d"
	REFUSE_IMAGE=$d refuse force/sb-only 1 'both copies invalid.*\(--force applies to --sb only\)$' -- \
		"$INJECT" --force --cp 1 --mb checkpoint_ver --val 1 "$d"
	before=$(fingerprint "$d")
	if run_ok force/dry-run "$INJECT" --force --dry-run --sb 1 --mb magic --val 0xf2f52010 "$d"; then
		if [ "$(fingerprint "$d")" != "$before" ]; then
			fail force/dry-run "--dry-run wrote to the image"
		elif ! grep -q '^Info: --force: .*both copies invalid.*; writing anyway$' "$WORK/last.out"; then
			fail force/dry-run "no --force Info line: $(snippet "$WORK/last.out")"
		else
			pass force/dry-run
		fi
	fi
	if run_ok force/mends "$INJECT" --force --sb 1 --mb magic --val 0xf2f52010 "$d"; then
		run_cmd "$FSCK" -n "$d"
		if [ "$RC" -ne 4 ] || ! grep -q PR_SB_INVALID "$WORK/last.out"; then
			fail force/mends "fsck after mending sb 1: exit $RC, expected 4 with PR_SB_INVALID"
		else
			pass force/mends
		fi
	fi
	# the rest needs no --force, and leaves the image as it was made
	if run_ok force/restored "$INJECT" --sb 2 --mb magic --val 0xf2f52010 "$d"; then
		if cmp -s "$d" "$img"; then pass force/restored; else fail force/restored "image differs from the original"; fi
	fi
	# --force changes nothing on a volume that opens
	cp "$img" "$d"
	if run_ok force/valid-volume "$INJECT" --force --node --nid 3 --mb i_links --val 1 "$d"; then
		if grep -q -- '--force' "$WORK/last.out"; then fail force/valid-volume "--force spoke on a valid volume"; else pass force/valid-volume; fi
	fi
}
force_cases

# --- busy devices (root, loop devices) ------------------------------------

# need_loops: empty when loop devices can be used, else the reason.
need_loops() {
	[ "$(id -u)" -eq 0 ] || { echo "not root"; return; }
	command -v losetup >/dev/null 2>&1 || { echo "no losetup"; return; }
	local l
	if ! l=$(losetup -f --show "$img" 2>&1); then
		echo "losetup failed: $l"
		return
	fi
	losetup -d "$l"
}

# attach FILE: set LOOP to a loop device now backing FILE (detached at exit).
# Not for $(...): the cleanup must be registered in this shell.
attach() {
	LOOP=$(losetup -f --show "$1") || return 1
	at_exit "losetup -d '$LOOP'"
}

# Refusals of every writing mode on a busy device DEV (DESC: what is said).
refuse_writers() {
	local group=$1 dev=$2 desc=$3 m
	for m in -y -a -p -f '' '-O encrypt'; do
		REFUSE_IMAGE=$dev refuse "$group/fsck${m:--plain}" 8 "^fsck.f2fs: $dev: $desc: refusing a run that may repair it \(-n checks without writing\)\$" -- \
			"$FSCK" $m "$dev"
	done
	REFUSE_IMAGE=$dev refuse "$group/inject" 1 "^inject.f2fs: $dev: $desc: refusing to write to it\$" -- \
		"$INJECT" --sb 1 --mb magic --val 0 "$dev"
	REFUSE_IMAGE=$dev refuse "$group/inject-force" 1 "^inject.f2fs: $dev: $desc: refusing to write to it\$" -- \
		"$INJECT" --force --sb 1 --mb magic --val 0 "$dev"
	REFUSE_IMAGE=$dev refuse "$group/inject-dry-run" 1 "^inject.f2fs: $dev: $desc: refusing to write to it\$" -- \
		"$INJECT" --dry-run --node --nid 3 --mb i_links --val 1 "$dev"
	REFUSE_IMAGE=$dev refuse "$group/f2fs_undo" 1 "^f2fs_undo: $dev: $desc: refusing to write to it\$" -- \
		"$UNDO" "$WORK/any.undo" "$dev"
	REFUSE_IMAGE=$dev refuse "$group/f2fslabel" 1 "^f2fslabel: $dev: $desc: refusing to write to it\$" -- \
		"$LABEL" "$dev" newlabel
	REFUSE_IMAGE=$dev refuse "$group/defrag" 1 "^defrag.f2fs: $dev: $desc: refusing to write to it\$" -- \
		"$DEFRAG" "$dev"
}

# settled_sum DEV: the checksum of DEV once the kernel has stopped writing to
# it (ext4 finishes initialising a freshly mounted filesystem in the background).
settled_sum() {
	local prev='' cur i
	for i in $(seq 20); do
		sync
		cur=$(sha256sum <"$1")
		[ "$cur" = "$prev" ] && break
		prev=$cur
		sleep 1
	done
	echo "$cur"
}

mounted_cases() {
	local ext4=$WORK/mounted-ext4.img mnt=$WORK/mnt loop sum
	truncate -s 16M "$ext4"
	# no lazy initialisation: the kernel must not write behind our back
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$ext4" >/dev/null 2>&1
	mkdir "$mnt"
	attach "$ext4" || { skip mounted "losetup failed"; return; }
	loop=$LOOP
	if ! mount "$loop" "$mnt" 2>"$WORK/mount.err"; then
		skip mounted "mount failed: $(snippet "$WORK/mount.err")"
		return
	fi
	at_exit "mountpoint -q '$mnt' && umount '$mnt'"
	# frozen, the filesystem stays mounted read-write but the kernel writes
	# nothing (ext4 updates its superblock now and then), so any change is ours
	command -v fsfreeze >/dev/null 2>&1 && fsfreeze -f "$mnt" 2>/dev/null &&
		at_exit "fsfreeze -u '$mnt'"
	sum=$(settled_sum "$loop")
	refuse_writers mounted "$loop" "mounted at $mnt"
	REFUSE_IMAGE=$ext4 refuse mounted/inject-image-file 1 "^inject.f2fs: $ext4: mounted at $mnt through $loop: refusing to write to it\$" -- \
		"$INJECT" --sb 1 --mb magic --val 0 "$ext4"
	# a read-only check warns, then says what is there
	run_cmd "$FSCK" -n "$loop"
	[ "$RC" -eq 8 ] && stderr_is mounted/fsck-n "^fsck.f2fs: warning: $loop: mounted at $mnt: the result may be stale\$" \
		"^fsck.f2fs: $loop: holds an ext4 filesystem, not F2FS\$" && pass mounted/fsck-n
	[ "$RC" -eq 8 ] || fail mounted/fsck-n "exit $RC, expected 8"
	run_cmd "$DUMP" "$ext4"
	[ "$RC" -eq 1 ] && stderr_is mounted/dump-image-file "^dump.f2fs: warning: $ext4: mounted at $mnt through $loop: the result may be stale\$" \
		"holds an ext4 filesystem, not F2FS\$" && pass mounted/dump-image-file
	[ "$RC" -eq 1 ] || fail mounted/dump-image-file "exit $RC, expected 1"
	# mkfs's own refusal still names the mount
	REFUSE_IMAGE=$loop refuse mounted/mkfs 1 "^mkfs.f2fs: $loop is mounted or in use \($mnt\): not formatting it\$" -- "$MKFS" -f "$loop"
	# read-only: a repairing fsck only checks, inject still refuses
	if [ "$(sha256sum <"$loop")" = "$sum" ]; then pass mounted/unchanged; else fail mounted/unchanged "the mounted device changed"; fi
	fsfreeze -u "$mnt" 2>/dev/null
	if mount -o remount,ro "$mnt" 2>"$WORK/mount.err"; then
		sum=$(settled_sum "$loop")
		run_cmd "$FSCK" -y "$loop"
		[ "$RC" -eq 8 ] && stderr_is mounted-ro/fsck-y "^fsck.f2fs: warning: $loop: mounted read-only at $mnt: checking only, nothing will be repaired\$" \
			"holds an ext4 filesystem, not F2FS\$" && pass mounted-ro/fsck-y
		[ "$RC" -eq 8 ] || fail mounted-ro/fsck-y "exit $RC, expected 8"
		REFUSE_IMAGE=$loop refuse mounted-ro/inject 1 "^inject.f2fs: $loop: mounted read-only at $mnt: refusing to write to it\$" -- \
			"$INJECT" --sb 1 --mb magic --val 0 "$loop"
		if [ "$(sha256sum <"$loop")" = "$sum" ]; then pass mounted-ro/unchanged; else fail mounted-ro/unchanged "the mounted device changed"; fi
	else
		skip mounted-ro "remount,ro failed: $(snippet "$WORK/mount.err")"
	fi
	if ! umount "$mnt" 2>"$WORK/mount.err"; then
		fail mounted/umount "$(snippet "$WORK/mount.err")"
		return
	fi
	if e2fsck -fn "$ext4" >"$WORK/e2fsck.out" 2>&1; then
		pass mounted/e2fsck-clean
	else
		fail mounted/e2fsck-clean "e2fsck -fn: $(grep -v '^Pass' "$WORK/e2fsck.out" | head -3)"
	fi
}

# A program that holds a device open with O_EXCL, as a mount does, until killed.
build_holder() {
	command -v cc >/dev/null 2>&1 || return 1
	cat >"$WORK/holder.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2 || open(argv[1], O_RDONLY | O_EXCL) < 0) {
		perror("holder");
		return 1;
	}
	puts("held");
	fflush(stdout);
	for (;;)
		pause();
}
EOF
	cc -o "$WORK/holder" "$WORK/holder.c" 2>"$WORK/cc.err"
}

held_cases() {
	local loop pid i m target before
	if ! build_holder; then
		skip held "cannot build the holder program (no cc?): $(snippet "$WORK/cc.err" 2>/dev/null)"
		return
	fi
	attach "$img" || { skip held "losetup failed"; return; }
	loop=$LOOP
	"$WORK/holder" "$loop" >"$WORK/holder.out" 2>&1 &
	pid=$!
	at_exit "kill $pid; wait $pid"
	for i in $(seq 50); do
		grep -q held "$WORK/holder.out" && break
		sleep 0.1
	done
	if ! grep -q held "$WORK/holder.out"; then
		fail held/setup "the holder did not start: $(snippet "$WORK/holder.out")"
		return
	fi
	before=$(fingerprint "$img")
	local desc='in use by the system \(held open exclusively\)'
	refuse_writers held "$loop" "$desc"
	REFUSE_IMAGE=$img refuse held/inject-image-file 1 "^inject.f2fs: $img: in use by the system through $loop \(held open exclusively\): refusing to write to it\$" -- \
		"$INJECT" --sb 1 --mb magic --val 0 "$img"
	# -n: one warning line, then the normal verdict
	cp "$img" "$WORK/ref.img"
	"$FSCK" -n "$WORK/ref.img" 2>/dev/null | grep -v '^Done:' >"$WORK/ref-n.out"
	cp "$WORK/ref-n.out" "$WORK/ref-N.out"
	{ echo 'Info: Dry run'; cat "$WORK/ref-n.out"; } >"$WORK/ref--dry-run.out"
	for m in -n -N --dry-run; do
		run_cmd "$FSCK" $m "$loop"
		grep -v '^Done:' "$WORK/last.out" >"$WORK/held.out"
		if [ "$RC" -ne 0 ]; then
			fail "held/fsck$m" "exit $RC, expected 0: $(snippet "$WORK/last.err")"
		elif stderr_is "held/fsck$m" "^fsck.f2fs: warning: $loop: $desc: the result may be stale\$"; then
			if diff -q "$WORK/ref$m.out" "$WORK/held.out" >/dev/null; then pass "held/fsck$m"; else fail "held/fsck$m" "the verdict differs from a check of the free image"; fi
		fi
	done
	run_cmd "$FSCK" -n --quiet "$loop"
	if [ "$RC" -eq 0 ] && [ ! -s "$WORK/last.err" ] && [ ! -s "$WORK/last.out" ]; then pass held/fsck-quiet; else fail held/fsck-quiet "exit $RC, stderr: $(snippet "$WORK/last.err")"; fi
	for target in "$loop" "$img"; do
		local via='' name=held/dump-device
		[ "$target" = "$img" ] && via=" through $loop" name=held/dump-image-file
		run_cmd "$DUMP" "$target"
		if [ "$RC" -ne 0 ]; then
			fail $name "exit $RC: $(snippet "$WORK/last.err")"
		elif stderr_is $name "^dump.f2fs: warning: $target: in use by the system$via \(held open exclusively\): the result may be stale\$"; then
			if grep -q '^Info: checkpoint state = ' "$WORK/last.out"; then pass $name; else fail $name "no dump output"; fi
		fi
	done
	REFUSE_IMAGE=$img refuse held/mkfs 1 "^mkfs.f2fs: $loop is mounted or in use \(in use by another program\): not formatting it\$" -- "$MKFS" -f "$loop"
	if [ "$(fingerprint "$img")" = "$before" ]; then pass held/unchanged; else fail held/unchanged "the image was written"; fi
}

no_loops=$(need_loops)
if [ -n "$no_loops" ]; then
	skip mounted "$no_loops"
	skip held "$no_loops"
elif [ -z "$have_ext4" ]; then
	skip mounted "no mkfs.ext4"
	held_cases
else
	mounted_cases
	held_cases
fi
# --- an image file another program writes (its exclusive flock) ------------

# Every writer of an image file holds an exclusive flock on it for its run
# (O_EXCL means nothing for a regular file): a second writer is refused with
# one line naming the holder, a reader warns.  flock(1) stands for the
# first writer here.
lock_cases() {
	local d=$WORK/locked.img desc holder
	command -v flock >/dev/null 2>&1 || { skip locked "no flock(1)"; return; }
	cp "$img" "$d"
	flock -o -x "$d" sleep 60 &
	holder=$!
	at_exit "kill $holder 2>/dev/null"
	for _ in $(seq 50); do
		grep -q FLOCK /proc/locks && break
		sleep 0.1
	done
	desc="being written by another program, pid [0-9]+ \\([a-z]+\\) \\(it holds the image's lock\\)"
	refuse_writers locked "$d" "$desc"
	REFUSE_IMAGE=$d refuse locked/mkfs 1 "^mkfs.f2fs: $d is mounted or in use \\(written by another program, pid [0-9]+ \\([a-z]+\\)\\): not formatting it\$" -- "$MKFS" -f "$d"
	REFUSE_IMAGE=$d refuse locked/sload 1 "^sload.f2fs: $d: $desc: refusing to write to it\$" -- \
		"${OUR_SLOAD:-$TOP/sload/sload.f2fs}" -f "$WORK" "$d"
	REFUSE_IMAGE=$d refuse locked/replay 1 "^f2fs_io replay: $d: $desc: refusing to write to it\$" -- \
		"$TOP/tools/f2fs_io/f2fs_io" replay seqwrite "$d"
	run_cmd "$FSCK" -n "$d"
	if [ "$RC" -eq 0 ] && grep -Eq "^fsck.f2fs: warning: $d: $desc: the result may be stale\$" "$WORK/last.err"; then
		pass locked/fsck-n-warns
	else
		fail locked/fsck-n-warns "exit $RC: $(snippet "$WORK/last.err")"
	fi
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	run_cmd "$FSCK" -y "$d"
	if [ "$RC" -eq 0 ]; then pass locked/free-again; else fail locked/free-again "fsck -y exit $RC once the lock is gone"; fi
}
lock_cases

finish
