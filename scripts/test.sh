#!/usr/bin/env bash
# Runs every test: installs what the tests need, builds, and runs the whole suite; then, with no
# arguments, runs every suite but the QEMU boots again under ThreadSanitizer, so a data race fails
# the run instead of corrupting the heap now and then (Swift Testing runs tests in parallel).
# Arguments go to the first `swift test` only, e.g. `./scripts/test.sh --filter RasterTests`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
if [ $# -eq 0 ]; then
    # The QEMU suites are skipped here: their guests are separate programs, and the host side
    # only drives QEMU. halt_on_error makes the first race report fail the run.
    swift build --build-tests --sanitize=thread --scratch-path .build-tsan
    TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
        swift test --skip-build --sanitize=thread --scratch-path .build-tsan --skip QEMUTests
fi
