#!/bin/sh
# SPDX-License-Identifier: MIT
# SplashHUD (dracut without systemd): start the splash before the rest of udev's trigger, as
# 50plymouth does: the display devices first, a settle bounded at 5 s so their drivers are loaded
# (and fbcon binds while the VT is in text mode: the helper's settle-display says why), then the
# daemon, never waited for; a driver slower than that is waited for by the daemon itself
# (--wait-for-display).
/usr/lib/splashhud/splashhud-initrd settle-display
/usr/lib/splashhud/splashhud-initrd start
