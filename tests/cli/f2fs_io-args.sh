#!/bin/bash
# f2fs_io argument handling, no kernel needed: for every subcommand a wrong
# argument count prints the usage on stderr and exits 1 (upstream's copy
# exits 2), a bad value exits non-zero before anything is opened, and
# nothing is ever created (each refusal runs in an empty directory, with
# the named files absent, and again next to an existing file that must stay
# unchanged).  "f2fs_io" alone lists the commands and exits 0; "help CMD"
# prints "USAGE:" and the usage; an unknown command exits non-zero (ours;
# upstream 1.15 exits 0, which is only noted).  Our "help CMD" and command
# list lines are compared with upstream's for the subcommands both have.
#
# Environment: F2FS_IO (ours, default <repo>/tools/f2fs_io/f2fs_io),
# UPSTREAM_F2FS_IO (default /usr/sbin/f2fs_io), CMD_TIMEOUT.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir

F2FS_IO=${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}
UPSTREAM_F2FS_IO=${UPSTREAM_F2FS_IO:-/usr/sbin/f2fs_io}

if [ ! -x "$F2FS_IO" ]; then
	fail setup "F2FS_IO=$F2FS_IO is not executable (build with make first)"
	finish
fi

# name|argument counts accepted (after options)|extra option that is
# accepted (for the too-many case it is ignored)
# The "bad value" cases are in BAD below.  F is the file, G a second file,
# D a directory.
CMDS=(
	"fsync|1" "fdatasync|1" "set_verity|1" "getflags|1" "setflags|2"
	"clearflags|2" "shutdown|2" "pinfile|2 3" "fadvise|4" "ioprio|2"
	"fallocate|4" "erase|1" "write|6 7" "write_advice|7 8" "read|7"
	"randread|5" "fragread|5" "fiemap|3 4" "gc_urgent|2 3" "defrag_file|1 3"
	"copy|2" "get_cblocks|1" "release_cblocks|1" "reserve_cblocks|1"
	"get_coption|1" "set_coption|3" "decompress|1" "compress|1"
	"get_filename_encrypt_mode|1" "rename|3" "gc|2" "checkpoint|1"
	"precache_extents|1" "move_range|5" "gc_range|4" "listxattr|1"
	"setxattr|3" "removexattr|2" "lseek|3" "get_advise|1" "get_fadvise|1"
	"ftruncate|2" "test_create_perf|3" "test_lookup_perf|2" "freeze|1"
	"thaw|1" "replay|1 2"
)

# Subcommands whose usage text upstream changed after 1.15 (checked against
# upstream's sources): ours follows the newer text, so a difference from
# the 1.15 binary is expected and only reported (erase: ours has no typo).
NEWER_USAGE=" defrag_file erase fallocate fiemap pinfile randread read setflags write "

# One bad value each, with a valid argument count.  setflags and clearflags
# have none: like upstream they take any flag name (f2fs_io-flags.sh).
BAD=(
	"shutdown 9 F" "shutdown abc F" "shutdown -1 F"
	"pinfile bogus F" "pinfile set F abc"
	"fadvise bogus 0 4096 F" "fadvise willneed abc 4096 F" "fadvise willneed 0 abc F"
	"ioprio bogus F"
	"fallocate 0 abc 4096 F" "fallocate 0 0 abc F" "fallocate -q 0 0 4096 F"
	"erase F"
	"write abc 0 1 zero buffered F" "write 1 0 abc zero buffered F"
	"write 1 0 1 bogus buffered F" "write 1 0 1 zero bogus F"
	"write 2000 0 1 zero buffered F" "write 1 0 1 zero atomic_commit F abc"
	"write_advice 1 0 1 zero buffered bogus F" "write_advice abc 0 1 zero buffered hot F"
	"read abc 0 1 buffered 0 16 F" "read 1 abc 1 buffered 0 16 F" "read 1 0 abc buffered 0 16 F"
	"read 1 0 1 bogus 0 16 F" "read 1 0 1 buffered 0 99999 F" "read 1 0 1 buffered x 16 F"
	"randread abc 1 buffered 0 F" "randread 1 abc buffered 0 F" "randread 1 1 bogus 0 F"
	"fragread abc 0 1 0 F" "fragread 1 0 abc 0 F"
	"fiemap abc 1 F" "fiemap 0 abc F" "fiemap 0 1 F abc"
	"gc_urgent vda bogus" "gc_urgent vda run abc"
	"defrag_file abc 4096 F" "defrag_file 0 abc F"
	"copy -q F G"
	"set_coption abc 2 F" "set_coption 1 abc F"
	"rename F G abc"
	"gc abc F"
	"move_range F G abc 0 4096" "move_range F G 0 abc 4096" "move_range F G 0 0 abc"
	"gc_range abc 0 1 F" "gc_range 1 abc 1 F" "gc_range 1 0 abc F"
	"lseek bogus 0 F" "lseek set abc F"
	"ftruncate abc F" "ftruncate -1 F"
	"test_create_perf D abc 1" "test_create_perf D 0 1" "test_create_perf D 1 abc"
	"test_create_perf -q D 1 1"
	"test_lookup_perf D abc" "test_lookup_perf D 0" "test_lookup_perf -q D 1"
)

