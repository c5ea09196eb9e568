// SPDX-License-Identifier: MIT
// The converting blit at the byte level: known pixels, byte order, corner placement per rotation,
// clipping, and the full pattern against the independent reference blit.

import Testing

@testable import Raster

@Suite struct ConvertingBlitTests {
    /// A 1-row pixmap of the given pixels.
    private func strip(_ colors: [PremultipliedColor]) -> Pixmap {
        let p = Pixmap(width: Int32(colors.count), height: 1)
        for (i, c) in colors.enumerated() { p[Int32(i), 0] = c }
        return p
    }

    @Test(arguments: [true, false])
    func exactByteSequencesInMemory(fastPaths: Bool) {
        // Red, green, blue, the translucent pixel, white: the whole row as raw bytes, whatever the host.
        let src = strip([FormatPattern.red, FormatPattern.green, FormatPattern.blue, FormatPattern.translucent, FormatPattern.white])
        let expected: [PixelFormat: [UInt8]] = [
            .argb8888: [0, 0, 0xFF, 0xFF, 0, 0xFF, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0x10, 0x20, 0x40, 0x80, 0xFF, 0xFF, 0xFF, 0xFF],
            .xrgb8888: [0, 0, 0xFF, 0xFF, 0, 0xFF, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0x10, 0x20, 0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            .abgr8888: [0xFF, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0, 0xFF, 0xFF, 0x40, 0x20, 0x10, 0x80, 0xFF, 0xFF, 0xFF, 0xFF],
            .xbgr8888: [0xFF, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0, 0xFF, 0xFF, 0x40, 0x20, 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            .rgb888: [0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0, 0x10, 0x20, 0x40, 0xFF, 0xFF, 0xFF],
            .bgr888: [0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0x40, 0x20, 0x10, 0xFF, 0xFF, 0xFF],
            // 0x40 -> r5 8, 0x20 -> g6 8, 0x10 -> b5 2 (rounded): 0100 0001 0000 0010 = 0x4102.
            .rgb565: [0x00, 0xF8, 0xE0, 0x07, 0x1F, 0x00, 0x02, 0x41, 0xFF, 0xFF],
            // b5 2, g6 8, r5 8: 0001 0001 0000 1000 = 0x1108.
            .bgr565: [0x1F, 0x00, 0xE0, 0x07, 0x00, 0xF8, 0x08, 0x11, 0xFF, 0xFF],
        ]
        for f in PixelFormat.allCases {
            let dst = ScanoutBuffer(width: 5, height: 1, format: f, padding: 2)
            scanoutBlit(src, to: dst, rotation: .r0, dither: false, fastPaths: fastPaths)
            #expect(dst.bytes == expected[f]! + [ScanoutBuffer.sentinel, ScanoutBuffer.sentinel], "\(f.name)")
        }
    }

    /// The 0° XRGB8888 loop of its own: eight pixels at a time, then the rest; within the rect only
    /// (the buffer is one byte off alignment and padded with sentinels), X always 0xFF.
    @Test func xrgb8888AtZeroDegreesWritesTheRectLikeTheGeneralLoop() {
        let src = Pixmap(width: 45, height: 5)
        for y in Int32(0)..<5 {
            for x in Int32(0)..<45 {
                let a = UInt8(truncatingIfNeeded: x &* 37 &+ y &* 11)
                src[x, y] = PremultipliedColor(a: a, r: a / 2, g: a / 3, b: a / 5)
            }
        }
        for rect in [IntRect(x: 3, y: 1, width: 37, height: 3), IntRect(x: 0, y: 0, width: 8, height: 5), IntRect(x: 40, y: 2, width: 5, height: 1)] {
            let fast = ScanoutBuffer(width: 45, height: 5, format: .xrgb8888), general = ScanoutBuffer(width: 45, height: 5, format: .xrgb8888)
            #expect(scanoutBlit(src, rect, to: fast, rotation: .r0, fastPaths: true) == rect)
            scanoutBlit(src, rect, to: general, rotation: .r0, fastPaths: false)
            #expect(fast.bytes == general.bytes, "\(rect)")
            #expect(fast.readPixel(rect.x, rect.y) == PremultipliedColor(argb: src[rect.x, rect.y].argb | 0xFF00_0000))
        }
    }

    @Test func knownPixelsOfThePattern() {
        let src = FormatPattern.make()
        for f in PixelFormat.allCases {
            let dst = ScanoutBuffer(width: src.width, height: src.height, format: f)
            scanoutBlit(src, to: dst, rotation: .r0)
            let red = dst.pixelBytes(0, 0)
            switch f {
            case .xrgb8888, .argb8888: #expect(red == [0x00, 0x00, 0xFF, 0xFF])
            case .xbgr8888, .abgr8888: #expect(red == [0xFF, 0x00, 0x00, 0xFF])
            case .rgb888: #expect(red == [0x00, 0x00, 0xFF])
            case .bgr888: #expect(red == [0xFF, 0x00, 0x00])
            case .rgb565: #expect(red == [0x00, 0xF8])
            case .bgr565: #expect(red == [0x1F, 0x00])
            }
            let t = dst.readPixel(FormatPattern.translucentAt.x, FormatPattern.translucentAt.y)
            #expect(t.a == (f.hasAlpha ? 0x80 : 0xFF), "\(f.name) alpha")
        }
    }

    @Test func cornersLandWhereEachRotationSays() {
        let src = FormatPattern.make()
        // Output positions of the TL (red), TR (green), BL (blue), BR (white) corners, written by hand
        // for the 13x7 pattern: r90 turns it clockwise into 7x13, so red goes to the top-right.
        let corners: [Rotation: [(Int32, Int32)]] = [
            .r0: [(0, 0), (12, 0), (0, 6), (12, 6)],
            .r90: [(6, 0), (6, 12), (0, 0), (0, 12)],
            .r180: [(12, 6), (0, 6), (12, 0), (0, 0)],
            .r270: [(0, 12), (0, 0), (6, 12), (6, 0)],
        ]
        let colors = [FormatPattern.red, FormatPattern.green, FormatPattern.blue, FormatPattern.white]
        for f in PixelFormat.allCases {
            for r in Rotation.allCases {
                let dst = FormatReference.buffer(for: src, f, r)
                #expect((dst.width, dst.height) == (r.swapsAxes ? (7, 13) : (13, 7)))
                scanoutBlit(src, to: dst, rotation: r)
                for (c, (x, y)) in zip(colors, corners[r]!) {
                    #expect(dst.readPixel(x, y) == c, "\(formatCaseName(f, r)) corner at (\(x), \(y))")
                }
            }
        }
    }

    @Test func wholePatternMatchesReferenceInEveryFormatAndRotation() {
        let src = FormatPattern.make()
        for f in PixelFormat.allCases {
            for r in Rotation.allCases {
                for dither in [true, false] {
                    for fastPaths in [true, false] {
                        let got = FormatReference.buffer(for: src, f, r), want = FormatReference.buffer(for: src, f, r)
                        let written = scanoutBlit(src, to: got, rotation: r, dither: dither,
                            fastPaths: fastPaths)
                        FormatReference.blit(src, rect: src.view.bounds, to: want, rotation: r, dither: dither)
                        #expect(written == got.view.bounds)
                        #expect(got.bytes == want.bytes, "\(formatCaseName(f, r)) dither \(dither) fast \(fastPaths)")
                    }
                }
            }
        }
    }

    @Test func rotationRectsMatchPointMapping() {
        let w: Int32 = 13, h: Int32 = 7
        let rect = IntRect(x: 2, y: 1, width: 4, height: 5)
        for r in Rotation.allCases {
            let d = r.destinationRect(for: rect, sourceWidth: w, sourceHeight: h)
            var points: [IntRect] = []
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX {
                    let p = r.destinationPoint(x: x, y: y, sourceWidth: w, sourceHeight: h)
                    #expect(p == FormatReference.place(x, y, w: w, h: h, r), "\(r)")
                    points.append(IntRect(x: p.x, y: p.y, width: 1, height: 1))
                }
            }
            #expect(points.reduce(IntRect.zero) { $0.union($1) } == d, "\(r)")
            #expect(Int64(points.count) == d.area)
            #expect(r.inverse.destinationRect(for: d, sourceWidth: r.swapsAxes ? h : w, sourceHeight: r.swapsAxes ? w : h) == rect)
        }
    }

    @Test func clipsToSourceAndDestination() {
        let src = FormatPattern.make()
        for r in Rotation.allCases {
            // A destination smaller than the rotated frame, and a rect hanging off the source.
            let out = r.outputSize(sourceWidth: src.width, sourceHeight: src.height)
            let small = ScanoutBuffer(width: out.width - 2, height: out.height - 3, format: .rgb888)
            let want = ScanoutBuffer(width: out.width - 2, height: out.height - 3, format: .rgb888)
            let rect = IntRect(x: -4, y: 2, width: 40, height: 40)
            let written = scanoutBlit(src, rect, to: small, rotation: r)
            FormatReference.blit(src, rect: rect, to: want, rotation: r, dither: true)
            #expect(small.bytes == want.bytes, "\(r)")
            #expect(small.view.bounds.contains(written) && !written.isEmpty)
            let nothing = scanoutBlit(src, IntRect(x: 20, y: 0, width: 5, height: 5), to: small, rotation: r)
            #expect(nothing.isEmpty)
        }
    }
}
