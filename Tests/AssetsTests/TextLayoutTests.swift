// SPDX-License-Identifier: MIT
// Measuring, wrapping, truncating and aligning. Expected widths are sums of DejaVu Sans / Droid
// Sans Fallback advances at 16 px (font units × 16 / unitsPerEm), cross-checked with a small C
// program reading FreeType's metrics.horiAdvance under FT_LOAD_NO_SCALE.

import Assets
import Raster
import Testing

@Suite struct TextLayoutTests {
    let px16 = Fixed16_16(integer: 16)

    func layout(_ text: String, width: Double? = nil, height: Double? = nil,
                alignment: TextAlignment = .left) throws -> TextLayout {
        TextLayout(text, chain: try TestFonts.chain(), fontSize: px16, maxWidth: width.map { Fixed16_16($0) },
                   maxHeight: height.map { Fixed16_16($0) }, alignment: alignment)
    }

    @Test func benchStringMeasure() throws {
        let chain = try TestFonts.chain()
        #expect(TextLayout.advanceWidth(of: "Installing update 3 of 7…", chain: chain, fontSize: px16) == .exactly(201.40625))
        let one = try layout("Installing update 3 of 7…")
        #expect(one.lines.count == 1)
        #expect(one.lineWidths == [.exactly(201.40625)])
        #expect(one.size == Size(width: .exactly(201.40625), height: .exactly(18.625)))
        // Pen positions are fractional: "I" 604, "n" 1298 units → "s" starts at 1902/128 px.
        #expect(one.lines[0].glyphs[2].x == .exactly(1902.0 / 128))
    }

    @Test func lineMetricsComeFromThePrimaryFace() throws {
        let l = try layout("正在安装更新")  // every glyph from Droid; the metrics still DejaVu's
        #expect(l.lineHeight == .exactly(18.625))  // 2384 × 16 / 2048
        #expect(l.ascent == .exactly(1901.0 / 128))
        #expect(l.descent == .exactly(483.0 / 128))
        #expect(l.lines[0].baseline == .exactly(1901.0 / 128))
        #expect(l.lineWidths == [.exactly(96)])
    }

    @Test func wrapsAtSpaces() throws {
        let l = try layout("Installing update 3 of 7…", width: 100)
        #expect(l.lines.map(\.text) == ["Installing", "update 3 of", "7…"])
        #expect(l.lineWidths == [.exactly(72.90625), .exactly(92.1484375), .exactly(26.1796875)])
        #expect(l.lines.map(\.baseline) == [.exactly(14.8515625), .exactly(33.4765625), .exactly(52.1015625)])
        #expect(l.size == Size(width: .exactly(92.1484375), height: .exactly(55.875)))
        #expect(!l.isTruncated)
        // An exact fit stays on the line; 1/64 px less pushes the last word down.
        #expect(try layout("update 3 of 7…", width: 92.1484375).lines.map(\.text) == ["update 3 of", "7…"])
        #expect(try layout("update 3 of 7…", width: 92.1328125).lines.map(\.text) == ["update 3", "of 7…"])
    }

    @Test func longWordBreaksByCharacter() throws {
        #expect(try layout("Supercalifragilistic", width: 40).lines.map(\.text) == ["Sup", "ercal", "ifrag", "ilisti", "c"])
        // The word first moves to its own line, then breaks.
        #expect(try layout("a Supercalifragilistic", width: 40).lines.map(\.text) == ["a", "Sup", "ercal", "ifrag", "ilisti", "c"])
        // A line narrower than one character still takes one.
        #expect(try layout("abc", width: 1).lines.map(\.text) == ["a", "b", "c"])
    }

    @Test func cjkBreaksBetweenCharactersButNotBeforeClosingPunctuation() throws {
        #expect(try layout("正在安装更新", width: 50).lines.map(\.text) == ["正在安", "装更新"])
        #expect(try layout("正在安装更新。", width: 50).lines.map(\.text) == ["正在安", "装更", "新。"])
        #expect(try layout("正在安装更新 Installing", width: 100).lines.map(\.text) == ["正在安装更新", "Installing"])
        // Latin next to CJK may break at the boundary.
        #expect(try layout("更新Installing", width: 80).lines.map(\.text) == ["更新", "Installing"])
    }

