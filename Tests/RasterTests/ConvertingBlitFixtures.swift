// SPDX-License-Identifier: MIT
// Shared fixtures for the pixel-format tests: a scanout buffer with awkward alignment and stride, the
// asymmetric test pattern, and an independent, obviously-correct byte encoder and blit written
// straight from the drm_fourcc.h table (not from the code under test).

@testable import Raster

/// Scanout-like memory: misaligned base (odd address), padded odd row stride, sentinel-filled so
/// stray writes outside the pixels show up.
final class ScanoutBuffer {
    static let sentinel: UInt8 = 0xA5
    let format: PixelFormat
    let width: Int32, height: Int32, rowBytes: Int
    private let storage: UnsafeMutableRawPointer
    private let byteCount: Int
    let view: SurfaceView

    init(width: Int32, height: Int32, format: PixelFormat, padding: Int = 3) {
        self.format = format; self.width = width; self.height = height
        rowBytes = Int(width) * format.bytesPerPixel + padding
        byteCount = rowBytes * Int(height) + 1
        storage = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: ScanoutBuffer.sentinel, count: byteCount)
        view = SurfaceView(base: storage + 1, width: width, height: height, rowBytes: rowBytes, format: format)
    }
    deinit { storage.deallocate() }

    /// Every byte of the view's memory (rows with their padding).
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: view.base, count: rowBytes * Int(height))) }
    /// Pixel (x, y) decoded by `SurfaceView.readPixel`.
    func readPixel(_ x: Int32, _ y: Int32) -> PremultipliedColor { view.readPixel(x: x, y: y) }
    /// The whole buffer decoded by `SurfaceView.toPixmap`.
    func toPixmap() -> Pixmap { view.toPixmap() }
    /// The raw bytes of pixel (x, y).
    func pixelBytes(_ x: Int32, _ y: Int32) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: view.pixelAddress(x: x, y: y), count: format.bytesPerPixel))
    }
}

enum FormatPattern {
    static let width: Int32 = 13, height: Int32 = 7
    static let red = PremultipliedColor(a: 0xFF, r: 0xFF, g: 0, b: 0)
    static let green = PremultipliedColor(a: 0xFF, r: 0, g: 0xFF, b: 0)
    static let blue = PremultipliedColor(a: 0xFF, r: 0, g: 0, b: 0xFF)
    static let white = PremultipliedColor(a: 0xFF, r: 0xFF, g: 0xFF, b: 0xFF)
    /// Half-transparent, premultiplied: tests that A formats keep alpha and X formats force 0xFF.
    static let translucent = PremultipliedColor(a: 0x80, r: 0x40, g: 0x20, b: 0x10)
    static let translucentAt: (x: Int32, y: Int32) = (6, 3)

    /// 13x7: a red/green gradient with blue varying per pixel, red/green/blue/white corners (TL, TR,
    /// BL, BR), one translucent pixel in the middle. Asymmetric, so every rotation looks different.
    static func make() -> Pixmap {
        let p = Pixmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(x * 255 / (width - 1)), g = UInt8(y * 255 / (height - 1))
                let b = UInt8(truncatingIfNeeded: (x * 37 + y * 91) & 0xFF)
                p[x, y] = PremultipliedColor(a: 0xFF, r: r, g: g, b: b)
            }
        }
        p[0, 0] = red
        p[width - 1, 0] = green
        p[0, height - 1] = blue
        p[width - 1, height - 1] = white
        p[translucentAt.x, translucentAt.y] = translucent
        return p
    }
}

enum FormatReference {
    /// 4x4 Bayer thresholds (2b+1)*255/32 written out by hand, [y & 3][x & 3].
    static let bayer: [[UInt32]] = [
        [7, 135, 39, 167],
        [199, 71, 231, 103],
        [55, 183, 23, 151],
        [247, 119, 215, 87],
    ]

    static func threshold(x: Int32, y: Int32, dither: Bool) -> UInt32 {
        dither ? bayer[Int(y & 3)][Int(x & 3)] : 127
    }

    /// The bytes drm_fourcc.h prescribes for `c` in `format`, lowest address first.
    static func bytes(_ c: PremultipliedColor, _ format: PixelFormat, threshold t: UInt32) -> [UInt8] {
        func q(_ v: UInt8, _ max: UInt32) -> UInt32 { (UInt32(v) * max + t) / 255 }
        func le16(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        switch format {
        case .argb8888: return [c.b, c.g, c.r, c.a]
        case .xrgb8888: return [c.b, c.g, c.r, 0xFF]
        case .abgr8888: return [c.r, c.g, c.b, c.a]
        case .xbgr8888: return [c.r, c.g, c.b, 0xFF]
        case .rgb888: return [c.b, c.g, c.r]
        case .bgr888: return [c.r, c.g, c.b]
        case .rgb565: return le16(q(c.r, 31) << 11 | q(c.g, 63) << 5 | q(c.b, 31))
        case .bgr565: return le16(q(c.b, 31) << 11 | q(c.g, 63) << 5 | q(c.r, 31))
        }
    }

    /// Where source (x, y) of a w x h frame lands, straight from the Rotation docs.
    static func place(_ x: Int32, _ y: Int32, w: Int32, h: Int32, _ r: Rotation) -> (Int32, Int32) {
        switch r {
        case .r0: return (x, y)
        case .r90: return (h - 1 - y, x)
        case .r180: return (w - 1 - x, h - 1 - y)
        case .r270: return (y, w - 1 - x)
        }
    }

    /// Pixel by pixel, byte by byte: the blit as the spec describes it.
    static func blit(_ src: Pixmap, rect: IntRect, to dst: ScanoutBuffer, rotation: Rotation, dither: Bool) {
        let r = rect.intersection(src.view.bounds)
        if r.isEmpty { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX {
                let (dx, dy) = place(x, y, w: src.width, h: src.height, rotation)
                if dx < 0 || dy < 0 || dx >= dst.width || dy >= dst.height { continue }
                let b = bytes(src[x, y], dst.format, threshold: threshold(x: dx, y: dy, dither: dither))
                let p = dst.view.pixelAddress(x: dx, y: dy)
                for (i, v) in b.enumerated() { p.storeBytes(of: v, toByteOffset: i, as: UInt8.self) }
            }
        }
    }

    /// A scanout buffer sized for `src` turned by `rotation`.
    static func buffer(for src: Pixmap, _ format: PixelFormat, _ rotation: Rotation) -> ScanoutBuffer {
        let size = rotation.outputSize(sourceWidth: src.width, sourceHeight: src.height)
        return ScanoutBuffer(width: size.width, height: size.height, format: format)
    }
}

/// The public blit, keeping both owners alive while their views are in use (a view does not retain
/// its memory). `fastPaths: false` takes the general loop even where a memcpy would do.
@discardableResult
func scanoutBlit(
    _ src: Pixmap, _ rect: IntRect? = nil, to dst: ScanoutBuffer, rotation: Rotation, dither: Bool = true,
    fastPaths: Bool = true
) -> IntRect {
    withExtendedLifetime((src, dst)) {
        let r = rect ?? src.view.bounds
        if fastPaths { return convertingBlit(from: src.view, rect: r, to: dst.view, rotation: rotation, dither: dither) }
        return convertingBlit(from: src.view, rect: r, to: dst.view, rotation: rotation, dither: dither, fastPaths: false)
    }
}

/// "XRGB8888-r90": the golden and diagnostic name of one case.
func formatCaseName(_ f: PixelFormat, _ r: Rotation) -> String { "\(f.name)-r\(r.rawValue)" }
