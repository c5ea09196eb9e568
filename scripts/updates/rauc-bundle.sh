#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes what Debian 12's RAUC (1.8) needs to install a real bundle, for SplashHUD's tests
# (RAUCEndToEndTests) and to try `splashhud-updates rauc` by hand (docs/updates.md):
#   scripts/updates/rauc-bundle.sh DIR [MEBIBYTES]
# In DIR: a throwaway CA (ca.pem, the keyring) and a signing key and certificate it issued, two
# file-backed raw slots (slot-a.img, slot-b.img: bootnames A and B) and system.conf (compatible
# "splashhud-test", the noop bootloader, RAUC's status in DIR/rauc.status, DIR/mnt as its mount
# prefix); good.raucb, a plain bundle of one random rootfs image of MEBIBYTES (default 8) for the
# rootfs slot class, signed for the keyring; bad.raucb, the same signed by a key the keyring does
# not know (RAUC refuses it: "signature verification failed"); bus.conf, a system-type bus that
# anyone on the machine may use, for a dbus-daemon of the test's own. Then, for example:
#   dbus-daemon --config-file=DIR/bus.conf --fork --print-address
#   DBUS_SYSTEM_BUS_ADDRESS=unix:path=DIR/bus rauc --conf=DIR/system.conf service --override-boot-slot=A &
#   DBUS_SYSTEM_BUS_ADDRESS=unix:path=DIR/bus rauc install DIR/good.raucb
# Installing mounts the bundle's squashfs over a loop device: root and /dev/loop* are needed.
# Needs rauc, rauc-service, squashfs-tools, dbus and openssl (scripts/setup.sh --tests installs them).
set -euo pipefail
dir="${1:?usage: rauc-bundle.sh DIR [MEBIBYTES]}"
mib="${2:-8}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
rm -rf "$dir/content" "$dir/mnt" "$dir"/*.raucb "$dir/rauc.status"
mkdir -p "$dir/content" "$dir/mnt"

# A CA, and the signing certificate it issues (RAUC checks the chain up to the keyring).
ca() {
    local name=$1
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -keyout "$dir/$name-ca.key" -out "$dir/$name-ca.pem" \
        -subj "/O=SplashHUD test/CN=$name CA" -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout "$dir/$name.key" -out "$dir/$name.csr" -subj "/O=SplashHUD test/CN=$name signer" 2>/dev/null
    openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$name-ca.pem" -CAkey "$dir/$name-ca.key" -CAcreateserial -days 2 \
        -extfile <(printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n') -out "$dir/$name.pem" 2>/dev/null
}
ca good
ca stranger
cp "$dir/good-ca.pem" "$dir/ca.pem"

truncate -s "$((mib + 1))M" "$dir/slot-a.img" "$dir/slot-b.img"
cat > "$dir/system.conf" <<CONF
[system]
compatible=splashhud-test
bootloader=noop
statusfile=$dir/rauc.status
mountprefix=$dir/mnt

[keyring]
path=$dir/ca.pem

[slot.rootfs.0]
device=$dir/slot-a.img
type=raw
bootname=A

[slot.rootfs.1]
device=$dir/slot-b.img
type=raw
bootname=B
CONF

head -c "$((mib * 1048576))" /dev/urandom > "$dir/content/rootfs.img"
cat > "$dir/content/manifest.raucm" <<MANIFEST
[update]
compatible=splashhud-test
version=1.0

[bundle]
format=plain

[image.rootfs]
filename=rootfs.img
MANIFEST
rauc bundle --cert="$dir/good.pem" --key="$dir/good.key" "$dir/content" "$dir/good.raucb" >/dev/null
rauc bundle --cert="$dir/stranger.pem" --key="$dir/stranger.key" "$dir/content" "$dir/bad.raucb" >/dev/null

cat > "$dir/bus.conf" <<BUS
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="*"/>
  </policy>
</busconfig>
BUS
echo "rauc-bundle.sh: $dir/good.raucb and $dir/bad.raucb ($mib MiB image), for $dir/system.conf"
