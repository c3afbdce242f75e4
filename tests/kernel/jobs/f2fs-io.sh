#!/bin/sh
# Guest job: run every f2fs_io subcommand the kernel supports on $DEV,
# ours (/bin/f2fs_io) against upstream's (/bin/f2fs_io_up, Debian 1.15, and
# for the flag commands /bin/f2fs_io_new, newest upstream, when present).
#
# A compared case runs both tools with the same arguments (in each tool's
# own syntax where 1.15's differs) on the same file, or on two identically
# prepared files at the same path, and compares the exit status, stdout
# (timings masked) and, where the command changes something, the effect
# (STATE, printed by upstream's tool or busybox).  A case for a subcommand
# upstream 1.15 lacks runs ours only and checks its own invariants.  Each
# case prints "@@CASE name PASS@@", "@@CASE name FAIL reason@@" or
# "@@CASE name SKIP reason@@", a diff after a mismatch, and "@@NOTE name
# ...@@" when only stderr differs.  The last step is "f2fs_io shutdown 1";
# then "@@CASE-END@@", and @@JOB-FAIL@@ if any case failed.
#
# setflags and clearflags run for every name newest upstream acts on, and
# for names it takes without acting on them (noatime, bogus, the empty
# name), ours and newest upstream's each on a freshly prepared file, with
# exit status, stdout, stderr and the flags before and after (lsattr,
# getflags) compared, and what the 6.1 kernel does with each checked
# (flag_case).  Without /bin/f2fs_io_new only that last check runs.
#
# Environment (GUEST_JOB_ENV):
#   COMPRESS=1   the image has the compression feature: mount with
#                compress_algorithm=lz4,compress_mode=user and run the
#                compression cases (else they are skipped)
#   MODE=remount only mount, check dmesg and unmount (after a shutdown)
#   SCRATCH      a scratch block device for erase (default /dev/vdb)
# Busybox sh only.

JOB_NAME=f2fs-io
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

O=/bin/f2fs_io
U=/bin/f2fs_io_up
N=/bin/f2fs_io_new
T=$MNT/t
SCRATCH=${SCRATCH:-/dev/vdb}
nfail=0
failed_names=

opts=
[ "${COMPRESS:-0}" = 1 ] && opts="-o compress_algorithm=lz4,compress_mode=user"
# shellcheck disable=SC2086 # opts is a word list
mount -t f2fs $opts "$DEV" "$MNT" || fail "mount -t f2fs $opts $DEV failed"
grep -q "^$DEV $MNT f2fs rw" /proc/mounts || fail "$DEV not mounted rw"
check_dmesg "after mount"
if [ "${MODE:-}" = remount ]; then
	umount_dev
	echo "@@JOB-OK@@"
	exit 0
fi
[ -x "$O" ] || fail "$O missing"
[ -x "$U" ] || fail "$U missing"
for t in lsattr chattr; do
	command -v $t >/dev/null || fail "$t missing"
done
mkdir -p "$T" || fail "mkdir $T failed"

res() {
	echo "@@CASE $1 $2${3:+ $3}@@"
	if [ "$2" = FAIL ]; then
		nfail=$((nfail + 1))
		failed_names="$failed_names $1"
	fi
}

# Mask what differs from run to run: timings and rates.
norm() {
	sed -e 's/\(total_time *= *\)[0-9]*/\1T/g' -e 's/\(max_latency *= *\)[0-9]*/\1T/g' \
		-e 's/\(BW *= *\)[0-9.]*/\1T/g' -e 's/\(IO time *= *\)[0-9]*/\1T/g' \
		-e 's/\(mlock time *= *\)[0-9]*/\1T/g' -e 's/\(avg\. latency *= *\)[0-9.]*/\1T/g' \
		-e 's/\(IOPs *= *\)[0-9.]*/\1T/g'
}

# show FILE LABEL: a file's lines, prefixed, for the console.
show() {
	sed "s/^/| $2: /" "$1" | head -n 30
}

