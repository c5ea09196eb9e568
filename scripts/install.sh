#!/usr/bin/env bash
# Installs SplashHUD: the daemon and the client (and splashhud-tools when built), the board profiles, the udev rule and the systemd
# units, and with --initramfs the initramfs integration (initramfs-tools hook and scripts in
# /etc/initramfs-tools, the dracut module in /usr/lib/dracut/modules.d/90splashhud, the helper
# PREFIX/lib/splashhud/splashhud-initrd, /etc/splashhud/initrd.conf unless one is there).
#
#   scripts/install.sh [--prefix /usr] [--destdir DIR] [--bin-dir DIR] [--static-stdlib] [--no-pie]
#                      [--initramfs]
#
# --prefix  where bin/, lib/splashhud and share/splashhud go (default /usr); the units' and the
#           initramfs configuration's paths follow it.
# --destdir stage everything under DIR (packaging, tests); nothing outside it is touched.
# --bin-dir take splashhudd and splashhud from DIR instead of building them (release builds).
# --static-stdlib build them with the Swift standard library linked in (--static-swift-stdlib):
#           nothing of Swift's needs installing, at about 3x the binaries' size. libstdc++ is linked
#           in too, and libdrm and FreeType with libpng and brotli where their static archives are
#           installed (Debian's -dev packages have them; libspng's has none, so it and the zlib it
#           loads stay shared). With glibc 2.36 or later the relative relocations are packed (lld's
#           -z pack-relative-relocs): the dynamic loader has a few hundred symbols to bind
#           instead of libstdc++'s thousands, and no 0.6 MB relocation table to read (start-up
#           and resident memory; see README, "Against Plymouth"). The client is linked fully
#           static (-static-executable): no dynamic loader runs for it at all.
# --no-pie  link the daemon as a position-dependent executable: nothing of it is relocated at
#           start (in the TCG guest `splashhudd --version` takes 46 ms instead of 76, and its first
#           frame comes that much sooner), at the price of address-space randomisation for its
#           own code (its libraries, stack and heap keep theirs). Off by default.
# The daemon and the client are installed stripped.
# --initramfs also the initramfs integration. Rebuild the image afterwards: update-initramfs -u
#           (Debian, Ubuntu) or dracut -f (Fedora-like).
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr destdir="" bindir="" initramfs=0 static=() nopie=()
while (($#)); do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --destdir) destdir="${2:?--destdir needs a directory}"; shift 2 ;;
        --bin-dir) bindir="${2:?--bin-dir needs a directory}"; shift 2 ;;
        --initramfs) initramfs=1; shift ;;
        --no-pie) nopie=(-Xlinker --no-pie); shift ;;
        --static-stdlib) static=(--static-swift-stdlib --scratch-path .build-static); shift ;;
        -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
prefix="${prefix%/}"
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
    static_pkg_config "$clang"
    local glibc
    glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
    if [[ -n $glibc ]] && printf '2.36\n%s\n' "$glibc" | sort -C -V; then
        static+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
    fi
}

