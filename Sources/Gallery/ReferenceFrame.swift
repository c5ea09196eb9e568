// SPDX-License-Identifier: MIT
// The reference HUD frame every rasterizer benchmark draws (shared/bench/hud-scene.md): a dimmed
// background, a white bezel, a track ring, a spinner arc that turns 6° a frame, and a status line
// in DejaVu Sans. What a real HUD keeps (paints, the bezel path, the shaped text, the font and its
// glyph cache) is made once in `init`; the arc is rebuilt every frame.
import Assets
import Raster

public final class ReferenceFrame {
    public enum Variant: String, CaseIterable, Sendable {
        case full1080, full4k, damage1080
    }

    public struct Geometry: Sendable {
        public var width, height: Int32
        public var bezel: Rect
        public var cornerRadius: Fixed16_16
        public var ringCenter: Point
        public var ringRadius: Fixed16_16
        public var strokeWidth: Fixed16_16
        public var textSize: Fixed16_16
        public var baseline: Fixed16_16
        /// What damage1080 redraws; nil for a full frame.
        public var damage: IntRect?
    }

    public static let status = "Installing update 3 of 7\u{2026}"
    public static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    public static let background = Color(rgb: 0x204060)
    public static let dim = Color.black.withAlpha(102)
    public static let bezelColor = Color.white.withAlpha(242)
    public static let trackColor = Color.black.withAlpha(26)
    public static let arcColor = Color.black
    public static let textColor = Color.black

    public static func geometry(_ v: Variant) -> Geometry {
        switch v {
        case .full1080, .damage1080:
            return Geometry(width: 1920, height: 1080, bezel: Rect(860, 440, 200, 200), cornerRadius: Fixed16_16(14.0),
                            ringCenter: Point(960, 520), ringRadius: Fixed16_16(18.0), strokeWidth: Fixed16_16(2.0),
                            textSize: Fixed16_16(16.0), baseline: Fixed16_16(580.0),
                            damage: v == .damage1080 ? IntRect(x: 860, y: 440, width: 200, height: 200) : nil)
        case .full4k:
            return Geometry(width: 3840, height: 2160, bezel: Rect(1770, 930, 300, 300), cornerRadius: Fixed16_16(21.0),
                            ringCenter: Point(1920, 1050), ringRadius: Fixed16_16(40.0), strokeWidth: Fixed16_16(6.0),
                            textSize: Fixed16_16(24.0), baseline: Fixed16_16(1140.0), damage: nil)
        }
    }

    public let variant: Variant
    public let geometry: Geometry
    let face: FontFace
    let cache = GlyphCache()
    let bezelPath: Path
    let ringPath: Path
    /// Glyph ids and pen positions, laid out once: cmap lookup, unhinted advances, no kerning.
    let glyphs: [(glyph: UInt32, pen: Point)]
    /// The total advance of the status line, in pixels.
    public let textAdvance: Fixed16_16

    public init(_ variant: Variant, fontPath: String = ReferenceFrame.fontPath) throws {
        self.variant = variant
        geometry = Self.geometry(variant)
        face = try FontFace(path: fontPath)
        bezelPath = .roundedRect(geometry.bezel, radius: geometry.cornerRadius)
        ringPath = .circle(center: geometry.ringCenter, radius: geometry.ringRadius)
        var advance = Fixed16_16.zero
        var ids: [(UInt32, Fixed16_16)] = []
        for s in Self.status.unicodeScalars {
            let g = face.glyphIndex(for: s)
            ids.append((g, advance))
            advance += try face.advance(glyph: g, size: geometry.textSize)
        }
        textAdvance = advance
        let x0 = geometry.width.halfFixed - Fixed16_16(raw: advance.raw / 2)
        let baseline = geometry.baseline
        glyphs = ids.map { ($0.0, Point(x: x0 + $0.1, y: baseline)) }
        // Warm the glyph cache, as a running HUD would have.
        for g in glyphs { _ = try cache.placedMask(face: face, glyph: g.glyph, size: geometry.textSize, at: g.pen) }
    }

    /// The start angle of the arc in frame n: (n mod 60) · 2π / 60.
    public static func arcStart(frame n: Int) -> Fixed16_16 {
        Fixed16_16(wide: roundedDivide(Int64(n % 60) * Int64(Trig.twoPi.raw), 60))
    }

    /// Draws frame `n` into `canvas` (clipped to the damage rect for damage1080), flushed: the
    /// pixels are in memory when it returns.
    public func draw(frame n: Int, into canvas: Canvas) {
        let g = geometry
        canvas.clip = g.damage ?? canvas.target.bounds
        let all = IntRect(x: 0, y: 0, width: g.width, height: g.height)
        canvas.fill(all, .solid(Self.background), blend: .source)
        canvas.fill(all, .solid(Self.dim))
        canvas.fill(bezelPath, .solid(Self.bezelColor))
        canvas.stroke(ringPath, StrokeStyle(width: g.strokeWidth), .solid(Self.trackColor))
        let a0 = Self.arcStart(frame: n)
        let sweep = Fixed16_16(wide: roundedDivide(47 * Int64(Trig.twoPi.raw), 100))
        var arc = Path()
        arc.arc(center: g.ringCenter, radius: g.ringRadius, start: a0, end: a0 + sweep, clockwise: true)
        canvas.stroke(arc, StrokeStyle(width: g.strokeWidth, cap: .round), .solid(Self.arcColor))
        for glyph in glyphs {
            guard let m = try? cache.placedMask(face: face, glyph: glyph.glyph, size: g.textSize, at: glyph.pen) else { continue }
            canvas.draw(m.mask, dx: m.dx, dy: m.dy, paint: .solid(Self.textColor))
        }
        canvas.flush()
    }
}

extension Int32 {
    /// Half of this integer as a 16.16 value.
    var halfFixed: Fixed16_16 { Fixed16_16(raw: self << 15) }
}
