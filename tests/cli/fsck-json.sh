#!/bin/bash
# fsck.f2fs --json: standard output must be exactly one JSON document, and
# nothing else, on a clean image, on images corrupted with our inject.f2fs,
# on an image whose checkpoint cannot be read, on files that hold no F2FS,
# on usage errors, and when the check runs out of memory half way (the
# document then ends with an "error" member).  The document must say what
# the text report says: the same problem codes, the same [FSCK] summary
# lines with the same Ok/Fail and values, and the exit status.  Validated
# with jq (scripts/setup.sh installs it).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
INJECT=${INJECT:-$TOP/inject/inject.f2fs}
for b in "$FSCK" "$INJECT"; do
	if [ ! -x "$b" ]; then
		fail setup "$b is not executable (build with make first)"
		finish
	fi
done
if ! command -v jq >/dev/null 2>&1; then
	skip all "jq is not installed (scripts/setup.sh installs it)"
	finish
fi

OUT=$WORK/last.out

# one_doc FILE: FILE holds exactly one JSON object and nothing else.
one_doc() {
	jq -e -s 'length == 1 and (.[0] | type) == "object"' "$1" >/dev/null 2>&1
}

# jqr EXPR: a value of the last document, raw.
jqr() {
	jq -r "$1" "$OUT" 2>/dev/null
}

# frame NAME RC VERDICT: the run exited RC, stdout is one document with the
# version, that verdict and that exit status last.
frame() {
	local name=$1 rc=$2 verdict=$3 last
	if [ "$RC" -ne "$rc" ]; then
		fail "$name" "exit $RC, expected $rc; stderr: $(snippet "$WORK/last.err")"
		return 1
	fi
	if ! one_doc "$OUT"; then
		fail "$name" "stdout is not one JSON document: $(snippet "$OUT")"
		return 1
	fi
	last=$(jqr '[keys_unsorted[-2:][]] | join(",")')
	if [ "$(jqr .version)" != 1 ] || [ "$(jqr .verdict)" != "$verdict" ] ||
		[ "$(jqr .exit_status)" != "$rc" ] || [ "$last" != verdict,exit_status ]; then
		fail "$name" "version/verdict/exit_status wrong: $(jq -c '{version,verdict,exit_status}' "$OUT"), ends with $last"
		return 1
	fi
	return 0
}

# text_lines FILE: the [FSCK] summary lines of a text report as "label|Ok..|values".
text_lines() {
	sed -n 's/^\[FSCK\] \(.*[^ ]\) *\[\(Ok\.\.\|Fail\)\]\(.*\)$/\1|\2|\3/p' "$1" | grep -v '^PR_'
}

# json_lines: the same from the document.
json_lines() {
	jq -r '.summary.lines[] | "\(.name)|\(if .ok then "Ok.." else "Fail" end)|" +
		(if .value == null then "" elif (.ok | not) and .checkpoint != null then
		" [\(.checkpoint), \(.value)]" else " [\(.value)]" end)' "$OUT"
}

# The hex values of text lines in decimal, to compare with jq's output.
dec_values() {
	local l
	while IFS= read -r l; do
		if [[ $l =~ ^(.*)\|\ \[0x([0-9a-f]+),\ 0x([0-9a-f]+)\]$ ]]; then
			echo "${BASH_REMATCH[1]}| [$((16#${BASH_REMATCH[2]})), $((16#${BASH_REMATCH[3]}))]"
		elif [[ $l =~ ^(.*)\|\ \[0x([0-9a-f]+)\]$ ]]; then
			echo "${BASH_REMATCH[1]}| [$((16#${BASH_REMATCH[2]}))]"
		else
			echo "$l"
		fi
	done
}

# same_as_text NAME IMG: the codes and summary lines equal the text report's.
same_as_text() {
	local name=$1 img=$2 tcodes jcodes
	cp "$OUT" "$WORK/doc.json"
	run_cmd "$FSCK" -d 1 "$img"
	cp "$OUT" "$WORK/text.out"
	cp "$WORK/doc.json" "$OUT"
	tcodes=$(grep -o '^\(\[FSCK\]\|Info:\) PR_[A-Z_]*' "$WORK/text.out" | sed 's/.* //' | sort)
	jcodes=$(jqr '.problems[].code' | sort)
	if [ "$tcodes" != "$jcodes" ]; then
		fail "$name" "codes differ: text [${tcodes//$'\n'/ }] json [${jcodes//$'\n'/ }]"
	elif ! diff <(text_lines "$WORK/text.out" | dec_values) <(json_lines) >"$WORK/diff" 2>&1; then
		fail "$name" "summary lines differ: $(head -c 300 "$WORK/diff")"
	elif [ "$(jqr '.summary.lines | length')" -ne 11 ]; then
		fail "$name" "$(jqr '.summary.lines | length') summary lines, expected 11"
	else
		pass "$name"
	fi
}

