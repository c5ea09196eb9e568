// SPDX-License-Identifier: MIT
// Shaping one run with HarfBuzz over the FreeType face: GSUB and GPOS (ligatures, contextual
// forms, mark positioning, kerning, and the legacy `kern` table when a font has no GPOS kerning),
// for every script HarfBuzz shapes. HarfBuzz reads the font's tables through the FT_Face we
// already loaded (hb_ft_face_create_referenced) and shapes at a scale of one unit per font unit,
// so every advance and offset comes back as an exact integer in font units; the layout scales
// each into 16.16 pixels once, as it scales outlines. That is finer than FreeType's 26.6 (which
// hb-shape --font-funcs=ft rounds to) and leaves an unkerned line's positions exactly what they
// were before shaping, so unkerned goldens did not move.

import CFreeType
import CHarfBuzz

/// One glyph of a shaped run, in font units.
struct ShapedGlyph: Hashable, Sendable {
    var glyph: UInt32
    /// The index, in the text handed to `shape`, of the first character this glyph draws.
    var cluster: Int32
    var xAdvance: Int32
    var xOffset: Int32
    /// Up, as OpenType has it.
    var yOffset: Int32
    /// HarfBuzz's HB_GLYPH_FLAG_UNSAFE_TO_BREAK: cutting the text where this glyph's cluster
    /// starts and shaping each side again may give other glyphs.
    var unsafeToBreak = false
}

extension FontFace {
    /// HarfBuzz's font over this face at one unit per font unit (made once, then kept).
    private var hbFont: OpaquePointer {
        if let shapingFont { return shapingFont }
        let hbFace = hb_ft_face_create_referenced(face)
        let font = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_font_set_scale(font, unitsPerEm, unitsPerEm)
        shapingFont = font
        return font
    }

    /// Shapes `text[range]` as one run: `rightToLeft` (its bidi level is odd), in `script` (an
    /// ISO 15924 tag as HarfBuzz's hb_script_t), with the characters around it as context (Arabic
    /// joins across a run's edge as it does inside). Glyphs come out in visual order, left to
    /// right: a right-to-left run's first character is drawn last. Clusters index `text`.
    func shape(_ text: [UInt32], _ range: Range<Int>, rightToLeft: Bool, script: UInt32, language: String?) -> [ShapedGlyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        text.withUnsafeBufferPointer { all in
            hb_buffer_add_utf32(buffer, all.baseAddress, Int32(all.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_t(script))
        if let language { hb_buffer_set_language(buffer, hb_language_from_string(language, -1)) }
        hb_shape(hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        // A hostile font's positions stay within ±4 em, as its metrics are kept when it opens.
        let limit = 4 * unitsPerEm
        func clamp(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, -limit), limit) }
        // An emboldened face's glyphs are wider by its emboldening, as FreeType widens their
        // advances (HarfBuzz 6 has no synthetic bold of its own); marks' zero advances stay.
        return (0..<Int(count)).map { i in
            let advance = positions[i].x_advance
            return ShapedGlyph(glyph: infos[i].codepoint, cluster: Int32(bitPattern: infos[i].cluster),
                               xAdvance: clamp(advance != 0 ? Int32(clamping: Int64(advance) + Int64(emboldening)) : 0), xOffset: clamp(positions[i].x_offset),
                               yOffset: clamp(positions[i].y_offset),
                               unsafeToBreak: hb_glyph_info_get_glyph_flags(infos + i).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0)
        }
    }
}

/// Unicode's script property, as HarfBuzz's built-in tables have it.
enum Script {
    static let common = UInt32(HB_SCRIPT_COMMON.rawValue)
    static let inherited = UInt32(HB_SCRIPT_INHERITED.rawValue)
    static let unknown = UInt32(HB_SCRIPT_UNKNOWN.rawValue)
    static let thai = UInt32(HB_SCRIPT_THAI.rawValue)
    static let hangul = UInt32(HB_SCRIPT_HANGUL.rawValue)

    static func of(_ scalar: UInt32) -> UInt32 {
        UInt32(hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue)
    }

    /// Whether the script takes its neighbours' (spaces, digits, punctuation, combining marks).
    static func isWeak(_ script: UInt32) -> Bool { script == common || script == inherited || script == unknown }
}

/// Unicode's general category from HarfBuzz's tables, a tenth of the cost of Swift's lookup.
enum GeneralCategory {
    static func of(_ scalar: UInt32) -> hb_unicode_general_category_t {
        hb_unicode_general_category(hb_unicode_funcs_get_default(), scalar)
    }

    /// A space separator (Zs).
    static func isSpace(_ category: hb_unicode_general_category_t) -> Bool {
        category == HB_UNICODE_GENERAL_CATEGORY_SPACE_SEPARATOR
    }

    /// Default_Ignorable_Code_Point, asked of Swift only where it has members: formats (Cf),
    /// nonspacing marks (Mn), unassigned (Cn), and Hangul's fillers among letters (Lo).
    /// `script` is the character's own (Script.of).
    static func isDefaultIgnorable(_ scalar: Unicode.Scalar, _ category: hb_unicode_general_category_t, script: UInt32) -> Bool {
        switch category {
        case HB_UNICODE_GENERAL_CATEGORY_FORMAT, HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK,
             HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED:
            return scalar.properties.isDefaultIgnorableCodePoint
        case HB_UNICODE_GENERAL_CATEGORY_OTHER_LETTER:
            return script == Script.hangul && scalar.properties.isDefaultIgnorableCodePoint
        default: return false
        }
    }
}
