// SPDX-License-Identifier: MIT
// The Unicode Bidirectional Algorithm through GNU FriBidi: a paragraph's embedding levels (rules
// P2–I2 with bracket pairs), then, per line once it is broken, the visual order (L1, L2).
// Levels are resolved on the whole paragraph before breaking and lines reordered after, as UAX #9
// requires; the paragraph direction comes from its first strong character, as UILabel's natural
// direction does, and a paragraph with none (such as "42 %") takes the caller's.

import CFriBidi

/// The direction of text with no strong character of its own (the locale's or the profile's).
public enum TextDirection: String, Sendable, CaseIterable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}

/// One paragraph's bidi analysis.
struct BidiParagraph {
    /// FriBidi's character types, one per character.
    let types: [FriBidiCharType]
    /// The resolved embedding level of each character: odd is right-to-left.
    let levels: [UInt8]
    /// The paragraph's level: 0 left-to-right, 1 right-to-left.
    let baseLevel: UInt8

    var isRightToLeft: Bool { baseLevel & 1 == 1 }

    init(_ text: [UInt32], neutral: TextDirection) {
        var types = [FriBidiCharType](repeating: FRIBIDI_TYPE_LTR, count: text.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: text.count)
        var levels = [FriBidiLevel](repeating: 0, count: text.count)
        var base = neutral == .rightToLeft ? FRIBIDI_PAR_WRTL : FRIBIDI_PAR_WLTR
        let n = FriBidiStrIndex(text.count)
        text.withUnsafeBufferPointer { t in
            fribidi_get_bidi_types(t.baseAddress, n, &types)
            fribidi_get_bracket_types(t.baseAddress, n, types, &brackets)
        }
        // 0 is an allocation failure inside FriBidi: the paragraph is then drawn in logical order.
        let ok = text.isEmpty || fribidi_get_par_embedding_levels_ex(types, brackets, n, &base, &levels) != 0
        let baseLevel: UInt8 = base == FRIBIDI_PAR_RTL || base == FRIBIDI_PAR_WRTL ? 1 : 0  // no strong character: the weak one asked for
        self.types = types
        self.levels = ok ? levels.map { UInt8(bitPattern: $0) } : Array(repeating: baseLevel, count: text.count)
        self.baseLevel = baseLevel
    }

    /// Types and levels given outright (a truncated line: its kept characters and the ellipsis).
    init(types: [FriBidiCharType], levels: [UInt8], baseLevel: UInt8) {
        self.types = types; self.levels = levels; self.baseLevel = baseLevel
    }

    /// FriBidi's type of one character.
    static func type(of scalar: UInt32) -> FriBidiCharType { fribidi_get_bidi_type(scalar) }

    /// For the line `range` of the paragraph: each character's level after L1 (trailing and
    /// separator whitespace back to the paragraph's level), and the visual position of each
    /// character (`visual[i]` for the character at `range.lowerBound + i`).
    func lineOrder(_ range: Range<Int>) -> (levels: [UInt8], visual: [Int]) {
        guard !range.isEmpty else { return ([], []) }
        // The line alone: FriBidi reads and writes only its characters (offset 0 into them).
        var levels = Array(self.levels[range])
        var map = [FriBidiStrIndex](unsafeUninitializedCapacity: range.count) { buffer, count in
            for i in 0..<range.count { buffer[i] = FriBidiStrIndex(i) }
            count = range.count
        }
        let base = baseLevel == 1 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR
        // Flags 0: marks stay after their base in logical order; HarfBuzz places them. FriBidi's
        // levels are signed chars: the same bytes as ours.
        let ok = types.withUnsafeBufferPointer { t in
            levels.withUnsafeMutableBufferPointer { l in
                l.withMemoryRebound(to: FriBidiLevel.self) { l in
                    fribidi_reorder_line(0, t.baseAddress! + range.lowerBound, FriBidiStrIndex(range.count), 0, base,
                                         l.baseAddress, nil, &map) != 0
                }
            }
        }
        var visual = [Int](repeating: 0, count: range.count)
        for (position, logical) in map.enumerated() {
            visual[ok ? Int(logical) : position] = position
        }
        return (levels, visual)
    }
}
