#!/bin/bash
# mkfs.f2fs must refuse bad input: exit non-zero with one line on stderr
# saying why, and leave the target untouched.  Option errors are tried with
# -f on a writable, large-enough image full of a non-zero pattern, so that
# only the bad option stands between mkfs and a write.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

pat=$WORK/pattern.img
make_pattern_image "$pat" $((64 << 20))

# --- the device argument ---------------------------------------------------

expect_refusal missing-device 'no device' -- "$MKFS" -f
expect_refusal missing-device-quiet 'no device' -- "$MKFS" -q -f

REFUSE_IMAGE=$WORK/absent.img \
	expect_refusal nonexistent-device 'cannot open.*(no such file|does not exist)' -- \
	"$MKFS" -f "$WORK/absent.img"

mkdir "$WORK/dir"
REFUSE_IMAGE=$WORK/dir expect_refusal directory 'directory' -- "$MKFS" -f "$WORK/dir"

REFUSE_IMAGE=$pat expect_refusal trailing-argument "unexpected argument.*extra" -- \
	"$MKFS" -f "$pat" 100 extra
REFUSE_IMAGE=$pat expect_refusal sectors-not-a-number "sectors.*'abc'" -- "$MKFS" -f "$pat" abc
REFUSE_IMAGE=$pat expect_refusal sectors-zero "sectors.*'0'" -- "$MKFS" -f "$pat" 0
REFUSE_IMAGE=$pat expect_refusal sectors-beyond-device "131072 sectors.*fewer.*999999999" -- \
	"$MKFS" -f "$pat" 999999999

# --- too small, and the stated minimum is the real one -------------------

# check_minimum NAME OPTS...: LAST_STDERR names "at least N MiB"; an N MiB
# image must be accepted with the same options.
check_minimum() {
	local name=$1 n
	shift
	n=$(sed -nE 's/.*at least ([0-9]+) MiB.*/\1/p' <<<"$LAST_STDERR")
	if [ -z "$n" ]; then
		fail "$name" "no minimum found in: $LAST_STDERR"
		return
	fi
	rm -f "$WORK/min.img"
	truncate -s "${n}M" "$WORK/min.img"
	run_cmd "$MKFS" -q -f "$@" "$WORK/min.img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "the stated minimum $n MiB is refused: $(snippet "$WORK/last.err")"
	else
		pass "$name"
	fi
	rm -f "$WORK/min.img"
}

truncate -s 20M "$WORK/small.img"
REFUSE_IMAGE=$WORK/small.img expect_refusal too-small-20M 'too small.*need at least [0-9]+ MiB' -- \
	"$MKFS" -f "$WORK/small.img" &&
	check_minimum too-small-20M-minimum-accepted
truncate -s 1G "$WORK/1g.img"
REFUSE_IMAGE=$WORK/1g.img expect_refusal too-small-1G-s128 'too small.*need at least [0-9]+ MiB' -- \
	"$MKFS" -f -s 128 "$WORK/1g.img" &&
	check_minimum too-small-1G-s128-minimum-accepted -s 128
rm -f "$WORK/small.img" "$WORK/1g.img"

# --- option values -----------------------------------------------------------

REFUSE_IMAGE=$pat expect_refusal segs-per-sec-0 "-s.*'0'.*1 to 512" -- "$MKFS" -f -s 0 "$pat"
REFUSE_IMAGE=$pat expect_refusal segs-per-sec-1000 "-s.*'1000'.*1 to 512" -- "$MKFS" -f -s 1000 "$pat"
REFUSE_IMAGE=$pat expect_refusal segs-per-sec-abc "-s.*'abc'" -- "$MKFS" -f -s abc "$pat"
REFUSE_IMAGE=$pat expect_refusal segs-per-sec-4x "-s.*'4x'" -- "$MKFS" -f -s 4x "$pat"
REFUSE_IMAGE=$pat expect_refusal secs-per-zone-0 "-z.*'0'.*1 to 4096" -- "$MKFS" -f -z 0 "$pat"
REFUSE_IMAGE=$pat expect_refusal overprovision-101 "-o.*'101'.*0 to 100" -- "$MKFS" -f -o 101 "$pat"
REFUSE_IMAGE=$pat expect_refusal sector-size-1000 "-w.*'1000'.*power of two" -- "$MKFS" -f -w 1000 "$pat"
REFUSE_IMAGE=$pat expect_refusal heap-2 "-a.*'2'" -- "$MKFS" -f -a 2 "$pat"
REFUSE_IMAGE=$pat expect_refusal uuid-garbage "-U.*not a UUID" -- "$MKFS" -f -U garbage "$pat"

