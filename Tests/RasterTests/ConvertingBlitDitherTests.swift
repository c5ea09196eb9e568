// SPDX-License-Identifier: MIT
// 565 quantisation and ordered dithering, and the property damage tracking relies on: blitting any
// damaged rect gives exactly the bytes a full-frame blit gives there.

import Testing

@testable import Raster

@Suite struct ConvertingBlitDitherTests {
    /// Unpacks (r5, g6, b5) from an RGB565 pixel's two bytes.
    private func channels565(_ b: [UInt8]) -> (UInt32, UInt32, UInt32) {
        let v = UInt32(b[0]) | UInt32(b[1]) << 8
        return (v >> 11, v >> 5 & 0x3F, v & 0x1F)
    }

    @Test func roundsToNearestWithoutDither() {
        let src = Pixmap(width: 256, height: 1)
        for v in 0..<256 { src[Int32(v), 0] = PremultipliedColor(a: 0xFF, r: UInt8(v), g: UInt8(v), b: UInt8(255 - v)) }
        let dst = ScanoutBuffer(width: 256, height: 1, format: .rgb565)
        scanoutBlit(src, to: dst, rotation: .r0, dither: false)
        for v in 0..<256 {
            let (r, g, b) = channels565(dst.pixelBytes(Int32(v), 0))
            #expect(r == UInt32((Double(v) * 31 / 255).rounded()), "red \(v)")
            #expect(g == UInt32((Double(v) * 63 / 255).rounded()), "green \(v)")
            #expect(b == UInt32((Double(255 - v) * 31 / 255).rounded()), "blue \(255 - v)")
        }
    }

    @Test(arguments: [PixelFormat.rgb565, .bgr565], Rotation.allCases)
    func extremesStayExactWhenDithered(format: PixelFormat, rotation: Rotation) {
        // Every combination of 0x00/0xFF channels, many times over, so each Bayer cell sees each.
        let src = Pixmap(width: 16, height: 8)
        for y: Int32 in 0..<8 {
            for x: Int32 in 0..<16 {
                let k = UInt32(x + y * 3) & 7
                src[x, y] = PremultipliedColor(a: 0xFF, r: k & 4 != 0 ? 0xFF : 0, g: k & 2 != 0 ? 0xFF : 0, b: k & 1 != 0 ? 0xFF : 0)
            }
        }
        let dst = FormatReference.buffer(for: src, format, rotation)
        scanoutBlit(src, to: dst, rotation: rotation, dither: true)
        let back = dst.toPixmap()
        for y: Int32 in 0..<8 {
            for x: Int32 in 0..<16 {
                let p = rotation.destinationPoint(x: x, y: y, sourceWidth: 16, sourceHeight: 8)
                #expect(back[p.x, p.y] == src[x, y], "(\(x), \(y)) \(format.name) \(rotation)")
            }
        }
    }

    @Test func ditheredFlatGreyAveragesToTheInput() {
        // Over each 4x4 block the 16 thresholds are used once: the mean output must equal the input
        // to within a sixteenth of a 5-bit step, while plain rounding is off by up to half a step.
        for v in stride(from: 0, through: 255, by: 5) {
            let src = Pixmap(width: 4, height: 4)
            src.view.fill(src.view.bounds, with: PremultipliedColor(a: 0xFF, r: UInt8(v), g: UInt8(v), b: UInt8(v)))
            let dst = ScanoutBuffer(width: 4, height: 4, format: .rgb565)
            scanoutBlit(src, to: dst, rotation: .r0, dither: true)
            var sumR = 0.0, sumG = 0.0
            var distinct = Set<UInt32>()
            for y: Int32 in 0..<4 {
                for x: Int32 in 0..<4 {
                    let (r, g, _) = channels565(dst.pixelBytes(x, y))
                    sumR += Double(r); sumG += Double(g); distinct.insert(r)
                }
            }
            #expect(abs(sumR / 16 - Double(v) * 31 / 255) <= 1.0 / 16 + 1e-9, "red mean for \(v)")
            #expect(abs(sumG / 16 - Double(v) * 63 / 255) <= 1.0 / 16 + 1e-9, "green mean for \(v)")
            #expect(distinct.count <= 2)
            // Mid-tones between two 5-bit levels really are dithered (two levels used).
            if v * 31 % 255 >= 32 && v * 31 % 255 <= 223 { #expect(distinct.count == 2, "grey \(v) not dithered") }
        }
    }

    /// Damage rects with odd origins and sizes (so Bayer phase and tile edges are exercised), covering
    /// the 13x7 frame exactly between them.
    static let damage: [IntRect] = [
        IntRect(x: 0, y: 0, width: 5, height: 3), IntRect(x: 5, y: 0, width: 8, height: 2),
        IntRect(x: 5, y: 2, width: 3, height: 1), IntRect(x: 8, y: 2, width: 5, height: 5),
        IntRect(x: 0, y: 3, width: 1, height: 4), IntRect(x: 1, y: 3, width: 7, height: 4),
    ]

    @Test(arguments: PixelFormat.allCases, Rotation.allCases)
    func partialBlitEqualsSameRegionOfFullBlit(format: PixelFormat, rotation: Rotation) {
        let src = FormatPattern.make()
        for dither in [true, false] {
            let full = FormatReference.buffer(for: src, format, rotation)
            scanoutBlit(src, to: full, rotation: rotation, dither: dither)
            let pieced = FormatReference.buffer(for: src, format, rotation)
            for rect in Self.damage {
                // One damage rect alone: its rotated region equals the full blit, the rest is untouched.
                let one = FormatReference.buffer(for: src, format, rotation)
                let written = scanoutBlit(src, rect, to: one, rotation: rotation, dither: dither)
                #expect(written == rotation.destinationRect(for: rect, sourceWidth: src.width, sourceHeight: src.height))
                for y in 0..<one.height {
                    for x in 0..<one.width {
                        let inside = written.contains(IntRect(x: x, y: y, width: 1, height: 1))
                        let want = inside ? full.pixelBytes(x, y) : [UInt8](repeating: ScanoutBuffer.sentinel, count: format.bytesPerPixel)
                        #expect(one.pixelBytes(x, y) == want, "\(formatCaseName(format, rotation)) rect \(rect) at (\(x), \(y))")
                    }
                }
                scanoutBlit(src, rect, to: pieced, rotation: rotation, dither: dither)
            }
            #expect(pieced.bytes == full.bytes, "\(formatCaseName(format, rotation)) dither \(dither)")
        }
    }

    @Test func largeRotatedFrameMatchesReferenceAcrossTiles() {
        // Bigger than one 32x16 tile in both directions, with ragged edges, in the dithered format.
        let src = Pixmap(width: 45, height: 70)
        var seed: UInt32 = 12345
        for y: Int32 in 0..<70 {
            for x: Int32 in 0..<45 {
                seed = seed &* 1_103_515_245 &+ 12345
                src[x, y] = PremultipliedColor(argb: seed | 0xFF00_0000)
            }
        }
        for r in Rotation.allCases {
            for f in [PixelFormat.rgb565, .xbgr8888, .bgr888] {
                let got = FormatReference.buffer(for: src, f, r), want = FormatReference.buffer(for: src, f, r)
                let rect = IntRect(x: 3, y: 5, width: 39, height: 61)
                scanoutBlit(src, rect, to: got, rotation: r)
                FormatReference.blit(src, rect: rect, to: want, rotation: r, dither: true)
                #expect(got.bytes == want.bytes, "\(formatCaseName(f, r))")
            }
        }
    }
}
