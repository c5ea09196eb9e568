// SVProgressHUD's flat spinner (hud-behaviour.md A7, SVIndefiniteAnimatedView.m):
//
//  - a CAShapeLayer holding a clockwise arc of radius r from 3π/2 to π/2 + 5π: two full turns
//    starting at 12 o'clock, width t, round caps;
//  - strokeStart 0.015 → 0.515 and strokeEnd 0.485 → 0.985 over a 1 s linear loop: a fixed 338.4°
//    arc whose ends advance one turn a second;
//  - masked by angle-mask.png, whose alpha rises clockwise from 12 o'clock (the 13 values below at
//    30° steps) and which itself rotates 0 → 2π every second.
//
// Here the mask is a conic gradient of the spinner's colour, rotated by 2π·φ, painting the trimmed
// stroke: the tail is at α≈0 and the head at α≈1, leading clockwise. Everything is in points; the
// canvas transform maps them to pixels (and applies the HUD's zoom).
import Raster

enum SpinnerIndicator {
    /// angle-mask.png's alpha at 0°, 30°, … 360° clockwise from 12 o'clock (A7).
    static let maskAlphas: [Double] = [0.00, 0.05, 0.12, 0.20, 0.30, 0.40, 0.50, 0.61, 0.71, 0.80, 0.88, 0.95, 1.0]
    static let trimStart0 = Fixed16_16(0.015), trimEnd0 = Fixed16_16(0.485)
    static let loop: Int64 = 1_000_000_000  // the 1 s period, in nanoseconds

    /// φ = (elapsed mod 1 s) / 1 s in 16.16, in [0, 1).
    static func phase(_ elapsed: Interval) -> Fixed16_16 {
        var ns = elapsed.nanoseconds % loop
        if ns < 0 { ns += loop }
        return Fixed16_16(raw: Int32(ns * 65536 / loop))
    }

    /// The two-turn arc from 12 o'clock (3π/2 to π/2 + 5π, clockwise).
    static func path(center: Point, radius: Fixed16_16) -> Path {
        var p = Path()
        let start = Trig.pi + Trig.halfPi  // 3π/2
        p.arc(center: center, radius: radius, start: start, end: start + Trig.twoPi * 2, clockwise: true)
        return p
    }

    /// The mask's stops in `color` (its alpha times the mask's).
    static func stops(_ color: Color) -> [GradientStop] {
        maskAlphas.enumerated().map { i, alpha in
            let a = UInt8((Double(color.a) * alpha).rounded())
            return GradientStop(Fixed16_16(wide: roundedDivide(Int64(i) << 16, 12)), color.withAlpha(a))
        }
    }

    /// Draws the spinner at `elapsed` about `center` (points, through the canvas transform).
    static func draw(into canvas: Canvas, center: Point, radius: Fixed16_16, thickness: Fixed16_16, color: Color,
                     elapsed: Interval) {
        let phi = phase(elapsed)
        let half = Fixed16_16.half
        let maskAngle = -Trig.halfPi + Trig.twoPi * phi
        canvas.stroke(path(center: center, radius: radius), StrokeStyle(width: thickness, cap: .round),
                      .conic(center: center, startAngle: maskAngle, stops: stops(color)),
                      trimStart: trimStart0 + half * phi, trimEnd: trimEnd0 + half * phi)
    }
}
