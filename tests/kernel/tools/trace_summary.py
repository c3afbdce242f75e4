#!/usr/bin/env python3
"""What a traced ckpt-storm run in the guest shows (jobs/replay-trace.sh).

Reads the guest's console log and prints, for people working on the replay
engine's model (tests/kernel/007-replay-crosscheck.sh, XCHECK_CASES=trace):
  - replayload's figures;
  - checkpoint durations (start block_ops to finish checkpoint): the
    percentiles and how many took under 20 ms;
  - B's write-back as the I/O scheduler saw it: 512 KiB requests inserted,
    the pauses between them longer than 60 ms, and how many were inserted
    during the fast and the slow checkpoints;
  - where the write-back workers slept uninterruptibly, by kernel stack,
    and how many request completions each sleep for a request tag
    (blk_mq_get_tag) lasted through: the table behind the replay
    scheduler's late slot wake-ups (RP_SCHED_LATE_WAKEUPS, iosched.c);
    the f2fs function each tag sleep came from, and how long
    block_operations took with such a sleep under way as it began and
    without: whether write-back sleeps holding cp_rwsem (kernel.c's
    rp_writeback assumes it does not);
  - balance_dirty_pages calls (B's throttle) at and below the limit, and
    write-back starts by reason.
Usage: trace_summary.py CONSOLE_LOG
"""
import bisect
import collections
import re
import sys

KV = re.compile(r"(\w+)=(\S+)")
SCHED_FRAMES = {"__schedule", "schedule", "io_schedule", "schedule_timeout",
                "io_schedule_timeout", "schedule_preempt_disabled"}
FAST_MS = 20.0
GAP_S = 0.060


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))] if s else float("nan")


def parse(path):
    ev = {"C": [], "Q": [], "B": [], "W": [], "Z": [], "D": []}
    figures = {}
    inside = False
    last_z = None
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if line.startswith("@@M "):
                figures.update(KV.findall(line))
            elif line == "@@TRACE-BEGIN":
                inside = True
            elif line == "@@TRACE-END":
                inside = False
            elif inside and line[:2] == "F " and last_z is not None:
                last_z["stack"].append(line[2:])
            elif inside and line[:1] in ev and line[1:2] == " ":
                kind, t, rest = (line.split(" ", 2) + [""])[:3]
                item = {"t": float(t), "rest": rest, "kv": dict(KV.findall(rest)), "stack": []}
                ev[kind].append(item)
                last_z = item if kind == "Z" else None
    return figures, ev


def checkpoints(c_events, finish="finish checkpoint"):
    """(start, end) of each checkpoint from start block_ops to @finish (its whole, or block_ops)."""
    out, start = [], None
    for e in c_events:
        if e["rest"].startswith("start block_ops"):
            start = e["t"]
        elif e["rest"].startswith(finish) and start is not None:
            out.append((start, e["t"]))
            start = None
    return out


def worker_sleeps(z_events):
    """(start, seconds, stack, frames) for each uninterruptible sleep of a write-back worker."""
    asleep, out = {}, []
    for e in z_events:
        kv = e["kv"]
        if kv.get("prev_comm", "").startswith("kworker/u") and kv.get("prev_state", "").startswith("D"):
            asleep[kv["prev_pid"]] = e
        if kv.get("next_comm", "").startswith("kworker/u") and kv.get("next_pid") in asleep:
            s = asleep.pop(kv["next_pid"])
            frames = [f for f in s["stack"] if f not in SCHED_FRAMES and "sched_switch" not in f]
            out.append((s["t"], e["t"] - s["t"], "<".join(frames[:3]) or "?", frames))
    return out


