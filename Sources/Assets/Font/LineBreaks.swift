// SPDX-License-Identifier: MIT
// Where a line may break: Unicode's line breaking algorithm (UAX #14) through libunibreak, and
// inside Thai words, which are written without spaces, libthai's dictionary breaks. Lao, Khmer
// and Myanmar words have no dictionary here (libthai is Thai only; ICU's dictionaries are tens
// of megabytes): their lines break at spaces and, for a word longer than a line, between
// clusters (TextLayout does that).
//
// The dynamic build links Debian 12's libunibreak 1.1: UAX #14 revision 30 with Unicode 6.2's
// classes, where characters added since (most emoji, new scripts) break as letters do: never
// inside a word, always at the spaces around it. The static daemon links 6.1 (Unicode 15), built
// by scripts/text-libraries.sh.

import CThai
import CUnibreak
import LinuxSystem

enum LineBreaks {
    /// Whether a line may break before each character (`[0]` is false: a line starts there).
    static func opportunities(_ text: [UInt32], scripts: [UInt32], language: String?) -> [Bool] {
        guard text.count > 1 else { return Array(repeating: false, count: text.count) }
        _ = unibreakReady
        var breaks = [CChar](repeating: 0, count: text.count)
        // libunibreak 1.1 (Debian 12's .so) asserts on regional indicators (flags): they go in as
        // letters, so a run of flags breaks as a word does.
        let safe = text.map { (0x1F1E6...0x1F1FF).contains($0) ? 0x41 : $0 }
        safe.withUnsafeBufferPointer { t in
            set_linebreaks_utf32(t.baseAddress, text.count, language, &breaks)
        }
        var allowed = [false] + breaks.dropLast().map { $0 == CChar(LINEBREAK_ALLOWBREAK) || $0 == CChar(LINEBREAK_MUSTBREAK) }
        var i = 0
        while i < text.count {
            guard scripts[i] == Script.thai else { i += 1; continue }
            var end = i
            while end < text.count && scripts[end] == Script.thai { end += 1 }
            ThaiWords.shared.breaks(in: Array(text[i..<end])).forEach { allowed[i + $0] = true }
            i = end
        }
        return allowed
    }

    /// Spaces that separate words, hang past the line end and are dropped at a break (no-break
    /// spaces are not among them).
    static func isSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0x09 || v == 0x3000 || v == 0x1680 || v == 0x205F || (v >= 0x2000 && v <= 0x200A && v != 0x2007)
    }

    /// Forced breaks: LF, VT, FF, CR (CR LF counts once, see TextLayout), NEL, line and paragraph separators.
    static func isHardBreak(_ v: UInt32) -> Bool {
        (v >= 0x0A && v <= 0x0D) || v == 0x85 || v == 0x2028 || v == 0x2029
    }

    /// Controls that draw nothing and take no part in layout (C0 and C1 but tab and the breaks).
    /// Format characters (bidi marks, joiners, variation selectors) stay: FriBidi and HarfBuzz read them.
    static func isControl(_ v: UInt32) -> Bool {
        (v < 0x20 && v != 0x09 && !isHardBreak(v)) || (v >= 0x7F && v < 0xA0 && v != 0x85)
    }
}

/// libunibreak's tables, set up once per process.
private let unibreakReady: Void = init_linebreak()

/// libthai's word breaker: its dictionary (libthai-data's thbrk.tri, or $LIBTHAI_DICTDIR's) is
/// loaded on the first Thai text; without it Thai breaks only at spaces.
final class ThaiWords: @unchecked Sendable {
    static let shared = ThaiWords()
    private let lock = Lock()
    private var breaker: OpaquePointer?
    private var loaded = false

    /// Whether the dictionary loaded (false before the first Thai text).
    var hasDictionary: Bool { lock.withLock { breaker != nil } }

    /// The positions inside `word` (1..<count) where a line may break.
    func breaks(in text: [UInt32]) -> [Int] {
        lock.withLock {
            if !loaded { loaded = true; breaker = th_brk_new(nil) }
            guard let breaker, text.count > 1 else { return [] }
            var positions = [Int32](repeating: 0, count: text.count)
            let wide = text.map { thwchar_t(truncatingIfNeeded: $0) }
            let n = th_brk_wc_find_breaks(breaker, wide + [0], &positions, positions.count)
            return positions.prefix(Int(max(n, 0))).map(Int.init).filter { $0 > 0 && $0 < text.count }
        }
    }
}
