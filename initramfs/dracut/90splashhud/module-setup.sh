#!/bin/bash
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154 # dracut sets dracutsysrootdir, moddir, systemdsystemunitdir, udevdir
# dracut module: the SplashHUD splash in the initramfs (Fedora-like systems; any dracut). The
# daemon with its libraries (dracut-install follows ldd) and the client as a link to it (and as
# /usr/bin/plymouth without the plymouth module), the fonts, the board profiles,
# /etc/splashhud/initrd.conf and the helper /usr/lib/splashhud/splashhud-initrd.
#
# With systemd in the initramfs: the udev rule and splashhud.service as the real root has them,
# and a drop-in (splashhud-initrd.conf) that starts the daemon early through the helper, with
# /run/plymouth/pid, and hands it over when the initrd's units stop before switch-root; without
# the plymouth module, splashhud-ask-password.path/.service (systemd's Plymouth agent, as Plymouth's
# own units start it) so systemd-cryptsetup's requests reach the splash. Without systemd: a pre-trigger hook starts it
# and a pre-pivot hook hands it over, as 50plymouth does for plymouthd.
#
# The binaries are found in $SPLASHHUD_PREFIX/bin (the environment, else the configuration), else
# /usr/bin, else /usr/local/bin; they land in /usr/bin in the image.

