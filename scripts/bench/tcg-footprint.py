#!/usr/bin/env python3
"""What a frame's *distinct* code costs under QEMU's TCG, in the benchmark's own guest.

    scripts/bench/tcg-footprint.py [--display vesafb32] [--rounds 3] [--n 400] [--seconds 6]

One C loop paced like splashhudd (timerfd at 75 Hz, epoll_wait), built static in four variants
that differ only in what a frame runs after the wake-up:

  loop       nothing;
  distinct   N different functions, each called once (N calls and returns to N places);
  same       one function called N times (the same calls and returns, to one place);
  branches   N conditional branches in one function (about 2N blocks, no calls);
  box        a 120x120 XRGB box copied into a 1024-pixel-wide frame in memory (120 rows of 480
             bytes, each in its own page), as a frame's box is copied to the screen.

They take turns in one QEMU guest (scripts/qemu/vmtest.py, TCG, 1 vCPU, Debian's kernel); CPU a
frame from /proc/PID/schedstat; the median of the rounds. Under TCG the wake-up between frames
leaves the translated code cold, so a frame pays for each distinct block it reaches, and for each
call or return to a new place most: `distinct` costs far more than `same`, which costs about what
`loop` does. That is why a frame's instruction count says little about its CPU in the guests
(README, "Against Plymouth"); `scripts/bench/frame-footprint.py` counts the daemon's distinct
code a frame. Needs gcc and what `scripts/setup.sh` installs for QEMU; never a CI step.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANTS = ["loop", "distinct", "same", "branches", "box"]


def source(variant, n):
    """The C program for `variant`: the loop, and what a frame runs."""
    if variant == "distinct" or variant == "same":
        fns = "\n".join(f"__attribute__((noinline)) static int f{i}(int x) {{ return x * {i + 3} + 1; }}" for i in range(n))
        table = "static int (*const fns[])(int) = {" + ", ".join(f"f{i}" for i in range(n)) + "};"
        index = "i" if variant == "distinct" else "0"
        work = f"{fns}\n{table}\nstatic int work(int x) {{ for (int i = 0; i < {n}; i++) x = fns[{index}](x); return x; }}"
    elif variant == "branches":
        # The empty asm keeps each branch a branch (no conditional move).
        body = "\n".join(
            f'    if (x & {1 << (i % 20)}) {{ x = x * {i + 3} + 1; __asm__ volatile("" ::: "memory"); }}'
            f' else {{ x ^= {i * 7 + 5}; __asm__ volatile("" ::: "memory"); }}' for i in range(n))
        work = f"__attribute__((noinline)) static int work(int x) {{\n{body}\n    return x;\n}}"
    elif variant == "box":
        work = """static uint32_t box[120 * 120], screen[1024 * 768];
static int work(int x) {
    box[x % (120 * 120)] = x;
    for (int y = 0; y < 120; y++) memcpy(screen + (300 + y) * 1024 + 400, box + y * 120, 480);
    return x;
}"""
    else:
        work = "static int work(int x) { return x; }"
    return f"""#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
{work}
static volatile int sink;
int main(void) {{
    int ep = epoll_create1(EPOLL_CLOEXEC), timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event watch = {{ .events = EPOLLIN, .data.fd = timer }}, ready[8];
    if (ep < 0 || timer < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, timer, &watch)) return 2;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t next = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec, interval = 1000000000 / 75;
    for (unsigned frame = 0;; frame++) {{
        next += interval;
        struct itimerspec at = {{ .it_value = {{ .tv_sec = next / 1000000000, .tv_nsec = next % 1000000000 }} }};
        timerfd_settime(timer, TFD_TIMER_ABSTIME, &at, 0);
        epoll_wait(ep, ready, 8, -1);
        sink = work((int)frame);
    }}
}}
"""


GUEST = """#!/bin/sh
# Each variant in turn, ROUNDS times: 1 s to settle, then SECONDS of schedstat.
for r in $(seq 1 $ROUNDS); do
  for v in $VARIANTS; do
    /$v &
    pid=$!
    sleep 1
    a=$(cut -d' ' -f1 /proc/$pid/schedstat)
    sleep $SECONDS
    b=$(cut -d' ' -f1 /proc/$pid/schedstat)
    echo "FOOTPRINT $v $r $(( (b - a) / 1000 / ($SECONDS * 75) ))"
    kill $pid; wait $pid 2>/dev/null
  done
done
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--display", default="vesafb32", help="the guest's display (vmtest.py displays)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n", type=int, default=400, help="functions, calls or branches a frame")
    ap.add_argument("--seconds", type=int, default=6)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        files = []
        for v in VARIANTS:
            c = os.path.join(work, v + ".c")
            with open(c, "w") as f:
                f.write(source(v, args.n))
            subprocess.run(["gcc", "-O2", "-static", "-o", os.path.join(work, v), c], check=True)
            files += ["--file", f"{os.path.join(work, v)}:/{v}"]
        guest = os.path.join(work, "guest.sh")
        with open(guest, "w") as f:
            f.write(GUEST)
        os.chmod(guest, 0o755)
        r = subprocess.run(
            [sys.executable, os.path.join(REPO, "scripts/qemu/vmtest.py"), "run", "--display", args.display,
             "--program", guest, "--env", f"ROUNDS={args.rounds}", "--env", f"SECONDS={args.seconds}",
             "--env", "VARIANTS=" + " ".join(VARIANTS), "--timeout", str(60 + args.rounds * len(VARIANTS) * (args.seconds + 3)),
             "--verbose", "--shots-dir", os.path.join(work, "shots")] + files,
            capture_output=True, text=True)
    runs = {v: [] for v in VARIANTS}
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"FOOTPRINT (\w+) \d+ (\d+)", line)
        if m:
            runs[m.group(1)].append(int(m.group(2)))
    if not all(runs.values()):
        sys.exit(f"tcg-footprint: the guest reported no figures (vmtest.py status {r.returncode}):\n{(r.stdout + r.stderr)[-3000:]}")
    median = {v: statistics.median(runs[v]) for v in VARIANTS}
    print(f"{args.display}, N = {args.n}, {args.rounds} rounds of {args.seconds} s at 75 Hz; CPU µs a frame, median (each run)")
    for v in VARIANTS:
        extra = median[v] - median["loop"]
        per = f"{extra * 1000 / args.n:6.0f} ns per unit" if v not in ("loop", "box") else ""
        print(f"  {v:9} {median[v]:6.0f}  ({', '.join(map(str, runs[v]))})  {'+' if extra >= 0 else ''}{extra:.0f} {per}")


if __name__ == "__main__":
    main()
