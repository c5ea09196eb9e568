// SPDX-License-Identifier: MIT
// Lays out UTF-8 status text with a fallback chain at one pixel size, as Pango lays out a
// paragraph: split at hard breaks into paragraphs; each one's bidi levels resolved (FriBidi), its
// characters given a script and a face (ShapedParagraph), its runs shaped (HarfBuzz), its lines
// broken where UAX #14 and Thai's dictionary allow (LineBreaks) by a greedy fill on the shaped
// advances; then each line reordered for display (FriBidi) and its runs shaped again with the
// paragraph as context. Tail truncation of the last line ends it with a shaped ellipsis at the
// logical end. Positions are 16.16 pixels. The HUD measures with it (SVProgressHUD: within
// 200x300 pt, last line truncated) and then draws it.

import Raster

/// How lines sit within the layout's width (the widest line).
public enum TextAlignment: Sendable { case left, center, right }

/// One glyph on a line.
public struct PositionedGlyph: Hashable, Sendable {
    /// Index into the chain's `faces`.
    public var faceIndex: Int
    public var glyph: UInt32
    /// The first character this glyph draws, as an index into the text's Unicode scalars.
    public var cluster: Int
    /// Pen position from the start of the line (the left end, whatever the direction), in pixels.
    public var x: Fixed16_16
    /// From the baseline, down (marks placed above a letter are negative).
    public var y: Fixed16_16
    public var advance: Fixed16_16
}

/// One laid-out line.
public struct TextLine: Hashable, Sendable {
    /// In visual order, left to right.
    public var glyphs: [PositionedGlyph]
    /// Sum of advances, trailing spaces excluded.
    public var width: Fixed16_16
    /// Where the line starts from the layout's left edge (alignment).
    public var x: Fixed16_16
    /// The baseline from the layout's top edge.
    public var baseline: Fixed16_16
    /// Whether this line ends in an ellipsis standing for text that did not fit.
    public var isTruncated: Bool
    /// The line's characters in logical order (with "…" when truncated).
    public var text: String { TextLayout.string(characters, ellipsis) }
    /// Whether its paragraph runs right to left.
    public var isRightToLeft: Bool
    /// `text`'s characters, its ellipsis apart: made into a String only when asked for.
    let characters: ArraySlice<UInt32>
    let ellipsis: [UInt32]
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

