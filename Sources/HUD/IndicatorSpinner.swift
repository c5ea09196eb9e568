// SPDX-License-Identifier: MIT
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
import HUDProtocol
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

    /// The mask's stops in `color` (its alpha times the mask's).
    static func stops(_ color: Color) -> [GradientStop] {
        maskAlphas.enumerated().map { i, alpha in
            let a = UInt8((Double(color.a) * alpha).rounded())
            return GradientStop(Fixed16_16(wide: roundedDivide(Int64(i) << 16, 12)), color.withAlpha(a))
        }
    }

    /// The visible part of the two-turn arc for strokeStart/strokeEnd `start`/`end`: on a circle
    /// length is proportional to angle, so the trimmed arc runs from 3π/2 + 4π·start to
    /// 3π/2 + 4π·end. Built directly, it costs one 122° arc instead of flattening two turns.
    static func trimmedPath(center: Point, radius: Fixed16_16, start: Fixed16_16, end: Fixed16_16) -> Path {
        let origin = Int64((Trig.pi + Trig.halfPi).raw), twoTurns = 2 * Int64(Trig.twoPi.raw)
        let a0 = origin + roundedDivide(twoTurns * Int64(start.raw), 65536)
        let a1 = origin + roundedDivide(twoTurns * Int64(end.raw), 65536)
        var p = Path()
        p.arc(center: center, radius: radius, start: Fixed16_16(wide: a0), end: Fixed16_16(wide: a1), clockwise: true)
        return p
    }

    /// Draws the spinner at `elapsed` about `center` (points, through the canvas transform).
    static func draw(into canvas: Canvas, center: Point, radius: Fixed16_16, thickness: Fixed16_16, color: Color,
                     elapsed: Interval) {
        let phi = phase(elapsed)
        let half = Fixed16_16.half
        let maskAngle = -Trig.halfPi + Trig.twoPi * phi
        let arc = trimmedPath(center: center, radius: radius, start: trimStart0 + half * phi, end: trimEnd0 + half * phi)
        canvas.stroke(arc, StrokeStyle(width: thickness, cap: .round),
                      .conic(center: center, startAngle: maskAngle, stops: stops(color)))
    }
}
