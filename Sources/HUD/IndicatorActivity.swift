// SPDX-License-Identifier: MIT
// The system activity indicator (SV `native`, MB indeterminate): UIActivityIndicatorView's
// WhiteLarge look, drawn by us. 12 petals round a 37x37 box; one is brightest and the ones behind
// it (counter-clockwise) fade; the bright petal moves one step clockwise every 1/12 s, a 1 s
// period as UIKit's. UIKit draws it from images we do not have, so the geometry is our choice:
//
//  - petal: a rounded bar 3.5 pt wide, from 8.5 pt to 17.5 pt from the centre (length 9), i.e. a
//    stroke of width 3.5 with round caps from 10.25 to 15.75;
//  - alpha: 1 for the head, then falling linearly to 0.25 over the other eleven petals
//    (α_k = 1 − 0.75·k/11 for the k-th petal behind the head).
import HUDProtocol
import Raster

enum ActivityIndicator {
    static let petals: Int32 = 12
    static let petalWidth = Fixed16_16(3.5)
    /// Centre-line ends of a petal (the round caps add half the width at each end).
    static let innerRadius = Fixed16_16(10.25), outerRadius = Fixed16_16(15.75)
    static let period: Int64 = 1_000_000_000

    /// The index of the brightest petal at `elapsed` (0 at 12 o'clock, increasing clockwise).
    static func head(_ elapsed: Interval) -> Int32 {
        var ns = elapsed.nanoseconds % period
        if ns < 0 { ns += period }
        return Int32(ns * Int64(petals) / period)
    }

    /// The alpha (0...255) of the petal `k` steps behind the head.
    static func alpha(behind k: Int32) -> UInt8 {
        UInt8((255 * (44 - 3 * Int64(k)) + 22) / 44)
    }

    static func draw(into canvas: Canvas, center: Point, color: Color, elapsed: Interval) {
        let h = head(elapsed)
        let style = StrokeStyle(width: petalWidth, cap: .round)
        for i in 0..<petals {
            // −π/2 + i·2π/12: petal 0 at 12 o'clock.
            let angle = Fixed16_16(wide: Int64((-Trig.halfPi).raw) + roundedDivide(Int64(Trig.twoPi.raw) * Int64(i), Int64(petals)))
            let (s, c) = Trig.sinCos(angle)
            var p = Path()
            p.move(to: Point(x: center.x + c * innerRadius, y: center.y + s * innerRadius))
            p.line(to: Point(x: center.x + c * outerRadius, y: center.y + s * outerRadius))
            let k = ((h - i) % petals + petals) % petals
            let a = UInt8((UInt32(color.a) * UInt32(alpha(behind: k)) + 127) / 255)
            canvas.stroke(p, style, .solid(color.withAlpha(a)))
        }
    }
}
