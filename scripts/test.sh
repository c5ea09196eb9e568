#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every test: installs what the tests need and builds; runs the one host suite that must run
# without a sanitizer, then the QEMU boots on their own (their guests measure frame rate, CPU and
# latency, so the host suites must not share the two cores with them) and the benchmarks' guests
# in short; then the docs' blocks in a Debian guest beside the sanitizer builds; then every host
# suite under ThreadSanitizer, so a data race fails the run instead of corrupting the heap now and
# then (Swift Testing runs tests in parallel), and under AddressSanitizer with LeakSanitizer (Swift
# has no UndefinedBehaviorSanitizer: its own overflow and bounds checks trap in these debug
# builds); last a short libFuzzer run of every fuzz target (scripts/fuzz.sh; the long runs'
# figures are in docs/testing.md). With arguments, only `swift test --skip-build ARGS` runs after
# the build, e.g. `./scripts/test.sh --filter RasterTests`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's start time, so a slow run says where its minutes went.
phase() { echo "test.sh: $(date -u +%T) $*"; }
phase "setup"
source scripts/setup.sh --tests
phase "the debug build"
swift build --build-tests
# The client and the daemon as `scripts/install.sh` builds them by default: optimised and fully
# static (StaticClientTests, StaticDaemonTests), the pair the docs' Debian guest installs (a debug
# daemon there took 8.5 s of a starved guest to its first log line, near systemd's 10 s start
# timeout). The linker warns about getpwnam_r, getgrnam_r and initgroups (the daemon restricts them
# to /etc files when static) and about the Swift runtime's dlopen (which finds nothing to open and
# goes on). The same release flags as install.sh's (no run-time exclusivity checks), so that the
# benchmarks run on these measure the daemon users install.
static=(-c release -Xswiftc -enforce-exclusivity=unchecked -Xswiftc -static-executable --scratch-path .build-static-executable)
phase "the static client and daemon"
swift build "${static[@]}" --product splashhud
PKG_CONFIG_PATH="$(scripts/static-pkg-config.sh .build-static-executable/pkgconfig)${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
    swift build "${static[@]}" -Xlinker --no-export-dynamic --product splashhudd
