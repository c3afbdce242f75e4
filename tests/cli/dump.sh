#!/bin/bash
# dump.f2fs: on an image made by our mkfs and filled by upstream sload.f2fs
# from a generated tree, our NAT/SIT/SSA dumps, -d 1 fields, -i and -b lines
# must equal upstream dump.f2fs's; the extracted tree must equal the source;
# --sections on a large-section image must agree with the SIT; every --json
# output must parse; bad input must be refused without writing anything.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

DUMP=${DUMP:-$TOP/dump/dump.f2fs}
UPSTREAM_SLOAD=${UPSTREAM_SLOAD:-/usr/sbin/sload.f2fs}

if [ ! -x "$DUMP" ]; then
	fail setup "DUMP=$DUMP is not executable (build with make first)"
	finish
fi

PY=
command -v python3 >/dev/null 2>&1 && python3 -c 'import json' 2>/dev/null && PY=python3
# JSON_PARSE: parses a JSON document on stdin (UTF-8 checked), failing when it does not
JSON_PARSE=()
if perl -MJSON::PP -e 1 2>/dev/null; then
	JSON_PARSE=(perl -MJSON::PP -e 'local $/; JSON::PP->new->utf8->decode(<STDIN>)')
elif [ -n "$PY" ]; then
	JSON_PARSE=(python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))')
fi
NEWEST_DUMP=${NEWEST_DUMP:-$TOP/../upstream-f2fs-tools/fsck/dump.f2fs}

# Lines of the "name [0x... : dec]" kind (and the version line).
field_lines() {
	grep -aP '^\S+\s+\t\t\[|^version ' "$1"
}

# The -d and -i field listings are newest upstream's; Debian's 1.15 lists
# fewer fields, a few of them elsewhere or in its own form.
if [ -x "$NEWEST_DUMP" ]; then
	FIELDS_REF=$NEWEST_DUMP
elif have_upstream dump; then
	FIELDS_REF=$UPSTREAM_DUMP
else
	FIELDS_REF=
fi

# same_fields OURS THEIRS: the field lines agree (a diff on stdout when not):
# line for line with newest upstream but for the version bitmaps (upstream
# repeats one word), and with 1.15 each line it lists is one of ours.
same_fields() {
	if [ "$FIELDS_REF" = "$NEWEST_DUMP" ]; then
		diff <(field_lines "$1" | grep -v '_version_bitmap\[') \
			<(field_lines "$2" | grep -v '_version_bitmap\[')
	else
		local missing
		missing=$(LC_ALL=C comm -23 \
			<(field_lines "$2" | grep -aPv '^version\s+\S|^sit_nat_version_bitmap' | LC_ALL=C sort) \
			<(field_lines "$1" | LC_ALL=C sort))
		[ -z "$missing" ] || { echo "1.15 lists, we do not: $missing"; return 1; }
	fi
}

# --- the source tree and the image -------------------------------------------

SRC=$WORK/src
mkdir -p "$SRC/dir/sub/deeper" "$SRC/many" "$SRC/empty_dir"
head -c $((5 * 1024 * 1024 + 123)) /dev/urandom >"$SRC/big"
echo hello >"$SRC/dir/small"
printf 'x%.0s' $(seq 1 3000) >"$SRC/dir/sub/deeper/inline_or_not"
head -c 4096 /dev/urandom >"$SRC/dir/sub/exact_block"
: >"$SRC/empty"
printf 'with spaces\n' >"$SRC/dir/name with spaces"
ln -s dir/small "$SRC/link"
ln -s ../../big "$SRC/dir/sub/uplink"
ln "$SRC/dir/small" "$SRC/dir/hardlink"
for i in $(seq 1 300); do echo "$i" >"$SRC/many/file_$i"; done
# blocks whose last bytes read like a node footer of the root inode (nid 3, ino 3)
for i in $(seq 1 4096); do printf '\003\000\000\000\003\000\000\000\003\000\000\000\003\000\000\000'; done >"$SRC/lookalike"
chmod 0640 "$SRC/dir/small"
chmod 0750 "$SRC/dir/sub"

