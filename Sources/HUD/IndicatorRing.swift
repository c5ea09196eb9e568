// SPDX-License-Identifier: MIT
// Progress rings.
//
// SV's ring (hud-behaviour.md A7, SVProgressAnimatedView.m): an arc of radius r from −π/2
// clockwise to 3π/2, width t, round caps, strokeEnd = progress; its α0.1 track (the same view with
// strokeEnd 1) is added after it, so it is drawn on top of the progress.
//
// MB's round view, 37x37 (B4, MBRoundProgressView `drawRect:` on iOS ≥ 7):
//  - pie ("determinate"): `CGContextStrokeEllipseInRect` of the box inset 1 (r 17.5), width 2, in
//    the progress colour — the fill colour is set but never used — then the progress arc of width
//    4 at r 16.5, butt caps, from −π/2 clockwise through p·2π, drawn with kCGBlendModeCopy so
//    it replaces the outline beneath it instead of doubling its alpha. The copy happens in the
//    view's own backing store, so it is drawn here into a layer the size of the box, which is then
//    composited: a thick arc inside a thin circle, not a filled wedge.
//  - annular: a track of width 2 at r 17.5 in the track colour (α0.1), then a square-capped arc
//    of the same width and radius. Source-over is associative, so this is drawn directly.
import Raster

enum RingIndicator {
    static func arc(center: Point, radius: Fixed16_16, sweep: Fixed16_16) -> Path {
        var p = Path()
        p.arc(center: center, radius: radius, start: -Trig.halfPi, end: -Trig.halfPi + sweep, clockwise: true)
        return p
    }

    static func clamped(_ p: Fixed16_16) -> Fixed16_16 { Swift.max(.zero, Swift.min(.one, p)) }

    /// SV's ring at `progress` (clamped to 0...1), then its track over it.
    static func drawSV(into canvas: Canvas, center: Point, radius: Fixed16_16, thickness: Fixed16_16,
                       progress: Fixed16_16, color: Color, track: Color) {
        // strokeEnd = p on a circle is the arc through p·2π.
        let style = StrokeStyle(width: thickness, cap: .round)
        let end = clamped(progress)
        if end > .zero { canvas.stroke(arc(center: center, radius: radius, sweep: Trig.twoPi * end), style, .solid(color)) }
        canvas.stroke(arc(center: center, radius: radius, sweep: Trig.twoPi), style, .solid(track))
    }

    static let mbOutlineRadius = Fixed16_16(17.5), mbPieRadius = Fixed16_16(16.5)

    /// MB's annular view at `progress`.
    static func drawAnnular(into canvas: Canvas, center: Point, progress: Fixed16_16, color: Color, track: Color) {
        let width = Fixed16_16(2)
        canvas.stroke(arc(center: center, radius: mbOutlineRadius, sweep: Trig.twoPi), StrokeStyle(width: width), .solid(track))
        let p = clamped(progress)
        if p > .zero {
            canvas.stroke(arc(center: center, radius: mbOutlineRadius, sweep: Trig.twoPi * p),
                          StrokeStyle(width: width, cap: .square), .solid(color))
        }
    }

    /// MB's pie view at `progress`, `box` being its 37x37 frame in points. The layer covers the
    /// box's pixels (through the canvas transform) and is composited with the canvas's alpha.
    static func drawPie(into canvas: Canvas, box: Rect, progress: Fixed16_16, color: Color) {
        let device = deviceBounds(box, canvas.transform).intersection(canvas.target.bounds)
        if device.isEmpty || device.intersection(canvas.clip).isEmpty { return }
        let layer = Pixmap(width: device.width, height: device.height)
        let lc = Canvas(layer.view)
        lc.transform = canvas.transform.concatenating(.translation(Fixed16_16(-device.x), Fixed16_16(-device.y)))
        let center = box.center
        lc.stroke(.circle(center: center, radius: mbOutlineRadius), StrokeStyle(width: Fixed16_16(2)), .solid(color))
        let p = clamped(progress)
        if p > .zero {
            lc.stroke(arc(center: center, radius: mbPieRadius, sweep: Trig.twoPi * p), StrokeStyle(width: Fixed16_16(4)),
                      .solid(color), blend: .source)
        }
        lc.flush()
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.fill(device, .image(ImagePaint(image: layer, transform: .translation(Fixed16_16(device.x), Fixed16_16(device.y)),
                                              filter: .nearest)))
        canvas.transform = saved
    }

    /// The pixels `rect` (user space) covers through `t`.
    static func deviceBounds(_ rect: Rect, _ t: Transform) -> IntRect {
        let corners = [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                       Point(x: rect.minX, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY)].map(t.apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!.floor, y0 = ys.min()!.floor
        return IntRect(x: x0, y: y0, width: xs.max()!.ceil - x0, height: ys.max()!.ceil - y0)
    }
}
