#!/bin/sh
# Guest job: the reserved and overprovisioned space mkfs gave must let the
# kernel reclaim space on a nearly full volume.  Fill the volume on /dev/vda
# with GC_FILE_KIB (default 1024) files up to GC_FILL_PERCENT (default 95) of
# the space df shows available when it is fresh, then rewrite random files
# (a new copy under a temporary name, renamed over the old one) until
# GC_REWRITE_PERCENT (default 200) of that space has been written again.
# Each rewrite lands in new blocks and frees the old ones wherever they are,
# so the free sections run out and the kernel must reclaim space (garbage
# collection, or slack space recycling into the holes of dirty segments) to
# go on.  No write may fail while df shows the room for it; afterwards
# every file must read back as written, the volume must unmount and mount
# again without a complaint, and the kernel must have reclaimed space (its
# counters are printed as "gc-fill: stats").
#
# Rewriting in place instead would prove nothing: this kernel updates
# overwritten blocks in place by default (ipu_policy), and with mode=lfs,
# where it cannot, a 95% full volume with 256 MiB sections spends most of
# its time moving nearly full sections (measured: 256 MiB of 1 MiB random
# overwrites took 640 s).  GC_MOUNT_OPTS adds mount options.  Busybox sh.

JOB_NAME=gc-fill
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

FILL=${GC_FILL_PERCENT:-95}
REWRITE=${GC_REWRITE_PERCENT:-200}
FILE_KIB=${GC_FILE_KIB:-1024}
MOUNT_OPTS=${GC_MOUNT_OPTS:-}
PATTERN_KIB=65536
PATTERN=/tmp/pattern
SUMS=/tmp/sums
DATA=$MNT/data
SYSFS=/sys/fs/f2fs/vda
STATUS=/sys/kernel/debug/f2fs/status

avail_kib() {
	df -k "$MNT" | awk 'NR == 2 { print $4 }'
}

sysfs() {
	cat "$SYSFS/$1" 2>/dev/null || echo 0
}

# Blocks written by slack space recycling so far.
ssr_blocks() {
	awk '/^SSR:/ { print $2; found = 1 } END { if (!found) print 0 }' "$STATUS" 2>/dev/null
}

# 64 MiB whose every 4 KiB block is distinct (a 16-byte header with the
# block number and a fixed body), and the checksum of each file-sized piece.
make_pattern() {
	awk 'BEGIN {
		b = "0123456789abcdef"
		while (length(b) < 4096)
			b = b b
		b = substr(b, 1, 4080)
		for (n = 0; n < 16384; n++)
			printf "%015d\n%s", n, b
	}' >"$PATTERN" || fail "generating the pattern failed"
	[ "$(stat -c %s "$PATTERN")" = $((PATTERN_KIB * 1024)) ] || fail "pattern has the wrong size"
	pieces=$((PATTERN_KIB / FILE_KIB))
	p=0
	: >"$SUMS"
	while [ "$p" -lt "$pieces" ]; do
		dd if="$PATTERN" bs="${FILE_KIB}k" skip="$p" count=1 2>/dev/null | md5sum >>"$SUMS"
		p=$((p + 1))
	done
}

# A write failed: say how much room df showed, which is the point.
write_failed() {
	fail "$1 failed with $(avail_kib) KiB available in df: $(head -n 1 /tmp/dd.err)"
}

# write_file I NAME: file I's content (pattern piece I mod pieces) into NAME.
write_file() {
	dd if="$PATTERN" of="$2" bs="${FILE_KIB}k" skip=$(($1 % pieces)) count=1 2>/tmp/dd.err &&
		[ "$(stat -c %s "$2")" = $((FILE_KIB * 1024)) ]
}

fill() {
	nfiles=$(($1 / FILE_KIB))
	i=0
	while [ "$i" -lt "$nfiles" ]; do
		write_file "$i" "$DATA/f$i" || write_failed "writing f$i of $nfiles"
		i=$((i + 1))
	done
	written=$((nfiles * FILE_KIB))
	sync || fail "sync after the fill failed"
}

