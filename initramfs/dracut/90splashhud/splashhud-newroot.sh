#!/bin/sh
# SPDX-License-Identifier: MIT
# SplashHUD (dracut without systemd), before the switch to $NEWROOT: the daemon moves into it and
# lives on when the real root would run the same one; else `quit --retain` when its
# splashhud.service will take the screen, or `quit` (see splashhud-initrd).
# shellcheck disable=SC2154 # NEWROOT is dracut's
/usr/lib/splashhud/splashhud-initrd handover "$NEWROOT" keep
