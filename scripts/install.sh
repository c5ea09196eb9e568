#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs SplashHUD: the daemon and the client (and splashhud-tools and the fleet bridge splashhud-mqtt when
# built), the board profiles, the man pages (splashhud(1), splashhudd(8), splashhud-tools(1),
# splashhud.conf(5)), the documentation the units name (PREFIX/share/doc/splashhud), the udev rule and the systemd units (splashhud-mqtt.service beside the daemon's),
# and with --initramfs the initramfs integration (initramfs-tools hook and scripts in
# /etc/initramfs-tools, the dracut module in /usr/lib/dracut/modules.d/90splashhud, the helper
# PREFIX/lib/splashhud/splashhud-initrd, /etc/splashhud/initrd.conf unless one is there).
#
#   scripts/install.sh [--prefix /usr] [--destdir DIR] [--bin-dir DIR] [--dynamic [--no-pie]]
#                      [--initramfs]
#
# --prefix  where bin/, lib/splashhud and share/splashhud go (default /usr); the units' and the
#           initramfs configuration's paths follow it.
# --destdir stage everything under DIR (packaging, tests); nothing outside it is touched.
# --bin-dir take splashhudd and splashhud from DIR instead of building them (release builds).
# By default the daemon and the client are linked fully static (-static-executable), the boot
#           build: the Swift runtime, libstdc++, glibc, libdrm, FreeType, libpng, zlib, brotli and
#           the text libraries all inside, so no dynamic loader runs at their start (under emulation
#           most of a short-lived program's time, and the daemon's first frame waits for it; measured
#           against Plymouth in docs/performance.md) and an initramfs needs no library beside them.
#           The daemon looks user and group names up in /etc files alone (glibc's files service is
#           linked in; nsswitch.conf's others, systemd or LDAP, are not consulted); numeric ids work.
#           splashhud-tools and splashhud-mqtt, which never run at boot, get the Swift standard
#           library linked in (--static-swift-stdlib), libdrm, FreeType and libpng too where their
#           archives are installed (Debian's -dev packages have them). HarfBuzz and libunibreak have
#           no Debian archive: scripts/text-libraries.sh builds them once from Debian's source
#           (apt-get source; cached in .build/text-libraries).
# --dynamic link everything against the shared Swift runtime and system libraries instead: a
#           faster build, larger start-up cost (docs/install.md, "What the binaries link").
# --static-stdlib the default, accepted so older instructions keep working (the last of
#           --dynamic and --static-stdlib counts).
# --no-pie  with --dynamic: link the daemon as a position-dependent executable, so nothing of it
#           is relocated at start, at the price of address-space randomisation for its own code
#           (its libraries, stack and heap keep theirs). Off by default. Without --dynamic it
#           changes nothing: the fully static daemon is position-dependent anyway.
# Everything installed is stripped (install -s).
# --initramfs also the initramfs integration. Rebuild the image afterwards: update-initramfs -u
#           (Debian, Ubuntu) or dracut -f (Fedora-like).
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr destdir="" bindir="" initramfs=0 dynamic=0 static=() nopie=()
while (($#)); do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --destdir) destdir="${2:?--destdir needs a directory}"; shift 2 ;;
        --bin-dir) bindir="${2:?--bin-dir needs a directory}"; shift 2 ;;
        --initramfs) initramfs=1; shift ;;
        --no-pie) nopie=(-Xlinker --no-pie); shift ;;
        --dynamic) dynamic=1; shift ;;
        --static-stdlib) dynamic=0; shift ;;
        -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
