#!/bin/bash
# Names as bytes, and dump -I, on data/names.img.xz (made once in the kernel
# guest by data/make-names-image.sh): names that are UTF-8 ("café",
# "日本"), not UTF-8 (bytes ff fe), hold control characters, a backslash or
# U+0085 must come out of dump's text and JSON views and fsck -t exactly by
# the escaping rule of dump.f2fs(8) (NAMES), and -r must write them back as
# the very bytes.  Then dump -I must list exactly the five copies of an
# inode rewritten across checkpoints (four stale, in a closed node segment
# found through its summary), as newest upstream does when it is built.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir

DUMP=${DUMP:-$TOP/dump/dump.f2fs}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
NEWEST_DUMP=${NEWEST_DUMP:-$TOP/../upstream-f2fs-tools/fsck/dump.f2fs}
IMG=$WORK/names.img

if [ ! -x "$DUMP" ] || [ ! -x "$FSCK" ]; then
	fail setup "DUMP=$DUMP or FSCK=$FSCK is not executable (build with make first)"
	finish
fi
# absolute, for the cases run in another directory
DUMP=$(cd "$(dirname "$DUMP")" && pwd)/$(basename "$DUMP")
FSCK=$(cd "$(dirname "$FSCK")" && pwd)/$(basename "$FSCK")
if ! xz -dc "$TOP/tests/cli/data/names.img.xz" >"$IMG"; then
	fail setup "cannot decompress tests/cli/data/names.img.xz"
	finish
fi

# JSON_OK: a command that parses JSON from stdin (and checks it is UTF-8).
JSON_OK=
if perl -MJSON::PP -e 1 2>/dev/null; then
	JSON_OK=(perl -MJSON::PP -e 'local $/; JSON::PP->new->utf8->decode(<STDIN>)')
elif command -v python3 >/dev/null 2>&1; then
	JSON_OK=(python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))')
fi

# expect_lines NAME WANT-FILE GOT-FILE
expect_lines() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -6 | cat -A)"
	fi
}

# The files of the image: ino, the name as bytes (printf %b), as shown, size.
NAMES=(
	'4|caf\0303\0251|café|5'
	'5|\0346\0227\0245\0346\0234\0254|日本|6'
	'6|bad\0377\0376x|bad\xff\xfex|4'
	'7|ctl\01\033[31m\0177|ctl\x01\x1b[31m\x7f|4'
	'8|back\0134slash|back\x5cslash|5'
	'9|nel\0302\0205|nel\xc2\x85|4'
)

# --- text: -i, -r -N, fsck -t ---------------------------------------------

: >"$WORK/i.want"
: >"$WORK/i.got"
: >"$WORK/list.want"
: >"$WORK/tree.want"
for n in "${NAMES[@]}"; do
	IFS='|' read -r ino _ shown size <<<"$n"
	printf 'i_name                        \t\t[%s]\n' "$shown" >>"$WORK/i.want"
	"$DUMP" -i "$ino" "$IMG" </dev/null 2>/dev/null | grep -a '^i_name ' >>"$WORK/i.got"
	printf 'would write ./lost_found/%s (regular, %s bytes)\n' "$shown" "$size" >>"$WORK/list.want"
	printf '|-- %s <ino = 0x%x>, <encrypted (0)>\n' "$shown" "$ino" >>"$WORK/tree.want"
done
expect_lines text-inode-names "$WORK/i.want" "$WORK/i.got"
run_cmd "$DUMP" -r -N "$IMG"
grep -a '^would write ./lost_found/[^d]' "$WORK/last.out" | grep -av '/many/' >"$WORK/list.got"
expect_lines text-extract-list "$WORK/list.want" "$WORK/list.got"
run_cmd "$FSCK" -t "$IMG"
grep -a '^|-- ' "$WORK/last.out" | grep -av -e '<ino = 0xa>' -e '<ino = 0xc>' >"$WORK/tree.got"
expect_lines fsck-tree-names "$WORK/tree.want" "$WORK/tree.got"

# --- JSON: the same rule inside strings, the backslash doubled --------------

