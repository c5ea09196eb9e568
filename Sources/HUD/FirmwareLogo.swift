// SPDX-License-Identifier: MIT
// The logo the firmware left on the screen (ACPI BGRT), drawn again where the firmware drew it, so
// the splash's first frame does not move it by a pixel.
//
// The firmware drew it in its own mode's pixels: on the glass, unrotated and unscaled. So the logo
// is placed in scanout pixels and turned into the HUD's upright frame by the output's rotation, and
// the output's scale never touches it. Where it goes (Plymouth's two-step plugin decides the same
// way, view_set_bgrt_background):
//  - the screen has the firmware's width (the logo at the BGRT's x is centred in it, within a
//    pixel) and the logo fits: at the BGRT's x and y, exactly;
//  - any other mode: centred across, its centre at 38.2 % of the height (the rule Windows' boot
//    logo follows, and Plymouth's default).
// The BGRT's orientation bits (ACPI 6.2) say the firmware drew the image turned; it is turned the
// same way here, so the glass shows what the firmware showed.
import Raster

public struct FirmwareLogo: Sendable {
    /// The image as decoded, upright (opaque).
    public var image: Pixmap
    /// Where the firmware drew its top-left corner, in the firmware's mode's pixels.
    public var x: Int32
    public var y: Int32
    /// How the firmware turned the image on the glass (`status` bits 1-2: 1 is 90° counter-clockwise,
    /// 3 is 90° clockwise, as Plymouth reads them).
    public var orientation: Rotation

    public init(image: Pixmap, x: Int32, y: Int32, orientation: Rotation = .r0) {
        self.image = image; self.x = x; self.y = y; self.orientation = orientation
    }

    /// The image as the glass shows it.
    public var glassImage: Pixmap { image.rotated(orientation) }

    /// Where the logo goes on a scanout of `width x height` pixels (the rules in the header); nil
    /// when it does not fit at all.
    public func glassRect(width: Int32, height: Int32) -> IntRect? {
        let size = orientation.outputSize(sourceWidth: image.width, sourceHeight: image.height)
        guard size.width <= width, size.height <= height else { return nil }
        let centred = (width - size.width) / 2
        if abs(x - centred) <= 1, x >= 0, y >= 0, x <= width - size.width, y <= height - size.height {
            return IntRect(x: x, y: y, width: size.width, height: size.height)
        }
        let y = Int32(Int64(height) * 382 / 1000) - size.height / 2
        return IntRect(x: centred, y: max(0, min(y, height - size.height)), width: size.width, height: size.height)
    }
}
