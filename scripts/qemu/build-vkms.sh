#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds vkms.ko (the kernel's virtual KMS driver: a 60 Hz vblank from an hrtimer, flips completed
# at vblank, per-vblank CRCs in debugfs) for the kernel the QEMU guests boot, which Debian builds
# without it. Out of tree, from Debian's linux-source-6.1 (only drivers/gpu/drm/vkms is unpacked)
# against linux-headers-VERSION:
#     make -C /lib/modules/VERSION/build M=.../drivers/gpu/drm/vkms CONFIG_DRM_VKMS=m modules
# The module is cached by kernel version outside the repository (`vmtest.py module-path vkms`:
# ${XDG_CACHE_HOME:-~/.cache}/splashhud/modules/VERSION/vkms.ko, or $SPLASHHUD_MODULE_CACHE) and
# rebuilt only when the kernel or linux-source-6.1 changes. vmtest.py's `vkms` machine loads it.
#
#     scripts/qemu/build-vkms.sh [VERSION]     (default: the guest kernel, `vmtest.py kernel`)
#
# scripts/setup.sh --tests installs the two packages and runs this.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=${1:-$(python3 "$here/vmtest.py" kernel)}
out=$(python3 "$here/vmtest.py" module-path vkms --kernel "$version")
tarball=/usr/src/linux-source-6.1.tar.xz
headers=/lib/modules/$version/build

[[ -f $tarball ]] || { echo "build-vkms: $tarball is missing: install linux-source-6.1" >&2; exit 1; }
[[ -d $headers ]] || { echo "build-vkms: $headers is missing: install linux-headers-$version" >&2; exit 1; }

built_from="linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo '?') for $version"
stamp=$out.built-from
if [[ -f $out && -f $stamp && $(cat "$stamp") == "$built_from" ]]; then
  echo "build-vkms: $out is up to date ($built_from)"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "build-vkms: building vkms.ko from $built_from"
tar -xJf "$tarball" -C "$work" linux-source-6.1/drivers/gpu/drm/vkms
src=$work/linux-source-6.1/drivers/gpu/drm/vkms
# BTF is skipped (the headers have no vmlinux): the kernel loads the module without it.
make -s -C "$headers" M="$src" CONFIG_DRM_VKMS=m modules 2>&1 | grep -v "Skipping BTF generation" || true
[[ -f $src/vkms.ko ]] || { echo "build-vkms: the build made no vkms.ko" >&2; exit 1; }
magic=$(modinfo -F vermagic "$src/vkms.ko")
[[ $magic == "$version "* ]] || { echo "build-vkms: vkms.ko was built for '$magic', not $version" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
install -m 644 "$src/vkms.ko" "$out.tmp"
mv "$out.tmp" "$out"
echo "$built_from" > "$stamp"
echo "build-vkms: $out (depends on $(modinfo -F depends "$out"))"
