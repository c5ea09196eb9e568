#!/bin/sh
# SPDX-License-Identifier: MIT
# SplashHUD: an emergency shell is on the console; end the splash so the console shows.
/usr/lib/splashhud/splashhud-initrd stop
