#!/bin/bash
# Damaged images.  A 1 GiB image holding 100 files (filled by upstream
# sload.f2fs) cut to 100 MiB: fsck reports PR_DEVICE_TRUNCATED naming both
# sizes and exits 4, never 8 or a crash; dump -r copies every file whose
# blocks lie inside, byte for byte, lists each other one on stderr (one
# line each, none left in the output) and exits 1.  Then every dump mode
# with --json, on that cut image and on the golden corrupt image, prints
# one valid JSON document -- with an "error" member exactly when it fails.
# FSCK and DUMP may point at an ASan build.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

DUMP=${DUMP:-$TOP/dump/dump.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
UPSTREAM_SLOAD=${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}

if [ ! -x "$DUMP" ] || [ ! -x "$FSCK" ]; then
	fail setup "DUMP=$DUMP or FSCK=$FSCK is not executable (build with make first)"
	finish
fi
# absolute, for the cases run in another directory
DUMP=$(cd "$(dirname "$DUMP")" && pwd)/$(basename "$DUMP")
FSCK=$(cd "$(dirname "$FSCK")" && pwd)/$(basename "$FSCK")

# json_check FILE RC: FILE is one JSON document, with an "error" member iff
# RC is not 0; prints a reason when not.  perl's JSON::PP (with
# build-essential) or python3 parse it; without either, only the shape of
# the text is looked at.
if perl -MJSON::PP -e 1 2>/dev/null; then
	json_check() {
		perl -MJSON::PP -e '
			local $/; my $d = eval { JSON::PP->new->utf8->decode(<STDIN>) };
			if (!$d) { print "does not parse: $@"; exit 1 }
			if (ref $d ne "HASH") { print "not an object"; exit 1 }
			my $e = exists $d->{error};
			if ($ARGV[0] ? !$e : $e) { print "rc $ARGV[0] but error member ", $e ? "present" : "absent"; exit 1 }
			if ($e && (ref $d->{error} ne "HASH" || !length $d->{error}{message})) { print "error without a message"; exit 1 }
			exit 0' "$2" <"$1"
	}
elif command -v python3 >/dev/null 2>&1; then
	json_check() {
		python3 -c '
import json, sys
try:
    d = json.loads(sys.stdin.buffer.read().decode("utf-8"))
except Exception as e:
    print("does not parse: %s" % e); sys.exit(1)
if not isinstance(d, dict):
    print("not an object"); sys.exit(1)
if ("error" in d) != (sys.argv[1] != "0"):
    print("rc %s but error member %s" % (sys.argv[1], "present" if "error" in d else "absent")); sys.exit(1)
if "error" in d and not d["error"].get("message"):
    print("error without a message"); sys.exit(1)' "$2" <"$1"
	}
else
	json_check() {
		local first last
		first=$(head -c 1 "$1")
		last=$(tail -c 2 "$1" | head -c 1)
		if [ "$first" != "{" ] || [ "$last" != "}" ] || [ "$(wc -l <"$1")" -ne 1 ]; then
			echo "not one line holding an object"
			return 1
		fi
		if [ "$2" -ne 0 ] && ! grep -q '"error":{"message":"' "$1"; then
			echo "rc $2 but no error member"
			return 1
		fi
		return 0
	}
fi

# json_modes NAME IMG: every mode with --json on IMG.
json_modes() {
	local name=$1 img=$2 args why n=0 d=$WORK/jcwd
	for args in "-d 1" "-n 0~-1" "-s 0~-1" "-a 0~-1" "-b 0x1600" "-b 0x6400" "-b 0x7000" \
		"-b 0" "-i 3" "-i 4" "-i 2" "-i 5" "-I 3" "-I 4" "-M" "--sections" "-r -N" \
		"-r -o $WORK/jx-$name" "-i 4 -y -o $WORK/jy-$name" "-q" "-n 9~3" "-i 99999999"; do
		n=$((n + 1))
		rm -rf "$d" && mkdir "$d"
		pushd "$d" >/dev/null || return
		# shellcheck disable=SC2086
		run_cmd "$DUMP" --json $args "$img"
		popd >/dev/null || return
		if [ -n "$(_abnormal_exit "$RC")" ]; then
			fail "json-$name-$n(${args%% *})" "$(_abnormal_exit "$RC"): $(snippet "$WORK/last.err")"
		elif why=$(json_check "$WORK/last.out" "$RC"); then
			pass "json-$name-$n(${args%% *})"
		else
			fail "json-$name-$n(${args%% *})" "$why: $(snippet "$WORK/last.out")"
		fi
	done
}

# --- the corrupt golden image -------------------------------------------------

CORRUPT=$WORK/corrupt.img
if xz -dc "$TOP/tests/golden/images/corrupt.img.xz" >"$CORRUPT" 2>/dev/null; then
	json_modes corrupt "$CORRUPT"
else
	fail corrupt-image "cannot decompress tests/golden/images/corrupt.img.xz"
fi

# --- a 1 GiB image of 100 files, cut to 100 MiB ---------------------------------

if [ ! -x "$UPSTREAM_SLOAD" ]; then
	skip cut-image "upstream sload.f2fs ($UPSTREAM_SLOAD) not found: no files to cut"
	finish
fi
SRC=$WORK/src
mkdir -p "$SRC/a" "$SRC/b"
for i in $(seq 1 100); do
	d=a
	[ "$i" -gt 50 ] && d=b
	# 0.2 to 2.6 MB each, about 140 MB in all, each file its own bytes
	yes "file $i of the truncation test" | head -c $(((i * 37 % 13) * 200000 + 200000)) >"$SRC/$d/f$i"
done
IMG=$WORK/full.img
CUT=$WORK/cut.img
truncate -s 1G "$IMG"
run_cmd "$MKFS" -q -f "$IMG"
[ "$RC" -eq 0 ] && run_cmd "$UPSTREAM_SLOAD" -f "$SRC" "$IMG"
if [ "$RC" -ne 0 ]; then
	fail cut-image "mkfs or sload.f2fs failed: $(snippet "$WORK/last.err")"
	finish
fi
cp --sparse=always "$IMG" "$CUT"
truncate -s 100M "$CUT"
pass cut-image

# fsck: the truncation is a problem (exit 4), the rest inside is checked
run_cmd "$FSCK" "$CUT"
if [ "$RC" -ne 4 ]; then
	fail fsck-truncated "exit status $RC, expected 4: $(snippet "$WORK/last.err") $(grep -a PR_ "$WORK/last.out" | head -2)"
elif ! grep -aq '^\[FSCK\] PR_DEVICE_TRUNCATED: .*the device holds 25600 blocks, block_count is 262144' "$WORK/last.out"; then
	fail fsck-truncated "no PR_DEVICE_TRUNCATED line naming 25600 and 262144: $(grep -a PR_ "$WORK/last.out" | head -2)"
else
	pass fsck-truncated
fi
run_cmd "$FSCK" "$IMG"
if [ "$RC" -eq 0 ] && ! grep -aq PR_DEVICE_TRUNCATED "$WORK/last.out"; then
	pass fsck-whole-image-clean
else
	fail fsck-whole-image-clean "exit status $RC on the uncut image"
fi

# dump -r: every file inside, byte for byte; each other one named once on stderr
OUT=$WORK/out
run_cmd "$DUMP" -r -o "$OUT" "$CUT"
copied=0 listed=0 bad=
for f in $(cd "$SRC" && find . -type f | sed 's|^\./||' | sort); do
	n=$(grep -ac "^dump.f2fs: warning: $OUT/$f (inode [0-9]*): not extracted: a block lies past the end of the device$" "$WORK/last.err")
	if [ -e "$OUT/$f" ]; then
		if [ "$n" -ne 0 ]; then
			bad="$bad; $f both copied and listed"
		elif cmp -s "$SRC/$f" "$OUT/$f"; then
			copied=$((copied + 1))
		else
			bad="$bad; $f differs"
		fi
	elif [ "$n" -eq 1 ]; then
		listed=$((listed + 1))
	else
		bad="$bad; $f neither copied nor listed once ($n)"
	fi
done
lines=$(wc -l <"$WORK/last.err")
if [ "$RC" -ne 1 ]; then
	fail extract-truncated "exit status $RC, expected 1: $(snippet "$WORK/last.err")"
elif [ -n "$bad" ]; then
	fail extract-truncated "${bad#; }"
elif [ "$copied" -eq 0 ] || [ "$listed" -eq 0 ]; then
	fail extract-truncated "$copied copied, $listed listed: the cut should leave some of each"
elif [ "$lines" -ne $((listed + 1)) ] || ! head -1 "$WORK/last.err" | grep -q 'holds 25600 of the volume.s 262144 blocks'; then
	fail extract-truncated "stderr has $lines lines for $listed files listed: $(head -c 200 "$WORK/last.err")"
else
	pass extract-truncated
	echo "# $copied files copied, $listed listed" >&2
fi
run_cmd "$DUMP" --json -r -N "$CUT"
if grep -q '"block_count":262144,"device_blocks":25600' "$WORK/last.out"; then
	pass json-truncated-sizes
else
	fail json-truncated-sizes "$(snippet "$WORK/last.out")"
fi
run_cmd "$DUMP" --json -r -o "$WORK/out-json" "$CUT"
n=$(grep -o '"error":"not extracted: a block lies past the end of the device"' "$WORK/last.out" | wc -l)
if [ "$RC" -eq 1 ] && [ "$n" -eq "$listed" ]; then
	pass json-extract-failed
else
	fail json-extract-failed "exit status $RC, $n failed entries for $listed files listed"
fi
json_modes cut "$CUT"

finish
