#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes what Debian 12's swupdate (2022.12) needs to install a real update, for SplashHUD's tests
# and measurements (SWUpdateEndToEndTests, scripts/bench/updates-latency.py) and to try
# `splashhud-updates swupdate` by hand (docs/updates.md):
#   scripts/updates/swupdate-swu.sh DIR [MEBIBYTES]
# In DIR: a throwaway signing key and certificate (Debian's build installs only CMS-signed
# images: `swupdate -k DIR/cert.pem`), three random images of MEBIBYTES each (default 2) and
# good.swu, which installs them with the rawfile handler into DIR/out (boot.img, rootfs.img,
# app.img) for hardware "splashhud" revision 1.0 (`swupdate -H splashhud:1.0`); bad.swu, the same
# with 16 bytes of rootfs.img flipped inside the archive (SWUpdate refuses it: "HASH mismatch").
# Then, for example:
#   TMPDIR=DIR/run swupdate -v -k DIR/cert.pem -H splashhud:1.0 &
#   TMPDIR=DIR/run swupdate-client DIR/good.swu
# (TMPDIR puts SWUpdate's sockets in DIR/run; keep DIR short: a socket path has 107 bytes at most.)
# Needs swupdate, swugenerator, openssl, python3 (scripts/setup.sh --tests installs them).
set -euo pipefail
dir="${1:?usage: swupdate-swu.sh DIR [MEBIBYTES]}"
mib="${2:-2}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
rm -rf "$dir/art" "$dir/out" "$dir/run"
mkdir -p "$dir/art" "$dir/out" "$dir/run"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -keyout "$dir/key.pem" -out "$dir/cert.pem" \
    -subj "/O=SplashHUD test/CN=swupdate-swu" 2>/dev/null
for image in boot rootfs app; do head -c "$((mib * 1048576))" /dev/urandom > "$dir/art/$image.img"; done
cat > "$dir/sw-description" <<DESC
software = {
    version = "1.0.0";
    hardware-compatibility = [ "1.0" ];
    files: (
        { filename = "boot.img"; path = "$dir/out/boot.img"; },
        { filename = "rootfs.img"; path = "$dir/out/rootfs.img"; },
        { filename = "app.img"; path = "$dir/out/app.img"; }
    );
};
DESC
# swugenerator fills in each image's sha256, signs sw-description (openssl cms) and writes the
# newc cpio archive SWUpdate reads.
(cd "$dir" && swugenerator -s sw-description -a art -k CMS,key.pem,cert.pem -o good.swu create)
python3 - "$dir/good.swu" "$dir/bad.swu" rootfs.img <<'PY'
import sys
src, dst, name = sys.argv[1:4]
b = bytearray(open(src, "rb").read())
off = 0
while True:
    # A newc header: magic 070701/070702, then hex fields; the file size at 54, the name's at 94.
    assert b[off:off + 6] in (b"070701", b"070702"), f"no cpio header at {off}"
    size, name_size = int(b[off + 54:off + 62], 16), int(b[off + 94:off + 102], 16)
    fname = b[off + 110:off + 110 + name_size - 1].decode()
    data = (off + 110 + name_size + 3) & ~3
    if fname == name:
        for i in range(16):
            b[data + size // 2 + i] ^= 0xFF
        break
    if fname == "TRAILER!!!":
        sys.exit(f"{name} is not in {src}")
    off = (data + size + 3) & ~3
open(dst, "wb").write(b)
PY
echo "swupdate-swu.sh: $dir/good.swu and $dir/bad.swu ($mib MiB images), signed for $dir/cert.pem"