    /// Lays out `text` at `fontSize` px/em. With `maxWidth`, lines wrap where UAX #14 allows
    /// (after spaces, between CJK characters, between Thai words…), and inside words longer
    /// than a line between clusters; without it, only at hard breaks. With `maxHeight`, at most
    /// max(1, ⌊maxHeight / lineHeight⌋) lines are kept and the last one is refilled with the rest
    /// of its paragraph, cut to fit and ended with "…". A paragraph's direction is its first
    /// strong character's, `direction` when it has none. It cannot fail: a glyph FreeType cannot
    /// load takes no room here and is left out when drawn.
    public init(_ text: String, chain: FontChain, fontSize: Fixed16_16, maxWidth: Fixed16_16? = nil,
                maxHeight: Fixed16_16? = nil, alignment: TextAlignment = .center,
                direction: TextDirection = .leftToRight) {
        precondition(fontSize.raw > 0, "font size must be positive: \(fontSize)")
        self.chain = chain; self.fontSize = fontSize; self.alignment = alignment
        let primary = chain.primary
        lineHeight = primary.scale(primary.height, size: fontSize)
        ascent = primary.scale(primary.ascender, size: fontSize)
        descent = primary.scale(-primary.descender, size: fontSize)

        let paragraphs = Self.paragraphs(text).map {
            ShapedParagraph($0.text, offset: $0.offset, chain: chain, size: fontSize, direction: direction)
        }
        // Lines wrap and stop within `extent` whatever the caller allows, so every sum the layout
        // and the HUD make of its positions stays within 16.16 pixels.
        let limit = Int64(Swift.min(maxWidth ?? .max, Self.extent).raw)
        var ranges: [(paragraph: Int, range: Range<Int>)] = []
        for (p, para) in paragraphs.enumerated() {
            for r in Self.wrap(para, maxWidth: limit) { ranges.append((p, r)) }
        }

        var maxLines = ranges.count
        if lineHeight.raw > 0 {
            let height = Swift.min(maxHeight ?? .max, Self.extent)
            maxLines = Swift.min(maxLines, Swift.max(1, Int(height.raw / lineHeight.raw)))
        }
        var built: [TextLine] = []
        for (i, entry) in ranges.prefix(maxLines).enumerated() {
            let para = paragraphs[entry.paragraph]
            let baseline = ascent + lineHeight * Int32(i)
            let truncated = i == maxLines - 1 && maxLines < ranges.count
            let range = truncated ? Self.fitting(para, from: entry.range.lowerBound, maxWidth: limit) : para.trimmed(entry.range)
            let (glyphs, width) = truncated ? para.lineWithEllipsis(range) : para.line(range)
            built.append(TextLine(glyphs: glyphs, width: width, x: .zero, baseline: baseline, isTruncated: truncated,
                                  isRightToLeft: para.bidi.isRightToLeft, characters: para.text[range],
                                  ellipsis: truncated ? para.ellipsis : []))
        }
        if built.isEmpty {  // empty text: one empty line (a line's height)
            built = [TextLine(glyphs: [], width: .zero, x: .zero, baseline: ascent, isTruncated: false,
                              isRightToLeft: direction == .rightToLeft, characters: [], ellipsis: [])]
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

    /// The advance width of `text` on one line (hard breaks ignored): the bench's measure.
    public static func advanceWidth(of text: String, chain: FontChain, fontSize: Fixed16_16,
                                    direction: TextDirection = .leftToRight) -> Fixed16_16 {
        let raw = paragraphs(text).reduce(Int64(0)) {
            let para = ShapedParagraph($1.text, offset: $1.offset, chain: chain, size: fontSize, direction: direction)
            return $0 + para.width(0..<para.text.count)
        }
        return Fixed16_16(raw: Int32(clamping: raw))
    }

    /// Draws every glyph in `color`, the layout's top-left corner at `origin`: each pen position is
    /// mapped through `transform` (the canvas transform does not apply to glyph masks) and each
    /// glyph rasterized at the font size times the transform's scale, so text zooms with whatever
    /// holds it and stays sharp at any scale. Glyphs are rasterized once per sub-pixel phase
    /// through the chain's cache; a glyph FreeType fails to load is left out. The HUD's painter
    /// and the text goldens draw through this one routine.
    public func draw(into canvas: Canvas, origin: Point, transform t: Transform = .identity, color: Color) {
        let size = fontSize * t.scaleFactor
        let paint = Paint.solid(color)
        for line in lines {
            for g in line.glyphs {
                let pen = t.apply(Point(x: origin.x + line.x + g.x, y: origin.y + line.baseline + g.y))
                guard let placed = try? chain.cache.placedMask(face: chain.faces[g.faceIndex], glyph: g.glyph, size: size, at: pen),
                      placed.mask.width > 0 else { continue }
                canvas.draw(placed.mask, dx: placed.dx, dy: placed.dy, paint: paint)
            }
        }
    }

    // MARK: - Building lines

    /// The characters `head` then `tail` as a String, encoded straight into its UTF-8.
    static func string(_ head: ArraySlice<UInt32>, _ tail: [UInt32]) -> String {
        String(unsafeUninitializedCapacity: 4 * (head.count + tail.count)) { buffer in
            var n = 0
            func put(_ values: some Sequence<UInt32>) {
                for v in values {
                    if let scalar = Unicode.Scalar(v) { UTF8.encode(scalar) { buffer[n] = $0; n += 1 } }
                }
            }
            put(head); put(tail)
            return n
        }
    }

    /// The text's paragraphs (between hard breaks; CR LF is one), controls left out, each with the
    /// index of its first character in the text's Unicode scalars.
    static func paragraphs(_ text: String) -> [(text: [UInt32], offset: Int)] {
        var out: [(text: [UInt32], offset: Int)] = [], current: [UInt32] = [], start = 0
        current.reserveCapacity(text.utf8.count)
        var previous: UInt32 = 0, index = 0
        for s in text.unicodeScalars {
            let v = s.value
            defer { previous = v; index += 1 }
            if LineBreaks.isHardBreak(v) {
                if v == 0x0A && previous == 0x0D { start = index + 1; continue }  // CR LF is one break
                out.append((current, start)); current = []; start = index + 1
                continue
            }
            if !LineBreaks.isControl(v) { current.append(v) }
        }
        out.append((current, start))
        return out
    }

    /// Greedy wrapping of one paragraph: each line takes as many clusters as fit, breaking at the
    /// last opportunity before the overflow, or before the overflowing cluster when there is none.
    /// Spaces may hang past the edge; the spaces at a break start no line.
    static func wrap(_ para: ShapedParagraph, maxWidth: Int64) -> [Range<Int>] {
        let n = para.text.count
        var out: [Range<Int>] = [], start = 0
        repeat {
            var width = Int64(0), i = start, lastBreak: Int?, end = n
            while i < n {
                if i > start && para.clusterStarts[i] {
                    if para.breaks[i] { lastBreak = i }
                    if !LineBreaks.isSpace(para.text[i]) && width + para.widths[i] > maxWidth {
                        end = lastBreak ?? i
                        break
                    }
                }
                width += para.widths[i]; i += 1
            }
            out.append(start..<end)
            start = end
            while start < n && LineBreaks.isSpace(para.text[start]) { start += 1 }
        } while start < n
        return out
    }

    /// The longest stretch from `start` that fits before an ellipsis, ending at a cluster and
    /// without the spaces at its end.
    private static func fitting(_ para: ShapedParagraph, from start: Int, maxWidth: Int64) -> Range<Int> {
        let room = maxWidth - para.ellipsisWidth
        var width = Int64(0), end = start, i = start
        while i < para.text.count {
            width += para.widths[i]
            i += 1
            if width > room { break }
            if i == para.text.count || para.clusterStarts[i] { end = i }
        }
        return para.trimmed(start..<end)
    }
}
