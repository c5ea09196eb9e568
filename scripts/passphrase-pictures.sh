#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copies the prompts the QEMU boots showed into docs/passphrases.md's pictures: each boot keeps its
# typed prompt's screendump (bit for bit the memory display's render, which the test checks) in
# .build/qemu-shots. Run after `swift test --skip-build --filter 'InitramfsEndToEndTests|LUKSEndToEndTests'`.
set -euo pipefail
cd "$(dirname "$0")/.."
shots=.build/qemu-shots
for pair in initramfs-dracut-prompt:passphrase-dracut initramfs-systemd-passphrase-prompt:passphrase-systemd \
            initramfs-systemd-tpm2-pin-prompt:passphrase-tpm2-pin initramfs-tools-touch-prompt:passphrase-touch; do
    from="$shots/${pair%%:*}.png" to="docs/${pair##*:}.png"
    [ -f "$from" ] || { echo "passphrase-pictures.sh: no $from (run the boots first)" >&2; exit 1; }
    cp "$from" "$to"
    echo "$to"
done
