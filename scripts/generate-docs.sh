#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the man pages and the shell completions into out/docs/: splashhud.1 and splashhudd.8 from
# the programs' own option tables (--generate-manual), splashhud-tools.1 by swift-argument-parser's
# generate-manual (the tool its GenerateManual plugin runs, built alone rather than through the
# plugin, which would build every product first), splashhud.conf.5 as written in docs/man/, and
# the completions (--generate-completion-script). scripts/install.sh installs the same pages.
#   scripts/generate-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/docs
rm -rf "$out"; mkdir -p "$out/man" "$out/completions"
for product in splashhud splashhudd splashhud-tools generate-manual; do swift build --product "$product" >/dev/null; done
bin="$(swift build --show-bin-path)"
"$bin/splashhud" --generate-manual > "$out/man/splashhud.1"
"$bin/splashhudd" --generate-manual > "$out/man/splashhudd.8"
for tool in splashhud splashhudd; do
    for shell in bash zsh fish; do
        "$bin/$tool" --generate-completion-script "$shell" > "$out/completions/$tool.$shell"
    done
done
"$bin/generate-manual" "$bin/splashhud-tools" --output-directory "$out/man" >/dev/null
cp docs/man/splashhud.conf.5 "$out/man/"
echo "wrote $(find "$out/man" -type f | wc -l) man pages to $out/man and completions to $out/completions"
