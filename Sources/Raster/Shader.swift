// SPDX-License-Identifier: MIT
// Shaders turn a paint into premultiplied colours for a run of pixels. Each maps the pixel centre
// (x + ½, y + ½) back into paint space through the inverse transform and steps along the row by
// the inverse's first column, in 64-bit 16.16 integers. Gradients look up a 256-entry table of
// premultiplied colours interpolated between premultiplied stops (as pixman and CSS do).
//
// A shader is a class: the blitter holds it for a whole fill and asks it for every span, and as a
// struct (an enum holding a pixmap, and a table) each `if let` of it was a value-witness copy of
// the whole thing, most of an animated spinner frame's overhead outside the pixels. Tables come
// from the canvas's `GradientTableCache`, so a gradient drawn again with the same stops (the
// spinner's mask, at every frame) is not rebuilt.

final class Shader {
    enum Kind {
        case linear(origin: Point, dx: Int64, dy: Int64, lengthSquared: Int64)  // d in 24.8
        case radial(center: Point, radius: Int64)
        case conic(center: Point, startTurn: UInt32)
        case image(Pixmap, tint: UInt32?, filter: ImagePaint.Filter)
    }
    let kind: Kind
    let inverse: Transform  // device → paint space
    let table: [UInt32]

    /// Nil when the paint is solid or its transform cannot be inverted (nothing is drawn then).
    init?(_ paint: Paint, transform: Transform, gradients: GradientTableCache) {
        switch paint {
        case .solid:
            return nil
        case .linear(let start, let end, let stops):
            guard let inv = transform.inverted() else { return nil }
            let dx = (Int64(end.x.raw) - Int64(start.x.raw)) >> 8, dy = (Int64(end.y.raw) - Int64(start.y.raw)) >> 8
            kind = .linear(origin: start, dx: dx, dy: dy, lengthSquared: Swift.max(1, dx * dx + dy * dy))
            inverse = inv; table = gradients.table(stops)
        case .radial(let center, let radius, let stops):
            guard let inv = transform.inverted() else { return nil }
            kind = .radial(center: center, radius: Swift.max(1, Int64(radius.raw)))
            inverse = inv; table = gradients.table(stops)
        case .conic(let center, let start, let stops):
            guard let inv = transform.inverted() else { return nil }
            // The start angle as a 16-bit fraction of a turn.
            let turn = roundedDivide(Int64(start.raw) << 16, Int64(Trig.twoPi.raw))
            kind = .conic(center: center, startTurn: UInt32(truncatingIfNeeded: turn) & 0xFFFF)
            inverse = inv; table = gradients.table(stops)
        case .image(let p):
            guard let inv = p.transform.concatenating(transform).inverted(), p.image.width > 0, p.image.height > 0 else { return nil }
            kind = .image(p.image, tint: p.tint?.premultiplied.argb, filter: p.filter)
            inverse = inv; table = []
        }
    }

    /// Premultiplied colours for pixels x..<x+count of row y.
    func shade(x: Int32, y: Int32, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        // The first pixel centre in paint space, and the step per pixel, in 16.16.
        let p = inverse.apply(Point(x: Fixed16_16(raw: (x << 16) | 0x8000), y: Fixed16_16(raw: (y << 16) | 0x8000)))
        var px = Int64(p.x.raw), py = Int64(p.y.raw)
        let sx = Int64(inverse.a.raw), sy = Int64(inverse.b.raw)
        switch kind {
        case .linear(let o, let dx, let dy, let len2):
            // t = ((p − o)·d) / |d|², computed in 24.8 so the products stay far from overflow.
            let t0 = ((px - Int64(o.x.raw)) >> 8) * dx + ((py - Int64(o.y.raw)) >> 8) * dy
            let dt = (sx >> 8) * dx + (sy >> 8) * dy
            table.withUnsafeBufferPointer { lut in
                for i in 0..<count {
                    let t = roundedDivide((t0 + Int64(i) * dt) * 255, len2)
                    out[i] = lut[Int(Swift.min(255, Swift.max(0, t)))]
                }
            }
        case .radial(let c, let r):
            let scale = 255 / Double(r)
            table.withUnsafeBufferPointer { lut in
                for i in 0..<count {
                    let dx = px - Int64(c.x.raw), dy = py - Int64(c.y.raw)
                    // IEEE square root is correctly rounded, so this is the same on every machine.
                    let t = Int64((Double(dx * dx + dy * dy).squareRoot() * scale).rounded())
                    out[i] = lut[Int(Swift.min(255, t))]
                    px += sx; py += sy
                }
            }
        case .conic(let c, let start):
            table.withUnsafeBufferPointer { lut in
                for i in 0..<count {
                    let turn = (Trig.turnFraction16(x: px - Int64(c.x.raw), y: py - Int64(c.y.raw)) &- start) & 0xFFFF
                    out[i] = lut[Int((turn * 255 + 32767) / 65535)]
                    px += sx; py += sy
                }
            }
        case .image(let image, let tint, let filter):
            let view = image.view
            for i in 0..<count {
                var s = filter == .nearest ? Self.nearest(view, px, py) : Self.bilinear(view, px, py)
                if let tint { s = scalePixel(tint, s >> 24) }
                out[i] = s
                px += sx; py += sy
            }
        }
    }

