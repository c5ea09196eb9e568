// SPDX-License-Identifier: MIT
// Glyph masks from our scan converter, cached per (face, glyph, size, quarter-pixel phase).

import Assets
import Raster
import Testing

@Suite struct FontGlyphCacheTests {
    @Test func quantizeToQuarterPixels() {
        func q(_ v: Double) -> (Int32, UInt8) { let r = GlyphCache.quantize(Fixed16_16(v)); return (r.pixel, r.phase) }
        #expect(q(0) == (0, 0))
        #expect(q(0.12) == (0, 0))
        #expect(q(0.125) == (0, 1))  // ties up
        #expect(q(0.5) == (0, 2))
        #expect(q(0.874) == (0, 3))
        #expect(q(0.875) == (1, 0))
        #expect(q(201.40625) == (201, 2))
        #expect(q(-0.1) == (0, 0))
        #expect(q(-0.2) == (-1, 3))
        #expect(q(-1.5) == (-2, 2))
    }

    /// DejaVu "l" at 16 px is the rectangle x 193/128…377/128, y −1556/128…0: all exact in 24.8, so
    /// the coverage is exact: 126/256 and 242/256 of a column, the top row 40/256 high.
    @Test func lMaskIsExactAreaCoverage() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let cache = GlyphCache()
        let l = face.glyphIndex(for: "l")
        let m = try cache.mask(face: face, glyph: l, size: Fixed16_16(integer: 16), phaseX: 0, phaseY: 0)
        #expect(m.bounds == IntRect(x: 1, y: -13, width: 2, height: 13))
        #expect(Array(m.coverage[0..<2]) == [20, 38])
        for row in 1..<13 { #expect(Array(m.coverage[row * 2..<row * 2 + 2]) == [126, 241]) }

        // Half a pixel to the right: x 514/256…882/256.
        let h = try cache.mask(face: face, glyph: l, size: Fixed16_16(integer: 16), phaseX: 2, phaseY: 0)
        #expect(h.bounds == IntRect(x: 2, y: -13, width: 2, height: 13))
        #expect(Array(h.coverage[2..<4]) == [253, 114])
        // A quarter pixel down: the glyph reaches 64/256 into row 0, its last row.
        let d = try cache.mask(face: face, glyph: l, size: Fixed16_16(integer: 16), phaseX: 0, phaseY: 1)
        #expect(d.bounds == IntRect(x: 1, y: -12, width: 2, height: 13))
        #expect(Array(d.coverage[24..<26]) == [31, 60])
    }

    /// A curved glyph's total coverage matches its area (shoelace over a fine flattening) at every phase.
    @Test func coverageSumMatchesAreaAtEveryPhase() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let cache = GlyphCache()
        let g = face.glyphIndex(for: "e")
        let path = try face.outline(glyph: g, size: Fixed16_16(integer: 16))
        var twiceArea: Int64 = 0
        for c in path.flattened(tolerance: Fixed16_16(raw: 64)) {
            for i in c.points.indices {
                let a = c.points[i], b = c.points[(i + 1) % c.points.count]
                twiceArea += Int64(a.x.raw) * Int64(b.y.raw) - Int64(b.x.raw) * Int64(a.y.raw)
            }
        }
        let area = Double(abs(twiceArea)) / 2 / 65536 / 65536
        #expect(area > 30 && area < 80)
        for px in UInt8(0)..<4 {
            for py in UInt8(0)..<4 {
                let m = try cache.mask(face: face, glyph: g, size: Fixed16_16(integer: 16), phaseX: px, phaseY: py)
                let covered = Double(m.coverage.reduce(0) { $0 + Int($1) }) / 255
                #expect(abs(covered - area) < 0.15, "phase (\(px), \(py)): \(covered) vs \(area)")
            }
        }
        #expect(cache.count == 16 && cache.misses == 16 && cache.hits == 0)
    }

    @Test func hitsReturnTheSameMask() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let cache = GlyphCache()
        let g = face.glyphIndex(for: "a")
        let a = try cache.mask(face: face, glyph: g, size: Fixed16_16(integer: 16), phaseX: 1, phaseY: 0)
        let b = try cache.mask(face: face, glyph: g, size: Fixed16_16(integer: 16), phaseX: 1, phaseY: 0)
        #expect(a.coverage == b.coverage && a.bounds == b.bounds)
        #expect(cache.hits == 1 && cache.misses == 1)
        // Another size, phase or face is another entry.
        _ = try cache.mask(face: face, glyph: g, size: Fixed16_16(integer: 17), phaseX: 1, phaseY: 0)
        _ = try cache.mask(face: try FontFace(path: TestFonts.dejaVu), glyph: g, size: Fixed16_16(integer: 16), phaseX: 1, phaseY: 0)
        #expect(cache.misses == 3 && cache.count == 3)

        let placed = try cache.placedMask(face: face, glyph: g, size: Fixed16_16(integer: 16), at: Point(x: .exactly(10.25), y: Fixed16_16(20.9)))
        #expect(placed.dx == 10 && placed.dy == 21)
        #expect(cache.hits == 2)  // 10.25 is phase 1, 20.9 rounds to 21 phase 0: the first entry
    }

    @Test func evictsLeastRecentlyUsed() throws {
        let face = try FontFace(path: TestFonts.dejaVu)
        let cache = GlyphCache(maxEntries: 8)
        let keep = face.glyphIndex(for: "A")
        for (i, s) in "bcdefghijklmnopqrstuvwxyz".unicodeScalars.enumerated() {
            _ = try cache.mask(face: face, glyph: keep, size: Fixed16_16(integer: 16), phaseX: 0, phaseY: 0)  // keep "A" recent
            _ = try cache.mask(face: face, glyph: face.glyphIndex(for: s), size: Fixed16_16(integer: 16), phaseX: 0, phaseY: 0)
            #expect(cache.count <= 8, "after \(i + 1) glyphs")
        }
        let hitsBefore = cache.hits
        _ = try cache.mask(face: face, glyph: keep, size: Fixed16_16(integer: 16), phaseX: 0, phaseY: 0)
        #expect(cache.hits == hitsBefore + 1)

        let small = GlyphCache(maxBytes: 400)
        for s in "WMQ@#".unicodeScalars {
            _ = try small.mask(face: face, glyph: face.glyphIndex(for: s), size: Fixed16_16(integer: 16), phaseX: 0, phaseY: 0)
            #expect(small.byteCount <= 400)
        }
    }
}
