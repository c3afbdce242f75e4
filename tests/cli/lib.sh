# shellcheck shell=bash
# Helpers shared by the tests/cli/*.sh scripts; source it, do not run it.
#
# Output protocol: one line per case on stdout, "PASS: NAME",
# "FAIL: NAME: REASON" or "SKIP: NAME: REASON"; `finish` ends the script with
# status 0 when no case failed, else 1.  Case names must not contain ": ".
#
# Binaries come from the environment, with defaults:
#   MKFS           our mkfs.f2fs        (default <repo>/mkfs/mkfs.f2fs)
#   UPSTREAM_MKFS  upstream mkfs.f2fs   (default /usr/sbin/mkfs.f2fs)
#   UPSTREAM_FSCK  upstream fsck.f2fs   (default /usr/sbin/fsck.f2fs)
#   UPSTREAM_DUMP  upstream dump.f2fs   (default /usr/sbin/dump.f2fs)
#   CMD_TIMEOUT    seconds one command under test may run (default 60)

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MKFS=${MKFS:-$TOP/mkfs/mkfs.f2fs}
UPSTREAM_MKFS=${UPSTREAM_MKFS:-/usr/sbin/mkfs.f2fs}
UPSTREAM_FSCK=${UPSTREAM_FSCK:-/usr/sbin/fsck.f2fs}
UPSTREAM_DUMP=${UPSTREAM_DUMP:-/usr/sbin/dump.f2fs}
CMD_TIMEOUT=${CMD_TIMEOUT:-60}
export MKFS UPSTREAM_MKFS UPSTREAM_FSCK UPSTREAM_DUMP

N_PASS=0
N_FAIL=0
N_SKIP=0
_FP_PATH=
_FP_VAL=

# Collapse a reason to one line of bounded length.
_one_line() {
	local s=${1//$'\n'/ }
	s=${s//$'\r'/ }
	[ ${#s} -gt 400 ] && s="${s:0:400}..."
	printf '%s' "$s"
}

pass() {
	echo "PASS: $1"
	N_PASS=$((N_PASS + 1))
}

fail() {
	echo "FAIL: $1: $(_one_line "${2:-failed}")"
	N_FAIL=$((N_FAIL + 1))
}

skip() {
	echo "SKIP: $1: $(_one_line "${2:-skipped}")"
	N_SKIP=$((N_SKIP + 1))
}

# Print a summary on stderr and exit 0 when no case failed, else 1.
finish() {
	echo "# $(basename "$0"): $N_PASS passed, $N_FAIL failed, $N_SKIP skipped" >&2
	[ "$N_FAIL" -eq 0 ] && exit 0
	exit 1
}

# --- work directory and cleanup ------------------------------------------

WORK=
_CLEANUPS=()

# Register a shell command to run at exit (run in reverse order, before the
# work directory is removed).
at_exit() {
	_CLEANUPS+=("$1")
}

_run_cleanups() {
	local i
	for ((i = ${#_CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${_CLEANUPS[i]}" >/dev/null 2>&1
	done
	[ -n "$WORK" ] && [ -d "$WORK" ] && rm -rf "$WORK"
}

# Create $WORK (a private temporary directory) and arrange its removal.
setup_workdir() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/f2fs-cli.XXXXXX") || {
		echo "FAIL: setup: cannot create a temporary directory"
		exit 1
	}
	trap _run_cleanups EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# Abort the whole script (one FAIL line) unless our mkfs is executable.
require_mkfs() {
	if [ ! -x "$MKFS" ]; then
		fail setup "MKFS=$MKFS is not executable (build with make first)"
		finish
	fi
}

# have_upstream TOOL...: true when every named upstream tool (mkfs, fsck,
# dump) is executable.
have_upstream() {
	local t bin
	for t in "$@"; do
		case $t in
		mkfs) bin=$UPSTREAM_MKFS ;;
		fsck) bin=$UPSTREAM_FSCK ;;
		dump) bin=$UPSTREAM_DUMP ;;
		*) return 1 ;;
		esac
		[ -x "$bin" ] || return 1
	done
	return 0
}

# --- running commands ----------------------------------------------------

# run_cmd CMD...: run with a timeout and no stdin; sets RC, and leaves the
# output in $WORK/last.out and $WORK/last.err.
run_cmd() {
	timeout -k 5 "$CMD_TIMEOUT" "$@" </dev/null >"$WORK/last.out" 2>"$WORK/last.err"
	RC=$?
}

# Describe an exit status that is not a plain exit (timeout, signal), or
# print nothing.
_abnormal_exit() {
	if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then
		echo "timed out after ${CMD_TIMEOUT}s"
	elif [ "$1" -gt 128 ] && [ "$1" -le 165 ]; then
		echo "killed by signal $(($1 - 128))"
	fi
}

# Print the first bytes of a file as one line (for failure reasons).
snippet() {
	head -c "${2:-200}" "$1" 2>/dev/null | tr '\n\0' '|@'
}

# --- file fingerprints ---------------------------------------------------

# fingerprint PATH: a line that changes when the file is written: "absent",
# or size, allocated blocks, mtime, ctime and a SHA-256 of the content.  Files
# over 256 MiB (sparse test images) hash their first 64 MiB and last 16 MiB;
# any other write still shows in the times and the allocation.
fingerprint() {
	local p=$1 size
	if [ ! -e "$p" ] && [ ! -L "$p" ]; then
		echo absent
		return
	fi
	if [ -d "$p" ]; then
		echo "dir $(stat -c '%y %z' "$p") $(find "$p" -mindepth 1 -maxdepth 1 -printf '%P %s %T@ %C@\n' | sort | sha256sum | cut -c1-64)"
		return
	fi
	if [ -b "$p" ]; then
		echo "bdev $(stat -L -c '%t:%T' "$p") $(sha256sum <"$p" | cut -c1-64)"
		return
	fi
	# settle delayed allocation first, or %b may change with no write at all
	sync "$p" 2>/dev/null
	size=$(stat -c %s "$p")
	if [ "$size" -gt $((256 << 20)) ]; then
		echo "$(stat -c '%s %b %y %z' "$p") $({ head -c $((64 << 20)) "$p"
			tail -c $((16 << 20)) "$p"; } | sha256sum | cut -c1-64)"
	else
		echo "$(stat -c '%s %b %y %z' "$p") $(sha256sum <"$p" | cut -c1-64)"
	fi
}