# cmp_case NAME "OURS ARGS" "UPSTREAM ARGS" [PREP]
# With PREP (a shell function) each tool gets a freshly prepared target;
# with STATE set (a command line) its output after each run is compared too.
# REF (a path) runs that upstream tool instead of 1.15's.
# UPFIX (a sed script) rewrites upstream 1.15's stdout into the format
# upstream adopted later and ours prints (fsync, write, read, pinfile set):
# the values still come from 1.15's run.
cmp_case() {
	n=$1
	if [ -n "${4:-}" ] && ! $4 >/tmp/prep.log 2>&1; then
		res "$n" FAIL "preparing the target failed: $(head -n 1 /tmp/prep.log)"
		return
	fi
	eval "$O $2" >/tmp/o.out 2>/tmp/o.err
	orc=$?
	: >/tmp/o.state
	[ -n "${STATE:-}" ] && eval "$STATE" >/tmp/o.state 2>&1
	if [ -n "${4:-}" ] && ! $4 >/tmp/prep.log 2>&1; then
		res "$n" FAIL "preparing the target again failed: $(head -n 1 /tmp/prep.log)"
		return
	fi
	eval "${REF:-$U} $3" >/tmp/u.out 2>/tmp/u.err
	urc=$?
	: >/tmp/u.state
	[ -n "${STATE:-}" ] && eval "$STATE" >/tmp/u.state 2>&1
	norm </tmp/o.out >/tmp/o.n
	norm </tmp/u.out | sed -e "${UPFIX:-}" >/tmp/u.n
	why=
	[ "$orc" = "$urc" ] || why="exit status ours $orc, upstream $urc;"
	cmp -s /tmp/o.n /tmp/u.n || why="$why stdout differs;"
	cmp -s /tmp/o.state /tmp/u.state || why="$why effect differs;"
	if [ -z "$why" ]; then
		res "$n" PASS
	else
		res "$n" FAIL "${why%;}"
		echo "| $n: ours: f2fs_io $2 (exit $orc); upstream: f2fs_io $3 (exit $urc)"
		diff -u /tmp/u.n /tmp/o.n | sed "s/^/| $n stdout: /" | head -n 40
		diff -u /tmp/u.state /tmp/o.state | sed "s/^/| $n effect: /" | head -n 20
		show /tmp/o.err "$n ours stderr"
		show /tmp/u.err "$n upstream stderr"
	fi
	if ! cmp -s /tmp/o.err /tmp/u.err; then
		echo "@@NOTE $n stderr differs: ours '$(head -n 1 /tmp/o.err)' upstream '$(head -n 1 /tmp/u.err)'@@"
	fi
}

# ours NAME ARGS: run our f2fs_io; output in /tmp/o.out, /tmp/o.err, $orc.
ours() {
	eval "$O $2" >/tmp/o.out 2>/tmp/o.err
	orc=$?
}

# expect NAME CONDITION-TEXT: judge an ours-only case by the shell test in
# $ok (set by the caller: 1 = pass); prints the output on failure.
judge() {
	if [ "$ok" = 1 ]; then
		res "$1" PASS
	else
		res "$1" FAIL "$2 (exit $orc, stdout '$(head -n 1 /tmp/o.out)', stderr '$(head -n 1 /tmp/o.err)')"
		show /tmp/o.out "$1 stdout"
		show /tmp/o.err "$1 stderr"
	fi
}

# out_is TEXT: stdout is exactly the line TEXT and the exit status 0.
out_is() {
	[ "$orc" = 0 ] && [ "$(cat /tmp/o.out)" = "$1" ]
}

# A compressible pattern, N KiB, to stdout.
text_kib() {
	awk -v n="$1" 'BEGIN { s = ""; while (length(s) < 1024) s = s "f2fs_io test line\n"
		s = substr(s, 1, 1024); for (i = 0; i < n; i++) printf "%s", s }'
}

# --- preparations (identical each time they run) --------------------------
P=$T/p
prep_empty() { rm -f "$P" && : >"$P"; }
prep_data() { rm -f "$P" && dd if=/dev/zero of="$P" bs=4k count=16 2>/dev/null && sync "$P"; }
prep_absent() { rm -f "$P"; }
prep_comp_empty() { prep_empty && $U setflags compression "$P" >/dev/null; }
prep_comp_raw() { prep_comp_empty && text_kib 256 >"$P" && sync "$P"; }
prep_comp() { prep_comp_raw && $U compress "$P" && sync "$P"; }
prep_comp_released() { prep_comp && $U release_cblocks "$P" >/dev/null; }
prep_copy() { rm -f "$T/copy-dst"; }
prep_rename() { rm -f "$T/ren-a" "$T/ren-b" && text_kib 8 >"$T/ren-a"; }