IMG=$WORK/img
truncate -s 256M "$IMG"
run_cmd "$MKFS" -q -f -O extra_attr,lost_found "$IMG"
if [ "$RC" -ne 0 ]; then
	fail setup "mkfs exited $RC: $(snippet "$WORK/last.err")"
	finish
fi
cp --sparse=always "$IMG" "$WORK/clean.img"

# --- a clean image ----------------------------------------------------------------

run_cmd "$FSCK" --json "$IMG"
if frame clean 0 clean; then
	if [ "$(jqr '.problems | length')" != 0 ] || [ "$(jqr .device)" != "$IMG" ] ||
		[ "$(jqr '[.summary.lines[].ok] | all')" != true ] ||
		[ "$(jqr '.counts.valid_inodes == .counts.cp_valid_inodes and .counts.valid_inodes == 2')" != true ] ||
		[ "$(jqr '.sections | length > 0')" != true ] || [ -s "$WORK/last.err" ]; then
		fail clean "unexpected content: $(head -c 300 "$OUT")"
	else
		pass clean
	fi
	same_as_text clean-same-as-text "$IMG"
fi

# Info lines of the options and -d go nowhere with --json; --quiet does not empty it
run_cmd "$FSCK" -a -f -d 1 --dry-run -p 1 --quiet --json "$IMG"
if frame json-options-print-no-info 0 clean; then
	pass json-options-print-no-info
fi
# the abbreviation getopt accepts counts too
run_cmd "$FSCK" -f --js "$IMG"
frame json-abbreviated 0 clean && pass json-abbreviated

# --- corruptions --------------------------------------------------------------------

getv() {
	"$INJECT" --dry-run "$@" --val 0 "$IMG" 2>/dev/null |
		sed -n 's/^Info: inject .*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -1
}
MAIN=$(getv --sb 1 --mb main_blkaddr)
SEGS=$(getv --sb 1 --mb segment_count_main)
LINKS=$(getv --node --nid 3 --mb i_links)
VBC=$(getv --cp 0 --mb valid_block_count)
if [ -z "$MAIN" ] || [ -z "$SEGS" ] || [ -z "$LINKS" ] || [ -z "$VBC" ]; then
	fail setup "cannot read main_blkaddr, segment_count_main, i_links or valid_block_count with inject --dry-run"
	finish
fi
FREE_SEG=$((SEGS - 3))
FREE_BLK=$((MAIN + FREE_SEG * 512 + 7))

# the root directory's link count, a SIT bit set on a block nothing owns,
# and the checkpoint's valid block count (a summary line with two values)
run_cmd "$INJECT" --node --nid 3 --mb i_links --val $((LINKS + 3)) "$IMG" &&
	run_cmd "$INJECT" --sit 0 --blk "$FREE_BLK" --mb valid_bit --val 1 "$IMG" &&
	run_cmd "$INJECT" --cp 0 --mb valid_block_count --val $((VBC + 5)) "$IMG"