# Make a SIZE-byte image whose whole content is a non-zero pattern (so that
# any write, even of zeros or a hole punch, changes its hash).
make_pattern_image() {
	rm -f "$1"
	yes 'f2fs-tools-ng cli test pattern' | head -c "$2" >"$1"
}

# --- refusals ------------------------------------------------------------

# expect_refusal NAME REGEX -- CMD...
# The command must exit with a non-zero status (not a timeout or a signal)
# and print on stderr exactly one non-empty, newline-terminated line with no
# control characters, matching the extended REGEX case-insensitively.  When
# REFUSE_IMAGE names a path (set it in the environment of the call, e.g.
# `REFUSE_IMAGE=$img expect_refusal ...`), that path must be left exactly as
# it was (byte-identical, or still absent).  The stderr line is left in
# LAST_STDERR.
expect_refusal() {
	local name=$1 regex=$2 img=${REFUSE_IMAGE:-} before='' after='' why=() ab lines ctl
	shift 2
	if [ "${1:-}" != "--" ]; then
		fail "$name" "test bug: expect_refusal needs -- before the command"
		return 1
	fi
	shift
	if [ -n "$img" ]; then
		# The fingerprint left by the previous call on the same path is
		# still valid when the cheap stat part is unchanged: saves a hash.
		if [ "$img" = "$_FP_PATH" ] && [ -e "$img" ] &&
			[ "$(stat -c '%s %b %y %z' "$img")" = "${_FP_VAL% *}" ]; then
			before=$_FP_VAL
		else
			before=$(fingerprint "$img")
		fi
	fi
	run_cmd "$@"
	LAST_STDERR=$(head -c 2000 "$WORK/last.err" | tr -d '\0')
	ab=$(_abnormal_exit "$RC")
	if [ "$RC" -eq 0 ]; then
		why+=("exit status 0, expected a refusal")
	elif [ -n "$ab" ]; then
		why+=("$ab")
	fi
	lines=$(wc -l <"$WORK/last.err")
	ctl=$(LC_ALL=C tr -d '\t\n\040-\176\200-\377' <"$WORK/last.err" | wc -c)
	if [ ! -s "$WORK/last.err" ]; then
		why+=("nothing on stderr")
	else
		if [ "$lines" -ne 1 ] || [ "$(tail -c 1 "$WORK/last.err" | od -An -tx1 | tr -d ' ')" != 0a ]; then
			why+=("stderr is not exactly one line ($lines newlines)")
		fi
		if [ "$ctl" -ne 0 ]; then
			why+=("stderr has $ctl control/NUL byte(s)")
		fi
		if [ -z "${LAST_STDERR//[[:space:]]/}" ]; then
			why+=("stderr line is blank")
		elif ! grep -Eiq -e "$regex" <<<"$LAST_STDERR"; then
			why+=("stderr does not match /$regex/")
		fi
	fi
	if [ -n "$img" ]; then
		after=$(fingerprint "$img")
		_FP_PATH=$img
		_FP_VAL=$after
		if [ "$before" != "$after" ]; then
			if [ "$before" = absent ]; then
				why+=("$img was created")
			elif [ "${before##* }" = "${after##* }" ]; then
				why+=("$img was written to (content hash unchanged, but times or allocation changed)")
			else
				why+=("$img was modified (content hash changed)")
			fi
		fi
	fi
	if [ ${#why[@]} -eq 0 ]; then
		pass "$name"
		return 0
	fi
	local IFS=';'
	fail "$name" "${why[*]}; rc=$RC; stderr: $(snippet "$WORK/last.err")"
	return 1
}

# --- upstream fsck -------------------------------------------------------

# fsck_run IMG OUT: upstream fsck.f2fs --dry-run -f, output to OUT; sets RC.
fsck_run() {
	timeout -k 5 "$CMD_TIMEOUT" "$UPSTREAM_FSCK" --dry-run -f "$1" </dev/null >"$2" 2>&1
	RC=$?
}

# Lines of fsck output that may signal a problem: results that are not
# [Ok..], [Fail]/[FIX] marks, and anything mentioning corruption or fixing
# (except the informational size line).
_fsck_suspicious() {
	grep -E '^\[FSCK\]|\[Fail\]|\[FIX\]|[Cc]orrupt|[Ff]ix' "$1" |
		grep -Ev '\[Ok\.\.\]|^\[FSCK\] Max image size' | sort -u
}

# fsck_problems OURS_OUT BASELINE_OUT: print the suspicious lines of OURS_OUT
# that the baseline (upstream fsck on upstream's own fresh image of the same
# size and options) does not print too.  Upstream 1.15 reports some things
# ("Corrupted valid nat_bits", "fixing SIT types") on its own fresh images;
# those are not held against us.
fsck_problems() {
	comm -23 <(_fsck_suspicious "$1") <(_fsck_suspicious "$2")
}

# fsck_clean NAME IMG BASELINE_IMG: PASS when upstream fsck exits 0 on IMG and
# prints no problem line that it does not also print for BASELINE_IMG.
fsck_clean() {
	local name=$1 img=$2 base=$3 rc_ours probs
	fsck_run "$img" "$WORK/fsck.ours"
	rc_ours=$RC
	fsck_run "$base" "$WORK/fsck.base"
	probs=$(fsck_problems "$WORK/fsck.ours" "$WORK/fsck.base")
	if [ "$rc_ours" -ne 0 ]; then
		fail "$name" "upstream fsck exited $rc_ours: $(grep -E 'Fail|FIX|rror' "$WORK/fsck.ours" | head -3)"
	elif [ -n "$probs" ]; then
		fail "$name" "upstream fsck reports: $(head -3 <<<"$probs")"
	else
		pass "$name"
	fi
}

# dump_field IMG FIELD: the decimal value (or, for volum_name, the text) of
# one superblock/checkpoint field as shown by upstream dump.f2fs -d 1.
dump_field() {
	"$UPSTREAM_DUMP" -d 1 "$1" 2>/dev/null | awk -v f="$2" '
		$1 == f {
			line = $0
			sub(/^[^[]*\[/, "", line)
			sub(/\][[:space:]]*$/, "", line)
			if (line ~ /^0x/) { sub(/^.*: */, "", line) }
			print line
			exit
		}'
}