step "start"
text_kib 2 >"$T/small"
dd if=/dev/urandom of="$T/data" bs=4k count=16 2>/dev/null || fail "dd data failed"
sync "$T/data"

# --- flags ----------------------------------------------------------------
# Against newest upstream ($N) when 004 could hand it over, else 1.15 for
# getflags and our own expectations alone for setflags/clearflags.  Newest
# upstream takes any flag name: one it does not act on (noatime, bogus, the
# empty name, casefold for clearflags) leaves the flags as they were.
G=$O
[ -x "$N" ] && G=$N
FL=$T/fl
FL_DIR=0
# fl_reset: an empty file (a directory with FL_DIR=1) at $FL, lifting
# immutable first so that the old one can go.
fl_reset() {
	if [ -e "$FL" ]; then
		$G clearflags immutable "$FL" >/dev/null 2>&1
		rm -rf "$FL" || return 1
	fi
	if [ "$FL_DIR" = 1 ]; then mkdir "$FL"; else : >"$FL"; fi
}
# fl_with NAME...: fl_reset, then set each flag (where the kernel lets it)
fl_with() {
	fl_reset || return 1
	for fw in "$@"; do
		$G setflags "$fw" "$FL" >/dev/null 2>&1
	done
	return 0
}
fl_pinned() { fl_reset && $G pinfile set "$FL" >/dev/null; }
fl_noatime() { fl_reset && chattr +A "$FL"; }
fl_many() {
	fl_reset || return 1
	[ "${COMPRESS:-0}" = 1 ] && $G setflags nocompression "$FL" >/dev/null
	$G pinfile set "$FL" >/dev/null && $G setflags immutable "$FL" >/dev/null
}
fl_comp_immutable() { fl_with compression immutable; }
# The flags word as lsattr shows it (every bit, noatime's too), then getflags.
fl_state() {
	lsattr -d "$FL" | cut -d' ' -f1
	$G getflags "$FL"
}
# shown WHICH NAME: getflags in /tmp/o.WHICH lists NAME
shown() {
	sed -n '2s/.*flags=//p' "/tmp/o.$1" | tr ',' '\n' | grep -qx "$2"
}

# flag_case CMD NAME PREP EXPECT: run CMD (setflags or clearflags) with
# NAME on $FL, prepared by PREP before each tool, ours and newest
# upstream's; both must give the same exit status, stdout, stderr and
# flags.  EXPECT is what ours must do: "set" (exit 0, getflags lists NAME
# after and not before), "cleared" (the reverse), "same" (exit 0, every bit
# as before) or "refused" (exit 1 with EOPNOTSUPP's message, every bit as
# before).
flag_case() {
	fn=$1-${2:-empty-name}
	[ "$FL_DIR" = 1 ] && fn=$fn-dir
	why=
	for t in o n; do
		tool=$O
		if [ $t = n ]; then
			[ -x "$N" ] || break
			tool=$N
		fi
		$3 >/tmp/prep.log 2>&1 || why="$why preparing ($3) failed: $(head -n 1 /tmp/prep.log);"
		fl_state >"/tmp/$t.before" 2>&1
		$tool "$1" "$2" "$FL" >"/tmp/$t.out" 2>"/tmp/$t.err"
		echo $? >"/tmp/$t.rc"
		fl_state >"/tmp/$t.state" 2>&1
	done
	if [ -x "$N" ]; then
		for f in rc out err before state; do
			cmp -s "/tmp/o.$f" "/tmp/n.$f" || why="$why $f differs from upstream's;"
		done
	fi
	orc=$(cat /tmp/o.rc)
	ok=0
	case $4 in
	set) [ "$orc" = 0 ] && ! shown before "$2" && shown state "$2" && ok=1 ;;
	cleared) [ "$orc" = 0 ] && shown before "$2" && ! shown state "$2" && ok=1 ;;
	same) [ "$orc" = 0 ] && cmp -s /tmp/o.before /tmp/o.state && ok=1 ;;
	refused)
		[ "$orc" = 1 ] && [ "$(cat /tmp/o.err)" = "F2FS_IOC_SETFLAGS failed: Operation not supported" ] &&
			cmp -s /tmp/o.before /tmp/o.state && ok=1
		;;
	esac
	[ "$ok" = 1 ] || why="$why not $4 (exit $orc);"
	if [ -z "$why" ]; then
		res "$fn" PASS
		return
	fi
	why=${why# }
	res "$fn" FAIL "${why%;}"
	for f in before out err state; do
		show "/tmp/o.$f" "$fn ours $f"
		[ -x "$N" ] && show "/tmp/n.$f" "$fn upstream $f"
	done
	echo "| $fn: exit ours $orc, upstream $(cat /tmp/n.rc 2>/dev/null)"
}

