#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Exec → first frame of the release daemon on the memory display, a spinner with a Hebrew status
# against the same with a Latin one (issue 24's target: no more than 5 % slower). Each run is
# started by execstamp (scripts/qemu/execstamp.c), which sets SPLASHHUD_EXEC_NS, so the daemon's
# start-up line (StartupTimeline) gives exec → main and main → first frame; their sum is the
# figure. The two statuses run in turn, RUNS times each, the order swapped every round. Beside
# the times, which a shared machine's load makes noisy: each run's CPU, and with valgrind, the
# instructions from exec to the first frame (callgrind, dumped when the start-up line is made;
# CALLGRIND runs each, 0 for none), which load does not change.
#
#   scripts/bench/first-frame-text.sh [--runs 60] [--callgrind 3] [--no-build] [--size 1280x800]
#
# Needs the default chain's faces (fonts-dejavu-core, fonts-noto-core: scripts/setup.sh --tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=60 callgrind=3 build=1 size=1280x800
while (($#)); do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --callgrind) callgrind=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--runs N] [--callgrind N] [--no-build] [--size WxH]" >&2; exit 64 ;;
    esac
done

scratch=.build-bench
release=(-c release -Xswiftc -enforce-exclusivity=unchecked --scratch-path "$scratch")
if ((build)); then
    nice -n 19 swift build "${release[@]}" --product splashhudd >&2
    nice -n 19 cc -O2 -Wall -o "$scratch/execstamp" scripts/qemu/execstamp.c
    nice -n 19 cc -O2 -Wall -o "$scratch/cputime" scripts/bench/cputime.c
fi
daemon="$(swift build "${release[@]}" --show-bin-path)/splashhudd"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The benchmark's Latin status and its Hebrew translation: a number and an ellipsis in both.
printf '@0 show "Installing update 3 of 7…"\n' > "$work/latin.hud"
printf '@0 show "מתקין עדכון 3 מתוך 7…"\n' > "$work/hebrew.hud"

# run NAME: appends "NAME exec→main main→first first-frame-phase cpu" (ms) to $work/results. The
# CPU (user + system, cputime.c) is the whole run's, to exit after 50 ms of frames: unlike the
# wall times, waiting for the CPU on a shared machine does not count in it.
run() {
    local log
    log="$(nice -n 19 "$scratch/cputime" "$scratch/execstamp" "$daemon" --display "memory:$size" --socket none \
        --console off --script "$work/$1.hud" --duration 0.05 2>&1)"
    if grep -q "no font has" <<< "$log"; then echo "first-frame-text.sh: $1 drew boxes: $(grep "no font has" <<< "$log")" >&2; exit 1; fi
    { sed -nE 's/.*start-up: exec to main ([0-9.]+) ms.* first frame ([0-9.]+) ms; main to first frame ([0-9.]+) ms.*/\1 \3 \2/p;
               s/^CPU_US ([0-9]+)$/\1/p' <<< "$log" | paste -sd' '; } \
        | awk -v name="$1" 'NF == 4 { print name, $1, $2, $3, $4 / 1000; found = 1 } END { exit !found }' >> "$work/results" \
        || { echo "first-frame-text.sh: no start-up line from the $1 run:" >&2; echo "$log" >&2; exit 1; }
}
for ((r = 1; r <= runs; r++)); do
    if ((r % 2)); then run latin; run hebrew; else run hebrew; run latin; fi
done

echo "first-frame-text: $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  release splashhudd --display memory:$size, a spinner with a status; $runs runs each, interleaved;"
echo "  ms, median [p10, p90]"
awk '
    function pct(a, n, q,   pos, lo, hi) { pos = q * (n - 1); lo = int(pos); hi = lo + 1 < n ? lo + 1 : n - 1; return a[lo] + (a[hi] - a[lo]) * (pos - lo) }
    function sort(a, n,   i, j, t) { for (i = 1; i < n; i++) for (j = i; j > 0 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
    # column c of status k: median, and the p10 and p90 in brackets
    function cell(k, c,   i, a) { for (i = 0; i < n[k]; i++) a[i] = v[k, c, i]; sort(a, n[k]); med[k, c] = pct(a, n[k], .5)
                                   return sprintf("%6.1f [%5.1f, %5.1f]", med[k, c], pct(a, n[k], .1), pct(a, n[k], .9)) }
    { k = $1 == "latin" ? 0 : 1; i = n[k]++; v[k, 0, i] = $2 + $3; v[k, 1, i] = $4; v[k, 2, i] = $5 }
    END {
        printf "  %-7s %-22s %-22s %s\n", "", "exec → first frame", "first-frame phase", "CPU, exec → exit"
        for (k = 0; k <= 1; k++) printf "  %-7s %s  %s  %s\n", k ? "Hebrew" : "Latin", cell(k, 0), cell(k, 1), cell(k, 2)
        r = med[1, 0] / med[0, 0]
        # the ratio within each round, whose two runs are next to each other in time
        for (i = 0; i < n[1]; i++) q[i] = v[1, 0, i] / v[0, 0, i]
        sort(q, n[1])
        printf "\n  Hebrew/Latin: exec → first frame %.3f (medians), %.3f (median of the rounds, p10 %.2f, p90 %.2f);\n",
               r, pct(q, n[1], .5), pct(q, n[1], .1), pct(q, n[1], .9)
        printf "  CPU %.3f (medians); target <= 1.05: %s\n", med[1, 2] / med[0, 2], r <= 1.05 ? "met" : "NOT met"
    }' "$work/results"

command -v valgrind > /dev/null || callgrind=0
((callgrind > 0)) || exit 0
# Valgrind 3.19 cannot read Swift 6's DWARF 5: a copy without debug information, symbols kept.
strip --strip-debug -o "$work/splashhudd" "$daemon"
for ((r = 1; r <= callgrind; r++)); do
    for name in latin hebrew; do
        rm -f "$work/cg"*
        # shellcheck disable=SC2016 # a Swift symbol, not a shell expansion
        nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$work/cg" --dump-before='$s7Runtime15StartupTimelineC7summarySSyF' \
            "$work/splashhudd" --display "memory:$size" --socket none --console off --script "$work/$name.hud" --duration 0.05 > /dev/null 2>&1
        [[ -f $work/cg.1 ]] || { echo "first-frame-text.sh: callgrind made no dump at the start-up line" >&2; exit 1; }
        echo "$name $(sed -nE 's/^summary: ([0-9]+)/\1/p' "$work/cg.1")" >> "$work/instructions"
    done
done
awk -v runs="$callgrind" '
    { v[$1] = v[$1] " " $2 }
    END {
        for (name in v) { n = split(v[name], a, " "); for (i = 1; i < n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                          m[name] = a[int((n + 1) / 2)] }
        printf "\n  Instructions, exec → first frame (callgrind, median of %d): Latin %.2f M, Hebrew %.2f M; Hebrew/Latin %.3f\n",
               runs, m["latin"] / 1e6, m["hebrew"] / 1e6, m["hebrew"] / m["latin"]
    }' "$work/instructions"
