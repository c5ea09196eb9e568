#!/usr/bin/env bash
# Writes the man pages of splashhud and splashhudd (ArgumentParser's generate-manual plugin) and
# their shell completions (the binaries' own --generate-completion-script) into out/docs/.
#   scripts/generate-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/docs
rm -rf "$out"; mkdir -p "$out/man" "$out/completions"
swift package generate-manual >/dev/null
for tool in splashhud splashhudd; do
    find .build/plugins/GenerateManual/outputs/"$tool" -name '*.1' -exec cp {} "$out/man/" \;
done
bin="$(swift build --show-bin-path)"
for shell in bash zsh fish; do
    for tool in splashhud splashhudd; do
        "$bin/$tool" --generate-completion-script "$shell" > "$out/completions/$tool.$shell"
    done
done
echo "wrote $(ls "$out/man" | wc -l) man pages to $out/man and completions to $out/completions"
