// SPDX-License-Identifier: MIT
// Per-format pixel stores for the converting blit, and the ordered-dither thresholds for 565.
//
// Every store writes the format's LITTLE-ENDIAN byte order explicitly: multi-byte words go through
// `.littleEndian` before an (unaligned) `storeBytes`, 24-bit pixels are three byte stores. Nothing
// depends on the host's byte order.
//
// 565 quantisation: a channel v (0...255) becomes q = (v * max + t) / 255 with max = 31 or 63 and a
// threshold t in 0...254. t = 127 everywhere rounds to nearest (v * max / 255 is never exactly
// k + 1/2, since 2 * v * max is even and 255 * odd is odd). Ordered dithering takes t from a 4x4
// Bayer matrix, t = (2 * b + 1) * 255 / 32 for b = 0...15 (7...247, mean 127), so averaged over a
// 4x4 block the output equals v * max / 255. Because t < 255, v = 0 gives 0 and v = 255 gives max
// whatever t is: black, white and saturated primaries stay exact and undithered.

/// A scanout format's pixel store: premultiplied `0xAARRGGBB` in, the format's bytes out.
protocol ScanoutEncoder {
    static var bytesPerPixel: Int { get }
    /// Whether `store` reads its threshold (the span loop then unrolls by the dither period).
    static var usesThreshold: Bool { get }
    /// Stores `argb` at `p` (no alignment needed); `threshold` (0...254) is used by 565 only.
    static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer)
    /// Stores eight consecutive output pixels (threshold-using encoders vectorise this).
    static func store8(_ argb: SIMD8<UInt32>, thresholds: SIMD8<UInt16>, to p: UnsafeMutableRawPointer)
}

extension ScanoutEncoder {
    static var usesThreshold: Bool { false }
    @inline(__always) static func store8(_ argb: SIMD8<UInt32>, thresholds: SIMD8<UInt16>, to p: UnsafeMutableRawPointer) {
        for i in 0..<8 { store(argb[i], threshold: UInt32(thresholds[i]), to: p + i &* bytesPerPixel) }
    }
}

/// `0xAARRGGBB` -> `0xAABBGGRR`.
@inline(__always) func swapRedBlue(_ v: UInt32) -> UInt32 {
    (v & 0xFF00_FF00) | (v >> 16 & 0xFF) | (v & 0xFF) << 16
}

enum ARGB8888Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 4 }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: argb.littleEndian, as: UInt32.self)
    }
}

enum XRGB8888Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 4 }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: (argb | 0xFF00_0000).littleEndian, as: UInt32.self)
    }
}

enum ABGR8888Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 4 }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: swapRedBlue(argb).littleEndian, as: UInt32.self)
    }
}

enum XBGR8888Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 4 }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: (swapRedBlue(argb) | 0xFF00_0000).littleEndian, as: UInt32.self)
    }
}

enum RGB888Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 3 }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: UInt8(truncatingIfNeeded: argb), toByteOffset: 0, as: UInt8.self)  // B
        p.storeBytes(of: UInt8(truncatingIfNeeded: argb >> 8), toByteOffset: 1, as: UInt8.self)  // G
        p.storeBytes(of: UInt8(truncatingIfNeeded: argb >> 16), toByteOffset: 2, as: UInt8.self)  // R
    }
}

enum BGR888Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 3 }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: UInt8(truncatingIfNeeded: argb >> 16), toByteOffset: 0, as: UInt8.self)  // R
        p.storeBytes(of: UInt8(truncatingIfNeeded: argb >> 8), toByteOffset: 1, as: UInt8.self)  // G
        p.storeBytes(of: UInt8(truncatingIfNeeded: argb), toByteOffset: 2, as: UInt8.self)  // B
    }
}

