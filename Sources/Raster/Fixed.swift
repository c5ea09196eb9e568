// SPDX-License-Identifier: MIT
// Named fixed-point types. Geometry is carried in 16.16 (`Fixed16_16`); the scan converter works in
// 24.8 (`Fixed24_8`, a 256th of a pixel, as FreeType's gray rasterizer does). Every conversion is
// explicit, and arithmetic traps on overflow in debug builds (wrapping only where a release build
// removes the check, so the hot paths cost nothing).

/// A signed 16.16 fixed-point number: `raw / 65536`. Range ±32768 with a precision of 1/65536.
public struct Fixed16_16: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var raw: Int32

    public static let fractionBits: Int32 = 16
    public static let one = Fixed16_16(raw: 1 << 16)
    public static let half = Fixed16_16(raw: 1 << 15)
    public static let zero = Fixed16_16(raw: 0)
    public static let max = Fixed16_16(raw: .max)
    public static let min = Fixed16_16(raw: .min)

    @inlinable public init(raw: Int32) { self.raw = raw }

    /// An exact integer value; traps if it does not fit (±32767).
    @inlinable public init(_ integer: Int32) {
        precondition(integer >= -32768 && integer < 32768, "Fixed16_16 out of range: \(integer)")
        raw = integer << 16
    }

    /// An exact integer value given as `Int` (so an integer literal is never ambiguous); traps if
    /// it does not fit.
    @inlinable public init(_ integer: Int) { self.init(Int32(integer)) }
    @inlinable public init(integer: Int) { self.init(Int32(integer)) }

    /// The nearest representable value to `value` (ties away from zero); traps if out of range.
    @inlinable public init(_ value: Double) {
        let scaled = (value * 65536).rounded(.toNearestOrAwayFromZero)
        precondition(scaled >= -2147483648 && scaled <= 2147483647, "Fixed16_16 out of range: \(value)")
        raw = Int32(scaled)
    }

    /// The nearest value from a 64-bit raw 16.16 quantity; traps (debug) if it does not fit.
    @inlinable public init(wide raw64: Int64) {
        assert(raw64 >= Int64(Int32.min) && raw64 <= Int64(Int32.max), "Fixed16_16 overflow")
        raw = Int32(truncatingIfNeeded: raw64)
    }

    @inlinable public var double: Double { Double(raw) / 65536 }
    /// Rounded towards negative infinity.
    @inlinable public var floor: Int32 { raw >> 16 }
    /// Rounded towards positive infinity.
    @inlinable public var ceil: Int32 { Int32((Int64(raw) + 0xFFFF) >> 16) }
    /// Rounded to nearest, ties up.
    @inlinable public var rounded: Int32 { Int32((Int64(raw) + 0x8000) >> 16) }
    /// The 24.8 value nearest to this one (ties up).
    @inlinable public var fixed24_8: Fixed24_8 { Fixed24_8(raw: (raw &+ 0x80) >> 8) }

    @inlinable public static func < (a: Self, b: Self) -> Bool { a.raw < b.raw }

    @inlinable public static func + (a: Self, b: Self) -> Self {
        let (r, o) = a.raw.addingReportingOverflow(b.raw)
        assert(!o, "Fixed16_16 overflow in +")
        return Self(raw: r)
    }
    @inlinable public static func - (a: Self, b: Self) -> Self {
        let (r, o) = a.raw.subtractingReportingOverflow(b.raw)
        assert(!o, "Fixed16_16 overflow in -")
        return Self(raw: r)
    }
    @inlinable public static prefix func - (a: Self) -> Self { Self(raw: 0) - a }
    @inlinable public static func += (a: inout Self, b: Self) { a = a + b }
    @inlinable public static func -= (a: inout Self, b: Self) { a = a - b }

    /// Product rounded to nearest.
    @inlinable public static func * (a: Self, b: Self) -> Self {
        Self(wide: (Int64(a.raw) * Int64(b.raw) + 0x8000) >> 16)
    }
    /// Quotient rounded to nearest; traps on division by zero.
    @inlinable public static func / (a: Self, b: Self) -> Self {
        precondition(b.raw != 0, "Fixed16_16 division by zero")
        return Self(wide: roundedDivide(Int64(a.raw) << 16, Int64(b.raw)))
    }
    /// Scales by an integer.
    @inlinable public static func * (a: Self, b: Int32) -> Self {
        Self(wide: Int64(a.raw) * Int64(b))
    }

    @inlinable public var magnitude: Self { raw < 0 ? -self : self }

    public var description: String { String(double) }
}

/// A signed 24.8 fixed-point number: `raw / 256`, the scan converter's sub-pixel grid.
public struct Fixed24_8: Hashable, Comparable, Sendable {
    public var raw: Int32
    public static let one = Fixed24_8(raw: 256)
    @inlinable public init(raw: Int32) { self.raw = raw }
    @inlinable public init(_ integer: Int32) {
        precondition(integer >= -(1 << 23) && integer < (1 << 23), "Fixed24_8 out of range")
        raw = integer << 8
    }
    @inlinable public var double: Double { Double(raw) / 256 }
    @inlinable public var floor: Int32 { raw >> 8 }
    @inlinable public var fraction: Int32 { raw & 0xFF }
    @inlinable public var fixed16_16: Fixed16_16 { Fixed16_16(raw: raw << 8) }
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.raw < b.raw }
}

/// Integer division rounded to nearest, ties away from zero (deterministic on every platform).
@inlinable @inline(__always) public func roundedDivide(_ n: Int64, _ d: Int64) -> Int64 {
    precondition(d != 0, "division by zero")
    let ad = d.magnitude
    let q = Int64(truncatingIfNeeded: (n.magnitude + ad / 2) / ad)
    return (n < 0) != (d < 0) ? -q : q
}

/// The largest integer whose square is at most `n` (exact; `n >= 0`).
@inlinable public func integerSquareRoot(_ n: UInt64) -> UInt64 {
    if n < 2 { return n }
    // A floating-point estimate, then exact integer correction: the result never depends on how
    // the platform rounds the estimate.
    var r = UInt64(Double(n).squareRoot())
    while r > 0 && r.multipliedReportingOverflow(by: r).overflow || r * r > n { r -= 1 }
    while true {
        let (sq, o) = (r + 1).multipliedReportingOverflow(by: r + 1)
        if o || sq > n { break }
        r += 1
    }
    return r
}
