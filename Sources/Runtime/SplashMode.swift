// SPDX-License-Identifier: MIT
// Plymouth's modes (`plymouthd --mode`, `plymouth change-mode`) and how SplashHUD shows each: the
// shutdown, reboot and update modes name what the machine is doing, the update modes as a ring
// that `system-update --progress` fills. One table for `splashhudd --mode` and Plymouth's socket.
import Board
import HUDProtocol
import Raster

public enum SplashMode {
    /// The modes Debian 12's `plymouth` client knows (boot is plymouthd's older name for boot-up).
    public static let names = ["boot-up", "shutdown", "reboot", "updates", "system-upgrade", "firmware-upgrade"]

    /// Each mode's own text (nil: none) and whether it is a progress (ring) mode.
    static let looks: [String: (title: String?, progress: Bool)] = [
        "boot-up": (nil, false), "boot": (nil, false),
        "shutdown": ("Shutting down", false), "reboot": ("Restarting", false),
        "updates": ("Installing updates", true), "system-upgrade": ("Upgrading the system", true),
        "firmware-upgrade": ("Updating firmware", true),
    ]

    /// What shows `mode` with `profile`'s `[modes]` text over SplashHUD's own, and that text;
    /// nil for a mode Plymouth does not have.
    public static func look(_ mode: String, profile: BoardProfile?) -> (request: Request, title: String?)? {
        guard let look = looks[mode] else { return nil }
        let title = profile?.modeTitles[mode == "boot" ? "boot-up" : mode].map { $0.isEmpty ? nil : $0 } ?? look.title
        return (look.progress ? .hud(.progress(fraction: .zero, status: title)) : .hud(.show(status: title)), title)
    }
}