SPLASHHUD_STATIC_CLIENT="$(swift build "${static[@]}" --show-bin-path)/splashhud"
SPLASHHUD_STATIC_DAEMON="$(swift build "${static[@]}" --show-bin-path)/splashhudd"
export SPLASHHUD_STATIC_CLIENT SPLASHHUD_STATIC_DAEMON
if [ $# -gt 0 ]; then
    exec swift test --skip-build "$@"
fi
# The host suites run under ThreadSanitizer and AddressSanitizer below; plainly only the checks a
# sanitizer or a loaded machine would upset: the daemon's peak RSS under a flood, and the loop's
# 50 ms ping bound while flip events get lost (LoopLatencyTests; a looser one holds under them);
# and the real Home Assistant, whose own start is not ours to sanitize (about 25 s).
phase "the plain host checks"
swift test --skip-build --filter 'DaemonFloodTests|LoopLatencyTests|HomeAssistantDiscoveryTests'
# The Plymouth and whole-boot benchmarks' report code (parsing, medians, tables, targets): no QEMU,
# no root (the whole boot's full runs take 50 minutes; its short form runs after the QEMU suite).
python3 scripts/bench/test_report.py
python3 scripts/bench/test_whole_boot.py
# The key-to-bullet benchmark in short (the static pair on the memory display, its screen shared
# through --screen-file, 3 keys; a few seconds): it fails when a bullet or the answer is missing.
python3 scripts/bench/key-latency.py --runs 1 --keys 3 --bin-dir "$(dirname "$SPLASHHUD_STATIC_DAEMON")"
# A spinner frame's instructions under callgrind (the static daemon on the memory display, 3 s and
# 8 s; about 15 s): it fails when fewer than 100 frames are drawn between the two runs.
python3 scripts/bench/frame-footprint.py --bin "$SPLASHHUD_STATIC_DAEMON" --top 5
# Docs and benchmarks, so they keep working (docs/testing.md): the Swift API's DocC catalogues with no
# public symbol undocumented (36 s here), and the benchmark package, Benchmarks/ (150 s here).
phase "the docs' checks and the benchmark package"
scripts/check-docs.sh
swift build --package-path Benchmarks --scratch-path .build-benchmarks-debug
# The release daemon and client the initramfs and LUKS boots put in their images, built now: a build
# during the QEMU phase would share the two cores with the timed guests (the frame pacer's).
phase "the guests' release binaries"
swift build -c release --scratch-path .build-release --product splashhudd
swift build -c release --scratch-path .build-release --product splashhud
phase "the QEMU suite"
swift test --skip-build --filter QEMUTests
# The benchmarks' guests in short, so they keep working; their figures come from the full runs
# (docs/performance.md). Alone on the machine like the QEMU suite's guests: the guests' own
# timeouts (splashhud.service's 10 s start) are not the benchmark's to stretch. whole-boot.py
# --short boots the Debian guest with no splash, Plymouth, SplashHUD and its progress HUD, one
# timed boot each (16 minutes in a rehearsal, 11 of them preparing the four images, two at a
# time; one initramfs build each since, about 6 minutes of preparing), and
# fails when a boot stops reporting a figure its variant must; tcg-footprint.py runs its five C
# loops once for 2 s (under a minute).
phase "the whole boot and the translator's footprint, in short"
python3 scripts/bench/whole-boot.py --short --out .build/whole-boot
python3 scripts/bench/tcg-footprint.py --rounds 1 --seconds 2
# The docs' blocks in a Debian 12 guest (DocsEndToEndTests, docs/testing.md): about 11 minutes of
# one core under emulation, two of them rebuilding initramfs images. Nothing in it is timed, so it
# runs beside the sanitizer and fuzzer builds (which only get slower) instead of after everything.
docs_log=.build/docs-vm.log
phase "the docs guest (in the background) and the sanitizer and fuzzer builds"
SPLASHHUD_DOCS_VM=1 swift test --skip-build --filter DocsEndToEndTests >"$docs_log" 2>&1 &
docs_pid=$!
# The QEMU suites are not run again here: their guests are separate programs, and the host side
# only drives QEMU. halt_on_error makes the first race report fail the run.
# The builds yield to the guest: it has timeouts of its own (systemd's start timeout for
# splashhud.service, which the test stretches to 60 s there), which a guest sharing two cores
# evenly with two compilers overran.
nice -n 10 swift build --build-tests --sanitize=thread --scratch-path .build-tsan
nice -n 10 swift build --build-tests --sanitize=address --scratch-path .build-asan
nice -n 10 scripts/fuzz.sh --build-only
# The spinner's profile on vkms in short (scripts/bench/spinner-profile.py: perf in the guest, 2 s a
# subject; about 2 minutes of one core), so it keeps working; the figures come from its full runs
# (docs/performance.md). It runs beside the docs guest once the builds are done.
phase "the spinner's profile on vkms, in short (beside the docs guest)"
python3 scripts/bench/spinner-profile.py --seconds 2 --out .build/spinner-profile
phase "waiting for the docs guest"
docs_status=0
wait "$docs_pid" || docs_status=$?
cat "$docs_log"
[ "$docs_status" = 0 ] || { echo "test.sh: the docs' blocks failed in the Debian guest (DocsEndToEndTests)" >&2; exit 1; }
# Home Assistant's test ran plainly above; the bridge's discovery runs under both sanitizers in
# HomeAssistantDiscoveryUnitTests.
phase "ThreadSanitizer"
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=thread --scratch-path .build-tsan --skip QEMUTests --skip HomeAssistantDiscoveryTests
phase "AddressSanitizer"
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp ${LSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=address --scratch-path .build-asan --skip QEMUTests --skip HomeAssistantDiscoveryTests
phase "fuzzing"
scripts/fuzz.sh 5
phase "done"
