// SPDX-License-Identifier: MIT
// What each format x rotation looks like once read back: the 13x7 pattern blitted (dithered) and
// decoded with SurfaceView.toPixmap, compared with Golden/Formats/<FORMAT>-r<degrees>.png.

import GoldenSupport
import Raster
import Testing

@Suite struct ConvertingBlitGoldenTests {
    @Test(arguments: PixelFormat.allCases, Rotation.allCases)
    func readBackMatchesGolden(format: PixelFormat, rotation: Rotation) {
        let src = FormatPattern.make()
        let dst = FormatReference.buffer(for: src, format, rotation)
        scanoutBlit(src, to: dst, rotation: rotation, dither: true)
        let back = dst.toPixmap()
        expectGolden(back, formatCaseName(format, rotation), suite: "Formats")

        // The read-back is the source (rotated) up to each format's precision.
        let tolerance: Int32 = format.bytesPerPixel == 2 ? 8 : 0
        for y in 0..<src.height {
            for x in 0..<src.width {
                let p = rotation.destinationPoint(x: x, y: y, sourceWidth: src.width, sourceHeight: src.height)
                let want = src[x, y], got = back[p.x, p.y]
                let close = [(want.r, got.r), (want.g, got.g), (want.b, got.b)].allSatisfy { abs(Int32($0.0) - Int32($0.1)) <= tolerance }
                #expect(close, "\(formatCaseName(format, rotation)) (\(x), \(y)): \(got) vs \(want)")
                #expect(got.a == (format.hasAlpha ? want.a : 0xFF))
            }
        }
    }

    @Test(arguments: [true, false])
    func rgb565GreyRampShowsDithering(dither: Bool) {
        // A slow 64-pixel ramp over 0x40...0x60: banded when rounded, Bayer-dithered otherwise.
        let src = Pixmap(width: 64, height: 8)
        for x: Int32 in 0..<64 {
            let v = UInt8(0x40 + x / 2)
            src.view.fill(IntRect(x: x, y: 0, width: 1, height: 8), with: PremultipliedColor(a: 0xFF, r: v, g: v, b: v))
        }
        let dst = ScanoutBuffer(width: 64, height: 8, format: .rgb565)
        scanoutBlit(src, to: dst, rotation: .r0, dither: dither)
        expectGolden(dst.toPixmap(), dither ? "RGB565-ramp-dithered" : "RGB565-ramp-rounded", suite: "Formats")
    }
}
