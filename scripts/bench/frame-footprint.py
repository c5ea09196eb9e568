#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The distinct code a spinner frame runs: instructions and functions, by callgrind.

    scripts/bench/frame-footprint.py [--bin SPLASHHUDD] [--top 25]

Runs splashhudd under callgrind twice, animating the spinner on the memory display for 3 and for
8 seconds (`--script` with `@0 show`), and keeps the instructions that ran at least once a frame
more in the longer run: the steady frame's footprint, start-up and the first frames excluded.
Prints how many distinct instructions and functions a frame reaches, its instructions executed
(all, and by the steady instructions alone: the steadier figure to compare), and the functions
reaching most. Under TCG a frame pays for each distinct block it reaches, not
for each instruction (`scripts/bench/tcg-footprint.py`), so this is the figure to cut. A binary
with symbols names the functions (`.build-static-executable/release/splashhudd` after
`scripts/install.sh --static-stdlib`); a stripped one gives the counts alone. Needs valgrind and
binutils.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def profile(binary, seconds, work):
    """Per-instruction counts and each instruction's function; the frames drawn."""
    out = os.path.join(work, f"cg.{seconds}")
    spin = os.path.join(work, "spin.s")
    with open(spin, "w") as f:
        f.write("@0 show\n")
    r = subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no", "--compress-strings=no",
         f"--callgrind-out-file={out}", binary, "--display", "memory:1280x800", "--socket", "none",
         "--script", spin, "--duration", str(seconds), "--console", "off", "--input", "none", "--log-level", "info"],
        capture_output=True, text=True)
    m = re.search(r"\((\d+) frames", r.stdout + r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"frame-footprint: {binary} under callgrind failed ({r.returncode}):\n{(r.stdout + r.stderr)[-2000:]}")
    counts, owner = collections.Counter(), {}
    fn, call = None, False
    with open(out) as f:
        for line in f:
            if line.startswith("fn="):
                fn = line[3:].strip()
            elif line.startswith("calls="):
                call = True  # the next cost line is the call's inclusive cost, not an instruction's
            else:
                c = re.match(r"(0x[0-9a-f]+) \d+ (\d+)", line)
                if c:
                    if call:
                        call = False
                        continue
                    address = int(c.group(1), 16)
                    counts[address] += int(c.group(2))
                    owner[address] = fn
    return counts, owner, int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    default = os.path.join(REPO, ".build-static-executable/release/splashhudd")
    if not os.path.exists(default):
        default = os.path.join(REPO, "out/static/usr/bin/splashhudd")
    ap.add_argument("--bin", default=default)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"frame-footprint: no {args.bin}; build it with scripts/install.sh --static-stdlib")
    with tempfile.TemporaryDirectory() as work:
        # Valgrind 3.19 cannot read the DWARF 5 Swift emits: a copy without it keeps the symbols.
        binary = os.path.join(work, "splashhudd")
        subprocess.run(["strip", "--strip-debug", "-o", binary, args.bin], check=True)
        short, _, f3 = profile(binary, 3, work)
        long, owner, f8 = profile(binary, 8, work)
    frames = f8 - f3
    if frames < 100:
        sys.exit(f"frame-footprint: only {frames} frames between the runs")
    executed = {a: (long[a] - short.get(a, 0)) / frames for a in long}
    steady = [a for a, n in executed.items() if n >= 0.8]
    per = collections.Counter(owner[a] for a in steady)
    print(f"{args.bin}: {frames} frames between the 3 s and 8 s runs")
    print(f"  {len(steady)} distinct instructions in {len(per)} functions a frame; "
          f"{sum(executed.values()):.0f} instructions executed a frame")
    # Work done once between the two runs' ends (a font loaded late, a log line) is spread over
    # the frames above; the steady instructions' own count leaves it out and varies far less.
    print(f"  {sum(executed[a] for a in steady):.0f} instructions executed a frame by the steady instructions")
    for name, n in per.most_common(args.top):
        print(f"  {n:6d}  {name[:120]}")


if __name__ == "__main__":
    main()
