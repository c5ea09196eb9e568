// A fallback chain of faces, so status text in any script renders: each character takes its glyph
// from the first face that has one (not .notdef), the way fontconfig's fallback lists work, without
// fontconfig. DejaVu Sans covers Latin, Greek, Cyrillic and most symbols; Droid Sans Fallback
// (Debian's fonts-droid-fallback) covers CJK; Noto CJK and WenQuanYi are used when installed.

import Raster

/// An ordered list of faces with per-character fallback, and the glyph cache drawing them.
public final class FontChain {
    /// The faces in fallback order; the first is the primary face (line metrics come from it).
    public let faces: [FontFace]
    /// Rasterized glyphs of these faces, shared by every layout drawn with this chain.
    public let cache: GlyphCache
    /// Why each path that `init(paths:)` skipped did not load (empty for `init(faces:)`).
    public let skipped: [FontError]

    private var resolved: [UInt32: (face: Int, glyph: UInt32)] = [:]
    /// Shaped runs (FontChain+Shaping).
    var shapes = ShapeCache()
    /// Characters no face has, not yet reported, and every one ever noted (each is reported once).
    private var unreported: [Unicode.Scalar] = []
    private var noted: Set<UInt32> = []

    /// Debian's paths, in fallback order: DejaVu Sans (fonts-dejavu-core), Droid Sans Fallback
    /// (fonts-droid-fallback, CJK), Noto Sans CJK (fonts-noto-cjk), WenQuanYi (fonts-wqy-*), then
    /// Latin faces that stand in when DejaVu is absent (fonts-liberation2, fonts-freefont-ttf).
    public static let defaultSearchPaths: [String] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
        "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    ]

    /// A chain of `faces` in fallback order. Throws `.noUsableFont` when `faces` is empty.
    public init(faces: [FontFace], cache: GlyphCache = GlyphCache()) throws {
        guard !faces.isEmpty else { throw FontError.noUsableFont(searched: [], reasons: []) }
        self.faces = faces; self.cache = cache; skipped = []
    }

    /// Opens every font in `paths` that loads, in order, skipping (and recording in `skipped`)
    /// missing, unreadable and broken files. Throws `.noUsableFont` naming every path searched
    /// when none loads.
    public init(paths: [String], cache: GlyphCache = GlyphCache()) throws {
        var faces: [FontFace] = [], failures: [FontError] = []
        for path in paths {
            do { faces.append(try FontFace(path: path)) } catch let error as FontError { failures.append(error) }
        }
        guard !faces.isEmpty else {
            throw FontError.noUsableFont(searched: paths, reasons: failures.map(\.description))
        }
        self.faces = faces; self.cache = cache; skipped = failures
    }

    /// The chain from `defaultSearchPaths` (whichever of them are installed).
    public static func systemDefault(cache: GlyphCache = GlyphCache()) throws -> FontChain {
        try FontChain(paths: defaultSearchPaths, cache: cache)
    }

    /// The primary face: line height, ascent and descent come from it.
    public var primary: FontFace { faces[0] }

    /// The face and glyph that draw `scalar`: the first face with a real glyph for it, or the
    /// primary face's .notdef (glyph 0, drawn as a box) when no face has one.
    public func glyph(for scalar: Unicode.Scalar) -> (face: FontFace, glyph: UInt32) {
        let r = resolve(scalar)
        return (faces[r.faceIndex], r.glyph)
    }

    /// As `glyph(for:)`, with the face as an index into `faces`. Memoized.
    public func resolve(_ scalar: Unicode.Scalar) -> (faceIndex: Int, glyph: UInt32) {
        if let r = resolved[scalar.value] { return (r.face, r.glyph) }
        var found = (face: 0, glyph: UInt32(0))
        for (i, face) in faces.enumerated() {
            let g = face.glyphIndex(for: scalar)
            if g != 0 { found = (i, g); break }
        }
        resolved[scalar.value] = found
        return (found.face, found.glyph)
    }

    /// Records that no face has `scalar` (it is drawn as a box).
    func noteMissing(_ scalar: Unicode.Scalar) {
        if noted.count < 4096, noted.insert(scalar.value).inserted { unreported.append(scalar) }
    }

    /// The characters no face had since the last call, each once in the chain's life: the HUD
    /// logs them.
    public func takeMissing() -> [Unicode.Scalar] {
        defer { unreported.removeAll() }
        return unreported
    }
}
