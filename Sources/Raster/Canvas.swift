// SPDX-License-Identifier: MIT
// The drawing API: fill and stroke paths, draw masks and images, with a clip, a transform and a
// global alpha, into a premultiplied pixmap view. One canvas owns the scan converter's scratch
// memory, so drawing allocates little once warm; use one canvas per thread.
//
// Solid fills of whole rectangles may be held back (see PendingFill) and written when something
// is drawn over them: call `flush()` before reading the target's pixels while the canvas lives
// (releasing the canvas flushes too).

public final class Canvas {
    public let target: PixmapView
    /// Pixels outside the clip are never touched (always within the target).
    public var clip: IntRect { didSet { clip = clip.intersection(target.bounds) } }
    /// Maps user space (paths, paints) to pixels.
    public var transform: Transform = .identity
    /// Multiplies every paint's alpha (fades).
    public var globalAlpha: UInt8 = 255
    /// Flattening tolerance in pixels.
    public var tolerance: Fixed16_16 = Path.defaultTolerance

    let rasterizer = Rasterizer()
    private let gradients = GradientTableCache()
    private let scratch: UnsafeMutablePointer<UInt32>
    private var pending: PendingFill?

    public init(_ target: PixmapView) {
        self.target = target
        clip = target.bounds
        scratch = .allocate(capacity: Swift.max(1, Int(target.width)))
    }
    deinit {
        flush()
        scratch.deallocate()
    }

    /// Writes every pixel held back by a lazy solid fill. Drawing calls never need it; reading the
    /// target directly while the canvas lives does.
    public func flush() {
        pending?.writeAll(in: target)
        pending = nil
    }

    private func blitter(_ paint: Paint, _ blend: BlendMode) -> PaintBlitter {
        PaintBlitter(target: target, paint: paint, transform: transform, blend: blend, globalAlpha: globalAlpha,
                     scratch: scratch, pending: pending, gradients: gradients)
    }

    /// Fills `path` (every subpath closed) with `paint`.
    public func fill(_ path: Path, _ paint: Paint, rule: FillRule = .nonZero, blend: BlendMode = .sourceOver) {
        if let rect = pixelAlignedRect(path) { fill(rect, paint, blend: blend); return }
        rasterizer.reset(clip: clip)
        rasterizer.addPath(path, transform: transform, tolerance: tolerance)
        var b = blitter(paint, blend)
        rasterizer.rasterize(rule: rule, into: &b)
    }

    /// Fills whole pixels of `rect` (device space, clipped) with `paint`: no scan conversion.
    public func fill(_ rect: IntRect, _ paint: Paint, blend: BlendMode = .sourceOver) {
        let r = rect.intersection(clip)
        if r.isEmpty { return }
        if case .solid(let color) = paint, foldIntoPending(r, scalePixel(color.premultiplied.argb, UInt32(globalAlpha)), blend) { return }
        var b = blitter(paint, blend)
        withUnsafeTemporaryAllocation(of: Span.self, capacity: 1) { span in
            span[0] = Span(x: r.x, length: r.width, alpha: 255)
            for y in r.y..<r.maxY { b.blitRow(y: y, spans: UnsafeBufferPointer(span)) }
        }
    }

    /// Strokes `path` with `style`. `trimStart`/`trimEnd` keep only that fraction of the path's
    /// length, as CAShapeLayer's strokeStart/strokeEnd.
    public func stroke(_ path: Path, _ style: StrokeStyle, _ paint: Paint,
                       trimStart: Fixed16_16 = .zero, trimEnd: Fixed16_16 = .one, blend: BlendMode = .sourceOver) {
        // Stroke in user space (so a scaled stroke keeps its shape), flattening finely enough for
        // the pixels the transform makes of it.
        let userTolerance = Swift.max(Fixed16_16(raw: 16), tolerance / transform.scaleFactor)
        var contours = path.flattened(tolerance: userTolerance)
        if trimStart != .zero || trimEnd != .one { contours = contours.trimmed(start: trimStart, end: trimEnd) }
        let polygons = Stroker.stroke(contours, style: style, tolerance: userTolerance)
        rasterizer.reset(clip: clip)
        let t = transform
        for poly in polygons { rasterizer.addPolygon(t.isIdentity ? poly : poly.map(t.apply)) }
        var b = blitter(paint, blend)
        rasterizer.rasterize(rule: .nonZero, into: &b)
    }