prefix="${prefix%/}"
((dynamic)) || static=(--static-swift-stdlib --scratch-path .build-static)
[[ $prefix == /* ]] || { echo "install.sh: --prefix must be absolute" >&2; exit 64; }
[[ -z $destdir || $destdir == /* ]] || destdir="$PWD/$destdir"

# swiftc names libstdc++ with a plain -lstdc++: a directory searched before the compiler's, holding
# only the archive, makes that the static one.
static_link_flags() {
    local clang archive dir
    clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
    archive="$("$clang" -print-file-name=libstdc++.a 2>/dev/null || true)"
    if [[ $archive == /* && -f $archive ]]; then
        dir="$PWD/.build-static/static-libstdc++"
        mkdir -p "$dir" && ln -sf "$archive" "$dir/libstdc++.a"
        static+=(-Xswiftc -L -Xswiftc "$dir")
    else
        echo "install.sh: no libstdc++.a beside $clang: libstdc++ stays shared" >&2
    fi
    # libdrm, FreeType and libpng from their archives (fewer shared libraries for the tools; all of
    # them, with zlib, for the fully static daemon).
    local pc
    pc="$(scripts/static-pkg-config.sh .build-static/pkgconfig)"
    export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    local glibc
    glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
    if [[ -n $glibc ]] && printf '2.36\n%s\n' "$glibc" | sort -C -V; then
        static+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
    fi
}

# Release builds without the run-time exclusivity checks (swift_beginAccess on every access to a
# class's stored property or a global that the compiler cannot prove alone): a sixth of a spinner
# frame's instructions (docs/performance.md, "A frame's cost in instructions"). The debug builds the tests run, and
# their ThreadSanitizer and AddressSanitizer builds, keep them.
release=(-c release -Xswiftc -enforce-exclusivity=unchecked)

clientdir="" toolsdir=""
if [[ -z $bindir ]]; then
    ((${#static[@]})) && static_link_flags
    # --no-export-dynamic: swiftc exports every symbol of an executable, 7,600 in the daemon; the
    # runtime's start walks them all (dladdr, a fifth of `splashhudd --version`'s instructions)
    # and they are 0.6 MB of the file. Nothing looks them up.
    daemon=(-Xlinker --no-export-dynamic --product splashhudd)
    if ((${#static[@]})); then
        # The daemon and the client link no shared library at all: under emulation and on slow
        # boards the dynamic loader's start is most of a short-lived program's time, and the
        # daemon's first frame waits for it (docs/performance.md, "Against Plymouth").
        exe=(-Xswiftc -static-executable --scratch-path .build-static-executable)
        swift build "${release[@]}" "${exe[@]}" "${daemon[@]}"
        swift build "${release[@]}" "${exe[@]}" --product splashhud
        clientdir="$(swift build "${release[@]}" "${exe[@]}" --show-bin-path)"
        # splashhud-tools never runs at boot: the Swift standard library linked in is enough.
        swift build "${release[@]}" "${static[@]}" --product splashhud-tools
        # The fleet bridge runs after the network, never at boot: like the tools.
        swift build "${release[@]}" "${static[@]}" --product splashhud-mqtt
        toolsdir="$(swift build "${release[@]}" "${static[@]}" --show-bin-path)"
        bindir="$clientdir"
    else
        # --no-pie is the linker's alone: the products in one scratch directory share their objects.
        swift build "${release[@]}" "${nopie[@]}" "${daemon[@]}"
        for product in splashhud splashhud-tools splashhud-mqtt; do swift build "${release[@]}" --product "$product"; done
        bindir="$(swift build "${release[@]}" --show-bin-path)"
    fi
fi
clientdir="${clientdir:-$bindir}"
for b in "$bindir/splashhudd" "$clientdir/splashhud"; do
    [[ -x $b ]] || { echo "install.sh: $b is missing" >&2; exit 66; }
done
# demo, render and probe: `splashhud VERB` runs splashhud-tools from beside itself (never at boot,
# so it stays out of the initramfs).
tools=()
toolsdir="${toolsdir:-$bindir}"
[[ -x $toolsdir/splashhud-tools ]] && tools=("$toolsdir/splashhud-tools")
# The fleet bridge (docs/fleet.md), installed stripped beside the daemon with its unit.
bridge=()
[[ -x $toolsdir/splashhud-mqtt ]] && bridge=("$toolsdir/splashhud-mqtt")

# The units name /usr/bin; another prefix is written into them.
unit() {
    sed -e "s|/usr/bin/splashhud|$prefix/bin/splashhud|g" -e "s|/usr/share/doc/splashhud|$prefix/share/doc/splashhud|g" \
        "udev/$1" > "$destdir/etc/systemd/system/$1"
    chmod 0644 "$destdir/etc/systemd/system/$1"
}

install -d "$destdir$prefix/bin" "$destdir$prefix/share/splashhud" "$destdir/etc/udev/rules.d" "$destdir/etc/systemd/system"
install -m 0755 -s "$bindir/splashhudd" "$clientdir/splashhud" "$destdir$prefix/bin/"
((${#tools[@]})) && install -m 0755 -s "${tools[@]}" "$destdir$prefix/bin/"
((${#bridge[@]})) && install -m 0755 -s "${bridge[@]}" "$destdir$prefix/bin/"
rm -rf "$destdir$prefix/share/splashhud/boards"
cp -r boards "$destdir$prefix/share/splashhud/"
install -m 0644 udev/90-splashhud.rules "$destdir/etc/udev/rules.d/"
# The man pages: the daemon's and the client's from their own option tables, splashhud-tools' by
# swift-argument-parser's generate-manual (built alone: a dependency's tool, a few seconds),
# splashhud.conf(5) as written.
man="$destdir$prefix/share/man"
install -d "$man/man1" "$man/man5" "$man/man8"
"$clientdir/splashhud" --generate-manual > "$man/man1/splashhud.1"
"$bindir/splashhudd" --generate-manual > "$man/man8/splashhudd.8"
install -m 0644 docs/man/splashhud.conf.5 "$man/man5/"
if ((${#tools[@]})); then
    swift build --product generate-manual >/dev/null
    "$(swift build --show-bin-path)/generate-manual" "${tools[0]}" --output-directory "$man/man1" >/dev/null
fi
chmod 0644 "$man"/man?/*
# The pages the units' Documentation= lines name.
doc="$destdir$prefix/share/doc/splashhud"
install -d "$doc/docs" "$doc/udev"
install -m 0644 docs/*.md "$doc/docs/"
install -m 0644 udev/README.md "$doc/udev/"
unit splashhud.service
unit splashhud-quit.service
unit splashhud-ask-password.path
unit splashhud-ask-password.service
unit splashhud-mqtt.service

if ((initramfs)); then
    install -d "$destdir$prefix/lib/splashhud" "$destdir/etc/splashhud"
    install -m 0755 initramfs/splashhud-initrd initramfs/splashhud-fonts "$destdir$prefix/lib/splashhud/"
    if [[ ! -e $destdir/etc/splashhud/initrd.conf ]]; then
        sed "s|^SPLASHHUD_PREFIX=\"\"|SPLASHHUD_PREFIX=\"$prefix\"|" initramfs/initrd.conf > "$destdir/etc/splashhud/initrd.conf"
    fi
    it="$destdir/etc/initramfs-tools"
    install -d "$it/hooks" "$it/scripts/init-premount" "$it/scripts/init-bottom" "$it/scripts/panic"
    install -m 0755 initramfs/initramfs-tools/hooks/splashhud "$it/hooks/"
    for s in init-premount init-bottom panic; do
        install -m 0755 "initramfs/initramfs-tools/scripts/$s/splashhud" "$it/scripts/$s/"
    done
    dm="$destdir/usr/lib/dracut/modules.d/90splashhud"
    install -d "$dm"
    install -m 0755 initramfs/dracut/90splashhud/*.sh "$dm/"
    install -m 0644 initramfs/dracut/90splashhud/splashhud-initrd.conf "$dm/"
fi

echo "install.sh: installed into ${destdir:-/}${destdir:+ }(prefix $prefix)"
if [[ -z $destdir ]]; then
    echo "install.sh: then: systemctl daemon-reload && udevadm control --reload && systemctl enable splashhud-quit.service splashhud-ask-password.path"
    ((initramfs)) && echo "install.sh: and rebuild the initramfs: update-initramfs -u (or dracut -f)"
fi
exit 0
