#!/usr/bin/env bash
# The main job: renders the demo on the best display available and says where its pictures are.
# For now that is the memory framebuffer: the reference HUD frame and the primitive gallery as PNG.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
out="${1:-out/demo}"
swift build -c release --product splashhud >/dev/null
"$(swift build -c release --show-bin-path)/splashhud" demo --out "$out"
echo "Open $out/gallery.png and $out/reference-full1080.png to see them."
