// SPDX-License-Identifier: MIT
// FontFace: metrics, cmap, unhinted advances, and outlines converted to 16.16 paths.

import Assets
import Raster
import Testing

@Suite struct FontFaceTests {
    @Test func dejaVuMetrics() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        #expect(face.familyName == "DejaVu Sans")
        #expect(face.styleName == "Book")
        #expect(face.unitsPerEm == 2048)
        #expect(face.ascender == 1901)
        #expect(face.descender == -483)
        #expect(face.height == 2384)
        #expect(face.lineGap == 0)
        #expect(face.glyphCount > 5000)
    }

    @Test func cmapLookup() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        #expect(face.glyphIndex(for: "A") != 0)
        #expect(face.glyphIndex(for: "A") != face.glyphIndex(for: "B"))
        #expect(face.hasGlyph(for: "…"))
        #expect(!face.hasGlyph(for: "正"))
        #expect(face.glyphIndex(for: "正") == 0)
    }

    /// The bench's measure: unhinted advances in font units (cross-checked with FreeType's
    /// metrics.horiAdvance under FT_LOAD_NO_SCALE: they sum to 25780 units) × 16 / 2048.
    @Test func benchStringAdvance() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        var units: Int32 = 0
        var pixels = Fixed16_16.zero
        for s in "Installing update 3 of 7…".unicodeScalars {
            let g = face.glyphIndex(for: s)
            #expect(g != 0, "DejaVu lacks \(s)")
            units += try face.advance(glyph: g)
            pixels += try face.advance(glyph: g, size: Fixed16_16(integer: 16))
        }
        #expect(units == 25780)
        #expect(pixels == .exactly(201.40625))
        #expect(try face.advance(glyph: face.glyphIndex(for: "l")) == 569)
        #expect(try face.advance(glyph: face.glyphIndex(for: " "), size: Fixed16_16(integer: 16)) == .exactly(5.0859375))
    }

    /// DejaVu's "l" is one rectangle: (193,1556) (377,1556) (377,0) (193,0) in font units, y up.
    @Test func outlineInFontUnits() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let path = try face.outline(glyph: face.glyphIndex(for: "l"))
        func p(_ x: Int32, _ y: Int32) -> Point { Point(x: Fixed16_16(x), y: Fixed16_16(y)) }
        #expect(path.elements == [.move(p(193, -1556)), .line(p(377, -1556)), .line(p(377, 0)), .line(p(193, 0)), .close])
    }

    /// Scaled: x·16/2048 and −y·16/2048 exactly, plus the origin.
    @Test func outlineScaledAndPlaced() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let origin = Point(x: .exactly(10.25), y: .exactly(20.5))
        let path = try face.outline(glyph: face.glyphIndex(for: "l"), size: Fixed16_16(integer: 16), origin: origin)
        let expected: [PathElement] = [
            .move(Point(x: .exactly(10.25 + 193.0 / 128), y: .exactly(20.5 - 1556.0 / 128))),
            .line(Point(x: .exactly(10.25 + 377.0 / 128), y: .exactly(20.5 - 1556.0 / 128))),
            .line(Point(x: .exactly(10.25 + 377.0 / 128), y: .exactly(20.5))),
            .line(Point(x: .exactly(10.25 + 193.0 / 128), y: .exactly(20.5))),
            .close,
        ]
        #expect(path.elements == expected)
        // A size that does not divide evenly rounds each coordinate once: 193·13/2048 = 1.2251…
        let odd = try face.outline(glyph: face.glyphIndex(for: "l"), size: Fixed16_16(integer: 13))
        guard case .move(let first) = odd.elements.first else { Issue.record("no move"); return }
        #expect(first.x.raw == Int32((193 * 13 * 65536 + 1024) / 2048))
    }

    /// TrueType curves arrive as quads (implied on-points included); "o" has two closed contours,
    /// and the outline stays within the glyph's box.
    @Test func trueTypeCurvesAreQuads() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let path = try face.outline(glyph: face.glyphIndex(for: "o"))
        let moves = path.elements.filter { if case .move = $0 { return true } else { return false } }.count
        let closes = path.elements.filter { $0 == .close }.count
        let quads = path.elements.filter { if case .quad = $0 { return true } else { return false } }.count
        let cubics = path.elements.filter { if case .cubic = $0 { return true } else { return false } }.count
        #expect(moves == 2 && closes == 2)
        #expect(quads >= 8 && cubics == 0)
        let bounds = try #require(path.controlBounds)
        #expect(bounds.minY.raw < 0 && bounds.maxY.raw > 0)  // "o" dips below the baseline (overshoot)
        #expect(bounds.minY > Fixed16_16(integer: -1200) && bounds.maxY < Fixed16_16(integer: 40))
    }

    /// CFF (PostScript) outlines arrive as cubics.
    @Test func cffCurvesAreCubics() throws {
        let face = try FontFace(path: TestFonts.nimbusSans)
        #expect(face.unitsPerEm == 1000)
        let path = try face.outline(glyph: face.glyphIndex(for: "o"))
        let cubics = path.elements.filter { if case .cubic = $0 { return true } else { return false } }.count
        #expect(cubics >= 4)
    }

    @Test func spaceHasNoOutline() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        #expect(try face.outline(glyph: face.glyphIndex(for: " "), size: Fixed16_16(integer: 16)).isEmpty)
    }
}
