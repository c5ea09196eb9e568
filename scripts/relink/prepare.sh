#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes THIRD-PARTY-NOTICES and the relink kit of the given binaries into DIR, right after
# `swift build` made them (scripts/install.sh calls it): each binary's link is recorded from the
# build manifest of the SwiftPM scratch directory it is in (BIN = SCRATCH/TRIPLE/CONFIG/PRODUCT),
# then scripts/third-party-notices.py writes DIR/THIRD-PARTY-NOTICES and
# scripts/relink/make-kit.py writes DIR/relink for every program with an LGPL archive linked in.
#
#   scripts/relink/prepare.sh [--kit-dir INSTALLED-KIT-DIR] DIR BINARY...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kitdir=/usr/lib/splashhud/relink
[[ ${1:-} == --kit-dir ]] && { kitdir="$2"; shift 2; }
out="${1:?usage: prepare.sh [--kit-dir DIR] DIR BINARY...}"; shift
rm -rf "$out" && mkdir -p "$out/records"   # nothing stale left when a record fails
records=()
for binary in "$@"; do
    real="$(readlink -f "$binary")"
    config="$(basename "$(dirname "$real")")"
    scratch="$(dirname "$(dirname "$(dirname "$real")")")"
    [[ -f $scratch/$config.yaml ]] || { echo "prepare.sh: $binary is not in a SwiftPM build directory (no $scratch/$config.yaml)" >&2; exit 3; }
    record="$out/records/$(basename "$real").json"
    python3 "$here/record-link.py" --scratch-path "$scratch" -c "$config" --product "$(basename "$real")" -o "$record"
    records+=("$record")
done
python3 "$here/../third-party-notices.py" --kit-dir "$kitdir" "${records[@]/#/--record=}" -o "$out/THIRD-PARTY-NOTICES" "$@"
python3 "$here/make-kit.py" --out "$out/relink" "${records[@]}"
