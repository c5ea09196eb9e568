// SPDX-License-Identifier: MIT
import Testing
import Raster

@Suite("Compositing")
struct CompositeTests {
    /// The obviously correct per-channel formula, in plain integers.
    func reference(_ d: UInt32, add: UInt32, k: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let dc = (d >> shift) & 0xFF, ac = (add >> shift) & 0xFF
            let scaled = (dc * k + 127) / 255  // round(dc·k/255): no ties occur, as 255 is odd
            out |= ((ac + scaled) & 0xFF) << shift
        }
        return out
    }

    @Test func scalePixelRoundsExactly() {
        for x: UInt32 in stride(from: 0, through: 255, by: 1) {
            for a: UInt32 in stride(from: 0, through: 255, by: 5) {
                let p = x * 0x0101_0101
                #expect(scalePixel(p, a) == reference(p, add: 0, k: a), "x \(x) a \(a)")
            }
        }
    }

    @Test(arguments: [0, 1, 3, 4, 5, 17, 64])
    func vectorKernelMatchesTheReference(count: Int) {
        var rng = XorShift(state: 0xDEAD_BEEF &+ UInt64(count))
        for _ in 0..<50 {
            let alpha = UInt32(rng.next() % 256)
            let add = Color(r: UInt8(rng.next() % 256), g: UInt8(rng.next() % 256), b: UInt8(rng.next() % 256), a: UInt8(alpha)).premultiplied.argb
            let k = 255 - alpha
            var pixels = (0..<count).map { _ -> UInt32 in
                let a = UInt8(rng.next() % 256)
                return Color(r: UInt8(rng.next() % 256), g: UInt8(rng.next() % 256), b: UInt8(rng.next() % 256), a: a).premultiplied.argb
            }
            let expected = pixels.map { reference($0, add: add, k: k) }
            pixels.withUnsafeMutableBufferPointer { scaleAndAdd($0.baseAddress!, count: count, add: add, k: k) }
            #expect(pixels == expected)
        }
    }

    @Test(arguments: [1, 4, 7, 33])
    func maskedKernelMatchesScalarSourceOver(count: Int) {
        var rng = XorShift(state: 0xC0FF_EE00 &+ UInt64(count))
        for _ in 0..<50 {
            let color = Color(r: UInt8(rng.next() % 256), g: UInt8(rng.next() % 256), b: UInt8(rng.next() % 256), a: UInt8(rng.next() % 256)).premultiplied.argb
            // Coverage with zero runs, full pixels and partial ones.
            let mask = (0..<count).map { _ -> UInt8 in [0, 0, 255, UInt8(rng.next() % 256)][Int(rng.next() % 4)] }
            var pixels = (0..<count).map { _ in
                Color(r: UInt8(rng.next() % 256), g: UInt8(rng.next() % 256), b: UInt8(rng.next() % 256), a: UInt8(rng.next() % 256)).premultiplied.argb
            }
            let expected = zip(pixels, mask).map { sourceOver(scalePixel(color, UInt32($1)), $0) }
            pixels.withUnsafeMutableBufferPointer { d in
                mask.withUnsafeBufferPointer { maskedSourceOver(d.baseAddress!, coverage: $0.baseAddress!, count: count, color: color) }
            }
            #expect(pixels == expected)
        }
    }

    @Test func sourceOverOfPremultipliedPixelsNeverOverflows() {
        let s = Color.white.withAlpha(242).premultiplied.argb
        #expect(sourceOver(s, 0xFFFF_FFFF) == 0xFFFF_FFFF)
        #expect(sourceOver(Color.black.withAlpha(102).premultiplied.argb, Color(rgb: 0x204060).premultiplied.argb) == 0xFF13_263A)
    }
}
