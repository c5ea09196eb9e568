// SPDX-License-Identifier: MIT
// The easing curves against values computed independently at 40 significant digits (Python mpmath:
// bisection on the Bézier's x(s) = t; e^(−x) from the library), as 16.16 raw integers.
import HUDProtocol
import Testing
import Raster
@testable import HUD

@Suite struct EasingTests {
    private func at(_ raw: Int32) -> Fixed16_16 { Fixed16_16(raw: raw) }

    @Test func caEaseInEaseOutMatchesTheBezierAtKnownPoints() {
        // A4 "Animation curve": both SV fades use CA's ease-in-out, the Bézier (0.42, 0, 0.58, 1).
        // mpmath at the exact 16.16 inputs (0.1 is 6554/65536): ×65536 the results are 1292.692,
        // 8464.756 (f(0.25) = 0.1291619310), 32768 (f(0.5) = 0.5), 57071.244, 64243.308.
        let cases: [(t: Int32, expected: Int32)] = [
            (6554, 1293), (16384, 8465), (32768, 32768), (49152, 57071), (58982, 64243),
        ]
        for c in cases {
            let v = Easing.easeInEaseOut.value(at: at(c.t))
            #expect(abs(v.raw - c.expected) <= 1, "t = \(c.t): \(v.raw) vs \(c.expected)")
        }
        #expect(Easing.easeInEaseOut.value(at: .half) == .half)  // exact by symmetry
        #expect(Easing.easeInEaseOut.value(at: .zero) == .zero)
        #expect(Easing.easeInEaseOut.value(at: .one) == .one)
    }

    @Test func caEaseInEaseOutIsMonotonicAndPointSymmetric() {
        var previous: Int32 = 0
        for r in Int32(0)...65536 {
            let v = CubicBezier.easeInEaseOut.value(at: at(r)).raw
            #expect(v >= previous, "not monotonic at \(r)")
            previous = v
            if r % 97 == 0 {  // f(1 − t) = 1 − f(t) because the control points are symmetric
                let mirrored = CubicBezier.easeInEaseOut.value(at: at(65536 - r)).raw
                #expect(abs(v + mirrored - 65536) <= 1, "asymmetric at \(r)")
            }
        }
    }

    @Test func bezierWithDiagonalControlPointsIsTheIdentity() {
        let diagonal = CubicBezier(x1: 0, y1: 0, x2: 1000, y2: 1000)
        for r in stride(from: Int32(0), through: 65536, by: 1311) {
            #expect(abs(diagonal.value(at: at(r)).raw - r) <= 1)
        }
    }

    @Test func expNegativeIsExactInThirtyBits() {
        // mpmath: e^-1, e^-0.5, e^-9.5 × 2^30.
        #expect(abs(CriticallyDampedSpring.expNegative(raw: 65536) - 395_007_542) <= 2)
        #expect(abs(CriticallyDampedSpring.expNegative(raw: 32768) - 651_257_337) <= 2)
        #expect(abs(CriticallyDampedSpring.expNegative(raw: 622_592) - 80_372) <= 2)
        #expect(CriticallyDampedSpring.expNegative(raw: 0) == 1 << 30)
    }

    @Test func springMatchesTheCriticallyDampedCurve() {
        // B3: 0.3 s, damping 1, velocity 0. mpmath with Y = 605119/65536 at the exact 16.16
        // inputs, f(u) = (1 − (1 + Yu)e^(−Yu)) / (1 − (1 + Y)e^(−Y)), ×65536: 15487.767,
        // 44022.991, 61959.172, 65090.616.
        let cases: [(u: Int32, expected: Int32)] = [
            (6554, 15488), (16384, 44023), (32768, 61959), (49152, 65091),
        ]
        for c in cases {
            let v = Easing.criticallyDampedSpring.value(at: at(c.u))
            #expect(abs(v.raw - c.expected) <= 1, "u = \(c.u): \(v.raw) vs \(c.expected)")
        }
        #expect(Easing.criticallyDampedSpring.value(at: .zero) == .zero)
        #expect(Easing.criticallyDampedSpring.value(at: .one) == .one)  // settled at 0.3 s
        // Starts at rest (velocity 0): the first 1% of the time covers 0.4% of the way
        // (mpmath: 262.73 units), where a linear ramp would cover 1% (655).
        #expect(abs(Easing.criticallyDampedSpring.value(at: at(655)).raw - 263) <= 1)
    }

    @Test func springIsMonotonicAndNeverOvershoots() {
        var previous: Int32 = 0
        for r in Int32(0)...65536 {
            let v = CriticallyDampedSpring.value(at: at(r)).raw
            #expect(v >= previous && v <= 65536, "at \(r): \(v) after \(previous)")
            previous = v
        }
    }

    @Test func progressIsElapsedOverDurationRoundedAndClamped() {
        let d = Interval.milliseconds(150)
        #expect(Easing.progress(elapsed: .milliseconds(75), duration: d) == .half)
        #expect(Easing.progress(elapsed: .milliseconds(50), duration: d).raw == 21845)  // 65536/3
        #expect(Easing.progress(elapsed: .milliseconds(-1), duration: d) == .zero)
        #expect(Easing.progress(elapsed: .milliseconds(151), duration: d) == .one)
        #expect(Easing.progress(elapsed: .zero, duration: .zero) == .one)
        // Intervals beyond 2^46 ns keep working (bits dropped from both).
        let long = Interval(nanoseconds: 1 << 50)
        #expect(Easing.progress(elapsed: Interval(nanoseconds: 1 << 49), duration: long) == .half)
    }

    @Test func linearIsClamped() {
        #expect(Easing.linear.value(at: Fixed16_16(2)) == .one)
        #expect(Easing.linear.value(at: -Fixed16_16.one) == .zero)
        #expect(Easing.linear.value(at: Fixed16_16(0.3)) == Fixed16_16(0.3))
    }
}