STATE=
REF=$N
[ -x "$N" ] || REF=
cmp_case getflags-file "getflags $T/small" "getflags $T/small"
cmp_case getflags-dir "getflags $T" "getflags $T"
cmp_case getflags-many "getflags $FL" "getflags $FL" fl_many
cmp_case getflags-compression-immutable "getflags $FL" "getflags $FL" fl_comp_immutable
REF=
if [ ! -x "$N" ]; then
	echo "@@NOTE flags: no newest upstream f2fs_io; setflags/clearflags checked against expectations only@@"
fi
if [ "${COMPRESS:-0}" = 1 ]; then
	c_set="set"
	c_clear="cleared"
else
	# refused without the compression feature; nothing to clear then
	c_set="refused"
	c_clear="same"
fi
for n in compression nocompression; do
	flag_case setflags $n fl_reset $c_set
	flag_case clearflags $n "fl_with $n" $c_clear
done
flag_case setflags casefold fl_reset refused # a regular file, and no casefold feature
flag_case setflags immutable fl_reset set
flag_case clearflags immutable "fl_with immutable" cleared
# 6.1 takes nocow through setflags but pins and unpins only through
# F2FS_IOC_SET_PIN_FILE.
flag_case setflags nocow fl_reset same
flag_case clearflags nocow fl_pinned same
# Names upstream does not act on: every bit stays, immutable and noatime too.
for n in noatime bogus ""; do
	flag_case setflags "$n" fl_reset same
done
flag_case clearflags noatime fl_noatime same
for n in casefold bogus ""; do
	flag_case clearflags "$n" "fl_with immutable" same
done
FL_DIR=1
flag_case setflags casefold fl_reset refused # no casefold feature
flag_case setflags compression fl_reset $c_set
flag_case clearflags compression "fl_with compression" $c_clear
FL_DIR=0
fl_reset && rm -f "$FL"

# --- pinfile --------------------------------------------------------------
STATE="$U pinfile get $P"
UPFIX='s/^set_pin_file: /set pinfile: /'
cmp_case pinfile-set "pinfile set $P" "pinfile set $P" prep_data
STATE=
UPFIX=
cmp_case pinfile-get-pinned "pinfile get $P" "pinfile get $P"
cmp_case pinfile-get-unpinned "pinfile get $T/data" "pinfile get $T/data"
ours pinfile "pinfile unset $P"
ok=0
out_is "unset pinfile in $P" && $U pinfile get "$P" | grep -q 'un-pinned' && ok=1
judge pinfile-unset "not unpinned"
prep_empty
ours pinfile "pinfile set $P 1048576"
ok=0
[ "$orc" = 0 ] && grep -q 'fallocate 1048576 bytes' /tmp/o.out && [ "$(stat -c %s "$P")" = 1048576 ] &&
	$U pinfile get "$P" | grep -q ': pinned' && ok=1
judge pinfile-set-size "pinned fallocate of 1 MiB"

# --- fsync, fdatasync, fiemap ---------------------------------------------
UPFIX='s/^fsync a file$/fsync total_time = T us/'
cmp_case fsync "fsync $T/data" "fsync $T/data"
UPFIX=
ours fdatasync "fdatasync $T/data"
ok=0
out_is "fdatasync a file" && ok=1
judge fdatasync "fdatasync"
cmp_case fiemap "fiemap 0 16 $T/data" "fiemap 0 16 $T/data"
cmp_case fiemap-partial "fiemap 4 8 $T/data" "fiemap 4 8 $T/data"
cmp_case fiemap-small "fiemap 0 4 $T/small" "fiemap 0 4 $T/small"
ours fiemap "fiemap 0 16 $T/data 1"
ok=0
[ "$orc" = 0 ] && sed '1d' /tmp/o.out | grep -q '^0	' && ok=1
judge fiemap-sync-flag "fiemap with flags 1"

