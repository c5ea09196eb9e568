#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Floods a running `splashhudd` on the memory display with N command lines through its FIFO
# (default 200000: shows, progress, 900000 s dismissals and images that do not exist, in turn) and
# prints how long the splash took to read and apply them all (until it answers the `quit` written
# after them) and its peak RSS before and after. Not a CI step: run it and quote its figures.
#   scripts/bench/fifo-flood.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-200000}"
swift build -c release --product splashhudd >/dev/null
bin="$(swift build -c release --show-bin-path)/splashhudd"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$n" > "$dir/lines" <<'PY'
import sys
n = int(sys.argv[1])
kinds = ['show "Step {i}"', 'dismiss 900000', 'image /nonexistent/missing-{i}.png', 'progress 0.5 "Half {i}"', 'dismiss 899999.5']
for i in range(n):
    print(kinds[i % len(kinds)].format(i=i))
PY
"$bin" --display memory:800x480 --socket none --fifo "$dir/fifo" --duration 600 --console off 2>"$dir/log" &
pid=$!
for _ in $(seq 200); do [ -p "$dir/fifo" ] && break; sleep 0.05; done
sleep 0.5
hwm() { awk '/VmHWM/ {print $2 " kB"}' "/proc/$pid/status"; }
before="$(hwm)"
start=$(date +%s%N)
cat "$dir/lines" > "$dir/fifo"
written=$(date +%s%N)
after="$(hwm)"
echo quit > "$dir/fifo"
wait "$pid" || true
end=$(date +%s%N)
echo "fifo-flood: $n lines written in $(( (written - start) / 1000000 )) ms, read and applied (quit answered) after $(( (end - start) / 1000000 )) ms"
echo "fifo-flood: peak RSS before $before, after the flood $after"
echo "fifo-flood: $(grep -c 'command refused' "$dir/log") lines refused with an error (missing images, dismissals past the bound)"