    @Test func hardBreaks() throws {
        #expect(try layout("a\nb\r\nc").lines.map(\.text) == ["a", "b", "c"])
        #expect(try layout("a\n\nb").lines.map(\.text) == ["a", "", "b"])
        #expect(try layout("").lines.map(\.text) == [""])
        #expect(try layout("").size == Size(width: .zero, height: .exactly(18.625)))
        // Spaces at a wrap are dropped, leading spaces of a paragraph kept.
        #expect(try layout("  Installing   update", width: 100).lines.map(\.text) == ["  Installing", "update"])
    }

    @Test func truncatesTheLastLineToFitTheHeight() throws {
        // Two lines fit in 40 px (18.625 each). The second is refilled with the rest of the
        // paragraph: "update 3 " + "o" + "…" would be 102.5 px, so it ends after "3".
        let l = try layout("Installing update 3 of 7… please wait", width: 100, height: 40)
        #expect(l.lines.map(\.text) == ["Installing", "update 3…"])
        #expect(l.isTruncated && l.lines[1].isTruncated && !l.lines[0].isTruncated)
        #expect(l.lineWidths == [.exactly(72.90625), .exactly(87.640625)])
        #expect(l.size.height == .exactly(37.25))
        // Without a width, lines are paragraphs; less than one line of height still keeps one.
        #expect(try layout("Line one\nLine two", height: 18.625).lines.map(\.text) == ["Line one…"])
        #expect(try layout("Line one\nLine two", height: 5).lines.map(\.text) == ["Line one…"])
        #expect(try layout("Line one\nLine two", height: 37.25).lines.map(\.text) == ["Line one", "Line two"])
        // CJK truncation keeps whole characters: 48 px of ideographs + 16 px of "…" ≤ 64.
        #expect(try layout("正在安装更新正在安装更新", width: 64, height: 18.625).lines.map(\.text) == ["正在安…"])
    }

    @Test func alignment() throws {
        let text = "Installing update 3 of 7…"
        let center = try layout(text, width: 100, alignment: .center)
        #expect(center.lines.map(\.x) == [.exactly(9.62109375), .zero, .exactly(32.984375)])
        let right = try layout(text, width: 100, alignment: .right)
        #expect(right.lines.map(\.x) == [.exactly(19.2421875), .zero, .exactly(65.96875)])
        let left = try layout(text, width: 100, alignment: .left)
        #expect(left.lines.map(\.x) == [.zero, .zero, .zero])
    }

    @Test func ignorablesTakeNoSpace() throws {
        let plain = try layout("Done")
        let marked = try layout("\u{FEFF}Do\u{200B}ne\u{FE0F}")
        // Kept in the line's text (FriBidi and HarfBuzz read them), hidden by HarfBuzz.
        #expect(marked.lines.map(\.text) == ["\u{FEFF}Do\u{200B}ne\u{FE0F}"])
        #expect(marked.lineWidths == plain.lineWidths && plain.lineWidths == [.exactly(42.09375)])
    }

    /// A client's text with thousands of lines at the largest size, laid out without a height or
    /// width limit: it stops within `TextLayout.extent` instead of overflowing 16.16 pixels.
    @Test func hugeTextStaysWithinTheExtent() throws {
        let chain = try TestFonts.chain()
        let text = String(repeating: "Wide words\n", count: 400) + String(repeating: "W", count: 3000)
        let layout = TextLayout(text, chain: chain, fontSize: Fixed16_16(512))
        #expect(layout.size.height <= TextLayout.extent + layout.lineHeight)
        #expect(layout.lineWidths.allSatisfy { $0 <= TextLayout.extent })
        #expect(layout.lines.count < 400)
    }
}
