// SPDX-License-Identifier: MIT
// Moving the daemon into the real root before the initramfs switches to it, as plymouthd does on
// `plymouth update-root-fs --new-root-dir=DIR` (`--newroot`): into DIR, chroot there, then to "/".
// Descriptors already open (the card, the sockets, the log) are untouched; every path opened later
// (a display or keyboard plugged in, a font, the pid file to remove) resolves in the new root,
// which switch_root then moves to "/", instead of in the initramfs it empties.

public enum ProcessRoot {
    /// Makes `directory` this process's root (all its threads': they share it) and working
    /// directory. Needs CAP_SYS_CHROOT; on failure the root is as it was, unless the working
    /// directory had already changed (then the error names chroot).
    public static func change(to directory: String) throws(SystemError) {
        _ = try retrying { system_chdir(directory) }.get("chdir", directory)
        _ = try retrying { system_chroot(".") }.get("chroot", directory)
        _ = try retrying { system_chdir("/") }.get("chdir", "/")
    }
}