# --- write / read ---------------------------------------------------------
STATE="md5sum $P; stat -c '%s %b' $P"
UPFIX='s/pattern=\([a-z_]*\), total_time=T us, max_latency=T us$/pattern = \1, total_time = T us, max_latency = T us/'
cmp_case write-inc_num "write 1 0 4 inc_num buffered $P" "write 1 0 4 inc_num buffered $P" prep_absent
cmp_case write-zero-dio "write 2 1 2 zero dio $P" "write 2 1 2 zero dio $P" prep_absent
cmp_case write-osync "write 1 0 3 zero osync $P" "write 1 0 3 zero osync $P" prep_absent
cmp_case write-atomic_commit "write 1 0 2 inc_num atomic_commit $P" "write 1 0 2 inc_num atomic_commit $P" prep_data
cmp_case write-atomic_abort "write 1 0 2 inc_num atomic_abort $P" "write 1 0 2 inc_num atomic_abort $P" prep_data
STATE=
UPFIX='s/^Read \([0-9]*\) bytes and print \([0-9]*\) bytes:$/Read \1 bytes total_time = T us, BW = T MB\/s, IO time = T us, mlock time = T us, print \2 bytes:/'
rm -f "$P"
$U write 1 0 4 inc_num buffered "$P" >/dev/null
sync "$P"
cmp_case read-buffered "read 1 0 4 buffered 0 64 $P" "read 1 0 4 buffered 64 $P"
cmp_case read-dio "read 1 1 2 dio 0 32 $P" "read 1 1 2 dio 32 $P"
cmp_case read-mmap "read 1 0 4 mmap 0 16 $P" "read 1 0 4 mmap 16 $P"
UPFIX=
ours read "read 1 0 4 buffered 0 64 $P"
sed -n '2,$p' /tmp/o.out >/tmp/hex.buffered
for io in dio mmap mlock madvise fadvise dontcache; do
	ours read "read 1 0 4 $io 1 64 $P"
	ok=0
	[ "$orc" = 0 ] && grep -q '^Read 16384 bytes' /tmp/o.out &&
		sed -n '/^Read /,$p' /tmp/o.out | sed '1d' | cmp -s - /tmp/hex.buffered && ok=1
	# RWF_DONTCACHE is newer than 6.1: the kernel's refusal is fine.
	[ $io = dontcache ] && [ "$orc" = 1 ] && grep -q 'Operation not supported' /tmp/o.err && ok=1
	judge "read-$io-advice" "read with $io and advice 1: 16384 bytes and the buffered hex dump"
done
ours randread "randread 1 8 buffered 1 $P"
ok=0
[ "$orc" = 0 ] && grep -q 'fadvise RANDOM|WILLNEED' /tmp/o.out &&
	grep -Eq '^Read 32768 bytes total_time = [0-9]+ us' /tmp/o.out && ok=1
judge randread-buffered "8 random 4 KiB reads"
ours randread "randread 1 4 dio 0 $P"
ok=0
[ "$orc" = 0 ] && grep -q '^Read 16384 bytes' /tmp/o.out && ok=1
judge randread-dio "4 random direct reads"
ours randread "randread 1 4 mmap 0 $P"
ok=0
[ "$orc" = 0 ] && grep -q '^Read 16384 bytes' /tmp/o.out && ok=1
judge randread-mmap "4 random mmap reads"
ours fragread "fragread 1 0 4 1 $P"
ok=0
[ "$orc" = 0 ] && grep -q '^Fragmented_Read 16384 bytes' /tmp/o.out && ok=1
judge fragread "fragmented read of 16384 bytes"
rm -f "$P"
ours write_advice "write_advice 1 0 2 inc_num buffered hot $P"
ok=0
[ "$orc" = 0 ] && grep -q '^Written 8192 bytes' /tmp/o.out && [ "$(stat -c %s "$P")" = 8192 ] && ok=1
judge write_advice-hot "8 KiB written with the hot hint"
ours get_advise "get_advise $P"
ok=0
[ "$orc" = 0 ] && grep -q '^i_advise=0x[0-9a-f]*, advise_type: .*hot' /tmp/o.out && ok=1
judge get_advise-hot "the hot bit"