/// Eight pixels' 5:6:5 fields in 16-bit lanes (x <= 255 * 63 + 254 fits), with `x / 255` done as
/// `(x + 1 + x >> 8) >> 8`, exact for x < 65535: SSE2/NEON 16-bit adds, shifts and multiplies only.
@inline(__always) func quantize565(_ argb: SIMD8<UInt32>, thresholds t: SIMD8<UInt16>)
    -> (r: SIMD8<UInt16>, g: SIMD8<UInt16>, b: SIMD8<UInt16>)
{
    let m = SIMD8<UInt32>(repeating: 0xFF)
    let r = SIMD8<UInt16>(truncatingIfNeeded: argb &>> 16 & m)
    let g = SIMD8<UInt16>(truncatingIfNeeded: argb &>> 8 & m)
    let b = SIMD8<UInt16>(truncatingIfNeeded: argb & m)
    func q(_ v: SIMD8<UInt16>, _ max: UInt16) -> SIMD8<UInt16> {
        let x = v &* max &+ t
        return (x &+ 1 &+ (x &>> 8)) &>> 8
    }
    return (q(r, 31), q(g, 63), q(b, 31))
}

/// Stores eight 16-bit pixel values little-endian.
@inline(__always) func storeLittleEndian(_ v: SIMD8<UInt16>, to p: UnsafeMutableRawPointer) {
    var w = v
    #if _endian(big)
    w = w &<< 8 | w &>> 8
    #endif
    p.storeBytes(of: w, as: SIMD8<UInt16>.self)
}

/// Quantises the colour channels of `argb` to 5:6:5 with `threshold` (see the header).
@inline(__always) func quantize565(_ argb: UInt32, threshold t: UInt32) -> (r: UInt32, g: UInt32, b: UInt32) {
    let r = argb >> 16 & 0xFF, g = argb >> 8 & 0xFF, b = argb & 0xFF
    return ((r &* 31 &+ t) / 255, (g &* 63 &+ t) / 255, (b &* 31 &+ t) / 255)
}

enum RGB565Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 2 }
    static var usesThreshold: Bool { true }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        let q = quantize565(argb, threshold: threshold)
        p.storeBytes(of: UInt16(truncatingIfNeeded: q.r << 11 | q.g << 5 | q.b).littleEndian, as: UInt16.self)
    }
    @inline(__always) static func store8(_ argb: SIMD8<UInt32>, thresholds: SIMD8<UInt16>, to p: UnsafeMutableRawPointer) {
        let q = quantize565(argb, thresholds: thresholds)
        storeLittleEndian(q.r &<< 11 | q.g &<< 5 | q.b, to: p)
    }
}

enum BGR565Encoder: ScanoutEncoder {
    static var bytesPerPixel: Int { 2 }
    static var usesThreshold: Bool { true }
    @inline(__always) static func store(_ argb: UInt32, threshold: UInt32, to p: UnsafeMutableRawPointer) {
        let q = quantize565(argb, threshold: threshold)
        p.storeBytes(of: UInt16(truncatingIfNeeded: q.b << 11 | q.g << 5 | q.r).littleEndian, as: UInt16.self)
    }
    @inline(__always) static func store8(_ argb: SIMD8<UInt32>, thresholds: SIMD8<UInt16>, to p: UnsafeMutableRawPointer) {
        let q = quantize565(argb, thresholds: thresholds)
        storeLittleEndian(q.b &<< 11 | q.g &<< 5 | q.r, to: p)
    }
}

/// Ordered-dither thresholds, four 8-bit values packed per row (pixel x & 3 in byte x & 3).
enum Dither {
    /// t = 127 for every pixel: round to nearest.
    static let roundToNearest: UInt32 = 0x7F7F_7F7F

    /// The classic 4x4 Bayer matrix rows, as thresholds for output row `y & 3`.
    @inline(__always) static func row(_ y: Int32) -> UInt32 {
        switch y & 3 {
        case 0: return pack(0, 8, 2, 10)
        case 1: return pack(12, 4, 14, 6)
        case 2: return pack(3, 11, 1, 9)
        default: return pack(15, 7, 13, 5)
        }
    }

    /// The threshold for Bayer index `b` (0...15): the centre of its 1/16 slice of 0...255.
    @inline(__always) static func threshold(_ b: UInt32) -> UInt32 { (2 &* b &+ 1) &* 255 / 32 }

    @inline(__always) static func pack(_ b0: UInt32, _ b1: UInt32, _ b2: UInt32, _ b3: UInt32) -> UInt32 {
        threshold(b0) | threshold(b1) << 8 | threshold(b2) << 16 | threshold(b3) << 24
    }
}
