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
