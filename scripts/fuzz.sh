#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes SplashHUD's input parsers with libFuzzer: scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds `splashhud-fuzz` with `-sanitize=fuzzer,address` (coverage-guided, AddressSanitizer on our
# Swift code and CPNGCodec; the system's libpng and FreeType run uninstrumented) into .build-fuzz, then runs
# each target (default: all) for SECONDS (default 60) on a copy of its seed corpus (Fuzz/corpus),
# so what the fuzzer finds never lands in the repository by itself. Prints one line per target
# (executions, coverage, features, corpus, crashes) and exits 1 if any target crashed; a crash's
# input is kept in .build-fuzz/crashes/ — replay it with
# `swift run splashhud-fuzz TARGET FILE`, fix it, and add it to Fuzz/corpus/TARGET/ as
# crash-NAME so CorpusReplayTests keeps it fixed. FUZZ_CONFIG=release fuzzes an optimised build.
# `scripts/fuzz.sh --build-only` builds and stops (test.sh builds it beside the docs guest).
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi
seconds=${1:-60}
[ $# -gt 0 ] && shift
all=(commands control fifo plymouth profile evdev png bmp font uevent text)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
config=${FUZZ_CONFIG:-debug}
scratch=.build-fuzz

swift build -c "$config" --product splashhud-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | grep -E "error|warning: unre|Compiling splashhud_fuzz|Build complete" || true
binary="$scratch/$config/splashhud-fuzz"
[ -x "$binary" ] || { echo "fuzz.sh: $binary was not built" >&2; exit 1; }
$build_only && exit 0

crashed=0
printf '%-9s %12s %9s %9s %8s %8s %7s\n' target executions exec/s coverage features corpus crashes
for t in "${targets[@]}"; do
    work="$scratch/corpus/$t" crashes="$scratch/crashes/$t"
    rm -rf "$work" "$crashes"; mkdir -p "$work" "$crashes"
    log="$scratch/fuzz-$t.log"
    # -rss_limit_mb: a PNG or font that makes a decoder allocate without bound is a finding too.
    set +e
    # Swift's own backtracer off: a trap is reported by libFuzzer and ASan, with the input kept.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" SPLASHHUD_FUZZ_TARGET="$t" "$binary" "$work" "Fuzz/corpus/$t" \
        -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$crashes/" > "$log" 2>&1
    status=$?
    set -e
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    found=$(find "$crashes" -type f | wc -l)
    printf '%-9s %12s %9s %9s %8s %8s %7s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$(find "$work" -type f | wc -l)" "$found"
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        crashed=1
        echo "fuzz.sh: $t failed (status $status); the end of its log ($log):" >&2
        tail -40 "$log" >&2
    fi
done
exit $crashed
