// SPDX-License-Identifier: MIT
// How golden images are stored, so that a premultiplied pixmap round-trips BIT-EXACTLY and the
// file still looks right in an ordinary image viewer:
//
//  - Normally: an ordinary PNG written by `PNGEncoder` (RGB8 when opaque, straight-alpha RGBA8
//    otherwise). Un-premultiplying and re-premultiplying is exact for every VALID premultiplied
//    pixel (each colour channel <= alpha): with s = round(c * 255 / a), |s * a / 255 - c| < 1/2,
//    so mul255 gives c back. (The lossy direction is straight -> premultiplied -> straight, which
//    goldens never take.) PNGGoldenHarnessTests checks all 32,896 (a, c) pairs.
//  - Fallback, only when a pixel is invalid (a channel above alpha), which straight alpha cannot
//    express: the premultiplied R, G, B, A bytes are stored AS IS in an RGBA8 PNG marked with the
//    tEXt chunk `splashhud-premultiplied` = `1`. Such a file looks too dark where translucent.
//  `encode` decodes what it wrote and takes the fallback whenever the pixels do not come back.
//
// `decode` honours the marker; a PNG without it (including one drawn by hand) is taken as
// straight alpha and premultiplied with `mul255`.

import Assets
import Raster

/// Encoding and decoding of golden PNGs (see the file header for the format).
public enum GoldenImage {
    /// tEXt keyword marking a PNG whose RGBA channels hold premultiplied values.
    public static let premultipliedKeyword = "splashhud-premultiplied"

    /// The golden PNG for `view`: an ordinary PNG when it decodes back to exactly these pixels,
    /// premultiplied RGBA8 + marker otherwise.
    public static func encode(_ view: PixmapView) throws -> [UInt8] {
        let plain = try PNGEncoder.encode(view)
        if try decode(plain).view.pixelsEqual(view) { return plain }
        var samples = [UInt8]()
        samples.reserveCapacity(Int(view.width) * Int(view.height) * 4)
        for y in 0..<view.height {
            let row = view.row(y)
            for x in 0..<Int(view.width) {
                let c = PremultipliedColor(argb: row[x])
                samples.append(c.r); samples.append(c.g); samples.append(c.b); samples.append(c.a)
            }
        }
        return try PNGEncoder.encode(samples: samples, width: UInt32(view.width), height: UInt32(view.height),
                                     colorType: .rgba, text: [PNGTextChunk(keyword: premultipliedKeyword, text: "1")])
    }

    /// Premultiplied pixels of a golden PNG.
    public static func decode(_ bytes: [UInt8]) throws -> Pixmap {
        let raw = try PNGDecoder.decodeRaw(bytes)
        guard raw.text(forKeyword: premultipliedKeyword) != nil else { return raw.premultiplied() }
        let pixmap = Pixmap(width: Int32(raw.width), height: Int32(raw.height))
        var i = 0
        for y in 0..<pixmap.height {
            let row = pixmap.view.row(y)
            for x in 0..<Int(pixmap.width) {
                row[x] = PremultipliedColor(a: raw.rgba[i + 3], r: raw.rgba[i], g: raw.rgba[i + 1], b: raw.rgba[i + 2]).argb
                i += 4
            }
        }
        return pixmap
    }

    /// Pixels differing between two same-sized views by more than `tolerance` in any channel, and
    /// the largest channel difference seen anywhere.
    public static func difference(_ expected: PixmapView, _ actual: PixmapView, tolerance: UInt8)
        -> (differingPixels: Int, maxChannelDelta: UInt8)
    {
        precondition(expected.width == actual.width && expected.height == actual.height, "sizes differ")
        var count = 0
        var maxDelta: UInt8 = 0
        for y in 0..<expected.height {
            let e = expected.row(y), a = actual.row(y)
            for x in 0..<Int(expected.width) where e[x] != a[x] {
                let delta = channelDelta(e[x], a[x])
                maxDelta = max(maxDelta, delta)
                if delta > tolerance { count += 1 }
            }
        }
        return (count, maxDelta)
    }

    /// The diff picture: pixels differing by more than `tolerance` in opaque red, every other pixel
    /// a dimmed grey copy of `expected` (its luma over black, squeezed into 64...127).
    public static func diffImage(_ expected: PixmapView, _ actual: PixmapView, tolerance: UInt8) -> Pixmap {
        let diff = Pixmap(width: expected.width, height: expected.height)
        for y in 0..<expected.height {
            let e = expected.row(y), a = actual.row(y), d = diff.view.row(y)
            for x in 0..<Int(expected.width) {
                if channelDelta(e[x], a[x]) > tolerance {
                    d[x] = 0xFFFF_0000
                } else {
                    let c = PremultipliedColor(argb: e[x])
                    let luma = (UInt32(c.r) * 54 + UInt32(c.g) * 183 + UInt32(c.b) * 19) >> 8
                    let grey = UInt8(truncatingIfNeeded: 64 + luma / 4)
                    d[x] = PremultipliedColor(a: 255, r: grey, g: grey, b: grey).argb
                }
            }
        }
        return diff
    }

    private static func channelDelta(_ p: UInt32, _ q: UInt32) -> UInt8 {
        var delta: UInt8 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let a = UInt8(truncatingIfNeeded: p >> shift), b = UInt8(truncatingIfNeeded: q >> shift)
            delta = max(delta, a > b ? a - b : b - a)
        }
        return delta
    }
}

extension PixmapView {
    /// Same size and the same 32-bit value at every pixel (row padding ignored).
    public func pixelsEqual(_ other: PixmapView) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for y in 0..<height where !UnsafeBufferPointer(start: row(y), count: Int(width))
            .elementsEqual(UnsafeBufferPointer(start: other.row(y), count: Int(width))) {
            return false
        }
        return true
    }
}
