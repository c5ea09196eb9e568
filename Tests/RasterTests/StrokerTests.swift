// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Raster

@Suite("Stroker")
struct StrokerTests {
    /// Total coverage of the stroked path, in pixels.
    func coveredArea(_ path: Path, _ style: StrokeStyle, trim: (Double, Double)? = nil) -> Double {
        let p = Pixmap(width: 200, height: 200)
        let cv = Canvas(p.view)
        if let trim {
            cv.stroke(path, style, .solid(.white), trimStart: Fixed16_16(trim.0), trimEnd: Fixed16_16(trim.1))
        } else {
            cv.stroke(path, style, .solid(.white))
        }
        return p.pixels.reduce(0.0) { $0 + Double($1 >> 24) } / 255
    }

    func segment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        var p = Path(); p.move(to: Point(x0, y0)); p.line(to: Point(x1, y1)); return p
    }

    @Test func buttCapsGiveTheSegmentsRectangle() {
        let p = Pixmap(width: 40, height: 20)
        Canvas(p.view).stroke(segment(10, 10, 30, 10), StrokeStyle(width: Fixed16_16(4)), .solid(.white))
        for x: Int32 in 0..<40 {
            for y: Int32 in 0..<20 {
                let inside = x >= 10 && x < 30 && y >= 8 && y < 12
                #expect(p[x, y].a == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    @Test func capsAddWhatTheyShould() {
        let w = 10.0, len = 60.0
        let butt = coveredArea(segment(40, 50, 100, 50), StrokeStyle(width: Fixed16_16(w)))
        let square = coveredArea(segment(40, 50, 100, 50), StrokeStyle(width: Fixed16_16(w), cap: .square))
        let round = coveredArea(segment(40, 50, 100, 50), StrokeStyle(width: Fixed16_16(w), cap: .round))
        #expect(abs(butt - w * len) < 0.5)
        #expect(abs(square - w * (len + w)) < 0.5)
        #expect(abs(round - (w * len + Double.pi * 25)) < 0.5)
    }

    @Test func ringAreaIsTheAnnulus() {
        let area = coveredArea(.circle(center: Point(100, 100), radius: Fixed16_16(60)), StrokeStyle(width: Fixed16_16(6)))
        let expected = Double.pi * (63 * 63 - 57 * 57)
        #expect(abs(area / expected - 1) < 0.003, "area \(area) vs \(expected)")
    }

    @Test func joinsDifferAsExpected() {
        var zig = Path()
        zig.move(to: Point(40, 150)); zig.line(to: Point(100, 40)); zig.line(to: Point(160, 150))
        let miter = coveredArea(zig, StrokeStyle(width: Fixed16_16(16), join: .miter))
        let round = coveredArea(zig, StrokeStyle(width: Fixed16_16(16), join: .round))
        let bevel = coveredArea(zig, StrokeStyle(width: Fixed16_16(16), join: .bevel))
        #expect(miter > round && round > bevel)
        // A miter beyond the limit falls back to a bevel.
        let limited = coveredArea(zig, StrokeStyle(width: Fixed16_16(16), join: .miter, miterLimit: Fixed16_16(1.5)))
        #expect(abs(limited - bevel) < 0.01)
    }

    @Test func zeroLengthSegmentsDrawDotsOnlyWithCaps() {
        let dot = segment(50, 50, 50, 50)
        #expect(coveredArea(dot, StrokeStyle(width: Fixed16_16(10))) == 0)
        #expect(abs(coveredArea(dot, StrokeStyle(width: Fixed16_16(10), cap: .round)) - Double.pi * 25) < 0.3)
        #expect(abs(coveredArea(dot, StrokeStyle(width: Fixed16_16(10), cap: .square)) - 100) < 0.01)
    }

    @Test func trimmedSpinnerCoversItsShare() {
        var spin = Path()
        spin.arc(center: Point(100, 100), radius: Fixed16_16(40), start: Fixed16_16(3 * Double.pi / 2),
                 end: Fixed16_16(Double.pi / 2 + 5 * Double.pi), clockwise: true)
        let style = StrokeStyle(width: Fixed16_16(4), cap: .butt)
        let part = coveredArea(spin, style, trim: (0.015, 0.485))
        let ring = coveredArea(.circle(center: Point(100, 100), radius: Fixed16_16(40)), style)
        #expect(abs(part / ring - 338.4 / 360) < 0.005, "\(part) of \(ring)")
    }
}
