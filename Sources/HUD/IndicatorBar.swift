// SPDX-License-Identifier: MIT
// MB's horizontal bar, 120x10 (hud-behaviour.md B4, MBBarProgressView `drawRect:`):
//
//  - outline: a pill inset 2 (x 2…W−2, y 2…H−2) with radius h/2 − 2, stroked width 2 in the line
//    colour; filled with the "remaining" colour, which is clear;
//  - progress: inset 4 with radius h/2 − 4, filled up to x = p·W in three regimes: while
//    p·W < r + 4 the whole left cap; up to W − r − 4 the left cap and a straight edge at p·W;
//    beyond that the right cap cut at x = p·W.
//
// In a right-to-left HUD the bar is mirrored, filling from the right, as UIKit's and the web's
// progress bars are (Apple's HIG, "Right to left"; w3c/alreq#259); MB's own bar never mirrors.
// Spinners, rings, pies and icons are not mirrored: they show no direction of reading.
//
// MB builds the right-cap regime from arcs whose angles come from acos, with a stray line to the
// cap's leftmost point; the shape intended (and nearly what it draws) is the inset pill cut at
// x = p·W, which is what is drawn here.
import Raster

enum BarIndicator {
    static func draw(into canvas: Canvas, frame: Rect, progress: Fixed16_16, color: Color, mirrored: Bool = false) {
        let w = frame.size.width, h = frame.size.height
        let two = Fixed16_16(2), four = Fixed16_16(4)
        let outline = Rect(x: frame.minX + two, y: frame.minY + two, width: w - four, height: h - four)
        canvas.stroke(.roundedRect(outline, radius: h.halved - two), StrokeStyle(width: two), .solid(color))

        let r = h.halved - four  // 1 for the 10 pt bar
        let amount = RingIndicator.clamped(progress) * w
        guard amount > .zero, r > .zero else { return }
        let left = frame.minX + four, right = frame.maxX - four, top = frame.minY + four, bottom = frame.maxY - four
        let midY = frame.midY
        // Regimes: at least the left cap; at most the whole inner pill.
        let end = frame.minX + Swift.min(Swift.max(amount, r + four), w - four)
        let capStart = right - r  // where the right cap begins
        var p = Path()
        p.move(to: Point(x: left + r, y: top))
        p.line(to: Point(x: Swift.min(end, capStart), y: top))
        if end > capStart {
            // The right cap up to x = end: angles ±φ where cos φ = (end − capStart)/r.
            let dx = Int64((end - capStart).raw), rr = Int64(r.raw)
            let dy = Int64(integerSquareRoot(UInt64(Swift.max(0, rr * rr - dx * dx))))
            let phi = Fixed16_16(wide: roundedDivide(Int64(Trig.turnFraction16(x: dx, y: dy)) * Int64(Trig.twoPi.raw), 65536))
            let c = Point(x: capStart, y: midY)
            p.arc(center: c, radius: r, start: -Trig.halfPi, end: -phi, clockwise: true)
            p.line(to: Point(x: end, y: midY + Fixed16_16(wide: dy)))
            p.arc(center: c, radius: r, start: phi, end: Trig.halfPi, clockwise: true)
        } else {
            p.line(to: Point(x: end, y: bottom))
        }
        p.line(to: Point(x: left + r, y: bottom))
        p.arc(center: Point(x: left + r, y: midY), radius: r, start: Trig.halfPi, end: Trig.halfPi + Trig.pi, clockwise: true)
        p.close()
        let flip = Transform(a: -.one, b: .zero, c: .zero, d: .one, tx: frame.minX + frame.maxX, ty: .zero)
        canvas.fill(mirrored ? p.applying(flip) : p, .solid(color))
    }
}
