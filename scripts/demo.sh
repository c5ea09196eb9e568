#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: plays the demo on the best display available and says where its pictures are.
# The update sequence always plays on the memory framebuffer, which writes the pictures (an
# animated PNG, key frames, the event log, plus the rasterizer's reference frame and primitive
# gallery); when a real screen can be opened (a DRM card or /dev/fb0, with permission: root or the
# video group) it also plays there. The output names the display used and why the others were not.
# Extra arguments go to `splashhud demo` (e.g. --profile rpi4, --no-screen).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
out="${1:-out/demo}"
shift || true
swift build -c release --product splashhud >/dev/null
swift build -c release --product splashhud-tools >/dev/null
"$(swift build -c release --show-bin-path)/splashhud" demo --out "$out" "$@"
echo "Open $out/hud.apng.png (animated) and $out/hud-*.png to see the HUD; $out/raster/ holds the rasterizer's pictures."
