#!/bin/sh
# SPDX-License-Identifier: MIT
# SplashHUD (dracut without systemd): hand the splash over before the switch to $NEWROOT:
# `quit --retain` when its splashhud.service will take the screen, else `quit`.
# shellcheck disable=SC2154 # NEWROOT is dracut's
/usr/lib/splashhud/splashhud-initrd handover "$NEWROOT"
