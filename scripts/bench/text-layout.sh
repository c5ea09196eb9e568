#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lays out a 200-character Arabic paragraph wrapped to SV's label (200 px at 15 px/em, Noto Sans
# Arabic), SplashHUD (splashhud-bench text-layout) against Pango (Benchmarks/text-layout/
# pango-layout.c, pangoft2), each from scratch every time. The two run in turn, ROUNDS times, the
# order swapped every round, so load on the machine falls on both; each run prints the median of
# its LAYOUTS timed layouts. Prints the median, p10 and p90 of those per-run medians, the ratio of
# the medians and the median of each round's ratio (issue 24's target: at most 0.5). With
# valgrind, also each side's instructions per layout (callgrind: 200 layouts less 100), which the
# machine's load does not change.
#
#   scripts/bench/text-layout.sh [--rounds 40] [--layouts 300] [--no-build] [--no-callgrind]
#                                [--font FILE] [--text-file FILE] [--size PX] [--width PX]
#
# Needs libpango1.0-dev and fonts-noto-core (scripts/setup.sh --tests --bench). Builds the release bench
# with install.sh's release flags in .build-bench, and the C program there too.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=40 layouts=300 build=1 callgrind=1 size=15 width=200
font=/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf
text=Benchmarks/text-layout/arabic-200.txt
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --layouts) layouts=$2; shift 2 ;;
        --font) font=$2; shift 2 ;;
        --text-file) text=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --width) width=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --no-callgrind) callgrind=0; shift ;;
        *) echo "usage: $0 [--rounds N] [--layouts N] [--no-build] [--no-callgrind] [--font FILE] [--text-file FILE] [--size PX] [--width PX]" >&2; exit 64 ;;
    esac
done
[[ -f $font ]] || { echo "text-layout.sh: $font is missing (fonts-noto-core)" >&2; exit 66; }

scratch=.build-benchmarks   # the benchmark package (Benchmarks/Package.swift)
release=(-c release -Xswiftc -enforce-exclusivity=unchecked --package-path Benchmarks --scratch-path "$scratch")
if ((build)); then
    nice -n 19 swift build "${release[@]}" --product splashhud-bench >&2
    # shellcheck disable=SC2046 # pkg-config's flags are words
    nice -n 19 cc -O2 -Wall -o "$scratch/pango-layout" Benchmarks/text-layout/pango-layout.c \
        $(pkg-config --cflags --libs pangoft2 fontconfig)
fi
ours="$(swift build "${release[@]}" --show-bin-path)/splashhud-bench"

# Fontconfig sees the face alone (Pango has no font-file option), unhinted as ours is.
fc="$(mktemp -d)"
trap 'rm -rf "$fc"' EXIT
mkdir "$fc/fonts" && ln -s "$(readlink -f "$font")" "$fc/fonts/"
cat > "$fc/fonts.conf" <<EOF
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$fc/fonts</dir><cachedir>$fc/cache</cachedir>
<match target="font"><edit name="hinting" mode="assign"><bool>false</bool></edit></match></fontconfig>
EOF

common=(--font "$font" --text-file "$text" --size "$size" --width "$width" --layouts "$layouts")
run_ours() { nice -n 19 "$ours" text-layout "${common[@]}"; }
run_pango() { FONTCONFIG_FILE="$fc/fonts.conf" nice -n 19 "$scratch/pango-layout" "${common[@]}"; }

results="$fc/results"
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then o="$(run_ours)"; p="$(run_pango)"; else p="$(run_pango)"; o="$(run_ours)"; fi
    echo "round $r ours $o" >> "$results"
    echo "round $r pango $p" >> "$results"
done

# The layouts must be the same for the times to compare: same lines, starting at the same characters.
o_lines="$(awk '$3 == "ours" { for (i = 4; i <= NF; i++) if ($i ~ /^(lines|starts|chars)=/) printf "%s ", $i; print "" }' "$results" | sort -u)"
p_lines="$(awk '$3 == "pango" { for (i = 4; i <= NF; i++) if ($i ~ /^(lines|starts|chars)=/) printf "%s ", $i; print "" }' "$results" | sort -u)"
echo "text-layout: $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  $text at $size px/em, $width px wide, $(basename "$font"); pango $(pkg-config --modversion pango)"
echo "  ours:  $o_lines"
echo "  Pango: $p_lines"
[[ $o_lines == "$p_lines" ]] || echo "  LAYOUTS DIFFER: the times do not compare"
awk -v rounds="$rounds" -v layouts="$layouts" '
    function pct(a, n, q,   pos, lo, hi) { pos = q * (n - 1); lo = int(pos); hi = lo + 1 < n ? lo + 1 : n - 1; return a[lo] + (a[hi] - a[lo]) * (pos - lo) }
    function sorted(a, n,   i, j, t) { for (i = 1; i < n; i++) for (j = i; j > 0 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
    { split($5, m, "="); v = m[2] / 1000; if ($3 == "ours") { o[$2 - 1] = v } else { p[$2 - 1] = v } }
    END {
        for (i = 0; i < rounds; i++) q[i] = o[i] / p[i]
        sorted(o, rounds); sorted(p, rounds); sorted(q, rounds)
        printf "\n  %d rounds of %d layouts; per-run medians, µs per layout\n", rounds, layouts
        printf "  %-10s %9s %9s %9s\n", "", "median", "p10", "p90"
        printf "  %-10s %9.1f %9.1f %9.1f\n", "SplashHUD", pct(o, rounds, .5), pct(o, rounds, .1), pct(o, rounds, .9)
        printf "  %-10s %9.1f %9.1f %9.1f\n", "Pango", pct(p, rounds, .5), pct(p, rounds, .1), pct(p, rounds, .9)
        r = pct(o, rounds, .5) / pct(p, rounds, .5)
        printf "\n  ours/Pango: %.2f (medians), %.2f (median of the rounds, p10 %.2f, p90 %.2f); target <= 0.5: %s\n",
               r, pct(q, rounds, .5), pct(q, rounds, .1), pct(q, rounds, .9), r <= 0.5 ? "met" : "NOT met"
    }' "$results"

command -v valgrind > /dev/null || callgrind=0
((callgrind)) || exit 0
# Valgrind 3.19 cannot read Swift 6's DWARF 5: a copy without debug information.
strip --strip-debug -o "$fc/splashhud-bench" "$ours"
# instructions SIDE N: the instructions of a whole run of N layouts with no warm-up.
instructions() {
    local program=("$fc/splashhud-bench" text-layout) env=()
    [[ $1 == pango ]] && program=("$scratch/pango-layout") env=(FONTCONFIG_FILE="$fc/fonts.conf")
    env "${env[@]}" nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$fc/cg" "${program[@]}" \
        --font "$font" --text-file "$text" --size "$size" --width "$width" --layouts "$2" --warmup 0 > /dev/null 2>&1
    sed -nE 's/^summary: ([0-9]+)/\1/p' "$fc/cg"
}
o=$(( ($(instructions ours 200) - $(instructions ours 100)) / 100 ))
p=$(( ($(instructions pango 200) - $(instructions pango 100)) / 100 ))
awk -v o="$o" -v p="$p" 'BEGIN { printf "  instructions per layout (callgrind): SplashHUD %.3f M, Pango %.3f M; ours/Pango %.2f\n", o / 1e6, p / 1e6, o / p }'
