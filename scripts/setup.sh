#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the system packages SplashHUD's build and demo need (with --tests, also what the tests
# need), on Debian 12, with apt.
# Idempotent: packages already installed are left alone and apt is not touched at all.
# Needs root (or sudo) only when something is missing. Swift itself (6.0 or newer) must already be
# on PATH: Debian 12 does not package it (see swift.org for the Debian toolchain).
set -euo pipefail

# What building SplashHUD and running the demo need.
PACKAGES=(
  pkg-config
  libdrm-dev            # KMS/DRM (CDRM)
  libfreetype-dev       # glyph outlines (CFreeType)
  libpng-dev            # PNG decode/encode (CPNG, behind CPNGCodec)
  zlib1g-dev            # CRCs for animated PNG chunks (CZlib)
  fonts-dejavu-core     # DejaVu Sans: default UI font and the benchmark's font
  fonts-droid-fallback  # Droid Sans Fallback: CJK glyphs in the fallback chain
  # Text for every script: shaping, bidi, UAX #14 line breaks, Thai words and its dictionary
  # (libthai-data's thbrk.tri, read at run time).
  libharfbuzz-dev libfribidi-dev libunibreak-dev libthai-dev libthai-data
  libmosquitto-dev      # MQTT for the fleet bridge splashhud-mqtt (CMosquitto); the daemon never links it
  libsystemd-dev        # sd-bus for splashhud-updates' RAUC source (CSystemd); nothing else links it
  libqrencode-dev       # the daemon's support QR code (CQREncode); the client and the bridge never link it
  # The static builds (scripts/text-libraries.sh): `apt-get source` unpacks HarfBuzz's Debian
  # source with dpkg-source (dpkg-dev, which brings ar and xz too), curl fetches libunibreak's
  # tarball from Debian's pool, and g++ and gcc compile them (Debian 12 ships neither as a static archive).
  dpkg-dev g++ gcc curl
  libc6-dev             # glibc's archives: scripts/install.sh links the daemon and the client fully static by default
  # THIRD-PARTY-NOTICES and the relink kit (scripts/relink): python3 runs them; binutils' ld -r,
  # ar and readelf and xz-utils' xz make the kit.
  python3 binutils xz-utils
)

