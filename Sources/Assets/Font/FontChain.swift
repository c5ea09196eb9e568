// SPDX-License-Identifier: MIT
// A fallback chain of faces, so status text in any script renders: each character takes its glyph
// from the first face that has one (not .notdef) and is meant for its script, the way fontconfig's
// fallback lists work, without fontconfig: the chain is known before the first status. The
// default: DejaVu Sans for Latin, Greek and Cyrillic (and symbols), Noto's per-script faces
// (fonts-noto-core) for Arabic, Hebrew, the Indic scripts, Thai, Lao and Khmer, then CJK faces
// with Hangul (Noto Sans CJK, Droid Sans Fallback), then DejaVu Sans for every script it has.

import Raster

/// An ordered list of faces with per-character fallback, and the glyph cache drawing them.
public final class FontChain {
    /// The faces in fallback order; the first is the primary face (line metrics come from it).
    public let faces: [FontFace]
    /// Rasterized glyphs of these faces, shared by every layout drawn with this chain.
    public let cache: GlyphCache
    /// Why each path that `init(paths:)` skipped did not load (empty for `init(faces:)`).
    public let skipped: [FontError]
    /// The scripts (HarfBuzz's values) each face is meant for; nil: every script.
    let scripts: [Set<UInt32>?]

    /// `character(_:)`'s memo, direct-mapped by a hash of the code point: a collision only
    /// replaces an answer that is worked out the same way when asked again, and a lookup costs
    /// no hashing of a dictionary's (a layout asks for every character of its text).
    private var characters = [(value: UInt32, character: Character)?](repeating: nil, count: 256)
    /// Shaped runs (FontChain+Shaping).
    var shapes = ShapeCache()
    /// Characters no face has, not yet reported, and every one ever noted (each is reported once).
    private var unreported: [Unicode.Scalar] = []
    private var noted: Set<UInt32> = []