# --- labels: at most 512 UTF-16 units ------------------------------------------

rep() { # rep STRING COUNT
	local s='' i
	for ((i = 0; i < $2; i++)); do s+=$1; done
	printf '%s' "$s"
}
emoji=$'\xf0\x9f\x98\x80' # U+1F600: 4 bytes of UTF-8, 2 UTF-16 units

REFUSE_IMAGE=$pat expect_refusal label-513-ascii 'label.*too long.*512' -- \
	"$MKFS" -f -l "$(rep a 513)" "$pat"
REFUSE_IMAGE=$pat expect_refusal label-300-emoji-600-units 'label.*too long.*512' -- \
	"$MKFS" -f -l "$(rep "$emoji" 300)" "$pat"
REFUSE_IMAGE=$pat expect_refusal label-invalid-utf8 'label.*UTF-8' -- "$MKFS" -f -l $'ab\xffcd' "$pat"

# label_accepted NAME LABEL: formatting succeeds and the superblock's
# volume_name (1024 bytes at offset 1024 + 124) holds LABEL in UTF-16LE.
label_accepted() {
	local name=$1 label=$2 want got
	rm -f "$WORK/label.img"
	truncate -s 64M "$WORK/label.img"
	run_cmd "$MKFS" -q -f -l "$label" "$WORK/label.img"
	if [ "$RC" -ne 0 ]; then
		fail "$name" "refused (rc=$RC): $(snippet "$WORK/last.err")"
		return
	fi
	want=$({ printf '%s' "$label" | iconv -f UTF-8 -t UTF-16LE
		head -c 1024 /dev/zero; } | head -c 1024 | sha256sum)
	got=$(tail -c +$((1024 + 124 + 1)) "$WORK/label.img" | head -c 1024 | sha256sum)
	if [ "$want" != "$got" ]; then
		fail "$name" "superblock volume_name differs from the label in UTF-16LE"
	else
		pass "$name"
	fi
	rm -f "$WORK/label.img"
}
label_accepted label-512-ascii-accepted "$(rep a 512)"
label_accepted label-256-emoji-512-units-accepted "$(rep "$emoji" 256)"

# --- features ------------------------------------------------------------------

REFUSE_IMAGE=$pat expect_refusal unknown-feature 'unknown feature.*bogus' -- \
	"$MKFS" -f -O bogus "$pat"
REFUSE_IMAGE=$pat expect_refusal unknown-feature-in-list 'unknown feature.*bogus' -- \
	"$MKFS" -f -O extra_attr,bogus "$pat"
REFUSE_IMAGE=$pat expect_refusal feature-needs-extra-attr 'project_quota.*extra_attr' -- \
	"$MKFS" -f -O project_quota "$pat"
REFUSE_IMAGE=$pat expect_refusal unknown-casefold-encoding "encoding.*'bogus'" -- \
	"$MKFS" -f -C bogus "$pat"

# --- command-line syntax ---------------------------------------------------------

REFUSE_IMAGE=$pat expect_refusal unknown-option 'unknown option.*-Y' -- "$MKFS" -f -Y "$pat"
REFUSE_IMAGE=$pat expect_refusal unknown-long-option 'unknown option.*bogus' -- \
	"$MKFS" -f --bogus "$pat"
REFUSE_IMAGE=$pat expect_refusal missing-option-value 'option -s requires (a|an) (value|argument)' -- \
	"$MKFS" -f "$pat" -s

# --- existing file systems without -f ---------------------------------------------

if have_upstream mkfs; then
	truncate -s 64M "$WORK/f2fs.img"
	if "$UPSTREAM_MKFS" -q -f "$WORK/f2fs.img" >/dev/null 2>&1; then
		REFUSE_IMAGE=$WORK/f2fs.img expect_refusal existing-f2fs-without-f 'existing.*f2fs.*-f' -- \
			"$MKFS" "$WORK/f2fs.img"
	else
		skip existing-f2fs-without-f "upstream mkfs.f2fs failed on a 64 MiB image"
	fi
	rm -f "$WORK/f2fs.img"
else
	skip existing-f2fs-without-f "no upstream mkfs.f2fs at $UPSTREAM_MKFS"
fi

ext4=$WORK/ext4.img
have_ext4=0
if command -v mkfs.ext4 >/dev/null 2>&1; then
	truncate -s 64M "$ext4"
	mkfs.ext4 -q -F "$ext4" >/dev/null 2>&1 && have_ext4=1
