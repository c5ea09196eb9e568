// Lays out UTF-8 status text with a fallback chain at one pixel size: no kerning and no shaping
// (each Unicode scalar is one glyph from the cmap), pen advances unhinted and fractional in 16.16,
// greedy line wrapping, tail truncation of the last line, left/center/right alignment. The HUD
// measures with it (SVProgressHUD: within 200x300 pt, last line truncated) and then draws it.

import Raster

/// How lines sit within the layout's width (the widest line).
public enum TextAlignment: Sendable { case left, center, right }

/// One glyph on a line.
public struct PositionedGlyph: Hashable, Sendable {
    /// The character it draws.
    public var scalar: Unicode.Scalar
    /// Index into the chain's `faces`.
    public var faceIndex: Int
    public var glyph: UInt32
    /// Pen position from the start of the line, in pixels.
    public var x: Fixed16_16
    public var advance: Fixed16_16
}

/// One laid-out line.
public struct TextLine: Hashable, Sendable {
    public var glyphs: [PositionedGlyph]
    /// Sum of advances, trailing spaces excluded.
    public var width: Fixed16_16
    /// Where the line starts from the layout's left edge (alignment).
    public var x: Fixed16_16
    /// The baseline from the layout's top edge.
    public var baseline: Fixed16_16
    /// Whether this line ends in an ellipsis standing for text that did not fit.
    public var isTruncated: Bool
    /// The line's characters (with "…" when truncated).
    public var text: String { String(String.UnicodeScalarView(glyphs.map(\.scalar))) }
}

/// Text laid out in lines. Coordinates are pixels from the layout's top-left corner.
public struct TextLayout {
    public let chain: FontChain
    /// Pixels per em.
    public let fontSize: Fixed16_16
    public let alignment: TextAlignment
    public let lines: [TextLine]
    /// Baseline to baseline: the primary face's ascender − descender + line gap, scaled.
    public let lineHeight: Fixed16_16
    /// The primary face's ascender and descender (positive, below the baseline), scaled.
    public let ascent: Fixed16_16
    public let descent: Fixed16_16
    /// Whether lines were dropped to fit `maxHeight` (the last line then ends in "…").
    public var isTruncated: Bool { lines.last?.isTruncated ?? false }

    /// The bounding size: the widest line by the number of lines × line height.
    public var size: Size {
        Size(width: lineWidths.max() ?? .zero, height: lineHeight * Int32(lines.count))
    }
    /// The widest and tallest a layout gets, in pixels: half of 16.16's range, leaving the other
    /// half for the sums of whoever places it.
    public static let extent = Fixed16_16(16384)

    /// Every line's width, top to bottom.
    public var lineWidths: [Fixed16_16] { lines.map(\.width) }

    /// Lays out `text` at `fontSize` px/em. With `maxWidth`, lines wrap at spaces, between CJK
    /// characters, and inside words longer than a line; without it, only at newlines. With
    /// `maxHeight`, at most max(1, ⌊maxHeight / lineHeight⌋) lines are kept and the last one is
    /// refilled with the rest of its paragraph, cut to fit and ended with "…".
    /// Throws when FreeType cannot load a glyph.
    public init(_ text: String, chain: FontChain, fontSize: Fixed16_16, maxWidth: Fixed16_16? = nil,
                maxHeight: Fixed16_16? = nil, alignment: TextAlignment = .center) throws {
        precondition(fontSize.raw > 0, "font size must be positive: \(fontSize)")
        self.chain = chain; self.fontSize = fontSize; self.alignment = alignment
        let primary = chain.primary
        lineHeight = primary.scale(primary.height, size: fontSize)
        ascent = primary.scale(primary.ascender, size: fontSize)
        descent = primary.scale(-primary.descender, size: fontSize)

        let items = try Self.items(text, chain: chain, fontSize: fontSize)
        // Lines wrap and stop within `extent` whatever the caller allows, so every sum the layout
        // and the HUD make of its positions stays within 16.16 pixels.
        let limit = Swift.min(maxWidth ?? .max, Self.extent)
        var ranges: [(range: Range<Int>, paragraphEnd: Int)] = []
        for para in Self.paragraphs(items) {
            for r in Self.wrap(items, para, maxWidth: limit) { ranges.append((r, para.upperBound)) }
        }
        if ranges.isEmpty { ranges = [(0..<0, 0)] }  // empty text: one empty line (a line's height)

        var maxLines = ranges.count
        if lineHeight.raw > 0 {
            let height = Swift.min(maxHeight ?? .max, Self.extent)
            maxLines = Swift.min(maxLines, Swift.max(1, Int(height.raw / lineHeight.raw)))
        }
        var built: [TextLine] = []
        for (i, entry) in ranges.prefix(maxLines).enumerated() {
            let baseline = ascent + lineHeight * Int32(i)
            if i == maxLines - 1 && maxLines < ranges.count {
                let start = entry.range.lowerBound
                let glyphs = try Self.truncated(items[start..<entry.paragraphEnd], chain: chain, fontSize: fontSize, maxWidth: limit)
                built.append(Self.line(glyphs, baseline: baseline, truncated: true))
            } else {
                built.append(Self.line(Array(items[entry.range]), baseline: baseline, truncated: false))
            }
        }
        let width = built.map(\.width).max() ?? .zero
        for i in built.indices {
            switch alignment {
            case .left: built[i].x = .zero
            case .center: built[i].x = Fixed16_16(raw: (width - built[i].width).raw / 2)
            case .right: built[i].x = width - built[i].width
            }
        }
        lines = built
    }

