// SPDX-License-Identifier: MIT
// The frames the DRM end-to-end test shows, built with Raster alone (no fonts): the guest presents
// them on the real driver, the host test (Tests/QEMUTests/DRMEndToEndTests.swift, `@testable
// import` of this module) on a MemoryDisplay, and the screendumps must equal that scanout.
import Raster

enum DRMGuestFrames {
    /// The three presents: a full frame, then two partial ones. The third goes into the buffer that
    /// last received frame 1, so it shows whether that buffer is brought up to date with frame 2's
    /// damage as well (PageDamage' bookkeeping on real flips).
    static func steps(width: Int32, height: Int32) -> [(name: String, damage: [IntRect], draw: (PixmapView) -> Void)] {
        let a = IntRect(x: width / 8, y: height / 6, width: width / 4, height: height / 4)
        let b = IntRect(x: width / 2, y: height / 2, width: width / 5, height: height / 7)
        let c = IntRect(x: width / 2 - 20, y: height / 2 - 10, width: 60, height: 30)
        return [
            ("frame-1", [IntRect(x: 0, y: 0, width: width, height: height)], { pattern($0) }),
            ("frame-2", [a], { $0.fill(a, with: PremultipliedColor(argb: 0xFF33_66CC)) }),
            ("frame-3", [b, c], { v in
                v.fill(b, with: PremultipliedColor(argb: 0xFFFF_CC00))
                v.fill(c, with: PremultipliedColor(argb: 0xFF00_FF7F))
            }),
        ]
    }

    /// The frame presented after DRM master was lost and regained: one more partial change.
    static func afterMasterLoss(width: Int32, height: Int32) -> (name: String, damage: [IntRect], draw: (PixmapView) -> Void) {
        let d = IntRect(x: width * 3 / 4, y: height / 10, width: width / 6, height: height / 3)
        return ("frame-4", [d], { $0.fill(d, with: PremultipliedColor(argb: 0xFFE0_2040)) })
    }

    /// Every pixel different from its neighbours in some channel, so a wrong pitch, offset, byte
    /// order or rotation cannot go unnoticed: red = x, green = y, blue = x xor y (low 8 bits).
    static func pattern(_ v: PixmapView) {
        for y in 0..<v.height {
            let row = v.row(y)
            for x in 0..<v.width {
                let r = UInt32(x) & 0xFF, g = UInt32(y) & 0xFF, b = (UInt32(x) ^ UInt32(y)) >> 1 & 0xFF
                row[Int(x)] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }
}
