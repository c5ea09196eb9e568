// SPDX-License-Identifier: MIT
// Reads the board profile format (boards/README.md): line-based, `# comments`, `[section]`s,
// `key = value` with bare or "quoted" values. Pure Swift on a String; the caller reads the file.
//
// A `#` starts a comment at the start of a line, or after a blank when a blank or the line's end
// follows it, so a bare colour `#102030` is a value and `90  # portrait` is 90 and a comment.

import Raster
import HUDProtocol

extension BoardProfile {
    /// Parses `text`, the contents of the profile `file` (the name used in errors and to resolve
    /// relative paths, e.g. "boards/rpi4.conf"). Every key is optional; see boards/README.md.
    public static func parse(_ text: String, file: String) throws(BoardProfileError) -> BoardProfile {
        var parser = BoardProfileParser(file: file)
        var number = 0
        // Split on scalars: as Characters, "\r\n" is one grapheme and would not match "\n".
        for rawLine in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            try parser.line(Array(rawLine), number: number)
        }
        return parser.profile
    }
}

struct BoardProfileParser {
    /// Every section and its keys (`[hud]` takes any `set` key of the HUD's command language).
    static let sections: [(name: String, keys: [String])] = [
        ("device", ["backend", "card", "driver", "connectors", "fbdev"]),
        ("output", ["mode", "rotation", "scale", "pixel-format", "buffers"]),
        ("pacing", ["method", "refresh"]),
        ("theme", ["screen", "foreground", "background", "backdrop", "font", "logo", "logo-placement", "logo-offset"]),
        ("input", ["devices", "output", "assign", "calibration", "grab", "on-screen-keyboard", "keymap"]),
        ("modes", ["boot-up", "shutdown", "reboot", "updates", "system-upgrade", "firmware-upgrade"]),
        ("updates", ["support-url", "device-id"]),
        ("handover", ["watchdog"]),
        ("hud", []),
    ]

    let file: String
    var profile: BoardProfile
    /// The open section and the line of every section and key seen so far.
    var section: String?
    var sectionLines: [String: Int] = [:]
    var keyLines: [String: Int] = [:]

    init(file: String) {
        self.file = file
        profile = BoardProfile(file: file)
    }

    func error(_ line: Int, _ problem: BoardProfileError.Problem) -> BoardProfileError {
        BoardProfileError(file: file, line: line, problem: problem)
    }

    mutating func line(_ raw: [Unicode.Scalar], number: Int) throws(BoardProfileError) {
        let s = Self.trimmed(raw[...])
        guard let first = s.first, first != "#" else { return }
        if first == "[" {
            try sectionHeader(s, number: number)
            return
        }
        guard let eq = s.firstIndex(of: "="), case let key = Self.string(Self.trimmed(s[..<eq])),
              !key.isEmpty, key.unicodeScalars.allSatisfy(Self.isKeyScalar)
        else {
            throw error(number, .malformedLine(Self.string(s)))
        }
        guard let section else {
            throw error(number, .keyOutsideSection(key, belongsIn: Self.section(having: key)))
        }
        let keys = Self.sections.first { $0.name == section }!.keys
        if section != "hud" && !keys.contains(key) {
            let suggestion = BoardProfileParser.suggestion(for: key, among: keys)
            throw error(number, .unknownKey(key, section: section, suggestion: suggestion,
                                            belongsIn: suggestion == nil ? Self.section(having: key) : nil))
        }
        let qualified = section + "." + key
        if let first = keyLines[qualified] { throw error(number, .duplicateKey(key, firstLine: first)) }
        keyLines[qualified] = number
        let (value, quoted) = try self.value(s[(eq + 1)...], key: key, number: number)
        var values = BoardProfileValues(key: key, value: value, quoted: quoted, line: number, file: file)
        try values.apply(section: section, to: &profile)
    }

    mutating func sectionHeader(_ s: ArraySlice<Unicode.Scalar>, number: Int) throws(BoardProfileError) {
        guard let close = s.firstIndex(of: "]"), Self.isBlankOrComment(s[(close + 1)...]) else {
            throw error(number, .malformedLine(Self.string(s)))
        }
        let name = Self.string(Self.trimmed(s[(s.startIndex + 1)..<close]))
        guard Self.sections.contains(where: { $0.name == name }) else {
            let names = Self.sections.map(\.name)
            throw error(number, .unknownSection(name, suggestion: Self.suggestion(for: name, among: names)))
        }
        if let first = sectionLines[name] { throw error(number, .duplicateSection(name, firstLine: first)) }
        sectionLines[name] = number
        section = name
    }

    /// The value after `=`: a quoted string with its escapes undone, or bare text up to a comment.
    func value(_ s: ArraySlice<Unicode.Scalar>, key: String, number: Int) throws(BoardProfileError) -> (String, Bool) {
        let v = Self.trimmed(s)
        guard v.first == "\"" else {
            var end = v.endIndex
            for i in v.indices where v[i] == "#" && i > v.startIndex && Self.isBlank(v[i - 1])
                && (i + 1 == v.endIndex || Self.isBlank(v[i + 1])) {
                end = i
                break
            }
            if v.first == "#" && (v.count == 1 || Self.isBlank(v[v.startIndex + 1])) { end = v.startIndex }
            return (Self.string(Self.trimmed(v[..<end])), false)
        }
        var text = String.UnicodeScalarView()
        var i = v.startIndex + 1
        while i < v.endIndex {
            let c = v[i]
            if c == "\"" {
                guard Self.isBlankOrComment(v[(i + 1)...]) else { throw error(number, .textAfterQuote(key: key)) }
                return (String(text), true)
            }
            if c == "\\" {
                guard i + 1 < v.endIndex else { break }
                switch v[i + 1] {
                case "\"": text.append("\"")
                case "\\": text.append("\\")
                case "n": text.append("\n")
                case "t": text.append("\t")
                default: throw error(number, .badEscape(key: key, escape: "\\" + String(Character(v[i + 1]))))
                }
                i += 2
                continue
            }
            text.append(c)
            i += 1
        }
        throw error(number, .unterminatedQuote(key: key))
    }

    /// The section (other than `[hud]`) that has `key`.
    static func section(having key: String) -> String? {
        sections.first { $0.keys.contains(key) }?.name
    }

    // MARK: Scalars

    static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" }

    static func isKeyScalar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_"
    }

    static func trimmed(_ s: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi && isBlank(s[lo]) { lo += 1 }
        while hi > lo && isBlank(s[hi - 1]) { hi -= 1 }
        return s[lo..<hi]
    }

    static func isBlankOrComment(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        let t = trimmed(s)
        return t.isEmpty || t.first == "#"
    }

    static func string(_ s: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: s)
        return String(view)
    }

    // MARK: Suggestions

    static func suggestion(for word: String, among candidates: [String]) -> String? {
        Suggestion.closest(to: word, among: candidates)
    }
}
