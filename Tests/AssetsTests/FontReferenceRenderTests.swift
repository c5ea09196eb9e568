// SPDX-License-Identifier: MIT
// Our glyph masks against two references: FreeType's own anti-aliasing rasterizer (FT_Render_Glyph,
// normal mode, unhinted) — the same outline through another scan converter — and the outline's
// exact area (shoelace over a 1/4096 px flattening). FreeType rounds the scaled outline to 1/64 px
// and flattens coarsely: its coverage sums come out 1–2% off the exact area (ours within 0.3%),
// and edge pixels differ by up to ~26 levels. Anything structural — a missing contour, a wrong
// winding, an offset, thinned curves — breaks these bounds.

import Assets
import CFreeType
import Raster
import Testing

@Suite struct FontReferenceRenderTests {
    /// FreeType's coverage for `scalar` at `pixels` px/em, unhinted, as a mask with the pen at (0, 0).
    func freeTypeMask(_ path: String, _ scalar: Unicode.Scalar, pixels: UInt32) throws -> Mask {
        var lib: FT_Library?
        #expect(FT_Init_FreeType(&lib) == 0)
        defer { FT_Done_FreeType(lib) }
        var face: FT_Face?
        #expect(FT_New_Face(lib, path, 0, &face) == 0)
        let f = try #require(face)
        defer { FT_Done_Face(f) }
        #expect(FT_Set_Pixel_Sizes(f, 0, pixels) == 0)
        #expect(FT_Load_Char(f, FT_ULong(scalar.value), Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0)
        let slot = try #require(f.pointee.glyph)
        #expect(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0)
        let bm = slot.pointee.bitmap
        var coverage: [UInt8] = []
        for y in 0..<Int(bm.rows) {
            let row = bm.buffer + y * Int(bm.pitch)
            for x in 0..<Int(bm.width) { coverage.append(row[x]) }
        }
        return Mask(originX: slot.pointee.bitmap_left, originY: -slot.pointee.bitmap_top,
                    width: Int32(bm.width), height: Int32(bm.rows), coverage: coverage)
    }

    func value(_ m: Mask, _ x: Int32, _ y: Int32) -> Int {
        let lx = x - m.origin.x, ly = y - m.origin.y
        if lx < 0 || ly < 0 || lx >= m.width || ly >= m.height { return 0 }
        return Int(m.coverage[Int(ly) * Int(m.width) + Int(lx)])
    }

    @Test(arguments: ["a", "e", "g", "@", "8", "S", "…"])
    func dejaVuMatchesFreeType(_ character: String) throws {
        try compare(TestFonts.dejaVu, character.unicodeScalars.first!, pixels: 16)
        try compare(TestFonts.dejaVu, character.unicodeScalars.first!, pixels: 37)
    }

    @Test(arguments: ["正", "新", "装"])
    func droidMatchesFreeType(_ character: String) throws {
        try compare(TestFonts.droid, character.unicodeScalars.first!, pixels: 18)
    }

    @Test func cffMatchesFreeType() throws {
        for s in "aeg&".unicodeScalars { try compare(TestFonts.nimbusSans, s, pixels: 20) }
    }

    func compare(_ path: String, _ scalar: Unicode.Scalar, pixels: UInt32) throws {
        let face = try FontFace(path: path)
        let ours = try GlyphCache().mask(face: face, glyph: face.glyphIndex(for: scalar),
                                         size: Fixed16_16(integer: Int(pixels)), phaseX: 0, phaseY: 0)
        let theirs = try freeTypeMask(path, scalar, pixels: pixels)
        let area = ours.bounds.union(theirs.bounds)
        var maxDelta = 0, sumOurs = 0, sumTheirs = 0
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let a = value(ours, x, y), b = value(theirs, x, y)
                maxDelta = max(maxDelta, abs(a - b)); sumOurs += a; sumTheirs += b
            }
        }
        #expect(maxDelta <= 32, "\(scalar) at \(pixels) px: largest pixel difference \(maxDelta)")
        let relative = Double(abs(sumOurs - sumTheirs)) / Double(max(1, sumTheirs))
        #expect(relative < 0.03, "\(scalar) at \(pixels) px: total coverage \(sumOurs) vs FreeType's \(sumTheirs)")

        let outline = try face.outline(glyph: face.glyphIndex(for: scalar), size: Fixed16_16(integer: Int(pixels)))
        var twiceArea: Int64 = 0
        for c in outline.flattened(tolerance: Fixed16_16(raw: 16)) {
            for i in c.points.indices {
                let p = c.points[i], q = c.points[(i + 1) % c.points.count]
                twiceArea += Int64(p.x.raw) * Int64(q.y.raw) - Int64(q.x.raw) * Int64(p.y.raw)
            }
        }
        let exact = Double(abs(twiceArea)) / 2 / 65536 / 65536 * 255
        #expect(abs(Double(sumOurs) - exact) / exact < 0.005, "\(scalar) at \(pixels) px: total coverage \(sumOurs) vs exact \(exact)")
    }
}