# `--tests` (what scripts/test.sh passes) adds what only the tests and the benchmark need.
if [[ " $* " == *" --tests "* ]]; then
  PACKAGES+=(
    libcairo2-dev       # splashhud-bench's comparison engine: scripts/test.sh builds Benchmarks/ so it keeps compiling
    fonts-urw-base35    # Nimbus Sans (CFF outlines), for the font tests
    # Text in every script: the per-script Noto faces and a CJK face with Hangul, and the
    # references the text tests compare with (Pango's pango-view, hb-shape, fribidi).
    fonts-noto-core fonts-noto-cjk pango1.0-tools libharfbuzz-bin libfribidi-bin
    # Boot integration checks (Tests/splashhudTests): `systemd-analyze verify` on the units in
    # udev/ and `udevadm test` on the rules (unshare and setpriv come with util-linux).
    systemd udev
    # QEMU end-to-end tests (scripts/qemu/vmtest.py, Tests/QEMUTests): Debian's kernel with its DRM
    # modules, QEMU (TCG), busybox for the guest initramfs, python3 for the harness.
    # linux-image-amd64 is only booted inside QEMU; it is never the host's kernel.
    qemu-system-x86 linux-image-amd64 busybox-static python3
    # Plymouth's own client (`plymouth`), for the drop-in tests against splashhudd --plymouth;
    # its daemon is never started on the host.
    plymouth
    # The initramfs test (Tests/QEMUTests/InitramfsEndToEndTests, scripts/qemu/initramfs-boot.py):
    # Debian's mkinitramfs with our hook (zstd compresses the image), an ext4 root made by
    # mke2fs -d; and dracut (dracut-core installs beside initramfs-tools without replacing it)
    # to build images with the dracut module and list them with lsinitrd.
    initramfs-tools zstd e2fsprogs dracut-core
    # The docs' blocks run in a Debian 12 guest with Plymouth (Tests/QEMUTests/DocsEndToEndTests,
    # scripts/qemu/debian-guest.py): mmdebstrap builds its root once (cached in .build/qemu),
    # debugfs (e2fsprogs) reads the rebuilt initrd out of it.
    mmdebstrap
    # The LUKS test (Tests/QEMUTests/LUKSEndToEndTests, scripts/qemu/luks-boot.py): cryptsetup
    # encrypts the root image on the host (offline, through the kernel's crypto API: no
    # device-mapper needed) and cryptsetup-initramfs puts cryptsetup, askpass and the cryptroot
    # scripts into the image; console-setup (with kbd's loadkeys) is what KEYMAP=y runs, and its
    # ckbcomp makes the German keymap. Installing cryptsetup-initramfs sets KEYMAP=y, BUSYBOX=y
    # and FRAMEBUFFER=y for every image mkinitramfs builds (its conf-hooks.d/cryptsetup).
    # dracut-boot's crypt module takes cryptsetup and dmsetup (cryptsetup's dependency) from here.
    cryptsetup cryptsetup-initramfs console-setup kbd
    # The systemd initramfs's boot (initramfs-boot.py sd-boot): a second LUKS2 volume enrolled on
    # the host with systemd-cryptenroll --tpm2-with-pin against Debian's software TPM (swtpm,
    # swtpm_setup), reached through tpm2-tss's swtpm TCTI; the guest's TPM (QEMU's tpm-tis) is the
    # same swtpm state. dracut's tpm2-tss module needs tpm2-tools' `tpm2` and puts tpm2-tss's
    # libraries (systemd-cryptsetup dlopens them) into the image.
    swtpm swtpm-tools tpm2-tools libtss2-tcti-swtpm0 libtss2-tctildr0 libtss2-tcti-device0 libtss2-esys-3.0.2-0 libtss2-rc0 libtss2-mu0
    # InitramfsScriptsTests lint every initramfs/ script.
    shellcheck
    # The fleet bridge's tests (MQTTBridgeTests): a real broker, the operator's mosquitto_pub,
    # mosquitto_sub and mosquitto_rr, and openssl for the TLS listener's certificates.
    mosquitto mosquitto-clients openssl
    # Home Assistant core for HomeAssistantDiscoveryTests goes in a venv (scripts/home-assistant.sh).
    python3-venv
    # splashhud-updates' tests (SWUpdateEndToEndTests): Debian's SWUpdate 2022.12 (swupdate and its
    # swupdate-client) installing real signed updates that swugenerator makes.
    swupdate swugenerator
    # RAUCEndToEndTests: Debian's RAUC 1.8 service (rauc-service) on a private system bus of its own
    # dbus-daemon, installing real signed bundles (squashfs-tools' mksquashfs makes them, the
    # kernel's loop devices mount them).
    rauc rauc-service squashfs-tools dbus
    # MenderEndToEndTests: Debian's mender-client 3.4 installing, standalone, a module-image
    # artifact that mender-artifact writes with our state scripts embedded.
    mender-client mender-artifact
    # SeamlessBootEndToEndTests boot through Debian's UEFI firmware for QEMU, which draws its logo
    # and publishes it in ACPI's BGRT, and hand the screen to a kiosk: cage (which will not start
    # without Xwayland) with weston's demo client, under seatd.
    ovmf cage weston xwayland seatd
    # SupportCodeEndToEndTests decode the failure screen's support QR code with zbar's zbarimg.
    zbar-tools
    # LinkageTests read the binaries' undefined symbols with nm.
    binutils
    # StaticClientTests: the client linked fully static needs glibc's and libdrm's archives
    # (libc.a; libdrm.a comes with libdrm-dev).
    libc6-dev
    # vkms for the QEMU guests (a real vblank and per-vblank CRCs: Tests/QEMUTests/VKMSEndToEndTests,
    # FBDevPanEndToEndTests: the one fbdev emulation that shows a pan):
    # Debian builds its kernel without it; scripts/qemu/build-vkms.sh builds it out of tree from
    # this source and the guest kernel's headers (linux-headers-VERSION, added below once
    # linux-image-amd64 says which VERSION the guests boot).
    linux-source-6.1
    # scripts/bench/spinner-profile.py's short run: Debian's perf, the guest kernel's version,
    # profiles the spinner inside the vkms guest.
    linux-perf
    # scripts/bench/frame-footprint.py's run: callgrind counts a spinner frame's instructions.
    valgrind
  )
