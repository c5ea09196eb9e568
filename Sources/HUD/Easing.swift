// SPDX-License-Identifier: MIT
// Easing curves, integer-only (shared/style.md §6): the same progress gives the same bits on every
// machine, so animated frames are bit-exact.
//
// Progress and results are 16.16 fixed point in 0...1. SVProgressHUD's fades use Core Animation's
// ease-in-out cubic Bézier (reference A4 "Animation curve": the options bug leaves UIKit's default
// curve in place); MBProgressHUD's transitions use UIKit's critically damped spring (B3, in
// Spring.swift).
import HUDProtocol
import Raster

/// The timing curves the HUD animates with.
public enum Easing: Equatable, Sendable {
    case linear
    /// `kCAMediaTimingFunctionEaseInEaseOut`, the cubic Bézier (0.42, 0, 0.58, 1): UIKit's
    /// `UIViewAnimationCurveEaseInOut`, SVProgressHUD's real fade curve.
    case easeInEaseOut
    /// UIKit's spring with damping ratio 1 and no initial velocity (MBProgressHUD, 0.3 s);
    /// see `CriticallyDampedSpring`.
    case criticallyDampedSpring

    /// The eased value at `progress` (clamped to 0...1); 0 at 0 and exactly 1 at 1.
    public func value(at progress: Fixed16_16) -> Fixed16_16 {
        switch self {
        case .linear: return Fixed16_16(raw: Swift.min(Swift.max(progress.raw, 0), 1 << 16))
        case .easeInEaseOut: return CubicBezier.easeInEaseOut.value(at: progress)
        case .criticallyDampedSpring: return CriticallyDampedSpring.value(at: progress)
        }
    }

    /// `elapsed / duration` in 16.16, rounded to nearest and clamped to 0...1 (1 for a duration of 0).
    public static func progress(elapsed: Interval, duration: Interval) -> Fixed16_16 {
        if elapsed.nanoseconds <= 0 { return duration.nanoseconds <= 0 ? .one : .zero }
        if elapsed >= duration { return .one }
        // elapsed < duration here; drop low bits of both until `elapsed << 16` fits in 64 bits
        // (only for intervals over 19 hours, where a nanosecond is far below a 16.16 unit).
        var e = elapsed.nanoseconds, d = duration.nanoseconds
        while e >= 1 << 46 { e >>= 1; d >>= 1 }
        let q = roundedDivide(e << 16, d)
        return Fixed16_16(raw: Int32(Swift.min(q, 1 << 16)))
    }
}

/// A CSS/Core Animation timing function: the cubic Bézier from (0,0) to (1,1) with control points
/// (x1,y1), (x2,y2) given in thousandths (CA's named curves are all exact in thousandths).
///
/// Evaluation solves x(s) = t for the curve parameter s by bisection over the 65,537 parameter
/// values s = k/65536, in exact 64-bit integer arithmetic, then interpolates linearly between the two
/// neighbouring parameters; y(s) gives the result. Error: well under one 16.16 unit.
public struct CubicBezier: Equatable, Sendable {
    public let x1: Int32, y1: Int32, x2: Int32, y2: Int32

    /// x1 and x2 in 0...1000 (so x is monotonic); y1 and y2 in -2000...3000.
    public init(x1: Int32, y1: Int32, x2: Int32, y2: Int32) {
        precondition((0...1000).contains(x1) && (0...1000).contains(x2), "CubicBezier: x1 and x2 must be in 0...1000")
        precondition((-2000...3000).contains(y1) && (-2000...3000).contains(y2), "CubicBezier: y1 and y2 out of range")
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// Core Animation's ease-in-out (and UIKit's `UIViewAnimationCurveEaseInOut`).
    public static let easeInEaseOut = CubicBezier(x1: 420, y1: 0, x2: 580, y2: 1000)

    /// B(s) for one coordinate, in units of 1/(1000·2^48); s in 0...65536 (16.16 parameter).
    /// Bounded by 3000·2^48 < 2^60 for the allowed control points.
    @inline(__always)
    static func coordinate(_ s: Int64, _ c1: Int32, _ c2: Int32) -> Int64 {
        let u = 65536 - s
        return 3 * u * u * s * Int64(c1) + 3 * u * s * s * Int64(c2) + 1000 * s * s * s
    }

    /// One coordinate at parameter s as 2^32 = 1.0.
    @inline(__always)
    static func q32(_ s: Int64, _ c1: Int32, _ c2: Int32) -> Int64 {
        roundedDivide(coordinate(s, c1, c2), 1000 << 16)
    }

    public func value(at progress: Fixed16_16) -> Fixed16_16 {
        if progress.raw <= 0 { return .zero }
        if progress.raw >= 1 << 16 { return .one }
        let target = Int64(progress.raw) * (1000 << 32)  // t in the units of `coordinate`
        // The largest s with x(s) <= t (x is non-decreasing, x(0) = 0 <= t < x(65536)).
        var lo: Int64 = 0, hi: Int64 = 65536
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if Self.coordinate(mid, x1, x2) <= target { lo = mid } else { hi = mid }
        }
        let xLo = Self.q32(lo, x1, x2), xHi = Self.q32(hi, x1, x2)
        let yLo = Self.q32(lo, y1, y2), yHi = Self.q32(hi, y1, y2)
        let t32 = Int64(progress.raw) << 16
        var y = yLo
        if xHi > xLo { y += roundedDivide((yHi - yLo) * (t32 - xLo), xHi - xLo) }
        return Fixed16_16(wide: roundedDivide(y, 1 << 16))
    }
}
