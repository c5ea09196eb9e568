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