# --- fallocate, ftruncate, lseek ------------------------------------------
STATE="stat -c '%s %b' $P"
cmp_case fallocate "fallocate 0 0 65536 $P" "fallocate 0 0 65536 $P" prep_empty
cmp_case fallocate-keep_size "fallocate 1 0 65536 $P" "fallocate 1 0 65536 $P" prep_empty
STATE=
prep_data
ours fallocate "fallocate -p 1 4096 8192 $P"
ok=0
[ "$orc" = 0 ] && grep -q '^fallocated a file: i_size=65536, i_blocks=112$' /tmp/o.out && ok=1
judge fallocate-punch "punch 2 blocks of 16"
ours fallocate "fallocate -z 0 0 8192 $P"
ok=0
[ "$orc" = 0 ] && grep -q '^fallocated a file: i_size=65536' /tmp/o.out && ok=1
judge fallocate-zero "zero range"
ours fallocate "fallocate -c 0 0 8192 $P"
ok=0
[ "$orc" = 0 ] && [ "$(stat -c %s "$P")" = 57344 ] && ok=1
judge fallocate-collapse "collapse 8 KiB off 64 KiB"
ours fallocate "fallocate -i 0 0 8192 $P"
ok=0
[ "$orc" = 0 ] && [ "$(stat -c %s "$P")" = 65536 ] && ok=1
judge fallocate-insert "insert 8 KiB"
ours ftruncate "ftruncate 12345 $P"
ok=0
[ "$orc" = 0 ] && [ ! -s /tmp/o.out ] && [ "$(stat -c %s "$P")" = 12345 ] && ok=1
judge ftruncate "size 12345"
rm -f "$P"
dd if=/dev/urandom of="$P" bs=4k count=1 2>/dev/null
dd if=/dev/urandom of="$P" bs=4k count=1 seek=256 2>/dev/null
sync "$P"
for spec in "data 0 0" "hole 0 4096" "data 4096 1048576" "set 100 100" "end 0 1052672" "cur 7 7"; do
	# shellcheck disable=SC2086 # split on purpose
	set -- $spec
	ours lseek "lseek $1 $2 $P"
	ok=0
	out_is "returned offset=$3" && ok=1
	judge "lseek-$1-$2" "offset $3"
done