progress() {
	step "$1: $(avail_kib) KiB available, free segments $(sysfs free_segments)," \
		"GC reclaimed $(sysfs gc_reclaimed_segments) segments, SSR $(ssr_blocks) blocks"
}

# Replace random files with new copies until $1 KiB are written.
rewrite() {
	total=$1
	done_kib=0
	r=12345
	while [ "$done_kib" -lt "$total" ]; do
		r=$(((r * 1103515245 + 12345) % 2147483648))
		i=$((r / 16 % nfiles))
		write_file "$i" "$DATA/new" || write_failed "rewriting f$i at $done_kib KiB of $total"
		mv "$DATA/new" "$DATA/f$i" 2>/tmp/dd.err || write_failed "renaming over f$i"
		done_kib=$((done_kib + FILE_KIB))
		[ $((done_kib % (512 * 1024))) -lt "$FILE_KIB" ] && progress "rewritten $done_kib of $total KiB"
	done
	sync || fail "sync after the rewrites failed"
}

# Every file must read back as written: one md5sum over all of them.
verify() {
	(cd "$DATA" && md5sum f*) >/tmp/got || fail "reading the files back failed $1"
	[ "$(wc -l </tmp/got)" -eq "$nfiles" ] || fail "$(wc -l </tmp/got) files instead of $nfiles $1"
	bad=$(awk -v pieces="$pieces" 'NR == FNR { sum[NR - 1] = $1; next }
		{ i = substr($2, 2) + 0; if ($1 != sum[i % pieces]) { print $2; exit } }' "$SUMS" /tmp/got)
	[ -z "$bad" ] || fail "$bad does not read back as written $1"
}

# mount_gc WHAT: mount /dev/vda (with GC_MOUNT_OPTS) and check dmesg.
mount_gc() {
	mount -t f2fs ${MOUNT_OPTS:+-o "$MOUNT_OPTS"} /dev/vda "$MNT" || fail "mount ($1) failed"
	grep -q "^/dev/vda $MNT f2fs rw" /proc/mounts || fail "/dev/vda not mounted rw ($1)"
	check_dmesg "after $1"
}

step "mount${MOUNT_OPTS:+ -o $MOUNT_OPTS}"
mount_gc "first mount"
mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -r "$STATUS" ] || fail "no $STATUS: cannot count slack space recycling"
avail0=$(avail_kib)
[ "$avail0" -gt $((256 * FILE_KIB)) ] || fail "only $avail0 KiB available on a fresh volume"
mkdir "$DATA" || fail "mkdir $DATA failed"
step "fresh: $avail0 KiB available, $(sysfs free_segments) free segments, ovp $(sysfs ovp_segments) segments"
make_pattern

step "filling $FILL% of $avail0 KiB with $FILE_KIB KiB files"
fill $((avail0 * FILL / 100))
progress "filled $written KiB in $nfiles files"

step "rewriting $REWRITE% of $avail0 KiB"
rewrite $((avail0 * REWRITE / 100))
check_dmesg "after the rewrites"
reclaimed=$(sysfs gc_reclaimed_segments)
ssr=$(ssr_blocks)
echo "gc-fill: stats avail0=${avail0}KiB fill=${written}KiB files=$nfiles rewritten=${done_kib}KiB" \
	"free_segments=$(sysfs free_segments) gc_fg_calls=$(sysfs gc_foreground_calls)" \
	"gc_bg_calls=$(sysfs gc_background_calls) gc_reclaimed_segments=$reclaimed" \
	"moved_blocks=$(($(sysfs moved_blocks_foreground) + $(sysfs moved_blocks_background)))" \
	"ssr_blocks=$ssr"
# The point: the kernel had to reuse space, by collecting it or recycling it.
[ "$reclaimed" -gt 0 ] || [ "$ssr" -gt 0 ] ||
	fail "the kernel reclaimed nothing: neither GC nor SSR ran, so the test proved nothing"
umount_dev "umount after the rewrites"

step "second mount"
mount_gc "second mount"
step "verifying"
verify "after remount"
umount_dev "second umount"

step "done"
echo "@@JOB-OK@@"