EMPTY=$WORK/empty
NEXT=$WORK/next
mkdir -p "$EMPTY" "$NEXT"
make_pattern_image "$NEXT/f" 65536

# listing DIR: the names and fingerprints of everything in DIR.
listing() {
	local p
	for p in "$1"/* "$1"/.[!.]*; do
		[ -e "$p" ] || [ -L "$p" ] || continue
		echo "${p##*/} $(fingerprint "$p")"
	done
}

# in_dir DIR CMD...: run_cmd in DIR.
in_dir() {
	local d=$1
	shift
	pushd "$d" >/dev/null || return 1
	run_cmd "$@"
	popd >/dev/null || return 1
}

# The usage of CMD as "help CMD" prints it (without "\nUSAGE:\n  ").
usage_of() {
	"$1" help "$2" 2>/dev/null | tail -n +3 | sed '1s/^  //'
}

# --- the command list ------------------------------------------------------

run_cmd "$F2FS_IO"
if [ "$RC" -eq 0 ] && head -n 1 "$WORK/last.out" | grep -qx 'Available commands:' &&
	grep -q "type 'f2fs_io help cmd'" "$WORK/last.out"; then
	missing=
	for c in "${CMDS[@]}"; do
		grep -q "^  ${c%%|*} " "$WORK/last.out" || missing+=" ${c%%|*}"
	done
	extra=$(awk 'NR > 1 && /^  [a-z]/ { print $1 }' "$WORK/last.out" | while read -r n; do
		printf '%s\n' "${CMDS[@]}" | grep -q "^$n|" || printf ' %s' "$n"
	done)
	if [ -z "$missing$extra" ]; then
		pass "list"
	else
		fail "list" "missing:${missing:- none}; not in this test:${extra:- none}"
	fi
else
	fail "list" "rc=$RC; stdout: $(snippet "$WORK/last.out")"
fi
cp "$WORK/last.out" "$WORK/list.ours"

for a in help -h --help; do
	run_cmd "$F2FS_IO" "$a"
	if [ "$RC" -eq 0 ] && cmp -s "$WORK/last.out" "$WORK/list.ours"; then
		pass "list-$a"
	else
		fail "list-$a" "rc=$RC; output differs from f2fs_io alone"
	fi
done

run_cmd "$F2FS_IO" no_such_command
if [ "$RC" -ne 0 ] && [ -z "$(_abnormal_exit "$RC")" ] &&
	grep -q 'no_such_command' "$WORK/last.out" "$WORK/last.err"; then
	pass "unknown-command"
else
	fail "unknown-command" "rc=$RC (want non-zero, naming the command)"
fi
run_cmd "$F2FS_IO" help no_such_command
if [ "$RC" -ne 0 ] && [ -z "$(_abnormal_exit "$RC")" ]; then
	pass "help-unknown-command"
else
	fail "help-unknown-command" "rc=$RC (want non-zero)"
fi
if [ -x "$UPSTREAM_F2FS_IO" ]; then
	run_cmd "$UPSTREAM_F2FS_IO" no_such_command
	echo "# note: upstream $UPSTREAM_F2FS_IO exits $RC on an unknown command (ours exits non-zero)" >&2
fi

# --- per subcommand --------------------------------------------------------