IMG=$WORK/img
have_tree=0
if [ ! -x "$UPSTREAM_SLOAD" ]; then
	skip image "upstream sload.f2fs ($UPSTREAM_SLOAD) not found: nothing to dump"
else
	truncate -s 256M "$IMG"
	run_cmd "$MKFS" -q -f "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail image "mkfs exited $RC: $(snippet "$WORK/last.err")"
	else
		run_cmd "$UPSTREAM_SLOAD" -f "$SRC" "$IMG"
		if [ "$RC" -ne 0 ]; then
			fail image "sload.f2fs exited $RC: $(tail -c 300 "$WORK/last.out")"
		else
			pass image
			have_tree=1
		fi
	fi
fi

# in_dir DIR CMD...: run_cmd inside DIR (created empty).
in_dir() {
	local d=$1
	shift
	mkdir -p "$d"
	pushd "$d" >/dev/null || return 1
	run_cmd "$@"
	popd >/dev/null || return 1
}

# --- tables equal to upstream's -----------------------------------------------

if [ $have_tree -eq 1 ]; then
	in_dir "$WORK/ours" "$DUMP" -n 0~-1 -s 0~-1 -a 0~-1 "$IMG"
	ours_rc=$RC
	if have_upstream dump; then
		in_dir "$WORK/up" "$UPSTREAM_DUMP" -n 0~-1 -s 0~-1 -a 0~-1 "$IMG"
		for t in nat sit ssa; do
			if [ "$ours_rc" -ne 0 ]; then
				fail "table-$t" "dump.f2fs exited $ours_rc: $(snippet "$WORK/last.err")"
			elif [ ! -s "$WORK/up/dump_$t" ]; then
				skip "table-$t" "upstream wrote no dump_$t"
			elif cmp -s "$WORK/ours/dump_$t" "$WORK/up/dump_$t"; then
				pass "table-$t"
			else
				fail "table-$t" "differs from upstream: $(diff "$WORK/ours/dump_$t" "$WORK/up/dump_$t" | head -4)"
			fi
		done
		# a partial range too
		in_dir "$WORK/ours2" "$DUMP" -n 3~20 -s 2~9 -a 1~4 "$IMG"
		in_dir "$WORK/up2" "$UPSTREAM_DUMP" -n 3~20 -s 2~9 -a 1~4 "$IMG"
		bad=
		for t in nat sit ssa; do
			cmp -s "$WORK/ours2/dump_$t" "$WORK/up2/dump_$t" || bad="$bad $t"
		done
		if [ -z "$bad" ]; then pass table-ranges; else fail table-ranges "differ:$bad"; fi
	else
		skip table-vs-upstream "upstream dump.f2fs not found"
	fi

	# --- -d 1 -----------------------------------------------------------------
	run_cmd "$DUMP" -d 1 "$IMG"
	cp "$WORK/last.out" "$WORK/d1.ours"
	if [ "$RC" -ne 0 ]; then
		fail d1-fields "exit status $RC: $(snippet "$WORK/last.err")"
	elif [ -z "$FIELDS_REF" ]; then
		skip d1-fields "no upstream dump.f2fs ($NEWEST_DUMP, $UPSTREAM_DUMP)"
	else
		"$FIELDS_REF" -d 1 "$IMG" >"$WORK/d1.up" 2>/dev/null </dev/null
		n=$(field_lines "$WORK/d1.ours" | wc -l)
		if [ "$n" -lt 60 ]; then
			fail d1-fields "only $n field lines"
		elif same_fields "$WORK/d1.ours" "$WORK/d1.up" >"$WORK/d1.diff"; then
			pass d1-fields
		else
			fail d1-fields "$(head -4 "$WORK/d1.diff")"
		fi
	fi

	# --- -i: find the inode of "big" by name ----------------------------------
	big_ino=
	for ino in $(awk -F'[:\t ]+' '$1 == "nid" && $2 == $4 { print $2 }' "$WORK/ours/dump_nat"); do
		if "$DUMP" -i "$ino" "$IMG" </dev/null 2>/dev/null | grep -aqP '^i_name\s+\t\t\[big\]$'; then
			big_ino=$ino
			break
		fi
	done
	if [ -z "$big_ino" ]; then
		fail inode-size "no inode named big in the NAT dump"
	else
		run_cmd "$DUMP" -i "$big_ino" "$IMG"
		want=$(stat -c %s "$SRC/big")
		if [ "$RC" -ne 0 ]; then
			fail inode-size "exit status $RC: $(snippet "$WORK/last.err")"
		elif grep -aqP "^i_size\s+\t\t\[0x\s*[0-9a-f]+ : $want\]$" "$WORK/last.out"; then
			pass inode-size
		else
			fail inode-size "no i_size line with $want: $(grep -a i_size "$WORK/last.out")"
		fi
		if [ -n "$FIELDS_REF" ]; then
			grep -v '^i_addr' "$WORK/last.out" >"$WORK/i.ours"
			"$FIELDS_REF" -i "$big_ino" "$IMG" </dev/null 2>/dev/null | grep -v '^i_addr' >"$WORK/i.up"
			if [ -s "$WORK/i.ours" ] && same_fields "$WORK/i.ours" "$WORK/i.up" >"$WORK/i.diff"; then
				pass inode-fields
			else
				fail inode-fields "$(head -4 "$WORK/i.diff")"
			fi
		fi
		if have_upstream dump; then
			run_cmd "$DUMP" -i "$big_ino" -M "$IMG"
			ours_map=$(head -1 "$WORK/last.out")
			up_map=$("$UPSTREAM_DUMP" -i "$big_ino" -M "$IMG" </dev/null 2>/dev/null | head -1)
			if [ -n "$ours_map" ] && [ "$ours_map" = "$up_map" ]; then
				pass inode-block-map
			else
				fail inode-block-map "ours '$ours_map', upstream '$up_map'"
			fi
			# -b on the file's first data block
			first=$(sed 's/^ //; s/[- ].*//' <<<"$ours_map")
			run_cmd "$DUMP" -b "$first" "$IMG"
			grep -aE '^(FS | - )' "$WORK/last.out" >"$WORK/b.ours"
			"$UPSTREAM_DUMP" -b "$first" "$IMG" </dev/null 2>/dev/null | grep -aE '^(FS | - )' >"$WORK/b.up"
			if ! grep -q "^FS Userdata Area: Data block from" "$WORK/b.ours"; then
				fail blkaddr-owner "no data block line: $(snippet "$WORK/last.out")"
			elif cmp -s "$WORK/b.ours" "$WORK/b.up"; then
				pass blkaddr-owner
			else
				fail blkaddr-owner "$(diff "$WORK/b.ours" "$WORK/b.up" | head -4)"
			fi
		fi
	fi

	# --- -I: the inode's own block, once (not its direct nodes, not data) ------
	if [ -n "$big_ino" ]; then
		nat_blk=$(awk -F'[:\t ]+' -v n="$big_ino" '$1 == "nid" && $2 == n { print $8 }' "$WORK/ours/dump_nat")
		start=$(date +%s%N)
		run_cmd "$DUMP" -I "$big_ino" "$IMG"
		ms=$((($(date +%s%N) - start) / 1000000))
		got=$(grep -a '^Info: nid: ' "$WORK/last.out")
		if [ "$RC" -ne 0 ]; then
			fail scan-inode "exit status $RC: $(snippet "$WORK/last.err")"
		elif [ "$got" != "Info: nid: $big_ino, blkaddr: $nat_blk" ] ||
			! grep -aq '^Info: SIT: valid, NAT: current$' "$WORK/last.out" ||
			! grep -aqP '^i_name\s+\t\t\[big\]$' "$WORK/last.out"; then
			fail scan-inode "expected the one block $nat_blk of inode $big_ino, got: $(tr '\n' '|' <<<"$got")"
		else
			pass scan-inode
			echo "# dump -I $big_ino: ${ms} ms" >&2
		fi
		# data blocks that look like the root's node footer are not copies of it
		root_blk=$(awk -F'[:\t ]+' '$1 == "nid" && $2 == 3 { print $8 }' "$WORK/ours/dump_nat")
		run_cmd "$DUMP" -I 3 "$IMG"
		got3=$(grep -a '^Info: nid: ' "$WORK/last.out")
		if [ "$RC" -eq 0 ] && [ "$got3" = "Info: nid: 3, blkaddr: $root_blk" ]; then
			pass scan-ignores-lookalike-data
		else
			fail scan-ignores-lookalike-data "rc=$RC, expected only block $root_blk: $(head -3 <<<"$got3" | tr '\n' '|') ($(wc -l <<<"$got3") lines)"
		fi
		run_cmd "$DUMP" -I "$big_ino" "$IMG"
		if [ -x "$NEWEST_DUMP" ]; then
			a=$(grep -aE '^(Info: (scan|nid)|node_blk)' "$WORK/last.out")
			b=$("$NEWEST_DUMP" -I "$big_ino" "$IMG" </dev/null 2>&1 | grep -aE '^(Info: (scan|nid)|node_blk)')
			if [ -n "$a" ] && [ "$a" = "$b" ]; then
				pass scan-vs-newest-upstream
			else
				fail scan-vs-newest-upstream "$(diff <(echo "$a") <(echo "$b") | head -4)"
			fi
		else
			skip scan-vs-newest-upstream "newest upstream dump.f2fs ($NEWEST_DUMP) not built"
		fi
	fi

	# --- extraction -----------------------------------------------------------
	run_cmd "$DUMP" -r -L -o "$WORK/out" "$IMG"
	if [ "$RC" -ne 0 ]; then
		fail extract-tree "exit status $RC: $(snippet "$WORK/last.err")"
	elif d=$(diff -r --no-dereference "$SRC" "$WORK/out" 2>&1); then
		pass extract-tree
	else
		fail extract-tree "$(head -c 300 <<<"$d")"
	fi
	if [ -L "$WORK/out/link" ] && [ "$(readlink "$WORK/out/link")" = dir/small ] &&
		[ "$(readlink "$WORK/out/dir/sub/uplink")" = ../../big ]; then
		pass extract-symlinks
	else
		fail extract-symlinks "link is $(stat -c %F "$WORK/out/link" 2>&1)"
	fi
	if [ "$(stat -c %i "$WORK/out/dir/small" 2>/dev/null)" = "$(stat -c %i "$WORK/out/dir/hardlink" 2>/dev/null)" ]; then
		pass extract-hardlink
	else
		fail extract-hardlink "dir/small and dir/hardlink are not one file"
	fi
	run_cmd "$DUMP" -r -o "$WORK/out_nol" "$IMG"
	if [ "$RC" -eq 0 ] && [ -f "$WORK/out_nol/link" ] && [ ! -L "$WORK/out_nol/link" ] &&
		[ "$(cat "$WORK/out_nol/link")" = dir/small ]; then
		pass extract-symlink-as-file
	else
		fail extract-symlink-as-file "rc=$RC, link: $(stat -c %F "$WORK/out_nol/link" 2>&1)"
	fi
	run_cmd "$DUMP" -r -P -L -o "$WORK/out_p" "$IMG"
	modes_src=$(cd "$SRC" && find . -mindepth 1 ! -type l -printf '%P %m %T@\n' | sed 's/\.[0-9]*$//' | sort)
	modes_out=$(cd "$WORK/out_p" && find . -mindepth 1 ! -type l -printf '%P %m %T@\n' | sed 's/\.[0-9]*$//' | sort)
	if [ "$RC" -ne 0 ]; then
		fail extract-preserve "exit status $RC: $(snippet "$WORK/last.err")"
	elif [ "$modes_src" = "$modes_out" ]; then
		pass extract-preserve
	else
		fail extract-preserve "$(diff <(echo "$modes_src") <(echo "$modes_out") | head -4)"
	fi
	run_cmd "$DUMP" -r -N -o "$WORK/out_dry" "$IMG"
	if [ "$RC" -eq 0 ] && [ ! -e "$WORK/out_dry" ] && grep -q "would write" "$WORK/last.out"; then
		pass extract-dry-run
	else
		fail extract-dry-run "rc=$RC, out_dry $( [ -e "$WORK/out_dry" ] && echo exists || echo absent)"
	fi

	# --- JSON -----------------------------------------------------------------
	jdir=$WORK/json
	mkdir -p "$jdir"
	jn=0
	for args in "-d 1" "-n 0~-1" "-s 0~-1" "-a 0~3" "-b ${first:-4096}" "-b 0" "-i ${big_ino:-3}" \
		"-I ${big_ino:-3}" "-M" "--sections" "-r -N -o $WORK/jx" "-d 1 -n 0~-1 -s 0~-1 -M"; do
		jn=$((jn + 1))
		# shellcheck disable=SC2086
		in_dir "$jdir" "$DUMP" --json $args "$IMG"
		name="json-$jn(${args%% *})"
		if [ "$RC" -ne 0 ]; then
			fail "$name" "exit status $RC: $(snippet "$WORK/last.err")"
		elif [ ${#JSON_PARSE[@]} -gt 0 ]; then
			if "${JSON_PARSE[@]}" <"$WORK/last.out" >/dev/null 2>"$WORK/json.err"; then
				pass "$name"
			else
				fail "$name" "does not parse: $(snippet "$WORK/json.err")"
			fi
		elif [ "$(head -c 1 "$WORK/last.out")" = "{" ] && [ "$(tail -c 2 "$WORK/last.out" | head -c 1)" = "}" ] &&
			grep -q '"checkpoint_state":' "$WORK/last.out"; then
			pass "$name"
		else
			fail "$name" "not a JSON object: $(snippet "$WORK/last.out")"
		fi
	done
	if [ -z "$(ls -A "$jdir")" ]; then
		pass json-writes-no-files
	else
		fail json-writes-no-files "left $(ls -A "$jdir" | tr '\n' ' ')"
	fi
	if [ -z "$PY" ]; then
		skip json-python "python3 not installed: only a minimal check of the JSON was made"
	else
		in_dir "$jdir" "$DUMP" --json -s 0~-1 "$IMG"
		if python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["sit"]; assert sum(e["vblocks"] for e in s["segments"]) == s["valid_blocks"]' <"$WORK/last.out" 2>/dev/null; then
			pass json-sit-content
		else
			fail json-sit-content "sit.valid_blocks is not the sum of the segments"
		fi
	fi
fi

# --- sections of a large-section image ---------------------------------------

if [ -x "$UPSTREAM_SLOAD" ]; then
	BIG=$WORK/big.img
	truncate -s 8G "$BIG"
	run_cmd "$MKFS" -q -f -s 128 "$BIG"
	mk_rc=$RC
	[ $mk_rc -eq 0 ] && run_cmd "$UPSTREAM_SLOAD" -f "$SRC" "$BIG"
	if [ $mk_rc -ne 0 ] || [ "$RC" -ne 0 ]; then
		fail sections "could not build the 8G -s 128 image (mkfs $mk_rc, sload $RC)"
	else
		in_dir "$WORK/sec" "$DUMP" -s 0~-1 "$BIG"
		# used sections according to the SIT dump: any segment with vblocks > 0
		want=$(awk -F'\t' '/^segno:/ { s = $1; sub(/segno: */, "", s); v = $2; sub(/vblocks: */, "", v)
			if (v + 0 > 0) used[int(s / 128)] = 1 }
			END { n = 0; for (k in used) n++; print n }' "$WORK/sec/dump_sit")
		run_cmd "$DUMP" --sections "$BIG"
		got=$(grep -c '^secno:' "$WORK/last.out")
		mism=$(awk '/^secno:/ { v = $0; sub(/.*\tvalid: */, "", v); sub(/\t.*/, "", v);
			c = $0; sub(/.*ckpt_valid: */, "", c); sub(/\t.*/, "", c);
			b = $0; sub(/.*bad_segs:/, "", b); sub(/\t.*/, "", b);
			if (v != c || b != 0) print }' "$WORK/last.out")
		if [ "$RC" -ne 0 ]; then
			fail sections "exit status $RC: $(snippet "$WORK/last.err")"
		elif [ "$got" -ne "$want" ] || [ "$got" -eq 0 ]; then
			fail sections "$got section lines, the SIT has $want used sections"
		elif [ -n "$mism" ]; then
			fail sections "ckpt_valid differs from valid or bad segments: $(head -2 <<<"$mism")"
		elif ! grep -q '^total: sections:' "$WORK/last.out"; then
			fail sections "no total line"
		else
			pass sections
		fi
	fi
fi

# --- bad input ----------------------------------------------------------------

BAD=$WORK/bad
mkdir -p "$BAD"
cd "$BAD" || exit 1
REF_IMG=$IMG
if [ $have_tree -eq 0 ]; then
	REF_IMG=$WORK/plain.img
	truncate -s 64M "$REF_IMG"
	"$MKFS" -q -f "$REF_IMG" >/dev/null 2>&1
fi
export REFUSE_IMAGE=$REF_IMG
expect_refusal bad-range-reversed 'range' -- "$DUMP" -n 5~3 "$REF_IMG"
expect_refusal bad-range-syntax 'range' -- "$DUMP" -s x~3 "$REF_IMG"
expect_refusal bad-range-hex 'range' -- "$DUMP" -a 0x1~3 "$REF_IMG"
expect_refusal bad-range-past-end 'past' -- "$DUMP" -s 0~999999 "$REF_IMG"
expect_refusal bad-range-nat-past-end 'past' -- "$DUMP" -n 0~99999999 "$REF_IMG"
expect_refusal bad-ino-outside-nat 'outside the NAT' -- "$DUMP" -i 99999999 "$REF_IMG"
expect_refusal bad-ino-zero 'inode' -- "$DUMP" -i 0 "$REF_IMG"
expect_refusal bad-ino-free 'free' -- "$DUMP" -i 4000 "$REF_IMG"
expect_refusal bad-scan-ino 'outside the NAT' -- "$DUMP" -I 99999999 "$REF_IMG"
expect_refusal bad-blkaddr 'past the end' -- "$DUMP" -b 0xffffffff "$REF_IMG"
expect_refusal bad-debug-level 'debug level' -- "$DUMP" -d x "$REF_IMG"
expect_refusal bad-option 'unknown option' -- "$DUMP" -q "$REF_IMG"
expect_refusal bad-two-devices 'one device' -- "$DUMP" "$REF_IMG" "$REF_IMG"
expect_refusal bad-outdir-alone '-o needs' -- "$DUMP" -o "$BAD/x" "$REF_IMG"
unset REFUSE_IMAGE
expect_refusal no-device 'no device' -- "$DUMP" -n 0~-1
expect_refusal missing-device 'cannot open' -- "$DUMP" -n 0~-1 "$WORK/does-not-exist"
head -c 1M /dev/urandom >"$WORK/garbage.img"
REFUSE_IMAGE=$WORK/garbage.img expect_refusal unreadable-image 'superblock' -- "$DUMP" -n 0~-1 "$WORK/garbage.img"
: >"$WORK/zero.img"
REFUSE_IMAGE=$WORK/zero.img expect_refusal empty-image 'superblock|read' -- "$DUMP" -s 0~-1 "$WORK/zero.img"
if [ -z "$(ls -A "$BAD")" ]; then
	pass bad-input-writes-nothing
else
	fail bad-input-writes-nothing "left $(ls -A "$BAD" | tr '\n' ' ')"
fi
cd "$WORK" || exit 1

finish
