# shellcheck shell=bash
# Host-side helpers shared by the kernel tests (tests/kernel/0*.sh).
#
# Source this file from a bash test script, after guest.sh.  The script
# defines all_names (every case name, in report order) before it calls
# abandon or start_work, and may replace the printers.
#
#   pass NAME / fail NAME REASON / skip NAME REASON
#                      one result line on stdout; fail sets failed=1 and
#                      folds REASON onto one line
#   info TEXT...       a detail line on stderr
#   now / since T0     a time stamp, and the seconds since one
#   abandon REASON     the harness is unusable: skip every case (fail it
#                      with CI=true) and exit
#   start_work NAME    make $work (and GUEST_WORKDIR in it), removed at exit,
#                      and set the guest up; abandons when either fails
#   need_executable TOOL...
#                      a tool under test that is missing fails every case
#   finish_work GLOB   exit with $failed; after a failure keep $work with
#                      its logs but delete the files matching GLOB
#   upstream_problem LOG / fsck_finished LOG / fsck_log_tail LOG
#                      pieces of judging an fsck run (see below)
#   upstream_verdict RC LOG / our_verdict RC LOG
#                      print why a run was not clean and return 1, or
#                      return 0 when it was
#   case_results LOG PREFIX
#                      a result line for each "@@CASE NAME PASS|FAIL|SKIP
#                      [REASON]@@" marker a job printed (as PREFIX/NAME),
#                      and its "| ..." and "@@NOTE ..." lines on stderr
#   make_manifest SRC PREFIX
#                      PREFIX.names, .sums, .links, .symlinks of tree SRC, as
#                      the guest jobs remount-check and check-many make them

failed=0
pass() { echo "PASS: $1"; }
fail() {
	echo "FAIL: $1: $(echo "$2" | tr '\n' ' ' | sed 's/ *$//')"
	failed=1
}
skip() { echo "SKIP: $1: $2"; }
info() { echo "# $*" >&2; }

now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.2f", e - s }'; }

abandon() {
	local n
	for n in $(all_names); do
		if [ "${CI:-}" = true ]; then
			fail "$n" "$1"
		else
			skip "$n" "$1"
		fi
	done
	exit "$failed"
}

start_work() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/f2fs-$1.XXXXXX") ||
		abandon "cannot create a directory under ${TMPDIR:-/tmp}"
	trap 'rm -rf "$work"' EXIT
	# shellcheck disable=SC2034 # read by guest.sh
	GUEST_WORKDIR=$work/guest
	guest_init || abandon "kernel harness unavailable: $guest_error"
}

need_executable() {
	local tool
	for tool in "$@"; do
		[ -x "$tool" ] || CI=true abandon "$tool is not executable"
	done
}

finish_work() {
	if [ "$failed" != 0 ]; then
		# Keep the console logs of a failed run for whoever reads the report.
		trap - EXIT
		find "$work" -name "$1" -delete
		info "logs kept in $work"
	fi
	exit "$failed"
}

# upstream_problem LOG: the first line of upstream fsck's output that tells
# of a problem, if any.  upstream 1.15 on a clean image prints its Info
# lines and a table of "[Ok..]" results, and with -f also "Info: Force to
# fix corruption" and "[FSCK] fixing SIT types" (both unconditional).  A
# repair shows up as "[FIX]", "[ASSERT]", "[Fail]", a question, "Info: Fix
# ..." or "Corrupted ..." lines.
upstream_problem() {
	grep -v -e '^Info: Force to fix corruption$' -e '^\[FSCK\] fixing SIT types$' \
		-e '^\[FSCK\] .*\[Ok\.\.\]' "$1" |
		grep -Ei '\[FIX\]|\[ASSERT\]|\[Fail\]|\[ERROR\]|Do you want|fix|corrupt|invalid|error|-->' |
		head -n 1
}

# fsck_finished LOG: the summary table (upstream's and ours) got to its end.
fsck_finished() {
	grep -q '^\[FSCK\] other corrupted bugs *\[Ok\.\.\]' "$1"
}

# fsck_log_tail LOG: the end of an fsck log, without the per-node lines.
fsck_log_tail() {
	grep -v '^\[FSCK\] Check node' "$1" | tail -n 40
}