bad=
for n in "${NAMES[@]}"; do
	IFS='|' read -r ino _ shown _ <<<"$n"
	want="\"i_name\":\"${shown//\\/\\\\}\""
	run_cmd "$DUMP" --json -i "$ino" "$IMG"
	if ! grep -aqF -- "$want" "$WORK/last.out"; then
		bad="$bad; ino $ino: no $want in $(grep -ao '"i_name":"[^"]*"' "$WORK/last.out")"
	elif [ ${#JSON_OK[@]} -gt 0 ] && ! "${JSON_OK[@]}" <"$WORK/last.out" 2>/dev/null; then
		bad="$bad; ino $ino: not valid JSON"
	fi
done
if [ -z "$bad" ]; then pass json-inode-names; else fail json-inode-names "${bad#; }"; fi
if [ ${#JSON_OK[@]} -eq 0 ]; then
	skip json-parse "neither perl JSON::PP nor python3: the names were matched, not parsed"
fi

# --- -r writes the names back as bytes --------------------------------------

run_cmd "$DUMP" -r -o "$WORK/out" "$IMG"
missing=
for n in "${NAMES[@]}"; do
	IFS='|' read -r ino bytes _ _ <<<"$n"
	f=$WORK/out/$(printf '%b' "$bytes")
	[ -f "$f" ] || missing="$missing $ino"
done
if [ "$RC" -ne 0 ]; then
	fail extract-byte-names "exit status $RC: $(snippet "$WORK/last.err")"
elif [ -n "$missing" ]; then
	fail extract-byte-names "no file with the name bytes of inode(s)$missing"
elif [ "$(cat "$WORK/out/$(printf 'caf\303\251')")" != cafe ]; then
	fail extract-byte-names "café does not hold its contents"
else
	pass extract-byte-names
fi

# --- -I: the five copies of inode 11 ----------------------------------------

run_cmd "$DUMP" -I 11 "$IMG"
grep -aE '^(Info: (scan|nid)|node_blk)' "$WORK/last.out" >"$WORK/scan.ours"
cat >"$WORK/scan.want" <<'EOF'
Info: scan all nid: 11 from block_addr [4096: 65536]
Info: nid: 11, blkaddr: 4614
node_blk.footer.flag [0x1]
node_blk.footer.cp_ver [6ca4a587]
Info: nid: 11, blkaddr: 4615
node_blk.footer.flag [0x1]
node_blk.footer.cp_ver [6ca4a588]
Info: nid: 11, blkaddr: 4616
node_blk.footer.flag [0x1]
node_blk.footer.cp_ver [6ca4a589]
Info: nid: 11, blkaddr: 4617
node_blk.footer.flag [0x1]
node_blk.footer.cp_ver [6ca4a58a]
Info: nid: 11, blkaddr: 4618
node_blk.footer.flag [0x1]
node_blk.footer.cp_ver [6ca4a58b]
EOF
if [ "$RC" -ne 0 ]; then
	fail scan-copies "exit status $RC: $(snippet "$WORK/last.err")"
elif [ "$(grep -ac '^Info: SIT: valid, NAT: current$' "$WORK/last.out")" -ne 1 ] ||
	[ "$(grep -ac '^Info: SIT: invalid, NAT: stale$' "$WORK/last.out")" -ne 4 ]; then
	fail scan-copies "not one current and four stale copies"
else
	expect_lines scan-copies "$WORK/scan.want" "$WORK/scan.ours"
fi
# the i_mode of each copy: 644, then the chmods 600 640 644 600
if [ "$(grep -a '^i_mode ' "$WORK/last.out" | sed 's/.*: //; s/]//' | tr '\n' ' ')" = "33188 33152 33184 33188 33152 " ]; then
	pass scan-copy-contents
else
	fail scan-copy-contents "i_mode of the copies: $(grep -a '^i_mode ' "$WORK/last.out" | tr '\n' ' ')"
fi
if [ -x "$NEWEST_DUMP" ]; then
	bad=
	for ino in 3 4 10 11 12 500; do
		a=$("$DUMP" -I "$ino" "$IMG" </dev/null 2>&1 | grep -aE '^(Info: (scan|nid)|node_blk)')
		b=$("$NEWEST_DUMP" -I "$ino" "$IMG" </dev/null 2>&1 | grep -aE '^(Info: (scan|nid)|node_blk)')
		[ -n "$a" ] && [ "$a" = "$b" ] || bad="$bad $ino"
	done
	if [ -z "$bad" ]; then pass scan-vs-newest-upstream; else fail scan-vs-newest-upstream "differs for inode(s)$bad"; fi
else
	skip scan-vs-newest-upstream "newest upstream dump.f2fs ($NEWEST_DUMP) not built: checked against the expected lines only"
fi
run_cmd "$DUMP" --json -I 11 "$IMG"
if [ ${#JSON_OK[@]} -gt 0 ] && ! "${JSON_OK[@]}" <"$WORK/last.out" 2>/dev/null; then
	fail json-scan "not valid JSON: $(snippet "$WORK/last.out")"
elif [ "$(grep -ao '"blkaddr":[0-9]*' "$WORK/last.out" | tr '\n' ' ')" != '"blkaddr":4614 "blkaddr":4615 "blkaddr":4616 "blkaddr":4617 "blkaddr":4618 ' ] ||
	! grep -aq '"found":5' "$WORK/last.out"; then
	fail json-scan "$(snippet "$WORK/last.out" 300)"
else
	pass json-scan
fi

finish
