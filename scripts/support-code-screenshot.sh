#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes a PNG of a failed update's screen with its support QR code as the daemon renders it
# (docs/updates.md's picture): splashhudd on the memory display with a board profile naming a
# support address shows SWUpdate's reason for a corrupt image with `error --stay --support`, and
# the last frame is kept; zbarimg (zbar-tools) then reads the code back, so the picture is
# checked to scan before it is kept. Nothing is drawn but by the daemon.
#   scripts/support-code-screenshot.sh [--bin-dir DIR] [--size WxH] OUT.png
set -euo pipefail
bin=.build/debug size=640x400
while [[ $# -gt 1 ]]; do
    case $1 in
        --bin-dir) bin=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        *) break ;;
    esac
done
out="${1:?usage: support-code-screenshot.sh [--bin-dir DIR] [--size WxH] OUT.png}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '[updates]\nsupport-url = https://support.example.com/kiosk\ndevice-id = hall-7-kiosk-2\n' > "$tmp/board.conf"
printf '@0 error --stay --support "Image invalid or corrupted. Not installing ..."\n' > "$tmp/script"
"$bin/splashhudd" --display "memory:$size" --profile "$tmp/board.conf" --socket none --script "$tmp/script" \
    --duration 1 --retain --out "$tmp/out" --log-level error
decoded="$(zbarimg --raw -q "$tmp/out/shown-last.png" 2>/dev/null)" || { echo "support-code-screenshot.sh: zbarimg found no code" >&2; exit 1; }
cp "$tmp/out/shown-last.png" "$out"
echo "wrote $out: $decoded"
