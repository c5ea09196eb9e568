// SPDX-License-Identifier: MIT
// Premultiplied ARGB32 compositing in integers, two channels at a time (0x00RR00BB and 0x00AA00GG
// lanes of one UInt32), with exact rounding of x·a/255: t = x·a + 128; (t + (t >> 8)) >> 8.

/// Every channel of `c` times `a / 255`, rounded to nearest.
@inlinable @inline(__always)
public func scalePixel(_ c: UInt32, _ a: UInt32) -> UInt32 {
    var rb = (c & 0x00FF_00FF) &* a &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((c >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// Porter-Duff source-over of premultiplied pixels: s + d·(1 − αs).
@inlinable @inline(__always)
public func sourceOver(_ s: UInt32, _ d: UInt32) -> UInt32 {
    s &+ scalePixel(d, 255 &- (s >> 24))
}

/// `a` and `b` mixed by `t / 255` (t = 255 gives `b`).
@inlinable @inline(__always)
public func mixPixel(_ a: UInt32, _ b: UInt32, _ t: UInt32) -> UInt32 {
    scalePixel(b, t) &+ scalePixel(a, 255 &- t)
}

/// How a paint combines with what is already there.
public enum BlendMode: Sendable {
    /// Porter-Duff source-over: the normal way of drawing.
    case sourceOver
    /// Porter-Duff source: replaces what is there (blended only by coverage at the edges).
    case source
}

/// `d[i] = add + d[i]·k/255` for every channel of `n` pixels, exactly as `scalePixel` rounds:
/// source-over of one colour (`add` = the colour, k = 255 − its alpha) and coverage blends of
/// one colour are both this. Four pixels at a time in 16-bit lanes (SSE2 / NEON `pmullw`/`mul`),
/// byte lanes independent of the host's byte order.
@inlinable
public func scaleAndAdd(_ d: UnsafeMutablePointer<UInt32>, count n: Int, add: UInt32, k: UInt32) {
    let raw = UnsafeMutableRawPointer(d)
    let kv = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: k))
    let addv = unsafeBitCast(SIMD4<UInt32>(repeating: add), to: SIMD16<UInt8>.self)
    let bias = SIMD8<UInt16>(repeating: 128)
    var i = 0
    while i + 4 <= n {
        let px = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
        var lo = SIMD8<UInt16>(truncatingIfNeeded: px.lowHalf) &* kv &+ bias
        var hi = SIMD8<UInt16>(truncatingIfNeeded: px.highHalf) &* kv &+ bias
        lo = (lo &+ (lo &>> 8)) &>> 8
        hi = (hi &+ (hi &>> 8)) &>> 8
        let out = SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: lo), highHalf: SIMD8<UInt8>(truncatingIfNeeded: hi)) &+ addv
        raw.storeBytes(of: out, toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
        i &+= 4
    }
    while i < n {
        d[i] = add &+ scalePixel(d[i], k)
        i &+= 1
    }
}

/// Source-over of one colour through a row of coverage: `d[i] = s·m[i] + d[i]·(1 − αs·m[i])`,
/// rounded exactly as `sourceOver(scalePixel(s, m[i]), d[i])` (text and cached masks). Four
/// pixels at a time in 16-bit lanes; runs of four zero-coverage pixels are skipped.
@inlinable
public func maskedSourceOver(_ d: UnsafeMutablePointer<UInt32>, coverage m: UnsafePointer<UInt8>, count n: Int, color s: UInt32) {
    let raw = UnsafeMutableRawPointer(d)
    let sLanes = unsafeBitCast(SIMD4<UInt32>(repeating: s), to: SIMD16<UInt8>.self)
    let sLo = SIMD8<UInt16>(truncatingIfNeeded: sLanes.lowHalf), sHi = SIMD8<UInt16>(truncatingIfNeeded: sLanes.highHalf)
    let sAlpha = SIMD8<UInt16>(repeating: UInt16(s >> 24))
    let bias = SIMD8<UInt16>(repeating: 128), full = SIMD8<UInt16>(repeating: 255)
    @inline(__always) func div255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> { (t &+ (t &>> 8)) &>> 8 }
    var i = 0
    while i + 4 <= n {
        let cov = UnsafeRawPointer(m + i).loadUnaligned(as: UInt32.self)
        if cov != 0 {
            // Each pixel's coverage repeated over its four byte lanes (byte order does not matter:
            // the same value fills the pixel).
            let c = SIMD4<UInt32>(UInt32(m[i]), UInt32(m[i + 1]), UInt32(m[i + 2]), UInt32(m[i + 3])) &* 0x0101_0101
            let cb = unsafeBitCast(c, to: SIMD16<UInt8>.self)
            let cLo = SIMD8<UInt16>(truncatingIfNeeded: cb.lowHalf), cHi = SIMD8<UInt16>(truncatingIfNeeded: cb.highHalf)
            let px = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            let dLo = SIMD8<UInt16>(truncatingIfNeeded: px.lowHalf), dHi = SIMD8<UInt16>(truncatingIfNeeded: px.highHalf)
            // s·c, and 1 − αs·c for every lane of the pixel.
            let scLo = div255(sLo &* cLo &+ bias), scHi = div255(sHi &* cHi &+ bias)
            let invLo = full &- div255(sAlpha &* cLo &+ bias), invHi = full &- div255(sAlpha &* cHi &+ bias)
            let outLo = scLo &+ div255(dLo &* invLo &+ bias), outHi = scHi &+ div255(dHi &* invHi &+ bias)
            let out = SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: outLo), highHalf: SIMD8<UInt8>(truncatingIfNeeded: outHi))
            raw.storeBytes(of: out, toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
        }
        i &+= 4
    }
    while i < n {
        let a = UInt32(m[i])
        if a != 0 { d[i] = sourceOver(scalePixel(s, a), d[i]) }
        i &+= 1
    }
}
