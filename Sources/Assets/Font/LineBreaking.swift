// Where a line may break, reduced to what HUD status text needs (a small subset of UAX #14):
// after a run of spaces; before and after CJK characters, which are written without spaces,
// except before closing punctuation and after opening brackets (the basic Japanese/Chinese
// kinsoku rule); and at explicit newlines. A word too long for a line breaks between characters
// (TextLayout does that, not this table).

enum LineBreaking {
    /// Spaces that separate words, may hang past the line end and are dropped at a break.
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\u{3000}"
    }

    /// Forced breaks: LF, CR (CR LF counts once, see TextLayout), NEL, line and paragraph separators.
    static func isHardBreak(_ s: Unicode.Scalar) -> Bool {
        s == "\n" || s == "\r" || s == "\u{85}" || s == "\u{2028}" || s == "\u{2029}"
    }

    /// Characters drawn as nothing and taking no space: other C0/C1 controls, zero-width
    /// characters, bidi marks, variation selectors and the BOM (no shaping engine interprets them).
    static func isIgnorable(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || (v >= 0x7F && v < 0xA0) || (v >= 0x200B && v <= 0x200F) || (v >= 0x202A && v <= 0x202E)
            || (v >= 0x2060 && v <= 0x2064) || (v >= 0xFE00 && v <= 0xFE0F) || v == 0xFEFF
    }

    /// Ideographic scripts written without spaces: CJK radicals to unified ideographs (with kana,
    /// bopomofo and CJK punctuation), Yi, compatibility ideographs and forms, fullwidth forms, and
    /// the supplementary ideographic planes.
    static func isIdeographic(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return (v >= 0x2E80 && v <= 0x9FFF) || (v >= 0xA000 && v <= 0xA4CF) || (v >= 0xF900 && v <= 0xFAFF)
            || (v >= 0xFE30 && v <= 0xFE4F) || (v >= 0xFF00 && v <= 0xFFEF) || (v >= 0x20000 && v <= 0x3FFFF)
    }

    /// Closing punctuation and small kana that must not start a line.
    private static let noBreakBefore: Set<UInt32> = Set(
        "、。，．：；？！）」』】〕〉》〗〙〛ー々ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・…‥,.:;?!)]}％"
            .unicodeScalars.map(\.value) + [0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF01, 0xFF3D, 0xFF5D])

    /// Opening brackets that must not end a line.
    private static let noBreakAfter: Set<UInt32> = Set(
        "（「『【〔〈《〖〘〚([{".unicodeScalars.map(\.value) + [0xFF08, 0xFF3B, 0xFF5B])

    /// Whether a line may break between `before` and `after` (neither a hard break).
    static func canBreak(between before: Unicode.Scalar, and after: Unicode.Scalar) -> Bool {
        if isSpace(after) { return false }  // break after the last space of a run
        if isSpace(before) { return true }
        guard isIdeographic(before) || isIdeographic(after) else { return false }
        return !noBreakBefore.contains(after.value) && !noBreakAfter.contains(before.value)
    }
}
