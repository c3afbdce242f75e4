#!/bin/bash
# f2fs_io replay: each built-in workload, a hand-written trace and a saved
# trace run on images from our mkfs; after every run both fscks find the
# volume clean and the engine's own read-back found no difference.  The
# policies must move the figures the way the kernel's do: without
# checkpoint_merge nothing is merged; serialised writepages gives far fewer
# extents than interleaved writers.  strace logs (-ttt, -tt, -t) have their
# relative paths placed where the log shows each process to be, or at
# --strace-root, and are refused when nothing says.  Bad input -- a bad
# trace line, a bad policy value, an unknown workload, a device without
# F2FS, --compare without --mkfs, a wrong command line -- gets one line,
# exit 1, and the image unchanged; so do operations that failed.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup_workdir
require_mkfs

F2FS_IO=${F2FS_IO:-$TOP/tools/f2fs_io/f2fs_io}
FSCK=${FSCK:-$TOP/fsck/fsck.f2fs}
export F2FS_REPLAY_MKFS=$MKFS
IMG=$WORK/replay.img
MODEL=(--device-model 400,20000,1)

# both fscks clean on the image
both_clean() {
	local name=$1 out
	if ! out=$("$FSCK" -f "$IMG" 2>&1); then
		fail "$name" "our fsck: $(echo "$out" | grep -m3 -E 'PR_|Fail|error')"
		return 1
	fi
	if [ -x "$UPSTREAM_FSCK" ] && ! out=$("$UPSTREAM_FSCK" -f "$IMG" 2>&1); then
		fail "$name" "upstream fsck: $(echo "$out" | grep -m3 -iE 'fail|error')"
		return 1
	fi
	return 0
}

# value of "KEY: N" style figures in the text report
figure() { sed -n "s/.*$1 \([0-9][0-9]*\).*/\1/p" | head -1; }

rm -f "$IMG"
truncate -s 2G "$IMG"

# --- each workload, small ---
run_workload() {
	local name=$1 out
	shift
	if ! out=$("$F2FS_IO" replay --mkfs "$MKFS_ARGS" "${MODEL[@]}" "$@" "$IMG" 2>&1); then
		fail "$name" "exit $?: $(echo "$out" | tail -2)"
		return 1
	fi
	if ! echo "$out" | grep -q 'content check: [1-9][0-9]* files read back, 0 differ'; then
		fail "$name" "no content check: $(echo "$out" | grep 'content check')"
		return 1
	fi
	if echo "$out" | grep -q '^zones:'; then
		fail "$name" "a zones line for an image file: $(echo "$out" | grep '^zones:')"
		return 1
	fi
	both_clean "$name" || return 1
	REPORT=$out
	return 0
}

MKFS_ARGS=""
if run_workload seqwrite seqwrite --file-size 48M --device-queue 8; then
	files=$(echo "$REPORT" | figure 'files:')
	if [ "$files" != 1 ]; then
		fail seqwrite "files: $files"
	elif ! echo "$REPORT" | grep -q 'flush 1 ms, queue 8'; then
		fail seqwrite "device queue not in the policy line: $(echo "$REPORT" | head -1)"
	else
		pass seqwrite
	fi
fi
MKFS_ARGS="-s 8"
if run_workload seqwrite-s8-loop seqwrite --file-size 48M --section-counts loop; then
	echo "$REPORT" | grep -q 'section counts loop' && pass seqwrite-s8-loop ||
		fail seqwrite-s8-loop "policy line: $(echo "$REPORT" | head -1)"
fi
MKFS_ARGS=""
if run_workload writeback writeback --count 150 --file-size 24M --dirty-background 4M \
	--dirty-limit 8M; then
	files=$(echo "$REPORT" | figure 'files:')
	[ "$files" = 151 ] && pass writeback || fail writeback "files: $files (want 151)"
fi
# Node blocks are dirty pages of the node inode, which takes its turn on
# the flusher's list and asks for a checkpoint once 4096 nodes are dirty
# (f2fs_balance_fs_bg); tar's own class writes nothing.
if run_workload untar-nodes untar --count 4600 --dirty-background 1M --dirty-expire 100; then
	req=$(echo "$REPORT" | figure 'requested')
	fg=$(echo "$REPORT" | awk '$1 == "fg" && NF == 9 { print $4 }')
	if [ "${req:-0}" -lt 1 ]; then
		fail untar-nodes "no checkpoint for 4600 files' dirty nodes: requested ${req:-none}"
	elif [ "$fg" != 0.0 ]; then
		fail untar-nodes "tar's class wrote ${fg:-?} MiB (nodes are the flusher's)"
	else
		pass untar-nodes
	fi
