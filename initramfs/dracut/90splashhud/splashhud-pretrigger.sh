#!/bin/sh
# SplashHUD (dracut without systemd): start the splash before udev's trigger loads the display
# driver; the daemon waits for the card itself (--wait-for-display) and is never waited for.
/usr/lib/splashhud/splashhud-initrd start