for c in "${CMDS[@]}"; do
	name=${c%%|*}
	counts=" ${c#*|} "
	# Upstream's copy exits 2 on a wrong count; ours exits 1 like the rest.
	want=1

	# help CMD
	run_cmd "$F2FS_IO" help "$name"
	cp "$WORK/last.out" "$WORK/help.$name"
	if [ "$RC" -eq 0 ] && [ "$(sed -n 2p "$WORK/last.out")" = "USAGE:" ] &&
		sed -n 3p "$WORK/last.out" | grep -q '^  f2fs_io '; then
		pass "help/$name"
	else
		fail "help/$name" "rc=$RC; stdout: $(snippet "$WORK/last.out")"
	fi
	usage=$(usage_of "$F2FS_IO" "$name")

	# Wrong argument counts: none, one fewer / one more than accepted.
	lo=${counts# }
	lo=${lo%% *}
	hi=${counts% }
	hi=${hi##* }
	tries=$((lo - 1))
	[ "$tries" -lt 0 ] && tries=
	tries="0 $tries $((hi + 1))"
	# defrag_file takes 1 or 3: 2 is wrong too.
	[ "$name" = defrag_file ] && tries+=" 2"
	seen=" "
	for n in $tries; do
		[[ "$seen" == *" $n "* ]] && continue
		[[ "$counts" == *" $n "* ]] && continue
		seen+="$n "
		args=()
		for ((i = 1; i <= n; i++)); do
			args+=("a$i")
		done
		case_name="count/$name-$n"
		in_dir "$EMPTY" "$F2FS_IO" "$name" "${args[@]}"
		why=()
		[ "$RC" -eq "$want" ] || why+=("rc=$RC, want $want")
		[ -s "$WORK/last.out" ] && why+=("stdout not empty: $(snippet "$WORK/last.out" 80)")
		err=$(cat "$WORK/last.err")
		# replay, ours alone, says in one line what is missing instead of
		# upstream's "Excess arguments" and the usage
		if [ "$name" = replay ]; then
			[ "$(wc -l <"$WORK/last.err")" -eq 1 ] && [[ "$err" == "f2fs_io replay: "* ]] ||
				why+=("not one f2fs_io replay line: $(snippet "$WORK/last.err" 120)")
		elif [ -n "$usage" ] && [[ "$err" != *"$usage"* ]]; then
			why+=("usage not on stderr: $(snippet "$WORK/last.err" 120)")
		fi
		[ -z "$(ls -A "$EMPTY")" ] || why+=("created: $(ls -A "$EMPTY" | tr '\n' ' ')")
		rm -rf "${EMPTY:?}"/* "$EMPTY"/.[!.]* 2>/dev/null
		if [ ${#why[@]} -eq 0 ]; then
			pass "$case_name"
		else
			fail "$case_name" "$(IFS=';'; echo "${why[*]}")"
		fi
	done

	# Compare help CMD and the list line with upstream's.
	if [ -x "$UPSTREAM_F2FS_IO" ] && "$UPSTREAM_F2FS_IO" help 2>/dev/null | grep -q "^  $name "; then
		"$UPSTREAM_F2FS_IO" help "$name" >"$WORK/uphelp.$name" 2>&1
		if cmp -s "$WORK/help.$name" "$WORK/uphelp.$name"; then
			pass "upstream-help/$name"
		elif [[ "$NEWER_USAGE" == *" $name "* ]]; then
			skip "upstream-help/$name" "differs from 1.15, whose usage upstream changed later"
			diff "$WORK/uphelp.$name" "$WORK/help.$name" | sed 's/^/#   /' >&2
		else
			fail "upstream-help/$name" "differs from upstream's: $(diff "$WORK/uphelp.$name" "$WORK/help.$name" | grep '^[<>]' | head -n 4 | tr '\n' '|')"
		fi
		if [ "$(grep "^  $name " "$WORK/list.ours")" = "$("$UPSTREAM_F2FS_IO" help | grep "^  $name ")" ]; then
			pass "upstream-list/$name"
		else
			fail "upstream-list/$name" "list line differs: ours '$(grep "^  $name " "$WORK/list.ours")'"
		fi
	fi
done

# --- bad values ------------------------------------------------------------

# Each with F, G and D absent, then with F an existing file.
for spec in "${BAD[@]}"; do
	read -r -a words <<<"$spec"
	name=${words[0]}
	case_name="bad/${spec// /_}"
	why=()
	for where in empty next; do
		dir=$EMPTY
		[ $where = next ] && dir=$NEXT
		before=$(listing "$dir")
		args=()
		for w in "${words[@]:1}"; do
			case $w in
			F) args+=(f) ;;
			G) args+=(g) ;;
			D) args+=(d) ;;
			*) args+=("$w") ;;
			esac
		done
		in_dir "$dir" "$F2FS_IO" "$name" "${args[@]}"
		ab=$(_abnormal_exit "$RC")
		if [ "$RC" -eq 0 ]; then
			why+=("$where: exit 0")
		elif [ -n "$ab" ]; then
			why+=("$where: $ab")
		fi
		[ -s "$WORK/last.err" ] || why+=("$where: nothing on stderr")
		if grep -q 'Inappropriate ioctl' "$WORK/last.err"; then
			why+=("$where: the value was not checked before the ioctl")
		fi
		after=$(listing "$dir")
		[ "$before" = "$after" ] || why+=("$where: directory changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -n 2 | tr '\n' '|')")
	done
	rm -rf "${EMPTY:?}"/* "$EMPTY"/.[!.]* 2>/dev/null
	if [ ${#why[@]} -eq 0 ]; then
		pass "$case_name"
	else
		fail "$case_name" "$(IFS=';'; echo "${why[*]}"); stderr: $(snippet "$WORK/last.err" 120)"
	fi
done

finish
