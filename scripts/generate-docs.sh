#!/usr/bin/env bash
# Writes the man pages (splashhud.1 and splashhudd.1 from the programs' own option tables,
# --generate-manual; splashhud-tools' from ArgumentParser's generate-manual plugin) and the shell
# completions (--generate-completion-script) into out/docs/.
#   scripts/generate-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/docs
rm -rf "$out"; mkdir -p "$out/man" "$out/completions"
swift build --product splashhud >/dev/null
swift build --product splashhudd >/dev/null
bin="$(swift build --show-bin-path)"
for tool in splashhud splashhudd; do
    "$bin/$tool" --generate-manual > "$out/man/$tool.1"
    for shell in bash zsh fish; do
        "$bin/$tool" --generate-completion-script "$shell" > "$out/completions/$tool.$shell"
    done
done
swift package generate-manual >/dev/null
find .build/plugins/GenerateManual/outputs/splashhud-tools -name '*.1' -exec cp {} "$out/man/" \;
echo "wrote $(ls "$out/man" | wc -l) man pages to $out/man and completions to $out/completions"
