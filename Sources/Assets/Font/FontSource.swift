// SPDX-License-Identifier: MIT
// Where a chain's face comes from, and the chain syntax `set font` and a profile's `font` take:
// one or more faces separated by `:` (as in PATH), each `FILE`, `FILE#N` for the Nth face of a
// collection (.ttc, counted from 0), and `@Scripts` to use the face only for those scripts'
// letters (ISO 15924 codes, comma-separated), as the default chain uses DejaVu Sans for Latin,
// Greek and Cyrillic and leaves Arabic and Hebrew to Noto's faces:
//   /usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
//   /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf@Latn,Grek,Cyrl
//   /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc#1

import CHarfBuzz

/// One face of a chain: a file, the face in it, and the scripts it is used for.
public struct FontSource: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var index: Int32
    /// ISO 15924 codes ("Latn"); nil: every script.
    public var scripts: [String]?

    public init(path: String, index: Int32 = 0, scripts: [String]? = nil) {
        self.path = path; self.index = index; self.scripts = scripts
    }

    public var description: String {
        path + (index != 0 ? "#\(index)" : "") + (scripts.map { "@" + $0.joined(separator: ",") } ?? "")
    }

    /// The sources `spec` names, in order. Throws `FontSpecError` naming the entry at fault.
    public static func parse(_ spec: String) throws(FontSpecError) -> [FontSource] {
        let entries = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard !spec.isEmpty else { throw FontSpecError(entry: spec, reason: "no font named") }
        return try entries.map { entry throws(FontSpecError) in
            var rest = Substring(entry), scripts: [String]? = nil, index: Int32 = 0
            if let at = rest.lastIndex(of: "@") {
                let codes = rest[rest.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                for code in codes where !isScriptCode(code) {
                    throw FontSpecError(entry: entry, reason: "\"\(code)\" is not an ISO 15924 script code (such as Latn, Arab, Deva)")
                }
                scripts = codes; rest = rest[..<at]
            }
            if let hash = rest.lastIndex(of: "#") {
                guard let n = Int32(rest[rest.index(after: hash)...]), (0...255).contains(n) else {
                    throw FontSpecError(entry: entry, reason: "the face number after # must be 0...255")
                }
                index = n; rest = rest[..<hash]
            }
            guard !rest.isEmpty else { throw FontSpecError(entry: entry, reason: "no file named") }
            return FontSource(path: String(rest), index: index, scripts: scripts)
        }
    }

    /// `sources` written back as a spec.
    public static func spec(_ sources: [FontSource]) -> String { sources.map(\.description).joined(separator: ":") }

    /// Four letters, the first a capital, that HarfBuzz knows as a script.
    static func isScriptCode(_ code: String) -> Bool {
        guard code.count == 4, code.allSatisfy({ $0.isASCII && $0.isLetter }), code.first!.isUppercase else { return false }
        return hb_script_from_string(code, -1) != HB_SCRIPT_UNKNOWN
    }

    /// HarfBuzz's value for the script `code`.
    static func script(_ code: String) -> UInt32 { UInt32(hb_script_from_string(code, -1).rawValue) }
}

/// A font chain spec that cannot be read.
public struct FontSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    public var entry: String
    public var reason: String
    public var description: String { "font \"\(entry)\": \(reason)" }
}
