// SPDX-License-Identifier: MIT
// One font file opened through FreeType, used only for what FreeType is good at here: the cmap,
// the metrics, and unhinted outlines in font units. Scaling, placement and rasterization are ours
// (integer math into 16.16, then our scan converter), so a glyph looks the same on every machine.
//
// Threading: every face comes from one FT_Library for the process (`FreeTypeLibrary.shared`).
// FreeType (since 2.5.6) allows one library across threads as long as FT_New_Face and FT_Done_Face
// hold a lock, which that type takes; it does not allow concurrent use of one FT_Face (a face has
// one glyph slot that FT_Load_Glyph overwrites), so a face is not thread-safe and `FontFace` is
// deliberately not `Sendable`: create and use it on the thread that renders (the HUD thread).
// A library per face needed no lock, but each FT_Init_FreeType registers every module again:
// 48 k instructions a face, three faces before the first frame.

import CFreeType
import CHarfBuzz
import Raster
import Synchronization

import LinuxSystem

/// Source of `FontFace.id`: unique for the life of the process, unlike an object address.
private let nextFaceID = Atomic<UInt64>(1)

/// An opened, scalable font face (the first face of the file).
public final class FontFace {
    /// The file it came from.
    public let path: String
    /// Which face of the file (a collection, .ttc, holds several).
    public let index: Int32
    /// Unique per opened face in this process (a glyph cache key; never reused, unlike addresses).
    public let id: UInt64
    public let familyName: String
    public let styleName: String
    /// Font units per em (2048 for DejaVu Sans, 1000 for most CFF fonts).
    public let unitsPerEm: Int32
    /// Distance from the baseline to the top of the line box, in font units (positive, up).
    public let ascender: Int32
    /// Distance from the baseline to the bottom of the line box, in font units (negative, below).
    public let descender: Int32
    /// Baseline-to-baseline distance in font units: ascender − descender + line gap (FreeType's
    /// `face->height`, from hhea or OS/2).
    public let height: Int32
    /// The number of glyphs in the face.
    public let glyphCount: Int32
    /// Whether the face is bold by design (FreeType's FT_STYLE_FLAG_BOLD, from OS/2 or `head`).
    public let isBold: Bool
    /// Font units every outline grows by (its stems thicker, its top higher) and every advance
    /// widens by, to draw a regular face bold; 0 for a face drawn as designed (FontChain+Bold).
    public let emboldening: Int32

    /// Whether the face is drawn emboldened.
    public var isEmboldened: Bool { emboldening > 0 }

    /// The extra space between lines, in font units.
    public var lineGap: Int32 { height - (ascender - descender) }

    let face: FT_Face
    private var advances: [UInt32: Int32] = [:]
    /// HarfBuzz's font over this face, made on first shaping (FontFace+Shaping).
    var shapingFont: OpaquePointer?

    /// The largest font file opened (CJK collections run to a few tens of megabytes).
    public static let maxFileBytes: UInt64 = 64 << 20

    /// Opens face `index` (the first by default) of the font file at `path`: a regular file of at
    /// most `maxFileBytes`. `emboldened` draws a face that is not bold by design bold (its outlines
    /// grown by em/24, FreeType's FT_GlyphSlot_Embolden strength). Throws `.fileNotFound`,
    /// `.unreadable`, `.notAFont` (FreeType refused it, or the collection has no such face) or
    /// `.notScalable`.
    public init(path: String, index: Int32 = 0, emboldened: Bool = false) throws {
        try Self.checkFile(path)
        let opened = try FreeTypeLibrary.shared.openFace(path, index: index)
        let f = opened.pointee
        guard f.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0, f.units_per_EM > 0 else {
            FreeTypeLibrary.shared.close(opened)
            throw FontError.notScalable(path: path)
        }
        face = opened; self.path = path; self.index = index
        id = nextFaceID.add(1, ordering: .relaxed).oldValue
        familyName = f.family_name.map { String(cString: $0) } ?? ""
        styleName = f.style_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Int32(f.units_per_EM)
        ascender = Int32(f.ascender); descender = Int32(f.descender); height = Int32(f.height)
        glyphCount = Int32(truncatingIfNeeded: f.num_glyphs)
        isBold = f.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        emboldening = emboldened && !isBold ? unitsPerEm / 24 : 0
        // A hostile or broken file's metrics would overflow 16.16 pixels once scaled and summed.
        let em = unitsPerEm
        let problem: String? =
            !(16...16384).contains(em) ? "\(em) units per em (real fonts have 16...16384)"
            : [ascender, descender, height].contains(where: { abs($0) > 4 * em })
            ? "ascender \(ascender), descender \(descender), line height \(height) for \(em) units per em (beyond 4 em)" : nil
        // Every property is set: throwing now runs deinit, which frees the face.
        if let problem { throw FontError.implausibleMetrics(path: path, reason: problem) }
    }

