// SPDX-License-Identifier: MIT
import Testing
@testable import Raster

/// Collects spans into a coverage array.
struct CoverageBlitter: Blitter {
    let rect: IntRect
    var coverage: [UInt8]
    init(_ rect: IntRect) { self.rect = rect; coverage = .init(repeating: 0, count: Int(rect.width * rect.height)) }
    mutating func blitRow(y: Int32, spans: UnsafeBufferPointer<Span>) {
        var lastEnd = Int32.min
        for s in spans {
            precondition(s.x >= lastEnd, "spans overlap or are out of order")
            lastEnd = s.x + s.length
            for x in s.x..<(s.x + s.length) { coverage[Int((y - rect.y) * rect.width + x - rect.x)] = s.alpha }
        }
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct XorShift {
    var state: UInt64
    mutating func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
    mutating func double(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() % 1_000_000) / 1_000_000 }
}

@Suite("Scan converter against the reference")
struct ScanConverterTests {
    /// Random polygons (self-intersecting ones included), both fill rules, some partly outside the clip.
    @Test(arguments: 0..<40)
    func randomPolygonsMatchReference(seed: Int) {
        var rng = XorShift(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(seed) &* 0x1000_0001)
        let clip = IntRect(x: 2, y: 3, width: 21, height: 17)
        var polys: [[Point]] = []
        for _ in 0..<(1 + Int(rng.next() % 2)) {
            let n = 3 + Int(rng.next() % 6)
            // Quantise to 24.8 here so both rasterizers see exactly the same vertices.
            polys.append((0..<n).map { _ in
                Point(x: Fixed16_16(raw: Int32((rng.double(-3, 28) * 256).rounded()) << 8),
                      y: Fixed16_16(raw: Int32((rng.double(-3, 24) * 256).rounded()) << 8))
            })
        }
        for rule in [FillRule.nonZero, .evenOdd] {
            let r = Rasterizer()
            r.reset(clip: clip)
            for p in polys { r.addPolygon(p) }
            var blit = CoverageBlitter(clip)
            r.rasterize(rule: rule, into: &blit)
            let expected = ReferenceRasterizer.coverage(polygons: polys.map { $0.map { ($0.x.double, $0.y.double) } }, rect: clip, rule: rule)
            var worst = 0
            for i in 0..<expected.count { worst = max(worst, abs(Int(expected[i]) - Int(blit.coverage[i]))) }
            // Integer area arithmetic rounds each cell's intersection points to 1/256 px.
            #expect(worst <= 2, "seed \(seed) rule \(rule): max difference \(worst)")
        }
    }

