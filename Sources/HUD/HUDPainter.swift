// SPDX-License-Identifier: MIT
// Draws one presentation into a canvas: backdrop, bezel, indicator, texts. A pure function of
// (presentation, layout, scale): the layout is in points, `scale` maps points to pixels, and the
// presentation's zoom (`scale`) is applied about the bezel's centre on top of it; its `alpha`
// multiplies the bezel and everything in it, `backdropAlpha` the backdrop.
//
// Damage: `bounds` is every pixel the bezel and its content may touch (content is clipped to it,
// as both libraries clip the bezel), `indicatorBounds` the box a spinner or progress indicator
// changes in. Drawing with `canvas.clip` set to any rect gives exactly the pixels a full draw gives
// inside that rect (every layer under it is redrawn, clipped; nothing depends on the clip), so a
// renderer may clear a damaged rect to the background and call `draw` clipped to it.
import Assets
import HUDProtocol
import Raster

public struct HUDPainter {
    public init() {}

    /// Points → pixels for `layout`: the zoom about the bezel's centre, then `scale`.
    public static func transform(_ p: HUDPresentation, layout: HUDLayout, scale: Fixed16_16) -> Transform {
        Transform.scale(p.scale, about: layout.bezelCenter).concatenating(.scale(scale, scale))
    }

    /// Draws `p` (laid out as `layout`) into `canvas`, within its clip. The backdrop covers
    /// `screen`, by default the whole target (a target that is a part of the screen, such as the
    /// HUD's box, names the screen). The canvas's clip, transform and global alpha are restored.
    public func draw(_ p: HUDPresentation, layout: HUDLayout, into canvas: Canvas, scale: Fixed16_16, screen: IntRect? = nil) {
        let a = p.appearance
        Backdrop.draw(a.mask, color: a.backdropColor, alpha: p.backdropAlpha, screen: screen ?? canvas.target.bounds, into: canvas)
        let alpha = alphaByte(p.alpha)
        if alpha == 0 { return }
        let saved = (clip: canvas.clip, transform: canvas.transform, alpha: canvas.globalAlpha)
        defer { canvas.clip = saved.clip; canvas.transform = saved.transform; canvas.globalAlpha = saved.alpha }
        let hud = bounds(p, layout: layout, scale: scale)
        canvas.clip = saved.clip.intersection(hud)
        if canvas.clip.isEmpty { return }
        let t = Self.transform(p, layout: layout, scale: scale)
        canvas.transform = t
        canvas.globalAlpha = alpha
        let colors = layout.colors

        canvas.fill(.roundedRect(layout.bezel, radius: layout.cornerRadius), .solid(colors.bezel))
        drawContent(p, layout: layout, into: canvas)
        if let entry = layout.entry { draw(entry, colors: colors, into: canvas) }
        for block in layout.texts { draw(block, transform: t, color: colors.text, into: canvas) }
        if let code = layout.supportCode { draw(code, zoom: p.scale, transform: t, into: canvas) }
        if let button = layout.button {
            // MBProgressHUDRoundedButton: a 1 pt border inside the bounds, corner radius ceil(h/2).
            let half = Fixed16_16.half
            let inner = Rect(x: button.minX + half, y: button.minY + half,
                             width: button.size.width - .one, height: button.size.height - .one)
            let radius = button.size.height.halved.ceilFixed - half
            if p.buttonHighlighted {
                let fill = colors.text.withAlpha(mul255(colors.text.a, 26))  // α0.1 of the title colour
                canvas.fill(.roundedRect(button, radius: button.size.height.halved.ceilFixed), .solid(fill))
            }
            canvas.stroke(.roundedRect(inner, radius: radius), StrokeStyle(width: .one), .solid(colors.text))
        }
    }

    /// The pixels the bezel covers, zoom included (everything but the backdrop lies inside).
    public func bounds(_ p: HUDPresentation, layout: HUDLayout, scale: Fixed16_16) -> IntRect {
        RingIndicator.deviceBounds(layout.bezel, Self.transform(p, layout: layout, scale: scale))
    }

    /// The pixels the indicator may change while only it animates (spinner turning, petals
    /// stepping, progress moving): its box and its ink, within the bezel. Empty without content.
    public func indicatorBounds(_ p: HUDPresentation, layout: HUDLayout, scale: Fixed16_16) -> IntRect {
        if case .none = layout.content { return .zero }
        var box = layout.contentFrame
        switch layout.content {
        case .spinner, .ring:
            // The ring's radius may exceed its frame (SV's native frame is 37 whatever r is).
            let reach = layout.indicatorRadius + layout.indicatorThickness.halved + .one
            let c = layout.indicatorCenter
            box = box.union(Rect(x: c.x - reach, y: c.y - reach, width: reach * 2, height: reach * 2))
        default: break
        }
        let t = Self.transform(p, layout: layout, scale: scale)
        return RingIndicator.deviceBounds(box, t).intersection(bounds(p, layout: layout, scale: scale))
    }

