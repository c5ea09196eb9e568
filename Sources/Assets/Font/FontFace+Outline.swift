// SPDX-License-Identifier: MIT
// Glyph outlines as our `Path`: FreeType decomposes the unhinted outline (TrueType conic on/off
// points become quads with their implied on-points, CFF curves come through as cubics), and every
// coordinate is mapped in integers from font units to 16.16 pixels: x·size/unitsPerEm, y flipped
// (FreeType's y points up, ours down), plus an offset, with one rounding per coordinate.

import CFreeType
import Raster

extension FontFace {
    /// The outline of `glyph` in font units (1 unit = 1.0), y down, origin on the baseline at the
    /// pen position. Empty for glyphs without contours (space).
    public func outline(glyph: UInt32) throws -> Path {
        try decompose(glyph, OutlineMapping(numerator: 1 << 16, denominator: 1, dx: 0, dy: 0))
    }

    /// The outline of `glyph` at `size` pixels per em in 16.16 pixels, y down, with the pen
    /// (the glyph origin on the baseline) at `origin`. `size` must be positive, and the glyph must
    /// stay within ±32768 px.
    public func outline(glyph: UInt32, size: Fixed16_16, origin: Point = .zero) throws -> Path {
        precondition(size.raw > 0, "font size must be positive: \(size)")
        return try decompose(glyph, OutlineMapping(numerator: Int64(size.raw), denominator: Int64(unitsPerEm),
                                                   dx: Int64(origin.x.raw), dy: Int64(origin.y.raw)))
    }

    private func decompose(_ glyph: UInt32, _ mapping: OutlineMapping) throws -> Path {
        let slot = try loadUnscaled(glyph)
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            throw FontError.freeType(call: "FT_Load_Glyph(\(glyph)) in \(path)", code: 0x12,
                                     reason: FontError.freeTypeText(0x12))
        }
        let sink = OutlineSink(mapping)
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in OutlineSink.from(user).move(to) },
            line_to: { to, user in OutlineSink.from(user).line(to) },
            conic_to: { c, to, user in OutlineSink.from(user).quad(c, to) },
            cubic_to: { c1, c2, to, user in OutlineSink.from(user).cubic(c1, c2, to) },
            shift: 0, delta: 0)
        let error = withExtendedLifetime(sink) {
            FT_Outline_Decompose(&slot.pointee.outline, &funcs, Unmanaged.passUnretained(sink).toOpaque())
        }
        if error != 0 {
            throw FontError.freeType(call: "FT_Outline_Decompose(\(glyph)) in \(path)", code: error,
                                     reason: FontError.freeTypeText(error))
        }
        return sink.finish()
    }
}

/// Font units to 16.16: `v · numerator / denominator`, rounded, then offset (y negated first).
struct OutlineMapping {
    let numerator: Int64
    let denominator: Int64
    let dx: Int64
    let dy: Int64

    func point(_ v: FT_Vector) -> Point {
        let x = roundedDivide(Int64(v.x) * numerator, denominator) + dx
        let y = dy - roundedDivide(Int64(v.y) * numerator, denominator)
        return Point(x: Fixed16_16(wide: x), y: Fixed16_16(wide: y))
    }
}

/// Collects FreeType's decomposition callbacks into a `Path`. FreeType ends every contour with a
/// segment back to its start and no close; a `close` is added before the next move and at the end,
/// and a final straight line back to the start is left to it (held back until the next callback).
private final class OutlineSink {
    private let mapping: OutlineMapping
    private var path = Path()
    private var open = false
    private var start = Point.zero
    private var pendingLine: Point?

    init(_ mapping: OutlineMapping) { self.mapping = mapping }

    static func from(_ user: UnsafeMutableRawPointer?) -> OutlineSink {
        Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue()
    }

    func move(_ to: UnsafePointer<FT_Vector>?) -> Int32 {
        guard let to else { return 0x14 }  // Invalid_Outline
        closeContour()
        start = mapping.point(to.pointee)
        path.move(to: start); open = true
        return 0
    }
    func line(_ to: UnsafePointer<FT_Vector>?) -> Int32 {
        guard let to else { return 0x14 }
        flushLine()
        pendingLine = mapping.point(to.pointee)
        return 0
    }
    func quad(_ c: UnsafePointer<FT_Vector>?, _ to: UnsafePointer<FT_Vector>?) -> Int32 {
        guard let c, let to else { return 0x14 }
        flushLine()
        path.quad(to: mapping.point(to.pointee), control: mapping.point(c.pointee))
        return 0
    }
    func cubic(_ c1: UnsafePointer<FT_Vector>?, _ c2: UnsafePointer<FT_Vector>?, _ to: UnsafePointer<FT_Vector>?) -> Int32 {
        guard let c1, let c2, let to else { return 0x14 }
        flushLine()
        path.cubic(to: mapping.point(to.pointee), control1: mapping.point(c1.pointee), control2: mapping.point(c2.pointee))
        return 0
    }
    func finish() -> Path {
        closeContour()
        return path
    }
    private func flushLine() {
        if let p = pendingLine { path.line(to: p); pendingLine = nil }
    }
    private func closeContour() {
        if pendingLine == start { pendingLine = nil }
        flushLine()
        if open { path.close(); open = false }
    }
}
