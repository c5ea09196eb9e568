// SPDX-License-Identifier: MIT
// The blitter that composites a paint through coverage spans into a premultiplied pixmap.
// Solid paints go straight to the compositing loops (an opaque run becomes a fill); other paints
// are shaded a run at a time into a scratch row first.

struct PaintBlitter: Blitter {
    let target: PixmapView
    let blend: BlendMode
    let globalAlpha: UInt32
    let solid: UInt32  // premultiplied, global alpha applied; unused with a shader
    let shader: Shader?
    let scratch: UnsafeMutablePointer<UInt32>  // at least the target's width
    let pending: PendingFill?

    init(target: PixmapView, paint: Paint, transform: Transform, blend: BlendMode, globalAlpha: UInt8,
         scratch: UnsafeMutablePointer<UInt32>, pending: PendingFill?, gradients: GradientTableCache) {
        self.target = target; self.blend = blend; self.globalAlpha = UInt32(globalAlpha); self.scratch = scratch
        self.pending = pending
        if case .solid(let c) = paint {
            solid = scalePixel(c.premultiplied.argb, UInt32(globalAlpha)); shader = nil
        } else {
            solid = 0; shader = Shader(paint, transform: transform, gradients: gradients)
        }
    }

    mutating func blitRow(y: Int32, spans: UnsafeBufferPointer<Span>) {
        if let pending, pending.isPending(row: y) {
            if shader == nil {
                pending.compose(row: y, spans: spans, solid: solid, blend: blend, in: target)
                return
            }
            pending.write(row: y, in: target)
        }
        let row = target.row(y)
        for span in spans {
            let d = row + Int(span.x)
            let n = Int(span.length)
            if let shader {
                shader.shade(x: span.x, y: y, count: n, into: scratch)
                Self.composite(d, scratch, n, coverage: UInt32(mul255(span.alpha, UInt8(globalAlpha))), blend)
            } else {
                Self.composite(d, solid: solid, n, coverage: UInt32(span.alpha), blend)
            }
        }
    }

    /// One row of a coverage mask: `count` pixels from (x, y), coverage read from `mask`.
    mutating func blitMaskRow(y: Int32, x: Int32, mask: UnsafePointer<UInt8>, count: Int) {
        if let pending, pending.isPending(row: y) { pending.write(row: y, in: target) }
        let d = target.row(y) + Int(x)
        guard shader == nil, blend == .sourceOver else {
            // Other paints and blends: runs of equal coverage as spans.
            var i = 0
            while i < count {
                let a = mask[i]
                var j = i + 1
                while j < count && mask[j] == a { j += 1 }
                if a != 0 {
                    var span = Span(x: x + Int32(i), length: Int32(j - i), alpha: a)
                    withUnsafePointer(to: &span) { blitRowOfOne(y: y, span: $0) }
                }
                i = j
            }
            return
        }
        maskedSourceOver(d, coverage: mask, count: count, color: solid)
    }

    private mutating func blitRowOfOne(y: Int32, span: UnsafePointer<Span>) {
        blitRow(y: y, spans: UnsafeBufferPointer(start: span, count: 1))
    }

    @inline(__always)
    static func composite(_ d: UnsafeMutablePointer<UInt32>, solid: UInt32, _ n: Int, coverage: UInt32, _ blend: BlendMode) {
        switch blend {
        case .sourceOver:
            let s = coverage == 255 ? solid : scalePixel(solid, coverage)
            if n == 1 { d[0] = sourceOver(s, d[0]); return }  // anti-aliased edges: mostly single pixels
            if s >> 24 == 255 { d.update(repeating: s, count: n); return }
            if s == 0 { return }
            scaleAndAdd(d, count: n, add: s, k: 255 &- (s >> 24))
        case .source:
            if coverage == 255 { d.update(repeating: solid, count: n); return }
            scaleAndAdd(d, count: n, add: scalePixel(solid, coverage), k: 255 &- coverage)
        }
    }

    @inline(__always)
    static func composite(_ d: UnsafeMutablePointer<UInt32>, _ s: UnsafeMutablePointer<UInt32>, _ n: Int, coverage: UInt32, _ blend: BlendMode) {
        if coverage == 0 && blend == .sourceOver { return }
        switch blend {
        case .sourceOver:
            if coverage == 255 {
                for i in 0..<n { d[i] = sourceOver(s[i], d[i]) }
            } else {
                for i in 0..<n { d[i] = sourceOver(scalePixel(s[i], coverage), d[i]) }
            }
        case .source:
            for i in 0..<n { d[i] = mixPixel(d[i], s[i], coverage) }
        }
    }
}

/// Collects coverage into a mask.
struct MaskBlitter: Blitter {
    var mask: Mask
    mutating func blitRow(y: Int32, spans: UnsafeBufferPointer<Span>) {
        let rowStart = Int(y - mask.origin.y) * Int(mask.width)
        for s in spans {
            let start = rowStart + Int(s.x - mask.origin.x)
            for i in start..<(start + Int(s.length)) { mask.coverage[i] = s.alpha }
        }
    }
}