    // MARK: - Content

    /// A prompt's field: a faint fill and a 1 pt border in the text colour, bullets and a caret.
    private func draw(_ e: HUDEntryLayout, colors: HUDColors, into canvas: Canvas) {
        let half = Fixed16_16.half
        let inner = Rect(x: e.field.minX + half, y: e.field.minY + half, width: e.field.size.width - .one, height: e.field.size.height - .one)
        canvas.fill(.roundedRect(e.field, radius: e.cornerRadius), .solid(colors.text.withAlpha(mul255(colors.text.a, 20))))
        canvas.stroke(.roundedRect(inner, radius: e.cornerRadius - half), StrokeStyle(width: .one),
                      .solid(colors.text.withAlpha(mul255(colors.text.a, 110))))
        let ink = Paint.solid(colors.text)
        for c in e.bullets { canvas.fill(.circle(center: c, radius: e.bulletRadius), ink) }
        if let o = e.overflow { canvas.fill(.circle(center: o, radius: e.bulletRadius.halved), ink) }
        canvas.fill(.rect(e.caret), ink)
        if let t = e.layoutTag {
            // The layout's tag in a 1 pt box, as the field's border.
            let box = Rect(x: t.minX + half, y: t.minY + half, width: t.size.width - .one, height: t.size.height - .one)
            canvas.stroke(.roundedRect(box, radius: Fixed16_16(3)), StrokeStyle(width: .one), .solid(colors.text.withAlpha(mul255(colors.text.a, 110))))
        }
        if let c = e.capsLockIcon { canvas.fill(Self.path(.capsLock, in: c), ink, rule: .evenOdd) }
        if let k = e.keyboard { draw(k, colors: colors, into: canvas) }
    }

    /// The on-screen keyboard: keys as faint rounded rects in the text colour (function keys
    /// fainter, shift and symbols stronger while on, the key under a finger strongest), icons for
    /// shift, backspace and enter; the labels are the layout's texts, drawn after.
    private func draw(_ k: HUDKeyboardLayout, colors: HUDColors, into canvas: Canvas) {
        let a = colors.text.a
        for key in k.keys {
            let alpha: UInt8 = key.isPressed ? 110 : key.isActive ? 70 : key.isFunction ? 16 : 32
            canvas.fill(.roundedRect(key.frame, radius: k.cornerRadius), .solid(colors.text.withAlpha(mul255(a, alpha))))
            if let icon = key.icon { canvas.fill(Self.path(icon, in: key.frame), .solid(colors.text), rule: .evenOdd) }
        }
    }

    /// An icon's outline, centred in `frame`, a third of its height tall.
    static func path(_ icon: HUDKeyboardLayout.Icon, in frame: Rect) -> Path {
        let s = Swift.max(frame.size.height.double / 3, 6), cx = frame.midX.double, cy = frame.midY.double
        func p(_ x: Double, _ y: Double) -> Point { Point(cx + x * s, cy + y * s) }
        var path = Path()
        func polygon(_ points: [(Double, Double)]) {
            path.move(to: p(points[0].0, points[0].1))
            for q in points.dropFirst() { path.line(to: p(q.0, q.1)) }
            path.close()
        }
        switch icon {
        case .shift:
            // An upward arrow: a triangle over a stem.
            polygon([(0, -0.55), (0.55, 0.05), (0.22, 0.05), (0.22, 0.5), (-0.22, 0.5), (-0.22, 0.05), (-0.55, 0.05)])
        case .capsLock:
            // Shift's arrow over a bar, larger: Caps Lock's sign (U+21EA).
            polygon([(0, -1.3), (1.1, -0.15), (0.45, -0.15), (0.45, 0.55), (-0.45, 0.55), (-0.45, -0.15), (-1.1, -0.15)])
            polygon([(-0.45, 0.85), (0.45, 0.85), (0.45, 1.3), (-0.45, 1.3)])
        case .backspace:
            // A tag pointing left, with its middle cut out as a cross would be too fine to read.
            polygon([(-0.75, 0), (-0.35, -0.45), (0.7, -0.45), (0.7, 0.45), (-0.35, 0.45)])
            polygon([(-0.15, -0.12), (0.45, -0.12), (0.45, 0.12), (-0.15, 0.12)])
        case .enter:
            // A return arrow: left-pointing head on a bar that turns up at the right.
            polygon([(-0.7, 0.15), (-0.25, -0.25), (-0.25, 0.03), (0.45, 0.03), (0.45, -0.5), (0.67, -0.5), (0.67, 0.27),
                     (-0.25, 0.27), (-0.25, 0.55)])
        }
        return path
    }

