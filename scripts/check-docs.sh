#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the DocC documentation of the Swift API's products (HUDClient, SplashHUDKit) with
# swift-docc-plugin, warnings as errors, and fails when a public symbol has no documentation
# (DocC's coverage report: a symbol without an abstract; default implementations inherit the
# protocol's documentation). The archives land in
# .build/plugins/Swift-DocC/outputs/.
#   scripts/check-docs.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
((${#targets[@]})) || targets=(HUDClient SplashHUDKit)
for target in "${targets[@]}"; do
    log="$(mktemp)"
    if ! swift package generate-documentation --target "$target" --warnings-as-errors --enable-inherited-docs \
        --experimental-documentation-coverage --coverage-summary-level none >"$log" 2>&1; then
        cat "$log" >&2; rm -f "$log"; exit 1
    fi
    grep -i 'warning:' "$log" >&2 && { rm -f "$log"; exit 1; }
    rm -f "$log"
    python3 - "$target" <<'PY'
import json, sys
target = sys.argv[1]
entries = json.load(open(f".build/plugins/Swift-DocC/outputs/{target}.doccarchive/documentation-coverage.json"))
# Symbols only (articles are checked by DocC itself); not the groups DocC makes, nor `!=`, which
# Equatable's default implementation documents.
missing = [e["referencePath"].split("/documentation/")[-1] for e in entries
           if not e["hasAbstract"] and e["kind"].get("isSymbol", True)
           and e["kind"]["id"] != "org.swift.docc.kind.collectionGroup"
           and not e["referencePath"].endswith("/!=(_:_:)")]
for m in missing:
    print(f"check-docs: {m} has no documentation", file=sys.stderr)
print(f"check-docs: {target}: {len(entries)} symbols and pages, {len(missing)} without documentation")
sys.exit(1 if missing else 0)
PY
done