    deinit {
        if let shapingFont { hb_font_destroy(shapingFont) }
        FreeTypeLibrary.shared.close(face)
    }

    /// What FreeType would open, checked first without blocking: a FIFO or device named as a font
    /// would make FreeType's own open(2) wait for a writer, and a huge file would be mapped whole.
    /// FreeType also reports a missing and an unreadable file with the same error; this tells
    /// them apart.
    private static func checkFile(_ path: String) throws {
        do { try AssetFile.check(path, maxBytes: maxFileBytes) } catch {
            if error.missing { throw FontError.fileNotFound(path: path) }
            throw FontError.unreadable(path: path, reason: error.reason)
        }
    }

    // MARK: - Character map and metrics

    /// The glyph for `scalar` through the face's Unicode cmap; 0 (.notdef) when it has none.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// Whether the face has a real glyph (not .notdef) for `scalar`.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { glyphIndex(for: scalar) != 0 }

    /// The unhinted horizontal advance of `glyph` in font units (memoized per face), kept within
    /// 0...4 em: a glyph's own metrics are not checked when the face opens.
    public func advance(glyph: UInt32) throws -> Int32 {
        if let a = advances[glyph] { return a }
        let slot = try loadUnscaled(glyph)
        let a = Int32(clamping: min(max(Int64(slot.pointee.metrics.horiAdvance), 0), Int64(4 * unitsPerEm)))
        advances[glyph] = a
        return a
    }

    /// The unhinted advance of `glyph` at `size` pixels per em: advance × size / unitsPerEm,
    /// rounded once to the nearest 1/65536 px (exact for DejaVu's 2048 units at whole sizes).
    public func advance(glyph: UInt32, size: Fixed16_16) throws -> Fixed16_16 {
        scale(try advance(glyph: glyph), size: size)
    }

    /// `units` font units at `size` pixels per em, in 16.16 pixels (rounded to nearest, ties away
    /// from zero, in 64-bit integers).
    public func scale(_ units: Int32, size: Fixed16_16) -> Fixed16_16 {
        Fixed16_16(wide: roundedDivide(Int64(units) * Int64(size.raw), Int64(unitsPerEm)))
    }

    // MARK: - Glyph loading

    /// Loads `glyph` into the face's slot in font units, unhinted, outlines only (no embedded
    /// bitmaps), emboldened if the face is. The slot stays valid until the next load on this face.
    func loadUnscaled(_ glyph: UInt32) throws -> FT_GlyphSlot {
        let flags = Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        let error = FT_Load_Glyph(face, glyph, flags)
        guard error == 0, let slot = face.pointee.glyph else {
            throw FontError.freeType(call: "FT_Load_Glyph(\(glyph)) in \(path)", code: error, reason: FontError.freeTypeText(error))
        }
        if emboldening > 0 && slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE { try embolden(slot) }
        return slot
    }

    /// What FT_GlyphSlot_Embolden does, in font units (it takes its strength from a size, and
    /// these glyphs are loaded unscaled): the outline `emboldening` wider and higher, its ink
    /// growing right and up from where it was, and the advance as much wider.
    private func embolden(_ slot: FT_GlyphSlot) throws {
        let strength = FT_Pos(emboldening)
        let error = FT_Outline_EmboldenXY(&slot.pointee.outline, strength, strength)
        guard error == 0 else {
            throw FontError.freeType(call: "FT_Outline_EmboldenXY in \(path)", code: error, reason: FontError.freeTypeText(error))
        }
        if slot.pointee.metrics.horiAdvance != 0 { slot.pointee.metrics.horiAdvance += strength }
    }
}