# pkg-config files for libdrm and FreeType whose flags name the static archives (-l:libX.a), first
# on PKG_CONFIG_PATH for the build: SwiftPM links a system library with pkg-config's flags (the
# module maps name no library). Fewer shared libraries: less for the dynamic loader to map and
# bind at every start, and in the initramfs fewer files.
static_pkg_config() {
    local clang="$1" dir="$PWD/.build-static/pkgconfig" name flag lib archive libs
    mkdir -p "$dir"
    for name in libdrm freetype2; do
        pkg-config --exists "$name" || continue
        libs=""
        for flag in $(pkg-config --static --libs "$name"); do
            lib="${flag#-l}"
            archive="$("$clang" -print-file-name="lib$lib.a" 2>/dev/null || true)"
            if [[ $flag == -l* && $lib != z && $lib != m && $archive == /* && -f $archive ]]; then
                libs+=" -l:lib$lib.a"
            else
                libs+=" $flag"
            fi
        done
        printf 'Name: %s\nDescription: %s, linked statically (scripts/install.sh)\nVersion: %s\nLibs:%s\nCflags: %s\n' \
            "$name" "$name" "$(pkg-config --modversion "$name")" "$libs" "$(pkg-config --cflags "$name")" > "$dir/$name.pc"
    done
    export PKG_CONFIG_PATH="$dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
}

# Release builds without the run-time exclusivity checks (swift_beginAccess on every access to a
# class's stored property or a global that the compiler cannot prove alone): a sixth of a spinner
# frame's instructions (README, "Frames, pacing and memory"). The debug builds the tests run, and
# their ThreadSanitizer and AddressSanitizer builds, keep them.
release=(-c release -Xswiftc -enforce-exclusivity=unchecked)

clientdir=""
if [[ -z $bindir ]]; then
    ((${#static[@]})) && static_link_flags
    # --no-pie is the linker's alone: the products in one scratch directory share their objects.
    # --no-export-dynamic: swiftc exports every symbol of an executable, 7,600 in the daemon; the
    # runtime's start walks them all (dladdr, a fifth of `splashhudd --version`'s instructions)
    # and they are 0.6 MB of the file. Nothing looks them up.
    swift build "${release[@]}" "${static[@]}" "${nopie[@]}" -Xlinker --no-export-dynamic --product splashhudd
    for product in splashhud splashhud-tools; do swift build "${release[@]}" "${static[@]}" --product "$product"; done
    bindir="$(swift build "${release[@]}" "${static[@]}" --show-bin-path)"
    if ((${#static[@]})); then
        # The client links no shared library at all: under emulation and on slow boards the dynamic
        # loader's start is most of a short-lived program's time (README, "Against Plymouth").
        exe=(-Xswiftc -static-executable --scratch-path .build-static-executable)
        swift build "${release[@]}" "${exe[@]}" --product splashhud
        clientdir="$(swift build "${release[@]}" "${exe[@]}" --show-bin-path)"
    fi
fi
clientdir="${clientdir:-$bindir}"
for b in "$bindir/splashhudd" "$clientdir/splashhud"; do
    [[ -x $b ]] || { echo "install.sh: $b is missing" >&2; exit 66; }
done
# demo, render and probe: `splashhud VERB` runs splashhud-tools from beside itself (never at boot,
# so it stays out of the initramfs).
tools=()
[[ -x $bindir/splashhud-tools ]] && tools=("$bindir/splashhud-tools")

# The units name /usr/bin; another prefix is written into them.
unit() {
    sed "s|/usr/bin/splashhud|$prefix/bin/splashhud|g" "udev/$1" > "$destdir/etc/systemd/system/$1"
    chmod 0644 "$destdir/etc/systemd/system/$1"
}

install -d "$destdir$prefix/bin" "$destdir$prefix/share/splashhud" "$destdir/etc/udev/rules.d" "$destdir/etc/systemd/system"
install -m 0755 -s "$bindir/splashhudd" "$clientdir/splashhud" "$destdir$prefix/bin/"
((${#tools[@]})) && install -m 0755 "${tools[@]}" "$destdir$prefix/bin/"
rm -rf "$destdir$prefix/share/splashhud/boards"
cp -r boards "$destdir$prefix/share/splashhud/"
install -m 0644 udev/90-splashhud.rules "$destdir/etc/udev/rules.d/"
unit splashhud.service
unit splashhud-quit.service

if ((initramfs)); then
    install -d "$destdir$prefix/lib/splashhud" "$destdir/etc/splashhud"
    install -m 0755 initramfs/splashhud-initrd "$destdir$prefix/lib/splashhud/"
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
    echo "install.sh: then: systemctl daemon-reload && udevadm control --reload && systemctl enable splashhud-quit.service"
    ((initramfs)) && echo "install.sh: and rebuild the initramfs: update-initramfs -u (or dracut -f)"
fi
exit 0
