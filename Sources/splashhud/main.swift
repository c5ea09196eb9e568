// SPDX-License-Identifier: MIT
// `splashhud`: the client (ClientCommand), as its own small binary. In the initramfs the daemon's
// binary is the client too, called through a link named splashhud.
import ClientCommand

SplashHUDClient.main()
