#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs SplashHUD: the daemon and the client (and splashhud-tools, the fleet bridge splashhud-mqtt and the
# update frameworks' adapter splashhud-updates when built), the board profiles, the man pages (splashhud(1), splashhudd(8), splashhud-tools(1),
# splashhud.conf(5)), the documentation the units name (PREFIX/share/doc/splashhud), the udev rule and the systemd units (splashhud-mqtt.service and splashhud-updates@.service beside the daemon's),
# LICENSE and THIRD-PARTY-NOTICES (made from what the binaries' links took) beside the documentation,
# the relink kit of the programs with LGPL libraries linked in (PREFIX/lib/splashhud/relink; docs/licences.md),
# and with --initramfs the initramfs integration (initramfs-tools hook and scripts in
# /etc/initramfs-tools, the dracut module in /usr/lib/dracut/modules.d/90splashhud, the helper
# PREFIX/lib/splashhud/splashhud-initrd, /etc/splashhud/initrd.conf unless one is there), and
# /etc/default/splashhud (the unit's settings: the board profile) unless one is there, and with
# --mender Mender's state scripts (/etc/mender/scripts and PREFIX/share/splashhud/mender).
#
#   scripts/install.sh [--prefix /usr] [--destdir DIR] [--bin-dir DIR] [--dynamic [--no-pie]]
#                      [--initramfs] [--mender] [--replace-plymouth]
#   scripts/install.sh --build-only [--dynamic [--no-pie]]
#   scripts/install.sh --uninstall [--prefix /usr]
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
#           splashhud-tools, splashhud-mqtt and splashhud-updates, which never run at boot, get the Swift standard
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
# --mender  also Mender's state scripts that show an update's phases on the HUD (mender/splashhud-mender
#           under each state's name; docs/updates.md): the Download ones in /etc/mender/scripts,
#           with its `version` file (3) unless one is there, the only place Mender runs them from;
#           the Artifact ones in PREFIX/share/splashhud/mender, for `mender-artifact write ... -s`
#           to embed in every artifact (Mender runs those only from the artifact).
# Without `swift` on PATH (a kiosk, a board) nothing is built: the daemon and the client come from
#           this tree's .build-static-executable/release (what --build-only leaves there, built
#           where Swift is; then .../debug), splashhud-tools, splashhud-mqtt and splashhud-updates
#           from .build-static/release when there; --bin-dir names another directory.
# --build-only build as above, strip, and stop: copy the tree (with its .build-static* folders) to
#           the target and run scripts/install.sh there.
# --replace-plymouth also make this system's `plymouth` SplashHUD's (not with --destdir): where
#           Debian's plymouth package is installed, its /usr/bin/plymouth, plymouthd and initramfs
#           hook and scripts are diverted (dpkg-divert --rename, to PREFIX/lib/splashhud/plymouth)
#           and its units masked, so neither two splashes nor two clients fight; then
#           /usr/bin/plymouth becomes a link to the client, which answers as `plymouth`.
# --uninstall remove what this script installs (for this --prefix), restore Plymouth's diverted
#           files and unmask its units; /etc/default/splashhud and /etc/splashhud stay. First, when
#           /etc/splashhud/mqtt.conf has `discovery = homeassistant`, the bridge removes its Home
#           Assistant entities from the broker (splashhud-mqtt --remove-discovery). Then reload
#           systemd and udev and rebuild the initramfs, as it says.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr destdir="" bindir="" initramfs=0 mender=0 dynamic=0 static=() nopie=() build_only=0 replace_plymouth=0 uninstall=0
while (($#)); do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --destdir) destdir="${2:?--destdir needs a directory}"; shift 2 ;;
        --bin-dir) bindir="${2:?--bin-dir needs a directory}"; shift 2 ;;
        --initramfs) initramfs=1; shift ;;
        --mender) mender=1; shift ;;
        --build-only) build_only=1; shift ;;
        --replace-plymouth) replace_plymouth=1; shift ;;
        --uninstall) uninstall=1; shift ;;
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
((replace_plymouth)) && [[ -n $destdir ]] && { echo "install.sh: --replace-plymouth changes this system (dpkg-divert, systemctl mask): not with --destdir" >&2; exit 64; }