    /// Composites `paint` through `mask`, moved by (dx, dy) pixels (the transform does not apply).
    public func draw(_ mask: Mask, dx: Int32 = 0, dy: Int32 = 0, paint: Paint, blend: BlendMode = .sourceOver) {
        let placed = IntRect(x: mask.origin.x + dx, y: mask.origin.y + dy, width: mask.width, height: mask.height)
        let r = placed.intersection(clip)
        if r.isEmpty { return }
        var b = blitter(paint, blend)
        mask.coverage.withUnsafeBufferPointer { cov in
            for y in r.y..<r.maxY {
                let row = cov.baseAddress! + Int(y - placed.y) * Int(mask.width) + Int(r.x - placed.x)
                b.blitMaskRow(y: y, x: r.x, mask: row, count: Int(r.width))
            }
        }
    }

    /// Draws `image` scaled into `rect` (user space); a `tint` treats it as a template.
    public func draw(_ image: Pixmap, in rect: Rect, tint: Color? = nil, filter: ImagePaint.Filter = .bilinear) {
        fill(.rect(rect), .image(ImagePaint(image: image, in: rect, tint: tint, filter: filter)))
    }

    /// Replaces every pixel in the clip with `color`.
    public func clear(_ color: Color) {
        if clip.isEmpty { return }
        _ = foldIntoPending(clip, color.premultiplied.argb, .source)
    }

    /// Holds back a solid fill of `r` when it can: a replacing fill (source, or opaque over) that
    /// covers any earlier pending rectangle starts a new one; a fill over exactly the pending
    /// rectangle, none of whose rows is written yet, folds into its colour.
    private func foldIntoPending(_ r: IntRect, _ s: UInt32, _ blend: BlendMode) -> Bool {
        let replaces = blend == .source || s >> 24 == 255
        if replaces {
            if let p = pending, !r.contains(p.rect) { p.writeAll(in: target) }
            pending = PendingFill(rect: r, color: s)
            return true
        }
        if let p = pending, p.rect == r, p.writtenCount == 0, blend == .sourceOver {
            p.color = sourceOver(s, p.color)
            return true
        }
        return false
    }

    /// The device rect a path covers exactly when it is an axis-aligned rectangle on whole pixels.
    private func pixelAlignedRect(_ path: Path) -> IntRect? {
        let e = path.elements
        guard e.count == 5 || e.count == 6, case .move(let p0) = e[0], case .line(let p1) = e[1],
              case .line(let p2) = e[2], case .line(let p3) = e[3] else { return nil }
        if e.count == 6 { guard case .line(let p4) = e[4], p4 == p0 else { return nil } }
        guard case .close = e[e.count - 1] else { return nil }
        let q = [p0, p1, p2, p3].map(transform.apply)
        guard q.allSatisfy({ $0.x.raw & 0xFFFF == 0 && $0.y.raw & 0xFFFF == 0 }) else { return nil }
        let horizontalFirst = q[0].y == q[1].y && q[1].x == q[2].x && q[2].y == q[3].y && q[3].x == q[0].x
        let verticalFirst = q[0].x == q[1].x && q[1].y == q[2].y && q[2].x == q[3].x && q[3].y == q[0].y
        guard horizontalFirst || verticalFirst else { return nil }
        let xs = q.map(\.x.floor), ys = q.map(\.y.floor)
        let x0 = xs.min()!, y0 = ys.min()!
        return IntRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}

extension Transform {
    /// sqrt(|det|): how much the transform scales lengths (exact for uniform scales and rotations).
    public var scaleFactor: Fixed16_16 {
        let det = Swift.abs(Int64(a.raw) * Int64(d.raw) - Int64(b.raw) * Int64(c.raw))  // 32.32
        return Fixed16_16(wide: Swift.max(1, Int64(integerSquareRoot(UInt64(det)))))
    }
}

extension Path {
    /// The coverage of this path (transformed) as a mask, within `clip` if given.
    public func rasterizeMask(rule: FillRule = .nonZero, transform: Transform = .identity, clip: IntRect? = nil,
                              tolerance: Fixed16_16 = Path.defaultTolerance) -> Mask {
        let r = Rasterizer()
        r.reset(clip: clip ?? IntRect(x: -(1 << 14), y: -(1 << 14), width: 1 << 15, height: 1 << 15))
        r.addPath(self, transform: transform, tolerance: tolerance)
        let b = r.bounds
        if b.isEmpty { return .empty }
        var blit = MaskBlitter(mask: Mask(originX: b.x, originY: b.y, width: b.width, height: b.height,
                                          coverage: [UInt8](repeating: 0, count: Int(b.width) * Int(b.height))))
        r.rasterize(rule: rule, into: &blit)
        return blit.mask
    }
}
