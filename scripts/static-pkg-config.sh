#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes pkg-config files for libdrm, FreeType and libpng whose flags name their static archives
# (-l:libX.a) followed by every library those need (pkg-config --static), into DIR, and prints DIR.
# First on PKG_CONFIG_PATH, they make SwiftPM, which links a system library with pkg-config's
# flags (the module maps name no library), link the archives in, in an order a static link
# resolves. For scripts/install.sh --static-stdlib and the fully static daemon scripts/test.sh builds.
# The text libraries' files (HarfBuzz and libunibreak built from Debian's source, FriBidi and libthai
# from Debian's archives) come from scripts/text-libraries.sh, libqrencode's (built from the
# upstream tarball in Debian's pool) from scripts/qrencode-library.sh, called last.
#
#   scripts/static-pkg-config.sh DIR
set -euo pipefail
dir="${1:?usage: static-pkg-config.sh DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
for name in libdrm freetype2 libpng16; do
    pkg-config --exists "$name" || continue
    libs=""
    for flag in $(pkg-config --static --libs "$name"); do
        lib="${flag#-l}"
        archive="$("$clang" -print-file-name="lib$lib.a" 2>/dev/null || true)"
        # zlib and libm stay as they are: shared where the rest of the program is, static in a
        # -static-executable link, which takes every library from its archive.
        if [[ $flag == -l* && $lib != z && $lib != m && $archive == /* && -f $archive ]]; then
            libs+=" -l:lib$lib.a"
        else
            libs+=" $flag"
        fi
    done
    printf 'Name: %s\nDescription: %s, linked statically (scripts/static-pkg-config.sh)\nVersion: %s\nLibs:%s\nCflags: %s\n' \
        "$name" "$name" "$(pkg-config --modversion "$name")" "$libs" "$(pkg-config --cflags "$name")" > "$dir/$name.pc"
done
# After FreeType's file: HarfBuzz's names FreeType's static flags again.
"$(dirname "$0")/text-libraries.sh" "$dir" >&2
# libqrencode (the daemon's support QR code), which Debian 12 ships only shared.
"$(dirname "$0")/qrencode-library.sh" "$dir" >&2
echo "$dir"
