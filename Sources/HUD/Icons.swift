// SPDX-License-Identifier: MIT
// The success, error and info images. SVProgressHUD 2.3.1 shows the SF Symbols `checkmark`,
// `xmark` and `info.circle` (hud-behaviour.md A1); SF Symbols are Apple's and not available here,
// so these are our own vector paths drawn in their spirit: round-capped strokes of one weight in
// the indicator colour, stretched to the image size as SV's image view stretches its image
// (scale to fill). They are always drawn in the indicator colour: SV's untinted SF Symbols would
// take UIKit's default tint (system blue), which we do not reproduce.
//
// Also here: the placeholder drawn where a custom image failed to load (a box with a cross).
import HUDProtocol
import Raster

enum Icons {
    /// Stroke width as a fraction of the smaller side (≈ SF Symbols' regular weight at 28 pt).
    static let weight = Fixed16_16(0.09)

    /// Draws `kind` (not `.custom`) into `rect` (points) in `color`.
    static func draw(_ kind: HUDImageKind, into canvas: Canvas, rect: Rect, color: Color) {
        let side = Swift.min(rect.size.width, rect.size.height)
        let width = side * weight
        let style = StrokeStyle(width: width, cap: .round, join: .round)
        func pt(_ u: Double, _ v: Double) -> Point {
            Point(x: rect.minX + rect.size.width * Fixed16_16(u), y: rect.minY + rect.size.height * Fixed16_16(v))
        }
        switch kind {
        case .success:
            var p = Path()
            p.move(to: pt(0.16, 0.54)); p.line(to: pt(0.39, 0.78)); p.line(to: pt(0.85, 0.21))
            canvas.stroke(p, style, .solid(color))
        case .error:
            var p = Path()
            p.move(to: pt(0.22, 0.22)); p.line(to: pt(0.78, 0.78))
            p.move(to: pt(0.78, 0.22)); p.line(to: pt(0.22, 0.78))
            canvas.stroke(p, style, .solid(color))
        case .info:
            // A circle, the dot, and an "i" with a serif and a foot, as info.circle has.
            let ring = Fixed16_16(0.075)
            let inset = side * ring * Fixed16_16.half + side * Fixed16_16(0.04)
            let circle = Rect(x: rect.minX + inset, y: rect.minY + inset,
                              width: rect.size.width - inset * 2, height: rect.size.height - inset * 2)
            canvas.stroke(.ellipse(in: circle), StrokeStyle(width: side * ring), .solid(color))
            let dotR = side * Fixed16_16(0.062)
            let dotC = pt(0.5, 0.3)
            canvas.fill(.ellipse(in: Rect(x: dotC.x - dotR, y: dotC.y - dotR, width: dotR * 2, height: dotR * 2)), .solid(color))
            var p = Path()
            p.move(to: pt(0.42, 0.44)); p.line(to: pt(0.51, 0.44)); p.line(to: pt(0.51, 0.72))
            p.move(to: pt(0.41, 0.73)); p.line(to: pt(0.61, 0.73))
            canvas.stroke(p, StrokeStyle(width: side * Fixed16_16(0.08), cap: .round, join: .round), .solid(color))
        case .custom:
            placeholder(into: canvas, rect: rect, color: color)
        }
    }

    /// A box with a cross: where an image that failed to load would be.
    static func placeholder(into canvas: Canvas, rect: Rect, color: Color) {
        let side = Swift.min(rect.size.width, rect.size.height)
        let w = Swift.max(Fixed16_16.one, side * Fixed16_16(0.06))
        let box = Rect(x: rect.minX + w.halved, y: rect.minY + w.halved, width: rect.size.width - w, height: rect.size.height - w)
        var p = Path.roundedRect(box, radius: side * Fixed16_16(0.12))
        p.move(to: Point(x: box.minX, y: box.minY)); p.line(to: Point(x: box.maxX, y: box.maxY))
        p.move(to: Point(x: box.maxX, y: box.minY)); p.line(to: Point(x: box.minX, y: box.maxY))
        canvas.stroke(p, StrokeStyle(width: w, cap: .butt, join: .round), .solid(color))
    }
}