# Plymouth's files that would fight ours (its client, its daemon, its initramfs hook and scripts)
# and its units, for --replace-plymouth and --uninstall.
plymouth_files=(/usr/bin/plymouth /usr/sbin/plymouthd /usr/share/initramfs-tools/hooks/plymouth
    /usr/share/initramfs-tools/scripts/init-premount/plymouth /usr/share/initramfs-tools/scripts/init-bottom/plymouth
    /usr/share/initramfs-tools/scripts/panic/plymouth)
plymouth_units=(plymouth-start.service plymouth-read-write.service plymouth-quit.service plymouth-quit-wait.service
    plymouth-switch-root.service plymouth-switch-root-initramfs.service plymouth-halt.service plymouth-reboot.service
    plymouth-poweroff.service plymouth-kexec.service plymouth-log.service)
# The splash of a power-off, reboot, halt and kexec (Plymouth's plymouth-poweroff.service and others).
shutdown_units=(splashhud-poweroff.service splashhud-reboot.service splashhud-halt.service splashhud-kexec.service)
# The units --replace-plymouth masked (and only those are unmasked again).
masked_list="$destdir/var/lib/splashhud/masked-units"
# Mender's states mender/splashhud-mender shows, installed under Mender's names for them
# (STATE_ACTION_50_splashhud): those of the root file system's /etc/mender/scripts, and those an
# artifact carries.
mender_rootfs=(Download_Enter Download_Error)
mender_artifact=(ArtifactInstall_Enter ArtifactInstall_Error ArtifactReboot_Enter ArtifactReboot_Error
    ArtifactCommit_Enter ArtifactCommit_Leave ArtifactCommit_Error ArtifactRollback_Enter ArtifactRollback_Error
    ArtifactRollbackReboot_Enter ArtifactRollbackReboot_Error ArtifactFailure_Leave)
mender_scripts="$destdir/etc/mender/scripts"