run_cmd "$FSCK" --json "$IMG"
if frame corrupt 4 uncorrected; then
	dl=$(jqr '.problems[] | select(.code == "PR_DIR_LINKS") |
		"\(.location.nid) \(.value) \(.expected) \(.warning) \(.fails | join(","))"')
	se=$(jqr '.problems[] | select(.code == "PR_BLK_SIT_EXTRA") |
		"\(.location.blkaddr) \(.location.segno) \(.location.secno) \(.fails | join(","))"')
	if [ "$dl" != "3 $((LINKS + 3)) $LINKS false other corrupted bugs" ]; then
		fail corrupt-dir-links "PR_DIR_LINKS entry: '$dl'"
	else
		pass corrupt-dir-links
	fi
	if [ "$se" != "$FREE_BLK $FREE_SEG $FREE_SEG SIT valid block bitmap checking" ]; then
		fail corrupt-sit-extra "PR_BLK_SIT_EXTRA entry: '$se' (want blk $FREE_BLK seg $FREE_SEG)"
	else
		pass corrupt-sit-extra
	fi
	vb=$(jqr '.summary.lines[] | select(.name == "valid_block_count matching with CP") |
		"\(.ok) \(.checkpoint) \(.value)"')
	if [ "$vb" != "false $((VBC + 5)) $VBC" ]; then
		fail corrupt-summary-line "valid_block_count line: '$vb'"
	else
		pass corrupt-summary-line
	fi
	if [ "$(jqr '.counts.problems == ([.problems[] | select(.warning | not)] | length) and .counts.problems >= 3')" != true ]; then
		fail corrupt-counts "counts.problems $(jqr .counts.problems) vs $(jqr '.problems | length') entries"
	else
		pass corrupt-counts
	fi
	# its vblocks still say 0: the segment disagrees with its bitmap
	sec=$(jqr '.sections[] | select(.secno == '"$FREE_SEG"') |
		"\(.valid) \(.found) \(.bad_segments) \(.first_bad_segno) \(has("type"))"')
	if [ "$sec" != "0 0 1 $FREE_SEG false" ]; then
		fail corrupt-section-table "section $FREE_SEG: '$sec'"
	else
		pass corrupt-section-table
	fi
	same_as_text corrupt-same-as-text "$IMG"
fi

# a torn checkpoint pack is a warning: in the list, not counted, exit 0
cp --sparse=always "$WORK/clean.img" "$IMG"
run_cmd "$INJECT" --cp 2 --mb crc --val 0x12345678 "$IMG"
run_cmd "$FSCK" --json "$IMG"
if frame torn-pack-warning 0 clean; then
	if [ "$(jqr '[.problems[] | select(.code == "PR_CP_INVALID" and .warning and (.fails | length) == 0)] | length')" != 1 ] ||
		[ "$(jqr '.counts.problems, .counts.warnings' | tr '\n' ' ')" != "0 1 " ]; then
		fail torn-pack-warning "$(jq -c '{problems, counts}' "$OUT" | head -c 300)"
	else
		pass torn-pack-warning
	fi
fi

# --- the check cannot run -----------------------------------------------------------

# frame_error NAME RC VERDICT REGEX: an error document, no report members.
frame_error() {
	local name=$1 rc=$2 verdict=$3 regex=$4
	frame "$name" "$rc" "$verdict" || return
	if ! jqr .error.message | grep -Eiq -e "$regex"; then
		fail "$name" "error member '$(jqr .error.message)' does not match /$regex/"
	elif [ "$(jqr 'has("summary") or has("counts") or has("sections")')" != false ]; then
		fail "$name" "a failed run has report members: $(jq -c 'keys' "$OUT")"
	elif [ "$(wc -l <"$WORK/last.err")" -ne 1 ]; then
		fail "$name" "stderr is not one line: $(snippet "$WORK/last.err")"
	else
		pass "$name"
	fi
}

cp --sparse=always "$WORK/clean.img" "$IMG"
run_cmd "$INJECT" --cp 1 --mb crc --val 1 "$IMG" && run_cmd "$INJECT" --cp 2 --mb crc --val 1 "$IMG"
run_cmd "$FSCK" --json "$IMG"
frame_error checkpoint-unreadable 8 operational_error 'checkpoint'

head -c 1048576 /dev/zero >"$WORK/zeros"
run_cmd "$FSCK" --json "$WORK/zeros"
frame_error not-f2fs-zeros 8 operational_error 'superblock'

truncate -s 64M "$WORK/ext4.img"
if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$WORK/ext4.img" >/dev/null 2>&1; then
	run_cmd "$FSCK" --json "$WORK/ext4.img"
	frame_error not-f2fs-ext4 8 operational_error 'superblock|ext4'
else
	skip not-f2fs-ext4 "mkfs.ext4 not available"
fi

run_cmd "$FSCK" --json "$WORK/no-such-file"
frame_error missing-device 8 operational_error 'no such file'

run_cmd "$FSCK" --json -d x "$IMG"
frame_error usage-bad-value 16 usage_error 'invalid value for -d'
run_cmd "$FSCK" -d x --json "$IMG"
frame_error usage-bad-value-before-json 16 usage_error 'invalid value for -d'
run_cmd "$FSCK" --json -l "$IMG"
frame_error usage-json-with-l 16 usage_error 'json'
run_cmd "$FSCK" --json --progress=1 "$IMG"
frame_error usage-progress-on-stdout 16 usage_error 'progress'

# Out of memory half way: on a large sparse volume the check's tables need
# more than a tight address-space limit allows, after the volume opened and
# the problem list began.  Whatever the limit, the output is one document.
BIG=$WORK/big.img
if truncate -s 4T "$BIG" 2>/dev/null && "$MKFS" -q -f "$BIG" >/dev/null 2>&1; then
	mid=0 bad=
	for kb in 4000 6000 8000 12000 16000 24000; do
		(ulimit -v "$kb" && exec "$FSCK" --json "$BIG") </dev/null >"$OUT" 2>"$WORK/last.err"
		RC=$?
		case $RC in
		0 | 4 | 8) ;;
		*) continue ;; # could not even start (or ASan): says nothing about us
		esac
		if ! one_doc "$OUT"; then
			bad="limit ${kb}k: rc $RC, stdout not one document: $(snippet "$OUT")"
			break
		fi
		[ "$RC" -eq 8 ] && [ "$(jqr '(.problems | type) == "array" and (.error.message | test("memory"))')" = true ] &&
			mid=$((mid + 1))
	done
	if [ -n "$bad" ]; then
		fail out-of-memory-midway "$bad"
	elif [ "$mid" -eq 0 ]; then
		skip out-of-memory-midway "no address-space limit made the check fail half way here"
	else
		pass out-of-memory-midway
	fi
else
	skip out-of-memory-midway "cannot make a 4 TiB sparse image here"
fi
rm -f "$BIG"

finish
