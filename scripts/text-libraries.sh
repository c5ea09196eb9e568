#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Static archives and pkg-config files for the text libraries, for the fully static daemon:
# Debian 12 ships no libharfbuzz.a (and its .so needs glib and graphite2) and no libunibreak.a, so
# both are built here: HarfBuzz from Debian's own source package (apt-get source, at the version of
# the installed -dev package, so the headers match), libunibreak as said below; FriBidi and libthai
# use Debian's archives.
# Writes harfbuzz.pc, libunibreak.pc, fribidi.pc and libthai.pc into DIR (scripts/static-pkg-config.sh
# calls it). Sources and archives are cached in .build/text-libraries/, keyed by version and flags:
# a second run builds nothing.
#
#   scripts/text-libraries.sh DIR
#
# Without network, apt-get source fails; LIBUNIBREAK_SOURCE=DIR / HARFBUZZ_SOURCE=DIR then name an
# unpacked source tree of the same version (its public headers must equal the installed ones).
set -euo pipefail
dir="${1:?usage: text-libraries.sh DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
cache="$(cd "$(dirname "$0")/.." && pwd)/.build/text-libraries"
mkdir -p "$cache"
die() { echo "text-libraries.sh: $*" >&2; exit 1; }
# shellcheck source=scripts/pool-tarball.sh
source "$(dirname "$0")/pool-tarball.sh"

# HarfBuzz's one-file build, configured by measured size (docs/text.md, "Static build and sizes"):
# HB_LEAN drops the APIs that do not shape; HB_MINI drops AAT (morx/kerx, Apple fonts) and 24-bit
# offsets; the override keeps what HB_MINI's HB_NO_LEGACY would drop (the legacy kern table, the
# Arabic/Hebrew/Thai fallback shapers). Threads stay (no HB_NO_MT): HAVE_PTHREAD makes the locks
# pthread's, not std::mutex, so with -fno-exceptions -fno-rtti the archive needs no libstdc++.
# -fPIC: the same archive also goes into PIE programs (install.sh's --static-stdlib tools).
hb_override='/* scripts/text-libraries.sh: HB_MINI without HB_NO_LEGACY, apart from two of its parts. */
#undef HB_NO_LEGACY
#define HB_NO_CMAP_LEGACY_SUBTABLES
#define HB_NO_OT_LAYOUT_BLOCKLIST'
# shellcheck disable=SC2089 # the quotes are the macro's: -DX="file.h"
hb_flags="-Os -DHAVE_FREETYPE=1 -DHAVE_PTHREAD=1 -DHB_LEAN -DHB_MINI -DHB_CONFIG_OVERRIDE_H=\"hb-splashhud-config.h\"
 -fno-exceptions -fno-rtti -ffunction-sections -fdata-sections -fPIC"
ub_flags="-Os -ffunction-sections -fdata-sections -fPIC"

# A deb-src line for this machine's suites: apt-get source needs one, Debian's images ship none.
ensure_deb_src() {
    grep -rqsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/ && return
    [[ $(id -u) -eq 0 ]] || die "apt-get source needs a deb-src entry; as root, run this once to add /etc/apt/sources.list.d/splashhud-deb-src.sources"
    local codename
    # shellcheck disable=SC1091
    codename="$(. /etc/os-release && echo "$VERSION_CODENAME")"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$codename" "$codename" > /etc/apt/sources.list.d/splashhud-deb-src.sources
    apt-get update -qq || die "apt-get update failed (no network?): cannot get source packages"
}

# source PACKAGE DEV-PACKAGE OVERRIDE-VARIABLE HEADER-DIR HEADERS...: sets $src to the unpacked
# source of the version DEV-PACKAGE was built from, and checks its public headers equal the installed ones.
source_tree() {
    local pkg=$1 dev=$2 var=$3 incdir=$4 version h; shift 4
    version="$(dpkg-query -W -f='${source:Version}' "$dev" 2>/dev/null)" || die "$dev is not installed (scripts/setup.sh)"
    src="$cache/$pkg-$version"
    if [[ ! -d $src ]]; then
        rm -rf "$src.tmp" && mkdir "$src.tmp"
        if [[ -n ${!var:-} ]]; then
            cp -r "${!var}" "$src.tmp/$pkg-given"
        else
            command -v dpkg-source > /dev/null || die "apt-get source needs dpkg-source (apt-get install dpkg-dev)"
            ensure_deb_src
            (cd "$src.tmp" && apt-get source -qq "$pkg=$version" > apt.log 2>&1) || {
                sed 's/^/  /' "$src.tmp/apt.log" >&2
                die "apt-get source $pkg=$version failed (network? deb-src?). Set $var to an unpacked $pkg $version source tree to build without it."
            }
        fi
        # apt unpacks into PACKAGE-UPSTREAMVERSION/ beside the downloaded files, which go.
        mv "$src.tmp/$pkg"-*/ "$src" && rm -rf "$src.tmp"
        echo "${!var:-apt-get source $pkg=$version}" > "$src/.splashhud-origin"
    fi
    for h in "$@"; do
        # Headers meson generates (hb-features.h, hb-gobject-enums.h) are not in the source.
        [[ -f $src/$h || ! -f $src/$h.in && ! -f $src/$h.tmpl ]] || continue
        cmp -s "$src/$h" "$incdir/$(basename "$h")" || die "$src/$h differs from $incdir: not the installed $dev's version"
    done
}

