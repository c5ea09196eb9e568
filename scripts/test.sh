#!/usr/bin/env bash
# Runs every test: installs what the tests need, builds, and runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