if ((uninstall)); then
    # The bridge's Home Assistant entities are retained on the broker: removed while the bridge and
    # its configuration are still here (empty retained configs; it gives up after 15 s).
    if [[ -z $destdir && -x $prefix/bin/splashhud-mqtt && -f /etc/splashhud/mqtt.conf ]] \
        && grep -Eq '^[[:space:]]*discovery[[:space:]=]+"?homeassistant' /etc/splashhud/mqtt.conf; then
        "$prefix/bin/splashhud-mqtt" --remove-discovery \
            || echo "install.sh: could not remove the Home Assistant entities (splashhud-mqtt --remove-discovery); remove them from Home Assistant by hand" >&2
    fi
    if [[ -z $destdir ]] && command -v systemctl >/dev/null; then
        systemctl disable --quiet --no-reload splashhud-quit.service splashhud-ask-password.path splashhud-mqtt.service \
            splashhud-updates@swupdate.service "${shutdown_units[@]}" 2>/dev/null || true
    fi
    rm -f "$destdir$prefix/bin/splashhudd" "$destdir$prefix/bin/splashhud" "$destdir$prefix/bin/splashhud-tools" \
        "$destdir$prefix/bin/splashhud-mqtt" "$destdir$prefix/bin/splashhud-updates" "$destdir/etc/udev/rules.d/90-splashhud.rules"
    rm -f "$destdir$prefix/share/man/man1/splashhud"*.1 "$destdir$prefix/share/man/man5/splashhud.conf.5" \
        "$destdir$prefix/share/man/man8/splashhudd.8"
    rm -rf "$destdir$prefix/share/splashhud" "$destdir$prefix/share/doc/splashhud" "$destdir/usr/lib/dracut/modules.d/90splashhud"
    for u in splashhud.service splashhud-quit.service splashhud-initramfs.service splashhud-ask-password.path splashhud-ask-password.service splashhud-mqtt.service \
        splashhud-updates@.service "${shutdown_units[@]}"; do
        rm -f "$destdir/etc/systemd/system/$u"
    done
    rm -f "$destdir/etc/initramfs-tools/hooks/splashhud" "$destdir/etc/initramfs-tools/scripts/"{init-premount,init-bottom,panic}/splashhud
    # Mender's scripts (the Artifact ones went with share/splashhud); the version file too when
    # nothing else is left beside it.
    for s in "${mender_rootfs[@]}"; do rm -f "$mender_scripts/${s}_50_splashhud"; done
    if [[ -d $mender_scripts && $(ls -A "$mender_scripts") == version ]]; then
        rm -f "$mender_scripts/version" && rmdir "$mender_scripts"
    fi
    # Plymouth back: our link gone, its files renamed back, the units we masked unmasked.
    if [[ -L $destdir/usr/bin/plymouth && $(readlink "$destdir/usr/bin/plymouth") == *splashhud ]]; then
        rm -f "$destdir/usr/bin/plymouth"
    fi
    if [[ -z $destdir ]] && command -v dpkg-divert >/dev/null; then
        for f in "${plymouth_files[@]}"; do
            if [[ $(dpkg-divert --listpackage "$f") == splashhud ]]; then
                dpkg-divert --package splashhud --rename --remove "$f" >/dev/null
                echo "install.sh: $f is Plymouth's again"
            fi
        done
    fi
    if [[ -r $masked_list ]]; then
        mapfile -t masked < "$masked_list"
        ((${#masked[@]})) && systemctl unmask --quiet --no-reload "${masked[@]}"
    fi
    rm -rf "$destdir$prefix/lib/splashhud" "$destdir/var/lib/splashhud"
    echo "install.sh: removed SplashHUD from ${destdir:-/}${destdir:+ }(prefix $prefix); kept the settings in /etc/default/splashhud and /etc/splashhud"
    [[ -z $destdir ]] && echo "install.sh: then: systemctl daemon-reload && udevadm control --reload, and rebuild the initramfs: update-initramfs -u (or dracut -f)"
    exit 0
fi

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
if [[ -z $bindir ]] && ! command -v swift >/dev/null; then
    # A target without Swift: what was built in this tree where Swift is (the fully static pair
    # needs no library here; the dynamic build would need the Swift runtime).
    ((build_only)) && { echo "install.sh: --build-only needs swift on PATH" >&2; exit 69; }
    ((dynamic)) && { echo "install.sh: no swift on PATH: --dynamic binaries need the Swift runtime; build and install them where Swift is" >&2; exit 69; }
    for d in .build-static-executable/release .build-static-executable/debug; do
        if [[ -x $d/splashhudd && -x $d/splashhud ]]; then bindir="$PWD/$d"; break; fi
    done
    [[ -n $bindir ]] || { echo "install.sh: no swift on PATH and no binaries built in this tree (.build-static-executable/release): run scripts/install.sh --build-only where Swift is and copy the tree here, or pass --bin-dir" >&2; exit 69; }
    [[ -x .build-static/release/splashhud-tools || -x .build-static/release/splashhud-mqtt || -x .build-static/release/splashhud-updates ]] \
        && toolsdir="$PWD/.build-static/release"
    echo "install.sh: no swift on PATH: installing the binaries built in ${bindir#"$PWD/"}${toolsdir:+ and ${toolsdir#"$PWD/"}}"
elif [[ -z $bindir ]]; then
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
        swift build "${release[@]}" "${static[@]}" --product splashhud-updates
        toolsdir="$(swift build "${release[@]}" "${static[@]}" --show-bin-path)"
        bindir="$clientdir"
    else
        # --no-pie is the linker's alone: the products in one scratch directory share their objects.
        swift build "${release[@]}" "${nopie[@]}" "${daemon[@]}"
        for product in splashhud splashhud-tools splashhud-mqtt splashhud-updates; do swift build "${release[@]}" --product "$product"; done
        bindir="$(swift build "${release[@]}" --show-bin-path)"
    fi
fi
clientdir="${clientdir:-$bindir}"
# THIRD-PARTY-NOTICES and the relink kit of the programs with LGPL libraries linked in statically
# (docs/licences.md), from what the links of these very binaries took, written beside them in
# notices/ where Swift is (a target without it installs them from there). Binaries of --bin-dir not
# from a SwiftPM build here (exit 3) get none; any other failure, such as a library linked without
# its notice, stops the install.
notices="$bindir/notices"
if command -v swift >/dev/null; then
    built=("$bindir/splashhudd" "$clientdir/splashhud")
    for p in splashhud-tools splashhud-mqtt splashhud-updates; do [[ -x ${toolsdir:-$bindir}/$p ]] && built+=("${toolsdir:-$bindir}/$p"); done
    scripts/relink/prepare.sh --kit-dir "$prefix/lib/splashhud/relink" "$notices" "${built[@]}" || {
        rc=$?; ((rc == 3)) || { echo "install.sh: THIRD-PARTY-NOTICES could not be made (above)" >&2; exit 70; }
        echo "install.sh: the binaries of $bindir are not from a SwiftPM build here: no THIRD-PARTY-NOTICES" >&2; }
fi
if ((build_only)); then
    # Stripped here, where the build's binutils are: a board without them would install the
    # binaries as built (the daemon 28 MB instead of 12, and 3 MB more of its initramfs, zstd).
    if command -v strip >/dev/null; then
        strip "$bindir/splashhudd" "$clientdir/splashhud"
        for p in splashhud-tools splashhud-mqtt splashhud-updates; do [[ -x ${toolsdir:-$bindir}/$p ]] && strip "${toolsdir:-$bindir}/$p"; done
    fi
    echo "install.sh: built ${bindir#"$PWD/"}/splashhudd and ${clientdir#"$PWD/"}/splashhud${toolsdir:+, ${toolsdir#"$PWD/"}/splashhud-tools, splashhud-mqtt and splashhud-updates}: copy this tree to the target and run scripts/install.sh there"
    exit 0
fi
for b in "$bindir/splashhudd" "$clientdir/splashhud"; do
    [[ -x $b ]] || { echo "install.sh: $b is missing" >&2; exit 66; }
done
# demo, render and probe: `splashhud VERB` runs splashhud-tools from beside itself (never at boot,
# so it stays out of the initramfs).
tools=()
toolsdir="${toolsdir:-$bindir}"
[[ -x $toolsdir/splashhud-tools ]] && tools=("$toolsdir/splashhud-tools")
# The programs beside the daemon, installed stripped with their units: the fleet bridge
# (docs/fleet.md) and the update frameworks' adapter (docs/updates.md).
bridge=()
for p in splashhud-mqtt splashhud-updates; do [[ -x $toolsdir/$p ]] && bridge+=("$toolsdir/$p"); done

# The units name /usr/bin; another prefix is written into them.
unit() {
    sed -e "s|/usr/bin/splashhud|$prefix/bin/splashhud|g" -e "s|/usr/share/doc/splashhud|$prefix/share/doc/splashhud|g" \
        "udev/$1" > "$destdir/etc/systemd/system/$1"
    chmod 0644 "$destdir/etc/systemd/system/$1"
}

install -d "$destdir$prefix/bin" "$destdir$prefix/share/splashhud" "$destdir/etc/udev/rules.d" "$destdir/etc/systemd/system"
# Stripped where binutils' strip is (a board may have none: then as --build-only left them, stripped).
strip=(); command -v strip >/dev/null && strip=(-s)
install -m 0755 "${strip[@]}" "$bindir/splashhudd" "$clientdir/splashhud" "$destdir$prefix/bin/"
((${#tools[@]})) && install -m 0755 "${strip[@]}" "${tools[@]}" "$destdir$prefix/bin/"
((${#bridge[@]})) && install -m 0755 "${strip[@]}" "${bridge[@]}" "$destdir$prefix/bin/"
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
((${#bridge[@]})) && "${bridge[0]}" --generate-manual > "$man/man1/splashhud-mqtt.1"
if ((${#tools[@]})) && command -v swift >/dev/null; then
    swift build --product generate-manual >/dev/null
    "$(swift build --show-bin-path)/generate-manual" "${tools[0]}" --output-directory "$man/man1" >/dev/null
fi
chmod 0644 "$man"/man?/*
# The pages the units' Documentation= lines name.
doc="$destdir$prefix/share/doc/splashhud"
install -d "$doc/docs" "$doc/udev"
install -m 0644 docs/*.md "$doc/docs/"
install -m 0644 CHANGELOG.md "$doc/"   # protocol.md links it (../CHANGELOG.md)
install -m 0644 udev/README.md "$doc/udev/"
# The licence, the notices of what the binaries contain, and the relink kit (docs/licences.md).
install -m 0644 LICENSE "$doc/"
[[ -f $notices/THIRD-PARTY-NOTICES ]] && install -m 0644 "$notices/THIRD-PARTY-NOTICES" "$doc/"
if [[ -d $notices/relink ]]; then
    kit="$destdir$prefix/lib/splashhud/relink"
    rm -rf "$kit" && install -d "$kit"
    install -m 0644 "$notices/relink/"*.o.xz "$notices/relink/"*.args "$notices/relink/README" "$kit/"
    install -m 0755 "$notices/relink/relink.sh" "$kit/"
    # The LGPL archives Debian does not ship (libqrencode.a), as the daemon was linked with them.
    if [[ -d $notices/relink/lib ]]; then install -d "$kit/lib" && install -m 0644 "$notices/relink/lib/"*.a "$kit/lib/"; fi
fi
unit splashhud.service
unit splashhud-quit.service
unit splashhud-initramfs.service
unit splashhud-ask-password.path
unit splashhud-ask-password.service
unit splashhud-mqtt.service
unit splashhud-updates@.service
for u in poweroff reboot halt kexec; do unit "splashhud-$u.service"; done
# The unit's settings (the board profile), the admin's once there: never overwritten.
if [[ ! -e $destdir/etc/default/splashhud ]]; then
    install -d "$destdir/etc/default"
    install -m 0644 udev/splashhud.default "$destdir/etc/default/splashhud"
fi

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
    install -m 0644 initramfs/dracut/90splashhud/splashhud-initrd.conf initramfs/dracut/90splashhud/splashhud-ask-password-initrd.conf "$dm/"
fi

if ((mender)); then
    # One script under each state's name (it reads its name). Mender 3.4 reads state scripts of
    # version 2 and 3; 3 is what it writes beside an artifact's own (format 3) scripts.
    install -d "$mender_scripts" "$destdir$prefix/share/splashhud/mender"
    for s in "${mender_rootfs[@]}"; do install -m 0755 mender/splashhud-mender "$mender_scripts/${s}_50_splashhud"; done
    [[ -e $mender_scripts/version ]] || echo 3 > "$mender_scripts/version"
    rm -f "$destdir$prefix/share/splashhud/mender/"*_splashhud
    for s in "${mender_artifact[@]}"; do install -m 0755 mender/splashhud-mender "$destdir$prefix/share/splashhud/mender/${s}_50_splashhud"; done
fi

if ((replace_plymouth)); then
    # Debian's Plymouth still installed: its files moved aside with dpkg-divert (an upgrade of the
    # package writes there too), its units masked; --uninstall undoes both.
    if dpkg-query -W -f='${Status}' plymouth 2>/dev/null | grep -q ' installed$'; then
        install -d "$prefix/lib/splashhud/plymouth" "${masked_list%/*}"
        for f in "${plymouth_files[@]}"; do
            [[ $(dpkg-divert --listpackage "$f") == splashhud ]] && continue
            dpkg-divert --package splashhud --rename --divert "$prefix/lib/splashhud/plymouth/$(basename "$(dirname "$f")")-${f##*/}" --add "$f" >/dev/null
            echo "install.sh: diverted Plymouth's $f"
        done
        mask=()
        for u in "${plymouth_units[@]}"; do
            [[ -e /lib/systemd/system/$u || -e /usr/lib/systemd/system/$u ]] || continue
            [[ $(readlink "/etc/systemd/system/$u" 2>/dev/null) == /dev/null ]] && continue
            mask+=("$u")
        done
        # One call, no reload: the user's daemon-reload follows (a reload a unit is slow under emulation).
        if ((${#mask[@]})); then
            systemctl mask --quiet --no-reload "${mask[@]}"
            printf '%s\n' "${mask[@]}" >> "$masked_list"
        fi
    fi
    if [[ -e /usr/bin/plymouth || -L /usr/bin/plymouth ]] && [[ $(readlink /usr/bin/plymouth) != *splashhud ]]; then
        echo "install.sh: /usr/bin/plymouth is not Plymouth's packaged client nor ours: left alone" >&2
        exit 73
    fi
    if [[ $prefix == /usr ]]; then ln -sfn splashhud /usr/bin/plymouth; else ln -sfn "$prefix/bin/splashhud" /usr/bin/plymouth; fi
    echo "install.sh: /usr/bin/plymouth is SplashHUD's client"
fi

echo "install.sh: installed into ${destdir:-/}${destdir:+ }(prefix $prefix)"
if [[ -z $destdir ]]; then
    echo "install.sh: then: systemctl daemon-reload && udevadm control --reload && systemctl enable splashhud-quit.service splashhud-ask-password.path ${shutdown_units[*]}"
    ((initramfs)) && echo "install.sh: and rebuild the initramfs: update-initramfs -u (or dracut -f)"
fi
exit 0