def tag_sleeps_and_block_ops(sleeps, c_events):
    """The f2fs caller of each tag sleep; block_operations with and without one under way."""
    tagged = [(a, a + secs, frames) for a, secs, _, frames in sleeps if "blk_mq_get_tag" in frames]
    callers = collections.Counter(next((f for f in frames if f.startswith("f2fs_")), "?")
                                  for _, _, frames in tagged)
    if callers:
        print("tag sleeps by f2fs caller: " + ", ".join("%s %d" % kv for kv in callers.most_common(4)))
    during, clear = [], []
    for start, end in checkpoints(c_events, "finish block_ops"):
        hit = any(a <= start < b for a, b, _ in tagged)
        (during if hit else clear).append((end - start) * 1000)
    if during or clear:
        print("block_operations ms, p50/p90: with a tag sleep under way %.1f/%.1f (%d), without %.1f/%.1f (%d)"
              % (pct(during, .5), pct(during, .9), len(during), pct(clear, .5), pct(clear, .9), len(clear)))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: trace_summary.py CONSOLE_LOG")
    figures, ev = parse(sys.argv[1])
    if not ev["C"]:
        sys.exit("trace_summary.py: no checkpoint events in %s" % sys.argv[1])
    print("replayload: " + " ".join("%s=%s" % kv for kv in figures.items()
                                    if kv[0].startswith(("a_", "c_", "b_mbps"))))
    cps = checkpoints(ev["C"])
    ms = [(b - a) * 1000 for a, b in cps]
    window = (ev["C"][0]["t"], ev["C"][-1]["t"])
    print("traced window %.2f-%.2f s: %d checkpoints, p10/p50/p90 %.1f/%.1f/%.1f ms, %d under %.0f ms"
          % (window[0], window[1], len(ms), pct(ms, .1), pct(ms, .5), pct(ms, .9),
             sum(m < FAST_MS for m in ms), FAST_MS))
    q = [e["t"] for e in ev["Q"] if window[0] <= e["t"] <= window[1]]
    gaps = [(a, b) for a, b in zip(q, q[1:]) if b - a > GAP_S]
    print("B's 512 KiB requests inserted: %d; pauses over %.0f ms between them: %d, %.2f s in all"
          % (len(q), GAP_S * 1000, len(gaps), sum(b - a for a, b in gaps)))
    fast = [sum(a <= t <= b for t in q) for a, b in cps if (b - a) * 1000 < FAST_MS]
    slow = [sum(a <= t <= b for t in q) for a, b in cps if (b - a) * 1000 >= FAST_MS]
    if fast and slow:
        print("inserted during a checkpoint: %.1f on average in the fast ones, %.1f in the others"
              % (sum(fast) / len(fast), sum(slow) / len(slow)))
    sleeps = worker_sleeps(ev["Z"])
    by_stack = collections.defaultdict(lambda: [0, 0.0])
    for _, secs, stack, _ in sleeps:
        by_stack[stack][0] += 1
        by_stack[stack][1] += secs
    print("write-back workers asleep (uninterruptible): %d times, %.2f s in all"
          % (len(sleeps), sum(s for _, s, _, _ in sleeps)))
    for stack, (n, secs) in sorted(by_stack.items(), key=lambda kv: -kv[1][1])[:5]:
        print("  %7.2f s %5d  %s" % (secs, n, stack))
    done = sorted(e["t"] for e in ev["D"])
    through = collections.Counter()
    for start, secs, stack, _ in sleeps:
        if "blk_mq_get_tag" in stack:
            n = bisect.bisect_right(done, start + secs) - bisect.bisect_right(done, start)
            if n:
                through[n] += 1
    total = sum(through.values())
    if total:
        cum, shares = 0, []
        for n in sorted(through):
            cum += through[n]
            shares.append("%d: %d" % (n, round(1000 * cum / total)))
        print("tag sleeps woken after N completions (%d sleeps; cumulative thousandths): %s"
              % (total, ", ".join(shares)))
    tag_sleeps_and_block_ops(sleeps, ev["C"])
    bdp = [e["kv"] for e in ev["B"]]
    at_limit = sum(int(k.get("dirty", 0)) >= int(k.get("limit", 1 << 62)) for k in bdp)
    print("balance_dirty_pages: %d calls, %d at or over the limit" % (len(bdp), at_limit))
    reasons = collections.Counter(e["rest"] for e in ev["W"])
    print("write-back starts: " + ", ".join("%s %d" % kv for kv in reasons.most_common()))


if __name__ == "__main__":
    main()