# build NAME FLAGS: true when $cache/NAME.a exists, built with these flags from this source.
built() { [[ -f $1.a && -f $1.flags && $(cat "$1.flags") == "$2" ]]; }

# HarfBuzz
# shellcheck disable=SC2046 # header names have no spaces
source_tree harfbuzz libharfbuzz-dev HARFBUZZ_SOURCE /usr/include/harfbuzz $(cd /usr/include/harfbuzz && printf 'src/%s ' *.h)
hb="$src"
if ! built "$hb/libharfbuzz" "$hb_flags $hb_override"; then
    echo "text-libraries.sh: building libharfbuzz.a from $hb" >&2
    printf '%s\n' "$hb_override" > "$hb/src/hb-splashhud-config.h"
    # shellcheck disable=SC2046,SC2086,SC2090
    ${CXX:-c++} -c "$hb/src/harfbuzz.cc" -o "$hb/harfbuzz.o" -I"$hb/src" $(pkg-config --cflags freetype2) $hb_flags
    rm -f "$hb/libharfbuzz.a" && ar rcs "$hb/libharfbuzz.a" "$hb/harfbuzz.o"
    printf '%s' "$hb_flags $hb_override" > "$hb/libharfbuzz.flags"
fi

# libunibreak: Debian 12's source package (1.1) can no longer be fetched (the archive serves its
# .dsc but not its tarballs), so the static build takes the upstream tarball of Debian's newer
# source package (trixie's libunibreak 6.1, UAX #14 for Unicode 15) from Debian's own pool, its
# checksum pinned here. Its API is 1.1's; the dynamic build links Debian 12's 1.1 (docs/text.md).
ub_version=6.1
ub_sha256=890674996168ef5ba143d80d49ab8b61594a4eb70198dcac76caf6e1bd264a41
ub="$cache/libunibreak-$ub_version"
pool_tarball "$ub" "http://deb.debian.org/debian/pool/main/libu/libunibreak/libunibreak_$ub_version.orig.tar.gz" "$ub_sha256" LIBUNIBREAK_SOURCE
if ! built "$ub/libunibreak" "$ub_flags"; then
    echo "text-libraries.sh: building libunibreak.a from $ub" >&2
    objs=()
    for c in "$ub"/src/*.c; do
        [[ $(basename "$c") == tests.c ]] && continue
        # shellcheck disable=SC2086
        ${CC:-cc} -c "$c" -o "${c%.c}.o" $ub_flags
        objs+=("${c%.c}.o")
    done
    rm -f "$ub/libunibreak.a" && ar rcs "$ub/libunibreak.a" "${objs[@]}"
    printf '%s' "$ub_flags" > "$ub/libunibreak.flags"
fi

# pc NAME VERSION LIBS CFLAGS. SwiftPM keeps only -L and -l flags from Libs (not an archive's path).
pc() { printf 'Name: %s\nDescription: %s, linked statically (scripts/text-libraries.sh)\nVersion: %s\nLibs: %s\nCflags: %s\n' "$1" "$1" "$2" "$3" "$4" > "$dir/$1.pc"; }
# FreeType's static flags (static-pkg-config.sh's, when DIR holds them) again after HarfBuzz's:
# a static link takes from an archive only what the archives before it asked for.
ft="$(PKG_CONFIG_PATH="$dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" pkg-config --libs freetype2)"
# The source's headers, equal to Debian's but for Debian's generated hb-features.h, which says glib and
# graphite2 are in (nothing we include reads it).
pc harfbuzz "$(pkg-config --modversion harfbuzz)" "-L$hb -l:libharfbuzz.a $ft -lpthread -lm" "-I$hb/src"
pc libunibreak "$ub_version" "-L$ub -l:libunibreak.a" "-I$ub/src"
# libthai's dictionary, thbrk.tri, is read at run time from /usr/share/libthai (libthai-data) or
# $LIBTHAI_DICTDIR: Debian's archive has the same path compiled in as its .so.
# FriBidi, libthai and libdatrie are LGPL: named plainly, a -static-executable link (the daemon,
# the client) takes their archives, for which the relink kit exists (docs/licences.md), and the
# tools and the bridge load the shared libraries, which a user can replace without relinking.
pc fribidi "$(pkg-config --modversion fribidi)" "-lfribidi" "$(pkg-config --cflags fribidi)"
pc libthai "$(pkg-config --modversion libthai)" "-lthai -ldatrie" "$(pkg-config --cflags libthai)"
