// SPDX-License-Identifier: MIT
// Frames for the display tests, drawn with Raster as the HUD would draw them.

import Raster

enum Fixtures {
    /// An opaque frame with smooth gradients (so 565 dithering has work), a translucent-looking
    /// antialiased disc and hard edges: what a HUD frame over its backdrop holds.
    static func hudLikeFrame(width: Int32, height: Int32, seed: UInt32 = 0) -> Pixmap {
        let frame = Pixmap(width: width, height: height)
        let canvas = Canvas(frame.view)
        canvas.fill(
            frame.view.bounds,
            .linear(
                start: Point(0, 0), end: Point(Double(width), Double(height)),
                stops: [GradientStop(0, Color(rgb: 0x102030 ^ seed)), GradientStop(1, Color(rgb: 0xE0C0A0))]))
        let r = Double(min(width, height)) / 3
        canvas.fill(
            .circle(center: Point(Double(width) / 2 + Double(seed % 7), Double(height) / 2), radius: Fixed16_16(r)),
            .solid(Color(r: 250, g: 250, b: 250, a: 200)))
        canvas.fill(IntRect(x: 1, y: 1, width: width / 5, height: 3), .solid(Color(r: 255, g: 0, b: 0)))
        canvas.flush()
        return frame
    }
}