    @Test func pixelAlignedSquareIsExact() {
        let clip = IntRect(x: 0, y: 0, width: 8, height: 8)
        let r = Rasterizer()
        r.reset(clip: clip)
        r.addPolygon([Point(2, 2), Point(6, 2), Point(6, 5), Point(2, 5)])
        var blit = CoverageBlitter(clip)
        r.rasterize(rule: .nonZero, into: &blit)
        for y in 0..<8 {
            for x in 0..<8 {
                let inside = x >= 2 && x < 6 && y >= 2 && y < 5
                #expect(blit.coverage[y * 8 + x] == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    @Test func halfPixelEdgesGiveHalfCoverage() {
        let clip = IntRect(x: 0, y: 0, width: 4, height: 4)
        let r = Rasterizer()
        r.reset(clip: clip)
        r.addPolygon([Point(0.5, 0), Point(3.5, 0), Point(3.5, 4), Point(0.5, 4)])
        var blit = CoverageBlitter(clip)
        r.rasterize(rule: .nonZero, into: &blit)
        #expect(Array(blit.coverage[0..<4]) == [128, 255, 255, 128])
    }

    @Test func evenOddMakesAHoleNonZeroDoesNot() {
        let clip = IntRect(x: 0, y: 0, width: 10, height: 10)
        let outer = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]
        let inner = [Point(3, 3), Point(7, 3), Point(7, 7), Point(3, 7)]  // same direction
        for (rule, centre) in [(FillRule.nonZero, UInt8(255)), (.evenOdd, 0)] {
            let r = Rasterizer()
            r.reset(clip: clip)
            r.addPolygon(outer); r.addPolygon(inner)
            var blit = CoverageBlitter(clip)
            r.rasterize(rule: rule, into: &blit)
            #expect(blit.coverage[5 * 10 + 5] == centre)
            #expect(blit.coverage[1 * 10 + 1] == 255)
        }
    }

    @Test func edgesLeftOfTheClipStillCoverPixelsToTheirRight() {
        let clip = IntRect(x: 5, y: 0, width: 5, height: 4)
        let r = Rasterizer()
        r.reset(clip: clip)
        r.addPolygon([Point(-20, 0), Point(7.5, 0), Point(7.5, 4), Point(-20, 4)])
        var blit = CoverageBlitter(clip)
        r.rasterize(rule: .nonZero, into: &blit)
        #expect(Array(blit.coverage[0..<5]) == [255, 255, 128, 0, 0])
    }

    @Test func widePolygonSpansManyBands() {
        // Taller than one 64-row band and wider than one 64-bit word of the touched bitmap.
        let clip = IntRect(x: 0, y: 0, width: 300, height: 200)
        let r = Rasterizer()
        r.reset(clip: clip)
        let tri = [Point(10.25, 5.5), Point(290.75, 100.125), Point(20.5, 195.875)]
        r.addPolygon(tri)
        var blit = CoverageBlitter(clip)
        r.rasterize(rule: .nonZero, into: &blit)
        let total = blit.coverage.reduce(0) { $0 + Int($1) }
        // Triangle area by the shoelace formula, in pixel units × 255.
        let area = abs((290.75 - 10.25) * (195.875 - 5.5) - (20.5 - 10.25) * (100.125 - 5.5)) / 2
        #expect(abs(Double(total) / 255 - area) < 2, "covered \(Double(total) / 255), expected \(area)")
    }
}

@Suite("Clipping")
struct ClippingTests {
    /// A shape wider than the clip on both sides (a bezel around a damaged spinner box) fills it.
    @Test func aShapeAroundTheClipFillsIt() {
        let clip = IntRect(x: 10, y: 10, width: 5, height: 4)
        let r = Rasterizer()
        r.reset(clip: clip)
        r.addPolygon([Point(2.5, 2.5), Point(30.5, 2.5), Point(30.5, 30.5), Point(2.5, 30.5)])
        var b = CoverageBlitter(IntRect(x: 0, y: 0, width: 40, height: 40))
        r.rasterize(rule: .nonZero, into: &b)
        for y in 10..<14 { for x in 10..<15 { #expect(b.coverage[y * 40 + x] == 255, "pixel \(x),\(y)") } }
        #expect(b.coverage.reduce(0) { $0 + Int($1) } == 20 * 255)
    }

    /// A clip only chooses which pixels are written: inside it they equal an unclipped draw.
    @Test(arguments: 0..<30)
    func clippedPixelsEqualUnclippedOnes(seed: Int) {
        var rng = XorShift(state: 0x5151_7777 &+ UInt64(seed) &* 7919)
        let n = 3 + Int(rng.next() % 7)
        let poly = (0..<n).map { _ in Point(rng.double(-10, 50), rng.double(-10, 50)) }
        let full = IntRect(x: 0, y: 0, width: 40, height: 40)
        let clip = IntRect(x: Int32(rng.next() % 20), y: Int32(rng.next() % 20), width: 3 + Int32(rng.next() % 18), height: 3 + Int32(rng.next() % 18))
        func cover(_ c: IntRect) -> CoverageBlitter {
            let r = Rasterizer()
            r.reset(clip: c)
            r.addPolygon(poly)
            var b = CoverageBlitter(full)
            r.rasterize(rule: .nonZero, into: &b)
            return b
        }
        let a = cover(full), b = cover(clip)
        for y in clip.y..<clip.maxY {
            for x in clip.x..<clip.maxX {
                let i = Int(y * 40 + x)
                #expect(a.coverage[i] == b.coverage[i], "seed \(seed) pixel \(x),\(y) clip \(clip)")
            }
        }
    }
}