    private func drawContent(_ p: HUDPresentation, layout: HUDLayout, into canvas: Canvas) {
        let colors = layout.colors
        let frame = layout.contentFrame, center = layout.indicatorCenter
        var elapsed = Interval.zero, progress = Fixed16_16.zero
        switch p.indicator {
        case .spinner(let e), .activity(let e): elapsed = e
        case .ring(let v), .pie(let v), .annular(let v), .bar(let v): progress = v
        case .none, .image: break
        }
        switch layout.content {
        case .none:
            break
        case .spinner:
            SpinnerIndicator.draw(into: canvas, center: center, radius: layout.indicatorRadius,
                                  thickness: layout.indicatorThickness, color: colors.indicator, elapsed: elapsed)
        case .activity:
            ActivityIndicator.draw(into: canvas, center: center, color: colors.indicator, elapsed: elapsed)
        case .ring:
            RingIndicator.drawSV(into: canvas, center: center, radius: layout.indicatorRadius,
                                 thickness: layout.indicatorThickness, progress: progress,
                                 color: colors.indicator, track: colors.track)
        case .pie:
            RingIndicator.drawPie(into: canvas, box: frame, progress: progress, color: colors.indicator)
        case .annular:
            RingIndicator.drawAnnular(into: canvas, center: center, progress: progress, color: colors.indicator, track: colors.track)
        case .bar:
            // Fills from the right in a right-to-left HUD, as UIKit's and the web's progress bars do.
            BarIndicator.draw(into: canvas, frame: frame, progress: progress, color: colors.indicator,
                              mirrored: p.appearance.textDirection == .rtl)
        case .symbol(let kind):
            Icons.draw(kind, into: canvas, rect: frame, color: colors.indicator)
        case .bitmap(let image, let tinted):
            canvas.draw(image, in: frame, tint: tinted ? colors.indicator : nil)
        case .placeholder:
            Icons.placeholder(into: canvas, rect: frame, color: colors.indicator)
        }
    }

    /// The support code in whole device pixels: its origin where the transform puts the frame's,
    /// rounded to a pixel; each module `modulePixels` square (times the zoom while one runs, rounded,
    /// at least 1), black on a white quiet zone, each row's dark runs filled as pixel rects.
    private func draw(_ code: HUDSupportCode, zoom: Fixed16_16, transform t: Transform, into canvas: Canvas) {
        let origin = t.apply(code.frame.origin)
        let x0 = (origin.x + .half).floor, y0 = (origin.y + .half).floor
        let px = zoom == .one ? code.modulePixels
            : Swift.max(1, Int32((Int64(code.modulePixels) * Int64(zoom.raw) + 0x8000) >> 16))
        let side = code.sideModules * px
        let box = IntRect(x: x0, y: y0, width: side, height: side)
        if box.intersection(canvas.clip).isEmpty { return }
        canvas.fill(box, .solid(.white))
        let ink = Paint.solid(.black), n = code.matrix.size, quiet = Int32(HUDSupportCode.quietZone) * px
        for row in 0..<n {
            let y = y0 + quiet + Int32(row) * px
            var column = 0
            while column < n {
                guard code.matrix[row, column] else { column += 1; continue }
                let start = column
                while column < n && code.matrix[row, column] { column += 1 }
                canvas.fill(IntRect(x: x0 + quiet + Int32(start) * px, y: y, width: Int32(column - start) * px, height: px), ink)
            }
        }
    }

    /// Draws a text block through `TextLayout.draw`: pens through the bezel's transform, glyphs
    /// rasterized at the font size times its scale, so text zooms with the bezel and stays sharp.
    private func draw(_ block: HUDTextBlock, transform t: Transform, color: Color, into canvas: Canvas) {
        let text = block.text
        // Skip a block far from the clip (a spinner-box redraw): its box grown by one em on
        // every side holds all of its ink.
        let em = text.fontSize
        let reach = Rect(x: block.origin.x - em, y: block.origin.y - em,
                         width: text.size.width + em * 2, height: text.size.height + em * 2)
        if RingIndicator.deviceBounds(reach, t).intersection(canvas.clip).isEmpty { return }
        text.draw(into: canvas, origin: block.origin, transform: t, color: color)
    }
}

extension Rect {
    func union(_ o: Rect) -> Rect {
        let x0 = Swift.min(minX, o.minX), y0 = Swift.min(minY, o.minY)
        return Rect(x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
    }
}
