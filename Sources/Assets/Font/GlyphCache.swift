// SPDX-License-Identifier: MIT
// Rasterized glyph coverage, cached. A glyph is rasterized by our scan converter from its unhinted
// outline placed at a sub-pixel phase, so text can sit at fractional pen positions without
// rasterizing every glyph at every position.
//
// Phases: a pen position is rounded to the nearest quarter pixel in x and in y (ties up), and the
// glyph is rasterized with its origin at (phaseX/4, phaseY/4) inside its whole pixel. Four phases
// per axis keep position error within ±1/8 px — below what grayscale coverage shows at text
// sizes — while a string needs at most 16 masks per glyph (in practice 4: a line's baseline has
// one y phase). FreeType's own LCD filter and Skia use the same 1/4 px x quantization.
//
// Bounds: least recently used masks go first once the cache holds more than `maxEntries` masks or
// `maxBytes` of coverage; eviction drops down to three quarters of both limits at once, so its
// sort is paid rarely.

import Raster

/// What identifies one cached mask.
public struct GlyphKey: Hashable, Sendable {
    /// `FontFace.id` (never reused within a process).
    public var faceID: UInt64
    public var glyph: UInt32
    /// Pixels per em, 16.16 raw.
    public var sizeRaw: Int32
    /// The origin's sub-pixel offset in quarter pixels, 0...3.
    public var phaseX: UInt8
    public var phaseY: UInt8

    public init(faceID: UInt64, glyph: UInt32, size: Fixed16_16, phaseX: UInt8, phaseY: UInt8) {
        self.faceID = faceID; self.glyph = glyph; sizeRaw = size.raw; self.phaseX = phaseX; self.phaseY = phaseY
    }
}

/// A bounded cache of glyph coverage masks. Not thread-safe (it is used with `FontFace`s, which
/// are not): keep it on the rendering thread.
public final class GlyphCache {
    /// Sub-pixel positions per pixel on each axis.
    public static let phasesPerPixel: Int32 = 4
    /// How far flattened glyph curves may stray from the outline: 1/64 px, FreeType's 26.6 grid.
    /// The canvas default (a tenth of a pixel) cuts inside every curve and visibly thins small
    /// text (DejaVu "e" at 16 px loses 2% of its area); masks are cached, so the extra segments
    /// are paid once.
    public static let flatteningTolerance = Fixed16_16(raw: 1 << 10)

    public let maxEntries: Int
    public let maxBytes: Int
    public private(set) var byteCount = 0
    /// Lookups answered from the cache, and masks rasterized.
    public private(set) var hits = 0
    public private(set) var misses = 0

    private struct Entry { var mask: Mask; var lastUse: UInt64 }
    private var entries: [GlyphKey: Entry] = [:]
    private var clock: UInt64 = 0

    /// A cache of at most `maxEntries` masks and `maxBytes` bytes of coverage (both positive).
    public init(maxEntries: Int = 2048, maxBytes: Int = 2 << 20) {
        precondition(maxEntries > 0 && maxBytes > 0, "glyph cache limits must be positive")
        self.maxEntries = maxEntries; self.maxBytes = maxBytes
    }

    /// The number of cached masks.
    public var count: Int { entries.count }

    public func removeAll() { entries.removeAll(); byteCount = 0 }

    /// Splits a coordinate into the whole pixel and the quarter-pixel phase nearest to it:
    /// `pixel + phase/4` is `v` rounded to a quarter pixel (ties up).
    public static func quantize(_ v: Fixed16_16) -> (pixel: Int32, phase: UInt8) {
        let quarters = (Int64(v.raw) + 0x2000) >> 14
        return (Int32(truncatingIfNeeded: quarters >> 2), UInt8(truncatingIfNeeded: quarters & 3))
    }

    /// The coverage of `glyph` of `face` at `size` px/em with its origin at (phaseX/4, phaseY/4) px;
    /// the mask's origin is relative to the whole pixel holding the glyph origin.
    public func mask(face: FontFace, glyph: UInt32, size: Fixed16_16, phaseX: UInt8, phaseY: UInt8) throws -> Mask {
        precondition(phaseX < 4 && phaseY < 4, "glyph phase out of range")
        let key = GlyphKey(faceID: face.id, glyph: glyph, size: size, phaseX: phaseX, phaseY: phaseY)
        clock &+= 1
        if let index = entries.index(forKey: key) {  // one hash lookup for a hit
            entries.values[index].lastUse = clock
            hits += 1
            return entries.values[index].mask
        }
        misses += 1
        let origin = Point(x: Fixed16_16(raw: Int32(phaseX) << 14), y: Fixed16_16(raw: Int32(phaseY) << 14))
        let path = try face.outline(glyph: glyph, size: size, origin: origin)
        let mask = path.isEmpty ? Mask.empty : path.rasterizeMask(rule: .nonZero, tolerance: Self.flatteningTolerance)
        entries[key] = Entry(mask: mask, lastUse: clock)
        byteCount += mask.coverage.count
        if entries.count > maxEntries || byteCount > maxBytes { evict() }
        return mask
    }

    /// The mask for a glyph whose origin (pen on the baseline) is at `position` in pixels, and the
    /// whole-pixel offset to draw it at: `canvas.draw(m.mask, dx: m.dx, dy: m.dy, …)`.
    public func placedMask(face: FontFace, glyph: UInt32, size: Fixed16_16, at position: Point) throws
        -> (mask: Mask, dx: Int32, dy: Int32)
    {
        let (px, fx) = Self.quantize(position.x), (py, fy) = Self.quantize(position.y)
        return (try mask(face: face, glyph: glyph, size: size, phaseX: fx, phaseY: fy), px, py)
    }

    /// Drops the least recently used masks down to three quarters of both limits.
    private func evict() {
        let entryTarget = maxEntries * 3 / 4, byteTarget = maxBytes * 3 / 4
        let oldestFirst = entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in oldestFirst {
            if entries.count <= entryTarget && byteCount <= byteTarget { break }
            entries[key] = nil
            byteCount -= entry.mask.coverage.count
        }
    }
}