    /// The advance width of `text` on one line (newlines ignored): the bench's measure.
    public static func advanceWidth(of text: String, chain: FontChain, fontSize: Fixed16_16) throws -> Fixed16_16 {
        try items(text, chain: chain, fontSize: fontSize).reduce(.zero) { $0 + $1.advance }
    }

    /// Draws every glyph in `color`, the layout's top-left corner at `origin` in device pixels (the
    /// canvas transform does not apply to glyph masks). Glyphs are rasterized once per sub-pixel
    /// phase through the chain's cache; a glyph FreeType fails to load is left out.
    public func draw(into canvas: Canvas, origin: Point, color: Color) {
        let paint = Paint.solid(color)
        for line in lines {
            let y = origin.y + line.baseline
            for g in line.glyphs where !LineBreaking.isSpace(g.scalar) {
                let pen = Point(x: origin.x + line.x + g.x, y: y)
                guard let placed = try? chain.cache.placedMask(face: chain.faces[g.faceIndex], glyph: g.glyph,
                                                              size: fontSize, at: pen) else { continue }
                if placed.mask.width > 0 { canvas.draw(placed.mask, dx: placed.dx, dy: placed.dy, paint: paint) }
            }
        }
    }

    // MARK: - Building lines

    /// One entry per drawn scalar (hard breaks kept as zero-width markers, ignorables dropped).
    private static func items(_ text: String, chain: FontChain, fontSize: Fixed16_16) throws -> [PositionedGlyph] {
        var out: [PositionedGlyph] = []
        var previous: Unicode.Scalar = " "
        for s in text.unicodeScalars {
            defer { previous = s }
            if LineBreaking.isHardBreak(s) {
                if s == "\n" && previous == "\r" { continue }  // CR LF is one break
                out.append(PositionedGlyph(scalar: "\n", faceIndex: 0, glyph: 0, x: .zero, advance: .zero))
                continue
            }
            if LineBreaking.isIgnorable(s) { continue }
            out.append(try item(s, chain: chain, fontSize: fontSize))
        }
        return out
    }

    private static func item(_ s: Unicode.Scalar, chain: FontChain, fontSize: Fixed16_16) throws -> PositionedGlyph {
        let (index, glyph) = chain.resolve(s)
        return PositionedGlyph(scalar: s, faceIndex: index, glyph: glyph, x: .zero,
                               advance: try chain.faces[index].advance(glyph: glyph, size: fontSize))
    }

    /// The item ranges between hard breaks (markers excluded).
    private static func paragraphs(_ items: [PositionedGlyph]) -> [Range<Int>] {
        var out: [Range<Int>] = [], start = 0
        for (i, item) in items.enumerated() where item.scalar == "\n" { out.append(start..<i); start = i + 1 }
        out.append(start..<items.count)
        return out
    }

    /// Greedy wrapping of one paragraph: each line takes as much as fits, breaking at the last
    /// opportunity before the overflow, or before the overflowing character when there is none.
    /// Spaces may hang past the edge; the spaces at a break start no line.
    private static func wrap(_ items: [PositionedGlyph], _ para: Range<Int>, maxWidth: Fixed16_16) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = para.lowerBound
        repeat {
            var width = Int64(0), i = start, lastBreak: Int?, end = para.upperBound
            while i < para.upperBound {
                let s = items[i].scalar
                if i > start && LineBreaking.canBreak(between: items[i - 1].scalar, and: s) { lastBreak = i }
                let advance = Int64(items[i].advance.raw)
                if !LineBreaking.isSpace(s) && i > start && width + advance > Int64(maxWidth.raw) {
                    end = lastBreak ?? i
                    break
                }
                width += advance; i += 1
            }
            out.append(start..<end)
            start = end
            if start < para.upperBound { while start < para.upperBound && LineBreaking.isSpace(items[start].scalar) { start += 1 } }
        } while start < para.upperBound
        return out
    }

    /// As much of `rest` as fits with an ellipsis after it, then the ellipsis ("…", or "..." when
    /// no face has U+2026).
    private static func truncated(_ rest: ArraySlice<PositionedGlyph>, chain: FontChain, fontSize: Fixed16_16,
                                  maxWidth: Fixed16_16) throws -> [PositionedGlyph] {
        let ellipsis = chain.glyph(for: "…").glyph != 0
            ? [try item("…", chain: chain, fontSize: fontSize)]
            : Array(repeating: try item(".", chain: chain, fontSize: fontSize), count: 3)
        let ellipsisWidth = ellipsis.reduce(Int64(0)) { $0 + Int64($1.advance.raw) }
        var kept: [PositionedGlyph] = [], width = Int64(0)
        for g in rest {
            if width + Int64(g.advance.raw) + ellipsisWidth > Int64(maxWidth.raw) { break }
            kept.append(g); width += Int64(g.advance.raw)
        }
        while let last = kept.last, LineBreaking.isSpace(last.scalar) { kept.removeLast() }
        return kept + ellipsis
    }

    /// Places the glyphs along the line; the width leaves out trailing spaces.
    private static func line(_ glyphs: [PositionedGlyph], baseline: Fixed16_16, truncated: Bool) -> TextLine {
        var placed = glyphs, pen = Fixed16_16.zero, width = Fixed16_16.zero
        for i in placed.indices {
            placed[i].x = pen
            pen += placed[i].advance
            if !LineBreaking.isSpace(placed[i].scalar) { width = pen }
        }
        while let last = placed.last, LineBreaking.isSpace(last.scalar) { placed.removeLast() }
        return TextLine(glyphs: placed, width: width, x: .zero, baseline: baseline, isTruncated: truncated)
    }
}