fi
if run_workload ckpt-storm ckpt-storm --count 40 --file-size 16M; then
	req=$(echo "$REPORT" | figure 'requested')
	[ "${req:-0}" -ge 40 ] && pass ckpt-storm || fail ckpt-storm "checkpoints requested: $req"
	# thread B rewrites its file in the page cache: the device takes far less
	# than the workload wrote, and the report says what the ratio is and why
	if verdict=$(echo "$REPORT" | python3 -c '
import re, sys
t = sys.stdin.read()
m = re.search(r"^write amplification ([0-9.]+) = the device took ([0-9.]+) MiB \(data \+ node \+ meta\) / the workload wrote ([0-9.]+) MiB", t, re.M)
assert m, "no write amplification line"
wa, dev, wl = map(float, m.groups())
assert wa < 1 and abs(wa - dev / wl) < 0.01, (wa, dev, wl)
assert "\n  below 1: data the workload rewrote, truncated or deleted while still in the page cache" in t
print("%.3f = %.1f / %.1f MiB" % (wa, dev, wl))' 2>&1); then
		pass write-amplification
		echo "  $verdict"
	else
		fail write-amplification "$verdict"
	fi
fi

# --- the policies move the figures ---
out=$("$F2FS_IO" replay --mkfs "" "${MODEL[@]}" --count 40 --file-size 16M --json \
	--io-weights fg=100,bg=20,flusher=7 \
	--compare "--no-checkpoint-merge" "--checkpoint-merge" ckpt-storm "$IMG" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail ckpt-compare "exit $rc: $(echo "$out" | tail -1)"
elif ! verdict=$(echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
a, b = d["a"]["checkpoints"], d["b"]["checkpoints"]
assert d["a"]["policy"]["checkpoint_merge"] is False and d["b"]["policy"]["checkpoint_merge"]
assert (d["a"]["label"], d["b"]["label"]) == ("--no-checkpoint-merge", "--checkpoint-merge"), d["a"]["label"]
assert a["merged"] == 0, "merged without merge: %d" % a["merged"]
assert a["requested"] >= 40 and b["requested"] >= 40, (a["requested"], b["requested"])
assert b["issued"] + b["skipped"] + b["merged"] <= b["requested"] + 1
assert a["issued"] + a["skipped"] == a["requested"], a
assert d["a"]["policy"]["weight_flusher"] == 7, d["a"]["policy"]
assert d["a"]["policy"]["late_slot_wakeup"] is True, d["a"]["policy"]
# the laid-out file is written back by the flusher, in its own class
fl = [c for c in d["a"]["io_classes"] if c["class"] == "flusher"]
assert fl and fl[0]["bytes"] >= 16 << 20, fl
print("A issued %d of %d; B issued %d, merged %d" % (a["issued"], a["requested"], b["issued"], b["merged"]))
' 2>&1); then
	fail ckpt-compare "$verdict"
else
	both_clean ckpt-compare && pass ckpt-compare
	echo "  $verdict"
fi

# the compare table names its columns after the policy strings given, never
# A and B (ckpt-storm's threads are A, B and C); "" is the defaults
out=$("$F2FS_IO" replay --mkfs "" --no-progress --count 10 --file-size 8M \
	--compare "" "--no-checkpoint-merge  --ckpt-ioprio rt,2" ckpt-storm "$IMG" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail compare-columns "exit $rc: $(echo "$out" | tail -1)"
elif ! verdict=$(echo "$out" | python3 -c '
import sys
lines = sys.stdin.read().splitlines()
assert lines[:3] == ["first run:  (defaults)", "second run: --no-checkpoint-merge --ckpt-ioprio rt,2",
                     "ratio:      second / first"], lines[:3]
head = lines[4]
assert head.split()[0] == "metric" and head.split()[-1] == "ratio", head
assert head.index("(defaults)") < head.index("--no-checkpoint-merge --ckpt-ioprio rt,2"), head
assert not any(l.startswith(("A:", "B:")) or "B/A" in l for l in lines), lines
rows = {l[:38].strip(): l[38:].split() for l in lines[5:]}
assert len(rows["thread A elapsed (s)"]) == 3 and "write amplification (device/workload)" in rows, rows
print(head)
' 2>&1); then
	fail compare-columns "$verdict"
else
	both_clean compare-columns && pass compare-columns
	echo "  $verdict"
fi

out=$("$F2FS_IO" replay --mkfs "" --threads 4 --file-size 8M --dirty-background 1M \
	--dirty-limit 2M --dirty-throttle writeback --json --compare "--no-serialize-writepages" "--serialize-writepages" \
	tiotest "$IMG" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail tiotest-compare "exit $rc: $(echo "$out" | tail -1)"
elif ! verdict=$(echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
a, b = d["a"]["files"], d["b"]["files"]
assert a["count"] == 4 and b["count"] == 4
rp = d["a"]["read_pass"]
# every file: its inode and a node block per 4 MiB or less (8 MiB files: at least 3)
assert rp["node_requests"] >= 3 * a["count"], rp
assert rp["requests"] == a["read_requests_512k"] + rp["node_requests"], (rp, a)
assert b["extents"] * 4 <= a["extents"], "extents %d -> %d" % (a["extents"], b["extents"])
print("extents %d -> %d, read requests %d -> %d" % (a["extents"], b["extents"], a["read_requests_512k"], b["read_requests_512k"]))
' 2>&1); then
	fail tiotest-compare "$verdict"
else
	both_clean tiotest-compare && pass tiotest-compare
	echo "  $verdict"
fi

# writers above the dirty limit sleep while the flusher writes (default): the
# flusher's class carries the files' data; or they write their own files back
for mode in sleep writeback; do
	out=$("$F2FS_IO" replay --mkfs "" --threads 2 --file-size 8M --dirty-background 1M \
		--dirty-limit 2M --dirty-throttle $mode --json tiotest "$IMG" 2>&1)
	if ! verdict=$(echo "$out" | python3 -c '
import json, sys
mode = sys.argv[1]
d = json.load(sys.stdin)["run"]
assert d["policy"]["dirty_throttle"] == mode, d["policy"]
fl = [c["bytes"] for c in d["io_classes"] if c["class"] == "flusher"][0]
files = d["files"]["bytes"]
assert files == 16 << 20 and d["files"]["verify_failures"] == 0, d["files"]
if mode == "sleep":
    assert fl >= files, "the flusher wrote %d bytes of %d" % (fl, files)
print("flusher class %d bytes, files %d" % (fl, files))
' $mode 2>&1); then
		fail "dirty-throttle-$mode" "$verdict"
	else
		both_clean "dirty-throttle-$mode" && pass "dirty-throttle-$mode"
	fi
done

# --- traces ---
TRACE=$WORK/t.trace
cat >"$TRACE" <<'EOF'
# a small trace: two threads, every op
0     w1 fg mkdir /d
-     w1 fg create /d/a
-     w1 fg pwrite /d/a 0 300K
-     w1 fg write /d/a 8K
-     w1 fg fsync /d/a
0.01  w2 bg mkdir /e
-     w2 bg create /e/b
-     w2 bg write /e/b 64K sync
-     w2 bg read /e/b 0 64K
-     w2 bg rename /e/b /e/c
-     w2 bg truncate /e/c 10K
-     w2 bg fdatasync /e/c
-     w2 bg create /e/gone
-     w2 bg unlink /e/gone
-     w2 bg sleep 0.01
-     w2 bg sync
EOF
"$MKFS" -f -q "$IMG" >/dev/null 2>&1
if out=$("$F2FS_IO" replay --trace "$TRACE" "$IMG" 2>&1) && both_clean trace; then
	errors=$(echo "$out" | awk '$1 == "w1" || $1 == "w2" { s += $9 } END { print s + 0 }')
	[ "$errors" = 0 ] && pass trace || fail trace "op errors: $errors"
else
	fail trace "$(echo "$out" | tail -2)"
fi

# json_case NAME CHECK OPTIONS...: replay with OPTIONS and --json on a
# fresh volume; CHECK, python with the run's report as r, asserts on it and
# prints one line for the log.  trace_case NAME TRACE CHECK OPTIONS...: the
# same for a trace.
json_case() {
	local name=$1 check=$2 out verdict
	shift 2
	"$MKFS" -f -q "$IMG" >/dev/null 2>&1
	if ! out=$("$F2FS_IO" replay "$@" --json "$IMG" 2>&1); then
		fail "$name" "$(echo "$out" | tail -1)"
	elif ! verdict=$(echo "$out" | python3 -c "import json, sys
r = json.load(sys.stdin)['run']
$check" 2>&1); then
		fail "$name" "$verdict"
	else
		both_clean "$name" && pass "$name"
		echo "  $verdict"
	fi
}
trace_case() {
	local name=$1 trace=$2 check=$3
	shift 3
	json_case "$name" "$check" "$@" --trace "$trace"
}

# Two threads fsync their directories 10 ms apart: with a late checkpoint
# thread (50 ms to wake) the second request of each round joins the
# first's batch (kernel: issue_checkpoint_thread's llist_del_all); woken at
# once, the thread has served the first before the second comes.
WAKE=$WORK/wake.trace
{
	echo "0 t1 fg mkdir /d1"
	echo "0 t2 fg mkdir /d2"
	for r in 1 2 3 4 5 6; do
		for t in 1 2; do
			echo "0.$r$t t$t fg create /d$t/f$r"
			echo "- t$t fg fsync /d$t"
		done
	done
} >"$WAKE"
trace_case ckpt-wakeup "$WAKE" '
c, p = r["checkpoints"], r["policy"]
assert p["ckpt_wakeup_us"] == 50000 and p["ckpt_wakeup_max_us"] == 50000, p
assert c["requested"] == 12, c
assert c["merged"] >= 5 and c["issued"] <= 7, c
print("12 requests: %d issued, %d merged" % (c["issued"], c["merged"]))' \
	--checkpoint-merge --ckpt-wakeup-us 50000

# A checkpoint that served two callers lets the first go at once and the
# other a wake-up latency later (woken on another CPU): with 200 ms, t2's
# fsync (queued 10 ms after t1's) takes 190 ms more than t1's.  (The long
# wake-up leaves t2 150 ms to arrive in time on a loaded machine.)
RESUME=$WORK/resume.trace
printf '%s\n' "0 t1 fg mkdir /r1" "0 t2 fg mkdir /r2" "0.1 t1 fg fsync /r1" \
	"0.11 t2 fg fsync /r2" >"$RESUME"
trace_case ckpt-resume "$RESUME" '
c = r["checkpoints"]
t = {x["name"]: x["fsync_max_ms"] for x in r["threads"]}
assert c["requested"] == 2 and c["merged"] == 1, c
assert t["t1"] >= 200 and t["t2"] - t["t1"] >= 185, t
print("t1 %.1f ms, t2 %.1f ms" % (t["t1"], t["t2"]))' --checkpoint-merge --ckpt-wakeup-us 200000

# --op-cpu-us: each op of a thread spends its CPU time on one of
# --threads-cpu CPUs.  Two threads of 11 ops at 20 ms each take at least
# 22 x 20 ms on one CPU, and overlap on two.
OPCPU=$WORK/opcpu.trace
{
	for t in 1 2; do
		echo "- t$t fg mkdir /c$t"
		for r in 1 2 3 4 5 6 7 8 9 10; do echo "- t$t fg create /c$t/f$r"; done
	done
} >"$OPCPU"
opcpu_elapsed() {
	"$MKFS" -f -q "$IMG" >/dev/null 2>&1 &&
		"$F2FS_IO" replay --op-cpu-us 20000 --threads-cpu "$1" --no-late-slot-wakeup --json \
			--trace "$OPCPU" "$IMG" |
		python3 -c '
import json, sys
r = json.load(sys.stdin)["run"]
assert r["policy"]["op_cpu_us"] == 20000, r["policy"]
assert r["policy"]["late_slot_wakeup"] is False, r["policy"]
assert all(t["elapsed_s"] >= 0.22 for t in r["threads"]), r["threads"]
print("%.3f" % max(t["elapsed_s"] for t in r["threads"]))'
}
if ! one=$(opcpu_elapsed 1 2>&1) || ! two=$(opcpu_elapsed 2 2>&1); then
	fail op-cpu "$(printf '%s\n%s\n' "${one:-}" "${two:-}" | tail -1)"
elif python3 -c "import sys; sys.exit(not ($one >= 0.44 and $two < 0.40))"; then
	both_clean op-cpu && pass op-cpu
	echo "  22 ops of 20 ms: ${one} s on one CPU, ${two} s on two"
else
	fail op-cpu "one CPU ${one} s (want >= 0.44), two CPUs ${two} s (want < 0.40)"
fi

# --- strace logs: relative paths placed by the log itself or --strace-root ---
# tar -xf ../t.tar run in /home/u/out, traced with strace -f -ttt: nothing
# in the log says where tar started, so its relative paths cannot be placed
STRACE=$WORK/tar.log
cat >"$STRACE" <<'EOF'
300  1700000000.000000 execve("/usr/bin/tar", ["tar", "-xf", "../t.tar"], 0x7ffd /* 9 vars */) = 0
300  1700000000.000100 openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
300  1700000000.000200 close(3)                = 0
300  1700000000.001000 openat(AT_FDCWD, "../t.tar", O_RDONLY) = 3
300  1700000000.001100 read(3, "src/"..., 10240) = 10240
300  1700000000.002000 mkdirat(AT_FDCWD, "src", 0700) = 0
300  1700000000.002100 openat(AT_FDCWD, "src/b", O_WRONLY|O_CREAT|O_EXCL, 0600) = 4
300  1700000000.002200 write(4, "\1\2"..., 1048576) = 1048576
300  1700000000.002300 close(4)                = 0
300  1700000000.003000 mkdirat(AT_FDCWD, "src/sub", 0700) = 0
300  1700000000.003100 openat(AT_FDCWD, "src/sub/a", O_WRONLY|O_CREAT|O_EXCL, 0600) = 4
300  1700000000.003200 write(4, "\3\4"..., 1048576) = 1048576
300  1700000000.003300 write(4, "\5\6"..., 1048576) = 1048576
300  1700000000.003400 close(4)                = 0
300  1700000000.004000 close(3)                = 0
300  1700000000.004100 +++ exited with 0 +++
EOF
REFUSE_IMAGE=$IMG expect_refusal strace-unplaced \
	'tar\.log:4: relative path "\.\./t\.tar": where pid 300 started is not in the log; give --strace-root' \
	-- "$F2FS_IO" replay --import-strace "$STRACE" "$IMG"
# the tree tar made: two files, 3 MiB; ../t.tar is outside the root
TAR_CHECK='
f, w = r["files"], r["written"]
assert f["count"] == 2 and f["bytes"] == 3 << 20, f
assert w["workload_bytes"] == 3 << 20, w
assert r["failed_ops"]["count"] == 0, r["failed_ops"]
print("%d files, %d bytes" % (f["count"], f["bytes"]))'
json_case strace-root "$TAR_CHECK" --import-strace "$STRACE" --strace-root /home/u/out
# the log says where tar works: a chdir, getcwd, or strace -y's AT_FDCWD</dir>;
# with no root every path is kept as it is (/home/u/out/src/b)
sed '2i 300  1700000000.000050 chdir("/home/u/out") = 0' "$STRACE" >"$WORK/chdir.log"
json_case strace-chdir "$TAR_CHECK" --import-strace "$WORK/chdir.log"
sed '2i 300  1700000000.000050 getcwd("/home/u/out", 4096) = 12' "$STRACE" >"$WORK/getcwd.log"
json_case strace-getcwd "$TAR_CHECK" --import-strace "$WORK/getcwd.log"
sed 's|AT_FDCWD|AT_FDCWD</home/u/out>|' "$STRACE" >"$WORK/y.log"
json_case strace-y "$TAR_CHECK" --import-strace "$WORK/y.log"
# a process tar forks starts where tar is; a directory descriptor places openat
cat >"$WORK/fork.log" <<'EOF'
300  1700000000.000000 chdir("/home/u/out") = 0
300  1700000000.000100 mkdir("src", 0700) = 0
300  1700000000.000200 mkdir("src/sub", 0700) = 0
300  1700000000.000300 openat(AT_FDCWD, "src", O_RDONLY|O_DIRECTORY) = 3
300  1700000000.000400 clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD) = 301
301  1700000000.050000 openat(3, "b", O_WRONLY|O_CREAT, 0600) = 4
301  1700000000.050100 write(4, "\1"..., 1048576) = 1048576
300  1700000000.050200 chdir("src/sub") = 0
300  1700000000.050300 creat("a", 0600) = 4
300  1700000000.050400 write(4, "\1"..., 2097152) = 2097152
EOF
json_case strace-fork "$TAR_CHECK"'
t = {x["name"]: x["ops"] for x in r["threads"]}
assert t == {"pid300": 5, "pid301": 2}, t' --import-strace "$WORK/fork.log"

# strace -tt and -t: times of day, also past midnight (0.2 s from the first
# call to the fsync, not a day back), and seconds alone
printf '%s\n' '23:59:59.900000 openat(AT_FDCWD, "f", O_WRONLY|O_CREAT, 0644) = 3' \
	'23:59:59.900100 write(3, "x"..., 65536) = 65536' \
	'00:00:00.100000 fsync(3)                = 0' >"$WORK/tt.log"
json_case strace-tt '
t = r["threads"][0]
assert t["fsyncs"] == 1 and 0.19 <= t["elapsed_s"] < 5, t
print("fsync after %.3f s" % t["elapsed_s"])' --import-strace "$WORK/tt.log" --strace-root /
printf '%s\n' '12:00:00 creat("g", 0644)        = 3' '12:00:01 write(3, "x"..., 4096) = 4096' \
	'12:00:01 fsync(3)                = 0' >"$WORK/t.log"
json_case strace-t '
t = r["threads"][0]
assert t["fsyncs"] == 1 and 0.99 <= t["elapsed_s"] < 5, t
print("fsync after %.3f s" % t["elapsed_s"])' --import-strace "$WORK/t.log" --strace-root /

SAVED=$WORK/saved.trace
if "$F2FS_IO" replay --mkfs "" --save-trace "$SAVED" --count 20 --file-size 4M ckpt-storm \
	"$IMG" >/dev/null 2>&1 && out=$("$F2FS_IO" replay --mkfs "" --trace "$SAVED" "$IMG" 2>&1) &&
	both_clean saved-trace; then
	echo "$out" | grep -q '^A .* 40 ' && pass saved-trace ||
		fail saved-trace "thread A: $(echo "$out" | grep '^A ')"
else
	fail saved-trace "$(echo "$out" | tail -2)"
fi

# the I/O class table: reads, writes and flushes in their own columns, a
# total row that is their sum, and --json with the same split
out=$("$F2FS_IO" replay --mkfs "" --no-progress --file-size 8M seqwrite "$IMG" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail io-class-table "exit $rc: $(echo "$out" | tail -1)"
elif ! verdict=$(echo "$out" | python3 -c '
import sys
lines = sys.stdin.read().splitlines()
i = [n for n, l in enumerate(lines) if l.startswith("device requests by I/O class")]
assert i, "no table"
head = lines[i[0] + 1].split()
assert head == ["class", "read_MiB", "reads", "written_MiB", "writes", "flushes", "requests",
                "wait_avg_ms", "wait_max_ms"], head
rows = []
for l in lines[i[0] + 2:]:
    f = l.split()
    if not f or f[0] == "content":
        break
    rows.append(f)
assert rows[-1][0] == "total" and len(rows) >= 2, rows
for f in rows:
    assert int(f[2]) + int(f[4]) + int(f[5]) == int(f[6]), f
for col in (2, 4, 5, 6):
    assert sum(int(f[col]) for f in rows[:-1]) == int(rows[-1][col]), (col, rows)
for col in (1, 3):
    assert abs(sum(float(f[col]) for f in rows[:-1]) - float(rows[-1][col])) < 0.05 * len(rows), rows
assert float(rows[-1][3]) >= 8, rows[-1]
print("%s requests: %s reads, %s writes, %s flushes" % (rows[-1][6], rows[-1][2], rows[-1][4], rows[-1][5]))
' 2>&1); then
	fail io-class-table "$verdict"
else
	both_clean io-class-table && pass io-class-table
	echo "  $verdict"
fi

# a throttled device (qemu's kind: a burst, separate byte and request budgets),
# requests split at --max-request and few request slots: the run still ends
# clean, the policy is recorded, and no write request is longer than the limit
out=$("$F2FS_IO" replay --mkfs "" --device-model 100,2000,0,100 --device-queue 4 \
	--nr-requests 4 --max-request 128K --file-size 8M --json seqwrite "$IMG" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail throttle-model "exit $rc: $(echo "$out" | tail -1)"
elif ! verdict=$(echo "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)["run"]
p, w = r["policy"], r["written"]
assert p["model_burst_ms"] == 100 and p["max_request"] == 128 << 10 and p["nr_requests"] == 4, p
assert w["data_bytes"] >= 8 << 20, w
sent = sum(c["requests"] for c in r["io_classes"])
for c in r["io_classes"]:
    assert c["requests"] == c["reads"] + c["writes"] + c["flushes"], c
    assert c["bytes"] == c["read_bytes"] + c["write_bytes"], c
written = w["data_bytes"] + w["node_bytes"] + w["meta_bytes"]
assert sent * (128 << 10) >= written, (sent, written)
print("%d requests for %d bytes" % (sent, written))
' 2>&1); then
	fail throttle-model "$verdict"
else
	both_clean throttle-model && pass throttle-model
	echo "  $verdict"
fi

# --plot: one SVG with a legend naming each thread's colour and each mark,
# a row per run labelled with its policy options, stacked, a dot per fsync,
# a bar per thread, and "none" in a panel with nothing to draw
out=$("$F2FS_IO" replay --mkfs "" --count 20 --file-size 8M --json --plot "$WORK/plot.svg" \
	--compare "--no-checkpoint-merge" "--checkpoint-merge" ckpt-storm "$IMG" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	fail plot "exit $rc: $(echo "$out" | tail -1)"
elif ! verdict=$(echo "$out" | python3 -c '
import json, sys, xml.etree.ElementTree as ET
d = json.load(sys.stdin)
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
runs = [g for g in root.iter(ns + "g") if g.get("class") == "run"]
assert len(runs) == 2, len(runs)
legend = [g for g in root.iter(ns + "g") if g.get("class") == "legend"]
assert len(legend) == 1, len(legend)
names = [t.text for t in legend[0].iter(ns + "text") if t.get("class") == "thread"]
swatches = [r.get("fill") for r in legend[0].iter(ns + "rect") if r.get("class") == "swatch"]
assert names == [t["name"] for t in d["a"]["threads"]] and len(set(swatches)) == len(names), names
marks = " ".join(t.text for t in legend[0].iter(ns + "text"))
assert "fsync" in marks and "checkpoints" in marks and "elapsed" in marks, marks
labels = [[t for t in g.iter(ns + "text") if t.get("class") == "label"][0] for g in runs]
assert [t.text for t in labels] == ["--no-checkpoint-merge", "--checkpoint-merge"], [t.text for t in labels]
assert labels[0].get("x") == labels[1].get("x") and float(labels[1].get("y")) > float(labels[0].get("y")) + 200
first_bar = [float([r for r in g.iter(ns + "rect") if r.get("class") == "elapsed"][0].get("y")) for g in runs]
assert first_bar[1] > first_bar[0] + 200, first_bar
assert not [t for t in root.iter(ns + "text") if t.get("class") == "none"]
for g, k in zip(runs, "ab"):
    dots = sum(1 for _ in g.iter(ns + "circle"))
    fsyncs = sum(t["fsyncs"] for t in d[k]["threads"])
    bars = [r for r in g.iter(ns + "rect") if r.get("class") == "elapsed"]
    steps = [p for p in g.iter(ns + "polyline") if p.get("class") == "checkpoints"]
    assert dots == fsyncs and fsyncs > 0, (k, dots, fsyncs)
    assert len(bars) == len(d[k]["threads"]), (k, len(bars))
    assert len(steps) == 1 and len(steps[0].get("points").split()) == 2 * d[k]["checkpoints"]["issued"] + 2, k
print("%d and %d dots" % tuple(sum(t["fsyncs"] for t in d[k]["threads"]) for k in "ab"))
' "$WORK/plot.svg" 2>&1); then
	fail plot "$verdict"
else
	both_clean plot && pass plot
	echo "  $verdict"
fi

# a workload without fsyncs or checkpoints: "none" in those panels, no dots, no line
printf '%s\n' "0 t fg create /a" "- t fg write /a 1M" "0 u bg create /b" "- u bg write /b 64K" \
	>"$WORK/nofsync.trace"
"$MKFS" -f -q "$IMG" >/dev/null 2>&1
if ! out=$("$F2FS_IO" replay --no-progress --plot "$WORK/none.svg" --trace "$WORK/nofsync.trace" \
	"$IMG" 2>&1); then
	fail plot-none "exit $?: $(echo "$out" | tail -1)"
elif ! verdict=$(python3 -c '
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
run = [g for g in root.iter(ns + "g") if g.get("class") == "run"]
assert len(run) == 1, len(run)
none = [t for t in run[0].iter(ns + "text") if t.get("class") == "none"]
assert [t.text for t in none] == ["none", "none"], [t.text for t in none]
assert not list(run[0].iter(ns + "circle")) and not list(run[0].iter(ns + "polyline"))
bars = [r for r in run[0].iter(ns + "rect") if r.get("class") == "elapsed"]
assert len(bars) == 2, len(bars)
' "$WORK/none.svg" 2>&1); then
	fail plot-none "$verdict"
else
	both_clean plot-none && pass plot-none
fi

# --- the head model: a log-structured dd seeks only to its nodes and
# metadata, and its adjacent requests merge; without the model no head line
"$MKFS" -f -q "$IMG" >/dev/null 2>&1
head_line() {
	"$F2FS_IO" replay --no-progress --device-model 200,0,0 "$@" --file-size 16M dd "$IMG" 2>&1 |
		grep '^head:'
}
line=$(head_line --device-seek 1,10,7200 --merge-window 500)
if ! [[ $line =~ ^head:\ ([0-9]+)\ requests\ sought,\ ([0-9.]+)\ s\ seeking\;\ ([0-9]+)\ requests ]]; then
	fail head-model "no head line: $line"
elif ((BASH_REMATCH[1] < 1 || BASH_REMATCH[1] > 100 || BASH_REMATCH[3] < 1)); then
	fail head-model "sought ${BASH_REMATCH[1]} (want 1..100), merged ${BASH_REMATCH[3]} (want some)"
elif [ -n "$(head_line)" ]; then
	fail head-model "a head line without --device-seek"
else
	both_clean head-model && pass head-model
fi

# --- bad input: one line, exit 1, nothing written ---
"$MKFS" -f -q "$IMG" >/dev/null 2>&1
sum=$(fingerprint "$IMG")
refuse() {
	local name=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$name" "exit $rc (want 1): $out"
	elif ! echo "$out" | grep -q -- "$want"; then
		fail "$name" "message: $out"
	elif [ "$(fingerprint "$IMG")" != "$sum" ]; then
		fail "$name" "the image changed"
	else
		pass "$name"
	fi
}
printf '0 t fg create /x\n- t fg wirte /x 4K\n' >"$WORK/bad.trace"
refuse bad-trace-line "bad.trace:2:" "$F2FS_IO" replay --trace "$WORK/bad.trace" "$IMG"
refuse bad-policy "--io-weights" "$F2FS_IO" replay --io-weights fg=0 seqwrite "$IMG"
refuse bad-weight "--io-weights" "$F2FS_IO" replay --io-weights flusher=x seqwrite "$IMG"
refuse bad-throttle "--dirty-throttle" "$F2FS_IO" replay --dirty-throttle nap seqwrite "$IMG"
refuse bad-budget "--bfq-budget" "$F2FS_IO" replay --bfq-budget 8Q seqwrite "$IMG"
refuse bad-slice-idle "--bfq-slice-idle" "$F2FS_IO" replay --bfq-slice-idle 5000 seqwrite "$IMG"
refuse bad-wakeup "--ckpt-wakeup-us" "$F2FS_IO" replay --ckpt-wakeup-us 900,300 seqwrite "$IMG"
refuse bad-op-cpu "--op-cpu-us" "$F2FS_IO" replay --op-cpu-us 2,1 seqwrite "$IMG"
refuse bad-max-request "--max-request" "$F2FS_IO" replay --max-request 1000 seqwrite "$IMG"
refuse bad-nr-requests "--nr-requests" "$F2FS_IO" replay --nr-requests 0 seqwrite "$IMG"
refuse bad-model "--device-model" "$F2FS_IO" replay --device-model 1,2,3,4,5 seqwrite "$IMG"
refuse bad-zone-reset "--zone-reset-ms" "$F2FS_IO" replay --zone-reset-ms 2x seqwrite "$IMG"
refuse bad-seek "--device-seek" "$F2FS_IO" replay --device-seek 20,10 seqwrite "$IMG"
refuse bad-seek-rpm "--device-seek" "$F2FS_IO" replay --device-seek 1,10,fast seqwrite "$IMG"
refuse bad-merge-window "--merge-window" "$F2FS_IO" replay --merge-window 1ms seqwrite "$IMG"
refuse bad-plot "--plot $WORK/no/such/dir/p.svg" "$F2FS_IO" replay --plot "$WORK/no/such/dir/p.svg" \
	seqwrite "$IMG"
refuse bad-compare "not a policy option" "$F2FS_IO" replay --mkfs "" --compare "--bogus" "" \
	seqwrite "$IMG"
refuse compare-no-mkfs "needs --mkfs" "$F2FS_IO" replay --compare "" "" seqwrite "$IMG"
refuse unknown-workload "unknown workload" "$F2FS_IO" replay nosuch "$IMG"
# the command line: one line saying what is wrong, never "Excess arguments"
expect_refusal no-device "no device given after the workload" -- "$F2FS_IO" replay seqwrite
expect_refusal no-trace-device "no device given after the workload" -- "$F2FS_IO" replay \
	--trace "$WORK/bad.trace"
expect_refusal no-arguments "no workload and no device given" -- "$F2FS_IO" replay
REFUSE_IMAGE=$IMG expect_refusal no-workload "no workload given before device $IMG" -- \
	"$F2FS_IO" replay "$IMG"
expect_refusal neither-workload-nor-device '"nosuch" is neither a workload' -- "$F2FS_IO" \
	replay nosuch
REFUSE_IMAGE=$IMG expect_refusal unknown-option 'unrecognized option "--bogus"' -- "$F2FS_IO" \
	replay --bogus seqwrite "$IMG"
expect_refusal missing-value "--trace needs a value" -- "$F2FS_IO" replay --trace
REFUSE_IMAGE=$IMG expect_refusal compare-one-string "--compare needs two policy strings" -- \
	"$F2FS_IO" replay --mkfs "" --compare "--checkpoint-merge"
refuse two-sources "one workload at a time" "$F2FS_IO" replay --trace "$WORK/bad.trace" \
	--import-fio-iolog "$WORK/bad.trace" "$IMG"
# --help: the usage on stdout, as "f2fs_io help replay" prints it, exit 0
if ! out=$("$F2FS_IO" replay --help 2>"$WORK/help.err"); then
	fail help "exit $?: $(head -2 "$WORK/help.err")"
elif [ -s "$WORK/help.err" ] || ! echo "$out" | grep -q -- "--zone-reset-ms"; then
	fail help "stderr: $(head -2 "$WORK/help.err"); stdout: $(echo "$out" | head -3)"
elif [ "$out" != "$("$F2FS_IO" help replay)" ]; then
	fail help "not what f2fs_io help replay prints: $(echo "$out" | head -3)"
else
	pass help
fi

# operations that fail make a failed run: exit 1, one line on stderr counting
# them by error and naming the first in time (thread "early", though "late"
# comes first in the trace), the text report says the same, --json counts
# every error by its name
printf '%s\n' "0.05 late fg unlink /nope" "0 early fg create /x" "- early fg mkdir /x/y" \
	"- early fg unlink /nope2" >"$WORK/fails.trace"
first="(ENOENT 2, ENOTDIR 1); the first: thread early, trace line 3: Not a directory"
want="3 operations failed $first"
out=$("$F2FS_IO" replay --no-progress --trace "$WORK/fails.trace" "$IMG" 2>"$WORK/fails.err")
rc=$?
if [ "$rc" -ne 1 ] || [ "$(wc -l <"$WORK/fails.err")" -ne 1 ] || ! grep -qF "$want" "$WORK/fails.err"; then
	fail failed-ops-exit-1 "exit $rc: $(cat "$WORK/fails.err")"
elif ! echo "$out" | grep -qF "failed operations: 3 $first" ||
	! echo "$out" | grep -qx "  first error: Not a directory, trace line 3" ||
	echo "$out" | grep -qE 'directory[0-9]|line 0'; then
	fail failed-ops-exit-1 "text report: $(echo "$out" | grep -i error)"
else
	pass failed-ops-exit-1
fi
out=$("$F2FS_IO" replay --no-progress --json --trace "$WORK/fails.trace" "$IMG" 2>/dev/null)
rc=$?
if [ "$rc" -ne 1 ]; then
	fail failed-ops-json "exit $rc"
elif ! verdict=$(echo "$out" | python3 -c '
import json, sys
f = json.load(sys.stdin)["run"]["failed_ops"]
assert f["count"] == 3 and f["by_error"] == {"ENOTDIR": 1, "ENOENT": 2}, f
assert f["first_error"] == "Not a directory" and f["first_error_name"] == "ENOTDIR", f
assert f["first_error_thread"] == "early" and f["first_error_line"] == 3, f
' 2>&1); then
	fail failed-ops-json "$verdict"
else
	pass failed-ops-json
fi
head -c 64M /dev/zero >"$WORK/zero.img"
sum=$(fingerprint "$IMG")
refuse not-f2fs "zero.img" "$F2FS_IO" replay seqwrite "$WORK/zero.img"
cmp -s "$WORK/zero.img" <(head -c 64M /dev/zero) || fail not-f2fs-unchanged "zero.img changed"

finish
