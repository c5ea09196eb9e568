// SPDX-License-Identifier: MIT
// MBProgressHUD's transition curve (reference B3): `animateWithDuration:0.3 delay:0
// usingSpringWithDamping:1 initialSpringVelocity:0`. UIKit does not publish how it turns a duration
// and a damping ratio into a spring, so this is the curve we use and why:
//
// A critically damped spring (ζ = 1, mass 1, stiffness ω², released at rest one unit from its
// target) moves as
//
//     x(t) = 1 − (1 + ωt)·e^(−ωt)
//
// UIKit fits the spring to the duration so that it has settled when the animation ends. We take
// "settled" as within 0.1% of the target: (1 + ωT)·e^(−ωT) = 0.001, whose root is ωT = Y ≈ 9.23341
// (ω ≈ 30.78 rad/s for T = 0.3 s; stiffness ≈ 947, damping ≈ 61.6). The last 0.1% would be a jump
// at T, so the curve is normalised by its value at T:
//
//     f(u) = (1 − (1 + Yu)·e^(−Yu)) / (1 − (1 + Y)·e^(−Y)),   u = t/T in 0...1
//
// which is 0 at 0, exactly 1 at 1, monotonic, with zero slope at the start (velocity 0).
//
// e^(−y) is computed without libm: y = k + f with k an integer and f in [0, 1); e^(−f) by its Taylor
// series and e^(−1) likewise, both in 2.30 fixed point with integer arithmetic only, then
// e^(−y) = e^(−f)·(e^(−1))^k.
import Raster

public enum CriticallyDampedSpring {
    /// Y = ωT, the root 9.233413 of (1 + Y)·e^(−Y) = 0.001, rounded to 16.16 (605119/65536).
    public static let settleRaw: Int64 = 605_119

    /// e^(−x) for x ≥ 0 given in 16.16, as 2.30 fixed point (1 << 30 = 1.0).
    public static func expNegative(raw x: Int64) -> Int64 {
        precondition(x >= 0, "expNegative takes x >= 0")
        var result = expNegativeFraction(x & 0xFFFF)
        var k = x >> 16
        while k > 0 && result > 0 {
            result = (result * inverseE + (1 << 29)) >> 30
            k -= 1
        }
        return result
    }

    /// e^(−f/65536) for f in 0...65536, in 2.30: the alternating Taylor series, summed until the
    /// terms vanish (at most 14 terms for f = 1).
    static func expNegativeFraction(_ f: Int64) -> Int64 {
        var term: Int64 = 1 << 30
        var sum = term
        var n: Int64 = 1
        while term != 0 {
            term = roundedDivide(term * f, n << 16)
            sum += (n & 1) == 1 ? -term : term
            n += 1
        }
        return sum
    }

    /// e^(−1) in 2.30.
    static let inverseE: Int64 = expNegativeFraction(65536)

    /// 1 − (1 + y)·e^(−y) in 2.30, y in 16.16.
    static func unnormalised(_ y: Int64) -> Int64 {
        (1 << 30) - (((65536 + y) * expNegative(raw: y) + (1 << 15)) >> 16)
    }

    /// The value at T: the normaliser.
    static let settled: Int64 = unnormalised(settleRaw)

    /// f(u) for `progress` u (clamped to 0...1).
    public static func value(at progress: Fixed16_16) -> Fixed16_16 {
        if progress.raw <= 0 { return .zero }
        if progress.raw >= 1 << 16 { return .one }
        let y = (settleRaw * Int64(progress.raw) + (1 << 15)) >> 16
        let v = roundedDivide(unnormalised(y) << 16, settled)
        return Fixed16_16(raw: Int32(min(max(v, 0), 1 << 16)))
    }
}
