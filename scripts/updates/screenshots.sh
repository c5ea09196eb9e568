#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes docs/updates.md's pictures: what the person in front of the screen sees at each phase of
# an update, drawn by the daemon on the memory display (nothing else draws them). Each is a timed
# script played by `splashhudd --display memory --out`, whose last frame is kept.
#   scripts/updates/screenshots.sh [--bin-dir DIR] [--size WxH] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=.build/debug size=800x480
while [[ $# -gt 0 ]]; do
    case $1 in
        --bin-dir) bin=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        -*) echo "usage: $0 [--bin-dir DIR] [--size WxH] [OUT_DIR]" >&2; exit 64 ;;
        *) break ;;
    esac
done
out=${1:-docs}
[[ -x $bin/splashhudd ]] || swift build --product splashhudd >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shot NAME [DAEMON OPTION...] -- SCRIPT LINE...
shot() {
    local name=$1; shift
    local opts=()
    while [[ $1 != -- ]]; do opts+=("$1"); shift; done
    shift
    printf '%s\n' "$@" > "$tmp/$name.hud"
    "$bin/splashhudd" --display "memory:$size" --socket none --script "$tmp/$name.hud" --duration 2 --retain \
        --out "$tmp/$name" --log-level error "${opts[@]}"
    cp "$tmp/$name/shown-last.png" "$out/updates-$name.png"
    echo "wrote $out/updates-$name.png"
}

# SWUpdate's second of three images, half written: one ring for the whole update.
shot progress -- '@0 progress 0.5 "rootfs.img (2 of 3)"'
# A corrupt image: SWUpdate's own reason, staying until something else is shown.
shot failure -- '@0 error --stay "HASH mismatch : c70237bb… <--> e4669c53…\nImage invalid or corrupted. Not installing ..."'
# An offline update (PackageKit: plymouth change-mode --updates, system-update --progress=40).
shot offline --mode updates -- '@0 progress 0.4 "Installing updates"'
# The power-off (splashhud-poweroff.service: splashhudd --mode shutdown).
shot shutdown --mode shutdown --