# upstream_verdict RC LOG: clean means exit 0, no problem line and the
# table finished.
upstream_verdict() {
	local rc=$1 out=$2 bad
	bad=$(upstream_problem "$out")
	if [ "$rc" != 0 ]; then
		echo "exit $rc${bad:+ ($bad)}"
		return 1
	fi
	if [ -n "$bad" ]; then
		echo "exit 0 but reported: $bad"
		return 1
	fi
	if ! fsck_finished "$out"; then
		echo "exit 0 but did not finish ($(tail -n 1 "$out"))"
		return 1
	fi
	return 0
}

# our_verdict RC LOG: clean means exit 0, no "[FSCK] PR_" line and the
# summary table finished.
our_verdict() {
	local rc=$1 out=$2 pr
	pr=$(grep -o '^\[FSCK\] PR_[A-Z0-9_]*' "$out" | sed 's/^\[FSCK\] //' | sort | uniq -c |
		awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }')
	if [ "$rc" != 0 ]; then
		echo "exit $rc${pr:+ ($pr)}$( [ -z "$pr" ] && tail -n 1 "$out" | sed 's/^/: /')"
		return 1
	fi
	if [ -n "$pr" ]; then
		echo "exit 0 but printed $pr"
		return 1
	fi
	if ! fsck_finished "$out"; then
		echo "exit 0 but did not finish ($(tail -n 1 "$out"))"
		return 1
	fi
	return 0
}

# fscks_clean IMG TAG: our fsck ($FSCK) -f -n and upstream's --dry-run -f (when
# $UPSTREAM_FSCK is executable) both find IMG clean; else print which did
# not and why, and return 1.  The logs are $work/TAG.ours and TAG.upstream.
fscks_clean() {
	local img=$1 tag=$2 rc v
	"$FSCK" -f -n "$img" </dev/null >"$work/$tag.ours" 2>&1
	rc=$?
	if ! v=$(our_verdict "$rc" "$work/$tag.ours"); then
		echo "our fsck: $v"
		return 1
	fi
	[ -x "$UPSTREAM_FSCK" ] || return 0
	"$UPSTREAM_FSCK" --dry-run -f "$img" </dev/null >"$work/$tag.upstream" 2>&1
	rc=$?
	if ! v=$(upstream_verdict "$rc" "$work/$tag.upstream"); then
		echo "upstream fsck: $v"
		return 1
	fi
}

# clean_or_why NAME IMG WHEN: fscks_clean for a script that keeps its reasons
# in the associative array why (declare -A why): why[NAME] says what was
# not clean WHEN.
clean_or_why() {
	local r
	r=$(fscks_clean "$2" "$1-$3") && return 0
	why[$1]="$3: $r"
	return 1
}

# Manifest of a tree, made the same way on the host and in the guest (the
# guest's busybox has the same find/sort/sha256sum/stat -c/readlink), so the
# two can be compared with cmp.
make_manifest() {
	local src=$1 out=$2
	(
		cd "$src" || exit 1
		find . | LC_ALL=C sort >"$out.names" &&
			find . -type f | LC_ALL=C sort | xargs sha256sum >"$out.sums" &&
			find . -type f | LC_ALL=C sort | xargs stat -c '%h %s %a %n' >"$out.links" &&
			find . -type l | LC_ALL=C sort | while read -r l; do
				echo "$l -> $(readlink "$l")"
			done >"$out.symlinks"
	)
}

case_results() {
	local log=$1 prefix=$2 line name status reason
	while IFS= read -r line; do
		line=${line#@@CASE }
		line=${line%@@}
		name=${line%% *}
		line=${line#"$name"}
		line=${line# }
		status=${line%% *}
		reason=${line#"$status"}
		reason=${reason# }
		case $status in
		PASS) pass "$prefix/$name" ;;
		FAIL) fail "$prefix/$name" "$reason" ;;
		SKIP) skip "$prefix/$name" "$reason" ;;
		*) fail "$prefix/$name" "unreadable marker: $line" ;;
		esac
	done < <(grep -a '^@@CASE [^ ]* ' "$log")
	# diffs and notes for whoever reads the failures
	grep -a -e '^| ' -e '^@@NOTE ' "$log" | sed 's/^/# /' >&2
}