fi

# `--bench` (what the benchmark package Benchmarks/, scripts/bench/against-plymouth.py and the text
# benchmarks need; never a CI step): cairo, splashhud-bench's comparison engine; Debian's Plymouth
# with its spinner theme, run inside the QEMU guest beside SplashHUD (its daemon is never started
# on the host), the harness's QEMU packages, and a static libdrm (libdrm-dev) and gcc for the
# guest's scanout poller.
if [[ " $* " == *" --bench "* ]]; then
  PACKAGES+=(libcairo2-dev plymouth plymouth-themes qemu-system-x86 linux-image-amd64 busybox-static python3 gcc
             initramfs-tools zstd
             # Text against Pango (scripts/bench/text-layout.sh builds Benchmarks/text-layout/pango-layout.c)
             # and against Plymouth's Pango label plugin, whose libraries scripts/bench/text-sizes.sh weighs.
             libpango1.0-dev plymouth-label
             # scripts/bench/spinner-profile.py: perf inside the vkms guest
             linux-perf)
fi

install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "setup: installing ${missing[*]}"
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
# Debian enables SWUpdate's units when the package comes, and swupdate-progress.service reboots the
# machine after every successful update: where the tests bring swupdate, its units are masked
# first (the tests run their own swupdate, its sockets in a directory of their own).
# RAUC's service and Mender's client daemon are masked likewise: the tests start their own.
mask_units_of() {
  local package=$1 unit; shift
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" && return 0
  for unit in "$@"; do
    if [[ ! -e /etc/systemd/system/$unit ]]; then
      if [[ $(id -u) -eq 0 ]]; then ln -s /dev/null "/etc/systemd/system/$unit"; else sudo ln -s /dev/null "/etc/systemd/system/$unit"; fi
    fi
  done
}
if [[ " $* " == *" --tests "* ]]; then
  mask_units_of swupdate swupdate-progress.service swupdate.service swupdate.socket
  mask_units_of rauc-service rauc.service rauc-mark-good.service
  mask_units_of mender-client mender-client.service
fi
install_missing "${PACKAGES[@]}"

# A real Home Assistant core for HomeAssistantDiscoveryTests, in a venv of its own (PyPI).
if [[ " $* " == *" --tests "* ]]; then
  "$(dirname "${BASH_SOURCE[0]}")/home-assistant.sh"
fi

# vkms.ko for the kernel the QEMU guests boot (vmtest.py's choice, which need not be the host's
# running kernel): its headers, then the module, cached outside the repository by kernel version.
if [[ " $* " == *" --tests "* ]]; then
  guest_kernel=$(python3 "$(dirname "${BASH_SOURCE[0]}")/qemu/vmtest.py" kernel)
  install_missing "linux-headers-$guest_kernel"
  "$(dirname "${BASH_SOURCE[0]}")/qemu/build-vkms.sh" "$guest_kernel"
fi

if ! command -v swift >/dev/null; then
  for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [[ -x $d/swift ]] && export PATH="$d:$PATH"; done
fi
command -v swift >/dev/null || { echo "setup: swift 6 is not on PATH; install the Debian 12 toolchain from swift.org" >&2; exit 1; }
