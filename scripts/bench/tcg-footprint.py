#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a frame's *distinct* code costs under QEMU's TCG, in the benchmark's own guest.

    scripts/bench/tcg-footprint.py [--display vesafb32] [--rounds 3] [--n 400] [--seconds 6]

loopfloor.c, the C loop paced like splashhudd (timerfd, epoll_wait) that tcg-frame.sh runs, at
75 Hz, built static in five variants that differ only in what a frame runs after the wake-up:

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
(docs/performance.md, "Under QEMU's translator"); `scripts/bench/frame-footprint.py` counts the daemon's distinct
code a frame. Needs gcc and what `scripts/setup.sh` installs for QEMU. `scripts/test.sh` runs it
once in short (`--rounds 1 --seconds 2`), so it keeps working; its figures come from full runs.
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


def frame_work(variant, n):
    """`frame_work` for loopfloor.c (built with -DLOOPFLOOR_WORK): what a frame runs in `variant`."""
    if variant == "distinct" or variant == "same":
        fns = "\n".join(f"__attribute__((noinline)) static int f{i}(int x) {{ return x * {i + 3} + 1; }}" for i in range(n))
        table = "static int (*const fns[])(int) = {" + ", ".join(f"f{i}" for i in range(n)) + "};"
        index = "i" if variant == "distinct" else "0"
        body = f"int x = (int)frame;\n    for (int i = 0; i < {n}; i++) x = fns[{index}](x);\n    sink = x;"
        return f"{fns}\n{table}\nstatic volatile int sink;\nstatic void frame_work(unsigned frame) {{\n    {body}\n}}\n"
    if variant == "branches":
        # The empty asm keeps each branch a branch (no conditional move).
        ifs = "\n".join(
            f'    if (x & {1 << (i % 20)}) {{ x = x * {i + 3} + 1; __asm__ volatile("" ::: "memory"); }}'
            f' else {{ x ^= {i * 7 + 5}; __asm__ volatile("" ::: "memory"); }}' for i in range(n))
        return ("static volatile int sink;\n__attribute__((noinline)) static void frame_work(unsigned frame) {\n"
                f"    int x = (int)frame;\n{ifs}\n    sink = x;\n}}\n")
    if variant == "box":
        return """static uint32_t box[120 * 120], screen[1024 * 768];
static void frame_work(unsigned frame) {
    box[frame % (120 * 120)] = frame;
    for (int y = 0; y < 120; y++) memcpy(screen + (300 + y) * 1024 + 400, box + y * 120, 480);
}
"""
    return "static void frame_work(unsigned frame) { (void)frame; }\n"


GUEST = """#!/bin/sh
# Each variant in turn, ROUNDS times: 1 s to settle, then SECONDS of schedstat.
for r in $(seq 1 $ROUNDS); do
  for v in $VARIANTS; do
    /$v 75 &
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
            header = os.path.join(work, v + ".h")
            with open(header, "w") as f:
                f.write(frame_work(v, args.n))
            subprocess.run(["gcc", "-O2", "-static", f'-DLOOPFLOOR_WORK="{header}"', "-o", os.path.join(work, v),
                            os.path.join(REPO, "scripts/bench/loopfloor.c")], check=True)
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
