// SPDX-License-Identifier: MIT
// Sine, cosine and arctangent in integer arithmetic, so arcs, rotations and the conic paint give
// the same bits on every machine (libm's results differ between platforms in the last place).

public enum Trig {
    /// π in 2.30 fixed point (one bit more than `Int32` holds, so kept as `Int64`).
    @usableFromInline static let piQ30: Int64 = 3_373_259_426  // round(π · 2^30)
    @usableFromInline static let twoPiQ30: Int64 = 6_746_518_852
    @usableFromInline static let halfPiQ30: Int64 = 1_686_629_713

    /// π, 2π and π/2 as 16.16 values.
    public static let pi = Fixed16_16(raw: 205_887)
    public static let twoPi = Fixed16_16(raw: 411_775)
    public static let halfPi = Fixed16_16(raw: 102_944)

    /// sin and cos of `angle` (radians) as 2.30 fixed-point integers.
    public static func sinCosQ30(_ angle: Fixed16_16) -> (sin: Int64, cos: Int64) {
        sinCosQ30(radiansQ30: Int64(angle.raw) << 14)
    }

    /// sin and cos of an angle given in 2.30 radians (any magnitude), as 2.30 integers.
    public static func sinCosQ30(radiansQ30 a: Int64) -> (sin: Int64, cos: Int64) {
        var r = a % twoPiQ30
        if r < 0 { r += twoPiQ30 }
        // Quadrant, then reduce to [0, π/2) and evaluate on [0, π/4] by symmetry.
        let quadrant = Int(r / halfPiQ30)
        r -= Int64(quadrant) * halfPiQ30
        let (s, c): (Int64, Int64)
        if r <= halfPiQ30 / 2 {
            (s, c) = (sinSeries(r), cosSeries(r))
        } else {
            let m = halfPiQ30 - r
            (s, c) = (cosSeries(m), sinSeries(m))
        }
        switch quadrant & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// sin and cos of `angle` (radians) in 16.16.
    public static func sinCos(_ angle: Fixed16_16) -> (sin: Fixed16_16, cos: Fixed16_16) {
        let (s, c) = sinCosQ30(angle)
        return (Fixed16_16(wide: (s + (1 << 13)) >> 14), Fixed16_16(wide: (c + (1 << 13)) >> 14))
    }

    @inline(__always) static func mulQ30(_ a: Int64, _ b: Int64) -> Int64 { (a * b + (1 << 29)) >> 30 }

    // Taylor series on |x| <= π/4 in Horner form, x·(1 − x²/(2·3)·(1 − x²/(4·5)·(1 − …))): the
    // first omitted term is below 2^-40, and the reciprocals are 2.30 constants, so there is no
    // division at run time.
    static let sinReciprocals: [Int64] = [2 * 3, 4 * 5, 6 * 7, 8 * 9, 10 * 11, 12 * 13].map { ((1 << 30) + $0 / 2) / $0 }
    static let cosReciprocals: [Int64] = [1 * 2, 3 * 4, 5 * 6, 7 * 8, 9 * 10, 11 * 12].map { ((1 << 30) + $0 / 2) / $0 }

    static func sinSeries(_ x: Int64) -> Int64 {
        mulQ30(x, horner(mulQ30(x, x), sinReciprocals))
    }
    static func cosSeries(_ x: Int64) -> Int64 {
        horner(mulQ30(x, x), cosReciprocals)
    }
    /// 1 − x²·r0·(1 − x²·r1·(1 − …)), innermost first.
    @inline(__always) static func horner(_ x2: Int64, _ r: [Int64]) -> Int64 {
        var acc: Int64 = 1 << 30
        for k in stride(from: r.count - 1, through: 0, by: -1) {
            acc = (1 << 30) - mulQ30(mulQ30(x2, r[k]), acc)
        }
        return acc
    }

    /// The angle of (x, y) from +x towards +y, as a fraction of a turn in 0..<65536
    /// (a 16-bit "binary angle"). Error below 2^-16 of a turn.
    public static func turnFraction16(x: Int64, y: Int64) -> UInt32 {
        if x == 0 && y == 0 { return 0 }
        let ax = x < 0 ? -x : x, ay = y < 0 ? -y : y
        // atan of the ratio in [0, 1], in 2.30 radians.
        let swap = ay > ax
        let num = swap ? ax : ay, den = swap ? ay : ax
        let t = (num << 30) / den  // [0, 1] in Q30 (den > 0)
        var angle = atanUnit(t)  // [0, π/4]
        if swap { angle = halfPiQ30 - angle }
        if x < 0 { angle = piQ30 - angle }
        if y < 0 { angle = twoPiQ30 - angle }
        // To a 16-bit fraction of a turn, rounded.
        let turn = (angle * 65536 + twoPiQ30 / 2) / twoPiQ30
        return UInt32(turn & 0xFFFF)
    }

    /// atan(t) for t in [0, 1] (2.30 in and out): a minimax polynomial with error below 1e-5 rad,
    /// evaluated in integers. Coefficients in 2.30.
    static func atanUnit(_ t: Int64) -> Int64 {
        let t2 = mulQ30(t, t)
        var p: Int64 = 22_371_518  // 0.0208351
        p = mulQ30(p, t2) - 91_410_863  // -0.0851330
        p = mulQ30(p, t2) + 193_424_926  // 0.1801410
        p = mulQ30(p, t2) - 354_656_388  // -0.3302995
        p = mulQ30(p, t2) + 1_073_597_943  // 0.9998660
        return mulQ30(p, t)
    }
}