fi
if [ $have_ext4 -eq 1 ]; then
	REFUSE_IMAGE=$ext4 expect_refusal existing-ext4-without-f 'existing.*ext4.*-f' -- "$MKFS" "$ext4"
else
	skip existing-ext4-without-f "mkfs.ext4 is not available or failed"
fi

# --- a mounted file system (root and working loop devices only) --------------------

mounted_cases() {
	local mnt=$WORK/mnt dev why
	if [ $have_ext4 -ne 1 ]; then
		why="no ext4 image"
	elif [ "$(id -u)" -ne 0 ]; then
		why="not running as root"
	else
		mkdir -p "$mnt"
		# noinit_itable: no lazy inode-table zeroing writing to the image
		# while it is fingerprinted.
		if ! why=$(mount -o loop,noinit_itable "$ext4" "$mnt" 2>&1); then
			why="mount -o loop failed: ${why:-no message}"
		else
			why=
			at_exit "mountpoint -q '$mnt' && umount '$mnt'"
		fi
	fi
	if [ -n "$why" ]; then
		skip mounted-image-file "$why"
		skip mounted-loop-device "$why"
		return
	fi
	sync
	dev=$(findmnt -n -o SOURCE --mountpoint "$mnt" 2>/dev/null)
	REFUSE_IMAGE=$ext4 expect_refusal mounted-image-file 'mounted|in use' -- "$MKFS" -f "$ext4"
	case $dev in
	/dev/loop*)
		REFUSE_IMAGE=$ext4 expect_refusal mounted-loop-device 'mounted|in use' -- "$MKFS" -f "$dev"
		;;
	*) skip mounted-loop-device "cannot find the loop device of the mount (got '$dev')" ;;
	esac
	if ! why=$(umount "$mnt" 2>&1); then
		fail mounted-unmount "umount failed: $why"
	fi
}
mounted_cases

# --- a read-only file (refused even for root, who could write it) -------------------

cp "$pat" "$WORK/ro.img"
chmod 444 "$WORK/ro.img"
REFUSE_IMAGE=$WORK/ro.img expect_refusal read-only-file 'read-only' -- "$MKFS" -f "$WORK/ro.img"

# --- zoned (-m) and multi-device (-c) volumes -------------------------------------

# the other device of a two-device volume, with a pattern as well
pat2=$WORK/pattern2.img
make_pattern_image "$pat2" $((64 << 20))
REFUSE_IMAGE=$pat expect_refusal zoned-on-regular-file '-m: .*pattern.img is not a zoned block device' -- \
	"$MKFS" -f -m "$pat"
REFUSE_IMAGE=$pat expect_refusal device-missing "cannot open .*absent2.img" -- \
	"$MKFS" -f -c "$WORK/absent2.img" "$pat"
REFUSE_IMAGE=$pat expect_refusal device-twice "are the same device" -- \
	"$MKFS" -f -c "$pat" "$pat"
ln -s "$pat2" "$WORK/link2.img"
REFUSE_IMAGE=$pat2 expect_refusal device-twice-by-link "are the same device" -- \
	"$MKFS" -f -c "$WORK/link2.img" "$pat2"
REFUSE_IMAGE=$pat expect_refusal device-alias "aliasing.*not supported" -- \
	"$MKFS" -f -c "$pat2@alias" "$pat"
REFUSE_IMAGE=$pat expect_refusal device-path-too-long "at most 64 bytes" -- \
	"$MKFS" -f -c "$WORK/$(printf 'x%.0s' $(seq 1 70))" "$pat"
REFUSE_IMAGE=$pat expect_refusal device-sectors "sectors argument cannot be used with -c" -- \
	"$MKFS" -f -c "$pat2" "$pat" 1000
many=()
for i in 1 2 3 4 5 6 7 8; do many+=(-c "$pat2"); done
REFUSE_IMAGE=$pat expect_refusal too-many-devices "too many devices" -- "$MKFS" -f "${many[@]}" "$pat"
# an existing file system on the added device, without -f
cp "$pat2" "$WORK/held.img"
if "$MKFS" -q -f "$WORK/held.img" >/dev/null 2>&1; then
	REFUSE_IMAGE=$WORK/held.img expect_refusal device-holds-f2fs "held.img contains an existing file system.*-f" -- \
		"$MKFS" -c "$WORK/held.img" "$pat2"
else
	fail device-holds-f2fs "could not make the existing file system"
fi

finish