# --- xattrs ---------------------------------------------------------------
prep_empty
ours setxattr "setxattr user.k v1 $P"
ok=0
out_is "setxattr $P CREATE: name: user.k, value: v1: ret=0" && ok=1
judge setxattr-create "create user.k"
ours setxattr "setxattr user.k v2 $P"
ok=0
[ "$orc" = 0 ] && [ "$(cat /tmp/o.out)" = "setxattr $P CREATE: name: user.k, value: v2: ret=-1
setxattr $P REPLACE: name: user.k, value: v2: ret=0" ] && ok=1
judge setxattr-replace "CREATE fails, REPLACE succeeds"
ours listxattr "listxattr $P"
ok=0
[ "$orc" = 0 ] && grep -qx 'user.k: v2' /tmp/o.out && ok=1
judge listxattr "user.k: v2"
ours removexattr "removexattr user.k $P"
ok=0
out_is "removexattr user.k REMOVE: name: $P: ret=0" && ok=1
judge removexattr "remove user.k"
ours listxattr "listxattr $P"
ok=0
[ "$orc" = 0 ] && ! grep -q 'user.k' /tmp/o.out && ok=1
judge listxattr-after-remove "user.k gone"
$O setxattr user.fadvise 1 "$P" >/dev/null 2>&1
ours get_fadvise "get_fadvise $P"
ok=0
[ "$orc" = 0 ] && grep -q '^fadvise=0x1, advise_type: ' /tmp/o.out && ok=1
judge get_fadvise "fadvise=0x1"
ours fadvise "fadvise willneed 0 4096 $P"
ok=0
out_is "fadvice willneed to a file: $P" && ok=1
judge fadvise "willneed"
ours ioprio "ioprio ioprio_write $P"
ok=0
# F2FS_IOC_IO_PRIO arrived after 6.1: refused by the kernel is fine.
if out_is "ioprio_hint 1 to a file: $P"; then
	ok=1
elif [ "$orc" = 1 ] && grep -q 'Inappropriate ioctl\|not supported\|Invalid argument' /tmp/o.err; then
	ok=1
fi
judge ioprio "hint accepted, or refused by the kernel"

# --- copy, rename, defrag, move_range, precache, checkpoint ---------------
STATE="md5sum $T/copy-dst"
cmp_case copy "copy $T/data $T/copy-dst" "copy $T/data $T/copy-dst" prep_copy
cmp_case copy-d "copy -d $T/data $T/copy-dst" "copy -d $T/data $T/copy-dst" prep_copy
cmp_case copy-m "copy -m $T/data $T/copy-dst" "copy -m $T/data $T/copy-dst" prep_copy
cmp_case copy-s "copy -s $T/data $T/copy-dst" "copy -s $T/data $T/copy-dst" prep_copy
STATE="ls $T | grep ren-; md5sum $T/ren-b"
cmp_case rename-fsync "rename $T/ren-a $T/ren-b 1" "rename $T/ren-a $T/ren-b 1" prep_rename
cmp_case rename "rename $T/ren-a $T/ren-b 0" "rename $T/ren-a $T/ren-b 0" prep_rename
STATE="md5sum $P"
cmp_case defrag_file "defrag_file 0 65536 $P" "defrag_file 0 65536 $P" prep_data
STATE=
prep_data
ours defrag_file "defrag_file $P"
ok=0
out_is "defrag $P in region[0, 65536]" && ok=1
judge defrag_file-whole "whole file"
ours precache_extents "precache_extents $T/data"
ok=0
out_is "trigger precache extents ret=0" && ok=1
judge precache_extents "ret=0"
rm -f "$T/mv-src" "$T/mv-dst"
dd if=/dev/urandom of="$T/mv-src" bs=4k count=4 2>/dev/null
sync "$T/mv-src"
head -c 8192 "$T/mv-src" | md5sum | cut -d' ' -f1 >/tmp/mv.want
ours move_range "move_range $T/mv-src $T/mv-dst 0 0 8192"
ok=0
out_is "move range ret=0" && [ "$(stat -c %s "$T/mv-dst")" = 8192 ] &&
	[ "$(md5sum <"$T/mv-dst" | cut -d' ' -f1)" = "$(cat /tmp/mv.want)" ] && ok=1
judge move_range "8 KiB moved"
ours checkpoint "checkpoint $T/data"
ok=0
out_is "trigger filesystem checkpoint ret=0" && ok=1
judge checkpoint "ret=0"

# --- compression ----------------------------------------------------------
if [ "${COMPRESS:-0}" = 1 ]; then
	prep_comp
	cmp_case get_cblocks "get_cblocks $P" "get_cblocks $P"
	cmp_case get_coption "get_coption $P" "get_coption $P"
	STATE="$U getflags $P; $U get_cblocks $P; md5sum $P"
	cmp_case release_cblocks "release_cblocks $P" "release_cblocks $P" prep_comp
	cmp_case reserve_cblocks "reserve_cblocks $P" "reserve_cblocks $P" prep_comp_released
	cmp_case decompress "decompress $P" "decompress $P" prep_comp
	cmp_case compress "compress $P" "compress $P" prep_comp_raw
	STATE="$U get_coption $P"
	cmp_case set_coption "set_coption 1 3 $P" "set_coption 1 3 $P" prep_comp_empty
	STATE=
	ok=0
	prep_comp
	ours get_cblocks "get_cblocks $P"
	[ "$orc" = 0 ] && [ "$(cat /tmp/o.out)" -gt 0 ] 2>/dev/null && ok=1
	judge get_cblocks-nonzero "compressed blocks > 0"
else
	for n in get_cblocks get_coption release_cblocks reserve_cblocks decompress compress \
		set_coption get_cblocks-nonzero; do
		res "$n" SKIP "no compression feature"
	done
fi
STATE=
cmp_case get_cblocks-plain "get_cblocks $T/data" "get_cblocks $T/data"

# --- things the image does not support (both must refuse alike) -----------
cmp_case set_verity "set_verity $T/small" "set_verity $T/small"
cmp_case get_filename_encrypt_mode "get_filename_encrypt_mode $T" "get_filename_encrypt_mode $T"
if [ -b "$SCRATCH" ]; then
	cmp_case erase "erase $SCRATCH" "erase $SCRATCH"
else
	res erase SKIP "no scratch device $SCRATCH"
fi
cmp_case erase-not-blockdev "erase $T/data" "erase $T/data"

# --- gc -------------------------------------------------------------------
cmp_case gc_urgent-start "gc_urgent $DEV_NAME start" "gc_urgent $DEV_NAME start"
cmp_case gc_urgent-end "gc_urgent $DEV_NAME end" "gc_urgent $DEV_NAME end"
cmp_case gc_urgent-run "gc_urgent $DEV_NAME run 1" "gc_urgent $DEV_NAME run 1"
for s in 0 1; do
	ours gc "gc $s $T/data"
	ok=0
	mode=asynchronous
	[ $s = 1 ] && mode=synchronous
	if out_is "trigger $mode gc ret=0"; then
		ok=1
	elif [ "$orc" = 1 ] && grep -q 'F2FS_IOC_GARBAGE_COLLECT failed' /tmp/o.err; then
		ok=1
	fi
	judge "gc-$s" "gc $s"
	echo "| gc-$s: exit $orc $(head -n 1 /tmp/o.out) $(head -n 1 /tmp/o.err)"
done
# The range must lie in the main area: main_blkaddr is at byte 92 of the
# superblock (which starts at byte 1024).
main=$(od -An -tu4 -j1116 -N4 "$DEV" | tr -d ' ')
ours gc_range "gc_range 1 $main 512 $T/data"
ok=0
if out_is "trigger synchronous gc_range [$main, 512] ret=0"; then
	ok=1
elif [ "$orc" = 1 ] && grep -q 'F2FS_IOC_GARBAGE_COLLECT_RANGE failed' /tmp/o.err &&
	! grep -q 'Invalid argument' /tmp/o.err; then
	ok=1
fi
judge gc_range "gc_range 1 $main 512"
echo "| gc_range: exit $orc $(head -n 1 /tmp/o.out) $(head -n 1 /tmp/o.err)"

# --- perf tests -----------------------------------------------------------
mkdir -p "$T/perf"
ours test_create_perf "test_create_perf -s $T/perf 20 4"
ok=0
[ "$orc" = 0 ] && grep -Eq '^CREATE,20,4,[0-9.]+,[0-9.]*[1-9]' /tmp/o.out &&
	grep -Eq '^DELETE,20,4,[0-9.]+,[0-9.]*[1-9]' /tmp/o.out && [ -z "$(ls "$T/perf")" ] && ok=1
judge test_create_perf "CREATE/DELETE lines for 20 files, directory empty after"
ours test_lookup_perf "test_lookup_perf -i $T/perf 20"
ok=0
[ "$orc" = 0 ] && [ "$(ls "$T/perf" | wc -l)" = 20 ] && ok=1
judge test_lookup_perf-init "20 files created"
ours test_lookup_perf "test_lookup_perf $T/perf 20"
ok=0
[ "$orc" = 0 ] && grep -Eq '^readdir: 2[0-9], [0-9.]+, [0-9.]*[1-9]' /tmp/o.out &&
	grep -Eq '^stat: 20, [0-9.]+, [0-9.]*[1-9]' /tmp/o.out && ok=1
judge test_lookup_perf "readdir and stat lines with rates > 0"

# --- freeze / thaw --------------------------------------------------------
ours freeze "freeze $MNT"
frc=$orc
ok=0
[ "$orc" = 0 ] && ok=1
judge freeze "freeze $MNT"
ours thaw "thaw $MNT"
ok=0
[ "$orc" = 0 ] && timeout 20 sh -c "echo after-thaw >$T/thawed && sync $T/thawed" && ok=1
judge thaw "thaw $MNT, then a write"
[ "$frc" = 0 ] && [ "$ok" = 0 ] && fail "the file system stays frozen"

# --- shutdown (last) ------------------------------------------------------
bad=$(dmesg | grep -i 'f2fs' |
	grep -Ei 'error|fsck|corrupt|inconsisten|invalid|mismatch|wrong|fail|bad |unexpected|bug')
dmesg | grep -Eq 'BUG:|WARNING:|Call Trace:' && bad="$bad kernel warning or oops"
if [ -z "$bad" ]; then
	res dmesg PASS
else
	res dmesg FAIL "kernel complained: $(echo "$bad" | head -n 1)"
fi
sync
ours shutdown "shutdown 1 $MNT"
ok=0
out_is "Shutdown $MNT with level=1" && ok=1
judge shutdown-1 "checkpoint, then shutdown"
umount "$MNT" || fail "umount after shutdown failed"
echo "@@CASE-END@@"
if [ "$nfail" -gt 0 ]; then
	echo "@@JOB-FAIL@@ $nfail case(s) failed:$failed_names"
	exit 1
fi
echo "@@JOB-OK@@"
