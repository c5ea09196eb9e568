// SPDX-License-Identifier: MIT
import Testing
import Raster
import Foundation

@Suite("Paths, flattening and trimming")
struct PathTests {
    func distance(_ p: Point, _ c: Point) -> Double {
        let dx = p.x.double - c.x.double, dy = p.y.double - c.y.double
        return (dx * dx + dy * dy).squareRoot()
    }

    @Test(arguments: [2.0, 18.0, 40.0, 300.0])
    func flattenedCircleStaysWithinTolerance(radius: Double) {
        let c = Point(500, 400)
        let contours = Path.circle(center: c, radius: Fixed16_16(radius)).flattened()
        #expect(contours.count == 1 && contours[0].isClosed)
        let pts = contours[0].points
        for (i, p) in pts.enumerated() {
            #expect(abs(distance(p, c) - radius) < 0.01 + radius * 0.0003, "vertex on the circle")
            // The chord's midpoint sags no more than the tolerance (0.1 px) from the circle.
            let q = pts[(i + 1) % pts.count]
            let mid = Point((p.x.double + q.x.double) / 2, (p.y.double + q.y.double) / 2)
            #expect(radius - distance(mid, c) <= 0.1 + 0.01)
        }
    }

    @Test func arcGoesClockwiseOnScreenAndKeepsTwoTurns() {
        var p = Path()
        p.arc(center: Point(0, 0), radius: Fixed16_16(10.0), start: .zero, end: Trig.halfPi, clockwise: true)
        let pts = p.flattened()[0].points
        #expect(abs(pts.first!.x.double - 10) < 0.001 && abs(pts.last!.y.double - 10) < 0.001)
        #expect(pts[pts.count / 2].y.double > 0)  // through the lower right quadrant (y down)
        let spinner = { () -> [Contour] in
            var s = Path()
            s.arc(center: Point(0, 0), radius: Fixed16_16(18.0), start: Fixed16_16(3 * Double.pi / 2),
                  end: Fixed16_16(Double.pi / 2 + 5 * Double.pi), clockwise: true)
            return s.flattened()
        }()
        let length = Double(spinner.totalLength) / 65536
        #expect(abs(length / (2 * 2 * Double.pi * 18) - 1) < 0.003, "two turns: \(length)")  // chords are a little shorter than the arc
    }

    @Test func trimmingFollowsTheFractionsOfLength() {
        var line = Path()
        line.move(to: Point(0, 0)); line.line(to: Point(100, 0)); line.line(to: Point(100, 100))
        let t = line.flattened().trimmed(start: Fixed16_16(0.25), end: Fixed16_16(0.75))
        #expect(t.count == 1)
        #expect(t[0].points == [Point(50, 0), Point(100, 0), Point(100, 50)])
        #expect(line.flattened().trimmed(start: Fixed16_16(0.6), end: Fixed16_16(0.6)).isEmpty)
    }

    @Test func trimmingTheSpinnerGivesTheFixedArc() {
        // strokeStart 0.015, strokeEnd 0.485 on two turns: a 338.4° arc starting 10.8° past 12 o'clock.
        var s = Path()
        let c = Point(0, 0)
        s.arc(center: c, radius: Fixed16_16(18.0), start: Fixed16_16(3 * Double.pi / 2),
              end: Fixed16_16(Double.pi / 2 + 5 * Double.pi), clockwise: true)
        let t = s.flattened().trimmed(start: Fixed16_16(0.015), end: Fixed16_16(0.485))
        let pts = t[0].points
        func angle(_ p: Point) -> Double {  // degrees clockwise from 12 o'clock
            var a = atan2(p.x.double, -p.y.double) * 180 / .pi
            if a < 0 { a += 360 }
            return a
        }
        #expect(abs(angle(pts.first!) - 10.8) < 0.3)
        #expect(abs(angle(pts.last!) - 349.2) < 0.3)
        let length = Double(t.totalLength) / 65536
        #expect(abs(length - 338.4 / 360 * 2 * Double.pi * 18) < 0.2)
    }

    @Test func closedContourTrimmingIncludesTheClosingSegment() {
        let square = Path.rect(Rect(0, 0, 10, 10)).flattened()
        let t = square.trimmed(start: Fixed16_16(0.875), end: .one)
        #expect(t.count == 1 && t[0].points.first == Point(0, 5) && t[0].points.last == Point(0, 0))
    }

    @Test func roundedRectClampsItsRadius() {
        let p = Path.roundedRect(Rect(0, 0, 20, 10), radius: Fixed16_16(40.0))
        let b = p.controlBounds!
        #expect(b == Rect(0, 0, 20, 10))
        let mask = p.rasterizeMask()
        #expect(mask.coverage[Int(5 * mask.width + 10)] == 255)
        #expect(mask.coverage[0] == 0)  // the corner is cut away
    }
}