    @inline(__always) static func nearest(_ v: PixmapView, _ x: Int64, _ y: Int64) -> UInt32 {
        let ix = Int32(Swift.min(Int64(v.width - 1), Swift.max(0, x >> 16)))
        let iy = Int32(Swift.min(Int64(v.height - 1), Swift.max(0, y >> 16)))
        return v.row(iy)[Int(ix)]
    }

    /// Bilinear sample with edge pixels repeated, weights in 1/256.
    @inline(__always) static func bilinear(_ v: PixmapView, _ x: Int64, _ y: Int64) -> UInt32 {
        let u = x - 0x8000, w = y - 0x8000  // sample positions relative to pixel centres
        let x0 = u >> 16, y0 = w >> 16
        let fx = UInt32((u >> 8) & 0xFF), fy = UInt32((w >> 8) & 0xFF)
        let maxX = Int64(v.width - 1), maxY = Int64(v.height - 1)
        let xa = Int(Swift.min(maxX, Swift.max(0, x0))), xb = Int(Swift.min(maxX, Swift.max(0, x0 + 1)))
        let ya = Int32(Swift.min(maxY, Swift.max(0, y0))), yb = Int32(Swift.min(maxY, Swift.max(0, y0 + 1)))
        let r0 = v.row(ya), r1 = v.row(yb)
        if fx == 0 && fy == 0 { return r0[xa] }
        let top = lerp256(r0[xa], r0[xb], fx), bottom = lerp256(r1[xa], r1[xb], fx)
        return lerp256(top, bottom, fy)
    }

    /// a + (b − a)·t/256 per channel, rounded.
    @inline(__always) static func lerp256(_ a: UInt32, _ b: UInt32, _ t: UInt32) -> UInt32 {
        if t == 0 { return a }
        let it = 256 - t
        let rb = (((a & 0x00FF_00FF) &* it &+ (b & 0x00FF_00FF) &* t &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        let ag = ((((a >> 8) & 0x00FF_00FF) &* it &+ ((b >> 8) & 0x00FF_00FF) &* t &+ 0x0080_0080)) & 0xFF00_FF00
        return rb | ag
    }

    /// 256 premultiplied colours for t = 0/255 ... 255/255; padded before the first stop and after the last.
    static func gradientTable(_ stops: [GradientStop]) -> [UInt32] {
        let sorted = stops.sorted { $0.offset < $1.offset }
        guard let first = sorted.first, let last = sorted.last else { return [UInt32](repeating: 0, count: 256) }
        var out = [UInt32](repeating: 0, count: 256)
        var k = 0
        for i in 0..<256 {
            let t = Int64(i) * 65536 / 255  // 16.16 position
            if t <= Int64(first.offset.raw) { out[i] = first.color.premultiplied.argb; continue }
            if t >= Int64(last.offset.raw) { out[i] = last.color.premultiplied.argb; continue }
            while k + 1 < sorted.count && Int64(sorted[k + 1].offset.raw) < t { k += 1 }
            let a = sorted[k], b = sorted[Swift.min(k + 1, sorted.count - 1)]
            let span = Int64(b.offset.raw) - Int64(a.offset.raw)
            let w = span <= 0 ? 255 : UInt32((t - Int64(a.offset.raw)) * 255 / span)
            out[i] = mixPixel(a.color.premultiplied.argb, b.color.premultiplied.argb, w)
        }
        return out
    }
}

/// The gradient table last built, by its stops (one a canvas: `Shader` asks it for every gradient).
final class GradientTableCache {
    private var stops: [GradientStop] = []
    private var built: [UInt32] = []

    /// `Shader.gradientTable(stops)`, built again only when the stops differ from the last ones.
    func table(_ stops: [GradientStop]) -> [UInt32] {
        if built.isEmpty || stops != self.stops {
            built = Shader.gradientTable(stops)
            self.stops = stops
        }
        return built
    }
}
