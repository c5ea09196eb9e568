// SPDX-License-Identifier: MIT
// Colours: straight-alpha RGBA as people write them, premultiplied ARGB32 as the compositor uses.

/// An sRGB colour with straight (non-premultiplied) 8-bit alpha.
public struct Color: Hashable, Sendable {
    public var r, g, b, a: UInt8
    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// `0xRRGGBB` (opaque) or, with `alpha`, any alpha.
    @inlinable public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(r: UInt8(truncatingIfNeeded: rgb >> 16), g: UInt8(truncatingIfNeeded: rgb >> 8), b: UInt8(truncatingIfNeeded: rgb), a: alpha)
    }
    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
    /// The colour with its alpha scaled by `alpha / 255`.
    @inlinable public func withAlpha(_ alpha: UInt8) -> Color { Color(r: r, g: g, b: b, a: alpha) }
    @inlinable public var premultiplied: PremultipliedColor {
        PremultipliedColor(a: a, r: mul255(r, a), g: mul255(g, a), b: mul255(b, a))
    }
}

/// A premultiplied colour packed as native-endian `0xAARRGGBB` (cairo's ARGB32).
public struct PremultipliedColor: Hashable, Sendable {
    public var argb: UInt32
    @inlinable public init(argb: UInt32) { self.argb = argb }
    @inlinable public init(a: UInt8, r: UInt8, g: UInt8, b: UInt8) {
        argb = UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
    @inlinable public var a: UInt8 { UInt8(truncatingIfNeeded: argb >> 24) }
    @inlinable public var r: UInt8 { UInt8(truncatingIfNeeded: argb >> 16) }
    @inlinable public var g: UInt8 { UInt8(truncatingIfNeeded: argb >> 8) }
    @inlinable public var b: UInt8 { UInt8(truncatingIfNeeded: argb) }
    public static let transparent = PremultipliedColor(argb: 0)
    /// Back to straight alpha (rounded); a transparent pixel gives transparent black.
    public var unpremultiplied: Color {
        let alpha = UInt32(a)
        if alpha == 0 { return .clear }
        func u(_ c: UInt8) -> UInt8 { UInt8(Swift.min(255, (UInt32(c) * 255 + alpha / 2) / alpha)) }
        return Color(r: u(r), g: u(g), b: u(b), a: a)
    }
}

/// `x * y / 255`, rounded to nearest, exactly.
@inlinable public func mul255(_ x: UInt8, _ y: UInt8) -> UInt8 {
    let t = UInt32(x) * UInt32(y) + 128
    return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
}
