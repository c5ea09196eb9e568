#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs a real Home Assistant core for HomeAssistantDiscoveryTests (scripts/setup.sh --tests
# runs it): a venv at /opt/splashhud-test/hass (or $SPLASHHUD_HASS_VENV) with homeassistant
# 2024.3.3 from PyPI, the newest release that runs on Debian 12's Python 3.11 (2024.4 needs 3.12).
# pip installs only the core's own dependencies; the integrations' requirements are pinned here
# (each from its manifest.json in that release) so that `hass --skip-pip` starts without
# downloading anything: the MQTT integration (paho-mqtt), and what the default integrations need
# so that the frontend loads (without it Home Assistant starts in recovery mode, MQTT not loaded):
# file_upload (janus), image_upload (Pillow), backup (securetar), hardware and recorder
# (psutil-home-assistant, SQLAlchemy, fnv-hash-fast), the frontend itself, camera (PyTurboJPEG,
# numpy), and josepy below 2 for cloud's acme. Measured here, from an empty venv with pip's
# cache warm, on a busy 2-core machine: 293 s and 674 MB.
# Does nothing when that venv already has this set (a stamp file records it).
set -euo pipefail
venv=${SPLASHHUD_HASS_VENV:-/opt/splashhud-test/hass}
packages=(homeassistant==2024.3.3 paho-mqtt==1.6.1 home-assistant-frontend==20240307.0 janus==1.0.0 Pillow==10.2.0
    securetar==2024.2.1 psutil-home-assistant==0.0.1 josepy==1.14.0 SQLAlchemy==2.0.27 fnv-hash-fast==0.5.0
    numpy==1.26.0 PyTurboJPEG==1.7.1)
stamp="$venv/splashhud-packages"
if [[ -x $venv/bin/hass && -f $stamp && $(cat "$stamp") == "${packages[*]}" ]]; then exit 0; fi
python=$(command -v python3.11 || command -v python3)
"$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
    || { echo "home-assistant.sh: Home Assistant 2024.3.3 needs Python 3.11, $python is not" >&2; exit 1; }
echo "home-assistant.sh: installing Home Assistant core into $venv"
rm -f "$stamp"
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}"
echo "${packages[*]}" > "$stamp"
