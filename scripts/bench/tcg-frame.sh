#!/bin/bash
# SPDX-License-Identifier: MIT
# tcg-frame.sh [--bin SPLASHHUDD] [--rounds N] [--seconds S]
#
# What a spinner frame costs under QEMU's TCG, the translator the benchmark's guests run on
# ("Against Plymouth"), measured on the host in seconds instead of a VM run in minutes: user-mode
# QEMU (qemu-x86_64) runs splashhudd animating the spinner on the memory display at 60 Hz, and
# beside it, interleaved, loopfloor (the same two syscalls a frame and a minimal draw, in C). CPU
# per frame from the process's schedstat over S seconds, after 3 seconds of start-up; the median
# of N rounds each, and the ratio. Without the guest kernel it measures the daemon's own code as
# TCG runs it, where a frame's cost follows the code it passes through, not its instructions.
# Needs qemu-user and gcc (apt install qemu-user gcc).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=out/static/usr/bin/splashhudd rounds=5 seconds=8
while [ $# -gt 0 ]; do
    case $1 in
        --bin) bin=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        *) echo "usage: $0 [--bin SPLASHHUDD] [--rounds N] [--seconds S]" >&2; exit 64 ;;
    esac
done
command -v qemu-x86_64 > /dev/null || { echo "tcg-frame: qemu-x86_64 is missing (apt install qemu-user)" >&2; exit 69; }
[ -x "$bin" ] || { echo "tcg-frame: no $bin; build it with: scripts/install.sh --destdir out/static" >&2; exit 66; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -static -o "$work/loopfloor" scripts/bench/loopfloor.c
printf '@0 show\n' > "$work/spin.s"

# CPU microseconds a frame of the command given, at 60 frames a second.
per_frame() {
    qemu-x86_64 "$@" > /dev/null 2>&1 &
    local pid=$! a c
    sleep 3
    a=$(cut -d' ' -f1 "/proc/$pid/schedstat")
    sleep "$seconds"
    c=$(cut -d' ' -f1 "/proc/$pid/schedstat")
    kill "$pid"; wait "$pid" 2> /dev/null || true
    echo $(( (c - a) / (seconds * 60) / 1000 ))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

daemon=() floor=()
for r in $(seq "$rounds"); do
    daemon+=("$(per_frame "$bin" --display memory:1280x800 --socket none --script "$work/spin.s" --duration $((seconds + 10)) --console off --input none --log-level error)")
    floor+=("$(per_frame "$work/loopfloor" 60)")
    echo "round $r: splashhudd ${daemon[-1]} µs, loopfloor ${floor[-1]} µs a frame"
done
d=$(printf '%s\n' "${daemon[@]}" | median) f=$(printf '%s\n' "${floor[@]}" | median)
echo "median of $rounds under qemu-x86_64 ($(qemu-x86_64 --version | head -1)), $(date -u '+%Y-%m-%d %H:%M UTC'):"
echo "  splashhudd $d µs a frame, loopfloor $f µs a frame: $(awk -v d="$d" -v f="$f" 'BEGIN { printf "%.2f", d / f }') times the floor"