    /// Debian's faces, in fallback order, with the packages that install them.
    public static let defaultSources: [FontSource] = {
        let noto = "/usr/share/fonts/truetype/noto/NotoSans"
        return [
            FontSource(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", scripts: ["Latn", "Grek", "Cyrl"]),  // fonts-dejavu-core
        ] + ["Arabic", "Hebrew", "Devanagari", "Bengali", "Tamil", "Thai", "Lao", "Khmer", "Myanmar", "Armenian", "Georgian"]
            .map { FontSource(path: "\(noto)\($0)-Regular.ttf") } + [  // fonts-noto-core
            FontSource(path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),  // fonts-noto-cjk (Hangul too)
            // fonts-droid-fallback: this file has all of Hangul; the Full one fontconfig lists, 3 syllables.
            FontSource(path: "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"),
            FontSource(path: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
            FontSource(path: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),  // fonts-wqy-microhei
            // Latin faces that stand in when DejaVu is absent (fonts-liberation2, fonts-freefont-ttf).
            FontSource(path: "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"),
            FontSource(path: "/usr/share/fonts/truetype/freefont/FreeSans.ttf"),
        ]
    }()

    /// The paths of `defaultSources`.
    public static var defaultSearchPaths: [String] { defaultSources.map(\.path) }

    /// A chain of `faces` in fallback order, each for every script. Throws `.noUsableFont` when
    /// `faces` is empty.
    public convenience init(faces: [FontFace], cache: GlyphCache = GlyphCache()) throws {
        try self.init(faces: faces, scripts: faces.map { _ in nil }, cache: cache)
    }

    init(faces: [FontFace], scripts: [Set<UInt32>?], cache: GlyphCache, skipped: [FontError] = []) throws {
        guard !faces.isEmpty else { throw FontError.noUsableFont(searched: [], reasons: []) }
        self.faces = faces; self.scripts = scripts; self.cache = cache; self.skipped = skipped
    }

    /// Opens every font in `paths` that loads, in order, skipping (and recording in `skipped`)
    /// missing, unreadable and broken files. Throws `.noUsableFont` naming every path searched
    /// when none loads.
    public convenience init(paths: [String], cache: GlyphCache = GlyphCache()) throws {
        try self.init(sources: paths.map { FontSource(path: $0) }, cache: cache)
    }

    /// As `init(paths:)`, for faces that may be restricted to scripts or be a collection's Nth.
    /// A file named twice is opened once. `bold` takes each source's bold (FontChain+Bold): its
    /// bold sibling, or its own face emboldened.
    public convenience init(sources: [FontSource], cache: GlyphCache = GlyphCache(), after tail: FontChain? = nil,
                            bold: Bool = false) throws {
        var faces: [FontFace] = [], scripts: [Set<UInt32>?] = [], failures: [FontError] = []
        var opened: [String: FontFace] = [:]
        for source in sources {
            let key = "\(source.path)#\(source.index)"
            do {
                let face = try opened[key] ?? (bold ? FontFace.bold(of: source) : FontFace(path: source.path, index: source.index))
                opened[key] = face
                faces.append(face)
                scripts.append(source.scripts.map { Set($0.map(FontSource.script)) })
            } catch let error as FontError { failures.append(error) }
        }
        if let tail { faces += tail.faces; scripts += tail.scripts }
        guard !faces.isEmpty else {
            throw FontError.noUsableFont(searched: sources.map(\.path), reasons: failures.map(\.description))
        }
        try self.init(faces: faces, scripts: scripts, cache: tail?.cache ?? cache, skipped: failures)
    }

    /// The chain from `defaultSources` (whichever of them are installed).
    public static func systemDefault(cache: GlyphCache = GlyphCache()) throws -> FontChain {
        try FontChain(sources: defaultSources, cache: cache)
    }

    /// The primary face: line height, ascent and descent come from it.
    public var primary: FontFace { faces[0] }

    /// The face and glyph that draw `scalar`: the first face with a real glyph for it, or the
    /// primary face's .notdef (glyph 0, drawn as a box) when no face has one.
    public func glyph(for scalar: Unicode.Scalar) -> (face: FontFace, glyph: UInt32) {
        let r = resolve(scalar)
        return (faces[r.faceIndex], r.glyph)
    }

    /// As `glyph(for:)`, with the face as an index into `faces`: the first face that has the
    /// character and is meant for its script (every face is, for characters of no script of
    /// their own: spaces, digits, punctuation, marks), else the first that has it. Memoized.
    public func resolve(_ scalar: Unicode.Scalar) -> (faceIndex: Int, glyph: UInt32) {
        let c = character(scalar.value)
        return (c.face, c.glyph)
    }

    /// What laying out a character needs to know of it, memoized: the Unicode properties cost
    /// more than the chain's lookup, and a status repeats its characters.
    struct Character {
        var value: UInt32
        var face: Int
        var glyph: UInt32
        /// HarfBuzz's script value.
        var script: UInt32
        /// A space separator (Zs): it takes its neighbours' face.
        var isSpace: Bool
        /// Default_Ignorable_Code_Point (joiners, bidi marks, variation selectors): HarfBuzz hides it.
        var isHidden: Bool
    }

    /// `value`'s face, glyph, script and properties (U+FFFD's properties for a non-scalar).
    func character(_ value: UInt32) -> Character {
        let slot = Int(truncatingIfNeeded: (value &* 0x9E37_79B1) >> 24)  // Fibonacci hashing: the top 8 bits
        if let memo = characters[slot], memo.value == value { return memo.character }
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        let script = Script.of(value)
        var found: (face: Int, glyph: UInt32)? = nil, fallback = (face: 0, glyph: UInt32(0))
        for (i, face) in faces.enumerated() {
            let g = face.glyphIndex(for: scalar)
            guard g != 0 else { continue }
            if fallback.glyph == 0 { fallback = (i, g) }
            if Script.isWeak(script) || scripts[i].map({ $0.contains(script) }) ?? true { found = (i, g); break }
        }
        let r = found ?? fallback, category = GeneralCategory.of(value)
        let c = Character(value: value, face: r.face, glyph: r.glyph, script: script, isSpace: GeneralCategory.isSpace(category),
                          isHidden: GeneralCategory.isDefaultIgnorable(scalar, category, script: script))
        characters[slot] = (value, c)
        return c
    }

    /// Whether face `face` has a glyph for the character `c` was worked out for (its own face
    /// has, without asking FreeType).
    func has(_ c: Character, in face: Int) -> Bool {
        (c.glyph != 0 && c.face == face) || faces[face].hasGlyph(for: Unicode.Scalar(c.value) ?? "\u{FFFD}")
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
