#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A static archive and a pkg-config file for libqrencode (the daemon's support QR code), for the
# fully static daemon: Debian 12's libqrencode-dev ships only the shared library. Debian's source
# package (qrencode 4.1.1-1) can no longer be fetched whole (the pool serves its .dsc and upstream
# tarball but not its debian.tar.xz), so this builds the upstream tarball of that package from
# Debian's pool, its checksum pinned here (the one the .dsc names), and checks that its public
# header equals the installed one. The library's own sources only (qrenc.c is the command line,
# which needs libpng), configured as its CMakeLists.txt does: threads on (HAVE_LIBPTHREAD: the
# Reed-Solomon tables are made under a mutex), internals static.
# Writes libqrencode.pc into DIR (scripts/static-pkg-config.sh calls it). Source and archive are
# cached in .build/qrencode/, keyed by flags: a second run builds nothing.
#
#   scripts/qrencode-library.sh DIR
#
# Without network, QRENCODE_SOURCE=DIR names an unpacked qrencode 4.1.1 source tree.
set -euo pipefail
dir="${1:?usage: qrencode-library.sh DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
cache="$(cd "$(dirname "$0")/.." && pwd)/.build/qrencode"
mkdir -p "$cache"
die() { echo "qrencode-library.sh: $*" >&2; exit 1; }
# shellcheck source=scripts/pool-tarball.sh
source "$(dirname "$0")/pool-tarball.sh"

version=4.1.1
sha256=e455d9732f8041cf5b9c388e345a641fd15707860f928e94507b1961256a6923
installed="$(pkg-config --modversion libqrencode 2>/dev/null)" || die "libqrencode-dev is not installed (scripts/setup.sh)"
[[ $installed == "$version" ]] || die "the installed libqrencode is $installed, this script builds $version: update its version and checksum"
cflags=(-Os -ffunction-sections -fdata-sections -fPIC -DHAVE_LIBPTHREAD=1 -DHAVE_STRDUP=1 -DSTATIC_IN_RELEASE=static
        -DMAJOR_VERSION=4 -DMINOR_VERSION=1 -DMICRO_VERSION=1 "-DVERSION=\"$version\"")
flags="${cflags[*]}"

src="$cache/qrencode-$version"
pool_tarball "$src" "http://deb.debian.org/debian/pool/main/q/qrencode/qrencode_$version.orig.tar.bz2" "$sha256" QRENCODE_SOURCE
cmp -s "$src/qrencode.h" /usr/include/qrencode.h || die "$src/qrencode.h differs from /usr/include/qrencode.h: not the installed libqrencode-dev's version"
if [[ ! -f $src/libqrencode.a || ! -f $src/libqrencode.flags || $(cat "$src/libqrencode.flags") != "$flags" ]]; then
    echo "qrencode-library.sh: building libqrencode.a from $src" >&2
    objs=()
    for name in bitstream mask mmask mqrspec qrencode qrinput qrspec rsecc split; do
        ${CC:-cc} -c "$src/$name.c" -o "$src/$name.o" "${cflags[@]}"
        objs+=("$src/$name.o")
    done
    rm -f "$src/libqrencode.a" && ar rcs "$src/libqrencode.a" "${objs[@]}"
    printf '%s' "$flags" > "$src/libqrencode.flags"
fi
# SwiftPM keeps only -L and -l flags from Libs. LGPL-2.1-or-later: named plainly, as FriBidi is
# (scripts/text-libraries.sh), so that a -static-executable link (the daemon) takes the archive, for
# which the relink kit exists (docs/licences.md; it carries this archive too), and any other link
# (install.sh's --static-stdlib tools) the shared library, which the link finds first in the same
# directory through this symbolic link to Debian's.
ln -sfn "$(pkg-config --variable=libdir libqrencode)/libqrencode.so" "$src/libqrencode.so"
printf 'Name: libqrencode\nDescription: libqrencode, linked statically (scripts/qrencode-library.sh)\nVersion: %s\nLibs: -L%s -lqrencode -lpthread\nCflags: -I%s\n' \
    "$version" "$src" "$src" > "$dir/libqrencode.pc"
