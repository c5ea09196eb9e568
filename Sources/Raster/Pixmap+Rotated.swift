// SPDX-License-Identifier: MIT
// A whole pixmap turned by a multiple of 90°, pixel for pixel: for images placed in scanout
// coordinates (the firmware's logo) that the HUD's frame, drawn upright, must hold turned back.

extension Pixmap {
    /// This pixmap turned by `rotation` (`Rotation`'s mapping: pixel (x, y) lands at
    /// `rotation.destinationPoint`); `.r0` returns the pixmap itself.
    public func rotated(_ rotation: Rotation) -> Pixmap {
        if rotation == .r0 { return self }
        let size = rotation.outputSize(sourceWidth: width, sourceHeight: height)
        let out = Pixmap(width: size.width, height: size.height)
        for y in 0..<height {
            let row = view.row(y)
            for x in 0..<width {
                let p = rotation.destinationPoint(x: x, y: y, sourceWidth: width, sourceHeight: height)
                out.view.row(p.y)[Int(p.x)] = row[Int(x)]
            }
        }
        return out
    }
}
