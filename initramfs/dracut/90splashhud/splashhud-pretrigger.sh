#!/bin/sh
# SPDX-License-Identifier: MIT
# SplashHUD (dracut without systemd): start the splash before the rest of udev's trigger, as
# 50plymouth does: the display devices first (every PCI display controller, class 0x03xxxx: a
# virtio GPU is 0x038000, not VGA's 0x030000; then drm, graphics), a settle bounded at 5 s so
# their drivers are loaded, then the daemon, never waited for; a driver slower than that is waited
# for by the daemon itself (--wait-for-display).
#
# Settling first also lets fbcon bind to the card's framebuffer while the VT is still in text
# mode: when it binds under a VT already in graphics mode (the daemon started before the driver),
# the console stays black after the splash gives the VT back, until the next VT switch.
if /usr/lib/splashhud/splashhud-initrd enabled; then
    udevadm trigger --action=add --attr-match='class=0x03*' > /dev/null 2>&1
    udevadm trigger --action=add --subsystem-match=graphics --subsystem-match=drm --subsystem-match=tty > /dev/null 2>&1
    udevadm settle --timeout=5 > /dev/null 2>&1
fi
/usr/lib/splashhud/splashhud-initrd start
