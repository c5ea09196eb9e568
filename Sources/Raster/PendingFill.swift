// SPDX-License-Identifier: MIT
// A lazily written solid rectangle. A frame usually starts by filling the whole target with one
// colour and then dimming it with another; written eagerly that is two full passes over memory
// before anything visible is drawn. Instead the canvas remembers "these pixels are all this
// colour": solid fills over the whole rectangle fold into the colour, and a row is written only
// when something is drawn on it (in one pass, with the solid paint's spans blended against the
// known colour rather than read back from memory) or when the canvas is flushed.

final class PendingFill {
    let rect: IntRect
    @exclusivity(unchecked) var color: UInt32
    /// Rows of `rect` already written to memory (touched for every row drawn: unchecked exclusivity
    /// keeps the runtime's access tracking out of that path).
    @exclusivity(unchecked) private var written: [Bool]
    @exclusivity(unchecked) private(set) var writtenCount = 0

    init(rect: IntRect, color: UInt32) {
        self.rect = rect; self.color = color
        written = [Bool](repeating: false, count: Int(rect.height))
    }

    /// True while row `y` still holds only the pending colour, not yet in memory.
    @inline(__always) func isPending(row y: Int32) -> Bool {
        y >= rect.y && y < rect.maxY && !written[Int(y - rect.y)]
    }

    /// Writes row `y`'s pending pixels.
    func write(row y: Int32, in target: PixmapView) {
        (target.row(y) + Int(rect.x)).update(repeating: color, count: Int(rect.width))
        markWritten(y)
    }

    func markWritten(_ y: Int32) {
        written[Int(y - rect.y)] = true
        writtenCount += 1
    }

    /// Writes every row not yet written.
    func writeAll(in target: PixmapView) {
        if writtenCount == Int(rect.height) { return }
        for y in rect.y..<rect.maxY where !written[Int(y - rect.y)] { write(row: y, in: target) }
    }

    /// Row `y` composed in one pass: the pending colour where no span falls, and the solid paint
    /// blended against the pending colour (not memory) where spans fall inside the rectangle.
    func compose(row y: Int32, spans: UnsafeBufferPointer<Span>, solid: UInt32, blend: BlendMode, in target: PixmapView) {
        let row = target.row(y)
        let x0 = rect.x, x1 = rect.maxX
        var x = x0  // the first pending pixel of the row not yet written
        for span in spans {
            let s0 = span.x, s1 = span.x + span.length
            // Parts of the span outside the rectangle blend with memory as usual.
            if s0 < x0 {
                PaintBlitter.composite(row + Int(s0), solid: solid, Int(Swift.min(s1, x0) - s0), coverage: UInt32(span.alpha), blend)
            }
            if s1 > x1 {
                let from = Swift.max(s0, x1)
                PaintBlitter.composite(row + Int(from), solid: solid, Int(s1 - from), coverage: UInt32(span.alpha), blend)
            }
            let a = Swift.max(s0, x0), b = Swift.min(s1, x1)
            if a >= b { continue }
            if a > x { (row + Int(x)).update(repeating: color, count: Int(a - x)) }
            (row + Int(a)).update(repeating: blended(solid, coverage: UInt32(span.alpha), blend), count: Int(b - a))
            x = b
        }
        if x < x1 { (row + Int(x)).update(repeating: color, count: Int(x1 - x)) }
        markWritten(y)
    }

    /// The pending colour with `solid` drawn over it at `coverage`.
    @inline(__always) func blended(_ solid: UInt32, coverage: UInt32, _ blend: BlendMode) -> UInt32 {
        let s = scalePixel(solid, coverage)
        switch blend {
        case .sourceOver: return sourceOver(s, color)
        case .source: return s &+ scalePixel(color, 255 &- coverage)
        }
    }
}
