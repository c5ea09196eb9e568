// SPDX-License-Identifier: MIT
import Testing
import Raster
import Foundation

@Suite("Fixed point, trigonometry and transforms")
struct FixedPointTests {
    @Test func conversionsAreExplicitAndRounded() {
        #expect(Fixed16_16(1.5).raw == 98_304)
        #expect(Fixed16_16(-0.5).floor == -1)
        #expect(Fixed16_16(-0.5).ceil == 0)
        #expect(Fixed16_16(2.5).rounded == 3)
        #expect(Fixed16_16(Int32(7)).double == 7)
        #expect(Fixed16_16(0.25).fixed24_8.raw == 64)
        #expect((Fixed16_16(1.5) * Fixed16_16(-2.25)).double == -3.375)
        #expect((Fixed16_16(7.0) / Fixed16_16(2.0)).double == 3.5)
    }

    @Test func roundedDivideIsSymmetric() {
        #expect(roundedDivide(7, 2) == 4)
        #expect(roundedDivide(-7, 2) == -4)
        #expect(roundedDivide(7, -2) == -4)
        #expect(roundedDivide(5, 3) == 2)
    }

    @Test func integerSquareRootIsExact() {
        for n: UInt64 in [0, 1, 2, 3, 4, 15, 16, 17, 1 << 40, (1 << 40) - 1, UInt64.max] {
            let r = integerSquareRoot(n)
            #expect(r.multipliedReportingOverflow(by: r).partialValue <= n || r == 0)
            let next = (r + 1).multipliedReportingOverflow(by: r + 1)
            #expect(next.overflow || next.partialValue > n, "isqrt(\(n)) = \(r)")
        }
    }

    @Test func sineAndCosineAgreeWithLibmToTheLastBitOf16_16() {
        var a = -20.0
        while a < 20 {
            let f = Fixed16_16(a)
            let (s, c) = Trig.sinCos(f)
            #expect(abs(s.double - sin(f.double)) <= 1.0 / 65536, "sin(\(a))")
            #expect(abs(c.double - cos(f.double)) <= 1.0 / 65536, "cos(\(a))")
            a += 0.0137
        }
    }

    @Test func turnFractionMatchesAtan2() {
        var a = 0.0
        while a < 2 * Double.pi {
            let x = Int64((cos(a) * 1_000_000).rounded()), y = Int64((sin(a) * 1_000_000).rounded())
            let got = Double(Trig.turnFraction16(x: x, y: y)) / 65536
            var diff = abs(got - a / (2 * Double.pi))
            diff = min(diff, 1 - diff)
            #expect(diff < 2.0 / 65536, "angle \(a)")
            a += 0.01
        }
    }

    @Test func zoomTransformsKeepTheCentreAndScaleAboutIt() {
        let centre = Point(960, 540)
        for s in [1.3, 0.5, 1.5] {
            let t = Transform.scale(Fixed16_16(s), about: centre)
            #expect(t.apply(centre) == centre)
            let p = t.apply(Point(1060, 540))
            #expect(abs(p.x.double - (960 + 100 * s)) < 0.01)
            let back = t.inverted()!.apply(p)
            #expect(abs(back.x.double - 1060) < 0.01 && abs(back.y.double - 540) < 0.01)
        }
    }

    @Test func rotationTurnsClockwiseOnScreen() {
        let p = Transform.rotation(Trig.halfPi).apply(Point(10, 0))
        #expect(abs(p.x.double) < 0.001 && abs(p.y.double - 10) < 0.001)  // +x turns to +y (down)
    }

    @Test func rectsIntersectAndUnite() {
        let a = IntRect(x: 0, y: 0, width: 10, height: 10), b = IntRect(x: 5, y: 6, width: 10, height: 10)
        #expect(a.intersection(b) == IntRect(x: 5, y: 6, width: 5, height: 4))
        #expect(a.union(b) == IntRect(x: 0, y: 0, width: 15, height: 16))
        #expect(a.intersection(IntRect(x: 20, y: 0, width: 1, height: 1)).isEmpty)
        #expect(Rect(1.5, 2.25, 3, 3).enclosingPixels == IntRect(x: 1, y: 2, width: 4, height: 4))
    }
}
