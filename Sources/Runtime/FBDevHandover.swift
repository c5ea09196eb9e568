// SPDX-License-Identifier: MIT
// Retaining the HUD on KMS after the splash exits. On Linux 6.1 (Debian 12) closing the card removes
// the framebuffers we created, and the kernel then shows its fallback picture: the buffer of the
// driver's fbdev emulation (what fbcon draws into). So before a retaining quit the HUD is also
// drawn there, laid out for the fbdev mode, and the VT stays in KD_GRAPHICS (Console) so fbcon
// does not paint over it: the picture survives our exit until the next program (a display
// manager) sets its own. The endless OS and Plymouth hand-overs rely on the same fallback buffer.
import Display
import Logging
import Raster

enum FBDevHandover {
    /// Draws the scene's current picture into each fbdev emulation node of `display`'s cards
    /// and leaves it there. The rotation is that of a DRM output of the same size (its panel
    /// orientation), else none. Failures are logged: the splash still quits.
    static func write(_ scene: HUDScene, display: any Display, logger: Logger) {
        for path in display.fbdevEmulationPaths {
            do {
                var fb = try FBDevDisplay(path: path, doubleBuffer: false)
                let mode = fb.outputs[0].mode
                if let rotation = display.outputs.first(where: { $0.mode.width == mode.width && $0.mode.height == mode.height })?.rotation,
                   rotation != .r0 {
                    fb.close(.retain)
                    fb = try FBDevDisplay(path: path, rotation: rotation, doubleBuffer: false)
                }
                let picture = scene.picture(for: fb.outputs[0])
                _ = try fb.present(picture, damage: [picture.bounds])
                fb.close(.retain)
                logger.info("retained: the HUD also left in \(path) (the kernel's fallback picture once we exit)")
            } catch {
                logger.warning("retain: could not leave the HUD in \(path): \(error)")
            }
        }
    }
}