# The directory holding bin/splashhudd and bin/splashhud, or nothing.
splashhud_prefix() {
    local conf="$dracutsysrootdir${SPLASHHUD_CONF:-/etc/splashhud/initrd.conf}" from_env="${SPLASHHUD_PREFIX:-}" p
    local SPLASHHUD_PREFIX=""
    # shellcheck source=/dev/null
    [[ -r $conf ]] && . "$conf"
    [[ $from_env ]] && SPLASHHUD_PREFIX="$from_env"
    for p in $SPLASHHUD_PREFIX /usr /usr/local; do
        if [[ -x $dracutsysrootdir$p/bin/splashhudd && -x $dracutsysrootdir$p/bin/splashhud ]]; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# The first of the given files that exists.
splashhud_first() {
    local f
    for f in "$@"; do
        [[ -e $dracutsysrootdir$f ]] && echo "$f" && return 0
    done
    return 1
}

# called by dracut
check() {
    splashhud_prefix > /dev/null || return 1
    return 0
}

# called by dracut
depends() {
    echo drm
    return 0
}

# called by dracut
installkernel() {
    local conf="$dracutsysrootdir${SPLASHHUD_CONF:-/etc/splashhud/initrd.conf}" SPLASHHUD_DRM_MODULES=""
    # shellcheck source=/dev/null
    [[ -r $conf ]] && . "$conf"
    # shellcheck disable=SC2086 # a list of module names
    [[ $SPLASHHUD_DRM_MODULES ]] && instmods $SPLASHHUD_DRM_MODULES
    return 0
}

# called by dracut
install() {
    local prefix conf helper unit rules f
    prefix=$(splashhud_prefix) || return 1
    conf="${SPLASHHUD_CONF:-/etc/splashhud/initrd.conf}"

    # One binary: called splashhud, the daemon's is the client (see the initramfs-tools hook).
    inst_binary "$prefix/bin/splashhudd" /usr/bin/splashhudd
    ln_r /usr/bin/splashhudd /usr/bin/splashhud
    # `plymouth` in the image's PATH when no plymouth module is included: the client answers as
    # plymouth when called by that name, so the crypt module's prompts (`plymouth --ping`, then
    # `plymouth ask-for-password`) come through the splash.
    if ! dracut_module_included "plymouth" && [[ ! -e ${initdir}/usr/bin/plymouth && ! -e ${initdir}/bin/plymouth ]]; then
        ln_r /usr/bin/splashhud /usr/bin/plymouth
    fi
    helper=$(splashhud_first "$prefix/lib/splashhud/splashhud-initrd" /usr/lib/splashhud/splashhud-initrd) || {
        derror "splashhud: splashhud-initrd not found in $prefix/lib/splashhud"
        return 1
    }
    inst_script "$helper" /usr/lib/splashhud/splashhud-initrd
    # The fonts, as the initramfs-tools hook puts them in (splashhud-fonts, beside the helper).
    [[ -e $dracutsysrootdir/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] \
        || dwarning "splashhud: DejaVu Sans (fonts-dejavu-core) missing: the splash will show no Latin text"
    local work source target
    work=$(mktemp -d)
    (
        SPLASHHUD_PROFILE="" SPLASHHUD_STATUS="" SPLASHHUD_FONTS=""
        # shellcheck source=/dev/null
        [[ -r $dracutsysrootdir$conf ]] && . "$dracutsysrootdir$conf"
        # The profile: initrd.conf's, else the one /etc/default/splashhud gives splashhud.service.
        SPLASHHUD_PROFILE=$(SPLASHHUD_CONF="$dracutsysrootdir$conf" SPLASHHUD_DEFAULT="$dracutsysrootdir${SPLASHHUD_DEFAULT:-/etc/default/splashhud}" \
            sh "$dracutsysrootdir$helper" profile)
        export SPLASHHUD_PROFILE SPLASHHUD_STATUS SPLASHHUD_FONTS
        sh "$dracutsysrootdir${helper%/*}/splashhud-fonts" "$dracutsysrootdir$prefix" "$work"
    ) | while read -r source target; do
        inst_simple "$source" "$target"
    done
    rm -rf "$work"
    for f in "$dracutsysrootdir$prefix"/share/splashhud/boards/* "$dracutsysrootdir"/etc/splashhud/boards/*; do
        [[ -f $f ]] || continue
        f="${f#"$dracutsysrootdir"}"
        case "$f" in
            /etc/*) inst_simple "$f" ;;
            *) inst_simple "$f" "/usr/share/splashhud/boards/${f##*/}" ;;
        esac
    done
    [[ -r $dracutsysrootdir$conf ]] && inst_simple "$conf" /etc/splashhud/initrd.conf
    # The real root's settings, for the helper's profile in the image (the same as the unit's).
    [[ -r $dracutsysrootdir${SPLASHHUD_DEFAULT:-/etc/default/splashhud} ]] \
        && inst_simple "${SPLASHHUD_DEFAULT:-/etc/default/splashhud}" /etc/default/splashhud

    if dracut_module_included "systemd"; then
        # scripts/install.sh puts them in /etc (under its --destdir: beside PREFIX, "${prefix%/usr*}").
        unit=$(splashhud_first "${prefix%/usr*}/etc/systemd/system/splashhud.service" /etc/systemd/system/splashhud.service \
            "$systemdsystemunitdir/splashhud.service" /usr/local/lib/systemd/system/splashhud.service) || {
            derror "splashhud: splashhud.service is not installed (udev/ in SplashHUD's sources)"
            return 1
        }
        rules=$(splashhud_first "${prefix%/usr*}/etc/udev/rules.d/90-splashhud.rules" /etc/udev/rules.d/90-splashhud.rules \
            "$udevdir/rules.d/90-splashhud.rules") || {
            derror "splashhud: 90-splashhud.rules is not installed (udev/ in SplashHUD's sources)"
            return 1
        }
        inst_simple "$unit" "$systemdsystemunitdir/splashhud.service"
        inst_simple "$moddir/splashhud-initrd.conf" "$systemdsystemunitdir/splashhud.service.d/initrd.conf"
        inst_rules "$rules"
        # Started early (the drop-in says why), not only when udev sees a card.
        mkdir -p "$initdir$systemdsystemunitdir/sysinit.target.wants"
        ln_r "$systemdsystemunitdir/splashhud.service" "$systemdsystemunitdir/sysinit.target.wants/splashhud.service"
        # systemd-cryptsetup asks through systemd's Plymouth agent: Plymouth ships its units
        # (dracut's plymouth module puts them in), so without Plymouth ours start the same agent
        # (`systemd-tty-ask-password-agent --watch --plymouth`) while /run/plymouth/pid exists.
        if ! dracut_module_included "plymouth"; then
            local agent
            for agent in splashhud-ask-password.path splashhud-ask-password.service; do
                f=$(splashhud_first "${unit%/*}/$agent" "/etc/systemd/system/$agent" "$systemdsystemunitdir/$agent") || {
                    derror "splashhud: $agent is not installed (udev/ in SplashHUD's sources)"
                    return 1
                }
                inst_simple "$f" "$systemdsystemunitdir/$agent"
            done
            # A host with Plymouth installed gives the image its (unused) agent units through
            # 00systemd: ours then stand in for them here despite the path's conditions.
            inst_simple "$moddir/splashhud-ask-password-initrd.conf" "$systemdsystemunitdir/splashhud-ask-password.path.d/initrd.conf"
            inst_multiple systemd-tty-ask-password-agent
            ln_r "$systemdsystemunitdir/splashhud-ask-password.path" "$systemdsystemunitdir/sysinit.target.wants/splashhud-ask-password.path"
        fi
    else
        inst_multiple udevadm
        inst_hook pre-trigger 20 "$moddir/splashhud-pretrigger.sh"
        inst_hook pre-pivot 90 "$moddir/splashhud-newroot.sh"
    fi
    inst_hook emergency 50 "$moddir/splashhud-emergency.sh"
    return 0
}
