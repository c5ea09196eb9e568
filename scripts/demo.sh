#!/usr/bin/env bash
# The main job: renders the demo on the best display available and says where its pictures are.
# For now that is the memory framebuffer: an update sequence as an animated PNG, key frames and
# the event log, plus the rasterizer's reference frame and primitive gallery.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
out="${1:-out/demo}"
swift build -c release --product splashhud >/dev/null
"$(swift build -c release --show-bin-path)/splashhud" demo --out "$out"
echo "Open $out/hud.apng.png (animated) and $out/hud-*.png to see the HUD; $out/raster/ holds the rasterizer's pictures."
