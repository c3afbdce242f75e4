#!/bin/sh
# Guest job, once per disk: the kernel uses the features fsck.f2fs turned
# on after mkfs.  WANT (comma-separated) names what /sys/fs/f2fs/DEV/features
# must list; CASEFOLD=1 makes a casefolded directory (/bin/fsfeat casefold)
# where lookups differing only by case find the one file, before and after
# a remount; ENCRYPT=1 adds a key and sets a v2 policy on an empty
# directory (/bin/fsfeat encrypt), writes and reads a file there, and after
# the remount (the key gone with the unmount) its name must show encrypted.
# REFUSED=1: the kernel must refuse the mount with REFUSED_WHY in dmesg
# (newest upstream's casefold without an encoding).  Busybox sh.

JOB_NAME=tune
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

if [ "${REFUSED:-0}" = 1 ]; then
	step "mount, to be refused"
	mount -t f2fs "$DEV" "$MNT" 2>/dev/null && fail "the kernel mounted it"
	dmesg | grep -q "$REFUSED_WHY" || fail "no '$REFUSED_WHY' in dmesg"
	echo "tune: $DEV refused: $REFUSED_WHY"
	echo "@@JOB-OK@@"
	exit 0
fi

step "mount"
mount_dev
have=$(cat "/sys/fs/f2fs/$DEV_NAME/features") || fail "no /sys/fs/f2fs/$DEV_NAME/features"
echo "tune: $DEV features: $have"
for f in $(echo "$WANT" | tr ',' ' '); do
	case ", $have, " in
	*", $f, "*) ;;
	*) fail "the kernel does not report $f: $have" ;;
	esac
done

# case_lookups: in $MNT/cf, every spelling of the name finds the one file.
case_lookups() {
	for n in MixedCase.txt mixedcase.txt MIXEDCASE.TXT mIxEdCaSe.TxT; do
		[ "$(cat "$MNT/cf/$n" 2>/dev/null)" = casefolded ] ||
			fail "$1: $n does not find the file"
	done
	[ "$(ls "$MNT/cf" | wc -l)" = 1 ] || fail "$1: the directory holds $(ls "$MNT/cf")"
	[ "$(ls "$MNT/cf")" = MixedCase.txt ] || fail "$1: the name became $(ls "$MNT/cf")"
}

if [ "${CASEFOLD:-0}" = 1 ]; then
	step "casefold"
	mkdir "$MNT/cf" || fail "mkdir cf"
	/bin/fsfeat casefold "$MNT/cf" || fail "cannot set +F on an empty directory"
	echo casefolded >"$MNT/cf/MixedCase.txt" || fail "create MixedCase.txt"
	echo casefolded >"$MNT/cf/MIXEDCASE.txt" || fail "write MIXEDCASE.txt"
	case_lookups before
fi
if [ "${ENCRYPT:-0}" = 1 ]; then
	step "encrypt"
	mkdir "$MNT/enc" || fail "mkdir enc"
	/bin/fsfeat encrypt "$MNT" "$MNT/enc" || fail "cannot set an encryption policy"
	echo "secret contents" >"$MNT/enc/plain-name" || fail "write in the encrypted directory"
	[ "$(cat "$MNT/enc/plain-name")" = "secret contents" ] || fail "read back"
fi
sync
umount_dev
step "remount"
mount_dev "remount"
[ "${CASEFOLD:-0}" = 1 ] && case_lookups "after the remount"
if [ "${ENCRYPT:-0}" = 1 ]; then
	names=$(ls "$MNT/enc")
	[ "$(echo "$names" | wc -l)" = 1 ] || fail "the encrypted directory holds: $names"
	[ "$names" != plain-name ] || fail "without the key the name shows in clear"
	echo "tune: $DEV encrypted name without the key: $names"
fi
echo written-after-the-tune >"$MNT/after-tune" || fail "write failed"
sync
umount_dev "umount after the remount"
echo "@@JOB-OK@@"
